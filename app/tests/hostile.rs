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
        name: "a secret roll to a list of 100,000 seats",
        code: "local t = {} for i = 1, 99998 do t[i] = 'P' end t[99999] = 'nobody' ctx:roll(6, 'r', t)",
        expect: &["'nobody' is not a seat of this game"],
        places: WITH_CTX,
    },
    Payload {
        name: "a sight of 100,000 seats",
        code: "local t = {} for i = 1, 99998 do t[i] = 'P' end t[99999] = 'nobody' ctx:set_sight('box', 'pool', t)",
        expect: &["'nobody' is not a seat of this game"],
        places: WITH_CTX,
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
    // Its output is read while it runs, so that a long message never blocks it.
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            text
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as _));
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
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&stdout.join().unwrap_or_default()),
        String::from_utf8_lossy(&stderr.join().unwrap_or_default())
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

// ---------------------------------------------------------------------------------------
// Attacks through what a user hands Chancery besides module code: board images, nested
// input, huge files, forged shards and saves naming foreign paths. Each must end with a
// clear message (exit 1 from the command line), within 3 seconds and under 1 GiB, and
// change no file it was not asked to.

/// One group's attacks: each a name and whether it held (with what happened if not).
struct Group {
    name: &'static str,
    results: Vec<(String, Result<(), String>)>,
}

impl Group {
    fn new(name: &'static str) -> Group {
        Group {
            name,
            results: Vec::new(),
        }
    }

    /// A command-line attack: it must exit 1 saying `expect`, within the time and memory
    /// bounds.
    fn run(&mut self, attack: &str, run: Run, expect: &str) {
        let held = if run.code != 1 {
            Err(format!("exit {} (not 1): {}", run.code, run.text))
        } else if !run.text.contains(expect) {
            Err(format!("the message lacks '{expect}': {}", run.text))
        } else if run.took > Duration::from_secs(3) {
            Err(format!("took {:?}", run.took))
        } else if run.peak_kib > 1024 * 1024 {
            Err(format!("peaked at {} MiB", run.peak_kib / 1024))
        } else {
            Ok(())
        };
        self.results.push((attack.to_owned(), held));
    }

    /// An attack checked otherwise: `held` says how it ended.
    fn check(&mut self, attack: &str, held: Result<(), String>) {
        self.results.push((attack.to_owned(), held));
    }

    /// Prints the group's count (shown with --nocapture) and fails on any attack not held.
    fn finish(self) {
        let failed: Vec<String> = self
            .results
            .iter()
            .filter_map(|(name, held)| held.as_ref().err().map(|e| format!("{name}: {e}")))
            .collect();
        println!(
            "{}: {} attacks, {} held, {} failed",
            self.name,
            self.results.len(),
            self.results.len() - failed.len(),
            failed.len()
        );
        assert!(
            failed.is_empty(),
            "{}: not held:\n{}",
            self.name,
            failed.join("\n\n")
        );
    }
}

/// A testbed game saved in `dir` (two bids played), for attacks on a save.
fn testbed_save(dir: &Path) -> PathBuf {
    let save = dir.join("game.ron");
    let answers = dir.join("two-bids.txt");
    std::fs::write(&answers, "bid 1\nbid 2\n").expect("write");
    let testbed = test_module("testbed").display().to_string();
    let run = chancery(
        &[
            "new",
            &testbed,
            "--no-overlay",
            "--seed",
            "3",
            "--answers",
            &answers.display().to_string(),
            "--out",
            &save.display().to_string(),
        ],
        dir,
    );
    assert_eq!(run.code, 0, "{}", run.text);
    save
}

/// Copies the folder `from` to `to`.
fn copy(from: &Path, to: &Path) {
    let copied = Command::new("cp")
        .arg("-r")
        .arg(from)
        .arg(to)
        .status()
        .expect("cp");
    assert!(copied.success());
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success());
}

/// Board images that would panic, hang or exhaust the app: each is refused (or scaled) at
/// once, and the window's reading never blocks.
#[test]
fn attacks_through_the_owner_s_board_image() {
    use chancery::gui::picture::read_image;
    let scratch = tempfile::tempdir().expect("scratch");
    let mut group = Group::new("board images");
    let timed = |path: &Path| {
        let (tell, answer) = std::sync::mpsc::channel();
        let path = path.to_path_buf();
        std::thread::spawn(move || {
            let _ = tell.send(read_image(&path, 2048));
        });
        answer
            .recv_timeout(Duration::from_secs(3))
            .map_err(|_| "still reading after 3 s".to_owned())
    };
    // A 1 KB PNG 20,000 pixels wide: drawn scaled to the graphics card's largest texture.
    let wide = scratch.path().join("wide.png");
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, 20_000, 1);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("header");
        writer
            .write_image_data(&vec![128; 20_000 * 4])
            .expect("pixels");
    }
    std::fs::write(&wide, &bytes).expect("write");
    group.check(
        "a PNG 20,000 pixels wide",
        match timed(&wide) {
            Ok(Ok(image)) if image.size[0] <= 2048 => Ok(()),
            other => Err(format!("{:?}", other.map(|r| r.map(|i| i.size)))),
        },
    );
    // A PNG header claiming 16,000 × 16,000 pixels: refused before any decoding.
    let huge = scratch.path().join("huge.png");
    let mut header = bytes[..33].to_vec();
    header[16..20].copy_from_slice(&16_000u32.to_be_bytes());
    header[20..24].copy_from_slice(&16_000u32.to_be_bytes());
    let crc = png_crc(&header[12..29]);
    header[29..33].copy_from_slice(&crc.to_be_bytes());
    // An empty image data chunk and the end: a file of 57 bytes.
    for (kind, data) in [(&b"IDAT"[..], &b""[..]), (&b"IEND"[..], &b""[..])] {
        header.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut chunk = kind.to_vec();
        chunk.extend_from_slice(data);
        header.extend_from_slice(&chunk);
        header.extend_from_slice(&png_crc(&chunk).to_be_bytes());
    }
    std::fs::write(&huge, &header).expect("write");
    let refused = |what: Result<Result<egui::ColorImage, String>, String>, expect: &str| match what
    {
        Ok(Err(message)) if message.contains(expect) => Ok(()),
        other => Err(format!("{:?}", other.map(|r| r.map(|i| i.size)))),
    };
    group.check(
        "a 16,000 × 16,000 scan",
        refused(timed(&huge), "16000 × 16000 pixels"),
    );
    let fifo = scratch.path().join("board.png");
    mkfifo(&fifo);
    group.check(
        "a pipe named as the image",
        refused(timed(&fifo), "not a regular file"),
    );
    group.check(
        "/dev/urandom named as the image",
        refused(timed(Path::new("/dev/urandom")), "not a regular file"),
    );
    let big = scratch.path().join("big.jpg");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(65 * 1024 * 1024))
        .expect("a sparse file");
    group.check(
        "a 65 MiB file",
        refused(timed(&big), "larger than the 64 MiB"),
    );
    group.finish();
}

/// PNG's CRC-32 of a chunk's type and data.
fn png_crc(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                0xedb8_8320 ^ (crc >> 1)
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// About 40,000 nested brackets wherever a person types a value: refused as what it is,
/// never a stack overflow.
#[test]
fn attacks_with_deeply_nested_input() {
    let scratch = tempfile::tempdir().expect("scratch");
    let cwd = scratch.path();
    let save = testbed_save(cwd);
    let before = std::fs::read(&save).expect("read");
    let nested = format!("{}1{}", "[".repeat(40_000), "]".repeat(40_000));
    let mut group = Group::new("nested input");
    let s = save.display().to_string();
    group.run(
        "act with a nested argument",
        chancery(&["act", &s, "bid", &nested, "--no-overlay"], cwd),
        "is not a legal action",
    );
    let answers = cwd.join("nested.txt");
    std::fs::write(&answers, format!("bid {nested}\n")).expect("write");
    group.run(
        "an answers file",
        chancery(
            &[
                "act",
                &s,
                "--answers",
                &answers.display().to_string(),
                "--no-overlay",
            ],
            cwd,
        ),
        "nested.txt:1:",
    );
    let testbed = test_module("testbed").display().to_string();
    group.run(
        "--option",
        chancery(
            &[
                "new",
                &testbed,
                "--no-overlay",
                "--option",
                &format!("deep={nested}"),
                "--out",
                &cwd.join("new.ron").display().to_string(),
            ],
            cwd,
        ),
        "has no option 'deep'",
    );
    group.check(
        "the save",
        (std::fs::read(&save).expect("read") == before)
            .then_some(())
            .ok_or_else(|| "the save changed".to_owned()),
    );
    // A module test's inputs: the module's own code hands the engine the nested text.
    let lab = tempfile::tempdir().expect("scratch");
    let module = lab.path().join("testbed");
    copy(&test_module("testbed"), &module);
    std::fs::write(
        module.join("tests/nested.lua"),
        "-- Rule: none. Set-up: a game whose input nests 40,000 deep. Expected: refused.\n\
         test(\"nested input\", function(t)\n  \
           t:game { scenario = \"basic\", inputs = { \"bid \" .. string.rep(\"[\", 40000) .. \"1\" .. string.rep(\"]\", 40000) } }\n\
         end)\n",
    )
    .expect("write");
    group.run(
        "a module test's inputs",
        chancery(
            &["test", &module.display().to_string(), "--no-overlay"],
            lab.path(),
        ),
        "nested input",
    );
    group.finish();
}

/// A recorded game of 10,000 inputs, checked by `chancery test` in time linear in it: at
/// most 20 times what a game of 1,000 inputs takes (measured: about 4 times, the module's
/// own tests included; a check that replayed the game from its start for each input
/// would take about 50 times). A bound in seconds depended on the machine and on the
/// tests running beside it: 3 s held on one host and not on a slower one.
fn a_long_recording(group: &mut Group, cwd: &Path) {
    let short = recorded_game(cwd, 1_000);
    let long = recorded_game(cwd, 10_000);
    group.check(
        "a recorded game of 10,000 inputs",
        if short.code != 0 {
            Err(short.text)
        } else if long.code != 0 {
            Err(long.text)
        } else if long.took > short.took * 20 {
            Err(format!(
                "took {:?}, against {:?} for 1,000 inputs",
                long.took, short.took
            ))
        } else {
            Ok(())
        },
    );
}

/// `chancery test` run on a copy of the testbed that holds a recorded game of `inputs`
/// notes typed by hand.
fn recorded_game(cwd: &Path, inputs: usize) -> Run {
    let lab = cwd.join(format!("lab-{inputs}"));
    std::fs::create_dir_all(&lab).expect("mkdir");
    let module = lab.join("testbed");
    copy(&test_module("testbed"), &module);
    let notes = cwd.join(format!("notes-{inputs}.txt"));
    let lines: String = (0..inputs)
        .map(|i| format!("by hand: note n{i}\n"))
        .collect();
    std::fs::write(&notes, lines).expect("write");
    let save = cwd.join(format!("game-{inputs}.ron")).display().to_string();
    let made = chancery(
        &[
            "new",
            &module.display().to_string(),
            "--no-overlay",
            "--answers",
            &notes.display().to_string(),
            "--out",
            &save,
        ],
        cwd,
    );
    assert_eq!(made.code, 0, "{}", made.text);
    let recorded = module.join("tests/replays/long.ron").display().to_string();
    let made = chancery(&["record", &save, "--out", &recorded], cwd);
    assert_eq!(made.code, 0, "{}", made.text);
    chancery(
        &["test", &module.display().to_string(), "--no-overlay"],
        cwd,
    )
}

/// Huge files and counts: a device as an answers file, a shard, an overlay or a save; a
/// note of 10 MB; ten million games in one run. Each is refused at once, in little memory.
#[test]
fn attacks_with_huge_files_and_counts() {
    let scratch = tempfile::tempdir().expect("scratch");
    let cwd = scratch.path();
    let save = testbed_save(cwd);
    let s = save.display().to_string();
    let before = std::fs::read(&save).expect("read");
    let testbed = test_module("testbed").display().to_string();
    let mut group = Group::new("huge files");
    group.run(
        "/dev/zero as an answers file",
        chancery(&["act", &s, "--answers", "/dev/zero", "--no-overlay"], cwd),
        "not a regular file",
    );
    group.run(
        "/dev/zero as a shard",
        chancery(&["sim", "merge", "/dev/zero"], cwd),
        "not a regular file",
    );
    group.run(
        "/dev/zero as an overlay",
        chancery(&["check", &testbed, "--overlay", "/dev/zero"], cwd),
        "not a regular file",
    );
    group.run(
        "/dev/zero as a save",
        chancery(&["state", "/dev/zero"], cwd),
        "not a regular file",
    );
    let note = cwd.join("note.txt");
    std::fs::write(&note, format!("by hand: note {}\n", "x".repeat(10_000_000))).expect("write");
    group.run(
        "a 10 MB note",
        chancery(
            &[
                "act",
                &s,
                "--answers",
                &note.display().to_string(),
                "--no-overlay",
            ],
            cwd,
        ),
        "too long",
    );
    group.check(
        "the save after them",
        (std::fs::read(&save).expect("read") == before)
            .then_some(())
            .ok_or_else(|| "the save changed".to_owned()),
    );
    let overlay = cwd.join("naming-nothing.ron");
    let entries: String = (0..40_000)
        .map(|i| format!("  \"nothing{i}\": {{\"value\": 1}},\n"))
        .collect();
    std::fs::write(
        &overlay,
        format!("Overlay(module: \"testbed\", cards: {{\n{entries}}})\n"),
    )
    .expect("write");
    group.run(
        "an overlay of 40,000 entries naming nothing",
        chancery(
            &[
                "check",
                &testbed,
                "--overlay",
                &overlay.display().to_string(),
            ],
            cwd,
        ),
        "39900 more problem(s) in this file are not listed",
    );
    a_long_recording(&mut group, cwd);
    group.run(
        "ten million games in one run",
        chancery(
            &["sim", &testbed, "--games", "10000000", "--no-overlay"],
            cwd,
        ),
        "--shard I/N",
    );
    group.run(
        "a misspelled --option in a simulation",
        chancery(
            &[
                "sim",
                &testbed,
                "--games",
                "2",
                "--option",
                "sead=1",
                "--no-overlay",
            ],
            cwd,
        ),
        "has no option 'sead'",
    );
    group.finish();
}

/// Shard `i` of 2 of a six-game run of the testbed, as the JSON `sim --shard` prints.
fn testbed_shard(testbed: &str, i: usize, cwd: &Path) -> serde_json::Value {
    let run = chancery(
        &[
            "sim",
            testbed,
            "--games",
            "6",
            "--seed",
            "1",
            "--threads",
            "1",
            "--shard",
            &format!("{i}/2"),
            "--no-overlay",
        ],
        cwd,
    );
    assert_eq!(run.code, 0, "{}", run.text);
    serde_json::from_str(
        run.text
            .lines()
            .find(|l| l.starts_with('{'))
            .expect("the shard"),
    )
    .expect("JSON")
}

/// Shard files forged or mixed up: each is refused with what is wrong before anything is
/// merged.
#[test]
fn attacks_with_forged_shard_files() {
    let scratch = tempfile::tempdir().expect("scratch");
    let cwd = scratch.path();
    let testbed = test_module("testbed").display().to_string();
    let shard = |i: usize| testbed_shard(&testbed, i, cwd);
    let (one, two) = (shard(1), shard(2));
    let write = |name: &str, json: &serde_json::Value| {
        let path = cwd.join(name);
        std::fs::write(&path, json.to_string()).expect("write");
        path.display().to_string()
    };
    let good_two = write("two.json", &two);
    let mut group = Group::new("forged shards");
    let mut forged = one.clone();
    forged["shard"]["index"] = serde_json::json!(0);
    let zero = write("zero.json", &forged);
    group.run(
        "shard 0 of 2",
        chancery(&["sim", "merge", &zero, &good_two], cwd),
        "which no run makes",
    );
    let mut forged = one.clone();
    forged["outcomes"][0]["seed"] = serde_json::json!(99);
    let seeds = write("seeds.json", &forged);
    group.run(
        "a game of a seed outside the shard",
        chancery(&["sim", "merge", &seeds, &good_two], cwd),
        "was not made by this run",
    );
    let mut forged = one.clone();
    let extra = forged["outcomes"][0].clone();
    forged["outcomes"]
        .as_array_mut()
        .expect("outcomes")
        .push(extra);
    let more = write("more.json", &forged);
    group.run(
        "more games than the shard plays",
        chancery(&["sim", "merge", &more, &good_two], cwd),
        "holds 4 games where shard 1/2 plays 3",
    );
    let mut forged = one.clone();
    forged["games"] = serde_json::json!(8);
    let other = write("other.json", &forged);
    group.run(
        "a shard of another run",
        chancery(&["sim", "merge", &good_two, &other], cwd),
        "is not a shard of the same run",
    );
    let mut forged = one.clone();
    forged["outcomes"][0]["winners"] = serde_json::json!(["ZZ"]);
    let stranger = write("stranger.json", &forged);
    group.run(
        "a game won by a seat the scenario does not have",
        chancery(&["sim", "merge", &stranger, &good_two], cwd),
        "is won by 'ZZ', which is not one of its seats",
    );
    let mut forged = one.clone();
    for i in 0..3 {
        forged["outcomes"][i]["scores"]["A"] = serde_json::json!(i64::MAX);
    }
    let huge = write("huge.json", &forged);
    group.run(
        "scores of i64::MAX, whose sum would wrap the mean",
        chancery(&["sim", "merge", &huge, &good_two], cwd),
        "beyond any a game keeps",
    );
    let mut forged = one.clone();
    forged["outcomes"][0]["winners"] = serde_json::json!(["W".repeat(100 * 1024 * 1024)]);
    let long = write("long.json", &forged);
    group.run(
        "a winner's name of 100 MB",
        chancery(&["sim", "merge", &long, &good_two], cwd),
        "which is not one of its seats",
    );
    let good_one = write("one.json", &one);
    let merged = chancery(&["sim", "merge", &good_one, &good_two], cwd);
    group.check(
        "the true shards still merge",
        (merged.code == 0)
            .then_some(())
            .ok_or_else(|| merged.text.clone()),
    );
    group.finish();
}

/// Saves that name paths of someone else's choosing: an overlay that is a pipe or a
/// device (never read), a file elsewhere (never written without the person naming it).
#[test]
fn attacks_through_saves_naming_foreign_paths() {
    let scratch = tempfile::tempdir().expect("scratch");
    let cwd = scratch.path();
    let save = testbed_save(cwd);
    let text = std::fs::read_to_string(&save).expect("read");
    let mut group = Group::new("saves naming foreign paths");
    let naming = |name: &str, overlay: &Path| {
        let forged = text.replacen(
            "fingerprint:",
            &format!(
                "overlay: Some({:?}),\n        fingerprint:",
                overlay.display().to_string()
            ),
            1,
        );
        let path = cwd.join(name);
        std::fs::write(&path, forged).expect("write");
        path.display().to_string()
    };
    let fifo = cwd.join("overlay.fifo");
    mkfifo(&fifo);
    let piped = naming("piped.ron", &fifo);
    let run = chancery(&["state", &piped], cwd);
    group.check(
        "a save naming a pipe as its overlay",
        if run.took > Duration::from_secs(3) {
            Err(format!("took {:?}", run.took))
        } else if !run.text.contains("not a regular file") {
            Err(run.text)
        } else {
            Ok(())
        },
    );
    let zeros = naming("zeros.ron", Path::new("/dev/zero"));
    let run = chancery(&["state", &zeros, "--json"], cwd);
    group.check(
        "a save naming /dev/zero as its overlay",
        (run.took < Duration::from_secs(3) && run.peak_kib < 1024 * 1024)
            .then_some(())
            .ok_or_else(|| format!("took {:?}, {} MiB", run.took, run.peak_kib / 1024)),
    );
    let victim = cwd.join("elsewhere/victim.ron");
    std::fs::create_dir_all(victim.parent().expect("a folder")).expect("mkdir");
    let foreign = naming("foreign.ron", &victim);
    let run = chancery(&["act", &foreign, "march", "south", "--value", "3"], cwd);
    group.check(
        "a save naming a file elsewhere as its overlay",
        (!victim.exists())
            .then_some(())
            .ok_or_else(|| format!("{} was written: {}", victim.display(), run.text)),
    );
    group.finish();
}

// ---------------------------------------------------------------------------------------
// Attacks on play by e-mail: a player's orders that try to act for another seat, orders
// written from a redacted save its player edited, saves naming seats that are paths, and
// outputs aimed at the save they are made from. Each is refused with the line or the name
// at fault, and the umpire's save is byte for byte as it was.

/// The repository's module `name` (in `modules`).
fn repo_module(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../modules")
        .join(name)
        .display()
        .to_string()
}

/// The campaign run by an umpire in `dir` after step 1 (the intel published), and France's
/// redacted save of it: `(campaign.ron, france.ron)`.
fn campaign_by_mail(dir: &Path) -> (String, String) {
    let campaign = repo_module("campaign");
    let fixture = format!("{campaign}/tests/owner-fixture.ron");
    let save = dir.join("campaign.ron").display().to_string();
    let france = dir.join("france.ron").display().to_string();
    for args in [
        vec![
            "new",
            &campaign,
            "--seed",
            "11",
            "--overlay",
            &fixture,
            "--out",
            &save,
        ],
        vec!["act", &save, "--seat", "UM", "published"],
        vec!["export", &save, "--seat", "FR", "--out", &france],
    ] {
        let run = chancery(&args, dir);
        assert_eq!(run.code, 0, "{args:?}: {}", run.text);
    }
    (save, france)
}

/// A player's orders that act for others, through `--check` on its own redacted save and
/// through the umpire's applying step (with and without `--seat`): each is refused at its
/// line, by both alike, and the umpire's save does not change.
#[test]
fn attacks_through_forged_orders() {
    let scratch = tempfile::tempdir().expect("scratch");
    let cwd = scratch.path();
    let (save, france) = campaign_by_mail(cwd);
    let before = std::fs::read(&save).expect("the umpire's save");
    let mut group = Group::new("forged orders");
    let forged: &[(&str, &str, &str)] = &[
        (
            "a change by hand moving Austria's general",
            "orders of FR\nreceived\nby hand: place gen.AU.1 map paris\n",
            ":3: a change by hand, in France's orders",
        ),
        (
            "an answer for Austria",
            "orders of FR\nreceived\nAU: none\n",
            ":3: an answer for Austria, in France's orders",
        ),
        (
            "an answer for the umpire",
            "orders of FR\nUM: end_game\n",
            ":2: an answer for Umpire, in France's orders",
        ),
        (
            "die results in a game that rolls its own",
            "orders of FR\nreceived | 6 6\n",
            ":2: die results, in France's orders",
        ),
        (
            "a seat's orders named as another's",
            "orders of AU\nreceived\n",
            "these are the orders of France, but the file says so for Austria",
        ),
    ];
    for (i, (attack, text, expect)) in forged.iter().enumerate() {
        let orders = cwd.join(format!("orders-{i}.txt"));
        std::fs::write(&orders, text).expect("write");
        let orders = orders.display().to_string();
        group.run(
            &format!("{attack} (--check on France's save)"),
            chancery(&["act", &france, "--answers", &orders, "--check"], cwd),
            expect,
        );
        // The umpire applies a player's orders as the seat of the player who sent them
        // (`--seat FR`); a file whose `orders of` line names another seat is refused then.
        // Without --seat, the file's own line says whose orders they are.
        let named_as_another = attack.starts_with("a seat's orders named");
        if !named_as_another {
            group.run(
                &format!("{attack} (the umpire applies the file)"),
                chancery(&["act", &save, "--answers", &orders], cwd),
                expect,
            );
        }
        group.run(
            &format!("{attack} (the umpire applies it with --seat FR)"),
            chancery(&["act", &save, "--seat", "FR", "--answers", &orders], cwd),
            match named_as_another {
                true => "but the file says so for Austria",
                false => expect,
            },
        );
        let now = std::fs::read(&save).expect("the umpire's save");
        group.check(
            &format!("{attack}: the umpire's save is as it was"),
            (now == before)
                .then_some(())
                .ok_or_else(|| "the umpire's save changed".to_owned()),
        );
    }
    // In the testbed, Alpha's orders may not take a card out of Beta's hidden hand.
    let testbed = testbed_save(cwd);
    let testbed = testbed.display().to_string();
    let before = std::fs::read(&testbed).expect("the save");
    let orders = cwd.join("alpha.txt");
    std::fs::write(&orders, "by hand: move_card four hand.A\n").expect("write");
    let orders = orders.display().to_string();
    group.run(
        "Alpha's change by hand taking a card of Beta's hand",
        chancery(&["act", &testbed, "--seat", "A", "--answers", &orders], cwd),
        "alpha.txt:1: a change by hand, in Alpha's orders",
    );
    group.check(
        "Beta's hand is as it was",
        (std::fs::read(&testbed).expect("the save") == before)
            .then_some(())
            .ok_or_else(|| "the save changed".to_owned()),
    );
    group.finish();
}

/// A redacted save its player edited: an answer whose name or argument holds a line break
/// (which would start an uncommented `by hand:` line), and an answer marked as another
/// seat's. `chancery orders` writes each answer on one line that reads back the same, or
/// refuses the save.
#[test]
fn attacks_through_orders_from_an_edited_redacted_save() {
    let scratch = tempfile::tempdir().expect("scratch");
    let cwd = scratch.path();
    let (save, france) = campaign_by_mail(cwd);
    let run = chancery(&["act", &france, "received"], cwd);
    assert_eq!(run.code, 0, "{}", run.text);
    let text = std::fs::read_to_string(&france).expect("France's save");
    let mut group = Group::new("orders from edited redacted saves");
    let edited = |name: &str, from: &str, to: &str| {
        assert!(text.contains(from), "{from} in {text}");
        let path = cwd.join(name);
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
        path.display().to_string()
    };
    let injected = "received\\nby hand: place gen.AU.1 map paris";
    let name = edited(
        "name.ron",
        "name: \"received\"",
        &format!("name: \"{injected}\""),
    );
    let run = chancery(&["orders", &name], cwd);
    let lines: Vec<&str> = run.text.lines().filter(|l| !l.starts_with('#')).collect();
    group.check(
        "a line break inside an answer's name",
        (run.code == 0
            && !run.text.lines().any(|l| l.starts_with("by hand"))
            && lines.len() == 2
            && lines[1].contains("\"received\\nby hand"))
        .then_some(())
        .ok_or_else(|| run.text.clone()),
    );
    // The quoted name reads back whole: the umpire's game refuses it as an action it does
    // not have, never as a change by hand.
    let orders = cwd.join("name.txt");
    std::fs::write(&orders, run.text.as_bytes()).expect("write");
    group.run(
        "the quoted name applied by the umpire",
        chancery(
            &["act", &save, "--answers", &orders.display().to_string()],
            cwd,
        ),
        "is not a legal action",
    );
    let arg = edited(
        "arg.ron",
        "name: \"received\",\n                arg: ()",
        "name: \"received\",\n                arg: \"x\\nby hand: place gen.AU.1 map paris # |\"",
    );
    let run = chancery(&["orders", &arg], cwd);
    group.check(
        "a line break, a '#' and a '|' inside an answer's argument",
        (run.code == 0 && !run.text.lines().any(|l| l.starts_with("by hand")))
            .then_some(())
            .ok_or_else(|| run.text.clone()),
    );
    let other = edited("other.ron", "seat: Some(\"FR\")", "seat: Some(\"AU\")");
    group.run(
        "an answer marked as Austria's",
        chancery(&["orders", &other], cwd),
        "is marked as seat 'AU's, in FR's redacted save",
    );
    group.finish();
}

/// Saves from someone else whose seats are paths, and outputs aimed at the save they are
/// made from: nothing is written outside the folder named, and no save is replaced.
#[test]
fn attacks_through_file_names_from_saves() {
    let scratch = tempfile::tempdir().expect("scratch");
    let cwd = scratch.path();
    let save = testbed_save(cwd);
    let text = std::fs::read_to_string(&save).expect("read");
    let mut group = Group::new("file names from saves");
    for (name, seat) in [("up.ron", "../../x"), ("root.ron", "/tmp/x")] {
        let forged = text.replace("\"B\"", &format!("{seat:?}"));
        let path = cwd.join(name);
        std::fs::write(&path, forged).expect("write");
        let out = cwd.join("reports").display().to_string();
        group.run(
            &format!("report --all on a save naming a seat '{seat}'"),
            chancery(
                &[
                    "report",
                    &path.display().to_string(),
                    "--all",
                    "--out",
                    &out,
                ],
                cwd,
            ),
            "is not a plain name",
        );
    }
    group.check(
        "nothing written outside the reports' folder",
        (!cwd.join("../x.md").exists() && !Path::new("/tmp/x.md").exists())
            .then_some(())
            .ok_or_else(|| "a report was written outside".to_owned()),
    );
    let save_text = save.display().to_string();
    let before = std::fs::read(&save).expect("the save");
    for (what, args) in [
        (
            "export",
            vec![
                "export", &save_text, "--seat", "A", "--out", &save_text, "--force",
            ],
        ),
        (
            "orders",
            vec![
                "orders", &save_text, "--seat", "A", "--out", &save_text, "--force",
            ],
        ),
        (
            "report",
            vec![
                "report", &save_text, "--seat", "A", "--out", &save_text, "--force",
            ],
        ),
    ] {
        group.run(
            &format!("{what} --out onto the save it reads, with --force"),
            chancery(&args, cwd),
            "is the save this command reads",
        );
    }
    group.check(
        "the save is as it was",
        (std::fs::read(&save).expect("the save") == before)
            .then_some(())
            .ok_or_else(|| "the save was replaced".to_owned()),
    );
    // A screenshot into a folder is refused before any window opens (no display is needed
    // to be told so).
    let testbed = test_module("testbed").display().to_string();
    let folder = cwd.display().to_string();
    group.run(
        "--screenshot into a folder",
        chancery(&["--module", &testbed, "--screenshot", &folder], cwd),
        "is a folder: name the PNG file to write",
    );
    group.finish();
}

/// A module in `dir` with `n` seats (S1, S2, …, each played by bot `hoard` when a bot
/// plays it) and the rules `rules`, in which `SEATS` lists the seats in order.
fn many_seats_module(dir: &Path, n: usize, rules: &str) {
    std::fs::create_dir_all(dir.join("data")).expect("mkdir");
    std::fs::create_dir_all(dir.join("rules")).expect("mkdir");
    let seats: Vec<String> = (1..=n).map(|i| format!("S{i}")).collect();
    std::fs::write(
        dir.join("module.ron"),
        "Module(id: \"many\", name: \"Many\", version: \"1\", api: 1, data: [\"data/table.ron\"], scenarios: [\"data/scenarios.ron\"], scripts: [\"rules/main.lua\"])",
    )
    .expect("write");
    let seat_defs: Vec<String> = seats
        .iter()
        .map(|s| format!("Seat(id: {s:?}, name: {s:?}, bot: \"hoard\")"))
        .collect();
    std::fs::write(
        dir.join("data/table.ron"),
        format!("Data(seats: [{}])", seat_defs.join(", ")),
    )
    .expect("write");
    std::fs::write(
        dir.join("data/scenarios.ron"),
        "[Scenario(id: \"all\", name: \"All\")]",
    )
    .expect("write");
    let order: Vec<String> = seats.iter().map(|s| format!("{s:?}")).collect();
    std::fs::write(
        dir.join("rules/main.lua"),
        format!("local SEATS = {{ {} }}\n{rules}", order.join(", ")),
    )
    .expect("write");
}

/// A module of 16 seats whose bots each keep 100 MB: the game's VMs share one memory cap,
/// so the simulation ends with a Lua memory error at the bot, never a process abort. And a
/// module of 2,000 seats that rolls in secret to all of them: refused at once, since a line
/// for each would be more than a step may write.
#[test]
fn attacks_with_memory_across_seat_vms() {
    let scratch = tempfile::tempdir().expect("scratch");
    let dir = scratch.path().join("module");
    many_seats_module(
        &dir,
        16,
        r#"local kept = {}
local turn = {}
function turn.prompt(ctx)
  return { seat = SEATS[ctx.locals.i], text = "Go", actions = { { name = "go" } } }
end
function turn.go(ctx)
  ctx.locals.i = ctx.locals.i % #SEATS + 1
end
return {
  setup = function(ctx) ctx:push("turn", { i = 1 }) end,
  states = { turn = turn },
  bots = {
    hoard = function(ctx, seat, actions)
      kept[#kept + 1] = string.rep(seat, 50 * 1024 * 1024)
      return 1, "kept 100 MB"
    end,
  },
}
"#,
    );
    let run = chancery(
        &[
            "sim",
            &dir.display().to_string(),
            "--games",
            "2",
            "--threads",
            "2",
            "--no-overlay",
        ],
        scratch.path(),
    );
    let mut group = Group::new("memory across seat VMs");
    group.check(
        "16 seats' bots keeping 100 MB each",
        if run.code != 1 || !run.text.contains("out of memory") {
            Err(format!("exit {}: {}", run.code, run.text))
        } else if run.peak_kib > 1536 * 1024 {
            Err(format!("peaked at {} MiB", run.peak_kib / 1024))
        } else {
            Ok(())
        },
    );
    let wide = scratch.path().join("wide");
    many_seats_module(
        &wide,
        2_000,
        r#"local turn = {}
function turn.prompt(ctx)
  return { seat = "S1", text = "Go", actions = { { name = "go" } } }
end
function turn.go(ctx) end
return {
  setup = function(ctx)
    ctx:roll(6, "the census", SEATS)
    ctx:push("turn")
  end,
  states = { turn = turn },
  bots = { hoard = function() return 1, "the first" end },
}
"#,
    );
    group.run(
        "a secret roll told to each of 2,000 seats",
        chancery(
            &[
                "new",
                &wide.display().to_string(),
                "--no-overlay",
                "--out",
                &scratch.path().join("wide.ron").display().to_string(),
            ],
            scratch.path(),
        ),
        "a secret roll told to 2000 seats would write a line for each",
    );
    group.finish();
}
