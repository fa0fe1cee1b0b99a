//! The checked options of a specification, as a factory reads them: typed values, defaults
//! from the kind's table filled in.

use super::option::Value;
use super::{AgentKind, AgentSpec, OptionDefault};

/// A specification whose options the [`Registry`](super::Registry) has checked against its
/// kind: every option is declared and every value (given or default) fits its type and range.
/// Asking for an option the kind does not declare, or with another type, is a bug and panics.
#[derive(Clone, Copy, Debug)]
pub struct AgentOptions<'a> {
    spec: &'a AgentSpec,
    kind: &'a AgentKind,
}

impl<'a> AgentOptions<'a> {
    /// Wraps a specification already checked against `kind`.
    pub(crate) fn checked(spec: &'a AgentSpec, kind: &'a AgentKind) -> AgentOptions<'a> {
        AgentOptions { spec, kind }
    }

    /// The specification (its text is the agent's usual name).
    pub fn spec(&self) -> &'a AgentSpec {
        self.spec
    }

    /// The kind the specification was checked against.
    pub fn kind(&self) -> &'a AgentKind {
        self.kind
    }

    /// Whether the specification gives `name` (rather than leaving it to its default).
    pub fn is_given(&self, name: &str) -> bool {
        self.spec.option(name).is_some()
    }

    /// A whole-number option, given or default; `None` if neither.
    pub fn whole<T: TryFrom<u64>>(&self, name: &str) -> Option<T> {
        match self.value(name)? {
            Value::Whole(n) => Some(T::try_from(n).unwrap_or_else(|_| {
                panic!("option {name} of {}: {n} does not fit", self.kind.name)
            })),
            _ => self.wrong_type(name, "a whole number"),
        }
    }

    /// A real-number option, given or default; `None` if neither.
    pub fn real(&self, name: &str) -> Option<f64> {
        match self.value(name)? {
            Value::Real(x) => Some(x),
            _ => self.wrong_type(name, "a real number"),
        }
    }

    /// A `true|false` option, given or default; `None` if neither.
    pub fn flag(&self, name: &str) -> Option<bool> {
        match self.value(name)? {
            Value::Bool(b) => Some(b),
            _ => self.wrong_type(name, "true or false"),
        }
    }

    /// A text or path option, given or default; `None` if neither.
    pub fn text(&self, name: &str) -> Option<&'a str> {
        match self.value(name)? {
            Value::Text(text) => Some(text),
            _ => self.wrong_type(name, "text"),
        }
    }

    /// The `seed` option if given, else `seed`.
    pub fn seed_or(&self, seed: u64) -> u64 {
        self.whole("seed").unwrap_or(seed)
    }

    /// The value of `name`, given or default, read with its declared type.
    fn value(&self, name: &str) -> Option<Value<'a>> {
        let def = self
            .kind
            .option(name)
            .unwrap_or_else(|| panic!("agent kind {} declares no option {name}", self.kind.name));
        let text = match (self.spec.option(name), def.default) {
            (Some(given), _) => given,
            (None, OptionDefault::Value(default)) => default,
            (None, OptionDefault::Whole(n)) => return Some(Value::Whole(n)),
            (None, OptionDefault::Real(x)) => return Some(Value::Real(x)),
            (None, OptionDefault::Flag(b)) => return Some(Value::Bool(b)),
            (None, OptionDefault::Required | OptionDefault::Unset) => return None,
        };
        Some(def.value.read(text).unwrap_or_else(|expected| {
            panic!(
                "option {name} of {}: unchecked value {text:?}, expected {expected}",
                self.kind.name
            )
        }))
    }

    fn wrong_type<T>(&self, name: &str, asked: &str) -> T {
        panic!(
            "option {name} of {} is read as {asked}, which it is not declared as",
            self.kind.name
        )
    }
}
