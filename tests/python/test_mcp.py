"""A Model Context Protocol round trip with the `mcp` package's own stdio client: the server
is `cookingbot-evaluator mcp`, as an agent's configuration starts it."""

import asyncio
import json
import os
import queue
import re
import subprocess
import threading
import time

from mcp import ClientSession, StdioServerParameters
try:
    from mcp.shared.exceptions import MCPError
except ImportError:  # the `mcp` package before 2.0
    from mcp.shared.exceptions import McpError as MCPError
from mcp.client.stdio import stdio_client

from conftest import benchmark_dir, reference_rows

TOOLS = {"check_network", "simulate_network", "score_network", "list_primitives", "kitchen_inventory",
         "check_diet", "cooking_guide",
         "kitchen_start", "kitchen_act", "kitchen_look", "kitchen_undo", "kitchen_progress",
         "kitchen_finish", "kitchen_admissible", "kitchen_primitives",
         "substitute_ingredient", "suggest_substitutes", "scale_recipe",
         "smatch_networks", "translate_recipe", "evaluate_solutions", "compare_systems"}

# The longest answer of a session tool, in characters of its JSON (src/mcp/session_tools.rs).
MAX_ANSWER_CHARS = 6_000


def run(command, body, options=()):
    """Start the server (with the command line's `options` before `mcp`), initialise a session
    and run `body(session)`."""
    env = {**os.environ, "COOKINGBOT_BENCHMARK": str(benchmark_dir()), "COOKINGBOT_OFFLINE": "1"}
    params = StdioServerParameters(command=command, args=[*options, "mcp"], env=env)

    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=120) as session:
                await session.initialize()
                return await body(session)

    return asyncio.run(main())


def doc_example(name):
    rows = [r for r in reference_rows("2024", "doc-examples.tsv") if r["solution"].name == name]
    assert len(rows) == 1
    return rows[0]


def test_tools_are_listed(command):
    async def body(session):
        return await session.list_tools()

    tools = run(command, body).tools
    assert {t.name for t in tools} == TOOLS
    check = next(t for t in tools if t.name == "check_network")
    assert check.input_schema["required"] == ["network"]


def test_check_network_locates_the_errors(command):
    text = "#almond-crescent-cookies\n(get-kitchen ?kitchen)\n(fetch ?x ?kitchen ((\n"

    async def body(session):
        return await session.call_tool("check_network", {"network": text})

    result = run(command, body)
    assert not result.is_error
    out = result.structured_content
    assert out["ok"] is False
    (only,) = out["diagnostics"]
    assert (only["severity"], only["code"], only["line"], only["column"]) == ("error", "E0002", 3, 21)
    assert only["message"] == "this `(` is not closed on its line"


def test_score_network_gives_the_reference_values(command):
    row = doc_example("additional-side-dish.solution")
    text = row["solution"].read_text()

    async def body(session):
        return await session.call_tool("score_network", {"network": text})

    result = run(command, body)
    assert not result.is_error, result.content
    (recipe,) = result.structured_content["recipes"]
    assert recipe["recipe_id"] == row["recipe-id"]
    assert f"{recipe['goal_condition_success']['value']:.2f}" == row["goal-condition-success"]
    assert f"{recipe['dish_approximation_score']:.2f}" == row["dish-approximation-score"]
    assert str(recipe["execution_time"]) == row["execution-time"]


def test_resources_are_the_gold_networks(command):
    async def body(session):
        listed = await session.list_resources()
        first = listed.resources[0]
        return listed, await session.read_resource(first.uri)

    listed, read = run(command, body)
    assert len(listed.resources) == 30
    assert read.contents[0].text.startswith("#")


def test_a_network_over_a_mebibyte_gets_a_clear_refusal(command):
    huge = "x" * (2 << 20)

    async def body(session):
        refused = await session.call_tool("check_network", {"network": huge})
        # The server is still there after it.
        after = await session.call_tool("list_primitives", {})
        return refused, after

    refused, after = run(command, body)
    assert refused.is_error
    assert refused.structured_content == {
        "error": f"the network is {2 << 20} bytes; networks of at most 1048576 bytes are taken"
    }
    assert not after.is_error
    # The deprecated alias answers the action language kitchen_primitives tells a session.
    bake = next(p for p in after.structured_content["primitives"] if p["name"] == "bake")
    assert bake["form"].startswith("(bake ?")
    assert bake["does"]


def test_a_message_over_the_line_cap_gets_an_error_with_its_id(command):
    huge = "x" * (17 << 20)

    async def body(session):
        try:
            await session.call_tool("check_network", {"network": huge})
        except MCPError as e:
            refused = e.error
        else:
            raise AssertionError("a message over 16 MiB is answered with an error")
        after = await session.call_tool("list_primitives", {})
        return refused, after

    refused, after = run(command, body)
    assert refused.code == -32600
    assert refused.message == "invalid request: the message is over 16777216 bytes, the most one line may hold"
    assert not after.is_error


class Raw:
    """The server on pipes, spoken to line by line as a careless client would."""

    def __init__(self, command):
        env = {**os.environ, "COOKINGBOT_BENCHMARK": str(benchmark_dir()), "COOKINGBOT_OFFLINE": "1"}
        self.process = subprocess.Popen([command, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.replies = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "raw", "version": "0"}}})
        assert self.reply()["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self):
        for line in self.process.stdout:
            self.replies.put((time.monotonic(), len(line), json.loads(line)))

    def send(self, message):
        line = message if isinstance(message, bytes) else (json.dumps(message) + "\n").encode()
        self.process.stdin.write(line)
        self.process.stdin.flush()

    def reply(self, timeout=60):
        return self.replies.get(timeout=timeout)[2]

    def close(self):
        self.process.stdin.close()
        assert self.process.wait(timeout=30) == 0


def test_every_malformed_line_gets_a_json_rpc_error(command):
    server = Raw(command)
    lines = [
        (b'{"jsonrpc": "2.0", "id": 1, "method"\n', -32700, None),
        (b'{"jsonrpc":"2.0","id":2,"method":"ping\xff"}\n', -32700, None),
        (b'{"jsonrpc":"2.0","id":3,"method":"ping"} {"jsonrpc":"2.0","id":4,"method":"ping"}\n', -32600, 3),
        (b'[{"jsonrpc":"2.0","id":5,"method":"ping"}]\n', -32600, None),
        (b'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"check_network"}\n', -32602, 6),
        (b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"check_network","arguments":5}}\n', -32602, 7),
    ]
    for line, code, id in lines:
        server.send(line)
        reply = server.reply()
        assert (reply["error"]["code"], reply.get("id")) == (code, id), (line, reply)
    # Arguments of the wrong type inside a well-formed call are the tool's invalid params.
    server.send({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
                 "params": {"name": "check_network", "arguments": {"network": 5}}})
    reply = server.reply()
    assert reply["id"] == 8 and reply["result"]["isError"] is True
    server.send({"jsonrpc": "2.0", "id": 9, "method": "ping"})
    assert server.reply() == {"jsonrpc": "2.0", "id": 9, "result": {}}
    server.close()


def test_a_megabyte_of_repeated_constants_does_not_block_the_server_and_is_answered_short(command):
    server = Raw(command)
    network = "#afghan-biscuits\n(get-kitchen ?kitchen" + " get-kitchen" * 80_000 + ")\n"
    started = time.monotonic()
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                 "params": {"name": "check_network", "arguments": {"network": network}}})
    server.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    first = server.replies.get(timeout=120)
    second = server.replies.get(timeout=120)
    # The ping is answered first: the check runs beside the protocol, not on it.
    assert (first[2]["id"], second[2]["id"]) == (2, 1)
    size, answer = second[1], second[2]["result"]["structuredContent"]
    assert answer["ok"] is False
    assert len(answer["diagnostics"]) == 100
    assert answer["diagnostics_omitted"] > 80_000
    # 80,000 constants gave a 37 MB answer; lists are cut at 100 entries.
    assert size < 100_000, size
    assert second[0] - started < 60
    server.close()


def gold_lines(recipe):
    """The action lines of a 2024 gold network (its header left out)."""
    path = benchmark_dir() / "data" / "gold-standard-solutions" / "meaning-only" / f"{recipe}.solution"
    return [line for line in path.read_text().splitlines()[1:] if line.strip()]


def answer_chars(result):
    """An answer's length as the server measures it: compact JSON, characters."""
    return len(json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":")))


def test_two_sessions_interleaved_each_finish_with_the_evaluation_of_their_own_network(command):
    # The largest gold network (53 actions), whole; and another recipe with a typo taken back
    # and its last three actions left out, so that its score has missed goals.
    big, small = "croutons-vinegar-salad", "afghan-biscuits"
    big_lines, small_lines = gold_lines(big), gold_lines(small)[:-3]

    async def body(session):
        a = await session.call_tool("kitchen_start", {"recipe": big})
        b = await session.call_tool("kitchen_start", {"recipe": small})
        answers = [a, b]
        ids = a.structured_content["session"], b.structured_content["session"]
        for i in range(max(len(big_lines), len(small_lines))):
            calls = [session.call_tool("kitchen_act", {"session": id, "line": lines[i]})
                     for id, lines in zip(ids, (big_lines, small_lines)) if i < len(lines)]
            # Both sessions' lines at once: answered independently.
            answers += await asyncio.gather(*calls)
        typo = await session.call_tool("kitchen_act", {"session": ids[1], "line": "(fecth-and-proportion ?x ?ks ?kitchen ?bowl butter 1 g)"})
        undone = await session.call_tool("kitchen_undo", {"session": ids[1]})
        look = await session.call_tool("kitchen_look", {"session": ids[0], "name": "?kitchen"})
        finished = [await session.call_tool("kitchen_finish", {"session": id}) for id in ids]
        scored = [await session.call_tool("score_network", {"network": f"#{recipe}\n" + "\n".join(lines) + "\n"})
                  for recipe, lines in ((big, big_lines), (small, small_lines))]
        after = await session.call_tool("kitchen_act", {"session": ids[0], "line": "(get-kitchen ?k)"})
        return ids, typo, undone, answers, look, finished, scored, after

    ids, typo, undone, answers, look, finished, scored, after = run(command, body)
    assert ids == ("kitchen-1", "kitchen-2")
    assert typo.structured_content["outcome"] == "refused"
    (error,) = [d for d in typo.structured_content["diagnostics"] if d["severity"] == "error"]
    assert (error["line"], error["column"], error["code"]) == (len(small_lines) + 2, 2, "E0103")
    assert error["hint"] == "did you mean `fetch-and-proportion`?"
    assert undone.structured_content == {"undone": "(fecth-and-proportion ?x ?ks ?kitchen ?bowl butter 1 g)"}
    start = answers[0].structured_content
    assert start["recipe"] == big and "Title:" in start["recipe_text"]
    assert start["kitchen"].startswith("fridge: apple, avocado, banana")
    acts = [r.structured_content for r in answers[2:]]
    assert len(acts) == len(big_lines) + len(small_lines)
    assert all(act["ok"] and act["outcome"] == "ran" for act in acts)
    # Each object's words are said once: in `objects`, not again in `text`.
    last = [act for act in acts if act["line"] == len(big_lines) + 1][-1]
    assert last["text"] == "sprinkle ran"
    assert last["objects"][0]["variable"] == "?croutons-vinegar-salad"
    assert look.structured_content["text"].startswith("?kitchen = the kitchen at 0:00")
    # Every answer of the largest gold network is short and whole.
    assert max(answer_chars(r) for r in answers) <= MAX_ANSWER_CHARS
    assert not any("truncated" in r.structured_content for r in answers)
    for done, score in zip(finished, scored):
        assert not done.is_error and not score.is_error
        assert done.structured_content["score"] == score.structured_content
        assert answer_chars(done) <= MAX_ANSWER_CHARS
    (whole,) = finished[0].structured_content["score"]["recipes"]
    assert (whole["smatch"]["f_score"], whole["goal_condition_success"]["value"]) == (1.0, 1.0)
    (part,) = finished[1].structured_content["score"]["recipes"]
    assert part["goal_condition_success"]["value"] < 1.0 and part["missed_goals"]
    assert finished[1].structured_content["lines"] == len(small_lines)
    assert after.is_error
    assert after.structured_content == {"error": "session `kitchen-1` was finished; start a new one to go on"}


def test_session_ids_names_and_arguments_get_clear_errors(command):
    async def body(session):
        calls = [
            ("kitchen_act", {"session": "kitchen-7", "line": "(get-kitchen ?k)"}),
            ("kitchen_start", {"recipe": "afghan-biscuit"}),
            ("kitchen_start", {"recipe": "afghan-biscuits", "profile": "2025"}),
            ("kitchen_start", {"recipe": "demo-garden-salad", "benchmark": "demo"}),
        ]
        answers = [await session.call_tool(name, args) for name, args in calls]
        demo = answers[-1].structured_content["session"]
        answers.append(await session.call_tool("kitchen_look", {"session": demo, "name": "fridgee"}))
        answers.append(await session.call_tool("kitchen_act", {"session": demo, "line": "(get-kitchen ?k)\n(get-kitchen ?j)"}))
        answers.append(await session.call_tool("kitchen_undo", {"session": demo}))
        return answers

    unknown, recipe, profile, demo, look, two_lines, undo = run(command, body)
    assert unknown.is_error and unknown.structured_content == {
        "error": "no session `kitchen-7`: session ids are the `kitchen-N` that starting a session gives"}
    assert recipe.structured_content == {
        "error": "the benchmark has no recipe `afghan-biscuit` (did you mean afghan-biscuits?)"}
    assert profile.structured_content == {"error": "unknown reference profile `2025` (expected 2023 or 2024)"}
    assert not demo.is_error and demo.structured_content["session"] == "kitchen-1"
    assert demo.structured_content["recipe_text"] is None
    assert look.structured_content == {"error": "no variable or place `fridgee` in the kitchen (did you mean fridge?)"}
    assert two_lines.structured_content == {"error": "one line at a time: the text holds a line break"}
    assert undo.structured_content == {"error": "nothing to undo"}


def test_a_server_keeps_16_sessions_and_refuses_the_17th_naming_the_oldest(command):
    async def body(session):
        started = [await session.call_tool("kitchen_start", {"recipe": "demo-garden-salad", "benchmark": "demo"})
                   for _ in range(17)]
        # A use makes kitchen-1 the newest: kitchen-2 is then the one unused longest.
        await session.call_tool("kitchen_look", {"session": "kitchen-1", "name": "fridge"})
        refused = await session.call_tool("kitchen_start", {"recipe": "demo-garden-salad", "benchmark": "demo"})
        await session.call_tool("kitchen_finish", {"session": "kitchen-3"})
        again = await session.call_tool("kitchen_start", {"recipe": "demo-garden-salad", "benchmark": "demo"})
        return started, refused, again

    started, refused, again = run(command, body)
    assert [s.structured_content["session"] for s in started[:16]] == [f"kitchen-{i}" for i in range(1, 17)]
    assert started[16].is_error
    message = refused.structured_content["error"]
    # Expiry comes 30 minutes after the last use, counted in whole seconds from the call.
    assert re.fullmatch("16 sessions are open, the most kept at once; the one unused longest, `kitchen-2`, "
                        r"expires in (30 min|29 min \d+ s): finish a session, or start one then", message), message
    assert again.structured_content["session"] == "kitchen-17"
