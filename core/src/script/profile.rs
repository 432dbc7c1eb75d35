//! A sampling profile of module code, for `chancery sim --profile`: while a thread
//! profiles, the instruction hook charges the budget every [`EVERY`] VM instructions (a
//! call's first time after a count drawn from 1 to `EVERY`, [`phase`]: each instruction is
//! as likely to be sampled, in a short call too), and the function running then gets one
//! sample of its own, and it and every function on the stack under it (those that called
//! it) one sample with their callees; each is named by its script and the line it is
//! defined on. Off unless a thread asks for it; it changes nothing the scripts see.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// VM instructions a sample.
pub const EVERY: u32 = 100;

/// One function's samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Samples {
    /// Taken while the function itself ran.
    pub own: u64,
    /// Taken while it or a function it called (at any depth) ran; a function on the
    /// stack more than once (recursion) counts once a sample.
    pub with_callees: u64,
}

impl Samples {
    /// Adds `other`'s samples to these.
    pub fn add(&mut self, other: Samples) {
        self.own += other.own;
        self.with_callees += other.with_callees;
    }
}

thread_local! {
    /// Samples by function on this thread, while profiling.
    static SAMPLES: RefCell<Option<BTreeMap<String, Samples>>> = const { RefCell::new(None) };
    /// The state of this thread's draws of where a call's first sample falls.
    static PHASE: std::cell::Cell<u64> = const { std::cell::Cell::new(PHASE_SEED) };
}

/// Where each thread's draws start: the same draws, in the same order, in every run.
const PHASE_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// Starts profiling the module code this thread runs (clearing earlier samples).
pub fn start() {
    SAMPLES.with_borrow_mut(|s| *s = Some(BTreeMap::new()));
    PHASE.set(PHASE_SEED);
}

/// Starts the draws again for the game of `seed`, so that a game's draws are the same
/// whichever thread plays it. (What a VM's scripts keep from the games it played before,
/// such as the data they read once, can still change a game's instructions a little: with
/// several threads, a profile's counts vary slightly from run to run; with one, never.)
pub fn new_game(seed: u64) {
    // Odd: xorshift never leaves a state of zero.
    PHASE.set((PHASE_SEED ^ seed.wrapping_mul(0xD6E8_FEB8_6659_FD93)) | 1);
}

/// After how many instructions a call's first sample falls: a number from 1 to [`EVERY`],
/// each as likely (xorshift64*, started by [`start`] and again for each game by
/// [`new_game`]).
pub(crate) fn phase() -> u32 {
    let mut x = PHASE.get();
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    PHASE.set(x);
    let drawn = x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32;
    1 + (drawn % u64::from(EVERY)) as u32
}

/// Stops profiling on this thread and returns its samples, by function.
pub fn take() -> BTreeMap<String, Samples> {
    SAMPLES.with_borrow_mut(Option::take).unwrap_or_default()
}

/// Profiles again on this thread, from `samples` (what [`take`] returned): a game played
/// between the two, such as a check of a game in a new VM, is left out of the profile.
pub fn resume(samples: BTreeMap<String, Samples>) {
    SAMPLES.with_borrow_mut(|s| *s = Some(samples));
}

/// Whether this thread is profiling.
pub(crate) fn on() -> bool {
    SAMPLES.with_borrow(Option::is_some)
}

/// Counts one sample: `running` is the function that ran, `stack` every function on the
/// stack then, itself included.
pub(crate) fn sample(running: String, stack: BTreeSet<String>) {
    SAMPLES.with_borrow_mut(|s| {
        if let Some(samples) = s {
            for function in stack {
                samples.entry(function).or_default().with_callees += 1;
            }
            samples.entry(running).or_default().own += 1;
        }
    });
}
