//! The `ctx` API: the functions through which scripts read and change the table.
//!
//! One registry, [`API`], lists every function with its parameters, return values and
//! documentation; it is what gets registered in the VM, and what the API reference and the
//! LuaLS type stubs are generated from, so they cannot drift apart.

use std::collections::BTreeMap;

use mlua::{Lua, MultiValue, Table as LuaTable, Value as LuaValue};

use super::call::{CallState, FlowEvent, Which};
use super::convert::{from_lua, to_lua};
use super::interned;
use super::stack::{Arg, CallArgs};
use super::util::script_error;
use crate::fog::{Sight, SightOf};
use crate::ids::{BoxId, CardId, CounterId, PieceId, PlaceId, SeatId, SpaceId, UnitKindId, ZoneId};
use crate::module::DataValue;
use crate::rng::Rng;
use crate::rules::{LogLine, MAX_STEP_LINES, MAX_TEXT_BYTES, Need};
use crate::table::{Controller, DiceMode, Frame, GameResult, HIDDEN_CARD, Position};
use crate::value::Value;

/// Parameters and results are documented as `(name, LuaLS type)`.
pub(crate) type Params = &'static [(&'static str, &'static str)];

/// One function of the `ctx` API.
pub(crate) struct ApiEntry {
    /// Its name: scripts call `ctx:<name>(…)`.
    pub name: &'static str,
    /// Its parameters after `ctx`.
    pub params: Params,
    /// What it returns.
    pub returns: Params,
    /// What it does.
    pub doc: &'static str,
    /// Whether it changes the table (refused in prompt, view, check and bots).
    pub changes: bool,
    /// The implementation.
    pub func: fn(&Lua, &Args) -> mlua::Result<MultiValue>,
}

/// A field of `ctx` (not a function).
pub(crate) struct ApiField {
    /// Its name.
    pub name: &'static str,
    /// Its LuaLS type.
    pub ty: &'static str,
    /// What it holds.
    pub doc: &'static str,
}

/// The fields of `ctx`.
pub(crate) const FIELDS: &[ApiField] = &[
    ApiField {
        name: "vars",
        ty: "table",
        doc: "The module's rule variables: plain data kept in the table, which every seat may read. Changes persist in hooks that change the table. Each call gets its own copy, filled as it is read (`getmetatable` of it may be `false`): keep none from one call to the next.",
    },
    ApiField {
        name: "locals",
        ty: "table",
        doc: "The current state's local variables (the frame whose hook is running): plain data, which every seat may read. Each call gets its own copy, as `ctx.vars`.",
    },
    ApiField {
        name: "private",
        ty: "table<string, table>",
        doc: "Each seat's private state, indexed by seat (`ctx.private.AU.plan = 2`): plain data that only that seat's bot and view (and the rules) may read; reading another seat's from a bot or a seat's view is an error.",
    },
    ApiField {
        name: "data",
        ty: "ChanceryData",
        doc: "The module's data, read-only: cards, zones, places, pieces, unit_kinds, boxes, counters, seats, scenarios, options and tables (each by id, with an ordered `*_ids` list; see `ctx.data` below). Reading a value that is not entered yet asks the players for it.",
    },
    ApiField {
        name: "scenario",
        ty: "string",
        doc: "The id of the scenario being played.",
    },
    ApiField {
        name: "watched",
        ty: "boolean",
        doc: "Whether a person will read this call's words: false in a simulation (`chancery sim`, the balance lab), where nobody reads labels or log lines, and of a bot's reasons only the rule steps they name are counted. A hook may then leave out words that take work to make (a label that works out a sum), but never change what it decides: `chancery sim --watched` plays the same games with it true, and must give the same results.",
    },
];

/// Arguments of one API call (after `ctx`), with messages that name the function.
pub(crate) struct Args {
    name: &'static str,
    params: Params,
    values: Vec<Arg>,
}

impl Args {
    fn new(lua: &Lua, entry: &ApiEntry, args: CallArgs) -> mlua::Result<Args> {
        if !args.ctx_first {
            return Err(script_error(
                lua,
                format!(
                    "call ctx:{}(…) with a colon, so that ctx is passed first",
                    entry.name
                ),
            ));
        }
        Ok(Args {
            name: entry.name,
            params: entry.params,
            values: args.values,
        })
    }

    fn get(&self, i: usize) -> &Arg {
        self.values.get(i).unwrap_or(&Arg::Nil)
    }

    /// How many arguments were passed (after `ctx`).
    fn len(&self) -> usize {
        self.values.len()
    }

    /// Argument `i` as an mlua value.
    fn lua_value(&self, lua: &Lua, i: usize) -> mlua::Result<LuaValue> {
        Ok(match self.get(i) {
            Arg::Nil => LuaValue::Nil,
            Arg::Bool(b) => LuaValue::Boolean(*b),
            Arg::Int(n) => LuaValue::Integer(*n),
            Arg::Float(f) => LuaValue::Number(*f),
            Arg::Str(s) => LuaValue::String(lua.create_string(s.bytes())?),
            Arg::Value(v) => v.clone(),
        })
    }

    fn wrong(&self, lua: &Lua, i: usize, expected: &str) -> mlua::Error {
        let param = self.params.get(i).map(|(n, _)| *n).unwrap_or("?");
        script_error(
            lua,
            format!(
                "ctx:{}: argument {} ({param}) must be {expected}, got {}",
                self.name,
                i + 1,
                self.get(i).type_name()
            ),
        )
    }

    /// Argument `i`'s bytes if it is a string no longer than the API takes.
    fn text(&self, lua: &Lua, i: usize) -> mlua::Result<&[u8]> {
        match self.get(i) {
            Arg::Str(s) if s.bytes().len() > MAX_TEXT_BYTES => Err(script_error(
                lua,
                format!(
                    "ctx:{} argument {}: a string of {} bytes is too long (at most {MAX_TEXT_BYTES})",
                    self.name,
                    i + 1,
                    s.bytes().len()
                ),
            )),
            Arg::Str(s) => Ok(s.bytes()),
            _ => Err(self.wrong(lua, i, "a string")),
        }
    }

    fn string(&self, lua: &Lua, i: usize) -> mlua::Result<String> {
        self.text(lua, i)
            .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
    }

    /// Argument `i` as a string, lent to `f` without a copy (the hot lookups by id take
    /// many a decision); the same errors as [`Args::string`].
    fn with_str<R>(
        &self,
        lua: &Lua,
        i: usize,
        f: impl FnOnce(&str) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        let bytes = self.text(lua, i)?;
        match std::str::from_utf8(bytes) {
            Ok(text) => f(text),
            Err(_) => f(&String::from_utf8_lossy(bytes)),
        }
    }

    fn opt_string(&self, lua: &Lua, i: usize) -> mlua::Result<Option<String>> {
        match self.get(i) {
            Arg::Nil => Ok(None),
            _ => self.string(lua, i).map(Some),
        }
    }

    fn int(&self, lua: &Lua, i: usize) -> mlua::Result<i64> {
        match self.get(i) {
            Arg::Int(n) => Ok(*n),
            Arg::Float(f) if f.fract() == 0.0 && f.is_finite() => Ok(*f as i64),
            _ => Err(self.wrong(lua, i, "an integer")),
        }
    }

    fn opt_int(&self, lua: &Lua, i: usize) -> mlua::Result<Option<i64>> {
        match self.get(i) {
            Arg::Nil => Ok(None),
            _ => self.int(lua, i).map(Some),
        }
    }

    /// Argument `i` as plain data. What cannot be read while ctx's tables are partly filled
    /// is read again with them filled: it may be, or hold, one of them (see `lazy.rs`).
    fn value(&self, lua: &Lua, i: usize) -> mlua::Result<Value> {
        let path = format!("ctx:{} argument {}", self.name, i + 1);
        let value = self.lua_value(lua, i)?;
        match from_lua(&value, &path) {
            Err(_) if super::lazy::fill_current(lua)? => from_lua(&value, &path),
            read => read,
        }
        .map_err(|e| script_error(lua, e))
    }
}

/// Runs `f` on the call's state; a `String` error becomes a script error at the caller's line.
fn with<R>(lua: &Lua, f: impl FnOnce(&mut CallState) -> Result<R, String>) -> mlua::Result<R> {
    let result = {
        let Some(mut state) = lua.app_data_mut::<CallState>() else {
            return Err(mlua::Error::runtime(
                "ctx was used outside a hook call (keep no ctx between calls)",
            ));
        };
        f(&mut state)
    };
    result.map_err(|message| script_error(lua, message))
}

fn ret(lua: &Lua, values: impl IntoIterator<Item = Value>) -> mlua::Result<MultiValue> {
    values.into_iter().map(|v| to_lua(lua, &v)).collect()
}

fn none() -> mlua::Result<MultiValue> {
    Ok(MultiValue::new())
}

fn ids<T: ToString>(items: impl IntoIterator<Item = T>) -> Value {
    Value::List(
        items
            .into_iter()
            .map(|i| Value::Str(i.to_string()))
            .collect(),
    )
}

/// `found`, or the error that names the unknown `what` (card, piece…) `id`.
fn known_id(found: bool, what: &str, id: &str) -> Result<(), String> {
    if found {
        Ok(())
    } else {
        Err(format!("unknown {what} '{id}'"))
    }
}

fn check_card(st: &CallState, card: &str) -> Result<CardId, String> {
    known_id(st.module.cards.contains(card), "card", card)?;
    Ok(CardId::from(card))
}

fn check_zone(st: &CallState, zone: &str) -> Result<ZoneId, String> {
    if st.table.zones.contains_key(zone) {
        Ok(ZoneId::from(zone))
    } else {
        Err(format!("unknown zone '{zone}'"))
    }
}

fn check_piece(st: &CallState, piece: &str) -> Result<PieceId, String> {
    known_id(st.module.pieces.contains(piece), "piece", piece)?;
    Ok(PieceId::from(piece))
}

fn check_space(st: &CallState, place: &str, space: &str) -> Result<(PlaceId, SpaceId), String> {
    let Some(def) = st.module.places.get(place) else {
        return Err(format!("unknown place '{place}'"));
    };
    if def.space(space).is_none() {
        return Err(format!("place '{place}' has no space '{space}'"));
    }
    Ok((PlaceId::from(place), SpaceId::from(space)))
}

fn check_box(st: &CallState, boxed: &str) -> Result<BoxId, String> {
    if st.module.boxes.contains(boxed) {
        Ok(BoxId::from(boxed))
    } else {
        Err(format!("unknown box '{boxed}'"))
    }
}

fn check_units(st: &CallState, boxed: &str, kind: &str) -> Result<(BoxId, UnitKindId), String> {
    let boxed = check_box(st, boxed)?;
    if !st.module.box_accepts(boxed.as_str(), kind) {
        return Err(format!(
            "box '{boxed}' does not hold units of kind '{kind}'"
        ));
    }
    Ok((boxed, UnitKindId::from(kind)))
}

fn check_counter(st: &CallState, id: &str) -> Result<CounterId, String> {
    if st.table.counters.contains_key(id) {
        Ok(CounterId::from(id))
    } else {
        Err(format!("unknown counter '{id}'"))
    }
}

fn check_state(st: &CallState, state: &str) -> Result<(), String> {
    if st.states.iter().any(|s| s == state) {
        Ok(())
    } else {
        Err(format!(
            "unknown state '{state}' (states are: {})",
            st.states.join(", ")
        ))
    }
}

fn push_frame(st: &mut CallState, state: String, locals: Value) -> u64 {
    let id = st.table.next_frame_id;
    st.table.next_frame_id += 1;
    // No locals, or an empty Lua table (which reads as an empty list), are an empty map:
    // what a script's empty table reads back as, so that reading them changes nothing.
    let locals = match locals {
        Value::Nil => Value::map(),
        Value::List(list) if list.is_empty() => Value::map(),
        locals => locals,
    };
    st.table.flow.push(Frame {
        id,
        state,
        locals,
        answers: BTreeMap::new(),
    });
    st.events.push(FlowEvent::Enter(id));
    id
}

fn parse_position(lua: &Lua, args: &Args, i: usize) -> mlua::Result<Position> {
    match args.get(i) {
        Arg::Nil => Ok(Position::Top),
        Arg::Str(s) if s.bytes() == b"top" => Ok(Position::Top),
        Arg::Str(s) if s.bytes() == b"bottom" => Ok(Position::Bottom),
        Arg::Int(n) if *n >= 1 => Ok(Position::Index(*n as usize - 1)),
        _ => Err(args.wrong(lua, i, "\"top\", \"bottom\" or a position from 1 (the top)")),
    }
}

fn api_counter(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let id = a.string(lua, 0)?;
    let value = with(lua, |st| {
        st.table
            .counter(&check_counter(st, &id)?)
            .map_err(|e| e.to_string())
    })?;
    ret(lua, [Value::Int(value)])
}

fn api_zone(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let zone = a.string(lua, 0)?;
    let cards = with(lua, |st| {
        let zone = &st.table.zones[&check_zone(st, &zone)?];
        Ok(zone
            .cards
            .iter()
            .map(|c| {
                if zone.shows(c, st.viewer.as_ref()) {
                    c.to_string()
                } else {
                    HIDDEN_CARD.to_owned()
                }
            })
            .collect::<Vec<_>>())
    })?;
    ret(lua, [ids(cards)])
}

fn api_count(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let zone = a.string(lua, 0)?;
    let n = with(lua, |st| {
        Ok(st.table.zones[&check_zone(st, &zone)?].cards.len())
    })?;
    ret(lua, [Value::Int(n as i64)])
}

fn api_card_zone(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let card = a.string(lua, 0)?;
    let found = with(lua, |st| {
        let card = check_card(st, &card)?;
        let Some((zone_id, i)) = st.table.card_location(&card) else {
            return Ok(None);
        };
        let shown = st
            .table
            .zones
            .get(zone_id)
            .is_some_and(|z| z.shows(&card, st.viewer.as_ref()));
        Ok(shown.then(|| (zone_id.to_string(), i)))
    })?;
    match found {
        Some((zone, i)) => ret(lua, [Value::Str(zone), Value::Int(i as i64 + 1)]),
        None => ret(lua, [Value::Nil]),
    }
}

fn api_face_up(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let card = a.string(lua, 0)?;
    let up = with(lua, |st| {
        let card = check_card(st, &card)?;
        // To a seat's eyes, a card it cannot see (or out of play) is neither up nor down, as
        // `card_zone` finds it nowhere: otherwise which card lies face down would show.
        if let Some(viewer) = &st.viewer {
            let seen = st
                .table
                .card_location(&card)
                .and_then(|(zone, _)| st.table.zones.get(zone))
                .is_some_and(|z| z.shows(&card, Some(viewer)));
            if !seen {
                return Ok(None);
            }
        }
        Ok(Some(st.table.is_face_up(&card)))
    })?;
    ret(lua, [up.map_or(Value::Nil, Value::Bool)])
}

fn api_space_of(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let at = a.with_str(lua, 0, |piece| {
        with(lua, |st| {
            known_id(st.module.pieces.contains(piece), "piece", piece)?;
            let text = |id: &str| interned::string(lua, id).map_err(|e| e.to_string());
            st.table
                .piece_seen_at(st.viewer.as_ref(), &PieceId::from(piece))
                .map(|(place, space)| Ok((text(place.as_str())?, text(space.as_str())?)))
                .transpose()
        })
    })?;
    Ok(match at {
        Some((place, space)) => {
            MultiValue::from_iter([LuaValue::String(place), LuaValue::String(space)])
        }
        None => MultiValue::from_iter([LuaValue::Nil]),
    })
}

fn api_pieces_at(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (place, space) = (a.string(lua, 0)?, a.string(lua, 1)?);
    let pieces = with(lua, |st| {
        let (place, space) = check_space(st, &place, &space)?;
        let mut pieces = st
            .table
            .pieces_at(&place, &space)
            .map_err(|e| e.to_string())?;
        pieces.retain(|piece| {
            st.table
                .sees_piece(st.viewer.as_ref(), &place, &space, piece)
        });
        Ok(pieces)
    })?;
    ret(lua, [ids(pieces)])
}

fn api_units(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (boxed, kind) = (a.string(lua, 0)?, a.opt_string(lua, 1)?);
    let n = with(lua, |st| match kind {
        Some(kind) => {
            let (boxed, kind) = check_units(st, &boxed, &kind)?;
            let n = st.table.units(&boxed, &kind).map_err(|e| e.to_string())?;
            Ok(if st.table.sees_units(st.viewer.as_ref(), &boxed, &kind) {
                n
            } else {
                0
            })
        }
        None => {
            let boxed = check_box(st, &boxed)?;
            Ok(st.table.boxes.get(&boxed).map_or(0, |units| {
                units
                    .iter()
                    .filter(|(kind, _)| st.table.sees_units(st.viewer.as_ref(), &boxed, kind))
                    .map(|(_, n)| n)
                    .sum()
            }))
        }
    })?;
    ret(lua, [Value::Int(n)])
}

fn api_box(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    // Built on the stack directly: bots ask for boxes often. A box holds at most one
    // entry for each of the module's unit kinds.
    let contents = a.with_str(lua, 0, |boxed| {
        with(lua, |st| {
            let units = st
                .table
                .boxes
                .get(boxed)
                .ok_or_else(|| format!("unknown box '{boxed}'"))?;
            let boxed = BoxId::from(boxed);
            let seen = |kind: &UnitKindId| st.table.sees_units(st.viewer.as_ref(), &boxed, kind);
            super::stack::build_with(lua, |b| {
                b.table(0, units.len());
                for (unit, n) in units.iter().filter(|(kind, _)| seen(kind)) {
                    b.set_int(unit.as_str(), *n);
                }
            })
            .map_err(|e| e.to_string())
        })
    })?;
    Ok(MultiValue::from_iter([contents]))
}

fn api_neighbors(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (place, space) = (a.string(lua, 0)?, a.string(lua, 1)?);
    let list = with(lua, |st| {
        check_space(st, &place, &space)?;
        Ok(st
            .module
            .places
            .get(&place)
            .map(|p| p.neighbors(&space).to_vec())
            .unwrap_or_default())
    })?;
    ret(lua, [ids(list)])
}

fn api_seats(lua: &Lua, _a: &Args) -> mlua::Result<MultiValue> {
    let seats = with(lua, |st| {
        Ok(st
            .module
            .seats
            .iter()
            .filter(|s| {
                st.table.seats.contains_key(&s.id) && st.table.umpire.as_ref() != Some(&s.id)
            })
            .map(|s| s.id.clone())
            .collect::<Vec<_>>())
    })?;
    ret(lua, [ids(seats)])
}

fn api_controller(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let seat = a.string(lua, 0)?;
    let controller = with(lua, |st| {
        st.table
            .seats
            .get(seat.as_str())
            .cloned()
            .ok_or_else(|| format!("unknown seat '{seat}' (or it does not play this scenario)"))
    })?;
    match controller {
        Controller::Human => ret(lua, [Value::from("human")]),
        Controller::Bot(name) => ret(lua, [Value::from("bot"), Value::Str(name)]),
    }
}

fn api_state(lua: &Lua, _a: &Args) -> mlua::Result<MultiValue> {
    let state = with(lua, |st| Ok(st.table.top_frame().map(|f| f.state.clone())))?;
    ret(lua, [state.map(Value::Str).unwrap_or(Value::Nil)])
}

fn api_turn(lua: &Lua, _a: &Args) -> mlua::Result<MultiValue> {
    let turn = with(lua, |st| Ok(st.table.turn))?;
    ret(lua, [Value::Int(turn)])
}

fn api_phase(lua: &Lua, _a: &Args) -> mlua::Result<MultiValue> {
    let phase = with(lua, |st| Ok(st.table.phase.clone()))?;
    ret(lua, [Value::Str(phase)])
}

fn api_demo(lua: &Lua, _a: &Args) -> mlua::Result<MultiValue> {
    let demo = with(lua, |st| Ok(st.module.is_demo()))?;
    Ok(MultiValue::from_iter([LuaValue::Boolean(demo)]))
}

fn api_chart_row(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (step, words) = a.with_str(lua, 0, |table| {
        a.with_str(lua, 1, |key| {
            with(lua, |st| {
                st.module.chart_row(table, key).ok_or_else(|| {
                    if st.module.tables.get(table).is_some() {
                        format!("table '{table}' is no bot chart: give it a `chart` to read its rows in words")
                    } else {
                        format!("unknown table '{table}'")
                    }
                })
            })
        })
    })?;
    ret(
        lua,
        [step.map_or(Value::Nil, Value::Str), Value::Str(words)],
    )
}

fn api_known(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let known = a.with_str(lua, 0, |what| {
        a.with_str(lua, 1, |id| {
            a.with_str(lua, 2, |key| known(lua, what, id, key))
        })
    })?;
    Ok(MultiValue::from_iter([LuaValue::Boolean(known)]))
}

/// Whether the value `key` of the `what` (card, space, piece or table) `id` is entered.
fn known(lua: &Lua, what: &str, id: &str, key: &str) -> mlua::Result<bool> {
    with(lua, |st| {
        let known = |value: Option<&DataValue>| value.map(|v| matches!(v, DataValue::Known(_)));
        let value = match what {
            "card" => {
                known_id(st.module.cards.contains(id), "card", id)?;
                st.module.card_field_known(id, key)
            }
            "space" => {
                let (place, space) = id
                    .split_once('/')
                    .ok_or_else(|| format!("space '{id}' must be written place/space"))?;
                check_space(st, place, space)?;
                let def = st.module.places.get(place).and_then(|p| p.space(space));
                known(def.and_then(|s| s.props.get(key)))
            }
            "piece" => {
                check_piece(st, id)?;
                known(st.module.pieces.get(id).and_then(|p| p.props.get(key)))
            }
            "table" => {
                if !st.module.tables.contains(id) {
                    return Err(format!("unknown table '{id}'"));
                }
                st.module
                    .table_entry(id, key)
                    .map(|v| matches!(v, DataValue::Known(_)))
            }
            other => {
                return Err(format!(
                    "ctx:known: '{other}' is not card, space, piece or table"
                ));
            }
        };
        value.ok_or_else(|| format!("{what} '{id}' has no '{key}'"))
    })
}

fn api_move_card(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (card, zone) = (a.string(lua, 0)?, a.string(lua, 1)?);
    let position = parse_position(lua, a, 2)?;
    with(lua, |st| {
        let (card, zone) = (check_card(st, &card)?, check_zone(st, &zone)?);
        st.table
            .move_card(&card, &zone, position)
            .map_err(|e| e.to_string())
    })?;
    none()
}

fn api_shuffle(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let zone = a.string(lua, 0)?;
    with(lua, |st| {
        let zone = check_zone(st, &zone)?;
        st.table.shuffle(&zone).map_err(|e| e.to_string())
    })?;
    none()
}

fn api_deal(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (from, to, n) = (a.string(lua, 0)?, a.string(lua, 1)?, a.int(lua, 2)?);
    let dealt = with(lua, |st| {
        let (from, to) = (check_zone(st, &from)?, check_zone(st, &to)?);
        let n = usize::try_from(n).map_err(|_| format!("cannot deal {n} cards"))?;
        st.table.deal(&from, &to, n).map_err(|e| e.to_string())
    })?;
    ret(lua, [ids(dealt)])
}

fn api_flip(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let card = a.string(lua, 0)?;
    let face_up = match a.get(1) {
        Arg::Nil => None,
        Arg::Bool(b) => Some(*b),
        _ => return Err(a.wrong(lua, 1, "true, false or nil")),
    };
    let up = with(lua, |st| {
        let card = check_card(st, &card)?;
        st.table.flip(&card, face_up).map_err(|e| e.to_string())
    })?;
    ret(lua, [Value::Bool(up)])
}

fn api_place(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (piece, place, space) = (a.string(lua, 0)?, a.string(lua, 1)?, a.string(lua, 2)?);
    with(lua, |st| {
        let piece = check_piece(st, &piece)?;
        let (place, space) = check_space(st, &place, &space)?;
        st.table
            .place_piece(&piece, &place, &space)
            .map_err(|e| e.to_string())
    })?;
    none()
}

fn api_show_piece(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let piece = a.string(lua, 0)?;
    let seats =
        opt_seats(lua, a, 1)?.ok_or_else(|| a.wrong(lua, 1, "a seat or a list of seats"))?;
    with(lua, |st| {
        let piece = check_piece(st, &piece)?;
        st.table.show_piece(&piece, &seats);
        Ok(())
    })?;
    none()
}

fn api_hide_piece(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let piece = a.string(lua, 0)?;
    let seats = opt_seats(lua, a, 1)?;
    with(lua, |st| {
        let piece = check_piece(st, &piece)?;
        st.table.hide_piece(&piece, seats.as_deref());
        Ok(())
    })?;
    none()
}

fn api_set_sight(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (what, id) = (a.string(lua, 0)?, a.string(lua, 1)?);
    let sight = match a.get(2) {
        Arg::Str(_) => match a.string(lua, 2)?.as_str() {
            "public" => Sight::Public,
            "owner" => Sight::Owner,
            "umpire" => Sight::Umpire,
            _ => {
                return Err(a.wrong(
                    lua,
                    2,
                    "\"public\", \"owner\", \"umpire\" or a list of seats",
                ));
            }
        },
        _ => Sight::Seats(opt_seats(lua, a, 2)?.ok_or_else(|| {
            a.wrong(
                lua,
                2,
                "\"public\", \"owner\", \"umpire\" or a list of seats",
            )
        })?),
    };
    with(lua, |st| {
        let of = match what.as_str() {
            "place" => {
                if !st.module.places.contains(&id) {
                    return Err(format!("unknown place '{id}'"));
                }
                SightOf::Place(PlaceId::from(id.as_str()))
            }
            "space" => {
                let (place, space) = id
                    .split_once('/')
                    .ok_or_else(|| format!("space '{id}' must be written place/space"))?;
                let (place, space) = check_space(st, place, space)?;
                SightOf::Space(place, space)
            }
            "box" => SightOf::Box(check_box(st, &id)?),
            other => {
                return Err(format!(
                    "ctx:set_sight: '{other}' is not place, space or box"
                ));
            }
        };
        st.module.add_fog_owners(&mut st.table.fog);
        st.table.set_sight(of, sight);
        Ok(())
    })?;
    none()
}

fn api_remove_piece(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let piece = a.string(lua, 0)?;
    let was = with(lua, |st| {
        let piece = check_piece(st, &piece)?;
        Ok(st.table.remove_piece(&piece))
    })?;
    match was {
        Some((place, space)) => ret(
            lua,
            [Value::Str(place.to_string()), Value::Str(space.to_string())],
        ),
        None => ret(lua, [Value::Nil]),
    }
}

fn api_add_units(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (boxed, kind, n) = (a.string(lua, 0)?, a.string(lua, 1)?, a.int(lua, 2)?);
    let count = with(lua, |st| {
        let (boxed, kind) = check_units(st, &boxed, &kind)?;
        st.table
            .add_units(&boxed, &kind, n)
            .map_err(|e| e.to_string())
    })?;
    ret(lua, [Value::Int(count)])
}

fn api_move_units(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (from, to, kind, n) = (
        a.string(lua, 0)?,
        a.string(lua, 1)?,
        a.string(lua, 2)?,
        a.int(lua, 3)?,
    );
    with(lua, |st| {
        let (from, kind) = check_units(st, &from, &kind)?;
        let (to, _) = check_units(st, &to, kind.as_str())?;
        st.table
            .move_units(&from, &to, &kind, n)
            .map_err(|e| e.to_string())
    })?;
    none()
}

fn api_set_counter(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (id, value) = (a.string(lua, 0)?, a.int(lua, 1)?);
    let set = with(lua, |st| {
        let id = check_counter(st, &id)?;
        st.table.set_counter(&id, value).map_err(|e| e.to_string())
    })?;
    ret(lua, [Value::Int(set)])
}

fn api_add_counter(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (id, delta) = (a.string(lua, 0)?, a.int(lua, 1)?);
    let set = with(lua, |st| {
        let id = check_counter(st, &id)?;
        let now = st.table.counter(&id).map_err(|e| e.to_string())?;
        st.table
            .set_counter(&id, now.saturating_add(delta))
            .map_err(|e| e.to_string())
    })?;
    ret(lua, [Value::Int(set)])
}

/// The seats a line goes to: argument `i` as one seat or a list of seats (`None`: nil, to
/// everybody), each a seat of the game, at least one.
fn opt_seats(lua: &Lua, a: &Args, i: usize) -> mlua::Result<Option<Vec<SeatId>>> {
    let seats = match a.get(i) {
        Arg::Nil => return Ok(None),
        Arg::Str(_) => vec![a.string(lua, i)?],
        _ => match a.value(lua, i)? {
            Value::List(items) if !items.is_empty() => items
                .iter()
                .map(|item| match item {
                    Value::Str(s) => Ok(s.clone()),
                    _ => Err(a.wrong(lua, i, "a seat or a list of seats")),
                })
                .collect::<mlua::Result<_>>()?,
            _ => return Err(a.wrong(lua, i, "a seat or a list of seats")),
        },
    };
    // Each seat once, in the order named, each checked to play this game: in time linear in
    // the list (a module may hand a list of any length), stopping at the first that does not.
    with(lua, |st| {
        let mut seen = std::collections::HashSet::with_capacity(seats.len().min(1024));
        let mut unique: Vec<SeatId> = Vec::new();
        for seat in seats {
            if seen.contains(seat.as_str()) {
                continue;
            }
            let seat = SeatId::from(seat);
            check_game_seat(st, a.name, &seat)?;
            seen.insert(seat.as_str().to_owned());
            unique.push(seat);
        }
        Ok(unique)
    })
    .map(Some)
}

/// That `seat`, named to ctx function `api`, plays this game.
fn check_game_seat(st: &CallState, api: &str, seat: &SeatId) -> Result<(), String> {
    match st.table.seats.contains_key(seat) {
        true => Ok(()),
        false => Err(format!("ctx:{api}: '{seat}' is not a seat of this game")),
    }
}

fn api_roll(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let sides = a.opt_int(lua, 0)?.unwrap_or(6);
    let reason = a.opt_string(lua, 1)?;
    let to = opt_seats(lua, a, 2)?;
    let sides = u32::try_from(sides)
        .ok()
        .filter(|s| *s >= 2)
        .ok_or_else(|| a.wrong(lua, 0, "at least 2"))?;
    let result = with(lua, |st| {
        let result = if let Some(&given) = st.io.dice.get(st.io.dice_used) {
            if !(1..=i64::from(sides)).contains(&given) {
                return Err(format!(
                    "the die result {given} does not fit a {sides}-sided die"
                ));
            }
            st.io.dice_used += 1;
            given
        } else if st.table.dice == DiceMode::Physical {
            st.need = Some(Need::Die { sides });
            return Err(format!(
                "waiting for a {sides}-sided die roll from the table"
            ));
        } else {
            i64::from(st.table.rng.roll(sides))
        };
        st.io.rolls.push((sides, result));
        let what = reason.map(|r| format!(" for {r}")).unwrap_or_default();
        let text = format!("Rolled d{sides}{what}: {result}");
        match to {
            // A secret roll: a line for each seat told (and the omniscient view), none for
            // the others.
            Some(seats) => {
                if seats.len() > crate::rules::MAX_STEP_LINES {
                    return Err(format!(
                        "ctx:roll: a secret roll told to {} seats would write a line for each, more than the {} a step may write: \
                         roll in public (no seats) or tell fewer seats",
                        seats.len(),
                        crate::rules::MAX_STEP_LINES
                    ));
                }
                const NAMED: usize = 6;
                let mut told: Vec<String> = seats
                    .iter()
                    .take(NAMED)
                    .map(|s| st.module.seat_name(s))
                    .collect();
                if seats.len() > NAMED {
                    told.push(format!("{} other seats", seats.len() - NAMED));
                }
                let text = format!("{text} (secret: told to {})", told.join(" and "));
                for seat in seats {
                    st.io.write(LogLine {
                        text: text.clone(),
                        to: Some(seat),
                    })?;
                }
            }
            None => st.io.write(LogLine::public(text))?,
        }
        Ok(result)
    })?;
    ret(lua, [Value::Int(result)])
}

fn api_log(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let text = match a.get(0) {
        Arg::Str(_) => a.string(lua, 0)?,
        Arg::Int(_) | Arg::Float(_) => lua
            .coerce_string(a.lua_value(lua, 0)?)?
            .map(|s| s.to_string_lossy())
            .unwrap_or_default(),
        _ => return Err(a.wrong(lua, 0, "a string")),
    };
    // With more arguments, the text is a format, as string.format reads it.
    let text = if a.len() > 1 {
        let format: mlua::Function = lua.globals().get::<LuaTable>("string")?.get("format")?;
        let mut args = vec![LuaValue::String(lua.create_string(&text)?)];
        for i in 1..a.len() {
            args.push(a.lua_value(lua, i)?);
        }
        let formatted: mlua::LuaString = format
            .call(MultiValue::from_vec(args))
            .map_err(|e| script_error(lua, format!("ctx:log: {}", super::util::describe(&e).0)))?;
        formatted.to_string_lossy()
    } else {
        text
    };
    with(lua, |st| st.io.write(LogLine::public(text)))?;
    none()
}

fn api_tell(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let (seat, text) = (a.string(lua, 0)?, a.string(lua, 1)?);
    with(lua, |st| {
        let seat = SeatId::from(seat);
        check_game_seat(st, "tell", &seat)?;
        st.io.write(LogLine {
            text,
            to: Some(seat),
        })
    })?;
    none()
}

fn api_answered(lua: &Lua, _a: &Args) -> mlua::Result<MultiValue> {
    let seats = with(lua, |st| {
        Ok(st
            .table
            .top_frame()
            .map(|f| f.answers.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default())
    })?;
    ret(lua, [ids(seats)])
}

fn api_random(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let n = a.int(lua, 0)?;
    let reason = a.opt_string(lua, 1)?;
    let n = u32::try_from(n)
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| a.wrong(lua, 0, "a whole number from 1"))?;
    let result = with(lua, |st| {
        if !st.bot {
            return Err(
                "ctx:random is for bots (a fate die, a choice at random); the rules roll dice with ctx:roll"
                    .to_owned(),
            );
        }
        let table = &st.table;
        let viewer = st.viewer.clone().unwrap_or_default();
        let rng = st.bot_rng.get_or_insert_with(|| {
            // A stream of the bot's own: the same game and what its seat sees give the same
            // draws, so a bot game replays exactly and a preview draws what the bot will
            // draw; what the seat may not see (another's secret choice) changes nothing.
            let seen = table.digest_seen_by(&viewer);
            let mut hasher = crate::digest::Fnv64::default();
            std::hash::Hash::hash(&(table.seed, seen, viewer.as_str(), "bot"), &mut hasher);
            Rng::from_seed(std::hash::Hasher::finish(&hasher))
        });
        let result = i64::from(rng.roll(n));
        if st.bot_draws.len() >= MAX_STEP_LINES {
            return Err(format!(
                "ctx:random: more than {MAX_STEP_LINES} draws in one pick (an endless loop?)"
            ));
        }
        let what = reason.map(|r| format!(" for {r}")).unwrap_or_default();
        st.bot_draws
            .push(format!("Drew {result} of 1-{n} at random{what}."));
        Ok(result)
    })?;
    ret(lua, [Value::Int(result)])
}

fn api_set_turn(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let turn = a.int(lua, 0)?;
    with(lua, |st| {
        st.table.turn = turn;
        Ok(())
    })?;
    none()
}

fn api_set_phase(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let phase = a.string(lua, 0)?;
    with(lua, |st| {
        st.table.phase = phase;
        Ok(())
    })?;
    none()
}

fn api_push(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let state = a.string(lua, 0)?;
    let locals = a.value(lua, 1)?;
    with(lua, |st| {
        check_state(st, &state)?;
        push_frame(st, state, locals);
        Ok(())
    })?;
    none()
}

fn api_replace(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let state = a.string(lua, 0)?;
    let locals = a.value(lua, 1)?;
    with(lua, |st| {
        check_state(st, &state)?;
        let old = take_top(lua, st, "replace")?;
        st.events.push(FlowEvent::Exit(old));
        push_frame(st, state, locals);
        Ok(())
    })?;
    none()
}

fn api_pop(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let result = a.value(lua, 0)?;
    with(lua, |st| {
        let old = take_top(lua, st, "pop")?;
        st.events.push(FlowEvent::Exit(old));
        if let Some(caller) = st.table.top_frame() {
            st.events.push(FlowEvent::Resume(caller.id, result));
        }
        Ok(())
    })?;
    none()
}

/// Takes the top frame off the flow, with the locals the running hook gave it so far (so
/// that its `on_exit` sees them).
fn take_top(lua: &Lua, st: &mut CallState, function: &str) -> Result<Frame, String> {
    let Some(mut old) = st.table.flow.pop() else {
        return Err(format!(
            "ctx:{function}: the flow is empty (enter a state with ctx:call)"
        ));
    };
    if st.locals_frame == Some(old.id)
        && let Some(mut locals) = st.locals_table.take()
    {
        // Filled whole first: the table leaves the call's hands, and may still be read.
        locals
            .fill_from(lua, Some(&old.locals))
            .map_err(|e| format!("ctx.locals: {e}"))?;
        let changes = super::lazy::read_back(&locals, Some(&old.locals), Which::Locals)?;
        changes.store(&mut old.locals, true);
    }
    Ok(old)
}

fn api_game_over(lua: &Lua, a: &Args) -> mlua::Result<MultiValue> {
    let spec = a.value(lua, 0)?;
    let result = with(lua, |st| {
        let mut result = GameResult::default();
        let seat = |v: &Value| -> Result<SeatId, String> {
            let id = v
                .as_str()
                .ok_or_else(|| format!("a winner must be a seat id, got {v}"))?;
            if st.table.seats.contains_key(id) {
                Ok(SeatId::from(id))
            } else {
                Err(format!("unknown seat '{id}' as winner"))
            }
        };
        match spec.get("winners") {
            Some(Value::List(list)) => {
                result.winners = list.iter().map(seat).collect::<Result<_, _>>()?
            }
            Some(other) => return Err(format!("winners must be a list of seats, got {other}")),
            None => {}
        }
        if let Some(w) = spec.get("winner") {
            result.winners.push(seat(w)?);
        }
        result.text = spec.get("text").map(|t| t.to_string()).unwrap_or_default();
        if let Some(Value::Map(scores)) = spec.get("scores") {
            for (id, v) in scores {
                let id = seat(&Value::Str(id.clone()))?;
                let score = v
                    .as_int()
                    .ok_or_else(|| format!("score of '{id}' must be an integer"))?;
                result.scores.insert(id, score);
            }
        }
        st.table.flow.clear();
        st.table.result = Some(result.clone());
        Ok(result)
    })?;
    with(lua, |st| {
        let winners = if result.winners.is_empty() {
            "no winner".to_owned()
        } else {
            let names: Vec<String> = result
                .winners
                .iter()
                .map(|w| st.module.seat_name(w))
                .collect();
            format!("won by {}", names.join(" and "))
        };
        st.io.write(LogLine::public(
            format!("Game over ({winners}). {}", result.text).trim_end(),
        ))
    })?;
    none()
}

/// Every function of the `ctx` API.
pub(crate) const API: &[ApiEntry] = &[
    ApiEntry {
        name: "counter",
        params: &[("id", "string")],
        returns: &[("value", "integer")],
        doc: "The value of a counter.",
        changes: false,
        func: api_counter,
    },
    ApiEntry {
        name: "zone",
        params: &[("zone", "string")],
        returns: &[("cards", "string[]")],
        doc: "The ids of the cards in a zone, top first (a copy). Bots and a seat's view see \"?\" for cards their seat may not see.",
        changes: false,
        func: api_zone,
    },
    ApiEntry {
        name: "count",
        params: &[("zone", "string")],
        returns: &[("n", "integer")],
        doc: "How many cards a zone holds.",
        changes: false,
        func: api_count,
    },
    ApiEntry {
        name: "card_zone",
        params: &[("card", "string")],
        returns: &[("zone", "string?"), ("index", "integer?")],
        doc: "The zone that holds a card and its position from the top (1), or nil if the card is out of play (or, to a bot, where its seat cannot see it).",
        changes: false,
        func: api_card_zone,
    },
    ApiEntry {
        name: "face_up",
        params: &[("card", "string")],
        returns: &[("up", "boolean?")],
        doc: "Whether a card lies face up (a card out of play counts as face up); to a bot or a seat's view, nil for a card its seat cannot see or that is out of play, as `card_zone` finds it nowhere.",
        changes: false,
        func: api_face_up,
    },
    ApiEntry {
        name: "space_of",
        params: &[("piece", "string")],
        returns: &[("place", "string?"), ("space", "string?")],
        doc: "The place and space where a piece stands, or nil if it is off the table.",
        changes: false,
        func: api_space_of,
    },
    ApiEntry {
        name: "pieces_at",
        params: &[("place", "string"), ("space", "string")],
        returns: &[("pieces", "string[]")],
        doc: "The pieces on a space, in id order.",
        changes: false,
        func: api_pieces_at,
    },
    ApiEntry {
        name: "units",
        params: &[("box", "string"), ("kind", "string?")],
        returns: &[("n", "integer")],
        doc: "How many units of a kind a box holds; without a kind, how many it holds in all (0: the box is empty).",
        changes: false,
        func: api_units,
    },
    ApiEntry {
        name: "box",
        params: &[("box", "string")],
        returns: &[("units", "table<string, integer>")],
        doc: "Every kind of unit in a box with its count (kinds with none are absent).",
        changes: false,
        func: api_box,
    },
    ApiEntry {
        name: "neighbors",
        params: &[("place", "string"), ("space", "string")],
        returns: &[("spaces", "string[]")],
        doc: "The spaces next to a space: the next and previous spaces of a track, and linked spaces.",
        changes: false,
        func: api_neighbors,
    },
    ApiEntry {
        name: "seats",
        params: &[],
        returns: &[("seats", "string[]")],
        doc: "The seats that play this game, in the module's order (not the umpire's, if the scenario names one).",
        changes: false,
        func: api_seats,
    },
    ApiEntry {
        name: "controller",
        params: &[("seat", "string")],
        returns: &[("kind", "\"human\"|\"bot\""), ("bot", "string?")],
        doc: "Who decides for a seat: \"human\", or \"bot\" and the bot's name.",
        changes: false,
        func: api_controller,
    },
    ApiEntry {
        name: "state",
        params: &[],
        returns: &[("state", "string?")],
        doc: "The name of the current state (the top of the flow), or nil.",
        changes: false,
        func: api_state,
    },
    ApiEntry {
        name: "turn",
        params: &[],
        returns: &[("turn", "integer")],
        doc: "The turn number.",
        changes: false,
        func: api_turn,
    },
    ApiEntry {
        name: "phase",
        params: &[],
        returns: &[("phase", "string")],
        doc: "The phase name.",
        changes: false,
        func: api_phase,
    },
    ApiEntry {
        name: "demo",
        params: &[],
        returns: &[("demo", "boolean")],
        doc: "Whether the game plays the module's demo values (`--demo`): placeholders, where a step the players would do by hand from a value the demo lacks may be left out, saying so.",
        changes: false,
        func: api_demo,
    },
    ApiEntry {
        name: "chart_row",
        params: &[("table", "string"), ("key", "string")],
        returns: &[("step", "string|nil"), ("words", "string")],
        doc: "Row `key` of a bot chart table in words, as a player reads it: the chart's step with the key filled in (\"20.4, Austria's row 1\" for \"AU/1\"; nil when the step names no key), and the key alone in words (\"Austria, 1\"). A bot's reason that begins with the step counts the row as reached, and names no key.",
        changes: false,
        func: api_chart_row,
    },
    ApiEntry {
        name: "known",
        params: &[
            ("what", "\"card\"|\"space\"|\"piece\"|\"table\""),
            ("id", "string"),
            ("key", "string"),
        ],
        returns: &[("known", "boolean")],
        doc: "Whether a value of the module's data has been entered: a card's field, a space's property (id \"place/space\"), a piece's property, or a table's entry. Reading an unknown value asks the players for it.",
        changes: false,
        func: api_known,
    },
    ApiEntry {
        name: "move_card",
        params: &[
            ("card", "string"),
            ("zone", "string"),
            ("position", "\"top\"|\"bottom\"|integer|nil"),
        ],
        returns: &[],
        doc: "Moves a card into a zone (from wherever it is), on top unless told otherwise. It lies as the zone lays its cards.",
        changes: true,
        func: api_move_card,
    },
    ApiEntry {
        name: "shuffle",
        params: &[("zone", "string")],
        returns: &[],
        doc: "Shuffles a zone with the game's seeded dice.",
        changes: true,
        func: api_shuffle,
    },
    ApiEntry {
        name: "deal",
        params: &[("from", "string"), ("to", "string"), ("n", "integer")],
        returns: &[("cards", "string[]")],
        doc: "Moves the top n cards of one zone to the bottom of another and returns them; fails if there are fewer.",
        changes: true,
        func: api_deal,
    },
    ApiEntry {
        name: "flip",
        params: &[("card", "string"), ("face_up", "boolean?")],
        returns: &[("up", "boolean")],
        doc: "Turns a card face up or down (over, if not told which); returns whether it is now face up.",
        changes: true,
        func: api_flip,
    },
    ApiEntry {
        name: "place",
        params: &[
            ("piece", "string"),
            ("place", "string"),
            ("space", "string"),
        ],
        returns: &[],
        doc: "Puts a piece on a space, taking it from wherever it stood.",
        changes: true,
        func: api_place,
    },
    ApiEntry {
        name: "remove_piece",
        params: &[("piece", "string")],
        returns: &[("place", "string?"), ("space", "string?")],
        doc: "Takes a piece off the table; returns where it stood.",
        changes: true,
        func: api_remove_piece,
    },
    ApiEntry {
        name: "show_piece",
        params: &[("piece", "string"), ("seats", "string|string[]")],
        returns: &[],
        doc: "Shows a piece to a seat or a list of seats wherever it stands, even where fog of war hides it from them (a spotted army), until `hide_piece`.",
        changes: true,
        func: api_show_piece,
    },
    ApiEntry {
        name: "hide_piece",
        params: &[("piece", "string"), ("seats", "string|string[]?")],
        returns: &[],
        doc: "Hides a piece shown with `show_piece` again from those seats (from every seat without them); the fog where it stands applies again.",
        changes: true,
        func: api_hide_piece,
    },
    ApiEntry {
        name: "set_sight",
        params: &[
            ("what", "string"),
            ("id", "string"),
            ("sight", "string|string[]"),
        ],
        returns: &[],
        doc: "Sets who may see the pieces of a place (`\"place\"`, its id), of one space (`\"space\"`, \"place/space\") or the units of a box (`\"box\"`, its id): `\"public\"`, `\"owner\"` (each seat what it owns), `\"umpire\"` (nobody else), or a list of seats (they see all of it, every other seat its own).",
        changes: true,
        func: api_set_sight,
    },
    ApiEntry {
        name: "add_units",
        params: &[("box", "string"), ("kind", "string"), ("n", "integer")],
        returns: &[("count", "integer")],
        doc: "Adds n units of a kind to a box (a negative n removes them; never below zero); returns the new count.",
        changes: true,
        func: api_add_units,
    },
    ApiEntry {
        name: "move_units",
        params: &[
            ("from", "string"),
            ("to", "string"),
            ("kind", "string"),
            ("n", "integer"),
        ],
        returns: &[],
        doc: "Moves n units of a kind from one box to another.",
        changes: true,
        func: api_move_units,
    },
    ApiEntry {
        name: "set_counter",
        params: &[("id", "string"), ("value", "integer")],
        returns: &[("value", "integer")],
        doc: "Sets a counter, kept within its bounds; returns the value set.",
        changes: true,
        func: api_set_counter,
    },
    ApiEntry {
        name: "add_counter",
        params: &[("id", "string"), ("delta", "integer")],
        returns: &[("value", "integer")],
        doc: "Adds to a counter, kept within its bounds; returns the new value.",
        changes: true,
        func: api_add_counter,
    },
    ApiEntry {
        name: "roll",
        params: &[
            ("sides", "integer?"),
            ("reason", "string?"),
            ("to", "string|string[]?"),
        ],
        returns: &[("result", "integer")],
        doc: "Rolls one die (6 sides unless told) and logs it. With `to` (a seat or a list of seats) the roll is secret: its line goes only to those seats (and the omniscient view). With physical dice the players are asked for the result.",
        changes: true,
        func: api_roll,
    },
    ApiEntry {
        name: "log",
        params: &[("text", "string"), ("...", "any")],
        returns: &[],
        doc: "Writes a line to the game log. With more arguments, the text is a format as string.format reads it: `ctx:log(\"%s plays %s\", power, card)`.",
        changes: true,
        func: api_log,
    },
    ApiEntry {
        name: "tell",
        params: &[("seat", "string"), ("text", "string")],
        returns: &[],
        doc: "Writes a line to the game log that only this seat (and the omniscient view) may read.",
        changes: true,
        func: api_tell,
    },
    ApiEntry {
        name: "answered",
        params: &[],
        returns: &[("seats", "string[]")],
        doc: "The seats that have answered the current shared decision so far (committed in secret, or passed); what they answered stays hidden until the rules reveal it.",
        changes: false,
        func: api_answered,
    },
    ApiEntry {
        name: "random",
        params: &[("n", "integer"), ("reason", "string?")],
        returns: &[("result", "integer")],
        doc: "For bots only: a number from 1 to n drawn from the bot's own seeded stream (a fate die, a choice at random). The same position gives the same draws, so bot games replay exactly; each draw is added to the bot's reasons.",
        changes: false,
        func: api_random,
    },
    ApiEntry {
        name: "set_turn",
        params: &[("turn", "integer")],
        returns: &[],
        doc: "Sets the turn number.",
        changes: true,
        func: api_set_turn,
    },
    ApiEntry {
        name: "set_phase",
        params: &[("phase", "string")],
        returns: &[],
        doc: "Sets the phase name.",
        changes: true,
        func: api_set_phase,
    },
    ApiEntry {
        name: "call",
        params: &[("state", "string"), ("locals", "table?")],
        returns: &[],
        doc: "Runs a sub-procedure: enters a state on top of the current one, with its locals. When it pops, the current state resumes: its on_resume(ctx, result) runs with the value handed to ctx:pop.",
        changes: true,
        func: api_push,
    },
    ApiEntry {
        name: "push",
        params: &[("state", "string"), ("locals", "table?")],
        returns: &[],
        doc: "The same as ctx:call, under the name earlier modules use; new code writes ctx:call.",
        changes: true,
        func: api_push,
    },
    ApiEntry {
        name: "replace",
        params: &[("state", "string"), ("locals", "table?")],
        returns: &[],
        doc: "Leaves the current state for another, with its locals.",
        changes: true,
        func: api_replace,
    },
    ApiEntry {
        name: "pop",
        params: &[("result", "any")],
        returns: &[],
        doc: "Leaves the current state and hands `result` (plain data, or nil) back: the state below resumes, and its on_resume(ctx, result) runs.",
        changes: true,
        func: api_pop,
    },
    ApiEntry {
        name: "game_over",
        params: &[(
            "result",
            "{winner?: string, winners?: string[], text?: string, scores?: table<string, integer>}",
        )],
        returns: &[],
        doc: "Ends the game with its winners (none: a draw), a text and the final scores.",
        changes: true,
        func: api_game_over,
    },
];

/// Registers every API function in `proto`, counting calls into `calls`.
pub(crate) fn register(
    lua: &Lua,
    proto: &LuaTable,
    calls: &std::rc::Rc<std::cell::RefCell<Vec<u64>>>,
) -> mlua::Result<()> {
    calls.borrow_mut().resize(API.len(), 0);
    for (index, entry) in API.iter().enumerate() {
        let calls = calls.clone();
        let function = lua.create_function(move |lua, args: CallArgs| {
            if let Some(count) = calls.borrow_mut().get_mut(index) {
                *count += 1;
            }
            let args = Args::new(lua, entry, args)?;
            if entry.changes {
                let refused = {
                    let state = lua.app_data_ref::<CallState>();
                    state.filter(|s| !s.writable).map(|s| s.hook.clone())
                };
                if let Some(hook) = refused {
                    return Err(script_error(
                        lua,
                        format!(
                            "ctx:{} changes the table, which the {hook} may not do (it only reads)",
                            entry.name
                        ),
                    ));
                }
            }
            let result = (entry.func)(lua, &args);
            if entry.changes
                && let Some(state) = lua.app_data_ref::<CallState>()
            {
                // A piece this function moved is no longer where the VM remembers it (it
                // may have changed the table before an error).
                state
                    .remembered
                    .borrow_mut()
                    .hold_for(state.table.places.stamp(), &state.viewer)?;
            }
            result
        })?;
        proto.raw_set(entry.name, function)?;
    }
    Ok(())
}
