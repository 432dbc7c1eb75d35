//! The command line run in-process, shared by the end-to-end tests that drive it (each
//! test file uses some of it).
#![allow(dead_code)]

use chancery::cli::{Outcome, run};

/// Runs `chancery args…` without the owner's overlay (unless the arguments name one);
/// returns the exit code, stdout and stderr.
pub fn chancery(args: &[&str]) -> (i32, String, String) {
    let mut argv = vec!["--no-overlay"];
    argv.extend_from_slice(args);
    if args
        .iter()
        .any(|a| *a == "--help" || *a == "state" || *a == "api" || *a == "--overlay")
    {
        argv.remove(0);
    }
    chancery_as_typed(&argv)
}

/// Runs `chancery args…` exactly as given.
pub fn chancery_as_typed(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut argv = vec!["chancery"];
    argv.extend_from_slice(args);
    let code = match run(argv.iter().map(Into::into), &mut out, &mut err) {
        Outcome::Exit(code) => code,
        Outcome::OpenWindow(_) => panic!("{args:?} opened a window"),
    };
    (
        code,
        String::from_utf8(out).expect("utf-8"),
        String::from_utf8(err).expect("utf-8"),
    )
}

/// Runs `chancery args…` exactly as given, which must succeed; returns its stdout.
pub fn chancery_ok(args: &[&str]) -> String {
    let (code, out, err) = chancery_as_typed(args);
    assert_eq!(code, 0, "{args:?}: {out}{err}");
    out
}

pub fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("a utf-8 path")
}

/// The umpire's save, in `dir`, of a new campaign game (seed 11, the fixture).
pub fn campaign_new(dir: &std::path::Path) -> std::path::PathBuf {
    let module = chancery_tests::repo_root().join("modules/campaign");
    let fixture = module.join("tests/owner-fixture.ron");
    let save = dir.join("campaign.ron");
    chancery_ok(&[
        "new",
        path(&module),
        "--seed",
        "11",
        "--overlay",
        path(&fixture),
        "--out",
        path(&save),
    ]);
    save
}

/// The umpire's save, in `dir`, of a new campaign game (seed 11, the fixture) whose intel is
/// published: turn 1 waits for the nations' orders.
pub fn campaign_published(dir: &std::path::Path) -> std::path::PathBuf {
    let save = campaign_new(dir);
    chancery_ok(&["act", path(&save), "--seat", "UM", "published"]);
    save
}

/// The umpire's campaign save of turn 1 with every nation's orders received (steps 1 and 2).
pub fn campaign_orders_received(dir: &std::path::Path) -> std::path::PathBuf {
    let save = campaign_published(dir);
    for nation in ["FR", "AU", "GB", "RU", "SP", "OT", "PR", "SW", "DK"] {
        chancery_ok(&["act", path(&save), "--seat", nation, "received"]);
    }
    save
}
