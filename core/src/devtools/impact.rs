//! What an edit does to a module's recorded games: each recording in `MODULE/tests/` is
//! replayed under a version of the module ([`replay_recordings`]), and two versions' replays
//! are compared ([`impact`]): which recordings now diverge, after which input, whether an
//! input is now refused or a bot now chooses otherwise, and how the end of the game changes.

use std::fmt;
use std::sync::Arc;

use super::recording::{self, Recording};
use super::testing::module_with_overlay;
use crate::module::Module;
use crate::script::LuaRules;
use crate::session::{Actor, Input, Session};
use crate::table::Table;

/// One recording replayed under one version of the module.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// The recording, relative to the module folder ("tests/replays/opening.ron").
    pub file: String,
    /// The recording's inputs in words, as the log's headings say them where this version
    /// accepts them ("First player: Play Region 6").
    pub inputs: Vec<String>,
    /// The log lines the set-up and each input accepted wrote (index 0: the set-up's).
    pub said: Vec<Vec<String>>,
    /// The table's digest after the set-up and after each input replayed.
    pub digests: Vec<u64>,
    /// The first input this version refuses (numbered from 1), and why.
    pub refused: Option<(usize, String)>,
    /// The first bot input whose bot now chooses otherwise (numbered from 1), and what it
    /// chooses.
    pub bot_differs: Option<(usize, String)>,
    /// How the replay ends, in words: the result, or where the game stands.
    pub end: String,
    /// Why the recording could not be replayed at all (it does not read, its overlay does
    /// not load, the game does not start).
    pub error: Option<String>,
}

/// Replays every recording of `module` (`tests/*.ron` and `tests/replays/*.ron`) under it,
/// each with its own overlay fixture if it names one. The overlay is merged by loading the
/// module folder again, so a recording with an overlay replays what the folder holds now.
pub fn replay_recordings(module: &Arc<Module>) -> Vec<Replayed> {
    let paths = match recording::find_recordings(&module.dir) {
        Ok(paths) => paths,
        Err(diagnostics) => {
            return vec![Replayed::failed(
                "tests/".to_owned(),
                format!("the recordings cannot be listed: {diagnostics}"),
            )];
        }
    };
    paths
        .iter()
        .map(|path| {
            let file = recording::relative(&module.dir, path);
            match Recording::read(path) {
                Ok(rec) => replay_one(module, file, &rec),
                Err(diagnostic) => Replayed::failed(file, diagnostic.to_string()),
            }
        })
        .collect()
}

impl Replayed {
    fn failed(file: String, error: String) -> Replayed {
        Replayed {
            file,
            inputs: Vec::new(),
            said: Vec::new(),
            digests: Vec::new(),
            refused: None,
            bot_differs: None,
            end: String::new(),
            error: Some(error),
        }
    }
}

fn replay_one(module: &Arc<Module>, file: String, rec: &Recording) -> Replayed {
    let module = match &rec.overlay {
        Some(overlay) => match module_with_overlay(module, overlay) {
            Ok(with) => with,
            Err(why) => return Replayed::failed(file, why),
        },
        None => module.clone(),
    };
    let session = LuaRules::boxed(&module)
        .map_err(|e| format!("the rules do not load: {e}"))
        .and_then(|rules| {
            Session::new(module.clone(), rec.spec(), rules)
                .map_err(|e| format!("the game does not start: {e}"))
        });
    let mut session = match session {
        Ok(session) => session,
        Err(why) => return Replayed::failed(file, why),
    };
    let mut replayed = Replayed {
        file,
        inputs: rec.inputs.iter().map(Input::to_string).collect(),
        said: vec![said(&session, 0)],
        digests: vec![session.table().digest()],
        refused: None,
        bot_differs: None,
        end: String::new(),
        error: None,
    };
    for (i, input) in rec.inputs.iter().enumerate() {
        if rec.check_bots
            && replayed.bot_differs.is_none()
            && let Input::Act {
                seat: Some(seat),
                choice,
                by: Actor::Bot { name, .. },
                ..
            } = input
        {
            match session.bot_preview(Some(name), Some(seat)) {
                Ok(Some(pick)) if pick.choice != *choice => {
                    let (now, was) = (
                        choice_words(&session, seat, &pick.choice),
                        choice_words(&session, seat, choice),
                    );
                    replayed.bot_differs = Some((
                        i + 1,
                        format!(
                            "{}'s bot now chooses {now}, not {was}",
                            module.seat_name(seat)
                        ),
                    ));
                }
                Err(err) => {
                    let seat = module.seat_name(seat);
                    replayed.bot_differs = Some((i + 1, format!("{seat}'s bot fails: {err}")));
                }
                _ => {}
            }
        }
        if let Err(err) = session.apply(input.clone()) {
            replayed.refused = Some((i + 1, err.to_string()));
            break;
        }
        replayed.digests.push(session.table().digest());
        if let Some(entry) = session.log_entry(i + 1) {
            replayed.inputs[i] = without_number(&entry.heading(&module));
        }
        replayed.said.push(said(&session, i + 1));
    }
    replayed.end = describe_end(&module, session.table());
    replayed
}

/// The lines log entry `n` of `session` shows to everybody.
fn said(session: &Session, n: usize) -> Vec<String> {
    let everybody = crate::ids::SeatId::spectator();
    session.log_entry(n).map_or_else(Vec::new, |entry| {
        let entry = entry.seen_by(Some(&everybody));
        entry.messages.into_iter().map(|l| l.text).collect()
    })
}

/// A log heading without its number: "#3 Beta: Bid 2" → "Beta: Bid 2".
fn without_number(heading: &str) -> String {
    match heading.split_once(' ') {
        Some((number, rest)) if number.starts_with('#') => rest.to_owned(),
        _ => heading.to_owned(),
    }
}

/// A choice in words: the label of the action of `seat`'s ask that admits it, else the
/// choice itself.
fn choice_words(
    session: &Session,
    seat: &crate::ids::SeatId,
    choice: &crate::rules::Choice,
) -> String {
    let label = session
        .prompt()
        .as_ref()
        .ok()
        .and_then(Option::as_ref)
        .and_then(|prompt| {
            let ask = prompt.asks.iter().find(|a| a.seat.as_ref() == Some(seat))?;
            let action = ask.actions.iter().find(|a| a.admits(choice))?;
            (!action.label.is_empty()).then(|| action.label.clone())
        });
    label.map_or_else(|| format!("'{choice}'"), |l| format!("\"{l}\""))
}

/// How a game stands, in words: its result, or its turn, phase and state.
fn describe_end(module: &Module, table: &Table) -> String {
    let scores = |table: &Table| -> String {
        let scores = match &table.result {
            Some(result) => &result.scores,
            None => return String::new(),
        };
        scores
            .iter()
            .map(|(seat, n)| format!("{} {n}", module.seat_name(seat)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &table.result {
        Some(result) if result.winners.is_empty() => format!("a draw ({})", scores(table)),
        Some(result) => format!(
            "won by {} ({})",
            result
                .winners
                .iter()
                .map(|s| module.seat_name(s))
                .collect::<Vec<_>>()
                .join(" and "),
            scores(table)
        ),
        None => format!(
            "not over: turn {}, {}, state '{}'",
            table.turn,
            table.phase,
            table.top_frame().map_or("", |f| f.state.as_str())
        ),
    }
}

/// What changed for one recording between two versions.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordingImpact {
    /// The recording.
    pub file: String,
    /// How many inputs it has.
    pub inputs: usize,
    /// After how many inputs the two versions' tables first differ (0: the set-up), and
    /// that input in words.
    pub diverges: Option<(usize, String)>,
    /// What the log says otherwise there, in words (see [`crate::session::changed_lines`]).
    pub said: Vec<String>,
    /// The first input the new version refuses, and why.
    pub refused: Option<(usize, String)>,
    /// The first bot input whose bot chooses otherwise under the new version (and not
    /// under the old one).
    pub bot_differs: Option<(usize, String)>,
    /// The end under the old version and under the new one, when they differ.
    pub end: Option<(String, String)>,
    /// A recording only one version has, or one that cannot be replayed.
    pub note: Option<String>,
}

impl RecordingImpact {
    /// Whether the edit changed anything in this recording.
    pub fn changed(&self) -> bool {
        self.diverges.is_some()
            || self.refused.is_some()
            || self.bot_differs.is_some()
            || self.end.is_some()
            || self.note.is_some()
    }
}

/// Compares the replays of the same recordings under an old and a new version.
pub fn impact(old: &[Replayed], new: &[Replayed]) -> Vec<RecordingImpact> {
    let mut out = Vec::new();
    for n in new {
        let mut line = RecordingImpact {
            file: n.file.clone(),
            inputs: n.inputs.len(),
            diverges: None,
            said: Vec::new(),
            refused: n.refused.clone(),
            bot_differs: None,
            end: None,
            note: None,
        };
        let Some(o) = old.iter().find(|o| o.file == n.file) else {
            line.note = Some("new: the old version had no such recording".to_owned());
            out.push(line);
            continue;
        };
        match (&o.error, &n.error) {
            (_, Some(why)) => line.note = Some(format!("cannot be replayed: {why}")),
            (Some(why), None) => {
                line.note = Some(format!(
                    "could not be replayed under the old version: {why}"
                ))
            }
            (None, None) => {
                // Where both replays got to; an input one version refuses is reported
                // as refused, not as a divergence.
                let first = o.digests.iter().zip(&n.digests).position(|(a, b)| a != b);
                line.diverges = first.map(|k| {
                    let input = k
                        .checked_sub(1)
                        .and_then(|i| n.inputs.get(i))
                        .cloned()
                        .unwrap_or_default();
                    (k, input)
                });
                if let Some((k, _)) = line.diverges
                    && let (Some(was), Some(now)) = (o.said.get(k), n.said.get(k))
                {
                    line.said = crate::session::changed_lines(was, now);
                }
                if o.refused == n.refused {
                    line.refused = None;
                }
                if let (Some((k, _)), None) = (&o.refused, &n.refused) {
                    line.note = Some(format!(
                        "the old version refused input {k}; the new one accepts it"
                    ));
                }
                if n.bot_differs != o.bot_differs {
                    line.bot_differs = n.bot_differs.clone();
                }
                if o.end != n.end {
                    line.end = Some((o.end.clone(), n.end.clone()));
                }
            }
        }
        out.push(line);
    }
    for o in old.iter().filter(|o| !new.iter().any(|n| n.file == o.file)) {
        out.push(RecordingImpact {
            file: o.file.clone(),
            inputs: o.inputs.len(),
            diverges: None,
            said: Vec::new(),
            refused: None,
            bot_differs: None,
            end: None,
            note: Some("removed: the new version has no such recording".to_owned()),
        });
    }
    out
}

/// The impact on every recording, as lines a person reads.
pub struct ImpactReport<'a>(pub &'a [RecordingImpact]);

impl fmt::Display for ImpactReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return writeln!(
                f,
                "The module has no recorded games (tests/*.ron, tests/replays/*.ron)."
            );
        }
        let changed = self.0.iter().filter(|r| r.changed()).count();
        writeln!(
            f,
            "Recorded games: {changed} of {} changed by this edit.",
            self.0.len()
        )?;
        for r in self.0 {
            if !r.changed() {
                writeln!(f, "  {}: the same ({} inputs).", r.file, r.inputs)?;
                continue;
            }
            writeln!(f, "  {}:", r.file)?;
            if let Some(note) = &r.note {
                writeln!(f, "    {note}")?;
            }
            match &r.diverges {
                Some((0, _)) => writeln!(f, "    differs from the set-up on")?,
                Some((k, input)) => writeln!(
                    f,
                    "    first differs at input {k} of {} ({input})",
                    r.inputs
                )?,
                None => {}
            }
            for line in &r.said {
                writeln!(f, "      {line}")?;
            }
            if let Some((k, why)) = &r.refused {
                writeln!(f, "    input {k} is now refused: {why}")?;
            }
            if let Some((k, what)) = &r.bot_differs {
                writeln!(f, "    at input {k}, {what}")?;
            }
            if let Some((old, new)) = &r.end {
                writeln!(f, "    end: {old} → {new}")?;
            }
        }
        Ok(())
    }
}
