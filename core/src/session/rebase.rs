//! Rebasing a game onto a reloaded module: replay its inputs under the new version, find
//! the first point where the game differs, and say what changed in the module and on the
//! table.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use super::{Input, LogEntry, Session, SessionError};
use crate::ids::SeatId;
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
    /// That input's log entry as it was played (the set-up's for 0).
    pub played: Option<LogEntry>,
    /// The same entry as the new version writes it (`None` where it refuses the input).
    pub replayed: Option<LogEntry>,
    /// The tables right after it: as played, and under the new version.
    pub tables: Box<(Table, Table)>,
    /// Why the new version refuses a later input, when the tables alone do not differ.
    pub refused: Option<(usize, String)>,
}

impl Divergence {
    /// The input in words, as the log's heading says it to `eyes`, without its number
    /// ("Beta: Play Ambush"); "the set-up" for 0.
    pub fn heading(&self, module: &Module, eyes: Option<&SeatId>) -> String {
        match &self.played {
            _ if self.after == 0 => "the set-up".to_owned(),
            Some(entry) => {
                let heading = entry.seen_by(eyes).heading(module);
                // "#96 Beta: …" → "Beta: …" (the number is said with it).
                match heading.split_once(' ') {
                    Some((number, rest)) if number.starts_with('#') => rest.to_owned(),
                    _ => heading,
                }
            }
            None => self.input.clone(),
        }
    }

    /// What differs, in words, as `eyes` may see it: the log lines the input now writes
    /// otherwise, then the table's differences (cards `eyes` may not see are not named).
    pub fn differences(&self, module: &Module, eyes: Option<&SeatId>) -> Vec<String> {
        let said = |entry: &Option<LogEntry>| -> Vec<String> {
            entry
                .iter()
                .flat_map(|e| e.seen_by(eyes).messages)
                .map(|l| l.text)
                .collect()
        };
        let mut out = changed_lines(&said(&self.played), &said(&self.replayed));
        let (before, after) = &*self.tables;
        out.extend(describe_seen_differences(module, before, after, eyes));
        if let Some((k, why)) = self.refused.as_ref().filter(|_| out.is_empty()) {
            out.push(format!("input {k} is refused: {why}"));
        }
        out
    }
}

/// The log lines that differ between two versions of an input's entry, in words: a line
/// changed in a few words shows them ("moves it [10 → 7] spaces"), a line only one
/// version writes says so.
pub fn changed_lines(before: &[String], after: &[String]) -> Vec<String> {
    let mut gone: Vec<&String> = Vec::new();
    let mut rest: Vec<&String> = after.iter().collect();
    for line in before {
        match rest.iter().position(|l| *l == line) {
            Some(i) => {
                rest.remove(i);
            }
            None => gone.push(line),
        }
    }
    let mut out = Vec::new();
    let pairs = gone.len().min(rest.len());
    for (old, new) in gone.iter().zip(&rest) {
        out.push(format!("the log now says: {}", word_change(old, new)));
    }
    for line in &gone[pairs..] {
        out.push(format!("the log no longer says: {line}"));
    }
    for line in &rest[pairs..] {
        out.push(format!("the log now also says: {line}"));
    }
    out
}

/// How many items `a` and `b` share at their start, and how many at their end after that
/// (the changed region of each lies between).
fn common_ends<T: PartialEq>(a: &[T], b: &[T]) -> (usize, usize) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (prefix, suffix)
}

/// `new` with the words that changed from `old` marked: "Beta moves it [10 → 7] spaces".
fn word_change(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.split(' ').collect();
    let b: Vec<&str> = new.split(' ').collect();
    let (prefix, suffix) = common_ends(&a, &b);
    let (was, now) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    // Mostly new words: the whole line reads better than a marked one.
    if was.len() + now.len() > 12 {
        return format!("{new} (it said: {old})");
    }
    // Punctuation the two spans share stays outside the mark: "(6)," → "(7)," is "([6 → 7]),".
    let (was, now) = (was.join(" "), now.join(" "));
    let outer = |x: &str, y: &str, rev: bool| -> usize {
        let pairs: Box<dyn Iterator<Item = (char, char)>> = if rev {
            Box::new(x.chars().rev().zip(y.chars().rev()))
        } else {
            Box::new(x.chars().zip(y.chars()))
        };
        pairs
            .take_while(|(p, q)| p == q && !p.is_alphanumeric())
            .map(|(p, _)| p.len_utf8())
            .sum()
    };
    let head = outer(&was, &now, false);
    let tail = outer(&was[head..], &now[head..], true);
    let mut words: Vec<String> = b[..prefix].iter().map(|w| (*w).to_owned()).collect();
    words.push(format!(
        "{}[{} → {}]{}",
        &now[..head],
        &was[head..was.len() - tail],
        &now[head..now.len() - tail],
        &now[now.len() - tail..]
    ));
    words.extend(b[b.len() - suffix..].iter().map(|w| (*w).to_owned()));
    words.join(" ")
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
    /// How many inputs an earlier reload held back (it refused them) that this version
    /// plays again.
    pub restored: usize,
}

impl RebaseReport {
    /// The report in words, names from `module` (the version now played), as `eyes` may
    /// read it (`None`: everything).
    pub fn words<'a>(&'a self, module: &'a Module, eyes: Option<&'a SeatId>) -> ReportWords<'a> {
        ReportWords {
            report: self,
            module,
            eyes,
        }
    }
}

/// A [`RebaseReport`] in words (see [`RebaseReport::words`]).
pub struct ReportWords<'a> {
    report: &'a RebaseReport,
    module: &'a Module,
    eyes: Option<&'a SeatId>,
}

impl fmt::Display for ReportWords<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let report = self.report;
        if report.changes.is_empty() {
            writeln!(f, "The module's content did not change.")?;
        } else {
            writeln!(f, "Changed:")?;
            for change in &report.changes {
                writeln!(f, "  {change}")?;
            }
        }
        writeln!(
            f,
            "Replayed {} of {} inputs.",
            report.replayed, report.total
        )?;
        match &report.divergence {
            None => writeln!(f, "The game is the same as before.")?,
            Some(d) if d.after == 0 => writeln!(f, "The game differs from the set-up on:")?,
            Some(d) => writeln!(
                f,
                "The game first differs at input {} ({}):",
                d.after,
                d.heading(self.module, self.eyes)
            )?,
        }
        if let Some(d) = &report.divergence {
            for line in d.differences(self.module, self.eyes) {
                writeln!(f, "  {line}")?;
            }
        }
        if report.restored > 0 {
            writeln!(
                f,
                "The {} input(s) held back since a reload refused them are played again: the game is back where it was.",
                report.restored
            )?;
        }
        if let Some((n, why)) = &report.refused {
            writeln!(
                f,
                "Input {n} is no longer accepted ({why}). The game stops before it; it and the {} after it are held: save a fix and the whole game comes back.",
                report.total - n
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
        let mut fresh = match &self.redaction {
            // One seat's redacted view goes on from its own table again.
            Some(redaction) => Session::resume(
                module.clone(),
                self.spec.clone(),
                rules,
                (self.history.start.clone(), redaction.clone()),
                self.history.setup_log.clone(),
            ),
            None => Session::new(module.clone(), self.spec.clone(), rules)?,
        };
        fresh.check_every_step = self.check_every_step;
        fresh.lean = self.lean;
        fresh.set_watched(self.watched);
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
        let divergence = divergence_at.filter(|n| *n <= played).map(|n| Divergence {
            after: n,
            input: match n {
                0 => String::new(),
                n => self.history.records[n - 1].input.to_string(),
            },
            played: self.log_entry(n),
            replayed: fresh.log_entry(n),
            tables: Box::new((self.table_at(n), fresh.table_at(n))),
            refused: refused.clone(),
        });
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
            restored: replayed.saturating_sub(played),
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
    // Each kind of component: its definitions by id, under both versions.
    macro_rules! both {
        ($kind:literal, $field:ident) => {
            (
                $kind,
                defs(old.$field.iter(), |x| &x.id),
                defs(new.$field.iter(), |x| &x.id),
            )
        };
    }
    let each = [
        both!("zone", zones),
        (
            "place",
            defs(old.places.iter().map(|p| &p.def), |d| &d.id),
            defs(new.places.iter().map(|p| &p.def), |d| &d.id),
        ),
        both!("piece", pieces),
        both!("box", boxes),
        both!("counter", counters),
        both!("seat", seats),
        both!("scenario", scenarios),
    ];
    for (kind, before, after) in each {
        let name = |id: &str| match new.name_of(kind, id) {
            same if same == id => old.name_of(kind, id),
            name => name,
        };
        compare_ids(&mut out, kind, name, before.into_iter(), after.into_iter());
    }
    out.extend(script_changes(old, new));
    out
}

/// Cards added, removed, or changed (by name, text and each field's value).
fn card_changes(old: &Module, new: &Module) -> Vec<String> {
    let mut out = Vec::new();
    for card in new.cards.iter() {
        let Some(before) = old.cards.get(card.id.as_str()) else {
            out.push(format!("{} (card) added", card.name));
            continue;
        };
        let mut what = Vec::new();
        if before.name != card.name {
            what.push(format!("name {} → {}", before.name, card.name));
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
                what.push(format!("{key} {a} → {b}"));
            }
        }
        if !what.is_empty() {
            out.push(format!("{} (card): {}", card.name, what.join(", ")));
        }
    }
    for card in old
        .cards
        .iter()
        .filter(|c| !new.cards.contains(c.id.as_str()))
    {
        out.push(format!("{} (card) removed", card.name));
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
    name: impl Fn(&str) -> String,
    old: impl Iterator<Item = (String, String)>,
    new: impl Iterator<Item = (String, String)>,
) {
    let old: BTreeMap<String, String> = old.collect();
    let new: BTreeMap<String, String> = new.collect();
    for (id, def) in &new {
        match old.get(id) {
            None => out.push(format!("{} ({kind}) added", name(id))),
            Some(before) if before != def => out.push(format!("{} ({kind}) changed", name(id))),
            Some(_) => {}
        }
    }
    for id in old.keys().filter(|id| !new.contains_key(*id)) {
        out.push(format!("{} ({kind}) removed", name(id)));
    }
}

/// The names of the functions around the lines that differ between two versions of a
/// script (the changed region is what lies between the common first and last lines).
fn changed_functions(old: &str, new: &str) -> Vec<String> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let (prefix, suffix) = common_ends(&a, &b);
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

/// What differs between two tables, one line each (everything: the omniscient view).
pub fn describe_differences(module: &Module, a: &Table, b: &Table) -> Vec<String> {
    describe_seen_differences(module, a, b, None)
}

/// What differs between two tables, one line each, as `eyes` may see it: a card `eyes`
/// may not see is "a hidden card".
pub fn describe_seen_differences(
    module: &Module,
    a: &Table,
    b: &Table,
    eyes: Option<&SeatId>,
) -> Vec<String> {
    let mut out = Vec::new();
    if a.turn != b.turn {
        out.push(format!("turn {} → {}", a.turn, b.turn));
    }
    if a.phase != b.phase {
        out.push(format!("phase {} → {}", a.phase, b.phase));
    }
    let flow = |t: &Table| {
        t.flow
            .iter()
            .map(|f| f.state.clone())
            .collect::<Vec<_>>()
            .join(" > ")
    };
    if flow(a) != flow(b) {
        out.push(format!("the rules' state: {} → {}", flow(a), flow(b)));
    }
    for (id, counter) in &b.counters {
        let name = module.name_of("counter", id.as_str());
        match a.counters.get(id) {
            Some(old) if old.value != counter.value => {
                out.push(format!("{name}: {} → {}", old.value, counter.value))
            }
            None => out.push(format!("{name}: new, {}", counter.value)),
            _ => {}
        }
    }
    zone_changes(module, a, b, eyes, &mut out);
    piece_changes(module, a, b, &mut out);
    box_changes(module, a, b, &mut out);
    var_changes(module, a, b, &mut out);
    if a.seats != b.seats {
        out.push("who plays the seats differs".to_owned());
    }
    if a.result != b.result {
        let end = |t: &Table| match &t.result {
            None => "not over".to_owned(),
            Some(r) if r.winners.is_empty() => format!("a draw ({})", r.text),
            Some(r) => {
                let names: Vec<String> = r.winners.iter().map(|s| module.seat_name(s)).collect();
                format!("won by {} ({})", names.join(" and "), r.text)
            }
        };
        out.push(format!("the game's result: {} → {}", end(a), end(b)));
    }
    if out.is_empty() && a.rng != b.rng {
        out.push("the dice were rolled a different number of times".to_owned());
    }
    if out.is_empty() && a != b {
        out.push("card facing or the rules' own working values differ".to_owned());
    }
    out
}

/// The cards that came to and left each zone; a card `eyes` may not see there is "a
/// hidden card".
fn zone_changes(
    module: &Module,
    a: &Table,
    b: &Table,
    eyes: Option<&SeatId>,
    out: &mut Vec<String>,
) {
    for (id, zone) in &b.zones {
        let empty = crate::table::Zone::new(zone.visibility, zone.owner.clone(), true)
            .shared(zone.shared_with.clone());
        let old = a.zones.get(id).unwrap_or(&empty);
        if old.cards == zone.cards {
            continue;
        }
        let named = |z: &crate::table::Zone, c: &crate::ids::CardId| match z.shows(c, eyes) {
            true => module.name_of("card", c.as_str()),
            false => "a hidden card".to_owned(),
        };
        let gone: Vec<String> = (old.cards.iter())
            .filter(|c| !zone.cards.contains(c))
            .map(|c| named(old, c))
            .collect();
        let came: Vec<String> = (zone.cards.iter())
            .filter(|c| !old.cards.contains(c))
            .map(|c| named(zone, c))
            .collect();
        let zone_name = module.name_of("zone", id.as_str());
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
                out.push(format!("{piece} ({place}): {} → {}", at(x), at(y)));
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
                    "{}: {} {x} → {y}",
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

/// The rules' variables that changed, each by its path down to the value that changed, in
/// words: each key and each value that is an id by the name of what it names ("diplomacy
/// order: Russia, Britain, France → Britain, France, Russia"); at most [`MAX_VAR_LINES`]
/// lines.
fn var_changes(module: &Module, a: &Table, b: &Table, out: &mut Vec<String>) {
    let mut lines = Vec::new();
    value_changes(module, "", Some(&a.vars), Some(&b.vars), &mut lines);
    let more = lines.len().saturating_sub(MAX_VAR_LINES);
    lines.truncate(MAX_VAR_LINES);
    out.extend(lines.into_iter().map(|l| format!("the rules' value {l}")));
    if more > 0 {
        out.push(format!("… and {more} more of the rules' values"));
    }
}

/// How many changed values of the rules a report lists.
const MAX_VAR_LINES: usize = 8;

fn value_changes(
    module: &Module,
    path: &str,
    x: Option<&Value>,
    y: Option<&Value>,
    out: &mut Vec<String>,
) {
    if x == y {
        return;
    }
    if let (Some(Value::Map(x)), Some(Value::Map(y))) = (x, y) {
        for key in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
            let key_words = module.words_of(key);
            let path = if path.is_empty() {
                key_words
            } else {
                format!("{path}, {key_words}")
            };
            value_changes(module, &path, x.get(key), y.get(key), out);
        }
        return;
    }
    let show =
        |v: Option<&Value>| v.map_or_else(|| "nothing".to_owned(), |v| module.value_words(v));
    out.push(format!("{path}: {} → {}", show(x), show(y)));
}

#[cfg(test)]
mod tests {
    use super::{changed_lines, word_change};

    /// The rules' values a reload changed read in words: keys and ids by name.
    #[test]
    fn a_changed_value_of_the_rules_is_said_in_names() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modules/testbed");
        let options = crate::module::LoadOptions {
            overlay: crate::module::OverlayChoice::Off,
            strict: false,
        };
        let module = crate::script::load_module(&dir, &options).expect("the testbed loads");
        let value = |json: &str| crate::value::Value::parse_arg(json);
        let mut lines = Vec::new();
        super::value_changes(
            &module,
            "",
            Some(&value(
                r#"{"round": {"order": ["A", "B"], "last": "one", "over": false}}"#,
            )),
            Some(&value(
                r#"{"round": {"order": ["B", "A"], "last": "two", "over": true}}"#,
            )),
            &mut lines,
        );
        assert_eq!(
            lines,
            [
                "round, last: One → Two",
                "round, order: Alpha, Beta → Beta, Alpha",
                "round, over: no → yes",
            ]
        );
    }

    #[test]
    fn a_changed_line_marks_the_words_that_changed() {
        assert_eq!(
            word_change(
                "Ambush moves the Free Trade issue 10 spaces beyond the line.",
                "Ambush moves the Free Trade issue 7 spaces beyond the line."
            ),
            "Ambush moves the Free Trade issue [10 → 7] spaces beyond the line."
        );
        assert_eq!(
            word_change(
                "Alpha held Red (6), Beta (3).",
                "Alpha held Red (7), Beta (3)."
            ),
            "Alpha held Red ([6 → 7]), Beta (3).",
            "shared punctuation stays outside the mark"
        );
    }

    #[test]
    fn lines_only_one_version_writes_are_said_so() {
        let was = ["Same.".to_owned(), "Gone.".to_owned()];
        let now = ["Same.".to_owned()];
        assert_eq!(changed_lines(&was, &now), ["the log no longer says: Gone."]);
        assert_eq!(changed_lines(&now, &was), ["the log now also says: Gone."]);
        assert!(changed_lines(&was, &was).is_empty());
    }
}
