"""Primitives written in Python (`cookingbot.Model.add_primitive`): the Rust example's `grill`
written again in Python scores as the Rust one on the same recipe and data
(`examples/grilled-halloumi/`, which `examples/custom_primitive.rs` reads, and whose scores
`tests/library/extending.rs` asserts); docs/extending.md's extended benchmark through Python and the tool server;
errors in the code and its answers refuse the action, never crash."""

import functools
import json
import re
import subprocess
import sys

import numpy as np
import pytest

import cookingbot
import test_mcp
from conftest import ROOT

EXAMPLE = ROOT / "examples" / "grilled-halloumi"
sys.path.insert(0, str(EXAMPLE))
from grill import grill  # noqa: E402  (the example's grill, shared with the cost script)
GOLD = (EXAMPLE / "gold.solution").read_text()
NEVER_GRILLED = (EXAMPLE / "never-grilled.solution").read_text()
GRILL = json.loads((EXAMPLE / "grill.json").read_text())
ALL_METRICS = [
    "smatch-score",
    "goal-condition-success",
    "dish-approximation-score",
    "execution-time",
]
#: A value nested deeper than serde_json reads (128 levels).
DEEP = functools.reduce(lambda inner, _: [inner], range(200), [])
GRILL_LINE = "(grill ?grilled-halloumi ?ks-with-grilled-halloumi ?ks-with-halloumi ?halloumi 4 minute)"


def kitchen_with(additions):
    """The built-in 2024 kitchen with `additions` (place → items) at the end of their places."""
    kitchen = json.loads((ROOT / "kitchens" / "full-kitchen-2024.json").read_text())
    for place, items in additions.items():
        at = next(p for p in kitchen["kitchen"]["contents"] if p["class"] == place)
        at["contents"].extend(items)
    return json.dumps(kitchen, indent=1)


def new_benchmark(command, folder, ontology, kitchen):
    made = subprocess.run([command, "new-benchmark", str(folder)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    (folder / "ontology.json").write_text(ontology)
    (folder / "kitchen.json").write_text(kitchen)


@pytest.fixture(scope="module")
def example_world(tmp_path_factory, command):
    """The Rust example's world as a benchmark folder (its ontology, the fridge's halloumi)
    and its gold network as `--gold`."""
    root = tmp_path_factory.mktemp("grill")
    fridge = json.loads((EXAMPLE / "fridge.json").read_text())
    new_benchmark(
        command, root / "bench", (EXAMPLE / "ontology.json").read_text(), kitchen_with({"fridge": fridge})
    )
    (root / "gold.solution").write_text(GOLD)
    return root / "bench", root / "gold.solution"


def grill_model(example_world, code=grill, **kw):
    bench, gold = example_world
    model = cookingbot.Model(benchmark=bench, gold=gold)
    model.add_primitive("grill", GRILL, code, **kw)
    return model


def replay(kitchen, text):
    return [kitchen.step(line) for line in text.splitlines()[1:]]


def test_a_python_grill_scores_as_the_rust_example(example_world):
    model = grill_model(example_world)
    gold, never = model.evaluate([GOLD, NEVER_GRILLED], metrics=ALL_METRICS)
    # tests/library/extending.rs: the Rust grill's rows for the same two networks.
    assert (gold.smatch_score, gold.goal_condition_success) == (1.0, 1.0)
    assert (gold.dish_approximation_score, gold.execution_time) == (1.0, 270)
    f32 = np.float32
    dish = f32(0.98) * (f32(0.6) * (f32(8.0) / f32(9.0)) + f32(0.4)) + f32(0.02)
    assert abs(never.dish_approximation_score - float(dish)) < 1e-6
    assert never.execution_time == 30
    kitchen = model.kitchen("grilled-halloumi")
    seen = replay(kitchen, GOLD)
    assert [s.outcome for s in seen] == ["ran", "ran", "ran"]
    assert seen[2].text == (
        "grill ran: ?grilled-halloumi = a medium bowl (used) holding 1 piece halloumi (grilled), "
        "ready at 4:30; ?ks-with-grilled-halloumi = the kitchen at 1:00, ready at 1:00"
    )
    assert kitchen.finish().printed == ["1.00", "1.00", "1.00", "270"]
    assert kitchen.finish().scores == gold
    never_grilled = model.kitchen("grilled-halloumi")
    replay(never_grilled, NEVER_GRILLED)
    assert never_grilled.finish().scores == never


def test_the_call_holds_the_inputs_in_the_kitchen_encoding(example_world):
    calls = []

    def recording(call):
        calls.append(json.loads(json.dumps(call.inputs)))
        calls.append((call.primitive, call.ready, call.kitchen_time, call.outputs, call.kitchen))
        return grill(call)

    replay(grill_model(example_world, recording).kitchen("grilled-halloumi"), GOLD)
    inputs, rest = calls
    assert rest == (
        "grill",
        {"thing-to-grill": 30, "time-to-grill-quantity": None, "time-to-grill-unit": None},
        30,
        ["thing-grilled"],
        None,
    )
    bowl = inputs["thing-to-grill"]
    assert (bowl["class"], bowl["used"]) == ("medium-bowl", True)
    [halloumi] = bowl["contents"]
    assert (halloumi["class"], halloumi["grilled"]) == ("halloumi", None)
    assert halloumi["amount"]["quantity"]["value"] == 1
    assert halloumi["amount"]["unit"]["class"] == "piece"
    assert isinstance(bowl["id"], int) and isinstance(halloumi["id"], int)
    assert inputs["time-to-grill-quantity"]["value"] == 4
    assert inputs["time-to-grill-unit"]["class"] == "minute"


def doc_file(name):
    """The block that follows `<!-- file: NAME -->` in docs/extending.md."""
    doc = (ROOT / "docs" / "extending.md").read_text()
    after = doc[doc.index(f"<!-- file: {name} -->\n") :].split("\n", 2)[2]
    return after[: after.index("```")]


@pytest.fixture(scope="module")
def extended_benchmark(tmp_path_factory, command):
    """docs/extending.md's benchmark, made with the commands: its ontology's new ingredient,
    its kitchen's new tool, and the recipe whose gold network uses both."""
    root = tmp_path_factory.mktemp("extended")
    bench = root / "bench"
    additions = json.loads(doc_file("kitchen-additions.json"))
    new_benchmark(command, bench, doc_file("ontology.json"), kitchen_with(additions))
    (root / "text.txt").write_text(doc_file("grilled-halloumi.txt"))
    (root / "gold.solution").write_text(doc_file("grilled-halloumi.solution"))
    added = subprocess.run(
        [command, "add-recipe", "--benchmark", str(bench), "--text", str(root / "text.txt"),
         "--gold", str(root / "gold.solution")],
        capture_output=True,
        text=True,
    )
    assert added.returncode == 0, added.stderr
    return bench


def test_the_extended_benchmark_scores_1_against_itself_through_python(extended_benchmark):
    bench, gold = extended_benchmark, doc_file("grilled-halloumi.solution")
    [score] = cookingbot.evaluate(gold, benchmark=bench, metrics=ALL_METRICS)
    assert (score.smatch_score, score.goal_condition_success) == (1.0, 1.0)
    assert (score.dish_approximation_score, score.execution_time) == (1.0, 80)
    kitchen = cookingbot.Kitchen("grilled-halloumi", benchmark=bench)
    assert all(seen.ok for seen in replay(kitchen, gold))
    assert kitchen.finish().scores == score
    assert cookingbot.Model(benchmark=bench).evaluate(gold, metrics=ALL_METRICS) == [score]


def test_the_extended_benchmark_scores_1_against_itself_through_the_tool_server(extended_benchmark, command):
    gold = doc_file("grilled-halloumi.solution")

    async def body(session):
        scored = await session.call_tool("score_network", {"network": gold})
        started = await session.call_tool("kitchen_start", {"recipe": "grilled-halloumi"})
        id = started.structured_content["session"]
        acts = [await session.call_tool("kitchen_act", {"session": id, "line": line})
                for line in gold.splitlines()[1:]]
        finished = await session.call_tool("kitchen_finish", {"session": id})
        return scored, acts, finished

    scored, acts, finished = test_mcp.run(command, body, ["--benchmark", str(extended_benchmark)])
    assert not scored.is_error, scored.content
    (recipe,) = scored.structured_content["recipes"]
    assert recipe["recipe_id"] == "grilled-halloumi"
    assert (recipe["smatch"]["f_score"], recipe["goal_condition_success"]["value"]) == (1.0, 1.0)
    assert (recipe["dish_approximation_score"], recipe["execution_time"]) == (1.0, 80)
    assert all(act.structured_content["outcome"] == "ran" for act in acts)
    assert finished.structured_content["score"] == scored.structured_content


def refusal(model, ran=GOLD):
    """The refused grill's error, through a session and through the evaluation."""
    kitchen = model.kitchen("grilled-halloumi")
    *_, seen = replay(kitchen, ran)
    assert (seen.ok, seen.outcome) == (False, "refused")
    [d] = seen.diagnostics
    with pytest.raises(cookingbot.NetworkError) as refused:
        model.evaluate(ran)
    assert str(refused.value).endswith(d.message)
    return d.message


def test_an_exception_in_the_code_refuses_the_action_with_its_text(example_world):
    def cold(call):
        raise ValueError("the grill is cold")

    message = refusal(grill_model(example_world, cold))
    assert re.fullmatch(r"grill: ValueError: the grill is cold \(at test_python_primitive\.py:\d+\)", message)


@pytest.mark.parametrize(
    "answer, message",
    [
        ([], "grill: it returned list, not a dict with 'outputs'"),
        ({"outputs": {}}, "grill: the answer's outputs.thing-grilled: missing: every output of the case must be given"),
        ({"outputs": {"thing-grilled": {"class": "halloumy"}}}, "grill: the answer's outputs.thing-grilled.class: unknown class `halloumy`"),
        ({"outputs": {"thing-grilled": {"class": "medium-bowl", "colour": 1}}}, "grill: the answer's outputs.thing-grilled.colour: `medium-bowl` has no slot `colour`"),
        ({"outputs": {"thing-grilled": {"class": "medium-bowl", "id": 10**9}}}, "grill: the answer's outputs.thing-grilled.id: 1000000000 is the id of no object (an existing object's id, or a string naming a new one)"),
        ({"outputs": {"thing-grilled": None, "rest": None}}, "grill: the answer's outputs.rest: not an output of this case (outputs: thing-grilled)"),
        ({"outputs": {"thing-grilled": None}, "kitchen_time": 10**12}, "grill: the answer's kitchen_time: 1000000000000 is not a finite number within the bound of 1000000000"),
        ({"outputs": {"thing-grilled": None}, "ready_at": {"thing-grilled": "soon"}}, "grill: the answer's ready_at.thing-grilled: a time in seconds, not \"soon\""),
        ({"outputs": {"thing-grilled": None}, "ready_at": {"rest": 1}}, "grill: the answer's ready_at.rest: not an output of this case"),
        ({"outputs": {"thing-grilled": None}, "colour": 1}, "grill: the answer's colour: unknown key (keys are outputs, ready_at, kitchen_time, kitchen)"),
        ({"outputs": {"thing-grilled": DEEP}}, "grill: the answer: recursion limit exceeded at line 1 column 156"),
        ({"outputs": {"thing-grilled": {1, 2}}}, "grill: TypeError: set {1, 2} is no value of the kitchen"),
    ],
)
def test_an_answer_that_cannot_be_used_refuses_the_action_with_its_field(example_world, answer, message):
    assert refusal(grill_model(example_world, lambda call: answer)) == message


def test_add_primitive_refuses_built_in_names_twice_added_ones_and_bad_signatures(example_world):
    model = grill_model(example_world)
    with pytest.raises(ValueError, match="the catalogue already has a primitive `grill`"):
        model.add_primitive("grill", GRILL, grill)
    with pytest.raises(ValueError, match="the catalogue already has a primitive `bake`"):
        model.add_primitive("bake", {**GRILL, "name": "bake"}, grill)
    with pytest.raises(ValueError, match="the signature names 'grill', not 'toast'"):
        model.add_primitive("toast", GRILL, grill)
    unknown = {**GRILL, "name": "toast", "cases": [["kitchen-state-in", "bread"]]}
    with pytest.raises(ValueError, match="toast: case names unknown argument bread"):
        model.add_primitive("toast", unknown, grill)
    assert model.added_primitives == ["grill"]
    assert "grill" in [p.name for p in model.primitives]


def test_an_interrupt_in_the_code_is_raised_by_the_call_that_ran_it(example_world):
    def interrupted(call):
        raise KeyboardInterrupt

    kitchen = grill_model(example_world, interrupted).kitchen("grilled-halloumi")
    assert GOLD.endswith(f"\n{GRILL_LINE}\n")
    replay(kitchen, GOLD.removesuffix(f"{GRILL_LINE}\n"))
    with pytest.raises(KeyboardInterrupt):
        kitchen.step(GRILL_LINE)
    assert kitchen.undo() == GRILL_LINE
    calls = []

    def interrupted_once(call):
        calls.append(call)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return grill(call)

    model = grill_model(example_world, interrupted_once)
    with pytest.raises(KeyboardInterrupt):
        model.evaluate(GOLD)
    # The gold run the interruption stopped is run again, not kept as failed.
    assert model.evaluate(GOLD)[0].dish_approximation_score == 1.0


PLATE = {
    "args": [
        {"name": "plated", "type": "transferable-container"},
        {"name": "kitchen-state-out", "type": "kitchen-state"},
        {"name": "kitchen-state-in", "type": "kitchen-state"},
        {"name": "thing-to-plate", "type": "transferable-container"},
    ],
    "cases": [["kitchen-state-in", "thing-to-plate"]],
}


def test_a_primitive_that_sees_the_kitchen_places_a_new_object_in_it(example_world):
    """`plate` takes a new plate (named by a string id) holding what the bowl held, puts it on
    the counter-top and empties the bowl."""
    seen = []

    def plate(call):
        seen.append(call.kitchen)
        bowl = call.inputs["thing-to-plate"]
        new = {"class": "plate", "id": "the-plate", "contents": bowl["contents"]}
        bowl["contents"] = None
        counter = next(p for p in call.kitchen if p["class"] == "counter-top")
        counter["contents"] = [{"class": "plate", "id": "the-plate", "contents": new["contents"]}, *(counter["contents"] or [])]
        return {"outputs": {"plated": new}, "kitchen": [counter, bowl]}

    model = grill_model(example_world)
    model.add_primitive("plate", PLATE, plate, kitchen=True)
    kitchen = model.kitchen("grilled-halloumi")
    replay(kitchen, GOLD)
    done = kitchen.step("(plate ?plated ?ks-plated ?ks-with-grilled-halloumi ?grilled-halloumi)")
    assert done.ok, done.text
    assert {"fridge", "counter-top", "kitchen-cabinet"} <= {p["class"] for p in seen[0]}
    counter = kitchen.look("counter-top").place
    assert [c["class"] for c in counter["contents"]] == ["plate", "medium-bowl"]
    assert counter["words"] == "counter top holds a plate holding 1 piece halloumi (grilled), a medium bowl (used)"
    assert kitchen.look("?plated").object["words"] == "a plate holding 1 piece halloumi (grilled), ready at 1:00"
