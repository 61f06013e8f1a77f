"""What cooking agents are asked, answered from the simulated kitchen rather than from the
recipe's words (docs/diet.md, docs/guide.md):

    verdict = cookingbot.diet(network, "vegan")
    verdict.satisfied, [(v.ingredient, v.amount) for v in verdict.violations]
    plan = cookingbot.guide(network)
    plan.total_time, [(s.start, s.end, s.words) for s in plan.steps], plan.timers, plan.idle

Each answer keeps the command line's JSON (`--format json`) whole in `report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import PathArg, Solution, _job, _refuse, _text


@dataclass(frozen=True)
class DietAction:
    """An action of the network: its 1-based place, its line and its text."""

    action: int
    text: str
    line: Optional[int] = None


@dataclass(frozen=True)
class Violation:
    """An ingredient of the dish the diet excludes: its class, the tags that exclude it, its
    amount in the dish (``{"value": 115, "unit": "g"}``, every portion summed) and the actions
    that brought it in."""

    ingredient: str
    tags: list[str]
    amount: dict
    actions: list[DietAction]


@dataclass(frozen=True)
class DietVerdict:
    """A dish judged against a diet. `satisfied` is None when there is no verdict (the network
    does not execute, its dish holds no ingredient or cannot be weighed); `reason` says why.
    `dish` is the action whose output was judged."""

    recipe: str
    diet: str
    satisfied: Optional[bool]
    reason: Optional[str]
    dish: Optional[DietAction]
    violations: list[Violation]
    report: dict = field(repr=False)


def diet(
    solution: Solution,
    diet: str,
    recipe: Optional[str] = None,
    *,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> DietVerdict:
    """Does the dish of one recipe of a solution (default: the first) keep `diet` (vegan,
    vegetarian, gluten-free, dairy-free, nut-free, egg-free)? The network is simulated and its
    final dish judged, as `cookingbot-evaluator diet` judges it. A network that has errors or
    crashes raises :class:`NetworkError`; a misspelt diet `ValueError`."""
    text = _text(solution)
    request = {"network": text, "diet": diet, "recipe": recipe}
    refused, out = _job("diet", request, reference, benchmark, kitchen)
    if refused:
        raise _refuse(out)
    dish = out["dish"]
    return DietVerdict(
        recipe=out["recipe"],
        diet=out["diet"],
        satisfied=out["satisfied"],
        reason=out.get("reason"),
        dish=DietAction(**dish) if dish else None,
        violations=[
            Violation(
                ingredient=v["ingredient"],
                tags=v["tags"],
                amount=v["amount"],
                actions=[DietAction(**a) for a in v["actions"]],
            )
            for v in out["violations"]
        ],
        report=out,
    )


@dataclass(frozen=True)
class GuideStep:
    """An executed action of the guide: its place in the network, what the cook does in words,
    its kitchen times in seconds, whether it goes on by itself (a timer) and the actions whose
    time overlaps it (at most 20; `parallel_omitted` counts the rest)."""

    action: int
    line: int
    text: str
    words: str
    start: float
    end: float
    timer: bool
    parallel: list[int]
    parallel_omitted: int = 0


@dataclass(frozen=True)
class Timer:
    """An action the kitchen finishes by itself once started (an oven heating, a bake): the cook
    is free from `cook_free` until it is `ready`. `temperature` is the one the simulation gave
    what it makes (``"180 °C"``), when it gave one."""

    action: int
    line: int
    what: str
    makes: str
    temperature: Optional[str]
    start: float
    cook_free: float
    ready: float


@dataclass(frozen=True)
class IdleGap:
    """A time the cook only waits, and the timers (their actions) running meanwhile."""

    start: float
    end: float
    waiting_for: list[int]
    waiting_for_omitted: int = 0


@dataclass(frozen=True)
class Guide:
    """A cook's guide from the simulated schedule: `total_time` in seconds (the execution
    time), the steps in start order, the timers and the idle times."""

    recipe: str
    total_time: float
    steps: list[GuideStep]
    timers: list[Timer]
    idle: list[IdleGap]
    report: dict = field(repr=False)


def guide(
    solution: Solution,
    recipe: Optional[str] = None,
    *,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> Guide:
    """A cook's guide to one recipe of a solution (default: the first), as
    `cookingbot-evaluator guide --format json` writes it. A network that has errors, crashes or
    does not execute (it has no schedule) raises :class:`NetworkError`."""
    text = _text(solution)
    request = {"network": text, "recipe": recipe}
    refused, out = _job("guide", request, reference, benchmark, kitchen)
    if refused:
        raise _refuse(out)
    return Guide(
        recipe=out["recipe"],
        total_time=out["total_time"],
        steps=[GuideStep(**s) for s in out["steps"]],
        timers=[Timer(**t) for t in out["timers"]],
        idle=[
            IdleGap(
                start=g["from"],
                end=g["to"],
                waiting_for=g["waiting_for"],
                waiting_for_omitted=g.get("waiting_for_omitted", 0),
            )
            for g in out["idle"]
        ],
        report=out,
    )
