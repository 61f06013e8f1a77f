//! The table's entries, and the refusals every front end gives alike.

use super::*;
use crate::service::context::DataContext;
use crate::service::sessions::SessionStore;
use serde_json::json;

fn builtin() -> Workspace {
    Workspace::open(DataContext {
        offline: true,
        ..DataContext::default()
    })
    .expect("the built-in workspace")
}

/// Each job has one name and one tool (a session's call is named as its tool), and a
/// request schema that is an object.
#[test]
fn every_job_is_named_once_and_takes_an_object() {
    let mut names: Vec<&str> = JOBS
        .iter()
        .flat_map(|j| [Some(j.name), (j.tool != j.name).then_some(j.tool)])
        .flatten()
        .collect();
    let all = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all);
    for job in JOBS {
        let schema = serde_json::to_value((job.schema)()).unwrap();
        assert_eq!(schema["type"], json!("object"), "{}", job.name);
    }
    // The table's names in its order (a new job changes the list, not this test).
    let jobs: Vec<&str> = JOBS.iter().map(|j| j.name).collect();
    let jobs = jobs.join(", ");
    assert!(jobs.starts_with("check, simulate, score, score_each, smatch, diet, guide"));
    assert_eq!(
        Job::named("checks").err().expect("no job `checks`").error,
        format!("no job `checks`; did you mean `check`? the jobs are {jobs}")
    );
    assert_eq!(
        Job::named("frobnicate")
            .err()
            .expect("no job `frobnicate`")
            .error,
        format!("no job `frobnicate`; the jobs are {jobs}")
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

/// A misspelt diet is a request that cannot be asked, refused as every other such request.
#[test]
fn a_misspelt_diet_is_refused_as_a_request() {
    let network = include_str!("../../../gold/demo/garden-salad.solution");
    let refused = Job::named("check_diet")
        .unwrap()
        .answer(&builtin(), json!({ "network": network, "diet": "vegn" }))
        .unwrap_err();
    assert_eq!(
        refused.to_json(),
        json!({
            "error": "`vegn` is not a diet (one of vegan, vegetarian, gluten-free, dairy-free, nut-free, egg-free); did you mean `vegan`?",
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

/// The answer of the job named `name` to `request`, with the sessions of `store`.
fn asked(workspace: &Workspace, store: &SessionStore, name: &str, request: Value) -> Value {
    let job = Job::named(name).unwrap();
    match job.answer_in(workspace, store, request) {
        Ok(answer) => answer,
        Err(refusal) => refusal.to_json(),
    }
}

/// A session's call answers the same whether the session is the store's, named by its id,
/// or made for the call from its recipe and the lines given so far (what a front end that
/// keeps nothing between calls asks).
#[test]
fn a_session_named_by_its_lines_answers_as_the_store_s_session_does() {
    let (data, _dir, _) = demo_with_solution("salad.solution");
    let workspace = Workspace::open(data).unwrap();
    let store = SessionStore::default();
    let recipe = "demo-garden-salad";
    let started = asked(
        &workspace,
        &store,
        "kitchen_start",
        json!({ "recipe": recipe }),
    );
    assert_eq!(started["session"], json!("kitchen-1"));
    assert_eq!(
        started["limits"],
        json!({"idle_seconds": 1800, "lines": 500})
    );
    let gold = workspace.evaluator().unwrap();
    let gold = gold.benchmark.recipe(recipe).unwrap().network.clone();
    let mut lines: Vec<String> = Vec::new();
    let open = || json!({ "session": "kitchen-1" });
    let alone = |lines: &[String]| json!({ "recipe": recipe, "lines": lines });
    let with = |mut at: Value, field: &str, value: &str| {
        at[field] = json!(value);
        at
    };
    for predicate in gold.predicates.iter().take(4) {
        let line = predicate.to_string();
        let by_lines = asked(
            &workspace,
            &store,
            "kitchen_act",
            with(alone(&lines), "line", &line),
        );
        let by_id = asked(
            &workspace,
            &store,
            "kitchen_act",
            with(open(), "line", &line),
        );
        assert_eq!(by_lines, by_id, "{line}");
        assert_eq!(by_id["outcome"], json!("ran"), "{by_id}");
        lines.push(line);
    }
    let calls = [
        ("kitchen_look", Some(("name", "fridge"))),
        ("kitchen_progress", None),
        (
            "kitchen_admissible",
            Some(("primitive", "transfer-contents")),
        ),
        ("kitchen_primitives", Some(("primitive", "mix"))),
        ("kitchen_primitives", None),
    ];
    for (name, field) in calls {
        let ask = |at: Value| match field {
            Some((field, value)) => with(at, field, value),
            None => at,
        };
        let by_id = asked(&workspace, &store, name, ask(open()));
        assert!(by_id.get("error").is_none(), "{name}: {by_id}");
        assert_eq!(
            asked(&workspace, &store, name, ask(alone(&lines))),
            by_id,
            "{name}"
        );
    }
    // The session made for a call ends with it: the store's goes on.
    let undone = asked(&workspace, &store, "kitchen_undo", alone(&lines));
    assert_eq!(undone, json!({ "undone": lines[3] }));
    assert_eq!(asked(&workspace, &store, "kitchen_undo", open()), undone);
    lines.pop();
    let mut by_lines = asked(&workspace, &store, "kitchen_finish", alone(&lines));
    let by_id = asked(&workspace, &store, "kitchen_finish", open());
    assert_eq!(by_id["session"], json!("kitchen-1"));
    assert_eq!(by_id["lines"], json!(3));
    by_lines["session"] = json!("kitchen-1");
    assert_eq!(by_lines, by_id);
    assert_eq!(
        asked(
            &workspace,
            &store,
            "kitchen_look",
            with(open(), "name", "fridge")
        )["error"],
        json!("session `kitchen-1` was finished; start a new one to go on")
    );
}

/// The calls beside acting answer for the store's session as for a session of its lines: its
/// network, its gold, its opening, a fork (a new session of the store, independent) and a
/// reset; a line with `detail` is the observation whole, and one the session does not take an
/// observation `rejected` instead of a refusal.
#[test]
fn a_session_s_views_fork_and_reset_answer_by_id_as_by_lines() {
    let (data, _dir, _) = demo_with_solution("salad.solution");
    let workspace = Workspace::open(data).unwrap();
    let store = SessionStore::default();
    let recipe = "demo-garden-salad";
    asked(
        &workspace,
        &store,
        "kitchen_start",
        json!({ "recipe": recipe }),
    );
    let gold = workspace.evaluator().unwrap();
    let gold = gold.benchmark.recipe(recipe).unwrap().network.clone();
    let lines: Vec<String> = gold
        .predicates
        .iter()
        .take(2)
        .map(|p| p.to_string())
        .collect();
    let open = json!({ "session": "kitchen-1" });
    for (at, line) in lines.iter().enumerate() {
        let act = json!({ "session": "kitchen-1", "line": line, "detail": true });
        let seen = asked(&workspace, &store, "kitchen_act", act);
        assert_eq!(seen["outcome"], json!("ran"), "{seen}");
        // Whole: each object with its tree, but a kitchen state (get-kitchen's one output).
        let objects = seen["objects"].as_array().expect("objects");
        let trees = objects.iter().filter(|o| o["object"].is_object()).count();
        assert_eq!(trees > 0, at > 0, "{seen}");
    }
    let alone = json!({ "recipe": recipe, "lines": lines });
    for name in [
        "kitchen_network",
        "kitchen_gold",
        "kitchen_opening",
        "kitchen_hint",
    ] {
        let by_id = asked(&workspace, &store, name, open.clone());
        assert!(by_id.get("error").is_none(), "{name}: {by_id}");
        assert_eq!(
            asked(&workspace, &store, name, alone.clone()),
            by_id,
            "{name}"
        );
    }
    let network = asked(&workspace, &store, "kitchen_network", open.clone());
    assert_eq!(network["lines"], json!(lines));
    assert_eq!(network["variation"], json!(0));
    let gold_text = asked(&workspace, &store, "kitchen_gold", open.clone());
    assert_eq!(gold_text["gold"], json!(gold.to_string()));
    let hint = asked(&workspace, &store, "kitchen_hint", open.clone());
    assert_eq!(hint["hint"]["action"], json!(3));
    let fork = asked(&workspace, &store, "kitchen_fork", open.clone());
    assert_eq!(fork, json!({ "session": "kitchen-2", "lines": 2 }));
    let forked = json!({ "session": "kitchen-2" });
    asked(&workspace, &store, "kitchen_undo", forked.clone());
    let after = asked(&workspace, &store, "kitchen_network", forked.clone());
    assert_eq!(after["lines"], json!(lines[..1]));
    assert_eq!(
        asked(&workspace, &store, "kitchen_network", open.clone()),
        network
    );
    let two = json!({ "session": "kitchen-1", "line": "(a)\n(b)", "detail": true });
    let rejected = asked(&workspace, &store, "kitchen_act", two.clone());
    assert_eq!(rejected["outcome"], json!("rejected"));
    assert_eq!(
        rejected["text"],
        json!("the line was not taken: one line at a time: the text holds a line break")
    );
    let mut plain = two;
    plain["detail"] = json!(false);
    assert_eq!(
        asked(&workspace, &store, "kitchen_act", plain)["error"],
        json!("one line at a time: the text holds a line break")
    );
    let opening = asked(&workspace, &store, "kitchen_reset", open.clone());
    assert_eq!(
        opening,
        asked(&workspace, &store, "kitchen_opening", forked)
    );
    let empty = asked(&workspace, &store, "kitchen_network", open);
    assert_eq!(empty["lines"], json!([]));
}

/// A session call names its session one way; a line of `lines` the session does not take is
/// refused, located.
#[test]
fn a_session_call_names_its_session_one_way_and_its_lines_must_be_taken() {
    let (data, _dir, _) = demo_with_solution("salad.solution");
    let workspace = Workspace::open(data).unwrap();
    let store = SessionStore::default();
    let both = json!({ "session": "kitchen-1", "recipe": "demo-garden-salad" });
    assert_eq!(
        asked(&workspace, &store, "kitchen_progress", both),
        json!({
            "error": "name the session by `session` alone, or by `recipe` and `lines` without it",
            "kind": "request",
        })
    );
    assert_eq!(
        asked(&workspace, &store, "kitchen_undo", json!({})),
        json!({
            "error": "name the session: `session` (the id kitchen_start gave), or `recipe` and the `lines` given so far",
            "kind": "request",
        })
    );
    let broken = json!({
        "recipe": "demo-garden-salad",
        "lines": ["(get-kitchen ?k)", "a\nb"],
        "name": "fridge",
    });
    assert_eq!(
        asked(&workspace, &store, "kitchen_look", broken),
        json!({
            "error": "line 2 of `lines` is not taken: one line at a time: the text holds a line break",
            "kind": "request",
        })
    );
    assert_eq!(
        asked(
            &workspace,
            &store,
            "kitchen_act",
            json!({"session": "kitchen-7", "line": ";"})
        )["error"],
        json!(
            "no session `kitchen-7`: session ids are the `kitchen-N` that starting a session gives"
        )
    );
}

/// A start that is refused (an unknown recipe, a full store) leaves no log behind, and a log
/// that exists is refused and kept as it was.
#[test]
fn a_refused_start_leaves_no_log_and_an_existing_log_is_kept() {
    use crate::service::sessions::{Limits, SystemClock};
    let (data, dir, _) = demo_with_solution("salad.solution");
    let workspace = Workspace::open(data).unwrap();
    let limits = Limits {
        sessions: 1,
        ..Limits::default()
    };
    let store = SessionStore::new(limits, std::sync::Arc::new(SystemClock));
    let log = dir.path().join("run.jsonl");
    let start = |recipe: &str| json!({ "recipe": recipe, "log": log });
    let unknown = asked(
        &workspace,
        &store,
        "kitchen_start",
        start("demo-no-such-dish"),
    );
    assert_eq!(
        unknown,
        json!({ "error": "the benchmark has no recipe `demo-no-such-dish`" })
    );
    assert!(!log.exists(), "a refused start left {}", log.display());
    let first = json!({ "recipe": "demo-garden-salad" });
    assert_eq!(
        asked(&workspace, &store, "kitchen_start", first)["session"],
        "kitchen-1"
    );
    let full = asked(
        &workspace,
        &store,
        "kitchen_start",
        start("demo-garden-salad"),
    );
    let full = full["error"].as_str().unwrap();
    assert!(
        full.starts_with("1 sessions are open, the most kept at once; the one unused longest, `kitchen-1`, expires in "),
        "{full}"
    );
    assert!(
        !log.exists(),
        "a start refused by a full store left {}",
        log.display()
    );
    std::fs::write(&log, "kept\n").unwrap();
    let exists = asked(
        &workspace,
        &store,
        "kitchen_start",
        start("demo-garden-salad"),
    );
    let exists_message = format!(
        "{}: cannot write the trajectory log: File exists (os error 17)",
        log.display()
    );
    assert_eq!(exists, json!({ "error": exists_message }));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "kept\n");
}

/// The splits job gives the splits, or one; a misspelt split is refused naming the closest.
#[test]
fn the_splits_job_lists_the_official_splits() {
    use crate::data::splits::{Split, recipes_of};
    let workspace = builtin();
    let store = SessionStore::default();
    let all = asked(&workspace, &store, "list_splits", json!({}));
    assert_eq!(all["recipes"].as_array().unwrap().len(), 48);
    let test = asked(&workspace, &store, "splits", json!({ "split": "test" }));
    let ids: Vec<&str> = test["recipes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = recipes_of(Split::Test).map(|r| r.id.as_str()).collect();
    assert_eq!(ids, expected);
    assert_eq!(
        asked(&workspace, &store, "splits", json!({ "split": "tset" }))["error"],
        json!("unknown split `tset`: expected train, dev or test (did you mean `test`?)")
    );
    assert_eq!(
        asked(
            &workspace,
            &store,
            "variation_gold",
            json!({ "recipe": "afghan-biscuits", "variation": 0 })
        )["error"],
        json!("variation 0 is the official task; variations are numbered from 1")
    );
}

/// A folder is searched within the call's budget: once it has run out (here its flag is set,
/// as the tool server sets it when the call's 60 s pass), the evaluate and compare jobs refuse
/// the folder, saying why, instead of walking on.
#[test]
fn a_folder_walk_stops_when_the_call_s_budget_runs_out() {
    use crate::base::budget::Budget;
    use crate::service::batch::WALK_STOPPED;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let (data, dir, path) = demo_with_solution("salad.solution");
    for i in 0..500 {
        std::fs::write(
            dir.path().join(format!("{i}.solution")),
            "#demo-garden-salad\n",
        )
        .unwrap();
    }
    let workspace = Workspace::open(data).unwrap();
    // Loaded before the budget runs out, as a server's benchmark is.
    workspace.evaluator().unwrap();
    let spent = Budget::new(Duration::from_secs(60)).cancelled_by(Arc::new(AtomicBool::new(true)));
    let evaluate = json!({ "inputs": [dir.path()] });
    let refused = spent.run(|| Job::named("evaluate").unwrap().answer(&workspace, evaluate));
    let message = format!("{}: {WALK_STOPPED}", dir.path().display());
    assert_eq!(refused.unwrap_err().error, message);
    let compare = json!({ "systems": [path, dir.path()], "bootstrap": 50, "trials": 50 });
    let refused = spent.run(|| Job::named("compare").unwrap().answer(&workspace, compare));
    let refused = refused.unwrap_err().error;
    assert!(refused.ends_with(&message), "{refused}");
    // With time left, the same folder is walked and scored.
    let evaluate = json!({ "inputs": [dir.path()] });
    let answered = Job::named("evaluate")
        .unwrap()
        .answer(&workspace, evaluate)
        .unwrap();
    assert_eq!(
        answered["files"].as_array().map(Vec::len),
        Some(501),
        "{answered}"
    );
}
