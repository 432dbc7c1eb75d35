//! Lua 5.4 patterns, matched in Rust under the call's budget.
//!
//! Lua's own matcher runs in C, where instruction hooks never fire, so a pattern such as
//! `('a'):rep(400):find('.-.-.-b')` could hold the VM for many seconds. This matcher
//! follows the semantics of the Lua 5.4 manual (§6.4.1: classes, sets, the quantifiers
//! `* + - ?`, captures and position captures, `%b`, `%f`, back-references, anchors) and
//! counts every step against the same budget as the VM's instructions.

use super::budget::Budget;

/// The most captures a pattern may have (as in Lua).
pub const MAX_CAPTURES: usize = 32;
/// The deepest recursion a pattern may cause (as in Lua).
const MAX_DEPTH: usize = 200;
/// Steps counted locally before they are charged to the budget.
const CHARGE_EVERY: u64 = 1024;

/// Why matching stopped without an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// The pattern is malformed or too complex; the message says how.
    Bad(String),
    /// The call's budget ran out.
    Budget,
}

/// The length of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapLen {
    /// Opened but not closed yet.
    Open,
    /// A position capture `()`.
    Position,
    /// A closed capture of this many bytes.
    Len(usize),
}

/// One capture: its start in the subject and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    /// Byte offset in the subject.
    pub start: usize,
    /// Its length, or what kind of capture it is.
    pub len: CapLen,
}

/// A matcher for one subject and one pattern.
pub struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    budget: &'a Budget,
    /// The captures of the last successful match.
    pub captures: Vec<Capture>,
    depth: usize,
    pending: u64,
}

impl<'a> Matcher<'a> {
    /// A matcher of `pat` against `src`, charging `budget`.
    pub fn new(src: &'a [u8], pat: &'a [u8], budget: &'a Budget) -> Self {
        Matcher {
            src,
            pat,
            budget,
            captures: Vec::new(),
            depth: 0,
            pending: 0,
        }
    }

    /// Tries to match the pattern from byte `p` of the pattern at byte `s` of the subject;
    /// returns the end of the match.
    pub fn match_at(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        self.captures.clear();
        self.depth = 0;
        self.do_match(s, p)
    }

    /// Charges what is pending to the budget.
    pub fn settle(&mut self) -> Result<(), PatternError> {
        let pending = std::mem::take(&mut self.pending);
        match self.budget.consume(pending) {
            Some(_) => Err(PatternError::Budget),
            None => Ok(()),
        }
    }

    fn tick(&mut self) -> Result<(), PatternError> {
        self.pending += 1;
        if self.pending >= CHARGE_EVERY {
            self.settle()?;
        }
        Ok(())
    }

    fn do_match(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(PatternError::Bad("pattern too complex".into()));
        }
        let result = self.match_loop(s, p);
        self.depth -= 1;
        result
    }

    fn match_loop(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, PatternError> {
        loop {
            self.tick()?;
            let Some(&pc) = self.pat.get(p) else {
                return Ok(Some(s));
            };
            match pc {
                b'(' => {
                    return if self.pat.get(p + 1) == Some(&b')') {
                        self.start_capture(s, p + 2, CapLen::Position)
                    } else {
                        self.start_capture(s, p + 1, CapLen::Open)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                b'$' if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                b'%' if self.pat.get(p + 1) == Some(&b'b') => match self.match_balance(s, p + 2)? {
                    Some(end) => {
                        s = end;
                        p += 4;
                        continue;
                    }
                    None => return Ok(None),
                },
                b'%' if self.pat.get(p + 1) == Some(&b'f') => {
                    p += 2;
                    if self.pat.get(p) != Some(&b'[') {
                        return Err(PatternError::Bad(
                            "missing '[' after '%f' in pattern".into(),
                        ));
                    }
                    let ep = self.class_end(p)?;
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    let current = self.src.get(s).copied().unwrap_or(0);
                    if !self.match_set(previous, p, ep - 1) && self.match_set(current, p, ep - 1) {
                        p = ep;
                        continue;
                    }
                    return Ok(None);
                }
                b'%' if self.pat.get(p + 1).is_some_and(u8::is_ascii_digit) => {
                    match self.match_back_reference(s, self.pat[p + 1])? {
                        Some(end) => {
                            s = end;
                            p += 2;
                            continue;
                        }
                        None => return Ok(None),
                    }
                }
                _ => {
                    let ep = self.class_end(p)?;
                    let matches_here = s < self.src.len() && self.single_match(self.src[s], p, ep);
                    match self.pat.get(ep) {
                        Some(b'?') => {
                            if matches_here && let Some(end) = self.do_match(s + 1, ep + 1)? {
                                return Ok(Some(end));
                            }
                            p = ep + 1;
                        }
                        Some(b'+') => {
                            return if matches_here {
                                self.max_expand(s + 1, p, ep)
                            } else {
                                Ok(None)
                            };
                        }
                        Some(b'*') => return self.max_expand(s, p, ep),
                        Some(b'-') => return self.min_expand(s, p, ep),
                        _ => {
                            if !matches_here {
                                return Ok(None);
                            }
                            s += 1;
                            p = ep;
                        }
                    }
                }
            }
        }
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, PatternError> {
        let mut count = 0;
        while s + count < self.src.len() && self.single_match(self.src[s + count], p, ep) {
            self.tick()?;
            count += 1;
        }
        loop {
            if let Some(end) = self.do_match(s + count, ep + 1)? {
                return Ok(Some(end));
            }
            if count == 0 {
                return Ok(None);
            }
            count -= 1;
        }
    }

    fn min_expand(
        &mut self,
        mut s: usize,
        p: usize,
        ep: usize,
    ) -> Result<Option<usize>, PatternError> {
        loop {
            if let Some(end) = self.do_match(s, ep + 1)? {
                return Ok(Some(end));
            }
            if s < self.src.len() && self.single_match(self.src[s], p, ep) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(
        &mut self,
        s: usize,
        p: usize,
        len: CapLen,
    ) -> Result<Option<usize>, PatternError> {
        if self.captures.len() >= MAX_CAPTURES {
            return Err(PatternError::Bad("too many captures".into()));
        }
        self.captures.push(Capture { start: s, len });
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.captures.pop();
        }
        Ok(result)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        let Some(open) = self.captures.iter().rposition(|c| c.len == CapLen::Open) else {
            return Err(PatternError::Bad("invalid pattern capture".into()));
        };
        self.captures[open].len = CapLen::Len(s - self.captures[open].start);
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.captures[open].len = CapLen::Open;
        }
        Ok(result)
    }

    fn match_balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        let (Some(&open), Some(&close)) = (self.pat.get(p), self.pat.get(p + 1)) else {
            return Err(PatternError::Bad(
                "malformed pattern (missing arguments to '%b')".into(),
            ));
        };
        if self.src.get(s) != Some(&open) {
            return Ok(None);
        }
        let mut depth = 1;
        for i in s + 1..self.src.len() {
            self.tick()?;
            let c = self.src[i];
            if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some(i + 1));
                }
            } else if c == open {
                depth += 1;
            }
        }
        Ok(None)
    }

    fn match_back_reference(&mut self, s: usize, digit: u8) -> Result<Option<usize>, PatternError> {
        let index = usize::from(digit - b'1');
        let capture = match self.captures.get(index) {
            Some(c) if digit != b'0' => *c,
            _ => {
                return Err(PatternError::Bad(format!(
                    "invalid capture index %{}",
                    digit - b'0'
                )));
            }
        };
        let CapLen::Len(len) = capture.len else {
            return Err(PatternError::Bad(format!(
                "invalid capture index %{}",
                index + 1
            )));
        };
        let wanted = &self.src[capture.start..capture.start + len];
        self.pending += len as u64;
        Ok((self.src.len() - s >= len && &self.src[s..s + len] == wanted).then_some(s + len))
    }

    /// The index just past the single-character class that starts at `p`.
    fn class_end(&self, p: usize) -> Result<usize, PatternError> {
        let mut p = p;
        let c = self.pat[p];
        p += 1;
        if c == b'%' {
            if p >= self.pat.len() {
                return Err(PatternError::Bad(
                    "malformed pattern (ends with '%')".into(),
                ));
            }
            return Ok(p + 1);
        }
        if c == b'[' {
            if self.pat.get(p) == Some(&b'^') {
                p += 1;
            }
            // The first character of a set is never its end, so `[]]` is a set of ']'.
            loop {
                if p >= self.pat.len() {
                    return Err(PatternError::Bad("malformed pattern (missing ']')".into()));
                }
                let escaped = self.pat[p] == b'%';
                p += 1;
                if escaped && p < self.pat.len() {
                    p += 1;
                }
                if self.pat.get(p) == Some(&b']') {
                    return Ok(p + 1);
                }
            }
        }
        Ok(p)
    }

    fn single_match(&self, c: u8, p: usize, ep: usize) -> bool {
        match self.pat[p] {
            b'.' => true,
            b'%' => class_matches(c, self.pat[p + 1]),
            b'[' => self.match_set(c, p, ep - 1),
            literal => literal == c,
        }
    }

    /// Whether `c` is in the set that opens at `p` (`[`) and closes at `end` (`]`).
    fn match_set(&self, c: u8, p: usize, end: usize) -> bool {
        let mut p = p + 1;
        let negated = self.pat.get(p) == Some(&b'^');
        if negated {
            p += 1;
        }
        while p < end {
            let item = self.pat[p];
            if item == b'%' {
                p += 1;
                if class_matches(c, self.pat[p]) {
                    return !negated;
                }
            } else if self.pat.get(p + 1) == Some(&b'-') && p + 2 < end {
                if item <= c && c <= self.pat[p + 2] {
                    return !negated;
                }
                p += 2;
            } else if item == c {
                return !negated;
            }
            p += 1;
        }
        negated
    }
}

/// Whether `c` is in the class `%<class>` (an upper-case class is the complement); a
/// non-letter class is the character itself.
fn class_matches(c: u8, class: u8) -> bool {
    let result = match class.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        _ => return class == c,
    };
    if class.is_ascii_uppercase() {
        !result
    } else {
        result
    }
}

/// Whether a pattern has no special characters (so `find` may search it as plain text).
pub fn is_plain(pat: &[u8]) -> bool {
    !pat.iter().any(|c| b"^$*+?.([%-".contains(c))
}

/// Finds `needle` in `hay` from `from`, charging the budget; returns the start.
pub fn find_plain(
    hay: &[u8],
    needle: &[u8],
    from: usize,
    budget: &Budget,
) -> Result<Option<usize>, PatternError> {
    if needle.is_empty() {
        return Ok((from <= hay.len()).then_some(from));
    }
    let mut charged = 0u64;
    for start in from..hay.len().saturating_sub(needle.len() - 1) {
        charged += needle.len() as u64;
        if charged >= CHARGE_EVERY {
            if budget.consume(charged).is_some() {
                return Err(PatternError::Budget);
            }
            charged = 0;
        }
        if &hay[start..start + needle.len()] == needle {
            return Ok(Some(start));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::budget::Limits;

    fn first_match(src: &str, pat: &str) -> Option<(usize, usize)> {
        let budget = Budget::new(Limits::default());
        budget.start();
        let (anchored, p) = match pat.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, pat),
        };
        let mut m = Matcher::new(src.as_bytes(), p.as_bytes(), &budget);
        for s in 0..=src.len() {
            if let Some(e) = m.match_at(s, 0).expect("valid pattern") {
                return Some((s, e));
            }
            if anchored {
                break;
            }
        }
        None
    }

    #[test]
    fn classes_quantifiers_and_anchors() {
        assert_eq!(first_match("hello world", "o w"), Some((4, 7)));
        assert_eq!(first_match("abc123", "%d+"), Some((3, 6)));
        assert_eq!(first_match("  key = value", "%a+"), Some((2, 5)));
        assert_eq!(first_match("aaab", "a-b"), Some((0, 4)));
        assert_eq!(first_match("xay", "^a"), None);
        assert_eq!(first_match("abc", "c$"), Some((2, 3)));
        assert_eq!(first_match("color colour", "colou?r"), Some((0, 5)));
        assert_eq!(first_match("f(a(b)c)d", "%b()"), Some((1, 8)));
        assert_eq!(first_match("THE (quick) fox", "%f[%a]%a+"), Some((0, 3)));
        assert_eq!(first_match("x]y", "[]]"), Some((1, 2)));
        assert_eq!(first_match("a-z", "[%-]"), Some((1, 2)));
        assert_eq!(first_match("hello", "[^hel]"), Some((4, 5)));
    }

    #[test]
    fn captures_and_back_references() {
        let budget = Budget::new(Limits::default());
        budget.start();
        let src = b"say \"hi\" now";
        let pat = b"([\"'])(.-)%1";
        let mut m = Matcher::new(src, pat, &budget);
        let end = (0..src.len()).find_map(|s| m.match_at(s, 0).expect("valid").map(|e| (s, e)));
        assert_eq!(end, Some((4, 8)));
        assert_eq!(
            m.captures[1],
            Capture {
                start: 5,
                len: CapLen::Len(2)
            }
        );
    }

    #[test]
    fn malformed_patterns_are_reported() {
        let budget = Budget::new(Limits::default());
        budget.start();
        for (pat, msg) in [
            ("[a", "malformed pattern (missing ']')"),
            ("%", "malformed pattern (ends with '%')"),
            ("(a", ""),
            ("a)", "invalid pattern capture"),
            ("%1", "invalid capture index %1"),
        ] {
            let mut m = Matcher::new(b"aaa", pat.as_bytes(), &budget);
            match m.match_at(0, 0) {
                Err(PatternError::Bad(text)) => assert_eq!(text, msg, "pattern {pat}"),
                other => assert!(msg.is_empty(), "pattern {pat}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_pathological_pattern_runs_out_of_budget() {
        let budget = Budget::new(Limits {
            instructions: 1_000_000,
            ..Limits::default()
        });
        budget.start();
        let src = "a".repeat(400);
        let mut m = Matcher::new(src.as_bytes(), b".-.-.-b", &budget);
        let mut outcome = Ok(None);
        for s in 0..=src.len() {
            outcome = m.match_at(s, 0);
            if outcome.is_err() {
                break;
            }
        }
        assert_eq!(outcome, Err(PatternError::Budget));
    }
}
