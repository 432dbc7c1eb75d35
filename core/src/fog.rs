//! Fog of war: who may see the pieces on a place or a space, and the units in a box.
//!
//! A module gives a place, a space or a box a [`Sight`]; the table keeps them, with the owners
//! they need, in its [`Fog`], so that a save is shown as a seat sees it without its module.
//! A seat reads a fogged place as if the pieces it may not see were off the table, and a
//! fogged box as if the units it may not see were not there: the state JSON, the command
//! line, the app's board and panels, a bot's `ctx` and a redacted save all read the table
//! through `Table::fogged_for` or the questions it asks of the fog here. The umpire and the
//! omniscient view see everything.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use crate::ids::{BoxId, PieceId, PlaceId, SeatId, SpaceId, UnitKindId};

/// Who may see the pieces of a place or a space, or the units of a box.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sight {
    /// Every seat.
    #[default]
    Public,
    /// Each seat sees what it owns: its own pieces, its own kinds of unit, a box it owns.
    Owner,
    /// These seats see everything; every other seat what it owns.
    Seats(Vec<SeatId>),
    /// Nobody but the umpire, not even a piece's owner.
    Umpire,
}

impl Sight {
    /// Whether `seat` sees a thing under this sight that `owned` says whether it owns.
    pub fn lets(&self, seat: &SeatId, owned: bool) -> bool {
        match self {
            Sight::Public => true,
            Sight::Owner => owned,
            Sight::Seats(seats) => owned || seats.contains(seat),
            Sight::Umpire => false,
        }
    }

    /// In words, seats by id: "public", "each seat sees its own", "seen by A, B (each other
    /// seat its own)", "the umpire only".
    pub fn describe(&self) -> String {
        self.describe_with(&|s: &SeatId| s.to_string())
    }

    /// In words, seats named by `name`.
    pub fn describe_with(&self, name: &dyn Fn(&SeatId) -> String) -> String {
        match self {
            Sight::Public => "public".to_owned(),
            Sight::Owner => "each seat sees its own".to_owned(),
            Sight::Seats(seats) => {
                let names: Vec<String> = seats.iter().map(name).collect();
                format!("seen by {} (each other seat its own)", names.join(", "))
            }
            Sight::Umpire => "the umpire only".to_owned(),
        }
    }
}

/// The table's fog of war: the sight of each fogged place, space and box, the owners a
/// sight of `Owner` reads, and the pieces the rules have shown to seats beyond their sight.
/// A table without fog hashes and serialises as tables did before fog existed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fog {
    /// The sight of each place that is not public.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub places: BTreeMap<PlaceId, Sight>,
    /// The sight of a space where it differs from its place's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub spaces: BTreeMap<PlaceId, BTreeMap<SpaceId, Sight>>,
    /// The sight of each box that is not public.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub boxes: BTreeMap<BoxId, Sight>,
    /// The owner of each owned piece.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub piece_owners: BTreeMap<PieceId, SeatId>,
    /// The owner of each owned kind of unit.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kind_owners: BTreeMap<UnitKindId, SeatId>,
    /// The owner of each owned box.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub box_owners: BTreeMap<BoxId, SeatId>,
    /// Pieces the rules have shown to seats that their sight hides them from (a spotted
    /// army), until the rules hide them again.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub shown: BTreeMap<PieceId, BTreeSet<SeatId>>,
}

impl Hash for Fog {
    fn hash<H: Hasher>(&self, state: &mut H) {
        if !self.is_clear() {
            (&self.places, &self.spaces, &self.boxes).hash(state);
            (&self.piece_owners, &self.kind_owners, &self.box_owners).hash(state);
            self.shown.hash(state);
        }
    }
}

impl Fog {
    /// Whether nothing is fogged: every place, space and box is public.
    pub fn is_clear(&self) -> bool {
        self.places.is_empty() && self.spaces.is_empty() && self.boxes.is_empty()
    }

    /// The sight of `space` of `place`.
    pub fn sight_of_space(&self, place: &PlaceId, space: &SpaceId) -> &Sight {
        const PUBLIC: &Sight = &Sight::Public;
        self.spaces
            .get(place)
            .and_then(|spaces| spaces.get(space))
            .or_else(|| self.places.get(place))
            .unwrap_or(PUBLIC)
    }

    /// The sight of a box.
    pub fn sight_of_box(&self, boxed: &BoxId) -> &Sight {
        self.boxes.get(boxed).unwrap_or(&Sight::Public)
    }

    /// Whether `seat` (a seat's eyes, not the umpire's) sees `piece` on `space` of `place`.
    pub fn shows_piece(
        &self,
        seat: &SeatId,
        place: &PlaceId,
        space: &SpaceId,
        piece: &PieceId,
    ) -> bool {
        if self.is_clear() {
            return true;
        }
        let owned = self.piece_owners.get(piece) == Some(seat);
        self.sight_of_space(place, space).lets(seat, owned)
            || self
                .shown
                .get(piece)
                .is_some_and(|seats| seats.contains(seat))
    }

    /// Whether `seat` (a seat's eyes, not the umpire's) sees the units of `kind` in `boxed`.
    pub fn shows_units(&self, seat: &SeatId, boxed: &BoxId, kind: &UnitKindId) -> bool {
        let owned =
            self.box_owners.get(boxed) == Some(seat) || self.kind_owners.get(kind) == Some(seat);
        self.sight_of_box(boxed).lets(seat, owned)
    }
}

/// What a sight is set on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SightOf {
    /// A whole place.
    Place(PlaceId),
    /// One space of a place.
    Space(PlaceId, SpaceId),
    /// A box.
    Box(BoxId),
}
