/* PyTorch Release Atlas: the guides' "Your packages" box.
 *
 * Reads the installed packages from a paste (the `[pip3]` and `[conda]` lines of
 * `python -m torch.utils.collect_env`, or `pip freeze` / `pip list` output) and looks each one up in
 * the table the build writes (assets/atlas-stack-table.js, made by macros/query/ecosystem.py from
 * data/ecosystem.json: one file for every guide, loaded as a script so that a copy opened from
 * file:// works too). No rule is decided here: whether a release allows a torch release, which
 * requirement counts and which torch a companion pins all come computed in the table; this file
 * only reads names and versions and finds rows.
 *
 *   readInstalled(text) -> {packages: {name: version}, torch: "2.7.1" or "", lines: n, cut: bool}
 *   answer(installed, table, target) -> {rows: [...], companions: [...], uncovered: [names]}
 */
(function (root) {
  "use strict";

  /* Longest paste read: a collect_env output is a few KB, a big `pip freeze` some tens. */
  var MAX_PASTE = 2 * 1024 * 1024;
  var MAX_LINE = 1000;
  /* flags of a table row (macros/query/ecosystem.py, script_table) */
  var PRE = 1, YANKED = 2, UNKNOWN = 4, NO_REQUIREMENT = 8;

  /* PEP 503: lower case, runs of -, _ and . as one - */
  function pep503(name) {
    return name.toLowerCase().replace(/[-_.]+/g, "-");
  }

  /* The release a version names: without a local label (+cu121) or a leading v. */
  function publicVersion(version) {
    return version.replace(/^v/i, "").split("+")[0];
  }

  var NAME = "([A-Za-z0-9][A-Za-z0-9._-]{0,99})";
  var VERSION = "([0-9][A-Za-z0-9.!+_-]{0,79})";
  var PIP3 = new RegExp("^\\[pip3?\\]\\s+" + NAME + "\\s*==\\s*" + VERSION + "\\s*$");
  var CONDA = new RegExp("^\\[conda\\]\\s+" + NAME + "\\s+" + VERSION + "(?:\\s|$)");
  var FREEZE = new RegExp("^" + NAME + "\\s*===?\\s*" + VERSION + "\\s*(?:;.*)?$");
  var LIST = new RegExp("^" + NAME + "\\s+" + VERSION + "(?:\\s+\\S+)?\\s*$");
  var TORCH_LINE = /^PyTorch version\s*:\s*v?([0-9]+\.[0-9]+(?:\.[0-9]+)?)/;

  /* Names and versions, one a line; every pattern is anchored and bounded, so reading is linear
     in the paste's size. A conda line does not replace a pip line of the same package. */
  function readInstalled(text) {
    var source = String(text || "");
    var cut = source.length > MAX_PASTE;
    if (cut) source = source.slice(0, MAX_PASTE);
    var packages = Object.create(null), fromPip = Object.create(null);
    var torch = "";
    var lines = source.split(/\r\n?|\n/);
    for (var i = 0; i < lines.length; i++) {
      var raw = lines[i];
      if (raw.length > MAX_LINE) continue;
      var line = raw.charCodeAt(0) <= 32 || raw.charAt(0) === ">" ? raw.replace(/^[\s>]+/, "") : raw;
      if (!line) continue;
      var first = line.charAt(0);
      var match = null, pip = false;
      if (first === "[") {
        if (line.lastIndexOf("[pip", 0) === 0) { match = line.match(PIP3); pip = true; }
        else if (line.lastIndexOf("[conda]", 0) === 0) match = line.match(CONDA);
      } else if (line.indexOf("==") > 0) {
        match = line.match(FREEZE);
        pip = true;
      } else if (first !== "#" && first !== "-" && line.indexOf(": ") < 0) {
        match = line.match(LIST);
      }
      if (match) {
        var name = pep503(match[1]);
        if (!pip && fromPip[name]) continue;
        packages[name] = publicVersion(match[2]);
        if (pip) fromPip[name] = true;
        continue;
      }
      if (!torch && first === "P") {
        var stated = line.match(TORCH_LINE);
        if (stated) torch = stated[1];
      }
    }
    if (packages.torch) torch = packages.torch;
    return { packages: packages, torch: torch, lines: lines.length, cut: cut };
  }

  function own(object, key) {
    return Object.prototype.hasOwnProperty.call(object, key);
  }

  function allows(row, bit) {
    return row[2] !== null && (row[2] & bit) !== 0;
  }

  function usable(row) {
    return (row[3] & (PRE | YANKED | UNKNOWN)) === 0;
  }

  /* Each installed package the table covers, against torch `target`: its requirement, whether it
     allows the target, and the first newer release that does. */
  function answer(installed, table, target) {
    var index = table.minors.indexOf(target);
    var bit = index < 0 ? 0 : Math.pow(2, index);
    var rows = [], uncovered = [];
    Object.keys(installed.packages).sort().forEach(function (name) {
      var releases = own(table.packages, name) ? table.packages[name] : null;
      if (!releases) {
        if (name !== "torch") uncovered.push(name);
        return;
      }
      var version = installed.packages[name];
      var at = -1;
      for (var i = 0; i < releases.length; i++) if (releases[i][0] === version) { at = i; break; }
      var first = null;
      for (var j = at + 1; j < releases.length; j++) {
        if (usable(releases[j]) && allows(releases[j], bit)) { first = releases[j][0]; break; }
      }
      var row = { name: name, version: version, requires: null, allows: null, first: first, why: "" };
      if (at < 0) row.why = "not in the snapshot (released before 2023, or not on PyPI)";
      else if (releases[at][3] & UNKNOWN) row.why = "its metadata could not be read";
      else {
        row.requires = releases[at][1];
        row.allows = allows(releases[at], bit);
        if (releases[at][3] & NO_REQUIREMENT) row.why = "declares no torch requirement";
      }
      rows.push(row);
    });
    return { rows: rows, companions: companions(installed, table), uncovered: uncovered };
  }

  /* First-party companions whose own requirement does not admit the installed torch, and the
     release of each that does. */
  function companions(installed, table) {
    var torch = installed.torch ? publicVersion(installed.torch) : "";
    if (!torch) return [];
    if (/^\d+\.\d+$/.test(torch)) torch += ".0";
    var found = [];
    Object.keys(table.companions).forEach(function (name) {
      var version = installed.packages[name];
      var pins = table.companions[name];
      if (!version || !own(pins, version) || pins[version].indexOf(torch) >= 0) return;
      var match = null;
      Object.keys(pins).forEach(function (candidate) {
        if (pins[candidate].indexOf(torch) >= 0 && !/[a-z]/i.test(candidate)) match = candidate;
      });
      found.push({ name: name, version: version, torch: torch, pins: pins[version], match: match });
    });
    return found;
  }

  /* --- the page --------------------------------------------------------------------------------- */

  var tableSource = typeof document !== "undefined" && document.currentScript
    ? document.currentScript.src.replace(/atlas-stack\.js(\?.*)?$/, "atlas-stack-table.js")
    : "";
  var waiting = [];

  /* The table arrives once per visit, as a script (file:// allows that, not a fetch). */
  function withTable(then) {
    if (root.AtlasStackTable) { then(root.AtlasStackTable); return; }
    waiting.push(then);
    if (waiting.length > 1 || !tableSource) return;
    var script = document.createElement("script");
    script.src = tableSource;
    script.onload = function () {
      var calls = waiting.splice(0);
      calls.forEach(function (call) { if (root.AtlasStackTable) call(root.AtlasStackTable); });
    };
    script.onerror = function () { waiting.splice(0); };
    document.head.appendChild(script);
  }

  function cell(tr, text, tag) {
    var td = document.createElement(tag || "td");
    td.textContent = text;  // text from the paste or the table: never markup
    tr.appendChild(td);
    return td;
  }

  function verdict(row, target) {
    if (row.allows === true) return row.why ? "allows " + target + " (" + row.why + ")" : "allows " + target;
    if (row.allows === false) return "blocks " + target;
    return "unknown: " + row.why;
  }

  function show(box, result, installed, target) {
    var out = box.querySelector(".atlas-stack-result");
    out.textContent = "";
    var names = Object.keys(installed.packages);
    if (!names.length) {
      out.textContent = installed.lines > 1 ? "No package lines found (name==version, [pip3] or [conda] lines)." : "";
      return;
    }
    var blocking = result.rows.filter(function (row) { return row.allows === false; });
    var summary = document.createElement("p");
    summary.className = "atlas-stack-summary";
    summary.textContent = result.rows.length
      ? blocking.length + " of " + result.rows.length + " packages block torch " + target + "; " +
        result.rows.filter(function (row) { return row.allows === true; }).length + " allow it."
      : "None of the " + names.length + " packages read is in the ecosystem snapshot.";
    out.appendChild(summary);
    if (installed.cut) {
      var note = document.createElement("p");
      note.textContent = "Only the first 2 MB of the paste were read.";
      out.appendChild(note);
    }
    if (result.rows.length) {
      var table = document.createElement("table");
      table.className = "atlas-stack-table";
      var head = document.createElement("tr");
      ["Package", "Installed", "Requires", "torch " + target, "First release allowing " + target].forEach(function (text) {
        cell(head, text, "th");
      });
      table.appendChild(document.createElement("thead")).appendChild(head);
      var body = table.appendChild(document.createElement("tbody"));
      var order = function (row) { return row.allows === false ? 0 : row.allows === null ? 1 : 2; };
      result.rows.slice().sort(function (a, b) { return order(a) - order(b); }).forEach(function (row) {
        var tr = document.createElement("tr");
        tr.dataset.package = row.name;
        tr.className = row.allows === false ? "atlas-stack-blocks" : row.allows ? "atlas-stack-allows" : "atlas-stack-unknown";
        cell(tr, row.name, "th");
        cell(tr, row.version);
        cell(tr, row.requires || "none");
        cell(tr, verdict(row, target));
        cell(tr, row.allows === true ? "" : row.first || "none yet");
        body.appendChild(tr);
      });
      out.appendChild(table);
    }
    if (result.companions.length) {
      var list = document.createElement("ul");
      list.className = "atlas-stack-companions";
      result.companions.forEach(function (entry) {
        var li = document.createElement("li");
        li.textContent = entry.name + " " + entry.version + " requires torch " + entry.pins.join(" or ") +
          ", not the installed " + entry.torch + (entry.match ? "; torch " + entry.torch + " goes with " +
          entry.name + " " + entry.match : "") + ".";
        list.appendChild(li);
      });
      var title = document.createElement("p");
      title.textContent = "Companions that do not match the installed torch:";
      out.append(title, list);
    }
    if (result.uncovered.length) {
      var rest = document.createElement("p");
      rest.className = "atlas-stack-uncovered";
      rest.textContent = "Not in the snapshot (not checked): " + result.uncovered.slice(0, 40).join(", ") +
        (result.uncovered.length > 40 ? " and " + (result.uncovered.length - 40) + " more" : "") + ".";
      out.appendChild(rest);
    }
  }

  function setupStack(doc) {
    var box = doc.querySelector(".atlas-stack[data-to]");
    if (!box || box.dataset.ready) return;
    box.dataset.ready = "1";
    box.hidden = false;
    var target = box.dataset.to;
    var sources = Array.prototype.slice.call(doc.querySelectorAll("textarea[name=collect_env], textarea[name=installed]"));
    var timer = null;
    var read = function (text) {
      var installed = readInstalled(text);
      if (!Object.keys(installed.packages).length) { show(box, { rows: [], companions: [], uncovered: [] }, installed, target); return; }
      withTable(function (table) { show(box, answer(installed, table, target), installed, target); });
    };
    sources.forEach(function (area) {
      area.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(function () { read(area.value); }, 150);
      });
    });
  }

  var api = { readInstalled: readInstalled, answer: answer, pep503: pep503 };
  if (typeof module === "object" && module.exports) { module.exports = api; return; }
  root.AtlasStack = api;
  var start = function () {
    try { setupStack(document); } catch (error) { /* the box stays as the HTML left it */ }
  };
  if (root.document$ && typeof root.document$.subscribe === "function") root.document$.subscribe(start);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(this);
