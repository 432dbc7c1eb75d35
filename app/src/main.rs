//! The `chancery` binary: the command line, or the app window when no command is given.

use std::process::ExitCode;

use chancery::cli::{self, Outcome};

/// The allocator: the rules' Lua makes and drops many small tables and strings a
/// decision, which the system allocator serves slowly (docs/speed.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The allocator's option that commits its arenas' memory as it is used rather than ahead.
/// A table server runs each table on a thread of its own, and memory committed ahead held
/// about 2 MiB a table at rest (0.7 MiB without). The allocator reads its options as the
/// process starts, so `chancery serve` starts itself again with it set.
const LEAN_ARENAS: &str = "MIMALLOC_ARENA_EAGER_COMMIT";

fn main() -> ExitCode {
    #[cfg(unix)]
    if std::env::args_os().nth(1).is_some_and(|a| a == "serve")
        && std::env::var_os(LEAN_ARENAS).is_none()
        && let Ok(me) = std::env::current_exe()
    {
        use std::os::unix::process::CommandExt;
        // Returns only if the program cannot be started again: it then serves as it is.
        let _ = std::process::Command::new(me)
            .args(std::env::args_os().skip(1))
            .env(LEAN_ARENAS, "0")
            .exec();
    }
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
