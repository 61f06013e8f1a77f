//! The agents of `cookingbot::agent` and their examples (`examples/agent_*.rs`): the
//! replaying agent scores a gold network as its file; the repairing agent repairs each kind of
//! failed line from the observation's fields; the language-model loop against a scripted fake
//! server (a wrong line it recovers from, undo, prose, bounds); and docs/agents.md's table is
//! what the repairing agent scores now.

#[path = "../../examples/agent_replay.rs"]
mod agent_replay;

#[path = "../../examples/agent_repair.rs"]
mod agent_repair;

#[path = "../../examples/agent_llm.rs"]
mod agent_llm;

use crate::common;
use common::fake_llm::{fake_server_on_localhost, ok};
use cookingbot::agent::llm::{self, Answer, LlmAgentConfig, Stop, read_answer};
use cookingbot::agent::repair::{RepairKind, repair};
use cookingbot::agent::{Episode, gold_script};
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataSource;
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::Metric;
use cookingbot::session::Session;
use cookingbot::session::observation::Outcome;
use cookingbot::translate::llm::chat::{HttpBackend, ServerConfig};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn demo() -> Arc<Evaluator> {
    Arc::new(Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo loads"))
}

/// The episode's score is the evaluation of the network it left, and of `expected` (CSV and
/// JSON); returns the four printed metrics.
fn scores_as(ev: &Evaluator, episode: &Episode, expected: &str) -> Vec<String> {
    let (csv, json) = common::file_score(ev, "x.solution", expected);
    assert_eq!(episode.score.csv, csv);
    assert_eq!(episode.score.json, json);
    let row = episode.score.result.as_ref().expect("scored");
    Metric::ALL.iter().map(|&m| row.formatted(m)).collect()
}

/// Every demo recipe's gold network replayed by the example: every line runs, the score is
/// the gold file's evaluation (Smatch 1.00 against itself) and the example prints it last.
#[test]
fn the_replaying_agent_scores_the_demo_golds_as_their_files() {
    let ev = demo();
    for id in ev.benchmark.ids() {
        let mut out = Vec::new();
        let episode = agent_replay::run(ev.clone(), Some(id), &mut out).expect("replays");
        let gold = gold_script(&ev.benchmark, id).unwrap();
        assert_eq!(episode.turns.len(), gold.lines().count() - 1);
        assert!(
            episode
                .turns
                .iter()
                .all(|t| t.observation.outcome == Outcome::Ran)
        );
        let printed = scores_as(&ev, &episode, &gold);
        assert_eq!(printed[..3], ["1.00", "1.00", "1.00"], "{id}");
        let out = String::from_utf8(out).unwrap();
        let last = out.lines().last().unwrap();
        assert_eq!(
            last,
            format!(
                "{id}: smatch-score 1.00, goal-condition-success 1.00, dish-approximation-score 1.00, execution-time {}",
                printed[3]
            )
        );
    }
}

/// The 30 official gold networks of 2024 replayed by the example score as their files.
#[test]
fn the_replaying_agent_scores_the_official_golds_as_their_files() {
    common::require_data!();
    let ev = Arc::new(Evaluator::new(Profile::R2024, common::benchmark_dir()).unwrap());
    let ids: Vec<String> = ev.benchmark.ids().iter().map(|s| s.to_string()).collect();
    assert_eq!(ids.len(), 30);
    for id in &ids {
        let episode = agent_replay::run(ev.clone(), Some(id), &mut Vec::new()).unwrap();
        let gold = gold_script(&ev.benchmark, id).unwrap();
        assert_eq!(scores_as(&ev, &episode, &gold)[0], "1.00", "{id}");
    }
}

/// The demo salad's gold network with a mistake of each kind the agent repairs, and a line
/// given before the line that makes its input.
fn garden_salad_with_mistakes(gold: &str) -> String {
    let mut lines: Vec<String> = gold.lines().map(str::to_string).collect();
    let edit = |lines: &mut Vec<String>, at: usize, from: &str, to: &str| {
        assert!(lines[at].contains(from), "{}", lines[at]);
        lines[at] = lines[at].replace(from, to);
    };
    edit(&mut lines, 3, "red-wine-vinegar", "red-wine-vinegr");
    edit(&mut lines, 5, "(fetch ?jar", "(fecth ?jar");
    edit(&mut lines, 5, "?ks-with-salt", "?ks-with-cut-salt");
    edit(&mut lines, 10, "?covered-jar)", "?covered-jr)");
    edit(&mut lines, 12, "?proportioned-greens", "?proportioned-salt");
    edit(&mut lines, 16, "?proportioned-greens", "?proportioned-salt");
    edit(
        &mut lines,
        14,
        "?cutting-board)",
        "?cutting-board ?extra-board)",
    );
    edit(&mut lines, 19, "?wooden-spoon", "?jar");
    // Salt cannot be cut: the primitive signals an error.
    lines.insert(
        5,
        "(cut ?cut-salt ?ks-with-cut-salt ?ks-with-salt ?proportioned-salt sliced ?knife-2 ?board-2)"
            .into(),
    );
    // The cucumber before the greens, whose kitchen state it takes.
    lines.swap(13, 14);
    lines.join("\n") + "\n"
}

/// Each repair is made from the observation's fields and the repaired network is the gold one
/// but for variable names and the order of two lines: it scores as the gold.
#[test]
fn the_repairing_agent_repairs_each_kind_of_failed_line() {
    let ev = demo();
    let gold = gold_script(&ev.benchmark, "demo-garden-salad").unwrap();
    let script = garden_salad_with_mistakes(&gold);
    let mut session = Session::with_evaluator(ev.clone(), "demo-garden-salad").unwrap();
    let done = repair(&mut session, &script).unwrap();
    let made: Vec<(RepairKind, &str, Vec<&str>)> = done
        .repairs
        .iter()
        .map(|r| {
            let instead = r.instead.iter().map(String::as_str).collect();
            (r.kind, r.line.as_str(), instead)
        })
        .collect();
    assert_eq!(
        made,
        [
            (
                RepairKind::Suggested,
                "(fetch-and-proportion ?proportioned-vinegar ?ks-with-vinegar ?ks-with-olive-oil ?target-container-2 red-wine-vinegr 1 tablespoon)",
                vec![
                    "(fetch-and-proportion ?proportioned-vinegar ?ks-with-vinegar ?ks-with-olive-oil ?target-container-2 red-wine-vinegar 1 tablespoon)"
                ],
            ),
            (
                RepairKind::LeftOut,
                "(cut ?cut-salt ?ks-with-cut-salt ?ks-with-salt ?proportioned-salt sliced ?knife-2 ?board-2)",
                vec![],
            ),
            (
                RepairKind::Suggested,
                "(fecth ?jar ?ks-with-jar ?ks-with-salt jar 1)",
                vec!["(fetch ?jar ?ks-with-jar ?ks-with-salt jar 1)"],
            ),
            (
                RepairKind::Rebound,
                "(shake ?vinaigrette ?ks-with-vinaigrette ?ks-with-covered-jar ?covered-jr)",
                vec!["(shake ?vinaigrette ?ks-with-vinaigrette ?ks-with-covered-jar ?covered-jar)"],
            ),
            (
                RepairKind::Renamed,
                "(fetch-and-proportion ?proportioned-salt ?ks-with-greens ?ks-with-open-jar ?target-container-4 mixed-greens 150 g)",
                vec![
                    "(fetch-and-proportion ?proportioned-salt-2 ?ks-with-greens ?ks-with-open-jar ?target-container-4 mixed-greens 150 g)"
                ],
            ),
            (
                RepairKind::Arity,
                "(cut ?sliced-cucumber ?ks-with-sliced-cucumber ?ks-with-cucumber ?proportioned-cucumber sliced ?knife ?cutting-board ?extra-board)",
                vec![
                    "(cut ?sliced-cucumber ?ks-with-sliced-cucumber ?ks-with-cucumber ?proportioned-cucumber sliced ?knife ?cutting-board)"
                ],
            ),
            (
                RepairKind::DefaultTool,
                "(mingle ?garden-salad ?ks-with-garden-salad ?output-ks-f ?output-container-f ?jar)",
                vec![
                    "(mingle ?garden-salad ?ks-with-garden-salad ?output-ks-f ?output-container-f ?jar-2)"
                ],
            ),
        ]
    );
    // The cucumber waited for the greens' kitchen state and ran right after it.
    let cucumber = done
        .episode
        .turns
        .iter()
        .find(|t| t.line.contains("cucumber 1 piece"))
        .unwrap();
    assert_eq!(cucumber.observation.outcome, Outcome::Waiting);
    assert!(!cucumber.taken_back);
    assert!(session.waiting().is_empty() && session.unbound().is_empty());
    let network = session.network();
    assert!(network.contains("(transfer-contents ?output-container-d ?rest-d ?output-ks-d ?ks-with-large-bowl ?large-bowl ?proportioned-salt-2 ?quantity-d ?unit-d)\n"));
    let expected = scores_as(&ev, &done.episode, &network);
    let (_, gold_json) = common::file_score(&ev, "x.solution", &gold);
    let gold_row = &gold_json["scored"]["row"];
    let row = &done.episode.score.json["scored"]["row"];
    assert_eq!(row, gold_row, "{network}");
    assert_eq!(expected[..3], ["1.00", "1.00", "1.00"]);
}

/// A line still waiting when the script is done, because the line that was to make its input
/// was left out, is given again with that line's inputs and runs.
#[test]
fn a_line_left_waiting_is_given_again_when_the_script_is_done() {
    let ev = demo();
    let gold = gold_script(&ev.benchmark, "demo-garden-salad").unwrap();
    let mut lines: Vec<String> = gold.lines().map(str::to_string).collect();
    // The salt (line 4) given before a cut of the vinegar, which signals an error, that was
    // to make the salt's kitchen state.
    lines[4] = lines[4].replace("?ks-with-vinegar", "?ks-with-cut-vinegar");
    lines.insert(
        4,
        "(cut ?cut-vinegar ?ks-with-cut-vinegar ?ks-with-vinegar ?proportioned-vinegar sliced ?knife-2 ?board-2)".into(),
    );
    lines.swap(4, 5);
    let script = lines.join("\n") + "\n";
    let mut session = Session::with_evaluator(ev.clone(), "demo-garden-salad").unwrap();
    let done = repair(&mut session, &script).unwrap();
    let kinds: Vec<RepairKind> = done.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [RepairKind::LeftOut]);
    assert!(session.waiting().is_empty() && session.unbound().is_empty());
    assert!(session.network().contains(
        "(fetch-and-proportion ?proportioned-salt ?ks-with-salt ?ks-with-vinegar ?target-container-3 salt 1/2 teaspoon)\n"
    ));
    let printed = scores_as(&ev, &done.episode, &session.network());
    assert_eq!(printed[..3], ["1.00", "1.00", "1.00"]);
}

/// The rules translator's network of almond-crescent-cookies-5 covers cookies on a baking
/// tray, which is no coverable container: the agent moves them into a bowl first, and the
/// network that did not run to its end as a file now does.
#[test]
fn the_repair_example_moves_what_sits_in_the_wrong_container() {
    common::require_data!();
    let mut out = Vec::new();
    let done = agent_repair::run(Profile::R2024, "almond-crescent-cookies-5", false, &mut out)
        .expect("runs");
    assert_eq!(done.repairs.len(), 1);
    let r = &done.repairs[0];
    assert_eq!(r.kind, RepairKind::Moved);
    assert_eq!(r.line, "(cover ?covered ?ks-29 ?ks-28 ?cooled ?cover)");
    assert_eq!(
        r.instead,
        [
            "(fetch ?container ?ks-container ?ks-28 medium-bowl 1)",
            "(transfer-contents ?moved ?rest-7 ?ks-moved ?ks-container ?container ?cooled ?quantity-7 ?unit-7)",
            "(cover ?covered ?ks-29 ?ks-moved ?moved ?cover)",
        ]
    );
    let out = String::from_utf8(out).unwrap();
    let tail: Vec<&str> = out.lines().rev().take(2).collect();
    assert_eq!(
        tail,
        [
            "repairing agent: smatch-score 0.93, goal-condition-success 0.41, dish-approximation-score 0.55, execution-time 3535",
            "one shot:        smatch-score 0.87, goal-condition-success NIL, dish-approximation-score NIL, execution-time NIL",
        ]
    );
}

/// docs/agents.md's table is what the repairing agent scores now, for both profiles.
#[test]
fn the_agents_table_is_what_the_repairing_agent_scores() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/agents.md");
    let doc = std::fs::read_to_string(doc).unwrap();
    let fresh = agent_repair::tables().expect("the table");
    assert_eq!(fresh.matches("| profile ").count(), 2, "{fresh}");
    assert!(
        doc.contains(&fresh),
        "docs/agents.md's table changed: regenerate it with `cargo run --release --example agent_repair -- --table`:\n{fresh}"
    );
}

#[test]
fn answers_are_read_one_line_at_a_time() {
    let line = "(get-kitchen ?kitchen)";
    assert_eq!(read_answer(line), Answer::Line(line.into()));
    let fenced = format!("Sure, here it is:\n```\n{line}\n(fetch ?a ?b ?c jar 1)\n```");
    assert_eq!(read_answer(&fenced), Answer::Line(line.into()));
    assert_eq!(read_answer("`finish`"), Answer::Finish);
    assert_eq!(read_answer("(finish)"), Answer::Finish);
    assert_eq!(read_answer("Done."), Answer::Finish);
    assert_eq!(read_answer(" undo\n"), Answer::Undo);
    assert_eq!(read_answer("I would mix the butter."), Answer::Nothing);
    assert_eq!(read_answer(""), Answer::Nothing);
}

/// The one-answer grammar is the language's with another start: an action, `undo` or
/// `finish`.
#[test]
fn the_answer_grammar_starts_with_one_action_undo_or_finish() {
    use cookingbot::data::catalogue::Catalogue;
    for profile in Profile::ALL {
        let catalogue = Catalogue::builtin(profile);
        let grammar = llm::answer_grammar(&catalogue);
        let roots: Vec<&str> = grammar.lines().filter(|l| l.starts_with("root")).collect();
        assert_eq!(
            roots,
            ["root      ::= action | \"undo\\n\" | \"finish\\n\""]
        );
        let rest: Vec<&str> = grammar.lines().filter(|l| !l.starts_with("root")).collect();
        let network = cookingbot::translate::llm::grammar::grammar(&catalogue);
        let language: Vec<&str> = network.lines().filter(|l| !l.starts_with("root")).collect();
        assert_eq!(rest, language);
    }
}

fn server(url: &str) -> HttpBackend {
    HttpBackend::new(ServerConfig {
        url: url.into(),
        key: None,
        retries: 0,
        backoff: Duration::from_millis(10),
    })
}

/// The user turn of a request the fake server received.
fn user_turn(body: &str) -> String {
    let request: serde_json::Value = serde_json::from_str(body).unwrap();
    request["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The model's answers scripted: the first action, a misspelt primitive (refused, taken back,
/// the model reads the did-you-mean), prose, a line it takes back itself, then the gold
/// network's lines and `finish`. The network written is the gold one and scores as it.
#[test]
fn the_llm_agent_recovers_from_a_wrong_line_against_a_fake_server() {
    let ev = demo();
    let gold = gold_script(&ev.benchmark, "demo-shortbread-rounds").unwrap();
    let lines: Vec<&str> = gold.lines().skip(1).collect();
    let mut answers = vec![
        ok(&format!("```\n{}\n```", lines[0])),
        ok(&lines[1].replace("fetch-and-proportion", "fecth-and-proportion")),
        ok("Let me think about the butter."),
        ok(lines[1]),
        ok("(fetch ?extra-bowl ?ks-extra ?ks-with-butter medium-bowl 1)"),
        ok("undo"),
    ];
    answers.extend(lines[2..].iter().map(|l| ok(l)));
    answers.push(ok("finish"));
    let count = answers.len();
    let (url, seen) = fake_server_on_localhost(answers);
    let config = LlmAgentConfig {
        grammar: true,
        ..LlmAgentConfig::default()
    };
    let mut out = Vec::new();
    let run = agent_llm::run(
        ev.clone(),
        Some("demo-shortbread-rounds"),
        &mut server(&url),
        &config,
        &mut out,
    )
    .expect("runs");
    assert_eq!(run.stop, Stop::Finished);
    assert_eq!(run.answers, count);
    let taken_back: Vec<bool> = run.episode.turns.iter().map(|t| t.taken_back).collect();
    let mut expected = vec![false, true, false, true];
    expected.extend(std::iter::repeat_n(false, lines.len() - 2));
    assert_eq!(taken_back, expected);
    let printed = scores_as(&ev, &run.episode, &gold);
    assert_eq!(printed[..3], ["1.00", "1.00", "1.00"]);

    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), count);
    let first: serde_json::Value = serde_json::from_str(&seen[0]).unwrap();
    assert_eq!(
        first["grammar"].as_str().unwrap(),
        llm::answer_grammar(&ev.model.catalogue)
    );
    let system = first["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("\n(fetch-and-proportion ?container-with-ingredient ?ks-out ?ks-in"));
    let opening = user_turn(&seen[0]);
    assert!(opening.contains("KITCHEN:\n") && opening.contains("LAST ANSWER: Nothing yet"));
    let after_misspelt = user_turn(&seen[2]);
    assert!(
        after_misspelt.contains("(taken back): the reference refuses a network with this line: unknown primitive `fecth-and-proportion`\n- line 3:2 error[E0103]: unknown primitive `fecth-and-proportion` (did you mean `fetch-and-proportion`?)"),
        "{after_misspelt}"
    );
    assert!(after_misspelt.contains("NETWORK SO FAR:\n(get-kitchen ?kitchen)\n\n"));
    assert!(user_turn(&seen[3]).contains("LAST ANSWER: Your answer held no action line"));
    assert!(user_turn(&seen[6]).contains("LAST ANSWER: You took back `(fetch ?extra-bowl"));
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains(&format!("stopped: Finished after {count} answers\n")));
}

/// The loop's bounds: answers that give no line stop it after `max_failures` in a row, the
/// steps after `max_steps`, and a server that cannot be reached at once.
#[test]
fn the_llm_agent_loop_is_bounded() {
    let ev = demo();
    let session = || Session::with_evaluator(ev.clone(), "demo-garden-salad").unwrap();
    let config = LlmAgentConfig {
        max_steps: 4,
        max_failures: 3,
        ..LlmAgentConfig::default()
    };
    let (url, seen) = fake_server_on_localhost(vec![ok("hmm"), ok("(nope"), ok("no"), ok("x")]);
    let run = llm::run(&mut session(), &mut server(&url), &config).unwrap();
    assert_eq!((run.stop, run.answers), (Stop::Failures, 3));
    assert_eq!(seen.lock().unwrap().len(), 3);
    assert!(
        run.episode.score.result.is_err(),
        "an empty network is refused"
    );

    let (url, _) = fake_server_on_localhost(vec![
        ok("(get-kitchen ?kitchen)"),
        ok("oops"),
        ok("(get-kitchen ?kitchen-2)"),
        ok("undo"),
        ok("finish"),
    ]);
    let mut kitchen = session();
    let run = llm::run(&mut kitchen, &mut server(&url), &config).unwrap();
    assert_eq!((run.stop, run.answers), (Stop::Steps, 4));
    // The second get-kitchen was refused and taken back; the model took the first back.
    let taken_back: Vec<bool> = run.episode.turns.iter().map(|t| t.taken_back).collect();
    assert_eq!(taken_back, [true, true]);
    assert_eq!(kitchen.network(), "#demo-garden-salad\n");

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let closed = format!("http://127.0.0.1:{port}/v1");
    let run = llm::run(&mut session(), &mut server(&closed), &config).unwrap();
    assert!(matches!(run.stop, Stop::Unavailable(_)), "{:?}", run.stop);
    assert_eq!(run.answers, 0);
}

/// SmolLM2-135M on CPU writes the demo shortbread's network through the loop, held to the
/// one-answer grammar: every line it gives is an action of the language, the loop ends within
/// its steps, and the score is the evaluation of the network it wrote. Runs when
/// `COOKINGBOT_SMOLLM2_GGUF` names the model (`.ci/run` sets it).
#[test]
fn smollm2_acts_in_the_kitchen_through_the_loop() {
    let Some((_server, url)) = common::llama::smollm2() else {
        return;
    };
    let ev = demo();
    let mut session = Session::with_evaluator(ev.clone(), "demo-shortbread-rounds").unwrap();
    let mut backend = HttpBackend::new(ServerConfig {
        url,
        key: None,
        retries: 5,
        backoff: Duration::from_secs(1),
    });
    let config = LlmAgentConfig {
        grammar: true,
        max_steps: 4,
        max_tokens: 80,
        ..LlmAgentConfig::default()
    };
    let run = llm::run(&mut session, &mut backend, &config).unwrap();
    assert!(!matches!(run.stop, Stop::Unavailable(_)), "{:?}", run.stop);
    assert!((1..=4).contains(&run.answers), "{}", run.answers);
    for turn in &run.episode.turns {
        assert!(turn.line.starts_with('('), "{}", turn.line);
    }
    let (csv, json) = common::file_score(&ev, &session.file_name(), &session.network());
    assert_eq!(run.episode.score.csv, csv);
    assert_eq!(run.episode.score.json, json);
}
