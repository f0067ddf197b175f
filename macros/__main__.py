"""Command line for contributors: validate the data, regenerate the schema, report coverage.

    python -m macros check      validate data/ without building (exit 1 with every problem)
    python -m macros schema     write data/schema/ and docs/api/v1/schema/ from the models
    python -m macros coverage   per release: items by kind, and which facts are still unknown
    python -m macros permalinks --site site [--update]
                                check (or extend) the manifest of published URLs and anchors
    python -m macros materialize OUT
                                write the site as plain files and a mkdocs.yml without hooks or
                                macros (the exit plan off MkDocs hooks; see README)

Only this module and the edges write files or print.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog
from macros.query.coverage import coverage_report
from macros.tools.materialize import MaterializeError, materialize
from macros.tools.permalinks import missing, write_manifest
from macros.tools.schema import write_schemas

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m macros", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["check", "schema", "coverage", "permalinks", "materialize"])
    parser.add_argument("out", nargs="?", type=Path, help="materialize: the folder to write (new or empty)")
    parser.add_argument("--data", type=Path, default=ROOT / "data", help="data folder")
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="built site (permalinks)")
    parser.add_argument("--update", action="store_true", help="add new entries to the manifest")
    args = parser.parse_args(argv)
    if args.command == "permalinks":
        return _permalinks(args.site, args.update)
    if args.command == "materialize":
        return _materialize(parser, args.data.parent, args.out)
    if args.command == "schema":
        for path in write_schemas(args.data / "schema"):
            print(f"wrote {path}")
        return 0
    try:
        catalog = open_catalog(args.data)
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return 1
    if args.command == "check":
        items = sum(len(release.items) for release in catalog.releases)
        print(f"data OK: {len(catalog.releases)} releases, {items} items, {len(catalog.sources)} sources")
    else:
        print(coverage_report(catalog))
    return 0


def _materialize(parser: argparse.ArgumentParser, project: Path, out: Path | None) -> int:
    if out is None:
        parser.error("materialize needs the folder to write: python -m macros materialize OUT")
    try:
        pages = materialize(project, out)
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return 1
    except MaterializeError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"wrote {pages} pages and {out / 'mkdocs.yml'}; build with: mkdocs build --strict -f {out / 'mkdocs.yml'}")
    return 0


def _permalinks(site: Path, update: bool) -> int:
    if not site.is_dir():
        print(f"{site}: no built site here; run `make build` first", file=sys.stderr)
        return 1
    if update:
        added, lost = write_manifest(site)
    else:
        added, lost = 0, missing(site)
    if lost:
        print(f"{len(lost)} published URLs or anchors disappeared (restore them or add an alias):", file=sys.stderr)
        print("\n".join(f"  {entry}" for entry in lost), file=sys.stderr)
        return 1
    print(f"permalinks OK{f': {added} new entries added' if update else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
