"""Safe file input and output for the contributor commands (ledger, schema, materialize, permalinks).

Their inputs come from a contributor's disk and their outputs land in a project that pull requests
change, so:

- **Reading** (`read_text`): only a regular file, named directly (a link, folder, FIFO, device or
  socket is refused before it is opened: a FIFO would hang the command, `/dev/zero` exhaust its
  memory), of at most `limit` bytes (read up to the limit, never further), in UTF-8.
- **Writing** (`write_text`): only inside `root` (the project), never through a link (the file,
  or any folder between `root` and it, since a pull request can plant one), never over a folder;
  atomically (a temporary file in the same folder, then `os.replace`), so an interrupted or
  refused write leaves the old file whole. `check` sees the written temporary file before it
  replaces anything: a ledger is loaded back with the loader's own rules first.

Every refusal is an `UnsafeFile` whose message is one line naming the file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from macros.dataset.load import display_name as _display_name
from macros.dataset.problems import visible


def display_name(path: Path) -> str:
    """The path as messages show it: relative when possible, control characters escaped."""
    return visible(_display_name(path))


class UnsafeFile(Exception):
    """An input or output the commands refuse, said in one line that names the file."""


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_text(path: Path, *, limit: int) -> str:
    """The text of the regular file `path`, at most `limit` bytes of UTF-8; else `UnsafeFile`."""
    name = display_name(path)
    try:
        info = os.lstat(path)
    except OSError as error:
        raise UnsafeFile(f"{name}: cannot be read: {error.strerror or error}") from None
    kind = _kind(info.st_mode)
    if kind:
        raise UnsafeFile(f"{name}: is {kind}; give a regular file") from None
    try:
        # O_NONBLOCK: should the path turn into a FIFO after the check above, opening does not wait.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise UnsafeFile(f"{name}: cannot be read: {error.strerror or error}") from None
    with os.fdopen(fd, "rb") as handle:
        kind = _kind(os.fstat(handle.fileno()).st_mode)
        if kind:
            raise UnsafeFile(f"{name}: is {kind}; give a regular file")
        try:
            raw = handle.read(limit + 1)
        except OSError as error:
            raise UnsafeFile(f"{name}: cannot be read: {error.strerror or error}") from None
    if len(raw) > limit:
        raise UnsafeFile(f"{name}: is larger than {limit:,} bytes, the most this command reads")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise UnsafeFile(f"{name}:{line}: byte 0x{raw[error.start]:02x} is not UTF-8; save the file as UTF-8") from None


def _inside(path: Path, root: Path) -> Path:
    """`path` as an absolute path under `root`, with no link on the way from `root` to it."""
    name = display_name(path)
    # `abspath` folds `link/..` away by spelling, where the system would follow the link first
    # (`project/link/../x` is `outside/../x`): a `..` after a link is refused, not folded.
    given = Path(os.path.join(os.getcwd(), path))
    step = Path(given.anchor)
    for part in given.parts[1:]:
        if part == ".." and any(p.is_symlink() for p in [step, *step.parents]):
            raise UnsafeFile(
                f"{name}: goes up (..) from inside a link; the commands never write through links; nothing written"
            )
        step = step / part
    root_abs = Path(os.path.abspath(root))
    target = Path(os.path.abspath(path))
    try:
        relative = target.relative_to(root_abs)
    except ValueError:
        raise UnsafeFile(f"{name}: is outside the project ({root_abs}); nothing written") from None
    if not relative.parts:
        raise UnsafeFile(f"{name}: is the project folder itself; nothing written")
    step = root_abs
    for part in relative.parts:
        step = step / part
        if step.is_symlink():
            what = "is a link" if step == target else f"is reached through the link {display_name(step)}"
            raise UnsafeFile(f"{name}: {what}; the commands never write through links; nothing written")
    if target.is_dir():
        raise UnsafeFile(f"{name}: is a folder; nothing written")
    return target


def check_writable(path: Path, root: Path) -> None:
    """Refuse (`UnsafeFile`) a target `write_text` would refuse, before any work is done."""
    try:
        _inside(path, root)
    except OSError as error:
        raise UnsafeFile(f"{display_name(path)}: cannot be written: {error.strerror or error}") from None


def write_text(path: Path, text: str, *, root: Path, check: Callable[[Path], str | None] | None = None) -> None:
    """Write `text` to `path` atomically, inside `root` and through no link.

    `check(temporary_path)` may return a one-line problem: the temporary file is removed and the
    problem raised, the old file untouched. An error of the system (no space, no permission, a
    name too long) is an `UnsafeFile` too."""
    try:
        _write(path, text, root, check)
    except OSError as error:
        raise UnsafeFile(
            f"{display_name(path)}: cannot be written: {error.strerror or error}; nothing written"
        ) from None


def _write(path: Path, text: str, root: Path, check: Callable[[Path], str | None] | None) -> None:
    target = _inside(path, root)
    parent = target.parent
    missing = []
    while not parent.exists():
        missing.append(parent)
        parent = parent.parent
    for folder in reversed(missing):
        folder.mkdir()
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        problem = check(Path(temporary)) if check else None
        if problem:
            raise UnsafeFile(f"{display_name(target)}: {problem}; nothing written")
        os.chmod(temporary, 0o644)
        _inside(path, root)  # nothing was swapped for a link meanwhile
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
