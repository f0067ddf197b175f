"""Command line for contributors: validate the data, regenerate the schema, report coverage.

    python -m macros check      validate data/ without building (exit 1 with every problem)
    python -m macros schema     write data/schema/ and docs/api/v1/schema/ from the models
    python -m macros coverage   per release: items by kind, and which facts are still unknown
    python -m macros permalinks --site site [--update]
                                check (or extend) the manifest of published URLs and anchors
    python -m macros materialize OUT
                                write the site as plain files and a mkdocs.yml without hooks or
                                macros (the exit plan off MkDocs hooks; see CONTRIBUTING.md)
    python -m macros index [--index-url URL] [--deadline SECONDS]
                                fetch PyPI's file lists into data/pypi.json and the ecosystem's
                                releases and torch requirements into data/ecosystem.json (the
                                only network use; exit 2 and nothing written on a failed read)
    python -m macros stack FILE --to B [--format text|json]
                                which packages of a requirements file, pyproject.toml, pip freeze,
                                uv.lock or poetry.lock allow torch B, which block it, and the
                                first release of each that allows it (exit 1 when one blocks)
    python -m macros scandata   write macros/tools/scan_data.json, what the installed scanner
                                reads (the scanned items of data/, as plain text)
    python -m macros ledger NOTES.md --release X.Y [--notes SOURCE_ID]
                                write data/ledger/X.Y.yaml: one entry per entry of the notes, to
                                decide (keeps the decisions of an existing ledger)
    python -m macros scan PATH... [--from A --to B] [--format text|json|sarif]
                                find uses of what changed between A and B in Python code
                                (without --from/--to: the range the project's torch
                                requirement allows; exit 1 with findings, 0 without, 2 on a
                                usage error)
    python -m macros doctor FILE [--to B] [--format text|json]
                                read a saved collect_env output: the newest PyTorch that runs
                                that machine, its install command, why no newer release does
                                (exit 0; 2 on a usage error)

Only this module and the edges write files or print.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import NoReturn

from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog
from macros.query.coverage import coverage_report, ledger_summary
from macros.tools.materialize import MaterializeError, load_config, materialize
from macros.tools.permalinks import missing, write_manifest
from macros.tools.schema import write_schemas

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SITE_URL = "https://pytorch-release-atlas.github.io/atlas/"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["scan"]:
        return _scan(argv[1:])
    if argv[:1] == ["ledger"]:
        return _ledger(argv[1:])
    if argv[:1] == ["index"]:
        return _index(argv[1:])
    if argv[:1] == ["stack"]:
        return _stack(argv[1:])
    if argv[:1] == ["doctor"]:
        return _doctor(argv[1:])
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
        choices=["check", "schema", "coverage", "permalinks", "materialize", "index", "scandata"],
        help="one of the commands above (scan, ledger and doctor take their own options: add --help)",
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
    if args.command == "scandata":
        from macros.tools.scan_rules import write

        print(f"wrote {write(catalog, _site_url())}")
        return 0
    if args.command == "check":
        items = sum(len(release.items) for release in catalog.releases)
        print(f"data OK: {len(catalog.releases)} releases, {items} items, {len(catalog.sources)} sources")
        print(ledger_summary(catalog))
    else:
        print(coverage_report(catalog))
    return 0


def scan_command() -> int:
    """The installed console script's former entry point (kept for installs made before it moved)."""
    from macros.tools.scan_cli import installed_command

    return installed_command()


def _default_data() -> Path:
    """data/ of this checkout."""
    return ROOT / "data"


def _checkout_data(folder: Path | None) -> tuple[object, str]:
    """`python -m macros scan` in a checkout reads data/ (or --data) itself: an edit counts at once."""
    return open_catalog(folder or _default_data()), _site_url()


def _scan(argv: list[str]) -> int:
    from macros.tools.scan_cli import main as scan_main

    return scan_main(argv, prog="python -m macros scan", load=_checkout_data)


#: The largest saved output doctor reads: collect_env prints a few KB; a long pip list, some 100 KB.
DOCTOR_MAX_BYTES = 1 << 20


def _doctor(argv: list[str]) -> int:
    """The doctor command: the plan for the machine a saved collect_env output describes."""
    import json
    import stat

    from macros.query.collect_env import machine_of, parse_collect_env
    from macros.query.planner import plan, plan_tables
    from macros.render.doctor import sentences
    from macros.tools.scan_files import printable

    prog = "python -m macros doctor"
    parser = _OneLineParser(prog=prog, exit_on_error=False)
    parser.add_argument("file", type=Path, metavar="FILE", help="a saved output of python -m torch.utils.collect_env")
    parser.add_argument("--to", dest="end", metavar="B", help="the release you mean to move to (a guide's B)")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--data", type=Path, default=None, help=argparse.SUPPRESS)
    args = _parse(parser, argv)
    if isinstance(args, int):
        return args
    try:
        info = args.file.stat()
    except OSError as error:
        print(f"{prog}: error: {args.file}: {error.strerror or 'cannot be read'}", file=sys.stderr)
        return 2
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, device or socket)"
        print(f"{prog}: error: {args.file}: {what}; give a saved collect_env output", file=sys.stderr)
        return 2
    if info.st_size > DOCTOR_MAX_BYTES:
        print(
            f"{prog}: error: {args.file}: {info.st_size} bytes, over the {DOCTOR_MAX_BYTES} a collect_env output needs",
            file=sys.stderr,
        )
        return 2
    try:
        with args.file.open("rb") as handle:
            text = handle.read(DOCTOR_MAX_BYTES + 1).decode("utf-8", errors="replace")
        catalog = open_catalog(args.data or _default_data())
    except OSError as error:
        print(f"{prog}: error: {args.file}: {error.strerror or 'cannot be read'}", file=sys.stderr)
        return 2
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return 2
    versions = [release.version for release in catalog.releases]
    if args.end is not None and args.end not in versions:
        minor = ".".join(args.end.split(".")[:2])  # `--to 2.7.1`: the site's releases are minors
        hint = f"; give the minor release: --to {minor}" if minor in versions else ""
        print(
            f"{prog}: error: --to {args.end[:40]!r} is not a release this site covers"
            f" ({versions[0]} to {versions[-1]}, as X.Y){hint}",
            file=sys.stderr,
        )
        return 2
    reading = parse_collect_env(text)
    if not reading.os:
        said = re.search(r"^[\s>*`-]*OS\s*:\s*(.*?)\s*$", text, re.M)
        why = (
            f"(the \u201cOS:\u201d line says \u201c{printable(said.group(1)[:80])}\u201d): no other line names it"
            if said
            else "(no \u201cOS:\u201d line): not a collect_env output, or cut before it"
        )
        print(f"{prog}: error: {args.file}: no OS read {why}", file=sys.stderr)
        return 2
    machine = machine_of(reading, catalog.gpus)
    tables = plan_tables(catalog)
    answer = plan(machine, tables)
    lines = sentences(answer, machine, tables, to=args.end or "", torch=reading.torch_full, build=reading.build)
    for stream in (sys.stdout,):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if args.format == "json":
        document = {
            **answer.as_json(),
            "sentences": lines,
            "machine": machine.__dict__ | {"capabilities": list(machine.capabilities)},
        }
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write("\n".join(lines) + "\n")
    return 0


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


def _index(argv: list[str]) -> int:
    """The index command: both snapshots written atomically, or one line and exit 2."""
    import datetime as dt

    from macros.dataset.safe_io import UnsafeFile
    from macros.tools.eco_index import IndexAnswerError, default_cache, network_fetch
    from macros.tools.http import Deadline, IndexFetchError, check_url
    from macros.tools.pypi_index import INDEX, refresh_all

    parser = _OneLineParser(prog="python -m macros index", exit_on_error=False)
    parser.add_argument("--index-url", default=INDEX, metavar="URL", help="a PEP 691 simple index (a mirror)")
    parser.add_argument("--deadline", type=float, default=1800.0, metavar="SECONDS", help="for all reads together")
    parser.add_argument("--cache", type=Path, default=None, metavar="DIR", help="metadata cache folder")
    parser.add_argument("--data", type=Path, default=ROOT / "data", help=argparse.SUPPRESS)
    args = _parse(parser, argv)
    if isinstance(args, int):
        return args
    index = args.index_url if args.index_url.endswith("/") else args.index_url + "/"
    try:
        check_url(index)
    except IndexFetchError as error:
        print(f"python -m macros index: error: --index-url {error}", file=sys.stderr)
        return 2
    if not 0 < args.deadline <= 24 * 3600:
        print("python -m macros index: error: --deadline must be between 0 and 86400 seconds", file=sys.stderr)
        return 2
    try:
        catalog = open_catalog(args.data, with_pypi=False)
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return 2
    deadline = Deadline.after(args.deadline)
    try:
        targets = refresh_all(
            catalog,
            args.data,
            dt.date.today().isoformat(),
            network_fetch(deadline),
            index,
            args.cache or default_cache(),
            lambda line: print(line, file=sys.stderr),
        )
    except (IndexFetchError, IndexAnswerError, UnsafeFile) as error:
        print(f"python -m macros index: error: {error}; nothing written", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("python -m macros index: interrupted; nothing written", file=sys.stderr)
        return 130
    for target in targets:
        print(f"wrote {target}")
    return 0


def _stack(argv: list[str]) -> int:
    """The stack command: answers on stdout (text or JSON); one line on stderr and exit 2 for a
    bad argument or file; exit 1 when a package blocks the target, else 0."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return _run_stack(argv)
    except BrokenPipeError:
        sys.stderr.close()
        return 1
    except KeyboardInterrupt:
        print("python -m macros stack: interrupted", file=sys.stderr)
        return 130


def _run_stack(argv: list[str]) -> int:
    from macros.dataset.vocabulary import TORCH
    from macros.query.ecosystem import Ecosystem, stack_answers, torch_admits
    from macros.render.stack import as_json, as_text
    from macros.tools.stack_files import StackFileError, read_wanted

    parser = _OneLineParser(prog="python -m macros stack", exit_on_error=False)
    parser.add_argument(
        "file", type=Path, metavar="FILE", help="requirements.txt, pyproject.toml, pip freeze, uv.lock, poetry.lock"
    )
    parser.add_argument("--to", dest="target", required=True, metavar="B", help="the torch release you move to (X.Y)")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--data", type=Path, default=None, help=argparse.SUPPRESS)
    args = _parse(parser, argv)
    if isinstance(args, int):
        return args
    try:
        catalog = open_catalog(args.data or _default_data())
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return 2
    known = [release.version for release in catalog.releases]
    if args.target not in known:
        print(
            f"python -m macros stack: error: --to {args.target[:40]!r} is not a release the data covers "
            f"({known[0]} to {known[-1]}, as X.Y)",
            file=sys.stderr,
        )
        return 2
    if catalog.ecosystem is None:
        print(
            "python -m macros stack: error: no ecosystem snapshot (data/ecosystem.json); run make index",
            file=sys.stderr,
        )
        return 2
    try:
        wanted = read_wanted(args.file)
    except StackFileError as error:
        print(f"python -m macros stack: error: {error}", file=sys.stderr)
        return 2
    ecosystem = Ecosystem.of(catalog)
    answers = stack_answers(ecosystem, ((w.name, w.specifier, w.extras, w.url) for w in wanted.values()), args.target)
    uncovered = sorted(name for name in wanted if name not in ecosystem.packages)
    # The file's own torch requirement is said first when it does not admit B (`torch==2.7.0` in a lock
    # file, `torch<2.12` in a pyproject): the reader changes it with the upgrade; no package blocks.
    own = wanted.get(TORCH)
    torch = (str(own.specifier), torch_admits(ecosystem, own.specifier, args.target)) if own and not own.url else None
    sys.stdout.write(
        as_json(args.target, answers, torch)
        if args.format == "json"
        else as_text(args.target, answers, uncovered, torch)
    )
    sys.stdout.flush()
    return 1 if any(a.allows_target is False for a in answers) else 0


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


def _entry() -> int:
    """`python -m macros`: a reader that goes away early (`| head`) ends the command quietly."""
    try:
        return main()
    except BrokenPipeError:
        # Point stdout at nothing, so that Python's own flush at exit cannot print a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(_entry())
