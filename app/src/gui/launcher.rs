//! The "New game / Open" window: pick a module folder, a scenario, who plays each seat, the
//! seed and options, or open a save (an autosave among them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chancery_core::module::OverlayChoice;
use chancery_core::save::SaveFile;
use chancery_core::{LoadOptions, Module, Session};
use egui::{Color32, RichText, Ui};

use super::game::seat_name;
use crate::games::{fresh_seed, restore, spec_from};

/// A game started or opened.
pub struct Opened {
    /// The game.
    pub session: Session,
    /// What loading and replaying it had to say (often nothing).
    pub notes: String,
    /// The save it was opened from, if it was.
    pub from: Option<PathBuf>,
    /// The table on a server the game is played at, if it was joined there.
    pub remote: Option<super::game::Remote>,
}

/// The launcher's fields.
pub struct Launcher {
    /// Whether the window is open.
    pub open: bool,
    /// The module folder typed.
    pub module_dir: String,
    /// The module loaded from it (or why it does not load).
    loaded: Option<(String, Result<Arc<Module>, String>)>,
    /// The scenario picked.
    pub scenario: String,
    /// Who plays each seat: "human", "bot" or "bot:NAME".
    pub seats: BTreeMap<String, String>,
    /// The seed.
    pub seed: u64,
    /// Options, one KEY=VALUE per line.
    pub options: String,
    /// A save to open.
    pub load_path: String,
    /// Why the last start failed.
    pub message: Option<String>,
    load_options: LoadOptions,
    /// Play the module's demo values (placeholders) rather than the owner's overlay.
    pub demo: bool,
    /// The autosaved games listed, read when the window opens (not at every frame) and
    /// again after a discard.
    kept: Option<Vec<super::autosave::Kept>>,
    /// An invitation link to a seat at a table on a server.
    pub link: String,
    /// The table being joined, until its first game comes.
    joining: Option<super::game::Remote>,
    /// Where the modules of joined tables are kept.
    pub module_cache: PathBuf,
}

impl Launcher {
    /// A launcher starting from the module in `dir`.
    pub fn new(dir: &Path, load_options: LoadOptions) -> Self {
        Launcher {
            open: false,
            module_dir: dir.display().to_string(),
            loaded: None,
            scenario: String::new(),
            seats: BTreeMap::new(),
            seed: fresh_seed(),
            options: String::new(),
            load_path: String::new(),
            message: None,
            demo: matches!(load_options.overlay, OverlayChoice::Demo),
            load_options,
            kept: None,
            link: String::new(),
            joining: None,
            module_cache: super::module_cache_dir(),
        }
    }

    /// The load options of a new game: the demo's values when asked, else the owner's.
    fn options_for_new(&self) -> LoadOptions {
        let mut options = self.load_options.clone();
        if self.demo {
            options.overlay = OverlayChoice::Demo;
        } else if matches!(options.overlay, OverlayChoice::Demo) {
            options.overlay = OverlayChoice::Default;
        }
        options
    }

    fn module(&mut self) -> Result<Arc<Module>, String> {
        let key = format!(
            "{}{}",
            self.module_dir,
            if self.demo { " (demo)" } else { "" }
        );
        if self.loaded.as_ref().is_none_or(|(dir, _)| *dir != key) {
            let loaded =
                chancery_core::load_module(self.module_dir.trim(), &self.options_for_new())
                    .map(Arc::new)
                    .map_err(|d| d.to_string());
            if let Ok(module) = &loaded {
                self.scenario = module
                    .default_scenario()
                    .map(|s| s.id.to_string())
                    .unwrap_or_default();
                self.seats.clear();
            }
            self.loaded = Some((key, loaded));
        }
        self.loaded
            .as_ref()
            .map(|(_, m)| m.clone())
            .unwrap_or_else(|| Err("no module".to_owned()))
    }

    /// Starts the game the fields describe.
    pub fn start(&mut self) -> Result<Session, String> {
        let module = self.module()?;
        let seats: Vec<String> = self
            .seats
            .iter()
            .filter(|(_, who)| *who != "human")
            .map(|(s, who)| format!("{s}={who}"))
            .collect();
        let options: Vec<String> = self
            .options
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        let spec = spec_from(&module, Some(&self.scenario), self.seed, &seats, &options)
            .map_err(|e| e.to_string())?;
        let session = chancery_core::start_game(module, spec).map_err(|e| e.to_string())?;
        // The next game deals afresh unless the person types a seed again.
        self.seed = fresh_seed();
        Ok(session)
    }

    /// Opens the save at `path`, under the module it names (or the one typed above when that
    /// folder is gone). Also returns what the module's loader and the replay had to say.
    pub fn open_save(&mut self, path: &Path) -> Result<Opened, String> {
        let file = SaveFile::read(path).map_err(|e| format!("{e:#}"))?;
        let typed = PathBuf::from(self.module_dir.trim());
        // The module typed above only when the save's own is not found.
        let module_dir = crate::games::module_of_save(&file, path)
            .is_none()
            .then_some(typed.as_path());
        let mut notes = Vec::new();
        let opened = restore(&file, path, module_dir, &self.load_options, &mut notes);
        let notes = String::from_utf8_lossy(&notes).into_owned();
        match opened {
            Ok(session) => Ok(Opened {
                session,
                notes,
                from: Some(path.to_path_buf()),
                remote: None,
            }),
            Err(err) => Err(format!("{notes}{err:#}")),
        }
    }

    /// Draws the window; returns a session to play when one was started or opened.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<Opened> {
        let mut open = self.open;
        let mut started = None;
        egui::Window::new("New game or open a save")
            .open(&mut open)
            .default_width(520.0)
            .show(ctx, |ui| {
                started = self.body(ui);
            });
        self.open = open && started.is_none();
        if !self.open {
            self.kept = None;
        }
        started
    }

    fn body(&mut self, ui: &mut Ui) -> Option<Opened> {
        let mut started = self.new_game_ui(ui);
        ui.separator();
        if let Some(opened) = self.open_ui(ui) {
            started = Some(opened);
        }
        ui.separator();
        if let Some(opened) = self.join_ui(ui) {
            started = Some(opened);
        }
        if let Some(message) = &self.message {
            ui.separator();
            ui.colored_label(Color32::LIGHT_RED, message);
        }
        started
    }

    /// A new game: the module folder, the scenario, who plays each seat, the seed and the
    /// options; Start.
    fn new_game_ui(&mut self, ui: &mut Ui) -> Option<Opened> {
        let mut started = None;
        ui.heading("New game");
        ui.horizontal(|ui| {
            let label = ui.label("Module folder");
            ui.add(egui::TextEdit::singleline(&mut self.module_dir).desired_width(300.0))
                .labelled_by(label.id);
        });
        let module = match self.module() {
            Err(diagnostics) => {
                ui.colored_label(
                    Color32::LIGHT_RED,
                    "This folder does not hold a module that loads:",
                );
                ui.label(RichText::new(diagnostics).monospace());
                return None;
            }
            Ok(module) => module,
        };
        ui.label(
            RichText::new(format!(
                "{} {}",
                module.manifest.name, module.manifest.version
            ))
            .strong(),
        );
        if module.manifest.demo.is_some() {
            ui.checkbox(&mut self.demo, "Demo: placeholder values")
                .on_hover_text("Try the game without entering the values only the owner of the physical game has: the module's placeholders are used, and nothing entered is stored");
        }
        egui::ComboBox::from_label("Scenario")
            .selected_text(
                module
                    .scenarios
                    .get(&self.scenario)
                    .map_or(self.scenario.clone(), |s| s.name.clone()),
            )
            .show_ui(ui, |ui| {
                for s in module.scenarios.iter() {
                    ui.selectable_value(&mut self.scenario, s.id.to_string(), &s.name);
                }
            });
        if let Some(s) = module.scenarios.get(&self.scenario).cloned() {
            self.seats_ui(ui, &module, &s);
        }
        ui.horizontal(|ui| {
            let label = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(label.id);
            if ui
                .button("New seed")
                .on_hover_text("A fresh deal; keep a seed to play the same deal again")
                .clicked()
            {
                self.seed = fresh_seed();
            }
        });
        let label =
            ui.label("Options for the module's set-up (KEY=VALUE, one per line; see its README):");
        ui.add(
            egui::TextEdit::multiline(&mut self.options)
                .desired_rows(2)
                .desired_width(400.0),
        )
        .labelled_by(label.id);
        if ui.button(RichText::new("Start").strong()).clicked() {
            match self.start() {
                Ok(session) => {
                    started = Some(Opened {
                        session,
                        notes: String::new(),
                        from: None,
                        remote: None,
                    })
                }
                Err(err) => self.message = Some(err),
            }
        }
        started
    }

    /// Who plays each seat of scenario `s`: a person or one of the module's bots.
    fn seats_ui(&mut self, ui: &mut Ui, module: &Module, s: &chancery_core::module::ScenarioDef) {
        ui.weak(&s.description);
        ui.label("Who plays each seat:");
        let mut who_options = vec!["human".to_owned()];
        who_options.extend(module.rules.bots.iter().map(|b| format!("bot:{b}")));
        egui::Grid::new("seats").num_columns(2).show(ui, |ui| {
            for seat in module.scenario_seats(s) {
                let label = ui.label(seat_name(module, &seat));
                let who = self.seats.entry(seat.to_string()).or_insert_with(|| {
                    s.bots
                        .get(&seat)
                        .map_or("human".to_owned(), |bot| format!("bot:{bot}"))
                });
                egui::ComboBox::from_id_salt(("who", seat.as_str()))
                    .selected_text(who.clone())
                    .show_ui(ui, |ui| {
                        for option in &who_options {
                            ui.selectable_value(who, option.clone(), option);
                        }
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
            }
        });
    }

    /// Open a save by its path, or one of the autosaved games.
    fn open_ui(&mut self, ui: &mut Ui) -> Option<Opened> {
        let mut started = None;
        ui.heading("Open a save");
        ui.horizontal(|ui| {
            let label = ui.label("Save file");
            ui.add(
                egui::TextEdit::singleline(&mut self.load_path)
                    .hint_text("path/to/game.ron")
                    .desired_width(300.0),
            )
            .labelled_by(label.id);
            if ui.button("Open").clicked() {
                match self.open_save(&PathBuf::from(self.load_path.trim())) {
                    Ok(opened) => started = Some(opened),
                    Err(err) => self.message = Some(err),
                }
            }
        });
        if self.kept.is_none() {
            self.kept = Some(
                super::autosave_dir()
                    .map(|dir| super::autosave::games(&dir, None))
                    .unwrap_or_default(),
            );
        }
        if let Some(games) = self.kept.clone() {
            if !games.is_empty() {
                ui.label("Autosaved games, the newest first (each kept until you discard it):");
            }
            egui::ScrollArea::vertical()
                .max_height(240.0)
                .show(ui, |ui| {
                    for game in games {
                        ui.horizontal(|ui| self.kept_game_ui(ui, &game, &mut started));
                    }
                });
        }
        started
    }

    /// A seat at a table on a server: its invitation link, and Join. The window goes on
    /// being drawn while the table is reached; the seat's game opens when it comes.
    fn join_ui(&mut self, ui: &mut Ui) -> Option<Opened> {
        ui.heading("Join a table on a server");
        ui.horizontal(|ui| {
            let label = ui.label("Invitation link");
            ui.add(
                egui::TextEdit::singleline(&mut self.link)
                    .hint_text("ws://HOST:PORT/ws#TOKEN")
                    .desired_width(300.0)
                    .password(true),
            )
            .labelled_by(label.id)
            .on_hover_text("The link the host sent you for your seat: it acts for that seat, so keep it to yourself");
            let joining = self.joining.is_some();
            if ui
                .add_enabled(!joining, egui::Button::new("Join"))
                .clicked()
            {
                match super::game::Remote::join(self.link.trim(), self.module_cache.clone()) {
                    Ok(remote) => {
                        self.joining = Some(remote);
                        self.message = None;
                    }
                    Err(e) => self.message = Some(e.to_string()),
                }
            }
        });
        let remote = self.joining.as_mut()?;
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!("Reaching the table at {}…", remote.server()));
        });
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(50));
        match remote.try_first() {
            Ok(None) => None,
            Ok(Some(session)) => Some(Opened {
                session,
                notes: String::new(),
                from: None,
                remote: self.joining.take(),
            }),
            Err(why) => {
                self.joining = None;
                self.message = Some(format!("Cannot join: {why}"));
                None
            }
        }
    }

    /// One autosaved game: open it, or discard it (into `discarded/`).
    fn kept_game_ui(
        &mut self,
        ui: &mut Ui,
        game: &super::autosave::Kept,
        started: &mut Option<Opened>,
    ) {
        let name = game
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if ui
            .link(&name)
            .on_hover_text(game.path.display().to_string())
            .clicked()
        {
            match self.open_save(&game.path) {
                Ok(opened) => *started = Some(opened),
                Err(err) => self.message = Some(err),
            }
        }
        if game.in_use {
            ui.weak("(playing in a window now)");
        } else if ui
            .small_button("Discard")
            .on_hover_text("Move this game to the autosave folder's discarded/ (old discarded games are removed)")
            .clicked()
        {
            match super::autosave::discard(&game.path) {
                Ok(to) => self.message = Some(format!("Discarded: moved to {}", to.display())),
                Err(err) => self.message = Some(err),
            }
            self.kept = None;
        }
    }
}
