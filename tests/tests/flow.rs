//! Procedures and shared decisions as plain data: a council (an automatic phase calling
//! automatic rounds calling a secret wager and a reaction window) survives undo, a save and
//! a reload mid-way; an automatic state that does not move the flow, and one that loops for
//! ever, are stopped with an error that names it.

use chancery_core::save::SaveFile;
use chancery_core::view::state_json;
use chancery_core::{Actor, Choice, GameSpec, Input, Prompt, Session, Value};
use chancery_tests::{copy_module, edit, load, start, test_module};

fn json(session: &Session) -> String {
    serde_json::to_string(&state_json(
        session.table(),
        &session.log(),
        None,
        &Value::Nil,
    ))
    .expect("serialises")
}

fn answer(seat: &str, name: &str, arg: &str) -> Input {
    Input::Act {
        seat: Some(seat.into()),
        choice: Choice {
            name: name.into(),
            arg: if arg.is_empty() {
                Value::Nil
            } else {
                Value::from(arg)
            },
        },
        dice: Vec::new(),
        by: Actor::Human,
    }
}

/// Seed 4: Alpha holds Five and Four, Beta Three and One.
fn council() -> Session {
    let mut session = start(&load(&test_module("testbed")), GameSpec::new("basic", 4));
    session.apply(answer("A", "council", "")).expect("council");
    session
}

#[test]
fn a_secret_choice_half_answered_survives_undo_save_and_reload() {
    let mut session = council();
    let before = json(&session);
    session
        .apply(answer("A", "commit", "five"))
        .expect("Alpha wagers");
    let committed = json(&session);
    assert_ne!(before, committed);
    assert!(session.undo());
    assert_eq!(json(&session), before, "undo forgets the secret answer");
    assert!(session.redo().expect("redo"));
    assert_eq!(json(&session), committed);

    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("game.ron");
    SaveFile::of(&session).write(&path).expect("saves");
    let (mut restored, report) = SaveFile::read(&path)
        .expect("reads")
        .restore(load(&test_module("testbed")), &path)
        .expect("restores");
    assert!(report.is_none(), "{report:?}");
    assert_eq!(json(&restored), committed);
    restored
        .apply(answer("B", "commit", "three"))
        .expect("Beta wagers");
    assert_eq!(
        restored
            .prompt()
            .as_ref()
            .expect("a prompt")
            .as_ref()
            .map(|p| p.state.clone()),
        Some("objection".to_owned())
    );

    let report = session
        .rebase(load(&test_module("testbed")))
        .expect("rebases");
    assert!(
        report.divergence.is_none(),
        "{}",
        report.words(session.module(), None)
    );
    assert_eq!(
        json(&session),
        committed,
        "a reload replays to the same place"
    );
}

/// The decision the session waits on (`None` when the game is over).
fn decision(session: &Session) -> Option<Prompt> {
    session.prompt().clone().expect("a prompt")
}

/// A pass that leaves a reaction window open hands the session the decision the rules read
/// to see who is still to answer, instead of the session asking again: it is the same
/// decision the rules give when asked afresh for that table (after an undo back to it).
#[test]
fn the_decision_after_a_pass_is_the_one_the_rules_give_afresh() {
    let mut session = council();
    session
        .apply(answer("A", "commit", "five"))
        .expect("Alpha wagers");
    session
        .apply(answer("B", "commit", "three"))
        .expect("Beta wagers");
    let window = decision(&session).expect("a decision");
    assert_eq!(window.state, "objection");
    let first = window.asks[0].seat.clone().expect("a seat asked");
    session
        .apply(answer(first.as_str(), "pass", ""))
        .expect("the first seat passes");
    let after_pass = decision(&session).expect("still open");
    assert_eq!(after_pass.state, "objection");
    let second = after_pass.asks[0].seat.clone().expect("a seat asked");
    assert_ne!(first, second, "the seat that passed is not asked again");
    session
        .apply(answer(second.as_str(), "pass", ""))
        .expect("the second seat passes");
    assert_ne!(decision(&session), Some(after_pass.clone()));
    assert!(session.undo(), "back to just after the first pass");
    assert_eq!(
        decision(&session),
        Some(after_pass),
        "read afresh, the rules give the decision the pass handed on"
    );
}

#[test]
fn an_automatic_state_that_does_not_move_the_flow_is_an_error() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    edit(
        &dir.join("rules/council.lua"),
        "  ctx.locals.round = ctx.locals.round + 1\n  ctx:call(\"round\", { n = ctx.locals.round })",
        "  ctx.locals.round = ctx.locals.round + 1",
    );
    let mut session = start(&load(&dir), GameSpec::new("basic", 4));
    let err = session
        .apply(answer("A", "council", ""))
        .expect_err("the council does not move on");
    assert_eq!(
        err.to_string(),
        "module 'testbed', run of state 'council': an automatic state must move the flow (ctx:call, ctx:replace or ctx:pop) or end the game, but it did neither"
    );
    assert_eq!(session.history().len(), 0, "nothing was recorded");
}

#[test]
fn automatic_states_that_loop_for_ever_are_stopped_as_a_runaway() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    edit(
        &dir.join("rules/council.lua"),
        "  local locals = ctx.locals\n  if locals.stage == nil then",
        "  local locals = ctx.locals\n  if true then ctx:replace(\"round\", locals) return end\n  if locals.stage == nil then",
    );
    let mut session = start(&load(&dir), GameSpec::new("basic", 4));
    let err = session
        .apply(answer("A", "council", ""))
        .expect_err("a runaway");
    assert_eq!(
        err.to_string(),
        "runaway flow: more than 10000 state changes in one step (last state 'round')"
    );
    assert!(
        session.prompt().is_ok(),
        "the game goes on from before the step"
    );
}

/// A state called with empty locals (`ctx:call("review", {})`) has a map for them, as one
/// called with none: its prompt may read `ctx.locals` (a read-only hook) without being
/// taken for one that changed them (an empty Lua table read back is an empty map, not the
/// empty list it was stored as).
#[test]
fn a_state_called_with_empty_locals_may_read_them_in_its_prompt() {
    let (_scratch, dir) = copy_module(&test_module("testbed"));
    edit(
        &dir.join("rules/muster.lua"),
        "    text = \"Review: how many cavalry join?\",",
        "    text = \"Review: how many cavalry join?\" .. (ctx.locals.note or \"\"),",
    );
    let mut session = start(&load(&dir), GameSpec::new("muster", 1));
    session.act("levy", Value::Int(1)).expect("Beta levies");
    session
        .act("levy", Value::Int(1))
        .expect("Alpha levies, and the review is asked");
    let prompt = session
        .prompt()
        .as_ref()
        .expect("the review's prompt reads its locals")
        .as_ref()
        .expect("a decision");
    assert_eq!(prompt.text, "Review: how many cavalry join?");
    session
        .act("cavalry", Value::Int(2))
        .expect("the review is answered");
}
