"""Whether a custom op's function may return one of its inputs, or a view of one: the condition of
the 2.9 and 2.13 aliasing changes (`torch.library.custom_op` ops whose output aliases an input).

A returned value may alias an input when it reaches a parameter through what keeps a tensor's
storage: a view or conversion method (`x.view(...)`, `x.contiguous()`, `x.to(...)`, which return
`x` itself when nothing changes), an in-place method (`x.add_(1)`), indexing, a torch view function
(`torch.narrow(x, ...)`), or a local variable bound to one of those. What a call into another
library returns (a kernel's output), a torch function that computes (`torch.add`), arithmetic and
`.clone()` are new tensors. A variable bound in a way this module cannot follow (a `for` target, a
`with ... as` name) may hold anything, so it may alias.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from macros.tools.scan_module import walk_own_scope

#: Tensor methods whose result may share the receiver's storage (or be the receiver).
VIEW_METHODS = frozenset(
    {
        "as_strided",
        "bfloat16",
        "chunk",
        "contiguous",
        "cpu",
        "cuda",
        "detach",
        "diagonal",
        "double",
        "expand",
        "expand_as",
        "flatten",
        "float",
        "half",
        "movedim",
        "narrow",
        "permute",
        "reshape",
        "reshape_as",
        "select",
        "split",
        "squeeze",
        "swapaxes",
        "t",
        "to",
        "transpose",
        "type",
        "type_as",
        "unbind",
        "unflatten",
        "unsqueeze",
        "view",
        "view_as",
    }
)
#: Attributes that are views of the tensor they are read from.
VIEW_ATTRIBUTES = frozenset({"data", "T", "mT", "H", "mH", "real", "imag"})
#: torch functions whose result may share their first argument's storage.
VIEW_FUNCTIONS = frozenset(
    f"torch.{name}"
    for name in [
        "as_strided",
        "chunk",
        "detach",
        "diagonal",
        "flatten",
        "movedim",
        "narrow",
        "permute",
        "reshape",
        "select",
        "split",
        "squeeze",
        "swapaxes",
        "t",
        "transpose",
        "unbind",
        "unflatten",
        "unsqueeze",
        "view_as_complex",
        "view_as_real",
    ]
)

Function = ast.FunctionDef | ast.AsyncFunctionDef


def may_return_input(
    function: Function,
    qualified: Callable[[ast.AST], str | None],
    module_functions: frozenset[str],
) -> bool:
    """Whether any `return` of `function` may give back an input or a view of one. `qualified`
    resolves a call's name to torch's (None for anything else); `module_functions` are the
    module's own functions, whose result may be what they are given."""
    parameters = {
        arg.arg
        for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
        + [a for a in (function.args.vararg, function.args.kwarg) if a is not None]
    }
    bindings = _bindings(function.body)
    followed: set[str] = set()

    def may_alias(node: ast.expr | None) -> bool:
        if node is None or isinstance(node, ast.Constant):
            return False
        if isinstance(node, ast.Tuple | ast.List):
            return any(may_alias(element) for element in node.elts)
        if isinstance(node, ast.Starred | ast.NamedExpr | ast.Await):
            return may_alias(node.value)
        if isinstance(node, ast.IfExp):
            return may_alias(node.body) or may_alias(node.orelse)
        if isinstance(node, ast.BoolOp):
            return any(may_alias(value) for value in node.values)
        if isinstance(node, ast.BinOp | ast.UnaryOp | ast.Compare | ast.JoinedStr | ast.Lambda):
            return False  # arithmetic makes a new tensor
        if isinstance(node, ast.Subscript):
            return may_alias(node.value)
        if isinstance(node, ast.Attribute):
            return node.attr in VIEW_ATTRIBUTES and may_alias(node.value)
        if isinstance(node, ast.Name):
            if node.id in parameters:
                return True
            if node.id in followed:
                return False  # already being followed: its other bindings decide
            followed.add(node.id)
            return any(value is None or may_alias(value) for value in bindings.get(node.id, ()))
        if isinstance(node, ast.Call):
            return call_may_alias(node)
        return True  # a comprehension, a dict...: not followed, so it may hold an input

    def call_may_alias(call: ast.Call) -> bool:
        func = call.func
        name = qualified(func)
        if name is not None:
            if name in VIEW_FUNCTIONS:
                return bool(call.args) and may_alias(call.args[0])
            return False  # a torch function computes a new tensor (`torch.add`, `torch.ops.x.y`)
        if isinstance(func, ast.Attribute):
            if func.attr in VIEW_METHODS or (func.attr.endswith("_") and not func.attr.startswith("_")):
                return may_alias(func.value)  # `x.view(...)`, `x.add_(1)`: x itself or its storage
            return False  # another library's function or object method (a kernel): its own output
        if isinstance(func, ast.Name) and func.id in module_functions:
            # The module's own helper may hand back what it is given.
            return any(may_alias(a) for a in [*call.args, *(k.value for k in call.keywords)])
        return False

    returns = [node for node in walk_own_scope(function.body) if isinstance(node, ast.Return)]
    return any(may_alias(node.value) for node in returns)


def _bindings(body: list[ast.stmt]) -> dict[str, list[ast.expr | None]]:
    """Every value each local name is bound to (None: bound in a way not followed)."""
    bindings: dict[str, list[ast.expr | None]] = {}
    handled: set[int] = set()
    for node in walk_own_scope(body):
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]  # `x += y` works in place: x stays what it was
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                    handled.add(id(name))
                    if value is not None:
                        # `out, lse = kernel(q, k)`: each name holds a part of the call's result
                        bindings.setdefault(name.id, []).append(value)
    for node in walk_own_scope(body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in handled:
            bindings.setdefault(node.id, []).append(None)
    return bindings
