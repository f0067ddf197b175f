"""`python -m macros index` against a local PEP 691 index (`--index-url`): the ecosystem snapshot it
writes, and what it does with bad answers: one line naming the URL, exit 2, nothing written; an
overall deadline that a server dripping bytes cannot outlast; never writing through a link.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import ROOT

from macros.__main__ import main
from macros.dataset.load import load_file
from macros.dataset.model import EcosystemSnapshot

#: What the server answers for a project page, by test: "good" or one of the bad answers.
MODE = {"value": "good"}


def _project(name: str, base: str) -> dict:
    if name == "torch":
        files = [("torch-2.0.0-cp311-cp311-manylinux_2_17_x86_64.whl", "2023-03-15T00:00:00Z")]
    else:
        stem = name.replace("-", "_")
        files = [
            (f"{stem}-1.0.0-py3-none-any.whl", "2024-01-02T03:04:05.123Z"),
            (f"{stem}-0.1.0-py3-none-any.whl", "2022-06-01T00:00:00Z"),  # before the snapshot starts
            (f"{stem}-2.0.0.tar.gz", "2024-05-01T00:00:00Z"),  # an sdist only: PKG-INFO is not served
        ]
    return {
        "meta": {"api-version": "1.1"},
        "name": name,
        "files": [
            {"filename": f, "url": f"{base}/files/{f}", "upload-time": t, "size": 10, "yanked": False, "hashes": {}}
            for f, t in files
        ],
    }


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _send(self, body: bytes, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        base = f"http://127.0.0.1:{self.server.server_port}"
        mode = MODE["value"]
        if self.path.startswith("/simple/"):
            name = self.path.split("/")[2]
            project = _project(name, base)
            if mode == "good" or name != "accelerate":
                self._send(json.dumps(project).encode())
            elif mode == "html":
                self._send(b"<!DOCTYPE html><html><body>maintenance</body></html>")
            elif mode == "missing":
                self._send(json.dumps({"name": name}).encode())
            elif mode == "size":
                project["files"][0]["size"] = "ten"
                self._send(json.dumps(project).encode())
            elif mode == "traversal":
                project["files"][0]["filename"] = "../../accelerate-1.0.0-py3-none-any.whl"
                self._send(json.dumps(project).encode())
            elif mode == "deep":
                self._send(b"[" * 100_000 + b"]" * 100_000)
            elif mode == "drip":
                self.send_response(200)
                self.send_header("Content-Length", "1000")
                self.end_headers()
                with contextlib.suppress(OSError):
                    for _ in range(1000):
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(1)
            return
        if self.path.endswith(".whl.metadata"):
            name = self.path.rsplit("/", 1)[1].split("-")[0].replace("_", "-")
            self._send(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0.0\nRequires-Dist: torch>=2.1\n".encode())
            return
        self._send(b"not here", 404)


@pytest.fixture
def index() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    MODE["value"] = "good"
    try:
        yield f"http://127.0.0.1:{server.server_port}/simple/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(ROOT / "data", target)
    return target


def error_line(err: str) -> str:
    """The one line that says what went wrong (progress lines come before it)."""
    errors = [line for line in err.strip().splitlines() if "error" in line]
    assert len(errors) == 1, err
    assert err.strip().splitlines()[-1] == errors[0]
    return errors[0]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["index", *args])
    return status, out.getvalue(), err.getvalue()


def test_index_writes_the_ecosystem_snapshot_from_the_metadata(index: str, data: Path, tmp_path: Path) -> None:
    status, out, err = run("--index-url", index, "--data", str(data), "--cache", str(tmp_path / "cache"))
    assert status == 0, err
    assert "ecosystem.json" in out
    snapshot, _, problems = load_file(data / "ecosystem.json", EcosystemSnapshot)
    assert problems == [] and snapshot is not None
    assert snapshot.source == index
    accelerate = {release.version: release for release in snapshot.packages["accelerate"]}
    # 0.1.0 was uploaded in 2022: not kept. 1.0.0: read from its PEP 658 file, upload day kept.
    assert set(accelerate) == {"1.0.0", "2.0.0"}
    assert accelerate["1.0.0"].requires == ["torch>=2.1"]
    assert accelerate["1.0.0"].source == "metadata"
    assert accelerate["1.0.0"].uploaded == "2024-01-02"
    # 2.0.0 has only an sdist the server does not serve: unknown, with the reason, never guessed.
    assert accelerate["2.0.0"].requires == []
    assert accelerate["2.0.0"].unknown and "PKG-INFO" in accelerate["2.0.0"].unknown
    text = (data / "ecosystem.json").read_text()
    assert "fetched" not in text  # no date of the run: the same answers write the same bytes
    status, _, err = run("--index-url", index, "--data", str(data), "--cache", str(tmp_path / "cache"))
    assert status == 0, err
    assert (data / "ecosystem.json").read_text() == text


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("html", ["accelerate/", "HTML page"]),
        ("missing", ["accelerate/", "files"]),
        ("size", ["accelerate/", "size", "ten"]),
        ("traversal", ["accelerate/", "not a plain file name"]),
        ("deep", ["accelerate/", "nests deeper"]),
    ],
)
def test_a_bad_answer_is_one_line_and_nothing_is_written(
    index: str, data: Path, tmp_path: Path, mode: str, words: list[str]
) -> None:
    before = {name: (data / name).read_bytes() for name in ("pypi.json", "ecosystem.json")}
    MODE["value"] = mode
    status, out, err = run("--index-url", index, "--data", str(data), "--cache", str(tmp_path / "cache"))
    assert status == 2
    assert out == ""
    line = error_line(err)
    assert "Traceback" not in err and "nothing written" in line
    for word in words:
        assert word in line
    assert {name: (data / name).read_bytes() for name in before} == before


def test_a_dripping_server_cannot_outlast_the_deadline(index: str, data: Path, tmp_path: Path) -> None:
    MODE["value"] = "drip"
    started = time.monotonic()
    status, _, err = run(
        "--index-url", index, "--data", str(data), "--cache", str(tmp_path / "cache"), "--deadline", "3"
    )
    assert time.monotonic() - started < 20
    assert status == 2
    assert "deadline" in error_line(err)


def test_the_index_url_must_be_http(data: Path) -> None:
    status, _, err = run("--index-url", "file:///etc/", "--data", str(data))
    assert status == 2 and "is not an http(s) URL" in err


def test_never_writes_through_a_link(index: str, data: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("keep me\n")
    (data / "ecosystem.json").unlink()
    (data / "ecosystem.json").symlink_to(outside)
    status, _, err = run("--index-url", index, "--data", str(data), "--cache", str(tmp_path / "cache"))
    assert status == 2
    assert "is a link" in err
    assert outside.read_text() == "keep me\n"
