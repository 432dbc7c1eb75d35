//! Redacted saves: a game as one seat may know it, to mail to that seat.
//!
//! A redacted save holds the table as the seat sees it (each card it may not see is a
//! stand-in, "?1", "?2", …, in its place; the pieces and units fog hides from it are gone;
//! no other seat's private state or secret answer; a new seed and new dice, so nothing to
//! come can be worked out), the log as it may read it, and no input of the game: those stay
//! with the umpire's save, whose seed and inputs replay the whole game. The seat can open
//! it, look at its position and try its orders; what it plays there replays from the
//! redacted table, and never reaches the umpire's game.

use serde::{Deserialize, Serialize};

use crate::ids::{CardId, SeatId};
use crate::rng::Rng;
use crate::table::{Choice, HIDDEN_CARD, Table};
use crate::value::Value;

/// What a redaction left out, counted, so that the save can say what it cannot show.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redaction {
    /// The seat the save is for.
    pub seat: SeatId,
    /// Cards the seat may not see, each left as a stand-in.
    pub cards: usize,
    /// Pieces fog of war hides from the seat.
    pub pieces: usize,
    /// Units fog of war hides from the seat.
    pub units: i64,
    /// Seats whose private state is left out.
    pub private: Vec<SeatId>,
    /// Secret answers of other seats, left out (who has answered stays).
    pub answers: usize,
    /// Inputs of the game left with the umpire's save.
    pub inputs: usize,
}

impl Redaction {
    /// What the save does not show, in words.
    pub fn words(&self, seat_name: &dyn Fn(&SeatId) -> String) -> String {
        let mut parts = Vec::new();
        let count = |n: usize, one: &str, many: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        if self.cards > 0 {
            parts.push(count(
                self.cards,
                "card it may not see",
                "cards it may not see",
            ));
        }
        if self.pieces > 0 {
            parts.push(count(
                self.pieces,
                "piece under fog of war",
                "pieces under fog of war",
            ));
        }
        if self.units > 0 {
            parts.push(count(
                usize::try_from(self.units).unwrap_or(usize::MAX),
                "unit under fog of war",
                "units under fog of war",
            ));
        }
        if !self.private.is_empty() {
            let names: Vec<String> = self.private.iter().map(seat_name).collect();
            parts.push(format!("the private state of {}", names.join(", ")));
        }
        if self.answers > 0 {
            parts.push(count(self.answers, "secret answer", "secret answers"));
        }
        let hidden = match parts.is_empty() {
            true => "nothing of the table".to_owned(),
            false => parts.join(", "),
        };
        format!(
            "This save is {}'s view of the game: it does not hold {hidden}; nor the seed, \
             nor the game's {} input(s), which stay in the umpire's save. What is played in it \
             goes on from this position and does not reach the umpire's game.",
            seat_name(&self.seat),
            self.inputs
        )
    }
}

/// The table as `seat` may know it, and what was left out (`inputs` is left at 0).
pub fn redact_table(table: &Table, seat: &SeatId) -> (Table, Redaction) {
    let mut red = table.fogged_for(Some(seat)).into_owned();
    let mut redaction = Redaction {
        seat: seat.clone(),
        ..Redaction::default()
    };
    let count_pieces = |t: &Table| t.places.values().map(|p| p.len()).sum::<usize>();
    let count_units = |t: &Table| t.boxes.values().flat_map(|u| u.values()).sum::<i64>();
    redaction.pieces = count_pieces(table) - count_pieces(&red);
    redaction.units = count_units(table) - count_units(&red);
    // Each card the seat may not see becomes a stand-in that says nothing of it.
    let mut stand_ins = 0;
    for zone in red.zones.values_mut() {
        let original = zone.clone();
        for card in zone.cards.iter_mut() {
            if !original.shows(card, Some(seat)) {
                stand_ins += 1;
                let stand_in = CardId::from(format!("{HIDDEN_CARD}{stand_ins}").as_str());
                if zone.face_down.remove(card) {
                    zone.face_down.insert(stand_in.clone());
                }
                *card = stand_in;
            }
        }
    }
    redaction.cards = stand_ins;
    redaction.private = red.private.keys().filter(|s| *s != seat).cloned().collect();
    red.private.retain(|s, _| s == seat);
    for frame in &mut red.flow {
        for (by, choice) in frame.answers.iter_mut() {
            if by != seat {
                redaction.answers += 1;
                *choice = Choice {
                    name: "answered".to_owned(),
                    arg: Value::Nil,
                };
            }
        }
    }
    // The fog keeps what the seat's own eyes need: its own pieces, kinds and boxes.
    red.fog.piece_owners.retain(|_, owner| owner == seat);
    red.fog.kind_owners.retain(|_, owner| owner == seat);
    red.fog.box_owners.retain(|_, owner| owner == seat);
    red.fog.shown.retain(|_, seats| seats.contains(seat));
    for seats in red.fog.shown.values_mut() {
        seats.retain(|s| s == seat);
    }
    // Nothing to come may be worked out from the dice.
    red.seed = 0;
    red.rng = Rng::from_seed(fresh_seed());
    red.umpire = None;
    (red, redaction)
}

/// A seed no one chose: the clock's nanoseconds mixed with the process id.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32) ^ 0x9E37_79B9_7F4A_7C15
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Controller, Visibility, Zone};

    #[test]
    fn a_redacted_table_keeps_the_seat_s_own_and_stands_in_for_the_rest() {
        let mut t = Table::new("m", "s".into(), 42);
        for seat in ["A", "B"] {
            t.seats.insert(seat.into(), Controller::Human);
        }
        t.zones.insert(
            "hand.A".into(),
            Zone::new(Visibility::Owner, Some("A".into()), true),
        );
        t.zones.insert(
            "hand.B".into(),
            Zone::new(Visibility::Owner, Some("B".into()), true),
        );
        t.zones
            .insert("deck".into(), Zone::new(Visibility::Hidden, None, false));
        for (card, zone) in [("ace", "hand.A"), ("king", "hand.B"), ("queen", "deck")] {
            t.move_card(&card.into(), &zone.into(), crate::table::Position::Bottom)
                .expect("a zone");
        }
        t.private.insert("A".into(), Value::from("mine"));
        t.private.insert("B".into(), Value::from("theirs"));
        let (red, redaction) = redact_table(&t, &"A".into());
        assert_eq!(red.zones["hand.A"].cards, ["ace".into()] as [CardId; 1]);
        assert_eq!(red.zones["hand.B"].cards, ["?2".into()] as [CardId; 1]);
        assert_eq!(
            red.zones["deck"].cards,
            ["?1".into()] as [CardId; 1],
            "zones in id order: the deck first"
        );
        assert!(red.zones["deck"].face_down.contains("?1"));
        assert_eq!(red.private.len(), 1);
        assert_eq!((red.seed, redaction.cards), (0, 2));
        assert_eq!(redaction.private, ["B".into()] as [SeatId; 1]);
        let text = serde_json::to_string(&red).expect("JSON");
        for secret in ["king", "queen", "theirs"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
}
