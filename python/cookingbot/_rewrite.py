"""Substitute an ingredient or scale a recipe, run it again in the simulated kitchen and compare
it with the original by the evaluation's own metrics (the original's dish standing as the gold
dish): what `cookingbot-evaluator substitute` and `scale` answer."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional, Union

from . import _native
from . import NetworkError, PathArg, RecipeScore, Solution, _diagnostics, _job, _text

__all__ = ["Scaling", "Substitution", "Suggestions", "scale", "substitute", "suggest_substitutes"]


@dataclass(frozen=True)
class Rewritten:
    """A network rewritten and run again. `against_original` scores the rewrite against the
    original's run; `against_gold` holds the original's and the rewrite's scores against the
    benchmark's gold network (``{"original": ..., "rewritten": ...}``) when the benchmark has
    the recipe. `changes` are the rewritten actions; `network` the rewritten text."""

    recipe: str
    executes: bool
    original_execution_time: Optional[float]
    against_original: RecipeScore
    against_gold: Optional[dict[str, RecipeScore]]
    changes: list[dict]
    network: str
    report: dict = field(repr=False)

    @staticmethod
    def _common(out: dict) -> dict[str, Any]:
        gold = out["against_gold"]
        return {
            "recipe": out["recipe"],
            "executes": out["executes"],
            "original_execution_time": out["original_execution_time"],
            "against_original": RecipeScore._of(out["against_original"]),
            "against_gold": None
            if gold is None
            else {k: RecipeScore._of(v) for k, v in gold.items()},
            "changes": out["changes"],
            "network": out["network"],
            "report": out,
        }


@dataclass(frozen=True)
class Substitution(Rewritten):
    """An ingredient replaced (`replace` by `replacement`, amounts by `amount_rule`); the
    role table's `role` offering it, its `strength_factor` (grams of it for a gram of the
    ingredient), whether it `fit`s the recipe's use of the ingredient and `why_not`."""

    replace: str = ""
    replacement: str = ""
    amount_rule: str = ""
    notes: list[str] = field(default_factory=list)
    role: Optional[str] = None
    strength_factor: Optional[str] = None
    fit: Optional[bool] = None
    why_not: Optional[str] = None


@dataclass(frozen=True)
class Scaling(Rewritten):
    """A network scaled by `factor` (exact, such as ``"3/2"``): the dish's proportions
    ingredient by ingredient, the counts rounded and what the kitchen model says no longer
    fits (`capacity`)."""

    factor: str = ""
    factor_value: float = 0.0
    proportions: list[dict] = field(default_factory=list)
    proportions_preserved: bool = False
    rounding: list[dict] = field(default_factory=list)
    capacity: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Suggestions:
    """Substitutes of `ingredient` from the role table, those `diet` excludes by the diet
    table in `excluded` (each with the tags it excludes, `because`), those unfit for the
    network's use of the ingredient in `unfit` (each with `why_not`); each suggestion states
    its `role`, `strength_factor` and `amount_rule`, and its `tried` holds its run in the
    network, when one was given."""

    ingredient: str
    diet: Optional[str]
    ingredient_excluded_because: list[str]
    suggestions: list[dict]
    unfit: list[dict]
    excluded: list[dict]
    recipe: Optional[str]


def _answer(
    name: str, request: dict, reference: str, benchmark: PathArg, kitchen: PathArg
) -> dict:
    """The job's answer; its refusal raised (ValueError for a request that cannot be asked,
    else NetworkError)."""
    refused, out = _job(name, request, reference, benchmark, kitchen)
    if refused:
        if out.get("kind") == "request":
            raise ValueError(out["error"])
        raise NetworkError(out["error"], _diagnostics(out.get("diagnostics", [])))
    return out


def substitute(
    network: Solution,
    replace: str,
    replacement: str,
    *,
    amount_rule: Optional[str] = None,
    recipe: Optional[str] = None,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> Substitution:
    """Replace ingredient `replace` by `replacement` in one recipe of a network (default: the
    first), run it again and compare it with the original. `amount_rule` is `same-weight`,
    `same-volume`, `same-count` or `same-effect` (default: `same-effect` where the role table
    gives the two different strengths, else `same-weight`). An unknown or absent ingredient raises `ValueError`; a
    network with errors `NetworkError`."""
    text = _text(network)
    request = {
        "network": text,
        "replace": replace,
        "with": replacement,
        "amount_rule": amount_rule,
        "recipe": recipe,
    }
    out = _answer("substitute", request, reference, benchmark, kitchen)
    return Substitution(
        **Rewritten._common(out),
        replace=out["replace"],
        replacement=out["with"],
        amount_rule=out["amount_rule"],
        notes=out["notes"],
        role=out["role"],
        strength_factor=out["strength_factor"],
        fit=out["fit"],
        why_not=out["why_not"],
    )


def suggest_substitutes(
    ingredient: str,
    *,
    diet: Optional[str] = None,
    network: Optional[Solution] = None,
    recipe: Optional[str] = None,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> Suggestions:
    """The classes sharing a role with `ingredient` in the role table
    (kitchens/substitutes.json), filtered by `diet` (vegan, vegetarian, gluten-free, dairy-free,
    nut-free or egg-free) through the diet table (kitchens/diet.json); each is tried in
    `network` when one is given (each pair's default amount rule). A misspelt diet raises `ValueError`."""
    text = None if network is None else _text(network)
    request = {"ingredient": ingredient, "diet": diet, "network": text, "recipe": recipe}
    out = _answer("suggest", request, reference, benchmark, kitchen)
    return Suggestions(**out)


#: The factors scale takes (world::rewrite::scaling's MIN_FACTOR_DENOMINATOR and MAX_FACTOR).
_FACTORS = "from 1/100 to 100"


def _factor(factor: Union[int, float, str, Fraction]) -> str:
    """A factor as the extension reads it: ``n/d`` for a Fraction or a float. A float outside
    the factors' range (or nan) is refused here, in its own digits, rather than as the simplest
    fraction rounding to it (``1e-300`` would be one of 300 digits, ``1e20`` one of 21)."""
    if isinstance(factor, float):
        if math.isnan(factor):
            raise ValueError(f"a factor of nan is not a number; scale takes factors {_FACTORS}")
        if factor <= 0:
            raise ValueError(
                f"a factor of {factor!r} would leave nothing to cook; factors are above 0"
            )
        if not 1 / 100 <= factor <= 100:
            raise ValueError(f"a factor of {factor!r} is beyond what scale takes: {_FACTORS}")
        factor = _simplest(factor)
    if isinstance(factor, Fraction):
        return f"{factor.numerator}/{factor.denominator}"
    return str(factor)


def _simplest(x: float) -> Fraction:
    """The fraction of smallest denominator that rounds to `x` (at least 0): the simplest
    strictly between the midpoints to its neighbouring floats."""
    below = (Fraction(x) + Fraction(math.nextafter(x, -math.inf))) / 2
    above = (Fraction(x) + Fraction(math.nextafter(x, math.inf))) / 2
    return _simplest_between(max(below, Fraction(0)), above)


def _simplest_between(low: Fraction, high: Optional[Fraction]) -> Fraction:
    """The fraction of smallest denominator strictly between `low` (at least 0) and `high`
    (None: no bound), by the continued fraction of the interval's ends."""
    whole = math.floor(low)
    if high is None or whole + 1 < high:
        return Fraction(whole + 1)
    low, high = low - whole, high - whole
    inner = _simplest_between(1 / high, None if low == 0 else 1 / low)
    return whole + 1 / inner


def _count(n: Optional[int], what: str) -> Optional[int]:
    """A count of servings as the request carries it; one no request can carry (below 0,
    past 2**64) is out of the range, as the command line says of it."""
    if n is not None and not 0 <= n < 2**64:
        raise ValueError(_native.servings_out_of_range(what, str(n)))
    return n


def scale(
    network: Solution,
    factor: Union[int, float, str, Fraction, None] = None,
    *,
    servings: Optional[int] = None,
    serves: Optional[int] = None,
    recipe: Optional[str] = None,
    reference: str = "2024",
    benchmark: PathArg = None,
    kitchen: PathArg = None,
) -> Scaling:
    """Scale every ingredient amount of one recipe of a network by `factor` (from 1/100 to
    100), or to `servings` of `serves` (1 to 10000), run it again and compare it with the
    original. A factor is exact: an int, a :class:`~fractions.Fraction`, a string as the
    command line reads it (``"1.5"`` is 3/2, ``"3/2"``), or a float, read as the simplest
    fraction that rounds to it (the one of smallest denominator): ``1/3`` is 1/3, ``1.5`` 3/2,
    ``0.1`` 1/10 (not the binary value a float holds, whose denominator is a power of two
    beyond the bound on quantities). A factor or a count out of bounds raises `ValueError`."""
    request = {
        "network": _text(network),
        "factor": None if factor is None else _factor(factor),
        "servings": _count(servings, "--servings"),
        "serves": _count(serves, "--serves"),
        "recipe": recipe,
    }
    out = _answer("scale", request, reference, benchmark, kitchen)
    return Scaling(
        **Rewritten._common(out),
        factor=out["factor"],
        factor_value=out["factor_value"],
        proportions=out["proportions"],
        proportions_preserved=out["proportions_preserved"],
        rounding=out["rounding"],
        capacity=out["capacity"],
    )
