"""Shared by every stage: how a problem in the data is described and reported.

A problem names the file, the line and column, and the field, so that an editor can jump to it:
``data/releases/2.12.yaml:41:7: items[3].effect: 'silently' is not one of 'error', ...``.
Stages collect problems instead of raising on the first one; the edge reports them all at once.
"""

from __future__ import annotations

from dataclasses import dataclass

Path = tuple[str | int, ...]

#: Tags of the model's tagged unions (a symbol is a dotted name or a call with a keyword): they
#: name no field of the data, so a problem's field path leaves them out.
UNION_TAGS = frozenset({"dotted-name", "call-with-keyword"})


def visible(text: str) -> str:
    """`text` for a terminal: control, format and separator characters (ESC, CSI, bidirectional
    overrides, line breaks) written as Python escapes (`\\x1b`, `\\u202e`), everything else as is."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    column: int
    field: str
    message: str

    def __str__(self) -> str:
        # File names and keys come from the data as typed: shown with their control characters
        # escaped, so a name cannot clear the terminal or restyle the build log.
        return visible(f"{self.file}:{self.line}:{self.column}: {self.field}: {self.message}")


class DataError(Exception):
    """Raised once, after every problem has been collected."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__(self.report())

    def report(self) -> str:
        count = len(self.problems)
        head = f"The data has {count} problem{'s' if count != 1 else ''}; nothing was built:"
        return "\n".join([head, *(str(problem) for problem in self.problems)])


def format_path(path: Path) -> str:
    """('items', 3, 'effect') -> 'items[3].effect'; () -> '(file)'."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(file)"
