//! A module as it travels to a server: its text files by path, named by the SHA-256 of their
//! canonical JSON. A table names the archive it plays by that hash, so every client of a
//! table plays the same module version by construction. Unpacking confines every path to
//! the archive's own folder.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// At most this many bytes in one archive, all files together.
pub const MAX_BYTES: usize = 16 << 20;
/// At most this many files.
pub const MAX_FILES: usize = 2_000;

/// A module's files: relative path (with `/`) to contents.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Archive {
    /// The files.
    pub files: BTreeMap<String, String>,
}

impl Archive {
    /// The module folder `dir`'s text files (its manifest, data, scripts, tests and notes);
    /// folders whose name starts with a dot and `target` are left out, and so is a file
    /// that is not UTF-8 text (an image belongs to the owner's overlay, not the module).
    pub fn from_dir(dir: &Path) -> anyhow::Result<Archive> {
        let mut archive = Archive::default();
        let mut total = 0;
        collect(dir, dir, &mut archive, &mut total)?;
        if !archive.files.contains_key("module.ron") {
            anyhow::bail!(
                "{} has no module.ron: give the module's folder",
                dir.display()
            );
        }
        Ok(archive)
    }

    /// The archive's name: the SHA-256 of its canonical JSON, in hex.
    pub fn hash(&self) -> String {
        let json = serde_json::to_vec(&self.files).unwrap_or_default();
        hex::encode(Sha256::digest(json))
    }

    /// Checks what a client sent: sizes, counts and paths that stay inside the archive.
    pub fn check(&self) -> Result<(), String> {
        if self.files.len() > MAX_FILES {
            return Err(format!(
                "the module has {} files; at most {MAX_FILES} are taken",
                self.files.len()
            ));
        }
        let total: usize = self.files.iter().map(|(p, c)| p.len() + c.len()).sum();
        if total > MAX_BYTES {
            return Err(format!(
                "the module is {total} bytes; at most {MAX_BYTES} are taken"
            ));
        }
        for path in self.files.keys() {
            safe_path(path)?;
        }
        if !self.files.contains_key("module.ron") {
            return Err("the archive has no module.ron".to_owned());
        }
        Ok(())
    }

    /// Writes the files under `dir` (made if missing), after [`Archive::check`].
    pub fn unpack(&self, dir: &Path) -> anyhow::Result<()> {
        self.check().map_err(anyhow::Error::msg)?;
        for (path, contents) in &self.files {
            let target = dir.join(safe_path(path).map_err(anyhow::Error::msg)?);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&target, contents)?;
        }
        Ok(())
    }
}

/// A relative path of plain names only: no root, no `..`, no drive, not empty.
fn safe_path(path: &str) -> Result<PathBuf, String> {
    let p = Path::new(path);
    let plain = !path.is_empty()
        && !path.contains('\\')
        && p.components().all(|c| matches!(c, Component::Normal(_)));
    match plain {
        true => Ok(p.to_path_buf()),
        false => Err(format!(
            "the path '{path}' leaves the module's folder: only plain relative paths are taken"
        )),
    }
}

fn collect(
    root: &Path,
    dir: &Path,
    archive: &mut Archive,
    total: &mut usize,
) -> anyhow::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", dir.display()))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let kind = entry.file_type()?;
        if name.starts_with('.') || (kind.is_dir() && name == "target") || kind.is_symlink() {
            continue;
        }
        if kind.is_dir() {
            collect(root, &path, archive, total)?;
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let rel = path
            .strip_prefix(root)
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        *total += rel.len() + text.len();
        if *total > MAX_BYTES || archive.files.len() >= MAX_FILES {
            anyhow::bail!(
                "{} is larger than a table takes ({MAX_BYTES} bytes, {MAX_FILES} files)",
                root.display()
            );
        }
        archive.files.insert(rel, text);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_that_leaves_the_archive_is_refused() {
        for bad in ["../x", "/etc/passwd", "a/../../b", "", "a\\b", "./a"] {
            assert!(safe_path(bad).is_err(), "{bad}");
        }
        assert!(safe_path("rules/main.lua").is_ok());
        let mut archive = Archive::default();
        archive.files.insert("module.ron".into(), "()".into());
        archive.files.insert("../escape.lua".into(), "x".into());
        let err = archive.check().expect_err("refused");
        assert!(err.contains("leaves the module's folder"), "{err}");
    }

    #[test]
    fn the_same_files_have_the_same_name() {
        let mut a = Archive::default();
        a.files.insert("module.ron".into(), "()".into());
        let mut b = a.clone();
        assert_eq!(a.hash(), b.hash());
        b.files.insert("rules/main.lua".into(), "return {}".into());
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.hash().len(), 64);
    }
}
