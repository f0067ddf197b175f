"""Facts about the whole tree (macros/tools/scan_tree.py) settle uses one module cannot: a shared
init helper that only constructors run, and istft in a tree that makes only complex spectrograms.
Each case is a small tree of modules written as timm and demucs write them, scanned as a folder,
with the (file, line, item) the item's text says are affected."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from macros.query.catalog import Catalog, open_catalog
from macros.tools.scan import scan
from macros.tools.scan_tree import COMPLEX_SPECTROGRAMS, CONSTRUCTS, facts_that_hold

INIT = "cpu-low-precision-sampling-changed"  # 2.12: trunc_normal_ of half-precision tensors
ISTFT = "stft-return-complex-required"  # 2.0: istft refuses a real (..., 2) tensor

WEIGHT_INIT = """
    from torch import nn
    def init_weight_vit(module, name):
        if isinstance(module, nn.Linear):
            nn.init.trunc_normal_(module.weight, std=0.02)
    """
MODEL = """
    from functools import partial
    from torch import nn
    from .weight_init import init_weight_vit
    class Hiera(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)
            init_fn = partial(init_weight_vit, name="head")
            self.apply(init_fn)
    """
SPEC = """
    import torch as th
    def spectro(x, n_fft=512):
        return th.stft(x, n_fft, window=th.hann_window(n_fft), return_complex=True)
    def ispectro(z, n_fft=512):
        return th.istft(z, n_fft, window=th.hann_window(n_fft))
    """


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog(ROOT / "data")


def found(catalog: Catalog, folder: Path, modules: dict[str, str], start: str, end: str) -> set:
    for name, code in modules.items():
        (folder / name).write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    result = scan([folder], catalog, start, end, "https://example.org/")
    assert result.skipped == []
    return {(Path(f.path).name, f.line, f.item_id) for f in result.findings}


def test_an_init_helper_only_constructors_run_initialises_float32_layers(catalog: Catalog, tmp_path: Path) -> None:
    assert found(catalog, tmp_path, {"weight_init.py": WEIGHT_INIT, "model.py": MODEL}, "2.11", "2.12") == set()


def test_an_init_helper_run_after_a_cast_or_never_seen_run_is_reported(catalog: Catalog, tmp_path: Path) -> None:
    alone = found(catalog, tmp_path, {"weight_init.py": WEIGHT_INIT}, "2.11", "2.12")
    assert alone == {("weight_init.py", 4, INIT)}  # no module of the tree runs it: a user may
    after_cast = """
        from weight_init import init_weight_vit
        def reinit(model):
            model.half()
            model.apply(init_weight_vit)
        """
    modules = {"weight_init.py": WEIGHT_INIT, "model.py": MODEL, "tune.py": after_cast}
    assert found(catalog, tmp_path, modules, "2.11", "2.12") == {("weight_init.py", 4, INIT)}


def test_istft_in_a_tree_of_complex_spectrograms(catalog: Catalog, tmp_path: Path) -> None:
    assert found(catalog, tmp_path, {"spec.py": SPEC}, "1.13", "2.0") == set()
    round_trip = """
        import torch
        def wiener(z):
            m = torch.view_as_real(z)
            return torch.view_as_complex(m * 0.5)
        """
    assert found(catalog, tmp_path, {"spec.py": SPEC, "wiener.py": round_trip}, "1.13", "2.0") == set()


def test_istft_where_the_tree_may_make_real_spectrograms_is_reported(catalog: Catalog, tmp_path: Path) -> None:
    real_views = """
        import torch
        def as_pairs(z):
            return torch.view_as_real(z)
        """
    assert found(catalog, tmp_path, {"spec.py": SPEC, "pairs.py": real_views}, "1.13", "2.0") == {("spec.py", 5, ISTFT)}
    legacy = """
        import torch
        def spectrogram(x):
            return torch.stft(x, 400)
        """
    (tmp_path / "pairs.py").unlink()
    assert found(catalog, tmp_path, {"spec.py": SPEC, "legacy.py": legacy}, "1.13", "2.0") == {
        ("spec.py", 5, ISTFT),
        ("legacy.py", 3, ISTFT),  # stft without return_complex: the same item
    }
    (tmp_path / "legacy.py").unlink()
    only_inverse = SPEC.replace("return_complex=True", "return_complex=False")
    assert ("spec.py", 5, ISTFT) in found(catalog, tmp_path, {"spec.py": only_inverse}, "1.13", "2.0")


def test_a_fact_a_file_that_cannot_be_parsed_could_deny_does_not_hold(tmp_path: Path) -> None:
    (tmp_path / "spec.py").write_text(textwrap.dedent(SPEC), encoding="utf-8")
    (tmp_path / "broken.py").write_text("def f(:\n    torch.view_as_real(z)\n", encoding="utf-8")
    (tmp_path / "init.py").write_text("from weight_init import init_weight_vit\n(\n", encoding="utf-8")
    asked = {COMPLEX_SPECTROGRAMS, f"{CONSTRUCTS}init_weight_vit"}
    assert facts_that_hold(sorted(tmp_path.iterdir()), asked) == set()
    (tmp_path / "broken.py").unlink()
    (tmp_path / "init.py").unlink()
    assert facts_that_hold(sorted(tmp_path.iterdir()), asked) == {COMPLEX_SPECTROGRAMS}
