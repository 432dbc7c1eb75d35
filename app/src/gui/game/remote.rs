//! A seat at a table held on a server, played in this window: the server sends the seat's
//! game (its table redacted for the seat, the log as it may read it, its share of the
//! decision) after every change, and the window draws it with the module's data, fetched
//! once by its hash and kept in a cache folder. The window runs none of the module's scripts:
//! an answer goes to the server, and the game the server sends next replaces the one shown.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chancery_core::module::{Depth, RulesInfo};
use chancery_core::watch::Waker;
use chancery_core::{Input, LoadOptions, Module, OverlayChoice, SeatId, Session};
use chancery_server::archive::Archive;
use chancery_server::client::{Heard, Live, parse_link};
use chancery_server::seat::SeatGame;

use super::{GameOptions, GameView};

/// Whether the connection is up, or why not.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkState {
    /// Not up yet.
    Connecting,
    /// Up: the table is live.
    Up,
    /// Lost: why; it is being tried again, and an answer given meanwhile waits.
    Lost(String),
    /// The server does not let this link in: why.
    Shut(String),
}

/// The connection of a window to its seat at a table.
pub struct Remote {
    live: Live,
    /// The server's address (the link without its token, which is never shown).
    server: String,
    /// The seat the link acts for (the spectator's id for a spectator's link).
    seat: Option<SeatId>,
    /// Where module archives are kept, a folder each named by its hash.
    cache: PathBuf,
    modules: BTreeMap<String, Arc<Module>>,
    /// A game whose module is being fetched.
    waiting: Option<Box<SeatGame>>,
    /// The module asked for.
    asked: Option<String>,
    /// Whether the connection has ever been up.
    was_up: bool,
    /// Wakes the window when something is heard (set once the window is there).
    wake: Arc<Mutex<Option<Waker>>>,
    /// The connection's state.
    pub state: LinkState,
    /// The seats whose people are connected now, by name.
    pub connected: Vec<String>,
    /// The table's chat as the seat may read it, oldest first.
    pub chat: Vec<chancery_server::chat::ChatLine>,
    /// The line being typed, and the seat it is said to (`None`: everyone).
    pub draft: (String, Option<SeatId>),
    /// The table's umpire, if it has one.
    pub umpire: Option<SeatId>,
    /// The last answer sent (sent again, with its die, when the rules need one).
    sent: Option<Input>,
    /// Who may take back a move at the table, in words.
    pub undo_rule: String,
    /// A request to take back a move, waiting for agreement.
    pub undo_asked: Option<UndoAsked>,
}

/// A seat's request to take back the last move, waiting for the other people.
#[derive(Clone, Debug, PartialEq)]
pub struct UndoAsked {
    /// Who asked (a seat's name).
    pub by: String,
    /// Who is still to agree (names).
    pub waiting: Vec<String>,
    /// Whether this seat is asked.
    pub yours: bool,
}

/// What the window does with what was heard.
enum News {
    Game(Box<Session>),
    Reload(String),
    Refused(String, Option<chancery_core::Need>),
    Said(String),
}

impl Remote {
    /// Joins the table of invitation `link`; module archives are kept under `cache`.
    pub fn join(link: &str, cache: PathBuf) -> anyhow::Result<Remote> {
        let (server, _) = parse_link(link)?;
        let wake: Arc<Mutex<Option<Waker>>> = Arc::default();
        let slot = Arc::clone(&wake);
        let live = Live::join(link, move || {
            if let Some(wake) = slot.lock().ok().and_then(|w| w.clone()) {
                wake();
            }
        })?;
        Ok(Remote {
            live,
            server,
            seat: None,
            cache,
            modules: BTreeMap::new(),
            waiting: None,
            asked: None,
            was_up: false,
            wake,
            state: LinkState::Connecting,
            connected: Vec::new(),
            chat: Vec::new(),
            draft: (String::new(), None),
            umpire: None,
            sent: None,
            undo_rule: String::new(),
            undo_asked: None,
        })
    }

    /// The server's address.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The seat this window plays (once the first game has come).
    pub fn seat(&self) -> Option<&SeatId> {
        self.seat.as_ref()
    }

    fn wake_with(&self, wake: Waker) {
        if let Ok(mut slot) = self.wake.lock() {
            *slot = Some(wake);
        }
    }

    /// Waits up to `limit` for the seat's first game.
    fn first_game(&mut self, limit: Duration) -> anyhow::Result<Session> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(session) = self.try_first().map_err(anyhow::Error::msg)? {
                return Ok(session);
            }
            if Instant::now() >= deadline {
                anyhow::bail!(
                    "the table at {} did not answer within {limit:?}",
                    self.server
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The seat's first game, if it has come; an error if it will not (the server cannot be
    /// reached, or does not let the link in).
    pub fn try_first(&mut self) -> Result<Option<Session>, String> {
        for news in self.poll() {
            match news {
                News::Game(session) => return Ok(Some(*session)),
                News::Refused(why, _) => return Err(why),
                News::Reload(_) | News::Said(_) => {}
            }
        }
        match &self.state {
            LinkState::Shut(why) => Err(format!("the server does not let this link in: {why}")),
            LinkState::Lost(why) if !self.was_up => Err(format!(
                "{why}: is the server running, and is the link whole?"
            )),
            _ => Ok(None),
        }
    }

    /// What was heard since the last call, as news for the window.
    fn poll(&mut self) -> Vec<News> {
        let mut news = Vec::new();
        for heard in self.live.heard() {
            match heard {
                Heard::Connected => {
                    self.state = LinkState::Up;
                    self.was_up = true;
                }
                Heard::Lost(why) => self.state = LinkState::Lost(why),
                Heard::Shut(why) => self.state = LinkState::Shut(why),
                Heard::Refused(why, need) => news.push(News::Refused(why, need)),
                Heard::Reload(report) => news.push(News::Reload(report)),
                Heard::Chat(lines) => {
                    // Those kept are sent again after a reconnection: each is taken once.
                    let last = self.chat.last().map_or(0, |l| l.n);
                    self.chat.extend(lines.into_iter().filter(|l| l.n > last));
                    let over = self.chat.len().saturating_sub(chancery_server::chat::KEPT);
                    self.chat.drain(..over);
                }
                Heard::Said(words) => news.push(News::Said(words)),
                Heard::Game {
                    game,
                    connected,
                    undo,
                } => {
                    self.connected = connected;
                    self.undo_rule = undo["words"].as_str().unwrap_or_default().to_owned();
                    let names = |key: &str| -> Vec<String> {
                        undo["asked"][key]
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .filter_map(|n| n.as_str().map(str::to_owned))
                                    .collect()
                            })
                            .unwrap_or_default()
                    };
                    self.undo_asked = undo["asked"].is_object().then(|| UndoAsked {
                        by: undo["asked"]["by"].as_str().unwrap_or_default().to_owned(),
                        waiting: names("waiting"),
                        yours: undo["asked"]["yours"] == true,
                    });
                    self.seat = Some(game.redaction.seat.clone());
                    self.umpire = game.umpire.clone();
                    match self.module(&game.module, game.demo) {
                        Some(module) => news.push(News::Game(Box::new(game.session(module)))),
                        None => {
                            if self.asked.as_ref() != Some(&game.module) {
                                self.live.ask_module(&game.module);
                                self.asked = Some(game.module.clone());
                            }
                            self.waiting = Some(game);
                        }
                    }
                }
                Heard::Archive(archive) => {
                    let (archive, rules) = *archive;
                    if let Err(why) = self.keep(&archive, &rules) {
                        news.push(News::Refused(why, None));
                        continue;
                    }
                    if let Some(game) = self.waiting.take() {
                        match self.module(&game.module, game.demo) {
                            Some(module) => news.push(News::Game(Box::new(game.session(module)))),
                            None => news.push(News::Refused(
                                format!(
                                    "the module {} sent by the server does not load here",
                                    game.module
                                ),
                                None,
                            )),
                        }
                    }
                }
            }
        }
        news
    }

    /// The folder of module archive `hash`.
    fn folder(&self, hash: &str) -> Option<PathBuf> {
        // A hash is hex: nothing else names a folder here.
        (!hash.is_empty() && hash.chars().all(|c| c.is_ascii_hexdigit()))
            .then(|| self.cache.join(hash))
    }

    /// Keeps module `archive` (asked for, and checked to be what its hash says) in the cache,
    /// with what its rules declare.
    fn keep(&self, archive: &Archive, rules: &RulesInfo) -> Result<(), String> {
        let hash = archive.hash();
        if self.asked.as_deref() != Some(hash.as_str()) {
            return Err("the server sent a module that was not asked for".to_owned());
        }
        archive.check()?;
        let dir = self
            .folder(&hash)
            .ok_or_else(|| "the module's hash is not one".to_owned())?;
        let rules_json = serde_json::to_vec(rules).map_err(|e| e.to_string())?;
        archive
            .unpack(&dir)
            .and_then(|()| {
                Ok(chancery_core::files::write_atomic(
                    &dir.with_extension("rules.json"),
                    &rules_json,
                )?)
            })
            .map_err(|e| format!("cannot keep the table's module in {}: {e}", dir.display()))
    }

    /// Module `hash` loaded from the cache (its demo values with `demo`), if it is there.
    fn module(&mut self, hash: &str, demo: bool) -> Option<Arc<Module>> {
        let key = format!("{hash}{}", if demo { "+demo" } else { "" });
        if let Some(module) = self.modules.get(&key) {
            return Some(module.clone());
        }
        let dir = self.folder(hash)?;
        let rules: RulesInfo =
            serde_json::from_slice(&std::fs::read(dir.with_extension("rules.json")).ok()?).ok()?;
        if !dir.join("module.ron").exists() {
            return None;
        }
        let options = LoadOptions {
            overlay: match demo {
                true => OverlayChoice::Demo,
                false => OverlayChoice::Off,
            },
            strict: false,
        };
        // The rules are what the server read from them: no script runs here.
        let said = |_: &Module, _: Depth| Ok(rules.clone());
        let module = Arc::new(Module::load_with(&dir, &options, &said).ok()?);
        self.modules.insert(key, module.clone());
        Some(module)
    }
}

impl GameView {
    /// The game of the seat invitation `link` is for, at its table on a server (waiting up
    /// to `limit` for it); module archives are kept under `cache`.
    pub fn joined(link: &str, cache: PathBuf, limit: Duration) -> anyhow::Result<GameView> {
        let mut remote = Remote::join(link, cache)?;
        let session = remote.first_game(limit)?;
        Ok(GameView::at_table(remote, session))
    }

    /// The game `session` (the first `remote` brought) played at its table on the server.
    pub fn at_table(remote: Remote, session: Session) -> GameView {
        let mut view = GameView::new(session, GameOptions::default());
        view.panels.save_path = format!(
            "{}-{}-view.ron",
            view.session.module().id(),
            remote.seat.as_ref().map_or("seat", |s| s.as_str())
        );
        view.remote = Some(remote);
        view.update_viewer();
        view
    }

    /// The table server this game is played on, if it is.
    pub fn remote(&self) -> Option<&Remote> {
        self.remote.as_ref()
    }

    pub(super) fn remote_wake_with(&self, wake: Waker) {
        if let Some(remote) = &self.remote {
            remote.wake_with(wake);
        }
    }

    /// Takes in what the server sent: the seat's new game, a reload's report, a refusal.
    pub(super) fn poll_remote(&mut self) {
        let Some(remote) = self.remote.as_mut() else {
            return;
        };
        for news in remote.poll() {
            match news {
                News::Game(session) => {
                    // At a physical board, what the table's new moves change on it.
                    let before = self.physical_board.then(|| self.session.table().clone());
                    let last = session.log().last().cloned();
                    self.session = *session;
                    if let Some(before) = before {
                        let words = last
                            .filter(|e| e.shows_heading())
                            .map(|e| e.heading(self.session.module()))
                            .unwrap_or_else(|| "the last move".to_owned());
                        self.push_checklist(format!("After {words}"), &before);
                    }
                    self.standings = None;
                    self.pending = None;
                    self.preview = None;
                    self.update_viewer();
                }
                News::Reload(report) => {
                    self.reload_report = Some((
                        true,
                        format!("The host sent a new version of the module.\n{report}"),
                    ));
                }
                // The answer needs a die its person rolls: the window asks for it, and
                // sends the answer again with it.
                News::Refused(why, need) => {
                    match (need, self.remote.as_ref().and_then(|r| r.sent.clone())) {
                        (Some(need), Some(input)) => self.wait_for(Some(input), &need),
                        _ => self.error = Some(why),
                    }
                }
                News::Said(words) => {
                    self.error = None;
                    self.status = Some(words);
                }
            }
        }
    }

    /// Sends a person's input to the server, if the game is played there: `false` if it is
    /// not (the input is played here).
    pub(super) fn send_remote(&mut self, input: &Input) -> bool {
        let Some(remote) = &self.remote else {
            return false;
        };
        match input {
            Input::Act {
                seat, choice, dice, ..
            } => {
                if seat.is_some() && seat.as_ref() != remote.seat.as_ref() {
                    self.error = Some(
                        "At a table on a server, you answer for your own seat only.".to_owned(),
                    );
                    return true;
                }
                remote.live.answer(choice, dice);
                self.error = None;
                let up = remote.state == LinkState::Up;
                if let Some(remote) = self.remote.as_mut() {
                    remote.sent = Some(input.clone());
                }
                self.status = Some(match up {
                    true => "Answer sent.".to_owned(),
                    false => "Answer kept: it goes to the table once the connection is back."
                        .to_owned(),
                });
            }
            _ => {
                self.error = Some(
                    "At a table on a server, only answers to the decision are sent: changes by hand are not played online yet."
                        .to_owned(),
                )
            }
        }
        true
    }

    /// Says the line typed in the chat, to everyone or to the seat picked.
    pub fn say_draft(&mut self) {
        let Some(remote) = self.remote.as_mut() else {
            return;
        };
        let (text, to) = &remote.draft;
        match chancery_server::chat::clean(text) {
            Ok(text) => {
                remote.live.say(&text, to.as_ref());
                remote.draft.0.clear();
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// The table on a server, to type a line into its chat.
    pub fn remote_mut(&mut self) -> Option<&mut Remote> {
        self.remote.as_mut()
    }

    /// Takes back this seat's move as the table's rule allows, or (`agree`) agrees to or
    /// refuses another seat's asking: the server says what came of it.
    pub fn undo_at_table(&mut self, agree: Option<bool>) {
        if let Some(remote) = &self.remote {
            remote.live.undo(agree);
        }
    }

    /// Hands this seat to its bot (`to` "bot") or takes it back (`to` "human").
    pub fn hand_seat(&mut self, to: &str) {
        if let Some(remote) = &self.remote {
            remote.live.hand(to);
        }
    }

    /// An error for a command that only a game played here can carry out, if this one is
    /// played on a server.
    pub(super) fn refuse_remote(&mut self, what: &str) -> bool {
        if self.remote.is_none() {
            return false;
        }
        self.error = Some(format!(
            "{what} is not played at a table on a server: the server holds the game."
        ));
        true
    }
}
