"""The hand-checked sample of the scanner on real code (tests/fixtures/scan_sample/sample.tsv):
reading it, measuring precision and recall against a scan, and vendoring excerpts.

Each entry names a tree, a place (path:line), an item and a verdict checked by reading the code.
`finding` entries are findings the scanner reported (verdict: true or false alarm); `use` entries
are real uses found by an independent text search (PATTERNS), to measure recall.

    python tests/perf/scan_sample.py --vendor    # rewrite the excerpts from the bench's cache

An excerpt is the file's imports plus the function (or top-level statement) around the line, the
module's functions the sampled statement names and the module-level statements writing a name it
reads (a registered op's function, a table it passes), and the module's functions making what the
scanner's facts about the whole tree read (TREE_EVIDENCE), kept at their indentation under
`if True:` lines, so tests/test_scan_sample.py can measure the
same sample without the trees (each a few megabytes, downloaded by `make scan-bench` only).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from macros.tools.scan_tree import SPECTROGRAM_CALLS  # noqa: E402 (the checkout, not an installed copy)

SAMPLE = ROOT / "tests" / "fixtures" / "scan_sample" / "sample.tsv"
EXCERPTS = SAMPLE.parent
#: The licence each tree's PKG-INFO states (the excerpts keep it in their first line); Apache-2.0
#: for the others.
LICENCES = {"demucs-4.0.1": "MIT", "open_clip_torch-3.3.0": "MIT", "pytorch_ignite-0.5.2": "BSD-3-Clause"}
#: The independent search for `use` entries: regular expressions over the source text (no AST,
#: no import resolution) for what changed between 2.8 and 2.13.
PATTERNS = [
    r"torch\.jit\.\w+",
    r"@jit\.\w+",
    r"export_for_training",
    r"torch\.export\.export\(",
    r"onnx\.export\(",
    r"library\.custom_op\(",
    r"all_gather_into_tensor|reduce_scatter_tensor\b",
    r"\bfully_shard\(",
    r"\bDeviceMesh\(",
    r"load_state_dict_from_url\(",
    r"hub\.(load|list|help)\(",
    r"linalg\.(svd|svdvals|lstsq|solve_triangular|eigh|lu_solve)\(",
    r"trunc_normal_\(",
    r"fullgraph=True",
    r"max-autotune",
    r"distributed\.nn\.(functional|all_gather|all_reduce)",
    r"\bflex_attention\(",
    r"antialias=True",
    r"fused=True",
    r"pin_memory_device",
    r"_check_is_size|guard_size_oblivious|hint_int\b",
    r"torch\.(tan|tanh|kthvalue)\(",
    r"preferred_linalg_library",
    r"torch\.ao\.quantization|torch\.quantization\b",
    r"use_deterministic_algorithms",
    r"_inductor\.config\.\w+",
    r"_dynamo\.config\.\w+",
]


@dataclass(frozen=True)
class Entry:
    tree: str
    range: str  # "2.8-2.13": the --from/--to the entry was drawn and judged for
    kind: str  # finding or use
    path: str
    line: int
    item: str
    verdict: bool
    why: str

    @property
    def bounds(self) -> tuple[str, str]:
        start, end = self.range.split("-")
        return start, end

    @property
    def excerpt(self) -> Path:
        """The vendored excerpt of the entry's file: one per file, whatever the number of entries."""
        return EXCERPTS / self.tree / self.path.replace("/", "__")


def load_sample() -> list[Entry]:
    entries = []
    for text in SAMPLE.read_text(encoding="utf-8").splitlines():
        if not text.strip() or text.startswith("#"):
            continue
        tree, scope, kind, where, item, verdict, why = text.split("\t")
        path, line = where.rsplit(":", 1)
        entries.append(Entry(tree, scope, kind, path, int(line), item, verdict == "true", why))
    return entries


@dataclass(frozen=True)
class Measure:
    reported_true: int
    reported: int
    uses_found: int
    uses: int

    @property
    def precision(self) -> float:
        return self.reported_true / self.reported if self.reported else 1.0

    @property
    def recall(self) -> float:
        return self.uses_found / self.uses if self.uses else 1.0

    def __str__(self) -> str:
        return (
            f"precision {self.precision:.1%} ({self.reported_true}/{self.reported} sampled findings true), "
            f"recall {self.recall:.1%} ({self.uses_found}/{self.uses} real uses found)"
        )


def measure(
    entries: list[Entry], reported: set[tuple[str, int, str]], later: dict[str, set[str]] | None = None
) -> Measure:
    """`reported`: (path, line, item) of the scan's findings, paths relative to the tree. `later`:
    per item, the later steps of its lifecycle (lifecycle_successors): a place reported for one of
    them stands for the earlier step too (the scanner names only the latest step at a place).
    Uses judged false (a name the item no longer concerns) are kept in the file, not counted."""
    later = later or {}

    def found(entry: Entry) -> bool:
        return any((entry.path, entry.line, item) in reported for item in {entry.item, *later.get(entry.item, ())})

    findings = [e for e in entries if e.kind == "finding" and found(e)]
    uses = [e for e in entries if e.kind == "use" and e.verdict]
    return Measure(sum(e.verdict for e in findings), len(findings), sum(found(e) for e in uses), len(uses))


def lifecycle_successors(data: object) -> dict[str, set[str]]:
    """Item -> the items that supersede it at a place where both are met (macros/tools/scan.py
    `_supersedes`: a later item that follows it, removes its name, or retires the same name)."""
    from macros.tools.scan import _supersedes, scan_data
    from macros.tools.scan_call import Rule

    rules = [Rule.of(symbol, item) for item in scan_data(data).items for symbol in item.symbols]
    successors: dict[str, set[str]] = {}
    by_name: dict[str, list[Rule]] = {}
    for rule in rules:
        by_name.setdefault(rule.name, []).append(rule)
    for rule in rules:
        for other in rules if rule.item.follows else ():
            if _supersedes(rule, other):
                successors.setdefault(other.item.id, set()).add(rule.item.id)
        for other in by_name[rule.name]:
            if _supersedes(rule, other):
                successors.setdefault(other.item.id, set()).add(rule.item.id)
    changed = True
    while changed:  # a chain: 2.1 -> 2.2 -> 2.3
        changed = False
        for after in successors.values():
            more = set().union(*(successors.get(a, set()) for a in after)) - after
            if more:
                after |= more
                changed = True
    return successors


def star_imports(path: Path) -> Callable[[ast.ImportFrom], list[str]]:
    """For `from .m import *` in the file at `path`: m's own top-level absolute imports, which that
    line binds here too (the excerpt has no m beside it)."""

    def read(node: ast.ImportFrom) -> list[str]:
        folder = path.parent
        for _ in range(node.level - 1):
            folder = folder.parent
        base = folder.joinpath(*node.module.split(".")) if node.module else folder
        target = next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)
        if target is None:
            return []
        text = target.read_text(encoding="utf-8")
        found = []
        for statement in _top_level(ast.parse(text).body):
            if isinstance(statement, ast.Import) or (isinstance(statement, ast.ImportFrom) and not statement.level):
                found += [line.strip() for line in text.splitlines()[statement.lineno - 1 : statement.end_lineno]]
        return found

    return read


def excerpt(
    source: str,
    lines: list[int],
    stars: Callable[[ast.ImportFrom], list[str]] | None = None,
    evidence: Iterable[int] = (),
) -> tuple[str, dict[int, int]]:
    """The file's imports and the code around each of `lines` (the function, or top-level
    statement, that holds it; a block inside another chosen block is kept once, as part of it)
    and around each line of `evidence` (what scan_reach's search read), and where each of `lines`
    lands in that text. A method kept without its class (a long one) is kept under the class's
    header, which says what the class derives from."""
    module = ast.parse(source)
    text = source.splitlines()
    imports: list[str] = []
    for statement in _top_level(module.body):
        if isinstance(statement, ast.Import | ast.ImportFrom):
            imports += [line.strip() for line in text[statement.lineno - 1 : statement.end_lineno]]
            if stars and isinstance(statement, ast.ImportFrom) and statement.level and statement.names[0].name == "*":
                imports += [f"{line}  # bound by this star import" for line in stars(statement)]
    spans = sorted(
        {_span(_enclosing(module, line)) for line in lines}
        | {_span(function) for line in lines for function in _functions_named(module, line)}
        | {_span(function) for function in _tree_evidence(module)}
        | {_span(_enclosing(module, line)) for line in evidence}
    )
    outer = [span for span in spans if not any(o != span and o[0] <= span[0] and span[1] <= o[1] for o in spans)]
    body: list[str] = list(imports)
    where: dict[int, int] = {}
    for first, last in outer:
        block = text[first - 1 : last]
        indent = len(block[0]) - len(block[0].lstrip())
        owner = _class_holding(module, first)
        header = text[owner.lineno - 1 : owner.body[0].lineno - 1] if owner is not None and indent else []
        body += header
        body += [" " * level + "if True:" for level in range(4 if header else 0, indent, 4)]
        for line in lines:
            if first <= line <= last:
                where[line] = len(body) + line - first + 1
        body += block
    return "\n".join(body) + "\n", where


def _class_holding(module: ast.Module, line: int) -> ast.ClassDef | None:
    """The top-level class whose body holds the line."""
    for node in module.body:
        if isinstance(node, ast.ClassDef) and node.body[0].lineno <= line <= (node.end_lineno or 0):
            return node
    return None


def _functions_named(module: ast.Module, line: int) -> list[ast.stmt]:
    """The module's top-level functions that the innermost statement holding `line` names (a
    registration `custom_op("ns::op", fn)` reads what `fn` returns), and the module-level
    statements that write a name it reads (a translation table it passes)."""
    holding = [
        node
        for node in ast.walk(module)
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    if not holding:
        return []
    innermost = max(holding, key=lambda node: (node.lineno, -(node.end_lineno or node.lineno)))
    if isinstance(innermost, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return []
    names = {node.id for node in ast.walk(innermost) if isinstance(node, ast.Name)}
    return [
        statement
        for statement in _top_level(module.body)
        if (isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and statement.name in names)
        or _writes(statement) & names
    ]


#: Calls the scanner's facts about the whole tree read (the tree's spectrograms are complex): a
#: sampled file's top-level functions making them are kept.
TREE_EVIDENCE = SPECTROGRAM_CALLS


def _tree_evidence(module: ast.Module) -> list[ast.stmt]:
    """The module's top-level functions that call what scan_tree reads (TREE_EVIDENCE)."""
    return [
        statement
        for statement in module.body
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(
            isinstance(node, ast.Call)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", ""))
            in TREE_EVIDENCE
            for node in ast.walk(statement)
        )
    ]


def _writes(statement: ast.stmt) -> set[str]:
    """The module-level names a simple statement writes: `T = ...`, `T: dict = {}`, `T[k] = v`,
    `T.update(...)` (a table the sampled call is given)."""
    if isinstance(statement, ast.Assign | ast.AnnAssign):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return {
            (target.value if isinstance(target, ast.Subscript) else target).id  # type: ignore[union-attr]
            for target in targets
            if isinstance(target.value if isinstance(target, ast.Subscript) else target, ast.Name)
        }
    if (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Attribute)
        and isinstance(statement.value.func.value, ast.Name)
    ):
        return {statement.value.func.value.id}
    return set()


def _span(node: ast.stmt) -> tuple[int, int]:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return first, node.end_lineno or node.lineno


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    found: list[ast.stmt] = []
    for statement in body:
        found.append(statement)
        if isinstance(statement, ast.If | ast.Try):
            for block in (statement.body, statement.orelse, *(h.body for h in getattr(statement, "handlers", []))):
                found += _top_level(block)
    return found


#: A sampled line in a method keeps its whole class when the class is at most this long, so the
#: excerpt holds what the scanner reads about `self.<attr>` (the dtype a parameter is made with).
CLASS_LINES = 400


def _enclosing(module: ast.Module, line: int) -> ast.stmt:
    best: ast.stmt | None = None
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if start <= line <= (node.end_lineno or 0) and (best is None or node.lineno > best.lineno):
                best = node
    if best is not None:
        for node in module.body:  # a method of a top-level class: the class, when it is short
            if (
                isinstance(node, ast.ClassDef)
                and node.lineno <= best.lineno <= (node.end_lineno or 0)
                and (node.end_lineno or 0) - node.lineno < CLASS_LINES
            ):
                return node
        return best
    return next(s for s in module.body if s.lineno <= line <= (s.end_lineno or 0))


def vendor(cache: Path) -> None:
    """One excerpt per sampled file, and per file holding what the search for compiled callers
    read (reach_evidence); its first line maps each sampled line to its place:
    `lines 66@31 95@40` (original@excerpt, both counted from 1, the header included)."""
    by_file: dict[Path, tuple[str, str, set[int], set[int]]] = {}  # tree, path, sampled, evidence
    entries = load_sample()
    for entry in entries:
        by_file.setdefault(entry.excerpt, (entry.tree, entry.path, set(), set()))[2].add(entry.line)
    for tree, path, line in reach_evidence(cache, entries):
        target = EXCERPTS / tree / path.replace("/", "__")
        by_file.setdefault(target, (tree, path, set(), set()))[3].add(line)
    for target in EXCERPTS.glob("*/*.py"):
        if target not in by_file:
            target.unlink()  # no entry left in that file
    for target, (tree, relative, lines, evidence) in by_file.items():
        path = cache / tree / relative
        text, where = excerpt(path.read_text(encoding="utf-8"), sorted(lines), star_imports(path), evidence)
        places = " ".join(f"{line}@{where[line] + 1}" for line in sorted(lines))
        kept = "the sampled lines" if lines else "what the scanner's search for compiled callers reads"
        origin = (
            f"# {tree} {relative} ({LICENCES.get(tree, 'Apache-2.0')}), imports and the code around {kept};"
            f" lines {places}\n"
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(origin + text, encoding="utf-8")


def reach_evidence(cache: Path, entries: list[Entry]) -> set[tuple[str, str, int]]:
    """(tree, path, line) of each function scan_reach's search reads to find a sampled use of a
    `compiled` rule reached from compiled code in other modules, so that the excerpts show it."""
    from macros.query.catalog import open_catalog
    from macros.tools.scan import python_files, rules_for
    from macros.tools.scan_reach import CallerSearch, Target

    catalog = open_catalog(ROOT / "data")
    compiled_items = {
        rule.item.id for scope in {e.bounds for e in entries} for rule in rules_for(catalog, *scope) if rule.compiled
    }
    found: set[tuple[str, str, int]] = set()
    trees: dict[str, CallerSearch] = {}
    for entry in entries:
        if entry.item not in compiled_items:
            continue
        root = cache / entry.tree
        module = ast.parse((root / entry.path).read_text(encoding="utf-8"))
        start = _outermost_function(module, entry.line)
        if start is None:
            continue
        if entry.tree not in trees:
            trees[entry.tree] = CallerSearch([c.path for c in python_files([root]) if c.problem is None])
        reach = trees[entry.tree].search(Target(*start))
        for path, node in reach.evidence if reach is not None else ():
            found.add((entry.tree, path.relative_to(root).as_posix(), node.lineno))  # type: ignore[attr-defined]
    return found


def _outermost_function(module: ast.Module, line: int) -> tuple[str, str | None] | None:
    """The name of the outermost function holding the line, and its class's, if a method."""
    for node in module.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.lineno <= line <= (node.end_lineno or 0):
            return node.name, None
        if isinstance(node, ast.ClassDef):
            for method in node.body:
                if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    method.lineno <= line <= (method.end_lineno or 0)
                ):
                    return method.name, node.name
    return None


def excerpt_origin(path: Path) -> str:
    """The sampled file's path in its tree, from the excerpt's first line (file names flatten `/`
    to `__`, which `__init__.py` makes ambiguous)."""
    with path.open(encoding="utf-8") as file:
        return file.readline().split(" ")[2]


def excerpt_lines(path: Path) -> dict[int, int]:
    """Excerpt line -> original line, from the excerpt's first line (`lines 66@31 95@40`)."""
    with path.open(encoding="utf-8") as file:
        header = file.readline()
    places = header.rsplit("; lines ", 1)[1].split()
    return {int(at): int(line) for line, at in (place.split("@") for place in places)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vendor", action="store_true", help="rewrite the excerpts from the cache")
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests" / "perf"))
    from scan_bench import CACHE

    if args.vendor:
        vendor(args.cache or CACHE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
