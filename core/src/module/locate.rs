//! Finds where a value sits in a RON file, so that errors found after parsing (an unknown
//! id, a duplicate, a wrong field type) can name the exact line and column.
//!
//! serde hands us values without positions, so we tokenize the source once and search the
//! token stream for a path of anchors: "the struct whose `id` is `"stadion"`, then its key
//! `"issues"`, then the string `"holand"`". Each anchor is searched after the previous one.

use super::ronlex::{Tok, Token, lex};

/// One step of a search path.
#[derive(Clone, Debug)]
pub enum Anchor<'a> {
    /// A struct field `name: "value"` (the identifier, a colon, then the string).
    Field(&'a str, &'a str),
    /// A struct field name followed by a colon; as the last anchor, it points at the value.
    Ident(&'a str),
    /// A map key: the string followed by a colon.
    Key(&'a str),
    /// Any string literal with this content.
    Str(&'a str),
}

/// A tokenized RON source.
#[derive(Clone, Debug, Default)]
pub struct Locator {
    tokens: Vec<Token>,
}

impl Locator {
    /// Tokenizes `text`. Malformed input is tokenized as far as it goes; locating is
    /// best-effort and only runs on files that already parsed.
    pub fn new(text: &str) -> Self {
        Locator {
            tokens: lex(text).0,
        }
    }

    /// The position (line, col) of the last anchor of `path`; if some anchor is missing,
    /// the position of the last one found, and (1, 1) if none was.
    pub fn locate(&self, path: &[Anchor<'_>]) -> (usize, usize) {
        let mut from = 0;
        let mut found = (1, 1);
        for anchor in path {
            match self.find(anchor, from) {
                Some(i) => {
                    let token = &self.tokens[self.anchor_focus(anchor, i)];
                    found = (token.line, token.col);
                    from = i + 1;
                }
                None => break,
            }
        }
        found
    }

    /// The identifier right after the map key or field found by `path`, if the value there
    /// is a bare identifier (used to tell `unknown` from a misspelling).
    pub fn ident_after(&self, path: &[Anchor<'_>]) -> Option<String> {
        let mut from = 0;
        let mut last = None;
        for anchor in path {
            let i = self.find(anchor, from)?;
            last = Some(i);
            from = i + 1;
        }
        // The anchor is a key or field: skip it and its colon.
        let value = self.tokens.get(last? + 2)?;
        match &value.tok {
            Tok::Ident(name) => Some(name.clone()),
            _ => None,
        }
    }

    /// Every position of `anchor` in the file, in order.
    pub fn locate_all(&self, anchor: &Anchor<'_>) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        let mut from = 0;
        while let Some(i) = self.find(anchor, from) {
            let token = &self.tokens[self.anchor_focus(anchor, i)];
            found.push((token.line, token.col));
            from = i + 1;
        }
        found
    }

    fn anchor_focus(&self, anchor: &Anchor<'_>, start: usize) -> usize {
        let focus = match anchor {
            Anchor::Field(..) | Anchor::Ident(_) => start + 2,
            _ => start,
        };
        focus.min(self.tokens.len().saturating_sub(1))
    }

    fn find(&self, anchor: &Anchor<'_>, from: usize) -> Option<usize> {
        let t = &self.tokens;
        let is_colon = |i: usize| matches!(t.get(i).map(|t| &t.tok), Some(Tok::Colon));
        (from..t.len()).find(|&i| match anchor {
            Anchor::Field(name, value) => {
                matches!(&t[i].tok, Tok::Ident(n) if n == name)
                    && is_colon(i + 1)
                    && matches!(t.get(i + 2).map(|t| &t.tok), Some(Tok::Str(v)) if v == value)
            }
            Anchor::Ident(name) => {
                matches!(&t[i].tok, Tok::Ident(n) if n == name) && is_colon(i + 1)
            }
            Anchor::Key(key) => matches!(&t[i].tok, Tok::Str(k) if k == key) && is_colon(i + 1),
            Anchor::Str(value) => matches!(&t[i].tok, Tok::Str(v) if v == value),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = r#"Data(
    // a comment with "stadion" in it
    cards: [
        Card(id: "alpha", name: "Alpha", fields: {"issues": ["stadion"]}),
        Card(
            id: "stadion",
            name: "Stadion",
            fields: {"value": 3, "issues": ["holand"], "cdg": Unknwn},
        ),
    ],
)"#;

    #[test]
    fn finds_a_value_inside_the_right_struct() {
        let loc = Locator::new(SOURCE);
        let path = [
            Anchor::Field("id", "stadion"),
            Anchor::Key("issues"),
            Anchor::Str("holand"),
        ];
        assert_eq!(loc.locate(&path), (8, 45));
    }

    #[test]
    fn a_field_anchor_points_at_the_value() {
        let loc = Locator::new(SOURCE);
        assert_eq!(loc.locate(&[Anchor::Field("id", "stadion")]), (6, 17));
    }

    #[test]
    fn a_missing_anchor_stops_at_the_last_found() {
        let loc = Locator::new(SOURCE);
        let path = [Anchor::Field("id", "stadion"), Anchor::Key("nothing")];
        assert_eq!(loc.locate(&path), (6, 17));
    }

    #[test]
    fn reads_a_bare_identifier_value() {
        let loc = Locator::new(SOURCE);
        let path = [Anchor::Field("id", "stadion"), Anchor::Key("cdg")];
        assert_eq!(loc.ident_after(&path).as_deref(), Some("Unknwn"));
    }
}
