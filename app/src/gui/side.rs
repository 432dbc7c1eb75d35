//! The log, the reload report, the hot-seat screen and the card data editor.

use chancery_core::Value;
use std::collections::BTreeMap;

use chancery_core::module::{CardDef, DataValue, FieldType, OverlayTarget};
use chancery_core::{CardId, Module};
use egui::{Color32, RichText, Ui};

use super::cards::card_face;
use super::draw::UNKNOWN;
use super::game::{GameView, seat_name};
use crate::games::parse_value;

/// What the rules say of the game so far (their `view`: standings, scores), drawn from the
/// data as it comes: a map as rows of names and values, one level of nesting as a table.
fn standings_ui(ui: &mut Ui, view: &mut GameView) {
    let Value::Map(entries) = view.standings().clone() else {
        return;
    };
    if entries.is_empty() {
        return;
    }
    ui.heading("Standings");
    let module = view.session().module().clone();
    for (key, value) in &entries {
        match value {
            Value::Map(inner) => {
                ui.label(RichText::new(words(key)).strong());
                // Short values in a table of two columns; a long one would push the panel,
                // and the log with it, out of the window: such rows wrap as sentences.
                // Values in words: an id by its name ("BR, FR" → "Britain, France").
                if inner
                    .values()
                    .any(|v| module.value_words(v).chars().count() > 32)
                {
                    for (k, v) in inner {
                        ui.add(
                            egui::Label::new(format!(
                                "   {}: {}",
                                module.words_of(k),
                                module.value_words(v)
                            ))
                            .wrap(),
                        );
                    }
                    continue;
                }
                egui::Grid::new(("standings", key.as_str()))
                    .striped(true)
                    .show(ui, |ui| {
                        for (k, v) in inner {
                            // A seat's or a piece's id as its name ("AU" → "Austria").
                            ui.label(format!("   {}", module.words_of(k)));
                            ui.label(module.value_words(v));
                            ui.end_row();
                        }
                    });
            }
            // A sentence (who would win now, and why) wraps within the panel.
            Value::Str(text) => {
                ui.label(RichText::new(words(key)).strong());
                ui.add(egui::Label::new(text.as_str()).wrap());
            }
            other => {
                ui.horizontal(|ui| {
                    ui.label(words(key));
                    ui.label(module.value_words(other));
                });
            }
        }
    }
    ui.separator();
}

/// A data key in words: "scores_by_power" as "Scores by power".
fn words(key: &str) -> String {
    let spaced = key.replace(['_', '.'], " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The game's scenario by its name, with its seed when the seat may know it (never at a
/// table on a server, which keeps it).
fn game_title_ui(ui: &mut Ui, view: &GameView, remote: bool) {
    let spec = view.session().spec();
    let table = view.session().table();
    // The scenario by its name, as the launcher lists it.
    let scenario = (view
        .session()
        .module()
        .scenarios
        .get(spec.scenario.as_str()))
    .map_or_else(|| spec.scenario.to_string(), |s| s.name.clone());
    if table.seed_shown_to(view.eyes().as_ref()) && !remote {
        ui.label(format!("{scenario}, seed {}", spec.seed))
            .on_hover_text("Start a new game with this seed to play the same deal again");
    } else {
        ui.label(scenario).on_hover_text(
            "The seed shows when nothing is hidden, with open hands, or when the game is over: every shuffle follows from it",
        );
    }
}

/// The log: every input with its messages and a bot's reasons; click an input to go back to it.
pub fn log_ui(ui: &mut Ui, view: &mut GameView) {
    standings_ui(ui, view);
    if view.remote().is_some() {
        chat_ui(ui, view);
    }
    ui.heading("Log");
    // At a table on a server, the seed stays there.
    let remote = view.remote().is_some();
    game_title_ui(ui, view, remote);
    ui.weak(match remote {
        true => "The table's log, as your seat may read it.",
        false => "Click an entry to go back to just after it; Redo goes forward again.",
    });
    let mut go_to = None;
    let current = match remote {
        // The latest entry stands out: the server holds the game, and nobody goes back.
        true => view.session().log().last().map_or(0, |e| e.index),
        false => view.session().history().len(),
    };
    egui::ScrollArea::vertical()
        .id_salt("log")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let eyes = view.eyes();
            let mut last_reasons: Vec<String> = Vec::new();
            let log = view.session().log();
            for (at, entry) in chancery_core::session::log_read_by(&log, eyes.as_ref()) {
                if entry.shows_heading() {
                    let text = entry.heading(view.session().module());
                    let text = if at == current {
                        RichText::new(text).strong()
                    } else {
                        RichText::new(text)
                    };
                    if remote {
                        ui.label(text);
                    } else if ui
                        .link(text)
                        .on_hover_text("Go back to just after this input")
                        .clicked()
                    {
                        go_to = Some(at);
                    }
                    // A bot that places a plan one piece at a time gives the same
                    // reasons at each step: said once, then "the same reasons".
                    if !entry.reason.is_empty() && entry.reason == last_reasons {
                        ui.weak("   (the same reasons as above)");
                    } else {
                        for reason in &entry.reason {
                            ui.label(RichText::new(format!("   {reason}")).italics());
                        }
                    }
                    last_reasons = entry.reason.clone();
                } else if at == 0
                    && ui
                        .link("Set-up")
                        .on_hover_text("Go back to the start")
                        .clicked()
                {
                    go_to = Some(0);
                }
                for message in &entry.messages {
                    match &message.to {
                        Some(to) if eyes.is_none() => {
                            let name = seat_name(view.session().module(), to);
                            ui.label(format!("   [to {name}] {}", message.text))
                        }
                        _ => ui.label(format!("   {}", message.text)),
                    };
                }
            }
            // The undone inputs, next first: a click redoes up to it. Only who answered is
            // said (an undone answer may be a secret).
            let undone: Vec<_> = view.session().history().redo_stack().iter().rev().collect();
            if !undone.is_empty() {
                ui.weak(format!(
                    "{} undone input(s): click one to redo up to it, or Redo all.",
                    undone.len()
                ));
            }
            for (k, input) in undone.iter().enumerate() {
                let n = current + k + 1;
                let who = input.seat().map_or_else(
                    || "by hand".to_owned(),
                    |s| seat_name(view.session().module(), s),
                );
                let text = RichText::new(format!("#{n} {who} (undone)")).weak();
                if ui
                    .link(text)
                    .on_hover_text("Redo up to this input")
                    .clicked()
                {
                    go_to = Some(n);
                }
            }
        });
    if let Some(n) = go_to {
        view.goto(n);
    }
}

/// The table's chat, at a table on a server: the lines the seat may read, and a line to
/// say to everyone (or, between the umpire and one seat, privately).
fn chat_ui(ui: &mut Ui, view: &mut GameView) {
    let module = view.session().module().clone();
    let Some(remote) = view.remote_mut() else {
        return;
    };
    let me = remote.seat().cloned();
    let umpire = remote.umpire.clone();
    let mut send = false;
    egui::CollapsingHeader::new(RichText::new("Table chat").heading())
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("chat")
                .max_height(150.0)
                .stick_to_bottom(true)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    if remote.chat.is_empty() {
                        ui.weak("Nothing said yet.");
                    }
                    for line in &remote.chat {
                        let who = match &line.to_name {
                            Some(to) => format!("{} to {to} (private)", line.from_name),
                            None => line.from_name.clone(),
                        };
                        ui.horizontal_wrapped(|ui| {
                            ui.label(RichText::new(format!("{who}:")).strong());
                            ui.label(&line.text);
                        });
                    }
                });
            if me
                .as_ref()
                .is_none_or(|s| *s == chancery_core::SeatId::spectator())
            {
                ui.weak("Spectators read the chat; the seats speak.");
                return;
            }
            let choices = chat_choices(&module, umpire.as_ref(), me.as_ref());
            ui.horizontal(|ui| {
                let label = ui.label("Line");
                let edit = ui
                    .add(
                        egui::TextEdit::singleline(&mut remote.draft.0)
                            .hint_text("Say something to the table")
                            .desired_width(ui.available_width() - 60.0),
                    )
                    .labelled_by(label.id);
                let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Say").clicked() || entered {
                    send = true;
                }
            });
            if !choices.is_empty() {
                let shown = choices
                    .iter()
                    .find(|(s, _)| *s == remote.draft.1)
                    .map_or_else(|| "everyone".to_owned(), |(_, n)| n.clone());
                egui::ComboBox::from_label("To")
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for (seat, name) in &choices {
                            ui.selectable_value(&mut remote.draft.1, seat.clone(), name);
                        }
                    });
            }
        });
    if send {
        view.say_draft();
    }
}

/// Whom a seat may say a line to: everyone, or privately between the umpire and a seat
/// (none to choose from at a table without an umpire).
fn chat_choices(
    module: &Module,
    umpire: Option<&chancery_core::SeatId>,
    me: Option<&chancery_core::SeatId>,
) -> Vec<(Option<chancery_core::SeatId>, String)> {
    let (Some(umpire), Some(me)) = (umpire, me) else {
        return Vec::new();
    };
    let everyone = (None, "everyone".to_owned());
    if umpire == me {
        let seats = module.seats.iter().filter(|s| &s.id != me);
        std::iter::once(everyone)
            .chain(seats.map(|s| (Some(s.id.clone()), format!("{} (private)", s.name))))
            .collect()
    } else {
        let name = format!("{} (private)", seat_name(module, umpire));
        vec![everyone, (Some(umpire.clone()), name)]
    }
}

/// The last reload: what changed and where the game now differs, or the diagnostics. At the
/// foot of the window (drag its edge to enlarge it), or in a window of its own.
pub fn reload_ui(ui: &mut Ui, view: &mut GameView) {
    let Some((ok, text)) = view.reload_report().cloned() else {
        return;
    };
    let (title, color) = match ok {
        true => ("Module reloaded", Color32::LIGHT_GREEN),
        false => ("Module not reloaded", Color32::LIGHT_RED),
    };
    let mut closed = false;
    ui.horizontal(|ui| {
        ui.label(RichText::new(title).strong().color(color));
        closed = ui.small_button("Close").clicked();
        reload_buttons(ui, view);
    });
    report_text(ui, &text, "reload");
    if closed {
        view.dismiss_reload_report();
    }
}

/// The reload report in a window of its own, which can be moved and resized.
pub fn reload_window(ctx: &egui::Context, view: &mut GameView) {
    let Some((_, text)) = view.reload_report().cloned() else {
        return;
    };
    let mut open = true;
    egui::Window::new("Reload report")
        .open(&mut open)
        .resizable(true)
        .default_size([720.0, 420.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| reload_buttons(ui, view));
            report_text(ui, &text, "reload window");
        });
    if !open {
        view.panels_mut().reload_popped = false;
    }
}

/// Go to the input where the game first differs; the report at the foot or in a window.
fn reload_buttons(ui: &mut Ui, view: &mut GameView) {
    if let Some(n) = view.reload_at()
        && n <= view.session().history().len() + view.session().history().redo_stack().len()
    {
        let label = match n {
            0 => "Go to the set-up".to_owned(),
            n => format!("Go to input {n}"),
        };
        if ui
            .small_button(label)
            .on_hover_text("Shows the table just after the input where the game first differs")
            .clicked()
        {
            view.goto(n);
        }
    }
    let popped = view.panels().reload_popped;
    let label = if popped {
        "Back to the foot"
    } else {
        "Open in a window"
    };
    if ui.small_button(label).clicked() {
        view.panels_mut().reload_popped = !popped;
    }
}

/// A report's text, scrolled within the height it is given.
fn report_text(ui: &mut Ui, text: &str, salt: &str) {
    egui::ScrollArea::vertical()
        .id_salt(salt)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            ui.label(RichText::new(text).monospace());
        });
}

/// A notice at the foot of the window: its title in `color`, a Close button, and `text`
/// below it, scrolled when long. Returns whether Close was clicked.
fn notice_ui(ui: &mut Ui, title: &str, color: Color32, text: &str, salt: &str) -> bool {
    let mut closed = false;
    ui.horizontal(|ui| {
        ui.label(RichText::new(title).strong().color(color));
        closed = ui.small_button("Close").clicked();
    });
    egui::ScrollArea::vertical()
        .id_salt(salt)
        .max_height(160.0)
        .show(ui, |ui| {
            ui.label(RichText::new(text).monospace());
        });
    closed
}

/// What is wrong with the owner's overlay: the game goes on without its values, and the file
/// is left as it is until the owner mends it.
pub fn overlay_problems_ui(ui: &mut Ui, view: &mut GameView) {
    let Some(text) = view.overlay_problems().map(str::to_owned) else {
        return;
    };
    let title = "Your overlay has errors: the game goes on without its values";
    if notice_ui(ui, title, Color32::LIGHT_RED, &text, "overlay problems") {
        view.dismiss_overlay_problems();
    }
}

/// The hot-seat screen: the table stays hidden until the next person confirms they are at it.
pub fn pass_ui(ui: &mut Ui, view: &mut GameView) {
    let Some(seat) = view.viewer().pass_to.clone() else {
        return;
    };
    let name = seat_name(view.session().module(), &seat);
    ui.vertical_centered(|ui| {
        ui.add_space(ui.available_height() / 3.0);
        ui.label(
            RichText::new(format!("Pass the screen to {name}"))
                .size(28.0)
                .strong(),
        );
        ui.label("Their hand is hidden until they confirm they are at the screen.");
        ui.add_space(12.0);
        if ui
            .button(RichText::new(format!("I am {name}: show my hand")).size(18.0))
            .clicked()
        {
            view.confirm_viewer();
        }
    });
}

/// The card data editor: every card, its unknown fields highlighted; values typed here go to
/// the owner's overlay file.
#[derive(Default)]
pub struct Editor {
    /// Only cards with unknown fields.
    pub only_unknown: bool,
    /// Filter by name.
    pub filter: String,
    /// The card being edited.
    pub card: Option<String>,
    /// Text typed per field of that card.
    pub edits: std::collections::BTreeMap<String, String>,
}

/// The module's rules in a window: its `rules.md`, else its `README.md`, drawn from their
/// Markdown (headings, lists, paragraphs, code).
pub fn rules_ui(ctx: &egui::Context, view: &mut GameView) {
    let module = view.session().module().clone();
    let text = ["rules.md", "README.md"]
        .iter()
        .find_map(|name| chancery_core::files::read_inside(&module.dir, name).ok())
        .map(|(_, text)| text);
    let mut open = view.panels().rules_open;
    egui::Window::new(format!("Rules: {}", module.manifest.name))
        .open(&mut open)
        .default_size([640.0, 720.0])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| match &text {
                Some(text) => markdown_ui(ui, text),
                None => {
                    ui.label(format!(
                        "This module has no rules.md or README.md in {}.",
                        module.dir.display()
                    ));
                }
            });
        });
    view.panels_mut().rules_open = open;
}

/// Markdown as egui draws it: `#` headings, `-` and `*` items, fenced code, paragraphs.
fn markdown_ui(ui: &mut Ui, text: &str) {
    let mut paragraph = String::new();
    let mut code = false;
    let mut table: Vec<Vec<String>> = Vec::new();
    let flush = |ui: &mut Ui, paragraph: &mut String| {
        if !paragraph.is_empty() {
            ui.label(paragraph.trim().replace("**", "").replace('`', ""));
            ui.add_space(4.0);
            paragraph.clear();
        }
    };
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            flush(ui, &mut paragraph);
            code = !code;
            continue;
        }
        if code {
            ui.monospace(line);
            continue;
        }
        let trimmed = line.trim();
        if trimmed.starts_with('|') {
            // A table: its rows gathered, drawn as a grid once the table ends.
            flush(ui, &mut paragraph);
            let cells: Vec<String> = trimmed
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace("**", "").replace('`', ""))
                .collect();
            if !cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
            {
                table.push(cells);
            }
            continue;
        }
        if !table.is_empty() {
            table_ui(ui, &std::mem::take(&mut table));
        }
        if trimmed.is_empty() {
            flush(ui, &mut paragraph);
        } else if let Some(heading) = trimmed.strip_prefix('#') {
            flush(ui, &mut paragraph);
            let level = heading.chars().take_while(|c| *c == '#').count();
            let title = heading.trim_start_matches('#').trim();
            if level == 0 {
                ui.heading(title);
            } else {
                ui.label(RichText::new(title).strong().size(16.0));
            }
        } else if let Some(item) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        {
            flush(ui, &mut paragraph);
            paragraph.push_str("•  ");
            paragraph.push_str(item);
        } else if trimmed.starts_with("![") {
            continue;
        } else {
            if !paragraph.is_empty() {
                paragraph.push(' ');
            }
            paragraph.push_str(trimmed);
        }
    }
    flush(ui, &mut paragraph);
    if !table.is_empty() {
        table_ui(ui, &table);
    }
}

/// A Markdown table as a grid, its first row as the header.
fn table_ui(ui: &mut Ui, rows: &[Vec<String>]) {
    egui::Grid::new(ui.next_auto_id())
        .striped(true)
        .num_columns(rows.first().map_or(0, Vec::len))
        .show(ui, |ui| {
            for (i, row) in rows.iter().enumerate() {
                for cell in row {
                    if i == 0 {
                        ui.label(RichText::new(cell).strong());
                    } else {
                        ui.add(egui::Label::new(cell).wrap());
                    }
                }
                ui.end_row();
            }
        });
    ui.add_space(4.0);
}

/// Draws the editor window.
pub fn editor_ui(ctx: &egui::Context, view: &mut GameView, editor: &mut Editor) {
    let mut open = view.panels().editor_open;
    egui::Window::new("Card data")
        .open(&mut open)
        .default_size([760.0, 560.0])
        .show(ctx, |ui| {
            let module = view.session().module().clone();
            // Where values go, or why they cannot be stored (a fixture in the module's
            // folder, an overlay only a save names, one with errors, none at all).
            match module.overlay_for_storing() {
                Ok(path) => ui.weak(format!("Values you enter are stored in {}", path.display())),
                Err(why) => ui.colored_label(Color32::LIGHT_RED, why),
            };
            let missing: BTreeMap<_, usize> = module
                .unknown_report()
                .into_iter()
                .map(|(card, fields)| (card, fields.len()))
                .collect();
            ui.label(format!(
                "{} field(s) not entered, on {} card(s).",
                view.unknown_fields(),
                missing.len()
            ));
            ui.horizontal(|ui| {
                ui.checkbox(
                    &mut editor.only_unknown,
                    "Only cards with values not entered",
                );
                ui.add(
                    egui::TextEdit::singleline(&mut editor.filter)
                        .hint_text("filter by name")
                        .desired_width(160.0),
                );
            });
            ui.separator();
            egui::Panel::left("editor_cards")
                .resizable(true)
                .default_size(240.0)
                .show(ui, |ui| card_list_ui(ui, &module, &missing, editor));
            egui::CentralPanel::default().show(ui, |ui| {
                let Some(card) = editor
                    .card
                    .clone()
                    .and_then(|c| module.cards.get(&c).cloned())
                else {
                    ui.label("Pick a card on the left.");
                    return;
                };
                egui::ScrollArea::vertical()
                    .id_salt("editor_card")
                    .show(ui, |ui| {
                        card_face(ui, &module, &card, false);
                        ui.weak(format!("id {} · deck {}", card.id, card.deck));
                        let store = card_fields_ui(ui, &module, &card, editor);
                        ui.separator();
                        ui.label(&card.text);
                        if let Some((field, text, ty)) = store {
                            let target = OverlayTarget::CardField(card.id.clone(), field);
                            match parse_value(&module, &text, &ty)
                                .and_then(|value| view.store(&target, value))
                            {
                                Ok(()) => view.clear_error(),
                                Err(err) => view.show_error(format!("{target}: {err}")),
                            }
                        }
                    });
            });
        });
    view.panels_mut().editor_open = open;
}

/// The editor's list of cards (those the filter keeps), each with how many of its fields
/// are not entered; a click picks the card to edit.
fn card_list_ui(
    ui: &mut Ui,
    module: &Module,
    missing: &BTreeMap<CardId, usize>,
    editor: &mut Editor,
) {
    egui::ScrollArea::vertical()
        .id_salt("editor_list")
        .show(ui, |ui| {
            let filter = editor.filter.to_lowercase();
            for card in module.cards.iter() {
                let unknown = missing.get(&card.id).copied().unwrap_or(0);
                if (editor.only_unknown && unknown == 0)
                    || (!filter.is_empty() && !card.name.to_lowercase().contains(&filter))
                {
                    continue;
                }
                let text = match unknown {
                    0 => RichText::new(&card.name),
                    n => RichText::new(format!("{} ({n} not entered)", card.name)).color(UNKNOWN),
                };
                let selected = editor.card.as_deref() == Some(card.id.as_str());
                if ui.selectable_label(selected, text).clicked() {
                    editor.card = Some(card.id.to_string());
                    editor.edits.clear();
                }
            }
        });
}

/// The card's fields, each with its value being typed and a Store button; returns the
/// field whose Store was pressed, with the text typed and the field's type.
fn card_fields_ui(
    ui: &mut Ui,
    module: &Module,
    card: &CardDef,
    editor: &mut Editor,
) -> Option<(String, String, FieldType)> {
    let mut store = None;
    egui::Grid::new("fields")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for field in module
                .card_fields
                .iter()
                .filter(|f| f.applies_to(&card.deck))
            {
                let value = card
                    .fields
                    .get(&field.id)
                    .cloned()
                    .unwrap_or(DataValue::Unknown);
                let name = RichText::new(field.label());
                let label = ui
                    .label(if value == DataValue::Unknown {
                        name.color(UNKNOWN)
                    } else {
                        name
                    })
                    .on_hover_text(format!(
                        "{}\nType: {}\nIn the overlay file: {}",
                        field.doc, field.kind, field.id
                    ));
                let edit =
                    editor
                        .edits
                        .entry(field.id.clone())
                        .or_insert_with(|| match value.known() {
                            Some(v) => v.to_string(),
                            None => String::new(),
                        });
                ui.add(
                    egui::TextEdit::singleline(edit)
                        .hint_text("not entered")
                        .desired_width(220.0),
                )
                .labelled_by(label.id);
                if ui
                    .button("Store")
                    .on_hover_text(format!("Store {} in your overlay", field.label()))
                    .clicked()
                {
                    store = Some((field.id.clone(), edit.clone(), field.kind.clone()));
                }
                ui.end_row();
            }
        });
    store
}
