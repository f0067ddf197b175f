"""`make index`, second half: the ecosystem snapshot `data/ecosystem.json`. For each package of
`ECOSYSTEM_PACKAGES`, every release first uploaded on or after `SINCE`: its upload day, whether
all its files are yanked, Requires-Python and each Requires-Dist on torch or a first-party
companion (extras and markers kept), read from the package's own metadata:

1. the PEP 658 file (`<file URL>.metadata`) of a wheel, which PyPI serves for every wheel (its
   JSON simple API may or may not advertise it as `core-metadata`);
2. else the wheel's `*.dist-info/METADATA`, read with HTTP range requests (the zip's directory,
   then the one member), never the whole wheel;
3. else the sdist's `PKG-INFO`.

What cannot be read is recorded as unknown with the reason. Metadata files never change once
published, so each one read is kept in a cache folder and a second run reads it from there.
The snapshot has no date of the run: the same answers write the same bytes.
"""

from __future__ import annotations

import email.parser
import hashlib
import io
import json
import os
import re
import struct
import tarfile
import urllib.parse
import zipfile
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version
from pydantic import ValidationError

from macros.dataset.model import ECOSYSTEM_PACKAGES, FIRST_PARTY, EcosystemRelease, EcosystemSnapshot
from macros.dataset.wheels import PLATFORMS, platform_of
from macros.tools.http import Deadline, IndexFetchError, check_url, get

ACCEPT = "application/vnd.pypi.simple.v1+json"
SINCE = "2023-01-01"
#: Largest index page read (torch's, the largest, is a few MB) and largest metadata file.
MAX_INDEX_BYTES = 32 * 1024 * 1024
MAX_METADATA_BYTES = 2 * 1024 * 1024
#: An sdist is read whole (a gzip stream cannot be read in parts); larger ones are left unknown.
MAX_SDIST_BYTES = 32 * 1024 * 1024
#: Deepest JSON nesting accepted in an index answer (PEP 691 needs 4).
MAX_JSON_DEPTH = 16
WORKERS = 12
#: Largest zip directory read from a wheel (vllm's, of thousands of files, is a few MB).
MAX_DIRECTORY_BYTES = 16 * 1024 * 1024

#: (url, accept, byte range or None) -> body. `http.get` with the run's deadline in real use.
Fetch = Callable[[str, str, "tuple[int, int] | None"], bytes]

_SAFE_FILENAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+!-]{0,250}$")
_UPLOAD_TIME = re.compile(r"^([0-9]{4}-[0-9]{2}-[0-9]{2})T[0-9:.]+Z?$")


class IndexAnswerError(Exception):
    """An index answer that is not a PEP 691 project page; one line naming the URL."""


@dataclass(frozen=True)
class IndexFile:
    filename: str
    url: str
    uploaded: str  # YYYY-MM-DD
    yanked: bool
    size: int | None
    requires_python: str | None
    version: str
    wheel: bool


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytorch-release-atlas" / "metadata"


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (checked before json.loads recurses)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def parse_project(body: bytes, url: str, package: str) -> list[IndexFile]:
    """The files of one PEP 691 answer, each checked; IndexAnswerError on anything else (an HTML
    page, a missing field, a size that is not a number, a file name with a path in it)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise IndexAnswerError(f"{url}: the answer is not UTF-8 JSON") from None
    if _depth(text) > MAX_JSON_DEPTH:
        raise IndexAnswerError(f"{url}: the answer nests deeper than {MAX_JSON_DEPTH} levels; not a PEP 691 page")
    try:
        project = json.loads(text)
    except (ValueError, RecursionError):
        start = text.lstrip()[:1]
        what = "an HTML page" if start == "<" else "not JSON"
        raise IndexAnswerError(f"{url}: the answer is {what}, not a PEP 691 JSON project page") from None
    if not isinstance(project, dict) or not isinstance(project.get("files"), list):
        raise IndexAnswerError(f"{url}: the answer has no list of files (field 'files')")
    files = []
    for position, entry in enumerate(project["files"]):
        where = f"{url}: files[{position}]"
        if not isinstance(entry, dict):
            raise IndexAnswerError(f"{where} is not an object")
        filename, file_url, uploaded = entry.get("filename"), entry.get("url"), entry.get("upload-time")
        if not isinstance(filename, str) or not _SAFE_FILENAME.match(filename) or ".." in filename:
            raise IndexAnswerError(f"{where}.filename {str(filename)[:80]!r} is not a plain file name")
        if not isinstance(file_url, str) or len(file_url) > 2000:
            raise IndexAnswerError(f"{where}.url is missing or not a string")
        try:
            absolute = check_url(urllib.parse.urljoin(url, file_url))
        except IndexFetchError as error:
            raise IndexAnswerError(f"{where}.url: {error}") from None
        day = _UPLOAD_TIME.match(uploaded) if isinstance(uploaded, str) else None
        if day is None:
            raise IndexAnswerError(f"{where}.upload-time {str(uploaded)[:40]!r} is not an ISO time")
        size = entry.get("size")
        if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size < 0):
            raise IndexAnswerError(f"{where}.size {str(size)[:40]!r} is not a number of bytes")
        requires_python = entry.get("requires-python")
        if requires_python is not None and not isinstance(requires_python, str):
            raise IndexAnswerError(f"{where}.requires-python is not a string")
        yanked = entry.get("yanked", False)
        if not isinstance(yanked, (bool, str)):
            raise IndexAnswerError(f"{where}.yanked is neither true/false nor a reason")
        parsed = _version_of(filename, package)
        if parsed is None:
            continue  # another kind of file (an .egg, an .exe) or another project's name
        version, wheel = parsed
        files.append(
            IndexFile(
                filename,
                absolute,
                day.group(1),
                yanked is not False,
                size,
                requires_python[:200] if requires_python else None,
                version,
                wheel,
            )
        )
    return files


def _version_of(filename: str, package: str) -> tuple[str, bool] | None:
    try:
        if filename.endswith(".whl"):
            name, version, _, _ = parse_wheel_filename(filename)
            wheel = True
        else:
            name, version = parse_sdist_filename(filename)
            wheel = False
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None
    if canonicalize_name(name) != canonicalize_name(package):
        return None
    return str(version), wheel


def _preference(file: IndexFile) -> tuple[int, str]:
    """Which file of a release to read: a pure-Python wheel, then a Linux x86_64 one, any wheel,
    then the sdist."""
    name = file.filename
    if not file.wheel:
        return (3, name)
    if name.endswith("-none-any.whl"):
        return (0, name)
    try:
        tags = parse_wheel_filename(name)[3]
    except (InvalidWheelFilename, InvalidVersion):
        return (2, name)
    if any(platform_of(tag.platform) == PLATFORMS[0][0] for tag in tags):  # Linux x86_64
        return (1, name)
    return (2, name)


def _relevant(requirement: Requirement) -> bool:
    return canonicalize_name(requirement.name) in FIRST_PARTY


@dataclass(frozen=True)
class MetadataRead:
    text: str | None
    source: str  # metadata, wheel, sdist
    reason: str = ""


class Reader:
    """Reads one release's metadata: PEP 658 file, wheel range reads, sdist; with a cache."""

    def __init__(self, fetch: Fetch, cache: Path | None) -> None:
        self.fetch = fetch
        self.cache = cache

    def _cached(self, key: str, read: Callable[[], str]) -> str:
        path = self.cache / (hashlib.sha256(key.encode()).hexdigest() + ".txt") if self.cache else None
        if path is not None and path.is_file() and not path.is_symlink():
            return path.read_text(encoding="utf-8")
        # Only the headers are read: the body (the project's description) is left out of the cache.
        text = re.split(r"\r?\n\r?\n", read(), maxsplit=1)[0] + "\n"
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(f".{os.getpid()}.{id(text)}.tmp")
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, path)
        return text

    def read(self, files: list[IndexFile]) -> MetadataRead:
        reasons = []
        for file in sorted(files, key=_preference):
            if file.wheel:
                try:
                    text = self._cached(file.url + ".metadata", lambda f=file: self._pep658(f))
                    return MetadataRead(text, "metadata")
                except (IndexFetchError, ValueError) as error:
                    reasons.append(f"no PEP 658 file for {file.filename} ({_short(error)})")
                try:
                    return MetadataRead(self._cached(file.url + "#METADATA", lambda f=file: self._wheel(f)), "wheel")
                except (IndexFetchError, ValueError, zlib.error, struct.error) as error:
                    reasons.append(f"METADATA of {file.filename} unreadable ({_short(error)})")
                break  # one wheel tried both ways is enough; the sdist is the last resort
        for file in sorted(files, key=_preference):
            if file.wheel:
                continue
            try:
                text = self._cached(file.url + "#PKG-INFO", lambda f=file: self._sdist(f))
                return MetadataRead(text, "sdist", "; ".join(reasons))
            except (IndexFetchError, ValueError, tarfile.TarError, zipfile.BadZipFile, OSError, EOFError) as error:
                reasons.append(f"PKG-INFO of {file.filename} unreadable ({_short(error)})")
            break
        return MetadataRead(None, "", "; ".join(reasons) or "no wheel or sdist on the index")

    def _pep658(self, file: IndexFile) -> str:
        return _text(self.fetch(file.url + ".metadata", "*/*", None))

    def _wheel(self, file: IndexFile) -> str:
        if file.size is None or file.size < 22:
            raise ValueError("the index gives no size for a range read")
        tail_size = min(file.size, 256 * 1024)
        tail = self.fetch(file.url, "*/*", (file.size - tail_size, file.size - 1))
        if len(tail) != tail_size:
            raise ValueError("the server did not answer the range request")
        end = tail.rfind(b"PK\x05\x06")
        if end < 0:
            raise ValueError("no zip directory in the last 256 KiB")
        directory_size, directory_offset = struct.unpack("<II", tail[end + 12 : end + 20])
        start = directory_offset - (file.size - tail_size)
        if directory_size > MAX_DIRECTORY_BYTES or directory_offset + directory_size > file.size:
            raise ValueError(f"a zip directory of {directory_size:,} bytes is not read")
        if start >= 0 and start + directory_size <= len(tail):
            directory = tail[start : start + directory_size]
        else:  # a wheel of many files: the directory starts before the part read
            directory = self.fetch(file.url, "*/*", (directory_offset, directory_offset + directory_size - 1))
        position = 0
        while position + 46 <= len(directory) and directory[position : position + 4] == b"PK\x01\x02":
            method, _, _, _, compressed, _, name_length, extra_length, comment_length = struct.unpack(
                "<HHHIIIHHH", directory[position + 10 : position + 34]
            )
            (local_offset,) = struct.unpack("<I", directory[position + 42 : position + 46])
            name = directory[position + 46 : position + 46 + name_length].decode("utf-8", "replace")
            position += 46 + name_length + extra_length + comment_length
            if re.fullmatch(r"[^/]+\.dist-info/METADATA", name):
                if compressed > MAX_METADATA_BYTES:
                    raise ValueError("METADATA is too large")
                header = self.fetch(file.url, "*/*", (local_offset, local_offset + 29))
                local_name, local_extra = struct.unpack("<HH", header[26:30])
                first = local_offset + 30 + local_name + local_extra
                data = self.fetch(file.url, "*/*", (first, first + compressed - 1)) if compressed else b""
                if method == 8:
                    data = zlib.decompressobj(-15).decompress(data, MAX_METADATA_BYTES)
                elif method != 0:
                    raise ValueError(f"METADATA is compressed with zip method {method}")
                return _text(data)
        raise ValueError("no *.dist-info/METADATA in the wheel")

    def _sdist(self, file: IndexFile) -> str:
        if file.size is not None and file.size > MAX_SDIST_BYTES:
            raise ValueError(f"the sdist is {file.size:,} bytes, more than the {MAX_SDIST_BYTES:,} read")
        body = self.fetch(file.url, "*/*", None)
        if file.filename.endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(body)) as archive:
                names = [n for n in archive.namelist() if re.fullmatch(r"[^/]+/PKG-INFO", n)]
                if not names:
                    raise ValueError("no PKG-INFO in the sdist")
                with archive.open(names[0]) as member:
                    return _text(member.read(MAX_METADATA_BYTES + 1))
        # Streamed: members are decompressed one after the other, and reading stops at PKG-INFO
        # (a whole sdist decompressed at once can take hundreds of MB).
        mode = "r|gz" if file.filename.endswith(".tar.gz") else "r|*"
        with tarfile.open(fileobj=io.BytesIO(body), mode=mode) as archive:
            for member in archive:
                if member.isfile() and re.fullmatch(r"[^/]+/PKG-INFO", member.name):
                    handle = archive.extractfile(member)
                    if handle is not None:
                        return _text(handle.read(MAX_METADATA_BYTES + 1))
        raise ValueError("no PKG-INFO in the sdist")


def _text(data: bytes) -> str:
    if len(data) > MAX_METADATA_BYTES:
        raise ValueError("metadata file too large")
    return data.decode("utf-8", errors="replace")


def _short(error: BaseException) -> str:
    text = str(error)
    return re.sub(r"https?://\S+?: ", "", text)[:160]


def release_record(version: str, files: list[IndexFile], read: MetadataRead) -> EcosystemRelease:
    """One release of the snapshot from its index files and the metadata read (or why not)."""
    uploaded = min(file.uploaded for file in files)
    yanked = all(file.yanked for file in files)
    index_python = next((f.requires_python for f in sorted(files, key=_preference) if f.requires_python), None)
    if read.text is None:
        return EcosystemRelease(
            version=version, uploaded=uploaded, yanked=yanked, requires_python=index_python, unknown=read.reason[:600]
        )
    message = email.parser.Parser().parsestr(read.text, headersonly=True)
    before = f"{read.reason}; then " if read.reason else ""
    if read.source == "sdist":
        dynamic = {value.strip().lower() for value in message.get_all("Dynamic") or []}
        metadata_version = (message.get("Metadata-Version") or "").strip()
        if "requires-dist" in dynamic:
            reason = before + "the sdist's PKG-INFO marks Requires-Dist as dynamic (only a build would tell)"
            return EcosystemRelease(
                version=version, uploaded=uploaded, yanked=yanked, requires_python=index_python, unknown=reason[:600]
            )
        if not message.get_all("Requires-Dist") and _older(metadata_version, "2.2"):
            reason = before + f"the sdist's PKG-INFO (metadata {metadata_version or '?'}) lists no Requires-Dist"
            return EcosystemRelease(
                version=version, uploaded=uploaded, yanked=yanked, requires_python=index_python, unknown=reason[:600]
            )
    requires: set[str] = set()
    for line in message.get_all("Requires-Dist") or []:
        text = " ".join(str(line).split())
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            name = re.match(r"[A-Za-z0-9._-]+", text)
            if name and canonicalize_name(name.group(0)) in FIRST_PARTY:
                reason = f"its Requires-Dist {text[:120]!r} is not a valid requirement (PEP 508)"
                return EcosystemRelease(
                    version=version,
                    uploaded=uploaded,
                    yanked=yanked,
                    requires_python=index_python,
                    unknown=reason[:600],
                )
            continue
        if _relevant(requirement):
            requires.add(str(requirement))
    python = (message.get("Requires-Python") or "").strip() or index_python
    return EcosystemRelease(
        version=version,
        uploaded=uploaded,
        yanked=yanked,
        requires_python=python[:200] if python else None,
        requires=sorted(requires),
        source=read.source,  # type: ignore[arg-type]
    )


def _older(version: str, than: str) -> bool:
    try:
        return Version(version) < Version(than)
    except InvalidVersion:
        return True


def build_snapshot(
    fetch: Fetch,
    index: str,
    packages: Iterable[str] = ECOSYSTEM_PACKAGES,
    cache: Path | None = None,
    workers: int = WORKERS,
    progress: Callable[[str], None] = lambda _: None,
) -> EcosystemSnapshot:
    """Read every package's index page, then every release's metadata (in a thread pool)."""
    names = sorted(canonicalize_name(name) for name in packages)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pages = dict(zip(names, pool.map(lambda name: _project(fetch, index, name), names), strict=True))
        reader = Reader(fetch, cache)
        jobs: list[tuple[str, str, list[IndexFile]]] = []
        for name in names:
            by_version: dict[str, list[IndexFile]] = {}
            for file in pages[name]:
                by_version.setdefault(file.version, []).append(file)
            for version, files in by_version.items():
                if min(file.uploaded for file in files) >= SINCE:
                    jobs.append((name, version, files))
        progress(f"{len(names)} index pages read; reading the metadata of {len(jobs)} releases")
        reads = list(pool.map(lambda job: reader.read(job[2]), jobs))
    result: dict[str, list[EcosystemRelease]] = {name: [] for name in names}
    for (name, version, files), read in zip(jobs, reads, strict=True):
        try:
            result[name].append(release_record(version, files, read))
        except ValidationError as error:
            detail = error.errors()[0]
            where = ".".join(str(part) for part in detail["loc"])
            message = f"{index}{name}/: release {version[:60]!r}: {where}: {detail['msg']}"
            raise IndexAnswerError(message) from None
    for name in names:
        result[name].sort(key=lambda release: Version(release.version))
    return EcosystemSnapshot(source=index, since=SINCE, packages=result)  # type: ignore[arg-type]


def _project(fetch: Fetch, index: str, name: str) -> list[IndexFile]:
    url = urllib.parse.urljoin(index, f"{name}/")
    return parse_project(fetch(url, ACCEPT, None), url, name)


def network_fetch(deadline: Deadline) -> Fetch:
    def fetch(url: str, accept: str, byte_range: tuple[int, int] | None) -> bytes:
        limit = MAX_INDEX_BYTES if accept == ACCEPT else MAX_SDIST_BYTES
        if url.endswith(".metadata"):
            limit = MAX_METADATA_BYTES
        elif byte_range is not None:  # a server that ignores the range is refused, not read whole
            limit = byte_range[1] - byte_range[0] + 1
        return get(url, accept=accept, deadline=deadline, max_bytes=limit, byte_range=byte_range)

    return fetch


def render(snapshot: EcosystemSnapshot) -> str:
    """One release per line (positions in problems point at it; a refresh diffs per release)."""
    head = snapshot.model_dump(exclude={"packages"})
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()] + ['  "packages": {']
    names = list(snapshot.packages)
    for index, name in enumerate(names):
        releases = snapshot.packages[name]  # type: ignore[index]
        lines.append(f"    {json.dumps(name)}: [")
        for position, release in enumerate(releases):
            comma = "," if position < len(releases) - 1 else ""
            record: dict[str, Any] = release.model_dump(exclude_defaults=True)
            record = {"version": release.version, "uploaded": release.uploaded, **record}
            lines.append("      " + json.dumps(record, separators=(",", ":"), ensure_ascii=False) + comma)
        lines.append("    ]" + ("," if index < len(names) - 1 else ""))
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"
