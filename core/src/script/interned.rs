//! Lua strings made once per VM for the short texts the host hands to scripts and looks up
//! again and again: field names (`name`, `arg`), ids of cards, zones, boxes and unit
//! kinds. Under a memory limit mlua makes every new string inside a protected call; a
//! string made once and pushed by reference costs a fraction of that.
//!
//! Strings are immutable, so sharing them between calls and games shares no state.

use std::cell::RefCell;
use std::collections::HashMap;

use mlua::Lua;

/// Texts longer than this are made afresh each time (Lua interns only short strings, and
/// long texts — log lines, messages — rarely repeat).
const MAX_LEN: usize = 40;
/// At most this many strings are kept (ids of a large module fit many times over).
const MAX_KEPT: usize = 8192;

/// Short keys hash faster with FNV-1a than with the standard hasher. A module could choose
/// texts that collide, but the store holds at most [`MAX_KEPT`] of them, so a lookup never
/// compares more than that.
type Fast = std::hash::BuildHasherDefault<crate::digest::Fnv64>;

#[derive(Default)]
struct Interned(RefCell<HashMap<Box<str>, mlua::LuaString, Fast>>);

/// Gives `lua` its string store; call once per VM.
pub(crate) fn install(lua: &Lua) {
    lua.set_app_data(Interned::default());
}

/// `text` as a Lua string: the kept one for a short text, else a new one.
pub(crate) fn string(lua: &Lua, text: &str) -> mlua::Result<mlua::LuaString> {
    with(lua, text, |s| Ok(s.clone()))
}

/// Calls `f` with `text` as a Lua string, without copying a kept one.
pub(crate) fn with<R>(
    lua: &Lua,
    text: &str,
    f: impl FnOnce(&mlua::LuaString) -> mlua::Result<R>,
) -> mlua::Result<R> {
    // (Never borrowed twice: `f` only reads or writes a table, it makes no string.)
    if text.len() <= MAX_LEN
        && let Some(store) = lua.app_data_ref::<Interned>()
        && let Ok(mut kept) = store.0.try_borrow_mut()
    {
        if let Some(found) = kept.get(text) {
            return f(found);
        }
        let made = lua.create_string(text)?;
        if kept.len() < MAX_KEPT {
            kept.insert(text.into(), made.clone());
        }
        return f(&made);
    }
    f(&lua.create_string(text)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_made_once_and_a_long_one_each_time() {
        let lua = Lua::new();
        install(&lua);
        let a = string(&lua, "discard.north").expect("made");
        let b = string(&lua, "discard.north").expect("made");
        assert_eq!(a.to_str().expect("text"), "discard.north");
        assert_eq!(b.to_str().expect("text"), "discard.north");
        let long = "x".repeat(MAX_LEN + 1);
        let c = string(&lua, &long).expect("made");
        assert_eq!(c.to_str().expect("text"), long.as_str());
        assert_eq!(
            lua.app_data_ref::<Interned>()
                .expect("store")
                .0
                .borrow()
                .len(),
            1
        );
    }
}
