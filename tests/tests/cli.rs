//! The command line, run in-process: help on every command, exit codes, and a game played
//! through `new`, `act`, `state`, `replay`, `test` and `sim`.

use std::path::Path;
use std::sync::Arc;

use chancery_tests::{copy_module, edit, test_module};
use common::{chancery, chancery_as_typed, path};

mod common;

#[test]
fn every_command_explains_itself() {
    for command in [
        vec![],
        vec!["check"],
        vec!["new"],
        vec!["act"],
        vec!["state"],
        vec!["replay"],
        vec!["test"],
        vec!["sim"],
        vec!["api"],
        vec!["record"],
    ] {
        let mut args = command.clone();
        args.push("--help");
        let (code, out, _) = chancery(&args);
        assert_eq!(code, 0, "{args:?}");
        assert!(out.contains("Usage: chancery"), "{args:?}: {out}");
    }
}

#[test]
fn usage_errors_exit_with_2_and_say_what_is_wrong() {
    let (code, _, err) = chancery(&["frobnicate"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unrecognized subcommand 'frobnicate'"),
        "{err}"
    );
    let (code, _, err) = chancery(&["new", "somewhere"]);
    assert_eq!(code, 2);
    assert!(err.contains("--out <FILE>"), "{err}");
}

#[test]
fn a_missing_module_is_bad_input_with_exit_1() {
    let (code, _, err) = chancery(&["check", "/nonexistent/module"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("'/nonexistent/module' is not a folder"),
        "{err}"
    );
}

#[test]
fn check_reports_what_is_still_unknown() {
    let (code, out, _) = chancery(&["check", path(&test_module("testbed"))]);
    assert_eq!(code, 0);
    assert!(
        out.contains("card fields not entered: 1 of 12, on 1 of 6 cards\n    mystery: value"),
        "{out}"
    );
    assert!(out.contains("land/east: vp"), "{out}");
}

#[test]
fn a_game_played_from_the_command_line() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let answers = scratch.path().join("answers.txt");
    std::fs::write(
        &answers,
        "# two bids and a recruit with a die\nbid 2\nbid 1\nrecruit | 5\n",
    )
    .expect("write");
    let module = test_module("testbed");
    let (code, out, err) = chancery(&[
        "new",
        path(&module),
        "--scenario",
        "basic",
        "--seed",
        "3",
        "--answers",
        path(&answers),
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    // Two people with hands the other may not see: no seat is shown the seed.
    assert!(
        out.contains("Saved") && out.contains("(3 inputs; seed kept in the save"),
        "{out}"
    );
    assert!(!out.contains("seed 3"), "{out}");

    let (code, out, err) = chancery(&["act", path(&save), "detour"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Set the mystery card aside? (human)"), "{out}");
    let (code, out, _) = chancery(&["act", path(&save), "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("Detour ends for"), "{out}");

    let (code, out, _) = chancery(&["state", path(&save), "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["counters"]["bid"], 2);
    assert_eq!(json["boxes"]["army.A"]["inf"], 1);
    assert_eq!(
        json["log"].as_array().expect("log").len(),
        6,
        "setup and 5 inputs"
    );
    assert_eq!(json["log"][3]["messages"][0], "Rolled d6 for recruits: 5");
    let (_, seat_view, _) = chancery(&["state", path(&save), "--json", "--seat", "B"]);
    let seat_view: serde_json::Value = serde_json::from_str(&seat_view).expect("JSON");
    assert_eq!(
        seat_view["zones"]["hand.A"]["cards"],
        serde_json::json!(["?", "?"])
    );
    // The module's own view (its `view` hook), as the seat sees it: the other hand hidden.
    assert_eq!(seat_view["view"]["seat"], "B", "{seat_view}");
    assert_eq!(
        seat_view["view"]["other_hand"],
        serde_json::json!(["?", "?"])
    );
    let (_, everything, _) = chancery(&["state", path(&save), "--json", "--everything"]);
    let everything: serde_json::Value = serde_json::from_str(&everything).expect("JSON");
    // The view for no seat in particular (the testbed shows it Alpha's hand): every card.
    let hand_a = everything["zones"]["hand.A"]["cards"].clone();
    assert!(
        hand_a.as_array().is_some_and(|h| h.len() == 2),
        "{everything}"
    );
    assert_ne!(hand_a, serde_json::json!(["?", "?"]));
    assert_eq!(everything["view"]["other_hand"], hand_a, "{everything}");

    let (code, out, err) = chancery(&["act", path(&save), "bid", "7"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("'bid 7' is not a legal action in state 'turn'"),
        "{err}"
    );
    assert!(out.is_empty());

    let (code, out, _) = chancery(&["replay", path(&save), "--expect-same"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Replayed 5 inputs: the game is the same."),
        "{out}"
    );
}

/// A game of the module in `dir` saved after three bids (1, 2, 3), in a scratch folder.
fn three_bids(dir: &std::path::Path) -> (tempfile::TempDir, std::path::PathBuf) {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let answers = scratch.path().join("answers.txt");
    std::fs::write(&answers, "bid 1\nbid 2\nbid 3\n").expect("write");
    let (code, _, err) = chancery(&[
        "new",
        path(dir),
        "--answers",
        path(&answers),
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    (scratch, save)
}

#[test]
fn replay_under_a_changed_module_reports_the_first_divergence() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let (_scratch, save) = three_bids(&dir);
    let (changed_scratch, changed) = copy_module(&dir);
    edit(
        &changed.join("rules/turn.lua"),
        "math.max(n, ctx:counter(\"bid\"))",
        "math.max(n, 2)",
    );
    let (code, out, _) = chancery(&[
        "replay",
        path(&save),
        "--module",
        path(&changed),
        "--expect-same",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("script rules/turn.lua changed in turn.bid"),
        "{out}"
    );
    assert!(
        out.contains("The game first differs at input 1 (Alpha: bid (0–3) 1):\n  Bid: 1 → 2"),
        "{out}"
    );
    drop(changed_scratch);
}

#[test]
fn module_tests_run_from_the_command_line() {
    let (code, out, _) = chancery(&["test", path(&test_module("testbed"))]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("32 passed, 0 failed."), "{out}");
}

#[test]
fn sim_is_reproducible_and_counts_every_game() {
    let module = test_module("testbed");
    let args = [
        "sim",
        path(&module),
        "--games",
        "40",
        "--seed",
        "5",
        "--json",
    ];
    let (code, first, err) = chancery(&args);
    assert_eq!(code, 0, "{err}");
    let (_, second, _) = chancery(&args);
    assert_eq!(first, second, "the same seed gives the same summary");
    let json: serde_json::Value = serde_json::from_str(&first).expect("JSON");
    let wins: u64 = json["wins"]
        .as_object()
        .expect("wins")
        .values()
        .map(|v| v.as_u64().unwrap_or(0))
        .sum();
    assert_eq!(wins, 40);
    assert_eq!(json["card_use"]["five"], 40, "five is always played");
}

#[test]
fn the_headless_start_prints_the_table_and_the_decision() {
    let (code, out, err) = chancery(&["--module", path(&test_module("testbed")), "--headless"]);
    assert_eq!(code, 0, "{err}");
    // A new game deals afresh; with hands hidden, the seed (from which every shuffle
    // follows) is not shown.
    assert!(
        out.contains("Testbed — Basic, seed kept in the save"),
        "{out}"
    );
    let again = |seed: &str| {
        chancery(&[
            "--module",
            path(&test_module("testbed")),
            "--headless",
            "--seed",
            seed,
        ])
        .1
    };
    assert_eq!(
        again("12"),
        again("12"),
        "the same seed shows the same game"
    );
    assert!(out.contains("\nAlpha (A, human) decides"), "{out}");
}

#[test]
fn aftermath_sim_counts_every_game_once_and_repeats_itself() {
    let module = chancery_tests::repo_root().join("modules/aftermath");
    let args = [
        "sim",
        path(&module),
        "--demo",
        "--games",
        "24",
        "--seed",
        "1",
        "--json",
    ];
    let (code, first, err) = chancery(&args);
    assert_eq!(code, 0, "{err}");
    let (_, second, _) = chancery(&args);
    assert_eq!(first, second, "the same seed gives the same summary");
    let json: serde_json::Value = serde_json::from_str(&first).expect("JSON");
    let wins: u64 = json["wins"]
        .as_object()
        .expect("wins")
        .values()
        .map(|v| v.as_u64().unwrap_or(0))
        .sum();
    assert_eq!(wins, 24, "{}", json["wins"]);
    assert!(
        json["errors"].as_array().is_some_and(|e| e.is_empty()),
        "{}",
        json["errors"]
    );
}

/// A secret choice through the command line: each seat answers with `act --seat`, sees only
/// its own choices, and `state --json --seat` shows neither another seat's private state
/// nor its secret answer. Then the game is recorded and the recording passes `chancery test`.
#[test]
fn seats_answer_a_secret_choice_with_act_seat_and_see_only_their_own() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let save = dir.join("game.ron");
    let (code, out, err) = chancery(&[
        "new",
        path(&dir),
        "--scenario",
        "basic",
        "--seed",
        "4",
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = chancery(&["act", path(&save), "council"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Answer as one seat with --seat SEAT"), "{out}");
    let (code, out, err) = chancery(&["act", path(&save), "commit", "five"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("several seats decide at once"), "{err}");
    let (code, out, err) = chancery(&["act", path(&save), "--seat", "A", "commit", "five"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("#2 Alpha: commit: Five"),
        "Alpha sees its own answer: {out}"
    );
    let (code, out, _) = chancery(&["act", path(&save), "--seat", "B"]);
    assert_eq!(code, 0);
    assert!(out.contains("#2 Alpha: a secret answer"), "{out}");
    assert!(out.contains("Your choices as Beta (B, human)"), "{out}");
    assert!(!out.contains("five"), "Beta sees Alpha's wager: {out}");
    let (code, json, _) = chancery(&["state", path(&save), "--json", "--seat", "B"]);
    assert_eq!(code, 0);
    assert!(!json.contains("five"), "{json}");
    assert!(json.contains("\"A\": \"answered\""), "{json}");
    assert!(
        !json.contains("\"A\": {"),
        "Alpha's private state shows: {json}"
    );
    // Without a seat, two people playing: a spectator's view, which shows no secret.
    let (code, json, _) = chancery(&["state", path(&save), "--json"]);
    assert_eq!(code, 0);
    assert!(!json.contains("five"), "{json}");
    let (code, json, _) = chancery(&["state", path(&save), "--json", "--everything"]);
    assert_eq!(code, 0);
    assert!(
        json.contains("commit five"),
        "the omniscient view shows all: {json}"
    );

    let (code, out, err) = chancery(&["act", path(&save), "--seat", "B", "commit", "three"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Alpha's wager: 5 Five + 1 favour + 1 card effect = 7"),
        "{out}"
    );
    let replay = dir.join("tests/replays/cli.ron");
    let (code, out, err) = chancery(&["record", path(&save), "--out", path(&replay)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Recorded 3 inputs"), "{out}");
    let (code, out, err) = chancery(&[
        "test",
        path(&dir),
        "--filter",
        "replay tests/replays/cli.ron",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ok    replay tests/replays/cli.ron"), "{out}");
}

#[test]
fn act_never_shortens_a_save_whose_inputs_no_longer_fit() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let (scratch, save) = three_bids(&dir);
    // A module update allows bids up to 1 only: the second input no longer fits.
    edit(
        &dir.join("rules/turn.lua"),
        r#"{ name = "bid", min = 0, max = 3 }"#,
        r#"{ name = "bid", min = 0, max = 1 }"#,
    );
    let before = std::fs::read(&save).expect("read");
    let (code, _, err) = chancery(&["act", path(&save), "pass"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("input 2 ('B: bid 2') no longer fits the module")
            && err.contains("The save is left as it was")
            && err.contains("--out FILE"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&save).expect("read"),
        before,
        "the save is untouched"
    );

    let shorter = scratch.path().join("shorter.ron");
    let (code, _, err) = chancery(&["act", path(&save), "pass", "--out", path(&shorter)]);
    assert_eq!(code, 0, "{err}");
    let written = chancery_core::SaveFile::read(&shorter).expect("a save");
    assert_eq!(
        written.inputs.len(),
        2,
        "the input that fits, and the new answer"
    );
    assert_eq!(
        std::fs::read(&save).expect("read"),
        before,
        "the save is untouched"
    );
}

#[test]
fn headless_shows_the_table_as_the_human_seat_sees_it() {
    let aftermath = chancery_tests::repo_root().join("modules/aftermath");
    let (code, out, err) = chancery(&[
        "--module",
        path(&aftermath),
        "--headless",
        "--seat",
        "P2=bot",
        "--seed",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(Seen as First player (P1, human).)"), "{out}");
    assert!(
        out.contains("Second player's hand (5): 5 you cannot see"),
        "the bot's hand is hidden: {out}"
    );
    assert!(
        out.contains("Second player's Great Power (1): 1 you cannot see"),
        "and its Great Power: {out}"
    );
    assert!(
        !out.contains("[to Second player]"),
        "and what only it was told: {out}"
    );
}

#[test]
fn state_without_json_prints_the_table_and_the_decision() {
    let (_scratch, save) = three_bids(&test_module("testbed"));
    let (code, out, err) = chancery(&["state", path(&save), "--everything"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Testbed — Basic, seed"), "{out}");
    assert!(
        out.contains("Counters: Bid 3, Alpha's VP 0"),
        "the table, by name: {out}"
    );
    assert!(out.contains("#3 Alpha: bid (0–3) 3"), "the log: {out}");
    assert!(
        out.contains("\nBeta (B, human) decides")
            && out.contains("4. bid (0–3)   [act: bid <0..3>]"),
        "the decision: {out}"
    );
    let (code, out, _) = chancery(&["state", path(&save), "--seat", "B"]);
    assert_eq!(code, 0);
    assert!(out.contains("(Seen as Beta (B, human).)"), "{out}");
    assert!(out.contains("Alpha's hand (2): 2 you cannot see"), "{out}");
}

#[test]
fn act_takes_an_action_as_it_is_printed_by_number_or_with_json() {
    let aftermath = chancery_tests::repo_root().join("modules/aftermath");
    let scratch = tempfile::tempdir().expect("scratch");
    let mut saves = Vec::new();
    for form in [
        vec!["place_army {country: poland, power: AU}"],
        vec!["place_army", "{country: poland, power: AU}"],
        vec!["place_army", r#"{"country": "poland", "power": "AU"}"#],
        vec!["3"],
    ] {
        let save = scratch.path().join(format!("game{}.ron", saves.len()));
        let (code, out, err) = chancery(&[
            "new",
            path(&aftermath),
            "--seed",
            "4",
            "--seat",
            "P2=bot",
            "--out",
            path(&save),
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("3. Austria army to Poland   [act: 3]"),
            "the choice in words, and what to type: {out}"
        );
        let mut args = vec!["act", path(&save)];
        args.extend(form.iter().copied());
        let (code, out, err) = chancery(&args);
        assert_eq!(code, 0, "{form:?}: {err}");
        assert!(
            out.contains("#1 First player: Austria army to Poland"),
            "{form:?}: {out}"
        );
        assert!(
            !out.contains("[to P2]"),
            "the bot's secrets stay hidden from the one human seat: {out}"
        );
        saves.push(save);
    }
    let (_, help, _) = chancery(&["act", "--help"]);
    assert!(
        help.contains("place_army {country: poland, power: AU}") && help.contains("JSON"),
        "{help}"
    );
}

#[test]
fn an_unknown_option_is_an_error_that_lists_the_module_s_options() {
    let aftermath = chancery_tests::repo_root().join("modules/aftermath");
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let (code, _, err) = chancery(&[
        "new",
        path(&aftermath),
        "--option",
        "frist=random",
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("module 'aftermath' has no option 'frist' (did you mean 'first'?): its options are first (P1, P2 or random), powers"),
        "{err}"
    );
    assert!(!save.exists(), "no game is saved");
    // Congress of Vienna's options are declared too: a misspelt key is refused, near match
    // named, in `new` and in `sim`; a value an option does not take, or 80,000 brackets, too.
    let cov = chancery_tests::repo_root().join("modules/cov");
    let brackets = format!("first={}", "[".repeat(80_000));
    for (option, expect) in [
        (
            "seatting=solo-vs-french-bot",
            "module 'cov' has no option 'seatting' (did you mean 'seating'?)",
        ),
        (
            "solitaire.handicap=7",
            "option 'solitaire.handicap' takes 0, 1, 2 or 3, not '7'",
        ),
        ("seating=[[[[", "option 'seating' takes four-players"),
        (brackets.as_str(), "module 'cov' has no option 'first'"),
    ] {
        for command in ["new", "sim"] {
            let mut args = vec![command, path(&cov), "--option", option];
            if command == "new" {
                args.extend(["--out", path(&save)]);
            }
            let (code, _, err) = chancery(&args);
            assert_eq!(
                code,
                1,
                "{command} --option {}: {err}",
                &option[..option.len().min(40)]
            );
            assert!(err.contains(expect), "{err}");
        }
        assert!(!save.exists(), "no game is saved");
    }
}

#[test]
fn physical_dice_give_the_set_up_its_rolls_and_the_save_keeps_them() {
    let aftermath = chancery_tests::repo_root().join("modules/aftermath");
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let start = |dice: &[&str]| {
        let mut args = vec![
            "new",
            path(&aftermath),
            "--physical-dice",
            "--option",
            "first=random",
            "--out",
            path(&save),
        ];
        args.extend_from_slice(dice);
        chancery(&args)
    };
    let (code, _, err) = start(&[]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "the set-up rolls a 2-sided die: roll it and give what it shows with --dice N"
        ),
        "{err}"
    );
    let (code, out, err) = start(&["--dice", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Second player (P2, human) decides"), "{out}");
    let (code, _, err) = chancery(&["act", path(&save), "1"]);
    assert_eq!(code, 0, "the save replays with its set-up roll: {err}");
}

#[test]
fn check_reports_the_data_and_the_scripts_in_one_run() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    edit(
        &dir.join("data/cards.ron"),
        r#"{"value": 2, "suit": "moon"}"#,
        r#"{"value": 2 "suit": "moon"}"#,
    );
    edit(
        &dir.join("rules/turn.lua"),
        "local actions = {}",
        "local actions = {",
    );
    let (code, _, err) = chancery(&["check", path(&dir)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("data/cards.ron:9:76: RON: Expected comma")
            && err.contains("rules/turn.lua:")
            && err.contains("has 2 error(s)"),
        "{err}"
    );
}

/// A value the rules need that is not entered yet is given with `act --value`: it is kept
/// in the overlay, and never asked again. Lützen & Bautzen's Intr-2 puts a free French unit
/// in Paris from the force pool, whose size (the counter mix) is the owner's data.
#[test]
fn act_stores_a_missing_value_in_the_overlay_and_asks_it_once() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let overlay = scratch.path().join("cov.ron");
    let module = chancery_tests::repo_root().join("modules/cov");
    let (code, _, err) = chancery(&[
        "new",
        path(&module),
        "--scenario",
        "lutzen-bautzen",
        "--seed",
        "2",
        "--overlay",
        path(&overlay),
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = chancery(&["act", path(&save), "begin", "--overlay", path(&overlay)]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "Units and fleets in the game, by kind: France is not entered yet (in the overlay file: table 'counter_mix', entry 'FR')"
        )
            && err.contains("--value VALUE"),
        "{err}"
    );
    let act_with = |value: &str| {
        chancery(&[
            "act",
            path(&save),
            "begin",
            "--overlay",
            path(&overlay),
            "--value",
            value,
        ])
    };
    // The step needs two values, one after the other: each is asked once.
    let (code, _, err) = act_with("60");
    assert_eq!(code, 1);
    assert!(
        err.contains("Units and fleets in the game, by kind: France = 60, stored in"),
        "{err}"
    );
    assert!(
        err.contains("US militia is not entered yet (in the overlay file: table 'counter_mix', entry 'US_militia')"),
        "{err}"
    );
    // A value of the wrong type says why, and stores nothing.
    let (code, _, err) = act_with("many");
    assert_eq!(code, 1);
    assert!(err.contains("'many' is not a whole number"), "{err}");
    let (code, out, err) = act_with("8");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("Units and fleets in the game, by kind: US militia = 8, stored in"),
        "{err}"
    );
    assert!(
        out.contains("1 French unit from the force pool to Paris"),
        "{out}"
    );
    let stored = std::fs::read_to_string(&overlay).expect("the overlay was written");
    assert!(
        stored.contains("\"FR\": 60") && stored.contains("\"US_militia\": 8"),
        "{stored}"
    );
    // The saved game replays under the stored values: nothing is asked again.
    let (code, out, err) = chancery(&["state", path(&save), "--overlay", path(&overlay)]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("not entered yet"), "{out}");
}

/// A bot whose chart reads a cell not entered yet stops the answer that let it play, and
/// says so; the same answer with `--value` keeps the cell in the overlay, and the bot takes
/// its step with it. The testbed's simple bot is made to read row 5 of its objection chart.
#[test]
fn act_stores_a_bot_s_chart_cell_and_lets_the_bot_go_on() {
    let (scratch, dir) = copy_module(&test_module("testbed"));
    edit(
        &dir.join("bots/simple.lua"),
        "local key = tostring(die)",
        "local key = \"5\" -- the row not entered",
    );
    edit(
        &dir.join("bots/simple.lua"),
        "ctx:known(\"table\", \"objection_chart\", key) and ctx.data.tables.objection_chart[key]",
        "ctx.data.tables.objection_chart[key]",
    );
    let save = scratch.path().join("game.ron");
    let overlay = scratch.path().join("testbed.ron");
    let (code, _, err) = chancery(&[
        "new",
        path(&dir),
        "--seed",
        "7",
        "--seat",
        "B=bot:simple",
        "--overlay",
        path(&overlay),
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    for action in [vec!["council"], vec!["--seat", "A", "commit", "two"]] {
        let mut args = vec!["act", path(&save), "--overlay", path(&overlay)];
        args.extend(action);
        let (code, _, err) = chancery(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let before = std::fs::read_to_string(&save).expect("the save");
    let (code, _, err) = chancery(&[
        "act",
        path(&save),
        "--overlay",
        path(&overlay),
        "--seat",
        "A",
        "pass",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("after 'pass', a bot's step:")
            && err.contains("objection_chart")
            && err.contains("--value"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&save).expect("the save"),
        before,
        "a step that stops keeps the save as it was"
    );
    assert!(!overlay.exists(), "nothing was stored");
    let (code, out, err) = chancery(&[
        "act",
        path(&save),
        "--overlay",
        path(&overlay),
        "--seat",
        "A",
        "pass",
        "--value",
        "true",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("objection chart (3.1, die 5) = true, stored in"),
        "{err}"
    );
    assert!(out.contains("Round 1 is void: Beta objected."), "{out}");
    let stored = std::fs::read_to_string(&overlay).expect("the overlay was written");
    assert!(stored.contains("\"5\": true"), "{stored}");
    // The save replays under the stored cell: nothing is asked again.
    let (code, out, err) = chancery(&["state", path(&save)]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("not entered yet"), "{out}");
    assert!(out.contains("Round 2: wager a card"), "{out}");
}

/// The French bot of section 21 reads its chart from the owner's data: a row not entered
/// stops the answers that let it play, naming the chart's step and the words the row may
/// hold; the same answers with `--value` keep the row in the overlay, and the bot goes on.
/// The overlay is the test fixture without the Wager's rows (Step 3).
#[test]
fn act_asks_the_french_bot_s_chart_row_once_and_keeps_it() {
    let scratch = tempfile::tempdir().expect("scratch");
    let module = chancery_tests::repo_root().join("modules/cov");
    let fixture =
        std::fs::read_to_string(module.join("tests/owner-fixture.ron")).expect("the fixture");
    let overlay = scratch.path().join("cov.ron");
    let without: String = fixture
        .lines()
        .filter(|line| !line.contains("\"french_wager\""))
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(
        without.len() < fixture.len(),
        "the fixture has the Wager's rows"
    );
    std::fs::write(&overlay, without).expect("the overlay");
    let save = scratch.path().join("game.ron");
    let answers = scratch.path().join("first.txt");
    std::fs::write(&answers, "1\n".repeat(40)).expect("answers");
    let (code, _, err) = chancery(&[
        "new",
        path(&module),
        "--scenario",
        "clash-of-armies",
        "--option",
        "seating=solo-vs-french-bot",
        "--seat",
        "FR=bot",
        "--seed",
        "3",
        "--overlay",
        path(&overlay),
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    let act = |value: Option<&str>| {
        let mut args = vec![
            "act",
            path(&save),
            "--answers",
            path(&answers),
            "--overlay",
            path(&overlay),
        ];
        if let Some(value) = value {
            args.extend(["--value", value]);
        }
        chancery(&args)
    };
    let (code, _, err) = act(None);
    assert_eq!(code, 1);
    assert!(
        err.contains("a bot's step: French bot, Step 3: the Wager card (21.3, Step 3, row 1) is not entered yet")
            && err.contains("copy it from the bot's printed chart")
            && err.contains("one of \"highest_allied\", \"highest_non_military\", \"highest\", \"lowest\", \"none\""),
        "{err}"
    );
    let (code, out, err) = act(Some("highest_allied"));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "French bot, Step 3: the Wager card (21.3, Step 3, row 1) = highest_allied, stored in"
        ),
        "{err}"
    );
    assert!(out.contains("Diplomacy Round"), "the game went on: {out}");
    let stored = std::fs::read_to_string(&overlay).expect("the overlay");
    assert!(
        stored.contains("\"french_wager\": {\"1\": \"highest_allied\"}"),
        "{stored}"
    );
}

/// The Clash of Armies' turn 5 from a file of answers: the Initial and Diplomacy Phases are
/// played to the Government Phase with every prompt answered, the same game twice over,
/// and the save replays the same without naming its overlay again.
#[test]
fn an_answers_file_plays_a_cov_turn_to_the_government_phase() {
    let scratch = tempfile::tempdir().expect("scratch");
    let answers =
        chancery_tests::repo_root().join("modules/cov/tests/answers/clash-of-armies-turn5.txt");
    let lines = std::fs::read_to_string(&answers)
        .expect("the answers file")
        .lines()
        .filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
        .count();
    let play = |out: &Path| new_cov_game("clash-of-armies", "7", &answers, out);
    let (first, second) = (scratch.path().join("a.ron"), scratch.path().join("b.ron"));
    let stdout = play(&first);
    assert!(
        stdout.contains(", Government Phase.") && stdout.contains("Resources to spend"),
        "{stdout}"
    );
    play(&second);
    let saved = std::fs::read(&first).expect("the save");
    assert_eq!(
        saved,
        std::fs::read(&second).expect("the second save"),
        "the same answers make the same save"
    );
    let save = chancery_core::save::SaveFile::read(&first).expect("reads");
    assert_eq!(save.inputs.len(), lines, "one input per answer");
    assert!(save.table.vars.to_json()["diplomacy"]["phase_winner"].is_string());
    // The save names its overlay: replay, state and act find it without --overlay.
    let (code, out, err) = chancery_as_typed(&["replay", path(&first), "--expect-same"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("Replayed {lines} inputs: the game is the same.")),
        "{out}"
    );
    let (code, out, err) = chancery_as_typed(&["state", path(&first)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Resources to spend") && !out.contains("replays differently"),
        "{out}"
    );
}

/// Without the owner's data, a fresh Clash of Armies asks for each value its first
/// Diplomacy Round needs (card values, nations, modifiers, the counter mix), one at a time
/// and each exactly once: `act --value` keeps it in the overlay, and the game goes on.
#[test]
fn the_first_diplomacy_round_asks_each_missing_value_once() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let overlay = scratch.path().join("owner.ron");
    let module = chancery_tests::repo_root().join("modules/cov");
    let (code, _, err) = chancery(&[
        "new",
        path(&module),
        "--scenario",
        "clash-of-armies",
        "--seed",
        "3",
        "--overlay",
        path(&overlay),
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    let options = chancery_core::LoadOptions {
        overlay: chancery_core::OverlayChoice::File(overlay.clone()),
        strict: false,
    };
    let mut asked: Vec<String> = Vec::new();
    for _ in 0..400 {
        let file = chancery_core::SaveFile::read(&save).expect("the save");
        if file
            .log
            .iter()
            .flat_map(|entry| &entry.messages)
            .any(|line| line.text.contains("Diplomacy Round 2."))
        {
            assert!(
                asked.iter().any(|a| a.contains("field 'value'")),
                "card values were asked: {asked:?}"
            );
            return;
        }
        let module = chancery_core::load_module(&module, &options).expect("the module loads");
        let (session, _) = file.restore(Arc::new(module), &save).expect("restores");
        let prompt = session
            .prompt()
            .clone()
            .expect("a prompt")
            .expect("not over");
        let ask = prompt
            .asks
            .iter()
            .find(|a| a.seat.as_ref().is_none_or(|s| !prompt.answered.contains(s)))
            .expect("someone is asked");
        let choice = ask.actions[0].choice().to_string();
        let seat = ask.seat.as_ref().map(ToString::to_string);
        let act = |value: Option<&str>| {
            // The overlay named again: values are stored only in an overlay the person names.
            let mut args = vec![
                "act",
                path(&save),
                choice.as_str(),
                "--overlay",
                path(&overlay),
            ];
            if let Some(seat) = &seat {
                args.extend(["--seat", seat.as_str()]);
            }
            if let Some(value) = value {
                args.extend(["--value", value]);
            }
            chancery_as_typed(&args)
        };
        let (mut code, _, mut err) = act(None);
        while code != 0 {
            let needed = err
                .lines()
                .find(|l| l.contains("is not entered yet"))
                .unwrap_or_else(|| panic!("`act {choice}` failed: {err}"))
                .to_owned();
            let target = needed
                .split("(in the overlay file: ")
                .nth(1)
                .and_then(|t| t.split(')').next())
                .unwrap_or_default()
                .to_owned();
            assert!(
                !asked.contains(&target),
                "{target} was asked twice ({asked:?})"
            );
            asked.push(target.clone());
            let value = if target.contains("'nation'") {
                "FR"
            } else if target.contains("modifiers") || target.contains("penalties") {
                "{}"
            } else if target.contains("counter_mix") {
                "40"
            } else {
                "3"
            };
            (code, _, err) = act(Some(value));
            if code != 0 && !err.contains("is not entered yet") {
                panic!("`act {choice} --value {value}` failed: {err}");
            }
        }
    }
    panic!("the first Diplomacy Round did not end; asked {asked:?}");
}

/// `chancery new` on Congress of Vienna with the test fixture and an answers file, saved to
/// `out`; its output.
fn new_cov_game(scenario: &str, seed: &str, answers: &Path, out: &Path) -> String {
    new_cov_game_with(scenario, seed, &[], answers, out)
}

/// [`new_cov_game`] with set-up options (`seating=solo-fog-of-war`).
fn new_cov_game_with(
    scenario: &str,
    seed: &str,
    options: &[&str],
    answers: &Path,
    out: &Path,
) -> String {
    let module = chancery_tests::repo_root().join("modules/cov");
    let fixture = module.join("tests/owner-fixture.ron");
    let mut args = vec![
        "new",
        path(&module),
        "--scenario",
        scenario,
        "--seed",
        seed,
        "--overlay",
        path(&fixture),
        "--answers",
        path(answers),
        "--out",
        path(out),
    ];
    for option in options {
        args.push("--option");
        args.push(option);
    }
    let (code, stdout, err) = chancery(&args);
    assert_eq!(code, 0, "{scenario}: {err}");
    stdout
}

/// Solitaire play of both sides (23) from a file of answers: the Clash's turn 5 plays its
/// Diplomacy Phase from the two displays of the card-driven solo method to the Government
/// Phase; the same answers make the same save, byte for byte, and the save replays the same.
#[test]
fn an_answers_file_plays_a_solitaire_diplomacy_phase_from_the_displays() {
    let scratch = tempfile::tempdir().expect("scratch");
    let answers =
        chancery_tests::repo_root().join("modules/cov/tests/answers/clash-solo-turn5.txt");
    let lines = std::fs::read_to_string(&answers)
        .expect("the answers file")
        .lines()
        .filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
        .count();
    let seating = ["seating=solo-fog-of-war"];
    let play = |out: &Path| new_cov_game_with("clash-of-armies", "7", &seating, &answers, out);
    let (first, second) = (scratch.path().join("a.ron"), scratch.path().join("b.ron"));
    let stdout = play(&first);
    assert!(
        stdout.contains(", Government Phase.") && stdout.contains("Resources to spend"),
        "{stdout}"
    );
    play(&second);
    assert_eq!(
        std::fs::read(&first).expect("the save"),
        std::fs::read(&second).expect("the second save"),
        "the same answers make the same save"
    );
    let save = chancery_core::save::SaveFile::read(&first).expect("reads");
    assert_eq!(save.inputs.len(), lines, "one input per answer");
    let log: Vec<&str> = save
        .log
        .iter()
        .flat_map(|entry| &entry.messages)
        .map(|line| line.text.as_str())
        .collect();
    for wanted in [
        "The Coalition's cards: Russia 11 + Britain 13 + Austria 11 - 5 = 30",
        "solo display is laid out (19.2)",
        "face down for the Wager (19.3, step 4)",
        "to the Military pile (19.3, step 3)",
        "declares a debate.",
        "declares a pre-emptive debate.",
        "exchange a card face down.",
        "refuses: the card offered goes back to",
        "possibly usable military cards to the War Phase",
    ] {
        assert!(
            log.iter().any(|line| line.contains(wanted)),
            "the log says '{wanted}'"
        );
    }
    let (code, out, err) = chancery_as_typed(&["replay", path(&first), "--expect-same"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("Replayed {lines} inputs: the game is the same.")),
        "{out}"
    );
}

/// `check` lists the cells of the bots' charts the owner has still to copy, by bot, chart and
/// row; with the test fixture (placeholders) none is left.
#[test]
fn check_lists_the_bot_charts_cells_still_to_copy() {
    let module = chancery_tests::repo_root().join("modules/cov");
    let (code, out, err) = chancery(&["check", path(&module)]);
    assert_eq!(code, 0, "{err}");
    for wanted in [
        "bot chart cells not entered (copy them from the printed charts):",
        "    the charts of bot allied_bot:",
        "    the charts of bot french_bot:",
        "Allied bot, Tables 20.4.a-c: Russia's, Britain's and Austria's priority issues (table allied_priority_issue), rows: AU/1, AU/3,",
        "French bot, Table 21.1: the extra card by 2d6 (table french_extra_card), rows: 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12",
        "Allied bot, Step 11: spending Resources (table allied_spending), rows: 2e, 2f",
    ] {
        assert!(out.contains(wanted), "{wanted}\n{out}");
    }
    let fixture = module.join("tests/owner-fixture.ron");
    let (code, out, err) = chancery(&["check", path(&module), "--overlay", path(&fixture)]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("bot chart cells"), "{out}");
}

/// A solitaire seating's seats need no --bot: the module names a default bot for each.
#[test]
fn a_solitaire_sim_needs_no_bot_flags() {
    let module = chancery_tests::repo_root().join("modules/cov");
    let fixture = module.join("tests/owner-fixture.ron");
    let args = [
        "sim",
        path(&module),
        "--scenario",
        "clash-of-armies",
        "--option",
        "seating=solo-vs-french-bot",
        "--overlay",
        path(&fixture),
        "--games",
        "1",
        "--json",
    ];
    let (code, out, err) = chancery(&args);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["games"], 1, "{out}");
    assert!(json["wins"].get("unfinished").is_none(), "{out}");
    // With no seating given, a four-power scenario's bot-only game is the scenario's
    // bot_options seating (20: the French bot against the Allied bot).
    let (code, out, err) = chancery(&[
        "sim",
        path(&module),
        "--scenario",
        "clash-of-armies",
        "--overlay",
        path(&fixture),
        "--games",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let rules = json["bot_rules"].as_object().expect("bot rules");
    assert!(
        rules.keys().any(|k| k.starts_with("allied_bot: "))
            && rules.keys().any(|k| k.starts_with("french_bot: ")),
        "{out}"
    );
    // Two players name no default bot: the seat must be given one.
    let (code, _, err) = chancery(&[
        "sim",
        path(&module),
        "--scenario",
        "clash-of-armies",
        "--option",
        "seating=two-players",
        "--overlay",
        path(&fixture),
        "--games",
        "1",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("has no default bot: name one with --bot"),
        "{err}"
    );
}

/// The Napoleon Resurgent and the Clash of Armies from their set-ups to their ends, every
/// prompt answered from a file: each game names its result by the scenario's own
/// conditions, the same answers make the same save, and the save replays the same.
#[test]
fn answers_files_play_two_cov_scenarios_to_their_end() {
    let scratch = tempfile::tempdir().expect("scratch");
    let module = chancery_tests::repo_root().join("modules/cov");
    for (scenario, seed, result) in [
        (
            "napoleon-resurgent",
            "3",
            "The game is over: won by France. The most VP wins.",
        ),
        (
            "clash-of-armies",
            "4",
            "The game is over: won by France. France reaches 80 VP in the lead: sudden death.",
        ),
    ] {
        let answers = module.join(format!("tests/answers/{scenario}-whole.txt"));
        let play = |out: &Path| new_cov_game(scenario, seed, &answers, out);
        let first = scratch.path().join(format!("{scenario}-a.ron"));
        let second = scratch.path().join(format!("{scenario}-b.ron"));
        let stdout = play(&first);
        assert!(stdout.contains(result), "{scenario}: {stdout}");
        play(&second);
        assert_eq!(
            std::fs::read(&first).expect("the save"),
            std::fs::read(&second).expect("the second save"),
            "{scenario}: the same answers make the same save"
        );
        let (code, out, err) = chancery_as_typed(&["replay", path(&first), "--expect-same"]);
        assert_eq!(code, 0, "{scenario}: {out}{err}");
        assert!(out.contains("the game is the same"), "{scenario}: {out}");
    }
}

#[test]
fn lutzen_bautzen_bot_only_sims_are_reproducible_and_count_every_game() {
    // The French bot of 18.4 against the stand-in Allies, with the test fixture: every
    // game ends (a French win, an Allied win or a draw), the results sum to the games,
    // and the same seed prints the same JSON.
    let module = chancery_tests::repo_root().join("modules/cov");
    let fixture = module.join("tests/owner-fixture.ron");
    let args = [
        "sim",
        module.to_str().expect("utf-8"),
        "--scenario",
        "lutzen-bautzen",
        "--overlay",
        fixture.to_str().expect("utf-8"),
        "--games",
        "12",
        "--seed",
        "1",
        "--json",
    ];
    let (code, first, stderr) = chancery(&args);
    assert_eq!(code, 0, "{stderr}");
    let (_, second, _) = chancery(&args);
    assert_eq!(first, second, "the same seeds give the same JSON");
    let json: serde_json::Value = serde_json::from_str(&first).expect("JSON");
    let results = json["results"].as_object().expect("results");
    assert!(!results.contains_key("unfinished"), "{results:?}");
    for key in results.keys() {
        assert!(["FR", "BR+RU", "draw"].contains(&key.as_str()), "{key}");
    }
    let total: u64 = results.values().map(|n| n.as_u64().expect("a count")).sum();
    assert_eq!(total, 12);
    let rules = json["bot_rules"].as_object().expect("bot rules");
    for rule in ["18.4.5.2", "18.4.6.1, 1", "18.4.7.1", "18.4.7.7"] {
        assert!(
            rules.contains_key(&format!("lutzen_france: {rule}")),
            "{rule} never reached: {rules:?}"
        );
    }
    assert!(
        json["card_use"]["napoleon"].as_u64().is_some(),
        "{}",
        json["card_use"]
    );
}

#[test]
fn three_shards_merged_equal_one_run_byte_for_byte() {
    let module = chancery_tests::repo_root().join("modules/aftermath");
    let scratch = tempfile::tempdir().expect("scratch");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "sim",
            path(&module),
            "--demo",
            "--games",
            "10",
            "--seed",
            "7",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = chancery(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let whole = run(&["--json"]);
    let mut files = Vec::new();
    // Out of order, as a cluster's jobs may finish.
    for shard in ["3/3", "1/3", "2/3"] {
        let file = scratch.path().join(format!("shard-{}.json", &shard[..1]));
        std::fs::write(&file, run(&["--shard", shard])).expect("write the shard");
        files.push(file);
    }
    let names: Vec<&str> = files.iter().map(|f| path(f)).collect();
    let mut args = vec!["sim", "merge"];
    args.extend_from_slice(&names);
    let (code, merged, err) = chancery(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        merged, whole,
        "the merged shards are one run of all ten seeds"
    );
    let json: serde_json::Value = serde_json::from_str(&merged).expect("JSON");
    assert_eq!(json["games"], 10);

    // A missing shard, and the same shard twice, are refused with what is wrong.
    let (code, _, err) = chancery(&["sim", "merge", names[0], names[1]]);
    assert_eq!(code, 1);
    assert!(err.contains("missing shard(s): 2/3"), "{err}");
    let (code, _, err) = chancery(&["sim", "merge", names[0], names[0], names[1]]);
    assert_eq!(code, 1);
    assert!(err.contains("are both shard 3/3"), "{err}");
    let (code, _, err) = chancery(&["sim", path(&module), "--shard", "4/3"]);
    assert_eq!(code, 1);
    assert!(err.contains("is not I/N"), "{err}");
}

/// The comparison's charts are SVG documents that parse, with their titles; cards are
/// named; each metric is drawn on its own axis, whose ends are written in its unit.
fn charts_are_named_svg_with_an_axis_each(plots: &std::path::Path) {
    // The charts are SVG documents that parse, with their titles.
    let mut charts: Vec<String> = std::fs::read_dir(plots)
        .expect("the plot folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    charts.sort();
    assert_eq!(
        charts,
        [
            "card-differences.svg",
            "differences.svg",
            "scores-A.svg",
            "scores-B.svg"
        ]
    );
    for chart in &charts {
        let text = std::fs::read_to_string(plots.join(chart)).expect("read");
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{chart} is not well-formed XML: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(text.contains("<title>"), "{chart}");
    }
    let cards = std::fs::read_to_string(plots.join("card-differences.svg")).expect("read");
    assert!(
        cards.contains("card win share · Five"),
        "cards are named: {cards}"
    );
    // Each metric is drawn on its own axis, whose ends are written in the metric's unit:
    // a rate in points of percent, the length in inputs. One scale for all squeezed the
    // rates' intervals to dots beside the scores'.
    let text = std::fs::read_to_string(plots.join("differences.svg")).expect("read");
    let doc = roxmltree::Document::parse(&text).expect("XML");
    let rows: Vec<(String, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("row"))
        .map(|row| {
            let texts: Vec<roxmltree::Node> =
                row.children().filter(|n| n.has_tag_name("text")).collect();
            let name = texts[0].text().unwrap_or_default().to_owned();
            let high = texts
                .iter()
                .find(|n| n.attribute("class") == Some("high"))
                .and_then(|n| n.text())
                .unwrap_or_else(|| panic!("row {name} has no axis end"))
                .to_owned();
            (name, high)
        })
        .collect();
    let end = |name: &str| {
        rows.iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no row {name} in {rows:?}"))
            .1
            .clone()
    };
    assert!(end("length").ends_with(" inputs"), "{rows:?}");
    let wins: Vec<&(String, String)> = rows
        .iter()
        .filter(|(n, _)| n.starts_with("wins · "))
        .collect();
    assert_eq!(
        wins.len(),
        2,
        "a row for each seat's wins, by name: {rows:?}"
    );
    assert!(
        wins.iter().all(|(_, high)| high.ends_with(" points")),
        "{rows:?}"
    );
    let scales: std::collections::BTreeSet<&String> = rows.iter().map(|(_, high)| high).collect();
    assert!(scales.len() > 2, "every row has its own scale: {rows:?}");
}

/// A copy of the testbed with card Five's value raised from 5 to 50 (it then wins far more
/// often), for comparisons against the testbed itself.
fn testbed_with_five_at_50() -> (tempfile::TempDir, std::path::PathBuf) {
    let (scratch, copy) = copy_module(&test_module("testbed"));
    edit(
        &copy.join("data/cards.ron"),
        "\"value\": 5, \"suit\": \"sun\"",
        "\"value\": 50, \"suit\": \"sun\"",
    );
    (scratch, copy)
}

#[test]
fn compare_finds_the_changed_card_and_leaves_the_rest() {
    // One card's value raised (Five: 5 -> 50) in a copy of the testbed: the games of the
    // same seed are paired, so the card's win share moves clearly while the length of the
    // game, which no card value changes (every game is seven plays), does not.
    let (_scratch, copy) = testbed_with_five_at_50();
    let plots = tempfile::tempdir().expect("scratch");
    let original = test_module("testbed");
    let (code, out, err) = chancery(&[
        "sim",
        path(&copy),
        "--compare",
        path(&original),
        "--games",
        "200",
        "--json",
        "--plot",
        path(plots.path()),
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let metric = |group: &str, name: &str| {
        json["metrics"]
            .as_array()
            .expect("metrics")
            .iter()
            .find(|m| m["group"] == group && m["name"] == name)
            .unwrap_or_else(|| panic!("no metric {group} of {name}"))
            .clone()
    };
    let five = metric("card win share", "five");
    assert_eq!(five["significant"], true, "{five}");
    assert!(
        five["difference"].as_f64().expect("a number") > 0.0,
        "{five}"
    );
    let low = five["ci95"][0].as_f64().expect("a bound");
    assert!(low > 0.0, "the interval leaves out zero: {five}");
    let length = metric("length", "");
    assert_eq!(length["significant"], false, "{length}");
    assert_eq!(length["difference"], 0.0);
    assert!(
        json["significant"]
            .as_array()
            .expect("a list")
            .iter()
            .any(|s| s == "card win share of five")
    );

    charts_are_named_svg_with_an_axis_each(plots.path());
    // Without --json, the verdict opens with a sentence naming the largest change.
    let (code, out, err) = chancery(&[
        "sim",
        path(&copy),
        "--compare",
        path(&original),
        "--games",
        "200",
    ]);
    assert_eq!(code, 0, "{err}");
    let verdict = out.lines().nth(1).expect("a verdict");
    assert!(
        verdict.starts_with("The edit changes ") && verdict.contains("card win share · Five"),
        "{out}"
    );
    // In a playtester's words: a rate in percent, its change in points with its range.
    assert!(
        verdict.contains(" % → ") && verdict.contains(" points, could be "),
        "{verdict}"
    );
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("length") && l.contains(" inputs → ")),
        "{out}"
    );
}

#[test]
fn sim_speaks_in_tables_and_names() {
    let module = chancery_tests::repo_root().join("modules/aftermath");
    let (code, out, err) = chancery(&[
        "sim",
        path(&module),
        "--demo",
        "--games",
        "6",
        "--seed",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    for heading in [
        "Wins",
        "Results",
        "Scores:",
        "Game length:",
        "Cards played",
        "Bot rules used",
    ] {
        assert!(out.contains(heading), "{heading} in {out}");
    }
    assert!(out.contains("  First player "), "seats by name: {out}");
    assert!(!out.contains('{'), "no JSON in the text summary: {out}");
    assert!(
        !out.contains("P1") && !out.contains("region_"),
        "no ids: {out}"
    );
    // Bot rules are pooled by rule: the diplomat's four steps, not one key per province.
    let rules = out
        .split("Bot rules used")
        .nth(1)
        .expect("rules")
        .lines()
        .count();
    assert!(rules <= 6, "{out}");
}

#[test]
fn compare_of_an_unchanged_aftermath_finds_no_difference_at_all() {
    // A copy of Aftermath whose only change is a card's text (no rule reads it): the same
    // seeds replay the same games, so every difference is exactly zero.
    let module = chancery_tests::repo_root().join("modules/aftermath");
    let (_scratch, copy) = copy_module(&module);
    edit(
        &copy.join("data/cards.ron"),
        "Negate one full token in the negotiation circle, wherever",
        "Cancel one full token in the negotiation circle, wherever",
    );
    let (code, out, err) = chancery(&[
        "sim",
        path(&copy),
        "--demo",
        "--compare",
        path(&module),
        "--games",
        "12",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let metrics = json["metrics"].as_array().expect("metrics");
    assert!(metrics.len() > 50, "wins, scores, length and the cards");
    for m in metrics {
        assert_eq!(m["difference"], 0.0, "{m}");
        assert_eq!(m["significant"], false, "{m}");
    }
    assert_eq!(json["old_summary"], json["new_summary"]);
}

#[test]
fn coverage_lists_the_bot_steps_never_reached() {
    // The Lützen & Bautzen French bot in two games: the steps it took are counted, and
    // the withdrawal table (18.4.7.6), which Intr-2 forbids, is never reached.
    let module = chancery_tests::repo_root().join("modules/cov");
    let fixture = module.join("tests/owner-fixture.ron");
    let (code, out, err) = chancery(&[
        "sim",
        path(&module),
        "--scenario",
        "lutzen-bautzen",
        "--overlay",
        path(&fixture),
        "--games",
        "2",
        "--json",
        "--coverage",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let coverage = &json["coverage"];
    let steps = coverage["steps"].as_u64().expect("a count");
    let reached = coverage["reached"].as_u64().expect("a count");
    assert!(reached > 10 && reached < steps, "{coverage}");
    let never: Vec<&str> = coverage["never_reached"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s["step"].as_str().expect("a step"))
        .collect();
    assert!(never.iter().any(|s| s.starts_with("18.4.7.6")), "{never:?}");
    assert!(
        !never.contains(&"18.4.5.2"),
        "the wager step is taken every game"
    );
    assert_eq!(never.len() as u64, steps - reached);
}

#[test]
fn replay_under_another_version_lists_the_recorded_games_it_changes() {
    // An Aftermath game saved under a copy of the module, replayed under a second copy
    // whose doubled provinces score 3 instead of 2: the saved game's end changes, and so
    // does the module's recorded bot game (tests/replays/bot-game.ron), at its last input.
    let (_old_scratch, old) = copy_module(&chancery_tests::repo_root().join("modules/aftermath"));
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let (code, _, err) = chancery(&[
        "new",
        path(&old),
        "--seat",
        "P1=bot",
        "--seat",
        "P2=bot",
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    let (_new_scratch, new) = copy_module(&old);
    edit(
        &new.join("rules/board.lua"),
        "double_for, power) and 2 or 1",
        "double_for, power) and 3 or 1",
    );
    let (code, out, err) = chancery(&[
        "replay",
        path(&save),
        "--module",
        path(&new),
        "--expect-same",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "Recorded games: 1 of 1 changed by this edit.\n  tests/replays/bot-game.ron:\n    first differs at input 88 of 88 (First player: Play Region: Atlantic (bot))\n      the log now says: Game over (won by Second player). Every province has been captured. First player held Britain (7), Second player held Prussia ([9 → 13]).\n    end: won by Second player (First player 7, Second player 9) → won by Second player (First player 7, Second player 13)\n"
        ),
        "{out}"
    );

    // Under an unchanged copy, every recorded game is the same.
    let (_same_scratch, same) = copy_module(&old);
    edit(
        &same.join("rules/board.lua"),
        "-- A power's score",
        "--  A power's score",
    );
    let (code, out, err) = chancery(&[
        "replay",
        path(&save),
        "--module",
        path(&same),
        "--expect-same",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Recorded games: 0 of 1 changed by this edit.\n  tests/replays/bot-game.ron: the same (88 inputs).\n"),
        "{out}"
    );
}

/// Every call of this module runs fewer VM instructions than a profile's sample interval
/// (100): a profile must still sample it, as often as its share of the instructions.
const SHORT_CALLS: &str = r#"
local flowchart = include("@lib/flowchart.lua")
local lab = {}
function lab.prompt(ctx)
  return { seat = "P", text = "Again", actions = { { name = "ok" } } }
end
local function work(n)
  local x = 0
  for i = 1, n do
    x = x + i
  end
  return x
end
function lab.ok(ctx)
  ctx.vars.sum = (ctx.vars.sum or 0) + work(5)
  if ctx.vars.sum >= 15 * 1000 then
    ctx:game_over({ text = "A thousand short calls." })
  end
end
return {
  setup = function(ctx)
    ctx:push("lab")
  end,
  states = { lab = lab },
  bots = {
    steady = function(ctx, seat, actions)
      return flowchart.trace():choose(1, "The only action.")
    end,
  },
}
"#;

#[test]
fn sim_profile_samples_calls_shorter_than_its_interval() {
    let (_scratch, module) = chancery_tests::with_rules(&test_module("hostile"), SHORT_CALLS);
    let args = [
        "sim",
        path(&module),
        "--games",
        "1",
        "--bot",
        "P=steady",
        "--json",
        "--profile",
    ];
    let (code, out, err) = chancery(&args);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    // A thousand rounds of a prompt, a bot's pick and an action, each a few dozen
    // instructions: when each call's count started again at 100, almost none was sampled.
    let samples = json["profile"]["samples"].as_u64().expect("samples");
    assert!(samples > 500, "{samples} samples: {out}");
    // `work` (defined on the script's line 7) runs a loop of five in every action.
    let work = json["profile"]["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .find(|f| f["function"] == "rules/main.lua:7")
        .unwrap_or_else(|| panic!("work is sampled: {out}"));
    assert!(work["samples"].as_u64() > Some(50), "{work}");
    // The draws are the same in every run.
    let (_, again, _) = chancery(&args);
    assert_eq!(out, again);
}

#[test]
fn sim_profile_names_the_module_functions_that_use_the_instructions() {
    let module = test_module("testbed");
    let args = ["sim", path(&module), "--games", "20", "--json", "--profile"];
    let (code, out, err) = chancery(&args);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let functions = json["profile"]["functions"].as_array().expect("functions");
    assert!(!functions.is_empty(), "{out}");
    let samples: u64 = functions
        .iter()
        .map(|f| f["samples"].as_u64().expect("n"))
        .sum();
    assert_eq!(json["profile"]["samples"].as_u64(), Some(samples));
    // Each is a script of the module or of the engine's library (or the engine's own
    // sandbox, marked), and the line its function starts on.
    for f in functions {
        let name = f["function"].as_str().expect("a name");
        let (file, line) = name.rsplit_once(':').expect("file:line");
        assert!(
            (file.ends_with(".lua") || file == "[engine] prelude") && line.parse::<u32>().is_ok(),
            "{name}"
        );
    }
    assert!(
        functions.iter().any(|f| f["function"]
            .as_str()
            .is_some_and(|n| n.starts_with("rules/"))),
        "{out}"
    );
    // A function's samples with what it calls hold its own, and count each sample once
    // however deep the function is on the stack; some function calls another.
    for f in functions {
        let own = f["samples"].as_u64().expect("n");
        let with_callees = f["with_callees"].as_u64().expect("with callees");
        assert!(own <= with_callees && with_callees <= samples, "{f}");
    }
    assert!(
        functions
            .iter()
            .any(|f| f["with_callees"].as_u64() > f["samples"].as_u64()),
        "{out}"
    );
    // Most samples first; and the samples count instructions, so they repeat exactly.
    assert!(
        functions
            .windows(2)
            .all(|w| w[0]["samples"].as_u64() >= w[1]["samples"].as_u64())
    );
    let (_, again, _) = chancery(&args);
    assert_eq!(again, out);
    // Without --profile the summary has no profile.
    let (_, plain, _) = chancery(&["sim", path(&module), "--games", "20", "--json"]);
    assert!(!plain.contains("\"profile\""), "{plain}");
}

#[test]
fn a_first_headless_start_without_owner_data_points_at_the_demo() {
    let cov = chancery_tests::repo_root().join("modules/cov");
    let scratch = tempfile::tempdir().expect("scratch");
    let overlay = scratch.path().join("not-yet.ron");
    let (code, out, err) = chancery(&[
        "--module",
        path(&cov),
        "--headless",
        "--overlay",
        path(&overlay),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("start with --demo"), "{out}");
    assert!(!overlay.exists(), "nothing is written");
    let (code, out, err) =
        common::chancery_as_typed(&["--module", path(&cov), "--headless", "--demo"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("start with --demo"), "{out}");
}

/// The table as the command line prints it is for people: a zone without cards is not
/// listed, a face-down pile says so once, and the pieces that share a space name it once.
#[test]
fn the_printed_table_lists_no_empty_zone_and_names_a_space_once() {
    let (code, out, err) = chancery_as_typed(&["--demo", "--headless"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.lines().any(|l| l.contains(" (0): ")),
        "an empty zone is listed:\n{out}"
    );
    assert!(out.contains("Draw deck (65): face down"), "{out}");
    assert_eq!(
        out.matches("Issue spaces on the Diplomacy Display").count(),
        1,
        "{out}"
    );
    assert!(
        out.contains("Diplomacy Display: Issue spaces on the Diplomacy Display: Armistice, "),
        "{out}"
    );
}

#[test]
fn until_clear_stops_as_soon_as_the_answer_is_clear() {
    // Card Five raised from 5 to 50 changes who wins: the rounds stop once each seat's win
    // rate and score is clearly changed (long before the 5,000 games allowed). The module
    // against itself changes nothing at the same seeds: the first round settles it.
    let (_scratch, copy) = testbed_with_five_at_50();
    let original = test_module("testbed");
    let run = |new: &Path| {
        let (code, out, err) = chancery(&[
            "sim",
            path(new),
            "--compare",
            path(&original),
            "--until-clear",
            "--games",
            "5000",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        (json["until_clear"].clone(), err)
    };
    let (edited, rounds) = run(&copy);
    let games = edited["games"].as_u64().expect("games");
    assert!(games < 5000, "{edited}");
    let stopped = edited["stopped"].as_str().expect("why");
    assert!(
        stopped.contains("clearly changed: wins of Alpha"),
        "{stopped}"
    );
    assert!(
        rounds.contains("until clear: 40 of at most 5000"),
        "{rounds}"
    );
    let headlines = edited["headlines"].as_array().expect("headlines");
    assert!(
        headlines
            .iter()
            .any(|h| h["group"] == "wins" && h["changed"] == true),
        "{edited}"
    );
    let (same, _) = run(&original);
    assert_eq!(same["games"], 40, "{same}");
    assert!(
        same["stopped"]
            .as_str()
            .is_some_and(|s| s.contains("no headline metric changed")),
        "{same}"
    );
}
