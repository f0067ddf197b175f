"""Unit tests of loading and the model on small inline documents."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from macros.dataset.load import load_file
from macros.dataset.model import Item, Release, SourceRegistry, version_key


def write(tmp_path: Path, text: str, name: str = "sources.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_dates_stay_strings_and_positions_are_recorded(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'reviewed: "2030-01-01"\nsources:\n  - id: a\n    title: T\n    url: https://x.org\n'
        "    publisher: P\n    tier: mirror\n    date: 2030-01-02\n",
    )
    registry, positions, problems = load_file(path, SourceRegistry)
    assert problems == []
    assert registry is not None
    assert registry.sources[0].date == "2030-01-02"  # not a datetime.date
    assert positions.of(("sources", 0, "tier")) == (7, 11)


def test_every_problem_in_a_file_is_reported(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'reviewed: "2030-01-01"\nsources:\n  - id: A_B\n    title: T\n    url: ftp://x.org\n'
        "    publisher: P\n    tier: blog\n",
    )
    _, _, problems = load_file(path, SourceRegistry)
    fields = [problem.field for problem in problems]
    assert fields == ["sources[0].id", "sources[0].url", "sources[0].tier"]
    assert [problem.line for problem in problems] == [3, 5, 7]


def item(**changes: object) -> dict:
    base = {"id": "x", "kind": "feature", "area": "nn", "title": "T", "summary": "S", "sources": ["s"]}
    return {**base, **changes}


def test_changes_must_say_how_they_hit_users() -> None:
    with pytest.raises(ValidationError, match="effect is required for a breaking item"):
        Item.model_validate(item(kind="breaking", action="Do it."))
    with pytest.raises(ValidationError, match="action is required for a removal item"):
        Item.model_validate(item(kind="removal", effect="error"))


def test_before_and_after_come_together() -> None:
    with pytest.raises(ValidationError, match="before and after come together"):
        Item.model_validate(item(before="x = 1"))


def test_item_ids_are_slugs() -> None:
    with pytest.raises(ValidationError):
        Item.model_validate(item(id="Not A Slug"))
    assert Item.model_validate(item(id="cuda-12-8-wheels-removed")).id == "cuda-12-8-wheels-removed"


def test_records_are_frozen() -> None:
    record = Item.model_validate(item())
    with pytest.raises(ValidationError):
        record.title = "changed"  # type: ignore[misc]


def test_versions_sort_numerically() -> None:
    assert sorted(["2.10", "2.9", "2.13", "2.8"], key=version_key) == ["2.8", "2.9", "2.10", "2.13"]


def test_release_rejects_unknown_top_level_keys(tmp_path: Path) -> None:
    path = write(tmp_path, 'version: "9.9"\nsurprise: 1\n', "9.9.yaml")
    _, _, problems = load_file(path, Release)
    assert any(p.field == "surprise" and "unknown field" in p.message for p in problems)
