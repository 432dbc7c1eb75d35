//! Laying out a new table from a module and a scenario, before the rules' `setup` runs.

use std::collections::{BTreeMap, BTreeSet};

use crate::fog::{Fog, Sight};
use crate::ids::{CardId, ScenarioId, SeatId};
use crate::module::{Face, Module, ScenarioDef};
use crate::table::{Controller, Counter, Position, Table, Zone};
use crate::value::Value;

/// A new table with every component of `module` and the scenario's set-up placed.
/// `controllers` says who plays each seat (seats not named are human).
pub(crate) fn lay_out(
    module: &Module,
    scenario: &ScenarioDef,
    seed: u64,
    controllers: &BTreeMap<SeatId, Controller>,
) -> Result<Table, String> {
    let mut table = Table::new(module.id(), scenario.id.clone(), seed);
    table.turn = scenario.turn;
    table.phase = scenario.phase.clone();
    for zone in module.zones.iter() {
        table.zones.insert(
            zone.id.clone(),
            Zone::new(zone.visibility, zone.owner.clone(), zone.face == Face::Up)
                .shared(zone.shared_with.clone()),
        );
    }
    for counter in module.counters.iter() {
        let value = scenario
            .counters
            .get(&counter.id)
            .copied()
            .unwrap_or(counter.initial);
        table.counters.insert(
            counter.id.clone(),
            Counter {
                value,
                min: counter.min,
                max: counter.max,
            },
        );
    }
    for place in module.places.iter() {
        table.places.insert(place.def.id.clone(), BTreeMap::new());
    }
    for boxed in module.boxes.iter() {
        table.boxes.insert(boxed.id.clone(), BTreeMap::new());
    }
    table.fog = declared_fog(module);
    let playing = module.scenario_seats(scenario);
    if let Some(seat) = controllers.keys().find(|s| !playing.contains(s)) {
        return Err(format!(
            "seat '{seat}' does not play scenario '{}' (its seats: {})",
            scenario.id,
            playing
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for seat in playing {
        let controller = controllers.get(&seat).cloned().unwrap_or(Controller::Human);
        if let Controller::Bot(bot) = &controller
            && !module.rules.bots.contains(bot)
        {
            return Err(format!(
                "seat '{seat}': there is no bot '{bot}' (bots: {})",
                module.rules.bots.join(", ")
            ));
        }
        if scenario.umpire.as_ref() == Some(&seat) && controller != Controller::Human {
            return Err(format!(
                "seat '{seat}' is the umpire of scenario '{}': a person plays it, not {controller}",
                scenario.id
            ));
        }
        table.seats.insert(seat, controller);
    }
    table.umpire = scenario.umpire.clone();

    let mut placed: BTreeSet<CardId> = BTreeSet::new();
    for (zone, cards) in &scenario.zones {
        for card in cards {
            table
                .move_card(card, zone, Position::Bottom)
                .map_err(|e| e.to_string())?;
            placed.insert(card.clone());
        }
    }
    if let Some(rest) = &scenario.rest_to {
        for card in module.cards.iter().filter(|c| !placed.contains(&c.id)) {
            table
                .move_card(&card.id, rest, Position::Bottom)
                .map_err(|e| e.to_string())?;
        }
    }
    for (place, pieces) in &scenario.pieces {
        for (piece, space) in pieces {
            table
                .place_piece(piece, place, space)
                .map_err(|e| e.to_string())?;
        }
    }
    for (boxed, units) in &scenario.boxes {
        for (kind, count) in units {
            table
                .add_units(boxed, kind, *count)
                .map_err(|e| e.to_string())?;
        }
    }
    table.vars = Value::Map(scenario.vars.clone());
    Ok(table)
}

/// The fog of war the module's data declares: the sight of each place, space and box that
/// is not public, with the owners of pieces, kinds and boxes if anything is fogged.
fn declared_fog(module: &Module) -> Fog {
    let mut fog = Fog::default();
    for place in module.places.iter() {
        let def = &place.def;
        if def.sight != Sight::Public {
            fog.places.insert(def.id.clone(), def.sight.clone());
        }
        for space in &def.spaces {
            match &space.sight {
                Some(sight) if *sight != def.sight => {
                    let spaces = fog.spaces.entry(def.id.clone()).or_default();
                    spaces.insert(space.id.clone(), sight.clone());
                }
                _ => {}
            }
        }
    }
    for boxed in module.boxes.iter() {
        if boxed.sight != Sight::Public {
            fog.boxes.insert(boxed.id.clone(), boxed.sight.clone());
        }
    }
    if !fog.is_clear() {
        module.add_fog_owners(&mut fog);
    }
    fog
}

/// The scenario named `id`, or a message listing the module's scenarios.
pub(crate) fn find_scenario<'m>(
    module: &'m Module,
    id: &ScenarioId,
) -> Result<&'m ScenarioDef, String> {
    module.scenarios.get(id.as_str()).ok_or_else(|| {
        let known: Vec<String> = module.scenarios.iter().map(|s| s.id.to_string()).collect();
        format!(
            "module '{}' has no scenario '{id}' (scenarios: {})",
            module.id(),
            known.join(", ")
        )
    })
}
