"""The LLM agent harness: agents on an OpenAI-compatible server (or the library's rule agents)
cook recipes in a :class:`cookingbot.Kitchen`, k episodes each; every episode's trajectory is
written as JSONL and the table (``table.csv``, ``table.md``) over the finished episodes.

    python -m cookingbot.agents --base-url http://127.0.0.1:8080/v1 --model M \\
        --agent react --split test -k 2 --out runs/react

A run that stops (the server unreachable, no answer in time, answers that are no chat
completion) keeps the episodes it finished and their table; the same command resumes it.
docs/baseline-agents.md has the first table and the commands that made it."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .. import Benchmark, Kitchen
from .._splits import SplitRecipe, heldout_folder, split, splits
from . import table as tables
from .client import ChatClient, ServerError
from .episodes import AGENTS, MODEL_AGENTS, RULE_AGENTS, Episode, Settings, Task, timed
from .prompts import example_recipes

__all__ = [
    "AGENTS",
    "ChatClient",
    "MODEL_AGENTS",
    "RULE_AGENTS",
    "Run",
    "ServerError",
    "Task",
    "run",
    "tasks",
]

#: The finished episodes' results, one JSON line each.
RESULTS = "episodes.jsonl"


@dataclass
class Run:
    """One run: `agent` (``one-shot``, ``react``, ``tools``, ``rules``, ``rules-repair``) on
    `tasks`, `k` samples each, into folder `out`."""

    agent: str
    model: str
    tasks: list[Task]
    k: int
    out: Path
    settings: Settings


def _data_folders(official: Optional[str], heldout: Optional[str]) -> dict[str, Optional[str]]:
    folder = heldout_folder(heldout)
    return {"official": official, "heldout": None if folder is None else str(folder)}


def tasks(
    recipes: Optional[list[str]] = None,
    split_name: Optional[str] = None,
    *,
    official: Optional[str] = None,
    heldout: Optional[str] = None,
    examples: int = 1,
) -> list[Task]:
    """The tasks of a split or of recipe ids (an id outside the splits is taken from the
    official data, or the folder `official` names), each with `examples` few-shot examples from
    the train split of its benchmark (its gold networks read from the data now)."""
    folders = _data_folders(official, heldout)
    known = {r.id: r for rs in splits().values() for r in rs}
    chosen: list[SplitRecipe] = (
        split(split_name)
        if split_name
        else [known.get(i) or SplitRecipe(i, "official", "other", "") for i in recipes or []]
    )
    if any(r.benchmark == "heldout" for r in chosen) and folders["heldout"] is None:
        raise ValueError(
            "the held-out recipes need benchmarks/heldout: run from the repository's root or "
            "pass --heldout DIR"
        )
    train = splits()["train"]
    out = []
    for r in chosen:
        data = folders[r.benchmark]
        shown = [t for t in train if t.benchmark == r.benchmark and t.id != r.id]
        out.append(Task(r.id, r.benchmark, data, r.kind,
                        _examples(example_recipes(shown, r.kind, examples), data)))
    return out


def _examples(recipes: list[SplitRecipe], data: Optional[str]) -> list[tuple[str, str]]:
    """Each example's recipe text as a session opens it, and its gold network."""
    if not recipes:
        return []
    gold = Benchmark("2024", data)
    return [
        (Kitchen(r.id, benchmark=data).opening.recipe_text or r.id, gold[r.id].gold)
        for r in recipes
    ]


def _write(path: Path, text: str) -> None:
    """Write a file whole or not at all (a temporary file renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def finished(out: Path, agent: str, model: str) -> list[dict]:
    """The results already in `out`; a folder holding another agent's or model's episodes
    raises ValueError."""
    path = out / RESULTS
    if not path.is_file():
        return []
    results = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for r in results:
        if (r["agent"], r["model"]) != (agent, model):
            raise ValueError(
                f"{out} holds episodes of agent {r['agent']} with model {r['model']!r}: "
                "use another --out"
            )
    return results


def _result(run: Run, task: Task, sample: int, episode: Episode, wall: float) -> dict:
    scores = episode.score.scores if episode.score else None

    def value(name: str) -> Optional[float]:
        return getattr(scores, name) if scores else None

    return {
        "agent": run.agent,
        "model": run.model,
        "benchmark": task.benchmark,
        "recipe": task.recipe,
        "sample": sample,
        "dish-approximation-score": value("dish_approximation_score"),
        "goal-condition-success": value("goal_condition_success"),
        "smatch-score": value("smatch_score"),
        "refused": episode.score.refused if episode.score else None,
        "steps": episode.steps,
        "tokens": episode.tokens,
        "wall": round(wall, 3),
        "trajectory": f"trajectories/{task.benchmark}/{task.recipe}/{sample}.jsonl",
    }


def write_table(out: Path, results: list[dict], k: int, title: str) -> None:
    rows, overall = tables.rows(results, k)
    _write(out / "table.md", tables.markdown(rows, overall, k, title))
    _write(out / "table.csv", tables.csv_text(rows, overall))


def run(r: Run, say: Callable[[str], None] = print) -> list[dict]:
    """Run every episode not yet in `r.out`, writing each trajectory, its result and the table
    as it finishes; a :class:`ServerError` stops the run after writing the table of what
    finished, and is raised again."""
    results = finished(r.out, r.agent, r.model)
    done = {(x["benchmark"], x["recipe"], x["sample"]) for x in results}
    title = f"{r.agent} ({r.model})"
    try:
        for task in r.tasks:
            for sample in range(r.k):
                if (task.benchmark, task.recipe, sample) in done:
                    continue
                episode, wall = timed(r.agent, task, r.settings, sample)
                result = _result(r, task, sample, episode, wall)
                head = {"type": "episode", **{k: v for k, v in result.items() if k != "trajectory"}}
                lines = [head, *episode.records]
                _write(r.out / result["trajectory"], "".join(json.dumps(x) + "\n" for x in lines))
                with open(r.out / RESULTS, "a") as f:
                    f.write(json.dumps(result) + "\n")
                results.append(result)
                write_table(r.out, results, r.k, title)
                say(f"{task.recipe} #{sample}: dish {tables.cell(result['dish-approximation-score'])}, "
                    f"{episode.steps} steps, {wall:.1f} s")
    except ServerError:
        if results:
            write_table(r.out, results, r.k, title)
        raise
    return results
