//! Metrics on hand-built objects: equality, locations, unfolding. (The metrics end to end
//! against the reference's TSVs are `tests/conformance/`.)

use cookingbot::base::number::Number;
use cookingbot::base::profile::Profile;
use cookingbot::metrics::dish::unfold_dish;
use cookingbot::metrics::equality::{find_location, similar, similar_ignoring, similar_locations};
use cookingbot::simulation::Model;
use cookingbot::simulation::primitives::common::{amount, amount_value};
use cookingbot::world::seq::Seq;
use cookingbot::world::{Entity, Maker, Value};
use std::sync::Arc;

fn sym(s: &str) -> Value {
    Value::Sym(Arc::from(s))
}

fn list(items: Vec<Value>) -> Value {
    Value::List(Arc::new(Seq::from(items)))
}

fn class(m: &Model, name: &str) -> u16 {
    m.onto
        .class_id(name)
        .unwrap_or_else(|| panic!("no class {name}"))
}

fn ingredient(m: &Model, mk: &mut Maker<'_>, name: &str, value: Number, unit: &str) -> Entity {
    let mut e = mk.make(class(m, name));
    let a = amount(m, mk, value, class(m, unit));
    assert!(e.set(m.k.amount, a));
    e
}

fn with_contents(m: &Model, mut e: Entity, contents: Vec<Entity>) -> Entity {
    assert!(e.set(
        m.k.contents,
        Value::list(contents.into_iter().map(Value::obj).collect())
    ));
    e
}

#[test]
fn symbols_numbers_and_lists() {
    assert!(similar(&Value::Nil, &Value::List(Arc::new(Seq::new()))));
    assert!(!similar(&Value::Nil, &Value::T));
    assert!(!similar(&Value::Nil, &list(vec![sym("a")])));
    assert!(similar(
        &Value::Num(Number::int(1)),
        &Value::Num(Number::float(1.0))
    ));
    assert!(!similar(
        &Value::Num(Number::ratio(1, 3).unwrap()),
        &Value::Num(Number::float(1.0 / 3.0))
    ));
    // Set-like with a length check only: multiplicities are not compared.
    assert!(similar(
        &list(vec![sym("a"), sym("a"), sym("b")]),
        &list(vec![sym("a"), sym("b"), sym("b")])
    ));
    assert!(similar(
        &list(vec![sym("b"), sym("a")]),
        &list(vec![sym("a"), sym("b")])
    ));
    assert!(!similar(
        &list(vec![sym("a"), sym("b")]),
        &list(vec![sym("a"), sym("a")])
    ));
    assert!(similar(
        &list(vec![sym("a"), sym("a")]),
        &list(vec![sym("a"), sym("b")])
    ));
}

#[test]
fn objects_ignore_ids_not_slots() {
    let m = Model::builtin(Profile::R2024);
    let mut mk = m.maker();
    let a = ingredient(&m, &mut mk, "butter", Number::int(230), "g");
    let b = ingredient(&m, &mut mk, "butter", Number::float(230.0), "g");
    let c = ingredient(&m, &mut mk, "butter", Number::int(231), "g");
    let d = ingredient(&m, &mut mk, "white-sugar", Number::int(230), "g");
    assert_ne!(a.pid, b.pid);
    let (a, b, c, d) = (Value::obj(a), Value::obj(b), Value::obj(c), Value::obj(d));
    assert!(similar(&a, &b));
    assert!(!similar(&a, &c));
    assert!(similar_ignoring(&a, &c, &[m.k.amount]));
    assert!(!similar(&a, &d));
    assert!(!similar(&a, &Value::Nil));
}

#[test]
fn locations() {
    let m = Model::builtin(Profile::R2024);
    let mut mk = m.maker();
    let butter = ingredient(&m, &mut mk, "butter", Number::int(230), "g");
    let pid = butter.pid;
    let bowl = with_contents(&m, mk.make(class(&m, "medium-bowl")), vec![butter]);
    let counter = with_contents(&m, mk.make(m.k.counter_top), vec![bowl]);
    let fridge = mk.make(class(&m, "fridge"));
    let ks = with_contents(&m, mk.make(m.k.kitchen_state), vec![fridge, counter]);
    let mut probe = mk.make(class(&m, "butter"));
    probe.pid = pid;
    let loc = find_location(&m, &Value::obj(probe), Some(&ks));
    assert_eq!(
        loc,
        vec![m.k.kitchen_state, m.k.counter_top, class(&m, "medium-bowl")]
    );
    let list = mk.make(m.k.list_of_kitchen_entities);
    assert_eq!(
        find_location(&m, &Value::obj(list), Some(&ks)),
        vec![m.k.kitchen_state, m.k.counter_top]
    );
    let stranger = mk.make(class(&m, "butter"));
    assert!(find_location(&m, &Value::obj(stranger), Some(&ks)).is_empty());
    // Only the common prefix is compared.
    assert!(similar_locations(&[], &loc));
    assert!(similar_locations(&loc[..2], &loc));
    assert!(!similar_locations(
        &[m.k.kitchen_state, class(&m, "fridge")],
        &loc
    ));
}

/// A dough of 200 g butter and 100 g sugar, as a mixing primitive leaves it.
fn dough(m: &Model, mk: &mut Maker<'_>, grams: i64) -> Entity {
    let mut b = ingredient(m, mk, "butter", Number::ratio(2, 3).unwrap(), "percent");
    let _ = b.set(m.k.temperature, Value::Nil);
    let s = ingredient(
        m,
        mk,
        "white-sugar",
        Number::ratio(1, 3).unwrap(),
        "percent",
    );
    let mut d = ingredient(m, mk, "dough", Number::int(grams), "g");
    assert!(d.set(
        m.k.components,
        Value::list(vec![Value::obj(b), Value::obj(s)])
    ));
    d
}

#[test]
fn unfolding_scales_and_merges_portions() {
    let m = Model::builtin(Profile::R2024);
    let mut mk = m.maker();
    let portions = vec![dough(&m, &mut mk, 150), dough(&m, &mut mk, 150)];
    let tray = with_contents(&m, mk.make(class(&m, "baking-tray")), portions);
    let unfolded = unfold_dish(&m, &mut mk, &tray).expect("unfolds");
    let summary: Vec<(String, String, usize)> = unfolded
        .iter()
        .map(|u| {
            let a = u
                .ingredient
                .val(m.k.amount)
                .as_obj()
                .and_then(|a| amount_value(&m, a))
                .unwrap();
            (
                m.onto.class_name(u.ingredient.class).to_string(),
                a.to_string(),
                u.hierarchy.len(),
            )
        })
        .collect();
    // Merged entries come out in reverse order of discovery.
    assert_eq!(
        summary,
        vec![
            ("white-sugar".to_string(), "100".to_string(), 1),
            ("butter".to_string(), "200".to_string(), 1)
        ]
    );
    // Not a container: the reference's error.
    let butter = ingredient(&m, &mut mk, "butter", Number::int(1), "g");
    assert!(unfold_dish(&m, &mut mk, &butter).is_err());
}

#[test]
fn the_metrics_stop_when_the_recipes_budget_is_spent_and_say_where() {
    use cookingbot::base::budget::{self, Budget, Phase};
    use cookingbot::benchmark::DataSource;
    use cookingbot::evaluate::Evaluator;
    use std::time::Duration;
    let evaluator = Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo loads");
    let model = &evaluator.model;
    let gold = &evaluator.benchmark.recipes[0];
    let run = cookingbot::metrics::gold_run(model, &gold.network, &gold.primary_output_var)
        .expect("the gold runs");
    let execution = model.execute(&gold.network).expect("it runs");
    // With time left, the gold scores 1 against itself.
    let scores = cookingbot::metrics::score(model, &gold.network, &execution, &run).unwrap();
    assert_eq!(scores.dish_approximation_score, Some(1.0));
    // With none, the metrics stop early and the budget names the phase they were in.
    let (scored, spent) = Budget::new(Duration::ZERO).run(|| {
        let scored = cookingbot::metrics::score(model, &gold.network, &execution, &run);
        (scored, budget::check())
    });
    assert_eq!(
        scored.err().map(|e| e.message),
        Some("the time budget ran out".to_string())
    );
    let spent = spent.expect_err("spent");
    assert_eq!(spent.phase, Phase::Dish);
    assert!(spent.action.is_some());
    // The simulation's refusal says what its search had done.
    let refused = Budget::new(Duration::ZERO)
        .run(|| model.execute(&gold.network))
        .expect_err("refused");
    assert!(
        refused.message.starts_with(&format!(
            "recipe {} was not scored within its time budget of 0 s (--timeout-per-recipe); it was in the simulation",
            gold.id
        )),
        "{}",
        refused.message
    );
}
