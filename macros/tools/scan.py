"""Contributors' and users' tool: find, in Python code, the uses of what changed between two releases.

`python -m macros scan PATH... --from A --to B` reads every `.py` file under PATH with the
standard library's `ast` (strings and comments are never code), resolves imports and aliases
(`import torch as t`, `from torch.export import export_for_training as eft`) and attribute
chains, and reports each use of a name listed in the `symbols:` of a breaking, deprecation or
removal item of a release after A, up to and including B.

A symbol is a dotted name (any use of it, or of anything under it, matches) or a call condition
`{name, keyword, value}` (the call passes that keyword, with that literal value when one is
given), or `{name, keyword, absent: true}` (the call leaves the keyword out: a changed default).
Names bound locally (assignments, parameters, function and class names) shadow imports.
"""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from macros.dataset.model import Item, Release, SymbolUse, version_key
from macros.dataset.text import text_html, visible_text
from macros.query.catalog import Catalog

#: Item kinds whose symbols the scanner reports: the changes that can break code.
SCANNED_KINDS = frozenset({"breaking", "deprecation", "removal"})
#: Folders never worth reading.
SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".tox", "build", "dist"}
)


class ScanUsageError(Exception):
    """A usage error: unknown version, wrong order, unreadable path (exit status 2)."""


@dataclass(frozen=True)
class Rule:
    name: str
    keyword: str | None
    value: object
    any_value: bool
    item: Item
    release: Release
    absent: bool = False  # the call must leave `keyword` out (a changed default)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int
    symbol: str
    item_id: str
    release: str
    title: str
    action: str
    url: str


def rules_for(catalog: Catalog, start: str, end: str) -> list[Rule]:
    """The symbols of the changes a move from `start` to `end` crosses."""
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
            if item.kind not in SCANNED_KINDS:
                continue
            for symbol in item.symbols:
                if isinstance(symbol, SymbolUse):
                    rules.append(
                        Rule(symbol.name, symbol.keyword, symbol.value, symbol.any_value, item, release, symbol.absent)
                    )
                else:
                    rules.append(Rule(symbol, None, None, True, item, release))
    return rules


def _is_version(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 2 and all(part.isdigit() for part in parts)


def python_files(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if not path.exists():
            raise ScanUsageError(f"{path}: no such file or folder")
        if path.is_file():
            if not os.access(path, os.R_OK):
                raise ScanUsageError(f"{path}: not readable")
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".py"):
                    yield Path(folder) / name


class _Visitor(ast.NodeVisitor):
    """Walks one module; `aliases` maps a local name to the qualified name it stands for."""

    def __init__(self, index: dict[str, list[Rule]], roots: frozenset[str]) -> None:
        self.index = index
        self.roots = roots
        self.aliases: dict[str, str] = {}
        self.hits: list[tuple[ast.AST, str, Rule]] = []

    # --- names ---------------------------------------------------------------------------------

    def qualified(self, node: ast.AST) -> str | None:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        return ".".join([self.aliases[node.id], *reversed(parts)])

    def match(self, node: ast.AST, name: str, call: ast.Call | None = None) -> None:
        # A rule on `a.b` matches `a.b` and anything under it (`a.b.c`); the longest rule wins
        # only by being listed too: every matching rule is reported.
        parts = name.split(".")
        for end in range(len(parts), 1, -1):
            for rule in self.index.get(".".join(parts[:end]), ()):
                if rule.keyword is None:
                    self.hits.append((node, name, rule))
                elif call is not None and end == len(parts) and rule.absent:
                    if self._keyword_left_out(call, rule):
                        self.hits.append((node, f"{name}() without {rule.keyword}=", rule))
                elif call is not None and end == len(parts) and self._keyword_matches(call, rule):
                    self.hits.append((node, f"{name}({rule.keyword}=...)", rule))

    @staticmethod
    def _keyword_left_out(call: ast.Call, rule: Rule) -> bool:
        """No keyword of that name and no **kwargs that might carry it."""
        return all(keyword.arg not in {rule.keyword, None} for keyword in call.keywords)

    @staticmethod
    def _keyword_matches(call: ast.Call, rule: Rule) -> bool:
        for keyword in call.keywords:
            if keyword.arg != rule.keyword:
                continue
            if rule.any_value:
                return True
            return (
                isinstance(keyword.value, ast.Constant)
                and keyword.value.value == rule.value
                and (type(keyword.value.value) is type(rule.value))
            )
        return False

    # --- bindings ------------------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] not in self.roots:
                continue
            if alias.asname:
                self.aliases[alias.asname] = alias.name
                self.match(node, alias.name)
            else:
                top = alias.name.split(".")[0]
                self.aliases[top] = top
                if "." in alias.name:
                    self.match(node, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module or node.module.split(".")[0] not in self.roots:
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            qualified = f"{node.module}.{alias.name}"
            self.aliases[alias.asname or alias.name] = qualified
            self.match(node, qualified)

    def _unbind(self, name: str) -> None:
        self.aliases.pop(name, None)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self._bind_target(target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        self._bind_target(node.target)

    def _bind_target(self, target: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self._unbind(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._bind_target(element)
        else:
            self.visit(target)

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        saved = dict(self.aliases)
        arguments = node.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            self._unbind(arg.arg)
        for arg in (arguments.vararg, arguments.kwarg):
            if arg is not None:
                self._unbind(arg.arg)
        for default in [*arguments.defaults, *arguments.kw_defaults]:
            if default is not None:
                self.visit(default)
        body = node.body if isinstance(node.body, list) else [node.body]
        for statement in body:
            self.visit(statement)
        self.aliases = saved

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._scoped(node)
        self._unbind(node.name)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._scoped(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for expression in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]:
            self.visit(expression)
        for statement in node.body:
            self.visit(statement)
        self._unbind(node.name)

    # --- uses ----------------------------------------------------------------------------------

    def visit_Call(self, node: ast.Call) -> None:
        name = self.qualified(node.func)
        if name is not None:
            self.match(node.func, name, call=node)
        else:
            self.visit(node.func)
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            self.visit(argument)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = self.qualified(node)
        if name is None:
            self.generic_visit(node)
        else:
            self.match(node, name)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in self.aliases:
            self.match(node, self.aliases[node.id])


def scan_source(source: str, index: dict[str, list[Rule]]) -> list[tuple[int, int, str, Rule]]:
    """(line, column, symbol as written, rule) for each use in one module's source."""
    roots = frozenset(name.split(".")[0] for name in index)
    if not any(root in source for root in roots):
        return []  # cannot import any listed module: no need to parse it
    tree = ast.parse(source)
    visitor = _Visitor(index, roots)
    visitor.visit(tree)
    seen = set()
    found = []
    for node, name, rule in visitor.hits:
        key = (node.lineno, node.col_offset, rule.item.id, name)
        if key not in seen:
            seen.add(key)
            found.append((node.lineno, node.col_offset + 1, name, rule))
    return sorted(found, key=lambda hit: (hit[0], hit[1], hit[3].item.id))


@dataclass(frozen=True)
class ScanResult:
    findings: list[Finding]
    files: int
    skipped: list[str]  # files that are not valid Python for this interpreter, with the reason


#: From this many files on, the files are parsed in worker processes (one per CPU): parsing is
#: most of the time, and a pool costs about a tenth of a second to start.
PARALLEL_FROM = 200

_worker_index: dict[str, list[Rule]] = {}


def _start_worker(index: dict[str, list[Rule]]) -> None:
    global _worker_index
    _worker_index = index


def _scan_file(path: Path) -> tuple[Path, list[tuple[int, int, str, str]], str | None]:
    """One file's hits as plain tuples (line, column, symbol, item id), or why it was skipped."""
    try:
        source = path.read_text(encoding="utf-8")
        hits = scan_source(source, _worker_index)
    except (SyntaxError, UnicodeDecodeError, ValueError) as exc:
        return path, [], f"{path}: {type(exc).__name__}: {exc}"
    return path, [(line, column, symbol, rule.item.id) for line, column, symbol, rule in hits], None


def scan(paths: list[Path], catalog: Catalog, start: str, end: str, site_url: str) -> ScanResult:
    rules = rules_for(catalog, start, end)
    index: dict[str, list[Rule]] = {}
    for rule in rules:
        index.setdefault(rule.name, []).append(rule)
    by_item = {rule.item.id: rule for rule in rules}
    files = list(python_files(paths))
    if not index:
        return ScanResult([], len(files), [])
    if len(files) >= PARALLEL_FROM and (os.cpu_count() or 1) > 1:
        with ProcessPoolExecutor(initializer=_start_worker, initargs=(index,)) as pool:
            results = list(pool.map(_scan_file, files, chunksize=32))
    else:
        _start_worker(index)
        results = [_scan_file(path) for path in files]
    findings, skipped = [], []
    base = site_url.rstrip("/") + "/"
    for path, hits, problem in results:
        if problem:
            skipped.append(problem)
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
    return ScanResult(findings, len(files), skipped)


# --- output ------------------------------------------------------------------------------------


def as_text(result: ScanResult) -> str:
    return "".join(
        f"{f.path}:{f.line}:{f.column}: {f.item_id} {f.title} — {f.action} ({f.url})\n" for f in result.findings
    )


def as_json(result: ScanResult) -> str:
    return json.dumps([asdict(f) for f in result.findings], indent=2, ensure_ascii=False) + "\n"


SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def as_sarif(result: ScanResult, start: str, end: str) -> str:
    """SARIF 2.1.0, as GitHub code scanning reads it: one rule per item, one result per use."""
    rules: dict[str, dict[str, object]] = {}
    results = []
    for f in result.findings:
        rules.setdefault(
            f.item_id,
            {
                "id": f.item_id,
                "name": f.item_id,
                "shortDescription": {"text": f.title},
                "fullDescription": {"text": f.action},
                "helpUri": f.url,
                "help": {"text": f"{f.action} See {f.url}"},
                "properties": {"release": f.release},
            },
        )
        results.append(
            {
                "ruleId": f.item_id,
                "level": "warning",
                "message": {"text": f"{f.symbol}: {f.title} (PyTorch {f.release}). {f.action}"},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": Path(f.path).as_posix()},
                            "region": {"startLine": f.line, "startColumn": f.column},
                        }
                    }
                ],
            }
        )
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "pytorch-release-atlas-scan",
                        "informationUri": "https://pytorch-release-atlas.github.io/atlas/",
                        "rules": list(rules.values()),
                    }
                },
                "properties": {"from": start, "to": end},
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
