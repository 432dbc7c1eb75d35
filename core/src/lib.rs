//! chancery-core: the engine of Chancery. It knows no game: it holds the generic table
//! (cards in zones, pieces on places, units in boxes, counters, seats), loads modules (RON
//! data and sandboxed Lua rules), runs sessions (inputs, undo, redo, bots, replay, rebase
//! onto a reloaded module), saves them, and watches module folders for hot reload.

pub mod digest;
pub mod ids;
pub mod module;
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
pub use rules::{Action, BotPick, Choice, Need, Prompt, RulesError, Target};
pub use save::SaveFile;
pub use session::{Actor, GameSpec, Input, Manual, RebaseReport, Session, SessionError};
pub use table::{Controller, DiceMode, Position, Table};
pub use value::Value;
