"""Primitives of one's own written in Python (docs/extending.md, "A primitive in Python").

    model = cookingbot.Model(benchmark="my-benchmark")
    model.add_primitive("grill", {"args": [...], "cases": [[...]]}, grill)
    model.evaluate("my.solution")                  # or model.simulate, Kitchen(..., model=model)

A primitive's function gets a :class:`PrimitiveCall` (its inputs as objects in the encoding of
the kitchen files, with their ids) and returns ``{"outputs": {argument: value}}``, optionally
with ``"ready_at"``, ``"kitchen_time"`` and ``"kitchen"``.
"""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

from . import (
    Execution,
    PathArg,
    RecipeScore,
    Solution,
    _answer,
    _execution,
    _native,
    _path,
    _score_each,
    _scores,
    _texts,
)
from ._kitchen import Kitchen, Number


def _number(value: Any) -> Any:
    """A number of the kitchen encoding as Python's: ``{"ratio": "n/d"}`` is a Fraction."""
    if isinstance(value, dict) and set(value) == {"ratio"}:
        return Fraction(value["ratio"])
    return value


def _encode(value: Any) -> Any:
    """What `json` cannot write itself: a Fraction as the kitchen files write a ratio."""
    if isinstance(value, Fraction):
        return {"ratio": f"{value.numerator}/{value.denominator}"}
    raise TypeError(f"{type(value).__name__} {value!r} is no value of the kitchen")


@dataclass
class PrimitiveCall:
    """What a primitive of one's own gets when it runs.

    `inputs` are the arguments its case binds on entry (but the kitchen state), each in the
    encoding of the kitchen files (`kitchens/README.md`): an object is a dict with its
    ``class``, its ``id`` and every slot of its class; ``null`` is NIL, ``true`` T, a ratio
    ``{"ratio": "1/2"}``. `ready` is when each input is ready (seconds of kitchen time; None for
    a constant), `kitchen_time` the input kitchen's time, `outputs` the arguments to return, and
    `kitchen` the input kitchen's places, only for a primitive added with ``kitchen=True``."""

    primitive: str
    inputs: dict[str, Any]
    ready: dict[str, Optional[Number]]
    outputs: list[str]
    kitchen_time: Optional[Number]
    kitchen: Optional[list[dict]]

    @classmethod
    def _of(cls, request: dict) -> "PrimitiveCall":
        return cls(
            primitive=request["primitive"],
            inputs=request["inputs"],
            ready={k: _number(v) for k, v in request["ready"].items()},
            outputs=request["outputs"],
            kitchen_time=_number(request["kitchen_time"]),
            kitchen=request["kitchen"],
        )

    def number(self, argument: str) -> Number:
        """The number a quantity input holds: 4 for the ``4`` of ``(grill ... 4 minute)``."""
        value = self.inputs[argument]
        return _number(value["value"] if isinstance(value, dict) else value)

    def ready_at(self, argument: str) -> Number:
        """When the primitive can start on input `argument`: the later of its ready time and
        the kitchen time, as the built-in primitives start. A constant has no ready time."""
        at = self.ready[argument]
        if at is None:
            raise ValueError(f"{argument} has no ready time: it is no object an action made")
        return max(self.kitchen_time or 0, at)


def _why(error: Exception) -> str:
    """An exception of a primitive's code as the refused action says it: its type, its
    message and where it was raised."""
    frames = traceback.extract_tb(error.__traceback__)[1:]
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"


def _code(fn: Callable[[PrimitiveCall], dict]) -> Callable[[str], tuple[bool, str]]:
    """`fn` as the extension module calls it: request text in, (True, answer text) or (False,
    why) out. An `Exception` is the action's refusal; anything else (KeyboardInterrupt) goes
    through and is raised by the call that ran the primitive."""

    def run(request: str) -> tuple[bool, str]:
        try:
            answer = fn(PrimitiveCall._of(json.loads(request)))
        except Exception as error:
            return False, _why(error)
        if not isinstance(answer, dict):
            return False, f"it returned {type(answer).__name__}, not a dict with 'outputs'"
        try:
            return True, json.dumps(answer, default=_encode)
        except (TypeError, ValueError) as error:
            return False, f"{type(error).__name__}: {error}"

    return run


class Model:
    """The simulator's world of a profile (`benchmark`'s ``ontology.json`` and
    ``kitchen.json``, or the `kitchen` file) with primitives of one's own written in Python.
    The gold networks are `benchmark`'s (else the data located as the command line locates
    it), or `gold`'s one network, as ``--gold`` gives it. A world file that cannot be used
    raises ValueError with its line, column and field."""

    def __init__(
        self,
        reference: str = "2024",
        *,
        benchmark: PathArg = None,
        kitchen: PathArg = None,
        gold: PathArg = None,
    ):
        self.reference = reference
        self._native = _native.Model(reference, _path(benchmark), _path(kitchen), _path(gold))

    def add_primitive(
        self,
        name: str,
        signature: Union[dict, str],
        fn: Callable[[PrimitiveCall], dict],
        *,
        kitchen: bool = False,
    ) -> None:
        """Add primitive `name`: its `signature` in the shape of an entry of
        ``kitchens/primitives.json`` (``{"args": [{"name", "type"}], "cases": [[argument,
        ...]]}``, a dict or its JSON text; a ``name`` in it must be `name`) and its function.
        With ``kitchen=True`` the call also holds the input kitchen's places (which costs an
        encoding of the whole kitchen per call). A built-in primitive's name, one added before
        or a signature that cannot be used raises ValueError.

        `fn` returns ``{"outputs": {argument: value}}`` with every output of the case; an object
        whose ``id`` is an object of the kitchen replaces it in the kitchen state out, an
        object without one is new (a string ``id`` names a new object: the same string, the
        same object), and slots left out take the class's defaults. ``"ready_at": {argument:
        seconds}`` (default: the kitchen time out), ``"kitchen_time"`` (the kitchen state
        out's time; default the input's) and ``"kitchen"`` (more objects that replace the
        kitchen's of their ids, places included) are optional. An exception it raises, or an
        answer that cannot be used, refuses the action with its message, as an error a
        built-in primitive signals refuses the network."""
        entry = json.loads(signature) if isinstance(signature, str) else dict(signature)
        if entry.setdefault("name", name) != name:
            raise ValueError(f"the signature names {entry['name']!r}, not {name!r}")
        self._native.add_primitive(json.dumps(entry), _code(fn), kitchen)

    @property
    def primitives(self) -> list["Primitive"]:
        """The action language of the model: every primitive, built-in and added, with its
        arguments, cases and what it does (:meth:`Kitchen.primitives`). The job ``language``'s
        answer in the model."""
        from ._kitchen import Primitive

        return [Primitive._of(p) for p in self.job("language")["primitives"]]

    @property
    def added_primitives(self) -> list[str]:
        """The primitives added, in order."""
        return self._native.primitives()

    def job(self, name: str, request: Optional[dict] = None, /, **fields: Any) -> dict:
        """:func:`cookingbot.job` with this model: any job of the job table (``simulate``,
        ``score_each``, ``check``, ``guide``, ...) run on the model's primitives and scored
        against its gold networks, the request as :func:`cookingbot.job` takes it (a session's
        call names its session by ``recipe`` and ``lines``; :meth:`kitchen` opens one). A
        refusal raises NetworkError."""
        return _answer(*self._job(name, {**(request or {}), **fields}))

    def _job(self, name: str, request: dict) -> tuple[bool, dict]:
        refused, out = self._native.job(name, json.dumps(request))
        return refused, json.loads(out)

    def evaluate(
        self,
        solution: Union[Solution, Sequence[Solution]],
        *,
        metrics: Optional[Sequence[str]] = None,
    ) -> list[RecipeScore]:
        """:func:`cookingbot.evaluate` with this model: the job ``score_each`` in the model."""
        texts, single = _texts(solution)
        return _scores(self.job("score_each", _score_each(texts, metrics)), single)

    def simulate(self, text: str, recipe: Optional[str] = None) -> Execution:
        """:func:`cookingbot.simulate` with this model: the job ``simulate`` in the model."""
        return _execution(self._job("simulate", {"network": text, "recipe": recipe})[1])

    def kitchen(self, recipe_id: str) -> Kitchen:
        """A :class:`Kitchen` on `recipe_id` with this model."""
        return Kitchen(recipe_id, model=self)

    def __repr__(self) -> str:
        return f"Model({self.reference!r}, primitives={self.added_primitives!r})"

