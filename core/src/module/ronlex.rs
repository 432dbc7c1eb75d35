//! The one RON tokenizer of the module loader: what locates an error in a file that parsed
//! (`locate.rs`) and what changes one value of the owner's overlay in place (`ronedit.rs`)
//! read the same tokens, each with its byte span and its line and column. Comments and
//! white space are left out; strings (with escapes), raw strings and character literals are
//! read as their content.

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// A name: a field, a struct's name, a bare value (`unknown`, `true`).
    Ident(String),
    /// A string, raw string or character literal, as its content.
    Str(String),
    /// A number as written (`-3`, `0.5`, `1_000`).
    Number(String),
    /// `(`, `[` or `{`.
    Open(char),
    /// `)`, `]` or `}`.
    Close(char),
    Colon,
    Comma,
    /// Any other character (`#`, `!` of an attribute).
    Other(char),
}

/// A token and where it lies: byte offsets, and the line and column (from 1, in
/// characters) of its first character.
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub col: usize,
}

/// The tokens of `text`, and whether it ended cleanly: `false` when a string or comment
/// runs to the end of the text (the tokens before it are still given).
pub(super) fn lex(text: &str) -> (Vec<Token>, bool) {
    let mut lexer = Lexer {
        text,
        chars: text.char_indices().collect(),
        i: 0,
        line: 1,
        col: 1,
        tokens: Vec::new(),
    };
    let complete = lexer.run();
    (lexer.tokens, complete)
}

struct Lexer<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    /// The index in `chars` of the next character.
    i: usize,
    line: usize,
    col: usize,
    tokens: Vec<Token>,
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).map(|(_, c)| *c)
    }

    /// The byte offset of the next character (the text's length at its end).
    fn offset(&self) -> usize {
        self.chars
            .get(self.i)
            .map_or(self.text.len(), |(at, _)| *at)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    /// Reads every token; false if a string or comment does not end.
    fn run(&mut self) -> bool {
        while let Some(c) = self.peek(0) {
            let (start, line, col) = (self.offset(), self.line, self.col);
            let tok = match c {
                c if c.is_whitespace() => {
                    self.bump();
                    continue;
                }
                '/' if self.peek(1) == Some('/') => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                    continue;
                }
                '/' if self.peek(1) == Some('*') => {
                    if !self.block_comment() {
                        return false;
                    }
                    continue;
                }
                '"' => match self.string('"') {
                    Some(content) => Tok::Str(content),
                    None => return false,
                },
                '\'' => match self.string('\'') {
                    Some(content) => Tok::Str(content),
                    None => return false,
                },
                'r' if matches!(self.peek(1), Some('#' | '"')) => match self.raw_string() {
                    Some(content) => Tok::Str(content),
                    None => return false,
                },
                '(' | '[' | '{' => {
                    self.bump();
                    Tok::Open(c)
                }
                ')' | ']' | '}' => {
                    self.bump();
                    Tok::Close(c)
                }
                ':' => {
                    self.bump();
                    Tok::Colon
                }
                ',' => {
                    self.bump();
                    Tok::Comma
                }
                c if c.is_alphabetic() || c == '_' => {
                    Tok::Ident(self.word(|c| c.is_alphanumeric() || c == '_'))
                }
                c if c.is_ascii_digit()
                    || (matches!(c, '-' | '+')
                        && self.peek(1).is_some_and(|d| d.is_ascii_digit())) =>
                {
                    self.bump();
                    let rest = self.word(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
                    Tok::Number(format!("{c}{rest}"))
                }
                c => {
                    self.bump();
                    Tok::Other(c)
                }
            };
            self.tokens.push(Token {
                tok,
                start,
                end: self.offset(),
                line,
                col,
            });
        }
        true
    }

    fn word(&mut self, part: impl Fn(char) -> bool) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek(0).filter(|c| part(*c)) {
            word.push(c);
            self.bump();
        }
        word
    }

    /// A comment `/* … */`, nested ones inside; false if it does not end.
    fn block_comment(&mut self) -> bool {
        let mut depth = 0usize;
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some('/'), Some('*')) => {
                    depth += 1;
                    self.bump();
                    self.bump();
                }
                (Some('*'), Some('/')) => {
                    depth -= 1;
                    self.bump();
                    self.bump();
                    if depth == 0 {
                        return true;
                    }
                }
                (Some(_), _) => {
                    self.bump();
                }
                (None, _) => return false,
            }
        }
    }

    /// A string or character literal closed by `quote`, escapes read; None if it does not
    /// end.
    fn string(&mut self, quote: char) -> Option<String> {
        self.bump();
        let mut content = String::new();
        loop {
            match self.bump()? {
                c if c == quote => return Some(content),
                '\\' => content.push(match self.bump()? {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    '0' => '\0',
                    other => other,
                }),
                c => content.push(c),
            }
        }
    }

    /// A raw string `r#"…"#` (any number of `#`, or none); None if it does not end.
    fn raw_string(&mut self) -> Option<String> {
        self.bump();
        let mut hashes = 0;
        while self.peek(0) == Some('#') {
            hashes += 1;
            self.bump();
        }
        if self.bump()? != '"' {
            return None;
        }
        let mut content = String::new();
        loop {
            let c = self.bump()?;
            if c == '"' && (0..hashes).all(|k| self.peek(k) == Some('#')) {
                for _ in 0..hashes {
                    self.bump();
                }
                return Some(content);
            }
            content.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Tok, lex};

    #[test]
    fn every_kind_of_token_with_its_span_and_position() {
        let text = "Data( // note\n  a: \"x\\\"y\", b: r#\"raw \"q\"\"#, c: -3.5, d: 'z', /* c /* n */ */ e: [unknown] )";
        let (tokens, complete) = lex(text);
        assert!(complete);
        let kinds: Vec<&Tok> = tokens.iter().map(|t| &t.tok).collect();
        assert_eq!(
            kinds,
            vec![
                &Tok::Ident("Data".into()),
                &Tok::Open('('),
                &Tok::Ident("a".into()),
                &Tok::Colon,
                &Tok::Str("x\"y".into()),
                &Tok::Comma,
                &Tok::Ident("b".into()),
                &Tok::Colon,
                &Tok::Str("raw \"q\"".into()),
                &Tok::Comma,
                &Tok::Ident("c".into()),
                &Tok::Colon,
                &Tok::Number("-3.5".into()),
                &Tok::Comma,
                &Tok::Ident("d".into()),
                &Tok::Colon,
                &Tok::Str("z".into()),
                &Tok::Comma,
                &Tok::Ident("e".into()),
                &Tok::Colon,
                &Tok::Open('['),
                &Tok::Ident("unknown".into()),
                &Tok::Close(']'),
                &Tok::Close(')'),
            ]
        );
        let a = &tokens[2];
        assert_eq!((a.line, a.col, &text[a.start..a.end]), (2, 3, "a"));
        let s = &tokens[4];
        assert_eq!(&text[s.start..s.end], "\"x\\\"y\"");
        let raw = &tokens[8];
        assert_eq!(&text[raw.start..raw.end], "r#\"raw \"q\"\"#");
    }

    #[test]
    fn a_string_or_comment_that_does_not_end_is_said() {
        assert!(!lex("(a: \"open").1);
        assert!(!lex("(a: 1) /* open").1);
        assert!(!lex("(a: r#\"open\")").1);
        assert!(lex("(a: \"é\")").1);
    }
}
