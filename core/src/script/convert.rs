//! Converting between plain data ([`Value`]) and Lua values, refusing anything that is not
//! plain data (functions, userdata, coroutines, metatables, mixed keys, cycles).

use std::collections::BTreeMap;

use mlua::{Lua, Table, Value as LuaValue};

use crate::value::Value;

/// How deep plain data may nest (deeper is taken for a cycle).
const MAX_DEPTH: usize = 64;

/// Builds the Lua value for `value`.
pub(crate) fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    Ok(match value {
        Value::Nil => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Integer(*i),
        Value::Float(f) => LuaValue::Number(*f),
        Value::Str(s) => LuaValue::String(lua.create_string(s)?),
        Value::List(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, to_lua(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
        Value::Map(m) => {
            let t = lua.create_table_with_capacity(0, m.len())?;
            for (k, v) in m {
                t.raw_set(k.as_str(), to_lua(lua, v)?)?;
            }
            LuaValue::Table(t)
        }
    })
}

/// Reads `value` as plain data; `path` names it in errors (`ctx.vars.round`).
pub(crate) fn from_lua(value: &LuaValue, path: &str) -> Result<Value, String> {
    convert(value, path, 0)
}

fn convert(value: &LuaValue, path: &str, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "{path}: nested more than {MAX_DEPTH} deep (a table that contains itself?)"
        ));
    }
    match value {
        LuaValue::Nil => Ok(Value::Nil),
        LuaValue::Boolean(b) => Ok(Value::Bool(*b)),
        LuaValue::Integer(i) => Ok(Value::Int(*i)),
        LuaValue::Number(f) if f.is_finite() => Ok(Value::Float(*f)),
        LuaValue::Number(f) => Err(format!("{path}: the number {f} is not finite")),
        LuaValue::String(s) => s
            .to_str()
            .map(|s| Value::Str(s.to_string()))
            .map_err(|_| format!("{path}: strings must be UTF-8 text")),
        LuaValue::Table(t) => convert_table(t, path, depth),
        other => Err(format!(
            "{path}: a {} is not plain data (only nil, booleans, numbers, strings and tables of them)",
            other.type_name()
        )),
    }
}

fn convert_table(t: &Table, path: &str, depth: usize) -> Result<Value, String> {
    if t.metatable().is_some() {
        return Err(format!(
            "{path}: a table with a metatable is not plain data (copy module data into a new table first)"
        ));
    }
    let mut ints: BTreeMap<i64, Value> = BTreeMap::new();
    let mut strings: BTreeMap<String, Value> = BTreeMap::new();
    for pair in t.pairs::<LuaValue, LuaValue>() {
        let (k, v) = pair.map_err(|e| format!("{path}: {e}"))?;
        match k {
            LuaValue::Integer(i) => {
                let item = convert(&v, &format!("{path}[{i}]"), depth + 1)?;
                ints.insert(i, item);
            }
            LuaValue::String(s) => {
                let key = s
                    .to_str()
                    .map_err(|_| format!("{path}: keys must be UTF-8 text"))?
                    .to_string();
                let item = convert(&v, &format!("{path}.{key}"), depth + 1)?;
                strings.insert(key, item);
            }
            other => {
                return Err(format!(
                    "{path}: a {} key is not allowed (keys are strings, or 1..n for a list)",
                    other.type_name()
                ));
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_data_round_trips() {
        let lua = Lua::new();
        let value = Value::Map(BTreeMap::from([
            (
                "list".to_owned(),
                Value::List(vec![Value::Int(1), Value::from("two"), Value::Float(2.5)]),
            ),
            ("flag".to_owned(), Value::Bool(true)),
        ]));
        let lua_value = to_lua(&lua, &value).expect("converts");
        assert_eq!(from_lua(&lua_value, "v"), Ok(value));
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
                "nested more than 64 deep",
            ),
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
