"""Round 2's hostile inputs that were still open: a bad macro call in a hand-written page, terminal
escapes from the data in the build log, two ROCm versions that make one anchor, backslashes in a
source title's Markdown link title. (U+2028 in a YAML comment: tests/test_bad_inputs.py.)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import markdown
import pytest
from bs4 import BeautifulSoup
from conftest import FIXTURE_DATA, ROOT, copy_project, run_build

from macros.dataset.model import Source
from macros.render.release import cite


def check(data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "macros", "check", "--data", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("call", "says"),
    [
        ("release_list(5, 6)", "{{ release_list(5, 6) }}: too many positional arguments; it takes: page='index.md'"),
        ("release_list(pages='x')", "{{ release_list(pages='x') }}: got an unexpected keyword argument 'pages'"),
        ("release_list(page=5)", "{{ release_list(page=5) }}: TypeError: "),
    ],
    ids=["too-many", "unknown-keyword", "wrong-type"],
)
def test_a_bad_macro_call_in_a_hand_written_page_is_one_line(tmp_path: Path, call: str, says: str) -> None:
    project = copy_project(tmp_path, FIXTURE_DATA)
    index = project / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("{{ release_list() }}", "{{ " + call + " }}"))
    build = run_build(project)
    assert build.returncode != 0
    assert "Traceback" not in build.output, build.output[-3000:]
    assert f"index.md:19: {says}" in build.output, build.output[-3000:]


def test_terminal_escapes_from_the_data_never_reach_the_log(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    release = data / "releases" / "9.2.yaml"
    text = release.read_text(encoding="utf-8")
    hostile_key = '"\\e[2J\\e]8;;http://x\\e\\\\bad\\u202ekey": 1'
    release.write_text(text.replace("summary: The", hostile_key + "\nsummary: The", 1), encoding="utf-8")
    (data / "releases" / "\x1b[31mred\u202e.yml").write_text("x: 1\n", encoding="utf-8")
    result = check(data)
    assert result.returncode == 1
    for char in ("\x1b", "\u202e", "\x9b"):
        assert char not in result.stdout + result.stderr
    assert "\\x1b[31mred\\u202e.yml" in result.stderr, result.stderr
    assert "\\x1b[2J\\x1b]8;;http://x\\x1b\\bad\\u202ekey: unknown field" in result.stderr, result.stderr


def test_rocm_versions_that_make_one_anchor_are_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    release = data / "releases" / "9.2.yaml"
    text = release.read_text(encoding="utf-8")
    release.write_text(text.replace('rocm: {stable: ["7.0"]', 'rocm: {stable: ["7.2", "72"]'), encoding="utf-8")
    result = check(data)
    assert result.returncode == 1
    assert (
        "data/releases/9.2.yaml:14:26: platform.rocm.stable[1]: 'rocm72' and 'rocm7.2' would share the install "
        "anchor #install-rocm72" in result.stderr
    ), result.stderr


@pytest.mark.parametrize("title", ["Notes C:\\", "Notes C:\\\\", "a \\\\ b \\* c", 'q "\\" q'])
def test_a_source_title_keeps_its_backslashes_in_citation_links(title: str) -> None:
    from macros.query.catalog import Citations

    source = Source(id="notes", title=title, url="https://example.org/", publisher="P", tier="official-notes")
    citations = Citations(SimpleNamespace(sources={"notes": source}))  # type: ignore[arg-type]
    html = markdown.markdown("| a |\n| --- |\n| " + cite(citations, ["notes"]) + " |", extensions=["tables"])
    link = BeautifulSoup(html, "html.parser").find("a")
    assert link is not None and link["title"] == " ".join(title.split()), html
