//! Hot reload: watch a module folder (and its overlay), and when files change, load the
//! module again off the caller's thread. The caller rebases its session onto a module that
//! loaded, and keeps the last good one (showing the diagnostics) when it did not.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::module::{Diagnostics, LoadOptions, Module};

/// The outcome of one reload.
#[derive(Debug)]
pub enum Reload {
    /// The module loaded; `load_ms` is how long loading took.
    Loaded {
        /// The new version.
        module: Arc<Module>,
        /// The files whose change started the reload.
        changed: Vec<PathBuf>,
        /// Time spent loading, in milliseconds.
        load_ms: u128,
        /// When the first of those changes was seen (the file saved): how long the edit
        /// takes to reach the screen is measured from here.
        since: Instant,
    },
    /// The module did not load: keep the last good version and show these.
    Failed {
        /// What is wrong, file:line:col each.
        diagnostics: Diagnostics,
        /// The files whose change started the reload.
        changed: Vec<PathBuf>,
    },
    /// Watching itself failed (the folder vanished, say).
    WatchError(String),
}

/// Called from the watcher's thread when a reload is ready (a window asks to be drawn
/// again, so that it need not look for reloads while idle).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// Watches a module folder and reloads the module when its files change.
pub struct ModuleWatcher {
    _debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    events: Receiver<Reload>,
    waker: Arc<Mutex<Option<Waker>>>,
}

impl ModuleWatcher {
    /// Starts watching `dir` (recursively) and the overlay file `options` names, if any.
    /// Changes are collected for `debounce` before one reload runs.
    pub fn new(
        dir: &Path,
        options: LoadOptions,
        overlay: Option<PathBuf>,
        debounce: Duration,
    ) -> Result<Self, String> {
        let (tx, rx) = channel();
        let module_dir = dir.to_path_buf();
        let waker: Arc<Mutex<Option<Waker>>> = Arc::default();
        let wake = waker.clone();
        let mut debouncer = new_debouncer(debounce, None, move |result: DebounceEventResult| {
            let reload = match result {
                Ok(events) => {
                    let mut changed: Vec<PathBuf> = events
                        .iter()
                        .filter(|e| {
                            matches!(
                                e.kind,
                                EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
                            )
                        })
                        .flat_map(|e| e.paths.iter().cloned())
                        .filter(|p| !is_scratch_file(p))
                        .collect();
                    changed.sort();
                    changed.dedup();
                    if changed.is_empty() {
                        return;
                    }
                    let since = events
                        .iter()
                        .map(|e| e.time)
                        .min()
                        .unwrap_or_else(Instant::now);
                    let started = Instant::now();
                    match crate::script::load_module(&module_dir, &options) {
                        Ok(module) => Reload::Loaded {
                            module: Arc::new(module),
                            changed,
                            load_ms: started.elapsed().as_millis(),
                            since,
                        },
                        Err(diagnostics) => Reload::Failed {
                            diagnostics,
                            changed,
                        },
                    }
                }
                Err(errors) => Reload::WatchError(
                    errors
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
            };
            let _ = tx.send(reload);
            if let Some(wake) = wake.lock().ok().and_then(|w| w.clone()) {
                wake();
            }
        })
        .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        debouncer
            .watch(dir, RecursiveMode::Recursive)
            .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        if let Some(overlay) = overlay
            && let Some(parent) = overlay.parent()
            && parent.is_dir()
        {
            debouncer
                .watch(parent, RecursiveMode::NonRecursive)
                .map_err(|e| format!("cannot watch {}: {e}", parent.display()))?;
        }
        Ok(ModuleWatcher {
            _debouncer: debouncer,
            events: rx,
            waker,
        })
    }

    /// Calls `wake` whenever a reload is ready, from the watcher's thread.
    pub fn wake_with(&self, wake: Waker) {
        if let Ok(mut slot) = self.waker.lock() {
            *slot = Some(wake);
        }
    }

    /// The next reload, if one is ready.
    pub fn try_next(&self) -> Option<Reload> {
        self.events.try_recv().ok()
    }

    /// Waits up to `timeout` for the next reload.
    pub fn wait(&self, timeout: Duration) -> Option<Reload> {
        self.events.recv_timeout(timeout).ok()
    }
}

/// Editors' temporary and backup files, and our own atomic-write temporaries.
fn is_scratch_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
        || name.starts_with(".#")
        || name == "4913"
}
