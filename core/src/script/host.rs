//! The Lua host of one module: loads its scripts into a sandboxed VM, checks the hook
//! table, and calls hooks with a `ctx` over the table, moving the table into the VM for the
//! length of a call and back out after it.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Function, Lua, MultiValue, Table as LuaTable, Value as LuaValue};

use super::api::{self, CallState, FlowEvent};
use super::budget::Limits;
use super::convert::{from_lua, to_lua};
use super::sandbox::{Sources, Vm, install_include};
use super::util::{describe, script_error};
use super::{data, diag};
use crate::ids::SeatId;
use crate::module::{Diagnostic, Diagnostics, Module, RulesInfo};
use crate::rules::{RulesError, StepIo};
use crate::table::Table;
use crate::value::Value;

/// The most state changes (entries and exits) one step may make before it counts as a
/// runaway flow.
pub const MAX_FLOW_STEPS: usize = 10_000;

/// The top-level names a rules table may have.
const HOOKS: &[&str] = &["setup", "states", "view", "check", "bots"];

/// What a hook call may do with the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Read and change it (setup, actions, on_enter, on_exit).
    Change,
    /// Read all of it (prompt, check).
    Read,
    /// Read what this seat may see (bots, a seat's view): cards it may not see read as "?".
    Seat(SeatId),
}

/// Whose locals `ctx.locals` is during a call.
pub(crate) enum Locals {
    /// No state's (setup, check, view).
    None,
    /// The frame with this id.
    Frame(u64),
    /// These values, of a frame already gone (`on_exit`).
    Given(Value),
}

/// What one hook call gave back.
pub(crate) struct Invoked {
    pub table: Table,
    pub io: StepIo,
    pub events: Vec<FlowEvent>,
    pub result: Result<MultiValue, RulesError>,
}

/// A module's scripts loaded in a VM, with its hook table.
pub(crate) struct Host {
    pub vm: Rc<Vm>,
    pub module: Arc<Module>,
    pub hooks: LuaTable,
    ctx_meta: LuaTable,
    pub states: Arc<Vec<String>>,
    pub api_calls: Rc<RefCell<Vec<u64>>>,
}

impl Host {
    /// Loads `module`'s scripts; every problem is a diagnostic with file and line.
    pub fn new(module: Arc<Module>, limits: Limits) -> Result<Host, Diagnostics> {
        let fail =
            |message: String| Diagnostics(vec![Diagnostic::error(&module.dir, 0, 0, message)]);
        let vm = Rc::new(
            Vm::new(limits).map_err(|e| fail(format!("cannot start Lua: {}", describe(&e).0)))?,
        );
        let sources = Sources::new(
            module
                .scripts
                .iter()
                .map(|s| (s.rel.clone(), s.text.clone())),
        );
        install_include(&vm, sources).map_err(|e| fail(describe(&e).0))?;

        let mut diags = Diagnostics::default();
        for script in &module.scripts {
            if let Some((line, col)) = super::sandbox::find_close_attribute(&script.text) {
                diags.push(Diagnostic::error(
                    &script.path,
                    line,
                    col,
                    "to-be-closed variables (<close>) are not allowed in modules: their handlers could run where the instruction budget cannot stop them",
                ));
                continue;
            }
            if let Err(err) = vm.compile(&script.rel, &script.text) {
                diags.push(diag::from_lua_error(&module, &describe(&err).0));
            }
        }
        if diags.has_errors() {
            return Err(diags);
        }
        let main = module.manifest.main.clone();
        let include: Function = vm.extra("include").map_err(|e| fail(describe(&e).0))?;
        let hooks = match vm.call(|| include.call::<LuaValue>(main.as_str())) {
            Ok(LuaValue::Table(t)) => t,
            Ok(other) => {
                let message = format!(
                    "{main} must return the rules table (setup, states, …), but it returned a {}",
                    other.type_name()
                );
                return Err(Diagnostics(vec![diag::at_end(&module, &main, message)]));
            }
            Err(err) => {
                return Err(Diagnostics(vec![diag::from_lua_error(
                    &module,
                    &describe(&err).0,
                )]));
            }
        };
        let states = check_hooks(&module, &hooks)?;

        let api_calls = Rc::new(RefCell::new(Vec::new()));
        let ctx_meta = vm
            .call(|| build_ctx(&vm, &module, &api_calls))
            .map_err(|e| fail(format!("cannot build ctx: {}", describe(&e).0)))?;
        Ok(Host {
            vm,
            module,
            hooks,
            ctx_meta,
            states: Arc::new(states),
            api_calls,
        })
    }

    /// What the rules table declares.
    pub fn info(&self) -> RulesInfo {
        let mut bots: Vec<String> = match self.hooks.get::<LuaValue>("bots") {
            Ok(LuaValue::Table(t)) => t
                .pairs::<String, LuaValue>()
                .filter_map(Result::ok)
                .map(|(k, _)| k)
                .collect(),
            _ => Vec::new(),
        };
        bots.sort();
        let hooks = ["view", "check"]
            .iter()
            .filter(|h| matches!(self.hooks.get::<LuaValue>(**h), Ok(LuaValue::Function(_))))
            .map(|h| (*h).to_owned())
            .collect();
        RulesInfo {
            states: self.states.to_vec(),
            bots,
            hooks,
        }
    }

    /// The function `states[state][name]`, if there is one.
    pub fn state_fn(&self, state: &str, name: &str) -> Option<Function> {
        let states: LuaTable = self.hooks.get("states").ok()?;
        let st: LuaTable = states.get(state).ok()?;
        st.get::<Option<Function>>(name).ok().flatten()
    }

    /// The function `hooks[name]` (or `hooks.bots[name]` when `bot`), if there is one.
    pub fn hook_fn(&self, name: &str) -> Option<Function> {
        self.hooks.get::<Option<Function>>(name).ok().flatten()
    }

    /// The bot function `bots[name]`.
    pub fn bot_fn(&self, name: &str) -> Option<Function> {
        let bots: LuaTable = self.hooks.get("bots").ok()?;
        bots.get::<Option<Function>>(name).ok().flatten()
    }

    /// Calls one hook over `table`. `call` receives the ctx table and does the Lua call.
    pub fn invoke(
        &self,
        table: Table,
        access: Access,
        hook: String,
        locals: Locals,
        io: StepIo,
        call: impl FnOnce(&LuaTable) -> mlua::Result<MultiValue>,
    ) -> Invoked {
        let lua = &self.vm.lua;
        let ctx = match lua
            .create_table()
            .and_then(|t| t.set_metatable(Some(self.ctx_meta.clone())).map(|_| t))
        {
            Ok(ctx) => ctx,
            Err(err) => {
                return Invoked {
                    table,
                    io,
                    events: Vec::new(),
                    result: Err(self.error(&hook, &err)),
                };
            }
        };
        let (locals_frame, locals_given) = match locals {
            Locals::None => (None, None),
            Locals::Frame(id) => (Some(id), None),
            Locals::Given(v) => (None, Some(v)),
        };
        lua.set_app_data(CallState {
            table,
            module: self.module.clone(),
            writable: access == Access::Change,
            viewer: match access {
                Access::Seat(seat) => Some(seat),
                _ => None,
            },
            hook: hook.clone(),
            events: Vec::new(),
            io,
            need: None,
            locals_frame,
            locals_given,
            vars_table: None,
            locals_table: None,
            states: self.states.clone(),
        });
        let result = self.vm.call(|| call(&ctx));
        let Some(state) = lua.remove_app_data::<CallState>() else {
            // Unreachable: scripts cannot touch app data. Keep the game going regardless.
            return Invoked {
                table: Table::new(&self.module.manifest.id, Default::default(), 0),
                io: StepIo::default(),
                events: Vec::new(),
                result: Err(RulesError::Script(format!(
                    "module '{}', {hook}: the table was lost",
                    self.module.id()
                ))),
            };
        };
        let CallState {
            mut table,
            io,
            events,
            need,
            vars_table,
            locals_table,
            locals_frame,
            writable,
            ..
        } = state;
        let mut result = result.map_err(|e| self.error(&hook, &e));
        if result.is_ok()
            && let Err(message) =
                write_back(&mut table, writable, vars_table, locals_table, locals_frame)
        {
            result = Err(RulesError::Script(format!(
                "module '{}', {hook}: {message}",
                self.module.id()
            )));
        }
        if let Some(need) = need {
            result = Err(RulesError::Need(need));
        }
        Invoked {
            table,
            io,
            events,
            result,
        }
    }

    /// Runs `on_exit` and `on_enter` for each flow change, until none is left.
    pub fn run_events(
        &self,
        mut table: Table,
        mut io: StepIo,
        events: Vec<FlowEvent>,
    ) -> (Table, StepIo, Result<(), RulesError>) {
        let mut queue: VecDeque<FlowEvent> = events.into();
        let mut steps = 0;
        while let Some(event) = queue.pop_front() {
            steps += 1;
            if steps > MAX_FLOW_STEPS {
                let state = table
                    .top_frame()
                    .map(|f| f.state.clone())
                    .unwrap_or_default();
                return (
                    table,
                    io,
                    Err(RulesError::Runaway {
                        limit: MAX_FLOW_STEPS,
                        state,
                    }),
                );
            }
            let (state, which, locals) = match event {
                FlowEvent::Enter(id) => match table.flow.iter().find(|f| f.id == id) {
                    Some(frame) => (frame.state.clone(), "on_enter", Locals::Frame(id)),
                    None => continue,
                },
                FlowEvent::Exit(frame) => (frame.state, "on_exit", Locals::Given(frame.locals)),
            };
            let Some(f) = self.state_fn(&state, which) else {
                continue;
            };
            let hook = format!("{which} of state '{state}'");
            let invoked = self.invoke(table, Access::Change, hook, locals, io, |ctx| {
                f.call::<MultiValue>(ctx.clone())
            });
            table = invoked.table;
            io = invoked.io;
            if let Err(err) = invoked.result {
                return (table, io, Err(err));
            }
            queue.extend(invoked.events);
        }
        (table, io, Ok(()))
    }

    /// A script error as the one-line message designers read: module, hook, Lua position.
    pub fn error(&self, hook: &str, err: &mlua::Error) -> RulesError {
        let (message, traceback) = describe(err);
        let mut text = format!(
            "module '{}', {hook}: {}",
            self.module.id(),
            self.fix_paths(&message)
        );
        if let Some(traceback) = traceback {
            let frames: Vec<String> = traceback
                .lines()
                .map(str::trim)
                .filter(|l| {
                    self.module
                        .scripts
                        .iter()
                        .any(|s| l.starts_with(&format!("{}:", s.rel)))
                })
                .map(|l| format!("\n  at {}", self.fix_paths(l)))
                .collect();
            text.extend(frames);
        }
        RulesError::Script(text)
    }

    /// Rewrites chunk names (`rules/main.lua:3:`) to the module's file paths.
    pub fn fix_paths(&self, text: &str) -> String {
        diag::fix_paths(&self.module, text)
    }
}

/// Stores `ctx.vars` and `ctx.locals` back into the table after a call; a read-only hook
/// that changed them is an error.
fn write_back(
    table: &mut Table,
    writable: bool,
    vars: Option<LuaTable>,
    locals: Option<LuaTable>,
    frame_id: Option<u64>,
) -> Result<(), String> {
    if let Some(vars) = vars {
        let value = from_lua(&LuaValue::Table(vars), "ctx.vars")?;
        let value = if matches!(&value, Value::List(l) if l.is_empty()) {
            Value::map()
        } else {
            value
        };
        if writable {
            table.vars = value;
        } else if value != table.vars {
            return Err("changed ctx.vars, but it may only read them".to_owned());
        }
    }
    if let Some(locals) = locals {
        let value = from_lua(&LuaValue::Table(locals), "ctx.locals")?;
        let value = if matches!(&value, Value::List(l) if l.is_empty()) {
            Value::map()
        } else {
            value
        };
        let frame = frame_id.and_then(|id| table.flow.iter_mut().find(|f| f.id == id));
        match frame {
            Some(frame) if writable => frame.locals = value,
            Some(frame) if frame.locals != value => {
                return Err("changed ctx.locals, but it may only read them".to_owned());
            }
            _ => {}
        }
    }
    Ok(())
}

/// Checks the rules table's shape; returns the state names, sorted.
fn check_hooks(module: &Module, hooks: &LuaTable) -> Result<Vec<String>, Diagnostics> {
    let main = &module.manifest.main;
    let mut diags = Diagnostics::default();
    let mut err = |key: &str, message: String| diags.push(diag::at_key(module, main, key, message));
    for pair in hooks.pairs::<LuaValue, LuaValue>() {
        let Ok((key, _)) = pair else { continue };
        let name = match &key {
            LuaValue::String(s) => s.to_string_lossy(),
            other => format!("{other:?}"),
        };
        if !HOOKS.contains(&name.as_str()) {
            err(
                &name,
                format!(
                    "unknown hook '{name}' in the rules table (hooks are: {})",
                    HOOKS.join(", ")
                ),
            );
        }
    }
    if !matches!(hooks.get::<LuaValue>("setup"), Ok(LuaValue::Function(_))) {
        err(
            "setup",
            "the rules table needs a function setup(ctx, scenario, options)".to_owned(),
        );
    }
    for optional in ["view", "check"] {
        match hooks.get::<LuaValue>(optional) {
            Ok(LuaValue::Nil | LuaValue::Function(_)) => {}
            _ => err(optional, format!("'{optional}' must be a function")),
        }
    }
    match hooks.get::<LuaValue>("bots") {
        Ok(LuaValue::Nil) => {}
        Ok(LuaValue::Table(bots)) => {
            for (name, value) in bots.pairs::<String, LuaValue>().filter_map(Result::ok) {
                if !matches!(value, LuaValue::Function(_)) {
                    err(
                        &name,
                        format!("bot '{name}' must be a function(ctx, seat, actions)"),
                    );
                }
            }
        }
        _ => err("bots", "'bots' must be a table of functions".to_owned()),
    }
    let mut names = Vec::new();
    match hooks.get::<LuaValue>("states") {
        Ok(LuaValue::Table(states)) => {
            for (name, value) in states.pairs::<String, LuaValue>().filter_map(Result::ok) {
                let LuaValue::Table(state) = value else {
                    err(
                        &name,
                        format!("state '{name}' must be a table of functions"),
                    );
                    continue;
                };
                if !matches!(state.get::<LuaValue>("prompt"), Ok(LuaValue::Function(_))) {
                    err(
                        &name,
                        format!("state '{name}' needs a function prompt(ctx)"),
                    );
                }
                for (key, v) in state.pairs::<String, LuaValue>().filter_map(Result::ok) {
                    if !matches!(v, LuaValue::Function(_)) {
                        err(&key, format!("state '{name}': '{key}' must be a function"));
                    }
                }
                names.push(name);
            }
            if names.is_empty() {
                err("states", "the rules table has no states".to_owned());
            }
        }
        _ => err(
            "states",
            "the rules table needs a table 'states'".to_owned(),
        ),
    }
    names.sort();
    if diags.has_errors() {
        Err(diags)
    } else {
        Ok(names)
    }
}

/// Builds the metatable of ctx tables, whose `__index` is the prototype holding the API
/// functions and `data`.
fn build_ctx(vm: &Vm, module: &Module, calls: &Rc<RefCell<Vec<u64>>>) -> mlua::Result<LuaTable> {
    let lua = &vm.lua;
    let proto = lua.create_table()?;
    api::register(lua, &proto, calls)?;
    proto.raw_set("data", data::build(vm, module)?)?;
    let lazy = lua.create_table()?;
    lazy.raw_set(
        "__index",
        lua.create_function(|lua, (_, key): (LuaValue, String)| lazy_field(lua, &key))?,
    )?;
    proto.set_metatable(Some(lazy))?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", proto.clone())?;
    meta.raw_set(
        "__newindex",
        lua.create_function(|lua, (_, key): (LuaValue, String)| -> mlua::Result<()> {
            Err(script_error(
                lua,
                format!("ctx.{key} cannot be set: keep rule variables in ctx.vars or ctx.locals"),
            ))
        })?,
    )?;
    meta.raw_set("__metatable", false)?;
    Ok(meta)
}

/// `ctx.vars`, `ctx.locals` and `ctx.scenario`, made on first use in a call.
fn lazy_field(lua: &Lua, key: &str) -> mlua::Result<LuaValue> {
    let unknown = || script_error(lua, format!("ctx has no field or function '{key}'"));
    let cached = {
        let Some(state) = lua.app_data_ref::<CallState>() else {
            return Err(mlua::Error::runtime("ctx was used outside a hook call"));
        };
        match key {
            "vars" => Some((state.vars_table.clone(), state.table.vars.clone())),
            "locals" => {
                let value = match (&state.locals_given, state.locals_frame) {
                    (Some(v), _) => v.clone(),
                    (None, Some(id)) => state
                        .table
                        .flow
                        .iter()
                        .find(|f| f.id == id)
                        .map(|f| f.locals.clone())
                        .unwrap_or_else(Value::map),
                    (None, None) => Value::map(),
                };
                Some((state.locals_table.clone(), value))
            }
            "scenario" => return to_lua(lua, &Value::Str(state.table.scenario.to_string())),
            _ => None,
        }
    };
    let Some((cached, value)) = cached else {
        return Err(unknown());
    };
    if let Some(t) = cached {
        return Ok(LuaValue::Table(t));
    }
    let LuaValue::Table(t) = to_lua(lua, &value)? else {
        return Err(script_error(lua, format!("ctx.{key} is not a table")));
    };
    if let Some(mut state) = lua.app_data_mut::<CallState>() {
        if key == "vars" {
            state.vars_table = Some(t.clone());
        } else {
            state.locals_table = Some(t.clone());
        }
    }
    Ok(LuaValue::Table(t))
}
