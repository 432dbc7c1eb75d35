//! Determinism, undo and redo, and saves: a game is (module, scenario, seed, inputs), so
//! the same inputs give byte-identical state JSON, undo and redo walk the same states, and
//! a save reloads into the same game.

use chancery_core::devtools::testing::run_module_tests;
use chancery_core::save::SaveFile;
use chancery_core::view::state_json;
use chancery_core::{GameSpec, Session, Value};
use chancery_tests::{Picker, load, long_game, long_game_step, random_walk, test_module};

fn json(session: &Session) -> String {
    let view = Value::Nil;
    serde_json::to_string(&state_json(session.table(), &session.log(), None, &view))
        .expect("serialises")
}

fn testbed(seed: u64) -> Session {
    let mut session =
        chancery_core::start_game(load(&test_module("testbed")), GameSpec::new("basic", seed))
            .expect("starts");
    session.check_every_step = true;
    session
}

#[test]
fn the_same_inputs_give_byte_identical_state_json() {
    let mut a = testbed(11);
    let mut b = testbed(11);
    random_walk(&mut a, &mut Picker::new(3), 40).expect("plays");
    for record in a.history().records() {
        b.apply(record.input.clone()).expect("replays");
    }
    assert_eq!(json(&a), json(&b));
    assert!(
        a.history().len() >= 5,
        "the walk played {} inputs",
        a.history().len()
    );
}

#[test]
fn dice_and_shuffles_come_from_the_seed() {
    let hands = |seed| {
        let session = testbed(seed);
        (
            session.table().zones["hand.A"].cards.clone(),
            session.table().zones["hand.B"].cards.clone(),
        )
    };
    assert_eq!(hands(5), hands(5));
    let distinct: std::collections::BTreeSet<_> = (0..20).map(hands).collect();
    assert!(
        distinct.len() > 5,
        "20 seeds dealt only {} different hands",
        distinct.len()
    );
}

#[test]
fn bot_games_replay_identically() {
    let spec = || {
        let mut spec = GameSpec::new("basic", 9);
        spec.seats
            .insert("A".into(), chancery_core::Controller::Bot("simple".into()));
        spec.seats
            .insert("B".into(), chancery_core::Controller::Bot("simple".into()));
        spec
    };
    let module = load(&test_module("testbed"));
    let mut a = chancery_core::start_game(module.clone(), spec()).expect("starts");
    let mut b = chancery_core::start_game(module, spec()).expect("starts");
    a.run_bots(1000).expect("plays");
    b.run_bots(1000).expect("plays");
    assert!(a.is_over());
    assert_eq!(json(&a), json(&b));
}

#[test]
fn undo_and_redo_walk_back_and_forth_through_the_same_states() {
    let mut session = testbed(2);
    let mut picker = Picker::new(1);
    let mut states = vec![json(&session)];
    for _ in 0..90 {
        long_game_step(&mut session, &mut picker);
        states.push(json(&session));
    }
    let total = states.len() - 1;
    assert_eq!(session.history().len(), total);
    // Undo to the start, checking each state on the way; then redo to the end.
    for n in (0..total).rev() {
        assert!(session.undo());
        assert_eq!(json(&session), states[n], "after undoing to {n} inputs");
    }
    assert!(!session.undo(), "nothing left to undo");
    for (n, state) in states.iter().enumerate().skip(1) {
        assert!(session.redo().expect("redo"));
        assert_eq!(&json(&session), state, "after redoing to {n} inputs");
    }
    assert!(!session.redo().expect("redo"), "nothing left to redo");
    session.goto(17).expect("goto");
    assert_eq!(json(&session), states[17]);
    session.goto(total).expect("goto");
    assert_eq!(json(&session), states[total]);
    assert!(session.warnings.is_empty(), "{:?}", session.warnings);
}

#[test]
fn a_new_input_after_undo_drops_the_redo_stack() {
    let mut session = testbed(2);
    session.act("bid", Value::Int(1)).expect("bid");
    session.undo();
    session.act("bid", Value::Int(2)).expect("another bid");
    assert!(!session.redo().expect("redo"), "the undone bid is gone");
    assert_eq!(session.table().counter(&"bid".into()), Ok(2));
}

#[test]
fn undo_stays_correct_after_two_thousand_inputs() {
    let mut session = testbed(4);
    session.check_every_step = false;
    long_game(&mut session, 2000);
    let before = json(&session);
    let record = session.history().records().last().expect("inputs").clone();
    assert!(session.undo());
    assert_eq!(session.history().len(), 1999);
    session.apply(record.input).expect("same input again");
    assert_eq!(json(&session), before);
}

#[test]
fn save_then_load_gives_the_same_game_and_it_continues_the_same() {
    let scratch = tempfile::tempdir().expect("scratch");
    let path = scratch.path().join("game.ron");
    let mut played = testbed(21);
    random_walk(&mut played, &mut Picker::new(5), 3).expect("plays");
    played.act("bid", Value::Int(2)).ok();
    played.undo();
    SaveFile::of(&played).write(&path).expect("saves");
    let leftovers: Vec<_> = std::fs::read_dir(scratch.path()).expect("list").collect();
    assert_eq!(
        leftovers.len(),
        1,
        "the atomic write left no temporary file"
    );

    let file = SaveFile::read(&path).expect("reads");
    let (mut loaded, report) = file
        .restore(played.module().clone(), &path)
        .expect("restores");
    assert!(report.is_none(), "{report:?}");
    assert_eq!(json(&loaded), json(&played));
    assert_eq!(
        loaded.history().redo_stack(),
        played.history().redo_stack(),
        "the redo stack is saved"
    );

    let mut picker_a = Picker::new(8);
    let mut picker_b = Picker::new(8);
    random_walk(&mut played, &mut picker_a, 20).expect("continues");
    random_walk(&mut loaded, &mut picker_b, 20).expect("continues");
    assert_eq!(json(&loaded), json(&played));
}

#[test]
fn a_save_that_is_not_one_is_refused_with_its_position() {
    let scratch = tempfile::tempdir().expect("scratch");
    let path = scratch.path().join("junk.ron");
    std::fs::write(&path, "Save(\n  format: 1,\n  module: 7,\n)").expect("write");
    let err = SaveFile::read(&path).expect_err("not a save").to_string();
    assert!(err.starts_with(&format!("{}:3:", path.display())), "{err}");
    std::fs::write(&path, "Save(format: 99)").expect("write");
    let err = SaveFile::read(&path)
        .expect_err("future format")
        .to_string();
    assert!(
        err.contains("save format 99 is not one this Chancery reads (it reads format 1)"),
        "{err}"
    );
}

/// A recorded game that no longer gives what it expects fails, naming the input and the
/// first value that differs, with both values.
#[test]
fn a_golden_replay_names_the_input_and_the_first_value_that_differs() {
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("testbed"));
    let replay = dir.join("tests/replays/council.ron");
    chancery_tests::edit(
        &replay,
        "counters: {\"vp.A\": 4}",
        "counters: {\"vp.A\": 5}",
    );
    let report = run_module_tests(load(&dir), Some("replay")).expect("tests run");
    let failure = report.results[0].failure.clone().expect("the replay fails");
    assert_eq!(
        failure,
        "after input 9 (A: pass): counter 'vp.A' is 4, expected 5"
    );

    // A change to the rules shows at the first expectation it breaks.
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("testbed"));
    chancery_tests::edit(
        &dir.join("rules/main.lua"),
        "ctx.private[seat] = { favour = i }",
        "ctx.private[seat] = { favour = 2 * i }",
    );
    let report = run_module_tests(load(&dir), Some("replay")).expect("tests run");
    let failure = report.results[0].failure.clone().expect("the replay fails");
    assert_eq!(
        failure,
        "after input 3 (A: commit five): the log does not say \"Alpha's wager: 5 Five + 1 favour + 1 card effect = 7\" (in that order)"
    );
}

#[test]
fn a_simulation_plays_unwatched_unless_asked_and_a_game_at_the_table_watched() {
    use chancery_core::sim::{SimConfig, simulate};
    // The testbed's bot names a step of its own for what `ctx.watched` says; the steps a
    // simulation counts show which it saw.
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("testbed"));
    chancery_tests::edit(
        &dir.join("bots/simple.lua"),
        "  local t = flowchart.trace()\n",
        "  local t = flowchart.trace()\n  \
           t:step(ctx.watched and \"9.1: watched\" or \"9.2: unwatched\")\n",
    );
    let module = load(&dir);
    let config = |watched: bool| SimConfig {
        max_steps: 10_000,
        watched,
        ..SimConfig::new("basic", 2, 5)
    };
    let steps = |watched: bool| {
        let report = simulate(module.clone(), &config(watched), &|_| {}).expect("the games run");
        let rules = report.bot_rules();
        (
            rules.contains_key("simple: 9.1"),
            rules.contains_key("simple: 9.2"),
        )
    };
    assert_eq!(steps(false), (false, true), "a simulation plays unwatched");
    assert_eq!(
        steps(true),
        (true, false),
        "--watched plays as at the table"
    );

    // The same game played in a session, as at the table.
    let spec = config(false).spec(&module, 0).expect("a spec");
    let mut session = chancery_core::start_game(module.clone(), spec).expect("starts");
    session.run_bots(10_000).expect("plays");
    let reasons: Vec<String> = session
        .history()
        .records()
        .iter()
        .flat_map(|r| r.input.reasons().to_vec())
        .collect();
    assert!(reasons.iter().any(|r| r == "9.1: watched"), "{reasons:?}");
    assert!(!reasons.iter().any(|r| r.starts_with("9.2")), "{reasons:?}");
}

#[test]
fn a_script_that_keeps_a_count_between_games_is_caught_by_the_fresh_vm_check_with_its_seed() {
    use chancery_core::sim::{SimConfig, Verify, simulate};
    // The bot counts its calls in a variable of its own script and, after its fifth call,
    // takes its second action: a VM that plays game after game would carry the count
    // into the next game, which the same game in a new VM does not.
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("testbed"));
    chancery_tests::edit(
        &dir.join("bots/simple.lua"),
        "return function(ctx, seat, actions)\n  local t = flowchart.trace()\n",
        "local calls = 0\n\nreturn function(ctx, seat, actions)\n  local t = flowchart.trace()\n  \
         calls = calls + 1\n  if calls > 5 and #actions > 1 then\n    return t:choose(2, \"9. The second.\")\n  end\n",
    );
    let module = load(&dir);
    for verify in [Verify::Sample, Verify::All] {
        let config = SimConfig {
            max_steps: 10_000,
            verify,
            ..SimConfig::new("basic", 12, 3)
        };
        let report = simulate(module.clone(), &config, &|_| {}).expect("the games run");
        let caught = report
            .outcomes
            .iter()
            .find(|o| o.failed)
            .unwrap_or_else(|| panic!("{verify:?}: no game was caught"));
        let error = caught.error.clone().unwrap_or_default();
        assert!(
            error.starts_with(&format!("seed {}: ", caught.seed))
                && error.contains("in a variable of its own"),
            "{error}"
        );
        assert!(
            report.outcomes.len() < 12,
            "the simulation stops at the game caught: {}",
            report.outcomes.len()
        );
    }

    // The module as it is keeps nothing: every game checked, none differs.
    let module = load(&test_module("testbed"));
    let config = SimConfig {
        max_steps: 10_000,
        verify: Verify::All,
        ..SimConfig::new("basic", 12, 3)
    };
    let report = simulate(module, &config, &|_| {}).expect("the games run");
    assert!(
        report
            .outcomes
            .iter()
            .all(|o| !o.failed && o.error.is_none()),
        "{:?}",
        report.outcomes.iter().find_map(|o| o.error.clone())
    );
}

#[test]
fn a_script_that_sets_a_global_after_loading_stops_with_its_file_and_line() {
    for (set, refusal) in [
        (
            "tostring = nil",
            "global 'tostring' set after the module loaded",
        ),
        (
            "rawset(_ENV, \"seen\", 1)",
            "the module's globals (read-only once it has loaded) is read-only",
        ),
    ] {
        sets_a_global_in_its_bot(set, refusal);
    }
}

fn sets_a_global_in_its_bot(set: &str, refusal: &str) {
    // `tostring` is one of the script's globals; setting it while a game runs (here, in
    // the bot) is refused at the line that tries, and the game stands.
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("testbed"));
    chancery_tests::edit(
        &dir.join("bots/simple.lua"),
        "return function(ctx, seat, actions)\n  local t = flowchart.trace()\n",
        &format!("return function(ctx, seat, actions)\n  {set}\n  local t = flowchart.trace()\n"),
    );
    let module = load(&dir);
    let config = chancery_core::sim::SimConfig {
        max_steps: 10_000,
        ..chancery_core::sim::SimConfig::new("basic", 1, 3)
    };
    let spec = config.spec(&module, 0).expect("a spec");
    let mut session = chancery_core::start_game(module, spec).expect("starts");
    let before = session.history().len();
    let err = session.run_bots(10).expect_err("the bot stops").to_string();
    assert!(
        err.contains("bots/simple.lua:17:") && err.contains(refusal),
        "{err}"
    );
    assert_eq!(session.history().len(), before, "the game stands");
}

#[test]
fn aftermath_and_the_testbed_play_every_game_in_a_reused_vm_as_in_a_new_one() {
    use chancery_core::module::{LoadOptions, OverlayChoice};
    use chancery_core::sim::{SimConfig, Verify, simulate};
    // Aftermath's own placeholders (its demo overlay), as `--demo` plays it.
    let demo = LoadOptions {
        overlay: OverlayChoice::Demo,
        strict: false,
    };
    let aftermath = chancery_tests::repo_root().join("modules/aftermath");
    let testbed = test_module("testbed");
    for (dir, overlay, scenario, games) in [
        (&aftermath, &demo, "standard", 8),
        (&testbed, &chancery_tests::no_overlay(), "basic", 24),
    ] {
        let module = std::sync::Arc::new(
            chancery_core::load_module(dir, overlay).unwrap_or_else(|d| panic!("{d}")),
        );
        let config = SimConfig {
            max_steps: 20_000,
            verify: Verify::All,
            ..SimConfig::new(scenario, games, 5)
        };
        let report = simulate(module, &config, &|_| {}).expect("the games run");
        assert_eq!(report.outcomes.len(), games, "{}", dir.display());
        let problem = report.outcomes.iter().find_map(|o| o.error.clone());
        assert!(problem.is_none(), "{}: {problem:?}", dir.display());
    }
}
