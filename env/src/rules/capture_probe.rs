//! Finding the capturing steps of one piece: the innermost test of the chain search.
//!
//! For a piece on `at`, a capture moving in direction `d` needs the neighbour `to[d]` free,
//! and an enemy on the point beyond it (approach) or on the point behind `at` (withdrawal).
//! [`Portable`] reads windows around `at` with rotations; [`Bmi2`] gathers the eight
//! neighbours and the eight points beyond them with one `pext` each, on processors where that
//! instruction is fast. Both map the gathered bits to directions with a table.

use super::board::CaptureLines;

/// The capturing steps of the piece whose capture lines are `lines`: bit `d` of the first
/// mask is an approach moving in direction `d`, of the second a withdrawal. `blocked` holds
/// every point the piece may not step to (pieces and points visited this turn).
pub(crate) trait CaptureProbe: Copy {
    /// Approach and withdrawal masks, by direction.
    fn captures(self, lines: &CaptureLines, blocked: u64, them: u64) -> (u8, u8);

    /// The same without direction `last` (8: none), which a capture chain may not repeat.
    #[inline(always)]
    fn captures_except(
        self,
        lines: &CaptureLines,
        blocked: u64,
        them: u64,
        last: usize,
    ) -> (u8, u8) {
        let (approach, withdraw) = self.captures(lines, blocked, them);
        let allowed = !((1u16 << last) as u8);
        (approach & allowed, withdraw & allowed)
    }
}

/// Reads the windows around the piece with rotations and masks, on any processor: three
/// rows of three bits make a 9-bit window of the neighbours, three rows of every second
/// point of five (packed by a multiplication) a window of the points two steps away, and a
/// 512-entry table maps each window to directions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

/// Window bit -> direction: rows from the bottom, columns from the left (8: the centre).
const NEAR_LAYOUT: [usize; 9] = [5, 4, 3, 6, 8, 2, 7, 0, 1];

/// The same for the far window, whose rows come out right to left (see `far_window`).
const FAR_LAYOUT: [usize; 9] = [3, 4, 5, 2, 8, 6, 1, 0, 7];

/// `table[m]`: the mask `m` rewritten by direction, where bit `i` of `m` stands for
/// direction `layout[i]` (8: for none).
const fn direction_table(layout: [usize; 9]) -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut bit = 0;
        while bit < 9 {
            if m & (1 << bit) != 0 && layout[bit] < 8 {
                table[m] |= 1 << layout[bit];
            }
            bit += 1;
        }
        m += 1;
    }
    table
}

const NEAR_TO_DIRECTIONS: [u8; 512] = direction_table(NEAR_LAYOUT);
const FAR_TO_DIRECTIONS: [u8; 512] = direction_table(FAR_LAYOUT);

/// The 3 x 3 window of `x` whose rows `rows` rotate to bit 0.
#[inline(always)]
fn near_window(x: u64, rows: [u8; 3]) -> usize {
    let row = |r: u8| (x.rotate_right(u32::from(r)) & 0b111) as usize;
    row(rows[0]) | row(rows[1]) << 3 | row(rows[2]) << 6
}

/// Every second point of the 5 x 5 window of `x`: in each row the bits 0, 2 and 4 are packed
/// by multiplying by `1 + 8 + 64`, which puts them on bits 6, 5 and 4 without carries.
#[inline(always)]
fn far_window(x: u64, rows: [u8; 3]) -> usize {
    let row = |r: u8| ((((x.rotate_right(u32::from(r)) & 0b10101) * 73) >> 4) & 0b111) as usize;
    row(rows[0]) | row(rows[1]) << 3 | row(rows[2]) << 6
}

impl CaptureProbe for Portable {
    #[inline(always)]
    fn captures(self, lines: &CaptureLines, blocked: u64, them: u64) -> (u8, u8) {
        let free =
            NEAR_TO_DIRECTIONS[near_window(!blocked, lines.near_rows)] & lines.neighbour_dirs;
        let near = NEAR_TO_DIRECTIONS[near_window(them, lines.near_rows)] & lines.neighbour_dirs;
        let far = FAR_TO_DIRECTIONS[far_window(them, lines.far_rows)] & lines.beyond_dirs;
        // A withdrawal in direction d strikes the neighbour in direction d + 4.
        (free & far, free & near.rotate_right(4))
    }
}

/// The directions in the order of their neighbours' point indices on any board of width at
/// least 3 (offsets `-w-1, -w, -w+1, -1, +1, w-1, w, w+1`); the points two steps away come
/// in the same order. Slot `i` of a gathered mask is direction `SLOT_DIRECTIONS[i]`.
pub(crate) const SLOT_DIRECTIONS: [usize; 8] = [5, 4, 3, 6, 2, 7, 0, 1];

/// `SLOT_TO_DIRECTIONS[m]`: the mask `m`, given by slot, rewritten by direction (only the
/// first 256 entries are used).
const SLOT_TO_DIRECTIONS: [u8; 512] = {
    let mut layout = [8; 9];
    let mut slot = 0;
    while slot < 8 {
        layout[slot] = SLOT_DIRECTIONS[slot];
        slot += 1;
    }
    direction_table(layout)
};

/// Gathers with the BMI2 instructions `pext` and `pdep`. Only [`Bmi2::detect`] makes one,
/// and only where the processor has them and runs them fast.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2 {
    _checked: (),
}

impl Bmi2 {
    /// The BMI2 probe, if this processor has fast `pext`/`pdep`: Intel's with BMI2 (Haswell
    /// on), and AMD's from Zen 3 (family 19h) on; earlier AMD processors run them in
    /// microcode, slower than [`Portable`]. Checked once per process.
    pub(crate) fn detect() -> Option<Bmi2> {
        use std::sync::OnceLock;
        static FAST: OnceLock<bool> = OnceLock::new();
        FAST.get_or_init(fast_bmi2).then_some(Bmi2 { _checked: () })
    }
}

#[cfg(target_arch = "x86_64")]
fn fast_bmi2() -> bool {
    use std::arch::x86_64::__cpuid;
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    let leaf0 = __cpuid(0);
    let mut vendor = [0u8; 12];
    for (chunk, word) in vendor.chunks_mut(4).zip([leaf0.ebx, leaf0.edx, leaf0.ecx]) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    // AMD before Zen 3, and Hygon (Zen 1), run pext/pdep in microcode.
    match &vendor {
        b"AuthenticAMD" => {
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xF;
            let extended = if base == 0xF { (eax >> 20) & 0xFF } else { 0 };
            base + extended >= 0x19
        }
        b"HygonGenuine" => false,
        _ => true,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn fast_bmi2() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// The bits of `x` on the points of `points`, by slot: gathered to the bottom (`pext`),
    /// then spread over the slots that exist (`pdep` onto `slots`), so that a missing point
    /// leaves its slot empty.
    #[inline(always)]
    fn by_slot(self, x: u64, points: u64, slots: u8) -> usize {
        let spread: u64;
        // SAFETY: a `Bmi2` exists only where the processor supports BMI2 (see `detect`).
        unsafe {
            std::arch::asm!(
                "pext {out}, {x}, {points}",
                "pdep {out}, {out}, {slots}",
                x = in(reg) x,
                points = in(reg) points,
                slots = in(reg) u64::from(slots),
                out = out(reg) spread,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        spread as usize
    }
}

#[cfg(target_arch = "x86_64")]
impl CaptureProbe for Bmi2 {
    #[inline(always)]
    fn captures(self, lines: &CaptureLines, blocked: u64, them: u64) -> (u8, u8) {
        let free = self.by_slot(!blocked, lines.neighbours, lines.neighbour_slots);
        let near = self.by_slot(them, lines.neighbours, lines.neighbour_slots);
        let far = self.by_slot(them, lines.beyonds, lines.beyond_slots);
        let approach = SLOT_TO_DIRECTIONS[free & far];
        // A withdrawal in direction d strikes the neighbour in direction d + 4.
        let withdraw = SLOT_TO_DIRECTIONS[free] & SLOT_TO_DIRECTIONS[near].rotate_right(4);
        (approach, withdraw)
    }
}

/// Off x86_64 no `Bmi2` is ever made; the impl only keeps the dispatch in `movegen` the same.
#[cfg(not(target_arch = "x86_64"))]
impl CaptureProbe for Bmi2 {
    fn captures(self, lines: &CaptureLines, blocked: u64, them: u64) -> (u8, u8) {
        Portable.captures(lines, blocked, them)
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::rules::board::{Board, Point};

    #[test]
    fn slot_table_maps_each_slot_to_its_direction() {
        for (slot, &d) in SLOT_DIRECTIONS.iter().enumerate() {
            assert_eq!(SLOT_TO_DIRECTIONS[1 << slot], 1 << d);
        }
        assert_eq!(SLOT_TO_DIRECTIONS[0xFF], 0xFF);
    }

    #[test]
    fn slots_follow_point_order_on_every_board() {
        for (w, h) in [(3, 3), (9, 5), (3, 21), (21, 3), (7, 9), (5, 5)] {
            assert!(Board::new(w, h).is_ok());
            let offsets: Vec<i64> = SLOT_DIRECTIONS
                .iter()
                .map(|&d| {
                    let (dx, dy) = crate::rules::board::Direction::from_index(d).delta();
                    i64::from(dy) * w as i64 + i64::from(dx)
                })
                .collect();
            assert!(offsets.windows(2).all(|o| o[0] < o[1]), "{w}x{h}");
        }
    }

    /// Both probes agree on random sets of blocked and enemy points, for every point of
    /// every board shape. Where the processor lacks fast BMI2 only `Portable` is checked
    /// against the direction-by-direction definition.
    #[test]
    fn probes_agree_on_random_sets() {
        let mut rng = StdRng::seed_from_u64(7);
        let bmi2 = Bmi2::detect();
        for (w, h) in [
            (3, 3),
            (5, 5),
            (9, 5),
            (5, 9),
            (3, 21),
            (21, 3),
            (7, 9),
            (9, 7),
        ] {
            let board = Board::new(w, h).unwrap();
            for _ in 0..400 {
                let blocked = rng.random::<u64>() & board.all();
                let them = rng.random::<u64>() & blocked;
                for p in 0..board.points() as Point {
                    let lines = board.capture_lines(p);
                    let expected = reference(board, p, blocked, them);
                    assert_eq!(Portable.captures(lines, blocked, them), expected);
                    if let Some(probe) = bmi2 {
                        assert_eq!(
                            probe.captures(lines, blocked, them),
                            expected,
                            "{w}x{h} {p}"
                        );
                    }
                }
            }
        }
    }

    /// The captures of the piece on `p`, straight from the neighbour table.
    fn reference(board: &Board, p: Point, blocked: u64, them: u64) -> (u8, u8) {
        use crate::rules::board::Direction;
        let has = |q: Option<Point>, set: u64| q.is_some_and(|q| set & (1 << q) != 0);
        let (mut approach, mut withdraw) = (0, 0);
        for d in Direction::ALL {
            let Some(to) = board.neighbour(p, d) else {
                continue;
            };
            if blocked & (1 << to) != 0 {
                continue;
            }
            if has(board.neighbour(to, d), them) {
                approach |= 1 << d.index();
            }
            if has(board.neighbour(p, d.opposite()), them) {
                withdraw |= 1 << d.index();
            }
        }
        (approach, withdraw)
    }
}
