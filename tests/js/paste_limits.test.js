// A paste is read in time linear in its size, whatever it holds, and a paste past the cap is
// read in part with a message (docs/assets/atlas-env.js: fieldsOf, MAX_PASTE).
// Run through tests/test_js.py, which sets ATLAS_FACTS to the facts the build writes.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const env = require("../../docs/assets/atlas-env.js");

const facts = process.env.ATLAS_FACTS ? JSON.parse(fs.readFileSync(process.env.ATLAS_FACTS, "utf8")) : null;
const needsFacts = { skip: facts ? false : "ATLAS_FACTS not set (run through pytest)" };

// Lines that made a backtracking regular expression try every split of the same blanks: a run
// of blanks with no label after it, a value that ends on a line separator, quote marks, labels.
const HOSTILE = {
  blanks: (n) => " ".repeat(n),
  "blanks before a run-in label": (n) => "x" + " ".repeat(n) + "PyTorch versionx",
  "label, blanks, line separator": (n) => "OS:" + " ".repeat(n) + "x\u2028y",
  "GPU line, blanks, line separator": (n) => "GPU models and configuration:\nGPU 0:" + " ".repeat(n) + "x\u2029y",
  "quote marks": (n) => ">".repeat(n) + "x",
  "blanks and colons": (n) => "a" + " :".repeat(n / 2),
  "almost a label": (n) => ("PyTorch version" + " ".repeat(30)).repeat(n / 45),
  "GPU lines": (n) => "GPU models and configuration:\n" + "GPU 0: NVIDIA H100 80GB HBM3\n".repeat(n / 29),
};

function timed(text) {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = process.hrtime.bigint();
    const parsed = env.parseCollectEnv(text, facts);
    env.oldestGpu(parsed.gpus, facts);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
}

for (const [name, make] of Object.entries(HOSTILE)) {
  test(`${name}: reading time grows linearly with the paste`, needsFacts, () => {
    const small = timed(make(40000));
    const large = timed(make(160000));
    // Four times the text: four times the work (a quadratic reading takes sixteen times, and
    // seconds at this size). The floor of 20 ms keeps timer noise out of the ratio; the time
    // itself is not asserted (a loaded machine is slower, not quadratic).
    assert.ok(large <= 8 * Math.max(small, 20), `${small.toFixed(1)} ms -> ${large.toFixed(1)} ms`);
  });
}

test("a 5 MB paste is read in part, and the reading says only its start was read", needsFacts, () => {
  const text = "PyTorch version: 2.7.0+cu128\nGPU models and configuration:\n" + "GPU 0: NVIDIA H100 80GB HBM3\n".repeat(180000);
  assert.ok(text.length > 5000000);
  const parsed = env.parseCollectEnv(text, facts);
  const gpu = env.oldestGpu(parsed.gpus, facts);
  assert.equal(parsed.torch, "2.7");
  assert.equal(gpu.capability, "9.0");
  const note = parsed.missing.find((m) => m.field === "paste");
  assert.ok(note && /5,2\d\d,\d{3} characters: only its first 200,000 were read/.test(note.why), JSON.stringify(note));
});

test("a paste under the cap carries no size note; a value split by a line separator reads up to it", needsFacts, () => {
  const parsed = env.parseCollectEnv("PyTorch version: 2.6.0+cpu\u2028OS: Ubuntu 22.04 (x86_64)", facts);
  assert.equal(parsed.torch, "2.6");
  assert.equal(parsed.os, facts.os.lin);
  assert.ok(!parsed.missing.some((m) => m.field === "paste"));
});
