//! War and Peace, the Grand Campaign (seed 002): from the command line and under random
//! play.

use std::path::PathBuf;

use chancery_core::Value;
use chancery_core::module::DataValue;
use chancery_tests::{load, random_play, repo_root};
use common::{chancery_as_typed as chancery, chancery_ok as run, path};

mod common;

fn module_dir() -> PathBuf {
    repo_root().join("modules/warpeace")
}

/// A two-player game from the command line stops at September 1805's first decision, and
/// `act` steps through the whole month, each die asked for when the players roll their own.
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
    assert!(out.contains("Turn 1, September 1805"), "{out}");
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
    // A French fleet enters a sea zone whose Interception Modifier is negative: `set -1`.
    run(&["act", path(&save), "enter_zone"]);
    let out = run(&["act", path(&save), "set", "-1"]);
    assert!(out.contains("enters a sea zone (IM -1)"), "{out}");
    // The rest of the month, every phase over at once: each roll is asked for and given.
    let mut dice_asked = 0;
    for _ in 0..400 {
        let (seat, state, actions) = decision(&save);
        let answer = passive(&state, &actions);
        let mut args = vec!["act", path(&save), "--seat", &seat];
        args.extend(answer.splitn(2, ' '));
        let (code, out, err) = chancery(&args);
        let out = if code == 0 {
            out
        } else {
            assert!(
                err.contains("die roll: give it with --dice"),
                "{answer}: {err}"
            );
            dice_asked += 1;
            args.extend(["--dice", "3"]);
            run(&args)
        };
        if out.contains("October 1805 begins.") {
            // The attrition dice of both factions, and each state's production die.
            assert!(dice_asked >= 6, "{dice_asked} dice asked for");
            return;
        }
    }
    panic!("September 1805 did not end");
}

/// The decision a save waits for: the deciding seat, the state, the actions as typed.
fn decision(save: &std::path::Path) -> (String, String, Vec<String>) {
    let out = run(&["state", path(save)]);
    let line = out
        .lines()
        .find(|l| l.contains(", human) decides"))
        .expect("a decision");
    let seat = line
        .split(", human) decides")
        .next()
        .and_then(|who| who.rsplit('(').next())
        .expect("a seat")
        .to_owned();
    // The state's name is for scripts: the JSON has it.
    let json: serde_json::Value =
        serde_json::from_str(&run(&["state", path(save), "--json"])).expect("JSON");
    let state = json["state"].as_str().expect("a state").to_owned();
    let seen = run(&["state", path(save), "--seat", &seat]);
    let actions = seen
        .split("[act: ")
        .skip(1)
        .filter_map(|rest| rest.split(']').next())
        .map(str::to_owned)
        .collect();
    (seat, state, actions)
}

/// The answer that lets a phase pass: a phase over, a production from every city, no roll,
/// no announcement but staying, no interception.
fn passive(state: &str, actions: &[String]) -> String {
    let has = |name: &str| actions.iter().any(|a| a == name);
    let first = actions.first().cloned().unwrap_or_default();
    if has("production") {
        "production".to_owned()
    } else if state == "form" {
        // A number field: its highest value; a choice: the first.
        match first
            .strip_prefix("set <")
            .and_then(|r| r.split("..").nth(1))
        {
            Some(hi) => format!("set {}", hi.trim_end_matches('>')),
            None => first,
        }
    } else if state == "alliance_phase" && !first.starts_with("announce") {
        "no_roll".to_owned()
    } else if has("pass") {
        "pass".to_owned()
    } else if has("done") {
        "done".to_owned()
    } else {
        first
    }
}

/// Random legal play of every scenario with the fixture runs 24 months (to September 1807)
/// in 50 seeds with no error, with the module's check after every input; and with the
/// optional rules in use, two scenarios in 25 seeds.
#[test]
fn random_play_of_every_scenario_runs_24_months() {
    let scenarios = [
        "solitaire",
        "two-player",
        "three-player",
        "four-player",
        "five-player",
        "six-player",
    ];
    let months = |session: &chancery_core::Session| session.table().turn > 24;
    let fixture = "tests/owner-fixture.ron";
    random_play(&module_dir(), fixture, &scenarios, &[], 50, months);
    // With the optional rules of K in use (expeditions, prizes, battle damage).
    let k = [
        ("k4.expeditions", "on"),
        ("k6.prizes", "on"),
        ("k7.damage", "on"),
    ];
    let two_and_six = ["two-player", "six-player"];
    random_play(&module_dir(), fixture, &two_and_six, &k, 25, months);
}

/// Every number the text fixes that the rules read is in the module's data, as the text
/// gives it (the lines of seeds/002): costs in half points, the odds in tenths.
#[test]
fn the_numbers_the_text_fixes_are_in_the_data() {
    let module = load(&module_dir());
    let printed: &[(&str, &str, i64, &str)] = &[
        // J.2.d, L839-L846: guard cavalry 3, guard infantry or regular cavalry 2, regular
        // infantry or Cossacks 1, Landwehr, militia or partisans 1/2 (in half points).
        ("unit_cost", "guard_cavalry", 6, "L839-L840"),
        ("unit_cost", "guard_infantry", 4, "L841-L842"),
        ("unit_cost", "cavalry", 4, "L841-L842"),
        ("unit_cost", "infantry", 2, "L843-L844"),
        ("unit_cost", "cossacks", 2, "L843-L844"),
        ("unit_cost", "landwehr", 1, "L845-L846"),
        ("unit_cost", "militia", 1, "L845-L846"),
        ("unit_cost", "partisans", 1, "L845-L846"),
        // J.5.f, J.6.b: a naval unit costs five.
        ("unit_cost", "squadrons", 10, "L920, L929"),
        ("unit_cost", "transports", 10, "L920, L929"),
        // J.2.a-b: four strength points a city; 5 or less one point, 6 or more two.
        ("production", "deploy_per_city", 4, "L818"),
        ("production", "high_roll", 6, "L826-L827"),
        ("production", "low_points", 1, "L823-L825"),
        ("production", "high_points", 2, "L826-L827"),
        // J.5.d: England's two for land units and five for naval units.
        ("production", "english_land", 2, "L914"),
        ("production", "english_naval", 5, "L914"),
        // J.6.c-d: a down payment of one, box 5; thirty native points in six installments.
        ("installment", "down_payment", 1, "L934"),
        ("installment", "first_box", 5, "L935"),
        ("installment", "iberian_cost", 30, "L942-L943"),
        ("installment", "iberian_installments", 6, "L943-L944"),
        // F.7.b: 2 to 1 from two, 3 to 2 from one and one-half (in tenths).
        ("naval_odds", "2:1", 20, "L443-L444"),
        ("naval_odds", "3:2", 15, "L445-L446"),
        // F.1.b, F.7.f, F.8: morale 1 (English 2); +-1 English; +-1 Nelson.
        ("naval_modifiers", "morale", 1, "L186-L188"),
        ("naval_modifiers", "english_morale", 2, "L188-L189"),
        ("naval_modifiers", "english", 1, "L483-L486"),
        ("naval_modifiers", "nelson", 1, "L486-L488, L491, L504-L507"),
        ("naval_modifiers", "at_sea", 1, "L318-L320"),
        // F.3.d: five points, two infantry, one cavalry, or two points with one infantry.
        ("transport", "points", 5, "L269-L270"),
        ("transport", "infantry", 2, "L270-L271"),
        ("transport", "cavalry", 1, "L270-L271"),
        ("transport", "mixed_points", 2, "L271-L273"),
        ("transport", "mixed_infantry", 1, "L272-L273"),
        // K.6.d, K.7.c: a prize three points and three months, a transport one and one;
        // battle damage one point and one turn.
        ("repair", "prize_squadron_points", 3, "L1082"),
        ("repair", "prize_squadron_months", 3, "L1082-L1083"),
        ("repair", "prize_transport_points", 1, "L1084"),
        ("repair", "prize_transport_months", 1, "L1084-L1085"),
        ("repair", "damage_points", 1, "L1112"),
        ("repair", "damage_turns", 1, "L1113"),
        // I.3.b: less than four, to the Force Pool.
        ("conquest", "replace_from", 4, "L753-L755"),
        // K.4.b: six or less, seven or greater.
        ("expedition", "high_from", 7, "L1014-L1015"),
        // G.1.g: a maximum of plus or minus four.
        ("alliance_limit", "max", 4, "L578-L579"),
    ];
    for (table, key, value, lines) in printed {
        assert_eq!(
            module.table_entry(table, key),
            Some(DataValue::Known(Value::Int(*value))),
            "{table} {key} ({lines})"
        );
    }
}

/// From the README's own command, with no owner data: `new` does not exit at start; it saves
/// the game and says the first value the set-up needs, with what to type; `act --value`
/// stores it in the overlay it names and asks the next; and `--demo` starts the game at
/// once with the module's placeholders.
#[test]
fn the_game_starts_without_the_owner_s_data_and_asks_each_value() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("wp.ron");
    let overlay = scratch.path().join("mine.ron");
    let dir = module_dir();
    let out = run(&[
        "new",
        path(&dir),
        "--scenario",
        "two-player",
        "--overlay",
        path(&overlay),
        "--out",
        path(&save),
    ]);
    assert!(
        out.contains("The game waits for a value of your copy of the game: Initial political status (D.1, D.2): France")
            && out.contains("for example --value pro"),
        "{out}"
    );
    let give = |value: &str| {
        chancery(&[
            "act",
            path(&save),
            "--value",
            value,
            "--overlay",
            path(&overlay),
        ])
    };
    let (code, out, err) = give("pro");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Initial Force Pools (J.1.d): France is not entered yet"),
        "{out}"
    );
    let stored = std::fs::read_to_string(&overlay).expect("the overlay");
    assert!(stored.contains("\"FR\": \"pro\""), "{stored}");
    let (code, _, err) = give("pro");
    assert_eq!(code, 1, "a status is not a Force Pool");
    assert!(
        err.contains("expected a map of unit kind ids to (an integer)"),
        "{err}"
    );
    let demo = scratch.path().join("demo.ron");
    let out = run(&[
        "new",
        path(&dir),
        "--scenario",
        "two-player",
        "--demo",
        "--out",
        path(&demo),
    ]);
    assert!(!out.contains("waits for a value"), "{out}");
}
