"""Ledgers: `python -m macros ledger` turns a copy of the notes into entries to decide, keeps the
decisions on a second run, and `make check` / `make coverage` hold the data to them.

The notes here are made up, in the shape of PyTorch's (sections, area headings, bullets with PR
numbers, a Highlights table, code blocks whose `#` lines are not PRs).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURE_DATA, ROOT

from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog
from macros.query.coverage import coverage_report

NOTES = """\
# PyTorch 9.2.0 Release Notes

- [Highlights](#highlights)
- [Backwards Incompatible Changes](#backwards-incompatible-changes)

# Highlights

<table>
  <tr><td><strong>Faster path</strong> by default</td></tr>
  <tr>
    <td>Legacy IO goes away (#5002)</td>
  </tr>
</table>

# Backwards Incompatible Changes

## Dynamo

- `old_flag` is removed (#5001)

  ```python
  # 9.1 (#9999)
  - not an entry
  ```

- a second change (#5003, #5004)
  - with a nested follow-up (#5005)

## A change written as a heading, with paragraphs under it (#5008)

Explained here, see #1234 for background.

### More details

Still the same entry.

# Bug fixes

## Data
### Loading
- a crash fixed ([#5006](https://github.com/pytorch/pytorch/pull/5006))

### Sampling

  - an indented bullet is an entry too, its PRs
    wrapped onto the next line (#5009)

    Background paragraph, not its PRs (#7777).
"""


def run_ledger(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "macros", "ledger", *args, "--data", str(project / "data")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    (tmp_path / "notes.md").write_text(NOTES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def entries(project: Path) -> list[dict]:
    return yaml.safe_load((project / "data" / "ledger" / "9.2.yaml").read_text(encoding="utf-8"))["entries"]


def test_the_tool_lists_every_entry_of_the_notes_with_its_place_and_prs(project: Path) -> None:
    result = run_ledger(project, str(project / "notes.md"), "--release", "9.2", "--notes", "notes")
    assert result.returncode == 0, result.stderr
    assert "7 entries, 0 decided" in result.stdout
    assert [(e["section"], e["area"], e["n"], e["prs"]) for e in entries(project)] == [
        ("highlights", "", 1, []),
        ("highlights", "", 2, [5002]),
        ("backwards-incompatible-changes", "Dynamo", 1, [5001]),
        ("backwards-incompatible-changes", "Dynamo", 2, [5003, 5004, 5005]),
        ("backwards-incompatible-changes", "Dynamo", 3, [5008]),
        ("bug-fixes", "Data / Loading", 1, [5006]),
        ("bug-fixes", "Data / Sampling", 1, [5009]),
    ]
    assert all(e["decision"] is None for e in entries(project))
    # The ledger holds places and numbers, never the notes' sentences.
    text = (project / "data" / "ledger" / "9.2.yaml").read_text(encoding="utf-8")
    assert "old_flag" not in text and "crash" not in text


def test_undecided_entries_are_counted_not_failed(project: Path) -> None:
    run_ledger(project, str(project / "notes.md"), "--release", "9.2", "--notes", "notes")
    catalog = open_catalog(project / "data")
    report = coverage_report(catalog)
    assert "9.2: 0 of 7 entries decided" in report
    assert "backwards-incompatible-changes 0/3" in report


def decide(project: Path, decisions: list[str | None]) -> None:
    path = project / "data" / "ledger" / "9.2.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    entry_lines = [i for i, line in enumerate(lines) if line.startswith("  - {")]
    for index, decision in zip(entry_lines, decisions, strict=True):
        if decision is not None:
            value = f'"{decision}"' if decision.startswith("not-felt") else decision
            lines[index] = lines[index].replace("decision: null", f"decision: {value}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_second_run_keeps_the_decisions(project: Path) -> None:
    run_ledger(project, str(project / "notes.md"), "--release", "9.2", "--notes", "notes")
    decide(project, ["fast-path", "legacy-io-removed", "old-flag-removed", None, None, "not-felt: fix", None])
    # The notes gain an entry at the top of an area: positions move, decisions stay with their PRs.
    notes = (project / "notes.md").read_text().replace("## Dynamo\n\n", "## Dynamo\n\n- a new entry (#5007)\n")
    (project / "notes.md").write_text(notes)
    result = run_ledger(project, str(project / "notes.md"), "--release", "9.2")
    assert result.returncode == 0, result.stderr
    assert "8 entries, 4 decided" in result.stdout
    decided = {tuple(e["prs"]): e["decision"] for e in entries(project)}
    assert decided[(5001,)] == "old-flag-removed" and decided[(5006,)] == "not-felt: fix"
    assert decided[(5007,)] is None


def test_coverage_shows_felt_per_section_and_the_second_reading(project: Path) -> None:
    run_ledger(project, str(project / "notes.md"), "--release", "9.2", "--notes", "notes")
    decide(project, ["fast-path", "legacy-io-removed", "old-flag-removed", None, None, "not-felt: fix", None])
    report = coverage_report(open_catalog(project / "data"))
    assert "9.2: 4 of 7 entries decided; not yet re-read against felt-3" in report
    # The first three entries (two highlights, one breaking) are covered by items with an effect.
    assert "highlights 2/2 decided: 2 felt, 2 covered by 2 items" in report
    assert "backwards-incompatible-changes 1/3 decided: 1 felt, 1 covered by 1 items" in report
    assert "bug-fixes 1/2 decided: 0 felt, 0 covered by 0 items" in report
    path = project / "data" / "ledger" / "9.2.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("entries:\n", 'reread: {date: "2026-11-28", definition: felt-3}\nentries:\n', 1))
    report = coverage_report(open_catalog(project / "data"))
    assert "9.2: 4 of 7 entries decided; re-read against felt-3 on 2026-11-28" in report


def test_check_holds_items_and_decisions_to_the_ledger(project: Path) -> None:
    run_ledger(project, str(project / "notes.md"), "--release", "9.2", "--notes", "notes")
    decide(project, ["fast-path", "no-such-item", "not-felt: ci", None, None, None, None])
    release = project / "data" / "releases" / "9.2.yaml"
    text = release.read_text(encoding="utf-8")
    release.write_text(
        text.replace(
            "    follows: legacy-io-deprecated\n", "    follows: legacy-io-deprecated\n    prs: [5001, 4242]\n"
        )
    )
    with pytest.raises(DataError) as raised:
        open_catalog(project / "data")
    lines = raised.value.report().splitlines()[1:]
    assert len(lines) == 2
    assert lines[0].startswith("data/ledger/9.2.yaml:") and lines[0].endswith(
        "entries[1].decision: no item has the id 'no-such-item'"
    )
    assert lines[1].startswith("data/releases/9.2.yaml:") and lines[1].endswith(
        "items[2].prs[1]: #4242 is not an entry of data/ledger/9.2.yaml (cite the notes' PR, or move the item)"
    )


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (
            "decision: null}",
            'decision: "not-felt: boring"}',
            "entries[0].decision",
            "'boring' is not a not-felt reason",
        ),
        ("decision: null}", "decision: Not An Id}", "entries[0].decision", "neither an item id nor 'not-felt"),
        ('release: "9.2"', 'release: "9.7"', "release", "no data/releases/9.7.yaml for this ledger"),
        ("notes: notes", "notes: notes-9-2", "notes", "unknown source 'notes-9-2'"),
    ],
)
def test_a_bad_ledger_names_file_line_and_field(project: Path, old: str, new: str, field: str, message: str) -> None:
    run_ledger(project, str(project / "notes.md"), "--release", "9.2", "--notes", "notes")
    path = project / "data" / "ledger" / "9.2.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as raised:
        open_catalog(project / "data")
    problems = [line for line in raised.value.report().splitlines() if f": {field}: " in line]
    assert any(p.startswith("data/ledger/9.2.yaml:") and message in p for p in problems), problems


def test_the_tool_refuses_bad_input_and_writes_nothing(project: Path) -> None:
    (project / "empty.md").write_text("# Title\n\nno sections here\n", encoding="utf-8")
    result = run_ledger(project, str(project / "empty.md"), "--release", "9.2")
    assert result.returncode == 2 and "no entries found" in result.stderr and "Traceback" not in result.stderr
    result = run_ledger(project, str(project / "missing.md"), "--release", "9.2")
    assert result.returncode == 2 and "cannot be read" in result.stderr
    result = run_ledger(project, str(project / "notes.md"), "--release", "nine")
    assert result.returncode == 2 and "is not X.Y" in result.stderr
    assert not (project / "data" / "ledger").exists()
    # A broken existing ledger is reported, and left as it was.
    (project / "data" / "ledger").mkdir()
    broken = 'release: "9.2"\nnotes: notes\nentries:\n  - {section: x, n: 0, decision: null}\n'
    (project / "data" / "ledger" / "9.2.yaml").write_text(broken, encoding="utf-8")
    result = run_ledger(project, str(project / "notes.md"), "--release", "9.2")
    assert result.returncode == 1 and "entries[0]" in result.stderr and "nothing was written" in result.stderr
    assert (project / "data" / "ledger" / "9.2.yaml").read_text(encoding="utf-8") == broken


def test_every_real_ledger_names_a_release_and_decides_with_known_ids() -> None:
    catalog = open_catalog(ROOT / "data")  # raises on any ledger problem
    for version, ledger in catalog.ledgers.items():
        assert version in catalog.by_version
        for entry in ledger.entries:
            assert entry.item_id is None or entry.item_id in catalog.items


def test_an_area_that_opens_with_a_paragraph_keeps_its_bullets_as_entries() -> None:
    """2.6's "Composability" improvements open with a paragraph, then list 40 changes, each with its
    PR: each is an entry of the area, not one entry holding them all. A bold heading with a
    paragraph is still one entry, whatever it lists (2.0's torch.testing removals)."""
    from macros.tools.ledger import parse_notes

    notes = """# PyTorch 9.9 Release Notes
## Improvements
### Composability
Intro: what this area covers, in a sentence.

- First change (#7001)
- Second change (#7002, #7003)
## Backwards Incompatible Changes
### **Remove old helpers**
Several helpers go:

- `helper_a` (#7010)
- `helper_b` (#7011)
"""
    found = [(e.section, e.area, e.n, e.prs) for e in parse_notes(notes)]
    assert found == [
        ("improvements", "Composability", 1, [7001]),
        ("improvements", "Composability", 2, [7002, 7003]),
        ("backwards-incompatible-changes", "", 1, [7010, 7011]),
    ]
