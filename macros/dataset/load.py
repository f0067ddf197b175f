"""Loading stage: the only module that reads data files (data -> **load** -> model -> checks).

It parses YAML into a node tree (C loader), remembers where every value sits, rejects what PyYAML
would silently accept (duplicate keys, tabs, non-UTF-8), and validates the result against
`model.py`. Every problem comes back with file:line:column and field.

Contract: `load_file(path, model)` returns `(record or None, positions, problems)`; it never raises
for bad data.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from macros.dataset.problems import UNION_TAGS, Problem, format_path
from macros.dataset.problems import Path as FieldPath

Model = TypeVar("Model", bound=BaseModel)

_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe loader without the implicit timestamp type: dates stay strings, so an impossible
    date gets a positioned error from the model instead of a bare ValueError from PyYAML."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


#: YAML 1.1 (PyYAML) breaks lines at NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR; YAML 1.2 does
#: not: inside a comment they are part of the comment, inside a scalar part of its text. So that a
#: U+2028 in a comment cannot start a new line (and a field), and line numbers count real lines,
#: each is swapped for a non-character before parsing (one for one: columns stay right) and
#: swapped back in every value read. Text rules then refuse them in values, with their position.
_YAML12_NON_BREAKS = {"\x85": "\ufdd0", "\u2028": "\ufdd1", "\u2029": "\ufdd2"}
_HIDE_BREAKS = str.maketrans(_YAML12_NON_BREAKS)
_SHOW_BREAKS = str.maketrans({hidden: char for char, hidden in _YAML12_NON_BREAKS.items()})

#: Plain scalars that YAML 1.1 reads as numbers no reader of the file would expect: a leading zero
#: makes an octal number (0123456 is 42798), colons a base-60 one (1:02:03 is 3723).
_YAML11_OCTAL = re.compile(r"[-+]?0[0-7_]+")
_YAML11_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?")
_NUMBER_TAGS = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}


@dataclass
class Positions:
    """Where each value (and each mapping key) of one file sits: path -> (line, column)."""

    values: dict[FieldPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[FieldPath, tuple[int, int]] = field(default_factory=dict)
    raw: dict[FieldPath, str] = field(default_factory=dict)

    def of(self, path: FieldPath, *, key: bool = False) -> tuple[int, int]:
        """Position of `path`, or of its closest ancestor that has one."""
        table = self.keys if key else self.values
        for end in range(len(path), -1, -1):
            if path[:end] in table:
                return table[path[:end]]
            if path[:end] in self.values:
                return self.values[path[:end]]
        return (1, 1)


@dataclass(frozen=True)
class Loaded(Generic[Model]):
    file: str
    record: Model
    positions: Positions


def display_name(path: Path) -> str:
    """Paths in messages are relative to the working directory when possible. Links are not
    followed: the message names the file the contributor sees in data/."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


#: Largest data file accepted, in bytes (the biggest release file is about 30 KB).
MAX_FILE_BYTES = 512 * 1024
#: Deepest nesting of mappings and lists (release files use 5); deeper input could exhaust the
#: YAML composer's stack before any of our checks run.
MAX_DEPTH = 32


def read_data_file(path: Path, name: str) -> tuple[bytes | None, list[Problem]]:
    """The file's bytes, or a problem: not a regular file, unreadable, too large."""
    try:
        if not path.is_file():
            what = "a directory" if path.is_dir() else "a broken link or not a regular file"
            return None, [Problem(name, 1, 1, "(file)", f"is {what}; a data file must be a readable YAML file")]
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            message = f"is {size:,} bytes; data files are limited to {MAX_FILE_BYTES:,} bytes (split the data)"
            return None, [Problem(name, 1, 1, "(file)", message)]
        return path.read_bytes(), []
    except OSError as exc:
        return None, [Problem(name, 1, 1, "(file)", f"cannot be read: {exc.strerror or exc}")]


#: Files up to this size are known by their content (larger ones the loader refuses, or
#: pypi.json): hashing the whole data/ (2 MB) takes a few milliseconds per build.
_HASHED_BYTES = 16 * 1024 * 1024


def content_stamp(path: Path) -> tuple:
    """What tells one version of a data file from another: its content, not its time. A save that
    keeps the size and the modification time (an editor, a `git checkout`, `touch -r`) is still a
    change. Only regular files are read (a FIFO would block the build); anything else is known by
    its kind, size and times, and the loader reports it."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        return ("unreadable", error.errno)
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode) or status.st_size > _HASHED_BYTES:
        os.close(descriptor)
        return ("other", status.st_mode, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
    with os.fdopen(descriptor, "rb") as handle:
        try:
            data = handle.read(_HASHED_BYTES + 1)
        except OSError as error:
            return ("unreadable", error.errno)
    return (len(data), hashlib.blake2b(data, digest_size=16).digest())


def load_file(path: Path, model: type[Model]) -> tuple[Model | None, Positions, list[Problem]]:
    name = display_name(path)
    positions = Positions()
    raw, problems = read_data_file(path, name)
    if raw is None:
        return None, positions, problems
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        message = f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save the file as UTF-8"
        return None, positions, [Problem(name, line, column, "(file)", message)]
    # Not PyYAML's line breaks (see _YAML12_NON_BREAKS), and no clash with what stands for them.
    clash = next((char for char in _SHOW_BREAKS if chr(char) in text), None)
    if clash is not None:
        offset = text.index(chr(clash))
        line, column = text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1
        message = f"the non-character U+{clash:04X} is not allowed in data files; remove it"
        return None, positions, [Problem(name, line, column, "(yaml)", message)]
    text = text.translate(_HIDE_BREAKS)
    hidden = _hidden_breaks_outside_values(text, name)
    try:
        problems = _shape_problems(text, name)
        if problems:
            return None, positions, problems
        data, problems = _parse(text, name, positions)
    except yaml.MarkedYAMLError as exc:
        return None, positions, [_syntax_problem(name, exc, text)]
    except yaml.reader.ReaderError as exc:
        # Characters YAML refuses outright (most control characters): point at the character.
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        message = f"the control character U+{exc.character:04X} is not allowed in YAML; remove it"
        return None, positions, [Problem(name, line, column, "(yaml)", message)]
    if problems or hidden:
        return None, positions, hidden + problems
    if data is None:
        return None, positions, [Problem(name, 1, 1, "(file)", "the file is empty")]
    try:
        return model.model_validate(data), positions, []
    except ValidationError as exc:
        return None, positions, [_validation_problem(name, positions, error) for error in exc.errors()]


def _hidden_breaks_outside_values(text: str, name: str) -> list[Problem]:
    """NEL, U+2028 and U+2029 in a comment (or between tokens): invisible in a review, and a line
    break to YAML 1.1 readers (a comment's rest becomes a field there). Refused like everywhere
    else; inside a value the text rules refuse them with the field's name."""
    if not any(hidden in text for hidden in _SHOW_BREAKS_CHARS):
        return []
    spans: list[tuple[int, int]] = []
    try:
        for token in yaml.scan(text, Loader=_Loader):
            if isinstance(token, yaml.ScalarToken):
                spans.append((token.start_mark.index, token.end_mark.index))
    except yaml.YAMLError:
        pass  # the parse reports the syntax error; what was scanned still counts
    starts = [start for start, _ in spans]
    problems: list[Problem] = []
    for offset, char in enumerate(text):
        if char not in _SHOW_BREAKS_CHARS:
            continue
        at = bisect.bisect_right(starts, offset) - 1
        if at >= 0 and offset < spans[at][1]:
            continue  # inside a value: the text rules name its field
        line, column = text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1
        message = f"{_SHOW_BREAKS_NAMES[char]} outside a value (in a comment?): invisible, and a line break "
        problems.append(Problem(name, line, column, "(yaml)", message + "to some YAML readers; remove it"))
        if len(problems) == 20:
            break
    return problems


_SHOW_BREAKS_CHARS = frozenset(_YAML12_NON_BREAKS.values())
_SHOW_BREAKS_NAMES = {
    "\ufdd0": "U+0085 (next line)",
    "\ufdd1": "U+2028 (line separator)",
    "\ufdd2": "U+2029 (paragraph separator)",
}

_PLAIN_TAG = re.compile(r"^tag:yaml\.org,2002:(str|int|float|bool|null|seq|map)$")


def _shape_problems(text: str, name: str) -> list[Problem]:
    """What the event stream shows before any tree is built: more than one document, nesting
    deeper than MAX_DEPTH, anchors and aliases (a few lines of aliases can expand to billions of
    values). Our data needs none of them."""
    depth, documents = 0, 0
    for event in yaml.parse(text, Loader=_Loader):
        line, column = event.start_mark.line + 1, event.start_mark.column + 1
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                message = "a second YAML document starts here; a data file holds one document (remove the ---)"
                return [Problem(name, line, column, "(yaml)", message)]
        elif isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            message = "YAML anchors and aliases (&name, *name) are not supported; write the value out"
            return [Problem(name, line, column, "(yaml)", message)]
        elif getattr(event, "tag", None) and not _PLAIN_TAG.match(event.tag):
            tag = event.tag.replace("tag:yaml.org,2002:", "!!")
            message = f"YAML tags such as {tag} are not supported; write plain values"
            return [Problem(name, line, column, "(yaml)", message)]
        elif isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                message = f"nested more than {MAX_DEPTH} levels deep; data files need far fewer"
                return [Problem(name, line, column, "(yaml)", message)]
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return []


def _parse(text: str, name: str, positions: Positions) -> tuple[Any, list[Problem]]:
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, []
        problems: list[Problem] = []
        return _to_python(node, (), loader, positions, problems, name), problems
    finally:
        loader.dispose()


def _to_python(
    node: yaml.Node,
    path: FieldPath,
    loader: yaml.BaseLoader,
    positions: Positions,
    problems: list[Problem],
    name: str,
) -> Any:
    positions.values[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key_at = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if not isinstance(key_node, yaml.ScalarNode):
                message = "a key must be a plain name, not a list or mapping (a `?` complex key)"
                problems.append(Problem(name, *key_at, format_path(path), message))
                continue
            reported = len(problems)
            key = _scalar(key_node, path, loader, problems, name)
            if len(problems) > reported:
                continue
            if key in result:
                first = positions.keys[(*path, key)][0]
                message = f"duplicate key {key!r} (first set on line {first}); keep one"
                problems.append(Problem(name, *key_at, format_path((*path, key)), message))
                continue
            positions.keys[(*path, key)] = key_at
            result[key] = _to_python(value_node, (*path, key), loader, positions, problems, name)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _to_python(child, (*path, index), loader, positions, problems, name)
            for index, child in enumerate(node.value)
        ]
    positions.raw[path] = _shown(node.value)
    return _scalar(node, path, loader, problems, name)


def _scalar(node: yaml.ScalarNode, path: FieldPath, loader: yaml.BaseLoader, problems: list[Problem], name: str) -> Any:
    """The value of a scalar, or None with a problem: a number YAML 1.1 reads unlike anyone else
    (octal, base 60), or too long for Python to read."""
    at = (node.start_mark.line + 1, node.start_mark.column + 1)
    if node.tag in _NUMBER_TAGS and not node.style:  # plain (unquoted): the C loader says ""
        for pattern, what in ((_YAML11_OCTAL, "an octal"), (_YAML11_SEXAGESIMAL, "a base-60")):
            if pattern.fullmatch(node.value):
                message = (
                    f"YAML 1.1 reads the unquoted {node.value} as {what} number; write the number without "
                    f'{"the leading zero" if what == "an octal" else "colons"}, or quote it for text: "{node.value}"'
                )
                problems.append(Problem(name, *at, format_path(path), message))
                return None
    try:
        return _shown(loader.construct_object(node, deep=True))
    except ValueError:
        # Python refuses to read integers of more than 4,300 digits (a denial-of-service guard).
        problems.append(Problem(name, *at, format_path(path), f"the number {node.value[:20]}… is too long to read"))
        return None


def _shown(value: Any) -> Any:
    """A value read from the parsed text, with the characters hidden from PyYAML put back."""
    return value.translate(_SHOW_BREAKS) if isinstance(value, str) else value


def _syntax_problem(name: str, exc: yaml.MarkedYAMLError, text: str) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    lines = text.split("\n")  # not splitlines(): it also breaks at U+2028 and NEL
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    indentation = source_line[: len(source_line) - len(source_line.lstrip())]
    if "\t" in indentation or "\t" in (exc.problem or ""):
        tab_column = source_line.find("\t") + 1
        return Problem(
            name,
            line,
            tab_column or column,
            "(yaml)",
            "a tab character is used for indentation; YAML needs spaces",
        )
    message = f"YAML syntax error: {exc.problem or 'invalid YAML'}"
    if exc.context and exc.context_mark:
        message += f" ({exc.context} that starts on line {exc.context_mark.line + 1})"
    elif exc.context:
        message += f" ({exc.context})"
    return Problem(name, line, column, "(yaml)", message)


def _validation_problem(name: str, positions: Positions, error: Any) -> Problem:
    path: FieldPath = tuple(part for part in error["loc"] if part not in UNION_TAGS)
    kind = error["type"]
    message = error["msg"].removeprefix("Value error, ")
    if kind == "missing":
        line, column = positions.of(path[:-1])
        message = "required field is missing"
    elif kind == "extra_forbidden":
        line, column = positions.of(path, key=True)
        message = "unknown field (check the spelling; see data/README.md)"
    else:
        # Validators on a whole record name the field first ("effect is required ..."):
        # point at that field when it is present.
        first_word = message.split(" ", 1)[0]
        if kind == "value_error" and (*path, first_word) in positions.values:
            path = (*path, first_word)
        line, column = positions.of(path)
        message = _explain(kind, error, positions.raw.get(path), message)
    return Problem(name, line, column, format_path(path), message)


def _explain(kind: str, error: Any, raw: str | None, message: str) -> str:
    value = error.get("input")
    if kind == "literal_error":
        expected = error["ctx"]["expected"].replace(" or ", ", ")
        return f"{value!r} is not one of {expected}"
    if kind == "string_type" and isinstance(value, float) and raw is not None:
        return f'YAML read the unquoted {raw} as the number {value!r}; quote it: "{raw}"'
    if kind in {"int_type", "bool_type", "string_type", "list_type", "dict_type"} and value is not None:
        return f"expected {message.removeprefix('Input should be ')}, got {value!r}"
    if kind == "string_type" and value is None:
        return "a value is required here (the field is empty)"
    if kind == "string_pattern_mismatch":
        return f"{value!r} does not match the pattern {error['ctx']['pattern']}"
    return message
