//! Reading what hooks return: a prompt's legal actions, a bot's pick and reasons, and
//! actions handed to bots as Lua tables.

use std::collections::BTreeMap;

use mlua::{Lua, Table as LuaTable, Value as LuaValue};

use super::convert::{from_lua, from_slot};
use super::host::STATE_HOOKS;
use super::stack::{self, Slot, Walk};
use super::util::field;
use crate::ids::SeatId;
use crate::module::Module;
use crate::rules::{
    Action, Ask, BotPick, Choice, Decision, MAX_STEP_LINES, MAX_TEXT_BYTES, PASS, Prompt, Target,
};
use crate::table::Table;
use crate::value::Value;

/// What a prompt is read against: the VM it came from, the module, the table and the
/// state whose prompt it is.
pub(crate) struct Reading<'a> {
    pub lua: &'a Lua,
    pub module: &'a Module,
    pub table: &'a Table,
    pub state: &'a str,
}

/// Reads the value returned by `states.<state>.prompt`. `has_action(name)` tells whether
/// the state has a handler of that name; `decision` is how the state is decided, and
/// `answers` what its seats have answered so far (they are asked no more).
pub(crate) fn parse_prompt(
    reading: &Reading<'_>,
    value: &LuaValue,
    has_action: impl Fn(&str) -> bool,
    decision: Decision,
    answers: &BTreeMap<SeatId, Choice>,
) -> Result<Prompt, String> {
    let Reading {
        lua, table, state, ..
    } = *reading;
    let LuaValue::Table(t) = value else {
        return Err(format!(
            "prompt must return a table {{seat = …, text = …, actions = {{…}}}}, got a {}",
            value.type_name()
        ));
    };
    let text = match field::<LuaValue>(lua, t, "text").map_err(|e| e.to_string())? {
        LuaValue::Nil => String::new(),
        LuaValue::String(s) => s.to_string_lossy(),
        other => {
            return Err(format!(
                "prompt text must be a string, got a {}",
                other.type_name()
            ));
        }
    };
    let listed = field::<LuaValue>(lua, t, "asks").map_err(|e| e.to_string())?;
    let mut waiting = Vec::new();
    let asks = match (decision, listed) {
        (Decision::One, LuaValue::Nil) => {
            let seat = parse_seat(
                &field::<LuaValue>(lua, t, "seat").map_err(|e| e.to_string())?,
                table,
                false,
            )?;
            let actions = parse_actions(reading, t, &has_action, "")?;
            vec![Ask { seat, actions }]
        }
        (Decision::One, _) => {
            return Err(format!(
                "prompt lists asks, but state '{state}' decides one seat at a time: return seat and actions, or give the state reveal(ctx, choices) (a simultaneous choice) or all_passed(ctx) (a reaction window)"
            ));
        }
        (_, LuaValue::Table(list)) => {
            let asks = parse_asks(reading, &list, &has_action, decision, answers)?;
            if decision == Decision::Window {
                waiting = asks.iter().filter_map(|a| a.seat.clone()).collect();
            }
            asks.into_iter()
                .take(if decision == Decision::Window {
                    1
                } else {
                    usize::MAX
                })
                .collect()
        }
        (_, other) => {
            let kind = if decision == Decision::Simultaneous {
                "a simultaneous choice (it has reveal)"
            } else {
                "a reaction window (it has all_passed)"
            };
            return Err(format!(
                "state '{state}' is {kind}: its prompt returns asks = {{{{seat = …, actions = {{…}}}}, …}}, not a {}",
                other.type_name()
            ));
        }
    };
    let private = match field::<LuaValue>(lua, t, "private").map_err(|e| e.to_string())? {
        LuaValue::Nil | LuaValue::Boolean(false) => None,
        LuaValue::Boolean(true) => Some("a private answer".to_owned()),
        LuaValue::String(s) => Some(s.to_string_lossy()),
        other => {
            return Err(format!(
                "prompt private must be true or the words the other seats read, got a {}",
                other.type_name()
            ));
        }
    };
    Ok(Prompt {
        state: state.to_owned(),
        text,
        decision,
        asks,
        answered: answers.keys().cloned().collect(),
        waiting,
        private,
    })
}

/// A prompt's seat: a seat of this game (nil: anyone, unless `required`).
fn parse_seat(value: &LuaValue, table: &Table, required: bool) -> Result<Option<SeatId>, String> {
    match value {
        LuaValue::Nil if !required => Ok(None),
        LuaValue::String(s) => {
            let id = s.to_string_lossy();
            if !table.seats.contains_key(id.as_str()) {
                return Err(format!(
                    "prompt names seat '{id}', which does not play this game"
                ));
            }
            Ok(Some(id.into()))
        }
        other => Err(format!(
            "prompt seat must be a seat id, got a {}",
            other.type_name()
        )),
    }
}

/// The asks of a shared decision: every listed seat that has not answered (a simultaneous
/// choice), or the first of them (a reaction window, with the engine's pass added).
fn parse_asks(
    reading: &Reading<'_>,
    list: &LuaTable,
    has_action: &impl Fn(&str) -> bool,
    decision: Decision,
    answers: &BTreeMap<SeatId, Choice>,
) -> Result<Vec<Ask>, String> {
    let mut asks: Vec<Ask> = Vec::new();
    for (i, item) in list.sequence_values::<LuaValue>().enumerate() {
        let item = item.map_err(|e| e.to_string())?;
        let LuaValue::Table(ask) = item else {
            return Err(format!(
                "ask {} must be a table {{seat = …, actions = {{…}}}}, got a {}",
                i + 1,
                item.type_name()
            ));
        };
        let seat = parse_seat(
            &field::<LuaValue>(reading.lua, &ask, "seat").map_err(|e| e.to_string())?,
            reading.table,
            true,
        )
        .map_err(|e| format!("ask {}: {e}", i + 1))?;
        let Some(seat) = seat else { continue };
        if asks.iter().any(|a| a.seat.as_ref() == Some(&seat)) {
            return Err(format!("ask {}: seat '{seat}' is asked twice", i + 1));
        }
        let mut actions = parse_actions(
            reading,
            &ask,
            has_action,
            &format!("ask {} ({seat}): ", i + 1),
        )?;
        if decision == Decision::Window {
            if let Some(n) = actions.iter().position(|a| a.name == PASS) {
                return Err(format!(
                    "ask {} ({seat}): action {} is named '{PASS}', which the engine adds to every seat of a reaction window itself",
                    i + 1,
                    n + 1
                ));
            }
            actions.push(Action {
                name: PASS.to_owned(),
                arg: Value::Nil,
                label: "Pass".to_owned(),
                target: None,
                range: None,
                confirm: None,
            });
        }
        asks.push(Ask {
            seat: Some(seat),
            actions,
        });
    }
    if asks.is_empty() {
        return Err(format!(
            "state '{}' asks no seat: a dead end (end the game with ctx:game_over, or ask a seat)",
            reading.state
        ));
    }
    // Seats that have answered are asked no more: once none is left, the rules take the
    // answers (and the prompt has no ask).
    asks.retain(|a| a.seat.as_ref().is_none_or(|s| !answers.contains_key(s)));
    Ok(asks)
}

/// The most actions one decision may offer.
pub(crate) const MAX_ACTIONS: usize = 10_000;

/// The `actions` list of a prompt or an ask; `context` prefixes errors ("ask 2 (AU): ").
fn parse_actions(
    reading: &Reading<'_>,
    t: &LuaTable,
    has_action: &impl Fn(&str) -> bool,
    context: &str,
) -> Result<Vec<Action>, String> {
    let Reading {
        lua, module, state, ..
    } = *reading;
    let list = match field::<LuaValue>(lua, t, "actions").map_err(|e| e.to_string())? {
        LuaValue::Table(list) => list,
        LuaValue::Nil => return Err(format!("{context}prompt has no actions list")),
        other => {
            return Err(format!(
                "{context}prompt actions must be a list, got a {}",
                other.type_name()
            ));
        }
    };
    if list.raw_len() > MAX_ACTIONS {
        return Err(format!(
            "{context}prompt lists {} actions, more than the {MAX_ACTIONS} a decision may offer \
             (offer a number as one action with min and max, or split the decision in steps)",
            list.raw_len()
        ));
    }
    let fields = match stack_fields(&list) {
        Some(fields) => fields,
        None => list
            .sequence_values::<LuaValue>()
            .map(|item| match item {
                Ok(item) => mlua_fields(lua, &item),
                Err(e) => Err(e.to_string()),
            })
            .collect(),
    };
    let mut actions: Vec<Action> = Vec::with_capacity(fields.len());
    for (i, fields) in fields.into_iter().enumerate() {
        let action = fields
            .and_then(|fields| parse_action(fields, module))
            .map_err(|e| format!("{context}action {}: {e}", i + 1))?;
        // Actions of one name come in runs: the one before was checked already.
        let checked = actions
            .last()
            .is_some_and(|a: &Action| a.name == action.name);
        if !checked && (STATE_HOOKS.contains(&action.name.as_str()) || !has_action(&action.name)) {
            return Err(format!(
                "{context}action {} is '{}', but state '{state}' has no function '{}' to apply it",
                i + 1,
                action.name,
                action.name
            ));
        }
        actions.push(action);
    }
    let mut seen = std::collections::HashSet::with_capacity(actions.len());
    for (i, action) in actions.iter().enumerate() {
        if !seen.insert((action.name.as_str(), &action.arg, action.range)) {
            return Err(format!(
                "{context}action {} ('{} {}') is listed twice",
                i + 1,
                action.name,
                action.arg
            ));
        }
    }
    if actions.is_empty() {
        return Err(format!(
            "{context}state '{state}' lists no legal action: a dead end (end the game with ctx:game_over, or list an action)"
        ));
    }
    Ok(actions)
}

/// The fields an action may have.
const ACTION_KEYS: [&str; 13] = [
    "name", "arg", "min", "max", "card", "zone", "piece", "box", "counter", "place", "space",
    "label", "confirm",
];

/// One field of an action as read from its table, before it is checked.
#[derive(Default, Debug, PartialEq)]
enum Field {
    #[default]
    Nil,
    Text(String),
    Int(i64),
    /// Something else, by its type's name.
    Other(&'static str),
}

/// An action's fields, in the order of [`ACTION_KEYS`] (`arg` read as plain data apart,
/// its error kept until the field is checked in turn).
#[derive(Debug, PartialEq)]
struct Fields {
    fields: [Field; 13],
    arg: Result<Value, String>,
}

/// Each action's fields, read from the list's items `1, 2, …` up to the first nil in one
/// pass on the stack; None if an item is a table with a metatable (whose fields are read
/// through `__index`, by [`mlua_fields`]).
fn stack_fields(list: &LuaTable) -> Option<Vec<Result<Fields, String>>> {
    /// One item of the list, as the walk finds it.
    enum Item {
        /// A nil: the list ends before it.
        End,
        /// A table with a metatable.
        Indexed,
        Read(Box<Result<Fields, String>>),
    }
    stack::with_table(list, |walk, _, at| {
        let mut items = Vec::new();
        for i in 1.. {
            let item = walk.index(at, i, |walk, slot, at| match slot {
                Slot::Nil => Item::End,
                Slot::Table(_, true) => Item::Indexed,
                Slot::Table(_, false) => Item::Read(Box::new(Ok(read_fields(walk, at)))),
                other => Item::Read(Box::new(Err(not_a_table(other.type_name())))),
            })?;
            match item {
                Item::End => break,
                Item::Indexed => return None,
                Item::Read(fields) => items.push(*fields),
            }
        }
        Some(items)
    })
    .flatten()
}

/// The fields of the action table at `at`, in one pass over its entries.
fn read_fields(walk: &Walk, at: std::ffi::c_int) -> Fields {
    let mut read = Fields {
        fields: Default::default(),
        arg: Ok(Value::Nil),
    };
    walk.entries(at, &mut |walk, key, value, at| {
        if let Slot::Str(key) = key
            && let Some(i) = ACTION_KEYS.iter().position(|k| k.as_bytes() == key)
        {
            if i == 1 {
                read.arg = from_slot(walk, value, at, "arg");
            } else {
                read.fields[i] = Field::from(value);
            }
        }
        true
    });
    read
}

/// An action's fields read through mlua (through `__index`, key by key, when it has a
/// metatable).
fn mlua_fields(lua: &Lua, item: &LuaValue) -> Result<Fields, String> {
    let LuaValue::Table(t) = item else {
        return Err(not_a_table(item.type_name()));
    };
    let mut values: [LuaValue; 13] = Default::default();
    if t.metatable().is_some() {
        for (slot, key) in values.iter_mut().zip(ACTION_KEYS) {
            *slot = field::<LuaValue>(lua, t, key).map_err(|e| e.to_string())?;
        }
    } else {
        for pair in t.pairs::<LuaValue, LuaValue>() {
            let (key, value) = pair.map_err(|e| e.to_string())?;
            if let LuaValue::String(key) = key
                && let Some(i) = ACTION_KEYS
                    .iter()
                    .position(|k| *k.as_bytes() == *key.as_bytes())
            {
                values[i] = value;
            }
        }
    }
    let arg = from_lua(&std::mem::take(&mut values[1]), "arg");
    Ok(Fields {
        fields: values.each_ref().map(Field::from),
        arg,
    })
}

impl From<Slot<'_>> for Field {
    fn from(value: Slot<'_>) -> Field {
        match value {
            Slot::Nil => Field::Nil,
            Slot::Str(s) => Field::Text(String::from_utf8_lossy(s).into_owned()),
            Slot::Int(n) => Field::Int(n),
            other => Field::Other(other.type_name()),
        }
    }
}

impl From<&LuaValue> for Field {
    fn from(value: &LuaValue) -> Field {
        stack::with_value(value, |_, slot, _| Field::from(slot)).unwrap_or(Field::Other("table"))
    }
}

fn not_a_table(type_name: &str) -> String {
    format!("must be a table {{name = …, arg = …}}, got a {type_name}")
}

fn as_string(value: Field, key: &str) -> Result<Option<String>, String> {
    match value {
        Field::Nil => Ok(None),
        Field::Text(s) => Ok(Some(s)),
        Field::Int(_) => Err(format!("'{key}' must be a string, got a integer")),
        Field::Other(type_name) => Err(format!("'{key}' must be a string, got a {type_name}")),
    }
}

fn parse_action(Fields { fields, arg }: Fields, module: &Module) -> Result<Action, String> {
    let [
        name,
        _,
        min,
        max,
        card,
        zone,
        piece,
        boxed,
        counter,
        place,
        space,
        label,
        confirm,
    ] = fields;
    let name = as_string(name, "name")?.ok_or("needs a name")?;
    let arg = arg?;
    let int = |value: Field, key: &str| -> Result<Option<i64>, String> {
        match value {
            Field::Nil => Ok(None),
            Field::Int(n) => Ok(Some(n)),
            Field::Text(_) => Err(format!("'{key}' must be an integer, got a string")),
            Field::Other(type_name) => {
                Err(format!("'{key}' must be an integer, got a {type_name}"))
            }
        }
    };
    let range = match (int(min, "min")?, int(max, "max")?) {
        (Some(lo), Some(hi)) if lo <= hi => Some((lo, hi)),
        (None, None) => None,
        _ => return Err("a number choice needs min <= max".to_owned()),
    };
    let target = if let Some(card) = as_string(card, "card")? {
        if !module.cards.contains(&card) {
            return Err(format!("unknown card '{card}'"));
        }
        Some(Target::Card(card.into()))
    } else if let Some(zone) = as_string(zone, "zone")? {
        Some(Target::Zone(zone.into()))
    } else if let Some(piece) = as_string(piece, "piece")? {
        Some(Target::Piece(piece.into()))
    } else if let Some(boxed) = as_string(boxed, "box")? {
        Some(Target::Box(boxed.into()))
    } else if let Some(counter) = as_string(counter, "counter")? {
        Some(Target::Counter(counter.into()))
    } else if let (Some(place), Some(space)) =
        (as_string(place, "place")?, as_string(space, "space")?)
    {
        Some(Target::Space(place.into(), space.into()))
    } else {
        None
    };
    let label = match as_string(label, "label")? {
        Some(label) => label,
        None => match (&target, &arg, range) {
            (Some(Target::Card(card)), _, _) => {
                let card_name = module
                    .cards
                    .get(card.as_str())
                    .map(|c| c.name.clone())
                    .unwrap_or_default();
                format!("{name}: {card_name}")
            }
            (_, _, Some((lo, hi))) => format!("{name} ({lo}–{hi})"),
            (_, Value::Nil, _) => name.clone(),
            (_, arg, _) => format!("{name} {arg}"),
        },
    };
    let arg = match (range, arg) {
        (Some((lo, _)), Value::Nil) => Value::Int(lo),
        (_, arg) => arg,
    };
    let confirm = as_string(confirm, "confirm")?;
    Ok(Action {
        name,
        arg,
        label,
        target,
        range,
        confirm,
    })
}

/// The actions as Lua tables, the way a prompt lists them.
pub(crate) fn actions_to_lua(lua: &Lua, actions: &[Action]) -> mlua::Result<LuaTable> {
    // At most MAX_ACTIONS of a few entries each.
    let list = stack::build_with(lua, |b| {
        b.table(actions.len(), 0);
        for (i, action) in (1..).zip(actions) {
            b.table(0, 4);
            b.set_str("name", &action.name);
            b.set("arg", &action.arg);
            b.set_str("label", &action.label);
            if let Some(confirm) = &action.confirm {
                b.set_str("confirm", confirm);
            }
            if let Some((lo, hi)) = action.range {
                b.set_int("min", lo);
                b.set_int("max", hi);
            }
            match &action.target {
                Some(Target::Card(id)) => b.set_str("card", id.as_str()),
                Some(Target::Zone(id)) => b.set_str("zone", id.as_str()),
                Some(Target::Piece(id)) => b.set_str("piece", id.as_str()),
                Some(Target::Box(id)) => b.set_str("box", id.as_str()),
                Some(Target::Counter(id)) => b.set_str("counter", id.as_str()),
                Some(Target::Space(place, space)) => {
                    b.set_str("place", place.as_str());
                    b.set_str("space", space.as_str());
                }
                None => {}
            }
            b.store_at(i);
        }
    })?;
    match list {
        LuaValue::Table(list) => Ok(list),
        _ => Err(mlua::Error::runtime("the actions could not be listed")),
    }
}

/// Reads a bot's answer: the action (an index into `actions`, an action table, or an
/// action name) and its reasons (a string or a list of strings).
pub(crate) fn parse_bot_pick(
    lua: &Lua,
    choice: &LuaValue,
    reason: &LuaValue,
    actions: &[Action],
) -> Result<BotPick, String> {
    let choice = match choice {
        LuaValue::Integer(i) => {
            let action = usize::try_from(*i)
                .ok()
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| actions.get(i))
                .ok_or_else(|| {
                    format!("picked action {i}, but there are {} actions", actions.len())
                })?;
            action.choice()
        }
        LuaValue::String(name) => Choice {
            name: name.to_string_lossy(),
            arg: Value::Nil,
        },
        LuaValue::Table(t) => Choice {
            name: as_string(
                Field::from(&field::<LuaValue>(lua, t, "name").map_err(|e| e.to_string())?),
                "name",
            )?
            .ok_or("the picked action has no name")?,
            arg: from_lua(
                &field::<LuaValue>(lua, t, "arg").map_err(|e| e.to_string())?,
                "arg",
            )?,
        },
        other => {
            return Err(format!(
                "a bot must return an action (its index, or a table {{name, arg}}) and its reasons, got a {}",
                other.type_name()
            ));
        }
    };
    if !actions.iter().any(|a| a.admits(&choice)) {
        let legal: Vec<String> = actions
            .iter()
            .take(8)
            .map(|a| a.choice().to_string())
            .collect();
        let more = actions.len().saturating_sub(legal.len());
        return Err(format!(
            "picked '{choice}', which is not one of the legal actions ({}{}): pick one of the actions the bot is given",
            legal.join(", "),
            if more > 0 {
                format!(", and {more} more")
            } else {
                String::new()
            }
        ));
    }
    let text = |s: &mlua::LuaString| {
        let bytes = s.as_bytes();
        if bytes.len() > MAX_TEXT_BYTES {
            return Err(format!(
                "a reason of {} bytes is too long (at most {MAX_TEXT_BYTES} each)",
                bytes.len()
            ));
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    let reason = match reason {
        LuaValue::Nil => Vec::new(),
        LuaValue::String(s) => vec![text(s)?],
        LuaValue::Table(list) => {
            if list.raw_len() > MAX_STEP_LINES {
                return Err(format!(
                    "{} reasons are too many (at most {MAX_STEP_LINES} for one pick)",
                    list.raw_len()
                ));
            }
            list.sequence_values::<LuaValue>()
                .map(|v| match v {
                    Ok(LuaValue::String(s)) => text(&s),
                    Ok(other) => Err(format!(
                        "reasons must be strings, got a {}",
                        other.type_name()
                    )),
                    Err(e) => Err(e.to_string()),
                })
                .collect::<Result<_, _>>()?
        }
        other => {
            return Err(format!(
                "a bot's reasons must be a string or a list, got a {}",
                other.type_name()
            ));
        }
    };
    Ok(BotPick { choice, reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each action's fields, or why an item is not an action.
    type Read = Vec<Result<Fields, String>>;

    /// The actions list `code` returns, read on the stack and through mlua.
    fn both(code: &str) -> (Option<Read>, Read) {
        let lua = Lua::new();
        let list: LuaTable = lua.load(code).eval().expect("valid Lua");
        let slow = list
            .sequence_values::<LuaValue>()
            .map(|item| mlua_fields(&lua, &item.expect("an item")))
            .collect();
        (stack_fields(&list), slow)
    }

    #[test]
    fn an_actions_fields_read_on_the_stack_are_those_mlua_reads() {
        let (fast, slow) = both(
            "return {
                {name = 'play', arg = {issue = 'poland', n = 2, f = 0.5}, card = 'stadion'},
                {name = 'bid', min = 1, max = 3, label = 'Bid'},
                {name = 7, arg = 'x', min = 1.5, zone = true, extra = {}},
                {name = 'odd', arg = {1, nil, 3}},
                {name = 'fn', arg = print, confirm = {}},
                'not a table',
                42,
                [9] = {name = 'after a hole'},
            }",
        );
        let fast = fast.expect("no metatables, so read on the stack");
        assert_eq!(fast, slow);
        assert_eq!(fast.len(), 7, "items up to the first nil");
        assert_eq!(
            fast[6].as_ref().err().map(String::as_str),
            Some("must be a table {name = …, arg = …}, got a integer")
        );
        let Ok(fields) = &fast[3] else {
            panic!("a table: {:?}", fast[3]);
        };
        assert!(
            fields
                .arg
                .as_ref()
                .is_err_and(|e| e.contains("keys 1..n without holes")),
            "{:?}",
            fields.arg
        );
    }

    #[test]
    fn an_action_with_a_metatable_is_read_through_its_index() {
        let (fast, slow) = both(
            "return {{name = 'plain'}, setmetatable({}, {__index = {name = 'inherited', arg = 2}})}",
        );
        assert!(fast.is_none());
        let Ok(fields) = &slow[1] else {
            panic!("a table: {:?}", slow[1]);
        };
        assert_eq!(fields.fields[0], Field::Text("inherited".to_owned()));
        assert_eq!(fields.arg, Ok(Value::Int(2)));
    }
}
