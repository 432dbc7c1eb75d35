//! The viewer's hands at a readable size, and the card picked to look at: its face and the
//! decision's actions that play it (a click on a card never plays it by itself).

use chancery_core::table::Visibility;
use chancery_core::{Target, ZoneId};
use egui::{RichText, Ui};

use super::cards::{card_face, plural};
use super::draw::{Draw, Selected, TARGET};
use super::game::GameView;

/// The width a card takes in the hand panel: its face (see `Draw::card`), margins and frame.
const HAND_PANEL_CARD: f32 = 134.0;

/// The hands the viewer may see, to show one in rows at a readable size: the viewer's own,
/// or with open hands every seat's (the deciding seat's first).
pub fn hands_ui(ui: &mut Ui, view: &mut GameView) {
    let module = view.session().module().clone();
    let eyes = view.eyes();
    let deciding = view.my_ask().and_then(|a| a.seat);
    let table = view.session().table();
    let mut hands: Vec<ZoneId> = module
        .zones
        .iter()
        .filter(|z| z.owner.is_some() && z.visibility == Visibility::Owner)
        .filter(|z| {
            table
                .zones
                .get(&z.id)
                .is_some_and(|zone| zone.visible_to(eyes.as_ref()))
        })
        .map(|z| z.id.clone())
        .collect();
    hands.sort_by_key(|z| module.zones.get(z.as_str()).and_then(|d| d.owner.clone()) != deciding);
    if hands.is_empty() {
        ui.weak("No hand to show: the seat at the screen holds none (see Seen as, at the top).");
        return;
    }
    let shown = view
        .panels()
        .hand
        .clone()
        .filter(|h| hands.contains(h))
        .unwrap_or_else(|| hands[0].clone());
    let mut pick = None;
    ui.horizontal_wrapped(|ui| {
        for id in &hands {
            let name = module.name_of("zone", id.as_str());
            let count = table.zones.get(id).map_or(0, |z| z.cards.len());
            if ui
                .selectable_label(*id == shown, format!("{name} · {}", plural(count, "card")))
                .clicked()
            {
                pick = Some(id.clone());
            }
        }
    });
    let targets = view.targets();
    let mut clicks = Vec::new();
    {
        let (session, panels) = view.session_and_panels();
        let table = session.table().fogged_for(eyes.as_ref());
        let ctx = Draw {
            module: &module,
            table: &table,
            targets: &targets,
            selected: panels.selected.as_ref(),
            eyes: eyes.as_ref(),
        };
        let zone = &session.table().zones[&shown];
        egui::ScrollArea::vertical()
            .id_salt("hand")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // Rows of whole cards (a frame's size is known only once drawn, so the rows
                // are counted here rather than wrapped).
                let spacing = ui.spacing().item_spacing.x;
                let per_row = ((ui.available_width() + spacing) / (HAND_PANEL_CARD + spacing))
                    .floor()
                    .max(1.0) as usize;
                for row in zone.cards.chunks(per_row) {
                    ui.horizontal(|ui| {
                        for card in row {
                            let shown = zone.shows(card, eyes.as_ref());
                            ctx.card(ui, card, shown, false, &mut clicks);
                        }
                    });
                }
            });
    }
    if let Some(pick) = pick {
        view.panels_mut().hand = Some(pick);
    }
    view.on_clicks(clicks);
}

/// The card picked to look at: its whole face, the decision's actions that play it, and
/// moving it by hand.
pub fn inspected_ui(ui: &mut Ui, view: &mut GameView) {
    let Some(card) = view.panels().inspected.clone() else {
        return;
    };
    let module = view.session().module().clone();
    let Some(def) = module.cards.get(card.as_str()) else {
        view.panels_mut().inspected = None;
        return;
    };
    ui.horizontal(|ui| {
        ui.label(RichText::new(&def.name).strong().size(16.0));
        if ui.small_button("Close").clicked() {
            view.panels_mut().inspected = None;
        }
    });
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_max_width(ui.available_width());
        card_face(ui, &module, def, true);
    });
    let plays: Vec<_> = view
        .my_ask()
        .map(|ask| {
            ask.actions
                .iter()
                .filter(|a| a.target == Some(Target::Card(card.clone())))
                .map(|a| (ask.seat.clone(), a.clone()))
                .collect()
        })
        .unwrap_or_default();
    if !plays.is_empty() {
        ui.weak("Play it for the decision:");
    }
    for (seat, action) in plays {
        let label = match action.label.is_empty() {
            true => format!("Play {}", def.name),
            false => action.label.clone(),
        };
        if action.range.is_none()
            && ui
                .button(RichText::new(label).color(TARGET))
                .on_hover_text("Answers the decision with this card")
                .clicked()
        {
            view.panels_mut().inspected = None;
            view.answer(seat, action.choice());
            return;
        }
    }
    if ui
        .small_button("Move by hand")
        .on_hover_text("Then click the zone it goes to (or drag the card there)")
        .clicked()
    {
        view.panels_mut().selected = Some(Selected::Card(card.clone()));
        view.panels_mut().inspected = None;
    }
    ui.separator();
}
