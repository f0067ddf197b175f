"""Helpers of the browser tests of the environment doctor (test_pages.py): the corpus of real
collect_env outputs (tests/js/corpus), pasted into the real guide pages in chromium as a reader
pastes: typed into the box, read on input.

Each output opens the guide a reader would open: from their PyTorch to the newest release (the
oldest release's guide when theirs is outside the site, 2.9 -> 2.12 when no torch was read). A
case is *read right* when the controls hold the reading worked out by hand (tests/js/corpus/
expected.json) wherever the guide offers that value, and *answered right* when the GPU row, the
version message, the driver answer and the install box agree with the data (computed here from
the model, not from the page). The share right must reach 95%; every case that is not right is
printed with why, and written to test-artifacts/collect_env_corpus.txt.
"""

from __future__ import annotations

from browserkit import ROOT

from macros.dataset.model import version_key
from macros.query.gpu import gpu_support, known_gpus

CORPUS = ROOT / "tests" / "js" / "corpus"
TARGET = 0.95


def guide_for(torch: str, versions: list[str]) -> tuple[str, str]:
    newest = versions[-1]
    if torch in versions[:-1]:
        return torch, newest
    if not torch:
        return "2.9", "2.12"
    return versions[0], newest


def expected_answer(expect: dict, start: str, end: str, catalog) -> dict:
    """What the page should say, from the data: the GPU row, the wheels that run it, the version note."""
    versions = [r.version for r in catalog.releases]
    rows = {gpu.capability for gpu in known_gpus(catalog.gpus)}
    support = gpu_support(catalog.release(end), known_gpus(catalog.gpus))
    capability = expect["capability"]
    running = [v for v in support.variants if capability in rows and support.runs(v, capability).ok]
    torch = expect["torch"]
    outside = bool(torch) and (
        version_key(torch) < version_key(versions[0]) or version_key(torch) > version_key(versions[-1])
    )
    return {"row": capability if capability in rows else "", "running": running, "outside": outside}


def driver_verdict(driver: str, variant: str, os: str, catalog) -> str:
    """NVIDIA's tables as data/drivers.yaml has them, applied here independently of the script."""
    digits = variant.removeprefix("cu")
    cuda = f"{digits[:-1]}.{digits[-1]}"
    build = next((b for b in catalog.drivers.builds if b.cuda == cuda), None)
    floor = next((f for f in catalog.drivers.floors if f.major == cuda.split(".")[0]), None)
    needs = (build.windows if os == "windows" else build.linux) if build else None
    low = (floor.windows if os == "windows" else floor.linux) if floor else None
    if needs and version_key(driver) >= version_key(needs):
        return "new enough"
    if low and version_key(driver) >= version_key(low):
        return "minor-version compatibility"
    return "too old" if (needs or low) else "no "


def read_page(page) -> dict:
    value = lambda name: page.eval_on_selector(f"#your-setup [name={name}]", "e => e.value")  # noqa: E731
    shown = lambda selector: page.locator(selector).count() > 0 and page.locator(selector).first.is_visible()  # noqa: E731
    text = lambda selector: page.locator(selector).first.inner_text() if shown(selector) else ""  # noqa: E731
    return {
        "controls": {name: value(name) for name in ("variant", "os", "python", "gpu")},
        "options": {
            name: page.eval_on_selector_all(f"#your-setup [name={name}] option", "os => os.map(o => o.value)")
            for name in ("variant", "python")
        },
        "read": text(".atlas-env-read"),
        "status": text(".atlas-setup-status"),
        "yours": page.eval_on_selector_all(".atlas-gpus tr.atlas-yours", "rs => rs.map(r => r.dataset.gpu)"),
        "gpu_answer": text(".atlas-gpu-answer"),
        "driver_answer": text(".atlas-driver-answer"),
        "install": page.eval_on_selector_all(
            ".atlas-install tr[data-variant]", "rs => rs.filter(r => !r.hidden).map(r => r.dataset.variant)"
        ),
    }


def judge(expect: dict, answer: dict, seen: dict, facts: dict, end: str, catalog) -> list[str]:
    """Why a case is not right (empty when it is)."""
    why = []
    wanted = {"variant": expect["variant"], "os": expect["os"], "python": expect["python"], "gpu": answer["row"]}
    for name in ("variant", "python"):
        if wanted[name] not in seen["options"][name]:
            wanted[name] = ""  # the guide does not offer it: the control stays empty, the list says so
    if seen["controls"] != wanted:
        why.append(f"controls {seen['controls']} != {wanted}")
    if expect["driver"] and expect["driver"] not in seen["read"]:
        why.append(f"driver {expect['driver']} not in the read list")
    if expect["torch"] and f"PyTorch {expect['torch']}" not in seen["read"]:
        why.append("torch version not in the read list")
    if answer["row"]:
        if seen["yours"] != [answer["row"]]:
            why.append(f"GPU row {seen['yours']} != {answer['row']}")
        if not seen["gpu_answer"]:
            why.append("no GPU answer")
    elif seen["yours"]:
        why.append(f"a GPU row is marked ({seen['yours']}) for a machine without a known NVIDIA GPU")
    if answer["outside"] and "this site covers" not in seen["status"]:
        why.append("torch outside the site, and the status does not say so")
    if expect["driver"] and answer["row"] and expect["driver"] not in seen["driver_answer"]:
        why.append("no driver answer")
    chosen = seen["controls"]["variant"]
    if expect["driver"] and chosen.startswith("cu") and f"the {end} {chosen} wheel" in seen["driver_answer"]:
        verdict = driver_verdict(expect["driver"], chosen, expect["os"], catalog)
        if verdict not in seen["driver_answer"]:
            why.append(f"driver answer lacks '{verdict}': {seen['driver_answer']}")
    cuda_rows = [v for v in seen["install"] if v.startswith("cu") or v == "pypi"]
    if answer["row"] and answer["running"] and any(v not in answer["running"] for v in cuda_rows):
        why.append(f"install box shows {seen['install']}, but only {answer['running']} run the GPU")
    if expect["variant"].startswith("rocm") and cuda_rows:
        why.append(f"install box shows CUDA commands {cuda_rows} to a ROCm machine")
    intel_mac = expect["os"] == "macos" and expect.get("arch") == "x86_64"
    last = facts["intelMacLast"]
    if intel_mac and last and version_key(last) < version_key(end) and seen["install"]:
        why.append(f"install box shows {seen['install']} to an Intel Mac (last wheels: {last})")
    floor = facts["appleSiliconMacos"].get(end)
    if expect.get("macos") and floor and version_key(expect["macos"]) < version_key(floor) and seen["install"]:
        why.append(f"install box shows {seen['install']} to macOS {expect['macos']} ({end} needs {floor})")
    return why


def paste(page, text: str) -> None:
    if not page.locator("[name=collect_env]").first.is_visible():
        page.locator(".atlas-setup-paste summary").first.click()
    page.locator("[name=collect_env]").first.fill(text)
    page.wait_for_function("() => !document.querySelector('.atlas-env-read').hidden")
    page.wait_for_timeout(250)
