"""MkDocs hook (an edge): the generated pages, the nav, the finished HTML, the watcher.

Runs in every `mkdocs build` and `mkdocs serve` rebuild, and only connects MkDocs to the library:
- `on_config`: load and check data/ (cached by content: a save is seen whatever its file time). Any
  problem stops the build before anything is written, listing every problem as file:line:column:
  field: message. Under `mkdocs serve`, once a good build exists, a problem instead keeps the last
  good data: the terminal and a banner on every page show the problems until the file is fixed, and
  no request waits for a build that cannot happen. Fills the nav (and `not_in_nav`) from the page-
  type registry (`query/site.py`) and the generated pages (`render/pages.py`), and the footer's
  counts, and leaves the catalog in `config.extra` for `define_env`.
- `on_files`: adds each registered page, rendered, as a virtual file (`File.generated`), and the
  JSON API and feed; at priority 50 so that plugins which run later see them. Each page's finished
  HTML comes back with its Markdown and is kept here, by page, for this build only. Under
  `mkdocs serve --dirty` (`make serve`), it also tells MkDocs which pages changed
  (`incremental.py`); `on_env`, `on_post_page`, `on_post_build` and `on_build_error` restore the
  skipped pages, keep what the next rebuild needs, merge the search index, or forget it all.
  `on_post_build` also gives each search entry its ranking boost and trims what nobody searches
  for (`render/search_rank.py`).
  The cycle collector is paused from `on_config` to here, and what the build keeps is then frozen
  (`gc.freeze`) until `on_post_build` or `on_build_error`.
- `on_page_content`: puts that finished HTML back, first, so that plugins see each page whole.
- `on_env`: keeps the theme's compiled templates in memory across `mkdocs serve` rebuilds.
- `on_pre_page`: dates every page from the data, never from the clock (byte-identical builds).
- `on_post_page`: drops `autocomplete` from Material's two checkbox toggles (invalid HTML).
- `on_serve`: swaps MkDocs' polling watcher (0.5 s) for the operating system's file events, writes
  only (reads would start a rebuild loop).

If the site ever leaves MkDocs' hooks, `python -m macros materialize OUT` writes the same pages
as plain files and a config without hooks (see CONTRIBUTING.md, "Exit plan").
"""

from __future__ import annotations

import gc
import html
import logging
import secrets
import sys
import traceback
from collections.abc import Callable, Collection, Mapping
from functools import partial
from pathlib import Path

# MkDocs loads hooks by file path; make the `macros` package importable from the project root.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import jinja2  # noqa: E402
import pathspec  # noqa: E402  (MkDocs' own dependency: its `not_in_nav` patterns)
from mkdocs.config.defaults import MkDocsConfig  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.livereload import LiveReloadServer  # noqa: E402
from mkdocs.plugins import CombinedEvent, event_priority  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402
from mkdocs.structure.pages import Page  # noqa: E402

from macros.dataset.problems import DataError, visible  # noqa: E402
from macros.incremental import IncrementalServe, Swappable, fingerprint, tree_stamp  # noqa: E402
from macros.query.catalog import Catalog, open_catalog  # noqa: E402
from macros.query.site import not_in_nav  # noqa: E402
from macros.render.markdown import Rendered, put_back  # noqa: E402
from macros.render.pages import PAGE_MACROS, GeneratedPage, footer_facts, generated_pages, machine_files, nav  # noqa: E402
from macros.render.search_rank import rank_entries, trim_entries  # noqa: E402

log = logging.getLogger("mkdocs.hooks.atlas")
# mkdocs-macros announces at INFO, on every build, where it found our module: noise in `make serve`.
logging.getLogger("mkdocs.plugins.mkdocs_macros").setLevel(logging.WARNING)

#: Page source path -> its finished HTML blocks, for the build under way (replaced by each on_files).
_finished_html: dict[str, Mapping[str, str]] = {}


class _Serving:
    """What `mkdocs serve` remembers between rebuilds."""

    active = False
    last_good: Catalog | None = None
    error: DataError | None = None
    #: An error other than the data's problems that stopped the last rebuild (a renderer's bug, an
    #: unreadable page), as one line: the rebuild is made again from the last good data, with it.
    failure: str | None = None
    #: The catalog of the rebuild under way: the last good one once that rebuild has succeeded.
    pending: Catalog | None = None


#: `mkdocs serve --dirty` (make serve): rebuild only the pages that changed (`incremental.py`).
_incremental = IncrementalServe()


def on_startup(command: str, dirty: bool) -> None:
    _Serving.active = command == "serve"
    _incremental.start(command, dirty)


def _catalog(config: MkDocsConfig) -> Catalog:
    if _Serving.failure is not None and _Serving.last_good is not None:
        return _Serving.last_good
    try:
        catalog = open_catalog(Path(config.config_file_path).parent / "data")
    except DataError as error:
        if not (_Serving.active and _Serving.last_good):
            raise PluginError(error.report()) from None
        # Not logged as an error: `serve --strict` would turn it into a failed build, and MkDocs
        # then holds every request until a build succeeds.
        if _Serving.error is None or _Serving.error.problems != error.problems:
            print(error.report().replace("nothing was built", "serving the last good data"), file=sys.stderr)
        _Serving.error = error
        return _Serving.last_good
    if _Serving.error is not None:
        print("The data is good again.", file=sys.stderr)
    _Serving.error, _Serving.pending = None, catalog
    if _Serving.last_good is None:
        _Serving.last_good = catalog  # the first build: a failure stops `mkdocs serve` anyway
    return catalog


def _banner() -> str | None:
    """Under `mkdocs serve`, what every page shows while the last rebuild could not be made."""
    if _Serving.error is not None:
        count = len(_Serving.error.problems)
        title = f"The data has {count} problem{'s' if count != 1 else ''}"
        lines = [str(problem) for problem in _Serving.error.problems]
    elif _Serving.failure is not None:
        title, lines = "The last rebuild failed", [_Serving.failure]
    else:
        return None
    shown = "\n".join(html.escape(line) for line in lines)
    return (
        '<div class="admonition failure atlas-data-error" role="alert">'
        f'<p class="admonition-title">{title}: this page shows the last good data until it is fixed</p>'
        f"<pre><code>{shown}</code></pre></div>\n"
    )


def _one_line(error: BaseException) -> str:
    """`file:line: Type: message`, at the innermost frame in the project, for the banner."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if Path(frame.filename).is_relative_to(ROOT)]
    where = f"{Path(frames[-1].filename).relative_to(ROOT)}:{frames[-1].lineno}: " if frames else ""
    return visible(f"{where}{type(error).__name__}: {' '.join(str(error).split())[:500]}")


def _resilient(build: Callable[[], None]) -> Callable[[], None]:
    """`mkdocs serve`'s rebuild, made to end in a site whatever goes wrong.

    MkDocs holds every request while a rebuild has not succeeded. Data problems already fall back
    to the last good data (`_catalog`); any other error (a renderer's bug, a page that cannot be
    read) is printed with its traceback, and the rebuild is made again from the last good data
    with the error on the banner. Only if that fails too (an error outside the data: a
    hand-written page, mkdocs.yml) does MkDocs see it."""

    def rebuild() -> None:
        _Serving.failure = None
        try:
            build()
            return
        except Exception as error:
            if _Serving.last_good is None:
                raise
            # Whole, for the contributor; each line with the data's control characters escaped.
            print("\n".join(visible(line) for line in traceback.format_exc().splitlines()), file=sys.stderr)
            _Serving.failure = _one_line(error)
            print(f"The rebuild failed: {_Serving.failure}; serving the last good data", file=sys.stderr)
        build()

    return rebuild


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # Loading and rendering allocate hundreds of thousands of objects that live until the build
    # ends; the cycle collector would walk them again and again on the way (0.1 s of a cold
    # build). Paused here, resumed at the end of on_files (or by on_build_error).
    gc.disable()
    catalog = _catalog(config)
    config.extra["atlas_catalog"] = catalog
    # Not named `items`: Jinja would find dict.items before the key.
    config.extra["atlas"] = footer_facts(catalog)
    # The nav and what it leaves out come from the page-type registry (`query/site.py`), not mkdocs.yml.
    config.nav = nav(generated_pages(catalog))
    config.not_in_nav = pathspec.gitignore.GitIgnoreSpec.from_lines(not_in_nav().splitlines())
    if _incremental.active:
        _list_theme_files_once(config)
    return config


#: (theme folders, static templates, overrides' files, the filter's code, extensions) -> the
#: theme's files, for the life of a `mkdocs serve`.
_theme_listing: dict[tuple[object, ...], list[str]] = {}


def _list_theme_files_once(config: MkDocsConfig) -> None:
    """Under `mkdocs serve`: list the theme's files once, not on every rebuild.

    MkDocs lists every file of the theme on each build to copy its assets: Material's are
    thousands (its icons), each matched against a dozen patterns, 0.15 s of every rebuild. The
    listing is kept while the theme's folders, the overrides' files (by path, time and size) and
    the patterns (mkdocs.yml's static templates, the filter MkDocs passes) stay the same."""
    theme = config.theme
    custom_dir = Path(theme.custom_dir) if theme.custom_dir else None
    theme_key = (tuple(theme.dirs), tuple(theme.static_templates), tree_stamp(custom_dir) if custom_dir else ())
    make_env = theme.get_env

    def get_env() -> jinja2.Environment:
        env = make_env()
        list_templates = env.list_templates

        def listed_once(
            extensions: Collection[str] | None = None, filter_func: Callable[[str], bool] | None = None
        ) -> list[str]:
            key = (theme_key, tuple(extensions or ()), getattr(filter_func, "__code__", filter_func))
            if key not in _theme_listing:
                _theme_listing[key] = list_templates(extensions, filter_func)
            return list(_theme_listing[key])

        env.list_templates = listed_once  # type: ignore[method-assign]
        return env

    theme.get_env = get_env  # type: ignore[method-assign]


@event_priority(50)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    catalog: Catalog = config.extra["atlas_catalog"]
    _finished_html.clear()
    pages = generated_pages(catalog)
    page_prints: dict[str, str] = {}
    swappable: dict[str, Swappable] = {}
    for page in pages:
        rendered = page.build(catalog)
        files.append(File.generated(config, page.path, content=rendered.markdown))
        _finished_html[page.path] = rendered.finished_html
        if _incremental.active:
            page_prints[page.path], markdown_print = _page_prints(page.path, rendered)
            # Only a page search does not index: the search plugin reads the content it would skip.
            if not page.type.searchable:
                swappable[page.path] = Swappable(markdown_print, rendered.finished_html)
    site_url = config.site_url or "http://127.0.0.1:8000/"
    for path, text in machine_files(catalog, site_url, config.site_name).items():
        files.append(File.generated(config, path, content=text))
    if _incremental.active:
        hand_written = _hand_written(files)
        site_print = _site_print(files, config, pages, hand_written)
        macro_prints = _macro_page_prints(hand_written, catalog, config)
        _incremental.plan(files, config, site_print, page_prints, macro_prints, swappable)
    # What is alive now (catalog, rendered pages, imports) stays until the build ends: frozen, the
    # collector skips it while MkDocs builds the pages. Unfrozen when the build ends, so that
    # `mkdocs serve` can collect one build's objects during the next.
    gc.freeze()
    gc.enable()
    return files


#: path -> the last build's page and its fingerprints: a page kept across rebuilds (the same
#: object) keeps them too.
_printed: dict[str, tuple[Rendered, tuple[str, str]]] = {}


def _page_prints(path: str, rendered: Rendered) -> tuple[str, str]:
    """The page's fingerprint (Markdown and finished HTML), and its Markdown's alone."""
    kept = _printed.get(path)
    if kept is not None and kept[0] is rendered:
        return kept[1]
    markdown_print = fingerprint(rendered.markdown)
    made = (fingerprint(markdown_print, sorted(rendered.finished_html.items())), markdown_print)
    _printed[path] = (rendered, made)
    return made


def _hand_written(files: Files) -> dict[str, str]:
    return {
        file.src_uri: Path(file.abs_src_path).read_text(encoding="utf-8")
        for file in files.documentation_pages()
        if file.abs_src_path and not file.generated_by
    }


def _site_print(files: Files, config: MkDocsConfig, pages: list[GeneratedPage], hand_written: dict[str, str]) -> str:
    """What every page shows or depends on: when it changes, `mkdocs serve` rebuilds them all."""
    return fingerprint(
        hand_written,
        [(page.path, page.title) for page in pages],  # the nav
        config.extra["atlas"],  # the footer
        _banner(),
        Path(config.config_file_path).read_bytes(),
        tree_stamp(Path(config.theme.custom_dir)) if config.theme.custom_dir else (),
        sorted(file.src_uri for file in files),
        config.site_url,
        config.docs_dir,
        config.site_dir,
    )


def _macro_page_prints(hand_written: dict[str, str], catalog: Catalog, config: MkDocsConfig) -> dict[str, str]:
    """A hand-written page that calls macros changes when their output does: render its text with
    the same macros and `config` (as the macros plugin gives it; in a plain Jinja environment: only
    a fingerprint, never the page)."""
    macros: dict[str, object] = {name: partial(render, catalog) for name, render in PAGE_MACROS.items()}
    macros["config"] = config
    environment = jinja2.Environment()
    prints = {}
    for src_uri, text in hand_written.items():
        if "{{" not in text and "{%" not in text:
            continue
        try:
            prints[src_uri] = fingerprint(environment.from_string(text).render(**macros))
        except Exception:  # what the macros plugin accepts and a plain environment does not
            prints[src_uri] = secrets.token_hex(16)  # never equal to the last build's: rebuilt
    return prints


@event_priority(100)
def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    whole = put_back(html, _finished_html.get(page.file.src_uri, {}))
    banner = _banner()
    return banner + whole if banner else whole


class _MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept for the life of the process, keyed by template source."""

    def __init__(self) -> None:
        self._store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._store:
            bucket.bytecode_from_string(self._store[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._store[bucket.key] = bucket.bytecode_to_string()


_theme_templates = _MemoryBytecodeCache()


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    # Every page has been read by now (or skipped by `mkdocs serve --dirty`: restored here).
    _incremental.restore_skipped(files, config.extra["atlas"]["reviewed"])
    # MkDocs makes a new theme environment per build, so without a cache every `mkdocs serve`
    # rebuild compiles Material's ~70 templates again. Memory, not disk: a cold build gains nothing
    # from writing a cache it will never read.
    env.bytecode_cache = _theme_templates
    return env


#: Material 9.8.1 writes these two toggles straight into base.html (no block to override), with
#: `autocomplete`, which HTML allows on text-like inputs only: the Nu checker flags every page.
_THEME_TOGGLES = {
    f'<input class="md-toggle" data-md-toggle="{name}" type="checkbox" id="__{name}" autocomplete="off">': (
        f'<input class="md-toggle" data-md-toggle="{name}" type="checkbox" id="__{name}">'
    )
    for name in ("drawer", "search")
}


def _valid_theme_toggles(html: str) -> str:
    for theirs, ours in _THEME_TOGGLES.items():
        html = html.replace(theirs, ours, 1)
    return html


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    _incremental.built(page)
    return _valid_theme_toggles(output)


@event_priority(10)  # before the search plugin writes its index
def _merge_search_index(config: MkDocsConfig) -> None:
    _incremental.merge_search(config)


@event_priority(-100)  # after every plugin wrote its files
def _remember_this_build(config: MkDocsConfig) -> None:
    if _Serving.pending is not None:
        _Serving.last_good, _Serving.pending = _Serving.pending, None
    _incremental.finish()
    gc.unfreeze()


@event_priority(5)  # after the merge above, before the search plugin writes its index
def _rank_search_entries(config: MkDocsConfig) -> None:
    search = config.plugins.get("material/search")
    index = getattr(search, "search_index", None)
    if index is None:
        return
    catalog: Catalog = config.extra["atlas_catalog"]
    kind_of = {item_id: item.kind for item_id, (_, item) in catalog.items.items()}
    trim_entries(index.entries)
    rank_entries(index.entries, index.config["separator"], kind_of)


on_post_build = CombinedEvent(_merge_search_index, _rank_search_entries, _remember_this_build)


def on_build_error(error: Exception) -> None:
    _Serving.pending = None
    _incremental.forget()
    gc.unfreeze()
    gc.enable()


def on_post_template(output_content: str, template_name: str, config: MkDocsConfig) -> str:
    # 404.html is a theme template, not a page: the same fix.
    return _valid_theme_toggles(output_content) if template_name.endswith(".html") else output_content


def on_pre_page(page: Page, config: MkDocsConfig, files: Files) -> Page:
    # MkDocs stamps each page with the build day, which ends up in sitemap.xml's <lastmod> and in
    # the gzip header of sitemap.xml.gz. The data's review date is the day the content last changed.
    page.update_date = config.extra["atlas"]["reviewed"]
    return page


def _changes_only_observer() -> object:
    """The OS's file-event observer, told to report writes only.

    MkDocs rebuilds on any event under a watched folder, and inotify also reports a file being
    opened and closed without a write. Every build reads data/, so without this filter each
    rebuild would queue the next one: a loop that never settles after the first edit."""
    from watchdog.events import (
        FileClosedEvent,
        FileCreatedEvent,
        FileDeletedEvent,
        FileModifiedEvent,
        FileMovedEvent,
        FileSystemEvent,
    )
    from watchdog.observers import Observer

    writes: list[type[FileSystemEvent]] = [
        FileCreatedEvent,
        FileDeletedEvent,
        FileModifiedEvent,
        FileMovedEvent,
        FileClosedEvent,  # closed after a write
    ]

    class ChangesOnly(Observer):  # type: ignore[misc, valid-type]
        def schedule(self, event_handler, path, *, recursive=False, event_filter=None, follow_symlink=False):  # type: ignore[no-untyped-def]
            return super().schedule(
                event_handler,
                path,
                recursive=recursive,
                event_filter=event_filter or writes,
                follow_symlink=follow_symlink,
            )

    return ChangesOnly()


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: object) -> LiveReloadServer:
    server.builder = _resilient(server.builder)
    # MkDocs 1.6 polls every watched folder twice a second, so a saved file waits up to 0.5 s
    # before the rebuild starts. The OS's file events (inotify, FSEvents, ...) report it at once.
    # `_watched_paths` is MkDocs 1.6's own record; on any other shape, keep polling.
    watched = getattr(server, "_watched_paths", None)
    if not isinstance(watched, dict) or server.observer.is_alive():
        return server
    counts = dict(watched)
    for path, count in counts.items():
        for _ in range(count):
            server.unwatch(path)
    server.observer = _changes_only_observer()
    for path, count in counts.items():
        for _ in range(count):
            server.watch(path)
    # With writes only, a save is one burst of events microseconds long: MkDocs' 0.1 s wait for
    # quiet before building is mostly delay.
    server.build_delay = 0.03
    log.debug("watching %s with file system events (writes only)", ", ".join(counts))
    return server
