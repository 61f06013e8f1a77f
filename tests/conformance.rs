//! Every row of every reference TSV in `tests/data/reference/`, both profiles: the same three
//! simulation metrics as the reference, and a refusal exactly where the reference refused.

mod common;

use common::{RefRow, data_dir, reference_rows};
use cookingbot::evaluate::Evaluator;
use cookingbot::profile::Profile;
use cookingbot::report::{Metric, MetricSet};
use std::path::PathBuf;
use std::sync::OnceLock;

fn evaluator(profile: Profile) -> &'static Evaluator {
    static E2023: OnceLock<Evaluator> = OnceLock::new();
    static E2024: OnceLock<Evaluator> = OnceLock::new();
    let cell = match profile {
        Profile::R2023 => &E2023,
        Profile::R2024 => &E2024,
    };
    cell.get_or_init(|| {
        Evaluator::new(profile, data_dir(profile)).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// Compare all rows of one TSV; on failure print every mismatch.
fn check(profile: Profile, tsv: &str) {
    // The documentation examples of both profiles are in the 2024 data.
    common::require_data!(Profile::R2024, profile);
    let rows = reference_rows(profile.name(), tsv);
    let ev = evaluator(profile);
    let metrics = MetricSet::default();
    let mut files: Vec<PathBuf> = rows.iter().map(|r| r.solution.clone()).collect();
    files.dedup();
    let mut mismatches = Vec::new();
    for file in &files {
        let expected: Vec<&RefRow> = rows.iter().filter(|r| &r.solution == file).collect();
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text =
            String::from_utf8_lossy(&std::fs::read(file).expect("readable solution")).into_owned();
        let refused = expected.iter().any(|r| !r.error.is_empty());
        match ev.evaluate(&text, &metrics) {
            Err(refusal) if refused => {
                let _ = refusal;
            }
            Err(refusal) => {
                mismatches.push(format!("{name:60} refused by us: {}", refusal.message))
            }
            Ok(_) if refused => mismatches.push(format!(
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
                if got != want {
                    mismatches.push(format!(
                        "{name:60} reference {want:?}\n{:60} ours      {got:?}",
                        ""
                    ));
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "profile {profile}, {tsv}: {} of {} files differ from the reference:\n{}",
        mismatches.len(),
        files.len(),
        mismatches.join("\n")
    );
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
