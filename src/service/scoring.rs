//! The evaluation command: the reference's `-input F -output F [-metrics ...]`, writing the
//! reference's CSV, and its extensions: many inputs (files and directories) scored in
//! parallel, JSON, JUnit and Markdown reports, `--fail-under` thresholds, `--shard I/N` and
//! `merge` of shard reports.

use crate::benchmark::{Benchmark, DataSource, UserData};
use crate::evaluate::{Evaluator, Refusal};
use crate::language::diagnostic::terminal_safe;
use crate::metrics::metric::{MetricSet, RecipeResult};
use crate::metrics::significance::check_draws;
use crate::metrics::smatch::SmatchConfig;
use crate::report;
use crate::report::batch_report::{
    BatchReport, Bootstrap, Shard, ShardReport, Threshold, UnitOutcome, assemble,
};
use crate::report::content::{DataSignature, RecipeReport, Signature, SmatchSettings};
use crate::report::json::{Evaluation, value};
use crate::service::batch::{self, Run};
use crate::service::check::{counting_omitted, located};
use crate::service::context::{self, DataContext};
use crate::service::outcome::{AppError, Exit, Outcome};
use crate::service::solution_file::read_solution_text;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What the output file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The reference's CSV, byte for byte (a batch adds a file column and a signature line).
    #[default]
    Csv,
    /// `report::json`: unrounded values, detail and a signature; with `--shard`, the shard
    /// report `merge` reads.
    Json,
    /// `report::junit`: a test case per recipe row, for CI test reporters.
    Junit,
    /// `report::markdown`: tables and means for people and CI summaries.
    Markdown,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Csv => ".csv",
            Format::Json => ".json",
            Format::Junit => ".xml",
            Format::Markdown => ".md",
        }
    }
}

/// `-` as the output: write the report to standard output.
pub const STDOUT: &str = "-";

pub struct EvaluateOptions {
    /// Solution files and directories (searched for `*.solution` files).
    pub inputs: Vec<PathBuf>,
    pub output: PathBuf,
    pub metrics: MetricSet,
    pub data: DataContext,
    pub format: Format,
    pub smatch: SmatchConfig,
    /// Score only this shard of the work units (`--format json` only).
    pub shard: Option<Shard>,
    pub fail_under: Vec<Threshold>,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Leave out the console summary (`--quiet`).
    pub quiet: bool,
    /// Bootstrap intervals of the means in the markdown and JSON reports (`--ci`).
    pub ci: Option<Bootstrap>,
    /// A gold network to score against in place of a benchmark (`--gold`).
    pub gold: Option<GoldFile>,
}

/// A gold network given alone (`--gold FILE [--dish ?VAR]`): a one-recipe user benchmark.
pub struct GoldFile {
    pub path: PathBuf,
    /// The dish variable; default [`crate::benchmark::default_dish`].
    pub dish: Option<String>,
}

impl EvaluateOptions {
    /// Options that only score (no input list, no output, reports or thresholds): what
    /// `compare` and the Python API hand to the shared scoring path.
    pub fn scoring(data: DataContext, metrics: MetricSet) -> EvaluateOptions {
        EvaluateOptions {
            inputs: Vec::new(),
            output: PathBuf::new(),
            metrics,
            data,
            format: Format::Csv,
            smatch: SmatchConfig::default(),
            shard: None,
            fail_under: Vec::new(),
            progress: false,
            quiet: false,
            ci: None,
            gold: None,
        }
    }
}

/// The signature of a run with these options, the named kitchen and the evaluator's data.
pub(crate) fn signature(
    opts: &EvaluateOptions,
    kitchen: String,
    evaluator: &Evaluator,
) -> Signature {
    Signature::new(
        opts.data.profile.to_string(),
        kitchen,
        &opts.metrics,
        SmatchSettings {
            seed: opts.smatch.seed,
            restarts: opts.smatch.restarts,
            exact: opts.smatch.exact,
            exact_budget: opts.smatch.exact.then_some(opts.smatch.exact_budget),
        },
        DataSignature {
            status: evaluator.benchmark.fingerprint.status,
            gold_sha256: evaluator.benchmark.fingerprint.sha256.clone(),
            kitchen_sha256: evaluator.model.kitchen_sha256.clone(),
            ontology_sha256: evaluator.model.ontology_sha256.clone(),
        },
    )
}

/// Run one evaluation, printing the summary on `out` and problems on `err`.
pub fn run(opts: &EvaluateOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    run_ending(opts, out, err, drop)
}

/// [`run`] for a process that ends when it returns (the command line): once everything is
/// written, the evaluator (the model, the benchmark and every gold run it kept, hundreds of
/// thousands of objects) is left to the operating system rather than freed object by object,
/// a few per cent of a batch's CPU, as compilers and search tools leave their state at exit.
pub fn run_once(opts: &EvaluateOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    run_ending(opts, out, err, std::mem::forget)
}

/// [`run`], the evaluator handed to `end` once the output is written.
fn run_ending(
    opts: &EvaluateOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
    end: impl FnOnce(Evaluator),
) -> Outcome {
    if opts.metrics.none {
        // The reference evaluates and writes nothing when `none` is among the metrics.
        let _ = writeln!(out, "The simulation process has finished.");
        return Ok(Exit::Success);
    }
    check_options(opts).map_err(AppError::Options)?;
    check_ci(opts.ci, err)?;
    let files = batch::solution_files(&opts.inputs, err)?;
    if opts.output != Path::new(STDOUT) {
        report::refuse_input_as_output(&opts.output, inputs_read(opts, &files))?;
    }
    // One file unread is the run's error; in a batch it is that file's refusal.
    if !batch::is_batch(&opts.inputs, &files) {
        read_solution_text(&files[0])?;
    }
    // Asked only when the data must be fetched; files are read one at a time.
    let official = || {
        files.iter().any(|f| {
            read_solution_text(f)
                .is_ok_and(|text| context::names_official(opts.data.profile, [text.as_str()]))
        })
    };
    let (evaluator, kitchen) = load(opts, official, err)?;
    let outcome = score_and_write(&evaluator, kitchen, opts, &files, out, err);
    end(evaluator);
    outcome
}

/// The files scored by `evaluator` and the results written: [`run`] once the data is loaded.
fn score_and_write(
    evaluator: &Evaluator,
    kitchen: String,
    opts: &EvaluateOptions,
    files: &[PathBuf],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let scored = score_files(evaluator, kitchen, opts, files, err);
    if let Some(shard) = opts.shard {
        let text = report::json::pretty(&scored);
        write_output(&opts.output, text.as_bytes(), Format::Json, out, err)?;
        let units: usize = scored.files.iter().map(|f| f.results.len()).sum();
        let all: usize = scored.files.iter().map(|f| f.units).sum();
        let _ = writeln!(
            err,
            "shard {shard}: scored {units} of the batch's {all} recipes; combine the shards with `cookingbot-evaluator merge`"
        );
        return Ok(Exit::Success);
    }
    let evaluation = Evaluation {
        report: assembled(scored)?,
        ci: opts.ci,
    };
    let delivery = Delivery {
        format: opts.format,
        output: &opts.output,
        thresholds: &opts.fail_under,
        quiet: opts.quiet,
    };
    finish(&evaluation, &delivery, out, err)
}

/// The solution files of a run scored by `evaluator` (its shard, as a batch when the inputs
/// make one), with notes on `err` where exact Smatch beat hill-climbing: the one scoring path
/// of the `evaluate` command and the evaluate job.
pub(crate) fn score_files(
    evaluator: &Evaluator,
    kitchen: String,
    opts: &EvaluateOptions,
    files: &[PathBuf],
    err: &mut dyn Write,
) -> ShardReport {
    let run = Run {
        evaluator,
        metrics: &opts.metrics,
        shard: opts.shard.unwrap_or(Shard::WHOLE),
        batch: batch::is_batch(&opts.inputs, files),
        signature: signature(opts, kitchen, evaluator),
        progress: opts.progress,
        memo: &batch::Memo::default(),
    };
    let scored = batch::score(run, files);
    if opts.smatch.exact {
        note_smatch_shortfalls(&scored, err);
    }
    scored
}

/// A whole run's results as one report. A whole run covers every unit once; a failure here is
/// a bug, reported, not a panic.
pub(crate) fn assembled(scored: ShardReport) -> Result<BatchReport, AppError> {
    assemble(vec![scored]).map_err(|e| {
        AppError::Failed(format!(
            "the run's results do not fit together ({e}); no results were written"
        ))
    })
}

fn check_options(opts: &EvaluateOptions) -> Result<(), String> {
    if opts.shard.is_some() && opts.format != Format::Json {
        return Err(
            "--shard writes the shard's results for `merge`: use it with --format json".into(),
        );
    }
    if opts.ci.is_some() && !matches!(opts.format, Format::Json | Format::Markdown) {
        return Err("--ci adds intervals to the means of the summary: use it with --format markdown or json".into());
    }
    check_thresholds(&opts.fail_under, &opts.metrics)
}

/// `--bootstrap` within its bounds (`significance::check_draws`), warning on `err` when low.
pub(crate) fn check_ci(ci: Option<Bootstrap>, err: &mut dyn Write) -> Result<(), AppError> {
    let Some(b) = ci else { return Ok(()) };
    if let Some(warning) =
        check_draws("--bootstrap", b.resamples).map_err(|e| AppError::Options(e.to_string()))?
    {
        let _ = writeln!(err, "warning: {warning}");
    }
    Ok(())
}

/// Every file a run reads besides the benchmark: its solutions and the kitchen.
pub(crate) fn inputs_read<'a>(
    opts: &'a EvaluateOptions,
    solutions: &'a [PathBuf],
) -> impl Iterator<Item = &'a Path> {
    solutions
        .iter()
        .map(PathBuf::as_path)
        .chain(opts.data.kitchen.as_deref())
}

/// A threshold on a metric the run does not compute would fail every row.
fn check_thresholds(thresholds: &[Threshold], metrics: &MetricSet) -> Result<(), String> {
    match thresholds.iter().find(|t| !metrics.contains(t.metric)) {
        Some(t) => Err(format!(
            "--fail-under {0} needs the metric computed (-metrics ... {0})",
            t.metric.name()
        )),
        None => Ok(()),
    }
}

/// Notes on stderr where hill-climbing fell short of the exact Smatch optimum.
fn note_smatch_shortfalls(scored: &ShardReport, err: &mut dyn Write) {
    for f in &scored.files {
        for r in &f.results {
            let UnitOutcome::Scored(row) = &r.outcome else {
                continue;
            };
            if let Some(s) = row
                .recipe
                .smatch
                .as_ref()
                .filter(|s| s.hill_climbing_fell_short)
            {
                let _ = writeln!(
                    err,
                    "note: {}: {}: hill-climbing fell short of the exact Smatch optimum ({} matched triples); the exact score is reported",
                    f.file, row.recipe.recipe_id, s.matched
                );
            }
        }
    }
}

pub struct MergeOptions {
    /// Shard reports written by `--shard I/N --format json`.
    pub shards: Vec<PathBuf>,
    pub output: PathBuf,
    pub format: Format,
    pub fail_under: Vec<Threshold>,
    /// Leave out the console summary (`--quiet`).
    pub quiet: bool,
}

/// Combine shard reports into what one run over the whole batch writes.
/// One text scored as a program reads it (the tool server, the Python package): `Ok` with the
/// JSON report's recipes, or `Err` with the refusal and its located diagnostics.
pub fn score_text(
    evaluator: &Evaluator,
    text: &str,
    metrics: &MetricSet,
) -> Result<serde_json::Value, serde_json::Value> {
    score_json(text, evaluator.evaluate(text, metrics), metrics)
}

/// The evaluation of `text` as [`score_text`] gives it, for a front end that evaluated it
/// already (a finished session).
pub fn score_json(
    text: &str,
    evaluated: Result<Vec<RecipeResult>, Refusal>,
    metrics: &MetricSet,
) -> Result<serde_json::Value, serde_json::Value> {
    match evaluated {
        Ok(results) => {
            let recipes: Vec<RecipeReport> = results
                .iter()
                .map(|r| RecipeReport::new(r, metrics))
                .collect();
            Ok(json!({ "recipes": value(&recipes) }))
        }
        Err(refusal) => Err(counting_omitted(
            json!({
                "error": refusal.message,
                "diagnostics": located(text, &refusal.diagnostics),
            }),
            &refusal.diagnostics,
        )),
    }
}

pub fn merge(opts: &MergeOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let mut shards = Vec::with_capacity(opts.shards.len());
    for path in &opts.shards {
        let parsed = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                serde_json::from_str::<ShardReport>(&text).map_err(|e| {
                    format!("not a shard report (written by --shard I/N --format json): {e}")
                })
            });
        shards.push(parsed.map_err(|reason| AppError::File {
            path: path.clone(),
            reason,
        })?);
    }
    let report = assemble(shards).map_err(|e| AppError::Failed(e.to_string()))?;
    check_thresholds(&opts.fail_under, &report.metrics()).map_err(AppError::Options)?;
    let delivery = Delivery {
        format: opts.format,
        output: &opts.output,
        thresholds: &opts.fail_under,
        quiet: opts.quiet,
    };
    finish(&Evaluation { report, ci: None }, &delivery, out, err)
}

/// Where and how a run's results are written.
struct Delivery<'a> {
    format: Format,
    output: &'a Path,
    thresholds: &'a [Threshold],
    /// No console summary.
    quiet: bool,
}

/// Write a run's results, report refusals and shortfalls; the exit code.
fn finish(
    evaluation: &Evaluation,
    delivery: &Delivery<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let Delivery {
        format,
        output,
        thresholds,
        quiet,
    } = *delivery;
    let (report, ci) = (&evaluation.report, evaluation.ci);
    let metrics = report.metrics();
    let refusals: Vec<_> = report.refusals().collect();
    for (_, refusal) in &refusals {
        let _ = write!(err, "{}", refusal.rendered);
    }
    for file in report.empty_files() {
        let _ = writeln!(
            err,
            "warning: {} holds no recipe (no `#recipe-id` line): nothing in it is scored",
            terminal_safe(file)
        );
    }
    if !report.batch
        && matches!(format, Format::Csv | Format::Json)
        && let Some((name, _)) = refusals.first()
    {
        let _ = writeln!(err, "error: {name} was refused; no results were written");
        return Ok(Exit::Failed);
    }
    let text = match format {
        Format::Csv => report::csv::render_report(report),
        Format::Json => report::json::pretty(evaluation),
        Format::Junit => report::junit::render(report, thresholds),
        Format::Markdown => report::markdown::render(report, thresholds, ci),
    };
    write_output(output, text.as_bytes(), format, out, err)?;
    // With the report on stdout, the console summary goes to stderr.
    let mut sink = std::io::sink();
    let summary: &mut dyn Write = if quiet {
        &mut sink
    } else if output == Path::new(STDOUT) {
        &mut *err
    } else {
        &mut *out
    };
    if report.batch {
        let rows = report.rows().count();
        let _ = writeln!(
            summary,
            "Scored {rows} recipes of {} files; {} files refused.",
            report.files.len(),
            refusals.len()
        );
    } else if let Some(Ok(rows)) = report.files.first().map(|f| &f.outcome) {
        let _ = report::write_summary(summary, rows, &metrics);
    }
    let _ = writeln!(summary, "The simulation process has finished.");
    if !report.batch && format == Format::Csv {
        // The reference's CSV has no room for it.
        let _ = writeln!(err, "signature: {}", report.signature);
    }
    let mut exit = Exit::Success;
    let shortfalls = report.shortfalls(thresholds);
    if !shortfalls.is_empty() {
        let _ = writeln!(err, "error: values below --fail-under:");
        let table: Vec<[String; 5]> = shortfalls
            .iter()
            .map(|s| {
                [
                    s.file.to_string(),
                    s.recipe.to_string(),
                    s.metric.name().to_string(),
                    s.printed.to_string(),
                    format!("< {}", s.threshold),
                ]
            })
            .collect();
        write_table(
            err,
            ["file", "recipe", "metric", "value", "threshold"],
            &table,
        );
        exit = Exit::Failed;
    }
    if !refusals.is_empty() {
        let _ = writeln!(
            err,
            "error: {} of {} files were refused",
            refusals.len(),
            report.files.len()
        );
        exit = Exit::Failed;
    }
    Ok(exit)
}

/// Columns padded to their widest cell.
fn write_table<const N: usize>(err: &mut dyn Write, header: [&str; N], rows: &[[String; N]]) {
    let mut widths = header.map(str::len);
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let header = header.map(String::from);
    for row in std::iter::once(&header).chain(rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        let _ = writeln!(err, "  {}", cells.join("  ").trim_end());
    }
}

/// Write the report to its file (whole or not at all) or to stdout, warning where the file's
/// name does not say its format.
fn write_output(
    output: &Path,
    bytes: &[u8],
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), AppError> {
    let extension = format.extension();
    if output != Path::new(STDOUT) && !output.to_string_lossy().ends_with(extension) {
        let _ = writeln!(
            err,
            "warning: {} is not a {extension} file",
            output.display()
        );
    }
    write_report(output, bytes, out)
}

/// Write a command's output to its file (whole or not at all), or to `out` for [`STDOUT`].
pub(crate) fn write_report(
    output: &Path,
    bytes: &[u8],
    out: &mut dyn Write,
) -> Result<(), AppError> {
    if output == Path::new(STDOUT) {
        return crate::report::output::stdout_open()
            .and_then(|()| out.write_all(bytes))
            .and_then(|()| out.flush())
            .map_err(AppError::Stdout);
    }
    report::write_atomically(output, bytes).map_err(|source| AppError::Write {
        path: output.to_owned(),
        source,
    })
}

/// The evaluator for the options, and the name of its kitchen. Missing data is downloaded
/// when the solutions name official recipes (`names_official`, see [`context::locate`]); `--gold`
/// replaces the benchmark with its one network. Gold
/// data that differs from the published benchmark is warned about here, once per run.
pub(crate) fn load(
    opts: &EvaluateOptions,
    names_official: impl FnOnce() -> bool,
    err: &mut dyn Write,
) -> Result<(Evaluator, String), AppError> {
    let (model, kitchen) = super::load_model(&opts.data)?;
    Ok((evaluator_with(opts, model, names_official, err)?, kitchen))
}

/// The evaluator of `opts` over `model` (the model of `opts.data`, primitives of one's own
/// added: the Python package's `Model`): the gold networks located as [`load`] locates them.
pub fn evaluator_with(
    opts: &EvaluateOptions,
    model: crate::simulation::Model,
    names_official: impl FnOnce() -> bool,
    err: &mut dyn Write,
) -> Result<Evaluator, AppError> {
    let source = match &opts.gold {
        Some(gold) => DataSource::User(UserData::single(&gold.path, gold.dish.as_deref())?),
        None => context::locate(opts.data.request(), names_official, err)?,
    };
    let data = Benchmark::load(opts.data.profile, &source)?;
    if let Some(difference) = &data.fingerprint.first_difference {
        let _ = writeln!(
            err,
            "warning: the gold data is not the published benchmark's ({difference}); the signature says `modified`"
        );
    }
    let mut evaluator = Evaluator::with(model, data);
    evaluator.smatch = opts.smatch.clone();
    Ok(evaluator)
}
