//! Rule settings: the draw rules and the variants of RULES.md.

use super::color::Color;

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
    /// first-turn,vela=white`, starting from the defaults.
    pub fn parse(text: &str) -> Result<Rules, String> {
        let mut rules = Rules::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item.split_once('=').unwrap_or((item, ""));
            let off = matches!(value, "off" | "none" | "0");
            let number = |max: u32| -> Result<u32, String> {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n <= max)
                    .ok_or_else(|| {
                        format!("rule {key}: expected a number up to {max} or off, got {value:?}")
                    })
            };
            match key {
                "no-capture" => {
                    rules.no_capture_limit = if off {
                        None
                    } else {
                        Some(number(u16::MAX as u32)? as u16)
                    }
                }
                "repetition" => {
                    rules.repetition_limit = if off {
                        None
                    } else {
                        Some(number(255)?.max(2) as u8)
                    }
                }
                "mandatory" | "mandatory-continuation" => rules.mandatory_continuation = !off,
                "first-turn" => rules.first_turn_single_capture = !off,
                "vela" => {
                    rules.vela = if off {
                        None
                    } else if value.is_empty() {
                        Some(Color::White)
                    } else {
                        Some(value.parse()?)
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown rule {key:?}: expected no-capture=N|off, repetition=N|off, mandatory, first-turn, vela[=white|black]"
                    ));
                }
            }
        }
        Ok(rules)
    }
}

/// Writes every setting in the form [`Rules::parse`] reads back, e.g.
/// `no-capture=100,repetition=3,mandatory=off,first-turn=off,vela=off`.
impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let limit = |l: Option<u32>| l.map_or("off".to_string(), |n| n.to_string());
        let on_off = |b: bool| if b { "on" } else { "off" };
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
        }
        assert_eq!(
            Rules::default().to_string(),
            "no-capture=100,repetition=3,mandatory=off,first-turn=off,vela=off"
        );
    }
}
