//! Congress of Vienna's solitaire seatings (Playbook 19-23), end to end: every seating of the
//! Clash of Armies and of Napoleon Resurgent plays to a result with each seat's default bot
//! (the French bot against the Allied bot in 20, 21 and 22, the stand-in in 23; no bot is
//! named), and the bots' charts kept as data name exactly the conditions and words the bots
//! implement.

use std::collections::BTreeSet;

use chancery_core::module::{FieldType, LoadOptions, OverlayChoice};
use chancery_core::sim::{SimConfig, simulate};
use chancery_core::{Module, Value};
use chancery_tests::repo_root;

/// The module with the test fixture of owner data.
fn cov_with_fixture() -> std::sync::Arc<Module> {
    let dir = repo_root().join("modules/cov");
    let options = LoadOptions {
        overlay: OverlayChoice::File(dir.join("tests/owner-fixture.ron")),
        strict: false,
    };
    match chancery_core::load_module(&dir, &options) {
        Ok(module) => std::sync::Arc::new(module),
        Err(diagnostics) => panic!("modules/cov does not load:\n{diagnostics}"),
    }
}

/// Set-up options as a game's options value.
fn options_value(options: &[(&str, &str)]) -> Value {
    let mut map = Value::map();
    if let Value::Map(m) = &mut map {
        for (k, v) in options {
            m.insert((*k).to_owned(), Value::Str((*v).to_owned()));
        }
    }
    map
}

#[test]
fn every_solitaire_seating_plays_to_a_result_with_its_default_bots() {
    // 20 games of each seating of two scenarios, two threads; a game that fails, stops
    // unfinished, asks a person or (with the Playbook's bots, the module's check after every
    // input) breaks one of the rules' invariants is a failure. No seat names a bot: the module's default
    // bots for the seating play them.
    let module = cov_with_fixture();
    let seatings: [&[(&str, &str)]; 4] = [
        &[("seating", "solo-vs-allied-bot")],
        &[("seating", "solo-vs-french-bot")],
        &[("seating", "solo-allied-power"), ("human", "AU")],
        &[("seating", "solo-fog-of-war")],
    ];
    for scenario in ["clash-of-armies", "napoleon-resurgent"] {
        for options in seatings {
            let config = SimConfig {
                options: options_value(options),
                max_steps: 20_000,
                threads: 2,
                // With the Playbook's bots (20, 21, 22), the module's check after every input:
                // none of their decisions may break one of the rules' invariants.
                check: !options.contains(&("seating", "solo-fog-of-war")),
                ..SimConfig::new(scenario, 20, 1)
            };
            let report = simulate(module.clone(), &config, &|_| {})
                .unwrap_or_else(|err| panic!("{scenario} {options:?}: {err}"));
            assert_eq!(report.outcomes.len(), 20, "{scenario} {options:?}");
            for game in &report.outcomes {
                assert!(
                    game.error.is_none() && game.winners.is_some(),
                    "{scenario} {options:?}, seed {}: {:?}",
                    game.seed,
                    game.error
                );
            }
        }
    }
}

#[test]
fn bot_only_play_reaches_every_step_of_the_allied_and_french_bots() {
    // The Playbook's bots (20.1-20.11, 21.1-21.10, with the fixture's chart rows), played
    // against each other in every scenario and solitaire seating that has them: every step
    // of their flowcharts is taken in some game. The one step no game of bots can take is
    // 21.11's: the Victory Point Summary is asked of the table, not of a seat, and a game of
    // bots alone has it answered by the Allied bot (20.12).
    let module = cov_with_fixture();
    let seatings: [&[(&str, &str)]; 3] = [
        &[("seating", "solo-vs-allied-bot")],
        &[("seating", "solo-vs-french-bot")],
        &[("seating", "solo-allied-power"), ("human", "AU")],
    ];
    let mut reached: std::collections::BTreeMap<(String, String), (String, u64)> =
        std::collections::BTreeMap::new();
    for scenario in [
        "napoleon-resurgent",
        "clash-of-armies",
        "liberation-war",
        "desperate-times",
        "full-campaign",
    ] {
        for options in seatings {
            let config = SimConfig {
                options: options_value(options),
                max_steps: 20_000,
                threads: 2,
                ..SimConfig::new(scenario, 20, 1)
            };
            let report = simulate(module.clone(), &config, &|_| {})
                .unwrap_or_else(|err| panic!("{scenario} {options:?}: {err}"));
            for step in chancery_core::sim::coverage::steps(&module, &report.bot_rules()) {
                let entry = reached
                    .entry((step.bot.clone(), step.step.clone()))
                    .or_insert((step.at.clone(), 0));
                entry.1 += step.reached;
            }
        }
    }
    let never: Vec<String> = reached
        .iter()
        .filter(|(_, (_, n))| *n == 0)
        .map(|((bot, step), (at, _))| format!("{bot}: {step} ({at})"))
        .filter(|s| !s.starts_with("french_bot: 21.11 "))
        .collect();
    assert!(
        reached.keys().any(|(bot, _)| bot == "allied_bot")
            && reached.keys().any(|(bot, _)| bot == "french_bot"),
        "both bots played"
    );
    assert!(never.is_empty(), "never reached: {never:#?}");
}

#[test]
fn the_chart_conditions_are_the_bots_vocabulary() {
    // Every condition column of the two bots' charts lists exactly the conditions of
    // bots/lib/conditions.lua (each with its words and its test), so that an owner can
    // enter no condition the bots cannot read.
    let module = cov_with_fixture();
    let dir = repo_root().join("modules/cov");
    let text = std::fs::read_to_string(dir.join("bots/lib/conditions.lua")).expect("read");
    let start = text.find("conditions.LIST = {").expect("the list");
    let vocabulary: BTreeSet<String> = text[start..]
        .lines()
        .skip(1)
        .take_while(|line| !line.starts_with('}'))
        .filter_map(|line| {
            let line = line.strip_prefix("  ")?;
            let (name, _) = line.split_once(" = {")?;
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c == '_')
                .then(|| name.to_owned())
        })
        .collect();
    assert!(
        vocabulary.contains("ask") && vocabulary.len() > 5,
        "{vocabulary:?}"
    );
    let mut columns = 0;
    for table in module.tables.iter() {
        let Some(chart) = &table.chart else { continue };
        if !table.id.ends_with("_condition") {
            continue;
        }
        let FieldType::OneOf(options) = &table.kind else {
            panic!("table {} is not a list of conditions", table.id);
        };
        let listed: BTreeSet<String> = options.iter().cloned().collect();
        assert_eq!(listed, vocabulary, "table {} ({})", table.id, chart.bot);
        columns += 1;
    }
    assert_eq!(columns, 5, "the condition columns of both charts");
}

#[test]
fn each_bot_s_chart_rows_are_its_vocabulary() {
    // Every action column of the French bot's chart (section 21) and the Allied bot's (section
    // 20) lists exactly the words its script reads (VOCABULARY in bots/french_bot.lua and
    // bots/allied_bot.lua), so that an owner copying the printed chart can enter no row the
    // bot cannot carry out.
    let module = cov_with_fixture();
    for (bot, least) in [("french_bot", 10), ("allied_bot", 8)] {
        chart_rows_are_the_vocabulary(&module, bot, least);
    }
}

fn chart_rows_are_the_vocabulary(module: &Module, bot: &str, least: usize) {
    let text = std::fs::read_to_string(repo_root().join(format!("modules/cov/bots/{bot}.lua")))
        .expect("read the bot");
    let start = text.find("local VOCABULARY = {").expect("the vocabulary");
    let mut vocabulary = std::collections::BTreeMap::new();
    for line in text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('}'))
    {
        let Some((table, words)) = line.trim().split_once(" = {") else {
            continue;
        };
        let words: BTreeSet<String> = words
            .trim_end_matches([' ', '}', ','])
            .split(',')
            .map(|w| w.trim().trim_matches('"').to_owned())
            .filter(|w| !w.is_empty())
            .collect();
        vocabulary.insert(table.to_owned(), words);
    }
    assert!(vocabulary.len() >= least, "{bot}: {vocabulary:?}");
    for (id, words) in &vocabulary {
        let table = module
            .tables
            .get(id.as_str())
            .unwrap_or_else(|| panic!("{bot} reads table {id}, which the module lacks"));
        let FieldType::OneOf(options) = &table.kind else {
            panic!("table {id} is not a list of the bot's words");
        };
        let listed: BTreeSet<String> = options.iter().cloned().collect();
        assert_eq!(&listed, words, "table {id}");
        assert!(
            words.contains("none"),
            "table {id}: a row past the chart's end"
        );
    }
    // And no chart table of the bot is left as free text for it to read (a table of a
    // row's printed words, "…_words", is for the players at the table, not the bot).
    for table in module.tables.iter() {
        if table.chart.as_ref().is_some_and(|c| c.bot == bot) && !table.id.ends_with("_words") {
            assert!(
                !matches!(table.kind, FieldType::Text),
                "table {} is still free text",
                table.id
            );
        }
    }
}

#[test]
fn a_four_power_scenario_s_bot_only_game_is_the_french_bot_against_the_allied_bot() {
    // With no options, a bot-only game of a four-power scenario takes its scenario's
    // bot_options (section 20's seating): the French bot plays France and the Allied bot the
    // Coalition. An option given wins over the scenario's: the four-player seating keeps
    // the stand-in.
    let module = cov_with_fixture();
    let run = |options: &[(&str, &str)]| {
        let config = SimConfig {
            options: options_value(options),
            max_steps: 20_000,
            ..SimConfig::new("clash-of-armies", 2, 1)
        };
        let spec = config.spec(&module, 0).expect("a game's spec");
        let report = simulate(module.clone(), &config, &|_| {}).expect("the games run");
        assert!(
            report
                .outcomes
                .iter()
                .all(|o| o.error.is_none() && o.winners.is_some()),
            "{options:?}"
        );
        let bots: Vec<String> = ["FR", "RU", "AU", "BR"]
            .iter()
            .map(|seat| format!("{:?}", spec.seats[*seat]))
            .collect();
        (spec.options.get("seating").cloned(), bots)
    };
    let bot = |name: &str| format!("{:?}", chancery_core::Controller::Bot(name.into()));
    let (seating, bots) = run(&[]);
    assert_eq!(seating, Some(Value::Str("solo-vs-allied-bot".into())));
    assert_eq!(
        bots,
        [
            bot("french_bot"),
            bot("allied_bot"),
            bot("allied_bot"),
            bot("allied_bot")
        ]
    );
    let (seating, bots) = run(&[("seating", "four-players")]);
    assert_eq!(seating, Some(Value::Str("four-players".into())));
    assert_eq!(bots, vec![bot("standin"); 4]);
}

#[test]
fn lutzen_bautzen_plays_the_same_games_whether_anyone_reads_the_labels_or_not() {
    // A simulation plays unwatched (`ctx.watched` false), and the rules then leave out the
    // sums in the labels of card plays; `--watched` plays as at the table. The games, the
    // bots' steps and the cards chosen must be the same.
    let module = cov_with_fixture();
    let run = |watched: bool| {
        let config = SimConfig {
            max_steps: 20_000,
            watched,
            ..SimConfig::new("lutzen-bautzen", 3, 11)
        };
        let report = simulate(module.clone(), &config, &|_| {}).expect("the games run");
        report
            .outcomes
            .into_iter()
            .map(|mut o| {
                assert!(o.error.is_none() && o.winners.is_some(), "{:?}", o.error);
                (o.bot_nanos, o.nanos) = (0, 0);
                serde_json::to_string(&o).expect("serialises")
            })
            .collect::<Vec<String>>()
    };
    assert_eq!(run(false), run(true));
}

/// Lützen & Bautzen against the Playbook's French bot (18.4.7.7): France lays its military
/// cards face down, so the Allied seats read only that cards are laid, never which, nor the
/// bot's reasons (its reasons name the cards), until the reveal shows every side's cards.
#[test]
fn the_french_bot_s_battle_cards_stay_face_down_until_the_reveal() {
    use chancery_core::session::log_read_by;
    use chancery_core::{Controller, GameSpec, SeatId};
    let module = cov_with_fixture();
    let mut laid = 0;
    for seed in 1..=12 {
        let mut spec = GameSpec::new("lutzen-bautzen", seed);
        spec.seats.insert(
            SeatId::from("FR"),
            Controller::Bot("lutzen_france".to_owned()),
        );
        let mut session = chancery_core::start_game(module.clone(), spec).expect("starts");
        let mut picker = chancery_tests::Picker::new(seed);
        for _ in 0..3_000 {
            if session.table().result.is_some() {
                break;
            }
            session.run_bots(10_000).expect("the bot plays");
            if chancery_tests::random_walk(&mut session, &mut picker, 1).expect("plays") == 0 {
                break;
            }
        }
        let log = session.log();
        let everything = log_read_by(&log, None);
        for seat in ["RU", "BR"] {
            let seen = log_read_by(&log, Some(&SeatId::from(seat)));
            for (at, entry) in &everything {
                if !entry.input.starts_with("FR: lay ") {
                    continue;
                }
                laid += 1;
                let (_, theirs) = seen
                    .iter()
                    .find(|(n, _)| n == at)
                    .expect("the Allies read that France laid a card");
                assert_eq!(theirs.input, "FR: lays military cards face down");
                assert!(
                    theirs.reason.is_empty() && theirs.label.is_none(),
                    "{theirs:?}"
                );
                let card = entry.label.clone().unwrap_or_default();
                for line in &theirs.messages {
                    assert!(!line.text.contains("face down."), "{line:?}");
                }
                assert!(!card.is_empty(), "{entry:?}");
            }
        }
    }
    assert!(
        laid > 0,
        "no game reached a battle in which France laid a card"
    );
}

#[test]
fn a_game_counts_its_bots_decisions_by_kind_and_the_steps_the_rules_take_alone() {
    use chancery_core::sim::{SimConfig, simulate};
    // Lützen & Bautzen, bot against bot: most decisions are choices, some have one action.
    let module = cov_with_fixture();
    let config = SimConfig {
        max_steps: 20_000,
        ..SimConfig::new("lutzen-bautzen", 3, 1)
    };
    // Counted by hand, decision by decision: one legal action is forced, more a choice.
    let spec = config.spec(&module, 0).expect("a spec");
    let mut session = chancery_core::start_game(module.clone(), spec).expect("starts");
    let (mut forced, mut chosen) = (0, 0);
    while let Some(prompt) = session.prompt().clone().expect("a prompt") {
        let ask = prompt.asks.first().expect("someone is asked");
        if ask.actions.len() == 1 {
            forced += 1;
        } else {
            chosen += 1;
        }
        assert!(session.bot_step().expect("a bot answers").is_some());
    }
    let counted = session.bot_decisions();
    assert_eq!((counted.forced, counted.chosen), (forced, chosen));
    assert!(chosen > 0 && forced > 0, "both kinds: {counted:?}");
    assert_eq!(
        (forced + chosen) as usize,
        session.history().len(),
        "every input of a game of bots is a bot's decision"
    );
    assert!(
        session.automatic_steps() > 0,
        "the rules run steps of their own"
    );

    // A simulation of the same games adds them up.
    let report = simulate(module.clone(), &config, &|_| {}).expect("the games run");
    let timing = report.timing();
    let first = &report.outcomes[0];
    assert_eq!((first.forced, first.chosen), (forced, chosen));
    assert_eq!(first.automatic, session.automatic_steps());
    let sum = |f: fn(&chancery_core::sim::GameOutcome) -> u64| -> u64 {
        report.outcomes.iter().map(f).sum()
    };
    assert_eq!(timing["forced_decisions"], sum(|o| o.forced));
    assert_eq!(timing["chosen_decisions"], sum(|o| o.chosen));
    assert_eq!(timing["automatic_steps"], sum(|o| o.automatic));
    assert_eq!(
        timing["decisions"],
        sum(|o| o.forced + o.chosen),
        "bots answer every decision of a game of bots"
    );
}

#[test]
fn every_bot_game_played_in_a_reused_vm_ends_as_in_a_new_one() {
    use chancery_core::sim::Verify;
    // A simulation's VM plays game after game without running the scripts again; here every
    // such game is played again in a new VM (Verify::All), for the introductory scenario and
    // each seating of the four-power one: a bot or a rule that kept something from one game
    // to the next would end a game otherwise, and the simulation would stop with its seed.
    let module = cov_with_fixture();
    let runs: [(&str, &[(&str, &str)]); 5] = [
        ("lutzen-bautzen", &[]),
        ("clash-of-armies", &[]),
        ("clash-of-armies", &[("seating", "solo-vs-allied-bot")]),
        ("clash-of-armies", &[("seating", "solo-vs-french-bot")]),
        (
            "clash-of-armies",
            &[("seating", "solo-allied-power"), ("human", "AU")],
        ),
    ];
    for (scenario, options) in runs {
        let config = SimConfig {
            options: options_value(options),
            max_steps: 20_000,
            verify: Verify::All,
            ..SimConfig::new(scenario, 3, 7)
        };
        let report = simulate(module.clone(), &config, &|_| {})
            .unwrap_or_else(|err| panic!("{scenario} {options:?}: {err}"));
        assert_eq!(report.outcomes.len(), 3, "{scenario} {options:?}");
        for game in &report.outcomes {
            assert!(
                !game.failed && game.error.is_none(),
                "{scenario} {options:?}: {:?}",
                game.error
            );
        }
    }
}
