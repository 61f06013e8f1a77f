"""`cookingbot.guide` and the tool server's `cooking_guide` against the command line's
`guide --format json` and the evaluation: one schedule, whichever front end asks."""

import json
import subprocess
from pathlib import Path

import pytest

import cookingbot
from conftest import reference_rows
from test_mcp import run


def cli_guide(command, solution, *args):
    done = subprocess.run(
        [command, *args, "guide", str(solution), "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("reference", ["2024", "2023"])
def test_every_gold_guide_is_the_command_lines_and_lasts_the_execution_time(command, reference):
    # By file: the benchmark's black-bean-salad-2 holds a network named black-bean-salad-4.
    times = {r["solution"]: r["execution-time"] for r in reference_rows(reference, "gold.tsv")}
    benchmark = list(cookingbot.Benchmark(reference))
    scores = cookingbot.evaluate([r.gold for r in benchmark], reference=reference,
                                 metrics=["execution-time"])
    assert len(benchmark) == len(scores) == 30
    for recipe, score in zip(benchmark, scores):
        # The file, as the command line reads it: `gold` is the network without blank lines,
        # so its lines are not the file's.
        guide = cookingbot.guide(recipe.file, reference=reference)
        assert guide.report == cli_guide(command, recipe.file, "--reference", reference)
        assert (guide.recipe, guide.total_time) == (score.recipe_id, score.execution_time)
        assert str(guide.total_time) == times[Path(recipe.file).resolve()]
        assert max(s.end for s in guide.steps) == guide.total_time
        assert [s.start for s in guide.steps] == sorted(s.start for s in guide.steps)
        assert {t.action for t in guide.timers} == {s.action for s in guide.steps if s.timer}


def test_the_afghan_biscuits_guide_starts_the_oven_at_4_30():
    guide = cookingbot.guide(cookingbot.Benchmark()["afghan-biscuits"].gold)
    oven = next(t for t in guide.timers if t.what == "preheat oven")
    assert (oven.line, oven.temperature, oven.start, oven.cook_free, oven.ready) == (
        13, "180 °C", 270, 285, 885)
    assert [(g.start, g.end, g.waiting_for) for g in guide.idle][0] == (495, 830, [3, 12])


def test_a_network_without_an_execution_raises():
    text = "#stuck\n(get-kitchen ?kitchen)\n(beat ?beaten ?ks-2 ?kitchen ?never-made ?whisk)\n"
    with pytest.raises(cookingbot.NetworkError, match="has no schedule to guide a cook by"):
        cookingbot.guide(text)


def test_the_tool_server_answers_what_the_command_line_writes(command):
    recipe = cookingbot.Benchmark()["afghan-biscuits"]
    stuck = "#stuck\n(get-kitchen ?kitchen)\n(beat ?beaten ?ks-2 ?kitchen ?never-made ?whisk)\n"

    async def body(session):
        return [await session.call_tool("cooking_guide", {"network": text})
                for text in (recipe.gold, stuck)]

    guided, refused = run(command, body)
    assert not guided.is_error
    assert guided.structured_content == cli_guide(command, recipe.file)
    assert refused.is_error
    assert refused.structured_content["error"].endswith(
        "so it has no schedule to guide a cook by")
