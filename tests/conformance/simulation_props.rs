//! Properties of the simulator on every gold network of both profiles: the order of the lines
//! and the names of the variables do not change an execution, and a run is deterministic,
//! also on several threads at once.

use crate::common;
use common::data_dir;

use cookingbot::base::profile::Profile;
use cookingbot::benchmark::{Benchmark, GoldRecipe};
use cookingbot::language::ast::{Arg, Recipe};
use cookingbot::metrics::equality::{entities_similar, similar};
use cookingbot::metrics::{GoldRun, Scores, gold_run, output_kitchen_state, primary_output, score};
use cookingbot::simulation::{Execution, Model};
use cookingbot::world::{Entity, Value};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::collections::HashMap;

/// Cases per gold network and property: 30 networks × 2 profiles keep this modest.
const CASES: u32 = 6;

/// One gold network, its gold run and the scores of that run against itself.
struct Gold {
    recipe: GoldRecipe,
    run: GoldRun,
    scores: String,
}

/// A profile's model and gold networks.
struct Fixture {
    model: Model,
    gold: Vec<Gold>,
}

impl Fixture {
    fn load(profile: Profile) -> Fixture {
        let model = Model::builtin(profile);
        let benchmark =
            Benchmark::load(profile, &data_dir(profile).into()).expect("gold networks load");
        assert_eq!(benchmark.recipes.len(), 30, "profile {profile}");
        let gold = benchmark
            .recipes
            .into_iter()
            .map(|g| {
                let run = gold_run(&model, &g.network, &g.primary_output_var)
                    .unwrap_or_else(|e| panic!("{}: gold run fails: {e}", g.id));
                assert!(run.execution.solved, "{}: gold network unsolved", g.id);
                let scores = score(&model, &g.network, &run.execution, &run).expect("gold scores");
                Gold {
                    recipe: g,
                    scores: scores_text(&scores),
                    run,
                }
            })
            .collect();
        Fixture { model, gold }
    }
}

/// Both directions: `similar` requires every element of its first list in the second.
fn same(a: &Value, b: &Value) -> bool {
    similar(a, b) && similar(b, a)
}

fn same_kitchen(a: Option<&Entity>, b: Option<&Entity>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => entities_similar(a, b, &[]) && entities_similar(b, a, &[]),
        (None, None) => true,
        _ => false,
    }
}

fn scores_text(s: &Scores) -> String {
    format!(
        "gcs {:?} dish {:?} time {:?}",
        s.goal_condition_success, s.dish_approximation_score, s.execution_time
    )
}

/// How `variant` (a transformation of the gold network, its predicate `i` being gold predicate
/// `origin[i]`) executes and scores differently from the gold network; empty when it is the
/// same execution.
fn differences(model: &Model, gold: &Gold, variant: &Recipe, origin: &[usize]) -> Vec<String> {
    let base = &gold.run.execution;
    let exec = match model.execute(variant) {
        Ok(e) => e,
        Err(e) => return vec![format!("the variant fails to run: {e}")],
    };
    let mut diffs = Vec::new();
    let mut expect = |ok: bool, what: String| {
        if !ok {
            diffs.push(what);
        }
    };
    expect(exec.solved == base.solved, "solved flag".into());
    expect(
        exec.execution_time() == base.execution_time(),
        format!(
            "execution time {:?}, gold {:?}",
            exec.execution_time(),
            base.execution_time()
        ),
    );
    expect(
        exec.steps.len() == base.steps.len(),
        format!("{} steps, gold {}", exec.steps.len(), base.steps.len()),
    );
    // Steps matched by predicate identity: the order of independent actions may differ.
    let base_step: HashMap<usize, usize> = base
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.predicate, i))
        .collect();
    for (i, step) in exec.steps.iter().enumerate() {
        let p = origin[step.predicate];
        let Some(&j) = base_step.get(&p) else {
            expect(
                false,
                format!("gold predicate {} ran in the variant only", p + 1),
            );
            continue;
        };
        let text = &gold.run.recipe.predicates[p];
        // known: which case of a primitive runs may depend on the order. When two actions can
        // each produce a variable, the first to run binds it and the other then takes it as
        // an input (2023 coconut-tuiles: `preheat-oven` and `bake` both produce ?oven; with
        // `preheat-oven` last, bake runs its case 1 and preheat-oven its case 2 instead of 3
        // and 1). The reference's shuffled search picks either order too; the outputs, times
        // and metrics compared here are the same.
        expect(
            step.start == base.steps[j].start,
            format!(
                "{text}: started at {:?}, gold {:?}",
                step.start, base.steps[j].start
            ),
        );
        expect(
            same(primary_output(&exec, i), primary_output(base, j)),
            format!("{text}: primary output differs"),
        );
        expect(
            same_kitchen(
                output_kitchen_state(model, &exec, i),
                output_kitchen_state(model, base, j),
            ),
            format!("{text}: output kitchen state differs"),
        );
    }
    // The final kitchen state: that of the step the gold run executed last.
    if let Some(last) = base.steps.len().checked_sub(1) {
        let last_p = base.steps[last].predicate;
        let final_state = exec
            .steps
            .iter()
            .position(|s| origin[s.predicate] == last_p)
            .and_then(|i| output_kitchen_state(model, &exec, i));
        expect(
            same_kitchen(final_state, output_kitchen_state(model, base, last)),
            "final kitchen state differs".into(),
        );
    }
    match score(model, variant, &exec, &gold.run) {
        Ok(got) => expect(
            scores_text(&got) == gold.scores,
            format!("metrics {}, gold {}", scores_text(&got), gold.scores),
        ),
        Err(e) => expect(false, format!("the variant fails to score: {e}")),
    }
    diffs
}

fn check_equivalent(
    model: &Model,
    gold: &Gold,
    variant: &Recipe,
    origin: &[usize],
) -> Result<(), TestCaseError> {
    let diffs = differences(model, gold, variant, origin);
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(TestCaseError::fail(diffs.join("; ")))
    }
}

/// Run `property` on every gold network of `profile` with its own runner (so a failure names
/// the network) and collect the failures.
fn for_every_gold_network<S: Strategy>(
    profile: Profile,
    strategy: impl Fn(&Recipe) -> S,
    property: impl Fn(&Model, &Gold, S::Value) -> Result<(), TestCaseError>,
) {
    let fixture = Fixture::load(profile);
    let mut failures = Vec::new();
    // PROPTEST_CASES raises the number of cases for a deeper run.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES);
    for gold in &fixture.gold {
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        if let Err(e) = runner.run(&strategy(&gold.run.recipe), |v| {
            property(&fixture.model, gold, v)
        }) {
            let g = &gold.recipe;
            failures.push(format!("{} ({}): {e}", g.id, g.file.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "profile {profile}: {} of 30 gold networks fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn permuted(recipe: &Recipe, order: &[usize]) -> Recipe {
    Recipe {
        predicates: order
            .iter()
            .map(|&i| recipe.predicates[i].clone())
            .collect(),
        ..recipe.clone()
    }
}

fn permutations(recipe: &Recipe) -> impl Strategy<Value = Vec<usize>> + use<> {
    Just((0..recipe.predicates.len()).collect::<Vec<_>>()).prop_shuffle()
}

fn check_permutation(profile: Profile) {
    for_every_gold_network(profile, permutations, |model, gold, order| {
        let variant = permuted(&gold.run.recipe, &order);
        check_equivalent(model, gold, &variant, &order)
    });
}

#[test]
fn line_order_does_not_change_execution_2024() {
    common::require_data!();
    check_permutation(Profile::R2024);
}

#[test]
fn line_order_does_not_change_execution_2023() {
    common::require_data!(Profile::R2024, Profile::R2023);
    check_permutation(Profile::R2023);
}

fn variables(recipe: &Recipe) -> Vec<String> {
    let mut seen = Vec::new();
    for p in &recipe.predicates {
        for v in p.args.iter().filter_map(Arg::as_var) {
            if !seen.iter().any(|s| s == v) {
                seen.push(v.to_string());
            }
        }
    }
    seen
}

/// Fresh names, one per variable, made distinct by a numbered suffix (the part after the last
/// `-` recovers the number, so two names never collide).
fn fresh_names(recipe: &Recipe) -> impl Strategy<Value = Vec<String>> + use<> {
    let n = variables(recipe).len();
    proptest::collection::vec("[a-z][a-z0-9-]{0,12}", n).prop_map(|names| {
        names
            .into_iter()
            .enumerate()
            .map(|(i, s)| format!("{s}-{i}"))
            .collect()
    })
}

fn renamed(recipe: &Recipe, names: &[String]) -> Recipe {
    let map: HashMap<String, &String> = variables(recipe).into_iter().zip(names).collect();
    let mut r = recipe.clone();
    for p in &mut r.predicates {
        for a in &mut p.args {
            if let Arg::Var(v) = a {
                *v = map[&**v].as_str().into();
            }
        }
    }
    r
}

fn check_renaming(profile: Profile) {
    for_every_gold_network(profile, fresh_names, |model, gold, names| {
        let variant = renamed(&gold.run.recipe, &names);
        prop_assert_ne!(&variant, &gold.run.recipe);
        let identity: Vec<usize> = (0..variant.predicates.len()).collect();
        check_equivalent(model, gold, &variant, &identity)
    });
}

#[test]
fn variable_names_do_not_change_execution_2024() {
    common::require_data!();
    check_renaming(Profile::R2024);
}

#[test]
fn variable_names_do_not_change_execution_2023() {
    common::require_data!(Profile::R2024, Profile::R2023);
    check_renaming(Profile::R2023);
}

/// Exact equality, persistent ids and list order included: what determinism promises.
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Nil, Value::Nil) | (Value::T, Value::T) => true,
        (Value::Num(x), Value::Num(y)) => x == y,
        (Value::Sym(x), Value::Sym(y)) | (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Obj(x), Value::Obj(y)) => {
            x.class == y.class
                && x.pid == y.pid
                && x.slots().count() == y.slots().count()
                && x.slots()
                    .zip(y.slots())
                    .all(|((s, v), (t, w))| s == t && identical(v, w))
        }
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(v, w)| identical(v, w))
        }
        _ => false,
    }
}

fn identical_executions(a: &Execution, b: &Execution) -> bool {
    a.solved == b.solved
        && a.slots == b.slots
        && a.names == b.names
        && a.steps.len() == b.steps.len()
        && a.steps
            .iter()
            .zip(&b.steps)
            .all(|(s, t)| (s.predicate, s.case, s.start) == (t.predicate, t.case, t.start))
        && a.bindings.len() == b.bindings.len()
        && a.bindings.iter().zip(&b.bindings).all(|(x, y)| {
            x.score == y.score && x.available_at == y.available_at && identical(&x.value, &y.value)
        })
}

fn check_determinism(profile: Profile) {
    let fixture = Fixture::load(profile);
    let run_all = |rotate: usize| -> Vec<(Execution, String)> {
        let n = fixture.gold.len();
        let mut out: Vec<Option<(Execution, String)>> = vec![None; n];
        // Each thread walks the networks from a different start.
        for k in 0..n {
            let i = (k + rotate) % n;
            let g = &fixture.gold[i];
            let exec = fixture.model.execute(&g.run.recipe).expect("gold runs");
            let s = score(&fixture.model, &g.run.recipe, &exec, &g.run).expect("gold scores");
            out[i] = Some((exec, scores_text(&s)));
        }
        out.into_iter().map(Option::unwrap).collect()
    };
    let first = run_all(0);
    let mut runs = vec![run_all(0)];
    runs.extend(std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=4)
            .map(|t| scope.spawn(move || run_all(t * 7)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect::<Vec<_>>()
    }));
    for (r, run) in runs.iter().enumerate() {
        for (i, ((a, sa), (b, sb))) in first.iter().zip(run).enumerate() {
            let id = &fixture.gold[i].recipe.id;
            assert!(
                identical_executions(a, b),
                "profile {profile}, {id}: run {r} differs from the first"
            );
            assert_eq!(sa, sb, "profile {profile}, {id}: run {r} scores");
        }
    }
    // And the gold run itself is one of these executions.
    for (g, (a, s)) in fixture.gold.iter().zip(&first) {
        assert!(identical_executions(a, &g.run.execution), "{}", g.recipe.id);
        assert_eq!(s, &g.scores, "{}", g.recipe.id);
    }
}

#[test]
fn runs_are_deterministic_across_threads_2024() {
    common::require_data!();
    check_determinism(Profile::R2024);
}

#[test]
fn runs_are_deterministic_across_threads_2023() {
    common::require_data!(Profile::R2024, Profile::R2023);
    check_determinism(Profile::R2023);
}
