//! Reading a module folder: the manifest, data and scenario files, scripts and the owner's
//! overlay, merged into one [`Module`] with every problem collected into one report.

use std::collections::BTreeMap;
use std::hash::Hasher;
use std::path::{Path, PathBuf};

use super::data::{DataFile, DataValue, Manifest, OverlayFile, ScenarioDef};
use super::diag::{Diagnostic, Diagnostics};
use super::loader::{Loader, MANIFEST, Source};
use super::locate::{Anchor, Locator};
use super::{Catalog, Module, OverlayInfo, Place, RulesInfo, ScriptSource, overlay, validate};
use crate::digest::Fnv64;

/// How to load a module.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Which overlay file to merge.
    pub overlay: OverlayChoice,
    /// Treat warnings as errors.
    pub strict: bool,
}

/// Which owner's overlay to merge over the module's data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum OverlayChoice {
    /// The overlay in the user's data folder, named after the module id.
    #[default]
    Default,
    /// This file (it need not exist yet), named by the person.
    File(PathBuf),
    /// The file a saved game names as the overlay it was played with: read, but never
    /// written unless the person names it (a save may come from someone else).
    NamedBySave(PathBuf),
    /// The module's demo overlay (its manifest's `demo`): placeholder values, read-only.
    Demo,
    /// No overlay.
    Off,
}

/// Reads a module's scripts and says what its rules declare, or every problem with file and
/// line. The script layer supplies it (loading Lua is its business, not the data's).
pub type Inspect<'a> = &'a dyn Fn(&Module, Depth) -> Result<RulesInfo, Diagnostics>;

/// How far [`Inspect`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Only compile the scripts, to report their syntax errors alongside the data's (the
    /// data has errors, so the rules cannot run).
    Syntax,
    /// Run the scripts and read the rules they declare.
    Full,
}

pub(super) fn load(
    dir: &Path,
    options: &LoadOptions,
    inspect: Inspect<'_>,
) -> Result<Module, Diagnostics> {
    let mut loader = Loader {
        dir: dir.to_path_buf(),
        sources: Vec::new(),
        diags: Diagnostics::default(),
        origins: BTreeMap::new(),
        counted: BTreeMap::new(),
        hasher: Fnv64::default(),
        files_hasher: Fnv64::default(),
    };
    let manifest = read_manifest(&mut loader, dir)?;
    let mut module = Module {
        dir: dir.to_path_buf(),
        manifest: manifest.clone(),
        card_fields: Vec::new(),
        cards: Catalog::default(),
        zones: Catalog::default(),
        places: Catalog::default(),
        pieces: Catalog::default(),
        unit_kinds: Catalog::default(),
        boxes: Catalog::default(),
        counters: Catalog::default(),
        seats: Catalog::default(),
        scenarios: Catalog::default(),
        tables: Catalog::default(),
        boards: Catalog::default(),
        options: Catalog::default(),
        scripts: Vec::new(),
        rules: RulesInfo::default(),
        overlay: None,
        warnings: Diagnostics::default(),
        fingerprint: 0,
        files_fingerprint: 0,
    };
    read_data_files(&mut loader, &mut module, &manifest);
    // Files that do not parse leave holes that every reference check would trip over:
    // report the syntax errors alone, as a compiler does, the scripts' among them.
    loader.count_left_out();
    if loader.diags.has_errors() {
        check_script_syntax(&mut loader, &mut module, inspect);
        return Err(loader.diags);
    }
    validate::check_unknown_words(&mut loader, &module);
    add_overlay(&mut loader, &mut module, &options.overlay);
    validate::check_module(&mut loader, &module);
    read_scripts(&mut loader, &mut module);
    module.fingerprint = loader.hasher.finish();
    module.files_fingerprint = loader.files_hasher.finish();
    read_rules(&mut loader, &mut module, inspect);
    loader.count_left_out();
    if loader.diags.has_errors() || (options.strict && !loader.diags.is_empty()) {
        return Err(loader.diags);
    }
    module.warnings = loader.diags;
    Ok(module)
}

/// Reads and parses `module.ron`, the manifest; a folder without one is an error that
/// says what a module folder is.
fn read_manifest(loader: &mut Loader, dir: &Path) -> Result<Manifest, Diagnostics> {
    let manifest_path = dir.join("module.ron");
    let text = match crate::files::read_inside(dir, "module.ron") {
        Ok((_, text)) => text,
        Err(err) => {
            let (line, col) = err.position.unwrap_or((0, 0));
            let message = if !dir.is_dir() {
                format!(
                    "'{}' is not a folder: name a module folder that holds module.ron",
                    dir.display()
                )
            } else if !manifest_path.exists() {
                "there is no module.ron here: a module folder starts with a module.ron manifest"
                    .to_owned()
            } else {
                err.message
            };
            return Err(Diagnostics(vec![Diagnostic::error(
                &manifest_path,
                line,
                col,
                message,
            )]));
        }
    };
    loader.hasher.write(text.as_bytes());
    loader.files_hasher.write(text.as_bytes());
    loader.sources.push(Source {
        locator: Locator::new(&text),
        path: manifest_path,
        text,
    });
    let Some(manifest) = loader.parse::<Manifest>(MANIFEST) else {
        return Err(std::mem::take(&mut loader.diags));
    };
    if manifest.api != super::API_VERSION {
        loader.error(
            MANIFEST,
            &[Anchor::Ident("api")],
            format!(
                "module API version {} is not supported: this Chancery implements version {}",
                manifest.api,
                super::API_VERSION
            ),
        );
    }
    Ok(manifest)
}

/// Reads the data files and the scenario files the manifest lists, in its order.
fn read_data_files(loader: &mut Loader, module: &mut Module, manifest: &Manifest) {
    for rel in &manifest.data {
        let Some(idx) = loader.read(rel) else {
            continue;
        };
        if let Some(file) = loader.parse::<DataFile>(idx) {
            merge_data(loader, module, idx, file);
        }
    }
    for rel in &manifest.scenarios {
        let Some(idx) = loader.read(rel) else {
            continue;
        };
        if let Some(list) = loader.parse::<Vec<ScenarioDef>>(idx) {
            for scenario in list {
                let id = scenario.id.clone();
                loader.define(&mut module.scenarios, "scenario", idx, id, scenario);
            }
        }
    }
}

/// Adds the owner's overlay `choice` names, if any. Its errors do not stop the module
/// loading (its owner's game still opens, and says what is wrong): they are kept in the
/// overlay's information, and the overlay then adds nothing.
fn add_overlay(loader: &mut Loader, module: &mut Module, choice: &OverlayChoice) {
    let path = match choice {
        OverlayChoice::Default => overlay::default_overlay_path(&module.manifest.id),
        OverlayChoice::File(path) | OverlayChoice::NamedBySave(path) => Some(path.clone()),
        OverlayChoice::Demo => match &module.manifest.demo {
            Some(demo) => Some(module.dir.join(demo)),
            // Nothing to enter: the demo is the game itself.
            None if !module.needs_owner_data() => return,
            None => {
                let message = format!(
                    "--demo: module '{}' has values for the owner to enter but no demo data (its module.ron names no `demo` overlay of placeholder values); start without --demo",
                    module.manifest.id
                );
                loader.error(MANIFEST, &[Anchor::Ident("id")], message);
                return;
            }
        },
        OverlayChoice::Off => None,
    };
    let Some(path) = path else {
        return;
    };
    let before = loader.diags.0.len();
    let mut info = merge_overlay(loader, module, path);
    loader.count_left_out();
    info.named_by_save = matches!(choice, OverlayChoice::NamedBySave(_));
    info.demo = matches!(choice, OverlayChoice::Demo);
    let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) = loader
        .diags
        .0
        .drain(before..)
        .partition(Diagnostic::is_error);
    loader.diags.0.extend(warnings);
    info.errors = Diagnostics(errors);
    module.overlay = Some(info);
}

/// Runs the rules script to read the rules it declares; with errors in the data, only
/// compiles every script, to report their syntax errors too.
fn read_rules(loader: &mut Loader, module: &mut Module, inspect: Inspect<'_>) {
    if loader.diags.has_errors() {
        check_script_syntax(loader, module, inspect);
    } else if !module.scripts.is_empty() {
        match inspect(module, Depth::Full) {
            Ok(info) => {
                module.rules = info;
                validate::check_rules(loader, module);
            }
            Err(diags) => loader.diags.0.extend(diags.0),
        }
    } else {
        let message = format!(
            "no rules script: add '{}' (it returns the rules' hook table)",
            module.manifest.main
        );
        loader.error(MANIFEST, &[Anchor::Ident("main")], message);
    }
}

/// With errors in the data, the rules cannot run: the scripts are only compiled, so that one
/// `check` reports the syntax errors of every file.
fn check_script_syntax(loader: &mut Loader, module: &mut Module, inspect: Inspect<'_>) {
    if module.scripts.is_empty() {
        read_scripts(loader, module);
    }
    if let Err(diags) = inspect(module, Depth::Syntax) {
        loader.diags.0.extend(diags.0);
    }
}

fn merge_data(loader: &mut Loader, module: &mut Module, idx: usize, file: DataFile) {
    for field in file.card_fields {
        if module.card_fields.iter().any(|f| f.id == field.id) {
            loader.error(
                idx,
                &[Anchor::Field("id", &field.id)],
                format!("card field '{}' is declared twice", field.id),
            );
        } else {
            loader.origins.insert(("card field", field.id.clone()), idx);
            module.card_fields.push(field);
        }
    }
    for card in file.cards {
        let id = card.id.clone();
        loader.define(&mut module.cards, "card", idx, id, card);
    }
    for zone in file.zones {
        let id = zone.id.clone();
        loader.define(&mut module.zones, "zone", idx, id, zone);
    }
    for place in file.places {
        let id = place.id.clone();
        loader.define(&mut module.places, "place", idx, id, Place::new(place));
    }
    for piece in file.pieces {
        let id = piece.id.clone();
        loader.define(&mut module.pieces, "piece", idx, id, piece);
    }
    for kind in file.unit_kinds {
        let id = kind.id.clone();
        loader.define(&mut module.unit_kinds, "unit kind", idx, id, kind);
    }
    for boxed in file.boxes {
        let id = boxed.id.clone();
        loader.define(&mut module.boxes, "box", idx, id, boxed);
    }
    for counter in file.counters {
        let id = counter.id.clone();
        loader.define(&mut module.counters, "counter", idx, id, counter);
    }
    for seat in file.seats {
        let id = seat.id.clone();
        loader.define(&mut module.seats, "seat", idx, id, seat);
    }
    for table in file.tables {
        let id = table.id.clone();
        loader.define(&mut module.tables, "table", idx, id, table);
    }
    for board in file.boards {
        let id = board.id.clone();
        loader.define(&mut module.boards, "board", idx, id, board);
    }
    for option in file.options {
        let key = option.key.clone();
        loader.define(&mut module.options, "option", idx, key, option);
    }
}

fn merge_overlay(loader: &mut Loader, module: &mut Module, path: PathBuf) -> OverlayInfo {
    let absent = |path| OverlayInfo {
        path,
        present: false,
        values: 0,
        named_by_save: false,
        demo: false,
        errors: Diagnostics::default(),
    };
    let text = match overlay::overlay_text(&path) {
        Ok(Some(text)) => text,
        Ok(None) => return absent(path),
        Err(err) => {
            let (line, col) = err.position.unwrap_or((1, 1));
            loader.diags.push(Diagnostic::error(
                path.clone(),
                line,
                col,
                format!(
                    "the overlay cannot be read ({}); it is left as it is and adds nothing until it is mended",
                    err.message
                ),
            ));
            return OverlayInfo {
                present: true,
                ..absent(path)
            };
        }
    };
    loader.hasher.write(text.as_bytes());
    loader.sources.push(Source {
        locator: Locator::new(&text),
        path: path.clone(),
        text,
    });
    let idx = loader.sources.len() - 1;
    let mut info = OverlayInfo {
        present: true,
        ..absent(path)
    };
    let Some(file) = loader.parse::<OverlayFile>(idx) else {
        return info;
    };
    if file.module != module.manifest.id {
        loader.error(
            idx,
            &[Anchor::Ident("module")],
            format!(
                "this overlay completes module '{}', not '{}': use the overlay made for this module",
                file.module, module.manifest.id
            ),
        );
        return info;
    }
    let errors_before = loader.diags.error_count();
    validate::check_overlay(loader, module, idx, &file);
    if loader.diags.error_count() > errors_before {
        // A broken overlay merges nothing: its errors are reported, not echoed by the module.
        return info;
    }
    let folder = info
        .path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    info.values = apply_overlay(module, file, &folder);
    info
}

/// Puts a checked overlay's values into `module`: card fields, names and texts, table
/// entries, the spaces and links a place lacks, board positions and images (relative to
/// the overlay's `folder`), space and piece props. Returns how many values it holds.
fn apply_overlay(module: &mut Module, file: OverlayFile, folder: &Path) -> usize {
    let mut values = 0;
    for (card_id, fields) in file.cards {
        if let Some(card) = module.cards.get_mut(card_id.as_str()) {
            for (field, value) in fields {
                if matches!(value, DataValue::Known(_)) {
                    values += 1;
                }
                match (field.as_str(), value) {
                    ("name", DataValue::Known(crate::value::Value::Str(name))) => card.name = name,
                    ("text", DataValue::Known(crate::value::Value::Str(text))) => card.text = text,
                    (_, value) => {
                        card.fields.insert(field, value);
                    }
                }
            }
        }
    }
    for (table_id, entries) in file.tables {
        if let Some(table) = module.tables.get_mut(&table_id) {
            values += entries
                .values()
                .filter(|v| matches!(v, DataValue::Known(_)))
                .count();
            table.entries.extend(entries);
        }
    }
    for (place_id, extra) in file.places {
        if let Some(place) = module.places.get_mut(place_id.as_str()) {
            values += extra.spaces.len() + extra.links.len();
            let mut def = place.def.clone();
            def.spaces.extend(extra.spaces);
            def.links.extend(extra.links);
            *place = Place::new(def);
        }
    }
    for (board_id, copy) in file.boards {
        if let Some(board) = module.boards.get_mut(&board_id) {
            values += copy.spaces.len() + usize::from(copy.image.is_some());
            board.owner.image = copy.image.map(|image| folder.join(image));
            board.owner.spaces = copy
                .spaces
                .into_iter()
                .filter_map(|(key, at)| {
                    let (place, space) = key.split_once('/')?;
                    Some(((place.into(), space.into()), at))
                })
                .collect();
        }
    }
    for (key, props) in file.spaces {
        let Some((place_id, space_id)) = key.split_once('/') else {
            continue;
        };
        if let Some(place) = module.places.get_mut(place_id)
            && let Some(space) = place
                .def
                .spaces
                .iter_mut()
                .find(|s| s.id.as_str() == space_id)
        {
            values += props.len();
            space.props.extend(props);
        }
    }
    for (piece_id, props) in file.pieces {
        if let Some(piece) = module.pieces.get_mut(piece_id.as_str()) {
            values += props.len();
            piece.props.extend(props);
        }
    }
    values
}

fn read_scripts(loader: &mut Loader, module: &mut Module) {
    let manifest = module.manifest.clone();
    let mut rels = vec![manifest.main.clone()];
    rels.extend(
        manifest
            .scripts
            .iter()
            .filter(|s| **s != manifest.main)
            .cloned(),
    );
    for rel in rels {
        if !rel.ends_with(".lua") {
            loader.error(
                MANIFEST,
                &[Anchor::Str(&rel)],
                format!("script '{rel}' must be a .lua file"),
            );
            continue;
        }
        let Some(idx) = loader.read(&rel) else {
            continue;
        };
        let source = &loader.sources[idx];
        module.scripts.push(ScriptSource {
            rel,
            path: source.path.clone(),
            text: source.text.clone(),
        });
    }
    // Lua files in the module's usual folders that the manifest forgets are never loaded.
    for folder in ["rules", "bots"] {
        for name in crate::files::lua_files(&loader.dir.join(folder)) {
            let rel = format!("{folder}/{name}");
            if !module.scripts.iter().any(|s| s.rel == rel) {
                loader.warning(
                    MANIFEST,
                    &[Anchor::Ident("scripts")],
                    format!("'{rel}' is not listed in scripts, so it is never loaded"),
                );
            }
        }
    }
}
