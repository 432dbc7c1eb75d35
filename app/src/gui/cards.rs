//! Zones of cards on the table: decks and other people's hands as stacks, the viewer's hand
//! as large cards, every card's face with its data on hover, and moves of cards by hand.

use chancery_core::module::{CardDef, DataValue, Module, OnCard};
use chancery_core::table::Visibility;
use chancery_core::{CardId, Manual, Position, Target, ZoneId};
use egui::{RichText, Stroke, Ui};

use super::draw::{
    Click, Draw, DropTarget, HAND_CARD, SELECTED, Selected, TARGET, UNKNOWN, draggable,
};

impl Draw<'_> {
    pub(super) fn zone(&self, ui: &mut Ui, id: &ZoneId, clicks: &mut Vec<Click>) {
        let (Some(def), Some(zone)) =
            (self.module.zones.get(id.as_str()), self.table.zones.get(id))
        else {
            return;
        };
        let target = self.targets.zones.contains(id);
        let moving_card = matches!(self.selected, Some(Selected::Card(_)));
        let mine = self.eyes.is_some() && def.owner.as_ref() == self.eyes;
        let frame = egui::Frame::group(ui.style()).stroke(match target {
            true => Stroke::new(2.0, TARGET),
            false => ui.visuals().widgets.noninteractive.bg_stroke,
        });
        let (_, dropped) = ui.dnd_drop_zone::<Selected, _>(frame, |ui| {
            ui.set_min_width(ui.available_width());
            ui.horizontal(|ui| {
                let title = format!("{} · {}", def.name, plural(zone.cards.len(), "card"));
                let title = RichText::new(title).strong();
                let title = if target { title.color(TARGET) } else { title };
                let response = ui.add(egui::Label::new(title).sense(egui::Sense::click()));
                if response.clicked() && target {
                    clicks.push(Click::Act(Target::Zone(id.clone())));
                }
                if mine {
                    ui.label(RichText::new("your hand").color(SELECTED));
                }
                if moving_card && ui.small_button("Put on top here").clicked() {
                    clicks.push(Click::Drop(DropTarget::Zone(id.clone())));
                }
                if !zone.cards.is_empty() {
                    egui::containers::menu::MenuButton::new("Deal")
                        .config(keep_open())
                        .ui(ui, |ui| self.deal_menu(ui, id, clicks))
                        .0
                        .on_hover_text(format!("Deal cards from {} to hands", def.name));
                }
                if zone.cards.len() > 1
                    && ui
                        .small_button("Shuffle")
                        .on_hover_text(format!("Shuffle {}", def.name))
                        .clicked()
                {
                    clicks.push(Click::Manual(Manual::Shuffle { zone: id.clone() }));
                }
            });
            let visible = zone.visible_to(self.eyes);
            let all_down = zone.cards.iter().all(|c| zone.face_down.contains(c));
            if zone.cards.is_empty() {
                ui.weak("no cards");
            } else if !visible || (all_down && !mine && def.visibility != Visibility::Owner) {
                // A deck or someone else's hand: a stack, whose top card can be taken.
                let top = zone.cards[0].clone();
                let text = match def.visibility {
                    Visibility::Owner if !visible => {
                        format!(
                            "{}, hidden from you (see Seen as, at the top)",
                            plural(zone.cards.len(), "card")
                        )
                    }
                    _ => format!("{} face down", plural(zone.cards.len(), "card")),
                };
                self.card_drag(ui, &top, clicks, |ui| {
                    ui.add(egui::Button::new(text).min_size(egui::vec2(120.0, 40.0)))
                })
                .on_hover_text("Click, then click a zone (or drag): move the top card there.");
            } else {
                // Rows of as many cards as the column holds (a wrapped row does not wrap
                // framed cards: they ran into the next column).
                let slot = if mine { HAND_CARD[0] } else { 120.0 } + 14.0;
                let gap = ui.spacing().item_spacing.x;
                let per_row =
                    (((ui.available_width() + gap) / (slot + gap)).floor() as usize).max(1);
                for row in zone.cards.chunks(per_row) {
                    ui.horizontal(|ui| {
                        for card in row {
                            let shown = zone.shows(card, self.eyes);
                            self.card(ui, card, shown, mine, clicks);
                        }
                    });
                }
            }
        });
        if let Some(thing) = dropped {
            clicks.push(Click::Move((*thing).clone(), DropTarget::Zone(id.clone())));
        }
    }

    pub(super) fn card_drag(
        &self,
        ui: &mut Ui,
        card: &CardId,
        clicks: &mut Vec<Click>,
        body: impl FnOnce(&mut Ui) -> egui::Response,
    ) -> egui::Response {
        let response = body(ui).interact(egui::Sense::click_and_drag());
        let response = draggable(ui, response, Selected::Card(card.clone()), "the top card");
        if response.clicked() {
            clicks.push(Click::Select(Selected::Card(card.clone())));
        }
        response
    }

    pub(super) fn card(
        &self,
        ui: &mut Ui,
        card: &CardId,
        shown: bool,
        large: bool,
        clicks: &mut Vec<Click>,
    ) {
        let def = self.module.cards.get(card.as_str());
        let target = self.targets.cards.contains(card);
        let selected = self.selected == Some(&Selected::Card(card.clone()));
        let stroke = match (selected, target) {
            (true, _) => Stroke::new(2.5, SELECTED),
            (_, true) => Stroke::new(2.5, TARGET),
            _ => Stroke::new(1.0, ui.visuals().widgets.inactive.fg_stroke.color),
        };
        let size = if large { HAND_CARD } else { [120.0, 56.0] };
        let response = egui::Frame::new()
            .stroke(stroke)
            .corner_radius(6.0)
            .inner_margin(6.0)
            .fill(ui.visuals().extreme_bg_color)
            .show(ui, |ui| {
                ui.set_min_size(size.into());
                ui.set_max_width(size[0]);
                ui.vertical(|ui| match (shown, def) {
                    (true, Some(def)) => card_face(ui, self.module, def, large),
                    (true, None) => {
                        ui.label(card.to_string());
                    }
                    (false, _) => {
                        ui.weak("face down");
                    }
                });
            })
            .response
            .interact(egui::Sense::click_and_drag());
        self.card_actions(ui, response, card, shown, clicks);
    }

    /// The menu of a zone on the board (right-click): shuffle it, or deal from it.
    pub(super) fn zone_menu(&self, ui: &mut Ui, id: &ZoneId, clicks: &mut Vec<Click>) {
        if ui.button("Shuffle").clicked() {
            clicks.push(Click::Manual(Manual::Shuffle { zone: id.clone() }));
            ui.close();
        }
        egui::containers::menu::SubMenuButton::new("Deal")
            .config(keep_open())
            .ui(ui, |ui| self.deal_menu(ui, id, clicks));
    }

    /// Deal N cards from zone `id` to one hand, or to each hand, as one input.
    pub(super) fn deal_menu(&self, ui: &mut Ui, id: &ZoneId, clicks: &mut Vec<Click>) {
        let count_id = ui.scope_id().with(("deal count", id.as_str()));
        let mut count: u32 = ui.data_mut(|d| *d.get_temp_mut_or(count_id, 1));
        ui.horizontal(|ui| {
            ui.label("Cards:");
            ui.add(egui::DragValue::new(&mut count).range(1..=60))
                .widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::SpinButton, true, "Cards to deal")
                });
        });
        ui.data_mut(|d| d.insert_temp(count_id, count));
        let hands: Vec<_> = self
            .module
            .zones
            .iter()
            .filter(|z| z.id != *id)
            .filter(|z| z.visibility == Visibility::Owner)
            .filter(|z| {
                z.owner
                    .as_ref()
                    .is_some_and(|o| self.table.seats.contains_key(o))
            })
            .collect();
        let deal = |to: Vec<ZoneId>| {
            Click::Manual(Manual::Deal {
                from: id.clone(),
                to,
                count,
            })
        };
        if hands.len() > 1 && ui.button(format!("Deal {count} to each hand")).clicked() {
            clicks.push(deal(hands.iter().map(|z| z.id.clone()).collect()));
            ui.close();
        }
        for hand in &hands {
            if ui
                .button(format!("Deal {count} to {}", hand.name))
                .clicked()
            {
                clicks.push(deal(vec![hand.id.clone()]));
                ui.close();
            }
        }
        ui.menu_button("To another zone", |ui| {
            for zone in self.module.zones.iter().filter(|z| z.id != *id) {
                if ui.button(&zone.name).clicked() {
                    clicks.push(deal(vec![zone.id.clone()]));
                    ui.close();
                }
            }
        });
    }

    /// What a drawn card does: its name for screen readers, drag to move it, its face on
    /// hover, click to look at it (a face-down one: to pick it up), and a menu on
    /// right-click.
    pub(super) fn card_actions(
        &self,
        ui: &Ui,
        response: egui::Response,
        card: &CardId,
        shown: bool,
        clicks: &mut Vec<Click>,
    ) {
        let def = self.module.cards.get(card.as_str());
        let target = self.targets.cards.contains(card);
        let title = match (shown, def) {
            (true, Some(def)) => def.name.clone(),
            _ => "a face-down card".to_owned(),
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &title));
        let response = draggable(ui, response, Selected::Card(card.clone()), &title);
        let response = match (shown, def) {
            (true, Some(def)) => response.on_hover_ui(|ui| {
                ui.set_max_width(360.0);
                card_face(ui, self.module, def, true);
                ui.separator();
                ui.weak(match target {
                    true => "Click: look at it, and play it from there. Drag: move it by hand.",
                    false => "Click: look at it. Drag: move it by hand. Right-click: more.",
                });
            }),
            _ => response,
        };
        // A click only picks the card to look at: playing it takes a second, explicit
        // action (the buttons beside its face in the Decision panel).
        if response.clicked() && shown {
            clicks.push(Click::Inspect(card.clone()));
        } else if response.clicked() {
            clicks.push(Click::Select(Selected::Card(card.clone())));
        }
        response.context_menu(|ui| {
            if ui.button("Move by hand").clicked() {
                clicks.push(Click::Select(Selected::Card(card.clone())));
                ui.close();
            }
            let face_up = !self
                .table
                .zones
                .values()
                .any(|z| z.face_down.contains(card));
            if ui
                .button(if face_up {
                    "Turn face down"
                } else {
                    "Turn face up"
                })
                .clicked()
            {
                clicks.push(Click::Manual(Manual::FlipCard {
                    card: card.clone(),
                    face_up: !face_up,
                }));
                ui.close();
            }
            ui.menu_button("Move to", |ui| {
                for zone in self.module.zones.iter() {
                    if ui.button(&zone.name).clicked() {
                        clicks.push(Click::Manual(Manual::MoveCard {
                            card: card.clone(),
                            to: zone.id.clone(),
                            position: Position::Top,
                        }));
                        ui.close();
                    }
                }
            });
        });
    }
}

/// What a small card shows: the seat it belongs to, the value in its corner and its other
/// lines, each with whether it is known (an unknown one reads "?").
pub struct CardSummary {
    /// The seat the card belongs to (its colour along the top).
    pub owner: Option<chancery_core::SeatId>,
    /// The value in the top-left circle.
    pub corner: Option<(String, bool)>,
    /// "Label: value" lines, in the module's order of fields.
    pub lines: Vec<(String, bool)>,
}

/// A field's value in words: ids as the names of what they are ("A" → "Alpha", "free_trade"
/// → "Free Trade"), a list or a map on one line; "?" when not entered.
fn value_words(module: &Module, value: &DataValue) -> (String, bool) {
    let Some(value) = value.known() else {
        return ("?".to_owned(), false);
    };
    (module.value_words(value), true)
}

/// What the small card of `card` shows, as its module's fields say (`on_card`).
pub fn card_summary(module: &Module, card: &CardDef) -> CardSummary {
    let mut summary = CardSummary {
        owner: None,
        corner: None,
        lines: Vec::new(),
    };
    for field in module
        .card_fields
        .iter()
        .filter(|f| f.applies_to(&card.deck))
    {
        let Some(value) = card.fields.get(&field.id) else {
            continue;
        };
        let (words, known) = value_words(module, value);
        match field.on_card {
            OnCard::Corner => summary.corner = Some((words, known)),
            OnCard::Nation => {
                if let Some(chancery_core::Value::Str(s)) = value.known()
                    && module.seats.contains(s)
                {
                    summary.owner = Some(s.as_str().into());
                }
                summary.lines.insert(0, (words, known));
            }
            OnCard::Line => summary
                .lines
                .push((format!("{}: {words}", field.label()), known)),
            OnCard::Off => {}
        }
    }
    summary
}

/// A card's face: its name, its values under their labels (unknown ones marked "not
/// entered") and its text; `full` adds the values the small card leaves off.
pub fn card_face(ui: &mut Ui, module: &Module, card: &CardDef, full: bool) {
    ui.label(RichText::new(&card.name).strong());
    let fields: Vec<_> = module
        .card_fields
        .iter()
        .filter(|f| f.applies_to(&card.deck))
        .filter_map(|f| Some((f, card.fields.get(&f.id)?)))
        .collect();
    if !full {
        let summary = card_summary(module, card);
        let mut line: Vec<String> = summary.corner.iter().map(|(v, _)| v.clone()).collect();
        line.extend(summary.lines.iter().take(1).map(|(v, _)| v.clone()));
        if !line.is_empty() {
            ui.label(RichText::new(line.join(" · ")).small());
        }
        return;
    }
    let (shown, off): (Vec<_>, Vec<_>) = fields
        .into_iter()
        .partition(|(f, _)| f.on_card != OnCard::Off);
    for (field, value) in shown {
        field_line(ui, module, &field.label(), value, false);
    }
    if !card.text.is_empty() {
        ui.separator();
        ui.label(&card.text);
    }
    if !off.is_empty() {
        ui.separator();
        for (field, value) in off {
            field_line(ui, module, &field.label(), value, true);
        }
    }
}

/// One "Label: value" line of a card; an unknown value says "not entered".
fn field_line(ui: &mut Ui, module: &Module, label: &str, value: &DataValue, weak: bool) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("{label}:")).weak());
        match value_words(module, value) {
            (_, false) => ui.label(RichText::new("not entered").color(UNKNOWN)),
            (words, true) if weak => ui.label(RichText::new(words).weak()),
            (words, true) => ui.label(words),
        };
    });
}

/// One `key: value` line of module data; an unknown value says "not entered".
pub fn data_line(ui: &mut Ui, key: &str, value: &DataValue) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("{key}:")).weak());
        match value.known() {
            Some(v) => ui.label(v.to_string()),
            None => ui.label(RichText::new("not entered").color(UNKNOWN)),
        };
    });
}

/// A menu that stays open while its number is typed (its buttons close it).
fn keep_open() -> egui::containers::menu::MenuConfig {
    egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
}

/// "1 card", "3 cards".
pub(super) fn plural(n: usize, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        n => format!("{n} {thing}s"),
    }
}

#[cfg(test)]
mod tests {
    use chancery_core::Value;
    use chancery_core::module::{DataValue, LoadOptions, OverlayChoice};

    /// A card's values read as words: yes and no, none for an empty list or map, names for
    /// ids, also inside a map.
    #[test]
    fn a_card_s_values_read_as_words() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modules/testbed");
        let options = LoadOptions {
            overlay: OverlayChoice::Off,
            strict: false,
        };
        let module = chancery_core::load_module(&dir, &options).expect("the testbed loads");
        let words = |value: Value| super::value_words(&module, &DataValue::Known(value)).0;
        assert_eq!(words(Value::Bool(false)), "no");
        assert_eq!(words(Value::Bool(true)), "yes");
        assert_eq!(words(Value::List(Vec::new())), "none");
        assert_eq!(words(Value::parse_arg(r#"{"A": -1}"#)), "Alpha -1");
        assert_eq!(words(Value::parse_arg(r#"{"B": "one"}"#)), "Beta One");
    }
}
