//! The Lua host: a sandboxed VM per module, the `ctx` API, and [`LuaRules`], the module's
//! rules as the session sees them. This is the only part of `chancery-core` that knows Lua.

pub(crate) mod api;
mod budget;
mod call;
pub(crate) mod convert;
pub(crate) mod data;
mod diag;
mod host;
mod interned;
mod lazy;
mod outline;
mod pattern;
pub mod profile;
pub(crate) mod prompt;
pub(crate) mod sandbox;
mod stack;
mod strlib;
pub(crate) mod util;

use std::path::Path;
use std::sync::Arc;

use mlua::{MultiValue, Value as LuaValue};

pub use budget::Limits;
pub use host::MAX_FLOW_STEPS;
use host::{Access, Hook, Host, Locals};

use crate::ids::{ScenarioId, SeatId};
use crate::module::{Depth, Diagnostics, LoadOptions, Module, RulesInfo};
use crate::rules::{
    Action, BotPick, Choice, Decision, LogLine, PASS, Prompt, Rules, RulesError, StepIo,
};
use crate::table::Table;
use crate::value::Value;

/// Loads `module`'s scripts in a scratch VM and reports what the rules declare, or every
/// problem with file and line.
pub fn inspect(module: &Module, depth: Depth) -> Result<RulesInfo, Diagnostics> {
    match depth {
        Depth::Full => Host::new(Arc::new(module.clone()), Limits::default())?.info_with_outline(),
        Depth::Syntax => {
            let lua = mlua::Lua::new_with(mlua::StdLib::NONE, mlua::LuaOptions::default())
                .map_err(|e| {
                    Diagnostics(vec![crate::module::Diagnostic::error(
                        &module.dir,
                        0,
                        0,
                        e.to_string(),
                    )])
                })?;
            let mut found = Diagnostics::default();
            for script in &module.scripts {
                let compiled = lua
                    .load(script.text.as_str())
                    .set_name(format!("@{}", script.rel))
                    .set_mode(mlua::chunk::ChunkMode::Text)
                    .into_function();
                if let Err(err) = compiled {
                    found.push(diag::from_lua_error(module, &util::describe(&err).0));
                }
            }
            if found.has_errors() {
                Err(found)
            } else {
                Ok(RulesInfo::default())
            }
        }
    }
}

/// Loads and validates the module in folder `dir`, its Lua rules included: every problem
/// of its data and scripts is a diagnostic with file and line.
pub fn load_module(dir: impl AsRef<Path>, options: &LoadOptions) -> Result<Module, Diagnostics> {
    Module::load_with(dir, options, &inspect)
}

/// A module's rules, run by sandboxed Lua VMs: one for the rules, which see everything,
/// and one for each seat whose bot or view has run, so that a module table a hook fills is
/// read only by hooks of the same eyes (a bot never reads what an all-seeing rule, or
/// another seat's bot, kept there).
pub struct LuaRules {
    host: Host,
    /// The VMs of the seats' bots and views (a spectator's among them), made when first
    /// needed.
    seat_hosts: std::collections::BTreeMap<SeatId, Host>,
    limits: Limits,
}

/// The memory all the VMs of one game (the rules' and every seat's) may hold together:
/// twice what one VM may.
pub fn game_memory_bytes(limits: &Limits) -> usize {
    limits.memory_bytes.saturating_mul(2)
}

/// Swaps the table out for the length of `f` (no copy), then puts what `f` returns back.
fn lend<R>(table: &mut Table, f: impl FnOnce(Table) -> (Table, R)) -> R {
    let owned = std::mem::replace(table, Table::new("", ScenarioId::default(), 0));
    let (back, result) = f(owned);
    *table = back;
    result
}

impl LuaRules {
    /// Loads `module`'s rules into a fresh VM with these limits.
    pub fn new(module: Arc<Module>, limits: Limits) -> Result<LuaRules, Diagnostics> {
        Ok(LuaRules {
            host: Host::new(module, limits)?,
            seat_hosts: std::collections::BTreeMap::new(),
            limits,
        })
    }

    /// `module`'s rules with the default limits, ready to hand to a session.
    pub fn boxed(module: &Arc<Module>) -> Result<Box<dyn Rules>, RulesError> {
        LuaRules::boxed_with(module.clone(), Limits::default())
    }

    /// `module`'s rules with these limits, ready to hand to a session; a module whose
    /// scripts do not load is a script error with its diagnostics.
    fn boxed_with(module: Arc<Module>, limits: Limits) -> Result<Box<dyn Rules>, RulesError> {
        LuaRules::new(module, limits)
            .map(|rules| Box::new(rules) as Box<dyn Rules>)
            .map_err(|d| RulesError::Script(d.to_string()))
    }

    /// The VM that runs `seat`'s bot and view, loaded when first needed, its memory cap
    /// fitted to what the game's other VMs hold (see [`LuaRules::fit_memory`]).
    fn seat_host(&mut self, seat: &SeatId) -> Result<&Host, RulesError> {
        if !self.seat_hosts.contains_key(seat) {
            let mut host = Host::new(self.host.module.clone(), self.limits)
                .map_err(|d| RulesError::Script(d.to_string()))?;
            // Told as the rules' own VM was (`set_watched`).
            host.watched = self.host.watched;
            self.seat_hosts.insert(seat.clone(), host);
        }
        self.fit_memory(Some(seat));
        self.seat_hosts
            .get(seat)
            .ok_or_else(|| RulesError::Script(format!("no VM for seat '{seat}'")))
    }

    /// Before a call into the VM of `seat` (`None`: the rules' own), sets its memory cap to
    /// what the game's VMs may hold together ([`game_memory_bytes`]) less what the others
    /// hold now, and never above a VM's own cap: however many seats a module has, one game's
    /// Lua holds at most that much, and a module that wants more meets a Lua memory error at
    /// its line, never the process running out. Calls are made one at a time, so the others
    /// do not grow meanwhile.
    fn fit_memory(&self, seat: Option<&SeatId>) {
        if self.seat_hosts.is_empty() {
            return;
        }
        let vm_of = |s: Option<&SeatId>| match s {
            Some(s) => self.seat_hosts.get(s),
            None => Some(&self.host),
        };
        let Some(this) = vm_of(seat) else { return };
        let others: usize = std::iter::once(&self.host)
            .chain(self.seat_hosts.values())
            .filter(|h| !std::ptr::eq(*h, this))
            .map(|h| h.vm.lua.used_memory())
            .sum();
        let room = game_memory_bytes(&self.limits)
            .saturating_sub(others)
            .min(self.limits.memory_bytes);
        // Lua takes 0 as "no limit": a VM left no room keeps a byte, and fails its next
        // allocation.
        let _ = this.vm.lua.set_memory_limit(room.max(1));
    }

    fn script_error(&self, hook: &str, message: impl std::fmt::Display) -> RulesError {
        RulesError::Script(format!(
            "module '{}', {hook}: {message}",
            self.host.module.id()
        ))
    }

    /// Runs a changing hook on the table, then its flow events. On an error the table may
    /// be partly changed: the caller works on a copy it drops then (see [`Rules::act`]).
    fn change(
        &self,
        table: &mut Table,
        io: &mut StepIo,
        hook: String,
        entry: &mlua::Function,
        locals: Locals,
        call: impl FnOnce(&mlua::Table) -> mlua::Result<MultiValue>,
    ) -> Result<(), RulesError> {
        self.fit_memory(None);
        lend(table, |owned| {
            let invoked = self.host.invoke(
                owned,
                Access::Change,
                Hook::new(hook.clone(), entry),
                locals,
                std::mem::take(io),
                call,
            );
            *io = invoked.io;
            if let Err(err) = invoked.result {
                return (invoked.table, Err(err));
            }
            let (work, step_io, flow) =
                self.host
                    .settle(invoked.table, std::mem::take(io), invoked.events);
            *io = step_io;
            if let Err(err) = flow {
                return (work, Err(err));
            }
            if work.flow.is_empty() && work.result.is_none() {
                return (work, Err(self.script_error(
                    &hook,
                    "the flow is empty but the game is not over: enter a state with ctx:push or ctx:replace, or end the game with ctx:game_over",
                )));
            }
            (work, Ok(()))
        })
    }
}

impl LuaRules {
    /// The current decision as the rules list it, with the seats that have answered a
    /// shared decision left out (so it may have no ask left); `None` when the game is over.
    fn read_prompt(&mut self, table: &mut Table) -> Result<Option<Prompt>, RulesError> {
        if table.result.is_some() {
            return Ok(None);
        }
        let Some(frame) = table.top_frame().cloned() else {
            return Err(self.script_error("prompt", "there is no current state"));
        };
        let Some(prompt) = self.host.state_fn(&frame.state, "prompt") else {
            let why = if self.host.state_fn(&frame.state, "run").is_some() {
                format!(
                    "state '{}' is automatic (it has run, not prompt) but waits on top of the flow",
                    frame.state
                )
            } else {
                format!("state '{}' has no prompt", frame.state)
            };
            return Err(self.script_error("prompt", why));
        };
        let decision = self.host.decision(&frame.state);
        let hook = format!("prompt of state '{}'", frame.state);
        self.fit_memory(None);
        lend(table, |owned| {
            let invoked = self.host.invoke(
                owned,
                Access::Read,
                Hook::new(hook.clone(), &prompt),
                Locals::Frame(frame.id),
                StepIo::default(),
                |ctx| prompt.call::<MultiValue>(ctx.clone()),
            );
            let result = invoked.result.and_then(|values| {
                let value = values.into_iter().next().unwrap_or(LuaValue::Nil);
                let reading = prompt::Reading {
                    lua: &self.host.vm.lua,
                    module: &self.host.module,
                    table: &invoked.table,
                    state: &frame.state,
                };
                lazy::read_returned(&self.host.vm.lua, &invoked.table, || {
                    prompt::parse_prompt(
                        &reading,
                        &value,
                        // Secret choices are kept by the engine and handed to `reveal`:
                        // their actions need no handler of their own.
                        |name| {
                            decision == Decision::Simultaneous
                                || self.host.state_fn(&frame.state, name).is_some()
                        },
                        decision,
                        &frame.answers,
                    )
                })
                .map(Some)
                .map_err(|e| {
                    self.host
                        .error_at(&hook, &prompt, format!("the prompt it returned: {e}"))
                })
            });
            (invoked.table, result)
        })
    }

    /// Records a seat's answer to a shared decision: a secret choice, or a pass in a
    /// reaction window. When the last seat has answered, the rules get them all: `reveal`
    /// with every choice, or `all_passed`.
    fn answer(
        &mut self,
        table: &mut Table,
        seat: &SeatId,
        choice: &Choice,
        io: &mut StepIo,
        decision: Decision,
    ) -> Result<(), RulesError> {
        let work = table;
        let Some(frame) = work.flow.last_mut() else {
            return Err(self.script_error("act", "there is no current state"));
        };
        frame.answers.insert(seat.clone(), choice.clone());
        let (id, state) = (frame.id, frame.state.clone());
        let name = self.host.module.seat_name(seat);
        io.log
            .push(LogLine::public(if decision == Decision::Simultaneous {
                format!("{name} has chosen, in secret.")
            } else {
                format!("{name} passes.")
            }));
        if let Some(prompt) = self.read_prompt(work)?.filter(|p| !p.asks.is_empty()) {
            // Still open: this is the decision on the table the step leaves.
            io.prompt_after = Some(prompt);
            return Ok(());
        }
        let answers = work
            .flow
            .last_mut()
            .map(|f| std::mem::take(&mut f.answers))
            .unwrap_or_default();
        let (which, hook) = if decision == Decision::Simultaneous {
            ("reveal", format!("reveal of state '{state}'"))
        } else {
            ("all_passed", format!("all_passed of state '{state}'"))
        };
        let Some(f) = self.host.state_fn(&state, which) else {
            return Err(self.script_error(&hook, format!("state '{state}' has no {which}")));
        };
        let choices = Value::Map(
            answers
                .into_iter()
                .map(|(seat, c)| {
                    let mut m = std::collections::BTreeMap::new();
                    m.insert("name".to_owned(), Value::Str(c.name));
                    m.insert("arg".to_owned(), c.arg);
                    (seat.to_string(), Value::Map(m))
                })
                .collect(),
        );
        let lua = self.host.vm.lua.clone();
        self.change(work, io, hook, &f, Locals::Frame(id), |ctx| {
            if decision == Decision::Simultaneous {
                f.call((ctx.clone(), convert::to_lua(&lua, &choices)?))
            } else {
                f.call(ctx.clone())
            }
        })
    }
}

impl Rules for LuaRules {
    fn setup(
        &mut self,
        table: &mut Table,
        scenario: &ScenarioId,
        options: &Value,
        io: &mut StepIo,
    ) -> Result<(), RulesError> {
        let Some(setup) = self.host.hook_fn("setup") else {
            return Err(self.script_error("setup", "the rules table has no setup function"));
        };
        let lua = self.host.vm.lua.clone();
        let scenario = scenario.to_string();
        let vm = &self.host.vm;
        self.change(table, io, "setup".to_owned(), &setup, Locals::None, |ctx| {
            let data: mlua::Table = ctx.get("data")?;
            let scenarios: mlua::Table = data.get("scenarios")?;
            let scenario_table: LuaValue = scenarios.get(scenario.as_str())?;
            // The options as given (the session has checked them against the module's
            // declarations), read-only.
            let options = match convert::to_lua(&lua, options)? {
                LuaValue::Table(t) => t,
                _ => lua.create_table()?,
            };
            let options = vm.readonly(options, "options")?;
            setup.call((ctx.clone(), scenario_table, options))
        })
    }

    fn prompt(&mut self, table: &mut Table) -> Result<Option<Prompt>, RulesError> {
        let prompt = self.read_prompt(table)?;
        if let Some(p) = &prompt
            && p.asks.is_empty()
        {
            return Err(self.script_error(
                &format!("prompt of state '{}'", p.state),
                "every seat has answered, but the decision is still open (the prompt now asks for fewer seats than it did)",
            ));
        }
        Ok(prompt)
    }

    fn act(
        &mut self,
        table: &mut Table,
        seat: Option<&SeatId>,
        choice: &Choice,
        io: &mut StepIo,
    ) -> Result<(), RulesError> {
        let Some(frame) = table.top_frame().cloned() else {
            return Err(self.script_error("act", "there is no current state"));
        };
        let hook = format!("state '{}', action '{}'", frame.state, choice.name);
        let decision = self.host.decision(&frame.state);
        if decision != Decision::One {
            let Some(seat) = seat else {
                return Err(self.script_error(
                    &hook,
                    format!(
                        "state '{}' is a shared decision: the answer must name its seat",
                        frame.state
                    ),
                ));
            };
            if decision == Decision::Simultaneous || choice.name == PASS {
                return self.answer(table, seat, choice, io, decision);
            }
        }
        let Some(handler) = self.host.state_fn(&frame.state, &choice.name) else {
            return Err(self.script_error(
                &hook,
                format!("state '{}' has no action '{}'", frame.state, choice.name),
            ));
        };
        let lua = self.host.vm.lua.clone();
        let seat = seat.map(|s| s.to_string());
        self.change(table, io, hook, &handler, Locals::Frame(frame.id), |ctx| {
            handler.call((ctx.clone(), convert::to_lua(&lua, &choice.arg)?, seat))
        })
    }

    fn bot(
        &mut self,
        table: &mut Table,
        bot: &str,
        seat: &SeatId,
        actions: &[Action],
    ) -> Result<BotPick, RulesError> {
        let hook = format!("bot '{bot}'");
        if self.host.bot_fn(bot).is_none() {
            let known = self.host.info().bots.join(", ");
            return Err(
                self.script_error(&hook, format!("there is no bot '{bot}' (bots: {known})"))
            );
        }
        let frame = table.top_frame().map(|f| f.id);
        // The bot runs in its seat's VM, with the same scripts loaded.
        let host = self.seat_host(seat)?;
        let Some(function) = host.bot_fn(bot) else {
            return Err(RulesError::Script(format!("bot '{bot}' is missing")));
        };
        let lua = host.vm.lua.clone();
        lend(table, |owned| {
            let locals = frame.map_or(Locals::None, Locals::Frame);
            let invoked = host.invoke(
                owned,
                Access::Bot(seat.clone()),
                Hook::new(hook.clone(), &function),
                locals,
                StepIo::default(),
                |ctx| {
                    let actions = prompt::actions_to_lua(&lua, actions)?;
                    function.call::<MultiValue>((ctx.clone(), seat.as_str(), actions))
                },
            );
            let draws = invoked.bot_draws;
            let result = invoked.result.and_then(|values| {
                let mut values = values.into_iter();
                let choice = values.next().unwrap_or(LuaValue::Nil);
                let reason = values.next().unwrap_or(LuaValue::Nil);
                lazy::read_returned(&lua, &invoked.table, || {
                    prompt::parse_bot_pick(&lua, &choice, &reason, actions)
                })
                .map(|mut pick| {
                    pick.reason.extend(draws);
                    pick
                })
                .map_err(|e| host.error_at(&hook, &function, e))
            });
            (invoked.table, result)
        })
    }

    fn check(&mut self, table: &mut Table) -> Result<(), RulesError> {
        let Some(check) = self.host.hook_fn("check") else {
            return Ok(());
        };
        lend(table, |owned| {
            let invoked = self.host.invoke(
                owned,
                Access::Read,
                Hook::new("check".to_owned(), &check),
                Locals::None,
                StepIo::default(),
                |ctx| check.call::<MultiValue>(ctx.clone()),
            );
            let result = invoked.result.and_then(|values| {
                let mut values = values.into_iter();
                match values.next() {
                    Some(LuaValue::Boolean(false)) => {
                        let why = match values.next() {
                            Some(LuaValue::String(s)) => s.to_string_lossy(),
                            _ => "an invariant does not hold".to_owned(),
                        };
                        Err(self.script_error("check", why))
                    }
                    _ => Ok(()),
                }
            });
            (invoked.table, result)
        })
    }

    fn view(&mut self, table: &mut Table, seat: Option<&SeatId>) -> Result<Value, RulesError> {
        if self.host.hook_fn("view").is_none() {
            return Ok(Value::Nil);
        }
        let access = seat.map_or(Access::Read, |s| Access::Seat(s.clone()));
        // A seat's view runs in that seat's VM; the omniscient view in the rules'.
        let host = match seat {
            Some(seat) => self.seat_host(seat)?,
            None => &self.host,
        };
        let Some(view) = host.hook_fn("view") else {
            return Ok(Value::Nil);
        };
        // A spectator plays no seat: the hook is told none, and reads as nobody's eyes.
        let seat = seat.filter(|s| !s.is_spectator()).map(|s| s.to_string());
        let module = host.module.id().to_owned();
        lend(table, |owned| {
            let invoked = host.invoke(
                owned,
                access.clone(),
                Hook::new("view".to_owned(), &view),
                Locals::None,
                StepIo::default(),
                |ctx| view.call::<MultiValue>((ctx.clone(), seat.clone())),
            );
            let result = invoked.result.and_then(|values| {
                let value = values.into_iter().next().unwrap_or(LuaValue::Nil);
                lazy::read_returned(&host.vm.lua, &invoked.table, || {
                    convert::from_lua(&value, "view")
                })
                .map_err(|e| RulesError::Script(format!("module '{module}', view: {e}")))
            });
            (invoked.table, result)
        })
    }

    fn reload(&self, module: Arc<Module>) -> Result<Box<dyn Rules>, RulesError> {
        LuaRules::boxed_with(module, self.limits)
    }

    fn reuse(&mut self) -> Result<bool, RulesError> {
        for host in std::iter::once(&mut self.host).chain(self.seat_hosts.values_mut()) {
            host.reuse()
                .map_err(|d| RulesError::Script(d.to_string()))?;
        }
        Ok(true)
    }

    fn set_watched(&mut self, watched: bool) {
        for host in std::iter::once(&mut self.host).chain(self.seat_hosts.values_mut()) {
            host.watched = watched;
        }
    }

    fn take_output(&mut self) -> Vec<String> {
        std::iter::once(&self.host)
            .chain(self.seat_hosts.values())
            .flat_map(|host| std::mem::take(&mut *host.vm.output.borrow_mut()))
            .collect()
    }

    fn automatic_runs(&self) -> u64 {
        std::iter::once(&self.host)
            .chain(self.seat_hosts.values())
            .map(|host| host.automatic_runs.get())
            .sum()
    }

    fn api_calls(&self) -> Vec<(&'static str, u64)> {
        let mut calls = vec![0; api::API.len()];
        for host in std::iter::once(&self.host).chain(self.seat_hosts.values()) {
            for (sum, n) in calls.iter_mut().zip(host.api_calls.borrow().iter()) {
                *sum += n;
            }
        }
        api::API
            .iter()
            .zip(calls)
            .map(|(entry, n)| (entry.name, n))
            .collect()
    }
}
