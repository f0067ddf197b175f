"""MkDocs hook used only by the benchmark (tests/perf/bench.py): writes out what our build feeds to
MkDocs, so that plain MkDocs can build the same site without macros, hook or data.

Enabled by a config that INHERITs mkdocs.yml and adds this file to `hooks`; writes under the
folder named by ATLAS_BENCH_DUMP: `docs/<page>.md` (front matter plus the Markdown after macros
rendered it) and `config.json` (the nav and `extra` our hook filled in).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml
from macros.render.html_blocks import put_back
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

DUMP = Path(os.environ["ATLAS_BENCH_DUMP"])


@event_priority(-100)  # after our hook filled the nav
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    DUMP.mkdir(parents=True, exist_ok=True)
    settings = {"nav": config.nav, "extra": {"atlas": config.extra["atlas"]}}
    (DUMP / "config.json").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    return config


@event_priority(-100)  # after the macros plugin rendered the page
def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    meta = {key: value for key, value in page.meta.items() if key != "render_macros"}
    target = DUMP / "docs" / page.file.src_uri
    target.parent.mkdir(parents=True, exist_ok=True)
    # The baseline gets the finished HTML our hook puts in after conversion (here as raw HTML in
    # the Markdown, the only way plain MkDocs can build the same page); `keep` leaves it for our
    # hook, which still has to put it back in this build.
    markdown = put_back(markdown, keep=True)
    front = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) if meta else ""
    target.write_text(f"---\n{front}---\n\n{markdown}" if front else markdown, encoding="utf-8")
    return markdown
