//! The tree of a module's declared procedures, as `chancery check --outline` prints it and
//! each module's README carries it: turn → phase → step, each step with the name (and rule
//! number) the module gives it and the file:line of its work.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::module::{Module, Procedure, ProcedureStep, SourceLine};

/// The outline of `module`'s procedures as text: one tree for each procedure no step of
/// another calls (the module's turn, its set-up), the procedures a step calls drawn under
/// it, and a state that is not a procedure drawn as a leaf with where its work is written.
/// A procedure drawn already is named again with "(above)".
pub fn outline_text(module: &Module) -> String {
    let rules = &module.rules;
    let by_state: BTreeMap<&str, &Procedure> = rules
        .procedures
        .iter()
        .map(|p| (p.state.as_str(), p))
        .collect();
    let called: BTreeSet<&str> = rules
        .procedures
        .iter()
        .flat_map(|p| p.steps.iter())
        .flat_map(|s| s.calls.iter().map(String::as_str))
        .collect();
    let mut out = String::new();
    if rules.procedures.is_empty() {
        out.push_str("(no procedures declared with steps.procedure)\n");
        return out;
    }
    let mut drawn = BTreeSet::new();
    let mut roots: Vec<&Procedure> = rules
        .procedures
        .iter()
        .filter(|p| !called.contains(p.state.as_str()))
        .collect();
    // A cycle of procedures that only call each other has no root: draw them from the first.
    if roots.is_empty() {
        roots.extend(rules.procedures.first());
    }
    let mut tree = Tree {
        by_state: &by_state,
        places: &rules.places,
        drawn: &mut drawn,
        out: &mut out,
    };
    for root in roots {
        tree.procedure(root, "", "");
    }
    for rest in &rules.procedures {
        if !tree.drawn.contains(rest.state.as_str()) {
            tree.procedure(rest, "", "");
        }
    }
    out
}

struct Tree<'a, 'b> {
    by_state: &'b BTreeMap<&'a str, &'a Procedure>,
    places: &'a BTreeMap<String, SourceLine>,
    drawn: &'b mut BTreeSet<String>,
    out: &'b mut String,
}

impl Tree<'_, '_> {
    /// Draws `p` after `lead` (its own line's prefix), its steps after `indent`.
    fn procedure(&mut self, p: &Procedure, lead: &str, indent: &str) {
        let at =
            p.at.as_ref()
                .map(|a| format!("  {}", where_(a)))
                .unwrap_or_default();
        let again = if p.again { ", again and again" } else { "" };
        if !self.drawn.insert(p.state.clone()) {
            let _ = writeln!(self.out, "{lead}{} [{}] (above)", p.title, p.state);
            return;
        }
        let _ = writeln!(self.out, "{lead}{} [{}{again}]{at}", p.title, p.state);
        for (i, step) in p.steps.iter().enumerate() {
            let last = i + 1 == p.steps.len();
            let (branch, next) = if last {
                ("└─ ", "   ")
            } else {
                ("├─ ", "│  ")
            };
            self.step(
                step,
                &format!("{indent}{branch}"),
                &format!("{indent}{next}"),
            );
        }
    }

    fn step(&mut self, step: &ProcedureStep, lead: &str, indent: &str) {
        let each = if step.each { " (each)" } else { "" };
        let _ = writeln!(self.out, "{lead}{}{each}  {}", step.name, where_(&step.at));
        for (i, called) in step.calls.iter().enumerate() {
            let last = i + 1 == step.calls.len();
            let (branch, next) = if last {
                ("└─ ", "   ")
            } else {
                ("├─ ", "│  ")
            };
            let lead = format!("{indent}{branch}");
            if let Some(p) = self.by_state.get(called.as_str()).copied() {
                self.procedure(p, &lead, &format!("{indent}{next}"));
            } else {
                let at = self
                    .places
                    .get(called)
                    .map(|a| format!("  {}", where_(a)))
                    .unwrap_or_default();
                let _ = writeln!(self.out, "{lead}[{called}]{at}");
            }
        }
    }
}

fn where_(at: &SourceLine) -> String {
    format!("{}:{}", at.file, at.line)
}
