//! `chancery test MODULE`: run a module's own Lua tests.

use std::io::Write;
use std::path::PathBuf;

use chancery_core::devtools::testing::run_module_tests;
use clap::Args;

use crate::games::{OverlayArgs, load_module};

#[derive(Args, Debug)]
pub struct TestArgs {
    /// The module folder.
    pub module: PathBuf,
    /// Run only the tests whose names contain this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Overlay flags (tests run without the owner's overlay unless one is named).
    #[command(flatten)]
    pub overlay: OverlayArgs,
}

pub fn run(args: &TestArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    // Tests must not depend on what an owner has entered: no overlay unless asked for.
    let mut overlay = args.overlay.clone();
    if overlay.overlay.is_none() {
        overlay.no_overlay = true;
    }
    let module = load_module(&args.module, &overlay.load_options(false), err)?;
    let report = match run_module_tests(module.clone(), args.filter.as_deref()) {
        Ok(report) => report,
        Err(diagnostics) => {
            for d in diagnostics.iter() {
                writeln!(err, "{d}")?;
            }
            return Ok(1);
        }
    };
    if report.results.is_empty() {
        writeln!(out, "No tests in {}/tests.", module.dir.display())?;
        return Ok(0);
    }
    let mut last_file = None;
    for result in &report.results {
        if last_file != Some(&result.file) {
            writeln!(out, "{}", result.file.display())?;
            last_file = Some(&result.file);
        }
        match &result.failure {
            None => writeln!(out, "  ok    {}", result.name)?,
            Some(message) => {
                writeln!(out, "  FAIL  {}", result.name)?;
                for line in message.lines() {
                    writeln!(out, "        {line}")?;
                }
            }
        }
        for line in &result.output {
            writeln!(out, "        | {line}")?;
        }
        for warning in &result.warnings {
            writeln!(out, "        warning: {warning}")?;
        }
    }
    let failed = report.failures();
    writeln!(
        out,
        "{} passed, {failed} failed.",
        report.results.len() - failed
    )?;
    Ok(if failed > 0 { 1 } else { 0 })
}
