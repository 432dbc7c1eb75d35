//! `chancery sim MODULE`: bot-only games, played headlessly and summarised.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;
use chancery_core::sim::{SimConfig, simulate};
use chancery_core::{ScenarioId, SeatId};
use clap::Args;

use super::{OverlayArgs, load_module, parse_options};

#[derive(Args, Debug)]
pub struct SimArgs {
    /// The module folder.
    pub module: PathBuf,
    /// The scenario (default: the module's default scenario).
    #[arg(long, value_name = "ID")]
    pub scenario: Option<String>,
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which bot plays a seat, SEAT=NAME (default: the seat's own bot).
    #[arg(long = "bot", value_name = "SEAT=NAME")]
    pub bots: Vec<String>,
    /// An option for the rules' setup, KEY=VALUE.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Bot steps after which a game counts as unfinished.
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: usize,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Overlay flags.
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

pub fn run(args: &SimArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    let module = load_module(&args.module, &args.overlay.load_options(false), err)?;
    let scenario = match &args.scenario {
        Some(id) => ScenarioId::from(id.as_str()),
        None => module
            .default_scenario()
            .map(|s| s.id.clone())
            .context("the module has no scenario")?,
    };
    let mut bots = BTreeMap::new();
    for pair in &args.bots {
        let (seat, bot) = pair
            .split_once('=')
            .with_context(|| format!("--bot '{pair}' is not SEAT=NAME"))?;
        if !module.rules.bots.iter().any(|b| b == bot) {
            anyhow::bail!(
                "there is no bot '{bot}' (bots: {})",
                module.rules.bots.join(", ")
            );
        }
        bots.insert(SeatId::from(seat), bot.to_owned());
    }
    let config = SimConfig {
        scenario,
        games: args.games,
        seed: args.seed,
        bots,
        options: parse_options(&args.options)?,
        max_steps: args.max_steps,
        threads: args.threads.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        }),
    };
    let started = Instant::now();
    let last = Mutex::new(Instant::now());
    let progress = |done: usize| {
        if let Ok(mut last) = last.lock()
            && (last.elapsed() >= Duration::from_secs(1) || done == config.games)
        {
            *last = Instant::now();
            eprintln!(
                "sim: {done}/{} games ({:.1} s)",
                config.games,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let report = simulate(module.clone(), &config, &progress).map_err(anyhow::Error::msg)?;
    let json = report.to_json(module.id(), &config, !args.json);
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        writeln!(
            out,
            "{} games of '{}' from seed {} in {} ms",
            report.outcomes.len(),
            config.scenario,
            config.seed,
            report.elapsed_ms
        )?;
        writeln!(out, "wins: {}", json["wins"])?;
        writeln!(out, "results (winners together): {}", json["results"])?;
        writeln!(out, "scores: {}", json["scores"])?;
        writeln!(out, "steps: {}", json["steps"])?;
        writeln!(out, "card use: {}", json["card_use"])?;
        if let Some(errors) = json["errors"].as_array().filter(|e| !e.is_empty()) {
            writeln!(
                out,
                "{} game(s) stopped early; first: {}",
                errors.len(),
                errors[0]
            )?;
        }
    }
    if let Some(failure) = report.outcomes.iter().find(|o| o.failed) {
        // Every later game would fail the same way: said once, with the seed to replay it.
        writeln!(
            err,
            "error: the game of seed {} failed, so the simulation stopped after {} of {} games:\n{}",
            failure.seed,
            report.outcomes.len(),
            config.games,
            failure.error.as_deref().unwrap_or_default()
        )?;
    }
    let failed = report.outcomes.iter().filter(|o| o.error.is_some()).count();
    Ok(if failed > 0 { 1 } else { 0 })
}
