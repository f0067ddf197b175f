"""Cost of hostile data: time and peak memory of checking and rendering data built to be slow.

    .venv/bin/python tests/perf/hostile_cost.py [--build] [--timeout 900] [CASE ...]

Each case takes the made-up dataset (tests/fixtures/data) and appends items to
`releases/9.2.yaml` until the file is just under the loader's 512 KiB limit (or, for fan-out,
2,100 items), then runs `python -m macros check` and the whole render layer (every page, the JSON
API, the feed: `tests/renderkit.py`) in a fresh process, and reports wall seconds and peak memory.
`--build` also times `mkdocs build --strict` on a copy of the project. A case the data rules
refuse stops at the check, and prints the first problem: that is the intended outcome for data
built to be slow.

Cases: brackets (summaries of `[` runs, the slowest inline Markdown), backticks (long backtick
runs), fanout (2,100 items continuing one deprecation: each is shown with the whole lifecycle),
brackets-at-limit and backticks-at-limit (the worst the text rules accept), plain (ordinary text
of the same size, the yardstick).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT / "tests")]
from conftest import FIXTURE_DATA, copy_project  # noqa: E402

LIMIT = 512 * 1024 - 2048


def _item(index: int, summary: str, follows: str | None = None) -> str:
    text = (
        f"  - id: pad-{index}\n    kind: feature\n    area: nn\n    title: Padding {index}\n"
        f"    summary: '{summary}'\n    sources: [notes]\n"
    )
    return text + (f"    follows: {follows}\n" if follows else "")


def hostile_release(case: str) -> str:
    base = (FIXTURE_DATA / "releases" / "9.2.yaml").read_text(encoding="utf-8")
    head, _, rest = base.partition("items:\n")
    items = ["items:\n", rest]
    if case == "fanout":
        items += [_item(i, "Continues the deprecation.", follows="legacy-io-deprecated") for i in range(2100)]
        return head + "".join(items)
    body = {
        "plain": "Ordinary words. " * 249,
        "brackets": "[" * 3980,
        "backticks": "`" * 3980,
        # The most the data rules accept: 8 [ per field, backtick runs of 8, markup throughout.
        "brackets-at-limit": "[" * 8 + "a `b` *c* " * 396,
        "backticks-at-limit": ("`" * 8 + "a`" + "`" * 7 + "b ") * 200,
    }[case]
    size, index = len(base.encode()), 0
    while size + len(body) + 120 < LIMIT:
        chunk = _item(index, f"{body} {index}")  # each field different: conversions are cached
        items.append(chunk)
        size += len(chunk.encode())
        index += 1
    return head + "".join(items)


RENDER = """
import sys, time
sys.path[:0] = [{tests!r}]
from renderkit import render_everything
from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog
start = time.perf_counter()
try:
    catalog = open_catalog(__import__("pathlib").Path({data!r}))
except DataError as error:
    print("refused:", error.problems[0], f"({{len(error.problems)}} problems)")
    print(f"check {{time.perf_counter() - start:.2f}} s")
    raise SystemExit(0)
print(f"check {{time.perf_counter() - start:.2f}} s")
out = render_everything(catalog)
print(f"render {{time.perf_counter() - start:.2f}} s, {{sum(map(len, out.values())) / 1e6:.1f}} MB of output")
"""


#: Runs a command and prints, last, its peak memory (max RSS of that child alone, in KiB).
_MEASURED = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[2:], timeout=float(sys.argv[1]))\n"
    "print('peak-kib', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def _run(command: list[str], cwd: Path, timeout: float) -> tuple[float, float, str]:
    """Wall seconds, peak MB and output of `command`, stopped after `timeout` seconds."""
    start = time.perf_counter()
    wrapped = [sys.executable, "-c", _MEASURED, str(timeout), *command]
    done = subprocess.run(wrapped, cwd=cwd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    lines = (done.stdout + done.stderr).strip().splitlines()
    peaks = [line for line in lines if line.startswith("peak-kib ")]
    if not peaks:
        return seconds, float("nan"), f"still running after {timeout:.0f} s: stopped"
    output = "\n".join(line for line in lines if not line.startswith("peak-kib "))
    return seconds, int(peaks[-1].split()[1]) / 1024, output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cases = ["plain", "brackets", "backticks", "fanout", "brackets-at-limit", "backticks-at-limit"]
    parser.add_argument("cases", nargs="*", default=cases)
    parser.add_argument("--build", action="store_true", help="also time mkdocs build --strict")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    for case in args.cases:
        with tempfile.TemporaryDirectory() as tmp:
            project = copy_project(Path(tmp), FIXTURE_DATA)
            release = project / "data" / "releases" / "9.2.yaml"
            release.write_text(hostile_release(case), encoding="utf-8")
            size = release.stat().st_size
            script = RENDER.format(tests=str(ROOT / "tests"), data=str(project / "data"))
            seconds, peak, output = _run([sys.executable, "-c", script], ROOT, args.timeout)
            print(f"{case}: 9.2.yaml {size / 1024:.0f} KiB; check + render {seconds:.1f} s wall, peak {peak:.0f} MB")
            print("   " + output.replace("\n", "\n   "))
            if args.build:
                command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(project / "site")]
                seconds, peak, output = _run(command, project, args.timeout)
                last = output.splitlines()[-1] if output else ""
                print(f"   mkdocs build: {seconds:.1f} s wall, peak {peak:.0f} MB; {last[:160]}")


if __name__ == "__main__":
    main()
