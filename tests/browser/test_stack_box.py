"""The guides' "Your packages" box in a real browser: a real dependency list pasted as a reader
pastes it, read row by row, and the same answers as `python -m macros stack` on the same text;
a collect_env paste's `[pip3]` lines; companions that do not match the installed torch; the copy
opened from file:// (the shared table loads as a script there too)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from browserkit import Watch, browser, context, offline_site, site_url  # noqa: F401 (fixtures)
from conftest import ROOT

from macros.__main__ import main

pytestmark = pytest.mark.browser

FIXTURES = ROOT / "tests" / "fixtures" / "stack"
GUIDE = "upgrade/2.8-to-2.12.html"


def cli(path: Path, target: str) -> dict[str, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["stack", str(path), "--to", target, "--format", "json"])
    return {row["name"]: row for row in json.loads(out.getvalue())["packages"]}


def paste_and_read(page, text: str) -> dict[str, dict[str, str]]:
    box = page.locator("#your-packages")
    box.locator("summary").click()
    box.locator("textarea[name=installed]").fill(text)
    page.wait_for_selector("#your-packages table.atlas-stack-table tbody tr")
    headings = [th.inner_text() for th in box.locator("table.atlas-stack-table thead th").all()]
    rows = {}
    for tr in box.locator("table.atlas-stack-table tbody tr").all():
        cells = [cell.inner_text() for cell in tr.locator("th, td").all()]
        rows[cells[0]] = dict(zip(headings, cells, strict=True))
    return rows


def agree(rows: dict[str, dict[str, str]], answers: dict[str, dict], target: str) -> None:
    assert set(rows) == set(answers)
    for name, answer in answers.items():
        row = rows[name]
        assert row["Installed"] == answer["version"], name
        assert row["Requires"] == (answer["requires"] or "none"), name
        verdict = row[f"torch {target}"]
        if answer["allows_target"] is True:
            assert verdict.startswith(f"allows {target}"), name
            assert row[f"First release allowing {target}"] == "", name
        elif answer["allows_target"] is False:
            assert verdict == f"blocks {target}", name
            assert row[f"First release allowing {target}"] == (answer["first_allowing"] or "none yet"), name
        else:
            assert verdict.startswith("unknown"), name
            assert row[f"First release allowing {target}"] == (answer["first_allowing"] or "none yet"), name


def test_a_pasted_pin_list_gives_the_commands_answers(context, site_url) -> None:
    # huggingface/text-generation-inference's server/requirements_cuda.txt (`uv pip compile`), as
    # pasted: pins, `# via` comments, a header.
    source = FIXTURES / "tgi" / "requirements_cuda.txt"
    page = context.new_page()
    watch = Watch(page)
    page.goto(site_url + GUIDE, wait_until="load")
    rows = paste_and_read(page, source.read_text(encoding="utf-8"))
    agree(rows, cli(source, "2.12"), "2.12")
    assert rows["accelerate"]["Installed"] == "1.6.0"
    summary = page.locator(".atlas-stack-summary").inner_text()
    assert summary.startswith("0 of 4 packages block torch 2.12")
    assert "aiohttp" in page.locator(".atlas-stack-uncovered").inner_text()
    assert watch.external == [] and watch.errors == []


def test_blockers_name_the_release_to_move_to(context, site_url, tmp_path) -> None:
    # AUTOMATIC1111/stable-diffusion-webui's requirements_versions.txt: xformers 0.0.20 pins torch 2.0.1.
    source = FIXTURES / "sd-webui" / "requirements_versions.txt"
    page = context.new_page()
    watch = Watch(page)
    page.goto(site_url + GUIDE, wait_until="load")
    rows = paste_and_read(page, source.read_text(encoding="utf-8"))
    # The box reads pins only (what an environment has); the command's answers for those lines:
    pinned = tmp_path / "pinned.txt"
    pinned.write_text("".join(line + "\n" for line in source.read_text().splitlines() if "==" in line))
    agree(rows, cli(pinned, "2.12"), "2.12")
    assert rows["xformers"]["torch 2.12"] == "blocks 2.12"
    assert rows["xformers"]["First release allowing 2.12"] == "0.0.35"
    first = page.locator("table.atlas-stack-table tbody tr").first
    assert first.get_attribute("data-package") == "xformers"  # blockers first
    assert watch.errors == []


def test_collect_env_lines_and_companions_that_do_not_match(context, site_url) -> None:
    # The `[pip3]`/`[conda]` block of collect_env (its format), with torchvision from an older torch.
    paste = "\n".join(
        [
            "PyTorch version: 2.7.1+cu126",
            "Versions of relevant libraries:",
            "[pip3] numpy==2.2.6",
            "[pip3] torch==2.7.1+cu126",
            "[pip3] torchvision==0.21.0+cu126",
            "[pip3] triton==3.3.1",
            "[conda] accelerate                1.8.1                    pypi_0    pypi",
        ]
    )
    page = context.new_page()
    watch = Watch(page)
    page.goto(site_url + GUIDE, wait_until="load")
    rows = paste_and_read(page, paste)
    assert set(rows) == {"torchvision", "accelerate"}
    assert rows["torchvision"]["Installed"] == "0.21.0"  # the local label names a build of 0.21.0
    mismatch = page.locator(".atlas-stack-companions li").all_inner_texts()
    # torchvision 0.21.0 pins torch==2.6.0; 0.22.1 pins 2.7.1 (data/ecosystem.json).
    assert mismatch == [
        "torchvision 0.21.0 requires torch 2.6.0, not the installed 2.7.1; torch 2.7.1 goes with torchvision 0.22.1."
    ]
    assert watch.errors == []


def test_the_box_works_from_a_copy_opened_from_disk(context, offline_site) -> None:
    page = context.new_page()
    watch = Watch(page)
    page.goto((offline_site / GUIDE).as_uri(), wait_until="load")
    rows = paste_and_read(page, "vllm==0.11.0\naccelerate==1.10.0\n")
    assert rows["vllm"]["torch 2.12"] == "blocks 2.12"
    assert rows["vllm"]["First release allowing 2.12"] == "none yet"
    assert rows["accelerate"]["torch 2.12"] == "allows 2.12"
    assert watch.external == [] and watch.errors == []
