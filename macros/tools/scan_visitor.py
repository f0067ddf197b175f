"""The scanner's reading of one module: which listed names it uses, where, and how.

Walks the module's `ast` (strings and comments are never code), resolving imports and aliases
(`import torch as t`, `from torch.export import export_for_training as eft`, `from m import *`)
and attribute chains. A use is a call, a decorator, a base class, an annotation, an argument of
`isinstance()`, or any other reference. A call also counts through `functools.partial(f, ...)`,
and `super().__init__(...)` counts as a call of each listed base class.

What a rule needs before a use is reported (see `UseVisitor._applies`): its keyword passed or left
out, by name or at its position; an argument passed at its position (a rule with a position and no
keyword); for `caught`, a `try` around the call that catches that exception; for `dtypes`, a
first argument not known to be of another dtype (known: a variable its function binds once, to a
tensor made by a factory with an explicit `dtype=`). An import, a type
check or an annotation is a use only of a name deprecated or removed, not of one whose behaviour
changed (a breaking item, or `name_kept`).
A use is *guarded* (not reported, like ruff's NPY201) inside a `try` that catches `ImportError`,
`ModuleNotFoundError` or `AttributeError`, and inside an `if`/`else` or conditional expression
whose test calls `hasattr()` or reads a version (a name with `version`, `greater` or `less`). When
the test is one flag whose name says the direction (`_TORCH_GREATER_EQUAL_2_3`, possibly under
`not`), only the branch for older releases is a shim: the other runs on every newer release.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from macros.dataset.model import Item, Release
from macros.dataset.vocabulary import RETIRING_KINDS
from macros.tools.scan_output import MAY_APPLY

#: Exceptions whose handler makes the code in the `try` a compatibility shim.
SHIM_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError"})
#: A test that reads a version: `torch.__version__`, `is_torch_version(...)`,
#: `_TORCH_GREATER_EQUAL_2_4`, `is_torch_greater_or_equal_than_2_1`, `version.parse(...)`.
_VERSION_NAME = re.compile(r"version|greater|less|_ge_?\d|_lt_?\d", re.IGNORECASE)
#: A module-level constant (`CUDA_HOME`): not a use of the module's changed behaviour.
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")
#: Factories whose `dtype=` is "the desired data type of returned tensor" (PyTorch's documentation
#: of torch.zeros and torch.empty_like, which says torch.empty_like(x) is torch.empty(x.size(),
#: dtype=x.dtype, ...)): a variable bound once to one of these holds that dtype.
DTYPE_FACTORIES = frozenset({"torch.empty", "torch.empty_like", "torch.zeros"})


@dataclass(frozen=True)
class Rule:
    """One symbol of one item, with the condition a use must meet."""

    name: str
    item: Item
    release: Release
    keyword: str | None = None
    value: object = None
    any_value: bool = True
    absent: bool = False  # the call must leave `keyword` out (a changed default)
    position: int | None = None  # where `keyword` sits when passed without its name
    caught: frozenset[str] = field(default_factory=frozenset)
    decorates: str | None = None  # "class": only a class decorator counts
    name_kept: bool = False  # only what running the name does changed: importing it is no use
    dtypes: frozenset[str] = frozenset()  # the change concerns a first argument of these dtypes

    @property
    def needs_call(self) -> bool:
        return self.keyword is not None or self.position is not None or bool(self.caught)


@dataclass(frozen=True)
class Call:
    """The arguments a use passes: a real call, a `partial(f, ...)` (`partial` is True) or a
    `super().__init__(...)` in a subclass."""

    args: list[ast.expr]
    keywords: list[ast.keyword]
    partial: bool = False

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
        if it does not, None if it cannot be told (`*args`, `**kwargs`)."""
        for keyword in self.keywords:
            if keyword.arg == rule.keyword:
                return self._is_value(keyword.value, rule)
        if rule.position is not None:
            for index, argument in enumerate(self.args):
                if isinstance(argument, ast.Starred):
                    return None  # *args may reach the position
                if index == rule.position:
                    return self._is_value(argument, rule)
        return None if any(keyword.arg is None for keyword in self.keywords) else False  # **kwargs

    @staticmethod
    def _is_value(node: ast.expr, rule: Rule) -> bool:
        if rule.any_value:
            return True
        return (
            isinstance(node, ast.Constant)
            and type(node.value) is type(rule.value)  # True is not 1
            and node.value == rule.value
        )


@dataclass
class Hit:
    node: ast.AST
    name: str  # the symbol as the finding shows it
    rule: Rule


class UseVisitor(ast.NodeVisitor):
    """Walks one module; `aliases` maps a local name to the qualified name it stands for."""

    def __init__(self, index: dict[str, list[Rule]], roots: frozenset[str]) -> None:
        self.index = index
        self.roots = roots
        self.aliases: dict[str, str] = {}
        self.partials: set[str] = set()  # local names of functools.partial
        self.hits: list[Hit] = []
        self.guarded = 0  # uses inside shims, counted, not reported
        self._guards = 0  # depth of enclosing guards
        self._caught: list[frozenset[str]] = []  # exceptions caught around the current code
        self._context: str = "reference"  # isinstance, annotation, import, class-decorator or reference
        self._bases: list[list[str]] = []  # listed base classes of the enclosing classes
        self._function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None = None  # the innermost one
        self._dtypes: dict[int, dict[str, str]] = {}  # per function: variable -> the dtype it always holds

    # --- matching ------------------------------------------------------------------------------

    def qualified(self, node: ast.AST) -> str | None:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        return ".".join([self.aliases[node.id], *reversed(parts)])

    def match(self, node: ast.AST, name: str, call: Call | None = None, calls_only: bool = False) -> None:
        # A rule on `a.b` matches `a.b` and anything under it (`a.b.c`); each matching rule is a hit.
        parts = name.split(".")
        for end in range(len(parts), 1, -1):
            for rule in self.index.get(".".join(parts[:end]), ()):
                if calls_only and not rule.needs_call:
                    continue  # `super().__init__()`: the base class was reported where it is named
                if end < len(parts) and _CONSTANT.match(parts[end]):
                    continue  # `cpp_extension.CUDA_HOME` is a value, not the module's behaviour
                shown = self._applies(rule, call if end == len(parts) else None, name)
                if shown is None:
                    continue
                if self._guards:
                    self.guarded += 1
                else:
                    self.hits.append(Hit(node, shown, rule))

    def _applies(self, rule: Rule, call: Call | None, name: str) -> str | None:
        """How the finding names the use, or None when the rule's condition does not hold."""
        if rule.decorates is not None:
            return f"@{name} on a class" if self._context == "class-decorator" else None
        retired_name = rule.item.kind in RETIRING_KINDS and not rule.name_kept
        if self._context in {"isinstance", "annotation", "import"} and not retired_name:
            # A type check, an annotation or an import does not run the changed behaviour; for a
            # name deprecated or removed they are places to change.
            return None
        if rule.dtypes and call is not None and call.args and isinstance(call.args[0], ast.Name):
            known = self._dtypes_of_function().get(call.args[0].id)
            if known is not None and known not in rule.dtypes:
                return None  # `trunc_normal_(w)` where w = torch.empty(..., dtype=torch.float32)
        if not rule.needs_call:
            return name
        if call is None:
            return None
        if rule.caught and not any(rule.caught & caught for caught in self._caught):
            return None
        if rule.keyword is None and rule.position is not None:
            # Only a call that passes that argument by position: `f(a, b, c, d)` for position 3,
            # not `f(a, b, c, d=...)`. `*args` may or may not reach it: not reported, like a keyword.
            passed_at = call.passes_position(rule.position)
            return f"{name}() with argument {rule.position + 1} by position" if passed_at else None
        if rule.keyword is None:
            return f"{name}() in try/except {'/'.join(sorted(rule.caught))}"
        passed = call.passes(rule)
        if rule.absent:
            if call.partial:
                return None  # a partial's caller may still pass it: the partial is not the call
            if passed is False:
                return f"{name}() without {rule.keyword}="
            if passed is None:
                # `f(..., **kwargs)` relies on the default unless the caller's dictionary holds
                # the keyword, which only the callers show: reported, saying what to check.
                unpacked = "**kwargs" if any(k.arg is None for k in call.keywords) else "*args"
                return f"{name}({unpacked}){MAY_APPLY}it sets {rule.keyword}="
            return None
        return f"{name}({rule.keyword}=...)" if passed else None

    # --- bindings ------------------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        saved, self._context = self._context, "import"
        self._imports(node)
        self._context = saved

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        saved, self._context = self._context, "import"
        self._imports_from(node)
        self._context = saved

    def _imports(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "functools":
                self.aliases.setdefault(alias.asname or "functools", "functools")
            if alias.name.split(".")[0] not in self.roots:
                continue
            if alias.asname:
                self.aliases[alias.asname] = alias.name
                self.match(node, alias.name)
            else:
                top = alias.name.split(".")[0]
                self.aliases[top] = top
                if "." in alias.name:
                    self.match(node, alias.name)

    def _imports_from(self, node: ast.ImportFrom) -> None:
        if node.module == "functools" and not node.level:
            self.partials.update(a.asname or a.name for a in node.names if a.name == "partial")
        if node.level or not node.module or node.module.split(".")[0] not in self.roots:
            return
        for alias in node.names:
            if alias.name == "*":
                self._import_star(node, node.module)
                continue
            qualified = f"{node.module}.{alias.name}"
            self.aliases[alias.asname or alias.name] = qualified
            self.match(node, qualified)

    def _import_star(self, node: ast.ImportFrom, module: str) -> None:
        """`from m import *`: every listed name directly under m becomes a local name, and the
        import itself is a use of m when m (or a module above it) is listed."""
        prefix = module + "."
        for name in self.index:
            if name.startswith(prefix):
                local = name[len(prefix) :].split(".")[0]
                self.aliases[local] = prefix + local
        self.match(node, module)

    def _bind_target(self, target: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self.aliases.pop(target.id, None)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._bind_target(element)
        else:
            self.visit(target)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self._bind_target(target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._annotation(node.annotation)
        if node.value is not None:
            self.visit(node.value)
        self._bind_target(node.target)

    def _annotation(self, node: ast.AST | None) -> None:
        if node is None:
            return
        saved, self._context = self._context, "annotation"
        self.visit(node)
        self._context = saved

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        saved = dict(self.aliases)
        saved_function, self._function = self._function, node
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
        for default in [*arguments.defaults, *arguments.kw_defaults]:
            if default is not None:
                self.visit(default)
        if not isinstance(node, ast.Lambda):
            for arg in every:
                self._annotation(arg.annotation)
            self._annotation(node.returns)
        for arg in every:
            self.aliases.pop(arg.arg, None)
        body = node.body if isinstance(node.body, list) else [node.body]
        for statement in body:
            self.visit(statement)
        self.aliases = saved
        self._function = saved_function

    def _dtypes_of_function(self) -> dict[str, str]:
        """`_bound_once_to_a_dtype` of the function being read, worked out when a rule first needs
        it (few do: reading every function would cost a third of the scan)."""
        function = self._function
        if function is None:
            return {}  # module level: any function may rebind a global
        if id(function) not in self._dtypes:
            self._dtypes[id(function)] = self._bound_once_to_a_dtype(function)
        return self._dtypes[id(function)]

    def _bound_once_to_a_dtype(self, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> dict[str, str]:
        """The function's variables bound exactly once, by `v = factory(..., dtype=torch.X)`: v
        then holds a torch.X tensor wherever the function reads it (Python makes v local to the
        function, so no other binding reaches it). Any other binding of v, `global`/`nonlocal`, a
        parameter named v or an assignment to one of v's attributes (`v.data = ...`) disqualifies it."""
        if isinstance(function, ast.Lambda):
            return {}
        stores: dict[str, int] = {}
        made: dict[str, str] = {}
        arguments = function.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]:
            if arg is not None:
                stores[arg.arg] = 2
        for node in _walk_own_scope(function.body):
            names: list[str] = []
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                names = [node.id]
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
                names = [n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)]
                names += names  # never trusted
            elif isinstance(node, ast.Global | ast.Nonlocal):
                names = list(node.names) * 2
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names = [(a.asname or a.name).split(".")[0] for a in node.names]
            elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
                names = [node.name]
            elif isinstance(node, ast.MatchMapping) and node.rest:
                names = [node.rest]
            for name in names:
                stores[name] = stores.get(name, 0) + 1
            if isinstance(node, ast.Assign | ast.AnnAssign) and (dtype := self._made_with_dtype(node.value)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if len(targets) == 1 and isinstance(targets[0], ast.Name):
                    made[targets[0].id] = dtype
        return {name: dtype for name, dtype in made.items() if stores.get(name) == 1}

    def _made_with_dtype(self, value: ast.expr | None) -> str | None:
        if not isinstance(value, ast.Call) or self.qualified(value.func) not in DTYPE_FACTORIES:
            return None
        dtype = next((k.value for k in value.keywords if k.arg == "dtype"), None)
        return self.qualified(dtype) if dtype is not None else None

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._scoped(node)
        self.aliases.pop(node.name, None)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._scoped(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        saved, self._context = self._context, "class-decorator"
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._context = saved
        for expression in [*node.bases, *(k.value for k in node.keywords)]:
            self.visit(expression)
        bases = [name for name in map(self.qualified, node.bases) if name is not None]
        self._bases.append(bases)
        saved_function, self._function = self._function, None  # a class body has its own names
        for statement in node.body:
            self.visit(statement)
        self._function = saved_function
        self._bases.pop()
        self.aliases.pop(node.name, None)

    # --- guards and handlers -------------------------------------------------------------------

    def visit_Try(self, node: ast.Try) -> None:
        caught = frozenset(name for handler in node.handlers for name in _exception_names(handler.type))
        shim = bool(caught & SHIM_EXCEPTIONS)
        self._guards += shim
        self._caught.append(caught)
        for statement in node.body:
            self.visit(statement)
        self._caught.pop()
        for part in [*node.handlers, *node.orelse]:
            self.visit(part)
        self._guards -= shim
        for statement in node.finalbody:
            self.visit(statement)

    visit_TryStar = visit_Try  # type: ignore[assignment]

    def visit_If(self, node: ast.If | ast.IfExp) -> None:
        newer = _newer_branch(node.test)
        if newer is None:  # hasattr(), or a version test whose direction is not told by its name
            guard = _is_guard_test(node.test)
            self._guards += guard
            self.generic_visit(node)
            self._guards -= guard
            return
        # `if _TORCH_GREATER_EQUAL_2_3: a else: b`: a runs on every newer release, so the changes
        # after 2.3 reach it; only b, kept for older releases, is a shim.
        self.visit(node.test)
        for branch, runs_on_newer in ((node.body, newer), (node.orelse, not newer)):
            self._guards += not runs_on_newer
            for child in branch if isinstance(branch, list) else [branch]:
                self.visit(child)
            self._guards -= not runs_on_newer

    visit_IfExp = visit_If  # type: ignore[assignment]

    # --- uses ----------------------------------------------------------------------------------

    def visit_Call(self, node: ast.Call) -> None:
        call = Call(node.args, node.keywords)
        if self._is_partial(node.func):
            target = self.qualified(node.args[0]) if node.args else None
            if target is not None:
                self.match(node.args[0], target, Call(node.args[1:], node.keywords, partial=True))
                node = ast.Call(node.func, node.args[1:], node.keywords)
        elif (name := self.qualified(node.func)) is not None:
            self.match(node.func, name, call)
        elif self._is_super_init(node.func) and self._bases:
            for base in self._bases[-1]:
                self.match(node, base, call, calls_only=True)
        else:
            self.visit(node.func)
        if isinstance(node.func, ast.Name) and node.func.id in {"isinstance", "issubclass"} and len(node.args) == 2:
            self.visit(node.args[0])
            saved, self._context = self._context, "isinstance"
            self.visit(node.args[1])
            self._context = saved
            arguments = [k.value for k in node.keywords]
        else:
            arguments = [*node.args, *(k.value for k in node.keywords)]
        for argument in arguments:
            self.visit(argument)

    def _is_super_init(self, func: ast.AST) -> bool:
        return (
            isinstance(func, ast.Attribute)
            and func.attr == "__init__"
            and isinstance(func.value, ast.Call)
            and isinstance(func.value.func, ast.Name)
            and func.value.func.id == "super"
        )

    def _is_partial(self, func: ast.AST) -> bool:
        if isinstance(func, ast.Name):
            return func.id in self.partials
        return (
            isinstance(func, ast.Attribute)
            and func.attr == "partial"
            and isinstance(func.value, ast.Name)
            and self.aliases.get(func.value.id) == "functools"
        )

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = self.qualified(node)
        if name is None:
            self.generic_visit(node)
        else:
            self.match(node, name)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in self.aliases:
            self.match(node, self.aliases[node.id])


def _walk_own_scope(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of a function's body, without the bodies of the functions, lambdas and classes
    defined in it (their names are bindings of this scope; what they bind is theirs)."""
    pending: list[ast.AST] = list(body)
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            pending.extend(node.decorator_list)
            continue
        if isinstance(node, ast.Lambda):
            continue
        pending.extend(ast.iter_child_nodes(node))


def _exception_names(node: ast.expr | None) -> list[str]:
    """`except (A, b.C)` -> ["A", "b.C", "C"]; a bare `except:` catches everything."""
    if node is None:
        return ["BaseException", *SHIM_EXCEPTIONS]
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


#: A version test whose name says its direction: `_TORCH_GREATER_EQUAL_2_4`,
#: `is_torch_greater_or_equal_than_2_1`, `_TORCH_GE_2_5`, `is_torch_greater_or_equal("2.5")`;
#: `less`/`_lt_` the other way.
_NEWER_NAME = re.compile(r"greater|_ge_?\d", re.IGNORECASE)
_OLDER_NAME = re.compile(r"less|_lt_?\d", re.IGNORECASE)


def _newer_branch(test: ast.expr) -> bool | None:
    """For a test that is one version flag or call (possibly negated): True when its body runs on
    the newer releases, False when its `else` does; None for any other test."""
    negated = False
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        negated, test = not negated, test.operand
    if isinstance(test, ast.Call):
        test = test.func
    identifier = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else ""
    newer = bool(_NEWER_NAME.search(identifier))
    if newer == bool(_OLDER_NAME.search(identifier)):
        return None  # neither direction, or both
    return newer != negated


def _is_guard_test(test: ast.expr) -> bool:
    for node in ast.walk(test):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr":
            return True
        identifier = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        if identifier and _VERSION_NAME.search(identifier):
            return True
    return False
