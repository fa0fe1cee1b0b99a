//! Plays random games in the environment and prints their statistics.
//!
//! `cargo run --release -p fanorona-env --example random_rollout -- --game "fanorona 9x5" --games 10000`

use std::time::Instant;

use clap::Parser;
use fanorona_env::{
    Agent, Color, Env, EnvConfig, Fanorona, Game, GameId, Position, RandomAgent, Rules, Telo,
};

/// Plays random games (both sides uniform among the legal actions) and prints statistics.
#[derive(Parser, Debug)]
struct Args {
    /// The game: `fanorona WxH` (any odd board) or `telo` (Fanoron-Telo, 3x3).
    #[arg(long, default_value = "fanorona 9x5")]
    game: GameId,
    /// Fanorona rule settings, e.g. `no-capture=50,mandatory`.
    #[arg(long, default_value = "")]
    rules: String,
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Truncate games after this many turns.
    #[arg(long)]
    turn_limit: Option<u32>,
    /// Seed of the players.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Totals over the games played.
#[derive(Default)]
struct Stats {
    games: u64,
    steps: u64,
    turns: u64,
    wins: [u64; 2],
    draws: u64,
    truncated: u64,
}

fn play<G: Game>(start: G, args: &Args) -> Stats {
    let config = EnvConfig {
        turn_limit: args.turn_limit,
        ..EnvConfig::default()
    };
    let mut env = Env::with_config(start, config);
    let mut agent = RandomAgent::new(args.seed);
    let mut stats = Stats::default();
    for game in 0..args.games {
        env.reset(game);
        loop {
            let action = agent.act(env.state()).expect("a game in progress");
            let t = env.step(action).expect("a legal action").transition;
            if t.done() {
                stats.games += 1;
                stats.steps += u64::from(t.info.steps);
                stats.turns += u64::from(t.info.turns);
                match (t.truncated, env.state().returns()) {
                    (true, _) => stats.truncated += 1,
                    (false, [w, _]) if w > 0.0 => stats.wins[Color::White.index()] += 1,
                    (false, [_, b]) if b > 0.0 => stats.wins[Color::Black.index()] += 1,
                    _ => stats.draws += 1,
                }
                break;
            }
        }
    }
    stats
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let started = Instant::now();
    let (name, stats) = match args.game {
        GameId::Fanorona(board) => {
            let rules = Rules::parse(&args.rules).map_err(|e| e.to_string())?;
            let start = Fanorona::new(Position::initial(board).with_rules(rules));
            (format!("Fanorona {board}"), play(start, &args))
        }
        GameId::Telo => ("Fanoron-Telo".to_string(), play(Telo::new(), &args)),
    };
    let seconds = started.elapsed().as_secs_f64();
    let games = stats.games.max(1) as f64;
    let percent = |n: u64| 100.0 * n as f64 / games;
    println!("{name}: {} random games", stats.games);
    println!(
        "mean length: {:.1} steps, {:.1} turns",
        stats.steps as f64 / games,
        stats.turns as f64 / games
    );
    println!(
        "white wins {:.1}%, black wins {:.1}%, draws {:.1}%, truncated {:.1}%",
        percent(stats.wins[0]),
        percent(stats.wins[1]),
        percent(stats.draws),
        percent(stats.truncated)
    );
    println!(
        "{} steps in {seconds:.2} s: {:.0} steps/s (players' move generation included)",
        stats.steps,
        stats.steps as f64 / seconds
    );
    Ok(())
}
