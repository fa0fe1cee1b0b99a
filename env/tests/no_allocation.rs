//! Move generation allocates nothing: a counting allocator watches perft, complete-turn and
//! step generation, and playing moves, over the start and thousands of random positions.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use fanorona_env::{Board, Position, perft};

/// The system allocator, counting the allocations made on each thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Allocations this thread makes while `f` runs.
fn allocations_in(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_an_allocation() {
    let n = allocations_in(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert_eq!(n, 1);
}

#[test]
fn perft_from_the_start_allocates_nothing() {
    let start = Position::standard();
    let leaves = perft(&start, 1);
    let mut total = 0;
    let n = allocations_in(|| total = perft(&start, 4));
    assert_eq!(leaves, 5);
    assert_eq!(total, 18_026);
    assert_eq!(n, 0, "perft 4 allocated {n} times");
}

#[test]
fn generating_and_playing_moves_in_random_positions_allocates_nothing() {
    for (w, h) in common::SIZES {
        let board = Board::new(w, h).unwrap();
        for rules in common::rule_sets() {
            let positions: Vec<Position> = common::random_states(board, rules, 500, 11)
                .iter()
                .map(|s| *s.position())
                .collect();
            let mut moves = 0u64;
            let n = allocations_in(|| {
                for pos in &positions {
                    pos.for_each_turn(|turn| {
                        let mut child = *pos;
                        child.play_turn_unchecked(turn);
                        moves += child.count_turns();
                    });
                    for step in pos.legal_steps() {
                        let mut child = *pos;
                        child.play_step_unchecked(step);
                        moves += u64::from(child.has_legal_move());
                    }
                }
            });
            assert!(moves > 0);
            assert_eq!(n, 0, "{w}x{h} {rules:?}: {n} allocations");
        }
    }
}
