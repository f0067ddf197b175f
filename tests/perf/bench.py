"""Build benchmark: our build against plain MkDocs building the same pages, at growing sizes.

    make bench                                   real data, then N = 6, 15, 30 releases x 100 items
    .venv/bin/python tests/perf/bench.py --sizes 6 15 --items 100 --runs 3 [--no-serve]

For each dataset it copies the project into a temporary folder (synthetic data from synth.py),
then:
1. writes the baseline with `python -m macros materialize`: every page as a plain file (the
   finished HTML written into the Markdown), the JSON and feed as static files, and a mkdocs.yml
   with no hook and no macros plugin (same theme, same other plugins, same Markdown extensions);
2. times `mkdocs build --strict` for ours and the baseline, alternating, `--runs` times each, each
   run cold: a fresh process with a fresh, empty TMPDIR, as in CI. It reports the medians of CPU
   seconds (user + system of the build process: what the machine spends) and of wall seconds,
   their ratios, peak memory (max RSS), output size and pages; between sizes, how build time grew
   against output size.
Last, the time from saving a data file to the rebuilt page being served by `mkdocs serve`.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT / "tests")]
import synth  # noqa: E402 (a sibling script, not a package)
from conftest import copy_project  # noqa: E402 (the same project copy the site tests build)
from servekit import ServeFailed, mkdocs_serve  # noqa: E402 (the same serve the browser tests use)

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


@dataclass(frozen=True)
class Run:
    seconds: float  # wall clock
    cpu_seconds: float  # user + system
    peak_mb: float


@dataclass(frozen=True)
class Result:
    label: str
    pages: int
    guides: int
    output_mb: float
    ours: list[Run]
    baseline: list[Run]

    @property
    def ours_s(self) -> float:
        return median(self.ours, "seconds")

    @property
    def baseline_s(self) -> float:
        return median(self.baseline, "seconds")

    @property
    def ratio(self) -> float:
        return self.ours_s / self.baseline_s

    @property
    def ours_cpu(self) -> float:
        return median(self.ours, "cpu_seconds")

    @property
    def baseline_cpu(self) -> float:
        return median(self.baseline, "cpu_seconds")

    @property
    def cpu_ratio(self) -> float:
        return self.ours_cpu / self.baseline_cpu


def median(runs: list[Run], measure: str) -> float:
    return statistics.median(getattr(run, measure) for run in runs)


def timed_build(project: Path, config: str, site: Path) -> Run:
    """One cold `mkdocs build --strict`: a fresh process and an empty TMPDIR. Wall and CPU time
    (user + system) and the process's peak RSS."""
    shutil.rmtree(site, ignore_errors=True)
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config, "-d", str(site)]
    cold = tempfile.mkdtemp(prefix="cold-tmp-")
    started = time.perf_counter()
    env = {**ENV, "TMPDIR": cold}
    process = subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.read() if process.stdout else b""
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    shutil.rmtree(cold, ignore_errors=True)
    if process.returncode:
        raise SystemExit(f"{config} failed in {project}:\n{output.decode(errors='replace')[-3000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu, usage.ru_maxrss / 1024)  # ru_maxrss is in KiB on Linux


def prepare_baseline(project: Path) -> str:
    """The same pages as plain files and a config without hook or macros (`materialize`)."""
    subprocess.run(
        [sys.executable, "-m", "macros", "materialize", "baseline", "--data", "data"],
        cwd=project,
        env=ENV,
        check=True,
        capture_output=True,
    )
    return "baseline/mkdocs.yml"


def tree_size(site: Path) -> tuple[int, int, int]:
    """Bytes, HTML pages and guides of a built site."""
    files = [path for path in site.rglob("*") if path.is_file()]
    pages = [path for path in files if path.suffix == ".html"]
    guides = [path for path in pages if path.parent.name == "upgrade" and "-to-" in path.name]
    return sum(path.stat().st_size for path in files), len(pages), len(guides)


def same_pages(ours: Path, baseline: Path) -> list[str]:
    """Pages built by one and not the other (must be empty for the comparison to be fair)."""
    listing = [{p.relative_to(site).as_posix() for p in site.rglob("*.html")} for site in (ours, baseline)]
    return sorted(listing[0] ^ listing[1])


def measure(label: str, project: Path, runs: int) -> Result:
    baseline_config = prepare_baseline(project)
    ours_runs, baseline_runs = [], []
    for _ in range(runs):  # alternate, so that a slow moment of the machine hits both sides
        ours_runs.append(timed_build(project, "mkdocs.yml", project / "site"))
        baseline_runs.append(timed_build(project, baseline_config, project / "site-baseline"))
    differing = same_pages(project / "site", project / "site-baseline")
    if differing:
        raise SystemExit(f"{label}: the baseline does not build the same pages: {differing[:10]}")
    size, pages, guides = tree_size(project / "site")
    return Result(label, pages, guides, size / 1e6, ours_runs, baseline_runs)


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=120) as response:  # a rebuild holds requests until done
        return response.read().decode("utf-8")


def serve_rebuild_times(project: Path, edits: int = 10, mark: Callable[[str, str], str] | None = None) -> list[float]:
    """Seconds from saving data/releases/<latest>.yaml to `mkdocs serve` serving the changed page.
    `mark` writes the edit (default: a word added to the release's summary)."""
    mark = mark or mark_summary
    release_file = max(
        (project / "data" / "releases").glob("*.yaml"), key=lambda p: tuple(int(part) for part in p.stem.split("."))
    )
    page = f"releases/{release_file.stem}.html"
    try:
        with mkdocs_serve(project, timeout=300) as base:
            times = []
            for number in range(edits):
                marker = f"Benchmark{mark.__name__.replace('_', '')}edit{number}"  # unique per series
                text = release_file.read_text(encoding="utf-8")
                release_file.write_text(mark(text, marker), encoding="utf-8")
                saved = time.perf_counter()
                while marker not in fetch(base + page):
                    if time.perf_counter() - saved > 120:
                        raise SystemExit(f"no rebuild within 120 s; see {project / 'serve.log'}")
                    time.sleep(0.02)
                times.append(time.perf_counter() - saved)
                time.sleep(1)  # let live reload settle before the next save
            return times
    except ServeFailed as failure:
        raise SystemExit(str(failure)) from None


def mark_item(text: str, marker: str) -> str:
    """Append a word to the first item's summary: its release page, the guides into the release
    and the JSON change with it."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("    summary:"))
    if lines[at].rstrip().endswith((">-", ">", "|", "|-")):
        at += 1
    lines[at] = lines[at].rstrip("\n") + f" {marker}\n"
    return "".join(lines)


def mark_summary(text: str, marker: str) -> str:
    """Append a word to the release summary (the line after `summary: >-`, or the line itself)."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("summary:"))
    if lines[at].rstrip().endswith((">-", ">", "|", "|-")):
        at += 1
    lines[at] = lines[at].rstrip("\n") + f" {marker}\n"
    return "".join(lines)


def report(results: list[Result], runs: int) -> str:
    header = (
        "data",
        "pages",
        "guides",
        "ours CPU s",
        "baseline CPU s",
        "CPU ratio",
        "ours wall s",
        "baseline wall s",
        "wall ratio",
        "peak MB",
        "baseline MB",
        "output MB",
    )
    rows = [
        (
            r.label,
            str(r.pages),
            str(r.guides),
            f"{r.ours_cpu:.2f}",
            f"{r.baseline_cpu:.2f}",
            f"{r.cpu_ratio:.3f}",
            f"{r.ours_s:.2f}",
            f"{r.baseline_s:.2f}",
            f"{r.ratio:.3f}",
            f"{max(run.peak_mb for run in r.ours):.0f}",
            f"{max(run.peak_mb for run in r.baseline):.0f}",
            f"{r.output_mb:.1f}",
        )
        for r in results
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in [header, *rows]]
    lines.append(f"Medians of {runs} cold runs of `mkdocs build --strict` each (fresh process, empty TMPDIR).")
    synthetic = [r for r in results if r.label.startswith("N=")]
    for smaller, larger in itertools.pairwise(synthetic):
        time_growth = larger.ours_s / smaller.ours_s
        size_growth = larger.output_mb / smaller.output_mb
        lines.append(
            f"{smaller.label} -> {larger.label}: build time x{time_growth:.2f}, output x{size_growth:.2f}, "
            f"time per output MB x{time_growth / size_growth:.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[6, 15, 30], help="synthetic release counts")
    parser.add_argument("--items", type=int, default=100, help="items per synthetic release")
    parser.add_argument("--runs", type=int, default=3, help="timed builds per side (median reported)")
    parser.add_argument("--no-real", action="store_true", help="skip the real data")
    parser.add_argument("--no-serve", action="store_true", help="skip the mkdocs serve rebuild timing")
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory(prefix="atlas-bench-") as temporary:
        work = Path(temporary)
        datasets: list[tuple[str, Path | None]] = [] if args.no_real else [("real", None)]
        for size in args.sizes:
            datasets.append((f"N={size} M={args.items}", synth.generate(work / f"data-{size}", size, args.items)))
        for label, data in datasets:
            folder = work / label.replace(" ", "_").replace("=", "")
            folder.mkdir()
            project = copy_project(folder, data or ROOT / "data")
            results.append(measure(label, project, args.runs))
            print(report(results[-1:], args.runs).splitlines()[1], flush=True)
            shutil.rmtree(project)
        print()
        print(report(results, args.runs))
        if not args.no_serve:
            (work / "serve").mkdir()
            project = copy_project(work / "serve", ROOT / "data")
            for what, mark in (("the release's summary", mark_summary), ("an item's summary", mark_item)):
                times = serve_rebuild_times(project, mark=mark)
                print(
                    f"mkdocs serve, real data: save {what} in the newest release -> its page served: median "
                    f"{statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}, "
                    f"{len(times)} edits)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
