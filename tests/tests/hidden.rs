//! Hidden information: a bot reads the table as its own seat sees it, so it cannot peek at
//! the other hand, the deck, or where a hidden card lies.

use chancery_core::{GameSpec, Session};
use chancery_tests::{load, test_module};

#[test]
fn a_bot_sees_only_what_its_seat_may_see() {
    let mut session =
        Session::new(load(&test_module("testbed")), GameSpec::new("basic", 1)).expect("starts");
    let table = session.table();
    let mine: Vec<String> = table.zones["hand.A"]
        .cards
        .iter()
        .map(|c| c.to_string())
        .collect();
    let theirs = table.zones["hand.B"].cards[0].clone();
    let pick = session
        .bot_preview(Some("peek"))
        .expect("the bot runs")
        .expect("A decides");
    assert_eq!(
        pick.reason,
        vec![
            "theirs: ?,?".to_owned(),
            format!("mine: {}", mine.join(",")),
            "deck: ?".to_owned(),
            format!("where is {}: hand.A", mine[0]),
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
        Session::new(load(&test_module("testbed")), GameSpec::new("basic", 1)).expect("starts");
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
