//! Plain data copied into and read out of Lua on the VM's stack, through Lua's C API.
//!
//! mlua's safe calls cost about ten C calls and a reference slot for each value (a lock,
//! a stack guard, a stack check, a push of the table's reference, then the key and the
//! value); copying `ctx.vars` into Lua and comparing it back after each hook was a fifth
//! of a decision of the largest module's bots. Here each value is one or two C calls.
//!
//! This is the crate's only `unsafe` code. What makes it sound:
//!
//! - Every function runs inside [`Lua::exec_raw`], a protected call: a Lua error raised by
//!   a C call (none is expected, see below) returns to mlua as an error instead of
//!   unwinding through Rust. The Rust frames in between hold only references and integers,
//!   nothing with a destructor.
//! - Nothing here panics (no indexing, no `unwrap`, checked conversions), so no unwinding
//!   crosses the C frames either.
//! - The stack is grown with `lua_checkstack` before each table's pushes (at most three
//!   slots a level, and plain data is at most [`MAX_DEPTH`](super::convert) deep when it is
//!   read; data built from a [`Value`] is checked the same way and refused if the stack
//!   cannot grow).
//! - Reading never allocates in Lua (no `lua_tolstring` on a number key, which would
//!   convert it in place and confuse `lua_next`), so no collector step or memory error can
//!   run in the middle of a read. Building allocates with the memory cap lifted
//!   ([`Unmetered`]), as mlua's own unprotected stores assume; the sandbox refuses `__gc`,
//!   so the collector runs no module code meanwhile.
//! - Values are read only at indices this code pushed or was given, each checked for its
//!   type before it is read; a walk's index is checked to be a table on the stack before
//!   `lua_next` or `lua_rawgeti` use it, and a builder counts the tables it has open.
//! - A `ctx` function's arguments ([`CallArgs`]) are read where mlua's callback leaves
//!   them, the top values of its stack, by type, with no Lua error possible; a string is
//!   kept as a pointer to its bytes, valid until the callback returns (its slot keeps it
//!   alive, and Lua never moves a string's bytes). This implements mlua's hidden
//!   `FromLuaMulti::from_stack_args`, so the workspace pins mlua's exact version.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int};

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table, Value as LuaValue};

use crate::value::Value;

/// Stack slots one level of a table may use: the table, a key and a value.
const SLOTS: c_int = 3;

/// Pushes `value` as a new Lua value; false if the stack could not grow (nothing is then
/// half-built on it: a nil stands in for the value).
///
/// # Safety
/// `state` is a running Lua state inside a protected call, with room for one more value.
unsafe fn push(state: *mut lua_State, value: &Value) -> bool {
    unsafe {
        match value {
            Value::Nil => ffi::lua_pushnil(state),
            Value::Bool(b) => ffi::lua_pushboolean(state, c_int::from(*b)),
            Value::Int(i) => ffi::lua_pushinteger(state, *i),
            Value::Float(f) => ffi::lua_pushnumber(state, *f),
            Value::Str(s) => push_str(state, s),
            Value::List(items) => {
                if ffi::lua_checkstack(state, SLOTS) == 0 {
                    ffi::lua_pushnil(state);
                    return false;
                }
                ffi::lua_createtable(state, capacity(items.len()), 0);
                for (i, item) in (1..).zip(items) {
                    if !push(state, item) {
                        ffi::lua_pop(state, 1);
                        return false;
                    }
                    ffi::lua_rawseti(state, -2, i);
                }
            }
            Value::Map(map) => {
                if ffi::lua_checkstack(state, SLOTS) == 0 {
                    ffi::lua_pushnil(state);
                    return false;
                }
                ffi::lua_createtable(state, 0, capacity(map.len()));
                for (key, item) in map {
                    push_str(state, key);
                    if !push(state, item) {
                        ffi::lua_pop(state, 2);
                        return false;
                    }
                    ffi::lua_rawset(state, -3);
                }
            }
        }
        true
    }
}

/// # Safety
/// As [`push`].
unsafe fn push_str(state: *mut lua_State, s: &str) {
    unsafe {
        ffi::lua_pushlstring(state, s.as_ptr().cast::<c_char>(), s.len());
    }
}

/// A table's size hint for `lua_createtable` (only a hint: a huge one is capped).
fn capacity(len: usize) -> c_int {
    c_int::try_from(len).unwrap_or(c_int::MAX)
}

/// `value` (a list or a map) built as a new Lua table, entries stored in the order of
/// `value` (a map's in key order), as mlua's `raw_set` would store them.
pub(crate) fn build(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    build_with(lua, |b| b.value(value))
}

/// Builds nested tables on the stack for [`build_with`]: each method checks that the
/// stack holds what it needs (a misuse fails the build instead of touching the stack).
pub(crate) struct Builder {
    state: *mut lua_State,
    /// How many tables this builder has pushed and not yet stored.
    open: std::cell::Cell<usize>,
    ok: std::cell::Cell<bool>,
}

impl Builder {
    /// Whether a table this builder pushed is on top and nothing has failed.
    fn ready(&self, tables: usize) -> bool {
        let ready = self.ok.get() && self.open.get() >= tables;
        self.ok.set(ready);
        ready
    }

    /// Pushes a new table with room for `list` items and `fields` fields.
    pub(crate) fn table(&self, list: usize, fields: usize) {
        // SAFETY: see the module's comment; the stack is grown first.
        unsafe {
            if !self.ready(0) || ffi::lua_checkstack(self.state, SLOTS) == 0 {
                self.ok.set(false);
                return;
            }
            ffi::lua_createtable(self.state, capacity(list), capacity(fields));
        }
        self.open.set(self.open.get() + 1);
    }

    /// Pushes `value`, a list or a map, as a new table.
    pub(crate) fn value(&self, value: &Value) {
        if !matches!(value, Value::List(_) | Value::Map(_)) || !self.ready(0) {
            self.ok.set(false);
            return;
        }
        // SAFETY: see the module's comment; `push` is given room for its one value.
        unsafe {
            if ffi::lua_checkstack(self.state, 1) == 0 || !push(self.state, value) {
                self.ok.set(false);
                return;
            }
        }
        self.open.set(self.open.get() + 1);
    }

    /// Sets `key` of the table on top to `value`, as `raw_set` would.
    pub(crate) fn set(&self, key: &str, value: &Value) {
        if !self.ready(1) {
            return;
        }
        // SAFETY: a table this builder pushed is on top (`open` counts them), and its
        // `table` call left room for a key and a value.
        unsafe {
            push_str(self.state, key);
            if !push(self.state, value) {
                ffi::lua_pop(self.state, 2);
                self.ok.set(false);
                return;
            }
            ffi::lua_rawset(self.state, -3);
        }
    }

    /// Sets `key` of the table on top to the text `text`.
    pub(crate) fn set_str(&self, key: &str, text: &str) {
        if !self.ready(1) {
            return;
        }
        // SAFETY: as `set`.
        unsafe {
            push_str(self.state, key);
            push_str(self.state, text);
            ffi::lua_rawset(self.state, -3);
        }
    }

    /// Sets `key` of the table on top to the integer `n`.
    pub(crate) fn set_int(&self, key: &str, n: i64) {
        if !self.ready(1) {
            return;
        }
        // SAFETY: as `set`.
        unsafe {
            push_str(self.state, key);
            ffi::lua_pushinteger(self.state, n);
            ffi::lua_rawset(self.state, -3);
        }
    }

    /// Pops the table on top and stores it as item `i` of the table below it.
    pub(crate) fn store_at(&self, i: i64) {
        if !self.ready(2) {
            return;
        }
        // SAFETY: the two tables on top are this builder's.
        unsafe {
            ffi::lua_rawseti(self.state, -2, i);
        }
        self.open.set(self.open.get() - 1);
    }
}

/// The one table `f` builds with a [`Builder`] (it must leave exactly one table open),
/// made with the VM's memory cap lifted: the engine builds only data of a bounded size
/// (plain data, a prompt's actions, a box's units).
pub(crate) fn build_with(lua: &Lua, f: impl FnOnce(&Builder)) -> mlua::Result<LuaValue> {
    let _unmetered = Unmetered::new(lua);
    let mut built = false;
    // SAFETY: see the module's comment; whatever the builder leaves is cleared unless it
    // is exactly the one table asked for.
    let made = unsafe {
        lua.exec_raw::<LuaValue>((), |state| {
            let builder = Builder {
                state,
                open: std::cell::Cell::new(0),
                ok: std::cell::Cell::new(true),
            };
            f(&builder);
            built = builder.ok.get() && builder.open.get() == 1;
            if !built {
                ffi::lua_settop(state, 0);
            }
        })
    }?;
    if built {
        Ok(made)
    } else {
        Err(mlua::Error::runtime(
            "the table could not be built (nested too deep for Lua's stack)",
        ))
    }
}

/// The VM's memory cap, lifted until this is dropped: with a cap, mlua makes each table
/// and stores each entry through a protected call. What the tables built meanwhile take
/// still counts against the cap for the module's next allocation.
struct Unmetered<'a> {
    lua: &'a Lua,
    cap: Option<usize>,
}

impl<'a> Unmetered<'a> {
    fn new(lua: &'a Lua) -> Self {
        Unmetered {
            lua,
            cap: lua.set_memory_limit(0).ok(),
        }
    }
}

impl Drop for Unmetered<'_> {
    fn drop(&mut self) {
        if let Some(cap) = self.cap {
            // Only a VM without memory control refuses, and then none was lifted.
            let _ = self.lua.set_memory_limit(cap);
        }
    }
}

/// A value on the stack as the reading code sees it, without making an mlua value (and
/// so without a reference slot) for it.
#[derive(Clone, Copy)]
pub(crate) enum Slot<'a> {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a [u8]),
    /// A table: its identity, and whether it has a metatable.
    Table(*const std::ffi::c_void, bool),
    /// Anything else, by its Lua type name (`function`, `userdata`, `thread`…).
    Other(&'static str),
}

impl Slot<'_> {
    /// The value's type as mlua names it (`integer` for an integer, `number` for a float).
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Slot::Nil => "nil",
            Slot::Bool(_) => "boolean",
            Slot::Int(_) => "integer",
            Slot::Float(_) => "number",
            Slot::Str(_) => "string",
            Slot::Table(..) => "table",
            Slot::Other(name) => name,
        }
    }
}

/// Whether `index` is a slot of the stack (an absolute index, below the top) holding a
/// table: what `lua_next` and `lua_rawgeti` need.
///
/// # Safety
/// `state` is a running Lua state.
unsafe fn is_table(state: *mut lua_State, index: c_int) -> bool {
    unsafe {
        index >= 1
            && index <= ffi::lua_gettop(state)
            && ffi::lua_type(state, index) == ffi::LUA_TTABLE
    }
}

/// The value at `index`, read without converting it (a number key stays a number).
///
/// # Safety
/// `index` is a valid absolute index of `state`'s stack, inside a protected call.
unsafe fn slot<'a>(state: *mut lua_State, index: c_int) -> Slot<'a> {
    unsafe {
        match ffi::lua_type(state, index) {
            ffi::LUA_TNIL => Slot::Nil,
            ffi::LUA_TBOOLEAN => Slot::Bool(ffi::lua_toboolean(state, index) != 0),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(state, index) != 0 => {
                Slot::Int(ffi::lua_tointeger(state, index))
            }
            ffi::LUA_TNUMBER => Slot::Float(ffi::lua_tonumber(state, index)),
            ffi::LUA_TSTRING => {
                let mut len = 0;
                let ptr = ffi::lua_tolstring(state, index, &mut len);
                if ptr.is_null() {
                    Slot::Str(&[])
                } else {
                    // The string stays on the stack (and so alive) while the slot is read.
                    Slot::Str(std::slice::from_raw_parts(ptr.cast::<u8>(), len))
                }
            }
            ffi::LUA_TTABLE => {
                let meta = ffi::lua_getmetatable(state, index) != 0;
                if meta {
                    ffi::lua_pop(state, 1);
                }
                Slot::Table(ffi::lua_topointer(state, index), meta)
            }
            ffi::LUA_TFUNCTION => Slot::Other("function"),
            ffi::LUA_TUSERDATA => Slot::Other("userdata"),
            ffi::LUA_TLIGHTUSERDATA => Slot::Other("lightuserdata"),
            ffi::LUA_TTHREAD => Slot::Other("thread"),
            _ => Slot::Other("other"),
        }
    }
}

/// A walk over a table on the stack, for code that reads plain data: [`Walk::entries`]
/// visits a table's entries in `pairs` order.
pub(crate) struct Walk {
    state: *mut lua_State,
}

impl Walk {
    /// Visits the entries of the table at `index` as `pairs` visits them (`lua_next`
    /// order): `f` gets the key and the value, each read as a [`Slot`], and the value's
    /// stack index (to walk it in turn if it is a table); returning false stops the visit.
    /// False if `f` stopped it, `index` is not a table or the stack could not grow.
    pub(crate) fn entries(
        &self,
        index: c_int,
        f: &mut dyn FnMut(&Walk, Slot<'_>, Slot<'_>, c_int) -> bool,
    ) -> bool {
        let state = self.state;
        // SAFETY: the walk lives only inside `with_table`'s protected call, and `index` is
        // checked to be a table on the stack; the key and value pushed are popped.
        unsafe {
            if !is_table(state, index) || ffi::lua_checkstack(state, SLOTS) == 0 {
                return false;
            }
            ffi::lua_pushnil(state);
            while ffi::lua_next(state, index) != 0 {
                let top = ffi::lua_gettop(state);
                if !f(self, slot(state, top - 1), slot(state, top), top) {
                    ffi::lua_settop(state, top - 2);
                    return false;
                }
                ffi::lua_settop(state, top - 1);
            }
            true
        }
    }

    /// Calls `f` with `t[key]` of the table at `index`, read raw, and its stack index; None
    /// if the stack could not grow.
    pub(crate) fn field<R>(
        &self,
        index: c_int,
        key: &str,
        f: impl FnOnce(&Walk, Slot<'_>, c_int) -> R,
    ) -> Option<R> {
        // SAFETY: as `entries`; the key pushed is replaced by the value, which is popped
        // before returning.
        unsafe {
            if !is_table(self.state, index) || ffi::lua_checkstack(self.state, SLOTS) == 0 {
                return None;
            }
            push_str(self.state, key);
            ffi::lua_rawget(self.state, index);
            let top = ffi::lua_gettop(self.state);
            let out = f(self, slot(self.state, top), top);
            ffi::lua_settop(self.state, top - 1);
            Some(out)
        }
    }

    /// Calls `f` with `t[i]` of the table at `index`, read raw, and its stack index; None if
    /// the stack could not grow.
    pub(crate) fn index<R>(
        &self,
        index: c_int,
        i: i64,
        f: impl FnOnce(&Walk, Slot<'_>, c_int) -> R,
    ) -> Option<R> {
        // SAFETY: as `entries`; the value pushed is popped before returning.
        unsafe {
            if !is_table(self.state, index) || ffi::lua_checkstack(self.state, SLOTS) == 0 {
                return None;
            }
            ffi::lua_rawgeti(self.state, index, i);
            let top = ffi::lua_gettop(self.state);
            let out = f(self, slot(self.state, top), top);
            ffi::lua_settop(self.state, top - 1);
            Some(out)
        }
    }
}

/// Runs `f` with the memory cap lifted: for the engine's own tables of a size bounded by
/// the module's files (`ctx`, `ctx.data`), which mlua would otherwise build entry by entry
/// through protected calls. What they take still counts against the cap for the module's
/// next allocation.
pub(crate) fn unmetered<R>(lua: &Lua, f: impl FnOnce() -> R) -> R {
    let _unmetered = Unmetered::new(lua);
    f()
}

/// `table[key] = value`, raw, with the memory cap lifted: an entry of a table the engine
/// hands out (`ctx.vars`, `ctx.locals`), one at a time; what the table grows by still
/// counts against the cap for the module's next allocation.
pub(crate) fn raw_store(
    lua: &Lua,
    table: &Table,
    key: impl mlua::IntoLua,
    value: impl mlua::IntoLua,
) -> mlua::Result<()> {
    let _unmetered = Unmetered::new(lua);
    table.raw_set(key, value)
}

/// Calls `f` with `value` read as a [`Slot`]: a table with a walk over it and its stack
/// index, inside one protected call ([`with_table`]); anything else with no walk. None if a
/// table could not be read.
pub(crate) fn with_value<R>(
    value: &LuaValue,
    f: impl FnOnce(Option<&Walk>, Slot<'_>, c_int) -> R,
) -> Option<R> {
    Some(match value {
        LuaValue::Table(t) => return with_table(t, |walk, slot, at| f(Some(walk), slot, at)),
        LuaValue::Nil => f(None, Slot::Nil, 0),
        LuaValue::Boolean(b) => f(None, Slot::Bool(*b), 0),
        LuaValue::Integer(i) => f(None, Slot::Int(*i), 0),
        LuaValue::Number(n) => f(None, Slot::Float(*n), 0),
        LuaValue::String(s) => f(None, Slot::Str(&s.as_bytes()), 0),
        other => f(None, Slot::Other(other.type_name()), 0),
    })
}

/// Calls `f` with a walk over `table` and its stack index, inside one protected call; the
/// stack is as it was afterwards.
pub(crate) fn with_table<R>(
    table: &Table,
    f: impl FnOnce(&Walk, Slot<'_>, c_int) -> R,
) -> Option<R> {
    let lua = table.weak_lua().upgrade();
    let mut out = None;
    // SAFETY: see the module's comment; the table is the call's one argument, at index 1.
    let ran = unsafe {
        lua.exec_raw::<()>(table, |state| {
            let walk = Walk { state };
            let top = slot(state, 1);
            out = Some(f(&walk, top, 1));
            ffi::lua_settop(state, 0);
        })
    };
    ran.ok().and(out)
}

/// One argument of a `ctx` function as [`CallArgs`] read it.
pub(crate) enum Arg {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string, read where it is: see [`Arg::bytes`].
    Str(StrArg),
    /// Anything else (a table, a function), as an mlua value.
    Value(LuaValue),
}

impl Arg {
    /// The argument's type as Lua names it (`integer` for an integer, `number` for a float).
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Arg::Nil => "nil",
            Arg::Bool(_) => "boolean",
            Arg::Int(_) => "integer",
            Arg::Float(_) => "number",
            Arg::Str(_) => "string",
            Arg::Value(v) => v.type_name(),
        }
    }
}

/// A string argument's bytes, where Lua keeps them.
pub(crate) struct StrArg {
    ptr: *const u8,
    len: usize,
    /// The string, when it came as an mlua value (which keeps it alive); a string read off
    /// the stack is kept alive by its stack slot instead.
    _owner: Option<mlua::LuaString>,
}

impl StrArg {
    /// The string's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` and `len` are a Lua string's contents, which Lua never moves or
        // changes. The string stays alive as long as this: held by `_owner`, or in a slot
        // of the running call's stack frame, which only that call's return pops (the
        // callback's stack is grown and shrunk above its arguments, never below), and a
        // `CallArgs` is made for one call and consumed by it.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// The arguments of a `ctx` function: whether the first is a table (`ctx`, when called
/// with a colon), and the rest. mlua hands a callback its arguments as values with a
/// reference slot each (a table's or a string's reference is pushed to an auxiliary
/// thread and released afterwards); a `ctx` call takes two or three ids and is made
/// thousands of times a game, so strings and numbers are read where they lie instead.
pub(crate) struct CallArgs {
    pub ctx_first: bool,
    pub values: Vec<Arg>,
}

impl CallArgs {
    fn from_value(value: LuaValue) -> Arg {
        match value {
            LuaValue::Nil => Arg::Nil,
            LuaValue::Boolean(b) => Arg::Bool(b),
            LuaValue::Integer(i) => Arg::Int(i),
            LuaValue::Number(n) => Arg::Float(n),
            LuaValue::String(s) => {
                let (ptr, len) = {
                    let bytes = s.as_bytes();
                    (bytes.as_ptr(), bytes.len())
                };
                Arg::Str(StrArg {
                    ptr,
                    len,
                    _owner: Some(s),
                })
            }
            other => Arg::Value(other),
        }
    }
}

impl mlua::FromLuaMulti for CallArgs {
    fn from_lua_multi(values: mlua::MultiValue, _lua: &Lua) -> mlua::Result<Self> {
        let mut values = values.into_iter();
        let ctx_first = matches!(values.next(), Some(LuaValue::Table(_)));
        Ok(CallArgs {
            ctx_first,
            values: values.map(CallArgs::from_value).collect(),
        })
    }

    // The arguments are the top `nargs` values of the callback's stack, and stay there
    // until it returns (mlua's `create_function` converts them, calls the function, then
    // pushes its results above them).
    unsafe fn from_stack_args(
        nargs: c_int,
        _i: usize,
        _to: Option<&str>,
        lua: &mlua::state::RawLua,
    ) -> mlua::Result<Self> {
        let state = lua.state();
        // SAFETY: `state` is the running callback's state (inside the hook's protected
        // call) and its top `nargs` values are the arguments; each is read by its type
        // (`slot`); a value that becomes an mlua value is pushed into the slot Lua
        // guarantees a C function and popped at once.
        unsafe {
            let first = ffi::lua_gettop(state) - nargs + 1;
            let ctx_first = nargs >= 1 && ffi::lua_type(state, first) == ffi::LUA_TTABLE;
            let mut values = Vec::with_capacity(usize::try_from(nargs - 1).unwrap_or(0));
            for index in first + 1..first + nargs {
                values.push(match slot(state, index) {
                    Slot::Nil => Arg::Nil,
                    Slot::Bool(b) => Arg::Bool(b),
                    Slot::Int(i) => Arg::Int(i),
                    Slot::Float(f) => Arg::Float(f),
                    Slot::Str(bytes) => Arg::Str(StrArg {
                        ptr: bytes.as_ptr(),
                        len: bytes.len(),
                        _owner: None,
                    }),
                    Slot::Table(..) | Slot::Other(_) => {
                        ffi::lua_pushvalue(state, index);
                        Arg::Value(lua.pop::<LuaValue>()?)
                    }
                });
            }
            Ok(CallArgs { ctx_first, values })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_builder_used_wrongly_fails_and_leaves_the_vm_usable() {
        let lua = Lua::new();
        let misuses: [&dyn Fn(&Builder); 4] = [
            &|b| b.set_str("name", "no table yet"),
            &|b| {
                b.table(0, 1);
                b.store_at(1);
            },
            &|b| {
                b.table(1, 0);
                b.table(0, 1);
            },
            &|_| {},
        ];
        for misuse in misuses {
            assert!(build_with(&lua, misuse).is_err());
        }
        let made = build_with(&lua, |b| {
            b.table(1, 0);
            b.table(0, 2);
            b.set_str("name", "pass");
            b.set("arg", &Value::List(vec![Value::Int(1), Value::Float(0.5)]));
            b.store_at(1);
        })
        .expect("built");
        let check: mlua::Function = lua
            .load("return function(t) return t[1].name .. ' ' .. t[1].arg[2] end")
            .eval()
            .expect("valid Lua");
        assert_eq!(check.call::<String>(made).expect("runs"), "pass 0.5");
    }

    #[test]
    fn a_walk_visits_the_entries_pairs_visits_in_the_same_order() {
        let lua = Lua::new();
        let (t, order): (Table, String) = lua
            .load(
                "local t = {10, 20, x = 'a', [2.5] = true, [-3] = 'n'}
                 for i = 1, 30 do t['k' .. i] = i end
                 local seen = {}
                 for k in pairs(t) do seen[#seen + 1] = tostring(k) end
                 return t, table.concat(seen, ',')",
            )
            .eval()
            .expect("valid Lua");
        let walked = with_table(&t, |walk, _, at| {
            let mut seen = Vec::new();
            walk.entries(at, &mut |_, key, _, _| {
                seen.push(match key {
                    Slot::Int(i) => i.to_string(),
                    Slot::Float(f) => f.to_string(),
                    Slot::Str(s) => String::from_utf8_lossy(s).into_owned(),
                    other => other.type_name().to_owned(),
                });
                true
            });
            seen.join(",")
        })
        .expect("walked");
        assert_eq!(walked, order);
    }
}
