"""Evaluate, check, simulate and score MUHAI Cooking Language networks in-process, with the
same code and the same values as the `cookingbot-evaluator` command line.

    import cookingbot
    scores = cookingbot.evaluate(["#almond-crescent-cookies\\n...", "out/2.solution"])
    print(scores[0].dish_approximation_score)

An agent writes a network one action at a time in a :class:`Kitchen` (``cookingbot.gym`` is the
same as a ``gymnasium`` environment), and a :class:`Model` adds primitives written in Python.
:func:`substitute` and :func:`scale` rewrite a network and compare it with the original.
:func:`diet` answers whether the simulated dish keeps a diet, :func:`guide` guides a cook through the
simulated schedule.

Texts and paths are accepted wherever a solution is: a `str` holding a newline or starting
with `#` is a text, another `str` or an `os.PathLike` is a file. A network the evaluator
refuses raises :class:`NetworkError`, whose message has the line and column. A network text
(or file) over 64 MiB of UTF-8, the command line's bound on solution files, raises
`ValueError` naming the bound before any work.

Every call releases the GIL and can be stopped with Ctrl-C (`KeyboardInterrupt`). Evaluators
are kept between calls, and loaded again when a file they were loaded from (the kitchen file,
a benchmark's ``benchmark.json``, ``ontology.json``, ``kitchen.json`` or a gold network)
changed: each call reads the data as it is then.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Sequence, Union

from . import _native

__all__ = [
    "Action",
    "Benchmark",
    "BenchmarkRecipe",
    "Diagnostic",
    "Diagnostics",
    "DietAction",
    "DietVerdict",
    "Execution",
    "Guide",
    "GuideStep",
    "IdleGap",
    "Kitchen",
    "Model",
    "NetworkError",
    "Observation",
    "Opening",
    "PrimitiveCall",
    "Progress",
    "RecipeScore",
    "Replay",
    "Scaling",
    "Score",
    "SplitRecipe",
    "SmatchScore",
    "Substitution",
    "Suggestions",
    "Timer",
    "Translation",
    "View",
    "Violation",
    "check",
    "compare",
    "diet",
    "evaluate",
    "guide",
    "job",
    "replay",
    "scale",
    "simulate",
    "smatch",
    "splits",
    "substitute",
    "suggest_substitutes",
    "translate",
]

Solution = Union[str, "os.PathLike[str]"]
PathArg = Optional[Union[str, "os.PathLike[str]"]]


@dataclass(frozen=True)
class Diagnostic:
    """A problem in a network text, where it is and how to fix it. `code` is the evaluator's
    (`E0104`); none for a note of the agent session (why an action waits) or an error a
    primitive signalled."""

    severity: str
    code: Optional[str]
    line: int
    column: int
    message: str
    hint: Optional[str] = None
    #: The reference's own words (its Lisp error) when `message` puts them in plain words.
    reference_message: Optional[str] = None
    #: The hint's did-you-mean names, best first: what to put in place of the name at
    #: `line`:`column` (empty when there is no such hint).
    suggestions: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.severity}: {self.message}"


class NetworkError(ValueError):
    """A network the evaluator refuses or cannot run. `diagnostics` are located problems;
    `line` and `column` are those of the first, when there is one."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = (), **where: Any):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        self.line: Optional[int] = first.line if first else where.get("line")
        self.column: Optional[int] = first.column if first else where.get("column")
        if self.line is not None and self.column is not None:
            message = f"line {self.line}, column {self.column}: {message}"
        super().__init__(message)


def _diagnostics(items: Sequence[dict]) -> list[Diagnostic]:
    return [Diagnostic(**{**d, "suggestions": tuple(d.get("suggestions", ()))}) for d in items]


def _refuse(out: dict, prefix: str = "") -> NetworkError:
    at = out.get("at") or {}
    return NetworkError(
        prefix + out["error"],
        _diagnostics(out.get("diagnostics", [])),
        line=at.get("line"),
        column=at.get("column"),
    )


@dataclass(frozen=True)
class RecipeScore:
    """One recipe's scores, exactly the values of the JSON report (`report` holds it whole);
    a metric is None where the reference prints NIL or it was not asked for."""

    recipe_id: str
    smatch_score: Optional[float]
    goal_condition_success: Optional[float]
    dish_approximation_score: Optional[float]
    execution_time: Optional[float]
    missed_goals: list[dict]
    dish: Optional[dict]
    report: dict = field(repr=False)

    @classmethod
    def _of(cls, r: dict) -> "RecipeScore":
        gcs = r["goal_condition_success"]
        return cls(
            recipe_id=r["recipe_id"],
            smatch_score=r["smatch"]["f_score"] if r["smatch"] else None,
            goal_condition_success=gcs["value"] if gcs else None,
            dish_approximation_score=r["dish_approximation_score"],
            execution_time=r["execution_time"],
            missed_goals=r["missed_goals"],
            dish=r["dish"],
            report=r,
        )


def _text(solution: Solution) -> str:
    """A solution's text: the text itself, or the file read as the command line reads it
    (regular files of at most 64 MiB of UTF-8, else ValueError naming the file)."""
    if isinstance(solution, str) and ("\n" in solution or solution.lstrip().startswith("#")):
        return solution
    return _native.read_solution(os.fspath(solution))


def _path(p: PathArg) -> Optional[str]:
    return None if p is None else os.fspath(p)


def evaluate(
    solution: Union[Solution, Sequence[Solution]],
    *,
    metrics: Optional[Sequence[str]] = None,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> list[RecipeScore]:
    """Score solutions against the benchmark's gold networks, as the command line does: the
    recipes of each solution in the reference's order (the reverse of the file), solutions in
    the order given. A solution is a text, a `.solution` file, or a folder of them: the paths
    the `evaluate` job takes (a folder gives its `*.solution` files below it, sorted, as
    `--input` finds them). `metrics` are the command line's names (default: the three
    simulation metrics). A list is scored in parallel without the GIL. A refused solution
    raises :class:`NetworkError` (with `index`, its place among the solutions scored)."""
    texts, single = _texts(solution)
    request = _score_each(texts, metrics)
    return _scores(_answer(*_job("score_each", request, reference, benchmark, kitchen)), single)


def _texts(solution: Union[Solution, Sequence[Solution]]) -> tuple[list[str], bool]:
    """The texts of one solution or a list of them (a folder: its solution files), and
    whether it was one file or text."""
    one = isinstance(solution, (str, os.PathLike))
    given = [solution] if one else list(solution)
    if not any(_is_folder(s) for s in given):
        return [_text(s) for s in given], one
    files: list[Solution] = []
    for s in given:
        files.extend(_native.solution_files([os.fspath(s)])[0] if _is_folder(s) else [s])
    return [_text(f) for f in files], False


def _is_folder(solution: Solution) -> bool:
    """Whether a solution names a folder (a text never does: it holds a line or a header)."""
    if isinstance(solution, str) and ("\n" in solution or solution.lstrip().startswith("#")):
        return False
    return os.path.isdir(solution)


def _score_each(texts: list[str], metrics: Optional[Sequence[str]]) -> dict:
    """The request of the job ``score_each`` for solution texts."""
    return {"networks": texts, "metrics": None if metrics is None else list(metrics)}


def _answer(refused: bool, out: dict) -> dict:
    """A job's answer, or its refusal raised as :class:`NetworkError`."""
    if refused:
        raise _refuse(out)
    return out


def _scores(answer: dict, single: bool) -> list[RecipeScore]:
    """The recipes' scores of the job ``score_each``'s answer, or the first refusal raised
    (with `index`, its place among the solutions)."""
    outcomes = answer["scores"]
    scores: list[RecipeScore] = []
    for i, out in enumerate(outcomes):
        if "error" in out:
            error = _refuse(out, "" if single else f"solution {i}: ")
            error.index = i  # type: ignore[attr-defined]
            raise error
        scores.extend(RecipeScore._of(r) for r in out["recipes"])
    return scores


def compare(
    baseline: "os.PathLike[str] | str",
    *systems: "os.PathLike[str] | str",
    metrics: Optional[Sequence[str]] = None,
    bootstrap: int = 1000,
    trials: int = 10000,
    seed: int = 12345,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> dict[str, Any]:
    """Is a system better? Each argument is one system, a `.solution` file or a folder of them,
    scored exactly as `evaluate` scores it, or a `.json` report of a whole run's results
    (`cookingbot.ray.write_system`, `--shard 1/1 --format json`), read and not scored again;
    the result is what `compare --format json` writes:
    per metric, each system's corpus mean with its bootstrap interval and coverage (a recipe
    the system lacks scores 0; a recipe solved several times scores the mean of its solutions,
    a refused or NIL one as 0), against the baseline the paired-bootstrap interval and p-value,
    the paired randomization p-value (exact when at most 20 recipes differ, else `trials`
    sampled assignments) and wins/ties/losses, and the leaderboard. Deterministic for a seed
    (`metrics` default: goal-condition success and the dish approximation score)."""
    request: dict[str, Any] = {
        "systems": [os.fspath(baseline), *(os.fspath(s) for s in systems)],
        "bootstrap": bootstrap,
        "trials": trials,
        "seed": seed,
    }
    if metrics is not None:
        request["metrics"] = list(metrics)
    refused, out = _native.job(
        "compare", json.dumps(request), reference, _path(benchmark), _path(kitchen)
    )
    answer = json.loads(out)
    if refused:
        raise (ValueError if answer.get("kind") == "request" else RuntimeError)(answer["error"])
    return answer


class Diagnostics(list):
    """The diagnostics of a text, a list of `Diagnostic`: the first 100 in text order (what
    `check` prints); `omitted` counts the others, found but not kept."""

    omitted: int = 0


def check(
    text: str,
    *,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
    known_recipes: Optional[Sequence[str]] = None,
) -> Diagnostics:
    """The errors and warnings of a network text, located (what `check` prints): the first 100,
    and how many more in ``omitted``; an action that fails in the kitchen (``kitchen``, or the
    benchmark's) is a warning (W0008). Recipe ids are ``known_recipes`` when given, else those
    of ``benchmark`` (a folder of your own, or ``"demo"``) when it is given, else the official
    benchmark's."""
    request: dict[str, Any] = {"network": text}
    if known_recipes is not None:
        request["known_recipes"] = list(known_recipes)
    refused, out = _job("check", request, reference, benchmark, kitchen)
    if refused:
        raise _refuse(out)
    found = Diagnostics(_diagnostics(out["diagnostics"]))
    found.omitted = out.get("diagnostics_omitted", 0)
    return found


@dataclass(frozen=True)
class Action:
    """An executed action: its place in the text, start and end times and bindings."""

    action: int
    line: int
    column: int
    text: str
    start: Optional[float]
    end: Optional[float]
    bindings: list[dict]


@dataclass(frozen=True)
class Execution:
    """A simulated run (what `simulate --json` prints)."""

    recipe: str
    solved: bool
    reason: str
    execution_time: Optional[float]
    actions: list[Action]
    not_run: list[dict]
    dish: Optional[dict]
    refused: Optional[dict]
    report: dict = field(repr=False)


def simulate(
    text: str,
    recipe: Optional[str] = None,
    *,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> Execution:
    """Run one recipe of a network text (default: the first) in the simulated kitchen."""
    _, out = _job("simulate", {"network": text, "recipe": recipe}, reference, benchmark, kitchen)
    return _execution(out)


def _job(
    name: str,
    request: dict,
    reference: str,
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> tuple[bool, dict]:
    """The job `name` of the table on `request` in the data named: whether it was refused,
    and the answer's or the refusal's JSON. Every function of the package that is a job asks
    it here."""
    refused, out = _native.job(
        name, json.dumps(request), reference, _path(benchmark), _path(kitchen)
    )
    return refused, json.loads(out)


def job(
    name: str,
    request: Optional[dict] = None,
    /,
    *,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
    **fields: Any,
) -> dict:
    """Any job of the job table (`check`, `simulate`, `score`, `score_each`, `smatch`, `diet`,
    `guide`, `substitute`, `suggest`, `scale`, `translate`, `evaluate`, `compare`, `replay`,
    `splits`, `variation`, `language`, `inventory`, the kitchen session's `kitchen_start`,
    `kitchen_act`, `kitchen_admissible`, `kitchen_primitives`, `kitchen_look`, `kitchen_undo`,
    `kitchen_progress`, `kitchen_finish`, `kitchen_opening`, `kitchen_reset`,
    `kitchen_network`, `kitchen_gold`, `kitchen_fork`, `kitchen_hint`, or its tool's name) on a request given as keyword
    arguments, the tool's arguments (or as a dict, `request`, the keywords added to it): its
    answer as JSON, exactly what the tool server's tool and `cookingbot-evaluator job` answer.
    `reference`, `benchmark` and `kitchen` name the data, as the command line's options do; a
    request's own field of one of those names (a session's `benchmark`) goes in `request`. A
    session's call names its session by `recipe` and the `lines` given so far (each call is
    one-shot: a `session` id names nothing here; :meth:`Kitchen.job` asks them of a Kitchen's
    session). A refusal raises :class:`NetworkError`."""
    return _answer(*_job(name, {**(request or {}), **fields}, reference, benchmark, kitchen))


def _execution(out: dict) -> Execution:
    if "error" in out:
        raise _refuse(out)
    r = out["report"]
    return Execution(
        recipe=r["recipe"],
        solved=r["solved"],
        reason=r["reason"],
        execution_time=r["execution_time"],
        actions=[Action(**s) for s in _flat_steps(r["steps"])],
        not_run=r["not_run"],
        dish=r["dish"],
        refused=out["refused"],
        report=r,
    )


def _flat_steps(steps: list[dict]) -> Iterator[dict]:
    keys = ("action", "line", "column", "text", "start", "end", "bindings")
    for s in steps:
        yield {k: s[k] for k in keys}


@dataclass(frozen=True)
class SmatchScore:
    f_score: float
    precision: float
    recall: float
    matched_triples: int
    test_triples: int
    gold_triples: int
    #: matched triples of smatch.py's own climb (what the default prints)
    reference_climb: int
    #: with `exact=True`: matched triples of the best mapping exact mode found
    optimum: Optional[int]
    #: whether exact mode proved `optimum` is the maximum
    proven: bool
    #: with `exact=True`: no mapping matches more (`optimum` when proven)
    bound: Optional[int]


def smatch(
    test: str, gold: str, *, exact: bool = False, exact_budget: int = 200
) -> SmatchScore:
    """Smatch between the first recipes of two network texts.

    `exact` searches for the optimum and says whether it is proven; `exact_budget` is the
    most search nodes branch and bound may take (every pair of 2024 gold networks of one
    family is proven within 2,000).
    """
    if exact_budget < 1:
        raise ValueError("exact_budget must be at least 1")
    request = {"test": test, "gold": gold, "exact": exact, "exact_budget": exact_budget}
    refused, out = _job("smatch", request, "2024")
    if refused:
        raise _refuse(out)
    return SmatchScore(**out)


@dataclass(frozen=True)
class Translation:
    solution: str
    notes: list[str]


def translate(text: str, translator: str = "rules", *, reference: str = "2024") -> Translation:
    """Translate recipe text (benchmark XML, plain text or an HTML page with a schema.org
    Recipe) into a network. Only the rule-based translator runs in-process; the language-model
    one needs a server and is the command line's `translate --translator llm`."""
    if translator != "rules":
        raise ValueError(f"translator {translator!r}: only 'rules' runs in-process")
    refused, out = _job("translate", {"text": text}, reference)
    if refused:
        raise ValueError(out["error"])
    return Translation(**out)


@dataclass(frozen=True)
class BenchmarkRecipe:
    """A benchmark recipe: its text as the data holds it (None for the demo), its gold
    network's text and file."""

    id: str
    text: Optional[str]
    gold: str
    file: str


class Benchmark:
    """The benchmark's recipes, their texts and gold networks, located as the command line locates data
    (`path`, else $COOKINGBOT_BENCHMARK, else the fetched data, downloaded when missing unless
    $COOKINGBOT_OFFLINE)."""

    def __init__(self, reference: str = "2024", path: PathArg = None):
        self.reference = reference
        self.path = _path(path)
        raw = json.loads(_native.benchmark_recipes(reference, self.path))
        self.recipes = [BenchmarkRecipe(**r) for r in raw]

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.recipes]

    def __len__(self) -> int:
        return len(self.recipes)

    def __iter__(self) -> Iterator[BenchmarkRecipe]:
        return iter(self.recipes)

    def __getitem__(self, recipe_id: str) -> BenchmarkRecipe:
        for r in self.recipes:
            if r.id == recipe_id:
                return r
        raise KeyError(recipe_id)

    def evaluate(self, solution: Union[Solution, Sequence[Solution]], **kw: Any) -> list[RecipeScore]:
        """:func:`evaluate` against this benchmark."""
        return evaluate(solution, reference=self.reference, benchmark=self.path, **kw)


# The agent session and models of one's own build on the definitions above.
from ._kitchen import (  # noqa: E402
    Kitchen,
    Observation,
    Opening,
    Progress,
    Replay,
    Score,
    View,
    replay,
)
from ._model import Model, PrimitiveCall  # noqa: E402
from ._splits import SplitRecipe, splits  # noqa: E402
from ._rewrite import (  # noqa: E402
    Scaling,
    Substitution,
    Suggestions,
    scale,
    substitute,
    suggest_substitutes,
)
from ._answers import (  # noqa: E402
    DietAction,
    DietVerdict,
    Guide,
    GuideStep,
    IdleGap,
    Timer,
    Violation,
    diet,
    guide,
)


def __getattr__(name: str) -> Any:
    # `cookingbot.KitchenEnv` is `cookingbot.gym.KitchenEnv`, imported only when asked for:
    # it needs gymnasium, which the package does not require.
    if name == "KitchenEnv":
        from .gym import KitchenEnv

        return KitchenEnv
    raise AttributeError(f"module 'cookingbot' has no attribute {name!r}")
