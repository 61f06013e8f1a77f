//! The evaluation command: the reference's `-input F -output F [-metrics ...]`.

use crate::app::check::read_solution_text;
use crate::benchmark;
use crate::evaluate::Evaluator;
use crate::profile::Profile;
use crate::report::{self, MetricSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Exit codes: results written; the file was refused (as the reference refuses it); the
/// input, the data or the output could not be used.
pub const EXIT_OK: i32 = 0;
pub const EXIT_REFUSED: i32 = 1;
pub const EXIT_UNUSABLE: i32 = 2;

pub struct EvaluateOptions {
    pub input: PathBuf,
    pub output: PathBuf,
    pub metrics: MetricSet,
    pub profile: Profile,
    pub benchmark: Option<PathBuf>,
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
    let evaluator = match load(opts.profile, opts.benchmark.as_deref()) {
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
    if !opts.output.to_string_lossy().ends_with(".csv") {
        let _ = writeln!(err, "warning: {} is not a .csv file", opts.output.display());
    }
    let csv = report::csv::render(&results, &opts.metrics);
    if let Err(e) = report::write_atomically(&opts.output, csv.as_bytes()) {
        let _ = writeln!(err, "error: cannot write {}: {e}", opts.output.display());
        return EXIT_UNUSABLE;
    }
    let _ = report::write_summary(out, &results, &opts.metrics);
    let _ = writeln!(out, "The simulation process has finished.");
    EXIT_OK
}

fn load(profile: Profile, dir: Option<&Path>) -> Result<Evaluator, String> {
    let source = benchmark::locate(profile, dir).map_err(|e| e.to_string())?;
    Evaluator::new(profile, source).map_err(|e| e.to_string())
}
