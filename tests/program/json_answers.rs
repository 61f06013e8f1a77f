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
    by_job_with(&[], name, request)
}

/// [`by_job`] with data options (`--kitchen FILE`).
fn by_job_with(options: &[&str], name: &str, request: &Value) -> Value {
    let (code, stdout) = on_demo(&[options, &["job", name, &request.to_string()]].concat());
    assert_eq!(code, 0, "{stdout}");
    parsed(&stdout)
}

/// What the tool server on the demo benchmark answers `tool` with `request`.
fn by_tool(tool: &str, request: &Value) -> Value {
    by_tool_with(&[], tool, request)
}

/// [`by_tool`] with data options (`--kitchen FILE`).
fn by_tool_with(options: &[&str], tool: &str, request: &Value) -> Value {
    let mut command = common::evaluator();
    command
        .args(["--benchmark", "demo"])
        .args(options)
        .arg("mcp");
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

/// `check --known-recipes` is the check job's `known_recipes`: the ids given are accepted,
/// the others refused, whichever front end asks.
#[test]
fn check_known_recipes_is_the_check_job_s_known_recipes() {
    let scratch = Scratch::new("json-check-known");
    let network = "#moon-soup\n(get-kitchen ?kitchen)\n";
    let file = scratch.write("moon.solution", network);
    let file = file.to_str().unwrap();
    let checked = |known| on_demo(&["check", "--format", "json", file, "--known-recipes", known]);
    let (code, stdout) = checked("moon-soup");
    assert_eq!(code, 0, "{stdout}");
    let accepted = parsed(&stdout);
    assert_eq!(
        accepted,
        json!({"ok": true, "diagnostics": [], "diagnostics_omitted": 0})
    );
    let request = json!({ "network": network, "known_recipes": ["moon-soup"] });
    assert_eq!(by_job("check", &request), accepted);
    assert_eq!(by_tool("check_network", &request), accepted);
    // Other ids: the demo's own are not asked for, so `moon-soup` is refused.
    let (code, stdout) = checked("sun-soup");
    assert_eq!(code, 1, "{stdout}");
    let refused = parsed(&stdout);
    assert_eq!(
        refused["diagnostics"][0],
        json!({"severity": "error", "code": "E0201", "line": 1, "column": 2,
            "message": "recipe `moon-soup` is not supported by the benchmark",
            "hint": "did you mean `sun-soup`?"})
    );
    let request = json!({ "network": network, "known_recipes": ["sun-soup"] });
    assert_eq!(by_job("check", &request), refused);
    assert_eq!(by_tool("check_network", &request), refused);
}

/// The built-in 2024 kitchen without the fridge's butter, written in `scratch`.
fn kitchen_without_butter(scratch: &Scratch) -> std::path::PathBuf {
    let mut kitchen: Value =
        serde_json::from_str(include_str!("../../kitchens/full-kitchen-2024.json")).unwrap();
    let places = kitchen["kitchen"]["contents"].as_array_mut().unwrap();
    let fridge = places.iter_mut().find(|p| p["class"] == "fridge").unwrap();
    let bowls = fridge["contents"].as_array_mut().unwrap();
    let holds_butter = |bowl: &Value| {
        bowl["contents"]
            .as_array()
            .is_some_and(|items| items.iter().any(|i| i["class"] == "butter"))
    };
    let before = bowls.len();
    bowls.retain(|bowl| !holds_butter(bowl));
    assert!(bowls.len() < before, "the built-in fridge holds butter");
    scratch.write("no-butter.json", kitchen.to_string())
}

/// An action that fails in the kitchen is the same warning (W0008) from `check`, the check job
/// and the tool server's check_network.
#[test]
fn the_kitchen_s_warnings_are_the_check_job_s() {
    let scratch = Scratch::new("json-check-kitchen");
    let kitchen = kitchen_without_butter(&scratch);
    let kitchen = kitchen.to_str().unwrap();
    let network = "#demo-garden-salad\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 100 g)\n";
    let file = scratch.write("butter.solution", network);
    let options = ["--kitchen", kitchen];
    let (code, stdout) = on_demo(
        &[
            &options[..],
            &["check", "--format", "json", file.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{stdout}");
    let printed = parsed(&stdout);
    let fails: Vec<&Value> = printed["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "W0008")
        .collect();
    assert_eq!(fails.len(), 1, "{printed}");
    assert_eq!(
        (&fails[0]["line"], &fails[0]["column"]),
        (&json!(3), &json!(1))
    );
    assert_eq!(
        fails[0]["message"],
        format!("the kitchen holds no butter: add it to {kitchen}")
    );
    let request = json!({ "network": network });
    assert_eq!(by_job_with(&options, "check", &request), printed);
    assert_eq!(by_tool_with(&options, "check_network", &request), printed);
    // In the built-in kitchen, which holds butter, the action runs: no such warning.
    let builtin = by_job("check", &request);
    assert!(
        builtin["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["code"] != "W0008"),
        "{builtin}"
    );
}

/// The translate job refuses what `translate` refuses: a translation without an action.
#[test]
fn the_translate_job_refuses_a_translation_without_actions() {
    let scratch = Scratch::new("json-translate-empty");
    let text = "Moon Soup\n\n2 cups moondust\n\nStir the moondust.\n";
    let file = scratch.write("moon.txt", text);
    let (code, stdout) = on_demo(&["translate", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    let request = json!({ "text": text });
    let (code, stdout) = on_demo(&["job", "translate", &request.to_string()]);
    assert_eq!(code, 1, "{stdout}");
    let refused = parsed(&stdout);
    assert_eq!(
        refused,
        json!({
            "error": "the rules translator found no action in the recipe",
            "notes": ["line 3: no kitchen ingredient matches `2 cups moondust`; left out"],
        })
    );
    assert_eq!(by_tool("translate_recipe", &request), refused);
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
