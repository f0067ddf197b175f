"""The scanner's command line: `pytorch-upgrade-scan` (the installed package, the pre-commit hook)
and `python -m macros scan` (a checkout).

Installed, it reads the data file the package carries (scan_rules.packaged) and needs nothing but
the standard library and `packaging`. In a checkout, `python -m macros scan` reads data/ itself
(`data=` below), so an edit to a release file counts at once. Findings go to stdout; the range
read, skipped files and problems go to stderr, each on one line. Exit status: 1 with findings, 0
without, 2 on a usage error, 130 on Ctrl-C; never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from macros.tools.scan_files import ScanUsageError

#: Where the findings' links point when the data gives no site address.
DEFAULT_SITE_URL = "https://pytorch-release-atlas.github.io/atlas/"


class _UsageError(Exception):
    pass


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line (the caller prints it), never the usage block or a traceback."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    """The arguments, or the exit status once a usage error has been said in one line (2) or
    --help printed (0)."""
    try:
        return parser.parse_args(argv)
    except (argparse.ArgumentError, _UsageError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    except SystemExit as exit_:  # --help
        return 0 if exit_.code == 0 else 2


#: Loads the data for `--data FOLDER` (a checkout's data/) and gives (scan data, site URL); it
#: raises ScanUsageError, or an error with `report()`, on bad data.
DataLoader = Callable[[Path | None], tuple[Any, str]]


def installed_command() -> int:
    """Console script of the installed package: `pytorch-upgrade-scan`."""
    return main(sys.argv[1:], prog="pytorch-upgrade-scan")


def main(argv: list[str], prog: str = "pytorch-upgrade-scan", load: DataLoader | None = None) -> int:
    """The scan command: findings on stdout; problems and skipped files as lines on stderr."""
    # A pipe closed early or a terminal that cannot show a name must not end in a traceback.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return _run(argv, prog, load or _packaged)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away: nothing more to say
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130


def _packaged(folder: Path | None) -> tuple[Any, str]:
    from macros.tools.scan_rules import ScanDataError, packaged

    if folder is not None:
        raise ScanUsageError("--data needs a checkout of the project (python -m macros scan)")
    try:
        data = packaged()
    except ScanDataError as error:
        raise ScanUsageError(str(error)) from None
    return data, data.site_url or DEFAULT_SITE_URL


def _run(argv: list[str], prog: str, load: DataLoader) -> int:
    from macros.tools.scan import scan, scan_data
    from macros.tools.scan_output import as_json, as_sarif, as_text, base_folder, nothing_found
    from macros.tools.scan_range import project_range
    from macros.tools.scan_rules import version_key

    parser = OneLineParser(prog=prog, exit_on_error=False)
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
    args = parse(parser, argv)
    if isinstance(args, int):
        return args
    try:
        source, site_url = load(args.data)
        data = scan_data(source)
        start, end = args.start, args.end or data.releases[-1]
        if start is None:
            found = project_range(args.paths, list(data.releases))
            start, end = found.start, args.end or found.end
            if end in data.releases and version_key(start) >= version_key(end):
                print(f"nothing to scan: {found.requirement} ({found.where}) starts at {end} or later", file=sys.stderr)
                return 0
            shown = "any older release" if start == "0.0" else start
            print(f"scan from {shown} to {end}: {found.requirement} ({found.where})", file=sys.stderr)
        result = scan(args.paths, data, start, end, site_url, frozenset(args.on))
    except ScanUsageError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # bad data in a checkout: its own report, in lines
        if not hasattr(error, "report"):
            raise
        print(error.report(), file=sys.stderr)
        return 2
    if args.format == "sarif":
        sys.stdout.write(as_sarif(result.findings, start, end, base_folder(args.paths)))
    elif args.format == "json":
        sys.stdout.write(as_json(result.findings))
    else:
        sys.stdout.write(as_text(result.findings) or nothing_found(result.files, start, end))
    for skipped in result.skipped:
        print(f"skipped {skipped}", file=sys.stderr)
    sys.stdout.flush()
    return 1 if result.findings else 0
