//! Dealing by hand: N cards from a deck to one hand or to each of several, one card at a
//! time around them, as one input that undo takes back whole; a deal the deck cannot cover
//! is refused and changes nothing.

use chancery_core::session::Answer;
use chancery_core::{CardId, GameSpec, Input, Manual, Position, Session, ZoneId};
use chancery_tests::{load, start, test_module};

fn cards(session: &Session, zone: &str) -> Vec<CardId> {
    session.table().zones[&ZoneId::from(zone)].cards.clone()
}

/// The testbed after its set-up, with every hand card put back on the deck (five cards).
fn full_deck() -> Session {
    let mut session = start(&load(&test_module("testbed")), GameSpec::new("basic", 4));
    for hand in ["hand.A", "hand.B"] {
        for card in cards(&session, hand) {
            session
                .apply(Input::manual(Manual::MoveCard {
                    card,
                    to: "deck".into(),
                    position: Position::Top,
                }))
                .expect("moves");
        }
    }
    assert_eq!(cards(&session, "deck").len(), 5);
    session
}

#[test]
fn a_deal_to_two_hands_goes_round_them_one_card_at_a_time_and_undoes_whole() {
    let mut session = full_deck();
    let deck = cards(&session, "deck");
    let inputs = session.history().len();
    session
        .apply(Input::manual(Manual::Deal {
            from: "deck".into(),
            to: vec!["hand.A".into(), "hand.B".into()],
            count: 2,
        }))
        .expect("deals");
    assert_eq!(
        session.history().len(),
        inputs + 1,
        "one input for the whole deal"
    );
    assert_eq!(
        cards(&session, "hand.A"),
        vec![deck[0].clone(), deck[2].clone()]
    );
    assert_eq!(
        cards(&session, "hand.B"),
        vec![deck[1].clone(), deck[3].clone()]
    );
    assert_eq!(cards(&session, "deck"), vec![deck[4].clone()]);
    let said = session
        .log()
        .last()
        .and_then(|entry| entry.messages.last())
        .map(|line| line.text.clone())
        .unwrap_or_default();
    assert_eq!(said, "Dealt 4 cards from Deck to Alpha's hand, Beta's hand");

    let before = session.table().clone();
    let err = session
        .apply(Input::manual(Manual::Deal {
            from: "deck".into(),
            to: vec!["hand.A".into(), "hand.B".into()],
            count: 1,
        }))
        .expect_err("one card cannot go to two hands");
    assert!(
        err.to_string()
            .contains("'deck' holds 1 card but the deal needs 2 cards"),
        "{err}"
    );
    assert_eq!(session.table(), &before, "a refused deal changes nothing");
    assert_eq!(session.history().len(), inputs + 1);

    assert!(session.undo());
    assert_eq!(cards(&session, "deck"), deck);
    assert!(cards(&session, "hand.A").is_empty());
}

#[test]
fn a_deal_is_written_and_read_as_a_change_by_hand() {
    let answer = Answer::parse("by hand: deal 5 deck hand.A").expect("parses");
    assert_eq!(
        answer.manual,
        Some(Manual::Deal {
            from: "deck".into(),
            to: vec!["hand.A".into()],
            count: 5,
        })
    );
    let mut session = full_deck();
    session.apply(answer.input()).expect("deals");
    assert_eq!(cards(&session, "hand.A").len(), 5);
    let err = Answer::parse("by hand: deal all deck hand.A").expect_err("refused");
    assert!(err.contains("'all' is not a number"), "{err}");
}
