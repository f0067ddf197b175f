"""What a whole module shows around a use, read when a rule first asks (few do): the functions
torch.compile runs or uses as a backend, the functions that run only while a model is built, the
keys a function writes into a dict, whether a table's entries are single functions, and a
function's own nodes (walk_own_scope). Pure functions of the module's `ast`, called by the
scanner's visitor (scan_visitor), scan_alias and scan_tree.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

#: What compiles the function it decorates or is given: `@torch.compile`, `@torch.compile(...)`,
#: `torch.compile(step)`, and the older `torch._dynamo.optimize(...)`.
COMPILERS = frozenset({"torch.compile", "torch._dynamo.optimize"})
#: Methods that run compiled when their object is: a module's `forward` (`torch.compile(model)`),
#: and the steps Lightning wraps in the compiled module's dynamo context
#: (pytorch_lightning/utilities/compile.py, `from_compiled`).
COMPILED_METHODS = frozenset({"forward", "training_step", "validation_step", "test_step", "predict_step"})
#: A loss module (`ClipLoss`, `nn.CrossEntropyLoss`): training scripts compile the model and call
#: the loss outside it, so a loss's forward is not taken for compiled code.
LOSS_SUFFIX = "Loss"
#: Methods that run during compilation without Dynamo tracing them: a tensor subclass's dispatch,
#: which AOTAutograd calls while it traces the graph.
UNTRACED_METHODS = frozenset({"__torch_dispatch__", "__torch_function__"})
#: Decorators that register a function as a torch.compile backend.
BACKEND_REGISTRARS = frozenset({"torch._dynamo.register_backend", "torch._dynamo.backends.registry.register_backend"})


def identifier(node: ast.AST) -> str:
    """A name's id or an attribute's last part (`torch.compile` -> "compile"); "" otherwise."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def module_imports(module: ast.Module) -> dict[str, str]:
    """What each name the module's absolute imports bind, anywhere in it, stands for: `import
    torch.nn as nn` -> nn: torch.nn, `import torch.nn` -> torch: torch, `from torch import nn` ->
    nn: torch.nn."""
    local: dict[str, str] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                local[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                local[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return local


def qualified_name(node: ast.AST, imports: dict[str, str]) -> str | None:
    """`nn.Module` -> torch.nn.Module under module_imports' names; None when the chain does not
    start at an imported name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in imports:
        return None
    return ".".join([imports[node.id], *reversed(parts)])


def compile_targets(module: ast.Module) -> tuple[frozenset[str], frozenset[str]]:
    """The names of the functions and methods the module gives to `torch.compile` (its first
    argument, a name or `obj.name`; `torch.compile(...)(f)`, `torch._dynamo.optimize(...)(f)`),
    and of the functions it gives as a backend (`backend=fn`, `torch._dynamo.optimize(fn)`,
    `@register_backend`). Imports are resolved as the module binds them anywhere (`import torch
    as t`, `from torch import compile`)."""
    compiled: set[str] = set()
    backends: set[str] = set()
    local = module_imports(module)

    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            qualified_name(d.func if isinstance(d, ast.Call) else d, local) in BACKEND_REGISTRARS
            for d in node.decorator_list
        ):
            backends.add(node.name)
        if not isinstance(node, ast.Call):
            continue
        outer = isinstance(node.func, ast.Call)  # compile(...)(f), optimize(...)(f)
        name = qualified_name(node.func.func if isinstance(node.func, ast.Call) else node.func, local)
        if name not in COMPILERS:
            continue
        for keyword in node.keywords:
            if keyword.arg == "backend" and isinstance(keyword.value, ast.Name | ast.Attribute):
                backends.add(identifier(keyword.value))
        first = node.args[0] if node.args else None
        if not isinstance(first, ast.Name | ast.Attribute):
            continue
        if outer or name == "torch.compile":
            compiled.add(identifier(first))
        else:  # torch._dynamo.optimize(backend)
            backends.add(identifier(first))
    return frozenset(compiled), frozenset(backends)


def construction_functions(module: ast.Module) -> set[int]:
    """The ids of the functions that run only while a model is built: every class's `__init__`,
    and, repeatedly, the methods of that class (`self.name`) and the module's top-level functions
    (`name`) named in a function already found, when no other function of the module, and no
    module-level statement, names them."""
    functions: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.ClassDef | None]] = []
    for statement in module.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.append((statement, None))
        elif isinstance(statement, ast.ClassDef):
            functions += [
                (method, statement)
                for method in statement.body
                if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
    top = {f.name: f for f, owner in functions if owner is None}
    methods = {(id(owner), f.name): f for f, owner in functions if owner is not None}
    named: dict[int, set[int]] = {}  # function id -> ids of the functions it names
    named_outside: set[int] = set()  # named by module-level code
    for function, owner in functions:
        refs = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in top:
                refs.add(id(top[node.id]))
            elif (
                owner is not None
                and isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and (id(owner), node.attr) in methods
            ):
                refs.add(id(methods[id(owner), node.attr]))
        named[id(function)] = refs - {id(function)}
    for statement in module.body:
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            named_outside |= {id(top[n.id]) for n in ast.walk(statement) if isinstance(n, ast.Name) and n.id in top}
    found = {id(f) for f, owner in functions if owner is not None and f.name == "__init__"}
    changed = True
    while changed:
        changed = False
        for function, _ in functions:
            key = id(function)
            if key in found or key in named_outside:
                continue
            callers = {caller for caller, refs in named.items() if key in refs}
            if callers and callers <= found:
                found.add(key)
                changed = True
    return found


def single(value: ast.expr | None) -> bool:
    """One callable, as a translation table's value: a name, an attribute or a lambda."""
    return isinstance(value, ast.Name | ast.Attribute | ast.Lambda)


def single_values(node: ast.Dict) -> bool:
    """A literal dict without `**other` whose values are all single callables."""
    return all(key is not None for key in node.keys) and all(single(value) for value in node.values)


def keys_written(node: ast.AST) -> list[tuple[str, str]]:
    """(dict name, key) for each literal string key the node writes into a local dict:
    `d["k"] = v`, `d.update(k=v)`, `d.update({"k": v})`, `d.setdefault("k", v)`, and
    `d = {..., "k": v}` / `d = dict(..., k=v)` (also with `**other` inside)."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return [(node.value.id, key.value)]
        return []
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return [(node.targets[0].id, key) for key in literal_keys(node.value)]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.attr in {"update", "setdefault"}
    ):
        name = node.func.value.id
        if node.func.attr == "setdefault":
            first = node.args[0] if node.args else None
            return [(name, first.value)] if isinstance(first, ast.Constant) and isinstance(first.value, str) else []
        keys = [k.arg for k in node.keywords if k.arg is not None]
        keys += [key for argument in node.args for key in literal_keys(argument)]
        return [(name, key) for key in keys]
    return []


def written_values(node: ast.AST, name: str, key: str) -> list[ast.expr | None]:
    """What the node writes for `key` into the local dict `name`, as keys_written finds the
    writes; None where the value cannot be read (`d.setdefault("k")`, `d.update(other)`)."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if isinstance(target, ast.Subscript) and keys_written(target) == [(name, key)]:
            return [node.value]
        if isinstance(target, ast.Name) and target.id == name and key in literal_keys(node.value):
            return _literal_value(node.value, key)
        return []
    if isinstance(node, ast.AugAssign | ast.AnnAssign) and (name, key) in keys_written(node.target):
        return [None]
    if (name, key) not in keys_written(node) or not isinstance(node, ast.Call):
        return []
    if isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault":
        return [node.args[1] if len(node.args) > 1 else None]
    values: list[ast.expr | None] = [k.value for k in node.keywords if k.arg == key]
    values += [value for argument in node.args for value in _literal_value(argument, key)]
    return values


def _literal_value(node: ast.expr, key: str) -> list[ast.expr | None]:
    """The value `{"k": v}` or `dict(k=v)` gives the key."""
    if isinstance(node, ast.Dict):
        return [
            v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant) and k.value == key
        ]
    if isinstance(node, ast.Call):
        return [k.value for k in node.keywords if k.arg == key]
    return []


def literal_keys(node: ast.expr) -> list[str]:
    """The literal string keys of `{"k": v, **other}` or `dict(other, k=v)`."""
    if isinstance(node, ast.Dict):
        return [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return [k.arg for k in node.keywords if k.arg is not None]
    return []


def walk_own_scope(body: list[ast.stmt]) -> Iterator[ast.AST]:
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
