"""The bad-input corpus: every broken or hostile data file fails with its file:line:column and field.

Each case copies the made-up dataset and breaks one file: replaced by a file of this folder
(`file`), or edited (`edit: [old, new]`, `append`, or the whole `text`). Every case is checked in
process, as `python -m macros check` reports it; a sample also runs the real command line and
`mkdocs build`, which must stop before writing anything. The file-system cases (directories,
links, unreadable or oversized files, two files for one version) follow.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURE_DATA, ROOT, copy_project, run_build

from macros.dataset.load import MAX_FILE_BYTES
from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog

CORPUS = Path(__file__).parent / "bad_inputs"
CASES = yaml.safe_load((CORPUS / "cases.yaml").read_text(encoding="utf-8"))


def case_id(case: dict) -> str:
    return case.get("name") or case["file"].removesuffix(".yaml")


def break_data(data: Path, case: dict) -> None:
    target = data / case.get("target", "releases/9.2.yaml")
    if "file" in case:
        shutil.copyfile(CORPUS / case["file"], target)
        return
    if "text" in case:
        target.parent.mkdir(exist_ok=True)  # data/ledger/ is optional
        target.write_text(case["text"], encoding="utf-8")
        return
    text = target.read_text(encoding="utf-8")
    old, new = case["edit"]
    assert text.count(old) == 1, f"{case_id(case)}: {old!r} must occur once in {target.name}"
    target.write_text(text.replace(old, new) + case.get("append", ""), encoding="utf-8")


def problems_of(data: Path) -> list[str]:
    """What `macros check` prints, one line per problem, computed in process."""
    try:
        open_catalog(data)
    except DataError as error:
        return error.report().splitlines()
    return []


def test_corpus_covers_every_file_and_at_least_60_cases() -> None:
    listed = {case["file"] for case in CASES if "file" in case}
    on_disk = {path.name for path in CORPUS.glob("*.yaml")} - {"cases.yaml"}
    assert listed == on_disk
    assert len(CASES) + len(FILESYSTEM_CASES) >= 60
    assert len({case_id(case) for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case_id(case) for case in CASES])
def test_check_names_file_line_and_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: dict) -> None:
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    break_data(tmp_path / "data", case)
    monkeypatch.chdir(tmp_path)
    lines = problems_of(tmp_path / "data")
    assert lines, "the broken data was accepted"
    assert lines[0].startswith("The data has ")
    matching = [line for line in lines if line.startswith(case["where"] + ": ")]
    assert matching, f"expected a line starting with {case['where']!r} in:\n" + "\n".join(lines)
    assert case["message"] in matching[0]


def run_check(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "macros", "check", "--data", "data"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )


@pytest.mark.parametrize("name", ["non_utf8", "title_script", "alias_bomb", "deep_nesting"])
def test_command_line_reports_without_a_traceback(tmp_path: Path, name: str) -> None:
    case = next(case for case in CASES if case_id(case) == name)
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    break_data(tmp_path / "data", case)
    result = run_check(tmp_path)
    assert result.returncode == 1
    assert any(line.startswith(case["where"] + ": ") for line in result.stderr.splitlines()), result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", ["bad_effect", "tab_indentation", "notes_url_javascript"])
def test_build_stops_before_writing_anything(tmp_path: Path, name: str) -> None:
    case = next(case for case in CASES if case_id(case) == name)
    project = copy_project(tmp_path, FIXTURE_DATA)
    break_data(project / "data", case)
    build = run_build(project)
    assert build.returncode != 0
    assert case["where"] in build.output
    assert "Traceback" not in build.output
    assert not build.site.exists(), "a failed data check must not leave a partial site"


# --- the file system -------------------------------------------------------------------------


def directory_named_like_a_release(data: Path) -> None:
    (data / "releases" / "9.3.yaml").mkdir()


def broken_link(data: Path) -> None:
    (data / "releases" / "9.3.yaml").symlink_to(data / "releases" / "missing.yaml")


def link_outside_data(data: Path) -> None:
    secret = data.parent / "secret.yaml"
    secret.write_text("token: hunter2\n", encoding="utf-8")
    (data / "releases" / "9.3.yaml").symlink_to(secret)


def oversized_file(data: Path) -> None:
    release = data / "releases" / "9.2.yaml"
    text = release.read_text(encoding="utf-8")
    release.write_text(text + "#" * (MAX_FILE_BYTES + 1) + "\n", encoding="utf-8")


def no_release_files(data: Path) -> None:
    for release in (data / "releases").glob("*.yaml"):
        release.unlink()


def two_files_for_one_version(data: Path) -> None:
    text = (data / "releases" / "9.2.yaml").read_text(encoding="utf-8")
    renamed = text.replace('version: "9.2"', 'version: "9.02"').replace("id: ", "id: copy-")
    renamed = renamed.replace("follows: copy-", "follows: ")
    (data / "releases" / "9.02.yaml").write_text(renamed, encoding="utf-8")


def named_pipe(data: Path) -> None:
    # Reading a pipe would wait forever for a writer: it must be refused before it is opened.
    os.mkfifo(data / "releases" / "9.3.yaml")


def release_with_yml_extension(data: Path) -> None:
    # Was silently skipped: the release simply vanished from the site.
    text = (data / "releases" / "9.2.yaml").read_text(encoding="utf-8")
    (data / "releases" / "9.2.yaml").unlink()
    (data / "releases" / "9.2.yml").write_text(text, encoding="utf-8")


def release_missing_in_the_middle(data: Path) -> None:
    # 9.1 gone: a guide from 9.0 to 9.2 would silently leave out 9.1's changes.
    (data / "releases" / "9.1.yaml").unlink()
    text = (data / "releases" / "9.2.yaml").read_text(encoding="utf-8")
    (data / "releases" / "9.2.yaml").write_text(text.replace("follows: ", "# follows: "), encoding="utf-8")


def stray_file_in_ledger_folder(data: Path) -> None:
    (data / "ledger").mkdir()
    (data / "ledger" / "9.2.md").write_text("notes\n", encoding="utf-8")


def _secret(data: Path) -> Path:
    secret = data.parent / "outside"
    secret.mkdir(exist_ok=True)
    (secret / "token.yaml").write_text("token: hunter2\n", encoding="utf-8")
    return secret


def sources_link_outside_data(data: Path) -> None:
    (data / "sources.yaml").unlink()
    (data / "sources.yaml").symlink_to(_secret(data) / "token.yaml")


def topics_link_outside_data(data: Path) -> None:
    (data / "topics.yaml").unlink()
    (data / "topics.yaml").symlink_to(_secret(data) / "token.yaml")


def pypi_snapshot_link_outside_data(data: Path) -> None:
    (data / "pypi.json").symlink_to(_secret(data) / "token.yaml")


def releases_folder_link_outside_data(data: Path) -> None:
    # Each file in it is a plain file: only the folder's own link leaves data/.
    outside = _secret(data) / "releases"
    shutil.move(data / "releases", outside)
    (data / "releases").symlink_to(outside)


def ledger_folder_link_outside_data(data: Path) -> None:
    (data / "ledger").symlink_to(_secret(data))


def release_link_loop(data: Path) -> None:
    (data / "releases" / "9.3.yaml").symlink_to(data / "releases" / "9.3.yaml")


FILESYSTEM_CASES = [
    (sources_link_outside_data, "data/sources.yaml:1:1: (file)", "is a symbolic link to"),
    (topics_link_outside_data, "data/topics.yaml:1:1: (file)", "is a symbolic link to"),
    (pypi_snapshot_link_outside_data, "data/pypi.json:1:1: (file)", "is a symbolic link to"),
    (releases_folder_link_outside_data, "data/releases:1:1: (file)", "is a symbolic link to"),
    (ledger_folder_link_outside_data, "data/ledger:1:1: (file)", "is a symbolic link to"),
    (release_link_loop, "data/releases/9.3.yaml:1:1: (file)", "a loop"),
    (release_with_yml_extension, "data/releases/9.2.yml:1:1: (file)", "is not read: releases/ holds only X.Y.yaml"),
    (stray_file_in_ledger_folder, "data/ledger/9.2.md:1:1: (file)", "is not read: ledger/ holds only X.Y.yaml"),
    (
        release_missing_in_the_middle,
        "data/releases/9.2.yaml:1:10: version",
        "data/releases has 9.0 and 9.2 but not 9.1: every guide across the gap would leave its changes out",
    ),
    (directory_named_like_a_release, "data/releases/9.3.yaml:1:1: (file)", "is a directory"),
    (broken_link, "data/releases/9.3.yaml:1:1: (file)", "broken link"),
    (link_outside_data, "data/releases/9.3.yaml:1:1: (file)", "symbolic link to"),
    (oversized_file, "data/releases/9.2.yaml:1:1: (file)", f"limited to {MAX_FILE_BYTES:,} bytes"),
    (no_release_files, "data/releases:1:1: (file)", "holds no release files"),
    (
        two_files_for_one_version,
        "data/releases/9.2.yaml:1:10: version",
        "duplicate version '9.2': data/releases/9.02.yaml and data/releases/9.2.yaml",
    ),
    (named_pipe, "data/releases/9.3.yaml:1:1: (file)", "not a regular file"),
]


@pytest.mark.parametrize(("make", "where", "message"), FILESYSTEM_CASES, ids=[c[0].__name__ for c in FILESYSTEM_CASES])
def test_file_system_cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make, where: str, message: str) -> None:
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    make(tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    lines = problems_of(tmp_path / "data")
    matching = [line for line in lines if line.startswith(where + ": ")]
    assert matching, f"expected a line starting with {where!r} in:\n" + "\n".join(lines)
    assert message in matching[0]


def test_editor_swap_and_backup_files_are_not_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    for name in (".9.2.yaml.swp", "9.2.yaml~", "#9.2.yaml#"):
        (tmp_path / "data" / "releases" / name).write_text("not: [yaml\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert problems_of(tmp_path / "data") == []


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # chmod 0 does not stop root (as CI runs), so the operating system's answer is simulated.
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    blocked = (tmp_path / "data" / "releases" / "9.2.yaml").resolve()
    read_bytes = Path.read_bytes

    def refuse(path: Path) -> bytes:
        if path.resolve() == blocked:
            raise PermissionError(13, "Permission denied", str(path))
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    monkeypatch.chdir(tmp_path)
    lines = problems_of(tmp_path / "data")
    assert "data/releases/9.2.yaml:1:1: (file): cannot be read: Permission denied" in lines


def test_a_line_separator_in_a_comment_publishes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # YAML 1.1 (PyYAML) ends a line at U+2028: the rest of the comment became the field `limits`,
    # shown at the top of the release page. YAML 1.2 keeps it in the comment.
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    release = tmp_path / "data" / "releases" / "9.2.yaml"
    text = release.read_text(encoding="utf-8")
    hidden = "summary: The third made-up release.  # reviewed\u2028limits: Published from a comment"
    release.write_text(text.replace("summary: The third made-up release.", hidden), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # Round 3: invisible in a review, so refused like the same character in a value, with its place.
    with pytest.raises(DataError) as refused:
        open_catalog(tmp_path / "data")
    lines = refused.value.report().splitlines()[1:]
    line = text[: text.index("summary: The third made-up release.")].count("\n") + 1
    column = len("summary: The third made-up release.  # reviewed") + 1
    assert lines == [
        f"data/releases/9.2.yaml:{line}:{column}: (yaml): U+2028 (line separator) outside a value (in a "
        "comment?): invisible, and a line break to some YAML readers; remove it"
    ], lines
