//! The table drawn as the module's boards: spaces, tracks, boxes, zones and counters at the
//! coordinates the module gives, links drawn between spaces, on a surface that pans (drag
//! the empty board), zooms (the mouse wheel) and fits the window. Everything the panels do
//! works here too: drag and drop, click then click, the prompt's targets, menus on
//! right-click and data on hover.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chancery_core::module::{BoardDef, BoardItem, BoardXY, SpaceDef};
use chancery_core::table::Visibility;
use chancery_core::{BoxId, CardId, CounterId, PieceId, PlaceId, Target, ZoneId};
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Ui, pos2, vec2};

use super::cards::card_summary;
use super::draw::{Click, Draw, DropTarget, SELECTED, Selected, TARGET, UNKNOWN};

/// The height of a piece standing on a space, and of the line of units it carries.
const CHIP: f32 = 20.0;
/// The narrowest a piece's chip gets before a space puts its pieces in one more column.
const CHIP_WIDTH: f32 = 100.0;
/// A card in a zone on the board.
const MINI_CARD: [f32; 2] = [104.0, 128.0];
/// Zoom limits, from a whole board on a small screen to a space read from afar.
const ZOOM: std::ops::RangeInclusive<f32> = 0.1..=4.0;
/// The smallest text drawn, in screen points: a board zoomed out further leaves out the
/// words it would shrink below this (hover a space for its name), and a board first opens
/// at a zoom where its own words are at least this big.
pub const SMALLEST_TEXT: f32 = 11.0;
/// The smallest font a board is drawn with, in board units.
const BOARD_FONT: f32 = 11.0;

/// Which board is shown and where each one is panned and zoomed to.
#[derive(Clone, Default)]
pub struct BoardView {
    /// The board shown, by its place in the module's list; `None` shows the panels.
    pub tab: Option<usize>,
    /// What part of each board the window shows, by board id.
    pub scenes: BTreeMap<String, Rect>,
    /// The window's zoom (A+ / A-) when a board was last drawn, to scale the board with it.
    zoom_factor: f32,
    /// Where the last board drawn lay on the screen: its area, and the part of the board
    /// shown in it.
    drawn: Option<(Rect, Rect)>,
    /// Spaces are being dragged onto the owner's image of the board (each drop is saved in
    /// the overlay).
    pub placing: bool,
    /// The owner's board images read so far, by file and its time of change: the texture,
    /// or why the file cannot be read.
    images: BTreeMap<(PathBuf, Option<SystemTime>), Result<egui::TextureHandle, String>>,
}

impl BoardView {
    /// The first board of `module`, or the panels if it has none.
    pub fn starting(module: &chancery_core::Module) -> Self {
        BoardView {
            tab: (!module.boards.is_empty()).then_some(0),
            ..BoardView::default()
        }
    }

    /// Shows all of `board` in the window, from its top (the part of the board the window
    /// shows has the window's shape).
    pub fn fit(&mut self, board: &BoardDef) {
        let scene = match self.drawn {
            Some((outer, _)) => fitted(board, outer),
            None => board_rect(board),
        };
        self.scenes.insert(board.id.clone(), scene);
    }

    /// Where on the screen the last board drawn lies (its window onto the board): a word
    /// this edge cuts is a drag away, not lost.
    pub fn on_screen(&self) -> Option<Rect> {
        self.drawn.map(|(outer, _)| outer)
    }

    /// Where the point `at` of the board last drawn is on the screen (the board's own
    /// coordinates, as the module gives them).
    pub fn to_screen(&self, at: Pos2) -> Option<Pos2> {
        let (outer, scene) = self.drawn?;
        let scale = (outer.size() / scene.size()).min_elem();
        let scale = scale.clamp(*ZOOM.start(), *ZOOM.end());
        Some(outer.center() + (at - scene.center()) * scale)
    }

    /// The owner's image at `path` as a texture (read once, and again when the file
    /// changes), or why it cannot be read.
    fn image(&mut self, ctx: &egui::Context, path: &Path) -> Result<egui::TextureHandle, String> {
        let changed = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let key = (path.to_path_buf(), changed);
        self.images
            .entry(key)
            .or_insert_with(|| {
                let max_side = ctx.input(|i| i.max_texture_side);
                let pixels = super::picture::read_image(path, max_side)?;
                Ok(ctx.load_texture(
                    format!("board image {}", path.display()),
                    pixels,
                    egui::TextureOptions::LINEAR,
                ))
            })
            .clone()
    }

    /// Zooms board `id` by `factor` about its centre.
    pub fn zoom(&mut self, board: &BoardDef, factor: f32) {
        let scene = self
            .scenes
            .entry(board.id.clone())
            .or_insert_with(|| board_rect(board));
        *scene = Rect::from_center_size(scene.center(), scene.size() / factor);
    }
}

/// The part of `board` a window first shows in `outer`: all of it when its words are
/// readable so (at least [`SMALLEST_TEXT`]), else its top left corner at the zoom where they
/// are, the rest a drag away.
fn readable(board: &BoardDef, outer: Rect) -> Rect {
    let whole = fitted(board, outer);
    let least = SMALLEST_TEXT / BOARD_FONT;
    if (outer.size() / whole.size()).min_elem() >= least {
        return whole;
    }
    let all = board_rect(board).expand(8.0);
    Rect::from_min_size(all.min, outer.size() / least)
}

/// The part of `board` to show in `outer` so that all of it shows, top-aligned and centred
/// across.
fn fitted(board: &BoardDef, outer: Rect) -> Rect {
    let whole = board_rect(board).expand(8.0);
    let scale = (outer.size() / whole.size()).min_elem();
    if !(scale.is_finite() && scale > 0.0) {
        return whole;
    }
    let size = outer.size() / scale;
    Rect::from_min_size(pos2(whole.center().x - size.x / 2.0, whole.min.y), size)
}

/// Leaves out the words drawn on `ui`'s layer since shape `first` that the board's zoom
/// makes smaller than [`SMALLEST_TEXT`] on the screen: no word is ever too small to read,
/// and a board zoomed out shows its shape.
fn leave_out_unreadable_words(ui: &Ui, first: egui::layers::ShapeIdx) {
    let layer = ui.layer_id();
    let scale = ui
        .ctx()
        .layer_transform_to_global(layer)
        .map_or(1.0, |t| t.scaling);
    ui.ctx().graphics_mut(|g| {
        let list = g.entry(layer);
        for i in first.0..list.next_idx().0 {
            list.mutate_shape(egui::layers::ShapeIdx(i), |clipped| {
                if let egui::Shape::Text(text) = &clipped.shape
                    && text_size(&text.galley) * scale < SMALLEST_TEXT - 0.01
                {
                    clipped.shape = egui::Shape::Noop;
                }
            });
        }
    });
}

/// The size of the smallest font of a laid-out text.
pub fn text_size(galley: &egui::Galley) -> f32 {
    galley
        .job
        .sections
        .iter()
        .map(|s| s.format.font_id.size)
        .fold(f32::INFINITY, f32::min)
}

fn board_rect(board: &BoardDef) -> Rect {
    Rect::from_min_size(Pos2::ZERO, vec2(board.size.0, board.size.1))
}

fn rect(at: BoardXY, size: BoardXY) -> Rect {
    Rect::from_min_size(pos2(at.0, at.1), vec2(size.0, size.1))
}

/// A drop target on the board: where it lies and what goes there; the last one under the
/// pointer that takes the dropped thing gets it (a block on a space takes units).
struct Drop {
    rect: Rect,
    target: DropTarget,
}

impl Drop {
    fn takes(&self, thing: &Selected) -> bool {
        matches!(
            (thing, &self.target),
            (Selected::Card(_), DropTarget::Zone(_))
                | (Selected::Piece(_), DropTarget::Space(..))
                | (Selected::Units(..), DropTarget::Box(_))
        )
    }
}

/// The tabs of the boards (and of the panels), with Fit and the zoom buttons.
pub(super) fn board_tabs(
    ui: &mut Ui,
    boards: &[&BoardDef],
    view: &mut BoardView,
    clicks: &mut Vec<Click>,
) {
    ui.horizontal_wrapped(|ui| {
        for (i, board) in boards.iter().enumerate() {
            if ui
                .selectable_label(view.tab == Some(i), &board.name)
                .clicked()
            {
                view.tab = Some(i);
            }
        }
        if ui
            .selectable_label(view.tab.is_none(), "All components")
            .on_hover_text("Every component in titled panels, as lists")
            .clicked()
        {
            view.tab = None;
        }
        if let Some(board) = view.tab.and_then(|i| boards.get(i)) {
            ui.separator();
            if ui
                .button("Fit")
                .on_hover_text("Show the whole board (also: double-click the empty board)")
                .clicked()
            {
                view.fit(board);
            }
            if ui.button("−").on_hover_text("Zoom out").clicked() {
                view.zoom(board, 1.0 / 1.25);
            }
            if ui.button("+").on_hover_text("Zoom in").clicked() {
                view.zoom(board, 1.25);
            }
            ui.separator();
            if board.owner.image.is_some() {
                ui.toggle_value(&mut view.placing, "Place spaces on your image")
                    .on_hover_text(
                        "Drag each space onto its spot on your board's image: where you drop it \
                         is saved in your overlay. Click again to play.",
                    );
            }
            egui::containers::menu::MenuButton::new("Your board image…")
                .config(
                    egui::containers::menu::MenuConfig::new()
                        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside),
                )
                .ui(ui, |ui| image_menu(ui, board, clicks));
            if !view.placing {
                ui.weak("Wheel: zoom · drag the empty board: pan");
            }
        }
    });
}

/// Names an image of the owner's own board (a scan or a photo) to draw under `board`.
fn image_menu(ui: &mut Ui, board: &BoardDef, clicks: &mut Vec<Click>) {
    ui.label("A scan or photo of your copy of this board (PNG or JPEG):");
    let id = ui.scope_id().with(("board image", board.id.as_str()));
    let mut path: String = ui.data_mut(|d| {
        d.get_temp_mut_or_insert_with(id, || {
            board
                .owner
                .image
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        })
        .clone()
    });
    ui.add(egui::TextEdit::singleline(&mut path).hint_text("/home/me/scans/board.jpg"))
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, "Image file"));
    ui.data_mut(|d| d.insert_temp(id, path.clone()));
    ui.weak("It is drawn under the board, filling its width; it is saved in your overlay.");
    if ui.button("Use this image").clicked() && !path.trim().is_empty() {
        clicks.push(Click::BoardImage {
            board: board.id.clone(),
            image: path.trim().to_owned(),
        });
        ui.close();
    }
}

impl Draw<'_> {
    /// Draws `board` filling `ui`, panned and zoomed as `view` says.
    pub(super) fn board(
        &self,
        ui: &mut Ui,
        board: &BoardDef,
        view: &mut BoardView,
        clicks: &mut Vec<Click>,
    ) {
        // A+ and A- scale the board as they scale the rest of the window.
        let zoom_factor = ui.ctx().zoom_factor();
        if view.zoom_factor > 0.0 && view.zoom_factor != zoom_factor {
            let ratio = zoom_factor / view.zoom_factor;
            for scene in view.scenes.values_mut() {
                *scene = Rect::from_center_size(scene.center(), scene.size() / ratio);
            }
        }
        view.zoom_factor = zoom_factor;
        let mut scene = *view
            .scenes
            .entry(board.id.clone())
            .or_insert_with(|| readable(board, ui.available_rect_before_wrap()));
        let image = board.owner.image.as_ref().and_then(|path| {
            view.image(ui.ctx(), path)
                .map_err(|e| {
                    ui.colored_label(UNKNOWN, format!("Your board image: {e}"));
                })
                .ok()
        });
        let placing = view.placing && image.is_some();
        if placing {
            ui.colored_label(
                SELECTED,
                "Drag each space onto its spot on your image; each drop is saved in your overlay.",
            );
        }
        let outer = ui.available_rect_before_wrap();
        let response = egui::Scene::new()
            .zoom_range(ZOOM)
            .scroll_zooms(true)
            .show(ui, &mut scene, |ui| {
                let first = ui.ctx().graphics_mut(|g| g.entry(ui.layer_id()).next_idx());
                let mut drops = Vec::new();
                self.board_items(ui, board, (image.as_ref(), placing), &mut drops, clicks);
                self.dropped(ui, &drops, clicks);
                leave_out_unreadable_words(ui, first);
            })
            .response;
        if response.double_clicked() {
            scene = fitted(board, outer);
        } else if response.clicked() && self.selected.is_some() {
            // A click on the empty board puts down what was picked up.
            if let Some(selected) = self.selected {
                clicks.push(Click::Select(selected.clone()));
            }
        }
        view.scenes.insert(board.id.clone(), scene);
        view.drawn = Some((outer, scene));
    }

    fn board_items(
        &self,
        ui: &mut Ui,
        board: &BoardDef,
        (image, placing): (Option<&egui::TextureHandle>, bool),
        drops: &mut Vec<Drop>,
        clicks: &mut Vec<Click>,
    ) {
        let visuals = ui.visuals().clone();
        let painter = ui.painter().clone();
        painter.rect_filled(board_rect(board), 8.0, board_fill(&visuals));
        if let Some(image) = image {
            // The owner's board fills the board's width, its shape kept.
            let [w, h] = image.size().map(|n| n as f32);
            let shown = Rect::from_min_size(Pos2::ZERO, vec2(board.size.0, board.size.0 * h / w));
            let whole = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
            painter.image(image.id(), shown, whole, Color32::WHITE);
        }
        for item in &board.items {
            match item {
                BoardItem::Area { title, at, size } => {
                    let r = rect(*at, *size);
                    // Over the owner's image, frames are outlines only.
                    let fill = match image {
                        Some(_) => Color32::TRANSPARENT,
                        None => area_fill(&visuals),
                    };
                    painter.rect(
                        r,
                        6.0,
                        fill,
                        Stroke::new(1.0, visuals.widgets.noninteractive.bg_stroke.color),
                        egui::StrokeKind::Inside,
                    );
                    painter.text(
                        r.min + vec2(8.0, 4.0),
                        Align2::LEFT_TOP,
                        title,
                        FontId::proportional(16.0),
                        visuals.strong_text_color(),
                    );
                }
                BoardItem::Label { text, at, height } => {
                    painter.text(
                        pos2(at.0, at.1),
                        Align2::LEFT_TOP,
                        text,
                        FontId::proportional(height.unwrap_or(16.0)),
                        visuals.strong_text_color(),
                    );
                }
                BoardItem::Map {
                    place,
                    at,
                    spaces,
                    space,
                    sizes,
                } => {
                    let size = space.unwrap_or(board.space);
                    let rects = owned(
                        board,
                        place,
                        map_rects(self, place, *at, (spaces, sizes), size),
                    );
                    self.links(&painter, place, &rects, &visuals);
                    self.spaces(ui, board, place, &rects, placing, drops, clicks);
                }
                BoardItem::Track {
                    place,
                    at,
                    step,
                    wrap,
                    wrap_step,
                    space,
                } => {
                    let size = space.unwrap_or(board.space);
                    let step = step.unwrap_or((size.0 + 4.0, 0.0));
                    let wrap_step = wrap_step.unwrap_or((0.0, size.1 + 4.0));
                    let Some(def) = self.module.places.get(place.as_str()) else {
                        continue;
                    };
                    let rects: Vec<(&SpaceDef, Rect)> = def
                        .def
                        .spaces
                        .iter()
                        .enumerate()
                        .map(|(i, s)| {
                            let (line, col) = match wrap {
                                Some(w) if *w > 0 => (i / w, i % w),
                                _ => (0, i),
                            };
                            let x = at.0 + col as f32 * step.0 + line as f32 * wrap_step.0;
                            let y = at.1 + col as f32 * step.1 + line as f32 * wrap_step.1;
                            (s, rect((x, y), size))
                        })
                        .collect();
                    let rects = owned(board, place, rects);
                    self.spaces(ui, board, place, &rects, placing, drops, clicks);
                }
                BoardItem::Box { id, at, size } => {
                    self.board_box(ui, id, rect(*at, *size), drops, clicks);
                }
                BoardItem::Zone { id, at, size } => {
                    self.board_zone(ui, id, rect(*at, *size), drops, clicks);
                }
                BoardItem::Counter { id, at, size } => {
                    self.board_counter(ui, id, rect(*at, size.unwrap_or((160.0, 28.0))), clicks);
                }
            }
        }
    }

    fn links(
        &self,
        painter: &egui::Painter,
        place: &PlaceId,
        rects: &[(&SpaceDef, Rect)],
        visuals: &egui::Visuals,
    ) {
        let Some(def) = self.module.places.get(place.as_str()) else {
            return;
        };
        let at = |id: &str| {
            rects
                .iter()
                .find(|(s, _)| s.id.as_str() == id)
                .map(|(_, r)| r.center())
        };
        let stroke = Stroke::new(
            3.0,
            visuals.widgets.inactive.fg_stroke.color.gamma_multiply(0.6),
        );
        for (a, b) in &def.def.links {
            if let (Some(a), Some(b)) = (at(a.as_str()), at(b.as_str())) {
                painter.line_segment([a, b], stroke);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn spaces(
        &self,
        ui: &mut Ui,
        board: &BoardDef,
        place: &PlaceId,
        rects: &[(&SpaceDef, Rect)],
        placing: bool,
        drops: &mut Vec<Drop>,
        clicks: &mut Vec<Click>,
    ) {
        let pieces = self.table.places.get(place);
        for (space, r) in rects {
            if placing {
                place_space(ui, board, place, space, *r, clicks);
                continue;
            }
            let here: Vec<&PieceId> = pieces
                .map(|p| {
                    p.iter()
                        .filter(|(_, s)| **s == space.id)
                        .map(|(p, _)| p)
                        .collect()
                })
                .unwrap_or_default();
            drops.push(Drop {
                rect: *r,
                target: DropTarget::Space(place.clone(), space.id.clone()),
            });
            self.board_space(ui, board, (place, space), *r, &here, drops, clicks);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn board_space(
        &self,
        ui: &mut Ui,
        board: &BoardDef,
        (place, space): (&PlaceId, &SpaceDef),
        r: Rect,
        here: &[&PieceId],
        drops: &mut Vec<Drop>,
        clicks: &mut Vec<Click>,
    ) {
        let target = self
            .targets
            .spaces
            .contains(&(place.clone(), space.id.clone()));
        let name = space_name(space);
        let id = ui
            .scope_id()
            .with(("space", place.as_str(), space.id.as_str()));
        let response = ui.interact(r, id, Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, name));
        let visuals = ui.visuals();
        let stroke = match response.hovered() && !target {
            true => visuals.widgets.hovered.bg_stroke,
            false => outline(ui, r, target),
        };
        let painter = ui.painter();
        // Over the owner's image, the image's own space shows through.
        let fill = match board.owner.image {
            Some(_) => Color32::from_black_alpha(90),
            None => visuals.widgets.inactive.bg_fill,
        };
        painter.rect(r, 5.0, fill, stroke, egui::StrokeKind::Inside);
        let rows = ((r.height() / 2.0 / 15.0).floor() as usize).max(1);
        let title = fitted_text(
            painter,
            name,
            12.0,
            if target { TARGET } else { visuals.text_color() },
            r.width() - 8.0,
            rows,
        );
        let title_height = title.size().y.min(r.height() / 2.0);
        painter
            .with_clip_rect(r)
            .galley(r.min + vec2(4.0, 2.0), title, visuals.text_color());
        let response = response.on_hover_ui(|ui| self.space_tooltip(ui, place, space));
        if response.clicked() {
            if matches!(self.selected, Some(Selected::Piece(_))) {
                clicks.push(Click::Drop(DropTarget::Space(
                    place.clone(),
                    space.id.clone(),
                )));
            } else if target {
                clicks.push(Click::Act(Target::Space(place.clone(), space.id.clone())));
            }
        }
        // The pieces one under the other, in as many columns of chips as the space is wide.
        let top = r.min.y + 2.0 + title_height + 2.0;
        let rows = (((r.max.y - 2.0 - top) / (CHIP + 2.0)).floor() as usize).max(1);
        let most = (((r.width() - 8.0 + 4.0) / (CHIP_WIDTH + 4.0)).floor() as usize).max(1);
        let columns = here.len().div_ceil(rows).clamp(1, most);
        let chip_width =
            ((r.width() - 8.0 - 4.0 * (columns - 1) as f32) / columns as f32).min(2.0 * CHIP_WIDTH);
        let mut y = top;
        let mut column = 0;
        for (i, piece) in here.iter().enumerate() {
            let carries = board.carries.get(*piece);
            let height = if carries.is_some() { 2.0 * CHIP } else { CHIP };
            if y + height > r.max.y - 2.0 && column + 1 < columns && i > 0 {
                column += 1;
                y = top;
            }
            if y + height > r.max.y - 2.0 && i > 0 {
                let rest: Vec<String> = here[i..].iter().map(|p| self.piece_name(p)).collect();
                ui.painter().text(
                    pos2(r.max.x - 4.0, r.max.y - 2.0),
                    Align2::RIGHT_BOTTOM,
                    format!("+{} more", rest.len()),
                    FontId::proportional(11.0),
                    UNKNOWN,
                );
                ui.interact(
                    Rect::from_min_max(pos2(r.min.x, y), r.max),
                    id.with("more"),
                    Sense::hover(),
                )
                .on_hover_text(rest.join("\n"));
                break;
            }
            let x = r.min.x + 4.0 + column as f32 * (chip_width + 4.0);
            let chip = Rect::from_min_size(pos2(x, y), vec2(chip_width, height));
            self.board_piece(ui, piece, chip, carries, clicks);
            // Units dropped on a block that carries a box go into its box.
            if let Some(boxed) = carries {
                drops.push(Drop {
                    rect: chip,
                    target: DropTarget::Box(boxed.clone()),
                });
            }
            y += height + 2.0;
        }
    }

    /// A counter: its name, its value, and − and + to change it by hand; the name answers
    /// the prompt when the counter is one of its targets.
    fn board_counter(&self, ui: &mut Ui, id: &CounterId, r: Rect, clicks: &mut Vec<Click>) {
        let Some(def) = self.module.counters.get(id.as_str()) else {
            return;
        };
        let value = self.counter_value(id);
        let target = self.targets.counters.contains(id);
        let visuals = ui.visuals();
        let painter = ui.painter().with_clip_rect(r);
        painter.rect(
            r,
            4.0,
            visuals.extreme_bg_color,
            match target {
                true => Stroke::new(3.0, TARGET),
                false => Stroke::new(
                    1.0,
                    visuals.widgets.inactive.fg_stroke.color.gamma_multiply(0.5),
                ),
            },
            egui::StrokeKind::Inside,
        );
        let button = r.height().min(22.0);
        let value_width = 34.0;
        let name_rect = Rect::from_min_max(
            r.min,
            pos2(r.max.x - 2.0 * button - value_width - 4.0, r.max.y),
        );
        let name = painter.layout(
            def.name.clone(),
            FontId::proportional(11.5),
            if target { TARGET } else { visuals.text_color() },
            name_rect.width() - 8.0,
        );
        let name_at = pos2(r.min.x + 5.0, r.center().y - name.size().y / 2.0);
        painter.galley(name_at, name, visuals.text_color());
        let response = ui.interact(
            name_rect,
            ui.scope_id().with(("counter", id.as_str())),
            Sense::click(),
        );
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &def.name));
        if response.on_hover_text(&def.name).clicked() && target {
            clicks.push(Click::Act(Target::Counter(id.clone())));
        }
        let centre_y = r.center().y;
        let minus = Rect::from_center_size(
            pos2(name_rect.max.x + button / 2.0 + 2.0, centre_y),
            vec2(button, button),
        );
        let shown = Rect::from_min_size(pos2(minus.max.x, r.min.y), vec2(value_width, r.height()));
        let plus = Rect::from_center_size(
            pos2(shown.max.x + button / 2.0, centre_y),
            vec2(button, button),
        );
        painter.text(
            shown.center(),
            Align2::CENTER_CENTER,
            value.to_string(),
            FontId::monospace(15.0),
            visuals.strong_text_color(),
        );
        for (r, text, delta) in [(minus, "−", -1), (plus, "+", 1)] {
            let label = format!(
                "{} {} 1",
                def.name,
                if delta < 0 { "minus" } else { "plus" }
            );
            let clicked = ui
                .put(r, egui::Button::new(text).small())
                .on_hover_text(&label)
                .clicked();
            if clicked {
                clicks.push(Click::Manual(chancery_core::Manual::SetCounter {
                    counter: id.clone(),
                    value: value + delta,
                }));
            }
        }
    }

    /// A piece on a space: a chip in its owner's colour with its name, and the units of the
    /// box it carries.
    fn board_piece(
        &self,
        ui: &mut Ui,
        piece: &PieceId,
        chip: Rect,
        carries: Option<&BoxId>,
        clicks: &mut Vec<Click>,
    ) {
        let def = self.module.pieces.get(piece.as_str());
        let target = self.targets.pieces.contains(piece);
        let selected = self.selected == Some(&Selected::Piece(piece.clone()));
        let response = ui.interact(
            chip,
            ui.scope_id().with(("piece", piece.as_str())),
            Sense::click_and_drag(),
        );
        let fill = match def.and_then(|d| d.rgb()) {
            Some([r, g, b]) => Color32::from_rgb(r, g, b),
            None => def
                .and_then(|d| d.owner.as_ref())
                .map_or(Color32::from_gray(90), |owner| self.seat_colour(owner)),
        };
        let stroke = match (selected, target, response.hovered()) {
            (true, _, _) => Stroke::new(2.5, SELECTED),
            (_, true, _) => Stroke::new(2.5, TARGET),
            (_, _, true) => Stroke::new(1.5, Color32::WHITE),
            _ => Stroke::new(1.0, Color32::from_black_alpha(120)),
        };
        let painter = ui.painter().with_clip_rect(chip);
        painter.rect(chip, 3.0, fill, stroke, egui::StrokeKind::Inside);
        let name = fitted_text(
            &painter,
            &self.piece_name(piece),
            12.0,
            Color32::WHITE,
            chip.width() - 8.0,
            1,
        );
        painter.galley(chip.min + vec2(4.0, 2.0), name, Color32::WHITE);
        if let Some(boxed) = carries {
            let units: Vec<String> = self
                .table
                .boxes
                .get(boxed)
                .map(|units| {
                    units
                        .iter()
                        .filter(|(_, n)| **n != 0)
                        .map(|(kind, n)| format!("{} {n}", self.kind_name(kind.as_str())))
                        .collect()
                })
                .unwrap_or_default();
            let text = match units.is_empty() {
                true => "no units".to_owned(),
                false => units.join(" · "),
            };
            let line = fitted_text(
                &painter,
                &text,
                11.0,
                Color32::from_gray(230),
                chip.width() - 8.0,
                1,
            );
            painter.galley(
                chip.min + vec2(4.0, CHIP + 1.0),
                line,
                Color32::from_gray(230),
            );
        }
        self.piece_actions(ui, response, piece, clicks);
    }

    /// The units of box `id` (drawn in `r`) in rows of chips under its title; what does not
    /// fit is counted, and listed on hover.
    fn unit_chips(
        &self,
        ui: &mut Ui,
        painter: &egui::Painter,
        (id, r): (&BoxId, Rect),
        units: &std::collections::BTreeMap<chancery_core::UnitKindId, i64>,
        clicks: &mut Vec<Click>,
    ) {
        // The units in rows of chips under the title.
        let mut x = r.min.x + 4.0;
        let mut y = r.min.y + 20.0;
        let present: Vec<_> = units.iter().filter(|(_, n)| **n != 0).collect();
        for (i, &(kind, count)) in present.iter().enumerate() {
            let label = format!("{} × {count}", self.kind_name(kind.as_str()));
            let galley =
                painter.layout_no_wrap(label.clone(), FontId::proportional(12.0), Color32::WHITE);
            let width = (galley.size().x + 10.0).min(r.width() - 8.0);
            if x + width > r.max.x - 4.0 && x > r.min.x + 4.0 {
                x = r.min.x + 4.0;
                y += CHIP + 2.0;
            }
            let chip = Rect::from_min_size(pos2(x, y), vec2(width, CHIP));
            if chip.max.y > r.max.y - 1.0 {
                // What does not fit is counted, and listed on hover.
                let rest: Vec<String> = present[i..]
                    .iter()
                    .map(|(kind, n)| format!("{} × {n}", self.kind_name(kind.as_str())))
                    .collect();
                painter.text(
                    pos2(r.max.x - 4.0, r.min.y + 3.0),
                    Align2::RIGHT_TOP,
                    format!("+{} more", rest.len()),
                    FontId::proportional(11.0),
                    UNKNOWN,
                );
                ui.interact(
                    Rect::from_min_size(pos2(r.max.x - 60.0, r.min.y), vec2(60.0, 18.0)),
                    ui.scope_id().with(("more units", id.as_str())),
                    Sense::hover(),
                )
                .on_hover_text(rest.join("\n"));
                break;
            }
            let selected = self.selected == Some(&Selected::Units(id.clone(), kind.clone()));
            let response = ui.interact(
                chip,
                ui.scope_id().with(("units", id.as_str(), kind.as_str())),
                Sense::click_and_drag(),
            );
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
            painter.rect(
                chip,
                3.0,
                Color32::from_gray(80),
                match selected {
                    true => Stroke::new(2.0, SELECTED),
                    false => Stroke::new(1.0, Color32::from_black_alpha(120)),
                },
                egui::StrokeKind::Inside,
            );
            painter
                .with_clip_rect(chip)
                .galley(chip.min + vec2(5.0, 3.0), galley, Color32::WHITE);
            self.units_actions(ui, response, (id, kind, *count), &label, clicks);
            x += width + 4.0;
        }
    }

    fn board_box(
        &self,
        ui: &mut Ui,
        id: &BoxId,
        r: Rect,
        drops: &mut Vec<Drop>,
        clicks: &mut Vec<Click>,
    ) {
        let Some(def) = self.module.boxes.get(id.as_str()) else {
            return;
        };
        let target = self.targets.boxes.contains(id);
        let response = ui.interact(r, ui.scope_id().with(("box", id.as_str())), Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &def.name));
        let visuals = ui.visuals().clone();
        let stroke = outline(ui, r, target);
        let painter = ui.painter().clone();
        // A box is darker than a space, with its name on a bar.
        painter.rect(
            r,
            2.0,
            visuals.extreme_bg_color,
            stroke,
            egui::StrokeKind::Inside,
        );
        painter.rect_filled(
            Rect::from_min_size(r.min, vec2(r.width(), 18.0)).shrink(1.0),
            egui::CornerRadius {
                nw: 2,
                ne: 2,
                sw: 0,
                se: 0,
            },
            visuals.widgets.inactive.bg_fill,
        );
        title_line(&painter, r, &def.name, target, visuals.strong_text_color());
        if response.clicked() {
            if matches!(self.selected, Some(Selected::Units(from, _)) if from != id) {
                clicks.push(Click::Drop(DropTarget::Box(id.clone())));
            } else if target {
                clicks.push(Click::Act(Target::Box(id.clone())));
            }
        }
        response.context_menu(|ui| self.add_units_menu(ui, id, clicks));
        drops.push(Drop {
            rect: r,
            target: DropTarget::Box(id.clone()),
        });
        let units = self.table.boxes.get(id).cloned().unwrap_or_default();
        self.unit_chips(ui, &painter, (id, r), &units, clicks);
        if units.values().all(|n| *n == 0) {
            painter.text(
                pos2(r.min.x + 5.0, r.min.y + 22.0),
                Align2::LEFT_TOP,
                "empty",
                FontId::proportional(11.0),
                visuals.weak_text_color(),
            );
        }
    }

    /// A zone whose cards the seat does not see as a deck: a stack of backs, whose top card
    /// can be taken.
    fn deck(
        &self,
        ui: &mut Ui,
        painter: &egui::Painter,
        (id, zone): (&ZoneId, &chancery_core::table::Zone),
        (body, width, height): (Rect, f32, f32),
        clicks: &mut Vec<Click>,
    ) {
        // A deck: a stack of backs, whose top card can be taken.
        let depth = zone.cards.len().min(4);
        for i in (0..depth).rev() {
            let back = Rect::from_min_size(
                body.min + vec2(i as f32 * 3.0, i as f32 * 3.0),
                vec2(width, height - 9.0),
            );
            card_back(painter, back);
        }
        let top = Rect::from_min_size(body.min, vec2(width, height - 9.0));
        let response = ui.interact(
            top,
            ui.scope_id().with(("top", id.as_str())),
            Sense::click_and_drag(),
        );
        let card = zone.cards[0].clone();
        let response = super::draw::draggable(
            ui,
            response,
            Selected::Card(card.clone()),
            "the top card",
        )
        .on_hover_text(
            "Drag, or click then click a zone: move the top card. Right-click: shuffle or deal.",
        );
        if response.clicked() {
            clicks.push(Click::Select(Selected::Card(card)));
        }
        response.context_menu(|ui| self.zone_menu(ui, id, clicks));
    }

    fn board_zone(
        &self,
        ui: &mut Ui,
        id: &ZoneId,
        r: Rect,
        drops: &mut Vec<Drop>,
        clicks: &mut Vec<Click>,
    ) {
        let (Some(def), Some(zone)) =
            (self.module.zones.get(id.as_str()), self.table.zones.get(id))
        else {
            return;
        };
        let target = self.targets.zones.contains(id);
        let title = format!(
            "{} · {}",
            def.name,
            super::cards::plural(zone.cards.len(), "card")
        );
        let visuals = ui.visuals().clone();
        let stroke = outline(ui, r, target);
        let response = ui.interact(r, ui.scope_id().with(("zone", id.as_str())), Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &def.name));
        let painter = ui.painter().clone();
        painter.rect(
            r,
            5.0,
            area_fill(&visuals),
            stroke,
            egui::StrokeKind::Inside,
        );
        title_line(&painter, r, &title, target, visuals.strong_text_color());
        if response.clicked() {
            if matches!(self.selected, Some(Selected::Card(_))) {
                clicks.push(Click::Drop(DropTarget::Zone(id.clone())));
            } else if target {
                clicks.push(Click::Act(Target::Zone(id.clone())));
            }
        }
        response.context_menu(|ui| self.zone_menu(ui, id, clicks));
        drops.push(Drop {
            rect: r,
            target: DropTarget::Zone(id.clone()),
        });
        let body = Rect::from_min_max(r.min + vec2(4.0, 20.0), r.max - vec2(4.0, 4.0));
        if zone.cards.is_empty() || body.height() < 20.0 {
            return;
        }
        let mine = self.eyes.is_some() && def.owner.as_ref() == self.eyes;
        let visible = zone.visible_to(self.eyes);
        let all_down = zone.cards.iter().all(|c| zone.face_down.contains(c));
        let height = MINI_CARD[1].min(body.height());
        let width = MINI_CARD[0]
            .min(height * 0.8)
            .max(MINI_CARD[0] * height / MINI_CARD[1]);
        if !visible || (all_down && !mine && def.visibility != Visibility::Owner) {
            self.deck(ui, &painter, (id, zone), (body, width, height), clicks);
            return;
        }
        // A row of cards, overlapping when there are more than the zone has room for.
        let n = zone.cards.len() as f32;
        let step = if n * (width + 4.0) <= body.width() {
            width + 4.0
        } else {
            ((body.width() - width) / (n - 1.0)).max(6.0)
        };
        let hovered = (0..zone.cards.len()).rev().find(|i| {
            pointer_in(
                ui,
                Rect::from_min_size(body.min + vec2(*i as f32 * step, 0.0), vec2(width, height)),
            )
        });
        for (i, card) in zone.cards.iter().enumerate() {
            let face =
                Rect::from_min_size(body.min + vec2(i as f32 * step, 0.0), vec2(width, height));
            if face.min.x > body.max.x {
                break;
            }
            let shown = zone.shows(card, self.eyes);
            let response = ui.interact(
                face,
                ui.scope_id().with(("card", card.as_str())),
                Sense::click_and_drag(),
            );
            let lift = if hovered == Some(i) { -4.0 } else { 0.0 };
            // A card the next one covers shows its name in the strip left to see.
            let last = i + 1 == zone.cards.len() || hovered == Some(i);
            let seen = if last { width } else { step.min(width) };
            self.mini_card(ui, card, face.translate(vec2(0.0, lift)), shown, seen);
            self.card_actions(ui, response, card, shown, clicks);
        }
    }

    /// A card on the board: its name, its main values and the start of its text; its whole
    /// face shows on hover.
    fn mini_card(&self, ui: &Ui, card: &CardId, r: Rect, shown: bool, seen: f32) {
        let painter = ui.painter().with_clip_rect(r.expand(3.0));
        if !shown {
            card_back(&painter, r);
            return;
        }
        let target = self.targets.cards.contains(card);
        let selected = self.selected == Some(&Selected::Card(card.clone()));
        let stroke = match (selected, target) {
            (true, _) => Stroke::new(2.5, SELECTED),
            (_, true) => Stroke::new(2.5, TARGET),
            _ => Stroke::new(1.0, Color32::from_gray(60)),
        };
        painter.rect(
            r,
            5.0,
            Color32::from_rgb(246, 240, 226),
            stroke,
            egui::StrokeKind::Inside,
        );
        let Some(def) = self.module.cards.get(card.as_str()) else {
            return;
        };
        let summary = card_summary(self.module, def);
        if let Some(colour) = summary.owner.as_ref().map(|s| self.seat_colour(s)) {
            painter.rect_filled(
                Rect::from_min_size(r.min, vec2(r.width(), 5.0)),
                egui::CornerRadius {
                    nw: 5,
                    ne: 5,
                    sw: 0,
                    se: 0,
                },
                colour,
            );
        }
        let ink = Color32::from_rgb(30, 30, 30);
        let mut y = r.min.y + 7.0;
        if let Some((value, known)) = &summary.corner {
            let centre = pos2(r.min.x + 12.0, y + 9.0);
            painter.circle(centre, 9.5, Color32::WHITE, Stroke::new(1.0, ink));
            painter.text(
                centre,
                Align2::CENTER_CENTER,
                value,
                FontId::proportional(12.0),
                if *known { ink } else { UNKNOWN },
            );
        }
        let indent = if summary.corner.is_some() { 24.0 } else { 4.0 };
        let covered = seen < r.width() - 0.5;
        // Under the next card only the name shows, on one line cut to the strip left to see.
        let name = fitted_text(
            &painter,
            &def.name,
            11.5,
            ink,
            seen - indent - 3.0,
            if covered { 1 } else { 3 },
        );
        let name_height = name.size().y;
        painter.galley(pos2(r.min.x + indent, y), name, ink);
        if covered {
            return;
        }
        y += name_height.max(20.0) + 2.0;
        for (line, known) in summary.lines.iter().take(3) {
            let galley = painter.layout(
                line.clone(),
                FontId::proportional(BOARD_FONT),
                if *known {
                    Color32::from_gray(70)
                } else {
                    UNKNOWN
                },
                r.width() - 8.0,
            );
            let h = galley.size().y;
            if y + h > r.max.y - 2.0 {
                return;
            }
            painter.galley(pos2(r.min.x + 4.0, y), galley, ink);
            y += h;
        }
        // The text's start, as many whole lines as the card has room for, the last cut
        // with "…" (the whole face shows on hover).
        let rows = ((r.max.y - 3.0 - y - 2.0) / (BOARD_FONT * 1.3)).floor();
        if !def.text.is_empty() && rows >= 1.0 {
            let galley = fitted_text(
                &painter,
                &def.text,
                BOARD_FONT,
                Color32::from_gray(40),
                r.width() - 8.0,
                rows as usize,
            );
            painter.galley(pos2(r.min.x + 4.0, y + 2.0), galley, ink);
        }
    }

    /// A seat's colour: the same for its pieces, cards and tracks everywhere.
    pub(super) fn seat_colour(&self, seat: &chancery_core::SeatId) -> Color32 {
        const COLOURS: [Color32; 6] = [
            Color32::from_rgb(52, 92, 170),
            Color32::from_rgb(40, 130, 80),
            Color32::from_rgb(170, 150, 40),
            Color32::from_rgb(180, 50, 50),
            Color32::from_rgb(120, 70, 150),
            Color32::from_rgb(30, 140, 150),
        ];
        let i = self
            .module
            .seats
            .iter()
            .position(|s| &s.id == seat)
            .unwrap_or(0);
        COLOURS[i % COLOURS.len()]
    }

    /// Takes what was dropped this frame and gives it to the topmost drop target under the
    /// pointer that takes it.
    fn dropped(&self, ui: &Ui, drops: &[Drop], clicks: &mut Vec<Click>) {
        let released = ui.input(|i| i.pointer.any_released());
        let Some(thing) = egui::DragAndDrop::payload::<Selected>(ui.ctx()) else {
            return;
        };
        if !released {
            return;
        }
        if let Some(drop) = drops
            .iter()
            .rev()
            .find(|d| d.takes(&thing) && pointer_in(ui, d.rect))
        {
            egui::DragAndDrop::clear_payload(ui.ctx());
            clicks.push(Click::Move((*thing).clone(), drop.target.clone()));
        }
    }
}

/// The rectangles of a map's spaces: where the board puts them, and the spaces it does not
/// place in a row under the others.
fn map_rects<'m>(
    draw: &Draw<'m>,
    place: &PlaceId,
    at: BoardXY,
    (spaces, sizes): (
        &BTreeMap<chancery_core::SpaceId, BoardXY>,
        &BTreeMap<chancery_core::SpaceId, BoardXY>,
    ),
    size: BoardXY,
) -> Vec<(&'m SpaceDef, Rect)> {
    let Some(def) = draw.module.places.get(place.as_str()) else {
        return Vec::new();
    };
    let placed: Vec<(&SpaceDef, Rect)> = def
        .def
        .spaces
        .iter()
        .filter_map(|s| {
            let xy = spaces.get(&s.id)?;
            let size = sizes.get(&s.id).copied().unwrap_or(size);
            Some((s, rect((at.0 + xy.0, at.1 + xy.1), size)))
        })
        .collect();
    let bottom = placed.iter().map(|(_, r)| r.max.y).fold(at.1, f32::max);
    let rest = def
        .def
        .spaces
        .iter()
        .filter(|s| !spaces.contains_key(&s.id))
        .enumerate()
        .map(|(i, s)| {
            (
                s,
                rect((at.0 + i as f32 * (size.0 + 6.0), bottom + 8.0), size),
            )
        });
    placed.into_iter().chain(rest).collect()
}

/// `rects` with the spaces the owner placed on their board image moved where they put them.
fn owned<'m>(
    board: &BoardDef,
    place: &PlaceId,
    rects: Vec<(&'m SpaceDef, Rect)>,
) -> Vec<(&'m SpaceDef, Rect)> {
    rects
        .into_iter()
        .map(
            |(space, r)| match board.owner.spaces.get(&(place.clone(), space.id.clone())) {
                Some(at) => (space, Rect::from_min_size(pos2(at.0, at.1), r.size())),
                None => (space, r),
            },
        )
        .collect()
}

/// A space while the owner places spaces on their image: see-through, with its name; drag it
/// where it lies on the image, and the drop is saved.
fn place_space(
    ui: &mut Ui,
    board: &BoardDef,
    place: &PlaceId,
    space: &SpaceDef,
    r: Rect,
    clicks: &mut Vec<Click>,
) {
    let id = ui
        .scope_id()
        .with(("placing", place.as_str(), space.id.as_str()));
    let response = ui.interact(r, id, Sense::drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, space_name(space)));
    // How far the space has been dragged: from where the button went down to where the
    // pointer is, both on the board (the press is kept: the release forgets it).
    let to_board = ui
        .ctx()
        .layer_transform_to_global(ui.layer_id())
        .unwrap_or_default()
        .inverse();
    let (pressed, pointer) = ui.input(|i| (i.pointer.press_origin(), i.pointer.interact_pos()));
    if response.drag_started()
        && let Some(from) = pressed
    {
        ui.data_mut(|d| d.insert_temp(id, to_board * from));
    }
    let from: Option<Pos2> = ui.data(|d| d.get_temp(id));
    let moved = match (response.dragged() || response.drag_stopped(), from, pointer) {
        (true, Some(from), Some(to)) => to_board * to - from,
        _ => egui::Vec2::ZERO,
    };
    if response.dragged() {
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
    }
    let shown = r.translate(moved);
    let painter = ui.painter();
    painter.rect(
        shown,
        4.0,
        Color32::from_black_alpha(70),
        Stroke::new(2.0, SELECTED),
        egui::StrokeKind::Inside,
    );
    painter.text(
        shown.min + vec2(4.0, 2.0),
        Align2::LEFT_TOP,
        space_name(space),
        FontId::proportional(12.0),
        Color32::WHITE,
    );
    if response.drag_stopped() {
        clicks.push(Click::PlaceSpace {
            board: board.id.clone(),
            place: place.clone(),
            space: space.id.clone(),
            at: (shown.min.x.round(), shown.min.y.round()),
        });
        ui.data_mut(|d| d.remove::<Pos2>(id));
    }
    response.on_hover_cursor(egui::CursorIcon::Grab);
}

/// The name at the top of a box or zone at `r`, yellow when it is one of the prompt's
/// targets; cut with "…" where it is wider than the box (whole on hover).
fn title_line(painter: &egui::Painter, r: Rect, text: &str, target: bool, colour: Color32) {
    let colour = if target { TARGET } else { colour };
    let galley = fitted_text(painter, text, 12.0, colour, r.width() - 10.0, 1);
    painter.galley(r.min + vec2(5.0, 3.0), galley, colour);
}

/// `text` laid out within `width` on at most `rows` rows, the last cut with "…" where the
/// words do not fit: no glyph is cut by a box's edge.
fn fitted_text(
    painter: &egui::Painter,
    text: &str,
    size: f32,
    colour: Color32,
    width: f32,
    rows: usize,
) -> std::sync::Arc<egui::Galley> {
    let mut job = egui::text::LayoutJob::simple(
        text.to_owned(),
        FontId::proportional(size),
        colour,
        width.max(1.0),
    );
    job.wrap.max_rows = rows;
    job.wrap.break_anywhere = rows == 1;
    job.wrap.overflow_character = Some('…');
    painter.layout_job(job)
}

/// The outline of a space, box or zone at `r`: yellow for the prompt's targets, blue under
/// something being dragged, else thin.
fn outline(ui: &Ui, r: Rect, target: bool) -> Stroke {
    let dragging = egui::DragAndDrop::has_payload_of_type::<Selected>(ui.ctx());
    if target {
        Stroke::new(3.0, TARGET)
    } else if dragging && pointer_in(ui, r) {
        Stroke::new(2.5, SELECTED)
    } else {
        Stroke::new(
            1.0,
            ui.visuals()
                .widgets
                .inactive
                .fg_stroke
                .color
                .gamma_multiply(0.7),
        )
    }
}

/// Whether the pointer is over `r` of the board (the board's own coordinates) and over the
/// part of the board the window shows.
fn pointer_in(ui: &Ui, r: Rect) -> bool {
    let Some(pointer) = ui.input(|i| i.pointer.interact_pos()) else {
        return false;
    };
    let to_board = ui
        .ctx()
        .layer_transform_to_global(ui.layer_id())
        .unwrap_or_default()
        .inverse();
    let at = to_board * pointer;
    r.contains(at) && ui.clip_rect().contains(at)
}

fn card_back(painter: &egui::Painter, r: Rect) {
    painter.rect(
        r,
        5.0,
        Color32::from_rgb(70, 52, 90),
        Stroke::new(1.0, Color32::from_gray(20)),
        egui::StrokeKind::Inside,
    );
    painter.rect_stroke(
        r.shrink(5.0),
        3.0,
        Stroke::new(1.0, Color32::from_rgb(190, 170, 110)),
        egui::StrokeKind::Inside,
    );
}

fn board_fill(visuals: &egui::Visuals) -> Color32 {
    match visuals.dark_mode {
        true => Color32::from_rgb(34, 40, 44),
        false => Color32::from_rgb(226, 222, 206),
    }
}

fn area_fill(visuals: &egui::Visuals) -> Color32 {
    match visuals.dark_mode {
        true => Color32::from_rgb(44, 52, 58),
        false => Color32::from_rgb(238, 234, 220),
    }
}

/// A space's name, or its id when it has none (the spaces of a numbered track).
pub(super) fn space_name(space: &SpaceDef) -> &str {
    if space.name.is_empty() {
        space.id.as_str()
    } else {
        &space.name
    }
}
