"""Catalog-level query: warning filters that turn a guide's deprecation warnings into errors.

Python's `-W action:message:category` matches the literal start of a message, case-insensitively;
pytest's `filterwarnings` takes the same fields but reads the message as a regular expression, so
it is escaped there. The model keeps messages free of ":" (the field separator of both).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from macros.dataset.model import EmittedWarning
from macros.query.guide import Entry


def _regex_literal(text: str) -> str:
    """The text as a regular expression that matches it literally; unlike `re.escape`, spaces and
    backticks stay as they are, so the line reads like the message."""
    return re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", text)


@dataclass(frozen=True)
class Filters:
    covered: list[Entry]  # deprecations with a recorded warning
    uncovered: list[Entry]  # deprecations that emit none we know of
    warnings: list[EmittedWarning]  # each once, in the order of `covered`

    @property
    def pytest_lines(self) -> list[str]:
        return [f"error:{_regex_literal(w.message)}:{w.category}" for w in self.warnings]

    @property
    def python_options(self) -> str:
        return " ".join(f"-W {shlex.quote(f'error:{w.message}:{w.category}')}" for w in self.warnings)

    @property
    def any_once(self) -> bool:
        return any(w.once for w in self.warnings)


def deprecation_filters(entries: Sequence[Entry]) -> Filters:
    covered = [entry for entry in entries if entry.item.warnings]
    seen: dict[tuple[str, str], EmittedWarning] = {}
    for entry in covered:
        for warning in entry.item.warnings:
            seen.setdefault((warning.category, warning.message), warning)
    return Filters(covered, [entry for entry in entries if not entry.item.warnings], list(seen.values()))
