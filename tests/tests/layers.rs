//! The parts of `core` depend on each other one way only. Every `crate::<part>` path in a
//! file of `core/src` is an import of that part by the file's part; the imports must follow
//! the layering ARCHITECTURE.md draws (a part imports only parts below it, or beside it in
//! the same layer), and no parts may import each other in a circle. The app's parts too:
//! the window (`gui`) and the command line (`cli`) share what both do with games (`games`)
//! and import neither each other nor anything above. Inside every folder of either crate,
//! the files import each other one way too (no circle of `super::` imports).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use chancery_tests::repo_root;

/// The layers of `core`, lowest first. A part may import the parts of lower layers, and
/// parts of its own layer (as long as no circle forms).
const LAYERS: &[&[&str]] = &[
    &["ids", "value", "rng", "digest", "files", "fog"],
    &["table", "redact"],
    &["module"],
    &["rules"],
    &["script"],
    &["session"],
    &["save", "view", "sim", "watch"],
    &["devtools"],
];

fn layer(part: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&part))
}

/// Every file of `dir` (recursively) ending in `.rs`.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The parts a piece of Rust names as `crate::<part>` (and `crate::{a, b}`), outside
/// comments.
fn imported_parts(text: &str) -> BTreeSet<String> {
    let mut parts = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        parts.insert(name);
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                parts.insert(name);
            }
        }
    }
    parts
}

/// Which part imports which, from the files of `core/src` (the crate root, `lib.rs`, is the
/// facade over all of them and belongs to none).
fn import_graph() -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    import_graph_of("core/src")
}

/// Which part imports which, from the files of the crate whose sources are in `dir` (its
/// roots, `lib.rs` and `main.rs`, belong to no part).
fn import_graph_of(dir: &str) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let src = repo_root().join(dir);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("inside the crate's sources");
        let first = rel
            .components()
            .next()
            .expect("a path")
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if first == "lib" || first == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read file");
        let entry = graph.entry(first.clone()).or_default();
        for part in imported_parts(&text) {
            if part != first {
                entry
                    .entry(part)
                    .or_default()
                    .push(rel.display().to_string());
            }
        }
    }
    graph
}

#[test]
fn the_parts_of_core_import_each_other_one_way_only() {
    let graph = import_graph();
    assert!(graph.len() >= 15, "found only {:?}", graph.keys());
    let mut wrong = Vec::new();
    for (part, imports) in &graph {
        let Some(mine) = layer(part) else {
            wrong.push(format!(
                "part '{part}' is in no layer: add it to LAYERS here and to ARCHITECTURE.md"
            ));
            continue;
        };
        for (other, files) in imports {
            match layer(other) {
                Some(theirs) if theirs <= mine => {}
                Some(_) => wrong.push(format!(
                    "{part} imports {other}, a higher layer (in {})",
                    files.join(", ")
                )),
                None => wrong.push(format!("{part} imports '{other}', which is in no layer")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A circle of imports in `graph`, part by part, if there is one (a depth-first search for
/// a back edge).
fn find_circle(graph: &BTreeMap<String, BTreeMap<String, Vec<String>>>) -> Option<Vec<String>> {
    fn visit<'a>(
        part: &'a str,
        graph: &'a BTreeMap<String, BTreeMap<String, Vec<String>>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| *p == part) {
            let mut circle: Vec<String> = path[at..].iter().map(|p| p.to_string()).collect();
            circle.push(part.to_owned());
            return Some(circle);
        }
        if done.contains(part) {
            return None;
        }
        path.push(part);
        for next in graph.get(part).into_iter().flat_map(|m| m.keys()) {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(part);
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|part| visit(part, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_parts_of_core_import_each_other_in_a_circle() {
    if let Some(circle) = find_circle(&import_graph()) {
        panic!(
            "parts of core import each other in a circle: {}",
            circle.join(" -> ")
        );
    }
}

/// Which part of the folder `dir` (under `src`, a crate's sources) imports which of the
/// others: the parts are its files and its sub-folders (a sub-folder counts as one part,
/// through all of its files), not `mod.rs`, which declares them. A file names a sibling as
/// `super::<name>` (from a sub-folder's file, `super::super::<name>`, and so on) or by its
/// whole path, `crate::<folder>::<name>`.
fn sibling_graph(src: &Path, dir: &str) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let folder = src.join(dir);
    let mut names = BTreeSet::new();
    for entry in std::fs::read_dir(&folder).expect("read folder").flatten() {
        let path = entry.path();
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_dir() || (path.extension().is_some_and(|x| x == "rs") && name != "mod") {
            names.insert(name);
        }
    }
    let whole_path = format!("crate::{}::", dir.replace('/', "::"));
    let mut files = Vec::new();
    rust_files(&folder, &mut files);
    let mut graph: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(&folder).expect("inside the folder");
        let depth = rel.components().count() - 1;
        let first = rel.components().next().expect("a path");
        let me = Path::new(first.as_os_str())
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if me == "mod" {
            continue;
        }
        // `super::` from a file names its folder's parts; from a sub-folder's `mod.rs`, too.
        let ups = if file.file_name().is_some_and(|n| n == "mod.rs") {
            depth
        } else {
            depth + 1
        };
        let relative = "super::".repeat(ups);
        let text = std::fs::read_to_string(file).expect("read file");
        let entry = graph.entry(me.clone()).or_default();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            let mut prefixes = vec![whole_path.as_str()];
            if ups > 0 {
                prefixes.push(relative.as_str());
            }
            for prefix in prefixes {
                for (at, _) in code.match_indices(prefix) {
                    // `super::super::x` is not `super::x` seen one `super::` later.
                    if prefix.starts_with("super::") && code[..at].ends_with("super::") {
                        continue;
                    }
                    for target in named_after(&code[at + prefix.len()..]) {
                        if names.contains(&target) && target != me {
                            let by = rel.display().to_string();
                            entry.entry(target).or_default().push(by);
                        }
                    }
                }
            }
        }
    }
    graph
}

/// The names a path continues with: `x::…` gives x, `{a, b::c}` gives a and b.
fn named_after(rest: &str) -> Vec<String> {
    let word = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    match rest.strip_prefix('{') {
        Some(group) => group
            .split('}')
            .next()
            .unwrap_or("")
            .split(',')
            .map(word)
            .collect(),
        None => vec![word(rest)],
    }
}

/// Every folder of a crate's sources below its root, as paths relative to `src`.
fn folders(src: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("read folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            let rel = path
                .strip_prefix(src)
                .expect("inside")
                .display()
                .to_string();
            out.push(rel);
            folders(src, &path, out);
        }
    }
}

/// No two files of one folder import each other, directly or around a circle, in any
/// folder of core or the app (the window's parts, the script host, the loader, the command
/// line…): each folder's files stand in layers too.
#[test]
fn no_files_of_any_folder_import_each_other_in_a_circle() {
    let mut checked = Vec::new();
    let mut circles = Vec::new();
    for krate in ["core/src", "app/src"] {
        let src = repo_root().join(krate);
        let mut dirs = Vec::new();
        folders(&src, &src, &mut dirs);
        for dir in dirs {
            let graph = sibling_graph(&src, &dir);
            if let Some(circle) = find_circle(&graph) {
                let files: Vec<String> = circle
                    .windows(2)
                    .map(|w| {
                        format!(
                            "{} -> {} (in {})",
                            w[0],
                            w[1],
                            graph[&w[0]][&w[1]].join(", ")
                        )
                    })
                    .collect();
                circles.push(format!("{krate}/{dir}: {}", files.join("; ")));
            }
            checked.push(format!("{krate}/{dir}"));
        }
    }
    assert!(checked.len() >= 8, "found only {checked:?}");
    assert!(
        circles.is_empty(),
        "files import each other in a circle:\n{}",
        circles.join("\n")
    );
}

/// The check finds a circle where there is one: two files of a folder naming each other,
/// one by `super::`, the other by its whole path, and a sub-folder's file naming a file of
/// the folder above.
#[test]
fn the_folder_check_finds_a_circle_written_either_way() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let src = scratch.path();
    let parts = src.join("parts");
    std::fs::create_dir_all(parts.join("inner")).expect("folders");
    let write = |rel: &str, text: &str| std::fs::write(parts.join(rel), text).expect("write");
    write("mod.rs", "mod a;\nmod b;\nmod inner;\n");
    write("a.rs", "use super::b::Thing;\n");
    write("b.rs", "fn f() { crate::parts::a::g(); }\n");
    write("inner/mod.rs", "mod deep;\n");
    write(
        "inner/deep.rs",
        "use super::super::b::Thing;\n// super::a is a comment\n",
    );
    let graph = sibling_graph(src, "parts");
    assert_eq!(
        find_circle(&graph),
        Some(vec!["a".to_owned(), "b".to_owned(), "a".to_owned()])
    );
    assert_eq!(
        graph["inner"].keys().collect::<Vec<_>>(),
        vec!["b"],
        "the sub-folder counts as one part, and a comment imports nothing"
    );
    write("b.rs", "fn f() {}\n");
    assert_eq!(find_circle(&sibling_graph(src, "parts")), None);
}

/// The window's parts (the boards, the cards, the panels, the game view …) import each other
/// one way: the drawing vocabulary they share is a part of its own.
#[test]
fn no_parts_of_the_window_import_each_other_in_a_circle() {
    let graph = sibling_graph(&repo_root().join("app/src"), "gui");
    assert!(graph.len() >= 10, "found only {:?}", graph.keys());
    if let Some(circle) = find_circle(&graph) {
        panic!(
            "parts of the window import each other in a circle: {}",
            circle.join(" -> ")
        );
    }
}

#[test]
fn the_import_reader_sees_grouped_and_inline_paths() {
    let parts = imported_parts(
        "use crate::{table::Table, module};\nlet x = crate::view::state_json(); // crate::sim\n",
    );
    assert_eq!(
        parts,
        BTreeSet::from(["table".to_owned(), "module".to_owned(), "view".to_owned()])
    );
}

/// The app's parts, lowest first: a part imports only parts of lower layers (so the two
/// front ends never import each other).
const APP_LAYERS: &[&[&str]] = &[&["games"], &["cli", "gui"]];

#[test]
fn the_app_s_front_ends_import_only_what_they_share() {
    let graph = import_graph_of("app/src");
    let layer = |part: &str| APP_LAYERS.iter().position(|l| l.contains(&part));
    let mut wrong = Vec::new();
    for (part, imports) in &graph {
        let Some(mine) = layer(part) else {
            wrong.push(format!(
                "app part '{part}' is in no layer: add it to APP_LAYERS"
            ));
            continue;
        };
        for (other, files) in imports {
            match layer(other) {
                Some(theirs) if theirs < mine => {}
                _ => wrong.push(format!(
                    "{part} imports {other} (in {}): share it through a lower part",
                    files.join(", ")
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(graph.contains_key("games") && graph.contains_key("gui"));
}
