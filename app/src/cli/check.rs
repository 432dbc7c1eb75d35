//! `chancery check MODULE`: validate a module and report what is still unknown.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use chancery_core::module::DataValue;
use clap::Args;

use crate::games::{OverlayArgs, load_module};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The module folder.
    pub module: PathBuf,
    /// Treat warnings as errors.
    #[arg(long)]
    pub strict: bool,
    /// Print only the outline of the module's procedures (those declared with
    /// `steps.procedure`): each turn, phase and step with its rule number as the module
    /// names it and the file:line of its work, and the states each step calls under it.
    #[arg(long)]
    pub outline: bool,
    /// Overlay flags.
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

pub fn run(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    let module = match load_module(&args.module, &args.overlay.load_options(args.strict), err) {
        Ok(module) => module,
        Err(e) => {
            writeln!(err, "{e:#}")?;
            return Ok(1);
        }
    };
    if module
        .overlay
        .as_ref()
        .is_some_and(|o| !o.errors.is_empty())
    {
        // Printed by load_module; the module is fine, the owner's overlay is not.
        return Ok(1);
    }
    if args.outline {
        write!(out, "{}", chancery_core::devtools::outline_text(&module))?;
        return Ok(0);
    }
    summary(&module, out)?;
    effects(&module, out)?;
    not_entered(&module, out)?;
    let cited = sources(&module, out, err)?;
    if !overlay_sets_up(&module, err)? {
        return Ok(1);
    }
    if !cited && args.strict {
        return Ok(1);
    }
    Ok(0)
}

/// Where the tables' values come from, counted on the module without any overlay: the
/// values it gives, each table citing the lines of the module's source they are read from,
/// and those it leaves to the owner. A table that gives values without citing a line is a
/// warning (an error with `--strict`): a figure the source does not print is owner data
/// (`unknown`) or a demo placeholder, never the module's own. Returns whether every table
/// that gives values cites its lines.
fn sources(
    m: &chancery_core::Module,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<bool> {
    let Some(source) = m.manifest.source.as_deref() else {
        writeln!(
            out,
            "  sources: no source text named (module.ron's `source`): the figures are the module's own"
        )?;
        return Ok(true);
    };
    // The module's own values: loaded again without the overlay only when one gave values.
    let reloaded;
    let bare = if m.overlay.as_ref().is_some_and(|o| o.values > 0) {
        let Ok(module) = chancery_core::load_module(
            &m.dir,
            &chancery_core::LoadOptions {
                overlay: chancery_core::OverlayChoice::Off,
                strict: false,
            },
        ) else {
            // It loaded with its overlay, so it loads without; nothing to count if not.
            return Ok(true);
        };
        reloaded = module;
        &reloaded
    } else {
        m
    };
    let tables = bare.table_sources();
    let given: usize = tables.iter().filter(|t| t.cited).map(|t| t.given).sum();
    let owner: usize = tables.iter().map(|t| t.owner).sum();
    writeln!(
        out,
        "  sources, from {source}: {given} values given, each in a table that cites the lines they come from; {owner} left to the owner (unknown)"
    )?;
    for t in &tables {
        writeln!(
            out,
            "    {} (table {}): {} cited, {} owner",
            t.name,
            t.id,
            if t.cited { t.given } else { 0 },
            t.owner
        )?;
    }
    let items = bare.figure_sources();
    for what in ["card", "space", "piece", "scenario"] {
        let of: Vec<_> = items.iter().filter(|i| i.what == what).collect();
        if of.is_empty() {
            continue;
        }
        let cited: usize = of.iter().filter(|i| i.cited).map(|i| i.figures).sum();
        writeln!(
            out,
            "    {what} figures: {cited} of {} cited, on {} of {} {what}s that give figures",
            of.iter().map(|i| i.figures).sum::<usize>(),
            of.iter().filter(|i| i.cited).count(),
            of.len()
        )?;
    }
    let mut all_cited = true;
    for item in items.iter().filter(|i| !i.cited) {
        all_cited = false;
        writeln!(
            err,
            "warning: {}: {} '{}' ({}) gives {} figure{} but its `source` cites no line of {source} \
             (as source: \"L1234\"): cite the lines that print them, or write them `unknown` so \
             the owner enters them",
            declared_at(m, &item.path),
            item.what,
            item.path.join("/"),
            item.name,
            item.figures,
            if item.figures == 1 { "" } else { "s" },
        )?;
    }
    for t in tables.iter().filter(|t| t.given > 0 && !t.cited) {
        all_cited = false;
        writeln!(
            err,
            "warning: {}: table '{}' gives {} value{} but its doc cites no line of {source} \
             (as L1234 or L1234-L1240): cite the lines they come from, or write them `unknown` \
             so the owner enters them (a placeholder belongs in the demo overlay)",
            declared_at(m, std::slice::from_ref(&t.id)),
            t.id,
            t.given,
            if t.given == 1 { "" } else { "s" },
        )?;
    }
    Ok(all_cited)
}

/// Where the item at `path` (a table's or a card's id; a place's, then one of its spaces')
/// is declared: its data file, line and column (the module folder if no data file names it).
fn declared_at(m: &chancery_core::Module, path: &[String]) -> String {
    use chancery_core::module::{Anchor, Locator};
    let anchors: Vec<Anchor<'_>> = path.iter().map(|id| Anchor::Field("id", id)).collect();
    for rel in m.manifest.data.iter().chain(&m.manifest.scenarios) {
        let file = m.dir.join(rel);
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let locator = Locator::new(&text);
        if !locator.locate_all(&anchors[0]).is_empty() {
            let (line, col) = locator.locate(&anchors);
            return format!("{}:{line}:{col}", file.display());
        }
    }
    m.dir.display().to_string()
}

/// Whether every scenario sets up with the overlay's values, as the game would take them
/// (a value `act --value` would refuse, such as a counter mix smaller than the units a
/// scenario places, is refused here too); the failures go to `err`. A value still not
/// entered is no failure: the game asks for it.
fn overlay_sets_up(m: &Arc<chancery_core::Module>, err: &mut dyn Write) -> std::io::Result<bool> {
    let Some(overlay) = m.overlay.as_ref().filter(|o| o.present && o.values > 0) else {
        return Ok(true);
    };
    let mut good = true;
    for scenario in m.scenarios.iter() {
        let spec = chancery_core::GameSpec::new(scenario.id.clone(), 1);
        if let Err(e) = chancery_core::start_game(m.clone(), spec)
            && e.need().is_none()
        {
            good = false;
            // The rule's own words and line; the script's traceback adds nothing here.
            let e = e.to_string();
            let e = e.lines().next().unwrap_or_default();
            writeln!(
                err,
                "error: {}: scenario '{}' ({}) does not set up with this overlay's values: {e}. \
                 Mend the value in the overlay: a game would refuse it the same way.",
                overlay.path.display(),
                scenario.id,
                scenario.name
            )?;
        }
    }
    Ok(good)
}

/// The module's name and version, how many of each component it has, its states and bots.
fn summary(m: &chancery_core::Module, out: &mut dyn Write) -> std::io::Result<()> {
    let spaces: usize = m.places.iter().map(|p| p.def.spaces.len()).sum();
    writeln!(
        out,
        "{} {} ({}): ok",
        m.id(),
        m.manifest.version,
        m.manifest.name
    )?;
    writeln!(
        out,
        "  {} cards, {} zones, {} places ({spaces} spaces), {} pieces, {} unit kinds, {} boxes, {} counters, {} seats, {} scenarios",
        m.cards.len(),
        m.zones.len(),
        m.places.len(),
        m.pieces.len(),
        m.unit_kinds.len(),
        m.boxes.len(),
        m.counters.len(),
        m.seats.len(),
        m.scenarios.len(),
    )?;
    writeln!(
        out,
        "  rules: {} states, bots: {}",
        m.rules.states.len(),
        if m.rules.bots.is_empty() {
            "none".to_owned()
        } else {
            m.rules.bots.join(", ")
        }
    )?;
    Ok(())
}

/// The card effects with code, and the cards that promise an effect but are played by hand;
/// the overlay.
fn effects(m: &chancery_core::Module, out: &mut dyn Write) -> std::io::Result<()> {
    let promised = m
        .cards
        .iter()
        .filter(|c| chancery_core::Module::promises_effect(c))
        .count();
    let by_hand = m.cards_without_effects();
    let hooks: usize = m.rules.effects.values().map(Vec::len).sum();
    writeln!(
        out,
        "  effects: {hooks} hook(s) on {} id(s); {} of {promised} card(s) that promise an effect have code{}",
        m.rules.effects.len(),
        promised.saturating_sub(by_hand.len()),
        if by_hand.is_empty() {
            String::new()
        } else {
            format!(", {} are played by hand:", by_hand.len())
        }
    )?;
    for card in &by_hand {
        writeln!(out, "    {} ({})", card.id, card.name)?;
    }
    match &m.overlay {
        Some(o) if o.demo => writeln!(
            out,
            "  overlay: the demo's placeholder values, {} ({} values)",
            o.path.display(),
            o.values
        )?,
        Some(o) if o.present => {
            writeln!(out, "  overlay: {} ({} values)", o.path.display(), o.values)?
        }
        Some(o) => writeln!(out, "  overlay: {} (not created yet)", o.path.display())?,
        None => writeln!(out, "  overlay: none")?,
    }
    Ok(())
}

/// The values not entered yet: card fields, space and piece props, table entries.
fn not_entered(m: &chancery_core::Module, out: &mut dyn Write) -> std::io::Result<()> {
    let unknown = m.unknown_report();
    let total_fields: usize = m
        .cards
        .iter()
        .map(|c| {
            m.card_fields
                .iter()
                .filter(|f| f.applies_to(&c.deck))
                .count()
        })
        .sum();
    let unknown_fields: usize = unknown.iter().map(|(_, f)| f.len()).sum();
    writeln!(
        out,
        "  card fields not entered: {unknown_fields} of {total_fields}, on {} of {} cards",
        unknown.len(),
        m.cards.len()
    )?;
    for (card, fields) in &unknown {
        writeln!(out, "    {card}: {}", fields.join(", "))?;
    }
    let mut props = Vec::new();
    for place in m.places.iter() {
        for space in &place.def.spaces {
            for (key, value) in &space.props {
                if *value == DataValue::Unknown {
                    props.push(format!("{}/{}: {key}", place.def.id, space.id));
                }
            }
        }
    }
    for piece in m.pieces.iter() {
        for (key, value) in &piece.props {
            if *value == DataValue::Unknown {
                props.push(format!("{}: {key}", piece.id));
            }
        }
    }
    let mut charts = Vec::new();
    for (table, keys) in m.unknown_table_entries() {
        match m
            .tables
            .get(&table)
            .and_then(|t| t.chart.as_ref().map(|c| (t, c)))
        {
            Some((def, chart)) => charts.push((chart.bot.clone(), def.name.clone(), table, keys)),
            None => props.push(format!("table {table}: {}", keys.join(", "))),
        }
    }
    if !props.is_empty() {
        writeln!(out, "  other values not entered: {}", props.len())?;
        for prop in props {
            writeln!(out, "    {prop}")?;
        }
    }
    if !charts.is_empty() {
        let cells: usize = charts.iter().map(|(_, _, _, keys)| keys.len()).sum();
        writeln!(
            out,
            "  bot chart cells not entered (copy them from the printed charts): {cells}, in {} table{}",
            charts.len(),
            if charts.len() == 1 { "" } else { "s" }
        )?;
        let mut bot_now = None;
        for (bot, name, table, keys) in charts {
            if bot_now.as_ref() != Some(&bot) {
                writeln!(out, "    the charts of bot {bot}:")?;
                bot_now = Some(bot);
            }
            writeln!(
                out,
                "      {name} (table {table}), rows: {}",
                keys.join(", ")
            )?;
        }
    }
    Ok(())
}
