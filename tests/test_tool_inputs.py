"""Hostile inputs and outputs of the contributor commands (ledger, schema, materialize, permalinks).

Each bad input gives one line naming the file on stderr, exit 2, no traceback, and nothing
written; no command writes through a link or outside the project, and a write is atomic.
macros/dataset/safe_io.py holds the rules; the commands run in-process (`main`), except where a
hang is the failure (a FIFO), which runs in a subprocess with a deadline.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURE_DATA, ROOT
from test_ledger import NOTES

from macros.__main__ import main


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    (tmp_path / "notes.md").write_text(NOTES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def ledger(project: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["ledger", *args, "--data", str(project / "data")])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_refusal(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    for needle in needles:
        assert needle in err, err


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- the ledger tool's input --------------------------------------------------------------------


def decide_all(project: Path) -> Path:
    target = project / "data" / "ledger" / "9.2.yaml"
    text = target.read_text(encoding="utf-8").replace("decision: null", 'decision: "not-felt: fix"')
    target.write_text(text, encoding="utf-8")
    return target


def test_notes_cut_in_half_do_not_drop_decisions_unless_forced(project: Path, capsys) -> None:
    code, _, err = ledger(project, capsys, "notes.md", "--release", "9.2", "--notes", "notes")
    assert code == 0, err
    target = decide_all(project)
    before = target.read_bytes()
    decided = before.count(b"not-felt: fix")
    cut = project / "cut.md"
    cut.write_text(NOTES[: NOTES.index("# Bug fixes")], encoding="utf-8")  # the Bug fixes section is gone
    code, _, err = ledger(project, capsys, "cut.md", "--release", "9.2")
    one_line_refusal(code, err, "cut.md", f"2 of the {decided} decided entries", "--force")
    assert target.read_bytes() == before
    code, out, err = ledger(project, capsys, "cut.md", "--release", "9.2", "--force")
    assert code == 0, err
    assert f"{decided - 2} decided" in out


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (lambda p: (p / "dir.md").mkdir() or p / "dir.md", "is a folder"),
        (lambda p: (p / "link.md").symlink_to(p / "notes.md") or p / "link.md", "is a link"),
        (lambda p: Path("/dev/zero"), "is a device"),
        (lambda p: (p / "big.md").write_bytes(b"- x (#5001)\n" * 400_000) and p / "big.md", "larger than 4,194,304"),
        (lambda p: (p / "l1.md").write_bytes(b"# Bug fixes\n- caf\xe9 (#5001)\n") and p / "l1.md", ":2: byte 0xe9"),
    ],
    ids=["folder", "link", "dev-zero", "too-large", "not-utf8"],
)
def test_notes_that_are_not_a_small_regular_text_file_are_refused(project: Path, capsys, make, what: str) -> None:
    notes = make(project)
    code, _, err = ledger(project, capsys, str(notes), "--release", "9.2")
    one_line_refusal(code, err, what)
    assert not (project / "data" / "ledger").exists()


def test_a_fifo_as_notes_is_refused_at_once(project: Path) -> None:
    fifo = project / "notes.fifo"
    os.mkfifo(fifo)
    run = subprocess.run(
        [sys.executable, "-m", "macros", "ledger", str(fifo), "--release", "9.2", "--data", str(project / "data")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    one_line_refusal(run.returncode, run.stderr, "notes.fifo", "is a FIFO")


@pytest.mark.parametrize(
    "line",
    [
        "# " + " " * 200_000 + "x",  # the heading pattern tried every split of the blanks
        "## " + "<" * 200_000,  # tags stripped from a heading: every `<` looked for its `>`
        "# Highlights\n<table>" + "<tr" * 100_000 + "</table>",
        "- " + "#1234 " * 50_000,
    ],
    ids=["blank-heading", "angle-heading", "table-rows", "many-prs"],
)
def test_a_long_line_is_read_in_linear_time(project: Path, capsys, line: str) -> None:
    (project / "long.md").write_text("# Bug fixes\n\n" + line + "\n- an entry (#5001)\n", encoding="utf-8")
    start = time.perf_counter()
    code, _, err = ledger(project, capsys, "long.md", "--release", "9.2", "--notes", "notes")
    assert time.perf_counter() - start < 10
    assert "Traceback" not in err and code in {0, 2}, err


@pytest.mark.parametrize(
    ("notes", "where"),
    [
        ("# Bug fixes\n## Area\u0007 bell\n- x (#5001)\n", "odd.md:3: area"),
        ("# Bug fixes\n## Data\n- x (#5001)\n# \u2603\n- y (#5002)\n", "odd.md:5: section"),
        ("# Bug fixes\n- x (#12345678)\n", "odd.md:2"),
    ],
    ids=["control-char-area", "symbol-section", "pr-too-long-is-not-a-pr"],
)
def test_odd_headings_give_one_line_naming_the_line(project: Path, capsys, notes: str, where: str) -> None:
    (project / "odd.md").write_text(notes, encoding="utf-8")
    code, _, err = ledger(project, capsys, "odd.md", "--release", "9.2", "--notes", "notes")
    if where == "odd.md:2":  # a number of 8 digits is no PR: the entry is read without one
        assert code == 0, err
        return
    one_line_refusal(code, err, where)
    assert not (project / "data" / "ledger").exists()


@pytest.mark.parametrize("value", ["Not An Id", "", "notes\n", "x" * 200, "../../etc", "notes--2"])
def test_a_bad_notes_id_is_one_line(project: Path, capsys, value: str) -> None:
    code, _, err = ledger(project, capsys, "notes.md", "--release", "9.2", "--notes", value)
    one_line_refusal(code, err, "--notes")
    assert not (project / "data" / "ledger").exists()


@pytest.mark.parametrize("value", ["nine", "9.2.1", "9999.1", "9.2\n"])
def test_a_bad_release_is_one_line(project: Path, capsys, value: str) -> None:
    code, _, err = ledger(project, capsys, "notes.md", "--release", value)
    one_line_refusal(code, err, "--release")


def test_the_tool_never_writes_a_ledger_its_loader_refuses(project: Path, capsys) -> None:
    # 9,000 entries make a file over the loader's 512 KiB: refused before it replaces anything.
    (project / "many.md").write_text("# Bug fixes\n" + "- a fix (#5001)\n" * 9000, encoding="utf-8")
    code, _, err = ledger(project, capsys, "many.md", "--release", "9.2", "--notes", "notes")
    one_line_refusal(code, err, "9.2.yaml", "data files are limited to 524,288 bytes", "nothing written")
    assert [p.name for p in (project / "data" / "ledger").iterdir()] == []


# --- the ledger tool's output: never through a link, never outside ------------------------------


def test_the_ledger_is_never_written_through_a_link(project: Path, capsys, tmp_path_factory) -> None:
    code, _, err = ledger(project, capsys, "notes.md", "--release", "9.2", "--notes", "notes")
    assert code == 0, err
    folder = project / "data" / "ledger"
    other = folder / "9.1.yaml"
    shutil.copy(folder / "9.2.yaml", other)
    other.write_text(other.read_text(encoding="utf-8").replace('release: "9.2"', 'release: "9.1"'), encoding="utf-8")
    kept = other.read_bytes()
    (folder / "9.2.yaml").unlink()
    (folder / "9.2.yaml").symlink_to(other)  # another release's ledger
    code, _, err = ledger(project, capsys, "notes.md", "--release", "9.2")
    one_line_refusal(code, err, "9.2.yaml", "is a link")
    assert other.read_bytes() == kept
    outside = tmp_path_factory.mktemp("outside")
    (folder / "9.2.yaml").unlink()
    (folder / "9.2.yaml").symlink_to(outside / "planted.yaml")  # dangling, out of the project
    code, _, err = ledger(project, capsys, "notes.md", "--release", "9.2")
    one_line_refusal(code, err, "is a link")
    assert list(outside.iterdir()) == []
    shutil.rmtree(folder)
    folder.symlink_to(outside, target_is_directory=True)  # the folder itself
    code, _, err = ledger(project, capsys, "notes.md", "--release", "9.2")
    one_line_refusal(code, err, "through the link")
    assert list(outside.iterdir()) == []


def test_a_ledger_write_leaves_no_temporary_file(project: Path, capsys) -> None:
    code, _, err = ledger(project, capsys, "notes.md", "--release", "9.2", "--notes", "notes")
    assert code == 0, err
    assert [p.name for p in (project / "data" / "ledger").iterdir()] == ["9.2.yaml"]
    assert yaml.safe_load((project / "data" / "ledger" / "9.2.yaml").read_text(encoding="utf-8"))["notes"] == "notes"


# --- macros schema: never through a link a pull request can plant ------------------------------


def test_schema_never_overwrites_through_a_planted_link(tmp_path: Path, capsys, tmp_path_factory) -> None:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_DATA, project / "data")
    (project / "data" / "schema").mkdir()
    victim = tmp_path_factory.mktemp("outside") / "victim.json"
    victim.write_text("keep me", encoding="utf-8")
    (project / "data" / "schema" / "release.schema.json").symlink_to(victim)
    api = ROOT / "docs" / "api" / "v1" / "schema"
    api_before = snapshot(api)
    code = main(["schema", "--data", str(project / "data")])
    _, err = capsys.readouterr()
    one_line_refusal(code, err, "release.schema.json", "is a link")
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert [p.name for p in (project / "data" / "schema").iterdir()] == ["release.schema.json"]
    assert snapshot(api) == api_before  # refused before anything was written


def test_schema_writes_through_no_linked_folder(tmp_path: Path, tmp_path_factory) -> None:
    from macros.dataset.safe_io import UnsafeFile
    from macros.tools.schema import write_schemas

    project = tmp_path / "project"
    shutil.copytree(FIXTURE_DATA, project / "data")
    outside = tmp_path_factory.mktemp("outside")
    (project / "data" / "schema").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafeFile, match="through the link"):
        write_schemas(project / "data" / "schema", project / "docs" / "api", api_root=project)
    assert list(outside.iterdir()) == []


# --- macros materialize: a folder of its own, outside the sources ------------------------------


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (lambda p, o: p / "docs" / "plain", "inside the project's docs/ folder"),
        (lambda p, o: p / "data" / "out", "inside the project's data/ folder"),
        (lambda p, o: p / "macros", "inside the project's macros/ folder"),
        (lambda p, o: p, "is the project folder itself"),
        (lambda p, o: (p / "file.txt").write_text("x") and p / "file.txt", "is a file"),
        (lambda p, o: (p / "dangling").symlink_to(o / "nowhere") or p / "dangling", "is a link"),
        (lambda p, o: (p / "linked").symlink_to(p / "docs") or p / "linked" / "plain", "inside the project's docs/"),
    ],
    ids=["docs", "data", "macros", "project", "file", "dangling-link", "through-link-into-docs"],
)
def test_materialize_refuses_an_output_that_is_not_a_folder_of_its_own(
    tmp_path: Path, capsys, tmp_path_factory, make, what: str
) -> None:
    from conftest import copy_project

    project = copy_project(tmp_path, FIXTURE_DATA)
    outside = tmp_path_factory.mktemp("outside")
    out = make(project, outside)
    before = snapshot(project)
    code = main(["materialize", str(out), "--data", str(project / "data")])
    _, err = capsys.readouterr()
    one_line_refusal(code, err, what)
    assert snapshot(project) == before and list(outside.iterdir()) == []
    assert not list(project.rglob(".*.tmp"))


@pytest.mark.parametrize("odd", ["link", "fifo"])
def test_materialize_refuses_links_and_fifos_among_the_pages(
    tmp_path: Path, capsys, tmp_path_factory, odd: str
) -> None:
    from conftest import copy_project

    project = copy_project(tmp_path, FIXTURE_DATA)
    secret = tmp_path_factory.mktemp("outside") / "secret.md"
    secret.write_text("a file of the builder's machine", encoding="utf-8")
    planted = project / "docs" / "planted.md"
    if odd == "link":
        planted.symlink_to(secret)
    else:
        os.mkfifo(planted)
    out = tmp_path / "out"
    code = main(["materialize", str(out), "--data", str(project / "data")])
    _, err = capsys.readouterr()
    one_line_refusal(code, err, "planted.md", "is a link" if odd == "link" else "not a regular file")
    assert not out.exists()


def test_materialize_refuses_the_checkouts_own_docs(capsys) -> None:
    out = ROOT / "docs" / "plain-test-never-written"
    code = main(["materialize", str(out)])
    _, err = capsys.readouterr()
    one_line_refusal(code, err, "inside the project's docs/ folder")
    assert not out.exists()


# --- macros permalinks -------------------------------------------------------------------------


def test_permalinks_refuses_a_site_that_is_not_a_folder_and_pages_that_are_not_files(tmp_path: Path, capsys) -> None:
    (tmp_path / "site.txt").write_text("x", encoding="utf-8")
    code = main(["permalinks", "--site", str(tmp_path / "site.txt")])
    _, err = capsys.readouterr()
    one_line_refusal(code, err, "site.txt", "no built site here")
    site = tmp_path / "site"
    site.mkdir()
    os.mkfifo(site / "index.html")  # would hang a plain read
    code = main(["permalinks", "--site", str(site)])
    _, err = capsys.readouterr()
    one_line_refusal(code, err, "index.html", "is a FIFO")


def test_the_manifest_is_never_written_through_a_link(tmp_path: Path, tmp_path_factory) -> None:
    from macros.dataset.safe_io import UnsafeFile
    from macros.tools.permalinks import write_manifest

    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_text('<article><h2 id="x">X</h2></article>', encoding="utf-8")
    victim = tmp_path_factory.mktemp("outside") / "victim.txt"
    victim.write_text("a.html\n", encoding="utf-8")
    manifest = tmp_path / "permalinks.txt"
    manifest.symlink_to(victim)
    with pytest.raises(UnsafeFile):
        write_manifest(site, manifest)
    assert victim.read_text(encoding="utf-8") == "a.html\n"
    manifest.unlink()
    assert write_manifest(site, manifest) == (2, [])
    assert manifest.read_text(encoding="utf-8").splitlines()[-2:] == ["a.html", "a.html#x"]
