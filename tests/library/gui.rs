//! The desktop launcher driven headless through its AccessKit tree (egui_kittest, no renderer):
//! the start button waits for input and output, a run on a documentation example shows the
//! reference's values in the table and writes the command line's CSV, selecting a row shows
//! why the recipe scored as it did, and a refused file lists its problems with line and column.

use crate::common;

use cookingbot::benchmark::DataChoice;
use cookingbot::gui::{Launcher, egui};
use cookingbot::service::launch::LaunchSettings;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn launcher(settings: LaunchSettings) -> Harness<'static, Launcher> {
    Harness::builder()
        .with_size([1400.0, 1600.0])
        .build_ui_state(|ui, l: &mut Launcher| l.ui(ui), Launcher::new(settings))
}

fn demo() -> LaunchSettings {
    LaunchSettings {
        benchmark: Some(DataChoice::Demo),
        ..LaunchSettings::default()
    }
}

fn start_enabled(h: &Harness<'_, Launcher>) -> bool {
    !h.get_by_role_and_label(Role::Button, "Start")
        .accesskit_node()
        .is_disabled()
}

fn type_into(h: &mut Harness<'_, Launcher>, field: &str, text: &str) {
    h.get_by_label(field).focus();
    h.step();
    h.get_by_label(field).type_text(text);
    h.run();
}

/// Step the window until the evaluation is over (a bound of a few minutes only guards
/// against a hang).
fn finish(h: &mut Harness<'_, Launcher>) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while h.state().is_running() {
        assert!(Instant::now() < deadline, "the evaluation did not finish");
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    h.run();
}

#[test]
fn start_stays_disabled_until_input_and_output_are_chosen() {
    let mut h = launcher(demo());
    assert!(!start_enabled(&h));
    type_into(
        &mut h,
        "Input .solution file",
        "examples/demo-mistake.solution",
    );
    assert!(!start_enabled(&h), "enabled with the input alone");
    type_into(&mut h, "Output CSV file", "results.csv");
    assert!(start_enabled(&h));
    // No metric ticked: nothing to compute.
    for m in cookingbot::metrics::metric::Metric::ALL {
        h.get_by_label(m.name()).click();
        h.run();
    }
    assert!(!start_enabled(&h), "enabled with no metric");
    h.get_by_label("execution-time").click();
    h.run();
    assert!(start_enabled(&h));
}

#[test]
fn documentation_example_shows_the_reference_values_and_each_rows_details() {
    common::require_data!();
    let bench = common::benchmark_dir();
    let example = "documentation/examples/script/example-multiple-recipes.solution";
    let input = bench.join(example);
    let expected: Vec<common::RefRow> = common::reference_rows("2024", "doc-examples.tsv")
        .into_iter()
        .filter(|r| r.solution.ends_with(example))
        .collect();
    assert_eq!(expected.len(), 2);
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("results.csv");
    let mut h = launcher(LaunchSettings {
        benchmark: Some(DataChoice::Folder(bench.clone())),
        ..LaunchSettings::default()
    });
    type_into(&mut h, "Input .solution file", &input.display().to_string());
    type_into(&mut h, "Output CSV file", &csv.display().to_string());
    h.get_by_role_and_label(Role::Button, "Start").click();
    h.step();
    finish(&mut h);

    // Each reference value sits on its recipe's row, under its metric's header.
    for row in &expected {
        let recipe = h.get_by_label(&row.recipe).rect();
        for (metric, value) in [
            ("goal-condition-success", &row.gcs),
            ("dish-approximation-score", &row.dish),
            ("execution-time", &row.time),
        ] {
            let column = h.get_by_role_and_label(Role::Button, metric).rect();
            let cell = h.get_all_by_label(value).map(|n| n.rect()).find(|r| {
                (r.center().y - recipe.center().y).abs() < 1.0
                    && (r.min.x - column.min.x).abs() < 1.0
            });
            assert!(cell.is_some(), "{}: no {value} under {metric}", row.recipe);
        }
    }

    // The CSV is the command line's, byte for byte.
    let cli_csv = out.path().join("cli.csv");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"))
        .args(["--benchmark"])
        .arg(&bench)
        .arg("-input")
        .arg(&input)
        .arg("-output")
        .arg(&cli_csv)
        .args(["-metrics", "smatch-score", "goal-condition-success"])
        .args(["dish-approximation-score", "execution-time"])
        .output()
        .unwrap();
    assert!(status.status.success());
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        std::fs::read_to_string(&cli_csv).unwrap()
    );

    // The first row (the reference's order, as the TSV lists it) is selected; choosing another
    // shows its details.
    let (first, other) = (&expected[0], &expected[1]);
    let heading = |id: &str| format!("Why {id} scored as it did");
    assert!(h.query_by_label(&heading(&first.recipe)).is_some());
    h.get_by_label(&other.recipe).click();
    h.run();
    assert!(h.query_by_label(&heading(&first.recipe)).is_none());
    h.get_by_label(&heading(&other.recipe));
    h.get_by_label_contains(&format!("Goal-Condition Success: {} — ", other.gcs));
    h.get_by_label_contains(&format!("Dish Approximation Score: {} — ", other.dish));
    let missed = h
        .get_by_label_contains("Gold goals missed: ")
        .accesskit_node()
        .value()
        .unwrap_or_default();
    assert!(missed.starts_with("Gold goals missed: "), "{missed}");
    assert!(!missed.starts_with("Gold goals missed: 0 of"), "{missed}");
    h.get_by_label_contains("Dish differences (the output of action #");
    h.get_by_label("Network");
    h.get_by_label("Execution timeline");
}

/// The window opens with nothing to show but a way to the demo example: one click writes it,
/// runs it against the embedded demo benchmark and shows its details, with the missed goals
/// that share a reason said once.
#[test]
fn empty_state_opens_the_demo_example() {
    let mut h = launcher(LaunchSettings::default());
    h.get_by_label_contains("No results yet.");
    h.get_by_role_and_label(Role::Button, "Open the demo example")
        .click();
    h.step();
    finish(&mut h);
    h.get_by_label("Benchmark: the embedded demo (three recipes of our own).");
    assert!(h.query_by_label_contains("No results yet.").is_none());
    h.get_by_label("Why demo-shortbread-rounds scored as it did");
    h.get_by_label("Gold goals missed: 11 of 17");
    h.get_by_label(
        "    missed: 5 goals, gold 7–11: no equal large-bowl; the closest (predicate 6) differs in contents",
    );
    h.get_by_label(
        "    missed: no equal medium-bowl; the closest (predicate 3) differs in contents",
    );
    let csv = h
        .get_by_label_contains("Results written to ")
        .accesskit_node()
        .value()
        .unwrap_or_default();
    let csv = PathBuf::from(csv.trim_start_matches("Results written to "));
    assert!(
        std::fs::read_to_string(&csv)
            .unwrap()
            .contains("\ndemo-shortbread-rounds,0.96,0.35,0.99,1620\n")
    );
    // The demo's folder is the run's own.
    std::fs::remove_dir_all(csv.parent().unwrap()).unwrap();
}

#[test]
fn rows_sort_by_a_metric_column() {
    let out = tempfile::tempdir().unwrap();
    let mut h = launcher(LaunchSettings {
        input: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-mistake.solution")),
        output: Some(out.path().join("results.csv")),
        start: true,
        ..demo()
    });
    h.step();
    finish(&mut h);
    let y = |h: &Harness<'_, Launcher>, id: &str| h.get_by_label(id).rect().center().y;
    let ids = [
        "demo-garden-salad",
        "demo-cinnamon-toast-bites",
        "demo-shortbread-rounds",
    ];
    // The reference's order: the reverse of the file.
    assert!(y(&h, ids[2]) < y(&h, ids[1]) && y(&h, ids[1]) < y(&h, ids[0]));
    // Execution times 490, 1215 and 1620, ascending.
    h.get_by_role_and_label(Role::Button, "execution-time")
        .click();
    h.run();
    assert!(y(&h, ids[0]) < y(&h, ids[1]) && y(&h, ids[1]) < y(&h, ids[2]));
}

#[test]
fn refused_input_lists_its_problems_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.solution");
    std::fs::write(
        &input,
        "#demo-garden-salad\n(get-kitchen ?kitchen)\n(fetch ?jar ?ks ?kitchen jar 1)\n(shake-well ?x ?ks2 ?ks ?jar)\n",
    )
    .unwrap();
    let output = dir.path().join("results.csv");
    let mut h = launcher(LaunchSettings {
        input: Some(input),
        output: Some(output.clone()),
        start: true,
        ..demo()
    });
    h.step();
    finish(&mut h);
    h.get_by_label_contains("The file is refused");
    let problem = h
        .get_by_label("E0103 unknown-primitive: unknown primitive `shake-well`")
        .rect();
    let on_its_row = |text: &str| {
        h.get_all_by_label(text)
            .any(|n| (n.rect().center().y - problem.center().y).abs() < 1.0)
    };
    assert!(on_its_row("4"), "line 4");
    assert!(on_its_row("2"), "column 2");
    assert!(!output.exists(), "a refused file writes nothing");
}

/// With no arguments the program opens the launcher; with no display to open it on, it says
/// why and shows the command line's usage.
#[cfg(target_os = "linux")]
#[test]
fn no_arguments_without_a_display_explains_and_shows_the_usage() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: cannot open the launcher window: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("\nusage: cookingbot-evaluator -input FILE.solution|DIR"),
        "{stderr}"
    );
    let names: Vec<String> = cookingbot::cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect();
    assert!(names.len() >= 12, "{names:?}");
    for name in names {
        assert!(
            stderr.contains(&format!("\n       cookingbot-evaluator {name}")),
            "{name}: {stderr}"
        );
    }
}
