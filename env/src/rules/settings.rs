//! Rule settings: the draw rules and the variants of docs/rules.md.

use super::color::Color;
use super::error::RulesError;

/// The rule settings a game is played under. `Rules::default()` is the standard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Draw after this many consecutive turns without a capture (`None`: never). Default 100.
    pub no_capture_limit: Option<u16>,
    /// Draw when a position (pieces and side to move, at the start of a turn) occurs this many
    /// times (`None`: never). Default 3 (threefold repetition).
    pub repetition_limit: Option<u8>,
    /// A capture chain must go on while a capture is possible (no "stop"). Default off.
    pub mandatory_continuation: bool,
    /// Each side's first turn may capture only once (no chain). Default off.
    pub first_turn_single_capture: bool,
    /// The Vela handicap game, with the side it favours (who moves first). Default off.
    pub vela: Option<Color>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            no_capture_limit: Some(100),
            repetition_limit: Some(3),
            mandatory_continuation: false,
            first_turn_single_capture: false,
            vela: None,
        }
    }
}

/// Pieces the non-favoured side keeps when the Vela opening phase ends.
pub const VELA_END_PIECES: u32 = 5;

impl Rules {
    /// The rules without draw limits: games end only by a win, or never (used by the solver).
    pub fn pure() -> Rules {
        Rules {
            no_capture_limit: None,
            repetition_limit: None,
            ..Rules::default()
        }
    }

    /// Parses a comma-separated list of settings, e.g. `no-capture=50,repetition=off,mandatory,
    /// first-turn=on,vela=white`, starting from the defaults. Counters take a number in their
    /// range or `off`; flags take `on`, `off`, `true` or `false` (a bare flag is `on`); `vela`
    /// takes `white`, `black` or `off` (bare: `white`). Unknown, malformed and repeated
    /// settings are refused.
    pub fn parse(text: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::default();
        let mut seen: Vec<Setting> = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = match item.split_once('=') {
                Some((key, value)) => (key.trim(), Some(value.trim())),
                None => (item, None),
            };
            let setting = Setting::from_key(key).ok_or_else(|| RulesError::UnknownSetting {
                key: key.to_string(),
            })?;
            if seen.contains(&setting) {
                return Err(RulesError::Repeated {
                    setting: setting.name(),
                });
            }
            seen.push(setting);
            setting.apply(value, &mut rules)?;
        }
        Ok(rules)
    }
}

/// One setting of [`Rules`], as named in [`Rules::parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Setting {
    NoCapture,
    Repetition,
    Mandatory,
    FirstTurn,
    Vela,
}

impl Setting {
    /// The setting a key names (`mandatory-continuation` is another name of `mandatory`).
    fn from_key(key: &str) -> Option<Setting> {
        Some(match key {
            "no-capture" => Setting::NoCapture,
            "repetition" => Setting::Repetition,
            "mandatory" | "mandatory-continuation" => Setting::Mandatory,
            "first-turn" => Setting::FirstTurn,
            "vela" => Setting::Vela,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Setting::NoCapture => "no-capture",
            Setting::Repetition => "repetition",
            Setting::Mandatory => "mandatory",
            Setting::FirstTurn => "first-turn",
            Setting::Vela => "vela",
        }
    }

    /// What the setting's value may be.
    fn expected(self) -> &'static str {
        match self {
            Setting::NoCapture => "a number from 1 to 65535, or off",
            Setting::Repetition => "a number from 2 to 255, or off",
            Setting::Mandatory | Setting::FirstTurn => "on, off, true or false (bare: on)",
            Setting::Vela => "white, black or off (bare: white)",
        }
    }

    /// Sets this setting of `rules` from `value` (`None`: the bare key).
    fn apply(self, value: Option<&str>, rules: &mut Rules) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue {
            setting: self.name(),
            value: value.unwrap_or("").to_string(),
            expected: self.expected(),
        };
        let limit = |min: u32, max: u32| -> Result<Option<u32>, RulesError> {
            match value {
                Some("off") => Ok(None),
                Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => v
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .map(Some)
                    .ok_or_else(bad),
                _ => Err(bad()),
            }
        };
        let flag = || match value {
            None | Some("on" | "true") => Ok(true),
            Some("off" | "false") => Ok(false),
            Some(_) => Err(bad()),
        };
        match self {
            Setting::NoCapture => {
                rules.no_capture_limit = limit(1, u16::MAX.into())?.map(|n| n as u16);
            }
            Setting::Repetition => {
                rules.repetition_limit = limit(2, u8::MAX.into())?.map(|n| n as u8);
            }
            Setting::Mandatory => rules.mandatory_continuation = flag()?,
            Setting::FirstTurn => rules.first_turn_single_capture = flag()?,
            Setting::Vela => {
                rules.vela = match value {
                    None | Some("white") => Some(Color::White),
                    Some("black") => Some(Color::Black),
                    Some("off") => None,
                    Some(_) => return Err(bad()),
                }
            }
        }
        Ok(())
    }
}

/// Writes every setting in the form [`Rules::parse`] reads back, e.g.
/// `no-capture=100,repetition=3,mandatory=off,first-turn=off,vela=off`; the alternate form
/// (`{:#}`, used by game records) names only the rules that are on, e.g.
/// `no-capture=100,repetition=3,mandatory`.
impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let limit = |l: Option<u32>| l.map_or("off".to_string(), |n| n.to_string());
        let on_off = |b: bool| if b { "on" } else { "off" };
        if f.alternate() {
            write!(
                f,
                "no-capture={},repetition={}",
                limit(self.no_capture_limit.map(u32::from)),
                limit(self.repetition_limit.map(u32::from))
            )?;
            for (on, name) in [
                (self.mandatory_continuation, "mandatory"),
                (self.first_turn_single_capture, "first-turn"),
            ] {
                if on {
                    write!(f, ",{name}")?;
                }
            }
            if let Some(color) = self.vela {
                write!(f, ",vela={}", color.name())?;
            }
            return Ok(());
        }
        write!(
            f,
            "no-capture={},repetition={},mandatory={},first-turn={},vela={}",
            limit(self.no_capture_limit.map(u32::from)),
            limit(self.repetition_limit.map(u32::from)),
            on_off(self.mandatory_continuation),
            on_off(self.first_turn_single_capture),
            self.vela.map_or("off", Color::name)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_written_out_read_back_the_same() {
        let all = [
            Rules::default(),
            Rules::pure(),
            Rules {
                no_capture_limit: Some(50),
                repetition_limit: Some(2),
                mandatory_continuation: true,
                first_turn_single_capture: true,
                vela: Some(Color::Black),
            },
        ];
        for rules in all {
            assert_eq!(Rules::parse(&rules.to_string()), Ok(rules), "{rules}");
            assert_eq!(Rules::parse(&format!("{rules:#}")), Ok(rules), "{rules:#}");
        }
        assert_eq!(
            Rules::default().to_string(),
            "no-capture=100,repetition=3,mandatory=off,first-turn=off,vela=off"
        );
    }

    #[test]
    fn a_huge_value_is_echoed_cut_short() {
        let value = "x".repeat(100_000);
        let e = Rules::parse(&format!("mandatory={value}"))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 300 && e.contains("(100000 characters)"), "{e}");
    }

    #[test]
    fn flags_take_on_off_true_false_and_nothing_else() {
        for (text, on) in [
            ("mandatory", true),
            ("mandatory=on", true),
            ("mandatory=true", true),
            ("mandatory=off", false),
            ("mandatory=false", false),
            ("mandatory-continuation=off", false),
        ] {
            assert_eq!(
                Rules::parse(text).unwrap().mandatory_continuation,
                on,
                "{text}"
            );
        }
        assert!(
            !Rules::parse("first-turn=off")
                .unwrap()
                .first_turn_single_capture
        );
        for text in [
            "mandatory=no",
            "mandatory=",
            "first-turn=bogus",
            "first-turn=1",
        ] {
            let e = Rules::parse(text).unwrap_err();
            assert!(matches!(e, RulesError::BadValue { .. }), "{text}: {e}");
            assert!(e.to_string().contains("on, off, true or false"), "{e}");
        }
    }

    #[test]
    fn counters_take_their_range_or_off() {
        assert_eq!(
            Rules::parse("no-capture=off").unwrap().no_capture_limit,
            None
        );
        assert_eq!(
            Rules::parse("no-capture=1").unwrap().no_capture_limit,
            Some(1)
        );
        assert_eq!(
            Rules::parse("repetition=2").unwrap().repetition_limit,
            Some(2)
        );
        assert_eq!(
            Rules::parse("repetition=off").unwrap().repetition_limit,
            None
        );
        for (text, range) in [
            ("no-capture=0", "from 1 to 65535"),
            ("no-capture=65536", "from 1 to 65535"),
            ("no-capture=none", "from 1 to 65535"),
            ("no-capture=+5", "from 1 to 65535"),
            ("no-capture", "from 1 to 65535"),
            ("repetition=1", "from 2 to 255"),
            ("repetition=0", "from 2 to 255"),
            ("repetition=256", "from 2 to 255"),
        ] {
            let e = Rules::parse(text).unwrap_err();
            assert!(e.to_string().contains(range), "{text}: {e}");
        }
    }

    #[test]
    fn vela_unknown_and_repeated_settings_are_refused() {
        assert_eq!(Rules::parse("vela").unwrap().vela, Some(Color::White));
        assert_eq!(Rules::parse("vela=black").unwrap().vela, Some(Color::Black));
        assert_eq!(Rules::parse("vela=off").unwrap().vela, None);
        assert!(matches!(
            Rules::parse("vela=red"),
            Err(RulesError::BadValue {
                setting: "vela",
                ..
            })
        ));
        assert_eq!(
            Rules::parse("vela=white,vela=black"),
            Err(RulesError::Repeated { setting: "vela" })
        );
        assert_eq!(
            Rules::parse("mandatory,mandatory-continuation=off"),
            Err(RulesError::Repeated {
                setting: "mandatory"
            })
        );
        assert!(matches!(
            Rules::parse("fast"),
            Err(RulesError::UnknownSetting { .. })
        ));
        assert_eq!(Rules::parse(" , "), Ok(Rules::default()));
    }
}
