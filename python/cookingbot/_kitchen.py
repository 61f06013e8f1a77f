"""The kitchen as an environment for agents: a network written one action at a time, each
action run on the kitchen the earlier ones left, and scored at the end exactly as the
network's ``.solution`` file is scored (docs/agents.md).

    kitchen = cookingbot.Kitchen("afghan-biscuits")
    seen = kitchen.reset()                       # the recipe text and the kitchen
    seen = kitchen.step("(get-kitchen ?kitchen)")
    seen.ok, seen.text, seen.objects, seen.diagnostics, seen.time
    score = kitchen.finish()                     # == cookingbot.evaluate(kitchen.network(), ...)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional, Protocol, Union

from . import Diagnostic, PathArg, RecipeScore, _diagnostics, _native, _path, _refuse


class _ModelHandle(Protocol):
    """What a Kitchen needs of a :class:`cookingbot.Model` (which opens its kitchens here): the
    model's native handle. Named by its shape, so this module needs nothing from ``_model``."""

    @property
    def _native(self) -> Any: ...

#: A kitchen time or an amount: an integer, a float, or an exact fraction.
Number = Union[int, float, Fraction]

#: The four metrics, as `finish` scores them.
ALL_METRICS = (
    "smatch-score",
    "goal-condition-success",
    "dish-approximation-score",
    "execution-time",
)


@dataclass(frozen=True)
class Observation:
    """The answer to a line (or, from :meth:`Kitchen.reset`, the opening).

    `outcome` is ``ran``; ``failed`` (it ran as the reference runs it but made a failed
    object: `ok` is false, and the object's ``failed`` and a warning say why); ``waiting`` (it
    runs once later lines bind what it lacks); ``never`` (it can never run in this network: an
    output variable is bound already, or an input holds the wrong kind of thing);
    ``runs-with-first`` (a word-for-word repeat); ``refused`` (the reference refuses a network
    with this line: take it back with :meth:`Kitchen.undo`); ``no-action`` (a blank line or a
    comment); ``rejected`` (the session did not take the line: several lines, too long, past
    the bound of 1,000 lines; the network is unchanged); ``opening`` (from `reset`: `text` is
    the recipe and the kitchen, `objects` the kitchen's places). `objects` are what the line's
    action made, each with its words and its dish tree (``object``); `time` is the kitchen time
    in seconds."""

    ok: bool
    outcome: str
    line: int
    text: str
    objects: list[dict]
    diagnostics: list[Diagnostic]
    time: Number
    report: dict = field(repr=False)

    @classmethod
    def _of(cls, o: dict) -> "Observation":
        return cls(
            ok=o["ok"],
            outcome=o["outcome"],
            line=o["line"],
            text=o["text"],
            objects=o["objects"],
            diagnostics=_diagnostics(o["diagnostics"]),
            time=o["time"],
            report=o,
        )


@dataclass(frozen=True)
class Opening:
    """What a session starts with: the recipe text (None when the benchmark has none on
    disk), the kitchen in words (a line per place) and its places as dish trees."""

    recipe: str
    recipe_text: Optional[str]
    kitchen: str
    places: list[dict]
    time: Number
    language: str = ""

    @property
    def text(self) -> str:
        """The recipe text, the kitchen, then the action language."""
        recipe = f"{self.recipe_text.rstrip()}\n\n" if self.recipe_text else f"{self.recipe}\n\n"
        return f"{recipe}The kitchen:\n{self.kitchen}\n{self.language}"


@dataclass(frozen=True)
class Argument:
    """One argument of a primitive, in its place: `role` is ``output``,
    ``kitchen-state-out``, ``kitchen-state-in``, ``input`` or ``optional`` (an input in some
    cases, made with `default` in the others); `type` the class its value must be of."""

    name: str
    role: str
    type: str
    default: Optional[str]


@dataclass(frozen=True)
class Primitive:
    """One primitive of the action language: what it `does`, its `arguments` in order, the
    `cases` it runs under (per case, the arguments bound on entry) and its compact `form`."""

    name: str
    does: str
    arguments: list[Argument]
    cases: list[list[str]]
    form: str

    @classmethod
    def _of(cls, p: dict) -> "Primitive":
        return cls(p["name"], p["does"], [Argument(**a) for a in p["arguments"]], p["cases"], p["form"])


@dataclass(frozen=True)
class Candidate:
    """A line that runs now: `line` with free values as placeholders (``<quantity>``),
    `example` with values that run, per input argument what it uses (`inputs`: ``argument``,
    ``kind`` ``variable``/``class``/``free``, ``uses``), the `placeholders` with what bounds
    them, and whether its first output is a failed object (`fails`)."""

    primitive: str
    line: str
    example: str
    inputs: list[dict]
    placeholders: list[dict]
    fails: bool


@dataclass(frozen=True)
class Hint:
    """The gold's next action (number `action` of `actions`) as a `line` with the agent's
    variables."""

    line: str
    primitive: str
    action: int
    actions: int


@dataclass(frozen=True)
class View:
    """A look at a variable (`object`, when bound) or a place (`place`)."""

    text: str
    object: Optional[dict]
    place: Optional[dict]


@dataclass(frozen=True)
class Progress:
    """How far a network is, without ending the session: the gold goals the actions that ran
    reach (`goals_reached` of `goals`, `goal_share`: at finish, the evaluation's goal-condition
    success of a network that runs whole) and the dish approximation score of the best dish so
    far (`dish_score`, made at `dish_line`; None when comparing it signals an error). `text`
    says it in words."""

    goals_reached: int
    goals: int
    goal_share: float
    dish_score: Optional[float]
    dish_line: Optional[int]
    text: str


@dataclass(frozen=True)
class Score:
    """The evaluation of the network as a ``.solution`` file, with the four metrics: the
    recipe's scores (`scores`, what :func:`cookingbot.evaluate` gives for the file) and the cells
    the reference's CSV prints (`printed`, `csv`), or why the reference refuses the file
    (`refused`, with the diagnostics `rendered` as the command line prints them)."""

    scores: Optional[RecipeScore]
    printed: list[str]
    csv: str
    refused: Optional[str]
    rendered: Optional[str]
    report: dict = field(repr=False)
    #: Why the network makes no dish (NIL scores), in words: the first line that failed or
    #: never ran and the gold goals never reached. Advice only; None when there is a dish.
    why_no_dish: Optional[str] = None

    @property
    def dish_approximation_score(self) -> Optional[float]:
        return self.scores.dish_approximation_score if self.scores else None

    @property
    def goal_condition_success(self) -> Optional[float]:
        return self.scores.goal_condition_success if self.scores else None

    @property
    def smatch_score(self) -> Optional[float]:
        return self.scores.smatch_score if self.scores else None

    @property
    def execution_time(self) -> Optional[float]:
        return self.scores.execution_time if self.scores else None

    @classmethod
    def _of(cls, out: dict) -> "Score":
        unit, why = out["unit"], out.get("why_no_dish")
        if "scored" in unit:
            row = unit["scored"]
            return cls(
                RecipeScore._of(row["recipe"]), row["printed"], out["csv"], None, None, unit, why
            )
        refusal = unit["refused"]
        return cls(None, [], out["csv"], refusal["message"], refusal["rendered"], unit, why)


class Kitchen:
    """One agent's network of one recipe of the benchmark (`reference`'s official data, a
    folder of your own, or ``"demo"``), or of a :class:`Model`'s. A recipe the benchmark lacks
    raises ValueError with the closest ids; a bad line never raises: :meth:`step` answers it.

    With `log`, every call that changes, scores or looks at the session (`step`, `undo`,
    `progress`, `finish`, `reset`, `look`, `hint`, `admissible`) is written to that file as a
    JSON line, flushed before the call returns: :func:`cookingbot.replay` runs the log again,
    on the same variation (docs/agents.md, "Trajectories and forks"). A log that cannot be
    written raises OSError.

    `variation` K > 0 is the recipe's generated variation K (docs/agents.md): the servings
    scaled, other stock, an ingredient missing with a substitute in its place, and a gold
    network of its own (:meth:`variation_gold`); the same K is the same task everywhere.

    Sessions are independent; one Kitchen used from several threads takes their calls in
    turn. Every call runs without the GIL. :meth:`clone` forks a session; a Kitchen pickles
    (as its settings and lines: the unpickled one logs nowhere)."""

    def __init__(
        self,
        recipe_id: str,
        *,
        reference: Optional[str] = None,
        benchmark: PathArg = None,
        kitchen: PathArg = None,
        model: Optional[_ModelHandle] = None,
        log: PathArg = None,
        variation: int = 0,
    ):
        if variation < 0:
            raise ValueError("variation must be 0 (the official task) or above")
        self._settings = (reference, _path(benchmark), _path(kitchen), variation)
        if model is None:
            self._native = _native.Kitchen(
                recipe_id,
                reference or "2024",
                _path(benchmark),
                _path(kitchen),
                _path(log),
                variation,
            )
        elif variation:
            raise ValueError("a Kitchen on a model has no variations: its kitchen is the model's")
        elif reference is None and benchmark is None and kitchen is None and log is None:
            self._native = model._native.kitchen(recipe_id)
            self._settings = None
        else:
            raise ValueError(
                "a Kitchen on a model takes the model's data: give reference, benchmark and "
                "kitchen to the Model; a log replays from a benchmark, so a Kitchen on a "
                "model takes none"
            )

    def clone(self) -> "Kitchen":
        """A fork: an independent session with the same lines, sharing what never changes (the
        model, the gold) and every kitchen object neither changes; it logs nowhere. The job
        ``kitchen_fork``, the fork held by the new Kitchen."""
        fork = Kitchen.__new__(Kitchen)
        fork._settings = self._settings
        fork._native = self._native.clone()
        return fork

    def lines(self) -> list[str]:
        """The lines the network holds, as given (a header given first included): a new
        Kitchen given them with :meth:`step` is this one again. The job
        ``kitchen_network``'s ``lines``."""
        return self.job("kitchen_network")["lines"]

    def __reduce__(self) -> tuple:
        if self._settings is None:
            raise TypeError(
                "a Kitchen on a Model does not pickle: its primitives are Python code; pickle "
                "kitchen.lines() and give them to a new Kitchen of the model"
            )
        reference, benchmark, kitchen, variation = self._settings
        return (_unpickle, (self.recipe, reference, benchmark, kitchen, variation, self.lines()))

    @property
    def recipe(self) -> str:
        """The recipe's id as the benchmark spells it (the job ``kitchen_network``'s)."""
        return self.job("kitchen_network")["recipe"]

    @property
    def variation(self) -> int:
        """The generated variation the session is on; 0 for the official task (the job
        ``kitchen_network``'s)."""
        return self.job("kitchen_network")["variation"]

    def variation_gold(self) -> str:
        """The gold network of the session's task, as a ``.solution`` text: the variation's
        (the official gold scaled and substituted, run on the variation's kitchen), or the
        benchmark's own for variation 0. The job ``kitchen_gold``'s ``gold``."""
        return self.job("kitchen_gold")["gold"]

    @property
    def opening(self) -> Opening:
        """The recipe text and the initial kitchen: the job ``kitchen_opening``'s answer."""
        return Opening(**self.job("kitchen_opening"))

    def reset(self) -> Observation:
        """Start again with an empty network: the opening as an observation (`text` the recipe
        and the kitchen in words, `objects` the kitchen's places). The job ``kitchen_reset``'s
        answer."""
        raw = self.job("kitchen_reset")
        opening = Opening(**raw)
        return Observation(
            ok=True,
            outcome="opening",
            line=1,
            text=opening.text,
            objects=opening.places,
            diagnostics=[],
            time=opening.time,
            report=raw,
        )

    def step(self, line: str) -> Observation:
        """Append one line of MUHAI Cooking Language and run its action on the current kitchen:
        the job ``kitchen_act``'s answer asked with ``detail`` (the observation whole, a line
        the session does not take answered as ``rejected``, never raised)."""
        refused, out = self._native.job("kitchen_act", json.dumps({"line": line, "detail": True}))
        answer = json.loads(out)
        if refused:
            raise _refuse(answer)
        return Observation._of(answer)

    def look(self, name: str) -> View:
        """A variable (``?bowl``) or a place of the current kitchen (``fridge``); an unknown name
        raises ValueError with the closest names. The job ``kitchen_look``'s answer asked with
        ``detail``."""
        return View(**self.job("kitchen_look", name=name, detail=True))

    def undo(self) -> Optional[str]:
        """Take the last line back (the kitchen as it was before it): the line, or None when
        there is none. The job ``kitchen_undo``'s ``undone``."""
        refused, out = self._native.job("kitchen_undo", "{}")
        return None if refused else json.loads(out)["undone"]

    def act(self, line: str) -> dict:
        """One line given to the session, as the tool server's ``kitchen_act`` gives it: the
        job's answer (`ok`, `outcome`, `line`, `text` without the objects' words, `objects`
        with each one's `variable` and `words`, `diagnostics`, `time`). A line the session
        cannot take raises NetworkError (:meth:`step` answers it as an observation instead,
        with the objects' dish trees)."""
        return self.job("kitchen_act", line=line)

    def job(self, name: str, request: Optional[dict] = None, /, **fields: Any) -> dict:
        """A kitchen session's job of the job table (``kitchen_act``, ``kitchen_admissible``,
        ``kitchen_primitives``, ``kitchen_look``, ``kitchen_undo``, ``kitchen_progress``,
        ``kitchen_finish``, ``kitchen_opening``, ``kitchen_reset``, ``kitchen_network``,
        ``kitchen_gold``, ``kitchen_fork``, ``kitchen_hint``) on this session, the request as :func:`cookingbot.job` takes it but
        naming no session: exactly what the tool server answers for its session of the same
        lines (uncut). ``kitchen_finish`` scores the network and the session goes on, as
        :meth:`finish` does. A refusal raises NetworkError; another job ValueError."""
        refused, out = self._native.job(name, json.dumps({**(request or {}), **fields}))
        answer = json.loads(out)
        if refused:
            raise _refuse(answer)
        return answer

    def network(self) -> str:
        """The network written so far, as a ``.solution`` text: the job ``kitchen_network``'s
        ``network``, read without the job's JSON (a fast path: the gym reads it after every
        step, and the whole job costs about 50 µs more a call)."""
        return self._native.network()

    def waiting(self) -> list[int]:
        """The lines of the actions still waiting to run (the job ``kitchen_network``'s)."""
        return self.job("kitchen_network")["waiting"]

    def unbound(self) -> list[str]:
        """The variables no action has bound yet (the job ``kitchen_network``'s)."""
        return self.job("kitchen_network")["unbound"]

    def progress(self) -> Progress:
        """How far the network is: the gold goals reached so far and the best dish so far.
        The session goes on; nothing changes. The job ``kitchen_progress``'s answer."""
        return Progress(**self.job("kitchen_progress"))

    def primitives(self) -> list[Primitive]:
        """The action language: every primitive, its arguments in order with role, type and
        default, the cases it runs under and what it does. The job ``kitchen_primitives``'s
        answer asked with ``detail``."""
        answer = self.job("kitchen_primitives", detail=True)
        return [Primitive._of(p) for p in answer["primitives"]]

    def admissible(
        self, limit: int = 50, *, primitive: Optional[str] = None, using: Optional[str] = None
    ) -> list[Candidate]:
        """The lines that run now, in a deterministic order, at most `limit` (5,000 at most):
        built from the bound variables and the kitchen's classes, each tried on a copy of the
        kitchen. `primitive` keeps one primitive's, `using` those taking a variable. The job
        ``kitchen_admissible``'s answer asked with ``detail``."""
        answer = self.job(
            "kitchen_admissible", limit=limit, primitive=primitive, using=using, detail=True
        )
        return [Candidate(**c) for c in answer["admissible"]]

    def hint(self) -> Optional[Hint]:
        """The gold network's next action not matched yet, with your variables; None when the
        network matches the whole gold. It reveals the gold: for imitation learning and
        debugging, never in an evaluation. The job ``kitchen_hint``'s ``hint``, which the tool
        server does not serve."""
        raw = self.job("kitchen_hint")["hint"]
        return None if raw is None else Hint(**raw)

    def finish(self) -> Score:
        """The four metrics of :meth:`network`, evaluated as its ``.solution`` file is. The
        session goes on: more lines may follow, and another finish. The job
        ``kitchen_finish``'s answer asked with ``detail`` (its ``csv`` and ``unit``; its
        ``score`` is what :func:`cookingbot.job` answers for ``score``)."""
        return Score._of(self.job("kitchen_finish", detail=True))

    def __repr__(self) -> str:
        return f"Kitchen({self.recipe!r})"


def _unpickle(
    recipe: str,
    reference: Optional[str],
    benchmark: PathArg,
    kitchen: PathArg,
    variation: int,
    lines: list[str],
) -> Kitchen:
    """A pickled Kitchen made again: a new session given its lines."""
    made = Kitchen(
        recipe, reference=reference, benchmark=benchmark, kitchen=kitchen, variation=variation
    )
    for line in lines:
        made.step(line)
    return made


@dataclass(frozen=True)
class Difference:
    """Where a replay first differs from its log: the `record` (1 the first after the header,
    0 the header: the benchmark or kitchen changed), its `line` in the log, the `field` (a path
    such as ``observation.objects[0].words``), what the log holds there (`expected`) and what
    the run gave (`got`); None where one holds nothing."""

    record: int
    line: int
    field: str
    expected: Any
    got: Any


@dataclass(frozen=True)
class Replay:
    """What :func:`replay` found: whether every record made again is the one logged, how many
    records were compared, and the first difference."""

    identical: bool
    records: int
    difference: Optional[Difference]


def replay(path: PathArg) -> Replay:
    """Run the trajectory log at `path` again from its header (the same benchmark, kitchen and
    recipe) and compare every record. A log that cannot be read (not JSON, a record of no known
    call, ...) raises ValueError naming the file and line."""
    # The job table's `replay`, as the tool server's replay_trajectory answers it.
    refused, out = _native.job("replay", json.dumps({"log": _path(path)}), "2024")
    raw = json.loads(out)
    if refused:
        raise ValueError(raw["error"])
    difference = raw["difference"]
    return Replay(
        raw["identical"],
        raw["records"],
        None if difference is None else Difference(**difference),
    )

