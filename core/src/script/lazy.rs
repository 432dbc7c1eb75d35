//! `ctx.vars` and `ctx.locals` handed to a script a field at a time.
//!
//! A hook reads a few of the rules' variables, but copying all of them into Lua, and
//! comparing them all after the call, was a fifth of a decision of the largest module. So the
//! table a script gets starts empty: the first read of a field copies that field in (its
//! whole value), a write marks it, and after the call only the fields read or written are
//! compared with what they were, and only a changed one is read back. (A small table, of
//! a few values, is still copied whole at once: filling it field by field would cost more.)
//!
//! What a script can tell: nothing, except that `getmetatable(ctx.vars)` is `false` while
//! the table is partly filled. Its metatable (shared by every call of the VM) fills a field
//! on `__index` and marks one on `__newindex`; `pairs` and `#`, and the sandbox's `next`,
//! `rawget`, `rawset` and `rawlen` (the table is in the sandbox's list of partly filled
//! tables), fill every field first. A table filled whole loses its metatable: it is then a
//! plain table, as before.
//!
//! A partly filled table can also leave the script's hands: handed to a `ctx` function,
//! stored in another of ctx's tables, or returned in a prompt, a bot's pick or a view. The
//! engine reads those as plain data, and a table with a metatable is not; so any such
//! reading that fails while a call's tables are partly filled fills them whole and reads
//! again (that only costs on the way to an error, or in the rare call that passes its
//! tables on). After the next call starts, a table kept from an earlier call is plain and
//! holds what its call filled or wrote.

use mlua::{Function, Lua, Table as LuaTable, Value as LuaValue};

use super::call::{CallState, Lazy, Which};
use super::convert::{changed_fields, same, to_lua};
use super::stack::raw_store;
use crate::value::Value;

/// More fields than this read or written one at a time, and the rest are filled at once:
/// the marks are a list, searched for each field.
const MAX_MARKED: usize = 32;

/// What every VM's partial tables share: their metatables, the sandbox's list of partly
/// filled tables, and the function that fills one whole.
pub(crate) struct Shared {
    vars_meta: LuaTable,
    locals_meta: LuaTable,
    partial: LuaTable,
    fill_vars: Function,
    fill_locals: Function,
}

/// Installs the metatables in `lua`, with the sandbox's list of partly filled tables
/// (`partial`, weak keys: the table, its filling function) and Lua's `next`.
pub(crate) fn install(lua: &Lua, partial: LuaTable, next: Function) -> mlua::Result<()> {
    let meta = |which: Which| -> mlua::Result<(LuaTable, Function)> {
        let next = next.clone();
        let meta = lua.create_table()?;
        meta.raw_set(
            "__index",
            lua.create_function(move |lua, (t, key): (LuaTable, LuaValue)| {
                index(lua, which, &t, &key)
            })?,
        )?;
        meta.raw_set(
            "__newindex",
            lua.create_function(
                move |lua, (t, key, value): (LuaTable, LuaValue, LuaValue)| {
                    new_index(lua, which, &t, key, value)
                },
            )?,
        )?;
        let filler = lua.create_function(move |lua, t: LuaTable| fill(lua, which, &t))?;
        meta.raw_set(
            "__pairs",
            lua.create_function(move |lua, t: LuaTable| {
                fill(lua, which, &t)?;
                Ok((next.clone(), t, LuaValue::Nil))
            })?,
        )?;
        meta.raw_set(
            "__len",
            lua.create_function(move |lua, t: LuaTable| {
                fill(lua, which, &t)?;
                Ok(t.raw_len())
            })?,
        )?;
        meta.raw_set("__metatable", false)?;
        Ok((meta, filler))
    };
    let (vars_meta, fill_vars) = meta(Which::Vars)?;
    let (locals_meta, fill_locals) = meta(Which::Locals)?;
    lua.set_app_data(Shared {
        vars_meta,
        locals_meta,
        partial,
        fill_vars,
        fill_locals,
    });
    Ok(())
}

/// At most this many values (tables, texts, numbers…), and a table is copied whole at
/// once: filling a small one field by field costs more than it saves.
const SMALL: usize = 24;

/// The table for `which` in this call: a small one (or a list) copied whole, a larger map
/// empty and filled as the script reads it.
pub(crate) fn new(lua: &Lua, which: Which) -> mlua::Result<Lazy> {
    let whole = {
        let Some(state) = lua.app_data_ref::<CallState>() else {
            return Err(outside());
        };
        match source(&state, which) {
            None => Some(lua.create_table()?),
            // A map of many values is filled by field; anything else (a small one, a list)
            // is copied whole.
            Some(value @ Value::Map(_)) if !is_small(value) => None,
            Some(value) => match to_lua(lua, value)? {
                LuaValue::Table(t) => Some(t),
                _ => Some(lua.create_table()?),
            },
        }
    };
    if let Some(table) = whole {
        return Ok(Lazy {
            table,
            marked: Vec::new(),
            whole: true,
        });
    }
    let Some(shared) = lua.app_data_ref::<Shared>() else {
        return Err(mlua::Error::runtime("ctx's tables are not installed"));
    };
    // Room for the few fields a call reads, so that the first ones need no regrowing.
    let table = lua.create_table_with_capacity(0, 8)?;
    let (meta, fill) = match which {
        Which::Vars => (&shared.vars_meta, &shared.fill_vars),
        Which::Locals => (&shared.locals_meta, &shared.fill_locals),
    };
    table.set_metatable(Some(meta.clone()))?;
    raw_store(lua, &shared.partial, &table, fill)?;
    Ok(Lazy {
        table,
        marked: Vec::new(),
        whole: false,
    })
}

/// Whether `value` holds at most [`SMALL`] values.
fn is_small(value: &Value) -> bool {
    fn count(value: &Value, left: &mut usize) -> bool {
        if *left == 0 {
            return false;
        }
        *left -= 1;
        match value {
            Value::List(items) => items.iter().all(|v| count(v, left)),
            Value::Map(map) => map.values().all(|v| count(v, left)),
            _ => true,
        }
    }
    let mut left = SMALL;
    count(value, &mut left)
}

/// The rules' values `which` stands for in this call (a frame already gone: none).
fn source(state: &CallState, which: Which) -> Option<&Value> {
    match which {
        Which::Vars => Some(&state.table.vars),
        Which::Locals => match (&state.locals_given, state.locals_frame) {
            (Some(v), _) => Some(v),
            (None, Some(id)) => state
                .table
                .flow
                .iter()
                .find(|f| f.id == id)
                .map(|f| &f.locals),
            (None, None) => None,
        },
    }
}

/// This call's table for `which`, if `t` is it.
fn current<'a>(state: &'a mut CallState, which: Which, t: &LuaTable) -> Option<&'a mut Lazy> {
    let lazy = match which {
        Which::Vars => state.vars_table.as_mut(),
        Which::Locals => state.locals_table.as_mut(),
    }?;
    (lazy.table.to_pointer() == t.to_pointer()).then_some(lazy)
}

fn outside() -> mlua::Error {
    mlua::Error::runtime("ctx was used outside a hook call")
}

/// `__index`: the field `key`, copied in from the rules' values the first time it is read.
fn index(lua: &Lua, which: Which, t: &LuaTable, key: &LuaValue) -> mlua::Result<LuaValue> {
    let LuaValue::String(key) = key else {
        return Ok(LuaValue::Nil);
    };
    let Ok(key) = key.to_str() else {
        return Ok(LuaValue::Nil);
    };
    let key: &str = &key;
    {
        let Some(mut state) = lua.app_data_mut::<CallState>() else {
            return Err(outside());
        };
        let Some(lazy) = current(&mut state, which, t) else {
            return Ok(LuaValue::Nil);
        };
        // A field already filled or written, and not in the table, was set to nil.
        if lazy.whole || lazy.marked.iter().any(|m| m == key) {
            return Ok(LuaValue::Nil);
        }
        if lazy.marked.len() >= MAX_MARKED {
            drop(state);
            fill(lua, which, t)?;
            return t.raw_get(key);
        }
        lazy.marked.push(key.to_owned());
    }
    let Some(state) = lua.app_data_ref::<CallState>() else {
        return Err(outside());
    };
    let Some(value) = source(&state, which).and_then(|v| field(v, key)) else {
        return Ok(LuaValue::Nil);
    };
    let value = to_lua(lua, value)?;
    raw_store(lua, t, key, &value)?;
    Ok(value)
}

/// The field `key` of a map.
fn field<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    match value {
        Value::Map(map) => map.get(key),
        _ => None,
    }
}

/// `__newindex`: a field not in the table is set; it is marked, so that it is never filled
/// from the rules' values afterwards. A key that is not text fills the table whole first
/// (the value is refused after the call, as for any table).
fn new_index(
    lua: &Lua,
    which: Which,
    t: &LuaTable,
    key: LuaValue,
    value: LuaValue,
) -> mlua::Result<()> {
    let text = match &key {
        LuaValue::String(s) => s.to_str().ok().map(|s| s.to_owned()),
        _ => None,
    };
    let mut whole = text.is_none();
    {
        let Some(mut state) = lua.app_data_mut::<CallState>() else {
            return Err(outside());
        };
        if let (Some(lazy), Some(key)) = (current(&mut state, which, t), text) {
            if lazy.marked.len() >= MAX_MARKED {
                whole = true;
            } else if !lazy.whole && !lazy.marked.contains(&key) {
                lazy.marked.push(key);
            }
        }
    }
    if whole {
        fill(lua, which, t)?;
    }
    raw_store(lua, t, key, value)
}

/// Fills every field of `t` not filled or written yet (for `pairs`, `#` and the raw
/// functions): the table is then the whole of it, and plain.
fn fill(lua: &Lua, which: Which, t: &LuaTable) -> mlua::Result<()> {
    let missing = {
        let Some(mut state) = lua.app_data_mut::<CallState>() else {
            return Err(outside());
        };
        let marked = match current(&mut state, which, t) {
            Some(lazy) if !lazy.whole => {
                lazy.whole = true;
                std::mem::take(&mut lazy.marked)
            }
            _ => return Ok(()),
        };
        missing(lua, source(&state, which), &marked)?
    };
    store_missing(lua, t, missing)
}

/// The fields of `source` not in `marked`, made in Lua.
fn missing(
    lua: &Lua,
    source: Option<&Value>,
    marked: &[String],
) -> mlua::Result<Vec<(String, LuaValue)>> {
    let Some(Value::Map(map)) = source else {
        return Ok(Vec::new());
    };
    map.iter()
        .filter(|(k, _)| !marked.contains(k))
        .map(|(k, v)| Ok((k.clone(), to_lua(lua, v)?)))
        .collect()
}

/// Stores the `missing` fields in `t`, which is then whole: it loses its metatable.
fn store_missing(lua: &Lua, t: &LuaTable, missing: Vec<(String, LuaValue)>) -> mlua::Result<()> {
    for (key, value) in missing {
        raw_store(lua, t, key, value)?;
    }
    make_plain(lua, t)
}

/// Takes the metatable off `t`, and it off the sandbox's list of partly filled tables.
fn make_plain(lua: &Lua, t: &LuaTable) -> mlua::Result<()> {
    t.set_metatable(None)?;
    if let Some(shared) = lua.app_data_ref::<Shared>() {
        raw_store(lua, &shared.partial, t, LuaValue::Nil)?;
    }
    Ok(())
}

impl Lazy {
    /// Whether fields of the table are still to be filled.
    pub(crate) fn is_partial(&self) -> bool {
        !self.whole
    }

    /// Fills the table whole from `source`, the value it stands for (outside the call).
    pub(crate) fn fill_from(&mut self, lua: &Lua, source: Option<&Value>) -> mlua::Result<()> {
        if self.whole {
            return Ok(());
        }
        self.whole = true;
        let marked = std::mem::take(&mut self.marked);
        store_missing(lua, &self.table, missing(lua, source, &marked)?)
    }
}

/// Fills the current call's partly filled tables whole (a `ctx` function was handed
/// something that could not be read as plain data, and may have been one of them).
/// Whether there was any.
pub(crate) fn fill_current(lua: &Lua) -> mlua::Result<bool> {
    let tables: Vec<(Which, LuaTable)> = {
        let Some(state) = lua.app_data_ref::<CallState>() else {
            return Ok(false);
        };
        [
            (Which::Vars, state.vars_table.as_ref()),
            (Which::Locals, state.locals_table.as_ref()),
        ]
        .into_iter()
        .filter_map(|(which, lazy)| {
            lazy.filter(|l| l.is_partial())
                .map(|l| (which, l.table.clone()))
        })
        .collect()
    };
    for (which, table) in &tables {
        fill(lua, *which, table)?;
    }
    Ok(!tables.is_empty())
}

/// The partly filled tables of the last call, kept until the next call starts: the values
/// it returned (a prompt, a bot's pick, a view) may hold them, and are read after it.
#[derive(Default)]
pub(crate) struct Recent {
    /// `ctx.vars`'s table.
    vars: Option<Lazy>,
    /// `ctx.locals`'s table, with the frame it stood for (none: `given`).
    locals: Option<(Lazy, Option<u64>, Option<Value>)>,
}

/// Keeps the last call's still partly filled tables (see [`Recent`]), and makes the ones
/// kept before plain.
pub(crate) fn keep_recent(lua: &Lua, recent: Recent) {
    forget_recent(lua);
    if recent.vars.is_some() || recent.locals.is_some() {
        lua.set_app_data(recent);
    }
}

/// Makes the tables kept from the last call plain (a new call starts).
pub(crate) fn forget_recent(lua: &Lua) {
    if let Some(old) = lua.remove_app_data::<Recent>() {
        for lazy in old.vars.iter().chain(old.locals.iter().map(|l| &l.0)) {
            // Cannot fail: a table without a __gc and a raw set with an existing key.
            let _ = make_plain(lua, &lazy.table);
        }
    }
}

/// Fills the last call's kept tables whole from `table` (the table after the call): a value
/// it returned could not be read as plain data, and may have held one of them. Whether
/// there was any.
fn fill_recent(lua: &Lua, table: &crate::table::Table) -> mlua::Result<bool> {
    let Some(mut recent) = lua.remove_app_data::<Recent>() else {
        return Ok(false);
    };
    let (locals, frame, given) = match &mut recent.locals {
        Some((locals, frame, given)) => (Some(locals), *frame, given.as_ref()),
        None => (None, None, None),
    };
    fill_all(lua, table, recent.vars.as_mut(), locals, frame, given)?;
    Ok(true)
}

/// The locals a call's `ctx.locals` stood for: its frame's in `table`, or those given to
/// it (a frame already gone).
pub(crate) fn locals_in<'a>(
    table: &'a crate::table::Table,
    frame: Option<u64>,
    given: Option<&'a Value>,
) -> Option<&'a Value> {
    match frame {
        Some(id) => table.flow.iter().find(|f| f.id == id).map(|f| &f.locals),
        None => given,
    }
}

/// Fills a call's `ctx.vars` and `ctx.locals` whole from `table`, the values they stood for.
pub(crate) fn fill_all(
    lua: &Lua,
    table: &crate::table::Table,
    vars: Option<&mut Lazy>,
    locals: Option<&mut Lazy>,
    frame: Option<u64>,
    given: Option<&Value>,
) -> mlua::Result<()> {
    if let Some(vars) = vars {
        vars.fill_from(lua, Some(&table.vars))?;
    }
    if let Some(locals) = locals {
        locals.fill_from(lua, locals_in(table, frame, given))?;
    }
    Ok(())
}

/// Reads a value the last call returned with `read`; if that fails while the call's tables
/// are partly filled, fills them whole from `table` (the table after the call) and reads
/// again: the value may be, or hold, one of them.
pub(crate) fn read_returned<T, E>(
    lua: &Lua,
    table: &crate::table::Table,
    mut read: impl FnMut() -> Result<T, E>,
) -> Result<T, E> {
    match read() {
        Err(_) if fill_recent(lua, table).unwrap_or(false) => read(),
        read => read,
    }
}

impl Recent {
    /// The call's tables that are still partly filled.
    pub(crate) fn of(
        vars: Option<Lazy>,
        locals: Option<Lazy>,
        frame: Option<u64>,
        given: Option<Value>,
    ) -> Recent {
        Recent {
            vars: vars.filter(Lazy::is_partial),
            locals: locals.filter(Lazy::is_partial).map(|l| (l, frame, given)),
        }
    }
}

/// What a script changed in one of ctx's tables.
pub(crate) enum Changes {
    /// Nothing.
    None,
    /// The whole table, read back (it was filled whole).
    Whole(Value),
    /// These fields, each set to a value or removed.
    Fields(Vec<(String, Option<Value>)>),
}

impl Changes {
    /// Stores the changes into `target` when `writable`; otherwise only checks them. False
    /// if a read-only call changed a value.
    pub(crate) fn store(self, target: &mut Value, writable: bool) -> bool {
        match self {
            Changes::None => true,
            Changes::Whole(value) if writable => {
                *target = value;
                true
            }
            Changes::Whole(value) => value == *target,
            Changes::Fields(fields) if writable => {
                if !matches!(target, Value::Map(_)) {
                    *target = Value::map();
                }
                if let Value::Map(map) = target {
                    for (key, value) in fields {
                        match value {
                            Some(v) => map.insert(key, v),
                            None => map.remove(&key),
                        };
                    }
                }
                true
            }
            Changes::Fields(fields) => fields
                .iter()
                .all(|(key, value)| field(target, key) == value.as_ref()),
        }
    }
}

/// After a call (or before its frame is dropped): what the script changed in `lazy`,
/// against `source`, the value it was filled from.
pub(crate) fn read_back(
    lazy: &Lazy,
    source: Option<&Value>,
    which: Which,
) -> Result<Changes, String> {
    let empty = Value::map();
    let source = source.unwrap_or(&empty);
    let table = &lazy.table;
    if lazy.whole {
        let lua_table = LuaValue::Table(table.clone());
        if same(&lua_table, source, true) {
            return Ok(Changes::None);
        }
        return super::convert::plain(table.clone(), which.name()).map(Changes::Whole);
    }
    if lazy.marked.is_empty() {
        return Ok(Changes::None);
    }
    let before: Vec<(&str, Option<&Value>)> = lazy
        .marked
        .iter()
        .map(|key| (key.as_str(), field(source, key)))
        .collect();
    let changed: Vec<(String, Option<Value>)> = changed_fields(table, which.name(), &before)?
        .into_iter()
        .zip(&before)
        .filter_map(|(now, (key, _))| now.map(|now| ((*key).to_owned(), now)))
        .collect();
    Ok(if changed.is_empty() {
        Changes::None
    } else {
        Changes::Fields(changed)
    })
}
