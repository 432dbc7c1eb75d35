//! The app window (eframe/egui): the table drawn from the module's layout hints, the decision
//! panel, the log, hot reload, the card data editor and the launcher. It changes the game only
//! by sending commands to the session (see `game.rs`).

pub mod autosave;
mod balance;
mod board;
mod cards;
pub mod draw;
pub(crate) mod game;
mod hand;
mod launcher;
pub mod picture;
mod prompt;
mod side;
mod table;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use anyhow::Context;
use chancery_core::{DiceMode, LoadOptions, Manual, OverlayChoice, Session};
use egui::{Color32, RichText, Ui};

use crate::games::{OpenArgs, open_session};
pub use draw::{DropTarget, Selected};
pub use game::{GameOptions, GameView, LinkState, Remote, Viewer};
pub use launcher::{Launcher, Opened};

/// Frames drawn before a screenshot is taken (layout settles over the first frames).
const SCREENSHOT_AFTER_FRAMES: u32 = 4;

/// The app's state.
pub struct ChanceryApp {
    /// The game on the screen.
    pub view: GameView,
    /// The "New game / Open" window.
    pub launcher: Launcher,
    editor: side::Editor,
    /// The Balance panel: bot-only games of the open module, alone or against another version.
    pub balance: balance::Balance,
    /// The last game of this module played before this start (autosaved, with inputs, no
    /// window playing it), offered for resuming.
    pub previous_autosave: Option<PathBuf>,
    last_bot_step: Instant,
    screenshot: Option<PathBuf>,
    frames: u32,
    shot: Option<Receiver<Arc<egui::ColorImage>>>,
    /// Why the screenshot could not be saved, for the exit code once the window closes.
    shot_failed: Arc<std::sync::Mutex<Option<String>>>,
    fonts_set: bool,
    /// `--frame-stats`: how many frames to measure, and the CPU time of those measured.
    frame_stats: Option<(usize, Vec<(f32, f32)>)>,
    /// Offer the demo on the first screen: the module has demo values, and the owner has
    /// entered none of the real ones yet.
    offer_demo: bool,
    /// Whether the person asked for a scenario, seats or options: *Try the demo* then plays
    /// that game, else the module's demo game.
    pub start_given: bool,
}

impl ChanceryApp {
    /// An app playing the game in `view`.
    pub fn new(view: GameView, launcher: Launcher) -> Self {
        ChanceryApp {
            view,
            launcher,
            editor: side::Editor::default(),
            balance: balance::Balance::default(),
            previous_autosave: None,
            last_bot_step: Instant::now(),
            screenshot: None,
            frames: 0,
            shot: None,
            shot_failed: Arc::default(),
            fonts_set: false,
            frame_stats: None,
            offer_demo: false,
            start_given: false,
        }
        .offering_the_demo()
    }

    /// Offers the demo on the first screen when the module has demo values and the owner's
    /// own overlay is not there yet (values not entered, none stored).
    fn offering_the_demo(mut self) -> Self {
        let module = self.view.session().module();
        self.offer_demo = module.manifest.demo.is_some()
            && module
                .overlay
                .as_ref()
                .is_some_and(|o| !o.present && !o.demo)
            && self.view.unknown_fields() > 0;
        self
    }

    /// Starts the game being played again (its scenario, seats, seed and options) with the
    /// module's demo values; where the person asked for no game of his own, the module's
    /// demo game (its seating), with one person at the screen when it is a solitaire.
    pub fn start_demo(&mut self) {
        let module = self.view.session().module();
        let options = LoadOptions {
            overlay: OverlayChoice::Demo,
            strict: false,
        };
        // The game being played asked for nothing: the module's demo game, same seed.
        let start = crate::games::StartArgs {
            seed: Some(self.view.session().spec().seed),
            ..Default::default()
        };
        let demo_game = start.demo_game(module, !self.start_given).cloned();
        let current = self.view.session().spec().clone();
        let started = chancery_core::load_module(&module.dir, &options)
            .map_err(|d| d.to_string())
            .and_then(|m| {
                let spec = match demo_game {
                    Some(_) => start
                        .or_demo_game(&m, true)
                        .spec(&m)
                        .map_err(|e| format!("{e:#}"))?,
                    None => current,
                };
                chancery_core::start_game(Arc::new(m), spec).map_err(|e| e.to_string())
            });
        match started {
            Ok(session) => {
                self.launcher.demo = true;
                self.offer_demo = false;
                self.play(launcher::Opened {
                    session,
                    notes: String::new(),
                    from: None,
                    remote: None,
                });
                if demo_game.is_some_and(|g| g.is_solitaire()) {
                    self.view.set_one_person(true);
                }
            }
            Err(err) => self
                .view
                .show_error(format!("The demo does not start: {err}")),
        }
    }

    /// The session being played.
    pub fn session(&self) -> &Session {
        self.view.session()
    }

    /// Plays `session` from now on (a new game or an opened save), keeping the view's options;
    /// `notes` (how an opened save now replays differently, say) show as a report.
    /// A game opened from its autosave goes on in that file (unless another window plays
    /// it); any other game gets a file of its own. The game played before keeps its file.
    pub fn play(&mut self, opened: launcher::Opened) {
        if let Some(remote) = opened.remote {
            self.view = GameView::at_table(remote, opened.session);
            return;
        }
        let mut options = self.view.options().clone();
        // Stored values and reloads load the module as this game was: the demo's values, or
        // the owner's.
        if opened.session.module().is_demo() {
            options.load_options.overlay = OverlayChoice::Demo;
        } else if matches!(options.load_options.overlay, OverlayChoice::Demo) {
            options.load_options.overlay = OverlayChoice::Default;
        }
        let resumed = opened.from.filter(|from| {
            options
                .autosave_dir
                .as_ref()
                .is_some_and(|dir| in_folder(from, dir))
        });
        // Open hands (one person at a physical table, say) stay open in the next game, and
        // one person playing every seat still plays them.
        let (open_hands, one_person) =
            (self.view.viewer().open_hands, self.view.viewer().one_person);
        self.view = GameView::new(opened.session, options);
        if open_hands {
            self.view.set_open_hands(true);
        }
        if one_person {
            self.view.set_one_person(true);
        }
        if let Some(from) = resumed {
            self.view.continue_autosave(&from);
        }
        if !opened.notes.is_empty() {
            self.view.report(true, opened.notes);
        }
        self.view.autosave();
    }

    /// Draws the whole window into `ui` (the eframe app and the UI tests both call this).
    pub fn ui_in(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if !self.fonts_set {
            ctx.set_fonts(fonts());
            // No word smaller than the board's smallest (11 points): egui's small text is 9.
            ctx.all_styles_mut(|style| {
                if let Some(small) = style.text_styles.get_mut(&egui::TextStyle::Small) {
                    small.size = small.size.max(board::SMALLEST_TEXT);
                }
            });
            self.fonts_set = true;
        }
        if !self.view.has_waker() {
            let window = ctx.clone();
            self.view
                .wake_with(Arc::new(move || window.request_repaint()));
        }
        self.view.poll_reload();
        self.keys(&ctx);
        self.autoplay(&ctx);
        egui::Panel::top("top").show(ui, |ui| self.top_ui(ui));
        if self.view.session().module().is_demo() {
            let online = self.view.remote().is_some();
            egui::Panel::top("demo").show(ui, |ui| demo_ui(ui, online));
        } else if self.offer_demo {
            egui::Panel::top("offer demo").show(ui, |ui| self.offer_demo_ui(ui));
        }
        if self.view.reload_report().is_some() {
            if self.view.panels().reload_popped {
                side::reload_window(&ctx, &mut self.view);
            } else {
                egui::Panel::bottom("reload")
                    .resizable(true)
                    .default_size(180.0)
                    .min_size(90.0)
                    .show(ui, |ui| side::reload_ui(ui, &mut self.view));
            }
        }
        if self.previous_autosave.is_some() {
            egui::Panel::bottom("resume").show(ui, |ui| self.resume_ui(ui));
        }
        if self.view.overlay_problems().is_some() {
            egui::Panel::bottom("overlay")
                .show(ui, |ui| side::overlay_problems_ui(ui, &mut self.view));
        }
        // A width of its own, which a long decision does not stretch (its buttons wrap).
        egui::Panel::left("prompt")
            .resizable(true)
            .default_size(300.0)
            .min_size(240.0)
            .max_size(480.0)
            .show(ui, |ui| prompt::prompt_ui(ui, &mut self.view));
        egui::Panel::right("log")
            .resizable(true)
            .default_size(300.0)
            .min_size(200.0)
            .max_size(520.0)
            .show(ui, |ui| side::log_ui(ui, &mut self.view));
        if self.view.has_hand_to_show() {
            egui::Panel::bottom("hand")
                .resizable(true)
                .default_size(230.0)
                .min_size(120.0)
                .show(ui, |ui| hand::hands_ui(ui, &mut self.view));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            if self.view.viewer().pass_to.is_some() {
                side::pass_ui(ui, &mut self.view);
            } else {
                table::table_ui(ui, &mut self.view);
            }
        });
        if self.view.panels().editor_open {
            side::editor_ui(&ctx, &mut self.view, &mut self.editor);
        }
        if self.view.panels().rules_open {
            side::rules_ui(&ctx, &mut self.view);
        }
        if self.balance.open || self.balance.running() {
            balance::balance_ui(&ctx, &self.view, &mut self.balance);
        }
        if let Some(opened) = self.launcher.ui(&ctx) {
            self.play(opened);
            // The new game's view wakes the window from the next frame on.
            ctx.request_repaint();
        }
        self.screenshot_step(&ctx);
    }

    fn keys(&mut self, ctx: &egui::Context) {
        let typing = ctx.egui_wants_keyboard_input();
        let (undo, redo, escape) = ctx.input(|i| {
            let z = i.key_pressed(egui::Key::Z) && i.modifiers.command;
            (
                z && !i.modifiers.shift,
                z && i.modifiers.shift,
                i.key_pressed(egui::Key::Escape),
            )
        });
        if typing {
            return;
        }
        if undo {
            self.view.undo();
        }
        if redo {
            self.view.redo();
        }
        if escape {
            self.view.panels_mut().selected = None;
        }
    }

    /// Lets the bots play on their own, one step per `autoplay_ms`, unless paused or
    /// waiting for a person after an Undo.
    fn autoplay(&mut self, ctx: &egui::Context) {
        if !self.view.panels().autoplay
            || self.view.bots_held()
            || self.view.board_out_of_sync()
            || self.view.pending().is_some()
            || !self.view.bot_decides()
        {
            return;
        }
        let wait = Duration::from_millis(self.view.panels().autoplay_ms);
        if self.last_bot_step.elapsed() >= wait {
            self.last_bot_step = Instant::now();
            if !self.view.bot_step() {
                self.view.panels_mut().autoplay = false;
            }
        }
        ctx.request_repaint_after(wait.max(Duration::from_millis(16)));
    }

    fn top_ui(&mut self, ui: &mut Ui) {
        let module = self.view.session().module().clone();
        let table = self.view.session().table();
        let scenario = module
            .scenarios
            .get(table.scenario.as_str())
            .map(|s| s.name.clone())
            .unwrap_or_default();
        let turn = match table.phase.is_empty() {
            true => format!("Turn {}", table.turn),
            false => format!("Turn {} · {}", table.turn, table.phase),
        };
        let dice = table.dice;
        // One row whatever the window's width: the buttons from the right, then the
        // scenario and the turn in what is left, cut with "…" (whole on hover).
        ui.horizontal(|ui| {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                self.options_menu(ui, dice);
                ui.separator();
                self.dice_ui(ui);
                ui.separator();
                self.viewer_ui(ui);
                ui.separator();
                self.card_data_button(ui, &module);
                ui.separator();
                if ui.button("Save").clicked() {
                    self.view.save();
                }
                // Wide enough for a file name, so that none is cut at the box's edge.
                let width = self.view.panels().save_path.chars().count() as f32 * 7.5 + 12.0;
                ui.add(
                    egui::TextEdit::singleline(&mut self.view.panels_mut().save_path)
                        .desired_width(width.clamp(110.0, 170.0)),
                )
                .on_hover_text("Where Save writes the game");
                if ui.button("New / Open…").clicked() {
                    self.launcher.open = true;
                }
                if ui
                    .button("Balance")
                    .on_hover_text(
                        "Play many bot-only games of this module, or compare it with another version at the same seeds",
                    )
                    .clicked()
                {
                    self.balance.open = !self.balance.open;
                }
                if ui
                    .button("Rules")
                    .on_hover_text("The module's rules and notes (its rules.md or README)")
                    .clicked()
                {
                    self.view.panels_mut().rules_open = !self.view.panels().rules_open;
                }
                ui.separator();
                if self.view.remote().is_some() {
                    self.online_ui(ui);
                } else {
                    self.undo_ui(ui);
                }
                ui.separator();
                // What is left, from the left: the module's name, the scenario (unless it
                // repeats the name) and the turn with its phase. The turn is cut last, the
                // module's name first; each cut one ends in "…" (whole on hover).
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    let name = RichText::new(&module.manifest.name).heading();
                    let turn_text = RichText::new(&turn).strong();
                    let scenario = (!scenario.is_empty() && scenario != module.manifest.name)
                        .then_some(scenario.as_str());
                    let gap = ui.spacing().item_spacing.x;
                    let widths = top_bar_widths(
                        ui.available_width(),
                        gap,
                        [
                            text_width(ui, name.clone()),
                            scenario.map_or(0.0, |s| text_width(ui, RichText::new(s))),
                            text_width(ui, turn_text.clone()),
                        ],
                    );
                    let cut_label = |ui: &mut Ui, text: RichText, width: f32, whole: &str| {
                        ui.scope(|ui| {
                            ui.set_max_width(width);
                            ui.add(egui::Label::new(text).truncate()).on_hover_text(whole);
                        });
                    };
                    cut_label(ui, name, widths[0], &module.manifest.name);
                    if let Some(scenario) = scenario {
                        cut_label(ui, RichText::new(scenario), widths[1], scenario);
                    }
                    cut_label(ui, turn_text, widths[2], &turn);
                });
            });
        });
    }

    /// Undo and redo, for a game played here.
    fn undo_ui(&mut self, ui: &mut Ui) {
        let waiting = self.view.session().history().redo_stack().len();
        if ui
            .add_enabled(waiting > 0, egui::Button::new("Redo all"))
            .on_hover_text(format!("Redo the {waiting} undone input(s) at once"))
            .on_disabled_hover_text("Nothing is undone")
            .clicked()
        {
            self.view.redo_all();
        }
        if ui.button("Redo").on_hover_text("Ctrl+Shift+Z").clicked() {
            self.view.redo();
        }
        if ui
            .button("Undo")
            .on_hover_text("Take back your last decision, and the bot moves after it (Ctrl+Z)")
            .clicked()
        {
            self.view.undo();
        }
    }

    /// A game played on a table server: whether the connection is up, who is here, and
    /// the seat handed to its bot or taken back.
    fn online_ui(&mut self, ui: &mut Ui) {
        let Some(remote) = self.view.remote() else {
            return;
        };
        let module = self.view.session().module().clone();
        let seat = remote.seat().cloned();
        let here = remote.connected.join(", ");
        match &remote.state {
            game::LinkState::Up => {
                ui.label(
                    RichText::new(format!("Online · {} here", remote.connected.len()))
                        .color(Color32::LIGHT_GREEN),
                )
                .on_hover_text(format!(
                    "Playing at the table on {}. Connected: {here}",
                    remote.server()
                ));
            }
            game::LinkState::Connecting => {
                ui.label("Connecting…");
            }
            game::LinkState::Lost(why) => {
                ui.colored_label(Color32::LIGHT_RED, "Reconnecting…")
                    .on_hover_text(format!("The connection to {} is lost ({why}); it is tried again, and an answer given meanwhile waits for it", remote.server()));
            }
            game::LinkState::Shut(why) => {
                ui.colored_label(Color32::LIGHT_RED, "Not let in")
                    .on_hover_text(why.clone());
            }
        }
        let Some(seat) = seat.filter(|s| module.seats.contains(s.as_str())) else {
            return;
        };
        let rule = remote.undo_rule.clone();
        if ui
            .button("Undo")
            .on_hover_text(format!("Take back your move, as this table allows: {rule}"))
            .clicked()
        {
            self.view.undo();
        }
        let bot = matches!(
            self.view.session().table().seats.get(&seat),
            Some(chancery_core::Controller::Bot(_))
        );
        let (label, to, hover) = match bot {
            false => (
                "Let the bot play",
                "bot",
                "Hand your seat to its bot while you are away (the table goes on without you)",
            ),
            true => (
                "Play it myself",
                "human",
                "Take your seat back from its bot",
            ),
        };
        if ui.button(label).on_hover_text(hover).clicked() {
            self.view.hand_seat(to);
        }
    }

    /// The card editor's button, with how many card values are still to enter.
    fn card_data_button(&mut self, ui: &mut Ui, module: &chancery_core::Module) {
        let unknown = self.view.unknown_fields();
        // The demo's values are placeholders, read-only: nothing there is to complete.
        let demo = module.is_demo();
        let label = match unknown {
            _ if demo => "Card data (demo)".to_owned(),
            0 => "Card data".to_owned(),
            n => format!("Card data ({n})"),
        };
        let hover = match unknown {
            n if demo => format!(
                "The demo's placeholder values ({n} card values have none: the demo leaves out what needs them)"
            ),
            0 => "The cards' values: every one is entered".to_owned(),
            n => format!(
                "{n} card values are not entered yet: complete them from your copy of the game"
            ),
        };
        if ui.button(label).on_hover_text(hover).clicked() {
            self.view.panels_mut().editor_open = !self.view.panels().editor_open;
        }
    }

    fn viewer_ui(&mut self, ui: &mut Ui) {
        let module = self.view.session().module().clone();
        // A redacted save is one seat's view: there is nobody else to be, and nothing more
        // to show.
        if let (Some(remote), Some(redaction)) =
            (self.view.remote(), self.view.session().redaction())
        {
            let name = match redaction.seat == chancery_core::SeatId::spectator() {
                true => "a spectator".to_owned(),
                false => game::seat_name(&module, &redaction.seat),
            };
            ui.label(format!("Seen as {name}")).on_hover_text(format!(
                "Your place at the table on {}: the server sends only what {name} may know",
                remote.server()
            ));
            return;
        }
        if let Some(redaction) = self.view.session().redaction() {
            let names = |s: &chancery_core::SeatId| game::seat_name(&module, s);
            ui.label(format!(
                "Seen as {} (a redacted save)",
                game::seat_name(&module, &redaction.seat)
            ))
            .on_hover_text(redaction.words(&names));
            return;
        }
        let seats: Vec<_> = module
            .seats
            .iter()
            .filter(|s| self.view.session().table().seats.contains_key(&s.id))
            .cloned()
            .collect();
        let one_person = self.view.viewer().one_person;
        let current = match (&self.view.viewer().open_hands, &self.view.viewer().seat) {
            (true, _) => "everything (open hands)".to_owned(),
            (false, Some(seat)) if one_person => {
                format!("{} (all mine)", game::seat_name(&module, seat))
            }
            (false, Some(seat)) => game::seat_name(&module, seat),
            (false, None) => "a spectator".to_owned(),
        };
        // The bar is laid out from the right: the box first, its label to its left.
        let combo = egui::ComboBox::from_id_salt("viewing as")
            .width(150.0)
            .truncate()
            .selected_text(current)
            .show_ui(ui, |ui| {
                if ui
                    .selectable_label(self.view.viewer().open_hands, "everything (open hands)")
                    .clicked()
                {
                    self.view.set_open_hands(true);
                }
                if ui
                    .selectable_label(one_person, "the deciding seat (one person plays all)")
                    .on_hover_text("One person plays every seat a person plays: the table shows what the seat deciding now may see, and the screen is never passed")
                    .clicked()
                {
                    self.view.set_one_person(true);
                }
                for seat in seats {
                    let selected = !self.view.viewer().open_hands
                        && self.view.viewer().seat.as_ref() == Some(&seat.id);
                    if ui.selectable_label(selected && !one_person, &seat.name).clicked() {
                        self.view.set_open_hands(false);
                        self.view.set_one_person(false);
                        self.view.pass_screen_to(seat.id.clone());
                    }
                }
            })
            .response;
        let label = ui.label("Seen as");
        combo.labelled_by(label.id);
    }

    fn dice_ui(&mut self, ui: &mut Ui) {
        ui.menu_button("Roll dice", |ui| {
            for (text, sides, count) in [
                ("1 d6", 6, 1),
                ("2 d6", 6, 2),
                ("1 d10", 10, 1),
                ("1 d3", 3, 1),
            ] {
                if ui.button(text).clicked() {
                    self.view.manual(Manual::Roll { sides, count });
                    ui.close();
                }
            }
        })
        .response
        .on_hover_text("A roll for the table, written in the log");
    }

    /// The settings of the table that are changed seldom, in one menu so that the top bar
    /// keeps to one row: the physical board, physical dice, the text size.
    fn options_menu(&mut self, ui: &mut Ui, dice: DiceMode) {
        let mut physical_board = self.view.physical_board();
        let mut physical = dice == DiceMode::Physical;
        let zoom = ui.ctx().zoom_factor();
        let mut marks = Vec::new();
        if physical_board {
            marks.push("physical board");
        }
        if physical {
            marks.push("physical dice");
        }
        let title = match marks.is_empty() {
            true => "Options".to_owned(),
            false => format!("Options ({})", marks.join(", ")),
        };
        let menu = ui.menu_button(title, |ui| {
        if ui
            .checkbox(&mut physical_board, "Physical board")
            .on_hover_text("Play on a real board beside the app: after each bot step, a list of what to change on the board; the bots wait until it is ticked off")
            .changed()
        {
            self.view.set_physical_board(physical_board);
        }
        if ui
            .checkbox(&mut physical, "Physical dice")
            .on_hover_text("Roll real dice and enter the results when the rules ask")
            .changed()
        {
            let mode = if physical {
                DiceMode::Physical
            } else {
                DiceMode::Digital
            };
            self.view.manual(Manual::SetDice { mode });
        }
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Text size");
            if ui
                .small_button("A-")
                .on_hover_text("Smaller (Ctrl+Minus)")
                .clicked()
            {
                ui.ctx().set_zoom_factor((zoom - 0.1).max(0.5));
            }
            ui.label(format!("{:.0}%", zoom * 100.0));
            if ui
                .small_button("A+")
                .on_hover_text("Larger, for a shared screen (Ctrl+Plus)")
                .clicked()
            {
                ui.ctx().set_zoom_factor((zoom + 0.1).min(3.0));
            }
        });
        });
        menu.response
            .on_hover_text("Physical board, physical dice, text size");
    }

    /// The first screen's offer: the real values are not entered yet; try the demo, or go on
    /// and enter each value when the game first needs it.
    fn offer_demo_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("New here?").strong().color(Color32::LIGHT_GREEN));
            ui.label(
                "This game needs numbers only the owner of the physical game has (card and chart values); none are entered yet.",
            );
        });
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new("Try the demo").strong())
                .on_hover_text("Play now with placeholder values: nothing you enter is stored")
                .clicked()
            {
                self.start_demo();
            }
            if ui
                .button("Enter the real values as I play")
                .on_hover_text("The game asks for each value the first time a rule needs it, and keeps it in your overlay")
                .clicked()
            {
                self.offer_demo = false;
            }
        });
    }

    fn resume_ui(&mut self, ui: &mut Ui) {
        let Some(path) = self.previous_autosave.clone() else {
            return;
        };
        ui.horizontal(|ui| {
            ui.label(
                RichText::new("Your last game was kept.")
                    .strong()
                    .color(Color32::LIGHT_GREEN),
            );
            if ui.button("Resume it").clicked() {
                match self.launcher.open_save(&path) {
                    Ok(opened) => {
                        self.play(opened);
                        self.previous_autosave = None;
                    }
                    Err(err) => self.view.show_error(err),
                }
            }
            if ui
                .button("Play the new game")
                .on_hover_text("The last game stays autosaved: New / Open… lists it")
                .clicked()
            {
                self.previous_autosave = None;
            }
            ui.weak(path.display().to_string());
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
            if let Err(e) = save_png(&path, &image)
                && let Ok(mut failed) = self.shot_failed.lock()
            {
                *failed = Some(format!("cannot save the screenshot: {e:#}"));
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        ctx.request_repaint();
    }
}

impl eframe::App for ChanceryApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let start = Instant::now();
        self.ui_in(ui);
        let built = start.elapsed().as_secs_f32();
        self.frame_stats_step(ui.ctx(), built, frame.info().cpu_usage);
    }
}

impl ChanceryApp {
    /// With `--frame-stats N`: records how long the frame took to build (the app's drawing
    /// and egui's layout) and the CPU time of the whole frame before it (with tessellation
    /// and painting, which a software renderer does on the CPU too), asks for the next
    /// frame, and after N prints the figures and closes the window. The first frames
    /// (fonts, the first layout) are left out.
    fn frame_stats_step(&mut self, ctx: &egui::Context, built: f32, whole: Option<f32>) {
        const WARM_UP: u32 = 10;
        let Some((want, times)) = &mut self.frame_stats else {
            return;
        };
        self.frames += 1;
        if let Some(whole) = whole.filter(|_| self.frames > WARM_UP) {
            times.push((built * 1000.0, whole * 1000.0));
        }
        if times.len() >= *want {
            let size = ctx.content_rect().size();
            let stats = |pick: fn(&(f32, f32)) -> f32| {
                let mut sorted: Vec<f32> = times.iter().map(pick).collect();
                sorted.sort_by(f32::total_cmp);
                let at = |q: f32| sorted[((sorted.len() - 1) as f32 * q).round() as usize];
                format!(
                    "median {:.2} ms, 90th percentile {:.2} ms, max {:.2} ms",
                    at(0.5),
                    at(0.9),
                    at(1.0)
                )
            };
            println!(
                "{} frames at {:.0}x{:.0}\n  building a frame (the app and egui's layout): {}\n  the whole frame on the CPU (with tessellation and painting): {}",
                times.len(),
                size.x,
                size.y,
                stats(|t| t.0),
                stats(|t| t.1)
            );
            self.frame_stats = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        ctx.request_repaint();
    }
}

fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> anyhow::Result<()> {
    let mut bytes = Vec::new();
    let [w, h] = image.size;
    let mut encoder = png::Encoder::new(&mut bytes, w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(image.as_raw())?;
    writer.finish()?;
    chancery_core::files::write_atomic(path, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Starts the game `args` describe (or loads it), as the window will play it.
pub fn start_session(args: &OpenArgs) -> anyhow::Result<Session> {
    open_session(args, &mut std::io::stderr())
}

/// egui's fonts, with the symbols card games name things by (♦ ♠ ♥ ♣, arrows, dice faces,
/// stars) as a fallback: a subset of DejaVu Sans shipped with the app.
pub fn fonts() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(
        "symbols".to_owned(),
        Arc::new(egui::FontData::from_static(include_bytes!(
            "../../assets/fonts/DejaVuSans-Symbols.ttf"
        ))),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push("symbols".to_owned());
    }
    fonts
}

/// Whether the file `path` lies directly in the folder `dir`.
fn in_folder(path: &Path, dir: &Path) -> bool {
    let absolute = |p: &Path| std::path::absolute(p).ok();
    absolute(path).and_then(|p| p.parent().map(Path::to_path_buf)) == absolute(dir)
}

/// The autosave folder: `autosave/` in Chancery's data folder.
pub fn autosave_dir() -> Option<PathBuf> {
    Some(chancery_core::module::data_dir()?.join("autosave"))
}

/// The app for `args`: the game started (or opened), with autosave and hot reload unless a
/// screenshot is all that is wanted.
pub fn build_app(args: &OpenArgs) -> anyhow::Result<ChanceryApp> {
    if let Some(link) = &args.join {
        return join_app(link, args);
    }
    let session = start_session(args)?;
    let interactive = args.screenshot.is_none() && args.frame_stats.is_none();
    let autosaves = autosave_dir().filter(|_| interactive);
    // The last game of this module that no window plays, offered for resuming; loading a
    // save asks for no other game.
    let previous = match (&autosaves, &args.load) {
        (Some(dir), None) => autosave::games(dir, Some(session.module().id()))
            .into_iter()
            .find(|g| !g.in_use)
            .map(|g| g.path),
        _ => None,
    };
    let mut load_options = args.overlay.load_options(false);
    // A reload reads the overlay the game was opened with (a save names its own).
    if matches!(load_options.overlay, OverlayChoice::Default)
        && let Some(overlay) = &session.module().overlay
    {
        load_options.overlay = match overlay.named_by_save {
            true => OverlayChoice::NamedBySave(overlay.path.clone()),
            false => OverlayChoice::File(overlay.path.clone()),
        };
    }
    let launcher = Launcher::new(&session.module().dir.clone(), load_options.clone());
    let view = GameView::new(
        session,
        GameOptions {
            watch: interactive,
            autosave_dir: autosaves,
            load_options,
        },
    );
    let mut app = ChanceryApp::new(view, launcher);
    // A game loaded from the autosave folder goes on in its own file.
    if let Some(loaded) = &args.load
        && autosave_dir().is_some_and(|dir| in_folder(loaded, &dir))
    {
        app.view.continue_autosave(loaded);
    }
    app.view.set_open_hands(args.open_hands);
    app.start_given = !args.start.is_unset();
    // The module's demo game, when it seats one person against bots, is played by one.
    let solitaire_demo = args.load.is_none()
        && (args.start)
            .demo_game(app.view.session().module(), args.overlay.demo)
            .is_some_and(|g| g.is_solitaire());
    if args.one_person || solitaire_demo {
        app.view.set_one_person(true);
    }
    app.view.set_physical_board(args.physical_board);
    app.view.autosave();
    app.previous_autosave = previous;
    if let Some(wanted) = &args.board {
        let boards = &app.view.session().module().boards;
        let index = boards
            .iter()
            .position(|b| b.id == *wanted || b.name.eq_ignore_ascii_case(wanted))
            .with_context(|| {
                let known: Vec<String> = boards
                    .iter()
                    .map(|b| format!("{} ({})", b.id, b.name))
                    .collect();
                match known.is_empty() {
                    true => format!("--board {wanted}: this module has no boards"),
                    false => format!(
                        "--board {wanted}: no such board (boards: {})",
                        known.join(", ")
                    ),
                }
            })?;
        app.view.panels_mut().board.tab = Some(index);
    }
    app.screenshot = args.screenshot.clone();
    app.frame_stats = args.frame_stats.map(|n| (n.max(1), Vec::new()));
    Ok(app)
}

/// Where the modules of tables on servers are kept, a folder each named by its hash.
pub fn module_cache_dir() -> PathBuf {
    chancery_core::module::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("online-modules")
}

/// The app at the seat of invitation `link`.
fn join_app(link: &str, args: &OpenArgs) -> anyhow::Result<ChanceryApp> {
    let view = GameView::joined(link, module_cache_dir(), Duration::from_secs(30))?;
    let launcher = Launcher::new(&view.session().module().dir.clone(), LoadOptions::default());
    let mut app = ChanceryApp::new(view, launcher);
    app.view.set_physical_board(args.physical_board);
    app.screenshot = args.screenshot.clone();
    Ok(app)
}

/// An error if `--screenshot` names what no PNG can be written to (a folder, a file in a
/// folder that is not there): said before the window opens, never after it closes.
fn check_screenshot_path(path: &std::path::Path) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!(
            "--screenshot {} is a folder: name the PNG file to write (like {})",
            path.display(),
            path.join("shot.png").display()
        );
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if !parent.is_dir() {
        anyhow::bail!(
            "--screenshot {}: the folder {} is not there: make it first, or name a file in a folder that is",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}

/// Opens the window; returns the exit code (1 if the screenshot asked for was not saved).
pub fn run(args: OpenArgs) -> anyhow::Result<i32> {
    if let Some(path) = &args.screenshot {
        check_screenshot_path(path)?;
    }
    let app = build_app(&args)?;
    let shot_failed = app.shot_failed.clone();
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
    eframe::run_native("Chancery", options, Box::new(move |_cc| Ok(Box::new(app)))).map_err(
        |e| {
            anyhow::anyhow!(
                "cannot open the window: {e}. Without a display, run `chancery --headless`"
            )
        },
    )?;
    if let Some(failed) = shot_failed.lock().ok().and_then(|mut f| f.take()) {
        anyhow::bail!(failed);
    }
    Ok(0)
}

/// The demo's banner: its values are placeholders, not the game's.
fn demo_ui(ui: &mut Ui, online: bool) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Demo").strong().color(Color32::YELLOW));
        ui.label(match online {
            true => "The host opened this table with the demo's placeholder values, not the real ones: the card and chart numbers are for trying the game.",
            false => "The card and chart values are placeholders for trying the game, not the real ones, and nothing entered is stored. To play with your own copy's values, start without --demo (New / Open…, untick Demo).",
        });
    });
}

/// The width `text` takes laid out on one row in `ui`'s style.
fn text_width(ui: &Ui, text: RichText) -> f32 {
    let galley = egui::WidgetText::from(text).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Body,
    );
    galley.size().x
}

/// How the top bar's `room` is shared by the module's name, the scenario and the turn (their
/// whole widths `wanted`, `gap` between them): each first up to its share (a third of the
/// room for the name, a fifth for the scenario, the rest for the turn), then what is left
/// goes to the turn, the scenario and the name, in that order.
fn top_bar_widths(room: f32, gap: f32, wanted: [f32; 3]) -> [f32; 3] {
    const SHARES: [f32; 3] = [0.3, 0.2, 0.5];
    let room = (room - 3.0 * gap).max(0.0);
    let mut widths = [0.0; 3];
    for i in 0..3 {
        widths[i] = wanted[i].min(room * SHARES[i]);
    }
    for i in [2, 1, 0] {
        let left = room - widths.iter().sum::<f32>();
        widths[i] = (widths[i] + left.max(0.0)).min(wanted[i]);
    }
    widths
}

#[cfg(test)]
mod tests {
    use super::top_bar_widths;

    #[test]
    fn each_keeps_its_share_and_the_turn_takes_what_is_left_first() {
        // Room for all: each its whole width.
        assert_eq!(
            top_bar_widths(700.0, 0.0, [200.0, 150.0, 180.0]),
            [200.0, 150.0, 180.0]
        );
        // Short of room: each keeps its share; what the short ones leave goes to the turn.
        assert_eq!(
            top_bar_widths(400.0, 0.0, [100.0, 150.0, 300.0]),
            [100.0, 80.0, 220.0]
        );
        assert_eq!(
            top_bar_widths(500.0, 0.0, [200.0, 60.0, 400.0]),
            [150.0, 60.0, 290.0]
        );
    }
}
