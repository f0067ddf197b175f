"""A rule of the scanner (one symbol of one item, with the condition a use must meet) and the
call it reads a use's arguments from: what the call passes by name, at a position, through a
literal `**{...}` or a dict the function fills. Read by the visitor (scan_visitor) for each use.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, fields

from macros.tools.scan_rules import ScanItem, Symbol


@dataclass(frozen=True)
class Rule:
    """One symbol of one item, with the condition a use must meet."""

    name: str
    item: ScanItem
    keyword: str | None = None
    value: object = None
    any_value: bool = True
    absent: bool = False  # the call must leave `keyword` out (a changed default)
    position: int | None = None  # where `keyword` sits when passed without its name
    caught: frozenset[str] = field(default_factory=frozenset)
    decorates: str | None = None  # "class": only a class decorator counts
    name_kept: bool = False  # only what running the name does changed: importing it is no use
    dtypes: frozenset[str] = frozenset()  # the change concerns a first argument of these dtypes
    method: bool = False  # also `anything.<last part>(...)`
    compiled: bool = False  # only in code torch.compile runs
    aliasing: bool = False  # a custom op's function that may return an input
    duplicates: bool = False  # the keyword's value may hold an item twice
    defines: str | None = None  # a subclass's method of this name, lacking `keyword`
    untraced: bool = False  # only in code that runs during compilation without being traced
    sequence_values: bool = False  # the keyword's mapping may map a key to several values
    masks: bool = False  # the keyword's value may mask a whole row (not an additive bias)
    reads_nan: bool = False  # only in a module that reads NaNs from tensors
    given: str | None = None  # the first argument visibly of this kind (script-module, function)
    trailing_dict: bool = False  # the keyword's sequence may end with a dict

    @classmethod
    def of(cls, symbol: Symbol, item: ScanItem) -> Rule:
        """The rule of `symbol`: its every field, by name (tuples as sets), and the item."""
        values = {f.name: getattr(symbol, f.name) for f in fields(Symbol)}
        return cls(item=item, **{k: frozenset(v) if isinstance(v, tuple) else v for k, v in values.items()})

    @property
    def needs_call(self) -> bool:
        return self.keyword is not None or self.position is not None or bool(self.caught) or self.method


@dataclass(frozen=True)
class Call:
    """The arguments a use passes: a real call, a `partial(f, ...)` (`partial` is True) or a
    `super().__init__(...)` in a subclass. `none` holds the local names known to be None, and
    `dicts` the keys of the literal dicts local names are known to hold (for `**name`), `stored`
    the keys the function may write into a local dict (`d["verbose"] = False`)."""

    args: list[ast.expr]
    keywords: list[ast.keyword]
    partial: bool = False
    none: frozenset[str] = frozenset()
    dicts: dict[str, list[ast.keyword]] = field(default_factory=dict)
    stored: dict[str, frozenset[str]] = field(default_factory=dict)

    def may_unpack(self, keyword: str) -> str | None:
        """`**d` where the function writes `keyword` into d (`d["verbose"] = False`,
        `d.update(verbose=...)`, `d.setdefault("verbose", ...)`, `d = {**other, "verbose": v}`):
        the call may pass it; the dict's name, else None."""
        for argument in self.keywords:
            value = argument.value
            if argument.arg is None and isinstance(value, ast.Name) and keyword in self.stored.get(value.id, ()):
                return value.id
        return None

    def expanded(self) -> list[ast.keyword]:
        """The keywords, with `**{"a": 1}` and `**d` (d bound once to a literal dict) spelled out."""
        keywords: list[ast.keyword] = []
        for keyword in self.keywords:
            if keyword.arg is None and (spelled := self._literal_dict(keyword.value)) is not None:
                keywords += spelled
            else:
                keywords.append(keyword)
        return keywords

    def _literal_dict(self, node: ast.expr) -> list[ast.keyword] | None:
        if isinstance(node, ast.Name):
            return self.dicts.get(node.id)
        return literal_keywords(node)

    def passes_position(self, position: int) -> bool | None:
        """True if the call passes an argument at `position` without its name, False if it passes
        fewer, None if `*args` may reach it."""
        for index, argument in enumerate(self.args):
            if isinstance(argument, ast.Starred):
                return None
            if index == position:
                return True
        return False

    def passes(self, rule: Rule) -> bool | None:
        """True if the call passes the rule's argument (with its value, if one is given), False
        if it does not, None if it cannot be told (`*args`, `**kwargs`). An argument passed as
        None (the literal, or a local name bound only to None) is the default: not passed."""
        keywords = self.expanded()
        for keyword in keywords:
            if keyword.arg == rule.keyword:
                return self._is_value(keyword.value, rule)
        if rule.position is not None:
            for index, argument in enumerate(self.args):
                if isinstance(argument, ast.Starred):
                    return None  # *args may reach the position
                if index == rule.position:
                    return self._is_value(argument, rule)
        return None if any(keyword.arg is None for keyword in keywords) else False  # **kwargs

    def argument(self, rule: Rule) -> ast.expr | None:
        """What the call passes as the rule's argument, by name or at its position (None if it
        passes none that can be told)."""
        for keyword in self.expanded():
            if keyword.arg == rule.keyword:
                return keyword.value
        if rule.position is not None and len(self.args) > rule.position:
            before = self.args[: rule.position + 1]
            if not any(isinstance(argument, ast.Starred) for argument in before):
                return self.args[rule.position]
        return None

    def _is_none(self, node: ast.expr) -> bool:
        return (isinstance(node, ast.Constant) and node.value is None) or (
            isinstance(node, ast.Name) and node.id in self.none
        )

    def _is_value(self, node: ast.expr, rule: Rule) -> bool:
        if self._is_none(node):
            return False
        if rule.any_value:
            return True
        return (
            isinstance(node, ast.Constant)
            and type(node.value) is type(rule.value)  # True is not 1
            and node.value == rule.value
        )


def literal_keywords(node: ast.expr | None) -> list[ast.keyword] | None:
    """`{"a": 1, "b": x}` or `dict(a=1, b=x)` as keywords; None for anything else."""
    if isinstance(node, ast.Dict):
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            return None  # `**other` inside, or keys that are not literal strings
        return [ast.keyword(arg=k.value, value=v) for k, v in zip(node.keys, node.values, strict=True)]  # type: ignore[union-attr]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "dict"
        and not node.args
        and all(k.arg is not None for k in node.keywords)
    ):
        return list(node.keywords)
    return None


def judges_calls(rule: Rule) -> bool:
    """Whether the rule's condition is read from the arguments of a call (without one, the
    scanner cannot tell whether the change applies)."""
    return rule.needs_call or rule.aliasing or rule.given is not None or bool(rule.dtypes)
