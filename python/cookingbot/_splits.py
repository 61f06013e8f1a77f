"""The official splits (``gold/splits.json``, compiled into the package): train, dev and test
over the 30 official recipes and the project's 18 held-out ones, drawn once by the rule
docs/agents.md states ("Splits")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

from . import _native

#: The split names, in their order.
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class SplitRecipe:
    """One recipe of the splits: its `id`, the `benchmark` it comes from (``official``: the
    2024 benchmark data; ``heldout``: ``benchmarks/heldout/``), its dish `kind` (``baked``,
    ``salad`` or ``other``) and its `split`."""

    id: str
    benchmark: str
    kind: str
    split: str


def splits() -> dict[str, list[SplitRecipe]]:
    """Every split by name (``train``, ``dev``, ``test``), each recipe's benchmark and kind
    with it, by benchmark then id."""
    # The job table's `splits`, as the tool server's list_splits answers it.
    _, out = _native.job("splits", "{}", "2024")
    recipes = [SplitRecipe(**r) for r in json.loads(out)["recipes"]]
    return {name: [r for r in recipes if r.split == name] for name in SPLITS}


def split(name: str) -> list[SplitRecipe]:
    """The recipes of one split; an unknown name raises ValueError naming the three."""
    if name not in SPLITS:
        raise ValueError(f"unknown split {name!r}: expected train, dev or test")
    return splits()[name]


def heldout_folder(given: Union[str, Path, None] = None) -> Optional[Path]:
    """The held-out recipes' benchmark folder: `given`, else ``benchmarks/heldout`` of the
    folder the program runs in (the repository's root) when it is there, else None."""
    if given is not None:
        return Path(given)
    default = Path("benchmarks/heldout")
    return default if (default / "benchmark.json").is_file() else None
