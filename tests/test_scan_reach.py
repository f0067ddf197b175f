"""Uses of a `compiled` rule (2.12: distributed.nn collectives raise under torch.compile) in a
function its own module does not show compiled are reported when the tree's calls reach it from
compiled code (macros/tools/scan_reach.py). Each case is a small tree written as Lightning or
transformers write theirs, scanned as a folder, with the (file, line) the item's text says are
affected."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import ROOT

from macros.query.catalog import Catalog, open_catalog
from macros.tools.scan import scan
from macros.tools.scan_output import fingerprints
from macros.tools.scan_reach import UNCOMPILED, Reach, fact_for, reaches

ITEM = "distributed-nn-functional-compile-error"

HELPER = """
    import torch
    from torch.distributed.nn.functional import all_gather
    def _all_gather_if_available(tensor, group=None, sync_grads=False):
        if sync_grads:
            return torch.stack(all_gather(tensor, group=group))
        return tensor
    """
STRATEGY = """
    import torch.distributed as dist
    from .helpers import _all_gather_if_available
    class ParallelStrategy:
        def all_gather(self, tensor, group=None, sync_grads=False):
            return _all_gather_if_available(tensor, group=group, sync_grads=sync_grads)
        def barrier(self):
            dist.all_gather([], None)
    """
LIGHTNING_MODULE = """
    from torch.nn import Module
    class HooksMixin:
        pass
    class LightningModule(HooksMixin, Module):
        def training_step(self, batch):
            raise NotImplementedError
        def all_gather(self, data, group=None, sync_grads=False):
            gather = self.trainer.strategy.all_gather
            return gather(data, group=group, sync_grads=sync_grads)
    """
TRAINER = """
    from .helpers import _all_gather_if_available
    class Trainer:
        def compute_loss(self, model, inputs):
            return _all_gather_if_available(model(**inputs))
        def training_step(self, model, inputs):
            return self.compute_loss(model, inputs)
        def predict(self, dataset):
            return self.training_step(None, dataset)
    """


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog(ROOT / "data")


def write(folder: Path, modules: dict[str, str]) -> None:
    for name, code in modules.items():
        (folder / name).write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")


def found(catalog: Catalog, folder: Path, modules: dict[str, str]) -> set[tuple[str, int]]:
    write(folder, modules)
    result = scan([folder], catalog, "2.11", "2.12", "https://example.org/")
    assert result.skipped == []
    return {(Path(f.path).name, f.line) for f in result.findings if f.item_id == ITEM}


def test_a_helper_a_compiled_step_reaches_through_a_strategy_is_reported(catalog: Catalog, tmp_path: Path) -> None:
    """Lightning: a user's compiled `training_step` calls `self.all_gather`, which names the
    strategy's method, which calls the helper. The strategy's `dist.all_gather` is torch's, not a
    call of the strategy's method."""
    modules = {"helpers.py": HELPER, "strategy.py": STRATEGY, "module.py": LIGHTNING_MODULE}
    assert found(catalog, tmp_path, modules) == {("helpers.py", 5)}


def test_the_finding_says_how_compiled_code_reaches_the_helper(catalog: Catalog, tmp_path: Path) -> None:
    """The line names the way the search found, for the reader to check it: the compiled
    caller first, then the functions between it and the helper."""
    write(tmp_path, {"helpers.py": HELPER, "strategy.py": STRATEGY, "module.py": LIGHTNING_MODULE})
    (finding,) = scan([tmp_path], catalog, "2.11", "2.12", "https://example.org/").findings
    assert finding.symbol == (
        "torch.distributed.nn.functional.all_gather: check whether compiled code runs it"
        " (called from LightningModule.all_gather through ParallelStrategy.all_gather)"
    )
    block = """
        import torch
        import torch.distributed.nn
        class Base(torch.nn.Module):
            def training_step(self, batch):
                return batch
        class Model(Base):
            def gather(self, x):
                return torch.distributed.nn.all_gather(x)
        """
    write(tmp_path, {"block.py": block})
    symbols = {
        f.symbol for f in scan([tmp_path / "block.py"], catalog, "2.11", "2.12", "https://example.org/").findings
    }
    assert symbols == {
        "torch.distributed.nn.all_gather: check whether compiled code runs it"
        " (Model.gather is a public method of a module with compiled steps)"
    }


def test_a_helper_only_a_trainer_reaches_is_not_reported(catalog: Catalog, tmp_path: Path) -> None:
    """transformers: the Trainer's loss runs eagerly; it compiles only the model. A class without
    a module base is no module, even with a method named `training_step`."""
    assert found(catalog, tmp_path, {"helpers.py": HELPER, "trainer.py": TRAINER}) == set()
    (tmp_path / "alone").mkdir()
    assert found(catalog, tmp_path / "alone", {"helpers.py": HELPER}) == set()  # nothing calls it


def test_a_method_named_like_the_trainers_on_an_attribute_the_module_makes_is_not_its_call(
    catalog: Catalog, tmp_path: Path
) -> None:
    """`self.altup.predict(x)` in a forward calls the class `self.altup` is made of, not
    `Trainer.predict`; an attribute the class does not show being made may be anything."""
    shown = """
        import torch
        class AltUp(torch.nn.Module):
            def predict(self, x):
                return x
        class DecoderLayer(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.altup = AltUp()
            def forward(self, x):
                return self.altup.predict(x)
        """
    modules = {"helpers.py": HELPER, "trainer.py": TRAINER, "layer.py": shown}
    assert found(catalog, tmp_path, modules) == set()
    unshown = shown.replace("self.altup = AltUp()", "self.altup = altup")
    assert found(catalog, tmp_path, {**modules, "layer.py": unshown}) == {("helpers.py", 5)}


def test_methods_torch_modules_define_and_losses_do_not_reach(catalog: Catalog, tmp_path: Path) -> None:
    """`model.train()` may be torch's Module.train; a loss module's forward is not compiled code
    (training scripts compile the model); a module's constructor runs before compiling."""
    trainer = TRAINER.replace("def predict(self, dataset):", "def train(self, dataset):")
    loss_and_init = """
        import torch
        from trainer import Trainer
        class ClipLoss(torch.nn.Module):
            def forward(self, trainer, x):
                return trainer.compute_loss(x, {})
        class Net(torch.nn.Module):
            def __init__(self, trainer):
                super().__init__()
                self.gathered = trainer.compute_loss(self, {})
            def forward(self, model):
                model.train()
                return model
        """
    modules = {"helpers.py": HELPER, "trainer.py": trainer, "model.py": loss_and_init}
    assert found(catalog, tmp_path, modules) == set()


def test_a_module_method_forward_calls_is_reported_and_one_nothing_calls_is_not(
    catalog: Catalog, tmp_path: Path
) -> None:
    block = """
        import torch
        import torch.distributed.nn
        class Block(torch.nn.Module):
            def _gather(self, x):
                return torch.distributed.nn.all_gather(x)
            def unused(self, x):
                return torch.distributed.nn.all_gather(x)
            def forward(self, x):
                return self._gather(x)
        class Base(torch.nn.Module):
            def training_step(self, batch):
                return batch
        class Model(Base):
            def gather(self, x):
                return torch.distributed.nn.all_gather(x)
            def _private(self, x):
                return torch.distributed.nn.all_gather(x)
        """
    # `gather` is public in a module whose base has a step: a user's step in a subclass may call it.
    assert found(catalog, tmp_path, {"block.py": block}) == {("block.py", 5), ("block.py", 15)}


def test_a_tree_that_cannot_be_read_whole_reports_the_use(catalog: Catalog, tmp_path: Path) -> None:
    """A file that names the function but cannot be parsed may call it from compiled code."""
    broken = "from helpers import _all_gather_if_available\ndef f(:\n    _all_gather_if_available(x)\n"
    modules = {"helpers.py": HELPER, "trainer.py": TRAINER, "broken.py": broken}
    write(tmp_path, modules)
    result = scan([tmp_path], catalog, "2.11", "2.12", "https://example.org/")
    assert {(Path(f.path).name, f.line) for f in result.findings if f.item_id == ITEM} == {("helpers.py", 5)}
    paths = sorted(tmp_path.glob("*.py"))
    fact = fact_for("_all_gather_if_available", None)
    assert fact == f"{UNCOMPILED}_all_gather_if_available"
    assert reaches(paths, {fact}) == {fact: Reach((), ())}  # cannot tell: reported
    assert reaches([p for p in paths if p.name != "broken.py"], {fact}) == {fact: None}  # holds


def test_a_helper_function_is_called_through_its_module_not_through_any_object(
    catalog: Catalog, tmp_path: Path
) -> None:
    """`t.gather(0, index)` on a tensor is not a call of the tree's function `gather`;
    `helpers.gather(x)`, through the module an import binds, is."""
    helper = """
        import torch.distributed.nn
        def gather(x):
            return torch.distributed.nn.all_gather(x)
        """
    on_a_tensor = """
        import torch
        class Head(torch.nn.Module):
            def forward(self, t, index):
                return t.gather(0, index)
        """
    modules = {"helpers.py": helper, "head.py": on_a_tensor}
    assert found(catalog, tmp_path, modules) == set()
    through_the_module = on_a_tensor.replace("import torch\n", "import torch\n        import helpers\n").replace(
        "t.gather(0, index)", "helpers.gather(t)"
    )
    assert found(catalog, tmp_path, {**modules, "head.py": through_the_module}) == {("helpers.py", 3)}


def test_torchs_own_functions_stay_torchs_in_a_project_under_a_folder_named_torch(
    catalog: Catalog, tmp_path: Path
) -> None:
    """`dist.all_gather(...)` in a forward calls torch's function, not the tree's
    `ParallelStrategy.all_gather`, wherever the project lives."""
    net = """
        import torch.distributed as dist
        from torch import nn
        class Net(nn.Module):
            def forward(self, out, x):
                dist.all_gather(out, x)
                return out
        """
    project = tmp_path / "torch" / "project"
    project.mkdir(parents=True)
    assert found(catalog, project, {"helpers.py": HELPER, "strategy.py": STRATEGY, "net.py": net}) == set()


def test_a_findings_fingerprint_does_not_follow_the_way_compiled_code_reaches_it(
    catalog: Catalog, tmp_path: Path
) -> None:
    """Code scanning tracks a finding by its fingerprint: another caller found first elsewhere
    in the tree changes what the line explains, not which finding it is."""
    write(tmp_path, {"helpers.py": HELPER, "strategy.py": STRATEGY, "module.py": LIGHTNING_MODULE})
    (finding,) = scan([tmp_path], catalog, "2.11", "2.12", "https://example.org/").findings
    elsewhere = replace(finding, symbol=finding.symbol.replace("LightningModule.all_gather", "Fabric.all_gather"))
    other_line = replace(finding, line=finding.line - 1)
    (first,), (same,), (moved,) = (fingerprints([f], tmp_path) for f in (finding, elsewhere, other_line))
    assert first == same and first != moved
