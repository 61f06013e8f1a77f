"""The cost of a primitive written in Python per call, beside the same primitive in Rust
(`cargo bench --bench custom_primitive`): `examples/custom_primitive.rs`'s `grill`, written in
Python as tests/python/test_python_primitive.py writes it, run in chains of 0 and 1,000 grill
actions through `Model.evaluate` with the execution time alone (parsing, validating and
running the network, as `cargo bench --bench custom_primitive` runs it). Prints the median
time of each chain and the cost per grill, then where a call's time goes: the Python function
alone, and Python's reading and writing of the call's JSON.

    python scripts/python_primitive_cost.py          # after `pip install .`
"""

import json
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

import cookingbot

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "grilled-halloumi"))
from grill import grill  # noqa: E402  (the example's grill, as the tests use it)
EXAMPLE = ROOT / "examples" / "grilled-halloumi"
REPEATS = 7


def chain(grills):
    """The example's recipe with `grills` grill actions in a chain (benches/custom_primitive.rs)."""
    lines = [
        "#grilled-halloumi",
        "(get-kitchen ?kitchen)",
        "(fetch-and-proportion ?g0 ?ks0 ?kitchen ?bowl halloumi 1 piece)",
    ]
    lines += [f"(grill ?g{i} ?ks{i} ?ks{i - 1} ?g{i - 1} 4 minute)" for i in range(1, grills + 1)]
    return "\n".join(lines) + "\n"


def world(folder):
    """The example's world as a benchmark folder, its gold network beside it."""
    command = Path(sys.executable).parent / "cookingbot-evaluator"
    subprocess.run([str(command), "new-benchmark", str(folder / "bench")], check=True, capture_output=True)
    kitchen = json.loads((ROOT / "kitchens" / "full-kitchen-2024.json").read_text())
    fridge = next(p for p in kitchen["kitchen"]["contents"] if p["class"] == "fridge")
    fridge["contents"].extend(json.loads((EXAMPLE / "fridge.json").read_text()))
    (folder / "bench" / "kitchen.json").write_text(json.dumps(kitchen))
    (folder / "bench" / "ontology.json").write_text((EXAMPLE / "ontology.json").read_text())
    (folder / "gold.solution").write_text((EXAMPLE / "gold.solution").read_text())
    return folder / "bench", folder / "gold.solution"


def median_seconds(work):
    work()
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        bench, gold = world(Path(tmp))
        model = cookingbot.Model(benchmark=bench, gold=gold)
        calls = []

        def recording(call):
            calls.append(call)
            return grill(call)

        model.add_primitive("grill", json.loads((EXAMPLE / "grill.json").read_text()), recording)
        texts = {n: chain(n) for n in (0, 1000)}
        [row] = model.evaluate(texts[1000], metrics=["execution-time"])
        assert row.execution_time == 30 + 1000 * 240, row
        seconds = {
            n: median_seconds(lambda t=t: model.evaluate(t, metrics=["execution-time"]))
            for n, t in texts.items()
        }
        for n, s in seconds.items():
            print(f"chain of {n:>4} grills: {s * 1e3:8.2f} ms (median of {REPEATS})")
        per_call = (seconds[1000] - seconds[0]) / 1000
        print(f"per Python grill call: {per_call * 1e6:.1f} µs")
        call = calls[0]
        request = json.dumps(
            {
                "primitive": call.primitive,
                "inputs": call.inputs,
                "ready": call.ready,
                "outputs": call.outputs,
                "kitchen_time": call.kitchen_time,
                "kitchen": None,
            }
        )
        n = 20000
        alone = timeit.timeit(lambda: grill(cookingbot.PrimitiveCall._of(json.loads(request))), number=n) / n
        answer = grill(cookingbot.PrimitiveCall._of(json.loads(request)))
        dumps = timeit.timeit(lambda: json.dumps(answer), number=n) / n
        print(f"  the function with json.loads of its request: {alone * 1e6:.1f} µs")
        print(f"  json.dumps of its answer: {dumps * 1e6:.1f} µs")
        print(f"  request {len(request)} bytes, answer {len(json.dumps(answer))} bytes")


if __name__ == "__main__":
    main()
