//! The commands of the engine protocol, read from one line each.

use std::time::Duration;

use fanorona_env::{Budget, Color, Excerpt};

use super::clock::Clocks;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The initial position of the board set with the `Board` option.
    Initial,
    /// A position in FEN.
    Fen(String),
}

/// The limits of a `go` command (all optional).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// `movetime MS`, `depth N`, `nodes N`.
    pub budget: Budget,
    /// `infinite`: search until `stop` (never given with other limits).
    pub infinite: bool,
    /// `wtime MS btime MS winc MS binc MS movestogo N`: a time budget where `movetime` is not
    /// given.
    pub clocks: Clocks,
}

impl GoLimits {
    /// The budget of the search for `side` to move: `infinite` is a node count no search
    /// reaches (the `stop` command ends it), and the mover's clock gives the time where
    /// `movetime` is not given.
    pub fn budget_for(&self, side: Color) -> Budget {
        if self.infinite {
            return Budget::node_count(u64::MAX);
        }
        Budget {
            time: self.budget.time.or_else(|| self.clocks.budget(side)),
            ..self.budget
        }
    }
}

/// The `go` command that asks for a search within `budget`, as [`Command::parse`] reads it.
pub fn go_command(budget: &Budget) -> String {
    let mut go = String::from("go");
    if let Some(t) = budget.time {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(d) = budget.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = budget.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

/// One command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answered `readyok`, even during a search.
    IsReady,
    /// `ucinewgame`: the next position belongs to a new game.
    NewGame,
    /// `setoption name X value V`.
    SetOption {
        /// The option's name (case kept; matched without case).
        name: String,
        /// Its value (empty if none was given).
        value: String,
    },
    /// `position startpos|fen F [moves T...]`.
    Position {
        /// Where the game starts.
        start: Start,
        /// The complete turns played since, in notation.
        moves: Vec<String>,
    },
    /// `go [movetime MS] [depth N] [nodes N] [wtime MS] [btime MS] [winc MS] [binc MS]
    /// [movestogo N]` or `go infinite`.
    Go(GoLimits),
    /// `stop`: end the search now and answer its best move.
    Stop,
    /// `quit`: end the session.
    Quit,
    /// `d`: draw the position and give its FEN.
    Show,
    /// `moves`: list the legal turns.
    Moves,
}

/// A line that is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word names no command.
    #[error(
        "unknown command {}; expected uci, isready, ucinewgame, setoption, position, go, stop, quit, d or moves",
        Excerpt(.0)
    )]
    Unknown(String),
    /// The command's arguments are wrong.
    #[error("{command}: {reason}")]
    Syntax {
        /// The command.
        command: &'static str,
        /// What is wrong and what is expected.
        reason: String,
    },
}

fn syntax(command: &'static str, reason: impl Into<String>) -> CommandError {
    CommandError::Syntax {
        command,
        reason: reason.into(),
    }
}

impl Command {
    /// Reads one line; `Ok(None)` for a blank line.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else {
            return Ok(None);
        };
        let no_arguments = |command: Command, name: &'static str| {
            if rest.is_empty() {
                Ok(Some(command))
            } else {
                Err(syntax(
                    name,
                    format!("takes no arguments, got {}", Excerpt(&rest.join(" "))),
                ))
            }
        };
        match first {
            "uci" => no_arguments(Command::Uci, "uci"),
            "isready" => no_arguments(Command::IsReady, "isready"),
            "ucinewgame" => no_arguments(Command::NewGame, "ucinewgame"),
            "stop" => no_arguments(Command::Stop, "stop"),
            "quit" => no_arguments(Command::Quit, "quit"),
            "d" => no_arguments(Command::Show, "d"),
            "moves" => no_arguments(Command::Moves, "moves"),
            "setoption" => parse_setoption(rest).map(Some),
            "position" => parse_position(rest).map(Some),
            "go" => parse_go(rest).map(|limits| Some(Command::Go(limits))),
            other => Err(CommandError::Unknown(other.to_string())),
        }
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    let expected = "expected setoption name NAME [value VALUE]";
    if words.first() != Some(&"name") {
        return Err(syntax("setoption", expected));
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name = words[1..value_at.unwrap_or(words.len())].join(" ");
    if name.is_empty() {
        return Err(syntax("setoption", expected));
    }
    let value = value_at.map_or(String::new(), |i| words[i + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn parse_position(words: &[&str]) -> Result<Command, CommandError> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let start = match head.split_first() {
        Some((&"startpos", [])) => Start::Initial,
        Some((&"startpos", extra)) => {
            return Err(syntax(
                "position",
                format!(
                    "unexpected {} after startpos; expected moves",
                    Excerpt(&extra.join(" "))
                ),
            ));
        }
        Some((&"fen", fen)) if !fen.is_empty() => Start::Fen(fen.join(" ")),
        _ => {
            return Err(syntax(
                "position",
                "expected position startpos|fen FEN [moves TURN...]",
            ));
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_go(words: &[&str]) -> Result<GoLimits, CommandError> {
    let mut limits = GoLimits::default();
    let mut it = words.iter();
    while let Some(&key) = it.next() {
        if key == "infinite" {
            limits.infinite = true;
            continue;
        }
        let value = it
            .next()
            .ok_or_else(|| syntax("go", format!("{key} needs a number")))?;
        let bad = |what: String| syntax("go", format!("{key} {}: expected {what}", Excerpt(value)));
        let whole = || {
            value
                .parse::<u64>()
                .map_err(|_| bad(format!("a whole number from 0 to {}", u64::MAX)))
        };
        let positive = || {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| bad(format!("a whole number from 1 to {}", u64::MAX)))
        };
        // A GUI may send a negative time left once the clock has run out.
        let time_left = || {
            value
                .parse::<i64>()
                .map(|ms| Duration::from_millis(ms.max(0).unsigned_abs()))
                .map_err(|_| bad("a number of milliseconds".into()))
        };
        let clocks = &mut limits.clocks;
        match key {
            "movetime" => limits.budget.time = Some(Duration::from_millis(positive()?)),
            "depth" => limits.budget.depth = Some(positive()?.min(u32::MAX as u64) as u32),
            "nodes" => limits.budget.nodes = Some(positive()?),
            "wtime" => clocks.wtime = Some(time_left()?),
            "btime" => clocks.btime = Some(time_left()?),
            "winc" => clocks.winc = Duration::from_millis(whole()?),
            "binc" => clocks.binc = Duration::from_millis(whole()?),
            "movestogo" => clocks.movestogo = Some(positive()?.min(u32::MAX as u64) as u32),
            other => {
                return Err(syntax(
                    "go",
                    format!(
                        "unknown limit {}; expected movetime MS, depth N, nodes N, wtime MS, \
                         btime MS, winc MS, binc MS, movestogo N or infinite",
                        Excerpt(other)
                    ),
                ));
            }
        }
    }
    if limits.infinite
        && limits
            != (GoLimits {
                infinite: true,
                ..GoLimits::default()
            })
    {
        return Err(syntax(
            "go",
            "infinite searches until stop and takes no other limit",
        ));
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(line).unwrap().unwrap()
    }

    #[test]
    fn simple_commands_and_blank_lines() {
        assert_eq!(parse("uci"), Command::Uci);
        assert_eq!(parse("  isready "), Command::IsReady);
        assert_eq!(parse("ucinewgame"), Command::NewGame);
        assert_eq!(parse("d"), Command::Show);
        assert_eq!(parse("moves"), Command::Moves);
        assert_eq!(Command::parse("   "), Ok(None));
        assert!(matches!(
            Command::parse("uci now"),
            Err(CommandError::Syntax { .. })
        ));
        let e = Command::parse("hello").unwrap_err();
        assert!(e.to_string().contains("unknown command \"hello\""), "{e}");
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            parse("setoption name Agent value minimax:depth=2, seed=3"),
            Command::SetOption {
                name: "Agent".into(),
                value: "minimax:depth=2, seed=3".into()
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: String::new()
            }
        );
        assert!(Command::parse("setoption Agent value x").is_err());
        assert!(Command::parse("setoption name value x").is_err());
    }

    #[test]
    fn position_reads_a_fen_up_to_moves() {
        assert_eq!(
            parse("position startpos"),
            Command::Position {
                start: Start::Initial,
                moves: vec![]
            }
        );
        assert_eq!(
            parse("position fen 9/9/3B5/9/2W1B4 w 0 1 moves c1d1Ad2A"),
            Command::Position {
                start: Start::Fen("9/9/3B5/9/2W1B4 w 0 1".into()),
                moves: vec!["c1d1Ad2A".into()]
            }
        );
        assert!(Command::parse("position").is_err());
        assert!(Command::parse("position fen").is_err());
        assert!(Command::parse("position startpos e2e3").is_err());
    }

    #[test]
    fn go_reads_its_limits() {
        assert_eq!(parse("go"), Command::Go(GoLimits::default()));
        assert_eq!(
            parse("go movetime 250 depth 3 nodes 1000"),
            Command::Go(GoLimits {
                budget: Budget {
                    time: Some(Duration::from_millis(250)),
                    depth: Some(3),
                    nodes: Some(1000),
                },
                ..GoLimits::default()
            })
        );
        assert_eq!(
            parse("go wtime 60000 btime -20 winc 1000 binc 0 movestogo 30 depth 8"),
            Command::Go(GoLimits {
                budget: Budget::fixed_depth(8),
                clocks: Clocks {
                    wtime: Some(Duration::from_millis(60_000)),
                    btime: Some(Duration::ZERO),
                    winc: Duration::from_millis(1000),
                    binc: Duration::ZERO,
                    movestogo: Some(30),
                },
                ..GoLimits::default()
            })
        );
        assert_eq!(
            parse("go infinite"),
            Command::Go(GoLimits {
                infinite: true,
                ..GoLimits::default()
            })
        );
        for bad in [
            "go depth",
            "go depth x",
            "go depth 0",
            "go wtime",
            "go winc -5",
            "go movestogo 0",
            "go ponder",
            "go infinite depth 3",
        ] {
            assert!(Command::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn infinite_is_a_budget_no_search_reaches_and_clocks_give_the_movetime() {
        let infinite = GoLimits {
            infinite: true,
            ..GoLimits::default()
        };
        assert_eq!(
            infinite.budget_for(Color::White),
            Budget::node_count(u64::MAX)
        );
        let clocks = GoLimits {
            budget: Budget::fixed_depth(5),
            clocks: Clocks {
                wtime: Some(Duration::from_secs(20)),
                btime: Some(Duration::from_secs(2)),
                ..Clocks::default()
            },
            ..GoLimits::default()
        };
        assert_eq!(
            clocks.budget_for(Color::Black),
            Budget {
                time: Some(Duration::from_millis(100)),
                ..Budget::fixed_depth(5)
            }
        );
        // movetime, when given, wins over the clocks.
        let mut both = clocks;
        both.budget.time = Some(Duration::from_millis(7));
        assert_eq!(
            both.budget_for(Color::White).time,
            Some(Duration::from_millis(7))
        );
    }

    #[test]
    fn a_budget_is_asked_for_by_a_go_that_reads_back_as_it() {
        for budget in [
            Budget::default(),
            Budget::movetime(Duration::from_millis(250)),
            Budget {
                time: Some(Duration::from_millis(40)),
                depth: Some(6),
                nodes: Some(1000),
            },
        ] {
            assert_eq!(
                parse(&go_command(&budget)),
                Command::Go(GoLimits {
                    budget,
                    ..GoLimits::default()
                })
            );
        }
    }
}
