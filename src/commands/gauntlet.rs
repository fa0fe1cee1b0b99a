//! `fanorona gauntlet`: one agent against several opponents, one match each, every match from
//! the same openings with colours alternating, each match's results in a folder of its own
//! (as `fanorona match --out` writes them) and a summary, `gauntlet.json`, rewritten after
//! every match. `fanorona rate` turns the games into ratings. With `--run DIR` it is instead
//! the evaluator of a shared run directory ([`super::gauntlet_run`]).

use fanorona_util::progress;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use fanorona_env::AgentSpec;
use fanorona_env::split_spec_list;
use fanorona_eval::{Match, MatchConfig, MatchReport, Tally, spec_factory};
use fanorona_util::atomic_write::{check_writable_dir, write_atomic};
use serde::Serialize;

use super::agent_arg::agent_spec;
use super::agent_help::agent_help;
use super::forfeits::refuse_all_forfeited;
use super::gauntlet_run::evaluate_run;
use super::match_args::MatchArgs;
use super::position_args::PositionArgs;
use crate::output::outln;

/// The summary file in the output folder.
const SUMMARY_FILE: &str = "gauntlet.json";

/// Arguments of `fanorona gauntlet`: `--agent`, `--vs` and `--out` for the matches, or
/// `--run` for the evaluator of a run directory.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The agent that plays every opponent, e.g. net:path=model.safetensors,ms=100.
    #[arg(
        long,
        required_unless_present = "run",
        long_help = agent_help("The agent that plays every opponent.")
    )]
    pub agent: Option<String>,
    /// The opponents, comma-separated (an item that reads key=value is an option of the one
    /// before: minimax:depth=2,seed=1,random is two), or the flag repeated.
    #[arg(long, required_unless_present = "run")]
    pub vs: Vec<String>,
    /// Games against each opponent; colours alternate, each pair from the same opening.
    #[arg(long, default_value_t = 20, conflicts_with = "run")]
    pub games: usize,
    /// A new or empty folder for the results: one folder per opponent (summary.json,
    /// games.jsonl, games/game-NNNN.pgn) and gauntlet.json.
    #[arg(long, required_unless_present = "run")]
    pub out: Option<PathBuf>,
    // The openings and the seed are the same in every match.
    #[command(flatten)]
    pub play: MatchArgs,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Instead of matches: the run directory of `fanorona learn` whose model versions to
    /// evaluate against its evaluation opponents.
    #[arg(long, conflicts_with_all = [
        "agent", "vs", "out", "games", "threads", "openings", "max_turns", "seed", "quiet",
    ])]
    pub run: Option<PathBuf>,
    /// With --run: evaluate every N-th version [default: the run's eval_every_iterations, or
    /// 1].
    #[arg(long, requires = "run")]
    pub every: Option<u64>,
    /// With --run: keep waiting for new versions until the learner is done.
    #[arg(long, requires = "run")]
    pub follow: bool,
}

/// One match of the gauntlet in `gauntlet.json`: the opponent, the match's folder and its
/// summary (that folder's `summary.json`).
#[derive(Serialize)]
struct OpponentSummary {
    opponent: String,
    folder: String,
    summary: serde_json::Value,
}

/// `gauntlet.json`.
#[derive(Serialize)]
struct Summary<'a> {
    agent: &'a str,
    games_per_opponent: usize,
    openings: &'a str,
    seed: u64,
    start: String,
    opponents: Vec<OpponentSummary>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    match &args.run {
        Some(dir) => evaluate_run(dir, args.every, args.follow),
        None => play_matches(args),
    }
}

/// The matches of the agent against every opponent.
fn play_matches(args: Args) -> Result<()> {
    let (Some(agent_text), Some(out)) = (&args.agent, &args.out) else {
        bail!("--agent, --vs and --out are needed (or --run DIR)");
    };
    let registry = fanorona_train::players::registry();
    let agent = agent_spec(&registry, agent_text, "agent")?;
    let opponents: Vec<AgentSpec> = args
        .vs
        .iter()
        .flat_map(|list| split_spec_list(list))
        .map(|text| agent_spec(&registry, &text, "vs"))
        .collect::<Result<_>>()?;
    if opponents.is_empty() {
        bail!("bad --vs: no opponent given (expected SPEC,SPEC,...)");
    }
    let start = args.position.position()?;
    let openings = args.play.openings(&start)?;
    check_new_or_empty(out)?;
    // A match per opponent, each with its own bar.
    let config = || MatchConfig {
        games: args.games,
        threads: args.play.threads,
        start,
        openings: openings.clone(),
        max_turns: args.play.max_turns,
        seed: args.play.seed,
        sprt: None,
        event: "fanorona gauntlet".into(),
        progress: progress::bar_if(!args.play.quiet, 0, "games"),
    };
    let mut summary = Summary {
        agent: agent_text,
        games_per_opponent: args.games,
        openings: &args.play.openings,
        seed: args.play.seed,
        start: start.to_fen(),
        opponents: Vec::new(),
    };
    let make_agent = spec_factory(&registry, &agent);
    for (k, opponent) in opponents.iter().enumerate() {
        outln!("[{}/{}] {agent} vs {opponent}", k + 1, opponents.len())?;
        let make_opponent = spec_factory(&registry, opponent);
        let report = Match::new(config(), &make_agent, &make_opponent).run()?;
        let folder = match_folder(k, &opponent.to_string());
        report.write(&out.join(&folder))?;
        summary.opponents.push(opponent_summary(&report, folder));
        let json = serde_json::to_string_pretty(&summary).expect("the summary serialises");
        let path = out.join(SUMMARY_FILE);
        write_atomic(&path, json.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        outln!("      {}", tally_line(&report.tally))?;
        refuse_all_forfeited(
            &report,
            &format!("--agent {agent_text}"),
            &format!("--vs {opponent}"),
        )?;
    }
    outln!(
        "wrote {}; rate the games with: fanorona rate {}",
        out.display(),
        out.display()
    )?;
    Ok(())
}

/// A match's result in one line: `+W =D -L, score S, Elo E (95% CI LOW .. HIGH)`.
fn tally_line(t: &Tally) -> String {
    let (low, high) = t.elo_interval();
    format!(
        "+{} ={} -{}, score {:.3}, Elo {:+.0} (95% CI {:+.0} .. {:+.0})",
        t.wins,
        t.draws,
        t.losses,
        t.score(),
        t.elo(),
        low,
        high
    )
}

/// Refuses an output folder that holds anything, or where nothing can be written.
fn check_new_or_empty(dir: &Path) -> Result<()> {
    check_writable_dir(dir).with_context(|| format!("bad --out {}", dir.display()))?;
    if !dir.exists() {
        return Ok(());
    }
    let mut entries =
        std::fs::read_dir(dir).with_context(|| format!("bad --out {}", dir.display()))?;
    if let Some(entry) = entries.next() {
        let name = entry?.file_name();
        bail!(
            "bad --out {}: it holds {name:?}; choose a new or empty folder",
            dir.display()
        );
    }
    Ok(())
}

/// The folder of match `index` against `opponent`: `01-minimax-depth-2`.
fn match_folder(index: usize, opponent: &str) -> String {
    let mut slug = String::new();
    for c in opponent.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug: String = slug.trim_matches('-').chars().take(60).collect();
    format!("{:02}-{slug}", index + 1)
}

/// The summary of one match.
fn opponent_summary(report: &MatchReport, folder: String) -> OpponentSummary {
    OpponentSummary {
        opponent: report.second.clone(),
        folder,
        summary: serde_json::from_str(&report.summary_json()).expect("the summary is JSON"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_folders_are_numbered_and_readable() {
        assert_eq!(match_folder(0, "minimax:depth=2"), "01-minimax-depth-2");
        assert_eq!(
            match_folder(11, "net:path=/runs/a b.safetensors,ms=100"),
            "12-net-path-runs-a-b-safetensors-ms-100"
        );
    }
}
