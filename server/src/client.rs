//! The other end of the server, for the command line and the tests: host a table, read a
//! seat's view, answer for the seat, wait until it must decide. An invitation is a link
//! `ws://HOST:PORT/ws#TOKEN`: the token after `#` is sent in the first frame, never in the
//! address, so no proxy or access log holds it.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value as Json, json};
use tokio_tungstenite::tungstenite::Message;

use crate::{HostRequest, Hosted};

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The server address and the token of an invitation link.
pub fn parse_link(link: &str) -> anyhow::Result<(String, String)> {
    let (url, token) = link
        .split_once('#')
        .ok_or_else(|| anyhow::anyhow!("'{link}' is not an invitation: a link ends in #TOKEN"))?;
    if !(url.starts_with("ws://") || url.starts_with("wss://")) || token.is_empty() {
        anyhow::bail!("'{link}' is not an invitation: it is ws://HOST:PORT/ws#TOKEN");
    }
    Ok((url.to_owned(), token.to_owned()))
}

/// An invitation link to `token` at the server `url`.
pub fn link(url: &str, token: &str) -> String {
    format!("{url}#{token}")
}

fn block<T>(work: impl std::future::Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(work)
}

async fn open(url: &str) -> anyhow::Result<Socket> {
    let (socket, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
        .await
        .map_err(|e| anyhow::anyhow!("cannot reach the server at {url}: {e}"))?;
    Ok(socket)
}

async fn send(socket: &mut Socket, json: Json) -> anyhow::Result<()> {
    socket
        .send(Message::Text(json.to_string().into()))
        .await
        .map_err(|e| anyhow::anyhow!("the server closed the connection: {e}"))
}

/// An answer refused until the rules have what they need: a die the seat's person rolls
/// (at a table of physical dice).
#[derive(Debug, thiserror::Error)]
#[error("{reason}")]
pub struct Needs {
    /// The reason, in words.
    pub reason: String,
    /// What the rules need.
    pub need: chancery_core::Need,
}

/// The next JSON frame from the server; its `error` as an error ([`Needs`] when the rules
/// need something first).
async fn next(socket: &mut Socket, limit: Duration) -> anyhow::Result<Json> {
    loop {
        let frame = tokio::time::timeout(limit, socket.next())
            .await
            .map_err(|_| anyhow::anyhow!("the server did not answer within {limit:?}"))?;
        let Some(frame) = frame else {
            anyhow::bail!("the server closed the connection");
        };
        if let Message::Text(text) = frame? {
            let json: Json = serde_json::from_str(&text)?;
            if let Some(error) = json.get("error").and_then(Json::as_str) {
                if let Ok(need) = serde_json::from_value(json["need"].clone()) {
                    return Err(Needs {
                        reason: error.to_owned(),
                        need,
                    }
                    .into());
                }
                anyhow::bail!("{error}");
            }
            return Ok(json);
        }
    }
}

/// Opens a table on the server at `url` (`ws://HOST:PORT/ws`).
pub fn host(url: &str, request: &HostRequest) -> anyhow::Result<Hosted> {
    block(async {
        let mut socket = open(url).await?;
        send(&mut socket, json!({"host": request})).await?;
        let answer = next(&mut socket, Duration::from_secs(120)).await?;
        Ok(serde_json::from_value(answer["hosted"].clone())?)
    })
}

/// A joined seat's connection.
async fn join(link: &str) -> anyhow::Result<(Socket, Json)> {
    let (url, token) = parse_link(link)?;
    let mut socket = open(&url).await?;
    send(&mut socket, json!({"join": token})).await?;
    loop {
        let frame = next(&mut socket, Duration::from_secs(30)).await?;
        if let Some(view) = frame.get("view") {
            return Ok((socket, view.clone()));
        }
    }
}

/// The seat's view now.
pub fn view(link: &str) -> anyhow::Result<Json> {
    block(async { Ok(join(link).await?.1) })
}

/// Sends `frame` for the seat; once the table has taken it, returns the seat's new view.
/// An answer that needs a die the seat's person rolls says so.
fn taken_then_view(link: &str, frame: Json) -> anyhow::Result<Json> {
    block(async {
        let (mut socket, _) = join(link).await?;
        send(&mut socket, frame).await?;
        loop {
            let frame = next(&mut socket, Duration::from_secs(60)).await?;
            if frame.get("taken").is_some() {
                break;
            }
        }
        send(&mut socket, json!({"view": true})).await?;
        loop {
            let frame = next(&mut socket, Duration::from_secs(60)).await?;
            if let Some(view) = frame.get("view") {
                return Ok(view.clone());
            }
        }
    })
}

/// Answers for the seat with action `name` and `arg` (and, at a table of physical dice,
/// the `dice` its person rolled); returns the view once it is taken.
pub fn act(link: &str, name: &str, arg: Json, dice: &[i64]) -> anyhow::Result<Json> {
    taken_then_view(
        link,
        json!({"act": {"name": name, "arg": arg, "dice": dice}}),
    )
}

/// Waits (up to `limit`) until the seat must decide, or the game is over; returns the view.
pub fn wait(link: &str, limit: Duration) -> anyhow::Result<Json> {
    block(async {
        let (mut socket, mut view) = join(link).await?;
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let decision = &view["decision"];
            if decision["yours"] == true || decision["over"] == true {
                return Ok(view);
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                anyhow::bail!("the seat did not have to decide within {limit:?}");
            }
            let frame = next(&mut socket, left).await?;
            if let Some(next_view) = frame.get("view") {
                view = next_view.clone();
            }
        }
    })
}

/// Sends the host's new version of the table's module; returns the report of the game
/// replayed under it (or why it was refused).
pub fn reload(
    url: &str,
    host_token: &str,
    archive: &crate::archive::Archive,
) -> anyhow::Result<String> {
    block(async {
        let mut socket = open(url).await?;
        send(
            &mut socket,
            json!({"reload": {"token": host_token, "archive": archive}}),
        )
        .await?;
        let answer = next(&mut socket, Duration::from_secs(120)).await?;
        Ok(answer["reloaded"].as_str().unwrap_or_default().to_owned())
    })
}

/// Joins the seat of `link`, sends `frame` (if any), and returns the first frame from the
/// server that holds `key`.
fn joined_ask(link: &str, frame: Option<Json>, key: &str) -> anyhow::Result<Json> {
    block(async {
        let (url, token) = parse_link(link)?;
        let mut socket = open(&url).await?;
        send(&mut socket, json!({"join": token})).await?;
        if let Some(frame) = frame {
            send(&mut socket, frame).await?;
        }
        loop {
            let answer = next(&mut socket, Duration::from_secs(60)).await?;
            if answer.get(key).is_some() {
                return Ok(answer);
            }
        }
    })
}

/// Takes back the seat's move as the table's rule allows (`agree` `None`), or agrees to
/// (refuses) another seat's asking; what the table said, in words.
pub fn undo(link: &str, agree: Option<bool>) -> anyhow::Result<String> {
    let frame = match agree {
        None => json!({"undo": true}),
        Some(yes) => json!({"undo_agree": yes}),
    };
    let answer = joined_ask(link, Some(frame), "taken")?;
    Ok(answer["said"].as_str().unwrap_or_default().to_owned())
}

/// The module versions the seat's table has played, the first first.
pub fn versions(link: &str) -> anyhow::Result<Vec<crate::store::PlayedVersion>> {
    let answer = joined_ask(link, Some(json!({"versions": true})), "versions")?;
    Ok(serde_json::from_value(answer["versions"].clone())?)
}

/// The table's chat as the seat may read it (the lines the server keeps).
pub fn chat(link: &str) -> anyhow::Result<Vec<crate::chat::ChatLine>> {
    let answer = joined_ask(link, None, "chat")?;
    Ok(serde_json::from_value(answer["chat"].clone())?)
}

/// Says `text` in the table's chat, to everyone or (`to`) privately to one seat; returns the
/// line's number.
pub fn say(link: &str, text: &str, to: Option<&str>) -> anyhow::Result<u64> {
    let answer = joined_ask(link, Some(json!({"say": {"text": text, "to": to}})), "said")?;
    Ok(answer["said"].as_u64().unwrap_or_default())
}

/// Hands the seat to its bot (`to` "bot"), or takes it back (`to` "human"); returns the view
/// once the table has it.
pub fn hand(link: &str, to: &str) -> anyhow::Result<Json> {
    taken_then_view(link, json!({"seat_to": to}))
}

/// What a live connection to a table hears ([`Live`]).
#[derive(Debug)]
pub enum Heard {
    /// The seat's game, first and after every change; `view` is the rest of the frame (who
    /// is connected, the decision in the command line's terms).
    Game {
        /// The game to draw.
        game: Box<crate::seat::SeatGame>,
        /// Who is connected to the table (seat names).
        connected: Vec<String>,
        /// The table's undo rule and a request to take back a move, if one waits.
        undo: Json,
    },
    /// What the table said of a request (taking back a move: "asked", "refused").
    Said(String),
    /// The module archive asked for with [`Live::ask_module`], and what its rules declare.
    Archive(Box<(crate::archive::Archive, chancery_core::module::RulesInfo)>),
    /// The host sent a new version of the module: the report, in this seat's words.
    Reload(String),
    /// Lines of the table's chat the seat may read: those kept when it joined, then each
    /// new one.
    Chat(Vec<crate::chat::ChatLine>),
    /// The server refused a frame (an answer out of turn, say): why, and what the rules
    /// need first if that is why (a die the seat's person rolls).
    Refused(String, Option<chancery_core::Need>),
    /// The connection is up (again).
    Connected,
    /// The connection is lost: why; it is tried again, and what is sent meanwhile waits.
    Lost(String),
    /// The server will not let this link in (an invitation it does not know): why. The
    /// connection is not tried again.
    Shut(String),
}

/// A window's live connection to its seat at a table: it keeps reconnecting while it lives,
/// and what is sent while it is down goes out once it is up again.
pub struct Live {
    out: tokio::sync::mpsc::UnboundedSender<Json>,
    heard: std::sync::mpsc::Receiver<Heard>,
}

/// How long the connection waits before trying again, at most.
const RETRY_MAX: Duration = Duration::from_secs(8);

impl Live {
    /// Joins the table of `link` on a thread of its own; `wake` is called after each thing
    /// heard (to draw the window again).
    pub fn join(link: &str, wake: impl Fn() + Send + 'static) -> anyhow::Result<Live> {
        let (url, token) = parse_link(link)?;
        let (out, mut outbox) = tokio::sync::mpsc::unbounded_channel::<Json>();
        let (tell, heard) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("table connection".to_owned())
            .spawn(move || {
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    return;
                };
                let hear = |heard: Heard| {
                    let gone = tell.send(heard).is_err();
                    wake();
                    gone
                };
                runtime.block_on(async {
                    let mut wait = Duration::from_millis(250);
                    // A frame that did not go out before the connection was lost goes first
                    // on the next one.
                    let mut held = None;
                    loop {
                        match live_once(&url, &token, (&mut outbox, &mut held), &hear).await {
                            Ended::Dropped => return,
                            Ended::Shut(why) => {
                                hear(Heard::Shut(why));
                                return;
                            }
                            Ended::Lost(why, was_up) => {
                                if hear(Heard::Lost(why)) {
                                    return;
                                }
                                if was_up {
                                    wait = Duration::from_millis(250);
                                }
                            }
                        }
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(RETRY_MAX);
                    }
                });
            })?;
        Ok(Live { out, heard })
    }

    /// Sends `seat`'s answer `choice` (the seat is the link's: the server takes no other),
    /// with the `dice` its person rolled at a table of physical dice.
    pub fn answer(&self, choice: &chancery_core::Choice, dice: &[i64]) {
        let _ = self
            .out
            .send(json!({"act": {"name": choice.name, "arg": choice.arg.to_json(), "dice": dice}}));
    }

    /// Takes back the seat's move as the table's rule allows (`agree` `None`), or agrees to
    /// (refuses) another seat's asking.
    pub fn undo(&self, agree: Option<bool>) {
        let frame = match agree {
            None => json!({"undo": true}),
            Some(yes) => json!({"undo_agree": yes}),
        };
        let _ = self.out.send(frame);
    }

    /// Hands the seat to its bot (`to` "bot") or takes it back (`to` "human").
    pub fn hand(&self, to: &str) {
        let _ = self.out.send(json!({"seat_to": to}));
    }

    /// Says `text` in the table's chat, to everyone or privately to seat `to`.
    pub fn say(&self, text: &str, to: Option<&chancery_core::SeatId>) {
        let _ = self.out.send(json!({"say": {"text": text, "to": to}}));
    }

    /// Asks for the module archive `hash` (answered [`Heard::Archive`]).
    pub fn ask_module(&self, hash: &str) {
        let _ = self.out.send(json!({"module": hash}));
    }

    /// What was heard since the last call, oldest first.
    pub fn heard(&self) -> Vec<Heard> {
        self.heard.try_iter().collect()
    }
}

/// How one connection of a [`Live`] ended.
enum Ended {
    /// The window let go of it.
    Dropped,
    /// The server will not let the link in.
    Shut(String),
    /// Lost: why, and whether it had been up.
    Lost(String, bool),
}

async fn live_once(
    url: &str,
    token: &str,
    (outbox, held): (
        &mut tokio::sync::mpsc::UnboundedReceiver<Json>,
        &mut Option<Json>,
    ),
    hear: &impl Fn(Heard) -> bool,
) -> Ended {
    let mut socket = match open(url).await {
        Ok(socket) => socket,
        Err(e) => return Ended::Lost(e.to_string(), false),
    };
    if let Err(e) = send(&mut socket, json!({"join": token, "game": true})).await {
        return Ended::Lost(e.to_string(), false);
    }
    let mut up = false;
    loop {
        tokio::select! {
            frame = socket.next() => {
                let text = match frame {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return Ended::Lost(e.to_string(), up),
                    None => return Ended::Lost("the server closed the connection".to_owned(), up),
                };
                let Ok(json) = serde_json::from_str::<Json>(&text) else { continue };
                if let Some(error) = json.get("error").and_then(Json::as_str) {
                    // Refused before the first view: the link itself is not let in.
                    if !up {
                        return Ended::Shut(error.to_owned());
                    }
                    let need = serde_json::from_value(json["need"].clone()).ok();
                    if hear(Heard::Refused(error.to_owned(), need)) {
                        return Ended::Dropped;
                    }
                    continue;
                }
                let heard = if let Some(view) = json.get("view") {
                    let Ok(game) = serde_json::from_value(view["game"].clone()) else { continue };
                    if !up {
                        up = true;
                        if hear(Heard::Connected) {
                            return Ended::Dropped;
                        }
                        if let Some(frame) = held.take()
                            && let Err(e) = send(&mut socket, frame.clone()).await
                        {
                            *held = Some(frame);
                            return Ended::Lost(e.to_string(), up);
                        }
                    }
                    let connected = view["connected"]
                        .as_array()
                        .map(|names| names.iter().filter_map(|n| n.as_str().map(str::to_owned)).collect())
                        .unwrap_or_default();
                    Heard::Game { game: Box::new(game), connected, undo: view["undo"].clone() }
                } else if let Some(archive) = json.get("archive") {
                    let archive = serde_json::from_value(archive.clone());
                    let rules = serde_json::from_value(json["rules"].clone());
                    match (archive, rules) {
                        (Ok(archive), Ok(rules)) => Heard::Archive(Box::new((archive, rules))),
                        (Err(e), _) | (_, Err(e)) => {
                            Heard::Refused(format!("the module sent is not an archive: {e}"), None)
                        }
                    }
                } else if let Some(said) = json.get("said").and_then(Json::as_str) {
                    Heard::Said(said.to_owned())
                } else if let Some(report) = json.get("reload").and_then(Json::as_str) {
                    Heard::Reload(report.to_owned())
                } else if let Some(lines) = json.get("chat") {
                    match serde_json::from_value(lines.clone()) {
                        Ok(lines) => Heard::Chat(lines),
                        Err(_) => continue,
                    }
                } else {
                    continue;
                };
                if hear(heard) {
                    return Ended::Dropped;
                }
            }
            frame = outbox.recv(), if up => {
                let Some(frame) = frame else { return Ended::Dropped };
                if let Err(e) = send(&mut socket, frame.clone()).await {
                    *held = Some(frame);
                    return Ended::Lost(e.to_string(), up);
                }
            }
        }
    }
}
