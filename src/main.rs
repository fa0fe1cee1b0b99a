//! `fanorona`: the command-line tool of the Fanorona reinforcement-learning toolkit.

#[cfg(test)]
mod cli_reference;
mod commands;
mod label_progress;
mod output;
mod plot;
mod run_progress;

use clap::{CommandFactory, Parser, Subcommand};
use fanorona_util::denormals;

/// Fanorona for reinforcement learning: rules, baselines, self-play training and play.
#[derive(Parser, Debug)]
#[command(name = "fanorona", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count complete-turn move paths to a depth (move-generator check and speed test).
    Perft(commands::perft::Args),
    /// List the legal complete turns of a position, one per line, sorted.
    Moves(commands::moves::Args),
    /// Draw a position as text.
    Show(commands::show::Args),
    /// Play a match between two agents: results, Elo with 95% interval, LOS, optional SPRT.
    Match(commands::match_cmd::Args),
    /// One agent against several opponents, one match each from the same openings; or, with
    /// --run, evaluate a run's model versions against its evaluation opponents.
    Gauntlet(commands::gauntlet::Args),
    /// Maximum-likelihood Elo ratings of every agent in folders of games, with intervals.
    Rate(commands::rate::Args),
    /// Show a recorded game turn by turn (formerly `replay`, still accepted).
    #[command(alias = "replay")]
    Review(commands::review::Args),
    /// Play a game in the terminal against an agent.
    Play(commands::play::Args),
    /// Speak the engine protocol (UCI style) on stdin/stdout.
    Engine(commands::engine::Args),
    /// Solve a small board exactly: the value of its initial position and outcome counts.
    Solve(commands::solve::Args),
    /// Endgame tables: build every position with few pieces exactly, probe a position.
    Tables(commands::tables::Args),
    /// Prove the exact value of a position by proof-number search with endgame tables at its
    /// leaves, within a budget, resumable; or check a proof file again.
    Prove(commands::prove::Args),
    /// Exam an agent exactly: turns that keep solved values on a small board, or agreement
    /// with a labelled test set (9x5); a network's value-head accuracy.
    Exam(commands::exam::Args),
    /// Where the games of a match lost their value: each turn judged by the endgame tables
    /// and the prover, the first that lost its mover's value found; a table by agent, colour
    /// and piece count.
    Audit(commands::audit::Args),
    /// Train a network by self-play (default: the embedded `default` preset, under 10 minutes
    /// on two CPU cores with its student, the agent); resumes a run.
    Train(commands::train::Args),
    /// Play a trained checkpoint (search with its network) against any agent.
    Eval(commands::eval::Args),
    /// Play in the browser: a page and a JSON API (`--addr`, default 127.0.0.1:8080).
    Serve(commands::serve::Args),
    /// Write a training checkpoint's network as a policy file (safetensors with metadata).
    Export(commands::export::Args),
    /// Teach a smaller MLP a trained network's policy and value (a faster `abnet` value).
    Distill(commands::distill::Args),
    /// Teach a new network the proven values and keeping turns of exact sets (the ceiling of
    /// a network's shape with perfect labels).
    Fit(commands::fit::Args),
    /// Self-play worker of a shared run directory: plays shards with the newest model.
    Selfplay(commands::role_args::SelfplayArgs),
    /// Learner of a shared run directory: trains on the workers' shards, publishes models.
    Learn(commands::role_args::LearnArgs),
}

fn main() {
    // With FANORONA_PATH_OPTIONS set, the tool lists every option that takes a path and does
    // nothing else: the hostile-paths test takes the options it must cover from here, so a
    // new one cannot be left out.
    if std::env::var_os("FANORONA_PATH_OPTIONS").is_some() {
        for line in path_options(&Cli::command(), &mut Vec::new()) {
            println!("{line}");
        }
        return;
    }
    let cli = Cli::parse();
    // With FANORONA_PARSE_ONLY set the arguments are only checked (the docs test checks every
    // command of the documentation this way).
    if std::env::var_os("FANORONA_PARSE_ONLY").is_some() {
        return;
    }
    // Every thread that does float math runs with denormals flushed (see `denormals`).
    let result = match denormals::build_global_pool(rayon::ThreadPoolBuilder::new()) {
        Ok(()) => denormals::run_flushed(|| run(cli)),
        Err(e) => Err(anyhow::anyhow!("cannot start the worker threads: {e}")),
    };
    if let Err(error) = result {
        // A reader that stopped reading (`| head`) wanted no more: not a failure.
        if error
            .downcast_ref::<output::OutputError>()
            .is_some_and(output::OutputError::is_closed_pipe)
        {
            return;
        }
        output::logln!("error: {}", output::error_message(&error));
        std::process::exit(2);
    }
}

/// Every option of `command` and its subcommands whose value is a path (a `PathBuf` or a path
/// value hint), one line each: the subcommand words, then `--long` (or the positional
/// argument's id), e.g. `tables build --metrics`. `words` holds the words above `command`.
fn path_options(command: &clap::Command, words: &mut Vec<String>) -> Vec<String> {
    use clap::ValueHint;
    let mut lines = Vec::new();
    for arg in command.get_arguments() {
        let hint = arg.get_value_hint();
        if matches!(
            hint,
            ValueHint::AnyPath | ValueHint::FilePath | ValueHint::DirPath
        ) {
            let name = arg
                .get_long()
                .map_or_else(|| arg.get_id().to_string(), |long| format!("--{long}"));
            lines.push(format!("{} {name}", words.join(" ")));
        }
    }
    for sub in command.get_subcommands() {
        words.push(sub.get_name().to_string());
        lines.extend(path_options(sub, words));
        words.pop();
    }
    lines
}

/// Runs the command `cli` names.
fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Perft(args) => commands::perft::run(args),
        Command::Moves(args) => commands::moves::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Match(args) => commands::match_cmd::run(args),
        Command::Gauntlet(args) => commands::gauntlet::run(args),
        Command::Rate(args) => commands::rate::run(args),
        Command::Review(args) => commands::review::run(args),
        Command::Audit(args) => commands::audit::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Engine(args) => commands::engine::run(args),
        Command::Solve(args) => commands::solve::run(args),
        Command::Exam(args) => commands::exam::run(args),
        Command::Tables(args) => commands::tables::run(args),
        Command::Prove(args) => commands::prove::run(args),
        Command::Train(args) => commands::train::run(args),
        Command::Eval(args) => commands::eval::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Distill(args) => commands::distill::run(args),
        Command::Fit(args) => commands::fit::run(args),
        Command::Selfplay(args) => commands::selfplay::run(args),
        Command::Learn(args) => commands::learn::run(args),
        Command::Serve(args) => commands::serve::run(args),
    }
}
