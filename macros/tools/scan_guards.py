"""What makes code compatibility code, for the scanner's guards (scan_visitor's `visit_Try` and
`visit_If`): the exceptions a handler catches, a test that reads torch's version (and which
branch then runs on the newer releases), `hasattr()` and signature checks. Pure functions of
the `ast`.
"""

from __future__ import annotations

import ast
import re

from macros.dataset.vocabulary import TORCH
from macros.tools.scan_module import identifier

#: Exceptions whose handler makes the code in the `try` a compatibility shim.
SHIM_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError"})
#: Handlers that catch anything: only the imports they guard are shims.
BROAD_EXCEPTIONS = frozenset({"Exception", "BaseException"})


def exception_names(node: ast.expr | None) -> list[str]:
    """`except (A, b.C)` -> ["A", "b.C", "C"]; a bare `except:` catches everything."""
    if node is None:
        return ["BaseException"]
    names = []
    for element in node.elts if isinstance(node, ast.Tuple) else [node]:
        parts = []
        while isinstance(element, ast.Attribute):
            parts.append(element.attr)
            element = element.value
        if isinstance(element, ast.Name):
            names.append(".".join([element.id, *reversed(parts)]))
            names.append((parts or [element.id])[0])
    return names


#: A name that reads torch's version: `torch.__version__`, `is_torch_version(...)`,
#: `_TORCH_GREATER_EQUAL_2_4`, `is_torch_greater_or_equal_than_2_1`, `TORCH_VERSION`, or a flag
#: that names a release (`_PT_GE_2_1`, `is_less_than_2_9`). A name that merely contains "version"
#: or "less" (`self.version`, `lossless`, `regardless`) is not one.
_TORCH_VERSION_NAME = re.compile(
    r"(?:torch|pytorch|\bpt|_pt)\w*?(?:version|greater|less|newer|older|_ge|_gt|_lt|_le|_eq)"
    r"|(?:version|greater|less|newer|older)\w*torch"
    r"|(?:greater|less|newer|older|_ge|_gt|_lt|_le)_?(?:than_|equal_|or_equal_|eq_|_)*v?\d+(?:_\d+)+$",
    re.IGNORECASE,
)
_NEWER_NAME = re.compile(r"greater|newer|_ge(?:_|\d|$)|_gt(?:_|\d|$)|at_?least", re.IGNORECASE)
_OLDER_NAME = re.compile(r"less|older|_lt(?:_|\d|$)|_le(?:_|\d|$)|before|below", re.IGNORECASE)
#: Comparison operators as version helpers take them: `is_torch_version(">=", "2.1")`.
_NEWER_OPERATORS = {">=": True, ">": True, "<": False, "<=": False}
#: Calls that read a signature: `inspect.signature(f).parameters`, `getfullargspec(f).args`.
SIGNATURE_READERS = frozenset({"signature", "getfullargspec", "getargspec", "co_varnames", "__code__"})


def reads_torch_version(node: ast.AST) -> bool:
    """Whether an expression reads torch's version (by a name, or `torch.__version__`)."""
    for child in ast.walk(node):
        name = identifier(child)
        if name and _TORCH_VERSION_NAME.search(name):
            return True
        if name in {"__version__", "version"} and isinstance(child, ast.Attribute):
            root = child.value
            while isinstance(root, ast.Attribute | ast.Call):
                root = root.value if isinstance(root, ast.Attribute) else root.func
            if isinstance(root, ast.Name) and root.id == TORCH:
                return True
        if (
            isinstance(child, ast.Call)
            and "version" in identifier(child.func).lower()
            and any(isinstance(a, ast.Constant) and a.value == TORCH for a in child.args)
        ):
            return True  # compare_versions("torch", ">=", "2.0"), version("torch")
    return False


def newer_branch(test: ast.expr) -> bool | None:
    """For a test of torch's version whose direction can be read (one flag or call whose name
    says it, a call given ">=" or "<", or a comparison of the version with a bound; possibly
    negated): True when its body runs on the newer releases, False when its `else` does; None
    for any other test."""
    negated = False
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        negated, test = not negated, test.operand
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        operator = {ast.GtE: ">=", ast.Gt: ">", ast.Lt: "<", ast.LtE: "<="}.get(type(test.ops[0]))
        left, right = reads_torch_version(test.left), reads_torch_version(test.comparators[0])
        if operator is None or left == right:
            return None
        return (_NEWER_OPERATORS[operator] == left) != negated
    if not reads_torch_version(test):
        return None
    if isinstance(test, ast.Call):
        operators = [a.value for a in test.args if isinstance(a, ast.Constant) and a.value in _NEWER_OPERATORS]
        if len(operators) == 1:
            return _NEWER_OPERATORS[operators[0]] != negated
        if operators:
            return None
        test = test.func
    name = identifier(test)
    newer = bool(_NEWER_NAME.search(name))
    if not name or newer == bool(_OLDER_NAME.search(name)):
        return None  # neither direction, or both
    return newer != negated


def is_guard_test(test: ast.expr) -> bool:
    """`hasattr(...)`, a signature check (`"x" in inspect.signature(f).parameters`) or any read of
    torch's version: both branches are compatibility code."""
    for node in ast.walk(test):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr":
            return True
        if identifier(node) in SIGNATURE_READERS:
            return True
    return reads_torch_version(test)
