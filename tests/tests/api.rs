//! The Lua API: the testbed module's tests call every `ctx` function, the committed API
//! reference and type stubs match the registry, and random play (the fuzz smoke test)
//! never breaks a module's rules.

use std::path::Path;
use std::sync::Arc;

use chancery_core::devtools::testing::run_module_tests;
use chancery_core::devtools::{api_reference_markdown, luals_stubs};
use chancery_core::{GameSpec, Value};
use chancery_tests::{Picker, load, random_walk, repo_root, test_module};

#[test]
fn the_testbed_tests_pass_and_call_every_api_function() {
    let report = run_module_tests(load(&test_module("testbed")), None).expect("tests run");
    let failures: Vec<_> = report
        .results
        .iter()
        .filter_map(|r| r.failure.as_ref())
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(report.results.len(), 32);
    let unused: Vec<_> = report
        .api_calls
        .iter()
        .filter(|(_, n)| **n == 0)
        .map(|(name, _)| *name)
        .collect();
    assert!(
        unused.is_empty(),
        "API functions no test module calls: {unused:?}"
    );
    assert_eq!(report.api_calls.len(), 43, "{:?}", report.api_calls.keys());
}

fn compare_committed(path: &Path, generated: &str) {
    if std::env::var_os("UPDATE_API_DOCS").is_some() {
        std::fs::write(path, generated).expect("write");
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: run `UPDATE_API_DOCS=1 cargo test -p chancery-tests --test api` and commit it",
        path.display()
    );
}

#[test]
fn the_committed_api_reference_is_current() {
    compare_committed(
        &repo_root().join("docs/lua-api.md"),
        &api_reference_markdown(),
    );
}

#[test]
fn the_committed_type_stubs_are_current() {
    compare_committed(&repo_root().join("scripts/chancery.d.lua"), &luals_stubs());
}

#[test]
fn random_play_never_breaks_the_testbed() {
    let module = load(&test_module("testbed"));
    for seed in 0..40 {
        for scenario in ["basic", "mystery"] {
            let mut session =
                chancery_core::start_game(module.clone(), GameSpec::new(scenario, seed))
                    .expect("starts");
            session.check_every_step = true;
            let mut picker = Picker::new(seed * 31 + 7);
            random_walk(&mut session, &mut picker, 200)
                .unwrap_or_else(|e| panic!("{scenario} seed {seed}: {e}"));
            assert!(session.warnings.is_empty(), "{:?}", session.warnings);
        }
    }
}

/// Every module in `modules/` passes its own Lua tests.
#[test]
fn every_module_passes_its_own_tests() {
    let mut ran = 0;
    for entry in std::fs::read_dir(repo_root().join("modules"))
        .expect("modules/")
        .flatten()
    {
        if !entry.path().join("module.ron").exists() {
            continue;
        }
        let report = run_module_tests(load(&entry.path()), None).expect("tests run");
        let failures: Vec<_> = report
            .results
            .iter()
            .filter(|r| r.failure.is_some())
            .collect();
        assert!(
            failures.is_empty(),
            "{}: {failures:#?}",
            entry.path().display()
        );
        assert!(
            !report.results.is_empty(),
            "{} has no tests",
            entry.path().display()
        );
        ran += 1;
    }
    assert!(ran >= 1, "no module found in modules/");
}

/// Congress of Vienna with its test fixture of owner data.
fn cov_with_fixture() -> Arc<chancery_core::Module> {
    let fixture = repo_root().join("modules/cov/tests/owner-fixture.ron");
    chancery_core::load_module(
        repo_root().join("modules/cov"),
        &chancery_core::LoadOptions {
            overlay: chancery_core::OverlayChoice::File(fixture),
            strict: false,
        },
    )
    .map(Arc::new)
    .expect("the fixture loads")
}

#[test]
fn random_play_never_breaks_congress_of_vienna() {
    // With the test fixture's owner data, random play runs through every scenario's
    // Initial and Diplomacy Phases, with four, two and three players (seed by seed); without
    // any overlay a game may stop to ask for a value (at its set-up or later), but never
    // breaks.
    let with_fixture = cov_with_fixture();
    let bare = load(&repo_root().join("modules/cov"));
    for module in [with_fixture, bare] {
        for scenario in module.scenarios.iter() {
            for seed in 0..5 {
                let mut spec = GameSpec::new(scenario.id.clone(), seed);
                let seating = ["", "two-players", "three-players"][(seed % 3) as usize];
                if module.overlay.is_some() && !seating.is_empty() {
                    spec.options = chancery_core::Value::Map(
                        [(
                            "seating".to_owned(),
                            chancery_core::Value::Str(seating.into()),
                        )]
                        .into(),
                    );
                }
                let start = chancery_core::start_game(module.clone(), spec);
                let mut session = match start {
                    Ok(session) => session,
                    Err(err) if err.need().is_some() && module.overlay.is_none() => continue,
                    Err(err) => panic!("{} seed {seed} {seating}: {err}", scenario.id),
                };
                session.check_every_step = true;
                random_walk(&mut session, &mut Picker::new(seed + 11), 200)
                    .unwrap_or_else(|e| panic!("{} seed {seed} {seating}: {e}", scenario.id));
            }
        }
    }
}

/// The engine knows no game: no line of `core/` or `app/` names a module's game.
#[test]
fn the_engine_and_the_app_name_no_game() {
    let words = [
        "congress",
        "vienna",
        "napoleon",
        "metternich",
        "grande_armee",
        "aftermath",
        "waterloo",
        "modules/cov",
    ];
    let mut offending = Vec::new();
    for dir in ["core/src", "app/src"] {
        let mut stack = vec![repo_root().join(dir)];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                stack.extend(
                    std::fs::read_dir(&path)
                        .expect("read folder")
                        .flatten()
                        .map(|e| e.path()),
                );
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&path)
                    .expect("read file")
                    .to_lowercase();
                for (n, line) in text.lines().enumerate() {
                    if let Some(word) = words.iter().find(|w| line.contains(*w)) {
                        offending.push(format!("{}:{}: {word}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(
        offending.is_empty(),
        "game words in the engine or the app:\n{}",
        offending.join("\n")
    );
}

#[test]
fn random_play_never_breaks_napoleon_aftermath() {
    let module = load(&repo_root().join("modules/aftermath"));
    for seed in 0..8 {
        let mut session =
            chancery_core::start_game(module.clone(), GameSpec::new("standard", seed))
                .expect("starts");
        session.check_every_step = true;
        let played = random_walk(&mut session, &mut Picker::new(seed + 3), 400)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(
            session.is_over(),
            "seed {seed}: the game did not end in {played} inputs"
        );
    }
}

/// With the test fixture's owner data, random legal play takes every scenario of Congress
/// of Vienna to its end: no dead end, no script error, no broken invariant (the module's
/// `check` runs after every input). `COV_FUZZ_SEEDS` sets the seeds per scenario (the
/// closing notes quote runs of 200); the seatings turn with the seed.
#[test]
fn random_play_ends_every_cov_scenario() {
    let seeds: u64 = std::env::var("COV_FUZZ_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let module = cov_with_fixture();
    for scenario in module.scenarios.iter() {
        let mut steps = Vec::new();
        for seed in 0..seeds {
            let first = if scenario.id.as_str() == "lutzen-bautzen" {
                "solo"
            } else {
                "four-players"
            };
            let seating = [first, "two-players", "three-players"][(seed % 3) as usize];
            let mut spec = GameSpec::new(scenario.id.clone(), seed);
            spec.options = chancery_core::Value::Map(
                [(
                    "seating".to_owned(),
                    chancery_core::Value::Str(seating.into()),
                )]
                .into(),
            );
            let mut session = chancery_core::start_game(module.clone(), spec)
                .unwrap_or_else(|e| panic!("{} seed {seed} {seating}: {e}", scenario.id));
            session.check_every_step = true;
            let played = random_walk(&mut session, &mut Picker::new(seed + 101), 60_000)
                .unwrap_or_else(|e| panic!("{} seed {seed} {seating}: {e}", scenario.id));
            assert!(
                session.is_over(),
                "{} seed {seed} {seating}: no legal way on after {played} inputs (state {:?})",
                scenario.id,
                session.table().top_frame().map(|f| f.state.clone())
            );
            steps.push(played);
            if std::env::var("COV_FUZZ_VERBOSE").is_ok() {
                let result = session.table().result.clone();
                println!(
                    "{} seed {seed} {seating}: turn {}, {played} inputs, {:?}",
                    scenario.id,
                    session.table().turn,
                    result
                );
            }
        }
        steps.sort_unstable();
        println!(
            "{}: {} games to their end, median {} inputs",
            scenario.id,
            steps.len(),
            steps[steps.len() / 2]
        );
    }
}

/// The physical-board checklist: after the Lützen & Bautzen French bot places a new unit,
/// the list says which unit to move from which box to which, in the module's names, and
/// the list of its undo says the reverse.
#[test]
fn a_bot_step_leaves_a_board_checklist_and_its_undo_the_reverse() {
    use chancery_core::session::board_checklist;
    let module = cov_with_fixture();
    let mut spec = GameSpec::new("lutzen-bautzen", 1);
    for (seat, bot) in [
        ("FR", "lutzen_france"),
        ("RU", "standin_allies"),
        ("BR", "standin_allies"),
    ] {
        spec.seats
            .insert(seat.into(), chancery_core::Controller::Bot(bot.to_owned()));
    }
    let mut session = chancery_core::start_game(module.clone(), spec).expect("starts");
    let mut seen = None;
    for _ in 0..400 {
        let before = session.table().clone();
        let placing = matches!(session.prompt(), Ok(Some(p)) if p.state == "new_units");
        let Some((seat, _)) = session.bot_step().expect("a bot step") else {
            break;
        };
        if placing && seat.as_str() == "FR" {
            seen = Some((before, session.table().clone()));
            break;
        }
    }
    let (before, after) = seen.expect("the French bot places a new unit");
    let forward = board_checklist(&module, &before, &after);
    let moves: Vec<&String> = forward
        .iter()
        .filter(|line| line.starts_with("Move 1 "))
        .collect();
    assert_eq!(moves.len(), 1, "{forward:?}");
    let (head, to) = moves[0].rsplit_once(" to ").expect("to");
    let (what, from) = head.split_once(" from ").expect("from");
    assert!(what.ends_with(" unit"), "{forward:?}");
    assert!(
        module.boxes.iter().any(|b| b.name == from) && module.boxes.iter().any(|b| b.name == to),
        "{forward:?}"
    );
    let backward = board_checklist(&module, &after, &before);
    assert!(
        backward.contains(&format!("{what} from {to} to {from}")),
        "{backward:?}"
    );
}

/// Rules and a bot that each read where Alpha's marker stands, and fail when what
/// `ctx:space_of` says is not where it stands.
const WHERE_IT_STANDS: &str = r#"
local flowchart = include("@lib/flowchart.lua")

local function at(ctx)
  local _, space = ctx:space_of("marker.A")
  return space
end

local function expect(ctx, want, when)
  local place, space = ctx:space_of("marker.A")
  if place ~= "score" or space ~= want then
    error(string.format("%s: ctx:space_of says %s %s, the table score %s", when, tostring(place),
      tostring(space), want))
  end
end

local lab = {}

function lab.prompt(ctx)
  local actions = {}
  for i = 0, 3 do
    actions[#actions + 1] = { name = "step", arg = tostring(i) }
  end
  return { seat = "A", text = "It stands on " .. at(ctx) .. ".", actions = actions }
end

function lab.step(ctx, seen)
  local from = at(ctx)
  if seen ~= from then
    error("the marker was seen on " .. seen .. " but stands on " .. from)
  end
  local to = tostring((tonumber(from) + 1) % 4)
  ctx:place("marker.A", "score", to)
  expect(ctx, to, "moved in this call")
  ctx:remove_piece("marker.A")
  if ctx:space_of("marker.A") ~= nil then
    error("a piece taken off the table still stands somewhere")
  end
  ctx:place("marker.A", "score", to)
  expect(ctx, to, "put back in this call")
end

return {
  setup = function(ctx)
    ctx:place("marker.A", "score", "0")
    ctx:push("lab")
  end,
  states = { lab = lab },
  bots = {
    simple = function(ctx, seat, actions)
      return flowchart.trace():choose(1, "The first action.")
    end,
    looker = function(ctx, seat, actions)
      local space = at(ctx)
      for i, action in ipairs(actions) do
        if action.arg == space then
          return flowchart.trace():choose(i, "It stands on " .. space .. ".")
        end
      end
      error("no action for " .. tostring(space))
    end,
  },
}
"#;

#[test]
fn ctx_space_of_follows_every_move_in_every_vm() {
    use chancery_core::{Input, Manual, Session};
    let (_scratch, dir) = chancery_tests::with_rules(&test_module("testbed"), WHERE_IT_STANDS);
    let mut session =
        chancery_core::start_game(load(&dir), GameSpec::new("basic", 1)).expect("starts");
    // What the bot (in its seat's VM) and the prompt (in the rules' VM) say, and where the
    // marker stands on the engine's table.
    let seen = |session: &mut Session| {
        let pick = session
            .bot_preview(Some("looker"), None)
            .expect("the bot runs")
            .expect("A decides");
        let prompt = session
            .prompt()
            .clone()
            .expect("a prompt")
            .expect("A decides");
        let (_, space) = session
            .table()
            .piece_location("marker.A")
            .expect("on the table");
        let chosen = match pick.choice.arg {
            Value::Str(s) => s,
            other => panic!("the bot chose {other:?}"),
        };
        (chosen, prompt.text, space.to_string())
    };
    let says = |space: &str| {
        (
            space.to_owned(),
            format!("It stands on {space}."),
            space.to_owned(),
        )
    };
    assert_eq!(seen(&mut session), says("0"));
    // The players move it by hand: both VMs read it again.
    session
        .apply(Input::Manual {
            seat: None,
            change: Manual::PlacePiece {
                piece: "marker.A".into(),
                place: "score".into(),
                space: "3".into(),
            },
        })
        .expect("moved by hand");
    assert_eq!(seen(&mut session), says("3"));
    // The rules move it (and check their own reads in that call).
    session.act("step", Value::from("3")).expect("a step");
    assert_eq!(seen(&mut session), says("0"));
    session.act("step", Value::from("0")).expect("a step");
    assert_eq!(seen(&mut session), says("1"));
    // Undone, the table is an earlier one, where it stood elsewhere.
    assert!(session.undo());
    assert_eq!(seen(&mut session), says("0"));
    assert!(session.undo());
    assert_eq!(seen(&mut session), says("3"));
    // Steps as the bot sees them, each checked by the rules: 3, 0, 1, 2, 3…
    for step in 1..=8 {
        let (space, ..) = seen(&mut session);
        session.act("step", Value::from(space)).expect("a step");
        assert_eq!(seen(&mut session), says(&((3 + step) % 4).to_string()));
    }
}
