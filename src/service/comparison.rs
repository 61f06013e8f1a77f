//! `compare BASELINE SYSTEM...`: each system scored exactly as `evaluate` scores an `--input`
//! (the same batch path), then per metric the corpus mean under the NIL policy with its
//! bootstrap interval and coverage, and for every system against the baseline the paired
//! bootstrap and randomization tests and the per-recipe wins, ties and losses.

use crate::evaluate::Evaluator;
use crate::metrics::corpus::{
    CorpusMean, WinsTiesLosses, corpus_mean, nil_as_zero, wins_ties_losses,
};
use crate::metrics::metric::{Metric, MetricSet};
use crate::metrics::significance::{
    Interval, MAX_EXACT_DIFFERING, PairedBootstrap, Randomization, Resamples, bootstrap_interval,
    check_draws, paired_bootstrap, paired_randomization,
};
use crate::report;
use crate::report::batch_report::{BatchReport, Shard, ShardReport, assemble};
use crate::report::content::{RecipeReport, Signature};
use crate::report::json::{pretty, value};
use crate::report::leaderboard::{Board, Entry, LEVEL, Leaderboard};
use crate::service::batch::{self, Memo, Run};
use crate::service::outcome::{AppError, Exit, Outcome};
use crate::service::scoring::{self, EvaluateOptions};
use serde::Serialize;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Randomization trials when more than [`MAX_EXACT_DIFFERING`] recipes differ: sacrebleu's
/// default.
pub const RANDOMIZATION_TRIALS: usize = 10_000;

/// What `compare` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFormat {
    Text,
    Csv,
    Json,
    /// The comparison tables, then the leaderboard.
    Markdown,
    /// The leaderboard as a self-contained page with a forest plot.
    Html,
}

/// The test that decides whether a system is told apart from the best on the leaderboard.
const TEST_AGAINST_BEST: &str = "paired randomization test";

/// What every output says of refused, NIL and missing solutions.
const NIL_POLICY: &str = "a recipe a system lacks scores 0; a recipe solved several times scores the mean of its solutions, a refused or NIL one scoring 0";

pub struct CompareOptions {
    /// The baseline first, then the systems; each a `.solution` file or a directory of them.
    pub systems: Vec<PathBuf>,
    /// How each system is scored: `inputs` and `output` are ignored, the rest is `evaluate`'s.
    pub evaluation: EvaluateOptions,
    pub output: PathBuf,
    pub format: CompareFormat,
    /// Bootstrap resamples.
    pub bootstrap: usize,
    /// Randomization trials when more than [`MAX_EXACT_DIFFERING`] recipes differ.
    pub trials: usize,
    pub seed: u64,
    /// Also write the resample indices and the per-recipe scores they index, so that another
    /// implementation can recompute the bootstrap statistics (`--dump-resamples`).
    pub dump_resamples: Option<PathBuf>,
}

/// One system's corpus statistics on one metric.
struct SystemStats {
    name: String,
    mean: CorpusMean,
    interval: Interval,
    /// Against the baseline; `None` for the baseline itself.
    paired: Option<Paired>,
}

struct Paired {
    bootstrap: PairedBootstrap,
    randomization: Randomization,
    outcome: WinsTiesLosses,
}

pub(crate) struct MetricComparison {
    metric: Metric,
    systems: Vec<SystemStats>,
    /// Indices into `systems` by corpus mean, best first (input order among equal means),
    /// each with the test against the best (`None` for the best).
    ranking: Vec<(usize, Option<Randomization>)>,
}

/// One system's scores: per metric, per benchmark recipe (`None` for NIL), and per benchmark
/// recipe whether the system has a solution for it (a refused one included).
struct SystemScores {
    scores: Vec<Vec<Option<f64>>>,
    solved: Vec<bool>,
}

/// The metrics compared when none are named: goal-condition success and the dish score
/// (`execution-time` is refused: scoring a missing time 0 would reward it).
pub fn default_metrics() -> MetricSet {
    MetricSet::empty()
        .with(Metric::GoalConditionSuccess)
        .with(Metric::DishApproximationScore)
}

/// The corpus mean of one system's per-recipe `scores` (NIL as 0, coverage beside it) with
/// its 95 % bootstrap interval, drawn from `seed` as the comparison draws it: for a table over
/// episodes (the Python agent harness) whose intervals read as `compare`'s.
pub fn mean_with_interval(
    scores: &[Option<f64>],
    bootstrap: usize,
    seed: u64,
) -> Result<(CorpusMean, Interval), AppError> {
    check_draws("bootstrap", bootstrap).map_err(|e| AppError::Options(e.to_string()))?;
    let resamples = Resamples::draw(scores.len(), bootstrap, seed);
    let interval = bootstrap_interval(&nil_as_zero(scores), &resamples);
    Ok((corpus_mean(scores), interval))
}

/// Run the comparison, writing the table to the output and problems to `err`; the JSON is
/// the compare job's answer ([`answer`]).
pub fn run(opts: &CompareOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    check_options(opts, err).map_err(AppError::Failed)?;
    let (evaluator, kitchen) = scoring::load(&opts.evaluation, || true, err)
        .map_err(|e| AppError::Failed(e.to_string()))?;
    let comparisons = compared(&evaluator, &kitchen, opts, err).map_err(AppError::Failed)?;
    scoring::write_report(&opts.output, render(&comparisons, opts).as_bytes(), out)?;
    Ok(Exit::Success)
}

/// Refuse what cannot be compared, before any work; warn about too few draws.
pub(crate) fn check_options(opts: &CompareOptions, err: &mut dyn Write) -> Result<(), String> {
    if opts.systems.len() < 2 {
        return Err("compare needs a baseline and at least one system".into());
    }
    let metrics = &opts.evaluation.metrics;
    if metrics.none || metrics.iter().next().is_none() {
        return Err(
            "--metrics none leaves nothing to compare: name smatch-score, goal-condition-success or dish-approximation-score (default: the last two)"
                .into(),
        );
    }
    if metrics.contains(Metric::ExecutionTime) {
        return Err(
            "execution-time cannot be compared: a recipe without an execution has no time, and scoring it 0 would reward it"
                .into(),
        );
    }
    for (flag, count) in [("--bootstrap", opts.bootstrap), ("--trials", opts.trials)] {
        if let Some(warning) = check_draws(flag, count).map_err(|e| e.to_string())? {
            let _ = writeln!(err, "warning: {warning}");
        }
    }
    Ok(())
}

/// Each system scored by `evaluator` (whose kitchen is named `kitchen`) and compared with the
/// baseline, per metric: what every format of `compare` and the compare job say.
pub(crate) fn compared(
    evaluator: &Evaluator,
    kitchen: &str,
    opts: &CompareOptions,
    err: &mut dyn Write,
) -> Result<Vec<MetricComparison>, String> {
    let recipes = evaluator.benchmark.ids().len();
    // Shared by every system: a network two systems hold is scored once.
    let memo = Memo::default();
    let systems: Vec<SystemScores> = opts
        .systems
        .iter()
        .map(|system| system_scores(evaluator, opts, kitchen, &memo, system, err))
        .collect::<Result<_, _>>()?;
    warn_of_different_coverage(opts, &systems, recipes, err);
    let scored: Vec<Vec<Vec<Option<f64>>>> = systems.into_iter().map(|s| s.scores).collect();
    let resamples = Resamples::draw(recipes, opts.bootstrap, opts.seed);
    if let Some(path) = &opts.dump_resamples {
        dump(path, opts, &resamples, &scored)?;
    }
    let comparisons = opts
        .evaluation
        .metrics
        .iter()
        .enumerate()
        .map(|(m, metric)| {
            let baseline = nil_as_zero(&scored[0][m]);
            let systems: Vec<SystemStats> = opts
                .systems
                .iter()
                .zip(&scored)
                .enumerate()
                .map(|(k, (path, scores))| {
                    let values = nil_as_zero(&scores[m]);
                    SystemStats {
                        name: path.display().to_string(),
                        mean: corpus_mean(&scores[m]),
                        interval: bootstrap_interval(&values, &resamples),
                        paired: (k > 0).then(|| Paired {
                            bootstrap: paired_bootstrap(&values, &baseline, &resamples),
                            randomization: paired_randomization(
                                &values,
                                &baseline,
                                opts.trials,
                                opts.seed,
                            ),
                            outcome: wins_ties_losses(&values, &baseline),
                        }),
                    }
                })
                .collect();
            let values: Vec<Vec<f64>> = scored.iter().map(|s| nil_as_zero(&s[m])).collect();
            MetricComparison {
                metric,
                ranking: ranking(&systems, &values, opts),
                systems,
            }
        })
        .collect();
    Ok(comparisons)
}

/// The systems by corpus mean, best first, each with the paired randomization test against
/// the best.
fn ranking(
    systems: &[SystemStats],
    values: &[Vec<f64>],
    opts: &CompareOptions,
) -> Vec<(usize, Option<Randomization>)> {
    let mut order: Vec<usize> = (0..systems.len()).collect();
    order.sort_by(|&a, &b| systems[b].mean.mean.total_cmp(&systems[a].mean.mean));
    let best = order[0];
    order
        .into_iter()
        .map(|k| {
            let test = (k != best)
                .then(|| paired_randomization(&values[k], &values[best], opts.trials, opts.seed));
            (k, test)
        })
        .collect()
}

/// A warning when the systems do not all solve the same benchmark recipes, naming how many
/// each lacks: a lacking recipe scores 0, so part of a difference may be coverage, not quality.
fn warn_of_different_coverage(
    opts: &CompareOptions,
    systems: &[SystemScores],
    recipes: usize,
    err: &mut dyn Write,
) {
    if systems.iter().all(|s| s.solved == systems[0].solved) {
        return;
    }
    let lacking: Vec<String> = opts
        .systems
        .iter()
        .zip(systems)
        .map(|(path, s)| {
            let lacks = s.solved.iter().filter(|solved| !**solved).count();
            format!("{} lacks {lacks}", path.display())
        })
        .collect();
    let _ = writeln!(
        err,
        "warning: the systems do not solve the same recipes: of the {recipes} benchmark recipes, {}; a recipe a system lacks scores 0 in its means",
        lacking.join(", ")
    );
}

/// Write the resamples and, per metric and system, the per-recipe scores (NIL as 0) as JSON.
fn dump(
    path: &Path,
    opts: &CompareOptions,
    resamples: &Resamples,
    scored: &[Vec<Vec<Option<f64>>>],
) -> Result<(), String> {
    let metrics: Vec<serde_json::Value> = opts
        .evaluation
        .metrics
        .iter()
        .enumerate()
        .map(|(m, metric)| {
            json!({
                "metric": metric.name(),
                "scores": scored.iter().map(|s| nil_as_zero(&s[m])).collect::<Vec<_>>(),
            })
        })
        .collect();
    let document = json!({
        "seed": opts.seed,
        "systems": opts.systems.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "resamples": resamples.rows().collect::<Vec<_>>(),
        "metrics": metrics,
    });
    report::write_atomically(path, format!("{document}\n").as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Per metric, per benchmark recipe, the system's score (`None` for NIL: a recipe the system
/// leaves out, or whose solutions are all refused or NIL).
fn system_scores(
    evaluator: &Evaluator,
    opts: &CompareOptions,
    kitchen: &str,
    memo: &Memo,
    system: &Path,
    err: &mut dyn Write,
) -> Result<SystemScores, String> {
    let signature = scoring::signature(&opts.evaluation, kitchen.to_string(), evaluator);
    let scored = if is_results(system) {
        read_results(system, &signature, &opts.evaluation.metrics)?
    } else {
        let files = batch::solution_files(std::slice::from_ref(&system.to_path_buf()), err)
            .map_err(|e| e.to_string())?;
        let run = Run {
            evaluator,
            metrics: &opts.evaluation.metrics,
            shard: Shard::WHOLE,
            batch: true,
            signature,
            progress: false,
            memo,
        };
        // Assembled as `evaluate` assembles a batch: a file with a refused recipe is refused
        // whole.
        assemble(vec![batch::score(run, &files)]).map_err(|e| e.to_string())?
    };
    let ids = evaluator.benchmark.ids();
    // Per benchmark recipe, the system's solutions of it: `None` for one in a refused file.
    let mut solutions: Vec<Vec<Option<&RecipeReport>>> = vec![Vec::new(); ids.len()];
    let mut solve = |id: &str, solution| {
        let position = ids.iter().position(|known| *known == id);
        if let Some(i) = position {
            solutions[i].push(solution);
        }
        position.is_some()
    };
    let (mut refused, mut unplaced) = (0, 0);
    for (_, row) in scored.rows() {
        solve(row.recipe.recipe_id.as_str(), Some(&row.recipe));
    }
    for (_, refusal) in scored.refusals() {
        refused += 1;
        let placed = refusal
            .recipes
            .iter()
            .filter(|id| solve(id.as_str(), None))
            .count();
        if placed == 0 {
            unplaced += 1;
        }
    }
    if refused > 0 {
        let unplaced = if unplaced > 0 {
            format!(" ({unplaced} naming no benchmark recipe)")
        } else {
            String::new()
        };
        let _ = writeln!(
            err,
            "warning: {}: {refused} of {} files were refused{unplaced}; each scores 0 as a solution of every recipe it names",
            system.display(),
            scored.files.len()
        );
    }
    let scores = opts
        .evaluation
        .metrics
        .iter()
        .map(|metric| {
            solutions
                .iter()
                .map(|rows| recipe_score(rows, metric))
                .collect()
        })
        .collect();
    Ok(SystemScores {
        scores,
        solved: solutions.iter().map(|s| !s.is_empty()).collect(),
    })
}

/// Whether a system is given as its results rather than its networks: a `.json` file.
fn is_results(system: &Path) -> bool {
    system.is_file()
        && system
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// A system given as results: the shard report of a whole run (`evaluate --shard 1/1 --format
/// json`, `cookingbot.ray.write_system`), its rows' values taken as they were scored, so a
/// Dataset scored on a cluster is compared without scoring its networks again. Refused when
/// it is not such a report, holds part of a run, or was scored otherwise than this comparison
/// would score (other data, profile, kitchen or version; a compared metric missing; other
/// Smatch settings when Smatch is compared).
fn read_results(
    system: &Path,
    expected: &Signature,
    metrics: &MetricSet,
) -> Result<BatchReport, String> {
    let located = |reason: String| format!("{}: {reason}", system.display());
    let text = std::fs::read_to_string(system).map_err(|e| located(e.to_string()))?;
    let report: ShardReport = serde_json::from_str(&text).map_err(|e| {
        located(format!(
            "not a results report (written by --shard 1/1 --format json or cookingbot.ray.write_system): {e}"
        ))
    })?;
    if report.shard != Shard::WHOLE {
        return Err(located(format!(
            "holds shard {} of a run: merge the shards into one report first",
            report.shard
        )));
    }
    let found = &report.signature;
    let differs = [
        ("the data", found.data != expected.data),
        ("the profile", found.profile != expected.profile),
        ("the kitchen", found.kitchen != expected.kitchen),
        ("the program's version", found.version != expected.version),
        (
            "the Smatch settings",
            metrics.contains(Metric::SmatchScore) && found.smatch != expected.smatch,
        ),
    ];
    if let Some((what, _)) = differs.iter().find(|(_, differ)| *differ) {
        return Err(located(format!(
            "scored with other settings than this comparison ({what} differs): {found}; this comparison: {expected}"
        )));
    }
    if let Some(missing) = metrics.iter().find(|m| !found.metrics.contains(m)) {
        return Err(located(format!(
            "holds no {} scores (its metrics: {})",
            missing.name(),
            found
                .metrics
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    assemble(vec![report]).map_err(|e| located(e.to_string()))
}

/// A recipe's score in a system: NIL when no solution of the system has a value; otherwise the
/// mean over the system's solutions of the recipe, a NIL or refused one counted as 0, so that
/// a set of variants (such as the perturbed solutions) is one system whose output is any of
/// them.
fn recipe_score(solutions: &[Option<&RecipeReport>], metric: Metric) -> Option<f64> {
    let values: Vec<Option<f64>> = solutions
        .iter()
        .map(|s| s.and_then(|r| r.value(metric)))
        .collect();
    values
        .iter()
        .any(Option::is_some)
        .then(|| nil_as_zero(&values).iter().sum::<f64>() / values.len() as f64)
}

/// Scores and intervals print with four decimals, p-values with four significant places.
fn score(x: f64) -> String {
    format!("{x:.4}")
}

fn interval(i: Interval) -> String {
    format!("[{}, {}]", score(i.low), score(i.high))
}

fn coverage(m: &CorpusMean) -> String {
    format!("{}/{}", m.executed, m.recipes)
}

fn p_value(p: f64) -> String {
    format!("{p:.4}")
}

/// The cells of one table row: system, mean, interval, coverage, then the paired columns
/// (empty for the baseline).
fn cells(s: &SystemStats) -> Vec<String> {
    let mut row = vec![
        s.name.clone(),
        score(s.mean.mean),
        interval(s.interval),
        coverage(&s.mean),
    ];
    match &s.paired {
        Some(p) => row.extend([
            score(p.bootstrap.difference),
            interval(p.bootstrap.interval),
            p_value(p.bootstrap.p),
            p_value(p.randomization.p),
            p.randomization.method.describe(),
            format!("{}/{}/{}", p.outcome.wins, p.outcome.ties, p.outcome.losses),
        ]),
        None => {
            row.push("baseline".into());
            row.extend(std::iter::repeat_n(String::new(), 5));
        }
    }
    row
}

const HEADER: [&str; 10] = [
    "system",
    "mean",
    "95% CI",
    "coverage",
    "difference",
    "difference 95% CI",
    "p (paired bootstrap)",
    "p (paired randomization)",
    "randomization",
    "wins/ties/losses",
];

/// How the randomization test is computed, as the output says it.
fn randomization_rule(trials: usize) -> String {
    format!(
        "exact over the 2^n sign assignments when n ≤ {MAX_EXACT_DIFFERING} recipes differ, else {trials} sampled trials"
    )
}

fn render(comparisons: &[MetricComparison], opts: &CompareOptions) -> String {
    let settings = format!(
        "bootstrap resamples {}, randomization {}, seed {}; {NIL_POLICY}",
        opts.bootstrap,
        randomization_rule(opts.trials),
        opts.seed
    );
    match opts.format {
        CompareFormat::Text => {
            let mut text = String::new();
            for c in comparisons {
                text.push_str(&format!("{}\n", c.metric.name()));
                let rows: Vec<Vec<String>> = c.systems.iter().map(cells).collect();
                text.push_str(&padded(&rows));
                text.push('\n');
            }
            text.push_str(&format!("{settings}\n"));
            text
        }
        CompareFormat::Markdown => {
            let mut text = String::new();
            for c in comparisons {
                text.push_str(&format!("## {}\n\n", c.metric.label()));
                text.push_str(&format!("| {} |\n", HEADER.join(" | ")));
                text.push_str(&format!("|{}\n", "---|".repeat(HEADER.len())));
                for s in &c.systems {
                    text.push_str(&format!("| {} |\n", cells(s).join(" | ")));
                }
                text.push('\n');
            }
            text.push_str(&format!("_{settings}._\n\n"));
            text.push_str(&leaderboard(comparisons, settings, opts).markdown());
            text
        }
        CompareFormat::Html => leaderboard(comparisons, settings, opts).html(),
        CompareFormat::Csv => {
            let mut writer = csv::Writer::from_writer(Vec::new());
            let mut header = vec!["metric"];
            header.extend(HEADER);
            let mut rows = vec![header.iter().map(|h| h.to_string()).collect::<Vec<_>>()];
            for c in comparisons {
                for s in &c.systems {
                    let mut row = vec![c.metric.name().to_string()];
                    row.extend(cells(s));
                    rows.push(row);
                }
            }
            for row in rows {
                // Writing to memory cannot fail.
                let _ = writer.write_record(&row);
            }
            let bytes = writer.into_inner().unwrap_or_default();
            format!("{}# {settings}\n", String::from_utf8_lossy(&bytes))
        }
        CompareFormat::Json => pretty(&value(&answer(comparisons, opts))),
    }
}

fn leaderboard(
    comparisons: &[MetricComparison],
    settings: String,
    opts: &CompareOptions,
) -> Leaderboard {
    Leaderboard {
        test: format!("{TEST_AGAINST_BEST} ({})", randomization_rule(opts.trials)),
        settings,
        boards: comparisons
            .iter()
            .map(|c| Board {
                label: c.metric.label(),
                entries: c
                    .ranking
                    .iter()
                    .map(|&(k, test)| {
                        let s = &c.systems[k];
                        Entry {
                            system: s.name.clone(),
                            mean: s.mean.mean,
                            low: s.interval.low,
                            high: s.interval.high,
                            coverage: coverage(&s.mean),
                            p_against_best: test.map(|t| t.p),
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The comparison as the compare job answers it and `compare --format json` writes it.
#[derive(Serialize)]
pub struct CompareAnswer {
    bootstrap_resamples: usize,
    randomization_trials: usize,
    randomization_exact_up_to: usize,
    seed: u64,
    nil_policy: &'static str,
    leaderboard_test: String,
    metrics: Vec<MetricAnswer>,
}

/// One metric's comparison: each system's statistics, then the leaderboard.
#[derive(Serialize)]
struct MetricAnswer {
    metric: &'static str,
    systems: Vec<SystemAnswer>,
    leaderboard: Vec<RankAnswer>,
}

#[derive(Serialize)]
struct SystemAnswer {
    system: String,
    mean: f64,
    ci: [f64; 2],
    executed: usize,
    recipes: usize,
    /// Against the baseline; none for the baseline itself.
    #[serde(flatten)]
    paired: Option<PairedAnswer>,
}

#[derive(Serialize)]
struct PairedAnswer {
    difference: f64,
    difference_ci: [f64; 2],
    p_paired_bootstrap: f64,
    p_randomization: f64,
    randomization: String,
    wins: usize,
    ties: usize,
    losses: usize,
}

#[derive(Serialize)]
struct RankAnswer {
    rank: usize,
    system: String,
    p_against_best: Option<f64>,
    randomization: Option<String>,
    not_significantly_different_from_best: bool,
}

/// The comparisons as the compare job's answer.
pub(crate) fn answer(comparisons: &[MetricComparison], opts: &CompareOptions) -> CompareAnswer {
    let metrics = comparisons
        .iter()
        .map(|c| MetricAnswer {
            metric: c.metric.name(),
            systems: c.systems.iter().map(system_answer).collect(),
            leaderboard: c
                .ranking
                .iter()
                .enumerate()
                .map(|(rank, &(k, test))| RankAnswer {
                    rank: rank + 1,
                    system: c.systems[k].name.clone(),
                    p_against_best: test.map(|t| t.p),
                    randomization: test.map(|t| t.method.describe()),
                    not_significantly_different_from_best: test.is_none_or(|t| t.p >= LEVEL),
                })
                .collect(),
        })
        .collect();
    CompareAnswer {
        bootstrap_resamples: opts.bootstrap,
        randomization_trials: opts.trials,
        randomization_exact_up_to: MAX_EXACT_DIFFERING,
        seed: opts.seed,
        nil_policy: NIL_POLICY,
        leaderboard_test: format!("{TEST_AGAINST_BEST} against the best, p >= {LEVEL}"),
        metrics,
    }
}

fn system_answer(s: &SystemStats) -> SystemAnswer {
    SystemAnswer {
        system: s.name.clone(),
        mean: s.mean.mean,
        ci: [s.interval.low, s.interval.high],
        executed: s.mean.executed,
        recipes: s.mean.recipes,
        paired: s.paired.as_ref().map(|p| PairedAnswer {
            difference: p.bootstrap.difference,
            difference_ci: [p.bootstrap.interval.low, p.bootstrap.interval.high],
            p_paired_bootstrap: p.bootstrap.p,
            p_randomization: p.randomization.p,
            randomization: p.randomization.method.describe(),
            wins: p.outcome.wins,
            ties: p.outcome.ties,
            losses: p.outcome.losses,
        }),
    }
}

/// Rows as columns padded to their widest cell, the header first.
fn padded(rows: &[Vec<String>]) -> String {
    let header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    std::iter::once(&header)
        .chain(rows)
        .map(|row| {
            let line: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            format!("{}\n", line.join("  ").trim_end())
        })
        .collect()
}
