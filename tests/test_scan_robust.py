"""The scanner on a hostile checkout: every file is read or skipped with a reason, never a
traceback, a hang or an unbounded read; exit status 1 only for findings; names printed safely.

The tree is built per test in a temporary folder (links, a FIFO, a device link, odd names).
The release data is the real one; the use found is `torch.export.export_for_training`, removed
in 2.11.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

USE = "import torch.export as te\nte.export_for_training(model, args)\n"
REMOVED = "export-for-training-removed"


def scan(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "macros", "scan", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        errors="surrogateescape",
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,  # a hang (a FIFO read) fails here instead of blocking the suite
        check=False,
    )


def skipped(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """File name -> reason, from the `skipped PATH: reason` lines on stderr."""
    lines = [line.removeprefix("skipped ") for line in result.stderr.splitlines() if line.startswith("skipped ")]
    return {line.split(": ", 1)[0].rsplit("/", 1)[-1]: line.split(": ", 1)[1] for line in lines}


def test_links_fifos_devices_and_deep_code_are_skipped_with_a_reason(tmp_path: Path) -> None:
    (tmp_path / "real.py").write_text(USE, encoding="utf-8")
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "sum.py").write_text("import torch\nx = " + "+".join(["1"] * 100_000) + "\n", encoding="utf-8")
    (tmp_path / "big.py").write_text("import torch\n" + "x = 1\n" * 400_000, encoding="utf-8")  # 2.4 MB
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to(tmp_path)  # a folder loop: links to folders are not followed
    result = scan(str(tmp_path), "--from", "2.10", "--to", "2.11")
    assert "Traceback" not in result.stderr
    assert result.returncode == 1  # the one real finding
    found = result.stdout.split("\n\n")[0].splitlines()
    assert [line.split(": ")[1].split(" ")[0] for line in found] == [REMOVED]
    reasons = skipped(result)
    assert reasons.keys() == {"gone.py", "loop.py", "zero.py", "pipe.py", "sum.py", "big.py"}
    assert reasons["gone.py"].startswith("link that cannot be followed")
    assert "Too many levels of symbolic links" in reasons["loop.py"]
    assert reasons["zero.py"] == "not a regular file (a device)"
    assert reasons["pipe.py"] == "not a regular file (a FIFO)"
    assert reasons["sum.py"].startswith("nested too deeply")
    assert reasons["big.py"].startswith("larger than 2 MiB")


def test_skipped_files_alone_exit_zero(tmp_path: Path) -> None:
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "broken.py").write_text("import torch\ndef f(:\n", encoding="utf-8")
    result = scan(str(tmp_path), "--from", "2.10", "--to", "2.11")
    assert (result.returncode, result.stdout) == (
        0,
        "No finding: nothing in 2 files uses what changed from 2.10 to 2.11.\n",
    )
    assert skipped(result).keys() == {"gone.py", "broken.py"}


def test_a_dangling_link_given_as_the_path_is_skipped_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    result = scan(str(tmp_path / "gone.py"), "--from", "2.10", "--to", "2.11")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert skipped(result)["gone.py"].startswith("link that cannot be followed")


def test_an_unreadable_file_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(Tests run as root here, where chmod 000 does not stop a read: the refusal is simulated.)"""
    from macros.query.catalog import open_catalog
    from macros.tools import scan_files
    from macros.tools.scan import scan as run_scan

    (tmp_path / "locked.py").write_text(USE, encoding="utf-8")
    (tmp_path / "open.py").write_text(USE, encoding="utf-8")
    real_open = os.open

    def refusing_open(path: os.PathLike[str] | str, flags: int, *args: int) -> int:
        if str(path).endswith("locked.py"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(scan_files.os, "open", refusing_open)
    result = run_scan([tmp_path], open_catalog(ROOT / "data"), "2.10", "2.11", "https://example.org/")
    assert [Path(f.path).name for f in result.findings] == ["open.py"]
    assert result.skipped == [f"{tmp_path}/locked.py: cannot be read (Permission denied)"]


def test_pep_263_coding_lines_and_a_bom_are_read(tmp_path: Path) -> None:
    (tmp_path / "bom.py").write_bytes(USE.encode("utf-8-sig"))
    (tmp_path / "latin.py").write_bytes(("# -*- coding: latin-1 -*-\n# café\n" + USE).encode("latin-1"))
    (tmp_path / "wrong.py").write_bytes(b"# caf\xe9\n" + USE.encode())  # no coding line: not UTF-8
    (tmp_path / "late.py").write_bytes(USE.encode() + b"# caf\xe9\n")  # an error after the first lines
    result = scan(str(tmp_path), "--from", "2.10", "--to", "2.11", "--format", "json")
    assert sorted((Path(f["path"]).name, f["line"]) for f in json.loads(result.stdout)) == [
        ("bom.py", 2),
        ("latin.py", 4),
    ]
    assert skipped(result) == {
        "wrong.py": "cannot be decoded (not UTF-8, and no PEP 263 coding line names its encoding)",
        "late.py": f"cannot be decoded (not utf-8 at byte {len(USE) + len('# caf')})",
    }


def test_control_characters_in_names_are_escaped_on_the_terminal(tmp_path: Path) -> None:
    hostile = "\x1b]0;owned\x07\x1b[2J\u202eevil.py"
    (tmp_path / hostile).write_text(USE, encoding="utf-8")
    os.symlink(tmp_path / "nowhere", tmp_path / "\x1b[31mred.py")
    (tmp_path / os.fsdecode(b"bad\xff.py")).write_text(USE, encoding="utf-8")
    result = scan(str(tmp_path), "--from", "2.10", "--to", "2.11")
    assert "\x1b" not in result.stdout + result.stderr and "\u202e" not in result.stdout
    assert "\\x1b]0;owned\\x07\\x1b[2J\\u202eevil.py:2:1: " + REMOVED in result.stdout
    assert "bad\\udcff.py:2:1: " + REMOVED in result.stdout  # a byte that is not UTF-8
    assert "skipped " + str(tmp_path) + "/\\x1b[31mred.py: link that cannot be followed" in result.stderr
    as_json = scan(str(tmp_path), "--from", "2.10", "--to", "2.11", "--format", "json")
    assert "\x1b" not in as_json.stdout  # JSON escapes it; the path is still exact for a script
    assert {Path(f["path"]).name for f in json.loads(as_json.stdout)} == {hostile, os.fsdecode(b"bad\xff.py")}
