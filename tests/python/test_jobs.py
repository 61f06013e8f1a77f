"""The job table's contract: every job, asked the same request, answers the same through the
command line (`cookingbot-evaluator job NAME REQUEST`), the tool server (`cookingbot-evaluator
mcp`, through the `mcp` package's client) and the Python package (`cookingbot.job`, and a
kitchen session's calls through `cookingbot.Kitchen.job` on a Kitchen given the same lines):
with the built-in data, with `--kitchen`, on a user benchmark and with `--reference 2023`; a
refusal too, and the kitchen's case of issue 49 (a kitchen without butter: the tool server
refuses the gold network as the command line does)."""

import json
import os
import re
import subprocess
from dataclasses import asdict
from pathlib import Path

import pytest

import cookingbot
from conftest import JOB_TOOLS as TOOLS, ROOT, WITHHELD_JOBS, benchmark_dir
from test_mcp import run as serve

FIXTURES = ROOT / "tests" / "fixtures" / "user-benchmark"

# The longest answer of a session tool, in characters of its JSON (src/mcp/session_tools.rs):
# the tool server cuts a longer one and says `truncated`, where the other front ends answer it
# whole.
MAX_ANSWER_CHARS = 6_000


def actions(network: str) -> list[str]:
    """The action lines of a network, in order."""
    lines = [line.strip() for line in network.splitlines()]
    return [line for line in lines if line.startswith("(")]


def requests(network: str, text: str, folder: Path, config: dict) -> list[tuple[str, dict]]:
    """A request for every job of the table, on `network` and the recipe text `text`; the
    jobs on files read `network` written in `folder`, alone (a batch of one folder); the
    session's calls name their session by the recipe and its first gold lines; the replay
    runs a log of a session of `config`'s data written there."""
    folder.mkdir()
    solution = folder / "network.solution"
    solution.write_text(network)
    recipe = network.lstrip().split()[0].lstrip("#")
    gold = actions(network)
    log = folder / "session.jsonl"
    kitchen = cookingbot.Kitchen(recipe, log=log, **config)
    for line in gold[:3]:
        kitchen.step(line)
    kitchen.finish()
    first = {"recipe": recipe, "lines": gold[:3]}
    return [
        ("check", {"network": network}),
        ("simulate", {"network": network}),
        ("score", {"network": network}),
        ("score_each", {"networks": [network, network.replace("(", "((", 1)],
                        "metrics": ALL_METRICS}),
        ("smatch", {"test": network, "gold": network}),
        ("diet", {"network": network, "diet": "vegan"}),
        ("guide", {"network": network}),
        ("substitute", {"network": network, "replace": "butter", "with": "margarine"}),
        ("suggest", {"ingredient": "butter", "diet": "vegan"}),
        ("scale", {"network": network, "factor": "2"}),
        ("translate", {"text": text}),
        ("evaluate", {"inputs": [str(solution)], "metrics": ALL_METRICS, "bootstrap": 200}),
        ("compare", {"systems": [str(solution), str(folder)], "bootstrap": 200, "trials": 200}),
        ("replay", {"log": str(log)}),
        ("splits", {"split": "dev"}),
        ("variation", {"recipe": recipe, "variation": 1}),
        ("language", {}),
        ("inventory", {}),
        ("kitchen_start", {"recipe": recipe}),
        ("kitchen_act", {"recipe": recipe, "lines": gold[:2], "line": gold[2]}),
        ("kitchen_admissible", {**first, "limit": 3}),
        ("kitchen_primitives", {**first, "primitive": "transfer-contents"}),
        ("kitchen_look", {**first, "name": variable_of(gold[0])}),
        ("kitchen_undo", first),
        ("kitchen_progress", first),
        ("kitchen_finish", first),
        ("kitchen_opening", first),
        ("kitchen_reset", first),
        ("kitchen_network", first),
        ("kitchen_gold", first),
        ("kitchen_fork", first),
        ("kitchen_hint", first),
    ]


def variable_of(line: str) -> str:
    """The first variable of an action line: its first output."""
    return next(word for word in line.strip("()").split() if word.startswith("?"))


# The field of an answer the tool server keeps whole (src/service/jobs/mod.rs, `whole`).
WHOLE = {"substitute": "network", "scale": "network", "translate": "solution", "variation": "gold"}


def shortened(value, whole=None):
    """An answer as the tool server shortens it (src/mcp/mod.rs, `shorten`): lists past 100
    entries cut with `<key>_omitted` beside them, texts past 1,000 characters cut with an
    ellipsis, at every depth, but for the field kept whole."""
    if isinstance(value, dict):
        out = {}
        for key, field in value.items():
            if key == whole:
                out[key] = field
                continue
            if isinstance(field, list) and len(field) > 100:
                out[f"{key}_omitted"] = len(field) - 100
                field = field[:100]
            out[key] = shortened(field)
        return out
    if isinstance(value, list):
        return [shortened(v) for v in value]
    if isinstance(value, str) and len(value) > 1_000:
        return value[:1_000] + "…"
    return value


def same_answer(tool, cli, config, name):
    """The tool server's answer is the command line's, shortened for an agent's context as the
    server shortens every answer; but that it cuts a session's answer past MAX_ANSWER_CHARS
    (saying `truncated`), which only a longer answer may be."""
    refused, out = tool
    if name.startswith("kitchen_") and out.get("truncated"):
        assert refused == cli[0], (config, name)
        assert len(json.dumps(cli[1], separators=(",", ":"), ensure_ascii=False)) > MAX_ANSWER_CHARS
        assert set(out) - {"truncated"} <= set(cli[1]), (config, name)
        return
    if name.startswith("kitchen_"):
        assert tool == cli, (config, name)
    else:
        assert tool == (cli[0], shortened(cli[1], WHOLE.get(name))), (config, name)


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


def by_kitchen(config, name, request):
    """A kitchen session's call asked of a Kitchen of `config`'s data given the request's
    `lines` (as `kitchen_act` gives them), the rest of the request naming no session."""
    kitchen = cookingbot.Kitchen(request["recipe"], **config)
    for line in request["lines"]:
        kitchen.act(line)
    asked = {k: v for k, v in request.items() if k not in ("recipe", "lines")}
    try:
        return False, kitchen.job(name, asked)
    except cookingbot.NetworkError:
        refused, out = kitchen._native.job(name, json.dumps(asked))
        assert refused
        return True, json.loads(out)


# The session calls a Kitchen answers (kitchen_start starts the tool server's sessions).
KITCHEN_CALLS = [
    name for name in [*TOOLS, *WITHHELD_JOBS]
    if name.startswith("kitchen_") and name != "kitchen_start"
]


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
    configs = {
        "builtin": ({}, gold),
        "kitchen": ({"kitchen": str(kitchen_with_more_butter(folder))}, gold),
        "no-butter": ({"kitchen": str(kitchen_without_butter(folder))}, gold),
        "user-benchmark": (
            {"benchmark": str(user_benchmark(command, folder))},
            (
                (FIXTURES / "tomato-basil-salad.solution").read_text(),
                (FIXTURES / "tomato-basil-salad.txt").read_text(),
            ),
        ),
        "reference-2023": (
            {"reference": "2023", "benchmark": str(benchmark_dir().parent / "benchmark-2023")},
            official(benchmark_dir().parent / "benchmark-2023", "afghan-biscuits"),
        ),
    }
    return {
        name: (config, requests(*texts, folder / name, config))
        for name, (config, texts) in configs.items()
    }


@pytest.mark.parametrize("config", CONFIGS)
def test_every_job_answers_the_same_through_every_front_end(command, cases, config):
    python_config, asked = cases[config]
    options = options_of(python_config)
    to_serve = [(name, request) for name, request in asked if name in TOOLS]
    served = dict(zip((name for name, _ in to_serve), by_tool_server(command, options, to_serve)))
    assert len(served) == len(TOOLS) == len(asked) - len(WITHHELD_JOBS)
    answered = 0
    for name, request in asked:
        cli = by_cli(command, options, name, request)
        python = by_python(python_config, name, request)
        assert cli == python, (config, name)
        if name in KITCHEN_CALLS:
            assert by_kitchen(python_config, name, request) == cli, (config, name)
        if name in served:
            same_answer(served[name], cli, config, name)
        answered += not cli[0]
    # Most jobs answer: a table of refusals would prove little. Without butter, afghan
    # biscuits cannot be made: the jobs that run the network refuse it alike.
    assert answered >= (4 if config == "no-butter" else 20), (config, answered)


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


def test_check_warns_alike_of_an_action_that_fails_in_the_kitchen(command, cases, tmp_path):
    """The check job runs the network in the kitchen as `check` does: without butter, a butter
    fetch is a warning (W0008) from every front end, `cookingbot.check` too. (The gold itself
    is refused by the simulator there, which `check` leaves to the commands that run it.)"""
    python_config, _ = cases["no-butter"]
    options = options_of(python_config)
    request = {"network": "#afghan-biscuits\n(get-kitchen ?kitchen)\n"
               "(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 100 g)\n"}
    solution = tmp_path / "afghan-biscuits.solution"
    solution.write_text(request["network"])
    written = subprocess.run(
        [command, *options, "check", "--format", "json", str(solution)],
        capture_output=True, text=True, env=offline_env(),
    )
    assert written.returncode == 0, written.stderr
    printed = json.loads(written.stdout)
    fails = [d for d in printed["diagnostics"] if d["code"] == "W0008"]
    assert fails, printed
    kitchen = python_config["kitchen"]
    assert {d["message"] for d in fails} == {f"the kitchen holds no butter: add it to {kitchen}"}
    assert by_cli(command, options, "check", request) == (False, printed)
    (served,) = by_tool_server(command, options, [("check", request)])
    assert served == (False, printed)
    found = cookingbot.check(request["network"], kitchen=kitchen)
    assert [(d.code, d.line, d.column, d.message) for d in found] == [
        (d["code"], d["line"], d["column"], d["message"]) for d in printed["diagnostics"]
    ]


def test_check_takes_the_known_recipes_the_command_line_takes(command, tmp_path):
    network = "#moon-soup\n(get-kitchen ?kitchen)\n"
    solution = tmp_path / "moon.solution"
    solution.write_text(network)
    for known, code in ([["moon-soup"], 0], [["sun-soup"], 1]):
        written = subprocess.run(
            [command, "check", "--format", "json", str(solution), "--known-recipes", *known],
            capture_output=True, text=True, env=offline_env(),
        )
        assert written.returncode == code, written.stderr
        printed = json.loads(written.stdout)
        request = {"network": network, "known_recipes": known}
        assert by_cli(command, [], "check", request) == (False, printed)
        assert by_python({}, "check", request) == (False, printed)
        (served,) = by_tool_server(command, [], [("check", request)])
        assert served == (False, printed)
        found = cookingbot.check(network, known_recipes=known)
        assert [d.code for d in found] == [d["code"] for d in printed["diagnostics"]]
    assert [d.code for d in cookingbot.check(network, known_recipes=["sun-soup"])] == ["E0201"]
    assert list(cookingbot.check(network, known_recipes=["moon-soup"])) == []


def test_a_translation_without_actions_is_refused_by_every_front_end(command, tmp_path):
    text = "Moon Soup\n\n2 cups moondust\n\nStir the moondust.\n"
    recipe = tmp_path / "moon.txt"
    recipe.write_text(text)
    written = subprocess.run(
        [command, "translate", str(recipe), "--format", "json"],
        capture_output=True, text=True, env=offline_env(),
    )
    assert (written.returncode, written.stdout) == (1, "")
    assert "the rules translator found no action in the recipe" in written.stderr
    request = {"text": text}
    refused = by_cli(command, [], "translate", request)
    assert refused == (True, {
        "error": "the rules translator found no action in the recipe",
        "notes": ["line 3: no kitchen ingredient matches `2 cups moondust`; left out"],
    })
    (served,) = by_tool_server(command, [], [("translate", request)])
    assert served == refused
    with pytest.raises(ValueError, match="the rules translator found no action in the recipe"):
        cookingbot.translate(text)


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


def test_a_session_s_calls_by_its_lines_answer_as_the_tool_server_s_session(command, cases):
    """The tool server's session (named by the id kitchen_start gave) answers each call as the
    session made from its recipe and lines does, which every front end answers alike."""
    _, asked = cases["builtin"]
    jobs = dict(asked)
    recipe, lines = jobs["kitchen_undo"]["recipe"], jobs["kitchen_undo"]["lines"]

    async def body(session):
        started = await session.call_tool("kitchen_start", {"recipe": recipe})
        sid = started.structured_content["session"]
        for line in lines:
            await session.call_tool("kitchen_act", {"session": sid, "line": line})
        answers = {}
        for name in ("kitchen_look", "kitchen_progress", "kitchen_admissible", "kitchen_undo",
                     "kitchen_finish"):
            request = {k: v for k, v in jobs[name].items() if k not in ("recipe", "lines")}
            result = await session.call_tool(name, {"session": sid, **request})
            answers[name] = result.structured_content
        return sid, answers

    sid, answers = serve(command, body)
    assert sid == "kitchen-1"
    for name, by_id in answers.items():
        _, by_lines = by_cli(command, [], name, jobs[name])
        if name == "kitchen_finish":
            # After the undo: the session holds two lines.
            _, by_lines = by_cli(command, [], name, {"recipe": recipe, "lines": lines[:2]})
            by_lines = {"session": sid, **by_lines}
            assert by_id["lines"] == 2
        same_answer((False, by_id), (False, by_lines), "builtin", name)


def test_evaluate_takes_the_paths_the_evaluate_job_takes(cases):
    _, asked = cases["builtin"]
    (solution,) = dict(asked)["evaluate"]["inputs"]
    folder = Path(solution).parent
    by_folder = cookingbot.evaluate(folder, metrics=ALL_METRICS)
    by_text = cookingbot.evaluate(Path(solution).read_text(), metrics=ALL_METRICS)
    by_file = cookingbot.evaluate([solution], metrics=ALL_METRICS)
    assert [s.report for s in by_folder] == [s.report for s in by_text] == [
        s.report for s in by_file
    ]
    assert by_folder[0].recipe_id == "afghan-biscuits"
    assert by_folder[0].report == cookingbot.job("evaluate", inputs=[str(folder)],
                                                 metrics=ALL_METRICS)["files"][0]["recipes"][0]


def test_a_kitchen_s_calls_are_the_jobs_the_tool_server_serves(cases):
    """A Kitchen's typed calls are the jobs' answers: its progress is kitchen_progress's, its
    undo kitchen_undo's `undone`, its act kitchen_act's; a refusal is the one-shot session's,
    and a Kitchen starts no session of a store, names none other, and asks no other job."""
    _, asked = cases["builtin"]
    jobs = dict(asked)
    first = jobs["kitchen_undo"]
    recipe, lines = first["recipe"], first["lines"]
    kitchen = cookingbot.Kitchen(recipe)
    acted = [kitchen.act(line) for line in lines]
    assert acted[-1] == cookingbot.job(
        "kitchen_act", recipe=recipe, lines=lines[:-1], line=lines[-1]
    )
    assert [a["line"] for a in acted] == [2, 3, 4]
    assert asdict(kitchen.progress()) == cookingbot.job("kitchen_progress", first)
    assert kitchen.undo() == cookingbot.job("kitchen_undo", first)["undone"] == lines[-1]
    missing = {"recipe": recipe, "lines": lines, "name": "?nothing-here"}
    with pytest.raises(cookingbot.NetworkError) as one_shot:
        cookingbot.job("kitchen_look", missing)
    kitchen.act(lines[-1])
    with pytest.raises(cookingbot.NetworkError) as by_kitchen_look:
        kitchen.job("kitchen_look", name="?nothing-here")
    assert str(by_kitchen_look.value) == str(one_shot.value)
    assert str(one_shot.value) == "no variable or place `?nothing-here` in the kitchen"
    # The typed calls are the jobs asked with `detail`: the trees, the lines whole, every
    # primitive in full, the file's CSV and evaluation.
    variable = variable_of(lines[0])
    for name, asked in (
        ("kitchen_look", {"name": variable}),
        ("kitchen_admissible", {"limit": 3}),
        ("kitchen_primitives", {}),
        ("kitchen_finish", {}),
    ):
        detailed = {**asked, "detail": True}
        assert kitchen.job(name, detailed) == cookingbot.job(name, first | detailed), name
    assert asdict(kitchen.look(variable)) == kitchen.job("kitchen_look", name=variable, detail=True)
    assert kitchen.job("kitchen_look", name=variable) == {"text": kitchen.look(variable).text}
    offered = kitchen.job("kitchen_admissible", limit=3, detail=True)["admissible"]
    assert [asdict(c) for c in kitchen.admissible(3)] == offered
    assert [c["line"] for c in kitchen.job("kitchen_admissible", limit=3)["admissible"]] == [
        c["line"] for c in offered
    ]
    full = kitchen.job("kitchen_primitives", detail=True)["primitives"]
    assert [p.form for p in kitchen.primitives()] == [p["form"] for p in full]
    assert kitchen.job("kitchen_primitives")["primitives"] == [
        f"{p['form']} ; {p['does']}" for p in full
    ]
    score, finished = kitchen.finish(), kitchen.job("kitchen_finish", detail=True)
    assert (score.csv, score.report, score.why_no_dish) == (
        finished["csv"], finished["unit"], finished.get("why_no_dish")
    )
    assert finished["score"] == cookingbot.job("score", network=kitchen.network())
    with pytest.raises(cookingbot.NetworkError, match="kitchen_start starts sessions of the tool server's store"):
        kitchen.job("kitchen_start", recipe=recipe)
    with pytest.raises(cookingbot.NetworkError, match="no session `kitchen-1` here"):
        kitchen.job("kitchen_look", session="kitchen-1", name="?nothing-here")
    with pytest.raises(ValueError, match="`score` is no call of a session"):
        kitchen.job("score", network="")
    # kitchen_finish scores the network and the Kitchen's session goes on.
    finished = kitchen.job("kitchen_finish")
    assert finished == cookingbot.job("kitchen_finish", first)
    assert finished["lines"] == 3 and kitchen.undo() == lines[-1]
    while kitchen.undo() is not None:
        pass
    assert kitchen.lines() == []


def test_a_session_request_s_own_benchmark_is_not_the_data_option(command):
    """A session's call takes `benchmark` (and `profile`) fields of its own: given in the
    request's dict, they are the request's, not `cookingbot.job`'s data option (the official
    benchmark here, which has no demo recipe)."""
    request = {"recipe": "demo-garden-salad", "lines": ["(get-kitchen ?kitchen)"], "benchmark": "demo"}
    answer = cookingbot.job("kitchen_progress", request)
    assert answer == by_cli(command, [], "kitchen_progress", request)[1]
    kitchen = cookingbot.Kitchen("demo-garden-salad", benchmark="demo")
    kitchen.act("(get-kitchen ?kitchen)")
    assert answer == asdict(kitchen.progress())
    # The keyword is the data option: the official benchmark has no such recipe.
    with pytest.raises(cookingbot.NetworkError, match="demo-garden-salad"):
        cookingbot.job("kitchen_progress", {k: v for k, v in request.items() if k != "benchmark"})
    # Keywords add to the dict.
    assert cookingbot.job("kitchen_progress", {"benchmark": "demo"}, recipe="demo-garden-salad",
                          lines=["(get-kitchen ?kitchen)"]) == answer


def test_a_kitchen_s_step_is_kitchen_act_asked_with_detail_everywhere(command, cases):
    """`Kitchen.step` is the job kitchen_act asked with `detail`: the observation whole (the
    objects' trees), and a line the session does not take an observation `rejected`, not a
    refusal; the tool server's session answers the same, and without `detail` it refuses."""
    _, asked = cases["builtin"]
    first = dict(asked)["kitchen_undo"]
    recipe, lines = first["recipe"], first["lines"]
    kitchen = cookingbot.Kitchen(recipe)
    for line in lines[:2]:
        kitchen.step(line)
    twin = kitchen.clone()
    seen = kitchen.step(lines[2])
    request = {"recipe": recipe, "lines": lines[:2], "line": lines[2], "detail": True}
    assert seen.report == cookingbot.job("kitchen_act", request)
    assert seen.report == twin.job("kitchen_act", line=lines[2], detail=True)
    assert by_cli(command, [], "kitchen_act", request) == (False, seen.report)
    assert seen.outcome == "ran" and seen.objects[0]["object"] is not None
    two = {"recipe": recipe, "lines": lines, "line": "(a)\n(b)", "detail": True}
    rejected = kitchen.step("(a)\n(b)")
    assert (rejected.outcome, rejected.ok, rejected.line) == ("rejected", False, 5)
    assert rejected.text == "the line was not taken: one line at a time: the text holds a line break"
    assert rejected.report == cookingbot.job("kitchen_act", two)
    with pytest.raises(cookingbot.NetworkError, match="one line at a time"):
        cookingbot.job("kitchen_act", {**two, "detail": False})

    async def body(session):
        started = await session.call_tool("kitchen_start", {"recipe": recipe})
        sid = started.structured_content["session"]
        for line in lines[:2]:
            await session.call_tool("kitchen_act", {"session": sid, "line": line})
        out = []
        for line in (lines[2], "(a)\n(b)"):
            result = await session.call_tool(
                "kitchen_act", {"session": sid, "line": line, "detail": True})
            out.append((bool(result.is_error), result.structured_content))
        return out

    ran, refused = serve(command, body)
    same_answer(ran, (False, seen.report), "builtin", "kitchen_act")
    assert refused == (False, cookingbot.job("kitchen_act", two))


def test_a_kitchen_s_other_calls_are_the_jobs_on_its_session(cases):
    """`lines`, `network`, `waiting`, `unbound`, `recipe`, `variation`, `variation_gold`,
    `opening`, `reset`, `hint` and `clone` of a Kitchen answer what the jobs kitchen_network,
    kitchen_gold, kitchen_opening, kitchen_reset, kitchen_hint and kitchen_fork answer for a
    session of the same lines."""
    _, asked = cases["builtin"]
    first = dict(asked)["kitchen_undo"]
    recipe, lines = first["recipe"], first["lines"]
    kitchen = cookingbot.Kitchen(recipe)
    for line in lines:
        kitchen.step(line)
    # The gold's fifth action, given before the fourth that binds its input, waits.
    later = actions(cookingbot.job("kitchen_gold", first)["gold"])[4]
    assert kitchen.step(later).outcome == "waiting"
    network = cookingbot.job("kitchen_network", first | {"lines": kitchen.lines()})
    assert network == kitchen.job("kitchen_network")
    assert (kitchen.lines(), kitchen.network(), kitchen.waiting(), kitchen.unbound()) == (
        network["lines"], network["network"], network["waiting"], network["unbound"]
    )
    assert (kitchen.recipe, kitchen.variation) == (recipe, 0) == (network["recipe"], network["variation"])
    assert network["lines"] == [*lines, later]
    assert network["waiting"] == [5]
    assert network["network"] == f"#{recipe}\n" + "".join(f"{line}\n" for line in network["lines"])
    gold = cookingbot.job("kitchen_gold", first)
    assert gold == kitchen.job("kitchen_gold") == {"variation": 0, "gold": kitchen.variation_gold()}
    assert actions(gold["gold"])[:3] == lines
    hint = cookingbot.job("kitchen_hint", first | {"lines": kitchen.lines()})
    assert asdict(kitchen.hint()) == hint["hint"] == kitchen.job("kitchen_hint")["hint"]
    assert hint["hint"]["action"] == 4
    opening = cookingbot.job("kitchen_opening", first)
    assert asdict(kitchen.opening) == opening == cookingbot.job("kitchen_reset", first)
    fork = kitchen.clone()
    assert kitchen.job("kitchen_fork") == {"lines": 4}
    fork.undo()
    assert (len(fork.lines()), len(kitchen.lines())) == (3, 4)
    assert kitchen.reset().report == opening
    assert kitchen.lines() == [] and fork.lines() == lines


def test_a_variation_s_opening_and_gold_are_its_own(command):
    """A Kitchen on a generated variation: its opening puts the task before the recipe text,
    and kitchen_gold is the variation job's gold."""
    kitchen = cookingbot.Kitchen("afghan-biscuits", variation=1)
    varied = cookingbot.job("variation", recipe="afghan-biscuits", variation=1)
    assert kitchen.variation == 1 == kitchen.job("kitchen_network")["variation"]
    assert kitchen.job("kitchen_gold") == {"variation": 1, "gold": varied["gold"]}
    opening = kitchen.job("kitchen_opening")
    official = cookingbot.job("kitchen_opening", recipe="afghan-biscuits")
    assert opening["recipe_text"] == f"{varied['task']}\n\n{official['recipe_text']}"
    assert kitchen.reset().report == opening == asdict(kitchen.opening)


def test_the_tool_server_forks_a_session_and_does_not_serve_the_hint(command, cases):
    _, asked = cases["builtin"]
    first = dict(asked)["kitchen_undo"]
    recipe, lines = first["recipe"], first["lines"]

    async def body(session):
        started = await session.call_tool("kitchen_start", {"recipe": recipe})
        sid = started.structured_content["session"]
        for line in lines:
            await session.call_tool("kitchen_act", {"session": sid, "line": line})
        fork = (await session.call_tool("kitchen_fork", {"session": sid})).structured_content
        await session.call_tool("kitchen_undo", {"session": fork["session"]})
        networks = []
        for at in (sid, fork["session"]):
            result = await session.call_tool("kitchen_network", {"session": at})
            networks.append(result.structured_content)
        try:
            await session.call_tool("kitchen_hint", {"session": sid})
            hint = "served"
        except Exception as error:  # the client raises the server's error
            hint = str(error)
        tools = {t.name for t in (await session.list_tools()).tools}
        return fork, networks, hint, tools

    fork, (original, forked), hint, tools = serve(command, body)
    assert fork == {"session": "kitchen-2", "lines": 3}
    assert original == cookingbot.job("kitchen_network", first)
    assert forked == cookingbot.job("kitchen_network", recipe=recipe, lines=lines[:2])
    assert hint == "tool not found" and "kitchen_hint" not in tools


@pytest.mark.parametrize("config", CONFIGS)
def test_a_model_s_jobs_are_the_table_s_in_its_data(cases, config):
    """A Model's `job` is the table's job in the model's workspace: with no primitive added,
    every job it is asked answers what `cookingbot.job` answers in the same data; its
    `simulate` and `evaluate` are the jobs simulate and score_each."""
    python_config, asked = cases[config]
    model = cookingbot.Model(**python_config)
    jobs = dict(asked)
    for name in ("simulate", "score_each", "score", "guide", "kitchen_progress", "language"):
        assert model._job(name, jobs[name]) == by_python(python_config, name, jobs[name]), (
            config, name)
    network = jobs["simulate"]["network"]
    refused, simulated = model._job("simulate", {"network": network})
    assert refused == (config == "no-butter")
    if refused:
        with pytest.raises(cookingbot.NetworkError, match=re.escape(simulated["error"])):
            model.simulate(network)
        return
    assert model.simulate(network).report == simulated["report"]
    (scored,) = model.job("score_each", networks=[network], metrics=None)["scores"]
    assert [s.report for s in model.evaluate(network)] == scored["recipes"]
    assert [s.report for s in model.evaluate(network)] == [
        s.report for s in cookingbot.evaluate(network, **python_config)
    ]
