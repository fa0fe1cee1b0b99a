//! Maximum-likelihood ratings under the Bradley-Terry model with draws of Davidson (1970).
//!
//! Player `i` has a strength `γᵢ = e^θᵢ`; between `i` and `j`, with a draw parameter `ν ≥ 0`,
//! `P(i wins) = γᵢ / Z`, `P(j wins) = γⱼ / Z`, `P(draw) = ν √(γᵢγⱼ) / Z`,
//! `Z = γᵢ + γⱼ + ν √(γᵢγⱼ)`. A win is `e^(θᵢ-θⱼ)` times as likely as a loss, so `θ` in Elo
//! is `θ · 400 / ln 10` ([`ELO_PER_LOG_ODDS`]): without draws, exactly the logistic Elo
//! model. The model is an exponential family in `(θ, ln ν)`, its log-likelihood concave, and
//! at the maximum every player's expected score equals its actual score and the expected
//! draws equal the actual draws. It is fitted by Newton's method with a backtracking line
//! search, the anchor's `θ` held at 0.
//!
//! An optional prior, as BayesElo's virtual draws, adds to every pair that played `prior`
//! virtual games split evenly between the two (a Bradley-Terry term without draws), so that
//! a player that won or lost every game still gets a finite rating.

use super::cholesky::solve_positive_definite;
use super::results::PairTally;
use crate::arena::elo::ELO_PER_LOG_ODDS;

/// Newton iterations before giving up.
const MAX_ITERATIONS: usize = 200;

/// Fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Each player's log-strength `θ` (the anchor's is 0).
    pub strengths: Vec<f64>,
    /// The draw parameter `ν` (0 without draws, infinite if every game was drawn).
    pub draw: f64,
}

impl Fit {
    /// Player `i`'s rating in Elo.
    pub fn elo(&self, i: usize) -> f64 {
        self.strengths[i] * ELO_PER_LOG_ODDS
    }
}

/// What to fit: the players, their results per pair, the prior and the anchor.
#[derive(Clone, Copy, Debug)]
pub struct Problem<'a> {
    /// Number of players.
    pub players: usize,
    /// The results per pair.
    pub pairs: &'a [PairTally],
    /// The pairs that get the prior's virtual games (all that met, in the whole data).
    pub prior_pairs: &'a [(usize, usize)],
    /// Virtual games per pair, half won by each (0: pure maximum likelihood).
    pub prior: f64,
    /// The player whose strength is held at 0.
    pub anchor: usize,
}

/// The log-likelihood, its gradient and Hessian over the free variables.
struct Derivatives {
    value: f64,
    gradient: Vec<f64>,
    hessian: Vec<f64>,
}

impl Problem<'_> {
    /// The maximum-likelihood fit; `None` if it has no finite maximum (e.g. a player won
    /// every game and there is no prior) or Newton's method fails to converge.
    pub fn fit(&self) -> Option<Fit> {
        if self.prior <= 0.0 && self.unbounded_group().is_some() {
            return None;
        }
        let (games, draws) = self
            .pairs
            .iter()
            .fold((0, 0), |(n, d), p| (n + p.tally.games(), d + p.tally.draws));
        if games > 0 && draws == games {
            // Every game drawn: ν is infinite and all strengths equal.
            return Some(Fit {
                strengths: vec![0.0; self.players],
                draw: f64::INFINITY,
            });
        }
        let fit_draws = draws > 0;
        let mut theta = vec![0.0; self.players];
        // Equal strengths: P(draw) = ν / (2 + ν).
        let mut kappa = if fit_draws {
            (2.0 * draws as f64 / (games - draws) as f64).ln()
        } else {
            f64::NEG_INFINITY
        };
        for _ in 0..MAX_ITERATIONS {
            let d = self.derivatives(&theta, kappa, fit_draws);
            let scale = 1.0 + games as f64 + self.prior * self.prior_pairs.len() as f64;
            if d.gradient.iter().all(|g| g.abs() < 1e-10 * scale) {
                return Some(Fit {
                    strengths: theta,
                    draw: kappa.exp(),
                });
            }
            let minus_hessian: Vec<f64> = d.hessian.iter().map(|h| -h).collect();
            let step = solve_positive_definite(&minus_hessian, &d.gradient)?;
            let mut t = 1.0;
            loop {
                let (next_theta, next_kappa) = self.moved(&theta, kappa, &step, t, fit_draws);
                let value = self.derivatives(&next_theta, next_kappa, false).value;
                if value >= d.value - 1e-12 * scale || t < 1e-12 {
                    (theta, kappa) = (next_theta, next_kappa);
                    break;
                }
                t *= 0.5;
            }
        }
        None
    }

    /// Without a prior, a group of players whose maximum-likelihood ratings are infinite
    /// relative to the rest: the players reached from player 0 along "scored a point
    /// against" (they scored nothing against the others), or else those reached along "lost
    /// a point to" (they lost nothing to the others). `None` if every player reaches every
    /// other both ways (Ford's condition for a finite maximum).
    pub fn unbounded_group(&self) -> Option<Vec<usize>> {
        let mut scored = vec![Vec::new(); self.players];
        let mut conceded = vec![Vec::new(); self.players];
        for p in self.pairs {
            let t = &p.tally;
            if t.wins + t.draws > 0 {
                scored[p.a].push(p.b);
                conceded[p.b].push(p.a);
            }
            if t.losses + t.draws > 0 {
                scored[p.b].push(p.a);
                conceded[p.a].push(p.b);
            }
        }
        [scored, conceded].iter().find_map(|edges| {
            let reached = reachable(edges, 0);
            (reached.len() < self.players).then_some(reached)
        })
    }

    /// The variable of player `i` (none for the anchor).
    fn variable(&self, i: usize) -> Option<usize> {
        match i.cmp(&self.anchor) {
            std::cmp::Ordering::Less => Some(i),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(i - 1),
        }
    }

    /// The strengths and draw parameter moved by `t · step`.
    fn moved(
        &self,
        theta: &[f64],
        kappa: f64,
        step: &[f64],
        t: f64,
        fit_draws: bool,
    ) -> (Vec<f64>, f64) {
        let mut next = theta.to_vec();
        for (i, value) in next.iter_mut().enumerate() {
            if let Some(v) = self.variable(i) {
                *value += t * step[v];
            }
        }
        let kappa = if fit_draws {
            kappa + t * step[self.players - 1]
        } else {
            kappa
        };
        (next, kappa)
    }

    /// The log-likelihood (prior included) at `theta`, `kappa = ln ν`, and, if `fit_draws`,
    /// its derivatives over the free strengths and `kappa` (else over the strengths only).
    fn derivatives(&self, theta: &[f64], kappa: f64, fit_draws: bool) -> Derivatives {
        let k = if fit_draws {
            self.players
        } else {
            self.players - 1
        };
        let mut d = Derivatives {
            value: 0.0,
            gradient: vec![0.0; k],
            hessian: vec![0.0; k * k],
        };
        let nu = kappa.exp();
        let draw_var = fit_draws.then_some(self.players - 1);
        for p in self.pairs {
            let t = &p.tally;
            let (n, wins, draws, losses) = (
                t.games() as f64,
                t.wins as f64,
                t.draws as f64,
                t.losses as f64,
            );
            let half = 0.5 * (theta[p.a] - theta[p.b]);
            let (up, down) = (half.exp(), (-half).exp());
            let z = up + down + nu;
            let (pw, pl, pd) = (up / z, down / z, nu / z);
            let mut value = wins * pw.ln() + losses * pl.ln();
            if draws > 0.0 {
                value += draws * pd.ln();
            }
            d.value += value;
            // Sufficient statistics: a's score, b's score, draws; the Hessian is minus
            // their covariance under the model, times n.
            let (ea, eb) = (pw + pd / 2.0, pl + pd / 2.0);
            let vars = [self.variable(p.a), self.variable(p.b), draw_var];
            let grad = [
                wins + draws / 2.0 - n * ea,
                losses + draws / 2.0 - n * eb,
                draws - n * pd,
            ];
            let cov = [
                [
                    pw + pd / 4.0 - ea * ea,
                    pd / 4.0 - ea * eb,
                    pd / 2.0 - ea * pd,
                ],
                [
                    pd / 4.0 - ea * eb,
                    pl + pd / 4.0 - eb * eb,
                    pd / 2.0 - eb * pd,
                ],
                [pd / 2.0 - ea * pd, pd / 2.0 - eb * pd, pd - pd * pd],
            ];
            d.add(&vars, &grad, |r, c| -n * cov[r][c], k);
        }
        if self.prior > 0.0 {
            let w = self.prior;
            for &(a, b) in self.prior_pairs {
                let delta = theta[a] - theta[b];
                // ln σ(δ) and ln σ(-δ), computed stably.
                let ln_win = -softplus(-delta);
                let ln_loss = -softplus(delta);
                d.value += 0.5 * w * (ln_win + ln_loss);
                let p = 1.0 / (1.0 + (-delta).exp());
                let vars = [self.variable(a), self.variable(b), None];
                let grad = [w * (0.5 - p), w * (p - 0.5), 0.0];
                let c = w * p * (1.0 - p);
                let h = [[-c, c, 0.0], [c, -c, 0.0], [0.0; 3]];
                d.add(&vars, &grad, |r, col| h[r][col], k);
            }
        }
        d
    }
}

impl Derivatives {
    /// Adds one term's gradient and Hessian, given over (a, b, draw), to the free variables
    /// among `vars`.
    fn add(
        &mut self,
        vars: &[Option<usize>; 3],
        grad: &[f64; 3],
        hessian: impl Fn(usize, usize) -> f64,
        k: usize,
    ) {
        for (r, vr) in vars.iter().enumerate() {
            let Some(vr) = *vr else { continue };
            self.gradient[vr] += grad[r];
            for (c, vc) in vars.iter().enumerate() {
                if let Some(vc) = *vc {
                    self.hessian[vr * k + vc] += hessian(r, c);
                }
            }
        }
    }
}

/// The players reached from `start` along `edges` (sorted).
fn reachable(edges: &[Vec<usize>], start: usize) -> Vec<usize> {
    let mut seen = vec![false; edges.len()];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(i) = stack.pop() {
        for &j in &edges[i] {
            if !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    (0..edges.len()).filter(|&i| seen[i]).collect()
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::elo::{Tally, elo_from_score};

    fn pair(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> PairTally {
        PairTally {
            a,
            b,
            tally: Tally::new(wins, draws, losses),
        }
    }

    fn fit(players: usize, pairs: &[PairTally], prior: f64, anchor: usize) -> Option<Fit> {
        let prior_pairs: Vec<(usize, usize)> = pairs.iter().map(|p| (p.a, p.b)).collect();
        Problem {
            players,
            pairs,
            prior_pairs: &prior_pairs,
            prior,
            anchor,
        }
        .fit()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    /// Two players, 7 wins 3 losses: the logistic Elo of the score 0.7,
    /// -400·log10(1/0.7 - 1) = 400·log10(7/3) = 147.1907.
    #[test]
    fn two_players_without_draws_get_the_logistic_elo_of_their_score() {
        let f = fit(2, &[pair(0, 1, 7, 0, 3)], 0.0, 1).unwrap();
        assert_eq!(f.elo(1), 0.0, "the anchor is exactly 0");
        assert!(close(f.elo(0), elo_from_score(0.7)), "{}", f.elo(0));
        assert!((f.elo(0) - 147.1907).abs() < 1e-3, "{}", f.elo(0));
        assert_eq!(f.draw, 0.0);
        // Anchored at the other player: the same difference.
        let g = fit(2, &[pair(0, 1, 7, 0, 3)], 0.0, 0).unwrap();
        assert_eq!(g.elo(0), 0.0);
        assert!(close(g.elo(1), -f.elo(0)));
    }

    /// 6 wins, 4 draws, 2 losses. At the maximum the win/loss odds are 6/2 = 3, so the
    /// difference is 400·log10(3) = 190.85 Elo, and P(draw)/P(loss) = ν·√3 = 4/2, so
    /// ν = 2/√3 = 1.1547.
    #[test]
    fn two_players_with_draws_by_hand() {
        let f = fit(2, &[pair(0, 1, 6, 4, 2)], 0.0, 1).unwrap();
        assert!(close(f.elo(0), 400.0 * 3f64.log10()), "{}", f.elo(0));
        assert!(close(f.draw, 2.0 / 3f64.sqrt()), "{}", f.draw);
    }

    /// a beats b, b beats c, c beats a, each 3-1 with 2 draws: by symmetry all equal.
    #[test]
    fn a_symmetric_cycle_gives_equal_ratings() {
        let pairs = [
            pair(0, 1, 3, 2, 1),
            pair(1, 2, 3, 2, 1),
            pair(0, 2, 1, 2, 3),
        ];
        for anchor in 0..3 {
            let f = fit(3, &pairs, 0.0, anchor).unwrap();
            for i in 0..3 {
                assert!(f.elo(i).abs() < 1e-6, "{anchor} {i}: {}", f.elo(i));
            }
            assert_eq!(f.elo(anchor), 0.0);
        }
    }

    /// a chain: a 3-1 b, b 3-1 c, and a never met c: each step is 400·log10(3), additive.
    #[test]
    fn ratings_add_up_along_a_chain() {
        let f = fit(3, &[pair(0, 1, 3, 0, 1), pair(1, 2, 3, 0, 1)], 0.0, 2).unwrap();
        let step = 400.0 * 3f64.log10();
        assert!(
            close(f.elo(1), step) && close(f.elo(0), 2.0 * step),
            "{f:?}"
        );
    }

    /// A sweep has no finite maximum without a prior; with one virtual draw-split game,
    /// 10-0 becomes (10.5)/(0.5) odds in the Bradley-Terry part: 400·log10(21) = 528.9.
    #[test]
    fn a_sweep_needs_the_prior() {
        assert_eq!(fit(2, &[pair(0, 1, 10, 0, 0)], 0.0, 1), None);
        let pairs = [pair(0, 1, 10, 0, 0)];
        let problem = Problem {
            players: 2,
            pairs: &pairs,
            prior_pairs: &[],
            prior: 0.0,
            anchor: 0,
        };
        // Player 0 lost nothing to the rest.
        assert_eq!(problem.unbounded_group(), Some(vec![0]));
        let cycle = [
            pair(0, 1, 1, 0, 0),
            pair(1, 2, 1, 0, 0),
            pair(0, 2, 0, 0, 1),
        ];
        let cycle = Problem {
            players: 3,
            pairs: &cycle,
            ..problem
        };
        assert_eq!(cycle.unbounded_group(), None);
        let f = fit(2, &[pair(0, 1, 10, 0, 0)], 1.0, 1).unwrap();
        assert!(close(f.elo(0), 400.0 * 21f64.log10()), "{}", f.elo(0));
    }

    #[test]
    fn all_draws_give_equal_ratings_and_an_infinite_draw_parameter() {
        let f = fit(2, &[pair(0, 1, 0, 5, 0)], 0.0, 0).unwrap();
        assert_eq!((f.elo(1), f.draw), (0.0, f64::INFINITY));
    }
}
