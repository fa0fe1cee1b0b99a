//! Judging one turn from the values around it: whether it kept its mover's value.

use fanorona_exact::prover::Verdict;

/// Whether a turn kept its mover's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// It kept the value (every turn keeps a loss).
    Keeps,
    /// It lost some of it: a win to a draw or a loss, a draw to a loss.
    Loses,
    /// The values known do not settle it.
    Unknown,
}

/// Judges a turn from the mover's value before it (`before`) and the value of the position
/// it leads to for the side to move there, the other side (`after`), each `None` where it is
/// not known. Every turn keeps a loss; a turn after which the mover wins kept a win (the mover
/// could win, so the position was won); otherwise both values are needed.
pub fn judge(before: Option<Verdict>, after: Option<Verdict>) -> Judgement {
    let after = after.map(Verdict::for_other_side);
    match (before, after) {
        (Some(Verdict::Loss), _) | (_, Some(Verdict::Win)) => Judgement::Keeps,
        (Some(before), Some(after)) if before == after => Judgement::Keeps,
        (Some(_), Some(_)) => Judgement::Loses,
        _ => Judgement::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Draw, Loss, Win};

    #[test]
    fn turns_are_judged_from_the_values_around_them() {
        // `after` is the next mover's value: its loss is the mover's win.
        assert_eq!(judge(Some(Win), Some(Loss)), Judgement::Keeps);
        assert_eq!(judge(Some(Win), Some(Draw)), Judgement::Loses);
        assert_eq!(judge(Some(Win), Some(Win)), Judgement::Loses);
        assert_eq!(judge(Some(Draw), Some(Draw)), Judgement::Keeps);
        assert_eq!(judge(Some(Draw), Some(Win)), Judgement::Loses);
        for after in [Some(Win), Some(Draw), Some(Loss), None] {
            assert_eq!(judge(Some(Loss), after), Judgement::Keeps, "{after:?}");
        }
    }

    #[test]
    fn unknown_values_settle_only_what_they_can() {
        // The mover wins after the turn: it was a win, kept.
        assert_eq!(judge(None, Some(Loss)), Judgement::Keeps);
        // A draw or a loss after it: kept or lost, depending on the unknown value before.
        assert_eq!(judge(None, Some(Draw)), Judgement::Unknown);
        assert_eq!(judge(None, Some(Win)), Judgement::Unknown);
        assert_eq!(judge(Some(Win), None), Judgement::Unknown);
        assert_eq!(judge(Some(Draw), None), Judgement::Unknown);
        assert_eq!(judge(None, None), Judgement::Unknown);
    }
}
