//! The rules interface: what the session asks of a module's rules (set up, list the legal
//! actions, apply one, let a bot choose, check invariants), without knowing they are Lua.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{BoxId, CardId, CounterId, PieceId, PlaceId, ScenarioId, SeatId, SpaceId, ZoneId};
use crate::module::{Module, OverlayTarget};
pub use crate::table::Choice;
use crate::table::Table;
use crate::value::Value;

/// How the seats of a decision answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// One seat (or anyone at the table) decides.
    One,
    /// Several seats choose at once, in secret: each answer stays hidden from the other
    /// seats, and the rules see them together once every seat has answered (a wager).
    Simultaneous,
    /// A reaction window: the seats are asked one at a time in the order the rules give,
    /// each answers or passes, and the first answer closes the window (a debate).
    Window,
}

/// The name of the action the engine adds to every seat's choices in a reaction window.
pub const PASS: &str = "pass";

/// What one seat may answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    /// The seat that answers (`None`: anyone at the table).
    pub seat: Option<SeatId>,
    /// Its legal actions. Never empty.
    pub actions: Vec<Action>,
}

/// A decision the game is waiting for: the current state, who decides, and every legal action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    /// The state's name.
    pub state: String,
    /// What is being decided, in words.
    pub text: String,
    /// How the seats answer.
    pub decision: Decision,
    /// The seats that may answer now, each with its legal actions: one for a single
    /// decision or a reaction window (the seat asked now), several for a simultaneous one
    /// (every seat that has not answered yet). Never empty while the game is not over.
    pub asks: Vec<Ask>,
    /// The seats that have answered already (committed in secret, or passed).
    pub answered: Vec<SeatId>,
    /// A reaction window's seats still to answer, in the order they are asked (the seat
    /// asked now first); empty for other decisions.
    pub waiting: Vec<SeatId>,
    /// A private decision (the prompt's `private`): its answer is read only by its seat
    /// (and the omniscient view); the other seats read these words in its place ("Austria
    /// gave its orders"); empty words: they read nothing of it, not even that it was given
    /// (the lines it writes for them still show).
    pub private: Option<String>,
}

impl Prompt {
    /// Whether what this decision is about is hidden from `seat` (`None`: the omniscient
    /// view, from which nothing is): a private decision's question, state and choices are
    /// read only by the seats that decide it.
    pub fn is_private_from(&self, seat: Option<&SeatId>) -> bool {
        self.private.is_some()
            && seat.is_some_and(|s| !self.asks.iter().any(|a| a.seat.as_ref() == Some(s)))
    }

    /// The question as `seat` may read it: a private decision's own words only for the seats
    /// that decide it; the others read only that a decision is made in private (its words,
    /// "5 of 11: the defender's combat value", could tell them what the decision is about).
    pub fn text_for(&self, seat: Option<&SeatId>) -> &str {
        match self.is_private_from(seat) {
            true => "a decision made in private",
            false => &self.text,
        }
    }

    /// The decision as `seat` may know it (a seat's screen on another machine): its own
    /// ask whole, every other seat's ask without its actions (which could name what that
    /// seat holds), and a private decision's words and state as [`Prompt::text_for`] gives
    /// them. Who decides, who has answered and who is still to answer stay: every seat may
    /// know them.
    pub fn share_for(&self, seat: &SeatId) -> Prompt {
        let asks = self
            .asks
            .iter()
            .map(|ask| Ask {
                seat: ask.seat.clone(),
                actions: match &ask.seat {
                    Some(s) if s != seat => Vec::new(),
                    _ => ask.actions.clone(),
                },
            })
            .collect();
        Prompt {
            state: self.state_for(Some(seat)).to_owned(),
            text: self.text_for(Some(seat)).to_owned(),
            asks,
            ..self.clone()
        }
    }

    /// The state's name as `seat` may read it (see [`Prompt::text_for`]).
    pub fn state_for(&self, seat: Option<&SeatId>) -> &str {
        match self.is_private_from(seat) {
            true => "private",
            false => &self.state,
        }
    }

    /// The ask that `seat` answers. Without a seat, the only ask there is; an error says
    /// why when there is none (not this seat's decision, or several seats decide at once).
    pub fn ask_for(&self, seat: Option<&SeatId>) -> Result<&Ask, String> {
        let seats = || {
            self.asks
                .iter()
                .map(|a| {
                    a.seat
                        .as_ref()
                        .map_or("anyone".to_owned(), |s| s.to_string())
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        match seat {
            Some(seat) => self
                .asks
                .iter()
                .find(|a| a.seat.as_ref().is_none_or(|s| s == seat))
                .ok_or_else(|| {
                    if self.answered.contains(seat) {
                        format!("{seat} has answered already; waiting for {}", seats())
                    } else {
                        format!("it is {}'s decision, not {seat}'s", seats())
                    }
                }),
            None => match self.asks.as_slice() {
                [only] => Ok(only),
                _ => Err(format!(
                    "several seats decide at once ({}): say which seat answers",
                    seats()
                )),
            },
        }
    }

    /// The seats that decide now, in the order of the asks.
    pub fn deciders(&self) -> impl Iterator<Item = &SeatId> {
        self.asks.iter().filter_map(|a| a.seat.as_ref())
    }

    /// Whether answers stay hidden from the other seats: a simultaneous choice, or a
    /// private decision.
    pub fn is_secret(&self) -> bool {
        self.decision == Decision::Simultaneous || self.private.is_some()
    }
}

/// One legal action of a prompt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// What a person is asked to agree to before the action is taken ("1 Resource is
    /// lost"), for an action that gives something up.
    pub confirm: Option<String>,
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

    /// The answer `choice` to this action in the words of its label ("Bid 3" for a range),
    /// or `None` when it has no label.
    pub fn label_for(&self, choice: &Choice) -> Option<String> {
        match self.range {
            _ if self.label.is_empty() => None,
            Some(_) => Some(format!("{} {}", self.label, choice.arg)),
            None => Some(self.label.clone()),
        }
    }

    /// The action as a person reads it: its label, else its choice as typed.
    pub fn words(&self) -> String {
        match self.label.is_empty() {
            true => self.choice().to_string(),
            false => self.label.clone(),
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

/// The longest text module code may hand the engine in one string (a log line, a reason,
/// an argument of a `ctx` call), in bytes.
pub const MAX_TEXT_BYTES: usize = 10_000;
/// The most log lines one step may write, and the most reasons one bot pick may give.
pub const MAX_STEP_LINES: usize = 1_000;
/// The most log text (lines and bot reasons) one game keeps, in bytes; lines past it are
/// left out, with a note saying so.
pub const MAX_GAME_LOG_BYTES: usize = 16 * 1024 * 1024;

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
    pub log: Vec<LogLine>,
    /// The decision after the step, when the rules read it for the table the step left (a
    /// pass in a reaction window reads it to see whether anyone is still to answer): the
    /// caller takes it instead of asking the rules again for the same table.
    pub prompt_after: Option<Prompt>,
}

impl StepIo {
    /// Adds a line to the step's log; more than [`MAX_STEP_LINES`] in one step is an error.
    pub fn write(&mut self, line: LogLine) -> Result<(), String> {
        if self.log.len() >= MAX_STEP_LINES {
            return Err(format!(
                "more than {MAX_STEP_LINES} log lines in one step (a ctx:log in an endless loop?)"
            ));
        }
        self.log.push(line);
        Ok(())
    }
}

/// One line of the game log, with who may read it. A line everybody may read is written
/// (in saves) as its text alone, as saves of earlier versions hold every line; a private
/// line as `{"to": seat, "text": …}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LogLine {
    /// The text.
    pub text: String,
    /// The only seat that may read it (besides the omniscient view); `None`: everybody.
    pub to: Option<SeatId>,
}

/// How a log line is written: its text alone, or with the seat it is for.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum LogLineRepr {
    Public(String),
    /// `{"to": …, "text": …}` (a map, which every format reads back without knowing its type).
    Private(std::collections::BTreeMap<String, String>),
}

impl Serialize for LogLine {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.to {
            None => LogLineRepr::Public(self.text.clone()),
            Some(to) => LogLineRepr::Private(
                [
                    ("to".to_owned(), to.to_string()),
                    ("text".to_owned(), self.text.clone()),
                ]
                .into(),
            ),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LogLine {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match LogLineRepr::deserialize(deserializer)? {
            LogLineRepr::Public(text) => LogLine { text, to: None },
            LogLineRepr::Private(mut map) => {
                let (Some(to), Some(text)) = (map.remove("to"), map.remove("text")) else {
                    return Err(serde::de::Error::custom(
                        "a private log line needs \"to\" and \"text\"",
                    ));
                };
                LogLine {
                    text,
                    to: Some(SeatId::from(to)),
                }
            }
        })
    }
}

impl LogLine {
    /// A line everybody may read.
    pub fn public(text: impl Into<String>) -> Self {
        LogLine {
            text: text.into(),
            to: None,
        }
    }

    /// Whether `seat` may read this line (`None` is the omniscient view).
    pub fn shown_to(&self, seat: Option<&SeatId>) -> bool {
        match (&self.to, seat) {
            (None, _) | (_, None) => true,
            (Some(to), Some(seat)) => to == seat,
        }
    }
}

/// A module's rules, as the session uses them.
///
/// The read-only calls (`prompt`, `bot`, `check`, `view`) take the table mutably only so
/// that an implementation may lend it out for the call without copying it; they hand it
/// back unchanged.
pub trait Rules {
    /// Sets up a new game on `table` (already laid out from the scenario's data) and enters
    /// the first state. On an error the table may be left partly changed.
    fn setup(
        &mut self,
        table: &mut Table,
        scenario: &ScenarioId,
        options: &Value,
        io: &mut StepIo,
    ) -> Result<(), RulesError>;

    /// The decision the game waits for, or `None` when it is over. Changes nothing.
    fn prompt(&mut self, table: &mut Table) -> Result<Option<Prompt>, RulesError>;

    /// Applies a legal choice of the current prompt, answered by `seat` (the caller has
    /// checked it is legal; a replay may not know the seat of a single decision). On an
    /// error the table may be left partly changed: the caller hands in a copy it can drop.
    fn act(
        &mut self,
        table: &mut Table,
        seat: Option<&SeatId>,
        choice: &Choice,
        io: &mut StepIo,
    ) -> Result<(), RulesError>;

    /// Lets the bot `bot` pick one of `actions` (the ask of `seat` in the current prompt).
    fn bot(
        &mut self,
        table: &mut Table,
        bot: &str,
        seat: &SeatId,
        actions: &[Action],
    ) -> Result<BotPick, RulesError>;

    /// Checks the module's invariants on `table`.
    fn check(&mut self, table: &mut Table) -> Result<(), RulesError>;

    /// Extra, module-defined view data for `seat` (`None`: the omniscient view).
    fn view(&mut self, table: &mut Table, seat: Option<&SeatId>) -> Result<Value, RulesError>;

    /// Rules of the same kind, with the same limits, for `module` (a reloaded version).
    fn reload(&self, module: Arc<Module>) -> Result<Box<dyn Rules>, RulesError>;

    /// Makes these rules ready for a new game, keeping the VM and its loaded scripts, and
    /// so what the scripts keep in their own variables (their globals are read-only): a
    /// caller that plays this way checks a sample of its games against fresh rules (see
    /// [`crate::sim::Verify`]). `false` when these rules cannot: make new ones.
    fn reuse(&mut self) -> Result<bool, RulesError> {
        Ok(false)
    }

    /// Tells the rules whether anyone will read the words of the calls that follow (labels,
    /// log lines, a bot's reasons): `false` in a simulation, where rules may leave out text
    /// that takes work to make. What they decide must not depend on it.
    fn set_watched(&mut self, _watched: bool) {}

    /// Lines the rules printed for the designer since the last call.
    fn take_output(&mut self) -> Vec<String> {
        Vec::new()
    }

    /// How often each function of the rules' scripting API was called.
    fn api_calls(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }

    /// How many steps the rules took on their own (automatic states run) in the current
    /// game: the part of a game that asks no one.
    fn automatic_runs(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(name: &str, arg: &str) -> Action {
        Action {
            name: name.to_owned(),
            arg: Value::Str(arg.into()),
            label: format!("{name}: {arg}"),
            target: None,
            range: None,
            confirm: None,
        }
    }

    #[test]
    fn a_seat_s_share_of_a_decision_holds_its_own_choices_and_only_who_else_decides() {
        let prompt = Prompt {
            state: "orders".to_owned(),
            text: "Give your orders".to_owned(),
            decision: Decision::Simultaneous,
            asks: vec![
                Ask {
                    seat: Some("A".into()),
                    actions: vec![action("play", "ace")],
                },
                Ask {
                    seat: Some("B".into()),
                    actions: vec![action("play", "king")],
                },
            ],
            answered: vec!["C".into()],
            waiting: Vec::new(),
            private: None,
        };
        let share = prompt.share_for(&"A".into());
        assert_eq!(share.asks[0], prompt.asks[0], "its own choices whole");
        assert_eq!(share.asks[1].seat, Some("B".into()), "who else decides");
        assert!(share.asks[1].actions.is_empty(), "not what B may choose");
        assert_eq!(
            (share.text.as_str(), &share.answered),
            ("Give your orders", &prompt.answered)
        );
        // A spectator sees nobody's choices; a private decision's words stay with its seats.
        let watching = Prompt {
            private: Some("orders given".to_owned()),
            ..prompt.clone()
        }
        .share_for(&SeatId::spectator());
        assert!(watching.asks.iter().all(|a| a.actions.is_empty()));
        assert_eq!(
            (watching.text.as_str(), watching.state.as_str()),
            ("a decision made in private", "private")
        );
    }
}
