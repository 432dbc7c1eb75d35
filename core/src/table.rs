//! The table: every mutable fact of a game, as plain serialisable data.
//!
//! The table knows no game. It holds zones of ordered cards, places whose spaces hold
//! pieces, boxes of counted units, bounded counters, seats, the rules' flow stack, the
//! module's own variables, the seeded dice and the result. It is self-contained (zones
//! carry their visibility, counters their bounds) so that a save's state can be shown
//! without loading its module. Checks that need the module's data (does this card exist?
//! is this space part of that place?) are made by the callers, before they change a table.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::fog::{Sight, SightOf};
use crate::ids::{
    BoxId, CardId, CounterId, PieceId, PlaceId, ScenarioId, SeatId, SpaceId, UnitKindId, ZoneId,
};
use crate::rng::Rng;
use crate::value::Value;

/// What a card shows where a seat may not see which card it is (a seat's view, a bot).
pub const HIDDEN_CARD: &str = "?";

/// Who may see the cards of a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Visibility {
    /// Everybody sees the cards (face-down cards still hide their faces).
    Public,
    /// Only the zone's owner sees the cards; others see how many there are.
    Owner,
    /// Nobody sees the cards, only how many there are (a deck).
    Hidden,
}

impl Visibility {
    /// Lower-case name used in the state JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Owner => "owner",
            Visibility::Hidden => "hidden",
        }
    }
}

/// An ordered pile of cards. `cards[0]` is the top of the pile.
///
/// A zone with an owner may be shared: `shared_with` lists the other seats that see it as its
/// owner does (a team's cards, held by one side of several seats). A zone shared with nobody
/// hashes and serialises as it did before sharing existed, so older saves and their digests
/// stay valid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    /// Who may see the cards.
    pub visibility: Visibility,
    /// The seat that owns the zone (a hand), if any.
    pub owner: Option<SeatId>,
    /// The other seats that see the zone as its owner does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_with: Vec<SeatId>,
    /// Whether a card entering the zone lies face up.
    pub face_up_on_entry: bool,
    /// The cards, top first.
    pub cards: Vec<CardId>,
    /// The cards of this zone that lie face down.
    pub face_down: BTreeSet<CardId>,
}

impl Hash for Zone {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.visibility.hash(state);
        self.owner.hash(state);
        if !self.shared_with.is_empty() {
            self.shared_with.hash(state);
        }
        self.face_up_on_entry.hash(state);
        self.cards.hash(state);
        self.face_down.hash(state);
    }
}

impl Zone {
    /// An empty zone.
    pub fn new(visibility: Visibility, owner: Option<SeatId>, face_up_on_entry: bool) -> Self {
        Zone {
            visibility,
            owner,
            shared_with: Vec::new(),
            face_up_on_entry,
            cards: Vec::new(),
            face_down: BTreeSet::new(),
        }
    }

    /// The zone, shared with these seats besides its owner.
    pub fn shared(mut self, seats: Vec<SeatId>) -> Self {
        self.shared_with = seats;
        self
    }

    /// Whether `seat` holds this zone: its owner or a seat it is shared with.
    pub fn held_by(&self, seat: &SeatId) -> bool {
        self.owner.as_ref() == Some(seat) || self.shared_with.contains(seat)
    }

    /// Whether `seat` sees which card `card` is: the zone must be visible to it, and a
    /// face-down card shows only to the seats that hold the zone (`None` is the omniscient
    /// view).
    pub fn shows(&self, card: &CardId, seat: Option<&SeatId>) -> bool {
        let Some(seat) = seat else { return true };
        self.visible_to(Some(seat)) && (!self.face_down.contains(card) || self.held_by(seat))
    }

    /// Whether `seat` may see the faces of this zone's cards (`None` is the omniscient view).
    pub fn visible_to(&self, seat: Option<&SeatId>) -> bool {
        match (self.visibility, seat) {
            (_, None) => true,
            (Visibility::Public, _) => true,
            (Visibility::Owner, Some(seat)) => self.held_by(seat),
            (Visibility::Hidden, Some(_)) => false,
        }
    }
}

/// Where a card goes in a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Position {
    /// On top (index 0).
    Top,
    /// At the bottom.
    Bottom,
    /// At this index from the top (0-based), clamped to the zone's size.
    Index(usize),
}

/// A named integer with optional bounds.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Counter {
    /// The current value, always within the bounds.
    pub value: i64,
    /// The lowest value, if bounded below.
    pub min: Option<i64>,
    /// The highest value, if bounded above.
    pub max: Option<i64>,
}

impl Counter {
    /// `value` brought within the bounds.
    pub fn clamp(&self, value: i64) -> i64 {
        let value = self.min.map_or(value, |min| value.max(min));
        self.max.map_or(value, |max| value.min(max))
    }
}

/// Who decides for a seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Controller {
    /// A person at the table (or the command line, or an answers file).
    Human,
    /// The module's bot of that name.
    Bot(String),
}

impl fmt::Display for Controller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Controller::Human => f.write_str("human"),
            Controller::Bot(name) => write!(f, "bot:{name}"),
        }
    }
}

/// One state of the rules' flow, with its locals.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Frame {
    /// A number unique within the game, so a hook's write-back finds its own frame.
    pub id: u64,
    /// The state's name, a key of the module's `states`.
    pub state: String,
    /// The state's local variables (plain data, which every seat may read).
    pub locals: Value,
    /// The answers given so far to the state's shared decision: each seat's secret choice
    /// in a simultaneous decision, or its pass in a reaction window. Only the engine and
    /// the omniscient view read them; the rules get them all at once when they are revealed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub answers: BTreeMap<SeatId, Choice>,
}

/// A picked action: its name and argument. This is what an input records (the rules'
/// interface re-exports it).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Choice {
    /// The action's name.
    pub name: String,
    /// Its argument.
    pub arg: Value,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.arg {
            Value::Nil => f.write_str(&self.name),
            arg => write!(f, "{} {arg}", self.name),
        }
    }
}

/// How dice are rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum DiceMode {
    /// The engine rolls its seeded dice.
    #[default]
    Digital,
    /// Players roll real dice and enter the results.
    Physical,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct GameResult {
    /// The winning seats (empty for a draw).
    pub winners: Vec<SeatId>,
    /// What happened, in words.
    pub text: String,
    /// Final scores by seat, if the game has scores.
    pub scores: BTreeMap<SeatId, i64>,
}

/// For each place, the space of each piece on it; read as the map it is. Every change
/// (any mutable use of the map) gives it a new [`Places::stamp`], so that whoever remembers
/// where pieces stand (a VM's answers to `ctx:space_of`) can tell, by the stamp alone,
/// whether the pieces may have moved since.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Places {
    map: BTreeMap<PlaceId, BTreeMap<PieceId, SpaceId>>,
    #[serde(skip)]
    stamp: Stamp,
}

/// A number no other state of any table's places in this process had: a copy keeps its
/// original's (the same pieces on the same spaces), a change or a new table draws the next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stamp(u64);

impl Default for Stamp {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Stamp(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Places {
    /// This state of the places: equal stamps mean the same pieces on the same spaces.
    pub fn stamp(&self) -> Stamp {
        self.stamp
    }
}

impl std::ops::Deref for Places {
    type Target = BTreeMap<PlaceId, BTreeMap<PieceId, SpaceId>>;
    fn deref(&self) -> &Self::Target {
        &self.map
    }
}

impl std::ops::DerefMut for Places {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.stamp = Stamp::default();
        &mut self.map
    }
}

impl<'a> IntoIterator for &'a Places {
    type Item = (&'a PlaceId, &'a BTreeMap<PieceId, SpaceId>);
    type IntoIter = std::collections::btree_map::Iter<'a, PlaceId, BTreeMap<PieceId, SpaceId>>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.iter()
    }
}

impl PartialEq for Places {
    fn eq(&self, other: &Self) -> bool {
        self.map == other.map
    }
}

impl Eq for Places {}

impl Hash for Places {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.map.hash(state);
    }
}

impl fmt::Debug for Places {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.map.fmt(f)
    }
}

/// Every mutable fact of one game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Table {
    /// The module's id.
    pub module: String,
    /// The scenario's id.
    pub scenario: ScenarioId,
    /// The seed the game started from.
    pub seed: u64,
    /// The turn number, as the rules set it.
    pub turn: i64,
    /// The phase name, as the rules set it.
    pub phase: String,
    /// Counters by id.
    pub counters: BTreeMap<CounterId, Counter>,
    /// For each place, the space of each piece on it.
    pub places: Places,
    /// Zones by id.
    pub zones: BTreeMap<ZoneId, Zone>,
    /// For each box, the count of each kind of unit in it (no zero entries).
    pub boxes: BTreeMap<BoxId, BTreeMap<UnitKindId, i64>>,
    /// Who controls each seat.
    pub seats: BTreeMap<SeatId, Controller>,
    /// Who may see the pieces of each place and the units of each box (fog of war).
    #[serde(default, skip_serializing_if = "crate::fog::Fog::is_clear")]
    pub fog: crate::fog::Fog,
    /// The umpire's seat, if the game has one: it sees everything, as the omniscient view
    /// does, and may answer for any seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub umpire: Option<SeatId>,
    /// The rules' flow: a stack of states, innermost last.
    pub flow: Vec<Frame>,
    /// The next frame id to hand out.
    pub next_frame_id: u64,
    /// The module's own rule variables (`ctx.vars`), plain data that every seat may read.
    pub vars: Value,
    /// Each seat's private variables (`ctx.private[seat]`), plain data that only that seat
    /// (and the omniscient view) may read.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub private: BTreeMap<SeatId, Value>,
    /// The seeded dice.
    pub rng: Rng,
    /// Digital or physical dice.
    pub dice: DiceMode,
    /// Set when the game is over.
    pub result: Option<GameResult>,
    /// Whether the log holds something some seat may not read (a secret roll's line, a
    /// line told to one seat, a secret or private answer): the seed could rebuild a secret
    /// roll, so it stays hidden while this is set (until the game is over).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secrets_told: bool,
}

/// A change the table refused, with what was wrong.
#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum TableError {
    /// The module has no such zone.
    #[error("unknown zone '{0}'")]
    UnknownZone(ZoneId),
    /// The module has no such counter.
    #[error("unknown counter '{0}'")]
    UnknownCounter(CounterId),
    /// The module has no such place.
    #[error("unknown place '{0}'")]
    UnknownPlace(PlaceId),
    /// The module has no such box.
    #[error("unknown box '{0}'")]
    UnknownBox(BoxId),
    /// The card is in no zone of the table.
    #[error("card '{0}' is in no zone")]
    CardNowhere(CardId),
    /// The piece stands on no place.
    #[error("piece '{0}' is on no place")]
    PieceNowhere(PieceId),
    /// A zone has fewer cards than a deal or draw takes.
    #[error("zone '{zone}' has {have} card(s), {need} wanted")]
    NotEnoughCards {
        /// The zone.
        zone: ZoneId,
        /// The cards it has.
        have: usize,
        /// The cards wanted.
        need: usize,
    },
    /// A box has fewer units of a kind than a move takes.
    #[error("box '{boxed}' has {have} unit(s) of kind '{kind}', {need} wanted")]
    NotEnoughUnits {
        /// The box.
        boxed: BoxId,
        /// The unit kind.
        kind: UnitKindId,
        /// The units it has.
        have: i64,
        /// The units wanted.
        need: i64,
    },
    /// A count of units below zero.
    #[error("a count of units must not be negative (got {0})")]
    NegativeCount(i64),
}

impl Table {
    /// The eyes a view of `seat` reads the table with: the umpire's are the omniscient
    /// view's (`None`), every other seat's its own.
    pub fn eyes<'a>(&self, seat: Option<&'a SeatId>) -> Option<&'a SeatId> {
        seat.filter(|s| self.umpire.as_ref() != Some(*s))
    }

    /// An empty table for a game of `module`'s `scenario` started from `seed`.
    pub fn new(module: &str, scenario: ScenarioId, seed: u64) -> Self {
        Table {
            module: module.to_owned(),
            scenario,
            seed,
            turn: 0,
            phase: String::new(),
            counters: BTreeMap::new(),
            places: Places::default(),
            zones: BTreeMap::new(),
            boxes: BTreeMap::new(),
            seats: BTreeMap::new(),
            fog: crate::fog::Fog::default(),
            umpire: None,
            flow: Vec::new(),
            next_frame_id: 1,
            vars: Value::map(),
            private: BTreeMap::new(),
            rng: Rng::from_seed(seed),
            dice: DiceMode::Digital,
            result: None,
            secrets_told: false,
        }
    }

    /// A 64-bit digest of the whole table: equal tables give equal digests.
    pub fn digest(&self) -> u64 {
        let mut hasher = crate::digest::Fnv64::default();
        self.hash(&mut hasher);
        hasher.finish()
    }

    /// Whether some seat may not see all of the table: cards in a zone that is not public or
    /// face down, fog of war, private state, or secret answers not yet revealed. While it is
    /// so, the seed (from which every shuffle follows) is shown to no seat.
    pub fn has_hidden_information(&self) -> bool {
        self.zones.values().any(|z| {
            !z.face_down.is_empty() || (z.visibility != Visibility::Public && !z.cards.is_empty())
        }) || !self.fog.is_clear()
            || self
                .private
                .values()
                .any(|v| !v.is_nil() && !matches!(v, Value::Map(m) if m.is_empty()))
            || self.flow.iter().any(|f| !f.answers.is_empty())
            || self.secrets_told
    }

    /// Whether the seed may be shown to `seat` (`None`: the omniscient view, which may): when
    /// nothing is hidden, or the game is over.
    pub fn seed_shown_to(&self, seat: Option<&SeatId>) -> bool {
        seat.is_none() || self.result.is_some() || !self.has_hidden_information()
    }

    /// A 64-bit digest of what `seat` may see of the table: the public facts, the cards it
    /// sees, how many it does not, its own private state, the states of the flow and who has
    /// answered (not what), and nothing of the seed, the dice or the states' locals. Tables that differ only in what `seat` may not see
    /// give the same digest (a bot's own random stream is seeded from it).
    pub fn digest_seen_by(&self, seat: &SeatId) -> u64 {
        let mut h = crate::digest::Fnv64::default();
        (&self.module, &self.scenario, self.turn, &self.phase).hash(&mut h);
        if self.fog.is_clear() {
            (&self.counters, &self.places, &self.boxes, &self.seats).hash(&mut h);
        } else {
            let fogged = self.fogged_for(Some(seat));
            (&self.counters, &fogged.places, &fogged.boxes, &self.seats).hash(&mut h);
        }
        (&self.vars, self.private.get(seat), &self.result).hash(&mut h);
        for (id, zone) in &self.zones {
            id.hash(&mut h);
            zone.cards.len().hash(&mut h);
            for card in zone.cards.iter().filter(|c| zone.shows(c, Some(seat))) {
                card.hash(&mut h);
            }
        }
        // The flow by its states (how a procedure keeps its place in its locals is its own
        // business: rewriting one does not change what a bot draws), and how many frames
        // the game has opened, so that a later visit of the same position draws anew.
        self.next_frame_id.hash(&mut h);
        for frame in &self.flow {
            frame.state.hash(&mut h);
            frame.answers.keys().for_each(|s| s.hash(&mut h));
        }
        h.finish()
    }

    /// The current state's frame (the top of the flow), if any.
    pub fn top_frame(&self) -> Option<&Frame> {
        self.flow.last()
    }

    /// The zone holding `card` and the card's index in it (0 = top).
    pub fn card_location(&self, card: &CardId) -> Option<(&ZoneId, usize)> {
        self.zones.iter().find_map(|(zone_id, zone)| {
            zone.cards
                .iter()
                .position(|c| c == card)
                .map(|i| (zone_id, i))
        })
    }

    fn zone_mut(&mut self, zone: &ZoneId) -> Result<&mut Zone, TableError> {
        self.zones
            .get_mut(zone)
            .ok_or_else(|| TableError::UnknownZone(zone.clone()))
    }

    /// The zone `zone`, or an error naming it.
    pub fn zone(&self, zone: &ZoneId) -> Result<&Zone, TableError> {
        self.zones
            .get(zone)
            .ok_or_else(|| TableError::UnknownZone(zone.clone()))
    }

    /// Moves `card` (from whatever zone holds it, or from out of play) into `to` at
    /// `position`; it lies as the new zone lays its cards.
    pub fn move_card(
        &mut self,
        card: &CardId,
        to: &ZoneId,
        position: Position,
    ) -> Result<(), TableError> {
        self.zone(to)?;
        self.take_card(card);
        let zone = self.zone_mut(to)?;
        let index = match position {
            Position::Top => 0,
            Position::Bottom => zone.cards.len(),
            Position::Index(i) => i.min(zone.cards.len()),
        };
        zone.cards.insert(index, card.clone());
        if !zone.face_up_on_entry {
            zone.face_down.insert(card.clone());
        }
        Ok(())
    }

    /// Takes `card` out of whatever zone holds it (it is then out of play). Returns the zone.
    pub fn take_card(&mut self, card: &CardId) -> Option<ZoneId> {
        let zone_id = self.card_location(card)?.0.clone();
        let zone = self.zones.get_mut(&zone_id)?;
        zone.cards.retain(|c| c != card);
        zone.face_down.remove(card);
        Some(zone_id)
    }

    /// Shuffles the cards of `zone` with the table's dice.
    pub fn shuffle(&mut self, zone: &ZoneId) -> Result<(), TableError> {
        let zone = self
            .zones
            .get_mut(zone)
            .ok_or_else(|| TableError::UnknownZone(zone.clone()))?;
        self.rng.shuffle(&mut zone.cards);
        Ok(())
    }

    /// Moves the top `count` cards of `from` to the bottom of `to`, one by one, and returns
    /// them. Fails, changing nothing, if `from` holds fewer cards.
    pub fn deal(
        &mut self,
        from: &ZoneId,
        to: &ZoneId,
        count: usize,
    ) -> Result<Vec<CardId>, TableError> {
        self.zone(to)?;
        let have = self.zone(from)?.cards.len();
        if have < count {
            return Err(TableError::NotEnoughCards {
                zone: from.clone(),
                have,
                need: count,
            });
        }
        let dealt: Vec<CardId> = self.zone(from)?.cards[..count].to_vec();
        for card in &dealt {
            self.move_card(card, to, Position::Bottom)?;
        }
        Ok(dealt)
    }

    /// Turns `card` face up or down (`None` turns it over). Returns whether it is now face up.
    pub fn flip(&mut self, card: &CardId, face_up: Option<bool>) -> Result<bool, TableError> {
        let zone_id = self
            .card_location(card)
            .map(|(z, _)| z.clone())
            .ok_or_else(|| TableError::CardNowhere(card.clone()))?;
        let zone = self.zone_mut(&zone_id)?;
        let now_up = face_up.unwrap_or_else(|| zone.face_down.contains(card));
        if now_up {
            zone.face_down.remove(card);
        } else {
            zone.face_down.insert(card.clone());
        }
        Ok(now_up)
    }

    /// Whether `card` lies face up (a card in no zone counts as face up).
    pub fn is_face_up(&self, card: &CardId) -> bool {
        match self.card_location(card) {
            Some((zone, _)) => self
                .zones
                .get(zone)
                .is_none_or(|z| !z.face_down.contains(card)),
            None => true,
        }
    }

    /// The place and space where `piece` stands.
    pub fn piece_location<Q>(&self, piece: &Q) -> Option<(&PlaceId, &SpaceId)>
    where
        PieceId: std::borrow::Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.places
            .iter()
            .find_map(|(place, pieces)| pieces.get(piece).map(|space| (place, space)))
    }

    /// Puts `piece` on `space` of `place`, taking it from wherever it stood.
    pub fn place_piece(
        &mut self,
        piece: &PieceId,
        place: &PlaceId,
        space: &SpaceId,
    ) -> Result<(), TableError> {
        if !self.places.contains_key(place) {
            return Err(TableError::UnknownPlace(place.clone()));
        }
        self.remove_piece(piece);
        if let Some(pieces) = self.places.get_mut(place) {
            pieces.insert(piece.clone(), space.clone());
        }
        Ok(())
    }

    /// Takes `piece` off the table. Returns where it stood.
    pub fn remove_piece(&mut self, piece: &PieceId) -> Option<(PlaceId, SpaceId)> {
        let place = self.piece_location(piece)?.0.clone();
        let space = self.places.get_mut(&place)?.remove(piece)?;
        Some((place, space))
    }

    /// The pieces on `space` of `place`, in id order.
    pub fn pieces_at(&self, place: &PlaceId, space: &SpaceId) -> Result<Vec<PieceId>, TableError> {
        let pieces = self
            .places
            .get(place)
            .ok_or_else(|| TableError::UnknownPlace(place.clone()))?;
        Ok(pieces
            .iter()
            .filter(|(_, s)| *s == space)
            .map(|(p, _)| p.clone())
            .collect())
    }

    /// How many units of `kind` are in `boxed`.
    pub fn units(&self, boxed: &BoxId, kind: &UnitKindId) -> Result<i64, TableError> {
        let contents = self
            .boxes
            .get(boxed)
            .ok_or_else(|| TableError::UnknownBox(boxed.clone()))?;
        Ok(contents.get(kind).copied().unwrap_or(0))
    }

    /// Adds `delta` units of `kind` to `boxed` (a negative delta removes them). Fails,
    /// changing nothing, if fewer units are there than a removal wants. Returns the new count.
    pub fn add_units(
        &mut self,
        boxed: &BoxId,
        kind: &UnitKindId,
        delta: i64,
    ) -> Result<i64, TableError> {
        let have = self.units(boxed, kind)?;
        let count = have + delta;
        if count < 0 {
            return Err(TableError::NotEnoughUnits {
                boxed: boxed.clone(),
                kind: kind.clone(),
                have,
                need: -delta,
            });
        }
        let contents = self
            .boxes
            .get_mut(boxed)
            .ok_or_else(|| TableError::UnknownBox(boxed.clone()))?;
        if count == 0 {
            contents.remove(kind);
        } else {
            contents.insert(kind.clone(), count);
        }
        Ok(count)
    }

    /// Moves `count` units of `kind` from `from` to `to`.
    pub fn move_units(
        &mut self,
        from: &BoxId,
        to: &BoxId,
        kind: &UnitKindId,
        count: i64,
    ) -> Result<(), TableError> {
        if count < 0 {
            return Err(TableError::NegativeCount(count));
        }
        self.units(to, kind)?;
        self.add_units(from, kind, -count)?;
        self.add_units(to, kind, count)?;
        Ok(())
    }

    /// The value of counter `id`.
    pub fn counter(&self, id: &CounterId) -> Result<i64, TableError> {
        self.counters
            .get(id)
            .map(|c| c.value)
            .ok_or_else(|| TableError::UnknownCounter(id.clone()))
    }

    /// Sets counter `id` to `value` brought within its bounds. Returns the value set.
    pub fn set_counter(&mut self, id: &CounterId, value: i64) -> Result<i64, TableError> {
        let counter = self
            .counters
            .get_mut(id)
            .ok_or_else(|| TableError::UnknownCounter(id.clone()))?;
        counter.value = counter.clamp(value);
        Ok(counter.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_get_a_new_stamp_with_every_change_and_keep_it_in_a_copy() {
        let mut t = Table::new("m", ScenarioId::from("s"), 1);
        t.places.insert("track".into(), BTreeMap::new());
        let before = t.places.stamp();
        let copy = t.clone();
        assert_eq!(copy.places.stamp(), before, "a copy has the same pieces");
        t.place_piece(&"p".into(), &"track".into(), &"1".into())
            .expect("placed");
        assert_ne!(t.places.stamp(), before, "a piece moved");
        // Read back from its text, the same places are a state no VM has seen.
        let text = serde_json::to_string(&t).expect("serialises");
        let read: Table = serde_json::from_str(&text).expect("reads");
        assert_eq!(read, t, "the stamp is not part of the table");
        assert_ne!(read.places.stamp(), t.places.stamp());
        assert!(text.contains(r#""places":{"track":{"p":"1"}}"#), "{text}");
    }

    fn table() -> Table {
        let mut t = Table::new("m", ScenarioId::from("s"), 1);
        t.zones
            .insert("deck".into(), Zone::new(Visibility::Hidden, None, false));
        t.zones.insert(
            "hand".into(),
            Zone::new(Visibility::Owner, Some("A".into()), true),
        );
        for c in ["a", "b", "c"] {
            t.move_card(&c.into(), &"deck".into(), Position::Bottom)
                .expect("deck exists");
        }
        t.places.insert("track".into(), BTreeMap::new());
        t.boxes.insert("pool".into(), BTreeMap::new());
        t.counters.insert(
            "vp".into(),
            Counter {
                value: 0,
                min: Some(0),
                max: Some(10),
            },
        );
        t
    }

    #[test]
    fn deal_takes_from_the_top_and_turns_cards_up_in_a_hand() {
        let mut t = table();
        let dealt = t
            .deal(&"deck".into(), &"hand".into(), 2)
            .expect("enough cards");
        assert_eq!(dealt, vec![CardId::from("a"), CardId::from("b")]);
        assert_eq!(
            t.zones[&ZoneId::from("deck")].cards,
            vec![CardId::from("c")]
        );
        assert!(t.is_face_up(&"a".into()));
        assert!(!t.is_face_up(&"c".into()));
    }

    #[test]
    fn deal_refuses_more_cards_than_the_zone_holds_and_changes_nothing() {
        let mut t = table();
        let before = t.clone();
        let err = t
            .deal(&"deck".into(), &"hand".into(), 4)
            .expect_err("only 3 cards");
        assert_eq!(err.to_string(), "zone 'deck' has 3 card(s), 4 wanted");
        assert_eq!(t, before);
    }

    #[test]
    fn units_never_go_negative() {
        let mut t = table();
        assert_eq!(t.add_units(&"pool".into(), &"inf".into(), 3), Ok(3));
        let err = t
            .add_units(&"pool".into(), &"inf".into(), -4)
            .expect_err("only 3");
        assert_eq!(
            err.to_string(),
            "box 'pool' has 3 unit(s) of kind 'inf', 4 wanted"
        );
        assert_eq!(t.add_units(&"pool".into(), &"inf".into(), -3), Ok(0));
        assert!(
            t.boxes[&BoxId::from("pool")].is_empty(),
            "zero counts are dropped"
        );
    }

    #[test]
    fn counters_clamp_to_their_bounds() {
        let mut t = table();
        assert_eq!(t.set_counter(&"vp".into(), 14), Ok(10));
        assert_eq!(t.set_counter(&"vp".into(), -2), Ok(0));
    }

    #[test]
    fn a_piece_stands_in_one_place_only() {
        let mut t = table();
        t.places.insert("map".into(), BTreeMap::new());
        t.place_piece(&"m".into(), &"track".into(), &"1".into())
            .expect("place");
        t.place_piece(&"m".into(), &"map".into(), &"x".into())
            .expect("place");
        assert_eq!(
            t.piece_location("m"),
            Some((&PlaceId::from("map"), &SpaceId::from("x")))
        );
        assert!(t.places[&PlaceId::from("track")].is_empty());
    }

    #[test]
    fn a_shared_zone_shows_its_cards_to_every_seat_that_holds_it() {
        let team = Zone::new(Visibility::Owner, Some("A".into()), true)
            .shared(vec!["B".into(), "C".into()]);
        let mut t = table();
        t.zones.insert("team".into(), team);
        t.move_card(&"a".into(), &"team".into(), Position::Top)
            .expect("move");
        let zone = &t.zones[&ZoneId::from("team")];
        for seat in ["A", "B", "C"] {
            assert!(zone.visible_to(Some(&seat.into())), "{seat} holds it");
            assert!(zone.shows(&"a".into(), Some(&seat.into())), "{seat} sees a");
        }
        assert!(!zone.visible_to(Some(&"D".into())));
        assert!(!zone.shows(&"a".into(), Some(&"D".into())));
    }

    #[test]
    fn a_zone_shared_with_nobody_hashes_and_saves_as_before() {
        // The digest and the RON of an unshared zone have no trace of sharing, so the
        // digests recorded in older saves still match.
        let zone = Zone::new(Visibility::Owner, Some("A".into()), true);
        let mut old_style = crate::digest::Fnv64::default();
        zone.visibility.hash(&mut old_style);
        zone.owner.hash(&mut old_style);
        zone.face_up_on_entry.hash(&mut old_style);
        zone.cards.hash(&mut old_style);
        zone.face_down.hash(&mut old_style);
        let mut now = crate::digest::Fnv64::default();
        zone.hash(&mut now);
        assert_eq!(now.finish(), old_style.finish());
        let text = ron::to_string(&zone).expect("ron");
        assert!(!text.contains("shared_with"), "{text}");
    }

    #[test]
    fn digest_tells_tables_apart() {
        let a = table();
        let mut b = table();
        assert_eq!(a.digest(), b.digest());
        b.set_counter(&"vp".into(), 1).expect("counter");
        assert_ne!(a.digest(), b.digest());
    }
}

/// Fog of war (see [`crate::fog`]): what a seat sees of the places and boxes.
impl Table {
    /// Whether `seat` (`None`: the omniscient view; the umpire sees as it does) sees `piece`
    /// standing on `space` of `place`.
    pub fn sees_piece(
        &self,
        seat: Option<&SeatId>,
        place: &PlaceId,
        space: &SpaceId,
        piece: &PieceId,
    ) -> bool {
        self.eyes(seat)
            .is_none_or(|seat| self.fog.shows_piece(seat, place, space, piece))
    }

    /// Whether `seat` sees how many units of `kind` are in `boxed`.
    pub fn sees_units(&self, seat: Option<&SeatId>, boxed: &BoxId, kind: &UnitKindId) -> bool {
        self.eyes(seat)
            .is_none_or(|seat| self.fog.shows_units(seat, boxed, kind))
    }

    /// Where `seat` sees `piece` stand: nowhere if it stands where `seat` may not see it.
    pub fn piece_seen_at(
        &self,
        seat: Option<&SeatId>,
        piece: &PieceId,
    ) -> Option<(&PlaceId, &SpaceId)> {
        self.piece_location(piece)
            .filter(|(place, space)| self.sees_piece(seat, place, space, piece))
    }

    /// The table as `seat` may see its places and boxes: every piece and unit it may not
    /// see taken away (cards, private state and the log are masked where they are read).
    /// Without fog, or to the umpire, the table itself.
    pub fn fogged_for(&self, seat: Option<&SeatId>) -> std::borrow::Cow<'_, Table> {
        if self.fog.is_clear() || self.eyes(seat).is_none() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut fogged = self.clone();
        for (place, pieces) in fogged.places.iter_mut() {
            pieces.retain(|piece, space| self.sees_piece(seat, place, space, piece));
        }
        for (boxed, units) in &mut fogged.boxes {
            units.retain(|kind, _| self.sees_units(seat, boxed, kind));
        }
        std::borrow::Cow::Owned(fogged)
    }

    /// Shows `piece` to `seats` wherever it stands, whatever the sight there.
    pub fn show_piece(&mut self, piece: &PieceId, seats: &[SeatId]) {
        let shown = self.fog.shown.entry(piece.clone()).or_default();
        shown.extend(seats.iter().cloned());
        self.places_seen_anew();
    }

    /// Hides `piece` again from `seats` (all seats: `None`) that it was shown to.
    pub fn hide_piece(&mut self, piece: &PieceId, seats: Option<&[SeatId]>) {
        if let Some(shown) = self.fog.shown.get_mut(piece) {
            match seats {
                Some(seats) => shown.retain(|s| !seats.contains(s)),
                None => shown.clear(),
            }
            if shown.is_empty() {
                self.fog.shown.remove(piece);
            }
        }
        self.places_seen_anew();
    }

    /// Sets the sight of a place, or of one of its spaces (`space`), or of a box.
    pub fn set_sight(&mut self, of: SightOf, sight: Sight) {
        let public = sight == Sight::Public;
        match of {
            SightOf::Place(place) if public => {
                self.fog.places.remove(&place);
            }
            SightOf::Place(place) => {
                self.fog.places.insert(place, sight);
            }
            SightOf::Space(place, space) => {
                let spaces = self.fog.spaces.entry(place.clone()).or_default();
                spaces.insert(space, sight);
                // A space as its place is needs no entry of its own.
                let place_sight = self.fog.places.get(&place).cloned().unwrap_or_default();
                if let Some(spaces) = self.fog.spaces.get_mut(&place) {
                    spaces.retain(|_, s| *s != place_sight);
                    if spaces.is_empty() {
                        self.fog.spaces.remove(&place);
                    }
                }
            }
            SightOf::Box(boxed) if public => {
                self.fog.boxes.remove(&boxed);
            }
            SightOf::Box(boxed) => {
                self.fog.boxes.insert(boxed, sight);
            }
        }
        self.places_seen_anew();
    }

    /// Marks the places as changed for whoever remembers what a seat sees of them.
    fn places_seen_anew(&mut self) {
        let _ = &mut *self.places;
    }
}

#[cfg(test)]
mod fog_tests {
    use super::*;
    use crate::fog::{Fog, Sight, SightOf};

    fn table() -> Table {
        let mut t = Table::new("m", "s".into(), 1);
        t.places.insert("map".into(), BTreeMap::new());
        t.boxes.insert("pool".into(), BTreeMap::new());
        for seat in ["A", "B", "U"] {
            t.seats.insert(seat.into(), Controller::Human);
        }
        t.umpire = Some("U".into());
        t.place_piece(&"a1".into(), &"map".into(), &"north".into())
            .expect("a place");
        t.place_piece(&"b1".into(), &"map".into(), &"south".into())
            .expect("a place");
        t.fog.piece_owners.insert("a1".into(), "A".into());
        t.fog.piece_owners.insert("b1".into(), "B".into());
        t.add_units(&"pool".into(), &"inf".into(), 3)
            .expect("a box");
        t.add_units(&"pool".into(), &"cav".into(), 1)
            .expect("a box");
        t.fog.kind_owners.insert("inf".into(), "A".into());
        t
    }

    fn seen(t: &Table, seat: &str) -> Vec<String> {
        let seat = SeatId::from(seat);
        let fogged = t.fogged_for(Some(&seat));
        let pieces = fogged.places.values().flat_map(|p| p.keys());
        let units = fogged.boxes.values().flat_map(|u| u.keys());
        pieces
            .map(|p| p.to_string())
            .chain(units.map(|u| u.to_string()))
            .collect()
    }

    #[test]
    fn each_seat_sees_its_own_pieces_under_owner_sight_and_the_umpire_all() {
        let mut t = table();
        assert_eq!(seen(&t, "B"), ["a1", "b1", "cav", "inf"], "no fog");
        t.set_sight(SightOf::Place("map".into()), Sight::Owner);
        t.set_sight(SightOf::Box("pool".into()), Sight::Owner);
        assert_eq!(seen(&t, "A"), ["a1", "inf"]);
        assert_eq!(seen(&t, "B"), ["b1"]);
        assert_eq!(seen(&t, "U"), ["a1", "b1", "cav", "inf"], "the umpire");
        assert!(t.sees_piece(None, &"map".into(), &"south".into(), &"b1".into()));
    }

    #[test]
    fn a_space_s_sight_overrides_its_place_s_and_a_shown_piece_is_seen_anywhere() {
        let mut t = table();
        t.set_sight(SightOf::Place("map".into()), Sight::Owner);
        t.set_sight(
            SightOf::Space("map".into(), "south".into()),
            Sight::Seats(vec!["A".into()]),
        );
        assert_eq!(seen(&t, "A"), ["a1", "b1", "cav", "inf"]);
        t.set_sight(SightOf::Space("map".into(), "north".into()), Sight::Umpire);
        assert_eq!(seen(&t, "A"), ["b1", "cav", "inf"], "not even its owner");
        let before = t.places.stamp();
        t.show_piece(&"a1".into(), &["B".into()]);
        assert_ne!(t.places.stamp(), before, "what a seat sees changed");
        assert_eq!(seen(&t, "B"), ["a1", "b1", "cav", "inf"]);
        t.hide_piece(&"a1".into(), None);
        assert!(t.fog.shown.is_empty());
        assert_eq!(seen(&t, "B"), ["b1", "cav", "inf"]);
    }

    #[test]
    fn a_table_without_fog_hashes_and_reads_as_before() {
        let mut t = table();
        t.fog = Fog::default();
        let text = serde_json::to_string(&t).expect("JSON");
        assert!(!text.contains("fog"), "{text}");
        let before = t.digest();
        t.set_sight(SightOf::Box("pool".into()), Sight::Umpire);
        assert_ne!(t.digest(), before);
        t.set_sight(SightOf::Box("pool".into()), Sight::Public);
        assert_eq!(t.digest(), before, "public again");
    }
}
