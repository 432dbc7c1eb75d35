//! The Balance panel: bot-only games of the open module played in the background, alone or
//! against another version at the same seeds (the last committed one, or a folder), with
//! progress, Cancel, and the results drawn (egui_plot).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chancery_core::sim::compare::{Comparison, Metric, compare_until};
use chancery_core::sim::coverage;
use chancery_core::sim::sequential::{Round, UntilClear, compare_until_clear};
use chancery_core::sim::{SimConfig, SimReport, simulate_until};
use chancery_core::{Module, SeatId, Value};
use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, Legend, Plot};

use super::game::GameView;
use crate::games::{card_names, load_old_version};

/// What the games are compared against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Against {
    /// Nothing: the open version alone.
    Nothing,
    /// The module as last committed to git.
    LastCommit,
    /// Another copy of the module in a folder.
    Folder,
}

/// The panel's settings, the run under way and the last result.
pub struct Balance {
    /// Whether the panel is open.
    pub open: bool,
    /// Games to play (each version).
    pub games: usize,
    /// The first game's seed.
    pub seed: u64,
    /// What to compare against.
    pub against: Against,
    /// The other version's folder, for [`Against::Folder`].
    pub folder: String,
    /// When comparing: stop as soon as the answer is clear (at most `games` each).
    pub until_clear: bool,
    /// The precision at which a metric that has not changed counts as known: points of
    /// percent for win rates, percent of the old mean for scores and length.
    pub precision: f64,
    job: Option<Job>,
    /// The set-up options of the games of the last run, in words.
    setup: Option<String>,
    /// The last result, or why it failed.
    result: Option<Result<Finished, String>>,
}

impl Default for Balance {
    fn default() -> Self {
        Balance {
            open: false,
            games: 200,
            seed: 1,
            against: Against::Nothing,
            folder: String::new(),
            until_clear: true,
            precision: UntilClear::default().precision,
            job: None,
            setup: None,
            result: None,
        }
    }
}

/// A finished run.
enum Finished {
    Run {
        report: Box<SimReport>,
        coverage: Coverage,
    },
    Compare {
        comparison: Box<Comparison>,
        against: String,
        /// With "stop when clear": why the rounds stopped, in words.
        stopped: Option<String>,
    },
}

/// A run under way on its own thread.
struct Job {
    done: Arc<AtomicUsize>,
    /// With "stop when clear": the headline metrics after the last round.
    round: Arc<Mutex<Option<Round>>>,
    total: usize,
    stop: Arc<AtomicBool>,
    started: Instant,
    answer: Receiver<Result<Finished, String>>,
}

impl Balance {
    /// Whether games are being played.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// The games the panel's settings ask for: the open game's scenario and options, every
    /// seat its default bot, on every core.
    fn config(&self, view: &GameView) -> SimConfig {
        SimConfig {
            options: view.session().spec().options.clone(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ..SimConfig::new(
                view.session().table().scenario.clone(),
                self.games.max(1),
                self.seed,
            )
        }
    }

    /// Starts the games for the open module, on a thread of their own.
    fn start(&mut self, view: &GameView) {
        let module = view.session().module().clone();
        let config = self.config(view);
        self.setup = setup_words(&module, &config);
        // The other version as `old_module_dir` reads it, and as the results name it.
        let against = match self.against {
            Against::Nothing => None,
            Against::LastCommit => Some((
                "git:HEAD".to_owned(),
                "the last committed version (git:HEAD)".to_owned(),
            )),
            Against::Folder => Some((self.folder.trim().to_owned(), self.folder.trim().to_owned())),
        };
        let load = view.options().load_options.clone();
        let done = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (tell, answer) = channel();
        let total = config.games * if against.is_some() { 2 } else { 1 };
        let (count, halt) = (done.clone(), stop.clone());
        let round = Arc::new(Mutex::new(None));
        let last_round = round.clone();
        // When comparing until the answer is clear: the rule it stops by.
        let until_clear = self.until_clear.then(|| UntilClear {
            precision: self.precision,
            ..UntilClear::default()
        });
        std::thread::spawn(move || {
            let progress = |n: usize| count.store(n, Ordering::Relaxed);
            let result = match against {
                None => {
                    simulate_until(module.clone(), &config, &progress, &halt).and_then(|report| {
                        if halt.load(Ordering::Relaxed) {
                            Err(format!(
                                "cancelled after {} of {} games",
                                report.outcomes.len(),
                                config.games
                            ))
                        } else {
                            Ok(Finished::Run {
                                coverage: Coverage::of(&module, &report),
                                report: Box::new(report),
                            })
                        }
                    })
                }
                Some((spec, against)) => load_old_version(&spec, &module.dir, &load)
                    .map_err(|e| format!("{e:#}"))
                    .and_then(|old| {
                        if let Some(rule) = until_clear {
                            let told = |r: &Round| {
                                if let Ok(mut last) = last_round.lock() {
                                    *last = Some(r.clone());
                                }
                            };
                            compare_until_clear(
                                old,
                                module.clone(),
                                &config,
                                &rule,
                                (&progress, &told),
                                &halt,
                            )
                            .map(|sequential| Finished::Compare {
                                stopped: Some(sequential.words(rule.precision, |h| {
                                    crate::games::headline_name(&module, h)
                                })),
                                comparison: Box::new(sequential.comparison),
                                against,
                            })
                        } else {
                            compare_until(old, module, &config, &progress, &halt).map(
                                |comparison| Finished::Compare {
                                    comparison: Box::new(comparison),
                                    against,
                                    stopped: None,
                                },
                            )
                        }
                    }),
            };
            let _ = tell.send(result);
        });
        self.result = None;
        self.job = Some(Job {
            done,
            round,
            total,
            stop,
            started: Instant::now(),
            answer,
        });
    }

    /// Picks up a finished run.
    fn poll(&mut self) {
        let Some(job) = &self.job else { return };
        match job.answer.try_recv() {
            Ok(result) => {
                self.result = Some(result);
                self.job = None;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                self.result = Some(Err("the games stopped without a result".to_owned()));
                self.job = None;
            }
        }
    }
}

/// The options the games are set up with, those the scenario gives bot-only games
/// (`bot_options`) included, in words; nothing when there are none.
fn setup_words(module: &Module, config: &SimConfig) -> Option<String> {
    let scenario = module.scenarios.get(config.scenario.as_str())?;
    let Value::Map(options) = config.options_for(scenario) else {
        return None;
    };
    if options.is_empty() {
        return None;
    }
    let words: Vec<String> = options
        .iter()
        .map(|(key, value)| {
            let value = match value.as_str() {
                Some(text) => text.to_owned(),
                None => format!("{value:?}"),
            };
            if config.options.get(key).is_some() {
                format!("{key}={value}")
            } else {
                format!("{key}={value} (the scenario's set-up for bot-only games)")
            }
        })
        .collect();
    Some(format!("The games are set up with {}.", words.join(", ")))
}

/// The Balance window.
pub fn balance_ui(ctx: &egui::Context, view: &GameView, balance: &mut Balance) {
    balance.poll();
    let mut open = balance.open;
    egui::Window::new("Balance")
        .open(&mut open)
        .default_size([760.0, 640.0])
        .vscroll(true)
        .show(ctx, |ui| window_ui(ui, view, balance));
    balance.open = open;
    if balance.running() {
        ctx.request_repaint_after(Duration::from_millis(100));
    }
}

/// The run's settings: games, first seed, what to compare against, and whether to stop
/// when clear; fixed while games are under way.
fn settings_ui(ui: &mut Ui, balance: &mut Balance, running: bool) {
    ui.add_enabled_ui(!running, |ui| {
        ui.horizontal(|ui| {
            ui.label("Games");
            ui.add(egui::DragValue::new(&mut balance.games).range(1..=100_000))
                .on_hover_text("How many games each version plays");
            ui.label("First seed");
            ui.add(egui::DragValue::new(&mut balance.seed))
                .on_hover_text("Game i plays seed + i: the same seeds give the same games");
        });
        ui.horizontal(|ui| {
            ui.label("Compare against");
            ui.radio_value(&mut balance.against, Against::Nothing, "nothing");
            ui.radio_value(
                &mut balance.against,
                Against::LastCommit,
                "the last committed version",
            )
            .on_hover_text("The module's folder as last committed to git (git:HEAD)");
            ui.radio_value(&mut balance.against, Against::Folder, "a folder");
        });
        if balance.against != Against::Nothing {
            ui.horizontal(|ui| {
                ui.checkbox(
                    &mut balance.until_clear,
                    "Stop as soon as the answer is clear (at most the games above)",
                )
                .on_hover_text(
                    "Plays rounds of games and stops when each seat's win rate and score, and the game's length, is clearly changed or known to within the precision. The intervals stay valid however often they are looked at.",
                );
                if balance.until_clear {
                    let label = ui.label("to within");
                    ui.add(
                        egui::DragValue::new(&mut balance.precision)
                            .range(0.1..=50.0)
                            .speed(0.1)
                            .suffix(" points"),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(
                        "Win rates to within this many points of percent; scores and the game's length to within this percentage of the old version's mean. A wider precision stops sooner.",
                    );
                }
            });
        }
        if balance.against == Against::Folder {
            ui.horizontal(|ui| {
                let label = ui.label("Other version's folder");
                ui.add(egui::TextEdit::singleline(&mut balance.folder).desired_width(360.0))
                    .labelled_by(label.id);
            });
        }
    });
}

fn window_ui(ui: &mut Ui, view: &GameView, balance: &mut Balance) {
    let module = view.session().module().clone();
    let scenario = module
        .scenarios
        .get(view.session().table().scenario.as_str())
        .map_or_else(
            || view.session().table().scenario.to_string(),
            |s| s.name.clone(),
        );
    // The scenario, unless it repeats the module's name.
    let game = if scenario == module.manifest.name {
        scenario
    } else {
        format!("{} ({scenario})", module.manifest.name)
    };
    ui.label(format!(
        "Bot-only games of {game}, every seat played by its default bot, the version open \
         now. Compare it against another version to see what an edit changes: both play \
         the same seeds."
    ));
    let running = balance.running();
    settings_ui(ui, balance, running);
    ui.horizontal(|ui| {
        if let Some(job) = &balance.job {
            let done = job.done.load(Ordering::Relaxed).min(job.total);
            let fraction = done as f32 / job.total.max(1) as f32;
            let elapsed = job.started.elapsed().as_secs_f32();
            let left = if done > 0 {
                format!(
                    ", about {:.0} s left",
                    elapsed / done as f32 * (job.total - done) as f32
                )
            } else {
                String::new()
            };
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(300.0)
                    .text(format!("{done} / {} games{left}", job.total)),
            );
            if ui.button("Cancel").clicked() {
                job.stop.store(true, Ordering::Relaxed);
            }
        } else {
            let label = if balance.against == Against::Nothing {
                "Play the games"
            } else {
                "Compare"
            };
            if ui.button(label).clicked() {
                balance.start(view);
            }
        }
    });
    if let Some(round) = balance
        .job
        .as_ref()
        .and_then(|job| job.round.lock().ok().and_then(|r| r.clone()))
    {
        round_ui(ui, &module, &round);
    }
    ui.separator();
    if let (Some(setup), Some(_)) = (&balance.setup, &balance.result) {
        ui.label(setup);
    }
    match &balance.result {
        None if !running => {
            ui.label("No results yet.");
        }
        None => {}
        Some(Err(why)) => {
            ui.colored_label(Color32::from_rgb(200, 40, 40), why);
        }
        Some(Ok(Finished::Run { report, coverage })) => run_ui(ui, &module, report, coverage),
        Some(Ok(Finished::Compare {
            comparison,
            against,
            stopped,
        })) => {
            if let Some(stopped) = stopped {
                ui.label(RichText::new(stopped).strong());
            }
            compare_ui(ui, &module, comparison, against);
        }
    }
}

/// The headline metrics after the last round of a run that stops when clear: each one's
/// interval narrowing towards the precision asked, or clear of zero.
fn round_ui(ui: &mut Ui, module: &Module, round: &Round) {
    ui.label(format!(
        "After {} of at most {} games each:",
        round.games, round.most
    ));
    egui::Grid::new("balance-rounds")
        .num_columns(3)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            for h in &round.headlines {
                ui.label(crate::games::headline_name(module, h));
                let width = if h.half_width.is_finite() && h.half_width > 0.0 {
                    (h.precision / h.half_width).min(1.0) as f32
                } else {
                    1.0
                };
                let (now, wanted) = crate::games::headline_width(h);
                ui.add(
                    egui::ProgressBar::new(width)
                        .desired_width(200.0)
                        .text(format!("{now} of {wanted}")),
                );
                ui.label(if h.changed {
                    "clearly changed"
                } else if h.precise {
                    "known"
                } else {
                    "open"
                });
                ui.end_row();
            }
        });
}

/// Wins by seat name, draws and unfinished games, most first.
fn wins(module: &Module, report: &SimReport) -> Vec<(String, f64)> {
    let mut wins: Vec<(String, f64)> = report
        .wins()
        .into_iter()
        .map(|(key, n)| {
            let name = match key.as_str() {
                "draw" => "Draw".to_owned(),
                "unfinished" => "Unfinished".to_owned(),
                seat => module.seat_name(&SeatId::from(seat)),
            };
            (name, n as f64)
        })
        .collect();
    wins.sort_by(|a, b| b.1.total_cmp(&a.1));
    wins
}

/// Each seat's final scores (by the seat's name): for each score, in how many games.
fn score_counts(
    module: &Module,
    report: &SimReport,
) -> std::collections::BTreeMap<String, std::collections::BTreeMap<i64, u64>> {
    report
        .score_counts()
        .into_iter()
        .map(|(seat, counts)| (module.seat_name(&SeatId::from(seat)), counts))
        .collect()
}

fn run_ui(ui: &mut Ui, module: &Module, report: &SimReport, coverage: &Coverage) {
    let games = report.outcomes.len();
    ui.heading(format!("Results of {games} games"));
    let wins = wins(module, report);
    ui.label(RichText::new("Wins by seat").strong());
    let bars: Vec<Bar> = wins
        .iter()
        .enumerate()
        .map(|(i, (name, n))| Bar::new(i as f64, *n).name(name).width(0.6))
        .collect();
    let names: Vec<String> = wins.iter().map(|w| w.0.clone()).collect();
    Plot::new("balance-wins")
        .height(180.0)
        .allow_scroll(false)
        .x_axis_formatter(move |mark, _| label_at(&names, mark.value))
        .show(ui, |plot| plot.bar_chart(BarChart::new("wins", bars)))
        .response
        .widget_info(|| chart_info("Chart of wins by seat"));
    ui.label(
        wins.iter()
            .map(|(name, n)| {
                let share = 100.0 * n / games.max(1) as f64;
                format!("{name}: {share:.0} % ({n} of {games})")
            })
            .collect::<Vec<_>>()
            .join(" · "),
    );
    // Scores by seat: one histogram per seat, side by side.
    ui.label(RichText::new("Final scores by seat (games)").strong());
    let scores = score_counts(module, report);
    let seats = scores.len().max(1) as f64;
    Plot::new("balance-scores")
        .height(200.0)
        .allow_scroll(false)
        .legend(Legend::default())
        .show(ui, |plot| {
            for (k, (seat, counts)) in scores.iter().enumerate() {
                let offset = (k as f64 + 0.5) * 0.8 / seats - 0.4;
                let bars: Vec<Bar> = counts
                    .iter()
                    .map(|(score, n)| {
                        Bar::new(*score as f64 + offset, *n as f64).width(0.8 / seats)
                    })
                    .collect();
                plot.bar_chart(BarChart::new(seat.clone(), bars));
            }
        })
        .response
        .widget_info(|| chart_info("Chart of final scores by seat"));
    // The cards played most.
    let mut cards: Vec<(String, u64)> = report.card_use().into_iter().collect();
    cards.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    if !cards.is_empty() {
        ui.label(RichText::new("Cards played most (plays a game)").strong());
        for (card, n) in cards.iter().take(10) {
            ui.label(format!(
                "{}: {:.2}",
                card_names(module)(card),
                *n as f64 / games.max(1) as f64
            ));
        }
    }
    coverage.ui(ui);
}

/// The steps of the flowcharts of the bots that played, and those no game reached, as
/// `chancery sim --coverage` lists them; worked out once, when the games end.
struct Coverage {
    steps: usize,
    never: Vec<coverage::Step>,
}

impl Coverage {
    fn of(module: &Module, report: &SimReport) -> Self {
        let steps = coverage::steps(module, &report.bot_rules());
        Coverage {
            steps: steps.len(),
            never: steps.into_iter().filter(|step| step.reached == 0).collect(),
        }
    }

    fn ui(&self, ui: &mut Ui) {
        const SHOWN: usize = 40;
        if self.steps == 0 {
            return;
        }
        let title = format!(
            "Bots' flowchart steps reached: {} of {}",
            self.steps - self.never.len(),
            self.steps
        );
        ui.collapsing(RichText::new(title).strong(), |ui| {
            if self.never.is_empty() {
                ui.label("Every step was reached.");
            }
            for step in self.never.iter().take(SHOWN) {
                ui.label(format!(
                    "Never reached: {}, {} ({})",
                    step.bot, step.step, step.at
                ));
            }
            if self.never.len() > SHOWN {
                ui.label(format!(
                    "… and {} more: `chancery sim --coverage` lists them all.",
                    self.never.len() - SHOWN
                ));
            }
        });
    }
}

/// One metric's difference as a dot on its interval, on a strip of its own scale: from minus
/// to plus the widest of the difference and its interval's ends, zero in the middle. Each
/// metric has its own scale, so a rate's interval is never a dot beside a length's.
fn difference_strip(ui: &mut Ui, m: &Metric) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(260.0, 16.0), egui::Sense::hover());
    let reach = m.reach();
    let x = |v: f64| rect.center().x + (v.clamp(-reach, reach) / reach) as f32 * rect.width() / 2.0;
    let y = rect.center().y;
    let painter = ui.painter_at(rect.expand(4.0));
    let stroke = |width: f32, color: Color32| egui::Stroke::new(width, color);
    painter.line_segment(
        [egui::pos2(rect.left(), y), egui::pos2(rect.right(), y)],
        stroke(1.0, ui.visuals().weak_text_color()),
    );
    painter.line_segment(
        [
            egui::pos2(x(0.0), rect.top()),
            egui::pos2(x(0.0), rect.bottom()),
        ],
        stroke(1.0, Color32::GRAY),
    );
    // Red: significant for its group; orange: clear of zero alone (what chance gives
    // among many); blue: within chance.
    let color = if m.significant {
        Color32::from_rgb(200, 40, 40)
    } else if m.clear_of_zero() {
        Color32::from_rgb(230, 140, 40)
    } else {
        Color32::from_rgb(60, 90, 160)
    };
    if m.low.is_finite() && m.high.is_finite() {
        painter.line_segment(
            [egui::pos2(x(m.low), y), egui::pos2(x(m.high), y)],
            stroke(2.0, color),
        );
    }
    painter.circle_filled(egui::pos2(x(m.difference), y), 4.0, color);
    response
}

/// What a screen reader says of a chart.
fn chart_info(what: &str) -> egui::WidgetInfo {
    egui::WidgetInfo::labeled(egui::Role::Image, true, what)
}

/// The name at a whole-number position of a chart axis, or nothing between them.
fn label_at(names: &[String], at: f64) -> String {
    let i = at.round();
    if (at - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    names.get(i as usize).cloned().unwrap_or_default()
}

fn compare_ui(ui: &mut Ui, module: &Module, comparison: &Comparison, against: &str) {
    let games = comparison.new.outcomes.len();
    ui.heading(format!(
        "This version against {against}: {games} games each, paired by seed"
    ));
    let significant: Vec<&Metric> = comparison
        .metrics
        .iter()
        .filter(|m| m.significant)
        .collect();
    ui.label(RichText::new(comparison.verdict(|m| crate::games::metric_name(module, m))).strong());
    if !significant.is_empty() {
        ui.label(RichText::new("Significant differences (new - old, 95 % interval)").strong());
        for m in &significant {
            ui.colored_label(
                Color32::from_rgb(200, 40, 40),
                format!(
                    "{}: {}",
                    crate::games::metric_name(module, m),
                    m.change_words()
                ),
            );
        }
    }
    // Every game-level metric, and the cards that changed, as dots with their intervals.
    let shown: Vec<&Metric> = comparison
        .metrics
        .iter()
        .filter(|m| !m.group.starts_with("card") || m.significant)
        .collect();
    ui.label(
        RichText::new(
            "Differences, new - old, with 95 % intervals (red: significant; orange: clear of zero alone, which chance gives among many)",
        )
        .strong(),
    );
    let rows = shown.len();
    egui::Grid::new("balance-differences")
        .num_columns(3)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for m in &shown {
                let name = crate::games::metric_name(module, m);
                ui.label(&name);
                difference_strip(ui, m)
                    .widget_info(|| chart_info(&format!("{name}: {}", m.change_words())));
                ui.label(m.change_words());
                ui.end_row();
            }
        })
        .response
        .widget_info(|| chart_info(&format!("Chart of {rows} differences with their intervals")));
    let quiet = comparison
        .metrics
        .iter()
        .filter(|m| m.group.starts_with("card") && !m.significant)
        .count();
    ui.label(format!(
        "{quiet} card metrics without a significant change are not drawn; `chancery sim --compare` lists them all."
    ));
}
