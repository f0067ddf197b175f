/* PyTorch Release Atlas: small progressive enhancements. Every page works without this file.
 * Material's instant navigation swaps pages without a reload, so set-up runs on each `document$`
 * emission; under file:// (no instant navigation) it runs once on load. */
(function () {
  "use strict";

  function setupUpgradePicker(root) {
    var form = root.querySelector("#upgrade-picker");
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    form.hidden = false;
    var message = form.querySelector(".atlas-picker-message");
    var key = function (v) { return v.split(".").map(Number); };
    var older = function (a, b) {
      var x = key(a), y = key(b);
      return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
    };
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var from = form.elements.from.value, to = form.elements.to.value;
      if (from === to) {
        message.textContent = "You are already on " + to + ": pick a newer target release.";
        return;
      }
      if (!older(from, to)) {
        message.textContent = "Downgrades are not covered: a guide goes from an older release to a newer one. " +
          "To move from " + from + " back to " + to + ", read the guide " + to + " → " + from + " in reverse.";
        return;
      }
      message.textContent = "";
      window.location.href = from + "-to-" + to + ".html" + (form.dataset.query ? "?" + form.dataset.query : "");
    });
  }

  /* Sortable, filterable tables: `<div class="atlas-table" data-facets="Area,Status">`.
   * Without JavaScript the full table still reads top to bottom. */
  function cellText(row, index) {
    var cell = row.cells[index];
    return cell ? cell.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function compareValues(a, b) {
    var na = a.match(/^\d+(\.\d+)*$/) ? a.split(".").map(Number) : null;
    var nb = b.match(/^\d+(\.\d+)*$/) ? b.split(".").map(Number) : null;
    if (na && nb) {
      for (var i = 0; i < Math.max(na.length, nb.length); i++) {
        var d = (na[i] || 0) - (nb[i] || 0);
        if (d) return d;
      }
      return 0;
    }
    var fa = parseFloat(a.replace(/,/g, "")), fb = parseFloat(b.replace(/,/g, ""));
    if (!isNaN(fa) && !isNaN(fb) && /^[\d,.]+$/.test(a) && /^[\d,.]+$/.test(b)) return fa - fb;
    return a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });
  }

  /* A table with a column per release (16 and growing) reads best a few releases at a time:
     "Releases from … to …" shows that range of columns (the row headings stay). Without
     JavaScript every column is there, in a box that scrolls. */
  function chooseReleaseColumns(table, headers, controls) {
    var columns = headers.map(function (th, index) {
      return /^\d+\.\d+$/.test(th.textContent.trim()) ? index : -1;
    }).filter(function (index) { return index >= 0; });
    if (columns.length < 8) return;
    var versions = columns.map(function (index) { return headers[index].textContent.trim(); });
    var byAge = versions.slice().sort(function (a, b) {
      var x = a.split(".").map(Number), y = b.split(".").map(Number);
      return x[0] - y[0] || x[1] - y[1];
    });
    var pick = function (label, chosen) {
      var select = document.createElement("select");
      select.setAttribute("aria-label", label);
      byAge.forEach(function (v) { select.appendChild(new Option(v, v, false, v === chosen)); });
      return select;
    };
    var from = pick("Releases from", byAge[0]);
    var to = pick("Releases up to", byAge[byAge.length - 1]);
    var wrap = document.createElement("span");
    wrap.className = "atlas-table-releases";
    wrap.append("Releases ", from, " to ", to);
    controls.appendChild(wrap);
    var show = function () {
      var low = byAge.indexOf(from.value), high = byAge.indexOf(to.value);
      if (low > high) { var swap = low; low = high; high = swap; }
      columns.forEach(function (index, position) {
        var rank = byAge.indexOf(versions[position]);
        var hidden = rank < low || rank > high;
        Array.prototype.forEach.call(table.rows, function (row) {
          if (row.cells[index]) row.cells[index].hidden = hidden;
        });
      });
    };
    from.addEventListener("change", show);
    to.addEventListener("change", show);
  }

  function setupTable(wrapper) {
    if (wrapper.dataset.ready) return;
    var table = wrapper.querySelector("table");
    if (!table || !table.tHead) return;
    wrapper.dataset.ready = "1";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);

    var controls = document.createElement("div");
    controls.className = "atlas-table-controls";
    var search = document.createElement("input");
    search.type = "search";
    search.placeholder = "Filter rows…";
    search.setAttribute("aria-label", "Filter the table rows by text");
    controls.appendChild(search);

    var facets = (wrapper.dataset.facets || "").split(",").filter(Boolean);
    var selects = facets.map(function (name) {
      // A facet is a column whose first word is a category (an area, a status).
      var index = headers.findIndex(function (th) { return th.textContent.trim() === name; });
      var values = {};
      rows.forEach(function (row) { values[cellText(row, index).split(" ")[0]] = true; });
      var select = document.createElement("select");
      select.setAttribute("aria-label", "Filter by " + name);
      var plural = { area: "areas", status: "statuses" }[name.toLowerCase()] || name.toLowerCase();
      select.appendChild(new Option("All " + plural, ""));
      Object.keys(values).filter(Boolean).sort().forEach(function (v) {
        select.appendChild(new Option(v, v));  // text, never markup
      });
      controls.appendChild(select);
      return { select: select, index: index, name: name };
    });
    chooseReleaseColumns(table, headers, controls);
    var count = document.createElement("span");
    count.className = "atlas-table-count";
    count.setAttribute("role", "status");
    controls.appendChild(count);
    wrapper.insertBefore(controls, wrapper.firstChild);

    function applyFilter() {
      var text = search.value.toLowerCase();
      var shown = 0;
      rows.forEach(function (row) {
        var ok = !text || row.textContent.toLowerCase().indexOf(text) >= 0;
        selects.forEach(function (f) {
          if (f.select.value && cellText(row, f.index).split(" ")[0] !== f.select.value) ok = false;
        });
        row.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + " of " + rows.length + " rows";
    }
    search.addEventListener("input", applyFilter);
    selects.forEach(function (f) { f.select.addEventListener("change", applyFilter); });
    applyFilter();

    headers.forEach(function (th, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "atlas-sort";
      button.innerHTML = th.innerHTML;
      button.title = "Sort by this column";
      th.innerHTML = "";
      th.appendChild(button);
      th.setAttribute("aria-sort", "none");
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (other) { other.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        rows.sort(function (a, b) {
          var d = compareValues(cellText(a, index), cellText(b, index));
          return ascending ? d : -d;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  }

  /* A copy button: `text()` gives what to copy when clicked; the label says "Copied" for a moment.
     Without clipboard access (file://, old browsers) the text is offered in a prompt instead. */
  function copyButton(label, accessibleName, what, text) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "atlas-copy";
    button.textContent = label;
    // The accessible name starts with the visible text (WCAG 2.5.3), then says what is copied.
    button.setAttribute("aria-label", accessibleName);
    button.addEventListener("click", function () {
      var value = text();
      var done = function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = label; }, 1500);
      };
      var ask = function () { window.prompt("Copy this " + what + ":", value); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(value).then(done, ask);
      } else {
        ask();
      }
    });
    return button;
  }

  /* A "copy link" control on every item heading: copies the item's full permanent URL. */
  function setupCopyLinks(root) {
    var links = root.querySelectorAll(".md-content h3[id] > a.headerlink, .md-content h4[id] > a.headerlink");
    Array.prototype.forEach.call(links, function (anchor) {
      var heading = anchor.parentNode;
      if (heading.querySelector(".atlas-copy")) return;
      heading.appendChild(copyButton("Copy link", "Copy link to " + heading.id, "link", function () {
        // The permanent URL: no query string (a search leaves ?h=... behind) and no old fragment.
        return window.location.href.split(/[?#]/)[0] + "#" + heading.id;
      }));
    });
  }

  /* A copy button beside each install command of a release page's install table. */
  function setupInstallCopy(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".atlas-install td code"), function (code) {
      if (code.parentNode.querySelector(".atlas-copy")) return;
      code.parentNode.appendChild(copyButton("Copy", "Copy: " + code.textContent, "command", function () {
        return code.textContent;
      }));
    });
  }

  /* The personal guide: ?variant=&python=&gpu=&os= narrow an upgrade guide to one setup. Rows
     carry data-variants/os/python/gpu (from the data's applies_to); a row without them concerns
     everyone. Nothing is hidden without JavaScript, and the address keeps the choice. */
  var Env = typeof window === "undefined" ? null : window.AtlasEnv;  // Node's tests load no atlas-env.js

  /* The setup's fields (query parameters) and the vocabulary the rules below use (variant
     families, operating systems) come from the page's facts, written by the build from the data's
     vocabulary (query/env_facts.py); a page without them has no setup controls. */
  var SETUP_FIELDS = [];
  var FACTS = {};

  function readVocabulary(root) {
    var facts = pageFacts(root);
    if (!facts || !facts.setupFields) return;
    FACTS = facts;
    SETUP_FIELDS = facts.setupFields.map(function (field) { return field.name; });
  }

  function setupField(name, facts) {
    return ((facts || FACTS).setupFields || []).filter(function (field) { return field.name === name; })[0] || {};
  }

  /* cu128 -> cuda, rocm7.1 -> rocm (the families' patterns, from the vocabulary); others stand for themselves. */
  function variantFamily(variant, facts) {
    var families = (facts || FACTS).variantFamilies || [];
    for (var i = 0; i < families.length; i++) {
      if (new RegExp("^(?:" + families[i][1] + ")$").test(variant)) return families[i][0];
    }
    return variant;
  }

  function inFamily(variant, role, facts) {
    var wanted = ((facts || FACTS).variants || {})[role];
    return Boolean(variant && wanted) && variantFamily(variant, facts) === wanted;
  }

  /* NVIDIA's driver tables have a column per system (Linux, Windows); any other reads the first. */
  function driverSystem(os, facts) {
    var systems = (facts || FACTS).driverSystems || [];
    return systems.indexOf(os) >= 0 ? os : systems[0];
  }

  /* The facts the build wrote into the page (query/env_facts.py): GPU models, drivers, releases. */
  function pageFacts(root) {
    var block = root.querySelector("#atlas-facts");
    if (!block) return null;
    if (!block._facts) {
      try { block._facts = JSON.parse(block.textContent); } catch (error) { block._facts = null; }
    }
    return block._facts;
  }

  /* What the setup's status line says once rows are folded. Changes are counted apart from the
     other entries (features, deprecations still ahead), as the answer box counts changes: its
     "68 of the 94 changes reach your setup" and "26 of the 94 changes" folded here agree. */
  function foldedStatus(foldedChanges, changes, foldedOthers, others) {
    var parts = [];
    if (foldedChanges) parts.push(foldedChanges + " of the " + changes + " change" + (changes === 1 ? "" : "s"));
    if (foldedOthers) parts.push(foldedOthers + " of the " + others + " other entr" + (others === 1 ? "y" : "ies"));
    return parts.length ? parts.join(" and ") + " folded away: not for your setup." : "Nothing folded away: every entry concerns your setup.";
  }

  function normalizeGpu(text) {
    var match = String(text || "").trim().match(/^(?:sm_?)?(\d{1,2})\.?(\d)$/i);
    return match ? match[1] + "." + match[2] : "";
  }

  /* The GPU box: a compute capability (sm_70, 7.0) or a model name ("V100", "Tesla V100-SXM2-32GB"),
     read against the page's list of NVIDIA models as a pasted collect_env's GPU names are. */
  function readGpuBox(text, facts) {
    var value = String(text || "").trim();
    var capability = normalizeGpu(value);
    if (!value || capability) return { value: value, capability: capability };
    var model = Env.gpuModel(value, facts || {});
    return model ? { value: value, capability: model.capability, model: model } : { value: value, capability: "" };
  }

  /* The hint beside the GPU box says what the box understood, or that it does not know the name. */
  function describeGpuBox(form, facts) {
    var hint = form.querySelector("#gpu-hint");
    if (!hint) return;
    if (hint.dataset.plain === undefined) hint.dataset.plain = hint.textContent;
    var gpu = readGpuBox(form.elements.gpu.value, facts);
    var unknown = Boolean(gpu.value) && !gpu.capability;
    hint.classList.toggle("atlas-gpu-unknown", unknown);
    if (gpu.model) {
      hint.textContent = gpu.model.name + ": " + (gpu.model.family ? gpu.model.family + ", " : "") +
        "compute capability " + gpu.capability + (gpu.model.arm ? " (an Arm system: the GPU table is about the x86_64 wheels)" : "");
    } else if (unknown) {
      hint.textContent = "“" + gpu.value + "” is not a GPU model this site knows, nor a compute capability: " +
        "enter its compute capability (sm_70 or 7.0; nvidia-smi --query-gpu=compute_cap --format=csv prints it).";
    } else {
      hint.textContent = hint.dataset.plain;
    }
  }

  /* A row's variants (or families: cuda, rocm) name the chosen wheel. */
  function variantMatches(values, mine, facts) {
    var family = variantFamily(mine, facts);
    return values.some(function (value) { return value === mine || value === family; });
  }

  /* A row concerns the setup unless one of its applies_to lists leaves the chosen value out. */
  function appliesTo(row, setup, facts) {
    return ((facts || FACTS).setupFields || []).every(function (field) {
      var raw = row.getAttribute("data-" + field.appliesTo);
      var mine = setup[field.name];
      if (!raw || !mine) return true;
      var values = raw.split(" ");
      return field.match === "family" ? variantMatches(values, mine, facts) : values.indexOf(mine) >= 0;
    });
  }

  /* With a setup chosen, each table of changes lists first the rows written for that setup
     (their applies_to names it), then by how hard they hit: data-impact is the effect's rank in
     the data's vocabulary. Without a setup, the page's own order comes back. */
  function orderByImpact(root, rows, setup) {
    var chosen = SETUP_FIELDS.some(function (name) { return setup[name]; });
    var named = function (row) {
      return SETUP_FIELDS.some(function (name) {
        var attribute = "data-" + setupField(name).appliesTo;
        return setup[name] && row.hasAttribute(attribute);
      }) ? 0 : 1;
    };
    Array.prototype.forEach.call(root.querySelectorAll(".md-content table.atlas-guide tbody"), function (body) {
      var own = rows.filter(function (row) { return row.parentNode === body; });
      var wanted = own.slice().sort(function (a, b) {
        if (!chosen) return rows.indexOf(a) - rows.indexOf(b);
        return (named(a) - named(b)) || (Number(a.dataset.impact) - Number(b.dataset.impact)) ||
          (rows.indexOf(a) - rows.indexOf(b));
      });
      // Moving rows makes the browser restyle the table: only when the order really changes.
      var current = Array.prototype.slice.call(body.rows);
      if (wanted.every(function (row, index) { return current[index] === row; })) return;
      wanted.forEach(function (row) { body.appendChild(row); });
    });
  }

  /* The reading of the last paste, while the controls still hold what it gave. */
  function pastedReading(root, setup) {
    var form = root.querySelector("form#your-setup");
    var reading = form && form._reading;
    if (!reading) return null;
    var same = SETUP_FIELDS.every(function (name) { return (reading.setup[name] || "") === setup[name]; });
    return same ? reading : null;
  }

  /* cu128 -> 12.8: the CUDA version of each wheel variant the data has (query/env_facts.py). */
  function cudaOf(variant, facts) {
    return ((facts || FACTS).cudaVersions || {})[variant] || "";
  }

  /* The CUDA wheels of the GPU table that run this GPU (query/gpu.py decided each cell). */
  function wheelsRunning(root, capability) {
    var row = capability && root.querySelector('.atlas-gpus tr[data-gpu="' + capability + '"]');
    if (!row) return null;
    return Array.prototype.slice.call(row.querySelectorAll("td[data-variant]"))
      .filter(function (cell) { return cell.dataset.runs === "yes"; })
      .map(function (cell) { return cell.dataset.variant; });
  }

  /* "Is my driver new enough": for the chosen wheel, and which wheels the driver does run. */
  function answerDriver(root, setup) {
    var gpuAnswer = root.querySelector(".atlas-gpu-answer");
    if (!gpuAnswer) return;
    var answer = root.querySelector(".atlas-driver-answer");
    if (!answer) {
      answer = document.createElement("p");
      answer.className = "atlas-driver-answer";
      answer.setAttribute("role", "status");
      gpuAnswer.insertAdjacentElement("afterend", answer);
    }
    var reading = pastedReading(root, setup);
    var facts = pageFacts(root) || {};
    var driver = reading && reading.found.driver;
    answer.hidden = !driver;
    if (!driver) return;
    var to = root.querySelector("form#your-setup").dataset.to;
    var os = driverSystem(reading.found.os, facts);
    var system = ((facts.os || {}).labels || {})[os] || os;
    var variants = Array.prototype.map.call(root.querySelectorAll(".atlas-gpus thead th"), function (th) { return th.textContent.trim(); })
      .filter(function (v) { return inFamily(v, "cudaFamily", facts); });
    var running = wheelsRunning(root, setup.gpu) || variants;
    var verdicts = {};
    variants.forEach(function (v) { verdicts[v] = Env.driverFor(driver, cudaOf(v, facts), os, facts); });
    var fine = running.filter(function (v) { return verdicts[v].verdict === "yes"; });
    var limited = running.filter(function (v) { return verdicts[v].verdict === "compat"; });
    var text = "Your NVIDIA driver " + driver + " (" + system + "): ";
    var mine = verdicts[setup.variant];
    if (mine && mine.verdict === "yes") {
      text += "new enough for the " + to + " " + setup.variant + " wheel (NVIDIA pairs CUDA " + cudaOf(setup.variant, facts) + " with " + mine.needs + " or newer).";
    } else if (mine && mine.verdict === "compat") {
      text += "older than " + mine.needs + ", the driver NVIDIA pairs with CUDA " + cudaOf(setup.variant, facts) + "; the " + setup.variant +
        " wheel still runs on it under NVIDIA's minor-version compatibility (CUDA " + cudaOf(setup.variant, facts).split(".")[0] +
        " from " + mine.floor + "), with its limits (PTX that needs a newer driver fails).";
    } else if (mine && mine.verdict === "no") {
      text += "too old for the " + to + " " + setup.variant + " wheel, which needs " + (mine.needs || mine.floor) + " or newer.";
    } else if (mine) {
      text += "the data has no " + system + " driver minimum for CUDA " + cudaOf(setup.variant, facts) + ".";
    }
    var which = "the " + to + " wheels" + (setup.gpu ? " that run your GPU" : "") + " (" + running.join(", ") + ")";
    var needs = running.map(function (v) { return v + " needs " + (verdicts[v].needs || verdicts[v].floor || "a driver the data does not give"); });
    text += (text.slice(-1) === " " ? "" : " ") + (fine.length
      ? "Of " + which + ", these run on it: " + fine.join(", ") + "."
      : limited.length
        ? "None of " + which + " is paired with a driver this old; these run on it under minor-version compatibility, with limits: " + limited.join(", ") + "."
        : running.length ? "None of " + which + " runs on this driver: update it (" + needs.join("; ") + ")." : "");
    answer.textContent = text;
  }

  /* "Will my GPU work": the answer is read from the GPU table the page prints (query/gpu.py
     decides each cell), for the chosen wheel, or for every wheel when none is chosen. */
  function answerGpu(root, setup) {
    var answer = root.querySelector(".atlas-gpu-answer");
    if (!answer) return;
    Array.prototype.forEach.call(root.querySelectorAll(".atlas-gpus tr.atlas-yours"), function (row) {
      row.classList.remove("atlas-yours");
    });
    answer.hidden = !setup.gpu;
    if (!setup.gpu) return;
    var to = root.querySelector("form#your-setup").dataset.to;
    var row = root.querySelector('.atlas-gpus tr[data-gpu="' + setup.gpu + '"]');
    if (!row) {
      answer.textContent = "Compute capability " + setup.gpu + " is not in the table below; compare it with the rows.";
      return;
    }
    row.classList.add("atlas-yours");
    var cells = Array.prototype.slice.call(row.querySelectorAll("td[data-variant]"));
    var running = cells.filter(function (cell) { return cell.dataset.runs === "yes"; })
      .map(function (cell) { return cell.dataset.variant; });
    var gpu = row.querySelector("th").textContent.replace(/\s*\(.*\)\s*$/, "");
    var pasted = pastedReading(root, setup);
    if (pasted && pasted.gpu.mixed) gpu = "the oldest of your GPUs, " + pasted.gpu.name + ", " + gpu;
    var mine = cells.filter(function (cell) { return cell.dataset.variant === setup.variant; })[0];
    // When the data lists only the builds it could check, "no wheel" means "none known".
    var caveat = root.querySelector(".atlas-gpu-caveat");
    var unsure = caveat ? " " + caveat.textContent.trim() : "";
    var none = (unsure ? "none of the CUDA wheels of " + to + " we know of does." : "no CUDA wheel of " + to + " does.") + unsure;
    var others = running.length ? "; these do: " + running.join(", ") + "." : "; " + none;
    if (mine && mine.dataset.runs === "yes") {
      answer.textContent = "Yes: the " + to + " " + setup.variant + " wheel runs your GPU (" + gpu + "), with " +
        mine.dataset.via + ".";
    } else if (mine) {
      answer.textContent = "No: the " + to + " " + setup.variant + " wheel does not run your GPU (" + gpu + ")" + others;
    } else if (inFamily(setup.variant, "cudaFamily")) {
      answer.textContent = (unsure ? "The data knows no " + setup.variant + " wheel of " + to : to + " has no " + setup.variant + " wheel") +
        "; for your GPU (" + gpu + ") " +
        (running.length ? "these do: " + running.join(", ") + "." : none);
    } else {
      answer.textContent = running.length
        ? "Your GPU (" + gpu + ") runs on these " + to + " CUDA wheels: " + running.join(", ") + "."
        : unsure ? "For your GPU (" + gpu + "), " + none : "No CUDA wheel of " + to + " runs your GPU (" + gpu + ").";
    }
  }

  /* The plan: "the newest PyTorch that runs this machine" (atlas-env.js planFor, on the tables the
     build publishes as assets/atlas-plan.js from query/planner.py). A paste gives the machine; a
     link that carries the setup and MACHINE_PARAMS gives it again on the next page. */
  var MACHINE_PARAMS = ["driver", "arch", "osv"];
  var currentPlan = null;

  function planTables() {
    return (typeof window !== "undefined" && window.AtlasPlanTables && window.AtlasPlanner) ? window.AtlasPlanTables : null;
  }

  /* atlas-planner.js, loaded with the tables by the pages that read a paste. */
  function Planner() {
    return window.AtlasPlanner;
  }

  function readingPlan(reading, facts) {
    var tables = planTables();
    if (!tables || !reading.found.os) return null;
    var machine = Planner().machineOf(reading.found, facts, tables);
    return { machine: machine, plan: Planner().planFor(machine, tables), tables: tables,
      torch: reading.found.torchFull, build: reading.found.build };
  }

  /* The machine a link carried: the setup's controls and the address's MACHINE_PARAMS. */
  function setupPlan(setup, facts) {
    var tables = planTables();
    var params = new URLSearchParams(window.location.search);
    if (!tables || !setup.os || !MACHINE_PARAMS.some(function (name) { return params.get(name); })) return null;
    var fam = tables.families;
    var family = setup.variant ? variantFamily(setup.variant, facts) : "";
    var accelerator = setup.os === tables.os.mac ? "" : family === fam.rocmFamily ? fam.rocmFamily
      : family === fam.intelGpu ? fam.intelGpu : setup.gpu || params.get("driver") ? fam.cudaFamily : fam.cpuOnly;
    var machine = { os: setup.os, arch: params.get("arch") || "", python: setup.python || "", accelerator: accelerator,
      capabilities: setup.gpu ? [setup.gpu] : [], gpuUnknown: accelerator === fam.cudaFamily && !setup.gpu,
      driver: params.get("driver") || "", osVersion: params.get("osv") || "", amdGpu: false };
    return { machine: machine, plan: Planner().planFor(machine, tables), tables: tables, torch: "", build: "" };
  }

  function machineParams(result) {
    var machine = result && result.machine;
    return machine ? { driver: machine.driver, arch: machine.arch, osv: machine.osVersion } : {};
  }

  /* The plan's sentences at the top: the newest release and its wheel, its command, then why no
     newer release runs and what would unlock more; in a guide, whether its B runs here. */
  function showPlan(root, result, options) {
    var box = root.querySelector(".atlas-plan");
    if (!box) return;
    box.textContent = "";
    box.hidden = !result;
    if (!result) return;
    var sentences = Planner().planSentences(result.plan, result.machine, result.tables, options);
    var list = document.createElement("ul");
    sentences.forEach(function (sentence) {
      if (sentence.kind === "head") {
        var head = document.createElement("p");
        head.className = "atlas-plan-head";
        var strong = document.createElement("strong");
        strong.textContent = sentence.text;
        head.append(strong);
        box.append(head);
      } else if (sentence.kind === "command") {
        var pre = document.createElement("pre");
        pre.className = "atlas-plan-command";
        var code = document.createElement("code");
        code.textContent = sentence.text;
        pre.append(code);
        box.append(pre, copyButton("Copy", "Copy: " + sentence.text, "command", function () { return sentence.text; }));
      } else {
        var item = document.createElement("li");
        item.className = "atlas-plan-" + sentence.kind;
        item.textContent = sentence.text;
        // A target sentence names the newest release that runs, when there is one: its guide is linked.
        if (sentence.kind === "target" && sentence.release && options.from && olderThan(options.from, sentence.release)) {
          var link = document.createElement("a");
          link.href = options.from + "-to-" + sentence.release + ".html" + window.location.search;
          link.textContent = "the " + options.from + " → " + sentence.release + " guide";
          item.append(" Open ", link, ".");
        }
        list.append(item);
      }
    });
    if (list.children.length) box.append(list);
  }

  /* The guide's install box and answer once a plan is known: the command of B's wheel that runs
     the machine, or none and the reason. Returns false when no plan decides. */
  function installFromPlan(root, to, rows, show, notes, facts) {
    if (!currentPlan) return false;
    var step = Planner().planStep(to, currentPlan.machine, currentPlan.tables);
    if (!step) return false;
    var names = facts.variants || {};
    if (!step.wheel) {
      show([]);
      notes.push("No " + to + " wheel runs this machine: " + Planner().planReason(step) + ". The top of the page says which release does.");
      return true;
    }
    var mac = currentPlan.machine.os === (facts.os || {}).mac;
    var wanted = mac ? [names.pypiDefault, names.cpuOnly] : [step.wheel];
    var row = wanted.map(function (variant) {
      return rows.filter(function (r) { return r.dataset.variant === variant; })[0];
    }).filter(Boolean)[0];
    show(row ? [row.dataset.variant] : []);
    if (!row) notes.push("The " + to + " " + step.wheel + " wheel runs this machine; this guide has no command for it.");
    return true;
  }

  /* Links between the index, the guides and the release pages keep the setup and the machine. */
  function carrySetup(root) {
    var params = new URLSearchParams(window.location.search);
    var keep = new URLSearchParams();
    SETUP_FIELDS.concat(MACHINE_PARAMS).forEach(function (name) { if (params.get(name)) keep.set(name, params.get(name)); });
    var query = keep.toString();
    Array.prototype.forEach.call(root.querySelectorAll(".md-content a[href]"), function (link) {
      var href = link.getAttribute("href");
      if (link.dataset.plain === undefined) {
        if (/^[a-z]+:|^\/\/|^#/i.test(href) || !/(^|\/)(upgrade|releases)\/[^/]*\.html|^[0-9.]+-to-[0-9.]+\.html|^index\.html/.test(href)) return;
        link.dataset.plain = href;
      }
      var plain = link.dataset.plain;
      var hash = plain.indexOf("#") >= 0 ? plain.slice(plain.indexOf("#")) : "";
      var base = plain.split("#")[0].split("?")[0];
      link.setAttribute("href", base + (query ? "?" + query : "") + hash);
    });
  }

  /* Section 8 keeps only the command for the chosen wheel (macOS: the PyPI wheel, which has MPS),
     and says when the target has no wheel for the chosen variant or Python. */
  /* A pasted macOS older than the oldest one B's Apple silicon wheels on PyPI install on. */
  function macosTooOld(reading, facts, to) {
    var floor = (facts.appleSiliconMacos || {})[to];
    var version = (reading.found.osName.match(/mac ?os ?x?\s*(\d+(?:\.\d+)?)/i) || [])[1];
    return Boolean(floor && version && reading.found.arch === "arm64" && olderThan(version, floor));
  }

  /* "" when the target has wheels for the chosen Python, else what is missing. */
  function pythonMissing(root, setup) {
    var box = root.querySelector(".md-content .atlas-install[data-pythons]");
    var form = root.querySelector("form#your-setup");
    if (!box || !form || !setup.python) return "";
    var pythons = box.dataset.pythons.split(" ");
    if (pythons.indexOf(setup.python) >= 0) return "";
    return form.dataset.to + " has no wheels for Python " + setup.python + ": move to Python " + pythons.join(", ") + " first.";
  }

  function chooseInstall(root, setup) {
    var box = root.querySelector(".md-content .atlas-install[data-pythons]");
    var answer = root.querySelector(".atlas-install-answer");
    if (!box || !answer) return;
    var to = root.querySelector("form#your-setup").dataset.to;
    var facts = pageFacts(root) || {};
    var reading = pastedReading(root, setup);
    var names = facts.variants || {};
    var mac = (facts.os || {}).mac;
    var want = setup.variant === names.appleGpu || (!setup.variant && setup.os === mac) ? names.pypiDefault : setup.variant;
    var rows = Array.prototype.slice.call(box.querySelectorAll("tr[data-variant]"));
    var show = function (variants) {
      var match = rows.filter(function (row) { return variants.indexOf(row.dataset.variant) >= 0; });
      rows.forEach(function (row) { row.hidden = match.indexOf(row) < 0; });
      return match;
    };
    var notes = [];
    var caveat = root.querySelector(".atlas-gpu-caveat");
    var running = wheelsRunning(root, setup.gpu);
    var driverOk = function (variant) {
      if (!reading || !reading.found.driver) return true;
      var os = driverSystem(reading.found.os, facts);
      return Env.driverFor(reading.found.driver, cudaOf(variant, facts), os, facts).verdict !== "no";
    };
    var intelMac = reading && reading.found.os === mac && reading.found.arch === "x86_64";
    if (installFromPlan(root, to, rows, show, notes, facts)) {
      // The plan decided: B's wheel that runs this machine, or no command and why.
    } else if (intelMac && facts.intelMacLast && olderThan(facts.intelMacLast, to)) {
      // PyPI's last macOS x86_64 wheels are older than B: no command here installs on this Mac.
      show([]);
      notes.push("No " + to + " wheel installs on an Intel Mac: PyPI's last macOS x86_64 wheels are " + facts.intelMacLast + "'s.");
    } else if (reading && reading.found.os === mac && macosTooOld(reading, facts, to)) {
      show([]);
      notes.push("No " + to + " wheel installs on " + reading.found.osName.replace(/\s*\(.*\)$/, "") + ": PyPI's " + to +
        " wheels for Apple silicon need macOS " + facts.appleSiliconMacos[to] + " or newer.");
    } else if (intelMac && show([names.pypiDefault]).length) {
      notes.push("On an Intel Mac, PyPI's wheel is the one that installs (MPS only with an AMD GPU, from macOS 12.3).");
    } else if (running && running.length && (!want || inFamily(want, "cudaFamily", facts) || want === names.pypiDefault) && running.indexOf(want) < 0) {
      // The GPU answer said which wheels run this GPU: the box offers those, never another.
      var usable = running.filter(driverOk);
      var offered = show(usable.length ? usable : running);
      notes.push((want && want !== names.pypiDefault ? "The " + to + " " + want + " wheel does not run your GPU" : "For your GPU") +
        ": the commands shown are for the " + to + " wheels that do" + (usable.length && usable.length < running.length ? " with your driver" : "") +
        " (" + offered.map(function (row) { return row.dataset.variant; }).join(", ") + ").");
    } else {
      var match = rows.filter(function (row) { return row.dataset.variant === want; });
      // A pasted ROCm build this guide offers no choice for still is a ROCm machine.
      var rocmBox = inFamily(want || (reading && reading.found.variant) || "", "rocmFamily", facts);
      if (rocmBox && !match.length) {
        want = want || reading.found.variant;
        // A ROCm machine: the CUDA commands (PyPI's included) are no use to it.
        var rocm = show(rows.filter(function (row) { return inFamily(row.dataset.variant, "rocmFamily", facts) || row.dataset.variant === names.cpuOnly; })
          .map(function (row) { return row.dataset.variant; }));
        notes.push(to + " has no " + want + " wheel: shown are its ROCm wheels" + (rocm.length > 1 ? "" : " (none in the data)") + " and the CPU one.");
      } else {
        rows.forEach(function (row) { row.hidden = match.length > 0 && match.indexOf(row) < 0; });
        if (want && !match.length && want !== names.fromSource) {
          notes.push(caveat && inFamily(want, "cudaFamily", facts)
            ? "The data knows no " + want + " wheel of " + to + ": every command is shown. " + caveat.textContent.trim()
            : to + " has no " + want + " wheel: every command is shown.");
        }
      }
    }
    var missing = currentPlan ? "" : pythonMissing(root, setup);
    // No wheel of the target runs this Python: that comes first, before any command.
    if (missing) notes.unshift(missing + " The commands below are for those.");
    answer.textContent = notes.join(" ");
    answer.hidden = !notes.length;
  }

  /* The answer box at the top of a guide: how many of the changes reach this setup, by effect
     (the change tables' rows carry data-effect; a folded row does not count), and the install
     command of the one wheel the install table kept for it. Without a setup, the page's own
     totals stay. */
  function answerFirst(root, setup) {
    var box = root.querySelector(".atlas-answer");
    if (!box) return;
    var chosen = SETUP_FIELDS.some(function (name) { return setup[name]; });
    var changes = Array.prototype.slice.call(root.querySelectorAll(".md-content table.atlas-changes tbody tr"));
    var counted = changes.filter(function (row) { return !chosen || !row.classList.contains("atlas-not-yours"); });
    var total = box.querySelector(".atlas-answer-total");
    total.textContent = String(counted.length);
    box.querySelector(".atlas-answer-scope").textContent = chosen
      ? "of the " + total.dataset.all + " changes reach your setup"
      : "changes reach code or installs that move from " + root.querySelector("form#your-setup").dataset.from +
        " to " + root.querySelector("form#your-setup").dataset.to;
    Array.prototype.forEach.call(box.querySelectorAll(".atlas-answer-effects li[data-effect]"), function (item) {
      var count = counted.filter(function (row) { return row.dataset.effect === item.dataset.effect; }).length;
      item.querySelector("strong").textContent = String(count);
      item.hidden = count === 0;
    });
    var install = box.querySelector(".atlas-answer-install");
    var rows = Array.prototype.slice.call(root.querySelectorAll(".md-content .atlas-install tr[data-variant]"));
    var kept = rows.filter(function (row) { return !row.hidden; });
    if (kept.length !== 1 && setup.gpu && !currentPlan) {
      // No single wheel kept for the chosen variant: the first wheel the GPU table says runs the GPU.
      var running = Array.prototype.map.call(
        root.querySelectorAll('.atlas-gpus tr[data-gpu="' + setup.gpu + '"] td[data-runs="yes"]'),
        function (cell) { return cell.dataset.variant; });
      kept = rows.filter(function (row) { return running.indexOf(row.dataset.variant) >= 0; }).slice(0, 1);
    }
    install.textContent = "";
    var missing = currentPlan ? "" : pythonMissing(root, setup);
    if (missing) {
      // No command of the target installs on this Python: say so instead of offering one.
      var note = document.createElement("p");
      note.className = "atlas-install-missing";
      note.textContent = missing;
      install.append(note);
      install.hidden = false;
      return;
    }
    install.hidden = !chosen || kept.length !== 1;
    if (install.hidden) return;
    var label = document.createElement("p");
    label.append("Install it (" + kept[0].cells[0].firstChild.textContent.trim() + "):");
    var pre = document.createElement("pre");
    var code = document.createElement("code");
    code.textContent = kept[0].cells[1].textContent.trim();
    pre.append(code);
    install.append(label, pre);
  }

  /* The Done boxes of a guide, kept in this browser per guide (the page's path), with a reset. */
  function setupTicks(root) {
    var boxes = Array.prototype.slice.call(root.querySelectorAll(".md-content table.atlas-guide input[type=checkbox]"));
    var heading = root.querySelector("#checklist");
    if (!boxes.length || !heading || root.querySelector(".atlas-ticks-reset")) return;
    var key = "atlas-ticks:" + window.location.pathname;
    // What this browser kept may be anything another script or version wrote: only a list of
    // strings is read, anything else (null, a number, an object, broken JSON) counts as no ticks.
    var read = function () {
      var saved;
      try { saved = JSON.parse(window.localStorage.getItem(key) || "[]"); } catch (error) { return []; }
      return Array.isArray(saved) ? saved.filter(function (id) { return typeof id === "string"; }) : [];
    };
    var write = function (ids) {
      try {
        if (ids.length) window.localStorage.setItem(key, JSON.stringify(ids));
        else window.localStorage.removeItem(key);
      } catch (error) { /* storage off: ticks last as long as the page */ }
    };
    var saved = read();
    boxes.forEach(function (box) {
      box.checked = saved.indexOf(box.id) >= 0;
      box.addEventListener("change", function () {
        write(boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.id; }));
      });
    });
    var reset = document.createElement("button");
    reset.type = "button";
    reset.className = "atlas-ticks-reset md-button";
    reset.textContent = "Reset ticks";
    reset.addEventListener("click", function () {
      boxes.forEach(function (box) { box.checked = false; });
      write([]);
    });
    var paragraph = heading.nextElementSibling;
    (paragraph || heading).insertAdjacentElement("afterend", reset);
  }

  function hasOption(field, value) {
    return field.tagName !== "SELECT" || Array.prototype.some.call(field.options, function (o) { return o.value === value; });
  }

  function versionKey(version) {
    return version.split(".").map(Number);
  }

  function olderThan(a, b) {
    var x = versionKey(a), y = versionKey(b);
    return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
  }

  /* A pasted collect_env, read (atlas-env.js) and matched with the page's facts: the setup it
     gives, the oldest GPU, and notes for what the controls cannot hold. */
  function readPaste(root, text) {
    var facts = pageFacts(root) || {};
    var found = Env.parseCollectEnv(text, facts);
    var gpu = Env.oldestGpu(found.gpus, facts);
    var setup = { variant: found.variant, os: found.os, python: found.python, gpu: gpu.capability || "" };
    var notes = [];
    if (found.arch === "x86_64" && found.os === (facts.os || {}).mac) notes.push(intelMacNote(facts));
    return { found: found, gpu: gpu, setup: setup, facts: facts, notes: notes.filter(Boolean) };
  }

  function intelMacNote(facts) {
    return facts.intelMacLast
      ? "An Intel Mac: the last PyTorch with macOS x86_64 wheels on PyPI is " + facts.intelMacLast +
        "; no later release installs on this Mac (MPS runs on it only with an AMD GPU, from macOS 12.3)."
      : "";
  }

  /* Where the pasted torch stands against the releases the site covers ("" when inside). */
  function rangeNote(reading) {
    var torch = reading.found.torch;
    var releases = reading.facts.releases || [];
    if (!torch || !releases.length) return "";
    var first = releases[0], last = releases[releases.length - 1];
    var what = "You run PyTorch " + reading.found.torchFull;
    if (olderThan(torch, first)) {
      return what + ", older than " + first + ", the oldest release this site covers: no guide starts at " + torch +
        ". The guides from " + first + " list what changed after " + first + "; what changed between " + torch +
        " and " + first + " is not covered here.";
    }
    if (olderThan(last, torch)) {
      return what + ", newer than " + last + ", the newest release this site covers: there is no guide for it yet.";
    }
    if (reading.found.build === "nightly") return what + ", a nightly build made before " + torch + ".0 was released.";
    return "";
  }

  /* The controls take the whole reading: a new paste replaces the setup, fields it lacks are
     emptied. Returns the values the controls do not offer. */
  function fillSetup(form, setup) {
    var skipped = [];
    SETUP_FIELDS.forEach(function (name) {
      var field = form.elements[name];
      var value = setup[name] || "";
      if (hasOption(field, value)) field.value = value;
      else { field.value = ""; skipped.push(name + " " + value); }
    });
    return skipped;
  }

  /* The list under the paste box: what was read, what was not, and what that means. */
  function showReading(form, reading, extra) {
    var box = form.querySelector(".atlas-env-read");
    if (!box) return;
    box.textContent = "";
    var found = reading.found;
    if (!found.read.length && !found.missing.length) { box.hidden = true; return; }
    var list = function (title, items) {
      if (!items.length) return;
      var heading = document.createElement("p");
      heading.textContent = title;
      var ul = document.createElement("ul");
      items.forEach(function (text) {
        var li = document.createElement("li");
        li.textContent = text;  // text from the paste: never markup
        ul.appendChild(li);
      });
      box.append(heading, ul);
    };
    var gpu = reading.gpu;
    var read = found.read.map(function (entry) {
      if (entry.field !== "gpus" || !gpu.capability) return entry.label;
      return entry.label + " → " + (gpu.family ? gpu.family + " " : "") + gpu.capability +
        (gpu.mixed ? " (the oldest of your GPUs, " + gpu.name + ", decides: a wheel must run it too)" : "");
    });
    list("Read from your output:", read);
    var missing = found.missing.map(function (entry) { return entry.why; });
    if (gpu.unknown.length && found.gpus.length) {
      var amd = gpu.unknown.filter(function (name) { return /AMD|Radeon|Instinct|gfx\d/i.test(name); });
      if (amd.length) missing.push("AMD GPU (" + amd[0] + "): the GPU tables are about NVIDIA's CUDA wheels");
      var other = gpu.unknown.filter(function (name) { return amd.indexOf(name) < 0; });
      if (other.length) missing.push("GPU " + other.join(", ") + ": not in the site's list of NVIDIA models; enter its compute capability above");
    }
    if (gpu.arm) missing.push("GPU " + gpu.name + ": an Arm system (Jetson, Grace); the GPU table is about the x86_64 wheels");
    list("Could not read, or not for this page:", missing.concat(extra || []));
    box.hidden = false;
  }

  /* A paste is read as it arrives (typing, pasting, dropping); the button reads it again. */
  function pasteReader(form, read) {
    var box = form.elements.collect_env;
    var timer = null;
    var before = box.value.length;
    box.addEventListener("input", function () {
      clearTimeout(timer);
      // A paste or a drop arrives whole: read it at once (the answer within 100 ms); typing waits.
      var jump = Math.abs(box.value.length - before) > 80;
      before = box.value.length;
      if (jump) read(); else timer = setTimeout(read, 150);
    });
    form.querySelector("[data-action=read-env]").addEventListener("click", function () {
      clearTimeout(timer);
      read();
    });
  }

  /* The guide index: the setup entered once travels with the chosen guide, and with every link to
     a guide on the page, as the guides' query parameters. */
  function setupIndexSetup(root) {
    var picker = root.querySelector("form#upgrade-picker");
    var fields = picker && picker.querySelector("#your-setup");
    if (!fields || fields.dataset.ready) return;
    fields.dataset.ready = "1";
    var planned = null;
    var query = function () {
      var params = new URLSearchParams();
      SETUP_FIELDS.forEach(function (name) {
        var value = picker.elements[name].value.trim();
        if (value) params.set(name, value);
      });
      var carried = machineParams(planned);
      MACHINE_PARAMS.forEach(function (name) { if (carried[name]) params.set(name, carried[name]); });
      return params.toString();
    };
    var links = Array.prototype.slice.call(root.querySelectorAll('.md-content a[href*="-to-"]'));
    links.forEach(function (link) { link.dataset.base = link.getAttribute("href").split("?")[0]; });
    var update = function () {
      var q = query();
      links.forEach(function (link) { link.setAttribute("href", link.dataset.base + (q ? "?" + q : "")); });
      picker.dataset.query = q;
    };
    picker.addEventListener("change", function (event) { if (event.target.name !== "collect_env") update(); });
    picker.addEventListener("submit", update, true);  // before the picker reads the query
    var message = picker.querySelector(".atlas-picker-message");
    var readEnv = function () {
      var reading = readPaste(root, picker.elements.collect_env.value);
      planned = readingPlan(reading, pageFacts(root) || {});
      showPlan(root, planned, { torch: reading.found.torchFull, build: reading.found.build });
      var skipped = fillSetup(picker, reading.setup).map(function (what) { return what + " is not among the choices"; });
      var torch = reading.found.torch;
      var out = rangeNote(reading);
      if (torch && hasOption(picker.elements.from, torch)) picker.elements.from.value = torch;
      showReading(picker, reading, skipped.concat(reading.notes));
      message.textContent = out;
      update();
    };
    pasteReader(picker, readEnv);
    var facts = pageFacts(root);
    picker.elements.gpu.addEventListener("input", function () { describeGpuBox(picker, facts); });
    update();
  }

  function setupPersonalGuide(root) {
    var form = root.querySelector("form#your-setup");
    if (!form) return;
    var rows = Array.prototype.slice.call(root.querySelectorAll(".md-content table.atlas-guide tbody tr"));
    var status = form.querySelector(".atlas-setup-status");

    var facts = pageFacts(root);
    var fold = form.querySelector("details.atlas-setup-fold");
    var summary = fold && fold.querySelector(".atlas-setup-summary");
    if (summary) summary.dataset.plain = summary.textContent;

    function current() {
      var setup = {};
      SETUP_FIELDS.forEach(function (name) {
        var value = form.elements[name].value.trim();
        setup[name] = setupField(name).match === "capability" ? readGpuBox(value, facts).capability : value;
      });
      return setup;
    }

    /* The folded setup's one line: what is chosen, as the controls name it. */
    function summarize(setup) {
      if (!summary) return;
      var parts = SETUP_FIELDS.filter(function (name) { return setup[name]; }).map(function (name) {
        var field = form.elements[name];
        if (setupField(name).match === "capability") {
          var gpu = readGpuBox(field.value, facts);
          return "GPU " + (gpu.model ? gpu.model.name + " (" + gpu.capability + ")" : gpu.capability);
        }
        var label = field.selectedOptions && field.selectedOptions[0] ? field.selectedOptions[0].textContent : setup[name];
        return name === "python" ? "Python " + label : label;
      });
      summary.textContent = parts.length ? ": " + parts.join(" · ") : summary.dataset.plain;
    }

    function apply(message) {
      var setup = current();
      var tally = { changes: 0, foldedChanges: 0, others: 0, foldedOthers: 0 };
      rows.forEach(function (row) {
        var mine = appliesTo(row, setup);
        row.hidden = !mine;
        row.classList.toggle("atlas-not-yours", !mine);
        var change = Boolean(row.closest("table.atlas-changes"));
        tally[change ? "changes" : "others"] += 1;
        if (!mine) tally[change ? "foldedChanges" : "foldedOthers"] += 1;
      });
      orderByImpact(root, rows, setup);
      var pasted = pastedReading(root, setup);
      currentPlan = pasted ? pasted.planned : setupPlan(setup, facts);
      showPlan(root, currentPlan, { to: form.dataset.to, from: form.dataset.from,
        torch: currentPlan ? currentPlan.torch : "", build: currentPlan ? currentPlan.build : "" });
      describeGpuBox(form, facts);
      summarize(setup);
      answerGpu(root, setup);
      answerDriver(root, setup);
      chooseInstall(root, setup);
      answerFirst(root, setup);
      Array.prototype.forEach.call(root.querySelectorAll(".md-content table.atlas-guide"), function (table) {
        var hidden = table.querySelectorAll("tr.atlas-not-yours").length;
        var next = table.nextElementSibling;  // several tables share a parent: the toggle sits right after its own
        var toggle = next && next.classList.contains("atlas-show-others") ? next : null;
        // A table whose every row is folded would show its heading row alone: fold it whole.
        var allFolded = hidden > 0 && hidden === table.tBodies[0].rows.length;
        table.hidden = allFolded;
        if (!hidden) { if (toggle) toggle.remove(); return; }
        if (!toggle) {
          toggle = document.createElement("button");
          toggle.type = "button";
          toggle.className = "atlas-show-others md-button";
          toggle.addEventListener("click", function () {
            var showing = toggle.getAttribute("aria-expanded") === "true";
            Array.prototype.forEach.call(table.querySelectorAll("tr.atlas-not-yours"), function (row) { row.hidden = showing; });
            if (table.querySelectorAll("tr.atlas-not-yours").length === table.tBodies[0].rows.length) table.hidden = showing;
            toggle.setAttribute("aria-expanded", String(!showing));
            toggle.textContent = (showing ? "Show " : "Hide ") + toggle.dataset.count + " not for your setup";
          });
          table.parentNode.insertBefore(toggle, table.nextSibling);
        }
        toggle.dataset.count = String(hidden);
        toggle.setAttribute("aria-expanded", "false");
        toggle.textContent = "Show " + hidden + " not for your setup";
      });
      var params = new URLSearchParams(window.location.search);
      SETUP_FIELDS.forEach(function (name) {
        var value = form.elements[name].value.trim();
        if (value) params.set(name, value); else params.delete(name);
      });
      if (pasted) {
        var carried = machineParams(currentPlan);
        MACHINE_PARAMS.forEach(function (name) {
          if (carried[name]) params.set(name, carried[name]); else params.delete(name);
        });
      }
      var query = params.toString();
      history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
      carrySetup(root);
      var chosen = SETUP_FIELDS.filter(function (name) { return setup[name]; });
      status.textContent = (message ? message + " " : "") + (chosen.length
        ? foldedStatus(tally.foldedChanges, tally.changes, tally.foldedOthers, tally.others)
        : "Showing every entry: choose your setup to narrow the guide.");
    }

    var params = new URLSearchParams(window.location.search);
    SETUP_FIELDS.forEach(function (name) {
      var value = params.get(name);
      if (value === null) return;
      var field = form.elements[name];
      if (!hasOption(field, value)) return;
      field.value = value;
    });
    // Chosen in the address (a shared link, the guide index): the setup folds to one line.
    if (fold && SETUP_FIELDS.some(function (name) { return form.elements[name].value; })) fold.open = false;
    form.elements.gpu.addEventListener("input", function () { describeGpuBox(form, facts); });
    form.addEventListener("change", function (event) { if (event.target.name !== "collect_env") apply(); });
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    var reads = 0;
    function readEnv() {
      var reading = readPaste(root, form.elements.collect_env.value);
      reading.planned = readingPlan(reading, facts || {});
      form._reading = reading;  // the driver answer, the plan and the install box read it
      // The answer first: the plan is shown now, and the rest of the page (folding, ordering and
      // counting the rows, the other answers) once the browser has painted it.
      currentPlan = reading.planned;
      showPlan(root, currentPlan, { to: form.dataset.to, from: form.dataset.from,
        torch: reading.found.torchFull, build: reading.found.build });
      var mine = ++reads;
      var done = false;
      var rest = function () {
        if (done || mine !== reads) return;
        done = true;
        finishReading(reading);
      };
      window.requestAnimationFrame(function () { setTimeout(rest, 0); });
      setTimeout(rest, 60);  // a tab in the background gets no frames
    }
    function finishReading(reading) {
      var skipped = fillSetup(form, reading.setup).map(function (what) { return what + " is not among this guide's choices"; });
      reading.setup = current();  // what the controls took: the reading holds while they do
      showReading(form, reading, skipped.concat(reading.notes));
      apply("");
      var found = reading.found;
      var out = rangeNote(reading);
      if (out) { status.append(" " + out); return; }
      var versions = form.dataset.versions.split(" ");
      if (found.torch && found.torch !== form.dataset.from) {
        var to = form.dataset.to;
        var later = versions.indexOf(found.torch) >= 0 && versions.indexOf(found.torch) < versions.indexOf(to);
        status.append(" You run PyTorch " + found.torch + ", but this guide starts at " + form.dataset.from + (later ? "; open " : "."));
        if (later) {
          var link = document.createElement("a");
          link.href = found.torch + "-to-" + to + ".html" + window.location.search;
          link.textContent = "the " + found.torch + " → " + to + " guide";
          status.append(link, ".");
        }
      }
    }
    pasteReader(form, readEnv);
    form.hidden = false;
    apply();
  }

  /* The light/dark toggle (Material's palette component is not mounted: see
   * overrides/partials/palette.html). The switch itself is `__atlasPalette.apply`, defined by the
   * inline script in the header; transitions are paused while colours change, as Material does. */
  function setupPalette(root) {
    var form = root.querySelector("form[data-atlas-palette]");
    var palette = window.__atlasPalette;
    if (!form || !palette || form.dataset.ready) return;
    form.dataset.ready = "1";
    var inputs = Array.prototype.slice.call(palette.inputs);
    function choose(index) {
      document.body.setAttribute("data-md-color-switching", "");
      palette.apply(index, true);
      setTimeout(function () { document.body.removeAttribute("data-md-color-switching"); });
    }
    inputs.forEach(function (input, index) {
      input.addEventListener("change", function () { if (input.checked) choose(index); });
    });
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      var next = inputs[(inputs.findIndex(function (input) { return input.checked; }) + 1) % inputs.length];
      next.click();
      next.focus();
    });
  }

  /* The 404 page (overrides/404.html): the words of the address that was not found, as a search.
   * `pathname` and `hash` as the browser has them, `root` the site's path ("/atlas"). Versions keep
   * their dots ("releases/2.16.html" -> "releases 2.16"); a guide's "2.9-to-2.16" gives both
   * releases; the parts every address has ("html", "index") and stray characters are dropped. */
  function missingPageQuery(pathname, hash, root) {
    var path = pathname;
    try { path = decodeURIComponent(pathname); } catch (error) { /* a malformed % escape: keep it raw */ }
    var base = (root || "").replace(/\/+$/, "");
    if (base && path.indexOf(base + "/") === 0) path = path.slice(base.length);
    var text = path + " " + (hash || "").replace(/^#/, "");
    var words = text.split(/[\s/_\-#?&=+]+|\.(?!\d)/).filter(function (word) {
      return word && !/^(html?|md|index)$/i.test(word) && /[a-z0-9]/i.test(word);
    });
    var seen = {};
    return words.filter(function (word) {
      var key = word.toLowerCase();
      if (seen[key]) return false;
      seen[key] = true;
      return true;
    }).join(" ").slice(0, 120);
  }

  function setupNotFound(root) {
    var form = root.querySelector("form[data-atlas-not-found]");
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    var input = form.querySelector("input[name=q]");
    if (!input.value) input.value = missingPageQuery(window.location.pathname, window.location.hash, form.dataset.siteRoot);
  }

  /* Each step runs by itself: one that throws (a browser without some API, a page the step did
     not expect) is reported in the console and the others still run. */
  function step(run, target) {
    try { run(target); } catch (error) { window.console.error("atlas.js: " + (run.name || "setup") + " failed:", error); }
  }

  function setup() {
    step(readVocabulary, document);
    step(setupPalette, document);
    step(setupPersonalGuide, document);
    step(setupTicks, document);
    step(setupIndexSetup, document);
    step(setupUpgradePicker, document);
    step(setupCopyLinks, document);
    step(setupNotFound, document);
    step(setupInstallCopy, document);
    if (!document.querySelector("form#your-setup, form#upgrade-picker")) step(carrySetup, document);
    Array.prototype.forEach.call(document.querySelectorAll(".atlas-table"), function (table) { step(setupTable, table); });
  }

  /* Node's unit tests (tests/js/atlas_rules.test.js) load the pure rules; a browser never gets here. */
  if (typeof module === "object" && module.exports) {
    module.exports = { compareValues: compareValues, normalizeGpu: normalizeGpu, variantFamily: variantFamily,
      variantMatches: variantMatches, appliesTo: appliesTo, driverSystem: driverSystem, cudaOf: cudaOf,
      olderThan: olderThan, macosTooOld: macosTooOld, foldedStatus: foldedStatus,
      missingPageQuery: missingPageQuery };
    return;
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
