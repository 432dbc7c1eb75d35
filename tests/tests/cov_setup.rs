//! Congress of Vienna set-ups: every scenario is started with `chancery new` and its state
//! JSON is compared with every number the Playbook prints for that set-up (sections 17.2-17.6
//! and 18.4): VP, hand sizes, each army's block and units, fleets, pawns and markers, the
//! Leader cards, the removed cards and the deck size.

use chancery::cli::{Outcome, run};
use chancery_tests::repo_root;
use serde_json::{Value, json};

/// Starts `scenario` with the extra `options` and returns its state JSON.
fn start(scenario: &str, options: &[&str]) -> Value {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let module = repo_root().join("modules/cov");
    let mut args = vec![
        "chancery".to_owned(),
        "--no-overlay".to_owned(),
        "new".to_owned(),
        module.display().to_string(),
        "--scenario".to_owned(),
        scenario.to_owned(),
        "--seed".to_owned(),
        "1".to_owned(),
        "--out".to_owned(),
        save.display().to_string(),
    ];
    for option in options {
        args.push("--option".to_owned());
        args.push((*option).to_owned());
    }
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = run(args.iter().map(Into::into), &mut out, &mut err);
    assert!(
        matches!(outcome, Outcome::Exit(0)),
        "{scenario}: {}",
        String::from_utf8_lossy(&err)
    );
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = [
        "chancery",
        "state",
        save.to_str().expect("utf-8"),
        "--json",
        "--everything",
    ];
    let outcome = run(args.iter().map(Into::into), &mut out, &mut err);
    assert!(
        matches!(outcome, Outcome::Exit(0)),
        "{}",
        String::from_utf8_lossy(&err)
    );
    serde_json::from_slice(&out).expect("state JSON")
}

/// One army as the Playbook sets it up: front letter, block slug, space, units.
type Army = (
    char,
    &'static str,
    &'static str,
    &'static [(&'static str, i64)],
);

/// Checks the armies, the War of 1812 box and that no other unit is on the map.
fn check_armies(state: &Value, armies: &[Army], war_of_1812: &[(&str, i64)], scenario: &str) {
    for (front, slug, space, units) in armies {
        let block = format!("block.{slug}");
        assert_eq!(
            state["tracks"][format!("front.{front}")][&block],
            json!(space),
            "{scenario}: {block}"
        );
        let expected: serde_json::Map<String, Value> = units
            .iter()
            .map(|(k, n)| ((*k).to_owned(), json!(n)))
            .collect();
        assert_eq!(
            state["boxes"][format!("army.{slug}")],
            Value::Object(expected),
            "{scenario}: army.{slug}"
        );
    }
    let expected: serde_json::Map<String, Value> = war_of_1812
        .iter()
        .map(|(k, n)| ((*k).to_owned(), json!(n)))
        .collect();
    assert_eq!(
        state["boxes"]["war_of_1812"],
        Value::Object(expected),
        "{scenario}: War of 1812 box"
    );
}

fn check_counters(state: &Value, vp: [i64; 4], hands: [i64; 4], scenario: &str) {
    for (i, power) in ["FR", "RU", "AU", "BR"].iter().enumerate() {
        assert_eq!(
            state["counters"][format!("vp.{power}")],
            json!(vp[i]),
            "{scenario}: vp.{power}"
        );
        assert_eq!(
            state["counters"][format!("hand_size.{power}")],
            json!(hands[i]),
            "{scenario}: hand_size.{power}"
        );
    }
}

fn cards(state: &Value, zone: &str) -> Vec<String> {
    let list = state["zones"][zone]["cards"].as_array().expect("a zone");
    list.iter()
        .map(|c| c.as_str().expect("a card id").to_owned())
        .collect()
}

fn check_pawns(
    state: &Value,
    liberalism: &str,
    absolutism: &str,
    pax: &str,
    war_1812: &str,
    scenario: &str,
) {
    let t = &state["tracks"];
    assert_eq!(
        t["liberalism"]["pawn.liberalism"],
        json!(liberalism),
        "{scenario}"
    );
    assert_eq!(
        t["absolutism"]["pawn.absolutism"],
        json!(absolutism),
        "{scenario}"
    );
    assert_eq!(
        t["pax_britannica"]["pawn.pax_britannica"],
        json!(pax),
        "{scenario}"
    );
    assert_eq!(
        t["war_of_1812_status"]["marker.war_of_1812"],
        json!(war_1812),
        "{scenario}"
    );
    assert_eq!(
        t["future_government"]["pawn.future_government"],
        json!("emperor"),
        "{scenario}"
    );
    assert_eq!(
        t["fr_preempts"]["marker.fr_preempts"],
        json!("0"),
        "{scenario}"
    );
}

fn issues_on_display(state: &Value) -> usize {
    let diplomacy = state["tracks"]["diplomacy"]
        .as_object()
        .expect("the display");
    diplomacy
        .iter()
        .filter(|(k, v)| k.starts_with("issue.") && *v == "display")
        .count()
}

// 17.2.7, also used by Lützen & Bautzen (18.4.2).
const SPRING_1813: &[Army] = &[
    ('a', "silesia", "silesia", &[("PR", 1), ("RU", 3)]),
    ('a', "bohemia", "vienna", &[("AU", 3)]),
    ('a', "grande_armee", "saxony", &[("FR", 3)]),
    ('b', "northern", "pomerania", &[("PR", 2), ("RU", 2)]),
    ('b', "elbe", "hanover", &[("FR", 3)]),
    ('c', "portugal", "leon", &[("BR", 4), ("PO", 2), ("SP", 2)]),
    ('c', "spain", "castile", &[("FR", 6)]),
    ('d', "eastern", "southern_spain", &[("BR", 1), ("SP", 2)]),
    ('d', "mediterranean", "valencia", &[("FR", 3)]),
    ('e', "sicily", "sicily", &[]),
    ('e', "naples", "naples", &[("FR", 1)]),
    ('f', "tyrol", "tyrol", &[]),
    ('f', "italy", "venice", &[("FR", 1)]),
];

#[test]
fn napoleon_resurgent_17_2() {
    let s = start("napoleon-resurgent", &[]);
    assert_eq!(
        (s["turn"].clone(), s["phase"].clone()),
        (json!(2), json!("Initial Phase"))
    );
    check_counters(&s, [25, 15, 7, 5], [14, 12, 11, 12], "17.2");
    check_armies(&s, SPRING_1813, &[("BR_fleet", 2)], "17.2");
    check_pawns(&s, "at_start", "at_start", "at_start", "0", "17.2");
    assert_eq!(cards(&s, "removed"), vec!["kutuzov"]);
    assert_eq!(s["zones"]["deck"]["count"], 65, "the 65-card deck");
    assert_eq!(
        s["zones"]["situation.deck"]["count"], 27,
        "the 27-card Initial Situation deck"
    );
    assert_eq!(cards(&s, "hand.FR"), vec!["napoleon"]);
    assert_eq!(cards(&s, "hand.RU"), vec!["alexander"]);
    assert_eq!(cards(&s, "hand.AU"), vec!["metternich"]);
    assert_eq!(cards(&s, "hand.BR"), vec!["castlereagh"]);
    assert_eq!(issues_on_display(&s), 30, "all issues on the display");
    assert_eq!(
        s["tracks"]["war_status"],
        json!({}),
        "Limited War: no War Status marker"
    );
    let holding = &s["tracks"]["holding"];
    assert_eq!(
        (
            holding["generalissimo.RU"].clone(),
            holding["generalissimo.AU"].clone()
        ),
        (json!("pool.RU"), json!("pool.AU"))
    );
}

#[test]
fn napoleon_resurgent_for_two_players_18_2_5() {
    let s = start("napoleon-resurgent", &["seating=two-players"]);
    check_counters(&s, [55, 20, 10, 5], [14, 12, 11, 12], "18.2.5");
    assert_eq!(s["vars"]["seating"], "two-players");
}

#[test]
fn clash_of_armies_17_3() {
    let s = start("clash-of-armies", &[]);
    assert_eq!(s["turn"], 5);
    check_counters(&s, [55, 25, 20, 15], [13, 11, 11, 13], "17.3");
    let armies: &[Army] = &[
        ('a', "silesia", "silesia", &[("PR", 2), ("RU", 8)]),
        ('a', "bohemia", "vienna", &[("AU", 8)]),
        ('a', "grande_armee", "saxony", &[("FR", 13)]),
        (
            'b',
            "northern",
            "prussia",
            &[("PR", 3), ("RU", 3), ("SW", 2)],
        ),
        ('b', "elbe", "pomerania", &[("FR", 7)]),
        (
            'c',
            "portugal",
            "castile",
            &[("BR", 4), ("PO", 2), ("SP", 1)],
        ),
        ('c', "spain", "gascony", &[("FR", 5)]),
        ('d', "eastern", "valencia", &[("BR", 1), ("SP", 4)]),
        ('d', "mediterranean", "catalonia", &[("FR", 4)]),
        ('e', "sicily", "sicily", &[("BR", 1), ("BR_fleet", 1)]),
        ('e', "naples", "naples", &[("FR", 1)]),
        ('f', "tyrol", "tyrol", &[("AU", 3)]),
        ('f', "italy", "venice", &[("FR", 3)]),
    ];
    check_armies(&s, armies, &[("BR", 1), ("BR_fleet", 3), ("US", 1)], "17.3");
    check_pawns(
        &s,
        "secularization_confiscation",
        "defense_of_the_faith",
        "before_castile_valencia",
        "0",
        "17.3",
    );
    assert_eq!(
        cards(&s, "removed"),
        vec!["kutuzov", "scharnhorst", "duroc"]
    );
    assert_eq!(s["zones"]["deck"]["count"], 63, "the 63-card deck");
    assert_eq!(
        s["zones"]["situation.deck"]["count"], 12,
        "the 12-card Initial Situation deck"
    );
    assert_eq!(
        issues_on_display(&s),
        28,
        "Armistice and Sweden at War are removed"
    );
    let diplomacy = &s["tracks"]["diplomacy"];
    assert!(
        diplomacy.get("issue.armistice").is_none()
            && diplomacy.get("issue.sweden_at_war").is_none()
    );
    assert_eq!(s["tracks"]["war_status"]["marker.war_status"], "armistice");
    assert_eq!(
        s["vars"]["austria_at_war_choice"], true,
        "Austria places Austria at War after the Initial Phase"
    );
}

const CAMPAIGN: &[Army] = &[
    ('a', "silesia", "polesia", &[("RU", 3)]),
    ('a', "bohemia", "vienna", &[("AU", 3)]),
    ('a', "grande_armee", "poland", &[("FR", 1)]),
    ('b', "northern", "east_prussia", &[("PR", 1), ("RU", 3)]),
    ('b', "elbe", "prussia", &[("FR", 2)]),
    (
        'c',
        "portugal",
        "portugal",
        &[("BR", 4), ("PO", 2), ("SP", 2)],
    ),
    ('c', "spain", "leon", &[("FR", 6)]),
    ('d', "eastern", "southern_spain", &[("BR", 1), ("SP", 2)]),
    ('d', "mediterranean", "valencia", &[("FR", 4)]),
    ('e', "sicily", "sicily", &[]),
    ('e', "naples", "naples", &[("FR", 1)]),
    ('f', "tyrol", "tyrol", &[]),
    ('f', "italy", "venice", &[("FR", 1)]),
];

#[test]
fn liberation_war_17_4() {
    let s = start("liberation-war", &[]);
    assert_eq!(s["turn"], 1);
    check_counters(&s, [60, 25, 20, 20], [15, 10, 11, 12], "17.4");
    check_armies(&s, CAMPAIGN, &[("BR_fleet", 1)], "17.4");
    check_pawns(&s, "at_start", "at_start", "at_start", "0", "17.4");
    assert_eq!(cards(&s, "hand.RU"), vec!["alexander", "kutuzov"]);
    assert_eq!(s["vars"]["last_turn"], 8);
    assert_eq!(s["vars"]["amour_sacre"], false);
}

#[test]
fn desperate_times_17_5() {
    let s = start("desperate-times", &[]);
    assert_eq!(s["turn"], 8);
    check_counters(&s, [50, 35, 30, 30], [11, 13, 11, 13], "17.5");
    let armies: &[Army] = &[
        ('a', "silesia", "bavaria", &[("PR", 1), ("RU", 7)]),
        ('a', "bohemia", "bavaria", &[("AU", 6)]),
        ('a', "grande_armee", "alsace", &[("FR", 4)]),
        ('b', "northern", "hanover", &[("PR", 3), ("RU", 3)]),
        ('b', "elbe", "holland", &[("FR", 2)]),
        (
            'c',
            "portugal",
            "castile",
            &[("BR", 3), ("PO", 2), ("SP", 1)],
        ),
        ('c', "spain", "gascony", &[("FR", 4)]),
        ('d', "eastern", "valencia", &[("BR", 1), ("SP", 3)]),
        ('d', "mediterranean", "catalonia", &[("FR", 3)]),
        ('e', "sicily", "sicily", &[("BR", 1), ("BR_fleet", 1)]),
        ('e', "naples", "naples", &[("FR", 1)]),
        ('f', "tyrol", "tyrol", &[("AU", 4)]),
        ('f', "italy", "venice", &[("FR", 3)]),
    ];
    check_armies(&s, armies, &[("BR", 1), ("BR_fleet", 3), ("US", 1)], "17.5");
    check_pawns(
        &s,
        "secularization_confiscation",
        "defense_of_the_faith",
        "castile_valencia",
        "br_1",
        "17.5",
    );
    assert_eq!(
        cards(&s, "removed"),
        vec![
            "poniatowski",
            "kutuzov",
            "scharnhorst",
            "duroc",
            "friedrich_august"
        ]
    );
    assert_eq!(s["zones"]["deck"]["count"], 61, "the 61-card deck");
    assert_eq!(
        s["zones"]["situation.deck"]["cards"],
        json!(["a_8", "a_9", "a_10"]),
        "deck A, turns 8-10, in order"
    );
    assert_eq!(
        issues_on_display(&s),
        27,
        "Armistice, Austria at War and Sweden at War are removed"
    );
    let holding = &s["tracks"]["holding"];
    assert_eq!(
        holding["generalissimo.AU"], "generalissimo",
        "Austria has the Generalissimo"
    );
    assert_eq!(holding["generalissimo.RU"], "pool.RU");
    assert_eq!(
        s["tracks"]["war_status"]["marker.war_status"],
        "general_war"
    );
}

#[test]
fn full_campaign_17_6() {
    let s = start("full-campaign", &[]);
    assert_eq!(s["turn"], 1);
    check_counters(&s, [60, 10, 5, 5], [15, 10, 11, 12], "17.6");
    check_armies(&s, CAMPAIGN, &[("BR_fleet", 1)], "17.6");
    check_pawns(&s, "at_start", "at_start", "at_start", "0", "17.6");
    assert_eq!(
        cards(&s, "hand.RU"),
        vec!["alexander", "kutuzov"],
        "Kutuzov goes to Russia"
    );
    assert!(cards(&s, "removed").is_empty());
    assert_eq!(s["zones"]["deck"]["count"], 65);
    assert_eq!(
        s["zones"]["situation.deck"]["count"], 30,
        "turns 1-10, decks A, B and C"
    );
    assert_eq!(
        s["tracks"]["diplomacy"]["pawn.first_player"], "table",
        "the gold pawn waits on the Negotiation Table"
    );
    let holding = &s["tracks"]["holding"];
    assert_eq!(
        (
            holding["generalissimo.RU"].clone(),
            holding["generalissimo.AU"].clone()
        ),
        (json!("pool.RU"), json!("pool.AU"))
    );
    assert_eq!(s["vars"]["first_turn_double_retreat"], true);
}

#[test]
fn lutzen_bautzen_18_4() {
    let s = start("lutzen-bautzen", &[]);
    assert_eq!(s["turn"], 2);
    assert_eq!(
        (
            s["counters"]["vp.BR"].clone(),
            s["counters"]["vp.FR"].clone(),
            s["counters"]["vp.RU"].clone()
        ),
        (json!(10), json!(10), json!(18))
    );
    check_armies(&s, SPRING_1813, &[("BR_fleet", 2)], "18.4");
    assert_eq!(
        s["seats"],
        json!({"BR": "human", "FR": "human", "RU": "human"}),
        "no Austrian seat"
    );
    assert_eq!(s["zones"]["situation.deck"]["cards"], json!(["intr_2"]));
    assert!(
        s["tracks"]["diplomacy"].get("issue.armistice").is_none(),
        "the Armistice is not available"
    );
    assert_eq!(s["vars"]["seating"], "solo");
}

#[test]
fn a_seating_that_does_not_exist_is_refused_with_the_list() {
    let scratch = tempfile::tempdir().expect("scratch");
    let save = scratch.path().join("game.ron");
    let module = repo_root().join("modules/cov");
    let args = [
        "chancery",
        "--no-overlay",
        "new",
        module.to_str().expect("utf-8"),
        "--option",
        "seating=five-players",
        "--out",
        save.to_str().expect("utf-8"),
    ];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = run(args.iter().map(Into::into), &mut out, &mut err);
    assert!(matches!(outcome, Outcome::Exit(1)));
    let err = String::from_utf8(err).expect("utf-8");
    assert!(
        err.contains(
            "option 'seating' takes four-players, two-players, three-players, solo-vs-allied-bot, solo-vs-french-bot, solo-allied-power, solo-fog-of-war or solo, not 'five-players'"
        ),
        "{err}"
    );
}

#[test]
fn an_owners_counter_mix_fills_the_force_pools() {
    let scratch = tempfile::tempdir().expect("scratch");
    let overlay = scratch.path().join("cov.ron");
    std::fs::write(
        &overlay,
        r#"Overlay(module: "cov", tables: {"counter_mix": {"FR": 40, "RU": 30}, "military_support_markers": {"RU": 2}})"#,
    )
    .expect("write overlay");
    let options = chancery_core::LoadOptions {
        overlay: chancery_core::OverlayChoice::File(overlay),
        strict: false,
    };
    let module = std::sync::Arc::new(
        chancery_core::load_module(repo_root().join("modules/cov"), &options).expect("loads"),
    );
    let session =
        chancery_core::start_game(module, chancery_core::GameSpec::new("clash-of-armies", 1))
            .expect("starts");
    let table = session.table();
    // Clash places 13 + 7 + 5 + 4 + 1 + 3 = 33 French units, and 8 + 3 = 11 Russian.
    assert_eq!(table.units(&"pool.FR".into(), &"FR".into()), Ok(40 - 33));
    assert_eq!(table.units(&"pool.RU".into(), &"RU".into()), Ok(30 - 11));
    assert_eq!(
        table.units(&"supports.RU".into(), &"RU_support".into()),
        Ok(2)
    );
    assert_eq!(
        table.units(&"pool.AU".into(), &"AU".into()),
        Ok(0),
        "Austria's total is still not entered"
    );
}
