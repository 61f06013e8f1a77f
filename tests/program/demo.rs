//! The embedded demo benchmark (`gold/demo/`, `--benchmark demo`): its gold networks run to a
//! dish and score perfectly against themselves, the mistaken example scores below 1, the demo
//! refuses profile 2023, and the README's first command works on a fresh clone with no data,
//! no network and an empty home directory.

use crate::common;

use cookingbot::base::number::Number;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::{self, Benchmark, DataChoice, DataError, DataSource};
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::MetricSet;
use cookingbot::metrics::{gold_run, primary_output};
use cookingbot::report;
use cookingbot::simulation::Model;
use cookingbot::world::Value;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const ALL_METRICS: [&str; 4] = [
    "smatch-score",
    "goal-condition-success",
    "dish-approximation-score",
    "execution-time",
];

/// A file of the repository, by its path from the root.
fn repository_file(path: &str) -> String {
    common::read(&Path::new(ROOT).join(path))
}

fn demo() -> Evaluator {
    Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo loads")
}

// Execution times by hand from the duration table (spec/primitives.md §3). Every action takes
// the previous action's kitchen state, so each starts at the kitchen time `kt` it leaves.
//
// demo-garden-salad: three fetch-and-proportion (+30 each) 30, 60, 90; fetch jar (30 × 1) 120;
// three transfer-contents (+20) 140, 160, 180; cover (+20) 200; shake (+30) 230; uncover (+20)
// 250; fetch-and-proportion greens 280, cucumber 310; cut (+60) 370; fetch bowl 400; three
// transfer-contents 420, 440, 460; mingle (+30) 490.
//
// demo-cinnamon-toast-bites: preheat-oven: oven ready at 0 + 615 = 615, kitchen time 15;
// fetch-and-proportion bread 45, butter 75; melt (+60) 135; sugar 165, cinnamon 195; cut (+60)
// 255; transfer-contents 275, 295; mingle 325; transfer-contents (cinnamon into the sugar) 345;
// mix (+30) 375; sprinkle (+50) 425; fetch tray 455; transfer-contents 475; bake waits for the
// oven: max(475, 615) + 60 × 10 = 1215.
//
// demo-shortbread-rounds: fetch-and-proportion butter 30; bring-to-temperature is passive:
// butter ready at 30 + 800 = 830, kitchen time stays 30; sugar 60, flour 90; preheat-oven: oven
// ready at 90 + 615 = 705, kitchen time 105; transfer-contents of the butter waits for it:
// max(105, 830) + 20 = 850; sugar 870; beat (+60) 930; flour 950; mix (+30) 980;
// portion-and-arrange (+80) 1060; shape (+85) 1145; fetch sheet 1175; line (+150) 1325;
// transfer-items of a list: destination 1325 + 120 = 1445; bake max(1445, 705) + 60 × 15 = 2345
// (kitchen time 1475); leave-for-time is passive and ignores when the rounds come out of the
// oven: 1475 + 60 × 10 = 2075. The latest binding is the baked rounds: 2345.
//
// The mistake (no softening) removes the 800 s wait: transfer-contents at max(105, 30) + 20 = 125,
// and every later time is 725 s earlier, so bake ends at max(720, 705) + 900 = 1620.
const GOLD_TIMES: [(&str, i64); 3] = [
    ("demo-garden-salad", 490),
    ("demo-cinnamon-toast-bites", 1215),
    ("demo-shortbread-rounds", 2345),
];

#[test]
fn demo_manifest_names_our_recipe_texts_and_embedded_gold_networks() {
    let manifest = DataSource::Demo.manifest(Profile::R2024).unwrap();
    let ids: Vec<&str> = manifest.recipes.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, GOLD_TIMES.map(|(id, _)| id));
    let bench = Benchmark::load(Profile::R2024, &DataSource::Demo).unwrap();
    for (entry, gold) in manifest.recipes.iter().zip(&bench.recipes) {
        let file = format!("gold/demo/{}", entry.gold_file);
        assert_eq!(gold.file, PathBuf::from(&file));
        assert_eq!(gold.network.id, entry.id, "{file}: header");
        let text_file = entry
            .recipe_text
            .as_deref()
            .expect("the demo has recipe texts");
        let text = repository_file(&format!("gold/demo/{text_file}"));
        assert!(
            text.contains(&format!("<id>{}</id>", entry.id)),
            "{text_file}"
        );
        // The dish variable is the output of the network's last action.
        let last = gold.network.predicates.last().unwrap();
        assert_eq!(
            format!("{}", last.args[0]),
            entry.primary_output_var,
            "{file}"
        );
    }
}

#[test]
fn demo_gold_networks_run_to_a_dish_without_failures() {
    let model = Model::builtin(Profile::R2024);
    let bench = Benchmark::load(Profile::R2024, &DataSource::Demo).unwrap();
    for (gold, (id, time)) in bench.recipes.iter().zip(GOLD_TIMES) {
        assert_eq!(gold.id, id);
        let n = gold.network.predicates.len();
        assert!((8..=20).contains(&n), "{id}: {n} actions");
        let run = gold_run(&model, &gold.network, &gold.primary_output_var).unwrap();
        let x = &run.execution;
        assert!(x.solved, "{id}: no execution");
        assert_eq!(x.steps.len(), n, "{id}: every action runs");
        let is_failed = |v: &Value| {
            let failed = |v: &Value| {
                v.as_obj()
                    .is_some_and(|e| model.onto.is_a(e.class, model.k.failed_object))
            };
            failed(v) || v.items().iter().any(failed)
        };
        for (slot, b) in x.bindings.iter().enumerate() {
            assert!(
                !is_failed(&b.value),
                "{id}: {} is a failed object",
                &x.names[slot]
            );
        }
        assert_eq!(
            run.output_step,
            Some(n - 1),
            "{id}: the dish is the last output"
        );
        let dish = primary_output(x, n - 1).as_obj().expect("an object");
        assert!(
            model.k.is_container(dish.class),
            "{id}: the dish is a container"
        );
        let contents = dish.val(model.k.contents).items();
        assert!(!contents.is_empty(), "{id}: the dish has contents");
        for item in contents {
            let class = item.as_obj().expect("an object").class;
            assert!(model.onto.is_a(class, model.k.ingredient), "{id}");
        }
        assert_eq!(x.execution_time(), Some(Number::int(time)), "{id}");
    }
}

#[test]
fn demo_perfect_example_is_the_gold_and_scores_one() {
    let golds: Vec<String> = ["garden-salad", "cinnamon-toast-bites", "shortbread-rounds"]
        .iter()
        .map(|name| repository_file(&format!("gold/demo/{name}.solution")))
        .collect();
    let perfect = repository_file("examples/demo-perfect.solution");
    assert_eq!(perfect, golds.join("\n"));
    let metrics = MetricSet::from_words(&ALL_METRICS);
    let results = demo().evaluate(&perfect, &metrics).unwrap();
    // Rows in the reference's order: the reverse of the file.
    assert_eq!(
        report::csv::render(&results, &metrics),
        "recipe-id,smatch-score,goal-condition-success,dish-approximation-score,execution-time\n\
         demo-shortbread-rounds,1.00,1.00,1.00,2345\n\
         demo-cinnamon-toast-bites,1.00,1.00,1.00,1215\n\
         demo-garden-salad,1.00,1.00,1.00,490\n"
    );
    for r in &results {
        assert_eq!(
            r.smatch.as_ref().map(|s| s.f_score),
            Some(1.0),
            "{}",
            r.recipe_id
        );
        assert_eq!(
            r.goal_condition_success,
            Some(Number::int(1)),
            "{}",
            r.recipe_id
        );
        assert_eq!(r.dish_approximation_score, Some(1.0), "{}", r.recipe_id);
    }
}

#[test]
fn demo_mistake_lowers_the_shortbread_scores_only() {
    let metrics = MetricSet::from_words(&ALL_METRICS);
    let text = repository_file("examples/demo-mistake.solution");
    let results = demo().evaluate(&text, &metrics).unwrap();
    assert_eq!(
        report::csv::render(&results, &metrics),
        "recipe-id,smatch-score,goal-condition-success,dish-approximation-score,execution-time\n\
         demo-shortbread-rounds,0.96,0.35,0.99,1620\n\
         demo-cinnamon-toast-bites,1.00,1.00,1.00,1215\n\
         demo-garden-salad,1.00,1.00,1.00,490\n"
    );
    let shortbread = &results[0];
    assert!(shortbread.smatch.as_ref().map(|s| s.f_score).unwrap_or(1.0) < 1.0);
    assert!(shortbread.goal_condition_success.unwrap().to_f64() < 1.0);
    assert!(shortbread.dish_approximation_score.unwrap() < 1.0);
}

#[test]
fn demo_is_selected_by_name_and_only_for_profile_2024() {
    let named = DataChoice::from(std::ffi::OsString::from(benchmark::DEMO));
    assert_eq!(named, DataChoice::Demo);
    let demo = Some(&named);
    assert_eq!(
        benchmark::locate(Profile::R2024, demo),
        Ok(DataSource::Demo)
    );
    let err = benchmark::locate(Profile::R2023, demo).unwrap_err();
    assert_eq!(
        err,
        DataError::NoDemo {
            profile: Profile::R2023
        }
    );
    assert_eq!(
        err.to_string(),
        "the embedded demo benchmark has gold networks for profile 2024 only, not 2023; drop --reference 2023 or pass --benchmark DIR with the profile's data"
    );
    assert!(Evaluator::new(Profile::R2023, DataSource::Demo).is_err());
}

#[test]
fn demo_with_reference_2023_is_a_clear_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("results.csv");
    let out = common::evaluator()
        .current_dir(ROOT)
        .args(["--reference", "2023", "--benchmark", "demo", "-input"])
        .arg("examples/demo-mistake.solution")
        .arg("-output")
        .arg(&output)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        common::stderr(&out),
        "error: the embedded demo benchmark has gold networks for profile 2024 only, not 2023; drop --reference 2023 or pass --benchmark DIR with the profile's data\n"
    );
    assert!(!output.exists());
}

#[test]
fn readme_first_command_works_on_a_fresh_clone() {
    let command = common::readme_commands()[0].clone();
    assert!(command.starts_with("cargo run"), "{command}");
    let clone = common::FreshClone::new();
    let out = clone
        .command(&command)
        // Any attempt to download benchmark data would fail.
        .env("COOKINGBOT_FETCH_BASE_URL", "http://127.0.0.1:9")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{command}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(clone.path().join("results.csv")).expect("results.csv");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    let ids: Vec<&str> = rows.iter().map(|r| r.split(',').next().unwrap()).collect();
    let mut expected = GOLD_TIMES.map(|(id, _)| id);
    expected.reverse();
    assert_eq!(ids, expected, "{csv}");
    assert_eq!(std::fs::read_dir(clone.data_home()).unwrap().count(), 0);
}

/// The pages whose `sh` blocks are the user's guide to the command line: the README and the
/// pages it sends a new user to first.
const GUIDE_PAGES: [&str; 3] = ["README.md", "docs/usage.md", "docs/python.md"];

/// The `sh` blocks of [`GUIDE_PAGES`] that run the installed program, each as one script.
fn readme_examples() -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    let text: String = GUIDE_PAGES
        .iter()
        .map(|page| common::read(&Path::new(ROOT).join(page)))
        .collect();
    for line in text.lines() {
        match (&mut current, line) {
            (None, "```sh") => current = Some(String::new()),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
        .into_iter()
        .filter(|b| {
            b.lines()
                .any(|l| l.trim_start().starts_with("cookingbot-evaluator"))
        })
        .collect()
}

/// Every example of the README and the guide pages runs as written, with `cookingbot-evaluator` on the PATH, in a
/// folder holding the files the examples name: `solutions.solution` and `a.solution` (gold
/// networks) and `submissions/` (three more). The launcher's example opens a window and is the
/// GUI test's.
#[test]
fn every_documented_example_runs_as_written() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let dir = tempfile::tempdir().expect("scratch folder");
    let gold = common::benchmark_dir().join("data/gold-standard-solutions/meaning-only");
    let copy = |id: &str, to: &str| {
        std::fs::copy(gold.join(format!("{id}.solution")), dir.path().join(to))
            .expect("gold network copied");
    };
    // A network the 2023 profile runs too (the README scores it under both).
    copy("easy-banana-bread", "solutions.solution");
    copy("chocolate-fudge-cookies", "a.solution");
    std::fs::create_dir(dir.path().join("submissions")).expect("submissions folder");
    for id in ["afghan-biscuits", "best-brownies", "coconut-tuiles"] {
        copy(id, &format!("submissions/{id}.solution"));
    }
    let program = Path::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"));
    let path = std::env::join_paths(
        std::iter::once(program.parent().expect("the binary's folder").to_path_buf()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ),
    )
    .expect("a PATH");
    let examples: Vec<String> = readme_examples()
        .into_iter()
        .filter(|b| !b.contains("cookingbot-evaluator gui"))
        .collect();
    let commands = examples
        .iter()
        .flat_map(|b| b.lines())
        .filter(|l| l.contains("cookingbot-evaluator "))
        .count();
    assert!(commands >= 15, "{examples:?}");
    for script in &examples {
        let o = common::with_data(&mut std::process::Command::new("bash"))
            .env(
                "COOKINGBOT_BENCHMARK_2023",
                common::data_dir(Profile::R2023),
            )
            .env("PATH", &path)
            .current_dir(dir.path())
            .arg("-c")
            .arg(format!("set -euo pipefail\n{script}"))
            .output()
            .expect("bash runs");
        assert!(
            o.status.success(),
            "README example failed ({}):\n{script}\n{}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
