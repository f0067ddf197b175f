"""The scanner's file side: which files under the paths are read, and reading one safely.

A checkout can hold anything: links that point nowhere or at themselves, a FIFO or a device
named `*.py`, files no one may read, generated files of tens of megabytes, sources in latin-1
with a PEP 263 coding line or with a UTF-8 BOM. Each is either read or skipped with a reason,
never a hang, an unbounded read or a traceback; the reasons go to stderr through `printable`,
so a file name cannot write escape sequences to the terminal.
"""

from __future__ import annotations

import io
import os
import stat
import tokenize
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

#: Folders never worth reading.
SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".tox", "build", "dist"}
)
#: Files larger than this are skipped: parsing costs about 100 times the file's size in memory,
#: and Python files this large are generated (tables, embedded data), not code to migrate.
MAX_FILE_BYTES = 2 * 1024 * 1024
#: Character classes escaped in printed names: controls (escape sequences), format characters
#: (bidirectional overrides), surrogates (undecodable bytes), separators that break a line.
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


class ScanUsageError(Exception):
    """A usage error: unknown version, wrong order, a path that does not exist (exit status 2)."""


@dataclass(frozen=True)
class Candidate:
    """A file to read, or one skipped before reading (`problem` says why)."""

    path: Path
    problem: str | None = None


def printable(text: str | os.PathLike[str]) -> str:
    """The text with every character a terminal could act on written as a Python escape."""
    text = os.fspath(text)
    return "".join(
        (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
        if unicodedata.category(c) in _UNPRINTABLE
        else c
        for c in text
    )


def python_files(paths: Iterable[Path]) -> Iterator[Candidate]:
    """Every `.py` file under the paths, in a stable order; links to folders are not followed
    (no loops), and anything that is not a readable regular file comes with its reason."""
    for path in paths:
        try:
            info = path.lstat()
        except OSError:
            raise ScanUsageError(f"{printable(path)}: no such file or folder") from None
        if stat.S_ISDIR(info.st_mode):
            yield from _walk(path)
        else:
            yield _candidate(path)


def _walk(root: Path) -> Iterator[Candidate]:
    unreadable: list[OSError] = []
    for folder, dirs, files in os.walk(root, onerror=unreadable.append):
        while unreadable:
            error = unreadable.pop()
            yield Candidate(Path(error.filename or folder), f"folder not readable ({error.strerror})")
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                yield _candidate(Path(folder) / name)
    for error in unreadable:
        yield Candidate(Path(error.filename or root), f"folder not readable ({error.strerror})")


def _candidate(path: Path) -> Candidate:
    """The file if a read of it ends (a regular file, through links too); else why not."""
    try:
        info = path.stat()  # follows links: a loop or a dangling link raises here
    except OSError as error:
        if path.is_symlink():
            return Candidate(path, f"link that cannot be followed ({error.strerror})")
        return Candidate(path, f"cannot be read ({error.strerror})")
    if not stat.S_ISREG(info.st_mode):
        return Candidate(path, f"not a regular file ({_kind(info.st_mode)})")
    if info.st_size > MAX_FILE_BYTES:
        return Candidate(path, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB ({info.st_size} bytes)")
    return Candidate(path)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a folder" if stat.S_ISDIR(mode) else "not a file"


class Unreadable(Exception):
    """A file skipped while reading it; the message says why."""


def read_source(path: Path) -> str:
    """The file's text, decoded as PEP 263 says (coding line, BOM, else UTF-8), read with a
    bound: opened without blocking and checked again, so a file swapped for a FIFO or a device
    after listing cannot hang the scan or fill the memory."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror})") from None
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise Unreadable("not a regular file")
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise Unreadable(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding).removeprefix("\ufeff")
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        raise Unreadable(f"cannot be decoded ({_reason(error)})") from None


def _reason(error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return f"not {error.encoding} at byte {error.start}"
    if "invalid or missing encoding declaration" in str(error):
        return "not UTF-8, and no PEP 263 coding line names its encoding"
    return str(error)
