//! [`Wdl`]: a position's value as the probabilities of a win, a draw and a loss for the player
//! to move, what a three-way value head predicts and what an exact value is scored against.

/// Probabilities of a win, a draw and a loss for one player (they sum to 1).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wdl {
    /// Probability of a win.
    pub win: f32,
    /// Probability of a draw.
    pub draw: f32,
    /// Probability of a loss.
    pub loss: f32,
}

/// The three classes of an exact value, in the order of [`Wdl::as_array`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WdlClass {
    /// A win for the player.
    Win,
    /// A draw.
    Draw,
    /// A loss for the player.
    Loss,
}

impl WdlClass {
    /// The class of an exact value (+1, 0 or -1; a value is taken by its sign).
    pub fn of_value(value: f32) -> WdlClass {
        if value > 0.0 {
            WdlClass::Win
        } else if value < 0.0 {
            WdlClass::Loss
        } else {
            WdlClass::Draw
        }
    }

    /// Its index in [`Wdl::as_array`]: 0 win, 1 draw, 2 loss.
    pub fn index(self) -> usize {
        match self {
            WdlClass::Win => 0,
            WdlClass::Draw => 1,
            WdlClass::Loss => 2,
        }
    }
}

impl Wdl {
    /// The certain value of `class`.
    pub fn certain(class: WdlClass) -> Wdl {
        let mut p = [0.0; 3];
        p[class.index()] = 1.0;
        Wdl::from_array(p)
    }

    /// The probabilities `[win, draw, loss]`.
    pub fn from_array([win, draw, loss]: [f32; 3]) -> Wdl {
        Wdl { win, draw, loss }
    }

    /// `[win, draw, loss]`.
    pub fn as_array(&self) -> [f32; 3] {
        [self.win, self.draw, self.loss]
    }

    /// The softmax of a three-way head's logits `[win, draw, loss]`.
    pub fn from_logits(logits: [f32; 3]) -> Wdl {
        let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e = logits.map(|l| (l - top).exp());
        let sum: f32 = e.iter().sum();
        Wdl::from_array(e.map(|x| x / sum))
    }

    /// The distribution of a scalar value `v` in `[-1, 1]` that keeps its expectation with the
    /// most weight on a draw: `(max(v, 0), 1 - |v|, max(-v, 0))`. It maps +1, 0 and -1 to
    /// the certain win, draw and loss; a scalar head's value and a mixed training target are
    /// read this way.
    pub fn from_value(v: f32) -> Wdl {
        let v = v.clamp(-1.0, 1.0);
        Wdl {
            win: v.max(0.0),
            draw: 1.0 - v.abs(),
            loss: (-v).max(0.0),
        }
    }

    /// The expected result, `win - loss`, in `[-1, 1]`: the value search uses.
    pub fn value(&self) -> f32 {
        self.win - self.loss
    }

    /// The most likely class (ties go to the draw, then the win).
    pub fn class(&self) -> WdlClass {
        if self.draw >= self.win && self.draw >= self.loss {
            WdlClass::Draw
        } else if self.win >= self.loss {
            WdlClass::Win
        } else {
            WdlClass::Loss
        }
    }

    /// The Brier score against the exact `class`: the squared distance to its certain
    /// distribution, from 0 (certain and right) to 2 (certain and wrong).
    pub fn brier(&self, class: WdlClass) -> f32 {
        let truth = Wdl::certain(class).as_array();
        self.as_array()
            .iter()
            .zip(truth)
            .map(|(p, t)| (p - t) * (p - t))
            .sum()
    }

    /// The log loss against the exact `class`: `-ln p(class)`, with `p` at least `1e-6`.
    pub fn log_loss(&self, class: WdlClass) -> f32 {
        -self.as_array()[class.index()].max(1e-6).ln()
    }

    /// Permille of each, rounded so that they sum to 1000 (UCI engines' `wdl` field).
    pub fn permille(&self) -> [u32; 3] {
        let scaled = self
            .as_array()
            .map(|p| (p.clamp(0.0, 1.0) * 1000.0).round() as u32);
        let win = scaled[0].min(1000);
        let loss = scaled[2].min(1000 - win);
        [win, 1000 - win - loss, loss]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scalar_value_keeps_its_expectation_and_exact_values_are_certain() {
        for v in [-1.0, -0.6, -0.1, 0.0, 0.3, 1.0] {
            let wdl = Wdl::from_value(v);
            assert!((wdl.value() - v).abs() < 1e-6, "{v}: {wdl:?}");
            assert!((wdl.as_array().iter().sum::<f32>() - 1.0).abs() < 1e-6);
        }
        assert_eq!(Wdl::from_value(1.0), Wdl::certain(WdlClass::Win));
        assert_eq!(Wdl::from_value(0.0), Wdl::certain(WdlClass::Draw));
        assert_eq!(Wdl::from_value(-1.0), Wdl::certain(WdlClass::Loss));
    }

    #[test]
    fn logits_give_a_distribution_and_its_class() {
        let wdl = Wdl::from_logits([2.0, 0.0, -1.0]);
        assert!((wdl.as_array().iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(wdl.win > wdl.draw && wdl.draw > wdl.loss);
        assert_eq!(wdl.class(), WdlClass::Win);
        assert_eq!(Wdl::from_logits([0.0, 3.0, 0.0]).class(), WdlClass::Draw);
        assert_eq!(Wdl::from_logits([-5.0, 0.0, 1.0]).class(), WdlClass::Loss);
        // Large logits do not overflow.
        assert_eq!(Wdl::from_logits([1e30, 0.0, 0.0]).class(), WdlClass::Win);
    }

    #[test]
    fn brier_and_log_loss_reward_the_right_class() {
        let right = Wdl::from_array([0.8, 0.15, 0.05]);
        assert!(right.brier(WdlClass::Win) < right.brier(WdlClass::Draw));
        assert!(right.log_loss(WdlClass::Win) < right.log_loss(WdlClass::Loss));
        assert_eq!(Wdl::certain(WdlClass::Draw).brier(WdlClass::Draw), 0.0);
        assert_eq!(Wdl::certain(WdlClass::Win).brier(WdlClass::Loss), 2.0);
        assert!((Wdl::certain(WdlClass::Loss).log_loss(WdlClass::Win) - 13.8155).abs() < 1e-3);
    }

    #[test]
    fn permille_sums_to_a_thousand() {
        for wdl in [
            Wdl::from_array([0.3335, 0.3335, 0.333]),
            Wdl::from_value(0.4567),
            Wdl::certain(WdlClass::Loss),
        ] {
            let [w, d, l] = wdl.permille();
            assert_eq!(w + d + l, 1000, "{wdl:?}");
        }
        assert_eq!(Wdl::from_value(0.5).permille(), [500, 500, 0]);
    }
}
