//! Reading what hooks return: a prompt's legal actions, a bot's pick and reasons, and
//! actions handed to bots as Lua tables.

use mlua::{Lua, Table as LuaTable, Value as LuaValue};

use super::convert::{from_lua, to_lua};
use crate::module::Module;
use crate::rules::{Action, BotPick, Choice, Prompt, Target};
use crate::table::Table;
use crate::value::Value;

/// The action names a state table may hold besides its actions.
const STATE_HOOKS: &[&str] = &["prompt", "on_enter", "on_exit"];

/// Reads the value returned by `states.<state>.prompt`. `has_action(name)` tells whether
/// the state has a handler of that name.
pub(crate) fn parse_prompt(
    state: &str,
    value: &LuaValue,
    module: &Module,
    table: &Table,
    has_action: impl Fn(&str) -> bool,
) -> Result<Prompt, String> {
    let LuaValue::Table(t) = value else {
        return Err(format!(
            "prompt must return a table {{seat = …, text = …, actions = {{…}}}}, got a {}",
            value.type_name()
        ));
    };
    let seat = match t.get::<LuaValue>("seat").map_err(|e| e.to_string())? {
        LuaValue::Nil => None,
        LuaValue::String(s) => {
            let id = s.to_string_lossy();
            if !table.seats.contains_key(id.as_str()) {
                return Err(format!(
                    "prompt names seat '{id}', which does not play this game"
                ));
            }
            Some(id.into())
        }
        other => {
            return Err(format!(
                "prompt seat must be a seat id, got a {}",
                other.type_name()
            ));
        }
    };
    let text = match t.get::<LuaValue>("text").map_err(|e| e.to_string())? {
        LuaValue::Nil => String::new(),
        LuaValue::String(s) => s.to_string_lossy(),
        other => {
            return Err(format!(
                "prompt text must be a string, got a {}",
                other.type_name()
            ));
        }
    };
    let list = match t.get::<LuaValue>("actions").map_err(|e| e.to_string())? {
        LuaValue::Table(list) => list,
        LuaValue::Nil => return Err("prompt has no actions list".to_owned()),
        other => {
            return Err(format!(
                "prompt actions must be a list, got a {}",
                other.type_name()
            ));
        }
    };
    let mut actions: Vec<Action> = Vec::new();
    for (i, item) in list.sequence_values::<LuaValue>().enumerate() {
        let item = item.map_err(|e| e.to_string())?;
        let action = parse_action(&item, module).map_err(|e| format!("action {}: {e}", i + 1))?;
        if STATE_HOOKS.contains(&action.name.as_str()) || !has_action(&action.name) {
            return Err(format!(
                "action {} is '{}', but state '{state}' has no function '{}' to apply it",
                i + 1,
                action.name,
                action.name
            ));
        }
        if actions
            .iter()
            .any(|a| a.name == action.name && a.arg == action.arg && a.range == action.range)
        {
            return Err(format!(
                "action {} ('{} {}') is listed twice",
                i + 1,
                action.name,
                action.arg
            ));
        }
        actions.push(action);
    }
    if actions.is_empty() {
        return Err(format!(
            "state '{state}' lists no legal action: a dead end (end the game with ctx:game_over, or list an action)"
        ));
    }
    Ok(Prompt {
        state: state.to_owned(),
        seat,
        text,
        actions,
    })
}

fn get_string(t: &LuaTable, key: &str) -> Result<Option<String>, String> {
    match t.get::<LuaValue>(key).map_err(|e| e.to_string())? {
        LuaValue::Nil => Ok(None),
        LuaValue::String(s) => Ok(Some(s.to_string_lossy())),
        other => Err(format!(
            "'{key}' must be a string, got a {}",
            other.type_name()
        )),
    }
}

fn parse_action(item: &LuaValue, module: &Module) -> Result<Action, String> {
    let LuaValue::Table(t) = item else {
        return Err(format!(
            "must be a table {{name = …, arg = …}}, got a {}",
            item.type_name()
        ));
    };
    let name = get_string(t, "name")?.ok_or("needs a name")?;
    let arg = from_lua(&t.get::<LuaValue>("arg").map_err(|e| e.to_string())?, "arg")?;
    let int = |key: &str| -> Result<Option<i64>, String> {
        match t.get::<LuaValue>(key).map_err(|e| e.to_string())? {
            LuaValue::Nil => Ok(None),
            LuaValue::Integer(n) => Ok(Some(n)),
            other => Err(format!(
                "'{key}' must be an integer, got a {}",
                other.type_name()
            )),
        }
    };
    let range = match (int("min")?, int("max")?) {
        (Some(lo), Some(hi)) if lo <= hi => Some((lo, hi)),
        (None, None) => None,
        _ => return Err("a number choice needs min <= max".to_owned()),
    };
    let target = if let Some(card) = get_string(t, "card")? {
        if !module.cards.contains(&card) {
            return Err(format!("unknown card '{card}'"));
        }
        Some(Target::Card(card.into()))
    } else if let Some(zone) = get_string(t, "zone")? {
        Some(Target::Zone(zone.into()))
    } else if let Some(piece) = get_string(t, "piece")? {
        Some(Target::Piece(piece.into()))
    } else if let Some(boxed) = get_string(t, "box")? {
        Some(Target::Box(boxed.into()))
    } else if let Some(counter) = get_string(t, "counter")? {
        Some(Target::Counter(counter.into()))
    } else if let (Some(place), Some(space)) = (get_string(t, "place")?, get_string(t, "space")?) {
        Some(Target::Space(place.into(), space.into()))
    } else {
        None
    };
    let label = match get_string(t, "label")? {
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
    Ok(Action {
        name,
        arg,
        label,
        target,
        range,
    })
}

/// The actions as Lua tables, the way a prompt lists them.
pub(crate) fn actions_to_lua(lua: &Lua, actions: &[Action]) -> mlua::Result<LuaTable> {
    let list = lua.create_table()?;
    for (i, action) in actions.iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("name", action.name.as_str())?;
        t.raw_set("arg", to_lua(lua, &action.arg)?)?;
        t.raw_set("label", action.label.as_str())?;
        if let Some((lo, hi)) = action.range {
            t.raw_set("min", lo)?;
            t.raw_set("max", hi)?;
        }
        match &action.target {
            Some(Target::Card(id)) => t.raw_set("card", id.as_str())?,
            Some(Target::Zone(id)) => t.raw_set("zone", id.as_str())?,
            Some(Target::Piece(id)) => t.raw_set("piece", id.as_str())?,
            Some(Target::Box(id)) => t.raw_set("box", id.as_str())?,
            Some(Target::Counter(id)) => t.raw_set("counter", id.as_str())?,
            Some(Target::Space(place, space)) => {
                t.raw_set("place", place.as_str())?;
                t.raw_set("space", space.as_str())?;
            }
            None => {}
        }
        list.raw_set(i + 1, t)?;
    }
    Ok(list)
}

/// Reads a bot's answer: the action (an index into `actions`, an action table, or an
/// action name) and its reasons (a string or a list of strings).
pub(crate) fn parse_bot_pick(
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
            name: get_string(t, "name")?.ok_or("the picked action has no name")?,
            arg: from_lua(&t.get::<LuaValue>("arg").map_err(|e| e.to_string())?, "arg")?,
        },
        other => {
            return Err(format!(
                "a bot must return an action (its index, or a table {{name, arg}}) and its reasons, got a {}",
                other.type_name()
            ));
        }
    };
    let reason = match reason {
        LuaValue::Nil => Vec::new(),
        LuaValue::String(s) => vec![s.to_string_lossy()],
        LuaValue::Table(list) => list
            .sequence_values::<LuaValue>()
            .map(|v| match v {
                Ok(LuaValue::String(s)) => Ok(s.to_string_lossy()),
                Ok(other) => Err(format!(
                    "reasons must be strings, got a {}",
                    other.type_name()
                )),
                Err(e) => Err(e.to_string()),
            })
            .collect::<Result<_, _>>()?,
        other => {
            return Err(format!(
                "a bot's reasons must be a string or a list, got a {}",
                other.type_name()
            ));
        }
    };
    Ok(BotPick { choice, reason })
}
