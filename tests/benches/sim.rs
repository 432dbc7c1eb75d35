//! Simulation benchmarks (`cargo bench -p chancery-tests --bench sim`), all on one thread:
//!
//! - the engine and a module's rules alone: every decision its first legal action, no bot,
//!   in microseconds per decision (Aftermath);
//! - Aftermath with its own bot: games a second, microseconds per decision, and the share
//!   of the time that is not the bot's own choosing (the engine's share);
//! - Lützen & Bautzen (Congress of Vienna) with the test fixture: decisions a second and
//!   the engine's share;
//! - the Clash of Armies with the test fixture, the French bot against the Allied bot: games
//!   a second, microseconds per decision and the engine's share.
//!
//! Each figure is the median of repeated runs in this one process. Name parts to run only
//! those: `-- first`, `-- bot`, `-- lutzen`, `-- clash`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chancery_core::module::OverlayChoice;
use chancery_core::sim::{SimConfig, simulate};
use chancery_core::{GameSpec, Input, LoadOptions, Module, Value};
use chancery_tests::repo_root;

/// The program's own allocator (app/src/main.rs), so that the figures are the program's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Plays a game taking the first legal action of the first seat to decide, until it ends
/// or `limit` decisions; returns the decisions and the time.
fn first_action_game(module: &Arc<Module>, seed: u64, limit: usize) -> (usize, Duration) {
    let scenario = module.default_scenario().expect("a scenario").id.clone();
    let mut session =
        chancery_core::start_game(module.clone(), GameSpec::new(scenario, seed)).expect("starts");
    // Played as a simulation plays: on the table in place, never undone.
    session.lean = true;
    session.set_watched(false);
    let started = Instant::now();
    let mut decisions = 0;
    while decisions < limit {
        let Ok(Some(prompt)) = session.prompt() else {
            break;
        };
        let ask = prompt
            .asks
            .iter()
            .find(|a| a.seat.as_ref().is_none_or(|s| !prompt.answered.contains(s)))
            .expect("someone decides")
            .clone();
        let mut choice = ask.actions[0].choice();
        if let Some((lo, _)) = ask.actions[0].range {
            choice.arg = Value::Int(lo);
        }
        let input = Input::Act {
            seat: ask.seat.clone(),
            choice,
            dice: Vec::new(),
            by: chancery_core::Actor::Human,
        };
        if session.apply(input).is_err() {
            break;
        }
        decisions += 1;
    }
    (decisions, started.elapsed())
}

fn bot_games(module: Arc<Module>, scenario: &str, games: usize) -> (f64, f64, f64) {
    let config = SimConfig::new(scenario, games, 1);
    let report = simulate(module, &config, &|_| {}).expect("the games run");
    assert!(
        report.outcomes.iter().all(|o| o.error.is_none()),
        "every game ends"
    );
    let timing = report.timing();
    let number = |key: &str| timing[key].as_f64().expect("a figure");
    (
        number("games_per_second"),
        number("us_per_decision"),
        number("engine_share"),
    )
}

/// Whether the part named `part` runs: all of them, or those named on the command line
/// (`cargo bench -p chancery-tests --bench sim -- first bot lutzen clash`).
fn wanted(part: &str) -> bool {
    let named: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    named.is_empty() || named.iter().any(|n| n == part)
}

fn main() {
    // Aftermath's Napoleon track is owner data; the benchmarks play the demo's.
    let aftermath = Arc::new(
        chancery_core::load_module(
            repo_root().join("modules/aftermath"),
            &LoadOptions {
                overlay: OverlayChoice::Demo,
                strict: false,
            },
        )
        .expect("Napoleon: Aftermath loads with its demo"),
    );

    if wanted("first") {
        first_action(&aftermath);
    }
    if wanted("bot") {
        aftermath_bot(&aftermath);
    }
    if wanted("lutzen") || wanted("clash") {
        let cov = cov_with_fixture();
        if wanted("lutzen") {
            lutzen(&cov);
        }
        if wanted("clash") {
            clash(&cov);
        }
    }
}

fn first_action(aftermath: &Arc<Module>) {
    // Each run plays the same 20 games and divides its whole time by all its decisions:
    // games differ in length, and a median of per-game figures moved by a fifth between runs.
    let runs: Vec<f64> = (0..5)
        .map(|_| {
            let (decisions, time) = (1..=20)
                .map(|seed| first_action_game(aftermath, seed, 5_000))
                .fold((0, Duration::ZERO), |(n, t), (d, dt)| (n + d, t + dt));
            time.as_secs_f64() * 1e6 / decisions.max(1) as f64
        })
        .collect();
    println!(
        "{:<58} median {:>9.1} µs a decision (5 runs of 20 games)",
        "engine + Aftermath rules, first-action choices, no bot",
        median(runs)
    );
}

/// The medians over `runs` runs of `games` bot-only games: games a second, microseconds a
/// decision and the engine's share.
fn bot_medians(module: &Arc<Module>, scenario: &str, runs: usize, games: usize) -> (f64, f64, f64) {
    let runs: Vec<(f64, f64, f64)> = (0..runs)
        .map(|_| bot_games(module.clone(), scenario, games))
        .collect();
    (
        median(runs.iter().map(|r| r.0).collect()),
        median(runs.iter().map(|r| r.1).collect()),
        median(runs.iter().map(|r| r.2).collect()),
    )
}

fn aftermath_bot(aftermath: &Arc<Module>) {
    let (games, us, share) = bot_medians(aftermath, "standard", 5, 20);
    println!(
        "{:<58} median {games:>9.1} games/s, {us:.1} µs a decision, engine share {share:.2} (5 runs of 20 games)",
        "Aftermath with its bot, one thread",
    );
}

/// Congress of Vienna with the test fixture's placeholder values.
fn cov_with_fixture() -> Arc<Module> {
    let cov_dir = repo_root().join("modules/cov");
    let fixture = LoadOptions {
        overlay: OverlayChoice::File(cov_dir.join("tests/owner-fixture.ron")),
        strict: false,
    };
    Arc::new(chancery_core::load_module(&cov_dir, &fixture).expect("cov loads"))
}

fn lutzen(cov: &Arc<Module>) {
    let (_, us, share) = bot_medians(cov, "lutzen-bautzen", 3, 10);
    println!(
        "{:<58} median {:>9.0} decisions/s, {us:.1} µs a decision, engine share {share:.2} (3 runs of 10 games)",
        "Lützen & Bautzen with the fixture, its bots, one thread",
        1e6 / us,
    );
}

/// The Clash of Armies bot against bot: with no options its bot-only games are section 20's
/// seating (the scenario's bot_options), the French bot against the Allied bot.
fn clash(cov: &Arc<Module>) {
    let (games, us, share) = bot_medians(cov, "clash-of-armies", 3, 4);
    println!(
        "{:<58} median {games:>9.2} games/s, {us:.1} µs a decision, engine share {share:.2} (3 runs of 4 games)",
        "Clash of Armies, French bot against Allied bot, one thread",
    );
}
