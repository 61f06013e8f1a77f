//! The diet table against both profiles' ontologies, the tags a class gets (a benchmark's own
//! classes too), and dishes judged: networks of our own, afghan-biscuits, and every gold recipe
//! of both profiles against every diet (the table committed in docs/diet.md).

#[path = "../../examples/diet_table.rs"]
mod diet_table;

use crate::common;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::Benchmark;
use cookingbot::data::diet_table::{Diet, DietTable, Rule};
use cookingbot::metrics::diet::Tags;
use cookingbot::service::diet_check::diet_text;
use cookingbot::service::golds::Golds;
use cookingbot::service::simulate::SimulateFailure;
use cookingbot::simulation::Model;
use cookingbot::world::ontology::Ontology;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The classes whose precedence list holds `ingredient`, in one profile's ontology.
fn ingredient_classes(onto: &Ontology) -> BTreeSet<String> {
    let ingredient = onto.class_id("ingredient").expect("an ingredient class");
    onto.classes()
        .filter(|&(c, _)| c != ingredient && onto.is_a(c, ingredient))
        .map(|(_, class)| class.name.clone())
        .collect()
}

#[test]
fn every_ingredient_class_of_both_ontologies_has_an_entry_and_no_other_class_does() {
    let table = DietTable::builtin();
    let both: BTreeSet<String> = Profile::ALL
        .iter()
        .flat_map(|&p| ingredient_classes(&Ontology::builtin(p)))
        .collect();
    assert_eq!(both.len(), 150);
    let listed: BTreeSet<String> = table.classes.keys().cloned().collect();
    let unclassified: Vec<&String> = both.difference(&listed).collect();
    assert!(unclassified.is_empty(), "no entry: {unclassified:?}");
    let unknown: Vec<&String> = listed.difference(&both).collect();
    assert!(unknown.is_empty(), "no such ingredient class: {unknown:?}");
    // Only mixtures are judged by what they hold.
    for profile in Profile::ALL {
        let onto = Ontology::builtin(profile);
        let mixture = onto.class_id("mixture").unwrap();
        for name in ingredient_classes(&onto) {
            if table.rule(&name) == Some(&Rule::Components) {
                assert!(
                    onto.is_a(onto.class_id(&name).unwrap(), mixture),
                    "{profile} {name}"
                );
            }
        }
    }
}

#[test]
fn a_class_gets_its_own_tags_its_subclasses_or_none_as_a_mixture() {
    let tags = |profile: Profile, name: &str| {
        let onto = Ontology::builtin(profile);
        Tags::new(&onto).of(onto.class_id(name).unwrap())
    };
    let r2024 = Profile::R2024;
    assert_eq!(tags(r2024, "butter-particle"), ["dairy"]);
    assert_eq!(tags(r2024, "feta-cheese"), ["dairy", "rennet"]);
    assert_eq!(tags(r2024, "white-bread-slice"), ["dairy", "gluten"]);
    assert_eq!(tags(r2024, "oats"), ["gluten"]);
    assert_eq!(tags(r2024, "marshmallow"), ["gelatin"]);
    assert_eq!(tags(r2024, "shredded-coconut"), Vec::<String>::new());
    assert_eq!(
        tags(r2024, "trader-joes-cilantro-salad-dressing"),
        ["unknown"]
    );
    // An unnamed flour may be wheat or almond flour; an unnamed extract, almond extract.
    assert_eq!(tags(r2024, "flour"), ["gluten", "nut"]);
    assert_eq!(tags(Profile::R2023, "flavoring-extract"), ["nut"]);
    assert_eq!(tags(r2024, "spice"), Vec::<String>::new());
    assert_eq!(tags(r2024, "dough"), Vec::<String>::new());
}

#[test]
fn a_benchmarks_own_classes_carry_tags_or_take_their_nearest_ancestors() {
    let mut onto = Ontology::builtin(Profile::R2024);
    onto.extend(&json!({"classes": {
        "halloumi": {"is_a": ["feta-cheese"], "diet": ["dairy"]},
        "paneer": {"is_a": ["feta-cheese"]},
        "rye-flour": {"is_a": ["flour"], "diet": ["gluten"]},
        "chestnut-flour": {"is_a": ["flour"], "diet": ["nut"]},
        "spelt-flour": {"is_a": ["flour"]},
        "mystery-paste": {"is_a": ["ingredient"]}
    }}))
    .expect("a usable extension");
    let tags = |name: &str| Tags::new(&onto).of(onto.class_id(name).unwrap());
    assert_eq!(tags("halloumi"), ["dairy"]);
    assert_eq!(tags("paneer"), ["dairy", "rennet"]);
    assert_eq!(tags("rye-flour"), ["gluten"]);
    assert_eq!(tags("spelt-flour"), ["gluten", "nut"]);
    assert_eq!(tags("mystery-paste"), ["unknown"]);
}

#[test]
fn diet_tags_that_are_no_tags_or_given_to_a_mixture_are_refused_by_field() {
    let refused = |extension: Value| {
        let mut onto = Ontology::builtin(Profile::R2024);
        onto.extend(&extension).expect_err("refused").to_string()
    };
    assert_eq!(
        refused(json!({"classes": {"halloumi": {"is_a": ["feta-cheese"], "diet": ["diary"]}}})),
        "classes.halloumi.diet[0]: `diary` is not a diet tag (one of dairy, egg, fish, gelatin, gluten, honey, meat, nut, peanut, rennet, unknown); did you mean `dairy`?"
    );
    assert_eq!(
        refused(json!({"classes": {"halloumi": {"is_a": ["feta-cheese"], "diet": "dairy"}}})),
        "classes.halloumi.diet: a list of diet tags"
    );
    assert_eq!(
        refused(
            json!({"classes": {"pesto": {"is_a": ["heterogeneous-mixture"], "diet": ["nut"]}}})
        ),
        "classes.pesto.diet: a mixture is judged by the ingredients it holds: give them the tags"
    );
}

/// The verdict on `text` as the `diet` command's JSON, with `gold` as the benchmark.
fn judged(profile: Profile, text: &str, diet: Diet, gold: Option<&Benchmark>) -> Value {
    let model = Model::builtin(profile);
    let answer = diet_text(&model, text, None, diet, &mut |_| {
        Ok(gold.cloned().map(|b| Golds::Read(std::sync::Arc::new(b))))
    });
    match answer {
        Ok(answer) => serde_json::to_value(&answer).unwrap(),
        Err(SimulateFailure::Crashed(e)) => panic!("{}", e.render("text")),
        Err(_) => panic!("not judged"),
    }
}

/// A salad of our own: vegetables and oil, mingled.
const SALAD: &str = "#green-salad
(get-kitchen ?kitchen)
(fetch-and-proportion ?cucumber ?ks-1 ?kitchen ?bowl-1 cucumber 1 piece)
(fetch-and-proportion ?tomatoes ?ks-2 ?ks-1 ?bowl-2 cherry-tomato 10 piece)
(fetch-and-proportion ?lettuce ?ks-3 ?ks-2 ?bowl-3 romaine-lettuce 100 g)
(fetch-and-proportion ?oil ?ks-4 ?ks-3 ?bowl-4 extra-virgin-olive-oil 2 tablespoon)
(fetch ?salad-bowl ?ks-5 ?ks-4 large-bowl 1)
(transfer-contents ?with-cucumber ?rest-1 ?ks-6 ?ks-5 ?salad-bowl ?cucumber ?q-1 ?u-1)
(transfer-contents ?with-tomatoes ?rest-2 ?ks-7 ?ks-6 ?with-cucumber ?tomatoes ?q-2 ?u-2)
(transfer-contents ?with-lettuce ?rest-3 ?ks-8 ?ks-7 ?with-tomatoes ?lettuce ?q-3 ?u-3)
(transfer-contents ?with-oil ?rest-4 ?ks-9 ?ks-8 ?with-lettuce ?oil ?q-4 ?u-4)
(mingle ?salad ?ks-10 ?ks-9 ?with-oil ?spoon)
";

#[test]
fn a_salad_of_vegetables_and_oil_keeps_every_diet() {
    for profile in Profile::ALL {
        for diet in Diet::ALL {
            assert_eq!(
                judged(profile, SALAD, diet, None),
                json!({
                    "recipe": "green-salad",
                    "diet": diet.name(),
                    "satisfied": true,
                    "dish": {"action": 11, "line": 12, "text": "(mingle ?salad ?ks-10 ?ks-9 ?with-oil ?spoon)"},
                    "violations": []
                }),
                "{profile} {}",
                diet.name()
            );
        }
    }
}

#[test]
fn butter_beaten_into_sugar_is_judged_where_it_came_from_with_its_grams() {
    let creamed = "#creamed
(get-kitchen ?kitchen)
(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl-1 butter 100 g)
(fetch-and-proportion ?sugar ?ks-2 ?ks-1 ?bowl-2 white-sugar 50 g)
(transfer-contents ?both ?rest ?ks-3 ?ks-2 ?butter ?sugar ?q ?u)
(beat ?creamed ?ks-4 ?ks-3 ?both ?whisk)
";
    let verdict = judged(Profile::R2024, creamed, Diet::Vegan, None);
    assert_eq!(verdict["satisfied"], false);
    assert_eq!(
        verdict["violations"],
        json!([{
            "ingredient": "butter",
            "tags": ["dairy"],
            "amount": {"value": 100, "unit": "g"},
            "actions": [{"action": 2, "line": 3, "text": "(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl-1 butter 100 g)"}],
            "carried_by": [
                {"action": 4, "line": 5, "text": "(transfer-contents ?both ?rest ?ks-3 ?ks-2 ?butter ?sugar ?q ?u)"},
                {"action": 5, "line": 6, "text": "(beat ?creamed ?ks-4 ?ks-3 ?both ?whisk)"}
            ]
        }])
    );
    assert_eq!(verdict["dish"]["line"], 6);
    assert_eq!(
        judged(Profile::R2024, creamed, Diet::GlutenFree, None)["satisfied"],
        true
    );
}

#[test]
fn a_second_portion_fetched_into_the_first_names_both_actions() {
    let twice = "#butter-twice
(get-kitchen ?kitchen)
(fetch-and-proportion ?bowl-1 ?ks-1 ?kitchen ?target butter 100 g)
(fetch-and-proportion ?bowl-2 ?ks-2 ?ks-1 ?bowl-1 butter 50 g)
";
    let verdict = judged(Profile::R2024, twice, Diet::DairyFree, None);
    let violation = &verdict["violations"][0];
    assert_eq!(violation["amount"], json!({"value": 150, "unit": "g"}));
    let lines: Vec<&Value> = violation["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["line"])
        .collect();
    assert_eq!(lines, [3, 4]);
}

#[test]
fn a_network_that_does_not_execute_has_no_verdict_whatever_it_names() {
    let stuck = "#stuck
(get-kitchen ?kitchen)
(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 100 g)
(beat ?beaten ?ks-2 ?ks-1 ?never-made ?whisk)
";
    assert_eq!(
        judged(Profile::R2024, stuck, Diet::Vegan, None),
        json!({
            "recipe": "stuck",
            "diet": "vegan",
            "satisfied": null,
            "reason": "the network does not execute, so it makes no dish",
            "dish": null,
            "violations": []
        })
    );
}

/// The built-in 2024 kitchen with two pieces of pancetta in the fridge: the conversion table
/// has no entry for pancetta.
fn kitchen_with_pancetta_pieces() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/kitchens/full-kitchen-2024.json"
    );
    let mut kitchen: Value = serde_json::from_str(&common::read(path.as_ref())).unwrap();
    let places = kitchen["kitchen"]["contents"].as_array_mut().unwrap();
    let fridge = places.iter_mut().find(|p| p["class"] == "fridge").unwrap();
    fridge["contents"].as_array_mut().unwrap().push(json!({
        "class": "medium-bowl", "used": true, "contents": [{"class": "pancetta", "amount":
            {"class": "amount", "quantity": {"class": "quantity", "value": 2}, "unit": "piece"}}]
    }));
    kitchen.to_string()
}

#[test]
fn a_dish_that_cannot_be_weighed_in_grams_has_no_verdict() {
    let model = Model::with_kitchen(Profile::R2024, &kitchen_with_pancetta_pieces()).unwrap();
    let text = "#pancetta
(get-kitchen ?kitchen)
(fetch-and-proportion ?pancetta ?ks-1 ?kitchen ?bowl pancetta 1 piece)
";
    let answer = diet_text(&model, text, None, Diet::Vegetarian, &mut |_| Ok(None));
    let Ok(answer) = answer else {
        panic!("not judged")
    };
    assert_eq!(
        serde_json::to_value(&answer).unwrap(),
        json!({
            "recipe": "pancetta",
            "diet": "vegetarian",
            "satisfied": null,
            "reason": "the dish's ingredients cannot be weighed in grams: The ingredient PANCETTA has no entry in the conversion table!",
            "dish": {"action": 2, "line": 3, "text": "(fetch-and-proportion ?pancetta ?ks-1 ?kitchen ?bowl pancetta 1 piece)"},
            "violations": []
        })
    );
}

/// A verdict without its violations' `carried_by`, each of which must end at the dish's action.
fn carried_to_the_dish(mut verdict: Value) -> Value {
    let dish = verdict["dish"]["action"].clone();
    for v in verdict["violations"].as_array_mut().unwrap() {
        let carried = v.as_object_mut().unwrap().remove("carried_by").unwrap();
        assert_eq!(carried.as_array().unwrap().last().unwrap()["action"], dish);
    }
    verdict
}

#[test]
fn afghan_biscuits_are_neither_vegan_nor_gluten_free() {
    common::require_data!();
    let profile = Profile::R2024;
    let data = common::data(profile).unwrap();
    let benchmark = Benchmark::load(profile, &data.into()).unwrap();
    let text = common::read(&common::gold_file("afghan-biscuits"));
    let fetch = |line: usize, what: &str| json!({"action": line - 1, "line": line, "text": format!("(fetch-and-proportion {what})")});
    let dish = json!({"action": 41, "line": 42, "text": "(sprinkle ?sprinkled-cookies ?kitchen-state-with-sprinkled-cookies ?kitchen-state-with-iced-cookies ?iced-cookies ?proportioned-almonds)"});
    assert_eq!(
        carried_to_the_dish(judged(profile, &text, Diet::Vegan, Some(&benchmark))),
        json!({
            "recipe": "afghan-biscuits",
            "diet": "vegan",
            "satisfied": false,
            "dish": dish,
            "violations": [{
                "ingredient": "butter",
                "tags": ["dairy"],
                "amount": {"value": 200, "unit": "g"},
                "actions": [fetch(3, "?proportioned-butter ?kitchen-state-with-butter ?kitchen-state ?target-container-1 butter 200 g")]
            }]
        })
    );
    let gluten = carried_to_the_dish(judged(profile, &text, Diet::GlutenFree, Some(&benchmark)));
    assert_eq!(
        gluten["violations"],
        json!([
            {
                "ingredient": "all-purpose-flour",
                "tags": ["gluten"],
                "amount": {"value": 300, "unit": "g"},
                "actions": [fetch(6, "?proportioned-all-purpose-flour ?kitchen-state-with-all-purpose-flour ?kitchen-state-with-caster-sugar ?target-container-3 all-purpose-flour 300 g")]
            },
            {
                "ingredient": "corn-flakes",
                "tags": ["gluten"],
                "amount": {"value": 300, "unit": "g"},
                "actions": [fetch(8, "?proportioned-corn-flakes ?kitchen-state-with-corn-flakes ?kitchen-state-with-cocoa-powder ?target-container-5 corn-flakes 300 g")]
            }
        ])
    );
    assert_eq!(
        judged(profile, &text, Diet::Vegetarian, Some(&benchmark))["satisfied"],
        true
    );
}

/// The table between these lines of docs/diet.md is what `examples/diet_table.rs` prints.
const TABLE_START: &str = "<!-- table: cargo run --example diet_table -->\n";
const TABLE_END: &str = "<!-- end of table -->";

#[test]
fn the_committed_table_of_every_gold_recipe_against_every_diet_is_what_the_code_gives() {
    common::require_data!(Profile::R2023, Profile::R2024);
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diet.md"))
        .expect("docs/diet.md");
    let start = doc.find(TABLE_START).expect("the table's start marker") + TABLE_START.len();
    let end = doc[start..]
        .find(TABLE_END)
        .expect("the table's end marker")
        + start;
    let mut now = String::new();
    for profile in [Profile::R2024, Profile::R2023] {
        let data = common::data(profile).unwrap();
        now.push_str(&diet_table::table(profile, data).expect("the table"));
        now.push('\n');
    }
    assert_eq!(
        &doc[start..end],
        now,
        "docs/diet.md's table is not what the code gives now: rerun `cargo run --example diet_table`"
    );
}

/// Every violation of every gold network of both profiles' data and of the held-out set
/// (`benchmarks/heldout`), against every diet, names where the ingredient came from: a fetch
/// of its class (or of a class above it: `almond` fetching almond extract), or of the
/// ingredient it was made from, which carries the tags the diet excludes (an egg cracked into
/// whole egg); and the actions that carried it into the dish end at the dish's action.
#[test]
fn every_violation_comes_from_a_fetch_of_its_class_and_is_carried_into_the_dish() {
    use cookingbot::evaluate::Evaluator;
    use cookingbot::metrics::metric::MetricSet;
    common::require_data!(Profile::R2023, Profile::R2024);
    let heldout =
        std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/benchmarks/heldout"));
    let metrics = Diet::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with_diet);
    let mut checked = 0;
    for (profile, data) in [
        (Profile::R2024, common::data_dir(Profile::R2024)),
        (Profile::R2023, common::data_dir(Profile::R2023)),
        (Profile::R2024, heldout),
    ] {
        let evaluator = Evaluator::new(profile, data).unwrap();
        let onto = &evaluator.model.onto;
        let tags = Tags::new(onto);
        for gold in &evaluator.benchmark.recipes {
            let mut network = gold.network.clone();
            network.id = gold.id.clone();
            let result = evaluator.evaluate_recipe(&network, &metrics).unwrap();
            for verdict in &result.diets {
                for v in &verdict.violations {
                    let what = format!(
                        "{profile} {} {}: {}",
                        gold.id,
                        verdict.diet.name(),
                        v.ingredient
                    );
                    let class = onto.class_id(&v.ingredient).unwrap();
                    assert!(!v.actions.is_empty(), "{what}: no provenance");
                    for a in &v.actions {
                        let p = &network.predicates[a.predicate];
                        assert!(
                            p.name == "fetch-and-proportion" || p.name == "fetch",
                            "{what}: provenance {} is no fetch",
                            a.text
                        );
                        let fetched = p.args.iter().find_map(|arg| match arg {
                            cookingbot::language::ast::Arg::Sym(s) => onto.class_id(s),
                            _ => None,
                        });
                        let fetched =
                            fetched.unwrap_or_else(|| panic!("{what}: {} names no class", a.text));
                        let same_class = onto.is_a(class, fetched);
                        let made_from = v
                            .tags
                            .iter()
                            .all(|t| tags.excluded(fetched, verdict.diet).contains(t));
                        assert!(
                            same_class || made_from,
                            "{what}: {} fetches another class",
                            a.text
                        );
                    }
                    let dish = verdict.dish.as_ref().unwrap().predicate;
                    let last = v
                        .carried_by
                        .last()
                        .map_or(v.actions[0].predicate, |a| a.predicate);
                    assert_eq!(last, dish, "{what}: not carried into the dish");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked} violations checked");
}

#[test]
fn chocolate_fudge_cookies_cake_mix_comes_from_its_fetch_and_the_transfer_carries_it() {
    common::require_data!();
    let text = common::read(&common::gold_file("chocolate-fudge-cookies"));
    let verdict = judged(Profile::R2024, &text, Diet::GlutenFree, None);
    let mix = &verdict["violations"][0];
    assert_eq!(mix["ingredient"], "devils-food-cake-mix");
    let lines = |key: &str| -> Vec<u64> {
        mix[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["line"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(lines("actions"), [3]);
    assert_eq!(lines("carried_by")[..2], [11, 12]);
    assert_eq!(lines("carried_by").last(), Some(&24));
}
