//! Flowchart coverage: which of a bot's rule steps the games never reached.
//!
//! A bot marks the step it takes through its reasons: a reason that begins with a rule
//! number ("18.4.5.5, Round 2: …") counts under its words before the first colon. The
//! steps a bot *can* take are the string literals of its script (`bots/NAME.lua`) that
//! begin the same way; their `%d`, `%s`… placeholders match any words. A step is reached
//! when some counted reason matches it. A bot's chart kept as data (a table with a `chart`
//! step, [`crate::module::ChartDef`]) adds one step per row: the step with the row's key
//! (or one step for the table, when its step names no key); a row past the printed chart's
//! end is no step.

use std::collections::{BTreeMap, BTreeSet};

use crate::module::{ChartDef, DataValue, Module, rule_of};

/// One step of a bot's flowchart and how often the games took it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The bot's name.
    pub bot: String,
    /// The step as its script writes it ("18.4.5.4, Round %d").
    pub step: String,
    /// The script and line that write it.
    pub at: String,
    /// How many times a reason matched it.
    pub reached: u64,
}

/// How often the counted reasons of `bot` matched `step`.
fn reached(bot_rules: &BTreeMap<String, u64>, bot: &str, step: &str) -> u64 {
    let prefix = format!("{bot}: ");
    bot_rules
        .iter()
        .filter_map(|(key, n)| key.strip_prefix(&prefix).map(|tag| (tag, n)))
        .filter(|(tag, _)| matches(step, tag))
        .map(|(_, n)| *n)
        .sum()
}

/// Every step of every bot of `module` that played (that has a counted reason in
/// `bot_rules`, keyed "bot: step", as a simulation reports them), with its count: the rows of
/// its charts kept as data, and the steps its script writes. A script's step that stands for
/// chart rows ("21.4, row %s") is not listed again beside them. A bot that did not play has
/// no step to reach (the French bot's chart is no gap in a game of the Allied bot).
pub fn steps(module: &Module, bot_rules: &BTreeMap<String, u64>) -> Vec<Step> {
    let played: BTreeSet<&str> = bot_rules
        .keys()
        .filter_map(|key| key.split_once(": ").map(|(bot, _)| bot))
        .collect();
    let mut rows: Vec<Step> = Vec::new();
    for table in module.tables.iter() {
        let Some(chart) = &table.chart else { continue };
        let Some(template) = &chart.step else {
            continue;
        };
        if !module.rules.bots.contains(&chart.bot) || !played.contains(chart.bot.as_str()) {
            continue;
        }
        for (key, value) in &table.entries {
            if past_end(chart, value) {
                continue;
            }
            let step = match module.chart_row(&table.id, key) {
                Some((Some(step), _)) => step,
                _ => template.clone(),
            };
            if rows.iter().any(|s| s.bot == chart.bot && s.step == step) {
                continue;
            }
            rows.push(Step {
                reached: reached(bot_rules, &chart.bot, &step),
                bot: chart.bot.clone(),
                step,
                at: format!("table {}", table.id),
            });
        }
    }
    let mut out: Vec<Step> = Vec::new();
    for script in &module.scripts {
        let Some(bot) = script
            .rel
            .strip_prefix("bots/")
            .and_then(|r| r.strip_suffix(".lua"))
            .filter(|b| module.rules.bots.iter().any(|known| known == b) && played.contains(b))
        else {
            continue;
        };
        for (line, literal) in string_literals(&script.text) {
            let Some(step) = rule_of(&literal) else {
                continue;
            };
            let charted = rows.iter().any(|r| r.bot == bot && matches(step, &r.step));
            if charted || out.iter().any(|s| s.bot == bot && s.step == step) {
                continue;
            }
            out.push(Step {
                bot: bot.to_owned(),
                step: step.to_owned(),
                at: format!("{}:{line}", script.rel),
                reached: reached(bot_rules, bot, step),
            });
        }
    }
    out.extend(rows);
    out
}

/// Whether a chart's row holds the value that marks it past the printed chart's end (no
/// step). A row not entered yet is a step: the owner may still enter a printed row there.
fn past_end(chart: &ChartDef, value: &DataValue) -> bool {
    match (value, &chart.past_end) {
        (DataValue::Known(v), Some(end)) => v.as_str() == Some(end.as_str()),
        _ => false,
    }
}

/// The quoted strings of a Lua script ("…" and '…', escapes kept as written), with the line
/// each begins on. Comments are skipped; long strings ([[…]]) are not steps.
fn string_literals(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        match chars[i] {
            '\n' => line += 1,
            '-' if chars.get(i + 1) == Some(&'-') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            quote @ ('"' | '\'') => {
                let (start, mut s) = (line, String::new());
                i += 1;
                while i < chars.len() && chars[i] != quote && chars[i] != '\n' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        s.push(chars[i]);
                        i += 1;
                    }
                    s.push(chars[i]);
                    i += 1;
                }
                out.push((start, s));
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Whether `tag` is what the format string `step` gives for some values of its
/// placeholders (`%d`, `%s`, `%+.1f`…: any words; `%%`: a percent sign).
fn matches(step: &str, tag: &str) -> bool {
    let mut pieces: Vec<String> = vec![String::new()];
    let mut chars = step.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            if let Some(p) = pieces.last_mut() {
                p.push(c);
            }
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            if let Some(p) = pieces.last_mut() {
                p.push('%');
            }
            continue;
        }
        // Flags, width and precision, then the conversion letter.
        while chars.peek().is_some_and(|c| !c.is_ascii_alphabetic()) {
            chars.next();
        }
        chars.next();
        pieces.push(String::new());
    }
    glob(&pieces, tag)
}

/// Whether `tag` is `pieces[0]`, then one or more characters, then `pieces[1]`, and so on.
fn glob(pieces: &[String], tag: &str) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return tag.is_empty();
    };
    let Some(left) = tag.strip_prefix(first.as_str()) else {
        return false;
    };
    if rest.is_empty() {
        return left.is_empty();
    }
    (1..=left.len())
        .filter(|k| left.is_char_boundary(*k))
        .any(|k| glob(rest, &left[k..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_matches_any_words() {
        assert!(matches("18.4.5.4, Round %d", "18.4.5.4, Round 2"));
        assert!(matches("18.4.7.2, operation %d", "18.4.7.2, operation 12"));
        assert!(!matches("18.4.5.4, Round %d", "18.4.5.5, Round 2"));
        assert!(matches("18.4.5.2", "18.4.5.2"));
        assert!(!matches("18.4.5.2", "18.4.5.2, Round 1"));
        assert!(matches("%s, %d", "Front A, 3"));
    }

    #[test]
    fn a_chart_kept_as_data_counts_each_row() {
        // The testbed's simple bot reads its objection chart (a table with a chart step):
        // each of the six faces is a step, reached when a reason names it; the script's
        // own "3.1, die %d", which stands for those rows, is not listed beside them.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modules/testbed");
        let options = crate::module::LoadOptions {
            overlay: crate::module::OverlayChoice::Off,
            strict: false,
        };
        let module = crate::script::load_module(&dir, &options).expect("the testbed loads");
        let counted = BTreeMap::from([
            ("simple: 3.1, die 6".to_owned(), 2),
            ("simple: 3.1, die 2".to_owned(), 1),
        ]);
        let charted: Vec<(String, u64, String)> = steps(&module, &counted)
            .into_iter()
            .filter(|s| s.step.starts_with("3.1"))
            .map(|s| (s.step, s.reached, s.at))
            .collect();
        let expected: Vec<(String, u64, String)> = (1..=6)
            .map(|face| {
                let n = [0, 1, 0, 0, 0, 2][face - 1];
                (
                    format!("3.1, die {face}"),
                    n,
                    "table objection_chart".to_owned(),
                )
            })
            .collect();
        assert_eq!(charted, expected);
        assert!(
            steps(&module, &BTreeMap::new()).is_empty(),
            "a bot that did not play has no step to reach"
        );
    }

    #[test]
    fn a_row_past_the_chart_s_end_is_no_step() {
        let chart = ChartDef {
            bot: "french_bot".into(),
            step: Some("21.5.1, row {key}".into()),
            past_end: Some("none".into()),
            key_words: Default::default(),
        };
        let known = |s: &str| DataValue::Known(crate::value::Value::Str(s.into()));
        assert!(past_end(&chart, &known("none")));
        assert!(!past_end(&chart, &known("trade")));
        assert!(
            !past_end(&chart, &DataValue::Unknown),
            "a row to enter is a step"
        );
        let open = ChartDef {
            past_end: None,
            ..chart
        };
        assert!(
            !past_end(&open, &known("none")),
            "without the marker every row is a step"
        );
    }

    #[test]
    fn literals_are_found_with_their_lines_and_comments_skipped() {
        let text = "-- \"not this\"\nlocal a = \"18.1: one\"\nt:step('18.2, %s: two \\' x')\n";
        assert_eq!(
            string_literals(text),
            vec![
                (2, "18.1: one".to_owned()),
                (3, "18.2, %s: two \\' x".to_owned())
            ]
        );
    }
}
