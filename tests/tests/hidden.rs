//! Hidden information: a bot reads the table as its own seat sees it, so it cannot peek at
//! the other hand, the deck, or where a hidden card lies.

use chancery_core::view::state_json;
use chancery_core::{Actor, Choice, GameSpec, Input, Session, Value};
use chancery_tests::{load, test_module};

#[test]
fn a_bot_sees_only_what_its_seat_may_see() {
    let mut session =
        chancery_core::start_game(load(&test_module("testbed")), GameSpec::new("basic", 1))
            .expect("starts");
    let table = session.table();
    let mine: Vec<String> = table.zones["hand.A"]
        .cards
        .iter()
        .map(|c| c.to_string())
        .collect();
    let theirs = table.zones["hand.B"].cards[0].clone();
    let pick = session
        .bot_preview(Some("peek"), None)
        .expect("the bot runs")
        .expect("A decides");
    assert_eq!(
        pick.reason,
        vec![
            "theirs: ?,?".to_owned(),
            format!("mine: {}", mine.join(",")),
            "deck: ?".to_owned(),
            format!("where is {}: hand.A", mine[0]),
            "answered: ".to_owned(),
            "faces of cards it cannot see: ".to_owned(),
        ]
    );
    assert!(
        !pick.reason.iter().any(|r| r.contains(theirs.as_str())),
        "the bot saw a card of the other hand: {:?}",
        pick.reason
    );
}

#[test]
fn a_seats_view_hook_is_masked_and_the_omniscient_one_is_not() {
    let mut session =
        chancery_core::start_game(load(&test_module("testbed")), GameSpec::new("basic", 1))
            .expect("starts");
    let hand = |session: &Session, zone: &str| -> chancery_core::Value {
        let cards = session.table().zones[zone].cards.iter();
        chancery_core::Value::List(
            cards
                .map(|c| chancery_core::Value::from(c.as_str()))
                .collect(),
        )
    };
    // Seat A's view: the other hand (B's) is hidden.
    let as_a = session.view_data(Some(&"A".into())).expect("view");
    assert_eq!(
        as_a.get("other_hand"),
        Some(&chancery_core::Value::List(vec!["?".into(), "?".into()]))
    );
    // Seat B's view of A's hand: hidden too, though A's own view would show it.
    let as_b = session.view_data(Some(&"B".into())).expect("view");
    assert_eq!(
        as_b.get("other_hand"),
        Some(&chancery_core::Value::List(vec!["?".into(), "?".into()]))
    );
    // The omniscient view (no seat; the testbed then shows hand A) hides nothing.
    let all = session.view_data(None).expect("view");
    assert_eq!(all.get("other_hand"), Some(&hand(&session, "hand.A")));
}

/// A council from seed 4 (Alpha holds Five and Four): Alpha calls it and wagers Five in
/// secret; Beta has not answered yet.
fn wager_committed() -> Session {
    alpha_wagers("five")
}

/// The council of [`wager_committed`], with Alpha wagering `card`.
fn alpha_wagers(card: &str) -> Session {
    let mut session =
        chancery_core::start_game(load(&test_module("testbed")), GameSpec::new("basic", 4))
            .expect("starts");
    session.act("council", Value::Nil).expect("council");
    session
        .apply(Input::Act {
            seat: Some("A".into()),
            choice: Choice {
                name: "commit".into(),
                arg: Value::from(card),
            },
            dice: Vec::new(),
            by: Actor::Human,
        })
        .expect("Alpha wagers");
    session
}

#[test]
fn a_bot_answering_a_secret_choice_cannot_see_the_other_answers() {
    let mut session = wager_committed();
    let pick = session
        .bot_preview(Some("peek"), Some(&"B".into()))
        .expect("the bot runs")
        .expect("B decides");
    assert!(
        pick.reason.contains(&"answered: A".to_owned()),
        "the bot knows that Alpha has answered: {:?}",
        pick.reason
    );
    assert!(
        pick.reason.contains(&"theirs: ?,?".to_owned()),
        "{:?}",
        pick.reason
    );
    assert!(
        !pick.reason.iter().any(|r| r.contains("five")),
        "the bot saw Alpha's wager: {:?}",
        pick.reason
    );
    let err = session
        .bot_preview(Some("spy"), Some(&"B".into()))
        .expect_err("the spy bot may not read Alpha's private state");
    let text = err.to_string();
    assert!(
        text.contains("tests/modules/testbed/rules/main.lua:")
            && text.contains("may not see seat A's private state"),
        "{text}"
    );
}

#[test]
fn a_seats_state_json_hides_other_seats_private_state_and_secret_answers() {
    let session = wager_committed();
    let as_b = state_json(
        session.table(),
        &session.log(),
        Some(&"B".into()),
        &Value::Nil,
    );
    let text = serde_json::to_string(&as_b).expect("json");
    assert!(
        !text.contains("five"),
        "Beta's view shows Alpha's wager: {text}"
    );
    assert!(
        !text.contains("favour\":1"),
        "Beta's view shows Alpha's favour: {text}"
    );
    assert_eq!(as_b["private"], serde_json::json!({"B": {"favour": 2}}));
    assert_eq!(
        as_b["flow"][3]["answers"],
        serde_json::json!({"A": "answered"})
    );
    let last = &as_b["log"][2];
    assert_eq!(last["input"], "A: a secret answer");
    let all = state_json(session.table(), &session.log(), None, &Value::Nil);
    assert_eq!(
        all["flow"][3]["answers"],
        serde_json::json!({"A": "commit five"})
    );
    assert_eq!(all["log"][2]["input"], "A: commit five");
}

/// A bot's own random draws follow from the game and what its seat sees: Alpha's secret
/// wager (Five or Four) changes nothing of what Beta's bot draws.
#[test]
fn a_bot_s_random_draws_do_not_depend_on_another_seat_s_secret() {
    let draw = |wager: &str| {
        alpha_wagers(wager)
            .bot_preview(Some("fate"), Some(&"B".into()))
            .expect("the bot runs")
            .expect("B decides")
            .reason
    };
    let (five, four) = (draw("five"), draw("four"));
    assert!(five.iter().any(|r| r.starts_with("fate: ")), "{five:?}");
    assert_eq!(five, four, "Beta's draws tell Alpha's wager apart");
}

/// A module table an all-seeing hook fills (here the omniscient view keeps Beta's hand in
/// one) is not where a bot can read it: each seat's bot runs in a VM of its own.
#[test]
fn a_bot_cannot_read_what_an_all_seeing_hook_kept_in_a_module_table() {
    let (_scratch, dir) = chancery_tests::copy_module(&test_module("testbed"));
    let main = dir.join("rules/main.lua");
    chancery_tests::edit(
        &main,
        "local simple = include(\"bots/simple.lua\")",
        "local simple = include(\"bots/simple.lua\")\nlocal gossip_board = {}\n\
         local function gossip(ctx, seat, actions)\n  \
           return 1, { \"heard: \" .. tostring(gossip_board.hand) }\nend",
    );
    chancery_tests::edit(
        &main,
        "local function view(ctx, seat)",
        "local function view(ctx, seat)\n  \
           if seat == nil then gossip_board.hand = table.concat(ctx:zone(\"hand.B\"), \",\") end",
    );
    chancery_tests::edit(&main, "fate = fate }", "fate = fate, gossip = gossip }");
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("basic", 1)).expect("starts");
    let all = session.view_data(None).expect("the omniscient view");
    assert!(!all.is_nil());
    let pick = session
        .bot_preview(Some("gossip"), Some(&"A".into()))
        .expect("the bot runs")
        .expect("A decides");
    assert_eq!(
        pick.reason,
        vec!["heard: nil".to_owned()],
        "Alpha's bot heard Beta's hand"
    );
}
