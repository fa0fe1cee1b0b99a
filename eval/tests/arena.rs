//! The arena: colours alternate, pairs share openings, results do not depend on the number of
//! threads (and threads beyond the games are not started), the SPRT stops early, failing agents
//! forfeit and their forfeits are reported, and results are written.

use fanorona_env::{Agent, AgentError, AgentSpec, Board, Fanorona, Position, WinReason};
use fanorona_eval::{
    GameRecord, Match, MatchConfig, MatchReport, Openings, Seat, Sprt, SprtDecision, registry,
};
use fanorona_util::progress::ProgressBar;

fn config(games: usize, threads: usize) -> MatchConfig {
    MatchConfig {
        games,
        threads,
        start: Position::initial(Board::new(5, 5).unwrap()),
        openings: Openings::Random { plies: 2 },
        max_turns: 120,
        seed: 3,
        sprt: None,
        event: "arena test".into(),
        progress: ProgressBar::hidden(),
    }
}

fn run(first: &str, second: &str, config: MatchConfig) -> MatchReport {
    let first = AgentSpec::parse(first).unwrap();
    let second = AgentSpec::parse(second).unwrap();
    let f1 = |seed| registry().create(&first, seed);
    let f2 = |seed| registry().create(&second, seed);
    Match::new(config, &f1, &f2).run().unwrap()
}

#[test]
fn colours_alternate_and_pairs_share_openings() {
    let report = run("minimax:depth=1", "greedy", config(6, 2));
    assert_eq!(report.games.len(), 6);
    assert_eq!(report.tally.games(), 6);
    for g in &report.games {
        assert_eq!(g.first_is_white, g.index % 2 == 0);
        let (white, black) = (&g.record.white, &g.record.black);
        if g.first_is_white {
            assert_eq!(
                (white.as_str(), black.as_str()),
                ("minimax:depth=1", "greedy")
            );
        } else {
            assert_eq!(
                (white.as_str(), black.as_str()),
                ("greedy", "minimax:depth=1")
            );
        }
    }
    for pair in report.games.chunks(2) {
        let opening = |g: &fanorona_eval::GameResult| g.record.moves[..2].to_vec();
        assert_eq!(opening(&pair[0]), opening(&pair[1]));
    }
    let white = report.tally_as(fanorona_env::Color::White);
    let black = report.tally_as(fanorona_env::Color::Black);
    assert_eq!(white.games() + black.games(), 6);
}

#[test]
fn results_do_not_depend_on_threads() {
    let one = run("minimax:depth=2", "random", config(4, 1));
    let two = run("minimax:depth=2", "random", config(4, 2));
    let moves = |r: &MatchReport| -> Vec<Vec<String>> {
        r.games.iter().map(|g| g.record.moves.clone()).collect()
    };
    assert_eq!(moves(&one), moves(&two));
    assert_eq!(one.tally, two.tally);
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let mut c = config(200, 2);
    c.sprt = Some(Sprt::parse("0,100").unwrap());
    let report = run("minimax:depth=2", "random", c);
    assert!(report.stopped_early);
    assert!(report.tally.games() < 60, "{} games", report.tally.games());
    assert_eq!(report.sprt.unwrap().1, SprtDecision::AcceptH1);
    assert!(report.text().contains("AcceptH1"));
}

/// An agent that always answers an illegal action.
struct Cheater;

impl Agent<Fanorona> for Cheater {
    fn name(&self) -> String {
        "cheater".into()
    }

    fn act(&mut self, _: &Fanorona) -> Result<usize, AgentError> {
        Ok(0)
    }
}

#[test]
fn an_illegal_action_forfeits() {
    let random = AgentSpec::parse("random").unwrap();
    let f1 = |_| Ok(Box::new(Cheater) as Box<dyn Agent<Fanorona>>);
    let f2 = |seed| registry().create(&random, seed);
    let report = Match::new(config(2, 1), &f1, &f2).run().unwrap();
    assert_eq!(report.tally.losses, 2);
    for g in &report.games {
        assert!(matches!(
            g.outcome,
            fanorona_env::Outcome::Win {
                reason: WinReason::Resignation,
                ..
            }
        ));
        assert!(g.termination.contains("forfeits"), "{}", g.termination);
        let (seat, reason) = g.forfeited_by().unwrap();
        assert_eq!(seat, Seat::First);
        assert!(g.termination.ends_with(reason), "{}", g.termination);
    }
    assert_eq!(report.forfeits(Seat::First).count(), 2);
    assert_eq!(report.forfeits(Seat::Second).count(), 0);
    let (seat, _) = report.forfeited_every_game().unwrap();
    assert_eq!(seat, Seat::First);
    let text = report.text();
    assert!(
        text.contains("  cheater forfeited 2 of 2 games; the first, game 1: "),
        "{text}"
    );
    let summary: serde_json::Value = serde_json::from_str(&report.summary_json()).unwrap();
    assert_eq!(summary["first_forfeits"], 2);
    assert_eq!(summary["second_forfeits"], 0);
}

#[test]
fn a_match_without_forfeits_says_none() {
    let report = run("greedy", "random", config(2, 2));
    assert_eq!(report.forfeited_every_game(), None);
    assert!(!report.text().contains("forfeited"));
}

#[test]
fn threads_beyond_the_games_are_not_started() {
    let report = run("greedy", "random", config(2, 100_000));
    assert_eq!(report.games.len(), 2);
}

#[test]
fn writes_summary_metrics_and_records() {
    let report = run("greedy", "random", config(4, 2));
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    report.write(dir).unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games"], 4);
    assert_eq!(
        summary["wins"].as_u64().unwrap()
            + summary["draws"].as_u64().unwrap()
            + summary["losses"].as_u64().unwrap(),
        4
    );
    let lines = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 4);
    for g in &report.games {
        let path = dir
            .join("games")
            .join(format!("game-{:04}.pgn", g.index + 1));
        let back = GameRecord::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(back, g.record);
        let history = back.history().unwrap();
        if g.termination.contains("wins") {
            assert_eq!(history.outcome(), Some(g.outcome));
        }
    }
}

#[test]
fn impossible_settings_are_refused() {
    let random = AgentSpec::parse("random").unwrap();
    let f = |seed| registry().create(&random, seed);
    let e = Match::new(config(0, 1), &f, &f).run().unwrap_err();
    assert!(e.to_string().contains("at least one game"), "{e}");
    let e = Match::new(config(2, 0), &f, &f).run().unwrap_err();
    assert!(e.to_string().contains("at least one thread"), "{e}");
}
