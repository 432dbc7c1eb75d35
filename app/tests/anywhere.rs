//! The command line run from a folder that is not the repository: modules are found beside
//! the program and through CHANCERY_MODULES, and saves name their module by an absolute
//! path, so `act`, `state` and `replay` work from anywhere.

use std::path::Path;
use std::process::Command;

fn chancery(args: &[&str], cwd: &Path, modules: Option<&Path>) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chancery"));
    command
        .args(args)
        .current_dir(cwd)
        .env("CHANCERY_HOME", cwd.join("home"))
        .env_remove("CHANCERY_MODULE");
    match modules {
        Some(dir) => command.env("CHANCERY_MODULES", dir),
        None => command.env_remove("CHANCERY_MODULES"),
    };
    let output = command.output().expect("chancery runs");
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

#[test]
fn a_game_is_started_and_played_on_from_other_folders() {
    let here = tempfile::tempdir().expect("a folder");
    let there = tempfile::tempdir().expect("another folder");
    let (code, out) = chancery(&["check", "aftermath"], here.path(), None);
    assert_eq!(code, 0, "found beside the program by its name: {out}");
    let (code, out) = chancery(
        &["new", "aftermath", "--seed", "3", "--out", "game.ron"],
        here.path(),
        None,
    );
    assert_eq!(code, 0, "{out}");
    let save = here.path().join("game.ron");
    let text = std::fs::read_to_string(&save).expect("the save");
    let dir_line = text
        .lines()
        .find(|l| l.trim_start().starts_with("dir:"))
        .expect("the module's folder");
    assert!(
        dir_line.contains("\"/") && dir_line.contains("modules/aftermath"),
        "an absolute path: {dir_line}"
    );
    let save = save.display().to_string();
    let (code, out) = chancery(&["act", &save, "1"], there.path(), None);
    assert_eq!(code, 0, "{out}");
    let (code, out) = chancery(&["replay", &save], there.path(), None);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Replayed 1 inputs: the game is the same."),
        "{out}"
    );
    let (code, out) = chancery(&["state", &save], there.path(), None);
    assert_eq!(code, 0, "{out}");
    // Two seats with hidden Great Powers: the seed shows only in the umpire's view.
    assert!(
        out.contains("Napoleon: Aftermath, seed kept in the save"),
        "{out}"
    );
    let (code, out) = chancery(&["state", &save, "--everything"], there.path(), None);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Napoleon: Aftermath, seed 3"), "{out}");
}

#[test]
fn modules_are_found_in_the_folders_chancery_modules_names() {
    let library = tempfile::tempdir().expect("a module library");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modules/testbed");
    copy(&source, &library.path().join("testbed"));
    let here = tempfile::tempdir().expect("a folder");
    let (code, out) = chancery(&["check", "testbed"], here.path(), None);
    assert_eq!(code, 1, "not beside the program: {out}");
    let (code, out) = chancery(&["check", "testbed"], here.path(), Some(library.path()));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("testbed"), "{out}");
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("list").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

#[test]
fn a_new_module_is_written_that_check_test_and_sim_accept() {
    let here = tempfile::tempdir().expect("a folder");
    let (code, out) = chancery(&["module", "new", "my-game"], here.path(), None);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Wrote the module 'my-game'"), "{out}");
    assert!(here.path().join("my-game/module.ron").is_file());
    for args in [
        vec!["check", "my-game"],
        vec!["test", "my-game"],
        vec!["sim", "my-game", "--games", "5"],
    ] {
        let (code, out) = chancery(&args, here.path(), None);
        assert_eq!(code, 0, "{args:?}: {out}");
    }
    let (code, out) = chancery(&["test", "my-game"], here.path(), None);
    assert!(out.contains("2 passed, 0 failed."), "{code}: {out}");
    let (code, out) = chancery(&["module", "new", "my-game"], here.path(), None);
    assert_eq!(code, 1, "an existing folder is never overwritten: {out}");
    let (code, out) = chancery(&["module", "new", "My Game"], here.path(), None);
    assert_eq!(code, 1);
    assert!(out.contains("cannot be a module's id"), "{out}");
}

/// The campaign's README turn without `--overlay`: the save names the person's own default
/// overlay, and a value a rule asks for is stored there with one `act … --value` (it used
/// to be refused until `--overlay` named that very file). A redacted save exported for a
/// player is found again by the module's name from a folder of the player's.
#[test]
fn a_value_is_stored_in_the_default_overlay_with_one_command() {
    let here = tempfile::tempdir().expect("a folder");
    let answers = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../modules/campaign/tests/answers/umpire-turn-1.txt")
        .display()
        .to_string();
    let run = |args: &[&str]| {
        let (code, out) = chancery(args, here.path(), None);
        assert_eq!(code, 0, "{args:?}: {out}");
        out
    };
    run(&["new", "campaign", "--seed", "11", "--out", "campaign.ron"]);
    run(&["act", "campaign.ron", "--seat", "UM", "published"]);
    for nation in ["FR", "AU", "GB", "RU", "SP", "OT", "PR", "SW", "DK"] {
        run(&["act", "campaign.ron", "--seat", nation, "received"]);
    }
    let (code, out) = chancery(
        &["act", "campaign.ron", "--seat", "UM", "--answers", &answers],
        here.path(),
        None,
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("The random event's dice: dice is not entered yet"),
        "{out}"
    );
    // The umpire's answers again with the value asked for: the exit code and what is said.
    let with_value = |value: &str| {
        let args = [
            "act",
            "campaign.ron",
            "--seat",
            "UM",
            "--answers",
            &answers,
            "--value",
            value,
        ];
        chancery(&args, here.path(), None)
    };
    for (value, next) in [
        ("2", "The random event's dice: sides"),
        ("6", "Random events: "),
    ] {
        let (code, out) = with_value(value);
        assert_eq!(code, 1, "{out}");
        assert!(
            out.contains(next) && out.contains("is not entered yet"),
            "{out}"
        );
    }
    let (code, out) = with_value("A storm at sea");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Winter 1806 (turn 2)"), "{out}");
    let overlay = here.path().join("home/overlays/campaign.ron");
    let stored = std::fs::read_to_string(&overlay).expect("the default overlay");
    assert!(
        stored.contains("A storm at sea") && stored.contains("\"sides\": 6"),
        "{stored}"
    );
    run(&[
        "export",
        "campaign.ron",
        "--seat",
        "FR",
        "--out",
        "france.ron",
    ]);
    let there = tempfile::tempdir().expect("the player's folder");
    std::fs::copy(
        here.path().join("france.ron"),
        there.path().join("france.ron"),
    )
    .expect("copy");
    let (code, out) = chancery(&["state", "france.ron"], there.path(), None);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("(Seen as France"), "{out}");
}
