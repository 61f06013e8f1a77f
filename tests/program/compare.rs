//! `compare` as users run it: one rule for refused, NIL and missing solutions; paired
//! p-values that hold under tied scores; the randomization method named; bounded options.

use crate::common;

use common::{Scratch, gold_dir, outcome, read, run, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn perturbed_file(name: &str) -> PathBuf {
    common::rebuilt("2024").join("perturbed").join(name)
}

fn json(args: &[&str]) -> Value {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("JSON")
}

/// A folder holding the gold networks and copies of `extra` files.
fn gold_plus(dir: &Scratch, name: &str, extra: &[&str]) -> PathBuf {
    let folder = dir.path(name);
    std::fs::create_dir_all(&folder).expect("folder");
    for gold in common::solution_files(&gold_dir()) {
        std::fs::copy(&gold, folder.join(gold.file_name().expect("name"))).expect("copy");
    }
    for file in extra {
        std::fs::copy(perturbed_file(file), folder.join(file)).expect("copy");
    }
    folder
}

const REFUSED: [&str; 2] = [
    "almond-crescent-cookies-2--no-get-kitchen--1.solution",
    "almond-crescent-cookies-2--unknown-primitive--1.solution",
];
const NIL: [&str; 2] = [
    "almond-crescent-cookies-2--drop-line--1.solution",
    "almond-crescent-cookies-2--drop-line--2.solution",
];
const SWAPPED: &str = "almond-crescent-cookies-2--swap-ingredient--1.solution";

/// The mean of system `k` on the first metric of a `compare --format json` report.
fn mean(report: &Value, k: usize) -> f64 {
    report["metrics"][0]["systems"][k]["mean"]
        .as_f64()
        .expect("mean")
}

/// Issue 37's example: the gold networks plus one refused almond-crescent-cookies-2 file
/// scored 0.9498, as if the refused file were not there, while the gold networks plus one NIL
/// file for that recipe scored 0.9331. A refused file is a solution that scores 0, as the
/// warning says: both now score 0.9331, the gold mean less half of that recipe's 1/30.
/// With two refused files, two NIL ones and one that runs beside the gold network, the recipe
/// scores (1 + 0 + 0 + 0 + 0 + s) / 6, s the running one's score.
#[test]
fn a_refused_file_scores_zero_in_its_recipe_s_mean_as_the_warning_says() {
    common::require_data!();
    let dir = Scratch::new("compare-refused");
    let refused = gold_plus(&dir, "refused", &REFUSED[..1]);
    let nil = gold_plus(&dir, "nil", &NIL[..1]);
    let swapped = gold_plus(&dir, "swapped", &[SWAPPED]);
    let mut every = REFUSED.to_vec();
    every.extend(NIL);
    every.push(SWAPPED);
    let mixed = gold_plus(&dir, "mixed", &every);
    let gold = gold_dir();
    let args = [
        "compare",
        path(&gold),
        path(&refused),
        path(&nil),
        path(&swapped),
        path(&mixed),
        "--metrics",
        "goal-condition-success",
        "--format",
        "json",
        "--offline",
    ];
    let o = outcome(common::evaluator().args(args));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "warning: {}: 1 of 31 files were refused; each scores 0 as a solution of every recipe it names\n\
             warning: {}: 2 of 35 files were refused; each scores 0 as a solution of every recipe it names\n",
            path(&refused),
            path(&mixed)
        )
    );
    let report: Value = serde_json::from_str(&o.stdout).expect("JSON");
    let g = mean(&report, 0);
    assert_eq!(format!("{g:.4}"), "0.9498");
    // Gold scores 1 on almond-crescent-cookies-2; with one failed solution beside it, 1/2.
    for k in [1, 2] {
        assert!(
            (mean(&report, k) - (g - 0.5 / 30.0)).abs() < 1e-12,
            "{report}"
        );
        assert_eq!(format!("{:.4}", mean(&report, k)), "0.9331");
    }
    assert_eq!(mean(&report, 1), mean(&report, 2));
    // Gold plus the swapped file: (1 + s) / 2 for the recipe, which gives s.
    let s = 2.0 * (30.0 * (mean(&report, 3) - g) + 1.0) - 1.0;
    assert!(0.0 < s && s < 1.0, "{s}");
    assert_eq!(format!("{s:.2}"), "0.53");
    let expected = g + ((1.0 + s) / 6.0 - 1.0) / 30.0;
    assert!((mean(&report, 4) - expected).abs() < 1e-12, "{report}");
    // The coverage counts the recipe executed for all four.
    for k in 1..=4 {
        assert_eq!(report["metrics"][0]["systems"][k]["executed"], 29);
    }

    // The evaluation summary (`--ci`) applies the same rule over its rows: the 35 files
    // give 30 gold rows, one for the swapped file, two NIL rows and two refused rows.
    let out = dir.path("mixed.json");
    let o = run(&[
        "--input",
        path(&mixed),
        "-output",
        path(&out),
        "--format",
        "json",
        "--ci",
        "-metrics",
        "goal-condition-success",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&read(&out)).expect("JSON");
    let files = v["files"].as_array().expect("files");
    let refusals: Vec<&Value> = files
        .iter()
        .map(|f| &f["refusal"])
        .filter(|r| !r.is_null())
        .collect();
    assert_eq!(refusals.len(), 2);
    for r in refusals {
        assert_eq!(
            r["recipes"],
            serde_json::json!(["almond-crescent-cookies-2"])
        );
    }
    let values: Vec<f64> = files
        .iter()
        .flat_map(|f| f["recipes"].as_array().expect("recipes"))
        .map(|r| r["goal_condition_success"]["value"].as_f64().unwrap_or(0.0))
        .collect();
    assert_eq!(values.len(), 33);
    let summary = &v["summary"]["metrics"][0];
    assert_eq!(
        (summary["rows"].clone(), summary["with_value"].clone()),
        (35.into(), 31.into())
    );
    let over_rows = values.iter().sum::<f64>() / 35.0;
    assert!((summary["mean"].as_f64().expect("mean") - over_rows).abs() < 1e-12);
}

/// The demo pair differs on one recipe of three (the shortbread's goal-condition success 0.35
/// and dish score 0.99, against 1). A resample that draws that recipe k times differs from
/// the observed difference by (k − 1) times it: at least as extreme unless k = 1, which is
/// 15 of the 27 equally likely resamples, p = 5/9. The p-value printed before ties were
/// counted was about 0.25. The randomization test enumerates the two sign assignments of the
/// one differing recipe: both are as extreme, p = 1.
#[test]
fn the_demo_pair_s_paired_bootstrap_p_is_five_ninths_for_every_seed() {
    let (perfect, mistake) = (
        "examples/demo-perfect.solution",
        "examples/demo-mistake.solution",
    );
    let exact = 5.0 / 9.0;
    // Three standard errors of a share from 10,000 resamples, and the +1 rule's shift.
    let error = 3.0 * (exact * (1.0 - exact) / 10_000.0f64).sqrt() + 1e-4;
    let mut ps = Vec::new();
    for seed in ["1", "2", "3", "4", "5"] {
        let report = json(&[
            "--benchmark",
            "demo",
            "compare",
            perfect,
            mistake,
            "--format",
            "json",
            "--bootstrap",
            "10000",
            "--seed",
            seed,
        ]);
        for metric in report["metrics"].as_array().expect("metrics") {
            let system = &metric["systems"][1];
            let p = system["p_paired_bootstrap"].as_f64().expect("p");
            assert!((p - exact).abs() <= error, "seed {seed}: {system}");
            assert_eq!(system["p_randomization"], 1.0);
            assert_eq!(system["randomization"], "exact, 2^1 assignments");
            assert_eq!(
                (system["wins"].clone(), system["ties"].clone()),
                (0.into(), 2.into())
            );
            ps.push(p);
        }
    }
    for metric in 0..2 {
        let of_metric: Vec<f64> = ps.iter().skip(metric).step_by(2).copied().collect();
        let low = of_metric.iter().copied().fold(1.0, f64::min);
        let high = of_metric.iter().copied().fold(0.0, f64::max);
        assert!(high - low <= 0.02, "{of_metric:?}");
    }
}

/// The randomization p-value of a pair with at most 20 differing recipes is the share of the
/// 2^n sign assignments, enumerated here from the per-recipe scores `--dump-resamples` writes.
#[test]
fn the_exact_randomization_p_is_the_enumeration_of_the_differing_recipes() {
    common::require_data!();
    let dir = Scratch::new("compare-exact");
    // The gold networks without 7 of them, and without 3 others plus one NIL file.
    let golds = common::solution_files(&gold_dir());
    let (a, b) = (dir.path("a"), dir.path("b"));
    for (folder, left_out) in [(&a, 0..7), (&b, 20..23)] {
        std::fs::create_dir_all(folder).expect("folder");
        for (i, gold) in golds.iter().enumerate() {
            if !left_out.contains(&i) {
                std::fs::copy(gold, folder.join(gold.file_name().expect("name"))).expect("copy");
            }
        }
    }
    std::fs::copy(perturbed_file(NIL[0]), b.join(NIL[0])).expect("copy");
    let dump = dir.path("dump.json");
    let o = outcome(common::evaluator().args([
        "compare",
        path(&a),
        path(&b),
        "--format",
        "json",
        "--offline",
        "--dump-resamples",
        path(&dump),
    ]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "warning: the systems do not solve the same recipes: of the 30 benchmark recipes, {} lacks 8, {} lacks 4; a recipe a system lacks scores 0 in its means\n",
            path(&a),
            path(&b)
        )
    );
    let report: Value = serde_json::from_str(&o.stdout).expect("JSON");
    let dumped: Value = serde_json::from_str(&read(&dump)).expect("JSON");
    for (metric, scores) in report["metrics"]
        .as_array()
        .expect("metrics")
        .iter()
        .zip(dumped["metrics"].as_array().expect("metrics"))
    {
        let of = |k: usize| -> Vec<f64> {
            scores["scores"][k]
                .as_array()
                .expect("scores")
                .iter()
                .map(|v| v.as_f64().expect("score"))
                .collect()
        };
        let diffs: Vec<f64> = of(1)
            .iter()
            .zip(of(0))
            .map(|(s, b)| s - b)
            .filter(|d| *d != 0.0)
            .collect();
        let n = diffs.len();
        assert!((5..=20).contains(&n), "{n} recipes differ");
        let observed = diffs.iter().sum::<f64>().abs();
        let extreme = (0..1u32 << n)
            .filter(|mask| {
                let sum: f64 = (0..n)
                    .map(|i| {
                        if mask >> i & 1 == 1 {
                            -diffs[i]
                        } else {
                            diffs[i]
                        }
                    })
                    .sum();
                sum.abs() >= observed - 1e-9
            })
            .count();
        let system = &metric["systems"][1];
        assert_eq!(
            system["p_randomization"].as_f64(),
            Some(extreme as f64 / f64::from(1u32 << n)),
            "{system}"
        );
        assert_eq!(system["randomization"], format!("exact, 2^{n} assignments"));
    }
}

#[test]
fn the_method_is_named_and_more_than_twenty_differing_recipes_are_sampled() {
    common::require_data!();
    let perturbed = common::rebuilt("2024").join("perturbed");
    let gold = gold_dir();
    let report = json(&[
        "compare",
        path(&perturbed),
        path(&gold),
        "--format",
        "json",
        "--offline",
        "--trials",
        "5000",
        "--metrics",
        "goal-condition-success",
    ]);
    let system = &report["metrics"][0]["systems"][1];
    assert_eq!(system["randomization"], "sampled, 5000 trials");
    assert_eq!(report["randomization_trials"], 5000);
    assert_eq!(report["randomization_exact_up_to"], 20);
    assert_eq!(
        report["metrics"][0]["leaderboard"][1]["randomization"],
        "sampled, 5000 trials"
    );
}

/// Resamples and trials are bounded: past the bound a usage error (exit 2) before any work, never
/// a panic or an allocation of the size asked; under 1,000 a warning.
#[test]
fn out_of_bounds_resamples_and_trials_are_usage_errors() {
    let demo = [
        "--benchmark",
        "demo",
        "compare",
        "examples/demo-perfect.solution",
        "examples/demo-mistake.solution",
    ];
    for (flag, count) in [
        ("--bootstrap", "18446744073709551615"),
        ("--bootstrap", "1000000000"),
        ("--bootstrap", "0"),
        ("--trials", "18446744073709551615"),
        ("--trials", "1000000001"),
        ("--trials", "0"),
    ] {
        let o = outcome(common::evaluator().args(demo).args([flag, count]));
        assert_eq!(o.code, 2, "{flag} {count}: {}", o.stderr);
        assert_eq!(
            o.stderr,
            format!("error: {flag} {count}: expected 1 to 1000000 (1,000 to 100,000 is plenty)\n")
        );
        assert_eq!(o.stdout, "");
    }
    // The same bounds for --ci, in an evaluation and in the report.
    let dir = Scratch::new("compare-bounds");
    let out = dir.path("r.json");
    let ci = [
        "--benchmark",
        "demo",
        "--input",
        "examples/demo-mistake.solution",
        "-output",
        path(&out),
        "--format",
        "json",
        "--ci",
        "--bootstrap",
    ];
    let o = outcome(common::evaluator().args(ci).arg("18446744073709551615"));
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "error: --bootstrap 18446744073709551615: expected 1 to 1000000 (1,000 to 100,000 is plenty)\n"
    );
    assert!(!out.exists());
    let html = dir.path("r.html");
    let o = outcome(common::evaluator().args([
        "--benchmark",
        "demo",
        "report",
        "examples/demo-mistake.solution",
        "-o",
        path(&html),
        "--ci",
        "--bootstrap",
        "1000000000",
    ]));
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(!html.exists());
    // Under 1,000: a warning, and the run goes on.
    let o = outcome(
        common::evaluator()
            .args(demo)
            .args(["--bootstrap", "10", "--trials", "999"]),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "warning: --bootstrap 10: fewer than 1000; the 95 % interval and the p-values will move with the seed\n\
         warning: --trials 999: fewer than 1000; the 95 % interval and the p-values will move with the seed\n"
    );
}

#[test]
fn compare_refuses_to_compare_no_metric() {
    let o = outcome(common::evaluator().args([
        "--benchmark",
        "demo",
        "compare",
        "examples/demo-perfect.solution",
        "examples/demo-mistake.solution",
        "--metrics",
        "none",
    ]));
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "error: --metrics none leaves nothing to compare: name smatch-score, goal-condition-success or dish-approximation-score (default: the last two)\n"
    );
    assert_eq!(o.stdout, "");
}

/// A system that lacks a recipe is warned about, with how many each system lacks.
#[test]
fn systems_that_solve_different_recipes_are_warned_about() {
    let dir = Scratch::new("compare-coverage");
    let perfect = read(Path::new("examples/demo-perfect.solution"));
    // The file without its last recipe.
    let last = perfect.rfind("\n#").expect("three recipes");
    let two = dir.write("two.solution", &perfect[..=last]);
    let o = outcome(common::evaluator().args([
        "--benchmark",
        "demo",
        "compare",
        "examples/demo-perfect.solution",
        path(&two),
    ]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "warning: the systems do not solve the same recipes: of the 3 benchmark recipes, examples/demo-perfect.solution lacks 0, {} lacks 1; a recipe a system lacks scores 0 in its means\n",
            path(&two)
        )
    );
    assert!(o.stdout.contains(" 2/3 "), "{}", o.stdout);
}

/// A system's results (the shard report of a whole run: what `cookingbot.ray.write_system`
/// writes for a scored Dataset) are read, not scored again: `compare` over the results of the
/// gold folder and of a folder with refused, NIL and changed files answers exactly what it
/// answers over the folders themselves, refusals included (their warning names the file).
#[test]
fn a_system_given_as_its_results_compares_as_its_files_do() {
    common::require_data!();
    let dir = Scratch::new("compare-results");
    let mut every = REFUSED.to_vec();
    every.extend(NIL);
    every.push(SWAPPED);
    let mixed = gold_plus(&dir, "mixed", &every);
    let gold = gold_dir();
    let results = |folder: &Path, name: &str, metrics: &str, shard: &str| {
        let out = dir.path(name);
        let o = run(&[
            "--input",
            path(folder),
            "-output",
            path(&out),
            "--format",
            "json",
            "--shard",
            shard,
            "--metrics",
            metrics,
            "--offline",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        out
    };
    let all = "smatch-score,goal-condition-success,dish-approximation-score,execution-time";
    let gold_results = results(&gold, "gold.json", all, "1/1");
    let mixed_results = results(&mixed, "mixed.json", all, "1/1");
    let compare = |systems: [&Path; 2]| {
        let args = [
            "compare",
            path(systems[0]),
            path(systems[1]),
            "--format",
            "json",
            "--metrics",
            "smatch-score,goal-condition-success,dish-approximation-score",
            "--offline",
        ];
        outcome(common::evaluator().args(args))
    };
    let files = compare([&gold, &mixed]);
    let read_back = compare([&gold_results, &mixed_results]);
    assert_eq!((files.code, read_back.code), (0, 0), "{}", read_back.stderr);
    let named = |text: &str, names: [&Path; 2]| {
        text.replace(path(names[0]), "BASELINE")
            .replace(path(names[1]), "SYSTEM")
    };
    assert_eq!(
        named(&read_back.stdout, [&gold_results, &mixed_results]),
        named(&files.stdout, [&gold, &mixed])
    );
    assert_eq!(
        read_back.stderr,
        format!(
            "warning: {}: 2 of 35 files were refused; each scores 0 as a solution of every recipe it names\n",
            path(&mixed_results)
        )
    );
    let report: Value = serde_json::from_str(&read_back.stdout).expect("JSON");
    assert_eq!(report["metrics"].as_array().map(Vec::len), Some(3));
    assert_ne!(mean(&report, 0), mean(&report, 1));

    // Results that cannot stand for what this comparison would score are refused, named.
    let dish_only = results(&gold, "dish.json", "dish-approximation-score", "1/1");
    let half = results(&gold, "half.json", all, "1/2");
    let not_results = dir.path("not-results.json");
    std::fs::write(&not_results, "{\"files\": []}\n").expect("write");
    let refusals = [
        (
            &dish_only,
            format!(
                "error: {}: holds no smatch-score scores (its metrics: dish-approximation-score)\n",
                path(&dish_only)
            ),
        ),
        (
            &half,
            format!(
                "error: {}: holds shard 1/2 of a run: merge the shards into one report first\n",
                path(&half)
            ),
        ),
        (
            &not_results,
            format!(
                "error: {}: not a results report (written by --shard 1/1 --format json or cookingbot.ray.write_system): missing field `signature` at line 1 column 13\n",
                path(&not_results)
            ),
        ),
    ];
    for (system, message) in refusals {
        let o = compare([&gold, system]);
        assert_eq!((o.code, o.stdout.as_str(), o.stderr), (2, "", message));
    }
}
