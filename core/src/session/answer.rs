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

impl Answer {
    /// Reads `[SEAT:] name [arg] [| die die …]`, or `[SEAT:] by hand: CHANGE` (a change by
    /// hand, as a player makes on the physical board: `by hand: place PIECE PLACE SPACE`);
    /// the error says what is wrong.
    pub fn parse(text: &str) -> Result<Answer, String> {
        let (seat_part, rest) = match text.trim().split_once(char::is_whitespace) {
            Some((first, rest)) if first.len() > 1 && first.ends_with(':') => {
                (Some(SeatId::from(&first[..first.len() - 1])), rest.trim())
            }
            _ => (None, text.trim()),
        };
        if let Some(change) = rest.strip_prefix("by hand:") {
            return Ok(Answer {
                seat: seat_part,
                name: "by hand".to_owned(),
                arg: Value::Nil,
                dice: Vec::new(),
                manual: Some(parse_manual(change)?),
            });
        }
        let (action, dice) = match text.split_once('|') {
            Some((action, dice)) => (action.trim(), dice.trim()),
            None => (text.trim(), ""),
        };
        let (seat, action) = match action.split_once(char::is_whitespace) {
            Some((first, rest)) if first.len() > 1 && first.ends_with(':') => {
                (Some(SeatId::from(&first[..first.len() - 1])), rest.trim())
            }
            _ => (None, action),
        };
        let mut words = action.splitn(2, char::is_whitespace);
        let name = words.next().unwrap_or("").to_owned();
        if name.is_empty() {
            return Err("an answer needs an action name".to_owned());
        }
        let arg = words
            .next()
            .map(|a| Value::parse_arg(a.trim()))
            .unwrap_or(Value::Nil);
        let dice = dice
            .split_whitespace()
            .map(|d| {
                d.parse::<i64>()
                    .map_err(|_| format!("die '{d}' is not a number"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Answer {
            seat,
            name,
            arg,
            dice,
            manual: None,
        })
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
