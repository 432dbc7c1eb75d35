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

/// Merges the shards of one run (each named by where it came from, for errors) into the
/// summary JSON of a single run of all its seeds. Every shard of the run must be there
/// once, made with the same settings.
pub fn merge(shards: &[(String, ShardFile)]) -> Result<Json, String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("no shard files to merge".to_owned());
    };
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
