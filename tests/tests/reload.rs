//! Hot reload: a changed module replays the open game and reports where it first differs;
//! a broken module is reported with its diagnostics and the game stays on the last good one.

use std::time::{Duration, Instant};

use chancery_core::watch::{ModuleWatcher, Reload};
use chancery_core::{GameSpec, SaveFile, Value};
use chancery_tests::{copy_module, edit, load, no_overlay, test_module};

fn values() -> std::collections::BTreeMap<&'static str, i64> {
    [
        ("one", 1),
        ("two", 2),
        ("three", 3),
        ("four", 4),
        ("five", 5),
    ]
    .into_iter()
    .collect()
}

#[test]
fn a_changed_card_value_is_reported_with_the_first_divergence() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("basic", 1)).expect("starts");
    session.act("bid", Value::Int(1)).expect("bid");
    let card = session.table().zones["hand.B"].cards[0].to_string();
    let old = values()[card.as_str()];
    session
        .act("play", Value::from(card.as_str()))
        .expect("B plays");
    session.act("bid", Value::Int(2)).expect("bid");

    let line = format!(
        r#"Card(id: "{card}", name: "{}", text: "Score {old}.", fields: {{"value": {old},"#,
        card[..1].to_uppercase() + &card[1..]
    );
    edit(
        &dir.join("data/cards.ron"),
        &line,
        &line.replace(&format!("\"value\": {old},"), "\"value\": 9,"),
    );
    let report = session.rebase(load(&dir)).expect("rebases");

    let name = card[..1].to_uppercase() + &card[1..];
    assert_eq!(
        report.changes,
        vec![format!("{name} (card): value {old} → 9")]
    );
    assert_eq!((report.replayed, report.total), (3, 3));
    assert_eq!(report.refused, None);
    let divergence = report.divergence.expect("the game differs");
    assert_eq!(divergence.after, 2, "the play is the second input");
    assert_eq!(divergence.input, format!("B: play {card}"));
    let differences = divergence.differences(session.module(), None);
    assert!(
        differences.contains(&format!("Beta's VP: {old} → 9")),
        "{differences:?}"
    );
    assert_eq!(
        session.table().counter(&"vp.B".into()),
        Ok(9),
        "the open game now plays the new value"
    );
    assert_eq!(session.history().len(), 3);
}

#[test]
fn a_changed_rule_is_named_by_its_function() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("basic", 1)).expect("starts");
    session.act("bid", Value::Int(2)).expect("bid");
    edit(
        &dir.join("rules/turn.lua"),
        r#"ctx:set_counter("bid", math.max(n, ctx:counter("bid")))"#,
        r#"ctx:set_counter("bid", math.max(n + 1, ctx:counter("bid")))"#,
    );
    let report = session.rebase(load(&dir)).expect("rebases");
    assert_eq!(
        report.changes,
        vec!["script rules/turn.lua changed in turn.bid".to_owned()]
    );
    let divergence = report.divergence.expect("differs");
    assert_eq!(
        (
            divergence.after,
            divergence.differences(session.module(), None)
        ),
        (1, vec!["Bid: 2 → 3".to_owned()])
    );
}

#[test]
fn an_input_the_new_rules_refuse_waits_on_the_redo_stack() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("basic", 1)).expect("starts");
    session.act("bid", Value::Int(1)).expect("bid");
    session.act("detour", Value::Nil).expect("detour");
    session.act("yes", Value::Bool(true)).expect("yes");
    edit(
        &dir.join("rules/turn.lua"),
        r#"  actions[#actions + 1] = { name = "detour", label = "Take a detour" }"#,
        "",
    );
    let report = session.rebase(load(&dir)).expect("rebases");
    let (n, why) = report.refused.clone().expect("the detour is refused");
    assert_eq!(n, 2);
    assert!(
        why.starts_with("'detour' is not a legal action in state 'turn'"),
        "{why}"
    );
    assert_eq!(report.replayed, 1);
    assert_eq!(session.history().len(), 1);
    assert_eq!(
        session.history().redo_stack().len(),
        2,
        "the refused inputs are kept"
    );
    let text = report.words(session.module(), None).to_string();
    assert!(text.contains("Input 2 is no longer accepted"), "{text}");
}

/// A reload whose rules fail part-way keeps the rest of the game held, in the session and in
/// its save; the next reload that fixes the error brings the whole game back.
#[test]
fn a_fix_after_a_reload_that_failed_part_way_brings_the_whole_game_back() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("basic", 1)).expect("starts");
    for _ in 0..6 {
        session.act("bid", Value::Int(0)).expect("bid");
    }
    session.act("detour", Value::Nil).expect("detour");
    session.act("yes", Value::Bool(true)).expect("yes");
    for _ in 0..4 {
        session.act("bid", Value::Int(0)).expect("bid");
    }
    let whole: Vec<_> = session.history().game_inputs().cloned().collect();
    let turn = dir.join("rules/turn.lua");
    let good = std::fs::read_to_string(&turn).expect("read");
    // A Lua runtime error in the detour: the game stops before it.
    edit(
        &turn,
        "function turn.detour(ctx)",
        "function turn.detour(ctx)\n  error('a typo in the detour')",
    );
    let report = session.rebase(load(&dir)).expect("rebases");
    assert_eq!(
        report.refused.as_ref().map(|r| r.0),
        Some(7),
        "{}",
        report.words(session.module(), None)
    );
    assert_eq!(session.history().len(), 6);
    assert_eq!(
        session.history().held_len(),
        6,
        "the detour and the 5 after it"
    );
    let text = report.words(session.module(), None).to_string();
    assert!(text.contains("it and the 5 after it are held"), "{text}");
    // The save holds the whole game; opened again, it is held the same way.
    let save = SaveFile::of(&session);
    assert_eq!(save.inputs, whole);
    // A second broken reload keeps it held; the fix brings it all back.
    let report = session.rebase(load(&dir)).expect("rebases");
    assert_eq!(report.total, 12, "{}", report.words(session.module(), None));
    std::fs::write(&turn, &good).expect("write");
    let report = session.rebase(load(&dir)).expect("rebases");
    assert_eq!(
        report.refused,
        None,
        "{}",
        report.words(session.module(), None)
    );
    assert_eq!(session.history().len(), 12);
    assert_eq!(report.restored, 6, "the 6 held inputs are played again");
    let text = report.words(session.module(), None).to_string();
    assert!(
        text.contains("The 6 input(s) held back since a reload refused them are played again: the game is back where it was."),
        "the report says so: {text}"
    );
    assert_eq!(session.history().held_len(), 0);
    let back: Vec<_> = session.history().game_inputs().cloned().collect();
    assert_eq!(back, whole, "every input is back, in order");
}

#[test]
fn a_module_that_cannot_start_the_game_leaves_the_session_alone() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("basic", 1)).expect("starts");
    session.act("bid", Value::Int(1)).expect("bid");
    edit(
        &dir.join("rules/main.lua"),
        "ctx:shuffle(\"deck\")",
        "ctx:shuffle(\"deck\")\n  error(\"setup is broken\")",
    );
    let err = session.rebase(load(&dir)).expect_err("setup fails");
    let main = std::fs::read_to_string(dir.join("rules/main.lua")).expect("read");
    let line = main
        .lines()
        .position(|l| l.contains("setup is broken"))
        .expect("the broken line")
        + 1;
    let expected = format!("rules/main.lua:{line}: setup is broken");
    assert!(err.to_string().contains(&expected), "{err}");
    assert_eq!(session.history().len(), 1);
    session
        .act("bid", Value::Int(2))
        .expect("the old version still plays");
}

fn wait_for(watcher: &ModuleWatcher) -> Reload {
    watcher
        .wait(Duration::from_secs(10))
        .expect("a reload within 10 s")
}

#[test]
fn the_watcher_reloads_keeps_the_last_good_module_on_errors_and_recovers() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("basic", 1)).expect("starts");
    session.act("bid", Value::Int(3)).expect("bid");
    let watcher =
        ModuleWatcher::new(&dir, no_overlay(), None, Duration::from_millis(50)).expect("watches");

    // A broken edit: diagnostics, and the game goes on under the last good module.
    let cards = dir.join("data/cards.ron");
    let good = std::fs::read_to_string(&cards).expect("read");
    std::fs::write(
        &cards,
        good.replacen(r#""value": 2, "suit""#, r#""value": 2 "suit""#, 1),
    )
    .expect("write");
    let started = Instant::now();
    match wait_for(&watcher) {
        Reload::Failed {
            diagnostics,
            changed,
        } => {
            let first = diagnostics.iter().next().expect("a diagnostic").to_string();
            assert!(
                first.ends_with("data/cards.ron:9:76: RON: Expected comma"),
                "{first}"
            );
            assert!(
                changed.iter().any(|p| p.ends_with("cards.ron")),
                "{changed:?}"
            );
        }
        other => panic!("expected a failed reload, got {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    session.act("bid", Value::Int(1)).expect("still playable");

    // The fix: the new module loads and the game is rebased onto it.
    std::fs::write(
        &cards,
        good.replacen(r#""value": 2, "suit""#, r#""value": 20, "suit""#, 1),
    )
    .expect("write");
    let module = loop {
        match wait_for(&watcher) {
            Reload::Loaded { module, .. } => break module,
            // A reload may catch the file half written; the next event brings the whole one.
            Reload::Failed { .. } => continue,
            Reload::WatchError(e) => panic!("{e}"),
        }
    };
    let report = session.rebase(module).expect("rebases");
    assert!(
        report
            .changes
            .iter()
            .any(|c| c.starts_with("Two (card): value 2 → 20")),
        "{:?}",
        report.changes
    );
    assert_eq!(report.replayed, 2);
}

#[test]
fn the_watcher_wakes_its_window_when_a_reload_is_ready_and_says_when_the_file_was_saved() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let watcher =
        ModuleWatcher::new(&dir, no_overlay(), None, Duration::from_millis(50)).expect("watches");
    let (woken, wakes) = std::sync::mpsc::channel();
    watcher.wake_with(std::sync::Arc::new(move || {
        let _ = woken.send(Instant::now());
    }));
    assert!(
        wakes.recv_timeout(Duration::from_millis(300)).is_err(),
        "nothing changed: no wake"
    );
    let cards = dir.join("data/cards.ron");
    let good = std::fs::read_to_string(&cards).expect("read");
    let saved = Instant::now();
    std::fs::write(
        &cards,
        good.replacen(r#""value": 2, "suit""#, r#""value": 20, "suit""#, 1),
    )
    .expect("write");
    let woken_at = wakes
        .recv_timeout(Duration::from_secs(10))
        .expect("woken within 10 s of the save");
    let since = loop {
        match wait_for(&watcher) {
            Reload::Loaded { since, .. } => break since,
            Reload::Failed { .. } => continue,
            Reload::WatchError(e) => panic!("{e}"),
        }
    };
    // The reload was sent before the wake, and dates from the save, not from the load.
    assert!(since >= saved, "the change is dated after the save began");
    assert!(since <= woken_at, "and before the window was woken");
}

#[test]
fn every_test_module_loads_and_every_reference_resolves() {
    for name in ["testbed", "hostile"] {
        let module = chancery_core::load_module(test_module(name), &no_overlay())
            .unwrap_or_else(|d| panic!("{name}:\n{d}"));
        assert!(module.warnings.is_empty(), "{name}: {}", module.warnings);
    }
    let modules = chancery_tests::repo_root().join("modules");
    for entry in std::fs::read_dir(&modules).into_iter().flatten().flatten() {
        if entry.path().join("module.ron").exists() {
            chancery_core::load_module(entry.path(), &no_overlay())
                .unwrap_or_else(|d| panic!("{}:\n{d}", entry.path().display()));
        }
    }
}

#[test]
fn differences_are_said_with_the_module_s_names() {
    let module = load(&test_module("testbed"));
    let session =
        chancery_core::start_game(module.clone(), GameSpec::new("basic", 1)).expect("starts");
    let before = session.table().clone();
    let mut after = before.clone();
    after
        .place_piece(&"block.A".into(), &"land".into(), &"south".into())
        .expect("moves");
    after.set_counter(&"vp.B".into(), 4).expect("scores");
    let differences = chancery_core::session::describe_differences(&module, &before, &after);
    assert!(
        differences.contains(&"Beta's VP: 0 → 4".to_owned()),
        "{differences:?}"
    );
    assert!(
        differences
            .iter()
            .any(|d| *d == "Alpha's army (The land): North → South"),
        "{differences:?}"
    );
}

/// A procedure of declared steps (the testbed's muster) edited while the game stands inside
/// an earlier step: the game replays the same, and the later step runs as now written.
#[test]
fn a_reload_changes_a_later_step_while_the_game_is_inside_an_earlier_one() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("muster", 1)).expect("starts");
    session.act("levy", Value::Int(2)).expect("Beta levies");
    edit(
        &dir.join("rules/muster.lua"),
        "%d cavalry join the pool.",
        "%d cavalry ride in.",
    );
    let report = session.rebase(load(&dir)).expect("rebases");
    assert_eq!(
        report.divergence,
        None,
        "{}",
        report.words(session.module(), None)
    );
    assert_eq!(
        report.refused,
        None,
        "{}",
        report.words(session.module(), None)
    );
    session.act("levy", Value::Int(1)).expect("Alpha levies");
    session.act("cavalry", Value::Int(2)).expect("the review");
    let log: Vec<String> = session
        .log()
        .iter()
        .flat_map(|e| e.messages.iter().map(|m| m.text.clone()))
        .collect();
    assert!(
        log.iter()
            .any(|l| l == "Muster, 3. Reinforce: 2 cavalry ride in."),
        "{log:?}"
    );
}
