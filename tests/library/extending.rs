//! The extension examples of docs/extending.md, run: a primitive of one's own
//! (`examples/custom_primitive.rs`) and a metric of one's own (`examples/custom_metric.rs`),
//! and the refusals of the primitive and ontology APIs.

#[path = "../../examples/custom_primitive.rs"]
mod custom_primitive;

#[path = "../../examples/custom_metric.rs"]
mod custom_metric;

use cookingbot::base::profile::Profile;
use cookingbot::metrics::metric::{Metric, MetricSet, RecipeResult};
use cookingbot::report::content::RecipeReport;
use cookingbot::service::json_primitive::{self, JsonCode};
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

/// The example's `grill` as code that speaks JSON, the way the Python package's primitives
/// run (`service::json_primitive`): the request's inputs, its answer's outputs and times.
struct JsonGrill;

impl JsonCode for JsonGrill {
    fn call(&self, request: &str) -> Result<String, String> {
        let mut request: serde_json::Value =
            serde_json::from_str(request).map_err(|e| e.to_string())?;
        let number = |v: &serde_json::Value| v.as_i64().ok_or(format!("not an integer: {v}"));
        let ready =
            number(&request["kitchen_time"])?.max(number(&request["ready"]["thing-to-grill"])?);
        let minutes = number(&request["inputs"]["time-to-grill-quantity"]["value"])?;
        let mut pan = request["inputs"]["thing-to-grill"].take();
        for item in pan["contents"].as_array_mut().into_iter().flatten() {
            if let Some(grilled) = item.get_mut("grilled") {
                *grilled = serde_json::Value::Bool(true);
            }
        }
        let answer = serde_json::json!({
            "outputs": {"thing-grilled": pan},
            "ready_at": {"thing-grilled": ready + minutes * 60},
            "kitchen_time": ready + 30,
        });
        Ok(answer.to_string())
    }
}

/// A failing code's message refuses the network, as an error a primitive signals.
struct ColdGrill;

impl JsonCode for ColdGrill {
    fn call(&self, _: &str) -> Result<String, String> {
        Err("the grill is cold".into())
    }
}

/// The same rows, detail included, from the JSON grill as from the Rust one.
#[test]
fn a_primitive_whose_code_speaks_json_scores_as_the_rust_one() {
    use custom_primitive::{GOLD, GRILL, UNGRILLED, scores, scores_with, world};
    let metrics = Metric::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with);
    let report = |rows: Vec<RecipeResult>| -> Vec<serde_json::Value> {
        rows.iter()
            .map(|r| cookingbot::report::json::value(&RecipeReport::new(r, &metrics)))
            .collect()
    };
    let mut model = world().expect("the example's world");
    json_primitive::add(&mut model, GRILL, JsonGrill, false).expect("added");
    let json = scores_with(model, &[GOLD, UNGRILLED]).expect("scored");
    let rust = scores(&[GOLD, UNGRILLED]).expect("scored");
    assert_eq!(report(json), report(rust));
    let mut cold = world().expect("the example's world");
    json_primitive::add(&mut cold, GRILL, ColdGrill, false).expect("added");
    let refused = scores_with(cold, &[GOLD]).expect_err("refused").to_string();
    assert_eq!(
        refused,
        "the gold network of grilled-halloumi fails to run: grill: the grill is cold"
    );
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
