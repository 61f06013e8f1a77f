//! The tool server (`cookingbot-evaluator mcp`) spoken to line by line on pipes, as a careless
//! or hostile client would: requests sharing an id, lines that are not JSON-RPC, a last line
//! without its newline, benchmark folders whose load blocks, a megabyte of network. Each test
//! then checks that the server still answers. The waits are generous deadlines against hangs,
//! never measures of speed.

use crate::common::{self, Scratch};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longer than any call may take (60 s), so that a missing answer fails rather than hangs.
const PATIENCE: Duration = Duration::from_secs(150);

/// The answer of a call the server stopped at its deadline.
const DEADLINE: &str = "the call took over 60 s and was stopped; a smaller network answers sooner";

/// The server on pipes.
pub(super) struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<Value>,
}

impl Server {
    /// `mcp` on the demo benchmark, initialised.
    fn start() -> Server {
        let mut command = common::evaluator();
        command.args(["--benchmark", "demo", "mcp"]);
        Server::of(command)
    }

    pub(super) fn of(mut command: Command) -> Server {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().expect("its stdout");
        let (send, replies) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let line = line.expect("a line of the server");
                let reply = serde_json::from_str(&line).expect("each line one JSON message");
                if send.send(reply).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            stdin: child.stdin.take(),
            child,
            replies,
        };
        server.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "test", "version": "0"}}}));
        assert_eq!(server.reply()["id"], 0);
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("the server's input is open");
        stdin.write_all(bytes).expect("written to the server");
        stdin.flush().expect("flushed");
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(format!("{message}\n").as_bytes());
    }

    /// A call of `tool` with `arguments`, as request `id`.
    pub(super) fn call(&mut self, id: u64, tool: &str, arguments: Value) {
        self.send(&call(id, tool, arguments));
    }

    pub(super) fn reply(&self) -> Value {
        self.replies
            .recv_timeout(PATIENCE)
            .expect("the server answers")
    }

    /// The next reply, if one comes within `wait`.
    fn reply_within(&self, wait: Duration) -> Option<Value> {
        match self.replies.recv_timeout(wait) {
            Ok(reply) => Some(reply),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("the server ended"),
        }
    }

    /// The replies to `n` requests, by id.
    fn replies(&self, n: usize) -> Vec<Value> {
        let mut replies: Vec<Value> = (0..n).map(|_| self.reply()).collect();
        replies.sort_by_key(|r| r["id"].as_u64());
        replies
    }

    /// The server still answers: a ping, and a call that runs as calls run (with a permit).
    fn still_answers(&mut self, id: u64) {
        self.still_answers_on(id, "demo-garden-salad");
    }

    /// [`Server::still_answers`] for a server on a benchmark holding `recipe`: recipe ids are
    /// checked against the server's benchmark.
    fn still_answers_on(&mut self, id: u64, recipe: &str) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
        assert_eq!(
            self.reply(),
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        );
        let network = format!("#{recipe}\n(get-kitchen ?kitchen)\n");
        self.call(id + 1, "check_network", json!({ "network": network }));
        let reply = self.reply();
        assert_eq!(reply["id"], id + 1);
        assert_eq!(
            answer(&reply),
            &json!({"ok": true, "diagnostics": [], "diagnostics_omitted": 0})
        );
    }

    /// Close the server's input: it answers what it was asked, then ends with 0.
    fn close(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the server's status") {
                break status;
            }
            assert!(started.elapsed() < PATIENCE, "the server did not end");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(0));
        self.replies.try_iter().collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn call(id: u64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
}

/// A tool's structured answer.
pub(super) fn answer(reply: &Value) -> &Value {
    &reply["result"]["structuredContent"]
}

#[test]
fn requests_sharing_an_id_in_flight_each_get_an_answer_and_only_the_first_runs() {
    let mut server = Server::start();
    server.call(1, "kitchen_start", json!({"recipe": "demo-garden-salad"}));
    let session = answer(&server.reply())["session"].clone();
    assert_eq!(session, "kitchen-1");
    // Three acts as request 7, in one write: the second and third are read while the first
    // is being answered.
    let act = call(
        7,
        "kitchen_act",
        json!({"session": session, "line": "(get-kitchen ?kitchen)"}),
    );
    server.send_raw(format!("{act}\n{act}\n{act}\n").as_bytes());
    let replies: Vec<Value> = (0..3).map(|_| server.reply()).collect();
    let duplicate = json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
        "message": "invalid request: the id 7 is that of a request still being answered; give each request in flight an id of its own"}});
    let (errors, answers): (Vec<&Value>, Vec<&Value>) =
        replies.iter().partition(|r| r.get("error").is_some());
    assert_eq!(errors, [&duplicate, &duplicate]);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0]["id"], 7);
    assert_eq!(answer(answers[0])["outcome"], "ran");
    // Once answered, the id may be used again; the session holds the one line that ran.
    server.call(7, "kitchen_finish", json!({ "session": session }));
    let finished = server.reply();
    assert_eq!(finished["id"], 7);
    assert_eq!(answer(&finished)["lines"], 1);
    server.still_answers(8);
}

#[test]
fn the_id_of_a_cancelled_request_may_be_used_again() {
    let scratch = Scratch::new("mcp-cancelled");
    let bench = blocking_benchmark(&scratch);
    let mut server = Server::start();
    server.call(
        1,
        "kitchen_start",
        json!({"recipe": "demo-garden-salad", "benchmark": bench}),
    );
    let (_writer, refused) = blocked_or_refused(&server, &scratch);
    if refused.is_none() {
        // Cancelled while its load blocks: it is not answered, and its id is free.
        server.send(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": 1}}),
        );
    }
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
    assert_eq!(
        server.reply(),
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    server.still_answers(2);
}

#[test]
fn an_error_reply_to_a_request_whose_id_cannot_be_read_says_id_null() {
    let mut server = Server::start();
    server.send_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"\n");
    let reply = server.reply();
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
            "message": "parse error: EOF while parsing an object at line 1 column 36"}})
    );
    server.send_raw(b"[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}]\n");
    let reply = server.reply();
    assert_eq!(reply["id"], Value::Null);
    assert_eq!(reply["error"]["code"], -32600);
    server.still_answers(2);
}

#[test]
fn a_last_request_without_its_newline_is_answered_before_the_server_ends() {
    let mut server = Server::start();
    let network = "#demo-garden-salad\n(get-kitchen ?kitchen)\n(fetch ?x\n";
    let request = call(3, "check_network", json!({ "network": network }));
    server.send_raw(request.to_string().as_bytes());
    let replies = server.close();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0]["id"], 3);
    assert_eq!(
        answer(&replies[0]),
        &json!({"ok": false, "diagnostics": [{"code": "E0002", "line": 3, "column": 1,
            "severity": "error", "message": "this `(` is not closed on its line",
            "hint": "a predicate must fit on one line; add the missing `)`"}],
            "diagnostics_omitted": 0})
    );
}

/// A user benchmark `bench` in `scratch` whose `ontology.json` is a FIFO no one writes: its
/// load blocks (or is refused, where extension files must be regular files).
fn blocking_benchmark(scratch: &Scratch) -> String {
    let made = common::outcome(
        common::evaluator()
            .current_dir(scratch as &std::path::Path)
            .args(["new-benchmark", "bench"]),
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let fifo = std::ffi::CString::new(
        scratch
            .path("bench/ontology.json")
            .to_str()
            .expect("a UTF-8 path"),
    )
    .unwrap();
    // SAFETY: mkfifo on a path of our scratch folder.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    scratch.path("bench").display().to_string()
}

/// A FIFO opened for writing, once a reader has it open (`None` while none has).
fn writer_of(fifo: &std::path::Path) -> Option<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(fifo)
        .ok()
}

/// Once the server's load of `blocking_benchmark` reads its FIFO, the FIFO's writing end
/// (the load then blocks until it is written or closed); or the reply refusing the FIFO.
fn blocked_or_refused(
    server: &Server,
    scratch: &Scratch,
) -> (Option<std::fs::File>, Option<Value>) {
    let fifo = scratch.path("bench/ontology.json");
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < PATIENCE,
            "the load neither read nor refused"
        );
        if let Some(writer) = writer_of(&fifo) {
            return (Some(writer), None);
        }
        if let Some(reply) = server.reply_within(Duration::from_millis(20)) {
            return (None, Some(reply));
        }
    }
}

/// The answer of a call whose load never ends: stopped at the deadline, or waiting for the
/// same load until then; or, where extension files must be regular files, refused.
fn refused_or_stopped(reply: &Value) -> bool {
    let error = answer(reply)["error"].as_str().unwrap_or_default();
    let waited = "the benchmark asked for is still being loaded for another call; ask again";
    reply["result"]["isError"] == true
        && (error == DEADLINE || error == waited || error.contains("not a regular file"))
}

#[test]
fn a_benchmark_load_that_blocks_holds_up_no_other_call() {
    let scratch = Scratch::new("mcp-slow-load");
    let bench = blocking_benchmark(&scratch);
    let mut server = Server::start();
    server.call(
        1,
        "kitchen_start",
        json!({"recipe": "demo-garden-salad", "benchmark": bench}),
    );
    let (writer, mut first) = blocked_or_refused(&server, &scratch);
    // Meanwhile another benchmark loads, and calls run.
    server.call(
        2,
        "kitchen_start",
        json!({"recipe": "demo-garden-salad", "benchmark": "demo"}),
    );
    let started = server.reply();
    assert_eq!(started["id"], 2);
    assert_eq!(answer(&started)["session"], "kitchen-1");
    server.still_answers(3);
    if let Some(mut writer) = writer {
        // The load goes on once the FIFO gives it an ontology it cannot use.
        writer.write_all(b"not json").expect("written to the FIFO");
        drop(writer);
        first = Some(server.reply());
    }
    let first = first.expect("the slow load's answer");
    assert_eq!(first["id"], 1);
    assert_eq!(first["result"]["isError"], true);
    let error = answer(&first)["error"].as_str().expect("an error");
    assert!(error.contains("ontology.json"), "{error}");
    server.still_answers(5);
}

#[test]
fn loads_that_never_end_are_answered_at_their_deadline_and_the_server_answers_after() {
    let scratch = Scratch::new("mcp-endless-load");
    let bench = blocking_benchmark(&scratch);
    let mut server = Server::start();
    // As many as calls work at once: each blocked load held its permit for good.
    for id in 1..=4 {
        server.call(
            id,
            "kitchen_start",
            json!({"recipe": "demo-garden-salad", "benchmark": bench}),
        );
    }
    for reply in server.replies(4) {
        assert!(refused_or_stopped(&reply), "{reply}");
    }
    server.still_answers(6);
    server.call(
        8,
        "kitchen_start",
        json!({"recipe": "demo-garden-salad", "benchmark": "demo"}),
    );
    assert_eq!(answer(&server.reply())["session"], "kitchen-1");
}

/// What the process `pid` holds in memory now and at most, in bytes (`VmRSS`, `VmHWM`).
fn resident(pid: u32) -> (u64, u64) {
    let status = common::read(std::path::Path::new(&format!("/proc/{pid}/status")));
    let field = |name: &str| {
        let line = status
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in /proc/{pid}/status"));
        let kib: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("a size in kB");
        kib * 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

#[test]
fn the_memory_of_a_large_call_is_given_back_after_its_answer() {
    let mut server = Server::start();
    server.still_answers(1);
    let (before, _) = resident(server.child.id());
    // A megabyte of repeated constants: a diagnostic each.
    let network = format!(
        "#demo-garden-salad\n(get-kitchen ?kitchen{})\n",
        " get-kitchen".repeat(80_000)
    );
    server.call(3, "check_network", json!({ "network": network }));
    let reply = server.reply();
    assert_eq!(answer(&reply)["ok"], false);
    let (after, peak) = resident(server.child.id());
    eprintln!(
        "check_network of 1 MB: resident {} MiB before, {} MiB at most, {} MiB after",
        before >> 20,
        peak >> 20,
        after >> 20
    );
    // Whatever the call needed at its peak, at most 64 MiB of it is kept.
    assert!(
        after < before + (64 << 20),
        "{} MiB kept after the call",
        (after - before) >> 20
    );
    server.still_answers(4);
}

/// The user benchmark `bench` in `scratch`, with the salad of `tests/fixtures/user-benchmark`
/// and the built-in 2024 kitchen as its `kitchen.json`; the salad's gold network's path.
fn salad_benchmark(scratch: &Scratch) -> std::path::PathBuf {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/user-benchmark");
    let gold = std::path::Path::new(fixtures).join("tomato-basil-salad.solution");
    let made = common::outcome(
        common::evaluator()
            .current_dir(&**scratch)
            .args(["new-benchmark", "bench"]),
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let added = common::outcome(
        common::evaluator()
            .current_dir(&**scratch)
            .args(["add-recipe", "--benchmark", "bench", "--text"])
            .arg(gold.with_extension("txt"))
            .arg("--gold")
            .arg(&gold),
    );
    assert_eq!(added.code, 0, "{}", added.stderr);
    scratch.write("bench/kitchen.json", common::read(&full_kitchen()));
    gold
}

fn full_kitchen() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kitchens/full-kitchen-2024.json")
}

/// `kitchen` with every object of `class` taken out of its places.
fn without(kitchen: &mut Value, class: &str) {
    if let Some(contents) = kitchen.get_mut("contents").and_then(Value::as_array_mut) {
        contents.retain(|o| o["class"] != class);
        for o in contents {
            without(o, class);
        }
    }
}

/// A user benchmark's kitchen.json edited between two calls: the tool server scores against
/// the file as it is now (its evaluator follows `service::data_stamp`), as the command line
/// does on every run, and again as before once the file is put back.
#[test]
fn an_edited_kitchen_of_a_user_benchmark_is_read_again_between_two_calls() {
    let scratch = Scratch::new("mcp-edited-kitchen");
    let gold = salad_benchmark(&scratch);
    let network = common::read(&gold);
    let mut command = common::evaluator();
    command
        .current_dir(&*scratch)
        .args(["--benchmark", "bench", "mcp"]);
    let mut server = Server::of(command);
    let dish = |reply: &Value| answer(reply)["recipes"][0]["dish_approximation_score"].clone();
    server.call(1, "score_network", json!({ "network": network }));
    assert_eq!(dish(&server.reply()), json!(1.0));
    let mut kitchen: Value =
        serde_json::from_str(&common::read(&full_kitchen())).expect("the kitchen's JSON");
    without(&mut kitchen["kitchen"], "cherry-tomato");
    scratch.write("bench/kitchen.json", kitchen.to_string());
    let cli = common::outcome(
        common::evaluator()
            .current_dir(&*scratch)
            .args(["--benchmark", "bench", "-output", "-", "-input"])
            .arg(&gold),
    );
    let refusal = "the gold network of tomato-basil-salad fails to run: There is no applicable \
                   method for the generic function CONTENTS when called with arguments (NIL)";
    assert_eq!(cli.code, 1, "{}", cli.stderr);
    assert!(
        cli.stderr
            .contains(&format!("{}: {refusal}", gold.display())),
        "{}",
        cli.stderr
    );
    server.call(2, "score_network", json!({ "network": network }));
    let refused = server.reply();
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert_eq!(answer(&refused)["error"], refusal, "{refused}");
    scratch.write("bench/kitchen.json", common::read(&full_kitchen()));
    server.call(3, "score_network", json!({ "network": network }));
    assert_eq!(dish(&server.reply()), json!(1.0));
    server.still_answers_on(4, "tomato-basil-salad");
}

/// The cap the memory-budget tests run the server under (as `bounds.rs` runs the command).
const MEMORY_CAP: u64 = 3 << 30;

/// A kitchen session of portions heaped on the counter-top: the line past the memory budget
/// is refused in its observation, located, with the budget's words (the server once grew to
/// gigabytes and aborted, and every client got EOF), and the server answers on: the session
/// takes the next line, and other calls run.
#[test]
fn a_session_past_the_memory_budget_is_refused_at_its_line_and_the_server_answers_on() {
    let mut command = common::evaluator();
    command.args(["--benchmark", "demo", "mcp"]);
    common::capped(&mut command, MEMORY_CAP);
    let mut server = Server::of(command);
    server.call(
        1,
        "kitchen_start",
        json!({"recipe": "demo-shortbread-rounds"}),
    );
    let session = answer(&server.reply())["session"].clone();
    // 71 pairs: each kitchen state shares the counter-top's list of portions.
    let heap = common::portion_heap("demo-shortbread-rounds", "butter", 71);
    let mut observations = Vec::new();
    for (id, line) in (2..).zip(heap.lines().skip(1)) {
        server.call(id, "kitchen_act", json!({"session": session, "line": line}));
        let reply = server.reply();
        assert_eq!(reply["id"], id);
        observations.push(answer(&reply).clone());
    }
    let (refused, ran) = observations.split_last().expect("observations");
    assert!(
        ran.iter().all(|o| o["outcome"] == "ran"),
        "{:?}",
        ran.last()
    );
    let budget = "recipe demo-shortbread-rounds was not scored within its memory budget of \
                  24000000 kitchen cells (objects, their slots and list items, about 1 GB); \
                  it was in the simulation at action 143 (`portion-and-arrange`)";
    assert_eq!(
        (&refused["outcome"], &refused["line"]),
        (&json!("refused"), &json!(144))
    );
    assert_eq!(
        refused["text"],
        format!("portion-and-arrange was refused by the recipe's budget: {budget}")
    );
    assert_eq!(
        (
            &refused["diagnostics"][0]["line"],
            &refused["diagnostics"][0]["message"]
        ),
        (&json!(144), &json!(budget))
    );
    server.call(
        200,
        "kitchen_act",
        json!({"session": session,
               "line": "(preheat-oven ?hot-oven ?ks-oven ?ks70 ?oven 180 degrees-celsius)"}),
    );
    assert_eq!(answer(&server.reply())["outcome"], "ran");
    server.still_answers(201);
}
