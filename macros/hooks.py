"""MkDocs hook (an edge): check the data, generate one page per release, fill the nav.

Runs in every `mkdocs build` and `mkdocs serve` rebuild:
- `on_config`: load and check data/ (cached by mtime+size). Any problem stops the build before
  anything is written, with every problem listed as file:line:column: field: message. Also hands
  the site's Markdown settings to the renderers that convert fragments ahead (`finished_markdown`).
- `on_files`: add the generated pages as virtual files (`File.generated`), at priority 50 so
  plugins that run later see them.
- `on_page_content`: put back the finished HTML blocks renderers set aside (render/html_blocks.py),
  first, so that plugins see each page whole.
- `on_env`: keep the theme's compiled templates between builds (about 0.25 s of each build).
- `on_pre_page`: date every page from the data, never from the clock, so that two builds of one
  commit are byte-identical.
"""

from __future__ import annotations

import sys
from pathlib import Path

# MkDocs loads hooks by file path; make the `macros` package importable from the project root.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import jinja2  # noqa: E402
from mkdocs.config.defaults import MkDocsConfig  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402
from mkdocs.structure.pages import Page  # noqa: E402

from macros.api import api_files, atom_feed  # noqa: E402
from macros.catalog import Catalog, open_catalog  # noqa: E402
from macros.pages import compare_nav, generated_pages, release_nav  # noqa: E402
from macros.problems import DataError  # noqa: E402
from macros.render.html_blocks import forget_all, put_back  # noqa: E402
from macros.render.text import compiled_template_cache, use_site_markdown  # noqa: E402


def _catalog(config: MkDocsConfig) -> Catalog:
    try:
        return open_catalog(Path(config.config_file_path).parent / "data")
    except DataError as error:
        raise PluginError(error.report()) from None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    forget_all()  # a `mkdocs serve` rebuild starts clean even if the last one failed midway
    use_site_markdown(config.markdown_extensions, config.mdx_configs)
    catalog = _catalog(config)
    # Counts for the footer. Not named `items`: Jinja would find dict.items before the key.
    config.extra["atlas"] = {
        "release_count": len(catalog.releases),
        "item_count": len(catalog.items),
        "source_count": len(catalog.sources),
        "reviewed": catalog.reviewed or catalog.latest.date,
    }
    sections = {
        "Releases": [{"All releases": "releases/index.md"}, *release_nav(catalog)],
        "Compare": [{"All tables": "compare/index.md"}, *compare_nav()],
    }
    for entry in config.nav or []:
        for title, pages in sections.items():
            if isinstance(entry, dict) and title in entry:
                entry[title] = pages
    return config


@event_priority(50)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    catalog = _catalog(config)
    for page in generated_pages(catalog):
        files.append(File.generated(config, page.path, content=page.source()))
    site_url = config.site_url or "http://127.0.0.1:8000/"
    machine_files = {**api_files(catalog, site_url), "feed.xml": atom_feed(catalog, site_url, config.site_name)}
    for path, text in machine_files.items():
        files.append(File.generated(config, path, content=text))
    return files


@event_priority(100)
def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return put_back(html)


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    # MkDocs makes a new theme environment per build, so without a cache it compiles Material's
    # ~70 templates again on every build and every `mkdocs serve` rebuild.
    env.bytecode_cache = compiled_template_cache()
    return env


def on_pre_page(page: Page, config: MkDocsConfig, files: Files) -> Page:
    # MkDocs stamps each page with the build day, which ends up in sitemap.xml's <lastmod> and in
    # the gzip header of sitemap.xml.gz. The data's review date is the day the content last changed.
    page.update_date = config.extra["atlas"]["reviewed"]
    return page
