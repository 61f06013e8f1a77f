//! Execution time of the gold networks against the reference's `gold.tsv`, both profiles.

use crate::common;

use common::reference_rows;
use cookingbot::base::profile::Profile;
use cookingbot::simulation::Model;

fn check(profile: Profile) {
    let model = Model::builtin(profile);
    let rows = reference_rows(profile.name(), "gold.tsv");
    assert!(!rows.is_empty());
    let mut mismatches = Vec::new();
    for row in &rows {
        let text = std::fs::read_to_string(&row.solution).expect("readable gold file");
        let file = cookingbot::language::parse::parse(&text).file;
        let recipe = &file.recipes[0];
        let got = match model.execute(recipe) {
            Err(e) => format!("error: {e} (predicate {:?})", e.predicate),
            Ok(x) if !x.solved => format!("NIL after {} steps", x.steps.len()),
            Ok(x) => x
                .execution_time()
                .map(|t| t.to_string())
                .unwrap_or_else(|| "none".into()),
        };
        if got != row.time {
            mismatches.push(format!(
                "{:40} reference {:>8}  ours {got}",
                row.recipe, row.time
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "profile {profile}: {} of {} gold execution times differ:\n{}",
        mismatches.len(),
        rows.len(),
        mismatches.join("\n")
    );
}

#[test]
fn gold_execution_times_2024() {
    common::require_data!();
    check(Profile::R2024);
}

#[test]
fn gold_execution_times_2023() {
    common::require_data!(Profile::R2024, Profile::R2023);
    check(Profile::R2023);
}
