"""A Model Context Protocol round trip with the `mcp` package's own stdio client: the server
is `cookingbot-evaluator mcp`, as an agent's configuration starts it."""

import asyncio
import json
import os
import queue
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

TOOLS = {"check_network", "simulate_network", "score_network", "list_primitives", "kitchen_inventory"}


def run(command, body):
    """Start the server, initialise a session and run `body(session)`."""
    env = {**os.environ, "COOKINGBOT_BENCHMARK": str(benchmark_dir()), "COOKINGBOT_OFFLINE": "1"}
    params = StdioServerParameters(command=command, args=["mcp"], env=env)

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
    assert any(p["name"] == "bake" for p in after.structured_content["primitives"])


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
