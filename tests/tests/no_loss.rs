//! Nothing a player does loses a game, through the command line as a user meets it: an
//! output never replaces a game or a recording unless asked (`--force`), never writes
//! through a link or onto a device, a recording never takes its own save's place, and an
//! answers file is applied whole or not at all.

use std::path::{Path, PathBuf};

use chancery_tests::test_module;
use common::{chancery, path};

mod common;

/// A testbed game saved in `dir/name` after `answers` (one per line).
fn game(dir: &Path, name: &str, answers: &str) -> PathBuf {
    let save = dir.join(name);
    let file = dir.join(format!("{name}.answers"));
    std::fs::write(&file, answers).expect("write");
    let (code, _, err) = chancery(&[
        "new",
        path(&test_module("testbed")),
        "--seed",
        "3",
        "--answers",
        path(&file),
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    save
}

fn inputs(save: &Path) -> usize {
    chancery_core::SaveFile::read(save)
        .expect("a save")
        .inputs
        .len()
}

#[test]
fn new_out_keeps_a_game_that_is_there_unless_forced() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = game(scratch.path(), "game.ron", "bid 1\nbid 2\nbid 3\n");
    let before = std::fs::read(&save).expect("read");
    let (code, _, err) = chancery(&["new", path(&test_module("testbed")), "--out", path(&save)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("already exists and is kept as it is") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read(&save).expect("read"), before, "byte for byte");
    let (code, _, err) = chancery(&[
        "new",
        path(&test_module("testbed")),
        "--out",
        path(&save),
        "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(inputs(&save), 0, "asked for, the new game replaces it");
}

#[cfg(unix)]
#[test]
fn outputs_never_write_through_a_link_or_onto_a_device() {
    let scratch = tempfile::tempdir().expect("scratch");
    let target = scratch.path().join("notes.txt");
    std::fs::write(&target, "the user's notes").expect("write");
    let link = scratch.path().join("link.ron");
    std::os::unix::fs::symlink(&target, &link).expect("link");
    let fifo = scratch.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    for out in [link.as_path(), fifo.as_path(), Path::new("/dev/null")] {
        let (code, _, err) = chancery(&[
            "new",
            path(&test_module("testbed")),
            "--out",
            path(out),
            "--force",
        ]);
        assert_eq!(code, 1, "{}: {err}", out.display());
        assert!(
            err.contains("is a link") || err.contains("not a regular file"),
            "{}: {err}",
            out.display()
        );
    }
    assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()));
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "the user's notes"
    );
    let kind = std::fs::symlink_metadata(&fifo).expect("there").file_type();
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&kind),
        "still a pipe"
    );
}

#[test]
fn a_recording_never_replaces_its_own_save_or_another_recording_unasked() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = game(scratch.path(), "game.ron", "bid 1\nbid 2\n");
    let before = std::fs::read(&save).expect("read");
    for force in [false, true] {
        let mut args = vec!["record", path(&save), "--out", path(&save)];
        if force {
            args.push("--force");
        }
        let (code, _, err) = chancery(&args);
        assert_eq!(code, 1);
        assert!(err.contains("is the save being recorded"), "{err}");
        assert_eq!(std::fs::read(&save).expect("read"), before);
    }
    let annotated = scratch.path().join("recorded.ron");
    std::fs::write(&annotated, "// notes by hand the user keeps\n").expect("write");
    let (code, _, err) = chancery(&["record", path(&save), "--out", path(&annotated)]);
    assert_eq!(code, 1);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&annotated).expect("read"),
        "// notes by hand the user keeps\n"
    );
    let (code, _, err) = chancery(&["record", path(&save), "--out", path(&annotated), "--force"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = chancery(&["replay", path(&save), "--expect-same"]);
    assert_eq!(code, 0, "the save still reads: {out}{err}");
}

#[test]
fn act_out_keeps_another_game_unless_forced() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = game(scratch.path(), "game.ron", "bid 1\n");
    let other = game(scratch.path(), "other.ron", "bid 1\nbid 2\nbid 3\n");
    let before = std::fs::read(&other).expect("read");
    let (code, _, err) = chancery(&["act", path(&save), "bid", "2", "--out", path(&other)]);
    assert_eq!(code, 1);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read(&other).expect("read"), before);
    let (code, _, err) = chancery(&["act", path(&save), "bid", "2"]);
    assert_eq!(code, 0, "its own save is written back: {err}");
    assert_eq!(inputs(&save), 2);
}

#[test]
fn an_answers_file_that_fails_at_line_four_changes_nothing_and_runs_again_once_mended() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = game(scratch.path(), "game.ron", "bid 1\n");
    let before = std::fs::read(&save).expect("read");
    let answers = scratch.path().join("more.txt");
    std::fs::write(&answers, "bid 2\n# a comment\nbid 3\nbid 9\n").expect("write");
    let (code, _, err) = chancery(&["act", path(&save), "--answers", path(&answers)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("more.txt:4: 'bid'") && err.contains("nothing was applied"),
        "{err}"
    );
    assert_eq!(std::fs::read(&save).expect("read"), before, "byte for byte");
    std::fs::write(&answers, "bid 2\n# a comment\nbid 3\nrecruit\n").expect("write");
    let (code, _, err) = chancery(&["act", path(&save), "--answers", path(&answers)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(inputs(&save), 4, "each line applied once");

    // `new` with a failing file writes nothing, so the same command runs again once mended.
    let fresh = scratch.path().join("fresh.ron");
    std::fs::write(&answers, "bid 1\nbid 9\n").expect("write");
    let new = |answers: &Path| {
        chancery(&[
            "new",
            path(&test_module("testbed")),
            "--seed",
            "3",
            "--answers",
            path(answers),
            "--out",
            path(&fresh),
        ])
    };
    let (code, _, err) = new(&answers);
    assert_eq!(code, 1);
    assert!(err.contains("nothing was saved"), "{err}");
    assert!(!fresh.exists());
    std::fs::write(&answers, "bid 1\nbid 2\n").expect("write");
    let (code, _, err) = new(&answers);
    assert_eq!(code, 0, "{err}");
    assert_eq!(inputs(&fresh), 2);
}
