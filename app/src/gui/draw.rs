//! The drawing vocabulary every part of the table shares (the boards, the cards and the
//! panels): what can be picked up and where it can go, the parts the prompt's actions
//! concern, what a click asks for, what drawing needs to know, the colours, and dragging.

use std::collections::BTreeSet;
use std::sync::Arc;

use chancery_core::module::Module;
use chancery_core::{
    BoxId, CardId, CounterId, Manual, PieceId, PlaceId, SpaceId, Table, Target, UnitKindId, ZoneId,
};
use egui::{Color32, Ui};

/// Size of a card in the viewer's hand.
pub const HAND_CARD: [f32; 2] = [190.0, 250.0];
/// The colour of the prompt's targets.
pub const TARGET: Color32 = Color32::from_rgb(240, 200, 60);
/// The colour of a piece picked to move.
pub const SELECTED: Color32 = Color32::from_rgb(90, 170, 255);
/// The colour of values not entered yet.
pub const UNKNOWN: Color32 = Color32::from_rgb(255, 150, 60);

/// Something picked on the table to move by hand, waiting for where it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selected {
    /// A card: click a zone to move it there.
    Card(CardId),
    /// A piece: click a space to put it there.
    Piece(PieceId),
    /// One unit of a kind in a box: click another box to move it there.
    Units(BoxId, UnitKindId),
}

/// Where a selected or dragged thing can go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropTarget {
    /// A zone, for a card.
    Zone(ZoneId),
    /// A space, for a piece.
    Space(PlaceId, SpaceId),
    /// A box, for units.
    Box(BoxId),
}

/// The parts of the table the prompt's actions concern.
#[derive(Clone, Debug, Default)]
pub struct Targets {
    /// Cards.
    pub cards: BTreeSet<CardId>,
    /// Zones.
    pub zones: BTreeSet<ZoneId>,
    /// Spaces.
    pub spaces: BTreeSet<(PlaceId, SpaceId)>,
    /// Pieces.
    pub pieces: BTreeSet<PieceId>,
    /// Boxes.
    pub boxes: BTreeSet<BoxId>,
    /// Counters.
    pub counters: BTreeSet<CounterId>,
}

/// What a click on the table asks for, carried out after drawing.
pub enum Click {
    /// Answer the prompt with the action about this part of the table.
    Act(Target),
    /// Pick this up (or put it back down if it is already picked up).
    Select(Selected),
    /// Look at this card (or stop looking): its face, and what can be done with it.
    Inspect(CardId),
    /// Move the picked-up thing here.
    Drop(DropTarget),
    /// Move this thing here (a drag and drop).
    Move(Selected, DropTarget),
    /// A change by hand.
    Manual(Manual),
    /// The owner put a space of a board on its spot on their image of the board.
    PlaceSpace {
        /// The board.
        board: String,
        /// The space's place.
        place: PlaceId,
        /// The space.
        space: chancery_core::SpaceId,
        /// Its new top-left corner.
        at: (f32, f32),
    },
    /// The owner named an image of their copy of a board.
    BoardImage {
        /// The board.
        board: String,
        /// The image file.
        image: String,
    },
}

/// What drawing needs to know.
pub struct Draw<'a> {
    /// The module the game plays.
    pub module: &'a Arc<Module>,
    /// The table as the seat sees it.
    pub table: &'a Table,
    /// What the decision lets the seat click.
    pub targets: &'a Targets,
    /// What the seat has picked up to move, if anything.
    pub selected: Option<&'a Selected>,
    /// Whose eyes the table is drawn with (`None`: everything).
    pub eyes: Option<&'a chancery_core::SeatId>,
}

/// Lets a click-and-drag widget be dragged onto a drop zone: while dragged, the payload is
/// set and its name follows the pointer.
pub fn draggable(
    ui: &Ui,
    response: egui::Response,
    payload: Selected,
    name: &str,
) -> egui::Response {
    if response.drag_started() {
        egui::DragAndDrop::set_payload(ui.ctx(), payload);
    }
    if response.dragged()
        && let Some(pos) = ui.ctx().pointer_interact_pos()
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
        let painter = ui
            .ctx()
            .layer_painter(egui::LayerId::new(egui::Order::Tooltip, response.id));
        let font = egui::TextStyle::Button.resolve(ui.style());
        let galley = painter.layout_no_wrap(name.to_owned(), font, SELECTED);
        let rect =
            egui::Rect::from_min_size(pos + egui::vec2(12.0, 8.0), galley.size()).expand(4.0);
        painter.rect_filled(rect, 4.0, ui.visuals().extreme_bg_color);
        painter.galley(rect.min + egui::vec2(4.0, 4.0), galley, SELECTED);
    }
    response.on_hover_cursor(egui::CursorIcon::Grab)
}
