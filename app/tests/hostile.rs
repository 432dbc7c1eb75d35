//! Hostile payloads in every place module code runs, through the command line as a user
//! meets them: when the module loads (`chancery check`), in its setup (`chancery new`), in
//! an action (`chancery act`), in a prompt, in a bot (`chancery sim`) and in a module test
//! (`chancery test`). Each run must end with exit 1 and a message that names the file and
//! line, within 3 seconds, with the process's peak memory under 1 GiB, writing nothing
//! outside the module folder; after an attack in an action the save is as it was and the
//! game goes on.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The engine's test module `name` (in `tests/modules`).
fn test_module(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/modules")
        .join(name)
}

/// Where module code runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Load,
    Setup,
    Action,
    Prompt,
    Bot,
    Test,
}

use Place::*;

/// Every place; a payload that needs `ctx` runs only where there is one.
const EVERYWHERE: &[Place] = &[Load, Setup, Action, Prompt, Bot, Test];
const WITH_CTX: &[Place] = &[Setup, Action];

/// One attack: Lua statements run as `payload(ctx)`, and what the error must say (one of
/// `expect`).
struct Payload {
    name: &'static str,
    code: &'static str,
    expect: &'static [&'static str],
    places: &'static [Place],
}

/// The start of the budget's message, whether the instruction count or the clock stopped
/// the call (an unoptimised build may reach the clock first).
const STOPPED: &str = "script stopped: it ran";

const PAYLOADS: &[Payload] = &[
    Payload {
        name: "endless loop",
        code: "while true do end",
        expect: &[STOPPED],
        places: EVERYWHERE,
    },
    Payload {
        name: "loop in pcall",
        code: "while true do pcall(function() while true do end end) end",
        expect: &[STOPPED],
        places: EVERYWHERE,
    },
    Payload {
        name: "loop in coroutines",
        code: "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        expect: &[STOPPED],
        places: EVERYWHERE,
    },
    Payload {
        name: "slow pattern",
        code: "local _ = string.rep('a', 400):find('.-.-.-b')",
        expect: &[STOPPED],
        places: EVERYWHERE,
    },
    Payload {
        name: "a gigabyte string",
        code: "local s = string.rep('x', 1024 * 1024 * 1024)",
        expect: &["out of memory"],
        places: EVERYWHERE,
    },
    Payload {
        name: "endless table",
        code: "local t = {} local i = 0 while true do i = i + 1 t[i] = string.rep('x', 1048576) .. i end",
        // Copying a megabyte per step, an unoptimised build may reach the clock first.
        expect: &["out of memory", STOPPED],
        places: EVERYWHERE,
    },
    Payload {
        name: "gsub with a huge replacement table",
        code: "local _ = string.rep('a', 2000):gsub('a', { a = string.rep('x', 100000000) })",
        expect: &["string.gsub: out of memory"],
        places: EVERYWHERE,
    },
    Payload {
        name: "gsub with a huge replacement function",
        code: "local big = string.rep('x', 100000000) local _ = string.rep('a', 2000):gsub('a', function() return big end)",
        expect: &["string.gsub: out of memory"],
        places: EVERYWHERE,
    },
    Payload {
        name: "recursion",
        code: "local function f(n) return f(n + 1) + 1 end f(1)",
        expect: &["stack overflow"],
        places: EVERYWHERE,
    },
    Payload {
        name: "C stack overflow",
        code: "local t = setmetatable({}, {}) getmetatable(t).__index = function(s, k) return s[k] end local _ = t.x",
        expect: &["C stack overflow"],
        places: EVERYWHERE,
    },
    Payload {
        name: "yield outside a coroutine",
        code: "coroutine.yield()",
        expect: &["attempt to yield from outside a coroutine"],
        places: EVERYWHERE,
    },
    Payload {
        name: "error with a table",
        code: "error({ code = 1 })",
        expect: &["error() was given a table, not a message"],
        places: EVERYWHERE,
    },
    Payload {
        name: "the io library",
        code: "local f = io.open('/etc/passwd')",
        expect: &["undeclared global 'io'"],
        places: EVERYWHERE,
    },
    Payload {
        name: "rawset into the string library",
        code: "rawset(string, 'rep', function() return 'changed' end)",
        expect: &["string is read-only (tried to set 'rep')"],
        places: EVERYWHERE,
    },
    Payload {
        name: "a global",
        code: "leaked = true",
        expect: &["assignment to undeclared global 'leaked'"],
        places: EVERYWHERE,
    },
    Payload {
        name: "a sort too large to interrupt",
        code: "local t = {} for i = 1, 2000000 do t[i] = -i end table.sort(t)",
        expect: &["table.sort: more than 1000000 items"],
        places: EVERYWHERE,
    },
    Payload {
        name: "a finalizer",
        code: "setmetatable({}, { __gc = function() while true do end end })",
        expect: &["__gc metamethods are not allowed"],
        places: EVERYWHERE,
    },
    Payload {
        name: "a table shared many times over in ctx.vars",
        code: "local t = {} for i = 1, 60 do t = { a = t, b = t } end ctx.vars.shared = t",
        expect: &["more than 100000 values to copy"],
        places: WITH_CTX,
    },
    Payload {
        name: "a cycle in ctx.vars",
        code: "local t = {} t.again = t ctx.vars.cycle = t",
        expect: &["the table contains itself"],
        places: WITH_CTX,
    },
    Payload {
        name: "infinity in ctx.vars",
        code: "ctx.vars.far = 1 / 0",
        expect: &["is not finite"],
        places: WITH_CTX,
    },
    Payload {
        name: "invalid UTF-8 in ctx.vars",
        code: "ctx.vars.text = '\\xff\\xfe'",
        expect: &["strings must be UTF-8 text"],
        places: WITH_CTX,
    },
    Payload {
        name: "a log without end",
        code: "while true do ctx:log(string.rep('x', 1000)) end",
        expect: &["more than 1000 log lines in one step"],
        places: WITH_CTX,
    },
    Payload {
        name: "a huge log line",
        code: "ctx:log(string.rep('x', 100000000))",
        expect: &["is too long (at most 10000)"],
        places: WITH_CTX,
    },
    Payload {
        name: "rawset into module data",
        code: "rawset(ctx.data.cards.c, 'name', 'changed')",
        expect: &["card 'c' is read-only"],
        places: &[Setup, Action, Prompt, Bot],
    },
    Payload {
        name: "a million actions",
        code: "local actions = {} for i = 1, 1000000 do actions[i] = { name = 'ok', arg = i } end return { seat = 'P', text = 'Pick', actions = actions }",
        expect: &["more than the 10000 a decision may offer"],
        places: &[Prompt],
    },
    Payload {
        name: "NaN as an action's argument",
        code: "return { seat = 'P', text = 'Pick', actions = { { name = 'ok', arg = 0 / 0 } } }",
        expect: &["the prompt it returned: action 1: arg: the number NaN is not finite"],
        places: &[Prompt],
    },
    Payload {
        name: "a bot's 100 MB reason",
        code: "return 1, string.rep('why ', 25000000)",
        expect: &["a reason of 100000000 bytes is too long"],
        places: &[Bot],
    },
    Payload {
        name: "a bot's illegal pick",
        code: "return { name = 'attack', arg = 'everything' }, 'because'",
        expect: &["which is not one of the legal actions"],
        places: &[Bot],
    },
];

/// The rules of the generated module: `payload(ctx)` runs in `place` only.
fn rules(payload: &str, place: Place) -> String {
    let at = |p: Place| if p == place { "true" } else { "false" };
    format!(
        r#"-- Generated: runs one hostile payload in one place.
local function payload(ctx, actions)
  {payload}
end

if {load} then payload(nil) end

local lab = {{}}

function lab.prompt(ctx)
  if {prompt} then
    local prompt = payload(ctx)
    if prompt then return prompt end
  end
  return {{ seat = "P", text = "Pick", actions = {{ {{ name = "ok" }}, {{ name = "attack" }} }} }}
end

function lab.ok(ctx)
  ctx:add_counter("ok", 1)
end

function lab.attack(ctx)
  if {action} then payload(ctx) end
end

return {{
  setup = function(ctx)
    if {setup} then payload(ctx) end
    ctx:push("lab")
  end,
  states = {{ lab = lab }},
  bots = {{
    attacker = function(ctx, seat, actions)
      if {bot} then
        local pick, why = payload(ctx, actions)
        if pick then return pick, why end
      end
      return 1, "the first"
    end,
  }},
}}
"#,
        load = at(Load),
        prompt = at(Prompt),
        action = at(Action),
        setup = at(Setup),
        bot = at(Bot),
    )
}

/// A scratch folder holding the generated module (`module/`) and nothing else.
struct Lab {
    scratch: tempfile::TempDir,
}

impl Lab {
    fn new(payload: &str, place: Place) -> Lab {
        let scratch = tempfile::tempdir().expect("a scratch folder");
        let dir = scratch.path().join("module");
        let source = test_module("hostile");
        std::fs::create_dir_all(dir.join("data")).expect("mkdir");
        std::fs::create_dir_all(dir.join("rules")).expect("mkdir");
        for file in ["module.ron", "data/table.ron", "data/scenarios.ron"] {
            std::fs::copy(source.join(file), dir.join(file)).expect("copy");
        }
        std::fs::write(dir.join("rules/main.lua"), rules(payload, place)).expect("write");
        if place == Test {
            std::fs::create_dir_all(dir.join("tests")).expect("mkdir");
            std::fs::write(
                dir.join("tests/attack.lua"),
                format!("test(\"attack\", function(t)\n  {payload}\nend)\n"),
            )
            .expect("write");
        }
        Lab { scratch }
    }

    fn dir(&self) -> PathBuf {
        self.scratch.path().join("module")
    }

    fn save(&self) -> PathBuf {
        self.scratch.path().join("game.ron")
    }

    /// What the scratch folder holds besides the module: only the save, if any.
    fn outside(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.scratch.path())
            .expect("list")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "module")
            .collect();
        names.sort();
        names
    }
}

/// One run of the command line: exit code, what it printed, how long, its peak memory.
struct Run {
    code: i32,
    text: String,
    took: Duration,
    peak_kib: u64,
}

fn chancery(args: &[&str], cwd: &Path) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(args)
        .current_dir(cwd)
        .env("CHANCERY_HOME", cwd.join("home"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chancery starts");
    // The kernel keeps each process's high-water mark of memory: read it until it exits.
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            break child.wait().expect("wait");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = started.elapsed();
    let output = child.wait_with_output().expect("output");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Run {
        code: status.code().unwrap_or(-1),
        text,
        took,
        peak_kib,
    }
}

/// The command that makes module code run in `place`.
fn attack_in(lab: &Lab, place: Place) -> Run {
    let dir = lab.dir().display().to_string();
    let save = lab.save().display().to_string();
    let cwd = lab.scratch.path();
    match place {
        Load => chancery(&["check", &dir], cwd),
        Setup | Prompt => chancery(&["new", &dir, "--out", &save], cwd),
        Action => chancery(&["act", &save, "attack"], cwd),
        Bot => chancery(
            &[
                "sim",
                &dir,
                "--games",
                "5",
                "--threads",
                "1",
                "--bot",
                "P=attacker",
            ],
            cwd,
        ),
        Test => chancery(&["test", &dir], cwd),
    }
}

/// Runs every payload meant for `place` there and checks how each run ended.
fn attack_everything_in(place: Place) {
    let mut failures = Vec::new();
    let mut tried = 0;
    let (mut slowest, mut largest) = (Duration::ZERO, 0);
    for payload in PAYLOADS.iter().filter(|p| p.places.contains(&place)) {
        tried += 1;
        let lab = Lab::new(payload.code, place);
        if place == Action {
            let dir = lab.dir().display().to_string();
            let save = lab.save().display().to_string();
            let started = chancery(&["new", &dir, "--out", &save], lab.scratch.path());
            assert_eq!(started.code, 0, "the game starts: {}", started.text);
        }
        let saved_before = std::fs::read(lab.save()).ok();
        let run = attack_in(&lab, place);
        slowest = slowest.max(run.took);
        largest = largest.max(run.peak_kib);
        let file = if place == Test {
            "tests/attack.lua:"
        } else {
            "rules/main.lua:"
        };
        let mut wrong = Vec::new();
        if run.code != 1 {
            wrong.push(format!("exit {} (not 1)", run.code));
        }
        if !run.text.contains(file) {
            wrong.push(format!("no {file}LINE"));
        }
        if !payload.expect.iter().any(|e| run.text.contains(e)) {
            wrong.push(format!("none of {:?}", payload.expect));
        }
        if run.took > Duration::from_secs(3) {
            wrong.push(format!("took {:?}", run.took));
        }
        if run.peak_kib > 1024 * 1024 {
            wrong.push(format!("peak memory {} MiB", run.peak_kib / 1024));
        }
        let expected_outside: Vec<String> = match place {
            Action | Prompt | Setup => vec!["game.ron".to_owned()],
            _ => Vec::new(),
        };
        let outside: Vec<String> = lab.outside().into_iter().filter(|n| n != "home").collect();
        if !outside.iter().all(|n| expected_outside.contains(n)) {
            wrong.push(format!("wrote outside the module: {outside:?}"));
        }
        if place == Action {
            if std::fs::read(lab.save()).ok() != saved_before {
                wrong.push("the save changed".to_owned());
            }
            let save = lab.save().display().to_string();
            let next = chancery(&["act", &save, "ok"], lab.scratch.path());
            if next.code != 0 {
                wrong.push(format!("the game does not go on: {}", next.text));
            }
        }
        if place == Bot
            && run
                .text
                .matches("failed, so the simulation stopped")
                .count()
                != 1
        {
            wrong.push("the bot's error is not said once, stopping the simulation".to_owned());
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "{} in {place:?}: {}\n{}",
                payload.name,
                wrong.join("; "),
                run.text.lines().take(6).collect::<Vec<_>>().join("\n")
            ));
        }
    }
    assert!(tried > 0);
    // Shown with --nocapture: the figures of the run.
    println!(
        "{place:?}: {tried} attacks, {} held, slowest {slowest:?}, largest peak {} MiB",
        tried - failures.len(),
        largest / 1024
    );
    assert!(
        failures.is_empty(),
        "{} of {tried} attacks in {place:?} were not held:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn attacks_when_the_module_loads() {
    attack_everything_in(Load);
}

#[test]
fn attacks_in_the_setup() {
    attack_everything_in(Setup);
}

#[test]
fn attacks_in_an_action_leave_the_save_and_the_game_as_they_were() {
    attack_everything_in(Action);
}

#[test]
fn attacks_in_a_prompt() {
    attack_everything_in(Prompt);
}

#[test]
fn attacks_in_a_bot_stop_the_simulation_once() {
    attack_everything_in(Bot);
}

#[test]
fn attacks_in_a_module_test() {
    attack_everything_in(Test);
}
