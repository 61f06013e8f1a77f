"""The Python package against the command line and the reference: the issue's five checks."""

import json
import subprocess
import threading

import pytest

import cookingbot
from conftest import ROOT, reference_rows


def cli_json(command, tmp_path, solution, reference):
    out = tmp_path / "out.json"
    subprocess.run(
        [command, "--reference", reference, "-input", str(solution), "-output", str(out),
         "--format", "json"],
        check=True,
        capture_output=True,
    )
    return json.loads(out.read_text())["recipes"]


@pytest.mark.parametrize("reference", ["2024", "2023"])
def test_evaluate_equals_the_cli_on_every_documentation_example(command, tmp_path, reference):
    rows = reference_rows(reference, "doc-examples.tsv")
    files = sorted({r["solution"] for r in rows})
    assert len(files) >= 10
    for solution in files:
        if any(r["error"] for r in rows if r["solution"] == solution):
            with pytest.raises(cookingbot.NetworkError):
                cookingbot.evaluate(solution, reference=reference)
            continue
        scores = cookingbot.evaluate(solution, reference=reference)
        assert [s.report for s in scores] == cli_json(command, tmp_path, solution, reference)
        expected = [r for r in rows if r["solution"] == solution]
        assert [s.recipe_id for s in scores] == [r["recipe-id"] for r in expected]


def test_a_misspelt_metric_raises_with_the_closest_name():
    with pytest.raises(ValueError, match="did you mean `smatch-score`"):
        cookingbot.evaluate("#afghan-biscuits\n", metrics=["smatch-scor"])


def test_a_malformed_network_raises_with_line_and_column():
    text = "#afghan-biscuits\n(get-kitchen ?kitchen)\n(fetch ?x ?kitchen ((\n"
    with pytest.raises(cookingbot.NetworkError) as raised:
        cookingbot.evaluate(text)
    assert (raised.value.line, raised.value.column) == (3, 21)
    assert str(raised.value) == "line 3, column 21: this `(` is not closed on its line"
    assert [(d.line, d.column, d.code) for d in cookingbot.check(text)] == [(3, 21, "E0002")]


def test_check_keeps_the_first_hundred_diagnostics_and_counts_the_rest():
    dense = "(fetch ?b ?c ?ks0 " + " ".join(["zq"] * 1350) + ")\n"
    text = "#afghan-biscuits\n(get-kitchen ?ks0)\n" + dense * 10
    found = cookingbot.check(text)
    assert len(found) == 100 and found.omitted == 10 * 2700 - 100
    assert [(d.line, d.column, d.code) for d in found[:3]] == [
        (3, 19, "E0106"),
        (3, 22, "E0102"),
        (3, 22, "E0106"),
    ]
    assert cookingbot.check("#afghan-biscuits\n(get-kitchen ?ks0)\n").omitted == 0


def test_simulate_a_gold_network_gives_the_gold_execution_time(benchmark):
    gold = {r["recipe-id"]: r for r in reference_rows("2024", "gold.tsv")}
    recipe = cookingbot.Benchmark()["afghan-biscuits"]
    execution = cookingbot.simulate(recipe.gold)
    assert execution.solved
    assert str(execution.execution_time) == gold["afghan-biscuits"]["execution-time"]
    assert len(execution.actions) == len(recipe.gold.strip().splitlines()) - 1


def test_benchmark_has_the_30_recipes_with_their_texts():
    benchmark = cookingbot.Benchmark()
    assert len(benchmark) == 30
    assert all(r.text and "<" in r.text for r in benchmark)
    assert len(cookingbot.Benchmark(reference="2023")) == 30


def test_1000_evaluations_from_4_threads_equal_one_thread():
    rows = reference_rows("2024", "doc-examples.tsv")
    texts = [r["solution"].read_text() for r in rows if not r["error"]][:10]
    expected = [cookingbot.evaluate(t) for t in texts]
    results = {}

    def worker(k):
        results[k] = [cookingbot.evaluate(texts[i % len(texts)]) for i in range(250)]

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        assert results[k] == [expected[i % len(texts)] for i in range(250)]


def test_a_batch_equals_one_at_a_time():
    rows = reference_rows("2024", "gold.tsv")
    files = [r["solution"] for r in rows]
    batch = cookingbot.evaluate(files)
    assert batch == [s for f in files for s in cookingbot.evaluate(f)]


def test_the_installed_command_runs_the_readme_main_job(command, tmp_path):
    row = next(r for r in reference_rows("2024", "doc-examples.tsv") if not r["error"])
    out = tmp_path / "results.csv"
    done = subprocess.run(
        [command, "-input", str(row["solution"]), "-output", str(out)], capture_output=True
    )
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert lines[0].lower().startswith("recipe")
    assert row["goal-condition-success"] in lines[1] and row["execution-time"] in lines[1]


def test_smatch_of_a_network_with_itself_is_one():
    gold = cookingbot.Benchmark()["afghan-biscuits"].gold
    assert cookingbot.smatch(gold, gold).f_score == 1.0


def test_exact_smatch_proves_two_recipes_within_its_budget():
    benchmark = cookingbot.Benchmark()
    test, gold = benchmark["afghan-biscuits"].gold, benchmark["almond-crescent-cookies"].gold
    s = cookingbot.smatch(test, gold, exact=True, exact_budget=2000)
    assert s.proven and s.bound == s.optimum == s.matched_triples >= s.reference_climb
    with pytest.raises(ValueError, match="exact_budget"):
        cookingbot.smatch(test, gold, exact=True, exact_budget=0)


def test_translate_a_benchmark_recipe_text_into_a_network_that_checks():
    recipe = cookingbot.Benchmark()["afghan-biscuits"]
    translation = cookingbot.translate(recipe.text)
    assert translation.solution.startswith("#afghan-biscuits\n")
    assert [d for d in cookingbot.check(translation.solution) if d.severity == "error"] == []


def test_check_knows_the_recipes_of_the_benchmark_it_is_given():
    demo = (ROOT / "examples" / "demo-perfect.solution").read_text()
    official = [d for d in cookingbot.check(demo) if d.severity == "error"]
    assert [(d.code, d.line, d.column) for d in official] == [
        ("E0201", 1, 2),
        ("E0201", 22, 2),
        ("E0201", 41, 2),
    ]
    assert cookingbot.check(demo, benchmark="demo") == []
