//! Reading a `.solution` file as every front end reads it: regular files only, at most
//! [`MAX_INPUT_BYTES`], UTF-8 (a UTF-16 file is named as such), no NUL bytes, standard input as
//! `-`. Each refusal names the file and, where there is one, the place.

use crate::base::regular_file::{Refusal, read_regular};
use crate::service::outcome::InputError;
use std::path::Path;

/// The largest `.solution` file read. Parsing holds about 20 bytes per byte of text; a network
/// long enough to need more than this is over the simulator's limit anyway
/// ([`crate::simulation::MAX_ACTIONS`] actions take about 10 MB of text).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// A `.solution` file's text, or why it cannot be checked. Only regular files are read: a FIFO
/// would block for ever and a device (`/dev/zero`) never ends, so the file is opened without
/// blocking and its type checked before a byte is read.
pub fn read_solution_text(path: &Path) -> Result<String, InputError> {
    if path == Path::new(STDIN) {
        return stdin_text();
    }
    let bytes = read_regular(path, MAX_INPUT_BYTES).map_err(|refusal| match refusal {
        Refusal::Unreadable(source) => InputError::Unreadable {
            path: path.to_owned(),
            source,
        },
        Refusal::NotRegular(kind) => InputError::NotRegular {
            path: path.to_owned(),
            kind,
        },
        Refusal::TooLarge(size) => too_large(path, size),
    })?;
    decode(path, bytes)
}

/// `-` as an input: the solution on standard input.
pub const STDIN: &str = "-";

/// Standard input, read once (to its end or the size limit): a run reads its solution more than
/// once (to check it, to find its data, to score it), and standard input can be read only once.
fn stdin_text() -> Result<String, InputError> {
    use std::io::Read;
    static READ: std::sync::OnceLock<Result<Vec<u8>, (std::io::ErrorKind, String)>> =
        std::sync::OnceLock::new();
    let read = READ.get_or_init(|| {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map(|_| bytes)
            .map_err(|e| (e.kind(), e.to_string()))
    });
    match read {
        Ok(bytes) => decode(Path::new(STDIN), bytes.clone()),
        Err((kind, reason)) => Err(InputError::Unreadable {
            path: STDIN.into(),
            source: std::io::Error::new(*kind, reason.clone()),
        }),
    }
}

/// A solution's bytes as text: refused over the size limit, with a NUL byte (a binary file) or
/// when not UTF-8, each located.
fn decode(path: &Path, bytes: Vec<u8>) -> Result<String, InputError> {
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(path, bytes.len() as u64));
    }
    if let Some(encoding) = utf16_encoding(&bytes) {
        return Err(InputError::Utf16 {
            path: path.to_owned(),
            encoding,
        });
    }
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(InputError::Binary {
            path: path.to_owned(),
            at: line_and_column(&bytes, at),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        InputError::NotUtf8 {
            path: path.to_owned(),
            at: line_and_column(bytes, at),
            byte: bytes[at],
        }
    })
}

/// UTF-16 text, as `iconv` names its encoding: `UTF-16` with a byte-order mark, else
/// `UTF-16LE` or `UTF-16BE` when the first characters (up to four) are ASCII with their other
/// byte 0, as every `.solution` starts. Said as UTF-16, not as the binary file its NUL bytes
/// would make it.
fn utf16_encoding(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Some("UTF-16");
    }
    let ascii_in = |unit: &[u8], i: usize| unit[i] != 0 && unit[i].is_ascii() && unit[1 - i] == 0;
    let first: Vec<&[u8]> = bytes.chunks_exact(2).take(4).collect();
    if first.is_empty() {
        None
    } else if first.iter().all(|u| ascii_in(u, 0)) {
        Some("UTF-16LE")
    } else if first.iter().all(|u| ascii_in(u, 1)) {
        Some("UTF-16BE")
    } else {
        None
    }
}

fn too_large(path: &Path, size: u64) -> InputError {
    InputError::TooLarge {
        path: path.to_owned(),
        size,
        limit: MAX_INPUT_BYTES,
    }
}

/// `LINE:COLUMN` (from 1, the column in characters of the valid text before it) of byte `at`.
fn line_and_column(bytes: &[u8], at: usize) -> String {
    let before = &bytes[..at];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    format!("{line}:{column}")
}
