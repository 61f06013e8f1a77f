"""The kitchen as a ``gymnasium`` environment: :class:`KitchenEnv` (also registered as
``cookingbot/Kitchen-v0`` for ``gymnasium.make``, and per official split as
``cookingbot/Kitchen-train-v0``, ``-dev-v0`` and ``-test-v0``, whose every `reset` draws a
recipe of the split with the environment's seeded generator). It needs gymnasium, which the
package does not require (``pip install gymnasium``).

Observations and actions are text (the spaces :class:`Text` and :class:`ActionLines`, each
printed on one line; ``action_space.sample()`` draws one of the lines that run in the current
kitchen, from the space's own seeded generator):

- an action is one line of MUHAI Cooking Language, or ``undo`` (take the last line back),
  ``look NAME`` (a variable or a place), ``score`` (how far the network is: the recipe's goal
  conditions reached and the best dish so far, without ending the episode), ``admissible`` (the
  lines that run now, placeholders with what bounds them), ``primitives`` (the action language),
  or ``finish`` (score the network and end the episode); there is no hint here, as it reveals
  the gold;
- the observation is what the :class:`cookingbot.Kitchen` said, in words: after `reset` the
  recipe text and the kitchen, after a line what ran and what it made or why not, each
  diagnostic on a line of its own (``line 3, column 12: error: ... (hint)``).

Reward, with ``reward_mode="final"`` (the default): 0 for every action but ``finish``, whose
reward is the network's dish approximation score (0 when the reference refuses the network or
it makes no dish), the metric the benchmark ranks by. With ``reward_mode="progress"``: after
every action, the gain in the share of the recipe's goal conditions reached
(:meth:`cookingbot.Kitchen.progress`; negative when ``undo`` takes a reached goal back), so the
rewards of an episode add up to the goal share reached; ``finish`` ends it with no more reward.
Neither changes the score: ``finish`` is the evaluation of the network's file. ``finish``
terminates the episode. After `max_steps` actions (200 by default) without
``finish`` the episode is truncated, with reward 0: an agent is scored only on a network it
finishes. `info` holds the :class:`cookingbot.Observation` (``observation``), the network so
far (``network``), with ``reward_mode="progress"`` or after ``score`` the
:class:`cookingbot.Progress` (``progress``) and, after ``finish``, the :class:`cookingbot.Score`
(``score``).

With `log`, the episode's kitchen calls are logged as :class:`cookingbot.Kitchen` logs them
(each `reset` a record), and :func:`cookingbot.replay` runs the log again. An environment of a
split logs into the folder `log`, a log per recipe drawn (``<recipe>.jsonl``).
"""

from __future__ import annotations

import copy as copy_module
import re
from pathlib import Path
from typing import Any, Optional

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as missing:  # pragma: no cover - what users without gymnasium see
    raise ImportError(
        "cookingbot.gym needs gymnasium, which cookingbot does not install: pip install gymnasium"
    ) from missing

from . import PathArg
from ._kitchen import Kitchen, Observation
from ._model import Model
from ._splits import SPLITS, heldout_folder, split as split_recipes

__all__ = ["ActionLines", "ENV_IDS", "KitchenEnv", "MAX_ACTION", "MAX_OBSERVATION", "REWARD_MODES", "Text"]

#: The longest action: the session's longest line, in bytes.
MAX_ACTION = 4096
#: The longest observation, in characters; longer ones are cut with a note of how much.
MAX_OBSERVATION = 65_536

#: How an episode is rewarded (see the module's documentation).
REWARD_MODES = ("final", "progress")


#: What an observation may not hold, each shown as `?`: the control characters other than tab
#: and line feed, the surrogates, and what lies beyond the Basic Multilingual Plane (recipe
#: texts are anyone's words).
_OUTSIDE = re.compile("[^\t\n\x20-\x7e\x80-\ud7ff\ue000-\uffff]")


def _within(text: str) -> str:
    """`text` as an observation of the space: a character outside it as `?`, cut at its
    length with a note of how much was cut."""
    text = _OUTSIDE.sub("?", text) or "?"
    if len(text) > MAX_OBSERVATION:
        kept = MAX_OBSERVATION - 64
        text = f"{text[:kept]}\n... ({len(text) - kept} more characters)"
    return text


class Text(spaces.Space[str]):
    """Texts of 1 to `max_length` characters without the characters an observation may not
    hold. Unlike ``gymnasium.spaces.Text`` it keeps no character set, so it is made at once
    and prints on one line; `sample` draws printable ASCII."""

    def __init__(self, max_length: int, seed: Optional[int] = None):
        super().__init__(shape=None, dtype=None, seed=seed)
        self.max_length = max_length

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        return (
            isinstance(x, str)
            and 1 <= len(x) <= self.max_length
            and _OUTSIDE.search(x) is None
        )

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        _no_mask(mask, probability)
        length = int(self.np_random.integers(1, min(self.max_length, 64) + 1))
        return "".join(chr(c) for c in self.np_random.integers(0x20, 0x7F, length))

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other.max_length == self.max_length

    def __repr__(self) -> str:
        return f"{type(self).__name__}(max_length={self.max_length})"


class ActionLines(Text):
    """The actions of a :class:`KitchenEnv`: texts of at most `MAX_ACTION` characters. `sample`
    draws one of the lines that run now (at most `breadth` of them, in the session's order;
    :meth:`cookingbot.Kitchen.admissible`, with their example values) with the space's
    generator, so a seeded space draws the same lines again on the same episode; ``finish``
    when no line runs."""

    def __init__(self, kitchen: Kitchen, breadth: int = 50, seed: Optional[int] = None):
        super().__init__(MAX_ACTION, seed=seed)
        self.kitchen = kitchen
        self.breadth = breadth

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        _no_mask(mask, probability)
        offered = self.kitchen.admissible(self.breadth)
        if not offered:
            return "finish"
        return offered[int(self.np_random.integers(len(offered)))].example

    def __deepcopy__(self, memo: dict) -> "ActionLines":
        # A copy (as a vector environment batches the space) samples the same kitchen.
        copy = ActionLines(self.kitchen, self.breadth)
        copy._np_random = copy_module.deepcopy(self._np_random, memo)
        return copy


def _no_mask(mask: Any, probability: Any) -> None:
    if mask is not None or probability is not None:
        raise ValueError("cookingbot's text spaces sample without a mask or probabilities")


def words(seen: Observation) -> str:
    """An observation in words: its text, then each diagnostic on a line."""
    lines = [seen.text]
    for d in seen.diagnostics:
        hint = f" ({d.hint})" if d.hint else ""
        lines.append(f"line {d.line}, column {d.column}: {d.severity}: {d.message}{hint}")
    return "\n".join(lines)


class _Current:
    """The kitchen an environment's episode is on now, for its action space (and the copies
    a vector environment makes of it) to sample from after a reset drew another recipe."""

    def __init__(self, env: "KitchenEnv"):
        self.env = env

    def admissible(self, limit: int) -> list:
        return self.env.kitchen.admissible(limit)


class KitchenEnv(gymnasium.Env):
    """One recipe's kitchen as an episode (see the module's documentation): `recipe_id` of
    the benchmark of `reference`/`benchmark`/`kitchen`, or of a :class:`cookingbot.Model`; its
    generated variation `variation` when above 0 (:class:`cookingbot.Kitchen`).

    With `split` (``train``, ``dev`` or ``test``) instead of `recipe_id`, every `reset` draws a
    recipe of that official split (:func:`cookingbot.splits`) with the environment's generator,
    so ``reset(seed=S)`` draws the same recipe anywhere; the official recipes are read from
    `benchmark` (the official data by default), the held-out ones from `heldout` (by default
    ``benchmarks/heldout`` of the folder the program runs in). `info` names the recipe
    (``recipe``)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        recipe_id: Optional[str] = None,
        *,
        split: Optional[str] = None,
        heldout: PathArg = None,
        reference: Optional[str] = None,
        benchmark: PathArg = None,
        kitchen: PathArg = None,
        model: Optional[Model] = None,
        max_steps: int = 200,
        render_mode: Optional[str] = None,
        reward_mode: str = "final",
        log: PathArg = None,
        variation: int = 0,
    ):
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode {reward_mode!r}: one of {', '.join(REWARD_MODES)}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' renders")
        if (recipe_id is None) == (split is None):
            raise ValueError("a KitchenEnv is given a recipe_id or a split, not both")
        settings = dict(reference=reference, kitchen=kitchen, model=model, variation=variation)
        self._recipes = split_recipes(split) if split is not None else []
        self._kitchens: dict[str, Kitchen] = {}
        self.kitchen: Optional[Kitchen] = None
        if split is None:
            self.kitchen = Kitchen(recipe_id, benchmark=benchmark, log=log, **settings)
        else:
            folders = {"official": benchmark, "heldout": heldout_folder(heldout)}
            if folders["heldout"] is None and any(r.benchmark == "heldout" for r in self._recipes):
                raise ValueError(
                    f"the {split} split holds held-out recipes: give heldout=, the folder of "
                    "benchmarks/heldout, or run from the repository's root"
                )
            self._open = lambda r: Kitchen(
                r.id,
                benchmark=folders[r.benchmark],
                log=None if log is None else Path(log) / f"{r.id}.jsonl",
                **settings,
            )
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self._share = 0.0
        self.observation_space = Text(MAX_OBSERVATION)
        self.action_space = ActionLines(_Current(self))
        self._steps = 0
        self._last = ""

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        if self._recipes:
            drawn = self._recipes[int(self.np_random.integers(len(self._recipes)))]
            if drawn.id not in self._kitchens:
                self._kitchens[drawn.id] = self._open(drawn)
            self.kitchen = self._kitchens[drawn.id]
        seen = self.kitchen.reset()
        self._steps = 0
        self._share = 0.0
        self._last = _within(words(seen))
        info = {"observation": seen, "network": self.kitchen.network()}
        return self._last, {"recipe": self.kitchen.recipe, **info}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self.kitchen is None:
            raise RuntimeError("a split's environment draws its recipe at reset(): reset first")
        self._steps += 1
        command = action.strip()
        reward, terminated = 0.0, False
        info: dict[str, Any] = {}
        if command == "finish":
            score = self.kitchen.finish()
            if self.reward_mode == "final":
                reward = float(score.dish_approximation_score or 0.0)
            terminated = True
            info["score"] = score
            text = score.refused or ", ".join(
                f"{metric} {cell}" for metric, cell in zip(_METRICS, score.printed)
            )
        elif command == "score":
            progress = self.kitchen.progress()
            info["progress"] = progress
            text = progress.text
        elif command == "undo":
            taken = self.kitchen.undo()
            text = f"took back: {taken}" if taken is not None else "nothing to undo"
        elif command == "admissible":
            offered = self.kitchen.admissible()
            info["admissible"] = offered
            text = admissible_words(offered)
        elif command == "primitives":
            text = "\n".join(f"{p.form} ; {p.does}" for p in self.kitchen.primitives())
        elif command.startswith("look ") or command == "look":
            try:
                text = self.kitchen.look(command[4:].strip()).text
            except ValueError as error:
                text = str(error)
        else:
            seen = self.kitchen.step(action)
            info["observation"] = seen
            text = words(seen)
        if self.reward_mode == "progress" and not terminated:
            progress = info.get("progress") or self.kitchen.progress()
            info["progress"] = progress
            reward, self._share = progress.goal_share - self._share, progress.goal_share
        info["network"] = self.kitchen.network()
        truncated = not terminated and self._steps >= self.max_steps
        self._last = _within(text)
        return self._last, reward, terminated, truncated, info

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self._last
        return None


def admissible_words(offered: list) -> str:
    """Admissible lines as an agent reads them: a line each, placeholders with their bounds
    after it."""
    lines = []
    for c in offered:
        lines.append(c.line)
        lines.extend(f"    <{p['argument']}>: {p['bound']}" for p in c.placeholders)
    return "\n".join(lines) or "nothing runs now"


_METRICS = ("smatch", "goal-condition success", "dish", "time")

#: The ids ``gymnasium.make`` knows, each with the arguments of :class:`KitchenEnv` it fixes.
ENV_IDS: dict[str, dict[str, Any]] = {
    "cookingbot/Kitchen-v0": {},
    **{f"cookingbot/Kitchen-{name}-v0": {"split": name} for name in SPLITS},
}

for _id, _fixed in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="cookingbot.gym:KitchenEnv", kwargs=_fixed)
