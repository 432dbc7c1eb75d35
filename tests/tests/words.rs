//! Names, not ids, wherever a person reads: the prompts, the action labels and the log of a
//! long Congress of Vienna game and of a Napoleon: Aftermath game hold no raw id of the
//! module's data (a seat's code such as "FR", a card's id such as "kaiser_franz", a zone's
//! such as "hand.FR"); and the solitaire bots' reasons cite the Playbook's rule numbers and
//! say an option by its words, never a line of the source ("L1490") or an option's key.

use std::collections::BTreeSet;
use std::sync::Arc;

use chancery_core::module::{LoadOptions, Module, OverlayChoice};
use chancery_core::{GameSpec, Session};
use chancery_tests::{Picker, random_walk, repo_root};

/// The ids of `module`'s data that read as ids, not words: with a dot, an underscore or a
/// digit, a seat's code (all capitals), or a lower-case id whose thing is named the same
/// but capitalised ("talleyrand" for "Talleyrand").
fn raw_ids(module: &Module) -> BTreeSet<String> {
    // A code that is also a word of the game's names ("US" in "US Military Operation") is
    // a word.
    let named: BTreeSet<String> = (module.cards.iter().map(|c| c.name.clone()))
        .chain(module.zones.iter().map(|z| z.name.clone()))
        .chain(module.pieces.iter().map(|p| p.name.clone()))
        .chain(module.unit_kinds.iter().map(|k| k.name.clone()))
        .flat_map(|n| n.split(' ').map(str::to_owned).collect::<Vec<_>>())
        .collect();
    let mut ids = BTreeSet::new();
    let mut consider = |id: &str, name: &str| {
        let looks_raw = id.contains(['.', '_'])
            || id.chars().any(|c| c.is_ascii_digit())
            || (id.len() <= 3 && id.chars().all(|c| c.is_ascii_uppercase()))
            || (id != name && id.eq_ignore_ascii_case(name));
        if looks_raw && id.len() > 1 && !named.contains(id) {
            ids.insert(id.to_owned());
        }
    };
    for c in module.cards.iter() {
        consider(c.id.as_str(), &c.name);
    }
    for z in module.zones.iter() {
        consider(z.id.as_str(), &z.name);
    }
    for p in module.pieces.iter() {
        consider(p.id.as_str(), &p.name);
    }
    for s in module.seats.iter() {
        consider(s.id.as_str(), &s.name);
    }
    for b in module.boxes.iter() {
        consider(b.id.as_str(), &b.name);
    }
    for c in module.counters.iter() {
        consider(c.id.as_str(), &c.name);
    }
    for k in module.unit_kinds.iter() {
        consider(k.id.as_str(), &k.name);
    }
    ids.extend(
        module
            .rules
            .bots
            .iter()
            .filter(|b| b.contains('_'))
            .cloned(),
    );
    ids
}

/// The raw ids `text` holds as whole words.
fn ids_in<'a>(text: &str, ids: &'a BTreeSet<String>) -> Vec<&'a str> {
    let words: BTreeSet<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map(|w| w.trim_end_matches('.'))
        .collect();
    ids.iter()
        .filter(|id| words.contains(id.as_str()))
        .map(String::as_str)
        .collect()
}

/// Every text of `session` a person reads now: the prompt's text and action labels.
fn prompt_texts(session: &Session) -> Vec<String> {
    let mut texts = Vec::new();
    if let Ok(Some(prompt)) = session.prompt() {
        texts.push(prompt.text.clone());
        for ask in &prompt.asks {
            texts.extend(ask.actions.iter().map(|a| a.label.clone()));
        }
    }
    texts
}

/// Plays `inputs` random inputs of `scenario` and returns every raw id met, with where.
fn raw_ids_met(module: Arc<Module>, scenario: &str, inputs: usize, seed: u64) -> Vec<String> {
    let ids = raw_ids(&module);
    let mut session =
        chancery_core::start_game(module.clone(), GameSpec::new(scenario, seed)).expect("starts");
    let mut found = Vec::new();
    let mut picker = Picker::new(seed);
    for step in 0..inputs {
        for text in prompt_texts(&session) {
            for id in ids_in(&text, &ids) {
                found.push(format!("input {step}, prompt: '{id}' in \"{text}\""));
            }
        }
        if random_walk(&mut session, &mut picker, 1).expect("plays") == 0 {
            break;
        }
    }
    for entry in session.log() {
        let heading = entry.heading(&module);
        for text in std::iter::once(heading).chain(entry.messages.iter().map(|l| l.text.clone())) {
            for id in ids_in(&text, &ids) {
                found.push(format!("log #{}: '{id}' in \"{text}\"", entry.index));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

fn with_fixture(dir: &std::path::Path) -> Arc<Module> {
    let options = LoadOptions {
        overlay: OverlayChoice::Demo,
        strict: false,
    };
    Arc::new(chancery_core::load_module(dir, &options).expect("loads"))
}

/// Plays `inputs` random inputs of `scenario` and fails with every raw id met.
fn assert_speaks_in_names(module: Arc<Module>, scenario: &str, inputs: usize, seed: u64) {
    let found = raw_ids_met(module, scenario, inputs, seed);
    assert!(
        found.is_empty(),
        "{} raw ids:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn a_clash_of_armies_game_speaks_in_names() {
    let module = with_fixture(&repo_root().join("modules/cov"));
    assert_speaks_in_names(module, "clash-of-armies", 200, 5);
}

#[test]
fn an_aftermath_game_speaks_in_names() {
    let module = chancery_tests::load(&repo_root().join("modules/aftermath"));
    assert_speaks_in_names(module, "standard", 200, 5);
}

#[test]
fn a_congress_of_vienna_start_without_the_owner_s_values_speaks_in_names() {
    let module = chancery_tests::load(&repo_root().join("modules/cov"));
    assert_speaks_in_names(module, "napoleon-resurgent", 30, 2);
}

/// Citations of a line of the source ("L1490", "L1502-L1507"), which a player cannot look
/// up: the rule's number says where.
fn source_lines_in(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for (i, c) in chars.iter().enumerate() {
        let starts_word = i == 0 || !chars[i - 1].is_alphanumeric();
        let digits = chars[i + 1..]
            .iter()
            .take_while(|d| d.is_ascii_digit())
            .count();
        let ends_word = chars
            .get(i + 1 + digits)
            .is_none_or(|c| !c.is_alphanumeric());
        if *c == 'L' && starts_word && (2..=4).contains(&digits) && ends_word {
            found.push(chars[i..=i + digits].iter().collect());
        }
    }
    found
}

/// Whether `text` names chart cell `key` as a word of its own ("row AU/1:", not "GAU/12").
fn cell_key_in(text: &str, key: &str) -> bool {
    text.match_indices(key).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + key.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

/// A Congress of Vienna solitaire game of `seating`, the given seats played by their bots
/// and the others at random, `inputs` long: every prompt, log line and bot reason that cites
/// a line of the source, names an option by its key or a chart's row by its cell's key.
fn citations_met(seating: &str, bots: &[(&str, &str)], inputs: usize, seed: u64) -> Vec<String> {
    let module = with_fixture(&repo_root().join("modules/cov"));
    let mut spec = GameSpec::new("napoleon-resurgent", seed);
    spec.options = chancery_core::Value::parse_arg(&format!("{{\"seating\": \"{seating}\"}}"));
    for (seat, bot) in bots {
        spec.seats.insert(
            chancery_core::SeatId::from(*seat),
            chancery_core::Controller::Bot((*bot).to_owned()),
        );
    }
    let keys: Vec<String> = module.options.iter().map(|o| o.key.clone()).collect();
    // The keys of the bots' chart cells ("AU/1", "other/1/active"): a player reads a row as
    // the printed chart names it ("20.4, Austria's row 1").
    let cells: std::collections::BTreeSet<String> = module
        .tables
        .iter()
        .filter(|t| t.chart.is_some())
        .flat_map(|t| t.entries.keys().filter(|k| k.contains('/')).cloned())
        .collect();
    let mut session = chancery_core::start_game(module.clone(), spec).expect("starts");
    let mut picker = Picker::new(seed);
    let mut texts = Vec::new();
    for _ in 0..inputs {
        session.run_bots(10_000).expect("the bots play");
        texts.extend(prompt_texts(&session));
        if random_walk(&mut session, &mut picker, 1).expect("plays") == 0 {
            break;
        }
    }
    for entry in session.log() {
        texts.push(entry.heading(&module));
        texts.extend(entry.reason.iter().cloned());
        texts.extend(entry.messages.iter().map(|l| l.text.clone()));
    }
    let reasons: usize = session.log().iter().map(|e| e.reason.len()).sum();
    assert!(reasons > 20, "the bots gave {reasons} reasons");
    let mut found: Vec<String> = texts
        .iter()
        .flat_map(|text| {
            let lines = source_lines_in(text).into_iter();
            let options = keys
                .iter()
                .filter(|k| k.contains('.') && text.contains(k.as_str()))
                .cloned();
            let cells = cells.iter().filter(|k| cell_key_in(text, k)).cloned();
            lines
                .chain(options)
                .chain(cells)
                .map(move |cited| format!("'{cited}' in \"{text}\""))
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_solitaire_bots_cite_rules_and_options_in_words() {
    assert_eq!(
        source_lines_in("20 (best judgment, L1490): L1502-L1507"),
        ["L1490", "L1502", "L1507"]
    );
    assert!(source_lines_in("Lützen, L'Orient, 20.4, row 1").is_empty());
    assert!(cell_key_in("20.4, row AU/1: not offered", "AU/1"));
    assert!(!cell_key_in("20.4, row AU/12", "AU/1"));
    let allied = [
        ("RU", "allied_bot"),
        ("AU", "allied_bot"),
        ("BR", "allied_bot"),
    ];
    let french = [("FR", "french_bot")];
    let mut found = citations_met("solo-vs-allied-bot", &allied, 150, 3);
    found.extend(citations_met("solo-vs-french-bot", &french, 150, 4));
    assert!(
        found.is_empty(),
        "{} citations:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// Every key and value of a module's view (the Standings panel and the report's
/// Standings), in the words the app and the report give them, that is an id.
fn standings_ids(module: Arc<Module>, scenario: &str, inputs: usize, seed: u64) -> Vec<String> {
    fn walk(module: &Module, value: &chancery_core::Value, out: &mut Vec<String>) {
        use chancery_core::Value;
        match value {
            Value::Map(map) => {
                for (k, v) in map {
                    out.push(module.words_of(k));
                    walk(module, v, out);
                }
            }
            Value::List(items) => items.iter().for_each(|v| walk(module, v, out)),
            other => out.push(module.value_words(other)),
        }
    }
    let ids = raw_ids(&module);
    let mut session =
        chancery_core::start_game(module.clone(), GameSpec::new(scenario, seed)).expect("starts");
    let mut picker = Picker::new(seed);
    let mut found = Vec::new();
    for step in 0..inputs {
        let mut texts = Vec::new();
        let seats: Vec<Option<chancery_core::SeatId>> = std::iter::once(None)
            .chain(module.seats.iter().map(|s| Some(s.id.clone())))
            .collect();
        for seat in &seats {
            if let Ok(view) = session.view_data(seat.as_ref()) {
                walk(&module, &view, &mut texts);
            }
        }
        for text in texts {
            for id in ids_in(&text, &ids) {
                found.push(format!("input {step}: '{id}' in \"{text}\""));
            }
        }
        if random_walk(&mut session, &mut picker, 1).expect("plays") == 0 {
            break;
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn every_module_s_standings_name_what_they_count() {
    let mut found = Vec::new();
    for (name, inputs) in [
        ("cov", 60),
        ("aftermath", 60),
        ("warpeace", 40),
        ("guerre", 40),
        ("campaign", 40),
    ] {
        let module = with_fixture(&repo_root().join("modules").join(name));
        let scenario = module.default_scenario().expect("a default").id.to_string();
        found.extend(
            standings_ids(module, &scenario, inputs, 3)
                .into_iter()
                .map(|f| format!("{name}: {f}")),
        );
    }
    assert!(
        found.is_empty(),
        "{} ids:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_demo_leaves_out_the_player_aid_s_victory_point_items_and_says_so() {
    // Lützen & Bautzen with the demo's values, played at random to its second turn: the End
    // of Turn scores the Playbook's items and, having no player aid, leaves out the by-hand
    // step (which asked to score "the player aid's other items" with +1 and -1 buttons).
    let module = with_fixture(&repo_root().join("modules/cov"));
    let mut session =
        chancery_core::start_game(module, GameSpec::new("lutzen-bautzen", 4)).expect("starts");
    let mut picker = Picker::new(4);
    let first = session.table().turn;
    for _ in 0..3000 {
        if session.table().turn > first {
            break;
        }
        if let Ok(Some(prompt)) = session.prompt() {
            assert_ne!(prompt.state, "vp_summary", "the demo asks no VP by hand");
        }
        if random_walk(&mut session, &mut picker, 1).expect("plays") == 0 {
            break;
        }
    }
    let said = session.log().iter().any(|e| {
        e.messages.iter().any(|l| {
            l.text.starts_with(
                "Demo: the player aid's other Victory Point Summary items are left out",
            )
        })
    });
    assert!(
        said,
        "the End of Turn was reached (turn {}) and said what it left out",
        session.table().turn
    );
}

#[test]
fn every_module_s_card_faces_name_what_they_say() {
    // What a card's panel, its face on the board and its tooltip print: each field's value
    // in the words of `Module::value_words` (Aftermath's "Countries: germany, poland" and
    // "Powers: BR, FR" were ids).
    let mut found = Vec::new();
    for name in ["cov", "aftermath", "warpeace", "guerre", "campaign"] {
        let module = with_fixture(&repo_root().join("modules").join(name));
        let ids = raw_ids(&module);
        for card in module.cards.iter() {
            for (field, value) in &card.fields {
                let Some(value) = value.known() else { continue };
                let text = module.value_words(value);
                for id in ids_in(&text, &ids) {
                    found.push(format!("{name}: {} {field}: '{id}' in \"{text}\"", card.id));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} ids:\n{}",
        found.len(),
        found.join("\n")
    );
}
