//! Play by mail from the command line: `report` (what one seat may know of a turn, as a
//! mail a player can read, or JSON) and `export` (a redacted save: one seat's view of the
//! game, which it can open and try its orders in).

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::bail;
use chancery_core::rules::LogLine;
use chancery_core::save::SaveFile;
use chancery_core::session::{Answer, LogEntry, ORDERS_OF, log_read_by, shortened};
use chancery_core::view::state_json;
use chancery_core::{Input, Module, SeatId, Session, Value};
use clap::Args;

use super::game::{describe_table, refuse_existing_unless};
use crate::games::{OverlayArgs, eyes_for, restore};
use chancery_core::files::same_file;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The saved game (the umpire's, which holds everything; or a seat's redacted save).
    pub save: PathBuf,
    /// The seat the report is for: it holds only what that seat may know. The umpire's
    /// report holds everything.
    #[arg(long, value_name = "SEAT", required_unless_present = "all")]
    pub seat: Option<String>,
    /// Every seat's report and the public one (what every seat may know), one file each in
    /// the folder --out names: SEAT.md (or .json) and public.md.
    #[arg(long, conflicts_with = "seat", requires = "out")]
    pub all: bool,
    /// The turn whose log the report tells (default: the turn the game is on).
    #[arg(long, value_name = "N")]
    pub turn: Option<i64>,
    /// A line under each report's title: the results' standing, say ("Preliminary results:
    /// challenges to the umpire within 24 hours", then "Official results").
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    /// Write JSON instead of Markdown: the turn's log lines and the state JSON as the seat
    /// sees it, with the module's view for it.
    #[arg(long)]
    pub json: bool,
    /// Write the report here (with --all: a folder) instead of printing it; a file that is
    /// there already is kept unless --force.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace files --out names that are there already.
    #[arg(long)]
    pub force: bool,
    /// Overlay flags.
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The umpire's saved game, which holds everything.
    pub save: PathBuf,
    /// The seat the redacted save is for.
    #[arg(long, value_name = "SEAT")]
    pub seat: String,
    /// Where to write it (a file that is there already is kept unless --force).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Replace the file --out names if it is there already.
    #[arg(long)]
    pub force: bool,
    /// Overlay flags.
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

#[derive(Args, Debug)]
pub struct OrdersArgs {
    /// A seat's redacted save, in which its player has tried its orders (or a whole game,
    /// with --seat).
    pub save: PathBuf,
    /// The seat whose answers to write (a redacted save's own seat by default; needed for a
    /// whole game, whose other seats' answers are left out).
    #[arg(long, value_name = "SEAT")]
    pub seat: Option<String>,
    /// Where to write the answers file (default: print it); a file that is there already is
    /// kept unless --force.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace the file --out names if it is there already.
    #[arg(long)]
    pub force: bool,
}

/// The report of `file`'s turn `turn` for `seat` (`None`: the umpire's; the spectator: the
/// public post), as Markdown or JSON.
fn report_text(
    session: &mut Session,
    file: &SaveFile,
    seat: Option<&SeatId>,
    (turn, note): (i64, Option<&str>),
    json: bool,
) -> anyhow::Result<String> {
    let module = session.module().clone();
    let eyes = file.table.eyes(seat).cloned();
    let eyes = eyes.as_ref();
    let entries: Vec<LogEntry> = log_read_by(&session.log(), eyes)
        .into_iter()
        .map(|(_, e)| e)
        .filter(|e| e.turn == turn)
        .collect();
    let view = session
        .view_data(eyes)
        .unwrap_or_else(|e| Value::Str(format!("(the module's view cannot be shown: {e})")));
    let whose = match (seat, eyes) {
        (Some(seat), _) if seat.is_spectator() => "The public report".to_owned(),
        (Some(seat), Some(_)) => format!("{}'s report", module.seat_name(seat)),
        _ => "The umpire's report".to_owned(),
    };
    if json {
        let log: Vec<serde_json::Value> = entries
            .iter()
            .map(|e| {
                serde_json::json!({
                    "index": e.index,
                    "heading": e.shows_heading().then(|| e.heading(&module)),
                    "messages": e.messages.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(),
                })
            })
            .collect();
        let report = serde_json::json!({
            "report": whose,
            "note": note,
            "seat": seat.map(|s| s.as_str()),
            "turn": turn,
            "log": log,
            "state": state_json(session.table(), &[], eyes, &view),
        });
        return Ok(serde_json::to_string_pretty(&report)? + "\n");
    }
    let table = session.table();
    let scenario = module.name_of("scenario", table.scenario.as_str());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {} — {scenario}: {whose}, turn {turn}\n",
        module.manifest.name
    );
    if let Some(note) = note {
        let _ = writeln!(out, "**{}**\n", markdown_line(note));
    }
    if let Some(redacted) = session.redaction() {
        let names = |s: &SeatId| module.seat_name(s);
        let _ = writeln!(out, "*{}*\n", redacted.words(&names));
    }
    let _ = writeln!(out, "## What happened in turn {turn}\n");
    let told: Vec<&LogEntry> = entries
        .iter()
        .filter(|e| e.shows_heading() || !e.messages.is_empty())
        .collect();
    if told.is_empty() {
        let _ = writeln!(out, "Nothing to tell.");
    }
    for entry in told {
        if entry.shows_heading() {
            let _ = writeln!(out, "- **{}**", markdown_line(&entry.heading(&module)));
        }
        for line in &entry.messages {
            let indent = if entry.shows_heading() { "  " } else { "" };
            let _ = writeln!(out, "{indent}- {}", markdown_line(&line.text));
        }
    }
    let _ = writeln!(out, "\n## The table now\n");
    let _ = writeln!(out, "```text\n{}```", describe_table(table, &module, eyes));
    // The module's view is its own words for what a seat knows; without one, the seat's
    // private state is shown, in words too. The umpire's report holds every seat's.
    let private: Vec<(&SeatId, &Value)> = table
        .private
        .iter()
        .filter(|(s, v)| {
            (eyes.is_none() || view.is_nil()) && eyes.is_none_or(|e| e == *s) && !is_empty(v)
        })
        .collect();
    for (s, value) in private {
        let title = match eyes {
            Some(_) => "What is yours alone".to_owned(),
            None => format!("{}'s own", module.seat_name(s)),
        };
        let _ = writeln!(out, "\n## {title}\n");
        out.push_str(&value_in_words(value, &module, 0));
    }
    if !view.is_nil() && !is_empty(&view) {
        let _ = writeln!(out, "\n## Standings\n");
        out.push_str(&value_in_words(&view, &module, 0));
    }
    let _ = writeln!(out, "\n## Waiting for\n");
    out.push_str(&waiting_in_words(session, eyes));
    Ok(out)
}

/// A key of plain data in words, as the module names what it is ([`Module::words_of`]),
/// a capital first ("cv_mod" → "Cv mod", "AU" → "Austria").
fn key_words(module: &Module, key: &str) -> String {
    let words = module.words_of(key);
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => words,
    }
}

/// Plain data as a Markdown list a person reads: each key in words with its value, a
/// nested map or list indented under its key.
fn value_in_words(value: &Value, module: &Module, depth: usize) -> String {
    let indent = "  ".repeat(depth);
    let mut out = String::new();
    let scalar = |v: &Value| match v {
        Value::Bool(true) => "yes".to_owned(),
        Value::Bool(false) => "no".to_owned(),
        // A value that is a component's id by its name; any other text as written.
        Value::Str(s) => {
            let named = module.words_of(s);
            markdown_line(match named.replace(' ', "_") == *s {
                true => s,
                false => &named,
            })
        }
        other => markdown_line(&other.to_string()),
    };
    match value {
        Value::Map(map) => {
            for (key, item) in map {
                match item {
                    Value::Map(m) if m.is_empty() => {}
                    Value::List(l) if l.is_empty() => {}
                    Value::Map(_) | Value::List(_) => {
                        let _ =
                            writeln!(out, "{indent}- {}:", markdown_line(&key_words(module, key)));
                        out.push_str(&value_in_words(item, module, depth + 1));
                    }
                    Value::Nil => {}
                    other => {
                        let _ = writeln!(
                            out,
                            "{indent}- {}: {}",
                            markdown_line(&key_words(module, key)),
                            scalar(other)
                        );
                    }
                }
            }
        }
        Value::List(items)
            if items
                .iter()
                .all(|i| !matches!(i, Value::Map(_) | Value::List(_))) =>
        {
            let said: Vec<String> = items.iter().map(scalar).collect();
            let _ = writeln!(out, "{indent}- {}", said.join(", "));
        }
        Value::List(items) => {
            for item in items {
                out.push_str(&value_in_words(item, module, depth));
            }
        }
        Value::Nil => {}
        other => {
            let _ = writeln!(out, "{indent}- {}", scalar(other));
        }
    }
    out
}

/// What the game waits for, as `eyes` may know it, in words: who decides and what (a
/// private decision's question only to its seat), and the seat's own choices when it is the
/// one deciding.
fn waiting_in_words(session: &Session, eyes: Option<&SeatId>) -> String {
    let module = session.module();
    let mut out = String::new();
    let prompt = match session.prompt() {
        Ok(Some(prompt)) => prompt,
        Ok(None) => {
            let _ = writeln!(out, "Nothing: the game is over.");
            return out;
        }
        Err(_) => {
            let _ = writeln!(
                out,
                "The umpire: the game goes on from the umpire's whole save."
            );
            return out;
        }
    };
    let names: Vec<String> = prompt.deciders().map(|s| module.seat_name(s)).collect();
    let who = match names.as_slice() {
        [] => "anyone".to_owned(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let how = match prompt.decision {
        chancery_core::Decision::Simultaneous => ", each in secret",
        chancery_core::Decision::Window => ", each in turn",
        _ => "",
    };
    let _ = writeln!(out, "{who}{how}: {}", markdown_line(prompt.text_for(eyes)));
    if let Some(seat) = eyes.filter(|s| !s.is_spectator())
        && let Ok(ask) = prompt.ask_for(Some(seat))
        && prompt.deciders().any(|d| d == seat)
    {
        let _ = writeln!(out, "\nYour choices:\n");
        for action in &ask.actions {
            let _ = writeln!(out, "- {}", markdown_line(&action.words()));
        }
    }
    out
}

fn is_empty(value: &Value) -> bool {
    value.is_nil() || matches!(value, Value::Map(m) if m.is_empty())
}

/// A line of the log as Markdown shows it as written: the characters Markdown reads as
/// marks escaped.
fn markdown_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '|' | '\\'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The game of `file` (read from `save`), under the module it names.
fn open(
    file: &SaveFile,
    save: &Path,
    overlay: &OverlayArgs,
    err: &mut dyn Write,
) -> anyhow::Result<Session> {
    restore(file, save, None, &overlay.load_options(false), err)
}

/// Writes `text` to `path`, never over a file unless `force`, atomically.
fn write_file(path: &Path, text: &str, force: bool) -> anyhow::Result<()> {
    refuse_existing_unless(path, force)?;
    let written = match force {
        true => chancery_core::files::write_atomic(path, text.as_bytes()),
        false => chancery_core::files::write_new(path, text.as_bytes()),
    };
    written.map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

pub fn report(args: &ReportArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    let file = SaveFile::read(&args.save)?;
    let seat = args.seat.clone().map(SeatId::from);
    if !args.all {
        eyes_for(&file, seat.as_ref())?;
    } else if let Some(redacted) = &file.redacted {
        bail!(
            "this save is seat {}'s redacted view: it has no other seat's report to give; run --all on the umpire's save",
            redacted.redaction.seat
        );
    }
    let mut session = open(&file, &args.save, &args.overlay, err)?;
    let turn = args.turn.unwrap_or(session.table().turn);
    let ext = if args.json { "json" } else { "md" };
    let report = |session: &mut Session, seat: Option<&SeatId>| {
        report_text(
            session,
            &file,
            seat,
            (turn, args.note.as_deref()),
            args.json,
        )
    };
    if !args.all {
        if let Some(path) = &args.out {
            refuse_to_replace(path, &args.save)?;
        }
        let text = report(&mut session, seat.as_ref())?;
        match &args.out {
            Some(path) => {
                write_file(path, &text, args.force)?;
                writeln!(out, "Wrote {}.", path.display())?;
            }
            None => out.write_all(text.as_bytes())?,
        }
        return Ok(0);
    }
    let Some(dir) = &args.out else {
        bail!("--all writes one file per seat: name their folder with --out DIR");
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot make the folder {}: {e}", dir.display()))?;
    // Each report is named after its seat: a seat id is a plain name, not "public"
    // (`ids::is_seat_id`, which reading the save checked), so no report leaves the folder.
    let mut reports: Vec<(PathBuf, Option<SeatId>)> = file
        .table
        .seats
        .keys()
        .map(|s| (dir.join(format!("{s}.{ext}")), Some(s.clone())))
        .collect();
    reports.push((dir.join(format!("public.{ext}")), Some(SeatId::spectator())));
    // Every file is checked before any is written: all the reports or none.
    for (path, _) in &reports {
        refuse_to_replace(path, &args.save)?;
        refuse_existing_unless(path, args.force)?;
    }
    for (path, seat) in &reports {
        let text = report(&mut session, seat.as_ref())?;
        write_file(path, &text, args.force)?;
        let whose = match seat {
            Some(s) if s.is_spectator() => "every seat (the public post)".to_owned(),
            Some(s) if file.table.umpire.as_ref() == Some(s) => {
                format!("{} (the umpire: everything)", session.module().seat_name(s))
            }
            Some(s) => session.module().seat_name(s),
            None => "the umpire".to_owned(),
        };
        writeln!(out, "Wrote {} for {whose}.", path.display())?;
    }
    Ok(0)
}

/// The log as `seat` may read it, in words: each input's heading, then its lines.
fn past_in_words(log: &[LogEntry], module: &Module, seat: &SeatId) -> Vec<LogLine> {
    log_read_by(log, Some(seat))
        .into_iter()
        .flat_map(|(_, e)| {
            let head = e
                .shows_heading()
                .then(|| LogLine::public(format!("(turn {}) {}", e.turn, e.heading(module))));
            let indent = if e.shows_heading() { "   " } else { "" };
            let body: Vec<LogLine> = e
                .messages
                .iter()
                .map(|m| LogLine::public(format!("{indent}{}", m.text)))
                .collect();
            head.into_iter().chain(body)
        })
        .collect()
}

pub fn export(args: &ExportArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    let file = SaveFile::read(&args.save)?;
    let seat = SeatId::from(args.seat.as_str());
    if let Some(redacted) = &file.redacted {
        bail!(
            "{} is already seat {}'s redacted view: export from the umpire's save",
            args.save.display(),
            redacted.redaction.seat
        );
    }
    if eyes_for(&file, Some(&seat))?.is_none() {
        bail!(
            "seat '{seat}' is the umpire, who sees everything: the umpire's save is {} itself",
            args.save.display()
        );
    }
    refuse_to_replace(&args.out, &args.save)?;
    refuse_existing_unless(&args.out, args.force)?;
    let session = open(&file, &args.save, &args.overlay, err)?;
    let module = session.module().clone();
    let past = past_in_words(&session.log(), &module, &seat);
    let redacted = SaveFile::of(&session).redacted_for(&seat, past, module.files_fingerprint);
    let written = match args.force {
        true => redacted.write(&args.out),
        false => redacted.write_new(&args.out),
    };
    written?;
    let names = |s: &SeatId| module.seat_name(s);
    if let Some(r) = &redacted.redacted {
        writeln!(
            out,
            "Wrote {}: {}",
            args.out.display(),
            r.redaction.words(&names)
        )?;
    }
    Ok(0)
}

/// One line of text for a comment: control characters (a line break in a file's name) shown
/// as `?`, so that no comment starts a new line.
fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// `whose` orders played in `file` as an answers file: its `orders of SEAT` line, then each of
/// its answers, one a line, as [`Answer::to_line`] writes it. In a redacted save every
/// answer must be its seat's; in a full save the other seats' answers are left out. Changes
/// by hand are left out (the umpire's to make). Returns the text and the answers written.
fn answers_text(file: &SaveFile, source: &Path, whose: &SeatId) -> anyhow::Result<(String, usize)> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The orders of {whose} from {}, turn {}: check them with `chancery act SAVE --answers FILE --check`",
        comment_text(&source.display().to_string()),
        file.table.turn
    );
    let _ = writeln!(
        out,
        "# on the seat's save; the umpire applies them with `chancery act SAVE --answers FILE`, for {whose} alone."
    );
    let _ = writeln!(out, "{ORDERS_OF}{whose}");
    let mut written = 0;
    let mut by_hand = 0;
    for (i, input) in file.inputs.iter().enumerate() {
        match input {
            Input::Act {
                seat, choice, dice, ..
            } => {
                let seat = seat.as_ref().unwrap_or(whose);
                if seat != whose {
                    if file.redacted.is_some() {
                        bail!(
                            "{}: input {} is marked as seat '{}'s, in {whose}'s redacted save: its orders are {whose}'s alone, \
                             so no orders are written (export the seat's save again and play its orders there)",
                            source.display(),
                            i + 1,
                            shortened(seat.as_str())
                        );
                    }
                    continue;
                }
                let answer = Answer {
                    seat: Some(whose.clone()),
                    name: choice.name.clone(),
                    arg: choice.arg.clone(),
                    dice: dice.clone(),
                    manual: None,
                };
                let Some(line) = answer.to_line() else {
                    bail!(
                        "{}: input {} ('{}') cannot be written as one line that reads back the same; no orders are written",
                        source.display(),
                        i + 1,
                        shortened(&choice.to_string())
                    );
                };
                let _ = writeln!(out, "{line}");
                written += 1;
            }
            Input::Manual { .. } => by_hand += 1,
        }
    }
    if by_hand > 0 {
        let _ = writeln!(
            out,
            "# {by_hand} change(s) by hand are left out: they are the umpire's to make, never a seat's orders."
        );
    }
    Ok((out, written))
}

pub fn orders(args: &OrdersArgs, out: &mut dyn Write) -> anyhow::Result<i32> {
    let file = SaveFile::read(&args.save)?;
    let named = args.seat.clone().map(SeatId::from);
    let whose = match (&file.redacted, named) {
        (Some(r), None) => r.redaction.seat.clone(),
        (Some(r), Some(named)) if named == r.redaction.seat => named,
        (Some(r), Some(named)) => bail!(
            "{} is seat {}'s redacted save: it holds {}'s orders, not {named}'s",
            args.save.display(),
            r.redaction.seat,
            r.redaction.seat
        ),
        (None, Some(named)) => {
            eyes_for(&file, Some(&named))?;
            named
        }
        (None, None) => bail!(
            "{} is a whole game, not one seat's save: name the seat whose orders to write with --seat SEAT",
            args.save.display()
        ),
    };
    if let Some(path) = &args.out {
        refuse_to_replace(path, &args.save)?;
    }
    let (text, written) = answers_text(&file, &args.save, &whose)?;
    match &args.out {
        Some(path) => {
            write_file(path, &text, args.force)?;
            writeln!(out, "Wrote {} ({written} answer(s)).", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(0)
}

/// An error if `out` names the save a command reads: no output of `export`, `orders` or
/// `report` takes the place of the game it was made from, even with --force.
fn refuse_to_replace(out: &Path, save: &Path) -> anyhow::Result<()> {
    if same_file(out, save) {
        bail!(
            "--out {} is the save this command reads: writing there would replace the game, \
             so nothing is written (even with --force). Name another file",
            out.display()
        );
    }
    Ok(())
}
