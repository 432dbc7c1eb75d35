//! Compiler-style diagnostics: `path:line:col: message`, collected into one report.

use std::fmt;
use std::path::{Path, PathBuf};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The module cannot be used until this is fixed.
    Error,
    /// The module loads, but something is probably wrong (`--strict` makes it an error).
    Warning,
}

/// One problem found in a module file, with its position (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// The file, as the user named it (relative paths stay relative).
    pub path: PathBuf,
    /// 1-based line, 0 when the problem concerns the whole file.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub col: usize,
    /// What is wrong and, where possible, what to do.
    pub message: String,
}

impl Diagnostic {
    /// An error at `path:line:col`.
    pub fn error(
        path: impl AsRef<Path>,
        line: usize,
        col: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            path: path.as_ref().to_path_buf(),
            line,
            col,
            message: message.into(),
        }
    }

    /// A warning at `path:line:col`.
    pub fn warning(
        path: impl AsRef<Path>,
        line: usize,
        col: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(path, line, col, message)
        }
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.col > 0 {
                write!(f, ":{}", self.col)?;
            }
        }
        match self.severity {
            Severity::Error => write!(f, ": {}", self.message),
            Severity::Warning => write!(f, ": warning: {}", self.message),
        }
    }
}

/// Every problem a load found, errors first within each file, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Adds one diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.0.push(diagnostic);
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// How many errors there are.
    pub fn error_count(&self) -> usize {
        self.0.iter().filter(|d| d.is_error()).count()
    }

    /// The diagnostics, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
