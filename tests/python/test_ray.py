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
            try:
                fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.close(fd)
                os._exit(1)
        return super().__call__(batch)


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
            raise RuntimeError("the policy broke")
        return next(self.lines, None)


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


def test_ray_score_writes_the_command_line_s_csv(cluster, command, networks, command_line, benchmark, tmp_path):
    address = ray.get_runtime_context().gcs_address
    out = tmp_path / "ray.csv"
    run = subprocess.run(
        [command, "ray-score", "--address", address, "--input", str(networks), "-output", str(out),
         "--metrics", *ALL, "--benchmark", str(benchmark), "--concurrency", "2"],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert out.read_text() == command_line[0]


def test_a_dataset_s_results_are_a_system_for_compare(cluster, benchmark, tmp_path):
    import cookingbot
    import cookingbot.ray

    folder = benchmark / "data" / "gold-standard-solutions" / "meaning-only"
    ds = ray.data.from_items([{"network": g.read_text()} for g in sorted(folder.glob("*.solution"))])
    system = cookingbot.ray.write_system(cookingbot.ray.score(ds, benchmark=benchmark), tmp_path / "system")
    assert len(list(Path(system).glob("*.solution"))) == 30
    report = cookingbot.compare(folder, system, seed=7, benchmark=benchmark)
    for metric in report["metrics"]:
        baseline, same = metric["systems"]
        assert same["mean"] == baseline["mean"]
        assert (same["difference"], same["p_randomization"]) == (0.0, 1.0)


def test_ray_score_names_an_input_that_does_not_exist(command, tmp_path):
    missing = tmp_path / "missing"
    run = subprocess.run(
        [command, "ray-score", "--input", str(missing), "-output", str(tmp_path / "r.csv")],
        capture_output=True, text=True,
    )
    assert (run.returncode, run.stderr) == (2, f"error: {missing}: no such file or directory\n")
    assert not (tmp_path / "r.csv").exists()
