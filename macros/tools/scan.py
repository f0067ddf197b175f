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

from macros.dataset.model import Item, SymbolUse, version_key
from macros.dataset.text import text_html, visible_text
from macros.dataset.vocabulary import CODE_KINDS, CUDA, UNSCANNED_EFFECTS, variant_family
from macros.query.catalog import Catalog
from macros.tools.scan_files import (
    Candidate,
    ScanUsageError,
    Unreadable,
    printable,
    python_files,
    read_source,
)
from macros.tools.scan_output import Finding
from macros.tools.scan_visitor import Rule, UseVisitor

__all__ = ["Finding", "ScanResult", "ScanUsageError", "python_files", "rules_for", "scan", "scan_source"]

#: Item kinds whose symbols the scanner reports: the changes that can break code.
SCANNED_KINDS = CODE_KINDS
#: A comment naming item ids on the line of a use silences those items there: the flake8/ruff
#: form (noqa, a colon, ids) or `torch-scan: ignore[ids]`, which other linters leave alone.
_IDS = r"[A-Za-z0-9_.-]+(?:\s*,\s*[A-Za-z0-9_.-]+)*"
_NOQA = re.compile(rf"#\s*(?:noqa\s*:\s*(?P<noqa>{_IDS})|torch-scan:\s*ignore\[\s*(?P<ignore>{_IDS})\s*\])", re.I)


def rules_for(catalog: Catalog, start: str, end: str, environments: frozenset[str] = frozenset()) -> list[Rule]:
    """The symbols of the changes a move from `start` to `end` crosses, in the environments
    asked for (`--on mps`: items only Apple GPUs feel are added to those everyone feels)."""
    versions = {release.version for release in catalog.releases}
    known = ", ".join(release.version for release in catalog.releases)
    oldest = catalog.releases[0]
    # --from may name a release older than the data (2.7: everything from 2.8 on applies).
    older = _is_version(start) and version_key(start) < oldest.key
    if start not in versions and not older:
        raise ScanUsageError(f"unknown version {start!r} (known: {known}, or any older X.Y for --from)")
    if end not in versions:
        raise ScanUsageError(f"unknown version {end!r} (known: {known})")
    if version_key(start) >= version_key(end):
        raise ScanUsageError(f"--from {start} must be older than --to {end}")
    rules = []
    for release in catalog.crossed(start, end):
        for item in release.items:
            if item.kind not in SCANNED_KINDS or item.effect in UNSCANNED_EFFECTS:
                continue
            if not felt_in(item, environments):
                continue
            for symbol in item.symbols:
                if isinstance(symbol, SymbolUse):
                    rules.append(
                        Rule(
                            symbol.name,
                            item,
                            release,
                            keyword=symbol.keyword,
                            value=symbol.value,
                            any_value=symbol.any_value,
                            absent=symbol.absent,
                            position=symbol.position,
                            caught=frozenset(symbol.caught),
                            decorates=symbol.decorates,
                            name_kept=symbol.name_kept,
                            dtypes=frozenset(symbol.dtypes),
                        )
                    )
                else:
                    rules.append(Rule(symbol, item, release))
    return rules


def felt_in(item: Item, environments: frozenset[str]) -> bool:
    """Whether everyone feels the change, or one of the environments named (a variant or its
    family, an OS): `applies_to: {variants: [mps], os: [macos]}` needs `--on mps`."""
    where = item.applies_to
    if where is None:
        return True
    asked = environments | {variant_family(name) for name in environments}
    if where.variants:  # a variant implies its OS (mps: macOS)
        return bool(({variant_family(v) for v in where.variants} | set(where.variants)) & asked)
    if where.os:
        return bool(set(where.os) & asked)
    return CUDA in asked if where.gpu else True  # GPU generations are CUDA's; Python versions: everyone


def _is_version(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 2 and all(part.isdigit() for part in parts)


def scan_source(source: str, index: dict[str, list[Rule]]) -> list[tuple[int, int, str, Rule]]:
    """(line, column, symbol as written, rule) for each use in one module's source: one per
    place and item, none on a line whose `# noqa:` names the item."""
    roots = frozenset(name.split(".")[0] for name in index)
    if not any(root in source for root in roots):
        return []  # cannot import any listed module: no need to parse it
    visitor = UseVisitor(index, roots)
    visitor.visit(ast.parse(source))
    seen = set()
    found = []
    for hit in visitor.hits:
        key = (hit.node.lineno, hit.node.col_offset, hit.rule.item.id)
        if key not in seen:
            seen.add(key)
            found.append((hit.node.lineno, hit.node.col_offset + 1, hit.name, hit.rule))
    if found:
        silenced = _noqa(source)
        found = [hit for hit in found if hit[3].item.id not in silenced.get(hit[0], ())]
    return sorted(found, key=lambda hit: (hit[0], hit[1], hit[3].item.id))


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


def _scan_file(candidate: Candidate) -> tuple[Path, list[tuple[int, int, str, str]], str | None]:
    """One file's hits as plain tuples (line, column, symbol, item id), or why it was skipped.
    Any failure stays with its file: the scan of the others goes on."""
    path = candidate.path
    if candidate.problem:
        return path, [], candidate.problem
    try:
        hits = scan_source(read_source(path), _worker_index)
    except Unreadable as error:
        return path, [], str(error)
    except SyntaxError as error:
        return path, [], f"not valid Python for this interpreter (line {error.lineno}: {error.msg})"
    except (RecursionError, MemoryError):
        return path, [], "nested too deeply to parse (Python's recursion limit)"
    except (ValueError, OverflowError) as error:  # a NUL byte, a literal too large
        return path, [], f"cannot be parsed ({type(error).__name__}: {error})"
    return path, [(line, column, symbol, rule.item.id) for line, column, symbol, rule in hits], None


def scan(
    paths: list[Path],
    catalog: Catalog,
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
    for path, hits, problem in results:
        if problem:
            skipped.append(f"{printable(path)}: {problem}")
        for line, column, symbol, item_id in hits:
            rule = by_item[item_id]
            findings.append(
                Finding(
                    path=str(path),
                    line=line,
                    column=column,
                    symbol=symbol,
                    item_id=item_id,
                    release=rule.release.version,
                    title=visible_text(text_html(rule.item.title)),
                    action=visible_text(text_html(rule.item.action or rule.item.summary)),
                    url=f"{base}releases/{rule.release.version}.html#{item_id}",
                )
            )
    return ScanResult(findings, len(candidates), skipped)
