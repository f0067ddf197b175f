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
