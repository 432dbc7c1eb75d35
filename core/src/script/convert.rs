//! Converting between plain data ([`Value`]) and Lua values, refusing anything that is not
//! plain data (functions, userdata, coroutines, metatables, mixed keys, cycles) and anything
//! too large to copy: a sub-table reused many times over is copied in full each time, so the
//! conversion counts every value and byte it copies and stops at a bound.

use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};

use mlua::{Lua, Value as LuaValue};

use super::stack::{self, Slot, Walk};
use crate::value::Value;

/// How deep plain data may nest.
const MAX_DEPTH: usize = 64;
/// How many values (tables, strings, numbers…) one conversion may copy.
pub(crate) const MAX_VALUES: usize = 100_000;
/// How many bytes of strings and keys one conversion may copy.
pub(crate) const MAX_BYTES: usize = 16 * 1024 * 1024;

/// Builds the Lua value for `value`: a single value as it is (a short text from the
/// VM's kept strings), a list or a map on the stack ([`stack::build`], with the memory cap
/// lifted: plain data is bounded by [`MAX_VALUES`] and [`MAX_BYTES`], and the memory it
/// takes still counts against the cap for the module's next allocation).
pub(crate) fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    Ok(match value {
        Value::Nil => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Integer(*i),
        Value::Float(f) => LuaValue::Number(*f),
        Value::Str(s) => LuaValue::String(super::interned::string(lua, s)?),
        Value::List(_) | Value::Map(_) => stack::build(lua, value)?,
    })
}

/// Reads `value` as plain data; `path` names it in errors (`ctx.vars.round`).
pub(crate) fn from_lua(value: &LuaValue, path: &str) -> Result<Value, String> {
    Converter::default().convert(value, &Path::root(path))
}

/// Reads the value in `slot` (at the stack index `at` of `walk`) as plain data, as
/// [`from_lua`] does.
pub(crate) fn from_slot(
    walk: &Walk,
    slot: Slot<'_>,
    at: c_int,
    path: &str,
) -> Result<Value, String> {
    Converter::default().convert_slot(Some(walk), slot, at, &Path::root(path))
}

/// For each of `fields` (a key and the value it had, none: absent), what `table[key]` (read
/// raw) now holds if it is no longer that value: `Some(None)` gone, `Some(Some(v))` the new
/// value, `None` unchanged; found in one walk of `table`, read as one conversion of the
/// whole table would read it (values and bytes counted across the fields, and the table
/// itself on each field's path, so that a field that holds it is a cycle). `root` names
/// the table in errors (`ctx.vars`).
pub(crate) fn changed_fields(
    table: &mlua::Table,
    root: &str,
    fields: &[(&str, Option<&Value>)],
) -> Result<Vec<Option<Option<Value>>>, String> {
    let mut converter = Converter::default();
    let path = Path::root(root);
    converter.count(&path, 0)?;
    converter.open.push(table.to_pointer());
    stack::with_table(table, |walk, _, at| {
        fields
            .iter()
            .map(|(key, before)| {
                walk.field(at, key, |walk, slot, at| {
                    let unchanged = match (&slot, before) {
                        (Slot::Nil, None) => true,
                        (_, None) | (Slot::Nil, Some(_)) => false,
                        (_, Some(before)) => same_slot(Some(walk), slot, at, before, false),
                    };
                    if unchanged {
                        return Ok(None);
                    }
                    if matches!(slot, Slot::Nil) {
                        return Ok(Some(None));
                    }
                    converter.count(&path, key.len())?;
                    let value = converter.convert_slot(
                        Some(walk),
                        slot,
                        at,
                        &path.child(Step::Key(key)),
                    )?;
                    Ok(Some(Some(value)))
                })
                .unwrap_or_else(|| Err(format!("{root}: the table could not be read")))
            })
            .collect()
    })
    .unwrap_or_else(|| Err(format!("{root}: the table could not be read")))
}

/// Whether reading `value` as plain data would give exactly `plain` (a float to the bit),
/// found without copying anything: a hook that left a table as it got it needs no
/// conversion back. `top`: the value is a whole `ctx.vars`, `ctx.locals` or private state,
/// where an empty table reads as an empty map (nested, as an empty list).
pub(crate) fn same(value: &LuaValue, plain: &Value, top: bool) -> bool {
    stack::with_value(value, |walk, slot, at| {
        same_slot(walk, slot, at, plain, top)
    })
    .unwrap_or(false)
}

/// [`same`] for a value read as `slot`; a table is walked by `walk` from the stack index
/// `at`.
fn same_slot(walk: Option<&Walk>, slot: Slot<'_>, at: c_int, plain: &Value, top: bool) -> bool {
    match (slot, plain) {
        (Slot::Nil, Value::Nil) => true,
        (Slot::Bool(a), Value::Bool(b)) => a == *b,
        (Slot::Int(a), Value::Int(b)) => a == *b,
        (Slot::Float(a), Value::Float(b)) => a.is_finite() && a.to_bits() == b.to_bits(),
        (Slot::Str(a), Value::Str(b)) => a == b.as_bytes(),
        (Slot::Table(_, false), Value::Map(map)) if !map.is_empty() || top => {
            same_entries(walk, at, map.len(), |walk, key, value, at| match key {
                Slot::Str(k) => std::str::from_utf8(k)
                    .ok()
                    .and_then(|k| map.get(k))
                    .is_some_and(|item| same_slot(Some(walk), value, at, item, false)),
                _ => false,
            })
        }
        (Slot::Table(_, false), Value::List(items)) if !top || !items.is_empty() => {
            same_entries(walk, at, items.len(), |walk, key, value, at| match key {
                Slot::Int(i) => usize::try_from(i)
                    .ok()
                    .and_then(|i| i.checked_sub(1))
                    .and_then(|i| items.get(i))
                    .is_some_and(|item| same_slot(Some(walk), value, at, item, false)),
                _ => false,
            })
        }
        _ => false,
    }
}

/// Whether the table at `at` (walked by `walk`; none: no table to walk) has exactly `len`
/// entries and `matches` each of them.
fn same_entries(
    walk: Option<&Walk>,
    at: c_int,
    len: usize,
    matches: impl Fn(&Walk, Slot<'_>, Slot<'_>, c_int) -> bool,
) -> bool {
    let mut count = 0;
    walk.is_some_and(|walk| {
        walk.entries(at, &mut |walk, key, value, at| {
            count += 1;
            count <= len && matches(walk, key, value, at)
        })
    }) && count == len
}

/// Where a value is, as a chain of steps from the root: written out only for an error, so
/// that reading plain data builds no string for each value it reads.
struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Step<'a>,
    /// How many tables lie between the root and this value.
    depth: usize,
}

enum Step<'a> {
    Root(&'a str),
    Key(&'a str),
    Index(i64),
}

impl<'a> Path<'a> {
    fn root(name: &'a str) -> Self {
        Path {
            parent: None,
            step: Step::Root(name),
            depth: 0,
        }
    }

    fn child(&'a self, step: Step<'a>) -> Path<'a> {
        Path {
            parent: Some(self),
            step,
            depth: self.depth + 1,
        }
    }

    /// The path's ancestor `depth` steps from the root (itself if none that deep).
    fn at_depth(&self, depth: usize) -> &Path<'a> {
        let mut path = self;
        while path.depth > depth
            && let Some(parent) = path.parent
        {
            path = parent;
        }
        path
    }
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(parent) = self.parent {
            write!(f, "{parent}")?;
        }
        match &self.step {
            Step::Root(name) => write!(f, "{name}"),
            Step::Key(key) => write!(f, ".{key}"),
            Step::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// One conversion's running counts and the tables on the current path (a table met again
/// on its own path is a cycle).
#[derive(Default)]
struct Converter {
    values: usize,
    bytes: usize,
    open: Vec<*const c_void>,
}

/// A path as errors show it: a very long one (a deep or repeated nesting) is cut in the
/// middle.
fn shown(path: &Path<'_>) -> String {
    let path = path.to_string();
    let chars: Vec<char> = path.chars().collect();
    if chars.len() <= 100 {
        return path;
    }
    let head: String = chars[..50].iter().collect();
    let tail: String = chars[chars.len() - 40..].iter().collect();
    format!("{head}…{tail}")
}

impl Converter {
    fn count(&mut self, path: &Path<'_>, bytes: usize) -> Result<(), String> {
        self.values += 1;
        self.bytes = self.bytes.saturating_add(bytes);
        if self.values > MAX_VALUES {
            return Err(format!(
                "{}: more than {MAX_VALUES} values to copy (plain data is copied in full, \
                 and a sub-table used in several places is copied each time: keep it smaller)",
                shown(path)
            ));
        }
        if self.bytes > MAX_BYTES {
            return Err(format!(
                "{}: more than {} MiB of text to copy (keep plain data smaller)",
                shown(path),
                MAX_BYTES / (1024 * 1024)
            ));
        }
        Ok(())
    }

    fn convert(&mut self, value: &LuaValue, path: &Path<'_>) -> Result<Value, String> {
        stack::with_value(value, |walk, slot, at| {
            self.convert_slot(walk, slot, at, path)
        })
        .unwrap_or_else(|| Err(format!("{path}: the table could not be read")))
    }

    /// Reads one value; a table's entries are read through `walk` from the stack index `at`.
    fn convert_slot(
        &mut self,
        walk: Option<&Walk>,
        slot: Slot<'_>,
        at: c_int,
        path: &Path<'_>,
    ) -> Result<Value, String> {
        match slot {
            Slot::Nil => Ok(Value::Nil),
            Slot::Bool(b) => {
                self.count(path, 0)?;
                Ok(Value::Bool(b))
            }
            Slot::Int(i) => {
                self.count(path, 0)?;
                Ok(Value::Int(i))
            }
            Slot::Float(f) if f.is_finite() => {
                self.count(path, 0)?;
                Ok(Value::Float(f))
            }
            Slot::Float(f) => Err(format!(
                "{path}: the number {f} is not finite (plain data holds finite numbers only)"
            )),
            Slot::Str(bytes) => {
                self.count(path, bytes.len())?;
                std::str::from_utf8(bytes)
                    .map(|s| Value::Str(s.to_owned()))
                    .map_err(|_| format!("{path}: strings must be UTF-8 text"))
            }
            Slot::Table(id, meta) => match walk {
                Some(walk) => self.convert_table(walk, id, meta, at, path),
                None => Err(format!("{path}: the table could not be read")),
            },
            Slot::Other(name) => Err(format!(
                "{path}: a {name} is not plain data (only nil, booleans, numbers, strings and tables of them)"
            )),
        }
    }

    fn convert_table(
        &mut self,
        walk: &Walk,
        id: *const c_void,
        meta: bool,
        at: c_int,
        path: &Path<'_>,
    ) -> Result<Value, String> {
        if let Some(depth) = self.open.iter().position(|open| *open == id) {
            return Err(format!(
                "{path}: the table contains itself (it is {}); plain data cannot be cyclic",
                path.at_depth(depth)
            ));
        }
        if self.open.len() >= MAX_DEPTH {
            return Err(format!(
                "{}: nested more than {MAX_DEPTH} deep (plain data must be flatter)",
                shown(path)
            ));
        }
        if meta {
            return Err(format!(
                "{path}: a table with a metatable is not plain data (copy module data into a new table first)"
            ));
        }
        self.count(path, 0)?;
        self.open.push(id);
        let result = self.table_entries(walk, at, path);
        self.open.pop();
        result
    }

    fn table_entries(&mut self, walk: &Walk, at: c_int, path: &Path<'_>) -> Result<Value, String> {
        let mut ints: BTreeMap<i64, Value> = BTreeMap::new();
        let mut strings: BTreeMap<String, Value> = BTreeMap::new();
        let mut failed = None;
        let read = walk.entries(at, &mut |walk, key, value, at| {
            let entry = match key {
                Slot::Int(i) => self
                    .convert_slot(Some(walk), value, at, &path.child(Step::Index(i)))
                    .map(|item| {
                        ints.insert(i, item);
                    }),
                Slot::Str(bytes) => self.count(path, bytes.len()).and_then(|()| {
                    let key = std::str::from_utf8(bytes)
                        .map_err(|_| format!("{path}: keys must be UTF-8 text"))?
                        .to_owned();
                    let item =
                        self.convert_slot(Some(walk), value, at, &path.child(Step::Key(&key)))?;
                    strings.insert(key, item);
                    Ok(())
                }),
                other => Err(format!(
                    "{path}: a {} key is not allowed (keys are strings, or 1..n for a list)",
                    other.type_name()
                )),
            };
            entry.map_err(|e| failed = Some(e)).is_ok()
        });
        if let Some(err) = failed {
            return Err(err);
        }
        if !read {
            return Err(format!(
                "{}: nested too deep to read (plain data must be flatter)",
                shown(path)
            ));
        }
        match (ints.is_empty(), strings.is_empty()) {
            (true, false) => Ok(Value::Map(strings)),
            (_, true) => {
                let n = ints.len() as i64;
                if ints.keys().copied().eq(1..=n) {
                    Ok(Value::List(ints.into_values().collect()))
                } else {
                    Err(format!(
                        "{path}: a list must use the keys 1..n without holes"
                    ))
                }
            }
            (false, false) => Err(format!("{path}: a table must be a list or a map, not both")),
        }
    }
}

/// Plain data from a Lua table; an empty table is an empty map.
pub(super) fn plain(t: mlua::Table, what: &str) -> Result<Value, String> {
    let value = from_lua(&LuaValue::Table(t), what)?;
    Ok(if matches!(&value, Value::List(l) if l.is_empty()) {
        Value::map()
    } else {
        value
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map holding a mixed list, a flag and the `extra` entries.
    fn sample(extra: impl IntoIterator<Item = (&'static str, Value)>) -> Value {
        let mut map = BTreeMap::from([
            (
                "list".to_owned(),
                Value::List(vec![Value::Int(1), Value::from("two"), Value::Float(2.5)]),
            ),
            ("flag".to_owned(), Value::Bool(true)),
        ]);
        map.extend(extra.into_iter().map(|(k, v)| (k.to_owned(), v)));
        Value::Map(map)
    }

    #[test]
    fn plain_data_round_trips() {
        let lua = Lua::new();
        let value = sample([]);
        let lua_value = to_lua(&lua, &value).expect("converts");
        assert_eq!(from_lua(&lua_value, "v"), Ok(value));
    }

    #[test]
    fn a_table_is_the_same_as_plain_data_only_when_reading_it_gives_that_data() {
        let lua = Lua::new();
        let value = sample([("empty", Value::List(Vec::new()))]);
        let lua_value = to_lua(&lua, &value).expect("converts");
        assert!(same(&lua_value, &value, true));
        // Each change a hook could make, and what reading the table back would then give.
        let changes = [
            "t.flag = false",
            "t.list[3] = 2.0",
            "t.list[2] = 2",
            "t.list[4] = 1",
            "t.list[3] = nil",
            "t.extra = 1",
            "t.empty = nil",
            "t.empty[1] = 0",
            "setmetatable(t.empty, {})",
            "t.list[1] = 1.0",
            "t.list[3] = -0.0 * 0 + 2.5000001",
        ];
        for change in changes {
            let t = to_lua(&lua, &value).expect("converts");
            let f: mlua::Function = lua
                .load(format!("return function(t) {change} end"))
                .eval()
                .expect("valid Lua");
            f.call::<()>(t.clone()).expect("runs");
            assert!(!same(&t, &value, true), "{change}");
            assert_ne!(from_lua(&t, "v").ok().as_ref(), Some(&value), "{change}");
        }
        // An empty table: at the top a map, nested a list.
        let empty = to_lua(&lua, &Value::map()).expect("converts");
        assert!(same(&empty, &Value::map(), true));
        assert!(!same(&empty, &Value::map(), false));
        assert!(same(&empty, &Value::List(Vec::new()), false));
        // Negative zero is not zero to the bit.
        assert!(!same(&LuaValue::Number(-0.0), &Value::Float(0.0), false));
    }

    #[test]
    fn a_table_shared_in_two_places_is_copied_twice() {
        let lua = Lua::new();
        let value: LuaValue = lua
            .load("local t = {1}; return {a = t, b = t}")
            .eval()
            .expect("valid Lua");
        let one = Value::List(vec![Value::Int(1)]);
        let expected = Value::Map(BTreeMap::from([
            ("a".to_owned(), one.clone()),
            ("b".to_owned(), one),
        ]));
        assert_eq!(from_lua(&value, "v"), Ok(expected));
    }

    #[test]
    fn refuses_what_is_not_plain_data() {
        let lua = Lua::new();
        let cases = [
            (
                "return {f = function() end}",
                "v.f: a function is not plain data",
            ),
            (
                "return {1, 2, nil, 4}",
                "v: a list must use the keys 1..n without holes",
            ),
            (
                "return {1, x = 2}",
                "v: a table must be a list or a map, not both",
            ),
            (
                "local t = {}; t.t = t; return t",
                "v.t: the table contains itself (it is v)",
            ),
            (
                "local t = {}; for i = 1, 60 do t = {a = t, b = t} end; return t",
                "more than 100000 values to copy",
            ),
            (
                "local t = {}; for i = 1, 70 do t = {t} end; return t",
                "nested more than 64 deep",
            ),
            ("return {x = 0/0}", "v.x: the number NaN is not finite"),
            ("return {x = '\\xff'}", "v.x: strings must be UTF-8 text"),
            (
                "return setmetatable({}, {})",
                "v: a table with a metatable is not plain data",
            ),
            ("return {[true] = 1}", "v: a boolean key is not allowed"),
        ];
        for (code, expected) in cases {
            let value: LuaValue = lua.load(code).eval().expect("valid Lua");
            let err = from_lua(&value, "v").expect_err(code);
            assert!(err.contains(expected), "{code}: {err}");
        }
    }
}
