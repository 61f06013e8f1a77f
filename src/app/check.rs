//! `check` (diagnostics for `.solution` files) and `graph` (a recipe's dependency DAG as DOT).

use crate::app::outcome::{AppError, Exit, InputError, Outcome};
use crate::benchmark;
use crate::language::diagnostic::{Diagnostic, line_cols, render_all};
use crate::language::parse::parse;
use crate::language::validate::{ClassLookup, Validator};
use crate::network::Network;
use crate::ontology::Ontology;
use crate::profile::Profile;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

pub struct CheckOptions<'a> {
    pub profile: Profile,
    /// The recipe ids to accept; `None` = the benchmark's ids for the profile.
    pub known_recipes: Option<Vec<String>>,
    /// Class checks are skipped without an ontology.
    pub classes: Option<&'a dyn ClassLookup>,
    /// The diagnostics as JSON on standard output instead of rendered on standard error.
    pub json: bool,
}

/// `check --format json`: every file's located diagnostics (or why it could not be read) and
/// the totals.
#[derive(Serialize)]
struct CheckReport {
    profile: String,
    files: Vec<FileCheck>,
    errors: usize,
    warnings: usize,
    unreadable: usize,
}

#[derive(Serialize)]
struct FileCheck {
    file: String,
    /// Why the file could not be read; it has no diagnostics then.
    unreadable: Option<String>,
    diagnostics: Vec<LocatedDiagnostic>,
}

/// The largest `.solution` file read. Parsing holds about 20 bytes per byte of text; a network
/// long enough to need more than this is over the simulator's limit anyway
/// ([`crate::simulation::MAX_ACTIONS`] actions take about 10 MB of text).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// A `.solution` file's text, or why it cannot be checked. Only regular files are read: a FIFO
/// would block for ever and a device (`/dev/zero`) never ends, so the file is opened without
/// blocking and its type checked before a byte is read.
pub fn read_solution_text(path: &Path) -> Result<String, InputError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    if path == Path::new(STDIN) {
        return stdin_text();
    }
    let cannot_read = |source| InputError::Unreadable {
        path: path.to_owned(),
        source,
    };
    let file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(cannot_read)?;
    let meta = file.metadata().map_err(cannot_read)?;
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            path: path.to_owned(),
            kind: special_file_kind(&meta),
        });
    }
    let size = meta.len();
    if size > MAX_INPUT_BYTES {
        return Err(too_large(path, size));
    }
    // A file growing while it is read is cut at the limit, and refused.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot_read)?;
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

/// What a file that is not a regular file is, for the refusal.
fn special_file_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
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

/// Check files, rendering every diagnostic to `err`, then a one-line summary (or, with
/// `opts.json`, the report as JSON on `out`). Clean or warnings only is success; an error
/// fails; a file that could not be read is unusable.
pub fn check_files(
    files: &[&Path],
    opts: &CheckOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let ids: Vec<String> = opts.known_recipes.clone().unwrap_or_else(|| {
        benchmark::manifest(opts.profile)
            .recipes
            .into_iter()
            .map(|r| r.id)
            .collect()
    });
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut validator = Validator::new(opts.profile).with_known_recipes(&ids);
    if let Some(c) = opts.classes {
        validator = validator.with_classes(c);
    }
    let (mut errors, mut warnings, mut unreadable) = (0usize, 0usize, 0usize);
    let mut checked = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = match read_solution_text(path) {
            Ok(t) => t,
            Err(e) => {
                unreadable += 1;
                if opts.json {
                    checked.push(FileCheck {
                        file: name,
                        unreadable: Some(e.to_string()),
                        diagnostics: Vec::new(),
                    });
                } else {
                    let _ = writeln!(err, "error: {e}");
                }
                continue;
            }
        };
        let diagnostics = crate::language::validate::check(&text, &validator);
        let e = diagnostics.iter().filter(|d| d.is_error()).count();
        errors += e;
        warnings += diagnostics.len() - e;
        if opts.json {
            checked.push(FileCheck {
                file: name,
                unreadable: None,
                diagnostics: located(&text, &diagnostics),
            });
        } else {
            let _ = write!(err, "{}", render_all(&diagnostics, &name, &text));
        }
    }
    if opts.json {
        let report = CheckReport {
            profile: opts.profile.to_string(),
            files: checked,
            errors,
            warnings,
            unreadable,
        };
        let text = serde_json::to_string_pretty(&report).map_err(std::io::Error::other);
        text.and_then(|t| writeln!(out, "{t}"))
            .map_err(AppError::Stdout)?;
    } else {
        let _ = writeln!(
            err,
            "checked {} file(s) against profile {}: {errors} error(s), {warnings} warning(s){}",
            files.len(),
            opts.profile,
            if unreadable > 0 {
                format!(", {unreadable} unreadable")
            } else {
                String::new()
            }
        );
    }
    Ok(if unreadable > 0 {
        Exit::Unusable
    } else if errors > 0 {
        Exit::Failed
    } else {
        Exit::Success
    })
}

/// Write the dependency graph of one recipe (the first, or `recipe`) as DOT to `out`.
pub fn graph(
    path: &Path,
    recipe: Option<&str>,
    profile: Profile,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let text = read_solution_text(path)?;
    let parsed = parse(&text);
    let name = path.display().to_string();
    let errors = parsed.diagnostics.iter().filter(|d| d.is_error());
    let _ = write!(err, "{}", render_all(errors, &name, &text));
    let wanted = recipe.map(str::to_lowercase);
    let found = parsed
        .file
        .recipes
        .iter()
        .find(|r| wanted.as_ref().is_none_or(|w| &r.id == w));
    let Some(r) = found else {
        let _ = match &wanted {
            Some(w) => writeln!(err, "error: {name}: no recipe `{w}` in the file"),
            None => writeln!(err, "error: {name}: the file holds no recipe"),
        };
        return Ok(Exit::Failed);
    };
    let net = Network::build(r, &crate::catalogue::Catalogue::builtin(profile));
    out.write_all(net.to_dot(r).as_bytes())
        .map_err(AppError::Stdout)?;
    Ok(Exit::Success)
}

/// A diagnostic as a program needs it (the tool server, the Python package): where, what,
/// and a hint when there is one.
#[derive(Serialize)]
pub struct LocatedDiagnostic {
    pub severity: &'static str,
    pub code: &'static str,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub hint: Option<String>,
}

/// Diagnostics with their lines and columns, located in one pass over the text.
pub fn located(text: &str, diagnostics: &[Diagnostic]) -> Vec<LocatedDiagnostic> {
    let at = line_cols(text, diagnostics.iter().map(|d| d.span.start));
    diagnostics
        .iter()
        .zip(at)
        .map(|(d, (line, column))| LocatedDiagnostic {
            severity: if d.is_error() { "error" } else { "warning" },
            code: d.kind.code(),
            line,
            column,
            message: d.message.clone(),
            hint: d.hint.clone(),
        })
        .collect()
}

/// Every diagnostic of a text, located, as `check` finds them: against the profile's classes and
/// the recipe ids of a benchmark (`None`: the official benchmark's).
pub fn check_text(
    text: &str,
    profile: Profile,
    onto: &Ontology,
    recipes: Option<&[&str]>,
) -> Vec<LocatedDiagnostic> {
    let official = benchmark::manifest(profile).recipes;
    let official: Vec<&str> = official.iter().map(|r| r.id.as_str()).collect();
    let validator = Validator::new(profile)
        .with_classes(onto)
        .with_known_recipes(recipes.unwrap_or(&official));
    located(text, &crate::language::validate::check(text, &validator))
}
