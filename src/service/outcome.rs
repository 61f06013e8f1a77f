//! How a command ends: the exit status, and the errors that stop a command before it can do
//! its work. Commands return `Result<Exit, AppError>`; `cli` prints an error in one place, so
//! every command reports it alike.

use crate::benchmark::DataError;
use crate::benchmark::download::FetchError;
use crate::data::data_file::DataFileProblem;
use crate::report::OutputIsInput;
use std::path::PathBuf;

/// The process's exit status (listed in `--help` and the README).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The command did what it was asked: results written, files clean.
    Success = 0,
    /// The command ran and what it checks failed: a solution refused as the reference refuses
    /// it, a row below `--fail-under`, errors in checked files, data that failed verification.
    Failed = 1,
    /// The input, the data, the options or the output could not be used (usage errors too).
    Unusable = 2,
}

impl Exit {
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit.code())
    }
}

/// How a command ended, or why it could not do its work.
pub type Outcome = Result<Exit, AppError>;

/// Why a command could not do its work at all (exit [`Exit::Unusable`]).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Options that contradict each other, or name something that cannot be used; the text
    /// says which and what to do.
    #[error("{0}")]
    Options(String),
    /// An input file that cannot be read as a solution.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A file the command needs besides the solutions (a shard report, a recipe text).
    #[error("{}: {reason}", path.display())]
    File { path: PathBuf, reason: String },
    /// The benchmark data could not be found, downloaded or read.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The benchmark data could not be installed.
    #[error(transparent)]
    Fetch(#[from] FetchError),
    /// A kitchen or ontology file (`--kitchen`, a benchmark's own) that cannot be read or used.
    #[error(transparent)]
    World(#[from] DataFileProblem),
    /// An output path that is one of the inputs, which writing would destroy.
    #[error(transparent)]
    OutputIsInput(#[from] OutputIsInput),
    /// An output that could not be written (nothing was left at its path).
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Standard output closed or full.
    #[error("cannot write to standard output: {0}")]
    Stdout(#[source] std::io::Error),
    /// What the command found impossible in its own words (a model server that cannot be
    /// reached, results that do not fit together).
    #[error("{0}")]
    Failed(String),
}

/// Why a `.solution` file cannot be read; each names the file, and a place where there is one.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{}: cannot read: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A FIFO would block for ever and a device never ends: only regular files are read.
    #[error("{}: {kind}, not a regular file; only regular files are read", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{}: {size} bytes; solution files of at most {limit} bytes (64 MiB) are read", path.display())]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    #[error("{}: UTF-16 text; solution files are read as UTF-8: convert it, e.g. `iconv -f {encoding} -t UTF-8`", path.display())]
    Utf16 {
        path: PathBuf,
        encoding: &'static str,
    },
    #[error("{}:{at}: a NUL byte: a binary file, not a .solution text", path.display())]
    Binary { path: PathBuf, at: String },
    #[error("{}:{at}: not UTF-8 text (invalid byte 0x{byte:02X})", path.display())]
    NotUtf8 { path: PathBuf, at: String, byte: u8 },
}
