//! An exact exam set: positions from games of strong agents, each labelled by the prover
//! ([`fanorona_exact::prover`]) with its proven value and the proven set of turns that keep
//! that value, in a versioned text file.
//!
//! ```text
//! # fanorona exact exam set
//! # version: 1
//! # board: 5x5
//! # labeller: the prover (df-pn) with tables up to 8 pieces, at most 1000000 nodes a position; ...
//! # sources: games of every pair of minimax:depth=4 / mcts:sims=800 on 5x5, ...
//! # line: FEN ; value ; turns that keep it
//! BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w 0 1 ; draw ; b2c3A
//! ```
//!
//! Header lines are as in [`super::TestSet`]'s files. A value is `win`, `draw` or `loss` for
//! the side to move under the tables' convention (no draw limits: a game neither side can
//! force to an end is a draw); the turns that keep it are in notation, separated by spaces
//! (every turn keeps a loss). Only positions whose value and every turn's status the prover
//! settled within its budget are kept; the header says how many were tried.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::ops::RangeInclusive;
use std::path::Path;

use fanorona_env::{Board, Excerpt, Position, Turn};
use fanorona_exact::prover::{TablesId, Verdict};
use fanorona_exact::tables::EndgameTables;
use fanorona_util::progress::ProgressBar;
use serde_json::json;

use super::error::ExamError;
use super::labelling::{Accept, LabelBudget, Labelling, label_candidates};
use super::sample::Sampler;
use super::set_file::{SetFormat, SetHeader, fields, parse_position, write_set_text};
use crate::arena::AgentFactory;

/// The layout of an exact set file.
const FORMAT: SetFormat = SetFormat {
    title: "# fanorona exact exam set",
    version: 1,
    line: "FEN ; value ; turns that keep it",
};

/// A position with its proven value and the turns that keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvenPosition {
    /// The position, a fresh game (no history, no-capture counter 0).
    pub position: Position,
    /// Its value for the side to move, without draw limits.
    pub value: Verdict,
    /// The turns that keep the value (every turn of a lost position).
    pub keeps: Vec<Turn>,
}

impl ProvenPosition {
    /// Whether `turn` is one of the turns that keep the value (same start, end and captures).
    pub fn kept_by(&self, turn: &Turn) -> bool {
        self.keeps.iter().any(|k| k.same_result(turn))
    }

    /// Whether some legal turn spoils the value (a *critical* position: where an agent can
    /// go wrong). A lost position never is: every turn keeps a loss.
    pub fn is_critical(&self) -> bool {
        self.position
            .legal_turns()
            .iter()
            .any(|turn| !self.kept_by(turn))
    }
}

/// How an exact set's positions are drawn: from which games, how many, and which.
pub struct SetSampling<'a> {
    /// The position every game starts from.
    pub start: Position,
    /// The (white, black) pairs of agents playing the games.
    pub pairs: Vec<(&'a AgentFactory<'a>, &'a AgentFactory<'a>)>,
    /// Positions the set should hold.
    pub count: usize,
    /// Only positions with this many pieces on the board.
    pub pieces: RangeInclusive<u32>,
    /// Random turns that open each game, or up to two more (by game), before the agents play.
    pub opening_turns: u32,
    /// Seed of the games' openings and agents.
    pub seed: u64,
    /// Where the games come from, for the header.
    pub sources: String,
    /// Only positions where the two agents of the game would choose different turns (see
    /// [`Sampler::with_disagreement`]).
    pub disagreement: bool,
    /// Only *critical* positions: proven ones where some turn spoils the value
    /// ([`ProvenPosition::is_critical`]); the others proven are left out like unsettled ones.
    pub critical: bool,
}

/// Candidate positions sampled for each position wanted (some stay unproven).
const CANDIDATES_PER_POSITION: usize = 3;

/// Candidates for each position wanted in a set of critical positions only (about a third
/// of the positions settled are critical in games of strong agents: lost ones never are).
const CANDIDATES_PER_CRITICAL: usize = 8;

/// Most positions taken from one game.
const PER_GAME: usize = 8;

/// A versioned set of proven positions of one board.
#[derive(Clone, Debug)]
pub struct ExactSet {
    /// The board.
    pub board: &'static Board,
    /// How the labels were made, and how many positions tried were settled.
    pub labeller: String,
    /// Where the positions come from.
    pub sources: String,
    /// The positions.
    pub positions: Vec<ProvenPosition>,
}

impl ExactSet {
    /// A set of up to `sampling.count` distinct positions from the games, spread evenly
    /// over their piece counts, each proven within `budget` with `tables` at the leaves.
    /// Candidates are proven in rounds that take one of each piece count in turn; those the
    /// budget does not settle are left out (and counted in the labeller line). `progress`
    /// shows the games' sampling; `labelling` keeps the journal, reports and stops.
    pub fn make(
        sampling: SetSampling<'_>,
        tables: Option<&EndgameTables>,
        budget: LabelBudget,
        labelling: &Labelling<'_>,
        progress: &ProgressBar,
    ) -> Result<ExactSet, ExamError> {
        if sampling.count == 0 {
            return Err(ExamError::Settings(
                "at least one position is needed".into(),
            ));
        }
        let board = sampling.start.board();
        let reach = tables.map_or("no tables".into(), |t| {
            format!("tables up to {} pieces", t.pieces())
        });
        let header = json!({
            "board": board.to_string(),
            "sources": sampling.sources,
            "positions": sampling.count,
            "pieces": format!("{}-{}", sampling.pieces.start(), sampling.pieces.end()),
            "nodes": budget.nodes,
            "max_entries": budget.max_entries,
            "tables": TablesId::of(tables).describe(board),
        });
        let mut header = header.as_object().expect("an object").clone();
        // Named only when asked for, so that the journals of plain sets read as before.
        for (key, asked) in [
            ("disagreement", sampling.disagreement),
            ("critical", sampling.critical),
        ] {
            if asked {
                header.insert(key.into(), true.into());
            }
        }
        let mut sampler = Sampler::new(
            sampling.start,
            sampling.pairs,
            sampling.opening_turns,
            PER_GAME,
            sampling.seed,
        )
        .with_pieces(sampling.pieces.clone());
        if sampling.disagreement {
            sampler = sampler.with_disagreement();
        }
        // Candidates per position wanted, the labels taken, and how the set names them.
        let (per_position, accept, taken, none_taken): (usize, Accept, &str, &str) =
            if sampling.critical {
                (
                    CANDIDATES_PER_CRITICAL,
                    ProvenPosition::is_critical,
                    " and critical",
                    " as critical positions",
                )
            } else {
                (CANDIDATES_PER_POSITION, |_| true, "", "")
            };
        let wanted = sampling.count.saturating_mul(per_position);
        let candidates = sampler.sample(wanted, &mut HashSet::new(), progress)?;
        let order = interleave_by_pieces(candidates);
        let (positions, tried) = label_candidates(
            &order,
            sampling.count,
            tables,
            budget,
            accept,
            labelling,
            &header,
        )?;
        if positions.is_empty() {
            return Err(ExamError::Settings(format!(
                "the prover settled none of the {tried} positions tried within {} nodes \
                 each{none_taken}",
                budget.nodes,
            )));
        }
        Ok(ExactSet {
            board,
            labeller: format!(
                "the prover (df-pn, fanorona prove) with {reach}, at most {} nodes a \
                 position; the value and every turn proven; {} of {tried} positions tried \
                 settled{taken} (the others are left out)",
                budget.nodes,
                positions.len()
            ),
            sources: sampling.sources,
            positions,
        })
    }

    /// The positions' piece counts, each with its number of positions.
    pub fn spread(&self) -> BTreeMap<u32, usize> {
        let mut spread = BTreeMap::new();
        for p in &self.positions {
            *spread.entry(p.position.piece_count()).or_default() += 1;
        }
        spread
    }

    /// The file's text (see the module documentation).
    pub fn to_text(&self) -> String {
        let header = SetHeader {
            board: self.board,
            labeller: self.labeller.clone(),
            sources: self.sources.clone(),
        };
        let mut text = FORMAT.header_text(&header);
        for p in &self.positions {
            let keeps: Vec<String> = p.keeps.iter().map(|t| t.notation(self.board)).collect();
            text.push_str(&format!(
                "{} ; {} ; {}\n",
                p.position.to_fen(),
                p.value.name(),
                keeps.join(" ")
            ));
        }
        text
    }

    /// Writes the set to `path` atomically.
    pub fn write(&self, path: &Path) -> Result<(), ExamError> {
        write_set_text(path, &self.to_text())
    }

    /// Reads a set from its text; the error says what is wrong and where.
    pub fn parse(text: &str) -> Result<ExactSet, String> {
        let (header, positions) =
            FORMAT.parse(text, parse_line, |p: &ProvenPosition| &p.position)?;
        Ok(ExactSet {
            board: header.board,
            labeller: header.labeller,
            sources: header.sources,
            positions,
        })
    }

    /// Whether `text` is an exact set's (by its first line).
    pub fn is_exact_set(text: &str) -> bool {
        text.lines().next().map(str::trim) == Some(FORMAT.title)
    }
}

/// `positions` reordered in rounds: each round takes the next position of every piece count
/// that has one left, fewest pieces first.
fn interleave_by_pieces(positions: Vec<Position>) -> Vec<Position> {
    let mut groups: BTreeMap<u32, VecDeque<Position>> = BTreeMap::new();
    for p in positions {
        groups.entry(p.piece_count()).or_default().push_back(p);
    }
    let mut out = Vec::new();
    while !groups.is_empty() {
        groups.retain(|_, group| match group.pop_front() {
            Some(p) => {
                out.push(p);
                true
            }
            None => false,
        });
    }
    out
}

/// Reads a verdict's name.
pub(crate) fn parse_verdict(text: &str) -> Result<Verdict, String> {
    [Verdict::Win, Verdict::Draw, Verdict::Loss]
        .into_iter()
        .find(|v| v.name() == text)
        .ok_or_else(|| format!("value {}: expected win, draw or loss", Excerpt(text)))
}

/// Reads a data line: `FEN ; value ; turns that keep it`, on `board`.
fn parse_line(line: &str, board: &'static Board) -> Result<ProvenPosition, String> {
    let [fen, value, keeps] = fields(line, FORMAT.line)?;
    let position = parse_position(fen, board)?;
    if let Some(outcome) = position.outcome(1) {
        return Err(format!(
            "the game is over in this position ({outcome:?}): an exact set holds positions \
             with a turn to play"
        ));
    }
    if position.no_capture_turns() != 0 {
        return Err(format!(
            "no-capture counter {}: an exact set holds fresh games (counter 0), as `exam \
             --make-set --prove` writes them",
            position.no_capture_turns()
        ));
    }
    let value = parse_verdict(value)?;
    let keeps = keeps
        .split_whitespace()
        .map(|t| {
            position
                .parse_turn(t)
                .map_err(|e| format!("turn {}: {e}", Excerpt(t)))
        })
        .collect::<Result<Vec<Turn>, String>>()?;
    if keeps.is_empty() {
        return Err("no turn keeps the value: a proven value has at least one".into());
    }
    Ok(ProvenPosition {
        position,
        value,
        keeps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Built;
    use crate::exam::ExamSet;
    use crate::exam::labelling::{LabelTally, prove_label};
    use crate::exam::sample::fresh;
    use fanorona_env::{Fanorona, RandomAgent};
    use fanorona_exact::solver::{Solution, TableSource, Value, shared_solution};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};

    fn random(seed: u64) -> Built {
        Ok(Box::new(RandomAgent::new(seed)))
    }

    fn budget() -> LabelBudget {
        LabelBudget {
            nodes: 200_000,
            max_entries: 1 << 20,
        }
    }

    fn small_set(count: usize, seed: u64) -> ExactSet {
        make_small(count, seed, &Labelling::silent()).unwrap()
    }

    /// A set of `count` positions of 5x3 from random games of `seed`, labelled by `labelling`.
    fn make_small(
        count: usize,
        seed: u64,
        labelling: &Labelling<'_>,
    ) -> Result<ExactSet, ExamError> {
        let start = Position::initial(Board::new(5, 3).unwrap());
        let sampling = SetSampling {
            start,
            pairs: vec![(&random, &random)],
            count,
            pieces: 4..=10,
            opening_turns: 2,
            seed,
            sources: format!("random games, seed {seed}"),
            disagreement: false,
            critical: false,
        };
        ExactSet::make(sampling, None, budget(), labelling, &ProgressBar::hidden())
    }

    #[test]
    fn a_critical_set_of_disagreements_holds_critical_positions_only() {
        let greedy = |seed| -> Built {
            Ok(Box::new(crate::TurnAgent::new(crate::GreedyChooser::new(
                "greedy", seed,
            ))))
        };
        let make = |critical, journal: Option<&Path>| {
            let sampling = SetSampling {
                start: Position::initial(Board::new(5, 3).unwrap()),
                pairs: vec![(&random, &greedy), (&greedy, &random)],
                count: 30,
                pieces: 4..=10,
                opening_turns: 2,
                seed: 5,
                sources: "random against greedy".into(),
                disagreement: true,
                critical,
            };
            let labelling = Labelling {
                journal,
                ..Labelling::silent()
            };
            ExactSet::make(sampling, None, budget(), &labelling, &ProgressBar::hidden())
        };
        let plain = make(false, None).unwrap();
        assert!(!plain.positions.iter().all(ProvenPosition::is_critical));
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("critical.txt.partial");
        let critical = make(true, Some(&journal)).unwrap();
        assert_eq!(critical.positions.len(), 30);
        assert!(critical.positions.iter().all(ProvenPosition::is_critical));
        assert!(
            critical.labeller.contains("settled and critical"),
            "{}",
            critical.labeller
        );
        // The setting is the journal's: a plain labelling does not take its labels.
        let e = make(false, Some(&journal)).unwrap_err().to_string();
        assert!(e.contains("critical"), "{e}");
    }

    #[test]
    fn a_stopped_labelling_resumes_from_its_journal_to_the_same_set() {
        let whole = small_set(40, 7);
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("set.txt.partial");
        // Stopped after 10 positions proven: the journal keeps them.
        let stop = AtomicBool::new(false);
        let stop_at_ten = |t: &LabelTally| {
            if t.tried >= 10 {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let labelling = Labelling {
            journal: Some(&journal),
            report: &stop_at_ten,
            stop: Some(&stop),
            threads: 2,
        };
        let e = make_small(40, 7, &labelling).unwrap_err();
        assert!(
            matches!(e, ExamError::Stopped { tried, .. } if tried >= 10),
            "{e}"
        );
        let kept = std::fs::read_to_string(&journal).unwrap();
        let records = kept.lines().count() - 1;
        assert!(records >= 10, "{kept}");
        // A line cut short by a crash is dropped.
        std::fs::write(&journal, format!("{kept}{{\"index\":9")).unwrap();
        // Resumed: it starts from the journal's records and ends with the same set.
        let first = Mutex::new(None);
        let note_first = |t: &LabelTally| {
            first.lock().unwrap().get_or_insert(*t);
        };
        let resume = Labelling {
            journal: Some(&journal),
            report: &note_first,
            stop: None,
            threads: 1,
        };
        let resumed = make_small(40, 7, &resume).unwrap();
        assert_eq!(first.lock().unwrap().unwrap().resumed, records);
        assert_eq!(resumed.to_text(), whole.to_text());
        // A journal of other settings is refused, naming what differs.
        let other = Labelling {
            journal: Some(&journal),
            report: &|_| {},
            stop: None,
            threads: 1,
        };
        let e = make_small(40, 8, &other).unwrap_err().to_string();
        assert!(
            e.contains("labelling journal of another command") && e.contains("its sources is"),
            "{e}"
        );
        let e = make_small(30, 7, &other).unwrap_err().to_string();
        assert!(e.contains("its positions is 40, this command's 30"), "{e}");
    }

    #[test]
    fn the_set_and_its_journal_are_the_same_on_one_thread_and_on_two() {
        let dir = tempfile::tempdir().unwrap();
        let made = |threads: usize| {
            let journal = dir.path().join(format!("set-{threads}.txt.partial"));
            let labelling = Labelling {
                journal: Some(&journal),
                report: &|_| {},
                stop: None,
                threads,
            };
            let set = make_small(40, 5, &labelling).unwrap();
            (set.to_text(), std::fs::read(&journal).unwrap())
        };
        let (one, one_journal) = made(1);
        let (two, two_journal) = made(2);
        assert_eq!(one, two);
        assert_eq!(one_journal, two_journal);
        // Journaled in candidate order.
        let indices: Vec<u64> = String::from_utf8(one_journal)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(indices, (0..indices.len() as u64).collect::<Vec<_>>());
    }

    /// The solved table of 5x3.
    fn solution() -> std::sync::Arc<Solution> {
        shared_solution(&TableSource::Solve(5, 3)).unwrap()
    }

    #[test]
    fn labels_agree_with_the_solved_board() {
        let set = small_set(60, 3);
        assert_eq!(set.positions.len(), 60);
        let solution = solution();
        for p in &set.positions {
            let pieces = p.position.piece_count();
            assert!((4..=10).contains(&pieces), "{pieces}");
            let values = solution.turn_values(&p.position).unwrap();
            let best = values.iter().map(|(_, v)| *v).max().unwrap();
            assert_eq!(p.value, Verdict::from(best), "{}", p.position.to_fen());
            for (turn, value) in &values {
                let keeps = match best {
                    Value::Win(_) => matches!(value, Value::Win(_)),
                    Value::Draw => *value == Value::Draw,
                    Value::Loss(_) => true,
                };
                assert_eq!(p.kept_by(turn), keeps, "{}", p.position.to_fen());
            }
        }
        // Rounds over the piece counts: several are present.
        assert!(set.spread().len() >= 4, "{:?}", set.spread());
        // Seeded.
        assert_eq!(small_set(60, 3).to_text(), set.to_text());
    }

    #[test]
    fn a_set_round_trips_and_bad_lines_are_refused() {
        let set = small_set(20, 5);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("exact.txt");
        set.write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(ExactSet::is_exact_set(&text));
        let ExamSet::Exact(read) = ExamSet::read(&path).unwrap() else {
            panic!("an exact set reads as one");
        };
        assert_eq!(read.positions, set.positions);
        assert_eq!(read.labeller, set.labeller);
        let first = text.lines().nth(6).unwrap();
        let fen = first.split(';').next().unwrap().trim();
        let cases = [
            (text.replace("version: 1", "version: 3"), "version \"3\""),
            (format!("{text}{first}\n"), "the position of line 7 again"),
            (
                format!("{text}BBBBB/BW1BW/WWWWW w 0 1 ; maybe ; b2c2W\n"),
                "expected win, draw or loss",
            ),
            (
                format!("{text}BBBBB/BW1BW/WWWWW w 0 1 ; draw ; a1a2\n"),
                "turn \"a1a2\"",
            ),
            (
                format!("{text}BBBBB/BW1BW/WWWWW w 0 1 ; draw ;\n"),
                "no turn keeps the value",
            ),
            (format!("{text}{fen} ; win\n"), "2 fields; expected 3"),
        ];
        for (bad, expected) in cases {
            let e = ExactSet::parse(&bad).unwrap_err();
            assert!(e.contains(expected), "{e} (expected {expected})");
        }
        assert!(ExactSet::parse(&set_of_other_kind()).is_err());
    }

    #[test]
    fn finished_games_counters_and_a_second_board_line_are_refused_naming_the_line() {
        let text = small_set(5, 5).to_text();
        let first = text.lines().nth(6).unwrap();
        let (fen, rest) = first.split_once(';').unwrap();
        let with_counter = |counter: u32| {
            let mut parts: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
            parts[2] = counter.to_string();
            format!("{text}{} ;{rest}\n", parts.join(" "))
        };
        let lines = text.lines().count();
        let cases = [
            (
                with_counter(100),
                format!("line {}: the game is over", lines + 1),
            ),
            (
                with_counter(7),
                format!("line {}: no-capture counter 7", lines + 1),
            ),
            (
                text.replacen("# labeller", "# board: 3x3\n# labeller", 1),
                "line 4: a second \"# board:\" line".to_string(),
            ),
        ];
        for (bad, expected) in cases {
            let e = ExactSet::parse(&bad).unwrap_err();
            assert!(e.contains(&expected), "{e} (expected {expected})");
        }
    }

    /// A searched test set's text, not an exact one.
    fn set_of_other_kind() -> String {
        "# fanorona exam set\n# version: 1\n# board: 5x3\n".into()
    }

    #[test]
    fn candidates_are_taken_one_piece_count_at_a_time() {
        let board = Board::new(5, 3).unwrap();
        // Positions of 2, 3 and 4 pieces: white on the first points, black on the last.
        let of = |white: u64, black: u64| {
            Position::from_pieces(
                board,
                [white, black << 10],
                fanorona_env::Color::White,
                fanorona_env::Rules::default(),
            )
            .unwrap()
        };
        let (two, two_b, two_c) = (of(0b1, 0b1), of(0b10, 0b1), of(0b100, 0b1));
        let three = of(0b11, 0b1);
        let four = of(0b11, 0b11);
        let order = interleave_by_pieces(vec![two, two_b, four, two_c, three]);
        assert_eq!(order, vec![two, three, four, two_b, two_c]);
    }

    #[test]
    fn a_budget_too_small_settles_nothing() {
        let start = Position::initial(Board::new(5, 3).unwrap());
        let mut game = Fanorona::new(start);
        let mut agent = RandomAgent::new(1);
        crate::agents::complete_turn::agent_turn(&mut agent, &mut game).unwrap();
        let pos = fresh(game.position());
        let tiny = LabelBudget {
            nodes: 1,
            max_entries: 1 << 10,
        };
        assert_eq!(prove_label(&pos, None, tiny, None).unwrap(), None);
        assert!(prove_label(&pos, None, budget(), None).unwrap().is_some());
    }
}
