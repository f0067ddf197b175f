"""Renderers' memory across `mkdocs serve` rebuilds: an output kept with the inputs it was made from.

Under `mkdocs serve` a data file that did not change keeps its frozen records (catalog.py loads
files one by one and reuses what it loaded), so an output made only from unchanged records need
not be made again. Each output names its inputs: records are compared by identity, any other
value by equality. A one-off `mkdocs build` makes everything once and never hits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T")


class MadeFrom:
    """Outputs by name, each with the inputs it was made from."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[tuple[object, ...], Any]] = {}

    def get(self, name: str, inputs: tuple[object, ...], make: Callable[[], T]) -> T:
        kept = self._kept.get(name)
        if kept is not None and len(kept[0]) == len(inputs) and all(map(_same, kept[0], inputs)):
            return kept[1]  # type: ignore[no-any-return]
        made = make()
        self._kept[name] = (inputs, made)
        return made


def _same(kept: object, now: object) -> bool:
    return kept is now if isinstance(now, BaseModel) else kept == now
