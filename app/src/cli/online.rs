//! Live online play from the command line: `serve` runs a table server, `host` opens a
//! table on one and prints each seat's invitation link, `remote` reads a seat's view,
//! answers for it, or waits until it must decide.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use chancery_core::{Module, Value};
use chancery_server::table::{LoadChoice, UndoRule};
use chancery_server::{HostRequest, archive::Archive, client};
use clap::{Args, Subcommand};
use serde_json::Value as Json;

use crate::games::StartArgs;

const FIRST_TABLE: &str = "A first online table, in five commands:
  chancery serve --data ~/chancery-tables             # the server, on 127.0.0.1:7878
  chancery host MODULE --demo --server ws://127.0.0.1:7878/ws
                                    # a module folder (or name): one link per seat and one
                                    # for spectators; send each player theirs
  chancery join 'ws://127.0.0.1:7878/ws#TOKEN'        # a player: the app, at their seat
  chancery remote state 'ws://127.0.0.1:7878/ws#TOKEN'  # or a script: the seat's view
  chancery remote act 'ws://127.0.0.1:7878/ws#TOKEN' 1  # and its answer

On the internet, keep serve on 127.0.0.1 behind a reverse proxy that holds the TLS
certificate, and host with --server wss://YOUR.HOST/ws. Caddy:
  YOUR.HOST {
      reverse_proxy /ws 127.0.0.1:7878
  }
(nginx: a `location /ws` with proxy_http_version 1.1 and the Upgrade and Connection
headers set). As a systemd service: a unit whose ExecStart is
  chancery serve --listen 127.0.0.1:7878 --data /var/lib/chancery
with Restart=always. The README's \"Playing online\" has the files whole.";

#[derive(Args, Debug)]
#[command(after_help = FIRST_TABLE)]
pub struct ServeArgs {
    /// The address and port to listen on (behind a reverse proxy that adds TLS, keep it on
    /// 127.0.0.1).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:7878")]
    pub listen: SocketAddr,
    /// The folder of the server's tables, modules and inputs (made if missing); the same
    /// folder after a restart resumes every table where it was.
    #[arg(long, value_name = "DIR")]
    pub data: PathBuf,
    /// Seconds a table nobody is connected to stays in memory; it starts again (its inputs
    /// replayed) when somebody connects.
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub idle: u64,
}

#[derive(Args, Debug)]
#[command(after_help = FIRST_TABLE)]
pub struct HostArgs {
    /// The module folder whose game the table plays, or a saved game to move to the server
    /// (its module, scenario, seats and every input so far).
    pub module: PathBuf,
    /// The server: ws://HOST:PORT/ws (what `serve` prints), or wss://HOST/ws behind a
    /// reverse proxy with TLS; the links printed name it.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The scenario, seed, seats and options of the game.
    #[command(flatten)]
    pub start: StartArgs,
    /// Play with the module's demo values (its placeholders), as `--demo` does at one screen.
    #[arg(long)]
    pub demo: bool,
    /// Print a JSON map from each seat id (and `spectator`, and `host`) to its link.
    #[arg(long)]
    pub json: bool,
    /// Stay, watching the module's folder: each edit saved goes to the table, which replays
    /// the game under it, and every seat reads the reload report in its own words.
    #[arg(long)]
    pub watch: bool,
    /// Roll physical dice: each die a person's answer needs is rolled at their table and
    /// entered (`remote act --dice`, or the app asks); a bot's dice are the server's.
    #[arg(long)]
    pub physical_dice: bool,
    /// Who may take back a move: `nobody`; `mover`, the seat that moved until the next seat
    /// moves (the default); or `agreed`, any seat once every other person agrees.
    #[arg(long, value_name = "RULE", default_value = "mover", value_parser = UndoRule::parse)]
    pub undo: UndoRule,
}

#[derive(Args, Debug)]
#[command(
    after_help = "The link is the one `chancery host` printed for your seat \
(ws://HOST:PORT/ws#TOKEN); keep it to yourself: it acts for your seat. The module's files \
come from the server once and are kept in Chancery's data folder (online-modules)."
)]
pub struct JoinArgs {
    /// Your seat's invitation link.
    pub link: String,
    /// You play on a physical board beside the app: after each move the table takes, the
    /// app lists what to change on your board (what your seat may see of it).
    #[arg(long)]
    pub physical_board: bool,
    /// Save a screenshot of the window to FILE (PNG) and exit (needs a display).
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<std::path::PathBuf>,
    /// Window size, as WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "1600x1000")]
    pub size: String,
}

#[derive(Args, Debug)]
pub struct RemoteArgs {
    #[command(subcommand)]
    pub command: RemoteCommand,
}

#[derive(Subcommand, Debug)]
pub enum RemoteCommand {
    /// Print the seat's view: the table as it sees it and its decision (JSON with --json).
    State {
        /// The seat's invitation link.
        link: String,
        /// Print the view as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Answer the seat's decision: the action's number, or its name then its argument, as
    /// `remote state` lists them.
    Act {
        /// The seat's invitation link.
        link: String,
        /// The action: its number, or its name.
        action: String,
        /// The action's argument (`3`, `FR`, `{"power": "AU"}`).
        #[arg(allow_negative_numbers = true)]
        arg: Option<String>,
        /// At a table of physical dice, the dice you rolled for it (comma-separated).
        #[arg(long, value_name = "N,N…", value_delimiter = ',')]
        dice: Vec<i64>,
    },
    /// Hand the seat to its bot while you are away (`bot`), or take it back (`human`).
    Hand {
        /// The seat's invitation link.
        link: String,
        /// `bot` or `human` (or `bot:NAME` for another of the module's bots).
        to: String,
    },
    /// Say a line in the table's chat, to everyone; with --to, the umpire's private word to
    /// one seat (or a seat's to the umpire).
    Say {
        /// The seat's invitation link.
        link: String,
        /// What to say.
        text: String,
        /// The seat to say it to, privately (its id).
        #[arg(long, value_name = "SEAT")]
        to: Option<String>,
    },
    /// Take back the seat's move, as the table's undo rule allows (`chancery host --undo`):
    /// the mover's own last move, or, at a table whose rule is `agreed`, ask the others.
    Undo {
        /// The seat's invitation link.
        link: String,
    },
    /// Agree to another seat's asking to take back a move.
    Agree {
        /// The seat's invitation link.
        link: String,
    },
    /// Refuse another seat's asking to take back a move: the move stands.
    Refuse {
        /// The seat's invitation link.
        link: String,
    },
    /// List the module versions the table has played: each one's own version, its archive's
    /// hash, and from which move of the game on.
    Versions {
        /// The seat's invitation link.
        link: String,
    },
    /// Print the table's chat as the seat may read it (the last 200 lines), one a line.
    Chat {
        /// The seat's invitation link.
        link: String,
        /// Print the lines as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Wait until the seat must decide (or the game ends), then print its view.
    Wait {
        /// The seat's invitation link.
        link: String,
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
        /// Print the view as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `chancery serve`.
pub fn serve(args: &ServeArgs, out: &mut dyn Write) -> anyhow::Result<i32> {
    chancery_server::run(
        args.listen,
        &args.data,
        Duration::from_secs(args.idle.max(1)),
        out,
    )?;
    Ok(0)
}

/// `chancery host`.
pub fn host(
    args: &HostArgs,
    overlay: &crate::games::OverlayArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<i32> {
    let mut options = overlay.load_options(false);
    if args.demo {
        options.overlay = chancery_core::OverlayChoice::Demo;
    }
    // A saved game moves with its module, its start and its inputs.
    let save = match args.module.is_file() {
        true => {
            let file = chancery_core::SaveFile::read(&args.module)?;
            if file.redacted.is_some() {
                anyhow::bail!(
                    "{} is one seat's redacted save: host the umpire's own save",
                    args.module.display()
                );
            }
            Some(file)
        }
        false => None,
    };
    let module_dir = save
        .as_ref()
        .map_or_else(|| args.module.clone(), |f| PathBuf::from(&f.module.dir));
    let module: Module =
        chancery_core::load_module(&module_dir, &options).map_err(|d| anyhow::anyhow!("{d}"))?;
    // The owner's values travel with the table (read there, never written).
    let owner = match &options.overlay {
        chancery_core::OverlayChoice::File(path) => Some(path.clone()),
        chancery_core::OverlayChoice::Default => {
            chancery_core::module::default_overlay_path(module.id()).filter(|p| p.exists())
        }
        _ => None,
    };
    let load = match owner {
        _ if args.demo => LoadChoice::Demo,
        Some(path) => LoadChoice::Owner(
            std::fs::read_to_string(&path)
                .map_err(|e| anyhow::anyhow!("cannot read your overlay {}: {e}", path.display()))?,
        ),
        None => LoadChoice::Plain,
    };
    let (mut spec, inputs) = match save {
        Some(file) => (file.spec(), file.inputs),
        None => (
            args.start.or_demo_game(&module, args.demo).spec(&module)?,
            Vec::new(),
        ),
    };
    if args.physical_dice {
        spec.dice = chancery_core::DiceMode::Physical;
    }
    let archive = Archive::from_dir(&module_dir)?;
    let request = HostRequest {
        archive,
        spec,
        load,
        inputs,
        undo: args.undo,
    };
    let hosted = client::host(&args.server, &request)?;
    let links: serde_json::Map<String, Json> = hosted
        .invitations
        .iter()
        .map(|(seat, token)| (seat.clone(), Json::from(client::link(&args.server, token))))
        .collect();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&links)?)?;
        out.flush()?;
        return watch(args, &module_dir, &hosted, out);
    }
    writeln!(
        out,
        "Table {} opened on {}. Send each player their own link (it acts for that seat only):",
        hosted.table, args.server
    )?;
    for (seat, link) in &links {
        let who = match seat.as_str() {
            "spectator" => "Spectators".to_owned(),
            "host" => "You, the host (new versions of the module)".to_owned(),
            id => module.seat_name(&chancery_core::SeatId::from(id)),
        };
        writeln!(out, "  {who}: {}", link.as_str().unwrap_or_default())?;
    }
    writeln!(
        err,
        "Each player runs `chancery join LINK` (the app), or `chancery remote state LINK`. Undo: {}.",
        args.undo.words()
    )?;
    watch(args, &module_dir, &hosted, out)
}

/// With `--watch`, sends each saved edit of the module to the table and prints its report;
/// else returns at once.
fn watch(
    args: &HostArgs,
    module_dir: &std::path::Path,
    hosted: &chancery_server::Hosted,
    out: &mut dyn Write,
) -> anyhow::Result<i32> {
    if !args.watch {
        return Ok(0);
    }
    let token = hosted
        .invitations
        .get("host")
        .ok_or_else(|| anyhow::anyhow!("the server gave no host invitation"))?;
    writeln!(
        out,
        "Watching {} for edits (Ctrl+C stops).",
        module_dir.display()
    )?;
    out.flush()?;
    let mut last = Archive::from_dir(module_dir)?.hash();
    loop {
        std::thread::sleep(Duration::from_millis(400));
        // A folder half-written (an editor's save) is read again on the next round.
        let Ok(archive) = Archive::from_dir(module_dir) else {
            continue;
        };
        let hash = archive.hash();
        if hash == last {
            continue;
        }
        last = hash;
        match client::reload(&args.server, token, &archive) {
            Ok(report) => writeln!(out, "The table plays the edit:\n{report}")?,
            Err(e) => writeln!(out, "The edit is not played: {e}")?,
        }
        out.flush()?;
    }
}

/// `chancery remote`.
pub fn remote(args: &RemoteArgs, out: &mut dyn Write) -> anyhow::Result<i32> {
    match &args.command {
        RemoteCommand::State { link, json } => {
            let view = client::view(link)?;
            print_view(&view, *json, out)?;
        }
        RemoteCommand::Wait {
            link,
            timeout,
            json,
        } => {
            let view = client::wait(link, Duration::from_secs(*timeout))?;
            print_view(&view, *json, out)?;
        }
        RemoteCommand::Versions { link } => {
            let versions = client::versions(link)?;
            for (n, played) in versions.iter().enumerate() {
                let from = match played.from_input {
                    0 => "from the start".to_owned(),
                    moves => format!("from move {}", moves + 1),
                };
                let now = if n + 1 == versions.len() {
                    " (now)"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "{}. version {} ({}), {from}{now}",
                    n + 1,
                    played.version,
                    &played.hash[..played.hash.len().min(12)]
                )?;
            }
        }
        RemoteCommand::Undo { link } => {
            writeln!(out, "{}", client::undo(link, None)?)?;
        }
        RemoteCommand::Agree { link } => {
            writeln!(out, "{}", client::undo(link, Some(true))?)?;
        }
        RemoteCommand::Refuse { link } => {
            writeln!(out, "{}", client::undo(link, Some(false))?)?;
        }
        RemoteCommand::Say { link, text, to } => {
            let n = client::say(link, text, to.as_deref())?;
            writeln!(out, "Said (line {n}).")?;
        }
        RemoteCommand::Chat { link, json } => {
            let lines = client::chat(link)?;
            if *json {
                writeln!(out, "{}", serde_json::to_string_pretty(&lines)?)?;
            }
            for line in lines.iter().filter(|_| !*json) {
                let who = match &line.to_name {
                    Some(to) => format!("{} to {to} (private)", line.from_name),
                    None => line.from_name.clone(),
                };
                writeln!(out, "{who}: {}", line.text)?;
            }
        }
        RemoteCommand::Hand { link, to } => {
            let view = client::hand(link, to)?;
            print_view(&view, false, out)?;
        }
        RemoteCommand::Act {
            link,
            action,
            arg,
            dice,
        } => {
            let view = client::view(link)?;
            let (name, arg) = resolve(&view, action, arg.as_deref())?;
            let view = client::act(link, &name, arg, dice).map_err(|e| {
                match e.downcast_ref::<client::Needs>() {
                    Some(client::Needs {
                        need: chancery_core::Need::Die { sides },
                        ..
                    }) => anyhow::anyhow!(
                        "the rules need a {sides}-sided die roll: roll it and answer again with --dice N (the dice so far first)"
                    ),
                    _ => e,
                }
            })?;
            print_view(&view, false, out)?;
        }
    }
    Ok(0)
}

/// The action a person typed: a number of the seat's list, or a name and its argument.
fn resolve(view: &Json, action: &str, arg: Option<&str>) -> anyhow::Result<(String, Json)> {
    let decision = &view["decision"];
    if decision["yours"] != true {
        anyhow::bail!(
            "it is not this seat's decision now: `chancery remote wait LINK` waits for it"
        );
    }
    let actions = decision["actions"].as_array().cloned().unwrap_or_default();
    if arg.is_none()
        && let Ok(n) = action.parse::<usize>()
    {
        let chosen = n
            .checked_sub(1)
            .and_then(|i| actions.get(i))
            .ok_or_else(|| {
                anyhow::anyhow!("there is no action {n}: the seat has {}", actions.len())
            })?;
        return Ok((
            chosen["name"].as_str().unwrap_or_default().to_owned(),
            chosen["arg"].clone(),
        ));
    }
    let (name, typed) = match arg {
        Some(arg) => (action.to_owned(), Some(arg.to_owned())),
        None => match action.split_once(' ') {
            Some((name, rest)) => (name.to_owned(), Some(rest.to_owned())),
            None => (action.to_owned(), None),
        },
    };
    let arg = typed.map_or(Json::Null, |t| Value::parse_arg(&t).to_json());
    Ok((name, arg))
}

/// A view as a person reads it: the turn, the last log lines, the decision and its
/// numbered actions; or all of it as JSON.
fn print_view(view: &Json, json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(view)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "Turn {}{}",
        view["turn"],
        view["phase"]
            .as_str()
            .filter(|p| !p.is_empty())
            .map(|p| format!(", {p}"))
            .unwrap_or_default()
    )?;
    let log = view["log"].as_array().cloned().unwrap_or_default();
    for entry in log
        .iter()
        .rev()
        .take(8)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        for line in entry["messages"].as_array().into_iter().flatten() {
            if let Some(text) = line.as_str() {
                writeln!(out, "   {text}")?;
            }
        }
    }
    let connected = strings(&view["connected"]);
    if !connected.is_empty() {
        writeln!(out, "At the table now: {}", connected.join(", "))?;
    }
    let decision = &view["decision"];
    if decision["over"] == true {
        writeln!(out, "The game is over.")?;
    } else if decision["yours"] == true {
        writeln!(
            out,
            "Your decision: {}",
            decision["text"].as_str().unwrap_or_default()
        )?;
        for (i, action) in decision["actions"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            writeln!(
                out,
                "  {:>2}. {}   [remote act LINK {}]",
                i + 1,
                action["label"].as_str().unwrap_or_default(),
                action["choice"].as_str().unwrap_or_default()
            )?;
        }
    } else {
        let waiting = strings(&decision["waiting"]);
        writeln!(
            out,
            "Waiting for {}: {}",
            if waiting.is_empty() {
                "another seat".to_owned()
            } else {
                waiting.join(", ")
            },
            decision["text"].as_str().unwrap_or_default()
        )?;
    }
    Ok(())
}

/// The strings of a JSON list (none if it is not one).
fn strings(list: &Json) -> Vec<&str> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
        .collect()
}
