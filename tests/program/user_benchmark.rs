//! A user benchmark (`new-benchmark`, `add-recipe`, `--benchmark DIR`) of two recipes written
//! for these tests (`tests/fixtures/user-benchmark/`), scored by every command, and a gold
//! network given alone (`--gold`).

use crate::common::{self, Outcome, Scratch, evaluator, outcome};
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataStatus;
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::MetricSet;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/user-benchmark");
const RECIPES: [&str; 2] = ["tomato-basil-salad", "mango-lime-cups"];
const ALL_METRICS: [&str; 5] = [
    "-metrics",
    "smatch-score",
    "goal-condition-success",
    "dish-approximation-score",
    "execution-time",
];

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

fn run_in(dir: &Path, args: &[&str]) -> Outcome {
    outcome(evaluator().current_dir(dir).args(args))
}

/// `add-recipe --benchmark bench` run in `dir`.
fn add_recipe(dir: &Path, text: &Path, gold: &Path) -> Outcome {
    let mut command = evaluator();
    command
        .current_dir(dir)
        .args(["add-recipe", "--benchmark", "bench"]);
    outcome(command.arg("--text").arg(text).arg("--gold").arg(gold))
}

/// `--benchmark bench -input INPUT -output - MORE...` run in `dir`.
fn score(dir: &Path, input: &str, more: &[&str]) -> Outcome {
    let mut args = vec!["--benchmark", "bench", "-input", input, "-output", "-"];
    args.extend(more);
    run_in(dir, &args)
}

/// Every line of `lines` is in the run's standard output.
fn assert_lines(run: &Outcome, lines: &[&str]) {
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in lines {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
}

/// `new-benchmark bench` and both recipes added in `scratch`.
fn two_recipe_benchmark(scratch: &Scratch) {
    let made = run_in(scratch, &["new-benchmark", "bench"]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    for id in RECIPES {
        let text = fixture(&format!("{id}.txt"));
        let gold = fixture(&format!("{id}.solution"));
        let added = add_recipe(scratch, &text, &gold);
        assert_eq!(added.code, 0, "{}", added.stderr);
        assert_eq!(
            added.stdout,
            format!("added `{id}` (dish ?{id}) to bench\n")
        );
    }
}

/// The library's evaluator reads a user benchmark's folder as the command line does.
#[test]
fn the_library_opens_a_user_benchmark_by_its_folder() {
    let scratch = Scratch::new("user-benchmark-library");
    two_recipe_benchmark(&scratch);
    let evaluator = Evaluator::new(Profile::R2024, scratch.path("bench")).expect("the benchmark");
    assert_eq!(evaluator.benchmark.fingerprint.status, DataStatus::User);
    assert_eq!(
        evaluator.benchmark.ids(),
        ["mango-lime-cups", "tomato-basil-salad"]
    );
    let gold = common::read(&fixture("mango-lime-cups.solution"));
    let results = evaluator
        .evaluate(&gold, &MetricSet::default())
        .expect("scored");
    assert_eq!(results[0].dish_approximation_score, Some(1.0));
}

/// The mango recipe with one mistake: one mango fetched where the gold fetches two.
fn one_mistake(scratch: &Scratch) -> PathBuf {
    let gold = common::read(&fixture("mango-lime-cups.solution"));
    let wrong = gold.replace("mango 2 piece", "mango 1 piece");
    assert_ne!(wrong, gold);
    scratch.write("mistake.solution", wrong)
}

#[test]
fn add_recipe_copies_the_files_and_writes_a_sorted_manifest() {
    let scratch = Scratch::new("user-benchmark-manifest");
    two_recipe_benchmark(&scratch);
    let manifest = common::read(&scratch.path("bench/benchmark.json"));
    let entry = |id: &str| {
        format!(
            r#"    {{
      "id": "{id}",
      "gold_file": "data/gold-standard-solutions/meaning-only/{id}.solution",
      "gold_file_header": "{id}",
      "primary_output_var": "?{id}",
      "recipe_text": "data/recipe-texts/{id}.txt"
    }}"#
        )
    };
    assert_eq!(
        manifest,
        format!(
            "{{\n  \"official_recipes\": [],\n  \"recipes\": [\n{},\n{}\n  ]\n}}\n",
            entry("mango-lime-cups"),
            entry("tomato-basil-salad")
        )
    );
    for id in RECIPES {
        let copied = scratch.path(&format!(
            "bench/data/gold-standard-solutions/meaning-only/{id}.solution"
        ));
        assert_eq!(
            common::read(&copied),
            common::read(&fixture(&format!("{id}.solution")))
        );
        let text = scratch.path(&format!("bench/data/recipe-texts/{id}.txt"));
        assert_eq!(
            common::read(&text),
            common::read(&fixture(&format!("{id}.txt")))
        );
    }
    // A benchmark already there is left alone.
    let again = run_in(&scratch, &["new-benchmark", "bench"]);
    assert_eq!(
        (again.code, again.stdout.as_str()),
        (0, "bench is already a benchmark\n")
    );
    assert_eq!(
        common::read(&scratch.path("bench/benchmark.json")),
        manifest
    );
}

#[test]
fn every_command_scores_against_a_user_benchmark() {
    let scratch = Scratch::new("user-benchmark-commands");
    two_recipe_benchmark(&scratch);
    let both = [RECIPES[0], RECIPES[1]]
        .map(|id| common::read(&fixture(&format!("{id}.solution"))))
        .concat();
    scratch.write("gold.solution", both);
    let perfect = score(&scratch, "gold.solution", &ALL_METRICS);
    assert_eq!(perfect.code, 0, "{}", perfect.stderr);
    assert!(perfect.stdout.starts_with(
        "recipe-id,smatch-score,goal-condition-success,dish-approximation-score,execution-time\n\
         mango-lime-cups,1.00,1.00,1.00,270\n\
         tomato-basil-salad,1.00,1.00,1.00,350\n"
    ));
    assert!(
        perfect.stderr.contains("; data user, gold sha256 "),
        "{}",
        perfect.stderr
    );

    one_mistake(&scratch);
    let mistaken = score(&scratch, "mistake.solution", &ALL_METRICS);
    assert_eq!(mistaken.code, 0, "{}", mistaken.stderr);
    let row = "mango-lime-cups,0.99,0.56,0.98,270\n";
    assert!(mistaken.stdout.contains(row), "{}", mistaken.stdout);
    let json = score(&scratch, "mistake.solution", &["--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON report");
    let recipe = &report["recipes"][0];
    assert_eq!(report["signature"]["data"]["status"], "user");
    assert_eq!(recipe["goal_condition_success"]["numerator"], 5);
    assert_eq!(recipe["goal_condition_success"]["denominator"], 9);
    assert_eq!(recipe["dish_approximation_score"], 0.9755001);

    let check = run_in(
        &scratch,
        &["--benchmark", "bench", "check", "mistake.solution"],
    );
    assert_eq!(check.code, 0, "{}", check.stderr);

    let report = run_in(
        &scratch,
        &[
            "--benchmark",
            "bench",
            "report",
            "mistake.solution",
            "-o",
            "mistake.html",
        ],
    );
    assert_eq!(report.code, 0, "{}", report.stderr);
    let page = common::read(&scratch.path("mistake.html"));
    assert!(page.contains("mango-lime-cups") && page.contains("user"));

    let simulate = run_in(
        &scratch,
        &["--benchmark", "bench", "simulate", "mistake.solution"],
    );
    assert_eq!(simulate.code, 0, "{}", simulate.stderr);
    assert!(simulate.stdout.contains(
        "final dish (output of line 11, the dish approximation score's best candidate, 0.98 against the gold dish):"
    ), "{}", simulate.stdout);
    assert!(
        simulate.stdout.contains("execution time: 270"),
        "{}",
        simulate.stdout
    );

    for (system, solutions) in [("gold", "gold.solution"), ("mine", "mistake.solution")] {
        std::fs::create_dir(scratch.path(system)).expect("system folder");
        std::fs::copy(
            scratch.path(solutions),
            scratch.path(&format!("{system}/a.solution")),
        )
        .expect("copied");
    }
    std::fs::copy(
        fixture("tomato-basil-salad.solution"),
        scratch.path("mine/b.solution"),
    )
    .expect("copied");
    let compare = run_in(
        &scratch,
        &["--benchmark", "bench", "compare", "gold", "mine"],
    );
    assert_eq!(compare.code, 0, "{}", compare.stderr);
    // One recipe of two differs: a resample drawing it once (half of them) is the only one
    // less extreme than observed, so the bootstrap p is about 1/2; randomization enumerates
    // its two sign assignments, both as extreme.
    assert_lines(
        &compare,
        &[
            "gold    1.0000  [1.0000, 1.0000]  2/2       baseline",
            "mine    0.7778  [0.5556, 1.0000]  2/2       -0.2222     [-0.4444, 0.0000]  0.4935                1.0000                    exact, 2^1 assignments  0/1/1",
            "mine    0.9878  [0.9755, 1.0000]  2/2       -0.0122     [-0.0245, 0.0000]  0.4935                1.0000                    exact, 2^1 assignments  0/1/1",
        ],
    );

    let rules = run_in(
        &scratch,
        &[
            "--benchmark",
            "bench",
            "benchmark",
            "--translator",
            "rules",
            "--out",
            "rules",
        ],
    );
    assert_eq!(rules.code, 0, "{}", rules.stderr);
    assert_lines(
        &rules,
        &[
            "| mango-lime-cups | 0.94 | 0.44 | 1.00 | 240 | 1/1 | 1.00 |",
            "| tomato-basil-salad | 0.96 | 1.00 | 1.00 | 350 | 1/1 | 1.00 |",
            "| **mean** | 0.950 | 0.722 | 0.999 | 295.0 (2 recipes) | | 1.000 |",
        ],
    );
}

/// `--gold FILE` scores as the benchmark does, without one; `--dish` names another variable.
#[test]
fn a_gold_network_given_alone_scores_as_through_the_benchmark() {
    let scratch = Scratch::new("user-benchmark-gold");
    two_recipe_benchmark(&scratch);
    one_mistake(&scratch);
    let gold = fixture("mango-lime-cups.solution");
    let gold = gold.to_str().expect("UTF-8 path");
    let mut alone = vec!["--gold", gold, "-input", "mistake.solution", "-output", "-"];
    alone.extend(ALL_METRICS);
    let through = score(&scratch, "mistake.solution", &ALL_METRICS);
    let alone = run_in(&scratch, &alone);
    assert_eq!((through.code, alone.code), (0, 0), "{}", alone.stderr);
    let csv = |o: &Outcome| o.stdout.lines().take(2).collect::<Vec<_>>().join("\n");
    assert_eq!(csv(&alone), csv(&through));
    assert_eq!(
        csv(&alone).lines().nth(1),
        Some("mango-lime-cups,0.99,0.56,0.98,270")
    );
    assert!(
        alone.stderr.contains("; data user, gold sha256 "),
        "{}",
        alone.stderr
    );

    // `--dish` names another variable of the gold: the bowl before its contents are mingled.
    let before_mingling = run_in(
        &scratch,
        &[
            "--gold",
            gold,
            "--dish",
            "?output-container-c",
            "-input",
            "mistake.solution",
            "-output",
            "-",
            "-q",
        ],
    );
    assert_eq!(
        (before_mingling.code, before_mingling.stdout.as_str()),
        (
            0,
            "recipe-id,goal-condition-success,dish-approximation-score,execution-time\nmango-lime-cups,0.56,0.65,270\n"
        )
    );
    let unknown = run_in(
        &scratch,
        &[
            "--gold",
            gold,
            "--dish",
            "?no-such-var",
            "-input",
            "mistake.solution",
            "-output",
            "-",
        ],
    );
    assert_eq!(
        (unknown.code, unknown.stderr.as_str()),
        (2, format!("error: {gold}: not a valid gold network: it has no variable ?no-such-var (--dish)\n").as_str())
    );
}

#[test]
fn user_benchmark_errors_are_located_and_change_nothing() {
    let scratch = Scratch::new("user-benchmark-errors");
    two_recipe_benchmark(&scratch);
    let manifest = common::read(&scratch.path("bench/benchmark.json"));
    let text = fixture("mango-lime-cups.txt");
    scratch.write(
        "bad.solution",
        "#bad-salad\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?x ?ks ?kitchen ?c cherry-tomatoe 200 g)\n",
    );
    let bad = add_recipe(&scratch, &text, Path::new("bad.solution"));
    assert_eq!(bad.code, 1, "{}", bad.stderr);
    assert!(
        bad.stderr
            .contains("error[E0106]: `cherry-tomatoe` is not a class of the ontology")
    );
    assert!(bad.stderr.contains("bad.solution:3:42"), "{}", bad.stderr);
    assert!(
        bad.stderr
            .ends_with("error: bad.solution: the gold network has errors; nothing was added\n")
    );

    let gold = fixture("mango-lime-cups.solution");
    let twice = add_recipe(&scratch, &text, &gold);
    assert_eq!(
        (twice.code, twice.stderr.as_str()),
        (2, "error: bench already has a recipe `mango-lime-cups`\n")
    );
    let unknown_official = run_in(
        &scratch,
        &[
            "add-recipe",
            "--benchmark",
            "bench",
            "--official",
            "cole-slw",
        ],
    );
    assert_eq!(
        (unknown_official.code, unknown_official.stderr.as_str()),
        (
            2,
            "error: `cole-slw` is not a recipe of the official benchmark (profile 2024); did you mean cole-slaw?\n"
        )
    );
    assert_eq!(
        common::read(&scratch.path("bench/benchmark.json")),
        manifest
    );

    scratch.write("other.solution", "#unknown-soup\n(get-kitchen ?kitchen)\n");
    let unknown = score(&scratch, "other.solution", &[]);
    assert_eq!(unknown.code, 1, "{}", unknown.stderr);
    assert!(
        unknown
            .stderr
            .contains("error[E0201]: recipe `unknown-soup` is not supported by the benchmark")
    );
    assert!(
        unknown.stderr.contains("other.solution:1:2"),
        "{}",
        unknown.stderr
    );

    std::fs::create_dir(scratch.path("full")).expect("a folder");
    scratch.write("full/notes.txt", "");
    let over = run_in(&scratch, &["new-benchmark", "full"]);
    assert_eq!(
        (over.code, over.stderr.as_str()),
        (
            2,
            "error: full: not empty and not a benchmark (no benchmark.json); new-benchmark makes a new folder or fills an empty one\n"
        )
    );
    assert_eq!(scratch.path("full").read_dir().unwrap().count(), 1);

    let into_demo = run_in(
        &scratch,
        &[
            "add-recipe",
            "--benchmark",
            "demo",
            "--official",
            "cole-slaw",
        ],
    );
    assert_eq!(
        (into_demo.code, into_demo.stderr.as_str()),
        (
            2,
            "error: add-recipe adds to a folder: the demo is built into the program (make your own with new-benchmark DIR)\n"
        )
    );

    std::fs::write(
        scratch.path("bench/benchmark.json"),
        "{\n  \"recipes\": [\n    {\"id\": 3}\n  ]\n}\n",
    )
    .expect("manifest replaced");
    let broken = score(&scratch, "other.solution", &[]);
    assert_eq!(
        (broken.code, broken.stderr.as_str()),
        (
            2,
            "error: bench/benchmark.json:3:12: not a usable benchmark manifest: invalid type: integer `3`, expected a string\n"
        )
    );
}

/// A user benchmark may include official recipes by id, scored from the official data.
#[test]
fn a_user_benchmark_includes_official_recipes() {
    common::require_data!();
    let scratch = Scratch::new("user-benchmark-official");
    two_recipe_benchmark(&scratch);
    let added = run_in(
        &scratch,
        &[
            "add-recipe",
            "--benchmark",
            "bench",
            "--official",
            "cole-slaw",
        ],
    );
    assert_eq!(added.code, 0, "{}", added.stderr);
    let solutions = [
        common::read(&common::gold_file("cole-slaw")),
        common::read(&fixture("mango-lime-cups.solution")),
    ]
    .concat();
    scratch.write("mixed.solution", solutions);
    let scored = score(&scratch, "mixed.solution", &[]);
    assert_eq!(scored.code, 0, "{}", scored.stderr);
    assert!(
        scored.stdout.starts_with(
            "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n\
         mango-lime-cups,1.00,1.00,270\n\
         cole-slaw,1.00,1.00,6420\n"
        ),
        "{}",
        scored.stdout
    );
    assert!(
        scored.stderr.contains("; data user, gold sha256 "),
        "{}",
        scored.stderr
    );
}
