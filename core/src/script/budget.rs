//! The limits every call into a module runs under: an instruction budget (deterministic),
//! a wall-clock deadline (a safety net) and a memory limit (set on the VM).
//!
//! A call's clock stops while a budgeted call of another VM runs inside it (a module test
//! playing a game): each is held to its own limits.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

thread_local! {
    /// For each budgeted call running on this thread, outermost first: the time spent in
    /// the budgeted calls nested directly inside it.
    static NESTED: RefCell<Vec<Duration>> = const { RefCell::new(Vec::new()) };
}

/// Limits for each call into module code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Lua VM instructions (and pattern-matching steps) one call may use.
    pub instructions: u64,
    /// Wall-clock time one call may take, in milliseconds.
    pub wall_ms: u64,
    /// Memory the whole VM may hold, in bytes.
    pub memory_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            instructions: 100_000_000,
            wall_ms: 1_500,
            memory_bytes: 256 * 1024 * 1024,
        }
    }
}

/// Why a call was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trip {
    /// It used its whole instruction budget.
    Instructions,
    /// It ran past its deadline.
    Time,
}

/// The running count for the current call, shared by the VM hook and the pattern matcher.
#[derive(Debug)]
pub struct Budget {
    limits: Cell<Limits>,
    used: Cell<u64>,
    started: Cell<Option<Instant>>,
    tripped: Cell<Option<Trip>>,
}

impl Budget {
    /// A budget with these limits, not yet started.
    pub fn new(limits: Limits) -> Self {
        Budget {
            limits: Cell::new(limits),
            used: Cell::new(0),
            started: Cell::new(None),
            tripped: Cell::new(None),
        }
    }

    /// Starts a new call: a full budget and a fresh deadline.
    pub fn start(&self) {
        self.used.set(0);
        self.tripped.set(None);
        self.started.set(Some(Instant::now()));
        NESTED.with_borrow_mut(|nested| nested.push(Duration::ZERO));
    }

    /// Ends the call: no deadline until the next start. Its time is left out of the clock
    /// of the call it ran inside.
    pub fn stop(&self) {
        let Some(started) = self.started.take() else {
            return;
        };
        NESTED.with_borrow_mut(|nested| {
            nested.pop();
            if let Some(outer) = nested.last_mut() {
                *outer += started.elapsed();
            }
        });
    }

    /// The limits calls run under.
    pub fn limits(&self) -> Limits {
        self.limits.get()
    }

    /// Changes the limits for the calls that follow.
    pub fn set_limits(&self, limits: Limits) {
        self.limits.set(limits);
    }

    /// Whether the current call has run past its wall-clock limit, not counting the budgeted
    /// calls nested inside it.
    fn late(&self) -> bool {
        let Some(started) = self.started.get() else {
            return false;
        };
        let nested = NESTED.with_borrow(|nested| nested.last().copied().unwrap_or_default());
        let own = started.elapsed().saturating_sub(nested);
        own > Duration::from_millis(self.limits.get().wall_ms)
    }

    /// Counts `steps` more; returns the reason if the call must stop. Once tripped, a call
    /// stays tripped until the next start, so every enclosing `pcall` fails in turn.
    pub fn consume(&self, steps: u64) -> Option<Trip> {
        if let Some(trip) = self.tripped.get() {
            return Some(trip);
        }
        let used = self.used.get().saturating_add(steps);
        self.used.set(used);
        let trip = if used > self.limits.get().instructions {
            Some(Trip::Instructions)
        } else if self.late() {
            Some(Trip::Time)
        } else {
            None
        };
        self.tripped.set(trip);
        trip
    }

    /// The memory the whole VM may hold, in bytes.
    pub fn memory_limit(&self) -> usize {
        self.limits.get().memory_bytes
    }

    /// Whether the current call has been stopped.
    pub fn tripped(&self) -> Option<Trip> {
        self.tripped.get()
    }

    /// The message for a stopped call.
    pub fn message(&self, trip: Trip) -> String {
        let limits = self.limits.get();
        match trip {
            Trip::Instructions => format!(
                "script stopped: it ran more than {} instructions in one call (an endless loop?)",
                limits.instructions
            ),
            Trip::Time => format!(
                "script stopped: it ran longer than {} ms in one call (an endless loop?)",
                limits.wall_ms
            ),
        }
    }
}
