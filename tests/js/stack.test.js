// docs/assets/atlas-stack.js, the guides' "Your packages" box: reading a paste (linear in its size,
// with a cap) and looking rows up in a table shaped as macros/query/ecosystem.py writes it.
// Run: node --test tests/js/ (tests/test_js.py).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const stack = require("../../docs/assets/atlas-stack.js");

test("reads [pip3], [conda], pip freeze and pip list lines, with PEP 503 names", () => {
  const found = stack.readInstalled([
    "PyTorch version: 2.7.1+cu126",
    "[pip3] torch==2.7.1+cu126",
    "[pip3] Flash_Attn==2.8.3",
    "[conda] torchvision               0.22.1                   pypi_0    pypi",
    "[conda] Could not collect",
    "sentence_transformers==5.1.0",
    "> peft==0.17.1",
    "timm                     1.0.19",
    "CPU family:              6",
    "-e git+https://example.org/x.git#egg=x",
  ].join("\n"));
  assert.deepEqual({ ...found.packages }, {
    torch: "2.7.1", "flash-attn": "2.8.3", torchvision: "0.22.1", "sentence-transformers": "5.1.0",
    peft: "0.17.1", timm: "1.0.19",
  });
  assert.equal(found.torch, "2.7.1");
});

test("a pip line wins over a conda line of the same package", () => {
  const found = stack.readInstalled("[pip3] numpy==2.2.6\n[conda] numpy 1.26.4 py311 pypi");
  assert.equal(found.packages.numpy, "2.2.6");
});

test("answers look rows up: blocks, allows, unknown, the first newer release that allows", () => {
  const table = {
    minors: ["2.11", "2.12"],
    torch: ["2.11.0", "2.12.0"],
    // [version, requirement, allowed minors as a bit mask, flags: 1 pre, 2 yanked, 4 unknown, 8 none]
    packages: {
      xformers: [["0.0.33", "torch==2.11.0", 1, 0], ["0.0.34.dev1", "torch>=2.11", 3, 1], ["0.0.35", "torch>=2.11", 3, 0]],
      "flash-attn": [["2.8.3", null, null, 4]],
    },
    companions: {},
  };
  const result = stack.answer({ packages: { xformers: "0.0.33", "flash-attn": "2.8.3", numpy: "2.0" }, torch: "" },
    table, "2.12");
  const rows = Object.fromEntries(result.rows.map((row) => [row.name, row]));
  assert.equal(rows.xformers.allows, false);
  assert.equal(rows.xformers.first, "0.0.35");  // the pre-release is skipped
  assert.equal(rows["flash-attn"].allows, null);
  assert.deepEqual(result.uncovered, ["numpy"]);
});

// What keeps reading quick (a benchmark's matter, not a timed test's): a paste is read up to its
// first 2 MB and a line past 1,000 characters is skipped, so no pattern meets a huge run of text.
test("a 5 MB paste is read up to its first 2 MB, and a line of 300,000 characters is skipped", () => {
  const lines = [];
  for (let i = 0; i < 200000; i++) lines.push("[pip3] package-" + i + "==1.0." + i);
  const big = lines.join("\n") + "\n" + " ".repeat(300000) + "x==1\n";
  assert.ok(big.length > 4 * 1024 * 1024);
  const found = stack.readInstalled(big);
  assert.ok(Object.keys(found.packages).length > 1000);
  assert.ok(!("package-199999" in found.packages));  // past the first 2 MB
  assert.equal(found.cut, true);  // only the first 2 MB are read, and the box says so
  const long = stack.readInstalled(" ".repeat(300000) + "\n" + "a".repeat(300000) + "==1\nb==2\n");
  assert.deepEqual(Object.keys(long.packages), ["b"]);
  assert.equal(long.cut, false);
});
