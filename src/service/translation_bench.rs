//! `benchmark`: translate every benchmark recipe's text, score each translation against its
//! gold network with the four metrics, and write the table (CSV and markdown) with the mean of
//! each metric and pass@k over K samples, and every sample with what it was made from.

use super::context::{self, DataContext};
use super::outcome::{AppError, Exit, Outcome};
use super::translation::benchmark_text;
use crate::base::profile::Profile;
use crate::data::manifest::RecipeEntry;
use crate::data::splits::{Split, recipes_of};
use crate::evaluate::Evaluator;
use crate::language::diagnostic::terminal_safe;
use crate::metrics::corpus::corpus_mean;
use crate::metrics::metric::{Metric, MetricSet, RecipeResult};
use crate::report::batch_report::{Mean, means};
use crate::report::content::RecipeReport;
use crate::report::json::pretty;
use crate::report::write_atomically;
use crate::translate::{Provenance, Translation, Translator};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

pub struct BenchOptions {
    pub data: DataContext,
    /// Samples per recipe (K of pass@k).
    pub samples: usize,
    /// A sample passes when its dish approximation score is at least this.
    pub pass_threshold: f32,
    /// Only the recipes of this official split that the benchmark holds.
    pub split: Option<Split>,
    /// Folder for `baseline-<translator>.csv` and `.md` and the `samples` folder.
    pub out: PathBuf,
}

/// One recipe's row: the first sample's scores and how many samples passed.
struct Row {
    result: RecipeResult,
    passed: usize,
    /// Why the first sample has no scores (translation or evaluation refused).
    problem: Option<String>,
    /// The clauses of the text the first sample left out, not understood, for a translator
    /// that counts them.
    untranslated: Option<usize>,
}

/// What is stored of one sample: `samples/<recipe>/<k>.solution` (when a network came out)
/// and, beside it, `<k>.json`, this record, so that the network can be re-scored and audited.
struct Sample {
    recipe: String,
    index: usize,
    solution: Option<String>,
    record: String,
}

/// The `<k>.json` beside a sample: how it was made and what the checker said of it.
#[derive(Serialize)]
struct SampleRecord<'a> {
    recipe: &'a str,
    /// 0-based, as the translator's `sample` (the LLM's seed).
    sample: usize,
    translator: &'a str,
    /// The program that translated and scored it (version, commit, features).
    version: &'static str,
    #[serde(flatten)]
    provenance: Provenance,
    /// What the translator left out or repaired, located where it can be.
    notes: &'a [String],
    /// Why the sample has no scores: the translation or the evaluation was refused.
    problem: Option<&'a str>,
}

/// Run the benchmark with a translator; the table on `out`, files under `opts.out`.
/// No usable benchmark data, no model to ask or a table that cannot be written is an error
/// (nothing written).
pub fn run(
    opts: &BenchOptions,
    translator: &mut dyn Translator,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let samples_folder = samples_folder(&opts.out)?;
    // Without --benchmark, the recipes are the official ones (downloaded when missing).
    let source = context::locate(opts.data.request(), || true, err)?;
    let entries = in_split(source.manifest(opts.data.profile)?.recipes, opts.split)?;
    let texts = entries
        .iter()
        .map(|entry| benchmark_text(&source, entry))
        .collect::<Result<Vec<_>, _>>()?;
    let evaluator = Evaluator::new(opts.data.profile, source)?;
    let metrics = Metric::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with);
    let mut rows = Vec::new();
    let mut samples = Vec::new();
    for (entry, text) in entries.into_iter().zip(texts) {
        let mut row = Row {
            result: RecipeResult {
                recipe_id: entry.id.clone(),
                ..RecipeResult::default()
            },
            passed: 0,
            problem: None,
            untranslated: None,
        };
        for sample in 0..opts.samples.max(1) {
            let translated = match translator.translate(&text, sample) {
                Err(e) if e.unavailable => {
                    let line = format!(
                        "{}: {e}; the benchmark stops: without answers from the model its table would measure the server, not the model",
                        entry.id
                    );
                    return Err(AppError::Failed(terminal_safe(&line).into_owned()));
                }
                t => t,
            };
            let scored = translated
                .as_ref()
                .map_err(|e| terminal_safe(&e.message).into_owned())
                .and_then(|t| {
                    evaluator
                        .evaluate(&t.solution, &metrics)
                        .map_err(|r| r.message)
                })
                .and_then(|mut results| results.pop().ok_or_else(|| "no network".into()));
            let translation = translated.ok();
            if sample == 0 {
                row.untranslated = translation.as_ref().and_then(|t| t.untranslated);
            }
            let record = SampleRecord {
                recipe: &entry.id,
                sample,
                translator: translator.name(),
                version: env!("COOKINGBOT_LONG_VERSION"),
                provenance: translator.provenance(&text, sample),
                notes: translation.as_ref().map_or(&[], |t| &t.notes),
                problem: scored.as_ref().err().map(String::as_str),
            };
            samples.push(Sample {
                recipe: entry.id.clone(),
                index: sample,
                record: pretty(&record),
                solution: translation.map(|t: Translation| t.solution),
            });
            match scored {
                Ok(result) => {
                    if result
                        .dish_approximation_score
                        .is_some_and(|d| d >= opts.pass_threshold)
                    {
                        row.passed += 1;
                    }
                    if sample == 0 {
                        row.result = result;
                    }
                }
                Err(problem) if sample == 0 => row.problem = Some(problem),
                Err(_) => {}
            }
        }
        rows.push(row);
    }
    let name = translator.name().to_string();
    let markdown = markdown(&rows, &name, opts);
    let _ = write!(out, "{markdown}");
    let stem = baseline_stem(&name, opts.data.profile);
    for (ext, body) in [("md", markdown.clone()), ("csv", csv(&rows, opts))] {
        let path = opts.out.join(format!("{stem}.{ext}"));
        write_atomically(&path, body.as_bytes())
            .map_err(|source| AppError::Write { path, source })?;
    }
    store_samples(&opts.out, &samples_folder, &samples)?;
    Ok(Exit::Success)
}

/// The entries of `split` (all without one); a split none of whose recipes the benchmark
/// holds is an error, since its table would be empty.
fn in_split(entries: Vec<RecipeEntry>, split: Option<Split>) -> Result<Vec<RecipeEntry>, AppError> {
    let Some(split) = split else {
        return Ok(entries);
    };
    let kept: Vec<RecipeEntry> = entries
        .into_iter()
        .filter(|e| recipes_of(split).any(|r| r.id == e.id))
        .collect();
    if kept.is_empty() {
        return Err(AppError::Options(format!(
            "--split {split}: the benchmark holds none of the split's recipes (gold/splits.json lists official and benchmarks/heldout recipes)"
        )));
    }
    Ok(kept)
}

/// The tables' file name without its extension: `baseline-<translator>`, with the profile
/// after it for a profile other than the default (`baseline-rules-2023`), so that the tables
/// of both profiles can sit in one folder.
pub fn baseline_stem(translator: &str, profile: Profile) -> String {
    if profile == Profile::default() {
        format!("baseline-{translator}")
    } else {
        format!("baseline-{translator}-{profile}")
    }
}

/// `out/samples`, refused before any work when it is a link or a file: a run replaces only a
/// folder of samples.
fn samples_folder(out: &Path) -> Result<PathBuf, AppError> {
    let folder = out.join("samples");
    match folder.symlink_metadata() {
        Ok(meta) if !meta.is_dir() => Err(AppError::Failed(format!(
            "{}: a link or a file, not a folder of samples; nothing was written",
            folder.display()
        ))),
        _ => Ok(folder),
    }
}

/// Replace `target` (`out/samples`) with this run's samples as a whole: they are written into a
/// new folder beside it, which then takes its place, so the folder never mixes two runs.
fn store_samples(out: &Path, target: &Path, samples: &[Sample]) -> Result<(), AppError> {
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| AppError::Write { path, source }
    };
    std::fs::create_dir_all(out).map_err(write_error(out))?;
    let staging = tempfile::Builder::new()
        .prefix(".samples-")
        .tempdir_in(out)
        .map_err(write_error(out))?;
    for s in samples {
        if !is_one_name(&s.recipe) {
            return Err(AppError::Failed(format!(
                "recipe id `{}` cannot name a folder of samples",
                terminal_safe(&s.recipe)
            )));
        }
        let stem = staging.path().join(&s.recipe).join(s.index.to_string());
        let mut files = vec![(stem.with_extension("json"), s.record.as_str())];
        files.extend(
            s.solution
                .as_deref()
                .map(|t| (stem.with_extension("solution"), t)),
        );
        for (path, body) in files {
            write_atomically(&path, body.as_bytes()).map_err(write_error(&path))?;
        }
    }
    if target.exists() {
        std::fs::remove_dir_all(target).map_err(write_error(target))?;
    }
    let staged = staging.keep();
    std::fs::rename(&staged, target).map_err(|source| {
        let _ = std::fs::remove_dir_all(&staged);
        AppError::Write {
            path: target.to_path_buf(),
            source,
        }
    })
}

/// Whether `id` is one plain path component (no separator, not `.` or `..`).
fn is_one_name(id: &str) -> bool {
    let mut components = Path::new(id).components();
    matches!(components.next(), Some(Component::Normal(_))) && components.next().is_none()
}

/// pass@k with n samples of which c passed (the unbiased estimator 1 − C(n−c,k)/C(n,k)).
pub fn pass_at_k(n: usize, c: usize, k: usize) -> f64 {
    if n < k || n - c < k {
        return if c > 0 { 1.0 } else { 0.0 };
    }
    let mut fail = 1.0;
    for i in (n - c + 1)..=n {
        fail *= 1.0 - k as f64 / i as f64;
    }
    1.0 - fail
}

const COLUMNS: [Metric; 4] = Metric::ALL;

/// The summary every report prints (`report::batch_report::means`: a score without a value counts as
/// 0, the time averages the recipes that have one) over the rows' first samples, and the mean
/// pass@k.
fn summary(rows: &[Row], samples: usize) -> (Vec<Mean>, f64) {
    let metrics = COLUMNS
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with);
    let reports: Vec<RecipeReport> = rows
        .iter()
        .map(|r| RecipeReport::new(&r.result, &metrics))
        .collect();
    // Every benchmark recipe is a row: a refused sample is its row without values.
    let means = means(&reports.iter().collect::<Vec<_>>(), 0, &metrics, None);
    let pass: Vec<Option<f64>> = rows
        .iter()
        .map(|r| Some(pass_at_k(samples, r.passed, samples)))
        .collect();
    (means, corpus_mean(&pass).mean)
}

/// A mean as the tables print it: three decimals for a score, one for the time, NIL when no
/// recipe has a value.
pub fn mean_cell(m: &Mean) -> String {
    match (m.mean, m.metric) {
        (None, _) => "NIL".into(),
        (Some(v), Metric::ExecutionTime) => format!("{v:.1}"),
        (Some(v), _) => format!("{v:.3}"),
    }
}

fn markdown(rows: &[Row], name: &str, opts: &BenchOptions) -> String {
    let k = opts.samples.max(1);
    let profile = opts.data.profile;
    let reference = match profile == Profile::default() {
        true => String::new(),
        false => format!("--reference {profile} "),
    };
    let mut s = format!(
        "# Baseline: the `{name}` translator\n\nEvery benchmark recipe's text translated by `cookingbot-evaluator {reference}benchmark --translator {name} --samples {k}` (profile {profile}) and scored against its gold network. A sample passes when its dish approximation score is at least {}; pass@{k} is over {k} samples per recipe.",
        opts.pass_threshold
    );
    if name == "rules" {
        s.push_str(" The rules translator is deterministic: its samples are identical, so pass@k equals pass@1.");
    }
    s.push_str(" `NIL`: no execution (or the translation was refused; see notes).");
    let counted = rows.iter().any(|r| r.untranslated.is_some());
    if counted {
        s.push_str(" `untranslated`: the clauses of the recipe text the first sample left out, not understood (each a note with its line in the sample's `.json`).");
    }
    s.push_str("\n\n");
    let _ = write!(
        s,
        "| recipe | smatch-score | goal-condition-success | dish-approximation-score | execution-time | passed | pass@{k} |"
    );
    s.push_str(if counted { " untranslated |\n" } else { "\n" });
    s.push_str("|---|---:|---:|---:|---:|---:|---:|");
    s.push_str(if counted { "---:|\n" } else { "\n" });
    for ((id, cells, passed, pass), row) in printed(rows, k).zip(rows) {
        let _ = write!(
            s,
            "| {id} | {} | {passed}/{k} | {pass} |",
            cells.join(" | ")
        );
        if counted {
            let n = row.untranslated.map(|n| n.to_string()).unwrap_or_default();
            let _ = write!(s, " {n} |");
        }
        s.push('\n');
    }
    let (means, pass) = summary(rows, k);
    let cells: Vec<String> = means.iter().map(mean_cell).collect();
    let timed = means
        .iter()
        .find(|m| m.metric == Metric::ExecutionTime)
        .map_or(0, |m| m.with_value);
    let _ = write!(
        s,
        "| **mean** | {} ({timed} recipes) | | {pass:.3} |",
        cells.join(" | ")
    );
    if counted {
        let all: usize = rows.iter().filter_map(|r| r.untranslated).sum();
        let _ = write!(s, " {all} in all |");
    }
    s.push('\n');
    let problems: Vec<&Row> = rows.iter().filter(|r| r.problem.is_some()).collect();
    if !problems.is_empty() {
        s.push_str("\nNotes:\n\n");
        for r in problems {
            let _ = writeln!(
                s,
                "- `{}`: {}",
                r.result.recipe_id,
                r.problem.as_deref().unwrap_or_default()
            );
        }
    }
    s
}

/// Each row as both tables print it: the recipe id, the metrics as the reference prints them,
/// the samples passed and pass@k.
fn printed(rows: &[Row], k: usize) -> impl Iterator<Item = (&str, Vec<String>, usize, String)> {
    rows.iter().map(move |r| {
        let cells = COLUMNS.iter().map(|m| r.result.formatted(*m)).collect();
        let pass = format!("{:.2}", pass_at_k(k, r.passed, k));
        (r.result.recipe_id.as_str(), cells, r.passed, pass)
    })
}

fn csv(rows: &[Row], opts: &BenchOptions) -> String {
    let k = opts.samples.max(1);
    let mut s = String::from(
        "recipe,smatch-score,goal-condition-success,dish-approximation-score,execution-time,passed,samples,pass-at-k\n",
    );
    for (id, cells, passed, pass) in printed(rows, k) {
        let _ = writeln!(s, "{id},{},{passed},{k},{pass}", cells.join(","));
    }
    let (means, pass) = summary(rows, k);
    let cells: Vec<String> = means.iter().map(mean_cell).collect();
    let _ = writeln!(s, "mean,{},,{k},{pass:.3}", cells.join(","));
    s
}
