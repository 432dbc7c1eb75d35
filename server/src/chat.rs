//! A table's chat: lines said to everyone at the table, and the umpire's private word to
//! one seat (or a seat's to the umpire). The chat is not the game: it changes nothing a
//! rule reads, and is kept beside the game's inputs, the last [`KEPT`] lines of each table.

use chancery_core::SeatId;
use serde::{Deserialize, Serialize};

/// The longest line, in characters.
pub const MAX_CHARS: usize = 500;
/// How many lines of a table the server keeps (and a seat reads when it joins).
pub const KEPT: usize = 200;
/// Lines a connection may say, on average, a second; with a burst of [`BURST`].
pub const RATE: f64 = 0.5;
/// Lines a connection may say at once before [`RATE`] holds it back.
pub const BURST: f64 = 5.0;

/// Who said a line: a seat, or the host.
pub const HOST: &str = "host";

/// One line of a table's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Its number at the table, from 1.
    pub n: u64,
    /// Who said it: a seat's id, or [`HOST`].
    pub from: String,
    /// Their name, as the table says it.
    pub from_name: String,
    /// The only seat it is said to (besides who said it), for a private word.
    pub to: Option<SeatId>,
    /// That seat's name.
    pub to_name: Option<String>,
    /// What was said.
    pub text: String,
    /// When, in seconds since 1970.
    pub at: i64,
}

impl ChatLine {
    /// Whether `seat` (a spectator's id for a spectator or the host) may read it: a line to
    /// everyone, or a private word it said or was said to.
    pub fn read_by(&self, seat: &SeatId) -> bool {
        match &self.to {
            None => true,
            Some(to) => to == seat || self.from == seat.as_str(),
        }
    }
}

/// The text of a line as it is kept: trimmed, each control character a space; an error if
/// nothing is left or it is too long.
pub fn clean(text: &str) -> Result<String, String> {
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let text = text.trim().to_owned();
    if text.is_empty() {
        return Err("say something: the line is empty".to_owned());
    }
    if text.chars().count() > MAX_CHARS {
        return Err(format!(
            "a line is at most {MAX_CHARS} characters: say it in several"
        ));
    }
    Ok(text)
}

/// Whether `from` may say a line to `to` at a table whose umpire is `umpire`: anyone to
/// everyone; a private word only from the umpire to a seat, or from a seat to the umpire.
pub fn may_say(from: &str, to: Option<&SeatId>, umpire: Option<&SeatId>) -> Result<(), String> {
    let Some(to) = to else {
        return Ok(());
    };
    let Some(umpire) = umpire else {
        return Err("this table has no umpire: a line is said to everyone at the table".to_owned());
    };
    if from == umpire.as_str() || to == umpire {
        return Ok(());
    }
    Err("a private word goes from the umpire to one seat, or from a seat to the umpire".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(from: &str, to: Option<&str>) -> ChatLine {
        ChatLine {
            n: 1,
            from: from.to_owned(),
            from_name: from.to_owned(),
            to: to.map(SeatId::from),
            to_name: None,
            text: "hello".to_owned(),
            at: 0,
        }
    }

    #[test]
    fn a_private_word_is_read_by_its_two_seats_only() {
        let word = line("UM", Some("FR"));
        assert!(word.read_by(&"FR".into()) && word.read_by(&"UM".into()));
        assert!(!word.read_by(&"AU".into()) && !word.read_by(&SeatId::spectator()));
        assert!(line("FR", None).read_by(&SeatId::spectator()));
    }

    #[test]
    fn only_the_umpire_s_private_words_are_said() {
        let um = SeatId::from("UM");
        assert!(may_say("UM", Some(&"FR".into()), Some(&um)).is_ok());
        assert!(may_say("FR", Some(&um), Some(&um)).is_ok());
        assert!(may_say("FR", Some(&"AU".into()), Some(&um)).is_err());
        assert!(may_say("FR", Some(&"AU".into()), None).is_err());
        assert!(may_say("FR", None, None).is_ok());
    }

    #[test]
    fn a_line_is_cleaned_and_bounded() {
        assert_eq!(clean("  hi\nthere \u{7}").as_deref(), Ok("hi there"));
        assert!(clean("   ").is_err());
        assert!(clean(&"x".repeat(MAX_CHARS + 1)).is_err());
    }
}
