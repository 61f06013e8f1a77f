//! `check` (diagnostics for `.solution` files) and `graph` (a recipe's dependency DAG as DOT).

use crate::benchmark;
use crate::language::diagnostic::{Diagnostic, line_col, render_all};
use crate::language::parse::parse;
use crate::language::validate::{ClassLookup, Validator};
use crate::network::Network;
use crate::ontology::Ontology;
use crate::profile::Profile;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// Exit codes: the file has errors / cannot be read at all.
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_UNREADABLE: i32 = 2;

pub struct CheckOptions<'a> {
    pub profile: Profile,
    /// The recipe ids to accept; `None` = the benchmark's ids for the profile.
    pub known_recipes: Option<Vec<String>>,
    /// Class checks are skipped without an ontology.
    pub classes: Option<&'a dyn ClassLookup>,
}

/// The largest `.solution` file read. Parsing holds about 20 bytes per byte of text; a network
/// long enough to need more than this is over the simulator's limit anyway
/// ([`crate::simulation::MAX_ACTIONS`] actions take about 10 MB of text).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// A `.solution` file's text, or a one-line reason why it cannot be checked.
pub fn read_solution_text(path: &Path) -> Result<String, String> {
    let cannot_read = |e: std::io::Error| format!("{}: cannot read: {e}", path.display());
    let size = std::fs::metadata(path).map_err(cannot_read)?.len();
    if size > MAX_INPUT_BYTES {
        return Err(format!(
            "{}: {size} bytes; solution files of at most {MAX_INPUT_BYTES} bytes (64 MiB) are read",
            path.display()
        ));
    }
    let bytes = std::fs::read(path).map_err(cannot_read)?;
    if bytes.contains(&0) {
        return Err(format!(
            "{}: a binary file, not a .solution text",
            path.display()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Check files, rendering every diagnostic to `err`, then a one-line summary. Returns the
/// exit code: 0 clean or warnings only, 1 some error, 2 a file could not be read.
pub fn check_files(files: &[&Path], opts: &CheckOptions, err: &mut dyn Write) -> i32 {
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
    for path in files {
        let text = match read_solution_text(path) {
            Ok(t) => t,
            Err(msg) => {
                let _ = writeln!(err, "error: {msg}");
                unreadable += 1;
                continue;
            }
        };
        let diagnostics = crate::language::validate::check(&text, &validator);
        let name = path.display().to_string();
        let _ = write!(err, "{}", render_all(&diagnostics, &name, &text));
        let e = diagnostics.iter().filter(|d| d.is_error()).count();
        errors += e;
        warnings += diagnostics.len() - e;
    }
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
    if unreadable > 0 {
        EXIT_UNREADABLE
    } else if errors > 0 {
        EXIT_INVALID
    } else {
        0
    }
}

/// Write the dependency graph of one recipe (the first, or `recipe`) as DOT to `out`.
pub fn graph(
    path: &Path,
    recipe: Option<&str>,
    profile: Profile,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let text = match read_solution_text(path) {
        Ok(t) => t,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_UNREADABLE;
        }
    };
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
        return EXIT_INVALID;
    };
    let net = Network::build(r, &crate::catalogue::Catalogue::builtin(profile));
    if out.write_all(net.to_dot(r).as_bytes()).is_err() {
        return EXIT_UNREADABLE;
    }
    0
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

pub fn located(text: &str, diagnostics: &[Diagnostic]) -> Vec<LocatedDiagnostic> {
    diagnostics
        .iter()
        .map(|d| {
            let (line, column) = line_col(text, d.span.start);
            LocatedDiagnostic {
                severity: if d.is_error() { "error" } else { "warning" },
                code: d.kind.code(),
                line,
                column,
                message: d.message.clone(),
                hint: d.hint.clone(),
            }
        })
        .collect()
}

/// Every diagnostic of a text, located, as `check` finds them: against the profile's classes and
/// the benchmark's recipe ids.
pub fn check_text(text: &str, profile: Profile, onto: &Ontology) -> Vec<LocatedDiagnostic> {
    let ids = benchmark::manifest(profile).recipes;
    let ids: Vec<&str> = ids.iter().map(|r| r.id.as_str()).collect();
    let validator = Validator::new(profile)
        .with_classes(onto)
        .with_known_recipes(&ids);
    located(text, &crate::language::validate::check(text, &validator))
}
