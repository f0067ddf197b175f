"""Loading stage (data -> load -> **model** -> checks | queries | renderers | edges).

Frozen, typed records for the release data. YAML keys equal attribute names; every model forbids
unknown keys, so a typo is an error, not a silently ignored field. Rules that need more than one
record (ids unique, references resolve, dates in version order) live in `checks.py`.

The JSON Schema in `data/schema/` is generated from these classes (`python -m macros schema`).
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
from functools import partial
from typing import Annotated, ClassVar, Literal, get_args

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion
from packaging.version import Version as Pep440Version
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    SerializerFunctionWrapHandler,
    StringConstraints,
    Tag,
    WithJsonSchema,
    field_validator,
    model_serializer,
    model_validator,
)

from macros.dataset.text import code_problem, text_problem
from macros.dataset.vocabulary import (
    ACTION_KINDS,
    CHANGE_KINDS,
    COMPANIONS,
    NOT_FELT_REASONS,
    TORCH,
    VARIANT_PATTERN,
    Area,
    Companion,
    Effect,
    Kind,
    OperatingSystem,
    Status,
    Tier,
    Verdict,
)

# --- vocabularies (wording and order in vocabulary.py) --------------------------------------------

#: Every area, in the order the Literal lists them.
AREAS: tuple[str, ...] = get_args(Area)
# Built from the companions' vocabulary: a new companion is disputable without a change here.
DisputedField = Literal[  # type: ignore[valid-type]
    (
        "date",
        "stats",
        "platform.python",
        "platform.cuda",
        "platform.cuda.stable",
        "platform.cuda.experimental",
        "platform.cuda.default_wheel",
        "platform.rocm",
        "platform.xpu",
        "platform.macos",
        "platform.cpp",
        "platform.architectures_dropped",
        "platform.wheels",
        *(f"companions.{name}" for name in COMPANIONS.values),
    )
]

# --- scalar types -------------------------------------------------------------------------------

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=80)]
#: "2.12"; a string, so an unquoted 2.10 (read by YAML as the float 2.1) is rejected.
# Every number in a version is bounded (at most three digits for a release, six for a component):
# renderers turn versions into numbers, ranges and wheel tags, and an unbounded value that passes
# the model would fail the build instead (or make it enumerate millions of versions).
Version = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,3}\.[0-9]{1,3}$")]
PatchVersion = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,4}$")]
#: A dotted component version such as "9.10.2.21" or "0.24.1".
DottedVersion = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,6}(\.[0-9]{1,6}){0,5}$")]


def _python(value: str, *, threaded: bool | None) -> str:
    """3.MINOR (two digits at most), with a `t` for a free-threaded build where `threaded` allows."""
    match = re.fullmatch(r"3\.([0-9]{1,2})(t?)", value)
    if not match:
        raise ValueError(f"{value!r} is not a Python version such as 3.13 (or 3.13t, free-threaded)")
    if threaded is False and match.group(2):
        raise ValueError(
            f"{value!r} is a free-threaded build; min and max name regular builds (list {value} in free_threaded)"
        )
    if threaded is True and not match.group(2):
        raise ValueError(f"{value!r} is not free-threaded; free_threaded lists builds such as {value}t")
    return value


#: Any Python build: "3.13" or the free-threaded "3.13t".
PythonVersion = Annotated[
    str,
    AfterValidator(partial(_python, threaded=None)),
    WithJsonSchema({"type": "string", "pattern": r"^3\.[0-9]{1,2}t?$"}),
]
#: A regular (GIL) build, where a range begins or ends.
RegularPython = Annotated[
    str,
    AfterValidator(partial(_python, threaded=False)),
    WithJsonSchema({"type": "string", "pattern": r"^3\.[0-9]{1,2}$"}),
]
#: A free-threaded build: "3.14t".
ThreadedPython = Annotated[
    str,
    AfterValidator(partial(_python, threaded=True)),
    WithJsonSchema({"type": "string", "pattern": r"^3\.[0-9]{1,2}t$"}),
]


def _cuda(value: str) -> str:
    if not re.fullmatch(r"[0-9]{1,2}\.[0-9]{1,2}", value):
        raise ValueError(
            f"{value!r} is not a CUDA version as the wheel index names it: major.minor, such as 12.8 (cu128)"
        )
    return value


#: A CUDA toolkit version of a wheel build: "12.8" (its variant is cu128).
CudaVersion = Annotated[
    str, AfterValidator(_cuda), WithJsonSchema({"type": "string", "pattern": r"^[0-9]{1,2}\.[0-9]{1,2}$"})
]
#: A GPU compute capability, "7.0" for sm_70.
ComputeCapability = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,2}\.[0-9]$")]


#: Largest count or number the data may give (commits, contributors, pull requests, wheel sizes).
MAX_COUNT = 10**9
PullRequest = Annotated[int, Field(ge=1, le=MAX_COUNT)]


def _text(value: str) -> str:
    problem = text_problem(value)
    if problem:
        raise ValueError(problem)
    return value


def _code(value: str) -> str:
    problem = code_problem(value)
    if problem:
        raise ValueError(problem)
    return value


_URL = re.compile(r"^https?://[A-Za-z0-9.-]+(?::[0-9]+)?(?:[/?#][A-Za-z0-9\-._~%!$&*+,;=:@/?#]*)?$")


def _url(value: str) -> str:
    if not _URL.match(value):
        raise ValueError(
            f"{value!r} is not an http:// or https:// URL without spaces, quotes, brackets or "
            "parentheses (percent-encode them: ( is %28, ) is %29)"
        )
    return value


#: Inline Markdown written by a contributor; see `macros/dataset/text.py` for what it may hold.
Text = Annotated[str, StringConstraints(min_length=1, strip_whitespace=True), AfterValidator(_text)]
#: A code example, shown as code whatever it holds (only control characters are refused).
Code = Annotated[str, StringConstraints(min_length=1, strip_whitespace=True), AfterValidator(_code)]
Url = Annotated[str, AfterValidator(_url), WithJsonSchema({"type": "string", "format": "uri", "pattern": _URL.pattern})]
SourceIds = Annotated[list[Slug], Field(min_length=1)]


def _iso_date(value: str) -> str:
    """Dates stay strings in YAML (the loader drops YAML's timestamp type); check they exist."""
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a real date (YYYY-MM-DD)") from None
    return value


IsoDate = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), AfterValidator(_iso_date)]


class Record(BaseModel):
    """Base of every record: frozen, strict about types and unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# --- sources ------------------------------------------------------------------------------------


class Source(Record):
    """One entry of data/sources.yaml: where a fact comes from and how far to trust it."""

    id: Slug
    title: Text
    url: Url
    publisher: Text
    tier: Tier
    date: IsoDate | None = None
    note: Text | None = None


class SourceRegistry(Record):
    """data/sources.yaml."""

    reviewed: IsoDate = Field(description="When the data was last reviewed against the sources.")
    sources: Annotated[list[Source], Field(min_length=1)]


class Topic(Record):
    id: Slug
    title: Text


class TopicRegistry(Record):
    """data/topics.yaml: features followed across releases."""

    topics: list[Topic] = []


# --- platform -----------------------------------------------------------------------------------


class Cited(Record):
    """A block of facts that shares its sources. Unknown fields are None with a reason."""

    sources: list[Slug] = []
    note: Text | None = None
    unknown: dict[str, Text] = Field(default={}, description="Field name -> why the sources do not give it.")

    def not_applicable(self) -> set[str]:
        """Fields that may be None without a reason (overridden where it depends on data)."""
        return {"note"}

    @model_validator(mode="after")
    def _explained(self) -> Cited:
        for name, value in self:
            if value is None and name not in self.not_applicable() and name not in self.unknown:
                raise ValueError(f"{name} is unknown: give the reason in unknown.{name}")
        for name in self.unknown:
            if name not in type(self).model_fields or name in {"sources", "note", "unknown"}:
                raise ValueError(f"unknown.{name} names no field of this block")
        if not self.sources and len(self.unknown) < _nullable_count(self):
            raise ValueError("sources: cite at least one source for these facts")
        return self


def _nullable_count(block: Cited) -> int:
    return sum(1 for name in type(block).model_fields if name not in {"sources", "note", "unknown"})


class PythonSupport(Cited):
    min: RegularPython
    max: RegularPython
    free_threaded: list[ThreadedPython] = Field(default=[], description="Free-threaded builds shipped, e.g. 3.14t.")
    experimental: list[PythonVersion] = Field(default=[], description="Builds marked experimental or preview.")

    @model_validator(mode="after")
    def _range(self) -> PythonSupport:
        if version_key(self.min) > version_key(self.max):
            raise ValueError(f"min {self.min} is after max {self.max}")
        return self


class CudaBuild(Record):
    version: CudaVersion
    cudnn: DottedVersion | None = None
    nccl: DottedVersion | None = None
    compute_capabilities: Annotated[list[ComputeCapability], Field(min_length=1)] = Field(
        description="GPU compute capabilities the Linux x86_64 wheel carries machine code for (its "
        "TORCH_CUDA_ARCH_LIST), lowest first: 8.0 is sm_80."
    )
    ptx: list[ComputeCapability] | None = Field(
        default=None,
        description="Those of compute_capabilities also shipped as PTX, which the driver compiles for newer "
        "GPUs; [] for none; absent when the sources do not say.",
    )

    @model_validator(mode="after")
    def _ordered(self) -> CudaBuild:
        keys = [version_key(cc) for cc in self.compute_capabilities]
        if keys != sorted(set(keys)):
            raise ValueError("compute_capabilities: list each once, lowest first")
        extra = [cc for cc in self.ptx or [] if cc not in self.compute_capabilities]
        if extra:
            raise ValueError(f"ptx: {', '.join(extra)} not among compute_capabilities")
        return self


class CudaSupport(Cited):
    stable: Annotated[list[CudaBuild], Field(min_length=1)]
    experimental: list[CudaBuild] = []
    default_wheel: CudaVersion | None = Field(
        description="CUDA version of the wheel `pip install torch` gets from PyPI on Linux x86_64."
    )
    other_builds: Text | None = Field(
        default=None,
        description="Set when the builds listed may not be all of them: what could not be checked. The GPU "
        "and install answers then never say that no wheel exists, only that none is known.",
    )

    def not_applicable(self) -> set[str]:
        return {"note", "other_builds"}


class RocmSupport(Cited):
    stable: Annotated[list[DottedVersion], Field(min_length=1)] | None = Field(
        description="ROCm versions with wheels; null (with the reason in unknown.stable) when no source says."
    )


class XpuSupport(Cited):
    wheels: bool | None = Field(
        default=True, description="Whether Intel XPU wheels exist; null (with unknown.wheels) when no source says."
    )
    support_package: Text | None = None

    def not_applicable(self) -> set[str]:
        return {"note"} if self.wheels else {"note", "support_package"}


class MacosSupport(Cited):
    mps_min: DottedVersion | None = Field(description="Oldest macOS on which MPS works.")


class CppSupport(Cited):
    headers: Literal["C++14", "C++17", "C++20"] | None = Field(
        description="Standard needed to include the headers (extensions)."
    )
    source_build: Literal["C++14", "C++17", "C++20"] | None = Field(
        description="Standard needed to build PyTorch from source."
    )


class ArchitectureDrop(Record):
    architectures: Text
    wheels: Annotated[list[Text], Field(min_length=1)]
    instead: Text | None = Field(default=None, description="What affected users should install.")
    item: Slug | None = Field(default=None, description="Item that announces the drop.")
    sources: SourceIds


class Platform(Record):
    python: PythonSupport
    cuda: CudaSupport
    rocm: RocmSupport
    xpu: XpuSupport
    macos: MacosSupport
    cpp: CppSupport
    architectures_dropped: list[ArchitectureDrop] = []


# --- companions, patches, stats -----------------------------------------------------------------


class CompanionVersion(Record):
    name: Companion
    version: DottedVersion | None = Field(description="None when there is no matching release.")
    with_patches: dict[PatchVersion, DottedVersion] = Field(
        default={}, description="Patch release of torch -> companion version that goes with it."
    )
    note: Text | None = None
    sources: SourceIds

    @model_validator(mode="after")
    def _explained(self) -> CompanionVersion:
        if self.version is None and self.note is None:
            raise ValueError("version is null: say why in note")
        return self


class PatchRelease(Record):
    version: PatchVersion
    date: IsoDate | None = None
    note: Text | None = None
    sources: SourceIds


class Stats(Cited):
    # Bounded: a count is drawn as a bar and formatted as a number (a 401-digit count overflowed).
    commits: int | None = Field(ge=1, le=MAX_COUNT)
    contributors: int | None = Field(ge=1, le=MAX_COUNT)


class Links(Record):
    notes: Url
    blog: Url | None = None


# --- the package index snapshot (data/pypi.json, written by `make index`) -------------------------

#: The packages whose published wheels the snapshot keeps.
IndexedPackage = Literal[(TORCH, *COMPANIONS.values)]  # type: ignore[valid-type]


def _wheel_name(value: str) -> str:
    """A name pip would read (PEP 427 and the version rules of PEP 440): the snapshot checks and
    the wheels table read each name's version and tags, so one they cannot read is refused here."""
    try:
        parse_wheel_filename(value)
    except (InvalidWheelFilename, InvalidVersion) as error:
        raise ValueError(f"{value!r} is not a wheel file name pip can read ({error})") from None
    return value


class WheelFile(Record):
    """One published wheel: its name carries version, build tag, Python, ABI and platform tags."""

    file: Annotated[
        str,
        StringConstraints(
            max_length=300,
            pattern=r"^[A-Za-z0-9_]+-[0-9][A-Za-z0-9_.+!]*(-[0-9][A-Za-z0-9_]*)?-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+\.whl$",
        ),
        AfterValidator(_wheel_name),
    ]
    uploaded: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")]
    size: Annotated[int, Field(ge=0, le=MAX_COUNT * 100)]
    yanked: bool = False


class PypiSnapshot(Record):
    """What PyPI's JSON simple API (PEP 691) listed on `fetched`, reduced to what we use."""

    fetched: IsoDate
    source: Url
    packages: dict[IndexedPackage, list[WheelFile]]


# --- the ecosystem snapshot (data/ecosystem.json, written by `make index`) ------------------------

#: The packages whose releases and torch requirements the ecosystem snapshot keeps (PEP 503 names).
ECOSYSTEM_PACKAGES: tuple[str, ...] = (
    "accelerate", "bitsandbytes", "captum", "deepspeed", "diffusers", "executorch", "fbgemm-gpu",
    "flash-attn", "flashinfer-python", "kornia", "liger-kernel", "lightning", "monai", "opacus", "peft",
    "pytorch-lightning", "sentence-transformers", "sglang", "tensordict", "timm", "torch-geometric",
    "torch-tensorrt", "torchao", "torchaudio", "torchcodec", "torchdata", "torchmetrics", "torchrec",
    "torchrl", "torchtune", "torchvision", "transformers", "trl", "ultralytics", "vllm", "xformers",
)  # fmt: skip
#: Requirements on these names are kept (torch and the packages the PyTorch project publishes).
FIRST_PARTY: frozenset[str] = frozenset(
    {
        TORCH, *COMPANIONS.values, "torchdata", "torchtext", "torchrec", "fbgemm-gpu", "fbgemm-gpu-genai",
        "torchtune", "executorch", "tensordict", "torchrl", "torch-tensorrt",
    }
)  # fmt: skip
EcosystemPackage = Literal[ECOSYSTEM_PACKAGES]  # type: ignore[valid-type]


def _requirement(value: str) -> str:
    """A PEP 508 requirement on torch or a first-party package, as `packaging` writes it."""
    try:
        requirement = Requirement(value)
    except InvalidRequirement as error:
        raise ValueError(f"{value!r} is not a PEP 508 requirement ({error})") from None
    if canonicalize_name(requirement.name) not in FIRST_PARTY:
        raise ValueError(f"{value!r} is not on torch or a first-party package; the snapshot keeps only those")
    return value


def _version(value: str) -> str:
    try:
        Pep440Version(value)
    except InvalidVersion:
        raise ValueError(f"{value!r} is not a PEP 440 version") from None
    return value


Pep440 = Annotated[str, StringConstraints(min_length=1, max_length=60), AfterValidator(_version)]


class EcosystemRelease(Record):
    """One release of a package: when it appeared, whether it was withdrawn, and what it declares
    about torch and the first-party packages, read from its own metadata (`source`), or why that
    could not be read (`unknown`)."""

    version: Pep440
    uploaded: IsoDate = Field(description="Day the first file of the release was uploaded.")
    yanked: bool = Field(default=False, description="Every file of the release is yanked.")
    requires_python: Annotated[str, StringConstraints(max_length=200)] | None = None
    requires: Annotated[
        list[Annotated[str, StringConstraints(max_length=500), AfterValidator(_requirement)]], Field(max_length=50)
    ] = Field(default_factory=list, description="Requires-Dist on torch or a first-party package, markers kept.")
    source: Literal["metadata", "wheel", "sdist"] | None = Field(
        default=None,
        description="Where the requirements were read: the PEP 658 metadata file, a wheel's METADATA, "
        "the sdist's PKG-INFO.",
    )
    unknown: Annotated[str, StringConstraints(min_length=1, max_length=600)] | None = Field(
        default=None, description="Why the metadata could not be read; nothing is then known of its requirements."
    )

    @model_validator(mode="after")
    def _known_or_not(self) -> EcosystemRelease:
        if (self.source is None) == (self.unknown is None):
            raise ValueError("source is required for a release read, unknown (the reason) for one not read; not both")
        if self.unknown is not None and self.requires:
            raise ValueError("requires must be empty when the metadata is unknown")
        return self


class EcosystemSnapshot(Record):
    """Releases since `since` of the packages built on torch, from the index at `source`."""

    #: Largest file accepted (load.py): about 3,600 releases of about 120 bytes each today.
    max_file_bytes: ClassVar[int] = 2 * 1024 * 1024

    source: Url
    since: IsoDate
    packages: dict[EcosystemPackage, Annotated[list[EcosystemRelease], Field(max_length=5000)]]


# --- items and disputes -------------------------------------------------------------------------


#: A fully qualified Python name: `torch.export.export_for_training`.
QualifiedName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")]


class SymbolUse(Record):
    """A use of a name that matters only under a condition: a keyword argument passed (with a
    value, or any), a keyword left out (a changed default), an argument passed by position, a call
    whose error is caught, a class decorated, a use in compiled code, or any use but an import, a
    type check or an annotation (the name stays; what it does changed)."""

    name: QualifiedName
    keyword: Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")] | None = Field(
        default=None, description="The argument that matters, by its name."
    )
    value: str | int | float | bool | None = Field(
        default=None, description="The literal value that matters; absent: any use of the keyword."
    )
    absent: bool = Field(
        default=False,
        description="The change hits calls that leave this keyword out (a default that changed): `torch.load(f)` "
        "without `weights_only`. Calls that pass it are not reported; a call that unpacks **kwargs without it is, "
        "as one to check.",
    )
    position: Annotated[int, Field(ge=0, le=50)] | None = Field(
        default=None,
        description="Where the argument sits when it is passed without its name (0: the first argument after "
        "`self`), so `f(a, b)` passes position 1. Without it, only the keyword form counts. Without a keyword: "
        "the change hits calls that pass an argument at this position by position (`torch.onnx.export`'s "
        "options after the third became keyword-only: position 3).",
    )
    caught: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_.]*$")]] = Field(
        default=[],
        description="The change only matters where the call sits in a `try` whose `except` names one of these "
        "exceptions (`torch.cat` raising `ValueError` where it raised `RuntimeError`).",
    )

    decorates: Literal["class"] | None = Field(
        default=None,
        description="The change only matters where the name decorates a class (`@torch.no_grad()` on a class).",
    )
    dtypes: list[QualifiedName] = Field(
        default=[],
        description="The change only concerns a first argument of these dtypes (`torch.float16`): a call whose first "
        "argument is known to have another dtype is not reported: a variable its function binds once to a tensor "
        "made with another explicit `dtype=` (`torch.empty_like(x, dtype=torch.float32)`), a class attribute made "
        "in one dtype (the default float32 without `dtype=`), or the weight of a torch.nn layer made without "
        "`dtype=` (`self.fc.weight`; `m.weight` under `isinstance(m, nn.Linear)` in an init function only "
        "`__init__` runs). Anything else still is.",
    )
    method: bool = Field(
        default=False,
        description="Also a call of the name's last part as a method of any object the scanner cannot resolve "
        "(`a.cross(b)` for `torch.Tensor.cross`); `position` then counts from the first argument after the object.",
    )
    compiled: bool = Field(
        default=False,
        description="The change only matters in code `torch.compile` runs: a use is reported only inside a function "
        "decorated with `torch.compile` (or `torch._dynamo.optimize(...)`), a function or method the same module "
        "passes by name to `torch.compile`, a function nested in one of them, or a method named `forward` (a module's "
        "forward runs compiled when the module is compiled; not a class named `...Loss`) or `training_step`, "
        "`validation_step`, `test_step`, "
        "`predict_step` (Lightning compiles these with a compiled LightningModule).",
    )
    defines: Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")] | None = Field(
        default=None,
        description="The change concerns subclasses of the name that define this method: with `keyword` and "
        "`absent: true`, a method whose parameters lack that keyword (and take no `**kwargs`), reported where the "
        "method is defined (a custom process group's `new_group()` without `backend`). Other uses of the name are "
        "not reported by this symbol.",
    )
    untraced: bool = Field(
        default=False,
        description="The change only matters in code that runs while `torch.compile` compiles without Dynamo tracing "
        "it: a use is reported only inside a tensor subclass's `__torch_dispatch__` or `__torch_function__`, a "
        "compile backend the module defines (`@register_backend`, `torch.compile(backend=fn)`), or a function "
        "nested in one of them. In code Dynamo traces the behaviour did not change.",
    )
    sequence_values: bool = Field(
        default=False,
        description="The change concerns a mapping given to the keyword whose values are sequences (several "
        "callables per key): a literal dict, or a dict variable the module (or the function) only ever fills with "
        "literal entries, whose values are all single names, attributes or lambdas is not reported.",
    )
    duplicates: bool = Field(
        default=False,
        description="The change concerns a keyword's value that holds the same item twice (duplicate ONNX input "
        "names): a literal list or tuple of distinct constants, or a variable its function binds once to one, "
        "is not reported.",
    )
    aliasing: bool = Field(
        default=False,
        description="The change only concerns custom operators whose function may return an input or a view of it: "
        "a registration whose function the module shows (the decorated function, or one of the module's functions "
        "passed by name) and none of whose `return`s reaches a parameter is not reported. A value reaches a parameter "
        "through a view or conversion method (`x.view(...)`, `x.contiguous()`, `x.to(...)`), an in-place method, "
        "indexing, a torch view function or a variable bound to one of those; a torch function that computes, "
        "arithmetic, `.clone()` and what another library's function returns (a kernel's output) are new tensors.",
    )
    masks: bool = Field(
        default=False,
        description="The change concerns a keyword's value that can mask a whole row (a boolean mask, or a float "
        "mask holding `-inf`): a value named as an additive bias is not reported: a variable or attribute whose name "
        "has the word `bias` and not `mask` (`attn_bias`, `rel_pos_bias`), or a variable the function binds only to "
        "None and to calls of such names (`attn_mask = self.get_rel_pos_bias()`).",
    )
    trailing_dict: bool = Field(
        default=False,
        description="The change concerns a sequence given to the keyword whose last item is a dict (model keyword "
        "arguments at the end of ONNX export's `args`): a literal tuple or list whose last item is not a dict "
        "display or `dict(...)`, a torch call (a tensor), or a variable its function binds once to one of those, is "
        "not reported.",
    )
    given: Literal["script-module", "function"] | None = Field(
        default=None,
        description="The change concerns a first argument of this kind, and a use is reported only when it visibly "
        "is one. `script-module`: made by `torch.jit.script`, `trace`, `trace_module`, `load`, `freeze` or "
        "`optimize_for_inference` in the call or in a variable its function binds to one, or a parameter annotated "
        "`torch.jit.ScriptModule`. `function`: a lambda, a `functools.partial(...)`, or the name of a function the "
        "module or the calling function defines (and does not rebind). An `nn.Module` of unknown origin is neither.",
    )
    reads_nan: bool = Field(
        default=False,
        description="The change shows only in code that looks for NaNs: a use is reported only in a module that "
        "reads them from tensors (`isnan`, `isfinite` or `nan_to_num`, as a torch function or a method). Elsewhere "
        "the NaNs the old behaviour gave went unread (rows the code drops or never makes) and nothing changes.",
    )
    name_kept: bool = Field(
        default=False,
        description="The name itself is neither deprecated nor removed; only what running it does changed. An "
        "import, an `isinstance()` check or an annotation of it is then not a use (as for a breaking change).",
    )

    @field_validator("value", mode="after")
    @classmethod
    def _literal(cls, value: object) -> object:
        # The value is shown as code and published in the JSON API: printable text, finite numbers.
        if isinstance(value, str):
            if len(value) > 200:
                raise ValueError(f"is {len(value)} characters long; a literal value holds at most 200")
            return _code(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{value} is not a finite number")
        return value

    @model_validator(mode="after")
    def _one_condition(self) -> SymbolUse:
        conditions = (
            self.keyword,
            self.position,
            self.caught or None,
            self.decorates,
            self.dtypes or None,
            self.name_kept or None,
            self.method or None,
            self.compiled or None,
            self.aliasing or None,
            self.defines,
            self.untraced or None,
            self.given,
        )
        if all(condition is None for condition in conditions):
            raise ValueError(
                "give a keyword or position (an argument condition), caught (an exception), decorates: class, "
                "dtypes, compiled, untraced, aliasing, given, defines or name_kept: true"
            )
        if (self.duplicates or self.sequence_values or self.masks or self.trailing_dict) and (
            self.keyword is None or self.absent
        ):
            raise ValueError(
                "duplicates, sequence_values, masks and trailing_dict describe the value of a keyword passed: give "
                "the keyword"
            )
        if self.keyword is None and (self.absent or not self.any_value):
            raise ValueError("value and absent describe a keyword: give the keyword")
        if self.absent and not self.any_value:
            raise ValueError("absent: true matches calls without the keyword; it takes no value")
        return self

    @property
    def any_value(self) -> bool:
        """True when the data gives no `value`: any use of the keyword matters."""
        return "value" not in self.model_fields_set

    @model_serializer(mode="wrap")
    def _omit_absent_value(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # In the JSON API as in the data: no `value` means any value (`null` is the literal None).
        dumped = handler(self)
        if self.any_value:
            dumped.pop("value", None)
        for field, unset in (
            ("absent", False),
            ("position", None),
            ("caught", []),
            ("keyword", None),
            ("decorates", None),
            ("dtypes", []),
            ("name_kept", False),
            ("compiled", False),
            ("aliasing", False),
            ("duplicates", False),
            ("defines", None),
            ("untraced", False),
            ("sequence_values", False),
            ("masks", False),
            ("reads_nan", False),
            ("given", None),
            ("trailing_dict", False),
        ):
            if dumped.get(field, unset) == unset:
                dumped.pop(field, None)
        return dumped


#: A symbol: a dotted name, or a call with a keyword. Tagged by the shape of the value, so that a
#: wrong value gets one error about the shape it has, not one per member of the union.
DOTTED_NAME, CALL_WITH_KEYWORD = "dotted-name", "call-with-keyword"  # both in UNION_TAGS
Symbol = Annotated[
    Annotated[QualifiedName, Tag(DOTTED_NAME)] | Annotated[SymbolUse, Tag(CALL_WITH_KEYWORD)],
    Discriminator(lambda value: DOTTED_NAME if isinstance(value, str) else CALL_WITH_KEYWORD),
]


#: A wheel variant as the download index names it (cu128, rocm7.1), a family (cuda, rocm), or
#: mps (macOS), source (building PyTorch yourself).
Variant = Annotated[str, StringConstraints(pattern=VARIANT_PATTERN)]


class AppliesTo(Record):
    """The environments a change concerns; each list left empty means "any". Absent: everyone."""

    variants: list[Variant] = Field(
        default=[], description="Wheel variants or families (cu128, cuda, rocm, mps, source)."
    )
    os: list[OperatingSystem] = []
    python: list[PythonVersion] = []
    gpu: list[ComputeCapability] = Field(default=[], description="GPU compute capabilities, 7.0 for sm_70.")


def _warning_message(value: str) -> str:
    # The message goes verbatim into `python -W action:message:category` and, escaped, into pytest's
    # `filterwarnings`; both split on ":", and a warning filter matches from the message's start.
    if ":" in value or "\n" in value or value != value.strip():
        raise ValueError("the start of the message, on one line, up to (not including) any colon")
    return _code(value)  # shown as code: control characters and bidirectional overrides refused


class EmittedWarning(Record):
    """What a deprecated call emits: enough to turn it into an error in a test suite."""

    category: Literal["DeprecationWarning", "FutureWarning", "UserWarning"]
    message: Annotated[str, StringConstraints(min_length=8, max_length=200), AfterValidator(_warning_message)] = Field(
        description="How the message starts, exactly as emitted (a warning filter matches its start)."
    )
    once: bool = Field(default=False, description="Emitted only once per process (TORCH_WARN_ONCE).")


#: The item's text fields a release page shows as paragraphs under its summary, in this order, each
#: as "Label: text" (`item.j2` loops over them; tests/test_site.py reads the page against them). A
#: new field of that kind is the field on `Item` and one entry here.
ITEM_TEXT_FIELDS: tuple[tuple[str, str], ...] = (("action", "What to do"), ("replacement", "Replacement"))


class Item(Record):
    """One linkable change or feature. `id` is permanent: never renamed, never reused."""

    id: Slug
    aliases: list[Slug] = Field(
        default=[], description="Former ids of this item (renamed or merged); their anchors keep working."
    )
    kind: Kind
    area: Area
    title: Text
    summary: Text
    status: Status | None = None
    effect: Effect | None = None
    action: Text | None = None
    before: Code | None = None
    after: Code | None = None
    code_lang: Literal["python", "bash", "cpp", "cmake", "text"] = "python"
    prs: list[PullRequest] = []
    follows: Slug | None = Field(
        default=None,
        description="Id of the earlier item this one continues (e.g. the deprecation it completes).",
    )
    replacement: Text | None = None
    topic: Slug | None = Field(default=None, description="Id from data/topics.yaml: the feature this item is part of.")
    planned_removal: Version | None = Field(default=None, description="Release in which a removal was announced.")
    planned_removal_earlier: list[Version] = Field(
        default=[],
        description="Targets announced before `planned_removal`, oldest first: the history of a removal that moved.",
    )
    applies_to: AppliesTo | None = Field(
        default=None, description="Only some environments feel this change (the personal guide narrows by it)."
    )
    symbols: list[Symbol] = Field(
        default=[],
        description="Python names this change concerns, for `python -m macros scan`: a dotted name (any use, "
        "and anything under it), or {name, keyword, value} for a call with that keyword argument (see SymbolUse).",
    )
    warnings: list[EmittedWarning] = Field(
        default=[], description="The warnings the deprecated calls emit at run time, where a source gives them."
    )
    sources: SourceIds

    @model_validator(mode="after")
    def _complete(self) -> Item:
        if self.kind in CHANGE_KINDS and self.effect is None:
            raise ValueError(f"effect is required for a {self.kind} item")
        if self.kind in ACTION_KINDS and self.action is None:
            raise ValueError(f"action is required for a {self.kind} item")
        if (self.before is None) != (self.after is None):
            raise ValueError("before and after come together")
        if self.planned_removal_earlier:
            if self.planned_removal is None:
                raise ValueError("planned_removal_earlier needs the current target in planned_removal")
            steps = [*self.planned_removal_earlier, self.planned_removal]
            if any(version_key(a) >= version_key(b) for a, b in itertools.pairwise(steps)):
                raise ValueError("planned_removal_earlier: targets must be oldest first and before planned_removal")
        return self

    @property
    def is_change(self) -> bool:
        return self.kind in CHANGE_KINDS


class Dispute(Record):
    """A claim a source makes that a better source contradicts, and how we resolved it."""

    id: Slug
    claim: Text
    claimed_by: SourceIds
    verdict: Verdict
    resolution: Text
    items: list[Slug] = Field(default=[], description="Items the claim is about.")
    fields: list[DisputedField] = Field(
        default=[], description="Release facts the claim is about (marked as disputed in tables)."
    )
    sources: SourceIds


class MovedItem(Record):
    """An item the notes listed under this release that shipped in another one (the wheels say so).
    Its anchor stays on this release's page and guides, pointing to where the item lives now."""

    id: Slug = Field(description="The item's permanent id; the item itself is in the release `to`.")
    to: Version = Field(description="The release the change really shipped in (it holds the item).")
    note: Text = Field(description="Why it moved: what the notes say and what the wheels show.")
    sources: SourceIds


class Release(Record):
    """One file data/releases/X.Y.yaml."""

    version: Version
    date: IsoDate
    summary: Text
    links: Links
    sources: SourceIds
    stats: Stats
    patches: list[PatchRelease] = []
    platform: Platform
    companions: list[CompanionVersion] = []
    items: list[Item] = []
    disputes: list[Dispute] = []
    moved: list[MovedItem] = Field(
        default=[], description="Items the notes listed here that shipped in another release; their anchors stay."
    )
    limits: Text | None = Field(
        default=None,
        description="What the sources could not give for this release (notes or sections that could not be "
        "read, facts taken from the wheels instead); shown at the top of its page.",
    )

    @property
    def key(self) -> tuple[int, int]:
        return version_key(self.version)

    def dispute_on(self, field_name: str) -> str | None:
        """Id of a dispute about this fact (`platform.python`), or about the block it belongs to."""
        for dispute in self.disputes:
            if any(field_name == f or field_name.startswith(f + ".") for f in dispute.fields):
                return dispute.id
        return None


def version_key(version: str) -> tuple[int, ...]:
    """Sort versions numerically: 2.9 < 2.10 (MkDocs and str sorting get this wrong)."""
    return tuple(int(part) for part in version.split("."))


def three_part(version: str) -> str:
    """'0.24' -> '0.24.0': the form pip pins and PyPI files carry."""
    parts = version.split(".")
    return ".".join(parts + ["0"] * (3 - len(parts)))


# --- ledgers (data/ledger/X.Y.yaml): every entry of a release's notes, decided ---------------------

NOT_FELT_PREFIX = "not-felt: "
_ITEM_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _decision(value: str) -> str:
    if value.startswith(NOT_FELT_PREFIX):
        reason = value[len(NOT_FELT_PREFIX) :]
        if reason not in NOT_FELT_REASONS.values:
            raise ValueError(
                f"{reason!r} is not a not-felt reason; use one of {', '.join(repr(r) for r in NOT_FELT_REASONS.values)}"
            )
        return value
    if not _ITEM_ID.match(value) or len(value) > 80:
        raise ValueError(
            f"{value!r} is neither an item id nor 'not-felt: <reason>' "
            '(quote it in YAML: decision: "not-felt: internal")'
        )
    return value


Decision = Annotated[str, AfterValidator(_decision)]
#: A heading of the notes as a slug: "Backwards Incompatible Changes" -> backwards-incompatible-changes.
SectionSlug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=60)]
#: An area heading as the notes write it ("torch.nn", "Distributed"): one short line.
AreaHeading = Annotated[str, StringConstraints(pattern=r"^[^\n\r]{0,80}$"), AfterValidator(_code)]


class LedgerEntry(Record):
    """One entry of the notes (a bullet, or a row of the highlights table) and what we decided."""

    section: SectionSlug
    area: AreaHeading = Field(description="The area heading the entry sits under, as written; empty for none.")
    n: Annotated[int, Field(ge=1, le=MAX_COUNT)] = Field(
        description="Position of the entry within its section and area."
    )
    prs: list[PullRequest] = []
    decision: Decision | None = Field(
        description="The id of the item that covers the entry, or 'not-felt: <reason>'; null until decided."
    )
    note: Text | None = None

    @property
    def item_id(self) -> str | None:
        """The covering item's id, or None for an undecided or not-felt entry."""
        if self.decision is None or self.decision.startswith(NOT_FELT_PREFIX):
            return None
        return self.decision

    @property
    def not_felt(self) -> str | None:
        if self.decision is None or not self.decision.startswith(NOT_FELT_PREFIX):
            return None
        return self.decision[len(NOT_FELT_PREFIX) :]


class LedgerReread(Record):
    """A second reading of a whole ledger against one definition of "felt" (data/README.md)."""

    date: IsoDate = Field(description="When the second reading was finished.")
    definition: Slug = Field(
        description="Which definition of felt it applied: 'felt-3' is the one data/README.md states."
    )
    note: Text | None = None


class Ledger(Record):
    """data/ledger/X.Y.yaml: every entry of the official notes of release X.Y, decided."""

    release: Version
    notes: Slug = Field(description="Source id of the notes the entries were read from.")
    reread: LedgerReread | None = Field(
        default=None, description="Set once every not-felt decision was read again against the definition of felt."
    )
    entries: Annotated[list[LedgerEntry], Field(min_length=1)]


# --- hardware: GPU models and NVIDIA drivers (data/gpus.yaml, data/drivers.yaml) ------------------

GpuSegment = Literal["datacenter", "workstation", "consumer", "laptop", "jetson"]


class GpuModel(Record):
    """One GPU model as NVIDIA's compute capability tables name it."""

    name: Text = Field(description="The model as the source names it: 'GeForce RTX 4090', 'Quadro RTX 5000'.")
    aliases: list[Text] = Field(
        default=[], description="Other names the driver prints for it: 'TITAN X (Pascal)' for 'NVIDIA TITAN X'."
    )
    capability: ComputeCapability
    family: Text = Field(description="The architecture: 'Ada Lovelace'. One per compute capability.")
    segment: GpuSegment
    arm: bool = Field(
        default=False, description="Only in Arm systems (Jetson, Grace): the x86_64 GPU tables leave it out."
    )
    example: bool = Field(default=False, description="Named as an example in the GPU tables' row headings.")
    sources: Annotated[list[Slug], Field(min_length=1)]


class GpuTable(Record):
    """data/gpus.yaml: GPU models to compute capability, every family since Maxwell."""

    reviewed: IsoDate
    models: Annotated[list[GpuModel], Field(min_length=1)]


class CudaDriver(Record):
    """The NVIDIA driver NVIDIA pairs with one CUDA toolkit release (its release notes, Table 3)."""

    cuda: Version = Field(description="The CUDA minor version of the wheels: '12.8' for cu128.")
    toolkit: Text = Field(description="The toolkit release the row names: 'CUDA 12.8 GA'.")
    linux: DottedVersion = Field(description="Minimum Linux x86_64 driver.")
    windows: DottedVersion | None = Field(
        default=None, description="Minimum Windows driver; null when NVIDIA's table gives none."
    )
    sources: Annotated[list[Slug], Field(min_length=1)]


class DriverFloor(Record):
    """The oldest driver a CUDA major version runs on under minor-version compatibility."""

    major: Annotated[str, StringConstraints(pattern=r"^[0-9]+$")]
    linux: DottedVersion
    windows: DottedVersion | None = None
    sources: Annotated[list[Slug], Field(min_length=1)]


class DriverTable(Record):
    """data/drivers.yaml: which NVIDIA driver each CUDA build of the wheels needs."""

    reviewed: IsoDate
    builds: Annotated[list[CudaDriver], Field(min_length=1)]
    floors: list[DriverFloor] = []
