//! The Lua host of one module: loads its scripts into a sandboxed VM, checks the hook
//! table, and calls hooks with a `ctx` over the table, moving the table into the VM for the
//! length of a call and back out after it.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Function, Lua, MultiValue, Table as LuaTable, Value as LuaValue};

use super::api;
use super::budget::Limits;
use super::call::{CallState, FlowEvent, Lazy, Remembered, Which};
use super::convert;
use super::convert::to_lua;
use super::sandbox::{Sources, Vm, install_include};
use super::stack::{Arg, CallArgs};
use super::util::{describe, field, is_memory_error, our_frames, script_error, with_position};
use super::{data, diag, lazy};
use crate::ids::SeatId;
use crate::module::{Diagnostic, Diagnostics, Module, RulesInfo};
use crate::rules::{Decision, RulesError, StepIo};
use crate::table::Table;
use crate::value::Value;

/// The most state changes (entries and exits) one step may make before it counts as a
/// runaway flow.
pub const MAX_FLOW_STEPS: usize = 10_000;

/// The top-level names a rules table may have.
const HOOKS: &[&str] = &["setup", "states", "view", "check", "bots", "effects"];

/// The functions of a state table that are hooks, not actions.
pub(crate) const STATE_HOOKS: &[&str] = &[
    "prompt",
    "run",
    "on_enter",
    "on_exit",
    "on_resume",
    "reveal",
    "all_passed",
];

/// What a hook call may do with the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Read and change it (setup, actions, on_enter, on_exit).
    Change,
    /// Read all of it (prompt, check).
    Read,
    /// Read what this seat may see (a seat's view): cards it may not see read as "?", and
    /// another seat's private state may not be read.
    Seat(SeatId),
    /// Read what this seat may see, as its bot: as `Seat`, and it may draw from the bot's
    /// own random stream.
    Bot(SeatId),
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
    /// What a bot drew from its random stream, as lines for its reasons.
    pub bot_draws: Vec<String>,
    pub result: Result<MultiValue, RulesError>,
}

/// A runaway flow, stopped in the state on top.
fn runaway(table: Table, io: StepIo) -> (Table, StepIo, Result<(), RulesError>) {
    let state = table
        .top_frame()
        .map(|f| f.state.clone())
        .unwrap_or_default();
    (
        table,
        io,
        Err(RulesError::Runaway {
            limit: MAX_FLOW_STEPS,
            state,
        }),
    )
}

/// A module's scripts loaded in a VM, with its hook table.
pub(crate) struct Host {
    pub vm: Rc<Vm>,
    pub module: Arc<Module>,
    pub hooks: LuaTable,
    ctx_meta: LuaTable,
    /// The table behind every `ctx` (ctx_meta's `__index`).
    ctx_proto: LuaTable,
    pub states: Arc<Vec<String>>,
    /// The rules' `states` table.
    state_table: LuaTable,
    /// How each state is decided, and whether it is automatic, as declared at load.
    kinds: std::collections::BTreeMap<String, (Decision, bool)>,
    /// The ids that have effects, with their hook names.
    pub effects: std::collections::BTreeMap<String, Vec<String>>,
    pub api_calls: Rc<RefCell<Vec<u64>>>,
    /// What the VM remembers of `ctx:space_of` and `ctx:known`.
    remembered: Rc<RefCell<Remembered>>,
    /// `ctx.watched` in this VM's calls: whether anyone will read their words.
    pub watched: bool,
    /// How many times an automatic state's `run` has been called in this game.
    pub automatic_runs: std::cell::Cell<u64>,
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
        let includes = install_include(&vm, sources).map_err(|e| fail(describe(&e).0))?;

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
            match vm.compile(&script.rel, &script.text) {
                Ok(chunk) => includes.keep(&script.rel, chunk),
                Err(err) => diags.push(diag::from_lua_error(&module, &describe(&err).0)),
            }
        }
        if diags.has_errors() {
            return Err(diags);
        }
        let (hooks, declared) = run_main(&vm, &module)?;

        let api_calls = Rc::new(RefCell::new(Vec::new()));
        // The engine's own work, in proportion to the module's data (whose files are
        // capped in size), not module code: it runs under no budget of the module's.
        let engine = Limits {
            instructions: u64::MAX,
            wall_ms: u64::MAX / 2,
            ..limits
        };
        let (ctx_meta, remembered) = vm
            .call_with(engine, || {
                super::stack::unmetered(&vm.lua, || build_ctx(&vm, &module, &api_calls))
            })
            .map_err(|e| fail(format!("cannot build ctx: {}", describe(&e).0)))?;
        let ctx_proto: LuaTable = ctx_meta
            .raw_get("__index")
            .map_err(|e| fail(format!("cannot build ctx: {}", describe(&e).0)))?;
        let state_table: LuaTable = hooks
            .get("states")
            .map_err(|e| fail(format!("cannot read states: {}", describe(&e).0)))?;
        Ok(Host {
            vm,
            module,
            hooks,
            ctx_meta,
            ctx_proto,
            states: Arc::new(declared.states),
            state_table,
            kinds: declared.kinds,
            effects: declared.effects,
            api_calls,
            remembered: Rc::new(RefCell::new(remembered)),
            watched: true,
            automatic_runs: std::cell::Cell::new(0),
        })
    }

    /// Makes this VM ready for a new game without running the scripts again: the API
    /// counts, printed lines, steps counted and the answers of `ctx:space_of` and
    /// `ctx:known` the VM remembers are cleared. The scripts' globals are read-only since
    /// they loaded, but what a script keeps in its own local variables survives: a
    /// simulation that plays this way checks a sample of its games against fresh VMs.
    pub fn reuse(&mut self) -> Result<(), Diagnostics> {
        self.remembered.borrow_mut().forget().map_err(|e| {
            Diagnostics(vec![Diagnostic::error(
                &self.module.dir,
                0,
                0,
                format!("cannot start the game afresh: {}", describe(&e).0),
            )])
        })?;
        self.vm.output.borrow_mut().clear();
        self.api_calls.borrow_mut().iter_mut().for_each(|n| *n = 0);
        self.automatic_runs.set(0);
        Ok(())
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
            effects: self.effects.clone(),
            procedures: Vec::new(),
            places: Default::default(),
        }
    }

    /// What the rules table declares, with the outline of its procedures (read once, as
    /// the module loads: a step that names a state the rules lack is an error there).
    pub fn info_with_outline(&self) -> Result<RulesInfo, Diagnostics> {
        let outline = super::outline::collect(&self.module, &self.state_table)?;
        Ok(RulesInfo {
            procedures: outline.procedures,
            places: outline.places,
            ..self.info()
        })
    }

    /// The function `states[state][name]`, if there is one.
    pub fn state_fn(&self, state: &str, name: &str) -> Option<Function> {
        let st: LuaTable = field(&self.vm.lua, &self.state_table, state).ok()?;
        field::<Option<Function>>(&self.vm.lua, &st, name)
            .ok()
            .flatten()
    }

    /// Whether `state` is automatic (it has `run`), as the rules table declared at load.
    pub fn is_automatic(&self, state: &str) -> bool {
        self.kinds.get(state).is_some_and(|k| k.1)
    }

    /// The function `hooks[name]` (or `hooks.bots[name]` when `bot`), if there is one.
    pub fn hook_fn(&self, name: &str) -> Option<Function> {
        field::<Option<Function>>(&self.vm.lua, &self.hooks, name)
            .ok()
            .flatten()
    }

    /// The bot function `bots[name]`.
    pub fn bot_fn(&self, name: &str) -> Option<Function> {
        let bots: LuaTable = field(&self.vm.lua, &self.hooks, "bots").ok()?;
        field::<Option<Function>>(&self.vm.lua, &bots, name)
            .ok()
            .flatten()
    }

    /// Calls one hook over `table`. `call` receives the ctx table and does the Lua call.
    pub fn invoke(
        &self,
        table: Table,
        access: Access,
        Hook { name: hook, entry }: Hook<'_>,
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
                    bot_draws: Vec::new(),
                    result: Err(self.error(&hook, &err)),
                };
            }
        };
        lazy::forget_recent(lua);
        let state = self.call_state(table, access, &hook, locals, io);
        let fresh = state
            .remembered
            .borrow_mut()
            .hold_for(state.table.places.stamp(), &state.viewer);
        if let Err(err) = fresh {
            return Invoked {
                table: state.table,
                io: state.io,
                events: Vec::new(),
                bot_draws: Vec::new(),
                result: Err(self.error(&hook, &err)),
            };
        }
        lua.set_app_data(state);
        let result = self.vm.call(|| call(&ctx));
        let Some(state) = lua.remove_app_data::<CallState>() else {
            // Unreachable: scripts cannot touch app data. Keep the game going regardless.
            self.forget_kept(&KEPT_FIELDS);
            return Invoked {
                table: Table::new(&self.module.manifest.id, Default::default(), 0),
                io: StepIo::default(),
                events: Vec::new(),
                bot_draws: Vec::new(),
                result: Err(RulesError::Script(format!(
                    "module '{}', {hook}: the table was lost",
                    self.module.id()
                ))),
            };
        };
        self.forget_kept(&state.kept);
        self.finish(state, result, &hook, entry)
    }

    /// Empties the fields ctx kept for the call that ended (see `lazy_field`).
    fn forget_kept(&self, kept: &[&'static str]) {
        for name in kept {
            // Storing nil takes no memory: it cannot fail.
            let _ = super::stack::raw_store(&self.vm.lua, &self.ctx_proto, *name, LuaValue::Nil);
        }
    }

    /// What a hook's call works on and gathers: the table, who may see and change what,
    /// the frame whose locals it reads.
    fn call_state(
        &self,
        table: Table,
        access: Access,
        hook: &str,
        locals: Locals,
        io: StepIo,
    ) -> CallState {
        let (locals_frame, locals_given) = match locals {
            Locals::None => (None, None),
            Locals::Frame(id) => (Some(id), None),
            Locals::Given(v) => (None, Some(v)),
        };
        CallState {
            table,
            module: self.module.clone(),
            writable: access == Access::Change,
            bot: matches!(access, Access::Bot(_)),
            viewer: match access {
                Access::Seat(seat) | Access::Bot(seat) => Some(seat),
                _ => None,
            },
            hook: hook.to_owned(),
            events: Vec::new(),
            io,
            need: None,
            locals_frame,
            locals_given,
            vars_table: None,
            locals_table: None,
            watched: self.watched,
            private_tables: std::collections::BTreeMap::new(),
            bot_draws: Vec::new(),
            bot_rng: None,
            states: self.states.clone(),
            remembered: self.remembered.clone(),
            ctx_proto: self.ctx_proto.clone(),
            read_once: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// After a hook's call: its result, with the values it stored written back to the
    /// table (or the error of a value that cannot be stored), and what it asked for.
    fn finish(
        &self,
        state: CallState,
        result: mlua::Result<MultiValue>,
        hook: &str,
        entry: &Function,
    ) -> Invoked {
        let CallState {
            mut table,
            io,
            events,
            need,
            vars_table,
            locals_table,
            locals_frame,
            locals_given,
            private_tables,
            bot_draws,
            writable,
            ..
        } = state;
        let mut result = result.map_err(|e| {
            if is_memory_error(&e) {
                // Lua says not where memory ran out: point at the hook itself.
                self.error_at(
                    hook,
                    entry,
                    format!(
                        "out of memory: this function (or one it calls) tried to hold more than \
                         the module may use (at most {} MiB in one VM, {} MiB in all the VMs of a game: \
                         the rules' and each seat's bots and views)",
                        self.vm.budget.memory_limit() / (1024 * 1024),
                        super::game_memory_bytes(&self.vm.budget.limits()) / (1024 * 1024)
                    ),
                )
            } else {
                self.error(hook, &e)
            }
        });
        let mut written = WrittenBack {
            vars: vars_table,
            locals: locals_table,
            frame_id: locals_frame,
            given: locals_given,
            private: private_tables,
        };
        let stored = if result.is_ok() {
            write_back(&self.vm.lua, &mut table, writable, &mut written)
        } else {
            Ok(())
        };
        lazy::keep_recent(
            &self.vm.lua,
            lazy::Recent::of(written.vars, written.locals, locals_frame, written.given),
        );
        if let Err(message) = stored {
            // The values are read after the hook returns: point at the hook itself.
            result = Err(self.error_at(
                hook,
                entry,
                format!("{message} (stored by this function or one it calls)"),
            ));
        }
        if let Some(need) = need {
            result = Err(RulesError::Need(need));
        }
        Invoked {
            table,
            io,
            events,
            bot_draws,
            result,
        }
    }

    /// How the state `state` is decided: a state with `reveal` is a simultaneous choice,
    /// one with `all_passed` a reaction window, any other a single decision.
    pub fn decision(&self, state: &str) -> Decision {
        self.kinds.get(state).map_or(Decision::One, |k| k.0)
    }

    /// Settles the flow after a hook: runs `on_exit`, `on_enter` and `on_resume` for each
    /// flow change, and the `run` hook of every automatic state that comes to the top, until
    /// a state that waits for a decision is on top (or the game is over). More than
    /// [`MAX_FLOW_STEPS`] of these in one step is a runaway flow.
    pub fn settle(
        &self,
        mut table: Table,
        mut io: StepIo,
        events: Vec<FlowEvent>,
    ) -> (Table, StepIo, Result<(), RulesError>) {
        let mut queue: VecDeque<FlowEvent> = events.into();
        let mut steps = 0;
        loop {
            let Some(event) = queue.pop_front() else {
                // Every change is handled: an automatic state on top runs now.
                let Some((id, state, run)) = self.automatic_top(&table) else {
                    break;
                };
                steps += 1;
                if steps > MAX_FLOW_STEPS {
                    return runaway(table, io);
                }
                self.automatic_runs.set(self.automatic_runs.get() + 1);
                let hook = format!("run of state '{state}'");
                let invoked = self.invoke(
                    table,
                    Access::Change,
                    Hook::new(hook.clone(), &run),
                    Locals::Frame(id),
                    io,
                    |ctx| run.call::<MultiValue>(ctx.clone()),
                );
                table = invoked.table;
                io = invoked.io;
                if let Err(err) = invoked.result {
                    return (table, io, Err(err));
                }
                if invoked.events.is_empty() && table.result.is_none() {
                    let message = format!(
                        "module '{}', {hook}: an automatic state must move the flow (ctx:call, ctx:replace or ctx:pop) or end the game, but it did neither",
                        self.module.id()
                    );
                    return (table, io, Err(RulesError::Script(message)));
                }
                queue.extend(invoked.events);
                continue;
            };
            steps += 1;
            if steps > MAX_FLOW_STEPS {
                return runaway(table, io);
            }
            let Some((state, which, locals, result, f)) = self.event_hook(&table, event) else {
                continue;
            };
            let hook = format!("{which} of state '{state}'");
            let lua = self.vm.lua.clone();
            let invoked = self.invoke(
                table,
                Access::Change,
                Hook::new(hook, &f),
                locals,
                io,
                |ctx| match &result {
                    Some(value) => {
                        f.call::<MultiValue>((ctx.clone(), convert::to_lua(&lua, value)?))
                    }
                    None => f.call::<MultiValue>(ctx.clone()),
                },
            );
            table = invoked.table;
            io = invoked.io;
            if let Err(err) = invoked.result {
                return (table, io, Err(err));
            }
            queue.extend(invoked.events);
        }
        (table, io, Ok(()))
    }

    /// The automatic state on top of the flow, with its frame and its `run`, unless the
    /// game is over or the state on top waits for a decision.
    fn automatic_top(&self, table: &Table) -> Option<(u64, String, Function)> {
        if table.result.is_some() {
            return None;
        }
        let frame = table.top_frame()?;
        if !self.is_automatic(&frame.state) {
            return None;
        }
        let run = self.state_fn(&frame.state, "run")?;
        Some((frame.id, frame.state.clone(), run))
    }

    /// The hook a flow change calls (`on_enter`, `on_exit` or `on_resume` of its state), with
    /// the locals it reads and the result it is handed; none when the frame is gone or its
    /// state has no such hook.
    #[allow(clippy::type_complexity)]
    fn event_hook(
        &self,
        table: &Table,
        event: FlowEvent,
    ) -> Option<(String, &'static str, Locals, Option<Value>, Function)> {
        let frame = |id: u64| table.flow.iter().find(|f| f.id == id);
        let (state, which, locals, result) = match event {
            FlowEvent::Enter(id) => (
                frame(id)?.state.clone(),
                "on_enter",
                Locals::Frame(id),
                None,
            ),
            FlowEvent::Exit(frame) => (frame.state, "on_exit", Locals::Given(frame.locals), None),
            FlowEvent::Resume(id, result) => (
                frame(id)?.state.clone(),
                "on_resume",
                Locals::Frame(id),
                Some(result),
            ),
        };
        let f = self.state_fn(&state, which)?;
        Some((state, which, locals, result, f))
    }

    /// A script error as the one-line message designers read: module, hook, Lua position,
    /// then the module's frames of the traceback (a frame repeated, as in a runaway
    /// recursion, is shown once with its count). A message that names no position (Lua
    /// raised it without one) is given the innermost frame's.
    pub fn error(&self, hook: &str, err: &mlua::Error) -> RulesError {
        let (message, traceback) = describe(err);
        let ours = |l: &str| is_script_line(&self.module, l);
        let frames = our_frames(traceback.as_deref(), ours);
        let message = with_position(&message, &frames).unwrap_or(message);
        let mut text = format!(
            "module '{}', {hook}: {}",
            self.module.id(),
            self.fix_paths(&message)
        );
        let mut shown = 0;
        let mut i = 0;
        while i < frames.len() && shown < MAX_FRAMES {
            let same = frames[i..].iter().take_while(|f| **f == frames[i]).count();
            text.push_str(&format!("\n  at {}", self.fix_paths(frames[i])));
            if same > 1 {
                text.push_str(&format!(" ({same} times)"));
            }
            shown += 1;
            i += same;
        }
        if i < frames.len() {
            text.push_str(&format!("\n  … and {} frames more", frames.len() - i));
        }
        RulesError::Script(text)
    }

    /// An error about what the hook `entry` did as a whole (what it returned or stored, or
    /// the memory it took), placed at the function's definition.
    pub fn error_at(&self, hook: &str, entry: &Function, message: String) -> RulesError {
        let at = diag::at_function(&self.module, &entry.info(), "function", String::new());
        RulesError::Script(format!(
            "module '{}', {hook}: {}:{}:{}: {message}",
            self.module.id(),
            at.path.display(),
            at.line,
            at.col
        ))
    }

    /// Rewrites chunk names (`rules/main.lua:3:`) to the module's file paths.
    pub fn fix_paths(&self, text: &str) -> String {
        diag::fix_paths(&self.module, text)
    }
}

/// An error while the module's scripts load, at its position: Lua's, or where Lua gives
/// none, the innermost frame of the traceback, or the start of the main script.
/// Runs the module's main script and checks the rules table it returns.
fn run_main(vm: &Vm, module: &Module) -> Result<(LuaTable, Declared), Diagnostics> {
    let hooks = run_scripts(vm, module)?;
    let declared = check_hooks(module, &hooks)?;
    Ok((hooks, declared))
}

/// Runs the module's main script (and the scripts it includes); its rules table.
fn run_scripts(vm: &Vm, module: &Module) -> Result<LuaTable, Diagnostics> {
    let main = module.manifest.main.clone();
    let include: Function = vm
        .extra("include")
        .map_err(|e| Diagnostics(vec![Diagnostic::error(&module.dir, 0, 0, describe(&e).0)]))?;
    let hooks = match vm.call(|| include.call::<LuaValue>(main.as_str())) {
        Ok(LuaValue::Table(t)) => t,
        Ok(other) => {
            let message = format!(
                "{main} must return the rules table (setup, states, …), but it returned a {}",
                other.type_name()
            );
            return Err(Diagnostics(vec![diag::at_end(module, &main, message)]));
        }
        Err(err) => return Err(Diagnostics(vec![load_error(module, &main, &err)])),
    };
    // From here on the scripts' globals are read-only: what a game changes lives in the
    // table, never in a script, so a VM can play game after game.
    vm.freeze_envs()
        .map_err(|e| Diagnostics(vec![Diagnostic::error(&module.dir, 0, 0, describe(&e).0)]))?;
    Ok(hooks)
}

fn load_error(module: &Module, main: &str, err: &mlua::Error) -> Diagnostic {
    let (message, traceback) = describe(err);
    let ours = |l: &str| is_script_line(module, l);
    let frames = our_frames(traceback.as_deref(), ours);
    if !is_memory_error(err)
        && let Some(message) = with_position(&message, &frames)
    {
        return diag::from_lua_error(module, &message);
    }
    match module.scripts.iter().find(|s| s.rel == main) {
        Some(script) => Diagnostic::error(
            &script.path,
            1,
            1,
            format!("{message} (while this script and the scripts it includes loaded)"),
        ),
        None => diag::from_lua_error(module, &message),
    }
}

/// Whether `line` (a message or a traceback frame) starts at a line of one of `module`'s
/// scripts (`rules/main.lua:12:`).
fn is_script_line(module: &Module, line: &str) -> bool {
    module.scripts.iter().any(|s| {
        line.strip_prefix(s.rel.as_str())
            .is_some_and(|rest| rest.starts_with(':'))
    })
}

/// The most traceback frames an error shows.
const MAX_FRAMES: usize = 12;

/// A hook to call: its name in messages ("state 'lab', action 'spin'") and its function.
pub struct Hook<'a> {
    /// The name in messages.
    pub name: String,
    /// The function called.
    pub entry: &'a Function,
}

impl<'a> Hook<'a> {
    /// The hook `name`, the function `entry`.
    pub fn new(name: String, entry: &'a Function) -> Self {
        Hook { name, entry }
    }
}

/// The Lua tables a hook call read, to store back into the table after it.
struct WrittenBack {
    vars: Option<Lazy>,
    locals: Option<Lazy>,
    frame_id: Option<u64>,
    /// The locals given to the call (of a frame already gone).
    given: Option<Value>,
    private: std::collections::BTreeMap<SeatId, LuaTable>,
}

impl WrittenBack {
    /// Whether ctx's tables are still partly filled.
    fn is_partial(&self) -> bool {
        self.vars.as_ref().is_some_and(Lazy::is_partial)
            || self.locals.as_ref().is_some_and(Lazy::is_partial)
    }

    /// Fills ctx's tables whole from `table`, the values they stood for.
    fn fill(&mut self, lua: &Lua, table: &Table) -> mlua::Result<()> {
        let given = self.given.as_ref();
        lazy::fill_all(
            lua,
            table,
            self.vars.as_mut(),
            self.locals.as_mut(),
            self.frame_id,
            given,
        )
    }
}

/// Stores `ctx.vars`, `ctx.locals` and `ctx.private` back into the table after a call; a
/// read-only hook that changed them is an error. A table the hook left as it got it is not
/// read back (most hooks change little, and prompts and bots nothing). What cannot be read
/// as plain data while ctx's tables are partly filled is read again with them filled (it
/// may hold one of them; see `lazy.rs`).
fn write_back(
    lua: &Lua,
    table: &mut Table,
    writable: bool,
    written: &mut WrittenBack,
) -> Result<(), String> {
    let changes = match changes_of(table, written) {
        Err(_) if written.is_partial() => {
            written
                .fill(lua, table)
                .map_err(|e| format!("ctx.vars or ctx.locals: {e}"))?;
            changes_of(table, written)?
        }
        other => other?,
    };
    store(table, writable, written.frame_id, changes)
}

/// What a call changed in ctx's tables, read before anything is stored.
struct Changes {
    vars: lazy::Changes,
    locals: lazy::Changes,
    /// Each private state changed: its new value.
    private: Vec<(SeatId, Value)>,
}

fn changes_of(table: &Table, written: &WrittenBack) -> Result<Changes, String> {
    let vars = match &written.vars {
        Some(vars) => lazy::read_back(vars, Some(&table.vars), Which::Vars)?,
        None => lazy::Changes::None,
    };
    let locals = match &written.locals {
        Some(locals) => {
            let source = lazy::locals_in(table, written.frame_id, written.given.as_ref());
            let changes = lazy::read_back(locals, source, Which::Locals)?;
            // Locals of a frame already gone (on_exit) are only read, to check they are
            // plain data.
            let live = written.frame_id.is_some() && source.is_some();
            if live { changes } else { lazy::Changes::None }
        }
        None => lazy::Changes::None,
    };
    let none = Value::map();
    let mut private = Vec::new();
    for (seat, t) in &written.private {
        let before = table.private.get(seat).unwrap_or(&none);
        if !convert::same(&LuaValue::Table(t.clone()), before, true) {
            private.push((
                seat.clone(),
                convert::plain(t.clone(), &format!("ctx.private.{seat}"))?,
            ));
        }
    }
    Ok(Changes {
        vars,
        locals,
        private,
    })
}

fn store(
    table: &mut Table,
    writable: bool,
    frame_id: Option<u64>,
    changes: Changes,
) -> Result<(), String> {
    if !changes.vars.store(&mut table.vars, writable) {
        return Err("changed ctx.vars, but it may only read them".to_owned());
    }
    if let Some(frame) = frame_id.and_then(|id| table.flow.iter_mut().find(|f| f.id == id))
        && !changes.locals.store(&mut frame.locals, writable)
    {
        return Err("changed ctx.locals, but it may only read them".to_owned());
    }
    let none = Value::map();
    for (seat, value) in changes.private {
        if !writable {
            if value != *table.private.get(&seat).unwrap_or(&none) {
                return Err(format!(
                    "changed ctx.private.{seat}, but it may only read it"
                ));
            }
            continue;
        }
        if is_empty(&value) {
            table.private.remove(&seat);
        } else {
            table.private.insert(seat, value);
        }
    }
    Ok(())
}

/// An empty map: a private state that holds nothing.
fn is_empty(value: &Value) -> bool {
    matches!(value, Value::Map(m) if m.is_empty())
}

/// What the rules table declares, found by [`check_hooks`].
struct Declared {
    /// The state names, sorted.
    states: Vec<String>,
    /// How each state is decided, and whether it is automatic.
    kinds: std::collections::BTreeMap<String, (Decision, bool)>,
    /// The ids that have effects, with their hook names.
    effects: std::collections::BTreeMap<String, Vec<String>>,
}

/// Checks the rules table's shape: its hooks, states, bots and effects.
fn check_hooks(module: &Module, hooks: &LuaTable) -> Result<Declared, Diagnostics> {
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
    let mut kinds = std::collections::BTreeMap::new();
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
                kinds.insert(name.clone(), check_state(&name, &state, &mut err));
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
    let effects = check_effects(module, hooks, &mut diags);
    if diags.has_errors() {
        Err(diags)
    } else {
        Ok(Declared {
            states: names,
            kinds,
            effects,
        })
    }
}

/// Checks one state's table: functions only, a prompt (a decision) or a run (automatic) but
/// not both, reveal or all_passed only with a prompt. Returns how it is decided, and
/// whether it is automatic.
fn check_state(
    name: &str,
    state: &LuaTable,
    err: &mut impl FnMut(&str, String),
) -> (Decision, bool) {
    for (key, v) in state.pairs::<String, LuaValue>().filter_map(Result::ok) {
        if !matches!(v, LuaValue::Function(_)) {
            err(&key, format!("state '{name}': '{key}' must be a function"));
        }
    }
    let has = |hook: &str| matches!(state.get::<LuaValue>(hook), Ok(LuaValue::Function(_)));
    match (has("prompt"), has("run")) {
        (false, false) => err(
            name,
            format!(
                "state '{name}' needs a function prompt(ctx) (a decision) or run(ctx) (an automatic state)"
            ),
        ),
        (true, true) => err(
            name,
            format!(
                "state '{name}' has both prompt and run: a state either waits for a decision (prompt) or moves on by itself (run)"
            ),
        ),
        (false, true) if has("reveal") || has("all_passed") => err(
            name,
            format!(
                "state '{name}' runs by itself (run), so nobody answers it: reveal and all_passed belong to states with a prompt"
            ),
        ),
        _ => {}
    }
    let decision = if has("reveal") {
        Decision::Simultaneous
    } else if has("all_passed") {
        Decision::Window
    } else {
        Decision::One
    };
    if has("reveal") && has("all_passed") {
        err(
            name,
            format!(
                "state '{name}' has both reveal (a simultaneous choice) and all_passed (a reaction window): it can be only one"
            ),
        );
    }
    (decision, has("run"))
}

/// Checks `effects`: a table keyed by ids of the module's data, each a table of hook
/// functions. An id that names nothing is an error at the line of its first function.
fn check_effects(
    module: &Module,
    hooks: &LuaTable,
    diags: &mut Diagnostics,
) -> std::collections::BTreeMap<String, Vec<String>> {
    let main = &module.manifest.main;
    let mut found = std::collections::BTreeMap::new();
    let effects = match hooks.get::<LuaValue>("effects") {
        Ok(LuaValue::Nil) => return found,
        Ok(LuaValue::Table(t)) => t,
        _ => {
            diags.push(diag::at_key(
                module,
                main,
                "effects",
                "'effects' must be a table keyed by ids of the module's data (effects.<id>.<hook> = function(ctx, …))".to_owned(),
            ));
            return found;
        }
    };
    // Every game loads the rules again (`Host::reset`): the ids are gathered once a load,
    // not once an effect.
    let ids = module.data_ids();
    for (id, value) in effects.pairs::<LuaValue, LuaValue>().filter_map(Result::ok) {
        let LuaValue::String(id) = id else {
            diags.push(diag::at_key(
                module,
                main,
                "effects",
                format!(
                    "effects: a key must be an id (a string), not a {}",
                    id.type_name()
                ),
            ));
            continue;
        };
        let id = id.to_string_lossy();
        let LuaValue::Table(hooks) = value else {
            diags.push(diag::at_key(
                module,
                main,
                &id,
                format!("effects.{id} must be a table of functions (effects.{id}.<hook> = function(ctx, …))"),
            ));
            continue;
        };
        let mut names = Vec::new();
        let mut first: Option<Function> = None;
        for (hook, f) in hooks.pairs::<LuaValue, LuaValue>().filter_map(Result::ok) {
            let hook = match hook {
                LuaValue::String(h) => h.to_string_lossy(),
                other => format!("{other:?}"),
            };
            match f {
                LuaValue::Function(f) => {
                    first.get_or_insert(f);
                    names.push(hook);
                }
                other => diags.push(diag::at_key(
                    module,
                    main,
                    &id,
                    format!(
                        "effects.{id}.{hook} must be a function, not a {}",
                        other.type_name()
                    ),
                )),
            }
        }
        names.sort();
        if !ids.contains(id.as_str()) {
            let message = format!(
                "effect for '{id}', but no card, card group, piece, zone, place, box, counter, seat, unit kind, table or scenario has that id{}",
                module
                    .closest_id(&id)
                    .map(|c| format!(" (did you mean '{c}'?)"))
                    .unwrap_or_default()
            );
            diags.push(match first.map(|f| f.info()) {
                Some(info) => diag::at_function(module, &info, &id, message),
                None => diag::at_key(module, main, &id, message),
            });
            continue;
        }
        found.insert(id, names);
    }
    found
}

/// Builds the metatable of ctx tables, whose `__index` is the prototype holding the API
/// functions and `data`; and what its `space_of` and `known` remember.
fn build_ctx(
    vm: &Vm,
    module: &Module,
    calls: &Rc<RefCell<Vec<u64>>>,
) -> mlua::Result<(LuaTable, Remembered)> {
    let lua = &vm.lua;
    let proto = lua.create_table()?;
    api::register(lua, &proto, calls)?;
    // The two lookups rules and bots make most, a few dozen a decision, answered in the VM
    // once asked (see the prelude).
    let (space_of, places, spaces): (Function, LuaTable, LuaTable) = vm
        .remember_places
        .call(proto.raw_get::<Function>("space_of")?)?;
    proto.raw_set("space_of", space_of)?;
    let (known, entered): (Function, LuaTable) = vm
        .remember_known
        .call(proto.raw_get::<Function>("known")?)?;
    proto.raw_set("known", known)?;
    proto.raw_set("data", data::build(vm, module)?)?;
    lazy::install(lua, vm.partial.clone(), lua.globals().get("next")?)?;
    let lazy = lua.create_table()?;
    lazy.raw_set(
        "__index",
        lua.create_function(|lua, args: CallArgs| {
            // `ctx.vars`, `ctx.locals`…: read off the stack, as a ctx function's arguments.
            match args.values.first() {
                Some(Arg::Str(key)) => lazy_field(lua, &String::from_utf8_lossy(key.bytes())),
                Some(Arg::Int(n)) => lazy_field(lua, &n.to_string()),
                other => Err(script_error(
                    lua,
                    format!(
                        "ctx has no field for a key that is {}",
                        other.map_or("nil", Arg::type_name)
                    ),
                )),
            }
        })?,
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
    lua.set_named_registry_value(PRIVATE_META, private_meta(lua)?)?;
    Ok((meta, Remembered::new(places, spaces, entered)))
}

/// The registry key of the metatable of `ctx.private`.
const PRIVATE_META: &str = "chancery.private";

/// The metatable of `ctx.private`: indexing it by a seat gives that seat's private state
/// (made on first use in a call), refused when the call reads as another seat.
fn private_meta(lua: &Lua) -> mlua::Result<LuaTable> {
    let meta = lua.create_table()?;
    meta.raw_set(
        "__index",
        lua.create_function(|lua, (_, seat): (LuaValue, LuaValue)| private_state(lua, &seat))?,
    )?;
    meta.raw_set(
        "__newindex",
        lua.create_function(
            |lua, (_, seat, value): (LuaValue, LuaValue, LuaValue)| -> mlua::Result<()> {
                let seat = private_seat(lua, &seat)?;
                let table = match value {
                    LuaValue::Table(t) => t,
                    LuaValue::Nil => lua.create_table()?,
                    other => {
                        return Err(script_error(
                            lua,
                            format!(
                                "ctx.private.{seat} must be a table of plain data, not a {}",
                                other.type_name()
                            ),
                        ));
                    }
                };
                let Some(mut state) = lua.app_data_mut::<CallState>() else {
                    return Err(mlua::Error::runtime("ctx was used outside a hook call"));
                };
                if !state.writable {
                    let hook = state.hook.clone();
                    drop(state);
                    return Err(script_error(
                        lua,
                        format!("the {hook} may not set ctx.private.{seat} (it only reads)"),
                    ));
                }
                state.private_tables.insert(seat, table);
                Ok(())
            },
        )?,
    )?;
    meta.raw_set("__metatable", false)?;
    Ok(meta)
}

/// The seat a script indexes `ctx.private` with, checked: it plays this game, and a call
/// that reads as a seat may read only that seat's private state.
fn private_seat(lua: &Lua, seat: &LuaValue) -> mlua::Result<SeatId> {
    let LuaValue::String(name) = seat else {
        return Err(script_error(
            lua,
            format!(
                "ctx.private is indexed by a seat id, not a {}",
                seat.type_name()
            ),
        ));
    };
    let seat = SeatId::from(name.to_string_lossy());
    let refused = {
        let Some(state) = lua.app_data_ref::<CallState>() else {
            return Err(mlua::Error::runtime("ctx was used outside a hook call"));
        };
        if !state.table.seats.contains_key(&seat) {
            Some(format!("ctx.private: '{seat}' is not a seat of this game"))
        } else {
            match &state.viewer {
                Some(viewer) if viewer.is_spectator() => Some(format!(
                    "ctx.private.{seat}: the {} reads as a spectator, who may not see seat {seat}'s private state",
                    state.hook
                )),
                Some(viewer) if *viewer != seat => Some(format!(
                    "ctx.private.{seat}: the {} reads as seat {viewer}, which may not see seat {seat}'s private state",
                    state.hook
                )),
                _ => None,
            }
        }
    };
    match refused {
        Some(message) => Err(script_error(lua, message)),
        None => Ok(seat),
    }
}

/// `ctx.private[seat]`, made on first use in a call.
fn private_state(lua: &Lua, seat: &LuaValue) -> mlua::Result<LuaValue> {
    let seat = private_seat(lua, seat)?;
    let value = {
        let Some(state) = lua.app_data_ref::<CallState>() else {
            return Err(mlua::Error::runtime("ctx was used outside a hook call"));
        };
        if let Some(t) = state.private_tables.get(&seat) {
            return Ok(LuaValue::Table(t.clone()));
        }
        match state.table.private.get(&seat) {
            Some(value) => to_lua(lua, value)?,
            None => to_lua(lua, &Value::map())?,
        }
    };
    let LuaValue::Table(t) = value else {
        return Err(script_error(
            lua,
            format!("ctx.private.{seat} is not a table"),
        ));
    };
    if let Some(mut state) = lua.app_data_mut::<CallState>() {
        state.private_tables.insert(seat, t.clone());
    }
    Ok(LuaValue::Table(t))
}

/// `ctx.vars`, `ctx.locals`, `ctx.private`, `ctx.scenario` and `ctx.watched`, made on first
/// use in a call.
fn lazy_field(lua: &Lua, key: &str) -> mlua::Result<LuaValue> {
    let value = make_field(lua, key)?;
    // Read a second time, the field is kept in ctx's table of functions until the call
    // ends, and read there from then on, as the functions are, without coming back here:
    // the same value for the rest of the call. (Not in the call's own ctx, whose every key
    // stays empty, so that setting one still meets `__newindex`'s refusal. A field read
    // once costs nothing more.)
    if let Some(name) = KEPT_FIELDS.iter().find(|name| **name == key)
        && let Some(mut state) = lua.app_data_mut::<CallState>()
    {
        if state.read_once.contains(name) {
            let proto = state.ctx_proto.clone();
            super::stack::raw_store(lua, &proto, *name, value.clone())?;
            state.kept.push(name);
        } else {
            state.read_once.push(name);
        }
    }
    Ok(value)
}

/// The fields of `ctx` made for a call, which it keeps until it ends.
const KEPT_FIELDS: [&str; 5] = ["vars", "locals", "scenario", "watched", "private"];

/// The value of `ctx.<key>` in this call (`vars`, `locals`, `private`…), made now.
fn make_field(lua: &Lua, key: &str) -> mlua::Result<LuaValue> {
    let unknown = || script_error(lua, format!("ctx has no field or function '{key}'"));
    let which = {
        let Some(state) = lua.app_data_ref::<CallState>() else {
            return Err(mlua::Error::runtime("ctx was used outside a hook call"));
        };
        match key {
            "vars" => match &state.vars_table {
                Some(t) => return Ok(LuaValue::Table(t.table.clone())),
                None => Which::Vars,
            },
            "locals" => match &state.locals_table {
                Some(t) => return Ok(LuaValue::Table(t.table.clone())),
                None => Which::Locals,
            },
            "scenario" => return to_lua(lua, &Value::Str(state.table.scenario.to_string())),
            "watched" => return Ok(LuaValue::Boolean(state.watched)),
            "private" => {
                drop(state);
                let proxy = lua.create_table()?;
                let meta: LuaTable = lua.named_registry_value(PRIVATE_META)?;
                proxy.set_metatable(Some(meta))?;
                return Ok(LuaValue::Table(proxy));
            }
            _ => return Err(unknown()),
        }
    };
    let made = lazy::new(lua, which)?;
    let table = made.table.clone();
    if let Some(mut state) = lua.app_data_mut::<CallState>() {
        match which {
            Which::Vars => state.vars_table = Some(made),
            Which::Locals => state.locals_table = Some(made),
        }
    }
    Ok(LuaValue::Table(table))
}
