"""Files the commands read and write, safely: inputs must be regular files (not FIFOs, devices,
folders or links) below a size cap; outputs are written atomically (a temporary file beside the
target, then a rename) and never through a link.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class UnsafePathError(Exception):
    """An input or output the command refuses; the message is one line naming the file."""


def read_input(path: Path, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most `max_bytes`, opened without following a link."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise UnsafePathError(f"{path}: no such file") from None
    except OSError as error:
        raise UnsafePathError(f"{path}: cannot be read ({error.strerror or error})") from None
    if stat.S_ISLNK(info.st_mode):
        raise UnsafePathError(f"{path}: is a link; give the file it points to")
    if stat.S_ISDIR(info.st_mode):
        raise UnsafePathError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise UnsafePathError(f"{path}: is not a regular file (a FIFO, socket or device)")
    if info.st_size > max_bytes:
        raise UnsafePathError(f"{path}: is {info.st_size:,} bytes; at most {max_bytes:,} are read")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise UnsafePathError(f"{path}: cannot be read ({error.strerror or error})") from None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise UnsafePathError(f"{path}: is not a regular file")
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UnsafePathError(f"{path}: is more than {max_bytes:,} bytes; at most {max_bytes:,} are read")
    return data


def check_writable(path: Path) -> None:
    """UnsafePathError when `write_atomically` would refuse `path` (checked for every file of a
    command before the first is written, so that none is written when one cannot be)."""
    if path.is_symlink():
        raise UnsafePathError(f"{path}: is a link; not written through it (remove the link)")
    if path.exists() and not path.is_file():
        raise UnsafePathError(f"{path}: is not a regular file; not replaced")
    if path.parent.is_symlink() or not path.parent.is_dir():
        raise UnsafePathError(f"{path.parent}: is not a folder of the project (a link or missing)")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename; refuse a link (dangling or
    not) at `path` or as its folder, and anything at `path` that is not a regular file."""
    check_writable(path)
    if path.is_symlink():
        raise UnsafePathError(f"{path}: is a link; not written through it (remove the link)")
    if path.exists() and not path.is_file():
        raise UnsafePathError(f"{path}: is not a regular file; not replaced")
    folder = path.parent
    if folder.is_symlink() or not folder.is_dir():
        raise UnsafePathError(f"{folder}: is not a folder of the project (a link or missing)")
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
