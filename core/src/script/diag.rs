//! Lua errors as compiler-style diagnostics: the file, the line, and a column found from
//! the token Lua names (`near 'x'`) or the name it quotes (`undeclared global 'x'`).

use crate::module::{Diagnostic, Module};

/// Turns a Lua message (`rules/main.lua:12: unexpected symbol near 'x'`) into a diagnostic.
pub(crate) fn from_lua_error(module: &Module, message: &str) -> Diagnostic {
    for script in &module.scripts {
        let prefix = format!("{}:", script.rel);
        let Some(rest) = message.strip_prefix(&prefix) else {
            continue;
        };
        let Some((line_text, text)) = rest.split_once(':') else {
            continue;
        };
        let Ok(line) = line_text.parse::<usize>() else {
            continue;
        };
        let text = text.trim();
        let col = syntax_column(&script.rel, &script.text, line, text)
            .unwrap_or_else(|| column_of(&script.text, line, text));
        return Diagnostic::error(&script.path, line, col, fix_paths(module, text));
    }
    Diagnostic::error(&module.dir, 0, 0, fix_paths(module, message))
}

/// A diagnostic at the last line of script `rel`.
pub(crate) fn at_end(module: &Module, rel: &str, message: String) -> Diagnostic {
    match module.scripts.iter().find(|s| s.rel == rel) {
        Some(script) => {
            let line = script.text.lines().count().max(1);
            Diagnostic::error(&script.path, line, 1, message)
        }
        None => Diagnostic::error(&module.dir, 0, 0, message),
    }
}

/// A diagnostic at the first `key =` (or `key(`) in script `rel`, else at its end.
pub(crate) fn at_key(module: &Module, rel: &str, key: &str, message: String) -> Diagnostic {
    let Some(script) = module.scripts.iter().find(|s| s.rel == rel) else {
        return Diagnostic::error(&module.dir, 0, 0, message);
    };
    for (i, line) in script.text.lines().enumerate() {
        for (col, _) in line.match_indices(key) {
            let before = line[..col].chars().last();
            let after = line[col + key.len()..].trim_start();
            let starts_word = before.is_none_or(|c| !c.is_alphanumeric() && c != '_');
            if starts_word
                && (after.starts_with('=') && !after.starts_with("==") || after.starts_with('('))
            {
                return Diagnostic::error(&script.path, i + 1, col + 1, message);
            }
        }
    }
    at_end(module, rel, message)
}

/// A diagnostic where a Lua function is defined: the line of its `function`, at the first
/// mention of `token` (the key it is stored under) on that line or the few lines before it.
pub(crate) fn at_function(
    module: &Module,
    info: &mlua::function::FunctionInfo,
    token: &str,
    message: String,
) -> Diagnostic {
    let chunk = info.source.as_deref().unwrap_or("").trim_start_matches('@');
    let Some(script) = module.scripts.iter().find(|s| s.rel == chunk) else {
        return Diagnostic::error(&module.dir, 0, 0, message);
    };
    let line = info.line_defined.unwrap_or(1).max(1);
    let lines: Vec<&str> = script.text.lines().collect();
    for at in (line.saturating_sub(3).max(1)..=line).rev() {
        if let Some(byte) = lines.get(at - 1).and_then(|text| text.find(token)) {
            let col = lines[at - 1][..byte].chars().count() + 1;
            return Diagnostic::error(&script.path, at, col, message);
        }
    }
    let col = lines.get(line - 1).map_or(1, |text| {
        text.chars().take_while(|c| c.is_whitespace()).count() + 1
    });
    Diagnostic::error(&script.path, line, col, message)
}

/// For a syntax error `near 'tok'`: the column of the occurrence of `tok` on `line` where
/// Lua stops. Lua stops at the first token it cannot parse, so cutting the source just
/// after that occurrence, or after any later one, gives the same error, and cutting it after
/// an earlier one does not: a binary search over the occurrences finds it in a few parses,
/// however long the line.
fn syntax_column(rel: &str, source: &str, line: usize, message: &str) -> Option<usize> {
    let token = message.rsplit_once("near '")?.1.strip_suffix('\'')?;
    if token.is_empty() {
        return None;
    }
    let line_start: usize = source
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let text = source.lines().nth(line - 1)?;
    let lua = mlua::Lua::new_with(mlua::StdLib::NONE, mlua::LuaOptions::default()).ok()?;
    let wanted = format!("{rel}:{line}: {message}");
    let same_error = |byte: usize| {
        let cut = &source[..line_start + byte + token.len()];
        let chunk = lua
            .load(cut)
            .set_name(format!("@{rel}"))
            .set_mode(mlua::chunk::ChunkMode::Text);
        chunk
            .into_function()
            .is_err_and(|err| super::util::describe(&err).0 == wanted)
    };
    let found: Vec<usize> = text.match_indices(token).map(|(byte, _)| byte).collect();
    let first = found.partition_point(|&byte| !same_error(byte));
    let byte = *found.get(first)?;
    Some(text[..byte].chars().count() + 1)
}

/// The column of the token a Lua message points at on `line` of `source`: the text after
/// `near`, or a name in quotes; the first non-blank column otherwise.
fn column_of(source: &str, line: usize, message: &str) -> usize {
    let Some(text) = source.lines().nth(line.saturating_sub(1)) else {
        return 1;
    };
    let first_blank = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
    if message.ends_with("near <eof>") {
        return text.chars().count() + 1;
    }
    let quoted = message
        .rsplit_once("near '")
        .or_else(|| message.split_once('\''))
        .and_then(|(_, rest)| rest.rsplit_once('\'').map(|(token, _)| token));
    match quoted {
        Some(token) if !token.is_empty() => match text.find(token) {
            Some(byte) => text[..byte].chars().count() + 1,
            None => first_blank,
        },
        _ => first_blank,
    }
}

/// Rewrites chunk names in `text` (`rules/main.lua:3:`) to the module's file paths.
pub(crate) fn fix_paths(module: &Module, text: &str) -> String {
    let mut scripts: Vec<_> = module.scripts.iter().collect();
    scripts.sort_by_key(|s| std::cmp::Reverse(s.rel.len()));
    let mut out = text.to_owned();
    for script in scripts {
        let needle = format!("{}:", script.rel);
        let full = format!("{}:", script.path.display());
        if needle == full {
            continue;
        }
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(&needle) {
            let boundary = rest[..at]
                .chars()
                .last()
                .is_none_or(|c| c.is_whitespace() || "(\"'[<".contains(c));
            result.push_str(&rest[..at]);
            result.push_str(if boundary { &full } else { &needle });
            rest = &rest[at + needle.len()..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::column_of;

    #[test]
    fn finds_the_token_named_by_near() {
        let source = "local a = 1\nlocal b = = 2\n";
        assert_eq!(column_of(source, 2, "unexpected symbol near '='"), 9);
    }

    #[test]
    fn finds_a_quoted_name() {
        let source = "x = 1\n  return foo + 1\n";
        assert_eq!(column_of(source, 2, "undeclared global 'foo'"), 10);
    }

    #[test]
    fn eof_points_past_the_line() {
        assert_eq!(column_of("local t = {", 1, "'}' expected near <eof>"), 12);
    }
}
