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

/// What makes a save redacted: the seat it is for. It counts nothing of what was left out:
/// how many pieces fog hides or how many inputs the game has would tell the seat what it
/// may not know.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redaction {
    /// The seat the save is for.
    pub seat: SeatId,
}

impl Redaction {
    /// What the save is, in words: a partial view, without a count of what it leaves out.
    pub fn words(&self, seat_name: &dyn Fn(&SeatId) -> String) -> String {
        let name = seat_name(&self.seat);
        format!(
            "This save is {name}'s view of the game: it holds only what {name} may know (no other \
             seat's hidden cards, private state or secret answers, nothing that fog of war hides from \
             it), and neither the seed nor the game's inputs, which stay in the umpire's save. What \
             is played in it goes on from this position and does not reach the umpire's game."
        )
    }
}

/// The table as `seat` may know it, and the redaction that says so.
pub fn redact_table(table: &Table, seat: &SeatId) -> (Table, Redaction) {
    let mut red = table.fogged_for(Some(seat)).into_owned();
    let redaction = Redaction { seat: seat.clone() };
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
    red.private.retain(|s, _| s == seat);
    for frame in &mut red.flow {
        for (by, choice) in frame.answers.iter_mut() {
            if by != seat {
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
        assert_eq!((red.seed, redaction.seat), (0, "A".into()));
        let text = serde_json::to_string(&red).expect("JSON");
        for secret in ["king", "queen", "theirs"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
}
