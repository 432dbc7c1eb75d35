//! Answers written as text, the way answers files, the command line and module tests write
//! them: `[SEAT:] name [arg] [| die die …]` (`A: play stadion | 4`).

use crate::ids::SeatId;
use crate::rules::Choice;
use crate::value::Value;

use super::{Actor, Input};

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
}

impl Answer {
    /// Reads `[SEAT:] name [arg] [| die die …]`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Answer, String> {
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
        })
    }

    /// The input a person makes with this answer.
    pub fn input(&self) -> Input {
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
}
