//! The app window (eframe/egui). For now: the loaded module, the table as lists, the
//! decision panel with the legal actions, bot steps, the log, undo/redo and hot reload.
//! It changes the game only by sending commands to the session.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use anyhow::Context;
use chancery_core::save::SaveFile;
use chancery_core::session::parse_controller;
use chancery_core::watch::{ModuleWatcher, Reload};
use chancery_core::{GameSpec, Input, Module, SeatId, Session};
use egui::{Color32, RichText};

use crate::cli::{OpenArgs, module_dir};

/// Frames drawn before a screenshot is taken (layout settles over the first frames).
const SCREENSHOT_AFTER_FRAMES: u32 = 4;

/// The app's state.
pub struct ChanceryApp {
    session: Session,
    watcher: Option<ModuleWatcher>,
    /// The last reload's report, or its diagnostics.
    reload_text: Option<(bool, String)>,
    /// The last error of a command.
    error: Option<String>,
    screenshot: Option<PathBuf>,
    frames: u32,
    shot: Option<Receiver<Arc<egui::ColorImage>>>,
}

impl ChanceryApp {
    /// An app playing `session`, reloading its module when its files change.
    pub fn new(session: Session, watch: bool) -> Self {
        let watcher = if watch {
            let module = session.module();
            let options = chancery_core::LoadOptions {
                overlay: match &module.overlay {
                    Some(o) => chancery_core::OverlayChoice::File(o.path.clone()),
                    None => chancery_core::OverlayChoice::Off,
                },
                strict: false,
            };
            let overlay = module.overlay.as_ref().map(|o| o.path.clone());
            ModuleWatcher::new(&module.dir, options, overlay, Duration::from_millis(150)).ok()
        } else {
            None
        };
        ChanceryApp {
            session,
            watcher,
            reload_text: None,
            error: None,
            screenshot: None,
            frames: 0,
            shot: None,
        }
    }

    /// The session being played.
    pub fn session(&self) -> &Session {
        &self.session
    }

    fn apply(&mut self, input: Input) {
        self.error = self.session.apply(input).err().map(|e| e.to_string());
    }

    fn poll_reload(&mut self) {
        let Some(reload) = self.watcher.as_ref().and_then(ModuleWatcher::try_next) else {
            return;
        };
        self.reload_text = Some(match reload {
            Reload::Loaded {
                module, load_ms, ..
            } => match self.session.rebase(module) {
                Ok(report) => (true, format!("Reloaded in {load_ms} ms.\n{report}")),
                Err(err) => (
                    false,
                    format!(
                        "The new version cannot start this game; still playing the last good one.\n{err}"
                    ),
                ),
            },
            Reload::Failed { diagnostics, .. } => (
                false,
                format!(
                    "The module does not load; still playing the last good version.\n{diagnostics}"
                ),
            ),
            Reload::WatchError(message) => {
                (false, format!("Watching the module failed: {message}"))
            }
        });
    }

    fn keys(&mut self, ctx: &egui::Context) {
        let (undo, redo) = ctx.input(|i| {
            let z = i.key_pressed(egui::Key::Z) && i.modifiers.command;
            (z && !i.modifiers.shift, z && i.modifiers.shift)
        });
        if undo {
            self.session.undo();
        }
        if redo && let Err(e) = self.session.redo() {
            self.error = Some(e.to_string());
        }
    }

    fn top_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let module = self.session.module().clone();
            let table = self.session.table();
            let scenario = module
                .scenarios
                .get(table.scenario.as_str())
                .map(|s| s.name.clone())
                .unwrap_or_default();
            ui.heading(format!("{} — {scenario}", module.manifest.name));
            ui.label(format!(
                "Turn {} · {} · seed {}",
                table.turn, table.phase, table.seed
            ));
            ui.separator();
            if ui.button("Undo").on_hover_text("Ctrl+Z").clicked() {
                self.session.undo();
            }
            if ui.button("Redo").on_hover_text("Ctrl+Shift+Z").clicked()
                && let Err(e) = self.session.redo()
            {
                self.error = Some(e.to_string());
            }
            ui.label(format!("{} inputs", self.session.history().len()));
        });
    }

    fn prompt_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Decision");
        let mut chosen = None;
        match self.session.prompt().clone() {
            Ok(None) => {
                let result = self.session.table().result.clone().unwrap_or_default();
                ui.label(RichText::new("The game is over.").strong());
                ui.label(result.text);
            }
            Ok(Some(prompt)) => {
                let seat = prompt
                    .seat
                    .as_ref()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| "Anyone".to_owned());
                ui.label(RichText::new(format!("{seat}: {}", prompt.text)).strong());
                ui.label(format!("state '{}'", prompt.state));
                for (i, action) in prompt.actions.iter().enumerate() {
                    match action.range {
                        Some((lo, hi)) => {
                            ui.horizontal(|ui| {
                                let id = ui.scope_id().with(("number", &prompt.state, i));
                                let mut n: i64 = ui.data_mut(|d| *d.get_temp_mut_or(id, lo));
                                ui.add(egui::DragValue::new(&mut n).range(lo..=hi));
                                ui.data_mut(|d| d.insert_temp(id, n));
                                if ui.button(&action.label).clicked() {
                                    chosen = Some(chancery_core::Choice {
                                        name: action.name.clone(),
                                        arg: chancery_core::Value::Int(n),
                                    });
                                }
                            });
                        }
                        None => {
                            if ui.button(&action.label).clicked() {
                                chosen = Some(action.choice());
                            }
                        }
                    }
                }
                let bot_turn = prompt
                    .seat
                    .as_ref()
                    .and_then(|s| self.session.table().seats.get(s))
                    .is_some_and(|c| matches!(c, chancery_core::Controller::Bot(_)));
                if bot_turn && ui.button("Bot step").clicked() {
                    match self.session.bot_step() {
                        Ok(_) => self.error = None,
                        Err(e) => self.error = Some(e.to_string()),
                    }
                }
            }
            Err(err) => {
                ui.colored_label(Color32::LIGHT_RED, err.to_string());
                ui.label("The table still works by hand.");
            }
        }
        if let Some(choice) = chosen {
            self.apply(Input::act(choice));
        }
        if let Some(error) = &self.error {
            ui.separator();
            ui.colored_label(Color32::LIGHT_RED, error);
        }
    }

    fn log_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Log");
        let mut go_to = None;
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for entry in self.session.log() {
                    if entry.index > 0 {
                        let text = format!("#{} {} [{}]", entry.index, entry.input, entry.by);
                        if ui
                            .link(text)
                            .on_hover_text("Go back to just after this input")
                            .clicked()
                        {
                            go_to = Some(entry.index);
                        }
                        for reason in &entry.reason {
                            ui.label(RichText::new(format!("   {reason}")).italics());
                        }
                    }
                    for message in &entry.messages {
                        ui.label(format!("   {message}"));
                    }
                }
            });
        if let Some(n) = go_to
            && let Err(e) = self.session.goto(n)
        {
            self.error = Some(e.to_string());
        }
    }

    fn table_ui(&mut self, ui: &mut egui::Ui) {
        let module = self.session.module().clone();
        let table = self.session.table().clone();
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("Counters");
            for counter in module.counters.iter() {
                let value = table
                    .counters
                    .get(&counter.id)
                    .map(|c| c.value)
                    .unwrap_or_default();
                ui.label(format!("{}: {value}", counter.name));
            }
            ui.heading("Cards");
            for zone in module.zones.iter() {
                let Some(z) = table.zones.get(&zone.id) else {
                    continue;
                };
                let names: Vec<String> = match zone.visibility {
                    chancery_core::table::Visibility::Hidden => {
                        vec![format!("{} face down", z.cards.len())]
                    }
                    _ => z
                        .cards
                        .iter()
                        .map(|c| match z.face_down.contains(c) {
                            true => "(face down)".to_owned(),
                            false => module
                                .cards
                                .get(c.as_str())
                                .map(|d| d.name.clone())
                                .unwrap_or_else(|| c.to_string()),
                        })
                        .collect(),
                };
                ui.label(format!(
                    "{} ({}): {}",
                    zone.name,
                    z.cards.len(),
                    names.join(", ")
                ));
            }
            ui.heading("Places");
            for place in module.places.iter() {
                let pieces = table.places.get(&place.def.id).cloned().unwrap_or_default();
                let at: Vec<String> = pieces.iter().map(|(p, s)| format!("{p} @ {s}")).collect();
                ui.label(format!(
                    "{}: {}",
                    place.def.name,
                    if at.is_empty() {
                        "—".to_owned()
                    } else {
                        at.join(", ")
                    }
                ));
            }
            ui.heading("Boxes");
            for boxed in module.boxes.iter() {
                let units = table.boxes.get(&boxed.id).cloned().unwrap_or_default();
                let at: Vec<String> = units.iter().map(|(k, n)| format!("{k} × {n}")).collect();
                ui.label(format!(
                    "{}: {}",
                    boxed.name,
                    if at.is_empty() {
                        "empty".to_owned()
                    } else {
                        at.join(", ")
                    }
                ));
            }
        });
    }

    fn screenshot_step(&mut self, ctx: &egui::Context) {
        let Some(path) = self.screenshot.clone() else {
            return;
        };
        self.frames += 1;
        if self.frames == SCREENSHOT_AFTER_FRAMES {
            let (tx, rx) = channel();
            ctx.request_screenshot(move |image| {
                let _ = tx.send(image);
            });
            self.shot = Some(rx);
        }
        if let Some(image) = self.shot.as_ref().and_then(|rx| rx.try_recv().ok()) {
            if let Err(e) = save_png(&path, &image) {
                eprintln!("error: cannot save the screenshot: {e:#}");
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        ctx.request_repaint();
    }
}

impl eframe::App for ChanceryApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.poll_reload();
        self.keys(&ctx);
        egui::Panel::top("top").show(ui, |ui| self.top_ui(ui));
        if let Some((ok, text)) = self.reload_text.clone() {
            egui::Panel::bottom("reload").show(ui, |ui| {
                let color = if ok {
                    Color32::LIGHT_GREEN
                } else {
                    Color32::LIGHT_RED
                };
                ui.colored_label(color, text);
            });
        }
        egui::Panel::left("prompt")
            .min_size(260.0)
            .show(ui, |ui| self.prompt_ui(ui));
        egui::Panel::right("log")
            .min_size(300.0)
            .show(ui, |ui| self.log_ui(ui));
        egui::CentralPanel::default().show(ui, |ui| self.table_ui(ui));
        if self.watcher.is_some() {
            ctx.request_repaint_after(Duration::from_millis(250));
        }
        self.screenshot_step(&ctx);
    }
}

fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> anyhow::Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let [w, h] = image.size;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(image.as_raw())?;
    Ok(())
}

/// Starts the game `args` describe (or loads it), as the window will play it.
pub fn start_session(args: &OpenArgs) -> anyhow::Result<Session> {
    let options = args.overlay.load_options(false);
    if let Some(path) = &args.load {
        let file = SaveFile::read(path)?;
        let dir = args
            .module
            .clone()
            .unwrap_or_else(|| PathBuf::from(&file.module.dir));
        let module = Module::load(&dir, &options).map_err(|d| anyhow::anyhow!("{d}"))?;
        let (session, _) = file.restore(Arc::new(module), path)?;
        return Ok(session);
    }
    let dir = module_dir(args.module.as_deref());
    let module = Arc::new(Module::load(&dir, &options).map_err(|d| anyhow::anyhow!("{d}"))?);
    let scenario = match &args.scenario {
        Some(s) => s.clone(),
        None => module
            .default_scenario()
            .map(|s| s.id.to_string())
            .context("the module has no scenario")?,
    };
    let mut spec = GameSpec::new(scenario, args.seed);
    for pair in &args.seats {
        let (seat, who) = pair
            .split_once('=')
            .with_context(|| format!("--seat '{pair}' is not SEAT=WHO"))?;
        spec.seats.insert(
            SeatId::from(seat),
            parse_controller(&module, seat, who).map_err(anyhow::Error::msg)?,
        );
    }
    Ok(Session::new(module, spec)?)
}

/// Opens the window; returns the exit code.
pub fn run(args: OpenArgs) -> anyhow::Result<i32> {
    let session = start_session(&args)?;
    let (w, h) = args
        .size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<f32>().ok()?, h.parse::<f32>().ok()?)))
        .context("--size must be WIDTHxHEIGHT, like 1600x1000")?;
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_title("Chancery")
            .with_inner_size([w, h])
            .with_min_inner_size([800.0, 500.0]),
        ..Default::default()
    };
    let screenshot = args.screenshot.clone();
    eframe::run_native(
        "Chancery",
        options,
        Box::new(move |_cc| {
            let mut app = ChanceryApp::new(session, screenshot.is_none());
            app.screenshot = screenshot;
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| {
        anyhow::anyhow!("cannot open the window: {e}. Without a display, run `chancery --headless`")
    })?;
    Ok(0)
}
