//! A procedure is a declared list of steps (`@lib/steps.lua`), not states that hand over to
//! each other by hand. For each module, the count of hand-made chains (`ctx:replace`) and
//! of stage ladders (a `stage` field one state switches on) may only go down: a count above
//! its bound fails, and so does one below it (lower the bound, so it holds from then on).

use std::path::Path;

use chancery_tests::repo_root;

/// Each module's bounds: `ctx:replace` calls, and uses of a `stage` field, in its rules and
/// bots (not its tests).
const BOUNDS: &[(&str, usize, usize)] = &[
    ("aftermath", 0, 0),
    ("campaign", 0, 0),
    // A Diplomacy Round's negotiation and debate (rules/rounds.lua, rules/solo_diplomacy.lua)
    // and the game's start (rules/main.lua): declared, they would open other frames, and the
    // bots' draws, which follow the frames opened, would change every simulated game.
    ("cov", 6, 5),
    ("guerre", 0, 0),
    ("warpeace", 0, 0),
];

/// The code of a Lua text without its comments (`--` to the end of the line; a long comment
/// `--[[ … ]]` whole).
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let Some(at) = rest.find("--") else {
            out.push_str(rest);
            break;
        };
        let before = &rest[..at];
        // A `--` inside a string on this line is not a comment.
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let quotes = before[line_start..].matches('"').count();
        if quotes % 2 == 1 {
            out.push_str(&rest[..at + 2]);
            rest = &rest[at + 2..];
            continue;
        }
        out.push_str(before);
        let comment = &rest[at..];
        let end = if comment.starts_with("--[[") {
            comment.find("]]").map_or(comment.len(), |i| i + 2)
        } else {
            comment.find('\n').unwrap_or(comment.len())
        };
        rest = &comment[end..];
    }
    out
}

/// How many times `code` calls `ctx:replace`, and uses a field named `stage`.
fn counts(code: &str) -> (usize, usize) {
    let replaces = code.matches("ctx:replace(").count();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let stages = code
        .match_indices("stage")
        .filter(|(at, _)| {
            let before = code[..*at].chars().next_back();
            let after = code[at + "stage".len()..].chars().next();
            let field = before == Some('.')
                || code[at + "stage".len()..].trim_start().starts_with('=')
                    && !code[at + "stage".len()..].trim_start().starts_with("==");
            !before.is_some_and(is_word) && !after.is_some_and(is_word) && field
        })
        .count();
    (replaces, stages)
}

/// The counts of the Lua files under `dir` (recursively).
fn module_counts(dir: &Path) -> (usize, usize) {
    let mut total = (0, 0);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return total;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let (r, s) = if path.is_dir() {
            module_counts(&path)
        } else if path.extension().is_some_and(|x| x == "lua") {
            counts(&code_of(&std::fs::read_to_string(&path).expect("read")))
        } else {
            (0, 0)
        };
        total = (total.0 + r, total.1 + s);
    }
    total
}

#[test]
fn no_module_gains_a_hand_made_chain_or_stage_ladder() {
    let modules = repo_root().join("modules");
    let mut wrong = Vec::new();
    for (module, max_replaces, max_stages) in BOUNDS {
        let dir = modules.join(module);
        let (rules, bots) = (
            module_counts(&dir.join("rules")),
            module_counts(&dir.join("bots")),
        );
        let (replaces, stages) = (rules.0 + bots.0, rules.1 + bots.1);
        for (what, found, bound) in [
            ("ctx:replace chains", replaces, *max_replaces),
            ("stage fields", stages, *max_stages),
        ] {
            if found > bound {
                wrong.push(format!(
                    "{module}: {found} {what}, more than its {bound}: declare the procedure's steps with @lib/steps.lua instead"
                ));
            } else if found < bound {
                wrong.push(format!(
                    "{module}: {found} {what}, fewer than its bound of {bound}: lower the bound in tests/tests/ratchet.rs to {found}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let listed: Vec<&str> = BOUNDS.iter().map(|b| b.0).collect();
    for entry in std::fs::read_dir(&modules).expect("modules").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().join("module.ron").is_file() {
            assert!(
                listed.contains(&name.as_str()),
                "module '{name}' has no bounds here"
            );
        }
    }
}

#[test]
fn the_counts_see_calls_and_fields_but_not_comments_or_other_words() {
    let code = code_of(
        "ctx:replace(\"next\") -- ctx:replace(\"in a comment\")\n\
         l.stage = \"pay\"\nif l.stage == \"pay\" then end\nlocal stages = 1\n\
         --[[ ctx:replace(\"long\") l.stage ]]\nlocal s = \"-- not a comment\"\n\
         return { stage = 1, backstage = 2 }\n",
    );
    assert_eq!(counts(&code), (1, 3));
}
