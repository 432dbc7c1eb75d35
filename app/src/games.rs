//! What both front ends do with games, so that the window and the command line share it
//! and neither imports the other: the arguments that open a game and name an overlay, the
//! module folders, starting or restoring a game, values entered into the owner's overlay,
//! and an older version of a module to compare with.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use chancery_core::module::{
    DataValue, DemoGame, FieldType, OverlayChoice, OverlayTarget, write_overlay_value,
};
use chancery_core::save::SaveFile;
use chancery_core::session::parse_controller;
use chancery_core::{GameSpec, LoadOptions, Module, SeatId, Session, Value, start_game};
use clap::Args;

/// What a new game is started with, on the command line of the app and of `chancery new`.
#[derive(Args, Debug, Clone, Default)]
pub struct StartArgs {
    /// Scenario to start (default: the module's default scenario).
    #[arg(long, value_name = "ID")]
    pub scenario: Option<String>,
    /// Seed of the game's dice and shuffles (default: a fresh one, kept in the save; give
    /// the same seed to play the same deal again).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Who plays a seat: SEAT=human, SEAT=bot (its default bot) or SEAT=bot:NAME.
    #[arg(long = "seat", value_name = "SEAT=WHO")]
    pub seats: Vec<String>,
    /// An option of the module's set-up, as KEY=VALUE (see the module's README).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl StartArgs {
    /// Whether the person asked for no scenario, seat or option.
    pub fn is_unset(&self) -> bool {
        self.scenario.is_none() && self.seats.is_empty() && self.options.is_empty()
    }

    /// The module's demo game, when these arguments start a demo and ask for nothing else.
    pub fn demo_game<'m>(&self, module: &'m Module, demo: bool) -> Option<&'m DemoGame> {
        module
            .manifest
            .demo_game
            .as_ref()
            .filter(|_| demo && self.is_unset())
    }

    /// These arguments, or, for a demo where the person asked for nothing, the module's demo
    /// game (its seating) with the same seed.
    pub fn or_demo_game(&self, module: &Module, demo: bool) -> StartArgs {
        match self.demo_game(module, demo) {
            Some(game) => StartArgs {
                scenario: game.scenario.as_ref().map(|s| s.to_string()),
                seed: self.seed,
                seats: game.seats.clone(),
                options: game.options.clone(),
            },
            None => self.clone(),
        }
    }

    /// The spec of the game these arguments start in `module` (a fresh seed if none).
    pub fn spec(&self, module: &Module) -> anyhow::Result<GameSpec> {
        spec_from(
            module,
            self.scenario.as_deref(),
            self.seed.unwrap_or_else(fresh_seed),
            &self.seats,
            &self.options,
        )
    }
}

/// How the app (or its headless equivalent) opens.
#[derive(Args, Debug, Clone)]
pub struct OpenArgs {
    /// Module folder to open.
    #[arg(long, value_name = "DIR")]
    pub module: Option<PathBuf>,
    /// The scenario, seed, seats and options of a new game.
    #[command(flatten)]
    pub start: StartArgs,
    /// Open a save instead of starting a game.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Start without a window: print the table and the pending decision, then exit.
    #[arg(long)]
    pub headless: bool,
    /// Show every hand and face-down card (one person playing every seat, or testing).
    #[arg(long)]
    pub open_hands: bool,
    /// One person plays every seat a person plays (a solitaire of several seats, such as
    /// the Allies against a bot): the table shows what the deciding seat may see, and the
    /// screen is never passed.
    #[arg(long, conflicts_with = "open_hands")]
    pub one_person: bool,
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
    /// The owner's overlay.
    #[command(flatten)]
    pub overlay: OverlayArgs,
    /// An invitation link to a seat at a table on a server (`chancery join LINK`): the
    /// window plays that seat instead of a game of its own.
    #[arg(skip)]
    pub join: Option<String>,
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
    /// Try the game with the module's demo values: placeholders for the numbers only the
    /// owner of the physical game has, read-only (nothing entered is stored).
    #[arg(long, global = true, conflicts_with_all = ["overlay", "no_overlay"])]
    pub demo: bool,
}

impl OverlayArgs {
    /// The load options these flags ask for.
    pub fn load_options(&self, strict: bool) -> LoadOptions {
        let overlay = match (&self.overlay, self.no_overlay) {
            _ if self.demo => OverlayChoice::Demo,
            (_, true) => OverlayChoice::Off,
            (Some(path), false) => OverlayChoice::File(path.clone()),
            (None, false) => OverlayChoice::Default,
        };
        LoadOptions { overlay, strict }
    }
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

/// The game spec of a scenario, seed, `SEAT=WHO` pairs and `KEY=VALUE` options.
pub fn spec_from(
    module: &Module,
    scenario: Option<&str>,
    seed: u64,
    seats: &[String],
    options: &[String],
) -> anyhow::Result<GameSpec> {
    let scenario = match scenario {
        Some(id) => id.to_owned(),
        None => module
            .default_scenario()
            .map(|s| s.id.to_string())
            .context("the module has no scenario")?,
    };
    let mut spec = GameSpec::new(scenario, seed);
    spec.options = parse_options(options)?;
    for pair in seats {
        let (seat, who) = pair
            .split_once('=')
            .with_context(|| format!("--seat '{pair}' is not SEAT=WHO"))?;
        let controller = parse_controller(module, spec.scenario.as_str(), &spec.options, seat, who)
            .map_err(anyhow::Error::msg)?;
        spec.seats.insert(SeatId::from(seat), controller);
    }
    Ok(spec)
}

/// The game of `save` under the module in `module_dir` (default: the folder the save names);
/// the module's diagnostics, and how the game now replays differently, go to `err`.
pub fn restore(
    save: &SaveFile,
    path: &Path,
    module_dir: Option<&Path>,
    options: &LoadOptions,
    err: &mut dyn Write,
) -> anyhow::Result<Session> {
    let dir = module_dir
        .map(Path::to_path_buf)
        .or_else(|| module_of_save(save, path))
        .unwrap_or_else(|| PathBuf::from(&save.module.dir));
    let module = load_module(&dir, &save.load_options(options), err)?;
    let (session, report) = save.restore(module, path)?;
    if let Some(report) = report {
        // The save holds the whole game: whoever opens it may read all of it.
        write!(
            err,
            "Note: the game replays differently under the module as it is now.\n{}",
            report.words(session.module(), None)
        )?;
    }
    Ok(session)
}

/// The module folder of the save at `path`: the folder the save names, if it holds a
/// module; else (a save written elsewhere with a relative path, whose module moved, or that
/// names its module only by its id, as a redacted save does: it names no folder of the
/// umpire's disk) a module of its id beside the save (the save's folder, or one above it, is
/// the module or holds it), else among the module folders. `None` if none is found.
pub fn module_of_save(save: &SaveFile, path: &Path) -> Option<PathBuf> {
    let saved = PathBuf::from(&save.module.dir);
    if saved.is_absolute() && saved.join("module.ron").is_file() {
        return Some(saved);
    }
    let id = save.module.id.as_str();
    // A save from someone else may name any id: only a plain name is looked for.
    if !chancery_core::ids::is_plain_name(id) {
        return None;
    }
    let beside = std::path::absolute(path).ok().and_then(|p| {
        p.ancestors()
            .skip(1)
            .flat_map(|a| [a.to_path_buf(), a.join(id)])
            .find(|d| d.file_name().is_some_and(|n| n == id) && d.join("module.ron").is_file())
    });
    beside.or_else(|| {
        let found = resolve_module(Path::new(id));
        found.join("module.ron").is_file().then_some(found)
    })
}

/// The game `args` describe: the save `--load` names, or a new game of the module and
/// scenario (the module's diagnostics go to `err`).
pub fn open_session(args: &OpenArgs, err: &mut dyn Write) -> anyhow::Result<Session> {
    if let Some(path) = &args.load {
        let file = SaveFile::read(path)?;
        let options = args.overlay.load_options(false);
        return restore(&file, path, args.module.as_deref(), &options, err);
    }
    let dir = module_dir(args.module.as_deref());
    let module = load_module(&dir, &args.overlay.load_options(false), err)?;
    let spec = args
        .start
        .or_demo_game(&module, args.overlay.demo)
        .spec(&module)?;
    Ok(start_game(module, spec)?)
}

/// Writes `value` for `target` into the owner's overlay of the game's module and rebases
/// the game onto the module reloaded with it; returns the overlay's path.
pub fn store_value(
    session: &mut Session,
    target: &OverlayTarget,
    value: Value,
    load_options: &LoadOptions,
) -> Result<std::path::PathBuf, String> {
    write_overlay_and_reload(session, load_options, |path, module| {
        write_overlay_value(path, module, target, DataValue::Known(value))
    })
}

/// Writes into the owner's overlay with `write` (given its path and the module's id), then
/// plays on under the module reloaded with it. Returns the overlay's path. If the module does
/// not load with what was written, or the game does not replay under it, the overlay is put
/// back byte for byte and the game goes on as it was.
pub fn write_overlay_and_reload(
    session: &mut Session,
    load_options: &LoadOptions,
    write: impl FnOnce(&std::path::Path, &str) -> Result<(), String>,
) -> Result<std::path::PathBuf, String> {
    let module = session.module().clone();
    let path = module.overlay_for_storing()?.to_path_buf();
    let before = match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    write(&path, module.id())?;
    let put_back = |why: String| {
        let restored = match &before {
            Some(bytes) => chancery_core::files::write_atomic(&path, bytes),
            None => std::fs::remove_file(&path),
        };
        match restored {
            Ok(()) => format!("{why}\nThe overlay {} is left as it was.", path.display()),
            Err(e) => format!("{why}\nPutting {} back failed too: {e}", path.display()),
        }
    };
    let reloaded = match chancery_core::load_module(&module.dir, load_options) {
        Ok(m) => m,
        Err(d) => {
            return Err(put_back(format!(
                "the module does not load with that value:\n{d}"
            )));
        }
    };
    if let Some(first) = reloaded
        .overlay
        .as_ref()
        .and_then(|o| o.errors.iter().next())
    {
        return Err(put_back(format!("that value does not fit: {first}")));
    }
    match session.rebase_whole(Arc::new(reloaded)) {
        Ok(report) if report.refused.is_none() => Ok(path),
        // Said at the table, where any seat may be looking: only what all may see.
        Ok(report) => Err(put_back(format!(
            "the game does not replay with that value: {}",
            report.words(session.module(), Some(&SeatId::spectator()))
        ))),
        Err(e) => Err(put_back(format!(
            "the game does not start with that value: {e}"
        ))),
    }
}

/// The type a value of the module's data must have: the declared one, or where the module
/// declares none (a space's or piece's property, a table of any values), the shape of the
/// values the same property or table already has, so that a value of another shape (`3`
/// where the rules read a list) is refused before it is stored.
pub fn value_type(module: &Module, target: &OverlayTarget) -> FieldType {
    let declared = match target {
        OverlayTarget::CardField(_, field) => module.field_def(field).map(|f| f.kind.clone()),
        OverlayTarget::TableEntry(table, _) => module.tables.get(table).map(|t| t.kind.clone()),
        OverlayTarget::SpaceProp(..) | OverlayTarget::PieceProp(..) => None,
    };
    if let Some(kind) = declared.filter(|k| *k != FieldType::Any) {
        return kind;
    }
    peer_value(module, target).map_or(FieldType::Any, |v| shape_of(&v))
}

/// Another value entered for the same field, table or property as `target`, if any: the
/// shape a value of it has.
fn peer_value(module: &Module, target: &OverlayTarget) -> Option<Value> {
    let known = |v: Option<&DataValue>| match v {
        Some(DataValue::Known(value)) => Some(value.clone()),
        _ => None,
    };
    match target {
        OverlayTarget::CardField(_, field) => {
            module.cards.iter().find_map(|c| known(c.fields.get(field)))
        }
        OverlayTarget::TableEntry(table, _) => module
            .tables
            .get(table)
            .and_then(|t| t.entries.values().find_map(|v| known(Some(v)))),
        OverlayTarget::SpaceProp(place, _, prop) => module
            .places
            .get(place)
            .and_then(|p| p.def.spaces.iter().find_map(|s| known(s.props.get(prop)))),
        OverlayTarget::PieceProp(_, prop) => {
            module.pieces.iter().find_map(|p| known(p.props.get(prop)))
        }
    }
}

/// What to type for `target`, shown beside its value prompt: a value of its type `ty` as a
/// person types it (another entry of the same table or field, when one is entered and has
/// that type, so that a map shows its own keys; else one built from the type).
pub fn value_example(module: &Module, target: &OverlayTarget, ty: &FieldType) -> String {
    if let Some(peer) = peer_value(module, target)
        && !matches!(ty, FieldType::Int | FieldType::Bool | FieldType::Text)
        && module.check_value(&peer, ty).is_ok()
    {
        return peer.to_typed();
    }
    ty.example(&|kind| module.first_id(kind))
}

/// The type of values shaped like `value`: its kind, and for a list or map the shape of its
/// first item.
fn shape_of(value: &Value) -> FieldType {
    let inner = |item: Option<&Value>| Box::new(item.map_or(FieldType::Any, shape_of));
    match value {
        Value::Int(_) => FieldType::Int,
        Value::Bool(_) => FieldType::Bool,
        Value::Str(_) => FieldType::Text,
        Value::List(items) => FieldType::List(inner(items.first())),
        Value::Map(map) => FieldType::Map(inner(map.values().next())),
        _ => FieldType::Any,
    }
}

/// The parts a value of `ty` is entered by, one box each, where its keys are known: a
/// record's fields, or every id of a map's kind (`MapOf`): each key, its words, its type.
pub fn keyed_parts(module: &Module, ty: &FieldType) -> Option<Vec<(String, String, FieldType)>> {
    match ty {
        FieldType::Record(fields) => Some(
            fields
                .iter()
                .map(|(key, ty)| (key.clone(), module.words_of(key), ty.clone()))
                .collect(),
        ),
        FieldType::MapOf(kind, inner) => Some(
            module
                .ids_of(*kind)
                .into_iter()
                .map(|id| {
                    let words = module.name_of(kind.noun(), &id);
                    (id, words, (**inner).clone())
                })
                .collect(),
        ),
        _ => None,
    }
}

/// A value of a record or a map read from one box a key (see [`keyed_parts`]): each box
/// filled is read as its key's type, an empty one left out (a record's check then says
/// which field is missing).
pub fn compose_value(
    module: &Module,
    ty: &FieldType,
    typed: &std::collections::BTreeMap<String, String>,
) -> Result<Value, String> {
    let parts = keyed_parts(module, ty).unwrap_or_default();
    let mut map = std::collections::BTreeMap::new();
    for (key, words, inner) in &parts {
        let Some(text) = typed.get(key).filter(|t| !t.trim().is_empty()) else {
            continue;
        };
        let value = parse_value(module, text, inner).map_err(|e| format!("{words}: {e}"))?;
        map.insert(key.clone(), value);
    }
    if map.is_empty() {
        return Err("fill in at least one box first".to_owned());
    }
    let value = Value::Map(map);
    module.check_value(&value, ty)?;
    Ok(value)
}

/// Reads a typed value from what the user typed.
pub fn parse_value(module: &Module, text: &str, ty: &FieldType) -> Result<Value, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("type a value first".to_owned());
    }
    let value = match ty {
        FieldType::Int => Value::Int(
            text.parse()
                .map_err(|_| format!("'{text}' is not a whole number"))?,
        ),
        FieldType::Bool => match text.to_lowercase().as_str() {
            "true" | "yes" | "y" => Value::Bool(true),
            "false" | "no" | "n" => Value::Bool(false),
            _ => return Err(format!("'{text}' is not yes or no")),
        },
        FieldType::Text | FieldType::OneOf(_) | FieldType::Ref(_) => Value::Str(text.to_owned()),
        FieldType::List(_)
        | FieldType::Map(_)
        | FieldType::MapOf(..)
        | FieldType::Record(_)
        | FieldType::Any => Value::parse_arg(text),
    };
    module.check_value(&value, ty)?;
    Ok(value)
}

/// A card's name for a person; with its number among them when other cards share the name.
pub fn card_names(module: &Module) -> impl Fn(&str) -> String + '_ {
    |id: &str| match module.cards.get(id) {
        Some(card) if module.cards.iter().filter(|c| c.name == card.name).count() > 1 => {
            // Cards of one name told apart by their order in the module: "Ambush (2)".
            let n = module
                .cards
                .iter()
                .filter(|c| c.name == card.name)
                .position(|c| c.id == card.id)
                .map_or(0, |i| i + 1);
            format!("{} ({n})", card.name)
        }
        Some(card) => card.name.clone(),
        None => id.to_owned(),
    }
}

/// The old version's folder: as given, or the module's folder at a git revision, taken
/// out into `scratch`.
fn old_module_dir(old: &str, new_dir: &Path, scratch: &Path) -> anyhow::Result<PathBuf> {
    let Some(rev) = old.strip_prefix("git:") else {
        return Ok(PathBuf::from(old));
    };
    let dir = new_dir
        .canonicalize()
        .with_context(|| format!("cannot find the module folder {}", new_dir.display()))?;
    let git = |args: &[&str]| -> anyhow::Result<std::process::Output> {
        let output = std::process::Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(args)
            .output()
            .context("cannot run git (is it installed?)")?;
        if !output.status.success() {
            anyhow::bail!(
                "git {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        Ok(output)
    };
    let prefix = String::from_utf8_lossy(&git(&["rev-parse", "--show-prefix"])?.stdout)
        .trim()
        .to_owned();
    let listing = git(&[
        "ls-tree",
        "-r",
        "--name-only",
        "--full-tree",
        rev,
        "--",
        &prefix,
    ])?;
    let files = String::from_utf8_lossy(&listing.stdout).into_owned();
    if files.trim().is_empty() {
        anyhow::bail!("the module folder {prefix} is not in git revision {rev}");
    }
    for file in files.lines() {
        let body = git(&["show", &format!("{rev}:{file}")])?.stdout;
        let rel = file.strip_prefix(&prefix).unwrap_or(file);
        let target = scratch.join(rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, body)?;
    }
    Ok(scratch.to_path_buf())
}

/// The version to compare against: a folder, or `git:REV` (the module's folder at that
/// revision, taken out of git into a scratch folder, removed again once loaded).
pub fn load_old_version(
    old: &str,
    new_dir: &Path,
    load: &chancery_core::LoadOptions,
) -> anyhow::Result<Arc<Module>> {
    if old.trim().is_empty() {
        anyhow::bail!("name the folder of the version to compare against");
    }
    let scratch = std::env::temp_dir().join(format!("chancery-compare-{}", std::process::id()));
    // A folder left by an earlier run of the same process id must not add stale files.
    let _ = std::fs::remove_dir_all(&scratch);
    let loaded = old_module_dir(old, new_dir, &scratch).and_then(|dir| {
        chancery_core::load_module(&dir, load).map_err(|d| {
            anyhow::anyhow!(
                "the version to compare against ({old}) does not load:\n{}",
                d.to_string().trim_end()
            )
        })
    });
    let _ = std::fs::remove_dir_all(&scratch);
    loaded.map(Arc::new)
}

/// A metric of a comparison in words: its group and what it is of, by name ("wins ·
/// Beta", "card plays · Ambush").
pub fn metric_name(module: &Module, m: &chancery_core::sim::compare::Metric) -> String {
    let of = if m.group.starts_with("card") {
        card_names(module)(&m.name)
    } else if module.seats.iter().any(|s| s.id.as_str() == m.name) {
        module.seat_name(&SeatId::from(m.name.as_str()))
    } else {
        m.name.clone()
    };
    if of.is_empty() {
        m.group.clone()
    } else {
        format!("{} · {of}", m.group)
    }
}

/// The eyes a command may read `file` with, asked for `seat` (`None`: everything): a seat
/// of the game; in a redacted save, only the seat it is for.
pub fn eyes_for(file: &SaveFile, seat: Option<&SeatId>) -> anyhow::Result<Option<SeatId>> {
    if let Some(seat) = seat
        && !file.table.seats.contains_key(seat)
    {
        let seats: Vec<&str> = file.table.seats.keys().map(|s| s.as_str()).collect();
        anyhow::bail!(
            "seat '{seat}' does not play this game (its seats: {})",
            seats.join(", ")
        );
    }
    if let Some(redacted) = &file.redacted {
        let own = &redacted.redaction.seat;
        if seat != Some(own) {
            anyhow::bail!(
                "this save is seat {own}'s redacted view of the game: it holds only what {own} may see, \
                 so it can be read only as {own} (--seat {own}); the umpire's save holds the rest"
            );
        }
    }
    Ok(file.table.eyes(seat).cloned())
}

/// A headline metric's interval and the precision asked, in the metric's own unit, for a
/// person: ("±25.8 points", "±2.0 points") for a win rate, ("±8.64 inputs", "±17.30
/// inputs") for the game's length, ("±0.41", "±0.67") for a score.
pub fn headline_width(h: &chancery_core::sim::sequential::Headline) -> (String, String) {
    let (scale, unit) = match h.group.as_str() {
        "wins" => (100.0, " points"),
        "length" => (1.0, " inputs"),
        _ => (1.0, ""),
    };
    let show = |x: f64| {
        if x.is_finite() {
            format!("±{:.1$}{unit}", x * scale, if scale > 1.0 { 1 } else { 2 })
        } else {
            "not yet known".to_owned()
        }
    };
    (show(h.half_width), show(h.precision))
}

/// A headline metric in words: "wins of France", "length".
pub fn headline_name(module: &Module, h: &chancery_core::sim::sequential::Headline) -> String {
    if h.name.is_empty() {
        h.group.clone()
    } else {
        format!(
            "{} of {}",
            h.group,
            module.seat_name(&chancery_core::SeatId::from(h.name.as_str()))
        )
    }
}

#[cfg(test)]
mod headline_tests {
    use super::headline_width;
    use chancery_core::sim::sequential::Headline;

    fn headline(group: &str, half_width: f64, precision: f64) -> Headline {
        Headline {
            group: group.into(),
            name: String::new(),
            difference: 0.0,
            half_width,
            precision,
            changed: false,
            precise: false,
        }
    }

    #[test]
    fn a_headline_s_width_is_told_in_its_own_unit() {
        let (width, wanted) = headline_width(&headline("wins", 0.258, 0.02));
        assert_eq!(
            (width.as_str(), wanted.as_str()),
            ("±25.8 points", "±2.0 points")
        );
        let (width, wanted) = headline_width(&headline("length", 8.64, 17.3));
        assert_eq!(
            (width.as_str(), wanted.as_str()),
            ("±8.64 inputs", "±17.30 inputs")
        );
        let (width, _) = headline_width(&headline("score", f64::INFINITY, 0.67));
        assert_eq!(width, "not yet known");
    }
}
