//! Small helpers of the Lua host: positions of the calling script line, and turning mlua
//! errors into the one-line messages module designers read.

use mlua::Lua;

/// `file:line` of the innermost Lua function on the stack (the script line that called
/// into Rust), or `None` when no Lua code is running.
pub(crate) fn caller_position(lua: &Lua) -> Option<String> {
    script_position(lua, 1)
}

/// `file:line` of the innermost module or library frame at or above stack `level`,
/// skipping C functions and the sandbox's own prelude.
pub(crate) fn script_position(lua: &Lua, level: usize) -> Option<String> {
    for level in level..level + 40 {
        let found = lua.inspect_stack(level, |debug| {
            let source = debug.source();
            let file = source.short_src.map(|s| s.into_owned()).unwrap_or_default();
            if source.what == "C" || file == "prelude" {
                return None;
            }
            Some(match debug.current_line() {
                Some(line) => format!("{file}:{line}"),
                None => file,
            })
        });
        match found {
            None => return None,
            Some(Some(position)) => return Some(position),
            Some(None) => continue,
        }
    }
    None
}

/// A runtime error raised from Rust that names the script line that caused it.
pub(crate) fn script_error(lua: &Lua, message: impl std::fmt::Display) -> mlua::Error {
    match caller_position(lua) {
        Some(position) => mlua::Error::runtime(format!("{position}: {message}")),
        None => mlua::Error::runtime(message),
    }
}

/// The frames of a Lua traceback that `ours` accepts (lines of the module's scripts, or of
/// a test file), innermost first.
pub(crate) fn our_frames(traceback: Option<&str>, ours: impl Fn(&str) -> bool) -> Vec<&str> {
    traceback
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|l| ours(l))
        .collect()
}

/// `message` with a position in front: its own if it has one (`file.lua:line:`), else the
/// innermost of `frames` (`file:line`), else `None`. Lua gives some errors no position (a
/// yield outside a coroutine, an error raised with a table).
pub(crate) fn with_position(message: &str, frames: &[&str]) -> Option<String> {
    if has_position(message) {
        return Some(message.to_owned());
    }
    let frame = frames.first()?;
    let at = frame.split(": in ").next().unwrap_or(frame);
    Some(format!("{}: {message}", at.trim_end_matches(':')))
}

/// Whether `message` starts with a script position, `some/file.lua:12:`.
fn has_position(message: &str) -> bool {
    let Some((file, rest)) = message.split_once(".lua:") else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    !file.contains(char::is_whitespace) && digits > 0 && rest[digits..].starts_with(':')
}

/// Whether `err` is the VM running out of memory (Lua gives such an error no position).
pub(crate) fn is_memory_error(err: &mlua::Error) -> bool {
    match err {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            is_memory_error(cause)
        }
        _ => false,
    }
}

/// An error message, or, for an error raised with a table or another value that is not
/// text (`error({code = 1})`), what happened instead of the value's address.
fn error_object(msg: &str) -> String {
    for kind in ["table", "function", "userdata", "thread"] {
        if let Some(address) = msg.strip_prefix(&format!("{kind}: 0x"))
            && address.chars().all(|c| c.is_ascii_hexdigit())
        {
            return format!(
                "error() was given a {kind}, not a message (raise errors with a string: error(\"what went wrong\"))"
            );
        }
    }
    msg.to_owned()
}

/// The message of an mlua error without mlua's wrapping, and the Lua traceback if any.
pub(crate) fn describe(err: &mlua::Error) -> (String, Option<String>) {
    let mut traceback = None;
    let mut err = err;
    while let mlua::Error::CallbackError {
        cause,
        traceback: tb,
    } = err
    {
        traceback = Some(tb.clone());
        err = cause;
    }
    let message = match err {
        mlua::Error::RuntimeError(msg) => match msg.split_once("\nstack traceback:") {
            Some((msg, tb)) => {
                traceback.get_or_insert_with(|| format!("stack traceback:{tb}"));
                error_object(msg)
            }
            None => error_object(msg),
        },
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::MemoryError(_) => {
            "out of memory: the script tried to use more memory than a module may".to_owned()
        }
        mlua::Error::WithContext { context, cause } => format!("{context}: {}", describe(cause).0),
        mlua::Error::BadArgument {
            to,
            pos,
            name,
            cause,
        } => {
            let what = name.clone().unwrap_or_else(|| format!("#{pos}"));
            match to {
                Some(to) => format!("bad argument {what} to '{to}': {}", describe(cause).0),
                None => format!("bad argument {what}: {}", describe(cause).0),
            }
        }
        other => other.to_string(),
    };
    (message, traceback)
}

/// `t[key]`, read without a protected call when `t` has no metatable (nothing of the
/// module's can run then); through `__index` when it has one.
pub(crate) fn field<V: mlua::FromLua>(lua: &Lua, t: &mlua::Table, key: &str) -> mlua::Result<V> {
    super::interned::with(lua, key, |key| {
        if t.metatable().is_none() {
            t.raw_get(key)
        } else {
            t.get(key)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::with_position;

    #[test]
    fn a_message_without_a_position_takes_the_innermost_frame_s() {
        let frames = [
            "rules/main.lua:7: in upvalue 'f'",
            "rules/main.lua:9: in function <x>",
        ];
        assert_eq!(
            with_position("attempt to yield from outside a coroutine", &frames).as_deref(),
            Some("rules/main.lua:7: attempt to yield from outside a coroutine")
        );
        assert_eq!(
            with_position("rules/turn.lua:3: bad", &frames).as_deref(),
            Some("rules/turn.lua:3: bad")
        );
        assert_eq!(with_position("out of memory", &[]), None);
        assert_eq!(
            with_position("see rules/x.lua: nothing", &frames).as_deref(),
            Some("rules/main.lua:7: see rules/x.lua: nothing")
        );
    }
}
