"""`make lighthouse`: Lighthouse scores per page type, mobile and desktop, median of three runs.

A report, not a test. The built site (`site/`, built first by the make target) is served the way
GitHub Pages serves it: gzip for text, and a cache lifetime on assets. Lighthouse comes from npm
(tests/browser/node_modules) and drives Debian's chromium; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "tests" / "browser" / "node_modules" / "lighthouse" / "cli" / "index.js"
# The page types scored (each run takes minutes): their sample pages, from the page-type registry.
SCORED_TYPES = ("home", "release", "compare", "guide", "guide-index")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
MOUNT = "/atlas/"
COMPRESSIBLE = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt")


def scored_pages() -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    from macros.query.site import html_path, page_type

    return {name: html_path(page_type(name).sample_path) for name in SCORED_TYPES}


class HostedLikeHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with gzip and caching headers, as a static host sends them."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def translate_path(self, path: str) -> str:
        # The site lives under /atlas/ (site_url's path), as on the host.
        return super().translate_path(path.removeprefix(MOUNT.rstrip("/")))

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (path.is_file() and path.suffix in COMPRESSIBLE and accepts_gzip):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return _Body(body)


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, *_: object) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


def run_lighthouse(url: str, preset: str, chromium: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as profile:
        args = [
            "node",
            str(LIGHTHOUSE),
            url,
            "--output=json",
            "--quiet",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags=--headless=new --no-sandbox --user-data-dir={profile}",
        ]
        if preset == "desktop":
            args.append("--preset=desktop")
        result = subprocess.run(
            args, capture_output=True, text=True, env={**os.environ, "CHROME_PATH": chromium}, check=False
        )
    if result.returncode != 0:
        raise SystemExit(f"lighthouse failed on {url} ({preset}):\n{result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    return {name: report["categories"][name]["score"] * 100 for name in CATEGORIES}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None or not LIGHTHOUSE.exists():
        print(
            "needs Debian's chromium and Lighthouse from npm: run `make system` and `make test` once", file=sys.stderr
        )
        return 2
    handler = functools.partial(HostedLikeHandler, directory=str(args.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}{MOUNT}"
    print(
        f"Lighthouse {json.loads((LIGHTHOUSE.parents[1] / 'package.json').read_text())['version']}, "
        f"chromium {subprocess.run([chromium, '--version'], capture_output=True, text=True).stdout.strip()}, "
        f"median of {args.runs} runs, simulated throttling"
    )
    print(f"{'page type':<12} {'form':<8} " + " ".join(f"{c[:13]:>13}" for c in CATEGORIES))
    worst: dict[str, float] = {}
    for name, path in scored_pages().items():
        for preset in ("mobile", "desktop"):
            runs = [run_lighthouse(base + path, preset, chromium) for _ in range(args.runs)]
            medians = {c: statistics.median(r[c] for r in runs) for c in CATEGORIES}
            for c, value in medians.items():
                worst[f"{preset} {c}"] = min(worst.get(f"{preset} {c}", 100), value)
            print(f"{name:<12} {preset:<8} " + " ".join(f"{medians[c]:>13.0f}" for c in CATEGORIES))
    server.shutdown()
    print("lowest: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(worst.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
