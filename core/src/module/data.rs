//! The shapes of a module's files: the `module.ron` manifest, data files, scenario files,
//! layout hints, and the values data may hold (including `unknown`).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use crate::fog::Sight;
use crate::ids::{
    BoxId, CardId, CounterId, PieceId, PlaceId, ScenarioId, SeatId, SpaceId, UnitKindId, ZoneId,
};
use crate::table::Visibility;
use crate::value::Value;

/// The module API version this engine implements.
pub const API_VERSION: u32 = 1;

/// `module.ron`: what a module is and which files make it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Module", deny_unknown_fields)]
pub struct Manifest {
    /// Short id, used in saves and overlay file names.
    pub id: String,
    /// Name shown to players.
    pub name: String,
    /// The module's own version.
    pub version: String,
    /// The engine API version the module was written for.
    pub api: u32,
    /// One paragraph about the module.
    #[serde(default)]
    pub description: String,
    /// The text the module's rules and figures come from (a rulebook, a playbook), whose
    /// lines its tables cite ("L1234"); none for a game of the designer's own, whose figures
    /// need no citation.
    #[serde(default)]
    pub source: Option<String>,
    /// Data files (RON), relative to the module folder.
    #[serde(default)]
    pub data: Vec<String>,
    /// Scenario files (RON), relative to the module folder.
    #[serde(default)]
    pub scenarios: Vec<String>,
    /// Lua files, relative to the module folder; `main` must be one of them.
    #[serde(default)]
    pub scripts: Vec<String>,
    /// The script that returns the rules' hook table.
    #[serde(default = "default_main")]
    pub main: String,
    /// The scenario the app opens when none is named.
    #[serde(default)]
    pub default_scenario: Option<ScenarioId>,
    /// An overlay of placeholder values, relative to the module folder, for trying the game
    /// before its owner has entered the real ones (`--demo`): read-only, and said on screen
    /// to be placeholders.
    #[serde(default)]
    pub demo: Option<String>,
    /// The game `--demo` and the first screen's *Try the demo* start when the person asks
    /// for no scenario, seat or option: a newcomer's first minute (a solitaire seating, say,
    /// one person against the bots).
    #[serde(default)]
    pub demo_game: Option<DemoGame>,
    /// The bots that play seats set to `bot` in games set up with given options (a seating
    /// that gives some seats a bot of its own), tried in order before a scenario's and a
    /// seat's own default bot.
    #[serde(default)]
    pub default_bots: Vec<OptionBots>,
    /// How the app should arrange the table.
    #[serde(default)]
    pub layout: Layout,
}

/// A demo's game, written as the command line gives a new game.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DemoGame {
    /// The scenario (default: the module's default).
    #[serde(default)]
    pub scenario: Option<ScenarioId>,
    /// Who plays each seat, as `--seat` takes it: "FR=bot", "RU=human".
    #[serde(default)]
    pub seats: Vec<String>,
    /// The set-up options, as `--option` takes them: "seating=solo".
    #[serde(default)]
    pub options: Vec<String>,
}

impl DemoGame {
    /// Whether a person plays beside bots: the demo then shows the table as the deciding
    /// seat sees it, and never passes the screen.
    pub fn is_solitaire(&self) -> bool {
        self.seats.iter().any(|s| {
            s.split_once('=')
                .is_some_and(|(_, who)| who.starts_with("bot"))
        })
    }
}

/// The default bots of games whose set-up options include every pair of `when`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OptionBots {
    /// The options (key and value) a game must have been set up with.
    pub when: BTreeMap<String, String>,
    /// The bot of each seat, by seat.
    pub bots: BTreeMap<SeatId, String>,
}

impl OptionBots {
    /// Whether a game set up with `options` (a map of option values) matches `when`.
    pub fn matches(&self, options: &Value) -> bool {
        self.when
            .iter()
            .all(|(key, value)| options.get(key).and_then(Value::as_str) == Some(value.as_str()))
    }
}

fn default_main() -> String {
    "rules/main.lua".to_owned()
}

/// Layout hints for the app: panels of components, in reading order.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Panels, each a titled group of components.
    #[serde(default)]
    pub panels: Vec<Panel>,
}

/// A titled group of components shown together.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Panel {
    /// The panel's title.
    pub title: String,
    /// The components, in order.
    #[serde(default)]
    pub items: Vec<LayoutItem>,
}

/// One component shown in a panel.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub enum LayoutItem {
    /// A zone of cards.
    Zone(ZoneId),
    /// A track or map.
    Place(PlaceId),
    /// A box of units.
    Box(BoxId),
    /// A counter.
    Counter(CounterId),
}

/// A data file: any of the component lists, each optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Data", deny_unknown_fields)]
pub struct DataFile {
    /// The typed fields cards carry.
    #[serde(default)]
    pub card_fields: Vec<FieldDef>,
    /// Cards.
    #[serde(default)]
    pub cards: Vec<CardDef>,
    /// Zones of cards.
    #[serde(default)]
    pub zones: Vec<ZoneDef>,
    /// Tracks and maps.
    #[serde(default)]
    pub places: Vec<PlaceDef>,
    /// Markers and blocks.
    #[serde(default)]
    pub pieces: Vec<PieceDef>,
    /// Kinds of counted units.
    #[serde(default)]
    pub unit_kinds: Vec<UnitKindDef>,
    /// Boxes of units.
    #[serde(default)]
    pub boxes: Vec<BoxDef>,
    /// Counters.
    #[serde(default)]
    pub counters: Vec<CounterDef>,
    /// Seats.
    #[serde(default)]
    pub seats: Vec<SeatDef>,
    /// Lookup tables the rules read (a chart, a schedule), whose entries may be unknown.
    #[serde(default)]
    pub tables: Vec<TableDef>,
    /// Boards: the table drawn as the game's own boards, components at coordinates.
    #[serde(default)]
    pub boards: Vec<BoardDef>,
    /// The options a game may be set up with (`--option KEY=VALUE`).
    #[serde(default)]
    pub options: Vec<OptionDef>,
}

/// A set-up option: a reading the rules leave to the players, a way of seating them, a
/// difficulty. A game may be given only the options its module declares, each only one of
/// its values.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Option", deny_unknown_fields)]
pub struct OptionDef {
    /// The key, as `--option KEY=VALUE` names it.
    pub key: String,
    /// What the option chooses, in words (with the rulebook's section where it has one).
    pub words: String,
    /// The values it takes, each with what it means, in the order to offer them. Empty: it
    /// takes a value of its own kind, which `takes` says and the set-up checks.
    #[serde(default)]
    pub values: Vec<(String, String)>,
    /// What an option without a list of values takes, in words ("P1 or P2 to a Great
    /// Power's card, as a map").
    #[serde(default)]
    pub takes: Option<String>,
    /// The value a game has when none is given (`None`: the option is absent, which the
    /// rules read as its own case).
    #[serde(default)]
    pub default: Option<String>,
}

/// The most bytes an option's value may have, written out.
pub const MAX_OPTION_VALUE_BYTES: usize = 1024;

impl OptionDef {
    /// The values as words: "a, b or c".
    pub fn values_text(&self) -> String {
        let values: Vec<&str> = self.values.iter().map(|(v, _)| v.as_str()).collect();
        match values.as_slice() {
            [] => self.takes.clone().unwrap_or_else(|| "any value".to_owned()),
            [one] => (*one).to_owned(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// Whether `value` is one this option takes (a listed value, written as it prints; for
    /// an option without a list, any value of at most [`MAX_OPTION_VALUE_BYTES`]).
    pub fn takes_value(&self, value: &Value) -> Result<(), String> {
        let text = value.to_string();
        if self.values.is_empty() {
            return match text.len() <= MAX_OPTION_VALUE_BYTES {
                true => Ok(()),
                false => Err(format!(
                    "option '{}' takes {} (at most {} bytes), not a value of {} bytes",
                    self.key,
                    self.values_text(),
                    MAX_OPTION_VALUE_BYTES,
                    text.len()
                )),
            };
        }
        let scalar = matches!(value, Value::Str(_) | Value::Int(_) | Value::Bool(_));
        if scalar && self.values.iter().any(|(v, _)| *v == text) {
            return Ok(());
        }
        let shown = match text.chars().count() {
            0..=40 => text,
            _ => format!(
                "{}… ({} bytes)",
                text.chars().take(40).collect::<String>(),
                text.len()
            ),
        };
        Err(format!(
            "option '{}' takes {}, not '{shown}' ({})",
            self.key,
            self.values_text(),
            self.words
        ))
    }
}

/// A point or a size on a board, in board units (a point of the screen at 100 %).
pub type BoardXY = (f32, f32);

/// A board: a surface the app draws, with components placed on it at coordinates. A module
/// with boards is shown as them; components on no board stay in the panels beside.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Board", deny_unknown_fields)]
pub struct BoardDef {
    /// The board's id.
    pub id: String,
    /// Its name, on its tab.
    pub name: String,
    /// Its width and height.
    pub size: BoardXY,
    /// The size of a space where an item does not give one.
    #[serde(default = "default_space_size")]
    pub space: BoardXY,
    /// Pieces that carry a box of units (an army block and its units): the units are shown
    /// on the piece, and units dropped on the piece go into its box.
    #[serde(default)]
    pub carries: BTreeMap<PieceId, BoxId>,
    /// What is drawn, bottom first.
    #[serde(default)]
    pub items: Vec<BoardItem>,
    /// The owner's image of the board and the spaces placed on it (from the overlay).
    #[serde(skip)]
    pub owner: OwnerBoard,
}

fn default_space_size() -> BoardXY {
    (110.0, 56.0)
}

/// One thing drawn on a board. Coordinates are of the top-left corner.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub enum BoardItem {
    /// A titled frame drawn under what lies in it (a front, a display).
    Area {
        /// Its title, written at its top.
        title: String,
        /// Where it is.
        at: BoardXY,
        /// Its size.
        size: BoardXY,
    },
    /// A line of text.
    Label {
        /// The text.
        text: String,
        /// Where it starts.
        at: BoardXY,
        /// Its height (16 if not given).
        #[serde(default)]
        height: Option<f32>,
    },
    /// A place whose spaces lie at coordinates (relative to `at`), with its links drawn
    /// between them. Spaces given no coordinates are drawn in a row below the others.
    Map {
        /// The place.
        place: PlaceId,
        /// The origin of the spaces' coordinates.
        at: BoardXY,
        /// Each space's top-left corner.
        #[serde(default)]
        spaces: BTreeMap<SpaceId, BoardXY>,
        /// The size of its spaces.
        #[serde(default)]
        space: Option<BoardXY>,
        /// Sizes of spaces that differ from the rest (a space that holds many pieces).
        #[serde(default)]
        sizes: BTreeMap<SpaceId, BoardXY>,
    },
    /// A place drawn as a numbered track: its spaces in order from `at`, each `step` from the
    /// one before, starting a new line (`wrap_step` further on) after every `wrap` spaces.
    Track {
        /// The place.
        place: PlaceId,
        /// The first space's top-left corner.
        at: BoardXY,
        /// From one space to the next (the space's width to the right if not given).
        #[serde(default)]
        step: Option<BoardXY>,
        /// Spaces on a line.
        #[serde(default)]
        wrap: Option<usize>,
        /// From one line to the next (the space's height down if not given).
        #[serde(default)]
        wrap_step: Option<BoardXY>,
        /// The size of its spaces.
        #[serde(default)]
        space: Option<BoardXY>,
    },
    /// A box of units.
    Box {
        /// The box.
        id: BoxId,
        /// Where it is.
        at: BoardXY,
        /// Its size.
        size: BoardXY,
    },
    /// A zone of cards: a deck as a stack, a hand as a row of cards.
    Zone {
        /// The zone.
        id: ZoneId,
        /// Where it is.
        at: BoardXY,
        /// Its size.
        size: BoardXY,
    },
    /// A counter and its value.
    Counter {
        /// The counter.
        id: CounterId,
        /// Where it is.
        at: BoardXY,
        /// Its size (160 by 28 if not given).
        #[serde(default)]
        size: Option<BoardXY>,
    },
}

impl BoardItem {
    /// The component the item draws, if any: its kind and id.
    pub fn component(&self) -> Option<(RefKind, &str)> {
        match self {
            BoardItem::Area { .. } | BoardItem::Label { .. } => None,
            BoardItem::Map { place, .. } | BoardItem::Track { place, .. } => {
                Some((RefKind::Place, place.as_str()))
            }
            BoardItem::Box { id, .. } => Some((RefKind::Box, id.as_str())),
            BoardItem::Zone { id, .. } => Some((RefKind::Zone, id.as_str())),
            BoardItem::Counter { id, .. } => Some((RefKind::Counter, id.as_str())),
        }
    }
}

/// A lookup table: entries by key, each a value or `unknown`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Table", deny_unknown_fields)]
pub struct TableDef {
    /// The table's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it means and where it comes from.
    #[serde(default)]
    pub doc: String,
    /// The type of its values.
    #[serde(rename = "type", default = "any_type")]
    pub kind: FieldType,
    /// The keys the table has. With `open`, any other key may be asked for and is unknown
    /// until entered.
    #[serde(default)]
    pub entries: BTreeMap<String, DataValue>,
    /// Whether keys beyond `entries` exist (a chart whose rows are not all known).
    #[serde(default)]
    pub open: bool,
    /// The bot chart this table is a column of, if it is one.
    #[serde(default)]
    pub chart: Option<ChartDef>,
}

/// The rule a bot's reason step names: its words before the first colon, when they begin
/// with a rule number such as "18.4.5.5" (flowchart coverage counts reasons by it).
pub fn rule_of(step: &str) -> Option<&str> {
    let head = step.split(':').next()?;
    let starts_with_number = head.chars().next().is_some_and(|c| c.is_ascii_digit())
        && head
            .chars()
            .take_while(|c| *c != ' ' && *c != ',')
            .any(|c| c == '.');
    (starts_with_number && head.len() < step.len()).then_some(head.trim())
}

/// A printed bot chart kept as data: a table whose entries are the chart's rows (or cells),
/// so that the owner copies them once and `chancery check` lists those still missing, and
/// so that flowchart coverage counts each row a bot's reasons name.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChartDef {
    /// The bot whose chart it is (coverage counts its reasons, once the rules have it).
    pub bot: String,
    /// The flowchart step each entry is, in words: `{key}` stands for the entry's key and
    /// `{key.1}`, `{key.2}`, … for its parts between slashes, each in words (see
    /// [`ChartDef::key_words`]): "20.4, {key.1}'s row {key.2}" reads "20.4, Austria's row 1"
    /// for the key "AU/1". A reason of the bot that begins with it, up to its first colon,
    /// reaches that row (a bot gets the words from `ctx:chart_row`). Without a key the whole
    /// table is one step (a grid of cells that one lookup reads, "21.6.2"). Of several
    /// tables that are columns of one chart, one names the step; the others leave it out.
    #[serde(default)]
    pub step: Option<String>,
    /// The value that marks a row past the printed chart's end ("none"): a row holding it
    /// is no step, so coverage does not ask for it.
    #[serde(default)]
    pub past_end: Option<String>,
    /// The words of the keys' parts that are no seat, card or piece ("limited": "Limited
    /// War", "transferred": "Military pile in the draw pile"), so that a player reads a row
    /// as the printed chart names it, never its key.
    #[serde(default)]
    pub key_words: BTreeMap<String, String>,
}

impl ChartDef {
    /// The parts of the step template that stand for a key's parts: 1 for `{key.1}`.
    pub fn key_parts(&self) -> Vec<usize> {
        let Some(step) = &self.step else {
            return Vec::new();
        };
        step.split("{key.")
            .skip(1)
            .filter_map(|rest| rest.split_once('}'))
            .filter_map(|(n, _)| n.parse().ok())
            .collect()
    }
}

fn any_type() -> FieldType {
    FieldType::Any
}

/// A typed field that every card may carry.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Field", deny_unknown_fields)]
pub struct FieldDef {
    /// The field's key in each card's `fields`.
    pub id: String,
    /// What the field means (shown in the card editor).
    #[serde(default)]
    pub doc: String,
    /// The field's type.
    #[serde(rename = "type")]
    pub kind: FieldType,
    /// The card groups (`deck` of a card) the field applies to; all cards if absent.
    #[serde(default)]
    pub decks: Option<Vec<String>>,
    /// Its name on a card's face ("Value"); its id with spaces if not given.
    #[serde(default)]
    pub label: Option<String>,
    /// Where a card's face shows it.
    #[serde(default)]
    pub on_card: OnCard,
}

/// Where a card's face shows a field.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
pub enum OnCard {
    /// A line of its own, "Label: value".
    #[default]
    Line,
    /// In the circle at the top left (a card's value or number).
    Corner,
    /// The seat the card belongs to: its colour along the top and its name on a line.
    Nation,
    /// Not on the small card (only on the whole face, on hover and in the editor).
    Off,
}

impl FieldDef {
    /// Its name on a card: its label, or its id with spaces ("drm_target" → "drm target").
    pub fn label(&self) -> String {
        self.label
            .clone()
            .unwrap_or_else(|| self.id.replace('_', " "))
    }

    /// Whether cards of group `deck` carry this field.
    pub fn applies_to(&self, deck: &str) -> bool {
        self.decks
            .as_ref()
            .is_none_or(|decks| decks.iter().any(|d| d == deck))
    }
}

/// The type of a card field or of part of one.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub enum FieldType {
    /// An integer.
    Int,
    /// Free text.
    Text,
    /// `true` or `false`.
    Bool,
    /// One of these strings.
    OneOf(Vec<String>),
    /// A list of values of one type.
    List(Box<FieldType>),
    /// A map from string keys to values of one type.
    Map(Box<FieldType>),
    /// A map from ids of one kind of component (unit kinds, seats) to values of one type:
    /// `MapOf(UnitKind, Int)` for strength points by unit kind.
    MapOf(RefKind, Box<FieldType>),
    /// A record: a map with exactly these keys, each with its own type (an event's text and
    /// whether it happens once), in the order a person fills them.
    Record(Vec<(String, FieldType)>),
    /// The id of a component of this kind.
    Ref(RefKind),
    /// Any plain value.
    Any,
}

impl FieldType {
    /// A value of this type as a person types it, to show what to type: `3`, `yes`,
    /// `{"text": "some words", "once": true}`. `ids` gives an id of a kind of component.
    pub fn example(&self, ids: &dyn Fn(RefKind) -> Option<String>) -> String {
        self.example_value(ids).to_typed()
    }

    fn example_value(&self, ids: &dyn Fn(RefKind) -> Option<String>) -> Value {
        match self {
            FieldType::Int | FieldType::Any => Value::Int(3),
            FieldType::Text => Value::Str("some words".to_owned()),
            FieldType::Bool => Value::Bool(true),
            FieldType::OneOf(options) => Value::Str(options.first().cloned().unwrap_or_default()),
            // Two items, told apart where their type lets them differ (a list of names
            // rarely holds one name twice).
            FieldType::List(inner) => Value::List(match (**inner).clone() {
                FieldType::Text => vec![
                    Value::Str("some words".to_owned()),
                    Value::Str("other words".to_owned()),
                ],
                FieldType::Int | FieldType::Any => vec![Value::Int(3), Value::Int(4)],
                _ => vec![inner.example_value(ids), inner.example_value(ids)],
            }),
            FieldType::Map(inner) => Value::Map(
                [("key".to_owned(), inner.example_value(ids))]
                    .into_iter()
                    .collect(),
            ),
            FieldType::MapOf(keys, inner) => Value::Map(
                [(
                    ids(*keys).unwrap_or_else(|| "id".to_owned()),
                    inner.example_value(ids),
                )]
                .into_iter()
                .collect(),
            ),
            FieldType::Record(fields) => Value::Map(
                fields
                    .iter()
                    .map(|(key, kind)| (key.clone(), kind.example_value(ids)))
                    .collect(),
            ),
            FieldType::Ref(kind) => Value::Str(ids(*kind).unwrap_or_else(|| "id".to_owned())),
        }
    }
}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldType::Int => f.write_str("an integer"),
            FieldType::Text => f.write_str("a string"),
            FieldType::Bool => f.write_str("true or false"),
            FieldType::OneOf(options) => write!(f, "one of {}", quoted_list(options)),
            FieldType::List(inner) => write!(f, "a list of ({inner})"),
            FieldType::Map(inner) => write!(f, "a map of string keys to ({inner})"),
            FieldType::MapOf(keys, inner) => {
                write!(f, "a map of {} ids to ({inner})", keys.noun())
            }
            FieldType::Record(fields) => {
                f.write_str("a record of ")?;
                for (i, (key, kind)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{key} ({kind})")?;
                }
                Ok(())
            }
            FieldType::Ref(kind) => write!(f, "the id of a {}", kind.noun()),
            FieldType::Any => f.write_str("any value"),
        }
    }
}

/// Formats `["a", "b"]` as `"a", "b"`.
pub fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Which kind of component a reference names.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub enum RefKind {
    /// A card.
    Card,
    /// A zone.
    Zone,
    /// A place.
    Place,
    /// A piece.
    Piece,
    /// A box.
    Box,
    /// A counter.
    Counter,
    /// A seat.
    Seat,
    /// A unit kind.
    UnitKind,
}

impl RefKind {
    /// The component's name in messages.
    pub fn noun(self) -> &'static str {
        match self {
            RefKind::Card => "card",
            RefKind::Zone => "zone",
            RefKind::Place => "place",
            RefKind::Piece => "piece",
            RefKind::Box => "box",
            RefKind::Counter => "counter",
            RefKind::Seat => "seat",
            RefKind::UnitKind => "unit kind",
        }
    }
}

/// A value in module data, which may be `unknown` (not entered yet by the owner).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum DataValue {
    /// The value is known.
    Known(Value),
    /// The value is printed on the physical component but not entered yet.
    #[default]
    Unknown,
}

impl DataValue {
    /// The value, if known.
    pub fn known(&self) -> Option<&Value> {
        match self {
            DataValue::Known(v) => Some(v),
            DataValue::Unknown => None,
        }
    }
}

/// The keys of `values` whose values are not entered yet, in key order.
pub fn unknown_keys(values: &BTreeMap<String, DataValue>) -> Vec<String> {
    let mut keys: Vec<String> = values
        .iter()
        .filter(|(_, v)| **v == DataValue::Unknown)
        .map(|(k, _)| k.clone())
        .collect();
    keys.sort_by(|a, b| natural_order(a, b));
    keys
}

/// Orders keys as a person reads them: the numbers in them by value ("turn/9" before
/// "turn/10", "RU/2" before "RU/12").
pub fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn parts(s: &str) -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, part)) if *d == digit => part.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    }
    let (pa, pb) = (parts(a), parts(b));
    for (x, y) in pa.iter().zip(&pb) {
        let order = match (x, y) {
            ((true, m), (true, n)) => (m.len(), m).cmp(&(n.len(), n)),
            _ => x.1.cmp(&y.1),
        };
        if order != std::cmp::Ordering::Equal {
            return order;
        }
    }
    pa.len().cmp(&pb.len())
}

impl Serialize for DataValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            DataValue::Known(v) => v.serialize(serializer),
            DataValue::Unknown => serializer.serialize_unit_struct("unknown"),
        }
    }
}

impl<'de> Deserialize<'de> for DataValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DataValueVisitor)
    }
}

struct DataValueVisitor;

impl<'de> Visitor<'de> for DataValueVisitor {
    type Value = DataValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value, or `unknown`")
    }

    // RON hands every bare identifier (`unknown`) to `visit_unit`; the loader checks that
    // the word really was `unknown`.
    fn visit_unit<E>(self) -> Result<DataValue, E> {
        Ok(DataValue::Unknown)
    }

    fn visit_bool<E>(self, b: bool) -> Result<DataValue, E> {
        Ok(DataValue::Known(Value::Bool(b)))
    }

    fn visit_i64<E>(self, i: i64) -> Result<DataValue, E> {
        Ok(DataValue::Known(Value::Int(i)))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<DataValue, E> {
        i64::try_from(u)
            .map(|i| DataValue::Known(Value::Int(i)))
            .map_err(|_| E::custom(format!("integer {u} is too large")))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<DataValue, E> {
        if f.is_finite() {
            Ok(DataValue::Known(Value::Float(f)))
        } else {
            Err(E::custom("numbers must be finite"))
        }
    }

    fn visit_str<E>(self, s: &str) -> Result<DataValue, E> {
        Ok(DataValue::Known(Value::Str(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<DataValue, E> {
        Ok(DataValue::Known(Value::Str(s)))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<DataValue, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(DataValue::Known(Value::List(items)))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<DataValue, A::Error> {
        let mut m = BTreeMap::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            m.insert(k, v);
        }
        Ok(DataValue::Known(Value::Map(m)))
    }
}

/// A card.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Card", deny_unknown_fields)]
pub struct CardDef {
    /// The card's id.
    pub id: CardId,
    /// The name printed on the card.
    pub name: String,
    /// The card's group ("character", "event", "situation"…), which decides the fields it carries.
    #[serde(default)]
    pub deck: String,
    /// The card's text, in the module's own words.
    #[serde(default)]
    pub text: String,
    /// Values of the module's card fields; a declared field that is absent is unknown.
    #[serde(default)]
    pub fields: BTreeMap<String, DataValue>,
    /// Where the card's figures come from: the lines of the module's source that print or
    /// show them ("L537-L539").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

/// A zone of cards.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Zone", deny_unknown_fields)]
pub struct ZoneDef {
    /// The zone's id.
    pub id: ZoneId,
    /// Its name.
    pub name: String,
    /// Who may see its cards.
    #[serde(default = "default_visibility")]
    pub visibility: Visibility,
    /// The seat that owns it (a hand).
    #[serde(default)]
    pub owner: Option<SeatId>,
    /// Other seats that see it as its owner does (a team's hand), with visibility `Owner`.
    #[serde(default)]
    pub shared_with: Vec<SeatId>,
    /// How cards lie when they enter it.
    #[serde(default)]
    pub face: Face,
}

fn default_visibility() -> Visibility {
    Visibility::Public
}

/// How cards lie.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
pub enum Face {
    /// Face up.
    #[default]
    Up,
    /// Face down.
    Down,
}

/// A track or a map: spaces, and links between spaces.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Place", deny_unknown_fields)]
pub struct PlaceDef {
    /// The place's id.
    pub id: PlaceId,
    /// Its name.
    pub name: String,
    /// Track (spaces in a row) or map (spaces joined by links).
    #[serde(default)]
    pub kind: PlaceKind,
    /// The spaces, in order.
    #[serde(default)]
    pub spaces: Vec<SpaceDef>,
    /// Pairs of connected spaces (both directions).
    #[serde(default)]
    pub links: Vec<(SpaceId, SpaceId)>,
    /// Who may see the pieces on it (fog of war): `Public` (the default), `Owner` (each
    /// seat its own pieces), `Seats([..])` or `Umpire`.
    #[serde(default, skip_serializing_if = "is_public")]
    pub sight: Sight,
}

fn is_public(sight: &Sight) -> bool {
    *sight == Sight::Public
}

/// The shape of a place.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
pub enum PlaceKind {
    /// Spaces in a row; each is next to the one before and after.
    #[default]
    Track,
    /// Spaces joined only by the declared links.
    Map,
}

/// A space of a place.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Space", deny_unknown_fields)]
pub struct SpaceDef {
    /// The space's id, unique within its place.
    pub id: SpaceId,
    /// Its name.
    #[serde(default)]
    pub name: String,
    /// Properties the rules read (free-form; values may be `unknown`).
    #[serde(default)]
    pub props: BTreeMap<String, DataValue>,
    /// Who may see the pieces on it, where it differs from its place's sight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<Sight>,
    /// Where its figures come from: the lines of the module's source ("L451").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

/// A marker or block that stands on spaces.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Piece", deny_unknown_fields)]
pub struct PieceDef {
    /// The piece's id.
    pub id: PieceId,
    /// Its name.
    pub name: String,
    /// What sort of piece: "marker", "block", "pawn"… (free, for the app and the rules).
    #[serde(default = "default_piece_kind")]
    pub kind: String,
    /// The seat it belongs to.
    #[serde(default)]
    pub owner: Option<SeatId>,
    /// Its colour on the board, "#rrggbb" (default: its owner's colour): a piece whose
    /// colour is not its seat's, as a purple pawn of a seat whose colour is red.
    #[serde(default)]
    pub colour: Option<String>,
    /// Properties the rules read.
    #[serde(default)]
    pub props: BTreeMap<String, DataValue>,
    /// Where its figures come from: the lines of the module's source ("L451").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

impl PieceDef {
    /// Its colour as red, green and blue, if it names one.
    pub fn rgb(&self) -> Option<[u8; 3]> {
        parse_rgb(self.colour.as_deref()?)
    }
}

/// "#7b4ea8" as red, green and blue.
pub fn parse_rgb(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#').filter(|h| h.len() == 6)?;
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

fn default_piece_kind() -> String {
    "marker".to_owned()
}

/// A kind of counted unit.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "UnitKind", deny_unknown_fields)]
pub struct UnitKindDef {
    /// The kind's id.
    pub id: UnitKindId,
    /// Its name.
    pub name: String,
    /// The seat it belongs to.
    #[serde(default)]
    pub owner: Option<SeatId>,
}

/// A box holding counted units.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Box", deny_unknown_fields)]
pub struct BoxDef {
    /// The box's id.
    pub id: BoxId,
    /// Its name.
    pub name: String,
    /// The kinds it may hold; all kinds if absent.
    #[serde(default)]
    pub kinds: Option<Vec<UnitKindId>>,
    /// The seat it belongs to (which sees it under a sight of `Owner`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<SeatId>,
    /// Who may see its units (fog of war): `Public` (the default), `Owner` (the box's
    /// owner, and each seat the units of its own kinds), `Seats([..])` or `Umpire`.
    #[serde(default, skip_serializing_if = "is_public")]
    pub sight: Sight,
}

/// A named integer with bounds.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Counter", deny_unknown_fields)]
pub struct CounterDef {
    /// The counter's id.
    pub id: CounterId,
    /// Its name.
    pub name: String,
    /// The lowest value.
    #[serde(default)]
    pub min: Option<i64>,
    /// The highest value.
    #[serde(default)]
    pub max: Option<i64>,
    /// The value a game starts with, unless the scenario sets another.
    #[serde(default)]
    pub initial: i64,
}

/// A seat at the table.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Seat", deny_unknown_fields)]
pub struct SeatDef {
    /// The seat's id.
    pub id: SeatId,
    /// Its name.
    pub name: String,
    /// The bot that plays it when it is set to `bot`.
    #[serde(default)]
    pub bot: Option<String>,
}

/// A scenario: which seats play and how the table is set up before the rules' `setup`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Scenario", deny_unknown_fields)]
pub struct ScenarioDef {
    /// The scenario's id.
    pub id: ScenarioId,
    /// Its name.
    pub name: String,
    /// A paragraph about it.
    #[serde(default)]
    pub description: String,
    /// The seats that play (all of the module's seats if absent).
    #[serde(default)]
    pub seats: Option<Vec<SeatId>>,
    /// The seat of the umpire, if the game has one: one of its seats, played by a person,
    /// who sees everything and may answer for any seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub umpire: Option<SeatId>,
    /// The bot that plays a seat set to `bot` in this scenario, by seat, where it differs
    /// from the seat's own bot (a scenario with a bot of its own).
    #[serde(default)]
    pub bots: BTreeMap<SeatId, String>,
    /// The set-up options a bot-only game of this scenario (`chancery sim`, the Balance
    /// panel) takes where it is not given them: a scenario whose usual seating has no bot of
    /// the game's own can be played by bots in a seating that has them.
    #[serde(default)]
    pub bot_options: BTreeMap<String, String>,
    /// The turn the game starts on.
    #[serde(default)]
    pub turn: i64,
    /// The phase the game starts in.
    #[serde(default)]
    pub phase: String,
    /// Counter values that differ from the counters' initial values.
    #[serde(default)]
    pub counters: BTreeMap<CounterId, i64>,
    /// Cards placed in zones, top first.
    #[serde(default)]
    pub zones: BTreeMap<ZoneId, Vec<CardId>>,
    /// The zone that receives every card not placed by `zones` (if any).
    #[serde(default)]
    pub rest_to: Option<ZoneId>,
    /// Pieces placed on spaces, by place.
    #[serde(default)]
    pub pieces: BTreeMap<PlaceId, BTreeMap<PieceId, SpaceId>>,
    /// Units placed in boxes.
    #[serde(default)]
    pub boxes: BTreeMap<BoxId, BTreeMap<UnitKindId, i64>>,
    /// Initial rule variables (`ctx.vars`) and anything else the module's setup reads.
    #[serde(default)]
    pub vars: BTreeMap<String, Value>,
    /// Where its set-up's figures come from: the lines of the module's source ("L700-L760").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

/// An owner's overlay: data entered from the physical game, merged over the module's data.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename = "Overlay", deny_unknown_fields)]
pub struct OverlayFile {
    /// The id of the module this overlay completes.
    pub module: String,
    /// Card field values, by card id then field id (`name` and `text` set the card's name
    /// and text).
    #[serde(default)]
    pub cards: BTreeMap<CardId, BTreeMap<String, DataValue>>,
    /// Space properties, by "place/space" then property.
    #[serde(default)]
    pub spaces: BTreeMap<String, BTreeMap<String, DataValue>>,
    /// Piece properties, by piece id then property.
    #[serde(default)]
    pub pieces: BTreeMap<PieceId, BTreeMap<String, DataValue>>,
    /// Table entries, by table id then key.
    #[serde(default)]
    pub tables: BTreeMap<String, BTreeMap<String, DataValue>>,
    /// Spaces and links a place lacks in the module (a map the module knows only in part).
    #[serde(default)]
    pub places: BTreeMap<PlaceId, PlaceOverlay>,
    /// The owner's own copy of each board: a picture of it and where its spaces lie on it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub boards: BTreeMap<String, BoardOverlay>,
}

/// The owner's copy of a board, in the overlay.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename = "BoardOverlay", deny_unknown_fields)]
pub struct BoardOverlay {
    /// An image of the owner's board (a PNG or JPEG scan or photo), relative to the
    /// overlay's folder; drawn under the board, filling its width.
    #[serde(default)]
    pub image: Option<String>,
    /// Where spaces lie on the board (top-left corners, board units), by "place/space";
    /// they take the place of the module's coordinates.
    #[serde(default)]
    pub spaces: BTreeMap<String, BoardXY>,
}

/// What the owner's overlay says of a board, merged into the module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OwnerBoard {
    /// The image of the owner's board, if the overlay names one.
    pub image: Option<std::path::PathBuf>,
    /// Where the owner put spaces, by place and space.
    pub spaces: BTreeMap<(PlaceId, SpaceId), BoardXY>,
}

/// What an overlay adds to a place.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename = "PlaceOverlay", deny_unknown_fields)]
pub struct PlaceOverlay {
    /// New spaces, appended.
    #[serde(default)]
    pub spaces: Vec<SpaceDef>,
    /// New links between spaces.
    #[serde(default)]
    pub links: Vec<(SpaceId, SpaceId)>,
}
