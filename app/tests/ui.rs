//! The app driven headlessly with egui_kittest, through its widgets as a user would: start a
//! scenario from the launcher, move units by hand and undo, answer the rules' prompt (with a
//! physical die and a value read off the game), hot-seat hands, and hot reload.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chancery::gui::{ChanceryApp, GameOptions, GameView, Launcher};
use chancery_core::{BoxId, GameSpec, LoadOptions, OverlayChoice, UnitKindId};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A copy of the testbed module in a scratch folder (edited by the reload tests), and an
/// overlay file next to it.
struct Scratch {
    _dir: tempfile::TempDir,
    module: PathBuf,
    overlay: PathBuf,
    /// The autosave folder.
    autosave: PathBuf,
}

fn scratch() -> Scratch {
    let dir = tempfile::tempdir().expect("scratch dir");
    let module = dir.path().join("testbed");
    copy_dir(&repo().join("tests/modules/testbed"), &module);
    Scratch {
        overlay: dir.path().join("overlay.ron"),
        autosave: dir.path().join("autosave"),
        module,
        _dir: dir,
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

fn options(s: &Scratch, watch: bool) -> (LoadOptions, GameOptions) {
    let load = LoadOptions {
        overlay: OverlayChoice::File(s.overlay.clone()),
        strict: false,
    };
    let game = GameOptions {
        watch,
        autosave_dir: Some(s.autosave.clone()),
        load_options: load.clone(),
    };
    (load, game)
}

/// The app on the testbed's `basic` scenario with both seats human, seen with open hands
/// unless `hot_seat`.
fn app(s: &Scratch, watch: bool, hot_seat: bool) -> ChanceryApp {
    let (load, game) = options(s, watch);
    let module = Arc::new(chancery_core::load_module(&s.module, &load).expect("testbed loads"));
    let session = chancery_core::start_game(module, GameSpec::new("basic", 7)).expect("starts");
    let mut view = GameView::new(session, game);
    view.set_open_hands(!hot_seat);
    ChanceryApp::new(view, Launcher::new(&s.module, load))
}

/// Replaces the first `from` in a file of the scratch module (which must hold it).
fn edit_module(s: &Scratch, file: &str, from: &str, to: &str) {
    let path = s.module.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{file} holds {from}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

fn harness(app: ChanceryApp) -> Harness<'static, ChanceryApp> {
    Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_max_steps(32)
        .build_ui_state(|ui, app: &mut ChanceryApp| app.ui_in(ui), app)
}

fn units(h: &Harness<'_, ChanceryApp>, boxed: &str, kind: &str) -> i64 {
    let table = h.state().session().table();
    table
        .boxes
        .get(&BoxId::from(boxed))
        .and_then(|b| b.get(&UnitKindId::from(kind)))
        .copied()
        .unwrap_or(0)
}

/// Steps the window until `done` holds or `limit` has passed (a failure naming `what`).
fn step_until(
    h: &mut Harness<'_, ChanceryApp>,
    what: &str,
    limit: Duration,
    done: impl Fn(&ChanceryApp) -> bool,
) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
}

/// Runs frames until `done` holds (hot reload arrives from another thread).
fn run_until(h: &mut Harness<'_, ChanceryApp>, what: &str, done: impl Fn(&ChanceryApp) -> bool) {
    step_until(h, what, Duration::from_secs(20), done);
    h.step();
}

/// Steps the window until the Balance panel's games end (they run on their own thread).
fn wait_for_balance(h: &mut Harness<'_, ChanceryApp>, what: &str) {
    step_until(h, what, Duration::from_secs(240), |app| {
        !app.balance.running()
    });
    h.run();
}

/// Drags with the mouse from `from` to `to`, in small steps as a hand would.
fn drag(h: &mut Harness<'_, ChanceryApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for step in 1..=6 {
        h.hover_at(from + (to - from) * (step as f32 / 6.0));
        h.run();
    }
    h.drop_at(to);
    h.run();
}

/// Types `text` into the text field labelled `label`.
fn type_into(h: &mut Harness<'_, ChanceryApp>, label: &str, text: &str) {
    h.get_by_role_and_label(egui::Role::TextInput, label)
        .focus();
    h.run();
    h.get_by_role_and_label(egui::Role::TextInput, label)
        .type_text(text);
    h.run();
}

#[test]
fn a_scenario_is_started_from_the_launcher() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    h.get_by_label("New / Open…").click();
    h.run();
    // The launcher offers the module's scenarios; pick "Mystery" and start it.
    h.get_by_label("Scenario").click();
    h.run();
    h.get_by_label("Mystery").click();
    h.run();
    h.get_by_label("Start").click();
    h.run();
    let table = h.state().session().table();
    assert_eq!(table.scenario.as_str(), "mystery");
    assert_eq!(
        table.counters[&chancery_core::CounterId::from("vp.B")].value,
        2,
        "the scenario's set-up"
    );
    assert!(
        h.query_by_label("New game or open a save").is_none(),
        "the launcher closes"
    );
    let autosave = h.state().view.autosave_path().expect("autosaved");
    assert!(
        autosave.starts_with(&s.autosave) && autosave.is_file(),
        "the new game is autosaved at once, in a file of its own"
    );
}

#[test]
fn units_are_moved_by_hand_and_the_move_is_undone() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    assert_eq!(
        (units(&h, "pool", "inf"), units(&h, "army.A", "inf")),
        (3, 0)
    );
    // Click the infantry in the pool, then "Move 1 here" on Alpha's army.
    h.get_by_label("Infantry × 3").click();
    h.run();
    h.get_by_label("Move 1 here").click();
    h.run();
    assert_eq!(
        (units(&h, "pool", "inf"), units(&h, "army.A", "inf")),
        (2, 1),
        "one unit moved"
    );
    assert_eq!(
        h.state().session().history().len(),
        1,
        "the move is recorded"
    );
    let autosave = h.state().view.autosave_path().expect("autosaved");
    let saved = std::fs::read_to_string(autosave).expect("autosaved after the move");
    assert!(
        saved.contains("MoveUnits"),
        "the autosave holds the move: {saved}"
    );

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(
        (units(&h, "pool", "inf"), units(&h, "army.A", "inf")),
        (3, 0),
        "Ctrl+Z undoes it"
    );
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run();
    assert_eq!(units(&h, "army.A", "inf"), 1, "Ctrl+Shift+Z redoes it");
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(units(&h, "army.A", "inf"), 0, "the Undo button too");
}

#[test]
fn a_counter_and_a_piece_are_changed_by_hand() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    h.get_by_label("Alpha's VP plus 1").click();
    h.run();
    assert_eq!(
        h.state().session().table().counters[&chancery_core::CounterId::from("vp.A")].value,
        1
    );
    // Pick Alpha's marker up and put it on the second space of the score track.
    h.get_by_label("Alpha's marker").click();
    h.run();
    h.get_all_by_label("Put here")
        .nth(1)
        .expect("a second space")
        .click();
    h.run();
    let score = &h.state().session().table().places[&chancery_core::PlaceId::from("score")];
    assert_eq!(
        score[&chancery_core::PieceId::from("marker.A")].as_str(),
        "1"
    );
    // The log says the moves by hand with names, not ids.
    let log = h.state().session().log();
    let module = h.state().session().module().clone();
    let headings: Vec<String> = log[1..].iter().map(|e| e.heading(&module)).collect();
    assert!(
        headings[0].ends_with("set Alpha's VP to 1")
            && headings[1].contains("put Alpha's marker on 1"),
        "{headings:?}"
    );
}

#[test]
fn the_prompt_is_answered_with_a_physical_die_and_a_value_read_off_the_game() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    assert!(
        h.query_by_label_contains("Alpha decides").is_some(),
        "the prompt names who decides"
    );
    h.get_by_label_contains("Options").click();
    h.run();
    h.get_by_label("Physical dice").click();
    h.run();
    h.get_by_label("Roll for troops").click();
    h.run();
    assert!(
        h.query_by_label("Roll a 6-sided die").is_some(),
        "the rules ask for the die"
    );
    h.get_by_role_and_label(egui::Role::Button, "6").click();
    h.run();
    // A 6 needs the recruit table's 6 row, which is not entered: the app asks for it.
    assert!(h.query_by_label("A value is not entered yet").is_some());
    type_into(&mut h, "Value read off the game:", "2");
    h.get_by_label("Store and go on").click();
    h.run();
    assert_eq!(
        units(&h, "army.A", "inf"),
        3,
        "one recruit plus the bonus of 2 entered"
    );
    let overlay = std::fs::read_to_string(&s.overlay).expect("the overlay was written");
    assert!(
        overlay.contains("recruit_bonus") && overlay.contains("\"6\": 2"),
        "{overlay}"
    );
    assert!(
        h.query_by_label_contains("Beta decides").is_some(),
        "the turn passed"
    );
}

#[test]
fn a_range_action_takes_a_number() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    h.get_by_label("bid (0–3)").click();
    h.run();
    let log = h.state().session().log();
    assert!(
        log.iter().any(|e| e.input.contains("bid 0")),
        "the default of the range is sent: {log:?}"
    );
}

#[test]
fn hot_seat_hides_the_next_hand_until_it_is_claimed() {
    let s = scratch();
    let mut h = harness(app(&s, false, true));
    h.run();
    assert!(
        h.query_by_label("Pass the screen to Alpha").is_some(),
        "two people: the first is asked to take the screen"
    );
    h.get_by_label("I am Alpha: show my hand").click();
    h.run();
    assert!(
        h.query_by_label("your hand").is_some(),
        "Alpha sees their hand"
    );
    h.get_by_label("Pass").click();
    h.run();
    assert!(h.query_by_label("Pass the screen to Beta").is_some());
    assert!(
        h.query_by_label("your hand").is_none(),
        "no hand is shown while the screen is passed"
    );
}

/// A secret choice at one screen: each person wagers in turn, the screen passed between
/// them, and nobody sees what the other chose until both have.
#[test]
fn hot_seat_wagers_are_made_in_turn_and_stay_secret() {
    let s = scratch();
    let mut h = harness(app(&s, false, true));
    h.run();
    h.get_by_label("I am Alpha: show my hand").click();
    h.run();
    h.get_by_label("Call a council").click();
    h.run();
    assert!(
        h.query_by_label("Alpha and Beta choose at once, in secret")
            .is_some(),
        "both seats are asked"
    );
    assert!(h.query_by_label("Choices of Alpha:").is_some());
    h.get_by_label("commit: Four").click();
    h.run();
    assert!(
        h.query_by_label("Pass the screen to Beta").is_some(),
        "the screen goes to the other person"
    );
    // While the screen is passed, nothing shows that only Alpha may know: not the wager in
    // the log, not Alpha's hand in the standings, not the seed.
    let table = h.state().session().table().clone();
    let alphas: Vec<String> = table.zones[&chancery_core::ZoneId::from("hand.A")]
        .cards
        .iter()
        .map(|c| c.to_string())
        .collect();
    for secret in ["commit four", "four", "Four"]
        .into_iter()
        .map(str::to_owned)
        .chain(alphas)
    {
        assert!(
            h.query_by_label_contains(&secret).is_none(),
            "the pass-the-screen view shows '{secret}'"
        );
    }
    assert!(
        h.query_by_label_contains("Alpha: a secret answer")
            .is_some()
    );
    assert!(
        h.query_by_label_contains(&format!("seed {}", table.seed))
            .is_none()
    );
    h.get_by_label("I am Beta: show my hand").click();
    h.run();
    assert!(h.query_by_label("Choices of Beta:").is_some());
    assert!(
        h.query_by_label_contains("Alpha: a secret answer")
            .is_some(),
        "Beta sees that Alpha has chosen (by name)"
    );
    assert!(
        h.query_by_label_contains("commit four").is_none(),
        "Beta does not see what Alpha chose"
    );
    assert!(h.query_by_label("commit: Four").is_none());
    h.get_by_label("commit: One").click();
    h.run();
    assert!(
        h.query_by_label_contains("Alpha reveals Four.").is_some(),
        "both wagers are revealed once both are in"
    );
    assert_eq!(
        h.state()
            .session()
            .table()
            .top_frame()
            .map(|f| f.state.as_str()),
        Some("objection")
    );
}

/// The objection after a hot-seat wager: one screen asks everybody, and nobody objecting
/// costs one click, no screen passed.
#[test]
fn an_objection_window_nobody_answers_costs_one_screen() {
    let s = scratch();
    let mut h = harness(app(&s, false, true));
    h.run();
    for label in [
        "I am Alpha: show my hand",
        "Call a council",
        "commit: Four",
        "I am Beta: show my hand",
        "commit: One",
    ] {
        h.get_by_label(label).click();
        h.run();
    }
    let frame = |h: &Harness<'_, ChanceryApp>| {
        h.state()
            .session()
            .table()
            .top_frame()
            .map(|f| (f.state.clone(), f.id))
    };
    let objection = frame(&h);
    assert_eq!(objection.as_ref().map(|f| f.0.as_str()), Some("objection"));
    assert!(
        h.query_by_label_contains("Pass the screen to").is_none(),
        "the window asks nobody to take the screen"
    );
    assert!(h.query_by_label("Alpha").is_some() && h.query_by_label("Beta").is_some());
    let before = h.state().session().history().len();
    h.get_by_label("Nobody answers: everybody passes").click();
    h.run();
    assert_eq!(
        h.state().session().history().len(),
        before + 2,
        "both seats passed in one click"
    );
    assert_ne!(frame(&h), objection, "the window is closed");
    assert!(h.query_by_label_contains("Nobody objects.").is_some());
}

/// Lützen & Bautzen's Allies played by one person: Russia and Britain decide in turn with
/// no screen passed between them, each seeing what that seat may see.
#[test]
fn one_person_playing_two_seats_never_passes_the_screen_to_themselves() {
    let s = scratch();
    let mut h = harness(app(&s, false, true));
    h.state_mut().view.set_one_person(true);
    h.run();
    assert!(h.query_by_label_contains("Pass the screen to").is_none());
    assert_eq!(
        h.state().view.eyes(),
        Some("A".into()),
        "the table as Alpha sees it"
    );
    h.get_by_label("Pass").click();
    h.run();
    assert!(
        h.query_by_label_contains("Pass the screen to").is_none(),
        "Beta's turn comes without passing the screen"
    );
    assert_eq!(
        h.state().view.eyes(),
        Some("B".into()),
        "now as Beta sees it"
    );
    let module = h.state().session().module().clone();
    for card in &h.state().session().table().zones["hand.A"].cards {
        let name = &module.cards.get(card.as_str()).expect("card").name;
        assert!(
            h.query_by_label(name).is_none(),
            "Alpha's {name} is not shown to Beta"
        );
    }
    assert!(
        h.state().session().table().zones["hand.B"]
            .cards
            .iter()
            .all(|c| h
                .query_all_by_label(&module.cards.get(c.as_str()).expect("card").name)
                .next()
                .is_some()),
        "Beta's own hand is"
    );
}

#[test]
fn a_bot_step_shows_its_reasons() {
    let s = scratch();
    let (load, game) = options(&s, false);
    let module = Arc::new(chancery_core::load_module(&s.module, &load).expect("loads"));
    let mut spec = GameSpec::new("basic", 7);
    spec.seats
        .insert("A".into(), chancery_core::Controller::Bot("simple".into()));
    let session = chancery_core::start_game(module, spec).expect("starts");
    let mut h = harness(ChanceryApp::new(
        GameView::new(session, game),
        Launcher::new(&s.module, load),
    ));
    h.run();
    h.get_by_label("Bot: next step").click();
    h.run();
    assert_eq!(
        h.state().session().history().len(),
        1,
        "the bot took one step"
    );
    let words = h.state().session().history().records()[0]
        .label
        .clone()
        .expect("the action's label is kept");
    assert!(
        h.query_by_label(&format!("Alpha's bot chose: {words}"))
            .is_some(),
        "its choice is shown in words: {words}"
    );
    let reason = h
        .state()
        .view
        .last_bot()
        .and_then(|last| last.pick.reason.first().cloned())
        .expect("a reason");
    let shown = h.query_all_by_label_contains(&reason).count();
    assert_eq!(
        shown, 2,
        "its reason is shown in the decision panel and in the log: {reason}"
    );
}

#[test]
fn an_idle_watched_window_draws_nothing_until_a_saved_edit_wakes_it() {
    let s = scratch();
    let mut h = harness(app(&s, true, false));
    h.run();
    h.step();
    assert!(
        !h.ctx.has_requested_repaint(),
        "an idle window watching its module asks for no frame: {:?}",
        h.ctx.repaint_causes()
    );
    let cards = s.module.join("data/cards.ron");
    let text = std::fs::read_to_string(&cards).expect("cards");
    std::fs::write(&cards, text.replacen("name: \"", "name: \"Edited ", 1)).expect("edit");
    // No frame is drawn meanwhile: the watcher's thread wakes the window.
    let start = Instant::now();
    while !h.ctx.has_requested_repaint() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the saved edit never woke the window"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    h.step();
    let (ok, report) = h
        .state()
        .view
        .reload_report()
        .cloned()
        .expect("a reload report");
    assert!(ok, "{report}");
    assert!(
        report.contains("ms after the file was saved"),
        "the report says how long the edit took to reach the screen: {report}"
    );
}

#[test]
fn a_changed_module_is_reloaded_and_a_broken_one_keeps_the_game() {
    let s = scratch();
    let mut h = harness(app(&s, true, false));
    h.run();
    h.get_by_label("Pass").click();
    h.run();
    // A playtester renames a card in their editor and saves.
    let cards = s.module.join("data/cards.ron");
    let text = std::fs::read_to_string(&cards).expect("cards");
    let first_name = text
        .split("name: \"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .expect("a card name")
        .to_owned();
    std::fs::write(
        &cards,
        text.replacen(&format!("name: \"{first_name}\""), "name: \"Renamed\"", 1),
    )
    .expect("edit");
    run_until(&mut h, "the reload", |app| {
        app.view.reload_report().is_some()
    });
    let (ok, report) = h.state().view.reload_report().cloned().expect("a report");
    assert!(ok, "{report}");
    assert!(
        report.contains("Renamed") || report.contains("card"),
        "the report says what changed: {report}"
    );
    assert!(h.query_by_label("Module reloaded").is_some());
    assert_eq!(
        h.state().session().history().len(),
        1,
        "the game was replayed under the new version"
    );

    // A broken edit: the diagnostics name the file and line; the game goes on.
    let rules = s.module.join("rules/turn.lua");
    let lua = std::fs::read_to_string(&rules).expect("rules");
    std::fs::write(
        &rules,
        lua.replacen("local actions = {}", "local actions = {", 1),
    )
    .expect("break");
    run_until(&mut h, "the failed reload", |app| {
        app.view.reload_report().is_some_and(|(ok, _)| !ok)
    });
    let (_, report) = h.state().view.reload_report().cloned().expect("a report");
    assert!(
        report.contains("rules/turn.lua:"),
        "file:line:col in {report}"
    );
    assert!(h.query_by_label("Module not reloaded").is_some());

    // The playtester puts the file back exactly as it was: the error clears.
    std::fs::write(&rules, &lua).expect("revert");
    run_until(&mut h, "the reload of the reverted file", |app| {
        app.view.reload_report().is_some_and(|(ok, _)| *ok)
    });
    let (_, report) = h.state().view.reload_report().cloned().expect("a report");
    assert!(report.contains("loads again"), "{report}");
    assert!(h.query_by_label("Module not reloaded").is_none());

    h.get_by_label("Pass").click();
    h.run();
    assert!(
        h.state().session().is_over(),
        "the last good version still plays"
    );
}

#[test]
fn the_reload_report_says_a_value_edit_in_game_words_and_goes_to_the_input() {
    let s = scratch();
    let mut h = harness(app(&s, true, false));
    h.run();
    // Alpha plays the first card of its hand; Beta passes.
    let card = h.state().session().table().zones["hand.A"].cards[0].to_string();
    let choice = chancery_core::Choice {
        name: "play".into(),
        arg: chancery_core::Value::from(card.as_str()),
    };
    h.state_mut().view.answer(Some("A".into()), choice);
    h.run();
    h.get_by_label("Pass").click();
    h.run();
    assert_eq!(h.state().session().history().len(), 2);
    // The playtester changes the card's value to 9 and saves.
    let cards = s.module.join("data/cards.ron");
    let text = std::fs::read_to_string(&cards).expect("cards");
    let name = card[..1].to_uppercase() + &card[1..];
    let line = text
        .lines()
        .find(|l| l.contains(&format!("id: \"{card}\"")))
        .expect("the card's line")
        .to_owned();
    let old: i64 = line
        .split("\"value\": ")
        .nth(1)
        .and_then(|v| v.split(',').next())
        .and_then(|v| v.trim().parse().ok())
        .expect("its value");
    let edited = line.replace(&format!("\"value\": {old},"), "\"value\": 9,");
    std::fs::write(&cards, text.replace(&line, &edited)).expect("edit");
    run_until(&mut h, "the reload", |app| {
        app.view
            .reload_report()
            .is_some_and(|(_, r)| r.contains("first differs"))
    });
    let (ok, report) = h.state().view.reload_report().cloned().expect("a report");
    assert!(ok, "{report}");
    assert!(
        report.contains(&format!("{name} (card): value {old} → 9")),
        "the edit is said with the card's name: {report}"
    );
    assert!(
        report.contains("The game first differs at input 1 (Alpha: "),
        "the input is said as the log says it: {report}"
    );
    assert!(
        report.contains(&format!(
            "the log now says: Alpha plays {name} (card 1 of Alpha's hand) for [{old} → 9] VP."
        )),
        "the effect is said in the log's own words: {report}"
    );
    assert!(
        report.contains(&format!("Alpha's VP: {old} → 9")),
        "and on the table: {report}"
    );
    // The report goes to the input; it can be read in a window of its own.
    h.get_by_label("Go to input 1").click();
    h.run();
    assert_eq!(
        h.state().session().history().len(),
        1,
        "the table is shown just after the input"
    );
    h.get_by_label("Open in a window").click();
    h.run();
    assert!(
        h.query_by_label("Reload report").is_some(),
        "a window of its own"
    );
    assert!(h.query_by_label("Back to the foot").is_some());
}

#[test]
fn redo_all_brings_back_150_undone_inputs_in_one_click() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    for _ in 0..150 {
        let seat = h.state().view.my_ask().and_then(|a| a.seat);
        let bid = chancery_core::Choice {
            name: "bid".into(),
            arg: chancery_core::Value::Int(0),
        };
        h.state_mut().view.answer(seat, bid);
    }
    h.run();
    assert_eq!(h.state().session().history().len(), 150);
    let before = h.state().session().table().clone();
    h.state_mut().view.goto(0);
    h.run();
    assert_eq!(h.state().session().history().len(), 0, "back to the start");
    assert!(
        h.query_by_label("#150 Beta (undone)").is_some()
            || h.query_by_label("#150 Alpha (undone)").is_some(),
        "the undone inputs are listed in the log"
    );
    h.get_by_label("Redo all").click();
    h.run();
    assert_eq!(
        h.state().session().history().len(),
        150,
        "one click redoes them all"
    );
    assert_eq!(
        h.state().session().table(),
        &before,
        "the game is as it was"
    );
    assert_eq!(h.state().view.status(), Some("Redone 150 input(s)."));
    // A click on an undone input (the log shows its end) redoes up to it.
    h.state_mut().view.goto(140);
    h.run();
    h.get_by_label("#145 Alpha (undone)").click_accesskit();
    h.run();
    assert_eq!(h.state().session().history().len(), 145);
}

#[test]
fn the_card_editor_stores_a_value_in_the_overlay() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    let unknown_before: usize = h
        .state()
        .session()
        .module()
        .unknown_report()
        .iter()
        .map(|(_, f)| f.len())
        .sum();
    assert!(unknown_before > 0, "the testbed has an unknown card field");
    h.get_by_label_contains("Card data").click();
    h.run();
    h.get_by_label("Mystery (1 not entered)").click();
    h.run();
    type_into(&mut h, "value", "4");
    h.get_all_by_label("Store")
        .next()
        .expect("a Store button for the value")
        .click();
    h.run();
    let unknown_after: usize = h
        .state()
        .session()
        .module()
        .unknown_report()
        .iter()
        .map(|(_, f)| f.len())
        .sum();
    assert_eq!(unknown_after, unknown_before - 1, "the value is now known");
    assert!(
        std::fs::read_to_string(&s.overlay)
            .expect("overlay")
            .contains('4')
    );
}

#[test]
fn units_are_dragged_from_one_box_to_another() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    let from = h.get_by_label("Infantry × 3").rect().center();
    // The "+" of Alpha's army box lies inside that box's drop zone (the pool's comes first).
    let to = h
        .get_all_by_label("+")
        .nth(1)
        .expect("Alpha's army box")
        .rect()
        .center();
    drag(&mut h, from, to);
    assert_eq!(
        (units(&h, "pool", "inf"), units(&h, "army.A", "inf")),
        (2, 1),
        "one unit dragged across"
    );
    assert_eq!(
        h.state().session().history().len(),
        1,
        "the drag is one recorded move"
    );
}

#[test]
fn a_piece_picked_up_by_a_click_can_still_be_dragged() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    // Click Alpha's marker (it is now picked up), then drag it onto space 3 instead.
    h.get_by_label("Alpha's marker").click();
    h.run();
    let from = h.get_by_label("Alpha's marker").rect().center();
    let to = h
        .get_all_by_label("Put here")
        .nth(3)
        .expect("space 3")
        .rect()
        .center();
    drag(&mut h, from, to);
    let score = &h.state().session().table().places[&chancery_core::PlaceId::from("score")];
    assert_eq!(
        score[&chancery_core::PieceId::from("marker.A")].as_str(),
        "3"
    );
    assert!(
        h.state().view.panels().selected.is_none(),
        "nothing stays picked up"
    );
}

/// The app on the testbed with Alpha played by the `simple` bot, bots moving without pause.
fn against_a_bot(s: &Scratch) -> Harness<'static, ChanceryApp> {
    against_a_bot_at(s, false)
}

/// As `against_a_bot`, with the physical-board option as given (set before the first
/// frame, where the bot may already move).
fn against_a_bot_at(s: &Scratch, physical_board: bool) -> Harness<'static, ChanceryApp> {
    let (load, game) = options(s, false);
    let module = Arc::new(chancery_core::load_module(&s.module, &load).expect("loads"));
    let mut spec = GameSpec::new("basic", 7);
    spec.seats
        .insert("A".into(), chancery_core::Controller::Bot("simple".into()));
    let session = chancery_core::start_game(module, spec).expect("starts");
    let mut view = GameView::new(session, game);
    assert!(view.panels().autoplay, "bots play on by default");
    view.panels_mut().autoplay_ms = 0;
    view.set_physical_board(physical_board);
    harness(ChanceryApp::new(view, Launcher::new(&s.module, load)))
}

#[test]
fn bots_play_their_turns_by_themselves_by_default() {
    let s = scratch();
    let mut h = against_a_bot(&s);
    run_until(&mut h, "the bot's move", |app| {
        app.session().history().len() == 1
    });
    assert!(
        h.query_by_label("Pause bots").is_some(),
        "the pause is in sight"
    );
    h.get_by_label("Pass").click();
    run_until(&mut h, "the bot's reply", |app| {
        app.session().history().len() == 3
    });
}

#[test]
fn the_physical_board_box_turns_the_board_checklists_on_and_off() {
    let s = scratch();
    let mut h = against_a_bot(&s);
    run_until(&mut h, "the bot's move", |app| {
        app.session().history().len() == 1
    });
    assert!(!h.state().view.physical_board());
    h.get_by_label_contains("Options").click();
    h.run();
    h.get_by_label("Physical board").click();
    h.run();
    assert!(h.state().view.physical_board(), "the box turns it on");
    h.get_by_label("Pass").click();
    run_until(&mut h, "a list of changes for the board", |app| {
        !app.view.checklists().is_empty()
    });
    h.get_by_label_contains("Options").click();
    h.run();
    h.get_by_label("Physical board").click();
    h.run();
    assert!(!h.state().view.physical_board(), "and off again");
    assert!(
        h.state().view.checklists().is_empty(),
        "a game off the board keeps no lists"
    );
    run_until(&mut h, "the bot's reply, waiting for no list", |app| {
        app.session().history().len() == 3
    });
}

#[test]
fn undo_takes_back_the_person_s_last_decision_and_the_bot_s_reply() {
    let s = scratch();
    let mut h = against_a_bot(&s);
    run_until(&mut h, "the bot's move", |app| {
        app.session().history().len() == 1
    });
    h.get_by_label("Pass").click();
    run_until(&mut h, "the bot's reply", |app| {
        app.session().history().len() == 3
    });
    h.get_by_label("Undo").click();
    h.run();
    for _ in 0..10 {
        h.run();
    }
    assert_eq!(
        h.state().session().history().len(),
        1,
        "back to just before the person passed; the bot does not replay its move"
    );
    assert!(
        h.query_by_label("Pass").is_some(),
        "the person decides again"
    );
}

#[test]
fn the_end_screen_names_the_winner_and_the_final_scores() {
    let s = scratch();
    let (load, game) = options(&s, false);
    let module = Arc::new(chancery_core::load_module(&s.module, &load).expect("loads"));
    // In the mystery scenario Beta starts with 2 points: two passes end the game.
    let session = chancery_core::start_game(module, GameSpec::new("mystery", 7)).expect("starts");
    let mut view = GameView::new(session, game);
    view.set_open_hands(true);
    let mut h = harness(ChanceryApp::new(view, Launcher::new(&s.module, load)));
    h.run();
    h.get_by_label("Pass").click();
    h.run();
    h.get_by_label("Pass").click();
    h.run();
    assert!(h.state().session().is_over());
    assert!(
        h.query_by_label("Beta wins.").is_some(),
        "the winner by name"
    );
    assert!(h.query_by_label("Final score 0 to 2.").is_some());
    assert!(h.query_by_label("Final scores").is_some());
    assert!(
        h.query_by_label("Standings").is_some() && h.query_by_label("Passes").is_some(),
        "the rules' view of the game is shown as standings"
    );
    assert!(
        h.query_all_by_label("Beta").count() >= 1 && h.query_by_label("B wins.").is_none(),
        "names, not seat ids"
    );
    let last_line = h
        .state()
        .session()
        .log()
        .last()
        .and_then(|e| e.messages.last().map(|m| m.text.clone()))
        .expect("a log line");
    assert_eq!(last_line, "Game over (won by Beta). Final score 0 to 2.");
}

#[test]
fn the_module_s_rules_open_from_the_top_bar() {
    let s = scratch();
    std::fs::write(
        s.module.join("rules.md"),
        "# How to play\n\nEach turn, play a card or pass.\n\n- Two passes end the game.\n\n| Phase | What happens |\n|---|---|\n| Play | A card or a pass |\n",
    )
    .expect("write");
    let mut h = harness(app(&s, false, false));
    h.run();
    h.get_by_label("Rules").click();
    h.run();
    assert!(h.query_by_label("How to play").is_some());
    assert!(
        h.query_by_label("Each turn, play a card or pass.")
            .is_some()
    );
    assert!(h.query_by_label("•  Two passes end the game.").is_some());
    // A table is drawn as a grid of its cells, not as its Markdown.
    assert!(h.query_by_label("What happens").is_some());
    assert!(h.query_by_label("A card or a pass").is_some());
    assert!(h.query_by_label_contains("|---|").is_none());
}

#[test]
fn the_log_names_seats_and_answers_in_words() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    h.get_by_label("Pass").click();
    h.run();
    let log = h.state().session().log();
    let heading = log[1].heading(h.state().session().module());
    assert_eq!(
        heading, "#1 Alpha: Pass",
        "the seat's name and the action's label"
    );
    assert!(h.query_by_label("#1 Alpha: Pass").is_some());
}

#[test]
fn the_symbols_card_games_use_have_glyphs() {
    let ctx = egui::Context::default();
    ctx.set_fonts(chancery::gui::fonts());
    let mut output = ctx.run_ui(Default::default(), |_| {});
    output.textures_delta.clear();
    for symbol in "♦♠♥♣→←↑↓★☆⚀⚅✓✗".chars() {
        let drawn = ctx.fonts_mut(|f| f.has_glyph(&egui::FontId::proportional(14.0), symbol));
        assert!(drawn, "{symbol} has a glyph");
    }
}

/// A game of module `name` (a folder of `modules/`) with the overlay `overlay`, on
/// `scenario` (its default if `None`) at `seed`, every hand open, autosaving into `dir`.
fn open_module(
    dir: &Path,
    name: &str,
    overlay: OverlayChoice,
    scenario: Option<&str>,
    seed: u64,
) -> Harness<'static, ChanceryApp> {
    let module_dir = repo().join("modules").join(name);
    let load = LoadOptions {
        overlay,
        strict: false,
    };
    let module = Arc::new(chancery_core::load_module(&module_dir, &load).expect("loads"));
    let scenario = match scenario {
        Some(id) => id.to_owned(),
        None => module.default_scenario().expect("a default").id.to_string(),
    };
    let session = chancery_core::start_game(module, GameSpec::new(scenario.as_str(), seed))
        .expect("the scenario starts");
    let game = GameOptions {
        watch: false,
        autosave_dir: Some(dir.join("autosave")),
        load_options: load.clone(),
    };
    let mut view = GameView::new(session, game);
    view.set_open_hands(true);
    let mut h = harness(ChanceryApp::new(view, Launcher::new(&module_dir, load)));
    h.run();
    h
}

/// Congress of Vienna's Clash of Armies under the test fixture of owner data, at seed 7.
fn clash_of_armies(dir: &Path) -> Harness<'static, ChanceryApp> {
    let fixture = repo().join("modules/cov/tests/owner-fixture.ron");
    open_module(
        dir,
        "cov",
        OverlayChoice::File(fixture),
        Some("clash-of-armies"),
        7,
    )
}

/// The label of the first action the rules list for the seat that decides now.
fn first_choice(h: &Harness<'_, ChanceryApp>) -> Option<String> {
    let prompt = h.state().session().prompt().clone().ok().flatten()?;
    let ask = prompt
        .asks
        .iter()
        .find(|a| a.seat.as_ref().is_none_or(|s| !prompt.answered.contains(s)))?;
    ask.actions.first().map(|a| a.label.clone())
}

/// Congress of Vienna's Clash of Armies, with the test fixture of owner data: four people at
/// one screen (open hands) play its first turn, from the Initial Situation card to the
/// Victory Point Summary, clicking for every decision a button the Decision panel offers
/// (the first one the rules list for the seat that decides).
#[test]
fn four_people_click_through_a_whole_turn_of_congress_of_vienna() {
    let dir = tempfile::tempdir().expect("scratch dir");
    let mut h = clash_of_armies(dir.path());
    let mut phases = Vec::new();
    for click in 0.. {
        let (state, phase) = {
            let session = h.state().session();
            let prompt = session
                .prompt()
                .as_ref()
                .expect("the rules go on")
                .clone()
                .expect("the game is not over");
            (prompt.state.clone(), session.table().phase.clone())
        };
        let label = first_choice(&h).expect("a seat decides");
        if phases.last() != Some(&phase) {
            phases.push(phase.clone());
        }
        if state == "vp_summary" {
            break;
        }
        assert!(click < 2000, "the turn did not end; waiting in {state}");
        let inputs = h.state().session().history().records().len();
        h.query_all_by_role_and_label(egui::Role::Button, &label)
            .next()
            .unwrap_or_else(|| panic!("no button '{label}' in state {state}"))
            .click();
        h.run();
        assert_eq!(
            h.state().session().history().records().len(),
            inputs + 1,
            "clicking '{label}' in state {state} answered the decision"
        );
    }
    assert_eq!(
        phases,
        [
            "Initial Phase",
            "Diplomacy Phase",
            "Government Phase",
            "War Phase",
            "End of Turn"
        ],
        "every phase of the turn was played"
    );
    h.get_by_role_and_label(egui::Role::Button, "The Victory Point Summary is complete")
        .click();
    h.run();
    assert_eq!(h.state().session().table().turn, 6, "the next turn begins");
}

#[test]
fn a_bot_s_step_that_rolls_a_physical_die_waits_for_the_die() {
    // Congress of Vienna against the French bot of section 21, with physical dice: the
    // bot's choice to play a card from France's display rolls the fate die, which the person
    // at the table rolls; the window asks for it as it does for a person's step, and the
    // bot's step then goes on with the die given.
    let dir = tempfile::tempdir().expect("scratch dir");
    let mut h =
        coalition_against_the_french_bot(dir.path(), chancery_core::DiceMode::Physical, false);
    h.run();
    for step in 0.. {
        assert!(step < 600, "no bot step asked for a die");

        if h.query_by_label("Roll a 6-sided die").is_some() {
            let by_bot = h.state().view.pending().is_some_and(|p| {
                matches!(
                    &p.input,
                    Some(chancery_core::Input::Act {
                        by: chancery_core::Actor::Bot { .. },
                        ..
                    })
                )
            });
            let inputs = h.state().session().history().records().len();
            h.get_by_role_and_label(egui::Role::Button, "3").click();
            h.run();
            if by_bot {
                let records = h.state().session().history().records();
                assert!(records.len() > inputs, "the bot's step went on");
                assert!(
                    matches!(
                        &records[inputs].input,
                        chancery_core::Input::Act {
                            by: chancery_core::Actor::Bot { .. },
                            dice,
                            ..
                        } if dice.first() == Some(&3)
                    ),
                    "the bot's input carries the die"
                );
                return;
            }
            continue;
        }
        click_the_coalition_s_first_choice(&mut h);
    }
}

/// The Clash of Armies with a person playing the Coalition against the French bot of
/// section 21, on the fixture's placeholder owner data, with the dice and the physical
/// board as given.
fn coalition_against_the_french_bot(
    dir: &std::path::Path,
    dice: chancery_core::DiceMode,
    physical_board: bool,
) -> Harness<'static, ChanceryApp> {
    let module_dir = repo().join("modules/cov");
    let load = LoadOptions {
        overlay: OverlayChoice::File(module_dir.join("tests/owner-fixture.ron")),
        strict: false,
    };
    let module = Arc::new(chancery_core::load_module(&module_dir, &load).expect("cov loads"));
    let mut spec = GameSpec::new("clash-of-armies", 7);
    spec.options = chancery_core::Value::Map(
        [(
            "seating".to_owned(),
            chancery_core::Value::Str("solo-vs-french-bot".to_owned()),
        )]
        .into(),
    );
    spec.seats.insert(
        "FR".into(),
        chancery_core::Controller::Bot("french_bot".into()),
    );
    spec.dice = dice;
    let session = chancery_core::start_game(module, spec).expect("the scenario starts");
    let game = GameOptions {
        watch: false,
        autosave_dir: Some(dir.join("autosave")),
        load_options: load.clone(),
    };
    let mut view = GameView::new(session, game);
    view.set_open_hands(true);
    view.set_physical_board(physical_board);
    view.panels_mut().autoplay_ms = 0;
    harness(ChanceryApp::new(view, Launcher::new(&module_dir, load)))
}

/// Clicks the first choice of the Coalition's seat that has yet to answer (France is the
/// bot's), if one decides now; then lets the window run.
fn click_the_coalition_s_first_choice(h: &mut Harness<'static, ChanceryApp>) {
    let label = {
        let session = h.state().session();
        let prompt = session
            .prompt()
            .as_ref()
            .expect("the rules go on")
            .clone()
            .expect("the game is not over");
        prompt
            .asks
            .iter()
            .filter(|a| a.seat.as_ref().is_none_or(|s| !prompt.answered.contains(s)))
            .find(|a| a.seat.as_ref().is_none_or(|s| s.as_str() != "FR"))
            .map(|ask| ask.actions[0].label.clone())
    };
    if let Some(label) = label {
        h.query_all_by_role_and_label(egui::Role::Button, &label)
            .next()
            .unwrap_or_else(|| panic!("no button '{label}'"))
            .click();
    }
    h.run();
}

/// The last input's bot and reasons, if a bot made it.
fn last_bot_step(app: &ChanceryApp) -> Option<(String, Vec<String>)> {
    match &app.session().history().records().last()?.input {
        chancery_core::Input::Act {
            by: chancery_core::Actor::Bot { name, reason },
            ..
        } => Some((name.clone(), reason.clone())),
        _ => None,
    }
}

#[test]
fn the_coalition_against_the_french_bot_sees_its_reasons_ticks_the_board_and_undoes() {
    // The person clicks the Coalition's first choice each time, until a step of the French
    // bot changes the board: its reasons, which name the chart's steps, are in the window;
    // the checklist of that step is ticked box by box; then Undo goes back to before the
    // bot's step (the person's last decision with it), the reverse checklist shown and the
    // bot waiting for the person.
    let dir = tempfile::tempdir().expect("scratch dir");
    let mut h =
        coalition_against_the_french_bot(dir.path(), chancery_core::DiceMode::Digital, true);
    h.run();
    let mut before = 0;
    for step in 0.. {
        assert!(step < 600, "no step of the French bot changed the board");
        if !h.state().view.checklists().is_empty() && last_bot_step(h.state()).is_some() {
            before = h.state().session().history().len() - 1;
            break;
        }
        h.state_mut().view.tick_all();
        click_the_coalition_s_first_choice(&mut h);
    }
    let (bot, reasons) = last_bot_step(h.state()).expect("a bot step");
    assert_eq!(bot, "french_bot");
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("21.") || r.starts_with("19.3")),
        "the reasons name the chart's steps: {reasons:?}"
    );
    for reason in &reasons {
        assert!(
            h.query_by_label(reason).is_some(),
            "the window shows the reason '{reason}'"
        );
    }
    let items: Vec<String> = h.state().view.checklists()[0]
        .items
        .iter()
        .map(|(item, _)| item.clone())
        .collect();
    assert!(!items.is_empty(), "the bot's step changed the board");
    let lists = h.state().view.checklists().len();
    // Each change ticked by its box as it is done on the board (scrolled into view first).
    for item in &items {
        h.get_by_role_and_label(egui::Role::CheckBox, item)
            .scroll_to_me();
        h.run();
        h.get_by_role_and_label(egui::Role::CheckBox, item).click();
        h.run();
    }
    assert!(
        h.state().view.checklists().len() < lists
            || h.state().session().history().len() > before + 1,
        "the ticked list is gone (or the bot, no longer waiting, went on)"
    );
    // Undo takes back the person's last decision and the bot's steps after it.
    h.get_by_label("Undo").click();
    h.run();
    let back = h.state().session().history().len();
    assert!(
        back <= before,
        "back to before the bot's step: {back} > {before}"
    );
    let undo = h
        .state()
        .view
        .checklists()
        .first()
        .expect("a checklist to undo");
    assert_eq!(undo.title, "Undo: put the board back");
    for _ in 0..10 {
        h.run();
    }
    assert_eq!(
        h.state().session().history().len(),
        back,
        "the bot waits for the person"
    );
}

#[test]
fn a_bot_s_chart_cell_not_entered_is_asked_once_and_kept() {
    // The testbed's simple bot reads row 5 of its objection chart, which is not entered: when
    // it must answer an objection the window asks the person for the cell, off the printed
    // chart; the value goes to the overlay and the bot takes its step with it.
    let s = scratch();
    let bot = s.module.join("bots/simple.lua");
    let lua = std::fs::read_to_string(&bot).expect("the bot");
    let edited = lua.replace(
        "local key = tostring(die)",
        "local key = \"5\" -- the row not entered",
    );
    assert_ne!(edited, lua, "the bot reads its chart");
    std::fs::write(&bot, edited.replace(
        "local object = ctx:known(\"table\", \"objection_chart\", key) and ctx.data.tables.objection_chart[key]",
        "local object = ctx.data.tables.objection_chart[key]",
    ))
    .expect("edit");
    let (load, game) = options(&s, false);
    let module = Arc::new(chancery_core::load_module(&s.module, &load).expect("loads"));
    let mut spec = GameSpec::new("basic", 7);
    spec.seats
        .insert("B".into(), chancery_core::Controller::Bot("simple".into()));
    let session = chancery_core::start_game(module, spec).expect("starts");
    let mut view = GameView::new(session, game);
    view.panels_mut().autoplay_ms = 0;
    view.set_open_hands(true);
    let mut h = harness(ChanceryApp::new(view, Launcher::new(&s.module, load)));
    h.run();
    h.get_by_label("Call a council").click();
    h.run();
    // The person wagers and lets any objection of theirs pass, until the bot is asked.
    for step in 0.. {
        assert!(step < 100, "the bot was never asked to object");
        if h.state().view.pending().is_some() {
            break;
        }
        let state = h
            .state()
            .session()
            .prompt()
            .clone()
            .ok()
            .flatten()
            .map(|p| p.state);
        match state.as_deref() {
            Some("wager") => {
                let label = h
                    .state()
                    .session()
                    .prompt()
                    .clone()
                    .ok()
                    .flatten()
                    .and_then(|p| {
                        p.asks
                            .iter()
                            .find(|a| a.seat == Some("A".into()))
                            .map(|a| a.actions[0].label.clone())
                    });
                if let Some(label) = label {
                    h.get_by_label(&label).click();
                }
            }
            Some("objection") if h.query_by_label("Pass").is_some() => {
                h.get_by_label("Pass").click();
            }
            _ => {}
        }
        h.run();
    }
    assert!(
        h.query_by_label_contains("The bot's chart needs").is_some(),
        "the window says what the bot's chart asks"
    );
    type_into(&mut h, "Value read off the game:", "true");
    h.get_by_label("Store and go on").click();
    run_until(&mut h, "the bot objects", |app| {
        app.session()
            .history()
            .records()
            .iter()
            .any(|r| matches!(&r.input, chancery_core::Input::Act { choice, .. } if choice.name == "object"))
    });
    let overlay = std::fs::read_to_string(&s.overlay).expect("the overlay was written");
    assert!(
        overlay.contains("objection_chart") && overlay.contains("\"5\": true"),
        "{overlay}"
    );
}

#[test]
fn with_the_physical_board_the_bot_waits_until_its_checklist_is_ticked() {
    let s = scratch();
    let mut h = against_a_bot_at(&s, true);
    run_until(&mut h, "the bot's move", |app| {
        app.session().history().len() == 1
    });
    assert!(
        h.query_by_label("On the physical board").is_some(),
        "the checklist panel is shown"
    );
    let items: Vec<String> = h.state().view.checklists()[0]
        .items
        .iter()
        .map(|(item, _)| item.clone())
        .collect();
    assert!(!items.is_empty(), "the bot's step changed the board");
    h.get_by_label("Pass").click();
    for _ in 0..10 {
        h.run();
    }
    assert_eq!(
        h.state().session().history().len(),
        2,
        "the person passed; the bot waits for the board: {items:?}"
    );
    assert!(
        h.query_by_label("The bots wait until every change is ticked.")
            .is_some()
    );
    for item in &items {
        h.get_by_role_and_label(egui::Role::CheckBox, item).click();
        h.run();
    }
    if h.query_by_label("Tick all").is_some() {
        h.get_by_label("Tick all").click();
    }
    run_until(&mut h, "the bot's reply", |app| {
        app.session().history().len() == 3
    });
    h.state_mut().view.tick_all();
    h.get_by_label("Undo").click();
    for _ in 0..10 {
        h.run();
    }
    let undo = h
        .state()
        .view
        .checklists()
        .first()
        .expect("a checklist to undo");
    assert_eq!(undo.title, "Undo: put the board back");
    assert!(
        h.query_by_label("Undo: put the board back").is_some(),
        "the reverse checklist is shown"
    );
}

#[test]
fn the_balance_panel_compares_an_edit_with_the_old_version_and_draws_the_result() {
    // The open testbed has card Five at 50 instead of 5; the old version is the testbed
    // as it is in the repository. At the same seeds, Five's share of the winners' plays
    // rises significantly.
    let s = scratch();
    let cards = s.module.join("data/cards.ron");
    let text = std::fs::read_to_string(&cards).expect("cards");
    let edited = text.replacen(
        "\"value\": 5, \"suit\": \"sun\"",
        "\"value\": 50, \"suit\": \"sun\"",
        1,
    );
    assert_ne!(edited, text, "the testbed has card Five");
    std::fs::write(&cards, edited).expect("write cards");
    let mut h = harness(app(&s, false, false));
    h.get_by_label("Balance").click();
    h.run();
    h.get_by_label("a folder").click();
    h.run();
    // Stopping when clear is on by default, with the precision it stops at beside it.
    h.get_by_label("to within");
    assert_eq!(h.state().balance.precision, 2.0);
    let original = repo().join("tests/modules/testbed");
    type_into(
        &mut h,
        "Other version's folder",
        &original.display().to_string(),
    );
    h.get_by_label("Compare").click();
    h.run();
    assert!(
        h.state().balance.running(),
        "the games play in the background"
    );
    wait_for_balance(&mut h, "the comparison");
    h.get_by_label_contains("This version against");
    h.get_by_label_contains("Chart of");
    // Listed among the significant differences, with its old and new values, and drawn.
    assert_eq!(
        h.query_all_by_label_contains("card win share · Five: ")
            .count(),
        2,
        "listed and drawn"
    );
    h.get_by_label_contains("card metrics without a significant change are not drawn");
    // Each metric is a row of its own: its whole name (the chart's axis used to cut them to
    // "pha", "gth"), its interval on its own scale, and its change in words.
    h.get_by_label("length");
    h.get_by_label("wins · Alpha");
    h.get_by_label_contains("length: ");
    // It stopped as soon as the answer was clear (the panel's default), and says so.
    h.get_by_label_contains("clearly changed: wins of Alpha");
    assert!(
        h.query_by_label_contains("200 games each").is_none(),
        "the rounds stopped before the 200 games allowed"
    );
}

#[test]
fn the_balance_panel_shows_a_run_s_results_and_its_bots_flowchart_coverage() {
    // One run of the open testbed, compared with nothing: wins, scores, the cards played
    // most, and which steps of the bots' flowcharts the games reached.
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.get_by_label("Balance").click();
    h.run();
    h.get_by_label("Play the games").click();
    h.run();
    wait_for_balance(&mut h, "the games");
    h.get_by_label_contains("Results of 200 games");
    h.get_by_label_contains("Chart of wins by seat");
    // Wins in percent of the games, with the count.
    let wins = format!("{:?}", h.get_by_label_contains(" of 200)"));
    assert!(wins.contains("Alpha: ") && wins.contains(" % ("), "{wins}");
    h.get_by_label_contains("Bots' flowchart steps reached: ");
}

#[test]
fn a_reload_lists_the_recorded_games_the_edit_changes() {
    // The testbed's recorded council game has two rounds; the edit makes it one.
    let s = scratch();
    let mut h = harness(app(&s, true, false));
    h.run();
    run_until(&mut h, "the recorded games replayed", |app| {
        app.view.recordings_replayed()
    });
    let council = s.module.join("rules/council.lua");
    let text = std::fs::read_to_string(&council).expect("council");
    assert!(
        text.contains("local ROUNDS = 2"),
        "the testbed's council has two rounds"
    );
    std::fs::write(
        &council,
        text.replacen("local ROUNDS = 2", "local ROUNDS = 1", 1),
    )
    .expect("edit");
    run_until(&mut h, "the edit-impact report", |app| {
        app.view
            .reload_report()
            .is_some_and(|(_, r)| r.contains("Recorded games"))
    });
    let (ok, report) = h.state().view.reload_report().cloned().expect("a report");
    assert!(ok, "{report}");
    assert!(
        report.contains(
            "Recorded games: 1 of 1 changed by this edit.\n  tests/replays/council.ron:\n"
        ),
        "{report}"
    );
    assert!(
        report.contains("first differs after input ") || report.contains("is now refused"),
        "{report}"
    );
    assert!(
        h.query_by_label_contains("tests/replays/council.ron")
            .is_some()
    );
}

/// A board for the testbed's scratch copy: the score track along the top, the land as a
/// map of three spaces, the pool, and the zones below; Alpha's army block carries its box
/// (which is drawn nowhere else).
const TESTBED_BOARD: &str = r#"Data(
    boards: [
        Board(
            id: "field",
            name: "Field",
            size: (900.0, 560.0),
            carries: {"block.A": "army.A"},
            items: [
                Area(title: "Score", at: (10.0, 10.0), size: (880.0, 100.0)),
                Track(place: "score", at: (20.0, 40.0), step: Some((120.0, 0.0)), space: Some((110.0, 60.0))),
                Area(title: "The land", at: (10.0, 120.0), size: (560.0, 200.0)),
                Map(place: "land", at: (20.0, 150.0), spaces: {"north": (0.0, 0.0), "south": (200.0, 80.0), "east": (400.0, 0.0)}, space: Some((130.0, 80.0))),
                Box(id: "pool", at: (600.0, 130.0), size: (280.0, 70.0)),
                Zone(id: "deck", at: (20.0, 340.0), size: (150.0, 190.0)),
                Zone(id: "hand.A", at: (190.0, 340.0), size: (420.0, 190.0)),
                Counter(id: "vp.A", at: (640.0, 340.0)),
            ],
        ),
    ],
)"#;

/// The testbed with [`TESTBED_BOARD`] added to its data.
fn scratch_with_board() -> Scratch {
    let s = scratch();
    std::fs::write(s.module.join("data/field.ron"), TESTBED_BOARD).expect("board file");
    let manifest = s.module.join("module.ron");
    let text = std::fs::read_to_string(&manifest).expect("manifest");
    let text = text.replacen("data: [", "data: [\"data/field.ron\", ", 1);
    assert!(
        text.contains("data/field.ron"),
        "the manifest lists its data files"
    );
    std::fs::write(&manifest, text).expect("manifest written");
    s
}

fn space_of(h: &Harness<'_, ChanceryApp>, place: &str, piece: &str) -> String {
    h.state().session().table().places[&chancery_core::PlaceId::from(place)]
        [&chancery_core::PieceId::from(piece)]
        .to_string()
}

/// Clicks the primary button at `pos`.
fn click_at(h: &mut Harness<'_, ChanceryApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    h.run();
    h.drop_at(pos);
    h.run();
}

/// Where the board thing (a space, a piece, a box, a zone) named `name` is drawn on the
/// screen. The screen reader's rectangles are the board's own coordinates, as the module
/// gives them; the board view says where those are on the screen, panned and zoomed.
fn on_screen(h: &Harness<'_, ChanceryApp>, name: &str) -> egui::Rect {
    let r = h.get_by_role_and_label(egui::Role::Button, name).rect();
    let board = &h.state().view.panels().board;
    let min = board.to_screen(r.min).expect("a board is drawn");
    let max = board.to_screen(r.max).expect("a board is drawn");
    egui::Rect::from_min_max(min, max)
}

fn button_centre(h: &Harness<'_, ChanceryApp>, name: &str) -> egui::Pos2 {
    on_screen(h, name).center()
}

#[test]
fn on_a_coordinate_board_a_piece_is_dragged_from_one_space_to_another() {
    let s = scratch_with_board();
    let mut h = harness(app(&s, false, false));
    h.run();
    assert_eq!(
        h.state().view.panels().board.tab,
        Some(0),
        "a module with boards opens on its first"
    );
    assert_eq!(space_of(&h, "score", "marker.A"), "0");
    let from = button_centre(&h, "Alpha's marker");
    let to = button_centre(&h, "3");
    drag(&mut h, from, to);
    assert_eq!(space_of(&h, "score", "marker.A"), "3");
    // Units dragged from the pool onto the block that carries Alpha's army go into that box.
    let before = units(&h, "army.A", "inf");
    let from = button_centre(&h, "Infantry × 3");
    let to = button_centre(&h, "Alpha's army");
    drag(&mut h, from, to);
    assert_eq!(units(&h, "army.A", "inf"), before + 1);
    assert_eq!(units(&h, "pool", "inf"), 2);
}

#[test]
fn on_a_coordinate_board_the_prompt_is_answered_by_clicking_a_highlighted_space() {
    let s = scratch_with_board();
    let mut h = harness(app(&s, false, false));
    h.run();
    assert_eq!(space_of(&h, "land", "block.A"), "north");
    // Alpha may march to South, the only neighbour of North: its space is highlighted.
    let targets = h.state().view.targets();
    assert!(targets.spaces.contains(&("land".into(), "south".into())));
    assert!(!targets.spaces.contains(&("land".into(), "east".into())));
    // A click on East, not a target, answers nothing.
    let at = button_centre(&h, "East");
    click_at(&mut h, at);
    h.run();
    assert_eq!(h.state().session().history().len(), 0);
    let at = button_centre(&h, "South");
    click_at(&mut h, at);
    h.run();
    assert_eq!(space_of(&h, "land", "block.A"), "south");
    assert_eq!(h.state().session().history().len(), 1);
}

#[test]
fn zoomed_in_with_the_wheel_the_board_still_hits_the_right_space() {
    let s = scratch_with_board();
    let mut h = harness(app(&s, false, false));
    h.run();
    let fitted = h.state().view.panels().board.scenes["field"];
    let before = on_screen(&h, "South");
    let north = on_screen(&h, "North");
    // Zoom about North: it stays where it is, South moves away from it.
    h.hover_at(north.center());
    h.run();
    for _ in 0..2 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, 2.0),
            phase: egui::TouchPhase::Move,
            modifiers: egui::Modifiers::NONE,
            source: egui::MouseWheelSource::Wheel,
        });
        h.run();
    }
    let zoomed = h.state().view.panels().board.scenes["field"];
    assert!(
        zoomed.width() < fitted.width() * 0.8,
        "the wheel zooms in: {fitted:?} -> {zoomed:?}"
    );
    let south = on_screen(&h, "South");
    assert!(
        south.width() > 1.2 * before.width(),
        "South is drawn larger: {before:?} -> {south:?}"
    );
    // Pick the block up on North and put it down on South, both hit where they are drawn now.
    let at = button_centre(&h, "Alpha's army");
    click_at(&mut h, at);
    h.run();
    assert!(
        h.state().view.panels().selected.is_some(),
        "the block is picked up"
    );
    click_at(&mut h, south.center());
    h.run();
    assert_eq!(space_of(&h, "land", "block.A"), "south");
}

#[test]
fn five_cards_are_dealt_from_the_deck_in_one_input() {
    let s = scratch_with_board();
    let mut h = harness(app(&s, false, false));
    h.run();
    // Put every card of the hands back on the deck by hand: five cards in it.
    for hand in ["hand.A", "hand.B"] {
        let cards = h.state().session().table().zones[&chancery_core::ZoneId::from(hand)]
            .cards
            .clone();
        for card in cards {
            h.state_mut().view.manual(chancery_core::Manual::MoveCard {
                card,
                to: "deck".into(),
                position: chancery_core::Position::Top,
            });
        }
    }
    h.run();
    let deck = |h: &Harness<'_, ChanceryApp>, zone: &str| {
        h.state().session().table().zones[&chancery_core::ZoneId::from(zone)]
            .cards
            .len()
    };
    assert_eq!(deck(&h, "deck"), 5);
    let inputs = h.state().session().history().len();
    let deck_at = button_centre(&h, "Deck");
    h.hover_at(deck_at);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: deck_at,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
    }
    h.get_by_label("Deal").click();
    h.run();
    h.get_by_label("Cards to deal").click();
    h.run();

    // The number is being typed (its text is selected): type 5 over it.
    h.event(egui::Event::Text("5".to_owned()));
    h.run();
    h.get_by_label("Deal 5 to Alpha's hand").click();
    h.run();
    assert_eq!(deck(&h, "deck"), 0);
    assert_eq!(deck(&h, "hand.A"), 5);
    assert_eq!(h.state().session().history().len(), inputs + 1, "one input");
}

/// Writes a small PNG (a grey gradient) of `w` by `h` pixels to `path`.
fn write_png(path: &Path, w: u32, h: u32) {
    let file = std::fs::File::create(path).expect("image file");
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let pixels: Vec<u8> = (0..w * h).flat_map(|i| [(i % 256) as u8; 3]).collect();
    encoder
        .write_header()
        .expect("header")
        .write_image_data(&pixels)
        .expect("pixels");
}

#[test]
fn the_owner_drags_a_space_onto_their_board_image_and_it_is_kept_in_the_overlay() {
    let s = scratch_with_board();
    let folder = s
        .overlay
        .parent()
        .expect("the scratch folder")
        .to_path_buf();
    write_png(&folder.join("my-board.png"), 90, 56);
    std::fs::write(
        &s.overlay,
        "Overlay(module: \"testbed\", boards: {\"field\": (image: Some(\"my-board.png\"))})\n",
    )
    .expect("overlay");
    let mut h = harness(app(&s, false, false));
    h.run();
    let board = &h
        .state()
        .session()
        .module()
        .boards
        .get("field")
        .expect("the board")
        .owner;
    assert_eq!(
        board.image.as_deref(),
        Some(folder.join("my-board.png").as_path())
    );
    let before = on_screen(&h, "East");
    h.get_by_label("Place spaces on your image").click();
    h.run();
    assert!(h.state().view.panels().board.placing);
    drag(
        &mut h,
        before.center(),
        before.center() + egui::vec2(60.0, 50.0),
    );
    // The drop is in the overlay, and the reloaded module puts East there.
    let overlay = std::fs::read_to_string(&s.overlay).expect("overlay");
    assert!(overlay.contains("\"land/east\""), "{overlay}");
    assert!(
        overlay.contains("my-board.png"),
        "the image stays named: {overlay}"
    );
    let owner = &h
        .state()
        .session()
        .module()
        .boards
        .get("field")
        .expect("the board")
        .owner;
    let at = owner.spaces[&("land".into(), "east".into())];
    // East lies at (420, 150) on the board; the drag moved it 60 by 50 points of the screen.
    let scale = before.width() / 130.0;
    assert!(
        (at.0 - (420.0 + 60.0 / scale)).abs() < 2.0,
        "{at:?} at scale {scale}"
    );
    assert!(
        (at.1 - (150.0 + 50.0 / scale)).abs() < 2.0,
        "{at:?} at scale {scale}"
    );
    // Back to play: East is drawn where it was dropped, and still answers for itself.
    h.get_by_label("Place spaces on your image").click();
    h.run();
    let after = on_screen(&h, "East");
    assert!((after.center() - before.center() - egui::vec2(60.0, 50.0)).length() < 3.0);
}

/// An overlay with a byte that is not UTF-8 does not keep the game from opening: the window
/// says what is wrong and where, the game is played without the overlay's values, and the
/// file is never rewritten.
#[test]
fn a_broken_overlay_is_shown_and_the_game_opens_without_it() {
    let s = scratch();
    let bytes = b"Overlay(module: \"testbed\", cards: {\"mystery\": {\"value\": 4}}) // caf\xe9\n";
    std::fs::write(&s.overlay, bytes).expect("write");
    let mut h = harness(app(&s, false, false));
    h.run();
    assert!(
        h.query_by_label("Your overlay has errors: the game goes on without its values")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("is not UTF-8 text: line 1, column")
            .is_some(),
        "the error says where"
    );
    h.get_by_label("Pass").click();
    h.run();
    assert_eq!(h.state().session().history().len(), 1, "the game is played");
    assert_eq!(
        std::fs::read(&s.overlay).expect("read"),
        bytes,
        "byte for byte"
    );
}

/// A game whose save names an overlay elsewhere (it may have come from someone else): a
/// value the rules need is not stored there until the person agrees, then it is.
#[test]
fn a_value_goes_into_an_overlay_a_save_names_only_when_the_person_agrees() {
    let s = scratch();
    let victim = s.overlay.with_file_name("named-by-the-save.ron");
    let load = LoadOptions {
        overlay: OverlayChoice::NamedBySave(victim.clone()),
        strict: false,
    };
    let module = Arc::new(chancery_core::load_module(&s.module, &load).expect("loads"));
    let mut session = chancery_core::start_game(module, GameSpec::new("basic", 3)).expect("starts");
    session
        .act("march", chancery_core::Value::from("south"))
        .expect("march");
    session
        .act("pass", chancery_core::Value::Nil)
        .expect("pass");
    let game = GameOptions {
        watch: false,
        autosave_dir: None,
        load_options: load.clone(),
    };
    let mut view = GameView::new(session, game);
    view.set_open_hands(true);
    let mut h = harness(ChanceryApp::new(view, Launcher::new(&s.module, load)));
    h.run();
    h.get_by_label("march east").click();
    h.run();
    assert!(h.query_by_label("A value is not entered yet").is_some());
    type_into(&mut h, "Value read off the game:", "3");
    h.get_by_label("Store and go on").click();
    h.run();
    assert!(!victim.exists(), "nothing is written unasked");
    assert!(
        h.state()
            .view
            .error()
            .is_some_and(|e| e.contains("the saved game names")),
        "{:?}",
        h.state().view.error()
    );
    h.get_by_label("Store my values in it").click();
    h.run();
    h.get_by_label("Store and go on").click();
    h.run();
    let stored = std::fs::read_to_string(&victim).expect("stored once agreed");
    assert!(stored.contains("\"vp\": 3"), "{stored}");
    let table = h.state().session().table();
    assert_eq!(h.state().session().history().len(), 3, "the march went on");
    assert_eq!(
        table.counters[&chancery_core::CounterId::from("vp.A")].value,
        3,
        "East scored the value stored"
    );
}

/// Congress of Vienna as a newcomer opens it: the default scenario, every seat a person,
/// and no overlay of the owner's yet.
fn cov_first_start(s: &Scratch) -> ChanceryApp {
    let (load, game) = options(s, false);
    let dir = repo().join("modules/cov");
    let module = Arc::new(chancery_core::load_module(&dir, &load).expect("cov loads"));
    let scenario = module
        .default_scenario()
        .expect("a default scenario")
        .id
        .clone();
    let session =
        chancery_core::start_game(module, GameSpec::new(scenario.as_str(), 3)).expect("starts");
    let mut view = GameView::new(session, game);
    view.set_open_hands(true);
    ChanceryApp::new(view, Launcher::new(&dir, load))
}

#[test]
fn the_first_start_offers_the_demo_which_reaches_the_diplomacy_phase_asking_no_value() {
    let s = scratch();
    let mut h = harness(cov_first_start(&s));
    h.run();
    assert!(
        h.query_by_label("New here?").is_some(),
        "the demo is offered"
    );
    // Without the demo, the Initial Phase soon asks for a value nobody has entered.
    let mut asked = false;
    for _ in 0..50 {
        if h.state().view.pending().is_some() {
            asked = true;
            break;
        }
        let ask = h.state().view.my_ask().expect("a decision");
        let choice = ask.actions[0].choice();
        h.state_mut().view.answer(ask.seat.clone(), choice);
    }
    assert!(asked, "the real game needs the owner's values");
    h.run();
    h.get_by_label("Try the demo").click();
    h.run();
    assert!(h.state().session().module().is_demo());
    assert!(
        h.query_by_label("Demo").is_some(),
        "the banner says it is the demo"
    );
    assert!(h.query_by_label("New here?").is_none());
    // The module's demo game: one person playing France against the Allied bot (20), the
    // screen never passed.
    let seats = h.state().session().table().seats.clone();
    for (seat, who) in &seats {
        assert_eq!(
            matches!(who, chancery_core::Controller::Bot(_)),
            seat.as_str() != "FR",
            "{seat} is played by {who}"
        );
    }
    assert!(h.state().view.viewer().one_person, "one person plays");
    let mut steps = 0;
    while h.state().session().table().phase != "Diplomacy Phase" {
        assert!(steps < 400, "the Diplomacy Phase is not reached");
        let view = &h.state().view;
        assert!(
            view.pending().is_none(),
            "a value is asked: {:?}",
            view.pending()
        );
        assert!(view.error().is_none(), "{:?}", view.error());
        match view.my_ask() {
            Some(ask) => {
                let choice = ask.actions[0].choice();
                h.state_mut().view.answer(ask.seat.clone(), choice);
            }
            None => assert!(h.state_mut().view.bot_step(), "a bot moves"),
        }
        steps += 1;
    }
    assert!(h.state().view.pending().is_none());
    assert!(steps >= 1, "the Initial Phase took {steps} decisions");
    // The demo leaves out what its placeholders lack, and says so: no step by hand.
    let log: Vec<String> = h
        .state()
        .session()
        .log()
        .into_iter()
        .flat_map(|entry| entry.messages.into_iter().map(|l| l.text))
        .collect();
    assert!(
        log.iter()
            .any(|l| l.starts_with("Demo: A-2: 1813 May has no placeholders")),
        "{log:#?}"
    );
    assert!(
        !log.iter().any(|l| l.starts_with("Done by hand")),
        "{log:#?}"
    );
    // Nothing entered in the demo is stored: the owner's overlay is still not there.
    assert!(!s.overlay.exists(), "the owner's overlay is untouched");
}

/// A person who asked for a game of his own (a scenario, seats, one person) tries the demo
/// of that game: *Try the demo* keeps what the command line gave.
#[test]
fn trying_the_demo_keeps_the_game_the_command_line_asked_for() {
    let s = scratch();
    let mut app = cov_first_start(&s);
    app.start_given = true;
    app.view.set_open_hands(false);
    app.view.set_one_person(true);
    let mut h = harness(app);
    h.run();
    let before = h.state().session().spec().clone();
    h.get_by_label("Try the demo").click();
    h.run();
    assert!(h.state().session().module().is_demo());
    assert_eq!(h.state().session().spec().scenario, before.scenario);
    assert_eq!(h.state().session().spec().seats, before.seats);
    assert!(h.state().view.viewer().one_person, "--one-person is kept");
}

#[test]
fn a_15_card_hand_shows_every_card_at_a_readable_size() {
    let s = scratch();
    let mut h = harness(cov_first_start(&s));
    h.run();
    h.get_by_label("Try the demo").click();
    h.run();
    // Into the Diplomacy Phase, where the hands are dealt; then France gets up to 15 cards.
    while h.state().session().table().phase != "Diplomacy Phase" {
        match h.state().view.my_ask() {
            Some(ask) => {
                let choice = ask.actions[0].choice();
                h.state_mut().view.answer(ask.seat.clone(), choice);
            }
            None => assert!(h.state_mut().view.bot_step(), "a bot moves"),
        }
    }
    while h.state().session().table().zones["hand.FR"].cards.len() < 15 {
        let deck = h.state().session().table().zones["deck"].cards[0].clone();
        h.state_mut().view.manual(chancery_core::Manual::MoveCard {
            card: deck,
            to: "hand.FR".into(),
            position: chancery_core::Position::Top,
        });
    }
    h.run();
    let hand = h.state().session().table().zones["hand.FR"].cards.clone();
    assert_eq!(hand.len(), 15);
    h.get_by_label("France's hand · 15 cards").click();
    h.run();
    let module = h.state().session().module().clone();
    let mut faces: Vec<egui::Rect> = Vec::new();
    for card in &hand {
        let name = &module.cards.get(card.as_str()).expect("a card").name;
        // The board may show the hand too, overlapped; the hand panel shows it whole.
        let face = h
            .query_all_by_label(name)
            .map(|n| n.rect())
            .find(|r| r.width() >= 100.0 && r.height() >= 50.0)
            .unwrap_or_else(|| panic!("{name} is shown at a readable size"));
        faces.push(face);
    }
    for (i, a) in faces.iter().enumerate() {
        for b in &faces[i + 1..] {
            assert!(
                a.intersect(*b).area() < 1.0,
                "two cards of the hand overlap: {a:?} {b:?}"
            );
        }
    }
}

#[test]
fn clicking_a_card_shows_it_and_playing_it_takes_a_second_action() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    let card = h.state().session().table().zones["hand.A"].cards[0].clone();
    let name = h
        .state()
        .session()
        .module()
        .cards
        .get(card.as_str())
        .expect("card")
        .name
        .clone();
    // The hand panel's card (the board or panels may show it too).
    let node = h
        .query_all_by_label(&name)
        .find(|n| n.rect().width() >= 100.0)
        .expect("the card in the hand panel");
    node.click();
    h.run();
    assert_eq!(
        h.state().session().history().len(),
        0,
        "a click plays nothing"
    );
    assert_eq!(h.state().view.panels().inspected.as_ref(), Some(&card));
    // Beside the card's face, the decision's action that plays it.
    let play = format!("play: {name}");
    assert_eq!(
        h.query_all_by_label(&play).count(),
        2,
        "the action beside the card, and in the decision's list"
    );
    h.query_all_by_label(&play)
        .next()
        .expect("a button")
        .click();
    h.run();
    assert_eq!(
        h.state().session().history().len(),
        1,
        "the button plays it"
    );
    assert_eq!(
        h.state().session().table().zones["discard"].cards[0],
        card,
        "the card was played"
    );
    assert!(h.state().view.panels().inspected.is_none());
}

#[test]
fn the_top_bar_keeps_to_one_row_at_1600_pixels() {
    let s = scratch();
    let mut h = harness(cov_first_start(&s));
    h.state_mut().view.set_one_person(true);
    h.run();
    let undo = h.get_by_label("Undo").rect();
    let options = h.get_by_label_contains("Options").rect();
    assert!(
        (options.center().y - undo.center().y).abs() < 4.0,
        "Options is on the row of Undo: {undo:?} {options:?}"
    );
    assert!(
        options.max.x <= 1600.0,
        "and inside the window: {options:?}"
    );
}

#[test]
fn an_action_that_gives_something_up_waits_for_a_yes() {
    let s = scratch();
    let mut h = harness(app(&s, false, false));
    h.run();
    h.get_by_label("Concede").click();
    h.run();
    assert_eq!(
        h.state().session().history().len(),
        0,
        "one click takes nothing"
    );
    assert!(
        h.query_by_label_contains("The other seat wins the game.")
            .is_some()
    );
    h.get_by_label("No, go back").click();
    h.run();
    assert!(h.query_by_label("Yes: Concede").is_none());
    h.get_by_label("Concede").click();
    h.run();
    h.get_by_label("Yes: Concede").click();
    h.run();
    assert!(h.state().session().is_over(), "the yes takes it");
}

#[test]
fn a_demo_game_opened_from_its_save_reloads_as_the_demo() {
    let s = scratch();
    let (_, game) = options(&s, false);
    let demo = LoadOptions {
        overlay: OverlayChoice::Demo,
        strict: false,
    };
    let module =
        Arc::new(chancery_core::load_module(repo().join("modules/cov"), &demo).expect("loads"));
    let session =
        chancery_core::start_game(module, GameSpec::new("lutzen-bautzen", 3)).expect("starts");
    // Opened as a save is (with the default overlay asked for), the view keeps the demo for
    // its reloads and stored values.
    let view = GameView::new(session, game);
    assert_eq!(view.options().load_options.overlay, OverlayChoice::Demo);
}

#[test]
fn a_long_standings_sentence_wraps_and_the_log_panel_keeps_its_width() {
    let s = scratch();
    let (_, game) = options(&s, false);
    let demo = LoadOptions {
        overlay: OverlayChoice::Demo,
        strict: false,
    };
    let dir = repo().join("modules/cov");
    let module = Arc::new(chancery_core::load_module(&dir, &demo).expect("loads"));
    let session =
        chancery_core::start_game(module, GameSpec::new("clash-of-armies", 3)).expect("starts");
    let mut h = harness(ChanceryApp::new(
        GameView::new(session, game),
        Launcher::new(&dir, demo),
    ));
    h.run();
    h.run();
    let now = h
        .query_all_by_label_contains("France controls Gascony, Bavaria and Holland")
        .next()
        .expect("who would win if the game ended now, beside the table")
        .rect();
    assert!(
        now.width() <= 520.0 && now.height() > 20.0,
        "the sentence wraps within the panel: {now:?}"
    );
}

/// A game with an umpire opens as the umpire's: the umpire stays at the screen (it is
/// never passed) and sees both hands, and answers the deciding seat's choices.
#[test]
fn a_game_with_an_umpire_opens_on_the_umpire_s_view() {
    let s = scratch();
    let edit = |file: &str, from: &str, to: &str| edit_module(&s, file, from, to);
    edit(
        "data/table.ron",
        r#"Seat(id: "B", name: "Beta", bot: "simple"),"#,
        r#"Seat(id: "B", name: "Beta", bot: "simple"), Seat(id: "U", name: "Umpire"),"#,
    );
    edit(
        "data/scenarios.ron",
        r#"phase: "play","#,
        r#"phase: "play", umpire: "U","#,
    );
    let mut h = harness(app(&s, false, true));
    h.run();
    assert!(
        h.query_by_label_contains("Pass the screen to").is_none(),
        "the umpire keeps the screen"
    );
    let table = h.state().session().table().clone();
    let module = h.state().session().module().clone();
    for hand in ["hand.A", "hand.B"] {
        for card in &table.zones[hand].cards {
            let name = module.name_of("card", card.as_str());
            assert!(
                h.query_all_by_label(&name).next().is_some(),
                "the umpire sees {name} in {hand}"
            );
        }
    }
    // Alpha decides; the umpire answers for Alpha.
    h.get_by_label("Pass").click();
    h.run();
    let log = h.state().session().log();
    assert_eq!(log[1].input, "A: pass");
    assert_eq!(log[1].by, "umpire", "the log says who answered");
}

/// A redacted save opens as its seat's view alone: Alpha's army shows on the fogged land
/// and Beta's does not, nor any of Beta's hand; the land says it lies under fog of war;
/// the seat menu offers nobody else; and asking for every hand (the umpire's view) is
/// refused with a message.
#[test]
fn a_redacted_save_shows_its_seat_s_forces_and_nothing_more() {
    let s = scratch();
    let edit = |file: &str, from: &str, to: &str| edit_module(&s, file, from, to);
    edit(
        "data/table.ron",
        r#"Piece(id: "block.A", name: "Alpha's army", kind: "block", owner: "A"),"#,
        r#"Piece(id: "block.A", name: "Alpha's army", kind: "block", owner: "A"),
        Piece(id: "block.B", name: "Beta's army", kind: "block", owner: "B"),"#,
    );
    edit(
        "data/scenarios.ron",
        r#""land": {"block.A": "north"}},
        boxes: {"pool": {"inf": 3, "cav": 1}},
        vars: {"passes": 0, "hand_size": 2},
    ),
    Scenario(
        id: "mystery","#,
        r#""land": {"block.A": "north", "block.B": "east"}},
        boxes: {"pool": {"inf": 3, "cav": 1}},
        vars: {"passes": 0, "hand_size": 2},
    ),
    Scenario(
        id: "mystery","#,
    );
    let (load, game) = options(&s, false);
    let module = Arc::new(chancery_core::load_module(&s.module, &load).expect("testbed loads"));
    let session =
        chancery_core::start_game(module.clone(), GameSpec::new("scout", 7)).expect("starts");
    let beta_hand = session.table().zones["hand.B"].cards.clone();
    let past = vec![chancery_core::rules::LogLine::public("The story so far.")];
    let redacted = chancery_core::save::SaveFile::of(&session).redacted_for(
        &"A".into(),
        past,
        session.module().files_fingerprint,
    );
    let path = s.module.join("alpha.ron");
    redacted.write_new(&path).expect("written");
    let file = chancery_core::save::SaveFile::read(&path).expect("read back");
    let (session, report) = file.restore(module.clone(), &path).expect("opens");
    assert!(report.is_none(), "{report:?}");
    let mut view = GameView::new(session, game);
    view.update_viewer();
    let mut h = harness(ChanceryApp::new(view, Launcher::new(&s.module, load)));
    h.run();
    // Its army block on the land, and the box of the same name.
    assert_eq!(
        h.query_all_by_label("Alpha's army").count(),
        2,
        "Alpha sees its army"
    );
    assert!(
        h.query_by_label("Beta's army").is_none(),
        "Beta's army is under fog"
    );
    assert!(h.query_by_label_contains("fog of war").is_some());
    for card in &beta_hand {
        let name = module.name_of("card", card.as_str());
        assert!(
            h.query_all_by_label(&name).next().is_none()
                || h.state().session().table().zones["hand.A"]
                    .cards
                    .contains(card),
            "{name} of Beta's hand shows"
        );
    }
    assert!(
        h.query_by_label_contains("a redacted save").is_some(),
        "the seat menu says whose view it is"
    );
    assert!(h.query_by_label("everything (open hands)").is_none());
    h.state_mut().view.set_open_hands(true);
    h.run();
    assert_eq!(h.state().view.eyes(), Some("A".into()));
    assert!(
        h.state()
            .view
            .error()
            .is_some_and(|e| e.contains("redacted view")),
        "{:?}",
        h.state().view.error()
    );
}

/// France's redacted save of the campaign while the umpire decides: France sees the
/// decision and answers nothing of the umpire's.
#[test]
fn a_redacted_save_of_the_campaign_answers_nothing_of_the_umpire_s() {
    let s = scratch();
    let (load, game) = options(&s, false);
    let campaign = Arc::new(
        chancery_core::load_module(repo().join("modules/campaign"), &load).expect("loads"),
    );
    let session =
        chancery_core::start_game(campaign.clone(), GameSpec::new("fall-1805", 7)).expect("starts");
    let redacted = chancery_core::save::SaveFile::of(&session).redacted_for(
        &"FR".into(),
        vec![],
        session.module().files_fingerprint,
    );
    let path = s.module.join("france.ron");
    redacted.write_new(&path).expect("written");
    let file = chancery_core::save::SaveFile::read(&path).expect("read back");
    let (session, _) = file.restore(campaign, &path).expect("opens");
    let mut france = harness(ChanceryApp::new(
        GameView::new(session, game),
        Launcher::new(&s.module, load),
    ));
    france.run();
    assert!(france.query_by_label_contains("Umpire decides").is_some());
    assert!(
        france
            .query_by_label("Published: collect the turn's income")
            .is_none(),
        "the umpire's choice is not France's"
    );
}

/// A module's long Standings value wraps within the right panel: the log stays in the
/// window. (War and Peace's minor state groups, each a long sentence, pushed the panel
/// and the log out of the window.)
#[test]
fn a_long_standings_value_keeps_the_log_in_the_window() {
    let s = scratch();
    let (_, game) = options(&s, false);
    let load = LoadOptions {
        overlay: OverlayChoice::File(repo().join("modules/warpeace/tests/owner-fixture.ron")),
        strict: false,
    };
    let module = Arc::new(
        chancery_core::load_module(repo().join("modules/warpeace"), &load).expect("loads"),
    );
    let session =
        chancery_core::start_game(module, GameSpec::new("two-player", 7)).expect("starts");
    let mut view = GameView::new(session, game);
    view.set_open_hands(true);
    let mut h = harness(ChanceryApp::new(view, Launcher::new(&s.module, load)));
    h.run();
    let log = h.get_by_label("Log").rect();
    assert!(log.max.x <= 1600.0, "the log's heading at {log:?}");
    let groups = h.get_by_label_contains("Denmark neutral").rect();
    assert!(
        groups.max.x <= 1600.0,
        "the Baltic group's sentence at {groups:?}"
    );
}

/// War and Peace without the owner's data: the game does not exit at start; its set-up asks
/// the first value it needs as the game's first decision (the initial political status, a
/// word of a few: a button each), stores it in the owner's overlay and asks the next, and
/// the decision panel says the game is being set up.
#[test]
fn a_game_whose_set_up_needs_the_owner_s_values_asks_them_first() {
    let s = scratch();
    let (load, game) = options(&s, false);
    let dir = repo().join("modules/warpeace");
    let module = Arc::new(chancery_core::load_module(&dir, &load).expect("loads"));
    let session =
        chancery_core::start_game(module, GameSpec::new("two-player", 1)).expect("starts");
    assert!(session.setup_waits().is_some(), "the set-up waits");
    let view = GameView::new(session, game);
    let mut h = harness(ChanceryApp::new(view, Launcher::new(&dir, load)));
    h.run();
    assert!(h.query_by_label("A value is not entered yet").is_some());
    assert!(
        h.query_by_label_contains("Initial political status (D.1, D.2): France")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("The game is being set up")
            .is_some(),
        "the decision panel says what waits"
    );
    h.get_by_role_and_label(egui::Role::Button, "pro").click();
    h.run();
    let overlay = std::fs::read_to_string(&s.overlay).expect("the overlay was written");
    assert!(overlay.contains("\"FR\": \"pro\""), "{overlay}");
    assert!(
        h.query_by_label_contains("Initial Force Pools (J.1.d): France")
            .is_some(),
        "the next value the set-up needs is asked"
    );
    assert!(
        h.query_by_label_contains("For example: {\"guard_cavalry\":3}")
            .is_some(),
        "the box shows what to type"
    );
    // A map of unit kinds is entered one box a kind, each by its name; the kinds left
    // empty are not in the value.
    type_into(&mut h, "infantry (strength points)", "6");
    type_into(&mut h, "cavalry (strength points)", "2");
    h.get_by_label("Store and go on").click();
    h.run();
    let overlay = std::fs::read_to_string(&s.overlay).expect("the overlay");
    let pools = overlay
        .lines()
        .find(|l| l.contains("\"initial_pool\""))
        .unwrap_or_else(|| panic!("France's pool is stored: {overlay}"))
        .replace(' ', "");
    assert!(
        pools.contains("{\"FR\":{\"cavalry\":2,\"infantry\":6}}"),
        "{pools}"
    );
}

/// The campaign's umpire at the screen enters the nations' orders as they arrive by mail,
/// each under its nation's name, without passing the screen: France's and Austria's are
/// recorded, the umpire's answers for them, and the others still wait.
#[test]
fn the_umpire_enters_two_seats_orders_without_passing_the_screen() {
    let s = scratch();
    let dir = repo().join("modules/campaign");
    let load = LoadOptions {
        overlay: OverlayChoice::File(dir.join("tests/owner-fixture.ron")),
        strict: false,
    };
    let (_, game) = options(&s, false);
    let module = Arc::new(chancery_core::load_module(&dir, &load).expect("loads"));
    let mut session =
        chancery_core::start_game(module, GameSpec::new("fall-1805", 11)).expect("starts");
    session
        .apply(chancery_core::Input::Act {
            seat: Some("UM".into()),
            choice: chancery_core::Choice {
                name: "published".into(),
                arg: chancery_core::Value::Nil,
            },
            dice: Vec::new(),
            by: chancery_core::Actor::Human,
        })
        .expect("published");
    let view = GameView::new(session, game);
    let mut h = harness(ChanceryApp::new(view, Launcher::new(&dir, load)));
    h.run();
    assert!(h.query_by_label("For France:").is_some());
    assert!(
        h.query_by_label_contains("Waiting for the screen")
            .is_none()
    );
    h.get_all_by_label("Orders received")
        .next()
        .expect("France's button")
        .click();
    h.run();
    assert!(
        h.query_by_label("For France:").is_none(),
        "France has answered"
    );
    h.get_all_by_label("No orders this turn")
        .next()
        .expect("Austria's button")
        .click();
    h.run();
    let mut answered = match h.state().session().prompt() {
        Ok(Some(prompt)) => prompt.answered.clone(),
        other => panic!("{other:?}"),
    };
    answered.sort();
    assert_eq!(
        answered,
        ["AU".into(), "FR".into()] as [chancery_core::SeatId; 2]
    );
    assert!(
        h.query_by_label("For Britain:").is_some(),
        "the others still wait"
    );
}

/// Every text drawn in the window's last frame that a person cannot read: smaller than
/// 11 points on the screen, or cut at its left or right by the box it is drawn in (a line
/// scrolled out of a list above or below is not cut, nor a word at the edge of the board's
/// view, which a drag brings in).
fn unreadable_texts(h: &Harness<'_, ChanceryApp>) -> Vec<String> {
    let board = h.state().view.panels().board.on_screen();
    let check = |shape: &egui::Shape, clip: egui::Rect, found: &mut Vec<String>| {
        let pannable = board.is_some_and(|b| {
            (b.min - clip.min).length() < 1.0 || (b.max - clip.max).length() < 1.0
        });
        visit(shape, clip, pannable, found)
    };
    fn visit(shape: &egui::Shape, clip: egui::Rect, pannable: bool, found: &mut Vec<String>) {
        match shape {
            egui::Shape::Vec(shapes) => {
                for shape in shapes {
                    visit(shape, clip, pannable, found);
                }
            }
            egui::Shape::Text(text) => {
                let galley = &text.galley;
                let words = galley.text().trim().to_owned();
                let rect = galley.rect.translate(text.pos.to_vec2());
                if words.is_empty() || !rect.intersects(clip) {
                    return;
                }
                // The rows are scaled as the board is zoomed; the glyphs keep their font's.
                let scale = galley
                    .rows
                    .iter()
                    .find_map(|r| r.row.glyphs.first().map(|g| r.row.size.y / g.line_height))
                    .unwrap_or(1.0);
                let size = galley
                    .job
                    .sections
                    .iter()
                    .map(|s| s.format.font_id.size)
                    .fold(f32::INFINITY, f32::min)
                    * scale;
                if size < 10.99 {
                    found.push(format!("{size:.1} pt: {words:?}"));
                }
                if !pannable && (rect.min.x < clip.min.x - 2.0 || rect.max.x > clip.max.x + 2.0) {
                    found.push(format!(
                        "cut from x {:.0}-{:.0} to {:.0}-{:.0}: {words:?}",
                        rect.min.x, rect.max.x, clip.min.x, clip.max.x
                    ));
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    for clipped in &h.output().shapes {
        check(&clipped.shape, clipped.clip_rect, &mut found);
    }
    // No two words drawn over each other (a row of cards ran into the next column's).
    let mut drawn: Vec<(egui::Rect, String)> = Vec::new();
    for clipped in &h.output().shapes {
        if let egui::Shape::Text(text) = &clipped.shape {
            // The glyphs' own bounds: a laid-out row is wider than its words.
            let rect = text
                .galley
                .mesh_bounds
                .translate(text.pos.to_vec2())
                .intersect(clipped.clip_rect);
            let words = text.galley.text().trim().to_owned();
            if rect.is_positive() && !words.is_empty() {
                drawn.push((rect.shrink(1.0), words));
            }
        }
    }
    for (i, (a, words)) in drawn.iter().enumerate() {
        for (b, other) in &drawn[i + 1..] {
            if a.intersects(*b) {
                found.push(format!("{words:?} over {other:?}"));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_table_is_readable_at_1600_by_1000_with_a_hand_of_fifteen_cards() {
    // Congress of Vienna's four players in the Diplomacy Phase, each hand dealt: every word
    // in the window is 11 points or more, and none is cut at its side.
    let dir = tempfile::tempdir().expect("scratch dir");
    let mut h = clash_of_armies(dir.path());
    let hand = |h: &Harness<'_, ChanceryApp>| {
        h.state().session().table().zones[&chancery_core::ZoneId::from("hand.FR")]
            .cards
            .len()
    };
    for _ in 0..200 {
        if hand(&h) >= 14 && h.state().session().table().phase == "Diplomacy Phase" {
            break;
        }
        let label = first_choice(&h).expect("a seat decides");
        h.query_all_by_role_and_label(egui::Role::Button, &label)
            .next()
            .unwrap_or_else(|| panic!("no button '{label}'"))
            .click();
        h.run();
    }
    assert!(hand(&h) >= 14, "France holds {} cards", hand(&h));
    h.run();
    let found = unreadable_texts(&h);
    assert!(
        found.is_empty(),
        "{} unreadable:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn every_module_s_table_is_readable_at_1600_by_1000() {
    // Each newer module with its demo values, opened on its default scenario and played a
    // few decisions in: every word in the window is 11 points or more, none cut at its side.
    let mut failures = Vec::new();
    for name in ["aftermath", "warpeace", "guerre", "campaign"] {
        let dir = tempfile::tempdir().expect("scratch dir");
        let mut h = open_module(dir.path(), name, OverlayChoice::Demo, None, 5);
        for _ in 0..6 {
            let Some(label) = first_choice(&h) else { break };
            let Some(button) = h
                .query_all_by_role_and_label(egui::Role::Button, &label)
                .next()
            else {
                break;
            };
            button.click();
            h.run();
        }
        h.run();
        failures.extend(
            unreadable_texts(&h)
                .into_iter()
                .map(|f| format!("{name}: {f}")),
        );
    }
    assert!(
        failures.is_empty(),
        "{} unreadable:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
