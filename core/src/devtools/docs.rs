//! The Lua API reference (Markdown) and LuaLS type stubs, generated from the API's own
//! registries (the `ctx` functions and fields, the shape of `ctx.data`, the test API) and
//! from the engine's Lua library itself, so that they always match what the host registers.

use std::fmt::Write;

use super::testing::{DocEntry, GAME_API, TEST_API};
use crate::script::api::{API, FIELDS};
use crate::script::data::{CARD_FIELD_FIELDS, DATA, SPACE_FIELDS, singular};
use crate::script::sandbox::LIBRARY;

/// A function of the Lua library, read from its source: the `---` comment lines above a
/// `function M.name(…)` or `function Class:name(…)`.
struct LibFunction {
    /// How it is called: `M.sum(title)`, `Sum:add(value, label)`.
    signature: String,
    /// The class it belongs to (`M` for the module table).
    owner: String,
    /// The name alone.
    name: String,
    /// The parameters.
    params: Vec<String>,
    /// The comment, joined.
    doc: String,
}

/// A file of the library: its name, what its opening comment says, and its functions.
struct LibFile {
    name: &'static str,
    about: String,
    functions: Vec<LibFunction>,
}

/// Reads every library file's opening comment and documented functions.
fn library() -> Vec<LibFile> {
    LIBRARY
        .iter()
        .map(|(name, text)| {
            let about = text
                .lines()
                .take_while(|l| l.starts_with("--"))
                .map(|l| l.trim_start_matches('-').trim())
                .take_while(|l| !l.starts_with("local ") && !l.starts_with("Usage"))
                .collect::<Vec<_>>()
                .join(" ");
            let about = about
                .trim_end_matches("Usage:")
                .trim_end()
                .trim_end_matches(':');
            let about = format!("{}.", about.trim_end_matches('.'));
            let mut functions = Vec::new();
            let mut doc: Vec<String> = Vec::new();
            for line in text.lines() {
                if let Some(comment) = line.strip_prefix("---") {
                    doc.push(comment.trim().to_owned());
                    continue;
                }
                if let Some(rest) = line.strip_prefix("function ")
                    && !doc.is_empty()
                    && let Some((path, args)) = rest.split_once('(')
                {
                    let (owner, name) = path
                        .split_once(['.', ':'])
                        .map(|(o, n)| (o.to_owned(), n.to_owned()))
                        .unwrap_or_else(|| ("M".to_owned(), path.to_owned()));
                    let params: Vec<String> = args
                        .trim_end_matches(')')
                        .split(',')
                        .map(|p| p.trim().to_owned())
                        .filter(|p| !p.is_empty())
                        .collect();
                    functions.push(LibFunction {
                        signature: format!("{path}({})", params.join(", ")),
                        owner,
                        name,
                        params,
                        doc: doc.join(" "),
                    });
                }
                doc.clear();
            }
            LibFile {
                name,
                about,
                functions,
            }
        })
        .collect()
}

/// The LuaLS class of the table a library file returns (`@lib/modifiers.lua` →
/// `LibModifiers`), or of another of its classes (`Sum` → `LibModifiersSum`).
fn lib_class(file: &str, owner: &str) -> String {
    let stem = file.trim_start_matches("@lib/").trim_end_matches(".lua");
    let mut class = format!("Lib{}{}", stem[..1].to_uppercase(), &stem[1..]);
    if owner != "M" {
        class.push_str(owner);
    }
    class
}

fn signature(params: &[(&str, &str)]) -> String {
    params
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line for each entry of a test API list: its name after `prefix`, its parameters and
/// what it does.
fn api_list(out: &mut String, prefix: &str, entries: &[DocEntry]) {
    for entry in entries {
        let _ = writeln!(
            out,
            "- `{prefix}{}({})`: {}",
            entry.name,
            signature(entry.params),
            entry.doc
        );
    }
}

fn returns(list: &[(&str, &str)]) -> String {
    if list.is_empty() {
        "nothing".to_owned()
    } else {
        list.iter()
            .map(|(n, t)| format!("`{n}: {t}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The API reference as Markdown (`docs/lua-api.md`).
pub fn api_reference_markdown() -> String {
    let mut out = String::new();
    out.push_str("# Chancery Lua API\n\n");
    out.push_str("Generated from the engine's registry by `chancery api --markdown`; do not edit by hand.\n\n");
    out.push_str(HOOK_TEXT);
    out.push_str("\n## `ctx` fields\n\n| field | type | what it holds |\n|---|---|---|\n");
    for field in FIELDS {
        let _ = writeln!(
            out,
            "| `ctx.{}` | `{}` | {} |",
            field.name, field.ty, field.doc
        );
    }
    out.push_str("\n## `ctx` functions\n\nCall them with a colon: `ctx:move_card(card, zone)`. ");
    out.push_str("Functions marked *changes* may only be called from `setup`, actions, `run`, `on_enter`, `on_exit`, `on_resume`, `reveal` and `all_passed`; ");
    out.push_str("`prompt`, `view`, `check` and bots only read.\n\n");
    for entry in API {
        let kind = if entry.changes { " — *changes*" } else { "" };
        let _ = writeln!(
            out,
            "### `ctx:{}({})`{kind}\n",
            entry.name,
            signature(entry.params)
        );
        let _ = writeln!(out, "{}\n", entry.doc);
        if !entry.params.is_empty() {
            let params: Vec<String> = entry
                .params
                .iter()
                .map(|(n, t)| format!("`{n}: {t}`"))
                .collect();
            let _ = writeln!(out, "Parameters: {}. ", params.join(", "));
        }
        let _ = writeln!(out, "Returns: {}.\n", returns(entry.returns));
    }
    out.push_str(DATA_TEXT);
    for collection in DATA {
        let fields: Vec<String> = collection
            .fields
            .iter()
            .map(|(n, t)| format!("`{n}: {t}`"))
            .collect();
        let fields = if fields.is_empty() {
            "entries by key".to_owned()
        } else {
            fields.join(", ")
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {fields} |",
            collection.name, collection.doc
        );
    }
    let list = |fields: &[(&str, &str)]| {
        fields
            .iter()
            .map(|(n, t)| format!("`{n}: {t}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        out,
        "\nA space (in `places[id].spaces` and `.space`) has {}. `ctx.data.card_fields` lists the module's card fields, each with {}.",
        list(SPACE_FIELDS),
        list(CARD_FIELD_FIELDS)
    );
    out.push_str(
        "\n## The Lua library\n\nModules load these with `include(\"@lib/<name>.lua\")`.\n",
    );
    for file in library() {
        let _ = writeln!(out, "\n### `{}`\n\n{}\n", file.name, file.about);
        for f in &file.functions {
            let _ = writeln!(out, "- `{}`: {}", f.signature, f.doc);
        }
    }
    out.push_str("\n## Module tests (`tests/*.lua`, run by `chancery test`)\n\n");
    api_list(&mut out, "", TEST_API);
    out.push_str("\nA game handle `g` (from `t:game{…}`) offers:\n\n");
    api_list(&mut out, "g:", GAME_API);
    out.push_str(RECORDING_TEXT);
    out
}

const DATA_TEXT: &str = "\n## `ctx.data`\n\nThe module's data, read-only. Each collection holds its items by id, in a table `ctx.data.<name>`, and their ids in declaration order in `ctx.data.<singular>_ids` (`card_ids`, `box_ids`, …). Reading a value that is not entered yet stops the step and asks the players for it.\n\n| collection | what an item is | fields |\n|---|---|---|\n";

const RECORDING_TEXT: &str = r#"
## Recorded games (`tests/*.ron`, `tests/replays/*.ron`, run by `chancery test`)

A recorded game is a RON file that starts `Recording(`: `scenario`, `seed`, `seats` (seat
to `Human` or `Bot("name")`), `options`, `dice`, `inputs` (as a save writes them) and
`expect`, a list of `Expect(after: N, …)` (after N inputs; without `after`, at the end)
with any of `state`, `turn`, `phase`, `counters`, `zones` (cards, top first), `pieces`
(`"place/space"`, or `None` off the table), `units`, `vars`, `private`, `log` (lines the
input wrote, in order) and `result` (`Result(winners: […], scores: {…})`). Only what is
written is checked. With `check_bots: true` (the default) every input a bot made must still
be what that bot chooses. `overlay: "tests/fixture.ron"` replays it with that file of the
module as its owner data (a fixture for tests), in place of any other overlay. `chancery
test` replays it and names the input and the first expected value that differs; `chancery
record SAVE --out FILE [--every N] [--overlay FILE]` writes one from a saved game, with
everything on its table at the end (and every N inputs) as expectations, naming the overlay
when it is a file of the module.
"#;

const HOOK_TEXT: &str = r#"## The rules table

`rules/main.lua` returns one table; the loader checks its names once.

| hook | when |
|---|---|
| `setup(ctx, scenario, options)` | a new game, after the scenario's data is laid out; ends by entering the first state (`ctx:call`) |
| `states.<name>.prompt(ctx)` | a state that waits for a decision: return what is asked (below); changes nothing |
| `states.<name>.<action>(ctx, arg, seat)` | a legal action was chosen (by `seat`): change the table, move the flow |
| `states.<name>.run(ctx)` | an automatic state (no prompt): runs whenever it is on top of the flow, and must move the flow (`ctx:call`, `ctx:replace`, `ctx:pop`) or end the game |
| `states.<name>.on_enter(ctx)` / `on_exit(ctx)` | optional, after a hook entered or left the state |
| `states.<name>.on_resume(ctx, result)` | optional: a sub-procedure this state called has returned `result` (the value given to `ctx:pop`) |
| `states.<name>.reveal(ctx, choices)` | makes the state a simultaneous secret choice: once every asked seat has answered, `choices` maps each seat to its `{name, arg}` |
| `states.<name>.all_passed(ctx)` | makes the state a reaction window: every asked seat passed |
| `effects.<id>.<hook>(ctx, …)` | optional: card (or issue, or any data) effects, keyed by ids of the module's data; the loader refuses an id that names nothing, and `chancery check` lists cards with text but no effect |
| `view(ctx, seat)` | optional: module data a seat may see, added to its state JSON |
| `check(ctx)` | optional: invariants; return `false, why` or raise an error when one fails |
| `bots.<name>(ctx, seat, actions)` | return the chosen action (its index, or `{name, arg}`) and the reasons (a list of steps) |

A prompt returns `{seat = …, text = …, actions = {…}}` for one seat (no seat: anyone). A
shared decision returns `{text = …, asks = {{seat = …, actions = {…}}, …}}`: in a
simultaneous choice (a state with `reveal`) every seat that has not answered is asked at
once and each answer stays hidden from the other seats, in every view and in the log, until
`reveal` has them all (so its actions need no handlers of their own); in a reaction window (a state with `all_passed`) the seats are asked
one at a time in the order listed, each may answer (its action's handler runs, with the
seat) or pass (the engine adds `pass`), and the rules close the window. Bots answer for
their seats and see only what their seat may see. A prompt with `private = true` (or
`private = "words"`) is a private decision: its choices and its answer are read only by
its seat (and the omniscient view); the log shows the other seats "a private answer" (or
the words: "Austria gave its orders"; with `private = ""`, nothing at all, not even that
it was given). Its question and its choices show only to its seat; the others read that a
decision is made in private.

An action in a prompt is a table: `name` (the handler's name), `arg` (plain data handed to
it), `label` (what a button says), a target to highlight (`card`, `zone`, `piece`, `box`,
`counter`, or `place` and `space`), for a number choice `min` and `max`, and for an action
that gives something up `confirm` (what the person is asked to agree to first).

Procedures: `ctx:call(state, locals)` runs a sub-procedure on top of the current state;
when it calls `ctx:pop(result)`, the caller's `on_resume(ctx, result)` runs and the caller
goes on (an automatic caller's `run` runs again). So a turn can nest as turn → phase →
round → play → debate, all plain data in the table (saves, undo and reload work), and a
flow that changes state more than 10,000 times in one step is stopped as a runaway.

Privacy: `ctx.vars` and state locals are public; `ctx.private[seat]` is seen by that seat
only (and the rules); `ctx:tell(seat, text)` writes a log line for one seat. A bot, a
seat's `view` and `chancery state --json --seat S` see exactly what that seat may see, and
reading another seat's private state from a bot is an error at the line that tried.
`ctx:roll(sides, reason, to)` with a seat or a list of seats rolls in secret: only they
(and the omniscient view) read the roll. A scenario may name an umpire (`umpire: "U"` in
its data, one of its seats, played by a person): the umpire sees what the omniscient view
sees, answers for the seat that decides, and is left out of `ctx:seats()`. Fog of war: a
place, a space or a box may have a `sight` in the data (`Owner`: each seat sees its own
pieces and kinds of unit; `Seats([..])`; `Umpire`); to a seat, what it may not see is not
there (`ctx:space_of` gives nil, `ctx:pieces_at` and `ctx:box` leave it out), and the rules
change it with `ctx:set_sight`, `ctx:show_piece` and `ctx:hide_piece`. A move under fog is
a secret like a hand: make the decision that moves a hidden piece private, and write where
it went with `ctx:tell` to the seats that see it (a public answer "march south", or a public
line "the army marches south", would tell every seat what the fog hides; the testbed's
`scout` scenario does this). While the log holds a line told to some seats (a secret roll
among them), no seat is shown the seed, which could rebuild it.

Scripts see only safe globals (`string`, `table`, `math` without `random`, `utf8`,
`coroutine`, base functions without `load`, `dofile`, `collectgarbage`), `print` (shown to
the designer) and `include(path)`, which loads another script of the module (or the
engine's library, below). Reading or setting an undeclared global is an error. Every call
runs under an instruction budget and a memory limit.
"#;

fn stub_function(
    out: &mut String,
    class: &str,
    name: &str,
    params: &[(&str, &str)],
    results: &[(&str, &str)],
    doc: &str,
) {
    let _ = writeln!(out, "--- {doc}");
    for (n, t) in params {
        let _ = writeln!(out, "---@param {n} {t}");
    }
    for (n, t) in results {
        let _ = writeln!(out, "---@return {t} {n}");
    }
    let _ = writeln!(out, "function {class}:{name}({}) end\n", signature(params));
}

/// LuaLS annotations for editor completion (`scripts/chancery.d.lua`).
pub fn luals_stubs() -> String {
    let mut out = String::new();
    out.push_str("---@meta\n-- Chancery Lua API: type stubs for editor completion (LuaLS).\n");
    out.push_str("-- Generated by `chancery api --stubs`; do not edit by hand.\n\n");
    out.push_str("---@class Ctx\n");
    for field in FIELDS {
        let _ = writeln!(out, "---@field {} {} {}", field.name, field.ty, field.doc);
    }
    out.push_str("local Ctx = {}\n\n");
    for entry in API {
        stub_function(
            &mut out,
            "Ctx",
            entry.name,
            entry.params,
            entry.returns,
            entry.doc,
        );
    }
    data_stubs(&mut out);
    out.push_str(
        "---@class Action\n\
         ---@field name string the handler `states.<state>.<name>` that applies it\n\
         ---@field arg any plain data handed to the handler\n\
         ---@field label string? what a button says\n\
         ---@field card string? a card to highlight\n\
         ---@field zone string? a zone to highlight\n\
         ---@field piece string? a piece to highlight\n\
         ---@field box string? a box to highlight\n\
         ---@field counter string? a counter to highlight\n\
         ---@field place string? with `space`: a space to highlight\n\
         ---@field space string?\n\
         ---@field confirm string? what a person agrees to before it is taken\n\
         ---@field min integer? for a number choice\n\
         ---@field max integer?\n\n\
         ---@class Ask\n\
         ---@field seat string the seat asked\n\
         ---@field actions Action[] its legal actions\n\n\
         ---@class Prompt\n\
         ---@field seat string? the seat that decides (one seat)\n\
         ---@field text string what is being decided\n\
         ---@field actions Action[]? every legal action (one seat)\n\
         ---@field asks Ask[]? the seats asked (a shared decision)\n\
         ---@field decision \"one\"|\"simultaneous\"|\"window\"? in a module test: how the seats answer\n\
         ---@field answered string[]? in a module test: the seats that have answered\n\n\
         --- Loads another script of the module (or `@lib/<name>.lua`) once and returns what it returned.\n\
         ---@param path string\n\
         ---@return any\n\
         function include(path) end\n\n",
    );
    library_stubs(&mut out);
    test_stubs(&mut out);
    out
}

/// The classes of `ctx.data`: its collections, and the fields of their items.
fn data_stubs(out: &mut String) {
    out.push_str("---@class ChanceryData\n");
    for collection in DATA {
        let singular = singular(collection.name);
        let item = if collection.fields.is_empty() {
            "table<string, any>".to_owned()
        } else {
            collection.class.to_owned()
        };
        let _ = writeln!(
            out,
            "---@field {} table<string, {item}> {}",
            collection.name, collection.doc
        );
        let _ = writeln!(out, "---@field {singular}_ids string[]");
    }
    out.push_str("---@field card_fields ChanceryCardField[]\n\n");
    let class = |out: &mut String, name: &str, fields: &[(&str, &str)]| {
        let _ = writeln!(out, "---@class {name}");
        for (n, t) in fields {
            let _ = writeln!(out, "---@field {n} {t}");
        }
        out.push('\n');
    };
    for collection in DATA.iter().filter(|c| !c.fields.is_empty()) {
        class(out, collection.class, collection.fields);
    }
    class(out, "ChancerySpace", SPACE_FIELDS);
    class(out, "ChanceryCardField", CARD_FIELD_FIELDS);
}

/// The engine's Lua library (`@lib/...`), a class for each table of functions a file returns.
fn library_stubs(out: &mut String) {
    for file in library() {
        let mut owners: Vec<&str> = file.functions.iter().map(|f| f.owner.as_str()).collect();
        owners.dedup();
        for owner in owners {
            let class = lib_class(file.name, owner);
            let _ = writeln!(out, "---@class {class}");
            let _ = writeln!(out, "local {class} = {{}}\n");
            for f in file.functions.iter().filter(|f| f.owner == owner) {
                let _ = writeln!(out, "--- {}", f.doc);
                for p in &f.params {
                    let _ = writeln!(out, "---@param {p} any");
                }
                let sep = if owner == "M" { "." } else { ":" };
                let _ = writeln!(
                    out,
                    "function {class}{sep}{}({}) end\n",
                    f.name,
                    f.params.join(", ")
                );
            }
        }
    }
}

/// The module tests' API: `t`, the test game, and `test` itself.
fn test_stubs(out: &mut String) {
    out.push_str("---@class TestContext\nlocal TestContext = {}\n\n");
    for entry in TEST_API.iter().filter(|e| e.name.starts_with("t:")) {
        let name = entry.name.trim_start_matches("t:");
        stub_function(
            out,
            "TestContext",
            name,
            entry.params,
            entry.returns,
            entry.doc,
        );
    }
    out.push_str("---@class Game\nlocal Game = {}\n\n");
    for entry in GAME_API {
        stub_function(
            out,
            "Game",
            entry.name,
            entry.params,
            entry.returns,
            entry.doc,
        );
    }
    out.push_str(
        "--- Declares a module test: test(name, body), or test(name, limits, body).\n---@param name string\n---@param limits {instructions?: integer, seconds?: number}|fun(t: TestContext)\n---@param body? fun(t: TestContext)\nfunction test(name, limits, body) end\n",
    );
}
