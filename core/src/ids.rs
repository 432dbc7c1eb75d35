//! Identifier newtypes: every id a module declares has its own type, so a zone id can never
//! be passed where a card id is expected. An id is shared text: copying a table copies its
//! ids without copying their letters.

use std::borrow::Borrow;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta] $name:ident),* $(,)?) => {$(
        #[$doc]
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
        #[serde(transparent)]
        pub struct $name(Arc<str>);

        impl $name {
            /// Wraps a string as this kind of id.
            pub fn new(id: impl Into<String>) -> Self {
                Self(Arc::from(id.into()))
            }

            /// The id as a string slice.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                Self(Arc::from(id))
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                Self(Arc::from(id))
            }
        }
    )*};
}

id_type!(
    /// A card, as declared in the module's data.
    CardId,
    /// A zone: an ordered pile of cards (deck, discard, hand, display).
    ZoneId,
    /// A place made of spaces: a track, or a map of connected spaces such as a front.
    PlaceId,
    /// A space within one place.
    SpaceId,
    /// A piece that stands on a space: a marker or a block.
    PieceId,
    /// A box holding counted units by kind.
    BoxId,
    /// A kind of unit counted in boxes.
    UnitKindId,
    /// A named integer counter.
    CounterId,
    /// A seat at the table: a power or player, controlled by a human or a bot.
    SeatId,
    /// A scenario of a module.
    ScenarioId,
);

impl SeatId {
    /// The eyes of a spectator, who plays no seat: an id no module declares, which sees what
    /// every seat may see (public cards and log lines) and no seat's secrets or private state.
    pub fn spectator() -> SeatId {
        SeatId::from("")
    }

    /// Whether this is [`SeatId::spectator`].
    pub fn is_spectator(&self) -> bool {
        self.0.is_empty()
    }
}

/// The longest plain name, in bytes.
pub const MAX_PLAIN_NAME_BYTES: usize = 64;

/// Whether `text` is a plain name, fit to stand alone as a word or a file's name: 1 to
/// [`MAX_PLAIN_NAME_BYTES`] ASCII letters, digits, `_`, `-` and `.`, not starting with `.`
/// or `-` (so never `..`, a hidden file or an option). Seat ids are plain names: reports and
/// orders name files and lines after them.
pub fn is_plain_name(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_PLAIN_NAME_BYTES
        && !text.starts_with(['.', '-'])
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Whether `text` may be a seat's id: a plain name ([`is_plain_name`]) other than
/// `public`, since a turn's reports are files named after the seats beside `public.md`.
pub fn is_seat_id(text: &str) -> bool {
    is_plain_name(text) && text != "public"
}

#[cfg(test)]
mod tests {
    use super::is_plain_name;

    #[test]
    fn a_plain_name_is_a_word_no_path_can_hide_in() {
        for name in ["FR", "P1", "gen.AU", "umpire_1", "a-b"] {
            assert!(is_plain_name(name), "{name}");
        }
        let long = "x".repeat(65);
        for name in [
            "", "..", "../../x", "/etc/x", "a/b", "a\\b", ".hidden", "-rf", "a b", "a\nb", "é",
            &long,
        ] {
            assert!(!is_plain_name(name), "{name:?}");
        }
    }
}
