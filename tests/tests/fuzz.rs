//! Fuzzing the two readers of untrusted files, at a small size so that it runs with every
//! test: the module loader on mutated copies of Congress of Vienna's data files, and the save
//! reader on mutated saves. Neither may panic; the loader reports each problem with a file
//! (and the save reader with a line and column), and a save that reads still rebuilds its
//! game or says why not. Cases that once failed are kept by proptest in
//! `tests/proptest-regressions/fuzz.txt` and run first.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use chancery_core::save::SaveError;
use chancery_core::{GameSpec, Module, SaveFile};
use chancery_tests::{copy_module, no_overlay};
use proptest::prelude::*;

/// The data files mutated (relative to the module folder).
const DATA_FILES: &[&str] = &[
    "module.ron",
    "data/cards.ron",
    "data/components.ron",
    "data/fronts.ron",
    "data/issues.ron",
    "data/scenarios.ron",
    "data/situation.ron",
    "data/tables.ron",
];

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(40)
}

fn cov() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../modules/cov")
}

/// Pieces of RON and text that mutations insert: brackets, separators, numbers at the
/// edges, bytes that are not UTF-8, comments, and the words of the format.
const TOKENS: &[&[u8]] = &[
    b"(",
    b")",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b":",
    b"\"",
    b"'",
    b"-1",
    b"1e999",
    b"-9223372036854775809",
    b"NaN",
    b"inf",
    b"\xff",
    b"\xc3",
    b"/*",
    b"*/",
    b"//",
    b"#",
    b"Some(",
    b"None",
    b"true",
    b"r#\"",
    b"\\u{0}",
    b"..",
    b"/etc/passwd",
];

/// One change to a file; positions are fractions of its length.
#[derive(Clone, Debug)]
enum Edit {
    Flip { at: f64, byte: u8 },
    Delete { at: f64, len: usize },
    Duplicate { at: f64, len: usize },
    Insert { at: f64, token: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0f64, any::<u8>()).prop_map(|(at, byte)| Edit::Flip { at, byte }),
        (0.0..1.0f64, 1..64usize).prop_map(|(at, len)| Edit::Delete { at, len }),
        (0.0..1.0f64, 1..256usize).prop_map(|(at, len)| Edit::Duplicate { at, len }),
        (0.0..1.0f64, 0..TOKENS.len()).prop_map(|(at, token)| Edit::Insert { at, token }),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let spot = |at: f64, len: usize| ((at * len as f64) as usize).min(len);
    match *edit {
        Edit::Flip { at, byte } => {
            if !bytes.is_empty() {
                let i = spot(at, bytes.len() - 1);
                bytes[i] = byte;
            }
        }
        Edit::Delete { at, len } => {
            let i = spot(at, bytes.len());
            let end = (i + len).min(bytes.len());
            bytes.drain(i..end);
        }
        Edit::Duplicate { at, len } => {
            let i = spot(at, bytes.len());
            let end = (i + len).min(bytes.len());
            let copy = bytes[i..end].to_vec();
            bytes.splice(end..end, copy);
        }
        Edit::Insert { at, token } => {
            let i = spot(at, bytes.len());
            bytes.splice(i..i, TOKENS[token].iter().copied());
        }
    }
}

/// A save of Congress of Vienna's default scenario, as written.
fn save_text() -> &'static (Arc<Module>, String) {
    static SAVE: OnceLock<(Arc<Module>, String)> = OnceLock::new();
    SAVE.get_or_init(|| {
        let module = chancery_tests::load(&cov());
        let scenario = module
            .default_scenario()
            .expect("a default scenario")
            .id
            .to_string();
        let session =
            chancery_core::start_game(module.clone(), GameSpec::new(scenario.as_str(), 7))
                .expect("the game starts");
        let text = SaveFile::of(&session).to_ron().expect("the save writes");
        (module, text)
    })
}

proptest! {
    // 40 cases each with every test run; PROPTEST_CASES=5000 for a longer hunt.
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn a_mutated_data_file_loads_or_each_problem_names_its_file(
        file in 0..DATA_FILES.len(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let (_scratch, dir) = copy_module(&cov());
        let path = dir.join(DATA_FILES[file]);
        let mut bytes = std::fs::read(&path).expect("read");
        for e in &edits {
            apply(&mut bytes, e);
        }
        std::fs::write(&path, &bytes).expect("write");
        if let Err(diagnostics) = chancery_core::load_module(&dir, &no_overlay()) {
            prop_assert!(diagnostics.has_errors());
            for d in diagnostics.iter() {
                prop_assert!(!d.message.trim().is_empty(), "an empty message: {d}");
                prop_assert!(
                    d.path.starts_with(&dir),
                    "a diagnostic outside the module: {d}"
                );
                prop_assert!(!d.message.contains("root:"), "a file outside was read: {d}");
            }
        }
    }

    #[test]
    fn a_mutated_save_reads_with_a_position_or_rebuilds_its_game(
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let (module, text) = save_text();
        let mut bytes = text.clone().into_bytes();
        for e in &edits {
            apply(&mut bytes, e);
        }
        let scratch = tempfile::tempdir().expect("scratch");
        let path = scratch.path().join("game.ron");
        std::fs::write(&path, &bytes).expect("write");
        match SaveFile::read(&path) {
            Err(SaveError::Format { line, col, message, .. }) => {
                prop_assert!(line > 0 && col > 0, "no position: {message}");
            }
            Err(SaveError::Io { message, .. }) => {
                prop_assert!(message.contains("UTF-8") || message.contains("cannot read"), "{message}");
            }
            Err(other) => prop_assert!(false, "unexpected: {other}"),
            Ok(save) => {
                // It may no longer replay, but rebuilding it must end in a game or an error.
                let _ = save.restore(module.clone(), &path);
            }
        }
    }
}
