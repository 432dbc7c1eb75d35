//! The owner's overlay file: where it lives, and writing one value into it.
//!
//! The overlay holds data read off the physical game (a card's value, say). It lives
//! outside the module folder, so that updating the module never overwrites it. Chancery
//! rewrites the whole file when it stores an answer, so comments in it are not kept.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::data::{DataValue, OverlayFile};
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
/// value. Fails without touching the file if the existing file does not parse.
pub fn write_overlay_value(
    path: &Path,
    module_id: &str,
    target: &OverlayTarget,
    value: DataValue,
) -> Result<(), String> {
    update_overlay(path, module_id, |file| match target {
        OverlayTarget::CardField(card, field) => {
            file.cards
                .entry(card.clone())
                .or_default()
                .insert(field.clone(), value);
        }
        OverlayTarget::SpaceProp(place, space, prop) => {
            file.spaces
                .entry(format!("{place}/{space}"))
                .or_default()
                .insert(prop.clone(), value);
        }
        OverlayTarget::PieceProp(piece, prop) => {
            file.pieces
                .entry(piece.clone())
                .or_default()
                .insert(prop.clone(), value);
        }
        OverlayTarget::TableEntry(table, key) => {
            file.tables
                .entry(table.clone())
                .or_default()
                .insert(key.clone(), value);
        }
    })
}

/// Stores in the overlay at `path` (creating it) what the owner says of their copy of
/// `board`: the image to draw under it, or where a space lies on it. Keeps every other value;
/// fails without touching the file if the existing file does not parse.
pub fn write_overlay_board(
    path: &Path,
    module_id: &str,
    board: &str,
    change: impl FnOnce(&mut super::BoardOverlay),
) -> Result<(), String> {
    update_overlay(path, module_id, |file| {
        change(file.boards.entry(board.to_owned()).or_default())
    })
}

/// Reads the overlay at `path` (or starts one), changes it and writes it back atomically.
fn update_overlay(
    path: &Path,
    module_id: &str,
    change: impl FnOnce(&mut OverlayFile),
) -> Result<(), String> {
    let mut file = match std::fs::read_to_string(path) {
        Ok(text) => ron::from_str::<OverlayFile>(&text).map_err(|err| {
            format!(
                "{}:{}:{}: the overlay does not parse ({}); fix it before new values can be stored",
                path.display(),
                err.span.start.line,
                err.span.start.col,
                err.code
            )
        })?,
        Err(_) => OverlayFile {
            module: module_id.to_owned(),
            ..OverlayFile::default()
        },
    };
    change(&mut file);
    let pretty = ron::ser::PrettyConfig::new().struct_names(true);
    let body = ron::ser::to_string_pretty(&file, pretty).map_err(|err| err.to_string())?;
    let text = format!(
        "// The owner's data for module '{module_id}', read off the physical game.\n\
         // Chancery merges it over the module's data and rewrites this file when it stores an answer.\n{body}\n"
    );
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    }
    write_atomic(path, text.as_bytes())
        .map_err(|err| format!("cannot write {}: {err}", path.display()))
}
