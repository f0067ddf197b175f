"""Query: a pasted `python -m torch.utils.collect_env` read as facts, the way the guides read it.

The same reading rules as docs/assets/atlas-env.js (`parseCollectEnv`, `gpuModel`, `oldestGpu`,
`machineOf`), for the command line (`python -m macros doctor`); a test runs both on every output of
the corpus (tests/js/corpus/) and requires the same reading and the same plan. The vocabulary
(operating systems, wheel families) and the GPU list come from the catalog, as the page's come
from the facts the build writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from macros.dataset.model import GpuModel, GpuTable, version_key
from macros.dataset.vocabulary import CPU, CUDA, LINUX, MACOS, MPS, ROCM, SOURCE, WINDOWS, XPU
from macros.query.planner import Machine

#: Every label collect_env has printed for the fields read here (torch's and vLLM's copy).
LABELS: dict[str, str] = {
    "pytorch version": "torchVersion",
    "cuda used to build pytorch": "cudaBuild",
    "rocm used to build pytorch": "rocmBuild",
    "os": "os",
    "python version": "python",
    "python platform": "pythonPlatform",
    "is cuda available": "cudaAvailable",
    "gpu models and configuration": "gpus",
    "nvidia driver version": "driver",
    "is xpu available": "xpuAvailable",
    "xpu used to build pytorch": "xpuBuild",
    "is debug build": "debug",
    "cuda runtime version": "cudaRuntime",
    "cudnn version": "cudnn",
    "hip runtime version": "hip",
    "miopen runtime version": "miopen",
    "gcc version": "gcc",
    "clang version": "clang",
    "cmake version": "cmake",
    "libc version": "libc",
    "cuda_module_loading set to": "moduleLoading",
    "is xnnpack available": "xnnpack",
}
_NOT_COLLECTED = re.compile(r"^(could not collect|n/a|none|no cuda|unknown|)$", re.I)
_LABEL = re.compile(r"^([A-Za-z][A-Za-z0-9_ ./-]{0,40}?)\s*:(?:\s+|$)(.*)$")
_LABEL_START = re.compile(r"^([A-Za-z][A-Za-z0-9_ ./-]{0,40}?)\s*:")
_AMD = re.compile(r"AMD|Radeon|Instinct|gfx\d", re.I)


@dataclass
class Field:
    value: str
    line: int


@dataclass
class Reading:
    torch: str = ""  # "2.7"
    torch_full: str = ""  # "2.7.0+cu126"
    build: str = ""  # release, nightly, source
    variant: str = ""
    os: str = ""
    os_name: str = ""
    arch: str = ""
    wsl: bool = False
    python: str = ""
    gpus: list[str] = field(default_factory=list)
    gpu_text: str = ""
    gpu_line: bool = False  # a "GPU models and configuration:" line was there (a cut paste may lack it)
    driver: str = ""
    macos: str = ""
    glibc: str = ""
    hip: bool = False
    cuda_available: bool | None = None


def _unquote(line: str) -> str:
    return re.sub(r"^\s+", "", re.sub(r"^[\s>]*>\s?", "", line))


def _label(name: str) -> str | None:
    return LABELS.get(re.sub(r"\s+", " ", name).lower())


def _fields(text: str) -> tuple[dict[str, Field], list[str]]:
    text = re.sub(r"\r\n?", "\n", text)
    text = re.sub(r"([^\n])[ \t]+(PyTorch version\s*:)", r"\1\n\2", text)
    lines = [_unquote(line) for line in text.split("\n")]
    fields: dict[str, Field] = {}
    for index, line in enumerate(lines):
        match = _LABEL.match(line)
        if not match:
            continue
        name = _label(match.group(1))
        if not name or name in fields:
            continue
        fields[name] = Field(match.group(2).strip(), index)
    for name, entry in fields.items():
        following = lines[entry.line + 1] if entry.line + 1 < len(lines) else None
        if not entry.value and name != "gpus" and following is not None and not _is_label(following):
            entry.value = following.strip()
    return fields, lines


def _is_label(line: str) -> bool:
    match = _LABEL_START.match(line)
    return bool(match and _label(match.group(1)))


def _collected(entry: Field | None) -> bool:
    return bool(entry and not _NOT_COLLECTED.match(entry.value.strip()))


def _torch(value: str) -> tuple[str, str, str, str] | None:
    """(minor, full, local, build) of '2.6.0.dev20241112+cpu', '2.5.0a0+git1234', '2.7.0+rocm6.3'."""
    match = re.match(r"^v?(\d+)\.(\d+)(?:\.(\d+))?([A-Za-z0-9.]*)(?:\+(\S+))?", value)
    if not match:
        return None
    pre, local = match.group(4) or "", match.group(5) or ""
    if re.search(r"dev\d", pre):
        build = "nightly"
    elif re.search(r"git|^[0-9a-f]{7,}$|\.nv\d", local) or pre.endswith("a0"):
        build = SOURCE
    else:
        build = "release"
    return f"{match.group(1)}.{match.group(2)}", match.group(0), local, build


def _variant(torch: tuple[str, str, str, str] | None, fields: dict[str, Field], os: str, arch: str) -> str:
    local = torch[2] if torch else ""
    if re.match(r"^cu\d{3}$", local) or local in (CPU, XPU):
        return local
    tagged = re.match(rf"^{ROCM}(\d+\.\d+)", local)
    if tagged:
        return ROCM + tagged.group(1)
    cuda = fields.get("cudaBuild")
    cuda_match = re.match(r"^(\d+)\.(\d+)", cuda.value) if cuda else None
    if cuda_match:
        return f"cu{cuda_match.group(1)}{cuda_match.group(2)}"
    rocm = fields.get("rocmBuild")
    rocm_match = re.match(r"^(\d+)\.(\d+)", rocm.value) if rocm else None
    if rocm_match:
        return f"{ROCM}{rocm_match.group(1)}.{rocm_match.group(2)}"
    xpu_available = fields.get("xpuAvailable")
    if _collected(fields.get("xpuBuild")) and xpu_available and re.search("true", xpu_available.value, re.I):
        return XPU
    if not torch:
        return ""
    # macOS wheels: the Apple silicon ones carry MPS; the Intel ones run MPS only with an AMD GPU.
    if os == MACOS:
        return CPU if arch == "x86_64" else MPS
    if cuda and re.match(r"^none$", cuda.value, re.I):
        return CPU
    return ""


def _os(fields: dict[str, Field]) -> tuple[str, str, str, bool]:
    value = fields["os"].value if "os" in fields else ""
    platform = fields["pythonPlatform"].value if "pythonPlatform" in fields else ""
    found = re.search(r"\((x86_64|aarch64|arm64|ppc64le|s390x|AMD64)\)", value, re.I) or re.search(
        r"(x86_64|aarch64|arm64|AMD64)", platform, re.I
    )
    arch = found.group(1).lower() if found else ""
    arch = "x86_64" if arch == "amd64" else arch
    os = ""
    if _collected(fields.get("os")):
        if re.search("windows", value, re.I):
            os = WINDOWS
        elif re.search(r"mac ?os|os ?x|darwin", value, re.I):
            os = MACOS
        elif re.search(
            r"linux|ubuntu|debian|centos|fedora|red hat|rhel|rocky|alma|suse|arch|gentoo|oracle|amazon|mint"
            r"|\((x86_64|aarch64|ppc64le|s390x)\)",
            value,
            re.I,
        ):
            os = LINUX
    if not os and re.match("^Windows-", platform, re.I):
        os = WINDOWS
    if not os and re.match("^macOS-", platform, re.I):
        os = MACOS
    if not os and re.match("^Linux-", platform, re.I):
        os = LINUX
    if re.search("windows", value, re.I) and not arch:
        # `(10.0.26100 64 位)` in another language: Python's own line says `(AMD64)` too.
        python = fields.get("python")
        bitness = value + platform + (python.value if python else "")
        arch = "x86_64" if re.search(r"64-bit|64 bit|\(AMD64\)", bitness, re.I) else ""
    name = value if _collected(fields.get("os")) else ""
    return os, name, arch, bool(re.search(r"microsoft-standard-WSL|WSL2", platform, re.I))


def _gpus(fields: dict[str, Field], lines: list[str]) -> tuple[list[str], str] | None:
    entry = fields.get("gpus")
    if not entry:
        return None
    names = []
    own = re.match(r"^GPU \d+:\s*(.+)$", entry.value)
    if own:
        names.append(own.group(1).strip())
    for line in lines[entry.line + 1 :]:
        gpu = re.match(r"^GPU \d+:\s*(.+)$", line)
        if gpu:
            names.append(gpu.group(1).strip())
            continue
        if re.match(r"^MIG\b", line) or (not line and not names and not entry.value):
            continue
        break
    if not names and _collected(entry):
        names.append(entry.value.strip())
    return names, entry.value


def parse_collect_env(text: str) -> Reading:
    """The reading of a paste (atlas-env.js `parseCollectEnv`)."""
    fields, lines = _fields(text)
    reading = Reading()
    torch = _torch(fields["torchVersion"].value) if _collected(fields.get("torchVersion")) else None
    if torch:
        reading.torch, reading.torch_full, _, reading.build = torch
    reading.os, reading.os_name, reading.arch, reading.wsl = _os(fields)
    reading.variant = _variant(torch, fields, reading.os, reading.arch)
    python = fields.get("python")
    match = re.match(r"^(\d+)\.(\d+)", python.value) if python else None
    if python and match:
        threaded = "t" if re.search("free-?threading", python.value, re.I) else ""
        reading.python = f"{match.group(1)}.{match.group(2)}{threaded}"
    available = fields.get("cudaAvailable")
    if available:
        reading.cuda_available = bool(re.match(r"^true|^yes", available.value, re.I))
    gpus = _gpus(fields, lines)
    reading.gpu_line = gpus is not None
    if gpus:
        reading.gpus, reading.gpu_text = gpus
    driver = fields.get("driver")
    if driver and _collected(driver):
        found = re.match(r"^\d+(\.\d+)+", driver.value)
        if found:
            reading.driver = found.group(0)
    if reading.os == MACOS:
        mac = re.search(r"mac ?os ?x?\s*(\d+(?:\.\d+)*)", reading.os_name, re.I)  # also `Mac OSX 11.0`
        reading.macos = mac.group(1) if mac else ""
    libc = fields.get("libc")
    glibc = re.search(r"glibc[- ]?(\d+\.\d+)", libc.value, re.I) if libc else None
    reading.glibc = glibc.group(1) if glibc else ""
    reading.hip = _collected(fields.get("hip")) or _collected(fields.get("miopen"))
    return reading


# --- GPU models -------------------------------------------------------------------------------------


def _tokens(name: str) -> list[str]:
    text = re.sub(r"\(tm\)|\(r\)", " ", name.lower())
    text = re.sub(r"\b(nvidia|geforce|tesla|gpu|generation|graphics)\b", " ", text)
    return [word for word in re.split(r"[^a-z0-9]+", text) if word]


def _contains(haystack: list[str], needle: list[str]) -> bool:
    return any(haystack[start : start + len(needle)] == needle for start in range(len(haystack) - len(needle) + 1))


def gpu_model(name: str, table: GpuTable | None) -> GpuModel | None:
    """The model whose name or alias is the longest run of words inside the printed name."""
    printed = _tokens(name)
    best, length = None, 0
    for model in table.models if table else []:
        for label in [model.name, *model.aliases]:
            words = _tokens(label)
            if len(words) > length and _contains(printed, words):
                best, length = model, len(words)
    return best


def machine_of(reading: Reading, table: GpuTable | None) -> Machine:
    """What the plan needs, from a reading (atlas-env.js `machineOf`)."""
    nvidia = [name for name in reading.gpus if not _AMD.search(name)]
    amd = [name for name in reading.gpus if _AMD.search(name)]
    models = [gpu_model(name, table) for name in nvidia]
    capabilities = tuple(sorted({m.capability for m in models if m}, key=version_key))
    unknown = any(m is None for m in models)
    variant = reading.variant
    if reading.os == MACOS:
        accelerator = ""
    # A source build names the toolkit it was built with, not a GPU it saw: only a wheel's name counts.
    elif (variant.startswith(ROCM) and reading.build != SOURCE) or amd or (reading.hip and not nvidia):
        accelerator = ROCM
    elif variant == XPU:
        accelerator = XPU
    elif (
        capabilities
        or (nvidia and reading.driver)
        or (re.match(r"^cu\d", variant) and (reading.driver or reading.cuda_available))
    ):
        accelerator = CUDA
    elif reading.os:
        accelerator = CPU
    else:
        accelerator = ""
    return Machine(
        os=reading.os,
        arch=reading.arch,
        python=reading.python,
        accelerator=accelerator,
        capabilities=capabilities,
        gpu_unknown=unknown or (accelerator == CUDA and not capabilities),
        driver=reading.driver,
        os_version=reading.macos if reading.os == MACOS else reading.glibc if reading.os == LINUX else "",
        amd_gpu=bool(amd) and reading.os == MACOS,
        gpu_unread=not reading.gpu_line and reading.os != MACOS,
    )
