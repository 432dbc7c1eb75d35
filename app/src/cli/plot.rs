//! Charts of a simulation as SVG files, for a playtester's report: the score distribution
//! of each seat, how often each card is played, and for a comparison each metric's
//! difference with its 95 % interval. Plain SVG written here (no fonts or renderer
//! needed), the same bytes for the same results.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use chancery_core::Module;
use chancery_core::sim::SimReport;
use chancery_core::sim::compare::{Comparison, Metric};

use crate::games::{card_names, metric_name};

const WIDTH: f64 = 760.0;
const ROW: f64 = 18.0;
const COLOURS: [&str; 6] = [
    "#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860",
];

/// Text safe inside SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn document_of(width: f64, height: f64, title: &str, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>{t}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{x}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{t}</text>\n{body}</svg>\n",
        t = escape(title),
        x = width / 2.0
    )
}

/// Horizontal bars, one row per label, for one or more series (a legend when several).
fn bars(
    title: &str,
    labels: &[String],
    series: &[(&str, Vec<f64>)],
    show: fn(f64) -> String,
) -> String {
    let left = labels
        .iter()
        .map(|l| text_width(l))
        .fold(120.0f64, f64::max)
        + 16.0;
    let width = (left + 500.0).max(WIDTH);
    let right = width - 50.0;
    let top = 40.0 + if series.len() > 1 { ROW } else { 0.0 };
    let per = ROW * series.len() as f64 + 6.0;
    let max = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let scale = (right - left) / max;
    let mut body = String::new();
    for (k, (name, _)) in series.iter().enumerate().filter(|_| series.len() > 1) {
        let x = left + k as f64 * 150.0;
        let _ = writeln!(
            body,
            "<rect x=\"{x}\" y=\"34\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"45\">{}</text>",
            COLOURS[k % COLOURS.len()],
            x + 16.0,
            escape(name)
        );
    }
    for (i, label) in labels.iter().enumerate() {
        let y = top + i as f64 * per;
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            y + per / 2.0 + 4.0,
            escape(label)
        );
        for (k, (_, values)) in series.iter().enumerate() {
            let v = values.get(i).copied().unwrap_or(0.0);
            let yy = y + k as f64 * ROW + 3.0;
            let _ = writeln!(
                body,
                "<rect x=\"{left}\" y=\"{yy}\" width=\"{:.1}\" height=\"{}\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{}\" font-size=\"10\">{}</text>",
                v * scale,
                ROW - 4.0,
                COLOURS[k % COLOURS.len()],
                left + v * scale + 4.0,
                yy + ROW - 7.0,
                escape(&show(v))
            );
        }
    }
    let height = top + labels.len() as f64 * per + 20.0;
    document_of(width, height, title, &body)
}

/// A share of games in percent: "12.5 %".
fn percent(v: f64) -> String {
    format!("{:.1} %", v * 100.0)
}

/// A count a game: "1.25".
fn per_game(v: f64) -> String {
    format!("{v:.2}")
}

/// The width a label of `text` takes at the charts' 12-pixel font, generously: no glyph
/// of a row's name is ever cut.
fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * 7.5
}

/// Each metric's difference (new − old) as a dot with its 95 % interval, one row a metric
/// and each row on its own scale: its axis runs from minus to plus the row's widest reach,
/// both ends written in the metric's unit (points of percent for a rate), so a rate's
/// interval is never squeezed to a dot beside a length's. Significant ones in red, clear of
/// zero alone in orange.
fn differences(title: &str, metrics: &[(String, &Metric)]) -> String {
    let left = metrics
        .iter()
        .map(|(name, _)| text_width(name))
        .fold(120.0f64, f64::max)
        + 16.0;
    let strip = 360.0;
    let ends = 70.0;
    let width = (left + strip + 2.0 * ends + 20.0).max(WIDTH);
    let top = 44.0;
    let row = ROW + 14.0;
    let height = top + metrics.len() as f64 * row + 16.0;
    let mut body = String::new();
    for (i, (name, m)) in metrics.iter().enumerate() {
        let reach = m.reach();
        let (x0, x1) = (left + ends, left + ends + strip);
        let mid = (x0 + x1) / 2.0;
        let x = |v: f64| mid + v.clamp(-reach, reach) / reach * (strip / 2.0);
        let y = top + i as f64 * row + row / 2.0;
        let colour = if m.significant {
            "#c44e52"
        } else if m.clear_of_zero() {
            "#e68c28"
        } else {
            "#4c72b0"
        };
        let unit = match m.show_change(0.0).split_once(' ') {
            Some((_, unit)) => format!(" {unit}"),
            None => String::new(),
        };
        let _ = writeln!(
            body,
            "<g class=\"row\"><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <line class=\"axis\" x1=\"{x0}\" y1=\"{y}\" x2=\"{x1}\" y2=\"{y}\" stroke=\"#ccc\"/>\
             <line x1=\"{mid}\" y1=\"{}\" x2=\"{mid}\" y2=\"{}\" stroke=\"#888\"/>\
             <text class=\"low\" x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\">{}</text>\
             <text class=\"high\" x=\"{}\" y=\"{}\" font-size=\"10\">{}{}</text>",
            left - 6.0,
            y + 4.0,
            escape(name),
            y - 7.0,
            y + 7.0,
            x0 - 4.0,
            y + 4.0,
            m.show_number(-reach),
            x1 + 4.0,
            y + 4.0,
            m.show_number(reach),
            escape(&unit),
        );
        if m.low.is_finite() && m.high.is_finite() {
            let _ = write!(
                body,
                "<line x1=\"{:.1}\" y1=\"{y}\" x2=\"{:.1}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                x(m.low),
                x(m.high),
            );
        }
        let _ = writeln!(
            body,
            "<circle cx=\"{:.1}\" cy=\"{y}\" r=\"4\" fill=\"{colour}\"><title>{}</title></circle></g>",
            x(m.difference),
            escape(&format!("{name}: {}", m.change_words())),
        );
    }
    document_of(width, height, title, &body)
}

/// The score distribution of each seat: for each score, the share of games.
fn score_shares(report: &SimReport) -> BTreeMap<String, BTreeMap<i64, f64>> {
    let n = report.outcomes.len().max(1) as f64;
    report
        .score_counts()
        .into_iter()
        .map(|(seat, counts)| {
            let shares = counts.into_iter().map(|(s, k)| (s, k as f64 / n)).collect();
            (seat, shares)
        })
        .collect()
}

/// A seat's name as the module gives it.
fn seat_name(module: &Module, seat: &str) -> String {
    module.seat_name(&chancery_core::SeatId::from(seat))
}

/// Makes the chart folder if it is not there.
fn folder(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot make the folder {}: {e}", dir.display()))
}

fn write(dir: &Path, name: &str, svg: &str, written: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let path = dir.join(name);
    // Whole or not at all: a full disk leaves no empty chart behind.
    chancery_core::files::write_atomic(&path, svg.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write the chart {}: {e}", path.display()))?;
    written.push(path);
    Ok(())
}

/// A file name made of the id's letters and digits.
fn file_safe(id: &str) -> String {
    id.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Charts of one run: each seat's scores and the cards played. Returns the files written.
pub fn run_charts(dir: &Path, report: &SimReport, module: &Module) -> anyhow::Result<Vec<PathBuf>> {
    folder(dir)?;
    let cards = card_names(module);
    let mut written = Vec::new();
    for (seat, shares) in score_shares(report) {
        let labels: Vec<String> = shares.keys().map(i64::to_string).collect();
        let values: Vec<f64> = shares.values().copied().collect();
        let svg = bars(
            &format!("Scores of {} (share of games)", seat_name(module, &seat)),
            &labels,
            &[("games", values)],
            percent,
        );
        write(
            dir,
            &format!("scores-{}.svg", file_safe(&seat)),
            &svg,
            &mut written,
        )?;
    }
    let plays = report.card_use();
    let n = report.outcomes.len().max(1) as f64;
    if !plays.is_empty() {
        let labels: Vec<String> = plays.keys().map(|c| cards(c)).collect();
        let svg = bars(
            "Cards played (per game)",
            &labels,
            &[("plays", plays.values().map(|k| *k as f64 / n).collect())],
            per_game,
        );
        write(dir, "cards.svg", &svg, &mut written)?;
    }
    Ok(written)
}

/// Charts of a comparison: the differences of the game's metrics, of the cards' metrics
/// (significant ones, or all when none is), and each seat's scores under both versions.
pub fn comparison_charts(
    dir: &Path,
    comparison: &Comparison,
    module: &Module,
) -> anyhow::Result<Vec<PathBuf>> {
    folder(dir)?;
    let mut written = Vec::new();
    let game: Vec<(String, &Metric)> = comparison
        .metrics
        .iter()
        .filter(|m| !m.group.starts_with("card"))
        .map(|m| (metric_name(module, m), m))
        .collect();
    write(
        dir,
        "differences.svg",
        &differences(
            "New minus old, with 95 % intervals (red: significant)",
            &game,
        ),
        &mut written,
    )?;
    let named: Vec<(String, &Metric)> = comparison
        .metrics
        .iter()
        .filter(|m| m.group.starts_with("card"))
        .map(|m| (metric_name(module, m), m))
        .collect();
    let significant: Vec<(String, &Metric)> = named
        .iter()
        .filter(|(_, m)| m.significant)
        .cloned()
        .collect();
    let shown = if significant.is_empty() {
        named
    } else {
        significant
    };
    write(
        dir,
        "card-differences.svg",
        &differences("Cards: new minus old, with 95 % intervals", &shown),
        &mut written,
    )?;
    let (old, new) = (score_shares(&comparison.old), score_shares(&comparison.new));
    for (seat, shares) in &old {
        let empty = BTreeMap::new();
        let other = new.get(seat).unwrap_or(&empty);
        let mut scores: Vec<i64> = shares.keys().chain(other.keys()).copied().collect();
        scores.sort_unstable();
        scores.dedup();
        let labels: Vec<String> = scores.iter().map(i64::to_string).collect();
        let pick = |m: &BTreeMap<i64, f64>| {
            scores
                .iter()
                .map(|s| m.get(s).copied().unwrap_or(0.0))
                .collect()
        };
        let svg = bars(
            &format!("Scores of {} (share of games)", seat_name(module, seat)),
            &labels,
            &[("old", pick(shares)), ("new", pick(other))],
            percent,
        );
        write(
            dir,
            &format!("scores-{}.svg", file_safe(seat)),
            &svg,
            &mut written,
        )?;
    }
    Ok(written)
}
