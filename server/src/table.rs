//! One table on the server: its game session on a thread of its own (a session's rules are
//! Lua states, which stay on the thread that made them), reached by messages. It answers a
//! seat's view, takes a seat's answer (checked against that seat's legal actions), runs the
//! bots, commits every new input to the store before the answer is acknowledged, and tells
//! every connection of the table that it changed.

use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;

use chancery_core::{Actor, Choice, Input, LoadOptions, SeatId, Session, Value};
use serde_json::{Value as Json, json};
use tokio::sync::{broadcast, oneshot, watch};

use crate::store::{Store, StoredTable, Writer};

/// How many bot inputs one answer may set off before the table waits for people again.
const BOT_LIMIT: usize = 10_000;

/// What a table is asked.
enum Command {
    View {
        seat: SeatId,
        /// Whether the view carries the seat's whole game, for its window to draw.
        game: bool,
        reply: oneshot::Sender<Json>,
    },
    Act {
        seat: SeatId,
        choice: Choice,
        /// Die results the seat's person rolled (a table of physical dice).
        dice: Vec<i64>,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Rebase {
        module_dir: std::path::PathBuf,
        reply: std::sync::mpsc::Sender<Result<Rebased, String>>,
    },
    Hand {
        seat: SeatId,
        to: String,
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// `seat` asks to take back a move (`agree` `None`), or agrees to another seat's asking
    /// (`Some(true)`) or refuses (`Some(false)`).
    Undo {
        seat: SeatId,
        agree: Option<bool>,
        reply: oneshot::Sender<Result<String, String>>,
    },
    /// What the rules of module archive `hash` declare, if the table plays it.
    Rules {
        hash: String,
        reply: oneshot::Sender<Option<chancery_core::module::RulesInfo>>,
    },
}

/// A new module version the table now plays: the report of its replay, said to each seat in
/// the words it may read.
pub struct ReloadNote {
    report: chancery_core::RebaseReport,
    module: Arc<chancery_core::Module>,
}

impl ReloadNote {
    /// The report as `seat` may read it.
    pub fn words_for(&self, seat: &SeatId) -> String {
        self.report.words(&self.module, Some(seat)).to_string()
    }
}

/// Why an answer was not taken: the reason, and what the rules need first if that is why
/// (a die its person rolls, at a table of physical dice).
#[derive(Debug)]
pub struct Refusal {
    /// The reason, in words.
    pub reason: String,
    /// What the rules need before the answer can be taken.
    pub need: Option<chancery_core::Need>,
}

impl From<&str> for Refusal {
    fn from(reason: &str) -> Refusal {
        Refusal {
            reason: reason.to_owned(),
            need: None,
        }
    }
}

/// A table's game replayed under a new module version.
pub struct Rebased {
    /// The report, in a spectator's words.
    pub words: String,
    /// The new version's own version (its manifest's).
    pub version: String,
    /// How many inputs the game had then.
    pub inputs: usize,
}

/// A running table: where to send it messages, and a counter that moves on each change.
#[derive(Clone)]
pub struct TableHandle {
    /// Its seats' names, and its umpire's seat if it has one (for the chat).
    pub seats: Arc<Seats>,
    /// Each line of the table's chat, to every connection (which passes on those its seat
    /// may read).
    pub chat: broadcast::Sender<Arc<crate::chat::ChatLine>>,
    commands: mpsc::Sender<Command>,
    changes: watch::Receiver<u64>,
    reloads: broadcast::Sender<Arc<ReloadNote>>,
    /// The connections open at each seat (a spectator's under [`SeatId::spectator`]), and a
    /// way to tell every connection when that changes.
    present: Arc<std::sync::Mutex<std::collections::BTreeMap<SeatId, usize>>>,
    poke: Arc<watch::Sender<u64>>,
    /// Set when the table's thread has ended (stopped idle).
    stopped: Arc<std::sync::atomic::AtomicBool>,
}

/// A table's seats as the chat names them.
#[derive(Clone, Debug, Default)]
pub struct Seats {
    /// Each seat's name.
    pub names: std::collections::BTreeMap<SeatId, String>,
    /// The umpire's seat, if the game has one.
    pub umpire: Option<SeatId>,
}

impl Seats {
    /// The name of `id` (a seat's id, or the host's): the seat's name, else "Host".
    pub fn name(&self, id: &str) -> String {
        match self.names.get(&SeatId::from(id)) {
            Some(name) => name.clone(),
            None if id == crate::chat::HOST => "Host".to_owned(),
            None => id.to_owned(),
        }
    }
}

/// A connection at a seat, counted while it lives.
pub struct Presence {
    seat: SeatId,
    present: Arc<std::sync::Mutex<std::collections::BTreeMap<SeatId, usize>>>,
    poke: Arc<watch::Sender<u64>>,
}

impl Drop for Presence {
    fn drop(&mut self) {
        if let Ok(mut present) = self.present.lock()
            && let Some(n) = present.get_mut(&self.seat)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                present.remove(&self.seat);
            }
        }
        self.poke.send_modify(|n| *n += 1);
    }
}

impl TableHandle {
    /// Starts table `stored` on its own thread: its module unpacked under `modules`, its
    /// stored inputs replayed. Returns once the game is ready, or why it cannot be.
    pub fn start(
        stored: StoredTable,
        (module_dir, options, module): (&Path, LoadOptions, Option<Arc<chancery_core::Module>>),
        (store, writer): (Store, Writer),
        idle: std::time::Duration,
    ) -> anyhow::Result<TableHandle> {
        let (commands, inbox) = mpsc::channel::<Command>();
        let (changed, changes) = watch::channel(0u64);
        let changed = Arc::new(changed);
        let poke = Arc::clone(&changed);
        let present: Arc<std::sync::Mutex<std::collections::BTreeMap<SeatId, usize>>> =
            Arc::default();
        let seen = Arc::clone(&present);
        let stopped: Arc<std::sync::atomic::AtomicBool> = Arc::default();
        let ended = Arc::clone(&stopped);
        let (reloads, _) = broadcast::channel(16);
        let told = reloads.clone();
        let (ready, started) = std::sync::mpsc::channel::<anyhow::Result<Seats>>();
        let dir = module_dir.to_path_buf();
        std::thread::Builder::new()
            .name(format!("table {}", stored.id))
            .spawn(move || {
                let game = match open_game(&stored, (&dir, module), &options, &store) {
                    Ok(game) => {
                        let module = game.session.module();
                        let seats = Seats {
                            names: module
                                .seats
                                .iter()
                                .map(|s| (s.id.clone(), s.name.clone()))
                                .collect(),
                            umpire: game.session.table().umpire.clone(),
                        };
                        let _ = ready.send(Ok(seats));
                        game
                    }
                    Err(e) => {
                        ended.store(true, std::sync::atomic::Ordering::SeqCst);
                        let _ = ready.send(Err(e));
                        return;
                    }
                };
                run(
                    game,
                    (stored.id, options, idle),
                    writer,
                    inbox,
                    (changed, told, seen),
                );
                ended.store(true, std::sync::atomic::Ordering::SeqCst);
            })?;
        let seats = started
            .recv()
            .map_err(|_| anyhow::anyhow!("the table's thread ended before it started"))??;
        let (chat, _) = broadcast::channel(64);
        Ok(TableHandle {
            seats: Arc::new(seats),
            chat,
            commands,
            changes,
            reloads,
            present,
            poke,
            stopped,
        })
    }

    /// The table's view for `seat`: its state as that seat sees it, and its decision; with
    /// `game`, the seat's whole game too, for its window to draw ([`crate::seat::SeatGame`]).
    pub async fn view(&self, seat: &SeatId, game: bool) -> Option<Json> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(Command::View {
                seat: seat.clone(),
                game,
                reply,
            })
            .ok()?;
        answer.await.ok()
    }

    /// `seat` answers with `choice` (and, at a table of physical dice, the `dice` its person
    /// rolled): `Ok` once the input (and the bots' replies) are stored.
    pub async fn act(&self, seat: &SeatId, choice: Choice, dice: Vec<i64>) -> Result<(), Refusal> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(Command::Act {
                seat: seat.clone(),
                choice,
                dice,
                reply,
            })
            .map_err(|_| Refusal::from("the table is closed"))?;
        answer
            .await
            .map_err(|_| Refusal::from("the table stopped while answering"))?
    }

    /// Replays the game under the module in `module_dir`, all or nothing. Every connection
    /// then hears of it (see [`TableHandle::reloads`]).
    pub fn rebase(&self, module_dir: std::path::PathBuf) -> Result<Rebased, String> {
        let (reply, answer) = std::sync::mpsc::channel();
        self.commands
            .send(Command::Rebase { module_dir, reply })
            .map_err(|_| "the table is closed".to_owned())?;
        answer
            .recv()
            .map_err(|_| "the table stopped while reloading".to_owned())?
    }

    /// Whether the table is in memory (it stops after a while with nobody connected).
    pub fn is_running(&self) -> bool {
        !self.stopped.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Counts a connection at `seat` while the returned guard lives; every connection's
    /// view says who is connected.
    pub fn arrive(&self, seat: &SeatId) -> Presence {
        if let Ok(mut present) = self.present.lock() {
            *present.entry(seat.clone()).or_default() += 1;
        }
        self.poke.send_modify(|n| *n += 1);
        Presence {
            seat: seat.clone(),
            present: Arc::clone(&self.present),
            poke: Arc::clone(&self.poke),
        }
    }

    /// Hands `seat` to its bot (`to` "bot"), or takes it back (`to` "human").
    pub async fn hand(&self, seat: &SeatId, to: &str) -> Result<(), String> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(Command::Hand {
                seat: seat.clone(),
                to: to.to_owned(),
                reply,
            })
            .map_err(|_| "the table is closed".to_owned())?;
        answer
            .await
            .map_err(|_| "the table stopped while answering".to_owned())?
    }

    /// `seat` asks to take back a move (`agree` `None`), or agrees to (or refuses) another
    /// seat's asking; what happened, in words.
    pub async fn undo(&self, seat: &SeatId, agree: Option<bool>) -> Result<String, String> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(Command::Undo {
                seat: seat.clone(),
                agree,
                reply,
            })
            .map_err(|_| "the table is closed".to_owned())?;
        answer
            .await
            .map_err(|_| "the table stopped while answering".to_owned())?
    }

    /// What the rules of module archive `hash` declare (their states, bots and hooks), if it
    /// is the module the table plays: a window draws the table with the module's data, and
    /// runs none of its scripts to learn them.
    pub async fn rules_of(&self, hash: &str) -> Option<chancery_core::module::RulesInfo> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(Command::Rules {
                hash: hash.to_owned(),
                reply,
            })
            .ok()?;
        answer.await.ok().flatten()
    }

    /// A receiver of the table's module reloads.
    pub fn reloads(&self) -> broadcast::Receiver<Arc<ReloadNote>> {
        self.reloads.subscribe()
    }

    /// A receiver that sees each change of the table.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changes.clone()
    }
}

/// Which values of the owner's the table's module plays with.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LoadChoice {
    /// The module's own demo values (its manifest's `demo`).
    Demo,
    /// None: a value the rules need is not entered.
    Plain,
    /// The host's own overlay (the owner's values), as its text: read, never written.
    Owner(String),
}

/// Who may take back a move at a table, as its host sets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum UndoRule {
    /// Nobody: a move is a move.
    Nobody,
    /// The seat that moved, until the next seat (a bot among them) moves.
    #[default]
    Mover,
    /// Any seat asks, and it is taken back once every other seat a person plays agrees:
    /// the last move a person made, with the bots' moves after it.
    Agreed,
}

impl UndoRule {
    /// The rule named `name` (`nobody`, `mover`, `agreed`).
    pub fn parse(name: &str) -> Result<UndoRule, String> {
        match name {
            "nobody" => Ok(UndoRule::Nobody),
            "mover" => Ok(UndoRule::Mover),
            "agreed" => Ok(UndoRule::Agreed),
            _ => Err(format!(
                "'{name}' is no undo rule: nobody, mover (the seat that moved, until the next seat moves) or agreed (every other person agrees)"
            )),
        }
    }

    /// The rule in words.
    pub fn words(self) -> &'static str {
        match self {
            UndoRule::Nobody => "nobody takes back a move",
            UndoRule::Mover => "the seat that moved takes it back, until the next seat moves",
            UndoRule::Agreed => "a move is taken back when every other person agrees",
        }
    }
}

/// A seat's request to take back the last move a person made, at a table whose rule is
/// [`UndoRule::Agreed`].
struct UndoAsk {
    /// Who asked.
    by: SeatId,
    /// The game goes back to just before this input.
    back_to: usize,
    /// The seats that agreed.
    agreed: std::collections::BTreeSet<SeatId>,
}

/// The table's game and how many of its inputs the store holds.
struct Game {
    session: Session,
    stored: usize,
    /// Who may take back a move.
    undo: UndoRule,
    /// A request to take back a move, waiting for the other people to agree.
    asked: Option<UndoAsk>,
    /// The hash of the module archive the table plays.
    module: String,
}

fn open_game(
    stored: &StoredTable,
    (dir, module): (&Path, Option<Arc<chancery_core::Module>>),
    options: &LoadOptions,
    store: &Store,
) -> anyhow::Result<Game> {
    let module = match module {
        Some(module) => module,
        None => Arc::new(chancery_core::load_module(dir, options).map_err(|d| {
            anyhow::anyhow!("the module of table {} does not load: {d}", stored.id)
        })?),
    };
    let mut session = chancery_core::start_game(module, stored.spec.clone())?;
    let inputs = store.inputs(&stored.id)?;
    let count = inputs.len();
    for (n, input) in inputs.into_iter().enumerate() {
        session.apply(input).map_err(|e| {
            anyhow::anyhow!("table {}: stored input {n} is refused: {e}", stored.id)
        })?;
    }
    Ok(Game {
        session,
        stored: count,
        undo: stored.undo,
        asked: None,
        module: stored.module.clone(),
    })
}

type Present = Arc<std::sync::Mutex<std::collections::BTreeMap<SeatId, usize>>>;

fn run(
    mut game: Game,
    (id, options, idle): (String, LoadOptions, std::time::Duration),
    writer: Writer,
    inbox: mpsc::Receiver<Command>,
    (changed, reloads, present): (
        Arc<watch::Sender<u64>>,
        broadcast::Sender<Arc<ReloadNote>>,
        Present,
    ),
) {
    // Bots whose turn it was when the server stopped play on.
    if persist_bots(&mut game, &id, &writer).unwrap_or(false) {
        changed.send_modify(|n| *n += 1);
    }
    loop {
        let command = match inbox.recv_timeout(idle) {
            Ok(command) => command,
            // Nobody here for a while: the table stops and frees its memory; it starts
            // again from the store when somebody connects.
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if present.lock().is_ok_and(|p| p.is_empty()) {
                    return;
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        match command {
            Command::View {
                seat,
                game: whole,
                reply,
            } => {
                let mut view = view_of(&mut game.session, &seat);
                if whole {
                    let seat_game =
                        crate::seat::SeatGame::of(&mut game.session, &seat, &game.module);
                    if let (Some(map), Ok(json)) =
                        (view.as_object_mut(), serde_json::to_value(seat_game))
                    {
                        map.insert("game".to_owned(), json);
                    }
                }
                let module = game.session.module().clone();
                let connected: Vec<String> = present
                    .lock()
                    .map(|p| {
                        p.keys()
                            .filter(|s| module.seats.contains(s.as_str()))
                            .map(|s| module.seat_name(s))
                            .collect()
                    })
                    .unwrap_or_default();
                if let Some(map) = view.as_object_mut() {
                    map.insert("connected".to_owned(), json!(connected));
                    map.insert("undo".to_owned(), undo_json(&game, &seat));
                }
                let _ = reply.send(view);
            }
            Command::Undo { seat, agree, reply } => {
                let asked_before = game.asked.is_some();
                let result = match agree {
                    None => undo(&mut game, &id, &writer, &seat),
                    Some(yes) => agree_undo(&mut game, &id, &writer, &seat, yes),
                };
                if result.is_ok() || asked_before != game.asked.is_some() {
                    changed.send_modify(|n| *n += 1);
                }
                let _ = reply.send(result);
            }
            Command::Rules { hash, reply } => {
                let rules = (hash == game.module).then(|| game.session.module().rules.clone());
                let _ = reply.send(rules);
            }
            Command::Hand { seat, to, reply } => {
                let result = hand(&mut game, &id, &writer, &seat, &to);
                if result.is_ok() {
                    changed.send_modify(|n| *n += 1);
                }
                let _ = reply.send(result);
            }
            Command::Act {
                seat,
                choice,
                dice,
                reply,
            } => {
                let result = act(&mut game, &id, &writer, seat, (choice, dice));
                if result.is_ok() {
                    changed.send_modify(|n| *n += 1);
                }
                let _ = reply.send(result);
            }
            Command::Rebase { module_dir, reply } => {
                let result = rebase(&mut game, &module_dir, &options).map(|note| {
                    let rebased = Rebased {
                        words: note.words_for(&SeatId::spectator()),
                        version: note.module.manifest.version.clone(),
                        inputs: game.session.history().len(),
                    };
                    let _ = reloads.send(Arc::new(note));
                    changed.send_modify(|n| *n += 1);
                    rebased
                });
                let _ = reply.send(result);
            }
        }
    }
}

/// The game replayed under the module in `dir`: the whole game, or nothing (a version that
/// refuses an input is not taken, so the stored inputs always replay).
fn rebase(game: &mut Game, dir: &Path, options: &LoadOptions) -> Result<ReloadNote, String> {
    let module = chancery_core::load_module(dir, options)
        .map_err(|d| format!("the new version does not load:\n{d}"))?;
    let module = Arc::new(module);
    let report = game
        .session
        .rebase_whole(module.clone())
        .map_err(|e| e.to_string())?;
    if let Some((n, why)) = &report.refused {
        return Err(format!(
            "the new version refuses input {n} of the game ({why}): the table plays on under the version it had"
        ));
    }
    // The module folder is named by the archive's hash.
    if let Some(hash) = dir.file_name().and_then(|n| n.to_str()) {
        game.module = hash.to_owned();
    }
    Ok(ReloadNote { report, module })
}

fn act(
    game: &mut Game,
    id: &str,
    store: &Writer,
    seat: SeatId,
    (choice, dice): (Choice, Vec<i64>),
) -> Result<(), Refusal> {
    let input = Input::Act {
        seat: Some(seat),
        choice,
        dice,
        by: Actor::Human,
    };
    game.session.apply(input).map_err(|e| Refusal {
        reason: e.to_string(),
        need: e.need().cloned(),
    })?;
    // A request to take back a move is about the position it was made in.
    game.asked = None;
    persist_bots(game, id, store)
        .map_err(|e| Refusal::from(format!("the table could not store it: {e}").as_str()))?;
    Ok(())
}

/// The seats a person plays, but `except`.
fn people_but(game: &Game, except: &SeatId) -> Vec<SeatId> {
    game.session
        .table()
        .seats
        .iter()
        .filter(|(s, c)| *s != except && matches!(c, chancery_core::Controller::Human))
        .map(|(s, _)| s.clone())
        .collect()
}

/// The table's undo rule and a request waiting for agreement, as `seat` reads them.
fn undo_json(game: &Game, seat: &SeatId) -> Json {
    let module = game.session.module();
    let asked = game.asked.as_ref().map(|ask| {
        let waiting: Vec<SeatId> = people_but(game, &ask.by)
            .into_iter()
            .filter(|s| !ask.agreed.contains(s))
            .collect();
        json!({
            "by": module.seat_name(&ask.by),
            "agreed": ask.agreed.iter().map(|s| module.seat_name(s)).collect::<Vec<_>>(),
            "waiting": waiting.iter().map(|s| module.seat_name(s)).collect::<Vec<_>>(),
            "yours": waiting.contains(seat),
        })
    });
    json!({"rule": game.undo, "words": game.undo.words(), "asked": asked})
}

/// `seat` asks to take back a move, as the table's rule allows: taken back at once (the
/// mover's own last move), or asked of the other people. What came of it, as a sentence.
fn undo(game: &mut Game, id: &str, store: &Writer, seat: &SeatId) -> Result<String, String> {
    let records = game.session.history().records();
    let module = game.session.module().clone();
    let mover = |input: &Input| -> Option<SeatId> {
        match input {
            Input::Act {
                seat: Some(s),
                by: Actor::Human,
                ..
            } => Some(s.clone()),
            Input::Manual { seat: Some(s), .. } => Some(s.clone()),
            _ => None,
        }
    };
    match game.undo {
        UndoRule::Nobody => {
            Err("at this table nobody takes back a move (the host's rule): play on".to_owned())
        }
        UndoRule::Mover => {
            let last = records
                .last()
                .ok_or_else(|| "nothing has been played yet".to_owned())?;
            match mover(&last.input) {
                Some(s) if &s == seat => {
                    let back_to = records.len() - 1;
                    take_back(game, id, store, back_to)?;
                    Ok("Your last move is taken back".to_owned())
                }
                _ => Err(format!(
                    "only the seat that moved last takes its move back, until the next seat moves; the last move was {}",
                    match mover(&last.input) {
                        Some(s) => format!("{}'s", module.seat_name(&s)),
                        None => "a bot's or the rules'".to_owned(),
                    }
                )),
            }
        }
        UndoRule::Agreed => {
            let back_to = records
                .iter()
                .rposition(|r| mover(&r.input).is_some())
                .ok_or_else(|| "no person has moved yet".to_owned())?;
            if people_but(game, seat).is_empty() {
                take_back(game, id, store, back_to)?;
                return Ok("The last move is taken back".to_owned());
            }
            game.asked = Some(UndoAsk {
                by: seat.clone(),
                back_to,
                agreed: Default::default(),
            });
            Ok("Asked: the move is taken back once every other person agrees".to_owned())
        }
    }
}

/// `seat` agrees to (or refuses) another seat's request to take back a move; once every
/// other person agrees, it is taken back.
fn agree_undo(
    game: &mut Game,
    id: &str,
    store: &Writer,
    seat: &SeatId,
    yes: bool,
) -> Result<String, String> {
    let Some(ask) = game.asked.as_mut() else {
        return Err("nobody is asking to take back a move".to_owned());
    };
    if &ask.by == seat {
        return Err("you asked: the others agree or refuse".to_owned());
    }
    if !yes {
        game.asked = None;
        return Ok("Refused: the move stands".to_owned());
    }
    ask.agreed.insert(seat.clone());
    let (by, back_to) = (ask.by.clone(), ask.back_to);
    let agreed = ask.agreed.clone();
    if people_but(game, &by).iter().all(|s| agreed.contains(s)) {
        game.asked = None;
        take_back(game, id, store, back_to)?;
        return Ok("Everybody agreed: the move is taken back".to_owned());
    }
    Ok("Agreed: waiting for the others".to_owned())
}

/// The game goes back to just before input `back_to`: the store forgets the inputs from
/// there on (committed before anyone hears of it), then the session goes back.
fn take_back(game: &mut Game, id: &str, store: &Writer, back_to: usize) -> Result<(), String> {
    store
        .truncate(id, back_to)
        .map_err(|e| format!("the table could not store it: {e}"))?;
    game.session.goto(back_to).map_err(|e| e.to_string())?;
    game.session.forget_undone();
    game.stored = back_to;
    persist_bots(game, id, store).map_err(|e| format!("the table could not store it: {e}"))?;
    Ok(())
}

/// `seat` handed to its bot, or taken back by its person: an input of the game, so it
/// replays; the bot plays at once if the seat decides.
fn hand(game: &mut Game, id: &str, store: &Writer, seat: &SeatId, to: &str) -> Result<(), String> {
    let spec = game.session.spec().clone();
    let controller = chancery_core::session::parse_controller(
        game.session.module(),
        spec.scenario.as_str(),
        &spec.options,
        seat.as_str(),
        to,
    )?;
    game.session
        .apply(Input::Manual {
            seat: Some(seat.clone()),
            change: chancery_core::Manual::SetController {
                seat: seat.clone(),
                controller,
            },
        })
        .map_err(|e| e.to_string())?;
    persist_bots(game, id, store).map_err(|e| format!("the table could not store it: {e}"))?;
    Ok(())
}

/// Runs the bots, then commits every input not yet stored; whether any was.
fn persist_bots(game: &mut Game, id: &str, store: &Writer) -> anyhow::Result<bool> {
    run_bots(&mut game.session);
    let records = game.session.history().records();
    if records.len() <= game.stored {
        return Ok(false);
    }
    let inputs: Vec<Input> = records[game.stored..]
        .iter()
        .map(|r| r.input.clone())
        .collect();
    store.append(id, game.stored, &inputs)?;
    game.stored = records.len();
    Ok(true)
}

/// Lets the bots play while they decide. A bot's die at a table of physical dice is rolled
/// here (nobody at the server rolls for it) and kept with its input, so the game replays.
/// A bot that fails leaves its seat's decision to the table (the view says who waits).
fn run_bots(session: &mut Session) {
    for _ in 0..BOT_LIMIT {
        let Ok(Some((_, _, mut input))) = session.bot_input() else {
            return;
        };
        loop {
            match session.apply(input.clone()) {
                Ok(()) => break,
                Err(e) => match (e.need(), &mut input) {
                    (Some(chancery_core::Need::Die { sides }), Input::Act { dice, .. })
                        if dice.len() < 1_000 =>
                    {
                        dice.push(server_die(*sides));
                    }
                    _ => return,
                },
            }
        }
    }
}

/// A die of `sides` sides rolled by the server, from the operating system's randomness.
fn server_die(sides: u32) -> i64 {
    let mut bytes = [0u8; 8];
    let _ = getrandom::fill(&mut bytes);
    (u64::from_le_bytes(bytes) % u64::from(sides.max(1))) as i64 + 1
}

/// What `seat` may know of the game: the state as it sees it (`state --seat --json`), and
/// its decision: the actions it may take now, or who the table waits for.
pub fn view_of(session: &mut Session, seat: &SeatId) -> Json {
    let extra = session.view_data(Some(seat)).unwrap_or(Value::Nil);
    let mut view =
        chancery_core::view::state_json(session.table(), &session.log(), Some(seat), &extra);
    let module = session.module().clone();
    let names =
        |seats: &[SeatId]| -> Vec<String> { seats.iter().map(|s| module.seat_name(s)).collect() };
    let decision = match session.prompt() {
        Ok(Some(prompt)) => {
            let mine = (!prompt.answered.contains(seat))
                .then(|| prompt.ask_for(Some(seat)).ok())
                .flatten()
                .filter(|ask| ask.seat.as_ref() == Some(seat) || ask.seat.is_none());
            match mine {
                Some(ask) => json!({
                    "yours": true,
                    "text": prompt.text,
                    "actions": ask.actions.iter().map(|a| json!({
                        "label": a.words(),
                        "choice": a.choice().to_string(),
                        "name": a.name,
                        "arg": a.arg.to_json(),
                        "range": a.range.map(|(lo, hi)| json!([lo, hi])),
                    })).collect::<Vec<_>>(),
                }),
                None => {
                    let waiting: Vec<SeatId> = prompt
                        .asks
                        .iter()
                        .filter_map(|a| a.seat.clone())
                        .filter(|s| !prompt.answered.contains(s))
                        .collect();
                    json!({
                        "yours": false,
                        "text": prompt.text,
                        "waiting": names(&waiting),
                    })
                }
            }
        }
        Ok(None) => json!({"yours": false, "over": true}),
        Err(e) => json!({"yours": false, "error": e.to_string()}),
    };
    if let Some(map) = view.as_object_mut() {
        map.insert("decision".to_owned(), decision);
        map.insert("seat".to_owned(), json!(seat.to_string()));
    }
    view
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_server_s_die_shows_each_face_and_no_other() {
        let mut seen = [0u32; 6];
        for _ in 0..600 {
            let face = super::server_die(6);
            assert!((1..=6).contains(&face), "{face}");
            seen[(face - 1) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }
}
