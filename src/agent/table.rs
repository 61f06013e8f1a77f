//! The repairing agent measured: for every recipe of a benchmark, the rules translator's
//! network scored as a file (one shot) against the same network given to a session by the
//! repairing agent (acting with feedback), both starting from the translator as `translate`
//! writes it and from the rules alone (without the pass that takes out what the simulator
//! aborts on). docs/agents.md holds the table; a test checks that it is what this computes.

use super::repair::{RepairKind, repair};
use crate::base::profile::Profile;
use crate::benchmark::DataSource;
use crate::evaluate::Evaluator;
use crate::metrics::metric::{Metric, MetricSet, RecipeResult};
use crate::report::batch_report::means;
use crate::report::content::RecipeReport;
use crate::service::outcome::AppError;
use crate::service::translation::benchmark_text;
use crate::service::translation_bench::mean_cell;
use crate::session::Session;
use crate::translate::Translator;
use crate::translate::rules::RulesTranslator;
use std::fmt::Write as _;
use std::sync::Arc;

/// One way of writing the networks, with each recipe's score and the repairs made.
#[derive(Clone, Debug)]
pub struct Approach {
    /// Which translation it starts from.
    pub translator: &'static str,
    /// `one shot`, or `repairing agent`.
    pub agent: &'static str,
    /// Per recipe in the manifest's order; a recipe without a network or refused has no values.
    pub rows: Vec<RecipeResult>,
    /// How many repairs of each kind, in [`RepairKind::ALL`]'s order.
    pub repairs: Vec<(RepairKind, usize)>,
}

impl Approach {
    fn new(translator: &'static str, agent: &'static str) -> Approach {
        Approach {
            translator,
            agent,
            rows: Vec::new(),
            repairs: RepairKind::ALL.into_iter().map(|k| (k, 0)).collect(),
        }
    }

    /// The networks that ran to their end: those with a dish to score.
    pub fn executable(&self) -> usize {
        let ran = self
            .rows
            .iter()
            .filter(|r| r.dish_approximation_score.is_some());
        ran.count()
    }
}

/// The table of one profile's benchmark.
#[derive(Clone, Debug)]
pub struct Table {
    pub profile: Profile,
    pub approaches: Vec<Approach>,
}

/// The two translations the agent starts from: the rules alone, and as `translate` writes
/// them.
const TRANSLATIONS: [&str; 2] = ["rules, text only", "rules"];

/// Translate, score and repair every recipe of `source`'s benchmark of `profile`.
pub fn measure(profile: Profile, source: DataSource) -> Result<Table, AppError> {
    let entries = source.manifest(profile)?.recipes;
    let texts = entries
        .iter()
        .map(|entry| benchmark_text(&source, entry))
        .collect::<Result<Vec<_>, _>>()?;
    let evaluator = Arc::new(Evaluator::new(profile, source)?);
    let metrics = Metric::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with);
    let model = &evaluator.model;
    let mut translators = [
        RulesTranslator::text_only(model),
        RulesTranslator::new(model),
    ];
    let mut approaches = Vec::new();
    for (translator, name) in translators.iter_mut().zip(TRANSLATIONS) {
        let (mut once, mut repaired) = (
            Approach::new(name, "one shot"),
            Approach::new(name, "repairing agent"),
        );
        for (entry, text) in entries.iter().zip(&texts) {
            let unscored = RecipeResult {
                recipe_id: entry.id.clone(),
                ..RecipeResult::default()
            };
            let Ok(translation) = translator.translate(text, 0) else {
                once.rows.push(unscored.clone());
                repaired.rows.push(unscored);
                continue;
            };
            let scored = evaluator.evaluate(&translation.solution, &metrics);
            let first = scored.ok().and_then(|rows| rows.into_iter().next());
            once.rows.push(first.unwrap_or_else(|| unscored.clone()));
            let mut session = Session::with_evaluator(evaluator.clone(), &entry.id)
                .map_err(|e| AppError::Failed(e.to_string()))?;
            let done = repair(&mut session, &translation.solution)
                .map_err(|e| AppError::Failed(format!("{}: {e}", entry.id)))?;
            for r in &done.repairs {
                if let Some((_, n)) = repaired.repairs.iter_mut().find(|(k, _)| *k == r.kind) {
                    *n += 1;
                }
            }
            repaired
                .rows
                .push(done.episode.score.result.unwrap_or(unscored));
        }
        approaches.extend([once, repaired]);
    }
    Ok(Table {
        profile,
        approaches,
    })
}

impl Table {
    /// The table in Markdown: per approach, the executable networks, the mean of each metric
    /// (a recipe without a value counts as 0; the time averages the recipes that have one)
    /// and the repairs.
    pub fn markdown(&self) -> String {
        let metrics = Metric::ALL
            .into_iter()
            .fold(MetricSet::empty(), MetricSet::with);
        let mut s = format!(
            "| profile {} | agent | executable networks | smatch-score | goal-condition-success | dish-approximation-score | execution-time | repairs |\n",
            self.profile
        );
        s.push_str("|---|---|---:|---:|---:|---:|---:|---|\n");
        for a in &self.approaches {
            let reports: Vec<RecipeReport> = a
                .rows
                .iter()
                .map(|r| RecipeReport::new(r, &metrics))
                .collect();
            let means = means(&reports.iter().collect::<Vec<_>>(), 0, &metrics, None);
            let cells: Vec<String> = means.iter().map(mean_cell).collect();
            let repairs: Vec<String> = a
                .repairs
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| format!("{} {n}", k.name()))
                .collect();
            let _ = writeln!(
                s,
                "| {} | {} | {}/{} | {} | {} |",
                a.translator,
                a.agent,
                a.executable(),
                a.rows.len(),
                cells.join(" | "),
                repairs.join(", ")
            );
        }
        s
    }
}
