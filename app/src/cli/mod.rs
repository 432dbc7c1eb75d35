//! The `chancery` command line: argument parsing and dispatch. Every command writes its
//! results to `out` and its diagnostics to `err`, and returns the exit code (0 success,
//! 1 bad input, 2 usage).

mod check;
mod game;
mod mail;
mod online;
mod plot;
mod scaffold;
pub(crate) mod sim;
mod test;

use std::ffi::OsString;
use std::io::Write;

use clap::{Args, Parser, Subcommand};

pub use crate::games::{OpenArgs, OverlayArgs};

const ABOUT: &str = "Chancery: a tabletop companion for card-driven strategy games";
const LONG_ABOUT: &str = "Chancery: a tabletop companion for card-driven strategy games.

With no command, opens the app on a module: --module, else $CHANCERY_MODULE, else the
module named in modules/DEFAULT.
A module is a folder, or the name of one in the module folders: those $CHANCERY_MODULES
names (separated as in PATH), modules/ here, and modules/ beside the program or above it;
so `chancery check cov` works from any folder. Saves name their module's folder in full.
With --headless, starts the same game without a window and prints the table and the
decision it waits for.

Exit codes: 0 success, 1 bad input (module, save, answer), 2 usage.";

#[derive(Parser, Debug)]
#[command(name = "chancery", version, about = ABOUT, long_about = LONG_ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    open: OpenArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate a module: print its problems as file:line:col and what is still unknown.
    Check(check::CheckArgs),
    /// Start a game, run it to the first human decision, and save it.
    New(game::NewArgs),
    /// Answer the decision a saved game waits for, let bots play, and save it again.
    Act(game::ActArgs),
    /// Print a saved game: its table, the last lines of its log and the decision it waits for
    /// (as JSON with --json; as one seat may see it with --seat).
    State(game::StateArgs),
    /// Write what one seat may know of a turn (its log lines, the table as it sees it, its
    /// private state, the module's view for it, the decision waited for) as Markdown a player
    /// can read in a mail, or JSON; with --all, every seat's and the public post at once.
    Report(mail::ReportArgs),
    /// Write a redacted save for one seat: the game as that seat may know it, to mail to its
    /// player, who can open it in the app and check orders against it (`act --check`).
    Export(mail::ExportArgs),
    /// Write the answers played in a save as an answers file: a player's orders, tried on
    /// his redacted save in the app or with `act`, to mail to the umpire.
    Orders(mail::OrdersArgs),
    /// Replay a saved game, under another version of its module if given, and report where
    /// the game first differs; under another version (--module), replay the module's
    /// recorded games under both versions too, and list those that now diverge (at which
    /// input, and how their end changes).
    Replay(game::ReplayArgs),
    /// Run a module's own tests: its Lua tests (MODULE/tests/*.lua) and recorded games
    /// (MODULE/tests/*.ron, MODULE/tests/replays/*.ron).
    Test(test::TestArgs),
    /// Write a recorded game (a golden replay) from a saved game, with what its table holds
    /// at the end (and every N inputs) as the expectations `chancery test` checks.
    Record(game::RecordArgs),
    /// Play bot-only games headlessly and summarise them.
    Sim(sim::SimArgs),
    /// Print the Lua API reference (Markdown) or its LuaLS type stubs.
    Api(ApiArgs),
    /// Work on modules: `chancery module new NAME` writes a small working one to start from.
    Module(scaffold::ModuleArgs),
    /// Run a table server: it holds many tables, runs their rules and bots, keeps every
    /// input in its data folder, and sends each seat only its own view (`host` opens a table
    /// on it; `remote` or the app plays a seat).
    Serve(online::ServeArgs),
    /// Open a table on a server for a module's game, and print one invitation link per seat
    /// and one for spectators.
    Host(online::HostArgs),
    /// Play a seat of a table on a server through its invitation link: print its view,
    /// answer for it, or wait until it must decide.
    Remote(online::RemoteArgs),
    /// Open the app at a seat of a table on a server, through the invitation link the host
    /// gave you: the window shows what your seat may know and sends your answers.
    Join(online::JoinArgs),
}

#[derive(Args, Debug)]
struct ApiArgs {
    /// Print the LuaLS type stubs (scripts/chancery.d.lua) instead of the Markdown reference.
    #[arg(long)]
    stubs: bool,
}

/// What `run` decided to do: finish with an exit code, or open the window.
pub enum Outcome {
    /// Exit with this code.
    Exit(i32),
    /// Open the app with these arguments.
    OpenWindow(Box<OpenArgs>),
}

/// Parses `args` and runs the command, writing to `out` and `err`.
pub fn run(
    args: impl IntoIterator<Item = OsString>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.render().to_string();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    let _ = write!(out, "{text}");
                    Outcome::Exit(0)
                }
                _ => {
                    let _ = write!(err, "{text}");
                    Outcome::Exit(2)
                }
            };
        }
    };
    let result = match cli.command {
        None if cli.open.headless => game::headless(&cli.open, out, err),
        None => return Outcome::OpenWindow(Box::new(cli.open)),
        Some(Command::Check(args)) => check::run(&args, out, err),
        Some(Command::New(args)) => game::new(&args, out, err),
        Some(Command::Act(args)) => game::act(&args, out, err),
        Some(Command::State(args)) => game::state(&args, &cli.open.overlay, out, err),
        Some(Command::Report(args)) => mail::report(&args, out, err),
        Some(Command::Export(args)) => mail::export(&args, out, err),
        Some(Command::Orders(args)) => mail::orders(&args, out),
        Some(Command::Replay(args)) => game::replay(&args, out, err),
        Some(Command::Test(args)) => test::run(&args, out, err),
        Some(Command::Record(args)) => game::record(&args, out, err),
        Some(Command::Sim(args)) => sim::run(&args, out, err),
        Some(Command::Module(args)) => scaffold::run(&args, out, err),
        Some(Command::Serve(args)) => online::serve(&args, out),
        Some(Command::Host(args)) => online::host(&args, &cli.open.overlay, out, err),
        Some(Command::Remote(args)) => online::remote(&args, out),
        Some(Command::Join(args)) => {
            return Outcome::OpenWindow(Box::new(OpenArgs {
                join: Some(args.link),
                physical_board: args.physical_board,
                screenshot: args.screenshot,
                size: args.size,
                ..cli.open
            }));
        }
        Some(Command::Api(args)) => {
            let text = if args.stubs {
                chancery_core::devtools::luals_stubs()
            } else {
                chancery_core::devtools::api_reference_markdown()
            };
            write!(out, "{text}")
                .map(|_| 0)
                .map_err(anyhow::Error::from)
        }
    };
    Outcome::Exit(match result {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(err, "error: {e:#}");
            1
        }
    })
}
