"""Two builds of the same commit are byte-identical: no clock, no hash-seed ordering, no paths."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, Build, copy_project, run_build


def tree(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


def test_two_builds_of_the_real_data_are_byte_identical(real_site: Build, tmp_path: Path) -> None:
    # The second build pretends to run on another day (MkDocs takes "today" from SOURCE_DATE_EPOCH)
    # with another string-hash seed, from another folder and with an empty cache of compiled
    # templates: none of that may reach the output.
    cold_cache = tmp_path / "tmp"
    cold_cache.mkdir()
    again = run_build(
        copy_project(tmp_path, ROOT / "data"),
        {"SOURCE_DATE_EPOCH": "1000000000", "PYTHONHASHSEED": "12345", "TMPDIR": str(cold_cache)},
    )
    assert again.returncode == 0, again.output
    first, second = tree(real_site.site), tree(again.site)
    assert first.keys() == second.keys()
    differing = [path for path in first if first[path] != second[path]]
    assert differing == []
    assert "sitemap.xml.gz" in first and len(first) > 100
