//! Modules: the manifest, RON data, scenarios, Lua sources and the owner's overlay, loaded
//! and validated into one immutable [`Module`], with compiler-style diagnostics.

mod data;
mod diag;
mod load;
mod loader;
mod locate;
mod overlay;
mod ronedit;
mod ronlex;
mod validate;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use data::{
    API_VERSION, BoardDef, BoardItem, BoardOverlay, BoardXY, BoxDef, CardDef, ChartDef, CounterDef,
    DataFile, DataValue, DemoGame, Face, FieldDef, FieldType, Layout, LayoutItem,
    MAX_OPTION_VALUE_BYTES, Manifest, OnCard, OptionBots, OptionDef, OverlayFile, OwnerBoard,
    Panel, PieceDef, PlaceDef, PlaceKind, PlaceOverlay, RefKind, ScenarioDef, SeatDef, SpaceDef,
    TableDef, UnitKindDef, ZoneDef, quoted_list, rule_of, unknown_keys,
};
pub use diag::{Diagnostic, Diagnostics, Severity};
pub use load::{Depth, Inspect, LoadOptions, OverlayChoice};
pub use locate::{Anchor, Locator};
pub use overlay::{
    OverlayTarget, data_dir, default_overlay_path, write_overlay_board, write_overlay_value,
};

use crate::ids::{
    BoxId, CardId, CounterId, PieceId, PlaceId, ScenarioId, SeatId, SpaceId, UnitKindId, ZoneId,
};
use crate::value::Value;

/// Definitions of one kind, in declaration order, found by id.
#[derive(Clone, Debug)]
pub struct Catalog<K, V> {
    items: Vec<V>,
    index: BTreeMap<K, usize>,
}

impl<K: Ord, V> Default for Catalog<K, V> {
    fn default() -> Self {
        Catalog {
            items: Vec::new(),
            index: BTreeMap::new(),
        }
    }
}

impl<K: Ord + Clone + std::borrow::Borrow<str>, V> Catalog<K, V> {
    /// The definition with this id.
    pub fn get(&self, id: &str) -> Option<&V> {
        self.index.get(id).map(|&i| &self.items[i])
    }

    /// Whether an item has this id.
    pub fn contains(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }

    /// All definitions, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = &V> {
        self.items.iter()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Adds `item` under `id`; returns false (and adds nothing) if the id is taken.
    fn insert(&mut self, id: K, item: V) -> bool {
        if self.index.contains_key(id.borrow()) {
            return false;
        }
        self.index.insert(id, self.items.len());
        self.items.push(item);
        true
    }

    fn get_mut(&mut self, id: &str) -> Option<&mut V> {
        let i = *self.index.get(id)?;
        self.items.get_mut(i)
    }
}

/// A place with its spaces indexed and its adjacency worked out.
#[derive(Clone, Debug)]
pub struct Place {
    /// The definition as written.
    pub def: PlaceDef,
    adjacent: BTreeMap<SpaceId, Vec<SpaceId>>,
}

impl Place {
    fn new(def: PlaceDef) -> Self {
        let mut adjacent: BTreeMap<SpaceId, Vec<SpaceId>> = BTreeMap::new();
        let mut link = |a: &SpaceId, b: &SpaceId| {
            let list = adjacent.entry(a.clone()).or_default();
            if !list.contains(b) {
                list.push(b.clone());
            }
        };
        if def.kind == PlaceKind::Track {
            for pair in def.spaces.windows(2) {
                link(&pair[0].id, &pair[1].id);
                link(&pair[1].id, &pair[0].id);
            }
        }
        for (a, b) in &def.links {
            link(a, b);
            link(b, a);
        }
        Place { def, adjacent }
    }

    /// The space with this id.
    pub fn space(&self, id: &str) -> Option<&SpaceDef> {
        self.def.spaces.iter().find(|s| s.id.as_str() == id)
    }

    /// The spaces next to `space`, in declaration order of the links.
    pub fn neighbors(&self, space: &str) -> &[SpaceId] {
        self.adjacent.get(space).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// A Lua source file of the module.
#[derive(Clone, Debug)]
pub struct ScriptSource {
    /// The path relative to the module folder, as the manifest lists it (`rules/main.lua`).
    pub rel: String,
    /// The path shown in diagnostics (`modules/<module>/rules/main.lua`).
    pub path: PathBuf,
    /// The source text.
    pub text: String,
}

/// What the rules script declares, found when the module is loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RulesInfo {
    /// The names of the states in `states`.
    pub states: Vec<String>,
    /// The names of the bots in `bots`.
    pub bots: Vec<String>,
    /// Which optional hooks exist (`view`, `check`).
    pub hooks: Vec<String>,
    /// The ids of the module's data that have registered effects, with their hooks.
    pub effects: BTreeMap<String, Vec<String>>,
    /// The procedures declared with `steps.procedure`, by state name (empty when only the
    /// syntax was checked).
    #[serde(default)]
    pub procedures: Vec<Procedure>,
    /// Where each state's own work is written (its `prompt` or `run`), by state name.
    #[serde(default)]
    pub places: BTreeMap<String, SourceLine>,
}

/// A line of one of the module's scripts, by its path in the module (`rules/turn.lua`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SourceLine {
    /// The script's path relative to the module folder.
    pub file: String,
    /// The line, from 1.
    pub line: u32,
}

/// A procedure a module declares with `steps.procedure`: a state that runs its steps in
/// the order the rules give them.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Procedure {
    /// The state that runs it.
    pub state: String,
    /// Its title, as the module names it ("16.2 Diplomacy Phase").
    pub title: String,
    /// Where it is declared (the line of its `steps.procedure` call), when the title is
    /// written there as a plain string.
    pub at: Option<SourceLine>,
    /// Whether it starts over after its last step (the phases of a turn).
    pub again: bool,
    /// Its steps, in order.
    pub steps: Vec<ProcedureStep>,
}

/// One step of a declared procedure.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProcedureStep {
    /// Its name, with the rule number the module gives it ("3. Spend Resources").
    pub name: String,
    /// Where its `run` function begins.
    pub at: SourceLine,
    /// The last line of its `run` function.
    pub end_line: u32,
    /// Whether it runs once for each of a list (it has `each`).
    pub each: bool,
    /// The states it may call, as it declares them.
    pub calls: Vec<String>,
}

/// How many single-letter edits turn `a` into `b` (Levenshtein distance).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

/// Where the owner's overlay came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverlayInfo {
    /// The overlay file.
    pub path: PathBuf,
    /// Whether the file existed when the module was loaded.
    pub present: bool,
    /// How many values it supplied.
    pub values: usize,
    /// Whether a saved game named it (rather than the person): values are not stored in it
    /// unless the person names it.
    pub named_by_save: bool,
    /// Whether it is the module's demo overlay (`--demo`): placeholder values, read-only.
    pub demo: bool,
    /// What is wrong with it: the module loads all the same, without any of its values.
    pub errors: Diagnostics,
}

/// Where the values of one table come from ([`Module::table_sources`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSource {
    /// The table's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The values the module itself gives.
    pub given: usize,
    /// The values left to the owner of the physical game (`unknown`).
    pub owner: usize,
    /// Whether its doc cites a line of the module's source ("L1234").
    pub cited: bool,
}

/// Where the figures of one card, space or piece come from ([`Module::figure_sources`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureSource {
    /// "card", "space", "piece" or "scenario".
    pub what: &'static str,
    /// Its id; a space's is its place's id, then its own.
    pub path: Vec<String>,
    /// Its name.
    pub name: String,
    /// The whole numbers its values give.
    pub figures: usize,
    /// Whether its `source` cites a line of the module's source ("L1234").
    pub cited: bool,
}

/// The whole numbers a value gives: itself, or those of a list or a map.
fn figures_in(value: &DataValue) -> usize {
    match value {
        DataValue::Known(v) => count_figures(v),
        DataValue::Unknown => 0,
    }
}

/// The whole numbers of a plain value: itself, or those of a list or a map.
fn count_figures(v: &Value) -> usize {
    match v {
        Value::Int(_) => 1,
        Value::List(items) => items.iter().map(count_figures).sum(),
        Value::Map(map) => map.values().map(count_figures).sum(),
        _ => 0,
    }
}

/// Whether `doc` cites a line of a source text: an `L` that begins a word, then a digit
/// ("L425", "L425-L431").
pub fn cites_lines(doc: &str) -> bool {
    let bytes = doc.as_bytes();
    bytes.windows(2).enumerate().any(|(i, pair)| {
        pair[0] == b'L'
            && pair[1].is_ascii_digit()
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
    })
}

/// A loaded, validated module: immutable, shared by every session that plays it.
#[derive(Clone, Debug)]
pub struct Module {
    /// The module folder, as the user named it.
    pub dir: PathBuf,
    /// `module.ron`.
    pub manifest: Manifest,
    /// The typed fields cards carry.
    pub card_fields: Vec<FieldDef>,
    /// Cards, with the owner's overlay merged in.
    pub cards: Catalog<CardId, CardDef>,
    /// Zones.
    pub zones: Catalog<ZoneId, ZoneDef>,
    /// Tracks and maps.
    pub places: Catalog<PlaceId, Place>,
    /// Markers and blocks.
    pub pieces: Catalog<PieceId, PieceDef>,
    /// Unit kinds.
    pub unit_kinds: Catalog<UnitKindId, UnitKindDef>,
    /// Boxes.
    pub boxes: Catalog<BoxId, BoxDef>,
    /// Counters.
    pub counters: Catalog<CounterId, CounterDef>,
    /// Seats.
    pub seats: Catalog<SeatId, SeatDef>,
    /// Scenarios.
    pub scenarios: Catalog<ScenarioId, ScenarioDef>,
    /// Lookup tables.
    pub tables: Catalog<String, TableDef>,
    /// Boards, in the order the data files give them.
    pub boards: Catalog<String, BoardDef>,
    /// The set-up options a game may be given, in the order the data files give them.
    pub options: Catalog<String, OptionDef>,
    /// Lua sources, `main` first.
    pub scripts: Vec<ScriptSource>,
    /// What the rules declare.
    pub rules: RulesInfo,
    /// The owner's overlay.
    pub overlay: Option<OverlayInfo>,
    /// Problems that did not stop the load.
    pub warnings: Diagnostics,
    /// A digest of every source file, the owner's overlay among them, to tell versions of a
    /// module apart.
    pub fingerprint: u64,
    /// A digest of the module's own files, without the overlay: what a redacted save names,
    /// since its player reads the module with an overlay of his own.
    pub files_fingerprint: u64,
}

impl Module {
    /// Checks the options a game is set up with against those the module declares: an
    /// unknown key, or a value its option does not take, is an error that lists what the
    /// module takes.
    pub fn check_options(&self, options: &Value) -> Result<(), String> {
        let given = match options {
            Value::Map(given) => given,
            Value::Nil => return Ok(()),
            other => return Err(format!("the options are a map of KEY=VALUE, not '{other}'")),
        };
        for (key, value) in given {
            let Some(option) = self.options.get(key) else {
                let known = match self.options.is_empty() {
                    true => "it has no set-up options".to_owned(),
                    false => format!(
                        "its options are {}",
                        self.options
                            .iter()
                            .map(|o| format!("{} ({})", o.key, o.values_text()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                let shown: String = key.chars().take(60).collect();
                let near = self
                    .options
                    .iter()
                    .find(|o| key.len() < 200 && edit_distance(&o.key, key) <= 2)
                    .map(|o| format!(" (did you mean '{}'?)", o.key))
                    .unwrap_or_default();
                return Err(format!(
                    "module '{}' has no option '{shown}'{near}: {known} (see the module's README)",
                    self.id()
                ));
            };
            option.takes_value(value)?;
        }
        Ok(())
    }

    /// Records in `fog` who owns each of the module's pieces, kinds of unit and boxes (the
    /// owners a sight of `Owner` reads), if it does not know them yet.
    pub fn add_fog_owners(&self, fog: &mut crate::fog::Fog) {
        if !fog.piece_owners.is_empty() || !fog.kind_owners.is_empty() || !fog.box_owners.is_empty()
        {
            return;
        }
        for piece in self.pieces.iter() {
            if let Some(owner) = &piece.owner {
                fog.piece_owners.insert(piece.id.clone(), owner.clone());
            }
        }
        for kind in self.unit_kinds.iter() {
            if let Some(owner) = &kind.owner {
                fog.kind_owners.insert(kind.id.clone(), owner.clone());
            }
        }
        for boxed in self.boxes.iter() {
            if let Some(owner) = &boxed.owner {
                fog.box_owners.insert(boxed.id.clone(), owner.clone());
            }
        }
    }

    /// Loads and validates the module in folder `dir`; `inspect` reads its scripts and says
    /// what the rules declare (`chancery_core::load_module` passes the Lua host's).
    pub fn load_with(
        dir: impl AsRef<Path>,
        options: &LoadOptions,
        inspect: Inspect<'_>,
    ) -> Result<Module, Diagnostics> {
        load::load(dir.as_ref(), options, inspect)
    }

    /// The module's id.
    pub fn id(&self) -> &str {
        &self.manifest.id
    }

    /// Whether the game plays the module's demo values (`--demo`): placeholders, read-only.
    pub fn is_demo(&self) -> bool {
        self.overlay.as_ref().is_some_and(|o| o.demo)
    }

    /// The overlay file values the players enter are stored in, or why none is: a game
    /// without an overlay, the demo's placeholders, an overlay inside a module folder (a
    /// test fixture, never the owner's), one that only a saved game names, or one with
    /// errors to mend first.
    pub fn overlay_for_storing(&self) -> Result<&Path, String> {
        let Some(overlay) = &self.overlay else {
            return Err(
                "this game was started without an overlay (--no-overlay): nothing can be stored"
                    .to_owned(),
            );
        };
        let path = overlay.path.as_path();
        if overlay.demo {
            return Err(format!(
                "this is the demo: its values are placeholders for trying the game, and nothing \
                 entered here is stored; start without --demo to enter the real values (they \
                 go to {})",
                default_overlay_path(self.id())
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "your overlay".to_owned())
            ));
        }
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let folder = path.parent().map(real).unwrap_or_default();
        if folder.starts_with(real(&self.dir)) {
            return Err(format!(
                "{} is inside the module's folder (a test fixture, read-only): values you enter go \
                 to your own overlay; start without --overlay to use {}, or name a file of yours \
                 with --overlay FILE",
                path.display(),
                default_overlay_path(self.id())
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "your overlay".to_owned())
            ));
        }
        if overlay.named_by_save {
            return Err(format!(
                "the saved game names {} as its overlay, and values are stored only in an overlay \
                 you name: open the game with --overlay {} to store them there (or --overlay \
                 YOUR_FILE)",
                path.display(),
                path.display()
            ));
        }
        if let Some(first) = overlay.errors.iter().next() {
            return Err(format!(
                "the overlay has errors to mend before values can be stored in it:\n{first}"
            ));
        }
        Ok(path)
    }

    /// The scenario played when none is named: the manifest's default, else the first.
    pub fn default_scenario(&self) -> Option<&ScenarioDef> {
        match &self.manifest.default_scenario {
            Some(id) => self.scenarios.get(id.as_str()),
            None => self.scenarios.iter().next(),
        }
    }

    /// The fields of `card` that are still unknown (declared for its group but absent, or
    /// `unknown`).
    pub fn unknown_fields(&self, card: &CardDef) -> Vec<String> {
        self.card_fields
            .iter()
            .filter(|f| f.applies_to(&card.deck))
            .filter(|f| !matches!(card.fields.get(&f.id), Some(DataValue::Known(_))))
            .map(|f| f.id.clone())
            .collect()
    }

    /// Every card that has unknown fields, with those fields, in declaration order.
    pub fn unknown_report(&self) -> Vec<(CardId, Vec<String>)> {
        self.cards
            .iter()
            .map(|c| (c.id.clone(), self.unknown_fields(c)))
            .filter(|(_, fields)| !fields.is_empty())
            .collect()
    }

    /// The value of `field` on `card`: `Some(Unknown)` when not entered yet, `None` when the
    /// card or the field does not exist.
    pub fn card_field(&self, card: &str, field: &str) -> Option<DataValue> {
        self.card_field_ref(card, field).cloned()
    }

    /// Whether the card's `field` is entered ([`Module::card_field`] without the copy):
    /// `None` when the card or the field does not exist.
    pub fn card_field_known(&self, card: &str, field: &str) -> Option<bool> {
        self.card_field_ref(card, field)
            .map(|v| matches!(v, DataValue::Known(_)))
    }

    fn card_field_ref(&self, card: &str, field: &str) -> Option<&DataValue> {
        static UNKNOWN: DataValue = DataValue::Unknown;
        let card = self.cards.get(card)?;
        let entered = card.fields.get(field);
        if self
            .card_fields
            .iter()
            .any(|f| f.id == field && f.applies_to(&card.deck))
        {
            return Some(entered.unwrap_or(&UNKNOWN));
        }
        entered
    }

    /// The value of `key` in table `table`: `Some(Unknown)` when it is not entered yet (or
    /// the table is open and lacks it), `None` when there is no such table or key.
    pub fn table_entry(&self, table: &str, key: &str) -> Option<DataValue> {
        let table = self.tables.get(table)?;
        match table.entries.get(key) {
            Some(value) => Some(value.clone()),
            None if table.open => Some(DataValue::Unknown),
            None => None,
        }
    }

    /// Where each table's values come from: how many the module gives, how many it leaves to
    /// the owner, and whether its doc cites the lines of the module's source they are read
    /// from. Counted on a module loaded without an overlay (an overlay fills the owner's).
    pub fn table_sources(&self) -> Vec<TableSource> {
        self.tables
            .iter()
            .map(|t| {
                let owner = t
                    .entries
                    .values()
                    .filter(|v| matches!(v, DataValue::Unknown))
                    .count();
                TableSource {
                    id: t.id.clone(),
                    name: t.name.clone(),
                    given: t.entries.len() - owner,
                    owner,
                    cited: cites_lines(&t.doc),
                }
            })
            .collect()
    }

    /// The cards, spaces and pieces whose values give figures (whole numbers, alone or in
    /// a map), each with how many it gives and whether its `source` cites the lines of the
    /// module's source they come from. Counted on a module loaded without an overlay.
    pub fn figure_sources(&self) -> Vec<FigureSource> {
        let mut list = Vec::new();
        let mut add = |what, path: Vec<String>, name: &str, figures: usize, source: &str| {
            if figures > 0 {
                list.push(FigureSource {
                    what,
                    path,
                    name: name.to_owned(),
                    figures,
                    cited: cites_lines(source),
                });
            }
        };
        let in_values = |values: &BTreeMap<String, DataValue>| -> usize {
            values.values().map(figures_in).sum()
        };
        for card in self.cards.iter() {
            let path = vec![card.id.to_string()];
            add(
                "card",
                path,
                &card.name,
                in_values(&card.fields),
                &card.source,
            );
        }
        for place in self.places.iter() {
            for space in &place.def.spaces {
                let path = vec![place.def.id.to_string(), space.id.to_string()];
                add(
                    "space",
                    path,
                    &space.name,
                    in_values(&space.props),
                    &space.source,
                );
            }
        }
        for piece in self.pieces.iter() {
            let path = vec![piece.id.to_string()];
            add(
                "piece",
                path,
                &piece.name,
                in_values(&piece.props),
                &piece.source,
            );
        }
        for scenario in self.scenarios.iter() {
            // The set-up's counters and units, and the whole numbers of its variables.
            let figures = scenario.counters.len()
                + scenario.boxes.values().map(BTreeMap::len).sum::<usize>()
                + scenario.vars.values().map(count_figures).sum::<usize>();
            let path = vec![scenario.id.to_string()];
            add("scenario", path, &scenario.name, figures, &scenario.source);
        }
        list
    }

    /// The entries of each table that are not entered yet, for tables that have any (bot
    /// charts with the rest: see [`TableDef::chart`]).
    pub fn unknown_table_entries(&self) -> Vec<(String, Vec<String>)> {
        self.tables
            .iter()
            .map(|t| (t.id.clone(), unknown_keys(&t.entries)))
            .filter(|(_, keys)| !keys.is_empty())
            .collect()
    }

    /// Whether any value is left for the owner of the physical game to enter: a card field,
    /// a table entry (or an open table's), a piece's or a space's property. A module without
    /// any plays the same with or without `--demo`.
    pub fn needs_owner_data(&self) -> bool {
        let unknown = |props: &BTreeMap<String, DataValue>| {
            props.values().any(|v| matches!(v, DataValue::Unknown))
        };
        !self.unknown_report().is_empty()
            || !self.unknown_table_entries().is_empty()
            || self.tables.iter().any(|t| t.open)
            || self.pieces.iter().any(|p| unknown(&p.props))
            || self
                .places
                .iter()
                .any(|p| p.def.spaces.iter().any(|s| unknown(&s.props)))
    }

    /// Checks `value` against type `ty` (references must name this module's components);
    /// the error says what was expected.
    pub fn check_value(&self, value: &crate::value::Value, ty: &FieldType) -> Result<(), String> {
        validate::check_value(self, value, ty)
    }

    /// The field definition with this id.
    pub fn field_def(&self, field: &str) -> Option<&FieldDef> {
        self.card_fields.iter().find(|f| f.id == field)
    }

    /// Whether `id` names a component of `kind`.
    pub fn has(&self, kind: RefKind, id: &str) -> bool {
        match kind {
            RefKind::Card => self.cards.contains(id),
            RefKind::Zone => self.zones.contains(id),
            RefKind::Place => self.places.contains(id),
            RefKind::Piece => self.pieces.contains(id),
            RefKind::Box => self.boxes.contains(id),
            RefKind::Counter => self.counters.contains(id),
            RefKind::Seat => self.seats.contains(id),
            RefKind::UnitKind => self.unit_kinds.contains(id),
        }
    }

    /// The first id of a component of `kind`, in the order the data gives them.
    pub fn first_id(&self, kind: RefKind) -> Option<String> {
        self.ids_of(kind).into_iter().next()
    }

    /// Every id of one kind of component, in the module's order.
    pub fn ids_of(&self, kind: RefKind) -> Vec<String> {
        match kind {
            RefKind::Card => self.cards.iter().map(|d| d.id.to_string()).collect(),
            RefKind::Zone => self.zones.iter().map(|d| d.id.to_string()).collect(),
            RefKind::Place => self.places.iter().map(|d| d.def.id.to_string()).collect(),
            RefKind::Piece => self.pieces.iter().map(|d| d.id.to_string()).collect(),
            RefKind::Box => self.boxes.iter().map(|d| d.id.to_string()).collect(),
            RefKind::Counter => self.counters.iter().map(|d| d.id.to_string()).collect(),
            RefKind::Seat => self.seats.iter().map(|d| d.id.to_string()).collect(),
            RefKind::UnitKind => self.unit_kinds.iter().map(|d| d.id.to_string()).collect(),
        }
    }

    /// Every id of the module's data that an effect may be keyed by: cards, card groups,
    /// pieces, zones, places, boxes, counters, seats, unit kinds, tables and scenarios.
    pub fn data_ids(&self) -> std::collections::BTreeSet<&str> {
        let mut ids = std::collections::BTreeSet::new();
        ids.extend(self.cards.iter().map(|c| c.id.as_str()));
        ids.extend(self.cards.iter().map(|c| c.deck.as_str()));
        ids.extend(self.pieces.iter().map(|p| p.id.as_str()));
        ids.extend(self.zones.iter().map(|z| z.id.as_str()));
        ids.extend(self.places.iter().map(|p| p.def.id.as_str()));
        ids.extend(self.boxes.iter().map(|b| b.id.as_str()));
        ids.extend(self.counters.iter().map(|c| c.id.as_str()));
        ids.extend(self.seats.iter().map(|s| s.id.as_str()));
        ids.extend(self.unit_kinds.iter().map(|k| k.id.as_str()));
        ids.extend(self.tables.iter().map(|t| t.id.as_str()));
        ids.extend(self.scenarios.iter().map(|s| s.id.as_str()));
        ids.remove("");
        ids
    }

    /// The id of the module's data most like `id`, when one differs by at most a third of
    /// its letters (for "did you mean").
    pub fn closest_id(&self, id: &str) -> Option<String> {
        let limit = id.chars().count().div_ceil(3);
        self.data_ids()
            .into_iter()
            .map(|candidate| (edit_distance(id, candidate), candidate))
            .filter(|(d, _)| *d <= limit)
            .min()
            .map(|(_, c)| c.to_owned())
    }

    /// Whether a card promises an effect: it has text, or an `effect: true` field.
    pub fn promises_effect(card: &CardDef) -> bool {
        !card.text.trim().is_empty()
            || matches!(
                card.fields.get("effect"),
                Some(DataValue::Known(crate::value::Value::Bool(true)))
            )
    }

    /// The cards that promise an effect (see [`Module::promises_effect`]) that no code of the
    /// rules' `effects` carries (by the card's id or its group's), in declaration order.
    pub fn cards_without_effects(&self) -> Vec<&CardDef> {
        self.cards
            .iter()
            .filter(|c| Module::promises_effect(c))
            .filter(|c| {
                !self.rules.effects.contains_key(c.id.as_str())
                    && !self.rules.effects.contains_key(c.deck.as_str())
            })
            .collect()
    }

    /// Whether box `boxed` may hold units of `kind`.
    pub fn box_accepts(&self, boxed: &str, kind: &str) -> bool {
        self.unit_kinds.contains(kind)
            && self.boxes.get(boxed).is_some_and(|b| {
                b.kinds
                    .as_ref()
                    .is_none_or(|kinds| kinds.iter().any(|k| k.as_str() == kind))
            })
    }

    /// The panels the table is drawn in: the module's own layout, or, when it gives none, one
    /// laid out from its components: each map on its own, the tracks together, the cards by
    /// whose they are, the boxes grouped by owner, and the counters in one panel.
    pub fn panels(&self) -> std::borrow::Cow<'_, [data::Panel]> {
        use data::{LayoutItem, Panel};
        if !self.manifest.layout.panels.is_empty() {
            return std::borrow::Cow::Borrowed(&self.manifest.layout.panels);
        }
        let mut panels: Vec<Panel> = Vec::new();
        let mut add =
            |title: String, item: LayoutItem| match panels.iter_mut().find(|p| p.title == title) {
                Some(panel) => panel.items.push(item),
                None => panels.push(Panel {
                    title,
                    items: vec![item],
                }),
            };
        for place in self.places.iter() {
            let title = match place.def.kind {
                PlaceKind::Track => "Tracks".to_owned(),
                PlaceKind::Map => self.name_of("place", place.def.id.as_str()),
            };
            add(title, LayoutItem::Place(place.def.id.clone()));
        }
        for zone in self.zones.iter() {
            let title = match &zone.owner {
                Some(seat) => format!("{}'s cards", self.seat_name(seat)),
                None => "Cards".to_owned(),
            };
            add(title, LayoutItem::Zone(zone.id.clone()));
        }
        for boxed in self.boxes.iter() {
            let title = match &boxed.owner {
                Some(seat) => self.seat_name(seat),
                None => "Boxes".to_owned(),
            };
            add(title, LayoutItem::Box(boxed.id.clone()));
        }
        for counter in self.counters.iter() {
            add(
                "Counters".to_owned(),
                LayoutItem::Counter(counter.id.clone()),
            );
        }
        std::borrow::Cow::Owned(panels)
    }

    /// A seat's name, or its id when the module gives none.
    pub fn seat_name(&self, seat: &SeatId) -> String {
        self.seats
            .get(seat.as_str())
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    /// A component's name for people to read, or its id where it has no name: `kind` is
    /// "card", "zone", "piece", "place", "box", "unit kind" or "counter".
    pub fn name_of(&self, kind: &str, id: &str) -> String {
        let found = match kind {
            "card" => self.cards.get(id).map(|d| d.name.as_str()),
            "zone" => self.zones.get(id).map(|d| d.name.as_str()),
            "piece" => self.pieces.get(id).map(|d| d.name.as_str()),
            "place" => self.places.get(id).map(|d| d.def.name.as_str()),
            "box" => self.boxes.get(id).map(|d| d.name.as_str()),
            "unit kind" => self.unit_kinds.get(id).map(|d| d.name.as_str()),
            "counter" => self.counters.get(id).map(|d| d.name.as_str()),
            "seat" => self.seats.get(id).map(|d| d.name.as_str()),
            "scenario" => self.scenarios.get(id).map(|d| d.name.as_str()),
            _ => None,
        };
        found.filter(|n| !n.is_empty()).unwrap_or(id).to_owned()
    }

    /// A space's name (its id where it has none).
    pub fn space_name(&self, place: &str, space: &str) -> String {
        self.places
            .get(place)
            .and_then(|p| p.def.spaces.iter().find(|s| s.id.as_str() == space))
            .map(|s| s.name.as_str())
            .filter(|n| !n.is_empty())
            .unwrap_or(space)
            .to_owned()
    }

    /// Whether a value the owner enters is a cell of a bot's printed chart (a table with a
    /// [`TableDef::chart`]), copied off the chart rather than read off the game's pieces.
    pub fn is_chart_cell(&self, target: &overlay::OverlayTarget) -> bool {
        matches!(target, overlay::OverlayTarget::TableEntry(table, _)
            if self.tables.get(table.as_str()).is_some_and(|t| t.chart.is_some()))
    }

    /// A value the owner enters, in the game's words: "Ambush: Value", "Supply table:
    /// Beta", "Castle on the map: Victory points" (ids only where nothing names them).
    pub fn describe_target(&self, target: &overlay::OverlayTarget) -> String {
        use overlay::OverlayTarget as T;
        match target {
            T::CardField(card, field) => {
                let label = self
                    .card_fields
                    .iter()
                    .find(|f| f.id == *field)
                    .map_or_else(|| self.words_of(field), |f| f.label());
                format!("{}: {label}", self.name_of("card", card.as_str()))
            }
            T::SpaceProp(place, space, prop) => format!(
                "{} on {}: {}",
                self.space_name(place, space),
                self.name_of("place", place),
                self.words_of(prop)
            ),
            T::PieceProp(piece, prop) => format!(
                "{}: {}",
                self.name_of("piece", piece.as_str()),
                self.words_of(prop)
            ),
            T::TableEntry(table, key) => {
                let def = self.tables.get(table.as_str());
                let name = def
                    .map(|t| t.name.as_str())
                    .filter(|n| !n.is_empty())
                    .map_or_else(|| self.words_of(table), str::to_owned);
                // A row of a bot's chart reads as the chart's step ("21.3, Step 3, row 1").
                match self.chart_row(table, key) {
                    Some((Some(step), _)) => format!("{name} ({step})"),
                    Some((None, words)) => format!("{name}: {words}"),
                    None => format!("{name}: {}", self.words_of(key)),
                }
            }
        }
    }

    /// Row `key` of bot chart table `table` in words, as a player reads it: the chart's
    /// step with the key filled in ("20.4, Austria's row 1", when the step names the key;
    /// see [`data::ChartDef::step`]), and the key alone ("Austria, 1"; "a Highest Priority
    /// issue, Round 4, Military pile active"), each part by the chart's own words for it or
    /// else by [`Module::words_of`]. `None` when the table is no chart.
    pub fn chart_row(&self, table: &str, key: &str) -> Option<(Option<String>, String)> {
        let chart = self.tables.get(table)?.chart.as_ref()?;
        let part = |p: &str| {
            chart
                .key_words
                .get(p)
                .cloned()
                .unwrap_or_else(|| self.words_of(p))
        };
        let parts: Vec<String> = key.split('/').map(part).collect();
        let words = parts.join(", ");
        let step = chart
            .step
            .as_ref()
            .filter(|s| s.contains("{key"))
            .map(|step| {
                let mut step = step.replace("{key}", &words);
                for (i, p) in parts.iter().enumerate() {
                    step = step.replace(&format!("{{key.{}}}", i + 1), p);
                }
                step
            });
        Some((step, words))
    }

    /// A value the owner enters, by the ids a module designer writes in the overlay file
    /// ("card 'ambush', field 'value'").
    pub fn target_ids(target: &overlay::OverlayTarget) -> String {
        use overlay::OverlayTarget as T;
        match target {
            T::CardField(card, field) => format!("card '{card}', field '{field}'"),
            T::SpaceProp(place, space, prop) => {
                format!("space '{place}/{space}', property '{prop}'")
            }
            T::PieceProp(piece, prop) => format!("piece '{piece}', property '{prop}'"),
            T::TableEntry(table, key) => format!("table '{table}', entry '{key}'"),
        }
    }

    /// A plain value as a person reads it: an id by the name of what it names (see
    /// [`Module::words_of`]), yes and no, "none" for an empty list or map, a list item by item
    /// and a map key by key, on one line.
    pub fn value_words(&self, value: &crate::value::Value) -> String {
        use crate::value::Value;
        match value {
            // Words already (a sentence) stay as they are.
            Value::Str(s) if s.contains(' ') => s.clone(),
            Value::Str(s) => self.words_of(s),
            Value::Bool(true) => "yes".to_owned(),
            Value::Bool(false) => "no".to_owned(),
            Value::List(items) if items.is_empty() => "none".to_owned(),
            Value::List(items) => items
                .iter()
                .map(|v| self.value_words(v))
                .collect::<Vec<_>>()
                .join(", "),
            Value::Map(map) if map.is_empty() => "none".to_owned(),
            Value::Map(map) => map
                .iter()
                .map(|(k, v)| format!("{} {}", self.words_of(k), self.value_words(v)))
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        }
    }

    /// A key or id in words: the name of the seat, card or piece it is (a card or piece also
    /// by the end of its id: "free_trade" for "issue.free_trade"), or of the one space of that
    /// id; else its parts ("2/B",
    /// "track_B") with a seat's or card's name for each part that is one, underscores as
    /// spaces.
    pub fn words_of(&self, key: &str) -> String {
        let whole = (self.seats.get(key).map(|s| s.name.clone()))
            .or_else(|| self.cards.get(key).map(|c| c.name.clone()))
            .or_else(|| self.pieces.get(key).map(|p| p.name.clone()))
            // A dotted id names one thing ("reserve.FR": France's National Reserve).
            .or_else(|| {
                key.contains('.')
                    .then(|| {
                        (self.boxes.get(key).map(|b| b.name.clone()))
                            .or_else(|| self.zones.get(key).map(|z| z.name.clone()))
                            .or_else(|| self.counters.get(key).map(|c| c.name.clone()))
                            .or_else(|| self.places.get(key).map(|p| p.def.name.clone()))
                    })
                    .flatten()
            })
            .or_else(|| {
                // By the end of an id: a card first ("BR" for the card "power.BR", Britain),
                // then a piece, where exactly one has it.
                if key.contains('.') {
                    return None;
                }
                let suffix = format!(".{key}");
                only_one(
                    self.cards
                        .iter()
                        .filter(|c| c.id.as_str().ends_with(&suffix))
                        .map(|c| &c.name),
                )
                .or_else(|| {
                    only_one(
                        self.pieces
                            .iter()
                            .filter(|p| p.id.as_str().ends_with(&suffix))
                            .map(|p| &p.name),
                    )
                })
            })
            .or_else(|| {
                // A space of one place only ("navigation": Freedom of Navigation); a number
                // stays a number (a roll, a row), whatever track has a space of that id.
                if !key.chars().any(char::is_alphabetic) {
                    return None;
                }
                only_one(
                    self.places
                        .iter()
                        .flat_map(|p| p.def.spaces.iter())
                        .filter(|s| s.id.as_str() == key)
                        .map(|s| &s.name),
                )
            });
        if let Some(name) = whole.filter(|n| !n.is_empty()) {
            return name;
        }
        key.split('/')
            .map(|part| {
                part.split('_')
                    .map(|word| {
                        let seat = self.seats.get(word).map(|s| s.name.clone());
                        let card = self.cards.get(word).map(|c| c.name.clone());
                        seat.or(card).unwrap_or_else(|| word.to_owned())
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The seats that play `scenario`.
    pub fn scenario_seats(&self, scenario: &ScenarioDef) -> Vec<SeatId> {
        match &scenario.seats {
            Some(seats) => seats.clone(),
            None => self.seats.iter().map(|s| s.id.clone()).collect(),
        }
    }

    /// The bot that plays `seat` when it is set to `bot` in a game of `scenario` set up with
    /// `options`: the first of the manifest's `default_bots` whose options the game has and
    /// that names the seat, else the scenario's own bot for that seat, else the seat's.
    pub fn default_bot(&self, scenario: &str, options: &Value, seat: &str) -> Option<String> {
        self.manifest
            .default_bots
            .iter()
            .filter(|entry| entry.matches(options))
            .find_map(|entry| entry.bots.get(seat).cloned())
            .or_else(|| {
                self.scenarios
                    .get(scenario)
                    .and_then(|s| s.bots.get(seat).cloned())
            })
            .or_else(|| self.seats.get(seat).and_then(|s| s.bot.clone()))
    }
}

/// The one name `names` yields, if it yields exactly one.
fn only_one<'a>(mut names: impl Iterator<Item = &'a String>) -> Option<String> {
    match (names.next(), names.next()) {
        (Some(name), None) => Some(name.clone()),
        _ => None,
    }
}
