//! The limits every call into a module runs under: an instruction budget (deterministic),
//! a wall-clock deadline (a safety net) and a memory limit (set on the VM).

use std::cell::Cell;
use std::time::{Duration, Instant};

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
    deadline: Cell<Option<Instant>>,
    tripped: Cell<Option<Trip>>,
}

impl Budget {
    /// A budget with these limits, not yet started.
    pub fn new(limits: Limits) -> Self {
        Budget {
            limits: Cell::new(limits),
            used: Cell::new(0),
            deadline: Cell::new(None),
            tripped: Cell::new(None),
        }
    }

    /// Starts a new call: a full budget and a fresh deadline.
    pub fn start(&self) {
        self.used.set(0);
        self.tripped.set(None);
        let wall = Duration::from_millis(self.limits.get().wall_ms);
        self.deadline.set(Some(Instant::now() + wall));
    }

    /// Ends the call: no deadline until the next start.
    pub fn stop(&self) {
        self.deadline.set(None);
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
        } else if self.deadline.get().is_some_and(|d| Instant::now() > d) {
            Some(Trip::Time)
        } else {
            None
        };
        self.tripped.set(trip);
        trip
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
