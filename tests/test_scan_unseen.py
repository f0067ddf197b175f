"""The causes of false alarms and misses found on code bases the scanner was never tuned to
(issue 45), one test each: the real release data, a few lines written as those code bases write
them, and the (line, item) pairs the item's text says are affected.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from macros.query.catalog import Catalog, open_catalog
from macros.tools.scan import scan
from macros.tools.scan_output import as_text


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog(ROOT / "data")


def found(catalog: Catalog, folder: Path, code: str, start: str, end: str, name: str = "user.py") -> set:
    (folder / name).write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    result = scan([folder / name], catalog, start, end, "https://example.org/")
    assert result.skipped == []
    return {(f.line, f.item_id) for f in result.findings}


def lines(pairs: set, item: str) -> list[int]:
    return sorted(line for line, item_id in pairs if item_id == item)


def test_torch_jit_only_the_names_that_warn(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        from torch.jit import Final
        if torch.jit.is_scripting():
            pass
        @torch.jit.ignore
        def f(x): return x
        @torch.jit.unused
        def g(x): return x
        m = torch.jit.script(model)
        t = torch.jit.trace(model, x)
        torch.jit.save(m, "m.pt")
        torch.jit.load("m.pt")
        torch.jit.trace_module(model, {"forward": x})
        """,
        "2.9",
        "2.10",
    )
    assert lines(pairs, "torchscript-deprecated") == [9, 10, 11, 12, 13]


def test_conditions_that_make_the_change_apply(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        import torch.nn.functional as F
        from torch.utils.checkpoint import checkpoint, checkpoint_sequential
        checkpoint(block, x, use_reentrant=False)
        checkpoint(block, x)
        checkpoint(block, x, use_reentrant=None)
        checkpoint_sequential(fns, 2, x, False)
        checkpoint_sequential(fns, 2, x)
        torch.cross(a, b, dim=1)
        torch.cross(a, b, 1)
        torch.cross(a, b)
        torch.compile(model, dynamic=False)
        torch.compile(model)
        torch.save(model.state_dict(), path)
        torch.save({"model": model.state_dict(), "epoch": 3}, path)
        torch.save(tensor, path)
        F.scaled_dot_product_attention(q, k, v, attn_mask=None)
        F.scaled_dot_product_attention(q, k, v, None, 0.1)
        F.scaled_dot_product_attention(q, k, v, mask)
        F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        bad = torch.isnan(out)  # the module looks for NaNs (reads_nan)
        """,
        "1.13",
        "2.5",
    )
    assert lines(pairs, "checkpoint-use-reentrant-required-warning") == [5, 6, 8]
    assert lines(pairs, "checkpoint-use-reentrant-warning") == []  # the later step of the same call
    assert lines(pairs, "torch-cross-default-dim-deprecated") == [11]
    assert lines(pairs, "torch-compile-dynamic-default-none") == [13]
    assert lines(pairs, "tensor-attributes-serialized") == []  # which tensors carry attributes is not visible
    assert lines(pairs, "sdpa-fully-masked-rows-zero") == [19, 20]


def test_a_keyword_given_a_variable_bound_only_to_none_is_left_out(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch.nn.functional as F
        def attend(q, k, v, causal):
            mask = None
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
        def attend_masked(q, k, v, lengths):
            mask = None
            if lengths is not None:
                mask = make_mask(lengths)
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        def fully_masked(out):
            return out.isnan().all(-1)
        """,
        "2.4",
        "2.5",
    )
    assert lines(pairs, "sdpa-fully-masked-rows-zero") == [9]


def test_arguments_by_position_read_from_the_signature(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        from torch.optim.lr_scheduler import LambdaLR, StepLR, LRScheduler
        LambdaLR(opt, fn, last_epoch)
        LambdaLR(opt, fn)
        StepLR(opt, 30, 0.1, start)
        StepLR(opt, 30, 0.1)
        class Warmup(LRScheduler):
            def __init__(self, optimizer, warmup, last_epoch=-1):
                super().__init__(optimizer, last_epoch)
        class Plain(LRScheduler):
            def __init__(self, optimizer):
                super().__init__(optimizer)
        """,
        "2.7",
        "2.8",
    )
    assert lines(pairs, "lr-scheduler-resume-step-fix") == [2, 4, 8]


def test_more_spellings_of_a_name(catalog: Catalog, tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "common.py").write_text(
        "import torch\nfrom torch.jit import script\n__all__ = ['torch', 'script']\n", encoding="utf-8"
    )
    pairs = found(
        catalog,
        tmp_path / "pkg",
        """
        from torch.distributed.fsdp.fully_sharded_data_parallel import FullyShardedDataParallel as FSDP
        from torch.utils.data import Sampler
        from .common import *
        with FSDP.state_dict_type(model, kind):
            pass
        class Lengths(Sampler[int]):
            def __init__(self, data):
                super().__init__(data)
        script(model)
        c = a.cross(b)
        d = a.cross(b, dim=-1)
        torch.jit.trace(model, x)
        """,
        "2.1",
        "2.10",
        name="user.py",
    )
    assert lines(pairs, "fsdp-state-dict-type-deprecated") == [4]
    assert lines(pairs, "sampler-data-source-removed") == [8]
    assert lines(pairs, "torchscript-deprecated") == [9, 12]
    assert lines(pairs, "torch-cross-default-dim-deprecated") == [10]


def test_literal_kwargs_dicts_are_followed(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        from torch.utils.checkpoint import checkpoint
        def run(block, x):
            options = {"use_reentrant": False}
            return checkpoint(block, x, **options)
        def run_default(block, x):
            options = dict(preserve_rng_state=True)
            return checkpoint(block, x, **options)
        def run_inline(block, x):
            return checkpoint(block, x, **{"use_reentrant": True})
        def run_changed(block, x, extra):
            options = {}
            options.update(extra)
            return checkpoint(block, x, **options)
        """,
        "2.2",
        "2.3",
    )
    # A literal without the keyword relies on the default; one changed after it may hold anything.
    assert lines(pairs, "checkpoint-use-reentrant-required-warning") == [7, 13]


def test_compatibility_code_is_not_reported(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import inspect
        import torch
        try:
            from torch.amp import GradScaler
        except ImportError:
            from torch.cuda.amp import GradScaler
        scaler = GradScaler()
        if is_torch_version(">=", "2.4.0"):
            from torch.amp import GradScaler as Scaler
        else:
            from torch.cuda.amp import GradScaler as Scaler
        other: Scaler = Scaler()
        try:
            out = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
        except TypeError:
            out = torch.utils.checkpoint.checkpoint(f, x)
        parameters = inspect.signature(torch.hub.load_state_dict_from_url).parameters
        if "use_reentrant" in inspect.signature(torch.utils.checkpoint.checkpoint).parameters:
            out = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
        else:
            out = torch.utils.checkpoint.checkpoint(f, x)
        """,
        "2.2",
        "2.11",
    )
    assert pairs == set()


def test_version_guards_hide_only_the_branch_for_older_releases(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        from packaging import version
        if is_torch_version(">=", "2.4"):
            torch.load(path)
        else:
            torch.load(path)
        if version.parse(torch.__version__) < version.parse("2.4"):
            torch.load(path)
        else:
            torch.load(path)
        if self.version == 2:
            torch.load(path)
        if lossless:
            torch.load(path)
        try:
            torch.load(path)
        except:
            pass
        try:
            import torch.cuda.amp as old_amp
        except Exception:
            old_amp = None
        """,
        "2.5",
        "2.6",
    )
    assert lines(pairs, "torch-load-weights-only-default") == [4, 10, 12, 14, 16]


def test_one_finding_per_call_for_a_lifecycle(catalog: Catalog, tmp_path: Path) -> None:
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        torch.export.export_for_training(model, args)
        """,
        "2.8",
        "2.11",
    )
    assert pairs == {(2, "export-for-training-removed")}


def test_messages_carry_the_action_and_link_without_provenance(catalog: Catalog, tmp_path: Path) -> None:
    (tmp_path / "user.py").write_text(
        "import torch\ntorch.onnx.export(m, a, 'f.onnx')\ntorch.onnx.export(m, a, 'g.onnx')\n", encoding="utf-8"
    )
    result = scan([tmp_path], catalog, "2.8", "2.9", "https://example.org/")
    text = as_text(result.findings)
    assert "our inference" not in text and "read in the wheel" not in text
    findings, summary = text.split("\n\n")
    dynamo = [line for line in findings.splitlines() if " onnx-dynamo-default " in line]
    assert dynamo[0].startswith(f"{tmp_path}/user.py:2:1: onnx-dynamo-default ")
    assert "pass fallback=True." in dynamo[0]
    assert dynamo[0].endswith("(https://example.org/releases/2.9.html#onnx-dynamo-default)")
    assert summary.splitlines()[0] == "4 findings of 2 changes in 1 file:"
    assert "\n  2.9 onnx-dynamo-default: 2 places — " in summary


def test_trunc_normal_of_a_parameter_the_class_makes_in_the_default_dtype(catalog: Catalog, tmp_path: Path) -> None:
    """2.12 changes low-precision trunc_normal_; a parameter made by torch.zeros without dtype= is
    float32 (the default dtype), wherever in the class it is initialized."""
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self, n, wide):
                self.pos: nn.Parameter | None = None
                self.pos = nn.Parameter(torch.zeros(1, n))
                if wide:
                    self.cls = nn.Parameter(torch.zeros(1, 2 * n))
                else:
                    self.cls = nn.Parameter(torch.zeros(1, n))
                self.half = nn.Parameter(torch.zeros(1, n, dtype=torch.bfloat16))
                self.other = nn.Parameter(make(n))
                nn.init.trunc_normal_(self.pos, std=0.02)
            def init_weights(self, m):
                nn.init.trunc_normal_(self.cls, std=0.02)
                nn.init.trunc_normal_(self.half, std=0.02)
                nn.init.trunc_normal_(self.other, std=0.02)
                nn.init.trunc_normal_(m.weight, std=0.02)
        """,
        "2.11",
        "2.12",
    )
    assert lines(pairs, "cpu-low-precision-sampling-changed") == [16, 17, 18]


def test_actions_name_no_sources_of_the_site(catalog: Catalog) -> None:
    """What the scanner prints is what to do: the site's notes on how it knows (our inference,
    read in the wheel, what the notes' table says) stay on the release pages."""
    from macros.tools.scan import scan_data

    actions = {item.id: item.action for item in scan_data(catalog).items}
    for phrase in (
        "our inference",
        "our reading",
        "our suggestion",
        "read in the wheel",
        "the wheel shows",
        "not verified",
    ):
        assert not [item for item, action in actions.items() if phrase in action.lower()], phrase
    assert actions["device-specific-amp-deprecated"].endswith("take the device as an argument.")


def test_distributed_nn_collectives_only_in_compiled_code(catalog: Catalog, tmp_path: Path) -> None:
    """The 2.12 error is raised only under torch.compile: an eager loss aggregation (accelerate's
    sequence-parallel test script, open_clip's ClipLoss) is not a use, nor a loss module's forward
    (scripts compile the model, not the loss); a decorated function, one the module passes to
    torch.compile, a function nested in it and a module's forward are. A class without a base
    (transformers' `Trainer`) is no module: its `training_step` is not compiled code."""
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        import torch.distributed.nn
        from torch import compile as compile_fn
        def eager_step(loss, group):
            return torch.distributed.nn.functional.all_gather(loss, group=group)
        @torch.compile
        def decorated(x):
            return torch.distributed.nn.all_reduce(x)
        @torch.compile(fullgraph=True)
        def decorated_with_options(x):
            def inner(y):
                return torch.distributed.nn.all_gather(y)
            return inner(x)
        def passed(x):
            return torch.distributed.nn.broadcast(x, 0)
        step = compile_fn(passed)
        class Gather(torch.nn.Module):
            def forward(self, x):
                return torch.distributed.nn.all_gather(x)
            def helper(self, x):
                return torch.distributed.nn.all_gather(x)
            def step(self, x):
                return torch.distributed.nn.all_gather(x)
        compiled = torch.compile(Gather().step)
        torch.distributed.nn.all_gather(t)
        class SigLipLoss(torch.nn.Module):
            def forward(self, x):
                return torch.distributed.nn.all_gather(x)
        class Trainer:
            def training_step(self, model, x):
                return torch.distributed.nn.all_gather(x)
        class Runner(object):
            def forward(self, x):
                return torch.distributed.nn.all_gather(x)
        """,
        "2.11",
        "2.12",
    )
    assert lines(pairs, "distributed-nn-functional-compile-error") == [8, 12, 15, 19, 23]


def test_trunc_normal_of_layer_weights_while_the_model_is_built(catalog: Catalog, tmp_path: Path) -> None:
    """A torch.nn layer made without dtype= has float32 parameters: `trunc_normal_(m.weight)` under
    `isinstance(m, nn.Linear)` in an init function only `__init__` runs (through `self.apply`, a
    method, a module-level helper) and `self.fc.weight` of a layer made in the class are not the
    half-precision change. Still reported: the same init applied from other code (the model may
    be cast first), a weight with no isinstance narrowing, and, in a module that makes a layer with
    dtype=, both forms."""
    code = """
        import torch
        from torch import nn
        from torch.nn.init import trunc_normal_
        def init_vit(module, name=""):
            if isinstance(module, (nn.Linear, nn.Conv2d)):
                trunc_normal_(module.weight, std=0.02)
        def init_any(module):
            trunc_normal_(module.weight, std=0.02)
        def init_later(module):
            if isinstance(module, nn.Linear):
                trunc_normal_(module.weight, std=0.02)
        class Head(nn.Module):
            def __init__(self, n):
                self.fc = nn.Linear(n, n)
                self.apply(self._init_weights)
                self.init_weights()
            def _init_weights(self, m):
                if isinstance(m, nn.Linear) and m.bias is not None:
                    trunc_normal_(m.weight, std=0.02)
                    trunc_normal_(self.fc.weight, std=0.02)
            def init_weights(self):
                named_apply(init_vit, self)
                self.apply(init_any)
        def cast_then_init(model):
            model.half()
            model.apply(init_later)
        """
    pairs = found(catalog, tmp_path, code, "2.11", "2.12")
    assert lines(pairs, "cpu-low-precision-sampling-changed") == [8, 11]
    low = code.replace("self.fc = nn.Linear(n, n)", "self.fc = nn.Linear(n, n, dtype=torch.bfloat16)")
    pairs = found(catalog, tmp_path, low, "2.11", "2.12")
    assert lines(pairs, "cpu-low-precision-sampling-changed") == [6, 8, 11, 19, 20]


def test_a_keyword_written_into_the_unpacked_dict_is_passed(catalog: Catalog, tmp_path: Path) -> None:
    """2.7 removed schedulers' verbose=: `ReduceLROnPlateau(opt, **kw)` where the function writes
    kw["verbose"] (ignite's scheduler wrapper) may pass it, and is reported with what to check;
    a dict the function never writes that key into is not."""
    pairs = found(
        catalog,
        tmp_path,
        """
        from torch.optim.lr_scheduler import ReduceLROnPlateau, StepLR
        def plateau(opt, scheduler_kwargs):
            kw = scheduler_kwargs.copy()
            kw["min_lr"] = 0
            if "verbose" in kw:
                kw["verbose"] = False
            return ReduceLROnPlateau(opt, **kw)
        def step(opt, **kwargs):
            kwargs.setdefault("verbose", True)
            return StepLR(opt, 10, **kwargs)
        def updated(opt, options):
            options.update({"verbose": True})
            return StepLR(opt, 10, **options)
        def plain(opt, scheduler_kwargs):
            kw = dict(scheduler_kwargs, min_lr=0)
            return ReduceLROnPlateau(opt, **kw)
        """,
        "2.6",
        "2.7",
    )
    assert lines(pairs, "lr-scheduler-verbose-print-lr-removed") == [7, 10, 13]


def test_custom_ops_whose_function_returns_new_tensors(catalog: Catalog, tmp_path: Path) -> None:
    """The aliasing changes (2.9 wrong results, 2.13 deprecation) concern custom ops that return an
    input or a view of it: an op whose visible function returns only new tensors (transformers'
    grouped_mm fallback: torch.zeros filled with out=) is not one; an op returning its input, or
    registered with a function the module does not show, is."""
    code = """
        import torch
        from torch.library import custom_op
        def fallback(x, w):
            out = torch.zeros(x.size(0), w.size(1), dtype=x.dtype)
            torch.mm(x, w, out=out)
            return out
        def fallback_backward(x, w, g):
            return torch.empty_like(x), g.clone()
        def ident(x):
            return x
        custom_op("lib::fallback", fallback, mutates_args=())
        custom_op("lib::backward", fallback_backward, mutates_args=())
        custom_op("lib::ident", ident, mutates_args=())
        custom_op("lib::other", imported_function, mutates_args=())
        @torch.library.custom_op("lib::fresh", mutates_args=())
        def fresh(x: torch.Tensor) -> torch.Tensor:
            return x.clone()
        @torch.library.custom_op("lib::view", mutates_args=())
        def view(x: torch.Tensor) -> torch.Tensor:
            return x.view(-1)
        """
    pairs = found(catalog, tmp_path, code, "2.8", "2.9")
    assert lines(pairs, "custom-op-output-aliasing") == [13, 14, 18]
    pairs = found(catalog, tmp_path, code, "2.12", "2.13")
    assert lines(pairs, "custom-op-aliased-output-deprecated") == [13, 14, 18]  # the import is no use


def test_custom_ops_that_return_a_kernels_output_or_may_return_an_input(catalog: Catalog, tmp_path: Path) -> None:
    """An op whose function hands back what another library's kernel computed (transformers'
    sparse attention: `return attn_output.contiguous()`) returns a new tensor; one that returns an
    input through a conversion, an in-place method, indexing, a torch view function or a variable
    bound in a loop may alias it, and is reported."""
    code = """
        import torch
        from torch.library import custom_op
        import flash_kernels as kernels
        @custom_op("lib::kernel", mutates_args=())
        def kernel(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
            with torch.cuda.device(q.device):
                out = kernels.attention(q, k, causal=True)
            return out.contiguous()
        @custom_op("lib::pair", mutates_args=())
        def pair(q: torch.Tensor) -> torch.Tensor:
            out, lse = kernels.forward(q)
            return out.float() if lse is None else torch.add(out, lse)
        @custom_op("lib::converted", mutates_args=())
        def converted(x: torch.Tensor) -> torch.Tensor:
            return x.to(torch.float32)
        @custom_op("lib::inplace", mutates_args=())
        def inplace(x: torch.Tensor) -> torch.Tensor:
            y = x.mul_(2)
            return y
        @custom_op("lib::row", mutates_args=())
        def row(x: torch.Tensor) -> torch.Tensor:
            return torch.narrow(x, 0, 0, 1)
        @custom_op("lib::loop", mutates_args=())
        def loop(xs: list[torch.Tensor]) -> torch.Tensor:
            for t in xs:
                last = t
            return last
        """
    pairs = found(catalog, tmp_path, code, "2.8", "2.9")
    assert lines(pairs, "custom-op-output-aliasing") == [13, 16, 20, 23]


def test_sdpa_given_an_additive_bias_masks_no_row(catalog: Catalog, tmp_path: Path) -> None:
    """2.5's zeros for fully masked rows concern masks that can mask a row (boolean, or float with
    -inf). A relative-position bias (timm's `attn_bias = self.rel_pos.get_bias()`), by keyword or
    by position, is finite; a mask, a parameter named as one, a bias-masked sum and a name with
    both words still are."""
    code = """
        import torch.nn.functional as F
        def attend(self, q, k, v, attn_mask, shared_rel_pos=None, pad=None):
            attn_bias = self.rel_pos.get_bias() if shared_rel_pos is None else shared_rel_pos
            F.scaled_dot_product_attention(q, k, v, attn_mask=attn_bias)
            F.scaled_dot_product_attention(q, k, v, self.rel_pos_bias)
            bias = self._get_rel_pos_bias()
            F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
            summed = self._get_rel_pos_bias() + pad
            F.scaled_dot_product_attention(q, k, v, attn_mask=summed)
            F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
            F.scaled_dot_product_attention(q, k, v, attn_mask=self.bias_mask)
            F.scaled_dot_product_attention(q, k, v, attn_mask=q.new_ones(4, 4).bool())
            return torch.nan_to_num(q)
        """
    pairs = found(catalog, tmp_path, code, "2.4", "2.5")
    assert lines(pairs, "sdpa-fully-masked-rows-zero") == [9, 10, 11, 12]


def test_sdpa_only_where_the_module_looks_for_nans(catalog: Catalog, tmp_path: Path) -> None:
    """2.5 zeroes the rows that gave NaN: code that looked for those NaNs (`isnan`, `isfinite`,
    `nan_to_num`, as functions or methods) no longer finds them. A module that reads no NaN from a
    tensor (diffusers' and lumina2's padding masks; a float check with math.isnan) sees no change."""
    code = """
        import math
        import torch
        import torch.nn.functional as F
        def attend(q, k, v, mask):
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        def loss_ok(loss):
            return not math.isnan(loss.item())
        """
    assert lines(found(catalog, tmp_path, code, "2.4", "2.5"), "sdpa-fully-masked-rows-zero") == []
    for check in ["torch.isnan(out).any()", "out.isfinite().all()", "out.nan_to_num_(0.0)"]:
        module = textwrap.dedent(code) + f"def check(out):\n    return {check}\n"
        pairs = found(catalog, tmp_path, module, "2.4", "2.5")
        assert lines(pairs, "sdpa-fully-masked-rows-zero") == [5], check


def test_export_of_a_script_module_only(catalog: Catalog, tmp_path: Path) -> None:
    """2.5's export refuses a ScriptModule: an export of a module the code scripts, traces or
    loads with torch.jit (in the call, through a variable, or a parameter annotated as one) is
    reported; an export of any other module (ultralytics' exporters) is not."""
    code = """
        import torch
        def export(model, args):
            return torch.export.export(model, args)
        def export_scripted(model, args):
            scripted = torch.jit.script(model)
            return torch.export.export(scripted, args)
        def export_loaded(path, args):
            return torch.export.export(torch.jit.load(path), args)
        def export_given(mod: torch.jit.ScriptModule, args):
            return torch.export.export(mod=mod, args=args)
        """
    assert lines(found(catalog, tmp_path, code, "2.4", "2.5"), "export-scriptmodule-valueerror") == [6, 8, 10]


def test_export_of_a_plain_function_only(catalog: Catalog, tmp_path: Path) -> None:
    """2.3's export takes only an nn.Module: an export of a lambda, a partial, or a function the
    module or the caller defines is reported; a module of unknown origin, a parameter and a
    name the caller rebinds to a module are not."""
    code = """
        import functools
        import torch
        def double(x):
            return 2 * x
        def export(model, args, step):
            torch.export.export(model, args)
            torch.export.export(double, args)
            torch.export.export(lambda x: x + 1, args)
            torch.export.export(functools.partial(double), args)
            torch.export.export(step, args)
            def inner(x):
                return x
            torch.export.export(inner, args)
        def export_module(args):
            double = torch.nn.Linear(2, 2)
            torch.export.export(double, args)
        torch.export.export(double, (torch.ones(2),))
        """
    assert lines(found(catalog, tmp_path, code, "2.2", "2.3"), "export-requires-nn-module") == [7, 8, 9, 13, 17]


def test_a_default_the_function_always_sets_in_the_dict_it_unpacks(catalog: Catalog, tmp_path: Path) -> None:
    """2.6's weights_only default concerns calls that leave it out: a function that writes it
    into the dict it unpacks, in a statement of its own body, passes it. A write under a
    condition (accelerate's `load`, which pops it in the other branch), or one undone by `pop`,
    leaves it to check."""
    code = """
        import torch
        def load(f, **kwargs):
            kwargs["weights_only"] = True
            return torch.load(f, **kwargs)
        def load_defaults(f, **kwargs):
            kwargs.setdefault("weights_only", True)
            return torch.load(f, **kwargs)
        def load_maybe(f, new, **kwargs):
            if new:
                kwargs["weights_only"] = True
            else:
                kwargs.pop("weights_only", None)
            return torch.load(f, **kwargs)
        def load_undone(f, **kwargs):
            kwargs.update(weights_only=True)
            del kwargs["weights_only"]
            return torch.load(f, **kwargs)
        """
    assert lines(found(catalog, tmp_path, code, "2.5", "2.6"), "torch-load-weights-only-default") == [13, 17]


def test_a_dict_written_with_another_literal_value_is_not_the_change(catalog: Catalog, tmp_path: Path) -> None:
    """2.14 removed the `tvm` backend: a wrapper that writes another literal backend into the
    dict it unpacks (transformers' HPU override of torch.compile) is no use of it; one writing
    `"tvm"`, or a value the scanner cannot read, is still reported for the reader to check."""
    code = """
        import torch
        def hpu_compile(*args, **kwargs):
            if kwargs.get("backend") not in ["hpu_backend", "eager"]:
                kwargs["backend"] = "hpu_backend"
            return torch.compile(*args, **kwargs)
        def tvm_compile(model, **kwargs):
            kwargs.update(backend="tvm")
            return torch.compile(model, **kwargs)
        def chosen_compile(model, backend, **kwargs):
            kwargs.setdefault("backend", backend)
            return torch.compile(model, **kwargs)
        def literal_dict(model):
            options = {"backend": "inductor", "mode": "max-autotune"}
            options["fullgraph"] = True
            return torch.compile(model, **options)
        """
    assert lines(found(catalog, tmp_path, code, "2.13", "2.14"), "dynamo-tvm-relay-removed") == [8, 11]


def test_hardtanh_only_where_a_bound_is_given(catalog: Catalog, tmp_path: Path) -> None:
    """2.4's hardtanh raises when min_val is above max_val: a call keeping both defaults (-1, 1)
    cannot; one passing either bound, by name or by position, may."""
    code = """
        import torch.nn.functional as F
        F.hardtanh(x)
        F.hardtanh(x, inplace=True)
        F.hardtanh(x, lo, hi)
        F.hardtanh(x, max_val=hi)
        """
    assert lines(found(catalog, tmp_path, code, "2.3", "2.4"), "hardtanh-min-above-max-error") == [4, 5]


def test_calls_through_a_name_assigned_a_torch_function(catalog: Catalog, tmp_path: Path) -> None:
    """diffusers binds `_custom_op = torch.library.custom_op` behind a version check and registers
    its ops through it: each registration is judged (the one returning an input is reported), not
    the assignment; a rule that needs no call is still met at the assignment, once."""
    code = """
        import torch
        if torch.__version__ >= "2.4.0":
            _custom_op = torch.library.custom_op
        @_custom_op("lib::fresh", mutates_args=())
        def fresh(x: torch.Tensor) -> torch.Tensor:
            return x.clone()
        @_custom_op("lib::same", mutates_args=())
        def same(x: torch.Tensor) -> torch.Tensor:
            return x
        script = torch.jit.script
        scripted = script(torch.nn.Linear(2, 2))
        """
    pairs = found(catalog, tmp_path, code, "2.8", "2.14")
    assert lines(pairs, "custom-op-output-aliasing") == lines(pairs, "custom-op-aliased-output-deprecated") == [7]
    assert lines(pairs, "torchscript-future-warnings") == [10]


def test_onnx_args_that_cannot_end_with_a_dict(catalog: Catalog, tmp_path: Path) -> None:
    """2.5 deprecates model keyword arguments as a dict at the end of ONNX export's `args`: a
    literal tuple ending with a tensor, a tensor made by torch, or a variable bound once to such a
    tuple cannot hold one; a trailing dict, a `dict(...)`, an unpacked tail and arguments of
    unknown shape (a parameter: Lightning's `input_sample`) may. A reference that is no call
    (`torch.onnx.export = patched`) passes no arguments."""
    code = """
        import torch
        def export(model, x, mask, sample, f):
            torch.onnx.export(model, (x, mask), f)
            torch.onnx.export(model, torch.randn(1, 3), f)
            inputs = (x,)
            torch.onnx.export(model, inputs, f)
            torch.onnx.export(model, (x, {"mask": mask}), f)
            torch.onnx.export(model, args=(x, dict(mask=mask)), f=f)
            torch.onnx.export(model, (x, *sample), f)
            torch.onnx.export(model, sample, f)
        torch.onnx.export = print
        """
    assert lines(found(catalog, tmp_path, code, "2.4", "2.5"), "onnx-export-model-kwargs-dict-deprecated") == [
        7,
        8,
        9,
        10,
    ]


def test_onnx_names_given_as_distinct_literals_cannot_clash(catalog: Catalog, tmp_path: Path) -> None:
    """2.11 rejects duplicate ONNX input or output names: a literal list of distinct names (or a
    variable bound once to one and never changed) cannot hold a duplicate; names computed at run
    time, repeated literals and a list appended to are reported."""
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        def export(model, x, names):
            torch.onnx.export(model, (x,), "m.onnx", input_names=["x"], output_names=["logits", "hidden"])
            fixed = ("x", "mask")
            torch.onnx.export(model, (x,), "m.onnx", input_names=fixed)
            torch.onnx.export(model, (x,), "m.onnx", input_names=names)
            torch.onnx.export(model, (x,), "m.onnx", output_names=["out", "out"])
            grown = ["x"]
            grown.append(extra_name())
            torch.onnx.export(model, (x,), "m.onnx", input_names=grown)
        """,
        "2.10",
        "2.11",
    )
    assert lines(pairs, "onnx-duplicate-io-names-error") == [6, 7, 10]


def test_custom_process_group_new_group_without_backend(catalog: Catalog, tmp_path: Path) -> None:
    """2.14's new_group() passes backend= to the default process group's own new_group(): reported
    where a ProcessGroup subclass defines new_group() without it (the code to change); one that
    takes backend or **kwargs, other classes and the callers of torch.distributed.new_group are
    not."""
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch.distributed as dist
        from torch._C._distributed_c10d import ProcessGroup
        class FakePG(dist.ProcessGroup):
            def new_group(self, ranks, *, timeout=None, pg_options=None, group_name=None, group_desc=None):
                return None
        class NewPG(ProcessGroup):
            def new_group(self, ranks, *, timeout=None, backend=None, pg_options=None, group_name=None):
                return None
        class OpenPG(ProcessGroup):
            def new_group(self, ranks, **kwargs):
                return None
        class Helper:
            def new_group(self, ranks):
                return dist.new_group(ranks)
        group = dist.new_group(backend="gloo")
        """,
        "2.13",
        "2.14",
    )
    assert lines(pairs, "custom-pg-new-group-backend-kwarg") == [4]


def test_istft_of_a_complex_spectrogram(catalog: Catalog, tmp_path: Path) -> None:
    """2.0's istft refuses a real (..., 2) input: a spectrogram its function binds once to a
    complex result (stft with return_complex=True, view_as_complex, an FFT, a complex factory) is
    not one; a parameter or a real tensor still is reported."""
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        def roundtrip(x, z, n):
            spec = torch.stft(x, n, return_complex=True)
            y = torch.istft(spec, n)
            packed = torch.view_as_complex(z)
            y = torch.istft(packed, n)
            half = torch.fft.rfft(x)
            y = torch.istft(half, n)
            made = torch.zeros(4, 4, dtype=torch.complex64)
            y = torch.istft(made, n)
            y = torch.istft(z, n)
            real = torch.zeros(4, 4, 2, dtype=torch.float32)
            return torch.istft(real, n)
        """,
        "1.13",
        "2.0",
    )
    assert lines(pairs, "stft-return-complex-required") == [11, 13]


def test_is_compiling_only_where_compilation_runs_untraced_code(catalog: Catalog, tmp_path: Path) -> None:
    """2.13 keeps torch.compiler.is_compiling() true for the whole compile session: code Dynamo
    traces (kornia's solvers branching on it) saw true before too; a tensor subclass's
    __torch_dispatch__ and a compile backend now see it change."""
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        from torch._dynamo import register_backend
        def solve(coeffs):
            if torch.compiler.is_compiling():
                return coeffs
            return coeffs * 2
        class Wrapped(torch.Tensor):
            @classmethod
            def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
                if torch.compiler.is_compiling():
                    pass
                return func(*args, **(kwargs or {}))
        @register_backend
        def my_backend(gm, inputs):
            torch.compiler.is_compiling()
            return gm
        def other_backend(gm, inputs):
            def run(*a):
                return torch.compiler.is_compiling()
            return run
        compiled = torch.compile(solve, backend=other_backend)
        optimized = torch._dynamo.optimize(other_backend)(solve)
        """,
        "2.12",
        "2.13",
    )
    assert lines(pairs, "compiler-is-compiling-whole-session") == [10, 15, 19]


def test_init_process_group_backend_by_position(catalog: Catalog, tmp_path: Path) -> None:
    """backend is init_process_group's first parameter and new_group's third: Lightning's
    `init_process_group(torch_distributed_backend, rank=..., **kwargs)` and ignite's
    `init_process_group(backend, init_method=..., **kw)` name it; 2.15's nccl2 default is met by
    `init_process_group("nccl")` as by the keyword."""
    code = """
        import torch.distributed as dist
        def init(backend, **kwargs):
            dist.init_process_group(backend, rank=0, world_size=1, **kwargs)
            dist.init_process_group(rank=0, world_size=1)
            dist.init_process_group("nccl")
            dist.new_group([0, 1], None, "nccl")
        """
    pairs = found(catalog, tmp_path, code, "2.13", "2.14")
    assert lines(pairs, "distributed-backend-choice-stricter-splits-2-14") == [4]
    result = scan([tmp_path / "user.py"], catalog, "2.14", "2.15", "https://example.org/", frozenset({"cuda"}))
    assert sorted(f.line for f in result.findings if f.item_id == "nccl-backend-is-nccl2") == [5, 6]


def test_a_check_that_a_name_is_there_runs_nothing(catalog: Catalog, tmp_path: Path) -> None:
    """`associative_scan is not None` (transformers' Jamba and Zamba) runs no scan: for 2.8's
    stricter higher-order-op check it is no use; the call is. A removed name's None check still
    is (the name must go)."""
    pairs = found(
        catalog,
        tmp_path,
        """
        from torch._higher_order_ops.associative_scan import associative_scan
        from torch.export import export_for_training
        def ssm(a, b, use_scan):
            if use_scan and associative_scan is not None:
                return associative_scan(combine, (a, b), dim=2)
            if export_for_training is None:
                return None
        """,
        "2.7",
        "2.15",
    )
    assert lines(pairs, "hop-aliasing-mutation-check") == [5]
    assert lines(pairs, "export-for-training-removed") == [2, 6]


def test_onnx_translation_tables_of_single_functions(catalog: Catalog, tmp_path: Path) -> None:
    """2.11's custom_translation_table takes one function per op, no longer a sequence: a literal
    table of single functions, or a module-level table every write of which adds one (transformers'
    _ONNX_TRANSLATION_TABLE: `= {}`, `.update({...})`, `[op] = fn`), is unchanged; a table with a
    list of overloads, or one built elsewhere, is reported."""
    pairs = found(
        catalog,
        tmp_path,
        """
        import torch
        TABLE: dict = {}
        TABLE.update({torch.ops.aten.add.Tensor: custom_add})
        TABLE[torch.ops.aten.mm.default] = (
            custom_mm
        )
        OVERLOADS = {torch.ops.aten.add.Tensor: [add_float, add_int]}
        def export(model, x, table):
            torch.onnx.export(model, (x,), custom_translation_table={torch.ops.aten.relu.default: relu})
            torch.onnx.export(model, (x,), custom_translation_table=TABLE)
            torch.onnx.export(model, (x,), custom_translation_table=OVERLOADS)
            torch.onnx.export(model, (x,), custom_translation_table=table)
        """,
        "2.10",
        "2.11",
    )
    assert lines(pairs, "onnx-custom-translation-single-function") == [11, 12]
