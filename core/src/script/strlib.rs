//! `string.find`, `string.match`, `string.gmatch` and `string.gsub`, backed by the
//! budgeted matcher in [`super::pattern`] instead of Lua's C matcher.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Function, Lua, LuaString, MultiValue, Table, Value as LuaValue};

use super::budget::Budget;
use super::pattern::{CapLen, Matcher, PatternError, find_plain, is_plain};
use super::util::script_error;

/// Replaces the four pattern functions of the `string` table.
pub(super) fn install(lua: &Lua, string: &Table, budget: &Rc<Budget>) -> mlua::Result<()> {
    let b = budget.clone();
    let find = lua.create_function(
        move |lua, (s, pat, init, plain): (LuaString, LuaString, Option<i64>, Option<LuaValue>)| {
            let plain =
                plain.is_some_and(|v| !matches!(v, LuaValue::Nil | LuaValue::Boolean(false)));
            find_or_match(lua, &b, &s.as_bytes(), &pat.as_bytes(), init, plain, true)
        },
    )?;
    string.set("find", find)?;
    let b = budget.clone();
    let matcher = lua.create_function(
        move |lua, (s, pat, init): (LuaString, LuaString, Option<i64>)| {
            find_or_match(lua, &b, &s.as_bytes(), &pat.as_bytes(), init, false, false)
        },
    )?;
    string.set("match", matcher)?;
    let b = budget.clone();
    let gmatch = lua.create_function(
        move |lua, (s, pat, init): (LuaString, LuaString, Option<i64>)| {
            gmatch_iterator(
                lua,
                b.clone(),
                s.as_bytes().to_vec(),
                pat.as_bytes().to_vec(),
                init,
            )
        },
    )?;
    string.set("gmatch", gmatch)?;
    let b = budget.clone();
    let gsub = lua.create_function(
        move |lua, (s, pat, repl, n): (LuaString, LuaString, LuaValue, Option<i64>)| {
            gsub(lua, &b, &s.as_bytes(), &pat.as_bytes(), repl, n)
        },
    )?;
    string.set("gsub", gsub)?;
    Ok(())
}

fn pattern_error(lua: &Lua, budget: &Budget, function: &str, err: PatternError) -> mlua::Error {
    match err {
        PatternError::Bad(message) => script_error(lua, format!("string.{function}: {message}")),
        PatternError::Budget => {
            let trip = budget
                .tripped()
                .unwrap_or(super::budget::Trip::Instructions);
            script_error(lua, budget.message(trip))
        }
    }
}

/// A 1-based start position made absolute (Lua's rules for negative and zero positions).
fn start_position(init: Option<i64>, len: usize) -> usize {
    let len = len as i64;
    let pos = match init.unwrap_or(1) {
        p if p > 0 => p,
        0 => 1,
        p if p < -len => 1,
        p => len + p + 1,
    };
    usize::try_from(pos).unwrap_or(usize::MAX)
}

fn capture(
    lua: &Lua,
    src: &[u8],
    m: &Matcher<'_>,
    i: usize,
    s: usize,
    e: usize,
) -> mlua::Result<LuaValue> {
    match m.captures.get(i) {
        None if i == 0 => Ok(LuaValue::String(lua.create_string(&src[s..e])?)),
        None => Err(script_error(
            lua,
            format!("invalid capture index %{}", i + 1),
        )),
        Some(cap) => match cap.len {
            CapLen::Position => Ok(LuaValue::Integer(cap.start as i64 + 1)),
            CapLen::Open => Err(script_error(lua, "unfinished capture")),
            CapLen::Len(len) => Ok(LuaValue::String(
                lua.create_string(&src[cap.start..cap.start + len])?,
            )),
        },
    }
}

fn captures(
    lua: &Lua,
    src: &[u8],
    m: &Matcher<'_>,
    s: usize,
    e: usize,
) -> mlua::Result<Vec<LuaValue>> {
    let count = m.captures.len().max(1);
    (0..count).map(|i| capture(lua, src, m, i, s, e)).collect()
}

fn find_or_match(
    lua: &Lua,
    budget: &Budget,
    src: &[u8],
    pat: &[u8],
    init: Option<i64>,
    plain: bool,
    find: bool,
) -> mlua::Result<MultiValue> {
    let name = if find { "find" } else { "match" };
    let init = start_position(init, src.len());
    if init > src.len() + 1 {
        return Ok(MultiValue::from_iter([LuaValue::Nil]));
    }
    let start = init - 1;
    if find && (plain || is_plain(pat)) {
        return match find_plain(src, pat, start, budget)
            .map_err(|e| pattern_error(lua, budget, name, e))?
        {
            Some(at) => Ok(MultiValue::from_iter([
                LuaValue::Integer(at as i64 + 1),
                LuaValue::Integer((at + pat.len()) as i64),
            ])),
            None => Ok(MultiValue::from_iter([LuaValue::Nil])),
        };
    }
    let (anchored, p0) = if pat.first() == Some(&b'^') {
        (true, 1)
    } else {
        (false, 0)
    };
    let mut m = Matcher::new(src, pat, budget);
    let mut s = start;
    loop {
        let found = m
            .match_at(s, p0)
            .map_err(|e| pattern_error(lua, budget, name, e))?;
        if let Some(e) = found {
            m.settle()
                .map_err(|e| pattern_error(lua, budget, name, e))?;
            let mut out = Vec::new();
            if find {
                out.push(LuaValue::Integer(s as i64 + 1));
                out.push(LuaValue::Integer(e as i64));
                if !m.captures.is_empty() {
                    out.extend(captures(lua, src, &m, s, e)?);
                }
            } else {
                out.extend(captures(lua, src, &m, s, e)?);
            }
            return Ok(MultiValue::from_iter(out));
        }
        s += 1;
        if anchored || s > src.len() {
            break;
        }
    }
    m.settle()
        .map_err(|e| pattern_error(lua, budget, name, e))?;
    Ok(MultiValue::from_iter([LuaValue::Nil]))
}

struct GmatchState {
    src: Vec<u8>,
    pat: Vec<u8>,
    pos: usize,
    last_match: Option<usize>,
}

fn gmatch_iterator(
    lua: &Lua,
    budget: Rc<Budget>,
    src: Vec<u8>,
    pat: Vec<u8>,
    init: Option<i64>,
) -> mlua::Result<Function> {
    let pos = start_position(init, src.len()).saturating_sub(1);
    let state = RefCell::new(GmatchState {
        pos: pos.min(src.len() + 1),
        src,
        pat,
        last_match: None,
    });
    lua.create_function(move |lua, ()| {
        let mut st = state.borrow_mut();
        let GmatchState {
            src,
            pat,
            pos,
            last_match,
        } = &mut *st;
        let mut m = Matcher::new(src, pat, &budget);
        let mut s = *pos;
        while s <= src.len() {
            let found = m
                .match_at(s, 0)
                .map_err(|e| pattern_error(lua, &budget, "gmatch", e))?;
            if let Some(e) = found
                && Some(e) != *last_match
            {
                *pos = e;
                *last_match = Some(e);
                m.settle()
                    .map_err(|e| pattern_error(lua, &budget, "gmatch", e))?;
                return Ok(MultiValue::from_iter(captures(lua, src, &m, s, e)?));
            }
            s += 1;
        }
        *pos = src.len() + 1;
        m.settle()
            .map_err(|e| pattern_error(lua, &budget, "gmatch", e))?;
        Ok(MultiValue::from_iter([LuaValue::Nil]))
    })
}

fn gsub(
    lua: &Lua,
    budget: &Budget,
    src: &[u8],
    pat: &[u8],
    repl: LuaValue,
    n: Option<i64>,
) -> mlua::Result<(LuaString, i64)> {
    match &repl {
        LuaValue::String(_)
        | LuaValue::Integer(_)
        | LuaValue::Number(_)
        | LuaValue::Table(_)
        | LuaValue::Function(_) => {}
        other => {
            return Err(script_error(
                lua,
                format!(
                    "string.gsub: argument 3 must be a string, table or function, got {}",
                    other.type_name()
                ),
            ));
        }
    }
    let max = n.unwrap_or(src.len() as i64 + 1);
    let (anchored, p0) = if pat.first() == Some(&b'^') {
        (true, 1)
    } else {
        (false, 0)
    };
    let mut m = Matcher::new(src, pat, budget);
    let mut out: Vec<u8> = Vec::with_capacity(src.len());
    let (mut s, mut last_match, mut count) = (0usize, None, 0i64);
    while count < max {
        let found = m
            .match_at(s, p0)
            .map_err(|e| pattern_error(lua, budget, "gsub", e))?;
        match found {
            Some(e) if Some(e) != last_match => {
                count += 1;
                add_replacement(lua, budget, &mut out, src, &m, (s, e), &repl)?;
                check_room(lua, budget, out.len())?;
                s = e;
                last_match = Some(e);
            }
            _ if s < src.len() => {
                out.push(src[s]);
                s += 1;
            }
            _ => break,
        }
        if anchored {
            break;
        }
    }
    m.settle()
        .map_err(|e| pattern_error(lua, budget, "gsub", e))?;
    out.extend_from_slice(&src[s.min(src.len())..]);
    check_room(lua, budget, out.len())?;
    Ok((lua.create_string(&out)?, count))
}

/// A result `len` bytes long, built outside the VM, must fit in what is left of the VM's
/// memory limit, as if Lua had built it.
fn check_room(lua: &Lua, budget: &Budget, len: usize) -> mlua::Result<()> {
    let limit = budget.memory_limit();
    if lua.used_memory().saturating_add(len) > limit {
        return Err(script_error(
            lua,
            format!(
                "string.gsub: out of memory: the result would pass the module's memory limit of {} MiB",
                limit / (1024 * 1024)
            ),
        ));
    }
    Ok(())
}

fn add_replacement(
    lua: &Lua,
    budget: &Budget,
    out: &mut Vec<u8>,
    src: &[u8],
    m: &Matcher<'_>,
    (s, e): (usize, usize),
    repl: &LuaValue,
) -> mlua::Result<()> {
    let value = match repl {
        LuaValue::Table(t) => t.get::<LuaValue>(capture(lua, src, m, 0, s, e)?)?,
        LuaValue::Function(f) => {
            f.call::<LuaValue>(MultiValue::from_iter(captures(lua, src, m, s, e)?))?
        }
        text => {
            let template = lua
                .coerce_string(text.clone())?
                .map(|t| t.as_bytes().to_vec())
                .unwrap_or_default();
            let mut i = 0;
            while i < template.len() {
                let c = template[i];
                i += 1;
                if c != b'%' {
                    out.push(c);
                    continue;
                }
                match template.get(i) {
                    Some(b'%') => out.push(b'%'),
                    Some(d) if d.is_ascii_digit() => {
                        let piece = if *d == b'0' {
                            LuaValue::String(lua.create_string(&src[s..e])?)
                        } else {
                            capture(lua, src, m, usize::from(d - b'1'), s, e)?
                        };
                        if let Some(text) = lua.coerce_string(piece)? {
                            out.extend_from_slice(&text.as_bytes());
                            check_room(lua, budget, out.len())?;
                        }
                    }
                    _ => {
                        return Err(script_error(
                            lua,
                            "invalid use of '%' in replacement string",
                        ));
                    }
                }
                i += 1;
            }
            return Ok(());
        }
    };
    match value {
        LuaValue::Nil | LuaValue::Boolean(false) => out.extend_from_slice(&src[s..e]),
        LuaValue::String(_) | LuaValue::Integer(_) | LuaValue::Number(_) => {
            if let Some(text) = lua.coerce_string(value)? {
                out.extend_from_slice(&text.as_bytes());
            }
        }
        other => {
            return Err(script_error(
                lua,
                format!("invalid replacement value (a {})", other.type_name()),
            ));
        }
    }
    Ok(())
}
