//! A sampling profile of module code, for `chancery sim --profile`: while a thread profiles,
//! the instruction hook charges the budget every [`EVERY`] VM instructions, and the
//! function running then gets one sample, named by its script and the line it is defined
//! on. Off unless a thread asks for it; it changes nothing the scripts see.

use std::cell::RefCell;
use std::collections::BTreeMap;

/// VM instructions a sample.
pub const EVERY: u32 = 100;

thread_local! {
    /// Samples by function on this thread, while profiling.
    static SAMPLES: RefCell<Option<BTreeMap<String, u64>>> = const { RefCell::new(None) };
}

/// Starts profiling the module code this thread runs (clearing earlier samples).
pub fn start() {
    SAMPLES.with_borrow_mut(|s| *s = Some(BTreeMap::new()));
}

/// Stops profiling on this thread and returns its samples, by function.
pub fn take() -> BTreeMap<String, u64> {
    SAMPLES.with_borrow_mut(Option::take).unwrap_or_default()
}

/// Whether this thread is profiling.
pub(crate) fn on() -> bool {
    SAMPLES.with_borrow(Option::is_some)
}

/// Counts one sample of `function`.
pub(crate) fn sample(function: String) {
    SAMPLES.with_borrow_mut(|s| {
        if let Some(samples) = s {
            *samples.entry(function).or_default() += 1;
        }
    });
}
