"""Hostile input to the Python package: texts over the command line's bound on solution files
refused before any work, a primitive calling back into its own model refused instead of hanging,
Ctrl-C stopping a long evaluation, edited data files read again, and exact scaling factors
from floats."""

import json
import os
import signal
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest

import cookingbot
from conftest import ROOT
from test_python_primitive import example_world  # noqa: F401  (the fixture)

#: The command line's bound on solution files (service::solution_file::MAX_INPUT_BYTES).
BOUND = 64 << 20
DEMO_GOLD = (ROOT / "gold" / "demo" / "shortbread-rounds.solution").read_text()


def over_bound(size: str) -> str:
    return (
        f"the network text is {size} long; texts of at most {BOUND} bytes (64 MiB) of UTF-8 "
        "are read, as solution files are"
    )


#: Every function of the package that takes a network text, called with `text`.
CALLS = {
    "check": lambda t: cookingbot.check(t),
    "evaluate": lambda t: cookingbot.evaluate(t, benchmark="demo"),
    "evaluate a list": lambda t: cookingbot.evaluate([DEMO_GOLD, t], benchmark="demo"),
    "simulate": lambda t: cookingbot.simulate(t, benchmark="demo"),
    "smatch test": lambda t: cookingbot.smatch(t, DEMO_GOLD),
    "smatch gold": lambda t: cookingbot.smatch(DEMO_GOLD, t),
    "diet": lambda t: cookingbot.diet(t, "vegan", benchmark="demo"),
    "guide": lambda t: cookingbot.guide(t, benchmark="demo"),
    "substitute": lambda t: cookingbot.substitute(t, "butter", "oil", benchmark="demo"),
    "scale": lambda t: cookingbot.scale(t, 2, benchmark="demo"),
    "suggest_substitutes": lambda t: cookingbot.suggest_substitutes(
        "butter", network=t, benchmark="demo"
    ),
    "Model.evaluate": lambda t: cookingbot.Model(benchmark="demo").evaluate(t),
    "Model.simulate": lambda t: cookingbot.Model(benchmark="demo").simulate(t),
    "Kitchen.step": lambda t: cookingbot.Kitchen("demo-shortbread-rounds", benchmark="demo").step(t),
}


@pytest.mark.parametrize("call", CALLS, ids=list(CALLS))
def test_a_text_of_100_mb_is_refused_naming_the_bound(call):
    text = "#demo-shortbread-rounds\n" + "(get-kitchen ?k)\n" * (100_000_000 // 17)
    with pytest.raises(ValueError) as refused:
        CALLS[call](text)
    assert str(refused.value) == over_bound(f"{len(text)} characters")


def test_a_text_of_fewer_characters_than_the_bound_but_more_bytes_is_refused():
    # Two bytes a character: half the bound in characters is past it.
    text = "#é\n" + "é" * (BOUND // 2 - 1)
    assert len(text) < BOUND < len(text.encode())
    with pytest.raises(ValueError) as refused:
        cookingbot.check(text)
    assert str(refused.value) == over_bound(f"{len(text.encode())} bytes")


def test_a_file_over_the_bound_is_refused_as_the_command_line_refuses_it(tmp_path):
    big = tmp_path / "big.solution"
    with open(big, "wb") as f:
        f.truncate(BOUND + 1)  # sparse: no disk, and refused before a byte is read
    with pytest.raises(ValueError) as refused:
        cookingbot.evaluate(big, benchmark="demo")
    assert str(refused.value) == (
        f"{big}: {BOUND + 1} bytes; solution files of at most {BOUND} bytes (64 MiB) are read"
    )


def run_python(code: str, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT / "tests" / "python",
    )


BUSY = (
    "the model is busy running its primitive `grill`; a primitive cannot call back into its "
    "own model or a Kitchen of it"
)


def test_a_primitive_calling_back_into_its_model_or_kitchen_is_refused(example_world):
    bench, gold_file = example_world
    # In a child with a timeout: a hang fails the test instead of hanging the run.
    child = run_python(
        f"""
        import json
        import cookingbot
        from test_python_primitive import GOLD, GRILL, grill

        said = []
        held = {{}}

        def calling_back(call):
            calls = [
                ("evaluate", lambda: held["model"].evaluate(GOLD)),
                ("primitives", lambda: held["model"].primitives),
                ("kitchen", lambda: held["model"].kitchen("grilled-halloumi")),
            ]
            if "kitchen" in held:
                calls.append(("look", lambda: held["kitchen"].look("?halloumi")))
            for name, back in calls:
                try:
                    back()
                    said.append([name, "answered"])
                except RuntimeError as e:
                    said.append([name, str(e)])
            return grill(call)

        model = cookingbot.Model(benchmark={str(bench)!r}, gold={str(gold_file)!r})
        model.add_primitive("grill", GRILL, calling_back)
        held["model"] = model
        held["kitchen"] = kitchen = model.kitchen("grilled-halloumi")
        for action in GOLD.strip().splitlines()[1:]:
            kitchen.step(action)
        score = model.evaluate(GOLD)[0]
        print(json.dumps({{"said": said, "dish": score.dish_approximation_score}}))
        """,
        timeout=120,
    )
    assert child.returncode == 0, child.stderr
    out = json.loads(child.stdout)
    names = ["evaluate", "primitives", "kitchen", "look"]
    # Three calls of the primitive, each refused every call back: the session's step, then the
    # evaluation's runs of the gold network and of the text.
    assert out["said"] == [[name, BUSY] for name in names] * 3
    assert out["dish"] == 1.0


def long_search(grams: int = 1) -> str:
    """30 fetches that can run in any order and an action that never can: the search meets
    2^30 sets of executed actions, for the whole minute of the recipe's budget."""
    return "#demo-shortbread-rounds\n(get-kitchen ?k0)\n" + "".join(
        f"(fetch-and-proportion ?x{i} ?ks{i} ?k0 ?c{i} butter {grams} g)\n" for i in range(30)
    ) + "(mix ?m ?ks-mixed ?never-made ?x0 ?whisk)\n"


def interrupted(call: str) -> None:
    """Run `call` in a child process well into its work, then Ctrl-C it: the child must end
    with a `KeyboardInterrupt`, having printed nothing of a result."""
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import cookingbot
            print("started", flush=True)
            {call}
            print("finished", flush=True)
        """)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout.readline() == "started\n"
        # Well into the search (the demo loads in milliseconds), then Ctrl-C.
        try:
            child.wait(timeout=3)
        except subprocess.TimeoutExpired:
            pass
        assert child.poll() is None, "the search ended by itself"
        child.send_signal(signal.SIGINT)
        # A recipe's budget is a minute: ending within half of it is Ctrl-C's doing.
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert out == ""
    assert err.rstrip().endswith("KeyboardInterrupt"), err
    assert child.returncode != 0


def test_ctrl_c_stops_a_long_evaluation():
    interrupted(f'cookingbot.evaluate({long_search()!r}, benchmark="demo")')


def test_ctrl_c_stops_a_compare_whose_networks_are_scored_on_other_threads(tmp_path):
    # Two files, so that the batch hands them to rayon's worker threads (a batch of one is
    # scored on the calling thread), which Ctrl-C must stop too.
    for grams in (1, 2):
        (tmp_path / f"{grams}.solution").write_text(long_search(grams))
    interrupted(f'cookingbot.compare({str(tmp_path)!r}, {str(tmp_path)!r}, benchmark="demo")')


def test_an_edited_kitchen_file_is_read_again_as_the_command_line_reads_it(tmp_path, command):
    kitchen = json.loads((ROOT / "kitchens" / "full-kitchen-2024.json").read_text())
    path, gold = tmp_path / "kitchen.json", tmp_path / "gold.solution"
    path.write_text(json.dumps(kitchen))
    gold.write_text(DEMO_GOLD)
    model = cookingbot.Model(benchmark="demo", kitchen=path)
    calls = [
        lambda: cookingbot.evaluate(DEMO_GOLD, benchmark="demo", kitchen=path),
        lambda: model.evaluate(DEMO_GOLD),
    ]
    assert [call()[0].dish_approximation_score for call in calls] == [1.0, 1.0]
    without_oven = [p for p in kitchen["kitchen"]["contents"] if p["class"] != "oven"]
    path.write_text(json.dumps({**kitchen, "kitchen": {**kitchen["kitchen"], "contents": without_oven}}))
    cli = subprocess.run(
        [command, "--benchmark", "demo", "--kitchen", str(path), "--input", str(gold), "-o", "-"],
        capture_output=True, text=True,
    )
    refusal = "the gold network of demo-shortbread-rounds fails to run: the kitchen has no oven"
    assert (cli.returncode, cli.stderr.splitlines()[0]) == (1, f"error: {gold}: {refusal}")
    for call in calls:
        with pytest.raises(cookingbot.NetworkError) as refused:
            call()
        assert str(refused.value) == refusal
    path.write_text(json.dumps(kitchen))
    assert [call()[0].dish_approximation_score for call in calls] == [1.0, 1.0]
