//! Bot-only games played headlessly, many at a time, and their summary: winners, score
//! distributions, steps, and how often each card was chosen. A run may be one shard of
//! its seeds ([`shard`]), and two module versions may be compared at the same seeds
//! ([`compare`]).

pub mod compare;
pub mod coverage;
pub mod sequential;
pub mod shard;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};

use crate::ids::{ScenarioId, SeatId};
use crate::module::{Module, ScenarioDef};
use crate::rules::{Rules, RulesError};
use crate::script::LuaRules;
use crate::script::profile::Samples;
use crate::session::{Actor, GameSpec, Input, Session, SessionError};
use crate::table::Controller;
use crate::value::Value;

/// How to run a simulation.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The scenario.
    pub scenario: ScenarioId,
    /// How many games.
    pub games: usize,
    /// The seed of the first game; game `i` uses `seed + i`.
    pub seed: u64,
    /// Bots by seat (seats not named play their default bot).
    pub bots: BTreeMap<SeatId, String>,
    /// Options handed to setup.
    pub options: Value,
    /// Bot steps after which a game counts as unfinished.
    pub max_steps: usize,
    /// Worker threads.
    pub threads: usize,
    /// Which of `games` this run plays: shard `index` of `count` (1 of 1: all).
    pub shard: Shard,
    /// Sample where module code spends its time ([`SimReport::profile`]).
    pub profile: bool,
    /// Run the module's `check` after every input (slower): a game whose table breaks one
    /// of the rules' invariants ends with the check's message as its error.
    pub check: bool,
    /// Play as if people read every game's words (`ctx.watched` true), as a game at the
    /// table does: slower, and the results must be the same as without it.
    pub watched: bool,
    /// Which games played in a reused VM are played again in a fresh one to check that the
    /// module keeps nothing from one game to the next.
    pub verify: Verify,
}

/// Which games of a simulation are checked against a fresh VM. A worker's VM plays game
/// after game without running the module's scripts again (their globals are read-only);
/// what a script keeps in a local variable would survive into the next game, so a checked
/// game is played again in a new VM, and a difference stops the simulation with its seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verify {
    /// Each worker's first game in a reused VM, and one game in [`VERIFY_EVERY`] after.
    #[default]
    Sample,
    /// Every game played in a reused VM (the module tests' and CI's way).
    All,
}

/// With [`Verify::Sample`], one game in this many is checked against a fresh VM.
pub const VERIFY_EVERY: usize = 64;

/// The most games one run (or one shard) plays: their outcomes are kept in memory until
/// the summary (about 4 KiB each at most). More are played as shards, then merged.
pub const MAX_GAMES_IN_ONE_RUN: usize = 200_000;

/// One of `count` equal seed ranges, numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which range, 1 to `count`.
    pub index: usize,
    /// How many ranges.
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 1, count: 1 }
    }
}

impl Shard {
    /// Reads "I/N" (1 ≤ I ≤ N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}' is not I/N with 1 <= I <= N (for example 2/3)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The game numbers (0-based, of `games`) this shard plays: the shards' ranges follow
    /// each other and together cover every game once.
    pub fn range(self, games: usize) -> Range<usize> {
        let count = self.count.max(1) as u128;
        let at = |k: usize| (games as u128 * k.min(self.count) as u128 / count) as usize;
        at(self.index.saturating_sub(1))..at(self.index)
    }
}

/// The outcome of one simulated game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameOutcome {
    /// Its seed.
    pub seed: u64,
    /// The winners (empty: a draw), or `None` if it did not finish.
    pub winners: Option<Vec<SeatId>>,
    /// Final scores.
    pub scores: BTreeMap<SeatId, i64>,
    /// Inputs played.
    pub steps: usize,
    /// Card ids chosen as action arguments (or as an argument's `card` entry), with counts.
    pub card_use: BTreeMap<String, u64>,
    /// Of those, the plays made by a seat that won the game.
    #[serde(default)]
    pub card_wins: BTreeMap<String, u64>,
    /// The bots' rule steps taken, with counts: each step of a bot's reasons that begins
    /// with a rule number ("18.4.5.5, Round 2: …") counts under its words before the
    /// first colon, after the bot's name.
    pub bot_rules: BTreeMap<String, u64>,
    /// Why it stopped early, if it did.
    pub error: Option<String>,
    /// Whether the rules or a bot failed (an error in the module, which every later game
    /// would meet again): the simulation stops at the first such game.
    pub failed: bool,
    /// The bots' decisions with a single legal action (no choice to make).
    #[serde(default)]
    pub forced: u64,
    /// The bots' decisions with a choice among several actions.
    #[serde(default)]
    pub chosen: u64,
    /// The steps the rules took on their own (automatic states run, asking no one).
    #[serde(default)]
    pub automatic: u64,
    /// Time spent in the bots' own code, in nanoseconds (not deterministic: not stored).
    #[serde(skip)]
    pub bot_nanos: u64,
    /// Time the whole game took, in nanoseconds (not stored).
    #[serde(skip)]
    pub nanos: u64,
}

/// A summary of all games.
#[derive(Clone, Debug)]
pub struct SimReport {
    /// Every game, by seed.
    pub outcomes: Vec<GameOutcome>,
    /// Wall time in milliseconds.
    pub elapsed_ms: u128,
    /// With [`SimConfig::profile`]: samples of module code by function ("bots/x.lua:12",
    /// the script and the line the function is defined on), one per 100 instructions.
    pub profile: BTreeMap<String, Samples>,
}

/// Bot steps after which a game counts as unfinished, unless a run says otherwise.
pub const DEFAULT_MAX_STEPS: usize = 100_000;

impl SimConfig {
    /// A run of `games` games of `scenario` from `seed`, each setting else at its default:
    /// every seat's own bot, no options, [`DEFAULT_MAX_STEPS`], one thread, every seed (one
    /// shard), no profile, no check, unwatched.
    pub fn new(scenario: impl Into<ScenarioId>, games: usize, seed: u64) -> SimConfig {
        SimConfig {
            scenario: scenario.into(),
            games,
            seed,
            bots: BTreeMap::new(),
            options: Value::map(),
            max_steps: DEFAULT_MAX_STEPS,
            threads: 1,
            shard: Shard::default(),
            profile: false,
            check: false,
            watched: false,
            verify: Verify::Sample,
        }
    }

    /// The options every game of the run is set up with: those given, then the scenario's
    /// `bot_options` for each one not given.
    pub fn options_for(&self, scenario: &ScenarioDef) -> Value {
        let mut options = self.options.clone();
        if !matches!(options, Value::Map(_)) && !scenario.bot_options.is_empty() {
            options = Value::map();
        }
        if let Value::Map(map) = &mut options {
            for (key, value) in &scenario.bot_options {
                map.entry(key.clone())
                    .or_insert_with(|| Value::Str(value.clone()));
            }
        }
        options
    }

    /// The spec of game `i` (of all `games`, not of a shard), every seat played by a bot.
    pub fn spec(&self, module: &Module, i: usize) -> Result<GameSpec, String> {
        let scenario = module
            .scenarios
            .get(self.scenario.as_str())
            .ok_or_else(|| {
                format!(
                    "module '{}' has no scenario '{}'",
                    module.id(),
                    self.scenario
                )
            })?;
        let mut spec = GameSpec::new(self.scenario.clone(), self.seed.wrapping_add(i as u64));
        spec.options = self.options_for(scenario);
        for seat in module.scenario_seats(scenario) {
            let bot = match self.bots.get(&seat) {
                Some(bot) => bot.clone(),
                None => module
                    .default_bot(self.scenario.as_str(), &spec.options, seat.as_str())
                    .ok_or_else(|| {
                        format!("seat '{seat}' has no default bot: name one with --bot {seat}=NAME")
                    })?,
            };
            spec.seats.insert(seat, Controller::Bot(bot));
        }
        Ok(spec)
    }
}

/// Plays one bot-only game to its end (or `max_steps`).
pub fn play_one(module: &Arc<Module>, spec: GameSpec, max_steps: usize) -> GameOutcome {
    play_reusing(module, spec, max_steps, Watch::default(), &mut None)
}

/// What a simulated game does besides playing: `check` the module's invariants after every
/// input, and play `watched` (`ctx.watched`, as at the table). Neither by default.
#[derive(Clone, Copy, Default)]
struct Watch {
    check: bool,
    watched: bool,
}

/// Plays one bot-only game with `rules` left by the last game (made ready for a new one
/// without running the scripts again), or new ones; leaves the rules in `rules` for the
/// next game.
fn play_reusing(
    module: &Arc<Module>,
    spec: GameSpec,
    max_steps: usize,
    Watch { check, watched }: Watch,
    rules: &mut Option<Box<dyn Rules>>,
) -> GameOutcome {
    let seed = spec.seed;
    let mut outcome = GameOutcome {
        seed,
        winners: None,
        scores: BTreeMap::new(),
        steps: 0,
        card_use: BTreeMap::new(),
        card_wins: BTreeMap::new(),
        bot_rules: BTreeMap::new(),
        error: None,
        failed: false,
        forced: 0,
        chosen: 0,
        automatic: 0,
        bot_nanos: 0,
        nanos: 0,
    };
    let started = Instant::now();
    let reused = rules
        .take()
        .and_then(|mut r| r.reuse().ok().filter(|ok| *ok).map(|_| r));
    let session = reused
        .map_or_else(|| LuaRules::boxed(module), Ok)
        .map_err(SessionError::from)
        .and_then(|rules| Session::new(module.clone(), spec, rules));
    let mut session = match session {
        Ok(session) => session,
        Err(err) => {
            outcome.error = Some(err.to_string());
            outcome.failed = true;
            return outcome;
        }
    };
    session.check_every_step = check;
    session.lean = true;
    session.set_watched(watched);
    let result = session.run_bots(max_steps);
    outcome.steps = session.history().len();
    count_cards_and_rules(module, &session, &mut outcome);
    how_it_ended(&session, result, max_steps, &mut outcome);
    let decisions = session.bot_decisions();
    (outcome.forced, outcome.chosen) = (decisions.forced, decisions.chosen);
    outcome.automatic = session.automatic_steps();
    outcome.bot_nanos = u64::try_from(session.bot_time().as_nanos()).unwrap_or(u64::MAX);
    outcome.nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
    *rules = Some(session.into_rules());
    outcome
}

/// Marks `outcome` (a game played in a reused VM) failed if `fresh`, the same game played
/// in a new VM, ended otherwise: a script kept something from an earlier game.
fn check_against_fresh(outcome: &mut GameOutcome, fresh: &GameOutcome) {
    let what = |o: &GameOutcome| {
        (
            o.winners.clone(),
            o.scores.clone(),
            o.steps,
            o.card_use.clone(),
            o.bot_rules.clone(),
            o.error.clone(),
            (o.forced, o.chosen, o.automatic),
        )
    };
    if what(outcome) == what(fresh) {
        return;
    }
    outcome.error = Some(format!(
        "seed {}: the game played in a VM that had played other games ended otherwise than the \
         same game in a new VM ({} inputs against {}, scores {:?} against {:?}): a script keeps \
         something from one game to the next in a variable of its own; keep a game's state in \
         ctx.vars or ctx.locals",
        outcome.seed, outcome.steps, fresh.steps, outcome.scores, fresh.scores
    ));
    outcome.failed = true;
}

/// Counts in `outcome` the cards the game's inputs chose (and those of its winners), and
/// the rules the bots' reasons name.
fn count_cards_and_rules(module: &Module, session: &Session, outcome: &mut GameOutcome) {
    let winners = session
        .table()
        .result
        .as_ref()
        .map(|r| r.winners.clone())
        .unwrap_or_default();
    for record in session.history().records() {
        if let Input::Act { choice, seat, .. } = &record.input {
            // A card chosen as the argument, or as its "card" entry ({card: …, target: …}).
            let card = match &choice.arg {
                Value::Str(arg) => Some(arg),
                Value::Map(map) => match map.get("card") {
                    Some(Value::Str(arg)) => Some(arg),
                    _ => None,
                },
                _ => None,
            };
            if let Some(card) = card.filter(|c| module.cards.contains(c.as_str())) {
                *outcome.card_use.entry(card.clone()).or_default() += 1;
                if seat.as_ref().is_some_and(|s| winners.contains(s)) {
                    *outcome.card_wins.entry(card.clone()).or_default() += 1;
                }
            }
        }
        if let Input::Act {
            by: Actor::Bot { name, reason },
            ..
        } = &record.input
        {
            for step in reason {
                if let Some(rule) = crate::module::rule_of(step) {
                    *outcome
                        .bot_rules
                        .entry(format!("{name}: {rule}"))
                        .or_default() += 1;
                }
            }
        }
    }
}

/// Records in `outcome` how the game ended: its result, an error, a decision no bot plays,
/// or the step limit.
fn how_it_ended(
    session: &Session,
    result: Result<usize, SessionError>,
    max_steps: usize,
    outcome: &mut GameOutcome,
) {
    match (result, &session.table().result, session.prompt()) {
        (Err(err), _, _) => {
            outcome.error = Some(err.to_string());
            outcome.failed = true;
        }
        (Ok(_), Some(result), _) => {
            outcome.winners = Some(result.winners.clone());
            outcome.scores = result.scores.clone();
        }
        (Ok(_), None, Err(err)) => {
            outcome.error = Some(RulesError::to_string(err));
            outcome.failed = true;
        }
        (Ok(steps), None, Ok(Some(prompt))) if steps < max_steps => {
            outcome.error = Some(format!(
                "stopped in state '{}': {} not played by a bot",
                prompt.state,
                prompt
                    .asks
                    .iter()
                    .map(|a| a
                        .seat
                        .as_ref()
                        .map_or("(anyone)".to_owned(), |s| format!("seat {s}")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        (Ok(_), None, _) => outcome.error = Some(format!("unfinished after {max_steps} steps")),
    }
}

/// Plays `config.games` bot-only games on `config.threads` threads. `progress` is told
/// how many games have finished, from any thread. The first game in which the rules or a
/// bot fail stops the simulation (games already under way finish): the report holds the
/// games played.
pub fn simulate(
    module: Arc<Module>,
    config: &SimConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<SimReport, String> {
    simulate_until(module, config, progress, &AtomicBool::new(false))
}

/// [`simulate`], stopping early once `stop` is set (from another thread: a Cancel button):
/// no new game starts, the games under way finish, and the report holds the games played.
pub fn simulate_until(
    module: Arc<Module>,
    config: &SimConfig,
    progress: &(dyn Fn(usize) + Sync),
    stop: &AtomicBool,
) -> Result<SimReport, String> {
    let specs: Vec<GameSpec> = config
        .shard
        .range(config.games)
        .map(|i| config.spec(&module, i))
        .collect::<Result<_, _>>()?;
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let threads = config.threads.clamp(1, 64);
    let mut profile: BTreeMap<String, Samples> = BTreeMap::new();
    let mut outcomes: Vec<GameOutcome> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    if config.profile {
                        crate::script::profile::start();
                    }
                    let mut mine = Vec::new();
                    // One VM per worker, reused from game to game.
                    let mut rules = None;
                    let mut checked_one = false;
                    let watch = Watch {
                        check: config.check,
                        watched: config.watched,
                    };
                    while !failed.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(spec) = specs.get(i) else { break };
                        if config.profile {
                            crate::script::profile::new_game(spec.seed);
                        }
                        let reused = rules.is_some();
                        let mut outcome = play_reusing(
                            &module,
                            spec.clone(),
                            config.max_steps,
                            watch,
                            &mut rules,
                        );
                        let wanted = match config.verify {
                            Verify::All => true,
                            Verify::Sample => !checked_one || i.is_multiple_of(VERIFY_EVERY),
                        };
                        if reused && wanted && !outcome.failed {
                            checked_one = true;
                            // The check is not profiled: which games a worker checks
                            // depends on how the games fell to the workers.
                            let profiled = config.profile.then(crate::script::profile::take);
                            let fresh = play_reusing(
                                &module,
                                spec.clone(),
                                config.max_steps,
                                watch,
                                &mut None,
                            );
                            if let Some(samples) = profiled {
                                crate::script::profile::resume(samples);
                            }
                            check_against_fresh(&mut outcome, &fresh);
                        }
                        if outcome.failed {
                            failed.store(true, Ordering::Relaxed);
                        }
                        mine.push(outcome);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    (mine, crate::script::profile::take())
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .fold(Vec::new(), |mut all, (mine, samples)| {
                all.extend(mine);
                for (function, n) in samples {
                    profile.entry(function).or_default().add(n);
                }
                all
            })
    });
    outcomes.sort_by_key(|o| o.seed);
    Ok(SimReport {
        outcomes,
        elapsed_ms: started.elapsed().as_millis(),
        profile,
    })
}

fn median(sorted: &[i64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2] as f64,
        // In floating point: two large scores would overflow as integers.
        n => (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0,
    }
}

impl SimReport {
    /// How fast the games went: wall time, games and decisions a second (all threads),
    /// microseconds per decision (one thread's time), and the shares of the bots' own
    /// choosing and of the engine with the rules (everything else).
    pub fn timing(&self) -> Json {
        let decisions: u64 = self.outcomes.iter().map(|o| o.steps as u64).sum();
        let nanos: u64 = self.outcomes.iter().map(|o| o.nanos).sum();
        let bot: u64 = self.outcomes.iter().map(|o| o.bot_nanos).sum();
        let seconds = (self.elapsed_ms as f64 / 1000.0).max(1e-9);
        let round = |x: f64, places: i32| {
            let p = 10f64.powi(places);
            (x * p).round() / p
        };
        let share = |part: u64| {
            if nanos == 0 {
                0.0
            } else {
                round(part as f64 / nanos as f64, 3)
            }
        };
        json!({
            "elapsed_ms": self.elapsed_ms,
            "games_per_second": round(self.outcomes.len() as f64 / seconds, 1),
            "decisions": decisions,
            "decisions_per_second": round(decisions as f64 / seconds, 0),
            "us_per_decision": if decisions == 0 { 0.0 } else { round(nanos as f64 / 1000.0 / decisions as f64, 1) },
            "forced_decisions": self.outcomes.iter().map(|o| o.forced).sum::<u64>(),
            "chosen_decisions": self.outcomes.iter().map(|o| o.chosen).sum::<u64>(),
            "automatic_steps": self.outcomes.iter().map(|o| o.automatic).sum::<u64>(),
            "bot_share": share(bot),
            "engine_share": share(nanos.saturating_sub(bot)),
        })
    }

    /// Wins by seat id (a game seats won together counts for each), "draw" and
    /// "unfinished".
    pub fn wins(&self) -> BTreeMap<String, u64> {
        let mut wins: BTreeMap<String, u64> = BTreeMap::new();
        for outcome in &self.outcomes {
            match &outcome.winners {
                Some(winners) if winners.is_empty() => {
                    *wins.entry("draw".to_owned()).or_default() += 1
                }
                Some(winners) => {
                    for w in winners {
                        *wins.entry(w.to_string()).or_default() += 1;
                    }
                }
                None => *wins.entry("unfinished".to_owned()).or_default() += 1,
            }
        }
        wins
    }

    /// How often each card was played over all games.
    pub fn card_use(&self) -> BTreeMap<String, u64> {
        let mut plays: BTreeMap<String, u64> = BTreeMap::new();
        for (card, n) in self.outcomes.iter().flat_map(|o| o.card_use.iter()) {
            *plays.entry(card.clone()).or_default() += n;
        }
        plays
    }

    /// Each seat's final scores: for each score, in how many games (by seat id).
    pub fn score_counts(&self) -> BTreeMap<String, BTreeMap<i64, u64>> {
        let mut counts: BTreeMap<String, BTreeMap<i64, u64>> = BTreeMap::new();
        for outcome in &self.outcomes {
            for (seat, score) in &outcome.scores {
                *counts
                    .entry(seat.to_string())
                    .or_default()
                    .entry(*score)
                    .or_default() += 1;
            }
        }
        counts
    }

    /// How often each bot rule step was taken over all games ("bot: step" → count).
    pub fn bot_rules(&self) -> BTreeMap<String, u64> {
        let mut rules = BTreeMap::new();
        for outcome in &self.outcomes {
            for (rule, n) in &outcome.bot_rules {
                *rules.entry(rule.clone()).or_default() += n;
            }
        }
        rules
    }

    /// The summary as JSON: wins by seat (and "draw", "unfinished"), results by the set
    /// of winners ("BR+RU": the games those seats won together; they sum to the games),
    /// score and step distributions (with a histogram of scores), card use, the bots' rule steps taken,
    /// errors.
    /// `card_wins` counts the plays of each card made by a seat that won. `timing` adds
    /// the [`SimReport::timing`] figures (not deterministic).
    pub fn to_json(&self, module: &str, config: &SimConfig, timing: bool) -> Json {
        let wins = self.wins();
        let mut results: BTreeMap<String, u64> = BTreeMap::new();
        let mut scores: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        let mut steps: Vec<i64> = Vec::new();
        let mut card_wins: BTreeMap<String, u64> = BTreeMap::new();
        let mut errors = Vec::new();
        for outcome in &self.outcomes {
            let result = match &outcome.winners {
                Some(winners) if winners.is_empty() => "draw".to_owned(),
                Some(winners) => {
                    let mut names: Vec<&str> = winners.iter().map(SeatId::as_str).collect();
                    names.sort_unstable();
                    names.join("+")
                }
                None => "unfinished".to_owned(),
            };
            *results.entry(result).or_default() += 1;
            for (seat, score) in &outcome.scores {
                scores.entry(seat.to_string()).or_default().push(*score);
            }
            steps.push(outcome.steps as i64);
            for (card, n) in &outcome.card_wins {
                *card_wins.entry(card.clone()).or_default() += n;
            }
            if let Some(error) = &outcome.error {
                errors.push(json!({"seed": outcome.seed, "error": error}));
            }
        }
        let histogram = |values: &[i64]| {
            let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
            for v in values {
                *counts.entry(*v).or_default() += 1;
            }
            counts
                .into_iter()
                .map(|(v, n)| (v.to_string(), json!(n)))
                .collect::<serde_json::Map<String, Json>>()
        };
        let distribution = |values: &mut Vec<i64>| {
            values.sort_unstable();
            let mean = if values.is_empty() {
                0.0
            } else {
                values.iter().map(|v| i128::from(*v)).sum::<i128>() as f64 / values.len() as f64
            };
            json!({
                "min": values.first(),
                "median": median(values),
                "mean": (mean * 100.0).round() / 100.0,
                "max": values.last(),
            })
        };
        let scores: BTreeMap<String, Json> = scores
            .iter_mut()
            .map(|(s, v)| {
                let mut d = distribution(v);
                d["histogram"] = Json::Object(histogram(v));
                (s.clone(), d)
            })
            .collect();
        let mut out = json!({
            "module": module,
            "scenario": config.scenario.as_str(),
            "games": self.outcomes.len(),
            "seed": config.seed,
            "wins": wins,
            "results": results,
            "scores": scores,
            "steps": distribution(&mut steps),
            "card_use": self.card_use(),
            "card_wins": card_wins,
            "bot_rules": self.bot_rules(),
            "errors": errors,
        });
        if timing && let Some(object) = out.as_object_mut() {
            object.insert("timing".to_owned(), self.timing());
        }
        out
    }
}
