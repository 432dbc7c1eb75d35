//! `ctx.data`: the module's data as read-only Lua tables, built once per VM. Reading a
//! value that is not entered yet stops the step and asks the players for it.

use std::collections::BTreeMap;

use mlua::{Lua, Table, Value as LuaValue};

use super::call::CallState;
use super::convert::to_lua;
use super::sandbox::Vm;
use super::util::script_error;
use crate::module::{DataValue, Face, Module, OverlayTarget, PlaceKind, unknown_keys};
use crate::rules::Need;
use crate::table::Visibility;
use crate::value::Value;

/// Builds the read-only `ctx.data` table of `module`.
pub(crate) fn build(vm: &Vm, module: &Module) -> mlua::Result<Table> {
    let data = vm.lua.create_table()?;
    let add = |names, t: mlua::Result<(Table, Vec<String>)>| {
        let (by_id, ids) = t?;
        add(vm, &data, names, by_id, ids.into_iter())
    };
    let m = module;
    add(
        "cards",
        each(vm, "card", m.cards.iter(), |c| &c.id, |c| card(vm, m, c)),
    )?;
    data.raw_set("card_fields", card_fields(vm, module)?)?;
    add(
        "zones",
        each(vm, "zone", m.zones.iter(), |z| &z.id, |z| zone(vm, z)),
    )?;
    let places = m.places.iter().map(|p| &p.def);
    add(
        "places",
        each(vm, "place", places, |p| &p.id, |p| place(vm, p)),
    )?;
    add(
        "pieces",
        each(vm, "piece", m.pieces.iter(), |p| &p.id, |p| piece(vm, p)),
    )?;
    let kinds = m.unit_kinds.iter();
    add(
        "unit_kinds",
        each(vm, "unit kind", kinds, |k| &k.id, |k| unit_kind(vm, k)),
    )?;
    add(
        "boxes",
        each(vm, "box", m.boxes.iter(), |b| &b.id, |b| boxed(vm, b)),
    )?;
    let counters = m.counters.iter();
    add(
        "counters",
        each(vm, "counter", counters, |c| &c.id, |c| counter(vm, c)),
    )?;
    add(
        "seats",
        each(vm, "seat", m.seats.iter(), |s| &s.id, |s| seat(vm, s)),
    )?;
    let scenarios = m.scenarios.iter();
    add(
        "scenarios",
        each(vm, "scenario", scenarios, |s| &s.id, |s| scenario(vm, s)),
    )?;
    let options = m.options.iter();
    add(
        "options",
        each(vm, "option", options, |o| &o.key, |o| option(vm, o)),
    )?;
    add_tables(vm, &data, module)?;
    vm.readonly(data, "ctx.data")
}

/// Each item's table, made by `entry` and read-only, by id; and the ids in order. `what`
/// is what one item is called in errors.
fn each<'m, T: 'm, Id: std::fmt::Display + 'm>(
    vm: &Vm,
    what: &str,
    items: impl Iterator<Item = &'m T>,
    id: impl Fn(&'m T) -> &'m Id,
    entry: impl Fn(&'m T) -> mlua::Result<Table>,
) -> mlua::Result<(Table, Vec<String>)> {
    let by_id = vm.lua.create_table()?;
    let mut ids = Vec::new();
    for item in items {
        let id = id(item).to_string();
        let t = entry(item)?;
        by_id.raw_set(id.as_str(), vm.readonly(t, &format!("{what} '{id}'"))?)?;
        ids.push(id);
    }
    Ok((by_id, ids))
}

fn unit_kind(vm: &Vm, kind: &crate::module::UnitKindDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("id", kind.id.as_str())?;
    t.raw_set("name", kind.name.as_str())?;
    t.raw_set("owner", kind.owner.as_ref().map(|o| o.to_string()))?;
    Ok(t)
}

fn counter(vm: &Vm, counter: &crate::module::CounterDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("id", counter.id.as_str())?;
    t.raw_set("name", counter.name.as_str())?;
    t.raw_set("min", counter.min)?;
    t.raw_set("max", counter.max)?;
    t.raw_set("initial", counter.initial)?;
    Ok(t)
}

fn seat(vm: &Vm, seat: &crate::module::SeatDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("id", seat.id.as_str())?;
    t.raw_set("name", seat.name.as_str())?;
    t.raw_set("bot", seat.bot.clone())?;
    Ok(t)
}

/// A set-up option: its key, words, default, `values` (each value's words, by value) and
/// `order` (the values in order).
fn option(vm: &Vm, option: &crate::module::OptionDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("key", option.key.as_str())?;
    t.raw_set("words", option.words.as_str())?;
    t.raw_set("default", option.default.clone())?;
    let values = vm.lua.create_table()?;
    for (value, words) in &option.values {
        values.raw_set(value.as_str(), words.as_str())?;
    }
    t.raw_set("values", vm.readonly(values, "option values")?)?;
    let order = vm
        .lua
        .create_sequence_from(option.values.iter().map(|(v, _)| v.as_str()))?;
    t.raw_set("order", vm.readonly(order, "option values")?)?;
    Ok(t)
}

/// A scenario: its id, name, description and its variables (read-only, nested too).
fn scenario(vm: &Vm, scenario: &crate::module::ScenarioDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("id", scenario.id.as_str())?;
    t.raw_set("name", scenario.name.as_str())?;
    t.raw_set("description", scenario.description.as_str())?;
    let vars = to_lua(&vm.lua, &Value::Map(scenario.vars.clone()))?;
    t.raw_set("vars", deep_readonly(vm, vars, "scenario vars")?)?;
    Ok(t)
}

/// A card: its id, name, deck, text and fields (an unknown field asks for its value).
fn card(vm: &Vm, module: &Module, card: &crate::module::CardDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("id", card.id.as_str())?;
    t.raw_set("name", card.name.as_str())?;
    t.raw_set("deck", card.deck.as_str())?;
    t.raw_set("text", card.text.as_str())?;
    let unknown = module.unknown_fields(card);
    let card_id = card.id.clone();
    let fields = props(
        vm,
        &card.fields,
        unknown,
        &format!("card '{}' fields", card.id),
        move |field| OverlayTarget::CardField(card_id.clone(), field.to_owned()),
    )?;
    t.raw_set("fields", fields)?;
    Ok(t)
}

/// The list of the module's card fields, each with its doc and type.
fn card_fields(vm: &Vm, module: &Module) -> mlua::Result<Table> {
    let fields = vm.lua.create_table()?;
    for (i, field) in module.card_fields.iter().enumerate() {
        let t = vm.lua.create_table()?;
        t.raw_set("id", field.id.as_str())?;
        t.raw_set("doc", field.doc.as_str())?;
        t.raw_set("type", field.kind.to_string())?;
        fields.raw_set(i + 1, vm.readonly(t, "card field")?)?;
    }
    vm.readonly(fields, "card_fields")
}

fn zone(vm: &Vm, zone: &crate::module::ZoneDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("id", zone.id.as_str())?;
    t.raw_set("name", zone.name.as_str())?;
    t.raw_set("visibility", visibility_name(zone.visibility))?;
    t.raw_set("owner", zone.owner.as_ref().map(|o| o.to_string()))?;
    let shared = vm.lua.create_table()?;
    for (i, seat) in zone.shared_with.iter().enumerate() {
        shared.raw_set(i + 1, seat.as_str())?;
    }
    t.raw_set("shared_with", vm.readonly(shared, "zone shared_with")?)?;
    t.raw_set("face", if zone.face == Face::Up { "up" } else { "down" })?;
    Ok(t)
}

/// A track or map: its spaces in order (`spaces`) and by id (`space`), each with its props.
fn place(vm: &Vm, def: &crate::module::PlaceDef) -> mlua::Result<Table> {
    let lua = &vm.lua;
    let t = lua.create_table()?;
    t.raw_set("id", def.id.as_str())?;
    t.raw_set("name", def.name.as_str())?;
    let kind = match def.kind {
        PlaceKind::Track => "track",
        _ => "map",
    };
    t.raw_set("kind", kind)?;
    let list = lua.create_table()?;
    let by_id = lua.create_table()?;
    for (i, space) in def.spaces.iter().enumerate() {
        let s = lua.create_table()?;
        s.raw_set("id", space.id.as_str())?;
        s.raw_set("name", space.name.as_str())?;
        s.raw_set("index", i + 1)?;
        let unknown = unknown_keys(&space.props);
        let (place_id, space_id) = (def.id.to_string(), space.id.to_string());
        let label = format!("space '{}/{}' props", def.id, space.id);
        let p = props(vm, &space.props, unknown, &label, move |prop| {
            OverlayTarget::SpaceProp(place_id.clone(), space_id.clone(), prop.to_owned())
        })?;
        s.raw_set("props", p)?;
        let s = vm.readonly(s, &format!("space '{}'", space.id))?;
        list.raw_set(i + 1, s.clone())?;
        by_id.raw_set(space.id.as_str(), s)?;
    }
    t.raw_set("spaces", vm.readonly(list, "spaces")?)?;
    t.raw_set("space", vm.readonly(by_id, "space")?)?;
    Ok(t)
}

fn piece(vm: &Vm, piece: &crate::module::PieceDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("id", piece.id.as_str())?;
    t.raw_set("name", piece.name.as_str())?;
    t.raw_set("kind", piece.kind.as_str())?;
    t.raw_set("owner", piece.owner.as_ref().map(|o| o.to_string()))?;
    let unknown = unknown_keys(&piece.props);
    let piece_id = piece.id.clone();
    let p = props(
        vm,
        &piece.props,
        unknown,
        &format!("piece '{}' props", piece.id),
        move |prop| OverlayTarget::PieceProp(piece_id.clone(), prop.to_owned()),
    )?;
    t.raw_set("props", p)?;
    Ok(t)
}

fn boxed(vm: &Vm, boxed: &crate::module::BoxDef) -> mlua::Result<Table> {
    let t = vm.lua.create_table()?;
    t.raw_set("id", boxed.id.as_str())?;
    t.raw_set("name", boxed.name.as_str())?;
    if let Some(kinds) = &boxed.kinds {
        let list = vm
            .lua
            .create_sequence_from(kinds.iter().map(|k| k.to_string()))?;
        t.raw_set("kinds", vm.readonly(list, "kinds")?)?;
    }
    Ok(t)
}

/// `data.tables`: each module table as a proxy that asks for an unknown entry's value.
fn add_tables(vm: &Vm, data: &Table, module: &Module) -> mlua::Result<()> {
    let tables = vm.lua.create_table()?;
    for table in module.tables.iter() {
        let unknown = unknown_keys(&table.entries);
        let id = table.id.clone();
        let proxy = table_proxy(
            vm,
            &table.entries,
            unknown,
            table.open,
            &format!("table '{}'", table.id),
            move |key| OverlayTarget::TableEntry(id.clone(), key.to_owned()),
        )?;
        tables.raw_set(table.id.as_str(), proxy)?;
    }
    let ids = module.tables.iter().map(|t| t.id.clone());
    add(vm, data, "tables", tables, ids)
}

fn visibility_name(visibility: Visibility) -> &'static str {
    visibility.as_str()
}

/// Adds `by_id` as `data[name]` and the ordered ids as `data[<singular>_ids]`.
fn add(
    vm: &Vm,
    data: &Table,
    name: &str,
    by_id: Table,
    ids: impl Iterator<Item = String>,
) -> mlua::Result<()> {
    let singular = singular(name);
    let list = vm.lua.create_sequence_from(ids)?;
    data.raw_set(
        format!("{singular}_ids"),
        vm.readonly(list, &format!("{singular}_ids"))?,
    )?;
    data.raw_set(name, vm.readonly(by_id, name)?)
}

/// The singular of a collection's name, for its `<singular>_ids` list (`boxes` → `box`).
pub(crate) fn singular(name: &str) -> &str {
    name.strip_suffix("es")
        .filter(|s| s.ends_with('x'))
        .unwrap_or_else(|| name.trim_end_matches('s'))
}

/// A read-only copy of plain data, nested tables included.
fn deep_readonly(vm: &Vm, value: LuaValue, name: &str) -> mlua::Result<LuaValue> {
    let LuaValue::Table(t) = value else {
        return Ok(value);
    };
    let pairs: Vec<(LuaValue, LuaValue)> = t
        .pairs::<LuaValue, LuaValue>()
        .collect::<mlua::Result<_>>()?;
    for (k, v) in pairs {
        if let LuaValue::Table(_) = v {
            t.raw_set(k, deep_readonly(vm, v, name)?)?;
        }
    }
    Ok(LuaValue::Table(vm.readonly(t, name)?))
}

/// A read-only table of known values; reading one of `unknown` asks for it.
fn props(
    vm: &Vm,
    values: &BTreeMap<String, DataValue>,
    unknown: Vec<String>,
    name: &str,
    target: impl Fn(&str) -> OverlayTarget + 'static,
) -> mlua::Result<LuaValue> {
    table_proxy(vm, values, unknown, false, name, target)
}

/// A read-only table of known values; reading one of `unknown` (or, when `open`, any key
/// not there) asks for it. A known value is read through the view's table alone: only a
/// key the table lacks reaches the Rust function, through the table's own metatable
/// (which no script can reach: the view hides its table).
fn table_proxy(
    vm: &Vm,
    values: &BTreeMap<String, DataValue>,
    unknown: Vec<String>,
    open: bool,
    name: &str,
    target: impl Fn(&str) -> OverlayTarget + 'static,
) -> mlua::Result<LuaValue> {
    let lua = &vm.lua;
    let raw = lua.create_table()?;
    for (key, value) in values {
        if let DataValue::Known(v) = value {
            let v = deep_readonly(vm, to_lua(lua, v)?, name)?;
            raw.raw_set(key.as_str(), v)?;
        }
    }
    if unknown.is_empty() && !open {
        return Ok(LuaValue::Table(vm.readonly(raw, name)?));
    }
    // Called for a key the table lacks: an unknown value (or, when `open`, any key), which
    // is asked for; anything else is absent.
    let index = lua.create_function(move |lua: &Lua, (_, key): (LuaValue, LuaValue)| {
        if let LuaValue::String(k) = &key {
            let k = k.to_string_lossy();
            if open || unknown.contains(&k) {
                let what = target(&k);
                let message = format!("{what} is not entered yet: read it off the physical game");
                if let Some(mut state) = lua.app_data_mut::<CallState>() {
                    state.need = Some(Need::Data(what));
                }
                return Err(script_error(lua, message));
            }
        }
        Ok(LuaValue::Nil)
    })?;
    let missing = lua.create_table()?;
    missing.raw_set("__index", index)?;
    raw.set_metatable(Some(missing))?;
    Ok(LuaValue::Table(vm.readonly(raw, name)?))
}

/// One collection of `ctx.data`: its name, the LuaLS class of an item, and the item's
/// fields as `(name, LuaLS type)` (a type ending in `?` may be absent). The type stubs and
/// the API reference are generated from this list; a test builds `ctx.data` and checks it
/// against it, so the two cannot drift apart.
pub(crate) struct DataCollection {
    /// The collection's key in `ctx.data` (`cards`); items by id, and `<singular>_ids`.
    pub name: &'static str,
    /// The LuaLS class of an item (`ChanceryCard`).
    pub class: &'static str,
    /// What an item is, for the reference.
    pub doc: &'static str,
    /// The item's fields.
    pub fields: &'static [(&'static str, &'static str)],
}

/// Every collection of `ctx.data`, in the order the reference lists them.
pub(crate) const DATA: &[DataCollection] = &[
    DataCollection {
        name: "cards",
        class: "ChanceryCard",
        doc: "A card: `fields` holds the values of the module's card fields (reading one not entered yet asks for it).",
        fields: &[
            ("id", "string"),
            ("name", "string"),
            ("deck", "string"),
            ("text", "string"),
            ("fields", "table<string, any>"),
        ],
    },
    DataCollection {
        name: "zones",
        class: "ChanceryZone",
        doc: "A zone of cards; `shared_with` lists the seats besides its owner that see it as the owner does.",
        fields: &[
            ("id", "string"),
            ("name", "string"),
            ("visibility", "\"public\"|\"owner\"|\"hidden\""),
            ("owner", "string?"),
            ("shared_with", "string[]"),
            ("face", "\"up\"|\"down\""),
        ],
    },
    DataCollection {
        name: "places",
        class: "ChanceryPlace",
        doc: "A track or map: its spaces in order, and by id.",
        fields: &[
            ("id", "string"),
            ("name", "string"),
            ("kind", "\"track\"|\"map\""),
            ("spaces", "ChancerySpace[]"),
            ("space", "table<string, ChancerySpace>"),
        ],
    },
    DataCollection {
        name: "pieces",
        class: "ChanceryPiece",
        doc: "A marker or block; `props` as the module gives them.",
        fields: &[
            ("id", "string"),
            ("name", "string"),
            ("kind", "string"),
            ("owner", "string?"),
            ("props", "table<string, any>"),
        ],
    },
    DataCollection {
        name: "unit_kinds",
        class: "ChanceryUnitKind",
        doc: "A kind of unit counted in boxes.",
        fields: &[("id", "string"), ("name", "string"), ("owner", "string?")],
    },
    DataCollection {
        name: "boxes",
        class: "ChanceryBox",
        doc: "A box of units; `kinds` lists the kinds it holds (all, if absent).",
        fields: &[("id", "string"), ("name", "string"), ("kinds", "string[]?")],
    },
    DataCollection {
        name: "counters",
        class: "ChanceryCounter",
        doc: "A named number with optional bounds.",
        fields: &[
            ("id", "string"),
            ("name", "string"),
            ("min", "integer?"),
            ("max", "integer?"),
            ("initial", "integer"),
        ],
    },
    DataCollection {
        name: "seats",
        class: "ChancerySeat",
        doc: "A seat; `bot` is its default bot.",
        fields: &[("id", "string"), ("name", "string"), ("bot", "string?")],
    },
    DataCollection {
        name: "scenarios",
        class: "ChanceryScenario",
        doc: "A scenario; `vars` are its rule variables.",
        fields: &[
            ("id", "string"),
            ("name", "string"),
            ("description", "string"),
            ("vars", "table<string, any>"),
        ],
    },
    DataCollection {
        name: "options",
        class: "ChanceryOption",
        doc: "A set-up option the module declares (a game is given only these, each only one of its values): `values` gives each value's words by value, `order` the values in order, `default` the value a game has when none is given.",
        fields: &[
            ("key", "string"),
            ("words", "string"),
            ("default", "string?"),
            ("values", "table<string, string>"),
            ("order", "string[]"),
        ],
    },
    DataCollection {
        name: "tables",
        class: "ChanceryLookupTable",
        doc: "A lookup table: its entries by key (reading one not entered yet asks for it).",
        fields: &[],
    },
];

/// A space of a place, as `ctx.data.places[id].spaces` lists it.
pub(crate) const SPACE_FIELDS: &[(&str, &str)] = &[
    ("id", "string"),
    ("name", "string"),
    ("index", "integer"),
    ("props", "table<string, any>"),
];

/// A field of the module's cards, as `ctx.data.card_fields` lists them.
pub(crate) const CARD_FIELD_FIELDS: &[(&str, &str)] =
    &[("id", "string"), ("doc", "string"), ("type", "string")];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::script::budget::Limits;

    /// The keys of a (read-only, proxied) table, as Lua's own `pairs` walks them.
    fn keys(lua: &Lua, t: &Table) -> BTreeSet<String> {
        let walk: mlua::Function = lua
            .load("local t = ...; local keys = {}; for k in pairs(t) do keys[#keys + 1] = k end; return keys")
            .into_function()
            .expect("compiles");
        let list: Vec<String> = walk.call(t.clone()).expect("walks");
        list.into_iter().collect()
    }

    /// Checks that an item's keys are among `fields`, and every field not marked optional
    /// is there.
    fn check(lua: &Lua, what: &str, item: &Table, fields: &[(&str, &str)]) {
        let found = keys(lua, item);
        let declared: BTreeSet<String> = fields.iter().map(|(n, _)| (*n).to_owned()).collect();
        let required: BTreeSet<String> = fields
            .iter()
            .filter(|(_, ty)| !ty.ends_with('?'))
            .map(|(n, _)| (*n).to_owned())
            .collect();
        assert!(
            found.is_subset(&declared),
            "{what} has fields the registry lacks: {:?}",
            found.difference(&declared).collect::<Vec<_>>()
        );
        assert!(
            required.is_subset(&found),
            "{what} lacks fields the registry promises: {:?}",
            required.difference(&found).collect::<Vec<_>>()
        );
    }

    /// `ctx.data` of a module that has every kind of component matches the registry the
    /// stubs and the reference are generated from.
    #[test]
    fn ctx_data_has_exactly_the_fields_the_registry_documents() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modules/testbed");
        let options = crate::module::LoadOptions {
            overlay: crate::module::OverlayChoice::Off,
            strict: false,
        };
        let module = crate::script::load_module(&dir, &options).expect("the testbed loads");
        let vm = Vm::new(Limits::default()).expect("a VM");
        let data = build(&vm, &module).expect("ctx.data");
        let mut expected: BTreeSet<String> = BTreeSet::from(["card_fields".to_owned()]);
        for collection in DATA {
            let singular = singular(collection.name);
            expected.insert(collection.name.to_owned());
            expected.insert(format!("{singular}_ids"));
            let items: Table = data.get(collection.name).expect("a collection");
            let ids: Table = data.get(format!("{singular}_ids")).expect("its ids");
            let first: String = ids.get(1).expect("the testbed has one of each");
            if collection.fields.is_empty() {
                continue;
            }
            let item: Table = items.get(first.as_str()).expect("an item");
            check(&vm.lua, collection.name, &item, collection.fields);
            if collection.name == "places" {
                let spaces: Table = item.get("spaces").expect("spaces");
                let space = spaces.get::<Table>(1).expect("a space");
                check(&vm.lua, "a space", &space, SPACE_FIELDS);
            }
        }
        let fields: Table = data.get("card_fields").expect("card_fields");
        let field = fields.get::<Table>(1).expect("a field");
        check(&vm.lua, "a card field", &field, CARD_FIELD_FIELDS);
        assert_eq!(keys(&vm.lua, &data), expected);
    }
}
