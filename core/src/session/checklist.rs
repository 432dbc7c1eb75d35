//! What to change on a physical board so that it matches the game after a step: a
//! checklist for a person who plays beside the app (cards moved, pieces placed, units
//! moved, counters set), in the module's names. The reverse of a step is the checklist
//! from the later table to the earlier one.

use std::collections::BTreeMap;

use crate::module::Module;
use crate::table::Table;

/// The changes that turn the board of `before` into the board of `after`, one instruction
/// each, in a fixed order: cards, pieces, units, counters, the turn.
pub fn board_checklist(module: &Module, before: &Table, after: &Table) -> Vec<String> {
    let mut out = Vec::new();
    cards(module, before, after, &mut out);
    pieces(module, before, after, &mut out);
    units(module, before, after, &mut out);
    for (id, counter) in &after.counters {
        let old = before.counters.get(id).map(|c| c.value);
        if old != Some(counter.value) {
            let name = module
                .counters
                .get(id.as_str())
                .map_or(id.as_str(), |c| c.name.as_str());
            out.push(match old {
                Some(old) => format!("Set {name} to {} (was {old})", counter.value),
                None => format!("Set {name} to {}", counter.value),
            });
        }
    }
    if before.turn != after.turn {
        out.push(format!(
            "Turn {}: move the turn marker (was turn {})",
            after.turn, before.turn
        ));
    }
    out
}

fn zone_name<'a>(module: &'a Module, id: &'a str) -> &'a str {
    module.zones.get(id).map_or(id, |z| z.name.as_str())
}

/// Whether `card` is a stand-in for a card the viewer may not see (a redacted table's, as
/// a seat at a table on a server holds it): it names no card, and is numbered anew each
/// time.
fn stand_in(card: &str) -> bool {
    card.starts_with(crate::table::HIDDEN_CARD)
}

fn cards(module: &Module, before: &Table, after: &Table, out: &mut Vec<String>) {
    let where_is = |table: &Table| {
        let mut map = BTreeMap::new();
        for (zone, z) in &table.zones {
            for card in z.cards.iter().filter(|c| !stand_in(c.as_str())) {
                map.insert(card.clone(), (zone.clone(), z.face_down.contains(card)));
            }
        }
        map
    };
    // Cards the viewer may not see are counted in each zone: the board shows their backs.
    let hidden = |table: &Table, zone: &crate::ids::ZoneId| {
        table.zones.get(zone).map_or(0, |z| {
            z.cards.iter().filter(|c| stand_in(c.as_str())).count()
        })
    };
    let zones: std::collections::BTreeSet<_> =
        after.zones.keys().chain(before.zones.keys()).collect();
    for zone in zones {
        let (was, now) = (hidden(before, zone), hidden(after, zone));
        if was != now {
            let cards = if now == 1 { "card" } else { "cards" };
            out.push(format!(
                "{}: {now} {cards} you may not see (was {was})",
                zone_name(module, zone.as_str())
            ));
        }
    }
    let (old, new) = (where_is(before), where_is(after));
    for (card, (zone, down)) in &new {
        let name = module
            .cards
            .get(card.as_str())
            .map_or(card.as_str(), |c| c.name.as_str());
        match old.get(card) {
            Some((from, _)) if from != zone => out.push(format!(
                "Move {name} from {} to {}",
                zone_name(module, from.as_str()),
                zone_name(module, zone.as_str())
            )),
            Some((_, was_down)) if was_down != down => out.push(format!(
                "Turn {name} face {} ({})",
                if *down { "down" } else { "up" },
                zone_name(module, zone.as_str())
            )),
            None => out.push(format!(
                "Put {name} in {}",
                zone_name(module, zone.as_str())
            )),
            _ => {}
        }
    }
    for (card, (zone, _)) in &old {
        if !new.contains_key(card) {
            let name = module
                .cards
                .get(card.as_str())
                .map_or(card.as_str(), |c| c.name.as_str());
            out.push(format!(
                "Take {name} out of {}",
                zone_name(module, zone.as_str())
            ));
        }
    }
}

fn pieces(module: &Module, before: &Table, after: &Table, out: &mut Vec<String>) {
    let where_is = |table: &Table| {
        let mut map = BTreeMap::new();
        for (place, pieces) in &table.places {
            for (piece, space) in pieces {
                map.insert(piece.clone(), (place.clone(), space.clone()));
            }
        }
        map
    };
    let spot = |place: &str, space: &str| {
        let place_def = module.places.get(place);
        // A space without a name of its own (a track's numbered box) goes by its id.
        let space_name = place_def
            .and_then(|p| p.def.spaces.iter().find(|s| s.id.as_str() == space))
            .map(|s| s.name.as_str())
            .filter(|name| !name.is_empty())
            .unwrap_or(space);
        let place_name = place_def.map_or(place, |p| p.def.name.as_str());
        format!("{space_name} ({place_name})")
    };
    let (old, new) = (where_is(before), where_is(after));
    let piece_name = |id: &str| {
        module
            .pieces
            .get(id)
            .map_or(id.to_owned(), |p| p.name.clone())
    };
    for (piece, (place, space)) in &new {
        match old.get(piece) {
            Some(was) if was == &(place.clone(), space.clone()) => {}
            Some((old_place, old_space)) => out.push(format!(
                "Move {} from {} to {}",
                piece_name(piece.as_str()),
                spot(old_place.as_str(), old_space.as_str()),
                spot(place.as_str(), space.as_str())
            )),
            None => out.push(format!(
                "Put {} on {}",
                piece_name(piece.as_str()),
                spot(place.as_str(), space.as_str())
            )),
        }
    }
    for (piece, (place, space)) in &old {
        if !new.contains_key(piece) {
            out.push(format!(
                "Take {} off {}",
                piece_name(piece.as_str()),
                spot(place.as_str(), space.as_str())
            ));
        }
    }
}

/// Units: the changes of each kind, paired as moves from the boxes that lost units to
/// the boxes that gained them (in the boxes' order); what is left is added or removed.
fn units(module: &Module, before: &Table, after: &Table, out: &mut Vec<String>) {
    let mut deltas: BTreeMap<String, Vec<(String, i64)>> = BTreeMap::new();
    let boxes: std::collections::BTreeSet<_> =
        before.boxes.keys().chain(after.boxes.keys()).collect();
    for id in boxes {
        let empty = BTreeMap::new();
        let old = before.boxes.get(id).unwrap_or(&empty);
        let new = after.boxes.get(id).unwrap_or(&empty);
        let kinds: std::collections::BTreeSet<_> = old.keys().chain(new.keys()).collect();
        for kind in kinds {
            let d = new.get(kind).copied().unwrap_or(0) - old.get(kind).copied().unwrap_or(0);
            if d != 0 {
                deltas
                    .entry(kind.to_string())
                    .or_default()
                    .push((id.to_string(), d));
            }
        }
    }
    let box_name = |id: &str| {
        module
            .boxes
            .get(id)
            .map_or(id.to_owned(), |b| b.name.clone())
    };
    for (kind, mut list) in deltas {
        let kind_name = module
            .unit_kinds
            .get(kind.as_str())
            .map_or(kind.clone(), |k| k.name.clone());
        // "1 US unit", "2 British fleets", "3 French units" for a kind named "French".
        let noun = if kind_name.ends_with(" unit")
            || kind_name.ends_with(" fleet")
            || kind_name.ends_with(" marker")
            || kind_name.ends_with(" cube")
        {
            kind_name.clone()
        } else {
            format!("{kind_name} unit")
        };
        let units = |n: i64| format!("{n} {noun}{}", if n == 1 { "" } else { "s" });
        let mut from: Vec<usize> = (0..list.len()).filter(|&i| list[i].1 < 0).collect();
        let to: Vec<usize> = (0..list.len()).filter(|&i| list[i].1 > 0).collect();
        for t in to {
            for f in from.iter_mut() {
                let n = list[t].1.min(-list[*f].1);
                if n > 0 {
                    out.push(format!(
                        "Move {} from {} to {}",
                        units(n),
                        box_name(&list[*f].0),
                        box_name(&list[t].0)
                    ));
                    list[t].1 -= n;
                    list[*f].1 += n;
                }
            }
            from.retain(|&f| list[f].1 < 0);
        }
        for (id, d) in list {
            if d > 0 {
                out.push(format!("Add {} to {}", units(d), box_name(&id)));
            } else if d < 0 {
                out.push(format!("Remove {} from {}", units(-d), box_name(&id)));
            }
        }
    }
}
