//! The sandboxed Lua VM: an allowlist of safe libraries, a per-chunk environment where
//! undeclared globals are errors, read-only library tables, an instruction budget that no
//! `pcall` or coroutine escapes, and a memory limit.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{
    Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value as LuaValue, VmState,
};

use super::budget::{Budget, Limits};
use super::strlib;
use super::util::{script_error, script_position};
use crate::rules::MAX_TEXT_BYTES;

/// The engine's Lua library, included by modules as `include("@lib/<name>.lua")`.
pub(crate) const LIBRARY: &[(&str, &str)] = &[
    (
        "@lib/flowchart.lua",
        include_str!("../../../scripts/lib/flowchart.lua"),
    ),
    (
        "@lib/deck.lua",
        include_str!("../../../scripts/lib/deck.lua"),
    ),
    (
        "@lib/util.lua",
        include_str!("../../../scripts/lib/util.lua"),
    ),
    (
        "@lib/modifiers.lua",
        include_str!("../../../scripts/lib/modifiers.lua"),
    ),
    (
        "@lib/steps.lua",
        include_str!("../../../scripts/lib/steps.lua"),
    ),
    (
        "@lib/form.lua",
        include_str!("../../../scripts/lib/form.lua"),
    ),
];

/// Lines of `print` output kept.
const MAX_OUTPUT_LINES: usize = 10_000;

/// Builds environments and read-only proxies. Runs once per VM, with the real globals.
const PRELUDE: &str = r#"
local G = ...
local setmetatable, error, tostring, next, pairs = G.setmetatable, G.error, G.tostring, G.next, G.pairs

-- Every read-only view: its name (so that rawset cannot write into one either) and the
-- table it shows. The metamethods are shared by all views, so a view costs two small
-- tables, which matters for modules with many cards.
local names = setmetatable({}, { __mode = "k" })
local targets = setmetatable({}, { __mode = "k" })
local proxies = names

local function refuse(proxy, k)
  error(names[proxy] .. " is read-only (tried to set '" .. tostring(k) .. "')", 2)
end
local function view_pairs(proxy) return next, targets[proxy], nil end
local function view_len(proxy) return #targets[proxy] end

local function readonly(t, name)
  local proxy = setmetatable({}, {
    __index = t,
    __newindex = refuse,
    __pairs = view_pairs,
    __len = view_len,
    __metatable = false,
  })
  names[proxy] = name
  targets[proxy] = t
  return proxy
end

-- ctx.vars and ctx.locals are filled a field at a time as a script reads them (lazy.rs):
-- each such table, with the function that fills it whole, until its call ends. The raw
-- functions fill it whole first, so that they see every field.
local partial = setmetatable({}, { __mode = "k" })

local function whole(t)
  local fill = partial[t]
  if fill then fill(t) end
end

local raw_rawset = G.rawset
local function safe_rawset(t, k, v)
  local name = proxies[t]
  if name then
    error(name .. " is read-only (tried to set '" .. tostring(k) .. "')", 2)
  end
  whole(t)
  return raw_rawset(t, k, v)
end

local raw_next, raw_rawget, raw_rawlen = G.next, G.rawget, G.rawlen
local function safe_next(t, k)
  whole(t)
  return raw_next(t, k)
end
local function safe_rawget(t, k)
  whole(t)
  return raw_rawget(t, k)
end
local function safe_rawlen(t)
  whole(t)
  return raw_rawlen(t)
end

G.string.dump = nil
G.math.random = nil
G.math.randomseed = nil
getmetatable("").__metatable = false

-- Lua runs a message handler, and __gc finalizers, with hooks switched off, so neither
-- could be stopped by the budget: handlers run after the error unwinds instead, and
-- finalizers are refused.
local pcall, select, unpack, pack = G.pcall, G.select, G.table.unpack, G.table.pack

local function safe_xpcall(f, handler, ...)
  local results = pack(pcall(f, ...))
  if results[1] then
    return unpack(results, 1, results.n)
  end
  return false, handler(results[2])
end

local raw_setmetatable = G.setmetatable
local rawget = G.rawget
local function safe_setmetatable(t, mt)
  if G.type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("__gc metamethods are not allowed in modules", 2)
  end
  return raw_setmetatable(t, mt)
end

local string_view, table_view = readonly(G.string, "string"), readonly(G.table, "table")
local math_view, utf8_view = readonly(G.math, "math"), readonly(G.utf8, "utf8")
local coroutine_view = readonly(G.coroutine, "coroutine")
local assert, ipairs, rawequal, getmetatable = G.assert, G.ipairs, G.rawequal, G.getmetatable
local tonumber, type, version = G.tonumber, G.type, G._VERSION

local function undeclared(_, k)
  error("undeclared global '" .. tostring(k) .. "'", 2)
end
local function undeclared_assignment(k)
  return "assignment to undeclared global '" .. tostring(k) .. "' (declare it local)"
end
local function assign_undeclared(_, k)
  error(undeclared_assignment(k), 2)
end
-- A frozen environment's __newindex: setting a global the chunk has (behind it, in
-- `inner`) is refused as read-only, one it does not have as undeclared.
local function assign_after_load(inner)
  return function(_, k)
    if rawget(inner, k) == nil then
      error(undeclared_assignment(k), 2)
    end
    error("global '" .. tostring(k) .. "' set after the module loaded: a module's globals are "
      .. "read-only while games run (keep a game's state in ctx.vars or ctx.locals)", 2)
  end
end

-- The environments made since the last freeze, each with its own metatable.
local unfrozen = {}

-- A new chunk's globals: the safe ones, written out so that the table is made at its size
-- in one step (every VM loads every script in a new environment), and `extra`.
local function make_env(extra)
  local env = {
    assert = assert, error = error, ipairs = ipairs, next = safe_next, pairs = pairs,
    pcall = pcall, xpcall = safe_xpcall, rawequal = rawequal, rawget = safe_rawget,
    rawlen = safe_rawlen, rawset = safe_rawset, select = select,
    setmetatable = safe_setmetatable, getmetatable = getmetatable, tonumber = tonumber,
    tostring = tostring, type = type, _VERSION = version,
    string = string_view, table = table_view, math = math_view, utf8 = utf8_view,
    coroutine = coroutine_view,
  }
  if extra then
    for k, v in pairs(extra) do env[k] = v end
  end
  local meta = { __index = undeclared, __newindex = assign_undeclared, __metatable = false }
  unfrozen[env] = meta
  return setmetatable(env, meta)
end

-- Makes every environment made since the last freeze read-only: its globals move to a
-- table behind it, so setting one (even one the module set itself while it loaded) is an
-- error at the line that tries, and reading an undeclared one is an error as before.
local function freeze_envs()
  for env, meta in next, unfrozen do
    local inner = setmetatable({}, { __index = undeclared, __metatable = false })
    for k, v in next, env do inner[k] = v end
    for k in next, inner do env[k] = nil end
    meta.__index, meta.__newindex = inner, assign_after_load(inner)
    names[env] = "the module's globals (read-only once it has loaded)"
  end
  unfrozen = {}
end

for _, name in G.ipairs({"dofile", "loadfile", "load", "collectgarbage", "require", "print"}) do
  G[name] = nil
end

-- ctx:space_of and ctx:known, remembered in the VM. The engine is asked once for each
-- piece's place and space until the pieces move (the engine empties `places` and `spaces`
-- then, and when a call reads another table), and once a game for each value whether it is
-- entered (the module's data never changes in a VM; each game starts with nothing
-- remembered, so that a game's calls run the same instructions whatever was played
-- before). An answer is kept only once the engine has given it, so a call with a wrong id
-- still meets the engine's error; so does a call with a dot (`ctx.space_of(piece)`), whose
-- arguments fall one place short of any answer kept.
local function remember_places(space_of)
  local places, spaces = {}, {}
  local function remembered(ctx, piece)
    local place = places[piece]
    if place then
      return place, spaces[piece]
    elseif place == false then
      return nil
    end
    local got, space = space_of(ctx, piece)
    places[piece] = got or false
    spaces[piece] = space
    if got == nil then
      return nil
    end
    return got, space
  end
  return remembered, places, spaces
end

local function remember_known(known)
  local whats = {}
  return function(ctx, what, id, key)
    local ids = whats[what]
    local keys = ids and ids[id]
    local entered = keys and keys[key]
    if entered ~= nil then
      return entered
    end
    entered = known(ctx, what, id, key)
    if not ids then
      ids = {}
      whats[what] = ids
    end
    if not keys then
      keys = {}
      ids[id] = keys
    end
    keys[key] = entered
    return entered
  end, whats
end

return {
  readonly = readonly, make_env = make_env, freeze_envs = freeze_envs, partial = partial,
  remember_places = remember_places, remember_known = remember_known,
}
"#;

/// A sandboxed Lua VM with its budget.
pub(crate) struct Vm {
    /// The VM.
    pub lua: Lua,
    /// The current call's budget.
    pub budget: Rc<Budget>,
    /// Lines printed by scripts.
    pub output: Rc<RefCell<Vec<String>>>,
    readonly: Function,
    make_env: Function,
    freeze_envs: Function,
    extra_globals: Table,
    /// The prelude's list of partly filled tables (see `lazy.rs`).
    pub partial: Table,
    /// The prelude's makers of a remembering `ctx:space_of` and `ctx:known`.
    pub remember_places: Function,
    pub remember_known: Function,
}

impl Vm {
    /// A fresh VM with these limits.
    pub fn new(limits: Limits) -> mlua::Result<Vm> {
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::COROUTINE | StdLib::UTF8;
        let lua = Lua::new_with(libs, LuaOptions::default())?;
        lua.set_memory_limit(limits.memory_bytes)?;
        super::interned::install(&lua);
        // The generational collector, with Lua's own settings: a VM lives for many calls
        // (for many games in a simulation), its scripts and data grow old, and rules and
        // bots make many short-lived tables, which a minor collection frees without going
        // over the old ones. Measured against the incremental collector at a pause of 400 %:
        // 0.87 to 0.93 of a simulation's time, and less memory (docs/speed.md).
        lua.gc_set_mode(mlua::state::GcMode::Generational(
            mlua::state::GcGenParams::default(),
        ));
        let budget = Rc::new(Budget::new(limits));
        let globals = lua.globals();
        let string: Table = globals.get("string")?;
        strlib::install(&lua, &string, &budget)?;
        guard_table_library(&lua, &globals.get::<Table>("table")?)?;

        let output = Rc::new(RefCell::new(Vec::new()));
        let out = output.clone();
        let print = lua.create_function(move |lua, args: MultiValue| {
            let mut out = out.borrow_mut();
            if out.len() >= MAX_OUTPUT_LINES {
                return Ok(());
            }
            // A line is cut at MAX_TEXT_BYTES before it is copied out of the VM.
            let mut line: Vec<u8> = Vec::new();
            for (i, arg) in args.into_iter().enumerate() {
                if i > 0 {
                    line.push(b'\t');
                }
                let room = MAX_TEXT_BYTES.saturating_sub(line.len());
                match lua.coerce_string(arg.clone())? {
                    Some(s) => line.extend(s.as_bytes().iter().take(room)),
                    None => line.extend(arg.type_name().bytes().take(room)),
                }
            }
            if line.len() >= MAX_TEXT_BYTES {
                line.extend_from_slice(" [cut]".as_bytes());
            }
            out.push(String::from_utf8_lossy(&line).into_owned());
            Ok(())
        })?;
        let extra_globals = lua.create_table()?;
        extra_globals.set("print", print)?;

        let vm_budget = budget.clone();
        arm_hook(&lua, &vm_budget)?;
        vm_budget.start();
        let prelude: Table = lua
            .load(PRELUDE)
            .set_name("=prelude")
            .set_mode(ChunkMode::Text)
            .call(globals)?;
        vm_budget.stop();
        Ok(Vm {
            readonly: prelude.get("readonly")?,
            make_env: prelude.get("make_env")?,
            freeze_envs: prelude.get("freeze_envs")?,
            partial: prelude.get("partial")?,
            remember_places: prelude.get("remember_places")?,
            remember_known: prelude.get("remember_known")?,
            lua,
            budget,
            output,
            extra_globals,
        })
    }

    /// Adds a global every chunk loaded later can see (`include`, the test API…).
    pub fn add_global(&self, name: &str, value: impl mlua::IntoLua) -> mlua::Result<()> {
        self.extra_globals.set(name, value)
    }

    /// A global added with [`Vm::add_global`].
    pub fn extra<T: mlua::FromLua>(&self, name: &str) -> mlua::Result<T> {
        self.extra_globals.get(name)
    }

    /// Runs `f` as one budgeted call: a fresh budget, the hook re-armed, and an error if the
    /// budget ran out, even if the script caught that error itself.
    pub fn call<R>(&self, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        arm_hook(&self.lua, &self.budget)?;
        self.budget.start();
        let result = f();
        self.budget.stop();
        match self.budget.tripped() {
            Some(trip) if result.is_ok() => Err(mlua::Error::runtime(self.budget.message(trip))),
            _ => result,
        }
    }

    /// Runs `f` as one budgeted call under `limits` instead of the VM's own (the memory limit
    /// stays the VM's).
    pub fn call_with<R>(
        &self,
        limits: Limits,
        f: impl FnOnce() -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        let own = self.budget.limits();
        self.budget.set_limits(Limits {
            memory_bytes: own.memory_bytes,
            ..limits
        });
        let result = self.call(f);
        self.budget.set_limits(own);
        result
    }

    /// A new environment for one chunk: the safe globals, and nothing else.
    pub fn new_env(&self) -> mlua::Result<Table> {
        self.make_env.call(self.extra_globals.clone())
    }

    /// Makes the environments of the chunks loaded so far read-only (see the prelude's
    /// `freeze_envs`): once a module's scripts have loaded, no script sets a global.
    pub fn freeze_envs(&self) -> mlua::Result<()> {
        self.freeze_envs.call(())
    }

    /// A read-only view of `t`, named `name` in errors.
    pub fn readonly(&self, t: Table, name: &str) -> mlua::Result<Table> {
        self.readonly.call((t, name))
    }

    /// Compiles `text` as a text chunk named `@<name>` with its own environment; a script
    /// this process compiled already (in another VM) is loaded from its bytecode.
    pub fn compile(&self, name: &str, text: &str) -> mlua::Result<Function> {
        let compiled = COMPILED.lock().ok().and_then(|known| {
            known
                .get(name)
                .filter(|(source, _)| source == text)
                .map(|(_, bytecode)| bytecode.clone())
        });
        let chunk = match &compiled {
            Some(bytecode) => self.lua.load(&bytecode[..]).set_mode(ChunkMode::Binary),
            None => self.lua.load(text).set_mode(ChunkMode::Text),
        };
        let function = chunk
            .set_name(format!("@{name}"))
            .set_environment(self.new_env()?)
            .into_function()?;
        if compiled.is_none()
            && let Ok(mut known) = COMPILED.lock()
        {
            known.insert(
                name.to_owned(),
                (text.to_owned(), function.dump(false).into()),
            );
        }
        Ok(function)
    }
}

/// The bytecode of the scripts this process has compiled, with their text, by name (the
/// latest text of each name). A module's scripts are parsed once: every further VM (each
/// seat's, each simulation thread's, each new game's) loads the bytecode, which takes a
/// fraction of the time. Bytecode is only ever made here, with its debug information (file
/// and line in errors), from text that compiled; a module cannot hand the VM any (the
/// sandbox has no `load`).
static COMPILED: std::sync::Mutex<BTreeMap<String, Compiled>> =
    std::sync::Mutex::new(BTreeMap::new());

/// A script's text and its bytecode.
type Compiled = (String, std::sync::Arc<[u8]>);

/// Installs the instruction hook: every 1,000 instructions it charges the budget; once the
/// budget is spent it fails, and re-arms itself to fail on every instruction, so that each
/// enclosing `pcall` or coroutine fails in turn until control is back in Rust.
///
/// A profile samples every [`EVERY`](super::profile::EVERY) instructions instead. The
/// count starts again at each call, and most calls are short: the first sample of a call
/// falls after a count drawn from 1 to `EVERY` ([`profile::phase`](super::profile::phase)),
/// so that every instruction has the same chance of being sampled, a call shorter than
/// `EVERY` included.
fn arm_hook(lua: &Lua, budget: &Rc<Budget>) -> mlua::Result<()> {
    if super::profile::on() {
        return set_hook(lua, budget, super::profile::phase(), true);
    }
    set_hook(lua, budget, 1000, false)
}

/// Sets the hook to fire after `count` instructions (then every `EVERY`, when profiling).
fn set_hook(lua: &Lua, budget: &Rc<Budget>, count: u32, profiling: bool) -> mlua::Result<()> {
    let budget = budget.clone();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(count),
        move |lua, debug| {
            if profiling {
                profile_sample(lua, debug);
            }
            let Some(trip) = budget.consume(u64::from(count)) else {
                if profiling && count != super::profile::EVERY {
                    set_hook(lua, &budget, super::profile::EVERY, true)?;
                }
                return Ok(VmState::Continue);
            };
            let message = budget.message(trip);
            let always = message.clone();
            lua.set_global_hook(
                HookTriggers::new().every_nth_instruction(1),
                move |lua, debug| {
                    Err(mlua::Error::runtime(format!(
                        "{}: {always}",
                        hook_position(lua, debug)
                    )))
                },
            )?;
            Err(mlua::Error::runtime(format!(
                "{}: {message}",
                hook_position(lua, debug)
            )))
        },
    )
}

/// How a profile names a function: its script and the line it is defined on; the
/// sandbox's own Lua (read-only views of data, the library guards) is marked as the
/// engine's.
fn profiled_name(debug: &mlua::debug::Debug) -> Option<String> {
    let source = debug.source();
    if source.what == "C" {
        return None;
    }
    let file = source.short_src.as_deref().unwrap_or("?");
    let engine = if file == "prelude" { "[engine] " } else { "" };
    Some(format!(
        "{engine}{file}:{}",
        source.line_defined.unwrap_or(0)
    ))
}

/// One profile sample where the hook fired: the running function, and every Lua function
/// on the stack under it (deeper than [`MAX_PROFILED_DEPTH`] frames is not looked at).
fn profile_sample(lua: &Lua, debug: &mlua::debug::Debug) {
    let Some(running) = profiled_name(debug) else {
        return;
    };
    let mut stack = std::collections::BTreeSet::from([running.clone()]);
    for level in 1..MAX_PROFILED_DEPTH {
        match lua.inspect_stack(level, profiled_name) {
            None => break,
            Some(name) => stack.extend(name),
        }
    }
    super::profile::sample(running, stack);
}

/// Frames a profile sample looks at: deeper ones are a runaway recursion, which the
/// budget or Lua's own stack limit stops anyway.
const MAX_PROFILED_DEPTH: usize = 200;

/// Where a hook fired: the innermost module frame (the sandbox's wrappers are skipped).
fn hook_position(lua: &Lua, debug: &mlua::debug::Debug) -> String {
    if let Some(position) = script_position(lua, 0) {
        return position;
    }
    let file = debug
        .source()
        .short_src
        .map(|s| s.into_owned())
        .unwrap_or_default();
    match debug.current_line() {
        Some(line) => format!("{file}:{line}"),
        None => file,
    }
}

/// The position of a to-be-closed variable (`<close>`) in a script, if it has one. Lua
/// runs `__close` handlers with hooks switched off while it unwinds from a hook's error,
/// where no budget could stop them, so modules may not use them. Strings and comments are
/// skipped: `"<close>"` in a string is text, not an attribute.
pub(crate) fn find_close_attribute(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut i, mut line, mut line_start) = (0, 1, 0);
    // Skips a long bracket `[==[ … ]==]` starting at `at`, counting its lines; returns the
    // index after it, or None if `at` starts no long bracket.
    let long_bracket = |at: usize, line: &mut usize, line_start: &mut usize| -> Option<usize> {
        let level = bytes[at + 1..].iter().take_while(|b| **b == b'=').count();
        if bytes.get(at + 1 + level) != Some(&b'[') {
            return None;
        }
        let close = format!("]{}]", "=".repeat(level));
        let body = at + 2 + level;
        let end = text[body..]
            .find(&close)
            .map_or(bytes.len(), |e| body + e + close.len());
        for (k, b) in bytes[body..end].iter().enumerate() {
            if *b == b'\n' {
                *line += 1;
                *line_start = body + k + 1;
            }
        }
        Some(end)
    };
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                i += 1;
                line_start = i;
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                let after = i + 2;
                i = match (bytes.get(after) == Some(&b'['))
                    .then(|| long_bracket(after, &mut line, &mut line_start))
                    .flatten()
                {
                    Some(end) => end,
                    None => text[after..].find('\n').map_or(bytes.len(), |e| after + e),
                };
            }
            b'[' => match long_bracket(i, &mut line, &mut line_start) {
                Some(end) => i = end,
                None => i += 1,
            },
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        if bytes.get(i + 1) == Some(&b'\n') {
                            line += 1;
                            line_start = i + 2;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'<' => {
                let after = text[i + 1..].trim_start_matches([' ', '\t']);
                if let Some(tail) = after.strip_prefix("close")
                    && tail.trim_start_matches([' ', '\t']).starts_with('>')
                {
                    return Some((line, text[line_start..i].chars().count() + 1));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// `table.sort` and `table.move` loop in C, where the hook never fires: cap their sizes.
fn guard_table_library(lua: &Lua, table: &Table) -> mlua::Result<()> {
    const MAX_ITEMS: i64 = 1_000_000;
    let sort: Function = table.get("sort")?;
    let guarded_sort = lua.create_function(move |lua, args: MultiValue| {
        if let Some(LuaValue::Table(t)) = args.front()
            && t.raw_len() as i64 > MAX_ITEMS
        {
            return Err(script_error(
                lua,
                format!("table.sort: more than {MAX_ITEMS} items"),
            ));
        }
        sort.call::<MultiValue>(args)
    })?;
    table.set("sort", guarded_sort)?;
    let moves: Function = table.get("move")?;
    let guarded_move = lua.create_function(move |lua, args: MultiValue| {
        let number = |i: usize| match args.get(i) {
            Some(LuaValue::Integer(n)) => Some(*n),
            Some(LuaValue::Number(n)) => Some(*n as i64),
            _ => None,
        };
        if let (Some(from), Some(to)) = (number(1), number(2))
            && to.saturating_sub(from) > MAX_ITEMS
        {
            return Err(script_error(
                lua,
                format!("table.move: more than {MAX_ITEMS} items"),
            ));
        }
        moves.call::<MultiValue>(args)
    })?;
    table.set("move", guarded_move)?;
    Ok(())
}

/// The sources `include` may load: the module's scripts by relative path, and the library.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sources {
    /// Relative path -> (chunk name, text).
    pub files: BTreeMap<String, String>,
}

impl Sources {
    /// The module's scripts plus the engine library.
    pub fn new(scripts: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut files: BTreeMap<String, String> = scripts.into_iter().collect();
        for (name, text) in LIBRARY {
            files.insert((*name).to_owned(), (*text).to_owned());
        }
        Sources { files }
    }
}

/// What `include` has loaded: each script's value once it has run, and each compiled
/// chunk, so that loading the rules again ([`Includes::forget`]) does not parse them again.
#[derive(Default)]
pub(crate) struct Includes {
    loaded: RefCell<BTreeMap<String, LuaValue>>,
    loading: RefCell<Vec<String>>,
    chunks: RefCell<BTreeMap<String, Function>>,
}

impl Includes {
    /// Keeps `chunk`, compiled from `path`, for `include` to run.
    pub fn keep(&self, path: &str, chunk: Function) {
        self.chunks.borrow_mut().insert(path.to_owned(), chunk);
    }
}

/// Installs `include(path)`: loads one of `sources` once (each in its own environment) and
/// returns what the chunk returned; a cycle of includes is an error. A chunk compiled
/// before (kept in the returned [`Includes`]) is run in a new environment, not parsed again.
pub(crate) fn install_include(vm: &Rc<Vm>, sources: Sources) -> mlua::Result<Rc<Includes>> {
    let includes = Rc::new(Includes::default());
    let state = includes.clone();
    let weak = Rc::downgrade(vm);
    let include = vm.lua.create_function(move |lua, path: String| {
        if let Some(value) = state.loaded.borrow().get(&path) {
            return Ok(value.clone());
        }
        let Some(text) = sources.files.get(&path) else {
            let known: Vec<&String> = sources.files.keys().collect();
            return Err(script_error(
                lua,
                format!("include: no script '{path}' (scripts are listed in module.ron; known: {known:?})"),
            ));
        };
        if state.loading.borrow().contains(&path) {
            let mut chain = state.loading.borrow().clone();
            chain.push(path.clone());
            return Err(script_error(lua, format!("include cycle: {}", chain.join(" -> "))));
        }
        let Some(vm) = weak.upgrade() else {
            return Err(mlua::Error::runtime("include: the VM is gone"));
        };
        let kept = state.chunks.borrow().get(&path).cloned();
        let chunk = match kept {
            Some(chunk) => vm.new_env().and_then(|env| chunk.set_environment(env)).map(|_| chunk),
            None => vm.compile(&path, text).inspect(|chunk| state.keep(&path, chunk.clone())),
        };
        state.loading.borrow_mut().push(path.clone());
        let result = chunk.and_then(|chunk| chunk.call::<LuaValue>(()));
        state.loading.borrow_mut().pop();
        let value = result?;
        state.loaded.borrow_mut().insert(path, value.clone());
        Ok(value)
    })?;
    vm.add_global("include", include)?;
    Ok(includes)
}

#[cfg(test)]
mod tests {
    use super::{Limits, Vm, find_close_attribute};

    /// The order in which `pairs` visits string keys in `vm`.
    fn order(vm: &Vm) -> String {
        vm.lua
            .load(
                "local m = {} for i = 1, 40 do m['key' .. i] = i end \
                 local seen = {} for k in pairs(m) do seen[#seen + 1] = k end \
                 return table.concat(seen, ' ')",
            )
            .eval()
            .expect("runs")
    }

    #[test]
    fn the_interpreter_is_the_patched_one_that_counts_instructions_inline() {
        // vendor/PATCHES.md: the build takes Lua from vendor/lua-src through Cargo's
        // [patch]; a build from the registry's sources would not carry the mark.
        let lua = mlua::Lua::new();
        let mark: Option<String> = lua.globals().get("_CHANCERY_PATCH").expect("reads");
        assert_eq!(mark.as_deref(), Some("inline instruction count"));
    }

    #[test]
    fn a_runaway_stops_at_the_same_instruction_every_time() {
        // The budget's count is kept inline by the patch; the hook still falls on the same
        // instruction: a loop that counts its turns stops with the same count each run.
        let turns = || {
            let vm = Vm::new(Limits {
                instructions: 100_000,
                ..Limits::default()
            })
            .expect("a VM");
            let counter = vm.lua.create_table().expect("a table");
            vm.lua
                .globals()
                .set("counter", counter.clone())
                .expect("set");
            vm.budget.start();
            let result = vm
                .lua
                .load("counter.n = 0 while true do counter.n = counter.n + 1 end")
                .exec();
            vm.budget.stop();
            assert!(result.is_err(), "the budget stops the loop");
            counter.get::<i64>("n").expect("a count")
        };
        let first = turns();
        assert!(first > 1000, "{first}");
        assert_eq!(turns(), first);
        assert_eq!(turns(), first);
    }

    #[test]
    fn every_vm_visits_string_keys_in_the_same_order() {
        // Lua seeds string hashes from the clock and the addresses of the new state unless
        // built with a fixed seed (.cargo/config.toml): VMs alive side by side, or in two
        // processes, would disagree.
        let vms: Vec<Vm> = (0..6)
            .map(|_| Vm::new(Limits::default()).expect("a VM"))
            .collect();
        let first = order(&vms[0]);
        for vm in &vms[1..] {
            assert_eq!(order(vm), first);
        }
    }

    #[test]
    fn a_close_attribute_is_found_in_code_only() {
        assert_eq!(
            find_close_attribute("local x = 1\n  local g <close> = f()\n"),
            Some((2, 11))
        );
        assert_eq!(
            find_close_attribute("local g < close > = f()"),
            Some((1, 9))
        );
        for text in [
            "local s = \"<close>\"",
            "local s = 'a <close> b'",
            "local s = [[\n<close>\n]]",
            "local s = [==[ ]] <close> ]==]",
            "-- local g <close> = f()",
            "--[[ local g <close> = f()\n]]",
            "local s = \"\\\"<close>\"",
            "if a <b then end",
        ] {
            assert_eq!(find_close_attribute(text), None, "{text}");
        }
        assert_eq!(
            find_close_attribute("local s = [[\n]]\nlocal g <close> = f()"),
            Some((3, 9))
        );
    }
}
