//! Metrics: equality and unfolding on hand-built objects, and the three metrics end to end
//! against the reference's TSVs (gold files and documentation examples, both profiles).

mod common;

use common::{read_solution, reference_rows};
use cookingbot::language::ast::Recipe;
use cookingbot::metrics::dish::unfold_dish;
use cookingbot::metrics::equality::{find_location, similar, similar_ignoring, similar_locations};
use cookingbot::metrics::{GoldRun, Scores, gold_run, score};
use cookingbot::number::{Number, two_decimals};
use cookingbot::profile::Profile;
use cookingbot::simulation::Model;
use cookingbot::simulation::primitives::common::{amount, amount_value};
use cookingbot::world::{Entity, Maker, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

fn sym(s: &str) -> Value {
    Value::Sym(Arc::from(s))
}

fn list(items: Vec<Value>) -> Value {
    Value::List(Arc::new(items))
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
    assert!(similar(&Value::Nil, &Value::List(Arc::new(Vec::new()))));
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

// ---- End to end -------------------------------------------------------------------------

struct Golds {
    model: Model,
    runs: HashMap<String, Result<GoldRun, String>>,
}

fn manifest() -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("gold/benchmark.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("gold/benchmark.json"))
        .expect("valid manifest")
}

fn golds(profile: Profile) -> Golds {
    let model = Model::builtin(profile);
    let man = manifest();
    let p = &man["profiles"][profile.name()];
    let root = common::shared_dir().join(p["data_root"].as_str().unwrap_or("benchmark"));
    let mut runs = HashMap::new();
    for r in p["recipes"].as_array().expect("recipes") {
        let id = r["id"].as_str().unwrap_or_default().to_string();
        let var = r["primary_output_var"].as_str().unwrap_or_default();
        let recipe: Recipe = match r["embedded_network"].as_array() {
            Some(lines) => {
                let text = format!(
                    "#{id}\n{}\n",
                    lines
                        .iter()
                        .filter_map(|l| l.as_str())
                        .collect::<Vec<_>>()
                        .join("\n")
                );
                read_solution(&text).recipes.remove(0)
            }
            None => {
                let path = root.join(r["gold_file"].as_str().unwrap_or_default());
                let text = std::fs::read_to_string(&path).expect("gold file");
                read_solution(&text).recipes.remove(0)
            }
        };
        let run = gold_run(&model, &recipe, var).map_err(|e| e.to_string());
        runs.insert(id, run);
    }
    Golds { model, runs }
}

fn fmt_scores(s: &Scores) -> [String; 3] {
    let nil = || "NIL".to_string();
    [
        s.goal_condition_success
            .map(two_decimals)
            .unwrap_or_else(nil),
        s.dish_approximation_score
            .map(|d| two_decimals(Number::float(d)))
            .unwrap_or_else(nil),
        s.execution_time.map(|t| t.to_string()).unwrap_or_else(nil),
    ]
}

/// The three metric columns of every recipe of one solution file, or the reason it fails.
fn evaluate_file(g: &Golds, path: &Path) -> Result<BTreeMap<String, [String; 3]>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let file = read_solution(&text);
    let mut out = BTreeMap::new();
    for recipe in &file.recipes {
        let gold = match g.runs.get(&recipe.id) {
            Some(Ok(run)) => run,
            Some(Err(e)) => return Err(format!("gold run of {}: {e}", recipe.id)),
            None => return Err(format!("unknown recipe {}", recipe.id)),
        };
        let exec = g
            .model
            .execute(recipe)
            .map_err(|e| format!("simulation: {e}"))?;
        let s = score(&g.model, recipe, &exec, gold).map_err(|e| format!("metrics: {e}"))?;
        out.insert(recipe.id.clone(), fmt_scores(&s));
    }
    Ok(out)
}

fn check(profile: Profile, tsv: &str) {
    let g = golds(profile);
    let rows = reference_rows(profile.name(), tsv);
    let mut cache: HashMap<std::path::PathBuf, Result<BTreeMap<String, [String; 3]>, String>> =
        HashMap::new();
    let mut bad = Vec::new();
    for row in &rows {
        let got = cache
            .entry(row.solution.clone())
            .or_insert_with(|| evaluate_file(&g, &row.solution));
        let name = row
            .solution
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let want = [row.gcs.clone(), row.dish.clone(), row.time.clone()];
        match got {
            Ok(map) => match map.get(&row.recipe) {
                Some(ours) if !row.error.is_empty() => bad.push(format!(
                    "{name:45} {:30} reference refuses, ours {ours:?}",
                    row.recipe
                )),
                Some(ours) if *ours != want => bad.push(format!(
                    "{name:45} {:30} reference {want:?} ours {ours:?}",
                    row.recipe
                )),
                Some(_) => {}
                None if !row.error.is_empty() => bad.push(format!(
                    "{name:45} reference refuses ({}), ours ran",
                    row.error
                )),
                None => bad.push(format!("{name:45} {:30} no row of ours", row.recipe)),
            },
            Err(e) if row.error.is_empty() => bad.push(format!(
                "{name:45} {:30} reference {want:?} ours error {e}",
                row.recipe
            )),
            Err(_) => {}
        }
    }
    let total = rows.len();
    println!(
        "profile {profile} {tsv}: {} of {total} rows match",
        total - bad.len()
    );
    assert!(
        bad.is_empty(),
        "profile {profile} {tsv}: {} of {total} rows differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn gold_files_2024() {
    check(Profile::R2024, "gold.tsv");
}

#[test]
fn documentation_examples_2024() {
    check(Profile::R2024, "doc-examples.tsv");
}

#[test]
fn gold_files_2023() {
    check(Profile::R2023, "gold.tsv");
}

#[test]
fn documentation_examples_2023() {
    check(Profile::R2023, "doc-examples.tsv");
}

/// Needs the full parser for the refusals (syntax errors, unknown ids): informative only.
#[test]
#[ignore]
fn perturbed_public_2024() {
    check(Profile::R2024, "perturbed-public.tsv");
}

#[test]
#[ignore]
fn perturbed_public_2023() {
    check(Profile::R2023, "perturbed-public.tsv");
}
