"""`cookingbot.diet` and the tool server's `check_diet` against the command line's
`diet --format json`: one verdict, one JSON shape, whichever front end asks."""

import json
import subprocess

import pytest

import cookingbot
from conftest import ROOT
from test_mcp import run


def documented_table(profile):
    """docs/diet.md's table of every gold recipe against every diet: per recipe and diet, the
    excluded ingredients (none where the cell says yes)."""
    lines = (ROOT / "docs" / "diet.md").read_text().splitlines()
    start = lines.index(f"| recipe ({profile}) | vegan | vegetarian | gluten-free | dairy-free "
                        "| nut-free | egg-free |")
    diets = [c.strip() for c in lines[start].strip("|").split("|")][1:]
    table = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        recipe, *cells = [c.strip() for c in line.strip("|").split("|")]
        for diet, cell in zip(diets, cells):
            table[recipe, diet] = [] if cell == "yes" else cell.split(", ")
    return table


def cli_verdict(command, solution, diet, *args):
    done = subprocess.run(
        [command, *args, "diet", str(solution), "--diet", diet, "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("reference", ["2024", "2023"])
def test_every_gold_recipe_is_judged_as_the_command_line_and_the_docs_say(command, reference):
    table = documented_table(reference)
    benchmark = cookingbot.Benchmark(reference)
    assert len(benchmark) == 30
    for recipe in benchmark:
        for diet in ("vegan", "gluten-free"):
            verdict = cookingbot.diet(recipe.gold, diet, reference=reference)
            cli = cli_verdict(command, recipe.file, diet, "--reference", reference)
            assert verdict.report == cli
            assert [v.ingredient for v in verdict.violations] == table[recipe.id, diet]
            assert verdict.satisfied == (not table[recipe.id, diet])


def test_afghan_biscuits_are_not_vegan_for_their_butter():
    verdict = cookingbot.diet(cookingbot.Benchmark()["afghan-biscuits"].gold, "vegan")
    assert (verdict.recipe, verdict.diet, verdict.satisfied, verdict.reason) == (
        "afghan-biscuits",
        "vegan",
        False,
        None,
    )
    (butter,) = verdict.violations
    assert (butter.ingredient, butter.tags, butter.amount) == (
        "butter",
        ["dairy"],
        {"value": 200, "unit": "g"},
    )
    assert [(a.action, a.line) for a in butter.actions] == [(2, 3)]
    assert butter.actions[0].text.endswith("?target-container-1 butter 200 g)")
    assert (verdict.dish.action, verdict.dish.line) == (41, 42)
    assert verdict.dish.text.startswith("(sprinkle ?sprinkled-cookies")


def test_a_network_that_does_not_run_has_no_verdict():
    # Butter is fetched, but nothing ever makes what the beating waits for.
    text = ("#stuck\n(get-kitchen ?kitchen)\n"
            "(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 100 g)\n"
            "(beat ?beaten ?ks-2 ?ks-1 ?never-made ?whisk)\n")
    verdict = cookingbot.diet(text, "vegan")
    assert verdict.satisfied is None
    assert verdict.reason == "the network does not execute, so it makes no dish"
    assert verdict.violations == []


def test_a_misspelt_diet_and_a_malformed_network_raise():
    with pytest.raises(ValueError, match="did you mean `vegan`"):
        cookingbot.diet("#afghan-biscuits\n", "vegn")
    text = "#afghan-biscuits\n(get-kitchen ?kitchen)\n(fetch ?x ?kitchen ((\n"
    with pytest.raises(cookingbot.NetworkError) as raised:
        cookingbot.diet(text, "vegan")
    assert (raised.value.line, raised.value.column) == (3, 21)


def test_the_tool_server_answers_what_the_command_line_writes(command):
    recipe = cookingbot.Benchmark()["afghan-biscuits"]
    calls = [
        {"network": recipe.gold, "diet": "vegan"},
        {"network": recipe.gold, "diet": "Gluten-Free", "recipe": "afghan-biscuits"},
        {"network": recipe.gold, "diet": "vegn"},
        {"network": "#afghan-biscuits\n(get-kitchen ?kitchen)\n(fetch ?x ?kitchen ((\n",
         "diet": "vegan"},
    ]

    async def body(session):
        return [await session.call_tool("check_diet", args) for args in calls]

    vegan, gluten, misspelt, malformed = run(command, body)
    assert not vegan.is_error and not gluten.is_error
    assert vegan.structured_content == cli_verdict(command, recipe.file, "vegan")
    assert gluten.structured_content == cli_verdict(command, recipe.file, "gluten-free")
    assert misspelt.is_error
    assert misspelt.structured_content == {
        "error": "`vegn` is not a diet (one of vegan, vegetarian, gluten-free, dairy-free, "
        "nut-free, egg-free); did you mean `vegan`?",
        "kind": "request",
    }
    assert malformed.is_error
    (only,) = malformed.structured_content["diagnostics"]
    assert (only["line"], only["column"], only["code"]) == (3, 21, "E0002")
