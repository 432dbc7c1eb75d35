//! War and Peace, the Grand Campaign (seed 002): from the command line and under random
//! play.

use std::path::PathBuf;

use chancery_core::{GameSpec, LoadOptions, OverlayChoice};
use chancery_tests::{Picker, random_walk, repo_root};
use common::{chancery_as_typed as chancery, chancery_ok as run, path};

mod common;

fn module_dir() -> PathBuf {
    repo_root().join("modules/warpeace")
}

/// A two-player game from the command line stops at September 1805's first decision, and
/// `act` plays the month on with the dice asked for when the players roll their own.
#[test]
fn a_two_player_game_from_the_command_line_with_physical_dice() {
    let scratch = tempfile::tempdir().expect("scratch");
    let module = module_dir();
    let fixture = module.join("tests/owner-fixture.ron");
    let save = scratch.path().join("warpeace.ron");
    let out = run(&[
        "new",
        path(&module),
        "--scenario",
        "two-player",
        "--seed",
        "5",
        "--overlay",
        path(&fixture),
        "--physical-dice",
        "--out",
        path(&save),
    ]);
    assert!(out.contains("Turn 1, phase 'September 1805"), "{out}");
    // The Neutral Segment: Prussia, neutral and no player's, produces for England (J.2.i).
    assert!(out.contains("Prussia's Reinforcement Phase (J.2)"), "{out}");
    run(&["act", path(&save), "production"]);
    run(&["act", path(&save), "set", "3"]);
    // The last figure rolls the die: without it, nothing is applied and the die is asked for.
    let (code, _, err) = chancery(&["act", path(&save), "set", "1"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("the rules need a 6-sided die roll: give it with --dice N"),
        "{err}"
    );
    let out = run(&["act", path(&save), "set", "1", "--dice", "6"]);
    assert!(
        out.contains("Prussia's production die: 6 = 6: 8 Production Point(s) from 4 city(ies), 2 of them for Landwehr only (J.2.b)."),
        "{out}"
    );
    let out = run(&["act", path(&save), "done"]);
    assert!(
        out.contains("Prussia's 8 unspent Production Points are lost (J.2.h)."),
        "{out}"
    );
    assert!(
        out.contains("2. Pro-French Player(s) Segment, Naval Phase"),
        "{out}"
    );
}

/// Random legal play of every scenario with the fixture runs 24 months (to September 1807)
/// in 50 seeds with no error, with the module's check after every input.
#[test]
fn random_play_of_every_scenario_runs_24_months() {
    let options = LoadOptions {
        overlay: OverlayChoice::File(module_dir().join("tests/owner-fixture.ron")),
        strict: false,
    };
    let module = std::sync::Arc::new(
        chancery_core::load_module(module_dir(), &options).expect("the module loads"),
    );
    for scenario in [
        "solitaire",
        "two-player",
        "three-player",
        "four-player",
        "five-player",
        "six-player",
    ] {
        for seed in 0..50 {
            let mut session =
                chancery_core::start_game(module.clone(), GameSpec::new(scenario, seed))
                    .expect("starts");
            session.check_every_step = true;
            let mut picker = Picker::new(seed);
            while session.table().turn <= 24 && session.table().result.is_none() {
                let played = random_walk(&mut session, &mut picker, 1)
                    .unwrap_or_else(|e| panic!("{scenario}, seed {seed}: {e}"));
                assert_eq!(played, 1, "{scenario}, seed {seed}: the walk stopped");
            }
        }
    }
}
