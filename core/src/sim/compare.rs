//! Two versions of a module played at the same seeds by the same bots, and each metric's
//! difference with a 95 % confidence interval: wins and scores by seat, draws, game length,
//! how often each card is played and how often its player wins.
//!
//! Games of the same seed are paired (they start from the same shuffle and dice stream),
//! so a per-game metric's interval is the paired mean difference ± 1.96 standard errors.
//! A card's win share is a proportion of plays, not of games: its interval is the normal
//! approximation for the difference of two proportions. Each interval shown is a 95 % one;
//! a difference is called significant when it stays clear of zero at the 5 % level *for
//! its whole group* (Bonferroni: a group of m metrics tests each at 5 %/m), so that fifty
//! cards do not give two or three "significant" changes by chance alone.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use serde_json::{Value as Json, json};

use super::{GameOutcome, SimConfig, SimReport, simulate_until};
use crate::ids::SeatId;
use crate::module::Module;

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.96;

/// The standard normal quantile: the x with P(Z <= x) = p, 0 < p < 1 (Acklam's rational
/// approximation, relative error below 1.2e-9).
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -39.696_830_286_653_76,
        220.946_098_424_520_5,
        -275.928_510_446_968_7,
        138.357_751_867_269,
        -30.664_798_066_147_16,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -54.476_098_798_224_06,
        161.585_836_858_040_9,
        -155.698_979_859_886_6,
        66.801_311_887_719_72,
        -13.280_681_552_885_72,
    ];
    const C: [f64; 6] = [
        -0.007_784_894_002_430_293,
        -0.322_396_458_041_136_5,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        0.007_784_695_709_041_462,
        0.322_467_129_070_039_8,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// Marks each metric significant when its difference, in standard errors, clears the
/// Bonferroni quantile of its group (5 % shared by the group's metrics).
fn judge(metrics: &mut [Metric]) {
    let mut sizes: BTreeMap<String, usize> = BTreeMap::new();
    for m in metrics.iter() {
        *sizes.entry(m.group.clone()).or_default() += 1;
    }
    for m in metrics.iter_mut() {
        let m_group = sizes.get(&m.group).copied().unwrap_or(1).max(1) as f64;
        let z = normal_quantile(1.0 - 0.05 / (2.0 * m_group));
        m.significant = m.difference != 0.0
            && if m.se.is_finite() && m.se > 0.0 {
                m.difference.abs() > z * m.se
            } else {
                m.se == 0.0
            };
    }
}

/// One metric under both versions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metric {
    /// What is measured: "wins", "draws", "score", "length", "card plays", "card win share".
    pub group: String,
    /// Of what: a seat, a card, or "" for the whole game.
    pub name: String,
    /// Its value under the old version (a mean per game, or a share).
    pub old: f64,
    /// Under the new version.
    pub new: f64,
    /// New minus old.
    pub difference: f64,
    /// The 95 % confidence interval of the difference.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// Whether the difference stays clear of zero at 5 % for its whole group.
    pub significant: bool,
    /// The difference's standard error (infinite when a side has no data).
    #[serde(skip)]
    pub se: f64,
}

impl Metric {
    /// Whether the difference's 95 % interval stays clear of zero on its own (which chance
    /// gives among many metrics; [`Metric::significant`] accounts for them).
    pub fn clear_of_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }

    /// The half-width of a chart's axis for this metric alone: the widest of the difference
    /// and its interval's ends (1 when all are zero), so each metric is drawn on its own scale.
    pub fn reach(&self) -> f64 {
        let reach = [self.low.abs(), self.high.abs(), self.difference.abs()]
            .into_iter()
            .filter(|x| x.is_finite())
            .fold(0.0f64, f64::max);
        if reach > 0.0 { reach } else { 1.0 }
    }

    /// Whether the metric is a rate (wins, draws, a card's win share), shown in percent.
    pub fn is_rate(&self) -> bool {
        matches!(self.group.as_str(), "wins" | "draws" | "card win share")
    }

    /// A value of the metric as a playtester reads it: a rate in percent ("57.5 %"), a
    /// length in inputs a game, a count a game, a score with two decimals.
    pub fn show(&self, x: f64) -> String {
        match self.group.as_str() {
            _ if self.is_rate() => format!("{:.1} %", x * 100.0),
            "length" => format!("{x:.1} inputs"),
            "card plays" => format!("{x:.2} a game"),
            _ => format!("{x:.2}"),
        }
    }

    /// A difference of the metric: in points of percent for a rate, else as [`Metric::show`]
    /// gives the metric's unit, with its sign.
    pub fn show_change(&self, d: f64) -> String {
        let unit = match self.group.as_str() {
            _ if self.is_rate() => " points",
            "length" => " inputs",
            "card plays" => " a game",
            _ => "",
        };
        format!("{}{unit}", self.show_number(d))
    }

    /// A difference as a signed number in the metric's scale (points of percent for a
    /// rate), without its unit: for the ends of an interval.
    pub fn show_number(&self, d: f64) -> String {
        let sign = if d < 0.0 { "−" } else { "+" };
        match self.group.as_str() {
            _ if self.is_rate() => format!("{sign}{:.1}", d.abs() * 100.0),
            "length" => format!("{sign}{:.1}", d.abs()),
            _ => format!("{sign}{:.2}", d.abs()),
        }
    }

    /// The change in a sentence's words: "57.5 % → 52.0 % (−5.5 points, could be −9.0 to
    /// −2.0)".
    pub fn change_words(&self) -> String {
        let range = match (self.low.is_finite(), self.high.is_finite()) {
            (true, true) => format!(
                ", could be {} to {}",
                self.show_number(self.low),
                self.show_number(self.high)
            ),
            _ => String::new(),
        };
        format!(
            "{} → {} ({}{range})",
            self.show(self.old),
            self.show(self.new),
            self.show_change(self.difference)
        )
    }
}

/// Both runs and their metrics.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The old version's games.
    pub old: SimReport,
    /// The new version's games.
    pub new: SimReport,
    /// Every metric, grouped in the order of [`Metric::group`]'s list, then by name.
    pub metrics: Vec<Metric>,
}

/// Plays `config`'s games under `old` and then `new`; `progress` is told how many of both
/// runs' games have finished.
pub fn compare(
    old: Arc<Module>,
    new: Arc<Module>,
    config: &SimConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Comparison, String> {
    compare_until(old, new, config, progress, &AtomicBool::new(false))
}

/// [`compare`], given up once `stop` is set (from another thread): the error says so.
pub fn compare_until(
    old: Arc<Module>,
    new: Arc<Module>,
    config: &SimConfig,
    progress: &(dyn Fn(usize) + Sync),
    stop: &AtomicBool,
) -> Result<Comparison, String> {
    let played = config.shard.range(config.games).len();
    let cancelled = || Err("the comparison was cancelled".to_owned());
    let old_report = simulate_until(old, config, progress, stop)?;
    if stop.load(Ordering::Relaxed) {
        return cancelled();
    }
    refuse_failed("old", &old_report)?;
    let new_report = simulate_until(new, config, &|done| progress(played + done), stop)?;
    if stop.load(Ordering::Relaxed) {
        return cancelled();
    }
    refuse_failed("new", &new_report)?;
    let metrics = metrics(&old_report.outcomes, &new_report.outcomes);
    Ok(Comparison {
        old: old_report,
        new: new_report,
        metrics,
    })
}

/// A comparison of a run whose rules or bots failed would compare nothing: the error says
/// which version failed, at which seed, and why.
fn refuse_failed(which: &str, report: &SimReport) -> Result<(), String> {
    match report.outcomes.iter().find(|o| o.failed) {
        Some(o) => Err(format!(
            "the {which} version failed in the game of seed {}, so there is nothing to compare: {}",
            o.seed,
            o.error.as_deref().unwrap_or_default()
        )),
        None => Ok(()),
    }
}

/// A paired difference: the mean of `new - old` over the pairs and its interval.
fn paired(group: &str, name: &str, pairs: &[(f64, f64)]) -> Metric {
    let n = pairs.len() as f64;
    let mean = |f: &dyn Fn(&(f64, f64)) -> f64| {
        if pairs.is_empty() {
            0.0
        } else {
            pairs.iter().map(f).sum::<f64>() / n
        }
    };
    let old = mean(&|p| p.0);
    let new = mean(&|p| p.1);
    let difference = new - old;
    let variance = if pairs.len() > 1 {
        pairs
            .iter()
            .map(|p| (p.1 - p.0 - difference).powi(2))
            .sum::<f64>()
            / (n - 1.0)
    } else {
        0.0
    };
    finish(
        group,
        name,
        old,
        new,
        difference,
        (variance / n.max(1.0)).sqrt(),
    )
}

/// The difference of two proportions `wins / plays`, and its interval.
fn proportions(group: &str, name: &str, old: (u64, u64), new: (u64, u64)) -> Metric {
    let share = |(wins, plays): (u64, u64)| {
        if plays == 0 {
            0.0
        } else {
            wins as f64 / plays as f64
        }
    };
    let (p0, p1) = (share(old), share(new));
    let var = |p: f64, plays: u64| {
        if plays == 0 {
            0.0
        } else {
            p * (1.0 - p) / plays as f64
        }
    };
    let se = if old.1 == 0 || new.1 == 0 {
        f64::INFINITY
    } else {
        (var(p0, old.1) + var(p1, new.1)).sqrt()
    };
    finish(group, name, p0, p1, p1 - p0, se)
}

/// The metric with its 95 % interval (`se`: the difference's standard error); whether it
/// is significant is for [`judge`], which knows the group.
fn finish(group: &str, name: &str, old: f64, new: f64, difference: f64, se: f64) -> Metric {
    let round = |x: f64| (x * 10_000.0).round() / 10_000.0;
    let (low, high) = (difference - Z95 * se, difference + Z95 * se);
    Metric {
        group: group.to_owned(),
        name: name.to_owned(),
        old: round(old),
        new: round(new),
        difference: round(difference),
        low: if low.is_finite() { round(low) } else { low },
        high: if high.is_finite() { round(high) } else { high },
        significant: false,
        se,
    }
}

/// The games of the same seed in both runs, both finished, in the old run's order.
pub(super) fn paired_games<'a>(
    old: &'a [GameOutcome],
    new: &'a [GameOutcome],
) -> Vec<(&'a GameOutcome, &'a GameOutcome)> {
    let by_seed: BTreeMap<u64, &GameOutcome> = new.iter().map(|o| (o.seed, o)).collect();
    old.iter()
        .filter_map(|o| by_seed.get(&o.seed).map(|n| (o, *n)))
        .filter(|(a, b)| a.winners.is_some() && b.winners.is_some())
        .collect()
}

/// Every seat that scored or won in either game of any pair.
pub(super) fn seats_of(pairs: &[(&GameOutcome, &GameOutcome)]) -> BTreeSet<SeatId> {
    let mut seats = BTreeSet::new();
    for (a, b) in pairs {
        for o in [a, b] {
            seats.extend(o.scores.keys().cloned());
            seats.extend(o.winners.iter().flatten().cloned());
        }
    }
    seats
}

/// 1 if `seat` won the game `o`, else 0.
pub(super) fn won(o: &GameOutcome, seat: &SeatId) -> f64 {
    f64::from(u8::from(
        o.winners.as_ref().is_some_and(|w| w.contains(seat)),
    ))
}

/// Every metric of two runs, paired by seed (seeds played in only one run, or unfinished
/// in either, are left out).
pub fn metrics(old: &[GameOutcome], new: &[GameOutcome]) -> Vec<Metric> {
    let pairs = paired_games(old, new);
    let seats = seats_of(&pairs);
    let mut cards = BTreeSet::new();
    for (a, b) in &pairs {
        cards.extend(a.card_use.keys().chain(b.card_use.keys()).cloned());
    }
    let mut out = Vec::new();
    for seat in &seats {
        let list: Vec<(f64, f64)> = pairs
            .iter()
            .map(|(a, b)| (won(a, seat), won(b, seat)))
            .collect();
        out.push(paired("wins", seat.as_str(), &list));
    }
    let drawn =
        |o: &GameOutcome| f64::from(u8::from(o.winners.as_ref().is_some_and(Vec::is_empty)));
    let list: Vec<(f64, f64)> = pairs.iter().map(|(a, b)| (drawn(a), drawn(b))).collect();
    out.push(paired("draws", "", &list));
    for seat in &seats {
        let list: Vec<(f64, f64)> = pairs
            .iter()
            .filter_map(|(a, b)| Some((*a.scores.get(seat)? as f64, *b.scores.get(seat)? as f64)))
            .collect();
        out.push(paired("score", seat.as_str(), &list));
    }
    let list: Vec<(f64, f64)> = pairs
        .iter()
        .map(|(a, b)| (a.steps as f64, b.steps as f64))
        .collect();
    out.push(paired("length", "", &list));
    let plays = |o: &GameOutcome, card: &str| o.card_use.get(card).copied().unwrap_or(0);
    let wins = |o: &GameOutcome, card: &str| o.card_wins.get(card).copied().unwrap_or(0);
    for card in &cards {
        let list: Vec<(f64, f64)> = pairs
            .iter()
            .map(|(a, b)| (plays(a, card) as f64, plays(b, card) as f64))
            .collect();
        out.push(paired("card plays", card, &list));
    }
    for card in &cards {
        let total = |new_side: bool| {
            pairs.iter().fold((0, 0), |(w, p), (a, b)| {
                let o = if new_side { b } else { a };
                (w + wins(o, card), p + plays(o, card))
            })
        };
        let (old, new) = (total(false), total(true));
        out.push(proportions("card win share", card, old, new));
    }
    judge(&mut out);
    out
}

impl Comparison {
    /// The comparison in one sentence, metrics named by `name`: the largest significant
    /// changes (by how far they stand clear of chance), or that none is, saying how many
    /// single intervals are clear of zero all the same (the chance a group of many metrics
    /// gives).
    pub fn verdict(&self, name: impl Fn(&Metric) -> String) -> String {
        let games = self.new.outcomes.len();
        let mut significant: Vec<&Metric> = self.metrics.iter().filter(|m| m.significant).collect();
        significant.sort_by(|a, b| {
            let z = |m: &Metric| (m.difference / m.se).abs();
            z(b).total_cmp(&z(a))
        });
        if !significant.is_empty() {
            let named: Vec<String> = significant
                .iter()
                .take(3)
                .map(|m| format!("{} {}", name(m), m.change_words()))
                .collect();
            let more = match significant.len() {
                n if n > 3 => format!(", and {} more", n - 3),
                _ => String::new(),
            };
            return format!(
                "The edit changes {}{more} (significant at {games} games each).",
                named.join("; ")
            );
        }
        let alone = self.metrics.iter().filter(|m| m.clear_of_zero()).count();
        match alone {
            0 => format!(
                "No significant change at {games} games each: every difference's interval includes zero."
            ),
            n => format!(
                "No significant change at {games} games each: {n} of {} differences are clear of zero on their own (orange), which chance alone gives among so many; more games would tell.",
                self.metrics.len()
            ),
        }
    }

    /// The comparison as JSON: the run, each version's summary, every metric, and the
    /// significant ones by name.
    pub fn to_json(
        &self,
        old_name: &str,
        new_name: &str,
        config: &SimConfig,
        module: &str,
    ) -> Json {
        let metric = |m: &Metric| {
            let bound = |x: f64| if x.is_finite() { json!(x) } else { Json::Null };
            json!({
                "group": m.group,
                "name": m.name,
                "old": m.old,
                "new": m.new,
                "difference": m.difference,
                "ci95": [bound(m.low), bound(m.high)],
                "significant": m.significant,
            })
        };
        let significant: Vec<String> = self
            .metrics
            .iter()
            .filter(|m| m.significant)
            .map(Metric::label)
            .collect();
        json!({
            "old": old_name,
            "new": new_name,
            "games": self.old.outcomes.len().min(self.new.outcomes.len()),
            "paired_by": "seed",
            "confidence": 0.95,
            "significant": significant,
            "metrics": self.metrics.iter().map(metric).collect::<Vec<_>>(),
            "old_summary": self.old.to_json(module, config, false),
            "new_summary": self.new.to_json(module, config, false),
        })
    }
}

impl Metric {
    /// "wins of FR", "length", "card plays of davout".
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            self.group.clone()
        } else {
            format!("{} of {}", self.group, self.name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paired_difference_that_is_always_one_is_significant() {
        let mut m = [paired("length", "", &[(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)])];
        judge(&mut m);
        let m = &m[0];
        assert_eq!(
            (m.difference, m.low, m.high, m.significant),
            (1.0, 1.0, 1.0, true)
        );
    }

    #[test]
    fn no_difference_is_never_significant() {
        let mut m = [paired("length", "", &[(1.0, 1.0), (3.0, 3.0)])];
        judge(&mut m);
        assert!(!m[0].significant);
        let mut m = [proportions("card win share", "x", (5, 10), (5, 10))];
        judge(&mut m);
        assert!(!m[0].significant);
    }

    #[test]
    fn fifty_metrics_share_the_five_percent() {
        assert!((normal_quantile(0.975) - 1.959_964).abs() < 1e-5);
        // 5 % over 50 metrics: 0.05 %, two-sided: 3.29 standard errors.
        assert!((normal_quantile(1.0 - 0.0005) - 3.290_527).abs() < 1e-5);
        // Differences 1, 0, 1, 0, … over 8 games: mean 0.5, se 0.189, 2.65 standard errors:
        // significant alone (over 1.96), not as one of fifty (under 3.29).
        let one = || paired("card plays", "x", &[(0.0, 1.0), (0.0, 0.0)].repeat(4));
        let mut alone = [one()];
        judge(&mut alone);
        assert!(alone[0].significant);
        let mut many: Vec<Metric> = (0..50).map(|_| one()).collect();
        judge(&mut many);
        assert!(many.iter().all(|m| !m.significant));
    }

    #[test]
    fn a_noisy_paired_difference_has_the_textbook_interval() {
        // Differences 1, -1, 1, -1: mean 0, sample sd sqrt(4/3), se sqrt(1/3).
        let m = paired(
            "score",
            "A",
            &[(0.0, 1.0), (1.0, 0.0), (0.0, 1.0), (1.0, 0.0)],
        );
        let half = 1.96 * (1.0f64 / 3.0).sqrt();
        assert_eq!(m.high, (half * 10_000.0).round() / 10_000.0);
        assert!(!m.significant);
    }

    #[test]
    fn two_proportions_far_apart_differ_significantly() {
        // 20 % of 200 plays against 60 % of 200: se = sqrt(.16/200 + .24/200) ≈ 0.0447.
        let mut m = [proportions("card win share", "x", (40, 200), (120, 200))];
        judge(&mut m);
        let m = &m[0];
        assert!(m.significant);
        assert_eq!(m.difference, 0.4);
        assert_eq!(
            m.low,
            ((0.4 - 1.96 * (0.4f64 / 200.0).sqrt()) * 10_000.0).round() / 10_000.0
        );
    }
}
