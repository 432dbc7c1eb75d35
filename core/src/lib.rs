//! chancery-core: the engine of Chancery. It knows no game: it holds the generic table
//! (cards in zones, pieces on places, units in boxes, counters, seats), loads modules (RON
//! data and sandboxed Lua rules), runs sessions (inputs, undo, redo, bots, replay, rebase
//! onto a reloaded module), saves them, and watches module folders for hot reload.

#![warn(missing_docs)]

pub mod devtools;
pub mod digest;
pub mod files;
pub mod fog;
pub mod ids;
pub mod module;
pub mod redact;
pub mod rng;
pub mod rules;
pub mod save;
pub mod script;
pub mod session;
pub mod sim;
pub mod table;
pub mod value;
pub mod view;
pub mod watch;

pub use ids::{
    BoxId, CardId, CounterId, PieceId, PlaceId, ScenarioId, SeatId, SpaceId, UnitKindId, ZoneId,
};
pub use module::{Diagnostic, Diagnostics, LoadOptions, Module, OverlayChoice};
pub use rules::{
    Action, Ask, BotPick, Choice, Decision, LogLine, Need, Prompt, Rules, RulesError, Target,
};
pub use save::SaveFile;
pub use script::{LuaRules, load_module};
pub use session::{Actor, GameSpec, Input, Manual, RebaseReport, Session, SessionError};
pub use table::{Controller, DiceMode, Position, Table};
pub use value::Value;

use std::sync::Arc;

/// Starts a game of `module` as `spec` says, played by the module's Lua rules with the
/// default limits (the usual way to start one; [`Session::new`] takes any [`Rules`]).
pub fn start_game(module: Arc<Module>, spec: GameSpec) -> Result<Session, SessionError> {
    let rules = LuaRules::boxed(&module)?;
    Session::new(module, spec, rules)
}
