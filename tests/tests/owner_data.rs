//! The owner's data stays the owner's, through the command line as a user meets it: an
//! overlay that cannot be read is an error with its line and column and is never rewritten,
//! a stored value changes only that value in the file (comments and layout stay), a value of
//! the wrong shape is refused before it is written, and values are never written into a
//! module's own folder or into a file that only a received save names.

use std::path::{Path, PathBuf};

use chancery_tests::{copy_module, test_module};
use common::{chancery_as_typed, path};

mod common;

/// A testbed game in `dir` where Alpha's next march (to East) scores East's VP, a value
/// not entered yet; started with `overlay`.
fn game_before_east(dir: &Path, module: &Path, overlay: &Path) -> PathBuf {
    game_before_east_with(dir, module, &["--overlay", path(overlay)])
}

/// As [`game_before_east`], with `flags` naming the overlay.
fn game_before_east_with(dir: &Path, module: &Path, flags: &[&str]) -> PathBuf {
    let save = dir.join("game.ron");
    let answers = dir.join("answers.txt");
    std::fs::write(&answers, "march south\npass\n").expect("write");
    let (code, _, err) = chancery_as_typed(
        &[
            "new",
            path(module),
            "--seed",
            "3",
            "--answers",
            path(&answers),
            "--out",
            path(&save),
        ]
        .into_iter()
        .chain(flags.iter().copied())
        .collect::<Vec<_>>(),
    );
    assert_eq!(code, 0, "{err}");
    save
}

/// `act SAVE march east --value VALUE`, with `--overlay` if given.
fn march_east(save: &Path, value: &str, overlay: Option<&Path>) -> (i32, String, String) {
    let mut args = vec!["act", path(save), "march", "east", "--value", value];
    if let Some(overlay) = overlay {
        args.extend(["--overlay", path(overlay)]);
    }
    chancery_as_typed(&args)
}

#[test]
fn an_overlay_with_a_byte_that_is_not_utf8_is_an_error_and_is_never_rewritten() {
    let scratch = tempfile::tempdir().expect("scratch");
    let overlay = scratch.path().join("owner.ron");
    let bytes = b"Overlay(\n    module: \"testbed\",\n    cards: {\"mystery\": {\"value\": 4}}, // caf\xe9\n)\n";
    std::fs::write(&overlay, bytes).expect("write");
    let module = test_module("testbed");
    let (code, _, err) = chancery_as_typed(&["check", path(&module), "--overlay", path(&overlay)]);
    assert_eq!(code, 1, "check reports the overlay");
    assert!(
        err.contains(&format!("{}:3:", overlay.display()))
            && err.contains("not UTF-8 text: line 3, column 45"),
        "{err}"
    );
    // The game still starts, says what is wrong, and stores nothing in the file.
    let save = game_before_east(scratch.path(), &module, &overlay);
    let (code, _, err) = march_east(&save, "3", Some(&overlay));
    assert_eq!(code, 1);
    assert!(err.contains("not UTF-8"), "{err}");
    assert_eq!(
        std::fs::read(&overlay).expect("read"),
        bytes,
        "byte for byte"
    );
}

#[test]
fn a_stored_value_keeps_the_owner_s_comments_and_layout() {
    let scratch = tempfile::tempdir().expect("scratch");
    let overlay = scratch.path().join("owner.ron");
    let text = "// My copy, read off on 20 November.\nOverlay(\n    module: \"testbed\",\n    // Checked twice.\n    cards: {\"mystery\": {\"value\": 4}},\n)\n";
    std::fs::write(&overlay, text).expect("write");
    let save = game_before_east(scratch.path(), &test_module("testbed"), &overlay);
    let (code, _, err) = march_east(&save, "3", Some(&overlay));
    assert_eq!(code, 0, "{err}");
    let stored = std::fs::read_to_string(&overlay).expect("read");
    assert_eq!(
        stored,
        text.replace(
            "{\"value\": 4}},\n)",
            "{\"value\": 4}},\n    spaces: {\"land/east\": {\"vp\": 3}},\n)"
        ),
        "only the value is added"
    );
}

#[test]
fn a_value_of_the_wrong_shape_is_refused_before_it_is_stored() {
    let scratch = tempfile::tempdir().expect("scratch");
    let overlay = scratch.path().join("owner.ron");
    let save = game_before_east(scratch.path(), &test_module("testbed"), &overlay);
    let before = std::fs::read(&save).expect("read");
    // The other spaces' VP are whole numbers: a list is not one.
    let (code, _, err) = march_east(&save, "[1, 2]", Some(&overlay));
    assert_eq!(code, 1);
    assert!(err.contains("is not a whole number"), "{err}");
    assert!(!overlay.exists(), "nothing is written");
    assert_eq!(std::fs::read(&save).expect("read"), before);
    let (code, _, err) = chancery_as_typed(&[
        "check",
        path(&test_module("testbed")),
        "--overlay",
        path(&overlay),
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn values_are_never_written_into_a_module_s_own_folder() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let fixture = dir.join("tests/owner-fixture.ron");
    let text = "// Placeholders for tests.\nOverlay(module: \"testbed\")\n";
    std::fs::write(&fixture, text).expect("write");
    let games = tempfile::tempdir().expect("scratch");
    let save = game_before_east(games.path(), &dir, &fixture);
    let (code, _, err) = march_east(&save, "3", Some(&fixture));
    assert_eq!(code, 1);
    assert!(
        err.contains("inside the module's folder") && err.contains("--overlay FILE"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&fixture).expect("read"), text);
}

#[test]
fn a_received_save_naming_a_foreign_overlay_never_writes_it_unasked() {
    let scratch = tempfile::tempdir().expect("scratch");
    let victim = scratch.path().join("elsewhere/victim.ron");
    std::fs::create_dir_all(victim.parent().expect("a folder")).expect("mkdir");
    let save = game_before_east(scratch.path(), &test_module("testbed"), &victim);
    // The save names the overlay; a command that names none reads it but stores nothing.
    let (code, _, err) = march_east(&save, "3", None);
    assert_eq!(code, 1);
    assert!(
        err.contains("the saved game names") && err.contains("--overlay"),
        "{err}"
    );
    assert!(!victim.exists(), "the file the save names is not created");
    // Named by the person, it is theirs.
    let (code, _, err) = march_east(&save, "3", Some(&victim));
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(&victim)
            .expect("written")
            .contains("\"vp\": 3")
    );
}

/// Every file under the repository's `modules/*/tests/`, with its bytes.
fn module_test_files() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let modules = chancery_tests::repo_root().join("modules");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&modules)
        .expect("modules")
        .flatten()
        .map(|e| e.path().join("tests"))
        .filter(|p| p.is_dir())
        .collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push((path.clone(), std::fs::read(&path).expect("bytes")));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_demo_plays_the_placeholders_read_only_and_no_command_writes_into_a_module_s_tests() {
    let before = module_test_files();
    assert!(before.len() > 3, "the modules' test files are found");
    let cov = chancery_tests::repo_root().join("modules/cov");
    let games = tempfile::tempdir().expect("scratch");
    let save = games.path().join("demo.ron");
    // The demo starts and plays: its saves remember it is the demo.
    let (code, out, err) = chancery_as_typed(&[
        "new",
        path(&cov),
        "--demo",
        "--seed",
        "5",
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Begin turn"), "{out}");
    let (code, _, err) = chancery_as_typed(&["act", path(&save), "begin"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = chancery_as_typed(&["check", path(&cov), "--demo"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("the demo's placeholder values"), "{out}");
    // A value entered in a demo is never stored: the testbed given a demo of its own.
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    std::fs::write(
        dir.join("tests/demo.ron"),
        "// Placeholders.\nOverlay(module: \"testbed\")\n",
    )
    .expect("write");
    let manifest = dir.join("module.ron");
    let text = std::fs::read_to_string(&manifest).expect("manifest");
    std::fs::write(
        &manifest,
        text.replacen("Module(", "Module(\n    demo: \"tests/demo.ron\",", 1),
    )
    .expect("write");
    let demo_save = game_before_east_with(games.path(), &dir, &["--demo"]);
    let (code, _, err) = march_east(&demo_save, "3", None);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("this is the demo"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("tests/demo.ron")).expect("read"),
        "// Placeholders.\nOverlay(module: \"testbed\")\n"
    );
    // A module without demo values says so.
    let (code, _, err) = chancery_as_typed(&[
        "new",
        path(&test_module("testbed")),
        "--demo",
        "--out",
        path(&games.path().join("none.ron")),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("but no demo data"), "{err}");
    assert_eq!(
        module_test_files(),
        before,
        "no file under modules/*/tests changed"
    );
}

/// `check --overlay` refuses what a game would: a counter mix that gives France 3 units when
/// every scenario places more on the table passes the overlay's own format, but no scenario
/// sets up with it, as `act --value` would refuse it. The fixture itself passes.
#[test]
fn check_refuses_overlay_values_the_set_up_refuses() {
    let cov = chancery_tests::repo_root().join("modules/cov");
    let fixture = cov.join("tests/owner-fixture.ron");
    let text = std::fs::read_to_string(&fixture).expect("the fixture");
    let scratch = tempfile::tempdir().expect("scratch");
    let overlay = scratch.path().join("mine.ron");
    assert!(text.contains("\"FR\": 60, "), "the fixture's counter mix");
    std::fs::write(&overlay, text.replacen("\"FR\": 60, ", "\"FR\": 3, ", 1)).expect("write");
    let (code, _, err) = chancery_as_typed(&["check", path(&cov), "--overlay", path(&overlay)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("scenario 'lutzen-bautzen'")
            && err.contains("does not set up with this overlay's values")
            && err.contains("the counter mix has 3 FR, but 17 are on the table"),
        "{err}"
    );
    let before = std::fs::read(&overlay).expect("read");
    assert_eq!(
        std::fs::read(&overlay).expect("read"),
        before,
        "check writes nothing"
    );
    let (code, _, err) = chancery_as_typed(&["check", path(&cov), "--overlay", path(&fixture)]);
    assert_eq!(code, 0, "{err}");
}

/// `--demo` with nothing asked for starts the module's demo game: in Congress of Vienna,
/// France against the Allied bot (20), one person; a scenario or seats given are kept.
#[test]
fn the_demo_starts_the_module_s_own_demo_game_unless_one_is_asked_for() {
    let games = tempfile::tempdir().expect("a scratch folder");
    let cov = chancery_tests::repo_root().join("modules/cov");
    let start = |name: &str, extra: &[&str]| {
        let save = games.path().join(name);
        let mut args = vec!["new", path(&cov), "--demo", "--out", path(&save)];
        args.extend_from_slice(extra);
        let (code, out, err) = chancery_as_typed(&args);
        assert_eq!(code, 0, "{out}{err}");
        chancery_core::SaveFile::read(&save).expect("the save")
    };
    let demo = start("demo.ron", &[]);
    let bots: Vec<&str> = demo
        .seats
        .iter()
        .filter(|(_, who)| matches!(who, chancery_core::Controller::Bot(_)))
        .map(|(seat, _)| seat.as_str())
        .collect();
    assert_eq!(
        bots,
        ["AU", "BR", "RU"],
        "the Allied bot plays the Coalition"
    );
    assert_eq!(
        demo.options.to_json()["seating"],
        "solo-vs-allied-bot",
        "the seating of section 20"
    );
    let asked = start("asked.ron", &["--scenario", "clash-of-armies"]);
    assert_eq!(asked.scenario.as_str(), "clash-of-armies");
    assert!(
        asked
            .seats
            .values()
            .all(|who| matches!(who, chancery_core::Controller::Human)),
        "the game asked for is kept: {:?}",
        asked.seats
    );
}

/// Every module made from a published text names it, and every table that gives values
/// cites the lines they come from: `check --strict` passes and lists, table by table, the
/// values cited and those left to the owner. A table whose citation is taken away is a
/// warning naming its file, line and column, and an error with `--strict`.
#[test]
fn every_figure_a_module_gives_is_cited_to_its_source() {
    let modules = chancery_tests::repo_root().join("modules");
    let mut checked = 0;
    for entry in std::fs::read_dir(&modules).expect("modules/").flatten() {
        if !entry.path().join("module.ron").exists() {
            continue;
        }
        let (code, out, err) =
            chancery_as_typed(&["check", path(&entry.path()), "--no-overlay", "--strict"]);
        assert!(out.contains("  sources, from "), "{out}");
        assert_eq!(code, 0, "{}: {err}", entry.path().display());
        assert!(!err.contains("cites no line"), "{err}");
        checked += 1;
    }
    assert!(checked >= 5, "the modules of the box");
    // Congress of Vienna's cards: every figure cited.
    let (_, out, _) = chancery_as_typed(&["check", path(&modules.join("cov")), "--no-overlay"]);
    let cards = out
        .lines()
        .find(|l| l.trim_start().starts_with("card figures: "))
        .expect("the cards' count");
    let counts: Vec<&str> = cards.split_whitespace().collect();
    assert_eq!(counts[2], counts[4], "{cards}");
    // War and Peace's unit costs, all ten printed (J.2.d).
    let (_, out, _) =
        chancery_as_typed(&["check", path(&modules.join("warpeace")), "--no-overlay"]);
    assert!(
        out.contains("Unit costs (J.2.d, J.5.f, J.6.b) (table unit_cost): 10 cited, 0 owner"),
        "{out}"
    );

    // The regions of Napoleon: Aftermath without their citation.
    let (_scratch, dir) = copy_module(&modules.join("aftermath"));
    let board = dir.join("data/board.ron");
    let text = std::fs::read_to_string(&board).expect("read");
    let cited = "as the board description names them (L33).";
    assert!(text.contains(cited), "the fixture's doc moved");
    std::fs::write(
        &board,
        text.replace(cited, "as the board description names them."),
    )
    .expect("write");
    let (code, _, err) = chancery_as_typed(&["check", path(&dir), "--no-overlay"]);
    assert_eq!(code, 0, "a warning only: {err}");
    let line = text
        .lines()
        .position(|l| l.contains("id: \"regions\""))
        .expect("the table")
        + 1;
    assert!(
        err.contains(&format!("warning: {}:{line}:", board.display()))
            && err.contains("table 'regions' gives 4 values but its doc cites no line of"),
        "{err}"
    );
    let (code, _, _) = chancery_as_typed(&["check", path(&dir), "--no-overlay", "--strict"]);
    assert_eq!(code, 1, "an error with --strict");
}
