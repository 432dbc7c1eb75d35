//! The outline of a module's procedures, read from its rules table as it loads: each state
//! declared with `steps.procedure` (@lib/steps.lua) keeps its declaration behind its
//! table's metatable (`__outline`), and each function knows the file and lines it was
//! written on. A step that names a state it calls that the rules do not have is an error at
//! the step's line.

use std::collections::{BTreeMap, BTreeSet};

use mlua::{Function, Table as LuaTable, Value as LuaValue};

use crate::module::{Diagnostic, Diagnostics, Module, Procedure, ProcedureStep, SourceLine};

/// What the outline found: the declared procedures, and where each state's own work is.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outline {
    pub procedures: Vec<Procedure>,
    pub places: BTreeMap<String, SourceLine>,
}

/// Reads the outline of `states` (the rules' states table), for `module`.
pub(crate) fn collect(module: &Module, states: &LuaTable) -> Result<Outline, Diagnostics> {
    let mut outline = Outline::default();
    let mut names = BTreeSet::new();
    for (name, value) in states.pairs::<String, LuaValue>().filter_map(Result::ok) {
        names.insert(name.clone());
        let LuaValue::Table(state) = value else {
            continue;
        };
        match state.get::<LuaValue>("__outline") {
            Ok(LuaValue::Table(declared)) => {
                if let Some(procedure) = procedure(module, &name, &declared) {
                    outline.procedures.push(procedure);
                }
            }
            _ => {
                let own = ["prompt", "run"]
                    .iter()
                    .find_map(|hook| state.raw_get::<Option<Function>>(*hook).ok().flatten());
                if let Some(place) = own.and_then(|f| place(module, &f)) {
                    outline.places.insert(name, place.0);
                }
            }
        }
    }
    outline.procedures.sort_by(|a, b| a.state.cmp(&b.state));
    let mut diags = Diagnostics::default();
    for procedure in &outline.procedures {
        for step in &procedure.steps {
            for called in step.calls.iter().filter(|c| !names.contains(*c)) {
                let path = module
                    .scripts
                    .iter()
                    .find(|s| s.rel == step.at.file)
                    .map_or_else(|| module.dir.clone(), |s| s.path.clone());
                diags.push(Diagnostic::error(
                    &path,
                    step.at.line as usize,
                    1,
                    format!(
                        "step '{}' of the procedure '{}' calls '{called}', which is not a state of the rules: name a state in its calls, or add the state",
                        step.name, procedure.title
                    ),
                ));
            }
        }
    }
    if diags.has_errors() {
        Err(diags)
    } else {
        Ok(outline)
    }
}

/// The procedure `state` declares, from its `__outline` table.
fn procedure(module: &Module, state: &str, declared: &LuaTable) -> Option<Procedure> {
    let title: String = declared.raw_get("title").ok()?;
    let list: LuaTable = declared.raw_get("steps").ok()?;
    let mut steps = Vec::new();
    for step in list.sequence_values::<LuaTable>().filter_map(Result::ok) {
        let name: String = step.raw_get("name").unwrap_or_default();
        let Some((at, end_line)) = step
            .raw_get::<Option<Function>>("run")
            .ok()
            .flatten()
            .and_then(|f| place(module, &f))
        else {
            continue;
        };
        let calls = match step.raw_get::<LuaValue>("calls") {
            Ok(LuaValue::Table(t)) => t
                .sequence_values::<String>()
                .filter_map(Result::ok)
                .collect(),
            _ => Vec::new(),
        };
        let each = matches!(step.raw_get::<LuaValue>("each"), Ok(LuaValue::Function(_)));
        steps.push(ProcedureStep {
            name,
            at,
            end_line,
            each,
            calls,
        });
    }
    Some(Procedure {
        state: state.to_owned(),
        at: declared_at(module, &title),
        again: declared.raw_get("again").unwrap_or(false),
        title,
        steps,
    })
}

/// Where `f` is written, with its last line, if it is in one of the module's own scripts.
fn place(module: &Module, f: &Function) -> Option<(SourceLine, u32)> {
    let info = f.info();
    let file = info.source?.strip_prefix('@')?.to_owned();
    if !module.scripts.iter().any(|s| s.rel == file) {
        return None;
    }
    let line = u32::try_from(info.line_defined?).ok()?;
    let end = info
        .last_line_defined
        .and_then(|l| u32::try_from(l).ok())
        .unwrap_or(line);
    Some((SourceLine { file, line }, end))
}

/// The line of the `steps.procedure("title"` call that declares `title`, when a script
/// writes the title there as a plain string.
fn declared_at(module: &Module, title: &str) -> Option<SourceLine> {
    let needles = [
        format!("procedure(\"{title}\""),
        format!("procedure('{title}'"),
    ];
    module.scripts.iter().find_map(|script| {
        let at = needles.iter().find_map(|n| script.text.find(n.as_str()))?;
        let line = script.text[..at].matches('\n').count() + 1;
        Some(SourceLine {
            file: script.rel.clone(),
            line: u32::try_from(line).ok()?,
        })
    })
}
