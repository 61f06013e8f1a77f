//! A benchmark of one's own that extends the kitchen (docs/extending.md): a new ingredient
//! with a gram conversion and a new tool in `ontology.json`, both placed in `kitchen.json`, and
//! a recipe using them, made with `new-benchmark` and `add-recipe` and scored through the
//! binary. The files are the ones docs/extending.md shows, read from it.

use crate::common::binary::evaluator_capped;
use crate::common::ontology_tree::tree_ontology;
use crate::common::{self, Outcome, Scratch, evaluator, outcome};
use cookingbot::data::manifest::sha256_hex;
use serde_json::Value;
use std::path::Path;

const DOC: &str = include_str!("../../docs/extending.md");
const ALL_METRICS: [&str; 5] = [
    "-metrics",
    "smatch-score",
    "goal-condition-success",
    "dish-approximation-score",
    "execution-time",
];

/// The block that follows `<!-- file: NAME -->` in docs/extending.md.
fn doc_file(name: &str) -> String {
    let marker = format!("<!-- file: {name} -->\n");
    let after = &DOC[DOC.find(&marker).expect("the file is in the doc") + marker.len()..];
    let body = &after[after.find('\n').expect("a fenced block") + 1..];
    body[..body.find("```").expect("the block ends")].to_owned()
}

/// The built-in 2024 kitchen's text.
fn builtin_kitchen() -> String {
    let builtin = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/kitchens/full-kitchen-2024.json"
    );
    common::read(Path::new(builtin))
}

/// The built-in 2024 kitchen with the doc's additions at the end of each place named.
fn kitchen_json() -> String {
    let mut kitchen: Value = serde_json::from_str(&builtin_kitchen()).unwrap();
    let additions: Value = serde_json::from_str(&doc_file("kitchen-additions.json")).unwrap();
    let places = kitchen["kitchen"]["contents"].as_array_mut().unwrap();
    for (place, items) in additions.as_object().unwrap() {
        let at = places.iter_mut().find(|p| p["class"] == *place).unwrap();
        let contents = at["contents"].as_array_mut().unwrap();
        contents.extend(items.as_array().unwrap().iter().cloned());
    }
    serde_json::to_string_pretty(&kitchen).unwrap()
}

fn run_in(dir: &Path, args: &[&str]) -> Outcome {
    outcome(evaluator().current_dir(dir).args(args))
}

/// `bench` made with the commands, the extension files written before the recipe is added
/// (its gold is checked against them); the gold at `gold.solution`.
fn extended_benchmark(scratch: &Scratch) {
    let made = run_in(scratch, &["new-benchmark", "bench"]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    scratch.write("bench/ontology.json", doc_file("ontology.json"));
    scratch.write("bench/kitchen.json", kitchen_json());
    scratch.write("text.txt", doc_file("grilled-halloumi.txt"));
    scratch.write("gold.solution", doc_file("grilled-halloumi.solution"));
    let args = ["add-recipe", "--benchmark", "bench", "--text", "text.txt"];
    let added = run_in(scratch, &[&args[..], &["--gold", "gold.solution"]].concat());
    assert_eq!(added.code, 0, "{}", added.stderr);
    assert_eq!(
        added.stdout,
        "added `grilled-halloumi` (dish ?grilled-halloumi) to bench\n"
    );
}

/// `--benchmark bench -input FILE -output - ARGS...` in `dir`.
fn score(dir: &Path, input: &str, more: &[&str]) -> Outcome {
    let args = ["--benchmark", "bench", "-input", input, "-output", "-"];
    run_in(dir, &[&args[..], more].concat())
}

#[test]
fn the_gold_of_an_extended_kitchen_scores_1_against_itself() {
    let scratch = Scratch::new("extension-gold");
    extended_benchmark(&scratch);
    let run = score(&scratch, "gold.solution", &ALL_METRICS);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "recipe-id,smatch-score,goal-condition-success,dish-approximation-score,execution-time\ngrilled-halloumi,1.00,1.00,1.00,80\n"
    );
    // The signature names the kitchen file and fingerprints both files.
    let ontology = sha256_hex(doc_file("ontology.json").as_bytes());
    let kitchen = sha256_hex(kitchen_json().as_bytes());
    assert!(
        run.stderr.contains(&format!(
            "kitchen bench/kitchen.json; metrics smatch-score,goal-condition-success,dish-approximation-score,execution-time; smatch seed 0, restarts 4, exact no; data user, gold sha256 {}, kitchen sha256 {}, ontology sha256 {}\n",
            &sha256_hex(doc_file("grilled-halloumi.solution").as_bytes())[..12],
            &kitchen[..12],
            &ontology[..12]
        )),
        "{}",
        run.stderr
    );
    let json = score(&scratch, "gold.solution", &["--format", "json"]);
    let report: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["signature"]["data"]["ontology_sha256"], ontology);
    assert_eq!(report["signature"]["data"]["kitchen_sha256"], kitchen);
}

/// 250 g per piece: 250 g is the gold's one piece, two pieces are 500 g in two portions.
#[test]
fn the_dish_score_compares_amounts_through_the_new_conversion() {
    let scratch = Scratch::new("extension-amounts");
    extended_benchmark(&scratch);
    let gold = doc_file("grilled-halloumi.solution");
    let dish = |name: &str, amount: &str| -> Value {
        scratch.write(name, gold.replace("halloumi 1 piece", amount));
        let run = score(&scratch, name, &["--format", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report: Value = serde_json::from_str(&run.stdout).unwrap();
        report["recipes"][0].clone()
    };
    let grams = dish("grams.solution", "halloumi 250 g");
    assert_eq!(grams["dish_approximation_score"], 1.0);
    let two = dish("two.solution", "halloumi 2 piece");
    // Halloumi has feta-cheese's 8 slots; only its amount differs (500 g against 250 g).
    let contents = 0.6f32 * (7.0 / 8.0) + 0.4;
    // The grill pan's 6 slots besides its contents, its location, its class and the number
    // of portions: all but the portions (2 against 1) agree.
    let container = 8.0f32 / 9.0;
    let expected = 0.98f32 * contents + 0.02 * container;
    let got = two["dish_approximation_score"].as_f64().unwrap() as f32;
    assert!((got - expected).abs() < 1e-6, "{got} against {expected}");
    let halloumi = &two["dish"]["ingredients"][0];
    assert_eq!(halloumi["class"], "halloumi");
    assert_eq!(halloumi["differing"], serde_json::json!(["amount"]));
    assert_eq!(halloumi["score"].as_f64().unwrap() as f32, contents);
    assert_eq!(
        two["dish"]["container"],
        serde_json::json!(["2 portions instead of 1"])
    );
    let csv = score(
        &scratch,
        "two.solution",
        &["-metrics", "dish-approximation-score"],
    );
    assert_eq!(
        csv.stdout,
        "recipe-id,dish-approximation-score\ngrilled-halloumi,0.92\n"
    );
}

#[test]
fn without_the_extension_the_gold_is_refused_at_the_unknown_names() {
    let scratch = Scratch::new("extension-missing");
    extended_benchmark(&scratch);
    std::fs::remove_file(scratch.path("bench/ontology.json")).unwrap();
    std::fs::remove_file(scratch.path("bench/kitchen.json")).unwrap();
    let run = score(&scratch, "gold.solution", &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    for located in [
        "error[E0106]: `halloumi` is not a class of the ontology\n  ┌─ gold.solution:3:93\n",
        "error[E0106]: `grill-pan` is not a class of the ontology\n  ┌─ gold.solution:4:56\n",
    ] {
        assert!(run.stderr.contains(located), "{}", run.stderr);
    }
}

/// `check`'s did-you-mean, `simulate` and the rules translator know the new names.
#[test]
fn every_command_knows_the_new_names() {
    let scratch = Scratch::new("extension-commands");
    extended_benchmark(&scratch);
    let gold = doc_file("grilled-halloumi.solution");
    scratch.write("typo.solution", gold.replace("halloumi 1", "haloumi 1"));
    let check = run_in(
        &scratch,
        &["check", "--benchmark", "bench", "typo.solution"],
    );
    assert_eq!(check.code, 1);
    assert!(
        check.stderr.contains("= help: did you mean `halloumi`?"),
        "{}",
        check.stderr
    );
    let simulated = run_in(
        &scratch,
        &["simulate", "--benchmark", "bench", "gold.solution"],
    );
    assert_eq!(simulated.code, 0, "{}", simulated.stderr);
    assert!(
        simulated
            .stdout
            .ends_with("  grill-pan [used]\n    halloumi 1 piece\n"),
        "{}",
        simulated.stdout
    );
    let translated = run_in(&scratch, &["translate", "--benchmark", "bench", "text.txt"]);
    assert_eq!(translated.code, 0, "{}", translated.stderr);
    assert!(
        translated
            .stdout
            .contains("?target-container halloumi 1 piece)\n"),
        "{}",
        translated.stdout
    );
}

/// The halloumi's file gives it `dairy` alone: vegetarian (feta's `rennet` is not inherited),
/// not vegan.
#[test]
fn a_class_of_ones_own_is_judged_by_the_diet_tags_its_file_gives() {
    let scratch = Scratch::new("extension-diet");
    extended_benchmark(&scratch);
    let diet = |name: &str| {
        let args = [
            "diet",
            "--benchmark",
            "bench",
            "gold.solution",
            "--diet",
            name,
        ];
        run_in(&scratch, &args)
    };
    let vegetarian = diet("vegetarian");
    assert_eq!(vegetarian.code, 0, "{}", vegetarian.stderr);
    assert!(
        vegetarian.stdout.starts_with(
            "grilled-halloumi is vegetarian: the dish holds no ingredient the vegetarian diet excludes\n"
        ),
        "{}",
        vegetarian.stdout
    );
    let vegan = diet("vegan");
    assert_eq!(vegan.code, 1, "{}", vegan.stderr);
    assert_eq!(
        vegan.stdout,
        "grilled-halloumi is not vegan: 1 ingredient of the dish excluded
  halloumi: 250 g (dairy)
    line 3: (fetch-and-proportion ?proportioned-halloumi ?ks-with-halloumi ?kitchen ?target-container-1 halloumi 1 piece)
    carried into the dish by line 5
the dish: the output of line 5: (transfer-contents ?grilled-halloumi ?rest ?ks-with-halloumi-in-pan ?ks-with-grill-pan ?grill-pan ?proportioned-halloumi ?quantity ?unit)
"
    );
}

/// Each bad file is refused before anything is scored (exit 2, no output), located.
#[test]
fn bad_extension_files_are_refused_with_their_line_column_and_field() {
    let scratch = Scratch::new("extension-bad");
    extended_benchmark(&scratch);
    let cases = [
        (
            "ontology.json",
            r#"{"classes": {"halloumi": {"is_a": ["cheese"]}}}"#.to_owned(),
            "bench/ontology.json:1:36: not a usable ontology file: classes.halloumi.is_a[0]: unknown parent class `cheese`",
        ),
        (
            "ontology.json",
            r#"{"classes": {"a": {"is_a": ["b"]}, "b": {"is_a": ["a"]}}}"#.to_owned(),
            "bench/ontology.json:1:20: not a usable ontology file: classes.a.is_a: the parent classes form a cycle: a → b → a",
        ),
        (
            "ontology.json",
            "{\"classes\": {\"halloumi\": {\"is_a\": [\"feta-cheese\"]}},\n \"conversion_to_g\": {\"haloumi\": {\"piece\": 250}}}".to_owned(),
            "bench/ontology.json:2:22: not a usable ontology file: conversion_to_g.haloumi: no class `haloumi` in the ontology or among `classes`",
        ),
        (
            "ontology.json",
            r#"{"classes": {"halloumi": {"is_a": ["feta-cheese"]}"#.to_owned(),
            "bench/ontology.json:1:50: not a usable ontology file: EOF while parsing an object",
        ),
        (
            "ontology.json",
            r#"{"classes": {"halloumi": {"is_a": ["feta-cheese"], "diet": ["diary"]}}}"#
                .to_owned(),
            "bench/ontology.json:1:61: not a usable ontology file: classes.halloumi.diet[0]: `diary` is not a diet tag (one of dairy, egg, fish, gelatin, gluten, honey, meat, nut, peanut, rennet, unknown); did you mean `dairy`?",
        ),
        (
            "ontology.json",
            "{\"classes\": {\n  \"halloumi\": {\"is_a\": [\"feta-cheese\"]},\n  \"halloumi\": {\"is_a\": [\"whisk\"]}}}".to_owned(),
            "bench/ontology.json:3:3: not a usable ontology file: classes.halloumi: a second entry with this key (the first is at 2:3); an object gives each key once",
        ),
        (
            "ontology.json",
            doc_file("ontology.json").replace("\"piece\": 250", "\"piece\": 1e308"),
            "bench/ontology.json:6:36: not a usable ontology file: conversion_to_g.halloumi.piece: 1e+308 is not a single float: a magnitude from 1.1754944e-38 to 3.4028235e38, or 0",
        ),
        (
            "ontology.json",
            doc_file("ontology.json").replace("\"piece\": 250", "\"piece\": 1e-300"),
            "bench/ontology.json:6:36: not a usable ontology file: conversion_to_g.halloumi.piece: 1e-300 is not a single float: a magnitude from 1.1754944e-38 to 3.4028235e38, or 0",
        ),
        (
            "ontology.json",
            tree_ontology(100_000).to_string(),
            "bench/ontology.json:1:2: not a usable ontology file: classes: 100000 classes; an ontology file adds at most 10000",
        ),
        (
            "kitchen.json",
            builtin_kitchen().replacen("{\"profile\": \"2024\",", "{\"profile\": \"2024\",\n \"profile\": \"2023\",", 1),
            "bench/kitchen.json:2:2: not a usable kitchen file: profile: a second entry with this key (the first is at 1:2); an object gives each key once",
        ),
        (
            "kitchen.json",
            kitchen_json().replace("\"class\": \"grill-pan\"", "\"class\": \"grill-pann\""),
            "bench/kitchen.json:2051:13: not a usable kitchen file: kitchen.contents[8].contents[36].class: unknown class `grill-pann`",
        ),
    ];
    for (file, text, message) in cases {
        let good = common::read(&scratch.path(&format!("bench/{file}")));
        scratch.write(&format!("bench/{file}"), text);
        let run = score(&scratch, "gold.solution", &[]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert_eq!(run.stderr, format!("error: {message}\n"));
        assert!(run.stdout.is_empty());
        scratch.write(&format!("bench/{file}"), good);
    }
}

/// The built-in kitchen with, in its first place, 10,000 bowls each holding 10,000 bowls: 100
/// million objects from 22 KB (each bowl with its 8 default values), refused where the counts
/// multiply past the bound, by `check`
/// as by `simulate`, before the memory they would take (a run capped at 1 GiB) is asked for.
#[test]
fn counts_in_counts_are_bounded_as_a_product_by_check_and_simulate() {
    let scratch = Scratch::new("extension-count-bomb");
    extended_benchmark(&scratch);
    let bowls = serde_json::json!({"class": "medium-bowl", "count": 10000, "contents": [
        {"class": "medium-bowl", "count": 10000, "contents": []}]});
    scratch.write("bench/kitchen.json", kitchen_holding(&[bowls]));
    let refusal = "bench/kitchen.json:17:13: not a usable kitchen file: kitchen.contents[0].contents[0].count: 10000 copies of an item of 90009 values bring the values the file's counts make to 900180000, counts in counts multiplying; a file's counts make at most 100000";
    refused_by_check_and_simulate(&scratch, true, refusal);
}

/// `check` and `simulate` of the gold on `bench` (and, with `kitchen_alone`, on
/// `bench/kitchen.json` as `--kitchen`), each in a run capped at 1 GiB, refused with `refusal`.
fn refused_by_check_and_simulate(scratch: &Scratch, kitchen_alone: bool, refusal: &str) {
    let kitchen_arg = ["--kitchen", "bench/kitchen.json"];
    let runs = [
        &["check", "--benchmark", "bench", "gold.solution"][..],
        &["simulate", "--benchmark", "bench", "gold.solution"],
        &[&kitchen_arg[..], &["check", "gold.solution"]].concat(),
        &[&kitchen_arg[..], &["simulate", "gold.solution"]].concat(),
    ];
    for args in &runs[..if kitchen_alone { 4 } else { 2 }] {
        let run = outcome(
            evaluator_capped(1 << 30)
                .current_dir(&**scratch)
                .args(*args),
        );
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr, format!("error: {refusal}\n"), "{args:?}");
    }
}

/// The docs' `ontology.json` with `classes` added to its own.
fn with_classes(classes: &[(String, Value)]) -> String {
    let mut ontology: Value = serde_json::from_str(&doc_file("ontology.json")).unwrap();
    let own = ontology["classes"].as_object_mut().unwrap();
    own.extend(classes.iter().cloned());
    serde_json::to_string_pretty(&ontology).unwrap()
}

/// `heap`, a cheese whose `pile` holds `count` values, and `heirs` classes inheriting it.
fn heap_and_heirs(count: u64, heirs: usize) -> Vec<(String, Value)> {
    let item = serde_json::json!({"class": "entity", "count": count});
    let heap = serde_json::json!({"is_a": ["feta-cheese"], "new_slots": {"pile": vec![item; 9]}});
    let heirs = (0..heirs).map(|i| (format!("heir-{i}"), serde_json::json!({"is_a": ["heap"]})));
    [("heap".to_owned(), heap)]
        .into_iter()
        .chain(heirs)
        .collect()
}

/// `nest-0` with an empty `inner`, and `nest-k` inheriting it from `nest-(k-1)` with ten
/// `nest-(k-1)` in it, up to `nest-{depth}`: one object of `nest-k` makes over 10^k objects,
/// from a few bytes a class.
fn nests(depth: usize) -> Vec<(String, Value)> {
    (0..=depth)
        .map(|k| {
            let body = match k {
                0 => serde_json::json!({"is_a": ["entity"], "new_slots": {"inner": []}}),
                _ => serde_json::json!({"is_a": [format!("nest-{}", k - 1)],
                    "slots": {"inner": vec![format!("nest-{}", k - 1); 10]}}),
            };
            (format!("nest-{k}"), body)
        })
        .collect()
}

/// The built-in kitchen with `items` first in its first place.
fn kitchen_holding(items: &[Value]) -> String {
    let mut kitchen: Value = serde_json::from_str(&kitchen_json()).unwrap();
    let place = kitchen["kitchen"]["contents"][0]["contents"]
        .as_array_mut()
        .unwrap();
    place.splice(0..0, items.iter().cloned());
    serde_json::to_string_pretty(&kitchen).unwrap()
}

/// A class whose default holds 90,000 values (within the counts' bound) inherited by 9,000
/// classes was 810 million values copied as the ontology loaded: the class is refused at the
/// default that makes it too heavy, before its heirs are added, within a 1 GiB cap.
#[test]
fn a_class_too_heavy_to_inherit_is_refused_at_its_default() {
    let scratch = Scratch::new("extension-heavy-parent");
    extended_benchmark(&scratch);
    scratch.write(
        "bench/ontology.json",
        with_classes(&heap_and_heirs(10_000, 9_000)),
    );
    let refusal = "bench/ontology.json:24:9: not a usable ontology file: classes.heap.new_slots.pile: one object of the class would make 90033 values with its defaults (the objects in them with theirs); an object makes at most 10000";
    refused_by_check_and_simulate(&scratch, false, refusal);
}

/// A default of 9,000 values inherited by 9,000 classes is held once, shared: the ontology
/// loads within a 1 GiB cap (copied for each heir it took 81 million values, over 2 GB).
#[test]
fn a_modest_default_inherited_by_many_classes_loads_shared() {
    let scratch = Scratch::new("extension-shared-default");
    extended_benchmark(&scratch);
    scratch.write(
        "bench/ontology.json",
        with_classes(&heap_and_heirs(1_000, 9_000)),
    );
    let args = ["check", "--benchmark", "bench", "gold.solution"];
    let run = outcome(evaluator_capped(1 << 30).current_dir(&*scratch).args(args));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let checked = "checked 1 file(s) against profile 2024: 0 error(s), 0 warning(s)\n";
    assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", checked));
}

/// Classes whose defaults each hold ten objects of the one before make 10^12 objects for one
/// `nest-12` in the kitchen, with no count at all: refused at the first class whose object
/// would make more than the bound, as the ontology loads, before the kitchen is made.
#[test]
fn defaults_nested_in_defaults_are_bounded_per_class() {
    let scratch = Scratch::new("extension-nested-defaults");
    extended_benchmark(&scratch);
    scratch.write("bench/ontology.json", with_classes(&nests(12)));
    scratch.write("bench/kitchen.json", kitchen_holding(&["nest-12".into()]));
    let refusal = "bench/ontology.json:146:9: not a usable ontology file: classes.nest-4.slots.inner: one object of the class would make 22222 values with its defaults (the objects in them with theirs); an object makes at most 10000";
    refused_by_check_and_simulate(&scratch, false, refusal);
}

/// Each object of the kitchen is charged with what its class's defaults make: a hundred
/// `nest-3`s (2,222 values each) bring the kitchen past its bound, at the object that does.
#[test]
fn the_kitchen_is_charged_with_its_objects_defaults() {
    let scratch = Scratch::new("extension-heavy-kitchen");
    extended_benchmark(&scratch);
    scratch.write("bench/ontology.json", with_classes(&nests(3)));
    let heavy: Vec<Value> = vec!["nest-3".into(); 100];
    scratch.write("bench/kitchen.json", kitchen_holding(&heavy));
    let refusal = "bench/kitchen.json:52:11: not a usable kitchen file: kitchen.contents[0].contents[44]: here the file's values come to 100154, its objects' defaults included; a file makes at most 100000";
    refused_by_check_and_simulate(&scratch, false, refusal);
}

/// A FIFO (which would block for ever), a device (which never ends) and a file over the size
/// bound are refused by their type and size, unread, as `ontology.json`, as `kitchen.json` and
/// as `--kitchen`.
#[test]
fn data_files_that_are_not_regular_or_too_large_are_refused_unread() {
    let scratch = Scratch::new("extension-special-files");
    extended_benchmark(&scratch);
    let fifo = scratch.path("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let large = std::fs::File::create(scratch.path("large.json")).unwrap();
    large.set_len((8 << 20) + 1).unwrap();
    let fifo_refused = "a FIFO (named pipe), not a regular file; only regular files are read";
    let large_refused = "8388609 bytes; {kind} files of at most 8388608 bytes (8 MiB) are read";
    let refused = |file: &str, kind: &str, why: &str| {
        let why = why.replace("{kind}", kind);
        format!("error: {file}: cannot read the {kind} file: {why}\n")
    };
    for (name, kind) in [("ontology.json", "ontology"), ("kitchen.json", "kitchen")] {
        let at = scratch.path(&format!("bench/{name}"));
        let good = common::read(&at);
        for (special, why) in [("fifo", fifo_refused), ("large.json", large_refused)] {
            std::fs::remove_file(&at).unwrap();
            std::os::unix::fs::symlink(scratch.path(special), &at).unwrap();
            let run = score(&scratch, "gold.solution", &[]);
            assert_eq!(run.code, 2, "{}", run.stderr);
            assert_eq!(run.stderr, refused(&format!("bench/{name}"), kind, why));
        }
        std::fs::remove_file(&at).unwrap();
        scratch.write(&format!("bench/{name}"), good);
    }
    for (file, why) in [
        ("fifo", fifo_refused),
        ("large.json", large_refused),
        (
            "/dev/zero",
            "a character device, not a regular file; only regular files are read",
        ),
    ] {
        let run = run_in(&scratch, &["--kitchen", file, "check", "gold.solution"]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert_eq!(run.stderr, refused(file, "kitchen", why));
    }
}

/// A paneer recipe of one's own: paneer added to `ontology.json` (with its grams a piece), the
/// built-in kitchen as `kitchen.json`, holding a bowl of paneer in the fridge when `stocked`.
fn paneer_benchmark(scratch: &Scratch, stocked: bool) {
    let made = run_in(scratch, &["new-benchmark", "bench"]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    scratch.write(
        "bench/ontology.json",
        r#"{"classes": {"paneer": {"is_a": ["feta-cheese"]}}, "conversion_to_g": {"paneer": {"piece": 200}}}"#,
    );
    let mut kitchen: Value = serde_json::from_str(&builtin_kitchen()).unwrap();
    if stocked {
        let places = kitchen["kitchen"]["contents"].as_array_mut().unwrap();
        let fridge = places.iter_mut().find(|p| p["class"] == "fridge").unwrap();
        fridge["contents"].as_array_mut().unwrap().push(serde_json::json!({
            "class": "medium-bowl", "used": true, "contents": [{"class": "paneer", "amount":
                {"class": "amount", "quantity": {"class": "quantity", "value": 2}, "unit": "piece"}}]
        }));
    }
    scratch.write("bench/kitchen.json", kitchen.to_string());
    scratch.write("text.txt", "Paneer on a plate\n\nIngredients\n- 1 piece paneer\n\nSteps\n1. Put the paneer on a plate.\n");
    scratch.write(
        "paneer.solution",
        "#paneer-plate\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?paneer ?ks-1 ?kitchen ?bowl paneer 1 piece)\n",
    );
}

const ADD_PANEER: [&str; 7] = [
    "add-recipe",
    "--benchmark",
    "bench",
    "--text",
    "text.txt",
    "--gold",
    "paneer.solution",
];

#[test]
fn a_gold_whose_fetch_fails_in_the_benchmarks_kitchen_is_refused_at_its_line() {
    let scratch = Scratch::new("extension-paneer-missing");
    paneer_benchmark(&scratch, false);
    let added = run_in(&scratch, &ADD_PANEER);
    assert_eq!(added.code, 1, "{}", added.stderr);
    assert_eq!(added.stdout, "");
    for said in [
        "warning[W0008]: the kitchen holds no paneer: add it to bench/kitchen.json\n  ┌─ paneer.solution:3:1\n",
        "= help: looked in ",
        "checked 1 file(s) against profile 2024: 0 error(s), 1 warning(s)\n",
        "error: paneer.solution: the gold's dish ?paneer is a failed object in the benchmark's kitchen (the warnings above say which action fails and why), so it would score 0 against itself; nothing was added (--allow-failing-gold adds it anyway)\n",
    ] {
        assert!(added.stderr.contains(said), "{said}\n{}", added.stderr);
    }
    let manifest = common::read(&scratch.path("bench/benchmark.json"));
    assert!(!manifest.contains("paneer"), "{manifest}");
    // `check` says the same, at the same line, and `simulate` says why the fetch failed.
    let check = run_in(
        &scratch,
        &[
            "check",
            "--benchmark",
            "bench",
            "--known-recipes",
            "paneer-plate",
            "--",
            "paneer.solution",
        ],
    );
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        check.stderr.contains(
            "warning[W0008]: the kitchen holds no paneer: add it to bench/kitchen.json\n  ┌─ paneer.solution:3:1\n"
        ),
        "{}",
        check.stderr
    );
    let simulated = run_in(
        &scratch,
        &["simulate", "--benchmark", "bench", "paneer.solution"],
    );
    assert_eq!(simulated.code, 0, "{}", simulated.stderr);
    assert!(
        simulated
            .stdout
            .contains("failed: the kitchen holds no paneer: looked in "),
        "{}",
        simulated.stdout
    );
    assert!(
        simulated.stdout.ends_with(":\n  failed-object\n"),
        "{}",
        simulated.stdout
    );
    // Asked for, it is added all the same.
    let allowed = run_in(
        &scratch,
        &[&ADD_PANEER[..], &["--allow-failing-gold"]].concat(),
    );
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    assert_eq!(
        allowed.stdout,
        "added `paneer-plate` (dish ?paneer) to bench\n"
    );
}

#[test]
fn the_same_gold_is_added_once_the_kitchen_holds_paneer() {
    let scratch = Scratch::new("extension-paneer-stocked");
    paneer_benchmark(&scratch, true);
    let added = run_in(&scratch, &ADD_PANEER);
    assert_eq!(added.code, 0, "{}", added.stderr);
    assert_eq!(
        added.stdout,
        "added `paneer-plate` (dish ?paneer) to bench\n"
    );
    assert!(
        added
            .stderr
            .contains("checked 1 file(s) against profile 2024: 0 error(s), 0 warning(s)\n"),
        "{}",
        added.stderr
    );
    let scored = score(
        &scratch,
        "paneer.solution",
        &["-metrics", "dish-approximation-score"],
    );
    assert_eq!(scored.code, 0, "{}", scored.stderr);
    assert_eq!(
        scored.stdout,
        "recipe-id,dish-approximation-score\npaneer-plate,1.00\n"
    );
}

/// At a terminal whose width is unknown (a pty of 0 columns, as `script` gives), the
/// evaluation's progress bar is cleared as the one line it is: clearing it as two took the
/// line above with it, so `simulate`'s last line (`  failed-object`) ran into `RECIPE:`.
#[test]
fn the_progress_bar_clears_only_its_own_line_at_a_terminal() {
    let scratch = Scratch::new("extension-progress");
    paneer_benchmark(&scratch, true);
    let added = run_in(&scratch, &ADD_PANEER);
    assert_eq!(added.code, 0, "{}", added.stderr);
    let binary = env!("CARGO_BIN_EXE_cookingbot-evaluator");
    let command = format!(
        "{binary} --benchmark bench simulate paneer.solution; {binary} --benchmark bench -input paneer.solution -output scores.csv"
    );
    let Ok(ran) = std::process::Command::new("script")
        .args(["-qc", &command, "/dev/null"])
        .current_dir(scratch.path("."))
        .env_remove("NO_COLOR")
        .output()
    else {
        panic!("`script` (util-linux) runs the commands at a pseudo-terminal for this test");
    };
    let shown = String::from_utf8_lossy(&ran.stdout);
    assert!(
        shown.contains("recipes · "),
        "no progress bar drawn: {shown}"
    );
    assert!(
        !shown.contains("\u{1b}[1A"),
        "the cursor went up: {shown:?}"
    );
    assert!(shown.contains("  paneer 1 piece\r\n"), "{shown:?}");
}
