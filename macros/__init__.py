"""PyTorch Release Atlas: release data -> validated model -> Markdown for MkDocs.

The package is the site's library. Its stages, in the one direction data flows:
`load` -> `model` -> `checks` -> `catalog` -> `render` (+ `install`, `pages`, `coverage`).
Two edges connect it to MkDocs and are the only modules that import mkdocs or the macros plugin:
`define_env` below (the macros each page calls) and `macros/hooks.py` (generated pages, nav).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def define_env(env: Any) -> None:
    """mkdocs-macros entry point: register the macros pages call. Bodies stay thin."""
    from macros.catalog import open_catalog
    from macros.render.about import render_known_gaps, render_sources_table
    from macros.render.compare import render_compare_index, render_compare_page
    from macros.render.home import render_latest_release, render_release_list
    from macros.render.release import render_release_page
    from macros.render.upgrade import render_upgrade_guide, render_upgrade_index

    data_dir = Path(env.conf["config_file_path"]).parent / "data"

    def catalog():  # cached in `open_catalog`: one parse per build, shared with the hook
        return open_catalog(data_dir)

    @env.macro
    def release_page(version: str) -> str:
        return render_release_page(catalog(), version)

    @env.macro
    def latest_release() -> str:
        return render_latest_release(catalog())

    @env.macro
    def release_list(prefix: str = "releases/") -> str:
        return render_release_list(catalog(), prefix)

    @env.macro
    def sources_table() -> str:
        return render_sources_table(catalog())

    @env.macro
    def known_gaps() -> str:
        return render_known_gaps(catalog())

    @env.macro
    def upgrade_guide(start: str, end: str) -> str:
        return render_upgrade_guide(catalog(), start, end)

    @env.macro
    def upgrade_index() -> str:
        return render_upgrade_index(catalog())

    @env.macro
    def compare_table(name: str) -> str:
        return render_compare_page(catalog(), name)

    @env.macro
    def compare_index() -> str:
        return render_compare_index(catalog())
