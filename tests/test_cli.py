"""The contributors' command line: `python -m macros --help` names every command it runs."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import ROOT


def test_help_lists_every_command_including_scan_and_ledger() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "macros", "--help"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    listed = set(re.findall(r"^\s+python -m macros (\w+)", shown, flags=re.MULTILINE))
    # `scan` and `ledger` are dispatched before argparse; the others are its choices.
    source = (ROOT / "macros" / "__main__.py").read_text(encoding="utf-8")
    dispatched = set(re.findall(r'argv\[:1\] == \["(\w+)"\]', source))
    choices = set(re.findall(r'"(\w+)"', re.search(r"choices=\[([^\]]*)\]", source).group(1)))
    assert {"scan", "ledger"} <= dispatched
    assert dispatched | choices <= listed, f"--help leaves out {sorted((dispatched | choices) - listed)}"


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """`python -m macros coverage | head -1`: the pipe closes after one line; the command ends
    quietly instead of printing a BrokenPipeError traceback. The pipe holds one page only (Linux's
    F_SETPIPE_SZ), so the report cannot fit in it before the reader goes away."""
    import fcntl
    import os

    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ
    command = subprocess.Popen(
        [sys.executable, "-m", "macros", "coverage"], cwd=ROOT, stdout=write_end, stderr=subprocess.PIPE
    )
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        first = reader.readline()
    assert command.stderr is not None
    errors = command.stderr.read().decode()
    command.stderr.close()
    command.wait(timeout=120)
    assert first.startswith(b"release")
    assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors
