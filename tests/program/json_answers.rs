//! A command's `--format json` (`simulate --json`) is its job's answer: for the same request,
//! `simulate`, `check` and `translate` print what `job NAME` prints and what the tool server
//! answers, value for value (the server shortens only lists past 100 entries and texts past
//! 1,000 characters, which these answers do not hold).

use super::mcp::{Server, answer};
use crate::common::{self, Scratch};
use serde_json::{Value, json};

const SALAD: &str = include_str!("../../gold/demo/garden-salad.solution");

/// The evaluator on the demo benchmark with `args`: its exit code and its standard output.
fn on_demo(args: &[&str]) -> (i32, String) {
    let o = common::outcome(common::evaluator().args(["--benchmark", "demo"]).args(args));
    (o.code, o.stdout)
}

/// The JSON a command printed.
fn parsed(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: not JSON: {stdout}"))
}

/// What `job NAME REQUEST` answers on the demo benchmark.
fn by_job(name: &str, request: &Value) -> Value {
    let (code, stdout) = on_demo(&["job", name, &request.to_string()]);
    assert_eq!(code, 0, "{stdout}");
    parsed(&stdout)
}

/// What the tool server on the demo benchmark answers `tool` with `request`.
fn by_tool(tool: &str, request: &Value) -> Value {
    let mut command = common::evaluator();
    command.args(["--benchmark", "demo", "mcp"]);
    let mut server = Server::of(command);
    server.call(1, tool, request.clone());
    answer(&server.reply()).clone()
}

#[test]
fn simulate_json_is_the_simulate_job_s_answer() {
    let scratch = Scratch::new("json-simulate");
    let file = scratch.write("salad.solution", SALAD);
    let (code, stdout) = on_demo(&["simulate", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{stdout}");
    let printed = parsed(&stdout);
    assert_eq!(printed["report"]["recipe"], "demo-garden-salad");
    assert_eq!(printed["report"]["solved"], true);
    assert_eq!(printed["refused"], Value::Null);
    let request = json!({ "network": SALAD });
    assert_eq!(printed, by_job("simulate", &request));
    assert_eq!(printed, by_tool("simulate_network", &request));
}

#[test]
fn check_json_is_one_check_answer_per_file() {
    let scratch = Scratch::new("json-check");
    // An unknown class: an error with a hint.
    let network = "#demo-garden-salad\n(get-kitchen ?kitchen)\n(fetch ?jar ?ks ?kitchen jra 1)\n";
    let file = scratch.write("typo.solution", network);
    let (code, stdout) = on_demo(&["check", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let printed = parsed(&stdout);
    let unknown = json!({"severity": "error", "code": "E0106", "line": 3, "column": 26,
        "message": "`jra` is not a class of the ontology", "hint": "did you mean `jar`?"});
    assert_eq!(
        printed,
        json!({"ok": false, "diagnostics": [unknown], "diagnostics_omitted": 0})
    );
    let request = json!({ "network": network });
    assert_eq!(printed, by_job("check", &request));
    assert_eq!(printed, by_tool("check_network", &request));
    // Several files: a line each, in the order given; a file that cannot be read, its refusal.
    let clean = scratch.write("salad.solution", SALAD);
    let missing = scratch.path("missing.solution");
    let files = [&file, &missing, &clean].map(|f| f.to_str().unwrap());
    let (code, stdout) = on_demo(&[&["check", "--format", "json"][..], &files].concat());
    assert_eq!(code, 2, "{stdout}");
    let lines: Vec<Value> = stdout.lines().map(parsed).collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0], printed);
    let unread = format!(
        "{}: cannot read: No such file or directory (os error 2)",
        missing.display()
    );
    assert_eq!(lines[1], json!({ "error": unread }));
    assert_eq!(lines[2]["ok"], true);
    assert_eq!(lines[2], by_job("check", &json!({ "network": SALAD })));
}

#[test]
fn translate_json_is_the_translate_job_s_answer() {
    let scratch = Scratch::new("json-translate");
    let text = include_str!("../../gold/demo/garden-salad.xml");
    let file = scratch.write("salad.xml", text);
    let (code, stdout) = on_demo(&["translate", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{stdout}");
    let printed = parsed(&stdout);
    let mut fields: Vec<&str> = printed
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    fields.sort_unstable();
    assert_eq!(fields, ["notes", "solution"]);
    assert!(
        printed["solution"]
            .as_str()
            .unwrap()
            .starts_with("#demo-garden-salad\n(get-kitchen ?kitchen)\n"),
        "{printed}"
    );
    let request = json!({ "text": text });
    assert_eq!(printed, by_job("translate", &request));
    assert_eq!(printed, by_tool("translate_recipe", &request));
}
