"""Facts about the whole tree a scan reads, for uses one module cannot settle (scan_visitor's
`Hit.unless`): the scanner reads each module alone, then asks here only about the facts its
findings wait on, reading again only the files whose text can bear on them.

- `constructs:NAME`: the module-level function NAME (defined by one module of the tree) runs only
  while a model is built: other modules import it by name and name it only inside functions that
  run only at construction (scan_module.construction_functions: a class's `__init__` and what only
  it reaches), at least once, and nowhere else. timm's `init_weight_vit`, which `hiera.py` passes
  to `named_apply` in `__init__`, initialises float32 layers.
- `complex-spectrograms`: the tree makes only complex spectrograms: it calls `stft` at least once,
  always with `return_complex=True`, and calls `view_as_real` only if it also calls
  `view_as_complex` (a round trip); the tensors its `istft` calls take are those spectrograms
  (demucs' `ispectro(z)`, given `spectro()`'s output by other modules). scan_visitor does not ask
  about a tensor its function also packs with `view_as_complex`: that one holds real pairs.
- `uncompiled:NAME`: no compiled code of the tree reaches the function NAME (`helper` or
  `Class.method`) through the calls the tree shows (scan_reach).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from macros.tools.scan_files import Unreadable, read_source
from macros.tools.scan_module import construction_functions, identifier
from macros.tools.scan_reach import Reach, reaches

CONSTRUCTS = "constructs:"
COMPLEX_SPECTROGRAMS = "complex-spectrograms"
#: The calls the spectrogram fact reads (tests/perf/scan_sample.py keeps them in the excerpts).
SPECTROGRAM_CALLS = frozenset({"stft", "view_as_real", "view_as_complex"})


@dataclass(frozen=True)
class TreeFacts:
    """What the tree shows of the facts asked about: those that hold, and for each
    `uncompiled:` fact that does not, how compiled code reaches its function."""

    held: set[str]
    reached: dict[str, Reach]


def facts_that_hold(paths: Iterable[Path], asked: set[str]) -> set[str]:
    """Of the facts asked about, those the tree's files show."""
    return read_facts(paths, asked).held


def read_facts(paths: Iterable[Path], asked: set[str]) -> TreeFacts:
    """The facts asked about, as the tree's files show them (a file that cannot be read or
    parsed shows nothing, so a fact it could deny does not hold)."""
    paths = list(paths)
    names = {fact.removeprefix(CONSTRUCTS) for fact in asked if fact.startswith(CONSTRUCTS)}
    constructs = _Constructs(names)
    spectrograms = _Spectrograms()
    words = [*names, *(SPECTROGRAM_CALLS if COMPLEX_SPECTROGRAMS in asked else ())]
    for path in paths:
        try:
            source = read_source(path)
        except (Unreadable, OSError):
            constructs.unknown |= names
            spectrograms.denied = True
            continue
        if not any(word in source for word in words):
            continue
        try:
            module = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            constructs.unknown |= {name for name in names if name in source}
            spectrograms.denied |= any(call in source for call in SPECTROGRAM_CALLS)
            continue
        constructs.read(module)
        if COMPLEX_SPECTROGRAMS in asked:
            spectrograms.read(module)
    held = {f"{CONSTRUCTS}{name}" for name in constructs.holding()}
    if COMPLEX_SPECTROGRAMS in asked and spectrograms.holds():
        held.add(COMPLEX_SPECTROGRAMS)
    reached = reaches(paths, asked)
    held |= {fact for fact, reach in reached.items() if reach is None}
    return TreeFacts(held & asked, {fact: reach for fact, reach in reached.items() if reach is not None})


class _Constructs:
    """Where the tree names each module-level function asked about."""

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.definitions = dict.fromkeys(names, 0)
        self.at_construction = dict.fromkeys(names, 0)
        self.elsewhere = dict.fromkeys(names, 0)
        self.unknown: set[str] = set()

    def read(self, module: ast.Module) -> None:
        for statement in module.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and statement.name in self.names:
                self.definitions[statement.name] += 1
        imported: dict[str, str] = {}  # local name -> the function's name
        for node in ast.walk(module):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name in self.names:
                        imported[alias.asname or alias.name] = alias.name
            elif isinstance(node, ast.Attribute) and node.attr in self.names:
                self.elsewhere[node.attr] += 1  # `weight_init.init_fn`: not followed, so anywhere
        if not imported:
            return
        self._count(module.body, imported, construction_functions(module))

    def _count(self, body: list[ast.stmt], imported: dict[str, str], construction: set[int]) -> None:
        """Counts each load of an imported name, inside a construction function or elsewhere."""
        pending: list[tuple[ast.AST, bool]] = [(statement, False) for statement in body]
        while pending:
            node, inside = pending.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inside = inside or id(node) in construction
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in imported:
                counts = self.at_construction if inside else self.elsewhere
                counts[imported[node.id]] += 1
            pending.extend((child, inside) for child in ast.iter_child_nodes(node))

    def holding(self) -> set[str]:
        return {
            name
            for name in self.names - self.unknown
            if self.definitions[name] == 1 and self.at_construction[name] > 0 and self.elsewhere[name] == 0
        }


class _Spectrograms:
    """Whether every `stft` call of the tree asks for a complex result."""

    def __init__(self) -> None:
        self.complex_calls = 0
        self.real_views = 0
        self.complex_views = 0
        self.denied = False

    def read(self, module: ast.Module) -> None:
        for node in ast.walk(module):
            if isinstance(node, ast.Call) and identifier(node.func) == "stft":
                complex_result = any(
                    k.arg == "return_complex" and isinstance(k.value, ast.Constant) and k.value.value is True
                    for k in node.keywords
                )
                if complex_result:
                    self.complex_calls += 1
                else:
                    self.denied = True  # real (..., 2) output, or not told
            elif identifier(node) == "view_as_real":
                self.real_views += 1
            elif identifier(node) == "view_as_complex":
                self.complex_views += 1

    def holds(self) -> bool:
        # Real views the tree never turns back into complex tensors may be what istft is given;
        # with `view_as_complex` too (demucs' Wiener filter), they are a round trip.
        round_trips = self.real_views == 0 or self.complex_views > 0
        return self.complex_calls > 0 and round_trips and not self.denied
