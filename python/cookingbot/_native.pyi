# The extension module; every function but metric_names, read_solution and
# servings_out_of_range speaks JSON text to cookingbot/__init__.py (the jobs of the table all
# through `job`), and Kitchen and Model to cookingbot/_kitchen.py and
# cookingbot/_model.py. A network text over 64 MiB of UTF-8 (the command line's bound on
# solution files) raises ValueError before any work; every call can be stopped by Ctrl-C
# (KeyboardInterrupt); a primitive written in Python that calls back into its own Model or a
# Kitchen of it raises RuntimeError.
from os import PathLike
from typing import Callable, Optional, Sequence, Union

_Path = Union[str, PathLike[str]]

def job(
    name: str,
    request: str,
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> tuple[bool, str]: ...
def benchmark_recipes(reference: str, path: Optional[_Path] = None) -> str: ...
def metric_names() -> list[str]: ...
def read_solution(path: _Path) -> str: ...
def score_batch(
    names: Sequence[str],
    texts: Sequence[Optional[str]],
    metrics: Optional[Sequence[str]],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def batch_csv(report: str) -> str: ...
def solution_files(inputs: Sequence[_Path]) -> tuple[list[str], bool, str]: ...
def servings_out_of_range(what: str, count: str) -> str: ...
def main(argv: Sequence[str]) -> int: ...
def corpus_interval(scores: Sequence[Optional[float]], bootstrap: int, seed: int) -> str: ...
def repair_rules(
    recipe: str,
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...

class Kitchen:
    """An agent session: `job` asks a kitchen session's job of the table on it (refused, the
    answer's or refusal's JSON); `clone` is the job `kitchen_fork`, the fork a new Kitchen;
    `network` is `kitchen_network`'s `network` without the JSON (the gym's fast path)."""

    def __init__(
        self,
        recipe: str,
        reference: str,
        benchmark: Optional[_Path] = None,
        kitchen: Optional[_Path] = None,
        log: Optional[_Path] = None,
        variation: int = 0,
    ) -> None: ...
    def clone(self) -> "Kitchen": ...
    def network(self) -> str: ...
    def job(self, name: str, request: str) -> tuple[bool, str]: ...

class Model:
    """A model with primitives written in Python; `code` takes the request's JSON text and
    returns (True, the answer's JSON text) or (False, why the action is refused). `job` asks a
    job of the table in the model's workspace, as the module's `job` asks it in the data's."""

    def __init__(
        self,
        reference: str,
        benchmark: Optional[_Path] = None,
        kitchen: Optional[_Path] = None,
        gold: Optional[_Path] = None,
    ) -> None: ...
    def add_primitive(
        self, entry: str, code: Callable[[str], tuple[bool, str]], kitchen: bool = False
    ) -> None: ...
    def primitives(self) -> list[str]: ...
    def job(self, name: str, request: str) -> tuple[bool, str]: ...
    def kitchen(self, recipe: str) -> Kitchen: ...
