"""Render: the plan for a machine as the sentences the guides print (`python -m macros doctor`).

The page's script (docs/assets/atlas.js, `planSentences`) writes the same sentences from the same
plan; the corpus test compares both. Pure text: the plan comes from query/planner.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from macros.dataset.vocabulary import CPU, CUDA, MACOS
from macros.query.planner import Machine, Plan, Step


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def reason(step: Step) -> str:
    """Why a release does not run the machine, as a clause."""
    d = step.detail
    kind = step.blocker
    if kind == "platform":
        return f"PyPI has no {d['platform']} wheel of it"
    if kind == "intel-mac":
        return "it has no wheel for an Intel Mac (macOS x86_64)"
    if kind == "python":
        regular = [p for p in d["range"] if not p.endswith("t")]
        return f"it has no wheel for Python {d['python']} (only {regular[0]} to {regular[-1]})"
    if kind == "glibc":
        return f"its Linux wheels need glibc {d['floor']} or newer (this machine has {d['have']})"
    if kind == "macos":
        return f"its macOS wheels need macOS {d['floor']} or newer (this Mac has {d['have']})"
    if kind == "gpu":
        known = "cuda-builds" in step.partial
        wheels = ", ".join(d["wheels"])
        return (
            f"no {'CUDA wheel the data knows' if known else 'CUDA wheel'} ({wheels}) has code for sm_"
            + d["capability"].replace(".", "")
            + (" (the data knows only some of its CUDA builds)" if known else "")
        )
    if kind in ("rocm", "xpu"):
        label = "ROCm" if kind == "rocm" else "XPU"
        if not d.get("known"):
            return f"the data does not know its {label} wheels"
        return f"it has no {label} wheel" + (f" for {d['platform']}" if d.get("platform") else "")
    if kind == "driver":
        return f"the NVIDIA driver {d['driver']} is older than {d['needs']}, the oldest its {d['wheel']} wheel runs on"
    return kind


def _ranges(steps: tuple[Step, ...]) -> list[tuple[str, str, str]]:
    """Consecutive releases stopped for the same reason: (first, last, reason)."""
    groups: list[tuple[str, str, str]] = []
    for step in steps:
        text = reason(step)
        if groups and groups[-1][2] == text:
            groups[-1] = (groups[-1][0], step.release, text)
        else:
            groups.append((step.release, step.release, text))
    return groups


def head(plan: Plan, partial_text: Mapping[str, str]) -> str:
    if plan.newest is None:
        return "No PyTorch release this site covers runs this machine."
    step = plan.newest
    text = f"The newest PyTorch that runs this machine: {step.patch} (wheel {step.wheel})."
    if step.detail.get("driver") == "compat":
        text += (
            f" Its NVIDIA driver is older than the one NVIDIA pairs with this CUDA build; the wheel runs on it"
            f" under NVIDIA's minor-version compatibility (from {step.detail['needs']}), with its limits."
        )
    if step.partial:
        text += " Known only in part: " + "; ".join(partial_text[key] for key in step.partial) + "."
    return text


def sentences(
    plan: Plan, machine: Machine, tables: Mapping[str, Any], *, to: str = "", torch: str = "", build: str = ""
) -> list[str]:
    """The answer, first sentence first: the newest release and its wheel, the command, why no newer
    release runs, what would unlock more; with `to` (a guide's B), whether B runs here."""
    lines = [head(plan, tables["partial"])]
    if plan.command:
        lines.append(plan.command)
    if torch and to and _key(torch) >= _key(to):
        kind = " (a nightly build)" if build == "nightly" else " (built from source)" if build == "source" else ""
        lines.append(f"You already run PyTorch {torch}{kind}: at or past {to}.")
    if to and plan.newest and _key(to) > _key(plan.newest.release):
        stop = next((step for step in plan.blocked if step.release == to), None)
        if stop:
            newest = plan.newest.release
            lines.append(f"{to} does not run this machine: {reason(stop)}. The newest release that does is {newest}.")
    for first, last, text in _ranges(plan.blocked):
        span = first if first == last else f"{first} to {last}"
        lines.append(f"Not {span}: {text}.")
    for unlock in plan.unlocks:
        what = {
            "driver": f"An NVIDIA driver {unlock.value} or newer",
            "python": f"Python {unlock.value}",
            "macos": f"macOS {unlock.value} or newer",
            "glibc": f"glibc {unlock.value} or newer",
        }[unlock.kind]
        lines.append(f"{what} would run {unlock.release}.")
    step = plan.newest
    if step and step.wheel == CPU and machine.os == MACOS and machine.arch == "x86_64":
        mps = next(r["mps"] for r in tables["releases"] if r["version"] == step.release)
        lines.append(f"On an Intel Mac with an AMD GPU this wheel also runs MPS, from macOS {mps}.")
    if machine.accelerator == CUDA and not machine.capabilities:
        lines.append("The GPU was not read or is not in the site's list: its compute capability is not checked.")
    return lines
