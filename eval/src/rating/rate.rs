//! Ratings from games: the checks (an anchor that played, players the games connect, finite
//! maxima), the maximum-likelihood fit and the bootstrap intervals.

use super::bootstrap::bootstrap;
use super::davidson::Problem;
use super::error::RatingError;
use super::report::{PlayerRating, Ratings};
use super::results::{GameResults, pair_tallies};

/// How ratings are computed.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingSettings {
    /// The player rated 0.
    pub anchor: String,
    /// Virtual games per pair that met, split evenly (0: pure maximum likelihood).
    pub prior: f64,
    /// Bootstrap samples for the intervals (0: no intervals).
    pub bootstrap: usize,
    /// The bootstrap's seed.
    pub seed: u64,
}

/// Rates the players of `results` (see [`super::davidson`]) with 95% bootstrap intervals.
pub fn rate(results: &GameResults, settings: &RatingSettings) -> Result<Ratings, RatingError> {
    if !(settings.prior >= 0.0 && settings.prior.is_finite()) {
        return Err(RatingError::Settings(format!(
            "the prior is {}; expected a number of virtual games, 0 or more",
            settings.prior
        )));
    }
    let names = results.players();
    let list = |group: &[usize]| {
        let names: Vec<&str> = group.iter().map(|&i| names[i].as_str()).collect();
        names.join(", ")
    };
    if results.games().is_empty() {
        return Err(RatingError::NoGames {
            folders: "the games given".into(),
        });
    }
    let anchor = results
        .find(&settings.anchor)
        .ok_or_else(|| RatingError::UnknownAnchor {
            anchor: settings.anchor.clone(),
            players: list(&(0..names.len()).collect::<Vec<_>>()),
        })?;
    let groups = results.groups();
    if groups.len() > 1 {
        let groups: Vec<String> = groups.iter().map(|g| format!("{{{}}}", list(g))).collect();
        return Err(RatingError::Disconnected {
            groups: groups.join(" "),
        });
    }
    let pairs = pair_tallies(results.games());
    let prior_pairs: Vec<(usize, usize)> = pairs.iter().map(|p| (p.a, p.b)).collect();
    let problem = Problem {
        players: names.len(),
        pairs: &pairs,
        prior_pairs: &prior_pairs,
        prior: settings.prior,
        anchor,
    };
    if settings.prior <= 0.0
        && let Some(group) = problem.unbounded_group()
    {
        return Err(RatingError::Unbounded {
            players: list(&group),
        });
    }
    let fit = problem.fit().ok_or_else(|| {
        RatingError::Settings("the rating fit did not converge (try a prior)".into())
    })?;
    let intervals = bootstrap(results, &problem, settings.bootstrap, settings.seed);
    let tallies = results.player_tallies();
    let mut players: Vec<PlayerRating> = (0..names.len())
        .map(|i| PlayerRating {
            agent: names[i].clone(),
            rating: fit.elo(i),
            interval: intervals.intervals[i],
            games: tallies[i].games(),
            score: tallies[i].score(),
        })
        .collect();
    players.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.agent.cmp(&b.agent)));
    Ok(Ratings {
        anchor: settings.anchor.clone(),
        games: results.games().len(),
        draw_parameter: fit.draw,
        prior: settings.prior,
        bootstrap_samples: intervals.samples,
        bootstrap_used: intervals.used,
        seed: settings.seed,
        players,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(anchor: &str, prior: f64) -> RatingSettings {
        RatingSettings {
            anchor: anchor.into(),
            prior,
            bootstrap: 50,
            seed: 1,
        }
    }

    #[test]
    fn ratings_are_anchored_sorted_and_counted() {
        let mut results = GameResults::new();
        for score in [1.0, 1.0, 0.0, 0.5] {
            results.add("strong", "weak", score);
        }
        for score in [1.0, 0.5] {
            results.add("weak", "weaker", score);
        }
        let r = rate(&results, &settings("weak", 2.0)).unwrap();
        let names: Vec<&str> = r.players.iter().map(|p| p.agent.as_str()).collect();
        assert_eq!(names, ["strong", "weak", "weaker"]);
        assert_eq!(r.players[1].rating, 0.0);
        assert_eq!(r.players[1].interval, Some((0.0, 0.0)));
        assert_eq!((r.players[1].games, r.players[1].score), (6, 0.5));
        assert!(r.players[0].rating > 0.0 && r.players[2].rating < 0.0);
        assert_eq!((r.games, r.bootstrap_samples), (6, 50));
    }

    #[test]
    fn bad_data_is_refused_with_a_reason() {
        let mut results = GameResults::new();
        let e = rate(&results, &settings("a", 2.0)).unwrap_err();
        assert!(matches!(e, RatingError::NoGames { .. }), "{e}");
        results.add("a", "b", 1.0);
        results.add("c", "d", 0.5);
        let e = rate(&results, &settings("x", 2.0)).unwrap_err();
        assert!(e.to_string().contains("players are: a, b, c, d"), "{e}");
        let e = rate(&results, &settings("a", 2.0)).unwrap_err();
        assert!(e.to_string().contains("{a, b} {c, d}"), "{e}");
        results.add("b", "c", 0.5);
        let e = rate(&results, &settings("a", 0.0)).unwrap_err();
        assert!(matches!(e, RatingError::Unbounded { .. }), "{e}");
        assert!(rate(&results, &settings("a", 1.0)).is_ok());
        let e = rate(&results, &settings("a", -1.0)).unwrap_err();
        assert!(matches!(e, RatingError::Settings(_)), "{e}");
    }
}
