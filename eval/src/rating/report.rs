//! Fitted ratings for people (a table) and for programs (JSON).

use serde::Serialize;

/// One player's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerRating {
    /// The agent's name.
    pub agent: String,
    /// The rating in Elo (the anchor's is 0).
    pub rating: f64,
    /// The bootstrap 95% interval, if any sample could be fitted.
    pub interval: Option<(f64, f64)>,
    /// Games played.
    pub games: u32,
    /// Mean score per game.
    pub score: f64,
}

/// Ratings of every player, best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// The player rated 0.
    pub anchor: String,
    /// Games rated.
    pub games: usize,
    /// The fitted draw parameter ν of the Davidson model (`null` in JSON if infinite).
    pub draw_parameter: f64,
    /// Virtual games per pair of the prior.
    pub prior: f64,
    /// Bootstrap samples drawn.
    pub bootstrap_samples: usize,
    /// Bootstrap samples that could be fitted.
    pub bootstrap_used: usize,
    /// The bootstrap's seed.
    pub seed: u64,
    /// The players, best first.
    pub players: Vec<PlayerRating>,
}

impl Ratings {
    /// A table: rank, agent, rating, 95% interval, games, score.
    pub fn table(&self) -> String {
        let width = self
            .players
            .iter()
            .map(|p| p.agent.chars().count())
            .max()
            .unwrap_or(0)
            .max(5);
        let mut out = format!(
            "{:>4}  {:<width$}  {:>7}  {:>17}  {:>6}  {:>6}\n",
            "rank", "agent", "rating", "95% interval", "games", "score"
        );
        for (rank, p) in self.players.iter().enumerate() {
            let interval = p.interval.map_or("-".to_string(), |(low, high)| {
                format!("{low:+.0} .. {high:+.0}")
            });
            out.push_str(&format!(
                "{:>4}  {:<width$}  {:>+7.1}  {:>17}  {:>6}  {:>5.1}%\n",
                rank + 1,
                p.agent,
                p.rating,
                interval,
                p.games,
                100.0 * p.score
            ));
        }
        out.push_str(&format!(
            "{} games; {} = 0; draw parameter {:.3}; prior {} virtual games a pair; \
             intervals from {} of {} bootstrap samples (seed {})\n",
            self.games,
            self.anchor,
            self.draw_parameter,
            self.prior,
            self.bootstrap_used,
            self.bootstrap_samples,
            self.seed
        ));
        out
    }

    /// The ratings as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("ratings serialise")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_and_json_show_every_player() {
        let ratings = Ratings {
            anchor: "b".into(),
            games: 4,
            draw_parameter: 0.5,
            prior: 2.0,
            bootstrap_samples: 10,
            bootstrap_used: 9,
            seed: 1,
            players: vec![
                PlayerRating {
                    agent: "a".into(),
                    rating: 120.04,
                    interval: Some((10.2, 250.7)),
                    games: 4,
                    score: 0.75,
                },
                PlayerRating {
                    agent: "b".into(),
                    rating: 0.0,
                    interval: Some((0.0, 0.0)),
                    games: 4,
                    score: 0.25,
                },
            ],
        };
        let table = ratings.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[1],
            "   1  a       +120.0        +10 .. +251       4   75.0%"
        );
        assert!(lines[2].starts_with("   2  b         +0.0"), "{table}");
        assert!(
            lines[3].contains("b = 0") && lines[3].contains("9 of 10"),
            "{table}"
        );
        let json: serde_json::Value = serde_json::from_str(&ratings.to_json()).unwrap();
        assert_eq!(json["players"][0]["agent"], "a");
        assert_eq!(json["players"][0]["interval"][1], 250.7);
        assert_eq!(json["anchor"], "b");
    }
}
