//! The Napoleonic Wars Campaign (seed 004) run by mail: every printed cell of its four
//! battle tables against the page, a whole turn played from the command line against its
//! golden replay, and what each nation's report and redacted save may hold.

use std::path::{Path, PathBuf};

use chancery_core::devtools::recording::Recording;
use chancery_core::module::DataValue;
use chancery_core::save::SaveFile;
use chancery_core::{SeatId, Value};
use chancery_tests::{load, repo_root};
// As typed: the save names its fixture overlay, which every later command reads.
use common::{
    campaign_orders_received as orders_received, campaign_published as published,
    chancery_as_typed as chancery, chancery_ok as run, path,
};

mod common;

fn module_dir() -> PathBuf {
    repo_root().join("modules/campaign")
}

/// The four battle tables as the text prints them (L296-L802): each table's columns, then
/// each row, its roll first. A row with one cell fewer than the columns leaves out the
/// last column, as the text does.
const PRINTED: &[(&str, &str, &[&str])] = &[
    (
        "field_battle",
        "1:3 1:2 1:1 2:1 3:1 4:1 5:1 6:1 12:1",
        &[
            " 2 35/10R 30/15R 25/20R 20/25R 15/30R 10/35R 5/40R 2/45R 0/100",
            " 3 36/9 31/14R 26/19R 21/24R 16/29R 11/34R 6/39R 4/40R",
            " 4 37/8 32/13R 27/18R 22/23R 17/28R 12/33R 7/38R 5/39R",
            " 5 38R/7 33/12 28/17R 23/22R 18/27R 13/32R 8/37R 6/38R",
            " 6 39R/6 34/11 29/16 24/21R 19/26R 14/31R 9/36R 7/37R",
            " 7 40R/5 35R/10 30/15 25/20R 20/25R 15/30R 10/35R 8/36R 0/60",
            " 8 41R/4 36R/9 31R/14 26/19 21/24R 16/29R 11/34R 9/35R",
            " 9 42R/3 37R/8 32R/13 27/18 22/23 17/28R 12/33R 10/34R",
            "10 43R/2 38R/7 33R/12 28R/17 23/22 18/27 13/32R 11/33R",
            "11 44R/1 39R/6 34R/11 29R/16 24R/21 19/26 14/31 12/32R 10/30R",
            "12 45R/- 40R/5 35R/10 30R/15 25R/20 20R/25 15/30 10/30",
        ],
    ),
    (
        "meeting_battle",
        "1:4 1:3 1:2 1:1 2:1 3:1 4:1 5:1 10:1",
        &[
            " 2 30/10R 25/15R 20/20R 15/25R 10/30R 5/35R -/40R -/45R 0/100",
            " 3 31/9R 26/14R 21/19R 16/24R 11/29R 6/34R 1/39R -/40R",
            " 4 32R/8R 27/13R 22/18R 17/23R 12/28R 7/33R 2/38R 1/39R",
            " 5 33R/7 28R/12R 23/17R 18/22R 13/27R 8/32R 3/37R 2/38R",
            " 6 34R/6 29R/11 24R/16R 19/21R 14/26R 9/31R 4/36R 3/37R",
            " 7 35R/5 30R/10 25R/15 20R/20R 15/25R 10/30R 5/35R 4/36R 0/60",
            " 8 36R/4 31R/9 26R/14 21/19R 16R/24R 11/29R 6/34R 5/35R",
            " 9 37R/3 32R/8 27R/13 22R/18 17/23R 12R/28R 7/33R 6/34R",
            "10 38R/2 33R/7 28R/12 23R/17 18R/22 13/27R 8R/32R 7/33R",
            "11 39R/1 34R/6 29R/11 24R/16 19R/21 14R/26 9R/31 8R/32R 10/30R",
            "12 40R/- 35R/5 30R/10 25R/15 20R/20 15R/25 10R/30 9R/31",
        ],
    ),
    (
        "siege_battle",
        "1:1 2:1 3:1 4:1 5:1 6:1 7:1",
        &[
            " 2 35/20R 30/30R 25/40R 20/50R 15/60R 10/70R 5/80R",
            " 3 36R/9 31/28R 26/38R 21/48R 16/58R 11/68R 6/78R",
            " 4 37R/8 32/26R 27/36R 22/46R 17/56R 12/66R 7/76R",
            " 5 38R/7 33R/12 28/34R 23/44R 18/54R 13/64R 8/74R",
            " 6 39R/6 34R/11 29R/16 24/42R 19/52R 14/62R 9/72R",
            " 7 40R/5 35R/10 30R/15 25/40R 20/50R 15/60R 10/70R",
            " 8 41R/4 36R/9 31R/14 26R/19 21/48R 16/58R 11/68R",
            " 9 42R/3 37R/8 32R/13 27R/18 22R/23 17/56R 12/66R",
            "10 43R/2 38R/7 33R/12 28R/17 23R/22 18R/27 13/64R",
            "11 44R/1 39R/6 34R/11 29R/16 24R/21 19R/26 14/62R",
            "12 45R/- 40R/5 35R/10 30R/15 25R/20 20R/25 15R/30",
        ],
    ),
    (
        "sea_battle",
        "1:4 1:3 1:2 1:1 2:1 3:1 4:1 5:1 6:1",
        &[
            " 2 25/20R 25/20R 25/25R 20/25R 5/30R 0/50R 0/55R 0/60R 0/65R",
            " 3 25/15R 25/20R 21/24R 21/24R 10/29R 0/45R 0/50R 0/55R 0/60R",
            " 4 25R/15 25/15R 22/23R 22/23R 15/28R 5/40R 0/45R 0/50R 0/55R",
            " 5 25R/10 25R/15 23/22R 23/22R 18/27R 5/35R 5/40R 0/45R 0/50R",
            " 6 30R/10 25R/10 24R/20 24/21R 19/26R 10/30R 5/35R 5/40R 0/45R",
            " 7 30R/10 30R/10 25R/20 20/20R 20/25R 10/30R 10/30R 5/35R 5/40R",
            " 8 35R/5 30R/10 26R/19 21R/24 21/24R 10/25R 10/30R 10/30R 5/35R",
            " 9 40R/5 35R/5 27R/18 22R/23 22R/23 15/25R 10/25R 10/30R 10/30R",
            "10 45R/0 40R/5 28R/15 23R/22 23R/22 15R/25 15/25R 10/25R 10/30R",
            "11 50R/0 45R/0 29R/10 24R/21 24R/21 20R/25 15R/25 15/25R 10/25R",
            "12 55R/0 50R/0 30R/5 25R/20 25R/20 20R/25 20R/25 15R/25 15/25R",
        ],
    ),
];

/// Every cell the text prints is in the module's data under "column/roll", with the same
/// result, and the data holds nothing else: 91 + 91 + 77 + 99 = 358 cells.
#[test]
fn every_printed_cell_of_the_four_battle_tables_is_in_the_data() {
    let module = load(&module_dir());
    let mut total = 0;
    for (id, columns, rows) in PRINTED {
        let columns: Vec<&str> = columns.split(' ').collect();
        let mut printed = 0;
        for row in *rows {
            let mut words = row.split_whitespace();
            let roll = words.next().expect("a roll");
            for (column, cell) in columns.iter().zip(words) {
                let key = format!("{column}/{roll}");
                assert_eq!(
                    module.table_entry(id, &key),
                    Some(DataValue::Known(Value::Str(cell.to_owned()))),
                    "{id} {key}"
                );
                printed += 1;
            }
        }
        let table = module.tables.get(id).expect("the table");
        assert_eq!(
            table.entries.len(),
            printed,
            "{id} holds only the printed cells"
        );
        total += printed;
    }
    assert_eq!(total, 358);
}

/// The module's readings of the text's slips in its data (RULES-GAPS.md): Leipzig, listed
/// for Prussia (as "Liepzig") and for Denmark, is one city, Prussia's; Prussia's
/// reparations ("0 $160/turn") are $160.
#[test]
fn the_readings_of_the_text_s_slips_are_in_the_data() {
    let module = load(&module_dir());
    let map = module.places.get("map").expect("the map");
    let leipzig = map.space("leipzig").expect("Leipzig");
    assert_eq!(leipzig.name, "Leipzig");
    assert_eq!(
        leipzig.props.get("nation"),
        Some(&DataValue::Known(Value::Str("PR".to_owned())))
    );
    let danish: Vec<&str> = map
        .def
        .spaces
        .iter()
        .filter(|s| s.props.get("nation") == Some(&DataValue::Known(Value::Str("DK".to_owned()))))
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(danish, ["copenhagen", "christiana"]);
    assert_eq!(
        module.table_entry("reparations", "PR"),
        Some(DataValue::Known(Value::Int(160)))
    );
}

/// The umpire's save after a whole turn played from the command line: the game started
/// with the fixture, the intel published, every nation's orders received, the umpire's
/// answers for steps 3 to 9.
fn turn_by_mail(dir: &Path) -> PathBuf {
    let save = orders_received(dir);
    umpire_answers(&save, &module_dir().join("tests/answers/umpire-turn-1.txt"));
    save
}

/// The umpire applies the answers file `answers` to `save`.
fn umpire_answers(save: &Path, answers: &Path) {
    run(&[
        "act",
        path(save),
        "--seat",
        "UM",
        "--answers",
        path(answers),
    ]);
}

/// A whole turn from the command line is the golden replay, input for input and in the
/// table it ends on; its reports are written for every nation, the umpire and the public.
#[test]
fn a_turn_by_mail_from_the_command_line_is_the_golden_replay() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = turn_by_mail(scratch.path());
    let recorded = scratch.path().join("turn.ron");
    let fixture = module_dir().join("tests/owner-fixture.ron");
    let (code, _, err) = chancery(&[
        "record",
        path(&save),
        "--overlay",
        path(&fixture),
        "--out",
        path(&recorded),
    ]);
    assert_eq!(code, 0, "{err}");
    let read = |p: &Path| Recording::read(p).expect("a recording");
    let (played, golden) = (
        read(&recorded),
        read(&module_dir().join("tests/replays/turn-1.ron")),
    );
    assert_eq!(played.inputs, golden.inputs);
    assert_eq!(played.expect, golden.expect);
    let reports = scratch.path().join("turn-1");
    let (code, out, err) = chancery(&[
        "report",
        path(&save),
        "--all",
        "--turn",
        "1",
        "--note",
        "Preliminary results: challenges to the umpire within 24 hours",
        "--out",
        path(&reports),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().count(),
        11,
        "nine nations, the umpire and the public: {out}"
    );
    let france = std::fs::read_to_string(reports.join("FR.md")).expect("France's report");
    assert!(
        france.starts_with(
            "# Napoleonic Wars Campaign — Fall 1805: France's report, turn 1\n\n\
             **Preliminary results: challenges to the umpire within 24 hours**"
        ),
        "{france}"
    );
}

/// After the turn, France's report, its JSON report and its redacted save tell the battle
/// France fought and nothing that is Austria's alone: Austria's trade dice and income, its
/// replacement general, its general on the map, its bank. The umpire's save holds all of
/// it.
#[test]
fn france_learns_its_battle_and_nothing_that_is_austria_s() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = turn_by_mail(scratch.path());
    let whole = SaveFile::read(&save).expect("the umpire's save");
    let austria = SeatId::from("AU");
    // Every line told to Austria alone, as the umpire's save holds them.
    let mut secrets: Vec<String> = whole
        .log
        .iter()
        .flat_map(|e| &e.messages)
        .filter(|m| m.to.as_ref() == Some(&austria))
        .map(|m| m.text.clone())
        .collect();
    assert!(
        secrets.iter().any(|s| s.contains("Your new general"))
            && secrets.iter().any(|s| s.contains("for Austria's trade")),
        "{secrets:?}"
    );
    secrets.extend(["gen.AU.1", "Austria's general 1", "Salzburg", "salzburg"].map(String::from));
    // A save escapes an apostrophe ("Austria\\'s"): read back as written.
    let save_text = |p: &Path| {
        std::fs::read_to_string(p)
            .expect("a save")
            .replace("\\'", "'")
    };
    let umpire_text = save_text(&save);
    for secret in &secrets {
        assert!(
            umpire_text.contains(secret.as_str()),
            "the umpire's save holds '{secret}'"
        );
    }
    let redacted = scratch.path().join("france.ron");
    let (code, _, err) = chancery(&[
        "export",
        path(&save),
        "--seat",
        "FR",
        "--out",
        path(&redacted),
    ]);
    assert_eq!(code, 0, "{err}");
    let report = |json: bool| {
        let mut args = vec!["report", path(&save), "--seat", "FR", "--turn", "1"];
        if json {
            args.push("--json");
        }
        let (code, out, err) = chancery(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let battle = "field battle, France against Britain: odds 2:1, column 3:1";
    for (what, text) in [
        ("France's report", report(false)),
        ("France's JSON report", report(true)),
        ("France's redacted save", save_text(&redacted)),
    ] {
        assert!(text.contains(battle), "{what} tells the battle:\n{text}");
        assert!(
            text.contains("France's general 1"),
            "{what} shows France's general"
        );
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "{what} holds '{secret}', Austria's alone"
            );
        }
    }
    // Britain fought too; Russia did not, and reads only that a battle was fought.
    let (_, russia, _) = chancery(&["report", path(&save), "--seat", "RU", "--turn", "1"]);
    assert!(
        russia.contains("A field battle was fought between France and Britain."),
        "{russia}"
    );
    assert!(!russia.contains("odds 2:1"), "{russia}");
}

/// A nation's orders by mail: France plays its orders in its redacted save, writes them as
/// an answers file, checks that file on its view of the game, and the umpire applies it to
/// the whole game, where France's orders are then received.
#[test]
fn a_nation_s_orders_tried_on_its_redacted_save_reach_the_umpire_s_game() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = published(scratch.path());
    let mine = scratch.path().join("france.ron");
    run(&["export", path(&save), "--seat", "FR", "--out", path(&mine)]);
    run(&["act", path(&mine), "received"]);
    let orders = scratch.path().join("orders.txt");
    let out = run(&["orders", path(&mine), "--out", path(&orders)]);
    assert!(out.contains("(1 answer(s))"), "{out}");
    let text = std::fs::read_to_string(&orders).expect("the orders");
    assert!(
        text.contains("\norders of FR\n") && text.ends_with("FR: received\n"),
        "{text}"
    );
    // Checked on a fresh copy of France's view (in its own save they are played already).
    let fresh = scratch.path().join("france-fresh.ron");
    run(&["export", path(&save), "--seat", "FR", "--out", path(&fresh)]);
    let out = run(&["act", path(&fresh), "--answers", path(&orders), "--check"]);
    assert!(out.contains("All 1 answer(s) are taken"), "{out}");
    run(&["act", path(&save), "--answers", path(&orders)]);
    let whole = SaveFile::read(&save).expect("the umpire's save");
    assert_eq!(
        whole.inputs.last().map(ToString::to_string).as_deref(),
        Some("FR: received")
    );
}

/// The umpire's figures, entered one at a time, are the umpire's until the rules use
/// them: halfway through a battle's form, no nation reads them (not in its state, its
/// report or its redacted save), while the umpire does.
#[test]
fn a_form_half_filled_in_keeps_the_umpire_s_figures_from_the_nations() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = orders_received(scratch.path());
    // The umpire's answers up to the battle's eighth figure: 30 French infantry.
    let all = std::fs::read_to_string(module_dir().join("tests/answers/umpire-turn-1.txt"))
        .expect("the answers");
    let start = all.find("\nbattle\n").expect("a battle") + 1;
    let half: String = all[start..].lines().take(9).collect::<Vec<_>>().join("\n");
    assert!(half.ends_with("set 30"), "{half}");
    let before: String = all[..start].to_owned();
    let answers = scratch.path().join("half.txt");
    std::fs::write(&answers, format!("{before}{half}\n")).expect("write");
    umpire_answers(&save, &answers);
    let umpire = run(&["state", path(&save), "--seat", "UM", "--json"]);
    assert!(umpire.contains("\"cv_attacker\": 40"), "{umpire}");
    for nation in ["FR", "GB", "AU"] {
        let state = run(&["state", path(&save), "--seat", nation, "--json"]);
        let report = run(&["report", path(&save), "--seat", nation, "--json"]);
        let redacted = scratch.path().join(format!("{nation}.ron"));
        run(&[
            "export",
            path(&save),
            "--seat",
            nation,
            "--out",
            path(&redacted),
        ]);
        let export = std::fs::read_to_string(&redacted).expect("the redacted save");
        for (what, text) in [("state", &state), ("report", &report), ("export", &export)] {
            assert!(
                !text.contains("cv_attacker") && !text.contains("attacker.infantry"),
                "{nation}'s {what} reads the umpire's figures: {text}"
            );
        }
    }
}

/// Random legal play of the campaign with the fixture, 80 seeds of 1,200 inputs each (or
/// to the end), with the module's check after every input: every figure a form offers is one
/// the rules take (random play found a conversion of more RP than the nation had, and a
/// force march of more than the army's movement again, each a module error).
#[test]
fn random_play_never_meets_a_module_error() {
    chancery_tests::random_play(
        &module_dir(),
        "tests/owner-fixture.ron",
        &["fall-1805"],
        &[],
        80,
        |session| session.history().len() >= 1_200,
    );
}

/// The README's turn by mail, command by command, for two turns: the umpire publishes the
/// turn, writes every report and France's and Austria's redacted saves; each of the two
/// players records his orders on his own save and writes the file he mails; the umpire checks
/// each on the player's save, applies it as that nation's, enters "none" for the others,
/// carries out steps 3 to 9, and the next turn begins the same way.
#[test]
fn the_readme_s_turn_by_mail_plays_two_turns() {
    let scratch = tempfile::tempdir().expect("scratch");
    let dir = scratch.path();
    let save = common::campaign_new(dir);
    let at = |name: &str| dir.join(name);
    let umpire_turn = module_dir().join("tests/answers/umpire-turn-1.txt");
    for turn in 1..=2 {
        run(&["act", path(&save), "--seat", "UM", "published"]);
        let reports = at(&format!("turn-{turn}"));
        run(&[
            "report",
            path(&save),
            "--all",
            "--note",
            "Official results",
            "--out",
            path(&reports),
        ]);
        let france = std::fs::read_to_string(reports.join("FR.md")).expect("France's report");
        assert!(
            france.contains("## Waiting for") && france.contains("Your choices:"),
            "{france}"
        );
        for text in ["```json", "State '", "--seat", "Counters: \n"] {
            assert!(
                !france.contains(text),
                "France's report holds '{text}':\n{france}"
            );
        }
        for (nation, orders) in [("FR", "received"), ("AU", "none")] {
            let mine = at(&format!("{nation}-{turn}.ron"));
            run(&[
                "export",
                path(&save),
                "--seat",
                nation,
                "--out",
                path(&mine),
            ]);
            run(&["act", path(&mine), orders]);
            let file = at(&format!("orders-{nation}-{turn}.txt"));
            run(&["orders", path(&mine), "--out", path(&file)]);
            // Checked on a fresh copy of the player's save (his own has them played).
            let fresh = at(&format!("{nation}-{turn}-fresh.ron"));
            run(&[
                "export",
                path(&save),
                "--seat",
                nation,
                "--out",
                path(&fresh),
            ]);
            run(&["act", path(&fresh), "--answers", path(&file), "--check"]);
            run(&[
                "act",
                path(&save),
                "--seat",
                nation,
                "--answers",
                path(&file),
            ]);
        }
        for nation in ["GB", "RU", "SP", "OT", "PR", "SW", "DK"] {
            run(&["act", path(&save), "--seat", nation, "none"]);
        }
        if turn == 1 {
            umpire_answers(&save, &umpire_turn);
        } else {
            // A quieter second turn: every step done, the event rolled.
            let quiet = at("umpire-2.txt");
            std::fs::write(&quiet, "done\ndone\ndone\ndone\ndone\nevent\ndone\ndone\n")
                .expect("write");
            umpire_answers(&save, &quiet);
        }
    }
    let (code, out, err) = chancery(&["state", path(&save), "--everything"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Spring 1806 (turn 3)"), "{out}");
}
