"""The real data in data/ passes every check, and the facts that matter most stay true."""

from __future__ import annotations

import pytest
from conftest import ROOT

from macros.query.catalog import Catalog, open_catalog
from macros.tools.schema import API_SCHEMA_DIR, api_schema_texts, schema_texts


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog(ROOT / "data")  # raises DataError listing every problem


def test_covers_every_minor_release_up_to_the_newest_on_pypi(catalog: Catalog) -> None:
    """From the oldest release in the data to the newest torch minor PyPI had on the snapshot's
    date, none missing; and the data reaches back at least to 2.4 (transformers' minimum)."""
    from macros.dataset import wheels

    assert catalog.pypi is not None
    newest = wheels.newest(wheels.wheels(catalog.pypi, "torch"))
    assert newest is not None
    major, minor = (int(part) for part in newest[0].split(".")[:2])
    first = catalog.releases[0].key
    assert first <= (2, 4)
    assert [r.version for r in catalog.releases] == [f"{major}.{m}" for m in range(first[1], minor + 1)]


def test_schema_files_match_the_model() -> None:
    for name, text in schema_texts().items():
        committed = (ROOT / "data" / "schema" / name).read_text(encoding="utf-8")
        assert committed == text, f"data/schema/{name} is stale: run `make schema`"
    for name, text in api_schema_texts().items():
        committed = (API_SCHEMA_DIR / name).read_text(encoding="utf-8")
        assert committed == text, f"docs/api/v1/schema/{name} is stale: run `make schema`"


def test_torchscript_is_deprecated_in_2_10_and_never_removed(catalog: Catalog) -> None:
    release, item = catalog.items["torchscript-deprecated"]
    assert (release.version, item.kind) == ("2.10", "deprecation")
    # After its deprecation, nothing removes TorchScript (earlier releases removed parts of it, such
    # as nvFuser in 2.2, which is another story).
    removals = [
        item
        for release in catalog.releases
        if release.key >= (2, 10)
        for item in release.items
        if item.kind == "removal"
    ]
    for item in removals:
        assert item.area != "jit", item.id
        assert "torchscript" not in item.title.lower() and "torch.jit" not in item.title, item.id


def test_cuda_12_8_wheels_removed_in_2_12_after_default_moved_in_2_11(catalog: Catalog) -> None:
    assert catalog.release_of("cuda-12-8-wheels-removed").version == "2.12"
    assert catalog.release("2.11").platform.cuda.default_wheel == "13.0"
    assert catalog.release("2.10").platform.cuda.default_wheel == "12.8"
    assert "12.8" not in {b.version for b in catalog.release("2.12").platform.cuda.stable}


def test_python_and_macos_floors(catalog: Catalog) -> None:
    assert catalog.release("2.8").platform.python.min == "3.9"
    assert catalog.release("2.9").platform.python.min == "3.10"
    assert catalog.release("2.9").platform.macos.mps_min == "14"
    assert catalog.release_of("python-3-9-dropped").version == "2.9"


def test_lifecycles_link_across_releases(catalog: Catalog) -> None:
    def chain(item_id: str) -> list[tuple[str, str]]:
        return [(r.version, i.kind) for r, i in catalog.lifecycle(item_id)]

    # Introduced in 2.5 (work in progress), the recommended API in 2.6, deprecated in 2.9, removed in 2.11.
    steps = chain("export-for-training-removed")
    assert steps[0] == ("2.5", "feature")
    assert steps.index(("2.9", "deprecation")) < steps.index(("2.11", "removal"))
    assert ("2.12", "deprecation") in chain("magma-deprecated")
    assert chain("headers-cpp20")[0] == ("2.12", "breaking")


def test_every_release_has_sources_platform_and_companions(catalog: Catalog) -> None:
    for release in catalog.releases:
        assert release.platform.cuda.stable and release.platform.python.min
        assert {"torchvision", "torchaudio"} <= {c.name for c in release.companions}, release.version
        if release.key >= (2, 8):  # torchao and torchcodec are paired with every release since
            assert {c.name for c in release.companions} == {"torchvision", "torchaudio", "torchao", "torchcodec"}
        for item in release.items:
            assert item.sources and all(s in catalog.sources for s in item.sources)


def test_contradictions_are_recorded_as_disputes(catalog: Catalog) -> None:
    disputes = {d.id: (r.version, d) for r in catalog.releases for d in r.disputes}
    assert disputes["dispute-torchscript-removed-2-12"][1].verdict == "rejected"
    assert len(disputes) >= 15


def test_every_before_after_pair_differs_and_python_code_parses(catalog: Catalog) -> None:
    import ast

    pairs = [(item, release) for release in catalog.releases for item in release.items if item.before]
    assert len(pairs) >= 20
    for item, _ in pairs:
        assert item.before is not None and item.after is not None
        assert item.before.strip() != item.after.strip(), item.id
        if item.code_lang == "python":
            for side in (item.before, item.after):
                try:
                    ast.parse(side)
                except SyntaxError as error:
                    raise AssertionError(f"{item.id}: {error}") from None
