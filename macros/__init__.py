"""PyTorch Release Atlas: release data -> validated model -> queries -> Markdown for MkDocs.

The package is the site's library, in folders that follow the flow:
`dataset/` (load and validate) -> `query/` (answers as records) -> `render/` (Markdown, JSON, feed;
`render/pages.py` is the registry of generated pages) -> the edges: `define_env` below (macros for
hand-written pages) and `hooks.py` (generated pages, nav, finished HTML). Only the edges import
MkDocs or the macros plugin. `tools/` and `__main__.py` are the contributors' command line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def define_env(env: Any) -> None:
    """mkdocs-macros entry point: the macros hand-written pages call (`{{ release_list() }}`).

    Generated pages do not go through the macros plugin: the hook adds them already rendered."""
    from macros.render.pages import PAGE_MACROS

    def with_catalog(render: Callable[..., str]) -> Callable[..., str]:
        # The catalog the hook loaded for this build (under `mkdocs serve` with broken data, the
        # last good one), so that hand-written pages and generated pages always agree.
        return lambda *args, **kwargs: render(env.conf["extra"]["atlas_catalog"], *args, **kwargs)

    for name, render in PAGE_MACROS.items():
        env.macro(with_catalog(render), name)
