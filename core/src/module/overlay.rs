//! The owner's overlay file: where it lives, and writing one value into it.
//!
//! The overlay holds data read off the physical game (a card's value, say). It lives
//! outside the module folder, so that updating the module never overwrites it. Chancery
//! stores an answer by changing that one value in the file's text, so the owner's comments
//! and layout stay as they were.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::data::{DataValue, OverlayFile};
use super::ronedit::{Step, set};
use crate::files::write_atomic;
use crate::ids::{CardId, PieceId};

/// Chancery's folder for the user's own files (overlays, autosaves): `$CHANCERY_HOME`, else
/// `$XDG_DATA_HOME/chancery`, else `~/.local/share/chancery`.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CHANCERY_HOME") {
        return Some(PathBuf::from(home));
    }
    let data = match std::env::var_os("XDG_DATA_HOME") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".local/share"),
    };
    Some(data.join("chancery"))
}

/// The overlay used when none is named: `overlays/<module>.ron` in [`data_dir`].
pub fn default_overlay_path(module_id: &str) -> Option<PathBuf> {
    Some(
        data_dir()?
            .join("overlays")
            .join(format!("{module_id}.ron")),
    )
}

/// What an overlay value completes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OverlayTarget {
    /// A card's field.
    CardField(CardId, String),
    /// A space's property: place, space, property.
    SpaceProp(String, String, String),
    /// A piece's property.
    PieceProp(PieceId, String),
    /// An entry of a lookup table: table, key.
    TableEntry(String, String),
}

impl fmt::Display for OverlayTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OverlayTarget::CardField(card, field) => write!(f, "card '{card}': field '{field}'"),
            OverlayTarget::SpaceProp(place, space, prop) => {
                write!(f, "space '{place}/{space}': property '{prop}'")
            }
            OverlayTarget::PieceProp(piece, prop) => {
                write!(f, "piece '{piece}': property '{prop}'")
            }
            OverlayTarget::TableEntry(table, key) => write!(f, "table '{table}': entry '{key}'"),
        }
    }
}

/// Stores `value` for `target` in the overlay at `path` (creating it), keeping every other
/// value, comment and line. Fails without touching the file if the existing file cannot be
/// read or does not parse.
pub fn write_overlay_value(
    path: &Path,
    module_id: &str,
    target: &OverlayTarget,
    value: DataValue,
) -> Result<(), String> {
    let value_text = ron::ser::to_string(&value).map_err(|e| e.to_string())?;
    let (section, key, leaf) = match target {
        OverlayTarget::CardField(card, field) => ("cards", card.to_string(), field),
        OverlayTarget::SpaceProp(place, space, prop) => {
            ("spaces", format!("{place}/{space}"), prop)
        }
        OverlayTarget::PieceProp(piece, prop) => ("pieces", piece.to_string(), prop),
        OverlayTarget::TableEntry(table, entry) => ("tables", table.clone(), entry),
    };
    let edit = vec![(
        vec![Step::Field(section), Step::Key(&key), Step::Key(leaf)],
        value_text,
    )];
    update_overlay(path, module_id, edit, |file| {
        let fields = match target {
            OverlayTarget::CardField(card, _) => file.cards.entry(card.clone()).or_default(),
            OverlayTarget::SpaceProp(..) => file.spaces.entry(key.clone()).or_default(),
            OverlayTarget::PieceProp(piece, _) => file.pieces.entry(piece.clone()).or_default(),
            OverlayTarget::TableEntry(table, _) => file.tables.entry(table.clone()).or_default(),
        };
        fields.insert(leaf.clone(), value);
    })
}

/// Stores in the overlay at `path` (creating it) what the owner says of their copy of
/// `board`: the image to draw under it, or where a space lies on it. Keeps every other value,
/// comment and line; fails without touching the file if the existing file does not parse.
pub fn write_overlay_board(
    path: &Path,
    module_id: &str,
    board: &str,
    change: impl FnOnce(&mut super::BoardOverlay),
) -> Result<(), String> {
    let before = read_overlay(path, module_id)?
        .boards
        .get(board)
        .cloned()
        .unwrap_or_default();
    let mut after = before.clone();
    change(&mut after);
    let mut edits = Vec::new();
    if after.image != before.image {
        let text = ron::ser::to_string(&after.image).map_err(|e| e.to_string())?;
        edits.push((vec!["image".to_owned()], text));
    }
    for (space, at) in &after.spaces {
        if before.spaces.get(space) != Some(at) {
            let text = ron::ser::to_string(at).map_err(|e| e.to_string())?;
            edits.push((vec!["spaces".to_owned(), space.clone()], text));
        }
    }
    // A space taken off the owner's board cannot be said as a change of one value.
    let removed = before.spaces.keys().any(|k| !after.spaces.contains_key(k));
    let steps: Vec<(Vec<Step<'_>>, String)> = edits
        .iter()
        .map(|(rest, text)| {
            let mut steps = vec![Step::Field("boards"), Step::Key(board)];
            steps.push(Step::Field(&rest[0]));
            steps.extend(rest[1..].iter().map(|k| Step::Key(k)));
            (steps, text.clone())
        })
        .collect();
    let steps = if removed { Vec::new() } else { steps };
    update_overlay(path, module_id, steps, |file| {
        file.boards.insert(board.to_owned(), after);
    })
}

/// The largest overlay file Chancery reads, in bytes.
pub const MAX_OVERLAY_BYTES: u64 = 16 * 1024 * 1024;

/// The text of the overlay at `path`, or `None` when there is no file there yet (any other
/// trouble is an error: not a regular file, larger than [`MAX_OVERLAY_BYTES`], or not
/// UTF-8, with its line and column). Both the loader and the writer read it so.
pub(super) fn overlay_text(path: &Path) -> Result<Option<String>, crate::files::ReadError> {
    if std::fs::symlink_metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return Ok(None);
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    crate::files::read_text(
        path,
        &name,
        MAX_OVERLAY_BYTES,
        "an overlay is a file of RON text",
    )
    .map(Some)
}

/// The overlay at `path` as it is now; a new one if there is no file. An error if it cannot
/// be read or does not parse.
fn read_overlay(path: &Path, module_id: &str) -> Result<OverlayFile, String> {
    Ok(read_overlay_text(path, module_id)?.1)
}

/// The overlay's text (`None`: there is no file yet) and what it says.
fn read_overlay_text(
    path: &Path,
    module_id: &str,
) -> Result<(Option<String>, OverlayFile), String> {
    let read = overlay_text(path).map_err(|e| {
        format!(
            "{}: {}; mend it before new values can be stored",
            path.display(),
            e.message
        )
    })?;
    let Some(text) = read else {
        let file = OverlayFile {
            module: module_id.to_owned(),
            ..OverlayFile::default()
        };
        return Ok((None, file));
    };
    let file = ron::from_str::<OverlayFile>(&text).map_err(|err| {
        format!(
            "{}:{}:{}: the overlay does not parse ({}); mend it before new values can be stored",
            path.display(),
            err.span.start.line,
            err.span.start.col,
            err.code
        )
    })?;
    Ok((Some(text), file))
}

/// Reads the overlay at `path` (or starts one), changes it with `change` and writes it back
/// atomically. The file's text is changed only where `edits` say (each a path to a value
/// and its new RON text), so the owner's comments and layout stay; where the text cannot be
/// edited so (its shape is unusual, or `edits` is empty), the file is written anew and the
/// text it had is kept beside it as `<name>.before-<time>`.
fn update_overlay(
    path: &Path,
    module_id: &str,
    edits: Vec<(Vec<Step<'_>>, String)>,
    change: impl FnOnce(&mut OverlayFile),
) -> Result<(), String> {
    let (text, mut file) = read_overlay_text(path, module_id)?;
    change(&mut file);
    let edited = match &text {
        Some(old) if !edits.is_empty() => edits
            .iter()
            .try_fold(old.clone(), |text, (steps, value)| set(&text, steps, value))
            .filter(|new| ron::from_str::<OverlayFile>(new).ok().as_ref() == Some(&file)),
        _ => None,
    };
    let new_text = match edited {
        Some(text) => text,
        None => {
            if let Some(old) = &text {
                let stamp = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs())
                    .unwrap_or(0);
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let kept = path.with_file_name(format!("{name}.before-{stamp}"));
                crate::files::write_atomic(&kept, old.as_bytes())
                    .map_err(|err| format!("cannot keep {}: {err}", kept.display()))?;
            }
            let pretty = ron::ser::PrettyConfig::new().struct_names(true);
            let body = ron::ser::to_string_pretty(&file, pretty).map_err(|err| err.to_string())?;
            format!(
                "// The owner's data for module '{module_id}', read off the physical game.\n\
                 // Chancery merges it over the module's data; when it stores an answer it changes only that value.\n{body}\n"
            )
        }
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    }
    write_atomic(path, new_text.as_bytes())
        .map_err(|err| format!("cannot write {}: {err}", path.display()))
}
