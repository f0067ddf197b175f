"""PyTorch Release Atlas: release data -> validated model -> queries -> Markdown for MkDocs.

The package is the site's library, in folders that follow the flow:
`dataset/` (load and validate) -> `query/` (answers as records) -> `render/` (Markdown, JSON, feed;
`render/pages.py` is the registry of generated pages) -> the edges: `define_env` below (macros for
hand-written pages) and `hooks.py` (generated pages, nav, finished HTML). Only the edges import
MkDocs or the macros plugin. `tools/` and `__main__.py` are the contributors' command line.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


class MacroCallError(Exception):
    """A hand-written page calls a macro with arguments it does not take, said in one line."""


def define_env(env: Any) -> None:
    """mkdocs-macros entry point: the macros hand-written pages call (`{{ release_list() }}`).

    Generated pages do not go through the macros plugin: the hook adds them already rendered. A
    call with arguments the macro does not take, or values it refuses, stops the build with one
    line naming the page, its line and the call (mkdocs-macros would print a traceback)."""
    from macros.render.pages import PAGE_MACROS

    def with_catalog(name: str, render: Callable[..., str]) -> Callable[..., str]:
        # The catalog the hook loaded for this build (under `mkdocs serve` with broken data, the
        # last good one), so that hand-written pages and generated pages always agree.
        signature = inspect.signature(render)
        parameters = list(signature.parameters.values())[1:]
        takes = ", ".join(p.name if p.default is p.empty else f"{p.name}={p.default!r}" for p in parameters)
        takes = takes or "no arguments"

        def call(*args: Any, **kwargs: Any) -> str:
            shown = ", ".join([*(repr(a) for a in args), *(f"{k}={v!r}" for k, v in kwargs.items())])[:200]
            try:
                signature.bind(None, *args, **kwargs)
            except TypeError as error:
                raise MacroCallError(f"{{{{ {name}({shown}) }}}}: {error}; it takes: {takes}") from None
            try:
                return render(env.conf["extra"]["atlas_catalog"], *args, **kwargs)
            except (ValueError, LookupError, TypeError) as error:
                if not (args or kwargs):
                    raise  # a bug, not a bad argument: the traceback is wanted
                raise MacroCallError(f"{{{{ {name}({shown}) }}}}: {type(error).__name__}: {error}") from None

        return call

    for name, render in PAGE_MACROS.items():
        env.macro(with_catalog(name, render), name)
    _one_line_macro_errors()


def _one_line_macro_errors() -> None:
    """mkdocs-macros reports an error with its traceback; ours are said in one line: page:line: call."""
    try:
        from mkdocs_macros.errors import format_error
    except ImportError:  # another version of the plugin: its own report stands
        return

    def one_line(error: MacroCallError, markdown: str, page: Any) -> str:
        call = str(error).split("(", 1)[0].removeprefix("{{ ")
        # The page as written (front matter included), so the line is the one an editor shows.
        source = getattr(page.file, "content_string", None) or markdown
        line = next((n for n, text in enumerate(source.splitlines(), 1) if f"{call}(" in text), 0)
        return f"{page.file.src_path}:{line}: {' '.join(str(error).split())}"

    format_error.register(MacroCallError, one_line)
