"""The scanner's reading of one module: which listed names it uses, where, and how.

Walks the module's `ast` (strings and comments are never code), resolving imports and aliases
(`import torch as t`, `from torch.export import export_for_training as eft`, `from m import *`)
and attribute chains. A use is a call, a decorator, a base class, an annotation, an argument of
`isinstance()`, or any other reference. A call also counts through `functools.partial(f, ...)`,
and `super().__init__(...)` counts as a call of each listed base class.

What a rule needs before a use is reported (see `UseVisitor._applies`): its keyword passed or left
out, by name or at its position; an argument passed at its position (a rule with a position and no
keyword); for `caught`, a `try` around the call that catches that exception; for `dtypes`, a
first argument not known to be of another dtype (`_known_dtype`: a variable bound once to a factory
with `dtype=`, a class attribute or a torch.nn layer's weight made in the default dtype); for
`compiled`, a use inside code torch.compile runs (`_in_compiled_code`), or in a function the tree's
calls reach from it (scan_reach, asked as a tree fact). An import, a type
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from macros.dataset.vocabulary import TORCH
from macros.tools.scan_alias import may_return_input
from macros.tools.scan_call import Call, Rule, judges_calls, literal_keywords
from macros.tools.scan_dtypes import (
    LAYER,
    LAYER_PARAMETERS,
    attributes_of_one_dtype,
    is_layer,
    made_with_dtype,
    module_layers_dtype,
)
from macros.tools.scan_guards import (
    BROAD_EXCEPTIONS,
    SHIM_EXCEPTIONS,
    SIGNATURE_READERS,
    exception_names,
    is_guard_test,
    newer_branch,
)
from macros.tools.scan_module import (
    COMPILED_METHODS,
    COMPILERS,
    LOSS_SUFFIX,
    UNTRACED_METHODS,
    compile_targets,
    construction_functions,
    keys_written,
    single,
    single_values,
    walk_own_scope,
    written_values,
)
from macros.tools.scan_module import identifier as _identifier
from macros.tools.scan_output import MAY_APPLY
from macros.tools.scan_reach import fact_for
from macros.tools.scan_tree import COMPLEX_SPECTROGRAMS, CONSTRUCTS

#: A module-level constant (`CUDA_HOME`): not a use of the module's changed behaviour.
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")
#: Calls that make a TorchScript module, and the classes that annotate one.
SCRIPTING = frozenset(
    f"torch.jit.{name}" for name in ("script", "trace", "trace_module", "load", "freeze", "optimize_for_inference")
)
SCRIPT_MODULES = frozenset({"torch.jit.ScriptModule", "torch.jit.RecursiveScriptModule"})
#: Calls that read NaNs from a tensor (as torch functions or tensor methods).
NAN_READERS = frozenset({"isnan", "isfinite", "nan_to_num", "nan_to_num_"})
#: Modules whose NaN checks read floats or arrays, not tensors.
SCALAR_MODULES = frozenset({"math", "np", "numpy", "cmath"})
#: The inverse transforms that take a complex spectrogram (torch 2.0 refuses a real one).
SPECTROGRAM_INVERSES = frozenset({"torch.istft", "torch.functional.istft"})


class _LazyClass:
    """A class's `self.<attr>` dtypes, read from its body the first time a rule asks (few do)."""

    def __init__(self, node: ast.ClassDef, read: Callable[[ast.ClassDef], dict[str, str]]) -> None:
        self._node, self._read, self._dtypes = node, read, None

    def get(self, name: str) -> str | None:
        if self._dtypes is None:
            self._dtypes = self._read(self._node)
        return self._dtypes.get(name)


@dataclass(frozen=True)
class _Facts:
    """What one function's variables bound exactly once hold."""

    values: dict[str, ast.expr] = field(default_factory=dict)
    dtypes: dict[str, str] = field(default_factory=dict)  # v = torch.empty(..., dtype=torch.X)
    none: frozenset[str] = frozenset()  # v = None
    dicts: dict[str, list[ast.keyword]] = field(default_factory=dict)  # v = {"k": ...}, read only as **v
    stored: dict[str, frozenset[str]] = field(default_factory=dict)  # keys written into v anywhere


@dataclass
class Hit:
    node: ast.AST
    name: str  # the symbol as the finding shows it
    rule: Rule
    #: A fact about the whole tree (scan_tree) that, if it holds, makes the use not one: what the
    #: module alone cannot tell (`constructs:init_fn`, `complex-spectrograms`).
    unless: str | None = None


class UseVisitor(ast.NodeVisitor):
    """Walks one module; `aliases` maps a local name to the qualified name it stands for."""

    def __init__(self, index: dict[str, list[Rule]], roots: frozenset[str], path: Path | None = None) -> None:
        self.index = index
        self.roots = roots
        self.path = path  # the module's file, to read what `from .m import *` brings
        self.aliases: dict[str, str] = {}
        self.partials: set[str] = set()  # local names of functools.partial
        self.hits: list[Hit] = []
        self.guarded = 0  # uses inside shims, counted, not reported
        self._guards = 0  # depth of enclosing guards
        self._import_guards = 0  # depth of `try` blocks with a broad handler: only imports there are shims
        self._caught: list[frozenset[str]] = []  # exceptions caught around the current code
        self._context: str = "reference"  # isinstance, annotation, import, class-decorator or reference
        self._bases: list[list[str]] = []  # listed base classes of the enclosing classes
        self._function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None = None  # the innermost one
        self._facts: dict[int, _Facts] = {}  # per function: what its variables bound once hold
        self._class_dtypes: list[_LazyClass] = []  # per enclosing class: self.<attr> -> its dtype, when asked
        self.methods: dict[str, list[Rule]] = {}  # `x.cross(...)`: last part -> rules that take methods
        for rules in index.values():
            for rule in rules:
                if rule.method:
                    self.methods.setdefault(rule.name.rsplit(".", 1)[-1], []).append(rule)
        self._stars: set[Path] = set()  # files whose names a relative star import is reading
        self._module: ast.Module | None = None
        self._compile_names: tuple[frozenset[str], frozenset[str]] | None = None  # compiled functions, backends
        self._enclosing: list[tuple[str, bool, ast.AST]] = []  # enclosing functions: name, compiled for sure, node
        self._construction: set[int] | None = None  # ids of the functions run only while a model is built
        self._layers_dtype: tuple[str | None] | None = None  # module_layers_dtype, read once
        self._narrowed: set[str] = set()  # names an enclosing `if isinstance(m, nn.Linear)` narrows to a layer
        self._assigned: dict[str, str] = {}  # local name -> what `name = torch.a.b` bound it to
        self._alias_assignment = False  # reading the value of such an assignment
        self._reads_nan: bool | None = None  # the module reads NaNs from tensors (computed once)
        self._unless: str | None = None  # the tree fact that would settle the use being read (Hit.unless)
        self._in_class_body = False  # the statement being read is directly in a class body
        self._class_names: list[str] = []  # the enclosing classes' names
        self._class_may_be_module: list[bool] = []  # each enclosing class has a base (not `object`)
        self._owners: dict[int, str] = {}  # a method's node id -> its class's name
        self._decorated: ast.FunctionDef | ast.AsyncFunctionDef | None = None  # while reading its decorators

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
                self._unless = None
                shown = self._applies(rule, call if end == len(parts) else None, name)
                if shown is None:
                    continue
                if self._through_assignment(node) and not judges_calls(rule):
                    continue  # reported where the name was assigned
                if self._guards or (self._import_guards and self._context == "import"):
                    self.guarded += 1
                else:
                    self.hits.append(Hit(node, shown, rule, self._unless))

    def _applies(self, rule: Rule, call: Call | None, name: str) -> str | None:
        """How the finding names the use, or None when the rule's condition does not hold."""
        if rule.defines is not None:
            return None  # reported where a subclass defines the method (`_overrides`)
        if rule.compiled and not self._in_compiled_code():
            self._unless = self._uncompiled_fact()
            if self._unless is None:
                return None  # module-level code runs at import, not compiled
        if rule.untraced and not self._in_untraced_compile_code():
            return None
        if rule.reads_nan and not self._module_reads_nan():
            return None
        if rule.given is not None and (call is None or not self._first_argument_is(call, rule.given)):
            return None
        if rule.aliasing and call is not None and self._op_returns_new_tensors(call):
            return None
        if call is None and self._alias_assignment and judges_calls(rule):
            return None  # `op = torch.library.custom_op`: the calls through `op` are judged instead
        if rule.decorates is not None:
            return f"@{name} on a class" if self._context == "class-decorator" else None
        retired_name = rule.item.retiring and not rule.name_kept
        if self._context in {"isinstance", "annotation", "import"} and not retired_name:
            # A type check, an annotation or an import does not run the changed behaviour; for a
            # name deprecated or removed they are places to change.
            return None
        if rule.dtypes and call is not None and call.args:
            known = self._known_dtype(call.args[0])
            if known is not None and known not in rule.dtypes:
                return None  # `trunc_normal_(w)` where w = torch.empty(..., dtype=torch.float32)
            if known is None:
                self._unless = self._tree_fact_for_dtype(call.args[0], rule)
        if call is not None:
            facts = self._facts_of_function()
            call = replace(call, none=facts.none, dicts=facts.dicts, stored=facts.stored)
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
            return f"{name}() in try/except {'/'.join(sorted(rule.caught))}" if rule.caught else name
        passed = call.passes(rule)
        if rule.absent:
            if call.partial:
                return None  # a partial's caller may still pass it: the partial is not the call
            if passed is False:
                return f"{name}() without {rule.keyword}="
            unpacked_dict = call.may_unpack(rule.keyword) if passed is None else None
            if unpacked_dict is not None and self._always_sets(unpacked_dict, rule.keyword):
                return None  # `d["weights_only"] = True; torch.load(f, **d)`: the function sets it
            if passed is None:
                # `f(..., **kwargs)` relies on the default unless the caller's dictionary holds
                # the keyword, which only the callers show: reported, saying what to check.
                unpacked = "**kwargs" if any(k.arg is None for k in call.keywords) else "*args"
                return f"{name}({unpacked}){MAY_APPLY}it sets {rule.keyword}="
            return None
        if passed and rule.duplicates and self._distinct_literal(call, rule.keyword):
            return None
        if passed and rule.sequence_values and self._single_valued_mapping(call, rule.keyword):
            return None
        if passed and rule.masks and self._additive_bias(call, rule):
            return None
        if passed and rule.trailing_dict and self._ends_without_dict(call, rule):
            return None
        if passed:
            return f"{name}({rule.keyword}=...)"
        if passed is None and (unpacked_dict := call.may_unpack(rule.keyword)) is not None:
            if not rule.any_value and self._writes_other_values(unpacked_dict, rule):
                return None  # `kwargs["backend"] = "hpu_backend"`: not the value the change concerns
            return f"{name}(**{unpacked_dict}){MAY_APPLY}it sets {rule.keyword}="
        return None

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
        if node.level and any(alias.name == "*" for alias in node.names):
            self._relative_star(node)
            return
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

    def _relative_star(self, node: ast.ImportFrom) -> None:
        """`from .common import *`: the names that module binds by its own top-level imports of
        listed modules (`import torch`, `from torch.jit import script`) become names here too,
        as Python binds them (its `__all__`, when a literal list, limits them). Read from the file
        beside this one, once per chain (a cycle ends)."""
        if self.path is None:
            return
        folder = self.path.parent
        for _ in range(node.level - 1):
            folder = folder.parent
        base = folder.joinpath(*node.module.split(".")) if node.module else folder
        target = next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)
        if target is None or target.resolve() in self._stars or len(self._stars) >= _STAR_DEPTH:
            return
        from macros.tools.scan_files import Unreadable, read_source

        try:
            module = ast.parse(read_source(target))
        except (Unreadable, SyntaxError, ValueError, RecursionError, MemoryError):
            return
        reader = UseVisitor(self.index, self.roots, target)
        reader._stars = self._stars | {target.resolve()}
        exported: set[str] | None = None
        for statement in _top_level_statements(module.body):
            if isinstance(statement, ast.Import | ast.ImportFrom):
                reader.visit(statement)
            elif isinstance(statement, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets
            ):
                value = statement.value
                if isinstance(value, ast.List | ast.Tuple) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
                ):
                    exported = {e.value for e in value.elts}  # type: ignore[attr-defined]
        for name, qualified in reader.aliases.items():
            public = not name.startswith("_") if exported is None else name in exported
            if public and qualified.split(".")[0] in self.roots:
                self.aliases[name] = qualified
        self.partials |= reader.partials

    def _bind_target(self, target: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self.aliases.pop(target.id, None)
            self._assigned.pop(target.id, None)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._bind_target(element)
        else:
            self.visit(target)

    def visit_Assign(self, node: ast.Assign) -> None:
        # `_custom_op = torch.library.custom_op`: the calls through the new name are judged as
        # calls of torch's; the assignment is a reference only for rules that need no call.
        target = node.targets[0]
        qualified = self.qualified(node.value) if isinstance(node.value, ast.Attribute) else None
        alias = len(node.targets) == 1 and isinstance(target, ast.Name) and qualified is not None
        self._alias_assignment = alias
        self.visit(node.value)
        self._alias_assignment = False
        for each in node.targets:
            self._bind_target(each)
        if alias and isinstance(target, ast.Name) and qualified is not None:
            self.aliases[target.id] = qualified
            self._assigned[target.id] = qualified

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
        saved, saved_assigned = dict(self.aliases), dict(self._assigned)
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
        self.aliases, self._assigned = saved, saved_assigned
        self._function = saved_function

    def _facts_of_function(self) -> _Facts:
        """`_bound_once` of the function being read, worked out when a rule first needs it (few
        do: reading every function would cost a third of the scan)."""
        function = self._function
        if function is None:
            return _Facts()  # module level: any function may rebind a global
        if id(function) not in self._facts:
            self._facts[id(function)] = self._bound_once(function)
        return self._facts[id(function)]

    def _bound_once(self, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> _Facts:
        """The function's variables bound exactly once, by `v = <value>`: v then holds that value
        wherever the function reads it (Python makes v local to the function, so no other binding
        reaches it). Any other binding of v, `global`/`nonlocal`, a parameter named v, an assignment
        to one of v's attributes or items (`v.data = ...`, `v["k"] = ...`) disqualifies it. A
        literal dict counts for `**v` only when v is read nowhere else (no `v.update(...)`)."""
        if isinstance(function, ast.Lambda):
            return _Facts()
        stores: dict[str, int] = {}
        made: dict[str, ast.expr] = {}
        loads: dict[str, int] = {}
        unpacked: dict[str, int] = {}
        stored: dict[str, set[str]] = {}
        arguments = function.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]:
            if arg is not None:
                stores[arg.arg] = 2
        for node in walk_own_scope(function.body):
            names: list[str] = []
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    loads[node.id] = loads.get(node.id, 0) + 1
                else:
                    names = [node.id]
            elif isinstance(node, ast.Attribute | ast.Subscript) and not isinstance(node.ctx, ast.Load):
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
            elif isinstance(node, ast.keyword) and node.arg is None and isinstance(node.value, ast.Name):
                unpacked[node.value.id] = unpacked.get(node.value.id, 0) + 1
            for name in names:
                stores[name] = stores.get(name, 0) + 1
            for name, key in keys_written(node):
                stored.setdefault(name, set()).add(key)
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if len(targets) == 1 and isinstance(targets[0], ast.Name):
                    made[targets[0].id] = node.value
        values = {name: value for name, value in made.items() if stores.get(name) == 1}
        dtypes = {name: dtype for name, value in values.items() if (dtype := made_with_dtype(value, self.qualified))}
        none = frozenset(
            name for name, value in values.items() if isinstance(value, ast.Constant) and value.value is None
        )
        dicts = {
            name: keywords
            for name, value in values.items()
            if (keywords := literal_keywords(value)) is not None and loads.get(name, 0) == unpacked.get(name, 0)
        }
        return _Facts(values, dtypes, none, dicts, {name: frozenset(keys) for name, keys in stored.items()})

    def _known_dtype(self, tensor: ast.expr) -> str | None:
        """The dtype a tensor argument is known to have, or None: a variable its function binds once
        to a factory with `dtype=`; `self.<attr>` the class binds only to a new tensor of one dtype;
        the `weight`/`bias` of a torch.nn layer made without `dtype=` (the default dtype): the
        class's `self.<attr>.weight`, or `m.weight` where `m` is narrowed by
        `isinstance(m, nn.Linear)` in a function run only while the model is built (below)."""
        if isinstance(tensor, ast.Name):
            return self._facts_of_function().dtypes.get(tensor.id)
        if not isinstance(tensor, ast.Attribute):
            return None
        owner = tensor.value
        if isinstance(owner, ast.Name) and owner.id == "self":
            known = self._class_dtypes[-1].get(tensor.attr) if self._class_dtypes else None
            return None if known is None or known.startswith(LAYER) else known
        if tensor.attr not in LAYER_PARAMETERS:
            return None
        if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == "self":
            known = self._class_dtypes[-1].get(owner.attr) if self._class_dtypes else None
            return known.removeprefix(LAYER) if known is not None and known.startswith(LAYER) else None
        if isinstance(owner, ast.Name) and owner.id in self._narrowed and self._at_construction():
            return self._module_layers()
        return None

    def _tree_fact_for_dtype(self, tensor: ast.expr, rule: Rule) -> str | None:
        """The fact about the whole tree that would show a tensor of unknown dtype is not of the
        rule's dtypes (scan_tree): for istft, that the tree makes only complex spectrograms; for
        `m.weight` narrowed to a layer in a module-level function its own module never names,
        that the other modules name that function only while a model is built."""
        if rule.name in SPECTROGRAM_INVERSES:
            function = self._function
            if isinstance(tensor, ast.Name) and function is not None and not isinstance(function, ast.Lambda):
                for node in walk_own_scope(function.body):
                    if (
                        isinstance(node, ast.Call)
                        and _identifier(node.func) == "view_as_complex"
                        and any(isinstance(a, ast.Name) and a.id == tensor.id for a in node.args)
                    ):
                        return None  # the function packs it with view_as_complex: real (..., 2) pairs
            return COMPLEX_SPECTROGRAMS
        if not (
            isinstance(tensor, ast.Attribute)
            and tensor.attr in LAYER_PARAMETERS
            and isinstance(tensor.value, ast.Name)
            and tensor.value.id in self._narrowed
            and self._enclosing
            and self._module is not None
        ):
            return None
        layers = self._module_layers()
        if layers is None or layers in rule.dtypes:
            return None
        outermost = self._enclosing[0][2]
        if not isinstance(outermost, ast.FunctionDef | ast.AsyncFunctionDef) or outermost not in self._module.body:
            return None  # a method: only its class reaches it
        named_here = any(
            isinstance(node, ast.Name) and node.id == outermost.name and isinstance(node.ctx, ast.Load)
            for node in ast.walk(self._module)
        )
        return None if named_here else f"{CONSTRUCTS}{outermost.name}"

    def _module_layers(self) -> str | None:
        """module_layers_dtype of the module, read once."""
        if self._layers_dtype is None:
            self._layers_dtype = (module_layers_dtype(self._module, self.qualified) if self._module else None,)
        return self._layers_dtype[0]

    def _first_argument_is(self, call: Call, kind: str) -> bool:
        """Whether the call's first argument visibly is of `kind` (SymbolUse.given)."""
        first = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "mod"), None)
        if first is None:
            return False
        return self._function_given(first) if kind == "function" else self._script_module_given(first)

    def _script_module_given(self, first: ast.expr) -> bool:
        """Made by a SCRIPTING call there or in a variable its function binds to one, or a
        parameter annotated as a TorchScript module."""
        if isinstance(first, ast.Call):
            return self.qualified(first.func) in SCRIPTING
        function = self._function
        if not isinstance(first, ast.Name) or function is None or isinstance(function, ast.Lambda):
            return False
        for node in walk_own_scope(function.body):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and any(isinstance(t, ast.Name) and t.id == first.id for t in node.targets)
                and self.qualified(node.value.func) in SCRIPTING
            ):
                return True
        arguments = function.args
        return any(
            arg.arg == first.id and arg.annotation is not None and self.qualified(arg.annotation) in SCRIPT_MODULES
            for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        )

    def _function_given(self, first: ast.expr) -> bool:
        """A lambda, a `functools.partial(...)`, or the name of a function the calling function
        or the module defines, which the calling function does not rebind."""
        if isinstance(first, ast.Lambda):
            return True
        if isinstance(first, ast.Call):
            return _identifier(first.func) == "partial"
        if not isinstance(first, ast.Name):
            return False
        function = self._function
        if function is None or isinstance(function, ast.Lambda):
            return self._module_function(first.id) is not None
        arguments = function.args
        parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
        bound = [
            node
            for node in walk_own_scope(function.body)
            if (isinstance(node, ast.Name) and node.id == first.id and not isinstance(node.ctx, ast.Load))
            or (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == first.id)
        ]
        if first.id in parameters:
            return False
        if bound:
            return all(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) for node in bound)
        return self._module_function(first.id) is not None

    def _through_assignment(self, node: ast.AST) -> bool:
        """Whether the use reaches torch through a name an assignment bound (`op = torch.x.y`)."""
        while isinstance(node, ast.Attribute):
            node = node.value
        # An import may rebind the name later: then it no longer holds what was assigned.
        return (
            isinstance(node, ast.Name)
            and node.id in self._assigned
            and self._assigned[node.id] == self.aliases.get(node.id)
        )

    def _module_reads_nan(self) -> bool:
        """Whether the module looks for NaNs in tensors: calls `isnan`, `isfinite` or `nan_to_num`
        (torch's functions or the tensor methods; `math.isnan` and `np.isnan` read no tensor)."""
        if self._reads_nan is None:
            self._reads_nan = self._module is not None and any(
                isinstance(node, ast.Call)
                and _identifier(node.func) in NAN_READERS
                and not (isinstance(node.func, ast.Attribute) and _identifier(node.func.value) in SCALAR_MODULES)
                for node in ast.walk(self._module)
            )
        return self._reads_nan

    def _at_construction(self) -> bool:
        """Whether the function being read runs only while a model is built: a class's `__init__`,
        or a method or module-level function only ever named from such functions (`self.apply(
        self._init_weights)` or `self.init_weights()` in `__init__`, `named_apply(init_fn, self)`
        in one of those), never from other code of the module. A function another module calls
        after casting the model (`model.half(); model.apply(init)`) is not seen."""
        if not self._enclosing or self._module is None:
            return False
        if self._construction is None:
            self._construction = construction_functions(self._module)
        return any(id(node) in self._construction for _, _, node in self._enclosing)

    def visit_Module(self, node: ast.Module) -> None:
        self._module = node
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        in_class, self._in_class_body = self._in_class_body, False
        saved_decorated, self._decorated = self._decorated, node
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._decorated = saved_decorated
        compiled = any(
            self.qualified(d.func if isinstance(d, ast.Call) else d) in COMPILERS for d in node.decorator_list
        ) or (
            in_class
            and node.name in COMPILED_METHODS
            and not (self._class_names and self._class_names[-1].endswith(LOSS_SUFFIX))
            and self._class_may_be_module[-1:] == [True]
        )
        if in_class and self._class_names:
            self._owners[id(node)] = self._class_names[-1]
        self._enclosing.append((node.name, compiled, node))
        self._scoped(node)
        self._enclosing.pop()
        self._in_class_body = in_class
        self.aliases.pop(node.name, None)

    def _distinct_literal(self, call: Call, keyword: str) -> bool:
        """Whether the call passes `keyword` a literal list or tuple of distinct constants
        (`input_names=["x", "mask"]`), or a variable its function binds once to one."""
        value = next((k.value for k in call.expanded() if k.arg == keyword), None)
        if isinstance(value, ast.Name) and self._function is not None and not isinstance(self._function, ast.Lambda):
            name = value.id
            if any(  # `names.append("x")`, `names += [...]`: not the literal any more
                isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name
                for node in walk_own_scope(self._function.body)
            ):
                return False
            value = self._facts_of_function().values.get(name)
        if not isinstance(value, ast.List | ast.Tuple):
            return False
        items = [element.value for element in value.elts if isinstance(element, ast.Constant)]
        return len(items) == len(value.elts) and len(set(items)) == len(items)

    def _always_sets(self, name: str, key: str) -> bool:
        """Whether the function writes `key` into the dict `name` in a statement of its own body
        (not under an `if`, a loop or a `try`: `d["k"] = v`, `d.update(k=v)`, `d.setdefault("k", v)`)
        and never removes it (`d.pop("k")`, `del d["k"]`)."""
        function = self._function
        if function is None or isinstance(function, ast.Lambda):
            return False
        for node in walk_own_scope(function.body):
            if _removes_from(node, name):
                return False
        for statement in function.body:
            parts: list[ast.AST] = [statement]
            if isinstance(statement, ast.Assign):
                parts += statement.targets
            elif isinstance(statement, ast.Expr):
                parts.append(statement.value)
            if any((name, key) in keys_written(part) for part in parts):
                return True
        return False

    def _writes_other_values(self, name: str, rule: Rule) -> bool:
        """Whether every value the function writes for the rule's keyword into the dict `name`
        is a literal other than the rule's value (`d["backend"] = "eager"`, `d.update(backend=...)`,
        `d.setdefault(...)`, `d = {"backend": ...}`)."""
        function = self._function
        if function is None or isinstance(function, ast.Lambda):
            return False
        values = [
            value for node in walk_own_scope(function.body) for value in written_values(node, name, rule.keyword or "")
        ]
        return bool(values) and all(
            isinstance(value, ast.Constant)
            and not (type(value.value) is type(rule.value) and value.value == rule.value)
            for value in values
        )

    def _ends_without_dict(self, call: Call, rule: Rule) -> bool:
        """Whether the call passes the rule's argument a value that visibly does not end with a
        dict: a literal tuple or list whose last item is no dict display or `dict(...)`, a torch
        call (a tensor), or a variable its function binds once to one of those."""
        value = call.argument(rule)
        if isinstance(value, ast.Name):
            value = self._facts_of_function().values.get(value.id)
        if isinstance(value, ast.Call):
            return (self.qualified(value.func) or "").startswith(f"{TORCH}.")
        if not isinstance(value, ast.Tuple | ast.List):
            return False
        if not value.elts:
            return True
        last = value.elts[-1]
        if isinstance(last, ast.Starred | ast.Dict):
            return False
        return not (isinstance(last, ast.Call) and _identifier(last.func) == "dict")

    def _additive_bias(self, call: Call, rule: Rule) -> bool:
        """Whether the call passes the rule's argument a value named as an additive bias: a name or
        attribute whose words include "bias" and not "mask" (`attn_bias`, `self.rel_pos_bias`), or
        a variable the function binds only to None and to calls of such names
        (`attn_mask = self.get_rel_pos_bias()`). A float bias is finite: it cannot mask a row."""
        value = call.argument(rule)
        if value is None:
            return False
        if _names_a_bias(value):
            return True
        if not isinstance(value, ast.Name) or self._function is None or isinstance(self._function, ast.Lambda):
            return False
        bound = [
            node.value
            for node in walk_own_scope(self._function.body)
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets)
        ]
        stores = sum(
            1
            for node in walk_own_scope(self._function.body)
            if isinstance(node, ast.Name) and node.id == value.id and not isinstance(node.ctx, ast.Load)
        )
        if not bound or stores != len(bound):
            return False  # a parameter, or bound in a way not followed (`for`, `+=`, a tuple)
        return all(
            (isinstance(v, ast.Constant) and v.value is None) or (isinstance(v, ast.Call) and _names_a_bias(v.func))
            for v in bound
        )

    def _single_valued_mapping(self, call: Call, keyword: str) -> bool:
        """Whether the call passes `keyword` a dict whose every value is one name, attribute or
        lambda: a literal, a variable its function binds once to one, or a name every write of
        which in the module is such an entry (`T: dict = {}`, `T.update({op: fn})`, `T[op] = fn`)."""
        value = next((k.value for k in call.expanded() if k.arg == keyword), None)
        if isinstance(value, ast.Dict):
            return single_values(value)
        if not isinstance(value, ast.Name):
            return False
        bound = self._facts_of_function().values.get(value.id)
        if isinstance(bound, ast.Dict):
            return single_values(bound)
        if self._module is None:
            return False
        name, writes = value.id, 0
        for node in ast.walk(self._module):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id == name:
                        writes += 1
                        if not (isinstance(node.value, ast.Dict) and single_values(node.value)):
                            return False
                    elif (
                        isinstance(target, ast.Subscript)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == name
                        and not single(node.value)
                    ):
                        return False
            elif isinstance(node, ast.AugAssign | ast.NamedExpr) and _identifier(node.target) == name:
                return False
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == name
                and node.func.attr in {"update", "setdefault", "__setitem__", "__ior__"}
            ):
                arguments = [*node.args[1:]] if node.func.attr != "update" else []
                dicts = [a for a in node.args if isinstance(a, ast.Dict)] if node.func.attr == "update" else []
                if node.func.attr == "update" and len(dicts) != len(node.args):
                    return False
                if not all(single_values(d) for d in dicts) or not all(single(a) for a in arguments):
                    return False
                if not all(single(k.value) for k in node.keywords):
                    return False
        return writes == 1

    def _op_returns_new_tensors(self, call: Call) -> bool:
        """Whether a custom op registration's function is visible and never returns an input or a
        view of one (scan_alias): the function it decorates (`@custom_op("ns::op", ...)`), or the
        module's function it is given by name (`custom_op("ns::op", fn, ...)`,
        `impl(name, types, func)`). An op whose function the module does not show may alias."""
        function = None
        for argument in [*call.args, *(k.value for k in call.keywords if k.arg in {"fn", "func"})]:
            if isinstance(argument, ast.Name) and (function := self._module_function(argument.id)) is not None:
                break
        if function is None:
            function = self._decorated
        if function is None:
            return False
        return not may_return_input(function, self.qualified, self._module_function_names())

    def _module_function_names(self) -> frozenset[str]:
        """The names of the module's top-level functions."""
        if self._module is None:
            return frozenset()
        return frozenset(
            s.name
            for s in _top_level_statements(self._module.body)
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
        )

    def _module_function(self, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The module's one top-level function of that name (None if there is none, or several)."""
        if self._module is None:
            return None
        found = [
            s
            for s in _top_level_statements(self._module.body)
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == name
        ]
        return found[0] if len(found) == 1 else None

    def _in_compiled_code(self) -> bool:
        """Whether the code being read sits, lexically, in a function torch.compile runs: one
        decorated with it, one the module passes to it by name (`torch.compile(step)`,
        `torch.compile(self.step)`), a compiled method (COMPILED_METHODS), or a function nested
        in one of them."""
        if not self._enclosing:
            return False
        if any(compiled for _, compiled, _ in self._enclosing):
            return True
        return any(name in self._compile_targets()[0] for name, _, _ in self._enclosing)

    def _uncompiled_fact(self) -> str | None:
        """The tree fact that the function holding the use (its outermost one: a nested
        function is reached through it) is reached from no compiled code (scan_reach)."""
        if not self._enclosing:
            return None
        outermost = self._enclosing[0][2]
        return fact_for(self._enclosing[0][0], self._owners.get(id(outermost)))

    def _compile_targets(self) -> tuple[frozenset[str], frozenset[str]]:
        """compile_targets of the module, read once."""
        if self._compile_names is None:
            self._compile_names = (
                compile_targets(self._module) if self._module is not None else (frozenset(), frozenset())
            )
        return self._compile_names

    def _in_untraced_compile_code(self) -> bool:
        """Whether the code being read runs during compilation without Dynamo tracing it: a
        tensor subclass's `__torch_dispatch__` or `__torch_function__` (AOTAutograd calls it), or
        a compile backend the module defines (`@register_backend`, `torch.compile(backend=fn)`,
        `torch._dynamo.optimize(fn)`), or a function nested in one of them."""
        if not self._enclosing:
            return False
        if any(name in UNTRACED_METHODS for name, _, _ in self._enclosing):
            return True
        return any(name in self._compile_targets()[1] for name, _, _ in self._enclosing)

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
        # `class S(Sampler[int])`: the base is Sampler, parameterized.
        unsubscripted = [base.value if isinstance(base, ast.Subscript) else base for base in node.bases]
        bases = [name for name in map(self.qualified, unsubscripted) if name is not None]
        for base in bases:
            self._overrides(node, base)
        self._bases.append(bases)
        self._class_dtypes.append(_LazyClass(node, lambda owner: attributes_of_one_dtype(owner, self.qualified)))
        saved_function, self._function = self._function, None  # a class body has its own names
        saved_class, self._in_class_body = self._in_class_body, True
        self._class_names.append(node.name)
        # `class Trainer:` has no base: no module, so its `training_step` is not compiled code.
        self._class_may_be_module.append(any(_identifier(base) != "object" for base in unsubscripted))
        for statement in node.body:
            self.visit(statement)
        self._in_class_body = saved_class
        self._class_names.pop()
        self._class_may_be_module.pop()
        self._function = saved_function
        self._bases.pop()
        self._class_dtypes.pop()
        self.aliases.pop(node.name, None)

    def _overrides(self, node: ast.ClassDef, base: str) -> None:
        """`class PG(dist.ProcessGroup)` defining `new_group(self, ranks, *, timeout=None)`: a use,
        at the method, of each rule on the base that names the method (`defines`) and a keyword
        the method does not take (no parameter of that name, no `**kwargs`)."""
        for rule in self.index.get(base, ()):
            if rule.defines is None or rule.keyword is None:
                continue
            for method in node.body:
                if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) or method.name != rule.defines:
                    continue
                arguments = method.args
                names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
                if rule.keyword in names or arguments.kwarg is not None:
                    continue
                if self._guards:
                    self.guarded += 1
                else:
                    self.hits.append(Hit(method, f"{base}.{method.name}() without {rule.keyword}=", rule))

    # --- guards and handlers -------------------------------------------------------------------

    def visit_Try(self, node: ast.Try) -> None:
        """A `try` catching ImportError, ModuleNotFoundError or AttributeError is a shim (body,
        handlers and else). One with a broad handler (`except:`, `except Exception`) is a shim for
        its imports only: the calls in it still run on new releases. A handler of TypeError is the
        fallback for an older signature. What the body binds is what holds after the statement
        on new releases: a fallback import in a handler does not replace it."""
        caught = frozenset(name for handler in node.handlers for name in exception_names(handler.type))
        shim = bool(caught & SHIM_EXCEPTIONS)
        broad = bool(caught & BROAD_EXCEPTIONS) and not shim
        self._guards += shim
        self._import_guards += broad
        self._caught.append(caught)
        before = dict(self.aliases)
        for statement in node.body:
            self.visit(statement)
        self._caught.pop()
        after_body = dict(self.aliases)
        bound = {name for name, value in after_body.items() if before.get(name) != value}
        for handler in node.handlers:
            fallback = "TypeError" in exception_names(handler.type)
            self._guards += fallback
            self.visit(handler)
            self._guards -= fallback
        for name in bound:  # the body's binding wins over a handler's fallback
            self.aliases[name] = after_body[name]
        for statement in node.orelse:
            self.visit(statement)
        self._guards -= shim
        self._import_guards -= broad
        for statement in node.finalbody:
            self.visit(statement)

    visit_TryStar = visit_Try  # type: ignore[assignment]

    def visit_If(self, node: ast.If | ast.IfExp) -> None:
        newer = newer_branch(node.test)
        if newer is None:  # hasattr(), or a version test whose direction is not told by its name
            guard = is_guard_test(node.test)
            self._guards += guard
            narrowed = self._narrowed_by(node.test) - self._narrowed
            self.visit(node.test)
            self._narrowed |= narrowed
            for child in node.body if isinstance(node.body, list) else [node.body]:
                self.visit(child)
            self._narrowed -= narrowed
            for child in node.orelse if isinstance(node.orelse, list) else [node.orelse]:
                self.visit(child)
            self._guards -= guard
            return
        # `if _TORCH_GREATER_EQUAL_2_3: a else: b`: a runs on every newer release, so the changes
        # after 2.3 reach it; only b, kept for older releases, is a shim.
        self.visit(node.test)
        bound: dict[str, str] = {}
        for branch, runs_on_newer in ((node.body, newer), (node.orelse, not newer)):
            self._guards += not runs_on_newer
            before = dict(self.aliases)
            for child in branch if isinstance(branch, list) else [branch]:
                self.visit(child)
            if runs_on_newer:  # what this branch binds is what holds on the newer releases
                bound = {name: value for name, value in self.aliases.items() if before.get(name) != value}
            self._guards -= not runs_on_newer
        self.aliases.update(bound)  # the older branch's fallback import does not replace it

    visit_IfExp = visit_If  # type: ignore[assignment]

    def _narrowed_by(self, test: ast.expr) -> set[str]:
        """The names `isinstance(m, nn.Linear)` (alone, or in an `and`) says hold a torch.nn layer."""
        tests = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
        names = set()
        for part in tests:
            if (
                isinstance(part, ast.Call)
                and isinstance(part.func, ast.Name)
                and part.func.id == "isinstance"
                and len(part.args) == 2
                and isinstance(part.args[0], ast.Name)
            ):
                kinds = part.args[1].elts if isinstance(part.args[1], ast.Tuple) else [part.args[1]]
                if kinds and all(is_layer(self.qualified(kind)) for kind in kinds):
                    names.add(part.args[0].id)
        return names

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
            if isinstance(node.func, ast.Attribute) and node.func.attr in self.methods:
                self._match_method(node.func, call)
            self.visit(node.func)
        if _identifier(node.func) in SIGNATURE_READERS:
            # `inspect.signature(torch.hub.load)`: reads the parameters, runs nothing.
            saved, self._context = self._context, "isinstance"
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                self.visit(argument)
            self._context = saved
            return
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

    def visit_Compare(self, node: ast.Compare) -> None:
        """`associative_scan is not None`, `if flex_attention is None`: a check that the name is
        there runs nothing, so for a changed behaviour it is no use (as a type check); for a name
        deprecated or removed it still is."""
        operands = [node.left, *node.comparators]
        if all(isinstance(op, ast.Is | ast.IsNot) for op in node.ops) and any(
            isinstance(o, ast.Constant) and o.value is None for o in operands
        ):
            saved, self._context = self._context, "isinstance"
            for operand in operands:
                self.visit(operand)
            self._context = saved
            return
        self.generic_visit(node)

    def _match_method(self, func: ast.Attribute, call: Call) -> None:
        """`a.cross(b)` on an object the scanner cannot name: a use of each rule that takes the
        method form of `torch.Tensor.cross`."""
        for rule in self.methods[func.attr]:
            shown = self._applies(rule, call, rule.name)
            if shown is None:
                continue
            if self._guards:
                self.guarded += 1
            else:
                self.hits.append(Hit(func, shown.replace(rule.name, f".{func.attr}", 1), rule))

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


#: How many modules a chain of relative star imports is followed through.
_STAR_DEPTH = 4


def _top_level_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """A module's statements, with those inside top-level `if` and `try` blocks."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If):
            yield from _top_level_statements(statement.body + statement.orelse)
        elif isinstance(statement, ast.Try):
            blocks = [statement.body, *(h.body for h in statement.handlers), statement.orelse]
            for block in blocks:
                yield from _top_level_statements(block)


def _removes_from(node: ast.AST, name: str) -> bool:
    """`name.pop(...)`, `name.popitem()`, `name.clear()` or `del name[...]`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in {"pop", "popitem", "clear"} and _identifier(node.func.value) == name
    if isinstance(node, ast.Delete):
        return any(_identifier(getattr(target, "value", target)) == name for target in node.targets)
    return False


def _names_a_bias(node: ast.AST) -> bool:
    """A name or attribute whose words (split at underscores) include "bias" and not "mask"."""
    words = _identifier(node).lower().split("_")
    return "bias" in words and "mask" not in words
