//! Every view is a seat's view: games with secret choices and private state played through
//! the command line (testbed, Napoleon: Aftermath against its bot) and the engine (Congress
//! of Vienna's wager), with every view a seat can get — `state --json --seat`, `state`
//! and `act` without a seat, `act --seat`, the log, errors — checked at every step against
//! what that seat may know: no other seat's hidden cards, private state or secret answer,
//! and no seed while anything is hidden. (The pass-the-screen view is checked in the app's
//! UI tests.)

use std::path::Path;

use chancery_core::save::SaveFile;
use chancery_core::session::Answer;
use chancery_core::view::state_json;
use chancery_core::{GameSpec, LoadOptions, OverlayChoice, SeatId, Table, Value};
use chancery_tests::{repo_root, test_module};
use common::{chancery, chancery_as_typed, path};

mod common;

/// Whether `text` holds `word` standing alone (not inside a longer id or word).
fn holds_word(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

/// What `seat` may not know of `table`: the cards it cannot see (in zones it may not look
/// into, or face down), other seats' private values, and other seats' pending answers.
fn secrets_from(table: &Table, seat: &SeatId) -> Vec<String> {
    let mut secrets: Vec<String> = table
        .zones
        .values()
        .flat_map(|z| z.cards.iter().filter(|c| !z.shows(c, Some(seat))))
        .map(ToString::to_string)
        .collect();
    for (other, value) in &table.private {
        if other != seat {
            // Each string value in another seat's private state (its keys name fields, and
            // numbers are too common to test).
            strings_in(&value.to_json(), &mut secrets);
        }
    }
    for frame in &table.flow {
        for (other, choice) in &frame.answers {
            if other != seat {
                secrets.push(choice.to_string());
            }
        }
    }
    secrets
}

/// The string values (not the keys) in `json`.
fn strings_in(json: &serde_json::Value, out: &mut Vec<String>) {
    match json {
        serde_json::Value::String(s) if s.len() > 2 => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| strings_in(v, out)),
        _ => {}
    }
}

/// Checks that no text `seat` can get shows one of its `secrets`, or the seed. The fixed
/// phrases the command line prints around a view are left out (ids such as "one" are words).
fn check_seen(seat: &SeatId, table: &Table, what: &str, text: &str) {
    // (And the decision's heading: the rules' text, the same to every seat.)
    let fixed = [
        "(Seen as",
        "Its choices show",
        "Answer as one seat",
        "Several seats choose at once",
    ];
    let heading = |l: &str| {
        l.split(": ")
            .next()
            .is_some_and(|who| who.ends_with(" decides") || who.contains(" decides,"))
    };
    let text: String = text
        .lines()
        .filter(|l| !fixed.iter().any(|f| l.trim_start().starts_with(f)) && !heading(l))
        .collect::<Vec<_>>()
        .join("\n");
    for secret in secrets_from(table, seat) {
        assert!(
            !holds_word(&text, &secret),
            "{what} shows seat {seat} '{secret}', which it may not know:\n{text}"
        );
    }
    if table.has_hidden_information() && table.result.is_none() {
        assert!(
            !text.contains(&format!("seed {}", table.seed))
                && !text.contains(&format!("\"seed\": {}", table.seed)),
            "{what} shows seat {seat} the seed:\n{text}"
        );
    }
}

/// Every view `seat` can get of the saved game: its state JSON, the game printed for it,
/// and (with `others`) what a spectator gets without naming a seat.
fn check_views(save: &Path, seat: &SeatId, spectator_too: bool) {
    let table = SaveFile::read(save).expect("a save").table;
    let (code, json, err) = chancery(&["state", path(save), "--json", "--seat", seat.as_str()]);
    assert_eq!(code, 0, "{err}");
    check_seen(seat, &table, "state --json --seat", &json);
    let (code, text, err) = chancery(&["state", path(save), "--seat", seat.as_str()]);
    assert_eq!(code, 0, "{err}");
    check_seen(seat, &table, "state --seat", &text);
    if spectator_too {
        // Without a seat: the one seat a person plays, or else a spectator, who may know
        // only what every seat may know.
        let humans: Vec<&SeatId> = table
            .seats
            .iter()
            .filter(|(_, c)| matches!(c, chancery_core::Controller::Human))
            .map(|(s, _)| s)
            .collect();
        let eyes: Vec<&SeatId> = match humans.as_slice() {
            [one] => vec![*one],
            _ => table.seats.keys().collect(),
        };
        for args in [
            vec!["state", path(save)],
            vec!["state", path(save), "--json"],
        ] {
            let (code, text, err) = chancery(&args);
            assert_eq!(code, 0, "{err}");
            for seat in &eyes {
                check_seen(seat, &table, "a view without --seat", &text);
            }
        }
    }
}

/// The testbed's council: Alpha wagers in secret, then Beta; every view of Beta's (and a
/// spectator's) before the reveal keeps Alpha's wager and favour from it, and an answer Beta
/// may not give is refused without naming Alpha's cards.
#[test]
fn the_testbed_council_keeps_each_wager_with_its_seat() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let module = test_module("testbed");
    let (code, _, err) = chancery(&["new", path(&module), "--seed", "4", "--out", path(&save)]);
    assert_eq!(code, 0, "{err}");
    let (a, b) = (SeatId::from("A"), SeatId::from("B"));
    check_views(&save, &a, true);
    check_views(&save, &b, true);
    let (code, out, err) = chancery(&["act", path(&save), "council"]);
    assert_eq!(code, 0, "{err}");
    let table = SaveFile::read(&save).expect("a save").table;
    for seat in [&a, &b] {
        check_seen(seat, &table, "act without --seat", &out);
    }
    let (code, out, err) = chancery(&["act", path(&save), "--seat", "A", "commit", "five"]);
    assert_eq!(code, 0, "{err}");
    let table = SaveFile::read(&save).expect("a save").table;
    check_seen(&a, &table, "act --seat A", &out);
    check_views(&save, &b, true);
    // Beta answers with a card of Alpha's: refused, naming only Beta's own choices.
    let (code, out, err) = chancery(&["act", path(&save), "--seat", "B", "commit", "four"]);
    assert_eq!(code, 1);
    // (What Beta typed is echoed; the choices it names are Beta's own.)
    let legal = err.split("legal:").nth(1).expect("the legal choices");
    assert!(out.is_empty());
    check_seen(&b, &table, "an error to Beta", legal);
    let (code, out, err) = chancery(&["act", path(&save), "--seat", "B", "commit", "three"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Alpha reveals Five"),
        "revealed together: {out}"
    );
}

/// Napoleon: Aftermath, the first player against the second player's bot: at every step,
/// nothing the first player can get shows the bot's hand, its Great Power or the seed. The
/// game plays the demo's Napoleon track (the save remembers it: no overlay is named after).
#[test]
fn aftermath_against_its_bot_shows_the_person_nothing_of_the_bot_s_hand_or_power() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let module = repo_root().join("modules/aftermath");
    let (code, out, err) = chancery_as_typed(&[
        "new",
        path(&module),
        "--demo",
        "--seat",
        "P2=bot",
        "--seed",
        "11",
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    let p1 = SeatId::from("P1");
    let table = SaveFile::read(&save).expect("a save").table;
    check_seen(&p1, &table, "new", &out);
    let mut steps = 0;
    while table_of(&save).result.is_none() && steps < 40 {
        check_views(&save, &p1, true);
        if steps % 4 == 0 {
            // The person's redacted save and report, as mailed, hold nothing of the bot's.
            let mailed = scratch.path().join(format!("p1-{steps}.ron"));
            let (code, _, err) = chancery_as_typed(&[
                "export",
                path(&save),
                "--seat",
                "P1",
                "--out",
                path(&mailed),
            ]);
            assert_eq!(code, 0, "{err}");
            let text = std::fs::read_to_string(&mailed).expect("the redacted save");
            check_seen(&p1, &table_of(&save), "export --seat P1", &text);
            let (code, report, err) = chancery_as_typed(&["report", path(&save), "--seat", "P1"]);
            assert_eq!(code, 0, "{err}");
            check_seen(&p1, &table_of(&save), "report --seat P1", &report);
        }
        let (code, out, err) = chancery_as_typed(&["act", path(&save), "--seat", "P1", "1"]);
        assert_eq!(code, 0, "{err}");
        check_seen(&p1, &table_of(&save), "act --seat P1", &out);
        steps += 1;
    }
    assert!(steps >= 10, "a real game was played ({steps} steps)");
}

fn table_of(save: &Path) -> Table {
    SaveFile::read(save).expect("a save").table
}

/// Congress of Vienna's wager in the Playbook's August 1813: while the powers wager one
/// after another, no power's view shows another's wager before they are revealed.
#[test]
fn congress_of_vienna_wagers_stay_secret_until_revealed() {
    let module_dir = repo_root().join("modules/cov");
    let load = LoadOptions {
        overlay: OverlayChoice::File(module_dir.join("tests/owner-fixture.ron")),
        strict: false,
    };
    let module =
        std::sync::Arc::new(chancery_core::load_module(&module_dir, &load).expect("loads"));
    let mut spec = GameSpec::new("clash-of-armies", 5);
    spec.dice = chancery_core::DiceMode::Physical;
    let mut session = chancery_core::start_game(module, spec).expect("starts");
    let answers = std::fs::read_to_string(module_dir.join("tests/answers/playbook-1813-08.txt"))
        .expect("the answers");
    let mut wagers_seen = 0;
    let first_turn = session.table().turn;
    for line in answers.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let answer = Answer::parse(line).expect("an answer");
        session.apply(answer.input()).expect(line);
        let table = session.table();
        // The answers of a secret choice (a reaction window's passes are public).
        let secret = matches!(session.prompt(), Ok(Some(p)) if p.is_secret());
        let pending = table
            .top_frame()
            .filter(|f| secret && !f.answers.is_empty());
        wagers_seen += usize::from(pending.is_some());
        for seat in table.seats.keys() {
            let view = state_json(table, &session.log(), Some(seat), &Value::Nil);
            let text = serde_json::to_string_pretty(&view).expect("json");
            if let Some(frame) = pending {
                for (other, choice) in frame.answers.iter().filter(|(s, _)| *s != seat) {
                    assert!(
                        !text.contains(&choice.to_string()),
                        "{seat} sees {other}'s '{choice}' after '{line}'"
                    );
                }
            }
            assert!(
                view["seed"].is_null(),
                "{seat} sees the seed after '{line}'"
            );
        }
        if table.turn > first_turn {
            break;
        }
    }
    assert!(
        wagers_seen >= 3,
        "the wagers were checked while pending ({wagers_seen})"
    );
}

/// Rules of one state over the testbed's data: `body` defines the Lua table `state`, which
/// the set-up pushes; every seat's bot takes the first action; `view` (Lua, or empty) is the
/// module's view hook.
fn one_state_rules(state: &str, body: &str, view: &str) -> String {
    format!(
        r#"local flowchart = include("@lib/flowchart.lua")
{body}
return {{
  setup = function(ctx) ctx:push("{state}") end,
  states = {{ {state} = {state} }},
{view}  bots = {{
    simple = function(ctx, seat, actions)
      return flowchart.trace():choose(1, "The first.")
    end,
  }},
}}
"#
    )
}

/// A game of the testbed's data under `rules`, started from the command line (basic
/// scenario, seed 5) and saved in a scratch folder.
fn testbed_game(rules: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (scratch, dir) = chancery_tests::with_rules(&test_module("testbed"), rules);
    (scratch, basic_game(&dir, "5"))
}

/// A new game of the basic scenario of the module in `dir`, from `seed`, saved in `dir`.
fn basic_game(dir: &Path, seed: &str) -> std::path::PathBuf {
    let save = dir.join("game.ron");
    let (code, _, err) = chancery(&[
        "new",
        path(dir),
        "--scenario",
        "basic",
        "--seed",
        seed,
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    save
}

/// The state JSON of a save, as `eyes` (`--seat S`, `--everything` or none) see it.
fn state_of(save: &Path, eyes: &[&str]) -> serde_json::Value {
    let (code, json, err) = chancery(&[&["state", path(save), "--json"], eyes].concat());
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&json).expect("JSON")
}

/// Rules that roll a die secretly for one seat, for two, and in public, and make the two
/// mistakes a secret roll can be made with.
const SECRET_ROLLS: &str = r#"
local lab = {}
function lab.prompt(ctx)
  local actions = {}
  for _, name in ipairs({ "ambush", "parley", "weather", "nobody", "empty" }) do
    actions[#actions + 1] = { name = name }
  end
  return { seat = "A", text = "Roll", actions = actions }
end
function lab.ambush(ctx)
  ctx:roll(6, "the ambush", "A")
end
function lab.parley(ctx)
  ctx:roll(20, "the parley", { "A", "B", "A" })
end
function lab.weather(ctx)
  ctx:roll(6, "the weather")
end
function lab.nobody(ctx)
  ctx:roll(6, "a ghost", "Z")
end
function lab.empty(ctx)
  ctx:roll(6, "a ghost", {})
end
"#;

/// A secret roll is logged only to the seats it is told to (and the omniscient view): in
/// the log every seat reads and in the state JSON of each; a public roll to everybody.
#[test]
fn a_secret_roll_is_told_only_to_its_seats() {
    let (_scratch, save) = testbed_game(&one_state_rules("lab", SECRET_ROLLS, ""));
    for action in ["ambush", "parley", "weather"] {
        let (code, _, err) = chancery(&["act", path(&save), "--seat", "A", action]);
        assert_eq!(code, 0, "{err}");
    }
    let lines = |eyes: &[&str]| -> Vec<String> {
        let (code, json, err) = chancery(&[&["state", path(&save), "--json"], eyes].concat());
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let mut lines = Vec::new();
        strings_in(&json["log"], &mut lines);
        // (The omniscient view marks a line for one seat: "[to A] Rolled …".)
        lines.retain(|l| l.contains("Rolled"));
        lines
    };
    let rolled = |lines: &[String], what: &str| lines.iter().any(|l| l.contains(what));
    let (alpha, beta, all) = (
        lines(&["--seat", "A"]),
        lines(&["--seat", "B"]),
        lines(&["--everything"]),
    );
    assert!(
        rolled(&alpha, "for the ambush:") && rolled(&alpha, "(secret: told to Alpha)"),
        "{alpha:?}"
    );
    assert!(
        !rolled(&beta, "ambush"),
        "Beta reads Alpha's secret roll: {beta:?}"
    );
    assert!(rolled(&all, "[to A] Rolled d6 for the ambush:"), "{all:?}");
    for seat in [&alpha, &beta] {
        assert!(
            rolled(seat, "for the parley:") && rolled(seat, "(secret: told to Alpha and Beta)"),
            "{seat:?}"
        );
        assert!(rolled(seat, "for the weather:"), "{seat:?}");
        // Named twice, Alpha is told once.
        assert_eq!(
            seat.iter().filter(|l| l.contains("parley")).count(),
            1,
            "{seat:?}"
        );
    }
    // Nor in the game as the command line prints it for Beta (the input itself, Alpha's
    // choice of action, stays public: private inputs are another matter).
    let (_, text, _) = chancery(&["state", path(&save), "--seat", "B"]);
    assert!(text.contains("for the parley"), "{text}");
    assert!(!text.contains("for the ambush"), "{text}");
    // Told to a seat the game does not have, or to nobody: the module's mistake, said.
    let (code, _, err) = chancery(&["act", path(&save), "--seat", "A", "nobody"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("ctx:roll: 'Z' is not a seat of this game"),
        "{err}"
    );
    let (code, _, err) = chancery(&["act", path(&save), "--seat", "A", "empty"]);
    assert_eq!(code, 1);
    assert!(err.contains("a seat or a list of seats"), "{err}");
}

/// Rules whose orders are private: Alpha's with the words the others read, Beta's with the
/// engine's; and a prompt whose `private` is neither.
const PRIVATE_ORDERS: &str = r#"
local orders = {}
function orders.prompt(ctx)
  local seat = ctx.vars.next or "A"
  if ctx.vars.broken then
    return { seat = seat, text = "Orders", private = 5, actions = { { name = "march", arg = "north" } } }
  end
  return {
    seat = seat,
    text = "Orders",
    private = seat == "A" and "Alpha sent sealed orders" or true,
    actions = {
      { name = "march", arg = "north", label = "March on the northern pass" },
      { name = "march", arg = "south", label = "March on the southern ford" },
      { name = "spoil", label = "Spoil the next prompt" },
    },
  }
end
function orders.march(ctx, where)
  local seat = ctx.vars.next or "A"
  ctx:tell(seat, "Your army marches " .. where .. ".")
  ctx.vars.next = seat == "A" and "B" or "A"
end
function orders.spoil(ctx)
  ctx.vars.broken = true
end
"#;

/// A private decision's answer is read only by its seat and the omniscient view; the other
/// seats read the module's words (or the engine's) in its place, in the log, the state
/// JSON and the game as printed.
#[test]
fn a_private_answer_is_read_only_by_its_seat() {
    let (_scratch, save) = testbed_game(&one_state_rules("orders", PRIVATE_ORDERS, ""));
    // The decision's choices show only to its seat.
    let (_, text, _) = chancery(&["state", path(&save), "--seat", "B"]);
    assert!(!text.contains("northern pass"), "{text}");
    // Nor does its question: the others read only that a decision is made in private.
    assert!(
        text.contains("Alpha (A, human) decides, in private: a decision made in private")
            && !text.contains("Orders"),
        "{text}"
    );
    let (code, _, err) = chancery(&["act", path(&save), "--seat", "A", "march", "south"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = chancery(&["act", path(&save), "--seat", "B", "march", "north"]);
    assert_eq!(code, 0, "{err}");
    let seen = |eyes: &[&str]| -> (String, String) {
        let (code, json, err) = chancery(&[&["state", path(&save), "--json"], eyes].concat());
        assert_eq!(code, 0, "{err}");
        let (code, text, err) = chancery(&[&["state", path(&save)], eyes].concat());
        assert_eq!(code, 0, "{err}");
        (json, text)
    };
    let (alpha_json, alpha_text) = seen(&["--seat", "A"]);
    let (beta_json, beta_text) = seen(&["--seat", "B"]);
    let (all_json, _) = seen(&["--everything"]);
    for (json, text) in [(&beta_json, &beta_text)] {
        for secret in ["southern ford", "marches south", "march south"] {
            assert!(
                !json.contains(secret) && !text.contains(secret),
                "Beta reads Alpha's orders ({secret}):\n{json}\n{text}"
            );
        }
        assert!(json.contains("A: Alpha sent sealed orders"), "{json}");
        assert!(
            text.contains("#1 Alpha: Alpha sent sealed orders"),
            "{text}"
        );
        assert!(json.contains("B: march north"), "its own orders: {json}");
        assert!(text.contains("northern pass"), "its own orders: {text}");
    }
    // (Alpha's own choices, on the table now, name both places: Beta's answer is the
    // secret.)
    for secret in [
        "B: march north",
        "Beta: March on the northern pass",
        "marches north",
    ] {
        assert!(
            !alpha_json.contains(secret) && !alpha_text.contains(secret),
            "Alpha reads Beta's orders ({secret}):\n{alpha_json}\n{alpha_text}"
        );
    }
    assert!(alpha_json.contains("B: a private answer"), "{alpha_json}");
    assert!(
        alpha_text.contains("southern ford"),
        "its own orders: {alpha_text}"
    );
    for shown in ["A: march south", "B: march north"] {
        assert!(all_json.contains(shown), "{all_json}");
    }
    // `private` that is neither true nor words: the module's mistake, said.
    let (code, _, err) = chancery(&["act", path(&save), "--seat", "A", "spoil"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "prompt private must be true or the words the other seats read, got a integer"
        ),
        "{err}"
    );
}

/// The testbed with an umpire: seat U, named the umpire of the basic scenario.
fn testbed_with_umpire(umpire: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (scratch, dir) = chancery_tests::copy_module(&test_module("testbed"));
    add_umpire(&dir, umpire);
    (scratch, dir)
}

/// Gives the testbed copy in `dir` a seat U, and names `umpire` the basic scenario's umpire.
fn add_umpire(dir: &Path, umpire: &str) {
    chancery_tests::edit(
        &dir.join("data/table.ron"),
        r#"Seat(id: "B", name: "Beta", bot: "simple"),"#,
        r#"Seat(id: "B", name: "Beta", bot: "simple"),
        Seat(id: "U", name: "Umpire"),"#,
    );
    chancery_tests::edit(
        &dir.join("data/scenarios.ron"),
        r#"phase: "play","#,
        &format!(r#"phase: "play", umpire: "{umpire}","#),
    );
}

/// An umpire sees what the omniscient view sees, in every view of the command line, and
/// answers for the seat that decides; the rules deal no hand to the umpire, who plays no
/// side; the umpire is a seat of the game and a person.
#[test]
fn an_umpire_sees_everything_and_answers_for_the_seat_that_decides() {
    let (_scratch, dir) = testbed_with_umpire("U");
    let save = basic_game(&dir, "3");
    let state = |eyes: &[&str]| state_of(&save, eyes);
    let umpire = state(&["--seat", "U"]);
    assert_eq!(umpire, state(&["--everything"]));
    // Two hands of two dealt from five cards: none to the umpire.
    assert_eq!(umpire["zones"]["deck"]["count"], 1, "{umpire}");
    for hand in ["hand.A", "hand.B"] {
        let cards = &umpire["zones"][hand]["cards"];
        assert!(
            cards
                .as_array()
                .is_some_and(|c| c.len() == 2 && !c.contains(&"?".into())),
            "{umpire}"
        );
    }
    assert_eq!(umpire["seed"], 3);
    let beta = state(&["--seat", "B"]);
    assert_eq!(
        beta["zones"]["hand.A"]["cards"],
        serde_json::json!(["?", "?"])
    );
    // Without a seat, the game with an umpire is the umpire's.
    assert_eq!(state(&[]), umpire);
    let (code, text, _) = chancery(&["state", path(&save), "--seat", "U"]);
    assert_eq!(code, 0);
    let alpha_card = umpire["zones"]["hand.A"]["cards"][0]
        .as_str()
        .expect("a card");
    assert!(text.contains("Alpha's hand (2):"), "{text}");
    assert!(
        !text.contains("Alpha's hand (2): 2 you cannot see"),
        "the umpire's hands hidden: {text}"
    );
    // The umpire answers Alpha's decision; the log has Alpha's answer.
    let (code, _, err) = chancery(&["act", path(&save), "--seat", "U", "play", alpha_card]);
    assert_eq!(code, 0, "{err}");
    let after = state(&["--seat", "U"]);
    let input = after["log"][1]["input"].as_str().expect("an input");
    assert_eq!(input, format!("A: play {alpha_card}"));
    // Said as the umpire's, in the log and the game printed.
    assert_eq!(after["log"][1]["by"], "umpire", "{after}");
    let (_, text, _) = chancery(&["state", path(&save), "--seat", "B"]);
    assert!(
        text.contains("#1 Alpha: play: ") && text.contains("(by the umpire)"),
        "{text}"
    );
}

#[test]
fn an_umpire_must_be_a_seat_of_the_scenario_and_a_person() {
    let (_scratch, dir) = testbed_with_umpire("Z");
    let (code, out, err) = chancery(&["check", path(&dir)]);
    assert_eq!(code, 1, "{out}");
    assert!(
        format!("{out}{err}").contains("scenarios.ron")
            && format!("{out}{err}").contains("the umpire 'Z' is not one of the scenario's seats"),
        "{out}{err}"
    );
    let (_scratch, dir) = testbed_with_umpire("U");
    let save = dir.join("game.ron");
    let (code, _, err) = chancery(&[
        "new",
        path(&dir),
        "--scenario",
        "basic",
        "--seat",
        "U=bot:simple",
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("seat 'U' is the umpire of scenario 'basic': a person plays it"),
        "{err}"
    );
}

/// Rules over a fogged testbed: Alpha may spot Beta's army, hide it again, or lift the fog
/// from the land; each seat's view says what its `ctx` reads of the land and the pool.
const FOG: &str = r#"
local lab = {}
function lab.prompt(ctx)
  local actions = {}
  for _, name in ipairs({ "spot", "hide", "lift", "wrong" }) do
    actions[#actions + 1] = { name = name }
  end
  return { seat = "A", text = "Scout", actions = actions }
end
function lab.spot(ctx) ctx:show_piece("block.B", "A") end
function lab.hide(ctx) ctx:hide_piece("block.B") end
function lab.lift(ctx) ctx:set_sight("place", "land", "public") end
function lab.wrong(ctx) ctx:set_sight("place", "land", "fog") end
"#;

/// Its view hook.
const FOG_VIEW: &str = r#"
  view = function(ctx, seat)
    local place, space = ctx:space_of("block.B")
    return {
      beta_at = space or "unseen",
      east = ctx:pieces_at("land", "east"),
      north = ctx:pieces_at("land", "north"),
      pool = ctx:box("pool"),
      pool_all = ctx:units("pool"),
    }
  end,
"#;

/// The testbed with fog of war: the land shows each seat its own armies (Beta's stands in
/// the east), the pool each seat its own kind of unit (Alpha's infantry).
fn fogged_testbed() -> (tempfile::TempDir, std::path::PathBuf) {
    let (scratch, dir) = chancery_tests::with_rules(
        &test_module("testbed"),
        &one_state_rules("lab", FOG, FOG_VIEW),
    );
    let table = dir.join("data/table.ron");
    chancery_tests::edit(
        &table,
        r#"links: [("north", "south"), ("south", "east")],"#,
        r#"links: [("north", "south"), ("south", "east")],
            sight: Owner,"#,
    );
    chancery_tests::edit(
        &table,
        r#"Piece(id: "block.A", name: "Alpha's army", kind: "block", owner: "A"),"#,
        r#"Piece(id: "block.A", name: "Alpha's army", kind: "block", owner: "A"),
        Piece(id: "block.B", name: "Beta's army", kind: "block", owner: "B"),"#,
    );
    chancery_tests::edit(
        &table,
        r#"UnitKind(id: "inf", name: "Infantry"),"#,
        r#"UnitKind(id: "inf", name: "Infantry", owner: "A"),"#,
    );
    chancery_tests::edit(
        &table,
        r#"Box(id: "pool", name: "Pool"),"#,
        r#"Box(id: "pool", name: "Pool", sight: Owner),"#,
    );
    chancery_tests::edit(
        &dir.join("data/scenarios.ron"),
        r#""land": {"block.A": "north"}"#,
        r#""land": {"block.A": "north", "block.B": "east"}"#,
    );
    (scratch, dir)
}

/// Under fog of war each seat sees only what it may of the land and the pool, in the state
/// JSON, its module view (what its `ctx` reads), the command line's text and the digest its
/// bot draws from; the umpire's eyes see all; the rules can show a piece, hide it again and
/// lift the fog; a sight naming no seat of the module is refused with its place.
#[test]
fn fog_of_war_hides_the_pieces_and_units_a_seat_may_not_see() {
    let (_scratch, dir) = fogged_testbed();
    let save = basic_game(&dir, "5");
    let json = |eyes: &[&str]| state_of(&save, eyes);
    let (alpha, beta, all) = (
        json(&["--seat", "A"]),
        json(&["--seat", "B"]),
        json(&["--everything"]),
    );
    assert_eq!(
        alpha["tracks"]["land"],
        serde_json::json!({"block.A": "north"})
    );
    assert_eq!(
        beta["tracks"]["land"],
        serde_json::json!({"block.B": "east"})
    );
    assert_eq!(
        all["tracks"]["land"],
        serde_json::json!({"block.A": "north", "block.B": "east"})
    );
    assert_eq!(alpha["boxes"]["pool"], serde_json::json!({"inf": 3}));
    assert_eq!(beta["boxes"]["pool"], serde_json::json!({}));
    assert_eq!(
        all["boxes"]["pool"],
        serde_json::json!({"inf": 3, "cav": 1})
    );
    // The score track has no fog: both markers show to both.
    assert_eq!(beta["tracks"]["score"], all["tracks"]["score"]);
    assert_eq!(beta["fog"]["places"]["land"], "each seat sees its own");
    // What each seat's ctx reads, in its view.
    assert_eq!(alpha["view"]["beta_at"], "unseen");
    assert_eq!(alpha["view"]["east"], serde_json::json!([]));
    assert_eq!(beta["view"]["north"], serde_json::json!([]));
    assert_eq!(beta["view"]["beta_at"], "east");
    assert_eq!(alpha["view"]["pool_all"], 3);
    assert_eq!(beta["view"]["pool_all"], 0);
    assert_eq!(
        beta["view"]["pool"],
        serde_json::json!([]),
        "an empty table"
    );
    // The seed, from which nothing hidden may be worked out, shows to no seat.
    assert!(alpha["seed"].is_null(), "{}", alpha["seed"]);
    // The command line's text for Beta.
    let (_, text, _) = chancery(&["state", path(&save), "--seat", "B"]);
    assert!(text.contains("Beta's army at East"), "{text}");
    assert!(!text.contains("Alpha's army"), "{text}");
    assert!(!text.contains("Infantry"), "{text}");
    assert!(
        text.contains("The land (fog of war: each seat sees its own)"),
        "{text}"
    );
    // What a bot of Beta's draws from does not change with what Beta may not see.
    let table = table_of(&save);
    let mut moved = table.clone();
    moved
        .place_piece(&"block.A".into(), &"land".into(), &"south".into())
        .expect("a space of the land");
    let beta_seat = SeatId::from("B");
    assert_eq!(
        table.digest_seen_by(&beta_seat),
        moved.digest_seen_by(&beta_seat)
    );
    assert_ne!(
        table.digest_seen_by(&SeatId::from("A")),
        moved.digest_seen_by(&SeatId::from("A"))
    );

    // Spotted, Beta's army shows to Alpha, wherever it stands, until hidden again.
    let act = |action: &str| {
        let (code, _, err) = chancery(&["act", path(&save), "--seat", "A", action]);
        (code, err)
    };
    assert_eq!(act("spot").0, 0);
    let alpha = json(&["--seat", "A"]);
    assert_eq!(alpha["tracks"]["land"]["block.B"], "east");
    assert_eq!(alpha["view"]["beta_at"], "east");
    assert_eq!(act("hide").0, 0);
    assert_eq!(json(&["--seat", "A"])["view"]["beta_at"], "unseen");
    let (code, err) = act("wrong");
    assert_eq!(code, 1);
    assert!(
        err.contains("\"public\", \"owner\", \"umpire\" or a list of seats"),
        "{err}"
    );
    assert_eq!(act("lift").0, 0);
    let alpha = json(&["--seat", "A"]);
    assert_eq!(alpha["tracks"]["land"], all["tracks"]["land"]);
    assert!(
        alpha["fog"]["places"].get("land").is_none(),
        "{}",
        alpha["fog"]
    );

    // A sight naming a seat the module has not: refused where it is written.
    let (_scratch2, broken) = fogged_testbed();
    chancery_tests::edit(
        &broken.join("data/table.ron"),
        "sight: Owner,",
        r#"sight: Seats(["A", "Q"]),"#,
    );
    let (code, _, err) = chancery(&["check", path(&broken)]);
    assert_ne!(code, 0);
    assert!(
        err.contains("table.ron:") && err.contains("place 'land': unknown seat 'Q' in its sight"),
        "{err}"
    );
}

/// A turn of a game run by mail: Alpha's orders are private and shown to nobody (its army
/// marches under fog, an ambush is rolled for it alone, its plan is its private state);
/// Beta's orders are private with words; then a battle every seat reads of.
const MAIL_TURN: &str = r#"
local orders = {}
function orders.prompt(ctx)
  local seat = ctx.vars.next or "A"
  local actions = {
    { name = "march", arg = "south", label = "March on the southern ford" },
    { name = "march", arg = "east", label = "March on the eastern marsh" },
  }
  if seat == "B" then
    actions = { { name = "battle", label = "Give battle at the crossroads" } }
  end
  return { seat = seat, text = "Orders", private = seat == "A" and "" or "Beta sent its orders", actions = actions }
end
function orders.march(ctx, where)
  ctx:place("block.A", "land", where)
  ctx:roll(6, "the ambush at the " .. where, "A")
  ctx.private.A = { plan = "flank-xyzzy" }
  ctx:tell("A", "Your army reaches the " .. where .. " unseen.")
  ctx.vars.next = "B"
end
function orders.battle(ctx)
  ctx:log("Battle at the crossroads: each side loses 2 battalions.")
  ctx.vars.next = "A"
  ctx:set_turn(ctx:turn() + 1)
end
"#;

/// Its view hook.
const MAIL_TURN_VIEW: &str = r#"
  view = function(ctx, seat)
    local _, at = ctx:space_of("block.A")
    -- A seat's own plan is in its view (a report shows the view, the module's words for
    -- what the seat knows, in place of its raw private state).
    local own = seat and ctx.private[seat] or {}
    return { alpha_army = at or "unseen", plan = own.plan }
  end,
"#;

/// The fogged testbed with an umpire (seat U) and the rules of a turn run by mail.
fn mail_game() -> (tempfile::TempDir, std::path::PathBuf) {
    let (scratch, dir) = fogged_testbed();
    std::fs::write(
        dir.join("rules/main.lua"),
        one_state_rules("orders", MAIL_TURN, MAIL_TURN_VIEW),
    )
    .expect("write the rules");
    add_umpire(&dir, "U");
    let save = basic_game(&dir, "5");
    (scratch, save)
}

/// What only Alpha (or the umpire) may know after the mail turn: its march, its secret
/// roll, its private plan, where its army stands, and its hand.
fn alpha_only(save: &Path) -> Vec<String> {
    let table = SaveFile::read(save).expect("a save").table;
    let mut secrets = vec![
        "southern ford".to_owned(),
        "ambush".to_owned(),
        "flank-xyzzy".to_owned(),
        "unseen.".to_owned(),
        "\"block.A\"".to_owned(),
        "Alpha's army at".to_owned(),
    ];
    secrets.extend(
        table.zones["hand.A"]
            .cards
            .iter()
            .map(|c| format!("\"{c}\"")),
    );
    secrets
}

/// A turn by mail from the command line: each seat's orders (Alpha's checked first on its
/// redacted save), then every seat's report and redacted save. Beta's report and save tell
/// the battle and nothing of Alpha's march, roll, plan, army or hand, searched for each;
/// the umpire's save holds all of it; a redacted save is read only as its seat, answers
/// only as its seat, and never as the umpire.
#[test]
fn a_turn_by_mail_tells_each_seat_only_its_own() {
    let (_scratch, save) = mail_game();
    let dir = save.parent().expect("a folder").to_path_buf();
    orders_checked_then_applied(&save, &dir);
    // Every seat's report of turn 1, and the public post, in one command.
    let reports = dir.join("turn-1");
    let (code, text, err) = chancery(&[
        "report",
        path(&save),
        "--all",
        "--turn",
        "1",
        "--out",
        path(&reports),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("public.md for every seat"), "{text}");
    let read = |name: &str| std::fs::read_to_string(reports.join(name)).expect(name);
    let (alpha, beta, public, umpire) =
        (read("A.md"), read("B.md"), read("public.md"), read("U.md"));
    let beta_save = dir.join("beta.ron");
    let (code, _, err) = chancery(&[
        "export",
        path(&save),
        "--seat",
        "B",
        "--out",
        path(&beta_save),
    ]);
    assert_eq!(code, 0, "{err}");
    let beta_file = std::fs::read_to_string(&beta_save).expect("Beta's save");
    let (code, beta_json, err) = chancery(&[
        "report",
        path(&save),
        "--seat",
        "B",
        "--turn",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let battle = "Battle at the crossroads: each side loses 2 battalions.";
    for (what, text) in [
        ("Beta's report", &beta),
        ("the public post", &public),
        ("Beta's save", &beta_file),
        ("Beta's JSON report", &beta_json),
    ] {
        assert!(text.contains(battle), "{what} tells the battle:\n{text}");
        for secret in alpha_only(&save) {
            assert!(
                !text.contains(&secret),
                "{what} shows '{secret}', Alpha's alone:\n{text}"
            );
        }
    }
    // Alpha's orders were private with no words: Beta does not read that they were given,
    // and its log is numbered in its own sequence, so no gap counts them.
    assert!(
        beta.contains("#1 Beta: Give battle") && !beta.contains("#2"),
        "{beta}"
    );
    assert!(
        alpha.contains("March on the southern ford") && alpha.contains("flank-xyzzy"),
        "{alpha}"
    );
    assert!(alpha.contains("for the ambush at the south"), "{alpha}");
    // Beta's orders were private with words: the others read the words, Beta its orders.
    assert!(beta.contains("Give battle at the crossroads"), "{beta}");
    for text in [&alpha, &public] {
        assert!(
            text.contains("Beta sent its orders") && !text.contains("Give battle"),
            "{text}"
        );
    }
    for secret in [
        "southern ford",
        "flank-xyzzy",
        "ambush",
        "Give battle at the crossroads",
    ] {
        assert!(
            umpire.contains(secret),
            "the umpire's report holds '{secret}':\n{umpire}"
        );
    }
    let whole = std::fs::read_to_string(&save).expect("the umpire's save");
    assert!(
        whole.contains("flank-xyzzy") && whole.contains("\"block.A\""),
        "the umpire's save"
    );

    a_redacted_save_is_its_seat_s_alone(&save, &beta_save, &reports);
}

/// Alpha's turn-1 orders checked on its own save (a wrong one refused at its line, nothing
/// saved), then the umpire applies Alpha's and Beta's orders to the game.
fn orders_checked_then_applied(save: &Path, dir: &Path) {
    let alpha_save = dir.join("alpha.ron");
    let (code, text, err) = chancery(&[
        "export",
        path(save),
        "--seat",
        "A",
        "--out",
        path(&alpha_save),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("This save is Alpha's view of the game"),
        "{text}"
    );
    // Alpha checks its orders on its own save, then the umpire applies them.
    let orders = dir.join("alpha-orders.txt");
    std::fs::write(&orders, "# Alpha, turn 1\nmarch south\n").expect("orders");
    let (code, text, err) = chancery(&[
        "act",
        path(&alpha_save),
        "--answers",
        path(&orders),
        "--check",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("All 1 answer(s) are taken"), "{text}");
    let wrong = dir.join("wrong-orders.txt");
    std::fs::write(&wrong, "march west\n").expect("orders");
    let (code, _, err) = chancery(&[
        "act",
        path(&alpha_save),
        "--answers",
        path(&wrong),
        "--check",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("wrong-orders.txt:1:") && err.contains("is not a legal action"),
        "{err}"
    );
    let before = std::fs::read(&alpha_save).expect("the save");
    assert_eq!(
        std::fs::read(&alpha_save).expect("the save"),
        before,
        "--check saves nothing"
    );
    for (seat, answers) in [("A", &orders), ("B", &dir.join("beta-orders.txt"))] {
        if seat == "B" {
            std::fs::write(answers, "battle\n").expect("orders");
        }
        let (code, _, err) =
            chancery(&["act", path(save), "--seat", "U", "--answers", path(answers)]);
        assert_eq!(code, 0, "{err}");
        let _ = seat;
    }
}

/// A redacted save is its seat's alone: no other seat's eyes, no umpire's, no answers; and
/// the reports of a turn already written are not written over.
fn a_redacted_save_is_its_seat_s_alone(save: &Path, beta_save: &Path, reports: &Path) {
    let dir = save.parent().expect("a folder");
    let (code, _, err) = chancery(&["state", path(beta_save), "--everything"]);
    assert_eq!(code, 1);
    assert!(err.contains("it holds only what B may see"), "{err}");
    let (code, _, err) = chancery(&["state", path(beta_save), "--seat", "A"]);
    assert_eq!(code, 1, "{err}");
    let (code, text, err) = chancery(&["state", path(beta_save)]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("(Seen as Beta"), "{text}");
    let (code, _, err) = chancery(&[
        "report",
        path(beta_save),
        "--all",
        "--out",
        path(&dir.join("x")),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("redacted view"), "{err}");
    let (code, _, err) = chancery(&[
        "export",
        path(save),
        "--seat",
        "U",
        "--out",
        path(&dir.join("u.ron")),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("is the umpire, who sees everything"), "{err}");
    // Nothing is written over: the reports are there already.
    let (code, _, err) = chancery(&["report", path(save), "--all", "--out", path(reports)]);
    assert_eq!(code, 1);
    assert!(err.contains("already exists"), "{err}");
}

/// The campaign's turn 1 by mail, played to its end with every form (a battle, a raid, a
/// replacement general, the event), moves by hand under fog of war and secret trade rolls,
/// the umpire's answers applied from `answers` (edited by `edit`); returns the umpire's save.
fn campaign_turn(dir: &Path, edit: &dyn Fn(String) -> String) -> std::path::PathBuf {
    let module = chancery_tests::repo_root().join("modules/campaign");
    let save = common::campaign_orders_received(dir);
    let ok = |args: &[&str]| {
        let (code, out, err) = common::chancery_as_typed(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    };
    let answers = std::fs::read_to_string(module.join("tests/answers/umpire-turn-1.txt"))
        .expect("the umpire's answers");
    let answers_file = dir.join("umpire.txt");
    std::fs::write(&answers_file, edit(answers)).expect("write");
    ok(&[
        "act",
        path(&save),
        "--seat",
        "UM",
        "--answers",
        path(&answers_file),
    ]);
    save
}

/// Everything `seat` can get of the umpire's `save` from the command line: its report of
/// turn 1 (Markdown and JSON), its redacted save (the fresh dice a redacted save is given
/// left out), the state as it sees it (printed and JSON), and the orders written from it.
fn everything_seen_by(save: &Path, seat: &str) -> Vec<(String, String)> {
    let dir = save.parent().expect("a folder");
    let out = |args: &[&str]| {
        let (code, out, err) = common::chancery_as_typed(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        out
    };
    let mine = dir.join(format!("{seat}.ron"));
    let _ = std::fs::remove_file(&mine);
    let exported = out(&["export", path(save), "--seat", seat, "--out", path(&mine)]);
    // The redacted save opens under the module without the umpire's overlay, and says
    // nothing of files that differ; it names no folder of the umpire's disk.
    let (code, opened, err) = common::chancery_as_typed(&["state", path(&mine)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !err.contains("differ") && !opened.contains("differ"),
        "{err}{opened}"
    );
    let module_dir = chancery_tests::repo_root().join("modules/campaign");
    let text = std::fs::read_to_string(&mine).expect("the redacted save");
    assert!(
        !text.contains(path(&module_dir)) && !text.contains("owner-fixture"),
        "{text}"
    );
    let export: String = std::fs::read_to_string(&mine)
        .expect("the redacted save")
        .lines()
        .filter(|l| !l.trim_start().starts_with("state: ("))
        .collect::<Vec<_>>()
        .join("\n");
    vec![
        ("export's message".to_owned(), exported),
        (
            "report".to_owned(),
            out(&["report", path(save), "--seat", seat, "--turn", "1"]),
        ),
        (
            "report --json".to_owned(),
            out(&[
                "report",
                path(save),
                "--seat",
                seat,
                "--turn",
                "1",
                "--json",
            ]),
        ),
        ("export".to_owned(), export),
        (
            "state --json".to_owned(),
            out(&["state", path(save), "--json", "--seat", seat]),
        ),
        (
            "state".to_owned(),
            out(&["state", path(save), "--seat", seat]),
        ),
        ("orders".to_owned(), out(&["orders", path(&mine)])),
    ]
}

/// Two campaigns by mail that differ only in what is Austria's, France's and the umpire's
/// alone — where Austria's general marched under fog of war, and in how many moves (so the
/// games differ in how many inputs they have), and the figures of Britain's raid on a French
/// province (a private form, told to France) — give Russia and Britain exactly the same
/// report, JSON report, redacted save, state and orders, byte for byte: no count, number,
/// prompt or seed tells them that anything differs (Britain, the raider, is told nothing of
/// the loss). Austria's and France's own reports differ, as they should.
#[test]
fn campaign_seats_learn_nothing_from_what_they_may_not_know() {
    let (one, two) = (
        tempfile::tempdir().expect("scratch"),
        tempfile::tempdir().expect("scratch"),
    );
    let as_played = campaign_turn(one.path(), &|a| a);
    let otherwise = campaign_turn(two.path(), &|a| {
        a.replace(
            "by hand: place gen.AU.1 map salzburg",
            "by hand: place gen.AU.1 map budapest\nby hand: place gen.AU.1 map krakow",
        )
        .replace(
            "raid\nset GB\nset FR\nset 5\nset 2\nset true",
            "raid\nset GB\nset FR\nset 8\nset 2\nset false",
        )
    });
    for seat in ["RU", "GB"] {
        let (a, b) = (
            everything_seen_by(&as_played, seat),
            everything_seen_by(&otherwise, seat),
        );
        for ((what, seen), (_, other)) in a.iter().zip(&b) {
            let (seen, other) = (
                seen.replace(path(one.path()), "DIR"),
                other.replace(path(two.path()), "DIR"),
            );
            assert_eq!(seen, other, "{seat}'s {what} differs between the two games");
        }
    }
    // Each seat's report numbers its entries 1, 2, 3… with no gap (a gap would count what
    // it may not read).
    for seat in ["FR", "RU", "AU", "GB"] {
        let report = &everything_seen_by(&otherwise, seat)[1].1;
        let numbers: Vec<usize> = report
            .lines()
            .filter_map(|l| l.split("\\#").nth(1))
            .filter_map(|rest| rest.split(' ').next()?.parse().ok())
            .collect();
        assert!(!numbers.is_empty(), "{report}");
        assert_eq!(
            numbers,
            (1..=numbers.len()).collect::<Vec<_>>(),
            "{seat}'s report:\n{report}"
        );
    }
    let report = |save: &Path, seat: &str| everything_seen_by(save, seat)[1].1.clone();
    assert_ne!(
        report(&as_played, "AU"),
        report(&otherwise, "AU"),
        "Austria's own report tells its march"
    );
    assert_ne!(
        report(&as_played, "FR"),
        report(&otherwise, "FR"),
        "France's own report tells the raid's loss"
    );
}

/// A game with nothing hidden shows every seat its seed, until a roll is told to one seat
/// only: from then on no seat is shown the seed (with it, `new --seed` would deal the same
/// game and rebuild the secret roll), in the state, its JSON and the game as printed.
#[test]
fn a_secret_roll_hides_the_seed() {
    let rules = r#"
local lab = {}
function lab.prompt(ctx)
  return { seat = "A", text = "Roll", actions = { { name = "ambush" } } }
end
function lab.ambush(ctx)
  ctx:roll(6, "the ambush", "A")
end
return {
  setup = function(ctx)
    for _, zone in ipairs({ "deck", "aside", "hand.A", "hand.B" }) do
      for _, card in ipairs(ctx:zone(zone)) do
        ctx:move_card(card, "discard", "top")
        ctx:flip(card, true)
      end
    end
    ctx:push("lab")
  end,
  states = { lab = lab },
  bots = { simple = function() return 1, "the first" end },
}
"#;
    let (_scratch, save) = testbed_game(rules);
    let seed = SaveFile::read(&save).expect("a save").seed;
    let shows_seed = |seat: &str| {
        let (_, text, _) = chancery(&["state", path(&save), "--seat", seat]);
        let (_, json, _) = chancery(&["state", path(&save), "--seat", seat, "--json"]);
        text.contains(&format!("seed {seed}")) || json.contains(&format!("\"seed\": {seed}"))
    };
    assert!(shows_seed("B"), "nothing is hidden: the seed shows");
    let (code, _, err) = chancery(&["act", path(&save), "ambush"]);
    assert_eq!(code, 0, "{err}");
    for seat in ["A", "B"] {
        assert!(
            !shows_seed(seat),
            "{seat} is shown the seed after a secret roll"
        );
    }
}

/// The testbed's scout scenario lies under fog of war: Alpha's march is its own, a private
/// input whose line is told to Alpha alone. Beta reads that Alpha moved, never where to, in
/// its state, its JSON and its report.
#[test]
fn a_march_under_fog_of_war_is_alpha_s_alone() {
    let testbed = test_module("testbed");
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("scout.ron");
    let (code, _, err) = chancery(&[
        "new",
        path(&testbed),
        "--scenario",
        "scout",
        "--seed",
        "1",
        "--out",
        path(&save),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, text, err) = chancery(&["state", path(&save), "--seat", "A"]);
    assert_eq!(code, 0, "{err}");
    let space = ["north", "south", "east", "west"]
        .into_iter()
        .find(|s| {
            text.contains(&format!("[act: march {s}]")) || text.contains(&format!("march {s}"))
        })
        .expect("a march Alpha may make");
    let (code, _, err) = chancery(&["act", path(&save), "--seat", "A", "march", space]);
    assert_eq!(code, 0, "{err}");
    let (_, alpha, _) = chancery(&["state", path(&save), "--seat", "A"]);
    assert!(alpha.contains("Alpha's army marches to"), "{alpha}");
    for args in [
        vec!["state", path(&save), "--seat", "B"],
        vec!["state", path(&save), "--seat", "B", "--json"],
        vec!["report", path(&save), "--seat", "B", "--turn", "1"],
        vec![
            "report",
            path(&save),
            "--seat",
            "B",
            "--turn",
            "1",
            "--json",
        ],
    ] {
        let (code, text, err) = chancery(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            !text.contains("marches") && !text.contains(&format!("march {space}")),
            "{args:?} tells Beta where Alpha marched:\n{text}"
        );
    }
}
