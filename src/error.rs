//! The library's one error type. Every variant says what was wrong and, where it helps,
//! what is accepted, so the CLI can print it as is.

use std::fmt;
use std::path::PathBuf;

/// Errors from building, opening and querying tables.
///
/// Non-exhaustive: kinds may be added, so a `match` outside gamedb needs a `_` arm. Game
/// authors build errors with [`Error::bad`], [`Error::unsupported`] and
/// [`Error::internal`].
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A value given by the caller (a position, a parameter, a flag) is not acceptable.
    /// The message names the input and the accepted form.
    BadInput(String),
    /// The operating system refused a file operation.
    Io {
        /// The file or folder concerned.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The table file asked for does not exist. Displayed as the path and "no such table
    /// file (it does not exist)"; a front end adds what to do in its own words (the command
    /// line names the `gamedb build` command that makes the table).
    NoTable {
        /// The file asked for.
        path: PathBuf,
    },
    /// A table file is damaged: its bytes do not form a valid table. A file that is no table
    /// at all (a text file, an empty file: it lacks the bytes every table begins with) is
    /// this kind too, its `what` beginning "not a gamedb table", and is displayed as that
    /// rather than as a damaged table.
    Corrupt {
        /// The file concerned.
        path: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// A table file was written by an incompatible format version.
    Version {
        /// The file concerned.
        path: PathBuf,
        /// The version this build reads.
        expected: u32,
        /// The version the file declares.
        got: u32,
    },
    /// A table's game is not known to this program (a game of another program, or another
    /// version of a game's rules): its positions cannot be read. The message names the table
    /// and the game.
    UnknownGame(String),
    /// The request is valid but cannot be done (too large, missing table, ...).
    Unsupported(String),
    /// A bug in gamedb or in a game: an invariant was broken (a solver's result of the wrong
    /// size, an index out of its range, a poisoned lock). Nothing the caller did wrong;
    /// worth reporting. Displayed as "internal error: " and the message.
    Internal(String),
    /// A search went over the limit it was given (nodes or time) before finishing: the
    /// request is valid, but was not answered within it.
    OverLimit {
        /// True when the time ran out, false when the node budget did.
        time: bool,
        /// What was tried and how far it got.
        what: String,
    },
}

/// How [`Error::Corrupt`]'s `what` begins for a file that is no table at all.
const NOT_A_TABLE: &str = "not a gamedb table";

/// Shorthand used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A value given by the caller is not acceptable ([`Error::BadInput`]); `msg` names the
    /// input and the accepted form.
    pub fn bad(msg: impl Into<String>) -> Error {
        Error::BadInput(msg.into())
    }

    /// The request is valid but cannot be done ([`Error::Unsupported`]).
    pub fn unsupported(msg: impl Into<String>) -> Error {
        Error::Unsupported(msg.into())
    }

    /// An invariant was broken ([`Error::Internal`]); `msg` says which, without the
    /// "internal error" that the display adds.
    pub fn internal(msg: impl Into<String>) -> Error {
        Error::Internal(msg.into())
    }

    /// The operating system refused an operation on `path` ([`Error::Io`]).
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// The file at `path` is no table at all ([`Error::Corrupt`] displayed as "not a gamedb
    /// table: `what`"); `what` says what it lacks.
    pub(crate) fn not_a_table(path: impl Into<PathBuf>, what: impl std::fmt::Display) -> Error {
        Error::Corrupt {
            path: path.into(),
            what: format!("{NOT_A_TABLE}: {what}"),
        }
    }

    /// The table file at `path` is damaged ([`Error::Corrupt`]); `what` says how.
    pub(crate) fn corrupt(path: impl Into<PathBuf>, what: impl Into<String>) -> Error {
        Error::Corrupt {
            path: path.into(),
            what: what.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadInput(msg) | Error::Unsupported(msg) | Error::UnknownGame(msg) => {
                f.write_str(msg)
            }
            Error::Internal(msg) => write!(f, "internal error: {msg}"),
            Error::OverLimit { what, .. } => f.write_str(what),
            Error::Io { path, source } => write!(f, "{}: {}", path.display(), source),
            Error::NoTable { path } => {
                write!(f, "{}: no such table file (it does not exist)", path.display())
            }
            Error::Corrupt { path, what } if what.starts_with(NOT_A_TABLE) => {
                write!(f, "{}: {}", path.display(), what)
            }
            Error::Corrupt { path, what } => {
                write!(f, "{}: damaged table: {}", path.display(), what)
            }
            Error::Version {
                path,
                expected,
                got,
            } => write!(
                f,
                "{}: table format version {} is not readable by this gamedb (reads version {}); rebuild the table",
                path.display(),
                got,
                expected
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_internal_error_says_so_once() {
        let e = Error::internal("game levels cover 3 of 4 positions");
        assert!(matches!(e, Error::Internal(_)));
        assert_eq!(
            e.to_string(),
            "internal error: game levels cover 3 of 4 positions"
        );
    }

    #[test]
    fn the_public_constructors_give_their_kinds() {
        assert!(matches!(Error::bad("x"), Error::BadInput(m) if m == "x"));
        assert!(matches!(Error::unsupported("x"), Error::Unsupported(m) if m == "x"));
        assert_eq!(
            Error::bad("heap 16: expected 0..=15").to_string(),
            "heap 16: expected 0..=15"
        );
    }
}
