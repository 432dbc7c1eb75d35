//! The table in the middle of the window, drawn from the module's layout hints: each panel a
//! titled group of zones, tracks and maps, boxes and counters. Everything can be moved by
//! hand: drag it, or click it and then click where it goes. The prompt's targets are
//! highlighted and answer the prompt when clicked.

use chancery_core::module::{LayoutItem, PlaceKind};
use chancery_core::{BoxId, CardId, CounterId, Manual, PieceId, PlaceId, Target, UnitKindId};
use egui::{RichText, Stroke, Ui};

use super::board::{board_tabs, space_name};
use super::cards::data_line;
use super::draw::{Click, Draw, DropTarget, SELECTED, Selected, TARGET, draggable};
use super::game::GameView;

/// Width of the column a panel needs to stay readable.
const COLUMN_WIDTH: f32 = 440.0;

/// Draws the table in columns that fit the width (one on a laptop, three on a wall screen).
pub fn table_ui(ui: &mut Ui, view: &mut GameView) {
    let module = view.session().module().clone();
    let targets = view.targets();
    let mut clicks = Vec::new();
    let eyes = view.eyes();
    let (session, panels) = view.session_and_panels();
    // Under fog of war, what these eyes may not see is not drawn at all.
    let table = session.table().fogged_for(eyes.as_ref());
    let ctx = Draw {
        module: &module,
        table: &table,
        targets: &targets,
        selected: panels.selected.as_ref(),
        eyes: eyes.as_ref(),
    };
    if let Some(selected) = &panels.selected {
        ui.horizontal(|ui| {
            ui.colored_label(
                SELECTED,
                format!("Moving {}: click where it goes, or", ctx.describe(selected)),
            );
            if ui.button("Cancel").clicked() {
                clicks.push(Click::Select(selected.clone()));
            }
        });
    }
    let boards: Vec<_> = module.boards.iter().collect();
    let board_view = &mut panels.board;
    if !boards.is_empty() {
        // A reload may take boards away.
        if board_view.tab.is_some_and(|i| i >= boards.len()) {
            board_view.tab = Some(0);
        }
        board_tabs(ui, &boards, board_view, &mut clicks);
    }
    match board_view.tab.and_then(|i| boards.get(i)) {
        Some(board) => ctx.board(ui, board, board_view, &mut clicks),
        None => ctx.panels(ui, &mut clicks),
    }
    view.on_clicks(clicks);
}

impl Draw<'_> {
    /// Every component in the module's titled panels, in columns that fit the width.
    fn panels(&self, ui: &mut Ui, clicks: &mut Vec<Click>) {
        let module = self.module;
        let ctx = self;
        let columns = ((ui.available_width() / COLUMN_WIDTH).floor() as usize).clamp(1, 4);
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let panels = module.panels();
                if module.manifest.layout.panels.is_empty() {
                    ui.weak("Laid out from the module's components (its layout names no panels).");
                }
                ui.columns(columns, |cols| {
                    // Each panel into the column that is shortest so far.
                    let mut heights = vec![0.0f32; columns];
                    for (i, panel) in panels.iter().enumerate() {
                        let column = (0..columns)
                            .min_by(|a, b| heights[*a].total_cmp(&heights[*b]))
                            .unwrap_or(0);
                        let ui = &mut cols[column];
                        let top = ui.min_rect().bottom();
                        egui::CollapsingHeader::new(RichText::new(&panel.title).heading())
                            .id_salt(("panel", i))
                            .default_open(true)
                            .show(ui, |ui| {
                                for item in &panel.items {
                                    ctx.item(ui, item, clicks);
                                }
                            });
                        heights[column] += ui.min_rect().bottom() - top;
                    }
                });
            });
    }
}

impl Draw<'_> {
    fn item(&self, ui: &mut Ui, item: &LayoutItem, clicks: &mut Vec<Click>) {
        match item {
            LayoutItem::Counter(id) => self.counter(ui, id, clicks),
            LayoutItem::Place(id) => self.place(ui, id, clicks),
            LayoutItem::Box(id) => self.boxed(ui, id, clicks),
            LayoutItem::Zone(id) => self.zone(ui, id, clicks),
        }
        ui.add_space(4.0);
    }

    /// A fogged place's or box's note of who sees it ("fog of war: each seat sees its own"),
    /// and, to these eyes, whether they see all of it.
    pub(super) fn fog_note(&self, ui: &mut Ui, sight: &chancery_core::fog::Sight) {
        let names = |s: &chancery_core::SeatId| super::game::seat_name(self.module, s);
        let sight = sight.describe_with(&names);
        let note = match self.eyes {
            Some(_) => format!("fog of war: {sight}"),
            None => format!("fog of war: {sight} (you see all of it)"),
        };
        ui.weak(note);
    }

    fn describe(&self, selected: &Selected) -> String {
        match selected {
            Selected::Card(card) => match self.eyes_see_card(card) {
                true => self.card_name(card),
                false => "a face-down card".to_owned(),
            },
            Selected::Piece(piece) => self.piece_name(piece),
            Selected::Units(boxed, kind) => format!(
                "1 {} from {}",
                self.kind_name(kind.as_str()),
                self.box_name(boxed)
            ),
        }
    }

    fn card_name(&self, card: &CardId) -> String {
        self.module
            .cards
            .get(card.as_str())
            .map_or_else(|| card.to_string(), |c| c.name.clone())
    }

    pub(super) fn kind_name(&self, kind: &str) -> String {
        self.module
            .unit_kinds
            .get(kind)
            .map_or_else(|| kind.to_owned(), |k| k.name.clone())
    }

    fn box_name(&self, boxed: &BoxId) -> String {
        self.module
            .boxes
            .get(boxed.as_str())
            .map_or_else(|| boxed.to_string(), |b| b.name.clone())
    }

    fn eyes_see_card(&self, card: &CardId) -> bool {
        self.table
            .zones
            .values()
            .find(|z| z.cards.contains(card))
            .is_none_or(|z| z.shows(card, self.eyes))
    }

    /// A counter's value on the table (0 for a counter the table lacks).
    pub(super) fn counter_value(&self, id: &CounterId) -> i64 {
        self.table
            .counters
            .get(id)
            .map(|c| c.value)
            .unwrap_or_default()
    }

    pub(super) fn counter(&self, ui: &mut Ui, id: &CounterId, clicks: &mut Vec<Click>) {
        let Some(def) = self.module.counters.get(id.as_str()) else {
            return;
        };
        let value = self.counter_value(id);
        let target = self.targets.counters.contains(id);
        ui.horizontal(|ui| {
            let name = if target {
                RichText::new(&def.name).color(TARGET).strong()
            } else {
                RichText::new(&def.name)
            };
            if ui
                .add(egui::Label::new(name).sense(egui::Sense::click()))
                .clicked()
                && target
            {
                clicks.push(Click::Act(Target::Counter(id.clone())));
            }
            if named(ui.small_button("-"), &format!("{} minus 1", def.name)).clicked() {
                clicks.push(Click::Manual(Manual::SetCounter {
                    counter: id.clone(),
                    value: value - 1,
                }));
            }
            ui.label(RichText::new(value.to_string()).strong().monospace());
            if named(ui.small_button("+"), &format!("{} plus 1", def.name)).clicked() {
                clicks.push(Click::Manual(Manual::SetCounter {
                    counter: id.clone(),
                    value: value + 1,
                }));
            }
        });
    }

    fn place(&self, ui: &mut Ui, id: &PlaceId, clicks: &mut Vec<Click>) {
        let Some(place) = self.module.places.get(id.as_str()) else {
            return;
        };
        let pieces = self.table.places.get(id).cloned().unwrap_or_default();
        ui.horizontal(|ui| {
            ui.label(RichText::new(&place.def.name).strong());
            if let Some(sight) = self.table.fog.places.get(id) {
                self.fog_note(ui, sight);
            }
        });
        let moving_piece = matches!(self.selected, Some(Selected::Piece(_)));
        // A long track (a calendar of 120 months) shows where its pieces stand and the few
        // spaces after each, unless all of it is asked for.
        let spaces = shown_spaces(ui, &place.def, &pieces);
        // Spaces in rows of equal cells that fit the column; a crowded space takes two cells.
        let gap = ui.spacing().item_spacing.x;
        let width = ui.available_width() - 8.0;
        let n = spaces.len().max(1) as f32;
        let cell = ((width - gap * (n - 1.0)) / n).clamp(90.0, 160.0);
        let per_row = (((width + gap) / (cell + gap)).floor() as usize).max(2);
        let mut rows: Vec<Vec<(&chancery_core::module::SpaceDef, Vec<&PieceId>)>> =
            vec![Vec::new()];
        let mut used = 0;
        for space in spaces {
            let here: Vec<&PieceId> = pieces
                .iter()
                .filter(|(_, s)| **s == space.id)
                .map(|(p, _)| p)
                .collect();
            let slots = if here.len() > 4 { 2 } else { 1 };
            if used + slots > per_row && used > 0 {
                rows.push(Vec::new());
                used = 0;
            }
            used += slots;
            if let Some(last) = rows.last_mut() {
                last.push((space, here));
            }
        }
        for row in rows {
            ui.horizontal_top(|ui| {
                for (space, here) in row {
                    let inner_width = if here.len() > 4 {
                        2.0 * cell + gap
                    } else {
                        cell
                    } - 14.0;
                    self.space(ui, id, space, &here, inner_width, moving_piece, clicks);
                }
            });
        }
        if place.def.kind == PlaceKind::Map && !place.def.links.is_empty() {
            ui.collapsing(format!("Connections of {}", place.def.name), |ui| {
                for (a, b) in &place.def.links {
                    let name = |s: &str| {
                        place
                            .space(s)
                            .map_or_else(|| s.to_owned(), |d| space_name(d).to_owned())
                    };
                    ui.label(format!("{} — {}", name(a.as_str()), name(b.as_str())));
                }
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn space(
        &self,
        ui: &mut Ui,
        id: &PlaceId,
        space: &chancery_core::module::SpaceDef,
        here: &[&PieceId],
        width: f32,
        moving_piece: bool,
        clicks: &mut Vec<Click>,
    ) {
        let target = self
            .targets
            .spaces
            .contains(&(id.clone(), space.id.clone()));
        let frame = egui::Frame::group(ui.style())
            .inner_margin(6.0)
            .stroke(match target {
                true => Stroke::new(2.0, TARGET),
                false => ui.visuals().widgets.noninteractive.bg_stroke,
            });
        let (_, dropped) = ui.dnd_drop_zone::<Selected, _>(frame, |ui| {
            ui.set_width(width);
            ui.vertical(|ui| self.space_body(ui, id, space, here, target, moving_piece, clicks));
        });
        if let Some(thing) = dropped {
            clicks.push(Click::Move(
                (*thing).clone(),
                DropTarget::Space(id.clone(), space.id.clone()),
            ));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn space_body(
        &self,
        ui: &mut Ui,
        id: &PlaceId,
        space: &chancery_core::module::SpaceDef,
        here: &[&PieceId],
        target: bool,
        moving_piece: bool,
        clicks: &mut Vec<Click>,
    ) {
        let title = RichText::new(space_name(space)).small();
        let title = if target {
            title.color(TARGET).strong()
        } else {
            title
        };
        let response = ui.add(egui::Label::new(title).sense(egui::Sense::click()));
        let response = response.on_hover_ui(|ui| self.space_tooltip(ui, id, space));
        if response.clicked() {
            if moving_piece {
                clicks.push(Click::Drop(DropTarget::Space(id.clone(), space.id.clone())));
            } else if target {
                clicks.push(Click::Act(Target::Space(id.clone(), space.id.clone())));
            }
        }
        ui.horizontal_wrapped(|ui| {
            for piece in here {
                self.piece(ui, piece, clicks);
            }
        });
        if moving_piece && ui.small_button("Put here").clicked() {
            clicks.push(Click::Drop(DropTarget::Space(id.clone(), space.id.clone())));
        }
    }

    pub(super) fn space_tooltip(
        &self,
        ui: &mut Ui,
        place: &PlaceId,
        space: &chancery_core::module::SpaceDef,
    ) {
        ui.label(RichText::new(space_name(space)).strong());
        let place_def = self.module.places.get(place.as_str());
        if let Some(place_def) = place_def {
            let near: Vec<String> = place_def
                .neighbors(space.id.as_str())
                .iter()
                .map(|s| {
                    place_def
                        .space(s.as_str())
                        .map_or_else(|| s.to_string(), |d| space_name(d).to_owned())
                })
                .collect();
            if !near.is_empty() {
                ui.label(format!("Next to: {}", near.join(", ")));
            }
        }
        for (key, value) in &space.props {
            data_line(ui, key, value);
        }
    }

    /// A piece's name, or its id when the module lacks it.
    pub(super) fn piece_name(&self, piece: &PieceId) -> String {
        self.module
            .pieces
            .get(piece.as_str())
            .map_or_else(|| piece.to_string(), |p| p.name.clone())
    }

    fn piece(&self, ui: &mut Ui, piece: &PieceId, clicks: &mut Vec<Click>) {
        let name = self.piece_name(piece);
        let target = self.targets.pieces.contains(piece);
        let selected = self.selected == Some(&Selected::Piece(piece.clone()));
        let text = RichText::new(&name);
        let text = match (target, selected) {
            (_, true) => text.color(SELECTED).strong(),
            (true, _) => text.color(TARGET).strong(),
            _ => text,
        };
        let response =
            ui.add(egui::Button::selectable(selected, text).sense(egui::Sense::click_and_drag()));
        self.piece_actions(ui, response, piece, clicks);
    }

    /// What a drawn piece does: drag or click-then-click to move it, its data on hover,
    /// click to answer with it (a target), and a menu on right-click.
    pub(super) fn piece_actions(
        &self,
        ui: &Ui,
        response: egui::Response,
        piece: &PieceId,
        clicks: &mut Vec<Click>,
    ) {
        let def = self.module.pieces.get(piece.as_str());
        let name = self.piece_name(piece);
        let target = self.targets.pieces.contains(piece);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
        let response = draggable(ui, response, Selected::Piece(piece.clone()), &name);
        let response = response.on_hover_ui(|ui| {
            ui.label(RichText::new(&name).strong());
            if let Some(def) = def {
                if let Some(owner) = &def.owner {
                    ui.label(format!("Belongs to {}", self.module.seat_name(owner)));
                }
                for (key, value) in &def.props {
                    data_line(ui, key, value);
                }
            }
            ui.label(match target {
                true => "Click: answer the decision with this piece. Drag: move it by hand.",
                false => "Click, then click a space: move it by hand (or drag it).",
            });
        });
        if response.clicked() {
            clicks.push(match target {
                true => Click::Act(Target::Piece(piece.clone())),
                false => Click::Select(Selected::Piece(piece.clone())),
            });
        }
        response.context_menu(|ui| {
            if ui.button("Move by hand").clicked() {
                clicks.push(Click::Select(Selected::Piece(piece.clone())));
                ui.close();
            }
            if ui.button("Take off the table").clicked() {
                clicks.push(Click::Manual(Manual::RemovePiece {
                    piece: piece.clone(),
                }));
                ui.close();
            }
        });
    }

    /// A menu that adds one unit of any kind box `id` holds.
    pub(super) fn add_units_menu(&self, ui: &mut Ui, id: &BoxId, clicks: &mut Vec<Click>) {
        ui.label("Add one unit of:");
        for kind in self
            .module
            .unit_kinds
            .iter()
            .filter(|k| self.module.box_accepts(id.as_str(), k.id.as_str()))
        {
            if ui.button(&kind.name).clicked() {
                clicks.push(Click::Manual(Manual::AddUnits {
                    boxed: id.clone(),
                    kind: kind.id.clone(),
                    delta: 1,
                }));
                ui.close();
            }
        }
    }

    /// What a drawn stack of units does: drag or click-then-click to move one to another
    /// box, and a menu on right-click to add or remove some.
    pub(super) fn units_actions(
        &self,
        ui: &Ui,
        response: egui::Response,
        (id, kind, count): (&BoxId, &UnitKindId, i64),
        label: &str,
        clicks: &mut Vec<Click>,
    ) {
        let response = draggable(ui, response, Selected::Units(id.clone(), kind.clone()), label)
            .on_hover_text(format!(
                "Click, then click another box (or drag): move one {} there. Right-click: add or remove.",
                self.kind_name(kind.as_str())
            ));
        if response.clicked() {
            clicks.push(Click::Select(Selected::Units(id.clone(), kind.clone())));
        }
        response.context_menu(|ui| {
            for (text, delta) in [
                ("Add 1", 1),
                ("Remove 1", -1),
                ("Add 5", 5),
                ("Remove all", -count),
            ] {
                if ui.button(text).clicked() {
                    clicks.push(Click::Manual(Manual::AddUnits {
                        boxed: id.clone(),
                        kind: kind.clone(),
                        delta,
                    }));
                    ui.close();
                }
            }
        });
    }

    fn boxed(&self, ui: &mut Ui, id: &BoxId, clicks: &mut Vec<Click>) {
        let Some(def) = self.module.boxes.get(id.as_str()) else {
            return;
        };
        let units = self.table.boxes.get(id).cloned().unwrap_or_default();
        let target = self.targets.boxes.contains(id);
        let moving_units = matches!(self.selected, Some(Selected::Units(from, _)) if from != id);
        let frame = egui::Frame::group(ui.style()).stroke(match target {
            true => Stroke::new(2.0, TARGET),
            false => ui.visuals().widgets.noninteractive.bg_stroke,
        });
        let (_, dropped) = ui.dnd_drop_zone::<Selected, _>(frame, |ui| {
            ui.set_min_width(ui.available_width());
            ui.horizontal_wrapped(|ui| {
                let title = RichText::new(&def.name).strong();
                let title = if target { title.color(TARGET) } else { title };
                if ui
                    .add(egui::Label::new(title).sense(egui::Sense::click()))
                    .clicked()
                    && target
                {
                    clicks.push(Click::Act(Target::Box(id.clone())));
                }
                if units.values().all(|n| *n == 0) {
                    ui.weak("empty");
                }
                for (kind, count) in units.iter().filter(|(_, n)| **n != 0) {
                    let selected =
                        self.selected == Some(&Selected::Units(id.clone(), kind.clone()));
                    let label = format!("{} × {count}", self.kind_name(kind.as_str()));
                    let response = ui.add(
                        egui::Button::selectable(selected, label.clone())
                            .sense(egui::Sense::click_and_drag()),
                    );
                    self.units_actions(ui, response, (id, kind, *count), &label, clicks);
                }
                if moving_units && ui.small_button("Move 1 here").clicked() {
                    clicks.push(Click::Drop(DropTarget::Box(id.clone())));
                }
                ui.menu_button("+", |ui| self.add_units_menu(ui, id, clicks))
                    .response
                    .on_hover_text(format!("Add units to {}", def.name));
            });
        });
        if let Some(thing) = dropped {
            clicks.push(Click::Move((*thing).clone(), DropTarget::Box(id.clone())));
        }
    }
}

/// Gives a small button a name for screen readers and UI tests, also shown on hover.
fn named(response: egui::Response, name: &str) -> egui::Response {
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, name));
    response.on_hover_text(name)
}

/// A track longer than this shows only where its pieces stand, unless all of it is asked for.
const LONG_TRACK: usize = 24;

/// The spaces of `place` to draw: all of a map or a short track; of a long track, each
/// space a piece stands on and the three after it (the first four when none is taken), with
/// a box to show every space.
fn shown_spaces<'p>(
    ui: &mut Ui,
    place: &'p chancery_core::module::PlaceDef,
    pieces: &std::collections::BTreeMap<PieceId, chancery_core::SpaceId>,
) -> Vec<&'p chancery_core::module::SpaceDef> {
    let all: Vec<&chancery_core::module::SpaceDef> = place.spaces.iter().collect();
    if place.kind != PlaceKind::Track || all.len() <= LONG_TRACK {
        return all;
    }
    let id = ui.scope_id().with(("whole track", place.id.as_str()));
    let mut whole = ui.data_mut(|d| *d.get_temp_mut_or_default::<bool>(id));
    ui.checkbox(&mut whole, format!("Show all {} spaces", all.len()));
    ui.data_mut(|d| d.insert_temp(id, whole));
    if whole {
        return all;
    }
    let taken: Vec<usize> = all
        .iter()
        .enumerate()
        .filter(|(_, s)| pieces.values().any(|at| *at == s.id))
        .map(|(i, _)| i)
        .collect();
    let starts = if taken.is_empty() { vec![0] } else { taken };
    let mut keep = vec![false; all.len()];
    for i in starts {
        for k in keep.iter_mut().skip(i).take(4) {
            *k = true;
        }
    }
    all.into_iter()
        .zip(keep)
        .filter_map(|(s, k)| k.then_some(s))
        .collect()
}
