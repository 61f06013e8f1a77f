//! Generated variations (`cookingbot::service::variation`, issue 51): for every recipe of the
//! 2024 benchmark and of the held-out benchmark, variations 1 to 3 have a gold network of
//! their own, derived by `scale` and `substitute`, which runs on the variation's kitchen,
//! scores 1.00 against itself there, and is not the official gold; the same number is the same
//! variation.

use crate::common;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataSource;
use cookingbot::evaluate::Evaluator;
use cookingbot::language::ast::Recipe;
use cookingbot::metrics::metric::{Metric, MetricSet};
use cookingbot::service::variation::{VariationError, vary};
use cookingbot::simulation::benchmark_world::World;
use std::path::PathBuf;

const HELDOUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benchmarks/heldout");

/// Every variation 1 to 3 of every recipe of `evaluator`'s benchmark scores against itself
/// what the official gold does (1.00 on every metric, but for a gold that spoils goals itself) and differs from the official gold; the variations that found no
/// missing ingredient with a substitute that runs, as `recipe/K`.
fn check_every_variation(evaluator: &Evaluator) -> Vec<String> {
    let kitchen = &World::default();
    let scores = [
        Metric::SmatchScore,
        Metric::GoalConditionSuccess,
        Metric::DishApproximationScore,
    ];
    let mut without_swap = Vec::new();
    for gold in &evaluator.benchmark.recipes {
        let official = gold.network.to_string();
        // What the official gold scores against itself (1.00 but where it spoils goals itself),
        // headed by its own id: 2024's black-bean-salad-2 file is headed black-bean-salad-4.
        let headed = Recipe {
            id: gold.id.clone(),
            ..gold.network.clone()
        };
        let own = evaluator
            .evaluate(
                &headed.to_string(),
                &MetricSet::from_words(&Metric::ALL.map(Metric::name)),
            )
            .unwrap_or_else(|r| panic!("{}: {}", gold.id, r.message));
        let official_cells: Vec<String> = scores.iter().map(|&m| own[0].formatted(m)).collect();
        for number in 1..=3 {
            let v = vary(evaluator, kitchen, &gold.id, number)
                .unwrap_or_else(|e| panic!("{}/{number}: {e}", gold.id));
            assert_ne!(v.gold, official, "{}/{number}", gold.id);
            let results = v
                .evaluator
                .evaluate(
                    &v.gold,
                    &MetricSet::from_words(&Metric::ALL.map(Metric::name)),
                )
                .unwrap_or_else(|r| panic!("{}/{number}: {}", gold.id, r.message));
            let cells: Vec<String> = scores.iter().map(|&m| results[0].formatted(m)).collect();
            assert_eq!(cells, official_cells, "{}/{number}:\n{}", gold.id, v.gold);
            if v.swap.is_none() {
                without_swap.push(format!("{}/{number}", gold.id));
            }
        }
    }
    without_swap
}

#[test]
fn every_official_recipe_has_three_variations_that_score_one_against_themselves() {
    common::require_data!();
    let without_swap = check_every_variation(&common::benchmark_evaluator(Profile::R2024));
    assert_eq!(without_swap, Vec::<String>::new());
}

#[test]
fn every_heldout_recipe_has_three_variations_that_score_one_against_themselves() {
    let evaluator = Evaluator::new(Profile::R2024, DataSource::Folder(PathBuf::from(HELDOUT)))
        .expect("the held-out benchmark loads");
    let without_swap = check_every_variation(&evaluator);
    assert_eq!(without_swap, Vec::<String>::new());
}

#[test]
fn a_variation_is_the_same_for_the_same_number_and_another_for_another() {
    common::require_data!();
    let evaluator = common::benchmark_evaluator(Profile::R2024);
    let kitchen = &World::default();
    let first = vary(&evaluator, kitchen, "afghan-biscuits", 2).expect("a variation");
    let again = vary(&evaluator, kitchen, "Afghan-Biscuits", 2).expect("a variation");
    assert_eq!((&first.gold, &first.kitchen), (&again.gold, &again.kitchen));
    assert_eq!(first.task(), again.task());
    let other = vary(&evaluator, kitchen, "afghan-biscuits", 3).expect("a variation");
    assert_ne!((&first.gold, &first.kitchen), (&other.gold, &other.kitchen));
    // The kitchen holds none of the missing ingredient, and holds its substitute.
    let swap = first.swap.as_ref().expect("an ingredient missing");
    let holds = |class: &str| first.kitchen.contains(&format!("\"class\":\"{class}\""));
    assert!(
        !holds(&swap.missing) && holds(&swap.substitute),
        "{}",
        first.task()
    );
    assert!(first.gold.contains(&format!(" {} ", swap.substitute)));
    assert!(!first.gold.contains(&format!(" {} ", swap.missing)));
}

#[test]
fn variation_zero_and_an_unknown_recipe_are_refused_with_their_reasons() {
    common::require_data!();
    let evaluator = common::benchmark_evaluator(Profile::R2024);
    let kitchen = &World::default();
    let zero = vary(&evaluator, kitchen, "afghan-biscuits", 0)
        .err()
        .expect("refused");
    assert!(matches!(zero, VariationError::Official));
    assert_eq!(
        zero.to_string(),
        "variation 0 is the official task; variations are numbered from 1"
    );
    let unknown = vary(&evaluator, kitchen, "afghan-biscuit", 1)
        .err()
        .expect("refused");
    assert_eq!(
        unknown.to_string(),
        "Solution contains recipe afghan-biscuit which is currently unsupported (did you mean afghan-biscuits?)"
    );
}
