//! Autosaves: every game a window plays has a file of its own in the autosave folder
//! (`<module>-<when it started>.ron`), which that window holds while it plays, so that no
//! other window, start or load ever writes over it. A game with no input in it is removed
//! when its window lets it go; a game with inputs stays until the person discards it, and
//! discarded games are removed only when they are both old and beyond the newest kept.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chancery_core::Session;
use chancery_core::save::SaveFile;

/// How many discarded games the `discarded/` folder keeps at least (the newest).
pub const KEPT_DISCARDED: usize = 20;

/// How long a discarded game is kept at least.
pub const DISCARDED_KEPT_FOR: Duration = Duration::from_secs(30 * 24 * 3600);

/// A save larger than this is not read to see whether it is empty: it is not.
const EMPTY_SAVE_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The autosave file of one game, held by the window that plays it: a lock on
/// `.<name>.lock` beside it tells other windows (and other starts) that it is in use.
#[derive(Debug)]
pub struct Autosave {
    path: PathBuf,
    lock_path: PathBuf,
    /// Held open with an exclusive lock for as long as the game is played here.
    _lock: File,
    /// Whether the last write held a game with no input (removed when let go).
    empty: bool,
}

impl Autosave {
    /// A new file for a game of `module` in the autosave folder `dir`, named by the time it
    /// starts (`<module>-2026-11-25-140509.ron`, `-2`, `-3`… when that name is taken).
    pub fn start(dir: &Path, module: &str) -> std::io::Result<Autosave> {
        std::fs::create_dir_all(dir)?;
        chancery_core::files::clean_stale_temporaries(dir, None);
        let stamp = time_stamp(SystemTime::now());
        let mut n = 0;
        loop {
            n += 1;
            let name = match n {
                1 => format!("{module}-{stamp}.ron"),
                n => format!("{module}-{stamp}-{n}.ron"),
            };
            let path = dir.join(&name);
            // Claim the name: creating it fails if another window has it.
            match File::options().write(true).create_new(true).open(&path) {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
            if let Some(mut held) = Autosave::hold(&path) {
                held.empty = true;
                return Ok(held);
            }
        }
    }

    /// Holds the autosave at `path` (a game resumed or opened from the autosave folder), unless
    /// another window plays it now.
    pub fn hold(path: &Path) -> Option<Autosave> {
        let lock_path = lock_path(path)?;
        let lock = File::options()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .ok()?;
        lock.try_lock().ok()?;
        Some(Autosave {
            path: path.to_path_buf(),
            lock_path,
            _lock: lock,
            empty: false,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `session` to the file, whole or not at all.
    pub fn write(&mut self, session: &Session) -> Result<(), String> {
        SaveFile::of(session)
            .write(&self.path)
            .map_err(|e| e.to_string())?;
        self.empty = session.history().is_empty() && session.history().redo_stack().is_empty();
        Ok(())
    }
}

impl Drop for Autosave {
    fn drop(&mut self) {
        // A game nobody played is not worth keeping; one with inputs always is.
        if self.empty {
            let _ = std::fs::remove_file(&self.path);
        }
        // Removed while still held, so that no other window takes a lock that is going away.
        let _ = std::fs::remove_file(&self.lock_path);
    }
}

/// `.<name>.lock` beside `path`.
fn lock_path(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_string_lossy();
    Some(path.with_file_name(format!(".{name}.lock")))
}

/// Whether another window plays the game autosaved at `path` now.
pub fn in_use(path: &Path) -> bool {
    let Some(lock) = lock_path(path).filter(|l| l.exists()) else {
        return false;
    };
    match File::options().write(true).open(lock) {
        Ok(file) => file.try_lock().is_err(),
        Err(_) => false,
    }
}

/// An autosaved game: its file, when it was last written and whether a window plays it now.
#[derive(Clone, Debug)]
pub struct Kept {
    /// The file.
    pub path: PathBuf,
    /// When it was last written.
    pub written: SystemTime,
    /// Whether another window plays it now.
    pub in_use: bool,
}

/// The games autosaved in `dir` (of `module` only, if given), the newest first. Games with
/// no input that no window plays (left behind by a window that was killed) are removed.
pub fn games(dir: &Path, module: Option<&str>) -> Vec<Kept> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut games: Vec<Kept> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            p.extension().is_some_and(|x| x == "ron")
                && !name.starts_with('.')
                && module.is_none_or(|m| is_game_of(&name, m))
                && p.is_file()
        })
        .filter_map(|path| {
            let written = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
            let in_use = in_use(&path);
            if !in_use && is_empty_game(&path) {
                let _ = std::fs::remove_file(&path);
                if let Some(lock) = lock_path(&path) {
                    let _ = std::fs::remove_file(lock);
                }
                return None;
            }
            Some(Kept {
                path,
                written,
                in_use,
            })
        })
        .collect();
    games.sort_by_key(|k| std::cmp::Reverse(k.written));
    games
}

/// Whether the file `name` is an autosave of `module`: `<module>.ron` (written by earlier
/// versions) or `<module>-<digit>….ron`.
fn is_game_of(name: &str, module: &str) -> bool {
    name.strip_prefix(module).is_some_and(|rest| {
        rest == ".ron"
            || rest
                .strip_prefix('-')
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// Whether `path` holds a save of a game with no input and nothing to redo (a file being
/// claimed, still empty, counts too). Anything unreadable is kept.
fn is_empty_game(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if meta.len() == 0 {
        return true;
    }
    if meta.len() > EMPTY_SAVE_MAX_BYTES {
        return false;
    }
    SaveFile::read(path).is_ok_and(|s| s.inputs.is_empty() && s.redo.is_empty())
}

/// Moves the autosaved game at `path` into `discarded/` beside it (the person discarded it),
/// then removes discarded games that are both older than [`DISCARDED_KEPT_FOR`] and beyond
/// the newest [`KEPT_DISCARDED`]. Refused while another window plays it.
pub fn discard(path: &Path) -> Result<PathBuf, String> {
    if in_use(path) {
        return Err(format!(
            "{} is being played in another window: close it there first",
            path.display()
        ));
    }
    let dir = path
        .parent()
        .ok_or_else(|| format!("{} is not in a folder", path.display()))?;
    let bin = dir.join("discarded");
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    let name = path
        .file_name()
        .ok_or_else(|| format!("{} names no file", path.display()))?;
    let to = bin.join(name);
    std::fs::rename(path, &to).map_err(|e| format!("cannot move {}: {e}", path.display()))?;
    prune_discarded(&bin, SystemTime::now());
    Ok(to)
}

/// Removes the discarded games in `bin` that are older than [`DISCARDED_KEPT_FOR`] at `now`
/// and not among the newest [`KEPT_DISCARDED`].
fn prune_discarded(bin: &Path, now: SystemTime) {
    let mut old: Vec<(SystemTime, PathBuf)> = std::fs::read_dir(bin)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| {
                    let written = e.metadata().and_then(|m| m.modified()).ok()?;
                    Some((written, e.path()))
                })
                .collect()
        })
        .unwrap_or_default();
    old.sort_by_key(|(written, _)| std::cmp::Reverse(*written));
    for (written, path) in old.into_iter().skip(KEPT_DISCARDED) {
        let age = now.duration_since(written).unwrap_or_default();
        if age > DISCARDED_KEPT_FOR {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// `time` (UTC) as `YYYY-MM-DD-HHMMSS`, which sorts as it reads.
pub fn time_stamp(time: SystemTime) -> String {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (the proleptic Gregorian calendar).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_stamps_are_civil_dates_in_utc() {
        let at = |secs| std::time::UNIX_EPOCH + Duration::from_secs(secs);
        assert_eq!(time_stamp(at(0)), "1970-01-01-000000");
        assert_eq!(time_stamp(at(951_782_400)), "2000-02-29-000000");
        assert_eq!(time_stamp(at(1_795_446_309)), "2026-11-23-150509");
    }

    #[test]
    fn two_games_started_in_the_same_second_get_two_files_each_held() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let first = Autosave::start(dir.path(), "m").expect("first");
        let second = Autosave::start(dir.path(), "m").expect("second");
        assert_ne!(first.path(), second.path());
        assert!(in_use(first.path()) && in_use(second.path()));
        assert!(
            Autosave::hold(first.path()).is_none(),
            "a second window cannot hold a game being played"
        );
        let path = first.path().to_path_buf();
        drop(first);
        assert!(!path.exists(), "a game with no input is not kept");
        assert!(!in_use(&path));
    }

    #[test]
    fn only_games_of_the_module_are_listed_and_names_are_told_apart() {
        assert!(is_game_of("game-2026-11-25-120000.ron", "game"));
        assert!(is_game_of("game.ron", "game"));
        assert!(!is_game_of("game-x.ron", "game"));
        assert!(!is_game_of("gamer-2026-11-25-120000.ron", "game"));
    }

    #[test]
    fn discarded_games_go_only_when_old_and_beyond_the_newest_kept() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let bin = dir.path().join("discarded");
        std::fs::create_dir_all(&bin).expect("mkdir");
        for i in 0..KEPT_DISCARDED + 3 {
            std::fs::write(bin.join(format!("m-{i:02}.ron")), "x").expect("write");
            std::thread::sleep(Duration::from_millis(5));
        }
        prune_discarded(&bin, SystemTime::now());
        let left = std::fs::read_dir(&bin).expect("read").count();
        assert_eq!(left, KEPT_DISCARDED + 3, "young games all stay");
        prune_discarded(&bin, SystemTime::now() + DISCARDED_KEPT_FOR * 2);
        let mut left: Vec<String> = std::fs::read_dir(&bin)
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left.len(), KEPT_DISCARDED, "old ones beyond the newest go");
        assert_eq!(left[0], "m-03.ron", "the three oldest went");
    }
}
