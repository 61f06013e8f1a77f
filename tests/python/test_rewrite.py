"""Substituting and scaling from Python and through the tool server (with the `mcp` package's
own client): the command line's answers, the dish metric's prediction, and clear refusals."""

import dataclasses
import json
import subprocess
from fractions import Fraction

import pytest

import cookingbot
from test_mcp import run


@pytest.fixture(scope="module")
def afghan() -> str:
    # The gold network as the benchmark holds it (one blank line after it).
    return cookingbot.Benchmark()["afghan-biscuits"].gold.rstrip("\n") + "\n"


def test_coconut_oil_for_butter_is_what_the_command_line_answers(command, tmp_path, afghan):
    s = cookingbot.substitute(afghan, "butter", "coconut-oil")
    assert (s.recipe, s.replace, s.replacement, s.amount_rule) == (
        "afghan-biscuits", "butter", "coconut-oil", "same-weight")
    assert s.executes and s.report["failure"] is None
    # Six base ingredients, butter among them: 0.98 · 5/7 + 0.02 (docs/substitute.md).
    assert s.against_original.dish_approximation_score == 0.72
    assert s.against_original.goal_condition_success == 0.55
    assert s.against_original.execution_time == s.original_execution_time == 2735
    assert s.against_original.dish["missing"] == ["butter"]
    assert s.against_gold["original"].dish_approximation_score == 1.0
    assert s.against_gold["rewritten"].dish_approximation_score == 0.72
    assert [(c["action"], c["line"]) for c in s.changes] == [(2, 3)]
    assert s.network == afghan.replace(" butter 200 g", " coconut-oil 200 g")
    network, answer = tmp_path / "afghan.solution", tmp_path / "answer.json"
    network.write_text(afghan)
    subprocess.run([command, "substitute", str(network), "--replace", "butter=coconut-oil",
                    "--format", "json", "-o", str(answer)], check=True, capture_output=True)
    assert json.loads(answer.read_text()) == s.report


def test_butter_for_butter_changes_nothing(afghan):
    s = cookingbot.substitute(afghan, "butter", "butter")
    assert s.changes == [] and s.network == afghan
    assert s.against_original.dish_approximation_score == 1.0
    assert s.against_original.goal_condition_success == 1.0
    assert s.against_original.execution_time == 2735


def test_scaling_by_two_then_a_half_gives_back_the_network_and_its_scores(afghan):
    twice = cookingbot.scale(afghan, 2)
    back = cookingbot.scale(twice.network, Fraction(1, 2))
    assert (twice.factor, back.factor) == ("2", "1/2")
    assert back.network == afghan
    assert back.against_gold["rewritten"].report == twice.against_gold["original"].report
    assert twice.proportions_preserved is True
    assert [p["ratio"] for p in twice.proportions] == [2.0] * 6
    assert twice.rounding == []
    by_servings = cookingbot.scale(afghan, servings=6, serves=4)
    assert by_servings.factor == "3/2" and by_servings.report == cookingbot.scale(afghan, 1.5).report
    assert by_servings.capacity["portions"] == [{"action": 26, "original": 32, "scaled": 47}]


def test_bad_requests_raise_what_is_wrong(afghan):
    with pytest.raises(ValueError, match=r"no ingredient `buter` in the ontology; did you mean butter, water\?"):
        cookingbot.substitute(afghan, "buter", "coconut-oil")
    with pytest.raises(ValueError, match="`white-sugar` is not in the network of afghan-biscuits"):
        cookingbot.substitute(afghan, "white-sugar", "brown-sugar")
    with pytest.raises(ValueError, match="not an amount rule"):
        cookingbot.substitute(afghan, "butter", "coconut-oil", amount_rule="same-wieght")
    with pytest.raises(ValueError, match="factors are above 0"):
        cookingbot.scale(afghan, 0)
    with pytest.raises(ValueError, match="beyond what scale takes: from 1/100 to 100"):
        cookingbot.scale(afghan, 1000)
    with pytest.raises(ValueError, match="give a factor, or servings with serves"):
        cookingbot.scale(afghan, servings=6)
    broken = "#afghan-biscuits\n(get-kitchen ?kitchen)\n(fetch ?x ?kitchen ((\n"
    with pytest.raises(cookingbot.NetworkError) as raised:
        cookingbot.scale(broken, 2)
    assert (raised.value.line, raised.value.column) == (3, 21)


def test_suggestions_are_the_role_tables_tried_in_the_network(afghan):
    s = cookingbot.suggest_substitutes("butter", network=afghan)
    assert s.recipe == "afghan-biscuits"
    assert [(x["class"], x["role"], x["strength_factor"]) for x in s.suggestions] == [
        ("salted-butter", "solid-fat", "1"), ("coconut-oil", "solid-fat", "1")]
    assert s.unfit == []
    assert {x["tried"]["dish_approximation_score"] for x in s.suggestions} == {0.72}
    vegan = cookingbot.suggest_substitutes("butter", diet="vegan", network=afghan)
    assert vegan.diet == "vegan"
    assert [x["class"] for x in vegan.suggestions] == ["coconut-oil"]
    assert vegan.excluded == [{"class": "salted-butter", "because": ["dairy"]}]
    assert vegan.ingredient_excluded_because == ["dairy"]
    assert [x["tried"]["dish_approximation_score"] for x in vegan.suggestions] == [0.72]
    with pytest.raises(ValueError, match="`vegn` is not a diet .*; did you mean `vegan`\\?"):
        cookingbot.suggest_substitutes("butter", diet="vegn")


def test_the_tool_server_answers_as_the_library(command, afghan):
    async def body(session):
        calls = [
            ("substitute_ingredient", {"network": afghan, "replace": "butter", "with": "coconut-oil"}),
            ("scale_recipe", {"network": afghan, "factor": "3/2"}),
            ("suggest_substitutes", {"ingredient": "butter"}),
            ("suggest_substitutes", {"ingredient": "butter", "diet": "vegan"}),
            ("suggest_substitutes", {"ingredient": "butter", "diet": "vegn"}),
            ("substitute_ingredient", {"network": afghan, "replace": "buter", "with": "coconut-oil"}),
            ("scale_recipe", {"network": afghan, "factor": "0"}),
        ]
        return [await session.call_tool(name, args) for name, args in calls]

    substituted, scaled, suggested, vegan, misspelt, unknown, zero = run(command, body)
    assert not substituted.is_error and not scaled.is_error and not suggested.is_error
    assert substituted.structured_content == cookingbot.substitute(afghan, "butter", "coconut-oil").report
    assert scaled.structured_content == cookingbot.scale(afghan, "3/2").report
    assert scaled.structured_content["network"].count("\n") == afghan.count("\n")
    assert [x["class"] for x in suggested.structured_content["suggestions"]][:2] == [
        "salted-butter", "coconut-oil"]
    assert not vegan.is_error
    assert vegan.structured_content == dataclasses.asdict(
        cookingbot.suggest_substitutes("butter", diet="vegan"))
    assert misspelt.is_error and misspelt.structured_content["kind"] == "request"
    assert "did you mean `vegan`?" in misspelt.structured_content["error"]
    assert unknown.is_error and unknown.structured_content == {
        "error": "no ingredient `buter` in the ontology; did you mean butter, water?", "kind": "request"}
    assert zero.is_error and zero.structured_content["kind"] == "request"


OIL_NOTE = (
    "oil is an abstract class: the kitchen holds none of it as such, so fetching it takes the "
    "first object of a subclass it finds; the subclasses the kitchen holds: "
    "extra-virgin-olive-oil (replace by one to choose)"
)


def test_an_abstract_substitute_is_noted_with_its_subclasses_as_the_command_line_notes_it(
    command, tmp_path, afghan
):
    s = cookingbot.substitute(afghan, "butter", "oil")
    assert s.executes and s.notes == [OIL_NOTE]
    assert s.against_original.dish["surplus"] == ["extra-virgin-olive-oil"]
    network = tmp_path / "afghan.solution"
    network.write_text(afghan)
    told = subprocess.run([command, "substitute", str(network), "--replace", "butter=oil"],
                          capture_output=True, text=True, check=True)
    assert told.stdout.endswith(f"note: {OIL_NOTE}\n")


def test_a_float_factor_is_the_simplest_fraction_that_rounds_to_it(afghan):
    third = cookingbot.scale(afghan, 1 / 3)
    assert (third.factor, third.executes) == ("1/3", True)
    assert third.report == cookingbot.scale(afghan, Fraction(1, 3)).report
    assert third.report == cookingbot.scale(afghan, "1/3").report
    assert [cookingbot.scale(afghan, f).factor for f in (0.1, 2 / 3, 1.5, 2.0, 2)] == [
        "1/10", "2/3", "3/2", "2", "2"]


@pytest.mark.parametrize("factor, message", [
    (0.001, "a factor of 0.001 is beyond what scale takes: from 1/100 to 100"),
    (1e-300, "a factor of 1e-300 is beyond what scale takes: from 1/100 to 100"),
    (1e20, "a factor of 1e+20 is beyond what scale takes: from 1/100 to 100"),
    (float("inf"), "a factor of inf is beyond what scale takes: from 1/100 to 100"),
    (float("nan"), "a factor of nan is not a number; scale takes factors from 1/100 to 100"),
    (0.0, "a factor of 0.0 would leave nothing to cook; factors are above 0"),
    (-1e-300, "a factor of -1e-300 would leave nothing to cook; factors are above 0"),
    (float("-inf"), "a factor of -inf would leave nothing to cook; factors are above 0"),
])
def test_a_float_factor_out_of_range_is_refused_in_its_own_digits_with_the_range(afghan, factor, message):
    with pytest.raises(ValueError) as refused:
        cookingbot.scale(afghan, factor)
    assert str(refused.value) == message


@pytest.mark.parametrize("counts, message", [
    ({"servings": 2**32, "serves": 4}, "--servings 4294967296: servings are counted from 1 to 10000"),
    ({"servings": 6, "serves": 2**70}, "--serves 1180591620717411303424: servings are counted from 1 to 10000"),
    ({"servings": -1, "serves": 4}, "--servings -1: servings are counted from 1 to 10000"),
    ({"servings": 20000, "serves": 4}, "--servings 20000: servings are counted from 1 to 10000"),
])
def test_servings_of_any_size_get_the_command_lines_range_error(afghan, counts, message):
    with pytest.raises(ValueError) as refused:
        cookingbot.scale(afghan, **counts)
    assert str(refused.value) == message
