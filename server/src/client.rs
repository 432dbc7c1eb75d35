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

/// The next JSON frame from the server; its `error` as an error.
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
    let first = next(&mut socket, Duration::from_secs(30)).await?;
    Ok((socket, first["view"].clone()))
}

/// The seat's view now.
pub fn view(link: &str) -> anyhow::Result<Json> {
    block(async { Ok(join(link).await?.1) })
}

/// Sends `frame` for the seat; once the table has taken it, returns the seat's new view.
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

/// Answers for the seat with action `name` and `arg`; returns the view once it is taken.
pub fn act(link: &str, name: &str, arg: Json) -> anyhow::Result<Json> {
    taken_then_view(link, json!({"act": {"name": name, "arg": arg}}))
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

/// Hands the seat to its bot (`to` "bot"), or takes it back (`to` "human"); returns the view
/// once the table has it.
pub fn hand(link: &str, to: &str) -> anyhow::Result<Json> {
    taken_then_view(link, json!({"seat_to": to}))
}
