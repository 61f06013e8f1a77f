# The extension module; every function but metric_names speaks JSON text to cookingbot/__init__.py.
from os import PathLike
from typing import Optional, Sequence, Union

_Path = Union[str, PathLike[str]]

def evaluate_texts(
    texts: Sequence[str],
    metrics: Optional[Sequence[str]],
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def check(text: str, reference: str) -> str: ...
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
def compare_systems(
    systems: Sequence[_Path],
    metrics: Optional[Sequence[str]],
    bootstrap: int,
    seed: int,
    reference: str,
    benchmark: Optional[_Path] = None,
    kitchen: Optional[_Path] = None,
) -> str: ...
def metric_names() -> list[str]: ...
def main(argv: Sequence[str]) -> int: ...
