"""What the scanner can tell of a tensor's dtype from the code that makes it, for rules about
some dtypes only (`dtypes`): a factory's `dtype=` or the default dtype, a complex result, a
torch.nn layer's parameters, and a class's `self.<attr>` bound to one of those. Pure functions of
the `ast`, given how the module names torch's functions (`qualified`: the visitor's resolution
of imports and aliases).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

#: Resolves a function's name as the module binds it (`nn.Linear` -> `torch.nn.Linear`).
Qualify = Callable[[ast.AST], str | None]

#: Factories whose `dtype=` is "the desired data type of returned tensor" (PyTorch's documentation
#: of torch.zeros and torch.empty_like, which says torch.empty_like(x) is torch.empty(x.size(),
#: dtype=x.dtype, ...)): a variable bound once to one of these holds that dtype.
DTYPE_FACTORIES = frozenset({"torch.empty", "torch.empty_like", "torch.zeros"})
#: Factories that make a tensor of the global default dtype when no `dtype=` is given (PyTorch's
#: documentation of each: "if None, uses a global default (see torch.set_default_dtype())"),
#: float32 unless the program changes it.
DEFAULT_DTYPE_FACTORIES = frozenset({"torch.empty", "torch.zeros", "torch.ones", "torch.randn", "torch.rand"})
DEFAULT_DTYPE = "torch.float32"
#: A parameter wraps a tensor and keeps its dtype.
PARAMETERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
#: The parameters a torch.nn layer makes in its constructor, in the dtype it is given (`dtype=`,
#: else the global default: "factory_kwargs = {'device': device, 'dtype': dtype}" in each layer).
LAYER_PARAMETERS = frozenset({"weight", "bias"})
#: Calls whose result is always a complex tensor: the complex constructors and the FFTs of
#: torch.fft that return complex values (not hfft/irfft, which return real ones).
COMPLEX_RESULTS = frozenset(
    {"torch.view_as_complex", "torch.complex", "torch.polar"}
    | {f"torch.fft.{name}" for name in ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "rfft2", "rfftn")}
    | {f"torch.fft.{name}" for name in ("ihfft", "ihfft2", "ihfftn")}
)
#: The dtype the scanner gives a complex result (any complex dtype: none is listed by a rule
#: about real inputs).
COMPLEX = "complex"
#: Marks a class attribute holding a layer (its parameters' dtype follows), not a tensor.
LAYER = "layer:"


def module_layers_dtype(module: ast.Module, qualified: Qualify) -> str | None:
    """The dtype of the torch.nn layers' parameters the module makes: the default (float32),
    unless some layer call in it passes `dtype=` or unpacks `**kwargs` (`factory_kwargs`), or
    the module changes the default dtype: then unknown (None)."""
    for node in ast.walk(module):
        if not isinstance(node, ast.Call):
            continue
        name = qualified(node.func) or ""
        if name in {"torch.set_default_dtype", "torch.set_default_tensor_type"} or (
            is_layer(name) and any(k.arg in {"dtype", None} for k in node.keywords)
        ):
            return None
    return DEFAULT_DTYPE


def is_layer(name: str | None) -> bool:
    """A torch.nn layer class (`torch.nn.Linear`, `torch.nn.modules.conv.Conv2d`), not
    `torch.nn.Module` itself (any module: its parameters may be of any dtype) nor a parameter."""
    if not name or not name.startswith("torch.nn.") or name in PARAMETERS:
        return False
    last = name.rsplit(".", 1)[1]
    return last[:1].isupper() and last not in {"Module", "ModuleList", "ModuleDict", "Sequential"}


def attributes_of_one_dtype(node: ast.ClassDef, qualified: Qualify) -> dict[str, str]:
    """The class's `self.<attr>` that every method binds only to a new tensor of one known dtype
    (or to None): `self.pos = nn.Parameter(torch.zeros(1, n))` (the default dtype, float32) or
    a factory with an explicit `dtype=`. Any other binding of the attribute (another value,
    `+=`, a tuple target) leaves it unknown."""
    found: dict[str, set[str | None]] = {}
    for child in ast.walk(node):
        targets: list[ast.expr] = []
        if isinstance(child, ast.Assign | ast.AnnAssign) and (
            child.value is None or (isinstance(child.value, ast.Constant) and child.value.value is None)
        ):
            continue  # `self.pos: Parameter | None = None`: no tensor, no dtype to disagree
        if isinstance(child, ast.Assign):
            targets = child.targets
        elif isinstance(child, ast.AnnAssign | ast.AugAssign):
            targets = [child.target]
        for target in targets:
            for element in ast.walk(target):
                if (
                    isinstance(element, ast.Attribute)
                    and isinstance(element.value, ast.Name)
                    and element.value.id == "self"
                    and isinstance(element.ctx, ast.Store)
                ):
                    simple = isinstance(child, ast.Assign) and len(child.targets) == 1 and target is element
                    found.setdefault(element.attr, set()).add(
                        new_tensor_dtype(child.value, qualified) or layer_dtype(child.value, qualified)
                        if simple
                        else None
                    )
    return {name: dtypes.pop() for name, dtypes in found.items() if len(dtypes) == 1 and None not in dtypes}  # type: ignore[misc]


def new_tensor_dtype(value: ast.expr | None, qualified: Qualify) -> str | None:
    """The dtype of `factory(...)` or `Parameter(factory(...))`: its `dtype=`, else the default."""
    if isinstance(value, ast.Call) and qualified(value.func) in PARAMETERS and value.args:
        value = value.args[0]
    if not isinstance(value, ast.Call) or qualified(value.func) not in DEFAULT_DTYPE_FACTORIES:
        return None
    dtype = next((k.value for k in value.keywords if k.arg == "dtype"), None)
    if dtype is None:
        return None if any(k.arg is None for k in value.keywords) else DEFAULT_DTYPE
    return qualified(dtype)


def layer_dtype(value: ast.expr | None, qualified: Qualify) -> str | None:
    """`nn.Linear(a, b)`: a layer whose parameters have the default dtype (marked `LAYER`); with
    `dtype=`, that dtype; with `**kwargs`, unknown."""
    if not isinstance(value, ast.Call) or not is_layer(qualified(value.func)):
        return None
    dtype = next((k.value for k in value.keywords if k.arg == "dtype"), None)
    if dtype is None:
        return None if any(k.arg is None for k in value.keywords) else LAYER + DEFAULT_DTYPE
    qualified = qualified(dtype)
    return LAYER + qualified if qualified else None


def made_with_dtype(value: ast.expr | None, qualified: Qualify) -> str | None:
    """The dtype of a factory call with `dtype=`, or COMPLEX for a call that returns a complex
    tensor (`torch.view_as_complex`, `torch.fft.rfft`, `torch.stft(..., return_complex=True)`)."""
    if not isinstance(value, ast.Call):
        return None
    name = qualified(value.func)
    if name in COMPLEX_RESULTS:
        return COMPLEX
    if name in {"torch.stft", "torch.functional.stft"} and any(
        k.arg == "return_complex" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in value.keywords
    ):
        return COMPLEX
    if name not in DTYPE_FACTORIES:
        return None
    dtype = next((k.value for k in value.keywords if k.arg == "dtype"), None)
    return qualified(dtype) if dtype is not None else None
