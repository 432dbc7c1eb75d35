//! The window opens on a module and draws it: the binary runs under a virtual X display
//! (xvfb-run, which `test.sh` installs), saves a screenshot of itself and exits.

use std::path::Path;
use std::process::Command;

#[test]
fn the_window_opens_on_a_module_and_saves_a_screenshot() {
    let found = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "xvfb-run is missing: run ./test.sh, which installs it (apt-get install xvfb xauth)"
    );
    let scratch = tempfile::tempdir().expect("scratch");
    let shot = scratch.path().join("window.png");
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modules/testbed");
    let output = Command::new("timeout")
        .args(["120", "xvfb-run", "-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_chancery"))
        .args(["--no-overlay", "--size", "1200x760", "--module"])
        .arg(&module)
        .arg("--screenshot")
        .arg(&shot)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the app failed: {stderr}");
    let bytes = std::fs::read(&shot).unwrap_or_else(|e| panic!("no screenshot ({e}): {stderr}"));
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    let width = u32::from_be_bytes(bytes[16..20].try_into().expect("4 bytes"));
    let height = u32::from_be_bytes(bytes[20..24].try_into().expect("4 bytes"));
    assert_eq!(
        (width, height),
        (1200, 760),
        "the screenshot has the window's size"
    );
    assert!(
        bytes.len() > 10_000,
        "a blank window compresses to almost nothing: {} bytes",
        bytes.len()
    );
}
