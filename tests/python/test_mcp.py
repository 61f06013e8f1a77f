"""A Model Context Protocol round trip with the `mcp` package's own stdio client: the server
is `cookingbot-evaluator mcp`, as an agent's configuration starts it."""

import asyncio
import os

from mcp import ClientSession, StdioServerParameters
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


def test_a_64_mib_argument_gets_a_clear_error(command):
    huge = "x" * (64 << 20)

    async def body(session):
        refused = await session.call_tool("check_network", {"network": huge})
        # The server is still there after it.
        after = await session.call_tool("list_primitives", {})
        return refused, after

    refused, after = run(command, body)
    assert refused.is_error
    assert refused.structured_content == {
        "error": f"the network is {64 << 20} bytes; networks of at most 1048576 bytes are taken"
    }
    assert not after.is_error
    assert any(p["name"] == "bake" for p in after.structured_content["primitives"])
