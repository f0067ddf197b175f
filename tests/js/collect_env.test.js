// The environment doctor's parser (docs/assets/atlas-env.js) on real collect_env outputs.
// Run: node --test tests/js/   (tests/test_js.py runs it with ATLAS_FACTS set to the facts the
// build writes, so the GPU and driver answers are checked against data/ too).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const env = require("../../docs/assets/atlas-env.js");

const CORPUS = path.join(__dirname, "corpus");
const { cases } = JSON.parse(fs.readFileSync(path.join(CORPUS, "expected.json"), "utf8"));
const facts = process.env.ATLAS_FACTS ? JSON.parse(fs.readFileSync(process.env.ATLAS_FACTS, "utf8")) : null;

// The parser reads OS and wheel names from the facts (the vocabulary), as the page gives them.
const needsFacts = { skip: facts ? false : "ATLAS_FACTS not set (run through pytest)" };

function read(name) {
  return fs.readFileSync(path.join(CORPUS, name + ".txt"), "utf8");
}

function reading(parsed) {
  return { torch: parsed.torch, variant: parsed.variant, os: parsed.os, python: parsed.python, driver: parsed.driver };
}

// A case with `todo` is a known misreading of the parser or a gap in data/ (the reason is its
// value): its checks run, and are reported, as todo until the parser or the data is fixed.
for (const [name, { source, expect, todo }] of Object.entries(cases)) {
  const options = todo ? { ...needsFacts, todo } : needsFacts;
  test(`${name} (${source}) reads as worked out by hand`, options, () => {
    const parsed = env.parseCollectEnv(read(name), facts);
    const wanted = { torch: expect.torch, variant: expect.variant, os: expect.os, python: expect.python, driver: expect.driver };
    assert.deepEqual(reading(parsed), wanted);
    if (expect.gpus === null) {
      assert.ok(parsed.missing.some((m) => m.field === "gpus"), "the GPU line is reported as not read");
    } else {
      assert.deepEqual(parsed.gpus, expect.gpus);
    }
    if (expect.arch) assert.equal(parsed.arch, expect.arch);
    assert.equal(parsed.wsl, Boolean(expect.wsl));
    // What could not be read is said, field by field; what was read is never also missing.
    const readFields = new Set(parsed.read.map((r) => r.field));
    for (const field of ["torch", "os", "python"]) {
      assert.equal(readFields.has(field), Boolean(expect[field]), `${field} is listed as read exactly when found`);
      assert.equal(parsed.missing.some((m) => m.field === field), !expect[field], `${field} is listed as missing exactly when not found`);
    }
  });
  test(`${name}: the oldest GPU's compute capability`, options, () => {
    const parsed = env.parseCollectEnv(read(name), facts);
    assert.equal(env.oldestGpu(parsed.gpus, facts).capability, expect.capability);
  });
}

test("Windows line endings, reply quoting and indentation read like the plain output", needsFacts, () => {
  const plain = read("genvdm5-win10-gtx1070-2.7-powershell");
  const crlf = plain.replace(/\n/g, "\r\n");
  const quoted = plain.split("\n").map((line) => "> " + line).join("\n");
  const nested = plain.split("\n").map((line) => ">> " + line).join("\n");
  const indented = plain.split("\n").map((line) => "    " + line).join("\n");
  const base = env.parseCollectEnv(plain, facts);
  for (const variant of [crlf, quoted, nested, indented]) {
    const parsed = env.parseCollectEnv(variant, facts);
    assert.deepEqual(reading(parsed), reading(base));
    assert.deepEqual(parsed.gpus, base.gpus);
  }
});

test("versions of every kind of build read to their minor release and wheel", needsFacts, () => {
  const cases = {
    "2.6.0.dev20241112+cpu": ["2.6", "cpu", "nightly"],
    "2.5.0a0+git1234abc": ["2.5", "", "source"],
    "2.13.0+xpu": ["2.13", "xpu", "release"],
    "2.5.1+rocm6.2": ["2.5", "rocm6.2", "release"],
    "2.7.0.dev20250123+rocm6.3": ["2.7", "rocm6.3", "nightly"],
    "2.10.0+cu130": ["2.10", "cu130", "release"],
  };
  for (const [version, [minor, variant, build]] of Object.entries(cases)) {
    const parsed = env.parseCollectEnv(`PyTorch version: ${version}\nCUDA used to build PyTorch: N/A\n`, facts);
    assert.deepEqual([parsed.torch, parsed.variant, parsed.build], [minor, variant, build], version);
  }
});

test("OS: Could not collect is unknown, not Linux, and is listed as not read", needsFacts, () => {
  const parsed = env.parseCollectEnv("PyTorch version: 2.9.0+cu128\nOS: Could not collect\n", facts);
  assert.equal(parsed.os, "");
  assert.ok(parsed.missing.find((m) => m.field === "os").why.includes("Could not collect"));
});

// Older collect_env outputs spell macOS "Mac OSX 11.0"; a Windows in another language writes its
// bitness in that language ("64 位"), and Python's own line says "(AMD64)" (real outputs, 2020-2025).
test("Mac OSX and a Windows in another language read their version and CPU", needsFacts, () => {
  const mac = env.parseCollectEnv("OS: Mac OSX 11.0 (x86_64)\nPython version: 3.8 (64-bit runtime)\n", facts);
  assert.deepEqual([mac.os, mac.arch, mac.macos], [facts.os.mac, "x86_64", "11.0"]);
  const windows = env.parseCollectEnv(
    "OS: Microsoft Windows 11 \u4e13\u4e1a\u7248 (10.0.26100 64 \u4f4d)\n" +
      "Python version: 3.10.13 | packaged by Anaconda, Inc. | (main, Sep 11 2023) [MSC v.1916 64 bit (AMD64)] (64-bit runtime)\n" +
      "Python platform: Windows-10-10.0.26100-SP0\n",
    facts,
  );
  assert.deepEqual([windows.os, windows.arch], [facts.os.win, "x86_64"]);
});

test("an empty paste reads nothing and says what is missing", needsFacts, () => {
  const parsed = env.parseCollectEnv("", facts);
  assert.deepEqual(parsed.read, []);
  assert.deepEqual(parsed.missing.map((m) => m.field).sort(), ["driver", "gpus", "os", "python", "torch"]);
});


test("GPU names that look alike map to their own row of NVIDIA's tables", needsFacts, () => {
  const expected = {
    "Quadro RTX 5000": "7.5", // Turing, not the Blackwell RTX PRO 5000
    "NVIDIA RTX 5000 Ada Generation": "8.9",
    "NVIDIA RTX PRO 5000 Blackwell": "12.0",
    "TITAN X (Pascal)": "6.1",
    "GeForce GTX TITAN X": "5.2", // the Maxwell one
    "Tesla V100S-PCIE-32GB": "7.0",
    "Quadro GV100": "7.0",
    "NVIDIA A10G": "8.6",
    "NVIDIA A10": "8.6",
    "NVIDIA A100-SXM4-40GB": "8.0",
    "NVIDIA GB10": "12.1",
    "NVIDIA GeForce GTX 1660 Ti": "7.5",
    "NVIDIA GeForce RTX 5090 D": "12.0",
    "Tesla P4": "6.1",
    "Tesla P40": "6.1",
    "Tesla P100-PCIE-16GB": "6.0",
    "NVIDIA L40S": "8.9",
    "NVIDIA L4": "8.9",
    "NVIDIA GeForce GTX 960M": "5.0",
    "NVIDIA GeForce GTX 960": "5.2",
  };
  for (const [name, capability] of Object.entries(expected)) {
    const model = env.gpuModel(name, facts);
    assert.ok(model, `${name} is in data/gpus.yaml`);
    assert.equal(model.capability, capability, name);
  }
  assert.equal(env.gpuModel("AMD Radeon RX 7900 XTX (gfx1100)", facts), null);
});

test("with mixed GPUs the oldest decides, and the reading says they are mixed", needsFacts, () => {
  const oldest = env.oldestGpu(["NVIDIA GeForce RTX 4090", "NVIDIA GeForce GTX 1080 Ti", "Mystery GPU"], facts);
  assert.equal(oldest.capability, "6.1");
  assert.equal(oldest.name, "NVIDIA GeForce GTX 1080 Ti");
  assert.ok(oldest.mixed);
  assert.deepEqual(oldest.unknown, ["Mystery GPU"]);
  assert.equal(env.oldestGpu(["NVIDIA H100", "NVIDIA H100"], facts).mixed, false);
});

test("a driver runs a CUDA build from the driver NVIDIA pairs with it; between the major's floor and it, with limits", needsFacts, () => {
  for (const [cuda, row] of Object.entries(facts.drivers)) {
    assert.equal(env.driverFor(row.linux, cuda, "linux", facts).verdict, "yes", cuda);
    const floor = (facts.driverFloors[cuda.split(".")[0]] || {}).linux;
    const below = String(Number(row.linux.split(".")[0]) - 1) + ".0";
    const verdict = env.driverFor(below, cuda, "linux", facts).verdict;
    assert.equal(verdict, floor && env.atLeast(below, floor) ? "compat" : "no", `${cuda} with ${below}`);
  }
  assert.equal(env.driverFor("", "12.8", "linux", facts).verdict, "unknown");
  assert.equal(env.driverFor("560.94", "99.9", "linux", facts).verdict, "unknown");
});
