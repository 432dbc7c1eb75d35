//! The decision panel: what the rules wait for and the legal answers, a step waiting for a
//! die or a value from the physical game, and the bots (one step at a time, with reasons).

use chancery_core::module::OverlayTarget;
use chancery_core::{
    Ask, Choice, Controller, Decision, Module, Need, Prompt, SeatId, Target, Value,
};
use egui::{Color32, RichText, Ui};

use super::draw::{TARGET, UNKNOWN};
use super::game::{GameView, Pending, seat_name};

/// Draws the decision panel.
pub fn prompt_ui(ui: &mut Ui, view: &mut GameView) {
    egui::ScrollArea::vertical()
        .id_salt("prompt")
        .show(ui, |ui| {
            if view.pending().is_some() {
                need_ui(ui, view);
                ui.separator();
            }
            super::hand::inspected_ui(ui, view);
            decision_ui(ui, view);
            if let Some(status) = view.status() {
                ui.separator();
                ui.colored_label(Color32::LIGHT_GREEN, status);
            }
            if let Some(error) = view.error().map(str::to_owned) {
                ui.separator();
                ui.colored_label(Color32::LIGHT_RED, &error);
                if ui.small_button("Dismiss").clicked() {
                    view.clear_error();
                }
            }
            if let Some(last) = view.last_bot() {
                ui.separator();
                let name = seat_name(view.session().module(), &last.seat);
                let shown = !last.secret || view.eyes().is_none_or(|eyes| eyes == last.seat);
                if shown {
                    ui.label(RichText::new(format!("{name}'s bot chose: {}", last.words)).strong());
                    reasons(ui, &last.pick.reason);
                } else {
                    ui.label(
                        RichText::new(format!("{name}'s bot has chosen, in secret.")).strong(),
                    );
                }
            }
            checklists_ui(ui, view);
        });
}

/// The board-sync checklists (physical board): each instruction ticked off by the player;
/// a list goes once all of it is ticked. Then a card drawn for a bot from the physical deck
/// can be entered by name.
fn checklists_ui(ui: &mut Ui, view: &mut GameView) {
    if !view.physical_board() {
        return;
    }
    ui.separator();
    ui.label(RichText::new("On the physical board").strong());
    if view.checklists().is_empty() {
        ui.weak("The board matches the game.");
    }
    for list in view.checklists_mut() {
        ui.label(RichText::new(&list.title).italics());
        for (item, done) in &mut list.items {
            ui.checkbox(done, item.as_str());
        }
    }
    view.drop_ticked();
    if view.board_out_of_sync() {
        ui.weak("The bots wait until every change is ticked.");
        if ui.small_button("Tick all").clicked() {
            for list in view.checklists_mut() {
                for (_, done) in &mut list.items {
                    *done = true;
                }
            }
        }
    }
    drawn_card_ui(ui, view);
}

/// Enter a card drawn from the physical deck by name: it moves to the chosen zone.
fn drawn_card_ui(ui: &mut Ui, view: &mut GameView) {
    let module = view.session().module().clone();
    let id = ui.make_persistent_id("drawn_card");
    let (mut card, mut zone): (String, String) =
        ui.data_mut(|d| d.get_temp(id).unwrap_or_default());
    ui.horizontal_wrapped(|ui| {
        let card_label = ui.label("A card drawn for the table:").id;
        let mut names: Vec<(&str, &str)> = module
            .cards
            .iter()
            .map(|c| (c.name.as_str(), c.id.as_str()))
            .collect();
        names.sort_unstable();
        egui::ComboBox::from_id_salt("drawn_card_name")
            .selected_text(
                module
                    .cards
                    .get(&card)
                    .map_or("(card)", |c| c.name.as_str()),
            )
            .height(300.0)
            .show_ui(ui, |ui| {
                for (name, cid) in names {
                    ui.selectable_value(&mut card, cid.to_owned(), name);
                }
            })
            .response
            .labelled_by(card_label);
        let zone_label = ui.label("to").id;
        egui::ComboBox::from_id_salt("drawn_card_zone")
            .selected_text(
                module
                    .zones
                    .get(&zone)
                    .map_or("(where)", |z| z.name.as_str()),
            )
            .show_ui(ui, |ui| {
                for z in module.zones.iter() {
                    ui.selectable_value(&mut zone, z.id.to_string(), &z.name);
                }
            })
            .response
            .labelled_by(zone_label);
        let ready = module.cards.get(&card).is_some() && module.zones.get(&zone).is_some();
        if ui.add_enabled(ready, egui::Button::new("Move")).clicked() {
            view.manual(chancery_core::Manual::MoveCard {
                card: card.as_str().into(),
                to: zone.as_str().into(),
                position: chancery_core::Position::Top,
            });
        }
    });
    ui.data_mut(|d| d.insert_temp(id, (card, zone)));
}

fn reasons(ui: &mut Ui, reasons: &[String]) {
    if reasons.is_empty() {
        ui.weak("(the bot gave no reason)");
    }
    for reason in reasons {
        ui.label(RichText::new(reason).italics());
    }
}

/// The end of the game: who won, by name, what happened, and the final scores.
fn result_ui(ui: &mut Ui, view: &GameView) {
    let module = view.session().module();
    let result = view.session().table().result.clone().unwrap_or_default();
    ui.label(RichText::new("The game is over.").strong());
    let names: Vec<String> = result.winners.iter().map(|w| module.seat_name(w)).collect();
    let verdict = match names.as_slice() {
        [] => "Nobody wins: a draw.".to_owned(),
        [one] => format!("{one} wins."),
        many => format!("{} win.", and_list(many)),
    };
    ui.heading(verdict);
    if !result.text.is_empty() {
        ui.label(result.text);
    }
    if !result.scores.is_empty() {
        ui.separator();
        ui.label(RichText::new("Final scores").strong());
        let mut scores: Vec<(&SeatId, &i64)> = result.scores.iter().collect();
        scores.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        egui::Grid::new("final scores").show(ui, |ui| {
            for (seat, score) in scores {
                ui.label(module.seat_name(seat));
                ui.label(score.to_string());
                ui.end_row();
            }
        });
    }
}

fn decision_ui(ui: &mut Ui, view: &mut GameView) {
    undo_asked_ui(ui, view);
    ui.heading("Decision");
    let prompt = match view.session().prompt().clone() {
        Ok(Some(prompt)) => prompt,
        Ok(None) => {
            result_ui(ui, view);
            return;
        }
        Err(_) if view.session().setup_waits().is_some() => {
            ui.label("The game is being set up: it begins once the values of your copy that its set-up needs are entered, one at a time, above.");
            return;
        }
        Err(err) => {
            ui.colored_label(Color32::LIGHT_RED, err.to_string());
            ui.label("The rules cannot go on from here; the table still works by hand, and Undo goes back.");
            return;
        }
    };
    let module = view.session().module().clone();
    let names: Vec<String> = prompt.deciders().map(|s| seat_name(&module, s)).collect();
    let seats = &view.session().table().seats;
    let bot_decides = prompt
        .deciders()
        .any(|s| matches!(seats.get(s), Some(Controller::Bot(_))));
    let heading = heading(&module, &prompt, &names);
    ui.label(RichText::new(heading).strong().size(16.0));
    ui.label(prompt.text_for(view.eyes().as_ref()));
    if !prompt.answered.is_empty() {
        let done: Vec<String> = prompt
            .answered
            .iter()
            .map(|s| seat_name(&module, s))
            .collect();
        let what = if prompt.is_secret() {
            "Chosen already (hidden until revealed)"
        } else {
            "Passed already"
        };
        ui.weak(format!("{what}: {}", done.join(", ")));
    }
    let has_bots = view
        .session()
        .table()
        .seats
        .values()
        .any(|c| matches!(c, chancery_core::Controller::Bot(_)));
    if bot_decides {
        bot_ui(ui, view);
    } else if has_bots {
        bots_pace_ui(ui, view);
    }
    if window_ui(ui, view, &prompt) {
        return;
    }
    // The umpire at the screen enters each seat's answer to a decision made in secret (the
    // orders that came by mail), seat by seat, without passing the screen.
    if view.umpire_at_screen() && prompt.is_secret() && view.my_ask().is_none() {
        ui.label("Enter each seat's answer as it reaches you:");
        for ask in &prompt.asks {
            ui.push_id(("umpire enters", ask.seat.clone()), |ui| {
                ui.horizontal_wrapped(|ui| {
                    if let Some(seat) = &ask.seat {
                        ui.label(
                            RichText::new(format!("For {}:", seat_name(&module, seat))).strong(),
                        );
                    }
                    actions_ui(ui, view, &prompt.state, ask);
                });
            });
        }
        return;
    }
    let Some(ask) = view.my_ask() else {
        // A bot's single decision may still be answered by hand (never a secret one).
        if let [ask] = prompt.asks.as_slice()
            && bot_decides
            && view.remote().is_none()
            && !prompt.is_secret()
        {
            ui.collapsing("Answer for the bot by hand", |ui| {
                actions_ui(ui, view, &prompt.state, ask)
            });
        }
        return;
    };
    if view.viewer().pass_to.is_some() {
        ui.label("Waiting for the screen to be passed.");
        return;
    }
    if (prompt.is_secret() || prompt.asks.len() > 1)
        && let Some(seat) = &ask.seat
    {
        ui.label(RichText::new(format!("Choices of {}:", seat_name(&module, seat))).strong());
    }
    actions_ui(ui, view, &prompt.state, &ask);
    if !module.rules.bots.is_empty() {
        bot_preview_ui(ui, view, &ask);
    }
}

/// At a table on a server, a seat's request to take back the last move: who asked, who is
/// still to agree, and this seat's Agree and Refuse if it is asked.
fn undo_asked_ui(ui: &mut Ui, view: &mut GameView) {
    let Some(asked) = view.remote().and_then(|r| r.undo_asked.clone()) else {
        return;
    };
    ui.group(|ui| {
        ui.label(RichText::new(format!("{} asks to take back the last move.", asked.by)).strong());
        if !asked.waiting.is_empty() {
            ui.weak(format!("Waiting for: {}", and_list(&asked.waiting)));
        }
        if asked.yours {
            ui.horizontal(|ui| {
                if ui.button("Agree").clicked() {
                    view.undo_at_table(Some(true));
                }
                if ui.button("Refuse").clicked() {
                    view.undo_at_table(Some(false));
                }
            });
        }
    });
    ui.add_space(6.0);
}

/// A reaction window that asks people: one screen for all of them. Each seat still to
/// answer in the window's order; the seat asked now may pass, or take the screen to see its
/// choices (they may show its hand); "Nobody answers" passes for every person in one click.
/// Returns whether the screen is this (the asked seat's choices are not shown).
fn window_ui(ui: &mut Ui, view: &mut GameView, prompt: &Prompt) -> bool {
    // At a table on a server, each seat answers a window at its own screen.
    if prompt.decision != Decision::Window || view.remote().is_some() {
        return false;
    }
    let Some(asked) = prompt.asks.first().and_then(|a| a.seat.clone()) else {
        return false;
    };
    let seats = &view.session().table().seats;
    if !matches!(seats.get(&asked), Some(Controller::Human)) {
        return false;
    }
    let viewer = view.viewer();
    let sees = viewer.open_hands || viewer.seat.as_ref() == Some(&asked);
    let module = view.session().module().clone();
    let mut take = None;
    let mut pass = false;
    egui::Grid::new("window seats")
        .num_columns(2)
        .show(ui, |ui| {
            for seat in &prompt.waiting {
                let name = seat_name(&module, seat);
                ui.label(&name);
                if *seat != asked {
                    ui.weak("then");
                } else if sees {
                    ui.label("answers now (below)");
                } else {
                    ui.horizontal(|ui| {
                        pass |= ui.button("Pass").clicked();
                        if ui
                            .button(format!("{name} answers…"))
                            .on_hover_text(format!(
                                "Pass the screen to {name} to see their choices"
                            ))
                            .clicked()
                        {
                            take = Some(seat.clone());
                        }
                    });
                }
                ui.end_row();
            }
        });
    if ui
        .button(RichText::new("Nobody answers: everybody passes").strong())
        .on_hover_text("Every person still to answer in this window passes, in turn")
        .clicked()
    {
        view.pass_window();
        return true;
    }
    if pass {
        view.answer(
            Some(asked),
            Choice {
                name: chancery_core::rules::PASS.to_owned(),
                arg: Value::Nil,
            },
        );
    } else if let Some(seat) = take {
        view.pass_screen_to(seat);
    }
    !sees
}

/// "Alpha", "Alpha and Beta", "Alpha, Beta and Gamma".
fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn bot_ui(ui: &mut Ui, view: &mut GameView) {
    if view.panels().autoplay && view.bots_held() {
        ui.label("The bots wait for you after the Undo: decide, or let them play on.");
        if ui.button("Let the bots play on").clicked() {
            view.release_bots();
        }
    }
    if ui
        .button("Bot: next step")
        .on_hover_text("The bot takes one decision and says why")
        .clicked()
    {
        view.bot_step();
    }
    bots_pace_ui(ui, view);
}

/// What a bot would do in the person's place, on request, with a button to do it.
fn bot_preview_ui(ui: &mut Ui, view: &mut GameView, ask: &Ask) {
    ui.separator();
    if ui
        .button("What would a bot do?")
        .on_hover_text("Shows the bot's choice and reasons; plays nothing")
        .clicked()
    {
        view.preview_bot();
    }
    if let Some(pick) = view.preview().cloned() {
        let words = ask
            .actions
            .iter()
            .find(|a| a.admits(&pick.choice))
            .filter(|a| !a.label.is_empty())
            .map_or_else(|| pick.choice.to_string(), |a| a.label.clone());
        ui.label(RichText::new(format!("A bot would choose: {words}")).strong());
        reasons(ui, &pick.reason);
        if ui.button("Do that").clicked() {
            view.answer(ask.seat.clone(), pick.choice);
        }
    }
}

/// Who decides, in words: one seat, a reaction window, or seats choosing at once in secret.
fn heading(module: &Module, prompt: &Prompt, names: &[String]) -> String {
    match (prompt.decision, names) {
        (_, []) => "Anyone decides".to_owned(),
        (Decision::Simultaneous, _) => {
            // Everybody in the decision, those who have chosen too, in the module's order.
            let all: Vec<String> = module
                .seats
                .iter()
                .filter(|s| {
                    prompt.answered.contains(&s.id) || prompt.deciders().any(|d| *d == s.id)
                })
                .map(|s| s.name.clone())
                .collect();
            match all.as_slice() {
                [one] => format!("{one} chooses in secret"),
                _ => format!("{} choose at once, in secret", and_list(&all)),
            }
        }
        (Decision::Window, [name, ..]) => format!("{name} may answer or pass"),
        (Decision::One, [name, ..]) if prompt.private.is_some() => {
            format!("{name} decides, in private")
        }
        (Decision::One, [name, ..]) => format!("{name} decides"),
    }
}

/// Whether bots play by themselves, and how fast: shown whenever a seat is a bot's.
fn bots_pace_ui(ui: &mut Ui, view: &mut GameView) {
    ui.horizontal(|ui| {
        let label = if view.panels().autoplay {
            "Pause bots"
        } else {
            "Bots play on"
        };
        if ui
            .button(label)
            .on_hover_text("Bots play their turns by themselves unless paused")
            .clicked()
        {
            view.panels_mut().autoplay = !view.panels().autoplay;
            view.release_bots();
        }
        ui.add(
            egui::Slider::new(&mut view.panels_mut().autoplay_ms, 0..=3000)
                .text("ms a move")
                .clamping(egui::SliderClamping::Always),
        );
    });
}

fn actions_ui(ui: &mut Ui, view: &mut GameView, state: &str, ask: &Ask) {
    let mut chosen: Option<Choice> = None;
    if let Some(focus) = view.panels().focus.clone() {
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(format!("Only what concerns {}", target_text(&focus))).color(TARGET),
            );
            if ui.small_button("Show all").clicked() {
                view.panels_mut().focus = None;
            }
        });
    }
    let on_table = ask.actions.iter().filter(|a| a.target.is_some()).count();
    if on_table > 0 && view.panels().focus.is_none() {
        ui.weak(format!(
            "{on_table} of these are highlighted on the table: click them there, or here."
        ));
    }
    for (i, action) in ask.actions.iter().enumerate() {
        if view.panels().focus.is_some() && action.target != view.panels().focus {
            continue;
        }
        let label = action.words();
        match action.range {
            Some((lo, hi)) => {
                ui.horizontal(|ui| {
                    let id = ui.make_persistent_id(("number", state, i));
                    let mut n: i64 = ui.data_mut(|d| *d.get_temp_mut_or(id, lo));
                    n = n.clamp(lo, hi);
                    let number = ui.add(egui::DragValue::new(&mut n).range(lo..=hi));
                    number.widget_info(|| {
                        egui::WidgetInfo::labeled(
                            egui::Role::SpinButton,
                            true,
                            format!("Number for {label}"),
                        )
                    });
                    ui.data_mut(|d| d.insert_temp(id, n));
                    if ui
                        .button(&label)
                        .on_hover_text(format!("Choose a number from {lo} to {hi}, then click"))
                        .clicked()
                    {
                        chosen = Some(Choice {
                            name: action.name.clone(),
                            arg: Value::Int(n),
                        });
                    }
                });
            }
            None if view.panels().confirming.as_ref() == Some(&action.choice()) => {
                // The action gives something up: the person agrees first.
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    let why = action.confirm.clone().unwrap_or_default();
                    ui.label(RichText::new(format!("{label}? {why}")).color(UNKNOWN));
                    ui.horizontal(|ui| {
                        if ui.button(format!("Yes: {label}")).clicked() {
                            chosen = Some(action.choice());
                        }
                        if ui.button("No, go back").clicked() {
                            view.panels_mut().confirming = None;
                        }
                    });
                });
            }
            None => {
                let text = match action.target.is_some() {
                    true => RichText::new(&label).color(TARGET),
                    false => RichText::new(&label),
                };
                let button = ui.add(egui::Button::new(text).wrap());
                if button.clicked() && action.confirm.is_some() {
                    view.panels_mut().confirming = Some(action.choice());
                } else if button.clicked() {
                    chosen = Some(action.choice());
                }
            }
        }
    }
    if let Some(choice) = chosen {
        view.panels_mut().confirming = None;
        view.answer(ask.seat.clone(), choice);
    }
}

fn target_text(target: &Target) -> String {
    match target {
        Target::Card(c) => format!("card {c}"),
        Target::Zone(z) => format!("zone {z}"),
        Target::Space(p, s) => format!("{p}: {s}"),
        Target::Piece(p) => format!("piece {p}"),
        Target::Box(b) => format!("box {b}"),
        Target::Counter(c) => format!("counter {c}"),
    }
}

/// A step waiting for a die or a value read off the physical game.
fn need_ui(ui: &mut Ui, view: &mut GameView) {
    let Some(pending) = view.pending().cloned() else {
        return;
    };
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, UNKNOWN))
        .show(ui, |ui| {
            match &pending.need {
                Need::Die { sides } => die_ui(ui, view, *sides),
                Need::Data(target) => value_ui(ui, view, &pending, target),
            }
            if ui.small_button("Cancel this step").clicked() {
                view.cancel_pending();
            }
        });
}

/// Asks for the result of a physical die of `sides`.
fn die_ui(ui: &mut Ui, view: &mut GameView, sides: u32) {
    ui.label(
        RichText::new(format!("Roll a {sides}-sided die"))
            .strong()
            .color(UNKNOWN),
    );
    ui.label("Roll your physical die and click its result:");
    ui.horizontal_wrapped(|ui| {
        for n in 1..=i64::from(sides) {
            if ui
                .button(n.to_string())
                .on_hover_text(format!("The die shows {n}"))
                .clicked()
            {
                view.answer_die(n);
            }
        }
    });
    if ui.button("Roll it in the app instead").clicked() {
        view.answer_die(roll(sides));
    }
}

/// Asks for a value of the module's data that is not entered yet, read off the game or
/// the printed chart, and stores it in the owner's overlay.
fn value_ui(ui: &mut Ui, view: &mut GameView, pending: &Pending, target: &OverlayTarget) {
    ui.label(
        RichText::new("A value is not entered yet")
            .strong()
            .color(UNKNOWN),
    );
    let what = view.session().module().describe_target(target);
    ui.label(if view.session().module().is_chart_cell(target) {
        format!("The bot's chart needs {what}. Copy it from your printed chart and type it here.")
    } else {
        format!("The rules need {what}. Read it off the physical game and type it here.")
    });
    let ty = view.value_type(target);
    let example = crate::games::value_example(view.session().module(), target, &ty);
    ui.weak(format!("Expected: {ty}. For example: {example}"));
    if let Some(path) = view.overlay_named_by_save() {
        ui.colored_label(
            UNKNOWN,
            format!(
                "This game's save names {} as its overlay; values are stored only in an overlay you choose.",
                path.display()
            ),
        );
        if ui
            .button("Store my values in it")
            .on_hover_text("Use that file as your overlay for this game")
            .clicked()
        {
            view.adopt_saved_overlay();
        }
    }
    // A value of a few words: one button each.
    if let chancery_core::module::FieldType::OneOf(options) = &ty {
        ui.horizontal_wrapped(|ui| {
            for option in options {
                if ui.button(option).clicked() {
                    if let Some(p) = view.pending_mut() {
                        p.answer.clone_from(option);
                    }
                    view.answer_data();
                }
            }
        });
    }
    let enter = value_entry(ui, view, pending, &ty);
    if ui
        .button("Store and go on")
        .on_hover_text("Written to your overlay file: asked only once")
        .clicked()
        || enter
    {
        view.answer_data();
    }
}

/// The boxes the value is typed in: one for each key of a record or a map of known keys,
/// else one; true when Enter was pressed in one.
fn value_entry(
    ui: &mut Ui,
    view: &mut GameView,
    pending: &Pending,
    ty: &chancery_core::module::FieldType,
) -> bool {
    let module = view.session().module().clone();
    match crate::games::keyed_parts(&module, ty) {
        // A record or a map of known keys: a box for each key, by its name.
        Some(parts) => {
            let mut typed = pending.parts.clone();
            let mut enter = false;
            egui::Grid::new("value parts")
                .num_columns(2)
                .show(ui, |ui| {
                    for (key, words, inner) in &parts {
                        let label = ui.label(words);
                        let text = typed.entry(key.clone()).or_default();
                        let edit = ui
                            .add(egui::TextEdit::singleline(text).desired_width(110.0))
                            .labelled_by(label.id)
                            .on_hover_text(format!(
                                "For example: {}",
                                inner.example(&|kind| module.first_id(kind))
                            ));
                        enter |= edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                        ui.end_row();
                    }
                });
            if matches!(ty, chancery_core::module::FieldType::MapOf(..)) {
                ui.weak("Leave a box empty for a key the game does not give.");
            }
            if let Some(p) = view.pending_mut() {
                p.parts = typed;
            }
            enter
        }
        None => {
            let mut answer = pending.answer.clone();
            let edit = ui
                .horizontal(|ui| {
                    let label = ui.label("Value read off the game:");
                    ui.add(egui::TextEdit::singleline(&mut answer).desired_width(160.0))
                        .labelled_by(label.id)
                })
                .inner;
            if let Some(p) = view.pending_mut() {
                p.answer = answer;
            }
            edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))
        }
    }
}

/// A die roll for a step the rules asked a person to roll (recorded in the input, so replays
/// see the same number).
fn roll(sides: u32) -> i64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(7);
    i64::from(nanos % sides.max(1)) + 1
}
