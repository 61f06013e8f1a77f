"""The kitchen as a ``gymnasium`` environment: :class:`KitchenEnv` (also registered as
``cookingbot/Kitchen-v0`` for ``gymnasium.make``). It needs gymnasium, which the package does
not require (``pip install gymnasium``).

Observations and actions are text (``gymnasium.spaces.Text``):

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
(each `reset` a record), and :func:`cookingbot.replay` runs the log again.
"""

from __future__ import annotations

import functools
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

__all__ = ["KitchenEnv", "MAX_ACTION", "MAX_OBSERVATION", "REWARD_MODES"]

#: The longest action: the session's longest line, in bytes.
MAX_ACTION = 4096
#: The longest observation, in characters; longer ones are cut with a note of how much.
MAX_OBSERVATION = 65_536

#: How an episode is rewarded (see the module's documentation).
REWARD_MODES = ("final", "progress")


@functools.lru_cache(maxsize=None)
def _charset() -> frozenset[str]:
    """Every character an observation or an action may hold: those of the Basic Multilingual
    Plane but the surrogates and the control characters other than tab and line feed (recipe
    texts are anyone's words)."""
    return frozenset(
        chr(c)
        for c in range(0x10000)
        if (c >= 0x20 or c in (0x09, 0x0A)) and c != 0x7F and not 0xD800 <= c < 0xE000
    )


def _within(text: str) -> str:
    """`text` as an observation of the space: a character outside it as `?`, cut at its
    length with a note of how much was cut."""
    charset = _charset()
    text = "".join(c if c in charset else "?" for c in text) or "?"
    if len(text) > MAX_OBSERVATION:
        kept = MAX_OBSERVATION - 64
        text = f"{text[:kept]}\n... ({len(text) - kept} more characters)"
    return text


def words(seen: Observation) -> str:
    """An observation in words: its text, then each diagnostic on a line."""
    lines = [seen.text]
    for d in seen.diagnostics:
        hint = f" ({d.hint})" if d.hint else ""
        lines.append(f"line {d.line}, column {d.column}: {d.severity}: {d.message}{hint}")
    return "\n".join(lines)


class KitchenEnv(gymnasium.Env):
    """One recipe's kitchen as an episode (see the module's documentation): `recipe_id` of
    the benchmark of `reference`/`benchmark`/`kitchen`, or of a :class:`cookingbot.Model`."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        recipe_id: str,
        *,
        reference: Optional[str] = None,
        benchmark: PathArg = None,
        kitchen: PathArg = None,
        model: Optional[Model] = None,
        max_steps: int = 200,
        render_mode: Optional[str] = None,
        reward_mode: str = "final",
        log: PathArg = None,
    ):
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode {reward_mode!r}: one of {', '.join(REWARD_MODES)}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' renders")
        self.kitchen = Kitchen(
            recipe_id,
            reference=reference,
            benchmark=benchmark,
            kitchen=kitchen,
            model=model,
            log=log,
        )
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self._share = 0.0
        self.observation_space = spaces.Text(MAX_OBSERVATION, min_length=1, charset=_charset())
        self.action_space = spaces.Text(MAX_ACTION, min_length=1, charset=_charset())
        self._steps = 0
        self._last = ""

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        seen = self.kitchen.reset()
        self._steps = 0
        self._share = 0.0
        self._last = _within(words(seen))
        return self._last, {"observation": seen, "network": self.kitchen.network()}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
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

gymnasium.register(id="cookingbot/Kitchen-v0", entry_point="cookingbot.gym:KitchenEnv")
