//! The held-out benchmark (`benchmarks/heldout/`, issue 42): recipes of our own that the rules
//! translator was never tuned on. Every gold network must check clean and score perfectly
//! against itself, or the baseline measured on the set (docs/heldout.md) means nothing.

use crate::common::{evaluator, outcome};
use std::path::{Path, PathBuf};

const HELDOUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benchmarks/heldout");

/// The fewest recipes the set may hold (issue 42).
const AT_LEAST: usize = 15;

fn golds() -> PathBuf {
    Path::new(HELDOUT).join("data/gold-standard-solutions/meaning-only")
}

/// The recipe ids the manifest lists, in its order.
fn listed() -> Vec<String> {
    let manifest = std::fs::read_to_string(Path::new(HELDOUT).join("benchmark.json"))
        .expect("the held-out manifest");
    let manifest: serde_json::Value = serde_json::from_str(&manifest).expect("JSON");
    assert_eq!(manifest["official_recipes"], serde_json::json!([]));
    manifest["recipes"]
        .as_array()
        .expect("a list of recipes")
        .iter()
        .map(|r| r["id"].as_str().expect("an id").to_string())
        .collect()
}

#[test]
fn the_heldout_set_lists_every_gold_network_it_holds() {
    let ids = listed();
    assert!(ids.len() >= AT_LEAST, "{} recipes", ids.len());
    let mut files: Vec<String> = std::fs::read_dir(golds())
        .expect("the gold folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .into_string()
                .expect("UTF-8")
        })
        .collect();
    files.sort();
    let expected: Vec<String> = ids.iter().map(|id| format!("{id}.solution")).collect();
    assert_eq!(files, expected);
    for id in &ids {
        let text = Path::new(HELDOUT).join(format!("data/recipe-texts/{id}.txt"));
        assert!(text.is_file(), "{}", text.display());
    }
}

#[test]
fn every_heldout_gold_checks_clean() {
    let n = listed().len();
    let mut command = evaluator();
    command.args(["--benchmark", HELDOUT, "check"]);
    command.args(
        listed()
            .iter()
            .map(|id| golds().join(format!("{id}.solution"))),
    );
    let checked = outcome(&mut command);
    assert_eq!(checked.code, 0, "{}{}", checked.stdout, checked.stderr);
    assert_eq!(
        checked.stderr,
        format!("checked {n} file(s) against profile 2024: 0 error(s), 0 warning(s)\n")
    );
}

#[test]
fn every_heldout_gold_executes_and_scores_perfectly_against_itself() {
    let mut command = evaluator();
    command.args(["--benchmark", HELDOUT, "--input"]);
    command.arg(golds());
    command.args([
        "--metrics",
        "smatch-score",
        "goal-condition-success",
        "dish-approximation-score",
        "execution-time",
        "--format",
        "json",
        "-o",
        "-",
    ]);
    let scored = outcome(&mut command);
    assert_eq!(scored.code, 0, "{}", scored.stderr);
    let report: serde_json::Value = serde_json::from_str(&scored.stdout).expect("JSON report");
    assert_eq!(report["signature"]["data"]["status"], "user");
    let files = report["files"].as_array().expect("one entry per file");
    assert_eq!(files.len(), listed().len());
    let rows: Vec<&serde_json::Value> = files
        .iter()
        .flat_map(|f| {
            assert_eq!(f["refusal"], serde_json::Value::Null, "{}", f["file"]);
            f["recipes"].as_array().expect("rows")
        })
        .collect();
    let mut ids: Vec<&str> = rows
        .iter()
        .map(|r| r["recipe_id"].as_str().expect("an id"))
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, listed());
    for row in &rows {
        let id = &row["recipe_id"];
        assert_eq!(row["smatch"]["f_score"], 1.0, "{id}");
        assert_eq!(row["goal_condition_success"]["value"], 1.0, "{id}");
        assert_eq!(row["dish_approximation_score"], 1.0, "{id}");
        assert_eq!(row["missed_goals"], serde_json::json!([]), "{id}");
        assert!(
            row["execution_time"].as_u64().is_some_and(|t| t > 0),
            "{id}"
        );
    }
}

/// `benchmark --split test` on the held-out set scores exactly the split's held-out recipes
/// (gold/splits.json); a split name that is none of the three is refused with the closest.
#[test]
fn benchmark_keeps_the_recipes_of_a_split() {
    let dir = crate::common::Scratch::new("heldout-split");
    let out = dir.path("run").display().to_string();
    let args = [
        "--benchmark",
        HELDOUT,
        "benchmark",
        "--split",
        "test",
        "--out",
        &out,
        "-q",
    ];
    let o = outcome(evaluator().args(args));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let table = std::fs::read_to_string(dir.path("run").join("baseline-rules.md")).unwrap();
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| recipe") && !l.starts_with("| **"))
        .map(|l| l.trim_start_matches("| ").split(' ').next().unwrap())
        .collect();
    assert_eq!(
        rows,
        [
            "apple-cabbage-slaw",
            "coconut-macaroons",
            "creamy-dill-dressing",
            "double-chocolate-cookies",
            "tomato-cucumber-salad"
        ]
    );
    let demo = [
        "--benchmark",
        "demo",
        "benchmark",
        "--split",
        "dev",
        "--out",
        &out,
    ];
    let o = outcome(evaluator().args(demo));
    assert_eq!(o.code, 2);
    assert_eq!(
        o.stderr,
        "error: --split dev: the benchmark holds none of the split's recipes (gold/splits.json lists official and benchmarks/heldout recipes)\n"
    );
    let o = outcome(evaluator().args(["benchmark", "--split", "tset", "--out", &out]));
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains("unknown split `tset`: expected train, dev or test (did you mean `test`?)"),
        "{}",
        o.stderr
    );
}
