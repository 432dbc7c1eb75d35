//! Charts of a simulation as SVG files, for a playtester's report: the score distribution
//! of each seat, how often each card is played, and for a comparison each metric's
//! difference with its 95 % interval. Plain SVG written here (no fonts or renderer
//! needed), the same bytes for the same results.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use chancery_core::sim::SimReport;
use chancery_core::sim::compare::{Comparison, Metric};

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

fn document(height: f64, title: &str, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>{t}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{x}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{t}</text>\n{body}</svg>\n",
        t = escape(title),
        x = WIDTH / 2.0
    )
}

/// Horizontal bars, one row per label, for one or more series (a legend when several).
fn bars(title: &str, labels: &[String], series: &[(&str, Vec<f64>)]) -> String {
    let left = 210.0;
    let right = WIDTH - 30.0;
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
                trim(v)
            );
        }
    }
    let height = top + labels.len() as f64 * per + 20.0;
    document(height, title, &body)
}

fn trim(v: f64) -> String {
    let text = format!("{v:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Each metric's difference (new − old) as a dot with its 95 % interval around zero;
/// significant ones in red.
fn differences(title: &str, metrics: &[&Metric]) -> String {
    let left = 260.0;
    let right = WIDTH - 30.0;
    let top = 44.0;
    let reach = metrics
        .iter()
        .flat_map(|m| [m.low.abs(), m.high.abs(), m.difference.abs()])
        .filter(|x| x.is_finite())
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let mid = (left + right) / 2.0;
    let scale = (right - left) / 2.0 / reach;
    let x = |v: f64| mid + v.clamp(-reach, reach) * scale;
    let mut body = String::new();
    let height = top + metrics.len() as f64 * ROW + 30.0;
    let _ = writeln!(
        body,
        "<line x1=\"{mid}\" y1=\"{}\" x2=\"{mid}\" y2=\"{}\" stroke=\"#888\"/>\
         <text x=\"{left}\" y=\"{}\" font-size=\"10\">-{r}</text><text x=\"{right}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\">+{r}</text>",
        top - 6.0,
        height - 24.0,
        height - 10.0,
        height - 10.0,
        r = trim(reach)
    );
    for (i, m) in metrics.iter().enumerate() {
        let y = top + i as f64 * ROW + ROW / 2.0;
        let colour = if m.significant { "#c44e52" } else { "#4c72b0" };
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <line x1=\"{:.1}\" y1=\"{y}\" x2=\"{:.1}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"2\"/>\
             <circle cx=\"{:.1}\" cy=\"{y}\" r=\"4\" fill=\"{colour}\"/>",
            left - 6.0,
            y + 4.0,
            escape(&m.label()),
            x(m.low),
            x(m.high),
            x(m.difference)
        );
    }
    document(height, title, &body)
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
pub fn run_charts(
    dir: &Path,
    report: &SimReport,
    cards: &dyn Fn(&str) -> String,
) -> anyhow::Result<Vec<PathBuf>> {
    folder(dir)?;
    let mut written = Vec::new();
    for (seat, shares) in score_shares(report) {
        let labels: Vec<String> = shares.keys().map(i64::to_string).collect();
        let values: Vec<f64> = shares.values().copied().collect();
        let svg = bars(
            &format!("Scores of {seat} (share of games)"),
            &labels,
            &[("games", values)],
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
    cards: &dyn Fn(&str) -> String,
) -> anyhow::Result<Vec<PathBuf>> {
    folder(dir)?;
    let mut written = Vec::new();
    let game: Vec<&Metric> = comparison
        .metrics
        .iter()
        .filter(|m| !m.group.starts_with("card"))
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
    let named: Vec<Metric> = comparison
        .metrics
        .iter()
        .filter(|m| m.group.starts_with("card"))
        .map(|m| Metric {
            name: cards(&m.name),
            ..m.clone()
        })
        .collect();
    let significant: Vec<&Metric> = named.iter().filter(|m| m.significant).collect();
    let shown = if significant.is_empty() {
        named.iter().collect()
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
            &format!("Scores of {seat} (share of games)"),
            &labels,
            &[("old", pick(shares)), ("new", pick(other))],
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
