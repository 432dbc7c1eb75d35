//! Shards: a run of some of a simulation's seeds, written with every game's outcome, and
//! the merge of all of a run's shards into the summary one run of every seed would give,
//! byte for byte.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::{GameOutcome, Shard, SimConfig, SimReport};
use crate::ids::{ScenarioId, SeatId};
use crate::value::Value;

/// What a shard file holds: the run it belongs to, which shard it is, and its games.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardFile {
    /// The module's id.
    pub module: String,
    /// The scenario.
    pub scenario: ScenarioId,
    /// The first seed of the whole run.
    pub seed: u64,
    /// Games in the whole run.
    pub games: usize,
    /// Bots named by seat.
    pub bots: BTreeMap<SeatId, String>,
    /// Set-up options.
    pub options: Value,
    /// The step limit.
    pub max_steps: usize,
    /// Which shard.
    pub shard: Shard,
    /// Its games, by seed.
    pub outcomes: Vec<GameOutcome>,
}

impl ShardFile {
    /// The shard a run made.
    pub fn new(module: &str, config: &SimConfig, report: &SimReport) -> ShardFile {
        ShardFile {
            module: module.to_owned(),
            scenario: config.scenario.clone(),
            seed: config.seed,
            games: config.games,
            bots: config.bots.clone(),
            options: config.options.clone(),
            max_steps: config.max_steps,
            shard: config.shard,
            outcomes: report.outcomes.clone(),
        }
    }

    /// The run's settings, as one run of every seed.
    fn config(&self) -> SimConfig {
        SimConfig {
            bots: self.bots.clone(),
            options: self.options.clone(),
            max_steps: self.max_steps,
            ..SimConfig::new(self.scenario.clone(), self.games, self.seed)
        }
    }
}

/// The most bytes of any one text a shard holds (an id, a bot's rule step, an error).
const MAX_SHARD_TEXT_BYTES: usize = 16 * 1024;

/// The largest score a shard may give (a game's scores are counters, far smaller): larger
/// ones are forged, and their sum could overflow.
const MAX_SHARD_SCORE: i64 = 1 << 48;

/// Checks what a shard says of its games against what a run could make: every text within
/// [`MAX_SHARD_TEXT_BYTES`], seat ids plain names, scores within [`MAX_SHARD_SCORE`], each
/// game's winners among its seats, and (when known) those seats the scenario's.
fn check_outcomes(name: &str, shard: &ShardFile, seats: Option<&[SeatId]>) -> Result<(), String> {
    let long = |what: &str, text: &str| -> Result<(), String> {
        match text.len() > MAX_SHARD_TEXT_BYTES {
            true => Err(format!(
                "{name}: {what} of {} bytes is longer than a run writes (at most {MAX_SHARD_TEXT_BYTES}): the file is not a shard a run made",
                text.len()
            )),
            false => Ok(()),
        }
    };
    long("the module's id", &shard.module)?;
    long("the scenario", shard.scenario.as_str())?;
    for (seat, bot) in &shard.bots {
        long("a seat", seat.as_str())?;
        long("a bot's name", bot)?;
    }
    for outcome in &shard.outcomes {
        let seed = outcome.seed;
        for seat in outcome.scores.keys() {
            if !crate::ids::is_plain_name(seat.as_str())
                || seats.is_some_and(|known| !known.contains(seat))
            {
                return Err(format!(
                    "{name}: the game of seed {seed} scores seat '{}', which does not play this scenario",
                    crate::session::shortened(seat.as_str())
                ));
            }
        }
        for (seat, score) in &outcome.scores {
            if score.unsigned_abs() > MAX_SHARD_SCORE.unsigned_abs() {
                return Err(format!(
                    "{name}: the game of seed {seed} gives {seat} a score of {score}, beyond any a game keeps (at most {MAX_SHARD_SCORE} either way)"
                ));
            }
        }
        // A winner is one of the scenario's seats; without the module, one the game scored
        // (if it scored any).
        let plays = |seat: &SeatId| match seats {
            Some(known) => known.contains(seat),
            None => outcome.scores.is_empty() || outcome.scores.contains_key(seat),
        };
        for winner in outcome.winners.iter().flatten() {
            if !crate::ids::is_plain_name(winner.as_str()) || !plays(winner) {
                return Err(format!(
                    "{name}: the game of seed {seed} is won by '{}', which is not one of its seats",
                    crate::session::shortened(winner.as_str())
                ));
            }
        }
        for text in outcome
            .card_use
            .keys()
            .chain(outcome.card_wins.keys())
            .chain(outcome.bot_rules.keys())
            .chain(outcome.error.iter())
        {
            long("a text", text)?;
        }
    }
    Ok(())
}

/// Merges the shards of one run (each named by where it came from, for errors) into the
/// summary JSON of a single run of all its seeds. Every shard of the run must be there
/// once, made with the same settings, and hold only what a run could make
/// ([`check_outcomes`]); `seats`, when the module is at hand, are the scenario's.
pub fn merge(shards: &[(String, ShardFile)], seats: Option<&[SeatId]>) -> Result<Json, String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("no shard files to merge".to_owned());
    };
    for (name, shard) in shards {
        check_outcomes(name, shard, seats)?;
    }
    let count = first.shard.count;
    let mut seen: BTreeMap<usize, &str> = BTreeMap::new();
    let mut outcomes = Vec::new();
    for (name, shard) in shards {
        let same = shard.module == first.module
            && shard.scenario == first.scenario
            && shard.seed == first.seed
            && shard.games == first.games
            && shard.bots == first.bots
            && shard.options == first.options
            && shard.max_steps == first.max_steps
            && shard.shard.count == count;
        if !same {
            return Err(format!(
                "{name} is not a shard of the same run as {first_name} (module, scenario, seed, games, bots, options, steps and shard count must match)"
            ));
        }
        if shard.shard.index == 0 || shard.shard.index > count {
            return Err(format!(
                "{name} says it is shard {}/{count}, which no run makes",
                shard.shard.index
            ));
        }
        if let Some(other) = seen.insert(shard.shard.index, name) {
            return Err(format!(
                "{name} and {other} are both shard {}/{count}",
                shard.shard.index
            ));
        }
        let range = shard.shard.range(shard.games);
        let expected = range.len();
        // Its games are those of its seeds, in order, each once; a run that failed stops
        // after the game that failed.
        let stopped = shard.outcomes.iter().position(|o| o.failed);
        let whole = shard.outcomes.len() == expected && stopped.is_none();
        let cut = stopped.is_some_and(|at| at + 1 == shard.outcomes.len());
        if !whole && !cut {
            return Err(format!(
                "{name} holds {} games where shard {}/{count} plays {expected}",
                shard.outcomes.len(),
                shard.shard.index
            ));
        }
        let seeds = range.map(|i| shard.seed.wrapping_add(i as u64));
        if let Some((outcome, want)) = shard
            .outcomes
            .iter()
            .zip(seeds)
            .find(|(o, want)| o.seed != *want)
        {
            return Err(format!(
                "{name} holds a game of seed {} where shard {}/{count} plays seed {want}: it was not made by this run",
                outcome.seed, shard.shard.index
            ));
        }
        outcomes.extend(shard.outcomes.iter().cloned());
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing shard(s): {}", missing.join(", ")));
    }
    outcomes.sort_by_key(|o| o.seed);
    let report = SimReport {
        outcomes,
        elapsed_ms: 0,
        profile: BTreeMap::new(),
    };
    Ok(report.to_json(&first.module, &first.config(), false))
}
