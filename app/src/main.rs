//! The `chancery` binary: the command line, or the app window when no command is given.

use std::process::ExitCode;

use chancery::cli::{self, Outcome};

/// The allocator: the rules' Lua makes and drops many small tables and strings a
/// decision, which the system allocator serves slowly (ARCHITECTURE, "Speed").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    let code = match cli::run(std::env::args_os(), &mut out, &mut err) {
        Outcome::Exit(code) => code,
        Outcome::OpenWindow(args) => match chancery::gui::run(*args) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e:#}");
                1
            }
        },
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
