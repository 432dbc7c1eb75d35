//! The Lua API reference (Markdown) and LuaLS type stubs, generated from the API's own
//! registries so that they always match what the host registers.

use std::fmt::Write;

use super::testing::{GAME_API, TEST_API};
use crate::script::api::{API, FIELDS};

fn signature(params: &[(&str, &str)]) -> String {
    params
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
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
    out.push_str("Functions marked *changes* may only be called from `setup`, actions, `on_enter` and `on_exit`; ");
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
    out.push_str("\n## Module tests (`tests/*.lua`, run by `chancery test`)\n\n");
    for entry in TEST_API {
        let _ = writeln!(
            out,
            "- `{}({})`: {}",
            entry.name,
            signature(entry.params),
            entry.doc
        );
    }
    out.push_str("\nA game handle `g` (from `t:game{…}`) offers:\n\n");
    for entry in GAME_API {
        let _ = writeln!(
            out,
            "- `g:{}({})`: {}",
            entry.name,
            signature(entry.params),
            entry.doc
        );
    }
    out
}

const HOOK_TEXT: &str = r#"## The rules table

`rules/main.lua` returns one table; the loader checks its names once.

| hook | when |
|---|---|
| `setup(ctx, scenario, options)` | a new game, after the scenario's data is laid out; ends by entering the first state (`ctx:push`) |
| `states.<name>.prompt(ctx)` | the engine needs the legal actions: return `{seat = …, text = …, actions = {…}}`; changes nothing |
| `states.<name>.<action>(ctx, arg)` | a legal action was chosen: change the table, move the flow |
| `states.<name>.on_enter(ctx)` / `on_exit(ctx)` | optional, after a hook entered or left the state |
| `view(ctx, seat)` | optional: module data a seat may see, added to its state JSON |
| `check(ctx)` | optional: invariants; return `false, why` or raise an error when one fails |
| `bots.<name>(ctx, seat, actions)` | return the chosen action (its index, or `{name, arg}`) and the reasons (a list of steps) |

An action in a prompt is a table: `name` (the handler's name), `arg` (plain data handed to
it), `label` (what a button says), a target to highlight (`card`, `zone`, `piece`, `box`,
`counter`, or `place` and `space`), and for a number choice `min` and `max`.

Scripts see only safe globals (`string`, `table`, `math` without `random`, `utf8`,
`coroutine`, base functions without `load`, `dofile`, `collectgarbage`), `print` (shown to
the designer) and `include(path)`, which loads another script of the module (or the
engine's library: `@lib/flowchart.lua`, `@lib/deck.lua`, `@lib/util.lua`). Reading or
setting an undeclared global is an error. Every call runs under an instruction budget and
a memory limit.
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
    out.push_str(
        "---@class ChanceryData\n\
         ---@field cards table<string, {id: string, name: string, text: string, fields: table}>\n\
         ---@field card_ids string[]\n\
         ---@field card_fields {id: string, doc: string, type: string}[]\n\
         ---@field zones table<string, {id: string, name: string, visibility: string, owner: string?, face: string}>\n\
         ---@field zone_ids string[]\n\
         ---@field places table<string, {id: string, name: string, kind: string, spaces: {id: string, name: string, index: integer, props: table}[], space: table<string, table>}>\n\
         ---@field place_ids string[]\n\
         ---@field pieces table<string, {id: string, name: string, kind: string, owner: string?, props: table}>\n\
         ---@field piece_ids string[]\n\
         ---@field unit_kinds table<string, {id: string, name: string, owner: string?}>\n\
         ---@field unit_kind_ids string[]\n\
         ---@field boxes table<string, {id: string, name: string, kinds: string[]?}>\n\
         ---@field box_ids string[]\n\
         ---@field counters table<string, {id: string, name: string, min: integer?, max: integer?, initial: integer}>\n\
         ---@field counter_ids string[]\n\
         ---@field seats table<string, {id: string, name: string, bot: string?}>\n\
         ---@field seat_ids string[]\n\
         ---@field scenarios table<string, {id: string, name: string, description: string, vars: table}>\n\
         ---@field scenario_ids string[]\n\n",
    );
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
         ---@field min integer? for a number choice\n\
         ---@field max integer?\n\n\
         ---@class Prompt\n\
         ---@field seat string? the seat that decides\n\
         ---@field text string what is being decided\n\
         ---@field actions Action[] every legal action\n\n\
         --- Loads another script of the module (or `@lib/<name>.lua`) once and returns what it returned.\n\
         ---@param path string\n\
         ---@return any\n\
         function include(path) end\n\n",
    );
    out.push_str("---@class TestContext\nlocal TestContext = {}\n\n");
    for entry in TEST_API.iter().filter(|e| e.name.starts_with("t:")) {
        let name = entry.name.trim_start_matches("t:");
        stub_function(
            &mut out,
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
            &mut out,
            "Game",
            entry.name,
            entry.params,
            entry.returns,
            entry.doc,
        );
    }
    out.push_str(
        "--- Declares a module test.\n---@param name string\n---@param body fun(t: TestContext)\nfunction test(name, body) end\n",
    );
    out
}
