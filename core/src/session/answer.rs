//! Answers written as text, the way answers files, the command line and module tests write
//! them: `[SEAT:] name [arg] [| die die …]` (`A: play stadion | 4`), or a change by hand,
//! `[SEAT:] by hand: move_card CARD ZONE` (see [`Answer::parse`]).

use crate::ids::SeatId;
use crate::rules::Choice;
use crate::table::Position;
use crate::value::Value;

use super::{Actor, Input, Manual};

/// One answer to a prompt, read from a line of text.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The seat answering (needed when several seats decide at once).
    pub seat: Option<SeatId>,
    /// The action's name (or, for the command line, its number in the list).
    pub name: String,
    /// Its argument: a number, `true`/`false`, a JSON list or map, or else the text.
    pub arg: Value,
    /// Die results for the step, with physical dice.
    pub dice: Vec<i64>,
    /// A change by hand instead of an answer to the prompt.
    pub manual: Option<Manual>,
}

/// The words of a change by hand: `move_card CARD ZONE [top|bottom]`, `deal N FROM TO…`,
/// `place PIECE PLACE SPACE`, `remove_piece PIECE`, `add_units BOX KIND N`, `move_units FROM TO KIND N`,
/// `set_counter COUNTER N`, `note TEXT`.
fn parse_manual(text: &str) -> Result<Manual, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |word: &str| {
        word.parse::<i64>()
            .map_err(|_| format!("'{word}' is not a number"))
    };
    let usage = "a change by hand is one of: move_card CARD ZONE [top|bottom], deal N FROM ZONE [ZONE…], \
                 place PIECE PLACE SPACE, \
                 remove_piece PIECE, add_units BOX KIND N, move_units FROM TO KIND N, set_counter COUNTER N, note TEXT";
    match words.as_slice() {
        ["move_card", card, zone, rest @ ..] if rest.len() <= 1 => Ok(Manual::MoveCard {
            card: (*card).into(),
            to: (*zone).into(),
            position: match rest.first() {
                None | Some(&"top") => Position::Top,
                Some(&"bottom") => Position::Bottom,
                Some(other) => return Err(format!("position '{other}' is not top or bottom")),
            },
        }),
        ["deal", n, from, to @ ..] if !to.is_empty() => Ok(Manual::Deal {
            from: (*from).into(),
            to: to.iter().map(|z| (*z).into()).collect(),
            count: u32::try_from(number(n)?)
                .map_err(|_| format!("'{n}' is not a number of cards"))?,
        }),
        ["place", piece, place, space] => Ok(Manual::PlacePiece {
            piece: (*piece).into(),
            place: (*place).into(),
            space: (*space).into(),
        }),
        ["remove_piece", piece] => Ok(Manual::RemovePiece {
            piece: (*piece).into(),
        }),
        ["add_units", boxed, kind, n] => Ok(Manual::AddUnits {
            boxed: (*boxed).into(),
            kind: (*kind).into(),
            delta: number(n)?,
        }),
        ["move_units", from, to, kind, n] => Ok(Manual::MoveUnits {
            from: (*from).into(),
            to: (*to).into(),
            kind: (*kind).into(),
            count: number(n)?,
        }),
        ["set_counter", counter, n] => Ok(Manual::SetCounter {
            counter: (*counter).into(),
            value: number(n)?,
        }),
        ["note", ..] if words.len() > 1 => Ok(Manual::Note {
            text: text
                .trim_start()
                .trim_start_matches("note")
                .trim()
                .to_owned(),
        }),
        _ => Err(format!("'{}': {usage}", text.trim())),
    }
}

/// `text` without its `SEAT:` prefix, and that seat.
fn split_seat(text: &str) -> (Option<SeatId>, &str) {
    match text.split_once(char::is_whitespace) {
        Some((first, rest))
            if first.len() > 1 && first.ends_with(':') && !first.starts_with('"') =>
        {
            (Some(SeatId::from(&first[..first.len() - 1])), rest.trim())
        }
        _ => (None, text),
    }
}

/// Where `wanted` first stands in `text` outside a JSON string (`"…"`, with its `\`
/// escapes).
pub fn find_outside_quotes(text: &str, wanted: char) -> Option<usize> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match (quoted, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') => quoted = false,
            (false, _, '"') => quoted = true,
            (false, _, c) if c == wanted => return Some(i),
            _ => {}
        }
    }
    None
}

/// The JSON string `text` starts with, and the bytes it takes; `None` if `text` does not
/// start with a quote.
fn json_string_at_start(text: &str) -> Option<Result<(String, usize), String>> {
    if !text.starts_with('"') {
        return None;
    }
    let mut strings = serde_json::Deserializer::from_str(text).into_iter::<String>();
    Some(match strings.next() {
        Some(Ok(s)) => Ok((s, strings.byte_offset())),
        Some(Err(e)) => Err(e.to_string()),
        None => Err("an empty quote".to_owned()),
    })
}

/// `text` as one bare word if it reads back as `value` and holds nothing an answers line
/// reads as a mark, else as a JSON string.
fn word_or_quoted(text: &str, value: &Value) -> String {
    let bare = !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '#' | '|' | '"'))
        && !text.starts_with(['{', '['])
        && !text.ends_with(':')
        && Value::parse_arg(text) == *value;
    match bare {
        true => text.to_owned(),
        false => serde_json::to_string(text).unwrap_or_default(),
    }
}

impl Answer {
    /// Reads `[SEAT:] name [arg] [| die die …]`, or `[SEAT:] by hand: CHANGE` (a change by
    /// hand, as a player makes on the physical board: `by hand: place PIECE PLACE SPACE`);
    /// the error says what is wrong. A name or an argument may be written as a JSON string
    /// (`"a name" "a text with # and | in it"`), which is how [`Answer::to_line`] writes any
    /// that a bare word could not carry.
    pub fn parse(text: &str) -> Result<Answer, String> {
        let (seat_part, rest) = split_seat(text.trim());
        if let Some(change) = rest.strip_prefix("by hand:") {
            return Ok(Answer {
                seat: seat_part,
                name: "by hand".to_owned(),
                arg: Value::Nil,
                dice: Vec::new(),
                manual: Some(parse_manual(change)?),
            });
        }
        let (action, dice) = match find_outside_quotes(rest, '|') {
            Some(at) => (rest[..at].trim(), rest[at + 1..].trim()),
            None => (rest, ""),
        };
        let (name, arg) = match json_string_at_start(action) {
            Some(Ok((name, used))) => (name, action[used..].trim()),
            Some(Err(e)) => return Err(format!("the quoted action name cannot be read: {e}")),
            None => {
                let mut words = action.splitn(2, char::is_whitespace);
                let name = words.next().unwrap_or("").to_owned();
                (name, words.next().unwrap_or("").trim())
            }
        };
        if name.is_empty() {
            return Err("an answer needs an action name".to_owned());
        }
        let arg = match json_string_at_start(arg) {
            Some(Ok((text, used))) if arg[used..].trim().is_empty() => Value::Str(text),
            Some(Err(e)) => return Err(format!("the quoted argument cannot be read: {e}")),
            _ if arg.is_empty() => Value::Nil,
            _ => Value::parse_arg(arg),
        };
        let dice = dice
            .split_whitespace()
            .map(|d| {
                d.parse::<i64>()
                    .map_err(|_| format!("die '{d}' is not a number"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Answer {
            seat: seat_part,
            name,
            arg,
            dice,
            manual: None,
        })
    }

    /// The answer as one line of an answers file that [`Answer::parse`] reads back the same:
    /// a name or an argument that a bare word would not carry whole (a space, a line break,
    /// `#`, `|`, a quote, or text that would read as a number) is written as a JSON string,
    /// a list or a map as JSON. `None` for a change by hand, or an answer no line reads back
    /// the same (a seat id that is not a plain name).
    pub fn to_line(&self) -> Option<String> {
        if self.manual.is_some() {
            return None;
        }
        let mut line = String::new();
        if let Some(seat) = &self.seat {
            if !crate::ids::is_plain_name(seat.as_str()) {
                return None;
            }
            line.push_str(seat.as_str());
            line.push_str(": ");
        }
        line.push_str(&word_or_quoted(&self.name, &Value::Str(self.name.clone())));
        let arg = match &self.arg {
            Value::Nil => None,
            Value::Str(s) => Some(word_or_quoted(s, &self.arg)),
            Value::List(_) | Value::Map(_) => serde_json::to_string(&self.arg.to_json()).ok(),
            other => Some(other.to_string()),
        };
        if let Some(arg) = arg {
            line.push(' ');
            line.push_str(&arg);
        }
        if !self.dice.is_empty() {
            let dice: Vec<String> = self.dice.iter().map(i64::to_string).collect();
            line.push_str(" | ");
            line.push_str(&dice.join(" "));
        }
        (Answer::parse(&line).as_ref() == Ok(self)).then_some(line)
    }
    /// The input a person makes with this answer.
    pub fn input(&self) -> Input {
        if let Some(change) = &self.manual {
            return Input::Manual {
                seat: self.seat.clone(),
                change: change.clone(),
            };
        }
        Input::Act {
            seat: self.seat.clone(),
            choice: Choice {
                name: self.name.clone(),
                arg: self.arg.clone(),
            },
            dice: self.dice.clone(),
            by: Actor::Human,
        }
    }
}

/// An answers file, read: whose orders it is, if it says (its first line that is not a
/// comment, `orders of SEAT`), and each answer with its line number (from 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnswersFile {
    /// The seat whose orders the file holds, named by its `orders of SEAT` line.
    pub orders_of: Option<SeatId>,
    /// The answers, each with the line it was read from.
    pub answers: Vec<(usize, Answer)>,
}

/// The words that start the line naming whose orders a file holds.
pub const ORDERS_OF: &str = "orders of ";

impl AnswersFile {
    /// Reads an answers file: one answer a line (see [`Answer::parse`]), `#` starting a
    /// comment outside quotes, and first, optionally, `orders of SEAT`. The error gives the
    /// line number.
    pub fn parse(text: &str) -> Result<AnswersFile, (usize, String)> {
        let mut file = AnswersFile::default();
        for (i, line) in text.lines().enumerate() {
            let line = match find_outside_quotes(line, '#') {
                Some(at) => &line[..at],
                None => line,
            }
            .trim();
            if line.is_empty() {
                continue;
            }
            if let Some(seat) = line.strip_prefix(ORDERS_OF) {
                let seat = seat.trim();
                if !file.answers.is_empty() || file.orders_of.is_some() {
                    return Err((
                        i + 1,
                        "'orders of SEAT' names whose orders the file holds, once, before any answer".to_owned(),
                    ));
                }
                if !crate::ids::is_plain_name(seat) {
                    return Err((
                        i + 1,
                        format!("'{}' is not a seat's id", super::shortened(seat)),
                    ));
                }
                file.orders_of = Some(SeatId::from(seat));
                continue;
            }
            file.answers
                .push((i + 1, Answer::parse(line).map_err(|e| (i + 1, e))?));
        }
        Ok(file)
    }

    /// Checks that every answer is one `seat` could give at its own screen, as a player's
    /// orders must be: no answer for another seat, no change by hand (those are the
    /// umpire's), no die results unless the game rolls physical dice. The error gives the
    /// first line refused and why; nothing has been applied.
    pub fn check_orders_of(
        &self,
        seat: &SeatId,
        physical_dice: bool,
        seat_name: &dyn Fn(&SeatId) -> String,
    ) -> Result<(), (usize, String)> {
        let name = seat_name(seat);
        for (line, answer) in &self.answers {
            if let Some(other) = &answer.seat
                && other != seat
            {
                return Err((
                    *line,
                    format!(
                        "an answer for {}, in {name}'s orders: a seat's orders answer for that seat alone",
                        seat_name(other)
                    ),
                ));
            }
            if answer.manual.is_some() {
                return Err((
                    *line,
                    format!(
                        "a change by hand, in {name}'s orders: changes by hand are the umpire's to make, \
                         never a player's orders (ask the umpire for it in words)"
                    ),
                ));
            }
            if !answer.dice.is_empty() && !physical_dice {
                return Err((
                    *line,
                    format!(
                        "die results, in {name}'s orders: this game rolls its own dice, so no orders may give them"
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_seat_name_argument_and_dice() {
        let answer = Answer::parse("A: play stadion | 4 2").expect("parses");
        assert_eq!(answer.seat, Some(SeatId::from("A")));
        assert_eq!(answer.name, "play");
        assert_eq!(answer.arg, Value::from("stadion"));
        assert_eq!(answer.dice, vec![4, 2]);
        let plain = Answer::parse("bid 2").expect("parses");
        assert_eq!((plain.seat, plain.arg), (None, Value::Int(2)));
        assert!(Answer::parse("recruit | x").is_err());
        assert!(Answer::parse("  ").is_err());
    }

    #[test]
    fn reads_changes_by_hand() {
        let moved = Answer::parse("by hand: move_card card1 hand.A bottom").expect("parses");
        assert_eq!(
            moved.input(),
            Input::Manual {
                seat: None,
                change: Manual::MoveCard {
                    card: "card1".into(),
                    to: "hand.A".into(),
                    position: Position::Bottom,
                },
            }
        );
        let placed = Answer::parse("B: by hand: place marker map north").expect("parses");
        assert_eq!(placed.seat, Some(SeatId::from("B")));
        assert!(matches!(placed.manual, Some(Manual::PlacePiece { .. })));
        let added = Answer::parse("by hand: add_units army infantry -1").expect("parses");
        assert!(matches!(
            added.manual,
            Some(Manual::AddUnits { delta: -1, .. })
        ));
        let err = Answer::parse("by hand: add_units army infantry many").expect_err("refused");
        assert!(err.contains("'many' is not a number"), "{err}");
        let err = Answer::parse("by hand: fly away").expect_err("refused");
        assert!(err.contains("a change by hand is one of"), "{err}");
    }
}
