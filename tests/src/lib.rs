//! Helpers for Chancery's end-to-end tests (in `tests/tests/*.rs`): where the modules are,
//! loading them, copying one to a scratch folder to break it, and playing random legal
//! actions.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chancery_core::module::OverlayChoice;
use chancery_core::{
    Choice, GameSpec, Input, LoadOptions, Manual, Module, Session, SessionError, Value,
};

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The folder of one of the test modules (`tests/modules/<name>`).
pub fn test_module(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("modules")
        .join(name)
}

/// Load options without any owner's overlay (tests never read the user's files).
pub fn no_overlay() -> LoadOptions {
    LoadOptions {
        overlay: OverlayChoice::Off,
        strict: false,
    }
}

/// Starts a game of `module` with its Lua rules; panics if it cannot start.
pub fn start(module: &Arc<Module>, spec: GameSpec) -> Session {
    chancery_core::start_game(module.clone(), spec).expect("the game starts")
}

/// Loads a module folder without overlay; panics with the diagnostics if it fails.
pub fn load(dir: &Path) -> Arc<Module> {
    match chancery_core::load_module(dir, &no_overlay()) {
        Ok(module) => Arc::new(module),
        Err(diagnostics) => panic!("{} does not load:\n{diagnostics}", dir.display()),
    }
}

/// A copy of a module folder in a scratch folder, to change or break it.
pub fn copy_module(dir: &Path) -> (tempfile::TempDir, PathBuf) {
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let target = scratch
        .path()
        .join(dir.file_name().expect("a module folder name"));
    copy_dir(dir, &target);
    (scratch, target)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create folder");
    for entry in std::fs::read_dir(from).expect("read folder") {
        let entry = entry.expect("folder entry");
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).expect("copy file");
        }
    }
}

/// A copy of the module in `dir`, in a scratch folder, whose `rules/main.lua` is `rules`
/// (a test's own rules over the module's data).
pub fn with_rules(dir: &Path, rules: &str) -> (tempfile::TempDir, PathBuf) {
    let (scratch, copy) = copy_module(dir);
    std::fs::write(copy.join("rules/main.lua"), rules).expect("write the rules");
    (scratch, copy)
}

/// Replaces the first occurrence of `from` in a file (which must contain it).
pub fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read file");
    assert!(
        text.contains(from),
        "{} does not contain {from:?}",
        path.display()
    );
    std::fs::write(path, text.replacen(from, to, 1)).expect("write file");
}

/// A small deterministic generator for picking random actions in tests.
pub struct Picker(u64);

impl Picker {
    /// A picker from a seed.
    pub fn new(seed: u64) -> Self {
        Picker(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays up to `steps` random legal actions (numbers picked within ranges; dice supplied
/// when the rules ask). An action that needs data not entered yet is skipped for another.
/// Returns how many were played; stops early when the game ends or only actions that need
/// data are left.
pub fn random_walk(
    session: &mut Session,
    picker: &mut Picker,
    steps: usize,
) -> Result<usize, SessionError> {
    for played in 0..steps {
        let prompt = match session.prompt() {
            Ok(Some(prompt)) => prompt.clone(),
            Ok(None) => return Ok(played),
            Err(err) => return Err(SessionError::Rules(err.clone())),
        };
        // Several seats may decide at once: any of them answers, picked at random too.
        let ask = &prompt.asks[picker.below(prompt.asks.len())];
        // An action that gives something up (it asks a person to agree first, as
        // conceding) is taken only when nothing else is left: a walk plays on.
        let mut candidates: Vec<usize> = (0..ask.actions.len())
            .filter(|i| ask.actions[*i].confirm.is_none())
            .collect();
        if candidates.is_empty() {
            candidates = (0..ask.actions.len()).collect();
        }
        let mut applied = false;
        while !candidates.is_empty() && !applied {
            let action = &ask.actions[candidates.swap_remove(picker.below(candidates.len()))];
            let mut choice = action.choice();
            if let Some((lo, hi)) = action.range {
                let span = (hi - lo + 1) as usize;
                choice.arg = Value::Int(lo + picker.below(span) as i64);
            }
            let mut input = Input::Act {
                seat: ask.seat.clone(),
                choice,
                dice: Vec::new(),
                by: chancery_core::Actor::Human,
            };
            loop {
                match session.apply(input.clone()) {
                    Ok(()) => {
                        applied = true;
                        break;
                    }
                    Err(err) => match err.need() {
                        Some(chancery_core::Need::Die { sides }) => {
                            if let Input::Act { dice, .. } = &mut input {
                                dice.push(1 + picker.below(*sides as usize) as i64);
                            }
                        }
                        Some(chancery_core::Need::Data(_)) => break,
                        None => return Err(err),
                    },
                }
            }
        }
        if !applied {
            return Ok(played);
        }
    }
    Ok(steps)
}

/// Random legal play of each of `scenarios` of the module in `dir`, with its fixture of owner
/// data (`fixture`, a file of the module) and the set-up `options` (name, value), in seeds
/// `0..seeds`: each game plays until `done(session)` or its end, with the module's check
/// after every input. Panics, naming the scenario and seed, at the first error or when the
/// walk stops early.
pub fn random_play(
    dir: &Path,
    fixture: &str,
    scenarios: &[&str],
    options: &[(&str, &str)],
    seeds: u64,
    done: impl Fn(&Session) -> bool,
) {
    let load = LoadOptions {
        overlay: OverlayChoice::File(dir.join(fixture)),
        strict: false,
    };
    let module = Arc::new(chancery_core::load_module(dir, &load).expect("the module loads"));
    for scenario in scenarios {
        for seed in 0..seeds {
            let mut spec = GameSpec::new(*scenario, seed);
            spec.options = Value::Map(
                options
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), Value::Str((*v).to_owned())))
                    .collect(),
            );
            let mut session = start(&module, spec);
            session.check_every_step = true;
            let mut picker = Picker::new(seed);
            while !done(&session) && session.table().result.is_none() {
                let played = random_walk(&mut session, &mut picker, 1)
                    .unwrap_or_else(|e| panic!("{scenario}, seed {seed}: {e}"));
                assert_eq!(played, 1, "{scenario}, seed {seed}: the walk stopped");
            }
        }
    }
}

/// One more input of a long testbed game: bids, recruits (with a die of 1-5), detours and
/// their answers, and now and then a unit added by hand. None of them ends the game.
pub fn long_game_step(session: &mut Session, picker: &mut Picker) {
    let input = if session.table().top_frame().map(|f| f.state.as_str()) == Some("detour") {
        let yes = picker.below(2) == 0;
        Input::act(Choice {
            name: if yes { "yes" } else { "no" }.into(),
            arg: Value::Bool(yes),
        })
    } else {
        match picker.below(5) {
            0 | 1 => Input::act(Choice {
                name: "bid".into(),
                arg: Value::Int(picker.below(4) as i64),
            }),
            // The die is supplied (1-5): a 6 reads a row of the recruit table that is not
            // entered, which would stop the step to ask for it.
            2 => Input::Act {
                seat: None,
                choice: Choice {
                    name: "recruit".into(),
                    arg: Value::Nil,
                },
                dice: vec![1 + picker.below(5) as i64],
                by: chancery_core::Actor::Human,
            },
            3 => Input::act(Choice {
                name: "detour".into(),
                arg: Value::Nil,
            }),
            _ => Input::manual(Manual::AddUnits {
                boxed: "pool".into(),
                kind: "cav".into(),
                delta: 1,
            }),
        }
    };
    session
        .apply(input)
        .expect("every input of the long game is legal");
}

/// Plays the long testbed game until it has `inputs` inputs.
pub fn long_game(session: &mut Session, inputs: usize) {
    let mut picker = Picker::new(7);
    while session.history().len() < inputs {
        long_game_step(session, &mut picker);
    }
}
