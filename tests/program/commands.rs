//! The command line as users run it: the built binary, the benchmark data the tests found.

use crate::common;

use common::{Scratch, run, stderr, stdout};
use std::path::Path;
use std::process::Output;

/// A gold network's path, as a command-line argument.
fn gold(id: &str) -> String {
    common::gold_file(id).display().to_string()
}

/// A documentation example's path, as a command-line argument.
fn example(name: &str) -> String {
    common::examples_dir().join(name).display().to_string()
}

#[test]
fn simulate_shows_steps_time_and_final_dish() {
    common::require_data!();
    let o = run(&["simulate", &gold("almond-crescent-cookies")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    for want in [
        "execution: yes",
        "execution time: 2600",
        "final dish (output of line 28, the dish approximation score's best candidate, 1.00 against the gold dish):",
        "  baking-tray [used, lined-with baking-paper, arrangement side-to-side (concept)]",
        "    32 × homogeneous-mixture 25 g [temperature 175 degrees-celsius, current-shape crescent-shape (concept), baked, mixed]",
        "        powdered-white-sugar 0.909 g",
        "          butter 65.71 % [temperature 18 degrees-celsius]",
        "   1650   2550    27  (bake ?baked-crescents ?ks-with-baked-crescents ?ks-with-crescents-tray ?tray-with-crescents ?oven 15 minute 175 degrees-celsius)",
    ] {
        assert!(lines.contains(&want), "missing line {want:?} in\n{out}");
    }
    assert!(!out.contains("actions that never ran"));
}

#[test]
fn simulate_trace_shows_every_argument() {
    common::require_data!();
    let o = run(&["simulate", "--trace", &gold("almond-crescent-cookies")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.trim()
                == "kitchen-state-in: ?kitchen = kitchen-state at 0 (available at 0.0)"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.trim() == "unit: g = g (concept) (available at -)")
    );
}

#[test]
fn simulate_json_has_steps_and_time() {
    common::require_data!();
    let o = run(&["simulate", "--json", &gold("almond-crescent-cookies")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let answer: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(answer["refused"], serde_json::Value::Null);
    let v = &answer["report"];
    assert_eq!(v["execution_time"], 2600);
    assert_eq!(v["solved"], true);
    assert_eq!(v["steps"].as_array().map(Vec::len), Some(27));
    assert_eq!(v["steps"][26]["start"], 1680);
    assert_eq!(v["steps"][26]["end"], 2600);
    assert_eq!(v["dish"]["line"], 28);
    assert_eq!(v["dish"]["tree"]["class"], "baking-tray");
    assert_eq!(v["dish"]["tree"]["parts"][0]["count"], 32);
}

#[test]
fn simulate_explains_a_recipe_without_execution() {
    let dir = Scratch::new("unsolved");
    let file = dir.write("partial.solution",
        "#almond-crescent-cookies\n(get-kitchen ?k)\n(fetch-and-proportion ?b ?ks2 ?k ?c butter 230 g)\n(mix ?m ?ks3 ?ks9 ?b ?tool)\n",
    ).display().to_string();
    let o = run(&["simulate", &file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("execution: NIL (1 action(s) could not run: mix (action 3) lacks ?ks9)\n"),
        "{out}"
    );
    assert!(out.contains("execution time: NIL\n"));
    assert!(!out.contains("final dish"));
}

/// Separated yolks as the last output: the run works, but the dish approximation score cannot
/// weigh egg-yolk (no gram conversion), so the evaluator refuses the file as the reference
/// does, and `simulate` says so at that action instead of showing another dish.
#[test]
fn simulate_fails_where_the_dish_score_fails_as_evaluation_does() {
    common::require_data!();
    let dir = Scratch::new("yolk");
    let file = dir.write("yolk.solution",
        "#almond-crescent-cookies\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?egg ?ks-1 ?kitchen ?bowl egg 1 piece)\n(separate-eggs ?yolk ?white ?ks-2 ?ks-1 ?egg ?bowl-2 ?bowl-3 ?separator)\n",
    ).display().to_string();
    let cause = "The ingredient EGG-YOLK has no entry in the conversion table!";
    let output = dir.join("results.csv");
    let evaluated = run(&["-input", &file, "-output", &output.display().to_string()]);
    assert_eq!(evaluated.status.code(), Some(1));
    assert!(
        stderr(&evaluated).starts_with(&format!("error: {file}: {cause}\n")),
        "{}",
        stderr(&evaluated)
    );
    assert!(!output.exists());

    let o = run(&["simulate", &file]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {file}:4:1: (separate-eggs ?yolk ?white ?ks-2 ?ks-1 ?egg ?bowl-2 ?bowl-3 ?separator): the dish approximation score fails: {cause} (the evaluator refuses the file, as the reference does)\n"
        )
    );
    let out = stdout(&o);
    assert!(
        out.contains("execution: yes\nexecution time: 35\n"),
        "{out}"
    );
    assert!(!out.contains("final dish"), "{out}");
}

#[test]
fn json_evaluation_keeps_the_detail() {
    common::require_data!();
    let dir = Scratch::new("json");
    let output = dir.join("results.json");
    let o = run(&[
        "-input",
        &example("wrong-ingredient.solution"),
        "-output",
        &output.display().to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&output).expect("JSON written");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let r = &v["recipes"][0];
    assert_eq!(r["recipe_id"], "almond-crescent-cookies");
    assert_eq!(r["goal_condition_success"]["numerator"], 11);
    assert_eq!(r["goal_condition_success"]["denominator"], 26);
    let dish = r["dish_approximation_score"].as_f64().expect("a score") as f32;
    assert_eq!(
        cookingbot::base::number::two_decimals(cookingbot::base::number::Number::float(dish)),
        "0.76"
    );
    assert_eq!(r["execution_time"], 2600);
    assert_eq!(r["missed_goals"].as_array().map(Vec::len), Some(15));
    assert_eq!(
        r["missed_goals"][0]["gold_text"],
        "(fetch-and-proportion ?proportioned-sugar ?ks-with-sugar ?ks-with-warm-butter ?target-container-2 white-sugar 120 g)"
    );
    assert_eq!(r["smatch"], serde_json::Value::Null);
    assert_eq!(v["signature"]["profile"], "2024");
    assert_eq!(v["signature"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["signature"]["smatch"]["restarts"], 4);
}

#[test]
fn csv_stays_the_default() {
    common::require_data!();
    let dir = Scratch::new("csv");
    let output = dir.join("results.csv");
    let o = run(&[
        "-input",
        &example("wrong-ingredient.solution"),
        "-output",
        &output.display().to_string(),
        "-lib-dir",
        "/nowhere",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&output).expect("CSV written"),
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n\
         almond-crescent-cookies,0.42,0.76,2600\n"
    );
}

#[test]
fn unknown_recipe_names_the_closest_ids_and_writes_nothing() {
    common::require_data!();
    let dir = Scratch::new("unknown");
    let input = dir
        .write(
            "typo.solution",
            "#almond-crescent-cookie\n(get-kitchen ?kitchen)\n",
        )
        .display()
        .to_string();
    let output = dir.join("results.csv");
    let o = run(&["-input", &input, "-output", &output.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("did you mean `almond-crescent-cookies`, `almond-crescent-cookies-2`, `almond-crescent-cookies-3`?"),
        "{err}"
    );
    assert!(!output.exists());
}

#[test]
fn malformed_kitchen_is_refused_clearly() {
    common::require_data!();
    let dir = Scratch::new("kitchen");
    let kitchen = dir
        .write("kitchen.json", "{\"kitchen\": [1")
        .display()
        .to_string();
    let o = run(&[
        "simulate",
        "--kitchen",
        &kitchen,
        &gold("almond-crescent-cookies"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("error: {kitchen}:1:14: not a usable kitchen file: EOF while parsing a list\n")
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn a_kitchen_of_the_other_profile_or_of_none_is_refused() {
    common::require_data!();
    let kitchens = Path::new(env!("CARGO_MANIFEST_DIR")).join("kitchens");
    let of_2023 = kitchens.join("full-kitchen-2023.json");
    let of_2023 = of_2023.to_str().unwrap();
    let o = run(&[
        "simulate",
        "--kitchen",
        of_2023,
        &gold("almond-crescent-cookies"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {of_2023}:1:2: not a usable kitchen file: profile: a kitchen of profile 2023, not 2024: pass --reference 2023, or a kitchen of profile 2024\n"
        )
    );
    let dir = Scratch::new("kitchen-profile");
    let text = std::fs::read_to_string(kitchens.join("full-kitchen-2024.json")).unwrap();
    let unnamed = dir.write("k.json", text.replacen("\"profile\": \"2024\",", "", 1));
    let unnamed = unnamed.to_str().unwrap();
    let o = run(&[
        "simulate",
        "--kitchen",
        unnamed,
        &gold("almond-crescent-cookies"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).ends_with(
            "the kitchen names no profile (`\"profile\": \"2024\"` at its top, as in kitchens/)\n"
        ),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "simulate",
        "--kitchen",
        &kitchens
            .join("full-kitchen-2024.json")
            .display()
            .to_string(),
        &gold("almond-crescent-cookies"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Copy the folder `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The signature says which data scored the run: the published benchmark is `official`; a
/// copy with one gold character changed is `modified`, with one warning.
#[test]
fn a_changed_gold_file_makes_the_signature_say_modified() {
    common::require_data!();
    let dir = Scratch::new("modified");
    let copy = dir.join("benchmark");
    copy_tree(&common::benchmark_dir().join("data"), &copy.join("data"));
    let changed =
        copy.join("data/gold-standard-solutions/meaning-only/almond-crescent-cookies.solution");
    let text = std::fs::read_to_string(&changed).unwrap();
    assert_eq!(text.matches("butter 230 g").count(), 1);
    std::fs::write(&changed, text.replace("butter 230 g", "butter 231 g")).unwrap();
    let evaluate = |benchmark: &Path| {
        run(&[
            "--input",
            &example("wrong-ingredient.solution"),
            "--output",
            "-",
            "--format",
            "json",
            "--benchmark",
            &benchmark.display().to_string(),
        ])
    };
    let signature = |o: &Output| {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        v["signature"]["data"].clone()
    };

    let official = evaluate(&common::benchmark_dir());
    assert_eq!(official.status.code(), Some(0), "{}", stderr(&official));
    assert!(
        !stderr(&official).contains("warning"),
        "{}",
        stderr(&official)
    );
    let official = signature(&official);
    let (gold_sum, kitchen_sum) = common::official_data_sums();
    assert_eq!(
        official,
        serde_json::json!({"status": "official", "gold_sha256": gold_sum, "kitchen_sha256": kitchen_sum})
    );

    let modified = evaluate(&copy);
    assert_eq!(modified.status.code(), Some(0), "{}", stderr(&modified));
    let warning = "warning: the gold data is not the published benchmark's (data/gold-standard-solutions/meaning-only/almond-crescent-cookies.solution has SHA-256 ";
    assert_eq!(
        stderr(&modified).matches(warning).count(),
        1,
        "{}",
        stderr(&modified)
    );
    assert_eq!(stderr(&modified).matches("warning").count(), 1);
    let modified = signature(&modified);
    assert_eq!(modified["status"], "modified");
    assert_ne!(modified["gold_sha256"], official["gold_sha256"]);
    assert_eq!(modified["kitchen_sha256"], official["kitchen_sha256"]);
    assert_eq!(modified["gold_sha256"].as_str().map(str::len), Some(64));

    // The demo is neither.
    let demo = run(&[
        "--input",
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/demo-mistake.solution")
            .display()
            .to_string(),
        "--output",
        "-",
        "--format",
        "markdown",
        "--benchmark",
        "demo",
    ]);
    assert_eq!(demo.status.code(), Some(0), "{}", stderr(&demo));
    assert!(
        stdout(&demo).contains("; data demo, gold sha256 "),
        "{}",
        stdout(&demo)
    );
}

/// The cells of a CSV line after its first `skip` fields.
fn cells(line: &str, skip: usize) -> Vec<String> {
    line.split(',').skip(skip).map(str::to_string).collect()
}

/// `benchmark --translator rules --out OUT MORE...`.
fn rules_benchmark(out: &Path, more: &[&str]) -> Output {
    let out = out.display().to_string();
    let mut args = vec!["benchmark", "--translator", "rules", "--out", &out];
    args.extend(more);
    run(&args)
}

/// A `samples` that is a link is never replaced: the run stops before any work, writing nothing.
#[test]
fn benchmark_refuses_a_samples_link_and_writes_nothing() {
    common::require_data!();
    let dir = Scratch::new("benchmark-samples-link");
    let out = dir.path("run");
    let elsewhere = dir.path("elsewhere");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("samples")).unwrap();
    let o = rules_benchmark(&out, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {}: a link or a file, not a folder of samples; nothing was written\n",
            out.join("samples").display()
        )
    );
    assert!(out.join("samples").symlink_metadata().unwrap().is_symlink());
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn benchmark_samples_rescore_to_its_table_and_its_means_are_the_reports() {
    common::require_data!();
    let dir = Scratch::new("benchmark-samples");
    let out = dir.path("run");
    let o = rules_benchmark(&out, &["-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = common::read(&out.join("baseline-rules.csv"));
    let (mean_line, recipe_lines) = {
        let mut lines: Vec<&str> = table.lines().skip(1).collect();
        (lines.pop().unwrap(), lines)
    };
    // Every sample is stored, numbered from 0, with its record beside it.
    for line in &recipe_lines {
        let id = line.split(',').next().unwrap();
        let stored = out.join("samples").join(id);
        let solution = common::read(&stored.join("0.solution"));
        assert!(solution.starts_with(&format!("#{id}\n")), "{solution}");
        let record: serde_json::Value =
            serde_json::from_str(&common::read(&stored.join("0.json"))).unwrap();
        assert_eq!(record["recipe"], *id);
        assert_eq!(record["sample"], 0);
        assert_eq!(record["translator"], "rules");
        assert_eq!(record["input_sha256"].as_str().map(str::len), Some(64));
    }
    // Re-scoring the samples gives the table's values, recipe by recipe.
    let samples = out.join("samples").display().to_string();
    let metrics = [
        "-metrics",
        "smatch-score",
        "goal-condition-success",
        "dish-approximation-score",
        "execution-time",
    ];
    let rescored = dir.path("rescored.csv").display().to_string();
    let mut args = vec!["-input", &samples, "-output", &rescored, "-q"];
    args.extend(metrics);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut want: Vec<Vec<String>> = recipe_lines
        .iter()
        .map(|l| cells(l, 0)[..5].to_vec())
        .collect();
    let mut got: Vec<Vec<String>> = common::read(Path::new(&rescored))
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .map(|l| cells(l, 1))
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    assert!(want.iter().any(|row| row.contains(&"NIL".to_string())));
    // The mean line is the summary `evaluate` (and every report) prints of the same rows,
    // the recipe scored NIL counting as 0 in the scores and left out of the time.
    let summary = dir.path("summary.json").display().to_string();
    let mut args = vec![
        "-input",
        &samples,
        "-output",
        &summary,
        "--format",
        "json",
        "--ci",
        "--bootstrap",
        "10",
        "-q",
    ];
    args.extend(metrics);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value =
        serde_json::from_str(&common::read(Path::new(&summary))).unwrap();
    let means: Vec<String> = report["summary"]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mean = m["mean"].as_f64().unwrap();
            if m["metric"] == "execution-time" {
                let timed = want.iter().filter(|row| row[4] != "NIL").count();
                assert_eq!(m["with_value"].as_u64(), Some(timed as u64));
                format!("{mean:.1}")
            } else {
                format!("{mean:.3}")
            }
        })
        .collect();
    assert_eq!(cells(mean_line, 1)[..4], means[..]);
}

/// `ray-score` runs Ray's driver in `$COOKINGBOT_PYTHON`: a Python that cannot be run is named
/// with what to install (exit 2, nothing written), and the data options the cluster's workers
/// would not see are refused.
#[test]
fn ray_score_names_the_python_it_cannot_run_and_refuses_what_the_workers_ignore() {
    let dir = Scratch::new("ray-score-python");
    let out = dir.path("r.csv");
    let missing = dir.path("no-python");
    let args = [
        "ray-score",
        "--input",
        "in/",
        "-output",
        out.to_str().expect("UTF-8"),
    ];
    let o = common::outcome(
        common::evaluator()
            .env("COOKINGBOT_PYTHON", &missing)
            .args(args),
    );
    let expected = format!(
        "error: ray-score runs Ray's driver in Python, and `{}` could not be run (No such file or directory (os error 2)): install Python with `pip install \"cookingbot[ray]\"`, or set COOKINGBOT_PYTHON to the Python that has it\n",
        missing.display()
    );
    assert_eq!((o.code, o.stdout.as_str(), o.stderr), (2, "", expected));
    assert!(!out.exists());
    for given in [&["--timeout-per-recipe", "5"][..], &["--offline"]] {
        let o = common::outcome(
            common::evaluator()
                .env("COOKINGBOT_PYTHON", &missing)
                .args(args)
                .args(given),
        );
        assert_eq!(o.code, 2);
        let refusal = format!(
            "error: `ray-score` hands the cluster's workers --reference, --benchmark and --kitchen only: {} would do nothing\n",
            given[0]
        );
        assert!(o.stderr.starts_with(&refusal), "{}", o.stderr);
    }
}
