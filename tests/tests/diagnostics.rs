//! Module errors are reported compiler-style, `path:line:col: message`, for RON and Lua:
//! each test breaks a copy of the testbed module in one place and checks the exact report.

use std::path::Path;

use chancery_core::module::OverlayChoice;
use chancery_core::{Diagnostics, LoadOptions};
use chancery_tests::{copy_module, edit, no_overlay, test_module};

/// Breaks a copy of the testbed with `change(dir)` and returns its diagnostics, each as
/// `file:line:col: message` with the file relative to the module folder.
fn broken(change: impl FnOnce(&Path)) -> Vec<String> {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    change(&dir);
    let diagnostics: Diagnostics = chancery_core::load_module(&dir, &no_overlay())
        .expect_err("the broken module must not load");
    let prefix = format!("{}/", dir.display());
    diagnostics
        .iter()
        .map(|d| d.to_string().replacen(&prefix, "", 1))
        .collect()
}

#[test]
fn a_ron_syntax_error_names_file_line_and_column_and_nothing_else() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/cards.ron"),
            r#"{"value": 2, "suit": "moon"}"#,
            r#"{"value": 2 "suit": "moon"}"#,
        )
    });
    assert_eq!(report, vec!["data/cards.ron:9:76: RON: Expected comma"]);
}

#[test]
fn a_piece_s_colour_that_is_not_rrggbb_points_at_the_colour() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/table.ron"),
            r#"name: "Alpha's army", kind: "block", owner: "A")"#,
            r#"name: "Alpha's army", kind: "block", owner: "A", colour: "purple")"#,
        )
    });
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(
        report[0].starts_with("data/table.ron:39:")
            && report[0].ends_with("piece 'block.A': colour 'purple' is not a colour: write \"#rrggbb\", as \"#7b4ea8\""),
        "{report:?}"
    );
}

#[test]
fn an_unknown_zone_in_a_scenario_points_at_the_zone() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/scenarios.ron"),
            r#""aside": ["mystery"]"#,
            r#""asdie": ["mystery"]"#,
        )
    });
    assert_eq!(
        report,
        vec!["data/scenarios.ron:9:66: scenario 'basic': unknown zone 'asdie'"]
    );
}

#[test]
fn a_field_of_the_wrong_type_names_the_card_and_the_field() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/cards.ron"),
            r#"{"value": 3, "suit": "sun"}"#,
            r#"{"value": "3", "suit": "sun"}"#,
        )
    });
    assert_eq!(
        report,
        vec![
            "data/cards.ron:10:69: card 'three': field 'value': expected an integer, found string 3"
        ]
    );
}

#[test]
fn a_value_outside_its_choices_points_at_the_value() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/cards.ron"),
            r#"{"value": 3, "suit": "sun"}"#,
            r#"{"value": 3, "suit": "star"}"#,
        )
    });
    assert_eq!(
        report,
        vec![
            r#"data/cards.ron:10:89: card 'three': field 'suit': 'star' is not one of "sun", "moon""#
        ]
    );
}

#[test]
fn a_misspelled_unknown_is_not_taken_for_unknown() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/cards.ron"),
            r#""value": unknown"#,
            r#""value": unknwn"#,
        )
    });
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(
        report[0].starts_with("data/cards.ron:13:")
            && report[0].contains("card 'mystery': 'unknwn' is not a value"),
        "{report:?}"
    );
}

#[test]
fn a_duplicate_id_names_both_definitions() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/cards.ron"),
            r#"Card(id: "two","#,
            r#"Card(id: "one", name: "Again"), Card(id: "two","#,
        )
    });
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(
        report[0].starts_with("data/cards.ron:9:18: duplicate card id 'one' (first defined at "),
        "{report:?}"
    );
    assert!(report[0].ends_with("data/cards.ron:8:18)"), "{report:?}");
    assert_eq!(report[0].matches("cards.ron:").count(), 2, "{report:?}");
}

#[test]
fn a_missing_data_file_is_reported_where_the_manifest_names_it() {
    let report = broken(|dir| std::fs::remove_file(dir.join("data/cards.ron")).expect("remove"));
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(
        report[0].starts_with("module.ron:9:30: cannot read "),
        "{report:?}"
    );
}

#[test]
fn a_lua_syntax_error_names_file_line_and_column() {
    let report = broken(|dir| {
        edit(
            &dir.join("rules/turn.lua"),
            "local actions = {}",
            "local actions = = {}",
        )
    });
    assert_eq!(
        report,
        vec!["rules/turn.lua:18:19: unexpected symbol near '='"]
    );
}

#[test]
fn an_undeclared_global_at_load_time_names_file_line_and_column() {
    let report = broken(|dir| {
        edit(
            &dir.join("rules/main.lua"),
            "local simple = include(\"bots/simple.lua\")",
            "local simple = include(\"bots/simple.lua\")\nlocal helper = missing_helper",
        )
    });
    assert_eq!(
        report,
        vec!["rules/main.lua:11:16: undeclared global 'missing_helper'"]
    );
}

#[test]
fn an_unknown_hook_name_is_reported_at_its_key() {
    let report = broken(|dir| {
        edit(
            &dir.join("rules/main.lua"),
            "bots = { simple = simple, peek = peek, spy = spy, fate = fate },",
            "bot = { simple = simple, peek = peek, spy = spy, fate = fate },",
        )
    });
    assert_eq!(
        report,
        vec![
            "rules/main.lua:120:3: unknown hook 'bot' in the rules table (hooks are: setup, states, view, check, bots, effects)"
        ]
    );
}

#[test]
fn a_seat_naming_a_missing_bot_is_reported() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/table.ron"),
            r#"name: "Beta", bot: "simple""#,
            r#"name: "Beta", bot: "clever""#,
        )
    });
    assert_eq!(
        report,
        vec![
            r#"data/table.ron:5:42: seat 'B': bot 'clever' is not in the rules' bots (they are: "fate", "peek", "simple", "spy")"#
        ]
    );
}

#[test]
fn an_effect_for_an_id_that_names_nothing_is_reported_where_it_is_written() {
    let report = broken(|dir| edit(&dir.join("rules/council.lua"), "  five = {", "  fiev = {"));
    assert_eq!(
        report,
        vec![
            "rules/council.lua:171:3: effect for 'fiev', but no card, card group, piece, zone, place, box, counter, seat, unit kind, table or scenario has that id (did you mean 'five'?)"
        ]
    );
}

#[test]
fn an_overlay_error_points_into_the_overlay_file() {
    let (scratch, dir) = copy_module(&test_module("testbed"));
    let overlay = scratch.path().join("owner.ron");
    std::fs::write(&overlay, "Overlay(\n    module: \"testbed\",\n    cards: {\"mystery\": {\"value\": 4}, \"misery\": {\"value\": 1}},\n)\n")
        .expect("write overlay");
    let options = LoadOptions {
        overlay: OverlayChoice::File(overlay.clone()),
        strict: false,
    };
    let report = overlay_errors(&dir, &options);
    assert_eq!(
        report,
        vec![format!(
            "{}:3:38: overlay: unknown card 'misery'",
            overlay.display()
        )]
    );
}

/// The errors of the owner's overlay: the module loads all the same, with none of the
/// overlay's values.
fn overlay_errors(dir: &std::path::Path, options: &LoadOptions) -> Vec<String> {
    let module = chancery_core::load_module(dir, options).expect("the module loads");
    let overlay = module.overlay.as_ref().expect("an overlay");
    assert_eq!(overlay.values, 0, "a broken overlay adds nothing");
    overlay.errors.iter().map(|d| d.to_string()).collect()
}

#[test]
fn an_overlay_completes_unknown_fields() {
    let (scratch, dir) = copy_module(&test_module("testbed"));
    let overlay = scratch.path().join("owner.ron");
    chancery_core::module::write_overlay_value(
        &overlay,
        "testbed",
        &chancery_core::module::OverlayTarget::CardField("mystery".into(), "value".into()),
        chancery_core::module::DataValue::Known(chancery_core::Value::Int(4)),
    )
    .expect("stored");
    let options = LoadOptions {
        overlay: OverlayChoice::File(overlay),
        strict: false,
    };
    let module = chancery_core::load_module(&dir, &options).expect("loads with the overlay");
    assert_eq!(
        module.card_field("mystery", "value"),
        Some(chancery_core::module::DataValue::Known(
            chancery_core::Value::Int(4)
        ))
    );
    assert!(
        module.unknown_report().is_empty(),
        "{:?}",
        module.unknown_report()
    );
}

#[test]
fn the_check_command_prints_diagnostics_and_exits_1() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    edit(
        &dir.join("rules/turn.lua"),
        "local actions = {}",
        "local actions = = {}",
    );
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = [
        "chancery",
        "check",
        "--no-overlay",
        dir.to_str().expect("utf-8 path"),
    ];
    let outcome = chancery::cli::run(args.map(Into::into), &mut out, &mut err);
    assert!(matches!(outcome, chancery::cli::Outcome::Exit(1)));
    let err = String::from_utf8(err).expect("utf-8");
    let expected = format!(
        "{}/rules/turn.lua:18:19: unexpected symbol near '='",
        dir.display()
    );
    assert!(err.lines().next() == Some(expected.as_str()), "{err}");
}

#[test]
fn an_overlay_completes_tables_names_cards_and_extends_maps() {
    let (scratch, dir) = copy_module(&test_module("testbed"));
    let overlay = scratch.path().join("owner.ron");
    std::fs::write(
        &overlay,
        r#"Overlay(
    module: "testbed",
    cards: {"mystery": {"name": "The Unknown", "value": 4}},
    tables: {"recruit_bonus": {"6": 2}},
    places: {"land": PlaceOverlay(spaces: [Space(id: "west", name: "West")], links: [("west", "north")])},
)
"#,
    )
    .expect("write overlay");
    let options = LoadOptions {
        overlay: OverlayChoice::File(overlay.clone()),
        strict: false,
    };
    let module = chancery_core::load_module(&dir, &options).expect("loads with the overlay");
    assert_eq!(
        module.cards.get("mystery").map(|c| c.name.as_str()),
        Some("The Unknown")
    );
    assert_eq!(
        module.table_entry("recruit_bonus", "6"),
        Some(chancery_core::module::DataValue::Known(
            chancery_core::Value::Int(2)
        ))
    );
    let land = module.places.get("land").expect("land");
    assert_eq!(land.neighbors("north"), ["south".into(), "west".into()]);
    assert_eq!(module.overlay.as_ref().map(|o| o.values), Some(5));

    std::fs::write(
        &overlay,
        r#"Overlay(module: "testbed", places: {"land": PlaceOverlay(links: [("west", "north")])})"#,
    )
    .expect("write overlay");
    let report = overlay_errors(&dir, &options);
    assert_eq!(
        report,
        vec![format!(
            "{}:1:67: overlay: place 'land': link names unknown space 'west'",
            overlay.display()
        )]
    );
}

#[test]
fn a_manifest_cannot_name_a_file_outside_the_module_folder() {
    for (given, named) in [
        ("/etc/passwd", "'/etc/passwd'"),
        ("../../../../etc/hostname", "'../../../../etc/hostname'"),
        ("data/../../outside.ron", "'data/../../outside.ron'"),
    ] {
        let report = broken(|dir| {
            edit(
                &dir.join("module.ron"),
                r#""data/cards.ron""#,
                &format!("{given:?}"),
            )
        });
        assert_eq!(report.len(), 1, "{report:?}");
        assert!(
            report[0].starts_with("module.ron:")
                && report[0].contains(&format!("{named} is outside the module folder")),
            "{report:?}"
        );
        assert!(
            !report[0].contains("root"),
            "nothing of the file is read: {report:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_folder_a_device_or_a_pipe_is_not_read() {
    let report = broken(|dir| {
        std::fs::write(dir.join("../secret.ron"), "Data(cards: [])").expect("write");
        std::fs::remove_file(dir.join("data/cards.ron")).expect("rm");
        std::os::unix::fs::symlink(dir.join("../secret.ron"), dir.join("data/cards.ron"))
            .expect("link");
    });
    assert!(
        report[0].contains("'data/cards.ron' is outside the module folder"),
        "{report:?}"
    );
    let report = broken(|dir| {
        std::fs::remove_file(dir.join("data/cards.ron")).expect("rm");
        std::os::unix::fs::symlink("/dev/zero", dir.join("data/cards.ron")).expect("link");
    });
    assert!(
        report[0].contains("is outside the module folder"),
        "{report:?}"
    );
    let report = broken(|dir| {
        std::fs::remove_file(dir.join("data/cards.ron")).expect("rm");
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join("data/cards.ron"))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
    });
    assert!(
        report[0].contains("'data/cards.ron' is not a regular file"),
        "{report:?}"
    );
}

#[test]
fn a_manifest_that_is_not_utf8_is_located() {
    let report = broken(|dir| {
        let path = dir.join("module.ron");
        let mut bytes = std::fs::read(&path).expect("read");
        let at = bytes
            .windows(4)
            .position(|w| w == b"name")
            .expect("a name field");
        bytes[at] = 0xff;
        std::fs::write(&path, bytes).expect("write");
    });
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(
        report[0].contains("module.ron:") && report[0].contains("is not UTF-8 text: line"),
        "{report:?}"
    );
}

#[test]
fn a_string_that_mentions_close_is_not_an_attribute() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let main = dir.join("rules/main.lua");
    let text = std::fs::read_to_string(&main).expect("read");
    std::fs::write(
        &main,
        format!("local note = \"<close> is refused\"\n{text}"),
    )
    .expect("write");
    chancery_core::load_module(&dir, &no_overlay()).expect("a string is only text");
}

#[test]
fn one_check_reports_the_data_s_errors_and_the_scripts_syntax_errors_together() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/cards.ron"),
            r#"{"value": 2, "suit": "moon"}"#,
            r#"{"value": 2 "suit": "moon"}"#,
        );
        let rules = dir.join("rules/turn.lua");
        let lua = std::fs::read_to_string(&rules).expect("rules");
        std::fs::write(
            &rules,
            lua.replacen("local actions = {}", "local actions = {", 1),
        )
        .expect("break");
    });
    assert_eq!(report.len(), 2, "{report:?}");
    assert_eq!(report[0], "data/cards.ron:9:76: RON: Expected comma");
    assert!(report[1].starts_with("rules/turn.lua:"), "{report:?}");
}

/// Adds `data/field.ron` holding `text` to the module in `dir` and lists it first among its
/// data files.
fn add_board_file(dir: &Path, text: &str) {
    std::fs::write(dir.join("data/field.ron"), text).expect("board file");
    edit(
        &dir.join("module.ron"),
        "data: [",
        r#"data: ["data/field.ron", "#,
    );
}

#[test]
fn a_board_naming_a_missing_place_or_space_points_at_the_name() {
    let report = broken(|dir| {
        add_board_file(
            dir,
            r#"Data(
    boards: [
        Board(
            id: "field",
            name: "Field",
            size: (900.0, 500.0),
            items: [
                Track(place: "scores", at: (10.0, 10.0)),
                Map(place: "land", at: (10.0, 100.0), spaces: {"north": (0.0, 0.0), "west": (200.0, 0.0)}),
            ],
        ),
    ],
)
"#,
        )
    });
    assert_eq!(
        report,
        vec![
            "data/field.ron:8:30: board 'field': unknown place 'scores'",
            "data/field.ron:9:85: board 'field': place 'land' has no space 'west' (its spaces: north, south, east)",
        ]
    );
}

#[test]
fn an_owner_s_board_naming_a_missing_board_or_space_points_into_the_overlay() {
    let (scratch, dir) = copy_module(&test_module("testbed"));
    let overlay = scratch.path().join("owner.ron");
    let load = |text: &str| {
        std::fs::write(&overlay, text).expect("write overlay");
        let options = LoadOptions {
            overlay: OverlayChoice::File(overlay.clone()),
            strict: false,
        };
        overlay_errors(&dir, &options)
            .iter()
            .map(|d| d.replacen(&format!("{}:", overlay.display()), "", 1))
            .collect::<Vec<String>>()
    };
    assert_eq!(
        load("Overlay(module: \"testbed\", boards: {\"field\": (image: Some(\"b.png\"))})\n"),
        vec!["1:37: overlay: unknown board 'field' (the module has no boards)"]
    );
    // With a board in the module, a key that is not "place/space" is pointed at.
    add_board_file(
        &dir,
        "Data(boards: [Board(id: \"field\", name: \"Field\", size: (500.0, 300.0))])\n",
    );
    assert_eq!(
        load(
            "Overlay(module: \"testbed\", boards: {\"field\": (spaces: {\"land/west\": (1.0, 2.0)})})\n"
        ),
        vec!["1:56: overlay: board 'field': 'land/west' is not a space (write it \"place/space\")"]
    );
}

#[test]
fn a_chart_step_naming_a_key_part_the_rows_lack_points_at_the_row() {
    let report = broken(|dir| {
        edit(
            &dir.join("data/table.ron"),
            r#"step: "3.1, die {key}""#,
            r#"step: "3.1, {key.1}'s die {key.2}""#,
        )
    });
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(
        report[0].starts_with("data/table.ron:70:")
            && report[0].contains(
                "table 'objection_chart': entry '1' has fewer parts than the chart step's {key.2}"
            ),
        "{report:?}"
    );
}

#[test]
fn a_misspelt_key_of_a_declared_step_points_at_the_procedure() {
    // `resum` for `resume`: the step would never hear its sub-procedure's answer; the
    // module does not load, and the report names the procedure, the step and the key.
    let report = broken(|dir| {
        edit(
            &dir.join("rules/muster.lua"),
            "    resume = function(ctx, levied, seat)",
            "    resum = function(ctx, levied, seat)",
        )
    });
    assert_eq!(report.len(), 1, "{report:?}");
    assert!(
        report[0].starts_with("rules/muster.lua:10:")
            && report[0].contains(
                "steps.procedure 'Muster': step 1 ('1. Levy'): unknown key 'resum' (a step has name, run, each, skip, label, resume, calls)"
            ),
        "{report:?}"
    );
}

#[test]
fn a_step_that_calls_a_state_the_rules_lack_points_at_the_step() {
    // The outline (`chancery check --outline`) is drawn from each step's `calls`: a name
    // there that is no state is an error at the line of the step's run.
    let report = broken(|dir| {
        edit(
            &dir.join("rules/muster.lua"),
            "calls = \"review\",",
            "calls = \"reveiw\",",
        )
    });
    assert_eq!(
        report,
        vec![
            "rules/muster.lua:34:1: step '2. Review' of the procedure 'Muster' calls 'reveiw', which is not a state of the rules: name a state in its calls, or add the state"
        ]
    );
}

#[test]
fn a_step_that_calls_a_state_its_calls_does_not_name_stops_with_its_name() {
    // A step's `calls` is checked as it runs too, so the outline cannot leave out a state a
    // step calls: without `calls = "review"`, the review step stops the move that reaches it.
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    edit(
        &dir.join("rules/muster.lua"),
        "    calls = \"review\",\n",
        "",
    );
    let module = chancery_core::load_module(&dir, &no_overlay()).expect("loads");
    let mut session =
        chancery_core::start_game(module.into(), chancery_core::GameSpec::new("muster", 1))
            .expect("starts");
    session
        .act("levy", chancery_core::Value::Int(2))
        .expect("Beta levies");
    let err = session
        .act("levy", chancery_core::Value::Int(1))
        .expect_err("the review step calls a state it does not name");
    let text = format!("{err:#}");
    assert!(
        text.contains(
            "steps.procedure 'Muster', step '2. Review' calls the state 'review', which its 'calls' does not name (it names: none): add it to the step's calls"
        ),
        "{text}"
    );
    assert_eq!(
        session.table().top_frame().map(|f| f.state.as_str()),
        Some("levy"),
        "the move is refused, the game stands"
    );
}
