//! Batch evaluation through the binary: many inputs, directories, the four formats,
//! `--fail-under`, shards and their merge; and the dealing of units to shards.

use crate::common;

use common::{Scratch, gold_dir, read, run, stderr, stdout};
use cookingbot::report::batch_report::Shard;
use cookingbot::service::batch::deal;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A run of the evaluator on `threads` threads.
fn run_with(args: &[&str], threads: &str) -> Output {
    common::evaluator()
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("the binary runs")
}

/// The reference's perturbed solutions (74 files, some refused).
fn perturbed() -> PathBuf {
    common::rebuilt("2024").join("perturbed")
}

fn perturbed_file(name: &str) -> String {
    perturbed().join(name).display().to_string()
}

const GOOD: &str = "afghan-biscuits--duplicate-step--1.solution";
const SWAPPED: &str = "afghan-biscuits--swap-ingredient--1.solution";
const TWO_RECIPES: &str = "almond-crescent-cookies-2--two-recipes--1.solution";
const SYNTAX_ERROR: &str = "broccoli-salad--syntax-error--2.solution";
/// Refused while simulating: an ingredient with no gram conversion.
const NO_CONVERSION: &str = "almond-crescent-cookies-5--drop-rechain--1.solution";

const HEADER: &str = "goal-condition-success,dish-approximation-score,execution-time";

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// The trailing signature line of a batch CSV with the default settings.
fn signature_line() -> String {
    format!(
        "# signature: cookingbot-evaluator {}; profile 2024; kitchen builtin; metrics {}; smatch seed 0, restarts 4, exact no; {}\n",
        env!("CARGO_PKG_VERSION"),
        HEADER,
        common::official_data_signature()
    )
}

#[test]
fn the_output_is_the_same_on_one_thread_and_two() {
    common::require_data!();
    let dir = Scratch::new("threads");
    for format in ["csv", "json", "junit", "markdown"] {
        let outputs: Vec<String> = ["1", "2"]
            .iter()
            .map(|threads| {
                let out = dir.join(format!("{threads}.{format}"));
                let o = run_with(
                    &[
                        "--input",
                        path(&perturbed()),
                        "-output",
                        path(&out),
                        "--format",
                        format,
                    ],
                    threads,
                );
                assert_eq!(o.status.code(), Some(1), "some files are refused");
                read(&out)
            })
            .collect();
        assert_eq!(outputs[0], outputs[1], "{format}");
    }
}

#[test]
fn directories_are_walked_recursively_in_path_order() {
    common::require_data!();
    let dir = Scratch::new("walk");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for (from, to) in [
        (SWAPPED, "sub/b.solution"),
        (GOOD, "c.solution"),
        (TWO_RECIPES, "a.solution"),
        (GOOD, "notes.txt"),
    ] {
        std::fs::copy(perturbed().join(from), dir.join(to)).unwrap();
    }
    let out = dir.join("out/results.csv");
    let o = run(&["--input", path(&dir), "-output", path(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let d = dir.display();
    assert_eq!(
        read(&out),
        format!(
            "file,recipe-id,{HEADER}\n\
             {d}/a.solution,cole-slaw,1.00,1.00,6420\n\
             {d}/a.solution,almond-crescent-cookies-2,1.00,1.00,3190\n\
             {d}/c.solution,afghan-biscuits,1.00,1.00,2735\n\
             {d}/sub/b.solution,afghan-biscuits,0.95,0.82,2735\n{}",
            signature_line()
        )
    );
    assert_eq!(
        stdout(&o),
        "Scored 4 recipes of 3 files; 0 files refused.\nThe simulation process has finished.\n"
    );
}

#[test]
fn explicit_files_keep_their_order() {
    common::require_data!();
    let dir = Scratch::new("order");
    let out = dir.join("results.csv");
    let (swapped, good) = (perturbed_file(SWAPPED), perturbed_file(GOOD));
    let o = run(&["--input", &swapped, "-input", &good, "-output", path(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = read(&out);
    let files: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(files, [swapped.as_str(), good.as_str()]);
}

#[test]
fn one_file_keeps_the_reference_format_and_signs_on_stderr() {
    common::require_data!();
    let dir = Scratch::new("single");
    let out = dir.join("results.csv");
    let o = run(&[
        "-input",
        &perturbed_file(TWO_RECIPES),
        "-output",
        path(&out),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        read(&out),
        format!(
            "recipe-id,{HEADER}\ncole-slaw,1.00,1.00,6420\nalmond-crescent-cookies-2,1.00,1.00,3190\n"
        )
    );
    assert_eq!(
        stderr(&o),
        format!("signature: {}", &signature_line()["# signature: ".len()..])
    );
    assert!(stdout(&o).starts_with("RECIPE: cole-slaw\nGoal-Condition Success: 1.00\n"));
}

#[test]
fn a_refused_file_does_not_stop_the_others() {
    common::require_data!();
    let dir = Scratch::new("refused");
    let (good, syntax, conversion) = (
        perturbed_file(GOOD),
        perturbed_file(SYNTAX_ERROR),
        perturbed_file(NO_CONVERSION),
    );
    let args = |out: &Path, format: &'static str| {
        vec![
            "--input".to_string(),
            syntax.clone(),
            "--input".into(),
            good.clone(),
            "--input".into(),
            conversion.clone(),
            "-output".into(),
            path(out).into(),
            "--format".into(),
            format.into(),
        ]
    };
    let csv = dir.join("r.csv");
    let o = run(&args(&csv, "csv")
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        read(&csv),
        format!(
            "file,recipe-id,{HEADER}\n{good},afghan-biscuits,1.00,1.00,2735\n{}",
            signature_line()
        )
    );
    let err = stderr(&o);
    assert!(err.contains(&format!("{syntax}:11:1")), "{err}");
    assert!(
        err.contains(&format!(
            "error: {conversion}: The ingredient EGG-YOLK has no entry in the conversion table!"
        )),
        "{err}"
    );
    assert!(err.ends_with("error: 2 of 3 files were refused\n"), "{err}");

    let json = dir.join("r.json");
    let o = run(&args(&json, "json")
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&read(&json)).expect("JSON");
    let files = v["files"].as_array().expect("files");
    assert_eq!(files.len(), 3);
    assert_eq!(files[0]["file"], syntax.as_str());
    assert_eq!(files[0]["recipes"], serde_json::json!([]));
    assert!(
        files[0]["refusal"]["message"]
            .as_str()
            .unwrap()
            .starts_with("a line must hold a recipe id")
    );
    assert_eq!(files[1]["refusal"], serde_json::Value::Null);
    assert_eq!(files[1]["recipes"][0]["recipe_id"], "afghan-biscuits");
    assert_eq!(files[1]["recipes"][0]["execution_time"], 2735);
    assert_eq!(
        files[2]["refusal"]["message"],
        "The ingredient EGG-YOLK has no entry in the conversion table!"
    );
    // The recipes each refused file names, whether refused before scoring or while scoring
    // one of its recipes: each scores 0 in the means.
    assert_eq!(
        files[0]["refusal"]["recipes"],
        serde_json::json!(["broccoli-salad"])
    );
    assert_eq!(
        files[2]["refusal"]["recipes"],
        serde_json::json!(["almond-crescent-cookies-5"])
    );
    assert_eq!(v["signature"]["profile"], "2024");
    assert_eq!(v["signature"]["smatch"]["restarts"], 4);

    let md = dir.join("r.md");
    let o = run(&args(&md, "markdown")
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(1));
    let text = read(&md);
    assert!(text.contains(&format!(
        "### {conversion}\n\n**Refused:** The ingredient EGG-YOLK has no entry in the conversion table!\n"
    )));
}

#[test]
fn junit_has_a_test_case_per_recipe_and_per_refused_file() {
    common::require_data!();
    let dir = Scratch::new("junit");
    let out = dir.join("r.xml");
    let (two, swapped, syntax) = (
        perturbed_file(TWO_RECIPES),
        perturbed_file(SWAPPED),
        perturbed_file(SYNTAX_ERROR),
    );
    let o = run(&[
        "--input",
        &two,
        "--input",
        &swapped,
        "--input",
        &syntax,
        "-output",
        path(&out),
        "--format",
        "junit",
        "--fail-under",
        "dish-approximation-score=0.9",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let xml = read(&out);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cookingbot-evaluator\" tests=\"4\" failures=\"2\" errors=\"0\">\n"), "{xml}");
    assert!(xml.ends_with("  </testsuite>\n</testsuites>\n"));
    assert_eq!(xml.matches("<testcase ").count(), 4);
    assert_eq!(xml.matches("</testcase>").count(), 4);
    assert_eq!(xml.matches("<testsuite ").count(), 1);
    assert!(xml.contains("<property name=\"profile\" value=\"2024\"/>"));
    let (gold_sum, kitchen_sum) = common::official_data_sums();
    assert!(xml.contains(&format!(
        "<property name=\"data\" value=\"official\"/>\n      <property name=\"gold-sha256\" value=\"{gold_sum}\"/>\n      <property name=\"kitchen-sha256\" value=\"{kitchen_sum}\"/>\n"
    )), "{xml}");
    assert!(xml.contains(&format!(
        "<testcase classname=\"{two}\" name=\"cole-slaw\">\n      <system-out>goal-condition-success 1.00, dish-approximation-score 1.00, execution-time 6420</system-out>\n    </testcase>"
    )));
    assert!(xml.contains(&format!(
        "<testcase classname=\"{swapped}\" name=\"afghan-biscuits\">\n      <failure type=\"fail-under\" message=\"dish-approximation-score 0.82 is below 0.9\"/>"
    )));
    assert!(xml.contains(&format!(
        "<testcase classname=\"{syntax}\" name=\"(refused)\">\n      <failure type=\"refusal\" message=\"a line must hold a recipe id"
    )));
    // Every element opened is closed; markup in messages is escaped.
    for tag in ["testsuites", "testsuite", "properties", "system-out"] {
        assert_eq!(
            xml.matches(&format!("<{tag}>")).count() + xml.matches(&format!("<{tag} ")).count(),
            xml.matches(&format!("</{tag}>")).count(),
            "{tag}"
        );
    }
}

#[test]
fn markdown_has_a_table_per_file_and_the_means() {
    common::require_data!();
    let dir = Scratch::new("markdown");
    let out = dir.join("r.md");
    let (good, swapped) = (perturbed_file(GOOD), perturbed_file(SWAPPED));
    let o = run(&[
        "--input",
        &good,
        "--input",
        &swapped,
        "-output",
        path(&out),
        "--format",
        "markdown",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = read(&out);
    let table = "| recipe | goal-condition-success | dish-approximation-score | execution-time |\n|---|---:|---:|---:|\n";
    assert!(md.starts_with(&format!(
        "## cookingbot-evaluator results\n\n### {good}\n\n{table}| afghan-biscuits | 1.00 | 1.00 | 2735 |\n\n### {swapped}\n\n{table}| afghan-biscuits | 0.95 | 0.82 | 2735 |\n"
    )), "{md}");
    // Means of the unrounded values.
    assert!(md.contains(
        "### Mean over 2 recipes of 2 files (0 refused)\n\nA recipe without a score counts as 0 in the score's mean, and so does each recipe a refused file names (a file naming none counts once); execution-time averages the recipes that have one.\n\n| metric | mean | coverage |\n|---|---:|---:|\n| goal-condition-success | 0.97 | 2 of 2 |\n"
    ), "{md}");
    assert!(md.contains("| execution-time | 2735.00 | 2 of 2 |\n"));
    assert!(md.ends_with(&format!(
        "<sub>{}</sub>\n",
        signature_line()["# signature: ".len()..].trim_end()
    )));
}

#[test]
fn markdown_means_count_a_recipe_without_execution_as_zero() {
    common::require_data!();
    let dir = Scratch::new("markdown-nil");
    let out = dir.join("r.md");
    let nil = perturbed_file("almond-crescent-cookies-2--drop-line--1.solution");
    let good = perturbed_file(GOOD);
    let o = run(&[
        "--input",
        &good,
        "--input",
        &nil,
        "-output",
        path(&out),
        "--format",
        "markdown",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = read(&out);
    // The same policy as `compare` and `benchmark`: (1.00 + 0) / 2, coverage beside it.
    assert!(
        md.contains("| goal-condition-success | 0.50 | 1 of 2 |\n"),
        "{md}"
    );
    assert!(
        md.contains("| dish-approximation-score | 0.50 | 1 of 2 |\n"),
        "{md}"
    );
    assert!(
        md.contains("| execution-time | 2735.00 | 1 of 2 |\n"),
        "{md}"
    );
}

#[test]
fn fail_under_exits_1_with_a_table_and_nil_fails() {
    common::require_data!();
    let dir = Scratch::new("fail-under");
    let out = dir.join("r.csv");
    let (good, swapped, nil) = (
        perturbed_file(GOOD),
        perturbed_file(SWAPPED),
        perturbed_file("almond-crescent-cookies-2--drop-line--1.solution"),
    );
    let o = run(&[
        "--input",
        &good,
        "--input",
        &swapped,
        "--input",
        &nil,
        "-output",
        path(&out),
        "--fail-under",
        "goal-condition-success=0.95",
        "--fail-under",
        "dish-approximation-score=0.9",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let table: Vec<&str> = err
        .lines()
        .skip_while(|l| *l != "error: values below --fail-under:")
        .skip(1)
        .collect();
    let table: Vec<Vec<&str>> = table
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    // 0.95 prints 0.95: not below 0.95. NIL is below everything.
    assert_eq!(
        table,
        [
            vec!["file", "recipe", "metric", "value", "threshold"],
            vec![
                &swapped,
                "afghan-biscuits",
                "dish-approximation-score",
                "0.82",
                "<",
                "0.9"
            ],
            vec![
                &nil,
                "almond-crescent-cookies-2",
                "goal-condition-success",
                "NIL",
                "<",
                "0.95"
            ],
            vec![
                &nil,
                "almond-crescent-cookies-2",
                "dish-approximation-score",
                "NIL",
                "<",
                "0.9"
            ],
        ],
        "{err}"
    );
    assert!(
        read(&out).starts_with("file,recipe-id,"),
        "results are written all the same"
    );

    let o = run(&[
        "--input",
        &good,
        "--input",
        &swapped,
        "-output",
        path(&out),
        "--fail-under",
        "goal-condition-success=0.95",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let o = run(&[
        "--input",
        &good,
        "-output",
        path(&out),
        "--fail-under",
        "smatch-score=0.5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --fail-under smatch-score needs the metric computed (-metrics ... smatch-score)\n"
    );
    let o = run(&[
        "--input",
        &good,
        "-output",
        path(&out),
        "--fail-under",
        "speed=1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`speed` is not a metric"));
}

/// Run the perturbed directory as `n` shards and merge them into `format`.
fn sharded(dir: &Path, n: usize, format: &str) -> String {
    let mut shards = Vec::new();
    for i in 1..=n {
        let shard = dir.join(format!("shard-{i}-of-{n}.json"));
        let spec = format!("{i}/{n}");
        let o = run(&[
            "--input",
            path(&perturbed()),
            "-output",
            path(&shard),
            "--format",
            "json",
            "--shard",
            &spec,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        shards.push(shard);
    }
    // Shards may be given in any order.
    shards.reverse();
    let out = dir.join(format!("merged-{n}.{format}"));
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(|s| path(s)));
    args.extend(["-o", path(&out), "--format", format]);
    let o = run(&args);
    assert_eq!(
        o.status.code(),
        Some(1),
        "some files are refused: {}",
        stderr(&o)
    );
    read(&out)
}

#[test]
fn merged_shards_are_byte_identical_to_one_run() {
    common::require_data!();
    let dir = Scratch::new("shards");
    for format in ["csv", "json"] {
        let whole = dir.join(format!("whole.{format}"));
        let o = run(&[
            "--input",
            path(&perturbed()),
            "-output",
            path(&whole),
            "--format",
            format,
        ]);
        assert_eq!(o.status.code(), Some(1));
        let whole = read(&whole);
        for n in 1..=3 {
            assert_eq!(sharded(&dir, n, format), whole, "{n} shards, {format}");
        }
    }
}

#[test]
fn merge_refuses_incomplete_or_foreign_shards() {
    common::require_data!();
    let dir = Scratch::new("merge-errors");
    let shard = |spec: &str, metrics: &str| {
        let out = dir.join(format!("{}-{metrics}.json", spec.replace('/', "of")));
        let o = run(&[
            "--input",
            &perturbed_file(GOOD),
            "--input",
            &perturbed_file(TWO_RECIPES),
            "-output",
            path(&out),
            "--format",
            "json",
            "--shard",
            spec,
            "-metrics",
            metrics,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        out
    };
    let one = shard("1/2", "execution-time");
    let two = shard("2/2", "execution-time");
    let foreign = shard("2/2", "smatch-score");
    let out = dir.join("m.csv");
    let o = run(&["merge", path(&one), "-o", path(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: expected shards 1 to 2 once each, got shards 1\n"
    );
    let o = run(&["merge", path(&one), path(&foreign), "-o", path(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: shard 2/2 comes from another run than the first shard given: its signature differs\n"
    );
    assert!(!out.exists());
    let o = run(&["merge", path(&two), path(&one), "-o", path(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let d = perturbed();
    let d = d.display();
    assert_eq!(
        read(&out),
        format!(
            "file,recipe-id,execution-time\n\
             {d}/{GOOD},afghan-biscuits,2735\n\
             {d}/{TWO_RECIPES},cole-slaw,6420\n\
             {d}/{TWO_RECIPES},almond-crescent-cookies-2,3190\n\
             # signature: cookingbot-evaluator {}; profile 2024; kitchen builtin; metrics execution-time; smatch seed 0, restarts 4, exact no; {}\n",
            env!("CARGO_PKG_VERSION"),
            common::official_data_signature()
        )
    );
    let o = run(&[
        "--input",
        &perturbed_file(GOOD),
        "-output",
        path(&out),
        "--shard",
        "1/2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("use it with --format json"));
}

proptest! {
    #[test]
    fn every_unit_lands_in_exactly_one_shard(
        units in proptest::collection::vec((0usize..50, 0usize..8), 0..300),
        count in 1usize..12,
    ) {
        let tagged: Vec<(usize, (usize, usize))> = units.iter().copied().enumerate().collect();
        let mut seen = vec![0usize; tagged.len()];
        let mut sizes = Vec::new();
        for index in 1..=count {
            let dealt = deal(tagged.iter().copied(), 0, Shard { index, count });
            sizes.push(dealt.len());
            let mut last = None;
            for (k, unit) in dealt {
                prop_assert_eq!(unit, units[k]);
                prop_assert!(last < Some(k), "a shard keeps the batch's order");
                last = Some(k);
                seen[k] += 1;
            }
        }
        prop_assert!(seen.iter().all(|&n| n == 1));
        let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
        prop_assert!(max - min <= 1, "shards differ by at most one unit: {:?}", sizes);
        // Batches are read a few files at a time: dealing stretch by stretch from their
        // positions deals the same units as dealing the whole list.
        let shard = Shard { index: 1 + units.len() % count, count };
        let mut stretched = Vec::new();
        for (i, stretch) in tagged.chunks(1 + units.len() % 7).enumerate() {
            stretched.extend(deal(stretch.iter().copied(), i * (1 + units.len() % 7), shard));
        }
        prop_assert_eq!(stretched, deal(tagged.iter().copied(), 0, shard));
    }
}

#[test]
fn compare_finds_gold_significantly_better_than_the_perturbed_set_on_any_thread_count() {
    common::require_data!();
    let (gold, perturbed) = (gold_dir(), perturbed());
    let args = [
        "compare",
        path(&perturbed),
        path(&gold),
        "--format",
        "json",
        "--metrics",
        "goal-condition-success",
        "--offline",
    ];
    let one = run_with(&args, "1");
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let two = run_with(&args, "2");
    assert_eq!(stdout(&one), stdout(&two), "RAYON_NUM_THREADS=1 vs 2");
    assert_eq!(
        stdout(&two),
        stdout(&run_with(&args, "2")),
        "same seed twice"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&one)).expect("JSON");
    let metric = &report["metrics"][0];
    assert_eq!(metric["metric"], "goal-condition-success");
    let system = &metric["systems"][1];
    assert_eq!(system["system"], path(&gold));
    assert_eq!(system["recipes"], 30);
    let difference = system["difference"].as_f64().expect("difference");
    assert!(difference > 0.0, "{system}");
    for test in ["p_paired_bootstrap", "p_randomization"] {
        let p = system[test].as_f64().expect("p-value");
        assert!(p < 0.05, "{test} = {p}");
    }
    let ci = &system["difference_ci"];
    assert!(ci[0].as_f64() <= Some(difference) && Some(difference) <= ci[1].as_f64());
    // The leaderboard: gold first, the perturbed set significantly below it.
    let board = &metric["leaderboard"];
    assert_eq!(board[0]["system"], path(&gold));
    assert_eq!(board[0]["p_against_best"], serde_json::Value::Null);
    assert_eq!(board[1]["rank"], 2);
    assert_eq!(board[1]["system"], path(&perturbed));
    assert_eq!(board[1]["p_against_best"], system["p_randomization"]);
    assert_eq!(board[1]["not_significantly_different_from_best"], false);
    assert_eq!(
        report["leaderboard_test"],
        "paired randomization test against the best, p >= 0.05"
    );
    // Another seed draws other resamples: the intervals move, the means do not.
    let mut reseeded = args.to_vec();
    reseeded.extend(["--seed", "7"]);
    let other: serde_json::Value = serde_json::from_str(&stdout(&run(&reseeded))).expect("JSON");
    assert_eq!(
        other["metrics"][0]["systems"][1]["difference"],
        system["difference"]
    );
    assert_ne!(
        other["metrics"][0]["systems"][1]["difference_ci"],
        system["difference_ci"]
    );
}

#[test]
fn compare_of_a_system_with_itself_finds_no_difference() {
    common::require_data!();
    let gold = gold_dir();
    let out = run(&["compare", path(&gold), path(&gold), "--offline"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let row = text
        .lines()
        .filter(|l| l.starts_with(path(&gold)))
        .nth(1)
        .unwrap_or_else(|| panic!("no system row in\n{text}"));
    let cells: Vec<&str> = row
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        cells[4..],
        [
            "0.0000",
            "[0.0000, 0.0000]",
            "1.0000",
            "1.0000",
            "exact, 2^0 assignments",
            "0/30/0"
        ],
        "{text}"
    );
}

#[test]
fn compare_writes_csv_and_markdown_files() {
    common::require_data!();
    let (gold, dir) = (gold_dir(), Scratch::new("compare-formats"));
    let csv = dir.join("c.csv");
    let args = [
        "compare",
        path(&gold),
        path(&gold),
        "--offline",
        "--format",
        "csv",
        "-o",
    ];
    let o = run(&[&args[..], &[path(&csv)]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let g = path(&gold);
    let text = read(&csv);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "metric,system,mean,95% CI,coverage,difference,difference 95% CI,p (paired bootstrap),p (paired randomization),randomization,wins/ties/losses"
    );
    assert!(
        lines[1].starts_with(&format!("goal-condition-success,{g},")),
        "{text}"
    );
    assert!(lines[1].ends_with(",29/30,baseline,,,,,"), "{text}");
    assert!(
        lines[2].ends_with(
            ",29/30,0.0000,\"[0.0000, 0.0000]\",1.0000,1.0000,\"exact, 2^0 assignments\",0/30/0"
        ),
        "{text}"
    );
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(
        lines[5],
        "# bootstrap resamples 1000, randomization exact over the 2^n sign assignments when n ≤ 20 recipes differ, else 10000 sampled trials, seed 12345; a recipe a system lacks scores 0; a recipe solved several times scores the mean of its solutions, a refused or NIL one scoring 0"
    );
    let md = dir.join("c.md");
    let o = run(&[
        "compare",
        g,
        g,
        "--offline",
        "--format",
        "markdown",
        "-o",
        path(&md),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = read(&md);
    assert!(
        text.starts_with(
            "## Goal-Condition Success\n\n| system | mean | 95% CI | coverage | difference |"
        ),
        "{text}"
    );
    assert!(text.contains("\n## Dish Approximation Score\n"), "{text}");
}

#[test]
fn compare_refuses_execution_time_and_a_missing_system() {
    common::require_data!();
    let gold = gold_dir();
    let out = run(&[
        "compare",
        path(&gold),
        path(&gold),
        "--metrics",
        "execution-time",
        "--offline",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: execution-time cannot be compared: a recipe without an execution has no time, and scoring it 0 would reward it\n"
    );
    let out = run(&["compare", path(&gold), "no-such-dir", "--offline"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no-such-dir: no such file or directory\n"
    );
}

/// `--ci` adds each mean's 95 % bootstrap interval. With a perfect recipe and one without
/// execution, a resample's mean is 0, 0.5 or 1, with 0 and 1 each a quarter of the 1000
/// resamples, far more than the 25 the percentile interval cuts off at either end: [0, 1].
/// Execution time has one row with a value: its interval is that value.
#[test]
fn ci_adds_the_bootstrap_interval_to_the_means() {
    common::require_data!();
    let dir = Scratch::new("ci");
    let (good, nil) = (
        perturbed_file(GOOD),
        perturbed_file("almond-crescent-cookies-2--drop-line--1.solution"),
    );
    let md = dir.join("r.md");
    let args = ["--input", &good, "--input", &nil, "-output", path(&md)];
    let o = run(&[&args[..], &["--format", "markdown", "--ci"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = read(&md);
    assert!(
        text.contains(
            "| metric | mean | 95% CI | coverage |\n|---|---:|---:|---:|\n\
             | goal-condition-success | 0.50 | [0.00, 1.00] | 1 of 2 |\n\
             | dish-approximation-score | 0.50 | [0.00, 1.00] | 1 of 2 |\n\
             | execution-time | 2735.00 | [2735.00, 2735.00] | 1 of 2 |\n\
             \n95% CI: percentile bootstrap over the rows the mean averages, 1000 resamples, seed 12345.\n"
        ),
        "{text}"
    );
    // Without --ci, no interval anywhere.
    let o = run(&[&args[..], &["--format", "markdown"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!read(&md).contains("95% CI"));

    // JSON: the summary holds the interval `compare` would draw for these rows and seed.
    let gold = gold_dir();
    let json = dir.join("r.json");
    let base = [
        "--input",
        path(&gold),
        "-output",
        path(&json),
        "--format",
        "json",
    ];
    let o = run(&base);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plain: serde_json::Value = serde_json::from_str(&read(&json)).expect("JSON");
    assert_eq!(plain.get("summary"), None);
    let o = run(&[&base[..], &["--ci", "--bootstrap", "200", "--seed", "7"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&read(&json)).expect("JSON");
    assert_eq!(v["files"], plain["files"]);
    let summary = &v["summary"];
    assert_eq!(summary["bootstrap_resamples"], 200);
    assert_eq!(summary["seed"], 7);
    let goals: Vec<f64> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["recipes"].as_array().unwrap())
        .map(|r| r["goal_condition_success"]["value"].as_f64().unwrap_or(0.0))
        .collect();
    assert_eq!(goals.len(), 30);
    use cookingbot::metrics::significance::{Resamples, bootstrap_interval};
    let expected = bootstrap_interval(&goals, &Resamples::draw(30, 200, 7));
    let gcs = &summary["metrics"][0];
    assert_eq!(gcs["metric"], "goal-condition-success");
    assert_eq!(gcs["ci"], serde_json::json!([expected.low, expected.high]));
    assert!(expected.low < gcs["mean"].as_f64().unwrap());
    assert!(gcs["mean"].as_f64().unwrap() < expected.high);
    assert_eq!(
        (gcs["with_value"].clone(), gcs["rows"].clone()),
        (30.into(), 30.into())
    );

    // Only the summary formats take it.
    let o = run(&[&base[..4], &["--ci"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --ci adds intervals to the means of the summary: use it with --format markdown or json\n"
    );
}
