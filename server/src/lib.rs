//! Chancery's table server: tables held on a server, each seat played on its own machine.
//!
//! The server holds many tables. Each is a game session (rules and bots run here, never on a
//! client) on a thread of its own ([`table`]), its module an archive named by its hash
//! ([`archive`]), its inputs committed to an SQLite store before they are acknowledged
//! ([`store`]). People reach a table through WebSocket with an invitation: an unguessable
//! token that acts for one seat, or watches as a spectator. A connection receives its seat's
//! view (the table as that seat may see it, and its decision) after every change, and
//! nothing else: no other hand, no other seat's private state, no seed while anything is
//! hidden. [`client`] is the other end, for the command line and the tests.
//!
//! The protocol, one JSON text frame each way:
//! - to host: `{"host": {"archive": …, "spec": …, "load": "Demo"|"Plain"}}`, answered
//!   `{"hosted": {"table": ID, "invitations": {SEAT: TOKEN, "spectator": TOKEN,
//!   "host": TOKEN}}}`;
//! - to join: `{"join": TOKEN}`, answered by `{"view": …}` now and after every change;
//!   `{"join": TOKEN, "game": true}` (a window that draws the table): each view carries
//!   the seat's whole game too (see [`seat::SeatGame`]), and `{"module": HASH}` is answered
//!   `{"archive": …}`, the module the table plays, to draw it with;
//! - to answer: `{"act": {"name": …, "arg": …}}`, answered by an error or the next view;
//!   at a table of physical dice, `"dice": [N…]` are the dice the seat's person rolled,
//!   and an answer that needs one more is refused with `"need": {"Die": {"sides": N}}`;
//! - to hand one's seat to its bot, or take it back: `{"seat_to": "bot"|"human"}`;
//! - to take back a move as the table's undo rule allows: `{"undo": true}`; to agree to
//!   (or refuse) another seat's asking: `{"undo_agree": true|false}`; each view says the
//!   rule and a request waiting (`undo`);
//! - the module versions the table has played: `{"versions": true}`, answered
//!   `{"versions": [{"hash", "version", "from_input", "at"}…]}`;
//! - to say a line in the table's chat: `{"say": {"text": …}}`, or the umpire's private
//!   word to one seat (a seat's to the umpire) `{"say": {"text": …, "to": SEAT}}`,
//!   answered `{"said": N}`; a joined connection receives `{"chat": [LINE…]}` with the
//!   lines kept when it joins, then each new line its seat may read;
//! - the host's new module version: `{"reload": {"token": HOST_TOKEN, "archive": …}}`,
//!   answered `{"reloaded": REPORT}`; every joined connection then receives
//!   `{"reload": REPORT}` in its own seat's words, and its new view.
//!
//! An error is `{"error": "what is wrong and what to do"}`; a frame larger than
//! [`MAX_FRAME`], or more than [`MAX_RATE`] frames a second, closes the connection.

pub mod archive;
pub mod chat;
pub mod client;
pub mod seat;
pub mod store;
pub mod table;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use chancery_core::{Choice, GameSpec, SeatId, Value};
use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};
use sha2::Digest as _;

use crate::archive::Archive;
use crate::store::{Role, Store, StoredTable, new_token};
use crate::table::{LoadChoice, TableHandle};

/// The largest frame a client may send: a module archive and its spec.
pub const MAX_FRAME: usize = archive::MAX_BYTES + (64 << 10);
/// The most frames a second a connection may send, on average over a few seconds.
pub const MAX_RATE: f64 = 50.0;
/// A connection that says nothing for this long after it opens is closed.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// A connection whose reader takes no frame for this long is closed: its views are not kept
/// waiting for it.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(20);

/// What a host sends to open a table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HostRequest {
    /// The module.
    pub archive: Archive,
    /// The scenario, seed, seats (people or bots) and options.
    pub spec: GameSpec,
    /// Whose values the module plays with.
    pub load: LoadChoice,
    /// The game's inputs so far, when a saved game moves to the server (none for a new
    /// one).
    #[serde(default)]
    pub inputs: Vec<chancery_core::Input>,
    /// Who may take back a move.
    #[serde(default)]
    pub undo: crate::table::UndoRule,
}

/// What the server answers a host: the table and an invitation for each seat and for
/// spectators.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Hosted {
    /// The table's id.
    pub table: String,
    /// Each seat's token, and the spectators' under `spectator`.
    pub invitations: BTreeMap<String, String>,
}

/// The server: its data folder, its store and the tables it runs.
pub struct Server {
    dir: PathBuf,
    store: Mutex<Store>,
    /// Commits every table's inputs, those that come together in one transaction.
    writer: crate::store::Writer,
    tables: Mutex<BTreeMap<String, TableHandle>>,
    /// One table starts at a time (a start replays its game).
    starting: Mutex<()>,
    /// A table nobody is connected to for this long stops, freeing its memory; the next
    /// connection starts it again from the store.
    idle: Duration,
}

/// How long a table nobody is connected to stays in memory, unless told otherwise.
pub const IDLE: Duration = Duration::from_secs(600);

impl Server {
    /// Opens the server's data in `dir`, tables stopping after [`IDLE`] without a
    /// connection.
    pub fn open(dir: &Path) -> anyhow::Result<Arc<Server>> {
        Server::open_with(dir, IDLE)
    }

    /// Opens the server's data in `dir`. Its tables start when somebody first connects to
    /// them (their inputs replayed), and stop after `idle` without a connection.
    pub fn open_with(dir: &Path, idle: Duration) -> anyhow::Result<Arc<Server>> {
        let store = Store::open(dir)?;
        Ok(Arc::new(Server {
            dir: dir.to_path_buf(),
            store: Mutex::new(store),
            writer: crate::store::Writer::start(dir)?,
            tables: Mutex::new(BTreeMap::new()),
            starting: Mutex::new(()),
            idle,
        }))
    }

    /// How a table's module is loaded: with its demo values, none, or the host's overlay
    /// (kept in the data folder by its hash, and read only).
    fn load_options(&self, load: &LoadChoice) -> anyhow::Result<chancery_core::LoadOptions> {
        use chancery_core::OverlayChoice;
        let overlay = match load {
            LoadChoice::Demo => OverlayChoice::Demo,
            LoadChoice::Plain => OverlayChoice::Off,
            LoadChoice::Owner(text) => {
                let dir = self.dir.join("overlays");
                std::fs::create_dir_all(&dir)?;
                let path = dir.join(format!("{}.ron", hex::encode(sha2::Sha256::digest(text))));
                if !path.exists() {
                    chancery_core::files::write_atomic(&path, text.as_bytes())?;
                }
                OverlayChoice::NamedBySave(path)
            }
        };
        Ok(chancery_core::LoadOptions {
            overlay,
            strict: false,
        })
    }

    /// How many tables are in memory now.
    pub fn running(&self) -> usize {
        self.tables
            .lock()
            .map(|t| t.values().filter(|h| h.is_running()).count())
            .unwrap_or(0)
    }

    /// Table `id`, started if it is not running.
    fn table(&self, id: &str) -> Result<TableHandle, String> {
        let running = |server: &Server| -> Result<Option<TableHandle>, String> {
            Ok(server
                .tables
                .lock()
                .map_err(|_| "the tables' lock is poisoned".to_owned())?
                .get(id)
                .filter(|h| h.is_running())
                .cloned())
        };
        if let Some(handle) = running(self)? {
            return Ok(handle);
        }
        let _one = self
            .starting
            .lock()
            .map_err(|_| "the tables' lock is poisoned".to_owned())?;
        if let Some(handle) = running(self)? {
            return Ok(handle);
        }
        let stored = self
            .lock_store()
            .map_err(|e| e.to_string())?
            .table(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "this table is not on this server".to_owned())?;
        self.start_table(stored, None)
            .map_err(|e| format!("the table cannot start: {e}"))
    }

    fn lock_store(&self) -> anyhow::Result<std::sync::MutexGuard<'_, Store>> {
        self.store
            .lock()
            .map_err(|_| anyhow::anyhow!("the store's lock is poisoned"))
    }

    /// Starts a stored table: its module unpacked (once) and loaded (unless `module` is
    /// that module, loaded already), its inputs replayed.
    fn start_table(
        &self,
        table: StoredTable,
        module: Option<Arc<chancery_core::Module>>,
    ) -> anyhow::Result<TableHandle> {
        let module_dir = self.dir.join("modules").join(&table.module);
        if !module_dir.join("module.ron").exists() {
            let archive = self
                .lock_store()?
                .module(&table.module)?
                .ok_or_else(|| anyhow::anyhow!("its module {} is missing", table.module))?;
            archive.unpack(&module_dir)?;
        }
        let id = table.id.clone();
        let options = self.load_options(&table.load)?;
        let handle = TableHandle::start(
            table,
            (&module_dir, options, module),
            (Store::open(&self.dir)?, self.writer.clone()),
            self.idle,
        )?;
        self.tables
            .lock()
            .map_err(|_| anyhow::anyhow!("the tables' lock is poisoned"))?
            .insert(id, handle.clone());
        Ok(handle)
    }

    /// Opens a table for `request`: checks and keeps its module, stores the table and its
    /// invitations, starts it. Returns the invitations.
    pub fn host(&self, request: HostRequest) -> Result<Hosted, String> {
        request.archive.check()?;
        let id = new_token().map_err(|e| e.to_string())?[..16].to_owned();
        let hash = {
            let store = self.lock_store().map_err(|e| e.to_string())?;
            store
                .put_module(&request.archive)
                .map_err(|e| e.to_string())?
        };
        let module_dir = self.dir.join("modules").join(&hash);
        if !module_dir.join("module.ron").exists() {
            request
                .archive
                .unpack(&module_dir)
                .map_err(|e| format!("the module cannot be unpacked: {e}"))?;
        }
        // The module is checked as any module is before a table plays it.
        let options = self
            .load_options(&request.load)
            .map_err(|e| e.to_string())?;
        let module = Arc::new(
            chancery_core::load_module(&module_dir, &options)
                .map_err(|d| format!("the module does not load:\n{d}"))?,
        );
        // A saved game's inputs must replay here before the table keeps them.
        if !request.inputs.is_empty() {
            let mut trial = chancery_core::start_game(Arc::clone(&module), request.spec.clone())
                .map_err(|e| format!("the game does not start: {e}"))?;
            for (n, input) in request.inputs.iter().enumerate() {
                trial.apply(input.clone()).map_err(|e| {
                    format!(
                        "the saved game does not replay here: input {} is refused ({e})",
                        n + 1
                    )
                })?;
            }
        }
        let mut roles: Vec<Role> = module
            .seats
            .iter()
            .filter(|s| {
                module
                    .scenarios
                    .get(request.spec.scenario.as_str())
                    .is_none_or(|sc| module.scenario_seats(sc).contains(&s.id))
            })
            .map(|s| Role::Seat(s.id.clone()))
            .collect();
        roles.extend([Role::Spectator, Role::Host]);
        let mut invitations = Vec::new();
        for role in roles {
            invitations.push((role, new_token().map_err(|e| e.to_string())?));
        }
        let table = StoredTable {
            id: id.clone(),
            module: hash,
            spec: request.spec,
            load: request.load,
            undo: request.undo,
        };
        {
            let mut store = self.lock_store().map_err(|e| e.to_string())?;
            store
                .create_table(&table, &invitations)
                .map_err(|e| e.to_string())?;
            store
                .append(&id, 0, &request.inputs)
                .map_err(|e| e.to_string())?;
            store
                .add_version(
                    &id,
                    &table.module,
                    &module.manifest.version,
                    request.inputs.len(),
                )
                .map_err(|e| e.to_string())?;
        }
        self.start_table(table, Some(module))
            .map_err(|e| format!("the table does not start: {e}"))?;
        Ok(Hosted {
            table: id,
            invitations: invitations
                .into_iter()
                .map(|(role, token)| {
                    let key = match role {
                        Role::Seat(seat) => seat.to_string(),
                        Role::Spectator => "spectator".to_owned(),
                        Role::Host => "host".to_owned(),
                    };
                    (key, token)
                })
                .collect(),
        })
    }

    /// The table an invitation lets in, and its role there.
    fn join(&self, token: &str) -> Result<(String, TableHandle, Role), String> {
        let invitation = self
            .lock_store()
            .map_err(|e| e.to_string())?
            .invitation(token)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| {
                "this invitation is not one of this server's: ask the host for your link".to_owned()
            })?;
        let table = self.table(&invitation.table)?;
        Ok((invitation.table, table, invitation.role))
    }

    /// A new version of table `id`'s module, sent by its host: checked and loaded as any
    /// module is, then the game replayed under it. A version that does not replay the whole
    /// game is refused, and the table plays on as it was. Returns the report in the host's
    /// (a spectator's) words.
    fn reload(&self, id: &str, table: &TableHandle, archive: &Archive) -> Result<String, String> {
        archive.check()?;
        let hash = self
            .lock_store()
            .map_err(|e| e.to_string())?
            .put_module(archive)
            .map_err(|e| e.to_string())?;
        let module_dir = self.dir.join("modules").join(&hash);
        if !module_dir.join("module.ron").exists() {
            archive
                .unpack(&module_dir)
                .map_err(|e| format!("the module cannot be unpacked: {e}"))?;
        }
        let rebased = table.rebase(module_dir)?;
        self.lock_store()
            .map_err(|e| e.to_string())?
            .set_module(id, &hash, &rebased.version, rebased.inputs)
            .map_err(|e| e.to_string())?;
        Ok(rebased.words)
    }
}

/// The server's routes: one WebSocket endpoint, `/ws`.
pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/ws", get(upgrade))
        .route(
            "/",
            get(|| async { "Chancery table server: connect with `chancery join LINK`.\n" }),
        )
        .with_state(server)
}

/// Serves `server` on `listener` until the process ends.
pub async fn serve(server: Arc<Server>, listener: tokio::net::TcpListener) -> anyhow::Result<()> {
    use axum::serve::ListenerExt;
    // Each frame goes out at once: a view waits for no delayed acknowledgement.
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
    axum::serve(listener, router(server)).await?;
    Ok(())
}

/// Binds `addr` and serves the data folder `dir` (the command line's `chancery serve`).
pub fn run(
    addr: SocketAddr,
    dir: &Path,
    idle: Duration,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let server = Server::open_with(dir, idle)?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        writeln!(
            say,
            "Serving the tables of {} on ws://{}/ws",
            dir.display(),
            listener.local_addr()?
        )?;
        say.flush()?;
        serve(server, listener).await
    })
}

async fn upgrade(ws: WebSocketUpgrade, State(server): State<Arc<Server>>) -> Response {
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| connection(socket, server))
}

/// Counts a connection's frames: at most [`MAX_RATE`] a second, with a burst of a few
/// seconds' worth.
struct Rate {
    tokens: f64,
    at: Instant,
}

impl Rate {
    fn allow(&mut self) -> bool {
        self.allow_at(MAX_RATE, MAX_RATE * 4.0)
    }

    /// Whether one more is allowed at `rate` a second, with a burst of `burst`.
    fn allow_at(&mut self, rate: f64, burst: f64) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * rate).min(burst);
        self.at = now;
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}

/// Sends `json`; `false` if the connection is gone, or its reader has not taken a frame for
/// [`SEND_TIMEOUT`] (a reader that never reads holds nothing of the server's for longer).
async fn send(socket: &mut WebSocket, json: Json) -> bool {
    let sent = socket.send(Message::Text(json.to_string().into()));
    matches!(tokio::time::timeout(SEND_TIMEOUT, sent).await, Ok(Ok(())))
}

/// The connection's first frame, which says what it is for; `None` (the sender told why)
/// when it is not a JSON text frame in time.
async fn hello(socket: &mut WebSocket) -> Option<Json> {
    let first = match tokio::time::timeout(HELLO_TIMEOUT, socket.recv()).await {
        Ok(Some(Ok(Message::Text(text)))) => text,
        Ok(Some(Ok(_))) => {
            let _ = send(
                socket,
                json!({"error": "send a JSON text frame: {\"join\": TOKEN} or {\"host\": …}"}),
            )
            .await;
            return None;
        }
        _ => return None,
    };
    match serde_json::from_str(&first) {
        Ok(json) => Some(json),
        Err(e) => {
            let _ = send(socket, json!({"error": format!("not JSON: {e}")})).await;
            None
        }
    }
}

/// Answers a first frame that asks one thing and ends the connection (host a table, the
/// server's status, a host's new module version); false when it is a seat joining.
async fn answered_at_once(socket: &mut WebSocket, server: &Arc<Server>, hello: &Json) -> bool {
    let answer = if let Some(request) = hello.get("host") {
        match serde_json::from_value::<HostRequest>(request.clone()) {
            Ok(request) => {
                let server = server.clone();
                match tokio::task::spawn_blocking(move || server.host(request)).await {
                    Ok(Ok(hosted)) => json!({"hosted": hosted}),
                    Ok(Err(e)) => json!({"error": e}),
                    Err(e) => json!({"error": e.to_string()}),
                }
            }
            Err(e) => json!({"error": format!("not a table to host: {e}")}),
        }
    } else if hello.get("status").is_some() {
        json!({"status": {"running": server.running()}})
    } else if let Some(reload) = hello.get("reload") {
        reload_frame(server, reload).await
    } else {
        return false;
    };
    let _ = send(socket, answer).await;
    true
}

/// The chat kept for table `id`, as far as `seat` may read it.
async fn chat_so_far(server: &Arc<Server>, id: &str, seat: &SeatId) -> Vec<chat::ChatLine> {
    let kept = {
        let (server, id) = (server.clone(), id.to_owned());
        tokio::task::spawn_blocking(move || server.lock_store()?.chat(&id)).await
    };
    match kept {
        Ok(Ok(lines)) => lines.into_iter().filter(|l| l.read_by(seat)).collect(),
        _ => Vec::new(),
    }
}

async fn connection(mut socket: WebSocket, server: Arc<Server>) {
    let mut rate = Rate {
        tokens: MAX_RATE * 4.0,
        at: Instant::now(),
    };
    let Some(hello) = hello(&mut socket).await else {
        return;
    };
    if answered_at_once(&mut socket, &server, &hello).await {
        return;
    }
    let Some(token) = hello.get("join").and_then(Json::as_str) else {
        let _ = send(
            &mut socket,
            json!({"error": "the first frame is {\"join\": TOKEN} or {\"host\": …}"}),
        )
        .await;
        return;
    };
    // A window that draws the table asks for the seat's whole game with each view.
    let whole = hello.get("game").and_then(Json::as_bool).unwrap_or(false);
    let (id, table, seat, plays, speaker) = match server.join(token) {
        Ok((id, table, Role::Seat(seat))) => {
            let speaker = Some(seat.to_string());
            (id, table, seat, true, speaker)
        }
        Ok((id, table, role)) => {
            let speaker = (role == Role::Host).then(|| chat::HOST.to_owned());
            (id, table, SeatId::spectator(), false, speaker)
        }
        Err(e) => {
            let _ = send(&mut socket, json!({"error": e})).await;
            return;
        }
    };
    let _here = table.arrive(&seat);
    let mut changes = table.changes();
    changes.mark_changed();
    let mut reloads = table.reloads();
    let mut said = table.chat.subscribe();
    let kept = chat_so_far(&server, &id, &seat).await;
    if !send(&mut socket, json!({"chat": kept})).await {
        return;
    }
    let mut chat_rate = Rate {
        tokens: chat::BURST,
        at: Instant::now(),
    };
    loop {
        tokio::select! {
            line = said.recv() => {
                if let Ok(line) = line
                    && line.read_by(&seat)
                    && !send(&mut socket, json!({"chat": [line.as_ref()]})).await
                {
                    return;
                }
            }
            reload = reloads.recv() => {
                // Each seat reads the report as it may: never another seat's secret.
                if let Ok(note) = reload
                    && !send(&mut socket, json!({"reload": note.words_for(&seat)})).await
                {
                    return;
                }
            }
            changed = changes.changed() => {
                if changed.is_err() {
                    let _ = send(&mut socket, json!({"error": "the table has closed"})).await;
                    return;
                }
                let Some(view) = table.view(&seat, whole).await else { return };
                if !send(&mut socket, json!({"view": view})).await {
                    return;
                }
            }
            frame = socket.recv() => {
                let Some(Ok(frame)) = frame else { return };
                if !rate.allow() {
                    let _ = send(&mut socket, json!({"error": "too many frames: at most 50 a second"})).await;
                    return;
                }
                let Message::Text(text) = frame else { continue };
                let reply = if let Some(hash) = module_asked(&text) {
                    Some(module_frame(&server, &table, &hash).await)
                } else if text.contains("\"versions\"") && versions_asked(&text) {
                    Some(versions_frame(&server, &id).await)
                } else if let Some(line) = said_line(&text) {
                    let speaker = speaker.as_deref();
                    Some(say(&server, (&id, &table), speaker, &mut chat_rate, line).await)
                } else {
                    answer(&table, (&seat, whole), plays, &text).await
                };
                if let Some(reply) = reply
                    && !send(&mut socket, reply).await
                {
                    return;
                }
            }
        }
    }
}

/// A host's new version of its table's module: `{"token": HOST_TOKEN, "archive": …}`.
async fn reload_frame(server: &Arc<Server>, reload: &Json) -> Json {
    let Some(token) = reload.get("token").and_then(Json::as_str) else {
        return json!({"error": "a reload names the host's token"});
    };
    let archive: Archive = match serde_json::from_value(reload["archive"].clone()) {
        Ok(archive) => archive,
        Err(e) => return json!({"error": format!("not a module archive: {e}")}),
    };
    let (id, table) = match server.join(token) {
        Ok((id, table, Role::Host)) => (id, table),
        Ok(_) => {
            return json!({"error": "only the host's invitation sends a new version of the module"});
        }
        Err(e) => return json!({"error": e}),
    };
    let server = server.clone();
    match tokio::task::spawn_blocking(move || server.reload(&id, &table, &archive)).await {
        Ok(Ok(report)) => json!({"reloaded": report}),
        Ok(Err(e)) => json!({"error": e}),
        Err(e) => json!({"error": e.to_string()}),
    }
}

/// The line a frame `{"say": {"text": …, "to": SEAT}}` says.
fn said_line(text: &str) -> Option<Json> {
    let frame: Json = serde_json::from_str(text).ok()?;
    frame.get("say").cloned()
}

/// `speaker` (a seat's id, the host's, or `None`: a spectator) says `line` at table `id`:
/// kept, then passed to every connection whose seat may read it.
async fn say(
    server: &Arc<Server>,
    (id, table): (&str, &TableHandle),
    speaker: Option<&str>,
    rate: &mut Rate,
    line: Json,
) -> Json {
    let Some(from) = speaker else {
        return json!({"error": "a spectator reads the table's chat, and says nothing in it"});
    };
    if !rate.allow_at(chat::RATE, chat::BURST) {
        return json!({"error": "too many lines: wait a few seconds"});
    }
    let text = match line.get("text").and_then(Json::as_str).map(chat::clean) {
        Some(Ok(text)) => text,
        Some(Err(e)) => return json!({"error": e}),
        None => return json!({"error": "a line is {\"say\": {\"text\": …}}"}),
    };
    let seats = &table.seats;
    let to = line.get("to").and_then(Json::as_str).map(SeatId::from);
    if let Some(to) = &to
        && !seats.names.contains_key(to)
    {
        return json!({"error": format!("there is no seat '{to}' at this table")});
    }
    if let Err(e) = chat::may_say(from, to.as_ref(), seats.umpire.as_ref()) {
        return json!({"error": e});
    }
    let line = chat::ChatLine {
        n: 0,
        from: from.to_owned(),
        from_name: seats.name(from),
        to_name: to.as_ref().map(|t| seats.name(t.as_str())),
        to,
        text,
        at: crate::store::now_seconds(),
    };
    let (server, id) = (server.clone(), id.to_owned());
    match tokio::task::spawn_blocking(move || server.lock_store()?.say(&id, line)).await {
        Ok(Ok(line)) => {
            let n = line.n;
            let _ = table.chat.send(Arc::new(line));
            json!({"said": n})
        }
        Ok(Err(e)) => json!({"error": format!("the line could not be kept: {e}")}),
        Err(e) => json!({"error": e.to_string()}),
    }
}

/// Whether a frame is `{"versions": true}`.
fn versions_asked(text: &str) -> bool {
    serde_json::from_str::<Json>(text).is_ok_and(|f| f.get("versions").is_some())
}

/// The module versions table `id` has played, the first first.
async fn versions_frame(server: &Arc<Server>, id: &str) -> Json {
    let (server, id) = (server.clone(), id.to_owned());
    match tokio::task::spawn_blocking(move || server.lock_store()?.versions(&id)).await {
        Ok(Ok(versions)) => json!({"versions": versions}),
        Ok(Err(e)) => json!({"error": e.to_string()}),
        Err(e) => json!({"error": e.to_string()}),
    }
}

/// The archive hash a frame `{"module": HASH}` asks for.
fn module_asked(text: &str) -> Option<String> {
    let frame: Json = serde_json::from_str(text).ok()?;
    Some(frame.get("module")?.as_str()?.to_owned())
}

/// The module archive `hash`, for a window at a table to draw the table with, and what its
/// rules declare: only the module that table plays (a connection reads no other table's).
async fn module_frame(server: &Arc<Server>, table: &TableHandle, hash: &str) -> Json {
    let Some(rules) = table.rules_of(hash).await else {
        return json!({"error": "this table does not play that module (it may have been reloaded since): ask for the view again"});
    };
    let server = server.clone();
    let hash = hash.to_owned();
    match tokio::task::spawn_blocking(move || server.lock_store()?.module(&hash)).await {
        Ok(Ok(Some(archive))) => json!({"archive": archive, "rules": rules}),
        Ok(Ok(None)) => json!({"error": "the server has lost this table's module"}),
        Ok(Err(e)) => json!({"error": e.to_string()}),
        Err(e) => json!({"error": e.to_string()}),
    }
}

/// A joined connection's frame: an answer for its seat. Returns what to send back, if
/// anything (the new view follows every change).
async fn answer(
    table: &TableHandle,
    (seat, whole): (&SeatId, bool),
    plays: bool,
    text: &str,
) -> Option<Json> {
    let frame: Json = match serde_json::from_str(text) {
        Ok(json) => json,
        Err(e) => return Some(json!({"error": format!("not JSON: {e}")})),
    };
    if frame.get("view").is_some() {
        return table
            .view(seat, whole)
            .await
            .map(|view| json!({"view": view}));
    }
    if frame.get("undo").is_some() || frame.get("undo_agree").is_some() {
        if !plays {
            return Some(json!({"error": "a spectator's invitation takes back no move"}));
        }
        let agree = frame.get("undo_agree").and_then(Json::as_bool);
        return Some(match table.undo(seat, agree).await {
            Ok(words) => json!({"taken": true, "said": words}),
            Err(e) => json!({"error": e}),
        });
    }
    if let Some(to) = frame.get("seat_to").and_then(Json::as_str) {
        if !plays {
            return Some(json!({"error": "a spectator's invitation holds no seat to hand over"}));
        }
        return Some(match table.hand(seat, to).await {
            Ok(()) => json!({"taken": true}),
            Err(e) => json!({"error": e}),
        });
    }
    let Some(act) = frame.get("act") else {
        return Some(json!({
            "error": "a frame is {\"act\": {\"name\": …, \"arg\": …}}, {\"seat_to\": \"bot\"|\"human\"} or {\"view\": true}"
        }));
    };
    if !plays {
        return Some(json!({"error": "a spectator's invitation does not answer for any seat"}));
    }
    let Some(name) = act.get("name").and_then(Json::as_str) else {
        return Some(json!({"error": "an answer names its action: {\"act\": {\"name\": …}}"}));
    };
    let arg = act
        .get("arg")
        .and_then(Value::from_json)
        .unwrap_or(Value::Nil);
    let choice = Choice {
        name: name.to_owned(),
        arg,
    };
    // At a table of physical dice, the dice the seat's person rolled.
    let dice: Vec<i64> = act
        .get("dice")
        .and_then(Json::as_array)
        .map(|d| d.iter().filter_map(Json::as_i64).take(1_000).collect())
        .unwrap_or_default();
    match table.act(seat, choice, dice).await {
        Ok(()) => Some(json!({"taken": true})),
        Err(refusal) => Some(match refusal.need {
            Some(need) => json!({"error": refusal.reason, "need": need}),
            None => json!({"error": refusal.reason}),
        }),
    }
}
