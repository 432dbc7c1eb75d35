//! `chancery sim MODULE`: bot-only games, played headlessly and summarised; one shard of
//! them (`--shard`), merged again (`chancery sim merge`); two versions of a module compared
//! at the same seeds (`--compare`); charts (`--plot`) and flowchart coverage (`--coverage`).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use chancery_core::sim::compare::compare;
use chancery_core::sim::coverage;
use chancery_core::sim::sequential::{Sequential, UntilClear, compare_until_clear};
use chancery_core::sim::shard::{ShardFile, merge};
use chancery_core::sim::{Shard, SimConfig, SimReport, Verify, simulate};
use chancery_core::{Module, ScenarioId, SeatId};
use clap::{Args, Subcommand};

use super::plot;
use crate::games::{OverlayArgs, card_names, load_module, load_old_version, parse_options};

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SimArgs {
    /// `merge`: combine shard files.
    #[command(subcommand)]
    pub action: Option<SimAction>,
    /// The module folder (with --compare: the new version).
    #[arg(required = true)]
    pub module: Option<PathBuf>,
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
    #[arg(long, default_value_t = chancery_core::sim::DEFAULT_MAX_STEPS)]
    pub max_steps: usize,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the summary as JSON (the same seeds give the same bytes).
    #[arg(long)]
    pub json: bool,
    /// Add the timing figures to the JSON: games and decisions a second, microseconds a
    /// decision, the bots' and the engine's shares (not reproducible).
    #[arg(long)]
    pub timing: bool,
    /// Play only the I-th of N equal seed ranges and print its games as a shard file,
    /// for `chancery sim merge` (run the shards anywhere: a cluster's array job, GNU
    /// parallel over SSH).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Compare against another version of the module, played at the same seeds by the
    /// same bots: a folder, or git:REV for the module as committed (git:HEAD: the last
    /// commit). Reports each metric's difference with a 95 % interval.
    #[arg(long, value_name = "OLD_MODULE_DIR|git:REV")]
    pub compare: Option<String>,
    /// With --compare: play in rounds (40 games, then doubling) and stop as soon as each
    /// headline metric (each seat's win rate and mean score, the game's length) is either
    /// clearly changed or known to within --precision, or at --games. The intervals it
    /// judges by hold however often they are looked at (confidence sequences), so
    /// stopping early does not turn chance into a change.
    #[arg(long, requires = "compare")]
    pub until_clear: bool,
    /// With --until-clear: win rates to within this many points of percent, mean scores
    /// and the length to within this percentage of the old version's mean.
    #[arg(
        long,
        value_name = "P",
        default_value_t = 2.0,
        requires = "until_clear"
    )]
    pub precision: f64,
    /// Write charts (SVG) into this folder.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
    /// List the flowchart steps the games never reached, of the bots that played.
    #[arg(long)]
    pub coverage: bool,
    /// Show where the module's Lua code spends its instructions: the functions (by script
    /// and the line they start on) with the most samples, one sample per 100 VM
    /// instructions on average (each call's first after a count drawn from 1 to 100, so a
    /// call shorter than that is sampled in proportion; the time inside ctx functions is not
    /// counted), in the function itself and in the function with everything it calls.
    #[arg(long)]
    pub profile: bool,
    /// Run the module's own check after every move (slower): a game whose table breaks one
    /// of the rules' invariants ends with an error that says which.
    #[arg(long)]
    pub check: bool,
    /// Play as a game at the table is played, as if people read every label, log line and
    /// reason (`ctx.watched` true; a simulation otherwise leaves it false, and rules may
    /// skip text nobody reads): slower, and the results must be the same; a check that
    /// the module's decisions do not depend on it.
    #[arg(long)]
    pub watched: bool,
    /// Play every game that a worker's VM plays after another game again in a new VM, and
    /// stop with the seed if any ends otherwise (by default: each worker's first such game
    /// and one in 64 after). A VM plays game after game without running the module's
    /// scripts again; this checks that no script keeps something from one game to the next.
    #[arg(long)]
    pub verify_all: bool,
    /// Overlay flags.
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

#[derive(Subcommand, Debug)]
pub enum SimAction {
    /// Merge the shard files of one run (`chancery sim MODULE --shard I/N`) into the
    /// summary one run of all its seeds prints with --json, byte for byte.
    Merge {
        /// The shard files, every shard of the run once, in any order.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// A progress bar with the time left on a terminal; a line every few seconds elsewhere.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    started: Instant,
    last: Mutex<Instant>,
}

impl Progress {
    fn new(total: usize, what: &str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} {wide_bar} {pos}/{len} games, {elapsed} elapsed, about {eta} left",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar.set_message(what.to_owned());
            bar
        });
        Progress {
            bar,
            total,
            started: Instant::now(),
            last: Mutex::new(Instant::now()),
        }
    }

    fn tick(&self, done: usize) {
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            return;
        }
        if let Ok(mut last) = self.last.lock()
            && (last.elapsed() >= Duration::from_secs(5) || done == self.total)
        {
            *last = Instant::now();
            let seconds = self.started.elapsed().as_secs_f64();
            let left = if done == 0 {
                String::new()
            } else {
                format!(
                    ", about {:.0} s left",
                    seconds / done as f64 * (self.total - done) as f64
                )
            };
            eprintln!("sim: {done}/{} games ({seconds:.1} s{left})", self.total);
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

pub fn run(args: &SimArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    if let Some(SimAction::Merge { files }) = &args.action {
        return run_merge(files, out);
    }
    let dir = args.module.as_deref().context("name the module folder")?;
    let load = args.overlay.load_options(false);
    let module = load_module(dir, &load, err)?;
    let config = config(args, &module)?;
    refuse_unknown_options(&module, &config)?;
    if let Some(old) = &args.compare {
        return run_compare(args, old, dir, module, &config, out, err);
    }
    let games = config.shard.range(config.games).len();
    let progress = Progress::new(games, "sim");
    let report = simulate(module.clone(), &config, &|done| progress.tick(done))
        .map_err(anyhow::Error::msg)?;
    progress.finish();
    if args.shard.is_some() {
        let file = ShardFile::new(module.id(), &config, &report);
        writeln!(out, "{}", serde_json::to_string(&file)?)?;
        return exit_code(&report, &config, err);
    }
    let mut json = report.to_json(module.id(), &config, args.timing);
    let steps = args
        .coverage
        .then(|| coverage::steps(&module, &report.bot_rules()));
    if let Some(steps) = &steps {
        json["coverage"] = serde_json::json!({
            "steps": steps.len(),
            "reached": steps.iter().filter(|s| s.reached > 0).count(),
            "never_reached": steps.iter().filter(|s| s.reached == 0)
                .map(|s| serde_json::json!({"bot": s.bot, "step": s.step, "at": s.at}))
                .collect::<Vec<_>>(),
        });
    }
    if args.profile {
        json["profile"] = profile_json(&report.profile);
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        print_summary(&module, &report, &config, &json, steps.as_deref(), out)?;
        if args.profile {
            print_profile(&json["profile"], out)?;
        }
    }
    if let Some(dir) = &args.plot {
        for path in plot::run_charts(dir, &report, &module)? {
            writeln!(err, "wrote {}", path.display())?;
        }
    }
    exit_code(&report, &config, err)
}

/// An error naming the module's options if `--option` gave a key it does not declare, or a
/// value its option does not take (a misspelling would otherwise play every game without it).
fn refuse_unknown_options(module: &Arc<Module>, config: &SimConfig) -> anyhow::Result<()> {
    module
        .check_options(&config.options)
        .map_err(anyhow::Error::msg)
}

fn config(args: &SimArgs, module: &Module) -> anyhow::Result<SimConfig> {
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
    let shard = match &args.shard {
        Some(text) => Shard::parse(text).map_err(anyhow::Error::msg)?,
        None => Shard::default(),
    };
    let in_this_run = shard.range(args.games).len();
    if in_this_run > chancery_core::sim::MAX_GAMES_IN_ONE_RUN {
        anyhow::bail!(
            "--games {} would play {in_this_run} games in one run, more than the {} whose results one run keeps in memory: split them with --shard I/N (each shard at most {} games), then `chancery sim merge` the shard files",
            args.games,
            chancery_core::sim::MAX_GAMES_IN_ONE_RUN,
            chancery_core::sim::MAX_GAMES_IN_ONE_RUN
        );
    }
    if args.shard.is_some() && (args.compare.is_some() || args.plot.is_some() || args.coverage) {
        anyhow::bail!(
            "--shard writes a shard file only: compare, plot or list coverage after `chancery sim merge`, or without --shard"
        );
    }
    Ok(SimConfig {
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
        shard,
        profile: args.profile,
        check: args.check,
        watched: args.watched,
        verify: if args.verify_all {
            Verify::All
        } else {
            Verify::Sample
        },
    })
}

/// The profile's functions, most samples of their own first (ties by name), with their
/// shares, and their samples with what they call.
fn profile_json(
    samples: &std::collections::BTreeMap<String, chancery_core::script::profile::Samples>,
) -> serde_json::Value {
    let total: u64 = samples.values().map(|s| s.own).sum();
    let share = |n: u64| (n as f64 / total.max(1) as f64 * 1000.0).round() / 1000.0;
    let mut functions: Vec<_> = samples.iter().collect();
    functions.sort_by(|a, b| b.1.own.cmp(&a.1.own).then(a.0.cmp(b.0)));
    serde_json::json!({
        "samples": total,
        "functions": functions
            .iter()
            .map(|(f, n)| serde_json::json!({
                "function": f,
                "samples": n.own,
                "share": share(n.own),
                "with_callees": n.with_callees,
                "with_callees_share": share(n.with_callees),
            }))
            .collect::<Vec<_>>(),
    })
}

/// Functions each list of the profile shows.
const PROFILE_LINES: usize = 20;

fn print_profile(profile: &serde_json::Value, out: &mut dyn Write) -> anyhow::Result<()> {
    let total = profile["samples"].as_u64().unwrap_or(0);
    writeln!(
        out,
        "Where the module's code spends its instructions ({total} samples of 100 instructions; the time inside ctx functions is not counted; line 0 is a script's top level):"
    )?;
    let mut functions = profile["functions"].as_array().cloned().unwrap_or_default();
    // One function's line: its share and its samples, read from the fields named.
    let line = |f: &serde_json::Value, (share, samples): (&str, &str), out: &mut dyn Write| {
        writeln!(
            out,
            "  {:>5.1} %  {:>9}  {}",
            f[share].as_f64().unwrap_or(0.0) * 100.0,
            f[samples].as_u64().unwrap_or(0),
            f["function"].as_str().unwrap_or("")
        )
    };
    writeln!(out, "  in the function itself:")?;
    // A function sampled only while it waited on a call has no line here.
    for f in functions
        .iter()
        .filter(|f| f["samples"].as_u64() > Some(0))
        .take(PROFILE_LINES)
    {
        line(f, ("share", "samples"), out)?;
    }
    // The same samples again, each counted for every function that was running then or
    // waiting on a call: what a function costs with everything it calls.
    functions.sort_by(|a, b| {
        b["with_callees"]
            .as_u64()
            .cmp(&a["with_callees"].as_u64())
            .then(a["function"].as_str().cmp(&b["function"].as_str()))
    });
    writeln!(out, "  in the function and what it calls:")?;
    for f in functions.iter().take(PROFILE_LINES) {
        line(f, ("with_callees_share", "with_callees"), out)?;
    }
    if functions.len() > PROFILE_LINES {
        writeln!(
            out,
            "  ({} more functions; --json lists them all)",
            functions.len() - PROFILE_LINES
        )?;
    }
    Ok(())
}

fn print_summary(
    module: &Module,
    report: &SimReport,
    config: &SimConfig,
    json: &serde_json::Value,
    coverage: Option<&[coverage::Step]>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let timing = report.timing();
    writeln!(
        out,
        "{} games of {} from seed {} in {} ms ({} games/s, {} µs a decision on one thread; the engine's share {})",
        report.outcomes.len(),
        module.name_of("scenario", config.scenario.as_str()),
        config.seed,
        report.elapsed_ms,
        timing["games_per_second"],
        timing["us_per_decision"],
        timing["engine_share"],
    )?;
    writeln!(
        out,
        "Decisions: {} bots chose among several actions, {} had a single one; the rules took {} steps on their own",
        timing["chosen_decisions"], timing["forced_decisions"], timing["automatic_steps"],
    )?;
    print_tables(module, json, report.outcomes.len(), out)?;
    if let Some(errors) = json["errors"].as_array().filter(|e| !e.is_empty()) {
        writeln!(
            out,
            "{} game(s) stopped early; first: {}",
            errors.len(),
            errors[0]
        )?;
    }
    if let Some(steps) = coverage {
        let never: Vec<_> = steps.iter().filter(|s| s.reached == 0).collect();
        writeln!(
            out,
            "flowchart coverage: {} of {} bot steps reached; never reached:",
            steps.len() - never.len(),
            steps.len()
        )?;
        for s in never {
            writeln!(out, "  {}: {}  ({})", s.bot, s.step, s.at)?;
        }
    }
    Ok(())
}

/// The summary as tables a person reads, with the module's names: wins, results, scores,
/// game length, the cards played (most first, with how often by the game's winner) and the
/// bot rules used.
fn print_tables(
    module: &Module,
    json: &serde_json::Value,
    games: usize,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let seat = |id: &str| match id {
        "draw" => "a draw".to_owned(),
        "unfinished" => "unfinished".to_owned(),
        id => id
            .split('+')
            .map(|s| module.seat_name(&chancery_core::SeatId::from(s)))
            .collect::<Vec<_>>()
            .join(" and "),
    };
    let share = |n: u64| match games {
        0 => 0.0,
        g => 100.0 * n as f64 / g as f64,
    };
    let counts = |value: &serde_json::Value| -> Vec<(String, u64)> {
        let mut rows: Vec<(String, u64)> = value
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        rows
    };
    writeln!(out, "Wins (a game won together counts for each):")?;
    for (id, n) in counts(&json["wins"]) {
        writeln!(out, "  {:<28} {n:>6}  {:>5.1} %", seat(&id), share(n))?;
    }
    writeln!(out, "Results (the winners together):")?;
    for (id, n) in counts(&json["results"]) {
        writeln!(out, "  {:<28} {n:>6}  {:>5.1} %", seat(&id), share(n))?;
    }
    writeln!(
        out,
        "Scores:                            min  median    mean     max"
    )?;
    if let Some(scores) = json["scores"].as_object() {
        for (id, s) in scores {
            writeln!(
                out,
                "  {:<28} {:>7} {:>7} {:>7} {:>7}",
                seat(id),
                s["min"].to_string(),
                s["median"].to_string(),
                s["mean"].to_string(),
                s["max"].to_string()
            )?;
        }
    }
    let steps = &json["steps"];
    writeln!(
        out,
        "Game length: {} to {} inputs, median {}, mean {}.",
        steps["min"], steps["max"], steps["median"], steps["mean"]
    )?;
    let names = card_names(module);
    let cards = counts(&json["card_use"]);
    if !cards.is_empty() {
        let width = cards
            .iter()
            .map(|(id, _)| names(id).chars().count())
            .max()
            .unwrap_or(0);
        writeln!(
            out,
            "Cards played (most first){:w$}  played  by the winner",
            "",
            w = width.saturating_sub(23)
        )?;
        for (id, n) in cards {
            let won = json["card_wins"][&id].as_u64().unwrap_or(0);
            writeln!(out, "  {:<width$} {n:>7}  {won:>7}", names(&id))?;
        }
    }
    let rules = counts(&json["bot_rules"]);
    if !rules.is_empty() {
        writeln!(out, "Bot rules used (by the rule their reasons name)")?;
        for (rule, n) in rules {
            writeln!(out, "  {rule:<60} {n:>7}")?;
        }
    }
    Ok(())
}

/// Says once why the run stopped, if a game failed; the exit code (1 if any game stopped
/// early).
fn exit_code(report: &SimReport, config: &SimConfig, err: &mut dyn Write) -> anyhow::Result<i32> {
    if let Some(failure) = report.outcomes.iter().find(|o| o.failed) {
        // Every later game would fail the same way: said once, with the seed to replay it.
        writeln!(
            err,
            "error: the game of seed {} failed, so the simulation stopped after {} of {} games:\n{}",
            failure.seed,
            report.outcomes.len(),
            config.shard.range(config.games).len(),
            failure.error.as_deref().unwrap_or_default()
        )?;
    }
    let failed = report.outcomes.iter().filter(|o| o.error.is_some()).count();
    Ok(if failed > 0 { 1 } else { 0 })
}

fn run_merge(files: &[PathBuf], out: &mut dyn Write) -> anyhow::Result<i32> {
    let mut shards = Vec::new();
    for path in files {
        // At most the games of one run, a few KiB each.
        const MAX_SHARD_BYTES: u64 = 1024 * 1024 * 1024;
        let text = chancery_core::files::read_file(
            path,
            MAX_SHARD_BYTES,
            "a shard file is the JSON `chancery sim --shard` prints",
        )
        .map_err(|e| anyhow::anyhow!("cannot read the shard file: {e}"))?;
        let shard: ShardFile = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not a shard file (made by `chancery sim MODULE --shard I/N`)",
                path.display()
            )
        })?;
        shards.push((path.display().to_string(), shard));
    }
    // With the module at hand (found by the id the shards name), each game's seats are
    // checked against the scenario's.
    let seats = shards.first().and_then(|(_, first)| {
        if !chancery_core::ids::is_plain_name(&first.module) {
            return None;
        }
        let dir = crate::games::resolve_module(Path::new(&first.module));
        let quietly = chancery_core::LoadOptions {
            overlay: chancery_core::OverlayChoice::Off,
            strict: false,
        };
        let module = chancery_core::load_module(&dir, &quietly).ok()?;
        let scenario = module.scenarios.get(first.scenario.as_str())?;
        Some(module.scenario_seats(scenario))
    });
    let json = merge(&shards, seats.as_deref()).map_err(anyhow::Error::msg)?;
    writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    let errors = json["errors"].as_array().map_or(0, Vec::len);
    Ok(if errors > 0 { 1 } else { 0 })
}

fn run_compare(
    args: &SimArgs,
    old: &str,
    new_dir: &Path,
    module: Arc<Module>,
    config: &SimConfig,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<i32> {
    let old_module = load_old_version(old, new_dir, &args.overlay.load_options(false))?;
    let mut games = config.shard.range(config.games).len();
    let (comparison, until) = if args.until_clear {
        let (sequential, words) = until_clear(args, old_module, &module, config, err)?;
        games = sequential.games;
        (sequential.comparison, Some((words, sequential.headlines)))
    } else {
        let progress = Progress::new(2 * games, "compare");
        let comparison = compare(old_module, module.clone(), config, &|done| {
            progress.tick(done)
        })
        .map_err(anyhow::Error::msg)?;
        progress.finish();
        (comparison, None)
    };
    let new_name = new_dir.display().to_string();
    let mut json = comparison.to_json(old, &new_name, config, module.id());
    if let Some((words, headlines)) = &until {
        json["until_clear"] = serde_json::json!({
            "games": games,
            "stopped": words,
            "precision": args.precision,
            "headlines": headlines,
        });
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        let names = card_names(&module);
        writeln!(
            out,
            "{} against {}: {games} games each, paired by seed.",
            new_name, old
        )?;
        if let Some((words, _)) = &until {
            writeln!(out, "{words}")?;
        }
        writeln!(
            out,
            "{}",
            comparison.verdict(|m| crate::games::metric_name(&module, m))
        )?;
        writeln!(out, "Differences, new - old, with 95 % intervals:")?;
        for m in &comparison.metrics {
            if m.group.starts_with("card") && !m.significant {
                continue;
            }
            let name = if m.group.starts_with("card") {
                names(&m.name)
            } else if m.name.is_empty() {
                String::new()
            } else {
                module.seat_name(&chancery_core::SeatId::from(m.name.as_str()))
            };
            writeln!(
                out,
                "  {:<16} {:<24} {:>14} → {:<14} {} [{}, {}]{}",
                m.group,
                name,
                m.show(m.old),
                m.show(m.new),
                m.show_change(m.difference),
                m.show_number(m.low),
                m.show_number(m.high),
                if m.significant { "  significant" } else { "" }
            )?;
        }
        let quiet = comparison
            .metrics
            .iter()
            .filter(|m| m.group.starts_with("card") && !m.significant)
            .count();
        writeln!(
            out,
            "  ({quiet} card metrics without a significant change not shown)"
        )?;
    }
    if let Some(dir) = &args.plot {
        for path in plot::comparison_charts(dir, &comparison, &module)? {
            writeln!(err, "wrote {}", path.display())?;
        }
    }
    let a = exit_code(&comparison.old, config, err)?;
    let b = exit_code(&comparison.new, config, err)?;
    Ok(a.max(b))
}

/// Plays `--until-clear`'s rounds, telling each round's intervals on `err`; the comparison
/// and why it stopped, in words.
fn until_clear(
    args: &SimArgs,
    old: Arc<Module>,
    module: &Arc<Module>,
    config: &SimConfig,
    err: &mut dyn Write,
) -> anyhow::Result<(Sequential, String)> {
    let rule = UntilClear {
        precision: args.precision,
        ..UntilClear::default()
    };
    if !(rule.precision > 0.0 && rule.precision.is_finite()) {
        anyhow::bail!(
            "--precision must be a number above 0 (points of percent), not {}",
            args.precision
        );
    }
    let lines = Mutex::new(Vec::new());
    let live = std::io::stderr().is_terminal();
    let sequential = compare_until_clear(
        old,
        module.clone(),
        config,
        &rule,
        (&|_| {}, &|round| {
            let open = round.headlines.iter().filter(|h| !h.settled()).count();
            let widest = round
                .headlines
                .iter()
                .filter(|h| !h.settled())
                .map(|h| {
                    let (width, wanted) = crate::games::headline_width(h);
                    format!(
                        "{} {width} (want {wanted})",
                        crate::games::headline_name(module, h)
                    )
                })
                .next()
                .unwrap_or_default();
            let line = format!(
                "until clear: {} of at most {} games each; {open} metric(s) open{}",
                round.games,
                round.most,
                if widest.is_empty() {
                    String::new()
                } else {
                    format!(", e.g. {widest}")
                }
            );
            if live {
                eprintln!("{line}");
            } else if let Ok(mut lines) = lines.lock() {
                lines.push(line);
            }
        }),
        &std::sync::atomic::AtomicBool::new(false),
    )
    .map_err(anyhow::Error::msg)?;
    // On a terminal each round is told as it ends; otherwise all of them at the end.
    if !live {
        for line in lines.into_inner().unwrap_or_default() {
            writeln!(err, "{line}")?;
        }
    }
    let words = sequential.words(args.precision, |h| crate::games::headline_name(module, h));
    Ok((sequential, words))
}
