//! Saves: a game as versioned, human-readable RON — the module it was played with, the
//! scenario, seed, seats and options, every input, and a snapshot of the table — written
//! atomically so that a crash never leaves half a save.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ids::{ScenarioId, SeatId};
use crate::module::Module;
use crate::redact::Redaction;
use crate::script::LuaRules;
use crate::session::{GameSpec, Input, LogEntry, RebaseReport, Session, SessionError};
use crate::table::{Controller, DiceMode, Table};
use crate::value::Value;

/// The save format this version writes and reads.
pub const SAVE_FORMAT: u32 = 1;

/// The largest save Chancery reads, in bytes (a game of a million inputs is far smaller).
pub const MAX_SAVE_BYTES: u64 = 512 * 1024 * 1024;

/// Which module a save was played with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedModule {
    /// The module's id.
    pub id: String,
    /// Its version.
    pub version: String,
    /// The folder it was loaded from.
    pub dir: String,
    /// The fingerprint of its files then, with the overlay's values (a redacted save: of
    /// its own files alone).
    pub fingerprint: u64,
    /// The fingerprint of the module's own files then, without any overlay (0 in a save
    /// written before it was kept): a game whose only change is the owner's values entered
    /// since is not reported as played under a changed module.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub files: u64,
    /// The owner's overlay it was loaded with (absolute), which later commands use again
    /// unless told otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlay: Option<String>,
    /// Whether the game played the module's demo values (`--demo`); opened again, it plays
    /// them again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub demo: bool,
}

/// A save file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Save")]
pub struct SaveFile {
    /// The format version.
    pub format: u32,
    /// The module.
    pub module: SavedModule,
    /// The scenario.
    pub scenario: ScenarioId,
    /// The seed.
    pub seed: u64,
    /// Who played each seat at the start.
    pub seats: BTreeMap<SeatId, Controller>,
    /// Options given to setup.
    pub options: Value,
    /// Dice at the start.
    pub dice: DiceMode,
    /// Die results given to the set-up (physical dice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_dice: Vec<i64>,
    /// Every input, in order.
    pub inputs: Vec<Input>,
    /// Undone inputs, the next to redo last.
    pub redo: Vec<Input>,
    /// The log as it was when saved.
    pub log: Vec<LogEntry>,
    /// The table when saved.
    pub table: Table,
    /// Set in a redacted save (one seat's view of a game, to mail to it): the table the
    /// game goes on from, and what was left out. Its inputs are those played since, and
    /// its log's first entry is the past as the seat may read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<Redacted>,
}

/// What makes a save redacted: see [`crate::redact`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Redacted {
    /// What was left out, and for which seat.
    pub redaction: Redaction,
    /// The table as the seat may know it, which the game goes on from.
    pub start: Table,
}

/// Why a save could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The file is not a save this version can read.
    #[error("{path}:{line}:{col}: {message}")]
    Format {
        /// The file.
        path: String,
        /// Line of the problem.
        line: usize,
        /// Column of the problem.
        col: usize,
        /// What is wrong.
        message: String,
    },
    /// The game could not be rebuilt.
    #[error("{path}: {source}")]
    Session {
        /// The file.
        path: String,
        /// Why.
        source: SessionError,
    },
}

impl SaveFile {
    /// The load options to restore the game with: `asked`, except that where no overlay was
    /// asked for (the default), the overlay the game was saved with (read, but not written
    /// unless the person names it: a save may come from someone else).
    pub fn load_options(&self, asked: &crate::module::LoadOptions) -> crate::module::LoadOptions {
        match (&asked.overlay, &self.module.overlay) {
            (crate::module::OverlayChoice::Default, _) if self.module.demo => {
                crate::module::LoadOptions {
                    overlay: crate::module::OverlayChoice::Demo,
                    strict: asked.strict,
                }
            }
            // The person's own default overlay, named by a save they made: theirs to write.
            (crate::module::OverlayChoice::Default, Some(path))
                if crate::module::default_overlay_path(&self.module.id)
                    .is_some_and(|own| crate::files::same_file(&own, Path::new(path))) =>
            {
                asked.clone()
            }
            (crate::module::OverlayChoice::Default, Some(path)) => crate::module::LoadOptions {
                overlay: crate::module::OverlayChoice::NamedBySave(PathBuf::from(path)),
                strict: asked.strict,
            },
            _ => asked.clone(),
        }
    }

    /// The save of `session`.
    pub fn of(session: &Session) -> SaveFile {
        let module = session.module();
        let spec = session.spec();
        SaveFile {
            format: SAVE_FORMAT,
            module: SavedModule {
                id: module.id().to_owned(),
                version: module.manifest.version.clone(),
                // Absolute, so that the save finds its module from any folder.
                dir: std::path::absolute(&module.dir)
                    .unwrap_or_else(|_| module.dir.clone())
                    .display()
                    .to_string(),
                // A seat's redacted game names the module's own files: its player reads
                // them with an overlay of his own.
                fingerprint: match session.redaction() {
                    Some(_) => module.files_fingerprint,
                    None => module.fingerprint,
                },
                files: module.files_fingerprint,
                overlay: module.overlay.as_ref().map(|o| {
                    std::path::absolute(&o.path)
                        .unwrap_or_else(|_| o.path.clone())
                        .display()
                        .to_string()
                }),
                demo: module.is_demo(),
            },
            scenario: spec.scenario.clone(),
            seed: spec.seed,
            seats: spec.seats.clone(),
            options: spec.options.clone(),
            dice: spec.dice,
            setup_dice: spec.setup_dice.clone(),
            // The whole game, with the inputs a reloaded module held back.
            inputs: session.history().game_inputs().cloned().collect(),
            redo: session.history().undone().to_vec(),
            // A bot's reasons are kept once, with its input.
            log: session
                .log()
                .into_iter()
                .map(|entry| LogEntry {
                    reason: Vec::new(),
                    ..entry
                })
                .collect(),
            table: session.table().clone(),
            redacted: session.redaction().map(|redaction| Redacted {
                redaction: redaction.clone(),
                start: session.history().start().clone(),
            }),
        }
    }

    /// The save for `seat` alone of the game this save holds (read whole: an umpire's): the
    /// table as the seat may know it, `past` (the log as it may read it, in words) as its
    /// log, and none of the game's inputs. See [`crate::redact`].
    /// `files_fingerprint` is the module's [`Module::files_fingerprint`].
    pub fn redacted_for(
        &self,
        seat: &SeatId,
        past: Vec<crate::rules::LogLine>,
        files_fingerprint: u64,
    ) -> SaveFile {
        let (table, redaction) = crate::redact::redact_table(&self.table, seat);
        // The module by its name and version, not by a folder on the umpire's disk; the
        // umpire's overlay is on the umpire's machine: the player reads his own.
        let module = SavedModule {
            dir: self.module.id.clone(),
            fingerprint: files_fingerprint,
            overlay: None,
            ..self.module.clone()
        };
        SaveFile {
            module,
            seed: 0,
            setup_dice: Vec::new(),
            inputs: Vec::new(),
            redo: Vec::new(),
            log: vec![LogEntry {
                index: 0,
                input: String::new(),
                by: String::new(),
                reason: Vec::new(),
                messages: past,
                seat: None,
                secret: false,
                label: None,
                shown: None,
                turn: table.turn,
                readers: Vec::new(),
            }],
            redacted: Some(Redacted {
                redaction,
                start: table.clone(),
            }),
            table,
            ..self.clone()
        }
    }

    /// The save as RON text.
    pub fn to_ron(&self) -> Result<String, String> {
        let mut bytes = Vec::new();
        self.write_ron(&mut bytes).map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|e| e.to_string())
    }

    /// Writes the save as RON text into `out`, a piece at a time.
    fn write_ron(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(true)
            .depth_limit(6);
        writeln!(
            out,
            "// A Chancery save (format {SAVE_FORMAT}): the inputs replay the game; the table is a snapshot."
        )?;
        let mut adapter = IoAsFmt { out, failed: None };
        let written = ron::ser::to_writer_pretty(&mut adapter, self, config);
        if let Some(failed) = adapter.failed.take() {
            return Err(failed);
        }
        written.map_err(|e| std::io::Error::other(e.to_string()))?;
        writeln!(adapter.out)
    }

    /// Writes the save to `path` atomically (a regular file only: see [`crate::files::write_atomic`]).
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        self.write_with(path, true)
    }

    /// Writes the save to `path` atomically, only if no file is there yet.
    pub fn write_new(&self, path: &Path) -> Result<(), SaveError> {
        self.write_with(path, false)
    }

    /// Writes the save a piece at a time (never the whole text in memory), and refuses one
    /// larger than [`MAX_SAVE_BYTES`], which Chancery could not read back, before it takes
    /// the place of anything: the file at `path` stays as it was.
    fn write_with(&self, path: &Path, replace: bool) -> Result<(), SaveError> {
        self.write_limited(path, replace, MAX_SAVE_BYTES)
    }

    /// [`SaveFile::write_with`] with a limit of `max_bytes`.
    fn write_limited(&self, path: &Path, replace: bool, max_bytes: u64) -> Result<(), SaveError> {
        let io = |message: String| SaveError::Io {
            path: path.display().to_string(),
            message,
        };
        let mut too_large = false;
        let written = crate::files::write_streamed(path, replace, &mut |out| {
            let mut limited = Limited {
                out,
                left: max_bytes,
                over: &mut too_large,
            };
            self.write_ron(&mut limited)
        });
        match written {
            Err(_) if too_large => Err(io(format!(
                "the save would be larger than {}, the most Chancery reads back, so it is not written \
                 (the file is as it was): the game has {} inputs; undo the ones that made it so long, \
                 or apply fewer answers",
                crate::files::size_text(max_bytes),
                self.inputs.len()
            ))),
            Err(e) => Err(io(e.to_string())),
            Ok(()) => Ok(()),
        }
    }

    /// Reads a save from `path`.
    pub fn read(path: &Path) -> Result<SaveFile, SaveError> {
        let shown = path.display().to_string();
        let text = crate::files::read_text(path, &shown, MAX_SAVE_BYTES, "a save is a file")
            .map_err(|e| match e.position {
                Some((line, col)) => SaveError::Format {
                    path: shown.clone(),
                    line,
                    col,
                    message: e.message,
                },
                None => SaveError::Io {
                    path: shown.clone(),
                    message: format!("cannot read the save: {}", e.message),
                },
            })?;
        let format_error = |line, col, message: String| SaveError::Format {
            path: shown.clone(),
            line,
            col,
            message,
        };
        #[derive(Deserialize)]
        #[serde(rename = "Save")]
        struct Header {
            format: u32,
        }
        let options = ron::Options::default();
        let header: Result<Header, _> = options.from_str(&text);
        if let Ok(header) = header
            && header.format != SAVE_FORMAT
        {
            return Err(format_error(
                1,
                1,
                format!(
                    "save format {} is not one this Chancery reads (it reads format {SAVE_FORMAT})",
                    header.format
                ),
            ));
        }
        let mut save = ron::from_str::<SaveFile>(&text).map_err(|e| {
            format_error(
                e.span.start.line,
                e.span.start.col,
                format!("not a Chancery save: {}", e.code),
            )
        })?;
        save.restore_reasons();
        if let Some(seat) = save
            .seat_ids()
            .find(|s| !crate::ids::is_seat_id(s.as_str()))
        {
            let quoted = format!("{:?}", seat.as_str());
            let (line, col) = text
                .find(&quoted)
                .map(|at| {
                    let before = &text[..at];
                    let line = before.matches('\n').count() + 1;
                    let col = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
                    (line, col)
                })
                .unwrap_or((1, 1));
            return Err(format_error(
                line,
                col,
                format!(
                    "seat {quoted} is not a plain name other than 'public' (letters, digits, '_', '-', '.'): no module names a seat so, and files are named after seats"
                ),
            ));
        }
        Ok(save)
    }

    /// Every seat id the save names: its seats, the table's, the umpire and a redacted save's
    /// seat.
    fn seat_ids(&self) -> impl Iterator<Item = &SeatId> {
        self.seats
            .keys()
            .chain(self.table.seats.keys())
            .chain(self.table.umpire.iter())
            .chain(self.redacted.iter().map(|r| &r.redaction.seat))
    }

    /// Puts each bot's reasons back into the log from its input, where the save keeps them.
    fn restore_reasons(&mut self) {
        for entry in &mut self.log {
            if entry.reason.is_empty()
                && let Some(input) = entry.index.checked_sub(1).and_then(|i| self.inputs.get(i))
            {
                entry.reason = input.reasons().to_vec();
            }
        }
    }

    /// The spec the game was started from.
    pub fn spec(&self) -> GameSpec {
        GameSpec {
            scenario: self.scenario.clone(),
            seed: self.seed,
            seats: self.seats.clone(),
            options: self.options.clone(),
            dice: self.dice,
            setup_dice: self.setup_dice.clone(),
        }
    }

    /// Rebuilds the game under `module` by replaying the inputs. If `module` is not the
    /// version the game was saved with, or the replay differs from the saved table, the
    /// report says where; otherwise it is `None`.
    pub fn restore(
        &self,
        module: Arc<Module>,
        path: &Path,
    ) -> Result<(Session, Option<RebaseReport>), SaveError> {
        let session_error = |source| SaveError::Session {
            path: path.display().to_string(),
            source,
        };
        let rules = LuaRules::boxed(&module).map_err(|e| session_error(e.into()))?;
        let mut session = match &self.redacted {
            // One seat's view goes on from its table, with its past as its log.
            Some(redacted) => {
                let past = self
                    .log
                    .first()
                    .map(|e| e.messages.clone())
                    .unwrap_or_default();
                Ok(Session::resume(
                    module.clone(),
                    self.spec(),
                    rules,
                    (redacted.start.clone(), redacted.redaction.clone()),
                    past,
                ))
            }
            None => Session::new(module.clone(), self.spec(), rules),
        }
        .map_err(session_error)?;
        let mut refused = None;
        for (i, input) in self.inputs.iter().enumerate() {
            if let Err(err) = session.apply(input.clone()) {
                refused = Some((i + 1, err.to_string()));
                break;
            }
        }
        let replayed = session.history().len();
        session.push_redo(self.redo.clone());
        session.hold(self.inputs[replayed..].iter().rev().cloned());
        let same = refused.is_none() && session.table() == &self.table;
        // A redacted save names the module's own files (see `redacted_for`).
        let fingerprint = match self.redacted {
            Some(_) => module.files_fingerprint,
            None => module.fingerprint,
        };
        // The module's own files as they were: what differs is the owner's values, entered
        // since (a value a rule asked for), which the game was waiting on.
        let files_same = self.module.files != 0 && self.module.files == module.files_fingerprint;
        if same && (fingerprint == self.module.fingerprint || files_same) {
            return Ok((session, None));
        }
        let divergence = (!same).then(|| {
            let after = replayed;
            crate::session::Divergence {
                after,
                input: self
                    .inputs
                    .get(after.saturating_sub(1))
                    .map(|i| i.to_string())
                    .unwrap_or_default(),
                played: None,
                replayed: None,
                tables: Box::new((self.table.clone(), session.table().clone())),
                refused: None,
            }
        });
        let changes = if fingerprint == self.module.fingerprint {
            Vec::new()
        } else if files_same {
            vec!["values entered in the owner's overlay since the game was saved".to_owned()]
        } else {
            vec![format!(
                "the module's files differ from those the game was saved with (saved with version {})",
                self.module.version
            )]
        };
        let report = RebaseReport {
            changes,
            replayed,
            total: self.inputs.len(),
            divergence,
            refused,
            restored: 0,
        };
        Ok((session, Some(report)))
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A writer that refuses to write more than `left` bytes, noting in `over` that it did.
struct Limited<'a> {
    out: &'a mut dyn std::io::Write,
    left: u64,
    over: &'a mut bool,
}

impl std::io::Write for Limited<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() as u64 > self.left {
            *self.over = true;
            return Err(std::io::Error::other("the file grew past its limit"));
        }
        let n = self.out.write(buf)?;
        self.left -= n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// RON's serializer writes text (`fmt::Write`); this hands it to an `io::Write`, keeping the
/// first I/O error (which `fmt::Error` cannot carry).
struct IoAsFmt<'a> {
    out: &'a mut dyn std::io::Write,
    failed: Option<std::io::Error>,
}

impl std::fmt::Write for IoAsFmt<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.failed.is_some() {
            return Err(std::fmt::Error);
        }
        self.out.write_all(s.as_bytes()).map_err(|e| {
            self.failed = Some(e);
            std::fmt::Error
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::LogLine;
    use crate::session::LogEntry;

    /// A save larger than Chancery reads back is refused before it is written: a new file
    /// is not made, and a file already there (the game's own save) stays byte for byte.
    #[test]
    fn a_save_past_the_limit_is_refused_and_nothing_is_replaced() {
        let table = crate::table::Table::new("m", "s".into(), 1);
        let file = super::SaveFile {
            format: super::SAVE_FORMAT,
            module: super::SavedModule {
                id: "m".to_owned(),
                version: "1".to_owned(),
                dir: "m".to_owned(),
                fingerprint: 0,
                files: 0,
                overlay: None,
                demo: false,
            },
            scenario: "s".into(),
            seed: 1,
            seats: Default::default(),
            options: crate::value::Value::Nil,
            dice: crate::table::DiceMode::Digital,
            setup_dice: Vec::new(),
            inputs: Vec::new(),
            redo: Vec::new(),
            log: Vec::new(),
            table,
            redacted: None,
        };
        let dir = tempfile::tempdir().expect("scratch");
        let (new, old) = (dir.path().join("new.ron"), dir.path().join("old.ron"));
        std::fs::write(&old, "the game as it was").expect("write");
        let whole = file.to_ron().expect("the text").len() as u64;
        for (path, replace) in [(&new, false), (&old, true)] {
            let err = file
                .write_limited(path, replace, whole - 1)
                .expect_err("too large")
                .to_string();
            assert!(err.contains("the save would be larger than"), "{err}");
        }
        assert!(!new.exists());
        assert_eq!(
            std::fs::read_to_string(&old).expect("read"),
            "the game as it was"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).expect("list").count(),
            1,
            "no temporary file is left"
        );
        file.write_limited(&new, false, whole)
            .expect("a save of the limit is written");
        assert_eq!(
            std::fs::read_to_string(&new).expect("read"),
            file.to_ron().expect("text")
        );
    }

    /// Public lines are written as plain text (as saves of earlier versions hold them, so
    /// those still read), private lines with their seat; both read back.
    #[test]
    fn log_lines_round_trip_and_old_plain_lines_still_read() {
        let entry = LogEntry {
            index: 1,
            input: "A: commit five".to_owned(),
            by: "human".to_owned(),
            reason: Vec::new(),
            messages: vec![
                LogLine::public("Alpha has chosen, in secret."),
                LogLine {
                    text: "Your favour is 1.".to_owned(),
                    to: Some("A".into()),
                },
            ],
            seat: Some("A".into()),
            secret: true,
            label: Some("Wager Five".to_owned()),
            shown: None,
            turn: 3,
            readers: Vec::new(),
        };
        let config = ron::ser::PrettyConfig::new().struct_names(true);
        let text = ron::ser::to_string_pretty(&entry, config).expect("writes");
        assert!(text.contains("\"Alpha has chosen, in secret.\""), "{text}");
        let back: LogEntry = ron::from_str(&text).expect(&text);
        assert_eq!(back, entry);
        let old =
            r#"LogEntry(index: 2, input: "bid 1", by: "human", reason: [], messages: ["A line."])"#;
        let read: LogEntry = ron::from_str(old).expect("an earlier save's entry reads");
        assert_eq!(read.messages, vec![LogLine::public("A line.")]);
        assert_eq!((read.seat, read.secret, read.turn), (None, false, 0));
    }
}
