//! A seat's game as its window on another machine draws it: the table redacted for the seat,
//! the log as it may read it, its share of the decision and the standings, all made on the
//! server. The window builds a [`Session`] from it whose rules are [`Shown`]: they say what
//! the server sent and play nothing, so no module's Lua runs on a client.

use std::sync::Arc;

use chancery_core::redact::{Redaction, redact_table};
use chancery_core::rules::StepIo;
use chancery_core::session::{LogEntry, log_read_by};
use chancery_core::{
    Action, BotPick, Choice, GameSpec, Module, Prompt, Rules, RulesError, ScenarioId, SeatId,
    Session, Table, Value,
};
use serde::{Deserialize, Serialize};

/// One seat's game, as the server sends it to the seat's window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatGame {
    /// The module archive the table plays, by its hash (fetched once, then cached).
    pub module: String,
    /// Whether the table plays the module's demo values (else, to a seat, its values are
    /// unknown: the host's own stay with the host).
    pub demo: bool,
    /// The scenario, seats and options (the seed left out).
    pub spec: GameSpec,
    /// The table as the seat may know it.
    pub table: Table,
    /// Whose view it is.
    pub redaction: Redaction,
    /// The log as the seat may read it.
    pub log: Vec<LogEntry>,
    /// The decision as the seat may know it: `None` when the game is over.
    pub prompt: Option<Prompt>,
    /// Why the rules cannot say the decision, if they cannot.
    pub error: Option<String>,
    /// The rules' view (standings, scores so far) for the seat.
    pub view: Value,
    /// The table's umpire, if it has one (every seat may know who umpires).
    #[serde(default)]
    pub umpire: Option<SeatId>,
}

impl SeatGame {
    /// `seat`'s game in `session`, whose module is the archive `module`.
    pub fn of(session: &mut Session, seat: &SeatId, module: &str) -> SeatGame {
        // The umpire sees everything; any other seat what it may know.
        let umpire = session.table().eyes(Some(seat)).is_none();
        let (table, redaction) = match umpire {
            true => (session.table().clone(), Redaction { seat: seat.clone() }),
            false => redact_table(session.table(), seat),
        };
        let eyes = (!umpire).then_some(seat);
        let log = log_read_by(&session.log(), eyes)
            .into_iter()
            .map(|(_, entry)| entry)
            .collect();
        let (prompt, error) = match session.prompt() {
            Ok(prompt) => (
                prompt
                    .as_ref()
                    .map(|p| if umpire { p.clone() } else { p.share_for(seat) }),
                None,
            ),
            Err(e) => (None, Some(e.to_string())),
        };
        let view = session.view_data(eyes).unwrap_or(Value::Nil);
        let spec = GameSpec {
            seed: 0,
            setup_dice: Vec::new(),
            ..session.spec().clone()
        };
        SeatGame {
            module: module.to_owned(),
            demo: session.module().is_demo(),
            spec,
            table,
            redaction,
            log,
            prompt,
            error,
            view,
            umpire: session.table().umpire.clone(),
        }
    }

    /// The game to draw, under `module` (the archive named [`SeatGame::module`], loaded).
    pub fn session(&self, module: Arc<Module>) -> Session {
        let rules = Shown {
            prompt: self.prompt.clone(),
            error: self.error.clone(),
            view: self.view.clone(),
        };
        Session::shown(
            module,
            self.spec.clone(),
            Box::new(rules),
            (self.table.clone(), self.redaction.clone()),
            self.log.clone(),
        )
    }
}

/// Rules that say what the server sent and play nothing: a seat's answers go to the server.
pub struct Shown {
    prompt: Option<Prompt>,
    error: Option<String>,
    view: Value,
}

const PLAYED_ON_THE_SERVER: &str = "this game is played on the table server: answers go there";

impl Rules for Shown {
    fn setup(
        &mut self,
        _: &mut Table,
        _: &ScenarioId,
        _: &Value,
        _: &mut StepIo,
    ) -> Result<(), RulesError> {
        Ok(())
    }

    fn prompt(&mut self, _: &mut Table) -> Result<Option<Prompt>, RulesError> {
        match &self.error {
            Some(e) => Err(RulesError::Script(e.clone())),
            None => Ok(self.prompt.clone()),
        }
    }

    fn act(
        &mut self,
        _: &mut Table,
        _: Option<&SeatId>,
        _: &Choice,
        _: &mut StepIo,
    ) -> Result<(), RulesError> {
        Err(RulesError::Script(PLAYED_ON_THE_SERVER.to_owned()))
    }

    fn bot(
        &mut self,
        _: &mut Table,
        _: &str,
        _: &SeatId,
        _: &[Action],
    ) -> Result<BotPick, RulesError> {
        Err(RulesError::Script(
            "the table server runs the bots".to_owned(),
        ))
    }

    fn check(&mut self, _: &mut Table) -> Result<(), RulesError> {
        Ok(())
    }

    fn view(&mut self, _: &mut Table, _: Option<&SeatId>) -> Result<Value, RulesError> {
        Ok(self.view.clone())
    }

    fn reload(&self, _: Arc<Module>) -> Result<Box<dyn Rules>, RulesError> {
        Err(RulesError::Script(PLAYED_ON_THE_SERVER.to_owned()))
    }
}
