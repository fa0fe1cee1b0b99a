//! The options an agent kind declares: name, value type with its range, default and help.

/// The type of an option's value, with the range the registry enforces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueType {
    /// A whole number from `min` to `max`.
    Whole {
        /// The least value accepted.
        min: u64,
        /// The greatest value accepted.
        max: u64,
    },
    /// A finite real number from `min` to `max`.
    Real {
        /// The least value accepted.
        min: f64,
        /// The greatest value accepted.
        max: f64,
    },
    /// `true` or `false`.
    Bool,
    /// Any text; the placeholder names it in help (`WxH`, `ARGS`).
    Text(&'static str),
    /// The path of a file or program (not empty).
    Path,
}

/// A value read according to its [`ValueType`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value<'a> {
    Whole(u64),
    Real(f64),
    Bool(bool),
    Text(&'a str),
}

impl ValueType {
    /// Reads `text`, or says what is expected instead.
    pub(crate) fn read(self, text: &str) -> Result<Value<'_>, String> {
        match self {
            ValueType::Whole { min, max } => match text.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(Value::Whole(n)),
                _ => Err(format!("a whole number from {min} to {max}")),
            },
            ValueType::Real { min, max } => match text.parse::<f64>() {
                Ok(x) if x.is_finite() && (min..=max).contains(&x) => Ok(Value::Real(x)),
                _ => Err(format!("a number from {min} to {max}")),
            },
            ValueType::Bool => match text {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err("true or false".into()),
            },
            ValueType::Text(_) => Ok(Value::Text(text)),
            ValueType::Path if text.is_empty() => Err("a path".into()),
            ValueType::Path => Ok(Value::Text(text)),
        }
    }

    /// The placeholder of a value in help (`N`, `X`, `true|false`, ...).
    fn placeholder(self) -> &'static str {
        match self {
            ValueType::Whole { .. } => "N",
            ValueType::Real { .. } => "X",
            ValueType::Bool => "true|false",
            ValueType::Text(placeholder) => placeholder,
            ValueType::Path => "PATH",
        }
    }

    /// The range in help (`1-64`, `at least 1`), if the type has a useful one.
    fn range(self) -> Option<String> {
        match self {
            ValueType::Whole {
                min: 0,
                max: u64::MAX,
            } => None,
            ValueType::Whole { min, max: u64::MAX } => Some(format!("at least {min}")),
            ValueType::Whole { min, max } => Some(format!("{min}-{max}")),
            ValueType::Real { min, max } => Some(format!("{min}-{max}")),
            ValueType::Bool | ValueType::Text(_) | ValueType::Path => None,
        }
    }
}

/// What an option is worth when a specification leaves it out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionDefault {
    /// The specification must give it.
    Required,
    /// No value: the factory does without (its help says what that means).
    Unset,
    /// This value, written out, read with the option's type.
    Value(&'static str),
    /// This whole number: the constant the code itself defaults to, so that the two cannot
    /// differ.
    Whole(u64),
    /// This number (likewise; help shows it as Rust writes it, so pick one it writes short).
    Real(f64),
    /// This flag (likewise).
    Flag(bool),
}

impl OptionDefault {
    /// The default as help shows it and specifications write it (`None`: required or unset).
    pub fn text(self) -> Option<String> {
        match self {
            OptionDefault::Required | OptionDefault::Unset => None,
            OptionDefault::Value(text) => Some(text.to_string()),
            OptionDefault::Whole(n) => Some(n.to_string()),
            OptionDefault::Real(x) => Some(x.to_string()),
            OptionDefault::Flag(b) => Some(b.to_string()),
        }
    }
}

/// One option of an agent kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptionDef {
    /// The key, lower case (`depth`).
    pub name: &'static str,
    /// The type and range of its value.
    pub value: ValueType,
    /// Its value when not given.
    pub default: OptionDefault,
    /// What it does, in one short line.
    pub help: &'static str,
}

impl OptionDef {
    /// The `seed` option of the kinds that make random choices.
    pub const SEED: OptionDef = OptionDef {
        name: "seed",
        value: ValueType::Whole {
            min: 0,
            max: u64::MAX,
        },
        default: OptionDefault::Unset,
        help: "seed of its random choices (default: the caller's, e.g. the match seed)",
    };

    /// The option as help shows it: `depth=N (1-64, default 4)`.
    pub fn usage(&self) -> String {
        let mut notes: Vec<String> = self.value.range().into_iter().collect();
        if self.default == OptionDefault::Required {
            notes.push("required".into());
        } else if let Some(value) = self.default.text() {
            notes.push(format!("default {value}"));
        }
        let usage = format!("{}={}", self.name, self.value.placeholder());
        if notes.is_empty() {
            usage
        } else {
            format!("{usage} ({})", notes.join(", "))
        }
    }

    /// The usage and the help: `depth=N (1-64, default 4): search depth in turns`.
    pub fn help_line(&self) -> String {
        format!("{}: {}", self.usage(), self.help)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_shows_type_range_and_default() {
        let depth = OptionDef {
            name: "depth",
            value: ValueType::Whole { min: 1, max: 64 },
            default: OptionDefault::Value("4"),
            help: "search depth",
        };
        assert_eq!(depth.usage(), "depth=N (1-64, default 4)");
        assert_eq!(depth.help_line(), "depth=N (1-64, default 4): search depth");
        assert_eq!(OptionDef::SEED.usage(), "seed=N");
        let cmd = OptionDef {
            name: "cmd",
            value: ValueType::Path,
            default: OptionDefault::Required,
            help: "the program",
        };
        assert_eq!(cmd.usage(), "cmd=PATH (required)");
    }

    #[test]
    fn values_are_read_by_type_and_range() {
        let whole = ValueType::Whole { min: 1, max: 64 };
        assert_eq!(whole.read("64"), Ok(Value::Whole(64)));
        assert_eq!(whole.read("0").unwrap_err(), "a whole number from 1 to 64");
        let real = ValueType::Real { min: 0.0, max: 2.0 };
        assert_eq!(real.read("0.5"), Ok(Value::Real(0.5)));
        assert!(real.read("nan").is_err() && real.read("-1").is_err());
        assert_eq!(ValueType::Bool.read("yes").unwrap_err(), "true or false");
        assert_eq!(ValueType::Text("ARGS").read(""), Ok(Value::Text("")));
        assert_eq!(ValueType::Path.read("").unwrap_err(), "a path");
    }
}
