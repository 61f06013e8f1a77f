"""The agent harness (`python -m cookingbot.agents`) against a scripted OpenAI-compatible
server on 127.0.0.1: agents that are answered the gold lines cook the dish, and an unreachable
server, answers that are no chat completion and answers that come too late each stop the run
with a clear error, keeping the episodes it finished; the same command resumes. Also the
official splits and the table's intervals, which are `compare`'s."""

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import cookingbot
from cookingbot import _native
from cookingbot.agents import table as tables
from cookingbot.agents.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = "demo"


def gold(recipe):
    return cookingbot.Benchmark("2024", DEMO)[recipe].gold


def gold_lines(recipe):
    return [line for line in gold(recipe).splitlines() if line.startswith("(")]


class Scripted:
    """A chat-completions server answering from a script: each item is the answer's content,
    or a whole message (a dict), or ("raw", bytes) sent as the body, or ("sleep", seconds)
    before an empty answer."""

    def __init__(self, script):
        self.script = list(script)
        self.requests = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers["Content-Length"])
                outer.requests.append(json.loads(self.rfile.read(length)))
                item = outer.script.pop(0) if outer.script else "finish"
                if isinstance(item, tuple) and item[0] == "sleep":
                    time.sleep(item[1])
                    item = ""
                message = item if isinstance(item, dict) else {"role": "assistant", "content": item}
                if isinstance(item, tuple) and item[0] == "raw":
                    body = item[1]
                else:
                    body = json.dumps({
                        "choices": [{"message": message}],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 2},
                    }).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client stopped waiting

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve():
    servers = []

    def start(script):
        s = Scripted(script)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()


def harness(url, agent, recipes, out, *more):
    return main(["--base-url", url, "--model", "scripted", "--agent", agent,
                 "--recipes", *recipes, "--benchmark", DEMO, "--examples", "0",
                 "--out", str(out), *more])


def results(out):
    return [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]


def test_one_shot_answered_the_gold_network_makes_the_dish(serve, tmp_path):
    recipe = "demo-garden-salad"
    server = serve(["```\n" + "\n".join(gold_lines(recipe)) + "\n```"])
    assert harness(server.url, "one-shot", [recipe], tmp_path) == 0
    [r] = results(tmp_path)
    assert (r["dish-approximation-score"], r["goal-condition-success"], r["smatch-score"]) == (
        1.0, 1.0, 1.0)
    assert (r["steps"], r["tokens"]) == (len(gold_lines(recipe)), 12)
    records = [json.loads(line) for line in (tmp_path / r["trajectory"]).read_text().splitlines()]
    assert [x["type"] for x in records[:4]] == ["episode", "message", "message", "message"]
    assert [x["role"] for x in records[1:4]] == ["system", "user", "assistant"]
    assert records[-1]["type"] == "network"
    written = records[-1]["text"].splitlines()
    assert [line for line in written if line.startswith("(")] == gold_lines(recipe)
    actions = [x for x in records if x["type"] == "action"]
    assert [a["line"] for a in actions] == gold_lines(recipe)
    assert all(a["observation"]["ok"] for a in actions)
    overall = (tmp_path / "table.csv").read_text().splitlines()[2]
    assert overall.startswith("overall,,1,1.0000,1.0000,1.0000,1,1.0000,1.0000,")
    # The system prompt holds the language: every primitive's form.
    system = server.requests[0]["messages"][0]["content"]
    forms = [p.form for p in cookingbot.Kitchen(recipe, benchmark=DEMO).primitives()]
    assert all(form in system for form in forms)


def test_react_answered_the_gold_lines_makes_the_dish(serve, tmp_path):
    recipe = "demo-shortbread-rounds"
    lines = gold_lines(recipe)
    server = serve([*lines, "finish"])
    assert harness(server.url, "react", [recipe], tmp_path) == 0
    [r] = results(tmp_path)
    assert r["dish-approximation-score"] == 1.0
    assert r["goal-condition-success"] == 1.0
    assert r["steps"] == len(lines)
    assert len(server.requests) == len(lines) + 1
    # Each request after the first carries the observation of the line before it.
    second = server.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": lines[0]}
    assert second[-1]["role"] == "user" and second[-1]["content"]


def test_react_takes_a_refused_line_back_and_still_makes_the_dish(serve, tmp_path):
    recipe = "demo-shortbread-rounds"
    lines = gold_lines(recipe)
    bad = "(bake-it-all ?kitchen)"
    server = serve([lines[0], bad, *lines[1:], "finish"])
    assert harness(server.url, "react", [recipe], tmp_path) == 0
    [r] = results(tmp_path)
    assert (r["dish-approximation-score"], r["steps"]) == (1.0, len(lines) + 1)
    records = [json.loads(line) for line in (tmp_path / r["trajectory"]).read_text().splitlines()]
    kinds = [x["type"] for x in records if x["type"] in ("action", "undo")]
    assert kinds == ["action", "action", "undo", *["action"] * (len(lines) - 1)]
    refused = [x for x in records if x["type"] == "action"][1]
    assert (refused["line"], refused["observation"]["outcome"]) == (bad, "refused")
    told = server.requests[2]["messages"][-1]["content"]
    assert told.endswith("\nThe line was taken back: the network does not hold it.")
    network = [x for x in records if x["type"] == "network"][0]["text"]
    assert bad not in network and network.splitlines()[1:] == lines


def tool_call(n, name, **arguments):
    call = {"id": f"call-{n}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def test_tools_calling_act_with_the_gold_lines_makes_the_dish(serve, tmp_path):
    recipe = "demo-cinnamon-toast-bites"
    lines = gold_lines(recipe)
    script = [tool_call(n, "act", line=line) for n, line in enumerate(lines)]
    server = serve([*script, tool_call(len(lines), "finish")])
    assert harness(server.url, "tools", [recipe], tmp_path) == 0
    [r] = results(tmp_path)
    assert (r["dish-approximation-score"], r["steps"]) == (1.0, len(lines))
    assert [t["function"]["name"] for t in server.requests[0]["tools"]] == [
        "act", "undo", "look", "finish"]
    # The tool's answer to the first act is the observation of the first line.
    answer = server.requests[1]["messages"][-1]
    assert answer["role"] == "tool" and answer["tool_call_id"] == "call-0"


def test_an_unreachable_server_is_a_clear_error(tmp_path, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    assert harness(url, "one-shot", ["demo-garden-salad"], tmp_path, "--retries", "0") == 2
    err = capsys.readouterr().err
    assert err == (
        f"error: cannot reach the server at {url}: [Errno 111] Connection refused; start an "
        "OpenAI-compatible server there or pass --base-url (attempt 1 of 1)\n"
    )
    assert not (tmp_path / "episodes.jsonl").exists()


def test_an_answer_that_is_no_chat_completion_is_a_clear_error(serve, tmp_path, capsys):
    server = serve([("raw", b'{"oops": 1}'), ("raw", b"not json")])
    assert harness(server.url, "react", ["demo-garden-salad"], tmp_path, "--retries", "1") == 2
    err = capsys.readouterr().err.splitlines()[0]
    assert err == (
        f"error: {server.url}/chat/completions: the answer is not a chat completion "
        "(no choices[0].message): 'not json' (attempt 2 of 2)"
    )
    assert len(server.requests) == 2


def test_an_answer_too_late_is_a_clear_error(serve, tmp_path, capsys):
    server = serve([("sleep", 3), ("sleep", 3)])
    code = harness(server.url, "one-shot", ["demo-garden-salad"], tmp_path,
                   "--timeout", "0.5", "--retries", "1")
    assert code == 2
    err = capsys.readouterr().err.splitlines()[0]
    assert err == f"error: {server.url}/chat/completions: no answer within 0.5 s (attempt 2 of 2)"


def test_a_stopped_run_keeps_what_it_finished_and_resumes(serve, tmp_path, capsys):
    first, second = "demo-garden-salad", "demo-shortbread-rounds"
    script = "\n".join(gold_lines(first))
    server = serve([script, ("raw", b"{}")])
    code = harness(server.url, "one-shot", [first, second], tmp_path, "--retries", "0")
    assert code == 2
    assert [r["recipe"] for r in results(tmp_path)] == [first]
    assert capsys.readouterr().err.splitlines()[1] == (
        f"the finished episodes and their table are in {tmp_path}; run the same command "
        "again to resume")
    table = (tmp_path / "table.md").read_text()
    assert f"| {first} | official | 1 | 1.00 | 1.00 | 1.00 | 1/1 | 1.00 | 1.00 |" in table
    assert second not in table
    # The same command again runs only the episode left.
    again = serve(["\n".join(gold_lines(second))])
    assert harness(again.url, "one-shot", [first, second], tmp_path) == 0
    assert len(again.requests) == 1
    assert [r["recipe"] for r in results(tmp_path)] == [first, second]
    assert second in (tmp_path / "table.md").read_text()


def test_a_folder_of_another_agent_is_refused(serve, tmp_path, capsys):
    recipe = "demo-garden-salad"
    server = serve(["\n".join(gold_lines(recipe))])
    assert harness(server.url, "one-shot", [recipe], tmp_path) == 0
    capsys.readouterr()
    assert harness(server.url, "react", [recipe], tmp_path) == 2
    assert capsys.readouterr().err == (
        f"error: {tmp_path} holds episodes of agent one-shot with model 'scripted': "
        "use another --out\n"
    )


def test_a_model_agent_needs_a_server(tmp_path, capsys):
    assert main(["--agent", "react", "--recipes", "x", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "error: --agent react needs --base-url and --model\n"


def test_the_repairing_rules_agent_scores_its_own_network(tmp_path):
    heldout = ROOT / "benchmarks" / "heldout"
    recipe = "apple-cabbage-slaw"
    code = main(["--agent", "rules-repair", "--recipes", recipe, "--heldout", str(heldout),
                 "--examples", "0", "--out", str(tmp_path)])
    assert code == 0
    [r] = results(tmp_path)
    repaired = json.loads(_native.repair_rules(recipe, "2024", str(heldout)))
    records = [json.loads(line) for line in (tmp_path / r["trajectory"]).read_text().splitlines()]
    assert records[-1] == {"type": "network", "text": repaired["network"]}
    metrics = ["smatch-score", "dish-approximation-score"]
    [score] = cookingbot.evaluate(repaired["network"], benchmark=heldout, metrics=metrics)
    assert r["dish-approximation-score"] == score.dish_approximation_score
    assert r["smatch-score"] == score.smatch_score


def test_splits_hold_every_official_and_heldout_recipe_once():
    s = cookingbot.splits()
    assert {name: len(rs) for name, rs in s.items()} == {"train": 24, "dev": 12, "test": 12}
    listed = sorted((r.benchmark, r.id) for rs in s.values() for r in rs)
    heldout = json.loads((ROOT / "benchmarks" / "heldout" / "benchmark.json").read_text())
    official = json.loads((ROOT / "gold" / "benchmark.json").read_text())
    expected = sorted([("heldout", r["id"]) for r in heldout["recipes"]]
                      + [("official", r["id"]) for r in official["profiles"]["2024"]["recipes"]])
    assert listed == expected
    assert [r.id for r in s["test"] if r.benchmark == "heldout"] == [
        "apple-cabbage-slaw", "coconut-macaroons", "creamy-dill-dressing",
        "double-chocolate-cookies", "tomato-cucumber-salad"]


def test_the_tables_interval_is_compares():
    """The interval of a mean over recipes is the one `compare` prints for the same scores."""
    mistake = ROOT / "examples" / "demo-mistake.solution"
    compared = cookingbot.compare(ROOT / "examples" / "demo-perfect.solution", mistake,
                                  benchmark=DEMO, metrics=["dish-approximation-score"])
    system = next(m for m in compared["metrics"] if m["metric"] == "dish-approximation-score")
    system = system["systems"][1]
    by_id = {s.recipe_id: s.dish_approximation_score for s in cookingbot.evaluate(
        mistake, benchmark=DEMO)}
    scores = [tables.exact(by_id.get(i)) for i in cookingbot.Benchmark("2024", DEMO).ids]
    got = tables.interval(scores)
    assert (got["mean"], got["ci"]) == (system["mean"], system["ci"])


def test_pass_at_k_and_pass_hat_k():
    assert tables.pass_at(2, 1, 2) == 1.0 and tables.pass_hat(2, 1, 2) == 0.0
    assert tables.pass_at(4, 1, 2) == 0.5 and tables.pass_hat(4, 3, 2) == 0.5
    assert tables.recipe_value([None, 0.5]) == 0.25 and tables.recipe_value([None]) is None
