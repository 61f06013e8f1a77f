//! JSON-RPC streams to the tool server (`cookingbot-evaluator mcp` on the demo benchmark, one
//! process per input): tool calls with hostile arguments (portion bombs and dense constants in
//! kitchen sessions, networks up to the server's bound), malformed lines, invalid UTF-8, ids of
//! every type, repeated ids, notifications, and a last line without its newline. A stream is
//! wrong when the server dies, stays past [`DEADLINE`], peaks over the memory budget, or leaves
//! a request with a string or integer id without exactly one answer per time it was sent.

use crate::{Input, MEMORY_BUDGET_KB, Target, Verdict};
use cookingbot::base::profile::Profile;
use cookingbot::base::random::SplitMix64;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a stream may take before the server is killed and the stream kept.
const DEADLINE: Duration = Duration::from_secs(180);

/// The demo benchmark's recipe the sessions open, and a line of it.
const RECIPE: &str = "demo-shortbread-rounds";

const TOOLS: [&str; 9] = [
    "check_network",
    "simulate_network",
    "score_network",
    "kitchen_start",
    "kitchen_act",
    "kitchen_look",
    "kitchen_finish",
    "scale_recipe",
    "list_primitives",
];

pub struct Streams {
    binary: PathBuf,
    profile: Profile,
}

impl Streams {
    pub fn new(profile: Profile) -> Result<Streams, String> {
        let binary = match std::env::var_os("COOKINGBOT_BIN") {
            Some(path) => PathBuf::from(path),
            None => std::env::current_exe()
                .map_err(|e| e.to_string())?
                .parent()
                .and_then(|examples| examples.parent())
                .map(|dir| dir.join("cookingbot-evaluator"))
                .ok_or("no folder of the fuzzer's own")?,
        };
        if !binary.is_file() {
            return Err(format!(
                "{}: no server to fuzz (build it, or set COOKINGBOT_BIN)",
                binary.display()
            ));
        }
        Ok(Streams { binary, profile })
    }
}

impl Target for Streams {
    fn describe(&self) -> String {
        format!("JSON-RPC streams to {} mcp", self.binary.display())
    }

    fn input(&self, rng: &mut SplitMix64) -> Input {
        let mut stream = String::new();
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "fuzz", "version": "0"}}});
        stream.push_str(&format!("{initialize}\n"));
        stream.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        for i in 1..=1 + rng.below(30) {
            stream.push_str(&message(i, rng));
            stream.push('\n');
        }
        if rng.below(4) == 0 {
            stream.pop();
        }
        Input::one("jsonl", stream)
    }

    fn run(&self, _: u64, input: &Input) -> Verdict {
        let stream = input.files[0].1.clone();
        let child = Command::new(&self.binary)
            .args([
                "mcp",
                "--reference",
                self.profile.name(),
                "--benchmark",
                "demo",
            ])
            .args(["--timeout-per-recipe", "2"])
            .env("COOKINGBOT_OFFLINE", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match child {
            Ok(child) => child,
            Err(e) => return Verdict::Wrong(format!("the server did not start: {e}")),
        };
        let mut stdin = child.stdin.take().expect("piped");
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(stream.as_bytes());
        });
        let stdout = child.stdout.take().expect("piped");
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .collect::<Vec<String>>()
        });
        let (status, peak_kb) = wait(child.id() as libc::pid_t);
        let _ = writer.join();
        let answers = reader.join().unwrap_or_default();
        let Some(status) = status else {
            let _ = child.kill();
            let _ = child.wait();
            return Verdict::Wrong(format!("still running after {} s", DEADLINE.as_secs()));
        };
        if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
            return Verdict::Wrong(format!("the server ended with wait status {status}"));
        }
        if peak_kb > MEMORY_BUDGET_KB {
            return Verdict::Wrong(format!("the server peaked at {peak_kb} kB"));
        }
        match unanswered(&input.files[0].1, &answers) {
            Some(why) => Verdict::Wrong(why),
            None => Verdict::Ran,
        }
    }
}

/// The child's wait status (none past the deadline) and its peak resident memory in kB.
fn wait(pid: libc::pid_t) -> (Option<i32>, u64) {
    let started = Instant::now();
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: pid is our child; status and usage are valid for the call to fill.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            return (Some(status), usage.ru_maxrss as u64);
        }
        if done < 0 || started.elapsed() > DEADLINE {
            return (None, 0);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Why the answers do not match the requests: each request with a string or integer id is
/// answered once per time it was sent (a request the client cancelled may go unanswered, as
/// the protocol allows).
fn unanswered(stream: &str, answers: &[String]) -> Option<String> {
    let mut asked: BTreeMap<String, i64> = BTreeMap::new();
    let mut cancelled = Vec::new();
    for line in stream.lines() {
        let Ok(Value::Object(request)) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if let Some(id) = request.get("params").and_then(|p| p.get("requestId")) {
            cancelled.push(id.to_string());
        }
        if let Some(id @ (Value::String(_) | Value::Number(_))) = request.get("id")
            && id
                .as_f64()
                .is_none_or(|f| f.fract() == 0.0 && f.abs() < 1e15)
            && request.contains_key("method")
        {
            *asked.entry(id.to_string()).or_default() += 1;
        }
    }
    for answer in answers {
        let Ok(answer) = serde_json::from_str::<Value>(answer) else {
            return Some(format!("an answer that is not JSON: {answer:.200}"));
        };
        if let Some(count) = answer
            .get("id")
            .and_then(|id| asked.get_mut(&id.to_string()))
        {
            *count -= 1;
        }
    }
    asked
        .into_iter()
        .filter(|(id, _)| !cancelled.contains(id))
        .find(|(_, left)| *left != 0)
        .map(|(id, left)| format!("request id {id}: {left} answers missing (negative: extra)"))
}

/// One line of the stream: mostly tool calls, some of them malformed.
fn message(i: usize, rng: &mut SplitMix64) -> String {
    let id = match rng.below(12) {
        0 => json!(i.saturating_sub(1 + rng.below(3))),
        1 => json!(format!("s{}", rng.below(3))),
        2 => json!({"nested": i}),
        3 => json!(1.5),
        _ => json!(i),
    };
    match rng.below(14) {
        0 => format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\""),
        1 => format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"ping\\ud800\"}}"),
        2 => format!("[{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"ping\"}}]"),
        3 => "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}".into(),
        4 => json!({"jsonrpc": "2.0", "id": id, "method": "ping"}).to_string(),
        5 => json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}).to_string(),
        _ => {
            let tool = TOOLS[rng.below(TOOLS.len())];
            let arguments = arguments(tool, rng);
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": tool, "arguments": arguments}})
            .to_string()
        }
    }
}

/// A tool's arguments: well-formed ones on hostile networks and lines, or the wrong types.
fn arguments(tool: &str, rng: &mut SplitMix64) -> Value {
    let session = format!("kitchen-{}", 1 + rng.below(3));
    let line = session_line(rng);
    match (tool, rng.below(8)) {
        (_, 0) => json!({"network": 5, "session": [], "recipe": null}),
        ("kitchen_start", _) => json!({"recipe": RECIPE, "benchmark": "demo"}),
        ("kitchen_act", _) => json!({"session": session, "line": line}),
        ("kitchen_look", _) => json!({"session": session, "name": "counter-top"}),
        ("kitchen_finish", _) => json!({"session": session}),
        ("scale_recipe", _) => json!({"network": network(rng), "factor": "1/3"}),
        _ => json!({"network": network(rng)}),
    }
}

/// A line of a kitchen session: a proportion cut into many portions, a line of unknown
/// constants, or a line of the demo recipe.
fn session_line(rng: &mut SplitMix64) -> String {
    let n = rng.below(1_000);
    match rng.below(4) {
        0 => format!("(fetch-and-proportion ?lot{n} ?ks{n} ?kitchen ?bowl{n} butter 1000000 g)"),
        1 => format!("(portion-and-arrange ?p{n} ?pks{n} ?ks{n} ?lot{n} 1 g)"),
        2 => format!("(fetch ?b ?c ?kitchen{})", " zq".repeat(rng.below(20_000))),
        _ => "(get-kitchen ?kitchen)".into(),
    }
}

/// A network for the tools that take one: up to the server's bound of a megabyte.
fn network(rng: &mut SplitMix64) -> String {
    let mut text = format!("#{RECIPE}\n(get-kitchen ?kitchen)\n");
    let most = [10, 500, 4_000][rng.below(3)];
    let lines = 1 + rng.below(most);
    // A little past the server's bound of a megabyte, so that both sides of it are tried.
    for _ in 0..lines {
        if text.len() > 1_100_000 {
            break;
        }
        text.push_str(&session_line(rng));
        text.push('\n');
    }
    text
}
