//! `diet` and `--metrics diet:NAME` as users run them, on the demo benchmark built into the
//! program (no data needed): the verdict as text and JSON, written to a file, a misspelt diet,
//! a network with no verdict, and the evaluation's diet column beside the reference's four.

use crate::common;

use common::{Outcome, Scratch, evaluator, outcome};
use serde_json::{Value, json};

/// The demo's gold networks, as the crate's examples hold them.
fn perfect() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/demo-perfect.solution"
    )
    .to_owned()
}

/// `--benchmark demo ARGS...`.
fn demo(args: &[&str]) -> Outcome {
    outcome(evaluator().args(["--benchmark", "demo"]).args(args))
}

#[test]
fn the_verdict_names_each_excluded_ingredient_its_grams_and_its_line() {
    let toast = demo(&[
        "diet",
        &perfect(),
        "--diet",
        "vegan",
        "--recipe",
        "demo-cinnamon-toast-bites",
    ]);
    assert_eq!(toast.code, 1, "{}", toast.stderr);
    assert_eq!(
        toast.stdout,
        "demo-cinnamon-toast-bites is not vegan: 2 ingredients of the dish excluded
  white-bread-slice: 114 g (dairy)
    line 25: (fetch-and-proportion ?proportioned-bread ?ks-with-bread ?ks-with-preheated-oven ?target-container-1 white-bread-slice 3 piece)
    carried into the dish by line 30, line 31, line 32, line 33, line 36, line 38, line 39
  butter: 30 g (dairy)
    line 26: (fetch-and-proportion ?proportioned-butter ?ks-with-butter ?ks-with-bread ?target-container-2 butter 30 g)
    carried into the dish by line 27, line 32, line 33, line 36, line 38, line 39
the dish: the output of line 39: (bake ?cinnamon-toast-bites ?ks-with-cinnamon-toast-bites ?output-ks-d ?output-container-d ?preheated-oven 10 minute 200 degrees-celsius)
"
    );
    assert!(toast.stderr.is_empty(), "{}", toast.stderr);
    // The file's first recipe, the garden salad, keeps the diet: exit 0.
    let salad = demo(&["diet", &perfect(), "--diet", "vegan"]);
    assert_eq!(salad.code, 0, "{}", salad.stderr);
    assert_eq!(
        salad.stdout,
        "demo-garden-salad is vegan: the dish holds no ingredient the vegan diet excludes
the dish: the output of line 20: (mingle ?garden-salad ?ks-with-garden-salad ?output-ks-f ?output-container-f ?wooden-spoon)
"
    );
}

#[test]
fn the_json_verdict_is_written_to_standard_output_or_a_file() {
    let args = [
        "diet",
        &perfect(),
        "--diet",
        "gluten-free",
        "--recipe",
        "demo-shortbread-rounds",
        "--format",
        "json",
    ];
    let printed = demo(&args);
    assert_eq!(printed.code, 1, "{}", printed.stderr);
    let verdict: Value = serde_json::from_str(&printed.stdout).expect("JSON");
    assert_eq!(
        verdict,
        json!({
            "recipe": "demo-shortbread-rounds",
            "diet": "gluten-free",
            "satisfied": false,
            "dish": {
                "action": 18,
                "line": 59,
                "text": "(leave-for-time ?shortbread-rounds ?ks-with-shortbread-rounds ?ks-with-baked-rounds ?baked-rounds 10 minute)"
            },
            "violations": [{
                "ingredient": "all-purpose-flour",
                "tags": ["gluten"],
                "amount": {"value": 180, "unit": "g"},
                "actions": [{
                    "action": 5,
                    "line": 46,
                    "text": "(fetch-and-proportion ?proportioned-flour ?ks-with-flour ?ks-with-sugar ?target-container-3 all-purpose-flour 180 g)"
                }],
                "carried_by": [
                    {"action": 10, "line": 51, "text": "(transfer-contents ?output-container-c ?rest-c ?output-ks-c ?ks-with-creamed-butter ?creamed-butter ?proportioned-flour ?quantity-c ?unit-c)"},
                    {"action": 11, "line": 52, "text": "(mix ?dough ?ks-with-dough ?output-ks-c ?output-container-c ?mixing-tool)"},
                    {"action": 12, "line": 53, "text": "(portion-and-arrange ?portioned-dough ?ks-with-portions ?ks-with-dough ?dough 25 g ?pattern ?countertop)"},
                    {"action": 13, "line": 54, "text": "(shape ?dough-rounds ?ks-with-dough-rounds ?ks-with-portions ?portioned-dough flattened-ball-shape)"},
                    {"action": 16, "line": 57, "text": "(transfer-items ?sheet-with-rounds ?ks-with-rounds-on-sheet ?ks-with-lined-cookie-sheet ?dough-rounds 5-cm-apart ?lined-cookie-sheet)"},
                    {"action": 17, "line": 58, "text": "(bake ?baked-rounds ?ks-with-baked-rounds ?ks-with-rounds-on-sheet ?sheet-with-rounds ?preheated-oven 15 minute 170 degrees-celsius)"},
                    {"action": 18, "line": 59, "text": "(leave-for-time ?shortbread-rounds ?ks-with-shortbread-rounds ?ks-with-baked-rounds ?baked-rounds 10 minute)"}
                ]
            }]
        })
    );
    let scratch = Scratch::new("diet-output");
    let file = scratch.path("verdict.json");
    let written = demo(&[&args[..], &["-o", file.to_str().unwrap()]].concat());
    assert_eq!(written.code, 1, "{}", written.stderr);
    assert!(written.stdout.is_empty());
    assert_eq!(common::read(&file), printed.stdout);
}

#[test]
fn a_misspelt_diet_is_refused_with_the_closest_name() {
    for args in [
        vec!["diet", "x.solution", "--diet", "vegn"],
        vec![
            "-input",
            "x.solution",
            "-output",
            "-",
            "--metrics",
            "diet:vegn",
        ],
    ] {
        let run = demo(&args);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains(
                "`vegn` is not a diet (one of vegan, vegetarian, gluten-free, dairy-free, nut-free, egg-free); did you mean `vegan`?"
            ),
            "{}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
}

/// The garden salad's network with an action whose input no action makes: it never runs.
fn stuck(scratch: &Scratch) -> String {
    let text = "#demo-garden-salad
(get-kitchen ?kitchen)
(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 100 g)
(beat ?beaten ?ks-2 ?ks-1 ?never-made ?whisk)
";
    scratch.write("stuck.solution", text).display().to_string()
}

#[test]
fn a_network_that_does_not_execute_has_no_verdict() {
    let scratch = Scratch::new("diet-stuck");
    let run = demo(&["diet", &stuck(&scratch), "--diet", "vegan"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "demo-garden-salad: no verdict on vegan: the network does not execute, so it makes no dish\n"
    );
    let csv = demo(&[
        "-input",
        &stuck(&scratch),
        "-output",
        "-",
        "--metrics",
        "diet:vegan",
    ]);
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    assert_eq!(
        csv.stdout,
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time,diet:vegan\ndemo-garden-salad,NIL,NIL,NIL,NIL\n"
    );
}

#[test]
fn a_diet_column_follows_the_reference_columns_and_changes_none_of_them() {
    let scored = |metrics: &[&str]| {
        let mut args = vec!["-input", "PERFECT", "-output", "-"];
        if !metrics.is_empty() {
            args.push("--metrics");
            args.extend(metrics);
        }
        let path = perfect();
        let args: Vec<&str> = args
            .into_iter()
            .map(|a| if a == "PERFECT" { path.as_str() } else { a })
            .collect();
        let run = demo(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
    };
    let with_diets = scored(&["diet:vegan,diet:gluten-free"]);
    assert_eq!(
        with_diets,
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time,diet:vegan,diet:gluten-free
demo-shortbread-rounds,1.00,1.00,2345,0,0
demo-cinnamon-toast-bites,1.00,1.00,1215,0,0
demo-garden-salad,1.00,1.00,490,1,1
"
    );
    let drop_two = |csv: &str| -> String {
        csv.lines()
            .map(|l| l.rsplitn(3, ',').nth(2).unwrap().to_owned() + "\n")
            .collect()
    };
    assert_eq!(drop_two(&with_diets), scored(&[]));
    let all = [
        "smatch-score",
        "goal-condition-success",
        "dish-approximation-score",
        "execution-time",
    ];
    let four = scored(&all);
    let five = scored(&[&all[..], &["diet:egg-free"]].concat());
    let drop_one = |csv: &str| -> String {
        csv.lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_owned() + "\n")
            .collect()
    };
    assert_eq!(drop_one(&five), four);
    // The JSON report holds each verdict; a run without diets holds none.
    let json_args = ["-input", &perfect(), "-output", "-", "--format", "json"];
    let report = demo(&[&json_args[..], &["--metrics", "diet:vegan"]].concat());
    let report: Value = serde_json::from_str(&report.stdout).expect("JSON");
    assert_eq!(report["signature"]["diets"], json!(["vegan"]));
    let butter = &report["recipes"][0]["diets"][0]["violations"][0];
    assert_eq!(butter["ingredient"], "butter");
    assert_eq!(butter["actions"][0]["action"], 2);
    assert_eq!(butter["actions"][0].get("line"), None);
    let plain = demo(&json_args);
    let plain: Value = serde_json::from_str(&plain.stdout).expect("JSON");
    assert_eq!(plain["signature"].get("diets"), None);
    assert_eq!(plain["recipes"][0].get("diets"), None);
}
