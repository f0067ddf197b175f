"""`python -m macros ledger NOTES.md --release X.Y`: the skeleton of a release's ledger.

Reads a local copy of the official release notes (the GitHub release text as Markdown, saved by
the contributor, never committed) and lists every entry: each top-level bullet of every section,
each heading written as an entry (a heading with paragraphs under it), and each row of the
Highlights table. An entry keeps its section, its area heading, its position within that area and
the PR numbers it cites (issue links such as `#188892` are read as numbers too), never its
sentences. `decision` starts empty; a
person who read the entry fills it. Running the tool again keeps every decision already taken for
an entry that is still there (same section, area and PRs), so a corrected copy of the notes can
be read again without losing work.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from macros.dataset.load import MAX_FILE_BYTES, load_file
from macros.dataset.model import Ledger, LedgerEntry
from macros.dataset.safe_io import UnsafeFile, display_name, read_text

#: Largest notes file read, in bytes: PyTorch's longest notes are about 300 KB of Markdown.
MAX_NOTES_BYTES = 4 * 1024 * 1024

#: The sections of PyTorch's notes, by their slug; other top-level headings (the page title) are
#: not sections. Spelling varies between releases ("Backward incompatible changes", "Bug Fixes").
SECTION_ALIASES: dict[str, str] = {
    "highlights": "highlights",
    "tracked-regressions": "tracked-regressions",
    "backwards-incompatible-changes": "backwards-incompatible-changes",
    "backward-incompatible-changes": "backwards-incompatible-changes",
    "bc-breaking": "backwards-incompatible-changes",
    "deprecations": "deprecations",
    "new-features": "new-features",
    "improvements": "improvements",
    "bug-fixes": "bug-fixes",
    "performance": "performance",
    "documentation": "documentation",
    "developers": "developers",
    "security": "security",
}
#: Every pattern here runs in time linear in the line: no two unbounded quantifiers that can share
#: the same characters (a heading's closing hashes are stripped in Python, not by the pattern).
_HEADING = re.compile(r"^(#{1,4})\s+(.*)$")
_BULLET = re.compile(r"^[-*+]\s+\S")
_FENCE = re.compile(r"^\s*(```|~~~)")
_BOLD = re.compile(r"^(\*\*|__).*(\*\*|__)$")
#: "(#12345)", "#12345", "[#12345](https://github.com/pytorch/pytorch/pull/12345)", ".../pull/12345".
_PR = re.compile(r"(?:(?<![\w/&])#|/pytorch/pytorch/pull/)([0-9]{4,7})\b")


class LedgerToolError(Exception):
    """A problem with the command's input, said in one line."""


@dataclass
class _Entry:
    section: str
    area: str
    prs: list[int]
    line: int = 0  # where the entry starts in the notes, 1-based


def slug(heading: str) -> str:
    text = re.sub(r"<[^<>]+>|[`*_\[\]]", "", heading).strip().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def prs_in(text: str) -> list[int]:
    """PR numbers in order of first mention."""
    found: list[int] = []
    for match in _PR.finditer(text):
        number = int(match.group(1))
        if number not in found:
            found.append(number)
    return found


def _area_of(heading: str) -> str:
    text = re.sub(r"<[^<>]+>|[*_]", "", heading).strip()
    return text.replace("`", "")[:80]


def parse_notes(text: str, name: str = "NOTES.md") -> list[LedgerEntry]:
    """Every entry of the notes, in order, numbered within its section and area. An entry the
    ledger cannot hold (a section heading or area with characters the data refuses, a PR number
    out of range) is a `LedgerToolError` naming its line."""
    raw = list(_entries(text))
    numbered, counters = [], {}
    for entry in raw:
        key = (entry.section, entry.area)
        counters[key] = counters.get(key, 0) + 1
        try:
            numbered.append(
                LedgerEntry(section=entry.section, area=entry.area, n=counters[key], prs=entry.prs, decision=None)
            )
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"])
            raise LedgerToolError(
                f"{name}:{entry.line}: {field}: {first['msg']} (in {entry.section!r} / {entry.area!r})"
            ) from None
    return numbered


def _outside_code(text: str) -> list[str]:
    """The notes' lines, with fenced code blocks blanked (a `# comment` in code is not a heading)."""
    lines, in_fence = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            lines.append("")
        else:
            lines.append("" if in_fence else line)
    return lines


def _heading_at(line: str) -> tuple[int, str] | None:
    match = _HEADING.match(line)
    # "## Title ##": the closing hashes and the blanks around them are not the title.
    return (len(match.group(1)), match.group(2).rstrip().rstrip("#").rstrip()) if match else None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_bullet(line: str) -> bool:
    return bool(_BULLET.match(line.lstrip(" "))) and _indent(line) <= 8


def _block(lines: list[str], start: int, level: int) -> list[str]:
    """The lines under the heading at `start`, up to the next heading of its level or higher."""
    block = []
    for line in lines[start + 1 :]:
        heading = _heading_at(line)
        if heading and heading[0] <= level:
            break
        block.append(line)
    return block


def _is_entry_heading(lines: list[str], start: int, level: int, title: str) -> bool:
    """Some notes write an entry as a heading with paragraphs under it (2.9's breaking changes),
    others use headings for areas with bullets under them. Under an area heading the first line of
    text is a bullet; under an entry heading it is a paragraph (which may go on to list things).
    An area may also open with a paragraph before its bullets (2.6's "Composability"): a plain
    heading that cites no PR, over two or more bullets that each cite their own, is an area and the
    paragraph its introduction. Entry headings are written in bold (2.0's "**Remove deprecated
    functionality from `torch.testing`**", whose bullets name what went, each with its PR)."""
    block = _block(lines, start, level)
    for line in block:
        if _heading_at(line):
            return bool(prs_in(title))
        if line.strip():
            if _is_bullet(line):
                return False
            plain_area = not prs_in(title) and not _BOLD.match(title) and _bullets_citing_prs(block) >= 2
            return not plain_area
    return bool(prs_in(title))


def _bullets_citing_prs(block: list[str]) -> int:
    """Bullets of `block`, before any sub-heading, whose own line cites a PR."""
    count = 0
    for line in block:
        if _heading_at(line):
            break
        if _is_bullet(line) and prs_in(line):
            count += 1
    return count


def _entries(text: str) -> Iterator[_Entry]:
    lines = _outside_code(text)
    section: str | None = None
    area, subarea = "", ""
    current: _Entry | None = None
    in_first_paragraph = False  # the bullet's own paragraph may wrap its PR numbers onto a next line
    base_indent: int | None = None  # indent of the first bullet under the latest heading
    inside_entry_heading: int | None = None  # level of the heading entry whose block we are in
    index = 0
    while index < len(lines):
        line = lines[index]
        heading = _heading_at(line)
        if heading:
            level, title = heading
            if inside_entry_heading is not None and level > inside_entry_heading:
                index += 1  # a sub-heading inside an entry ("More details") is part of it
                continue
            inside_entry_heading = None
            if current:
                yield current
                current = None
            base_indent = None
            if level == 1 or slug(title) in SECTION_ALIASES:
                known = SECTION_ALIASES.get(slug(title))
                section = known or (slug(title) if section else None)
                area, subarea = "", ""
            elif section is not None and _is_entry_heading(lines, index, level, title):
                prs = prs_in(title) or prs_in("\n".join(_block(lines, index, level)))
                yield _Entry(section, area[:80], prs, index + 1)
                inside_entry_heading = level
            elif level == 2:
                area, subarea = _area_of(title), ""
            else:
                subarea = _area_of(title)
            index += 1
            continue
        if section is None or inside_entry_heading is not None:
            index += 1
            continue
        if section == "highlights" and "<table" in line.lower():
            table = []
            while index < len(lines):
                table.append(lines[index])
                if "</table" in lines[index].lower():
                    break
                index += 1
            yield from _table_rows(section, table, index + 2 - len(table))
            index += 1
            continue
        if _is_bullet(line):
            indent = _indent(line)
            if base_indent is None:
                base_indent = indent
            if indent <= base_indent:
                if current:
                    yield current
                where = f"{area} / {subarea}" if area and subarea else (area or subarea)
                current = _Entry(section, where[:80], prs_in(line), index + 1)
                in_first_paragraph = True
            elif current:
                current.prs += [pr for pr in prs_in(line) if pr not in current.prs]
        elif current and in_first_paragraph and line.strip():
            current.prs += [pr for pr in prs_in(line) if pr not in current.prs]
        else:
            in_first_paragraph = False
        index += 1
    if current:
        yield current


def _table_rows(section: str | None, lines: list[str], first_line: int) -> Iterator[_Entry]:
    """One entry per row with cells; a row ends where the next begins (2.10's notes open each row
    with `<tr>` where `</tr>` belongs), so closing tags are not needed."""
    text = "\n".join(lines)
    for row in re.split(r"<tr\b[^<>]*>", text, flags=re.IGNORECASE)[1:]:
        if "<td" in row.lower():
            yield _Entry(section or "highlights", "", prs_in(row), first_line)


def merge(fresh: list[LedgerEntry], previous: Ledger | None) -> list[LedgerEntry]:
    """Carry decisions over from the previous ledger to the same entries (section, area, PRs; for
    entries without PRs, also the position)."""
    return _merged(fresh, previous)[0]


def dropped_decisions(fresh: list[LedgerEntry], previous: Ledger | None) -> int:
    """How many decided entries of the previous ledger have no entry in `fresh` to go to."""
    return _merged(fresh, previous)[1]


def _merged(fresh: list[LedgerEntry], previous: Ledger | None) -> tuple[list[LedgerEntry], int]:
    if previous is None:
        return fresh, 0
    taken: dict[tuple, list[LedgerEntry]] = {}
    for old in previous.entries:
        taken.setdefault(_identity(old), []).append(old)
    merged = []
    for entry in fresh:
        candidates = taken.get(_identity(entry))
        if candidates:
            old = candidates.pop(0)
            entry = entry.model_copy(update={"decision": old.decision, "note": old.note})
        merged.append(entry)
    dropped = sum(1 for left in taken.values() for old in left if old.decision)
    return merged, dropped


def _identity(entry: LedgerEntry) -> tuple:
    return (entry.section, entry.area, tuple(entry.prs)) if entry.prs else (entry.section, entry.area, entry.n)


def render(ledger: Ledger) -> str:
    """One entry per line, in the notes' order: a reviewer reads decisions as a list."""
    lines = [
        "# yaml-language-server: $schema=../schema/ledger.schema.json",
        f"# The ledger of the PyTorch {ledger.release} release notes: every entry of the notes, decided.",
        '# decision: the id of the item that covers the entry, or "not-felt: <reason>" (data/README.md).',
        "# Written by `python -m macros ledger`; decisions are ours, entries follow the notes' order.",
        f'release: "{ledger.release}"',
        f"notes: {ledger.notes}",
    ]
    if ledger.reread:
        note = f", note: {json.dumps(ledger.reread.note, ensure_ascii=False)}" if ledger.reread.note else ""
        lines.append(f'reread: {{date: "{ledger.reread.date}", definition: {ledger.reread.definition}{note}}}')
    lines.append("entries:")
    for entry in ledger.entries:
        fields = [
            f"section: {entry.section}",
            f"area: {json.dumps(entry.area)}",
            f"n: {entry.n}",
            f"prs: [{', '.join(str(pr) for pr in entry.prs)}]",
            f"decision: {json.dumps(entry.decision) if entry.decision else 'null'}",
        ]
        if entry.note:
            fields.append(f"note: {json.dumps(entry.note, ensure_ascii=False)}")
        lines.append("  - {" + ", ".join(fields) + "}")
    return "\n".join(lines) + "\n"


def build(notes_path: Path, release: str, notes_source: str, previous: Ledger | None, *, force: bool = False) -> Ledger:
    """The ledger from the notes at `notes_path`, keeping the previous ledger's decisions. Refuses
    (`LedgerToolError`) to drop decided entries the notes no longer hold unless `force`."""
    name = display_name(notes_path)
    try:
        text = read_text(notes_path, limit=MAX_NOTES_BYTES)
    except UnsafeFile as error:
        raise LedgerToolError(str(error)) from None
    fresh = parse_notes(text, name)
    if not fresh:
        raise LedgerToolError(
            f"{name}: no entries found (expected the notes' Markdown: '# Section' headings with '- ' bullets)"
        )
    entries, dropped = _merged(fresh, previous)
    if dropped and not force:
        decided = sum(1 for entry in previous.entries if entry.decision) if previous else 0
        raise LedgerToolError(
            f"{name}: {dropped} of the {decided} decided entries of the {release} ledger are not in these notes "
            "(a cut or other copy?); nothing written. Add --force to write it and drop them"
        )
    try:
        return Ledger(
            release=release, notes=notes_source, entries=entries, reread=previous.reread if previous else None
        )
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise LedgerToolError(f"{name}: {field}: {first['msg']}") from None


def loader_problem(path: Path) -> str | None:
    """What the data loader says about the ledger file at `path` (None when it loads): the tool
    never writes a ledger `make check` would refuse (too large, a value the rules reject)."""
    if path.stat().st_size > MAX_FILE_BYTES:
        return f"would be {path.stat().st_size:,} bytes; data files are limited to {MAX_FILE_BYTES:,} bytes"
    _, _, problems = load_file(path, Ledger)
    if problems:
        first = problems[0]
        return f"would not load: line {first.line}: {first.field}: {first.message}"
    return None
