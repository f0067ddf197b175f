"""Helpers of the browser tests of the environment doctor (test_pages.py): the corpus of real
collect_env outputs (tests/js/corpus), pasted into the real guide pages in chromium as a reader
pastes: the whole text arrives in the box at once, one input event, and the page reads it on input.

`visit` opens a case's guide once, pastes, and records everything the corpus tests judge: the
controls and answers (`read_page`), the plan box, the install rows and the time the paste took
to paint. The two tests of the corpus (test_pages.py) judge the same visits, made once per run.

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


#: What read_page returns, read in one round trip: a control's value, the option values of a list,
#: the text of the first element a selector matches when Playwright would call it visible (a
#: non-empty box, `checkVisibility()` and `visibility: visible`; `display: contents` by its
#: children), its `innerText` as `inner_text()` gives it, else "".
READ_PAGE = """() => {
  const visible = (e) => {
    const style = getComputedStyle(e);
    if (style.display === 'contents') {
      return [...e.childNodes].some((c) => c.nodeType === 1 ? visible(c) : c.nodeType === 3 && box(c));
    }
    if (!e.checkVisibility() || style.visibility !== 'visible') return false;
    const rect = e.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const box = (text) => {
    const range = document.createRange();
    range.selectNode(text);
    const rect = range.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const value = (name) => document.querySelector(`#your-setup [name=${name}]`).value;
  const options = (name) => [...document.querySelectorAll(`#your-setup [name=${name}] option`)].map((o) => o.value);
  const text = (selector) => {
    const e = document.querySelector(selector);
    return e && visible(e) ? e.innerText : '';
  };
  const rows = [...document.querySelectorAll('.atlas-install tr[data-variant]')];
  return {
    controls: {variant: value('variant'), os: value('os'), python: value('python'), gpu: value('gpu')},
    options: {variant: options('variant'), python: options('python')},
    read: text('.atlas-env-read'),
    status: text('.atlas-setup-status'),
    yours: [...document.querySelectorAll('.atlas-gpus tr.atlas-yours')].map((r) => r.dataset.gpu),
    gpu_answer: text('.atlas-gpu-answer'),
    driver_answer: text('.atlas-driver-answer'),
    install: rows.filter((r) => !r.hidden).map((r) => r.dataset.variant),
  };
}"""


def read_page(page) -> dict:
    """The doctor's controls and answers as a reader sees them (READ_PAGE), in one round trip."""
    return page.evaluate(READ_PAGE)


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


#: Paste as a reader does (the value arrives whole, one input event), then time until the next frame.
#: The box's reader is its `input` listener, which reads the box's value (atlas.js pasteReader).
PASTE_AND_TIME = """(text) => new Promise((done) => {
  const box = document.querySelector('[name=collect_env]');
  const start = performance.now();
  box.value = text;
  box.dispatchEvent(new Event('input', {bubbles: true}));
  const script = performance.now() - start;
  requestAnimationFrame(() => {
    const plan = document.querySelector('.atlas-plan');
    done({ms: performance.now() - start, script, shown: !plan.hidden && plan.textContent.length > 0});
  });
})"""

#: What opens first in the answer, what the plan box says sentence by sentence as a reader reads
#: it, and the install rows shown.
PLAN_READ = """() => {
  const box = document.querySelector('.atlas-plan');
  const said = [];
  box.querySelectorAll('.atlas-plan-head, pre.atlas-plan-command code, li').forEach((node) => {
    said.push(node.matches('li') ? node.firstChild.textContent : node.textContent);
  });
  const rows = [...document.querySelectorAll('.atlas-install tr[data-variant]')];
  return {
    first: document.querySelector('.atlas-answer').firstElementChild.className,
    said,
    rows: rows.filter((r) => !r.hidden).map((r) => r.dataset.variant),
  };
}"""

#: The paste box opens as a click on its summary opens it. A pointer's click on it (Playwright's,
#: which first waits for the summary to be visible, stable and not covered) is tested on its own
#: (test_collect_env_outputs_of_each_kind_of_machine_set_the_controls).
OPEN_PASTE = "() => document.querySelector('.atlas-setup-paste summary').click()"


def visit(page, url: str, text: str) -> dict:
    """Open `url`, paste `text` into its paste box, and read what the corpus tests judge: `timed`
    (PASTE_AND_TIME), `first`, `said` and `rows` as soon as the reading shows (PLAN_READ), and
    `seen` (read_page) 50 ms later."""
    page.goto(url, wait_until="load")
    page.evaluate(OPEN_PASTE)
    timed = page.evaluate(PASTE_AND_TIME, text)
    page.wait_for_function("() => !document.querySelector('.atlas-env-read').hidden")
    plan = page.evaluate(PLAN_READ)
    page.wait_for_timeout(50)
    return {"timed": timed, **plan, "seen": read_page(page)}
