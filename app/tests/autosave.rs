//! No game is lost by use: each game a window plays has its own autosave, which no other
//! window, start or opened save writes over or removes; empty games are let go, games with
//! inputs stay until the person discards them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chancery::gui::Opened;
use chancery::gui::autosave;
use chancery::gui::{ChanceryApp, GameOptions, GameView, Launcher};
use chancery_core::save::SaveFile;
use chancery_core::{GameSpec, LoadOptions, OverlayChoice, Session, Value};

fn testbed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modules/testbed")
}

fn load() -> LoadOptions {
    LoadOptions {
        overlay: OverlayChoice::Off,
        strict: false,
    }
}

fn game(seed: u64) -> Session {
    let module = Arc::new(chancery_core::load_module(testbed(), &load()).expect("loads"));
    chancery_core::start_game(module, GameSpec::new("basic", seed)).expect("starts")
}

/// A window playing `session`, autosaving in `dir`.
fn window(dir: &Path, session: Session) -> ChanceryApp {
    let options = GameOptions {
        watch: false,
        autosave_dir: Some(dir.to_path_buf()),
        load_options: load(),
    };
    let mut app = ChanceryApp::new(
        GameView::new(session, options),
        Launcher::new(&testbed(), load()),
    );
    app.view.autosave();
    app
}

/// Plays `n` moves by hand (a roll for the table each) in `app`.
fn play(app: &mut ChanceryApp, n: usize) {
    for _ in 0..n {
        app.view
            .manual(chancery_core::Manual::Roll { sides: 6, count: 1 });
        assert!(app.view.error().is_none(), "{:?}", app.view.error());
    }
}

fn inputs(path: &Path) -> usize {
    SaveFile::read(path).expect("a save").inputs.len()
}

#[test]
fn two_windows_on_one_module_each_keep_their_own_game() {
    let dir = tempfile::tempdir().expect("scratch");
    let mut first = window(dir.path(), game(1));
    let mut second = window(dir.path(), game(2));
    play(&mut first, 5);
    play(&mut second, 3);
    let (a, b) = (
        first.view.autosave_path().expect("autosaved").to_path_buf(),
        second
            .view
            .autosave_path()
            .expect("autosaved")
            .to_path_buf(),
    );
    assert_ne!(a, b, "two files");
    assert_eq!(
        (inputs(&a), inputs(&b)),
        (5, 3),
        "neither wrote over the other"
    );
    let listed = autosave::games(dir.path(), Some("testbed"));
    assert_eq!(listed.len(), 2);
    assert!(listed.iter().all(|g| g.in_use), "both are played now");
}

#[test]
fn eleven_plain_starts_leave_a_game_with_inputs_as_it_was() {
    let dir = tempfile::tempdir().expect("scratch");
    let mut played = window(dir.path(), game(1));
    play(&mut played, 58);
    let path = played
        .view
        .autosave_path()
        .expect("autosaved")
        .to_path_buf();
    drop(played);
    let before = std::fs::read(&path).expect("kept");
    for seed in 0..11 {
        // A start that offers the last game and plays nothing.
        let app = window(dir.path(), game(seed));
        let offered = autosave::games(dir.path(), Some("testbed"))
            .into_iter()
            .find(|g| !g.in_use)
            .map(|g| g.path);
        assert_eq!(
            offered.as_deref(),
            Some(path.as_path()),
            "the game is offered"
        );
        drop(app);
    }
    assert_eq!(
        std::fs::read(&path).expect("still there"),
        before,
        "byte for byte"
    );
    let left: Vec<_> = autosave::games(dir.path(), None)
        .into_iter()
        .map(|g| g.path)
        .collect();
    assert_eq!(
        left,
        vec![path],
        "the empty games are let go, the played one stays"
    );
}

#[test]
fn opening_a_save_in_a_window_writes_over_no_other_game() {
    let dir = tempfile::tempdir().expect("scratch");
    let elsewhere = tempfile::tempdir().expect("scratch");
    let mut hot_seat = window(dir.path(), game(1));
    play(&mut hot_seat, 187);
    let kept = hot_seat
        .view
        .autosave_path()
        .expect("autosaved")
        .to_path_buf();
    drop(hot_seat);
    let before = std::fs::read(&kept).expect("kept");

    // Another window opens a save from elsewhere, plays on, then opens another.
    let mut other = window(dir.path(), game(2));
    let mut loaded = game(3);
    loaded.act("bid", Value::Int(1)).expect("bid");
    let save = elsewhere.path().join("game.ron");
    SaveFile::of(&loaded).write(&save).expect("saved");
    let opened = other.launcher.open_save(&save).expect("opens");
    other.play(opened);
    play(&mut other, 2);
    let own = other.view.autosave_path().expect("autosaved").to_path_buf();
    assert_ne!(own, kept);
    assert_eq!(inputs(&own), 3);
    assert_eq!(
        std::fs::read(&kept).expect("kept"),
        before,
        "the hot-seat game is untouched"
    );
    assert_eq!(inputs(&save), 1, "the opened save is not the autosave");

    // Resuming the hot-seat game goes on in its own file; the new game's file is let go.
    let opened = other.launcher.open_save(&kept).expect("opens");
    other.play(opened);
    assert_eq!(other.view.autosave_path(), Some(kept.as_path()));
    play(&mut other, 1);
    assert_eq!(inputs(&kept), 188);
    assert_eq!(inputs(&own), 3, "the game played before keeps its file");
}

#[test]
fn a_game_played_in_one_window_is_not_taken_over_by_another() {
    let dir = tempfile::tempdir().expect("scratch");
    let mut first = window(dir.path(), game(1));
    play(&mut first, 4);
    let path = first.view.autosave_path().expect("autosaved").to_path_buf();
    let mut second = window(dir.path(), game(2));
    let opened: Opened = second.launcher.open_save(&path).expect("opens");
    second.play(opened);
    assert_ne!(
        second.view.autosave_path(),
        Some(path.as_path()),
        "the second window keeps a file of its own"
    );
    play(&mut second, 2);
    play(&mut first, 1);
    assert_eq!(
        inputs(&path),
        5,
        "the first window's game goes on in its file"
    );
    assert!(
        autosave::discard(&path).is_err(),
        "a game being played is not discarded"
    );
    drop(first);
    let to = autosave::discard(&path).expect("discarded once let go");
    assert_eq!(inputs(&to), 5, "the discarded game is kept aside");
}
