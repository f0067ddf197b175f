"""What the scanner knows about each change, as plain records: built from the catalog in a
checkout, or read from the data file the installed package carries (`scan_data.json`).

The installed command (`pytorch-upgrade-scan`) must run without the site's dependencies
(pydantic, MkDocs, Markdown), so everything the scan needs from `data/` is written once, by
`python -m macros scandata`, into `macros/tools/scan_data.json`: per release, the items a line
of code can meet (breaking, deprecation, removal; not performance or packaging), each with its
id, title and action as plain text, the environments that feel it, the item it follows and its
symbols. A test fails when the file no longer matches data/.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from macros.dataset.vocabulary import CODE_KINDS, CUDA, RETIRING_KINDS, UNSCANNED_EFFECTS, variant_family

#: The packaged data file, beside this module.
DATA_FILE = Path(__file__).with_name("scan_data.json")
#: Its format; a reader refuses another.
FORMAT = 1


@dataclass(frozen=True)
class Symbol:
    """One symbol of an item: a dotted name and the condition a use must meet (all optional)."""

    name: str
    keyword: str | None = None
    value: object = None
    any_value: bool = True
    absent: bool = False
    position: int | None = None
    caught: tuple[str, ...] = ()
    decorates: str | None = None
    name_kept: bool = False
    dtypes: tuple[str, ...] = ()
    method: bool = False
    compiled: bool = False
    aliasing: bool = False
    duplicates: bool = False
    defines: str | None = None
    untraced: bool = False
    sequence_values: bool = False
    masks: bool = False
    reads_nan: bool = False
    given: str | None = None
    trailing_dict: bool = False


@dataclass(frozen=True)
class ScanItem:
    id: str
    release: str
    kind: str
    title: str  # plain text
    action: str  # plain text, what to do
    felt_on: tuple[str, ...] = ()  # empty: everyone; else one of these environments (`--on`)
    follows: str | None = None
    symbols: tuple[Symbol, ...] = field(default_factory=tuple)

    @property
    def retiring(self) -> bool:
        """A deprecation or a removal: the name itself goes (an import is a use)."""
        return self.kind in RETIRING_KINDS


@dataclass(frozen=True)
class ScanData:
    releases: tuple[str, ...]  # every release the data covers, oldest first
    items: tuple[ScanItem, ...]
    site_url: str = ""  # where the findings' links point (the site's `site_url`)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def felt_in(item: ScanItem, environments: frozenset[str]) -> bool:
    """Whether everyone feels the change, or one of the environments named (a variant or its
    family, an OS): an item felt on `mps` needs `--on mps`."""
    if not item.felt_on:
        return True
    asked = environments | {variant_family(name) for name in environments}
    return bool(asked & set(item.felt_on))


#: Where an item's text says how the site knows something ("(our inference)", "read in the
#: wheel"): right on a release page, noise in a message about the reader's code.
_PROVENANCE = re.compile(
    r"\s*\([^()]*\bour (?:inference|reading|suggestion)\b[^()]*\)"
    r"|\s*[^.()]*\bread in the(?: [\w.]+)? wheel\b[^.()]*\."
    r"|\s*Not in the readable part of the notes;[^.]*\."
    r"|\s*The notes' table .*?; the wheel shows .*?\.(?=\s|$)"
    r"|\s*\(not verified here\)"
    r"|,? as the notes say(?=\.)",
    re.IGNORECASE,
)


def plain_message(text: str) -> str:
    """An item's action as the scanner prints it: without the site's notes on its sources."""
    return re.sub(r"\s+", " ", _PROVENANCE.sub("", text)).strip()


def from_catalog(catalog: Any) -> ScanData:
    """The scan data of a loaded catalog (in a checkout: the site's environment is there)."""
    from macros.dataset.model import SymbolUse
    from macros.dataset.text import text_html, visible_text

    items = []
    for release in catalog.releases:
        for item in release.items:
            if item.kind not in CODE_KINDS or item.effect in UNSCANNED_EFFECTS or not item.symbols:
                continue
            symbols = []
            for symbol in item.symbols:
                if isinstance(symbol, SymbolUse):
                    # Field by field, by name: a condition added to both models needs no line here.
                    values = {f.name: getattr(symbol, f.name) for f in fields(Symbol)}
                    symbols.append(Symbol(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}))
                else:
                    symbols.append(Symbol(str(symbol)))
            items.append(
                ScanItem(
                    id=item.id,
                    release=release.version,
                    kind=item.kind,
                    title=visible_text(text_html(item.title)),
                    action=plain_message(visible_text(text_html(item.action or item.summary))),
                    felt_on=_felt_on(item),
                    follows=item.follows,
                    symbols=tuple(symbols),
                )
            )
    return ScanData(tuple(release.version for release in catalog.releases), tuple(items))


def _felt_on(item: Any) -> tuple[str, ...]:
    where = item.applies_to
    if where is None:
        return ()
    if where.variants:  # a variant implies its OS (mps: macOS)
        return tuple(sorted({variant_family(v) for v in where.variants} | set(where.variants)))
    if where.os:
        return tuple(sorted(where.os))
    return (CUDA,) if where.gpu else ()  # GPU generations are CUDA's; Python versions: everyone


def to_json(data: ScanData) -> str:
    """The data file's text: stable (sorted as data/ is), ASCII, one field per line."""

    def symbol(s: Symbol) -> dict[str, object] | str:
        fields = {key: value for key, value in s.__dict__.items() if value != Symbol.__dataclass_fields__[key].default}
        fields = {key: list(value) if isinstance(value, tuple) else value for key, value in fields.items()}
        return s.name if list(fields) == ["name"] else fields

    document = {
        "format": FORMAT,
        "note": "Generated from data/ by `python -m macros scandata`; do not edit.",
        "site_url": data.site_url,
        "releases": list(data.releases),
        "items": [
            {
                "id": item.id,
                "release": item.release,
                "kind": item.kind,
                "title": item.title,
                "action": item.action,
                **({"felt_on": list(item.felt_on)} if item.felt_on else {}),
                **({"follows": item.follows} if item.follows else {}),
                "symbols": [symbol(s) for s in item.symbols],
            }
            for item in data.items
        ],
    }
    return json.dumps(document, indent=1, ensure_ascii=True) + "\n"


class ScanDataError(Exception):
    pass


def from_json(text: str, where: str = "scan_data.json") -> ScanData:
    try:
        document = json.loads(text)
        if document.get("format") != FORMAT:
            raise ScanDataError(f"{where}: format {document.get('format')!r}, this scanner reads {FORMAT}")
        items = []
        for entry in document["items"]:
            symbols = []
            for s in entry["symbols"]:
                if isinstance(s, str):
                    symbols.append(Symbol(s))
                else:
                    s = {k: tuple(v) if isinstance(v, list) else v for k, v in s.items()}
                    symbols.append(Symbol(**s))
            items.append(
                ScanItem(
                    id=entry["id"],
                    release=entry["release"],
                    kind=entry["kind"],
                    title=entry["title"],
                    action=entry["action"],
                    felt_on=tuple(entry.get("felt_on", ())),
                    follows=entry.get("follows"),
                    symbols=tuple(symbols),
                )
            )
        return ScanData(tuple(document["releases"]), tuple(items), str(document.get("site_url", "")))
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ScanDataError(f"{where}: not the scanner's data ({type(error).__name__}: {error})") from None


def packaged() -> ScanData:
    """The data file the package carries."""
    try:
        text = DATA_FILE.read_text(encoding="utf-8")
    except OSError as error:
        raise ScanDataError(f"{DATA_FILE}: cannot be read ({error.strerror})") from None
    return from_json(text, str(DATA_FILE))


def write(catalog: Any, site_url: str, target: Path = DATA_FILE) -> Path:
    """Writes the data file (a temporary file, then a rename)."""
    data = from_catalog(catalog)
    text = to_json(ScanData(data.releases, data.items, site_url))
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(target)
    return target
