"""Command line for contributors: validate the data, regenerate the schema, report coverage.

    python -m macros check      validate data/ without building (exit 1 with every problem)
    python -m macros schema     write data/schema/ and docs/api/v1/schema/ from the models
    python -m macros coverage   per release: items by kind, and which facts are still unknown
    python -m macros permalinks --site site [--update]
                                check (or extend) the manifest of published URLs and anchors
    python -m macros materialize OUT
                                write the site as plain files and a mkdocs.yml without hooks or
                                macros (the exit plan off MkDocs hooks; see CONTRIBUTING.md)
    python -m macros index      fetch PyPI's file lists into data/pypi.json (the only network use)
    python -m macros ledger NOTES.md --release X.Y [--notes SOURCE_ID]
                                write data/ledger/X.Y.yaml: one entry per entry of the notes, to
                                decide (keeps the decisions of an existing ledger)
    python -m macros scan PATH... [--from A --to B] [--format text|json|sarif]
                                find uses of what changed between A and B in Python code
                                (without --from/--to: the range the project's torch
                                requirement allows; exit 1 with findings, 0 without, 2 on a
                                usage error)

Only this module and the edges write files or print.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import NoReturn

from macros.dataset.model import version_key
from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog
from macros.query.coverage import coverage_report, ledger_summary
from macros.tools.materialize import MaterializeError, load_config, materialize
from macros.tools.permalinks import missing, write_manifest
from macros.tools.scan import ScanUsageError, scan
from macros.tools.schema import write_schemas

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SITE_URL = "https://pytorch-release-atlas.github.io/atlas/"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["scan"]:
        return _scan(argv[1:])
    if argv[:1] == ["ledger"]:
        return _ledger(argv[1:])
    # The whole docstring is the help: `scan` and `ledger` have parsers of their own, and a
    # contributor reading `--help` must still see that they exist.
    parser = argparse.ArgumentParser(
        prog="python -m macros",
        description=__doc__.split("\n\nOnly this module")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "command",
        metavar="COMMAND",
        choices=["check", "schema", "coverage", "permalinks", "materialize", "index"],
        help="one of the commands above (scan and ledger take their own options: add --help)",
    )
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
        from macros.dataset.safe_io import UnsafeFile

        try:
            written = write_schemas(args.data / "schema")
        except UnsafeFile as error:
            print(f"python -m macros schema: error: {error}", file=sys.stderr)
            return 2
        for path in written:
            print(f"wrote {path}")
        return 0
    try:
        catalog = open_catalog(args.data, with_pypi=args.command != "index")
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return 1
    if args.command == "index":
        import datetime as dt

        from macros.tools.pypi_index import refresh

        try:
            target = refresh(catalog, args.data, dt.date.today().isoformat())
        except OSError as error:
            print(f"python -m macros index: cannot reach PyPI: {error}", file=sys.stderr)
            return 2
        print(f"wrote {target}")
        return 0
    if args.command == "check":
        items = sum(len(release.items) for release in catalog.releases)
        print(f"data OK: {len(catalog.releases)} releases, {items} items, {len(catalog.sources)} sources")
        print(ledger_summary(catalog))
    else:
        print(coverage_report(catalog))
    return 0


def scan_command() -> int:
    """Console script of the installed package (the pre-commit hook): `pytorch-upgrade-scan`."""
    return _scan(sys.argv[1:])


def _default_data() -> Path:
    """data/ of this checkout, or the copy installed with the package (pre-commit)."""
    if (ROOT / "data" / "sources.yaml").exists():
        return ROOT / "data"
    from importlib.resources import files

    return Path(str(files("atlas_data").joinpath("sources.yaml"))).parent


def _scan(argv: list[str]) -> int:
    """The scan command: findings on stdout; problems and skipped files as lines on stderr."""
    # A pipe closed early or a terminal that cannot show a name must not end in a traceback.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return _run_scan(argv)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away: nothing more to say
        return 1
    except KeyboardInterrupt:
        print("python -m macros scan: interrupted", file=sys.stderr)
        return 130


def _run_scan(argv: list[str]) -> int:
    from macros.tools.scan_output import as_json, as_sarif, as_text, base_folder
    from macros.tools.scan_range import project_range

    parser = _OneLineParser(prog="python -m macros scan", exit_on_error=False)
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument(
        "--from", dest="start", metavar="A", help="the release you are on (default: read from the project)"
    )
    parser.add_argument("--to", dest="end", metavar="B", help="the release you move to (default: the newest covered)")
    parser.add_argument("--format", choices=["text", "json", "sarif"], default="text")
    parser.add_argument(
        "--on",
        action="append",
        default=[],
        metavar="ENV",
        help="also report the changes only ENV feels: cuda, rocm, xpu, mps, cpu, source, linux, windows, macos",
    )
    parser.add_argument("--data", type=Path, default=None, help=argparse.SUPPRESS)
    args = _parse(parser, argv)
    if isinstance(args, int):
        return args
    try:
        catalog = open_catalog(args.data or _default_data())
        start, end = args.start, args.end or catalog.releases[-1].version
        if start is None:
            found = project_range(args.paths, [release.version for release in catalog.releases])
            start, end = found.start, args.end or found.end
            if version_key(start) >= version_key(end):
                print(f"nothing to scan: {found.requirement} ({found.where}) starts at {end} or later", file=sys.stderr)
                return 0
            shown = "any older release" if start == "0.0" else start
            print(f"scan from {shown} to {end}: {found.requirement} ({found.where})", file=sys.stderr)
        result = scan(args.paths, catalog, start, end, _site_url(), frozenset(args.on))
    except ScanUsageError as error:
        print(f"python -m macros scan: error: {error}", file=sys.stderr)
        return 2
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return 2
    if args.format == "sarif":
        sys.stdout.write(as_sarif(result.findings, start, end, base_folder(args.paths)))
    else:
        sys.stdout.write((as_json if args.format == "json" else as_text)(result.findings))
    for skipped in result.skipped:
        print(f"skipped {skipped}", file=sys.stderr)
    sys.stdout.flush()
    return 1 if result.findings else 0


class _UsageError(Exception):
    pass


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    """The arguments, or the exit status once a usage error has been said in one line (2) or
    --help printed (0)."""
    try:
        return parser.parse_args(argv)
    except (argparse.ArgumentError, _UsageError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    except SystemExit as exit_:  # --help
        return 0 if exit_.code == 0 else 2


class _OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line (the caller prints it), never the usage block or a traceback."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def _ledger(argv: list[str]) -> int:
    """The ledger command: writes data/ledger/X.Y.yaml only when the notes parse and any existing
    ledger loads cleanly; otherwise one message and nothing written."""
    from macros.dataset.load import load_file
    from macros.dataset.model import Ledger
    from macros.dataset.safe_io import UnsafeFile, check_writable, write_text
    from macros.tools.ledger import LedgerToolError, build, loader_problem, render

    parser = _OneLineParser(prog="python -m macros ledger", exit_on_error=False)
    parser.add_argument("notes_file", type=Path, metavar="NOTES.md", help="a local copy of the release notes")
    parser.add_argument("--release", required=True, metavar="X.Y")
    parser.add_argument("--notes", dest="source", metavar="SOURCE_ID", help="source id of the notes (notes-X-Y)")
    parser.add_argument(
        "--force", action="store_true", help="write even when decided entries of the old ledger are not in the notes"
    )
    parser.add_argument("--data", type=Path, default=ROOT / "data", help=argparse.SUPPRESS)
    args = _parse(parser, argv)
    if isinstance(args, int):
        return args
    fail = "python -m macros ledger: error:"
    if not re.fullmatch(r"[0-9]{1,3}\.[0-9]{1,3}", args.release):
        print(f"{fail} --release {_shown(args.release)} is not X.Y", file=sys.stderr)
        return 2
    if args.source is not None and (len(args.source) > 80 or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", args.source)):
        print(f"{fail} --notes {_shown(args.source)} is not a source id (like notes-2-14)", file=sys.stderr)
        return 2
    if not args.data.is_dir():
        print(f"{fail} {args.data}: no data folder here", file=sys.stderr)
        return 2
    target = args.data / "ledger" / f"{args.release}.yaml"
    try:
        check_writable(target, args.data.parent)
    except UnsafeFile as error:
        print(f"{fail} {error}", file=sys.stderr)
        return 2
    previous = None
    if target.exists():
        previous, _, problems = load_file(target, Ledger)
        if problems:
            print(DataError(problems).report().replace("nothing was built", "nothing was written"), file=sys.stderr)
            return 1
    source = args.source or (previous.notes if previous else "notes-" + args.release.replace(".", "-"))
    try:
        ledger = build(args.notes_file, args.release, source, previous, force=args.force)
        write_text(target, render(ledger), root=args.data.parent, check=loader_problem)
    except (LedgerToolError, UnsafeFile) as error:
        print(f"{fail} {error}", file=sys.stderr)
        return 2
    decided = sum(1 for entry in ledger.entries if entry.decision)
    print(f"wrote {target}: {len(ledger.entries)} entries, {decided} decided")
    return 0


def _shown(value: str) -> str:
    """A command-line value in a message: quoted, escapes visible, cut short."""
    return repr(value[:60] + ("…" if len(value) > 60 else ""))


def _site_url() -> str:
    config = ROOT / "mkdocs.yml"
    return str(load_config(config).get("site_url")) if config.exists() else DEFAULT_SITE_URL


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
    except OSError as error:
        print(
            f"{error.filename or out}: cannot be written: {error.strerror or error}; nothing written", file=sys.stderr
        )
        return 2
    print(f"wrote {pages} pages and {out / 'mkdocs.yml'}; build with: mkdocs build --strict -f {out / 'mkdocs.yml'}")
    return 0


def _permalinks(site: Path, update: bool) -> int:
    from macros.dataset.safe_io import UnsafeFile

    if site.is_symlink() or not site.is_dir():
        print(f"{site}: no built site here (a folder, not a link); run `make build` first", file=sys.stderr)
        return 2
    try:
        if update:
            added, lost = write_manifest(site)
        else:
            added, lost = 0, missing(site)
    except UnsafeFile as error:
        print(f"python -m macros permalinks: error: {error}", file=sys.stderr)
        return 2
    if lost:
        print(f"{len(lost)} published URLs or anchors disappeared (restore them or add an alias):", file=sys.stderr)
        print("\n".join(f"  {entry}" for entry in lost), file=sys.stderr)
        return 1
    print(f"permalinks OK{f': {added} new entries added' if update else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
