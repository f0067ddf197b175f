"""The scanner reports a use only where the item's change applies, and finds uses however they
are written: conditions, changed defaults, object kinds, guards, suppressions, environments.

Each test scans a few made-up lines against the real release data and compares the (line,
item) pairs found with the lines the item's text says are affected.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from macros.query.catalog import Catalog, open_catalog
from macros.tools.scan import scan


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog(ROOT / "data")


def found(
    catalog: Catalog, tmp_path: Path, code: str, start: str, end: str, *environments: str
) -> set[tuple[int, str]]:
    (tmp_path / "user.py").write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    result = scan([tmp_path], catalog, start, end, "https://example.org/", frozenset(environments))
    assert result.skipped == []
    return {(f.line, f.item_id) for f in result.findings}


def lines(pairs: set[tuple[int, str]], item: str) -> list[int]:
    return sorted(line for line, item_id in pairs if item_id == item)


def test_torch_cat_only_where_its_runtime_error_is_caught(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        torch.cat([a, b])
        try:
            torch.cat([a, b])
        except RuntimeError:
            pass
        try:
            torch.concat([a])
        except (ValueError, RuntimeError):
            pass
        try:
            torch.cat([a])
        except Exception:
            pass
        """,
        "2.8",
        "2.9",
    )
    assert lines(pairs, "torch-cat-specific-errors") == [4, 8]


def test_a_changed_default_only_where_the_call_relies_on_it(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        torch.export.export(model, args)
        torch.export.export(model, args, strict=True)
        torch.onnx.export(model, args, "m.onnx")
        torch.onnx.export(model, args, "m.onnx", opset_version=17)
        torch.onnx.export(model, args, "m.onnx", dynamo=False, opset_version=18)
        torch.onnx.export(model, args, "m.onnx", **kwargs)
        torch.onnx.export(model, args, "m.onnx", **kwargs, dynamo=False, opset_version=18)
        torch.export.export(model, args, **kwargs)
        """,
        "2.7",
        "2.9",
    )
    # **kwargs may leave the keyword out (Lightning's to_onnx): reported, unless it is passed too.
    assert lines(pairs, "export-non-strict-default") == [2, 9]
    # The 2.9 default (opset 20) follows 2.8's (opset 18): one call shows only the later step.
    assert lines(pairs, "onnx-default-opset-18") == []
    assert lines(pairs, "onnx-default-opset-20") == [4, 7]
    assert lines(pairs, "onnx-dynamo-default") == [4, 5, 7]


def test_one_call_one_finding_per_item_and_no_contrary_advice(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        'import torch\ntorch.onnx.export(model, args, "m.onnx", dynamo=True, fallback=True, opset_version=18)\n',
        "2.8",
        "2.11",
    )
    assert {item for _, item in pairs} == {"onnx-fallback-removed"}  # not also "pass fallback=True"


def test_module_constants_type_checks_and_imports_of_a_changed_behaviour_are_not_uses(
    catalog: Catalog, tmp_path: Path
) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch.utils.cpp_extension as ext
        from torch.distributed.device_mesh import DeviceMesh
        print(ext.CUDA_HOME, ext.ROCM_HOME)
        ext.load(name="x", sources=["x.cpp"])
        if isinstance(mesh, DeviceMesh):
            mesh = DeviceMesh("cuda", [0, 1])
        def f(mesh: DeviceMesh) -> DeviceMesh: ...
        """,
        "2.10",
        "2.12",
    )
    assert lines(pairs, "source-build-cpp20") == [4]  # the call; the import runs no compiler
    assert lines(pairs, "devicemesh-pg-registry") == [6]  # built there; not checked or annotated


def test_annotations_decorators_partial_star_imports_and_positions(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import functools
        from functools import partial
        import torch
        from torch.utils.data import Sampler
        from torch.utils.cpp_extension import *
        class Scaler(torch.nn.Module):
            scale: torch.jit.Final[int]
        @torch.jit.script
        def g(x): return x
        exporter = functools.partial(torch.onnx.export, fallback=True)
        strict_export = partial(torch.export.export, strict=True)
        lazy_export = partial(torch.export.export)
        class Mine(Sampler):
            def __init__(self, data):
                super().__init__(data)
        class Yours(Sampler):
            def __init__(self, data):
                super().__init__()
        sampler = Sampler(dataset)
        load_inline(name="x", cpp_sources="")
        """,
        "2.9",
        "2.12",
    )
    # torch.jit.Final neither warns nor changes (only script, trace, save, load... warn): line 8.
    assert lines(pairs, "torchscript-deprecated") == [8]
    assert lines(pairs, "onnx-fallback-removed") == [10]
    assert lines(pairs, "export-non-strict-default") == []  # 2.8: outside the range anyway
    assert lines(pairs, "sampler-data-source-removed") == [15, 19]
    assert lines(pairs, "source-build-cpp20") == [20]  # load_inline, bound by the star import
    partial_defaults = found(catalog, tmp_path, "from functools import partial\nimport torch\n"
                             "e = partial(torch.export.export)\nf = partial(torch.export.export, strict=False)\n",
                             "2.7", "2.8")  # fmt: skip
    assert partial_defaults == set()  # the partial's caller may still pass strict=


def test_guarded_uses_are_not_reported(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        try:
            from torch.export import export_for_training
        except ImportError:
            export_for_training = None
        try:
            ep = torch.export.export_for_training(m, a)
        except AttributeError:
            ep = torch.export.export(m, a)
        if hasattr(torch.export, "export_for_training"):
            ep = torch.export.export_for_training(m, a)
        ep = torch.export.export_for_training(m, a) if _TORCH_GREATER_EQUAL_2_9 else None
        if version.parse(torch.__version__) < version.parse("2.9"):
            ep = torch.export.export_for_training(m, a)
        ep = torch.export.export_for_training(m, a)
        if not _TORCH_GREATER_EQUAL_2_9:
            ep = torch.export.export_for_training(m, a)
        else:
            ep = torch.export.export(m, a)
        ep = torch.export.export(m, a) if is_torch_less_than_2_9() else torch.export.export_for_training(m, a)
        """,
        "2.10",
        "2.11",
    )
    # A flag named for its direction guards only the branch for older releases: line 12 (and 20)
    # runs on 2.11, where export_for_training is gone (Lightning's `torch.load(...) if
    # _TORCH_GREATER_EQUAL_2_3 else _lazy_load(...)` was missed).
    assert lines(pairs, "export-for-training-removed") == [12, 15, 20]


def test_noqa_and_ignore_comments_silence_the_items_they_name(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch.export as te
        te.export_for_training(m, a)  # noqa: export-for-training-removed
        te.export_for_training(m, a)  # torch-scan: ignore[export-for-training-removed, export-for-training-deprecated]
        te.export_for_training(m, "# noqa: export-for-training-removed")
        te.export_for_training(m, a)  # noqa: E501
        """,
        "2.8",
        "2.11",
    )
    assert lines(pairs, "export-for-training-removed") == [4, 5]
    # The deprecation is the earlier step of the removal at the same places: never reported here.
    assert lines(pairs, "export-for-training-deprecated") == []


def test_changes_one_environment_feels_need_on(catalog: Catalog, tmp_path: Path) -> None:
    code = "import torch\nnorm = torch.nn.LayerNorm(8)\nconv = torch.nn.Conv3d(1, 1, 3)\n"
    assert found(catalog, tmp_path, code, "2.12", "2.13") == set()
    assert found(catalog, tmp_path, code, "2.12", "2.13", "mps") == {(2, "mps-amp-unscale-layer-norm-fixes")}
    # cuDNN no longer runs 3D convolutions (2.9) only changes speed: never reported.
    assert lines(found(catalog, tmp_path, code, "2.8", "2.9", "cuda"), "cudnn-3d-conv-disabled-cudnn-9-8") == []


def test_a_class_decorator_condition_skips_context_managers_and_functions(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        @torch.no_grad()
        class Frozen: ...
        @torch.no_grad()
        def infer(x): return x
        with torch.no_grad():
            pass
        """,
        "1.13",
        "2.0",
    )
    assert lines(pairs, "no-grad-class-decoration-deprecated") == [2]


def test_torch_load_warns_only_where_weights_only_is_left_out(catalog: Catalog, tmp_path: Path) -> None:
    code = "import torch\na = torch.load(f)\nb = torch.load(f, weights_only=True)\n"
    pairs = found(catalog, tmp_path, code, "2.0", "2.4")
    assert lines(pairs, "torch-load-weights-only-warning") == [2]
    assert lines(pairs, "load-little-endian-default-big-endian") == []  # big-endian hosts only: not visible


def test_changes_no_call_shows_are_not_reported(catalog: Catalog, tmp_path: Path) -> None:
    """Ties in clamp gradients (values), an unbatched attention input (rank), a `dim` of another
    type than int (every real use passes an int), an in-place change of a view inside a custom
    Function and a nested jagged tensor cannot be seen in a call; the item's other names still are."""
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        import torch.nn.functional as F
        y = torch.clamp(x, min=0) + torch.maximum(a, b) + torch.clip(x, 0, 1)
        attention = F.scaled_dot_product_attention(q, k, v)
        softmax = torch.nn.Softmax(dim=-1)
        class Scale(torch.autograd.Function):
            pass
        pooled = F.lp_pool2d(x, 0, 2)
        from torch.nn.attention.flex_attention import flex_attention
        out = flex_attention(q, k, v)
        """,
        "2.7",
        "2.14",
    )
    silent = [
        "clamp-minmax-tie-subgradients",
        "sdpa-rank3-fused-backends",
        "autograd-function-inplace-view-check",
        "flex-attention-njt-removed",  # nested jagged tensors: a property of the inputs
    ]
    assert [item for _, item in pairs if item in silent] == []
    assert lines(pairs, "argument-validation-errors-2-14") == [8]  # lp_pool with norm_type 0, not Softmax


def symbols(catalog: Catalog, tmp_path: Path, code: str, start: str, end: str, item: str) -> list[tuple[int, str]]:
    """(line, symbol as the finding shows it) of one item's findings, in order."""
    (tmp_path / "user.py").write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    result = scan([tmp_path], catalog, start, end, "https://example.org/")
    assert result.skipped == []
    return [(f.line, f.symbol) for f in result.findings if f.item_id == item]


def test_partial_placements_only_where_a_reduce_op_is_chosen(catalog: Catalog, tmp_path: Path) -> None:
    """2.11 rejects Partial inputs whose reduce ops differ; `Partial()` takes the default ("sum"),
    so only a Partial built with an op of its own can be the other one (transformers' six
    `[Partial()]` placements were false alarms)."""
    code = """
        from torch.distributed.tensor import DTensor, Partial
        a = DTensor.from_local(x, mesh, [Partial()])
        b = DTensor.from_local(y, mesh, [Partial("max")])
        c = DTensor.from_local(y, mesh, [Partial(reduce_op="avg")])
        if isinstance(p, Partial):
            pass
        """
    assert symbols(catalog, tmp_path, code, "2.10", "2.11", "dtensor-partial-reduce-op-mismatch-error") == [
        (3, "torch.distributed.tensor.Partial(reduce_op=...)"),
        (4, "torch.distributed.tensor.Partial(reduce_op=...)"),
    ]


def test_keyword_only_onnx_options_only_where_a_fourth_argument_is_positional(catalog: Catalog, tmp_path: Path) -> None:
    """2.5: every argument of torch.onnx.export after model, args and f must be passed by name."""
    code = """
        import functools
        import torch
        torch.onnx.export(model, args, "m.onnx")
        torch.onnx.export(model, args, "m.onnx", export_params=True, verbose=False)
        torch.onnx.export(model, args, "m.onnx", True, False)
        torch.onnx.export(model, *rest)
        exporter = functools.partial(torch.onnx.export, model, args, "m.onnx", True)
        """
    assert symbols(catalog, tmp_path, code, "2.4", "2.5", "onnx-export-keyword-only-options") == [
        (5, "torch.onnx.export() with argument 4 by position"),
        (7, "torch.onnx.export() with argument 4 by position"),
    ]


def test_importing_a_name_whose_behaviour_changed_is_not_a_use_of_its_deprecation(
    catalog: Catalog, tmp_path: Path
) -> None:
    """2.4's distributed checkpoint warns when a save overwrites a checkpoint: the names stay, so
    importing, checking or annotating them writes nothing (Lightning's `from ... import save` two
    lines above its call was reported); a renamed name's import still is a place to change."""
    code = """
        import torch.distributed.checkpoint as dcp
        from torch.distributed.checkpoint import FileSystemWriter, save
        from torch.library import impl_abstract
        def write(state, writer: FileSystemWriter) -> None:
            if isinstance(writer, FileSystemWriter):
                save(state, storage_writer=writer)
            dcp.save(state, storage_writer=FileSystemWriter(path))
        """
    assert symbols(catalog, tmp_path, code, "2.3", "2.4", "dcp-overwrite-warning") == [
        (6, "torch.distributed.checkpoint.save"),
        (7, "torch.distributed.checkpoint.save"),
        (7, "torch.distributed.checkpoint.FileSystemWriter"),
    ]
    assert symbols(catalog, tmp_path, code, "2.3", "2.4", "library-impl-abstract-renamed") == [
        (3, "torch.library.impl_abstract")
    ]


def test_a_half_precision_change_skips_tensors_visibly_made_in_another_dtype(catalog: Catalog, tmp_path: Path) -> None:
    """2.12's trunc_normal_ change concerns half-precision tensors: a variable its function binds
    once, by a factory with an explicit float32 `dtype=`, is not one (transformers' esmfold2 pair
    state); a half-precision one, a rebound or patched variable, a parameter's weight and a
    reference to the function still are reported."""
    code = """
        import torch
        from torch import nn
        def made_float32(reference):
            state = torch.empty_like(reference, dtype=torch.float32)
            nn.init.trunc_normal_(state, std=0.02)
            return state.to(reference.dtype)
        def made_bfloat16(reference):
            state = torch.zeros(4, dtype=torch.bfloat16)
            nn.init.trunc_normal_(state)
        def rebound(reference):
            state = torch.zeros(4, dtype=torch.float32)
            state = state.half()
            nn.init.trunc_normal_(state)
        def patched(reference):
            state = torch.zeros(4, dtype=torch.float32)
            state.data = reference.data
            nn.init.trunc_normal_(state)
        def weights(module):
            nn.init.trunc_normal_(module.weight)
        INIT = {"trunc_normal_": nn.init.trunc_normal_}
        """
    found_lines = [
        line for line, _ in symbols(catalog, tmp_path, code, "2.11", "2.12", "cpu-low-precision-sampling-changed")
    ]
    assert found_lines == [9, 13, 17, 19, 20]
