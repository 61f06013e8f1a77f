//! Trajectories and forks (`cookingbot::session::trajectory`): every gold network of
//! both profiles, given with a log, replays identically; a changed log names its first
//! difference; a malformed log is refused at its file and line; a clone goes on without its
//! parent.

use crate::common;
use cookingbot::agent::gold_script;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataSource;
use cookingbot::evaluate::Evaluator;
use cookingbot::report::json::value;
use cookingbot::service::replay::replay;
use cookingbot::service::variation::vary;
use cookingbot::session::Session;
use cookingbot::session::admissible::Query;
use cookingbot::session::observation::Observation;
use cookingbot::session::trajectory::{Difference, Log, Replay};
use cookingbot::simulation::benchmark_world::World;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;

const DEMO_RECIPE: &str = "demo-garden-salad";

fn demo() -> Arc<Evaluator> {
    Arc::new(Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo loads"))
}

/// The gold network's lines, its `#recipe` header aside.
fn gold_lines(ev: &Evaluator, recipe: &str) -> Vec<String> {
    let text = gold_script(&ev.benchmark, recipe).expect("the recipe is the benchmark's");
    let header = format!("#{recipe}");
    (text.lines())
        .filter(|l| *l != header)
        .map(str::to_string)
        .collect()
}

/// A session on `recipe` logging to `path`.
fn logged(ev: &Arc<Evaluator>, recipe: &str, path: &Path) -> Session {
    let mut session = Session::with_evaluator(ev.clone(), recipe).expect("a benchmark recipe");
    session.log_into(Log::create(path).expect("the log opens"), None);
    session
}

fn records(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("the log reads");
    (text.lines())
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// Every gold network of a profile given line by line with a log (progress after every line,
/// the last line taken back and given again, a line the session does not take, finish, and
/// after a reset the first line again): each log replays identically, record for record.
fn gold_logs_replay(profile: Profile) {
    common::require_data!(profile);
    let ev = common::benchmark_evaluator(profile);
    let dir = tempfile::tempdir().expect("a temporary folder");
    for gold in &ev.benchmark.recipes {
        let path = dir.path().join(format!("{}.jsonl", gold.id));
        let mut session = logged(&ev, &gold.id, &path);
        let lines = gold_lines(&ev, &gold.id);
        for line in &lines {
            session.attempt(line);
            session.progress().expect("the gold runs");
        }
        session.undo().expect("a line to take back");
        session.attempt(lines.last().expect("a line"));
        session.attempt("(a line\nof two)");
        let score = session.finish();
        assert!(score.result.is_ok(), "{}", gold.id);
        session.reset().expect("the recipe");
        session.attempt(&lines[0]);
        assert_eq!(session.log_failure(), None);
        let written = records(&path);
        let expected = 2 * lines.len() + 6;
        assert_eq!(written.len(), expected + 1, "{}", gold.id);
        assert_eq!(written[0]["recipe"], json!(gold.id));
        assert_eq!(written[0]["profile"], json!(profile.name()));
        assert_eq!(written[0]["status"], json!("official"));
        assert_eq!(written[1]["call"], json!("act"));
        assert_eq!(written[1]["outcome"], json!("ran"));
        let rejected = &written[expected - 3];
        assert_eq!(rejected["outcome"], json!("rejected"), "{}", gold.id);
        assert_eq!(written[expected - 2]["call"], json!("finish"));
        assert_eq!(written[expected - 2]["score"]["csv"], json!(score.csv));
        assert_eq!(written[expected - 1]["call"], json!("reset"));
        let replayed = replay(&path).unwrap_or_else(|e| panic!("{}: {e}", gold.id));
        let identical = Replay {
            identical: true,
            records: expected,
            difference: None,
        };
        assert_eq!(replayed, identical, "{}", gold.id);
    }
}

#[test]
fn every_gold_network_2024_logged_replays_identically() {
    gold_logs_replay(Profile::R2024);
}

#[test]
fn every_gold_network_2023_logged_replays_identically() {
    gold_logs_replay(Profile::R2023);
}

/// The demo recipe's gold given with a log, in a temporary folder: the folder (kept alive)
/// and the log's path.
fn demo_log() -> (tempfile::TempDir, std::path::PathBuf) {
    let ev = demo();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("run.jsonl");
    let mut session = logged(&ev, DEMO_RECIPE, &path);
    for line in gold_lines(&ev, DEMO_RECIPE) {
        session.attempt(&line);
    }
    session.finish();
    (dir, path)
}

/// Replace line `number` (1-based) of the log at `path` with `with`.
fn edit_line(path: &Path, number: usize, with: impl FnOnce(&str) -> String) {
    let text = std::fs::read_to_string(path).expect("the log reads");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[number - 1] = with(&lines[number - 1]);
    std::fs::write(path, format!("{}\n", lines.join("\n"))).expect("the log writes");
}

#[test]
fn a_changed_observation_is_the_first_difference() {
    let (_dir, path) = demo_log();
    let third = records(&path)[3].clone();
    let text = third["observation"]["text"]
        .as_str()
        .expect("a text")
        .to_string();
    edit_line(&path, 4, |l| l.replace(&text, "nothing happened"));
    let replayed = replay(&path).expect("the log reads");
    let difference = Difference {
        record: 3,
        line: 4,
        field: "observation.text".into(),
        expected: json!("nothing happened"),
        got: json!(text),
    };
    assert_eq!(
        replayed,
        Replay {
            identical: false,
            records: 3,
            difference: Some(difference),
        }
    );
    let words = replayed.words(&path);
    let expected = format!(
        "different at record 3 ({}:4), observation.text: the log holds \"nothing happened\", the replay gave {}",
        path.display(),
        json!(text)
    );
    assert_eq!(words, expected);
}

#[test]
fn changed_gold_since_the_log_is_a_difference_in_its_header() {
    let (_dir, path) = demo_log();
    let sha = records(&path)[0]["gold_sha256"].clone();
    let sha = sha.as_str().expect("a checksum").to_string();
    edit_line(&path, 1, |l| l.replace(&sha, "0000"));
    let replayed = replay(&path).expect("the log reads");
    let difference = replayed.difference.expect("a difference");
    assert_eq!(
        (
            difference.record,
            difference.line,
            difference.field.as_str()
        ),
        (0, 1, "gold_sha256")
    );
    assert_eq!(
        (difference.expected, difference.got),
        (json!("0000"), json!(sha))
    );
}

/// What replaying a log of `text` says.
fn refusal(text: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("bad.jsonl");
    std::fs::write(&path, text).expect("the log writes");
    let error = replay(&path).expect_err("the log is refused");
    let message = error.to_string();
    let prefix = format!("{}:", path.display());
    message
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{message}: not at the file"))
        .to_string()
}

#[test]
fn a_malformed_log_is_refused_at_its_line() {
    let (_dir, path) = demo_log();
    let header = std::fs::read_to_string(&path).expect("the log reads");
    let header = header.lines().next().expect("a header").to_string();
    let with = |records: &str| format!("{header}\n{records}");
    let cases = [
        ("", "1: an empty log: its first line is the header".to_string()),
        ("{not json\n", "1: column 2: key must be a string".into()),
        (
            "{\"recipe\": \"x\"}\n",
            "1: not a trajectory log: the header has no \"trajectory\": \"cookingbot-trajectory\""
                .into(),
        ),
        (
            &header.replace("\"version\":1", "\"version\":2"),
            format!(
                "1: a trajectory log of version 2; this cookingbot ({}) reads version 1",
                env!("CARGO_PKG_VERSION")
            ),
        ),
        (
            &header.replace(DEMO_RECIPE, "demo-garden-slad"),
            "1: the benchmark has no recipe `demo-garden-slad` (did you mean demo-garden-salad?)"
                .into(),
        ),
        (
            &with("{\"call\":\"jump\",\"time\":0}\n"),
            "2: column 14: unknown variant `jump`, expected one of `act`, `undo`, `progress`, `finish`, `reset`, `look`, `hint`, `admissible`".into(),
        ),
        (
            &with("{\"call\":\"act\",\"time\":0}\n"),
            "2: an `act` record needs its `line`".into(),
        ),
        (
            &with("{\"call\":\"look\",\"time\":0}\n"),
            "2: a `look` record needs its `name`".into(),
        ),
        (
            &with("{\"call\":\"admissible\",\"query\":{\"limit\":\"all\"},\"time\":0}\n"),
            "2: an `admissible` record's `query` needs its `limit`, a count".into(),
        ),
        (
            &with("\n{\"call\":\"undo\",\"time\":0}\n"),
            "2: a blank line: every line of a log is one JSON record".into(),
        ),
        (
            &with("{\"call\":\"undo\",\"time\":0}\n{\"call\":\"act\",\"li"),
            "3: column 17: EOF while parsing a string".into(),
        ),
        (
            &with("{\"call\":\"undo\",\"time\":0,\"extra\":1}\n"),
            "2: column 31: unknown field `extra`, expected one of `call`, `line`, `outcome`, `observation`, `progress`, `score`, `name`, `view`, `hint`, `query`, `admissible`, `time`".into(),
        ),
    ];
    let (texts, expected): (Vec<&str>, Vec<String>) = cases.into_iter().unzip();
    let found: Vec<String> = texts.into_iter().map(refusal).collect();
    assert_eq!(found, expected);
}

#[test]
fn a_log_that_is_no_file_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let error = replay(dir.path()).expect_err("a folder is no log");
    assert_eq!(
        error.to_string(),
        format!(
            "{}: cannot read the trajectory log: a directory, not a regular file",
            dir.path().display()
        )
    );
}

#[test]
fn a_clone_goes_on_without_its_parent() {
    let ev = demo();
    let lines = gold_lines(&ev, DEMO_RECIPE);
    let half = lines.len() / 2;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("parent.jsonl");
    let mut parent = logged(&ev, DEMO_RECIPE, &path);
    for line in &lines[..half] {
        parent.attempt(line);
    }
    let before = parent.network();
    let mut fork = parent.clone();
    assert_eq!(fork.lines_given(), parent.lines_given());
    let forked: Vec<Observation> = lines[half..].iter().map(|l| fork.attempt(l)).collect();
    fork.undo().expect("a line to take back");
    // The parent saw none of it: its network, its log and what its next lines make.
    assert_eq!(parent.network(), before);
    assert_eq!(records(&path).len(), half + 1);
    let own: Vec<Observation> = lines[half..].iter().map(|l| parent.attempt(l)).collect();
    assert_eq!(own, forked);
    assert_eq!(
        parent.finish().csv,
        common::file_score(&ev, "x", &parent.network()).0
    );
    assert_ne!(parent.network(), fork.network());
    // And the fork sees nothing of the parent's lines.
    assert_eq!(fork.lines_given(), lines[..lines.len() - 1].to_vec());
}

/// Looks (a variable, a place, an unknown name), hints and admissible lines are logged with
/// what they answered, and replayed: a changed answer is the first difference.
#[test]
fn looks_hints_and_admissible_lines_are_logged_and_replayed() {
    let ev = demo();
    let lines = gold_lines(&ev, DEMO_RECIPE);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("looked.jsonl");
    let mut session = logged(&ev, DEMO_RECIPE, &path);
    session.attempt(&lines[0]);
    let kitchen = session.look("?kitchen").expect("the kitchen is bound");
    let fridge = session.look("Fridge").expect("a place");
    let unknown = session.look("?nowhere").expect_err("no such name");
    let hint = session.hint();
    let query = Query {
        limit: 3,
        primitive: None,
        using: None,
    };
    let offered = session.admissible(&query);
    assert!(!offered.is_empty() && hint.is_some());
    let written = records(&path);
    let calls: Vec<&Value> = written[1..].iter().map(|r| &r["call"]).collect();
    let expected = ["act", "look", "look", "look", "hint", "admissible"];
    assert_eq!(calls, expected.map(|c| json!(c)).iter().collect::<Vec<_>>());
    assert_eq!(written[2]["name"], json!("?kitchen"));
    assert_eq!(written[2]["view"], value(&kitchen));
    assert_eq!(written[3]["name"], json!("Fridge"));
    assert_eq!(written[3]["view"], value(&fridge));
    assert_eq!(
        written[4]["view"],
        json!({ "error": "no variable or place `?nowhere` in the kitchen" })
    );
    assert_eq!(
        unknown.to_string(),
        "no variable or place `?nowhere` in the kitchen"
    );
    assert_eq!(written[5]["hint"], value(&hint));
    assert_eq!(
        written[6]["query"],
        json!({ "limit": 3, "primitive": null, "using": null })
    );
    assert_eq!(written[6]["admissible"], value(&offered));
    assert_eq!(written[6]["time"], written[1]["time"]);
    let identical = Replay {
        identical: true,
        records: 6,
        difference: None,
    };
    assert_eq!(replay(&path).expect("the log reads"), identical);
    let first = offered[0].line.clone();
    edit_line(&path, 7, |l| l.replacen(&first, "(nothing)", 1));
    let difference = replay(&path).expect("the log reads").difference;
    let difference = difference.expect("the changed answer differs");
    assert_eq!(
        (difference.record, difference.line, difference.field),
        (6, 7, "admissible[0].line".to_string())
    );
    assert_eq!(
        (difference.expected, difference.got),
        (json!("(nothing)"), json!(first))
    );
}

/// A session on a generated variation logs the variation in its header, and its replay makes
/// the variation again: its gold replays identically, and the same log read as the official
/// task differs.
#[test]
fn a_variation_logged_replays_on_the_same_variation() {
    common::require_data!(Profile::R2024);
    let ev = common::benchmark_evaluator(Profile::R2024);
    let varied = vary(&ev, &World::default(), "cole-slaw", 2).expect("variation 2");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("varied.jsonl");
    let mut session =
        Session::with_evaluator(varied.evaluator.clone(), "cole-slaw").expect("the recipe");
    session.log_variation_into(Log::create(&path).expect("the log opens"), None, 2);
    let lines: Vec<&str> = varied
        .gold
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .collect();
    for line in &lines {
        assert!(session.attempt(line).ok, "{line}");
    }
    let score = session.finish();
    let result = score.result.expect("the variation's gold is scored");
    let dish = result.formatted(cookingbot::metrics::metric::Metric::DishApproximationScore);
    assert_eq!(dish, "1.00", "{}", score.csv);
    let written = records(&path);
    assert_eq!(written[0]["variation"], json!(2));
    let identical = Replay {
        identical: true,
        records: lines.len() + 1,
        difference: None,
    };
    assert_eq!(replay(&path).expect("the log reads"), identical);
    edit_line(&path, 1, |l| l.replace(",\"variation\":2", ""));
    assert!(
        !records(&path)[0]
            .as_object()
            .expect("a header")
            .contains_key("variation")
    );
    let official = replay(&path).expect("the log reads");
    assert!(
        !official.identical,
        "the official task replays the variation's log alike"
    );
}
