//! The rules interface: what the session asks of a module's rules (set up, list the legal
//! actions, apply one, let a bot choose, check invariants), without knowing they are Lua.

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{BoxId, CardId, CounterId, PieceId, PlaceId, ScenarioId, SeatId, SpaceId, ZoneId};
use crate::module::OverlayTarget;
use crate::table::Table;
use crate::value::Value;

/// A decision the game is waiting for: the current state, who decides, and every legal action.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    /// The state's name.
    pub state: String,
    /// The seat that decides (`None`: anyone at the table).
    pub seat: Option<SeatId>,
    /// What is being decided, in words.
    pub text: String,
    /// The legal actions. Never empty while the game is not over.
    pub actions: Vec<Action>,
}

/// One legal action of a prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// The action's name: the handler `states.<state>.<name>` that applies it.
    pub name: String,
    /// The argument handed to the handler (for a number range, the lowest value).
    pub arg: Value,
    /// What a button for it says.
    pub label: String,
    /// The piece of the table it concerns, to highlight it.
    pub target: Option<Target>,
    /// For a number choice: the inclusive range of legal numbers.
    pub range: Option<(i64, i64)>,
}

impl Action {
    /// Whether `choice` picks this action.
    pub fn admits(&self, choice: &Choice) -> bool {
        if choice.name != self.name {
            return false;
        }
        match (self.range, &choice.arg) {
            (Some((lo, hi)), Value::Int(n)) => (lo..=hi).contains(n),
            (Some(_), _) => false,
            (None, arg) => *arg == self.arg,
        }
    }

    /// The choice that picks this action (for a range, its lowest number).
    pub fn choice(&self) -> Choice {
        Choice {
            name: self.name.clone(),
            arg: self.arg.clone(),
        }
    }
}

/// The part of the table an action concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// A card.
    Card(CardId),
    /// A zone.
    Zone(ZoneId),
    /// A space of a place.
    Space(PlaceId, SpaceId),
    /// A piece.
    Piece(PieceId),
    /// A box.
    Box(BoxId),
    /// A counter.
    Counter(CounterId),
}

/// A picked action: its name and argument. This is what an input records.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Choice {
    /// The action's name.
    pub name: String,
    /// Its argument.
    pub arg: Value,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.arg {
            Value::Nil => f.write_str(&self.name),
            arg => write!(f, "{} {arg}", self.name),
        }
    }
}

/// A bot's pick and its reasons: the flowchart steps it took, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct BotPick {
    /// The chosen action.
    pub choice: Choice,
    /// The steps that led to it, for a player to follow.
    pub reason: Vec<String>,
}

/// Something the rules need from the people at the table before a step can finish.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Need {
    /// A die roll, when dice are physical: roll one die with this many sides.
    Die {
        /// The die's sides.
        sides: u32,
    },
    /// A value of the module's data that is not entered yet: read it off the component.
    Data(OverlayTarget),
}

impl fmt::Display for Need {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Need::Die { sides } => write!(f, "roll a {sides}-sided die and enter the result"),
            Need::Data(target) => write!(
                f,
                "{target} is not entered yet; read it off the physical game"
            ),
        }
    }
}

/// What went wrong in the rules.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum RulesError {
    /// A script failed; the message names module, hook, state, action and the Lua position.
    #[error("{0}")]
    Script(String),
    /// A step needs something from the table first; retry it with the answer.
    #[error("{0}")]
    Need(Need),
    /// The flow changed state too many times in one step.
    #[error("runaway flow: more than {limit} state changes in one step (last state '{state}')")]
    Runaway {
        /// The step limit.
        limit: usize,
        /// The state the flow was in when it stopped.
        state: String,
    },
}

/// Input and output of one step beyond the table: dice supplied, messages written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepIo {
    /// Die results supplied with the input (physical dice, or forced for a test), used
    /// before the engine's own dice.
    pub dice: Vec<i64>,
    /// How many of `dice` the step used.
    pub dice_used: usize,
    /// Every die rolled in the step: (sides, result).
    pub rolls: Vec<(u32, i64)>,
    /// Log lines the step wrote.
    pub log: Vec<String>,
}

/// A module's rules, as the session uses them.
///
/// The read-only calls (`prompt`, `bot`, `check`, `view`) take the table mutably only so
/// that an implementation may lend it out for the call without copying it; they hand it
/// back unchanged.
pub trait Rules {
    /// Sets up a new game on `table` (already laid out from the scenario's data) and enters
    /// the first state.
    fn setup(
        &mut self,
        table: &mut Table,
        scenario: &ScenarioId,
        options: &Value,
        io: &mut StepIo,
    ) -> Result<(), RulesError>;

    /// The decision the game waits for, or `None` when it is over. Changes nothing.
    fn prompt(&mut self, table: &mut Table) -> Result<Option<Prompt>, RulesError>;

    /// Applies a legal choice of the current prompt (the caller has checked it is legal).
    fn act(
        &mut self,
        table: &mut Table,
        choice: &Choice,
        io: &mut StepIo,
    ) -> Result<(), RulesError>;

    /// Lets the bot `bot` pick one of `prompt`'s actions for `seat`.
    fn bot(
        &mut self,
        table: &mut Table,
        bot: &str,
        seat: &SeatId,
        prompt: &Prompt,
    ) -> Result<BotPick, RulesError>;

    /// Checks the module's invariants on `table`.
    fn check(&mut self, table: &mut Table) -> Result<(), RulesError>;

    /// Extra, module-defined view data for `seat` (`None`: the omniscient view).
    fn view(&mut self, table: &mut Table, seat: Option<&SeatId>) -> Result<Value, RulesError>;

    /// Lines the rules printed for the designer since the last call.
    fn take_output(&mut self) -> Vec<String> {
        Vec::new()
    }

    /// How often each function of the rules' scripting API was called.
    fn api_calls(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
}
