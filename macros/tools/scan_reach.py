"""Whether a function is reached from code torch.compile runs, through the calls the tree shows:
scan_tree's `uncompiled:NAME` fact, asked for a use of a `compiled` rule that its own module does
not show compiled (scan_visitor's `_in_compiled_code` reads one module alone).

The search walks callers backwards, by name, from the function holding the use (`helper` or
`Class.method`) until it meets compiled code, reading only the files whose text names the function
it looks for. Compiled code is what scan_visitor takes for compiled (a function decorated with or
given to torch.compile, a module's `forward` and steps: COMPILED_METHODS), and the public methods
of a module class that has steps, itself or through the tree's classes it derives from: a user's
compiled step in a subclass calls them without the tree showing it (Lightning's `training_step`
calling `self.all_gather`). A module class derives from `torch.nn.Module`, through the tree's
own classes. A module's constructor, class and static methods and loss modules (LOSS_SUFFIX:
training scripts compile the model, not the loss) are left out, as scan_visitor leaves them out.

A caller is a function whose body names the one searched for:
- a module-level function `f`: the name `f`, where the file defines or imports it by that name,
  or `module.f` on a name an import of the tree binds (not `x.f` on any object: `t.gather()`);
- a method `C.m`: `self.m` or `cls.m` in a class related to C (C, one of its bases or subclasses,
  by name), and `obj.m` on any other object, except on an object imported from outside the tree
  (`dist.all_gather` is torch's), on `self.x` that the class makes of unrelated classes only
  (`self.altup = AltUp(config)`: `self.altup.predict` is not `Trainer.predict`), and except
  names torch.nn.Module defines (`model.train()` is torch's method as likely as the tree's).

Code at module level runs at import, not compiled, so it is no caller. The fact `uncompiled:NAME`
holds when the search ends without meeting compiled code; it does not hold when a file that
names a function searched for cannot be read or parsed, or when the search grows past
SEARCH_LIMIT functions (the use is then reported: the scanner cannot tell).
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from macros.tools.scan_files import Unreadable, read_source
from macros.tools.scan_module import (
    COMPILED_METHODS,
    COMPILERS,
    LOSS_SUFFIX,
    compile_targets,
    construction_functions,
    identifier,
    module_imports,
    qualified_name,
)
from macros.tools.scan_output import MAY_APPLY

UNCOMPILED = "uncompiled:"
#: torch's module class, as a base names it once imports are resolved.
TORCH_MODULES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module", "torch.nn.modules.Module"})
#: The public methods torch.nn.Module defines (torch/nn/modules/module.py, read 2026-11-28), and
#: `forward`: `x.train()` on an object the tree does not type names one of them as likely as a
#: tree's method of that name, so it is not taken for a call of the tree's method.
MODULE_METHODS = frozenset(
    {
        "add_module", "apply", "bfloat16", "buffers", "children", "compile", "cpu", "cuda", "double", "eval",
        "extra_repr", "float", "forward", "get_buffer", "get_extra_state", "get_parameter", "get_submodule",
        "half", "ipu", "load_state_dict", "modules", "mtia", "named_buffers", "named_children",
        "named_modules", "named_parameters", "parameters", "register_backward_hook", "register_buffer",
        "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
        "register_full_backward_pre_hook", "register_load_state_dict_post_hook",
        "register_load_state_dict_pre_hook", "register_module", "register_parameter",
        "register_state_dict_post_hook", "register_state_dict_pre_hook", "requires_grad_",
        "set_extra_state", "set_submodule", "share_memory", "state_dict", "to", "to_empty", "train", "type",
        "xpu", "zero_grad",
    }
)  # fmt: skip
#: Functions the search may visit before it gives up (and the use is reported).
SEARCH_LIMIT = 400
#: The steps Lightning runs compiled (scan_visitor's COMPILED_METHODS but `forward`).
STEP_METHODS = COMPILED_METHODS - {"forward"}
#: Decorators that make a method no method of an instance a forward would call.
NOT_INSTANCE_METHODS = frozenset({"classmethod", "staticmethod"})


@dataclass(frozen=True)
class Target:
    """A function searched for: a module-level function (owner None) or a class's method."""

    name: str
    owner: str | None = None

    @classmethod
    def parse(cls, text: str) -> Target:
        owner, _, name = text.rpartition(".")
        return cls(name, owner or None)

    def __str__(self) -> str:
        return f"{self.owner}.{self.name}" if self.owner else self.name


@dataclass(frozen=True)
class Reach:
    """How compiled code reaches a function: the functions from the compiled one down to it,
    and the nodes that show it, each with its file (both empty when the search cannot tell)."""

    chain: tuple[str, ...]
    evidence: tuple[tuple[Path, ast.AST], ...]

    def question(self, symbol: str) -> str:
        """The finding's symbol, saying what to check and, when the search found it, the way
        compiled code reaches the use."""
        asked = f"{symbol}{MAY_APPLY}compiled code runs it"
        if not self.chain:
            return asked
        if len(self.chain) == 1:
            return f"{asked} ({self.chain[0]} is a public method of a module with compiled steps)"
        root, *between, _ = self.chain
        through = f" through {', '.join(between)}" if between else ""
        return f"{asked} (called from {root}{through})"


def fact_for(function: str, owner: str | None) -> str:
    """The fact a use in `function` (a method of `owner`, if given) waits on."""
    return f"{UNCOMPILED}{owner + '.' if owner else ''}{function}"


def reaches(paths: Iterable[Path], asked: set[str]) -> dict[str, Reach | None]:
    """For each `uncompiled:` fact asked about: None when it holds (no compiled code of the tree
    reaches its function), else how compiled code reaches it."""
    tree = CallerSearch(list(paths))
    return {fact: tree.reached(fact.removeprefix(UNCOMPILED)) for fact in asked if fact.startswith(UNCOMPILED)}


@dataclass
class _File:
    module: ast.Module
    imports: dict[str, str]  # local name -> what it names (`nn` -> `torch.nn`)
    compiled: frozenset[str]  # functions the module gives to torch.compile
    classes: dict[str, list[ast.ClassDef]] = field(default_factory=dict)  # by name
    imported: set[str] = field(default_factory=set)  # the names `from x import name` binds, and `name`
    construction: set[int] | None = None  # construction_functions, read once
    references: dict[str, list[Reference]] | None = None  # _references, read once


class CallerSearch:
    """The tree's files, read and parsed when a search first needs them."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        self.texts: dict[Path, str | None] = {}
        self.files: dict[Path, _File | None] = {}
        # The names a module of the tree can be imported by: its packages and modules, from the
        # folder that holds them all (a package scanned alone) down; not the folders above it
        # (a project under ~/torch/ does not make `torch` one of the tree's names).
        folders = [path.parent.absolute() for path in paths]
        top = Path(os.path.commonpath(folders)) if folders else Path()
        self.own_names = {top.name, *(path.stem for path in paths)}
        self.own_names |= {part for folder in folders for part in folder.relative_to(top).parts}
        self.ancestors_cache: dict[str, set[str]] = {}
        self.module_class_cache: dict[str, bool] = {}
        self.named: dict[str, tuple[list[tuple[Path, _File]], bool]] = {}  # naming's answers

    def text(self, path: Path) -> str | None:
        if path not in self.texts:
            try:
                self.texts[path] = read_source(path)
            except (Unreadable, OSError):
                self.texts[path] = None
        return self.texts[path]

    def naming(self, word: str, pattern: str) -> tuple[list[tuple[Path, _File]], bool]:
        """The parsed files whose text holds `word` and matches the regular expression, and
        whether a file that might could not be read or parsed."""
        if pattern in self.named:
            return self.named[pattern]
        found: list[tuple[Path, _File]] = []
        unsure = False
        searched = re.compile(pattern)
        for path in self.paths:
            text = self.text(path)
            if text is None:
                unsure = True
                continue
            if word not in text or not searched.search(text):  # the plain search first: quicker
                continue
            file = self.file(path, text)
            if file is None:
                unsure = True
            else:
                found.append((path, file))
        self.named[pattern] = found, unsure
        return found, unsure

    def file(self, path: Path, text: str) -> _File | None:
        if path not in self.files:
            try:
                module = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self.files[path] = None
            else:
                file = self.files[path] = _File(module, module_imports(module), compile_targets(module)[0])
                for node in ast.walk(module):
                    if isinstance(node, ast.ClassDef):
                        file.classes.setdefault(node.name, []).append(node)
                    elif isinstance(node, ast.ImportFrom):
                        file.imported |= {alias.asname or alias.name for alias in node.names}
                        file.imported |= {alias.name for alias in node.names}
        return self.files[path]

    # Classes, by name.

    def classes(self, name: str) -> list[tuple[ast.ClassDef, _File]]:
        return [(node, file) for node, file, _ in self.classes_at(name)]

    def classes_at(self, name: str) -> list[tuple[ast.ClassDef, _File, Path]]:
        found, _ = self.naming(name, rf"\bclass\s+{re.escape(name)}\b")
        return [(node, file, path) for path, file in found for node in file.classes.get(name, [])]

    def ancestors(self, name: str) -> set[str]:
        """The names of a class's bases, through the tree's classes of those names."""
        if name not in self.ancestors_cache:
            self.ancestors_cache[name] = set()  # a cycle ends here
            found: set[str] = set()
            for node, _ in self.classes(name):
                for base in map(_unsubscripted, node.bases):
                    base_name = identifier(base)
                    if base_name and base_name != name:
                        found |= {base_name, *self.ancestors(base_name)}
            self.ancestors_cache[name] = found
        return self.ancestors_cache[name]

    def is_module_class(self, node: ast.ClassDef, file: _File) -> bool:
        """Whether the class derives from torch.nn.Module, through the tree's classes."""
        for base in map(_unsubscripted, node.bases):
            if qualified_name(base, file.imports) in TORCH_MODULES:
                return True
            base_name = identifier(base)
            if base_name and base_name != node.name and self._named_module_class(base_name):
                return True
        return False

    def _named_module_class(self, name: str) -> bool:
        if name not in self.module_class_cache:
            self.module_class_cache[name] = False  # a cycle ends here
            self.module_class_cache[name] = any(self.is_module_class(node, file) for node, file in self.classes(name))
        return self.module_class_cache[name]

    def related(self, one: str, other: str) -> bool:
        return one == other or other in self.ancestors(one) or one in self.ancestors(other)

    # The search.

    def reached(self, start: str) -> Reach | None:
        """How compiled code reaches the function (`name` or `Class.name`), None if it does not."""
        return self.search(Target.parse(start))

    def search(self, first: Target) -> Reach | None:
        """None when no compiled code reaches the function; else the callers from the compiled
        one down to it and what shows it (both empty when the search cannot tell)."""
        if first.owner is not None:
            shown = self._compiled_method(first)
            if shown is not None:
                return Reach((str(first),), tuple(shown))
        found_by: dict[Target, tuple[Target | None, Path | None, ast.AST | None]] = {first: (None, None, None)}
        pending = [first]
        while pending:
            if len(found_by) > SEARCH_LIMIT:
                return Reach((), ())  # cannot tell: reported
            target = pending.pop()
            word = re.escape(target.name)
            found, unsure = self.naming(target.name, rf"\b{word}\b" if target.owner is None else rf"\.\s*{word}\b")
            if unsure:
                return Reach((), ())
            for path, file in found:
                for caller in _callers(file, target, self):
                    if caller.compiled:
                        evidence = (*self._steps_shown(caller), (path, caller.node), *_chain(found_by, target))
                        return Reach((str(caller.target), *_callees(found_by, target)), evidence)
                    if caller.target not in found_by:
                        found_by[caller.target] = (target, path, caller.node)
                        pending.append(caller.target)
        return None

    def _compiled_method(self, target: Target) -> list[tuple[Path, ast.AST]] | None:
        """What shows a class of that name is a module class whose method of that name compiled
        code runs or calls (scan_visitor judged its own module by the method's name only)."""
        for node, file, path in self.classes_at(target.owner or ""):
            for method in node.body:
                if (
                    isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
                    and method.name == target.name
                    and self.module_method(node, method, file)
                ):
                    return [*self._steps_shown(_Caller(target, True, method, node)), (path, method)]
        return None

    def _steps_shown(self, caller: _Caller) -> list[tuple[Path, ast.AST]]:
        """The step that makes a public method of a module compiled code, where the class or a
        class it derives from defines it."""
        if caller.owner is None or getattr(caller.node, "name", "") in COMPILED_METHODS:
            return []
        for name in [caller.owner.name, *sorted(self.ancestors(caller.owner.name))]:
            for node, _, path in self.classes_at(name):
                steps = [s for s in node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
                steps = [s for s in steps if s.name in STEP_METHODS]
                if steps:
                    return [(path, steps[0])]
        return []

    def module_method(self, owner: ast.ClassDef, method: ast.FunctionDef | ast.AsyncFunctionDef, file: _File) -> bool:
        """A method compiled code runs or calls without the tree showing the call: a module's
        `forward` or step (COMPILED_METHODS), or a public method of a module that has steps
        (Lightning's `LightningModule.all_gather`, which a user's compiled `training_step` in a
        subclass calls)."""
        if owner.name.endswith(LOSS_SUFFIX) or method.name.startswith("__"):
            return False
        if any(identifier(d) in NOT_INSTANCE_METHODS for d in method.decorator_list):
            return False
        if method.name not in COMPILED_METHODS and (method.name.startswith("_") or not self.has_steps(owner)):
            return False
        if file.construction is None:
            file.construction = construction_functions(file.module)
        return id(method) not in file.construction and self.is_module_class(owner, file)

    def has_steps(self, owner: ast.ClassDef) -> bool:
        """Whether the class, or a class of the tree it derives from, defines a step (classes
        are known by name, as everywhere in the search)."""
        if _defines(owner, STEP_METHODS):
            return True
        names = [owner.name, *self.ancestors(owner.name)]
        return any(_defines(node, STEP_METHODS) for name in names for node, _ in self.classes(name))


@dataclass(frozen=True)
class _Caller:
    target: Target
    compiled: bool
    node: ast.AST = field(compare=False)  # the outermost function
    owner: ast.ClassDef | None = field(compare=False)


def _callees(found_by: dict[Target, tuple[Target | None, Path | None, ast.AST | None]], target: Target) -> list[str]:
    """The functions from `target` down to where the search started."""
    names: list[str] = []
    step: Target | None = target
    while step is not None:
        names.append(str(step))
        step = found_by[step][0]
    return names


def _chain(
    found_by: dict[Target, tuple[Target | None, Path | None, ast.AST | None]], target: Target
) -> list[tuple[Path, ast.AST]]:
    """The callers that led the search to `target`, from it back to the start."""
    chain: list[tuple[Path, ast.AST]] = []
    step: Target | None = target
    while step is not None:
        step, path, node = found_by[step]
        if path is not None and node is not None:
            chain.append((path, node))
    return chain


def _callers(file: _File, target: Target, tree: CallerSearch) -> list[_Caller]:
    """The functions of the file that name the target, each as the function a search goes on with
    (the outermost one: a nested function is reached through it), and whether it is compiled."""
    binds = target.owner is None and _binds(file, target.name)
    return [
        _caller(chain, owner, file, tree)
        for node, chain, owner in _references(file).get(target.name, [])
        if _names(node, target, binds, file, owner, tree)
    ]


Reference = tuple[ast.AST, tuple[ast.AST, ...], ast.ClassDef | None]  # node, enclosing functions, class


def _references(file: _File) -> dict[str, list[Reference]]:
    """Each name and attribute the file's functions read, by the name (read once per file: a
    search asks a file about many names)."""
    if file.references is None:
        index: dict[str, list[Reference]] = {}

        def visit(node: ast.AST, owner: ast.ClassDef | None, chain: tuple[ast.AST, ...]) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef):
                    visit(child, child if not chain else owner, chain)
                    continue
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    visit(child, owner, (*chain, child))
                    continue
                if chain and isinstance(child, ast.Name | ast.Attribute):
                    key = child.id if isinstance(child, ast.Name) else child.attr
                    index.setdefault(key, []).append((child, chain, owner))
                visit(child, owner, chain)

        visit(file.module, None, ())
        file.references = index
    return file.references


def _names(
    node: ast.AST, target: Target, binds: bool, file: _File, owner: ast.ClassDef | None, tree: CallerSearch
) -> bool:
    if target.owner is None and binds and isinstance(node, ast.Name) and node.id == target.name:
        return isinstance(node.ctx, ast.Load)
    if not isinstance(node, ast.Attribute) or node.attr != target.name or not isinstance(node.ctx, ast.Load):
        return False
    receiver = node.value
    if _is_self(receiver):
        return target.owner is not None and owner is not None and tree.related(owner.name, target.owner)
    root = receiver
    while isinstance(root, ast.Attribute | ast.Call | ast.Subscript):
        root = root.func if isinstance(root, ast.Call) else root.value
    if (
        isinstance(root, ast.Name)
        and root.id in file.imports
        and file.imports[root.id].split(".")[0] not in tree.own_names
    ):
        return False  # `dist.all_gather`: torch's function, not the tree's
    if target.owner is None:  # `module.f`: on a name an import binds, not on any object (`x.gather`)
        return isinstance(root, ast.Name) and (root.id in file.imported or root.id in file.imports)
    if target.name in MODULE_METHODS:
        return False
    made = _attribute_classes(receiver, owner)
    return made is None or any(tree.related(name, target.owner) for name in made)


def _attribute_classes(receiver: ast.expr, owner: ast.ClassDef | None) -> set[str] | None:
    """The classes `self.x` is made of, when every assignment to it in the class calls a class by
    name (`self.altup = AltUp(config)`); None when the class does not show it."""
    if owner is None or not (isinstance(receiver, ast.Attribute) and _is_self(receiver.value)):
        return None
    made: set[str] = set()
    for node in ast.walk(owner):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign | ast.AugAssign)
            else []
        )
        for assigned in targets:
            if isinstance(assigned, ast.Attribute) and _is_self(assigned.value) and assigned.attr == receiver.attr:
                value = getattr(node, "value", None)
                name = identifier(value.func) if isinstance(value, ast.Call) else ""
                if not name[:1].isupper():
                    return None  # a parameter, a factory's result, None: not shown
                made.add(name)
    return made or None


def _caller(chain: tuple[ast.AST, ...], owner: ast.ClassDef | None, file: _File, tree: CallerSearch) -> _Caller:
    outermost = chain[0]
    name = getattr(outermost, "name", "<lambda>")
    compiled = any(
        isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        and (
            f.name in file.compiled
            or any(
                qualified_name(d.func if isinstance(d, ast.Call) else d, file.imports) in COMPILERS
                for d in f.decorator_list
            )
        )
        for f in chain
    )
    if not compiled and owner is not None and isinstance(outermost, ast.FunctionDef | ast.AsyncFunctionDef):
        compiled = tree.module_method(owner, outermost, file)
    return _Caller(Target(name, owner.name if owner is not None else None), compiled, outermost, owner)


def _defines(owner: ast.ClassDef, names: frozenset[str]) -> bool:
    return any(isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name in names for s in owner.body)


def _binds(file: _File, name: str) -> bool:
    """Whether the module defines or imports a function by that name."""
    if name in file.imported:
        return True
    return any(isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == name for s in file.module.body)


def _is_self(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in {"self", "cls"}
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _unsubscripted(node: ast.expr) -> ast.expr:
    return node.value if isinstance(node, ast.Subscript) else node
