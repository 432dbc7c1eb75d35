//! What one hook call works on, kept in the VM's app data for the length of the call (the
//! table, the seat's eyes, the flow changes made, ctx's tables as handed to the script), and
//! what a VM remembers between calls. The `ctx` API (`api.rs`), the data tables
//! (`data.rs`), ctx's tables handed a field at a time (`lazy.rs`) and the host that makes
//! the calls (`host.rs`) all read it; it reads none of them.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use mlua::Table as LuaTable;

use crate::ids::SeatId;
use crate::module::Module;
use crate::rng::Rng;
use crate::rules::{Need, StepIo};
use crate::table::{Frame, Stamp, Table};
use crate::value::Value;

/// A change of the flow, handled after the hook that made it returns.
#[derive(Clone, Debug)]
pub(crate) enum FlowEvent {
    /// A frame was entered (by id): run its state's `on_enter`.
    Enter(u64),
    /// A frame was left: run its state's `on_exit` with its last locals.
    Exit(Frame),
    /// A sub-procedure returned to the frame with this id: run its state's `on_resume`
    /// with the result.
    Resume(u64, Value),
}

/// What a hook call works on. Lives in the VM's app data for the length of one call.
pub(crate) struct CallState {
    /// The table being read or changed.
    pub table: Table,
    /// The module (for checking ids).
    pub module: Arc<Module>,
    /// Whether the hook may change the table.
    pub writable: bool,
    /// Whether the hook is a bot (which may draw from its own random stream).
    pub bot: bool,
    /// The seat whose eyes the hook reads the table with (bots, a seat's view): cards it
    /// may not see read as "?" and are nowhere to be found. `None`: it sees everything.
    pub viewer: Option<SeatId>,
    /// The hook, for messages (`prompt of state 'debate'`).
    pub hook: String,
    /// Flow changes made during the call.
    pub events: Vec<FlowEvent>,
    /// Dice and log of the step.
    pub io: StepIo,
    /// Set when the call needs something from the table's people.
    pub need: Option<Need>,
    /// The frame whose locals `ctx.locals` is.
    pub locals_frame: Option<u64>,
    /// Locals given directly (the frame is already gone: `on_exit`).
    pub locals_given: Option<Value>,
    /// `ctx.vars`, once a script has read it.
    pub vars_table: Option<Lazy>,
    /// `ctx.locals`, once a script has read it.
    pub locals_table: Option<Lazy>,
    /// `ctx.watched`: whether anyone will read the call's words.
    pub watched: bool,
    /// `ctx.private[seat]` for each seat a script has read or set.
    pub private_tables: BTreeMap<SeatId, LuaTable>,
    /// A bot's random stream, once it has drawn.
    pub bot_rng: Option<Rng>,
    /// What a bot drew, as lines for its reasons.
    pub bot_draws: Vec<String>,
    /// The names of the rules' states.
    pub states: Arc<Vec<String>>,
    /// What the VM remembers of `ctx:space_of` (kept true to `table`) and `ctx:known`.
    pub remembered: Rc<RefCell<Remembered>>,
    /// The table behind every call's `ctx` (its functions and `data`), which keeps the
    /// fields made for this call that it reads again (`ctx.vars`…) until the call ends; the
    /// names of those read once, and of those it keeps.
    pub ctx_proto: LuaTable,
    pub read_once: Vec<&'static str>,
    pub kept: Vec<&'static str>,
}

/// What a VM remembers of `ctx:space_of` and `ctx:known` (see the prelude): its tables of
/// each piece's place (false: off the table) and space, with the places' state and the
/// viewer they hold for, and of whether each value is entered.
pub(crate) struct Remembered {
    places: LuaTable,
    spaces: LuaTable,
    holds_for: Option<(Stamp, Option<SeatId>)>,
    known: LuaTable,
}

impl Remembered {
    pub fn new(places: LuaTable, spaces: LuaTable, known: LuaTable) -> Remembered {
        Remembered {
            places,
            spaces,
            holds_for: None,
            known,
        }
    }

    /// Forgets everything, as for a new game.
    pub fn forget(&mut self) -> mlua::Result<()> {
        self.forget_places()?;
        self.known.clear()
    }

    /// Forgets where every piece stands.
    fn forget_places(&mut self) -> mlua::Result<()> {
        self.holds_for = None;
        self.places.clear()?;
        self.spaces.clear()
    }

    /// Forgets every answer unless they hold for the places as `stamp` and `viewer` see
    /// them: a piece may have moved (in this call, in another VM's, by the players), or the
    /// call reads another table, or as another seat.
    pub fn hold_for(&mut self, stamp: Stamp, viewer: &Option<SeatId>) -> mlua::Result<()> {
        if self
            .holds_for
            .as_ref()
            .is_some_and(|(s, v)| *s == stamp && v == viewer)
        {
            return Ok(());
        }
        self.forget_places()?;
        self.holds_for = Some((stamp, viewer.clone()));
        Ok(())
    }
}

/// Which of ctx's tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Which {
    Vars,
    Locals,
}

impl Which {
    /// Its name in messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Which::Vars => "ctx.vars",
            Which::Locals => "ctx.locals",
        }
    }
}

/// A table handed to a script, and which of its fields are in it.
pub(crate) struct Lazy {
    pub table: LuaTable,
    /// The fields filled from the rules' values or written by the script, in that order.
    pub(super) marked: Vec<String>,
    /// Every field has been filled: the table is the whole of it.
    pub(super) whole: bool,
}
