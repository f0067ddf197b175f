"""Contributors' and users' tool: find, in Python code, the uses of what changed between two releases.

`python -m macros scan PATH... --from A --to B` reads every `.py` file under PATH (scan_files:
links, FIFOs, devices, size, encodings) with the standard library's `ast` (scan_visitor: imports,
aliases, conditions, guards) and reports each use of a name listed in the `symbols:` of a
breaking, deprecation or removal item of a release after A, up to and including B, unless the
line's comment names the item (`noqa`, colon, item id; or `torch-scan: ignore[item-id]`).
Output formats are in scan_output.

A symbol is a dotted name (any use of it, or of anything under it, matches) or a condition
(`SymbolUse`): a keyword passed (with a literal value when one is given), a keyword left out (a
changed default), by name or at its position; an argument passed by position; a call inside a
`try` that catches a named exception; a call whose first argument may be of the listed dtypes;
or any use but an import, a type check or an annotation
(`name_kept`: the name stays, what it does changed). Names bound locally (assignments,
parameters, function and class names) shadow imports.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from macros.dataset.vocabulary import REMOVAL
from macros.tools.scan_call import Rule
from macros.tools.scan_files import (
    Candidate,
    ScanUsageError,
    Unreadable,
    printable,
    python_files,
    read_source,
)
from macros.tools.scan_output import Finding
from macros.tools.scan_rules import ScanData, felt_in, from_catalog, version_key
from macros.tools.scan_tree import TreeFacts, read_facts
from macros.tools.scan_visitor import UseVisitor

__all__ = ["Finding", "ScanResult", "ScanUsageError", "python_files", "rules_for", "scan", "scan_source"]

#: A comment naming item ids on the line of a use silences those items there: the flake8/ruff
#: form (noqa, a colon, ids) or `torch-scan: ignore[ids]`, which other linters leave alone.
_IDS = r"[A-Za-z0-9_.-]+(?:\s*,\s*[A-Za-z0-9_.-]+)*"
_NOQA = re.compile(rf"#\s*(?:noqa\s*:\s*(?P<noqa>{_IDS})|torch-scan:\s*ignore\[\s*(?P<ignore>{_IDS})\s*\])", re.I)


_converted: dict[int, tuple[Any, ScanData]] = {}


def scan_data(source: ScanData | Any) -> ScanData:
    """The scan's view of the data: a ScanData as is, a catalog (a checkout) converted once."""
    if isinstance(source, ScanData):
        return source
    if id(source) not in _converted or _converted[id(source)][0] is not source:
        _converted[id(source)] = (source, from_catalog(source))
    return _converted[id(source)][1]


def rules_for(source: ScanData | Any, start: str, end: str, environments: frozenset[str] = frozenset()) -> list[Rule]:
    """The symbols of the changes a move from `start` to `end` crosses, in the environments
    asked for (`--on mps`: items only Apple GPUs feel are added to those everyone feels)."""
    data = scan_data(source)
    known = ", ".join(data.releases)
    if not _is_version(start):
        raise ScanUsageError(f"unknown version {printable(start)!r} (known: {known}, or any older X.Y for --from)")
    if not _is_version(end) or end not in data.releases:
        raise ScanUsageError(f"unknown version {printable(end)!r} (known: {known})")
    # --from may name a release older than the data (2.7: everything from 2.8 on applies).
    older = version_key(start) < version_key(data.releases[0])
    if start not in data.releases and not older:
        raise ScanUsageError(f"unknown version {start!r} (known: {known}, or any older X.Y for --from)")
    if version_key(start) >= version_key(end):
        raise ScanUsageError(f"--from {start} must be older than --to {end}")
    rules = []
    for item in data.items:
        if not version_key(start) < version_key(item.release) <= version_key(end):
            continue
        if not felt_in(item, environments):
            continue
        for symbol in item.symbols:
            rules.append(Rule.of(symbol, item))
    return rules


def _is_version(text: str) -> bool:
    """X.Y in ASCII digits (`str.isdigit` also takes "²", which `int` refuses)."""
    return re.fullmatch(r"[0-9]{1,4}\.[0-9]{1,4}", text) is not None


def scan_source(
    source: str, index: dict[str, list[Rule]], path: Path | None = None
) -> list[tuple[int, int, str, Rule, str | None]]:
    """(line, column, symbol as written, rule, the tree fact that would make it no use) for each
    use in one module's source: one per place and item, none on a line whose `# noqa:` names the
    item, and of the steps of one change's lifecycle that meet the same place (a deprecation,
    then the removal), the latest."""
    roots = frozenset(name.split(".")[0] for name in index if not name.startswith("."))
    if not any(root in source for root in roots) and not (path and "import *" in source):
        return []  # cannot import any listed module: no need to parse it
    visitor = UseVisitor(index, roots, path)
    visitor.visit(ast.parse(source))
    at: dict[tuple[int, int], dict[str, tuple[str, Rule, str | None]]] = {}
    for hit in visitor.hits:
        place = at.setdefault((hit.node.lineno, hit.node.col_offset), {})
        place.setdefault(hit.rule.item.id, (hit.name, hit.rule, hit.unless))
    found = []
    for (line, column), hits in at.items():
        for name, rule, unless in hits.values():
            if not any(_supersedes(other, rule) for _, other, _ in hits.values()):
                found.append((line, column + 1, name, rule, unless))
    if found:
        silenced = _noqa(source)
        found = [hit for hit in found if hit[3].item.id not in silenced.get(hit[0], ())]
    return sorted(found, key=lambda hit: (hit[0], hit[1], hit[3].item.id))


def _supersedes(later: Rule, earlier: Rule) -> bool:
    """Whether `later` is a later step of the same change as `earlier`, met at one place: its
    item follows the other's (`follows:`), it removes the name the other concerns, or both retire
    the same name (a deprecation, then the removal), so only the step the reader is about to meet
    is reported."""
    a, b = later.item, earlier.item
    if a.id == b.id or version_key(a.release) <= version_key(b.release):
        return False
    if a.follows == b.id:
        return True
    if a.kind == REMOVAL and later.name == earlier.name:
        return True  # once the name is gone, what it did before does not matter
    return a.retiring and b.retiring and later.name == earlier.name


def _noqa(source: str) -> dict[int, set[str]]:
    """Line -> item ids its `# noqa:` comment names (comments only, never strings)."""
    lines: dict[int, set[str]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and (match := _NOQA.search(token.string)):
                ids = {part.strip() for part in (match["noqa"] or match["ignore"]).split(",")}
                lines.setdefault(token.start[0], set()).update(ids)
    except (tokenize.TokenError, SyntaxError):
        pass  # the module parsed, so this is not expected; then nothing is silenced
    return lines


@dataclass(frozen=True)
class ScanResult:
    findings: list[Finding]
    files: int
    skipped: list[str]  # files not read or not valid Python for this interpreter, with the reason


#: From this many files on, the files are parsed in worker processes (one per CPU): parsing is
#: most of the time, and a pool costs about a tenth of a second to start.
PARALLEL_FROM = 200

_worker_index: dict[str, list[Rule]] = {}


def _start_worker(index: dict[str, list[Rule]]) -> None:
    global _worker_index
    _worker_index = index


def _scan_file(candidate: Candidate) -> tuple[Path, list[tuple[int, int, str, str, str | None]], str | None]:
    """One file's hits as plain tuples (line, column, symbol, item id, tree fact), or why it was
    skipped. Any failure stays with its file: the scan of the others goes on."""
    path = candidate.path
    if candidate.problem:
        return path, [], candidate.problem
    try:
        hits = scan_source(read_source(path), _worker_index, path)
    except Unreadable as error:
        return path, [], str(error)
    except SyntaxError as error:
        return path, [], f"not valid Python for this interpreter (line {error.lineno}: {error.msg})"
    except (RecursionError, MemoryError):
        return path, [], "nested too deeply to parse (Python's recursion limit)"
    except (ValueError, OverflowError) as error:  # a NUL byte, a literal too large
        return path, [], f"cannot be parsed ({type(error).__name__}: {error})"
    return path, [(line, column, symbol, rule.item.id, unless) for line, column, symbol, rule, unless in hits], None


def scan(
    paths: list[Path],
    catalog: ScanData | Any,
    start: str,
    end: str,
    site_url: str,
    environments: frozenset[str] = frozenset(),
) -> ScanResult:
    rules = rules_for(catalog, start, end, environments)
    index: dict[str, list[Rule]] = {}
    for rule in rules:
        index.setdefault(rule.name, []).append(rule)
    by_item = {rule.item.id: rule for rule in rules}
    candidates = list(python_files(paths))
    if not index:
        return ScanResult([], len(candidates), [])
    readable = sum(1 for c in candidates if c.problem is None)
    if readable >= PARALLEL_FROM and (os.cpu_count() or 1) > 1:
        with ProcessPoolExecutor(initializer=_start_worker, initargs=(index,)) as pool:
            results = list(pool.map(_scan_file, candidates, chunksize=32))
    else:
        _start_worker(index)
        results = [_scan_file(candidate) for candidate in candidates]
    findings, skipped = [], []
    base = site_url.rstrip("/") + "/"
    asked = {hit[4] for _, hits, _ in results for hit in hits if hit[4] is not None}
    facts = read_facts((c.path for c in candidates if c.problem is None), asked) if asked else TreeFacts(set(), {})
    for path, hits, problem in results:
        if problem:
            skipped.append(f"{printable(path)}: {problem}")
        for line, column, symbol, item_id, unless in hits:
            if unless in facts.held:
                continue  # the tree shows it is no use (scan_tree)
            if unless in facts.reached:
                symbol = facts.reached[unless].question(symbol)  # say how compiled code reaches it
            rule = by_item[item_id]
            findings.append(
                Finding(
                    path=str(path),
                    line=line,
                    column=column,
                    symbol=symbol,
                    item_id=item_id,
                    release=rule.item.release,
                    title=rule.item.title,
                    action=rule.item.action,
                    url=f"{base}releases/{rule.item.release}.html#{item_id}",
                )
            )
    return ScanResult(findings, len(candidates), skipped)
