"""`python -m macros scan`: the command-line contract, the three formats, aliases and decoys.

The made-up dataset gets `symbols:` on its changes; a sample tree (tests/fixtures/scan_tree)
uses them through aliases and attribute chains, next to decoys (strings, comments, shadowing
parameters, local names that look alike, another keyword value) that must not be reported.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin, urlparse
from urllib.request import url2pathname

import jsonschema
import pytest
import yaml
from conftest import FIXTURE_DATA, ROOT

TREE = ROOT / "tests" / "fixtures" / "scan_tree"
SITE = "https://pytorch-release-atlas.github.io/atlas/"  # site_url of mkdocs.yml
SYMBOLS = {
    "id: legacy-io-deprecated": "    symbols: [widgets.io.legacy_reader]",
    "id: legacy-io-removed": "    symbols: [widgets.io.legacy_reader]",
    "id: old-flag-removed": "    symbols: [widgets.flags.old_flag]",
    "id: fast-path": "    symbols: [{name: widgets.fast.run, keyword: mode, value: old}]",
}


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("scan") / "data"
    shutil.copytree(FIXTURE_DATA, data)
    for release in (data / "releases").glob("*.yaml"):
        lines = []
        for line in release.read_text(encoding="utf-8").splitlines():
            lines.append(line)
            if line.strip().removeprefix("- ") in SYMBOLS:
                lines.append(SYMBOLS[line.strip().removeprefix("- ")])
        text = "\n".join(lines) + "\n"
        # Speed-only changes are not scanned; this one stands for a change in what a call does.
        text = text.replace("by default.\n    effect: performance", "by default.\n    effect: silent")
        release.write_text(text, encoding="utf-8")
    return data


def scan(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "macros", "scan", *args, "--data", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )


def test_text_reports_real_uses_through_aliases_and_no_decoys(data: Path) -> None:
    result = scan(data, str(TREE), "--from", "9.0", "--to", "9.2")
    assert result.returncode == 1, result.stderr
    found, summary = result.stdout.split("\n\n")
    lines = found.splitlines()
    where = [line.split(": ", 1)[0].removeprefix(str(TREE) + "/") + " " + line.split(" ")[1] for line in lines]
    # Of a deprecation and the removal that follows it, one call shows only the removal, the
    # step the reader is about to meet.
    assert where == [
        "pkg/uses.py:5:1 legacy-io-removed",  # from widgets.io import legacy_reader as lr
        "pkg/uses.py:6:1 old-flag-removed",  # from widgets.flags import old_flag
        "pkg/uses.py:12:12 legacy-io-removed",  # lr(path)
        "pkg/uses.py:13:5 legacy-io-removed",  # widgets.io.legacy_reader(path)
        "pkg/uses.py:14:8 old-flag-removed",  # if old_flag
        "pkg/uses.py:27:1 fast-path",  # widgets.fast.run(mode="old")
    ], result.stdout
    removed = lines[2]
    assert removed.endswith(
        "Legacy IO removed — Use the new IO module. (" + SITE + "releases/9.2.html#legacy-io-removed)"
    )
    assert "skipped" in result.stderr and "not_python3.py" in result.stderr  # reported, not fatal
    assert summary.splitlines() == [
        "6 findings of 3 changes in 1 file:",
        "  9.2 fast-path: 1 place — A faster default path (" + SITE + "releases/9.2.html#fast-path)",
        "  9.2 legacy-io-removed: 3 places — Legacy IO removed (" + SITE + "releases/9.2.html#legacy-io-removed)",
        "  9.2 old-flag-removed: 2 places — The old flag is removed (" + SITE + "releases/9.2.html#old-flag-removed)",
    ]


def test_range_limits_the_releases(data: Path) -> None:
    result = scan(data, str(TREE), "--from", "9.1", "--to", "9.2")
    ids = {line.split(" ")[1] for line in result.stdout.split("\n\n")[0].splitlines()}
    assert ids == {"legacy-io-removed", "old-flag-removed", "fast-path"}  # 9.1's deprecation is before


def test_from_may_name_a_release_older_than_the_data(data: Path) -> None:
    result = scan(data, str(TREE / "pkg"), "--from", "8.7", "--to", "9.0")
    assert result.returncode == 0 and result.stderr == ""  # 9.0's changes, none of which is used here
    assert result.stdout == "No finding: nothing in 1 file uses what changed from 8.7 to 9.0.\n"  # pkg/uses.py
    assert scan(data, str(TREE / "pkg"), "--from", "8.7", "--to", "9.0", "--format", "json").stdout == "[]\n"
    result = scan(data, str(TREE / "pkg"), "--from", "8.7", "--to", "9.2")
    found = result.stdout.split("\n\n")[0].splitlines()
    assert {line.split(" ")[1] for line in found} >= {"legacy-io-removed", "fast-path"}


def test_no_findings_exit_zero(data: Path) -> None:
    """The text output still says what was read, and the range, so an empty run is not mistaken
    for one that read nothing."""
    result = scan(data, str(TREE / "clean.py"), "--from", "9.0", "--to", "9.2")
    assert (result.returncode, result.stdout) == (
        0,
        "No finding: nothing in 1 file uses what changed from 9.0 to 9.2.\n",
    )


def test_json_lists_findings_with_their_fields(data: Path) -> None:
    result = scan(data, str(TREE / "pkg"), "--from", "9.0", "--to", "9.2", "--format", "json")
    assert result.returncode == 1
    findings = json.loads(result.stdout)
    assert len(findings) == 6
    first = findings[0]
    assert {"path", "line", "column", "symbol", "item_id", "release", "url"} <= first.keys()
    assert (first["line"], first["column"], first["symbol"], first["release"]) == (
        5,
        1,
        "widgets.io.legacy_reader",
        "9.2",
    )
    assert first["url"].endswith("/releases/9.2.html#legacy-io-removed")
    keyword = next(f for f in findings if f["item_id"] == "fast-path")
    assert keyword["symbol"] == "widgets.fast.run(mode=...)"


SARIF_MULTITOOL = (
    ROOT / "tests" / "browser" / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"
)


def sarif_validator_errors(log_path: Path, tmp_path: Path) -> list[str]:
    """What Microsoft's SARIF validator (npm @microsoft/sarif-multitool, pinned in
    tests/browser/package.json) reports as an error or a warning in the log."""
    if not SARIF_MULTITOOL.exists():
        pytest.skip("the SARIF validator is not installed: npm ci --prefix tests/browser")
    if not os.access(SARIF_MULTITOOL, os.X_OK):
        SARIF_MULTITOOL.chmod(0o755)  # the npm package ships the binary without its execute bit
    report = tmp_path / "validation.sarif"
    subprocess.run(
        [str(SARIF_MULTITOOL), "validate", str(log_path), "--output", str(report), "--log", "ForceOverwrite"],
        capture_output=True,
        text=True,
        env={**os.environ, "DOTNET_CLI_TELEMETRY_OPTOUT": "1"},
        timeout=300,
        check=True,
    )
    results = json.loads(report.read_text(encoding="utf-8"))["runs"][0]["results"]
    return [f"{r['ruleId']}: {r['message'].get('text', r['message'])}" for r in results if r.get("level") != "note"]


@pytest.mark.parametrize("where", ["relative", "absolute"])
def test_sarif_is_accepted_by_the_schema_and_microsofts_validator(data: Path, tmp_path: Path, where: str) -> None:
    """Names with spaces, %, # and non-ASCII letters; the scan path given relative to the
    working folder or absolute from elsewhere: every URI is relative to %SRCROOT%, percent-encoded,
    and resolves to the file."""
    checkout = tmp_path / "my checkout"
    (checkout / "src 100%").mkdir(parents=True)
    user_file = checkout / "src 100%" / "#1 façade.py"
    shutil.copy(TREE / "pkg" / "uses.py", user_file)
    cwd, path = (checkout, ".") if where == "relative" else (ROOT, str(checkout))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "macros",
            "scan",
            path,
            "--from",
            "9.0",
            "--to",
            "9.2",
            "--format",
            "sarif",
            "--data",
            str(data),
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert result.returncode == 1, result.stderr
    log = json.loads(result.stdout)
    schema = json.loads((ROOT / "tests" / "fixtures" / "sarif-2.1.0.schema.json").read_text())
    jsonschema.validate(log, schema)
    run = log["runs"][0]
    assert {rule["id"] for rule in run["tool"]["driver"]["rules"]} == {
        "legacy-io-removed",
        "old-flag-removed",
        "fast-path",
    }
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == checkout.as_uri() + "/"
    for found in run["results"]:
        location = found["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": "src%20100%25/%231%20fa%C3%A7ade.py", "uriBaseId": "%SRCROOT%"}
        assert Path(url2pathname(urlparse(urljoin(base, location["uri"])).path)) == user_file
    assert run["results"][0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 5, "startColumn": 1}
    (tmp_path / "scan.sarif").write_text(result.stdout, encoding="utf-8")
    assert sarif_validator_errors(tmp_path / "scan.sarif", tmp_path) == []


def test_sarif_fingerprints_follow_a_finding_across_edits(tmp_path: Path) -> None:
    """Code scanning matches results across commits by `partialFingerprints`: the same use keeps
    its fingerprint when lines are added above it or the tree is scanned from elsewhere; two
    identical lines get two; the validator accepts them."""
    checkout = tmp_path / "repo"
    (checkout / "src").mkdir(parents=True)
    user = checkout / "src" / "train.py"

    def fingerprints(source: str, cwd: Path, path: str) -> dict[tuple[int, str], str]:
        user.write_text(source, encoding="utf-8")
        result = subprocess.run(
            [sys.executable, "-m", "macros", "scan", path, "--from", "2.5", "--to", "2.6", "--format", "sarif"],
            cwd=cwd,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=False,
        )
        assert result.returncode == 1, result.stderr
        (tmp_path / "scan.sarif").write_text(result.stdout, encoding="utf-8")
        results = json.loads(result.stdout)["runs"][0]["results"]
        return {
            (r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"]): r["partialFingerprints"][
                "pytorchUpgradeScan/v1"
            ]
            for r in results
        }

    before = fingerprints("import torch\na = torch.load(f)\na = torch.load(f)\n", checkout, ".")
    assert len(set(before.values())) == len(before) == 2  # one item, two identical lines
    after = fingerprints("import torch\n\n# loads\na = torch.load(f)\na = torch.load(f)\n", ROOT, str(checkout))
    assert after == {(line + 2, item): value for (line, item), value in before.items()}
    assert sarif_validator_errors(tmp_path / "scan.sarif", tmp_path) == []
    edited = fingerprints("import torch\na = torch.load(g)\na = torch.load(f)\n", checkout, ".")
    assert edited[2, "torch-load-weights-only-default"] != before[2, "torch-load-weights-only-default"]


def test_the_sarif_validator_rejects_an_absolute_unencoded_path(tmp_path: Path) -> None:
    """The check above can fail: the log this scanner wrote before (a bare absolute path) is refused."""
    log = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "t", "version": "1", "rules": [{"id": "r"}]}},
                "results": [
                    {
                        "ruleId": "r",
                        "message": {"text": "m"},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "/tmp/a b%#/c.py"}}}],
                    }
                ],
            }
        ],
    }
    (tmp_path / "old.sarif").write_text(json.dumps(log), encoding="utf-8")
    assert any(error.startswith("SARIF1002") for error in sarif_validator_errors(tmp_path / "old.sarif", tmp_path))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "9.2", "--to", "9.0"], "--from 9.2 must be older than --to 9.0"),
        (["--from", "9.0", "--to", "9.9"], "unknown version '9.9'"),
        (["--from", "9.5", "--to", "9.2"], "unknown version '9.5'"),
        (["--from", "latest", "--to", "9.2"], "unknown version 'latest'"),
        (["--to", "9.2"], "does not require torch"),  # no range given, none in the project's files
        (["--from", "9.0", "--to", "9.2", "--format", "xml"], "invalid choice: 'xml'"),
        (["--from", "9.0", "--to", "9.2", "/no/such/path"], "/no/such/path: no such file or folder"),
    ],
)
def test_usage_errors_exit_2_with_one_line(data: Path, args: list[str], message: str) -> None:
    paths = [] if "/no/such/path" in args else [str(TREE)]
    result = scan(data, *paths, *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("python -m macros scan: error: ") and message in lines[0], lines


def test_the_wheel_installs_a_working_command_without_the_sites_dependencies(tmp_path: Path) -> None:
    """What a user (or pre-commit, through .pre-commit-hooks.yaml) does: build the project's
    wheel, install it into a fresh virtual environment, run `pytorch-upgrade-scan` on a project.
    The command reads the data file packaged with it (its findings name the real items), and the
    environment holds none of the site's dependencies."""
    source = tmp_path / "source"  # setuptools writes build/ and egg-info next to the sources
    source.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", source)
    shutil.copytree(ROOT / "macros", source / "macros", ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--quiet", "-w", str(wheels)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = wheels.glob("*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    installed = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr[-2000:]
    listed = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = {package["name"].lower() for package in json.loads(listed.stdout)}
    assert names <= {"pip", "setuptools", "packaging", "pytorch-release-atlas"}, names
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "p"\ndependencies = ["torch>=2.10"]\n')
    (project / "train.py").write_text("import torch.export as te\nte.export_for_training(model, args)\n")
    result = subprocess.run(
        [str(venv / "bin" / "pytorch-upgrade-scan"), "train.py"],
        cwd=project,
        capture_output=True,
        text=True,
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
        check=False,
    )
    assert result.returncode == 1, result.stderr
    first, *_ = result.stdout.splitlines()
    assert first.startswith("train.py:2:1: export-for-training-removed torch.export.export_for_training removed — ")
    assert first.endswith(
        "(https://pytorch-release-atlas.github.io/atlas/releases/2.11.html#export-for-training-removed)"
    )
    assert "scan from 2.10 to " in result.stderr and "torch>=2.10 (pyproject.toml)" in result.stderr
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["entry"] == "pytorch-upgrade-scan"
    newest = json.loads((ROOT / "macros" / "tools" / "scan_data.json").read_text())["releases"][-1]
    assert "--to" not in hook["args"] or hook["args"][hook["args"].index("--to") + 1] == newest
    assert f"2.0 to {newest}" in hook["description"]


def test_the_packaged_scan_data_is_the_data_of_this_checkout() -> None:
    """macros/tools/scan_data.json is what the installed command knows: it must say what data/
    says (regenerate it with `python -m macros scandata`)."""
    from macros.__main__ import _site_url
    from macros.query.catalog import open_catalog
    from macros.tools.scan_rules import DATA_FILE, ScanData, from_catalog, from_json, to_json

    data = from_catalog(open_catalog(ROOT / "data"))
    expected = to_json(ScanData(data.releases, data.items, _site_url()))
    assert DATA_FILE.read_text(encoding="utf-8") == expected, "run: .venv/bin/python -m macros scandata"
    assert from_json(expected).items == data.items


def test_parallel_and_serial_scans_agree(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from macros.query.catalog import open_catalog
    from macros.tools import scan as scanner

    catalog = open_catalog(data)
    serial = scanner.scan([TREE], catalog, "9.0", "9.2", SITE)
    monkeypatch.setattr(scanner, "PARALLEL_FROM", 1)
    parallel = scanner.scan([TREE], catalog, "9.0", "9.2", SITE)
    assert parallel == serial and len(serial.findings) == 6 and len(serial.skipped) == 1


def test_a_changed_default_is_found_where_the_keyword_is_left_out(tmp_path: Path) -> None:
    """2.6 flips `torch.load`'s `weights_only` default: a call that leaves it out is reported, one
    that passes it is not, whatever the alias; one that unpacks **kwargs without it may rely on the
    default, and says what to check."""
    (tmp_path / "load.py").write_text(
        "import torch\n"
        "from torch import load as tl\n"
        "a = torch.load(path)\n"
        "b = torch.load(path, weights_only=False)\n"
        "c = tl(path, map_location='cpu')\n"
        "d = torch.load(path, **options)\n"
        "e = torch.load(path, **options, weights_only=True)\n",
        encoding="utf-8",
    )
    result = scan(ROOT / "data", str(tmp_path), "--from", "2.5", "--to", "2.6", "--format", "json")
    found = [
        (f["line"], f["symbol"]) for f in json.loads(result.stdout) if f["item_id"] == "torch-load-weights-only-default"
    ]
    assert found == [
        (3, "torch.load() without weights_only="),
        (5, "torch.load() without weights_only="),
        (6, "torch.load(**kwargs): check whether it sets weights_only="),
    ]
    text = scan(ROOT / "data", str(tmp_path), "--from", "2.5", "--to", "2.6").stdout.splitlines()
    questions = [line.split(":")[1] for line in text if "check whether" in line]
    assert questions == ["6"]
    assert (
        next(line for line in text if ":6:" in line)
        .split(" — ")[1]
        .startswith("torch.load(**kwargs): check whether it sets weights_only=. ")
    )


def test_every_condition_of_the_data_reaches_the_scanner_rules() -> None:
    """The data's symbol conditions, the packaged data's and the rules' are the same fields: copied
    by name (scan_rules.from_catalog, scan_call.Rule.of), a condition one of them lacked would be
    dropped without a word."""
    from dataclasses import fields

    from macros.dataset.model import SymbolUse
    from macros.tools.scan_call import Rule
    from macros.tools.scan_rules import Symbol

    symbol = {f.name for f in fields(Symbol)}
    assert symbol == set(SymbolUse.model_fields) | {"any_value"}  # any_value: the model derives it
    assert {f.name for f in fields(Rule)} == symbol | {"item"}
