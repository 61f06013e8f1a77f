//! The table's entries, and the refusals every front end gives alike.

use super::*;
use crate::service::context::DataContext;
use serde_json::json;

fn builtin() -> Workspace {
    Workspace::open(DataContext {
        offline: true,
        ..DataContext::default()
    })
    .expect("the built-in workspace")
}

/// Each job has one name and one tool, and a request schema that is an object.
#[test]
fn every_job_is_named_once_and_takes_an_object() {
    let mut names: Vec<&str> = JOBS.iter().flat_map(|j| [j.name, j.tool]).collect();
    let all = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all);
    for job in JOBS {
        let schema = serde_json::to_value((job.schema)()).unwrap();
        assert_eq!(schema["type"], json!("object"), "{}", job.name);
    }
    assert_eq!(
        Job::named("checks").err().expect("no job `checks`").error,
        "no job `checks`; did you mean `check`? the jobs are check, simulate, score, smatch, diet, guide, substitute, suggest, scale, translate, evaluate, compare"
    );
    assert_eq!(
        Job::named("frobnicate")
            .err()
            .expect("no job `frobnicate`")
            .error,
        "no job `frobnicate`; the jobs are check, simulate, score, smatch, diet, guide, substitute, suggest, scale, translate, evaluate, compare"
    );
}

/// A request of the wrong shape is refused as a request, saying what does not fit.
#[test]
fn a_request_of_the_wrong_shape_is_refused() {
    let refused = Job::named("check")
        .unwrap()
        .answer(&builtin(), json!({ "network": 5 }))
        .unwrap_err();
    assert_eq!(
        refused.to_json(),
        json!({
            "error": "the request does not fit: invalid type: integer `5`, expected a string",
            "kind": "request",
        })
    );
}

/// A crash is refused with the primitive's message and where it happened.
#[test]
fn a_simulation_that_fails_is_refused_with_its_message() {
    let network = "#demo-garden-salad\n(get-kitchen ?k)\n(frobnicate ?x ?k)\n";
    let refused = Job::named("simulate_network")
        .unwrap()
        .answer(&builtin(), json!({ "network": network }))
        .unwrap_err();
    assert_eq!(refused.error, "the network has errors; nothing ran");
    assert_eq!(refused.detail["diagnostics"][0]["line"], json!(3));
}

/// The demo's workspace, and a folder holding the demo's garden salad as `name`.
fn demo_with_solution(name: &str) -> (DataContext, tempfile::TempDir, std::path::PathBuf) {
    let data = DataContext {
        benchmark: Some(crate::benchmark::DataChoice::Demo),
        offline: true,
        ..DataContext::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(
        &path,
        include_str!("../../../gold/demo/garden-salad.solution"),
    )
    .unwrap();
    (data, dir, path)
}

/// The evaluate job answers what `evaluate --format json` writes: the same run, the same
/// report (with `--ci`'s intervals), whichever front end asks.
#[test]
fn the_evaluate_job_answers_what_evaluate_writes_as_json() {
    use crate::report::batch_report::Bootstrap;
    use crate::service::scoring::{self, EvaluateOptions, Format};
    let (data, _dir, path) = demo_with_solution("salad.solution");
    let workspace = Workspace::open(data.clone()).unwrap();
    let request = json!({ "inputs": [path], "bootstrap": 100, "seed": 7 });
    let answer = Job::named("evaluate_solutions")
        .unwrap()
        .answer(&workspace, request)
        .unwrap();
    let opts = EvaluateOptions {
        inputs: vec![path.clone()],
        output: scoring::STDOUT.into(),
        format: Format::Json,
        ci: Some(Bootstrap {
            resamples: 100,
            seed: 7,
        }),
        ..EvaluateOptions::scoring(data, crate::metrics::metric::MetricSet::default())
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let exit = scoring::run(&opts, &mut out, &mut err).unwrap();
    assert_eq!(exit, Exit::Success);
    let written: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(written, answer);
    assert_eq!(
        answer["recipes"][0]["recipe_id"],
        json!("demo-garden-salad")
    );
    assert_eq!(answer["recipes"][0]["dish_approximation_score"], json!(1.0));
    assert_eq!(answer["summary"]["bootstrap_resamples"], json!(100));
}

/// One file the evaluator refuses is refused, located, as the command writes no results.
#[test]
fn the_evaluate_job_refuses_a_refused_file() {
    let (data, dir, _) = demo_with_solution("salad.solution");
    let bad = dir.path().join("bad.solution");
    std::fs::write(
        &bad,
        "#demo-garden-salad\n(get-kitchen ?k)\n(frobnicate ?x ?k)\n",
    )
    .unwrap();
    let workspace = Workspace::open(data).unwrap();
    let evaluate = Job::named("evaluate").unwrap();
    let request = json!({ "inputs": [bad], "metrics": ["none"] });
    let refused = evaluate.answer(&workspace, request).unwrap_err();
    assert_eq!(
        refused.error,
        "the metrics `none` evaluate nothing: name the metrics to compute"
    );
    // Standard input is the tool server's protocol: no job reads it.
    for (job, request) in [
        ("evaluate", json!({ "inputs": ["-"] })),
        ("compare", json!({ "systems": [&bad, "-"] })),
    ] {
        let refused = Job::named(job)
            .unwrap()
            .answer(&workspace, request)
            .unwrap_err();
        assert_eq!(
            refused.to_json(),
            json!({
                "error": "`-` is standard input, which a job does not read: give the paths of files or folders",
                "kind": "request",
            })
        );
    }
    let refused = evaluate
        .answer(&workspace, json!({ "inputs": [bad] }))
        .unwrap_err();
    assert_eq!(refused.error, "unknown primitive `frobnicate`");
    assert_eq!(refused.detail["recipes"], json!(["demo-garden-salad"]));
    assert_eq!(refused.detail["file"], json!(bad.display().to_string()));
}

/// The compare job answers what `compare --format json` writes.
#[test]
fn the_compare_job_answers_what_compare_writes_as_json() {
    use crate::service::comparison::{self, CompareFormat, CompareOptions};
    use crate::service::scoring::{self, EvaluateOptions};
    let (data, dir, path) = demo_with_solution("salad.solution");
    let workspace = Workspace::open(data.clone()).unwrap();
    let request = json!({ "systems": [path, dir.path()], "bootstrap": 50, "trials": 50 });
    let answer = Job::named("compare").unwrap().answer(&workspace, request);
    let answer = answer.unwrap();
    let opts = CompareOptions {
        systems: vec![path.clone(), dir.path().to_owned()],
        evaluation: EvaluateOptions::scoring(data, comparison::default_metrics()),
        output: scoring::STDOUT.into(),
        format: CompareFormat::Json,
        bootstrap: 50,
        trials: 50,
        seed: 12345,
        dump_resamples: None,
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    comparison::run(&opts, &mut out, &mut err).unwrap();
    assert_eq!(serde_json::from_slice::<Value>(&out).unwrap(), answer);
    let same = &answer["metrics"][0]["systems"][1];
    assert_eq!(same["difference"], json!(0.0));
    assert_eq!(same["recipes"], json!(3));
    assert_eq!(
        Job::named("compare")
            .unwrap()
            .answer(&workspace, json!({ "systems": [path] }))
            .unwrap_err()
            .error,
        "compare needs a baseline and at least one system"
    );
}

/// The Smatch job answers the result's own fields, but for the evaluation's flags.
#[test]
fn the_smatch_answer_is_the_result_without_the_evaluation_s_flags() {
    let network = include_str!("../../../gold/demo/garden-salad.solution");
    let answer = Job::named("smatch")
        .unwrap()
        .answer(&builtin(), json!({ "test": network, "gold": network }))
        .unwrap();
    let fields: Vec<&str> = answer
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        fields,
        [
            "bound",
            "f_score",
            "gold_triples",
            "matched_triples",
            "optimum",
            "precision",
            "proven",
            "recall",
            "reference_climb",
            "test_triples"
        ]
    );
    assert_eq!(answer["f_score"], json!(1.0));
    assert_eq!(answer["matched_triples"], answer["gold_triples"]);
}
