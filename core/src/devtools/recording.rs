//! Recorded games (golden replays): a scenario, a seed, the seats, options and dice, every
//! input with its dice, and what the table must hold after given inputs and at the end.
//! `chancery test` replays each `MODULE/tests/*.ron` and `MODULE/tests/replays/*.ron` that
//! is a `Recording(…)` and reports the first expected value that differs; `chancery record`
//! writes one from a saved game.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ids::{BoxId, CardId, CounterId, PieceId, ScenarioId, SeatId, UnitKindId, ZoneId};
use crate::module::{Diagnostic, Diagnostics, Module};
use crate::script::LuaRules;
use crate::session::{Actor, GameSpec, Input, Session};
use crate::table::{Controller, DiceMode, Table};
use crate::value::Value;

/// A recorded game and what it must show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Recording", deny_unknown_fields)]
pub struct Recording {
    /// The scenario.
    pub scenario: ScenarioId,
    /// The seed of the game's dice.
    pub seed: u64,
    /// Who played each seat (seats not named are human).
    #[serde(default)]
    pub seats: BTreeMap<SeatId, Controller>,
    /// Options handed to setup.
    #[serde(default = "Value::map")]
    pub options: Value,
    /// Digital or physical dice.
    #[serde(default)]
    pub dice: DiceMode,
    /// Die results given to the set-up (physical dice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_dice: Vec<i64>,
    /// Every input, in order, as a save writes them.
    pub inputs: Vec<Input>,
    /// What the table must hold, after given inputs or at the end.
    #[serde(default)]
    pub expect: Vec<Expect>,
    /// Whether each input a bot made must still be what that bot chooses (so that a change
    /// to a bot shows up as well as a change to the rules).
    #[serde(default = "yes")]
    pub check_bots: bool,
    /// An overlay file of the module (a fixture of owner data for tests, by its path in
    /// the module) the game is replayed with, in place of any other overlay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlay: Option<String>,
}

fn yes() -> bool {
    true
}

/// What the table must hold at one point of a recorded game. Only what is written is
/// checked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Expect", deny_unknown_fields)]
pub struct Expect {
    /// After how many inputs (0: right after setup); absent: at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<usize>,
    /// The current state's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// The turn number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<i64>,
    /// The phase name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// Counter values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<CounterId, i64>,
    /// The cards of zones, top first.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub zones: BTreeMap<ZoneId, Vec<CardId>>,
    /// Where pieces stand, as "place/space" (`None`: off the table).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pieces: BTreeMap<PieceId, Option<String>>,
    /// Units in boxes, by kind (a kind written with 0 must be absent).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub units: BTreeMap<BoxId, BTreeMap<UnitKindId, i64>>,
    /// Top-level rule variables.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub vars: BTreeMap<String, Value>,
    /// Seats' private state.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub private: BTreeMap<SeatId, Value>,
    /// Lines the input (or the setup, after 0) wrote, in order (others may come between).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
    /// How the game ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ExpectResult>,
}

/// How a recorded game must end.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Result", deny_unknown_fields)]
pub struct ExpectResult {
    /// The winners (empty: a draw).
    #[serde(default)]
    pub winners: Vec<SeatId>,
    /// Final scores.
    #[serde(default)]
    pub scores: BTreeMap<SeatId, i64>,
}

/// Whether `text` (a `.ron` file) is a recording rather than another kind of file (a save,
/// an overlay fixture): its first word outside comments and RON's `#![enable(…)]` lines is
/// `Recording`.
pub fn is_recording(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#!"))
        .is_some_and(|l| l.starts_with("Recording"))
}

/// The recordings of a module: `tests/*.ron` and `tests/replays/*.ron` that are recordings,
/// in path order.
pub fn find_recordings(dir: &Path) -> Result<Vec<PathBuf>, Diagnostics> {
    let mut found = Vec::new();
    for folder in [dir.join("tests"), dir.join("tests").join("replays")] {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.extension().is_none_or(|x| x != "ron") {
                continue;
            }
            let (_, text) = crate::files::read_inside(dir, &relative(dir, &path)).map_err(|e| {
                let (line, col) = e.position.unwrap_or((0, 0));
                Diagnostics(vec![Diagnostic::error(&path, line, col, e.message)])
            })?;
            if is_recording(&text) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// `path` relative to the module folder `dir`, for names ("tests/replays/opening.ron").
pub fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

impl Recording {
    /// Reads a recording; a mistake is a diagnostic at its line and column.
    pub fn read(path: &Path) -> Result<Recording, Diagnostic> {
        let text = crate::files::read_file(
            path,
            crate::files::MAX_MODULE_FILE_BYTES,
            "a recorded game is a file of the module",
        )
        .map_err(|e| {
            let (line, col) = e.position.unwrap_or((0, 0));
            Diagnostic::error(path, line, col, e.message)
        })?;
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        options.from_str(&text).map_err(|e| {
            Diagnostic::error(
                path,
                e.span.start.line,
                e.span.start.col,
                format!("not a recording: {}", e.code),
            )
        })
    }

    /// The spec the game starts from.
    pub fn spec(&self) -> GameSpec {
        GameSpec {
            scenario: self.scenario.clone(),
            seed: self.seed,
            seats: self.seats.clone(),
            options: if self.options.is_nil() {
                Value::map()
            } else {
                self.options.clone()
            },
            dice: self.dice,
            setup_dice: self.setup_dice.clone(),
        }
    }

    /// A recording of `session`'s game: its inputs, and everything on the table at the end
    /// (and after every `every` inputs, if given) as what it must show.
    pub fn of(session: &mut Session, every: Option<usize>) -> Recording {
        let spec = session.spec().clone();
        let inputs: Vec<Input> = session
            .history()
            .records()
            .iter()
            .map(|r| r.input.clone())
            .collect();
        let mut expect = Vec::new();
        if let Some(every) = every.filter(|n| *n > 0) {
            for after in (every..inputs.len()).step_by(every) {
                let mut snapshot = Expect::of(&session.table_at(after));
                snapshot.after = Some(after);
                expect.push(snapshot);
            }
        }
        expect.push(Expect::of(session.table()));
        Recording {
            scenario: spec.scenario,
            seed: spec.seed,
            seats: spec.seats,
            options: spec.options,
            dice: spec.dice,
            setup_dice: spec.setup_dice,
            inputs,
            expect,
            check_bots: true,
            overlay: None,
        }
    }

    /// The recording as RON text, after a header comment (each line of `header` becomes a
    /// `//` line).
    pub fn to_ron(&self, header: &str) -> Result<String, String> {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(true)
            .depth_limit(3)
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        let body = ron::ser::to_string_pretty(self, config).map_err(|e| e.to_string())?;
        let comment: String = header.lines().map(|l| format!("// {l}\n")).collect();
        Ok(format!("{comment}{body}\n"))
    }

    /// Replays the recording under `module` and checks every expectation (and, with
    /// `check_bots`, every bot's choice). The error names the input and the first expected
    /// value that differs.
    pub fn check(&self, module: &Arc<Module>) -> Result<(), String> {
        let rules = LuaRules::boxed(module).map_err(|e| format!("the rules do not load: {e}"))?;
        let mut session = Session::new(module.clone(), self.spec(), rules)
            .map_err(|e| format!("the game does not start: {e}"))?;
        session.check_every_step = true;
        // In the order they come due; each step looks only at those due then (a game of
        // many inputs is checked in time linear in its length).
        let mut pending: std::collections::VecDeque<&Expect> = {
            let mut sorted: Vec<&Expect> = self.expect.iter().collect();
            sorted.sort_by_key(|e| e.after.unwrap_or(usize::MAX));
            sorted.into()
        };
        let check_at =
            |n: usize, session: &Session, pending: &mut std::collections::VecDeque<&Expect>| {
                while let Some(expect) = pending
                    .front()
                    .copied()
                    .filter(|e| e.after.is_some_and(|a| a <= n))
                {
                    pending.pop_front();
                    if expect.after != Some(n) {
                        continue;
                    }
                    let entry = session.log_entry(n);
                    let lines = entry.as_ref().map(|e| e.messages.as_slice()).unwrap_or(&[]);
                    expect
                        .compare(session.table(), lines)
                        .map_err(|what| format!("{}: {what}", point(n, &self.inputs)))?;
                }
                Ok::<(), String>(())
            };
        check_at(0, &session, &mut pending)?;
        for (i, input) in self.inputs.iter().enumerate() {
            if self.check_bots
                && let Input::Act {
                    seat: Some(seat),
                    choice,
                    by: Actor::Bot { name, .. },
                    ..
                } = input
            {
                let now = session
                    .bot_preview(Some(name), Some(seat))
                    .map_err(|e| format!("input {} ({input}): bot '{name}' fails: {e}", i + 1))?;
                if let Some(pick) = now.filter(|p| p.choice != *choice) {
                    return Err(format!(
                        "input {} ({input}): bot '{name}' now chooses '{}', the recording has '{choice}'",
                        i + 1,
                        pick.choice
                    ));
                }
            }
            session
                .apply(input.clone())
                .map_err(|e| format!("input {} ({input}) is refused: {e}", i + 1))?;
            check_at(i + 1, &session, &mut pending)?;
        }
        let n = self.inputs.len();
        let entry = session.log_entry(n);
        let lines = entry.as_ref().map(|e| e.messages.as_slice()).unwrap_or(&[]);
        for expect in pending {
            if let Some(after) = expect.after {
                return Err(format!(
                    "an expectation is after input {after}, but the recording has {n} inputs"
                ));
            }
            expect
                .compare(session.table(), lines)
                .map_err(|what| format!("at the end: {what}"))?;
        }
        Ok(())
    }
}

/// "after input 3 (A: bid 2)", or "after setup".
fn point(n: usize, inputs: &[Input]) -> String {
    match n.checked_sub(1).and_then(|i| inputs.get(i)) {
        Some(input) => format!("after input {n} ({input})"),
        None => "after setup".to_owned(),
    }
}

impl Expect {
    /// Everything on `table` as expectations: state, turn, phase, counters, the cards of
    /// every zone that holds some, where every piece on the table stands, units, variables,
    /// private state and the result.
    pub fn of(table: &Table) -> Expect {
        Expect {
            after: None,
            state: table.top_frame().map(|f| f.state.clone()),
            turn: Some(table.turn),
            phase: Some(table.phase.clone()),
            counters: table
                .counters
                .iter()
                .map(|(id, c)| (id.clone(), c.value))
                .collect(),
            zones: table
                .zones
                .iter()
                .filter(|(_, z)| !z.cards.is_empty())
                .map(|(id, z)| (id.clone(), z.cards.clone()))
                .collect(),
            pieces: table
                .places
                .iter()
                .flat_map(|(place, pieces)| {
                    pieces.iter().map(move |(piece, space)| {
                        (piece.clone(), Some(format!("{place}/{space}")))
                    })
                })
                .collect(),
            units: table
                .boxes
                .iter()
                .filter(|(_, units)| !units.is_empty())
                .map(|(id, units)| (id.clone(), units.clone()))
                .collect(),
            vars: match &table.vars {
                Value::Map(m) => m.clone(),
                _ => BTreeMap::new(),
            },
            private: table.private.clone(),
            log: Vec::new(),
            result: table.result.as_ref().map(|r| ExpectResult {
                winners: r.winners.clone(),
                scores: r.scores.clone(),
            }),
        }
    }

    /// Compares with `table` and the lines the last input wrote; the error names the first
    /// value that differs, with both values.
    fn compare(&self, table: &Table, lines: &[crate::rules::LogLine]) -> Result<(), String> {
        let differ = |what: String, actual: String, expected: String| {
            Err(format!("{what} is {actual}, expected {expected}"))
        };
        let state = table.top_frame().map(|f| f.state.clone());
        if let Some(expected) = &self.state
            && state.as_ref() != Some(expected)
        {
            return differ(
                "the state".to_owned(),
                state.map_or("none (the game is over)".to_owned(), |s| format!("'{s}'")),
                format!("'{expected}'"),
            );
        }
        if let Some(turn) = self.turn
            && table.turn != turn
        {
            return differ(
                "the turn".to_owned(),
                table.turn.to_string(),
                turn.to_string(),
            );
        }
        if let Some(phase) = &self.phase
            && table.phase != *phase
        {
            return differ(
                "the phase".to_owned(),
                format!("'{}'", table.phase),
                format!("'{phase}'"),
            );
        }
        self.compare_components(table)?;
        for (key, expected) in &self.vars {
            let actual = table.vars.get(key).cloned().unwrap_or(Value::Nil);
            if actual != *expected {
                return differ(
                    format!("vars.{key}"),
                    actual.to_string(),
                    expected.to_string(),
                );
            }
        }
        for (seat, expected) in &self.private {
            let actual = table.private.get(seat).cloned().unwrap_or_else(Value::map);
            if actual != *expected {
                return differ(
                    format!("private state of {seat}"),
                    actual.to_string(),
                    expected.to_string(),
                );
            }
        }
        let mut rest = lines.iter();
        for expected in &self.log {
            if !rest.any(|l| l.text == *expected) {
                return Err(format!(
                    "the log does not say \"{expected}\" (in that order)"
                ));
            }
        }
        self.compare_result(table)
    }

    /// Compares the counters, zones, pieces and units.
    fn compare_components(&self, table: &Table) -> Result<(), String> {
        let differ = |what: String, actual: String, expected: String| {
            Err(format!("{what} is {actual}, expected {expected}"))
        };
        for (id, expected) in &self.counters {
            let actual = table
                .counter(id)
                .map_err(|_| format!("there is no counter '{id}'"))?;
            if actual != *expected {
                return differ(
                    format!("counter '{id}'"),
                    actual.to_string(),
                    expected.to_string(),
                );
            }
        }
        for (id, expected) in &self.zones {
            let zone = table.zone(id).map_err(|e| e.to_string())?;
            if zone.cards != *expected {
                return differ(format!("zone '{id}'"), cards(&zone.cards), cards(expected));
            }
        }
        for (piece, expected) in &self.pieces {
            let actual = table
                .piece_location(piece)
                .map(|(place, space)| format!("{place}/{space}"));
            if actual != *expected {
                let show =
                    |at: &Option<String>| at.clone().unwrap_or_else(|| "off the table".to_owned());
                return differ(format!("piece '{piece}'"), show(&actual), show(expected));
            }
        }
        for (boxed, kinds) in &self.units {
            for (kind, expected) in kinds {
                let actual = table.units(boxed, kind).map_err(|e| e.to_string())?;
                if actual != *expected {
                    return differ(
                        format!("units of '{kind}' in box '{boxed}'"),
                        actual.to_string(),
                        expected.to_string(),
                    );
                }
            }
        }
        Ok(())
    }

    /// Compares the game's result: its winners and scores.
    fn compare_result(&self, table: &Table) -> Result<(), String> {
        let differ = |what: String, actual: String, expected: String| {
            Err(format!("{what} is {actual}, expected {expected}"))
        };
        if let Some(expected) = &self.result {
            let Some(actual) = &table.result else {
                return Err("the game is not over, but a result is expected".to_owned());
            };
            if actual.winners != expected.winners {
                return differ(
                    "the winners".to_owned(),
                    seats(&actual.winners),
                    seats(&expected.winners),
                );
            }
            if actual.scores != expected.scores {
                return differ(
                    "the scores".to_owned(),
                    format!("{:?}", actual.scores),
                    format!("{:?}", expected.scores),
                );
            }
        }
        Ok(())
    }
}

fn cards(list: &[CardId]) -> String {
    format!(
        "[{}]",
        list.iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn seats(list: &[SeatId]) -> String {
    if list.is_empty() {
        return "none (a draw)".to_owned();
    }
    list.iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
