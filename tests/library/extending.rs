//! The extension examples of docs/extending.md, run: a primitive of one's own
//! (`examples/custom_primitive.rs`) and a metric of one's own (`examples/custom_metric.rs`),
//! and the refusals of the primitive and ontology APIs.

#[path = "../../examples/custom_primitive.rs"]
mod custom_primitive;

#[path = "../../examples/custom_metric.rs"]
mod custom_metric;

use cookingbot::base::profile::Profile;
use cookingbot::metrics::metric::Metric;
use cookingbot::simulation::{Call, Model, SimError};

/// The grill recipe scores 1.00 against its own gold; never grilling leaves the halloumi's
/// `grilled` slot (one of its 9) unset, and stops before the 4 minutes of grilling.
#[test]
fn a_primitive_of_ones_own_is_checked_simulated_and_scored() {
    use custom_primitive::{GOLD, UNGRILLED, scores};
    let rows = scores(&[GOLD, UNGRILLED]).expect("scored");
    let printed = |row: &cookingbot::metrics::metric::RecipeResult| -> Vec<String> {
        Metric::ALL.iter().map(|&m| row.formatted(m)).collect()
    };
    assert_eq!(printed(&rows[0]), ["1.00", "1.00", "1.00", "270"]);
    let dish = 0.98f32 * (0.6 * (8.0 / 9.0) + 0.4) + 0.02;
    let got = rows[1].dish_approximation_score.expect("a dish");
    assert!((got - dish).abs() < 1e-6, "{got} against {dish}");
    assert_eq!(rows[1].formatted(Metric::ExecutionTime), "30");
    custom_primitive::main().expect("the example runs");
}

#[test]
fn the_metric_example_runs() {
    custom_metric::main().expect("the example runs");
    let model = Model::builtin(Profile::R2024);
    let text = include_str!("../../examples/demo-perfect.solution");
    let parsed = cookingbot::language::parse::parse(text);
    for recipe in &parsed.file.recipes {
        let exec = model.execute(recipe).expect("runs");
        assert_eq!(custom_metric::coverage(&exec, recipe.predicates.len()), 1.0);
    }
}

fn nothing(_: &mut Call<'_, '_>) -> Result<(), SimError> {
    Ok(())
}

#[test]
fn a_primitive_cannot_replace_a_built_in_one_or_name_unknown_arguments() {
    let mut model = Model::builtin(Profile::R2024);
    let entry = |name: &str, case: &str| {
        format!(
            r#"{{"name": "{name}", "args": [{{"name": "out", "type": "t"}}, {{"name": "in", "type": "t"}}], "cases": [["{case}"]]}}"#
        )
    };
    let refused = |model: &mut Model, text: String| {
        model
            .add_primitive(&text, nothing)
            .expect_err("refused")
            .to_string()
    };
    assert_eq!(
        refused(&mut model, entry("bake", "in")),
        "the catalogue already has a primitive `bake`"
    );
    assert_eq!(
        refused(&mut model, entry("toast", "bread")),
        "toast: case names unknown argument bread"
    );
    model
        .add_primitive(&entry("toast", "in"), nothing)
        .expect("added");
    assert!(model.catalogue.get("toast").is_some());
}
