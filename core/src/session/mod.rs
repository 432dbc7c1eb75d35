//! Sessions: a module, a scenario, a seed and the recorded inputs make a game. The session
//! applies inputs through the rules, keeps the history, undoes and redoes from
//! checkpoints, lets bots play, and rebases the game onto a reloaded module.

mod answer;
mod checklist;
mod input;
mod layout;
mod rebase;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use answer::{Answer, AnswersFile, ORDERS_OF};
pub use checklist::board_checklist;
pub use input::{Actor, Input, Manual};
pub use rebase::{
    Divergence, RebaseReport, ReportWords, changed_lines, describe_differences,
    describe_seen_differences, module_changes,
};

use crate::ids::{ScenarioId, SeatId};
use crate::module::Module;
use crate::rules::{
    BotPick, Choice, LogLine, MAX_GAME_LOG_BYTES, Need, Prompt, Rules, RulesError, StepIo,
};
use crate::table::{Controller, DiceMode, Table};
use crate::value::Value;

/// Inputs between two checkpoints of the history. Undo replays at most this many minus one.
pub const CHECKPOINT_EVERY: usize = 32;

/// What a game is started from, besides the module.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSpec {
    /// The scenario.
    pub scenario: ScenarioId,
    /// The seed of the game's dice.
    pub seed: u64,
    /// Who plays each seat (seats not named are human).
    pub seats: BTreeMap<SeatId, Controller>,
    /// Options handed to the rules' setup.
    pub options: Value,
    /// Digital or physical dice.
    pub dice: DiceMode,
    /// Die results the set-up uses before the engine's own dice (rolled at the table, with
    /// physical dice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_dice: Vec<i64>,
}

impl GameSpec {
    /// A spec for `scenario` and `seed` with every seat human and no options.
    pub fn new(scenario: impl Into<ScenarioId>, seed: u64) -> Self {
        GameSpec {
            scenario: scenario.into(),
            seed,
            seats: BTreeMap::new(),
            options: Value::map(),
            dice: DiceMode::Digital,
            setup_dice: Vec::new(),
        }
    }
}

/// The decisions bots answered, by kind: `forced` had one legal action (the bot had no
/// choice to make), `chosen` several.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BotDecisions {
    /// Decisions with a single legal action.
    pub forced: u64,
    /// Decisions with a choice among several actions.
    pub chosen: u64,
}

/// One applied input and what it did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputRecord {
    /// The input.
    pub input: Input,
    /// The log lines it wrote.
    pub log: Vec<LogLine>,
    /// Whether the input is a secret answer (to a simultaneous decision), which only its
    /// seat may read in the log.
    pub secret: bool,
    /// The table's digest after it.
    pub digest: u64,
    /// The answer in words, as the action's label said it when it was chosen ("Move the
    /// red army north"); `None` for moves by hand and actions without a label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What the other seats read in place of a private answer (see [`Prompt::private`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<String>,
    /// The turn the game was on when the input was made.
    #[serde(default)]
    pub turn: i64,
    /// The seats besides its own that may read a secret input (a piece moved by hand under
    /// fog of war: the seats that see it where it was and where it went).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readers: Vec<SeatId>,
}

/// What went wrong with a session operation. The game is unchanged after any of these.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SessionError {
    /// The game could not start.
    #[error("cannot start the game: {0}")]
    Start(String),
    /// The rules failed.
    #[error("{0}")]
    Rules(#[from] RulesError),
    /// A choice that is not among the legal actions.
    #[error("'{choice}' is not a legal action in state '{state}'; legal: {legal}")]
    Illegal {
        /// The choice made.
        choice: String,
        /// The current state.
        state: String,
        /// The legal actions, as a list.
        legal: String,
    },
    /// The game waits for no decision (it is over, or the prompt failed).
    #[error("no decision is pending: {0}")]
    NoPrompt(String),
    /// The seat given may not answer now, or no seat was given where several decide.
    #[error("{0}")]
    WrongSeat(String),
    /// A change by hand that the table refuses.
    #[error("cannot do that by hand: {0}")]
    Manual(String),
}

impl SessionError {
    /// What the rules need from the table, if that is what stopped the step.
    pub fn need(&self) -> Option<&Need> {
        match self {
            SessionError::Rules(RulesError::Need(need)) => Some(need),
            _ => None,
        }
    }
}

/// `text` as a message repeats what someone typed: whole if short, else its start and its
/// length (an answer of megabytes is not echoed back).
pub fn shortened(text: &str) -> String {
    const SHOWN: usize = 120;
    match text.char_indices().nth(SHOWN) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}… ({} bytes)", &text[..end], text.len()),
    }
}

/// The bytes of text in `log` and `reason`, as counted against [`MAX_GAME_LOG_BYTES`].
fn text_bytes(log: &[LogLine], reason: &[String]) -> usize {
    log.iter().map(|l| l.text.len()).sum::<usize>() + reason.iter().map(String::len).sum::<usize>()
}

/// One entry of the game log: an input (or the setup) and the lines it wrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// 0 for the setup, else the input's number from 1.
    pub index: usize,
    /// The input in words (empty for the setup).
    pub input: String,
    /// "human", or "bot:<name>".
    pub by: String,
    /// A bot's reasons (left out of saves, whose inputs hold them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reason: Vec<String>,
    /// The lines written, each with who may read it.
    pub messages: Vec<LogLine>,
    /// The seat that answered, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<SeatId>,
    /// Whether the answer is a secret (a simultaneous decision): only its seat may read
    /// what was chosen and why.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
    /// The answer in words, as its action's label said it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What the other seats read in place of a private answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<String>,
    /// The turn the game was on when the input was made (the set-up's: the first turn).
    #[serde(default)]
    pub turn: i64,
    /// The seats besides its own that may read a secret entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readers: Vec<SeatId>,
}

impl LogEntry {
    /// Whether the entry has a heading to show: an input's, unless it is a private answer
    /// its reader may not know was given at all.
    pub fn shows_heading(&self) -> bool {
        self.index > 0 && !self.input.is_empty()
    }

    /// The entry's heading in words: its number, the seat's name, the answer as its
    /// action's label said it, and whether a bot chose it ("#3 Beta: Bid 2 (bot)"; which
    /// bot is in the input and its reasons).
    pub fn heading(&self, module: &Module) -> String {
        let who = self.seat.as_ref().map(|s| module.seat_name(s));
        // The input without its seat ("A: bid 2" → "bid 2"), where no label says it better.
        let plain = match &self.seat {
            Some(seat) => self
                .input
                .strip_prefix(&format!("{seat}: "))
                .unwrap_or(&self.input),
            None => &self.input,
        };
        let what = self.label.as_deref().unwrap_or(plain);
        let by = match self.by.as_str() {
            "umpire" => " (by the umpire)".to_owned(),
            other => other
                .strip_prefix("bot:")
                .map(|_| " (bot)".to_owned())
                .unwrap_or_default(),
        };
        match who {
            Some(who) => format!("#{} {who}: {what}{by}", self.index),
            None => format!("#{} {what}{by}", self.index),
        }
    }

    /// The entry as `seat` may read it (`None`: the omniscient view, everything): lines for
    /// other seats are left out, and another seat's secret answer shows only that it was given.
    pub fn seen_by(&self, seat: Option<&SeatId>) -> LogEntry {
        let hidden = self.secret
            && seat.is_some_and(|s| self.seat.as_ref() != Some(s) && !self.readers.contains(s));
        // A private answer shown "not at all" (empty words): not even who gave it.
        let unseen = hidden && self.shown.as_deref() == Some("");
        LogEntry {
            index: self.index,
            input: if unseen {
                String::new()
            } else if hidden {
                format!(
                    "{}: {}",
                    self.seat.as_ref().map(SeatId::as_str).unwrap_or("a seat"),
                    self.shown.as_deref().unwrap_or("a secret answer")
                )
            } else {
                self.input.clone()
            },
            by: if unseen {
                String::new()
            } else {
                self.by.clone()
            },
            reason: if hidden {
                Vec::new()
            } else {
                self.reason.clone()
            },
            messages: self
                .messages
                .iter()
                .filter(|l| l.shown_to(seat))
                .cloned()
                .collect(),
            seat: if unseen { None } else { self.seat.clone() },
            secret: self.secret,
            label: if hidden { None } else { self.label.clone() },
            shown: self.shown.clone(),
            turn: self.turn,
            readers: self.readers.clone(),
        }
    }
}

/// The log as `seat` may read it (`None`: the omniscient view, everything, as it is), each
/// entry with the game's own number for it (what undo and redo go to). For a seat, an entry
/// it may not read at all (a private answer shown "not at all", with no line for it) is not
/// there, and the entries it may read are numbered in its own sequence, 1, 2, 3…, so that no
/// gap in the numbers counts what it may not know.
pub fn log_read_by(log: &[LogEntry], seat: Option<&SeatId>) -> Vec<(usize, LogEntry)> {
    let Some(seat) = seat else {
        return log.iter().map(|e| (e.index, e.clone())).collect();
    };
    let mut number = 0;
    log.iter()
        .filter_map(|entry| {
            let mut seen = entry.seen_by(Some(seat));
            if seen.index == 0 {
                return Some((0, seen));
            }
            if !seen.shows_heading() && seen.messages.is_empty() {
                return None;
            }
            // Only an entry with a heading shows its number; lines without one (a private
            // answer's public lines) go on under the last number, so no unseen number is
            // spent.
            if seen.shows_heading() {
                number += 1;
            }
            seen.index = number.max(1);
            // Who else may read it is not this seat's to know.
            seen.readers = Vec::new();
            Some((entry.index, seen))
        })
        .collect()
}

/// The history: applied inputs, undone inputs, and checkpoints of the table.
///
/// Representation: `records[i]` is the i-th input applied (0-based); `checkpoints[k]` is the
/// table after the first `k` inputs, kept for `k` = 0 and every multiple of
/// [`CHECKPOINT_EVERY`]. The table after `n` inputs is the nearest checkpoint at or before
/// `n` plus a replay of the inputs after it, so undo costs at most `CHECKPOINT_EVERY - 1`
/// replayed inputs however long the game. `redo` holds undone inputs, the next one last;
/// its top `held` entries are the rest of the game that a reloaded module refused (see
/// [`Session::rebase`]): the whole game is `records` then those, and the next rebase replays
/// them all, so a fix brings the game back whole. Limitation: a replay re-runs the rules, so a module that keeps hidden state in Lua
/// (which the sandbox forbids but cannot fully prevent) may replay differently; the digest
/// of each record exposes that.
#[derive(Clone, Debug)]
pub struct History {
    records: Vec<InputRecord>,
    redo: Vec<Input>,
    start: Table,
    checkpoints: BTreeMap<usize, Table>,
    setup_log: Vec<LogLine>,
    /// Bytes of log lines and bot reasons kept, against [`MAX_GAME_LOG_BYTES`].
    log_bytes: usize,
    /// How many inputs at the top of `redo` are the rest of the game, held back because a
    /// reloaded module refused the first of them.
    held: usize,
}

impl History {
    /// The applied inputs, oldest first.
    pub fn records(&self) -> &[InputRecord] {
        &self.records
    }

    /// The undone inputs, the next to redo last.
    pub fn redo_stack(&self) -> &[Input] {
        &self.redo
    }

    /// The rest of the game that a reloaded module refused, the next input first (empty
    /// when the game is whole).
    pub fn held(&self) -> impl Iterator<Item = &Input> {
        self.redo[self.redo.len() - self.held..].iter().rev()
    }

    /// The undone inputs below those held back, the next to redo last.
    pub fn undone(&self) -> &[Input] {
        &self.redo[..self.redo.len() - self.held]
    }

    /// How many inputs of the game a reloaded module refused and holds back.
    pub fn held_len(&self) -> usize {
        self.held
    }

    /// The whole game: the applied inputs, then those held back.
    pub fn game_inputs(&self) -> impl Iterator<Item = &Input> {
        self.records.iter().map(|r| &r.input).chain(self.held())
    }

    /// How many inputs have been applied.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// The table after setup.
    pub fn start(&self) -> &Table {
        &self.start
    }

    /// Whether no input has been applied.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The lines the setup wrote.
    pub fn setup_log(&self) -> &[LogLine] {
        &self.setup_log
    }
}

/// A game in progress.
pub struct Session {
    module: Arc<Module>,
    rules: Box<dyn Rules>,
    spec: GameSpec,
    table: Table,
    history: History,
    prompt: Result<Option<Prompt>, RulesError>,
    /// Run the module's `check` after every rule action (tests and fuzzing).
    pub check_every_step: bool,
    /// A bot-only game that is never undone nor saved (a simulation): each input runs on
    /// the table itself instead of a copy, and no digests or checkpoints are kept. An input
    /// that fails leaves the table half-changed, so the game ends there.
    pub lean: bool,
    /// Whether anyone reads the game's words (labels, log lines, reasons); `false` in a
    /// simulation, which tells the rules (`ctx.watched`). Set with [`Session::set_watched`].
    watched: bool,
    /// Problems noticed while replaying (a replay that did not give the recorded table).
    pub warnings: Vec<String>,
    /// Time spent in bots choosing (for the engine's share in simulations).
    bot_time: std::time::Duration,
    /// The decisions bots answered in this session's `bot_input`s, by kind.
    bot_decisions: BotDecisions,
    /// Set when the game is one seat's redacted view (see [`crate::redact`]).
    redaction: Option<crate::redact::Redaction>,
    /// What the set-up waits for, if the game has not begun (see [`Session::setup_waits`]).
    setup_waits: Option<Need>,
    /// A game held elsewhere (a table server) and shown here: its log as the server sent
    /// it, in place of the inputs' (see [`Session::shown`]).
    shown_log: Option<Vec<LogEntry>>,
}

impl Session {
    /// Starts a game of `module` as `spec` says, played by `rules` (the module's rules, as
    /// any implementation of [`Rules`] gives them; `chancery_core::start_game` uses Lua's).
    pub fn new(
        module: Arc<Module>,
        spec: GameSpec,
        mut rules: Box<dyn Rules>,
    ) -> Result<Session, SessionError> {
        let scenario =
            layout::find_scenario(&module, &spec.scenario).map_err(SessionError::Start)?;
        module
            .check_options(&spec.options)
            .map_err(SessionError::Start)?;
        let mut table = layout::lay_out(&module, scenario, spec.seed, &spec.seats)
            .map_err(SessionError::Start)?;
        table.dice = spec.dice;
        let mut io = StepIo {
            dice: spec.setup_dice.clone(),
            ..StepIo::default()
        };
        // Rules reused from a simulation's last game are told that people read again.
        rules.set_watched(true);
        match rules.setup(&mut table, &spec.scenario, &spec.options, &mut io) {
            Ok(()) => {}
            // A value of the owner's data the set-up needs before the first decision is
            // the game's first decision: the game waits, at its laid-out table, until it is
            // entered (storing it rebases the game, which runs the set-up again).
            Err(RulesError::Need(need @ Need::Data(_))) => {
                let table = layout::lay_out(&module, scenario, spec.seed, &spec.seats)
                    .map_err(SessionError::Start)?;
                let mut session = Session::begun(module, spec, rules, table, Vec::new(), None);
                session.setup_waits = Some(need.clone());
                session.prompt = Err(RulesError::Need(need));
                return Ok(session);
            }
            Err(err) => return Err(err.into()),
        }
        if io.log.iter().any(|l| l.to.is_some()) {
            table.secrets_told = true;
        }
        Ok(Session::begun(module, spec, rules, table, io.log, None))
    }

    /// What the set-up waits for before the game can begin (a value of the owner's data not
    /// entered yet), if it does: the game's first decision is to enter it, and no input is
    /// taken until then.
    pub fn setup_waits(&self) -> Option<&Need> {
        self.setup_waits.as_ref()
    }

    /// A session whose game begins at `table` (after its set-up), with the set-up's lines.
    fn begun(
        module: Arc<Module>,
        spec: GameSpec,
        mut rules: Box<dyn Rules>,
        mut table: Table,
        setup_log: Vec<LogLine>,
        redaction: Option<crate::redact::Redaction>,
    ) -> Session {
        let history = History {
            records: Vec::new(),
            redo: Vec::new(),
            start: table.clone(),
            checkpoints: BTreeMap::new(),
            log_bytes: text_bytes(&setup_log, &[]),
            setup_log,
            held: 0,
        };
        let prompt = rules.prompt(&mut table);
        Session {
            module,
            rules,
            spec,
            table,
            history,
            prompt,
            check_every_step: false,
            lean: false,
            watched: true,
            warnings: Vec::new(),
            bot_time: std::time::Duration::ZERO,
            bot_decisions: BotDecisions::default(),
            redaction,
            setup_waits: None,
            shown_log: None,
        }
    }

    /// A game held elsewhere, shown as one seat may know it (a seat's window on a table
    /// server): `table` redacted for that seat, `log` as it may read it, and `rules` that
    /// only say what the server sent (the decision, the standings). Nothing is played on
    /// it: answers go to the server, and the next game shown replaces it.
    pub fn shown(
        module: Arc<Module>,
        spec: GameSpec,
        mut rules: Box<dyn Rules>,
        (table, redaction): (Table, crate::redact::Redaction),
        log: Vec<LogEntry>,
    ) -> Session {
        rules.set_watched(true);
        let mut session = Session::begun(module, spec, rules, table, Vec::new(), Some(redaction));
        session.shown_log = Some(log);
        session
    }

    /// A game that goes on from `table`, one seat's redacted view of a game (see
    /// [`crate::redact`]), without the set-up or the inputs that led there: `past` (the log
    /// as the seat may read it, in words) stands as the set-up's lines.
    pub fn resume(
        module: Arc<Module>,
        spec: GameSpec,
        mut rules: Box<dyn Rules>,
        (table, redaction): (Table, crate::redact::Redaction),
        past: Vec<LogLine>,
    ) -> Session {
        rules.set_watched(true);
        Session::begun(module, spec, rules, table, past, Some(redaction))
    }

    /// What this game's save leaves out, if it is one seat's redacted view: only that seat's
    /// eyes may read it.
    pub fn redaction(&self) -> Option<&crate::redact::Redaction> {
        self.redaction.as_ref()
    }

    /// Tells the rules whether anyone will read the words of the inputs that follow
    /// (`ctx.watched`); a simulation plays unwatched. The results must not depend on it.
    pub fn set_watched(&mut self, watched: bool) {
        self.watched = watched;
        self.rules.set_watched(watched);
    }

    /// Ends the session and gives back its rules, to be [reset](Rules::reset) for another
    /// game.
    pub fn into_rules(self) -> Box<dyn Rules> {
        self.rules
    }

    /// The module being played.
    pub fn module(&self) -> &Arc<Module> {
        &self.module
    }

    /// What the game was started from.
    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    /// The table now.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The history.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The decision the game waits for: `Ok(None)` when it is over, an error when the
    /// rules failed to list it (the table still works by hand).
    pub fn prompt(&self) -> &Result<Option<Prompt>, RulesError> {
        &self.prompt
    }

    /// The log: the setup's lines, then each input with its lines.
    pub fn log(&self) -> Vec<LogEntry> {
        if let Some(log) = &self.shown_log {
            return log.clone();
        }
        (0..=self.history.records.len())
            .filter_map(|n| self.log_entry(n))
            .collect()
    }

    /// The log's entry `n`: the set-up's for 0, else input `n`'s (`None` past the last).
    pub fn log_entry(&self, n: usize) -> Option<LogEntry> {
        if let Some(log) = &self.shown_log {
            return log.iter().find(|e| e.index == n).cloned();
        }
        let Some(i) = n.checked_sub(1) else {
            return Some(LogEntry {
                index: 0,
                input: String::new(),
                by: String::new(),
                reason: Vec::new(),
                messages: self.history.setup_log.clone(),
                seat: None,
                secret: false,
                label: None,
                shown: None,
                turn: self.history.start.turn,
                readers: Vec::new(),
            });
        };
        let record = self.history.records.get(i)?;
        Some(LogEntry {
            index: n,
            input: record.input.to_string(),
            by: record.input.by(),
            reason: record.input.reasons().to_vec(),
            messages: record.log.clone(),
            seat: record.input.seat().cloned(),
            secret: record.secret,
            label: record.label.clone(),
            shown: record.shown.clone(),
            turn: record.turn,
            readers: record.readers.clone(),
        })
    }

    /// Module-defined view data for `seat` (the rules' `view` hook).
    pub fn view_data(&mut self, seat: Option<&SeatId>) -> Result<Value, RulesError> {
        self.rules.view(&mut self.table, seat)
    }

    /// Runs the module's `check` on the current table.
    pub fn check(&mut self) -> Result<(), RulesError> {
        self.rules.check(&mut self.table)
    }

    /// Lines printed by scripts since the last call.
    pub fn take_output(&mut self) -> Vec<String> {
        self.rules.take_output()
    }

    /// How often each function of the scripting API has been called (coverage of tests).
    pub fn api_calls(&self) -> Vec<(&'static str, u64)> {
        self.rules.api_calls()
    }

    /// Applies one input: checks it (a choice must be legal, and its seat's to make), runs
    /// it, records it. An answer that names no seat is recorded with the seat that decides.
    pub fn apply(&mut self, mut input: Input) -> Result<(), SessionError> {
        if let Some(need) = &self.setup_waits {
            return Err(SessionError::Rules(RulesError::Need(need.clone())));
        }
        let mut answer = Answered::default();
        if let Input::Act {
            seat, choice, by, ..
        } = &mut input
        {
            // The umpire answers for the seat that decides (where one seat decides).
            if seat.is_some() && *seat == self.table.umpire {
                *seat = None;
                *by = Actor::Umpire;
            }
            answer = check_choice(&self.prompt, seat.as_ref(), choice)?;
            if seat.is_none() {
                seat.clone_from(&answer.seat);
            }
        }
        let Answered {
            mut secret,
            mut label,
            mut shown,
            ..
        } = answer;
        let mut readers = Vec::new();
        if let Input::Manual { change, .. } = &input {
            label = Some(change.describe(&self.module));
        }
        let mut table = if self.lean {
            std::mem::replace(&mut self.table, Table::new("", Default::default(), 0))
        } else {
            self.table.clone()
        };
        let io = match self.execute(&mut table, &input) {
            Ok(io) => io,
            Err(err) => {
                if self.lean {
                    self.table = table;
                }
                return Err(err);
            }
        };
        // A change by hand that some seat may not see (a piece moved under fog of war, a
        // card it may not look at) is read only by the seats that see all of it.
        if let Input::Manual { change, .. } = &input
            && let Some(seen_by) = input::manual_readers(&self.table, &table, change)
        {
            secret = true;
            shown = Some(String::new());
            readers = seen_by;
        }
        // Invariants are the rules' business: a table being rearranged by hand may pass
        // through states the rules would never make, so only rule actions are checked.
        let ruled = matches!(input, Input::Act { .. });
        self.commit(input, table, io, (secret, shown, readers), label);
        if self.check_every_step && ruled {
            self.rules.check(&mut self.table)?;
        }
        Ok(())
    }

    /// A human's answer to the prompt.
    pub fn act(&mut self, name: &str, arg: Value) -> Result<(), SessionError> {
        self.apply(Input::act(Choice {
            name: name.to_owned(),
            arg,
        }))
    }

    /// Records `input` with what it did; `(secret, shown, readers)`: whether only its seat
    /// (and `readers`) may read the answer, and what the others read in its place.
    fn commit(
        &mut self,
        mut input: Input,
        table: Table,
        mut io: StepIo,
        (secret, shown, readers): (bool, Option<String>, Vec<SeatId>),
        label: Option<String>,
    ) {
        self.keep_within_log_limit(&mut input, &mut io.log);
        // The decision after the step, when the rules read it already for this table.
        let prompt_after = io.prompt_after.take();
        let mut table = table;
        if secret || io.log.iter().any(|l| l.to.is_some()) {
            table.secrets_told = true;
        }
        let digest = if self.lean { 0 } else { table.digest() };
        let turn = self.table.turn;
        self.table = table;
        match self.history.redo.last() {
            Some(next) if *next == input => {
                self.history.redo.pop();
                self.history.held = self.history.held.saturating_sub(1);
            }
            _ => {
                self.history.redo.clear();
                self.history.held = 0;
            }
        }
        self.history.records.push(InputRecord {
            input,
            log: io.log,
            secret,
            digest,
            label,
            shown,
            turn,
            readers,
        });
        let n = self.history.records.len();
        if n.is_multiple_of(CHECKPOINT_EVERY) && !self.lean {
            self.history.checkpoints.insert(n, self.table.clone());
        }
        self.prompt = match prompt_after {
            Some(prompt) => Ok(Some(prompt)),
            None => self.rules.prompt(&mut self.table),
        };
    }

    /// Counts the step's log lines and reasons against the game's limit; once it is reached,
    /// they are left out (the first time, with a line saying so). The inputs replay the
    /// game in full without them.
    fn keep_within_log_limit(&mut self, input: &mut Input, log: &mut Vec<LogLine>) {
        let bytes = text_bytes(log, input.reasons());
        let full = self.history.log_bytes >= MAX_GAME_LOG_BYTES;
        if self.history.log_bytes.saturating_add(bytes) <= MAX_GAME_LOG_BYTES {
            self.history.log_bytes += bytes;
            return;
        }
        if let Input::Act {
            by: Actor::Bot { reason, .. },
            ..
        } = input
        {
            reason.clear();
        }
        log.clear();
        if !full {
            self.history.log_bytes = MAX_GAME_LOG_BYTES;
            log.push(LogLine::public(format!(
                "The game's log is full ({} MiB): later lines and bot reasons are left out.",
                MAX_GAME_LOG_BYTES / (1024 * 1024)
            )));
        }
    }

    /// Runs `input` on `work` (the caller's copy, dropped on an error); returns what the
    /// step wrote. A choice is not checked against the prompt here: `apply` checks it, and
    /// a replay under the same module repeats what was checked when it was played.
    fn execute(&mut self, work: &mut Table, input: &Input) -> Result<StepIo, SessionError> {
        let mut io = StepIo::default();
        match input {
            Input::Act {
                seat, choice, dice, ..
            } => {
                io.dice = dice.clone();
                self.rules.act(work, seat.as_ref(), choice, &mut io)?;
            }
            Input::Manual { change, .. } => {
                input::apply_manual(&self.module, work, change, &mut io)
                    .map_err(SessionError::Manual)?;
            }
        }
        Ok(io)
    }

    /// Drops the last input; it can be redone. Returns false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(record) = self.history.records.pop() else {
            return false;
        };
        let bytes = text_bytes(&record.log, record.input.reasons());
        self.history.log_bytes = self.history.log_bytes.saturating_sub(bytes);
        self.history.redo.push(record.input);
        if self.history.held > 0 {
            // The undone input stays part of the whole game, before the held ones.
            self.history.held += 1;
        }
        let n = self.history.records.len();
        self.history.checkpoints.retain(|k, _| *k <= n);
        self.table = self.rebuild(n);
        self.prompt = self.rules.prompt(&mut self.table);
        true
    }

    /// Re-applies the last undone input. Returns false when there is none.
    pub fn redo(&mut self) -> Result<bool, SessionError> {
        let Some(input) = self.history.redo.last().cloned() else {
            return Ok(false);
        };
        self.apply(input)?;
        Ok(true)
    }

    /// Forgets the undone inputs (those a reload held back stay): nothing is redone from
    /// here (a game whose undo is final, as at a table on a server).
    pub fn forget_undone(&mut self) {
        let undone = self.history.redo.len() - self.history.held;
        self.history.redo.drain(..undone);
    }

    /// Goes back (undo) or forward (redo) to the state after `n` inputs.
    pub fn goto(&mut self, n: usize) -> Result<(), SessionError> {
        let len = self.history.records.len();
        if n < len {
            let dropped: Vec<Input> = self
                .history
                .records
                .drain(n..)
                .map(|r| r.input)
                .rev()
                .collect();
            if self.history.held > 0 {
                self.history.held += dropped.len();
            }
            let mut redo = std::mem::take(&mut self.history.redo);
            redo.extend(dropped);
            self.history.redo = redo;
            self.history.checkpoints.retain(|k, _| *k <= n);
            self.table = self.rebuild(n);
            self.prompt = self.rules.prompt(&mut self.table);
        } else {
            while self.history.records.len() < n && self.redo()? {}
        }
        Ok(())
    }

    /// The table after the first `n` recorded inputs, from the nearest checkpoint.
    fn rebuild(&mut self, n: usize) -> Table {
        let (from, mut table) = match self.history.checkpoints.range(..=n).next_back() {
            Some((&k, checkpoint)) => (k, checkpoint.clone()),
            None => (0, self.history.start.clone()),
        };
        for i in from..n {
            let input = self.history.records[i].input.clone();
            let mut next = table.clone();
            match self.execute(&mut next, &input) {
                Ok(_) => table = next,
                Err(err) => {
                    self.warnings
                        .push(format!("replaying input {} failed: {err}", i + 1));
                    break;
                }
            }
            if !self.lean && table.digest() != self.history.records[i].digest {
                self.warnings.push(format!(
                    "replaying input {} gave a different table than when it was played: \
                     the module keeps state outside the table, or is not deterministic",
                    i + 1
                ));
            }
        }
        table
    }

    /// The table after the first `n` inputs (the current table if `n` is the history length).
    pub fn table_at(&mut self, n: usize) -> Table {
        if n >= self.history.records.len() {
            return self.table.clone();
        }
        self.rebuild(n)
    }

    /// The decision pending (`None` when the game is over), or the rules' error listing it.
    fn pending(&self) -> Result<Option<&Prompt>, SessionError> {
        self.prompt
            .as_ref()
            .map(Option::as_ref)
            .map_err(|err| SessionError::Rules(err.clone()))
    }

    /// The first seat that decides now and is played by a bot, with the bot's name and
    /// that seat's legal actions.
    fn bot_to_play(&self) -> Result<Option<(SeatId, String, Prompt)>, SessionError> {
        let Some(prompt) = self.pending()? else {
            return Ok(None);
        };
        let named = prompt
            .deciders()
            .find_map(|seat| match self.table.seats.get(seat) {
                Some(Controller::Bot(bot)) => Some((seat.clone(), bot.clone(), prompt.clone())),
                _ => None,
            });
        if named.is_some() || prompt.asks.iter().all(|a| a.seat.is_some()) {
            return Ok(named);
        }
        // A decision for anyone at the table: in a game with no person at it, the first
        // seat's bot takes it.
        let mut bots = self.table.seats.iter().map(|(seat, who)| match who {
            Controller::Bot(bot) => Some((seat.clone(), bot.clone())),
            Controller::Human => None,
        });
        Ok(match bots.next().flatten() {
            Some((seat, bot)) if bots.all(|b| b.is_some()) => Some((seat, bot, prompt.clone())),
            _ => None,
        })
    }

    /// If a bot plays a seat that decides now, lets it choose and applies its choice (in a
    /// simultaneous decision, the first such seat in the prompt's order). Returns the seat
    /// and the bot's pick, or `None` when no bot is to answer.
    pub fn bot_step(&mut self) -> Result<Option<(SeatId, BotPick)>, SessionError> {
        let Some((seat, pick, input)) = self.bot_input()? else {
            return Ok(None);
        };
        self.apply(input)?;
        Ok(Some((seat, pick)))
    }

    /// The input a bot's choice makes, without applying it: the seat, the bot's pick and the
    /// input (`None` when no bot is to answer). A caller that applies it can meet what the
    /// rules need (a physical die, a value not entered yet) and retry it with the answer, as
    /// for a person's input.
    pub fn bot_input(&mut self) -> Result<Option<(SeatId, BotPick, Input)>, SessionError> {
        let Some((seat, bot, prompt)) = self.bot_to_play()? else {
            return Ok(None);
        };
        let ask = prompt
            .ask_for(Some(&seat))
            .map_err(SessionError::WrongSeat)?;
        if ask.actions.len() == 1 {
            self.bot_decisions.forced += 1;
        } else {
            self.bot_decisions.chosen += 1;
        }
        let started = std::time::Instant::now();
        let pick = self.rules.bot(&mut self.table, &bot, &seat, &ask.actions);
        self.bot_time += started.elapsed();
        let pick = pick?;
        let input = Input::Act {
            seat: Some(seat.clone()),
            choice: pick.choice.clone(),
            dice: Vec::new(),
            by: Actor::Bot {
                name: bot,
                reason: pick.reason.clone(),
            },
        };
        Ok(Some((seat, pick, input)))
    }

    /// What bot `bot` would choose for `seat` now (its default bot, or the bot controlling
    /// it, when `bot` is `None`; the only seat that decides, when `seat` is `None`), without
    /// applying it. `None` when that seat does not decide now or no bot is named or known.
    pub fn bot_preview(
        &mut self,
        bot: Option<&str>,
        seat: Option<&SeatId>,
    ) -> Result<Option<BotPick>, SessionError> {
        let Some(prompt) = self.pending()?.cloned() else {
            return Ok(None);
        };
        let Ok(ask) = prompt.ask_for(seat) else {
            return Ok(None);
        };
        let Some(seat) = ask.seat.clone() else {
            return Ok(None);
        };
        let name = match (bot, self.table.seats.get(&seat)) {
            (Some(name), _) => name.to_owned(),
            (None, Some(Controller::Bot(name))) => name.clone(),
            (None, _) => match self.module.default_bot(
                self.table.scenario.as_str(),
                &self.spec.options,
                seat.as_str(),
            ) {
                Some(name) => name,
                None => return Ok(None),
            },
        };
        Ok(Some(self.rules.bot(
            &mut self.table,
            &name,
            &seat,
            &ask.actions,
        )?))
    }

    /// Lets bots play until a human must decide, the game ends, or `limit` steps were taken.
    /// Returns how many steps the bots took.
    pub fn run_bots(&mut self, limit: usize) -> Result<usize, SessionError> {
        let mut steps = 0;
        while steps < limit && self.bot_step()?.is_some() {
            steps += 1;
        }
        Ok(steps)
    }

    /// Time the bots have spent choosing in this session's `bot_step`s.
    pub fn bot_time(&self) -> std::time::Duration {
        self.bot_time
    }

    /// The decisions bots have answered in this session's `bot_step`s, by kind.
    pub fn bot_decisions(&self) -> BotDecisions {
        self.bot_decisions
    }

    /// How many steps the rules have taken on their own in this game (automatic states run,
    /// asking no one).
    pub fn automatic_steps(&self) -> u64 {
        self.rules.automatic_runs()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.table.result.is_some()
    }
}

/// Reads who plays a seat: "human", "bot" (the seat's default bot in a game of `scenario` set
/// up with `options`) or "bot:<name>".
pub fn parse_controller(
    module: &Module,
    scenario: &str,
    options: &Value,
    seat: &str,
    who: &str,
) -> Result<Controller, String> {
    if !module.seats.contains(seat) {
        let seats: Vec<String> = module.seats.iter().map(|s| s.id.to_string()).collect();
        return Err(format!(
            "unknown seat '{seat}' (seats: {})",
            seats.join(", ")
        ));
    }
    match who {
        "human" => Ok(Controller::Human),
        "bot" => module
            .default_bot(scenario, options, seat)
            .map(Controller::Bot)
            .ok_or_else(|| format!("seat '{seat}' has no default bot: name one as bot:<name>")),
        other => match other.strip_prefix("bot:") {
            Some(name) if module.rules.bots.iter().any(|b| b == name) => {
                Ok(Controller::Bot(name.to_owned()))
            }
            Some(name) => Err(format!(
                "there is no bot '{name}' (bots: {})",
                module.rules.bots.join(", ")
            )),
            None => Err(format!(
                "'{other}' is not a controller: use human, bot or bot:<name>"
            )),
        },
    }
}

/// What an answer's check found: the seat that answers, whether its answer is secret (and
/// what the other seats read in its place, for a private decision), and the answer in the
/// words of its action's label.
#[derive(Default)]
struct Answered {
    seat: Option<SeatId>,
    secret: bool,
    shown: Option<String>,
    label: Option<String>,
}

/// Checks that `choice` is one of the legal actions of the ask `seat` answers (with no
/// seat, the only ask).
fn check_choice(
    prompt: &Result<Option<Prompt>, RulesError>,
    seat: Option<&SeatId>,
    choice: &Choice,
) -> Result<Answered, SessionError> {
    let prompt = match prompt {
        Ok(Some(prompt)) => prompt,
        Ok(None) => return Err(SessionError::NoPrompt("the game is over".to_owned())),
        Err(err) => return Err(SessionError::NoPrompt(err.to_string())),
    };
    let ask = prompt.ask_for(seat).map_err(SessionError::WrongSeat)?;
    if let Some(action) = ask.actions.iter().find(|a| a.admits(choice)) {
        return Ok(Answered {
            seat: ask.seat.clone().or_else(|| seat.cloned()),
            secret: prompt.is_secret(),
            shown: prompt.private.clone(),
            label: action.label_for(choice),
        });
    }
    let legal: Vec<String> = ask
        .actions
        .iter()
        .map(|a| match a.range {
            Some((lo, hi)) => format!("{} {lo}..{hi}", a.name),
            None => a.choice().to_string(),
        })
        .collect();
    Err(SessionError::Illegal {
        choice: shortened(&choice.to_string()),
        state: prompt.state.clone(),
        legal: legal.join(", "),
    })
}
