"""Synthetic release data for the build benchmark.

Writes a complete data folder (`sources.yaml`, `topics.yaml`, `releases/X.Y.yaml`) shaped like
`data/`, with N made-up releases "5.0", "5.1", ... of M items each. The data passes the real loader
and checks (`python -m macros check --data OUT_DIR`) and mirrors the real files: the mix of item
kinds, code examples on breaking changes, deprecations that later releases remove, topics, a full
platform block, companions, patches, stats and disputes. Output is deterministic for a given
(releases, items, seed).

    python tests/perf/synth.py OUT_DIR --releases N --items M [--seed S]

Other scripts import it (after putting this folder on `sys.path`) and call `generate`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

MAJOR = 5
FIRST_RELEASE = dt.date(2027, 1, 13)
CADENCE_DAYS = 70
MARKER = "# Synthetic data written by tests/perf/synth.py"

Doc = dict[str, Any]

# --- vocabulary ---------------------------------------------------------------------------------

# Items per kind over the six real releases (2.8 to 2.13): every synthetic release keeps this mix.
KIND_WEIGHTS: dict[str, int] = {
    "highlight": 48,
    "breaking": 49,
    "deprecation": 22,
    "removal": 17,
    "platform": 15,
    "feature": 53,
    "improvement": 5,
    "regression": 3,
}

# Items per area over the real releases; platform items pick their own area.
AREA_WEIGHTS: dict[str, int] = {
    "compiler": 34,
    "distributed": 23,
    "onnx": 17,
    "cuda": 14,
    "rocm": 12,
    "mps": 12,
    "export": 11,
    "xpu": 10,
    "tensor": 10,
    "nn": 9,
    "build": 9,
    "packaging": 8,
    "cpp": 8,
    "cpu": 7,
    "linalg": 5,
    "autograd": 5,
    "quantization": 5,
    "python": 4,
    "data": 3,
    "jit": 2,
    "profiler": 2,
    "optim": 2,
}


@dataclass(frozen=True)
class AreaWords:
    apis: tuple[str, ...]
    subjects: tuple[str, ...]
    devices: tuple[str, ...] = ("CUDA", "CPU", "ROCm", "Intel GPUs")


AREAS: dict[str, AreaWords] = {
    "autograd": AreaWords(
        ("torch.autograd.grad", "torch.autograd.Function", "torch.func.vmap", "torch.func.jacrev"),
        ("forward-mode AD", "saved tensor hooks", "the autograd engine", "double backward"),
    ),
    "build": AreaWords(
        ("torch.utils.cpp_extension.load", "torch.utils.cpp_extension.CUDAExtension", "torch.utils.cmake_prefix_path"),
        ("source builds", "the CMake configuration", "Windows builds", "ccache support"),
        ("Linux", "Windows", "macOS", "Linux aarch64"),
    ),
    "compiler": AreaWords(
        (
            "torch.compile",
            "torch._dynamo.mark_dynamic",
            "torch.compiler.disable",
            "torch.compiler.nested_compile_region",
            "torch.compiler.allow_in_graph",
        ),
        ("Inductor's Triton templates", "Dynamo guard evaluation", "compiled autograd", "regional compilation"),
    ),
    "cpp": AreaWords(
        ("torch::stable::Tensor", "at::Tensor::data_ptr", "torch::Library::impl", "c10::DispatchKeySet"),
        ("the stable libtorch ABI", "the C++ frontend", "custom operator registration"),
        ("Linux", "Windows", "macOS"),
    ),
    "cpu": AreaWords(
        ("torch.backends.mkldnn.flags", "torch.cpu.amp.autocast", "torch.backends.cpu.get_cpu_capability"),
        ("oneDNN kernels", "AVX-512 code paths", "Arm SVE kernels", "the CPU autocast"),
        ("x86 CPUs", "Arm CPUs", "Apple silicon CPUs"),
    ),
    "cuda": AreaWords(
        ("torch.cuda.graph", "torch.cuda.MemPool", "torch.cuda.memory_stats", "torch.cuda.Stream.wait_event"),
        ("the caching allocator", "CUDA graph capture", "cuBLAS workspaces", "CUDA streams"),
        ("CUDA", "Blackwell GPUs", "Hopper GPUs"),
    ),
    "data": AreaWords(
        ("torch.utils.data.DataLoader", "torch.utils.data.get_worker_info", "torch.utils.data.Sampler"),
        ("DataLoader worker processes", "the pin-memory thread", "map-style datasets"),
        ("Linux", "Windows", "macOS"),
    ),
    "distributed": AreaWords(
        (
            "torch.distributed.fsdp.fully_shard",
            "torch.distributed.checkpoint.save",
            "torch.distributed.tensor.DTensor",
            "torch.distributed.init_process_group",
            "torch.distributed.pipelining.pipeline",
        ),
        ("FSDP2", "Distributed Checkpointing", "the NCCL process group", "symmetric memory", "pipeline parallelism"),
    ),
    "export": AreaWords(
        ("torch.export.export", "torch.export.save", "torch.export.Dim", "torch.export.draft_export"),
        ("AOTInductor", "non-strict export", "dynamic shape specifications"),
    ),
    "jit": AreaWords(
        ("torch.jit.script", "torch.jit.trace", "torch.jit.freeze", "torch.jit.optimize_for_inference"),
        ("TorchScript", "the JIT profiling executor"),
        ("CPU", "CUDA"),
    ),
    "linalg": AreaWords(
        ("torch.linalg.eigh", "torch.linalg.solve", "torch.linalg.svd", "torch.linalg.lstsq"),
        ("batched solvers", "the cuSolver backend", "the MAGMA backend"),
        ("CUDA", "CPU", "ROCm"),
    ),
    "mps": AreaWords(
        ("torch.mps.synchronize", "torch.mps.compile_shader", "torch.mps.empty_cache"),
        ("MPSInductor", "Metal kernels", "the MPS allocator"),
        ("Apple GPUs", "M-series Macs"),
    ),
    "nn": AreaWords(
        (
            "torch.nn.functional.scaled_dot_product_attention",
            "torch.nn.attention.flex_attention.flex_attention",
            "torch.nn.functional.interpolate",
            "torch.nn.Module.load_state_dict",
            "torch.nn.utils.clip_grad_norm_",
        ),
        ("FlexAttention", "normalization modules", "module hooks", "varlen attention"),
    ),
    "onnx": AreaWords(
        ("torch.onnx.export", "torch.onnx.ops.symbolic", "torch.onnx.ONNXProgram.optimize"),
        ("the dynamo-based exporter", "the TorchScript-based exporter", "ONNX opset selection"),
        ("ONNX Runtime", "CPU"),
    ),
    "optim": AreaWords(
        ("torch.optim.AdamW", "torch.optim.Adagrad", "torch.optim.lr_scheduler.OneCycleLR", "torch.optim.Muon"),
        ("fused optimizers", "learning-rate schedulers", "foreach implementations"),
    ),
    "packaging": AreaWords(
        ("torch.version.cuda", "torch.utils.collect_env", "torch.backends.cuda.is_built"),
        ("the wheel index", "wheel variants", "the manylinux wheels"),
        ("Linux x86_64", "Linux aarch64", "Windows"),
    ),
    "profiler": AreaWords(
        ("torch.profiler.profile", "torch.profiler.record_function", "torch.profiler.schedule"),
        ("the Kineto trace", "memory snapshots", "the execution trace observer"),
    ),
    "python": AreaWords(
        ("torch.load", "torch.serialization.add_safe_globals", "torch.set_default_device"),
        ("free-threaded Python", "the type hints", "the weights-only unpickler"),
        ("Linux", "Windows", "macOS"),
    ),
    "quantization": AreaWords(
        ("torch.ao.quantization.quantize_dynamic", "torch.ao.quantization.quantize_fx.prepare_fx", "torch._scaled_mm"),
        ("PT2E quantization", "FP8 matmuls", "MX formats"),
    ),
    "rocm": AreaWords(
        ("torch.cuda.tunable.enable", "torch.backends.cuda.preferred_blas_library", "torch.cuda.get_device_properties"),
        ("hipBLASLt", "AOTriton", "Composable Kernel templates", "rocSHMEM collectives"),
        ("ROCm", "MI300 GPUs", "Radeon GPUs"),
    ),
    "tensor": AreaWords(
        (
            "torch.where",
            "torch.nonzero_static",
            "torch.Tensor.index_put_",
            "torch.utils.dlpack.from_dlpack",
            "torch.histc",
        ),
        ("type promotion", "DLPack interop", "sparse CSR tensors", "nested tensors"),
    ),
    "xpu": AreaWords(
        ("torch.xpu.graph", "torch.xpu.memory_stats", "torch.xpu.Stream", "torch.xpu.is_available"),
        ("XPU graphs", "the XCCL backend", "SYCL kernels", "oneCCL collectives"),
        ("Intel GPUs", "Intel Arc GPUs", "Intel Data Center GPUs"),
    ),
}

CAPABILITIES = (
    "dynamic shapes",
    "bfloat16 inputs",
    "complex tensors",
    "nested jagged tensors",
    "deterministic mode",
    "channels-last inputs",
    "FP8 inputs",
    "symbolic sizes",
    "batched inputs",
    "the `out=` variant",
)
BENEFITS = (
    "fewer kernels are launched for small batches",
    "compile time drops for stacks of identical blocks",
    "peak memory is lower during the backward pass",
    "common patterns no longer cause graph breaks",
    "the same code runs on every accelerator",
    "start-up time drops for large models",
    "results match eager mode bit for bit",
    "large checkpoints load without a second copy in memory",
)
WORKLOADS = (
    "training loops with small batches",
    "long-context inference",
    "large-vocabulary models",
    "graph-captured training steps",
    "mixture-of-experts layers",
)
LIMITS = (
    "Windows support follows later",
    "training is not supported yet",
    "the API may still change",
    "dynamic shapes are not covered yet",
)
ERRORS = ("ValueError", "TypeError", "NotImplementedError")
CONDITIONS = (
    "an empty input",
    "mismatched dtypes",
    "an integer tensor",
    "inputs on different devices",
    "a negative `dim`",
    "a zero-size batch",
)
KWARGS = (
    ("strict", "True", "False"),
    ("weights_only", "False", "True"),
    ("fullgraph", "False", "True"),
    ("foreach", "None", "True"),
    ("align_corners", "True", "False"),
    ("reduction", '"mean"', '"sum"'),
    ("deterministic", "False", "True"),
    ("use_reentrant", "True", "False"),
)
CONFIG_FLAGS = (
    ("torch._inductor.config", "max_autotune_defer_layout_freezing"),
    ("torch._inductor.config", "freezing"),
    ("torch._dynamo.config", "capture_scalar_outputs"),
    ("torch._dynamo.config", "inline_inbuilt_nn_modules"),
    ("torch._functorch.config", "donated_buffer"),
)
REQUIREMENTS = (
    ("Building from source", "CMake 3.27 or newer", "cmake"),
    ("Building C++ extensions", "GCC 11 or newer", "bash"),
    ("Installing the Linux wheels", "glibc 2.28 or newer", "bash"),
    ("The dynamo-based ONNX exporter", "onnxscript 0.6 or newer", "bash"),
)
HEADERS = (
    ("ATen/core/dispatch/Dispatcher.h", "torch/types.h"),
    ("torch/extension.h", "ATen/cuda/CUDAContext.h"),
    ("c10/core/TensorImpl.h", "c10/util/Optional.h"),
)
STATUS_WEIGHTS = {"api-unstable": 5, "prototype": 2, "beta": 2, "stable": 1}

TOPICS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("control-flow", "Control-flow operators (cond, while_loop, scan, map)", ("compiler", "export")),
    ("stable-abi", "Stable libtorch ABI for C++/CUDA extensions", ("cpp", "build")),
    ("flexattention", "FlexAttention backends", ("nn",)),
    ("wheel-variants", "Wheel variants", ("packaging",)),
    ("symmetric-memory", "Symmetric memory", ("distributed",)),
    ("graph-capture", "Graph capture (CUDA graphs, XPU graphs, torch.accelerator.Graph)", ("cuda", "xpu")),
    ("aot-compile", "Ahead-of-time compile through Dynamo", ("compiler", "export")),
    ("mps-backend", "Apple GPU (MPS) backend", ("mps",)),
    ("inductor-backends", "Inductor code-generation backends", ("compiler", "rocm", "cpu")),
    ("python-versions", "New Python versions", ("python",)),
    ("varlen-attention", "Variable-length attention (varlen_attn)", ("nn",)),
    ("fp8-training", "FP8 and MX training", ("quantization", "cuda")),
)
TOPIC_CHANCE = {"highlight": 0.45, "feature": 0.3}

# Oldest GPU generation first: the newest CUDA build drops one now and then.
GPU_GENERATIONS = (
    ("Maxwell", "sm50"),
    ("Pascal", "sm60"),
    ("Volta", "sm70"),
    ("Turing", "sm75"),
    ("Ampere", "sm80"),
    ("Ada Lovelace", "sm89"),
    ("Hopper", "sm90"),
)
FIRST_SUPPORTED_GPU = 3
LAST_DROPPABLE_GPU = 5

# --- templates (str.format against an item's context; `{{`/`}}` are literal braces) ------------


@dataclass(frozen=True)
class Prose:
    title: str
    summary: str
    action: str | None = None
    areas: tuple[str, ...] = ()  # empty: fits any area


# Areas whose APIs do work on a device, so a speed-up or a device port reads naturally.
COMPUTE_AREAS = ("cuda", "cpu", "linalg", "nn", "optim", "rocm", "mps", "xpu", "tensor", "quantization", "autograd")

HIGHLIGHTS = (
    Prose(
        "`{api}` up to {factor}x faster on {device}",
        "The code behind {subject} was reworked so that {benefit}. "
        "The speed-up is largest for many small or medium inputs.",
        areas=COMPUTE_AREAS,
    ),
    Prose("{Capability} in {subject}", "Support for {capability} reaches {subject}, so {benefit}."),
    Prose(
        "Device-agnostic `{api}`",
        "One front end over CUDA, ROCm, Intel GPUs and out-of-tree backends, so {benefit}. "
        "Existing device-specific calls keep working.",
        areas=("cuda", "xpu", "mps", "profiler"),
    ),
    Prose(
        "{Subject} on {device}",
        "A first version of {subject} for {device}. It works in eager mode and under `torch.compile`; {limit}.",
        areas=(*COMPUTE_AREAS, "distributed", "export", "compiler"),
    ),
)
FEATURES = (
    Prose(
        "`{api}` accepts {capability}",
        "Support for {capability} was added to `{api}`; earlier releases fell back to a slower path or raised.",
    ),
    Prose(
        "`{kw}` argument for `{api}`",
        "`{api}` takes `{kw}`, which defaults to `{old}` and keeps the previous behaviour.",
    ),
    Prose(
        "{Subject} on {device}",
        "Support for {subject} extends to {device}, with the same results as on CUDA.",
        areas=(*COMPUTE_AREAS, "distributed", "export", "compiler"),
    ),
    Prose(
        "New `{api2}` entry point",
        "A public API for {subject}, so {benefit}. It replaces a private helper that projects copied.",
    ),
)
IMPROVEMENTS = (
    Prose(
        "Faster `{api}` on {device}",
        "`{api}` avoids a host-device synchronization, which helps {workload}.",
        areas=COMPUTE_AREAS,
    ),
    Prose(
        "Clearer error messages from `{api}`",
        "Errors now name the argument at fault and the value it received, for example with {condition}.",
    ),
)
REGRESSIONS = (
    Prose(
        "`{api}` slower on {device} than in {prev}",
        "A change to {subject} made `{api}` noticeably slower for {workload} (tracked as issue #{issue}).",
        "Stay on the previous release for this workload until a patch release fixes it.",
        areas=COMPUTE_AREAS,
    ),
    Prose(
        "{Subject} crashes with {condition}",
        "The first call through {subject} with {condition} aborts the process on {device} (tracked as issue #{issue}).",
    ),
)


@dataclass(frozen=True)
class Breaking:
    title: str
    summary: str
    effect: str
    action: str
    code_lang: str
    before: str
    after: str
    areas: tuple[str, ...] = ()  # empty: fits any area


BREAKING = (
    Breaking(
        "`{api}` raises `{error}` for {condition}",
        "Calling `{api}` with {condition} used to return a wrong result silently; "
        "it now raises `{error}` with a message that names the argument.",
        "error",
        "Check the inputs before the call, or catch `{error}` where the old result was acceptable.",
        "python",
        "try:\n    out = {api}(x)\nexcept RuntimeError:\n    out = fallback(x)\n",
        "try:\n    out = {api}(x)\nexcept {error}:\n    out = fallback(x)\n",
    ),
    Breaking(
        "`{api}` defaults to `{kw}={new}`",
        "The default of `{kw}` changed from `{old}` to `{new}`, which can change results or captured graphs "
        "without any error.",
        "silent",
        "Pass `{kw}={old}` to keep the behaviour of {prev}.",
        "python",
        "model = build_model()\nresult = {api}(model, inputs)  # {kw}={old} by default\n",
        "model = build_model()\nresult = {api}(model, inputs, {kw}={old})  # keep the old default\n",
    ),
    Breaking(
        "`{api}` moved to `{moved}`",
        "The old location is gone without a deprecation period, so imports and attribute lookups of `{api}` fail.",
        "error",
        "Replace `{api}` with `{moved}`.",
        "python",
        "import torch\n\nvalue = {api}(x)\n",
        "import torch\n\nvalue = {moved}(x)\n",
    ),
    Breaking(
        "{requirer} needs {requirement}",
        "The minimum is now {requirement}; older versions stop with an error instead of failing later.",
        "packaging",
        "Upgrade to {requirement} before moving to {version}.",
        "{requirement_lang}",
        "{requirement_before}",
        "{requirement_after}",
        ("build", "packaging", "onnx", "python"),
    ),
    Breaking(
        "`{header}` no longer includes `{header2}`",
        "C++ code that got `{header2}` indirectly through `{header}` stops compiling.",
        "error",
        "Include `{header2}` (or the header you actually use) explicitly.",
        "cpp",
        "#include <{header}>\n\nvoid run(const at::Tensor& x);\n",
        "#include <{header}>\n#include <{header2}>\n\nvoid run(const at::Tensor& x);\n",
        ("cpp",),
    ),
    Breaking(
        "`{flag_attr}` is opt-in again",
        "The behaviour that {prev} turned on by default is off again, which can change performance "
        "for models that relied on it.",
        "performance",
        "Set `{flag_module}.{flag_attr} = True` to keep the behaviour of {prev}.",
        "python",
        "# {prev}: on by default, nothing to set\nmodel = torch.compile(model)\n",
        "import {flag_module} as cfg\n\ncfg.{flag_attr} = True\nmodel = torch.compile(model)\n",
        ("compiler", "export"),
    ),
    Breaking(
        "Arguments of `{api}` after the input are keyword-only",
        "Positional calls beyond the first argument now raise `TypeError`, so a later signature change "
        "cannot silently swap arguments.",
        "error",
        "Name every argument after the input, for example `{kw}=...`.",
        "python",
        "out = {api}(x, {old}, 1)\n",
        "out = {api}(x, {kw}={old}, dim=1)\n",
    ),
)
REQUIREMENT_CODE = {
    "cmake": (
        "cmake_minimum_required(VERSION 3.18)\nfind_package(Torch REQUIRED)\n",
        "cmake_minimum_required(VERSION 3.27)\nfind_package(Torch REQUIRED)\n",
    ),
    "bash": ("pip install torch=={prev_pin}\n", "pip install --upgrade {package}\npip install torch=={version}.0\n"),
}
REQUIREMENT_PACKAGES = {"GCC": "gcc", "glibc": "glibc", "onnxscript": "onnxscript"}


@dataclass(frozen=True)
class Deprecation:
    title: str
    summary: str
    thing: str  # what a later removal names
    error: str  # what using it raises once it is gone
    before: str
    after: str
    replaceable: bool  # whether another API can be named as the replacement
    areas: tuple[str, ...] = ()


DEPRECATIONS = (
    Deprecation(
        "`{api}` deprecated",
        "`{api}` warns on first use with a `FutureWarning`.",
        "`{api}`",
        "AttributeError",
        "out = {api}(x)\n",
        "out = {api2}(x)\n",
        replaceable=True,
    ),
    Deprecation(
        "The `{kw}` argument of `{api}` is deprecated",
        "Passing `{kw}` explicitly warns; a later release will reject it.",
        "the `{kw}` argument of `{api}`",
        "TypeError",
        "out = {api}(x, {kw}={old})\n",
        "out = {api}(x)\n",
        replaceable=False,
    ),
    Deprecation(
        "`{flag_module}.{flag_attr}` deprecated",
        "The config option no longer changes anything beyond a warning, because {benefit}.",
        "`{flag_module}.{flag_attr}`",
        "AttributeError",
        "import {flag_module} as cfg\n\ncfg.{flag_attr} = True\n",
        "# the option has no effect any more: delete the line\n",
        replaceable=False,
        areas=("compiler", "export"),
    ),
)
REMOVALS = (
    (
        "`{api}` removed",
        "`{api}` is gone without a deprecation period; it was undocumented, but downstream projects called it.",
        "Remove the remaining uses of `{api}`.",
    ),
    (
        "{Subject} helpers removed",
        "Helpers around {subject} that only the old code path used are gone; calls raise `AttributeError`.",
        "Drop the calls; the supported APIs cover the same cases.",
    ),
)


# --- release plan -------------------------------------------------------------------------------


@dataclass
class Lifecycle:
    """A deprecation (or the breaking step after it) that a later item may complete."""

    item_id: str
    release: str  # of item_id: only later releases may follow it
    deprecated_in: str
    thing: str
    area: str
    error: str
    replacement: str | None
    planned: str | None
    code: tuple[str, str] | None


@dataclass(frozen=True)
class Plan:
    """Everything about release k that other releases or the registries need to know."""

    index: int
    version: str
    date: dt.date
    has_blog: bool
    has_ai_article: bool
    gpu_first: int
    drops_gpu: bool

    @property
    def slug(self) -> str:
        return f"{MAJOR}-{self.index}"

    @property
    def notes(self) -> str:
        return f"notes-{self.slug}"

    @property
    def blog(self) -> str:
        return f"blog-{self.slug}"

    @property
    def article(self) -> str:
        return f"article-{self.slug}"

    @property
    def ai_article(self) -> str:
        return f"ai-news-{self.slug}"

    @property
    def release_sources(self) -> list[str]:
        return [self.notes, self.blog] if self.has_blog else [self.notes]


def cuda_series(step: int) -> str:
    return f"{13 + step // 5}.{(step % 5) * 2}"


def cuda_build(step: int, capabilities: list[str], ptx: list[str] | None = None) -> Doc:
    build: Doc = {
        "version": cuda_series(step),
        "cudnn": f"9.{20 + step}.0.{30 + 3 * step}",
        "nccl": f"2.{29 + step}.{3 + step % 5}",
        "compute_capabilities": capabilities,
    }
    if ptx is not None:
        build["ptx"] = ptx
    return build


def rocm_version(index: int, releases_back: int = 0) -> str:
    """ROCm moves one minor version every third release; `releases_back` steps to earlier ones."""
    minor = 2 + index // 3 - releases_back
    return f"{7 + minor // 10}.{minor % 10}"


def python_range(index: int) -> tuple[int, int]:
    return 10 + index // 8, 14 + (index + 3) // 6


def mps_min(index: int) -> str:
    return str(14 + index // 10)


def plan_releases(rng: random.Random, count: int) -> list[Plan]:
    plans = []
    gpu_first = FIRST_SUPPORTED_GPU
    for index in range(count):
        jitter = rng.randint(-5, 5) if index else 0
        drops_gpu = index % 8 == 1 and gpu_first <= LAST_DROPPABLE_GPU
        plans.append(
            Plan(
                index=index,
                version=f"{MAJOR}.{index}",
                date=FIRST_RELEASE + dt.timedelta(days=CADENCE_DAYS * index + jitter),
                has_blog=rng.random() < 0.8,
                has_ai_article=rng.random() < 0.35,
                gpu_first=gpu_first,
                drops_gpu=drops_gpu,
            )
        )
        gpu_first += drops_gpu
    return plans


def previous_label(plan: Plan) -> str:
    return f"{MAJOR}.{plan.index - 1}" if plan.index else "the previous release"


# --- registries ---------------------------------------------------------------------------------


SHARED_SOURCES = (
    (
        "release-matrix",
        "RELEASE.md release compatibility matrix",
        "https://github.com/pytorch/pytorch/blob/main/RELEASE.md",
        "PyTorch",
        "mirror",
    ),
    (
        "previous-versions",
        "Previous PyTorch versions and published_versions.json",
        "https://pytorch.org/get-started/previous-versions/",
        "PyTorch",
        "mirror",
    ),
    (
        "kr-compat-table",
        "PyTorch version compatibility (pytorch.kr)",
        "https://pytorch.kr/get-started/compatibility/",
        "PyTorch Korea User Group",
        "community",
    ),
    (
        "torchvision-readme",
        "torchvision README compatibility table",
        "https://github.com/pytorch/vision#installation",
        "PyTorch (torchvision)",
        "mirror",
    ),
    (
        "torchaudio-docs",
        "TorchAudio documentation and release notes",
        "https://docs.pytorch.org/audio/stable/index.html",
        "PyTorch (torchaudio)",
        "official-notes",
    ),
    (
        "nvidia-cuda-compatibility",
        "CUDA C++ Programming Guide, Binary Compatibility and PTX Compatibility",
        "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility",
        "NVIDIA",
        "upstream",
    ),
    (
        "nvidia-cuda-gpus",
        "CUDA GPU Compute Capability",
        "https://developer.nvidia.com/cuda-gpus",
        "NVIDIA",
        "upstream",
    ),
    (
        "pypi-index",
        "PyPI's file lists of torch and its companions",
        "https://pypi.org/simple/torch/",
        "Python Package Index",
        "upstream",
    ),
    (
        "torchao-compat-table",
        "torchao binary compatibility table (torchao/__init__.py)",
        "https://github.com/pytorch/ao/blob/main/torchao/__init__.py",
        "PyTorch (torchao)",
        "official-notes",
    ),
)


def sources_doc(plans: list[Plan]) -> Doc:
    entries = [source(*row) for row in SHARED_SOURCES]
    for plan in plans:
        entries += release_sources(plan)
    reviewed = (plans[-1].date + dt.timedelta(days=14)).isoformat()
    return {"reviewed": reviewed, "sources": entries}


def release_sources(plan: Plan) -> list[Doc]:
    """Notes for every release, a blog for most, a secondary article, sometimes an AI-written one."""
    date = plan.date.isoformat()
    article_date = (plan.date + dt.timedelta(days=1)).isoformat()
    notes_url = f"https://github.com/pytorch/pytorch/releases/tag/v{plan.version}.0"
    entries = [
        source(
            plan.notes,
            f"PyTorch {plan.version}.0 release notes",
            notes_url,
            "PyTorch (GitHub releases)",
            "official-notes",
            date,
        ),
        source(
            plan.article,
            f"PyTorch {plan.version} release article",
            f"https://example-news.dev/pytorch-{plan.slug}",
            "example-news.dev",
            "secondary",
            article_date,
        ),
    ]
    if plan.has_blog:
        entries.append(
            source(
                plan.blog,
                f"PyTorch {plan.version} Release Blog",
                blog_url(plan),
                "PyTorch Foundation",
                "official-blog",
                date,
            )
        )
    if plan.has_ai_article:
        entries.append(
            source(
                plan.ai_article,
                f"PyTorch {plan.version}: what is new",
                f"https://ai-digest.example/pytorch-{plan.slug}",
                "ai-digest.example",
                "ai-generated",
                article_date,
                "Marked by its publisher as generated by artificial intelligence.",
            )
        )
    return entries


def blog_url(plan: Plan) -> str:
    return f"https://pytorch.org/blog/pytorch-{plan.slug}/"


def source(
    ident: str, title: str, url: str, publisher: str, tier: str, date: str | None = None, note: str | None = None
) -> Doc:
    entry: Doc = {"id": ident, "title": title, "url": url, "publisher": publisher, "tier": tier}
    if date:
        entry["date"] = date
    if note:
        entry["note"] = note
    return entry


def topics_doc() -> Doc:
    return {"topics": [{"id": ident, "title": title} for ident, title, _ in TOPICS]}


# --- items --------------------------------------------------------------------------------------


def kind_counts(items: int) -> dict[str, int]:
    """Split `items` over the kinds in the real proportions (largest remainder, so they sum up)."""
    total = sum(KIND_WEIGHTS.values())
    shares = {kind: items * weight / total for kind, weight in KIND_WEIGHTS.items()}
    counts = {kind: int(share) for kind, share in shares.items()}
    by_remainder = sorted(shares, key=lambda kind: shares[kind] - counts[kind], reverse=True)
    for kind in by_remainder[: items - sum(counts.values())]:
        counts[kind] += 1
    return counts


def weighted(rng: random.Random, weights: dict[str, int]) -> str:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def moved_name(api: str, rng: random.Random) -> str:
    separator = "::" if "::" in api else "."
    parent, _, name = api.rpartition(separator)
    place = rng.choice(("api", "utils", "experimental"))
    return f"{parent or 'torch'}{separator}{place}{separator}{name}"


@dataclass
class ReleaseState:
    """What one release's generation shares across its items."""

    plan: Plan
    next_plan: Plan | None
    used_ids: set[str]
    open_lifecycles: list[Lifecycle]
    items: list[Doc] = field(default_factory=list)


def item_context(rng: random.Random, state: ReleaseState, area: str) -> dict[str, str]:
    words = AREAS[area]
    api, api2 = rng.sample(words.apis, 2)
    subject = rng.choice(words.subjects)
    kw, old, new = rng.choice(KWARGS)
    capability = rng.choice(CAPABILITIES)
    flag_module, flag_attr = rng.choice(CONFIG_FLAGS)
    header, header2 = rng.choice(HEADERS)
    requirer, requirement, requirement_lang = rng.choice(REQUIREMENTS)
    plan = state.plan
    package = REQUIREMENT_PACKAGES.get(requirement.split()[0], "pip")
    requirement_before, requirement_after = REQUIREMENT_CODE[requirement_lang]
    return {
        "api": api,
        "api2": api2,
        "moved": moved_name(api, rng),
        "subject": subject,
        "Subject": capitalized(subject),
        "device": rng.choice(words.devices),
        "capability": capability,
        "Capability": capitalized(capability),
        "benefit": rng.choice(BENEFITS),
        "workload": rng.choice(WORKLOADS),
        "limit": rng.choice(LIMITS),
        "error": rng.choice(ERRORS),
        "condition": rng.choice(CONDITIONS),
        "factor": str(rng.choice((2, 3, 5, 10, 20, 100))),
        "kw": kw,
        "old": old,
        "new": new,
        "flag_module": flag_module,
        "flag_attr": flag_attr,
        "header": header,
        "header2": header2,
        "requirer": requirer,
        "requirement": requirement,
        "requirement_lang": requirement_lang,
        "requirement_before": requirement_before.format(prev_pin=f"{MAJOR}.{max(plan.index - 1, 0)}.0"),
        "requirement_after": requirement_after.format(package=package, version=plan.version),
        "version": plan.version,
        "prev": previous_label(plan),
        "issue": str(rng.randint(150000, 199999)),
    }


FILLER_WORDS = frozenset({"torch", "the", "a", "an", "of", "for", "to", "is", "are", "and", "in", "on", "with", "now"})


def new_id(title: str, state: ReleaseState) -> str:
    """A short slug from the title; the release and a counter keep it unique across all files."""
    short = re.sub(r"`[\w.:]*?(\w+)`", r"\1", title).replace("'", "")  # `torch.nn.functional.pad` -> pad
    words = [word for word in re.sub(r"[^a-z0-9]+", " ", short.lower()).split() if word not in FILLER_WORDS]
    kept: list[str] = []
    for word in words[:7]:
        if len("-".join([*kept, word])) > 60:
            break
        kept.append(word)
    base = "-".join(kept) or "item"
    candidate, counter = base, 1
    while candidate in state.used_ids:
        counter += 1
        candidate = f"{base}-{state.plan.slug}" if counter == 2 else f"{base}-{state.plan.slug}-{counter - 1}"
    state.used_ids.add(candidate)
    return candidate


def pr_numbers(rng: random.Random, plan: Plan) -> list[int]:
    newest = 150000 + plan.index * 5200
    return [rng.randint(newest - 9000, newest) for _ in range(rng.choices((1, 2, 3), weights=(6, 3, 1))[0])]


PR_CHANCE = {
    "highlight": 0.4,
    "feature": 0.95,
    "improvement": 0.8,
    "breaking": 1.0,
    "deprecation": 0.95,
    "removal": 1.0,
    "platform": 0.65,
    "regression": 0.67,
}


def item_sources(rng: random.Random, state: ReleaseState, kind: str) -> list[str]:
    plan = state.plan
    cited = [plan.notes]
    if kind == "highlight" and plan.has_blog:
        cited.append(plan.blog)
    if kind == "platform":
        cited.append(rng.choice(("release-matrix", "previous-versions")))
    if state.next_plan is not None and rng.random() < 0.05:
        cited.append(state.next_plan.notes)
    return cited


def topic_for(rng: random.Random, kind: str, area: str) -> str | None:
    matching = [ident for ident, _, areas in TOPICS if area in areas]
    if matching and rng.random() < TOPIC_CHANCE.get(kind, 0.05):
        return rng.choice(matching)
    return None


def make_item(
    rng: random.Random,
    state: ReleaseState,
    kind: str,
    area: str,
    fields: Doc,
) -> Doc:
    """Assemble an item with the keys in the order the real files use."""
    item: Doc = {"id": new_id(fields["title"], state)}
    topic = fields.pop("topic", None) or topic_for(rng, kind, area)
    if topic:
        item["topic"] = topic
    item |= {"kind": kind, "area": area}
    if "status" in fields:
        item["status"] = fields.pop("status")
    item |= {key: fields[key] for key in ("title", "summary") if key in fields}
    for key in ("effect", "action", "replacement", "planned_removal", "code_lang", "before", "after"):
        if fields.get(key) is not None:
            item[key] = fields[key]
    if rng.random() < PR_CHANCE[kind]:
        item["prs"] = pr_numbers(rng, state.plan)
    if fields.get("follows"):
        item["follows"] = fields["follows"]
    item["sources"] = fields.get("sources") or item_sources(rng, state, kind)
    state.items.append(item)
    return item


def random_area(rng: random.Random) -> str:
    return weighted(rng, AREA_WEIGHTS)


def fitting(templates: tuple[Any, ...], area: str) -> list[Any]:
    """Templates meant for `area`, plus those that fit any area."""
    return [template for template in templates if not template.areas or area in template.areas]


def prose_fields(rng: random.Random, state: ReleaseState, area: str, templates: tuple[Prose, ...]) -> Doc:
    context = item_context(rng, state, area)
    template: Prose = rng.choice(fitting(templates, area))
    fields: Doc = {"title": template.title.format(**context), "summary": template.summary.format(**context)}
    if template.action:
        fields["action"] = template.action
    return fields


def add_highlight(rng: random.Random, state: ReleaseState) -> None:
    area = random_area(rng)
    fields = prose_fields(rng, state, area, HIGHLIGHTS)
    if rng.random() < 0.4:
        fields["status"] = weighted(rng, STATUS_WEIGHTS)
    make_item(rng, state, "highlight", area, fields)


def add_feature(rng: random.Random, state: ReleaseState) -> None:
    area = random_area(rng)
    fields = prose_fields(rng, state, area, FEATURES)
    if rng.random() < 0.05:
        fields["status"] = "prototype"
    make_item(rng, state, "feature", area, fields)


def add_improvement(rng: random.Random, state: ReleaseState) -> None:
    area = random_area(rng)
    make_item(rng, state, "improvement", area, prose_fields(rng, state, area, IMPROVEMENTS))


def add_regression(rng: random.Random, state: ReleaseState) -> None:
    area = random_area(rng)
    make_item(rng, state, "regression", area, prose_fields(rng, state, area, REGRESSIONS))


def add_breaking(rng: random.Random, state: ReleaseState, with_code: bool) -> None:
    followed = take_lifecycle(rng, state, chance=0.12, take_due=False)
    if followed is not None:
        add_breaking_step(rng, state, followed, with_code)
        return
    area = random_area(rng)
    template = rng.choice(fitting(BREAKING, area))
    context = item_context(rng, state, area)
    fields: Doc = {
        "title": template.title.format(**context),
        "summary": template.summary.format(**context),
        "effect": template.effect,
        "action": template.action.format(**context),
    }
    if with_code:
        fields |= {
            "code_lang": template.code_lang.format(**context),
            "before": template.before.format(**context),
            "after": template.after.format(**context),
        }
    make_item(rng, state, "breaking", area, fields)


def add_breaking_step(rng: random.Random, state: ReleaseState, followed: Lifecycle, with_code: bool) -> None:
    """The warning of an earlier deprecation becomes an error; a later release may remove it."""
    fields: Doc = {
        "title": f"{capitalized(followed.thing)} now raises an error",
        "summary": (
            f"The deprecation warning from {followed.deprecated_in} becomes an error: using {followed.thing} "
            f"raises `{followed.error}`. The notes keep it importable for one more release."
        ),
        "effect": "error",
        "action": f"Switch to {followed.replacement}." if followed.replacement else f"Stop using {followed.thing}.",
        "follows": followed.item_id,
    }
    if with_code and followed.code:
        fields |= {"code_lang": "python", "before": followed.code[0], "after": followed.code[1]}
    item = make_item(rng, state, "breaking", followed.area, fields)
    step = Lifecycle(**{**vars(followed), "item_id": item["id"], "release": state.plan.version})
    state.open_lifecycles.append(step)


def add_deprecation(rng: random.Random, state: ReleaseState) -> None:
    area = random_area(rng)
    context = item_context(rng, state, area)
    template: Deprecation = rng.choice(fitting(DEPRECATIONS, area))
    thing = template.thing.format(**context)
    replacement = f"`{context['api2']}`" if template.replaceable and rng.random() < 0.45 else None
    planned = f"{MAJOR}.{state.plan.index + rng.randint(1, 3)}" if rng.random() < 0.3 else None
    code = None
    if replacement or not template.replaceable:
        code = (template.before.format(**context), template.after.format(**context))
    sentences = [template.summary.format(**context)]
    if planned:
        sentences.append(f"The notes announce its removal in {planned}.")
    action = f"Switch to {replacement}." if replacement else f"Stop using {thing} before it is removed."
    fields: Doc = {
        "title": template.title.format(**context),
        "summary": " ".join(sentences),
        "effect": "warning" if rng.random() < 0.95 else "silent",
        "action": action,
        "replacement": replacement,
        "planned_removal": planned,
    }
    if code and rng.random() < 0.3:
        fields |= {"code_lang": "python", "before": code[0], "after": code[1]}
    item = make_item(rng, state, "deprecation", area, fields)
    version = state.plan.version
    state.open_lifecycles.append(
        Lifecycle(item["id"], version, version, thing, area, template.error, replacement, planned, code)
    )


def take_lifecycle(rng: random.Random, state: ReleaseState, chance: float, take_due: bool) -> Lifecycle | None:
    """An open lifecycle from an earlier release. Those whose removal was announced for this
    release are kept for removals (`take_due`), which take them first."""
    version = state.plan.version
    earlier = [life for life in state.open_lifecycles if life.release != version]
    due = [life for life in earlier if life.planned == version]
    if take_due and due:
        chosen = due[0]
    elif (pool := earlier if take_due else [life for life in earlier if life not in due]) and rng.random() < chance:
        chosen = rng.choice(pool)
    else:
        return None
    state.open_lifecycles.remove(chosen)
    return chosen


def add_removal(rng: random.Random, state: ReleaseState, first: bool) -> None:
    # The first removal of a release always completes a lifecycle when one is open, so every
    # dataset with two releases or more has a deprecation -> removal chain.
    followed = take_lifecycle(rng, state, chance=1.0 if first else 0.5, take_due=True)
    if followed is not None:
        add_completing_removal(rng, state, followed)
        return
    area = random_area(rng)
    context = item_context(rng, state, area)
    title, summary, action = rng.choice(REMOVALS)
    fields: Doc = {
        "title": title.format(**context),
        "summary": summary.format(**context),
        "effect": "error" if rng.random() < 0.88 else "packaging",
        "action": action.format(**context),
    }
    if rng.random() < 0.45:
        fields |= {"code_lang": "python", "before": f"{context['api']}(x)\n", "after": "# no longer needed\n"}
    make_item(rng, state, "removal", area, fields)


def add_completing_removal(rng: random.Random, state: ReleaseState, followed: Lifecycle) -> None:
    planned = f", as announced for {followed.planned}" if followed.planned == state.plan.version else ""
    fields: Doc = {
        "title": f"{capitalized(followed.thing)} removed",
        "summary": (
            f"Deprecated in {followed.deprecated_in}, {followed.thing} is gone{planned}; "
            f"code that still uses it fails with `{followed.error}`."
        ),
        "effect": "error",
        "action": f"Use {followed.replacement} instead."
        if followed.replacement
        else f"Remove uses of {followed.thing}.",
        "replacement": followed.replacement,
        "follows": followed.item_id,
    }
    if followed.code and rng.random() < 0.6:
        fields |= {"code_lang": "python", "before": followed.code[0], "after": followed.code[1]}
    make_item(rng, state, "removal", followed.area, fields)


def platform_change(area: str, title: str, summary: str, action: str | None = None, topic: str | None = None) -> Doc:
    fields: Doc = {"area": area, "title": title, "summary": summary, "effect": "packaging"}
    if action:
        fields["action"] = action
    if topic:
        fields["topic"] = topic
    return fields


def platform_templates(plan: Plan) -> list[Doc]:
    """Fields of the platform items this release can have: what changed first, then routine news."""
    return platform_changes(plan) + routine_platform_news(plan)


def platform_changes(plan: Plan) -> list[Doc]:
    index, prev, step = plan.index, previous_label(plan), plan.index // 3
    default, experimental = cuda_series(step + 2), cuda_series(step + 3)
    python_min, python_max = python_range(index)
    changes: list[Doc] = []
    if index % 3 == 0:
        summary = f"CUDA {experimental} joins the build matrix as an experimental variant; `pip install torch` "
        changes.append(
            platform_change("cuda", f"CUDA {experimental} wheels (experimental)", summary + f"gets CUDA {default}.")
        )
    if index and index % 3 == 0:
        dropped, oldest = cuda_series(step - 1), cuda_series(step)
        changes.append(
            platform_change(
                "cuda",
                f"No CUDA {dropped} wheels",
                f"CUDA {dropped} was a stable build of {prev}; {plan.version} ships CUDA {oldest} and {default} only.",
                f"Move installs that use the `{wheel_tag(dropped)}` index to `{wheel_tag(default)}`.",
            )
        )
        rocm, previous_rocm = rocm_version(index), rocm_version(index, releases_back=1)
        changes.append(
            platform_change(
                "rocm",
                f"ROCm wheels move to ROCm {rocm}",
                f"The ROCm wheels are built for ROCm {rocm} ({prev} used {previous_rocm}).",
                f"Use the `rocm{rocm}` index URL.",
            )
        )
    if index == 0 or python_range(index - 1)[1] != python_max:
        summary = f"Wheels for Python 3.{python_max} are published for Linux, macOS and Windows; the free-threaded "
        changes.append(
            platform_change(
                "python",
                f"Python 3.{python_max} wheels",
                summary + f"3.{python_max}t build is experimental.",
                topic="python-versions",
            )
        )
    if index and python_range(index - 1)[0] != python_min:
        changes.append(
            platform_change(
                "python",
                f"Python 3.{python_min - 1} no longer supported",
                f"The oldest supported Python is now 3.{python_min}; no cp3{python_min - 1} wheels are built.",
                f"Upgrade to Python 3.{python_min} or newer before moving to {plan.version}.",
            )
        )
    if index and index % 10 == 0:
        macos = mps_min(index)
        changes.append(
            platform_change(
                "mps",
                f"macOS wheels target macOS {macos}.0",
                f"`MACOSX_DEPLOYMENT_TARGET` is now {macos}.0, and MPS needs macOS {macos}.",
                f"Run on macOS {macos} or newer.",
            )
        )
    return changes


def routine_platform_news(plan: Plan) -> list[Doc]:
    step = plan.index // 3
    default = cuda_series(step + 2)
    default_build = cuda_build(step + 2, ["8.0"])
    return [
        platform_change(
            "cuda",
            f"cuDNN {default_build['cudnn']} in the CUDA {default} wheels",
            "The wheels depend on a newer cuDNN, which fixes slow convolutions with channels-last inputs.",
        ),
        platform_change(
            "distributed",
            f"NCCL {default_build['nccl']} in the CUDA wheels",
            "The bundled NCCL moves to a release that fixes hangs in `all_to_all` on large clusters.",
        ),
        platform_change(
            "packaging",
            f"Linux aarch64 wheels with CUDA {default}",
            "The Arm server wheels now come with CUDA, built for Grace Hopper and Grace Blackwell systems.",
        ),
        platform_change(
            "xpu",
            "Intel GPU wheels for more Windows machines",
            "XPU wheels are published for Windows on more GPU generations, from the same index as on Linux.",
        ),
        platform_change(
            "packaging",
            "Smaller CUDA wheels",
            "Kernels for rarely used dtypes are compressed, which cuts the CUDA wheel size noticeably.",
        ),
        platform_change(
            "rocm",
            f"ROCm {rocm_version(plan.index)} wheels cover Radeon GPUs",
            "Consumer Radeon GPUs are in the ROCm wheels' architecture list.",
        ),
        platform_change(
            "mps",
            "Metal shaders compiled ahead of time",
            "The macOS wheels ship precompiled Metal libraries, so the first MPS call no longer compiles shaders.",
        ),
    ]


def wheel_tag(cuda: str) -> str:
    return "cu" + cuda.replace(".", "")


def add_platform_items(rng: random.Random, state: ReleaseState, count: int) -> None:
    templates = platform_templates(state.plan)
    for position in range(count):
        fields = dict(templates[position % len(templates)])
        make_item(rng, state, "platform", fields.pop("area"), fields)


def add_gpu_drop(rng: random.Random, state: ReleaseState) -> Doc:
    """The breaking item behind `platform.architectures_dropped`."""
    name, sm = GPU_GENERATIONS[state.plan.gpu_first]
    new_cuda = cuda_series(state.plan.index // 3 + 2)
    old_cuda = cuda_series(state.plan.index // 3)
    new_tag, old_tag = wheel_tag(new_cuda), wheel_tag(old_cuda)
    fields: Doc = {
        "title": f"CUDA {new_cuda} wheels no longer run on {name} GPUs",
        "summary": f"To keep binary size in check, {sm} was removed from the `{new_tag}` builds. "
        f"The `{old_tag}` wheels still include it.",
        "effect": "error",
        "action": f"On {name} GPUs, install the `{old_tag}` wheels.",
        "code_lang": "bash",
        "before": "pip install torch\n",
        "after": f"pip install torch --index-url https://download.pytorch.org/whl/{old_tag}\n",
    }
    item = make_item(rng, state, "breaking", "cuda", fields)
    return {
        "architectures": f"{name} ({sm})",
        "wheels": [new_tag],
        "instead": f"The `{old_tag}` wheels, which still include {name}.",
        "item": item["id"],
        "sources": [state.plan.notes],
    }


def generate_items(rng: random.Random, state: ReleaseState, items: int) -> list[Doc]:
    """All items of one release, grouped by kind like the real files; returns the GPU drops."""
    counts = kind_counts(items)
    drops = []
    for _ in range(counts["highlight"]):
        add_highlight(rng, state)
    breaking = counts["breaking"]
    if state.plan.drops_gpu and breaking:
        drops.append(add_gpu_drop(rng, state))
        breaking -= 1
    for position in range(breaking):
        # Every third breaking change carries before/after code, as about a third do in the real data.
        add_breaking(rng, state, with_code=position % 3 == 0)
    for _ in range(counts["deprecation"]):
        add_deprecation(rng, state)
    for position in range(counts["removal"]):
        add_removal(rng, state, first=position == 0)
    add_platform_items(rng, state, counts["platform"])
    for _ in range(counts["feature"]):
        add_feature(rng, state)
    for _ in range(counts["improvement"]):
        add_improvement(rng, state)
    for _ in range(counts["regression"]):
        add_regression(rng, state)
    return drops


# --- release blocks -----------------------------------------------------------------------------


def platform_block(rng: random.Random, plan: Plan, drops: list[Doc]) -> Doc:
    index, step = plan.index, plan.index // 3
    python_min, python_max = python_range(index)
    new_python = index == 0 or python_range(index - 1)[1] != python_max
    oldest = ["5.0", "6.0", "7.0", "7.5", "8.0", "8.6", "9.0"]
    _, sm = GPU_GENERATIONS[plan.gpu_first + plan.drops_gpu]
    first = f"{sm[2]}.{sm[3]}"
    newest = [
        cc
        for cc in [*oldest, "8.9", "10.0", "12.0"]
        if tuple(map(int, cc.split("."))) >= tuple(map(int, first.split(".")))
    ]
    newest = sorted(set(newest), key=lambda cc: tuple(map(int, cc.split("."))))
    block: Doc = {
        "python": {
            "min": f"3.{python_min}",
            "max": f"3.{python_max}",
            "free_threaded": [f"3.{python_max - 1}t", f"3.{python_max}t"],
            "experimental": [f"3.{python_max}", f"3.{python_max}t"] if new_python else [f"3.{python_max}t"],
            "sources": ["release-matrix", plan.notes],
        },
        "cuda": {
            # Fresh lists each: YAML would write a shared list as an anchor and alias.
            "stable": [cuda_build(step, list(oldest), []), cuda_build(step + 2, list(newest), ["12.0"])],
            "experimental": [cuda_build(step + 3, list(newest), ["12.0"])],
            "default_wheel": cuda_series(step + 2),
            "sources": ["release-matrix", plan.notes, "previous-versions"],
        },
        "rocm": {"stable": [rocm_version(index)], "sources": ["release-matrix", "previous-versions"]},
        "xpu": xpu_block(rng, plan),
        "macos": {"mps_min": mps_min(index), "sources": [plan.notes]},
        "cpp": cpp_block(plan),
    }
    if new_python:
        block["python"]["note"] = (
            f"The 3.{python_max} wheels are a preview; the PyPI classifiers stop at 3.{python_max - 1}."
        )
    if drops:
        block["architectures_dropped"] = drops
    return block


def xpu_block(rng: random.Random, plan: Plan) -> Doc:
    if rng.random() < 0.4:
        reason = f"The {plan.version} notes and the matrix do not name the Intel support package version."
        unknown = {"support_package": reason}
        return {"wheels": True, "support_package": None, "unknown": unknown, "sources": ["previous-versions"]}
    package = f"{2027 + plan.index // 4}.{plan.index % 4}"
    return {"wheels": True, "support_package": package, "sources": [plan.notes]}


def cpp_block(plan: Plan) -> Doc:
    headers = "C++17" if plan.index < 4 else "C++20"
    block: Doc = {"headers": headers, "source_build": "C++20", "sources": ["release-matrix", plan.notes]}
    if headers != "C++20":
        block["note"] = "Building PyTorch itself needs C++20; code that only includes the headers can stay on C++17."
    return block


def stats_block(rng: random.Random, plan: Plan) -> Doc:
    commits, contributors = rng.randint(2500, 4500), rng.randint(400, 620)
    if plan.has_blog:
        return {"commits": commits, "contributors": contributors, "sources": [plan.blog]}
    if rng.random() < 0.5:
        note = "Only a secondary article gives these counts; no release blog was published."
        return {"commits": commits, "contributors": contributors, "note": note, "sources": [plan.article]}
    unknown = {
        name: f"No {plan.version} release blog was found, and the release notes do not give a {noun} count."
        for name, noun in (("commits", "commit"), ("contributors", "contributor"))
    }
    return {"commits": None, "contributors": None, "unknown": unknown}


def patches_block(rng: random.Random, plan: Plan) -> list[Doc]:
    count = rng.choices((0, 1, 2), weights=(40, 45, 15))[0]
    patches = []
    for number in range(1, count + 1):
        date = plan.date + dt.timedelta(days=25 * number + rng.randint(-4, 4))
        patch: Doc = {"version": f"{plan.version}.{number}", "date": date.isoformat()}
        if rng.random() < 0.4:
            patch["note"] = rng.choice(
                (
                    "Fixes a crash in the CUDA caching allocator and a wrong result in `torch.linalg.eigh`.",
                    "Security release: hardens `torch.load` with `weights_only=True`.",
                    "Restores the Windows wheels that the first upload was missing.",
                )
            )
        patch["sources"] = ["kr-compat-table", "previous-versions"][: rng.randint(1, 2)]
        patches.append(patch)
    return patches


def companions_block(rng: random.Random, plan: Plan, patches: list[Doc]) -> list[Doc]:
    index = plan.index
    patch_versions = [patch["version"] for patch in patches]
    torchvision: Doc = {"name": "torchvision", "version": f"0.{30 + index}"}
    if patch_versions:
        torchvision["with_patches"] = {v: f"0.{30 + index}.{n}" for n, v in enumerate(patch_versions, 1)}
    torchvision["sources"] = ["torchvision-readme", "kr-compat-table"]
    if rng.random() < 0.3:
        torchaudio: Doc = {
            "name": "torchaudio",
            "version": None,
            "note": f"No torchaudio {plan.version} was released; the previous torchaudio is built on the "
            f"stable ABI and supports {plan.version}.",
        }
    else:
        torchaudio = {"name": "torchaudio", "version": f"{plan.version}.0"}
    torchaudio["sources"] = ["torchaudio-docs", "previous-versions"]
    torchao: Doc = {"name": "torchao", "version": f"0.{20 + index}.0", "sources": ["torchao-compat-table"]}
    torchcodec: Doc = {"name": "torchcodec", "version": f"0.{14 + index}.0"}
    if patch_versions:
        torchcodec["with_patches"] = {v: f"0.{14 + index}.{n}" for n, v in enumerate(patch_versions, 1)}
    torchcodec["sources"] = ["kr-compat-table"]
    return [torchvision, torchaudio, torchao, torchcodec]


def first_id(items: list[Doc], *kinds: str, area: str | None = None) -> list[str]:
    matches = [item["id"] for item in items if item["kind"] in kinds and area in (None, item["area"])]
    return matches[:1]


def disputes_block(rng: random.Random, plan: Plan, items: list[Doc]) -> list[Doc]:
    """One or two disputes in the shapes the real data uses (rejected only by a better source)."""
    version, slug = plan.version, plan.slug
    wrong_date = (plan.date - dt.timedelta(days=rng.randint(3, 20))).isoformat()
    claimer = plan.ai_article if plan.has_ai_article else plan.article
    candidates: list[Doc] = [
        {
            "id": f"dispute-release-date-{slug}",
            "fields": ["date"],
            "claim": f"PyTorch {version} was released on {wrong_date}.",
            "claimed_by": [plan.article],
            "verdict": "rejected",
            "resolution": f"The GitHub release is dated {plan.date.isoformat()}; {wrong_date} is the planned date "
            "in the release cadence table, which the article repeats.",
            "sources": plan.release_sources,
        },
        {
            "id": f"dispute-rocm-version-{slug}",
            "fields": ["platform.rocm"],
            "claim": f"PyTorch {version} is built for ROCm {rocm_version(plan.index, releases_back=1)}.",
            "claimed_by": ["kr-compat-table"],
            "verdict": "rejected",
            "resolution": f"The release matrix and the install commands list only ROCm {rocm_version(plan.index)} "
            "for this release; the table repeats the previous release's value.",
            "items": first_id(items, "platform", area="rocm"),
            "sources": ["release-matrix", "previous-versions"],
        },
        {
            "id": f"dispute-cpp-standard-{slug}",
            "fields": ["platform.cpp"],
            "claim": f"PyTorch {version} uses C++17.",
            "claimed_by": ["release-matrix"],
            "verdict": "corrected",
            "resolution": "True at most for code that includes the headers; the notes require C++20 to build "
            "PyTorch from source.",
            "sources": [plan.notes],
        },
        {
            "id": f"dispute-removed-feature-{slug}",
            "claim": f"PyTorch {version} removed TorchScript.",
            "claimed_by": [claimer],
            "verdict": "rejected",
            "resolution": "The notes list no such removal, and the feature items of this release still use it.",
            "items": first_id(items, "feature", "highlight"),
            "sources": [plan.notes],
        },
        {
            "id": f"dispute-nccl-{slug}",
            "fields": ["platform.cuda.stable"],
            "claim": f"The CUDA wheels of {version} ship NCCL 2.{20 + plan.index}.",
            "claimed_by": ["previous-versions"],
            "verdict": "unresolved",
            "resolution": "The matrix gives a newer NCCL and the notes do not name the version; neither "
            "settles which one the wheels pin.",
            "sources": ["release-matrix"],
        },
    ]
    chosen = rng.sample(candidates, rng.randint(1, 2))
    return [{key: value for key, value in dispute.items() if value != []} for dispute in chosen]


def release_summary(plan: Plan, items: list[Doc], platform: Doc) -> str:
    highlights = [item["title"] for item in items if item["kind"] == "highlight"][:3]
    breaking = [item for item in items if item["kind"] == "breaking"]
    cuda, python = platform["cuda"], platform["python"]
    sentences = [f"Highlights: {'; '.join(highlights)}." if highlights else f"{plan.version} is a maintenance release."]
    sentences.append(
        f"On the platform side CUDA {cuda['default_wheel']} is the default wheel, CUDA "
        f"{cuda['experimental'][0]['version']} is experimental and Python {python['min']} to {python['max']} "
        "is supported."
    )
    if breaking:
        sentences.append(f"Upgraders should read the {len(breaking)} breaking changes first.")
    return " ".join(sentences)


def release_doc(rng: random.Random, state: ReleaseState, items: int) -> Doc:
    plan = state.plan
    drops = generate_items(rng, state, items)
    platform = platform_block(rng, plan, drops)
    patches = patches_block(rng, plan)
    links: Doc = {"notes": f"https://github.com/pytorch/pytorch/releases/tag/v{plan.version}.0"}
    if plan.has_blog:
        links["blog"] = blog_url(plan)
    return {
        "version": plan.version,
        "date": plan.date.isoformat(),
        "summary": release_summary(plan, state.items, platform),
        "links": links,
        "sources": plan.release_sources,
        "stats": stats_block(rng, plan),
        "patches": patches,
        "platform": platform,
        "companions": companions_block(rng, plan, patches),
        "items": state.items,
        "disputes": disputes_block(rng, plan, state.items),
    }


# --- output -------------------------------------------------------------------------------------


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Safe dumper laid out like the real files: code as literal blocks, `[a, b]` for plain lists."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    scalars_only = all(not isinstance(entry, dict | list) for entry in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=scalars_only)


_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(list, _represent_list)


def write_yaml(path: Path, document: Doc, seed: int) -> None:
    text = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    path.write_text(f"{MARKER} (seed {seed})\n{text}", encoding="utf-8")


def prepare(out: Path) -> None:
    """Create `out`, refusing to overwrite a data folder this script did not write."""
    registry = out / "sources.yaml"
    if registry.exists() and not registry.read_text(encoding="utf-8").startswith(MARKER):
        raise FileExistsError(f"{out} holds data not written by synth.py; pick an empty folder")
    (out / "releases").mkdir(parents=True, exist_ok=True)
    for stale in (out / "releases").glob("*.yaml"):
        stale.unlink()


def generate(out: Path, releases: int, items: int, seed: int = 0) -> Path:
    """Write `releases` releases of `items` items each into the data folder `out`; return `out`."""
    if releases < 1 or items < 0:
        raise ValueError("need at least one release and a non-negative number of items")
    rng = random.Random(seed)
    out = Path(out)
    prepare(out)
    plans = plan_releases(rng, releases)
    write_yaml(out / "sources.yaml", sources_doc(plans), seed)
    write_yaml(out / "topics.yaml", topics_doc(), seed)
    used_ids: set[str] = set()
    open_lifecycles: list[Lifecycle] = []
    for plan in plans:
        next_plan = plans[plan.index + 1] if plan.index + 1 < len(plans) else None
        state = ReleaseState(plan, next_plan, used_ids, open_lifecycles)
        write_yaml(out / "releases" / f"{plan.version}.yaml", release_doc(rng, state, items), seed)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="data folder to write (created if missing)")
    parser.add_argument("--releases", type=int, required=True, help="number of releases")
    parser.add_argument("--items", type=int, required=True, help="items per release")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same bytes)")
    args = parser.parse_args(argv)
    data = generate(args.out, args.releases, args.items, args.seed)
    print(f"wrote {args.releases} releases x {args.items} items to {data}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
