//! The extension examples of docs/extending.md, run: a primitive of one's own
//! (`examples/custom_primitive.rs`) and a metric of one's own (`examples/custom_metric.rs`),
//! and the refusals of the primitive and ontology APIs.

#[path = "../../examples/custom_primitive.rs"]
mod custom_primitive;

#[path = "../../examples/custom_metric.rs"]
mod custom_metric;

use crate::common::ontology_tree::{tree_ontology, tree_parents};
use cookingbot::base::profile::Profile;
use cookingbot::metrics::metric::{Metric, MetricSet, RecipeResult};
use cookingbot::report::content::RecipeReport;
use cookingbot::simulation::json_primitive::{self, JsonCode};
use cookingbot::simulation::{Call, Model, SimError};
use cookingbot::world::ontology::{ClassId, Ontology};

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
/// run (`simulation::json_primitive`): the request's inputs, its answer's outputs and times.
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

/// The precedence list of `id` as CLOS merges it, computed the obvious, cubic way: the
/// class, then again and again the head of the first list whose head is in no list's tail.
fn obvious_merge(id: ClassId, mut lists: Vec<Vec<ClassId>>) -> Option<Vec<ClassId>> {
    let mut out = vec![id];
    loop {
        lists.retain(|l| !l.is_empty());
        if lists.is_empty() {
            return Some(out);
        }
        let head = lists
            .iter()
            .map(|l| l[0])
            .find(|h| !lists.iter().any(|l| l[1..].contains(h)))?;
        out.push(head);
        for l in &mut lists {
            l.retain(|c| *c != head);
        }
    }
}

/// 4,000 classes load, each with the precedence list the obvious merge of its parents' gives,
/// numbered after the built-in ones in the file's (name) order, each class once its new
/// parents have their ids.
#[test]
fn a_4000_class_ontology_loads_each_class_merged_from_its_parents() {
    let n = 4000;
    let file = tree_ontology(n);
    let classes = file["classes"].as_object().unwrap();
    let mut onto = Ontology::builtin(Profile::R2024);
    let built_in = onto.len();
    onto.extend(&file).expect("loads");
    assert_eq!(onto.len(), built_in + n);
    let mut unnumbered: Vec<&String> = classes.keys().collect();
    let mut numbered = std::collections::HashSet::from(["feta-cheese".to_owned()]);
    for id in built_in..onto.len() {
        let ready = unnumbered
            .iter()
            .position(|c| {
                let i: usize = c[1..].parse().unwrap();
                tree_parents(i).iter().all(|p| numbered.contains(p))
            })
            .expect("a class whose parents have ids");
        let name = unnumbered.remove(ready);
        numbered.insert(name.clone());
        let id = id as ClassId;
        assert_eq!(onto.class_name(id), name);
        let i: usize = name[1..].parse().unwrap();
        let parents: Vec<ClassId> = tree_parents(i).iter().map(|p| onto.known(p)).collect();
        let lists: Vec<Vec<ClassId>> = parents
            .iter()
            .map(|&p| onto.class(p).precedence.clone())
            .chain([parents.clone()])
            .collect();
        assert_eq!(
            Some(onto.class(id).precedence.clone()),
            obvious_merge(id, lists),
            "{name}"
        );
        assert!(parents.iter().all(|&p| onto.is_a(id, p)), "{name}");
    }
}

/// A chain of subclasses is refused where a class's precedence list would pass the bound,
/// located at that class's parents.
#[test]
fn a_class_with_too_many_ancestors_is_refused() {
    let chain: serde_json::Map<String, serde_json::Value> = (0..200)
        .map(|i| {
            let parent = if i == 0 {
                "feta-cheese".to_owned()
            } else {
                format!("c{}", i - 1)
            };
            (format!("c{i}"), serde_json::json!({"is_a": [parent]}))
        })
        .collect();
    let mut onto = Ontology::builtin(Profile::R2024);
    let feta = onto.class(onto.known("feta-cheese")).precedence.len();
    let refused = onto
        .extend(&serde_json::json!({ "classes": chain }))
        .expect_err("refused");
    // c{i} has the feta cheese's list, itself and the i classes between.
    assert_eq!(
        refused.to_string(),
        format!(
            "classes.c{}.is_a: the class would have more than 128 classes in its precedence list",
            128 - feta
        )
    );
}

/// A gram factor is a single float: the largest and smallest normal ones load as they are.
#[test]
fn a_gram_factor_within_the_single_floats_is_taken_as_it_is() {
    let mut onto = Ontology::builtin(Profile::R2024);
    onto.extend(&serde_json::json!({
        "classes": {"halloumi": {"is_a": ["feta-cheese"]}},
        "conversion_to_g": {"halloumi": {"piece": 3.4e38, "g": 1.2e-38}}
    }))
    .expect("loads");
    let grams = |unit: &str| {
        onto.grams_per(onto.known("halloumi"), onto.known(unit))
            .map(|n| n.to_f32())
    };
    assert_eq!(grams("piece"), Some(3.4e38));
    assert_eq!(grams("g"), Some(1.2e-38));
}
