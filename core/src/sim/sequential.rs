//! A comparison that stops when its answer is clear (`chancery sim --compare --until-clear`):
//! both versions are played in rounds of more games, at the same seeds, and after each
//! round every headline metric (each seat's win rate and mean score, the game's length) is
//! judged by a **confidence sequence**: an interval that holds at every round at once, so
//! looking after each round and stopping when it suits does not make chance look like a
//! change, as a fixed-sample interval looked at again and again would.
//!
//! The sequence is the normal mixture boundary of the paired differences' running mean
//! (Robbins; the asymptotic form of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas,
//! "Time-uniform central limit theory", 2021): with `t` pairs, their standard deviation
//! `s` and a mixing width `ρ`, the mean difference lies within
//! `s · sqrt(2 (tρ² + 1) / (t² ρ²) · ln(sqrt(tρ² + 1) / α))` of the truth at every `t` at
//! once, with probability 1 − α (as `t` grows). `α` is shared among the headline metrics
//! (Bonferroni; metrics whose pairs are the same numbers, such as the win rates of the
//! seats of one side, count once), and `ρ` is tuned for the width at the run's middle on a
//! log scale (the geometric mean of its first round and its most games). The sequence is
//! valid whatever `ρ` is; the tuning only says where it is narrowest. Tuned for the most
//! games instead, it was a third wider at 320 pairs of a 5,000-game run, where a large edit
//! is decided, for 5 % less width at the end (see `the_tuning_narrows_the_middle_…`).
//!
//! The run stops when each headline metric is either clearly changed (its interval leaves
//! out zero) or known to within the precision asked (its interval's half width is at most
//! the precision), or at the most games it may play.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::compare::{Comparison, compare_until, metrics, paired_games, seats_of, won};
use super::{GameOutcome, SimConfig, SimReport};
use crate::module::Module;

/// What `--until-clear` asks for.
#[derive(Clone, Debug)]
pub struct UntilClear {
    /// The precision at which a metric that is not clearly changed counts as known: win
    /// rates to within this many points of percent, mean scores and the game's length to
    /// within this percentage of the old version's mean.
    pub precision: f64,
    /// The chance, shared by the headline metrics, that any interval misses at any round.
    pub alpha: f64,
    /// The games of the first round (each later round doubles the games played so far).
    pub first_round: usize,
}

impl Default for UntilClear {
    fn default() -> Self {
        UntilClear {
            precision: 2.0,
            alpha: 0.05,
            first_round: 40,
        }
    }
}

/// A headline metric after a round: its difference and the confidence sequence's interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Headline {
    /// "wins", "score" or "length".
    pub group: String,
    /// The seat, or "" for the game.
    pub name: String,
    /// New minus old, the mean over the pairs.
    pub difference: f64,
    /// The interval's half width: the difference is within this of the truth.
    pub half_width: f64,
    /// The precision asked for this metric, in its own unit.
    pub precision: f64,
    /// Its interval leaves out zero.
    pub changed: bool,
    /// Its half width is within the precision.
    pub precise: bool,
}

impl Headline {
    /// Whether this metric needs no more games.
    pub fn settled(&self) -> bool {
        self.changed || self.precise
    }
}

/// Why the run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// Every headline metric is clearly changed or known to within the precision.
    Settled,
    /// It played the most games it was allowed.
    AtMost,
}

/// A round's state, for progress: games played per version, and the headlines so far.
#[derive(Clone, Debug)]
pub struct Round {
    /// Games played so far by each version.
    pub games: usize,
    /// The most it may play.
    pub most: usize,
    /// The headline metrics after the round.
    pub headlines: Vec<Headline>,
}

/// The comparison of every game played, with how many it took and why it stopped.
pub struct Sequential {
    /// The comparison of all the games played (its fixed-sample intervals, for the record).
    pub comparison: Comparison,
    /// Games played by each version.
    pub games: usize,
    /// Why it stopped.
    pub stopped: Stopped,
    /// The headline metrics at the end, judged by their confidence sequences.
    pub headlines: Vec<Headline>,
}

/// Who is told as the run goes: of the games finished (both versions), and of each round.
pub type Told<'a> = (&'a (dyn Fn(usize) + Sync), &'a (dyn Fn(&Round) + Sync));

impl Sequential {
    /// Why the run stopped, in words, each metric named by `name`: how many games it took,
    /// which headline metrics clearly changed, and the precision the others are known to.
    pub fn words(&self, precision: f64, name: impl Fn(&Headline) -> String) -> String {
        let changed: Vec<String> = self
            .headlines
            .iter()
            .filter(|h| h.changed)
            .map(name)
            .collect();
        let games = self.games;
        match self.stopped {
            Stopped::Settled if changed.is_empty() => format!(
                "Stopped after {games} games each: no headline metric changed, each known to within {precision} (points of percent for win rates, percent of the old mean otherwise)."
            ),
            Stopped::Settled => format!(
                "Stopped after {games} games each: clearly changed: {}; every other headline metric known to within {precision}.",
                changed.join(", ")
            ),
            Stopped::AtMost if changed.is_empty() => format!(
                "Stopped at the most games allowed ({games} each) before every headline metric was clear."
            ),
            Stopped::AtMost => format!(
                "Stopped at the most games allowed ({games} each) before every headline metric was clear; clearly changed so far: {}.",
                changed.join(", ")
            ),
        }
    }
}

/// Plays rounds of `config`'s games (at most `config.games`) under `old` and `new` until
/// the headline metrics are settled; `progress` is told how many games of both versions
/// have finished, and `round` the headlines after each round.
pub fn compare_until_clear(
    old: Arc<Module>,
    new: Arc<Module>,
    config: &SimConfig,
    rule: &UntilClear,
    (progress, round): Told<'_>,
    stop: &AtomicBool,
) -> Result<Sequential, String> {
    let most = config.games.max(1);
    let mut games = 0;
    // Every round's games of each version, gathered; the metrics worked out at the end.
    let empty = || SimReport {
        outcomes: Vec::new(),
        elapsed_ms: 0,
        profile: Default::default(),
    };
    let (mut old_all, mut new_all) = (empty(), empty());
    loop {
        let size = if games == 0 {
            rule.first_round.max(2)
        } else {
            games
        }
        .min(most - games);
        let mut part = config.clone();
        part.seed = config.seed + games as u64;
        part.games = size;
        let before = 2 * games;
        let played = compare_until(
            old.clone(),
            new.clone(),
            &part,
            &|done| progress(before + done),
            stop,
        )?;
        games += size;
        for (into, from) in [(&mut old_all, played.old), (&mut new_all, played.new)] {
            into.outcomes.extend(from.outcomes);
            into.elapsed_ms += from.elapsed_ms;
        }
        let headlines = headlines(
            &old_all.outcomes,
            &new_all.outcomes,
            rule,
            tuned_for(rule, most),
        );
        round(&Round {
            games,
            most,
            headlines: headlines.clone(),
        });
        let settled = headlines.iter().all(Headline::settled);
        if settled || games >= most {
            let metrics = metrics(&old_all.outcomes, &new_all.outcomes);
            return Ok(Sequential {
                comparison: Comparison {
                    old: old_all,
                    new: new_all,
                    metrics,
                },
                games,
                stopped: if settled {
                    Stopped::Settled
                } else {
                    Stopped::AtMost
                },
                headlines,
            });
        }
    }
}

/// A headline metric's pairs (old, new), by its group and name.
type Series = (&'static str, String, Vec<(f64, f64)>);

/// The number of pairs the confidence sequences are tuned for in a run of at most `most`
/// pairs: the geometric mean of the first round and `most`.
pub fn tuned_for(rule: &UntilClear, most: usize) -> usize {
    let first = rule.first_round.clamp(2, most.max(2));
    ((first as f64) * (most.max(first) as f64)).sqrt().round() as usize
}

/// The headline metrics of the games paired so far (by seed; unfinished games left out),
/// each judged by its confidence sequence, tuned for `tuned` pairs.
pub fn headlines(
    old: &[GameOutcome],
    new: &[GameOutcome],
    rule: &UntilClear,
    tuned: usize,
) -> Vec<Headline> {
    let pairs = paired_games(old, new);
    let seats = seats_of(&pairs);
    let mut series: Vec<Series> = Vec::new();
    for seat in &seats {
        let wins = pairs.iter().map(|(a, b)| (won(a, seat), won(b, seat)));
        series.push(("wins", seat.to_string(), wins.collect()));
        let scores = pairs
            .iter()
            .filter_map(|(a, b)| Some((*a.scores.get(seat)? as f64, *b.scores.get(seat)? as f64)));
        series.push(("score", seat.to_string(), scores.collect()));
    }
    let length = pairs.iter().map(|(a, b)| (a.steps as f64, b.steps as f64));
    series.push(("length", String::new(), length.collect()));
    series.retain(|(_, _, list)| !list.is_empty());
    let differences: Vec<Vec<f64>> = series
        .iter()
        .map(|(_, _, list)| list.iter().map(|(o, n)| n - o).collect())
        .collect();
    let alpha = rule.alpha / distinct(&differences).max(1) as f64;
    series
        .into_iter()
        .zip(differences)
        .map(|((group, name, list), differences)| {
            let old_mean = list.iter().map(|p| p.0).sum::<f64>() / list.len() as f64;
            let precision = if group == "wins" {
                rule.precision / 100.0
            } else {
                rule.precision / 100.0 * old_mean.abs().max(1.0)
            };
            let (difference, half_width) = interval(&differences, alpha, tuned);
            Headline {
                group: group.to_owned(),
                name,
                difference,
                half_width,
                precision,
                changed: difference.abs() > half_width,
                precise: half_width <= precision,
            }
        })
        .collect()
}

/// How many of the series differ: the same numbers pair by pair are one event for the
/// Bonferroni split (the seats of one side win and lose together).
fn distinct(series: &[Vec<f64>]) -> usize {
    let bits = |list: &Vec<f64>| list.iter().map(|d| d.to_bits()).collect::<Vec<u64>>();
    let mut seen: Vec<Vec<u64>> = series.iter().map(bits).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// The running mean of `differences` and the half width of its confidence sequence at
/// level `alpha`, the mixing width tuned for the narrowest interval at `tuned` observations.
pub fn interval(differences: &[f64], alpha: f64, tuned: usize) -> (f64, f64) {
    let t = differences.len() as f64;
    if differences.is_empty() {
        return (0.0, f64::INFINITY);
    }
    let mean = differences.iter().sum::<f64>() / t;
    let variance = if differences.len() > 1 {
        differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (t - 1.0)
    } else {
        // One pair says nothing of the spread: no interval yet.
        return (mean, f64::INFINITY);
    };
    let log = -2.0 * alpha.ln();
    let rho2 = (log + (log + 1.0).ln()) / (tuned.max(1) as f64);
    let spread = t * rho2 + 1.0;
    let half =
        variance.sqrt() * (2.0 * spread / (t * t * rho2) * (spread.sqrt() / alpha).ln()).sqrt();
    (mean, half)
}

#[cfg(test)]
mod tests {
    use super::{UntilClear, distinct, interval, tuned_for};
    use crate::rng::Rng;

    /// Draws `n` paired differences of two independent win/lose games that each win with
    /// chance `p` (a null edit: the versions differ only by chance).
    fn null_differences(rng: &mut Rng, n: usize, p: f64) -> Vec<f64> {
        let win = |rng: &mut Rng| f64::from(u8::from((rng.roll(1_000_000) as f64) <= p * 1e6));
        (0..n).map(|_| win(rng) - win(rng)).collect()
    }

    /// The honesty of the stopping rule: over 200 null comparisons looked at after every
    /// round (40, 80, 160, … up to 2,560 pairs), the share that ever declares a change stays
    /// within the 5 % asked (with room for the 200 runs' own chance: 5 % of 200 is 10, and
    /// 3 standard deviations above is 19).
    #[test]
    fn a_null_edit_is_declared_changed_no_more_often_than_asked() {
        let rule = UntilClear::default();
        let most = 2_560;
        let tuned = tuned_for(&rule, most);
        let mut rng = Rng::from_seed(7);
        let (mut declared, mut naive) = (0, 0);
        for _ in 0..200 {
            let all = null_differences(&mut rng, most, 0.4);
            let (mut n, mut sequence_done, mut fixed_done) = (rule.first_round, false, false);
            while !(sequence_done && fixed_done) {
                let (mean, half) = interval(&all[..n], rule.alpha, tuned);
                if !sequence_done && mean.abs() > half {
                    declared += 1;
                    sequence_done = true;
                }
                sequence_done |= half <= rule.precision / 100.0 || n >= most;
                // The fixed-sample 95 % interval, looked at after every round as well.
                let sd = (all[..n].iter().map(|d| (d - mean).powi(2)).sum::<f64>()
                    / (n as f64 - 1.0))
                    .sqrt();
                if !fixed_done && mean.abs() > 1.96 * sd / (n as f64).sqrt() {
                    naive += 1;
                    fixed_done = true;
                }
                fixed_done |= n >= most;
                n = (2 * n).min(most);
            }
        }
        assert!(
            declared <= 19,
            "{declared} of 200 null runs declared a change"
        );
        // The check has teeth: a fixed-sample interval peeked at after every round is
        // fooled by chance far more often than the 5 % it claims.
        assert!(
            naive > 19,
            "the peeked fixed interval declared only {naive} of 200"
        );
    }

    /// A real change of about 15 points in a win rate is declared within the first rounds.
    #[test]
    fn a_large_change_is_declared_early() {
        let mut rng = Rng::from_seed(11);
        let differences: Vec<f64> = (0..160)
            .map(|i| {
                let base = f64::from(u8::from(rng.roll(10) <= 4));
                let edited = if i % 4 == 0 { 1.0 } else { base };
                edited - base
            })
            .collect();
        let (mean, half) = interval(&differences, 0.05, 2_000);
        assert!(mean > 0.0 && mean.abs() > half, "{mean} ± {half}");
    }

    /// Tuned for the run's middle on a log scale (447 pairs of a 5,000-game run starting at
    /// 40), the sequence is a quarter narrower at 320 pairs than tuned for the most games,
    /// and at most a tenth wider at the end.
    #[test]
    fn the_tuning_narrows_the_middle_of_a_run_for_little_width_at_its_end() {
        let rule = UntilClear::default();
        assert_eq!(tuned_for(&rule, 5_000), 447);
        assert_eq!(tuned_for(&rule, 40), 40);
        assert_eq!(tuned_for(&rule, 10), 10);
        let spread = |n: usize| -> Vec<f64> { (0..n).map(|i| f64::from(i as u8 % 2)).collect() };
        let half = |n: usize, tuned: usize| interval(&spread(n), 0.05 / 7.0, tuned).1;
        let middle = half(320, tuned_for(&rule, 5_000)) / half(320, 5_000);
        let end = half(5_000, tuned_for(&rule, 5_000)) / half(5_000, 5_000);
        assert!((0.70..0.80).contains(&middle), "at 320 pairs: {middle}");
        assert!((1.0..1.1).contains(&end), "at 5,000 pairs: {end}");
    }

    /// The seats of one side win together: their series are one event for the split of α.
    #[test]
    fn identical_series_share_one_part_of_alpha() {
        let side = vec![1.0, 0.0, -1.0];
        let other = vec![-1.0, 0.0, 1.0];
        assert_eq!(
            distinct(&[side.clone(), side.clone(), side.clone(), other]),
            2
        );
        assert_eq!(distinct(std::slice::from_ref(&side)), 1);
        assert_eq!(distinct(&[]), 0);
    }

    #[test]
    fn no_spread_yet_is_no_interval() {
        assert_eq!(interval(&[], 0.05, 100).1, f64::INFINITY);
        assert_eq!(interval(&[1.0], 0.05, 100).1, f64::INFINITY);
        assert_eq!(interval(&[0.0, 0.0, 0.0], 0.05, 100), (0.0, 0.0));
    }
}
