"""What cooking agents are asked, answered from the simulated kitchen rather than from the
recipe's words (docs/diet.md):

    verdict = cookingbot.diet(network, "vegan")
    verdict.satisfied, [(v.ingredient, v.amount) for v in verdict.violations]

Each answer keeps the command line's JSON (`--format json`) whole in `report`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Optional

from . import PathArg, Solution, _native, _path, _refuse, _text


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
    out = json.loads(
        _native.diet(text, diet, recipe, reference, _path(benchmark), _path(kitchen))
    )
    if "error" in out:
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
