"""Renderer for the `stack` command: its answers as text for people or JSON for machines."""

from __future__ import annotations

import json

from macros.query.ecosystem import Answer


def as_json(target: str, answers: list[Answer]) -> str:
    packages = [
        {
            "name": a.name,
            "version": a.version,
            "requires": a.requires,
            "allows_target": a.allows_target,
            "first_allowing": a.first_allowing,
        }
        for a in answers
    ]
    return json.dumps({"target": target, "packages": packages}, indent=2, ensure_ascii=False) + "\n"


def as_text(target: str, answers: list[Answer], uncovered: list[str]) -> str:
    blocking = [a for a in answers if a.allows_target is False]
    allowing = [a for a in answers if a.allows_target]
    unknown = [a for a in answers if a.allows_target is None]
    lines = [
        f"torch {target}: {len(blocking)} of {len(answers)} packages block it, {len(allowing)} allow it, "
        f"{len(unknown)} unknown"
    ]
    for a in blocking:
        upgrade = (
            f"first release allowing {target}: {a.first_allowing}" if a.first_allowing else "no release allows it yet"
        )
        lines.append(f"  blocks   {a.name} {a.version} ({a.requires}); {upgrade}")
    for a in allowing:
        lines.append(f"  allows   {a.name} {a.version} ({a.requires or 'no torch requirement'})")
    for a in unknown:
        upgrade = f"; first release allowing {target}: {a.first_allowing}" if a.first_allowing else ""
        lines.append(f"  unknown  {a.name} {a.version or '(no matching release)'}: {a.note}{upgrade}")
    if uncovered:
        lines.append(f"not in the ecosystem snapshot (not checked): {', '.join(uncovered)}")
    return "\n".join(lines) + "\n"
