"""cookingbot on a Ray cluster (``pip install "cookingbot[ray]"``, docs/scale.md): score a Ray
Dataset of networks where its rows are, and run episodes of the kitchen session in a pool of
actors.

    import ray, cookingbot.ray
    ds = ray.data.from_items([{"path": "out/1.solution"}, {"network": text, "recipe": "cole-slaw"}])
    scored = cookingbot.ray.score(ds)            # the rows plus each metric's value and cell
    cookingbot.ray.to_csv(scored, "results.csv")  # the command line's CSV of the same files
    episodes = cookingbot.ray.rollouts(policy, ["afghan-biscuits", "cole-slaw"])

Each actor loads one evaluator (the first batch it scores loads it, every later one reuses it)
and scores its batches with the command line's batch code, so a row's cells are the CSV's and
a refusal is the evaluation's. The data is located on each worker as the command line locates
it (``benchmark=``, else ``$COOKINGBOT_BENCHMARK`` on the worker, else the fetched data).

``cookingbot-evaluator ray-score --address ADDR --input DIR -output results.csv`` (the
command line, which runs :func:`main` in the Python of ``$COOKINGBOT_PYTHON``, else
``python3``; or ``python -m cookingbot.ray`` with the same options) writes what the command
line writes for the same files: the CSV with its signature, or ``--format json``.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import tempfile
from dataclasses import asdict
from pathlib import PurePath
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

import ray

from . import PathArg, _native, _path
from ._kitchen import ALL_METRICS, Kitchen, Observation

__all__ = ["Scorer", "score", "to_csv", "write_system", "rollouts", "main"]

#: What an actor asks of Ray by default: under one CPU, because Ray Data's actor pool waits for
#: ever on a 2-CPU node when each actor holds a whole CPU (none is left for the tasks that feed
#: it). An actor scores on every core of its node anyway (the evaluator's own threads).
DEFAULT_NUM_CPUS = 0.5

#: The metrics the command line scores when none are named.
COMMAND_LINE_METRICS = ALL_METRICS[1:]

#: The name of a row that gives a network text and no path.
NETWORK_ROW = "network"


def _column(metric: str) -> str:
    """A metric's column: ``goal-condition-success`` → ``goal_condition_success``."""
    return metric.replace("-", "_")


def _with_header(text: str, recipe: Optional[str]) -> str:
    """A network text as scored: a text that names no recipe (no ``#`` header line) is headed
    by the row's `recipe`, as a language model's bare network would be filed."""
    if recipe and not any(line.lstrip().startswith("#") for line in text.splitlines()):
        return f"#{recipe}\n{text}"
    return text


def _value(report: dict, metric: str) -> Optional[float]:
    """A metric's unrounded value in a recipe's JSON report (None where the CSV prints NIL)."""
    if metric == "smatch-score":
        return report["smatch"]["f_score"] if report.get("smatch") else None
    if metric == "goal-condition-success":
        gcs = report.get("goal_condition_success")
        return gcs["value"] if gcs else None
    value = report.get(_column(metric))
    return None if value is None else float(value)


class Scorer:
    """The callable class ``map_batches`` runs: one per actor, scoring batches of rows (``path``
    or ``network`` text, optional ``recipe``) into the same rows, one per recipe the file holds
    (a refused file: one row, with ``refusal``), plus ``recipe_id``, per metric its value
    (``goal_condition_success``) and its CSV cell (``goal_condition_success_printed``),
    ``refusal``, and what :func:`to_csv` writes the CSV from (``file``, ``unit``, ``outcome``,
    ``signature``). Usable in a pipeline of one's own: ``ds.map_batches(Scorer,
    fn_constructor_kwargs={...}, concurrency=2, num_cpus=0.5)``."""

    def __init__(
        self,
        metrics: Sequence[str] = ALL_METRICS,
        reference: str = "2024",
        benchmark: PathArg = None,
        kitchen: PathArg = None,
    ):
        self.metrics = list(metrics)
        self.data = (reference, _path(benchmark), _path(kitchen))

    def __call__(self, batch: "Any") -> "Any":
        import pyarrow as pa

        rows = batch.to_pylist()
        names = [row.get("path") or NETWORK_ROW for row in rows]
        texts = [
            None if row.get("network") is None else _with_header(row["network"], row.get("recipe"))
            for row in rows
        ]
        answer = json.loads(_native.score_batch(names, texts, self.metrics, *self.data))
        signature = json.dumps(answer["signature"], sort_keys=True)
        taken, added = [], []
        for index, scored in enumerate(answer["files"]):
            for unit, outcome in _file_rows(scored["results"]):
                taken.append(index)
                added.append(self._columns(scored["file"], unit, outcome, signature))
        table = batch.take(pa.array(taken, type=pa.int64()))
        for name, kind in self._schema():
            table = table.append_column(name, pa.array([a[name] for a in added], type=kind))
        return table

    def _schema(self) -> list[tuple[str, Any]]:
        import pyarrow as pa

        columns = [("recipe_id", pa.string())]
        for m in self.metrics:
            columns += [(_column(m), pa.float64()), (f"{_column(m)}_printed", pa.string())]
        columns += [("refusal", pa.string()), ("file", pa.string()), ("unit", pa.int64())]
        return columns + [("outcome", pa.string()), ("signature", pa.string())]

    def _columns(self, file: str, unit: int, outcome: dict, signature: str) -> dict:
        row: dict[str, Any] = {"file": file, "unit": unit, "signature": signature}
        row["outcome"] = json.dumps(outcome, sort_keys=True)
        scored = outcome.get("scored")
        row["recipe_id"] = scored["recipe"]["recipe_id"] if scored else None
        row["refusal"] = None if scored else outcome["refused"]["message"]
        for i, m in enumerate(self.metrics):
            row[_column(m)] = _value(scored["recipe"], m) if scored else None
            row[f"{_column(m)}_printed"] = scored["printed"][i] if scored else None
        return row


def _file_rows(results: list[dict]) -> list[tuple[int, dict]]:
    """A file's rows: each recipe's, in the reference's order, or the file's refusal alone (the
    evaluation refuses a whole file for its first refused recipe)."""
    results = sorted(results, key=lambda r: r["unit"])
    refused = [r for r in results if "refused" in r["outcome"]]
    if refused:
        return [(0, refused[0]["outcome"])]
    return [(r["unit"], r["outcome"]) for r in results]


def score(
    dataset: "ray.data.Dataset",
    *,
    metrics: Sequence[str] = ALL_METRICS,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
    num_cpus: float = DEFAULT_NUM_CPUS,
    concurrency: Union[int, tuple[int, int]] = 1,
    batch_size: int = 64,
    scorer: type = Scorer,
    **ray_remote_args: Any,
) -> "ray.data.Dataset":
    """The rows of `dataset` scored (lazily, as Ray Data runs): see :class:`Scorer` for the
    columns. `num_cpus` is what each actor asks for (below 1 by default, see
    :data:`DEFAULT_NUM_CPUS`), `concurrency` the number of actors (or a ``(min, max)`` pool),
    other keywords Ray's own (``memory``, ``resources``, ``max_restarts``, ...); an actor that
    dies is restarted and its batch scored again (Ray Data's default). `scorer` is a subclass of
    :class:`Scorer` to run in its place."""
    return dataset.map_batches(
        scorer,
        fn_constructor_kwargs={
            "metrics": list(metrics),
            "reference": reference,
            "benchmark": _path(benchmark),
            "kitchen": _path(kitchen),
        },
        batch_format="pyarrow",
        batch_size=batch_size,
        num_cpus=num_cpus,
        compute=_pool(concurrency),
        **ray_remote_args,
    )


def _pool(concurrency: Union[int, tuple[int, int]]) -> "ray.data.ActorPoolStrategy":
    """`concurrency` actors, or a pool of ``(min, max)`` of them, as Ray Data takes it."""
    if isinstance(concurrency, tuple):
        low, high = concurrency
        return ray.data.ActorPoolStrategy(min_size=low, max_size=high)
    return ray.data.ActorPoolStrategy(size=concurrency)


Rows = Union["ray.data.Dataset", Iterable[Mapping[str, Any]]]


def _rows(results: Rows) -> list[Mapping[str, Any]]:
    take_all = getattr(results, "take_all", None)
    return take_all() if take_all else list(results)


def to_csv(
    results: Rows,
    output: PathArg = None,
    *,
    files: Optional[Sequence[str]] = None,
    batch: bool = True,
) -> str:
    """The command line's CSV of scored rows (from :func:`score`), byte for byte, signature
    included: files in the order `files` gives (default: sorted by path, the order the
    command line walks a folder in), each file's recipes in the reference's order, no row for
    a refused file. Every row needs its ``path`` (a ``network`` row's name in the CSV).
    `batch=False` is the one-file CSV (no file column, no signature). Written
    to `output` whole (through a file beside it, renamed) when given. Rows scored with
    different data (signatures differ) raise ValueError."""
    csv = _native.batch_csv(json.dumps(_report(results, files, batch)))
    if output is not None:
        _write_whole(os.fspath(output), csv)
    return csv


def _report(results: Rows, files: Optional[Sequence[str]], batch: bool) -> dict:
    """The scored rows as the command line's report of one whole run (what ``--shard 1/1
    --format json`` writes and ``merge`` and ``compare`` read): files in the order `files`
    gives, else sorted by path."""
    per_file: dict[str, list[Mapping[str, Any]]] = {}
    signatures = set()
    for row in _rows(results):
        if row.get("path") is None:
            # Rows of one name are one file's recipes: a refused one would refuse the others.
            raise ValueError("a row without `path`: the CSV names each row's file by its path")
        per_file.setdefault(row["file"], []).append(row)
        signatures.add(row["signature"])
    if len(signatures) > 1:
        raise ValueError(f"the rows were scored with different data: {sorted(signatures)}")
    if not signatures:
        raise ValueError("no scored rows to write")
    order = list(files) if files is not None else sorted(per_file, key=lambda n: PurePath(n).parts)
    missing = sorted(set(per_file) - set(order))
    if missing:
        raise ValueError(f"rows of files not listed: {missing[:5]}")
    return {
        "signature": json.loads(signatures.pop()),
        "shard": {"index": 1, "count": 1},
        "batch": batch,
        "files": [_shard_file(name, per_file.get(name, [])) for name in order],
    }


def _shard_file(name: str, rows: list[Mapping[str, Any]]) -> dict:
    """A file's rows as the command line's run holds the file: its units in order."""
    ordered = sorted(rows, key=lambda r: r["unit"])
    results = [{"unit": i, "outcome": json.loads(r["outcome"])} for i, r in enumerate(ordered)]
    return {"file": name, "units": len(results), "results": results}


def _write_whole(path: str, text: str) -> None:
    """`text` in `path`, whole or not at all: written beside it, then renamed over it."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, staged = tempfile.mkstemp(prefix=".cookingbot-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(staged, path)
    except BaseException:
        os.unlink(staged)
        raise


def write_system(results: Rows, output: PathArg, *, files: Optional[Sequence[str]] = None) -> str:
    """A Dataset's results as a system :func:`cookingbot.compare` (and ``cookingbot-evaluator
    compare``) takes: the scored rows written to `output`, a ``.json`` file, as the command
    line's report of one whole run (``--shard 1/1 --format json``; files ordered as
    :func:`to_csv` orders them). `compare` reads each row's values and refusal from it and
    scores nothing again; it refuses results scored with other data, or without a metric it
    compares. Every row needs its ``path``, as for :func:`to_csv`. Written whole; returns
    `output`."""
    output = os.fspath(output)
    if not output.lower().endswith(".json"):
        raise ValueError(f"{output}: a system of results is a .json file (compare takes a .json system as results)")
    _write_whole(output, json.dumps(_report(results, files, True)) + "\n")
    return output


# --- Episodes of the kitchen session ---------------------------------------------------------

#: A policy: the observation in, the next line out (None ends the episode).
Policy = Callable[[Observation], Optional[str]]


def _record(line: str, seen: Observation, progress: Optional[dict]) -> dict:
    """One step of an episode's trajectory: the line, what the kitchen answered (its JSON), its
    outcome, the kitchen time after it and the progress then (the fields of the session's
    trajectory log)."""
    return {
        "action": line,
        "observation": seen.report,
        "outcome": seen.outcome,
        "time": seen.report.get("time"),
        "progress": progress,
    }


def _score_record(kitchen: Kitchen) -> dict:
    """An episode's score: the four metrics' values and CSV cells, or the refusal."""
    s = kitchen.finish()
    values = {_column(m): getattr(s, _column(m)) for m in ALL_METRICS}
    return {**values, "printed": s.printed, "refused": s.refused}


class Cook:
    """An actor that runs episodes: one recipe's kitchen session per call, lines from the
    actor's copy of the policy (or the recipe's script), then ``finish``."""

    def __init__(
        self,
        policy: Optional[Policy],
        reference: str,
        benchmark: PathArg,
        kitchen: PathArg,
        max_steps: int,
        progress: bool,
    ):
        self.policy = policy
        self.data = {"reference": reference, "benchmark": benchmark, "kitchen": kitchen}
        self.max_steps = max_steps
        self.progress = progress

    def episode(self, recipe: str, script: Optional[Sequence[str]] = None) -> dict:
        kitchen = Kitchen(recipe, **self.data)
        seen = kitchen.reset()
        lines = iter(script) if script is not None else None
        steps: list[dict] = []
        error = None
        while len(steps) < self.max_steps:
            try:
                if lines is not None:
                    line = next(lines, None)
                else:
                    line = self.policy(seen)  # type: ignore[misc]
            except Exception as e:  # the policy's failure ends its own episode only
                error = f"{type(e).__name__}: {e}"
                break
            if line is None:
                break
            seen = kitchen.step(line)
            progress = asdict(kitchen.progress()) if self.progress else None
            steps.append(_record(line, seen, progress))
        return {
            "recipe": recipe,
            "steps": steps,
            "score": _score_record(kitchen),
            "error": error,
            "network": kitchen.network(),
        }


def _script_lines(script: Union[str, Sequence[str]]) -> list[str]:
    """A script's action lines: a network text's lines (headers, blank lines and comments left
    out), or the lines given."""
    if isinstance(script, str):
        return [
            line
            for line in script.splitlines()
            if line.strip() and not line.lstrip().startswith(("#", ";"))
        ]
    return list(script)


def rollouts(
    policy_or_scripts: Union[Policy, Mapping[str, Union[str, Sequence[str]]]],
    recipes: Sequence[str],
    *,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
    max_steps: int = 500,
    progress: bool = True,
    num_cpus: float = DEFAULT_NUM_CPUS,
    concurrency: int = 2,
    max_restarts: int = 3,
    **ray_remote_args: Any,
) -> list[dict]:
    """One episode per recipe (a recipe may come several times), in the order given, run by a
    pool of `concurrency` actors. A policy is a callable (each actor holds its own copy),
    called with each observation (the opening first) for the next line, None to stop; or a
    mapping from recipe to a fixed script (a network text or its lines). An episode ends when
    the policy stops, the script ends, after `max_steps` lines, or when the policy raises (the
    error is recorded in ``error`` and the network so far is scored; the other episodes go on).
    Each episode is ``{"recipe", "steps", "score", "error", "network"}``, a step
    ``{"action", "observation", "outcome", "time", "progress"}``. An actor that dies is
    restarted and its episode run again, up to `max_restarts` times."""
    from ray.util import ActorPool

    scripts = None
    policy: Optional[Policy] = None
    if callable(policy_or_scripts):
        policy = policy_or_scripts
    else:
        scripts = {r: _script_lines(s) for r, s in policy_or_scripts.items()}
        unknown = [r for r in recipes if r not in scripts]
        if unknown:
            raise ValueError(f"no script for recipe(s) {unknown[:5]}")
    actor = ray.remote(Cook).options(
        num_cpus=num_cpus,
        max_restarts=max_restarts,
        max_task_retries=max_restarts,
        **ray_remote_args,
    )
    data = (reference, _path(benchmark), _path(kitchen), max_steps, progress)
    # Held here until every episode is back: an actor restarted after a failure builds its
    # copy of the policy again from this object (an argument Ray stored for the first
    # creation alone is gone by then).
    shared = ray.put(policy)
    cooks = [actor.remote(shared, *data) for _ in range(max(1, min(concurrency, len(recipes))))]
    pool = ActorPool(cooks)
    try:
        return list(
            pool.map(
                lambda cook, r: cook.episode.remote(r, None if scripts is None else scripts[r]),
                recipes,
            )
        )
    finally:
        for cook in cooks:
            ray.kill(cook)


# --- The command for those who do not write Python -------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``cookingbot-evaluator ray-score``: score `--input` files on a Ray cluster and write
    what the command line writes for the same files (its ``merge`` of the run's one report:
    the same output, summary, refusals and exit status)."""
    args = _arguments().parse_args(argv)
    metrics = [m for word in args.metrics or COMMAND_LINE_METRICS for m in word.split(",") if m]
    try:
        names, batch, warnings = _native.solution_files(args.input)
    except ValueError as e:  # an input that does not exist, a batch of no file
        print(f"error: {e}", file=sys.stderr)
        return 2
    sys.stderr.write(warnings)
    address = args.address or os.environ.get("RAY_ADDRESS")
    unreachable = _unreachable(address)
    if unreachable:
        print(f"error: {unreachable}", file=sys.stderr)
        return 2
    try:
        ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        # A head that answers and refuses us: most often a cluster of `ray start`, which asks
        # for its token.
        print(
            f"error: cannot join the Ray cluster at {address}: {e} (a cluster started with "
            "`ray start` asks for its token: RAY_AUTH_MODE=token, and the head's "
            "~/.ray/auth_token on this machine; docs/scale.md)",
            file=sys.stderr,
        )
        return 2
    try:
        rows = [{"path": name, "network": _readable(name)} for name in names]
        scored = score(
            ray.data.from_items(rows),
            metrics=metrics,
            reference=args.reference,
            benchmark=args.benchmark,
            kitchen=args.kitchen,
            num_cpus=args.num_cpus,
            concurrency=args.concurrency,
        )
        report = _report(scored, names, batch)
    finally:
        ray.shutdown()
    with tempfile.TemporaryDirectory(prefix="cookingbot-ray-") as folder:
        run = os.path.join(folder, "run.json")
        with open(run, "w", encoding="utf-8") as f:
            json.dump(report, f)
        merge = ["cookingbot-evaluator", "merge", run, "--output", args.output, "--format", args.format]
        merge += [word for t in args.fail_under for word in ("--fail-under", t)]
        return _native.main(merge + (["--quiet"] if args.quiet else []))


#: How long a cluster's address may take to answer before `ray-score` gives up: Ray's own
#: driver waits minutes for a head that does not answer, retrying.
ADDRESS_TIMEOUT = 5.0


def _unreachable(address: Optional[str]) -> Optional[str]:
    """Why nothing answers at a cluster's `address` (``HOST:PORT`` or ``ray://HOST:PORT``), or
    None when its port accepts a connection within :data:`ADDRESS_TIMEOUT` seconds, or when it
    names no port (none, ``auto``, ``local``: Ray itself says at once when there is none)."""
    if not address or address in ("auto", "local"):
        return None
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return f"--address {address} is not HOST:PORT (the head's, as `ray start --head` prints it), auto or ray://HOST:PORT"
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=ADDRESS_TIMEOUT).close()
    except OSError as e:
        reason = "no answer" if isinstance(e, socket.timeout) else (e.strerror or str(e))
        return (
            f"no Ray cluster answers at {address} ({reason}; waited at most {ADDRESS_TIMEOUT:g} s): "
            "start one with `ray start --head`, or give its head's address"
        )
    return None


def _readable(name: str) -> Optional[str]:
    """A file's text read on this machine (the cluster's workers need not see the file), or
    None for one the command line could not read: the worker reads it again and gives the same
    refusal, naming the file."""
    try:
        return _native.read_solution(name)
    except ValueError:
        return None


def _arguments() -> argparse.ArgumentParser:
    """The options `cookingbot-evaluator ray-score` hands on (it checks them first)."""
    p = argparse.ArgumentParser(
        prog="cookingbot-evaluator ray-score",
        description="Score .solution files on a Ray cluster and write what the command line "
        "writes for the same files (the CSV with its signature, or --format json, junit, markdown).",
    )
    p.add_argument(
        "--address", help="the Ray cluster (default: $RAY_ADDRESS, else a local one)"
    )
    p.add_argument(
        "--input", "-input", action="append", required=True,
        help="a .solution file or a directory (repeatable)",
    )
    p.add_argument(
        "--output", "-output", "-o", required=True,
        help="the file to write, or - for standard output",
    )
    p.add_argument(
        "--metrics", "-metrics", nargs="+", help="as the command line's (default: its three)"
    )
    p.add_argument("--format", choices=["csv", "json", "junit", "markdown"], default="csv")
    p.add_argument("--fail-under", action="append", default=[], metavar="METRIC=VALUE")
    p.add_argument("--quiet", "-q", action="store_true", help="no summary")
    p.add_argument("--reference", default="2024")
    p.add_argument("--benchmark", help="the benchmark data folder, as each worker sees it")
    p.add_argument("--kitchen", default=None)
    p.add_argument(
        "--num-cpus", type=float, default=DEFAULT_NUM_CPUS, help="CPUs each actor asks for"
    )
    p.add_argument("--concurrency", type=int, default=1, help="actors")
    return p


if __name__ == "__main__":
    sys.exit(main())
