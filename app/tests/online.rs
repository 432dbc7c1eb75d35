//! Live online play on loopback: a real `chancery serve` process, tables hosted and played
//! through `chancery host` and `chancery remote`, each seat's view compared with what the
//! same game gives in one process, searched for the other seat's secrets, and the server
//! killed with SIGKILL mid-game and started again on its data.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use chancery_core::{Actor, Choice, GameSpec, Input, LoadOptions, OverlayChoice, SeatId, Value};
use serde_json::Value as Json;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A server process on a free loopback port, serving `data`; killed when dropped.
struct Server {
    child: Child,
    url: String,
    port: u16,
}

impl Server {
    fn start(data: &Path) -> Server {
        Server::start_with(data, &[])
    }

    /// A server with more `serve` flags.
    fn start_with(data: &Path, flags: &[&str]) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        Server::start_at(data, port, flags)
    }

    /// A server on `port` (one started again where its clients look for it).
    fn start_at(data: &Path, port: u16, flags: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chancery"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--data"])
            .arg(data)
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("its output"))
            .read_line(&mut first)
            .expect("it says where it serves");
        assert!(first.starts_with("Serving the tables of"), "{first}");
        Server {
            child,
            url: format!("ws://127.0.0.1:{port}/ws"),
            port,
        }
    }

    /// Kills the server at once (SIGKILL: nothing is flushed or closed).
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `chancery ARGS…`: its exit code, output and errors.
fn chancery(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn testbed() -> String {
    repo().join("tests/modules/testbed").display().to_string()
}

/// Hosts the testbed's basic scenario at seed 3 with both seats played by people.
fn host(server: &Server) -> serde_json::Map<String, Json> {
    host_with(server, &[])
}

/// Hosts the testbed as [`host`] does, with more `host` flags (`--undo agreed`, say).
fn host_with(server: &Server, flags: &[&str]) -> serde_json::Map<String, Json> {
    let testbed = testbed();
    let mut args = vec![
        "host",
        &testbed,
        "--no-overlay",
        "--server",
        &server.url,
        "--seed",
        "3",
        "--seat",
        "A=human",
        "--seat",
        "B=human",
        "--json",
    ];
    args.extend(flags);
    let (code, out, err) = chancery(&args);
    assert_eq!(code, 0, "{err}");
    let links: Json = serde_json::from_str(&out).expect("JSON");
    let links = links.as_object().expect("a map").clone();
    assert_eq!(
        links.keys().collect::<Vec<_>>(),
        ["A", "B", "host", "spectator"],
        "a link for each seat, one for spectators and the host's"
    );
    links
}

fn state(link: &Json) -> Json {
    let (code, out, err) = chancery(&["remote", "state", link.as_str().expect("a link"), "--json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("JSON")
}

/// A view without who is connected and the table's undo rule (which a game in one process
/// has not).
fn game_part(mut view: Json) -> Json {
    if let Some(map) = view.as_object_mut() {
        map.remove("connected");
        map.remove("undo");
    }
    view
}

/// The same game in one process: the testbed's basic scenario at seed 3.
fn local_game() -> chancery_core::Session {
    let load = LoadOptions {
        overlay: OverlayChoice::Off,
        strict: false,
    };
    let module =
        chancery_core::load_module(repo().join("tests/modules/testbed"), &load).expect("loads");
    let mut spec = GameSpec::new("basic", 3);
    for seat in ["A", "B"] {
        spec.seats
            .insert(SeatId::from(seat), chancery_core::Controller::Human);
    }
    chancery_core::start_game(Arc::new(module), spec).expect("starts")
}

/// `seat` answers with the first action of its view through `remote act`, and the game in
/// one process takes the same answer.
fn answer_first(links: &Json, seat: &str, view: &Json, local: &mut chancery_core::Session) {
    let action = &view["decision"]["actions"][0];
    let (code, err) = remote_act(&links[seat]);
    assert_eq!(code, 0, "{err}");
    local
        .apply(Input::Act {
            seat: Some(SeatId::from(seat)),
            choice: Choice {
                name: action["name"].as_str().expect("a name").to_owned(),
                arg: Value::from_json(&action["arg"]).unwrap_or(Value::Nil),
            },
            dice: Vec::new(),
            by: Actor::Human,
        })
        .expect("the same answer is legal in one process");
}

/// `remote act LINK 1`: the seat answers with its first action; the exit code and errors.
fn remote_act(link: &Json) -> (i32, String) {
    let (code, _, err) = chancery(&["remote", "act", link.as_str().expect("a link"), "1"]);
    (code, err)
}

/// The token of an invitation link (after its `#`).
fn token_of(link: &Json) -> String {
    link.as_str()
        .and_then(|l| l.split_once('#'))
        .expect("a token")
        .1
        .to_owned()
}

/// The testbed seat that decides now.
fn deciding(links: &impl std::ops::Index<&'static str, Output = Json>) -> &'static str {
    if state(&links["A"])["decision"]["yours"] == true {
        "A"
    } else {
        "B"
    }
}

/// The other seat's hand is only ever "?" in a seat's view, and its private state absent.
fn secrets_kept(view: &Json, other: &str) {
    let hand = &view["zones"][format!("hand.{other}")]["cards"];
    assert!(
        hand.as_array().expect("a hand").iter().all(|c| c == "?"),
        "{other}'s hand shows: {hand}"
    );
    assert!(
        view["private"].get(other).is_none(),
        "{other}'s private state shows: {}",
        view["private"]
    );
}

#[test]
fn two_seats_on_their_own_connections_play_and_each_sees_only_its_view() {
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let links = host(&server);
    let mut local = local_game();
    for step in 0..12 {
        let mut acted = false;
        for seat in ["A", "B"] {
            let other = if seat == "A" { "B" } else { "A" };
            let view = state(&links[seat]);
            secrets_kept(&view, other);
            // Each seat's view is the one the same game gives in one process.
            let expected = chancery_server::table::view_of(&mut local, &SeatId::from(seat));
            assert_eq!(
                game_part(view.clone()),
                expected,
                "step {step}, {seat}'s view"
            );
            if view["decision"]["yours"] != true {
                continue;
            }
            answer_first(&Json::Object(links.clone()), seat, &view, &mut local);
            acted = true;
            break;
        }
        if !acted {
            break;
        }
    }
    assert!(local.history().len() >= 4, "the seats played");
    // The spectator sees neither hand.
    let watching = state(&links["spectator"]);
    secrets_kept(&watching, "A");
    secrets_kept(&watching, "B");
    // A seat's link never answers for the other seat, nor a spectator's for anyone.
    let waiting = if deciding(&links) == "A" { "B" } else { "A" };
    let (code, err) = remote_act(&links[waiting]);
    assert_eq!(code, 1);
    assert!(err.contains("it is not this seat's decision now"), "{err}");
    let (code, _, err) = chancery(&[
        "remote",
        "act",
        links["spectator"].as_str().expect("link"),
        "pass",
    ]);
    assert_eq!(code, 1, "{err}");
    // A forged token is refused with what to do.
    let forged = format!("{}#{}", server.url, "0".repeat(64));
    let (code, _, err) = chancery(&["remote", "state", &forged]);
    assert_eq!(code, 1);
    assert!(err.contains("not one of this server's"), "{err}");
}

#[test]
fn a_server_killed_mid_game_resumes_every_answer_it_took() {
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let links = host(&server);
    let mut answered = 0;
    for _ in 0..6 {
        for seat in ["A", "B"] {
            if state(&links[seat])["decision"]["yours"] == true {
                let (code, err) = remote_act(&links[seat]);
                assert_eq!(code, 0, "{err}");
                answered += 1;
                break;
            }
        }
    }
    assert!(answered >= 4, "{answered} answers");
    let before = (game_part(state(&links["A"])), game_part(state(&links["B"])));
    server.kill();
    // Started again on the same data, every table is where it was.
    let server = Server::start(data.path());
    let relinked = |link: &Json| Json::from(format!("{}#{}", server.url, token_of(link)));
    let after = (
        game_part(state(&relinked(&links["A"]))),
        game_part(state(&relinked(&links["B"]))),
    );
    assert_eq!(before, after, "the table resumes with every answer");
}

#[test]
fn a_person_plays_a_whole_aftermath_game_against_the_server_s_bot() {
    // Napoleon: Aftermath with its demo values: the first player answers from their own
    // connection, the server's bot plays the second seat, to the game's end. The person
    // never reads the bot's hand or its Great Power.
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let module = repo().join("modules/aftermath").display().to_string();
    let (code, out, err) = chancery(&[
        "host",
        &module,
        "--demo",
        "--server",
        &server.url,
        "--seed",
        "11",
        "--seat",
        "P1=human",
        "--seat",
        "P2=bot",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let links: Json = serde_json::from_str(&out).expect("JSON");
    let me = links["P1"].as_str().expect("a link").to_owned();
    let mut answers = 0;
    let end = loop {
        let (code, out, err) = chancery(&["remote", "wait", &me, "--timeout", "60", "--json"]);
        assert_eq!(code, 0, "{err}");
        let view: Json = serde_json::from_str(&out).expect("JSON");
        secrets_kept(&view, "P2");
        let power = &view["zones"]["power.P2"]["cards"];
        assert!(
            power
                .as_array()
                .is_none_or(|cards| cards.iter().all(|c| c == "?"))
                || view["decision"]["over"] == true,
            "the bot's Great Power shows before the end: {power}"
        );
        if view["decision"]["over"] == true {
            break view;
        }
        let (code, _, err) = chancery(&["remote", "act", &me, "1"]);
        assert_eq!(code, 0, "{err}");
        answers += 1;
        assert!(answers < 500, "the game did not end");
    };
    assert!(answers > 5, "{answers} answers");
    assert!(
        !end["result"].is_null(),
        "the game has a result: {}",
        end["result"]
    );
}

mod hostile {
    use std::time::{Duration, Instant};

    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    use super::*;

    pub(super) type Socket = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;

    pub(super) async fn open(url: &str) -> Socket {
        tokio_tungstenite::connect_async(url)
            .await
            .expect("connects")
            .0
    }

    /// The next text frame, or `None` once the server has closed the connection.
    pub(super) async fn next_text(socket: &mut Socket) -> Option<String> {
        loop {
            match tokio::time::timeout(Duration::from_secs(20), socket.next()).await {
                Ok(Some(Ok(Message::Text(text)))) => return Some(text.to_string()),
                Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) => return None,
                Ok(Some(Ok(_))) => continue,
                Err(_) => panic!("the server neither answered nor closed"),
            }
        }
    }

    /// The first frame after joining that is not the chat kept (which comes first).
    pub(super) async fn first_view(socket: &mut Socket) -> String {
        loop {
            let text = next_text(socket).await.expect("a view");
            if !text.starts_with("{\"chat\"") {
                return text;
            }
        }
    }

    /// How long one seat's view takes to arrive through `remote state`.
    fn round_trip(link: &Json) -> Duration {
        let start = Instant::now();
        state(link);
        start.elapsed()
    }

    /// A connection that opens and never speaks is closed after the hello timeout; one
    /// that joins and never reads what it is sent holds up nobody: the seats play on at
    /// their usual pace while its views pile up unread.
    #[test]
    fn a_silent_connection_is_closed_and_a_reader_that_never_reads_slows_nobody() {
        let data = tempfile::tempdir().expect("scratch");
        let server = Server::start(data.path());
        let links = host(&server);
        let calm = round_trip(&links["A"]);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        let opened = Instant::now();
        let silent = runtime.spawn({
            let url = server.url.clone();
            async move {
                let mut s = open(&url).await;
                // Nothing is sent: the server closes the connection.
                let closed = next_text(&mut s).await;
                (closed, Instant::now())
            }
        });
        // A spectator that joins and never reads a frame.
        let stuck = runtime.block_on({
            let url = server.url.clone();
            let token = token_of(&links["spectator"]);
            async move {
                let mut s = open(&url).await;
                s.send(Message::Text(format!("{{\"join\": \"{token}\"}}").into()))
                    .await
                    .expect("sent");
                // It asks for its view over and over (within the rate), and reads none.
                for _ in 0..150 {
                    s.send(Message::Text("{\"view\": true}".into()))
                        .await
                        .expect("sent");
                }
                s
            }
        });
        let mut slowest = Duration::ZERO;
        let mut answers = 0;
        for _ in 0..30 {
            if state(&links["A"])["decision"]["over"] == true {
                break;
            }
            let seat = deciding(&links);
            let start = Instant::now();
            let (code, err) = remote_act(&links[seat]);
            assert_eq!(code, 0, "{err}");
            slowest = slowest.max(start.elapsed());
            answers += 1;
        }
        assert!(answers >= 4, "{answers} answers");
        let during = round_trip(&links["A"]);
        assert!(
            during < calm * 10 + Duration::from_millis(500),
            "a view took {during:?} with a reader that never reads ({calm:?} before)"
        );
        assert!(
            slowest < Duration::from_secs(5),
            "an answer took {slowest:?}"
        );
        let (said, at) = runtime
            .block_on(silent)
            .expect("the silent connection ends");
        assert_eq!(said, None, "closed without a word");
        let waited = at - opened;
        assert!(
            waited >= chancery_server::HELLO_TIMEOUT - Duration::from_millis(500)
                && waited < chancery_server::HELLO_TIMEOUT + Duration::from_secs(5),
            "closed after {waited:?}"
        );
        drop(stuck);
    }

    #[test]
    fn hostile_connections_are_refused_and_the_other_tables_play_on() {
        let data = tempfile::tempdir().expect("scratch");
        let server = Server::start(data.path());
        let links = host(&server);
        let token = |key: &str| token_of(&links[key]);
        let calm = round_trip(&links["A"]);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            // Garbage, then a binary frame, as a first frame: refused with a reason.
            let mut s = open(&server.url).await;
            s.send(Message::Text("{not json".into()))
                .await
                .expect("sent");
            let reply = next_text(&mut s).await.expect("a reason");
            assert!(reply.contains("not JSON"), "{reply}");
            let mut s = open(&server.url).await;
            s.send(Message::Binary(vec![0u8; 64].into()))
                .await
                .expect("sent");
            let reply = next_text(&mut s).await.expect("a reason");
            assert!(reply.contains("JSON text frame"), "{reply}");
            // A frame larger than any archive: the connection is closed.
            let mut s = open(&server.url).await;
            let huge = "x".repeat(chancery_server::MAX_FRAME + 1024);
            let _ = s.send(Message::Text(huge.into())).await;
            assert_eq!(next_text(&mut s).await, None, "closed");
            // Another table's answer with A's token in its frame is A's only: an answer
            // for the seat that does not decide is refused, with the reason.
            let mut s = open(&server.url).await;
            s.send(Message::Text(
                format!("{{\"join\": \"{}\"}}", token("B")).into(),
            ))
            .await
            .expect("sent");
            assert!(first_view(&mut s).await.contains("\"view\""));
            s.send(Message::Text("{\"act\": {\"name\": \"pass\"}}".into()))
                .await
                .expect("sent");
            let reply = next_text(&mut s).await.expect("a reason");
            assert!(reply.contains("\"error\""), "{reply}");
            // A flood of frames from one connection: cut off, and the table still answers
            // its other seat at once.
            let mut flood = open(&server.url).await;
            flood
                .send(Message::Text(
                    format!("{{\"join\": \"{}\"}}", token("B")).into(),
                ))
                .await
                .expect("sent");
            let mut sent = 0;
            for _ in 0..10_000 {
                if flood
                    .send(Message::Text("{\"view\": true}".into()))
                    .await
                    .is_err()
                {
                    break;
                }
                sent += 1;
            }
            // The server answers no more than its rate allows, says so, and closes (the
            // reason may be lost when the close resets frames still unread).
            let mut views = 0;
            while let Some(text) = next_text(&mut flood).await {
                views += usize::from(text.contains("\"view\""));
            }
            assert!(
                views < 1_000,
                "the flood of {sent} frames had {views} answers before it was cut off"
            );
        });
        let during = round_trip(&links["A"]);
        assert!(
            during < calm * 20 + Duration::from_millis(500),
            "the other seat waited {during:?} (calm: {calm:?})"
        );
    }
}

/// A seat's link does not send a new version; any seat lists the versions the table has
/// played: the first from the start, the edited one from the move it came at (every move so
/// far was played before it; the log's first entry is the set-up).
fn only_the_host_sends_a_version_and_any_seat_lists_them(
    server: &Server,
    links: &serde_json::Map<String, Json>,
) {
    // A seat's link does not send a new version.
    let url = server.url.clone();
    let not_host = token_of(&links["A"]);
    let refused = chancery_server::client::reload(
        &url,
        &not_host,
        &chancery_server::archive::Archive::from_dir(&repo().join("tests/modules/testbed"))
            .expect("the testbed"),
    )
    .expect_err("refused");
    assert!(
        refused.to_string().contains("only the host's invitation"),
        "{refused}"
    );
    // Any seat lists the versions the table has played: the first from the start, the
    // edited one from the move it came at (every move so far was played before it; the
    // log's first entry is the set-up).
    let versions = chancery_server::client::versions(links["B"].as_str().expect("a link"))
        .expect("the versions");
    let moves = state(&links["A"])["log"].as_array().map_or(0, Vec::len) - 1;
    assert!(moves >= 1, "a move was played before the edit");
    assert_eq!(versions.len(), 2, "{versions:?}");
    assert_eq!(
        versions.iter().map(|v| v.from_input).collect::<Vec<_>>(),
        [0, moves]
    );
    assert_ne!(versions[0].hash, versions[1].hash);
    let (code, out, err) = chancery(&["remote", "versions", links["A"].as_str().expect("a link")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("1. version") && out.contains("from the start"),
        "{out}"
    );
    let from = format!("from move {} (now)", moves + 1);
    assert!(out.contains("2. version") && out.contains(&from), "{out}");
}

#[test]
fn the_host_s_edit_reaches_every_seat_in_its_own_words() {
    // The testbed at the table, A and B connected; the host raises card Five from 5 to 50
    // and sends the new version: each seat receives the reload report, the table plays the
    // new version, and A's report never names a card in B's hand (nor B's in A's).
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;

    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let links = host(&server);
    for seat in ["A", "B"] {
        if state(&links[seat])["decision"]["yours"] == true {
            let (code, err) = remote_act(&links[seat]);
            assert_eq!(code, 0, "{err}");
        }
    }
    let token = |key: &str| token_of(&links[key]);
    let hands = |seat: &str| -> Vec<String> {
        let view = state(&links[seat]);
        view["zones"][format!("hand.{seat}")]["cards"]
            .as_array()
            .expect("a hand")
            .iter()
            .filter_map(|c| c.as_str().map(str::to_owned))
            .collect()
    };
    let (hand_a, hand_b) = (hands("A"), hands("B"));
    let mut archive =
        chancery_server::archive::Archive::from_dir(&repo().join("tests/modules/testbed"))
            .expect("the testbed");
    let cards = archive.files.get_mut("data/cards.ron").expect("its cards");
    assert!(cards.contains("\"value\": 5, \"suit\": \"sun\""));
    *cards = cards.replacen(
        "\"value\": 5, \"suit\": \"sun\"",
        "\"value\": 50, \"suit\": \"sun\"",
        1,
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let reports = runtime.block_on(async {
        let mut sockets = Vec::new();
        for seat in ["A", "B"] {
            let mut s = hostile::open(&server.url).await;
            s.send(Message::Text(
                format!("{{\"join\": \"{}\"}}", token(seat)).into(),
            ))
            .await
            .expect("sent");
            assert!(hostile::first_view(&mut s).await.contains("\"view\""));
            sockets.push(s);
        }
        let url = server.url.clone();
        let host_token = token("host");
        let report = tokio::task::spawn_blocking(move || {
            chancery_server::client::reload(&url, &host_token, &archive)
        })
        .await
        .expect("joined")
        .expect("the table plays the new version");
        assert!(report.contains("Changed:"), "{report}");
        let mut reports = Vec::new();
        for s in &mut sockets {
            loop {
                let text = hostile::next_text(s).await.expect("the reload report");
                let frame: Json = serde_json::from_str(&text).expect("JSON");
                if let Some(report) = frame["reload"].as_str() {
                    reports.push(report.to_owned());
                    break;
                }
            }
        }
        reports
    });
    for (report, (seat, other_hand)) in reports.iter().zip([("A", &hand_b), ("B", &hand_a)]) {
        assert!(
            report.contains("Changed:") && report.contains("Five"),
            "{seat}: {report}"
        );
        let replay = report.split_once("Replayed").map_or("", |(_, rest)| rest);
        let load = LoadOptions {
            overlay: OverlayChoice::Off,
            strict: false,
        };
        let module =
            chancery_core::load_module(repo().join("tests/modules/testbed"), &load).expect("loads");
        for card in other_hand.iter().filter(|c| *c != "?") {
            let name = module.name_of("card", card);
            assert!(
                !replay.contains(&name),
                "{seat}'s report names {name}: {report}"
            );
        }
    }
    only_the_host_sends_a_version_and_any_seat_lists_them(&server, &links);
}

#[test]
fn fifty_kills_of_the_server_lose_no_answer_it_acknowledged() {
    // Seats answer by `remote act` while the server is killed with SIGKILL at a moment that
    // moves from one round to the next (a new table each time a game ends); after each
    // restart on the same data the table holds every answer whose `act` reported success,
    // and never fewer inputs than before.
    let data = tempfile::tempdir().expect("scratch");
    let mut server = Server::start(data.path());
    let mut links = host(&server);
    let token = |links: &serde_json::Map<String, Json>, seat: &str| token_of(&links[seat]);
    let inputs = |view: &Json| view["log"].as_array().map_or(0, Vec::len);
    let mut known = inputs(&state(&links["A"]));
    let mut kills = 0;
    let mut acknowledged_kills = 0;
    while kills < 50 {
        let url = server.url.clone();
        let view_a = state(&Json::from(format!("{url}#{}", token(&links, "A"))));
        if view_a["decision"]["over"] == true {
            links = host(&server);
            known = inputs(&state(&links["A"]));
            continue;
        }
        let seat = if view_a["decision"]["yours"] == true {
            "A"
        } else {
            "B"
        };
        let link = format!("{url}#{}", token(&links, seat));
        let act = Command::new(env!("CARGO_BIN_EXE_chancery"))
            .args(["remote", "act", &link, "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("an answer is sent");
        std::thread::sleep(std::time::Duration::from_millis(kills % 9 * 3));
        server.kill();
        kills += 1;
        let acknowledged = act.wait_with_output().expect("ends").status.success();
        acknowledged_kills += usize::from(acknowledged);
        server = Server::start(data.path());
        let view = state(&Json::from(format!(
            "{}#{}",
            server.url,
            token(&links, "A")
        )));
        let now = inputs(&view);
        assert!(
            now >= known,
            "kill {kills}: {now} log entries, {known} before"
        );
        if acknowledged {
            assert!(
                now > known,
                "kill {kills}: an acknowledged answer is missing"
            );
        }
        known = now;
    }
    assert!(
        acknowledged_kills > 0 && acknowledged_kills < 50,
        "the kills fell both before and after answers were taken ({acknowledged_kills} of 50 after)"
    );
}

#[test]
fn four_people_on_their_own_connections_play_a_congress_of_vienna_turn() {
    // Congress of Vienna's Clash of Armies with the demo's values, four people at four
    // connections: each answers when its seat decides (the secret wagers too, each at its own
    // connection), until the next turn begins. Every view is the one the same game gives in
    // one process, and no seat ever reads another's hand.
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let module = repo().join("modules/cov").display().to_string();
    let seats = ["FR", "RU", "BR", "AU"];
    let mut args = vec![
        "host".to_owned(),
        module,
        "--demo".to_owned(),
        "--server".to_owned(),
        server.url.clone(),
        "--scenario".to_owned(),
        "clash-of-armies".to_owned(),
        "--seed".to_owned(),
        "7".to_owned(),
        "--json".to_owned(),
    ];
    for seat in seats {
        args.extend(["--seat".to_owned(), format!("{seat}=human")]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = chancery(&args);
    assert_eq!(code, 0, "{err}");
    let links: Json = serde_json::from_str(&out).expect("JSON");
    let load = LoadOptions {
        overlay: OverlayChoice::Demo,
        strict: false,
    };
    let module = chancery_core::load_module(repo().join("modules/cov"), &load).expect("loads");
    let mut spec = GameSpec::new("clash-of-armies", 7);
    for seat in seats {
        spec.seats
            .insert(SeatId::from(seat), chancery_core::Controller::Human);
    }
    let mut local = chancery_core::start_game(Arc::new(module), spec).expect("starts");
    let first = local.table().turn;
    let mut answers = 0;
    while local.table().turn == first {
        let mut acted = false;
        for seat in seats {
            let view = state(&links[seat]);
            let expected = chancery_server::table::view_of(&mut local, &SeatId::from(seat));
            assert_eq!(
                game_part(view.clone()),
                expected,
                "answer {answers}: {seat}'s view"
            );
            for other in seats.iter().filter(|o| **o != seat) {
                secrets_kept(&view, other);
            }
            if view["decision"]["yours"] != true {
                continue;
            }
            answer_first(&links, seat, &view, &mut local);
            answers += 1;
            acted = true;
        }
        assert!(acted, "nobody decides after {answers} answers");
        assert!(answers < 2_000, "the turn did not end");
    }
    assert!(answers > 20, "{answers} answers");
}

#[test]
fn a_seat_handed_to_its_bot_plays_on_and_is_taken_back() {
    // Alpha's person leaves: her seat goes to her bot, which answers for her at once; back,
    // she takes it again and the table waits for her. A connected seat is named in every
    // view.
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let links = host(&server);
    let a = links["A"].as_str().expect("link");
    let before = state(&links["A"]);
    assert_eq!(
        before["connected"],
        serde_json::json!(["Alpha"]),
        "{}",
        before["connected"]
    );
    assert_eq!(before["decision"]["yours"], true, "Alpha decides first");
    let (code, out, err) = chancery(&["remote", "hand", a, "bot"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.contains("Your decision"),
        "the bot answered for Alpha: {out}"
    );
    let handed = state(&links["A"]);
    assert!(
        handed["log"].as_array().map_or(0, Vec::len) > before["log"].as_array().map_or(0, Vec::len),
        "the bot played"
    );
    let (code, _, err) = chancery(&["remote", "hand", a, "human"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = chancery(&[
        "remote",
        "hand",
        links["spectator"].as_str().expect("link"),
        "bot",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("holds no seat"), "{err}");
}

#[test]
fn a_table_nobody_is_at_stops_and_starts_again_as_it_was() {
    // A server whose tables stop after a second with nobody connected: the table leaves
    // memory, and the next connection finds it as it was.
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start_with(data.path(), &["--idle", "1"]);
    let links = host(&server);
    let (code, err) = remote_act(&links["A"]);
    assert_eq!(code, 0, "{err}");
    let before = game_part(state(&links["B"]));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let running = |url: &str| -> u64 {
        runtime.block_on(async {
            let mut s = hostile::open(url).await;
            s.send(Message::Text("{\"status\": true}".into()))
                .await
                .expect("sent");
            let Some(Ok(Message::Text(text))) = s.next().await else {
                panic!("no status")
            };
            let status: Json = serde_json::from_str(&text).expect("JSON");
            status["status"]["running"].as_u64().expect("a count")
        })
    };
    assert_eq!(running(&server.url), 1, "the table is in memory");
    std::thread::sleep(std::time::Duration::from_millis(2_500));
    assert_eq!(running(&server.url), 0, "idle, it stopped");
    assert_eq!(
        game_part(state(&links["B"])),
        before,
        "and starts again as it was"
    );
    assert_eq!(running(&server.url), 1);
}

#[test]
fn the_host_s_own_values_travel_with_the_table() {
    // Hosted with the owner's overlay, the table reads those values (kept on the server
    // by their hash, never written there).
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let overlay = data.path().join("mine.ron");
    let text = "Overlay(module: \"testbed\", tables: {\"recruit_bonus\": {\"6\": 2}})\n";
    std::fs::write(&overlay, text).expect("written");
    let (code, out, err) = chancery(&[
        "host",
        &testbed(),
        "--overlay",
        overlay.to_str().expect("a path"),
        "--server",
        &server.url,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let links: Json = serde_json::from_str(&out).expect("JSON");
    assert_eq!(state(&links["A"])["decision"]["yours"], true);
    let kept: Vec<String> = std::fs::read_dir(data.path().join("overlays"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        kept,
        [text.to_owned()],
        "the server keeps the host's values as they were"
    );
}

#[test]
fn a_saved_game_moves_to_a_server_and_goes_on_there() {
    // A game begun at one screen (two answers) is hosted from its save: the table holds its
    // inputs, and each seat's view is the one the same game gives in one process. A seat's
    // redacted save is not the game to host.
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let save = data.path().join("game.ron");
    let save = save.to_str().expect("a path");
    let (code, _, err) = chancery(&[
        "new",
        &testbed(),
        "--no-overlay",
        "--seed",
        "3",
        "--seat",
        "A=human",
        "--seat",
        "B=human",
        "--out",
        save,
    ]);
    assert_eq!(code, 0, "{err}");
    for seat in ["A", "B"] {
        let (code, _, err) = chancery(&["act", save, "--seat", seat, "1"]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, out, err) = chancery(&[
        "host",
        save,
        "--no-overlay",
        "--server",
        &server.url,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let links: Json = serde_json::from_str(&out).expect("JSON");
    let mut local = local_game();
    let file = chancery_core::SaveFile::read(Path::new(save)).expect("the save");
    assert_eq!(file.inputs.len(), 2);
    for input in file.inputs {
        local.apply(input).expect("replays");
    }
    for seat in ["A", "B"] {
        let expected = chancery_server::table::view_of(&mut local, &SeatId::from(seat));
        assert_eq!(game_part(state(&links[seat])), expected, "{seat}'s view");
    }
    let deciding = deciding(&links);
    let (code, err) = remote_act(&links[deciding]);
    assert_eq!(code, 0, "the game goes on there: {err}");
    // One seat's redacted save is refused with what to host instead.
    let mine = data.path().join("a.ron");
    let mine = mine.to_str().expect("a path");
    let (code, _, err) = chancery(&["export", save, "--seat", "A", "--out", mine]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = chancery(&["host", mine, "--no-overlay", "--server", &server.url]);
    assert_eq!(code, 1);
    assert!(err.contains("redacted save"), "{err}");
}

/// A 1600×1000 window of `app`, driven headlessly.
fn window(
    app: chancery::gui::ChanceryApp,
) -> egui_kittest::Harness<'static, chancery::gui::ChanceryApp> {
    egui_kittest::Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(32)
        .build_ui_state(
            |ui, app: &mut chancery::gui::ChanceryApp| app.ui_in(ui),
            app,
        )
}

/// The window at the seat of invitation `link` (`chancery join LINK`), the modules it
/// fetches kept in `cache`.
fn joined_window(
    link: &str,
    cache: &Path,
) -> egui_kittest::Harness<'static, chancery::gui::ChanceryApp> {
    let view = chancery::gui::GameView::joined(
        link,
        cache.to_path_buf(),
        std::time::Duration::from_secs(30),
    )
    .expect("the app joins the table");
    let dir = view.session().module().dir.clone();
    let launcher = chancery::gui::Launcher::new(&dir, LoadOptions::default());
    let mut h = window(chancery::gui::ChanceryApp::new(view, launcher));
    h.run();
    h
}

/// Steps the window until `done` holds (what the server sends comes on another thread), then
/// once more; a failure naming `what` after 30 s.
fn step_until(
    h: &mut egui_kittest::Harness<'_, chancery::gui::ChanceryApp>,
    what: &str,
    done: &dyn Fn(&chancery::gui::ChanceryApp) -> bool,
) {
    let start = std::time::Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "timed out waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    h.step();
}

/// The table's chat: a line typed in the window reaches the `other` seat, and the other
/// seat's line shows in the window.
fn chat_both_ways(
    h: &mut egui_kittest::Harness<'_, chancery::gui::ChanceryApp>,
    links: &serde_json::Map<String, Json>,
    other: &str,
) {
    use egui_kittest::kittest::Queryable;

    // The table's chat: a line typed in the window reaches the other seat, and the other
    // seat's line shows in the window.
    h.get_by_label("Line").focus();
    h.run();
    h.get_by_label("Line").type_text("Your move, friend.");
    h.run();
    h.get_by_label("Say").click();
    h.run();
    let said = |key: &str| -> Vec<String> {
        chancery_server::client::chat(links[key].as_str().expect("a link"))
            .expect("the chat")
            .into_iter()
            .map(|l| l.text)
            .collect()
    };
    step_until(h, "the line to reach the table", &|_| {
        !said(other).is_empty()
    });
    assert_eq!(said(other), ["Your move, friend."]);
    chancery_server::client::say(links[other].as_str().expect("a link"), "Thinking…", None)
        .expect("said");
    step_until(h, "the other seat's line", &|app| {
        app.view.remote().is_some_and(|r| r.chat.len() == 2)
    });
    h.get_by_label("Thinking…");
}

/// The app open on a game of its own, joined to the table at `link` through New / Open…
/// (its module kept in `cache`), once the table's first game has arrived.
fn joined_through_the_launcher(
    link: &str,
    cache: &std::path::Path,
) -> egui_kittest::Harness<'static, chancery::gui::ChanceryApp> {
    use chancery::gui::{ChanceryApp, GameView, Launcher};
    use egui_kittest::kittest::Queryable;

    // The app open on a game of its own; the person joins through New / Open….
    let load = LoadOptions {
        overlay: OverlayChoice::Off,
        strict: false,
    };
    let module = Arc::new(
        chancery_core::load_module(repo().join("tests/modules/testbed"), &load).expect("loads"),
    );
    let session = chancery_core::start_game(module, GameSpec::new("basic", 1)).expect("starts");
    let mut launcher = Launcher::new(&repo().join("tests/modules/testbed"), load);
    launcher.module_cache = cache.to_path_buf();
    let view = GameView::new(session, chancery::gui::GameOptions::default());
    let mut h = window(ChanceryApp::new(view, launcher));
    h.run();
    h.get_by_label("New / Open…").click();
    h.run();
    // A password box: the link acts for the seat, and is not shown.
    h.get_by_label("Invitation link").focus();
    h.run();
    h.get_by_label("Invitation link").type_text(link);
    h.run();
    h.get_by_label("Join").click();
    step_until(&mut h, "the table's first game", &|app| {
        app.view.remote().is_some()
    });
    h
}

/// The `other` seat moves from another machine; at a physical board, the window lists what
/// the move changes on it: the other seat's hand counted, never named.
fn the_other_seat_s_move_at_a_physical_board(
    h: &mut egui_kittest::Harness<'_, chancery::gui::ChanceryApp>,
    links: &serde_json::Map<String, Json>,
    other: &str,
) {
    let entries = |app: &chancery::gui::ChanceryApp| app.session().log().len();
    let before = entries(h.state());
    h.state_mut().view.set_physical_board(true);
    let (code, err) = remote_act(&links[other]);
    assert_eq!(code, 0, "{err}");
    step_until(h, "the other seat's move", &|app| entries(app) > before);
    let lists = h.state().view.checklists().to_vec();
    assert_eq!(lists.len(), 1, "{lists:?}");
    let items: Vec<&str> = lists[0].items.iter().map(|(i, _)| i.as_str()).collect();
    let hand = if other == "A" {
        "Alpha's hand"
    } else {
        "Beta's hand"
    };
    // The other seat's hand is counted, never named; what it played shows.
    assert!(
        items
            .iter()
            .any(|i| i.starts_with(&format!("{hand}: ")) && i.contains("you may not see")),
        "{items:?}"
    );
    assert!(
        items.iter().all(|i| !i.contains('?')),
        "no stand-in is named: {items:?}"
    );
    h.state_mut().view.set_physical_board(false);
}

/// The app at a seat of a table on the server (`chancery join LINK`): it draws the seat's
/// game from the module the server sent (once, into its cache), answers a decision with a
/// click, and shows the other seat's move when it arrives. What it holds never names the
/// other seat's hand.
#[test]
fn the_app_joins_a_table_plays_a_decision_and_shows_the_other_seat_s_move() {
    use chancery::gui::ChanceryApp;

    use egui_kittest::kittest::Queryable;

    let data = tempfile::tempdir().expect("scratch");
    let cache = tempfile::tempdir().expect("a module cache");
    let server = Server::start(data.path());
    let links = host(&server);
    let (mine, other) = match deciding(&links) {
        "A" => ("A", "B"),
        _ => ("B", "A"),
    };
    let link = links[mine].as_str().expect("a link");
    let mut h = joined_through_the_launcher(link, cache.path());
    // The module came from the server into the cache: its files and what its rules declare.
    let kept = std::fs::read_dir(cache.path()).expect("the cache").count();
    assert_eq!(kept, 2, "the module's folder and its rules");
    let other_hand_hidden = |app: &ChanceryApp| {
        let table = app.session().table();
        let hand = &table.zones[&chancery_core::ZoneId::from(format!("hand.{other}").as_str())];
        hand.cards
            .iter()
            .all(|c| c.as_str().starts_with(chancery_core::table::HIDDEN_CARD))
    };
    assert!(
        other_hand_hidden(h.state()),
        "the other seat's hand is stand-ins"
    );
    let my_hand = &h.state().session().table().zones
        [&chancery_core::ZoneId::from(format!("hand.{mine}").as_str())];
    assert!(
        my_hand
            .cards
            .iter()
            .all(|c| !c.as_str().starts_with(chancery_core::table::HIDDEN_CARD)),
        "the seat sees its own hand"
    );
    h.get_by_label(&format!(
        "Seen as {}",
        if mine == "A" { "Alpha" } else { "Beta" }
    ));
    // A click answers the seat's decision; the server takes it and sends the new game.
    let entries = |app: &ChanceryApp| app.session().log().len();
    let before = entries(h.state());
    let label = h
        .state()
        .view
        .my_ask()
        .and_then(|ask| ask.actions.first().map(|a| a.label.clone()))
        .expect("the seat decides");
    h.get_by_label(&label).click();
    step_until(&mut h, "the server's game after the answer", &|app| {
        entries(app) > before
    });
    let by_me = h
        .state()
        .session()
        .log()
        .last()
        .and_then(|e| e.seat.clone());
    assert_eq!(by_me, Some(SeatId::from(mine)), "the answer is the seat's");
    assert_eq!(
        state(&links[mine])["log"].as_array().map(Vec::len),
        Some(entries(h.state())),
        "the server's log and the window's are one"
    );
    // The other seat answers from another machine: the window shows it when it arrives.
    assert_eq!(
        state(&links[other])["decision"]["yours"],
        true,
        "the testbed at seed 3: the other seat decides next"
    );
    assert!(
        h.state().view.my_ask().is_none(),
        "the window offers nothing while the other seat decides"
    );
    the_other_seat_s_move_at_a_physical_board(&mut h, &links, other);
    let by = h
        .state()
        .session()
        .log()
        .last()
        .and_then(|e| e.seat.clone());
    assert_eq!(by, Some(SeatId::from(other)), "the other seat's move shows");
    assert!(
        other_hand_hidden(h.state()),
        "the other seat's hand is still stand-ins"
    );
    chat_both_ways(&mut h, &links, other);
    // Undo follows the table's rule (the mover's, by default): the other seat moved last,
    // so the server refuses, and says why.
    h.get_by_label("Undo").click();
    step_until(&mut h, "the server's refusal", &|app| {
        app.view.error().is_some()
    });
    let refusal = h.state().view.error().unwrap_or_default().to_owned();
    assert!(
        refusal.contains("only the seat that moved last"),
        "{refusal}"
    );
}

/// What the server sends a seat's window (its game: table, log, decision, standings) names
/// none of the cards in the other seat's hand, at each step of a game; and the other seat's
/// choices are not in it, only that it decides.
#[test]
fn a_seat_s_window_is_sent_nothing_of_the_other_seat_s_hand() {
    use chancery_server::seat::SeatGame;
    let mut local = local_game();
    let mut searched = 0;
    for step in 0..16 {
        for (seat, other) in [("A", "B"), ("B", "A")] {
            let game = SeatGame::of(&mut local, &SeatId::from(seat), "0");
            let sent = serde_json::to_string(&game).expect("JSON");
            let hand = &local.table().zones
                [&chancery_core::ZoneId::from(format!("hand.{other}").as_str())];
            for card in &hand.cards {
                assert!(
                    !sent.contains(&format!("\"{card}\"")),
                    "step {step}: {seat}'s window is sent {other}'s card {card}"
                );
                searched += 1;
            }
            if let Some(prompt) = &game.prompt {
                for ask in &prompt.asks {
                    if ask.seat == Some(SeatId::from(other)) {
                        assert!(
                            ask.actions.is_empty(),
                            "{other}'s choices are sent to {seat}"
                        );
                    }
                }
            }
            assert_eq!(game.spec.seed, 0, "no seed");
            assert_eq!(game.table.seed, 0, "no seed in the table");
        }
        let Ok(Some(prompt)) = local.prompt().clone() else {
            break;
        };
        let ask = &prompt.asks[0];
        let action = &ask.actions[0];
        local
            .apply(Input::Act {
                seat: ask.seat.clone(),
                choice: action.choice(),
                dice: Vec::new(),
                by: Actor::Human,
            })
            .expect("legal");
    }
    assert!(local.history().len() >= 4, "the seats played");
    assert!(searched >= 10, "hidden cards were searched for: {searched}");
}

/// The app at a seat whose server goes down mid-game: the window says it is reconnecting,
/// keeps the answer given meanwhile, and once the server is back (started again on its
/// data) the answer reaches the table and the game goes on where it was.
#[test]
fn an_answer_given_while_the_server_is_down_reaches_the_table_when_it_is_back() {
    use chancery::gui::{ChanceryApp, LinkState};

    use egui_kittest::kittest::Queryable;

    let data = tempfile::tempdir().expect("scratch");
    let cache = tempfile::tempdir().expect("a module cache");
    let server = Server::start(data.path());
    let port = server.port;
    let links = host(&server);
    let mine = deciding(&links);
    let mut h = joined_window(links[mine].as_str().expect("a link"), cache.path());
    let state_of = |app: &ChanceryApp| app.view.remote().map(|r| r.state.clone());
    step_until(&mut h, "the table to be live", &|app| {
        state_of(app) == Some(LinkState::Up)
    });
    server.kill();
    step_until(&mut h, "the window to see the server gone", &|app| {
        matches!(state_of(app), Some(LinkState::Lost(_)))
    });
    h.get_by_label("Reconnecting…");
    // The answer is given while the server is down: it waits.
    let entries = |app: &ChanceryApp| app.session().log().len();
    let before = entries(h.state());
    let label = h
        .state()
        .view
        .my_ask()
        .and_then(|ask| ask.actions.first().map(|a| a.label.clone()))
        .expect("the seat decides");
    h.get_by_label(&label).click();
    h.run();
    assert_eq!(
        h.state().view.status(),
        Some("Answer kept: it goes to the table once the connection is back.")
    );
    let _back = Server::start_at(data.path(), port, &[]);
    step_until(&mut h, "the answer to reach the table", &|app| {
        entries(app) > before
    });
    assert_eq!(state_of(h.state()), Some(LinkState::Up));
    let by = h
        .state()
        .session()
        .log()
        .last()
        .and_then(|e| e.seat.clone());
    assert_eq!(
        by,
        Some(SeatId::from(mine)),
        "the kept answer is the seat's"
    );
    assert_eq!(
        state(&links[mine])["log"].as_array().map(Vec::len),
        Some(entries(h.state())),
        "the server has it"
    );
}

/// The table's chat on the Napoleonic Wars Campaign (nine nations and an umpire): a line to
/// everyone reaches every seat and the spectators, also those who join later; the umpire's
/// private word reaches its seat only; a seat's private word to another seat, and a
/// spectator's line, are refused with the reason.
#[test]
fn the_chat_reaches_everyone_and_the_umpire_s_private_word_only_its_seat() {
    use chancery_server::client;
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let (code, out, err) = chancery(&[
        "host",
        &repo().join("modules/campaign").display().to_string(),
        "--demo",
        "--server",
        &server.url,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let links: Json = serde_json::from_str(&out).expect("JSON");
    let link = |key: &str| links[key].as_str().expect("a link").to_owned();
    client::say(
        &link("UM"),
        "France: spies report movement near Ulm.",
        Some("FR"),
    )
    .expect("the umpire's private word");
    client::say(&link("FR"), "Good evening, gentlemen.", None).expect("a line to everyone");
    let refused = client::say(&link("AU"), "psst", Some("FR")).expect_err("refused");
    assert!(refused.to_string().contains("from the umpire"), "{refused}");
    let refused = client::say(&link("spectator"), "hi", None).expect_err("refused");
    assert!(refused.to_string().contains("spectator"), "{refused}");
    let read = |key: &str| -> Vec<String> {
        client::chat(&link(key))
            .expect("the chat")
            .into_iter()
            .map(|l| match l.to_name {
                Some(to) => format!("{} to {to}: {}", l.from_name, l.text),
                None => format!("{}: {}", l.from_name, l.text),
            })
            .collect()
    };
    let private = "Umpire to France: France: spies report movement near Ulm.";
    let public = "France: Good evening, gentlemen.";
    assert_eq!(read("FR"), [private, public]);
    assert_eq!(read("UM"), [private, public]);
    assert_eq!(
        read("AU"),
        [public],
        "Austria reads no private word of France's"
    );
    assert_eq!(read("spectator"), [public]);
    // A line too long, or empty, is refused; the chat is as it was.
    assert!(client::say(&link("AU"), &"x".repeat(501), None).is_err());
    assert!(client::say(&link("AU"), " \n ", None).is_err());
    assert_eq!(read("AU"), [public]);
}

/// The host's undo rule holds at the table. `mover` (the default): the seat that moved takes
/// its move back until the next seat moves, and no other seat takes it back. `agreed`: a
/// seat asks, and the last move a person made is taken back once every other person agrees
/// (a refusal keeps it). `nobody`: nobody. A move taken back is gone from the server's
/// store too: a server killed and started again does not bring it back.
#[test]
fn a_move_is_taken_back_as_the_host_s_undo_rule_allows() {
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let remote = |what: &str, link: &Json| -> (i32, String, String) {
        chancery(&["remote", what, link.as_str().expect("a link")])
    };
    let log_len = |links: &serde_json::Map<String, Json>| {
        state(&links["A"])["log"].as_array().map_or(0, Vec::len)
    };

    // The mover takes back its own move; the other seat cannot.
    let links = host_with(&server, &["--undo", "mover"]);
    let first = deciding(&links);
    let second = if first == "A" { "B" } else { "A" };
    let before = log_len(&links);
    let (code, err) = remote_act(&links[first]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(log_len(&links), before + 1);
    let (code, _, err) = remote("undo", &links[second]);
    assert_eq!(code, 1, "another seat's move is not taken back");
    assert!(err.contains("only the seat that moved last"), "{err}");
    let (code, out, err) = remote("undo", &links[first]);
    assert_eq!(
        (code, out.trim()),
        (0, "Your last move is taken back"),
        "{err}"
    );
    assert_eq!(log_len(&links), before, "the move is gone");
    assert_eq!(deciding(&links), first, "the mover decides again");
    // Played again, then the next seat moves: the first seat's move stands.
    let (code, err) = remote_act(&links[first]);
    assert_eq!(code, 0, "{err}");
    let (code, err) = remote_act(&links[second]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = remote("undo", &links[first]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the last move was"), "{err}");

    // Everybody agrees: asked, refused (the move stands), asked again, agreed.
    let links = host_with(&server, &["--undo", "agreed"]);
    let first = deciding(&links);
    let second = if first == "A" { "B" } else { "A" };
    let before = log_len(&links);
    let (code, err) = remote_act(&links[first]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = remote("undo", &links[first]);
    assert_eq!(code, 0);
    assert!(out.contains("once every other person agrees"), "{out}");
    let asked = &state(&links[second])["undo"]["asked"];
    assert_eq!(asked["yours"], true, "the other seat is asked: {asked}");
    let (code, out, _) = remote("refuse", &links[second]);
    assert_eq!((code, out.trim()), (0, "Refused: the move stands"));
    assert_eq!(log_len(&links), before + 1);
    assert!(state(&links[second])["undo"]["asked"].is_null());
    let (code, _, _) = remote("undo", &links[first]);
    assert_eq!(code, 0);
    let (code, _, err) = remote("agree", &links[first]);
    assert_eq!(code, 1, "the asker does not agree with itself");
    assert!(err.contains("you asked"), "{err}");
    let (code, out, _) = remote("agree", &links[second]);
    assert_eq!(
        (code, out.trim()),
        (0, "Everybody agreed: the move is taken back")
    );
    assert_eq!(log_len(&links), before, "taken back");
    // The store forgot it: a server killed and started again has the game as it is now.
    let now = game_part(state(&links["A"]));
    drop(server);
    let server = Server::start(data.path());
    let relinked = Json::from(format!("{}#{}", server.url, token_of(&links["A"])));
    assert_eq!(
        game_part(state(&relinked)),
        now,
        "the move taken back stays taken back"
    );

    // Nobody.
    let links = host_with(&server, &["--undo", "nobody"]);
    let first = deciding(&links);
    let (code, err) = remote_act(&links[first]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = remote("undo", &links[first]);
    assert_eq!(code, 1);
    assert!(err.contains("nobody takes back a move"), "{err}");
    let (code, _, err) = chancery(&[
        "host",
        &testbed(),
        "--server",
        &server.url,
        "--undo",
        "sometimes",
    ]);
    assert_eq!(code, 2, "an unknown rule is a usage error");
    assert!(err.contains("nobody, mover"), "{err}");
}

/// A TLS proxy on a free loopback port in front of `server`, as Caddy or nginx would stand
/// in front of `chancery serve`: its certificate is made for `localhost` now, and written to
/// `ca` for the clients to trust (`SSL_CERT_FILE`). Returns the port.
fn tls_proxy(server: &Server, ca: &Path) -> u16 {
    use tokio_rustls::rustls;
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("a cert");
    std::fs::write(ca, made.cert.pem()).expect("the certificate written");
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(made.key_pair.serialize_der().into());
    let config = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(vec![made.cert.der().clone()], key)
        .expect("a TLS config");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().expect("its address").port();
    let behind = server.port;
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            listener.set_nonblocking(true).expect("non-blocking");
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
            while let Ok((outside, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(mut outside) = acceptor.accept(outside).await else {
                        return;
                    };
                    let Ok(mut inside) =
                        tokio::net::TcpStream::connect(("127.0.0.1", behind)).await
                    else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut outside, &mut inside).await;
                });
            }
        });
    });
    port
}

/// Behind a TLS proxy, the links are `wss://`: the host opens the table through it, and a
/// seat reads its view and answers through it. A client that does not trust the proxy's
/// certificate is refused with a reason, and so is a plain `ws://` link to the TLS port.
#[test]
fn a_table_behind_a_tls_proxy_is_played_through_wss_links() {
    let data = tempfile::tempdir().expect("scratch");
    let server = Server::start(data.path());
    let ca = data.path().join("proxy-ca.pem");
    let port = tls_proxy(&server, &ca);
    let secure = format!("wss://localhost:{port}/ws");
    let trusting = |args: &[&str]| -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_chancery"))
            .args(args)
            .env("SSL_CERT_FILE", &ca)
            .output()
            .expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = trusting(&[
        "host",
        &testbed(),
        "--no-overlay",
        "--server",
        &secure,
        "--seed",
        "3",
        "--seat",
        "A=human",
        "--seat",
        "B=human",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let links: Json = serde_json::from_str(&out).expect("JSON");
    let a = links["A"].as_str().expect("a link");
    assert!(a.starts_with(&format!("{secure}#")), "{a}");
    let (code, out, err) = trusting(&["remote", "state", a, "--json"]);
    assert_eq!(code, 0, "{err}");
    let view: Json = serde_json::from_str(&out).expect("JSON");
    assert_eq!(view["seat"], "A");
    let seat = if view["decision"]["yours"] == true {
        "A"
    } else {
        "B"
    };
    let (code, _, err) = trusting(&["remote", "act", links[seat].as_str().expect("a link"), "1"]);
    assert_eq!(code, 0, "{err}");
    // Without the proxy's certificate trusted, nothing is sent: the reason says so.
    let (code, _, err) = chancery(&["remote", "state", a]);
    assert_eq!(code, 1);
    assert!(
        err.contains("cannot reach the server") && err.to_lowercase().contains("certificate"),
        "{err}"
    );
    // A plain link to the TLS port is refused too.
    let plain = a.replacen("wss://", "ws://", 1);
    let (code, _, err) = trusting(&["remote", "state", &plain]);
    assert_eq!(code, 1, "{err}");
}

/// A person at a real board plays a seat of a table of physical dice (`host
/// --physical-dice`): an answer that rolls is refused until its die is given, then taken
/// with it — from the command line (`remote act … --dice N`) and in the app, which asks for
/// the die as at one screen and sends the answer again with it.
#[test]
fn a_table_of_physical_dice_takes_each_person_s_own_roll() {
    use egui_kittest::kittest::Queryable;

    let data = tempfile::tempdir().expect("scratch");
    let cache = tempfile::tempdir().expect("a module cache");
    let server = Server::start(data.path());
    let links = host_with(&server, &["--physical-dice"]);
    let link = |seat: &str| links[seat].as_str().expect("a link").to_owned();
    let first = deciding(&links);
    let second = if first == "A" { "B" } else { "A" };
    // The command line: refused without the die, taken with it.
    let (code, _, err) = chancery(&["remote", "act", &link(first), "recruit"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("6-sided die") && err.contains("--dice"),
        "{err}"
    );
    let (code, _, err) = chancery(&["remote", "act", &link(first), "recruit", "--dice", "4"]);
    assert_eq!(code, 0, "{err}");
    let last = |seat: &str| {
        state(&links[seat])["log"]
            .as_array()
            .and_then(|l| l.last().cloned())
    };
    let entry = last(second).expect("an entry");
    assert_eq!(entry["input"], format!("{first}: recruit (dice 4)"));
    assert_eq!(entry["messages"][0], "Rolled d6 for recruits: 4");
    // The app at the other seat: the click asks for the die, and the answer goes with it.
    let mut h = joined_window(&link(second), cache.path());
    h.get_by_label("Roll for troops").click();
    step_until(&mut h, "the window to ask for the die", &|app| {
        app.view.pending().is_some()
    });
    assert_eq!(
        h.state().view.pending().map(|p| p.need.clone()),
        Some(chancery_core::Need::Die { sides: 6 })
    );
    h.state_mut().view.answer_die(2);
    let taken = format!("{second}: recruit (dice 2)");
    step_until(&mut h, "the answer to be taken with its die", &|_| {
        last(first).expect("an entry")["input"] == taken
    });
}

/// The designer's live playtest reaches the app: the host sends a new version of the module
/// (card Five's value 5 → 50) while a seat plays in the window; the window shows the reload
/// report in its seat's words, fetches the new version by its hash into its cache, and
/// draws the table with it.
#[test]
fn the_host_s_new_version_reaches_the_app_and_its_table_is_drawn_with_it() {
    use chancery::gui::ChanceryApp;

    let data = tempfile::tempdir().expect("scratch");
    let cache = tempfile::tempdir().expect("a module cache");
    let server = Server::start(data.path());
    let links = host(&server);
    let mut h = joined_window(links["A"].as_str().expect("a link"), cache.path());
    let five = |app: &ChanceryApp| {
        app.session()
            .module()
            .cards
            .get("five")
            .and_then(|c| c.fields.get("value").cloned())
    };
    let before = five(h.state());
    assert!(format!("{before:?}").contains('5'), "{before:?}");
    let mut archive =
        chancery_server::archive::Archive::from_dir(&repo().join("tests/modules/testbed"))
            .expect("the testbed");
    let cards = archive.files.get_mut("data/cards.ron").expect("its cards");
    *cards = cards.replacen(
        "\"value\": 5, \"suit\": \"sun\"",
        "\"value\": 50, \"suit\": \"sun\"",
        1,
    );
    chancery_server::client::reload(&server.url, &token_of(&links["host"]), &archive)
        .expect("the table plays the new version");
    step_until(&mut h, "the new version to reach the window", &|app| {
        five(app) != before && app.view.reload_report().is_some()
    });
    assert!(format!("{:?}", five(h.state())).contains("50"));
    let (_, report) = h.state().view.reload_report().cloned().expect("a report");
    assert!(
        report.contains("new version of the module") && report.contains("Changed:"),
        "{report}"
    );
    let kept = std::fs::read_dir(cache.path()).expect("the cache").count();
    assert_eq!(kept, 4, "both versions kept, each with its rules");
}
