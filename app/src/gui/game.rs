//! The game being played in the window: the session and what the window keeps around it
//! (who is looking, a step waiting for a die or a value, a selected piece, autosave, hot
//! reload). Every change goes to the session as a command.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chancery_core::devtools::impact::{ImpactReport, Replayed, impact, replay_recordings};
use chancery_core::module::{BoardOverlay, FieldType, OverlayTarget, write_overlay_board};
use chancery_core::rules::BotPick;
use chancery_core::save::SaveFile;
use chancery_core::session::board_checklist;
use chancery_core::watch::{ModuleWatcher, Reload, Waker};
use chancery_core::{
    Ask, Controller, Input, LoadOptions, Module, Need, SeatId, Session, Table, Target, Value,
};

use super::draw::{Click, DropTarget, Selected, Targets};

mod remote;
use crate::games::{parse_value, store_value, value_type, write_overlay_and_reload};
pub use remote::{LinkState, Remote};

/// A step the rules stopped to ask about: the input to retry and what it needs.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The input, with the dice supplied so far; `None` for a bot's own step (its chart read a
    /// value not entered yet), which is taken again once the value is stored.
    pub input: Option<Input>,
    /// What the rules need.
    pub need: Need,
    /// The text being typed in answer.
    pub answer: String,
    /// For a record or a map of known keys, the text typed in each key's box.
    pub parts: std::collections::BTreeMap<String, String>,
}

/// Whose eyes the table is shown with (hot-seat play).
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    /// Show every hand and hidden card (one person at a physical table, or testing).
    pub open_hands: bool,
    /// The seat that last confirmed it is at the screen.
    pub seat: Option<SeatId>,
    /// A seat asked to take the screen; the table stays hidden until it confirms.
    pub pass_to: Option<SeatId>,
    /// One person plays every human seat (a solitaire with several seats): the table is
    /// shown as the deciding seat sees it, and the screen is never passed.
    pub one_person: bool,
}

/// What to change on the physical board after a step (the app beside a real board): a
/// title and the instructions, each ticked off by the player.
#[derive(Clone, Debug, Default)]
pub struct Checklist {
    /// What the list is for ("France's bot: …", "Undo: …").
    pub title: String,
    /// The instructions and whether each is done.
    pub items: Vec<(String, bool)>,
}

impl Checklist {
    /// Whether every instruction is ticked.
    pub fn done(&self) -> bool {
        self.items.iter().all(|(_, done)| *done)
    }
}

/// How the game view is set up.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// Reload the module when its files change.
    pub watch: bool,
    /// The autosave folder: the game gets a file of its own there, written after every
    /// change (see `autosave.rs`).
    pub autosave_dir: Option<PathBuf>,
    /// How the module was loaded (to load it again after storing a value in the overlay).
    pub load_options: LoadOptions,
}

/// What the window's own controls show and set: plain settings that the game's commands
/// read, and that nothing else has to be kept in step with.
#[derive(Clone)]
pub struct Panels {
    /// A piece picked to move by hand.
    pub selected: Option<Selected>,
    /// The board shown and where each board is panned and zoomed to.
    pub board: super::board::BoardView,
    /// Only list the actions concerning this part of the table.
    pub focus: Option<Target>,
    /// Let bots play on their own, one step per `autoplay_ms` (on unless paused).
    pub autoplay: bool,
    /// Milliseconds between bot steps in autoplay.
    pub autoplay_ms: u64,
    /// Where "Save" writes.
    pub save_path: String,
    /// Whether the card data editor is open.
    pub editor_open: bool,
    /// Whether the module's rules (its `rules.md` or README) are open.
    pub rules_open: bool,
    /// Whether the reload report is shown in a window of its own (not at the foot).
    pub reload_popped: bool,
    /// The card picked to look at (its face and what can be done with it).
    pub inspected: Option<chancery_core::CardId>,
    /// The hand shown in the hand panel (the first the viewer may see, if none is picked).
    pub hand: Option<chancery_core::ZoneId>,
    /// An action that gives something up, clicked once: it waits for the person to agree.
    pub confirming: Option<chancery_core::Choice>,
}

/// The game on the screen.
pub struct GameView {
    /// The game: read through [`GameView::session`], changed only through the view's
    /// commands (which autosave, keep the physical board's checklists and the hot-seat
    /// screen in step).
    session: Session,
    options: GameOptions,
    /// The game's own autosave file, held while it is played here.
    autosave: Option<super::autosave::Autosave>,
    watcher: Option<ModuleWatcher>,
    /// The last reload: whether it went well, and its report or diagnostics.
    reload_report: Option<(bool, String)>,
    /// The input where the last reload's game first differs (to go to it from the report).
    reload_at: Option<usize>,
    /// The last command's error.
    error: Option<String>,
    /// What is wrong with the owner's overlay (the game goes on without its values).
    overlay_problems: Option<String>,
    /// Who is looking.
    viewer: Viewer,
    /// A step waiting for an answer.
    pending: Option<Pending>,
    /// The last bot decision, to show its reasons.
    last_bot: Option<LastBot>,
    /// A bot decision previewed for a human seat.
    preview: Option<BotPick>,
    /// The game is played on a physical board beside the app: after each bot step (and
    /// each undo) the app lists what to change on the board, and the bots wait until it
    /// is ticked off.
    physical_board: bool,
    /// The board-sync checklists not yet ticked off, oldest first.
    checklists: Vec<Checklist>,
    /// Bots wait for a person: set by Undo, cleared when a person acts.
    hold_bots: bool,
    /// What the window's own controls show and set.
    panels: Panels,
    /// The file "Save" wrote last (written again without asking).
    saved_to: Option<PathBuf>,
    /// A file that is there already, which a second press of "Save" replaces.
    replace_asked: Option<PathBuf>,
    /// A short message of the last command that went well.
    status: Option<String>,
    /// How many card fields of the module are not entered (counted once per module version).
    unknown_fields: usize,
    /// The rules' `view` of the game (standings, scores so far), kept until the game, the
    /// eyes or the module change: (inputs, eyes, module fingerprint, the view).
    standings: Option<(usize, Option<SeatId>, u64, Value)>,
    /// The module's recorded games replayed under the version being played, for the
    /// edit-impact report of the next reload.
    recordings: Recordings,
    /// Asks the window to be drawn again when work done elsewhere is ready (a reload, the
    /// replays of the recorded games): an idle window then draws nothing.
    waker: Option<Waker>,
    /// The table server the game is played on, if it is: the session shows the seat's
    /// game as the server sent it, and answers go there.
    remote: Option<Remote>,
}

/// The module's recorded games replayed on a thread of their own: under the version being
/// played (made when the game opens and after each reload, while the folder holds that
/// version), and the replays of the version before, until the new ones are compared.
#[derive(Default)]
struct Recordings {
    /// The replays under the version being played.
    current: Option<Arc<Vec<Replayed>>>,
    /// Replays under way.
    running: Option<std::sync::mpsc::Receiver<Vec<Replayed>>>,
    /// The replays of the version before the last reload, to compare the running ones with.
    before: Option<Arc<Vec<Replayed>>>,
}

impl Recordings {
    /// Starts replaying `module`'s recorded games; `wake` is called when they are done.
    fn replay(&mut self, module: Arc<chancery_core::Module>, wake: Option<Waker>) {
        let (tell, answer) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tell.send(replay_recordings(&module));
            if let Some(wake) = wake {
                wake();
            }
        });
        self.running = Some(answer);
    }

    /// The edit-impact report, once the replays under way are done and there is a version
    /// before to compare them with.
    fn poll(&mut self) -> Option<String> {
        let replays = self.running.as_ref()?.try_recv().ok()?;
        self.running = None;
        let replays = Arc::new(replays);
        self.current = Some(replays.clone());
        let before = self.before.take()?;
        Some(ImpactReport(&impact(&before, &replays)).to_string())
    }
}

/// A bot's last decision, to show with its reasons.
pub struct LastBot {
    /// The seat whose bot chose.
    pub seat: SeatId,
    /// Its choice and reasons.
    pub pick: BotPick,
    /// Whether the answer was a secret one.
    pub secret: bool,
    /// The answer in its action's words ("Holland to the Negotiation Table").
    pub words: String,
}

impl GameView {
    /// A view of `session`.
    pub fn new(session: Session, mut options: GameOptions) -> Self {
        // A demo game reloads (after an edit, or a stored value) as the demo it is.
        if session.module().is_demo() {
            options.load_options.overlay = chancery_core::OverlayChoice::Demo;
        }
        let watcher = if options.watch {
            watch(session.module(), &options.load_options)
        } else {
            None
        };
        let save_path = format!("{}-{}.ron", session.module().id(), session.table().scenario);
        let mut recordings = Recordings::default();
        if watcher.is_some() {
            recordings.replay(session.module().clone(), None);
        }
        let board = super::board::BoardView::starting(session.module());
        let mut error = None;
        let autosave = options.autosave_dir.as_ref().and_then(|dir| {
            super::autosave::Autosave::start(dir, session.module().id())
                .map_err(|e| error = Some(format!("cannot autosave in {}: {e}", dir.display())))
                .ok()
        });
        let mut view = GameView {
            session,
            options,
            autosave,
            watcher,
            reload_report: None,
            reload_at: None,
            error,
            overlay_problems: None,
            viewer: Viewer::default(),
            pending: None,
            last_bot: None,
            preview: None,
            physical_board: false,
            checklists: Vec::new(),
            hold_bots: false,
            panels: Panels {
                selected: None,
                board,
                focus: None,
                autoplay: true,
                autoplay_ms: 600,
                save_path,
                editor_open: false,
                rules_open: false,
                reload_popped: false,
                inspected: None,
                hand: None,
                confirming: None,
            },
            saved_to: None,
            replace_asked: None,
            status: None,
            unknown_fields: 0,
            standings: None,
            recordings,
            waker: None,
            remote: None,
        };
        view.count_unknown_fields();
        // A game whose set-up waits for a value of the owner's data asks for it first.
        if let Some(need) = view.session.setup_waits().cloned() {
            view.wait_for(None, &need);
        }
        view.update_viewer();
        view.overlay_problems = crate::games::overlay_problems(view.session.module());
        view
    }

    /// The game.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// What the window's controls show and set.
    pub fn panels(&self) -> &Panels {
        &self.panels
    }

    /// What the window's controls show and set, to change.
    pub fn panels_mut(&mut self) -> &mut Panels {
        &mut self.panels
    }

    /// The game to draw and the controls to change while drawing it.
    pub fn session_and_panels(&mut self) -> (&Session, &mut Panels) {
        (&self.session, &mut self.panels)
    }

    /// The last reload: whether it went well, and its report or diagnostics.
    pub fn reload_report(&self) -> Option<&(bool, String)> {
        self.reload_report.as_ref()
    }

    /// Shows `text` where reload reports show (`ok` says whether it is good news).
    pub fn report(&mut self, ok: bool, text: String) {
        self.reload_report = Some((ok, text));
    }

    /// The person closes the reload report.
    pub fn dismiss_reload_report(&mut self) {
        self.reload_report = None;
        self.reload_at = None;
    }

    /// The input where the game first differs under the version the last reload brought,
    /// if it does (0: the set-up).
    pub fn reload_at(&self) -> Option<usize> {
        self.reload_at
    }

    /// The last command's error, until it is closed or a command goes well.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Shows an error of a command the window made itself.
    pub fn show_error(&mut self, error: String) {
        self.error = Some(error);
    }

    /// The person closes the error, or a command of the window went well.
    pub fn clear_error(&mut self) {
        self.error = None;
    }

    /// A short message of the last command that went well.
    pub fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    /// What is wrong with the owner's overlay, until the person closes it.
    pub fn overlay_problems(&self) -> Option<&str> {
        self.overlay_problems.as_deref()
    }

    /// The person closes the overlay's problems.
    pub fn dismiss_overlay_problems(&mut self) {
        self.overlay_problems = None;
    }

    /// Who is looking.
    pub fn viewer(&self) -> &Viewer {
        &self.viewer
    }

    /// Asks `seat` to take the screen: the table stays hidden until it confirms.
    pub fn pass_screen_to(&mut self, seat: SeatId) {
        self.viewer.pass_to = Some(seat);
    }

    /// The step waiting for a die or a value, if any.
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// The step waiting for an answer, to type the answer into.
    pub fn pending_mut(&mut self) -> Option<&mut Pending> {
        self.pending.as_mut()
    }

    /// The person gives up the step waiting for an answer.
    pub fn cancel_pending(&mut self) {
        self.pending = None;
    }

    /// The last bot decision (its seat, its pick, whether it answered a secret choice).
    pub fn last_bot(&self) -> Option<&LastBot> {
        self.last_bot.as_ref()
    }

    /// The bot decision previewed for the person at the screen.
    pub fn preview(&self) -> Option<&BotPick> {
        self.preview.as_ref()
    }

    /// Whether the game is played on a physical board beside the app.
    pub fn physical_board(&self) -> bool {
        self.physical_board
    }

    /// Plays on a physical board beside the app, or stops; stopping drops the checklists.
    pub fn set_physical_board(&mut self, on: bool) {
        self.physical_board = on;
        if !on {
            self.checklists.clear();
        }
    }

    /// The board-sync checklists not yet ticked off, oldest first.
    pub fn checklists(&self) -> &[Checklist] {
        &self.checklists
    }

    /// The checklists, to tick; lists all ticked go at [`GameView::drop_ticked`].
    pub fn checklists_mut(&mut self) -> &mut [Checklist] {
        &mut self.checklists
    }

    /// Drops the checklists whose instructions are all ticked.
    pub fn drop_ticked(&mut self) {
        self.checklists.retain(|c| !c.done());
    }

    /// Ticks every instruction: the board matches the game.
    pub fn tick_all(&mut self) {
        self.checklists.clear();
    }

    /// Whether the bots wait for a person (after an undo).
    pub fn bots_held(&self) -> bool {
        self.hold_bots
    }

    /// Lets the bots play again after an undo.
    pub fn release_bots(&mut self) {
        self.hold_bots = false;
    }

    /// How the view was set up.
    pub fn options(&self) -> &GameOptions {
        &self.options
    }

    /// Whether the module's files are watched for changes.
    pub fn watching(&self) -> bool {
        self.watcher.is_some()
    }

    /// Whether the view has a way to wake the window ([`GameView::wake_with`]).
    pub fn has_waker(&self) -> bool {
        self.waker.is_some()
    }

    /// Calls `wake` (from another thread) whenever a reload or the replays of the recorded
    /// games are ready, so that the window draws them at once and draws nothing meanwhile.
    pub fn wake_with(&mut self, wake: Waker) {
        if let Some(watcher) = &self.watcher {
            watcher.wake_with(wake.clone());
        }
        self.remote_wake_with(wake.clone());
        self.waker = Some(wake);
    }

    /// How many card fields of the module are not entered yet.
    pub fn unknown_fields(&self) -> usize {
        self.unknown_fields
    }

    fn count_unknown_fields(&mut self) {
        let report = self.session.module().unknown_report();
        self.unknown_fields = report.iter().map(|(_, fields)| fields.len()).sum();
    }

    /// The seats people play.
    pub fn human_seats(&self) -> Vec<SeatId> {
        let table = self.session.table();
        self.session
            .module()
            .seats
            .iter()
            .filter(|s| matches!(table.seats.get(&s.id), Some(Controller::Human)))
            .map(|s| s.id.clone())
            .collect()
    }

    /// The seat whose eyes show the table: `None` when every card may be shown. Nobody at
    /// the screen yet, or the screen being passed to the next seat, is a spectator
    /// ([`SeatId::spectator`]): only what every seat may see shows.
    pub fn eyes(&self) -> Option<SeatId> {
        // A redacted save shows its own seat's view, and nothing else.
        if let Some(redaction) = self.session.redaction() {
            return Some(redaction.seat.clone());
        }
        if self.viewer.open_hands {
            return None;
        }
        if self.viewer.pass_to.is_some() {
            return Some(SeatId::spectator());
        }
        let seat = self.viewer.seat.clone().unwrap_or_else(SeatId::spectator);
        // The umpire sees everything.
        self.session.table().eyes(Some(&seat)).cloned()
    }

    /// What the rules' `view` hook says of the game now, as the current eyes may see it (the
    /// standings, scores so far); `Nil` when the module has no view or it fails.
    pub fn standings(&mut self) -> &Value {
        let eyes = self.eyes();
        let key = (
            self.session.history().len(),
            eyes.clone(),
            self.session.module().fingerprint,
        );
        let fresh = self
            .standings
            .as_ref()
            .is_some_and(|(n, e, f, _)| (*n, e, *f) == (key.0, &key.1, key.2));
        if !fresh {
            let value = self.session.view_data(eyes.as_ref()).unwrap_or(Value::Nil);
            self.standings = Some((key.0, key.1, key.2, value));
        }
        self.standings
            .as_ref()
            .map_or(&Value::Nil, |(_, _, _, v)| v)
    }

    /// One person plays every human seat (no screen passing), or each its own person.
    pub fn set_one_person(&mut self, one: bool) {
        self.viewer.one_person = one;
        if one {
            self.viewer.open_hands = false;
            self.viewer.pass_to = None;
        }
        self.update_viewer();
    }

    /// Every seat of a reaction window that a person plays passes, in the window's order,
    /// until the window closes or a bot is asked: "nobody objects" in one click.
    pub fn pass_window(&mut self) {
        // This window's frame: a later window (the next round's) is not answered here.
        let frame = self.session.table().top_frame().map(|f| f.id);
        for _ in 0..self.session.module().seats.len() {
            let Ok(Some(prompt)) = self.session.prompt() else {
                return;
            };
            if prompt.decision != chancery_core::Decision::Window {
                return;
            }
            let Some(seat) = prompt.asks.first().and_then(|a| a.seat.clone()) else {
                return;
            };
            if !matches!(
                self.session.table().seats.get(&seat),
                Some(Controller::Human)
            ) {
                return;
            }
            let before = self.session.history().len();
            self.answer(
                Some(seat),
                chancery_core::Choice {
                    name: chancery_core::rules::PASS.to_owned(),
                    arg: Value::Nil,
                },
            );
            let moved = self.session.history().len() > before;
            let same = self.session.table().top_frame().map(|f| f.id) == frame;
            if !moved || !same {
                return;
            }
        }
    }

    /// Shows every hand (one person at the table) or only the seat's own.
    pub fn set_open_hands(&mut self, open: bool) {
        if open && let Some(redaction) = self.session.redaction() {
            self.error = Some(format!(
                "This save is {}'s redacted view of the game: it holds nothing more to show.",
                seat_name(self.session.module(), &redaction.seat)
            ));
            return;
        }
        self.viewer.open_hands = open;
        if open {
            self.viewer.pass_to = None;
        } else {
            self.update_viewer();
        }
    }

    /// After each change: if another person must decide now, ask them to take the screen.
    /// One person playing several seats sees the table as the deciding one does, without
    /// passing the screen; a reaction window that asks people is one screen for all of
    /// them (see the Decision panel), passed only to a seat that wants to answer.
    pub fn update_viewer(&mut self) {
        if let Some(redaction) = self.session.redaction() {
            self.viewer.seat = Some(redaction.seat.clone());
            self.viewer.open_hands = false;
            self.viewer.pass_to = None;
            return;
        }
        if self.viewer.open_hands {
            return;
        }
        // A game with an umpire is the umpire's to run (the players read what is theirs
        // apart): the umpire stays at the screen, and the screen is never passed.
        if let Some(umpire) = self.session.table().umpire.clone() {
            self.viewer.seat = Some(umpire);
            self.viewer.pass_to = None;
            return;
        }
        let humans = self.human_seats();
        if humans.len() <= 1 {
            self.viewer.seat = humans.first().cloned();
            self.viewer.pass_to = None;
            return;
        }
        // The people who decide now: one, or several choosing at once (each in turn at the
        // screen, so that nobody sees another's choices).
        let (deciders, window): (Vec<SeatId>, bool) = match self.session.prompt() {
            Ok(Some(prompt)) => (
                prompt
                    .deciders()
                    .filter(|s| humans.contains(s))
                    .cloned()
                    .collect(),
                prompt.decision == chancery_core::Decision::Window,
            ),
            _ => (Vec::new(), false),
        };
        if self.viewer.one_person {
            if let Some(seat) = deciders.first() {
                self.viewer.seat = Some(seat.clone());
            }
            self.viewer.pass_to = None;
            return;
        }
        if window {
            return;
        }
        let at_screen = self.viewer.seat.as_ref();
        if let Some(seat) = deciders.first()
            && !at_screen.is_some_and(|s| deciders.contains(s))
        {
            self.viewer.pass_to = Some(seat.clone());
        }
    }

    /// The ask the person at the screen answers: the seat at the screen's, when it decides
    /// now; with open hands, the first that a person plays; otherwise the only ask, when it
    /// is a person's (or anyone's).
    pub fn my_ask(&self) -> Option<Ask> {
        let Ok(Some(prompt)) = self.session.prompt() else {
            return None;
        };
        let human = |ask: &&Ask| {
            ask.seat.as_ref().is_none_or(|s| {
                matches!(self.session.table().seats.get(s), Some(Controller::Human))
            })
        };
        if let Some(seat) = &self.viewer.seat
            && let Some(ask) = prompt.asks.iter().find(|a| a.seat.as_ref() == Some(seat))
        {
            return Some(ask.clone());
        }
        // A redacted save answers only its own seat's asks (found above).
        if self.session.redaction().is_some() {
            return None;
        }
        if self.viewer.open_hands || !prompt.is_secret() {
            return prompt.asks.iter().find(human).cloned();
        }
        None
    }

    /// The seat at the screen confirms it is there.
    pub fn confirm_viewer(&mut self) {
        if let Some(seat) = self.viewer.pass_to.take() {
            self.viewer.seat = Some(seat);
        }
    }

    /// The parts of the table the prompt's actions concern (to highlight them).
    pub fn targets(&self) -> Targets {
        let mut targets = Targets::default();
        if let Some(ask) = self.my_ask() {
            for action in &ask.actions {
                match &action.target {
                    Some(Target::Card(c)) => {
                        targets.cards.insert(c.clone());
                    }
                    Some(Target::Zone(z)) => {
                        targets.zones.insert(z.clone());
                    }
                    Some(Target::Space(p, s)) => {
                        targets.spaces.insert((p.clone(), s.clone()));
                    }
                    Some(Target::Piece(p)) => {
                        targets.pieces.insert(p.clone());
                    }
                    Some(Target::Box(b)) => {
                        targets.boxes.insert(b.clone());
                    }
                    Some(Target::Counter(c)) => {
                        targets.counters.insert(c.clone());
                    }
                    None => {}
                }
            }
        }
        targets
    }

    /// Does what the clicks on the table ask.
    pub fn on_clicks(&mut self, clicks: Vec<Click>) {
        for click in clicks {
            match click {
                Click::Act(target) => self.act_on(target),
                Click::Select(selected) => {
                    let picked = &mut self.panels_mut().selected;
                    *picked = if picked.as_ref() == Some(&selected) {
                        None
                    } else {
                        Some(selected)
                    };
                }
                Click::Inspect(card) => {
                    let looked = &mut self.panels_mut().inspected;
                    *looked = if looked.as_ref() == Some(&card) {
                        None
                    } else {
                        Some(card)
                    };
                }
                Click::Drop(target) => {
                    if let Some(thing) = self.panels_mut().selected.take() {
                        self.move_by_hand(thing, target);
                    }
                }
                Click::Move(thing, target) => self.move_by_hand(thing, target),
                Click::Manual(change) => self.manual(change),
                Click::PlaceSpace {
                    board,
                    place,
                    space,
                    at,
                } => self.owner_board(&board, |copy| {
                    copy.spaces.insert(format!("{place}/{space}"), at);
                }),
                Click::BoardImage { board, image } => self.owner_board(&board, |copy| {
                    copy.image = Some(image);
                }),
            }
        }
    }

    /// Whether the viewer may see a hand, to show in the hand panel.
    pub fn has_hand_to_show(&self) -> bool {
        let eyes = self.eyes();
        let table = self.session.table();
        self.session.module().zones.iter().any(|z| {
            z.owner.is_some()
                && z.visibility == chancery_core::table::Visibility::Owner
                && table
                    .zones
                    .get(&z.id)
                    .is_some_and(|zone| zone.visible_to(eyes.as_ref()))
        })
    }

    /// Answers the prompt with the one action about `target`, or lists them if several.
    pub fn act_on(&mut self, target: Target) {
        let Some(ask) = self.my_ask() else {
            return;
        };
        let matching: Vec<_> = ask
            .actions
            .iter()
            .filter(|a| a.target.as_ref() == Some(&target))
            .collect();
        match matching.as_slice() {
            [] => {}
            [action] if action.range.is_none() => {
                let choice = action.choice();
                self.answer(ask.seat.clone(), choice);
            }
            _ => self.panels.focus = Some(target),
        }
    }

    /// Whether the umpire is at the screen (a game with an umpire, not a redacted save).
    pub fn umpire_at_screen(&self) -> bool {
        let umpire = self.session.table().umpire.as_ref();
        umpire.is_some()
            && self.viewer.seat.as_ref() == umpire
            && self.session.redaction().is_none()
    }

    /// A person's answer for `seat` (the seat of the ask it answers).
    pub fn answer(&mut self, seat: Option<SeatId>, choice: chancery_core::Choice) {
        self.hold_bots = false;
        // The umpire at the screen answers for the seat that decides.
        let umpire = self.session.table().umpire.as_ref();
        let by = match &self.viewer.seat {
            Some(at) if Some(at) == umpire && seat.as_ref() != umpire => {
                chancery_core::Actor::Umpire
            }
            _ => chancery_core::Actor::Human,
        };
        self.apply(Input::Act {
            seat,
            choice,
            dice: Vec::new(),
            by,
        });
    }

    /// Applies an input; a step that needs a die or a value waits for the answer.
    pub fn apply(&mut self, input: Input) {
        self.preview = None;
        self.panels.focus = None;
        if self.send_remote(&input) {
            return;
        }
        self.keep_held_game(&input);
        // A person's answer may make the rules change the board too (a change by hand was
        // made on the physical board already).
        let before = (self.physical_board && matches!(input, Input::Act { .. }))
            .then(|| self.session.table().clone());
        match self.session.apply(input.clone()) {
            Ok(()) => {
                if let Some(before) = before {
                    let words = self
                        .last_words()
                        .unwrap_or_else(|| "your answer".to_owned());
                    self.push_checklist(format!("After {words}"), &before);
                }
                self.error = None;
                self.pending = None;
                self.after_change();
            }
            Err(err) => match err.need() {
                Some(need) => self.wait_for(Some(input), need),
                None => self.error = Some(err.to_string()),
            },
        }
    }

    /// The input waits for what the rules need (a die, a value): the window asks, and the
    /// answer retries it.
    fn wait_for(&mut self, input: Option<Input>, need: &Need) {
        self.pending = Some(Pending {
            input,
            need: need.clone(),
            answer: String::new(),
            parts: Default::default(),
        });
    }

    /// Takes the step that waited again, now that it has its answer.
    fn retry(&mut self, input: Option<Input>) {
        match input {
            Some(input) => self.apply(input),
            None => {
                self.bot_step();
            }
        }
    }

    /// Applies a change by hand.
    pub fn manual(&mut self, change: chancery_core::Manual) {
        self.panels.selected = None;
        self.hold_bots = false;
        self.apply(Input::Manual {
            seat: self.viewer.seat.clone(),
            change,
        });
    }

    /// Supplies a die result to the step waiting for one, and retries it.
    pub fn answer_die(&mut self, result: i64) {
        let Some(mut pending) = self.pending.take() else {
            return;
        };
        if let Some(Input::Act { dice, .. }) = &mut pending.input {
            dice.push(result);
        }
        self.retry(pending.input);
    }

    /// Stores the answer to a value the rules need in the owner's overlay, reloads the module
    /// with it, and retries the step.
    pub fn answer_data(&mut self) {
        let Some(pending) = self.pending.clone() else {
            return;
        };
        let Need::Data(target) = &pending.need else {
            return;
        };
        let ty = self.value_type(target);
        let module = self.session.module();
        // Boxes filled one a key, else the one line typed.
        let value = match pending.parts.values().any(|t| !t.trim().is_empty()) {
            true => crate::games::compose_value(module, &ty, &pending.parts),
            false => parse_value(module, &pending.answer, &ty),
        };
        match value {
            Ok(value) => match self.store(target, value) {
                Ok(()) => {
                    self.pending = None;
                    self.retry(pending.input);
                }
                Err(err) => self.error = Some(err),
            },
            Err(err) => self.error = Some(err),
        }
    }

    /// The overlay the game's save named (read, but not written until the person agrees).
    pub fn overlay_named_by_save(&self) -> Option<PathBuf> {
        let overlay = self.session.module().overlay.as_ref()?;
        overlay.named_by_save.then(|| overlay.path.clone())
    }

    /// The person agrees to store values in the overlay the game's save named: it is their
    /// overlay for this game from now on.
    pub fn adopt_saved_overlay(&mut self) {
        let Some(path) = self.overlay_named_by_save() else {
            return;
        };
        self.options.load_options.overlay = chancery_core::OverlayChoice::File(path);
        if self.watcher.is_some() {
            // Later reloads read it as the person's overlay too.
            self.watcher = watch(self.session.module(), &self.options.load_options);
            if let (Some(watcher), Some(wake)) = (&self.watcher, self.waker.clone()) {
                watcher.wake_with(wake);
            }
        }
        match chancery_core::load_module(&self.session.module().dir, &self.options.load_options) {
            Ok(module) => match self.session.rebase_whole(Arc::new(module)) {
                Ok(_) => self.error = None,
                Err(e) => self.error = Some(e.to_string()),
            },
            Err(d) => self.error = Some(d.to_string()),
        }
    }

    /// The type a value of the module's data must have.
    pub fn value_type(&self, target: &OverlayTarget) -> FieldType {
        value_type(self.session.module(), target)
    }

    /// Writes `value` for `target` into the owner's overlay and plays on under the module
    /// reloaded with it.
    pub fn store(&mut self, target: &OverlayTarget, value: Value) -> Result<(), String> {
        if self.remote.is_some() {
            return Err("At a table on a server, the host's values are the table's: a value is entered at the host's copy.".to_owned());
        }
        let path = store_value(&mut self.session, target, value, &self.options.load_options)?;
        self.status = Some(format!(
            "{} stored in {}",
            self.session.module().describe_target(target),
            path.display()
        ));
        self.count_unknown_fields();
        self.autosave();
        Ok(())
    }

    /// Changes what the owner's overlay says of their copy of `board` (its image, where a
    /// space lies on it) and plays on under the module reloaded with it.
    pub fn owner_board(&mut self, board: &str, change: impl FnOnce(&mut BoardOverlay)) {
        if self.refuse_remote("Changing your board's picture") {
            return;
        }
        let written = write_overlay_and_reload(
            &mut self.session,
            &self.options.load_options,
            |path, module| write_overlay_board(path, module, board, change),
        );
        match written {
            Ok(path) => self.status = Some(format!("Your board saved in {}", path.display())),
            Err(e) => self.error = Some(e),
        }
    }

    /// Undoes the last input.
    /// Takes back the last decision a person made (a move by hand or an answer), with the
    /// bot moves after it; the bots then wait until a person acts again. In a game of bots
    /// alone, takes back one move.
    pub fn undo(&mut self) {
        // At a table on a server, the table's undo rule decides.
        if self.remote.is_some() {
            self.undo_at_table(None);
            return;
        }
        let records = self.session.history().records();
        let by_person = records.iter().rposition(|r| {
            !matches!(
                r.input,
                Input::Act {
                    by: chancery_core::Actor::Bot { .. },
                    ..
                }
            )
        });
        let Some(back_to) = by_person.or_else(|| records.len().checked_sub(1)) else {
            return;
        };
        let before = self.physical_board.then(|| self.session.table().clone());
        match self.session.goto(back_to) {
            Ok(()) => {
                if let Some(before) = before {
                    self.checklists.clear();
                    self.push_checklist("Undo: put the board back".to_owned(), &before);
                }
                self.pending = None;
                self.hold_bots = true;
                self.after_change();
            }
            Err(err) => self.error = Some(err.to_string()),
        }
    }

    /// Redoes the last undone input.
    pub fn redo(&mut self) {
        if self.refuse_remote("Redo") {
            return;
        }
        match self.session.redo() {
            Ok(true) => self.after_change(),
            Ok(false) => {}
            Err(err) => self.error = Some(err.to_string()),
        }
    }

    /// Redoes every undone input (and those a reload held back), as far as the rules accept
    /// them; says how many.
    pub fn redo_all(&mut self) {
        if self.refuse_remote("Redo") {
            return;
        }
        let history = self.session.history();
        let (from, waiting) = (history.len(), history.redo_stack().len());
        if waiting == 0 {
            return;
        }
        let result = self.session.goto(from + waiting);
        let redone = self.session.history().len() - from;
        self.after_change();
        match result {
            Ok(()) => {
                self.error = None;
                self.status = Some(format!("Redone {redone} input(s)."));
            }
            Err(err) => {
                self.error = Some(format!(
                    "Redone {redone} of {waiting} input(s); the next is refused: {err}"
                ))
            }
        }
    }

    /// Goes back (or forward) to just after input `n`.
    pub fn goto(&mut self, n: usize) {
        if self.refuse_remote("Going back in the game") {
            return;
        }
        match self.session.goto(n) {
            Ok(()) => self.after_change(),
            Err(err) => self.error = Some(err.to_string()),
        }
    }

    /// Lets the bot of a deciding seat take one step; keeps its reasons to show. A step whose
    /// rules need something from the table (a physical die the bot's choice rolls, a value
    /// not entered yet) waits for it as a person's does: the answer retries the bot's input.
    pub fn bot_step(&mut self) -> bool {
        if self.refuse_remote("A bot's step") {
            return false;
        }
        let prompt = self.session.prompt().clone().ok().flatten();
        let secret = prompt.as_ref().is_some_and(|p| p.is_secret());
        let before = self.physical_board.then(|| self.session.table().clone());
        // The answer in its action's words, read off the decision before the input goes
        // in (a step that waits for a die or a value has no record yet).
        let last = |seat: SeatId, pick: BotPick| {
            let words = prompt
                .as_ref()
                .and_then(|p| p.ask_for(Some(&seat)).ok())
                .and_then(|ask| ask.actions.iter().find(|a| a.admits(&pick.choice)))
                .map_or_else(
                    || pick.choice.to_string(),
                    |a| a.label_for(&pick.choice).unwrap_or_else(|| a.words()),
                );
            LastBot {
                seat,
                pick,
                secret,
                words,
            }
        };
        let step = match self.session.bot_input() {
            Ok(Some((seat, pick, input))) => match self.session.apply(input.clone()) {
                Ok(()) => Ok(Some((seat, pick))),
                Err(err) => match err.need() {
                    Some(need) => {
                        self.wait_for(Some(input), need);
                        self.last_bot = Some(last(seat, pick));
                        Ok(None)
                    }
                    None => Err(err),
                },
            },
            // The bot's own chart reads a value not entered yet: the person copies it off
            // the printed chart, and the bot chooses again.
            Err(err) if err.need().is_some() => {
                if let Some(need) = err.need() {
                    self.wait_for(None, need);
                }
                Ok(None)
            }
            other => other.map(|_| None),
        };
        match step {
            Ok(Some((seat, pick))) => {
                if let Some(before) = before {
                    let words = self.last_words().unwrap_or_else(|| pick.choice.to_string());
                    let title =
                        format!("{}'s bot: {words}", self.session.module().seat_name(&seat));
                    self.push_checklist(title, &before);
                }
                self.last_bot = Some(last(seat, pick));
                self.after_change();
                true
            }
            Ok(None) => self.pending.is_some(),
            Err(err) => {
                self.panels.autoplay = false;
                match err.need() {
                    Some(need) => {
                        self.error = Some(format!("The bot's step needs an answer: {need}"));
                    }
                    None => self.error = Some(err.to_string()),
                }
                false
            }
        }
    }

    /// The last input in words, as the log shows it.
    fn last_words(&self) -> Option<String> {
        self.session
            .history()
            .records()
            .last()
            .and_then(|r| r.label.clone())
    }

    /// Adds the checklist from `before` to the table now, if anything on the board changed.
    fn push_checklist(&mut self, title: String, before: &Table) {
        // What moved where the seat at the screen may not see stays unsaid.
        let eyes = self.eyes();
        let items = board_checklist(
            self.session.module(),
            &before.fogged_for(eyes.as_ref()),
            &self.session.table().fogged_for(eyes.as_ref()),
        );
        if !items.is_empty() {
            self.checklists.push(Checklist {
                title,
                items: items.into_iter().map(|i| (i, false)).collect(),
            });
        }
    }

    /// Whether the bots wait for the physical board to be brought up to date.
    pub fn board_out_of_sync(&self) -> bool {
        self.physical_board && self.checklists.iter().any(|c| !c.done())
    }

    /// What the bot of the seat at the screen (or the deciding seat) would do, without
    /// doing it.
    pub fn preview_bot(&mut self) {
        let seat = self.my_ask().and_then(|a| a.seat);
        match self.session.bot_preview(None, seat.as_ref()) {
            Ok(pick) => self.preview = pick,
            Err(err) => self.error = Some(err.to_string()),
        }
    }

    fn after_change(&mut self) {
        self.panels.selected = None;
        self.panels.confirming = None;
        self.update_viewer();
        self.autosave();
    }

    /// Writes the autosave, if there is one.
    pub fn autosave(&mut self) {
        if let Some(autosave) = &mut self.autosave
            && let Err(err) = autosave.write(&self.session)
        {
            self.error = Some(format!("autosave failed: {err}"));
        }
    }

    /// Before an input that plays on past inputs a reloaded module held back (they would be
    /// dropped), keeps the whole game as it was in a save of its own beside the autosave.
    fn keep_held_game(&mut self, input: &Input) {
        let history = self.session.history();
        if history.held_len() == 0 || history.redo_stack().last() == Some(input) {
            return;
        }
        let Some(autosave) = self.autosave_path() else {
            return;
        };
        let whole = history.held_len() + history.len();
        let stem = autosave
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let kept = autosave.with_file_name(format!("{stem}-whole-{whole}.ron"));
        match SaveFile::of(&self.session).write_new(&kept) {
            Ok(()) => {
                self.status = Some(format!(
                    "Playing on from input {}: the whole game as it was ({whole} inputs) is kept in {}",
                    history.len(),
                    kept.display()
                ))
            }
            Err(err) => self.error = Some(format!("keeping the whole game aside failed: {err}")),
        }
    }

    /// The file this game is autosaved to, if it is.
    pub fn autosave_path(&self) -> Option<&std::path::Path> {
        self.autosave.as_ref().map(|a| a.path())
    }

    /// Autosaves the game from now on to `path`, an autosave it was opened from (a game
    /// resumed), unless another window plays that game: then it keeps a file of its own.
    pub fn continue_autosave(&mut self, path: &std::path::Path) {
        if self.autosave.is_none() || self.autosave_path() == Some(path) {
            return;
        }
        if let Some(held) = super::autosave::Autosave::hold(path) {
            // The file claimed for this game is let go (and removed: it has no input yet
            // that the resumed file lacks).
            self.autosave = Some(held);
            self.autosave();
        }
    }

    /// Saves the game to the path in `save_path`. A file that is there already (and that
    /// this window did not write last) is replaced only at the second press.
    pub fn save(&mut self) {
        let path = PathBuf::from(self.panels.save_path.trim());
        let mine = self.saved_to.as_ref() == Some(&path);
        if !mine
            && std::fs::symlink_metadata(&path).is_ok()
            && self.replace_asked.as_ref() != Some(&path)
        {
            self.replace_asked = Some(path.clone());
            self.error = Some(format!(
                "{} already exists: press Save again to replace it, or type another name",
                path.display()
            ));
            return;
        }
        self.replace_asked = None;
        match SaveFile::of(&self.session).write(&path) {
            Ok(()) => {
                self.status = Some(format!("Saved {}", path.display()));
                self.error = None;
                self.saved_to = Some(path);
            }
            Err(err) => self.error = Some(err.to_string()),
        }
    }

    /// Whether the module's recorded games have been replayed under the version being
    /// played (the edit-impact report of the next reload compares with them).
    pub fn recordings_replayed(&self) -> bool {
        self.recordings.current.is_some()
    }

    /// Picks up a reload from the watcher and replays the game under it.
    pub fn poll_reload(&mut self) {
        self.poll_remote();
        if let Some(report) = self.recordings.poll()
            && let Some((_, text)) = &mut self.reload_report
        {
            text.push_str(&report);
        }
        let Some(reload) = self.watcher.as_ref().and_then(ModuleWatcher::try_next) else {
            return;
        };
        // Where the last report's game first differs: a new report says it anew, and an
        // event for the version being played keeps it.
        let reload_at = self.reload_at.take();
        self.reload_report = Some(match reload {
            Reload::Loaded {
                module,
                load_ms,
                since,
                ..
            } => {
                if module.fingerprint == self.session.module().fingerprint {
                    // Back to the version being played (a broken edit undone): the error
                    // no longer holds; anything else is news to nobody.
                    self.reload_at = reload_at;
                    if self.reload_report.as_ref().is_some_and(|(ok, _)| !ok) {
                        self.reload_report = Some((
                            true,
                            format!(
                                "The module loads again ({load_ms} ms): it is the version being played, so the game goes on unchanged."
                            ),
                        ));
                    }
                    return;
                }
                match self.session.rebase(module.clone()) {
                    Ok(report) => {
                        self.overlay_problems = crate::games::overlay_problems(&module);
                        self.count_unknown_fields();
                        self.after_change();
                        // The recorded games under the new version, compared with those
                        // under the old one when they are done. Replays of the old version
                        // still under way are given up: there is nothing to compare with.
                        let recordings = match self.recordings.current.take() {
                            Some(before) => {
                                self.recordings.before = Some(before);
                                "Replaying the module's recorded games under the new version…\n"
                            }
                            None => {
                                "The module's recorded games are not compared: their replays under the old version were not finished.\n"
                            }
                        };
                        self.recordings.replay(module, self.waker.clone());
                        let headline = format!(
                            "Reloaded in {load_ms} ms; the edited game is drawn from {} ms after the file was saved.",
                            since.elapsed().as_millis()
                        );
                        // Also for a playtester watching the terminal the app runs in.
                        eprintln!("chancery: {headline}");
                        let words = report
                            .words(self.session.module(), self.eyes().as_ref())
                            .to_string();
                        self.reload_at = report.divergence.as_ref().map(|d| d.after);
                        (true, format!("{headline}\n{words}{recordings}"))
                    }
                    Err(err) => (
                        false,
                        format!(
                            "The new version cannot start this game; still playing the last good one.\n{err}"
                        ),
                    ),
                }
            }
            Reload::Failed { diagnostics, .. } => (
                false,
                format!(
                    "The module does not load; still playing the last good version.\n{diagnostics}"
                ),
            ),
            Reload::WatchError(message) => {
                (false, format!("Watching the module failed: {message}"))
            }
        });
    }

    /// Whether a seat that decides now is played by a bot.
    pub fn bot_decides(&self) -> bool {
        // A table on a server runs its bots there.
        if self.remote.is_some() {
            return false;
        }
        match self.session.prompt() {
            Ok(Some(prompt)) => prompt
                .deciders()
                .any(|s| matches!(self.session.table().seats.get(s), Some(Controller::Bot(_)))),
            _ => false,
        }
    }

    /// Moves `thing` by hand to a zone, space or box (a card to a zone, a piece to a space,
    /// one unit to another box); any other pairing is ignored.
    pub fn move_by_hand(&mut self, thing: Selected, target: DropTarget) {
        let change = match (thing, target) {
            (Selected::Card(card), DropTarget::Zone(to)) => chancery_core::Manual::MoveCard {
                card,
                to,
                position: chancery_core::Position::Top,
            },
            (Selected::Piece(piece), DropTarget::Space(place, space)) => {
                chancery_core::Manual::PlacePiece {
                    piece,
                    place,
                    space,
                }
            }
            (Selected::Units(from, kind), DropTarget::Box(to)) if from != to => {
                chancery_core::Manual::MoveUnits {
                    from,
                    to,
                    kind,
                    count: 1,
                }
            }
            _ => return,
        };
        self.manual(change);
    }
}

/// A watcher that reloads `module`'s folder (and its overlay) with `load_options`. It waits
/// for 40 ms of quiet before a reload: an editor's save is one write or a rename, and a file
/// caught half written fails to load and is loaded again at the next event.
fn watch(module: &Module, load_options: &LoadOptions) -> Option<ModuleWatcher> {
    let overlay = module.overlay.as_ref().map(|o| o.path.clone());
    ModuleWatcher::new(
        &module.dir,
        load_options.clone(),
        overlay,
        Duration::from_millis(40),
    )
    .ok()
}

/// A seat's name, or its id when the module gives none.
pub fn seat_name(module: &Module, seat: &SeatId) -> String {
    module.seat_name(seat)
}
