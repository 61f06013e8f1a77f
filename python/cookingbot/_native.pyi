# The extension module; every function but metric_names and read_solution speaks JSON text to
# cookingbot/__init__.py, and Kitchen and Model to cookingbot/_kitchen.py and
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
def evaluate_texts(
    texts: Sequence[str],
    metrics: Optional[Sequence[str]],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def check(text: str, reference: str, benchmark: Optional[_Path] = None) -> str: ...
def simulate(
    text: str,
    recipe: Optional[str],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def smatch(test: str, gold: str, exact: bool, exact_budget: int) -> str: ...
def translate(text: str, reference: str) -> str: ...
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
def substitute(
    text: str,
    replace: str,
    replacement: str,
    amount_rule: Optional[str],
    recipe: Optional[str],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def suggest_substitutes(
    ingredient: str,
    diet: Optional[str],
    text: Optional[str],
    recipe: Optional[str],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def scale(
    text: str,
    factor: Optional[str],
    servings: Optional[int],
    serves: Optional[int],
    recipe: Optional[str],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def diet(
    text: str,
    diet: str,
    recipe: Optional[str],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def guide(
    text: str,
    recipe: Optional[str],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def main(argv: Sequence[str]) -> int: ...
def corpus_interval(scores: Sequence[Optional[float]], bootstrap: int, seed: int) -> str: ...
def repair_rules(
    recipe: str,
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...

class Kitchen:
    """An agent session; every method but undo, network, waiting and unbound answers JSON."""

    def __init__(
        self,
        recipe: str,
        reference: str,
        benchmark: Optional[_Path] = None,
        kitchen: Optional[_Path] = None,
        log: Optional[_Path] = None,
        variation: int = 0,
    ) -> None: ...
    @property
    def recipe(self) -> str: ...
    def clone(self) -> "Kitchen": ...
    def lines(self) -> list[str]: ...
    @property
    def variation(self) -> int: ...
    def variation_gold(self) -> str: ...
    def reset(self) -> str: ...
    def opening(self) -> str: ...
    def step(self, line: str) -> str: ...
    def look(self, name: str) -> str: ...
    def undo(self) -> Optional[str]: ...
    def network(self) -> str: ...
    def waiting(self) -> list[int]: ...
    def unbound(self) -> list[str]: ...
    def progress(self) -> str: ...
    def primitives(self) -> str: ...
    def admissible(
        self, limit: int, primitive: Optional[str] = None, using: Optional[str] = None
    ) -> str: ...
    def hint(self) -> str: ...
    def finish(self) -> str: ...

class Model:
    """A model with primitives written in Python; `code` takes the request's JSON text and
    returns (True, the answer's JSON text) or (False, why the action is refused)."""

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
    def language(self) -> str: ...
    def evaluate_texts(
        self, texts: Sequence[str], metrics: Optional[Sequence[str]] = None
    ) -> str: ...
    def simulate(self, text: str, recipe: Optional[str] = None) -> str: ...
    def kitchen(self, recipe: str) -> Kitchen: ...
