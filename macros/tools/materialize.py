"""Tool: the exit plan off MkDocs hooks. Write the whole site as plain files a plain build can read.

`python -m macros materialize OUT` writes OUT/docs/ (the hand-written pages with their macros
already rendered, every generated page of the registry, the JSON API and the feed, the assets),
OUT/overrides/, and OUT/mkdocs.yml: our config without `hooks:`, without the macros plugin, with
the nav and the footer's counts written out. `mkdocs build --strict -f OUT/mkdocs.yml` then builds
the same pages as our build, and so can any successor that reads mkdocs.yml but runs no hooks
(Zensical). What only the hook does is lost there, knowingly: the finished HTML is written into the
Markdown as raw HTML (slower to parse, same page), and pages are dated by the build day rather
than the data's review date (sitemap.xml).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
import yaml

from macros import ROOT
from macros.dataset.problems import visible
from macros.query.catalog import Catalog, open_catalog
from macros.query.site import not_in_nav
from macros.render.pages import PAGE_MACROS, footer_facts, generated_pages, machine_files, nav

_FRONT_MATTER = re.compile(r"\A---\n(.*?\n)---\n", re.DOTALL)
#: Folders of a project that hold its sources: the tree is never written inside one (inside docs/
#: it would copy itself into itself until the disk fills), nor over the project itself.
SOURCE_FOLDERS = ("docs", "data", "macros", "overrides", "tests", ".git", ".github")
#: The folders the exit plan copies as they are: the hand-written pages and the theme's overrides.
COPIED_FOLDERS = ("docs", "overrides")


class MaterializeError(Exception):
    """A reason the tree cannot be written; nothing was written."""


class _Tagged(list):
    """A config value with a custom tag (`!ENV [ATLAS_OFFLINE, false]`), written back as it was."""

    tag = ""


class _ConfigLoader(yaml.SafeLoader):
    pass


class _ConfigDumper(yaml.SafeDumper):
    pass


def _construct_tagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> _Tagged:
    value = _Tagged(loader.construct_sequence(node) if isinstance(node, yaml.SequenceNode) else [node.value])
    value.tag = "!" + suffix
    return value


_ConfigLoader.add_multi_constructor("!", _construct_tagged)
_ConfigDumper.add_representer(_Tagged, lambda dumper, value: dumper.represent_sequence(value.tag, list(value)))


def load_config(path: Path) -> dict[str, Any]:
    """mkdocs.yml as data, custom tags kept (MkDocs' own loader would resolve them)."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_ConfigLoader)


def plain_config(config: dict[str, Any], catalog: Catalog) -> dict[str, Any]:
    """Our config for a build without our hook or the macros plugin."""
    plain = {key: value for key, value in config.items() if key not in {"hooks", "watch"}}
    plain["plugins"] = [
        plugin for plugin in config.get("plugins", []) if plugin != "macros" and not _is_plugin(plugin, "macros")
    ]
    plain["nav"] = nav(generated_pages(catalog))
    plain["not_in_nav"] = not_in_nav()
    plain["extra"] = {**config.get("extra", {}), "atlas": footer_facts(catalog)}
    return plain


def _is_plugin(entry: object, name: str) -> bool:
    return isinstance(entry, dict) and name in entry


def render_hand_written(text: str, catalog: Catalog, config: dict[str, Any]) -> str:
    """A docs/ page: its macros rendered when its front matter asks for it, as mkdocs-macros would
    (which also gives pages `config`, the site's configuration: `{{ config.extra.repository }}`)."""
    match = _FRONT_MATTER.match(text)
    meta = yaml.safe_load(match.group(1)) if match else None
    if not isinstance(meta, dict) or meta.get("render_macros") is not True:
        return text
    assert match is not None
    front = "".join(line for line in match.group(1).splitlines(keepends=True) if not line.startswith("render_macros:"))
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False)
    env.globals.update({name: partial(render, catalog) for name, render in PAGE_MACROS.items()}, config=config)
    return f"---\n{front}---\n" + env.from_string(text[match.end() :]).render()


def check_out(project: Path, out: Path) -> None:
    """Refuse (MaterializeError, one line) an output that is not a new or empty folder of its own."""
    try:
        _check_out(project, out)
    except OSError as error:
        raise MaterializeError(f"{visible(str(out))}: cannot be used: {error.strerror or error}") from None


def _check_out(project: Path, out: Path) -> None:
    shown = visible(str(out))
    if out.is_symlink():
        raise MaterializeError(f"{shown}: is a link; name a new folder (the tree is never written through links)")
    if out.exists() and not out.is_dir():
        raise MaterializeError(f"{shown}: is a file, not a folder; name a new folder")
    target = Path(os.path.abspath(out))
    real = target.resolve()
    for base in {Path(os.path.abspath(project)), ROOT}:
        for candidate in {target, real}:
            if candidate == base or candidate == base.resolve():
                raise MaterializeError(f"{shown}: is the project folder itself; name a new folder outside its sources")
            for folder in SOURCE_FOLDERS:
                for source in (base / folder, (base / folder).resolve()):
                    if candidate == source or source in candidate.parents:
                        raise MaterializeError(
                            f"{shown}: is inside the project's {folder}/ folder; name a folder outside its sources"
                        )
    if out.exists() and any(out.iterdir()):
        raise MaterializeError(f"{shown}: the folder is not empty; remove it or name a new one")


def _refuse_odd_files(folder: Path) -> None:
    """The tree copies docs/ and overrides/ whole: a link (to a file outside the project, which the
    copy would publish), a FIFO (which would hang the copy) or a device in them is refused."""
    for path in sorted(folder.rglob("*")):
        kind = "a link" if path.is_symlink() else None
        if kind is None and not (path.is_file() or path.is_dir()):
            kind = "not a regular file (a FIFO, a device or a socket)"
        if kind:
            raise MaterializeError(f"{visible(str(path))}: is {kind}; the tree copies only files and folders")


def materialize(project: Path, out: Path) -> int:
    """Write the tree; return the number of pages written. Raises DataError or MaterializeError.

    The tree is written into a new folder beside OUT and renamed to OUT once complete, so a
    failure leaves nothing behind."""
    check_out(project, out)
    for folder in COPIED_FOLDERS:
        _refuse_odd_files(project / folder)
    catalog = open_catalog(project / "data")  # before writing anything: bad data writes nothing
    config = load_config(project / "mkdocs.yml")
    out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp"))
    try:
        building.chmod(0o755)
        pages = _write_tree(project, building, catalog, config)
        check_out(project, out)  # still a new or empty folder of its own
        if out.exists():
            out.rmdir()
        os.replace(building, out)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return pages


def _write_tree(project: Path, out: Path, catalog: Catalog, config: dict[str, Any]) -> int:
    docs = out / "docs"
    shutil.copytree(project / "docs", docs)
    shutil.copytree(project / "overrides", out / "overrides")
    pages = 0
    for path in sorted(docs.rglob("*.md")):
        path.write_text(render_hand_written(path.read_text(encoding="utf-8"), catalog, config), encoding="utf-8")
        pages += 1
    for page in generated_pages(catalog):
        target = docs / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page.build(catalog).whole(), encoding="utf-8")
        pages += 1
    site_url = config.get("site_url") or "http://127.0.0.1:8000/"
    for relative, text in machine_files(catalog, site_url, config["site_name"]).items():
        target = docs / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    header = "# Written by `python -m macros materialize`: our mkdocs.yml without hooks or macros.\n"
    dumped = yaml.dump(plain_config(config, catalog), Dumper=_ConfigDumper, allow_unicode=True, sort_keys=False)
    (out / "mkdocs.yml").write_text(header + dumped, encoding="utf-8")
    return pages
