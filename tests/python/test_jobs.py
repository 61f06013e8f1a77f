"""The job table's contract: every job, asked the same request, answers the same through the
command line (`cookingbot-evaluator job NAME REQUEST`), the tool server (`cookingbot-evaluator
mcp`, through the `mcp` package's client) and the Python package (`cookingbot.job`): with the
built-in data, with `--kitchen`, on a user benchmark and with `--reference 2023`; a refusal
too, and the kitchen's case of issue 49 (a kitchen without butter: the tool server refuses
the gold network as the command line does)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

import cookingbot
from conftest import ROOT, benchmark_dir
from test_mcp import run as serve

FIXTURES = ROOT / "tests" / "fixtures" / "user-benchmark"

# The tool of each job, as the tool server lists it.
TOOLS = {
    "check": "check_network", "simulate": "simulate_network", "score": "score_network",
    "smatch": "smatch_networks", "diet": "check_diet", "guide": "cooking_guide",
    "substitute": "substitute_ingredient", "suggest": "suggest_substitutes",
    "scale": "scale_recipe", "translate": "translate_recipe",
    "evaluate": "evaluate_solutions", "compare": "compare_systems",
}


def requests(network: str, text: str, folder: Path) -> list[tuple[str, dict]]:
    """A request for every job of the table, on `network` and the recipe text `text`; the
    jobs on files read `network` written in `folder`, alone (a batch of one folder)."""
    folder.mkdir()
    solution = folder / "network.solution"
    solution.write_text(network)
    return [
        ("check", {"network": network}),
        ("simulate", {"network": network}),
        ("score", {"network": network}),
        ("smatch", {"test": network, "gold": network}),
        ("diet", {"network": network, "diet": "vegan"}),
        ("guide", {"network": network}),
        ("substitute", {"network": network, "replace": "butter", "with": "margarine"}),
        ("suggest", {"ingredient": "butter", "diet": "vegan"}),
        ("scale", {"network": network, "factor": "2"}),
        ("translate", {"text": text}),
        ("evaluate", {"inputs": [str(solution)], "metrics": ALL_METRICS, "bootstrap": 200}),
        ("compare", {"systems": [str(solution), str(folder)], "bootstrap": 200, "trials": 200}),
    ]


ALL_METRICS = [
    "smatch-score", "goal-condition-success", "dish-approximation-score", "execution-time",
]


def by_cli(command, options, name, request):
    done = subprocess.run(
        [command, *options, "job", name, json.dumps(request)],
        capture_output=True, text=True, env=offline_env(),
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode == 1, json.loads(done.stdout)


def by_tool_server(command, options, asked):
    """Every request through one tool server started with `options`."""
    async def body(session):
        answers = []
        for name, request in asked:
            result = await session.call_tool(TOOLS[name], request)
            answers.append((bool(result.is_error), result.structured_content))
        return answers

    return serve(command, body, options)


def by_python(config, name, request):
    try:
        return False, cookingbot.job(name, **config, **request)
    except cookingbot.NetworkError:
        # The refusal's JSON, as the native function gives it.
        refused, out = cookingbot._native.job(
            name, json.dumps(request), config.get("reference", "2024"),
            config.get("benchmark"), config.get("kitchen"),
        )
        assert refused
        return True, json.loads(out)


def offline_env():
    return {**os.environ, "COOKINGBOT_BENCHMARK": str(benchmark_dir()), "COOKINGBOT_OFFLINE": "1"}


def options_of(config: dict) -> list[str]:
    """The command line's data options of a Python configuration."""
    options = []
    if "reference" in config:
        options += ["--reference", config["reference"]]
    if "benchmark" in config:
        options += ["--benchmark", str(config["benchmark"])]
    if "kitchen" in config:
        options += ["--kitchen", str(config["kitchen"])]
    return options


def kitchen_file(folder: Path, name: str, change) -> Path:
    """The 2024 built-in kitchen with its fridge's bowls changed by `change`, as a file."""
    kitchen = json.loads((ROOT / "kitchens" / "full-kitchen-2024.json").read_text())
    fridge = next(p for p in kitchen["kitchen"]["contents"] if p["class"] == "fridge")
    fridge["contents"] = change(fridge["contents"])
    path = folder / name
    path.write_text(json.dumps(kitchen, indent=1))
    return path


def holds(bowl, ingredient):
    return any(item.get("class") == ingredient for item in bowl.get("contents", []))


def kitchen_with_more_butter(folder: Path) -> Path:
    return kitchen_file(
        folder, "more-butter.json", lambda bowls: bowls + [b for b in bowls if holds(b, "butter")]
    )


def kitchen_without_butter(folder: Path) -> Path:
    return kitchen_file(
        folder, "no-butter.json", lambda bowls: [b for b in bowls if not holds(b, "butter")]
    )


def user_benchmark(command, folder: Path) -> Path:
    bench = folder / "bench"
    made = subprocess.run([command, "new-benchmark", str(bench)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    added = subprocess.run(
        [command, "add-recipe", "--benchmark", str(bench),
         "--text", str(FIXTURES / "tomato-basil-salad.txt"),
         "--gold", str(FIXTURES / "tomato-basil-salad.solution")],
        capture_output=True, text=True, env=offline_env(),
    )
    assert added.returncode == 0, added.stderr
    return bench


def official(profile_dir: Path, recipe: str) -> tuple[str, str]:
    data = profile_dir / "data"
    network = (data / "gold-standard-solutions" / "meaning-only" / f"{recipe}.solution").read_text()
    return network, (data / "recipe-texts" / f"{recipe}.xml").read_text()


CONFIGS = ["builtin", "kitchen", "no-butter", "user-benchmark", "reference-2023"]


@pytest.fixture(scope="module")
def cases(tmp_path_factory, command):
    """Per configuration: the Python keywords and the requests. The Python package reads the
    data where the command line and the tool server are told to."""
    os.environ.update(offline_env())
    folder = tmp_path_factory.mktemp("jobs")
    gold = official(benchmark_dir(), "afghan-biscuits")
    return {
        "builtin": ({}, requests(*gold, folder / "builtin")),
        "kitchen": (
            {"kitchen": str(kitchen_with_more_butter(folder))},
            requests(*gold, folder / "kitchen"),
        ),
        "no-butter": (
            {"kitchen": str(kitchen_without_butter(folder))},
            requests(*gold, folder / "no-butter"),
        ),
        "user-benchmark": (
            {"benchmark": str(user_benchmark(command, folder))},
            requests(
                (FIXTURES / "tomato-basil-salad.solution").read_text(),
                (FIXTURES / "tomato-basil-salad.txt").read_text(),
                folder / "user",
            ),
        ),
        "reference-2023": (
            {"reference": "2023", "benchmark": str(benchmark_dir().parent / "benchmark-2023")},
            requests(
                *official(benchmark_dir().parent / "benchmark-2023", "afghan-biscuits"),
                folder / "2023",
            ),
        ),
    }


@pytest.mark.parametrize("config", CONFIGS)
def test_every_job_answers_the_same_through_every_front_end(command, cases, config):
    python_config, asked = cases[config]
    options = options_of(python_config)
    served = by_tool_server(command, options, asked)
    assert len(served) == len(asked) == len(TOOLS)
    answered = 0
    for (name, request), tool in zip(asked, served):
        cli = by_cli(command, options, name, request)
        python = by_python(python_config, name, request)
        assert cli == python, (config, name)
        assert tool == cli, (config, name)
        answered += not cli[0]
    # Most jobs answer: a table of refusals would prove little. Without butter, afghan
    # biscuits cannot be made: the jobs that run the network refuse it alike.
    assert answered >= (4 if config == "no-butter" else 8), (config, answered)


def test_the_kitchen_without_butter_is_refused_alike_by_the_command_line_and_the_tool_server(
    command, cases
):
    python_config, asked = cases["no-butter"]
    score = next(request for name, request in asked if name == "score")
    refused, out = by_cli(command, options_of(python_config), "score", score)
    assert refused
    assert out["error"].startswith("the gold network of afghan-biscuits fails to run"), out
    (served,) = by_tool_server(command, options_of(python_config), [("score", score)])
    assert served == (True, out)


def test_a_refusal_is_the_same_everywhere(command):
    request = {"network": "#afghan-biscuits\n(get-kitchen ?k)\n(frobnicate ?x ?k)\n"}
    cli = by_cli(command, [], "simulate", request)
    assert cli == by_python({}, "simulate", request)
    (served,) = by_tool_server(command, [], [("simulate", request)])
    assert served == cli
    refused, out = cli
    assert refused
    assert out["error"] == "the network has errors; nothing ran"
    (only,) = out["diagnostics"]
    assert (only["code"], only["line"], only["column"]) == ("E0103", 3, 2)
    assert only["message"] == "unknown primitive `frobnicate`"


def test_the_evaluate_and_compare_jobs_answer_what_the_commands_write(command, cases):
    _, asked = cases["builtin"]
    jobs = dict(asked)
    evaluate, compare = jobs["evaluate"], jobs["compare"]
    written = subprocess.run(
        [command, "--input", *evaluate["inputs"], "--output", "-",
         "--format", "json", "--metrics", *ALL_METRICS, "--ci", "--bootstrap", "200"],
        capture_output=True, text=True, env=offline_env(),
    )
    assert written.returncode == 0, written.stderr
    answer = cookingbot.job("evaluate", **evaluate)
    assert json.loads(written.stdout) == answer
    (recipe,) = answer["recipes"]
    assert (recipe["recipe_id"], recipe["dish_approximation_score"]) == ("afghan-biscuits", 1.0)
    compared = subprocess.run(
        [command, "compare", *compare["systems"], "--format", "json",
         "--bootstrap", "200", "--trials", "200"],
        capture_output=True, text=True, env=offline_env(),
    )
    assert compared.returncode == 0, compared.stderr
    assert json.loads(compared.stdout) == cookingbot.job("compare", **compare)
