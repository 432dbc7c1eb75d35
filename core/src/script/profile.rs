//! A sampling profile of module code, for `chancery sim --profile`: while a thread profiles,
//! the instruction hook charges the budget every [`EVERY`] VM instructions, and the
//! function running then gets one sample of its own, and it and every function on the
//! stack under it (those that called it) one sample with their callees; each is named by
//! its script and the line it is defined on. Off unless a thread asks for it; it changes
//! nothing the scripts see.

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
}

/// Starts profiling the module code this thread runs (clearing earlier samples).
pub fn start() {
    SAMPLES.with_borrow_mut(|s| *s = Some(BTreeMap::new()));
}

/// Stops profiling on this thread and returns its samples, by function.
pub fn take() -> BTreeMap<String, Samples> {
    SAMPLES.with_borrow_mut(Option::take).unwrap_or_default()
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
