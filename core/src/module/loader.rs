//! The collector a module's load reports into: the files read (each kept to point a
//! diagnostic at a position in it), the diagnostics, where each component was defined, and
//! the module's digest. The loader (`load.rs`) and the checks (`validate.rs`) both write
//! into it.

use std::collections::BTreeMap;
use std::hash::Hasher;
use std::path::PathBuf;

use serde::de::DeserializeOwned;

use super::Catalog;
use super::diag::{Diagnostic, Diagnostics};
use super::locate::{Anchor, Locator};
use crate::digest::Fnv64;

/// A file read during the load, kept to point diagnostics at positions in it.
pub(super) struct Source {
    pub path: PathBuf,
    pub text: String,
    pub locator: Locator,
}

/// Collects sources and diagnostics while a module loads.
pub(super) struct Loader {
    pub dir: PathBuf,
    pub sources: Vec<Source>,
    pub diags: Diagnostics,
    /// Which source defined each component, keyed by (kind noun, id).
    pub origins: BTreeMap<(&'static str, String), usize>,
    /// Per source: problems reported, and those left out past [`MAX_PROBLEMS_PER_FILE`].
    pub counted: BTreeMap<usize, (usize, usize)>,
    pub hasher: Fnv64,
    /// The same digest without the owner's overlay: the module's own files.
    pub files_hasher: Fnv64,
}

/// The most problems listed for one file; the rest are counted in one line (a file of
/// thousands of mistakes is reported in time linear in its size).
pub const MAX_PROBLEMS_PER_FILE: usize = 100;

/// The manifest is always source 0.
pub(super) const MANIFEST: usize = 0;

impl Loader {
    /// Reads `rel` (relative to the module folder) as a new source, or reports why not at
    /// the place in the manifest that names it.
    pub(super) fn read(&mut self, rel: &str) -> Option<usize> {
        match crate::files::read_inside(&self.dir, rel) {
            Ok((path, text)) => {
                for hasher in [&mut self.hasher, &mut self.files_hasher] {
                    hasher.write(rel.as_bytes());
                    hasher.write(text.as_bytes());
                }
                self.sources.push(Source {
                    locator: Locator::new(&text),
                    path,
                    text,
                });
                Some(self.sources.len() - 1)
            }
            Err(err) => {
                match err.position {
                    Some((line, col)) => self.diags.push(Diagnostic::error(
                        self.dir.join(rel),
                        line,
                        col,
                        err.message,
                    )),
                    None => self.error(MANIFEST, &[Anchor::Str(rel)], err.message),
                }
                None
            }
        }
    }

    /// Parses source `idx` as RON into `T`, reporting a syntax or type error at its position.
    pub(super) fn parse<T: DeserializeOwned>(&mut self, idx: usize) -> Option<T> {
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        match options.from_str::<T>(&self.sources[idx].text) {
            Ok(value) => Some(value),
            Err(err) => {
                let path = self.sources[idx].path.clone();
                self.diags.push(Diagnostic::error(
                    path,
                    err.span.start.line,
                    err.span.start.col,
                    ron_message(&err.code),
                ));
                None
            }
        }
    }

    /// Reports an error at the position `anchors` find in source `idx`.
    pub fn error(&mut self, idx: usize, anchors: &[Anchor<'_>], message: impl Into<String>) {
        if let Some((line, col)) = self.place(idx, anchors) {
            let path = self.sources[idx].path.clone();
            self.diags.push(Diagnostic::error(path, line, col, message));
        }
    }

    /// Reports a warning at the position `anchors` find in source `idx`.
    pub fn warning(&mut self, idx: usize, anchors: &[Anchor<'_>], message: impl Into<String>) {
        if let Some((line, col)) = self.place(idx, anchors) {
            let path = self.sources[idx].path.clone();
            self.diags
                .push(Diagnostic::warning(path, line, col, message));
        }
    }

    /// Where `anchors` point in source `idx`, or `None` once the file has had
    /// [`MAX_PROBLEMS_PER_FILE`] problems (the rest are only counted).
    pub(super) fn place(&mut self, idx: usize, anchors: &[Anchor<'_>]) -> Option<(usize, usize)> {
        let (listed, left_out) = self.counted.entry(idx).or_default();
        if *listed >= MAX_PROBLEMS_PER_FILE {
            *left_out += 1;
            return None;
        }
        *listed += 1;
        Some(self.sources[idx].locator.locate(anchors))
    }

    /// Adds, for each file whose problems were not all listed, how many were left out.
    pub(super) fn count_left_out(&mut self) {
        for (idx, (_, left_out)) in std::mem::take(&mut self.counted) {
            if left_out > 0 {
                self.diags.push(Diagnostic::error(
                    self.sources[idx].path.clone(),
                    1,
                    1,
                    format!(
                        "{left_out} more problem(s) in this file are not listed (the first {MAX_PROBLEMS_PER_FILE} are): mend those and check again"
                    ),
                ));
            }
        }
    }

    /// Where the component `(kind, id)` is defined, as "path:line:col".
    pub fn origin_text(&self, kind: &'static str, id: &str) -> String {
        match self.origins.get(&(kind, id.to_owned())) {
            Some(&idx) => {
                let (line, col) = self.sources[idx].locator.locate(&[Anchor::Field("id", id)]);
                format!("{}:{line}:{col}", self.sources[idx].path.display())
            }
            None => "elsewhere".to_owned(),
        }
    }

    /// Adds a definition to `catalog`, or reports a duplicate id at the second definition.
    pub(super) fn define<K, V>(
        &mut self,
        catalog: &mut Catalog<K, V>,
        kind: &'static str,
        idx: usize,
        id: K,
        item: V,
    ) where
        K: Ord + Clone + std::borrow::Borrow<str>,
    {
        let id_text: String = id.borrow().to_owned();
        if catalog.contains(&id_text) {
            let first = self.origin_text(kind, &id_text);
            // The duplicate is the second definition in its file if the first one is there too.
            let same_file = self.origins.get(&(kind, id_text.clone())) == Some(&idx);
            let all = self.sources[idx]
                .locator
                .locate_all(&Anchor::Field("id", &id_text));
            let (line, col) = all
                .get(usize::from(same_file))
                .or(all.first())
                .copied()
                .unwrap_or((1, 1));
            let path = self.sources[idx].path.clone();
            self.diags.push(Diagnostic::error(
                path,
                line,
                col,
                format!("duplicate {kind} id '{id_text}' (first defined at {first})"),
            ));
            return;
        }
        self.origins.insert((kind, id_text), idx);
        catalog.insert(id, item);
    }
}

/// Rewords a RON error for a module designer.
pub(super) fn ron_message(code: &ron::Error) -> String {
    let text = code.to_string();
    match code {
        ron::Error::ExpectedDifferentStructName { .. } | ron::Error::NoSuchStructField { .. } => {
            text
        }
        _ => format!("RON: {text}"),
    }
}
