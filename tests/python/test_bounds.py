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
    "own model or a Kitchen of it, from its own thread or another (calls into the model are "
    "refused until the primitive returns)"
)

#: A function `through(call)` that makes `call()` on the primitive's own thread, or on a
#: thread it starts and joins (what the same-thread guard alone let wait for ever).
THROUGH = {
    "its own thread": "def through(call):\n    return call()\n",
    "a thread it joins": textwrap.dedent("""
        import threading

        def through(call):
            out = {}

            def run():
                try:
                    out["answer"] = call()
                except BaseException as e:
                    out["raised"] = e

            thread = threading.Thread(target=run)
            thread.start()
            thread.join()
            if "raised" in out:
                raise out["raised"]
            return out["answer"]
        """),
}


@pytest.mark.parametrize("through", THROUGH, ids=list(THROUGH))
def test_a_primitive_calling_back_into_its_model_or_kitchen_is_refused(example_world, through):
    bench, gold_file = example_world
    # In a child with a timeout: a hang fails the test instead of hanging the run.
    child = run_python(
        THROUGH[through] + textwrap.dedent(f"""
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
                    through(back)
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
        """),
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
    """Run `call` (code that defines `run()`) in a child process well into `run()`'s work, then
    Ctrl-C it: the child must end with a `KeyboardInterrupt`, having printed nothing of a
    result."""
    child = subprocess.Popen(
        # A test run started in the background by a shell without job control ignores SIGINT,
        # and so would the child, with no KeyboardInterrupt: it takes Ctrl-C as at a terminal.
        [sys.executable, "-c", "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
         "import cookingbot\n" + textwrap.dedent(call) + textwrap.dedent("""
            print("started", flush=True)
            run()
            print("finished", flush=True)
        """)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT / "tests" / "python",
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
    interrupted(f'def run():\n    cookingbot.evaluate({long_search()!r}, benchmark="demo")')


def test_ctrl_c_stops_an_evaluation_whose_primitive_calls_back_from_a_thread(example_world):
    bench, gold_file = example_world
    # The long search on the grill's world, with a grill its callback calls back from a thread
    # at every run (each refused): the gold run and the search call it.
    search = long_search().replace("#demo-shortbread-rounds", "#grilled-halloumi").replace(
        "(get-kitchen ?k0)\n",
        "(get-kitchen ?k0)\n(fetch-and-proportion ?h ?ks-h ?k0 ?bowl halloumi 1 piece)\n"
        "(grill ?grilled ?ks-grilled ?ks-h ?h 4 minute)\n",
    )
    interrupted(THROUGH["a thread it joins"] + textwrap.dedent(f"""
        from test_python_primitive import GOLD, GRILL, grill

        model = cookingbot.Model(benchmark={str(bench)!r}, gold={str(gold_file)!r})

        def calling_back(call):
            try:
                through(lambda: model.evaluate(GOLD))
            except RuntimeError:
                pass
            return grill(call)

        model.add_primitive("grill", GRILL, calling_back)

        def run():
            model.evaluate({search!r})
        """))


def test_ctrl_c_stops_a_compare_whose_networks_are_scored_on_other_threads(tmp_path):
    # Two files, so that the batch hands them to rayon's worker threads (a batch of one is
    # scored on the calling thread), which Ctrl-C must stop too.
    for grams in (1, 2):
        (tmp_path / f"{grams}.solution").write_text(long_search(grams))
    interrupted(
        f'def run():\n    cookingbot.compare({str(tmp_path)!r}, {str(tmp_path)!r}, benchmark="demo")'
    )


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


#: The address space the memory-budget tests give their child (as tests/program/bounds.rs
#: gives the command): past it an allocation fails, and a run the budget does not bound aborts.
MEMORY_CAP = 3 << 30


def capped(code: str) -> dict:
    """Run `code` (which sets `out`) in a child python whose address space is capped: what it
    printed as JSON. A child that aborts or hangs fails the test."""
    child = run_python(
        f"import json, resource\nimport cookingbot\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_CAP}, {MEMORY_CAP}))\n"
        + textwrap.dedent(code) + "\nprint(json.dumps(out))\n",
        timeout=300,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    return json.loads(child.stdout)


def portion_heap(pairs: int) -> str:
    """Pairs of 20,000 portions heaped on the demo's counter-top, whose list every later kitchen
    state shares (tests/common's `portion_heap`)."""
    return "#demo-shortbread-rounds\n(get-kitchen ?ks0)\n" + "".join(
        f"(fetch-and-proportion ?dough{i} ?fetched{i} ?ks{i - 1} ?bowl butter 1000000 g)\n"
        f"(portion-and-arrange ?portions{i} ?ks{i} ?fetched{i} ?dough{i} 50 g ?pattern{i} ?counter{i})\n"
        for i in range(1, pairs + 1)
    )


#: The first action the memory budget refuses in a portion heap: its 72nd portioning (each
#: kitchen state copying the counter-top's list, its 24th).
PAST_THE_MEMORY_BUDGET = (
    "recipe demo-shortbread-rounds was not scored within its memory budget of 24000000 kitchen "
    "cells (objects, their slots and list items, about 1 GB); it was in the simulation at "
    "action 143 (`portion-and-arrange`)"
)


def test_a_heap_of_portions_is_refused_at_its_line_or_action_within_the_memory_budget():
    out = capped(f"""
        heap = {portion_heap(72)!r}
        kitchen = cookingbot.Kitchen("demo-shortbread-rounds", benchmark="demo")
        seen = [kitchen.step(line) for line in heap.splitlines()[1:144]]
        oven = kitchen.step("(preheat-oven ?hot-oven ?ks-oven ?ks70 ?oven 180 degrees-celsius)")
        try:
            cookingbot.evaluate(heap, benchmark="demo")
            evaluated = "scored"
        except cookingbot.NetworkError as e:
            evaluated = [str(e), e.line]
        out = {{
            "ran": sorted({{o.outcome for o in seen[:-1]}}),
            "refused": [seen[-1].outcome, seen[-1].line, seen[-1].text,
                        seen[-1].diagnostics[0].message],
            "oven": oven.outcome,
            "evaluated": evaluated,
        }}
        """)
    assert out == {
        "ran": ["ran"],
        "refused": [
            "refused", 144,
            f"portion-and-arrange was refused by the recipe's budget: {PAST_THE_MEMORY_BUDGET}",
            PAST_THE_MEMORY_BUDGET,
        ],
        "oven": "ran",
        "evaluated": [
            # As the command line words it (tests/program/bounds.rs), the action named.
            f"{PAST_THE_MEMORY_BUDGET}: 143 actions run over 0 sets of executed actions searched "
            "to the end; never run: action 144 (`fetch-and-proportion`), 145 (`portion-and-arrange`)",
            None,
        ],
    }


def test_an_answer_of_heavy_objects_is_refused_within_the_memory_budget(tmp_path, command):
    # A class of 9,001 values (a default list of 9,000 numbers), and a grill that answers
    # 20,000 objects of it: 180 million values, gigabytes made before the budget was looked at.
    from test_python_primitive import EXAMPLE, GOLD, kitchen_with, new_benchmark

    ontology = json.loads((EXAMPLE / "ontology.json").read_text())
    ontology["classes"]["heavy-cheese"] = {"is_a": ["feta-cheese"], "new_slots": {"load": [0] * 9000}}
    fridge = json.loads((EXAMPLE / "fridge.json").read_text())
    new_benchmark(command, tmp_path / "bench", json.dumps(ontology), kitchen_with({"fridge": fridge}))
    (tmp_path / "gold.solution").write_text(GOLD)
    out = capped(f"""
        from test_python_primitive import GOLD, GRILL

        def heavy(call):
            return {{"outputs": {{"thing-grilled": [{{"class": "heavy-cheese"}}] * 20000}}}}

        model = cookingbot.Model(benchmark={str(tmp_path / "bench")!r}, gold={str(tmp_path / "gold.solution")!r})
        model.add_primitive("grill", GRILL, heavy)
        try:
            model.simulate(GOLD)
            out = "simulated"
        except cookingbot.NetworkError as e:
            out = [str(e), e.line]
        """)
    assert out == [
        "line 4, column 1: recipe grilled-halloumi was not scored within its memory budget of "
        "24000000 kitchen cells (objects, their slots and list items, about 1 GB); it was in the "
        "simulation at action 3 (`grill`): 3 actions run over 0 sets of executed actions searched "
        "to the end",
        4,
    ]
