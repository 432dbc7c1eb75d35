//! Bot-only games played headlessly, many at a time, and their summary: winners, score
//! distributions, steps, and how often each card was chosen.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::{Value as Json, json};

use crate::ids::{ScenarioId, SeatId};
use crate::module::Module;
use crate::rules::RulesError;
use crate::script::LuaRules;
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
}

/// The outcome of one simulated game.
#[derive(Clone, Debug, PartialEq)]
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
    /// The bots' rule steps taken, with counts: each step of a bot's reasons that begins
    /// with a rule number ("18.4.5.5, Round 2: …") counts under its words before the
    /// first colon, after the bot's name.
    pub bot_rules: BTreeMap<String, u64>,
    /// Why it stopped early, if it did.
    pub error: Option<String>,
    /// Whether the rules or a bot failed (an error in the module, which every later game
    /// would meet again): the simulation stops at the first such game.
    pub failed: bool,
}

/// A summary of all games.
#[derive(Clone, Debug)]
pub struct SimReport {
    /// Every game, by seed.
    pub outcomes: Vec<GameOutcome>,
    /// Wall time in milliseconds.
    pub elapsed_ms: u128,
}

impl SimConfig {
    /// The spec of game `i`, every seat played by a bot.
    fn spec(&self, module: &Module, i: usize) -> Result<GameSpec, String> {
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
        spec.options = self.options.clone();
        for seat in module.scenario_seats(scenario) {
            let bot = match self.bots.get(&seat) {
                Some(bot) => bot.clone(),
                None => module
                    .default_bot(self.scenario.as_str(), seat.as_str())
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
    let seed = spec.seed;
    let mut outcome = GameOutcome {
        seed,
        winners: None,
        scores: BTreeMap::new(),
        steps: 0,
        card_use: BTreeMap::new(),
        bot_rules: BTreeMap::new(),
        error: None,
        failed: false,
    };
    let session = LuaRules::boxed(module)
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
    let result = session.run_bots(max_steps);
    outcome.steps = session.history().len();
    for record in session.history().records() {
        if let Input::Act { choice, .. } = &record.input {
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
            }
        }
        if let Input::Act {
            by: Actor::Bot { name, reason },
            ..
        } = &record.input
        {
            for step in reason {
                if let Some(rule) = rule_of(step) {
                    *outcome
                        .bot_rules
                        .entry(format!("{name}: {rule}"))
                        .or_default() += 1;
                }
            }
        }
    }
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
    outcome
}

/// The rule a bot's reason step names: its words before the first colon, when they begin
/// with a rule number such as "18.4.5.5".
fn rule_of(step: &str) -> Option<&str> {
    let head = step.split(':').next()?;
    let starts_with_number = head.chars().next().is_some_and(|c| c.is_ascii_digit())
        && head
            .chars()
            .take_while(|c| *c != ' ' && *c != ',')
            .any(|c| c == '.');
    (starts_with_number && head.len() < step.len()).then_some(head.trim())
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
    let specs: Vec<GameSpec> = (0..config.games)
        .map(|i| config.spec(&module, i))
        .collect::<Result<_, _>>()?;
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = std::sync::atomic::AtomicBool::new(false);
    let threads = config.threads.clamp(1, 64);
    let mut outcomes: Vec<GameOutcome> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    while !failed.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(spec) = specs.get(i) else { break };
                        let outcome = play_one(&module, spec.clone(), config.max_steps);
                        if outcome.failed {
                            failed.store(true, Ordering::Relaxed);
                        }
                        mine.push(outcome);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    outcomes.sort_by_key(|o| o.seed);
    Ok(SimReport {
        outcomes,
        elapsed_ms: started.elapsed().as_millis(),
    })
}

fn median(sorted: &[i64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2] as f64,
        n => (sorted[n / 2 - 1] + sorted[n / 2]) as f64 / 2.0,
    }
}

impl SimReport {
    /// The summary as JSON: wins by seat (and "draw", "unfinished"), results by the set
    /// of winners ("BR+RU": the games those seats won together; they sum to the games),
    /// score and step distributions (with a histogram of scores), card use, the bots' rule steps taken,
    /// errors.
    /// `timing` adds the wall time (not deterministic).
    pub fn to_json(&self, module: &str, config: &SimConfig, timing: bool) -> Json {
        let mut wins: BTreeMap<String, u64> = BTreeMap::new();
        let mut results: BTreeMap<String, u64> = BTreeMap::new();
        let mut scores: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        let mut steps: Vec<i64> = Vec::new();
        let mut card_use: BTreeMap<String, u64> = BTreeMap::new();
        let mut bot_rules: BTreeMap<String, u64> = BTreeMap::new();
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
            for (seat, score) in &outcome.scores {
                scores.entry(seat.to_string()).or_default().push(*score);
            }
            steps.push(outcome.steps as i64);
            for (card, n) in &outcome.card_use {
                *card_use.entry(card.clone()).or_default() += n;
            }
            for (rule, n) in &outcome.bot_rules {
                *bot_rules.entry(rule.clone()).or_default() += n;
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
                values.iter().sum::<i64>() as f64 / values.len() as f64
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
            "card_use": card_use,
            "bot_rules": bot_rules,
            "errors": errors,
        });
        if timing && let Some(object) = out.as_object_mut() {
            object.insert("elapsed_ms".to_owned(), json!(self.elapsed_ms));
        }
        out
    }
}
