//! The evaluation command: the reference's `-input F -output F [-metrics ...]`, writing the
//! reference's CSV or (`--format json`) the unrounded values with their detail.

use crate::app::check::read_solution_text;
use crate::benchmark::{self, Benchmark};
use crate::evaluate::Evaluator;
use crate::metrics::smatch::SmatchConfig;
use crate::profile::Profile;
use crate::report::json::Signature;
use crate::report::{self, MetricSet};
use std::io::Write;
use std::path::PathBuf;

/// Exit codes: results written; the file was refused (as the reference refuses it); the
/// input, the data or the output could not be used.
pub const EXIT_OK: i32 = 0;
pub const EXIT_REFUSED: i32 = 1;
pub const EXIT_UNUSABLE: i32 = 2;

/// What the output file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The reference's CSV, byte for byte.
    #[default]
    Csv,
    /// `report::json`: unrounded values, detail and a signature.
    Json,
}

pub struct EvaluateOptions {
    pub input: PathBuf,
    pub output: PathBuf,
    pub metrics: MetricSet,
    pub profile: Profile,
    pub benchmark: Option<PathBuf>,
    /// Another initial kitchen state (`--kitchen`).
    pub kitchen: Option<PathBuf>,
    pub format: Format,
    pub smatch: SmatchConfig,
}

/// Run one evaluation, printing the summary on `out` and problems on `err`.
pub fn run(opts: &EvaluateOptions, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if opts.metrics.none {
        // The reference evaluates and writes nothing when `none` is among the metrics.
        let _ = writeln!(out, "The simulation process has finished.");
        return EXIT_OK;
    }
    let text = match read_solution_text(&opts.input) {
        Ok(t) => t,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_UNUSABLE;
        }
    };
    let (evaluator, kitchen) = match load(opts) {
        Ok(e) => e,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_UNUSABLE;
        }
    };
    let name = opts.input.display().to_string();
    let results = match evaluator.evaluate(&text, &opts.metrics) {
        Ok(r) => r,
        Err(refusal) => {
            let _ = write!(err, "{}", refusal.render(&name, &text));
            let _ = writeln!(
                err,
                "error: {name} was refused (the reference evaluator refuses it too); no results were written"
            );
            return EXIT_REFUSED;
        }
    };
    if opts.smatch.exact {
        for r in &results {
            if let Some(s) = r.smatch.as_ref().filter(|s| s.hill_climbing_fell_short) {
                let _ = writeln!(
                    err,
                    "note: {}: hill-climbing fell short of the exact Smatch optimum ({} matched triples); the exact score is reported",
                    r.recipe_id, s.matched
                );
            }
        }
    }
    let extension = match opts.format {
        Format::Csv => ".csv",
        Format::Json => ".json",
    };
    if !opts.output.to_string_lossy().ends_with(extension) {
        let _ = writeln!(
            err,
            "warning: {} is not a {extension} file",
            opts.output.display()
        );
    }
    let text = match opts.format {
        Format::Csv => report::csv::render(&results, &opts.metrics),
        Format::Json => {
            let signature = Signature::new(opts.profile, kitchen, &opts.metrics, &opts.smatch);
            report::json::render(&results, &opts.metrics, signature)
        }
    };
    if let Err(e) = report::write_atomically(&opts.output, text.as_bytes()) {
        let _ = writeln!(err, "error: cannot write {}: {e}", opts.output.display());
        return EXIT_UNUSABLE;
    }
    let _ = report::write_summary(out, &results, &opts.metrics);
    let _ = writeln!(out, "The simulation process has finished.");
    EXIT_OK
}

/// The evaluator for the options, and the name of its kitchen.
pub(crate) fn load(opts: &EvaluateOptions) -> Result<(Evaluator, String), String> {
    let (model, kitchen) = super::load_model(opts.profile, opts.kitchen.as_deref())?;
    let source =
        benchmark::locate(opts.profile, opts.benchmark.as_deref()).map_err(|e| e.to_string())?;
    let data = Benchmark::load(opts.profile, &source).map_err(|e| e.to_string())?;
    let mut evaluator = Evaluator::with(model, data);
    evaluator.smatch = opts.smatch.clone();
    Ok((evaluator, kitchen))
}
