//! Writing files so that a crash never leaves half of one: saves, overlays, recordings.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Writes `bytes` to `path` atomically: to a temporary file beside it (`.NAME.PID.tmp`),
/// flushed to disk, then renamed over `path`. Temporary files of `path` that an earlier,
/// killed process left behind are removed first.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".to_owned());
    clean_stale_temporaries(&dir, Some(&name));
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Removes the temporary files `write_atomic` left in `dir` when its process was killed
/// mid-write (only those of the file `name`, if given): each names its process, and a
/// file whose process is gone is removed. Returns how many were removed.
pub fn clean_stale_temporaries(dir: &Path, name: Option<&str>) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some((of, pid)) = temporary_parts(&file_name) else {
            continue;
        };
        if name.is_some_and(|n| n != of) || pid == std::process::id() {
            continue;
        }
        if !process_may_be_alive(pid, &entry.path()) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// `.NAME.PID.tmp` split into NAME and PID.
fn temporary_parts(file_name: &str) -> Option<(&str, u32)> {
    let inner = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (name, pid) = inner.rsplit_once('.')?;
    Some((name, pid.parse().ok()?)).filter(|(name, _)| !name.is_empty())
}

/// Whether process `pid` may still be writing `tmp`: where `/proc` lists the running
/// processes, whether it is listed; elsewhere, whether the file changed in the last hour.
fn process_may_be_alive(pid: u32, tmp: &Path) -> bool {
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        return proc.join(pid.to_string()).exists();
    }
    std::fs::metadata(tmp)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_none_or(|age| age < Duration::from_secs(3600))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_temporary_file_of_a_killed_writer_is_removed_on_the_next_write() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        // No process has this id (ids are below 2^22 on Linux).
        let stale = dir.path().join(".game.ron.4000000000.tmp");
        let live = dir
            .path()
            .join(format!(".game.ron.{}.tmp", std::process::id()));
        let other = dir.path().join(".other.ron.4000000000.tmp");
        for path in [&stale, &live, &other] {
            std::fs::write(path, "half a save").expect("write");
        }
        write_atomic(&dir.path().join("game.ron"), b"whole").expect("saved");
        assert!(!stale.exists(), "the killed writer's file is removed");
        assert!(!live.exists(), "this process's own is renamed into place");
        assert!(
            other.exists(),
            "another file's temporaries wait for its own write"
        );
        assert_eq!(clean_stale_temporaries(dir.path(), None), 1);
        assert!(!other.exists());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("game.ron")).expect("read"),
            "whole"
        );
    }

    #[test]
    fn only_temporary_names_are_taken_apart() {
        assert_eq!(temporary_parts(".a.ron.12.tmp"), Some(("a.ron", 12)));
        assert_eq!(temporary_parts("a.ron"), None);
        assert_eq!(temporary_parts(".a.ron.x.tmp"), None);
        assert_eq!(temporary_parts("..12.tmp"), None);
    }
}
