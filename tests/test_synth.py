"""The benchmark's synthetic data generator writes data the real loader accepts, deterministically."""

from __future__ import annotations

import sys
from pathlib import Path

from macros.query.catalog import open_catalog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "perf"))

import synth  # noqa: E402


def file_bytes(data: Path) -> dict[str, bytes]:
    return {str(path.relative_to(data)): path.read_bytes() for path in sorted(data.rglob("*.yaml"))}


def test_generated_data_loads_with_lifecycles_code_and_disputes(tmp_path: Path) -> None:
    data = synth.generate(tmp_path / "data", releases=3, items=40)

    catalog = open_catalog(data)

    assert [release.version for release in catalog.releases] == ["5.0", "5.1", "5.2"]
    assert len(catalog.items) == 120
    items = [item for release in catalog.releases for item in release.items]
    assert any(catalog.release_of(item.follows).key < catalog.release_of(item.id).key for item in items if item.follows)
    assert any(item.kind == "breaking" and item.before and item.after for item in items)
    assert any(release.disputes for release in catalog.releases)


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    first = file_bytes(synth.generate(tmp_path / "first", releases=3, items=40, seed=7))
    again = file_bytes(synth.generate(tmp_path / "again", releases=3, items=40, seed=7))
    other = file_bytes(synth.generate(tmp_path / "other", releases=3, items=40, seed=8))

    assert first == again
    assert first.keys() == other.keys()
    assert first != other
