//! Every row of every reference TSV in `tests/data/reference/`, both profiles: the same three
//! simulation metrics as the reference, and a refusal exactly where the reference refused.

use crate::common;

use common::{RefRow, reference_rows};
use cookingbot::base::profile::Profile;
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::{Metric, MetricSet};
use std::path::{Path, PathBuf};

/// Compare all rows of one TSV; on failure print every mismatch.
fn check(profile: Profile, tsv: &str) {
    // The documentation examples of both profiles are in the 2024 data.
    common::require_data!(Profile::R2024, profile);
    let rows = reference_rows(profile.name(), tsv);
    let ev = common::benchmark_evaluator(profile);
    let mut files: Vec<PathBuf> = rows.iter().map(|r| r.solution.clone()).collect();
    files.dedup();
    let mismatches: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let expected: Vec<&RefRow> = rows.iter().filter(|r| &r.solution == file).collect();
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = String::from_utf8_lossy(&std::fs::read(file).expect("readable solution"))
                .into_owned();
            mismatch(&ev, &name, &text, &expected)
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "profile {profile}, {tsv}: {} of {} files differ from the reference:\n{}",
        mismatches.len(),
        files.len(),
        mismatches.join("\n")
    );
}

/// How our rows for one file differ from the reference's, if they do.
fn mismatch(ev: &Evaluator, name: &str, text: &str, expected: &[&RefRow]) -> Option<String> {
    let refused = expected.iter().any(|r| !r.error.is_empty());
    match ev.evaluate(text, &MetricSet::default()) {
        Err(_) if refused => None,
        Err(refusal) => Some(format!("{name:60} refused by us: {}", refusal.message)),
        Ok(_) if refused => Some(format!(
            "{name:60} accepted by us, refused by the reference: {}",
            expected[0].error
        )),
        Ok(results) => {
            let got: Vec<String> = results
                .iter()
                .map(|r| {
                    format!(
                        "{} {} {} {}",
                        r.recipe_id,
                        r.formatted(Metric::GoalConditionSuccess),
                        r.formatted(Metric::DishApproximationScore),
                        r.formatted(Metric::ExecutionTime)
                    )
                })
                .collect();
            let want: Vec<String> = expected
                .iter()
                .filter(|r| !r.recipe.is_empty())
                .map(|r| format!("{} {} {} {}", r.recipe, r.gcs, r.dish, r.time))
                .collect();
            (got != want)
                .then(|| format!("{name:60} reference {want:?}\n{:60} ours      {got:?}", ""))
        }
    }
}

/// The differential campaign (`docs/differential.md`): its networks, regenerated from the gold
/// networks by `cookingbot::mistakes`, against the reference's values for them stored in
/// `tests/data/differential/<profile>.tsv`.
fn campaign(profile: Profile) {
    common::require_data!(profile);
    let ev = common::benchmark_evaluator(profile);
    let golds = common::campaign_golds(&ev, profile);
    let rows = common::differential_rows(profile.name());
    let others = common::differential_other_answers(profile.name());
    let mut ids: Vec<&PathBuf> = rows.iter().map(|r| &r.solution).collect();
    ids.dedup();
    let mut mismatches = Vec::new();
    for id in &ids {
        let name = id.to_string_lossy();
        let Some(mistake) = golds.mistake(&name) else {
            mismatches.push(format!("{name:60} not made by the generator"));
            continue;
        };
        // Where the reference's random search order changes its answer, any answer it gave.
        let (stored, other) = (answer(&rows, id), answer(&others, id));
        let differs = mismatch(&ev, &name, &mistake.text, &stored);
        if differs.is_some()
            && (other.is_empty() || mismatch(&ev, &name, &mistake.text, &other).is_some())
        {
            mismatches.extend(differs);
        }
    }
    assert!(
        mismatches.is_empty(),
        "profile {profile}: {} of {} campaign networks differ from the reference:\n{}",
        mismatches.len(),
        ids.len(),
        mismatches.join("\n")
    );
}

/// The rows of one network in a campaign TSV.
fn answer<'r>(rows: &'r [RefRow], id: &Path) -> Vec<&'r RefRow> {
    rows.iter().filter(|r| r.solution == id).collect()
}

#[test]
fn differential_2024() {
    campaign(Profile::R2024);
}

#[test]
fn differential_2023() {
    campaign(Profile::R2023);
}

#[test]
fn reference_2024_gold() {
    check(Profile::R2024, "gold.tsv");
}

#[test]
fn reference_2024_doc_examples() {
    check(Profile::R2024, "doc-examples.tsv");
}

#[test]
fn reference_2024_perturbed() {
    check(Profile::R2024, "perturbed-public.tsv");
}

#[test]
fn reference_2024_edge() {
    check(Profile::R2024, "edge.tsv");
}

#[test]
fn reference_2023_gold() {
    check(Profile::R2023, "gold.tsv");
}

#[test]
fn reference_2023_doc_examples() {
    check(Profile::R2023, "doc-examples.tsv");
}

#[test]
fn reference_2023_perturbed() {
    check(Profile::R2023, "perturbed-public.tsv");
}
