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
        "no job `checks`; did you mean `check`? the jobs are check, simulate, score, smatch, diet, guide, substitute, suggest, scale, translate"
    );
    assert_eq!(
        Job::named("frobnicate")
            .err()
            .expect("no job `frobnicate`")
            .error,
        "no job `frobnicate`; the jobs are check, simulate, score, smatch, diet, guide, substitute, suggest, scale, translate"
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
