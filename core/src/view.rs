//! The state JSON: the table as tools and tests read it, with stable keys (`module`,
//! `scenario`, `seed`, `turn`, `phase`, `counters`, `tracks`, `zones`, `boxes`, `log`, …),
//! for everybody (the omniscient view) or for one seat, which sees what that seat may see:
//! hidden cards as "?", only its own private state, no other seat's secret answer, and
//! only the log lines it may read.

use serde_json::{Map, Value as Json, json};

use crate::ids::SeatId;
use crate::session::LogEntry;
use crate::table::{HIDDEN_CARD, Table};
use crate::value::Value;

/// The state JSON of `table` with its `log`, as `seat` sees it (`None`: everything;
/// [`SeatId::spectator`]: what every seat may see). The seed is `null` to a seat while
/// anything is hidden (see [`Table::seed_shown_to`]). The rules' variables and state locals are public; private state shows only to its
/// seat, and the answers of a shared decision only to the omniscient view (a seat sees
/// who has answered). `extra` is the module's own view data (its `view` hook), shown under
/// `view` if not nil. Under fog of war a seat sees only the pieces and units it may see, and
/// `fog` says which places, spaces and boxes are fogged and who sees them.
pub fn state_json(table: &Table, log: &[LogEntry], seat: Option<&SeatId>, extra: &Value) -> Json {
    // The umpire's eyes are the omniscient view's.
    let seat = table.eyes(seat);
    let counters: Map<String, Json> = table
        .counters
        .iter()
        .map(|(id, c)| (id.to_string(), json!(c.value)))
        .collect();
    // The pieces and units the seat may not see are not there, to it.
    let fogged = table.fogged_for(seat);
    let tracks: Map<String, Json> = fogged
        .places
        .iter()
        .map(|(place, pieces)| {
            let pieces: Map<String, Json> = pieces
                .iter()
                .map(|(p, s)| (p.to_string(), json!(s.as_str())))
                .collect();
            (place.to_string(), Json::Object(pieces))
        })
        .collect();
    let boxes: Map<String, Json> = fogged
        .boxes
        .iter()
        .map(|(id, units)| {
            let units: Map<String, Json> = units
                .iter()
                .map(|(k, n)| (k.to_string(), json!(n)))
                .collect();
            (id.to_string(), Json::Object(units))
        })
        .collect();
    let seats: Map<String, Json> = table
        .seats
        .iter()
        .map(|(s, c)| (s.to_string(), json!(c.to_string())))
        .collect();
    let private: Map<String, Json> = table
        .private
        .iter()
        .filter(|(s, _)| seat.is_none_or(|seat| seat == *s))
        .map(|(s, v)| (s.to_string(), v.to_json()))
        .collect();
    let result = table.result.as_ref().map(|r| {
        let scores: Map<String, Json> = r
            .scores
            .iter()
            .map(|(s, v)| (s.to_string(), json!(v)))
            .collect();
        json!({
            "winners": r.winners.iter().map(|w| w.as_str()).collect::<Vec<_>>(),
            "text": r.text,
            "scores": scores,
        })
    });
    let mut out = json!({
        "module": table.module,
        "scenario": table.scenario.as_str(),
        // From the seed, every shuffle follows: no seat sees it while something is hidden.
        "seed": table.seed_shown_to(seat).then_some(table.seed),
        "turn": table.turn,
        "phase": table.phase,
        "state": table.top_frame().map(|f| f.state.as_str()),
        "flow": flow_json(table, seat),
        "counters": counters,
        "tracks": tracks,
        "zones": zones_json(table, seat),
        "boxes": boxes,
        "seats": seats,
        "dice": if table.dice == crate::table::DiceMode::Physical { "physical" } else { "digital" },
        "vars": table.vars.to_json(),
        "private": private,
        "result": result,
        "log": log_json(log, seat),
    });
    if !table.fog.is_clear()
        && let Some(object) = out.as_object_mut()
    {
        object.insert("fog".to_owned(), fog_json(table));
    }
    if !extra.is_nil()
        && let Some(object) = out.as_object_mut()
    {
        object.insert("view".to_owned(), extra.to_json());
    }
    out
}

/// Who may see what (which every seat may know): the sight of each fogged place, space
/// and box, in words.
fn fog_json(table: &Table) -> Json {
    let fog = &table.fog;
    let words =
        |sights: &mut dyn Iterator<Item = (String, &crate::fog::Sight)>| -> Map<String, Json> {
            sights
                .map(|(id, sight)| (id, json!(sight.describe())))
                .collect()
        };
    let spaces = fog.spaces.iter().flat_map(|(place, spaces)| {
        spaces
            .iter()
            .map(move |(space, sight)| (format!("{place}/{space}"), sight))
    });
    json!({
        "places": words(&mut fog.places.iter().map(|(id, s)| (id.to_string(), s))),
        "spaces": words(&mut spaces.into_iter()),
        "boxes": words(&mut fog.boxes.iter().map(|(id, s)| (id.to_string(), s))),
    })
}

/// The zones as `seat` sees them: a card it may not see, and every face-down card to a
/// seat, is hidden.
fn zones_json(table: &Table, seat: Option<&SeatId>) -> Map<String, Json> {
    table
        .zones
        .iter()
        .map(|(id, zone)| {
            let cards: Vec<Json> = zone
                .cards
                .iter()
                .map(|card| {
                    json!(if zone.shows(card, seat) {
                        card.as_str()
                    } else {
                        HIDDEN_CARD
                    })
                })
                .collect();
            let face_down: Vec<Json> = zone
                .cards
                .iter()
                .filter(|c| zone.face_down.contains(*c))
                .map(|c| {
                    json!(if seat.is_none() {
                        c.as_str()
                    } else {
                        HIDDEN_CARD
                    })
                })
                .collect();
            let mut body = json!({
                "visibility": zone.visibility.as_str(),
                "owner": zone.owner.as_ref().map(|o| o.as_str()),
                "count": zone.cards.len(),
                "cards": cards,
                "face_down": face_down,
            });
            if !zone.shared_with.is_empty() {
                body["shared_with"] = json!(zone.shared_with);
            }
            (id.to_string(), body)
        })
        .collect()
}

/// The log as `seat` sees it: its own private lines, none of another's.
fn log_json(log: &[LogEntry], seat: Option<&SeatId>) -> Vec<Json> {
    crate::session::log_read_by(log, seat)
        .into_iter()
        .map(|(_, entry)| {
            let messages: Vec<Json> = entry
                .messages
                .iter()
                .map(|line| match (&line.to, seat) {
                    (Some(to), None) => json!(format!("[to {to}] {}", line.text)),
                    _ => json!(line.text),
                })
                .collect();
            json!({
                "index": entry.index,
                "input": entry.input,
                "by": entry.by,
                "reason": entry.reason,
                "messages": messages,
            })
        })
        .collect()
}

/// The flow's frames: their states and locals, and who has answered a shared decision
/// (what each answered only to the omniscient view).
fn flow_json(table: &Table, seat: Option<&SeatId>) -> Vec<Json> {
    table
        .flow
        .iter()
        .map(|f| {
            let answers: Map<String, Json> = f
                .answers
                .iter()
                .map(|(s, c)| {
                    let shown = if seat.is_none() {
                        json!(c.to_string())
                    } else {
                        json!("answered")
                    };
                    (s.to_string(), shown)
                })
                .collect();
            json!({"state": f.state, "locals": f.locals.to_json(), "answers": answers})
        })
        .collect()
}
