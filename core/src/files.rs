//! Writing files so that a crash never leaves half of one: saves, overlays, recordings.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The largest file a module may hold (data, scripts, tests, recordings), in bytes.
pub const MAX_MODULE_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads the file `rel` names inside the module folder `dir` as text, refusing what a
/// module may not make Chancery read: a path that leaves the folder (absolute, through
/// `..`, or through a link that points out of it), anything but a regular file (a device,
/// a pipe, a folder), a file larger than [`MAX_MODULE_FILE_BYTES`], and text that is not
/// UTF-8 (the error gives its line and column). Returns the path read and the text.
pub fn read_inside(dir: &Path, rel: &str) -> Result<(PathBuf, String), ReadError> {
    let path = inside(dir, rel)?;
    let text = read_text(
        &path,
        rel,
        MAX_MODULE_FILE_BYTES,
        "a module names only files of its own",
    )?;
    Ok((path, text))
}

/// Reads the regular file at `path` as UTF-8 text of at most `max_bytes`, naming it `shown`
/// in errors: anything but a regular file (a device, a pipe, a folder) is refused with
/// `why_regular` as the advice, a larger file is refused before it is read, and text that is
/// not UTF-8 is reported at its line and column. A file that is not there is an error whose
/// message starts "cannot read".
pub fn read_text(
    path: &Path,
    shown: &str,
    max_bytes: u64,
    why_regular: &str,
) -> Result<String, ReadError> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read '{shown}': {e}"))?;
    if !meta.is_file() {
        return Err(format!("'{shown}' is not a regular file: {why_regular}").into());
    }
    let too_large = |when: &str| {
        ReadError::from(format!(
            "'{shown}' {when} larger than the {} a file of this kind may be",
            size_text(max_bytes)
        ))
    };
    if meta.len() > max_bytes {
        return Err(too_large("is"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(max_bytes + 1).read_to_end(&mut bytes))
        .map_err(|e| ReadError::from(format!("cannot read '{shown}': {e}")))?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large("grew, while it was read,"));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let col = String::from_utf8_lossy(&good[start..]).chars().count() + 1;
        ReadError {
            message: format!(
                "'{shown}' is not UTF-8 text: line {line}, column {col} holds a byte that is not (save the file as UTF-8)"
            ),
            position: Some((line, col)),
        }
    })
}

/// [`read_text`] of the file at `path`, named by its path in errors.
pub fn read_file(path: &Path, max_bytes: u64, why_regular: &str) -> Result<String, ReadError> {
    read_text(path, &path.display().to_string(), max_bytes, why_regular)
}

/// A size in bytes as people read it: "64 MiB", "16 KiB", "100 bytes".
pub fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1024 * 1024 && b % (1024 * 1024) == 0 => format!("{} MiB", b / (1024 * 1024)),
        b if b >= 1024 && b % 1024 == 0 => format!("{} KiB", b / 1024),
        b => format!("{b} bytes"),
    }
}

/// Why a module file could not be read, and where in it, if the problem is in its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// What is wrong and what to do.
    pub message: String,
    /// The line and column of the problem in the file.
    pub position: Option<(usize, usize)>,
}

impl From<String> for ReadError {
    fn from(message: String) -> Self {
        ReadError {
            message,
            position: None,
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The names of the Lua scripts directly in `dir`, sorted (none if it cannot be read).
pub fn lua_files(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lua"))
        .collect();
    names.sort();
    names
}

/// The path of `rel` inside the module folder `dir`, once `..` and links are resolved; an
/// error if it would leave the folder.
pub fn inside(dir: &Path, rel: &str) -> Result<PathBuf, String> {
    let given = Path::new(rel);
    let lexical = !given.is_absolute()
        && given
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    let outside = || {
        format!(
            "'{rel}' is outside the module folder: a module names its files by paths inside its folder (like data/cards.ron)"
        )
    };
    if !lexical {
        return Err(outside());
    }
    let path = dir.join(given);
    // A link inside the folder may point out of it: compare where both really are.
    if let (Ok(root), Ok(real)) = (dir.canonicalize(), path.canonicalize())
        && !real.starts_with(&root)
    {
        return Err(outside());
    }
    Ok(path)
}

/// Whether two paths name the same file: the same once links and `..` are resolved, or,
/// where one is not there yet, the same absolute path (as it would be once written).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// Writes `bytes` to `path` atomically: to a temporary file beside it (`.NAME.PID.tmp`),
/// flushed to disk, then renamed over `path`. Only a regular file is written: a link (which
/// the rename would replace, not follow), a device, a pipe or a folder at `path` is refused
/// with an `InvalidInput` error that says so. Temporary files that an earlier, killed
/// process left in the folder are removed first.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_streamed(path, true, &mut |out| out.write_all(bytes))
}

/// Writes what `fill` writes to `path` atomically, as [`write_atomic`] does (or, unless
/// `replace`, as [`write_new`] does), without holding it all in memory: `fill` writes into a
/// buffered temporary file, and an error from it (a size limit, say) leaves nothing behind.
pub fn write_streamed(
    path: &Path,
    replace: bool,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    check_target(path)?;
    if replace {
        return write_through_temporary(path, fill, |tmp, path| std::fs::rename(tmp, path));
    }
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} already exists", path.display()),
        ));
    }
    // A hard link fails if the name is taken: the file appears whole, or not at all.
    write_through_temporary(path, fill, |tmp, path| {
        std::fs::hard_link(tmp, path)?;
        std::fs::remove_file(tmp)
    })
}

/// Writes `bytes` to `path` atomically, as [`write_atomic`] does, but only if nothing is
/// there yet: an existing file is an `AlreadyExists` error and stays as it was (even when
/// another process creates it meanwhile).
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_streamed(path, false, &mut |out| out.write_all(bytes))
}

/// Refuses to write at `path` if what is there is not a regular file.
fn check_target(path: &Path) -> std::io::Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    let refuse = |what: &str| {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{} is {what}: Chancery writes only regular files (name the file itself)",
                path.display()
            ),
        ))
    };
    if meta.file_type().is_symlink() {
        refuse("a link")
    } else if meta.is_dir() {
        refuse("a folder")
    } else if !meta.is_file() {
        refuse("not a regular file (a device or a pipe)")
    } else {
        Ok(())
    }
}

/// Writes what `fill` writes to a temporary file beside `path`, flushed to disk, and puts it
/// in place with `finish`; the temporary file is removed if anything fails.
fn write_through_temporary(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
    finish: impl FnOnce(&Path, &Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".to_owned());
    // Whatever a killed writer left in this folder goes, not only this file's.
    clean_stale_temporaries(&dir, None);
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::options()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .or_else(|_| {
                // A temporary file of this process left by a write that failed.
                std::fs::remove_file(&tmp)?;
                std::fs::File::create_new(&tmp)
            })?;
        let mut buffered = std::io::BufWriter::with_capacity(1 << 16, &mut file);
        fill(&mut buffered)?;
        buffered.flush()?;
        drop(buffered);
        file.sync_all()?;
        finish(&tmp, path)
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
    fn temporary_files_of_a_killed_writer_are_removed_on_the_next_write() {
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
            !other.exists(),
            "another file's temporaries of a killed writer go too"
        );
        assert_eq!(clean_stale_temporaries(dir.path(), None), 0);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("game.ron")).expect("read"),
            "whole"
        );
    }

    #[test]
    fn a_module_reads_only_regular_files_inside_its_folder() {
        let scratch = tempfile::tempdir().expect("a scratch folder");
        let dir = scratch.path().join("module");
        std::fs::create_dir_all(dir.join("data")).expect("mkdir");
        std::fs::write(dir.join("data/a.ron"), "(x: 1)").expect("write");
        std::fs::write(scratch.path().join("secret.txt"), "secret").expect("write");
        std::fs::write(dir.join("data/bad.ron"), b"ok\n  \xff").expect("write");
        assert_eq!(
            read_inside(&dir, "data/a.ron").map(|(_, t)| t),
            Ok("(x: 1)".to_owned())
        );
        for rel in ["/etc/hostname", "../secret.txt", "data/../../secret.txt"] {
            let err = read_inside(&dir, rel).expect_err(rel).message;
            assert!(err.contains("is outside the module folder"), "{rel}: {err}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(
                scratch.path().join("secret.txt"),
                dir.join("data/link.ron"),
            )
            .expect("link");
            let err = read_inside(&dir, "data/link.ron")
                .expect_err("a link out")
                .message;
            assert!(err.contains("is outside the module folder"), "{err}");
            std::os::unix::fs::symlink("/dev/zero", dir.join("data/zero.ron")).expect("link");
            let err = read_inside(&dir, "data/zero.ron")
                .expect_err("a device")
                .message;
            assert!(err.contains("outside the module folder"), "{err}");
        }
        let err = read_inside(&dir, "data").expect_err("a folder").message;
        assert!(err.contains("'data' is not a regular file"), "{err}");
        let err = read_inside(&dir, "data/bad.ron").expect_err("not UTF-8");
        assert_eq!(err.position, Some((2, 3)), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn links_devices_and_existing_files_are_not_written_over() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let target = dir.path().join("target.ron");
        std::fs::write(&target, "the owner's file").expect("write");
        let link = dir.path().join("link.ron");
        std::os::unix::fs::symlink(&target, &link).expect("link");
        let err = write_atomic(&link, b"x").expect_err("a link");
        assert!(err.to_string().contains("is a link"), "{err}");
        assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()));
        let err = write_atomic(Path::new("/dev/null"), b"x").expect_err("a device");
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let err = write_atomic(dir.path(), b"x").expect_err("a folder");
        assert!(err.to_string().contains("is a folder"), "{err}");
        let err = write_new(&target, b"x").expect_err("exists");
        assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(
            std::fs::read_to_string(&target).expect("read"),
            "the owner's file"
        );
        let fresh = dir.path().join("fresh.ron");
        write_new(&fresh, b"new").expect("a new file");
        assert_eq!(std::fs::read_to_string(&fresh).expect("read"), "new");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .expect("read")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "no temporary file is left behind");
    }

    #[test]
    fn only_temporary_names_are_taken_apart() {
        assert_eq!(temporary_parts(".a.ron.12.tmp"), Some(("a.ron", 12)));
        assert_eq!(temporary_parts("a.ron"), None);
        assert_eq!(temporary_parts(".a.ron.x.tmp"), None);
        assert_eq!(temporary_parts("..12.tmp"), None);
    }
}
