//! Changing one value in a RON file's text and leaving everything else as it was: the
//! owner's comments, blank lines, order and layout. Used to store a value in the owner's
//! overlay. Only what the overlay needs is understood: a top-level struct, nested structs
//! `( … )` and maps `{ … }`, strings with escapes, raw strings and comments.

/// One step of a path to a value: a struct field or a map key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// A struct field, `name: value`.
    Field(&'a str),
    /// A map key, `"key": value`.
    Key(&'a str),
}

use super::ronlex::{Tok, Token, lex};

/// The index of the token closing the bracket opened at token `open`.
fn closing(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match t.tok {
            Tok::Open(_) => depth += 1,
            Tok::Close(_) => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The tokens of the value starting at token `at`: `(first, last)` inclusive.
fn value_span(tokens: &[Token], at: usize) -> Option<(usize, usize)> {
    let mut i = at;
    // A named struct or an enum variant: `Some(…)`, `BoardOverlay(…)`.
    if matches!(tokens.get(i)?.tok, Tok::Ident(_))
        && matches!(tokens.get(i + 1).map(|t| &t.tok), Some(Tok::Open('(')))
    {
        i += 1;
    }
    match tokens.get(i)?.tok {
        Tok::Open(_) => Some((at, closing(tokens, i)?)),
        Tok::Close(_) | Tok::Colon | Tok::Comma => None,
        // A word, a number (its sign and all) or a string: one token.
        _ => Some((at, i)),
    }
}

/// The bracket that opens the container the value at token `at` is (skipping a struct's
/// or variant's name), with the bracket's kind.
fn container_of(tokens: &[Token], at: usize) -> Option<(usize, char)> {
    let mut i = at;
    if matches!(tokens.get(i)?.tok, Tok::Ident(_)) {
        i += 1;
    }
    match tokens.get(i)?.tok {
        Tok::Open(c) if c == '(' || c == '{' => Some((i, c)),
        _ => None,
    }
}

/// The entry `step` directly inside the container opened at token `open`: the token index
/// of its value.
fn find_entry(tokens: &[Token], open: usize, step: Step<'_>) -> Option<usize> {
    let close = closing(tokens, open)?;
    let mut i = open + 1;
    while i < close {
        let named = match (&tokens[i].tok, step) {
            (Tok::Ident(name), Step::Field(field)) => name == field,
            (Tok::Str(key), Step::Key(wanted)) => key == wanted,
            _ => false,
        };
        if named && matches!(tokens.get(i + 1).map(|t| &t.tok), Some(Tok::Colon)) {
            return Some(i + 2);
        }
        // Skip this entry: its key, colon and value, then its comma.
        let (_, last) = value_span(tokens, i)?;
        i = last + 1;
        if matches!(tokens.get(i).map(|t| &t.tok), Some(Tok::Colon)) {
            let (_, last) = value_span(tokens, i + 1)?;
            i = last + 1;
        }
        if matches!(tokens.get(i).map(|t| &t.tok), Some(Tok::Comma)) {
            i += 1;
        }
    }
    None
}

/// A step written as RON: `name` or `"key"`.
fn step_text(step: Step<'_>) -> String {
    match step {
        Step::Field(name) => name.to_owned(),
        Step::Key(key) => {
            let mut quoted = String::from("\"");
            for c in key.chars() {
                match c {
                    '"' => quoted.push_str("\\\""),
                    '\\' => quoted.push_str("\\\\"),
                    '\n' => quoted.push_str("\\n"),
                    c => quoted.push(c),
                }
            }
            quoted.push('"');
            quoted
        }
    }
}

/// The value the steps `rest` lead to inside a new container, written on one line: for
/// `["a", "b"]` and `3`, `{"a": {"b": 3}}` (a field step makes a struct `( … )`).
fn nested(rest: &[Step<'_>], value: &str) -> String {
    match rest.split_first() {
        None => value.to_owned(),
        Some((step, more)) => {
            let (open, close) = match step {
                Step::Field(_) => ('(', ')'),
                Step::Key(_) => ('{', '}'),
            };
            format!("{open}{}: {}{close}", step_text(*step), nested(more, value))
        }
    }
}

/// The white space that starts the line holding byte `at`.
fn indent_of(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    &line[..line.len() - line.trim_start().len()]
}

/// `text` with the value at `path` set to `value` (RON text), every other byte as it was.
/// A missing entry is added at the end of its container, on a line of its own. `None` when
/// the text is not shaped as the path expects (the caller then writes the file anew).
pub fn set(text: &str, path: &[Step<'_>], value: &str) -> Option<String> {
    let (tokens, complete) = lex(text);
    if !complete {
        return None;
    }
    // The top-level struct: `Name( … )` or `( … )`.
    let first = tokens
        .iter()
        .position(|t| !matches!(t.tok, Tok::Other(_) | Tok::Number(_)))?;
    let (mut open, _) = container_of(&tokens, first)?;
    for (depth, step) in path.iter().enumerate() {
        let Some(at) = find_entry(&tokens, open, *step) else {
            return Some(insert(text, &tokens, open, &path[depth..], value));
        };
        if depth + 1 == path.len() {
            let (first, last) = value_span(&tokens, at)?;
            let mut out = text.to_owned();
            out.replace_range(tokens[first].start..tokens[last].end, value);
            return Some(out);
        }
        let kind;
        (open, kind) = container_of(&tokens, at)?;
        // A map inside a struct, or a struct inside a map, must be what the next step says.
        let want = match path[depth + 1] {
            Step::Field(_) => '(',
            Step::Key(_) => '{',
        };
        if kind != want {
            return None;
        }
    }
    None
}

/// Adds the entry `rest[0]` (holding what the rest of the steps lead to) at the end of the
/// container opened at token `open`.
fn insert(text: &str, tokens: &[Token], open: usize, rest: &[Step<'_>], value: &str) -> String {
    let entry = format!("{}: {}", step_text(rest[0]), nested(&rest[1..], value));
    let close = closing(tokens, open).unwrap_or(tokens.len() - 1);
    let before = &tokens[close - 1];
    let needs_comma = !matches!(before.tok, Tok::Comma | Tok::Open(_));
    let at = tokens[close].start;
    let mut out = String::with_capacity(text.len() + entry.len() + 8);
    // After the last entry (and its comma), so that a comment after it stays with it.
    let after_last = before.end;
    out.push_str(&text[..after_last]);
    if needs_comma {
        out.push(',');
    }
    let close_on_own_line = text[after_last..at].contains('\n');
    let outer = indent_of(text, at);
    if close_on_own_line || matches!(before.tok, Tok::Open(_)) {
        // One entry a line, one step deeper than the closing bracket.
        let gap = &text[after_last..at];
        let keep = gap.rfind('\n').map_or("", |i| &gap[..i]);
        out.push_str(keep);
        out.push_str(&format!("\n{outer}    {entry},\n{outer}"));
    } else {
        out.push_str(&format!(" {entry}"));
        out.push_str(&text[after_last..at]);
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERLAY: &str = r#"// My values, read off my copy (2026-11-20).
OverlayFile(
    module: "game",
    // Cards I checked twice.
    cards: {
        "alpha": {
            "value": 3, // the corner
        },
        "beta": { "value": 10 },
    },
    /* tables later */
)
"#;

    #[test]
    fn a_value_is_replaced_and_every_comment_stays() {
        let out = set(
            OVERLAY,
            &[Step::Field("cards"), Step::Key("alpha"), Step::Key("value")],
            "4",
        )
        .expect("set");
        assert_eq!(out, OVERLAY.replace("\"value\": 3,", "\"value\": 4,"));
    }

    #[test]
    fn missing_entries_are_added_on_lines_of_their_own() {
        let out = set(
            OVERLAY,
            &[Step::Field("cards"), Step::Key("alpha"), Step::Key("suit")],
            "\"moon\"",
        )
        .expect("set");
        assert!(
            out.contains(
                "\"value\": 3, // the corner\n            \"suit\": \"moon\",\n        },"
            ),
            "{out}"
        );
        let out = set(
            OVERLAY,
            &[Step::Field("cards"), Step::Key("beta"), Step::Key("rank")],
            "2",
        )
        .expect("set");
        assert!(
            out.contains("\"beta\": { \"value\": 10, \"rank\": 2 },"),
            "{out}"
        );
        let out = set(
            OVERLAY,
            &[Step::Field("tables"), Step::Key("field"), Step::Key("3")],
            "[1, 2]",
        )
        .expect("set");
        assert!(
            out.contains("    /* tables later */\n    tables: {\"field\": {\"3\": [1, 2]}},\n)"),
            "{out}"
        );
        assert!(out.starts_with("// My values, read off my copy"));
        let out = set(
            OVERLAY,
            &[
                Step::Field("boards"),
                Step::Key("field"),
                Step::Field("spaces"),
                Step::Key("land/north"),
            ],
            "(512.0, 240.0)",
        )
        .expect("set");
        assert!(
            out.contains("boards: {\"field\": (spaces: {\"land/north\": (512.0, 240.0)})},"),
            "{out}"
        );
    }

    #[test]
    fn text_shaped_otherwise_is_left_to_the_caller() {
        assert_eq!(set("\"not a struct\"", &[Step::Field("cards")], "1"), None);
        assert_eq!(
            set(
                "(cards: {\"a\": \"unterminated)",
                &[Step::Field("cards")],
                "1"
            ),
            None
        );
        // A struct where the path expects a map.
        assert_eq!(
            set(
                "(cards: (a: 1))",
                &[Step::Field("cards"), Step::Key("a"), Step::Key("b")],
                "1"
            ),
            None
        );
    }
}
