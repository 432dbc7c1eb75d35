//! Module self-tests, run by `chancery test`: `MODULE/tests/*.lua`, where each file declares
//! tests with `test(name, function(t) … end)` (a test starts games with `t:game{…}`, drives
//! them like a player would, and asserts with `t:eq`, `t:ok` and `t:fails`), and the
//! recorded games of `MODULE/tests/*.ron` and `MODULE/tests/replays/*.ron`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Function, Lua, UserData, UserDataMethods, Value as LuaValue};

use super::recording::{self, Recording};
use crate::ids::{BoxId, CardId, CounterId, PieceId, PlaceId, SeatId, SpaceId, UnitKindId, ZoneId};
use crate::module::{Diagnostic, Diagnostics, LoadOptions, Module, OverlayChoice};
use crate::rules::{Choice, Prompt};
use crate::save::SaveFile;
use crate::script::Limits;
use crate::script::LuaRules;
use crate::script::api::Params;
use crate::script::convert::{from_lua, to_lua};
use crate::script::prompt::actions_to_lua;
use crate::script::sandbox::{Sources, Vm, install_include};
use crate::script::util::{describe, is_memory_error, our_frames, script_error, with_position};
use crate::session::{Answer, GameSpec, Input, Manual, Session, parse_controller};
use crate::table::{DiceMode, Position};
use crate::value::Value;

/// One documented function of the test API.
pub(crate) struct DocEntry {
    pub name: &'static str,
    pub params: Params,
    pub returns: Params,
    pub doc: &'static str,
}

macro_rules! doc {
    ($name:expr, [$($p:expr),*], [$($r:expr),*], $doc:expr) => {
        DocEntry { name: $name, params: &[$($p),*], returns: &[$($r),*], doc: $doc }
    };
}

/// The globals and `t` methods of a test file.
pub(crate) const TEST_API: &[DocEntry] = &[
    doc!(
        "test",
        [
            ("name", "string"),
            ("limits", "{instructions?: integer, seconds?: number}?"),
            ("body", "fun(t: TestContext)")
        ],
        [],
        "Declares a test: `test(name, body)`, or `test(name, limits, body)`. Helper scripts shared by tests live in `tests/lib/` and are loaded with `include(\"tests/lib/name.lua\")`. A test's own code runs under the limits of every call into a module (100 M instructions, 1.5 s); `limits` raises them for this test. The rules of the games it plays keep their own limits, and their time is not counted. After the test, each game it played is replayed in a fresh VM: a game that plays differently is reported as a warning (the rules keep state outside ctx)."
    ),
    doc!(
        "t:game",
        [(
            "spec",
            "{scenario?: string, seed?: integer, seats?: table<string, string>, options?: table, dice?: \"digital\"|\"physical\", check?: boolean, from?: string, after?: integer, inputs?: string[], overlay?: string}"
        )],
        [("game", "Game")],
        "Starts a game (seats: \"human\", \"bot\" or \"bot:<name>\"); the module's check runs after every input unless check = false. To start from a position: `from` names a recorded game or a save in the module folder (`tests/replays/opening.ron`), whose game is replayed (its first `after` inputs only, if given); then `inputs` are answered, each written `[SEAT:] name [arg] [| dice]`. `overlay` names an overlay file of the module (a fixture of owner data for tests) whose values the game's module takes in place of any other overlay."
    ),
    doc!(
        "t:eq",
        [("actual", "any"), ("expected", "any"), ("what", "string?")],
        [],
        "Fails unless the two values are equal (tables compared deeply); the message shows both."
    ),
    doc!(
        "t:ok",
        [("condition", "any"), ("what", "string?")],
        [],
        "Fails unless the condition is true."
    ),
    doc!(
        "t:fails",
        [("body", "function"), ("contains", "string?")],
        [("message", "string")],
        "Fails unless calling body raises an error (containing the text, if given); returns the message."
    ),
];

/// The methods of a game handle.
pub(crate) const GAME_API: &[DocEntry] = &[
    doc!(
        "prompt",
        [],
        [("prompt", "Prompt?")],
        "The current decision, or nil when the game is over: state, text, decision (\"one\", \"simultaneous\" or \"window\"), asks (each {seat, actions}), answered, and seat and actions of the first ask."
    ),
    doc!(
        "legal",
        [],
        [("choices", "string[]")],
        "The legal actions as text (\"play stadion\"), in prompt order."
    ),
    doc!(
        "act",
        [("name", "string"), ("arg", "any"), ("dice", "integer[]?")],
        [],
        "Answers the prompt; fails the test if the action is refused."
    ),
    doc!(
        "act_as",
        [
            ("seat", "string"),
            ("name", "string"),
            ("arg", "any"),
            ("dice", "integer[]?")
        ],
        [],
        "Answers as a seat (where several seats decide at once); fails the test if refused."
    ),
    doc!(
        "try",
        [("name", "string"), ("arg", "any"), ("dice", "integer[]?")],
        [("ok", "boolean"), ("error", "string?")],
        "Answers the prompt; returns false and the reason instead of failing."
    ),
    doc!(
        "bot",
        [],
        [
            ("choice", "string?"),
            ("reasons", "string[]?"),
            ("seat", "string?")
        ],
        "Lets the bot of a deciding seat choose once; nil when no bot decides."
    ),
    doc!(
        "bot_choice",
        [("bot", "string?"), ("seat", "string?")],
        [("choice", "string?"), ("reasons", "string[]?")],
        "What a bot (the seat's own, unless named) would choose now for a seat (the only one deciding, unless named), without playing it."
    ),
    doc!(
        "run_bots",
        [("limit", "integer?")],
        [("steps", "integer")],
        "Lets bots play until a human decides or the game ends."
    ),
    doc!(
        "undo",
        [],
        [("undone", "boolean")],
        "Undoes the last input."
    ),
    doc!(
        "redo",
        [],
        [("redone", "boolean")],
        "Redoes the last undone input."
    ),
    doc!(
        "move_card",
        [
            ("card", "string"),
            ("zone", "string"),
            ("position", "\"top\"|\"bottom\"?")
        ],
        [],
        "Moves a card by hand."
    ),
    doc!(
        "place",
        [
            ("piece", "string"),
            ("place", "string"),
            ("space", "string")
        ],
        [],
        "Puts a piece on a space by hand."
    ),
    doc!(
        "remove_piece",
        [("piece", "string")],
        [],
        "Takes a piece off the table by hand."
    ),
    doc!(
        "add_units",
        [("box", "string"), ("kind", "string"), ("n", "integer")],
        [],
        "Adds (or removes) units by hand."
    ),
    doc!(
        "set_counter",
        [("id", "string"), ("value", "integer")],
        [],
        "Sets a counter by hand."
    ),
    doc!(
        "set_dice",
        [("mode", "\"digital\"|\"physical\"")],
        [],
        "Switches between the engine's dice and physical dice."
    ),
    doc!(
        "counter",
        [("id", "string")],
        [("value", "integer")],
        "A counter's value."
    ),
    doc!(
        "zone",
        [("zone", "string")],
        [("cards", "string[]")],
        "A zone's cards, top first."
    ),
    doc!(
        "space_of",
        [("piece", "string")],
        [("place", "string?"), ("space", "string?")],
        "Where a piece stands."
    ),
    doc!(
        "units",
        [("box", "string"), ("kind", "string")],
        [("n", "integer")],
        "Units of a kind in a box."
    ),
    doc!(
        "vars",
        [],
        [("vars", "table")],
        "A copy of the rules' variables."
    ),
    doc!(
        "private",
        [("seat", "string")],
        [("state", "table")],
        "A copy of a seat's private state."
    ),
    doc!(
        "state",
        [],
        [("state", "string?")],
        "The current state's name."
    ),
    doc!("turn", [], [("turn", "integer")], "The turn number."),
    doc!(
        "result",
        [],
        [("result", "table?")],
        "The result ({winners, text, scores}) once the game is over."
    ),
    doc!(
        "log",
        [("seat", "string?")],
        [("lines", "string[]")],
        "Every line the game has logged, oldest first (only those a seat may read, if given)."
    ),
    doc!(
        "inputs",
        [],
        [("n", "integer")],
        "How many inputs the game has had."
    ),
    doc!(
        "json",
        [("seat", "string?")],
        [("state", "table")],
        "The state JSON (as a seat sees it, if given)."
    ),
];

/// The outcome of one module test.
#[derive(Clone, Debug, PartialEq)]
pub struct TestResult {
    /// The test file.
    pub file: PathBuf,
    /// The test's name.
    pub name: String,
    /// Why it failed, or `None` if it passed.
    pub failure: Option<String>,
    /// What it printed.
    pub output: Vec<String>,
    /// What is not a failure but deserves a look (a game that replays differently).
    pub warnings: Vec<String>,
}

/// All outcomes, and how often the games of the tests called each `ctx` function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TestReport {
    /// One per test, in file and declaration order.
    pub results: Vec<TestResult>,
    /// Calls of each `ctx` function, summed over every game the tests started.
    pub api_calls: BTreeMap<&'static str, u64>,
}

impl TestReport {
    /// How many tests failed.
    pub fn failures(&self) -> usize {
        self.results.iter().filter(|r| r.failure.is_some()).count()
    }
}

type Sessions = Rc<RefCell<Vec<Rc<RefCell<Session>>>>>;

/// Runs `module`'s tests whose names contain `filter` (all if `None`).
pub fn run_module_tests(
    module: Arc<Module>,
    filter: Option<&str>,
) -> Result<TestReport, Diagnostics> {
    let dir = module.dir.join("tests");
    let files: Vec<PathBuf> = crate::files::lua_files(&dir)
        .into_iter()
        .map(|name| dir.join(name))
        .collect();
    let sessions: Sessions = Rc::default();
    let mut report = TestReport::default();
    for file in files {
        report
            .results
            .extend(run_file(&module, &file, filter, &sessions)?);
    }
    for path in recording::find_recordings(&module.dir)? {
        let name = format!("replay {}", recording::relative(&module.dir, &path));
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let failure = match Recording::read(&path) {
            Ok(rec) => match &rec.overlay {
                Some(overlay) => module_with_overlay(&module, overlay)
                    .and_then(|with| rec.check(&with))
                    .err(),
                None => rec.check(&module).err(),
            },
            Err(diagnostic) => return Err(Diagnostics(vec![diagnostic])),
        };
        report.results.push(TestResult {
            file: path,
            name,
            failure,
            output: Vec::new(),
            warnings: Vec::new(),
        });
    }
    for session in sessions.borrow().iter() {
        for (name, n) in session.borrow().api_calls() {
            *report.api_calls.entry(name).or_default() += n;
        }
    }
    Ok(report)
}

/// The helper scripts tests may include: `tests/lib/*.lua`, by their path in the module.
fn test_helpers(module: &Module) -> Result<Vec<(String, String)>, Diagnostics> {
    crate::files::lua_files(&module.dir.join("tests").join("lib"))
        .into_iter()
        .map(|name| {
            let rel = format!("tests/lib/{name}");
            crate::files::read_inside(&module.dir, &rel)
                .map(|(_, text)| (rel.clone(), text))
                .map_err(|e| {
                    let (line, col) = e.position.unwrap_or((0, 0));
                    Diagnostics(vec![Diagnostic::error(
                        module.dir.join(&rel),
                        line,
                        col,
                        e.message,
                    )])
                })
        })
        .collect()
}

fn run_file(
    module: &Arc<Module>,
    file: &PathBuf,
    filter: Option<&str>,
    sessions: &Sessions,
) -> Result<Vec<TestResult>, Diagnostics> {
    let rel = format!(
        "tests/{}",
        file.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    );
    let fix = |text: &str| text.replace(&format!("{rel}:"), &format!("{}:", file.display()));
    let (_, text) = crate::files::read_inside(&module.dir, &rel).map_err(|e| {
        let (line, col) = e.position.unwrap_or((0, 0));
        Diagnostics(vec![Diagnostic::error(file, line, col, e.message)])
    })?;
    let limits = Limits::default();
    let start_error =
        |e: mlua::Error| Diagnostics(vec![Diagnostic::error(file, 0, 0, describe(&e).0)]);
    let vm = Rc::new(Vm::new(limits).map_err(start_error)?);
    let sources = Sources::new(
        module
            .scripts
            .iter()
            .map(|s| (s.rel.clone(), s.text.clone()))
            .chain(test_helpers(module)?),
    );
    install_include(&vm, sources).map_err(start_error)?;
    let declared: Declared = Rc::default();
    let test = test_function(&vm, limits, declared.clone()).map_err(start_error)?;
    vm.add_global("test", test).map_err(start_error)?;
    let chunk = vm
        .compile(&rel, &text)
        .map_err(|e| lua_diagnostic(file, &rel, &describe(&e).0))?;
    vm.call(|| chunk.call::<()>(()))
        .map_err(|e| lua_diagnostic(file, &rel, &describe(&e).0))?;

    let tests = declared.borrow().clone();
    let overlays = Rc::default();
    let mut results = Vec::new();
    for (name, limits, body) in tests {
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let games_before = sessions.borrow().len();
        let t = TestContext {
            module: module.clone(),
            sessions: sessions.clone(),
            overlays: Rc::clone(&overlays),
        };
        let outcome = vm.call_with(limits, || body.call::<()>(t));
        let failure = outcome.err().map(|e| failure_text(&e, &rel, &body, &fix));
        let played: Vec<_> = sessions.borrow()[games_before..].to_vec();
        let warnings = played
            .iter()
            .filter_map(|session| replays_differently(&session.borrow()))
            .collect();
        results.push(TestResult {
            file: file.clone(),
            name,
            failure,
            output: std::mem::take(&mut *vm.output.borrow_mut()),
            warnings,
        });
    }
    Ok(results)
}

/// The tests a test file declares: each one's name, limits and body.
type Declared = Rc<RefCell<Vec<(String, Limits, Function)>>>;

/// The `test(name, [limits,] body)` function a test file calls to declare its tests, with
/// `limits` unless a test sets its own; a name declared twice is an error.
fn test_function(vm: &Vm, limits: Limits, list: Declared) -> mlua::Result<Function> {
    vm
        .lua
        .create_function(move |lua, (name, a, b): (String, LuaValue, LuaValue)| {
            if list.borrow().iter().any(|(n, _, _)| *n == name) {
                return Err(script_error(
                    lua,
                    format!("test '{name}' is declared twice"),
                ));
            }
            let (limits, body) = match (a, b) {
                (LuaValue::Function(body), LuaValue::Nil) => (limits, body),
                (LuaValue::Table(options), LuaValue::Function(body)) => {
                    (test_limits(&options, limits).map_err(|e| script_error(lua, e))?, body)
                }
                _ => {
                    return Err(script_error(
                        lua,
                        format!(
                            "test '{name}': write test(name, function(t) … end), or test(name, {{instructions = N, seconds = S}}, function(t) … end)"
                        ),
                    ));
                }
            };
            list.borrow_mut().push((name, limits, body));
            Ok(())
        })
}

/// A failed test's message: at the line Lua names (or the innermost frame's, or the test's
/// own line where Lua gives none), with the test file's frames of the traceback.
fn failure_text(
    e: &mlua::Error,
    rel: &str,
    body: &Function,
    fix: &dyn Fn(&str) -> String,
) -> String {
    let (message, traceback) = describe(e);
    let ours = |l: &str| l.starts_with(&format!("{rel}:"));
    let frames = our_frames(traceback.as_deref(), ours);
    // Where Lua gives no position: the innermost frame's, or the test's own line.
    let message = match with_position(&message, &frames) {
        Some(message) if !is_memory_error(e) => message,
        _ => {
            let line = body.info().line_defined.unwrap_or(1);
            format!("{rel}:{line}: {message} (in this test or what it calls)")
        }
    };
    let mut text = fix(&message);
    for line in frames.iter().skip(1).take(12) {
        text.push_str(&format!("\n  at {}", fix(line)));
    }
    text
}

/// Replays `session`'s inputs in a fresh game (a new VM) and compares the table after each
/// with the one the test played; a difference means the rules keep state where the table
/// does not (a module-level variable or an upvalue a hook changes), which undo, saves and
/// replays would lose. Returns the warning, if any.
fn replays_differently(session: &Session) -> Option<String> {
    let module = session.module();
    let records = session.history().records();
    let rules = LuaRules::boxed(module).ok()?;
    let mut fresh = Session::new(module.clone(), session.spec().clone(), rules).ok()?;
    if fresh.history().start().digest() != session.history().start().digest() {
        return Some(
            "the game's set-up differs when it is started again in a fresh VM: the rules keep \
             state outside ctx (a module-level variable or an upvalue?), which undo, saves and \
             replays lose"
                .to_owned(),
        );
    }
    for (i, record) in records.iter().enumerate() {
        let differs = match fresh.apply(record.input.clone()) {
            Ok(()) => fresh.table().digest() != record.digest,
            Err(_) => true,
        };
        if differs {
            return Some(format!(
                "the game replays differently in a fresh VM from input {} ('{}'): the rules keep \
                 state outside ctx (a module-level variable or an upvalue a hook changes?), which \
                 undo, saves and replays lose",
                i + 1,
                record.input
            ));
        }
    }
    None
}

/// A test's own limits: `{instructions = N, seconds = S}`, each optional, in place of the
/// limits every call into module code runs under. Time spent in the rules of the games the
/// test plays is not counted (each of their calls has its own limits).
fn test_limits(options: &mlua::Table, default: Limits) -> Result<Limits, String> {
    let mut limits = default;
    for pair in options.pairs::<String, LuaValue>() {
        let (key, value) = pair.map_err(|e| format!("test options: {e}"))?;
        let number = match value {
            LuaValue::Integer(n) if n > 0 => n as u64,
            LuaValue::Number(n) if n > 0.0 && n.is_finite() => n as u64,
            _ => return Err(format!("test options: '{key}' must be a positive number")),
        };
        match key.as_str() {
            "instructions" => limits.instructions = number,
            "seconds" => limits.wall_ms = number.saturating_mul(1000),
            _ => {
                return Err(format!(
                    "test options: unknown option '{key}' (known: instructions, seconds)"
                ));
            }
        }
    }
    Ok(limits)
}

fn lua_diagnostic(file: &PathBuf, rel: &str, message: &str) -> Diagnostics {
    let rest = message.strip_prefix(&format!("{rel}:")).unwrap_or(message);
    let (line, text) = match rest.split_once(':') {
        Some((n, text)) if n.parse::<usize>().is_ok() => (n.parse().unwrap_or(0), text.trim()),
        _ => (0, rest),
    };
    Diagnostics(vec![Diagnostic::error(
        file,
        line,
        if line > 0 { 1 } else { 0 },
        text,
    )])
}

/// `t` in a test body.
struct TestContext {
    module: Arc<Module>,
    sessions: Sessions,
    /// The module loaded with each overlay fixture a test named, loaded once.
    overlays: Rc<RefCell<BTreeMap<String, Arc<Module>>>>,
}

/// `module` with the overlay file `path` (a file of the module, such as a fixture of owner
/// data for tests) merged over its data in place of any other overlay.
pub(crate) fn module_with_overlay(module: &Module, path: &str) -> Result<Arc<Module>, String> {
    let (file, _) =
        crate::files::read_inside(&module.dir, path).map_err(|e| format!("overlay: {e}"))?;
    let options = LoadOptions {
        overlay: OverlayChoice::File(file),
        strict: false,
    };
    let loaded = crate::script::load_module(&module.dir, &options)
        .map_err(|d| format!("overlay {path}: {d}"))?;
    // A fixture that does not load would leave every game of the test without its values,
    // and each would fail later at the first value it needs, far from the cause.
    if let Some(overlay) = loaded.overlay.as_ref().filter(|o| !o.errors.is_empty()) {
        return Err(format!(
            "{}
The overlay {path} adds none of its values until this is mended",
            overlay.errors
        ));
    }
    Ok(Arc::new(loaded))
}

impl TestContext {
    /// The module with the overlay file `path` merged over its data (loaded once).
    fn with_overlay(&self, path: &str) -> Result<Arc<Module>, String> {
        if let Some(module) = self.overlays.borrow().get(path) {
            return Ok(module.clone());
        }
        let module = module_with_overlay(&self.module, path)?;
        self.overlays
            .borrow_mut()
            .insert(path.to_owned(), module.clone());
        Ok(module)
    }
}

impl UserData for TestContext {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("game", |lua, t, spec: Option<mlua::Table>| {
            let spec = spec
                .map(|s| from_lua(&LuaValue::Table(s), "game spec"))
                .transpose();
            let spec = spec
                .map_err(|e| script_error(lua, e))?
                .unwrap_or_else(Value::map);
            let module = match spec.get("overlay") {
                Some(Value::Str(path)) => t.with_overlay(path).map_err(|e| script_error(lua, e))?,
                Some(other) => {
                    return Err(script_error(
                        lua,
                        format!("overlay must be a file of the module, got {other}"),
                    ));
                }
                None => t.module.clone(),
            };
            let start = game_spec(&module, &spec).map_err(|e| script_error(lua, e))?;
            let rules = LuaRules::boxed(&module).map_err(|e| script_error(lua, e))?;
            let mut session =
                Session::new(module, start.spec, rules).map_err(|e| script_error(lua, e))?;
            session.check_every_step = start.check;
            for (i, input) in start.inputs.into_iter().enumerate() {
                let shown = input.to_string();
                session.apply(input).map_err(|e| {
                    script_error(
                        lua,
                        format!("the position's input {} ({shown}) is refused: {e}", i + 1),
                    )
                })?;
            }
            let session = Rc::new(RefCell::new(session));
            t.sessions.borrow_mut().push(session.clone());
            Ok(Game { session })
        });
        methods.add_method(
            "eq",
            |lua, _, (actual, expected, what): (LuaValue, LuaValue, Option<String>)| {
                if lua_equal(&actual, &expected) {
                    return Ok(());
                }
                let what = what.map(|w| format!("{w}: ")).unwrap_or_default();
                Err(script_error(
                    lua,
                    format!(
                        "{what}expected {}, got {}",
                        literal(&expected),
                        literal(&actual)
                    ),
                ))
            },
        );
        methods.add_method(
            "ok",
            |lua, _, (condition, what): (LuaValue, Option<String>)| {
                if matches!(condition, LuaValue::Nil | LuaValue::Boolean(false)) {
                    let what = what.unwrap_or_else(|| "condition".to_owned());
                    return Err(script_error(
                        lua,
                        format!("{what}: expected true, got {}", literal(&condition)),
                    ));
                }
                Ok(())
            },
        );
        methods.add_method(
            "fails",
            |lua, _, (body, contains): (Function, Option<String>)| match body.call::<()>(()) {
                Ok(()) => Err(script_error(
                    lua,
                    "expected an error, but the function succeeded",
                )),
                Err(err) => {
                    let message = describe(&err).0;
                    match contains {
                        Some(text) if !message.contains(&text) => Err(script_error(
                            lua,
                            format!("expected an error containing '{text}', got: {message}"),
                        )),
                        _ => Ok(message),
                    }
                }
            },
        );
    }
}

/// What a test's game starts from: the spec, whether to check invariants after every
/// input, and the inputs that lead to the position it starts in.
struct GameStart {
    spec: GameSpec,
    check: bool,
    inputs: Vec<Input>,
}

fn game_spec(module: &Module, spec: &Value) -> Result<GameStart, String> {
    let (mut game, mut inputs) = match spec.get("from") {
        Some(Value::Str(path)) => position(module, path)?,
        Some(other) => return Err(format!("from must be a file of the module, got {other}")),
        None => (GameSpec::new(default_scenario(module)?, 1), Vec::new()),
    };
    match spec.get("after") {
        Some(Value::Int(n)) if *n >= 0 && spec.get("from").is_some() => {
            let n = usize::try_from(*n).unwrap_or(usize::MAX);
            if n > inputs.len() {
                return Err(format!(
                    "after = {n}, but the game in from has {} inputs",
                    inputs.len()
                ));
            }
            inputs.truncate(n);
        }
        Some(other) => {
            return Err(format!(
                "after must be a count of inputs of the game in from, got {other}"
            ));
        }
        None => {}
    }
    match spec.get("scenario") {
        Some(Value::Str(s)) => game.scenario = s.clone().into(),
        Some(other) => return Err(format!("scenario must be a string, got {other}")),
        None => {}
    }
    match spec.get("seed") {
        Some(Value::Int(n)) => {
            game.seed = u64::try_from(*n).map_err(|_| "seed must not be negative")?
        }
        None => {}
        Some(other) => return Err(format!("seed must be an integer, got {other}")),
    }
    if let Some(options) = spec.get("options") {
        game.options = options.clone();
    }
    if let Some(Value::Map(seats)) = spec.get("seats") {
        for (seat, who) in seats {
            let who = who
                .as_str()
                .ok_or("seats map seats to \"human\", \"bot\" or \"bot:<name>\"")?;
            game.seats.insert(
                SeatId::from(seat.as_str()),
                parse_controller(module, game.scenario.as_str(), &game.options, seat, who)?,
            );
        }
    }
    match spec.get("dice").and_then(Value::as_str) {
        Some("physical") => game.dice = DiceMode::Physical,
        Some("digital") => game.dice = DiceMode::Digital,
        None => {}
        Some(other) => {
            return Err(format!(
                "dice must be \"digital\" or \"physical\", got {other}"
            ));
        }
    }
    match spec.get("inputs") {
        Some(Value::List(lines)) => {
            for (i, line) in lines.iter().enumerate() {
                let text = line.as_str().ok_or_else(|| {
                    format!("inputs[{}] must be a string like \"A: play one\"", i + 1)
                })?;
                let answer =
                    Answer::parse(text).map_err(|e| format!("inputs[{}] '{text}': {e}", i + 1))?;
                inputs.push(answer.input());
            }
        }
        Some(other) => return Err(format!("inputs must be a list of answers, got {other}")),
        None => {}
    }
    let check = !matches!(spec.get("check"), Some(Value::Bool(false)));
    Ok(GameStart {
        spec: game,
        check,
        inputs,
    })
}

fn default_scenario(module: &Module) -> Result<String, String> {
    module
        .default_scenario()
        .map(|s| s.id.to_string())
        .ok_or_else(|| "the module has no scenario".to_owned())
}

/// The game a recorded game or a save in the module folder holds: its spec and inputs.
fn position(module: &Module, path: &str) -> Result<(GameSpec, Vec<Input>), String> {
    let (file, text) =
        crate::files::read_inside(&module.dir, path).map_err(|e| format!("from: {e}"))?;
    if recording::is_recording(&text) {
        let rec = Recording::read(&file).map_err(|d| d.to_string())?;
        return Ok((rec.spec(), rec.inputs));
    }
    let save = SaveFile::read(&file).map_err(|e| format!("from: {e}"))?;
    Ok((save.spec(), save.inputs))
}

/// A game started by a test.
struct Game {
    session: Rc<RefCell<Session>>,
}

fn choice(lua: &Lua, name: String, arg: LuaValue) -> mlua::Result<Choice> {
    let arg = from_lua(&arg, "arg").map_err(|e| script_error(lua, e))?;
    Ok(Choice { name, arg })
}

fn dice(lua: &Lua, dice: Option<LuaValue>) -> mlua::Result<Vec<i64>> {
    match dice
        .map(|d| from_lua(&d, "dice"))
        .transpose()
        .map_err(|e| script_error(lua, e))?
    {
        None | Some(Value::Nil) => Ok(Vec::new()),
        Some(Value::List(items)) => items
            .iter()
            .map(|v| {
                v.as_int()
                    .ok_or_else(|| script_error(lua, "dice must be integers"))
            })
            .collect(),
        Some(other) => Err(script_error(
            lua,
            format!("dice must be a list of integers, got {other}"),
        )),
    }
}

impl Game {
    fn manual(&self, lua: &Lua, change: Manual) -> mlua::Result<()> {
        self.session
            .borrow_mut()
            .apply(Input::manual(change))
            .map_err(|e| script_error(lua, e))
    }
}

impl UserData for Game {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        add_play_methods(methods);
        add_bot_methods(methods);
        add_manual_methods(methods);
        add_reading_methods(methods);
    }
}

/// The test game's methods that play: the prompt, acting, undo and redo.
fn add_play_methods<M: UserDataMethods<Game>>(methods: &mut M) {
    methods.add_method("prompt", |lua, g, ()| {
        let session = g.session.borrow();
        match session.prompt() {
            Ok(None) => Ok(LuaValue::Nil),
            Ok(Some(prompt)) => prompt_to_lua(lua, prompt).map(LuaValue::Table),
            Err(err) => Err(script_error(lua, err)),
        }
    });
    methods.add_method("legal", |lua, g, ()| {
        let session = g.session.borrow();
        let list: Vec<String> = match session.prompt() {
            Ok(Some(prompt)) => prompt
                .asks
                .iter()
                .flat_map(|ask| {
                    let seat = match (prompt.asks.len(), &ask.seat) {
                        (2.., Some(seat)) => format!("{seat}: "),
                        _ => String::new(),
                    };
                    ask.actions
                        .iter()
                        .map(move |a| format!("{seat}{}", a.choice()))
                })
                .collect(),
            Ok(None) => Vec::new(),
            Err(err) => return Err(script_error(lua, err)),
        };
        lua.create_sequence_from(list)
    });
    methods.add_method(
        "act",
        |lua, g, (name, arg, d): (String, LuaValue, Option<LuaValue>)| {
            let mut input = Input::act(choice(lua, name, arg)?);
            if let Input::Act { dice: slot, .. } = &mut input {
                *slot = dice(lua, d)?;
            }
            g.session
                .borrow_mut()
                .apply(input)
                .map_err(|e| script_error(lua, e))
        },
    );
    methods.add_method(
        "act_as",
        |lua, g, (seat, name, arg, d): (String, String, LuaValue, Option<LuaValue>)| {
            let input = Input::Act {
                seat: Some(SeatId::from(seat)),
                choice: choice(lua, name, arg)?,
                dice: dice(lua, d)?,
                by: crate::session::Actor::Human,
            };
            g.session
                .borrow_mut()
                .apply(input)
                .map_err(|e| script_error(lua, e))
        },
    );
    methods.add_method(
        "try",
        |lua, g, (name, arg, d): (String, LuaValue, Option<LuaValue>)| {
            let mut input = Input::act(choice(lua, name, arg)?);
            if let Input::Act { dice: slot, .. } = &mut input {
                *slot = dice(lua, d)?;
            }
            match g.session.borrow_mut().apply(input) {
                Ok(()) => Ok((true, None)),
                Err(err) => Ok((false, Some(err.to_string()))),
            }
        },
    );
    methods.add_method("undo", |_, g, ()| Ok(g.session.borrow_mut().undo()));
    methods.add_method("redo", |lua, g, ()| {
        g.session
            .borrow_mut()
            .redo()
            .map_err(|e| script_error(lua, e))
    });
}

/// The test game's bots: a step, a preview, and bots playing on.
fn add_bot_methods<M: UserDataMethods<Game>>(methods: &mut M) {
    methods.add_method("bot", |lua, g, ()| {
        let pick = g
            .session
            .borrow_mut()
            .bot_step()
            .map_err(|e| script_error(lua, e))?;
        match pick {
            None => Ok((None, None, None)),
            Some((seat, pick)) => Ok((
                Some(pick.choice.to_string()),
                Some(lua.create_sequence_from(pick.reason)?),
                Some(seat.to_string()),
            )),
        }
    });
    methods.add_method(
        "bot_choice",
        |lua, g, (bot, seat): (Option<String>, Option<String>)| {
            let seat = seat.map(SeatId::from);
            let pick = g
                .session
                .borrow_mut()
                .bot_preview(bot.as_deref(), seat.as_ref())
                .map_err(|e| script_error(lua, e))?;
            match pick {
                None => Ok((None, None)),
                Some(pick) => Ok((
                    Some(pick.choice.to_string()),
                    Some(lua.create_sequence_from(pick.reason)?),
                )),
            }
        },
    );
    methods.add_method("run_bots", |lua, g, limit: Option<usize>| {
        g.session
            .borrow_mut()
            .run_bots(limit.unwrap_or(100_000))
            .map_err(|e| script_error(lua, e))
    });
}

/// The test game's changes by hand, as a person at the table makes them.
fn add_manual_methods<M: UserDataMethods<Game>>(methods: &mut M) {
    methods.add_method(
        "move_card",
        |lua, g, (card, zone, position): (String, String, Option<String>)| {
            let position = match position.as_deref() {
                None | Some("top") => Position::Top,
                Some("bottom") => Position::Bottom,
                Some(other) => {
                    return Err(script_error(
                        lua,
                        format!("position must be top or bottom, got {other}"),
                    ));
                }
            };
            g.manual(
                lua,
                Manual::MoveCard {
                    card: CardId::from(card),
                    to: ZoneId::from(zone),
                    position,
                },
            )
        },
    );
    methods.add_method(
        "place",
        |lua, g, (piece, place, space): (String, String, String)| {
            g.manual(
                lua,
                Manual::PlacePiece {
                    piece: PieceId::from(piece),
                    place: PlaceId::from(place),
                    space: SpaceId::from(space),
                },
            )
        },
    );
    methods.add_method("remove_piece", |lua, g, piece: String| {
        g.manual(
            lua,
            Manual::RemovePiece {
                piece: PieceId::from(piece),
            },
        )
    });
    methods.add_method(
        "add_units",
        |lua, g, (boxed, kind, delta): (String, String, i64)| {
            g.manual(
                lua,
                Manual::AddUnits {
                    boxed: BoxId::from(boxed),
                    kind: UnitKindId::from(kind),
                    delta,
                },
            )
        },
    );
    methods.add_method("set_counter", |lua, g, (counter, value): (String, i64)| {
        g.manual(
            lua,
            Manual::SetCounter {
                counter: CounterId::from(counter),
                value,
            },
        )
    });
    methods.add_method("set_dice", |lua, g, mode: String| {
        let mode = match mode.as_str() {
            "physical" => DiceMode::Physical,
            "digital" => DiceMode::Digital,
            other => {
                return Err(script_error(
                    lua,
                    format!("dice must be digital or physical, got {other}"),
                ));
            }
        };
        g.manual(lua, Manual::SetDice { mode })
    });
}

/// What the test game lets a test read of the table, the log and the result.
fn add_reading_methods<M: UserDataMethods<Game>>(methods: &mut M) {
    methods.add_method("counter", |lua, g, id: String| {
        g.session
            .borrow()
            .table()
            .counter(&CounterId::from(id))
            .map_err(|e| script_error(lua, e))
    });
    methods.add_method("zone", |lua, g, zone: String| {
        let session = g.session.borrow();
        let zone = session
            .table()
            .zone(&ZoneId::from(zone))
            .map_err(|e| script_error(lua, e))?;
        lua.create_sequence_from(zone.cards.iter().map(|c| c.to_string()))
    });
    methods.add_method("space_of", |_, g, piece: String| {
        let session = g.session.borrow();
        Ok(
            match session.table().piece_location(&PieceId::from(piece)) {
                Some((place, space)) => (Some(place.to_string()), Some(space.to_string())),
                None => (None, None),
            },
        )
    });
    methods.add_method("units", |lua, g, (boxed, kind): (String, String)| {
        g.session
            .borrow()
            .table()
            .units(&BoxId::from(boxed), &UnitKindId::from(kind))
            .map_err(|e| script_error(lua, e))
    });
    methods.add_method("vars", |lua, g, ()| {
        to_lua(lua, &g.session.borrow().table().vars)
    });
    methods.add_method("private", |lua, g, seat: String| {
        let session = g.session.borrow();
        let value = session
            .table()
            .private
            .get(seat.as_str())
            .cloned()
            .unwrap_or_else(Value::map);
        to_lua(lua, &value)
    });
    methods.add_method("state", |_, g, ()| {
        Ok(g.session
            .borrow()
            .table()
            .top_frame()
            .map(|f| f.state.clone()))
    });
    methods.add_method("turn", |_, g, ()| Ok(g.session.borrow().table().turn));
    methods.add_method("result", |lua, g, ()| {
        let session = g.session.borrow();
        let Some(result) = &session.table().result else {
            return Ok(LuaValue::Nil);
        };
        let t = lua.create_table()?;
        t.set(
            "winners",
            lua.create_sequence_from(result.winners.iter().map(|w| w.to_string()))?,
        )?;
        t.set("text", result.text.as_str())?;
        let scores = lua.create_table()?;
        for (seat, score) in &result.scores {
            scores.set(seat.as_str(), *score)?;
        }
        t.set("scores", scores)?;
        Ok(LuaValue::Table(t))
    });
    methods.add_method("log", |lua, g, seat: Option<String>| {
        let session = g.session.borrow();
        let seat = seat.map(SeatId::from);
        let lines: Vec<String> = session
            .log()
            .iter()
            .flat_map(|e| e.seen_by(seat.as_ref()).messages)
            .map(|l| l.text)
            .collect();
        lua.create_sequence_from(lines)
    });
    methods.add_method("inputs", |_, g, ()| Ok(g.session.borrow().history().len()));
    methods.add_method("json", |lua, g, seat: Option<String>| {
        let mut session = g.session.borrow_mut();
        let seat = seat.map(SeatId::from);
        let extra = session
            .view_data(seat.as_ref())
            .map_err(|e| script_error(lua, e))?;
        let json = crate::view::state_json(session.table(), &session.log(), seat.as_ref(), &extra);
        let value = Value::from_json(&json).unwrap_or(Value::Nil);
        to_lua(lua, &value)
    });
}

/// A prompt as the test API shows it: state, text, decision, asks, answered, and the seat
/// and actions of the first ask (a single decision's).
fn prompt_to_lua(lua: &Lua, prompt: &Prompt) -> mlua::Result<mlua::Table> {
    let t = lua.create_table()?;
    t.set("state", prompt.state.as_str())?;
    t.set("text", prompt.text.as_str())?;
    t.set(
        "decision",
        match prompt.decision {
            crate::rules::Decision::One => "one",
            crate::rules::Decision::Simultaneous => "simultaneous",
            crate::rules::Decision::Window => "window",
        },
    )?;
    let asks = lua.create_table()?;
    for (i, ask) in prompt.asks.iter().enumerate() {
        let a = lua.create_table()?;
        a.set("seat", ask.seat.as_ref().map(|s| s.to_string()))?;
        a.set("actions", actions_to_lua(lua, &ask.actions)?)?;
        asks.set(i + 1, a)?;
    }
    t.set("asks", asks)?;
    t.set(
        "answered",
        lua.create_sequence_from(prompt.answered.iter().map(|s| s.to_string()))?,
    )?;
    if let Some(first) = prompt.asks.first() {
        t.set("seat", first.seat.as_ref().map(|s| s.to_string()))?;
        t.set("actions", actions_to_lua(lua, &first.actions)?)?;
    }
    Ok(t)
}

/// Deep equality of plain Lua values (tables by content, regardless of metatables). Each
/// pair of tables is compared once: a pair met again (a cycle, or a sub-table shared in
/// several places) is taken as equal while its first comparison decides.
fn lua_equal(a: &LuaValue, b: &LuaValue) -> bool {
    equal_in(a, b, &mut std::collections::HashSet::new())
}

fn equal_in(
    a: &LuaValue,
    b: &LuaValue,
    seen: &mut std::collections::HashSet<(*const std::ffi::c_void, *const std::ffi::c_void)>,
) -> bool {
    match (a, b) {
        (LuaValue::Table(x), LuaValue::Table(y)) => {
            if !seen.insert((x.to_pointer(), y.to_pointer())) {
                return true;
            }
            let pairs = |t: &mlua::Table| -> Vec<(LuaValue, LuaValue)> {
                t.pairs::<LuaValue, LuaValue>()
                    .filter_map(Result::ok)
                    .collect()
            };
            let (px, py) = (pairs(x), pairs(y));
            px.len() == py.len()
                && px.iter().all(|(k, v)| {
                    y.raw_get::<LuaValue>(k.clone())
                        .is_ok_and(|w| equal_in(v, &w, seen))
                })
        }
        (LuaValue::Integer(i), LuaValue::Number(f))
        | (LuaValue::Number(f), LuaValue::Integer(i)) => (*i as f64) == *f,
        _ => a == b,
    }
}

/// A value written the way Lua source would write it, for failure messages.
fn literal(value: &LuaValue) -> String {
    match from_lua(value, "value") {
        Ok(v) => value_literal(&v),
        Err(_) => format!("<{}>", value.type_name()),
    }
}

fn value_literal(value: &Value) -> String {
    match value {
        Value::Nil => "nil".to_owned(),
        Value::Str(s) => format!("{s:?}"),
        Value::List(items) => format!(
            "{{{}}}",
            items
                .iter()
                .map(value_literal)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k} = {}", value_literal(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}
