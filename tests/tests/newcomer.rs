//! Every module played from its README by someone new, through the command line as a person
//! reads it: start a game as the README says (`chancery new modules/X`), with nothing
//! entered (an empty overlay of one's own) and with `--demo`, then read `chancery state`,
//! pick one of the listed choices at random, and answer each value the game asks for with
//! the example its own message gives. Two hundred inputs each, a game that ends is started
//! again: no panic, no error that leaves the game stuck, no decision without a choice.
//!
//! An answer may be refused — a value typed from the example can close the choice it was
//! asked for ("that card is not Austria's") — but it must be refused in words, with nothing
//! applied, and only now and then.

mod common;

use std::path::{Path, PathBuf};

use common::{chancery_as_typed, path};

/// A small random source (xorshift), seeded per walk so that a failure replays.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The value in "… for example --value VALUE; …", unquoted as a shell would.
fn example_value(text: &str) -> Option<String> {
    let rest = &text[text.find("for example --value ")? + "for example --value ".len()..];
    if let Some(quoted) = rest.strip_prefix('\'') {
        // 'it'\''s' as a shell reads it.
        let mut out = String::new();
        let mut chars = quoted.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '\'' {
                out.push(c);
            } else if quoted_escape(&mut chars) {
                out.push('\'');
            } else {
                return Some(out);
            }
        }
        return None;
    }
    Some(rest.split(';').next()?.trim().to_owned())
}

/// After a `'` inside quotes: whether `\''` follows (an escaped quote), consumed if so.
fn quoted_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> bool {
    let mut ahead = chars.clone();
    if ahead.next() == Some('\\') && ahead.next() == Some('\'') && ahead.next() == Some('\'') {
        chars.nth(2);
        return true;
    }
    false
}

/// The numbered choices of a decision as `state` lists them: (number, what `[act: …]` says).
fn choices(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| {
            let (n, rest) = line.trim_start().split_once(". ")?;
            n.parse::<usize>().ok()?;
            let act = rest.rsplit_once("[act: ")?.1.strip_suffix(']')?;
            Some((n.to_owned(), act.to_owned()))
        })
        .collect()
}

/// The human seats (ids) that `Waiting for: France (FR, human), …` or `… (FR, human) decides`
/// names.
fn deciders(text: &str) -> Vec<String> {
    let line = text
        .lines()
        .find(|l| l.starts_with("Waiting for: ") || l.contains(", human) decides"))
        .unwrap_or("");
    let parts: Vec<&str> = line.split(", human)").collect();
    // Each piece but the last ends with "Name (ID".
    parts[..parts.len() - 1]
        .iter()
        .filter_map(|part| Some(part.rsplit_once('(')?.1.to_owned()))
        .collect()
}

struct Walk {
    module: PathBuf,
    save: PathBuf,
    /// `--overlay FILE` (nothing entered yet), or `--demo`.
    load: Vec<String>,
    dice: Dice,
    refused: usize,
    games: usize,
    /// What the last command printed of the game, which `act` ends with as `state` would.
    shown: Option<String>,
}

impl Walk {
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(self.load.iter().map(String::as_str));
        let (code, out, err) = chancery_as_typed(&all);
        assert!(
            !err.contains("panicked") && !out.contains("panicked"),
            "{all:?}: {out}{err}"
        );
        // The module's files do not change during the walk: a value entered is not a
        // changed module.
        assert!(!err.contains("replays differently"), "{all:?}: {err}");
        (code, out, err)
    }

    fn new_game(&mut self) {
        let seed = (self.dice.below(1_000_000) + 1).to_string();
        let (code, out, err) = self.run(&[
            "new",
            path(&self.module),
            "--out",
            path(&self.save),
            "--force",
            "--seed",
            &seed,
        ]);
        assert_eq!(code, 0, "new {}: {out}{err}", self.module.display());
        assert!(err.trim().is_empty(), "new printed an error: {err}");
        self.games += 1;
        self.shown = Some(out);
        self.json_reads_cleanly();
    }

    /// The table as JSON, for scripts, comes with the module's view and no error beside it.
    fn json_reads_cleanly(&self) {
        let (code, out, err) = self.run(&["state", path(&self.save), "--json"]);
        assert_eq!(code, 0, "state --json: {err}");
        assert!(err.trim().is_empty(), "state --json: {err}");
        serde_json::from_str::<serde_json::Value>(&out).expect("state --json is JSON");
    }

    /// One input a person would give now: a value asked for, or one listed choice.
    fn step(&mut self) {
        let save = path(&self.save).to_owned();
        let text = match self.shown.take() {
            Some(text) => text,
            None => {
                let (code, text, err) = self.run(&["state", &save]);
                assert_eq!(code, 0, "state: {text}{err}");
                text
            }
        };
        if text.contains("The game is over") {
            self.new_game();
            return;
        }
        if text.contains("for example --value ") {
            let value = example_value(&text).expect("an example to type");
            let (code, out, err) = self.run(&["act", &save, "--value", &value]);
            assert_eq!(code, 0, "--value {value}: {out}{err}");
            self.shown = Some(out);
            return;
        }
        let seats = deciders(&text);
        let seat = (!seats.is_empty()).then(|| seats[self.dice.below(seats.len())].clone());
        let listed = match &seat {
            Some(seat) => self.run(&["state", &save, "--seat", seat]).1,
            None => text.clone(),
        };
        let listed_choices = choices(&listed);
        assert!(
            !listed_choices.is_empty(),
            "a decision without a choice to take:\n{listed}"
        );
        let (n, act) = &listed_choices[self.dice.below(listed_choices.len())];
        let mut args = vec!["act".to_owned(), save.clone()];
        // A number in a range ("bid <0..100>") is typed after the action's name.
        match act
            .split_once(" <")
            .and_then(|(name, range)| Some((name, range.strip_suffix('>')?.split_once("..")?)))
        {
            Some((name, (low, high))) => {
                let (low, high): (i64, i64) = (
                    low.parse().expect("a range's low end"),
                    high.parse().expect("a range's high end"),
                );
                let pick = low + self.dice.below((high - low + 1) as usize) as i64;
                args.extend([name.to_owned(), pick.to_string()]);
            }
            None => args.push(n.clone()),
        }
        if let Some(seat) = &seat {
            args.extend(["--seat".to_owned(), seat.clone()]);
        }
        // Die rolls and values the rules ask for, given as the message says, until taken.
        for _ in 0..40 {
            let typed: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, out, err) = self.run(&typed);
            if code == 0 {
                // One seat's view after a secret choice: read the whole table again.
                self.shown = seat.is_none().then_some(out);
                return;
            }
            if let Some(sides) = err
                .split("-sided die roll")
                .next()
                .and_then(|s| s.rsplit(' ').next())
                .and_then(|s| s.parse::<usize>().ok())
                .filter(|_| err.contains("--dice"))
            {
                args.extend([
                    "--dice".to_owned(),
                    (self.dice.below(sides) + 1).to_string(),
                ]);
            } else if err.contains("not entered yet")
                && let Some(value) = example_value(&err)
            {
                match args.iter().position(|a| a == "--value") {
                    Some(i) => args[i + 1] = value,
                    None => args.extend(["--value".to_owned(), value]),
                }
            } else {
                // Refused in words, with the game as it was: never the rules failing.
                assert!(
                    err.contains("nothing was applied") && !err.contains(".lua:"),
                    "{typed:?} failed: {out}{err}"
                );
                self.refused += 1;
                return;
            }
        }
        panic!("{args:?}: still asking after 40 values and dice");
    }
}

fn play_from_readme(module: &Path, demo: bool, seed: u64) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let load = match demo {
        true => vec!["--demo".to_owned()],
        // The person's own overlay, nothing entered in it yet.
        false => vec![
            "--overlay".to_owned(),
            path(&dir.path().join("mine.ron")).to_owned(),
        ],
    };
    let mut walk = Walk {
        module: module.to_path_buf(),
        save: dir.path().join("game.ron"),
        load,
        dice: Dice(seed),
        refused: 0,
        games: 0,
        shown: None,
    };
    walk.new_game();
    const INPUTS: usize = 200;
    for n in 1..=INPUTS {
        walk.step();
        if n % 50 == 0 {
            walk.json_reads_cleanly();
        }
    }
    assert!(
        walk.refused * 5 <= INPUTS,
        "{} of {INPUTS} answers refused",
        walk.refused
    );
}

fn module(name: &str) -> PathBuf {
    chancery_tests::repo_root().join("modules").join(name)
}

macro_rules! newcomer_plays {
    ($($test:ident: $module:expr, $demo:expr;)*) => {$(
        #[test]
        fn $test() {
            play_from_readme(&$module, $demo, 0x9e37_79b9_7f4a_7c15);
        }
    )*};
}

newcomer_plays! {
    congress_of_vienna_with_nothing_entered: module("cov"), false;
    congress_of_vienna_demo: module("cov"), true;
    aftermath: module("aftermath"), false;
    aftermath_demo: module("aftermath"), true;
    war_and_peace_with_nothing_entered: module("warpeace"), false;
    war_and_peace_demo: module("warpeace"), true;
    la_guerre_de_l_empereur_with_nothing_entered: module("guerre"), false;
    la_guerre_de_l_empereur_demo: module("guerre"), true;
    the_campaign_with_nothing_entered: module("campaign"), false;
    the_campaign_demo: module("campaign"), true;
}

/// The scaffold `chancery module new` writes, played as its README says.
#[test]
fn the_scaffold() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let (code, out, err) =
        chancery_as_typed(&["module", "new", "mygame", "--dir", path(dir.path())]);
    assert_eq!(code, 0, "{out}{err}");
    let scaffold = dir.path().join("mygame");
    play_from_readme(&scaffold, false, 7);
    play_from_readme(&scaffold, true, 11);
}

#[test]
fn the_example_to_type_is_read_as_a_shell_reads_it() {
    assert_eq!(
        example_value("give it with --value VALUE (one of, for example --value pro; it is kept"),
        Some("pro".to_owned())
    );
    assert_eq!(
        example_value(r#"for example --value '{"FR": 3}'; it is kept"#),
        Some(r#"{"FR": 3}"#.to_owned())
    );
    assert_eq!(
        example_value(r"for example --value 'it'\''s'; it is kept"),
        Some("it's".to_owned())
    );
    assert_eq!(
        deciders("Waiting for: France (FR, human), Austria (AU, human)."),
        ["FR", "AU"]
    );
    assert_eq!(
        choices("   1. Begin turn 2   [act: begin]\n  12. Bid   [act: bid <0..100>]"),
        [
            ("1".to_owned(), "begin".to_owned()),
            ("12".to_owned(), "bid <0..100>".to_owned())
        ]
    );
}
