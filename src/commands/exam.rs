//! `fanorona exam`: how well an agent plays, measured exactly and without match noise
//! (`fanorona_eval::exam`). On a board the solver solves: the share of positions (from the
//! agent's own games and from random play) where its turn keeps the game-theoretic value,
//! and for a network agent its value head's accuracy. On a test set (`--set FILE`, e.g. the
//! 9x5 set in `data/`): agreement with the labels' best turns and the value head's error.
//! On an exact set (`--set data/exam-9x5-exact.txt`): the share of positions where its turn
//! keeps the proven value, by piece count. `--make-set FILE` writes a set, labelled by
//! minimax or, with `--prove`, by the prover.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use fanorona_env::{AgentSpec, Board, Budget, Position, Registry};
use fanorona_eval::exam::{
    ExactExamReport, ExactSet, ExamError, ExamReport, ExamSet, LabelBudget, LabelledPosition,
    Labelling, SetExamReport, SetSampling, TestSet, ValueError, ValueScore, default_threads,
    exact_turn_values, examine, examine_exact, examine_set, journal_path, questions,
};
use fanorona_eval::minimax::MAX_DEPTH;
use fanorona_eval::{AgentFactory, spec_factory};
use fanorona_exact::solver::{Solution, TableSource, shared_solution};
use fanorona_exact::tables::{EndgameTables, shared_tables};
use fanorona_train::exam::{network_of, value_head};
use fanorona_train::model::PolicyValueNet;
use fanorona_util::memory::check_count;
use fanorona_util::progress::{self, ProgressBar};

use super::agent_arg::agent_spec;
use super::agent_help::agent_help;
use super::outputs::check_outputs;
use super::train::{exit_stopped, stop_on_ctrl_c, stop_on_sigterm};
use crate::label_progress::LabelProgress;
use crate::output::{logln, outln};

/// The most points of a board the exam solves itself (7x3 and 3x7 take minutes); larger
/// boards need a saved table.
const MAX_SOLVED_POINTS: usize = 21;

/// The players of a new test set's games when `--player` is not given.
const SET_PLAYERS: [&str; 4] = ["random", "greedy", "minimax:depth=2", "minimax:depth=4"];

/// The players of a new exact set's games (`--prove`) when `--player` is not given.
const PROVE_PLAYERS: [&str; 2] = ["minimax:depth=4", "mcts:sims=800"];

/// The prover's node budget for a position of a new exact set when `--nodes` is not given.
const PROVE_NODES: u64 = 1_000_000;

/// Arguments of `fanorona exam`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The agent to examine, e.g. minimax:depth=4 or net:path=model.safetensors,sims=100.
    #[arg(long, required_unless_present = "make_set", long_help = agent_help("The agent to examine."))]
    pub agent: Option<String>,
    /// The board to solve and examine on (at most 21 points: 3x3, 5x3, 3x5, 7x3, 3x7; 7x3
    /// and 3x7 take about 10 minutes and 2 GB to solve, so save the table once with
    /// `fanorona solve --board 7x3 --save FILE` and pass --table FILE).
    #[arg(long, conflicts_with = "set")]
    pub board: Option<String>,
    /// A solved table (`fanorona solve --save`) to examine on, instead of solving the board.
    #[arg(long, conflicts_with_all = ["set", "make_set"])]
    pub table: Option<PathBuf>,
    /// Positions to examine (half from the agent's own games, half from random play), or
    /// for --make-set, positions of the set.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Seed of the games the positions come from and of the agent's choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Examine on this test set (see --make-set) instead of a solved board.
    #[arg(long, conflicts_with = "make_set")]
    pub set: Option<PathBuf>,
    /// With --set: endgame tables (`fanorona tables build`) that score the positions they
    /// hold exactly (does the turn keep the exact value; the value head against it). With
    /// --make-set --prove: the tables at the prover's leaves.
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// Write a test set to this file: positions from games of the --player agents (every
    /// pair, two to four random opening turns each) on --board (default 9x5), labelled by minimax.
    #[arg(long, conflicts_with = "agent")]
    pub make_set: Option<PathBuf>,
    /// With --make-set: a player of the games (repeat the flag) [default: random, greedy,
    /// minimax:depth=2, minimax:depth=4].
    #[arg(long, requires = "make_set")]
    pub player: Vec<String>,
    /// With --make-set: the labelling search's depth in turns.
    #[arg(long, default_value_t = 5, requires = "make_set")]
    pub depth: u32,
    /// With --make-set: the most nodes of a labelling search (the deepest completed
    /// iteration within them gives the label); with --prove, of the prover on one position
    /// [default with --prove: 1000000].
    #[arg(long, requires = "make_set")]
    pub nodes: Option<u64>,
    /// With --make-set: label by the prover instead of minimax: an exact set, each position
    /// with its proven value and the proven turns that keep it (positions the prover does
    /// not settle within --nodes are left out). Players default to minimax:depth=4 and
    /// mcts:sims=800. FILE.partial keeps the positions proven as they come: a labelling
    /// stopped (Ctrl-C, a kill, a crash) goes on from there when the same command runs again.
    #[arg(long, requires = "make_set")]
    pub prove: bool,
    /// With --make-set --prove: only positions with this many pieces on the board, N or
    /// MIN-MAX (e.g. 8-16).
    #[arg(long, requires = "prove", value_parser = parse_pieces)]
    pub pieces: Option<RangeInclusive<u32>>,
    /// With --make-set --prove: positions proven at once, each on a thread of its own (the
    /// set and its journal do not depend on it) [default: one per available core].
    #[arg(long, requires = "prove", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// With --make-set --prove: only critical positions, where some legal turn spoils the
    /// proven value (a hard set: lost positions and those every turn keeps are left out).
    #[arg(long, requires = "prove")]
    pub critical: bool,
    /// With --make-set --prove: only positions where the two players of the game would choose
    /// different turns (the mover's opponent is asked in each position once the game is
    /// over); games are played between different players only, so two or more are needed.
    #[arg(long, requires = "prove")]
    pub disagree: bool,
    /// With --make-set --prove: random turns that open each game before its players play
    /// (each game takes this many or up to two more): more give more varied positions, as
    /// deterministic players repeat their games from few openings on a small board.
    #[arg(long, default_value_t = 2, requires = "prove", value_parser = clap::value_parser!(u32).range(0..=40))]
    pub opening_turns: u32,
}

/// Reads `--pieces`: `N` or `MIN-MAX`.
fn parse_pieces(text: &str) -> Result<RangeInclusive<u32>, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("expected a number of pieces or a range MIN-MAX, not {t:?}"))
    };
    let (low, high) = match text.split_once('-') {
        Some((low, high)) => (number(low)?, number(high)?),
        None => (number(text)?, number(text)?),
    };
    if low > high || low < 2 {
        return Err(format!(
            "expected MIN-MAX with 2 <= MIN <= MAX, not {low}-{high}"
        ));
    }
    Ok(low..=high)
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    if args.positions == 0 {
        bail!("bad --positions: at least 1 position is needed");
    }
    // Checked before anything is allocated: a count beyond the memory is refused, not aborted.
    let each = (size_of::<LabelledPosition>() + size_of::<Position>()) as u64;
    check_count(args.positions as u64, each, "positions").context("bad --positions")?;
    let registry = fanorona_train::players::registry();
    let started = Instant::now();
    if let Some(path) = &args.make_set {
        return make_set(&registry, path, &args, started);
    }
    if args.tables.is_some() && args.set.is_none() {
        bail!(
            "bad --tables: endgame tables score a test set (--set FILE) or serve the prover \
             of --make-set --prove; an exam on a solved board (--board, --table) is exact \
             already"
        );
    }
    let text = args.agent.as_deref().context("give --agent SPEC")?;
    let spec = agent_spec(&registry, text, "agent")?;
    if let Some(path) = &args.set {
        return set_exam(&registry, &spec, path, &args, started);
    }
    let solution = solution(&args)?;
    let factory = spec_factory(&registry, &spec);
    let bar = progress_bar(&args, args.positions, "positions sampled");
    let (questions, excluded) = questions(&factory, &solution, args.positions, args.seed, &bar)?;
    bar.set_length(questions.len() as u64);
    bar.set_position(0);
    bar.set_message("positions examined");
    let mut report = examine(&factory, &solution, &questions, args.seed, excluded, &bar)?;
    bar.finish_and_clear();
    if let Some(net) = network_of(&registry, &spec, solution.board())? {
        let positions: Vec<Position> = questions.iter().map(|q| q.position).collect();
        let values = value_head(&net, &positions).map_err(anyhow::Error::msg)?;
        let mut score = ValueScore::default();
        for (q, v) in questions.iter().zip(values) {
            score.add(v, q.value);
        }
        report.value_head = Some(score);
    }
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        let mut json = report.to_json();
        json["seconds"] = secs.into();
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        print_report(&report, secs)?;
    }
    Ok(())
}

/// The progress bar of `len` items, on standard error (hidden with --quiet).
fn progress_bar(args: &Args, len: usize, unit: &str) -> ProgressBar {
    progress::bar_if(!args.quiet, len as u64, unit)
}

/// The solved table of `--table` or `--board` (solved here, at most 21 points).
fn solution(args: &Args) -> Result<Arc<Solution>> {
    let board = args
        .board
        .as_deref()
        .map(Board::parse)
        .transpose()
        .context("bad --board")?;
    let solution = match (&args.table, board) {
        (Some(path), board) => {
            let table = shared_solution(&TableSource::File(path.clone()))?;
            if let Some(b) = board
                && !std::ptr::eq(b, table.board())
            {
                bail!(
                    "{}: the table is for board {}x{}, not --board {}x{}",
                    path.display(),
                    table.board().width(),
                    table.board().height(),
                    b.width(),
                    b.height()
                );
            }
            table
        }
        (None, Some(board)) => {
            if board.points() > MAX_SOLVED_POINTS {
                bail!(
                    "bad --board: the exam solves boards of at most {MAX_SOLVED_POINTS} points \
                     (3x3, 5x3, 3x5, 7x3, 3x7), and {}x{} has {}; give --table FILE (a table \
                     saved by fanorona solve --save), or examine on a test set with --set FILE \
                     (9x5: data/exam-9x5.txt)",
                    board.width(),
                    board.height(),
                    board.points()
                );
            }
            if board.points() > 15 && !args.quiet {
                logln!(
                    "solving {}x{}: about 10 minutes and 2 GB on 2 cores (save the table once \
                     with fanorona solve --board {0}x{1} --save FILE, then pass --table FILE)",
                    board.width(),
                    board.height()
                );
            }
            shared_solution(&TableSource::Solve(board.width(), board.height()))?
        }
        (None, None) => bail!(
            "give --board WxH (a board to solve, e.g. 5x3), --table FILE (a solved table) or \
             --set FILE (a test set)"
        ),
    };
    Ok(solution)
}

/// A share as a percentage with one decimal, or `-` when there is nothing to share.
fn percent(share: Option<f64>) -> String {
    share.map_or("-".into(), |s| format!("{:.1}%", 100.0 * s))
}

/// Prints the solved exam's report.
fn print_report(report: &ExamReport, secs: f64) -> Result<()> {
    let all = &report.all;
    outln!(
        "exam of {} on {} (seed {}): {} positions, {} from its own games and {} from random play",
        report.agent,
        report.board,
        report.seed,
        all.positions,
        report.own_games.positions,
        report.random_games.positions
    )?;
    outln!(
        "keeps the value: {} of {} won or drawn positions (wins kept {} of {}, draws kept {} of {})",
        percent(all.keeps_value()),
        all.wins + all.draws,
        percent(all.keeps_wins()),
        all.wins,
        percent(all.keeps_draws()),
        all.draws
    )?;
    for (name, tally) in [
        ("own games", &report.own_games),
        ("random play", &report.random_games),
    ] {
        outln!(
            "  {name}: keeps {} of {}",
            percent(tally.keeps_value()),
            tally.wins + tally.draws
        )?;
    }
    outln!(
        "best turn (fastest win, a draw, slowest loss): {} of {} (lost positions: {})",
        percent(all.optimal_share()),
        all.positions,
        all.losses
    )?;
    if report.excluded > 0 {
        outln!(
            "left out: {} positions whose solved distance reaches the no-capture limit",
            report.excluded
        )?;
    }
    if let Some(score) = &report.value_head {
        outln!(
            "value head: accuracy {} (the nearest of win +1, draw 0, loss -1), mean error {:.3}",
            percent(score.accuracy()),
            score.mean_error().unwrap_or(f64::NAN)
        )?;
    }
    outln!("time: {secs:.1} s")?;
    Ok(())
}

/// `--set FILE`: the exam on a test set.
fn set_exam(
    registry: &Registry,
    spec: &AgentSpec,
    path: &Path,
    args: &Args,
    started: Instant,
) -> Result<()> {
    let set = match ExamSet::read(path)? {
        ExamSet::Searched(set) => set,
        ExamSet::Exact(set) => return exact_exam(registry, spec, &set, path, args, started),
    };
    let tables = args
        .tables
        .as_deref()
        .map(|dir| shared_tables(dir, set.board))
        .transpose()
        .context("bad --tables")?;
    let factory = spec_factory(registry, spec);
    let bar = progress_bar(args, set.positions.len(), "positions examined");
    let mut report: SetExamReport =
        examine_set(&factory, &set, tables.as_deref(), args.seed, &bar)?;
    bar.finish_and_clear();
    if let Some(net) = network_of(registry, spec, set.board)? {
        let (error, exact) = value_head_scores(&net, &set, tables.as_deref())?;
        report.value_head = Some(error);
        report.value_head_exact = exact;
    }
    finish_set_exam(args, path, started, report.to_json(), || {
        print_set_report(&report, path)
    })
}

/// `--set FILE` of an exact set: the exam by piece count.
fn exact_exam(
    registry: &Registry,
    spec: &AgentSpec,
    set: &ExactSet,
    path: &Path,
    args: &Args,
    started: Instant,
) -> Result<()> {
    if args.tables.is_some() {
        bail!(
            "bad --tables: {} is an exact set, exact already",
            path.display()
        );
    }
    let factory = spec_factory(registry, spec);
    let bar = progress_bar(args, set.positions.len(), "positions examined");
    let mut report = examine_exact(&factory, set, args.seed, &bar)?;
    bar.finish_and_clear();
    if let Some(net) = network_of(registry, spec, set.board)? {
        let positions: Vec<Position> = set.positions.iter().map(|p| p.position).collect();
        let values = value_head(&net, &positions).map_err(anyhow::Error::msg)?;
        report.score_values(set, &values);
    }
    finish_set_exam(args, path, started, report.to_json(), || {
        print_exact_report(&report, path)
    })
}

/// Prints a set exam's result: under --json its report `json` with the set and the seconds
/// added, else the text `print` writes and the time.
fn finish_set_exam(
    args: &Args,
    path: &Path,
    started: Instant,
    mut json: serde_json::Value,
    print: impl FnOnce() -> Result<()>,
) -> Result<()> {
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        json["set"] = path.display().to_string().into();
        json["seconds"] = secs.into();
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(());
    }
    print()?;
    outln!("time: {secs:.1} s")?;
    Ok(())
}

/// The text report of an exam on an exact set: a table by piece count.
fn print_exact_report(report: &ExactExamReport, path: &Path) -> Result<()> {
    outln!(
        "exact exam of {} on {} ({} positions of {}; labels: {})",
        report.agent,
        path.display(),
        report.all.positions,
        report.board,
        report.labeller
    )?;
    let network = report.value_head.is_some();
    outln!(
        "{:>6} {:>9} {:>5} {:>5} {:>5} {:>11} {:>13} {:>10} {:>11}{}",
        "pieces",
        "positions",
        "wins",
        "draws",
        "loss",
        "keeps value",
        "95% interval",
        "keeps wins",
        "keeps draws",
        if network { "  value head" } else { "" }
    )?;
    let rows = report
        .by_pieces
        .iter()
        .map(|(pieces, tally)| {
            (
                pieces.to_string(),
                tally,
                report.value_head_by_pieces.get(pieces),
            )
        })
        .chain([
            ("all".to_string(), &report.all, report.value_head.as_ref()),
            ("crit.".to_string(), &report.critical, None),
        ]);
    for (name, tally, values) in rows {
        let value_head = values.map_or(String::new(), |v| {
            format!("  {:>10}", percent(v.accuracy()))
        });
        let interval = tally
            .keeps_value_interval()
            .map_or("-".to_string(), |(lo, hi)| {
                format!("{:.1}-{:.1}%", lo * 100.0, hi * 100.0)
            });
        outln!(
            "{name:>6} {:>9} {:>5} {:>5} {:>5} {:>11} {interval:>13} {:>10} {:>11}{value_head}",
            tally.positions,
            tally.wins,
            tally.draws,
            tally.losses,
            percent(tally.keeps_value()),
            percent(tally.keeps_wins()),
            percent(tally.keeps_draws()),
        )?;
    }
    outln!(
        "keeps value: of won and drawn positions, the share where the turn keeps the proven \
         value (95% interval: Wilson's); crit.: the critical positions only, where some turn \
         spoils the value{}",
        if network {
            "; value head: accuracy of its most likely class (of win, draw, loss)"
        } else {
            ""
        }
    )?;
    Ok(())
}

/// The value head of `net` on the set's positions: its error against the labels, and with
/// `tables` its score against the exact values of the positions they hold.
fn value_head_scores(
    net: &PolicyValueNet,
    set: &TestSet,
    tables: Option<&EndgameTables>,
) -> Result<(ValueError, Option<ValueScore>)> {
    let positions: Vec<Position> = set.positions.iter().map(|p| p.position).collect();
    let values = value_head(net, &positions).map_err(anyhow::Error::msg)?;
    let mut error = ValueError::default();
    let mut exact = ValueScore::default();
    for (p, v) in set.positions.iter().zip(values) {
        error.add(v.value(), p.value);
        let truth = tables
            .and_then(|t| exact_turn_values(t, &p.position))
            .and_then(|values| values.into_iter().map(|(_, value)| value).max());
        if let Some(truth) = truth {
            exact.add(v, truth);
        }
    }
    Ok((error, tables.is_some().then_some(exact)))
}

/// The text report of a set exam.
fn print_set_report(report: &SetExamReport, path: &Path) -> Result<()> {
    outln!(
        "set exam of {} on {} ({} positions of {}; labels: {})",
        report.agent,
        path.display(),
        report.positions,
        report.board,
        report.labeller
    )?;
    outln!(
        "best-turn agreement: {} ({} of {})",
        percent(report.agreement()),
        report.agreed,
        report.positions
    )?;
    if let Some(error) = &report.value_head {
        outln!(
            "value head: mean error {:.3} against the labels' values, same side {}",
            error.mean_error().unwrap_or(f64::NAN),
            percent(error.sign_agreement())
        )?;
    }
    if let Some(exact) = &report.exact {
        outln!(
            "endgame tables: {} positions held; keeps the exact value in {} of {} won or \
             drawn, best turn {}",
            exact.positions,
            percent(exact.keeps_value()),
            exact.wins + exact.draws,
            percent(exact.optimal_share())
        )?;
    }
    if let Some(score) = &report.value_head_exact {
        outln!(
            "value head on those: accuracy {}, mean error {:.3} against the exact values",
            percent(score.accuracy()),
            score.mean_error().unwrap_or(f64::NAN)
        )?;
    }
    Ok(())
}

/// `--make-set FILE`: writes a test set.
fn make_set(registry: &Registry, path: &Path, args: &Args, started: Instant) -> Result<()> {
    if !args.prove && (args.depth == 0 || args.depth > MAX_DEPTH) {
        bail!("bad --depth: expected a depth from 1 to {MAX_DEPTH} turns");
    }
    if args.nodes == Some(0) {
        bail!("bad --nodes: expected at least 1 node a labelling search");
    }
    if args.tables.is_some() && !args.prove {
        bail!(
            "bad --tables: a set labelled by minimax takes no tables (add --prove for an exact set)"
        );
    }
    let board = Board::parse(args.board.as_deref().unwrap_or("9x5")).context("bad --board")?;
    let most = Position::initial(board).piece_count();
    if let Some(pieces) = &args.pieces
        && *pieces.start() > most
    {
        bail!(
            "bad --pieces: the games on {board} start with {most} pieces and only lose pieces, \
             so no position has {}; expected a range within 2-{most}",
            if pieces.start() == pieces.end() {
                pieces.start().to_string()
            } else {
                format!("{} or more", pieces.start())
            }
        );
    }
    let defaults: &[&str] = if args.prove {
        &PROVE_PLAYERS
    } else {
        &SET_PLAYERS
    };
    let texts: Vec<&str> = if args.player.is_empty() {
        defaults.to_vec()
    } else {
        args.player.iter().map(String::as_str).collect()
    };
    if args.disagree && texts.len() < 2 {
        bail!(
            "bad --disagree: it compares the turns of a game's two players, so it needs two or \
             more --player agents (e.g. --player abnet --player minimax:depth=4)"
        );
    }
    let specs = texts
        .iter()
        .map(|t| agent_spec(registry, t, "player"))
        .collect::<Result<Vec<_>>>()?;
    // The set never replaces a file the players or the prover read (a model, tables).
    let mut inputs: Vec<PathBuf> = specs.iter().flat_map(|s| registry.input_paths(s)).collect();
    inputs.extend(args.tables.clone());
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let journal = args.prove.then(|| journal_path(path));
    check_outputs(
        &[
            ("--make-set", Some(path)),
            ("--make-set (its journal)", journal.as_deref()),
        ],
        &inputs,
    )?;
    let tables = args
        .tables
        .as_deref()
        .map(|dir| shared_tables(dir, board))
        .transpose()
        .context("bad --tables")?;
    let factories: Vec<_> = specs.iter().map(|s| spec_factory(registry, s)).collect();
    let mut pairs: Vec<(&AgentFactory, &AgentFactory)> = Vec::new();
    for (w, white) in factories.iter().enumerate() {
        for (b, black) in factories.iter().enumerate() {
            if w != b || !args.disagree {
                pairs.push((white, black));
            }
        }
    }
    let sources = format!(
        "games of every pair of {}{} on {}x{}, {} random opening turns each, seed {}{}",
        if args.disagree {
            "different players of "
        } else {
            ""
        },
        texts.join(" / "),
        board.width(),
        board.height(),
        match args.opening_turns {
            2 => "two to four".to_string(),
            n => format!("{n} to {}", n + 2),
        },
        args.seed,
        if args.disagree {
            "; positions where the mover's opponent would choose another turn"
        } else {
            ""
        }
    );
    let bar = progress_bar(args, args.positions, "positions");
    let start = Position::initial(board);
    let (written, labeller) = if args.prove {
        let nodes = args.nodes.unwrap_or(PROVE_NODES);
        let budget = LabelBudget {
            nodes,
            max_entries: usize::try_from(nodes.saturating_mul(4)).unwrap_or(usize::MAX),
        };
        let sampling = SetSampling {
            start,
            pairs,
            count: args.positions,
            pieces: args.pieces.clone().unwrap_or(0..=u32::MAX),
            seed: args.seed,
            sources,
            opening_turns: args.opening_turns,
            disagreement: args.disagree,
            critical: args.critical,
        };
        let journal = journal.expect("a journal with --prove");
        let display = LabelProgress::new(!args.quiet, &journal);
        let stop = Arc::new(AtomicBool::new(false));
        stop_on_ctrl_c(Arc::clone(&stop), "stopping the labelling")?;
        stop_on_sigterm(Arc::clone(&stop))?;
        let labelling = Labelling {
            journal: Some(&journal),
            report: &|tally| display.show(tally),
            stop: Some(&stop),
            threads: args.threads.map_or_else(default_threads, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            }),
        };
        let made = ExactSet::make(sampling, tables.as_deref(), budget, &labelling, &bar);
        bar.finish_and_clear();
        display.finish();
        let set = match made {
            Err(ExamError::Stopped { tried, settled }) => exit_stopped(format_args!(
                "{} keeps the {tried} positions tried ({settled} settled); run the same \
                 command again to go on",
                journal.display()
            )),
            made => made?,
        };
        set.write(path)?;
        std::fs::remove_file(&journal)
            .with_context(|| format!("{}: cannot remove it", journal.display()))?;
        let spread: Vec<String> = set
            .spread()
            .iter()
            .map(|(pieces, n)| format!("{pieces}:{n}"))
            .collect();
        logln!("positions by piece count: {}", spread.join(" "));
        (set.positions.len(), set.labeller)
    } else {
        let budget = Budget {
            depth: Some(args.depth),
            nodes: args.nodes,
            time: None,
        };
        let set = TestSet::make(
            &start,
            pairs,
            args.positions,
            args.seed,
            budget,
            sources,
            &bar,
        )?;
        bar.finish_and_clear();
        set.write(path)?;
        (set.positions.len(), set.labeller)
    };
    outln!(
        "wrote {}: {written} positions of {}x{}, labelled by {labeller} in {:.1} s",
        path.display(),
        board.width(),
        board.height(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}
