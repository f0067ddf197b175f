// The pure rules of docs/assets/atlas.js (sorting, GPU input, which guide rows concern a setup),
// loaded in Node the way atlas-env.js is. Run: node --test tests/js/ (tests/test_js.py sets
// ATLAS_FACTS to the facts the build writes from data/ and the vocabulary; the rules decide with
// them, so the tests that need them are skipped without it).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const rules = require("../../docs/assets/atlas.js");
const env = require("../../docs/assets/atlas-env.js");

const facts = process.env.ATLAS_FACTS ? JSON.parse(fs.readFileSync(process.env.ATLAS_FACTS, "utf8")) : null;
const needsFacts = { skip: facts ? false : "ATLAS_FACTS not set (run through pytest)" };

/* A guide row as the rules read it: its data-* attributes (item.j2 writes applies_to there). */
function row(attributes) {
  return { getAttribute: (name) => (name in attributes ? attributes[name] : null) };
}

test("compareValues sorts versions, counts and words as a reader expects", () => {
  const sorted = (values) => values.slice().sort(rules.compareValues);
  assert.deepEqual(sorted(["2.10", "2.9", "2.1", "2.10.1"]), ["2.1", "2.9", "2.10", "2.10.1"]);
  assert.deepEqual(sorted(["1,200", "300", "45"]), ["45", "300", "1,200"]);
  assert.deepEqual(sorted(["beta", "Stable", "api-unstable"]), ["api-unstable", "beta", "Stable"]);
  assert.deepEqual(sorted(["sm 90", "sm 100", "sm 80"]), ["sm 80", "sm 90", "sm 100"]);
  assert.equal(rules.compareValues("12.8", "12.8"), 0);
});

test("normalizeGpu reads sm_80, sm80, 80 and 8.0 as 8.0, and nothing else", () => {
  for (const typed of ["sm_80", "SM_80", "sm80", "80", "8.0", " 8.0 "]) assert.equal(rules.normalizeGpu(typed), "8.0", typed);
  assert.equal(rules.normalizeGpu("sm_120"), "12.0");
  assert.equal(rules.normalizeGpu("10.3"), "10.3");
  for (const typed of ["", "ampere", "8.", "sm_8", "8.0.1", null, undefined]) assert.equal(rules.normalizeGpu(typed), "", String(typed));
});

test("olderThan compares releases by number", () => {
  assert.equal(rules.olderThan("2.9", "2.10"), true);
  assert.equal(rules.olderThan("2.10", "2.9"), false);
  assert.equal(rules.olderThan("2.10", "2.10"), false);
});

test("cudaOf names a CUDA wheel's toolkit as the data does", needsFacts, () => {
  assert.ok(Object.keys(facts.cudaVersions).length > 0);
  for (const [variant, version] of Object.entries(facts.cudaVersions)) assert.equal(rules.cudaOf(variant, facts), version);
  assert.equal(rules.cudaOf("cu128", facts), "12.8");
  assert.equal(rules.cudaOf("cu999", facts), "", "a wheel the data does not have");
  assert.equal(rules.cudaOf("rocm7.1", facts), "");
});

test("variantFamily follows the vocabulary's families", needsFacts, () => {
  const names = facts.variantFamilies.map((family) => family[0]);
  for (const name of names) assert.equal(rules.variantFamily(name, facts), name, "a family is its own family");
  assert.equal(rules.variantFamily("cu128", facts), facts.variants.cudaFamily);
  assert.equal(rules.variantFamily("rocm7.1", facts), facts.variants.rocmFamily);
  assert.equal(rules.variantFamily("not-a-variant", facts), "not-a-variant");
});

test("a row for a family concerns its members, a row for one wheel only that wheel", needsFacts, () => {
  const cuda = facts.variants.cudaFamily;
  assert.equal(rules.variantMatches([cuda], "cu128", facts), true);
  assert.equal(rules.variantMatches([cuda], facts.variants.cpuOnly, facts), false);
  assert.equal(rules.variantMatches([facts.variants.rocmFamily], "rocm6.3", facts), true);
  assert.equal(rules.variantMatches(["cu126"], "cu128", facts), false);
  assert.equal(rules.variantMatches(["cu126", "cu128"], "cu128", facts), true);
});

test("appliesTo keeps a row unless one of its applies_to lists leaves the setup out", needsFacts, () => {
  const field = (name) => facts.setupFields.find((f) => f.name === name);
  const variants = "data-" + field("variant").appliesTo;
  const os = "data-" + field("os").appliesTo;
  const gpu = "data-" + field("gpu").appliesTo;
  const mac = facts.os.mac;
  const macRow = row({ [variants]: facts.variants.appleGpu, [os]: mac });
  assert.equal(rules.appliesTo(macRow, {}, facts), true, "no setup: every row");
  assert.equal(rules.appliesTo(macRow, { os: mac }, facts), true);
  assert.equal(rules.appliesTo(macRow, { variant: "cu128" }, facts), false);
  assert.equal(rules.appliesTo(macRow, { os: facts.os.win }, facts), false);
  assert.equal(rules.appliesTo(row({}), { variant: "cu128", os: mac, python: "3.12", gpu: "8.0" }, facts), true, "a row for everyone");
  const gpuRow = row({ [variants]: facts.variants.cudaFamily, [gpu]: "7.0 7.5" });
  assert.equal(rules.appliesTo(gpuRow, { variant: "cu126", gpu: "7.0" }, facts), true);
  assert.equal(rules.appliesTo(gpuRow, { variant: "cu126", gpu: "8.0" }, facts), false);
});

test("a driver is read in its own system's column, any other system in the first", needsFacts, () => {
  for (const system of facts.driverSystems) assert.equal(rules.driverSystem(system, facts), system);
  assert.equal(rules.driverSystem(facts.os.mac, facts), facts.driverSystems[0]);
  assert.equal(rules.driverSystem("", facts), facts.driverSystems[0]);
});

test("an Apple silicon Mac older than the release's wheels is told so", () => {
  const floors = { appleSiliconMacos: { "2.9": "14.0" } };
  const reading = (osName, arch) => ({ found: { osName: osName, arch: arch } });
  assert.equal(rules.macosTooOld(reading("macOS 13.6.1 (arm64)", "arm64"), floors, "2.9"), true);
  assert.equal(rules.macosTooOld(reading("macOS 14.2 (arm64)", "arm64"), floors, "2.9"), false);
  assert.equal(rules.macosTooOld(reading("macOS 13.6.1 (x86_64)", "x86_64"), floors, "2.9"), false);
  assert.equal(rules.macosTooOld(reading("macOS 13.6.1 (arm64)", "arm64"), floors, "2.8"), false, "no floor known");
});

test("the parser (atlas-env.js) gives only values the vocabulary has", needsFacts, () => {
  const corpus = path.join(__dirname, "corpus");
  const { cases } = JSON.parse(fs.readFileSync(path.join(corpus, "expected.json"), "utf8"));
  const systems = Object.keys(facts.os.labels);
  const families = facts.variantFamilies.map((family) => family[0]);
  for (const name of Object.keys(cases)) {
    const parsed = env.parseCollectEnv(fs.readFileSync(path.join(corpus, name + ".txt"), "utf8"), facts);
    if (parsed.os) assert.ok(systems.includes(parsed.os), `${name}: OS ${parsed.os}`);
    if (parsed.variant) assert.ok(families.includes(rules.variantFamily(parsed.variant, facts)), `${name}: wheel ${parsed.variant}`);
  }
});

test("foldedStatus counts folded changes apart from the other entries, as the answer box counts changes", () => {
  assert.equal(rules.foldedStatus(26, 94, 1, 56), "26 of the 94 changes and 1 of the 56 other entries folded away: not for your setup.");
  assert.equal(rules.foldedStatus(3, 10, 0, 4), "3 of the 10 changes folded away: not for your setup.");
  assert.equal(rules.foldedStatus(0, 1, 1, 1), "1 of the 1 other entry folded away: not for your setup.");
  assert.equal(rules.foldedStatus(0, 10, 0, 4), "Nothing folded away: every entry concerns your setup.");
});

test("missingPageQuery turns the address that was not found into search words", () => {
  const q = rules.missingPageQuery;
  assert.equal(q("/atlas/releases/2.16.html", "", "/atlas"), "releases 2.16");
  assert.equal(q("/atlas/upgrade/2.9-to-2.16.html", "", "/atlas"), "upgrade 2.9 to 2.16");
  assert.equal(q("/atlas/releases/2.10.html", "#torchscript-is-gone", "/atlas"), "releases 2.10 torchscript is gone");
  assert.equal(q("/atlas/compare/index.html", "", "/atlas/"), "compare");
  // The site's own path is no search word; a page outside it keeps all its words.
  assert.equal(q("/atlas/weights_only.html", "", "/atlas"), "weights only");
  assert.equal(q("/elsewhere/page.md", "", "/atlas"), "elsewhere page");
  // Escapes are read; a malformed one is kept as typed, never thrown.
  assert.equal(q("/atlas/flex%20attention", "", "/atlas"), "flex attention");
  assert.equal(q("/atlas/%E0%A4%A", "", "/atlas"), "%E0%A4%A");
  assert.equal(q("/atlas/", "", "/atlas"), "");
  assert.equal(q("/atlas/Releases/releases/2.7.1", "", "/atlas"), "Releases 2.7.1");
});
