"""`make scan-bench`: the scanner on real code that no one here wrote, in files per second.

Downloads (once, into ~/.cache/pytorch-release-atlas/scan-bench, outside the checkout; set
ATLAS_SCAN_BENCH_CACHE to move it) the source distributions of three libraries built on PyTorch
from the package index, then times `scan` over each, cold process excluded: the command line's
own start-up is measured separately. Wall time: from 200 files on the scanner parses in one worker
process per CPU. Each tree is scanned twice: at --from/--to (2.8 -> 2.13 by default) and at the
range a user gets without them, read from the tree's own files (`scan_range.project_range`: from
the oldest release its torch requirement allows to the newest the data covers). Then precision and
recall on the hand-checked sample of each tree and range (tests/fixtures/scan_sample/sample.tsv,
see tests/perf/scan_sample.py). A report, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from macros.query.catalog import open_catalog  # noqa: E402
from macros.tools.scan import python_files, scan  # noqa: E402
from macros.tools.scan_range import project_range  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "perf"))
from scan_sample import lifecycle_successors, load_sample, measure  # noqa: E402

CACHE = Path(os.environ.get("ATLAS_SCAN_BENCH_CACHE", Path.home() / ".cache" / "pytorch-release-atlas" / "scan-bench"))
#: The first three were the benchmark the scanner was tuned on; the eight after them (issue 45)
#: were added as code it had never seen: libraries, research code, an application, test suites,
#: from the torch 2.0 era (demucs 4.0.1, 2023) to 2026.
PACKAGES = (
    "transformers==5.23.0",
    "pytorch-lightning==2.6.6",
    "torchmetrics==1.9.0",
    "accelerate==1.15.0",
    "demucs==4.0.1",
    "kornia==0.9.0",
    "open-clip-torch==3.3.0",
    "peft==0.21.2",
    "pytorch-ignite==0.5.2",
    "stable-baselines3==2.3.2",
    "timm==1.0.15",
)


def fetch(requirement: str) -> Path:
    name, version = requirement.split("==")
    name = name.replace("-", "_")
    found = sorted(CACHE.glob(f"{name}-{version}.tar.gz")) or sorted(
        CACHE.glob(f"{name.replace('_', '-')}-{version}.tar.gz")
    )
    if not found:
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                requirement,
                "-d",
                str(CACHE),
            ],
            check=True,
        )
        found = sorted(CACHE.glob(f"{name}-{version}.tar.gz"))
    archive = found[-1]
    tree = CACHE / archive.name.removesuffix(".tar.gz")
    if not tree.exists():
        with tarfile.open(archive) as tar:
            tar.extractall(CACHE, filter="data")
    return tree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--from", dest="start", default="2.8")
    parser.add_argument("--to", dest="end", default="2.13")
    args = parser.parse_args()
    catalog = open_catalog(ROOT / "data")
    releases = [release.version for release in catalog.releases]
    print(f"median of {args.runs} runs (wall seconds, data loaded once)")
    print(f"{'code base':<28} {'range':<20} {'files':>6} {'findings':>9} {'seconds':>8} {'files/s':>8}")
    sample = load_sample()
    later = lifecycle_successors(catalog)
    measured = {}
    for requirement in PACKAGES:
        tree = fetch(requirement)
        files = sum(1 for candidate in python_files([tree]) if candidate.problem is None)
        read = project_range([tree], releases)
        for start, end, how in [(args.start, args.end, "given"), (read.start, read.end, "project")]:
            times, findings = [], 0
            for _ in range(args.runs):
                started = time.perf_counter()
                result = scan([tree], catalog, start, end, "https://example.org/")
                times.append(time.perf_counter() - started)
                findings = len(result.findings)
            seconds = statistics.median(times)
            label = f"{start}-{end} ({how})"
            print(f"{tree.name:<28} {label:<20} {files:>6} {findings:>9} {seconds:>8.2f} {files / seconds:>8.0f}")
            entries = [e for e in sample if e.tree == tree.name and e.range == f"{start}-{end}"]
            # every tree and range gets a row, sampled or not
            reported = {(str(Path(f.path).relative_to(tree)), f.line, f.item_id) for f in result.findings}
            measured[tree.name, label] = (findings, measure(entries, reported, later))
            if how == "project":
                print(f"{'':<28} read from {read.where}: {read.requirement}")
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "macros",
            "scan",
            str(ROOT / "macros" / "__init__.py"),
            "--from",
            args.start,
            "--to",
            args.end,
        ],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    print(f"command-line start-up (loading the data included): {time.perf_counter() - started:.2f} s wall")
    print()
    print("| code base | range | findings | precision (sample) | recall (sample) |")
    print("| --- | --- | ---: | --- | --- |")
    for (name, label), (findings, figures) in measured.items():
        precision = (
            f"{figures.precision:.1%} ({figures.reported_true}/{figures.reported})"
            if figures.reported
            else "no sampled finding"
        )
        recall = (
            f"{figures.recall:.1%} ({figures.uses_found}/{figures.uses})" if figures.uses else "no real use sampled"
        )
        print(f"| {name} | {label} | {findings} | {precision} | {recall} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
