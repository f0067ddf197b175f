// The plan (the newest release that runs a machine) in the page's script against the command line's.
// Run through pytest (tests/test_js.py): ATLAS_PLAN is the tables the build publishes
// (assets/atlas-plan.js, query/planner.py plan_tables) and ATLAS_PLAN_PYTHON the answers of
// `python -m macros doctor`'s code (query/collect_env.py + query/planner.py + render/doctor.py)
// for every output of the corpus; the script must read each output into the same machine and give
// the same plan and the same sentences, and match the plan worked out by hand where the corpus has one.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const env = require("../../docs/assets/atlas-env.js");
const planner = require("../../docs/assets/atlas-planner.js");

planner.useEnv(env);

const CORPUS = path.join(__dirname, "corpus");
const { cases } = JSON.parse(fs.readFileSync(path.join(CORPUS, "expected.json"), "utf8"));
const load = (name) => (process.env[name] ? JSON.parse(fs.readFileSync(process.env[name], "utf8")) : null);
const facts = load("ATLAS_FACTS");
const tables = load("ATLAS_PLAN");
const python = load("ATLAS_PLAN_PYTHON");
const needs = { skip: facts && tables && python ? false : "ATLAS_FACTS, ATLAS_PLAN, ATLAS_PLAN_PYTHON not set (run through pytest)" };

function answer(name) {
  const found = env.parseCollectEnv(fs.readFileSync(path.join(CORPUS, name + ".txt"), "utf8"), facts);
  if (!found.os) return { machine: null, plan: null, sentences: [], older: [] };
  const machine = planner.machineOf(found, facts, tables);
  const plan = planner.planFor(machine, tables);
  const last = tables.releases[tables.releases.length - 1].version;
  const sentences = planner.planSentences(plan, machine, tables, { to: last, torch: found.torchFull, build: found.build });
  // tests/test_js.py older_targets: the oldest and the middle release.
  const versions = tables.releases.map((release) => release.version);
  const older = [versions[0], versions[Math.floor(versions.length / 2)]].map((to) =>
    planner.planSentences(plan, machine, tables, { to, torch: found.torchFull, build: found.build }).map((s) => s.text));
  delete plan.steps;
  return { machine, plan, sentences: sentences.map((s) => s.text), older };
}

for (const name of Object.keys(cases)) {
  test(`${name}: the page's plan is the command line's`, needs, () => {
    const mine = answer(name);
    const theirs = python[name];
    assert.deepEqual(mine.machine, theirs.machine);
    assert.deepEqual(mine.plan, theirs.plan);
    assert.deepEqual(mine.sentences, theirs.sentences);
    assert.deepEqual(mine.older, theirs.older);
  });
}

// The plans worked out by hand: at least 95% (tests/test_planner.py prints every miss with its reason),
// and the two worked examples of the issue.
test("the plans worked out by hand come out", needs, () => {
  const planned = Object.entries(cases).filter(([, { plan }]) => plan);
  const misses = planned.filter(([name, { plan }]) => {
    const mine = answer(name).plan;
    return (mine ? mine.newest : null) !== plan.newest || (mine ? mine.wheel : null) !== plan.wheel;
  }).map(([name]) => name);
  assert.ok(planned.length > 0);
  assert.ok(misses.length <= 0.05 * planned.length, misses.join(", "));
  for (const name of ["pt164943-mac-arm-nightly-2.10", "pt144536-4xv100-nightly-2.6"]) {
    assert.ok(cases[name].plan && !misses.includes(name), name);
  }
});

test("a source build is read as one, not as the wheel of its toolkit", needs, () => {
  const found = env.parseCollectEnv(fs.readFileSync(path.join(CORPUS, "pt44106-rocm-source-1.7.txt"), "utf8"), facts);
  const variant = found.read.filter((entry) => entry.field === "variant")[0].label;
  assert.equal(variant, "built from source, with " + found.variant);
});

test("the lookups: an Intel Mac runs MPS only with an AMD GPU; a guide's B is looked up on its own", needs, () => {
  const mac = { os: tables.os.mac, arch: "x86_64", python: "3.10", accelerator: "", capabilities: [], gpuUnknown: false,
    driver: "", osVersion: "13.1", amdGpu: false };
  assert.equal(planner.planFor(mac, tables).wheel, tables.families.cpuOnly);
  assert.equal(planner.planFor({ ...mac, amdGpu: true }, tables).wheel, tables.families.appleGpu);
  const last = tables.releases[tables.releases.length - 1].version;
  const step = planner.planStep(last, mac, tables);
  assert.equal(step.wheel, "");
  assert.equal(planner.planReason(step), "it has no wheel for an Intel Mac (macOS x86_64)");
});

// A ROCm machine read from a paste cut before its GPU line: the two notes in the order
// render/doctor.py gives them (tests/test_planner.py asserts the same order).
test("a ROCm paste cut before its GPU line gives both notes in the command line's order", needs, () => {
  const rocm = { os: tables.os.lin, arch: "x86_64", python: "3.12", accelerator: tables.families.rocmFamily, capabilities: [],
    gpuUnknown: false, driver: "", osVersion: "2.35", amdGpu: false, gpuUnread: true };
  const said = planner.planSentences(planner.planFor(rocm, tables), rocm, tables, {}).map((s) => s.text.slice(0, 20));
  assert.deepEqual(said.slice(-2), ["The AMD GPU's archit", "No \u201cGPU models and c"]);
});
