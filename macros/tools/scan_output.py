"""The scanner's three output formats: text lines, a JSON array, SARIF 2.1.0.

Text is for a terminal: file names go through `printable`, so a name cannot carry escape
sequences. JSON and SARIF are ASCII (`\\u` escapes), so any name survives any encoding. SARIF
locations are URIs relative to a base (`uriBaseId`, resolved by `originalUriBaseIds`), each
path segment percent-encoded: GitHub code scanning and Microsoft's validator place them only so.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import quote

from macros.tools.scan_files import Unreadable, printable, read_source

#: The name SARIF locations are relative to; GitHub code scanning resolves it to the checkout.
URI_BASE_ID = "%SRCROOT%"
#: The key of each result's fingerprint in `partialFingerprints` (a versioned name, as SARIF asks).
FINGERPRINT = "pytorchUpgradeScan/v1"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


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


#: In a finding's symbol: the use may or may not meet the item's condition (`f(**kwargs)` for a
#: changed default); the text line then shows the symbol, which says what to check.
MAY_APPLY = ": check whether "


def as_text(findings: list[Finding]) -> str:
    """One line per finding (place, item, title, what to do, the link), then, after a blank
    line, one line per change: how many places meet it, newest release last."""
    lines = "".join(
        f"{printable(f.path)}:{f.line}:{f.column}: {f.item_id} {f.title} — {_question(f)}{f.action} ({f.url})\n"
        for f in findings
    )
    if not findings:
        return lines
    by_item: dict[str, list[Finding]] = {}
    for f in findings:
        by_item.setdefault(f.item_id, []).append(f)
    files = len({f.path for f in findings})
    summary = [f"{_count(len(findings), 'finding')} of {_count(len(by_item), 'change')} in {_count(files, 'file')}:\n"]
    order = sorted(by_item.values(), key=lambda group: (_release_key(group[0].release), group[0].item_id))
    for group in order:
        f = group[0]
        summary.append(f"  {f.release} {f.item_id}: {_count(len(group), 'place')} — {f.title} ({f.url})\n")
    return lines + "\n" + "".join(summary)


def nothing_found(files: int, start: str, end: str) -> str:
    """The text output's one line when no code meets a change: what was read, and the range."""
    since = "any older release" if start == "0.0" else start
    return f"No finding: nothing in {_count(files, 'file')} uses what changed from {since} to {end}.\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _release_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split(".") if part.isdecimal())


def _question(finding: Finding) -> str:
    return f"{printable(finding.symbol)}. " if MAY_APPLY in finding.symbol else ""


def as_json(findings: list[Finding]) -> str:
    return json.dumps([asdict(f) for f in findings], indent=2) + "\n"


def artifact_uri(path: str, base: Path) -> str:
    """`path` relative to `base`, each segment percent-encoded (spaces, %, #, non-ASCII)."""
    relative = os.path.relpath(os.path.abspath(path), base)
    return "/".join(quote(os.fsencode(part), safe="") for part in Path(relative).parts)


def base_folder(paths: list[Path]) -> Path:
    """The folder every SARIF URI is relative to: the working folder when it holds every scanned
    path (a checkout scanned from its root), else the deepest folder that holds them all."""
    here = Path.cwd()
    absolute = [Path(os.path.abspath(p)) for p in paths]
    if all(p == here or here in p.parents for p in absolute):
        return here
    common = Path(os.path.commonpath(absolute))
    return common if common.is_dir() else common.parent


def _tool_version() -> str:
    try:
        return metadata.version("pytorch-release-atlas")
    except metadata.PackageNotFoundError:
        return "0.1.0"  # a source checkout: pyproject.toml's version


def fingerprints(findings: list[Finding], base: Path) -> list[str]:
    """A stable name for each finding, so code scanning tracks it across commits: a hash of the
    item, the file (relative to the base), the symbol (without what it asks to check) and the
    text of its line without the indentation, numbered among the findings that share all four. Lines added above or code
    moved within the file leave it unchanged; editing the line changes it."""
    lines: dict[str, list[str]] = {}
    seen: dict[tuple[str, ...], int] = {}
    names = []
    for f in findings:
        if f.path not in lines:
            try:
                lines[f.path] = read_source(Path(f.path)).splitlines()
            except Unreadable:
                lines[f.path] = []  # gone since the scan: the place alone names it
        text = lines[f.path][f.line - 1].strip() if f.line <= len(lines[f.path]) else ""
        # The symbol without its question: how compiled code reaches a use may change elsewhere.
        key = (f.item_id, artifact_uri(f.path, base), f.symbol.partition(MAY_APPLY)[0], text)
        seen[key] = seen.get(key, 0) + 1
        digest = hashlib.sha256("\0".join([*key, str(seen[key])]).encode("utf-8", "surrogatepass")).hexdigest()
        names.append(digest[:32])
    return names


def as_sarif(findings: list[Finding], start: str, end: str, base: Path) -> str:
    """SARIF 2.1.0, as GitHub code scanning reads it: one rule per item, one result per use,
    each with a stable fingerprint."""
    rules: dict[str, dict[str, object]] = {}
    results = []
    order: dict[str, int] = {}
    for f, fingerprint in zip(findings, fingerprints(findings, base), strict=True):
        order.setdefault(f.item_id, len(order))
        rules.setdefault(
            f.item_id,
            {
                "id": f.item_id,
                "name": "".join(part.capitalize() for part in f.item_id.split("-")),  # SARIF: not the id
                "shortDescription": {"text": f.title},
                "fullDescription": {"text": f.action},
                "helpUri": f.url,
                "help": {"text": f"{f.action} See {f.url}"},
                "properties": {"release": f.release},
            },
        )
        location = {"uri": artifact_uri(f.path, base), "uriBaseId": URI_BASE_ID}
        results.append(
            {
                "ruleId": f.item_id,
                "ruleIndex": order[f.item_id],
                "level": "warning",
                "message": {"text": f"{f.symbol}: {f.title} (PyTorch {f.release}). {f.action}"},
                "partialFingerprints": {FINGERPRINT: fingerprint},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": location,
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
                        "version": _tool_version(),
                        "informationUri": "https://pytorch-release-atlas.github.io/atlas/",
                        "rules": list(rules.values()),
                    }
                },
                "originalUriBaseIds": {URI_BASE_ID: {"uri": base.as_uri().rstrip("/") + "/"}},
                "properties": {"from": start, "to": end},
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"
