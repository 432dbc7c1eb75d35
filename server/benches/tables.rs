//! What one table server holds on this machine (`cargo bench -p chancery-server`): tables of
//! the testbed, a person at seat A answering over WebSocket and the server's bot at seat B,
//! played on loopback until each game ends, with 10, 100 and 1,000 connected seats (each
//! table has its player and a spectator). Prints the answers a second the server sustains,
//! the 50th and 99th percentile of the time from an answer sent to the view that asks the
//! seat again, and the server's memory a table (resident set growth over the tables,
//! idle). `CHANCERY_BENCH_SEATS=10,100` chooses the sizes; `CHANCERY_BENCH_THINK_MS=2000`
//! has each player think that long before each answer, as people do (0, the default:
//! they answer the moment they are asked, and the round trip is the server's queue).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chancery_core::{Controller, GameSpec, SeatId};
use chancery_server::archive::Archive;
use chancery_server::table::LoadChoice;
use chancery_server::{HostRequest, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value as Json, json};
use tokio_tungstenite::tungstenite::Message;

/// The allocator `chancery serve` runs with (the rules' Lua makes and drops many small
/// tables and strings).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

/// Plays seat A of one table until its game ends, thinking about `think` before each
/// answer; the round trip of each answer.
async fn play(
    url: String,
    (token, spectator): (String, String),
    think: Duration,
    seated: Arc<(tokio::sync::Barrier, std::sync::Mutex<Option<Instant>>)>,
) -> Vec<Duration> {
    let (mut watcher, _) = tokio_tungstenite::connect_async_with_config(&url, None, true)
        .await
        .expect("connects");
    watcher
        .send(Message::Text(json!({"join": spectator}).to_string().into()))
        .await
        .expect("joins");
    // The spectator reads what it is sent, as a connected seat does.
    tokio::spawn(async move { while let Some(Ok(_)) = watcher.next().await {} });
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(&url, None, true)
        .await
        .expect("connects");
    socket
        .send(Message::Text(json!({"join": token}).to_string().into()))
        .await
        .expect("joins");
    let mut trips = Vec::new();
    let mut sent: Option<Instant> = None;
    let mut answered = 0;
    while let Some(Ok(frame)) = socket.next().await {
        let Message::Text(text) = frame else { continue };
        let frame: Json = serde_json::from_str(&text).expect("JSON");
        let Some(view) = frame.get("view") else {
            continue;
        };
        let decision = &view["decision"];
        if decision["over"] == true {
            break;
        }
        if decision["yours"] != true {
            continue;
        }
        // Every table is seated before the clock runs: joining is not answering.
        if answered == 0 && seated.0.wait().await.is_leader() {
            *seated.1.lock().expect("the clock") = Some(Instant::now());
        }
        if let Some(at) = sent.take() {
            trips.push(at.elapsed());
        }
        let action = decision["actions"][0].clone();
        if !think.is_zero() {
            let think = think.as_millis() as u64;
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos() as u64);
            // The first answer comes any time within one think (the tables did not all sit
            // down at once); each later one after a think, give or take a tenth.
            let wait = match answered {
                0 => nanos % (think + 1),
                _ => think - think / 10 + nanos % (think / 5 + 1),
            };
            tokio::time::sleep(Duration::from_millis(wait)).await;
        }
        answered += 1;
        sent = Some(Instant::now());
        socket
            .send(Message::Text(
                json!({"act": {"name": action["name"], "arg": action["arg"]}})
                    .to_string()
                    .into(),
            ))
            .await
            .expect("sends");
    }
    trips
}

fn main() {
    // The allocator as `chancery serve` sets it (its arenas committed as used): read as the
    // process starts, so the bench starts itself again with it.
    if std::env::var_os("MIMALLOC_ARENA_EAGER_COMMIT").is_none()
        && let Ok(me) = std::env::current_exe()
    {
        use std::os::unix::process::CommandExt;
        let _ = std::process::Command::new(me)
            .args(std::env::args_os().skip(1))
            .env("MIMALLOC_ARENA_EAGER_COMMIT", "0")
            .exec();
    }
    // How long a player thinks before each answer (0: answers the moment it is asked).
    let think = Duration::from_millis(
        std::env::var("CHANCERY_BENCH_THINK_MS")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0),
    );
    let sizes: Vec<usize> = std::env::var("CHANCERY_BENCH_SEATS")
        .unwrap_or_else(|_| "10,100,1000".to_owned())
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    let testbed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modules/testbed");
    let archive = Archive::from_dir(&testbed).expect("the testbed");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    println!("seats  tables  answers/s   p50 ms   p99 ms   KiB a table");
    for seats in sizes {
        let tables = (seats / 2).max(1);
        let data = tempfile::tempdir().expect("scratch");
        let server = Server::open(data.path()).expect("the server");
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a port");
        let url = format!("ws://{}/ws", listener.local_addr().expect("bound"));
        runtime.spawn(chancery_server::serve(Arc::clone(&server), listener));
        let before = resident_kib();
        let mut invitations = Vec::new();
        for seed in 0..tables {
            let mut spec = GameSpec::new("basic", seed as u64);
            spec.seats.insert(SeatId::from("A"), Controller::Human);
            spec.seats
                .insert(SeatId::from("B"), Controller::Bot("simple".to_owned()));
            let hosted = server
                .host(HostRequest {
                    archive: archive.clone(),
                    spec,
                    load: LoadChoice::Plain,
                    inputs: Vec::new(),
                    undo: Default::default(),
                })
                .expect("hosted");
            invitations.push((
                hosted.invitations["A"].clone(),
                hosted.invitations["spectator"].clone(),
            ));
        }
        let per_table = resident_kib().saturating_sub(before) / tables as u64;
        let seated = Arc::new((
            tokio::sync::Barrier::new(tables),
            std::sync::Mutex::new(None),
        ));
        let mut trips: Vec<Duration> = runtime.block_on(async {
            let players: Vec<_> = invitations
                .into_iter()
                .map(|(a, s)| tokio::spawn(play(url.clone(), (a, s), think, seated.clone())))
                .collect();
            let mut all = Vec::new();
            for player in players {
                all.extend(player.await.expect("played"));
            }
            all
        });
        let start = seated
            .1
            .lock()
            .expect("the clock")
            .unwrap_or_else(Instant::now);
        let elapsed = start.elapsed();
        trips.sort();
        println!(
            "{seats:>5}  {tables:>6}  {:>9.0}  {:>7.2}  {:>7.2}  {per_table:>12}",
            trips.len() as f64 / elapsed.as_secs_f64(),
            percentile(&trips, 0.5).as_secs_f64() * 1000.0,
            percentile(&trips, 0.99).as_secs_f64() * 1000.0,
        );
    }
}
