//! Agent specifications: short strings such as `random`, `minimax:depth=4` or
//! `minimax:ms=200,seed=7`, read generically into a kind and `key=value` options. Which kinds
//! and options exist is the [`Registry`](super::Registry)'s business.

use std::fmt;
use std::str::FromStr;

use super::SpecError;
use crate::excerpt::Excerpt;

/// A parsed agent specification: `kind[:key=value,key=value...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent kind, lower case (`random`, `greedy`, `minimax`, ...).
    pub kind: String,
    /// The options in the order given, keys lower case.
    pub options: Vec<(String, String)>,
}

impl AgentSpec {
    /// Parses `kind[:key=value,...]`. Only the syntax is checked here; the registry checks the
    /// kind and its options.
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SpecError::Empty);
        }
        let syntax = |reason: String| SpecError::Syntax {
            spec: text.to_string(),
            reason,
        };
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let kind = kind.trim().to_ascii_lowercase();
        if kind.is_empty() || !kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(syntax(format!(
                "the kind {} must be a word of letters, digits or '-'",
                Excerpt(&kind)
            )));
        }
        let mut options: Vec<(String, String)> = Vec::new();
        for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| syntax(format!("option {} is not key=value", Excerpt(item))))?;
            let key = key.trim().to_ascii_lowercase();
            if key.is_empty() {
                return Err(syntax(format!("option {} has no name", Excerpt(item))));
            }
            if options.iter().any(|(k, _)| *k == key) {
                return Err(SpecError::DuplicateOption { kind, option: key });
            }
            options.push((key, value.trim().to_string()));
        }
        Ok(AgentSpec { kind, options })
    }

    /// The value of an option, if given.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The same specification with option `key` set to `value` (replacing any value it had,
    /// else added last), or removed when `value` is `None`.
    pub fn with_option(&self, key: &str, value: Option<&str>) -> AgentSpec {
        let key = key.to_ascii_lowercase();
        let mut options: Vec<(String, String)> = self
            .options
            .iter()
            .filter(|(k, _)| *k != key)
            .cloned()
            .collect();
        if let Some(value) = value {
            match self.options.iter().position(|(k, _)| *k == key) {
                Some(at) => options.insert(at, (key, value.to_string())),
                None => options.push((key, value.to_string())),
            }
        }
        AgentSpec {
            kind: self.kind.clone(),
            options,
        }
    }
}

/// Splits a comma-separated list of specifications, e.g. `minimax:depth=2,seed=1,random` into
/// `minimax:depth=2,seed=1` and `random`: an item that reads `key=value` (a plain word before
/// `=`) is an option of the specification before it, any other item starts a new one.
pub fn split_spec_list(text: &str) -> Vec<String> {
    let mut specs: Vec<String> = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let is_option = item.split_once('=').is_some_and(|(key, _)| {
            !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        match specs.last_mut() {
            Some(spec) if is_option => {
                spec.push(',');
                spec.push_str(item);
            }
            _ => specs.push(item.to_string()),
        }
    }
    specs
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        AgentSpec::parse(text)
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_is_set_in_place_added_last_or_removed() {
        let spec = AgentSpec::parse("minimax:depth=4,hash=8").unwrap();
        assert_eq!(
            spec.with_option("Depth", Some("6")).to_string(),
            "minimax:depth=6,hash=8"
        );
        assert_eq!(
            spec.with_option("tables", Some("t")).to_string(),
            "minimax:depth=4,hash=8,tables=t"
        );
        assert_eq!(
            spec.with_option("depth", None).to_string(),
            "minimax:hash=8"
        );
        assert_eq!(spec.with_option("ms", None), spec);
    }

    #[test]
    fn spec_lists_split_where_a_new_kind_starts() {
        assert_eq!(
            split_spec_list("minimax:depth=2,seed=1, random,net:path=a.safetensors,sims=8"),
            [
                "minimax:depth=2,seed=1",
                "random",
                "net:path=a.safetensors,sims=8"
            ]
        );
        assert_eq!(
            split_spec_list("models/x.safetensors,,greedy"),
            ["models/x.safetensors", "greedy"]
        );
        assert!(split_spec_list(" , ").is_empty());
    }

    #[test]
    fn parses_kind_and_options() {
        let spec = AgentSpec::parse(" Minimax:depth=4, seed = 7 ").unwrap();
        assert_eq!(spec.kind, "minimax");
        assert_eq!(
            spec.options,
            vec![("depth".into(), "4".into()), ("seed".into(), "7".into())]
        );
        assert_eq!(spec.to_string(), "minimax:depth=4,seed=7");
        assert_eq!(spec.option("seed"), Some("7"));
        assert_eq!("random".parse::<AgentSpec>().unwrap().options, vec![]);
    }

    #[test]
    fn syntax_errors_say_what_is_expected() {
        assert_eq!(AgentSpec::parse("  "), Err(SpecError::Empty));
        let e = AgentSpec::parse("minimax:depth").unwrap_err();
        assert!(e.to_string().contains("not key=value"), "{e}");
        let e = AgentSpec::parse("mini max").unwrap_err();
        assert!(matches!(e, SpecError::Syntax { .. }), "{e}");
        let e = AgentSpec::parse("minimax:depth=2,depth=3").unwrap_err();
        assert!(matches!(e, SpecError::DuplicateOption { .. }), "{e}");
    }
}
