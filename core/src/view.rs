//! The state JSON: the table as tools and tests read it, with stable keys (`module`,
//! `scenario`, `seed`, `turn`, `phase`, `counters`, `tracks`, `zones`, `boxes`, `log`, …),
//! for everybody (the omniscient view) or for one seat (hidden cards shown as "?").

use serde_json::{Map, Value as Json, json};

use crate::ids::SeatId;
use crate::session::LogEntry;
use crate::table::Table;
use crate::value::Value;

/// What a hidden card shows in a seat's view.
pub const HIDDEN_CARD: &str = "?";

/// The state JSON of `table` with its `log`, as `seat` sees it (`None`: everything).
/// A seat's view leaves out the rules' variables and state locals, which may hold hidden
/// information; the module shows what a seat may know through its `view` hook.
/// `extra` is the module's own view data (its `view` hook), shown under `view` if not nil.
pub fn state_json(table: &Table, log: &[LogEntry], seat: Option<&SeatId>, extra: &Value) -> Json {
    let counters: Map<String, Json> = table
        .counters
        .iter()
        .map(|(id, c)| (id.to_string(), json!(c.value)))
        .collect();
    let tracks: Map<String, Json> = table
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
    let zones: Map<String, Json> = table
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
            let body = json!({
                "visibility": zone.visibility.as_str(),
                "owner": zone.owner.as_ref().map(|o| o.as_str()),
                "count": zone.cards.len(),
                "cards": cards,
                "face_down": face_down,
            });
            (id.to_string(), body)
        })
        .collect();
    let boxes: Map<String, Json> = table
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
    let log: Vec<Json> = log
        .iter()
        .map(|entry| {
            json!({
                "index": entry.index,
                "input": entry.input,
                "by": entry.by,
                "reason": entry.reason,
                "messages": entry.messages,
            })
        })
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
        "seed": table.seed,
        "turn": table.turn,
        "phase": table.phase,
        "state": table.top_frame().map(|f| f.state.as_str()),
        "flow": table
            .flow
            .iter()
            .map(|f| match seat {
                None => json!({"state": f.state, "locals": f.locals.to_json()}),
                Some(_) => json!({"state": f.state}),
            })
            .collect::<Vec<_>>(),
        "counters": counters,
        "tracks": tracks,
        "zones": zones,
        "boxes": boxes,
        "seats": seats,
        "dice": if table.dice == crate::table::DiceMode::Physical { "physical" } else { "digital" },
        "vars": if seat.is_none() { table.vars.to_json() } else { Json::Null },
        "result": result,
        "log": log,
    });
    if !extra.is_nil()
        && let Some(object) = out.as_object_mut()
    {
        object.insert("view".to_owned(), extra.to_json());
    }
    out
}
