//! The `chancery` command line: argument parsing and dispatch. Every command writes its
//! results to `out` and its diagnostics to `err`, and returns the exit code (0 success,
//! 1 bad input, 2 usage).

mod check;
mod game;
mod plot;
mod scaffold;
pub(crate) use game::{open_session, options_error, restore, spec_from};
pub(crate) mod sim;
mod test;

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use chancery_core::module::OverlayChoice;
use chancery_core::{LoadOptions, Module, Value};
use clap::{Args, Parser, Subcommand};

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

/// How the app (or its headless equivalent) opens.
#[derive(Args, Debug, Clone)]
pub struct OpenArgs {
    /// Module folder to open.
    #[arg(long, value_name = "DIR")]
    pub module: Option<PathBuf>,
    /// Scenario to start (default: the module's default scenario).
    #[arg(long, value_name = "ID")]
    pub scenario: Option<String>,
    /// Seed of the game's dice and shuffles (default: a fresh one, shown with the game; give
    /// the same seed to play the same deal again).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Who plays a seat: SEAT=human, SEAT=bot (its default bot) or SEAT=bot:NAME.
    #[arg(long = "seat", value_name = "SEAT=WHO")]
    pub seats: Vec<String>,
    /// An option of the module's set-up, as KEY=VALUE (see the module's README).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Open a save instead of starting a game.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Start without a window: print the table and the pending decision, then exit.
    #[arg(long)]
    pub headless: bool,
    /// Show every hand and face-down card (one person playing every seat, or testing).
    #[arg(long)]
    pub open_hands: bool,
    /// Play on a physical board beside the app: after each bot step (and each undo) list
    /// what to change on the board, and let the bots wait until it is ticked off.
    #[arg(long)]
    pub physical_board: bool,
    /// Save a screenshot of the window to FILE (PNG) and exit (needs a display).
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<PathBuf>,
    /// Open on this board of the module (its id or its name; default: the first).
    #[arg(long, value_name = "BOARD")]
    pub board: Option<String>,
    /// Draw N frames one after another, then print how much CPU time each took to build
    /// and tessellate (median, 90th percentile, max) and exit (needs a display).
    #[arg(long, value_name = "N")]
    pub frame_stats: Option<usize>,
    /// Window size, as WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "1600x1000")]
    pub size: String,
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

/// Which owner's overlay to merge over the module's data.
#[derive(Args, Debug, Clone, Default)]
pub struct OverlayArgs {
    /// The owner's overlay file (default: for a saved game the overlay it was started with,
    /// else ~/.local/share/chancery/overlays/<module>.ron).
    #[arg(long, value_name = "FILE", global = true)]
    pub overlay: Option<PathBuf>,
    /// Load the module without any overlay.
    #[arg(long, global = true, conflicts_with = "overlay")]
    pub no_overlay: bool,
}

impl OverlayArgs {
    /// The load options these flags ask for.
    pub fn load_options(&self, strict: bool) -> LoadOptions {
        let overlay = match (&self.overlay, self.no_overlay) {
            (_, true) => OverlayChoice::Off,
            (Some(path), false) => OverlayChoice::File(path.clone()),
            (None, false) => OverlayChoice::Default,
        };
        LoadOptions { overlay, strict }
    }
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
}

#[derive(Args, Debug)]
struct ApiArgs {
    /// Print the LuaLS type stubs (scripts/chancery.d.lua) instead of the Markdown reference.
    #[arg(long)]
    stubs: bool,
}

/// A fresh seed for a new game, from 1 to 999,999 (short enough to read out and type again).
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    // The standard library keys each RandomState from the system's random source.
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    hasher.finish() % 999_999 + 1
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
        Some(Command::State(args)) => game::state(&args, &cli.open.overlay, out),
        Some(Command::Replay(args)) => game::replay(&args, out, err),
        Some(Command::Test(args)) => test::run(&args, out, err),
        Some(Command::Record(args)) => game::record(&args, out, err),
        Some(Command::Sim(args)) => sim::run(&args, out, err),
        Some(Command::Module(args)) => scaffold::run(&args, out, err),
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

/// Loads a module, printing its diagnostics to `err`; an error if it does not load.
pub fn load_module(
    dir: &Path,
    options: &LoadOptions,
    err: &mut dyn Write,
) -> anyhow::Result<Arc<Module>> {
    let dir = &resolve_module(dir);
    match chancery_core::load_module(dir, options) {
        Ok(module) => {
            for warning in module.warnings.iter() {
                writeln!(err, "{warning}")?;
            }
            if let Some(note) = overlay_problems(&module) {
                write!(err, "{note}")?;
            }
            Ok(Arc::new(module))
        }
        Err(diagnostics) => {
            for d in diagnostics.iter() {
                writeln!(err, "{d}")?;
            }
            anyhow::bail!(
                "module '{}' has {} error(s); fix them and try again",
                dir.display(),
                diagnostics.error_count()
            )
        }
    }
}

/// What is wrong with the module's overlay, if anything, with what it means for the game.
pub fn overlay_problems(module: &Module) -> Option<String> {
    let overlay = module.overlay.as_ref().filter(|o| !o.errors.is_empty())?;
    Some(format!(
        "{}\nThe overlay {} adds none of its values until this is mended (nothing in it is changed); the game goes on without them.\n",
        overlay.errors,
        overlay.path.display()
    ))
}

/// The module folder to open: `--module`, else `CHANCERY_MODULE`, else the folder that a
/// `DEFAULT` file in one of [`module_folders`] names, else `modules/` itself (which then
/// fails to load with a message saying what to pass).
pub fn module_dir(given: Option<&Path>) -> PathBuf {
    if let Some(dir) = given
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os("CHANCERY_MODULE").map(PathBuf::from))
    {
        return resolve_module(&dir);
    }
    for folder in module_folders() {
        if let Ok(name) = std::fs::read_to_string(folder.join("DEFAULT"))
            && !name.trim().is_empty()
        {
            return folder.join(name.trim());
        }
    }
    PathBuf::from("modules")
}

/// Where modules are looked for, in order: the folders `CHANCERY_MODULES` names
/// (separated as in PATH), `modules/` in the current folder, and `modules/` beside the
/// program or in one of the four folders above it (a build in `target/release` finds the
/// repository's modules).
pub fn module_folders() -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = std::env::var_os("CHANCERY_MODULES")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    folders.push(PathBuf::from("modules"));
    if let Ok(exe) = std::env::current_exe() {
        folders.extend(exe.ancestors().skip(1).take(5).map(|d| d.join("modules")));
    }
    folders.retain(|f| f.is_dir());
    folders
}

/// A module named on the command line: a folder that holds `module.ron` as written, else a
/// module of that name in one of [`module_folders`] (`chancery check cov` from anywhere).
/// The result is absolute, so that saves name the module wherever they are opened.
pub fn resolve_module(given: &Path) -> PathBuf {
    let found = if given.join("module.ron").is_file() {
        given.to_path_buf()
    } else {
        module_folders()
            .into_iter()
            .map(|folder| folder.join(given))
            .find(|dir| dir.join("module.ron").is_file())
            .unwrap_or_else(|| given.to_path_buf())
    };
    std::path::absolute(&found).unwrap_or(found)
}

/// Reads `KEY=VALUE` pairs into a map of plain values.
pub fn parse_options(pairs: &[String]) -> anyhow::Result<Value> {
    let mut map = std::collections::BTreeMap::new();
    for pair in pairs {
        let (key, value) = pair
            .split_once('=')
            .with_context(|| format!("option '{pair}' is not KEY=VALUE"))?;
        map.insert(key.to_owned(), Value::parse_arg(value));
    }
    Ok(Value::Map(map))
}
