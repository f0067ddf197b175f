"""`python -m macros stack`: real dependency files from public repositories (tests/fixtures/stack/,
sources in SOURCES.md) against the committed ecosystem snapshot.

The expectations were worked out by hand from the rows of data/ecosystem.json (each comment names
the rows read), not copied from the command's output. Bad inputs: one line naming the file, exit 2,
never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from macros.__main__ import main

FIXTURES = ROOT / "tests" / "fixtures" / "stack"
ANY = object()  # a field the row is not checked on


def stack(*args: str) -> subprocess.CompletedProcess[str]:
    """The command run in this process (the data loads once for all cases), as a finished process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["stack", *args])
    return subprocess.CompletedProcess(["stack", *args], status, out.getvalue(), err.getvalue())


def stack_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "macros", "stack", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


# (file, target, exit status, {name: (version, requires, allows_target, first_allowing)})
CASES = [
    # torchvision 0.28.0 pins torch==2.13.0; 0.29.0 pins 2.14.0 and 0.29.1/0.29.2 need >=2.14.0: no newer
    # release allows 2.12. transformers >=4.56,<5 (from the -r include): newest 4.57.6, torch>=2.2 under
    # its `torch` extra. torchaudio 2.11.0 and torchcodec 0.17.0 (newest >=0.14) declare no torch at all.
    (
        "vllm/cuda.txt",
        "2.12",
        1,
        {
            "torchvision": ("0.28.0", "torch==2.13.0", False, None),
            "transformers": ("4.57.6", "torch>=2.2", True, ANY),
            "torchaudio": ("2.11.0", None, True, ANY),
            "torchcodec": ("0.17.0", None, True, ANY),
            "flashinfer-python": ("0.6.18.post1", "torch", True, ANY),
        },
    ),
    # The same file against 2.13: torchvision 0.28.0's pin is a 2.13 release; nothing blocks.
    ("vllm/cuda.txt", "2.13", 0, {"torchvision": ("0.28.0", "torch==2.13.0", True, ANY)}),
    # deepspeed 0.9.5 to 0.14.4 are sdists whose PKG-INFO lists no Requires-Dist; 0.14.5 declares `torch`.
    # torchvision unpinned resolves, beside torch 2.12, as pip does: 0.29.x need torch>=2.14.0, 0.28.0
    # pins 2.13.0, 0.27.1 pins 2.12.1 (a 2.12 release): it allows 2.12.
    (
        "llava/pyproject.toml",
        "2.12",
        0,
        {
            "deepspeed": ("0.9.5", None, None, "0.14.5"),
            "torchvision": ("0.27.1", "torch==2.12.1", True, ANY),
            "transformers": ("4.30.2", "torch!=1.12.0,>=1.9", True, ANY),
            "accelerate": ("0.20.3", ANY, True, ANY),
        },
    ),
    # Upper-bounded ranges: the newest release each allows; transformers 4.45.2 declares a bare `torch`.
    (
        "llama-factory/requirements.txt",
        "2.12",
        0,
        {
            "transformers": ("4.45.2", "torch", True, ANY),
            "accelerate": ("0.34.2", ANY, True, ANY),
            "peft": ("0.12.0", ANY, True, ANY),
            "trl": ("0.9.6", ANY, True, ANY),
        },
    ),
    # xformers 0.0.20 pins torch==2.0.1; the first final release after it whose requirement admits 2.12 is
    # 0.0.35 (torch>=2.10: 0.0.34 pins 2.10.0, the 0.0.35.devN are pre-releases). kornia 0.6.7 is from
    # 2022, before the snapshot; its first release in it, 0.6.10, needs torch>=1.9.1. PEP 503 names.
    (
        "sd-webui/requirements_versions.txt",
        "2.12",
        1,
        {
            "xformers": ("0.0.20", "torch==2.0.1", False, "0.0.35"),
            "kornia": ("0.6.7", None, None, "0.6.10"),
            "pytorch-lightning": ("1.9.4", ANY, True, ANY),
            "timm": ("0.9.2", ANY, True, ANY),
        },
    ),
    # The same xformers pin against 2.0: allowed.
    ("sd-webui/requirements_versions.txt", "2.0", 0, {"xformers": ("0.0.20", "torch==2.0.1", True, ANY)}),
    # transformers from a git URL: no release of the index stands for it.
    (
        "fastchat/pyproject.toml",
        "2.12",
        0,
        {"transformers": (None, None, None, None), "accelerate": ("1.15.0", "torch>=2.0.0", True, ANY)},
    ),
    # flash-attn 2.7.0.post2 to 2.7.2.post1 are sdists without Requires-Dist; 2.7.3 declares `torch`.
    # xformers>=0.0.23.post1: the newest final release, 0.0.35.
    (
        "axolotl/requirements.txt",
        "2.12",
        0,
        {
            "flash-attn": ("2.7.0.post2", None, None, "2.7.3"),
            "xformers": ("0.0.35", "torch>=2.10", True, ANY),
            "torchao": ("0.7.0", None, True, ANY),
        },
    ),
    # flash-attn 2.8.3 and every later release mark Requires-Dist as dynamic: unknown, nothing newer allows.
    ("openrlhf/requirements.txt", "2.12", 0, {"flash-attn": ("2.8.3", None, None, None)}),
    # The `vllm` optional group: vllm>=0.4.2, newest 0.33.0, which pins torch==2.14.0.
    (
        "lm-eval/pyproject.toml",
        "2.12",
        1,
        {"vllm": ("0.33.0", "torch==2.14.0", False, None), "accelerate": ("1.15.0", "torch>=2.0.0", True, ANY)},
    ),
    # bitsandbytes >=0.45.2,<0.48 (the Linux line of the `extra` group): 0.47.0.
    (
        "litgpt/pyproject.toml",
        "2.12",
        0,
        {"bitsandbytes": ("0.47.0", ANY, True, ANY), "transformers": ("4.56.2", "torch>=2.2", True, ANY)},
    ),
    # tensordict >=0.8.0,<=0.10.0,!=0.9.0: 0.10.0, which declares a bare `torch`.
    ("verl/requirements.txt", "2.12", 0, {"tensordict": ("0.10.0", "torch", True, ANY)}),
    # kornia>=0.7.1: newest 0.9.0. torchvision unpinned: 0.27.1, as in llava's file.
    (
        "comfyui/requirements.txt",
        "2.12",
        0,
        {"torchvision": ("0.27.1", "torch==2.12.1", True, ANY), "kornia": ("0.9.0", "torch>=2.5.1", True, ANY)},
    ),
    # Against 2.14 the newest, 0.29.2 (torch>=2.14.0), is what pip takes; against 2.15 too, and it allows it.
    ("comfyui/requirements.txt", "2.14", 0, {"torchvision": ("0.29.2", "torch>=2.14.0", True, ANY)}),
    # uv.lock lists torchvision 0.22.0 and 0.22.0+cu128 (resolved per platform): one release, which pins
    # torch==2.7.0; 0.27.0 is the first to pin a 2.12 release. accelerate 1.3.0 -> 1.4.0 (torch>=2.0.0).
    (
        "tgi/uv.lock",
        "2.12",
        1,
        {
            "torchvision": ("0.22.0", "torch==2.7.0", False, "0.27.0"),
            "accelerate": ("1.3.0", "torch>=2.0.0", True, "1.4.0"),
        },
    ),
    # `uv pip compile` output (pins like pip freeze): no torchvision in it.
    ("tgi/requirements_cuda.txt", "2.12", 0, {"accelerate": ("1.6.0", ANY, True, ANY)}),
    # The `torch` optional group pins torchvision==0.22.0.
    ("tgi/pyproject.toml", "2.12", 1, {"torchvision": ("0.22.0", "torch==2.7.0", False, "0.27.0")}),
    (
        "tgi-poetry/poetry.lock",
        "2.12",
        0,
        {"accelerate": ("1.1.1", ANY, True, ANY), "peft": ("0.13.2", ANY, True, ANY)},
    ),
]


@pytest.mark.parametrize(("file", "target", "status", "expected"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_real_files_answer_as_worked_out(file: str, target: str, status: int, expected: dict) -> None:
    result = stack(str(FIXTURES / file), "--to", target, "--format", "json")
    assert result.returncode == status, result.stderr
    document = json.loads(result.stdout)
    assert document["target"] == target
    rows = {row["name"]: row for row in document["packages"]}
    for row in document["packages"]:
        assert list(row) == ["name", "version", "requires", "allows_target", "first_allowing"]
    for name, (version, requires, allows, first) in expected.items():
        row = rows[name]
        for field, want in (("version", version), ("requires", requires), ("allows_target", allows)):
            if want is not ANY:
                assert row[field] == want, (name, field)
        if first is not ANY:
            assert row["first_allowing"] == first, (name, "first_allowing")


def test_text_names_the_blockers_and_the_release_to_move_to() -> None:
    result = stack(str(FIXTURES / "sd-webui" / "requirements_versions.txt"), "--to", "2.12")
    assert result.returncode == 1
    assert "blocks   xformers 0.0.20 (torch==2.0.1); first release allowing 2.12: 0.0.35" in result.stdout
    assert "not in the ecosystem snapshot (not checked):" in result.stdout
    assert "gradio" in result.stdout


def test_extras_the_file_asks_for_choose_the_requirement(tmp_path: Path) -> None:
    # sglang 0.4.3.post3 declares torch only under extras: `srt` pins torch==2.5.1, `srt-cpu` and `srt-hip`
    # ask for any torch. Without an extra, the first by name counts (`srt`).
    asked = tmp_path / "with-extra.txt"
    asked.write_text("sglang[srt-cpu]==0.4.3.post3\n")
    plain = tmp_path / "without.txt"
    plain.write_text("sglang==0.4.3.post3\nvllm==0.11.0\n")
    rows = {
        row["name"]: row for row in json.loads(stack(str(asked), "--to", "2.8", "--format", "json").stdout)["packages"]
    }
    assert rows["sglang"]["requires"] == "torch"
    assert rows["sglang"]["allows_target"] is True
    result = stack(str(plain), "--to", "2.8", "--format", "json")
    rows = {row["name"]: row for row in json.loads(result.stdout)["packages"]}
    assert rows["sglang"]["requires"] == "torch==2.5.1"
    assert rows["sglang"]["allows_target"] is False
    assert rows["vllm"] == {  # vllm 0.11.0 pins torch==2.8.0 (the issue's own example)
        "name": "vllm",
        "version": "0.11.0",
        "requires": "torch==2.8.0",
        "allows_target": True,
        "first_allowing": None,  # 0.11.1 and 0.11.2 pin torch==2.9.0; later ones newer torches
    }
    assert result.returncode == 1


def _one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0]


def test_bad_inputs_are_one_line_with_exit_2(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("accelerate==1.0.0\n")
    _one_line_error(stack(str(requirements), "--to", "9.9"), "--to", "9.9")
    _one_line_error(stack(str(requirements)), "--to")
    _one_line_error(stack(str(requirements), "--to", "2.12", "--format", "xml"), "format")
    _one_line_error(stack(str(tmp_path / "missing.txt"), "--to", "2.12"), "missing.txt", "No such file")
    _one_line_error(stack(str(tmp_path), "--to", "2.12"), "folder")
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    _one_line_error(stack(str(fifo), "--to", "2.12"), "pipe.txt", "FIFO")
    _one_line_error(stack_process("/dev/zero", "--to", "2.12"), "/dev/zero", "device")
    link = tmp_path / "link.txt"
    link.symlink_to(requirements)
    _one_line_error(stack(str(link), "--to", "2.12"), "link.txt", "link")
    big = tmp_path / "big.txt"
    big.write_bytes(b"# x\n" * (3 * 1024 * 1024))
    _one_line_error(stack(str(big), "--to", "2.12"), "big.txt", "bytes")
    bad = tmp_path / "pyproject.toml"
    bad.write_text("[project\ndependencies = [\n")
    _one_line_error(stack(str(bad), "--to", "2.12"), "pyproject.toml", "TOML")
    lock = tmp_path / "uv.lock"
    lock.write_text('version = 1\n[[package]]\nname = "torch"\nversion = 2\n')
    _one_line_error(stack(str(lock), "--to", "2.12"), "uv.lock", "not a string")
    include = tmp_path / "with-include.txt"
    include.write_text("-r nowhere.txt\n")
    _one_line_error(stack(str(include), "--to", "2.12"), "with-include.txt:1", "nowhere.txt")
    loop = tmp_path / "loop.txt"
    loop.write_text("-r loop.txt\n")
    _one_line_error(stack(str(loop), "--to", "2.12"), "loop.txt:1", "loop")
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("accelerate==1.0.0\nthis is ! not a requirement\n")
    _one_line_error(stack(str(garbage), "--to", "2.12"), "garbage.txt:2", "not a requirement")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00torch")
    _one_line_error(stack(str(binary), "--to", "2.12"), "binary.txt", "UTF-8")


def test_a_range_resolves_beside_the_target_and_a_pin_written_twice_is_one_pin(tmp_path: Path) -> None:
    """`torchvision>=0.15` with torch 2.9: pip takes the newest release that allows 2.9, not the
    newest (0.29.x needs torch>=2.14), so nothing blocks. `==0.24.0` in the file and again in a
    `-r` include is one pin (packaging's `&` keeps both copies). Rows: torchvision 0.24.0 pins
    torch==2.9.0 and 0.24.1 pins torch==2.9.1 (data/ecosystem.json)."""
    (tmp_path / "requirements.txt").write_text("torchvision>=0.15\n", encoding="utf-8")
    result = stack(str(tmp_path / "requirements.txt"), "--to", "2.9", "--format", "json")
    assert result.returncode == 0, result.stdout
    (row,) = json.loads(result.stdout)["packages"]
    assert (row["version"], row["requires"], row["allows_target"]) == ("0.24.1", "torch==2.9.1", True)
    (tmp_path / "extra.txt").write_text("torchvision==0.24.0\n", encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("torchvision==0.24.0\n-r extra.txt\n", encoding="utf-8")
    result = stack(str(tmp_path / "requirements.txt"), "--to", "2.9", "--format", "json")
    (row,) = json.loads(result.stdout)["packages"]
    assert (row["version"], row["requires"], row["allows_target"]) == ("0.24.0", "torch==2.9.0", True)


def test_the_files_own_torch_requirement_is_said_first_when_it_does_not_admit_the_target(tmp_path: Path) -> None:
    """`torch<2.12.0` in the file does not admit 2.15: said first, for the reader to change with the
    upgrade (a lock file's `torch==2.7.0` is the release moved from); no package blocks, so the exit
    status stays 0. A local label names a build of its release (`==2.7.0+cu126` admits 2.7)."""
    (tmp_path / "requirements.txt").write_text("torch<2.12.0\ntorchvision\n", encoding="utf-8")
    result = stack(str(tmp_path / "requirements.txt"), "--to", "2.15")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == (
        "the file's own torch requirement (<2.12.0) does not admit 2.15: change it with the upgrade"
    )
    document = json.loads(stack(str(tmp_path / "requirements.txt"), "--to", "2.15", "--format", "json").stdout)
    assert document["torch"] == {"requirement": "<2.12.0", "allows_target": False}
    older = stack(str(tmp_path / "requirements.txt"), "--to", "2.11", "--format", "json")
    assert older.returncode == 0 and json.loads(older.stdout)["torch"]["allows_target"] is True
    (tmp_path / "requirements.txt").write_text("torch==2.7.0+cu126\n", encoding="utf-8")
    result = stack(str(tmp_path / "requirements.txt"), "--to", "2.7", "--format", "json")
    assert result.returncode == 0 and json.loads(result.stdout)["torch"]["allows_target"] is True
    (tmp_path / "requirements.txt").write_text("numpy\n", encoding="utf-8")
    none = stack(str(tmp_path / "requirements.txt"), "--to", "2.7", "--format", "json")
    assert json.loads(none.stdout)["torch"] is None


def test_a_pyproject_whose_dependencies_are_dynamic_says_so(tmp_path: Path) -> None:
    """`dynamic = ["dependencies"]`: the build sets them, so "0 of 0 packages block it" would read
    as all clear; the command says there is nothing to read (exit 2)."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\ndynamic = ["version", "dependencies"]\n', encoding="utf-8"
    )
    result = stack(str(tmp_path / "pyproject.toml"), "--to", "2.15")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"python -m macros stack: error: {tmp_path / 'pyproject.toml'}: [project] dynamic lists dependencies,"
        " which the build sets (setup.py or a requirements file): nothing here to read; give that requirements"
        " file instead\n"
    )


def test_a_range_whose_newer_releases_cannot_be_read_says_so(tmp_path: Path) -> None:
    """A bare `flash-attn`: 2.7.3 is the newest release whose metadata was read (it declares
    `torch`), but pip tries 2.7.4.post1 to 2.8.3.post2 first, whose sdists mark Requires-Dist as
    dynamic (data/ecosystem.json): the line says so instead of naming 2.7.3 as what is installed."""
    (tmp_path / "requirements.txt").write_text("flash-attn\n", encoding="utf-8")
    result = stack(str(tmp_path / "requirements.txt"), "--to", "2.15")
    assert result.returncode == 0
    assert result.stdout.splitlines()[1] == (
        "  allows   flash-attn 2.7.3 (torch); newer releases in the range (2.7.4.post1 to 2.8.3.post2) could not"
        " be read, and pip tries them first"
    )
    (tmp_path / "requirements.txt").write_text("flash-attn<=2.7.3\n", encoding="utf-8")
    assert stack(str(tmp_path / "requirements.txt"), "--to", "2.15").stdout.splitlines()[1] == (
        "  allows   flash-attn 2.7.3 (torch)"
    )


def test_a_wheel_given_by_url_is_named_by_its_file_name(tmp_path: Path) -> None:
    """A requirements line that is only a wheel's URL names its package in the file name: listed
    as installed from a URL (markers read as for any line), not dropped without a word. A URL to
    an archive names nothing."""
    (tmp_path / "requirements.txt").write_text(
        "https://github.com/Dao-AILab/flash-attention/releases/download/v2.8.3/"
        'flash_attn-2.8.3%2Bcu12torch2.9cxx11abiTRUE-cp312-cp312-linux_x86_64.whl ; platform_system == "Linux"\n'
        'https://example.org/xformers-0.0.33-cp312-cp312-win_amd64.whl ; platform_system == "Windows"\n'
        "https://example.org/archive.tar.gz\n",
        encoding="utf-8",
    )
    result = stack(str(tmp_path / "requirements.txt"), "--to", "2.15")
    assert result.returncode == 0
    assert result.stdout.splitlines()[1:] == ["  unknown  flash-attn: installed from a URL, not from the package index"]
    rows = json.loads(stack(str(tmp_path / "requirements.txt"), "--to", "2.15", "--format", "json").stdout)["packages"]
    assert rows == [
        {"name": "flash-attn", "version": None, "requires": None, "allows_target": None, "first_allowing": None}
    ]
