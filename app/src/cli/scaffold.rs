//! `chancery module new NAME`: a small working module to start a game from.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

/// `chancery module …`.
#[derive(Args, Debug)]
pub struct ModuleArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: ModuleCommand,
}

/// The `module` subcommands.
#[derive(Subcommand, Debug)]
pub enum ModuleCommand {
    /// Write a small working module (a manifest, data, rules as declared steps and a state
    /// that asks, a bot, tests and a README) that check, test and sim accept, to change into
    /// your own game.
    New(NewModuleArgs),
}

/// `chancery module new`.
#[derive(Args, Debug)]
pub struct NewModuleArgs {
    /// The module's id, also its folder's name: lower-case letters, digits, - and _.
    pub name: String,
    /// The folder to create it in (default: the current folder).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The files of a new module, `{NAME}` and `{TITLE}` to be filled in.
const FILES: &[(&str, &str)] = &[
    (
        "module.ron",
        include_str!("../../../scripts/new-module/module.ron"),
    ),
    (
        "data/table.ron",
        include_str!("../../../scripts/new-module/data/table.ron"),
    ),
    (
        "data/scenarios.ron",
        include_str!("../../../scripts/new-module/data/scenarios.ron"),
    ),
    (
        "rules/main.lua",
        include_str!("../../../scripts/new-module/rules/main.lua"),
    ),
    (
        "bots/greedy.lua",
        include_str!("../../../scripts/new-module/bots/greedy.lua"),
    ),
    (
        "tests/rules.lua",
        include_str!("../../../scripts/new-module/tests/rules.lua"),
    ),
    (
        "README.md",
        include_str!("../../../scripts/new-module/README.md"),
    ),
];

pub fn run(args: &ModuleArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<i32> {
    match &args.command {
        ModuleCommand::New(args) => new_module(args, out, err),
    }
}

fn new_module(
    args: &NewModuleArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<i32> {
    let name = args.name.as_str();
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    if !valid {
        bail!(
            "'{name}' cannot be a module's id: use lower-case letters, digits, - and _, starting with a letter (like my-game)"
        );
    }
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("."))
        .join(name);
    if dir.exists() {
        bail!(
            "{} exists already: choose another name, or another folder with --dir",
            dir.display()
        );
    }
    let title = title_of(name);
    for (rel, text) in FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let text = text.replace("{NAME}", name).replace("{TITLE}", &title);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    // What is written must load: the check a designer would run next.
    crate::games::load_module(&dir, &chancery_core::LoadOptions::default(), err)?;
    writeln!(out, "Wrote the module '{name}' in {}.", dir.display())?;
    writeln!(
        out,
        "Next: chancery check {d}, chancery test {d}, chancery sim {d} --games 100, chancery --module {d}",
        d = shown(&dir)
    )?;
    Ok(0)
}

/// "my-game" as "My game".
fn title_of(name: &str) -> String {
    let words = name.replace(['-', '_'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn shown(dir: &Path) -> String {
    dir.strip_prefix(".").unwrap_or(dir).display().to_string()
}
