//! Inputs: everything a game is made of besides its module, scenario and seed — every
//! answer to a prompt (a human's or a bot's) and every move made by hand.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ids::{BoxId, CardId, CounterId, PieceId, PlaceId, SeatId, SpaceId, UnitKindId, ZoneId};
use crate::module::Module;
use crate::rules::{Choice, LogLine, StepIo};
use crate::table::{Controller, DiceMode, Position, Table};

/// Who made a choice.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Actor {
    /// A person (at the app, the command line, or through an answers file).
    Human,
    /// A bot, with the steps of its flowchart that led to the choice.
    Bot {
        /// The bot's name.
        name: String,
        /// Its reasons, one step each.
        reason: Vec<String>,
    },
    /// The umpire, answering for the seat that decides.
    Umpire,
}

/// A change made by hand, as on a physical table: allowed at any moment, recorded like
/// any other input.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Manual {
    /// Moves a card into a zone.
    MoveCard {
        /// The card.
        card: CardId,
        /// The zone it goes to.
        to: ZoneId,
        /// Where in the zone.
        position: Position,
    },
    /// Turns a card face up or down.
    FlipCard {
        /// The card.
        card: CardId,
        /// Face up after the change.
        face_up: bool,
    },
    /// Deals `count` cards from the top of `from` to each zone of `to`, one card at a time
    /// around them, as a dealer does; fails, dealing nothing, if `from` holds too few.
    Deal {
        /// The deck.
        from: ZoneId,
        /// The zones dealt to, in dealing order.
        to: Vec<ZoneId>,
        /// Cards to each zone.
        count: u32,
    },
    /// Shuffles a zone.
    Shuffle {
        /// The zone.
        zone: ZoneId,
    },
    /// Puts a piece on a space.
    PlacePiece {
        /// The piece.
        piece: PieceId,
        /// The place.
        place: PlaceId,
        /// The space.
        space: SpaceId,
    },
    /// Takes a piece off the table.
    RemovePiece {
        /// The piece.
        piece: PieceId,
    },
    /// Adds (or with a negative delta removes) units of a kind in a box.
    AddUnits {
        /// The box.
        boxed: BoxId,
        /// The kind.
        kind: UnitKindId,
        /// How many to add.
        delta: i64,
    },
    /// Moves units between boxes.
    MoveUnits {
        /// From this box.
        from: BoxId,
        /// To this box.
        to: BoxId,
        /// The kind.
        kind: UnitKindId,
        /// How many.
        count: i64,
    },
    /// Sets a counter.
    SetCounter {
        /// The counter.
        counter: CounterId,
        /// The new value (kept within bounds).
        value: i64,
    },
    /// Rolls dice for the table and logs the results.
    Roll {
        /// Sides of each die.
        sides: u32,
        /// How many dice.
        count: u32,
    },
    /// Hands a seat to a human or a bot.
    SetController {
        /// The seat.
        seat: SeatId,
        /// Who controls it from now on.
        controller: Controller,
    },
    /// Switches between the engine's dice and physical dice.
    SetDice {
        /// The new mode.
        mode: DiceMode,
    },
    /// Writes a note in the log.
    Note {
        /// The note.
        text: String,
    },
}

/// One input of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Input {
    /// An answer to the current prompt.
    Act {
        /// The seat answering (checked against the prompt's seat when given).
        seat: Option<SeatId>,
        /// The action chosen.
        choice: Choice,
        /// Die results supplied for the step (physical dice), used in order.
        dice: Vec<i64>,
        /// Who chose.
        by: Actor,
    },
    /// A change by hand.
    Manual {
        /// The seat making it, if known.
        seat: Option<SeatId>,
        /// The change.
        change: Manual,
    },
}

impl Input {
    /// A human's answer to the prompt.
    pub fn act(choice: Choice) -> Input {
        Input::Act {
            seat: None,
            choice,
            dice: Vec::new(),
            by: Actor::Human,
        }
    }

    /// A change by hand.
    pub fn manual(change: Manual) -> Input {
        Input::Manual { seat: None, change }
    }

    /// The seat that made the input, if known.
    pub fn seat(&self) -> Option<&SeatId> {
        match self {
            Input::Act { seat, .. } | Input::Manual { seat, .. } => seat.as_ref(),
        }
    }

    /// A bot's reasons for the input (none for a person's).
    pub fn reasons(&self) -> &[String] {
        match self {
            Input::Act {
                by: Actor::Bot { reason, .. },
                ..
            } => reason,
            _ => &[],
        }
    }

    /// Who made the input, in words: "human", "bot:simple".
    pub fn by(&self) -> String {
        match self {
            Input::Act {
                by: Actor::Bot { name, .. },
                ..
            } => format!("bot:{name}"),
            Input::Act {
                by: Actor::Umpire, ..
            } => "umpire".to_owned(),
            _ => "human".to_owned(),
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seat = |s: &Option<SeatId>| s.as_ref().map(|s| format!("{s}: ")).unwrap_or_default();
        match self {
            Input::Act {
                seat: s,
                choice,
                dice,
                ..
            } => {
                write!(f, "{}{choice}", seat(s))?;
                if !dice.is_empty() {
                    let dice: Vec<String> = dice.iter().map(i64::to_string).collect();
                    write!(f, " (dice {})", dice.join(", "))?;
                }
                Ok(())
            }
            Input::Manual { seat: s, change } => write!(f, "{}by hand: {change}", seat(s)),
        }
    }
}

impl Manual {
    /// The change in words, with the module's names ("put Army of Bohemia on Polesia
    /// (Front A)").
    pub fn describe(&self, module: &Module) -> String {
        self.words(&|kind, id| module.name_of(kind, id), &|place, space| {
            format!(
                "{} ({})",
                module.space_name(place, space),
                module.name_of("place", place)
            )
        })
    }

    /// The change in words, naming each component with `name(kind, id)` and a space with
    /// `space(place, space)`.
    fn words(
        &self,
        name: &dyn Fn(&str, &str) -> String,
        space: &dyn Fn(&str, &str) -> String,
    ) -> String {
        match self {
            Manual::MoveCard { card, to, position } => {
                let at = match position {
                    Position::Top => "on top".to_owned(),
                    Position::Bottom => "at the bottom".to_owned(),
                    Position::Index(i) => format!("at position {}", i + 1),
                };
                format!(
                    "move {} to {} ({at})",
                    name("card", card.as_str()),
                    name("zone", to.as_str())
                )
            }
            Manual::FlipCard { card, face_up } => format!(
                "turn {} face {}",
                name("card", card.as_str()),
                if *face_up { "up" } else { "down" }
            ),
            Manual::Deal { from, to, count } => {
                let zones: Vec<String> = to.iter().map(|z| name("zone", z.as_str())).collect();
                let each = if to.len() > 1 { " each" } else { "" };
                format!(
                    "deal {} from {} to {}{each}",
                    cards(*count),
                    name("zone", from.as_str()),
                    zones.join(", ")
                )
            }
            Manual::Shuffle { zone } => format!("shuffle {}", name("zone", zone.as_str())),
            Manual::PlacePiece {
                piece,
                place,
                space: at,
            } => format!(
                "put {} on {}",
                name("piece", piece.as_str()),
                space(place.as_str(), at.as_str())
            ),
            Manual::RemovePiece { piece } => {
                format!("take {} off the table", name("piece", piece.as_str()))
            }
            Manual::AddUnits { boxed, kind, delta } => {
                let (kind, boxed) = (
                    name("unit kind", kind.as_str()),
                    name("box", boxed.as_str()),
                );
                if *delta >= 0 {
                    format!("add {delta} {kind} to {boxed}")
                } else {
                    format!("remove {} {kind} from {boxed}", -delta)
                }
            }
            Manual::MoveUnits {
                from,
                to,
                kind,
                count,
            } => format!(
                "move {count} {} from {} to {}",
                name("unit kind", kind.as_str()),
                name("box", from.as_str()),
                name("box", to.as_str())
            ),
            Manual::SetCounter { counter, value } => {
                format!("set {} to {value}", name("counter", counter.as_str()))
            }
            Manual::Roll { sides, count } => format!("roll {count}d{sides}"),
            Manual::SetController { seat, controller } => {
                format!("{seat} is now played by {controller}")
            }
            Manual::SetDice { mode } => format!(
                "dice are now {}",
                if *mode == DiceMode::Physical {
                    "physical"
                } else {
                    "digital"
                }
            ),
            Manual::Note { text } => format!("note: {text}"),
        }
    }
}

impl fmt::Display for Manual {
    /// The change with ids ("put block.A on land/south").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(&|_, id| id.to_owned(), &|place, space| {
            format!("{place}/{space}")
        }))
    }
}

/// Applies a change by hand to `table`, after checking it against the module's data.
/// Writes what happened to `io.log`. Fails without changing anything.
pub(crate) fn apply_manual(
    module: &Module,
    table: &mut Table,
    change: &Manual,
    io: &mut StepIo,
) -> Result<(), String> {
    let err = |e: crate::table::TableError| e.to_string();
    match change {
        Manual::MoveCard { card, to, position } => {
            card_exists(module, card)?;
            table.move_card(card, to, *position).map_err(err)?;
        }
        Manual::FlipCard { card, face_up } => {
            card_exists(module, card)?;
            table.flip(card, Some(*face_up)).map_err(err)?;
        }
        Manual::Deal { from, to, count } => deal(module, table, from, to, *count, io)?,
        Manual::Shuffle { zone } => table.shuffle(zone).map_err(err)?,
        Manual::PlacePiece {
            piece,
            place,
            space,
        } => place_piece(module, table, piece, place, space)?,
        Manual::RemovePiece { piece } => {
            piece_exists(module, piece)?;
            table
                .remove_piece(piece)
                .ok_or_else(|| format!("piece '{piece}' is not on the table"))?;
        }
        Manual::AddUnits { boxed, kind, delta } => {
            units_allowed(module, boxed, kind)?;
            table.add_units(boxed, kind, *delta).map_err(err)?;
        }
        Manual::MoveUnits {
            from,
            to,
            kind,
            count,
        } => {
            units_allowed(module, from, kind)?;
            units_allowed(module, to, kind)?;
            table.move_units(from, to, kind, *count).map_err(err)?;
        }
        Manual::SetCounter { counter, value } => {
            let set = table.set_counter(counter, *value).map_err(err)?;
            if set != *value {
                io.log.push(LogLine::public(format!(
                    "{counter} stops at its bound: {set}"
                )));
            }
        }
        Manual::Roll { sides, count } => roll(table, *sides, *count, io)?,
        Manual::SetController { seat, controller } => {
            set_controller(module, table, seat, controller)?;
        }
        Manual::SetDice { mode } => table.dice = *mode,
        Manual::Note { text } => note_fits(text)?,
    }
    Ok(())
}

fn card_exists(module: &Module, card: &CardId) -> Result<(), String> {
    if module.cards.contains(card.as_str()) {
        Ok(())
    } else {
        Err(format!("unknown card '{card}'"))
    }
}

fn piece_exists(module: &Module, piece: &PieceId) -> Result<(), String> {
    if module.pieces.contains(piece.as_str()) {
        Ok(())
    } else {
        Err(format!("unknown piece '{piece}'"))
    }
}

/// Whether units of `kind` may stand in `boxed`.
fn units_allowed(module: &Module, boxed: &BoxId, kind: &UnitKindId) -> Result<(), String> {
    if !module.boxes.contains(boxed.as_str()) {
        Err(format!("unknown box '{boxed}'"))
    } else if !module.box_accepts(boxed.as_str(), kind.as_str()) {
        Err(format!(
            "box '{boxed}' does not hold units of kind '{kind}'"
        ))
    } else {
        Ok(())
    }
}

fn place_piece(
    module: &Module,
    table: &mut Table,
    piece: &PieceId,
    place: &PlaceId,
    space: &SpaceId,
) -> Result<(), String> {
    piece_exists(module, piece)?;
    let def = module
        .places
        .get(place.as_str())
        .ok_or_else(|| format!("unknown place '{place}'"))?;
    if def.space(space.as_str()).is_none() {
        return Err(format!("place '{place}' has no space '{space}'"));
    }
    table
        .place_piece(piece, place, space)
        .map_err(|e| e.to_string())
}

/// A roll by hand of `count` dice of `sides`, logged.
fn roll(table: &mut Table, sides: u32, count: u32, io: &mut StepIo) -> Result<(), String> {
    if sides < 2 || count == 0 || count > 100 {
        return Err(format!(
            "cannot roll {count}d{sides} (1 to 100 dice of 2 or more sides)"
        ));
    }
    let rolls: Vec<String> = (0..count)
        .map(|_| table.rng.roll(sides).to_string())
        .collect();
    io.log.push(LogLine::public(format!(
        "Rolled {count}d{sides}: {}",
        rolls.join(", ")
    )));
    Ok(())
}

fn set_controller(
    module: &Module,
    table: &mut Table,
    seat: &SeatId,
    controller: &Controller,
) -> Result<(), String> {
    if !table.seats.contains_key(seat) {
        return Err(format!("seat '{seat}' does not play this game"));
    }
    if let Controller::Bot(bot) = controller
        && !module.rules.bots.contains(bot)
    {
        return Err(format!(
            "there is no bot '{bot}' (bots: {})",
            module.rules.bots.join(", ")
        ));
    }
    table.seats.insert(seat.clone(), controller.clone());
    Ok(())
}

fn note_fits(text: &str) -> Result<(), String> {
    if text.len() > crate::rules::MAX_TEXT_BYTES {
        return Err(format!(
            "a note of {} bytes is too long (at most {}): write a shorter one",
            text.len(),
            crate::rules::MAX_TEXT_BYTES
        ));
    }
    Ok(())
}

/// "1 card", "5 cards".
fn cards(n: u32) -> String {
    match n {
        1 => "1 card".to_owned(),
        n => format!("{n} cards"),
    }
}

/// Deals `count` cards from `from` to each zone of `to` in turn, one card a time; checks
/// first, so that a deal that cannot be made changes nothing.
fn deal(
    module: &Module,
    table: &mut Table,
    from: &ZoneId,
    to: &[ZoneId],
    count: u32,
    io: &mut StepIo,
) -> Result<(), String> {
    if to.is_empty() {
        return Err("a deal needs at least one zone to deal to".to_owned());
    }
    if count == 0 || count > 1000 {
        return Err(format!(
            "cannot deal {count} cards (1 to 1000 to each zone)"
        ));
    }
    let have = table.zone(from).map_err(|e| e.to_string())?.cards.len();
    for zone in to {
        table.zone(zone).map_err(|e| e.to_string())?;
        if zone == from {
            return Err(format!("cannot deal from '{from}' to itself"));
        }
    }
    let need = count as usize * to.len();
    if have < need {
        return Err(format!(
            "'{from}' holds {} but the deal needs {}: shuffle the discards in, or deal fewer",
            cards(have as u32),
            cards(need as u32)
        ));
    }
    for _ in 0..count {
        for zone in to {
            table.deal(from, zone, 1).map_err(|e| e.to_string())?;
        }
    }
    let zones: Vec<String> = to
        .iter()
        .map(|z| module.name_of("zone", z.as_str()))
        .collect();
    io.log.push(LogLine::public(format!(
        "Dealt {} from {} to {}",
        cards(need as u32),
        module.name_of("zone", from.as_str()),
        zones.join(", ")
    )));
    Ok(())
}

/// The seats that may read a change by hand made between `before` and `after`, when some
/// seat may not: those that see what it touched both before and after it (a piece on a
/// fogged place, units in a fogged box, a card in a zone they may not look into). `None`
/// when every seat sees all of it.
pub(crate) fn manual_readers(
    before: &Table,
    after: &Table,
    change: &Manual,
) -> Option<Vec<SeatId>> {
    let sees = |t: &Table, seat: &SeatId| -> bool {
        match change {
            Manual::PlacePiece { piece, .. } | Manual::RemovePiece { piece } => t
                .piece_location(piece)
                .is_none_or(|(place, space)| t.sees_piece(Some(seat), place, space, piece)),
            Manual::AddUnits { boxed, kind, .. } => t.sees_units(Some(seat), boxed, kind),
            Manual::MoveUnits { from, to, kind, .. } => {
                t.sees_units(Some(seat), from, kind) && t.sees_units(Some(seat), to, kind)
            }
            Manual::MoveCard { card, .. } | Manual::FlipCard { card, .. } => t
                .card_location(card)
                .is_none_or(|(zone, _)| t.zones[zone].shows(card, Some(seat))),
            _ => true,
        }
    };
    let seats: Vec<&SeatId> = after
        .seats
        .keys()
        .filter(|s| after.eyes(Some(s)).is_some())
        .collect();
    let readers: Vec<SeatId> = seats
        .iter()
        .filter(|s| sees(before, s) && sees(after, s))
        .map(|s| (*s).clone())
        .collect();
    (readers.len() < seats.len()).then_some(readers)
}
