//! Games from the command line: `new`, `act`, `state`, `replay`, and the headless start.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use chancery_core::devtools::impact::{ImpactReport, impact, replay_recordings};
use chancery_core::devtools::recording::Recording;
use chancery_core::save::SaveFile;
use chancery_core::session::{Answer, AnswersFile, LogEntry, shortened};
use chancery_core::view::state_json;
use chancery_core::{
    DiceMode, LoadOptions, Module, Need, Prompt, RulesError, SeatId, Session, SessionError, Table,
    Value, load_module as load_module_quietly, start_game,
};
use clap::Args;

use crate::games::{
    OpenArgs, OverlayArgs, StartArgs, eyes_for, load_module, open_session, parse_value, restore,
    store_value, value_example, value_type,
};

/// Bot steps run after each answer before giving up (a runaway between bots).
const BOT_STEP_LIMIT: usize = 100_000;

#[derive(Args, Debug)]
pub struct NewArgs {
    /// The module folder.
    pub module: PathBuf,
    /// The scenario, seed, seats and options of the game.
    #[command(flatten)]
    pub start: StartArgs,
    /// Roll physical dice: the rules ask for each result.
    #[arg(long)]
    pub physical_dice: bool,
    /// With physical dice, the results of the dice the set-up rolls, in order
    /// (comma-separated).
    #[arg(long, value_name = "N,N…", value_delimiter = ',')]
    pub dice: Vec<i64>,
    /// Answers to apply after the start, one per line ("[SEAT:] name [arg] [| die die…]",
    /// or a change by hand: "by hand: place PIECE PLACE SPACE", "by hand: move_card CARD
    /// ZONE", "by hand: add_units BOX KIND N"; # starts a comment).
    #[arg(long, value_name = "FILE")]
    pub answers: Option<PathBuf>,
    /// Where to save the game (a file that is there already is kept unless --force).
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
pub struct ActArgs {
    /// The saved game (written back unless --out is given).
    pub save: PathBuf,
    /// The action to take: its number in the list of legal actions, or the action as
    /// `state` and `act` print it, its name then its argument, in one word or two
    /// (`place_army {country: poland, power: AU}`, `bid 2`, or `3`).
    pub action: Option<String>,
    /// The action's argument, as printed (`{country: poland, power: AU}`) or as JSON
    /// (`{"country": "poland", "power": "AU"}`); a negative number is taken as it is (`set -1`).
    #[arg(allow_negative_numbers = true)]
    pub arg: Option<String>,
    /// Die results for the action, with physical dice (comma-separated).
    #[arg(long, value_name = "N,N…", value_delimiter = ',')]
    pub dice: Vec<i64>,
    /// Answers to apply, one per line ("[SEAT:] name [arg] [| die die…]", or a change by
    /// hand such as "by hand: move_card CARD ZONE"; # starts a comment).
    #[arg(long, value_name = "FILE")]
    pub answers: Option<PathBuf>,
    /// Answer as this seat (needed where several seats decide at once, as in a secret
    /// choice); the decision and the log are then shown as that seat may see them.
    #[arg(long, value_name = "SEAT")]
    pub seat: Option<String>,
    /// A value of the module's data the action needs and that is not entered yet (a card's
    /// value, read off the physical card): it is kept in the overlay and never asked again.
    #[arg(long, value_name = "VALUE")]
    pub value: Option<String>,
    /// The module folder (default: the one the game was saved with).
    #[arg(long, value_name = "DIR")]
    pub module: Option<PathBuf>,
    /// Write the game here instead of back to the save (a file that is there already is
    /// kept unless --force).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace the file --out names if it is there already.
    #[arg(long)]
    pub force: bool,
    /// Only check that the answers are taken, saving nothing: a player's orders, checked
    /// on his redacted save before he mails them (the umpire applies them to the full save).
    #[arg(long, conflicts_with_all = ["out", "force"])]
    pub check: bool,
    /// Overlay flags.
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

#[derive(Args, Debug)]
pub struct StateArgs {
    /// The saved game.
    pub save: PathBuf,
    /// Print the state JSON, with the module's own view for these eyes (its `view` hook)
    /// under `view` when the module loads.
    #[arg(long)]
    pub json: bool,
    /// Show what this seat may see (hidden cards as "?"). Without it: the one seat a person
    /// plays, else what a spectator sees when a bot plays or anything is hidden.
    #[arg(long, value_name = "SEAT")]
    pub seat: Option<String>,
    /// Show everything: every hand, secret answer, private state and the seed (the umpire's
    /// view, for one person playing every seat or checking a game).
    #[arg(long, conflicts_with = "seat")]
    pub everything: bool,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The saved game.
    pub save: PathBuf,
    /// Replay under this module folder (default: the one the game was saved with).
    #[arg(long, value_name = "DIR")]
    pub module: Option<PathBuf>,
    /// Exit with 1 if the replay differs from the saved game (or, with --module, if one
    /// of the module's recorded games changes).
    #[arg(long)]
    pub expect_same: bool,
    /// Overlay flags.
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

#[derive(Args, Debug)]
pub struct RecordArgs {
    /// The saved game to record.
    pub save: PathBuf,
    /// Where to write the recording (usually MODULE/tests/replays/NAME.ron; a file that is
    /// there already is kept unless --force).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Replace the file --out names if it is there already (never the save recorded).
    #[arg(long)]
    pub force: bool,
    /// Also expect the table after every N inputs, not only at the end.
    #[arg(long, value_name = "N")]
    pub every: Option<usize>,
    /// The module folder (default: the one the game was saved with).
    #[arg(long, value_name = "DIR")]
    pub module: Option<PathBuf>,
    /// Overlay flags (a recording is made without the owner's overlay unless one is named,
    /// as `chancery test` runs it).
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

/// One answer, with the line of the answers file it came from (0: the command line).
struct Line {
    answer: Answer,
    line: usize,
}

/// The largest answers file read, in bytes.
const MAX_ANSWERS_BYTES: u64 = 16 * 1024 * 1024;

/// The answers file at `path`, read.
fn parse_answers(path: &Path) -> anyhow::Result<AnswersFile> {
    let text = chancery_core::files::read_file(
        path,
        MAX_ANSWERS_BYTES,
        "answers are a file of text, one answer a line",
    )
    .map_err(|e| anyhow::anyhow!("cannot read the answers: {e}"))?;
    AnswersFile::parse(&text).map_err(|(line, e)| anyhow::anyhow!("{}:{line}: {e}", path.display()))
}

/// The answers of `file` to apply, each answering as its seat or else as `seat`, after
/// checking that they are all `whose`'s to give when they are a seat's orders (see
/// [`AnswersFile::check_orders_of`]). Nothing is applied if one is refused.
fn orders_to_apply(
    session: &Session,
    file: AnswersFile,
    path: &Path,
    whose: Option<&SeatId>,
    seat: Option<&SeatId>,
) -> anyhow::Result<Vec<Line>> {
    if let Some(whose) = whose {
        let module = session.module();
        let physical = session.table().dice == DiceMode::Physical;
        file.check_orders_of(whose, physical, &|s| module.seat_name(s))
            .map_err(|(line, e)| anyhow::anyhow!("{}:{line}: {e}", path.display()))?;
    }
    let seat = whose.or(seat);
    Ok(file
        .answers
        .into_iter()
        .map(|(line, mut answer)| {
            if answer.seat.is_none() {
                answer.seat = seat.cloned();
            }
            Line { answer, line }
        })
        .collect())
}

/// Whose orders an answers file holds, if they are one seat's: the seat of a redacted save
/// (`own`), the seat `--seat` names unless it is the umpire's, and the seat the file names
/// (`orders of SEAT`), which must agree.
fn whose_orders(
    session: &Session,
    own: Option<&SeatId>,
    seat: Option<&SeatId>,
    named: Option<&SeatId>,
    path: &Path,
) -> anyhow::Result<Option<SeatId>> {
    let table = session.table();
    let module = session.module();
    if let Some(named) = named
        && !table.seats.contains_key(named)
    {
        bail!(
            "{}: the file holds the orders of '{named}', which is not a seat of this game",
            path.display()
        );
    }
    let given = seat.filter(|s| table.umpire.as_ref() != Some(*s));
    let mut whose: Option<&SeatId> = None;
    for (said, by) in [
        (own, "this save is its redacted view"),
        (given, "--seat names it"),
        (named, "the file says so"),
    ] {
        let Some(said) = said else { continue };
        match whose {
            Some(first) if first != said => bail!(
                "{}: these are the orders of {}, but {by} for {}: a seat's orders answer for that seat alone",
                path.display(),
                module.seat_name(first),
                module.seat_name(said)
            ),
            _ => whose = Some(said),
        }
    }
    Ok(whose.cloned())
}

/// Explains an error that stops a step, with what to do about it.
fn explain(err: &SessionError, module: &Module) -> String {
    match err.need() {
        Some(Need::Die { sides }) => format!(
            "the rules need a {sides}-sided die roll: give it with --dice N (or '| N' after the answer in an answers file)"
        ),
        Some(Need::Data(target)) => {
            let overlay = module
                .overlay
                .as_ref()
                .map(|o| o.path.display().to_string())
                .unwrap_or_else(|| "an overlay file (--overlay FILE)".to_owned());
            let source = if module.is_chart_cell(target) {
                "copy it from the bot's printed chart"
            } else {
                "read it off the physical game"
            };
            let ty = value_type(module, target);
            let example = value_example(module, target, &ty);
            let typed = match example
                .chars()
                .all(|c| c.is_alphanumeric() || "-_.".contains(c))
            {
                true => example,
                false => format!("'{}'", example.replace('\'', "'\\''")),
            };
            format!(
                "{} is not entered yet (in the overlay file: {}): {source} and give it with \
                 --value VALUE ({ty}, for example --value {typed}; it is kept in {overlay}), or enter it in the app",
                module.describe_target(target),
                chancery_core::Module::target_ids(target),
            )
        }
        // The legal actions as they are typed (`set AU`), not in words: "set Austria" would
        // be refused in turn.
        None if matches!(err, SessionError::Illegal { .. }) => err.to_string(),
        None => with_seat_names(&err.to_string(), module),
    }
}

/// `text` with each seat's id that stands as a word ("it is RU's decision") said by the
/// seat's name ("it is Beta's decision").
fn with_seat_names(text: &str, module: &Module) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match module.seats.get(word.as_str()) {
            Some(seat) => out.push_str(&seat.name),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The answer with a number for its name ("3") made the action listed under that number
/// now, before any value given with `--value` changes the list.
fn resolved(session: &Session, answer: &Answer) -> Answer {
    let mut answer = answer.clone();
    if let (Ok(n), Ok(Some(prompt))) = (answer.name.parse::<usize>(), session.prompt())
        && let Ok(ask) = prompt.ask_for(answer.seat.as_ref())
        && !ask.actions.iter().any(|a| a.name == answer.name)
        && let Some(action) = n.checked_sub(1).and_then(|i| ask.actions.get(i))
    {
        let arg = std::mem::take(&mut answer.arg);
        answer.name.clone_from(&action.name);
        answer.arg = if action.range.is_some() && !arg.is_nil() {
            arg
        } else {
            action.arg.clone()
        };
    }
    answer
}

/// Applies an answer; its name may be a number in the list of the seat's legal actions.
fn answer(session: &mut Session, answer: &Answer) -> Result<(), SessionError> {
    session.apply(resolved(session, answer).input())
}

/// Runs `step`; when it needs a value of the module's data that is not entered yet and
/// `value` still holds the text of `--value`, stores that text in the owner's overlay (once)
/// and runs the step again.
fn with_value(
    session: &mut Session,
    value: &mut Option<(&str, LoadOptions)>,
    err: &mut dyn Write,
    mut step: impl FnMut(&mut Session) -> Result<(), SessionError>,
) -> anyhow::Result<Result<(), SessionError>> {
    loop {
        let failure = match step(session) {
            Ok(()) => return Ok(Ok(())),
            Err(failure) => failure,
        };
        match (failure.need(), value.take()) {
            (Some(Need::Data(target)), Some((text, load))) => {
                let target = target.clone();
                let module = session.module().clone();
                let described = module.describe_target(&target);
                let parsed = parse_value(&module, text, &value_type(&module, &target))
                    .map_err(|e| anyhow::anyhow!("--value for {described}: {e}"))?;
                let path =
                    store_value(session, &target, parsed, &load).map_err(anyhow::Error::msg)?;
                writeln!(err, "{described} = {text}, stored in {}.", path.display())?;
            }
            _ => return Ok(Err(failure)),
        }
    }
}

/// Applies answers in order, letting bots play after each (and, with no answer, the bots a
/// save waits for). While `value` holds the text of `--value` (and how the module is
/// loaded), the first value of the module's data they need and that is not entered yet,
/// whether for the rules or for a bot's chart, is that text, stored in the owner's overlay
/// before they go on (asked for once); `value` is then empty. Returns, when the game now
/// waits for a value not entered yet that no answer was refused for (the set-up's, or a
/// bot's once every answer is taken), what it waits for, in words: the game goes on from
/// there once it is given.
fn apply_answers(
    session: &mut Session,
    answers: &[Line],
    source: &str,
    value: &mut Option<(&str, LoadOptions)>,
    err: &mut dyn Write,
) -> anyhow::Result<Option<String>> {
    // No bot plays another seat in one seat's redacted view: it would see only stand-ins.
    let bots = |s: &mut Session| match s.redaction() {
        Some(_) => Ok(()),
        None => s.run_bots(BOT_STEP_LIMIT).map(|_| ()),
    };
    for a in answers {
        // The number the person read stays the action it named while values are stored.
        let resolved = resolved(session, &a.answer);
        let had_value = value.is_some();
        if let Err(failure) = with_value(session, value, err, |s| answer(s, &resolved))? {
            let mut explained = explain(&failure, session.module());
            if had_value && value.is_none() && matches!(failure, SessionError::Illegal { .. }) {
                // The value read off the physical game closes the choice the rules offered
                // while it was unknown.
                explained = format!(
                    "with the value just stored, this choice is not open any more (the value is kept); \
                     `chancery state` lists the choices there are now ({explained})"
                );
            }
            if a.line == 0 {
                bail!("'{}': {explained}", shortened(&a.answer.name));
            }
            bail!(
                "{source}:{}: '{}': {explained}",
                a.line,
                shortened(&a.answer.name)
            );
        }
        if let Err(failure) = with_value(session, value, err, bots)? {
            bail!(
                "after '{}', a bot's step: {}",
                shortened(&a.answer.name),
                explain(&failure, session.module())
            );
        }
    }
    if answers.is_empty()
        && let Err(failure) = with_value(session, value, err, bots)?
    {
        if let Some(Need::Data(_)) = failure.need() {
            return Ok(Some(explain(&failure, session.module())));
        }
        bail!("a bot's step: {}", explain(&failure, session.module()));
    }
    Ok(None)
}

/// A seat in words: its name, id and who plays it ("Alpha (A, human)").
fn seat_text(session: &Session, seat: &SeatId) -> String {
    let name = session.module().seat_name(seat);
    let controller = session
        .table()
        .seats
        .get(seat)
        .map(|c| c.to_string())
        .unwrap_or_default();
    format!("{name} ({seat}, {controller})")
}

/// The pending decision in words, with the legal actions numbered, as `seat` may see it
/// (`None`: every seat's actions, except where several seats choose in secret).
pub fn describe_prompt(session: &Session, seat: Option<&SeatId>) -> String {
    let table = session.table();
    let mut out = String::new();
    // The phase as the module names it on the table ("Government Phase"), if it names one.
    let _ = match table.phase.is_empty() {
        true => writeln!(out, "Turn {}.", table.turn),
        false => writeln!(out, "Turn {}, {}.", table.turn, table.phase),
    };
    match session.prompt() {
        Ok(None) => {
            let result = table.result.clone().unwrap_or_default();
            let winners: Vec<String> = result
                .winners
                .iter()
                .map(|w| session.module().seat_name(w))
                .collect();
            let _ = writeln!(
                out,
                "The game is over: {}. {}",
                if winners.is_empty() {
                    "no winner".to_owned()
                } else {
                    format!("won by {}", winners.join(" and "))
                },
                result.text
            );
        }
        Ok(Some(prompt)) => describe_asks(&mut out, session, prompt, seat),
        Err(RulesError::Need(need @ Need::Data(_))) => {
            let err = SessionError::Rules(RulesError::Need(need.clone()));
            let _ = writeln!(
                out,
                "The game waits for a value of your copy of the game: {}",
                explain(&err, session.module())
            );
        }
        Err(err) if session.redaction().is_some() => {
            let _ = writeln!(
                out,
                "The game goes on beyond what this redacted save holds (the rules need what only the umpire's save has:\n  {err}).\nMail your orders; the umpire applies them to the whole game."
            );
        }
        Err(err) => {
            let _ = writeln!(
                out,
                "The rules could not list the legal actions:\n  {err}\nThe table still works by hand."
            );
        }
    }
    out
}

fn describe_asks(out: &mut String, session: &Session, prompt: &Prompt, seat: Option<&SeatId>) {
    // Each choice as its label says it, with what to type when that is short (a long one,
    // such as a map of ids, is answered by its number).
    let list = |out: &mut String, actions: &[chancery_core::Action]| {
        for (i, action) in actions.iter().enumerate() {
            let typed = match action.range {
                Some((lo, hi)) => format!("{} <{lo}..{hi}>", action.name),
                None => action.choice().to_string(),
            };
            let label = match action.label.is_empty() {
                true => typed.clone(),
                false => action.label.clone(),
            };
            let hint = match typed.chars().count() {
                _ if typed == label => String::new(),
                0..=28 => format!("   [act: {typed}]"),
                _ => format!("   [act: {}]", i + 1),
            };
            let _ = writeln!(out, "  {:>2}. {label}{hint}", i + 1);
        }
    };
    if let [ask] = prompt.asks.as_slice()
        && prompt.decision != chancery_core::Decision::Simultaneous
    {
        let who = match &ask.seat {
            Some(seat) => seat_text(session, seat),
            None => "Anyone".to_owned(),
        };
        let window = match (prompt.decision, &prompt.private) {
            (chancery_core::Decision::Window, _) => " (each seat in turn may answer or pass)",
            (_, Some(_)) => ", in private",
            _ => "",
        };
        let _ = writeln!(out, "{who} decides{window}: {}", prompt.text_for(seat));
        // A seat's choices may name what only it sees (its hand): only for its own eyes.
        match (&ask.seat, seat) {
            (Some(decider), Some(eyes)) if eyes != decider => {
                let _ = writeln!(
                    out,
                    "Its choices show to its seat: add --seat {decider} to see them."
                );
            }
            _ => list(out, &ask.actions),
        }
        return;
    }
    let waiting: Vec<String> = prompt.deciders().map(|s| seat_text(session, s)).collect();
    let _ = writeln!(
        out,
        "Several seats choose at once, in secret: {}",
        prompt.text_for(seat)
    );
    let _ = writeln!(out, "Waiting for: {}.", waiting.join(", "));
    if !prompt.answered.is_empty() {
        let done: Vec<String> = prompt
            .answered
            .iter()
            .map(|s| session.module().seat_name(s))
            .collect();
        let _ = writeln!(
            out,
            "Answered (hidden until revealed): {}.",
            done.join(", ")
        );
    }
    match seat.filter(|s| !s.is_spectator()) {
        Some(seat) => match prompt.ask_for(Some(seat)) {
            Ok(ask) => {
                let _ = writeln!(out, "Your choices as {}:", seat_text(session, seat));
                list(out, &ask.actions);
            }
            Err(why) => {
                let _ = writeln!(out, "{}.", with_seat_names(&why, session.module()));
            }
        },
        None => {
            let _ = writeln!(
                out,
                "Answer as one seat with --seat SEAT (each seat sees only its own choices)."
            );
        }
    }
}

/// A zone's line: its cards `seat` sees by name, the others counted; a hidden zone face
/// down.
fn zone_line(
    module: &Module,
    id: &chancery_core::ZoneId,
    zone: &chancery_core::table::Zone,
    seat: Option<&SeatId>,
) -> String {
    let zone_name = module.name_of("zone", id.as_str());
    let n = zone.cards.len();
    if zone.visibility == chancery_core::table::Visibility::Hidden {
        return format!("{zone_name} ({n}): face down");
    }
    let mut shown: Vec<String> = Vec::new();
    let mut unseen = 0;
    for c in &zone.cards {
        let name = module.name_of("card", c.as_str());
        match (zone.shows(c, seat), zone.face_down.contains(c)) {
            (false, _) => unseen += 1,
            (true, true) => shown.push(format!("{name} (face down)")),
            (true, false) => shown.push(name),
        }
    }
    let unseen = match (unseen, shown.is_empty()) {
        (0, _) => String::new(),
        (k, true) => format!("{k} you cannot see"),
        (k, false) => format!(", and {k} you cannot see"),
    };
    format!("{zone_name} ({n}): {}{unseen}", shown.join(", "))
}

/// The pieces of a place by space, a space named once for all its pieces; and whether any
/// space holds more than one (then each entry reads "space: pieces").
fn pieces_by_space(
    module: &Module,
    place: &chancery_core::PlaceId,
    pieces: &std::collections::BTreeMap<chancery_core::PieceId, chancery_core::SpaceId>,
) -> (Vec<String>, bool) {
    let mut by_space: Vec<(String, Vec<String>)> = Vec::new();
    for (p, s) in pieces {
        let space = module.space_name(place.as_str(), s.as_str());
        let piece = module.name_of("piece", p.as_str());
        match by_space.iter_mut().find(|(at, _)| *at == space) {
            Some((_, list)) => list.push(piece),
            None => by_space.push((space, vec![piece])),
        }
    }
    let grouped = by_space.iter().any(|(_, list)| list.len() > 1);
    let at = by_space
        .into_iter()
        .map(|(space, list)| match list.as_slice() {
            [piece] if !grouped => format!("{piece} at {space}"),
            _ => format!("{space}: {}", list.join(", ")),
        })
        .collect();
    (at, grouped)
}

/// The table in words: counters, zones, pieces, boxes, by name; cards `seat` may not see
/// as "?".
pub fn describe_table(table: &Table, module: &Module, seat: Option<&SeatId>) -> String {
    let mut out = String::new();
    let scenario = module.name_of("scenario", table.scenario.as_str());
    let title = match scenario == module.manifest.name {
        true => scenario,
        false => format!("{} — {scenario}", module.manifest.name),
    };
    let _ = writeln!(out, "{title}, {}", seed_text(table, seat));
    let counters: Vec<String> = table
        .counters
        .iter()
        .map(|(id, c)| format!("{} {}", module.name_of("counter", id.as_str()), c.value))
        .collect();
    if !counters.is_empty() {
        let _ = writeln!(out, "Counters: {}", counters.join(", "));
    }
    // Each zone that holds cards (an empty one is not listed): the cards the seat sees by
    // name, the others counted.
    for (id, zone) in table.zones.iter().filter(|(_, z)| !z.cards.is_empty()) {
        let _ = writeln!(out, "{}", zone_line(module, id, zone, seat));
    }
    // Under fog of war, the pieces and units the seat may not see are not there, to it;
    // a fogged place or box says so, and who sees it.
    let fogged = table.fogged_for(seat);
    let names = |s: &SeatId| module.seat_name(s);
    let fog = |sight: &chancery_core::fog::Sight| match (sight, seat) {
        (chancery_core::fog::Sight::Public, _) => String::new(),
        (sight, Some(_)) => format!(" (fog of war: {})", sight.describe_with(&names)),
        (sight, None) => format!(
            " (fog of war: {}; you see all of it)",
            sight.describe_with(&names)
        ),
    };
    for (place, pieces) in &fogged.places {
        let sight = table.fog.places.get(place).cloned().unwrap_or_default();
        if !pieces.is_empty() || sight != chancery_core::fog::Sight::Public {
            let (at, grouped) = pieces_by_space(module, place, pieces);
            let _ = writeln!(
                out,
                "{}{}: {}",
                module.name_of("place", place.as_str()),
                fog(&sight),
                if at.is_empty() {
                    "nothing seen".to_owned()
                } else {
                    at.join(if grouped { "; " } else { ", " })
                }
            );
        }
    }
    for (boxed, units) in &fogged.boxes {
        let sight = table.fog.sight_of_box(boxed);
        if !units.is_empty() || *sight != chancery_core::fog::Sight::Public {
            let at: Vec<String> = units
                .iter()
                .map(|(k, n)| format!("{} × {n}", module.name_of("unit kind", k.as_str())))
                .collect();
            let _ = writeln!(
                out,
                "{}{}: {}",
                module.name_of("box", boxed.as_str()),
                fog(sight),
                if at.is_empty() {
                    "nothing seen".to_owned()
                } else {
                    at.join(", ")
                }
            );
        }
    }
    out
}

/// The last `n` lines of the log as `seat` may read it (`None`: all of it).
/// With the module at hand, headings and seats by name; without (a save whose module is
/// gone), as the save holds them.
fn last_messages(
    log: &[LogEntry],
    module: Option<&Module>,
    seat: Option<&SeatId>,
    n: usize,
) -> Vec<String> {
    let lines: Vec<String> = chancery_core::session::log_read_by(log, seat)
        .into_iter()
        .flat_map(|(_, e)| {
            let head = e.shows_heading().then(|| match module {
                Some(module) => e.heading(module),
                None => format!("#{} {} [{}]", e.index, e.input, e.by),
            });
            let body: Vec<String> = e
                .messages
                .iter()
                .map(|m| match (&m.to, seat) {
                    (Some(to), None) => {
                        let to = module.map_or_else(|| to.to_string(), |m| m.seat_name(to));
                        format!("   [to {to}] {}", m.text)
                    }
                    _ => format!("   {}", m.text),
                })
                .collect();
            head.into_iter().chain(body)
        })
        .collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

/// Saves the game to `path`. A file that is there already is replaced only when `replace`
/// says so (the save the game was read from, or --force); the caller has refused it
/// beforehand with [`refuse_existing_unless`], and a file made meanwhile stays too. Never
/// through a link or onto a device.
fn save(session: &Session, path: &Path, replace: bool) -> anyhow::Result<()> {
    let file = SaveFile::of(session);
    let written = if replace {
        file.write(path)
    } else {
        file.write_new(path)
    };
    written.map_err(anyhow::Error::from)
}

/// An error if a file is at `path` already, unless `force`: an output never replaces one
/// unless asked. Checked before the work, so that nothing is done for an output that cannot
/// be written.
pub(super) fn refuse_existing_unless(path: &Path, force: bool) -> anyhow::Result<()> {
    if !force && std::fs::symlink_metadata(path).is_ok() {
        bail!(
            "{} already exists and is kept as it is: give --out a new file, or add --force to replace it",
            path.display()
        );
    }
    Ok(())
}

pub fn new(args: &NewArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    let module = load_module(&args.module, &args.overlay.load_options(false), err)?;
    let mut spec = args
        .start
        .or_demo_game(&module, args.overlay.demo)
        .spec(&module)?;
    if args.physical_dice {
        spec.dice = DiceMode::Physical;
    }
    spec.setup_dice = args.dice.clone();
    let mut session = match start_game(module.clone(), spec) {
        Ok(session) => session,
        Err(err) => match err.need() {
            Some(Need::Die { sides }) => bail!(
                "the set-up rolls a {sides}-sided die: roll it and give what it shows with --dice N \
                 (for more dice, in order: --dice N,N…), or leave out --physical-dice"
            ),
            _ => return Err(err.into()),
        },
    };
    let bots = session.run_bots(BOT_STEP_LIMIT);
    // A value not entered yet that the set-up or a bot needs is the game's first decision:
    // the game is saved, and the decision says how to give it.
    let waits = matches!(
        bots.as_ref().err().and_then(|e| e.need()),
        Some(Need::Data(_))
    );
    let bots = match bots {
        Err(_) if waits && args.answers.is_none() => Ok(0),
        other => other.map_err(|e| anyhow::anyhow!(explain(&e, &module))),
    };
    refuse_existing_unless(&args.out, args.force)?;
    if let Err(err) = bots {
        // Keep what was played: the save holds the game up to the step that failed.
        save(&session, &args.out, args.force)?;
        return Err(err.context(format!(
            "the game so far is saved in {}",
            args.out.display()
        )));
    }
    if let Some(path) = &args.answers {
        // All the answers or none: a file that fails saves nothing, so that running it
        // again once mended applies each line once.
        let file = parse_answers(path)?;
        let whose = whose_orders(&session, None, None, file.orders_of.as_ref(), path)?;
        let list = orders_to_apply(&session, file, path, whose.as_ref(), None)?;
        apply_answers(
            &mut session,
            &list,
            &path.display().to_string(),
            &mut None,
            err,
        )
        .context("none of the answers was kept and nothing was saved: mend the line and run the command again")?;
    }
    save(&session, &args.out, args.force)?;
    let eyes = default_eyes(session.table());
    writeln!(
        out,
        "Saved {} ({} inputs; {}).",
        args.out.display(),
        session.history().len(),
        seed_text(session.table(), eyes.as_ref())
    )?;
    write!(out, "{}", describe_prompt(&session, eyes.as_ref()))?;
    Ok(0)
}

/// Refuses to answer in a save whose later inputs no longer fit the module: answering now
/// would drop them, and a save is never shortened in place.
fn never_shorten(save: &Path, file: &SaveFile, replayed: usize) -> anyhow::Result<()> {
    if replayed >= file.inputs.len() {
        return Ok(());
    }
    let input = file
        .inputs
        .get(replayed)
        .map(ToString::to_string)
        .unwrap_or_default();
    bail!(
        "{}: input {} ('{input}') no longer fits the module, so the game stops after {replayed} of its {} inputs. \
         The save is left as it was. Write the shorter game to a new file with --out FILE, \
         or see what changed with `chancery replay {}`.",
        save.display(),
        replayed + 1,
        file.inputs.len(),
        save.display()
    );
}

/// The answer given on the command line (an action and its argument), if any. An action
/// copied whole from the list ("place_army {country: poland, power: AU}") holds its
/// argument after its name.
fn command_line_answer(args: &ActArgs, seat: Option<&SeatId>) -> Option<Line> {
    let action = args.action.as_ref()?;
    let (name, arg) = match (action.trim().split_once(char::is_whitespace), &args.arg) {
        (Some((name, arg)), None) => (name.to_owned(), Some(arg.trim())),
        _ => (action.clone(), args.arg.as_deref()),
    };
    Some(Line {
        answer: Answer {
            seat: seat.cloned(),
            name,
            arg: arg.map(Value::parse_arg).unwrap_or(Value::Nil),
            dice: args.dice.clone(),
            manual: None,
        },
        line: 0,
    })
}

pub fn act(args: &ActArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    let file = SaveFile::read(&args.save)?;
    let mut session = restore(
        &file,
        &args.save,
        args.module.as_deref(),
        &args.overlay.load_options(false),
        err,
    )?;
    let target = args.out.clone().unwrap_or_else(|| args.save.clone());
    // The game goes back into its own save; another file is replaced only with --force.
    let replace = args.force || chancery_core::files::same_file(&target, &args.save);
    if !args.check {
        refuse_existing_unless(&target, replace)?;
    }
    let replayed = session.history().len();
    if chancery_core::files::same_file(&target, &args.save) {
        never_shorten(&args.save, &file, replayed)?;
    }
    let seat = args.seat.clone().map(SeatId::from);
    // A redacted save answers as its own seat only.
    let own = file.redacted.as_ref().map(|r| r.redaction.seat.clone());
    let seat = seat.or_else(|| own.clone());
    if let Some(seat) = &seat
        && !session.table().seats.contains_key(seat)
    {
        bail!("seat '{seat}' does not play this game");
    }
    if own.is_some() {
        eyes_for(&file, seat.as_ref())?;
    }
    let answers: Vec<Line> = command_line_answer(args, seat.as_ref())
        .into_iter()
        .collect();
    // --value gives the first value not entered yet that the answers (of the file, then of
    // the command line) or the bots after them need.
    let mut value = args
        .value
        .as_deref()
        .map(|text| (text, file.load_options(&args.overlay.load_options(false))));
    let result = match &args.answers {
        Some(path) => parse_answers(path).and_then(|file| {
            let whose = whose_orders(
                &session,
                own.as_ref(),
                seat.as_ref(),
                file.orders_of.as_ref(),
                path,
            )?;
            let list = orders_to_apply(&session, file, path, whose.as_ref(), seat.as_ref())?;
            apply_answers(
                &mut session,
                &list,
                &path.display().to_string(),
                &mut value,
                err,
            )
        }),
        None => Ok(None),
    };
    let result =
        result.and_then(|_| apply_answers(&mut session, &answers, "command line", &mut value, err));
    if result.is_ok() && args.value.is_some() && value.is_some() {
        writeln!(
            err,
            "warning: the rules asked for no value of the module's data; --value was not used"
        )?;
    }
    // All the answers or none: the save changes only if every one was taken.
    let waits = match result {
        Ok(waits) => waits,
        Err(failed) => {
            return Err(failed.context(format!(
                "nothing was applied: {} is as it was",
                args.save.display()
            )));
        }
    };
    if args.check {
        let n = session.history().len() - replayed;
        writeln!(
            out,
            "All {n} answer(s) are taken in this game; nothing was saved ({} is as it was).",
            args.save.display()
        )?;
        return Ok(0);
    }
    save(&session, &target, replace)?;
    let eyes = seat.clone().or_else(|| default_eyes(session.table()));
    let eyes = session.table().eyes(eyes.as_ref()).cloned();
    for line in last_messages(&session.log(), Some(session.module()), eyes.as_ref(), 12) {
        writeln!(out, "{line}")?;
    }
    write!(out, "{}", describe_prompt(&session, eyes.as_ref()))?;
    // A bot's step that waits for a value (the set-up's shows in the decision above).
    if let Some(waits) = waits.filter(|_| session.setup_waits().is_none()) {
        writeln!(
            out,
            "The game waits for a value of your copy of the game: {waits}"
        )?;
    }
    Ok(0)
}

pub fn record(args: &RecordArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    if chancery_core::files::same_file(&args.out, &args.save) {
        bail!(
            "--out {} is the save being recorded: a recording would take its place and the game \
             would be lost. Write the recording to another file (MODULE/tests/replays/NAME.ron)",
            args.out.display()
        );
    }
    refuse_existing_unless(&args.out, args.force)?;
    let file = SaveFile::read(&args.save)?;
    let mut overlay = args.overlay.clone();
    if overlay.overlay.is_none() {
        overlay.no_overlay = true;
    }
    let mut session = restore(
        &file,
        &args.save,
        args.module.as_deref(),
        &overlay.load_options(false),
        err,
    )?;
    let mut recording = Recording::of(&mut session, args.every);
    // An overlay inside the module folder (a test fixture) is named in the recording, so
    // that `chancery test` replays it with the same data.
    let module = session.module().clone();
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    if let Some(overlay) = &module.overlay
        && let Ok(inside) = canonical(&overlay.path).strip_prefix(canonical(&module.dir))
    {
        recording.overlay = Some(inside.to_string_lossy().replace('\\', "/"));
    }
    let header = format!(
        "Recorded by `chancery record` from {}: scenario '{}', seed {}, {} inputs.\n\
         `chancery test` replays it and checks the expectations below; keep the ones that\n\
         matter and say here what the game shows.",
        args.save.display(),
        recording.scenario,
        recording.seed,
        recording.inputs.len()
    );
    let text = recording.to_ron(&header).map_err(anyhow::Error::msg)?;
    let write = match args.force {
        true => chancery_core::files::write_atomic,
        false => chancery_core::files::write_new,
    };
    write(&args.out, text.as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    writeln!(
        out,
        "Recorded {} inputs and {} expectation(s) in {}.",
        recording.inputs.len(),
        recording.expect.len(),
        args.out.display()
    )?;
    Ok(0)
}

pub fn state(
    args: &StateArgs,
    overlay: &OverlayArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<i32> {
    let file = SaveFile::read(&args.save)?;
    let seat = args.seat.clone().map(SeatId::from);
    let seat = match (args.everything, &file.redacted) {
        (true, _) => None,
        // A redacted save is read as its seat.
        (false, Some(redacted)) => seat.or_else(|| Some(redacted.redaction.seat.clone())),
        (false, None) => seat.or_else(|| default_eyes(&file.table)),
    };
    // The umpire sees everything; a redacted save only its own seat.
    let seat = match seat.as_ref().filter(|s| s.is_spectator()) {
        Some(_) if file.redacted.is_none() => seat,
        _ => eyes_for(&file, seat.as_ref())?,
    };
    // With the module at hand, the game as `--headless` shows it; without, what the save
    // holds.
    let mut notes = Vec::new();
    let dir = PathBuf::from(&file.module.dir);
    let restored = restore(
        &file,
        &args.save,
        None,
        &overlay.load_options(false),
        &mut notes,
    );
    if args.json {
        // The module's own view for these eyes (its `view` hook), when the module loads.
        let view = match restored {
            Ok(mut session) => {
                err.write_all(&notes)?;
                session.view_data(seat.as_ref()).unwrap_or_else(|e| {
                    let _ = writeln!(err, "(The module's view cannot be shown: {e}.)");
                    Value::Nil
                })
            }
            Err(e) => {
                writeln!(
                    err,
                    "(The module {} cannot be loaded ({e}); the state has no module view.)",
                    dir.display()
                )?;
                Value::Nil
            }
        };
        let json = state_json(&file.table, &file.log, seat.as_ref(), &view);
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(0);
    }
    match restored {
        Ok(session) => {
            out.write_all(&notes)?;
            print_game(&session, seat.as_ref(), out)?;
            return Ok(0);
        }
        Err(e) => writeln!(
            out,
            "(The module {} cannot be loaded ({e}); showing what the save holds.)",
            dir.display()
        )?,
    }
    let t = &file.table;
    writeln!(
        out,
        "Module {} {} — scenario '{}', {}",
        file.module.id,
        file.module.version,
        t.scenario,
        seed_text(t, seat.as_ref())
    )?;
    writeln!(
        out,
        "Turn {}, phase '{}', state '{}', {} inputs",
        t.turn,
        t.phase,
        t.top_frame().map(|f| f.state.as_str()).unwrap_or("-"),
        file.inputs.len()
    )?;
    for line in last_messages(&file.log, None, seat.as_ref(), 20) {
        writeln!(out, "{line}")?;
    }
    Ok(0)
}

pub fn replay(args: &ReplayArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    let file = SaveFile::read(&args.save)?;
    let options = file.load_options(&args.overlay.load_options(false));
    let saved_dir = PathBuf::from(&file.module.dir);
    let target_dir = args.module.clone().unwrap_or_else(|| saved_dir.clone());
    let target = load_module(&target_dir, &options, err)?;
    // With the version the game was saved with at hand, replay under it first: that gives
    // every step's digest, so the first divergence is exact.
    let original = load_module_quietly(&saved_dir, &options)
        .ok()
        .filter(|m| m.fingerprint == file.module.fingerprint);
    let original = original.map(Arc::new);
    let report = match &original {
        Some(original) => {
            let (mut session, _) = file.restore(original.clone(), &args.save)?;
            Some(session.rebase(target.clone())?)
        }
        None => file.restore(target.clone(), &args.save)?.1,
    };
    let differs = match report {
        Some(report) if report.divergence.is_some() || report.refused.is_some() => {
            write!(out, "{}", report.words(&target, None))?;
            true
        }
        Some(report) if !report.changes.is_empty() => {
            write!(out, "{}", report.words(&target, None))?;
            false
        }
        _ => {
            writeln!(
                out,
                "Replayed {} inputs: the game is the same.",
                file.inputs.len()
            )?;
            false
        }
    };
    // Under another version, the module's own recorded games are replayed under both.
    let mut recordings_differ = false;
    if args.module.is_some() {
        match &original {
            Some(original) if original.fingerprint != target.fingerprint => {
                let lines = impact(&replay_recordings(original), &replay_recordings(&target));
                recordings_differ = lines.iter().any(|l| l.changed());
                write!(out, "{}", ImpactReport(&lines))?;
            }
            Some(_) => {}
            None => writeln!(
                out,
                "The version the game was saved with is not at hand (its folder changed since it was saved), so the module's recorded games are not compared."
            )?,
        }
    }
    Ok(if args.expect_same && (differs || recordings_differ) {
        1
    } else {
        0
    })
}

/// The headless equivalent of opening the app: start (or load) the game, let bots play,
/// print the table and the decision it waits for.
pub fn headless(args: &OpenArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    let mut session = open_session(args, err)?;
    let mut waits = None;
    if args.load.is_none() {
        let module = session.module().clone();
        match session.run_bots(BOT_STEP_LIMIT) {
            Ok(_) => {}
            // A value not entered yet is the game's next decision, not a failure.
            Err(e) if matches!(e.need(), Some(Need::Data(_))) => {
                waits = Some(explain(&e, &module));
            }
            Err(e) => bail!(explain(&e, &module)),
        }
    }
    print_game(&session, default_eyes(session.table()).as_ref(), out)?;
    if let Some(waits) = waits.filter(|_| session.setup_waits().is_none()) {
        writeln!(
            out,
            "The game waits for a value of your copy of the game: {waits}"
        )?;
    }
    // A newcomer's first start: the owner's values are not entered yet; the demo plays now.
    let module = session.module();
    if module.manifest.demo.is_some()
        && module
            .overlay
            .as_ref()
            .is_some_and(|o| !o.present && !o.demo)
    {
        writeln!(
            out,
            "(No values of your copy are entered yet: the game asks for each when a rule needs it. To try it at once with placeholder values, start with --demo.)"
        )?;
    }
    Ok(0)
}

/// The eyes a command shows a game with when no seat is named: the one seat a person plays,
/// if there is one; otherwise a spectator's ([`SeatId::spectator`]) when a bot plays or
/// anything is hidden; otherwise everything (`None`).
fn default_eyes(table: &Table) -> Option<SeatId> {
    if table.umpire.is_some() {
        // A game with an umpire is the umpire's to run: the full save is the umpire's.
        return None;
    }
    let mut humans = table
        .seats
        .iter()
        .filter(|(_, c)| matches!(c, chancery_core::Controller::Human))
        .map(|(s, _)| s);
    if let (Some(one), None) = (humans.next(), humans.next()) {
        return Some(one.clone());
    }
    let bots = table
        .seats
        .values()
        .any(|c| matches!(c, chancery_core::Controller::Bot(_)));
    (bots || table.has_hidden_information()).then(SeatId::spectator)
}

/// "seed N", or why it is not shown to `seat`.
fn seed_text(table: &Table, seat: Option<&SeatId>) -> String {
    if table.seed_shown_to(seat) {
        format!("seed {}", table.seed)
    } else {
        "seed kept in the save (it shows once nothing is hidden or the game is over)".to_owned()
    }
}

/// The table, the last lines of the log and the pending decision, as `seat` may see them
/// (`None`: everything).
fn print_game(session: &Session, seat: Option<&SeatId>, out: &mut dyn Write) -> anyhow::Result<()> {
    if let Some(seat) = seat {
        if seat.is_spectator() {
            writeln!(
                out,
                "(Seen as a spectator: no seat's hand or secret shows; name one with --seat SEAT.)"
            )?;
        } else {
            writeln!(out, "(Seen as {}.)", seat_text(session, seat))?;
        }
    }
    write!(
        out,
        "{}",
        describe_table(session.table(), session.module(), seat)
    )?;
    for line in last_messages(&session.log(), Some(session.module()), seat, 12) {
        writeln!(out, "{line}")?;
    }
    write!(out, "{}", describe_prompt(session, seat))?;
    Ok(())
}
