"""`cookingbot.ray` on a local Ray cluster of 2 CPUs: scoring a Dataset gives the command line's
rows and CSV, with any number of actors, in any order, and when an actor dies mid-run; episodes
of the kitchen session in an actor pool end with the evaluation's scores, a raising policy
ending its own episode only. Skipped when Ray is not installed (`pip install "cookingbot[ray]"`);
the networks are the gold ones and 300 made from them here, so the run stays bounded."""

import csv
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason='Ray is not installed (pip install "cookingbot[ray]")')

ALL = ["smatch-score", "goal-condition-success", "dish-approximation-score", "execution-time"]
VARIANTS = 10  # per gold network: 300 networks


def _variant(gold: str, seed: int) -> str:
    """A gold network with a mistake of the kinds the differential campaign makes (an action
    dropped, two swapped, a quantity changed, an action repeated, a variable renamed, a
    primitive misspelt, the network cut short, a parenthesis lost), drawn from `seed`."""
    rng = random.Random(seed)
    lines = gold.rstrip("\n").split("\n")
    head, body = lines[:1], [line for line in lines[1:] if line.strip()]
    i = rng.randrange(1, len(body))
    kind = seed % 8
    if kind == 0:
        del body[i]
    elif kind == 1:
        body[i - 1], body[i] = body[i], body[i - 1]
    elif kind == 2:
        words = body[i].split(" ")
        numbers = [k for k, w in enumerate(words) if w.rstrip(")").isdigit()]
        if numbers:
            k = rng.choice(numbers)
            words[k] = words[k].replace(words[k].rstrip(")"), str(rng.randint(1, 900)))
        body[i] = " ".join(words)
    elif kind == 3:
        body.insert(i, body[i])
    elif kind == 4:
        body[i] = body[i].replace(" ?", " ?renamed-", 1)
    elif kind == 5:
        body[i] = body[i].replace("(", "(misspelt-", 1)
    elif kind == 6:
        body = body[: max(1, i // 2)]
    else:
        body[i] = body[i].rstrip(")")
    return "\n".join(head + body) + "\n"


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    # The test's own classes (a Scorer that dies, a policy that raises) go to the workers by
    # value: the workers cannot import this test module.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def networks(benchmark, tmp_path_factory):
    """The 30 gold files and 300 variants of them, in one folder, sorted as the command line
    walks it."""
    folder = tmp_path_factory.mktemp("networks")
    gold = sorted((benchmark / "data" / "gold-standard-solutions" / "meaning-only").glob("*.solution"))
    for g in gold:
        text = g.read_text()
        (folder / g.name).write_text(text)
        for n in range(VARIANTS):
            (folder / f"{g.stem}--{n}.solution").write_text(_variant(text, hash_seed(g.stem, n)))
    return folder


def hash_seed(stem: str, n: int) -> int:
    return sum(stem.encode()) * 100 + n


@pytest.fixture(scope="module")
def command_line(command, benchmark, networks, tmp_path_factory):
    """What the command line writes for the folder: its CSV and its JSON report's files."""
    out = tmp_path_factory.mktemp("cli")
    common = [command, "--input", str(networks), "--metrics", *ALL, "--benchmark", str(benchmark), "--offline"]
    for output in (["-o", str(out / "r.csv")], ["--format", "json", "-o", str(out / "r.json")]):
        # Exit 1: some of the variants are refused.
        run = subprocess.run([*common, *output], capture_output=True, text=True)
        assert run.returncode == 1 and "files refused" in run.stdout, run.stderr
    files = json.loads((out / "r.json").read_text())["files"]
    return (out / "r.csv").read_text(), files


def _rows(networks: Path, texts: bool) -> list[dict]:
    """A row per file: every other one given as its path alone, the others with their text."""
    rows = []
    for k, f in enumerate(sorted(networks.glob("*.solution"))):
        row = {"path": str(f), "network": f.read_text() if texts and k % 2 else None}
        rows.append(row)
    return rows


def _by_file(scored) -> dict:
    found: dict = {}
    for row in scored:
        found.setdefault(row["file"], []).append(row)
    return {f: sorted(rows, key=lambda r: r["unit"]) for f, rows in found.items()}


def _assert_the_command_line_s(scored, command_line, benchmark):
    import cookingbot.ray

    text, files = command_line
    names = [f["file"] for f in files]
    assert cookingbot.ray.to_csv(scored, files=names) == text
    found = _by_file(scored)
    assert sorted(found) == sorted(names)
    printed = {}
    for r in list(csv.reader(io.StringIO(text)))[1:-1]:
        printed.setdefault(r[0], []).append(r[2:])
    refused = 0
    for f in files:
        rows = found[f["file"]]
        if f["refusal"] is not None:
            refused += 1
            assert [r["refusal"] for r in rows] == [f["refusal"]["message"]]
            assert rows[0]["recipe_id"] is None and rows[0]["goal_condition_success_printed"] is None
            continue
        assert [r["refusal"] for r in rows] == [None] * len(f["recipes"])
        assert [r["recipe_id"] for r in rows] == [r["recipe_id"] for r in f["recipes"]]
        cells = [[r[f"{m.replace('-', '_')}_printed"] for m in ALL] for r in rows]
        assert cells == printed[f["file"]]
        for row, report in zip(rows, f["recipes"]):
            gcs = report["goal_condition_success"]
            assert row["goal_condition_success"] == (gcs["value"] if gcs else None)
            assert row["dish_approximation_score"] == report["dish_approximation_score"]
            assert row["smatch_score"] == report["smatch"]["f_score"]
    # The variants are not all refused nor all scored: both paths are compared.
    assert 20 < refused < 200, refused


@pytest.mark.parametrize("actors", [1, 2])
def test_score_gives_the_command_line_s_rows_and_csv(cluster, networks, command_line, benchmark, actors):
    import cookingbot.ray

    rows = _rows(networks, texts=True)
    if actors == 2:
        random.Random(7).shuffle(rows)
    ds = ray.data.from_items(rows)
    scored = cookingbot.ray.score(ds, benchmark=benchmark, concurrency=actors, batch_size=40).take_all()
    _assert_the_command_line_s(scored, command_line, benchmark)


def test_a_network_without_header_is_scored_as_its_row_s_recipe(cluster, benchmark):
    import cookingbot
    import cookingbot.ray

    gold = cookingbot.Benchmark(path=benchmark)["afghan-biscuits"].gold
    bare = "\n".join(line for line in gold.splitlines() if not line.startswith("#"))
    ds = ray.data.from_items([{"network": bare, "recipe": "afghan-biscuits", "k": 3}])
    (row,) = cookingbot.ray.score(ds, benchmark=benchmark, metrics=["goal-condition-success"]).take_all()
    assert (row["k"], row["recipe_id"], row["goal_condition_success_printed"]) == (3, "afghan-biscuits", "1.00")
    assert row["goal_condition_success"] == 1.0 and row["refusal"] is None
    with pytest.raises(ValueError, match="a row without `path`: the CSV names each row's file by its path"):
        cookingbot.ray.to_csv([row])


class Dying:
    """Mixed into the Scorer: the actor's process exits the first time it is given the marked
    file (the marker file records that it did), as a killed worker would."""

    marker = ""
    marked = ""

    def __call__(self, batch):
        paths = batch.column("path").to_pylist()
        if self.marked in paths:
            _die_once(self.marker)
        return super().__call__(batch)


def _die_once(marker: str) -> None:
    """End this process at once, as a killed worker ends, unless `marker` says it was done
    already (the first call makes the file)."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(1)


def test_an_actor_killed_mid_run_loses_no_row(cluster, networks, command_line, benchmark, tmp_path):
    import cookingbot.ray

    rows = _rows(networks, texts=False)
    marked = rows[len(rows) // 2]["path"]
    marker = tmp_path / "died"
    scorer = type("DyingScorer", (Dying, cookingbot.ray.Scorer), {"marker": str(marker), "marked": marked})
    ds = ray.data.from_items(rows)
    scored = cookingbot.ray.score(ds, benchmark=benchmark, concurrency=2, batch_size=30, scorer=scorer).take_all()
    assert marker.exists()  # the actor did die
    _assert_the_command_line_s(scored, command_line, benchmark)


def _gold_scripts(benchmark) -> dict:
    import cookingbot

    return {r.id: r.gold for r in cookingbot.Benchmark(path=benchmark)}


def test_rollouts_of_the_gold_scripts_end_with_the_evaluation_s_scores(cluster, benchmark):
    import cookingbot
    import cookingbot.ray

    scripts = _gold_scripts(benchmark)
    recipes = sorted(scripts)
    episodes = cookingbot.ray.rollouts(scripts, recipes, benchmark=benchmark, progress=False)
    assert [e["recipe"] for e in episodes] == recipes
    for e in episodes:
        lines = [line for line in scripts[e["recipe"]].splitlines() if line.startswith("(")]
        # The gold network filed under the episode's recipe, scored by the evaluation.
        gold = "\n".join([f"#{e['recipe']}", *lines]) + "\n"
        (expected,) = cookingbot.evaluate(gold, metrics=ALL, benchmark=benchmark)
        score = e["score"]
        assert e["error"] is None and score["refused"] is None
        assert score["goal_condition_success"] == expected.goal_condition_success
        assert score["dish_approximation_score"] == expected.dish_approximation_score
        assert score["smatch_score"] == expected.smatch_score == 1.0
        assert score["execution_time"] == expected.execution_time
        assert [s["action"] for s in e["steps"]] == lines
        assert all(s["outcome"] in ("ran", "failed", "waiting", "runs-with-first") for s in e["steps"])


class Replay:
    """A policy replaying the gold networks, that raises at its third line of `broken`."""

    def __init__(self, scripts, broken):
        self.scripts, self.broken = scripts, broken
        self.lines, self.recipe, self.step = iter(()), None, 0

    def __call__(self, seen):
        if seen.outcome == "opening":
            self.recipe = seen.report["recipe"]
            self.lines = iter(l for l in self.scripts[self.recipe].splitlines() if l.startswith("("))
            self.step = 0
        self.step += 1
        if self.recipe == self.broken and self.step == 3:
            self.fail()
        return next(self.lines, None)

    def fail(self):
        raise RuntimeError("the policy broke")


def test_a_raising_policy_ends_its_own_episode_only(cluster, benchmark):
    import cookingbot.ray

    scripts = _gold_scripts(benchmark)
    recipes = ["afghan-biscuits", "almond-crescent-cookies-2", "cole-slaw"]
    episodes = cookingbot.ray.rollouts(Replay(scripts, "almond-crescent-cookies-2"), recipes, benchmark=benchmark)
    by = {e["recipe"]: e for e in episodes}
    broken = by["almond-crescent-cookies-2"]
    assert broken["error"] == "RuntimeError: the policy broke"
    assert len(broken["steps"]) == 2 and broken["score"]["goal_condition_success"] < 1.0
    for recipe in ("afghan-biscuits", "cole-slaw"):
        e = by[recipe]
        assert e["error"] is None and e["score"]["goal_condition_success"] == 1.0
        assert e["steps"][-1]["progress"]["goals_reached"] == e["steps"][-1]["progress"]["goals"]
        assert {"action", "observation", "outcome", "time", "progress"} <= set(e["steps"][0])


class DyingReplay(Replay):
    """A policy replaying the gold networks whose actor's process exits at the third line of
    `broken` the first time (the marker file records that it did), as a killed worker would."""

    def __init__(self, scripts, broken, marker):
        super().__init__(scripts, broken)
        self.marker = marker

    def fail(self):
        _die_once(self.marker)


def test_a_rollout_actor_killed_mid_episode_loses_no_episode(cluster, benchmark, tmp_path):
    """The actor dies two lines into an episode: Ray restarts it and runs the episode again
    from its start, so every episode comes back, each as an undisturbed run gives it."""
    import cookingbot.ray

    scripts = _gold_scripts(benchmark)
    recipes = ["afghan-biscuits", "almond-crescent-cookies-2", "cole-slaw"]
    marker = tmp_path / "died"
    killed = cookingbot.ray.rollouts(
        DyingReplay(scripts, "almond-crescent-cookies-2", str(marker)), recipes, benchmark=benchmark
    )
    assert marker.exists()  # the actor did die
    undisturbed = cookingbot.ray.rollouts(scripts, recipes, benchmark=benchmark)
    assert killed == undisturbed
    assert [(e["recipe"], e["error"], e["score"]["goal_condition_success"]) for e in killed] == [
        (r, None, 1.0) for r in recipes
    ]


def test_ray_score_writes_the_command_line_s_csv(cluster, command, networks, command_line, benchmark, tmp_path):
    address = ray.get_runtime_context().gcs_address
    out = tmp_path / "ray.csv"
    run = subprocess.run(
        [command, "ray-score", "--address", address, "--input", str(networks), "-output", str(out),
         "--metrics", *ALL, "--benchmark", str(benchmark), "--concurrency", "2"],
        capture_output=True, text=True,
    )
    # Exit 1 and the summary, as the command line: some of the variants are refused.
    assert run.returncode == 1 and "files refused" in run.stdout, run.stderr
    assert out.read_text() == command_line[0]


def test_ray_score_writes_the_command_line_s_json(cluster, command, benchmark, tmp_path):
    """`--format json` is the evaluation's JSON report of the same files, byte for byte."""
    gold = benchmark / "data" / "gold-standard-solutions" / "meaning-only"
    address = ray.get_runtime_context().gcs_address
    common = ["--input", str(gold), "--benchmark", str(benchmark), "--format", "json", "--quiet"]
    cli = subprocess.run([command, *common, "-o", "-", "--offline"], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    run = subprocess.run(
        [command, "ray-score", "--address", address, *common, "-o", "-"],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == cli.stdout and json.loads(run.stdout)["files"][0]["refusal"] is None


def test_a_dataset_s_results_are_a_system_compare_reads(cluster, networks, benchmark, tmp_path):
    """`compare` reads a Dataset's results (the rows' values and refusals) and scores nothing
    again: its answer over them is its answer over the files themselves."""
    import cookingbot
    import cookingbot.ray

    gold = benchmark / "data" / "gold-standard-solutions" / "meaning-only"
    # A third of the networks, to keep the run short: the gold ones and two variants of each.
    folder = tmp_path / "networks"
    folder.mkdir()
    for f in sorted(networks.glob("*.solution")):
        if "--" not in f.stem or f.stem.endswith(("--0", "--1")):
            (folder / f.name).write_text(f.read_text())
    networks = folder
    ds = ray.data.from_items([{"path": str(f)} for f in sorted(networks.glob("*.solution"))])
    assert ds.count() == 90
    system = cookingbot.ray.write_system(cookingbot.ray.score(ds, benchmark=benchmark), tmp_path / "system.json")
    baseline = ray.data.from_items([{"path": str(f)} for f in sorted(gold.glob("*.solution"))])
    base = cookingbot.ray.write_system(cookingbot.ray.score(baseline, benchmark=benchmark), tmp_path / "gold.json")
    metrics = ["smatch-score", "goal-condition-success", "dish-approximation-score"]
    read = cookingbot.compare(base, system, metrics=metrics, seed=7, benchmark=benchmark)
    scored = cookingbot.compare(gold, networks, metrics=metrics, seed=7, benchmark=benchmark)
    named = json.dumps(read).replace(system, "SYSTEM").replace(base, "BASELINE")
    assert named == json.dumps(scored).replace(str(networks), "SYSTEM").replace(str(gold), "BASELINE")
    assert read["metrics"][1]["systems"][1]["mean"] < read["metrics"][1]["systems"][0]["mean"]
    with pytest.raises(ValueError, match="a system of results is a .json file"):
        cookingbot.ray.write_system(ds.limit(1), tmp_path / "system")


def test_compare_refuses_results_without_the_metric_it_compares(cluster, benchmark, tmp_path):
    import cookingbot
    import cookingbot.ray

    gold = benchmark / "data" / "gold-standard-solutions" / "meaning-only"
    ds = ray.data.from_items([{"path": str(f)} for f in sorted(gold.glob("*.solution"))[:3]])
    scored = cookingbot.ray.score(ds, benchmark=benchmark, metrics=["dish-approximation-score"])
    system = cookingbot.ray.write_system(scored, tmp_path / "dish.json")
    with pytest.raises(RuntimeError) as refused:
        cookingbot.compare(gold, system, benchmark=benchmark)
    assert str(refused.value) == (
        f"{system}: holds no goal-condition-success scores (its metrics: dish-approximation-score)"
    )


def test_ray_score_names_an_input_that_does_not_exist(command, tmp_path):
    missing = tmp_path / "missing"
    run = subprocess.run(
        [command, "ray-score", "--input", str(missing), "-output", str(tmp_path / "r.csv")],
        capture_output=True, text=True,
    )
    assert (run.returncode, run.stderr) == (2, f"error: {missing}: no such file or directory\n")
    assert not (tmp_path / "r.csv").exists()


def test_an_unreachable_address_fails_at_once_naming_it(command, networks, tmp_path):
    """Ray's driver retries an address nothing answers at for minutes; `ray-score` tries the
    port first (at most 5 s) and stops, exit 2, nothing written. The port is one bound here and
    not listened on, so connecting is refused."""
    import socket

    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{unused.getsockname()[1]}"
        out = tmp_path / "r.csv"
        for given, reason in [
            (address, f"no Ray cluster answers at {address} (Connection refused; waited at most 5 s): "
             "start one with `ray start --head`, or give its head's address"),
            ("head-without-port", "--address head-without-port is not HOST:PORT (the head's, as "
             "`ray start --head` prints it), auto or ray://HOST:PORT"),
        ]:
            run = subprocess.run(
                [command, "ray-score", "--address", given, "--input", str(networks), "-o", str(out)],
                capture_output=True, text=True,
                timeout=120,  # a guard: the old driver waited minutes here
            )
            assert (run.returncode, run.stderr) == (2, f"error: {reason}\n")
            assert not out.exists()


def test_ray_score_says_which_python_lacks_what(command, networks, tmp_path):
    """The command line runs Ray's driver in $COOKINGBOT_PYTHON: a Python that is not there,
    or one without cookingbot, is named with what to install (exit 2), before any scoring."""
    out = tmp_path / "r.csv"
    args = [command, "ray-score", "--input", str(networks), "-o", str(out)]
    missing = tmp_path / "no-python"
    run = subprocess.run(args, capture_output=True, text=True, env={**os.environ, "COOKINGBOT_PYTHON": str(missing)})
    assert run.returncode == 2
    assert run.stderr == (
        f"error: ray-score runs Ray's driver in Python, and `{missing}` could not be run (No such "
        "file or directory (os error 2)): install Python with `pip install \"cookingbot[ray]\"`, "
        "or set COOKINGBOT_PYTHON to the Python that has it\n"
    )
    # The interpreter this environment was made from, which has no cookingbot of its own.
    bare = getattr(sys, "_base_executable", None)
    check = subprocess.run([bare, "-c", "import cookingbot"], capture_output=True) if bare else None
    if check is None or check.returncode == 0:
        pytest.skip("no Python without cookingbot at hand")
    run = subprocess.run(args, capture_output=True, text=True, env={**os.environ, "COOKINGBOT_PYTHON": bare})
    assert run.returncode == 2
    assert run.stderr == (
        f"error: ray-score needs cookingbot and Ray in the Python at {bare} (No module named "
        "'cookingbot'): pip install \"cookingbot[ray]\" there, or set COOKINGBOT_PYTHON to a "
        "Python that has them\n"
    )
    assert not out.exists()
