//! Rebasing a game onto a reloaded module: replay its inputs under the new version, find
//! the first point where the game differs, and say what changed in the module and on the
//! table.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use super::{Input, Session, SessionError};
use crate::module::{DataValue, Module};
use crate::table::Table;
use crate::value::Value;

/// The first point where a replay under a new module differs from the game as played.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// After how many inputs the tables first differ (0: right after setup).
    pub after: usize,
    /// That input in words (empty for the setup).
    pub input: String,
    /// What differs on the table, one line each.
    pub differences: Vec<String>,
}

/// What a rebase did.
#[derive(Clone, Debug, PartialEq)]
pub struct RebaseReport {
    /// What changed in the module, one line each.
    pub changes: Vec<String>,
    /// How many inputs the new version replayed.
    pub replayed: usize,
    /// How many inputs the game had.
    pub total: usize,
    /// Where the game first differs, if it does.
    pub divergence: Option<Divergence>,
    /// The first input the new version refused (its number from 1, and why). It and the
    /// inputs after it wait on the redo stack.
    pub refused: Option<(usize, String)>,
}

impl fmt::Display for RebaseReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.changes.is_empty() {
            writeln!(f, "The module's content did not change.")?;
        } else {
            writeln!(f, "Changed:")?;
            for change in &self.changes {
                writeln!(f, "  {change}")?;
            }
        }
        writeln!(f, "Replayed {} of {} inputs.", self.replayed, self.total)?;
        match &self.divergence {
            None => writeln!(f, "The game is the same as before.")?,
            Some(d) if d.after == 0 => writeln!(f, "The game differs from the setup on:")?,
            Some(d) => writeln!(
                f,
                "The game first differs after input {} ({}):",
                d.after, d.input
            )?,
        }
        for line in self.divergence.iter().flat_map(|d| &d.differences) {
            writeln!(f, "  {line}")?;
        }
        if let Some((n, why)) = &self.refused {
            writeln!(
                f,
                "Input {n} is no longer accepted ({why}). The game stops before it; it and the {} after it are held: save a fix and the whole game comes back.",
                self.total - n
            )?;
        }
        Ok(())
    }
}

impl Session {
    /// Replays this game under `module` (a reloaded version). On success the session plays
    /// the new version from where the replay got to. If the new version refuses an input,
    /// it and the rest of the game are held (on the redo stack, see [`History`]): the next
    /// rebase replays the whole game again, so a fix brings it all back. If the new version
    /// cannot even start the game, the session is unchanged and the error says why.
    pub fn rebase(&mut self, module: Arc<Module>) -> Result<RebaseReport, SessionError> {
        let (fresh, report) = self.replay_under(module)?;
        *self = fresh;
        Ok(report)
    }

    /// As [`Session::rebase`], but only if the new version replays the whole game: if it
    /// refuses an input, the session is unchanged and the report says which.
    pub fn rebase_whole(&mut self, module: Arc<Module>) -> Result<RebaseReport, SessionError> {
        let (fresh, report) = self.replay_under(module)?;
        if report.refused.is_none() {
            *self = fresh;
        }
        Ok(report)
    }

    /// The whole game (its inputs, then those held back) replayed under `module`, and what
    /// the replay found.
    fn replay_under(
        &mut self,
        module: Arc<Module>,
    ) -> Result<(Session, RebaseReport), SessionError> {
        let rules = self.rules.reload(module.clone())?;
        let mut fresh = Session::new(module.clone(), self.spec.clone(), rules)?;
        fresh.check_every_step = self.check_every_step;
        let changes = module_changes(&self.module, &module);
        let game: Vec<Input> = self.history.game_inputs().cloned().collect();
        let played = self.history.records.len();
        let total = game.len();
        let mut divergence_at =
            (fresh.history.start.digest() != self.history.start.digest()).then_some(0);
        let mut refused = None;
        let mut replayed = 0;
        for (i, input) in game.iter().enumerate() {
            match fresh.apply(input.clone()) {
                Ok(()) => {
                    replayed += 1;
                    // Held inputs have no table of their own to compare with.
                    let recorded = self.history.records.get(i).map(|r| r.digest);
                    if divergence_at.is_none()
                        && recorded.is_some_and(|digest| fresh.table.digest() != digest)
                    {
                        divergence_at = Some(i + 1);
                    }
                }
                Err(err) => {
                    refused = Some((i + 1, err.to_string()));
                    if divergence_at.is_none() && i < played {
                        divergence_at = Some(i);
                    }
                    break;
                }
            }
        }
        let divergence = match divergence_at.filter(|n| *n <= played) {
            Some(n) => {
                let before = self.table_at(n);
                let after = fresh.table_at(n);
                let input = if n == 0 {
                    String::new()
                } else {
                    self.history.records[n - 1].input.to_string()
                };
                let mut differences = describe_differences(&self.module, &before, &after);
                if let Some((k, why)) = refused.as_ref().filter(|_| differences.is_empty()) {
                    differences.push(format!("input {k} is refused: {why}"));
                }
                Some(Divergence {
                    after: n,
                    input,
                    differences,
                })
            }
            None => None,
        };
        // Undone inputs stay undone, below the rest of the game the new version refused.
        let waiting: Vec<Input> = game[replayed..].iter().rev().cloned().collect();
        fresh.push_redo(self.history.undone().to_vec());
        fresh.hold(waiting);
        fresh.warnings = std::mem::take(&mut self.warnings);
        let report = RebaseReport {
            changes,
            replayed,
            total,
            divergence,
            refused,
        };
        Ok((fresh, report))
    }

    pub(crate) fn push_redo(&mut self, inputs: impl IntoIterator<Item = Input>) {
        self.history.redo.extend(inputs);
    }

    /// Holds `inputs` (the last of them next) as the rest of the game, which the module refused.
    pub(crate) fn hold(&mut self, inputs: impl IntoIterator<Item = Input>) {
        let before = self.history.redo.len();
        self.history.redo.extend(inputs);
        self.history.held += self.history.redo.len() - before;
    }
}

fn show(value: &DataValue) -> String {
    match value {
        DataValue::Known(v) => v.to_string(),
        DataValue::Unknown => "unknown".to_owned(),
    }
}

/// What differs between two versions of a module, one line each: cards by field, other
/// components by id, scripts by the functions around the changed lines.
pub fn module_changes(old: &Module, new: &Module) -> Vec<String> {
    let mut out = card_changes(old, new);
    fn defs<'m, T: std::fmt::Debug + 'm, I: std::fmt::Display>(
        items: impl Iterator<Item = &'m T>,
        id: impl Fn(&T) -> &I,
    ) -> Vec<(String, String)> {
        items
            .map(|x| (id(x).to_string(), format!("{x:?}")))
            .collect()
    }
    let each = [
        (
            "zone",
            defs(old.zones.iter(), |z| &z.id),
            defs(new.zones.iter(), |z| &z.id),
        ),
        (
            "place",
            defs(old.places.iter().map(|p| &p.def), |d| &d.id),
            defs(new.places.iter().map(|p| &p.def), |d| &d.id),
        ),
        (
            "piece",
            defs(old.pieces.iter(), |p| &p.id),
            defs(new.pieces.iter(), |p| &p.id),
        ),
        (
            "box",
            defs(old.boxes.iter(), |b| &b.id),
            defs(new.boxes.iter(), |b| &b.id),
        ),
        (
            "counter",
            defs(old.counters.iter(), |c| &c.id),
            defs(new.counters.iter(), |c| &c.id),
        ),
        (
            "seat",
            defs(old.seats.iter(), |s| &s.id),
            defs(new.seats.iter(), |s| &s.id),
        ),
        (
            "scenario",
            defs(old.scenarios.iter(), |s| &s.id),
            defs(new.scenarios.iter(), |s| &s.id),
        ),
    ];
    for (kind, before, after) in each {
        compare_ids(&mut out, kind, before.into_iter(), after.into_iter());
    }
    out.extend(script_changes(old, new));
    out
}

/// Cards added, removed, or changed (by name, text and each field's value).
fn card_changes(old: &Module, new: &Module) -> Vec<String> {
    let mut out = Vec::new();
    for card in new.cards.iter() {
        let Some(before) = old.cards.get(card.id.as_str()) else {
            out.push(format!("card '{}' added", card.id));
            continue;
        };
        let mut what = Vec::new();
        if before.name != card.name {
            what.push(format!("name {} -> {}", before.name, card.name));
        }
        if before.text != card.text {
            what.push("text".to_owned());
        }
        let keys: BTreeSet<&String> = before.fields.keys().chain(card.fields.keys()).collect();
        for key in keys {
            let (a, b) = (before.fields.get(key), card.fields.get(key));
            if a != b {
                let a = a.map(show).unwrap_or_else(|| "unknown".to_owned());
                let b = b.map(show).unwrap_or_else(|| "unknown".to_owned());
                what.push(format!("{key} {a} -> {b}"));
            }
        }
        if !what.is_empty() {
            out.push(format!("card '{}': {}", card.id, what.join(", ")));
        }
    }
    for card in old
        .cards
        .iter()
        .filter(|c| !new.cards.contains(c.id.as_str()))
    {
        out.push(format!("card '{}' removed", card.id));
    }
    out
}

/// Scripts added, removed, or changed (in which functions).
fn script_changes(old: &Module, new: &Module) -> Vec<String> {
    let mut out = Vec::new();
    for script in &new.scripts {
        match old.scripts.iter().find(|s| s.rel == script.rel) {
            None => out.push(format!("script {} added", script.rel)),
            Some(before) if before.text != script.text => {
                let functions = changed_functions(&before.text, &script.text);
                if functions.is_empty() {
                    out.push(format!("script {} changed", script.rel));
                } else {
                    out.push(format!(
                        "script {} changed in {}",
                        script.rel,
                        functions.join(", ")
                    ));
                }
            }
            Some(_) => {}
        }
    }
    for script in old
        .scripts
        .iter()
        .filter(|s| !new.scripts.iter().any(|n| n.rel == s.rel))
    {
        out.push(format!("script {} removed", script.rel));
    }
    out
}

fn compare_ids(
    out: &mut Vec<String>,
    kind: &str,
    old: impl Iterator<Item = (String, String)>,
    new: impl Iterator<Item = (String, String)>,
) {
    let old: BTreeMap<String, String> = old.collect();
    let new: BTreeMap<String, String> = new.collect();
    for (id, def) in &new {
        match old.get(id) {
            None => out.push(format!("{kind} '{id}' added")),
            Some(before) if before != def => out.push(format!("{kind} '{id}' changed")),
            Some(_) => {}
        }
    }
    for id in old.keys().filter(|id| !new.contains_key(*id)) {
        out.push(format!("{kind} '{id}' removed"));
    }
}

/// The names of the functions around the lines that differ between two versions of a
/// script (the changed region is what lies between the common first and last lines).
fn changed_functions(old: &str, new: &str) -> Vec<String> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let changed = prefix..b.len() - suffix;
    let mut names = Vec::new();
    let mut current: Option<String> = None;
    for (i, line) in b.iter().enumerate() {
        if let Some(name) = function_name(line) {
            current = Some(name);
        }
        if changed.contains(&i) || (changed.is_empty() && i == prefix) {
            let name = current
                .clone()
                .unwrap_or_else(|| "top-level code".to_owned());
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// `M.play` from `function M.play(ctx)`, `on_enter` from `on_enter = function(ctx)`.
fn function_name(line: &str) -> Option<String> {
    let line = line.trim_start();
    let line = line.strip_prefix("local ").unwrap_or(line);
    if let Some(rest) = line.strip_prefix("function ") {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || "_.:".contains(*c))
            .collect();
        return (!name.is_empty()).then_some(name);
    }
    let (name, rest) = line.split_once('=')?;
    let name = name.trim();
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "_.".contains(c));
    (valid && rest.trim_start().starts_with("function")).then(|| name.to_owned())
}

/// What differs between two tables, one line each.
pub fn describe_differences(module: &Module, a: &Table, b: &Table) -> Vec<String> {
    let name = |found: Option<&str>, id: &str| found.unwrap_or(id).to_owned();
    let mut out = Vec::new();
    if a.turn != b.turn {
        out.push(format!("turn {} -> {}", a.turn, b.turn));
    }
    if a.phase != b.phase {
        out.push(format!("phase '{}' -> '{}'", a.phase, b.phase));
    }
    let flow = |t: &Table| {
        t.flow
            .iter()
            .map(|f| f.state.clone())
            .collect::<Vec<_>>()
            .join(" > ")
    };
    if flow(a) != flow(b) {
        out.push(format!("state {} -> {}", flow(a), flow(b)));
    }
    for (id, counter) in &b.counters {
        match a.counters.get(id) {
            Some(old) if old.value != counter.value => out.push(format!(
                "{}: {} -> {}",
                name(
                    module.counters.get(id.as_str()).map(|c| c.name.as_str()),
                    id.as_str()
                ),
                old.value,
                counter.value
            )),
            None => out.push(format!("counter {id}: new, {}", counter.value)),
            _ => {}
        }
    }
    zone_changes(module, a, b, &mut out);
    piece_changes(module, a, b, &mut out);
    box_changes(module, a, b, &mut out);
    var_changes(a, b, &mut out);
    if a.seats != b.seats {
        out.push("seat controllers differ".to_owned());
    }
    if a.result != b.result {
        out.push("the game's result differs".to_owned());
    }
    if out.is_empty() && a.rng != b.rng {
        out.push("the dice were rolled a different number of times".to_owned());
    }
    if out.is_empty() && a != b {
        out.push("card facing or frame locals differ".to_owned());
    }
    out
}

/// The cards that came to and left each zone.
fn zone_changes(module: &Module, a: &Table, b: &Table, out: &mut Vec<String>) {
    let name = |found: Option<&str>, id: &str| found.unwrap_or(id).to_owned();
    let card = |id: &crate::ids::CardId| {
        name(
            module.cards.get(id.as_str()).map(|c| c.name.as_str()),
            id.as_str(),
        )
    };
    for (id, zone) in &b.zones {
        let old = a.zones.get(id).map(|z| z.cards.clone()).unwrap_or_default();
        if old != zone.cards {
            let gone: Vec<String> = old
                .iter()
                .filter(|c| !zone.cards.contains(c))
                .map(card)
                .collect();
            let came: Vec<String> = zone
                .cards
                .iter()
                .filter(|c| !old.contains(c))
                .map(card)
                .collect();
            let zone_name = name(
                module.zones.get(id.as_str()).map(|z| z.name.as_str()),
                id.as_str(),
            );
            if gone.is_empty() && came.is_empty() {
                out.push(format!("{zone_name}: the same cards in another order"));
            } else {
                let mut parts = Vec::new();
                if !came.is_empty() {
                    parts.push(format!("{} came", came.join(", ")));
                }
                if !gone.is_empty() {
                    parts.push(format!("{} left", gone.join(", ")));
                }
                out.push(format!("{zone_name}: {}", parts.join("; ")));
            }
        }
    }
}

/// The pieces that moved, from which space to which.
fn piece_changes(module: &Module, a: &Table, b: &Table, out: &mut Vec<String>) {
    for (place, pieces) in &b.places {
        let empty = BTreeMap::new();
        let old = a.places.get(place).unwrap_or(&empty);
        let ids: BTreeSet<_> = old.keys().chain(pieces.keys()).collect();
        for piece in ids {
            let (x, y) = (old.get(piece), pieces.get(piece));
            if x != y {
                let at = |s: Option<&crate::ids::SpaceId>| match s {
                    Some(s) => module.space_name(place.as_str(), s.as_str()),
                    None => "off the board".to_owned(),
                };
                let piece = module.name_of("piece", piece.as_str());
                let place = module.name_of("place", place.as_str());
                out.push(format!("{piece} ({place}): {} -> {}", at(x), at(y)));
            }
        }
    }
}

/// The units in each box, by kind, that changed in number.
fn box_changes(module: &Module, a: &Table, b: &Table, out: &mut Vec<String>) {
    let name = |found: Option<&str>, id: &str| found.unwrap_or(id).to_owned();
    for (boxed, units) in &b.boxes {
        let empty = BTreeMap::new();
        let old = a.boxes.get(boxed).unwrap_or(&empty);
        let kinds: BTreeSet<_> = old.keys().chain(units.keys()).collect();
        for kind in kinds {
            let (x, y) = (
                old.get(kind).copied().unwrap_or(0),
                units.get(kind).copied().unwrap_or(0),
            );
            if x != y {
                out.push(format!(
                    "{}: {} {x} -> {y}",
                    name(
                        module.boxes.get(boxed.as_str()).map(|b| b.name.as_str()),
                        boxed.as_str()
                    ),
                    name(
                        module
                            .unit_kinds
                            .get(kind.as_str())
                            .map(|k| k.name.as_str()),
                        kind.as_str()
                    )
                ));
            }
        }
    }
}

/// The rules' variables that changed, each with its values before and after.
fn var_changes(a: &Table, b: &Table, out: &mut Vec<String>) {
    if a.vars != b.vars {
        let keys = |v: &Value| match v {
            Value::Map(m) => m.keys().cloned().collect::<BTreeSet<_>>(),
            _ => BTreeSet::new(),
        };
        let all: BTreeSet<String> = keys(&a.vars).union(&keys(&b.vars)).cloned().collect();
        for key in all {
            let (x, y) = (a.vars.get(&key), b.vars.get(&key));
            if x != y {
                let show = |v: Option<&Value>| {
                    v.map(|v| v.to_string()).unwrap_or_else(|| "nil".to_owned())
                };
                out.push(format!("vars.{key}: {} -> {}", show(x), show(y)));
            }
        }
    }
}
