//! Checks on a merged module: every reference resolves, every value has its field's type,
//! scenarios place each card and piece once and within bounds.

use std::collections::BTreeMap;

use super::data::{DataValue, FieldType, OverlayFile, RefKind, quoted_list};
use super::loader::{Loader, MANIFEST};
use super::locate::Anchor;
use super::{BoardItem, LayoutItem, Module};
use crate::fog::Sight;
use crate::value::Value;

/// Checks that a bare word in a value position was `unknown` and not a misspelling.
pub(super) fn check_unknown_words(loader: &mut Loader, module: &Module) {
    let mut problems = Vec::new();
    for card in module.cards.iter() {
        for (field, value) in &card.fields {
            if *value == DataValue::Unknown {
                problems.push(("card", card.id.to_string(), field.clone()));
            }
        }
    }
    for piece in module.pieces.iter() {
        for (prop, value) in &piece.props {
            if *value == DataValue::Unknown {
                problems.push(("piece", piece.id.to_string(), prop.clone()));
            }
        }
    }
    for place in module.places.iter() {
        for space in &place.def.spaces {
            for (prop, value) in &space.props {
                if *value == DataValue::Unknown {
                    problems.push((
                        "place",
                        place.def.id.to_string(),
                        format!("{}/{prop}", space.id),
                    ));
                }
            }
        }
    }
    for table in module.tables.iter() {
        for (key, value) in &table.entries {
            if *value == DataValue::Unknown {
                problems.push(("table", table.id.clone(), key.clone()));
            }
        }
    }
    for (kind, id, key) in problems {
        let Some(&idx) = loader.origins.get(&(kind, id.clone())) else {
            continue;
        };
        let key_anchor = key.rsplit('/').next().unwrap_or(&key).to_owned();
        let space_anchor = key.split_once('/').map(|(s, _)| s.to_owned());
        let mut anchors = vec![Anchor::Field("id", &id)];
        if let Some(space) = &space_anchor {
            anchors.push(Anchor::Field("id", space));
        }
        anchors.push(Anchor::Key(&key_anchor));
        if let Some(word) = loader.sources[idx].locator.ident_after(&anchors)
            && word != "unknown"
        {
            loader.error(
                idx,
                &anchors,
                format!(
                    "{kind} '{id}': '{word}' is not a value; write a number, a string, true or false, \
                     a list, a map, or `unknown` for a value not entered yet"
                ),
            );
        }
    }
}

/// Checks `value` against `ty`; the error says what was expected and what was found.
pub(super) fn check_value(module: &Module, value: &Value, ty: &FieldType) -> Result<(), String> {
    let wrong = || {
        Err(format!(
            "expected {ty}, found {} {value}",
            value.type_name()
        ))
    };
    match (ty, value) {
        (FieldType::Any, _) => Ok(()),
        (FieldType::Int, Value::Int(_))
        | (FieldType::Text, Value::Str(_))
        | (FieldType::Bool, Value::Bool(_)) => Ok(()),
        (FieldType::OneOf(options), Value::Str(s)) => {
            if options.contains(s) {
                Ok(())
            } else {
                Err(format!("'{s}' is not one of {}", quoted_list(options)))
            }
        }
        (FieldType::List(inner), Value::List(items)) => items
            .iter()
            .try_for_each(|item| check_value(module, item, inner)),
        (FieldType::Map(inner), Value::Map(map)) => map
            .values()
            .try_for_each(|item| check_value(module, item, inner)),
        (FieldType::MapOf(keys, inner), Value::Map(map)) => {
            for (key, item) in map {
                if !module.has(*keys, key) {
                    return Err(format!("'{key}' is not a {} of this module", keys.noun()));
                }
                check_value(module, item, inner).map_err(|e| format!("{key}: {e}"))?;
            }
            Ok(())
        }
        (FieldType::Record(fields), Value::Map(map)) => {
            for (key, kind) in fields {
                match map.get(key) {
                    Some(item) => {
                        check_value(module, item, kind).map_err(|e| format!("{key}: {e}"))?
                    }
                    None => return Err(format!("'{key}' is missing (expected {ty})")),
                }
            }
            match map.keys().find(|k| !fields.iter().any(|(f, _)| f == *k)) {
                Some(extra) => Err(format!("'{extra}' is not one of its keys (expected {ty})")),
                None => Ok(()),
            }
        }
        (FieldType::Ref(kind), Value::Str(id)) => {
            if module.has(*kind, id) {
                Ok(())
            } else {
                Err(format!("unknown {} '{id}'", kind.noun()))
            }
        }
        _ => wrong(),
    }
}

/// The offending string inside a value, to point the diagnostic at it.
fn first_bad_string<'v>(module: &Module, value: &'v Value, ty: &FieldType) -> Option<&'v str> {
    match (ty, value) {
        (FieldType::OneOf(_) | FieldType::Ref(_), Value::Str(s)) => check_value(module, value, ty)
            .is_err()
            .then_some(s.as_str()),
        (FieldType::List(inner), Value::List(items)) => items
            .iter()
            .find_map(|v| first_bad_string(module, v, inner)),
        (FieldType::Map(inner), Value::Map(m)) => {
            m.values().find_map(|v| first_bad_string(module, v, inner))
        }
        (FieldType::MapOf(keys, inner), Value::Map(m)) => {
            m.iter().find_map(|(k, v)| match module.has(*keys, k) {
                false => Some(k.as_str()),
                true => first_bad_string(module, v, inner),
            })
        }
        (FieldType::Record(fields), Value::Map(m)) => fields
            .iter()
            .find_map(|(k, kind)| first_bad_string(module, m.get(k)?, kind)),
        _ => None,
    }
}

/// Checks every reference and type in a merged module.
pub(super) fn check_module(loader: &mut Loader, module: &Module) {
    check_seat_ids(loader, module);
    check_options(loader, module);
    check_cards(loader, module);
    check_tables(loader, module);
    check_components(loader, module);
    check_scenarios(loader, module);
    check_layout(loader, module);
    check_boards(loader, module);
    if let Some(id) = &module.manifest.default_scenario
        && !module.scenarios.contains(id.as_str())
    {
        loader.error(
            MANIFEST,
            &[Anchor::Ident("default_scenario")],
            format!("default_scenario: unknown scenario '{id}'"),
        );
    }
    check_demo_game(loader, module);
    if let Some(demo) = &module.manifest.demo
        && let Err(err) = crate::files::read_inside(&module.dir, demo)
    {
        loader.error(
            MANIFEST,
            &[Anchor::Ident("demo")],
            format!(
                "demo: '{demo}' cannot be read ({}): name an overlay file of placeholder values inside the module folder",
                err.message
            ),
        );
    }
}

/// The demo's game names a scenario, seats and options the module has.
fn check_demo_game(loader: &mut Loader, module: &Module) {
    let Some(game) = &module.manifest.demo_game else {
        return;
    };
    let mut wrong = Vec::new();
    if let Some(id) = &game.scenario
        && !module.scenarios.contains(id.as_str())
    {
        wrong.push(format!("unknown scenario '{id}'"));
    }
    for pair in &game.seats {
        match pair.split_once('=') {
            Some((seat, _)) if module.seats.contains(seat) => {}
            Some((seat, _)) => wrong.push(format!("unknown seat '{seat}'")),
            None => wrong.push(format!("'{pair}' is not SEAT=WHO")),
        }
    }
    for pair in &game.options {
        match pair.split_once('=') {
            Some((key, _)) if module.options.contains(key) => {}
            Some((key, _)) => wrong.push(format!("unknown option '{key}'")),
            None => wrong.push(format!("'{pair}' is not KEY=VALUE")),
        }
    }
    if !wrong.is_empty() {
        loader.error(
            MANIFEST,
            &[Anchor::Ident("demo_game")],
            format!("demo_game: {}", wrong.join("; ")),
        );
    }
}

/// Every seat's id is a plain name ([`crate::ids::is_plain_name`]): reports and orders are
/// files and lines named after seats.
fn check_seat_ids(loader: &mut Loader, module: &Module) {
    for seat in module.seats.iter() {
        if !crate::ids::is_seat_id(seat.id.as_str()) {
            let idx = loader.origins[&("seat", seat.id.to_string())];
            loader.error(
                idx,
                &[Anchor::Field("id", seat.id.as_str())],
                format!(
                    "seat '{}': a seat's id is a plain name of at most {} letters, digits, '_', '-' or '.', \
                     not starting with '.' or '-', and not 'public' (reports are files named after seats)",
                    seat.id,
                    crate::ids::MAX_PLAIN_NAME_BYTES
                ),
            );
        }
    }
}

/// Each declared option lists its values (or says what it takes), each once, with its
/// default among them.
fn check_options(loader: &mut Loader, module: &Module) {
    for option in module.options.iter() {
        let Some(&idx) = loader.origins.get(&("option", option.key.clone())) else {
            continue;
        };
        let at = [Anchor::Field("key", option.key.as_str())];
        let mut problems = Vec::new();
        if option.values.is_empty() && option.takes.is_none() {
            problems.push("lists no values: list them (values: [(\"value\", \"what it means\")]) or say what it takes (takes: \"…\")".to_owned());
        }
        for (i, (value, _)) in option.values.iter().enumerate() {
            if option.values[..i].iter().any(|(v, _)| v == value) {
                problems.push(format!("lists value '{value}' twice"));
            }
        }
        if let Some(default) = &option.default
            && !option.values.is_empty()
            && !option.values.iter().any(|(v, _)| v == default)
        {
            problems.push(format!(
                "has the default '{default}', which is not one of its values ({})",
                option.values_text()
            ));
        }
        for problem in problems {
            loader.error(idx, &at, format!("option '{}' {problem}", option.key));
        }
    }
}

fn check_cards(loader: &mut Loader, module: &Module) {
    for card in module.cards.iter() {
        let idx = loader.origins[&("card", card.id.to_string())];
        for (field, value) in &card.fields {
            let id = card.id.as_str();
            let Some(def) = module.field_def(field) else {
                let known: Vec<String> = module.card_fields.iter().map(|f| f.id.clone()).collect();
                loader.error(
                    idx,
                    &[Anchor::Field("id", id), Anchor::Key(field)],
                    format!(
                        "card '{id}': field '{field}' is not declared in card_fields (declared: {})",
                        quoted_list(&known)
                    ),
                );
                continue;
            };
            if !def.applies_to(&card.deck) {
                loader.error(
                    idx,
                    &[Anchor::Field("id", id), Anchor::Key(field)],
                    format!(
                        "card '{id}': field '{field}' does not apply to cards of group '{}' (it applies to: {})",
                        card.deck,
                        quoted_list(def.decks.as_deref().unwrap_or_default())
                    ),
                );
                continue;
            }
            let DataValue::Known(value) = value else {
                continue;
            };
            if let Err(problem) = check_value(module, value, &def.kind) {
                let mut anchors = vec![Anchor::Field("id", id), Anchor::Key(field)];
                if let Some(bad) = first_bad_string(module, value, &def.kind) {
                    anchors.push(Anchor::Str(bad));
                }
                loader.error(
                    idx,
                    &anchors,
                    format!("card '{id}': field '{field}': {problem}"),
                );
            }
        }
    }
}

fn check_tables(loader: &mut Loader, module: &Module) {
    for table in module.tables.iter() {
        let idx = loader.origins[&("table", table.id.clone())];
        for (key, value) in &table.entries {
            let DataValue::Known(value) = value else {
                continue;
            };
            if let Err(problem) = check_value(module, value, &table.kind) {
                loader.error(
                    idx,
                    &[Anchor::Field("id", &table.id), Anchor::Key(key)],
                    format!("table '{}': entry '{key}': {problem}", table.id),
                );
            }
        }
        if let Some(chart) = &table.chart
            && let Some(most) = chart.key_parts().into_iter().max()
            && let Some(key) = table.entries.keys().find(|k| k.split('/').count() < most)
        {
            loader.error(
                idx,
                &[Anchor::Field("id", &table.id), Anchor::Key(key)],
                format!(
                    "table '{}': entry '{key}' has fewer parts than the chart step's {{key.{most}}}; write the key with {most} parts between slashes, or change the step",
                    table.id
                ),
            );
        }
        if let Some(step) = table.chart.as_ref().and_then(|c| c.step.as_ref())
            && super::data::rule_of(&format!("{step}: ")).is_none()
        {
            loader.error(
                idx,
                &[Anchor::Field("id", &table.id), Anchor::Ident("step")],
                format!(
                    "table '{}': chart step '{step}' must begin with a rule number (\"21.4, row {{key}}\", {{key}} standing for the row; or \"21.6.2\" for the whole table), or coverage never counts it",
                    table.id
                ),
            );
        }
    }
}

fn check_components(loader: &mut Loader, module: &Module) {
    check_owners(loader, module);
    check_sights(loader, module);
    check_places(loader, module);
    check_boxes_and_counters(loader, module);
}

/// Every owner names a seat, and a zone only its owner sees has one; a piece's colour is
/// "#rrggbb".
fn check_owners(loader: &mut Loader, module: &Module) {
    for piece in module.pieces.iter() {
        if let Some(colour) = &piece.colour
            && piece.rgb().is_none()
        {
            let idx = loader.origins[&("piece", piece.id.to_string())];
            loader.error(
                idx,
                &[Anchor::Field("id", piece.id.as_str()), Anchor::Ident("colour")],
                format!(
                    "piece '{}': colour '{colour}' is not a colour: write \"#rrggbb\", as \"#7b4ea8\"",
                    piece.id
                ),
            );
        }
    }
    let mut owners: Vec<(&'static str, String, String)> = Vec::new();
    for zone in module.zones.iter() {
        if let Some(owner) = &zone.owner {
            owners.push(("zone", zone.id.to_string(), owner.to_string()));
        }
        for seat in &zone.shared_with {
            owners.push(("zone", zone.id.to_string(), seat.to_string()));
        }
    }
    for piece in module.pieces.iter() {
        if let Some(owner) = &piece.owner {
            owners.push(("piece", piece.id.to_string(), owner.to_string()));
        }
    }
    for kind in module.unit_kinds.iter() {
        if let Some(owner) = &kind.owner {
            owners.push(("unit kind", kind.id.to_string(), owner.to_string()));
        }
    }
    for boxed in module.boxes.iter() {
        if let Some(owner) = &boxed.owner {
            owners.push(("box", boxed.id.to_string(), owner.to_string()));
        }
    }
    for (kind, id, owner) in owners {
        if !module.seats.contains(&owner) {
            let idx = loader.origins[&(kind, id.clone())];
            loader.error(
                idx,
                &[Anchor::Field("id", &id), Anchor::Ident("owner")],
                format!("{kind} '{id}': unknown seat '{owner}' as owner"),
            );
        }
    }
    for zone in module.zones.iter() {
        if zone.visibility == crate::table::Visibility::Owner && zone.owner.is_none() {
            let idx = loader.origins[&("zone", zone.id.to_string())];
            loader.error(
                idx,
                &[Anchor::Field("id", zone.id.as_str())],
                format!("zone '{}': visibility Owner needs an owner seat", zone.id),
            );
        }
        if !zone.shared_with.is_empty() && zone.visibility != crate::table::Visibility::Owner {
            let idx = loader.origins[&("zone", zone.id.to_string())];
            loader.error(
                idx,
                &[Anchor::Field("id", zone.id.as_str()), Anchor::Ident("shared_with")],
                format!(
                    "zone '{}': shared_with needs visibility Owner and an owner (it shares the owner's view)",
                    zone.id
                ),
            );
        }
    }
}

/// Every seat a sight names (`Seats([..])`, on a place, a space or a box) is a seat.
fn check_sights(loader: &mut Loader, module: &Module) {
    let seats_of = |sight: &Sight| match sight {
        Sight::Seats(seats) => seats.clone(),
        _ => Vec::new(),
    };
    for place in module.places.iter() {
        let def = &place.def;
        let mut sights: Vec<(Option<&str>, &Sight)> = vec![(None, &def.sight)];
        sights.extend(
            def.spaces
                .iter()
                .filter_map(|s| Some((Some(s.id.as_str()), s.sight.as_ref()?))),
        );
        for (space, sight) in sights {
            for seat in seats_of(sight)
                .iter()
                .filter(|s| !module.seats.contains(s.as_str()))
            {
                let idx = loader.origins[&("place", def.id.to_string())];
                let mut anchors = vec![Anchor::Field("id", def.id.as_str())];
                if let Some(space) = space {
                    anchors.push(Anchor::Field("id", space));
                }
                anchors.push(Anchor::Ident("sight"));
                let what = match space {
                    Some(space) => format!("space '{space}' of place '{}'", def.id),
                    None => format!("place '{}'", def.id),
                };
                loader.error(
                    idx,
                    &anchors,
                    format!("{what}: unknown seat '{seat}' in its sight"),
                );
            }
        }
    }
    for boxed in module.boxes.iter() {
        for seat in seats_of(&boxed.sight)
            .iter()
            .filter(|s| !module.seats.contains(s.as_str()))
        {
            let idx = loader.origins[&("box", boxed.id.to_string())];
            loader.error(
                idx,
                &[
                    Anchor::Field("id", boxed.id.as_str()),
                    Anchor::Ident("sight"),
                ],
                format!("box '{}': unknown seat '{seat}' in its sight", boxed.id),
            );
        }
    }
}

/// A place's spaces have different ids, and its links join spaces it has.
fn check_places(loader: &mut Loader, module: &Module) {
    for place in module.places.iter() {
        let id = place.def.id.as_str();
        let idx = loader.origins[&("place", id.to_owned())];
        let mut seen = BTreeMap::new();
        for space in &place.def.spaces {
            if seen.insert(space.id.as_str(), ()).is_some() {
                loader.error(
                    idx,
                    &[
                        Anchor::Field("id", id),
                        Anchor::Field("id", space.id.as_str()),
                    ],
                    format!("place '{id}': duplicate space id '{}'", space.id),
                );
            }
        }
        for (a, b) in &place.def.links {
            for end in [a, b] {
                if place.space(end.as_str()).is_none() {
                    loader.error(
                        idx,
                        &[
                            Anchor::Field("id", id),
                            Anchor::Ident("links"),
                            Anchor::Str(end.as_str()),
                        ],
                        format!("place '{id}': link names unknown space '{end}'"),
                    );
                }
            }
        }
    }
}

/// A box holds kinds of units the module has; a counter starts within its bounds.
fn check_boxes_and_counters(loader: &mut Loader, module: &Module) {
    for boxed in module.boxes.iter() {
        let id = boxed.id.as_str();
        for kind in boxed.kinds.iter().flatten() {
            if !module.unit_kinds.contains(kind.as_str()) {
                let idx = loader.origins[&("box", id.to_owned())];
                loader.error(
                    idx,
                    &[
                        Anchor::Field("id", id),
                        Anchor::Ident("kinds"),
                        Anchor::Str(kind.as_str()),
                    ],
                    format!("box '{id}': unknown unit kind '{kind}'"),
                );
            }
        }
    }
    for counter in module.counters.iter() {
        let (min, max) = (
            counter.min.unwrap_or(i64::MIN),
            counter.max.unwrap_or(i64::MAX),
        );
        if min > max || counter.initial < min || counter.initial > max {
            let id = counter.id.as_str();
            let idx = loader.origins[&("counter", id.to_owned())];
            loader.error(
                idx,
                &[Anchor::Field("id", id)],
                format!("counter '{id}': needs min <= initial <= max"),
            );
        }
    }
}

fn check_scenarios(loader: &mut Loader, module: &Module) {
    for scenario in module.scenarios.iter() {
        let sid = scenario.id.as_str();
        let at = (sid, loader.origins[&("scenario", sid.to_owned())]);
        check_scenario_seats_and_counters(loader, module, scenario, at);
        check_scenario_cards(loader, module, scenario, at);
        check_scenario_pieces(loader, module, scenario, at);
        check_scenario_boxes(loader, module, scenario, at);
    }
}

/// Reports an error of scenario `sid` (defined in source `idx`) at `anchors` within it.
fn scenario_error(
    loader: &mut Loader,
    (sid, idx): (&str, usize),
    anchors: &[Anchor<'_>],
    message: String,
) {
    let mut path = vec![Anchor::Field("id", sid)];
    path.extend_from_slice(anchors);
    loader.error(idx, &path, format!("scenario '{sid}': {message}"));
}

/// A scenario's the seats it names and the counters it sets (within their bounds).
fn check_scenario_seats_and_counters(
    loader: &mut Loader,
    module: &Module,
    scenario: &crate::module::ScenarioDef,
    at: (&str, usize),
) {
    for seat in scenario.seats.iter().flatten().chain(scenario.bots.keys()) {
        if !module.seats.contains(seat.as_str()) {
            scenario_error(
                loader,
                at,
                &[Anchor::Ident("seats"), Anchor::Str(seat.as_str())],
                format!("unknown seat '{seat}'"),
            );
        }
    }
    if let Some(umpire) = &scenario.umpire
        && !module.scenario_seats(scenario).contains(umpire)
    {
        scenario_error(
            loader,
            at,
            &[Anchor::Ident("umpire")],
            format!("the umpire '{umpire}' is not one of the scenario's seats"),
        );
    }
    for (id, value) in &scenario.counters {
        match module.counters.get(id.as_str()) {
            None => scenario_error(
                loader,
                at,
                &[Anchor::Ident("counters"), Anchor::Key(id.as_str())],
                format!("unknown counter '{id}'"),
            ),
            Some(def)
                if def.min.is_some_and(|m| *value < m) || def.max.is_some_and(|m| *value > m) =>
            {
                scenario_error(
                    loader,
                    at,
                    &[Anchor::Ident("counters"), Anchor::Key(id.as_str())],
                    format!(
                        "counter '{id}' = {value} is outside its bounds {:?}..={:?}",
                        def.min, def.max
                    ),
                )
            }
            Some(_) => {}
        }
    }
}

/// A scenario's the cards it deals to zones (each once) and the zone for the rest.
fn check_scenario_cards(
    loader: &mut Loader,
    module: &Module,
    scenario: &crate::module::ScenarioDef,
    at: (&str, usize),
) {
    let mut placed: BTreeMap<&str, &str> = BTreeMap::new();
    for (zone, cards) in &scenario.zones {
        if !module.zones.contains(zone.as_str()) {
            scenario_error(
                loader,
                at,
                &[Anchor::Ident("zones"), Anchor::Key(zone.as_str())],
                format!("unknown zone '{zone}'"),
            );
        }
        for card in cards {
            let anchors = [
                Anchor::Ident("zones"),
                Anchor::Key(zone.as_str()),
                Anchor::Str(card.as_str()),
            ];
            if !module.cards.contains(card.as_str()) {
                scenario_error(loader, at, &anchors, format!("unknown card '{card}'"));
            } else if let Some(first) = placed.insert(card.as_str(), zone.as_str()) {
                scenario_error(
                    loader,
                    at,
                    &anchors,
                    format!("card '{card}' is placed twice (also in zone '{first}')"),
                );
            }
        }
    }
    if let Some(zone) = &scenario.rest_to
        && !module.zones.contains(zone.as_str())
    {
        scenario_error(
            loader,
            at,
            &[Anchor::Ident("rest_to")],
            format!("rest_to: unknown zone '{zone}'"),
        );
    }
}

/// A scenario's the pieces it stands on places (each once, on a space the place has).
fn check_scenario_pieces(
    loader: &mut Loader,
    module: &Module,
    scenario: &crate::module::ScenarioDef,
    at: (&str, usize),
) {
    let mut stood: BTreeMap<&str, &str> = BTreeMap::new();
    for (place_id, pieces) in &scenario.pieces {
        let place = module.places.get(place_id.as_str());
        if place.is_none() {
            scenario_error(
                loader,
                at,
                &[Anchor::Ident("pieces"), Anchor::Key(place_id.as_str())],
                format!("unknown place '{place_id}'"),
            );
        }
        for (piece, space) in pieces {
            let anchors = [
                Anchor::Ident("pieces"),
                Anchor::Key(place_id.as_str()),
                Anchor::Key(piece.as_str()),
            ];
            if !module.pieces.contains(piece.as_str()) {
                scenario_error(loader, at, &anchors, format!("unknown piece '{piece}'"));
            } else if let Some(first) = stood.insert(piece.as_str(), place_id.as_str()) {
                scenario_error(
                    loader,
                    at,
                    &anchors,
                    format!("piece '{piece}' is placed twice (also on '{first}')"),
                );
            }
            if let Some(place) = place
                && place.space(space.as_str()).is_none()
            {
                scenario_error(
                    loader,
                    at,
                    &anchors,
                    format!("place '{place_id}' has no space '{space}'"),
                );
            }
        }
    }
}

/// A scenario's the units it puts in boxes (of kinds each box holds, never negative).
fn check_scenario_boxes(
    loader: &mut Loader,
    module: &Module,
    scenario: &crate::module::ScenarioDef,
    at: (&str, usize),
) {
    for (boxed, units) in &scenario.boxes {
        if !module.boxes.contains(boxed.as_str()) {
            scenario_error(
                loader,
                at,
                &[Anchor::Ident("boxes"), Anchor::Key(boxed.as_str())],
                format!("unknown box '{boxed}'"),
            );
            continue;
        }
        for (kind, count) in units {
            let anchors = [
                Anchor::Ident("boxes"),
                Anchor::Key(boxed.as_str()),
                Anchor::Key(kind.as_str()),
            ];
            if !module.box_accepts(boxed.as_str(), kind.as_str()) {
                scenario_error(
                    loader,
                    at,
                    &anchors,
                    format!("box '{boxed}' does not hold units of kind '{kind}'"),
                );
            } else if *count < 0 {
                scenario_error(
                    loader,
                    at,
                    &anchors,
                    format!("box '{boxed}': negative count {count}"),
                );
            }
        }
    }
}

fn check_layout(loader: &mut Loader, module: &Module) {
    for panel in &module.manifest.layout.panels {
        for item in &panel.items {
            let (kind, id) = match item {
                LayoutItem::Zone(id) => (RefKind::Zone, id.as_str()),
                LayoutItem::Place(id) => (RefKind::Place, id.as_str()),
                LayoutItem::Box(id) => (RefKind::Box, id.as_str()),
                LayoutItem::Counter(id) => (RefKind::Counter, id.as_str()),
            };
            if !module.has(kind, id) {
                loader.error(
                    MANIFEST,
                    &[Anchor::Ident("layout"), Anchor::Str(id)],
                    format!(
                        "layout panel '{}': unknown {} '{id}'",
                        panel.title,
                        kind.noun()
                    ),
                );
            }
        }
    }
}

/// Checks each board: its items name components the module has, a map's coordinates name
/// its place's spaces, a piece that carries a box names both, and sizes are positive.
fn check_boards(loader: &mut Loader, module: &Module) {
    for board in module.boards.iter() {
        let Some(&idx) = loader.origins.get(&("board", board.id.clone())) else {
            continue;
        };
        let at_board = |id| [Anchor::Field("id", board.id.as_str()), Anchor::Str(id)];
        if !(board.size.0 > 0.0 && board.size.1 > 0.0) {
            loader.error(
                idx,
                &[
                    Anchor::Field("id", board.id.as_str()),
                    Anchor::Ident("size"),
                ],
                format!("board '{}': its size must be positive", board.id),
            );
        }
        for (piece, boxed) in &board.carries {
            for (kind, id) in [
                (RefKind::Piece, piece.as_str()),
                (RefKind::Box, boxed.as_str()),
            ] {
                if !module.has(kind, id) {
                    loader.error(
                        idx,
                        &at_board(id),
                        format!(
                            "board '{}', carries: unknown {} '{id}'",
                            board.id,
                            kind.noun()
                        ),
                    );
                }
            }
        }
        for item in &board.items {
            if let Some((kind, id)) = item.component()
                && !module.has(kind, id)
            {
                loader.error(
                    idx,
                    &at_board(id),
                    format!("board '{}': unknown {} '{id}'", board.id, kind.noun()),
                );
                continue;
            }
            if let BoardItem::Map {
                place,
                spaces,
                sizes,
                ..
            } = item
                && let Some(def) = module.places.get(place.as_str())
            {
                for space in spaces.keys().chain(sizes.keys()) {
                    if def.space(space.as_str()).is_none() {
                        loader.error(
                            idx,
                            &[Anchor::Field("id", board.id.as_str()), Anchor::Key(space.as_str())],
                            format!(
                                "board '{}': place '{place}' has no space '{space}' (its spaces: {})",
                                board.id,
                                def.def
                                    .spaces
                                    .iter()
                                    .map(|s| s.id.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// Checks an overlay against the module it completes.
pub(super) fn check_overlay(loader: &mut Loader, module: &Module, idx: usize, file: &OverlayFile) {
    for (card, fields) in &file.cards {
        if !module.cards.contains(card.as_str()) {
            loader.error(
                idx,
                &[Anchor::Key(card.as_str())],
                format!("overlay: unknown card '{card}'"),
            );
            continue;
        }
        for (field, value) in fields {
            let anchors = [Anchor::Key(card.as_str()), Anchor::Key(field)];
            if field == "name" || field == "text" {
                if !matches!(value, DataValue::Known(Value::Str(_))) {
                    loader.error(
                        idx,
                        &anchors,
                        format!("overlay: card '{card}': {field} must be a string"),
                    );
                }
                continue;
            }
            match (module.field_def(field), value) {
                (None, _) => loader.error(
                    idx,
                    &anchors,
                    format!("overlay: card '{card}': undeclared field '{field}'"),
                ),
                (Some(def), DataValue::Known(v)) => {
                    if let Err(problem) = check_value(module, v, &def.kind) {
                        loader.error(
                            idx,
                            &anchors,
                            format!("overlay: card '{card}': field '{field}': {problem}"),
                        );
                    }
                }
                (Some(_), DataValue::Unknown) => {}
            }
        }
    }
    for key in file.spaces.keys() {
        let added = |place: &str, space: &str| {
            file.places
                .get(place)
                .is_some_and(|extra| extra.spaces.iter().any(|s| s.id.as_str() == space))
        };
        let known = key
            .split_once('/')
            .and_then(|(place, space)| {
                module
                    .places
                    .get(place)
                    .map(|p| p.space(space).is_some() || added(place, space))
            })
            .unwrap_or(false);
        if !known {
            loader.error(
                idx,
                &[Anchor::Key(key)],
                format!("overlay: unknown space '{key}' (write \"place/space\")"),
            );
        }
    }
    for piece in file.pieces.keys() {
        if !module.pieces.contains(piece.as_str()) {
            loader.error(
                idx,
                &[Anchor::Key(piece.as_str())],
                format!("overlay: unknown piece '{piece}'"),
            );
        }
    }
    check_overlay_tables(loader, module, idx, file);
    check_overlay_places(loader, module, idx, file);
    check_overlay_boards(loader, module, idx, file);
}

/// The owner's boards: each names a board of the module, each placed space is
/// "place/space" of a space the module or the overlay has; an image that is not there is
/// a warning (the board is drawn without it).
fn check_overlay_boards(loader: &mut Loader, module: &Module, idx: usize, file: &OverlayFile) {
    let folder = loader.sources[idx]
        .path
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    for (board, copy) in &file.boards {
        if !module.boards.contains(board) {
            let known: Vec<&str> = module.boards.iter().map(|b| b.id.as_str()).collect();
            let known = match known.is_empty() {
                true => "the module has no boards".to_owned(),
                false => format!("the module's boards: {}", known.join(", ")),
            };
            loader.error(
                idx,
                &[Anchor::Ident("boards"), Anchor::Key(board)],
                format!("overlay: unknown board '{board}' ({known})"),
            );
            continue;
        }
        if let Some(image) = &copy.image
            && !folder.join(image).is_file()
        {
            loader.warning(
                idx,
                &[Anchor::Ident("boards"), Anchor::Key(board), Anchor::Ident("image")],
                format!(
                    "overlay: board '{board}': no image file '{}' (relative to the overlay's folder); the board is drawn without it",
                    folder.join(image).display()
                ),
            );
        }
        for key in copy.spaces.keys() {
            let known = key.split_once('/').is_some_and(|(place, space)| {
                module
                    .places
                    .get(place)
                    .is_some_and(|p| p.space(space).is_some())
                    || file.places.iter().any(|(id, extra)| {
                        id.as_str() == place && extra.spaces.iter().any(|s| s.id.as_str() == space)
                    })
            });
            if !known {
                loader.error(
                    idx,
                    &[Anchor::Ident("boards"), Anchor::Key(board), Anchor::Key(key)],
                    format!(
                        "overlay: board '{board}': '{key}' is not a space (write it \"place/space\")"
                    ),
                );
            }
        }
    }
}

fn check_overlay_tables(loader: &mut Loader, module: &Module, idx: usize, file: &OverlayFile) {
    for (table_id, entries) in &file.tables {
        let Some(table) = module.tables.get(table_id) else {
            loader.error(
                idx,
                &[Anchor::Key(table_id)],
                format!("overlay: unknown table '{table_id}'"),
            );
            continue;
        };
        for (key, value) in entries {
            let anchors = [Anchor::Key(table_id), Anchor::Key(key)];
            if !table.open && !table.entries.contains_key(key) {
                loader.error(
                    idx,
                    &anchors,
                    format!("overlay: table '{table_id}' has no entry '{key}'"),
                );
            } else if let DataValue::Known(v) = value
                && let Err(problem) = check_value(module, v, &table.kind)
            {
                loader.error(
                    idx,
                    &anchors,
                    format!("overlay: table '{table_id}': entry '{key}': {problem}"),
                );
            }
        }
    }
}

fn check_overlay_places(loader: &mut Loader, module: &Module, idx: usize, file: &OverlayFile) {
    for (place_id, extra) in &file.places {
        let Some(place) = module.places.get(place_id.as_str()) else {
            loader.error(
                idx,
                &[Anchor::Key(place_id.as_str())],
                format!("overlay: unknown place '{place_id}'"),
            );
            continue;
        };
        let mut ids: Vec<&str> = place.def.spaces.iter().map(|s| s.id.as_str()).collect();
        for space in &extra.spaces {
            if ids.contains(&space.id.as_str()) {
                loader.error(
                    idx,
                    &[
                        Anchor::Key(place_id.as_str()),
                        Anchor::Field("id", space.id.as_str()),
                    ],
                    format!(
                        "overlay: place '{place_id}' already has a space '{}'",
                        space.id
                    ),
                );
            }
            ids.push(space.id.as_str());
        }
        for (a, b) in &extra.links {
            for end in [a, b] {
                if !ids.contains(&end.as_str()) {
                    loader.error(
                        idx,
                        &[
                            Anchor::Key(place_id.as_str()),
                            Anchor::Ident("links"),
                            Anchor::Str(end.as_str()),
                        ],
                        format!("overlay: place '{place_id}': link names unknown space '{end}'"),
                    );
                }
            }
        }
    }
}

/// Checks what the data says against what the rules script declares.
pub(super) fn check_rules(loader: &mut Loader, module: &Module) {
    for seat in module.seats.iter() {
        if let Some(bot) = &seat.bot
            && !module.rules.bots.contains(bot)
        {
            let idx = loader.origins[&("seat", seat.id.to_string())];
            loader.error(
                idx,
                &[Anchor::Field("id", seat.id.as_str()), Anchor::Ident("bot")],
                format!(
                    "seat '{}': bot '{bot}' is not in the rules' bots (they are: {})",
                    seat.id,
                    quoted_list(&module.rules.bots)
                ),
            );
        }
    }
    for entry in &module.manifest.default_bots {
        for (seat, bot) in &entry.bots {
            let when: Vec<String> = entry.when.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let anchors = [Anchor::Ident("default_bots"), Anchor::Str(seat.as_str())];
            if !module.seats.contains(seat.as_str()) {
                loader.error(
                    MANIFEST,
                    &anchors,
                    format!("default_bots ({}): unknown seat '{seat}'", when.join(", ")),
                );
            } else if !module.rules.bots.contains(bot) {
                loader.error(
                    MANIFEST,
                    &anchors,
                    format!(
                        "default_bots ({}), seat '{seat}': bot '{bot}' is not in the rules' bots (they are: {})",
                        when.join(", "),
                        quoted_list(&module.rules.bots)
                    ),
                );
            }
        }
    }
    for scenario in module.scenarios.iter() {
        for (seat, bot) in &scenario.bots {
            if module.rules.bots.contains(bot) {
                continue;
            }
            let idx = loader.origins[&("scenario", scenario.id.to_string())];
            loader.error(
                idx,
                &[
                    Anchor::Field("id", scenario.id.as_str()),
                    Anchor::Ident("bots"),
                    Anchor::Str(seat.as_str()),
                ],
                format!(
                    "scenario '{}', seat '{seat}': bot '{bot}' is not in the rules' bots (they are: {})",
                    scenario.id,
                    quoted_list(&module.rules.bots)
                ),
            );
        }
    }
}
