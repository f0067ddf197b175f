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

function read(name) {
  return fs.readFileSync(path.join(CORPUS, name + ".txt"), "utf8");
}

function reading(parsed) {
  return { torch: parsed.torch, variant: parsed.variant, os: parsed.os, python: parsed.python, driver: parsed.driver };
}

for (const [name, { source, expect }] of Object.entries(cases)) {
  test(`${name} (${source}) reads as worked out by hand`, () => {
    const parsed = env.parseCollectEnv(read(name));
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
  test(`${name}: the oldest GPU's compute capability`, { skip: facts ? false : "ATLAS_FACTS not set (run through pytest)" }, () => {
    const parsed = env.parseCollectEnv(read(name));
    assert.equal(env.oldestGpu(parsed.gpus, facts).capability, expect.capability);
  });
}

test("Windows line endings, reply quoting and indentation read like the plain output", () => {
  const plain = read("genvdm5-win10-gtx1070-2.7-powershell");
  const crlf = plain.replace(/\n/g, "\r\n");
  const quoted = plain.split("\n").map((line) => "> " + line).join("\n");
  const nested = plain.split("\n").map((line) => ">> " + line).join("\n");
  const indented = plain.split("\n").map((line) => "    " + line).join("\n");
  const base = env.parseCollectEnv(plain);
  for (const variant of [crlf, quoted, nested, indented]) {
    const parsed = env.parseCollectEnv(variant);
    assert.deepEqual(reading(parsed), reading(base));
    assert.deepEqual(parsed.gpus, base.gpus);
  }
});

test("versions of every kind of build read to their minor release and wheel", () => {
  const cases = {
    "2.6.0.dev20241112+cpu": ["2.6", "cpu", "nightly"],
    "2.5.0a0+git1234abc": ["2.5", "", "source"],
    "2.13.0+xpu": ["2.13", "xpu", "release"],
    "2.5.1+rocm6.2": ["2.5", "rocm6.2", "release"],
    "2.7.0.dev20250123+rocm6.3": ["2.7", "rocm6.3", "nightly"],
    "2.10.0+cu130": ["2.10", "cu130", "release"],
  };
  for (const [version, [minor, variant, build]] of Object.entries(cases)) {
    const parsed = env.parseCollectEnv(`PyTorch version: ${version}\nCUDA used to build PyTorch: N/A\n`);
    assert.deepEqual([parsed.torch, parsed.variant, parsed.build], [minor, variant, build], version);
  }
});

test("OS: Could not collect is unknown, not Linux, and is listed as not read", () => {
  const parsed = env.parseCollectEnv("PyTorch version: 2.9.0+cu128\nOS: Could not collect\n");
  assert.equal(parsed.os, "");
  assert.ok(parsed.missing.find((m) => m.field === "os").why.includes("Could not collect"));
});

test("an empty paste reads nothing and says what is missing", () => {
  const parsed = env.parseCollectEnv("");
  assert.deepEqual(parsed.read, []);
  assert.deepEqual(parsed.missing.map((m) => m.field).sort(), ["driver", "gpus", "os", "python", "torch"]);
});
