//! Substituting an ingredient and scaling a recipe (`service::substitute`, `service::scale`)
//! on the benchmark's gold networks, with the values the dish metric's definition predicts, and
//! on the campaign's mistaken networks, every rewrite scored as `evaluate` scores its network.

use crate::common::{self, require_data};
use cookingbot::base::budget::Budget;
use cookingbot::base::number::Number;
use cookingbot::base::number::two_decimals;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::Benchmark;
use cookingbot::data::diet_table::Diet;
use cookingbot::data::substitute_roles::SubstituteRoles;
use cookingbot::evaluate::Evaluator;
use cookingbot::language::ast::Recipe;
use cookingbot::metrics::dish::unfold_dish;
use cookingbot::metrics::metric::MetricSet;
use cookingbot::metrics::{GoldRun, gold_run, primary_output};
use cookingbot::report::content::RecipeReport;
use cookingbot::service::golds::Golds;
use cookingbot::service::rewrite_run::{Comparison, RerunFailure, rerun};
use cookingbot::service::scale::scale_text;
use cookingbot::service::substitute::{substitute_text, suggest};
use cookingbot::simulation::Model;
use cookingbot::world::rewrite::scaling::{Factor, scale};
use cookingbot::world::rewrite::substitution::{AmountRule, network_ingredients};
use std::sync::Arc;
use std::time::Duration;

/// Every gold network of a profile as text, under its recipe's id.
fn gold_texts(profile: Profile) -> Vec<(String, String)> {
    common::benchmark_evaluator(profile)
        .benchmark
        .recipes
        .iter()
        .map(|r| {
            let mut network = r.network.clone();
            network.id = r.id.clone();
            (r.id.clone(), network.to_string())
        })
        .collect()
}

/// The evaluator's gold data, as the jobs give it: its gold runs kept.
fn gold_of(evaluator: &Arc<Evaluator>) -> impl FnMut(&str) -> Result<Option<Golds>, String> + '_ {
    move |_| Ok(Some(Golds::Kept(evaluator.clone())))
}

fn substituted(
    profile: Profile,
    text: &str,
    replace: (&str, &str),
) -> Result<cookingbot::service::substitute::SubstituteAnswer, RerunFailure> {
    let e = common::benchmark_evaluator(profile);
    substitute_text(
        &e.model,
        text,
        None,
        replace,
        Some(AmountRule::SameWeight),
        &mut gold_of(&e),
    )
}

fn scaling(
    profile: Profile,
    text: &str,
    factor: &str,
) -> Result<cookingbot::service::scale::ScaleAnswer, RerunFailure> {
    let e = common::benchmark_evaluator(profile);
    let factor = Factor::parse(factor).unwrap();
    scale_text(&e.model, text, None, factor, &mut gold_of(&e))
}

fn scaled(profile: Profile, text: &str, factor: &str) -> cookingbot::service::scale::ScaleAnswer {
    scaling(profile, text, factor).unwrap_or_else(|f| panic!("scaling by {factor} fails: {f:?}"))
}

fn names_butter(text: &str) -> bool {
    text.contains(" butter ")
}

#[test]
fn butter_for_butter_changes_nothing_in_any_gold_recipe() {
    require_data!(Profile::R2024, Profile::R2023);
    for profile in [Profile::R2024, Profile::R2023] {
        let mut checked = Vec::new();
        for (id, text) in gold_texts(profile)
            .into_iter()
            .filter(|(_, t)| names_butter(t))
        {
            let a = substituted(profile, &text, ("butter", "butter")).unwrap();
            let c = &a.comparison;
            assert!(c.changes.is_empty(), "{id}: {:?}", c.changes);
            assert_eq!(c.network, text, "{id}");
            assert!(c.executes && c.failure.is_none(), "{id}");
            let r = &c.against_original;
            assert_eq!(r.dish_approximation_score, Some(1.0), "{id}");
            let g = r.goal_condition_success.as_ref().unwrap();
            assert_eq!(g.numerator, g.denominator, "{id}");
            assert_eq!(r.execution_time, c.original_execution_time, "{id}");
            let gold = c.against_gold.as_ref().unwrap();
            assert_eq!(gold.original, gold.rewritten, "{id}");
            checked.push(id);
        }
        assert_eq!(checked.len(), 11, "{profile}: {checked:?}");
    }
}

/// A gold file rewritten on the evaluator its front end keeps (the jobs' way) runs only the
/// rewrite: the original's run is the gold run the evaluator kept, and the comparison is the
/// one a benchmark read for the call gives, where every run is made again.
#[test]
fn a_gold_file_rewritten_on_the_evaluator_takes_its_kept_gold_run_and_answers_alike() {
    require_data!();
    let e = common::benchmark_evaluator(Profile::R2024);
    let factor = Factor::parse("3/2").unwrap();
    let scaled = |text: &str, golds: &mut dyn FnMut() -> Golds| {
        let mut gold = |_: &str| Ok(Some(golds()));
        rerun(&e.model, text, None, &mut gold, |original| {
            let s = scale(&e.model.onto, &e.model.catalogue, original, factor);
            Ok((s.rewrite, ()))
        })
        .unwrap_or_else(|f| panic!("{f:?}"))
        .0
    };
    let mut own = 0;
    for g in &e.benchmark.recipes {
        let text = std::fs::read_to_string(&g.file).unwrap();
        let kept = scaled(&text, &mut || Golds::Kept(e.clone()));
        let read = scaled(&text, &mut || {
            Golds::Read(std::sync::Arc::new(e.benchmark.clone()))
        });
        let json = |run| serde_json::to_value(Comparison::of(run)).unwrap();
        assert_eq!(json(&kept), json(&read), "{}", g.id);
        // black-bean-salad-2's file names black-bean-salad-4 in its header: its text is not
        // that recipe's gold network, so it runs as any network does.
        if g.network.id != g.id {
            continue;
        }
        let the_gold_run = e.gold_run_of(&g.id).unwrap().unwrap();
        assert!(Arc::ptr_eq(&kept.original, &the_gold_run), "{}", g.id);
        assert!(!Arc::ptr_eq(&read.original, &the_gold_run), "{}", g.id);
        assert!(kept.against_gold.is_some(), "{}", g.id);
        own += 1;
    }
    assert_eq!(own, 29);
}

/// afghan-biscuits' gold run and two rewrites of its network: coconut oil for butter (most
/// goals missed) and scaled by 3/2 (every amount changed).
fn afghan_biscuits_and_rewrites(e: &Evaluator) -> (GoldRun, [Recipe; 2]) {
    use cookingbot::world::rewrite::substitution::{Substitution, ingredient_class, substitute};
    let m = &e.model;
    let g = e.benchmark.recipe("afghan-biscuits").unwrap();
    let gold = gold_run(m, &g.network, &g.primary_output_var).unwrap();
    let class = |name| ingredient_class(&m.onto, name).unwrap();
    let coconut = Substitution::new(
        class("butter"),
        class("coconut-oil"),
        AmountRule::SameWeight,
    );
    let substituted = substitute(&m.onto, &m.catalogue, &g.network, &coconut).unwrap();
    let scaled = scale(
        &m.onto,
        &m.catalogue,
        &g.network,
        Factor::parse("3/2").unwrap(),
    );
    (gold, [substituted.recipe, scaled.rewrite.recipe])
}

/// The comparisons a scoring remembers (`Similarity`: each pair of objects compared once)
/// answer as the lone ones, with and without ignored slots, over every pair of outputs of a
/// gold run and of its rewrites (coconut oil for butter: most goals missed; scaled by 3/2:
/// every amount changed), each pair asked twice so that the second answer is remembered.
#[test]
fn remembered_comparisons_answer_as_lone_ones_over_a_gold_run_and_its_rewrites() {
    use cookingbot::metrics::equality::{
        Similarity, differing_slots, entities_similar, similar, similar_ignoring,
    };
    use cookingbot::world::Value;
    require_data!();
    let e = common::benchmark_evaluator(Profile::R2024);
    let m = &e.model;
    let (gold, rewrites) = afghan_biscuits_and_rewrites(&e);
    let outputs = |exec: &cookingbot::simulation::Execution| {
        (0..exec.steps.len())
            .map(|s| primary_output(exec, s).clone())
            .collect::<Vec<_>>()
    };
    let gold_outputs = outputs(&gold.execution);
    let (mut similar_pairs, mut differing_pairs) = (0, 0);
    for rewrite in &rewrites {
        let exec = m.execute(rewrite).unwrap();
        let rewritten = outputs(&exec);
        let mut same = Similarity::default();
        let mut same_but_amounts = Similarity::ignoring(&[m.k.amount]);
        for _ in 0..2 {
            for a in &gold_outputs {
                for b in &rewritten {
                    let lone = similar(a, b);
                    assert_eq!(same.similar(a, b), lone);
                    let ignoring = similar_ignoring(a, b, &[m.k.amount]);
                    assert_eq!(same_but_amounts.similar(a, b), ignoring);
                    similar_pairs += usize::from(lone);
                    if let (Value::Obj(x), Value::Obj(y)) = (a, b) {
                        // Shared objects, the pair remembered, the same object twice included.
                        for (x, y) in [(x, y), (x, x)] {
                            let lone = entities_similar(x, y, &[m.k.amount]);
                            assert_eq!(same_but_amounts.objects_similar(x, y), lone);
                        }
                    }
                    if let (Some(x), Some(y)) = (a.as_obj(), b.as_obj()) {
                        let differing = differing_slots(m, x, y);
                        assert_eq!(same.differing_slots(m, x, y), differing);
                        assert_eq!(same.entities_similar(x, y), differing.is_empty());
                        differing_pairs += usize::from(!differing.is_empty());
                    }
                }
            }
        }
    }
    // Both answers occur: the pairs are not all alike nor all different.
    assert!(similar_pairs > 0 && differing_pairs > 0);
}

/// One dish comparer's unfoldings share what they found (the merge's comparisons by object,
/// the copy's unchanged objects, the amounts' templates): every step's output compared by one
/// comparer, from the last step back and then again, scores and details as a comparer of its
/// own gives them, over afghan-biscuits' gold run (five trays of the same 32 cookies) and two
/// rewrites of it (coconut oil for butter, scaled by 3/2).
#[test]
fn a_comparers_unfoldings_score_as_lone_ones_over_a_gold_run_and_its_rewrites() {
    use cookingbot::metrics::dish::{DishDetail, GoldDish};
    use cookingbot::simulation::Execution;
    require_data!();
    let e = common::benchmark_evaluator(Profile::R2024);
    let m = &e.model;
    let (gold, [substituted, scaled]) = afghan_biscuits_and_rewrites(&e);
    fn compared(dish: &mut GoldDish<'_>, exec: &Execution, step: usize) -> Compared {
        dish.compare(exec, step)
            .map(|(score, detail)| (score.to_f32(), detail))
            .map_err(|e| e.message)
    }
    type Compared = Result<(f32, Option<DishDetail>), String>;
    let mut dishes = 0;
    for exec in [
        gold.execution.clone(),
        m.execute(&substituted).unwrap(),
        m.execute(&scaled).unwrap(),
    ] {
        let mut shared = GoldDish::new(m, &gold).unwrap();
        for _ in 0..2 {
            for step in (0..exec.steps.len()).rev() {
                let lone = compared(&mut GoldDish::new(m, &gold).unwrap(), &exec, step);
                assert_eq!(compared(&mut shared, &exec, step), lone, "step {step}");
                dishes += usize::from(lone.is_ok_and(|(_, detail)| detail.is_some()));
            }
        }
    }
    // Dishes were compared (not only outputs that are no dish): the trays, in all three runs.
    assert!(dishes >= 3 * 2 * 5, "{dishes}");
}

/// The dish approximation score of a dish against itself with one base ingredient of `n`
/// replaced by a class the dish lacks, all else equal (docs/substitute.md): the contents part
/// matches `n - 1` ingredients fully and counts the replaced one missing and its replacement
/// surplus, `(n - 1) / (n + 1)`; the container part is unchanged. Single floats, as the metric.
fn predicted_dish(n: usize) -> f32 {
    let contents = (n - 1) as f32 / (n + 1) as f32;
    0.98f32 * contents + 0.02f32 * 1.0
}

/// The base ingredients of a gold network's dish (the dish unfolded as the metric unfolds it).
fn gold_dish_classes(model: &Model, benchmark: &Benchmark, id: &str) -> Vec<String> {
    let g = benchmark.recipe(id).unwrap();
    let run = gold_run(model, &g.network, &g.primary_output_var).unwrap();
    let dish = primary_output(&run.execution, run.output_step.unwrap());
    let unfolded = unfold_dish(model, &mut model.maker(), dish.as_obj().unwrap()).unwrap();
    unfolded
        .iter()
        .map(|u| model.onto.class_name(u.ingredient.class).to_owned())
        .collect()
}

#[test]
fn coconut_oil_for_butter_drops_the_dish_score_by_the_share_the_metric_predicts() {
    require_data!();
    let profile = Profile::R2024;
    let e = common::benchmark_evaluator(profile);
    let mut dishes = Vec::new();
    for (id, text) in gold_texts(profile)
        .into_iter()
        .filter(|(_, t)| names_butter(t))
    {
        let a = substituted(profile, &text, ("butter", "coconut-oil")).unwrap();
        let c = &a.comparison;
        if let Some(failure) = &c.failure {
            // Coconut oil greasing a sheet is an error of the reference's `grease`.
            assert!(!c.executes, "{id}");
            assert!(
                failure.message.contains("COCONUT-OIL"),
                "{id}: {}",
                failure.message
            );
            assert_eq!(c.against_original.dish_approximation_score, None, "{id}");
            dishes.push((id, None));
            continue;
        }
        assert!(c.executes, "{id}");
        let classes = gold_dish_classes(&e.model, &e.benchmark, &id);
        let expected = if classes.iter().any(|c| c == "butter") {
            predicted_dish(classes.len())
        } else {
            1.0
        };
        let dish = c.against_original.dish_approximation_score.unwrap();
        assert_eq!(dish, expected, "{id}: {} base ingredients", classes.len());
        let gold = c.against_gold.as_ref().unwrap();
        assert_eq!(gold.original.dish_approximation_score, Some(1.0), "{id}");
        assert_eq!(
            gold.rewritten.dish_approximation_score,
            Some(expected),
            "{id}"
        );
        assert_eq!(
            c.against_original.execution_time, c.original_execution_time,
            "{id}"
        );
        dishes.push((id, Some((classes.len(), two_decimals(Number::float(dish))))));
    }
    let printed: Vec<(&str, Option<(usize, &str)>)> = dishes
        .iter()
        .map(|(id, d)| (id.as_str(), d.as_ref().map(|(n, s)| (*n, s.as_str()))))
        .collect();
    assert_eq!(
        printed,
        [
            ("almond-crescent-cookies", Some((7, "0.76"))),
            ("afghan-biscuits", Some((6, "0.72"))),
            ("best-brownies", Some((8, "0.78"))),
            ("easy-banana-bread", Some((6, "0.72"))),
            ("whole-wheat-ginger-snaps", Some((13, "0.86"))),
            ("almond-crescent-cookies-2", Some((7, "0.76"))),
            ("almond-crescent-cookies-4", Some((6, "0.72"))),
            ("almond-crescent-cookies-5", Some((7, "0.76"))),
            ("coconut-tuiles", Some((4, "1.00"))),
            ("mexican-wedding-cookies", Some((6, "0.72"))),
            ("bisquick-shortcake-biscuits", None),
        ]
    );
    // afghan-biscuits: six base ingredients, so the score drops by 0.98 × 2/7 = 0.28.
    assert_eq!(two_decimals(Number::float(1.0 - predicted_dish(6))), "0.28");
}

#[test]
fn the_substitution_is_the_network_with_one_class_and_its_amount_changed() {
    require_data!();
    let (_, text) = gold_texts(Profile::R2024)
        .into_iter()
        .find(|(id, _)| id == "afghan-biscuits")
        .unwrap();
    let a = substituted(Profile::R2024, &text, ("butter", "coconut-oil")).unwrap();
    let c = &a.comparison;
    let [change] = &c.changes[..] else {
        panic!("one change: {:?}", c.changes)
    };
    assert_eq!((change.action, change.line), (2, 3));
    assert_eq!(
        change.after,
        change.before.replace(" butter 200 g", " coconut-oil 200 g")
    );
    assert_eq!(change.note, "the same weight: 200 g");
    assert_eq!(
        c.network,
        text.replace(" butter 200 g", " coconut-oil 200 g")
    );
    let dish = c.against_original.dish.as_ref().unwrap();
    assert_eq!(dish.detail.missing, ["butter"]);
    assert_eq!(dish.detail.surplus, ["coconut-oil"]);
    let g = c.against_original.goal_condition_success.as_ref().unwrap();
    assert_eq!((g.numerator, g.denominator), (22, 40));
    // The role table's note on coconut oil in butter's place (kitchens/substitutes.json).
    assert_eq!(
        a.notes,
        [
            "coconut oil is solid below about 24 °C: cream it cool; it holds no water and tastes of coconut, so the bake is a little shorter and sweeter-smelling"
        ]
    );
}

#[test]
fn an_abstract_substitute_is_noted_with_the_subclasses_the_kitchen_holds() {
    require_data!();
    let (_, text) = gold_texts(Profile::R2024)
        .into_iter()
        .find(|(id, _)| id == "afghan-biscuits")
        .unwrap();
    // `oil` is no object of the kitchen, but its subclass is: the network executes with it.
    let a = substituted(Profile::R2024, &text, ("butter", "oil")).unwrap();
    assert!(a.comparison.executes);
    let dish = a.comparison.against_original.dish.as_ref().unwrap();
    assert_eq!(dish.detail.surplus, ["extra-virgin-olive-oil"]);
    assert_eq!(
        a.notes,
        [
            "oil is an abstract class: the kitchen holds none of it as such, so fetching it takes the first object of a subclass it finds; the subclasses the kitchen holds: extra-virgin-olive-oil (replace by one to choose)"
        ]
    );
    // A class the kitchen holds nothing of, itself or below it, fails to be fetched.
    let a = substituted(Profile::R2024, &text, ("butter", "bacon")).unwrap();
    assert!(!a.comparison.executes);
    assert_eq!(
        a.notes,
        ["the kitchen holds no bacon: fetching it fails, and so does every action using it"]
    );
}

#[test]
fn a_wrong_ingredient_is_named_with_the_closest_and_nothing_runs() {
    require_data!();
    let (_, text) = gold_texts(Profile::R2024)
        .into_iter()
        .find(|(id, _)| id == "afghan-biscuits")
        .unwrap();
    let refused = |from, to| match substituted(Profile::R2024, &text, (from, to)) {
        Err(RerunFailure::Rewrite { message, at: None }) => message,
        other => panic!(
            "{from}={to} was not refused: {:?}",
            other.map(|a| a.comparison)
        ),
    };
    assert_eq!(
        refused("buter", "coconut-oil"),
        "no ingredient `buter` in the ontology; did you mean butter, water?"
    );
    assert_eq!(
        refused("butter", "cocnut-oil"),
        "no ingredient `cocnut-oil` in the ontology; did you mean coconut-oil?"
    );
    assert_eq!(
        refused("white-sugar", "brown-sugar"),
        "`white-sugar` is not in the network of afghan-biscuits (its ingredients: butter, caster-sugar, all-purpose-flour, cocoa-powder, corn-flakes, powdered-white-sugar, water, almond-flakes)"
    );
    assert_eq!(
        refused("caster-suger", "brown-sugar"),
        "no ingredient `caster-suger` in the ontology; did you mean caster-sugar?"
    );
    assert_eq!(
        refused("butter", "wooden-spoon"),
        "`wooden-spoon` is not an ingredient class of the ontology"
    );
}

#[test]
fn scaling_by_two_then_a_half_gives_back_every_gold_network_and_its_scores() {
    require_data!(Profile::R2024, Profile::R2023);
    for profile in [Profile::R2024, Profile::R2023] {
        for (id, text) in gold_texts(profile) {
            let twice = scaled(profile, &text, "2");
            let back = scaled(profile, &twice.comparison.network, "1/2");
            assert_eq!(back.comparison.network, text, "{profile} {id}");
            assert!(
                twice.rounding.is_empty() && back.rounding.is_empty(),
                "{id}"
            );
            let original = &twice.comparison.against_gold.as_ref().unwrap().original;
            let returned = &back.comparison.against_gold.as_ref().unwrap().rewritten;
            assert_eq!(returned, original, "{profile} {id}");
            assert_eq!(
                back.comparison.against_original.execution_time,
                twice.comparison.original_execution_time,
                "{profile} {id}"
            );
        }
    }
}

#[test]
fn scaling_keeps_every_proportion_of_the_dish_but_rounded_counts() {
    require_data!(Profile::R2024, Profile::R2023);
    for profile in [Profile::R2024, Profile::R2023] {
        let (mut rounded_recipes, mut no_dish) = (0, Vec::new());
        for (id, text) in gold_texts(profile) {
            // Doubling rounds nothing: every ingredient of the dish doubles, and so its share.
            let twice = scaled(profile, &text, "2");
            assert!(twice.comparison.executes, "{profile} {id}");
            if twice.proportions.is_empty() {
                assert_eq!(twice.proportions_preserved, None, "{profile} {id}");
                no_dish.push(id);
                continue;
            }
            assert_eq!(twice.proportions_preserved, Some(true), "{profile} {id}");
            for p in &twice.proportions {
                assert!(p.preserved && !p.rounded, "{profile} {id} {}", p.ingredient);
                let (ratio, share) = (p.ratio.unwrap(), p.scaled_share.unwrap());
                assert!(
                    (ratio - 2.0).abs() <= 2e-4,
                    "{profile} {id} {}: {ratio}",
                    p.ingredient
                );
                assert!(
                    (share - p.original_share).abs() <= 1e-4,
                    "{profile} {id} {}",
                    p.ingredient
                );
            }
            // Half as much again rounds counts: any other ratio is a rounded count's own.
            let more = scaled(profile, &text, "3/2");
            assert!(more.comparison.executes, "{profile} {id}");
            for p in &more.proportions {
                assert!(
                    p.preserved || p.rounded,
                    "{profile} {id} {}: {:?}",
                    p.ingredient,
                    p.ratio
                );
            }
            assert_eq!(more.proportions_preserved, Some(true), "{profile} {id}");
            if !more.rounding.is_empty() {
                rounded_recipes += 1;
            }
        }
        // Recipes with a count that 3/2 leaves fractional (1, 3 or 5 pieces of something), and
        // the gold networks whose dish is no container of ingredients (2024's cupcakes fail).
        let expected = match profile {
            Profile::R2024 => (16, vec!["chocolate-cream-cheese-cupcakes"]),
            Profile::R2023 => (17, vec![]),
        };
        let no_dish: Vec<&str> = no_dish.iter().map(String::as_str).collect();
        assert_eq!((rounded_recipes, no_dish), expected, "{profile}");
    }
}

#[test]
fn scaling_reports_rounded_counts_stock_and_portions() {
    require_data!();
    let texts = gold_texts(Profile::R2024);
    let text = |id: &str| texts.iter().find(|(i, _)| i == id).unwrap().1.clone();
    let afghan = scaled(Profile::R2024, &text("afghan-biscuits"), "1.5");
    let grams: Vec<(String, String, String)> = afghan
        .proportions
        .iter()
        .map(|p| {
            (
                p.ingredient.clone(),
                p.original_grams.to_string(),
                p.scaled_grams.as_ref().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        grams,
        [
            ("all-purpose-flour".into(), "300".into(), "450".into()),
            ("cocoa-powder".into(), "36".into(), "54".into()),
            ("caster-sugar".into(), "100".into(), "150".into()),
            ("corn-flakes".into(), "300".into(), "450".into()),
            ("butter".into(), "200".into(), "300".into()),
            ("almond-flakes".into(), "50".into(), "75".into()),
        ]
    );
    let [portions] = &afghan.capacity.portions[..] else {
        panic!("one portioning")
    };
    assert_eq!(
        (portions.action, portions.original, portions.scaled),
        (26, 32, Some(47))
    );
    assert!(afghan.capacity.beyond_stock.is_empty());
    // Every ingredient of the dish is matched, and differs from the original's in its amount
    // alone.
    let dish = afghan.comparison.against_original.dish.as_ref().unwrap();
    assert!(dish.detail.missing.is_empty() && dish.detail.surplus.is_empty());
    assert_eq!(dish.detail.matched.len(), 6);
    for m in &dish.detail.matched {
        assert_eq!(m.differing, ["amount"], "{}", m.class);
    }
    assert!(
        afghan
            .proportions
            .iter()
            .all(|p| p.dish_score.is_some_and(|s| s < 1.0))
    );
    // Cracking takes 5 s an egg: two eggs rounded up to three from 3/2 × 2 take 5 s more.
    let fudge = scaled(Profile::R2024, &text("chocolate-fudge-cookies"), "3/2");
    let times = (
        &fudge.comparison.original_execution_time,
        &fudge.comparison.against_original.execution_time,
    );
    assert_eq!(
        (
            times.0.as_ref().unwrap().to_string(),
            times.1.as_ref().unwrap().to_string()
        ),
        ("1650".into(), "1655".into())
    );
    let banana = scaled(Profile::R2024, &text("easy-banana-bread"), "1.5");
    let [r] = &banana.rounding[..] else {
        panic!("one rounding")
    };
    assert_eq!(r.ingredient.as_deref(), Some("banana"));
    assert_eq!(
        (
            r.exact.to_string(),
            r.rounded.to_string(),
            r.effective_factor.as_str()
        ),
        ("4.5".into(), "5".into(), "5/3")
    );
    let potato = scaled(Profile::R2024, &text("classic-potato-salad"), "2");
    let beyond: Vec<(&str, String, String)> = potato
        .capacity
        .beyond_stock
        .iter()
        .map(|b| {
            (
                b.ingredient.as_str(),
                b.kitchen_grams.to_string(),
                b.scaled_grams.to_string(),
            )
        })
        .collect();
    assert_eq!(
        beyond,
        [
            ("potato", "2520".into(), "3360".into()),
            ("mayonnaise", "505.0".into(), "700".into())
        ]
    );
}

#[test]
fn a_scaled_amount_beyond_the_language_bounds_is_located_in_the_scaled_network() {
    require_data!();
    let e = common::benchmark_evaluator(Profile::R2024);
    let text =
        "#afghan-biscuits\n(get-kitchen ?k)\n(fetch-and-proportion ?e ?k2 ?k ?bowl egg 20 piece)\n";
    let factor = Factor::parse("100").unwrap();
    match scale_text(&e.model, text, None, factor, &mut gold_of(&e)) {
        Err(RerunFailure::RewriteInvalid { text, diagnostics }) => {
            assert_eq!(
                text,
                "#afghan-biscuits\n(get-kitchen ?k)\n(fetch-and-proportion ?e ?k2 ?k ?bowl egg 2000 piece)\n"
            );
            assert_eq!(diagnostics.len(), 1);
            assert!(
                diagnostics[0].message.contains("2000"),
                "{}",
                diagnostics[0].message
            );
        }
        other => panic!("not refused: {:?}", other.map(|a| a.comparison)),
    }
}

#[test]
fn suggestions_come_from_the_role_table_filtered_by_the_diet_and_tried_in_the_network() {
    require_data!();
    let e = common::benchmark_evaluator(Profile::R2024);
    let (_, text) = gold_texts(Profile::R2024)
        .into_iter()
        .find(|(id, _)| id == "afghan-biscuits")
        .unwrap();
    let s = suggest(
        &e.model,
        "butter",
        Some(Diet::Vegan),
        Some((&text, None)),
        None,
        &mut gold_of(&e),
    )
    .unwrap();
    let classes: Vec<&str> = s.suggestions.iter().map(|s| s.class.as_str()).collect();
    assert_eq!(classes, ["coconut-oil"]);
    let excluded: Vec<(&str, Vec<String>)> = s
        .excluded
        .iter()
        .map(|x| (x.class.as_str(), x.because.clone()))
        .collect();
    assert_eq!(excluded, [("salted-butter", vec!["dairy".to_owned()])]);
    assert_eq!(s.ingredient_excluded_because, ["dairy"]);
    let dishes: Vec<Option<f32>> = s
        .suggestions
        .iter()
        .map(|s| s.tried.as_ref().unwrap().dish_approximation_score)
        .collect();
    assert_eq!(dishes, [Some(predicted_dish(6))]);
    let held: Vec<String> = s
        .suggestions
        .iter()
        .map(|s| s.in_kitchen_grams.as_ref().unwrap().to_string())
        .collect();
    assert_eq!(held, ["460.5"]);
    let none = suggest(&e.model, "water", None, None, None, &mut gold_of(&e));
    assert!(
        none.unwrap_err()
            .to_string()
            .starts_with("the role table (kitchens/substitutes.json) offers no substitute for water: the neutral liquid")
    );
}

/// What the suggestions for an ingredient under a diet should be.
struct DietCase {
    ingredient: &'static str,
    diet: Diet,
    kept: &'static [&'static str],
    /// Classes set apart, each with the tags the diet excludes.
    set_apart: &'static [(&'static str, &'static [&'static str])],
    /// The ingredient's own tags the diet excludes.
    own: &'static [&'static str],
}

/// Each diet keeps the substitutes the diet table gives none of its tags, and sets apart the
/// others with the tags it excludes.
#[test]
fn a_diet_keeps_the_substitutes_the_diet_table_allows() {
    let model = Model::builtin(Profile::R2024);
    let cases = [
        DietCase {
            ingredient: "all-purpose-flour",
            diet: Diet::GlutenFree,
            kept: &["almond-flour"],
            set_apart: &[("whole-wheat-flour", &["gluten"])],
            own: &["gluten"],
        },
        DietCase {
            ingredient: "almond",
            diet: Diet::NutFree,
            kept: &["shredded-coconut"],
            set_apart: &[("almond-flakes", &["nut"]), ("walnut", &["nut"])],
            own: &["nut"],
        },
        DietCase {
            ingredient: "egg",
            diet: Diet::EggFree,
            kept: &["banana"],
            set_apart: &[],
            own: &["egg"],
        },
        DietCase {
            ingredient: "butter",
            diet: Diet::Vegetarian,
            kept: &["salted-butter", "coconut-oil"],
            set_apart: &[],
            own: &[],
        },
    ];
    for case in cases {
        let s = suggest(
            &model,
            case.ingredient,
            Some(case.diet),
            None,
            None,
            &mut |_| Ok(None),
        )
        .unwrap();
        let what = format!("{} {}", case.ingredient, case.diet.name());
        let classes: Vec<&str> = s.suggestions.iter().map(|s| s.class.as_str()).collect();
        assert_eq!(classes, case.kept, "{what}");
        let set_apart: Vec<(&str, Vec<&str>)> = s
            .excluded
            .iter()
            .map(|x| {
                (
                    x.class.as_str(),
                    x.because.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        let expected: Vec<(&str, Vec<&str>)> = case
            .set_apart
            .iter()
            .map(|(c, t)| (*c, t.to_vec()))
            .collect();
        assert_eq!(set_apart, expected, "{what}");
        assert_eq!(s.ingredient_excluded_because, case.own, "{what}");
    }
}

#[test]
fn every_class_of_the_role_table_is_an_ingredient_and_both_kitchens_hold_every_offered_one() {
    use cookingbot::data::substitute_roles::SubstituteRoles;
    use cookingbot::service::rewrite_run::held;
    let table = SubstituteRoles::builtin();
    let needed = table
        .roles
        .values()
        .flat_map(|r| &r.classes)
        .filter_map(|m| m.needs.as_ref())
        .flat_map(|n| n.classes.iter().map(String::as_str));
    let named: Vec<&str> = table
        .classes()
        .into_iter()
        .chain(table.no_role.keys().map(String::as_str))
        .chain(needed)
        .collect();
    for profile in [Profile::R2024, Profile::R2023] {
        let model = Model::builtin(profile);
        for class in &named {
            let id = model
                .onto
                .class_id(class)
                .unwrap_or_else(|| panic!("{profile}: no class {class}"));
            assert!(model.onto.is_a_name(id, "ingredient"), "{profile}: {class}");
        }
        for member in table
            .roles
            .values()
            .flat_map(|r| &r.classes)
            .filter(|m| m.offered)
        {
            let id = model.onto.class_id(&member.class).unwrap();
            assert!(
                !held(&model, id).is_empty(),
                "{profile}: the kitchen holds no {}",
                member.class
            );
        }
    }
}

/// The time a substitution of the campaign may take: real ones take milliseconds, and one
/// that cracks a banana per gram compares dishes for minutes.
const REWRITE_BUDGET: Duration = Duration::from_secs(2);

/// What the campaign's rewrites met.
#[derive(Default, Debug)]
struct RewriteTally {
    sections: usize,
    /// Sections with errors: the evaluation refuses them and nothing is rewritten.
    invalid: usize,
    /// Sections that do not execute (or crash): there is no dish to compare a rewrite with.
    no_dish: usize,
    /// Sections compared, scaled by 1, 2 and back by 1/2.
    scaled: usize,
    /// Doubled networks that leave the language's bounds (an amount too large).
    doubled_out_of_bounds: usize,
    /// Doubled networks that did not come back exactly (a count rounded).
    rounded: usize,
    substituted: usize,
    /// Substitutions not compared within [`REWRITE_BUDGET`].
    over_budget: usize,
    /// Rewrites the evaluation refuses (the reference's evaluator fails on them).
    rewrites_refused: usize,
}

/// A rewrite scores against the gold network exactly as `evaluate` scores the network it
/// wrote: the same report, and refused where the evaluation refuses the file.
fn scored_as_evaluated(e: &Evaluator, c: &Comparison, at: &str, tally: &mut RewriteTally) {
    let gold = c
        .against_gold
        .as_ref()
        .expect("the benchmark has the recipe");
    match e.evaluate(&c.network, &MetricSet::default()) {
        Ok(rows) => {
            assert!(c.failure.is_none(), "{at}: {:?}", c.failure);
            let report = RecipeReport::new(&rows[0], &MetricSet::default());
            assert_eq!(report, gold.rewritten, "{at}\n{}", c.network);
            assert_eq!(c.executes, report.execution_time.is_some(), "{at}");
        }
        Err(refusal) => {
            assert!(
                c.failure.is_some() && !c.executes,
                "{at}: evaluated as {}",
                refusal.message
            );
            tally.rewrites_refused += 1;
        }
    }
}

/// An ingredient the section names that the role table gives a substitute, and that substitute;
/// the `k`-th such ingredient (cyclically), so that the campaign tries many.
fn some_substitution(e: &Evaluator, section: &str, k: usize) -> Option<(String, String)> {
    let recipe = cookingbot::language::parse::parse(section)
        .file
        .recipes
        .remove(0);
    let table = SubstituteRoles::builtin();
    let choices: Vec<(String, String)> = network_ingredients(&e.model.onto, &recipe)
        .into_iter()
        .filter_map(|class| {
            let name = e.model.onto.class_name(class).to_owned();
            let other = table.offers(&name).first()?.offered.class.clone();
            Some((name, other))
        })
        .collect();
    (!choices.is_empty()).then(|| choices[k % choices.len()].clone())
}

/// One benchmark recipe of a campaign network scaled by 1, 2 and back, and one of its
/// ingredients substituted.
fn rewrite_section(profile: Profile, at: &str, section: &str, tally: &mut RewriteTally) {
    tally.sections += 1;
    let e = &common::benchmark_evaluator(profile);
    let file = e.evaluate(section, &MetricSet::default());
    let once = match scaling(profile, section, "1") {
        Ok(once) => once,
        Err(RerunFailure::Invalid(_)) => {
            assert!(
                file.is_err(),
                "{at}: the evaluation scores a network with errors"
            );
            tally.invalid += 1;
            return;
        }
        Err(RerunFailure::Failed(why)) => {
            // The original has no dish: the evaluation gives it no scores, or refuses it.
            let nil = file.as_ref().map_or(true, |rows| {
                rows[0].execution_time.is_none() && rows[0].goal_condition_success.is_none()
            });
            assert!(nil, "{at}: {}", why.message);
            tally.no_dish += 1;
            return;
        }
        Err(other) => panic!("{at}: {other:?}"),
    };
    // By 1: nothing changes, and the original scores as its file is scored.
    let c = &once.comparison;
    assert!(
        c.changes.is_empty() && once.rounding.is_empty(),
        "{at}: {:?}",
        c.changes
    );
    let gold = c.against_gold.as_ref().unwrap();
    assert_eq!(gold.original, gold.rewritten, "{at}");
    let rows = file.unwrap_or_else(|r| panic!("{at}: refused: {}", r.message));
    assert_eq!(
        gold.original,
        RecipeReport::new(&rows[0], &MetricSet::default()),
        "{at}"
    );
    scored_as_evaluated(e, c, at, tally);
    // By 2, then back by 1/2.
    match scaling(profile, section, "2") {
        Ok(twice) => {
            scored_as_evaluated(e, &twice.comparison, at, tally);
            let back = scaled(profile, &twice.comparison.network, "1/2");
            if twice.rounding.is_empty() && back.rounding.is_empty() {
                assert_eq!(back.comparison.network, c.network, "{at}");
            } else {
                tally.rounded += 1;
            }
        }
        Err(RerunFailure::RewriteInvalid { text, diagnostics }) => {
            assert!(e.evaluate(&text, &MetricSet::default()).is_err(), "{at}");
            assert!(!diagnostics.is_empty(), "{at}");
            tally.doubled_out_of_bounds += 1;
        }
        Err(other) => panic!("{at}: doubling: {other:?}"),
    }
    tally.scaled += 1;
    if let Some((from, to)) = some_substitution(e, section, tally.sections) {
        let answer =
            Budget::new(REWRITE_BUDGET).run(|| substituted(profile, section, (&from, &to)));
        match answer {
            Ok(s) => {
                let at = format!("{at} ({from} -> {to})");
                assert!(!s.comparison.changes.is_empty(), "{at}");
                scored_as_evaluated(e, &s.comparison, &at, tally);
                tally.substituted += 1;
            }
            // An amount the gram table cannot weigh, at its action.
            Err(RerunFailure::Rewrite { message, at: place }) => {
                assert!(
                    message.contains("gram") && place.is_some(),
                    "{at}: {message}"
                )
            }
            // A dish the score compares for longer than the budget (egg -> banana by weight
            // cracks a banana per gram).
            Err(RerunFailure::Failed(why)) if why.message.contains("time budget") => {
                tally.over_budget += 1
            }
            Err(other) => panic!("{at} ({from} -> {to}): {other:?}"),
        }
    }
}

#[test]
fn campaign_networks_scale_and_substitute_as_their_rewrites_are_evaluated() {
    require_data!(Profile::R2024, Profile::R2023);
    for profile in [Profile::R2024, Profile::R2023] {
        let e = common::benchmark_evaluator(profile);
        let mut tally = RewriteTally::default();
        for (id, text) in common::campaign_networks(&e, profile, 10) {
            for (_, section) in common::benchmark_sections(&e, &text) {
                rewrite_section(profile, &format!("{profile} {id}"), &section, &mut tally);
            }
        }
        eprintln!("profile {profile}: {tally:?}");
        // Every kind of network is met.
        assert!(tally.sections >= 250, "{tally:?}");
        let t = &tally;
        assert!(t.invalid > 0 && t.no_dish > 0 && t.scaled > 0, "{t:?}");
        assert!(t.substituted > 0 && t.rewrites_refused > 0, "{t:?}");
    }
}

#[test]
fn an_amount_that_cannot_be_converted_is_answered_with_its_line_and_column() {
    let model = Model::builtin(Profile::R2024);
    let text = "#salad\n(get-kitchen ?k)\n  \n(fetch-and-proportion ?oil ?k2 ?k ?c extra-virgin-olive-oil 3 tablespoon)\n";
    let failure = substitute_text(
        &model,
        text,
        None,
        ("extra-virgin-olive-oil", "avocado"),
        Some(AmountRule::SameVolume),
        &mut |_| Ok(None),
    )
    .expect_err("no volume of avocado");
    assert_eq!(
        failure.to_json(text),
        serde_json::json!({
            "error": "action 2 (fetch-and-proportion): same-volume: the gram table gives no grams per tablespoon of avocado, so the dish could not be weighed; try same-weight",
            "kind": "request",
            "line": 4,
            "column": 1,
        })
    );
}
