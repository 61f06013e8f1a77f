"""The agent session from Python (`cookingbot.Kitchen`): gold networks given line by line finish
as their files are evaluated; bad lines are observations, misuse is a ValueError."""

import threading

import pytest

import cookingbot

ALL_METRICS = [
    "smatch-score",
    "goal-condition-success",
    "dish-approximation-score",
    "execution-time",
]


@pytest.mark.parametrize("reference", ["2024", "2023"])
def test_every_gold_network_given_line_by_line_finishes_as_its_file_is_evaluated(reference):
    benchmark = cookingbot.Benchmark(reference=reference)
    assert len(benchmark) == 30
    for recipe in benchmark:
        kitchen = cookingbot.Kitchen(recipe.id, reference=reference)
        opening = kitchen.reset()
        assert opening.ok and opening.outcome == "opening" and opening.time == 0
        assert opening.text.startswith("Title: ") and "\nThe kitchen:\n" in opening.text
        assert {"fridge", "pantry", "counter-top"} <= {p["place"] for p in opening.objects}
        actions = [line for line in recipe.gold.splitlines()[1:] if line]
        for number, line in enumerate(actions, start=2):
            seen = kitchen.step(line)
            # A gold line that makes a failed object (as the reference's run of it does) is
            # `failed`, not ok; every other gold line runs.
            assert seen.ok != (seen.outcome == "failed"), f"{recipe.id} line {number}: {seen.text}"
            assert seen.outcome in ("ran", "runs-with-first", "failed") and seen.line == number
        assert kitchen.waiting() == [] and kitchen.unbound() == []
        assert kitchen.network() == "".join(f"{line}\n" for line in [f"#{recipe.id}", *actions])
        score = kitchen.finish()
        expected = cookingbot.evaluate(kitchen.network(), reference=reference, metrics=ALL_METRICS)
        assert score.scores == expected[0], recipe.id
        assert score.smatch_score == 1.0 and score.printed[0] == "1.00"
        assert score.csv.splitlines()[1] == ",".join([recipe.id, *score.printed])


def test_a_line_reports_what_it_made_in_words_and_json_and_the_kitchen_time():
    kitchen = cookingbot.Kitchen("afghan-biscuits")
    assert kitchen.step("(get-kitchen ?kitchen)").time == 0
    seen = kitchen.step("(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 200 g)")
    assert (seen.ok, seen.outcome, seen.line, seen.time) == (True, "ran", 3, 30)
    assert [o["variable"] for o in seen.objects] == ["?butter", "?ks-1", "?bowl"]
    butter = seen.objects[0]
    assert butter["words"] == "a medium bowl (used) holding 200 g butter at 5 °C, ready at 0:30"
    assert butter["available_at"] == 30
    assert butter["object"]["class"] == "medium-bowl"
    assert butter["object"]["parts"][0]["amount"] == {"value": "200", "unit": "g"}
    assert kitchen.look("?butter").object["words"] == butter["words"]
    assert kitchen.look("counter-top").place["contents"][0]["class"] == "medium-bowl"


def test_bad_lines_are_observations_with_located_diagnostics_never_exceptions():
    kitchen = cookingbot.Kitchen("afghan-biscuits")
    kitchen.step("(get-kitchen ?kitchen)")
    unknown = kitchen.step("(fecth-and-proportion ?b ?ks ?kitchen ?bowl butter 10 g)")
    assert (unknown.ok, unknown.outcome, unknown.line) == (False, "refused", 3)
    [d] = unknown.diagnostics
    assert (d.severity, d.code, d.line, d.column) == ("error", "E0103", 3, 2)
    assert d.message == "unknown primitive `fecth-and-proportion`"
    assert d.hint == "did you mean `fetch-and-proportion`?"
    assert d.suggestions == ("fetch-and-proportion",)
    assert kitchen.undo() == "(fecth-and-proportion ?b ?ks ?kitchen ?bowl butter 10 g)"
    misspelt = kitchen.step("(fetch-and-proportion ?b ?ks ?kitchen ?bowl buter 100 g)")
    [d] = misspelt.diagnostics
    assert (d.code, d.line, d.column, d.hint) == ("E0106", 3, 45, "did you mean `butter`, `water`?")
    assert d.suggestions == ("butter", "water")
    kitchen.undo()
    before = kitchen.network()
    for line, message in [
        ("a\nb", "one line at a time: the text holds a line break"),
        ("x" * 5000, "a line of 5000 bytes; lines of at most 4096 bytes are accepted"),
        ("#afghan-biscuits", "a session writes the network of `afghan-biscuits` alone: a header may only open it and name it"),
    ]:
        seen = kitchen.step(line)
        assert (seen.ok, seen.outcome, seen.line, seen.objects) == (False, "rejected", 3, [])
        assert [(d.severity, d.line, d.column, d.message) for d in seen.diagnostics] == [
            ("error", 3, 1, message)
        ]
        assert kitchen.network() == before
    assert kitchen.step("").outcome == "no-action"


def test_a_network_at_the_line_bound_refuses_more_lines_in_the_observation():
    kitchen = cookingbot.Kitchen("afghan-biscuits")
    for _ in range(1000):
        assert kitchen.step("; a comment").outcome == "no-action"
    seen = kitchen.step("(get-kitchen ?kitchen)")
    assert (seen.ok, seen.outcome, seen.line) == (False, "rejected", 1002)
    assert seen.diagnostics[0].message == "the network has 1000 lines, the most a session takes"
    assert kitchen.undo() == "; a comment"
    assert kitchen.step("(get-kitchen ?kitchen)").outcome == "ran"


def test_undo_look_and_reset():
    kitchen = cookingbot.Kitchen("AFGHAN-BISCUITS")
    assert kitchen.recipe == "afghan-biscuits"
    assert kitchen.undo() is None
    kitchen.step("(get-kitchen ?kitchen)")
    waiting = kitchen.step("(beat ?beaten ?ks-2 ?ks-1 ?butter ?whisk)")
    assert (waiting.ok, waiting.outcome) == (False, "waiting")
    assert kitchen.waiting() == [3]
    ran = kitchen.step("(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 200 g)")
    assert ran.outcome == "ran" and "then line 3 ran (beat)" in ran.text
    assert kitchen.waiting() == []
    assert kitchen.look("?beaten").object is not None
    with pytest.raises(ValueError, match=r"did you mean \?beaten"):
        kitchen.look("?beatn")
    assert kitchen.undo().startswith("(fetch-and-proportion")
    assert kitchen.look("?beaten").object is None
    assert kitchen.waiting() == [3]
    kitchen.reset()
    assert kitchen.network() == "#afghan-biscuits\n"


def test_unknown_recipes_and_profiles_raise_value_error():
    with pytest.raises(ValueError) as unknown:
        cookingbot.Kitchen("afghan-biscuit")
    assert str(unknown.value) == (
        "the benchmark has no recipe `afghan-biscuit` (did you mean afghan-biscuits?)"
    )
    with pytest.raises(ValueError, match="unknown reference profile `2025`"):
        cookingbot.Kitchen("afghan-biscuits", reference="2025")
    with pytest.raises(ValueError, match="give reference, benchmark and kitchen to the Model"):
        cookingbot.Kitchen("afghan-biscuits", reference="2024", model=cookingbot.Model())


def test_a_refused_network_finishes_with_the_refusal_of_its_file():
    kitchen = cookingbot.Kitchen("afghan-biscuits")
    kitchen.step("(get-kitchen ?kitchen)")
    kitchen.step("(get-kitchen ?again)")
    score = kitchen.finish()
    assert score.scores is None and score.printed == [] and score.csv == ""
    with pytest.raises(cookingbot.NetworkError) as refused:
        cookingbot.evaluate(kitchen.network())
    assert refused.value.args[0].endswith(score.refused)
    assert "afghan-biscuits.solution:3:" in score.rendered


def test_kitchens_on_threads_are_independent():
    gold = cookingbot.Benchmark()["afghan-biscuits"].gold.splitlines()[1:]
    gold = [line for line in gold if line]
    alone = cookingbot.Kitchen("afghan-biscuits")
    expected = [alone.step(line).report for line in gold]
    results = {}

    def agent(k):
        kitchen = cookingbot.Kitchen("afghan-biscuits")
        results[k] = [kitchen.step(line).report for line in gold]

    threads = [threading.Thread(target=agent, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == expected for k in range(4))


def test_progress_is_the_goals_reached_so_far_and_finish_says_why_there_is_no_dish():
    kitchen = cookingbot.Kitchen("demo-shortbread-rounds", benchmark="demo")
    kitchen.reset()
    assert kitchen.progress().goals_reached == 0
    kitchen.step("(get-kitchen ?kitchen)")
    seen = kitchen.step("(fetch-and-proportion ?bacon ?ks-bacon ?kitchen ?bowl bacon 100 g)")
    assert (seen.ok, seen.outcome) == (False, "failed")
    assert seen.objects[0]["failed"].startswith("the kitchen holds no bacon: looked in ")
    assert seen.diagnostics[0].severity == "warning"
    progress = kitchen.progress()
    assert (progress.goals_reached, progress.goal_share) == (0, 0.0)
    assert kitchen.network().count("\n") == 3
    # Everything ran: a dish, if a poor one, and nothing to explain.
    assert kitchen.finish().why_no_dish is None
    assert kitchen.step("(beat ?whipped ?ks-whipped ?ks-later ?bacon ?whisk)").outcome == "waiting"
    score = kitchen.finish()
    assert score.goal_condition_success is None
    assert score.why_no_dish.startswith("line 3 (fetch-and-proportion) made a failed object: ")
