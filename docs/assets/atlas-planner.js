/* PyTorch Release Atlas: the plan, "the newest PyTorch that runs this machine".
 *
 * Pure functions, no DOM and no network: the lookups of macros/query/planner.py (`evaluate`,
 * `plan`) on the tables the build publishes as assets/atlas-plan.js (`plan_tables`: the rules,
 * GPU code included, were applied there; here they are only read), and the sentences of
 * macros/render/doctor.py. Loaded, with the tables, only by the pages that read a paste (the
 * guide index and the guides, macros/templates/setup.j2); it reads collect_env through
 * atlas-env.js (window.AtlasEnv, or `useEnv` in Node). tests/js/plan.test.js requires it to give
 * what `python -m macros doctor` gives on every output of the corpus.
 *
 *   machineOf(found, facts, tables) -> {os, arch, python, accelerator, capabilities, gpuUnknown, driver, osVersion, amdGpu}
 *   planFor(machine, tables)        -> {newest, wheel, partial, command, blocked, unlocks, steps}
 *   planSentences(plan, machine, tables, {to, torch, build}) -> [{kind, text}]
 *   planStep(version, machine, tables) -> the release's step: {wheel} or {blocker, detail}
 */
(function (root) {
  "use strict";

  var Env = null;
  function env() { return Env || root.AtlasEnv; }

  var AMD = /AMD|Radeon|Instinct|gfx\d/i;

  /* What the plan needs of a reading (collect_env.py `machine_of`). */
  function machineOf(found, facts, tables) {
    var fam = tables.families, os = tables.os;
    var nvidia = found.gpus.filter(function (name) { return !AMD.test(name); });
    var amd = found.gpus.filter(function (name) { return AMD.test(name); });
    var models = nvidia.map(function (name) { return env().gpuModel(name, facts); });
    var seen = {};
    models.forEach(function (model) { if (model) seen[model.capability] = true; });
    var capabilities = Object.keys(seen).sort(function (a, b) { return env().capabilityKey(a) - env().capabilityKey(b); });
    var unknown = models.some(function (model) { return !model; });
    var variant = found.variant;
    var accelerator = "";
    if (found.os === os.mac) accelerator = "";
    // A source build names the toolkit it was built with, not a GPU it saw: only a wheel's name counts.
    else if ((variant.indexOf(fam.rocmFamily) === 0 && found.build !== "source") || amd.length || (found.hip && !nvidia.length)) accelerator = fam.rocmFamily;
    else if (variant === fam.intelGpu) accelerator = fam.intelGpu;
    else if (capabilities.length || (nvidia.length && found.driver) || (/^cu\d/.test(variant) && (found.driver || found.cudaAvailable === true))) accelerator = fam.cudaFamily;
    else if (found.os) accelerator = fam.cpuOnly;
    return { os: found.os, arch: found.arch, python: found.python, accelerator: accelerator, capabilities: capabilities,
      gpuUnknown: unknown || (accelerator === fam.cudaFamily && !capabilities.length), driver: found.driver,
      osVersion: found.os === os.mac ? found.macos : found.os === os.lin ? found.glibc : "",
      amdGpu: amd.length > 0 && found.os === os.mac, gpuUnread: !found.gpuLine && found.os !== os.mac };
  }

  function copy(machine, changes) {
    var out = {};
    Object.keys(machine).forEach(function (key) { out[key] = machine[key]; });
    Object.keys(changes).forEach(function (key) { out[key] = changes[key]; });
    return out;
  }

  function releaseKey(version) {
    return String(version).split(".").filter(function (part) { return /^\d+$/.test(part); }).map(Number);
  }

  function compareKeys(a, b) {
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      var d = (a[i] || 0) - (b[i] || 0);
      if (d) return d;
    }
    return 0;
  }

  /* planner.py `driver_verdict`: [verdict, the driver it names]. */
  function driverVerdict(driver, cuda, os, tables) {
    var systems = tables.driverSystems;
    var system = systems.indexOf(os) >= 0 ? os : systems[0];
    var needs = (tables.drivers[cuda] || {})[system] || "";
    var floor = (tables.driverFloors[cuda.split(".")[0]] || {})[system] || "";
    if (!driver || !(needs || floor)) return ["unknown", ""];
    if (needs && env().atLeast(driver, needs)) return ["yes", needs];
    if (floor && env().atLeast(driver, floor)) return ["compat", floor];
    return ["no", floor || needs];
  }

  var RANK = { yes: 3, compat: 2, unknown: 1 };

  function oldest(capabilities) {
    return capabilities.length ? capabilities.slice().sort(function (a, b) { return env().capabilityKey(a) - env().capabilityKey(b); })[0] : "";
  }

  /* planner.py `evaluate`: one release against the machine. */
  function evaluate(release, machine, tables) {
    var fam = tables.families, os = tables.os, labels = tables.platformLabels;
    var step = { release: release.version, patch: release.patch, wheel: "", blocker: "", detail: {}, partial: [] };
    var key, partial;
    if (!machine.arch && machine.os === os.mac) { key = os.mac + "-arm64"; partial = ["arch-assumed"]; }
    else if (!machine.arch) { key = machine.os + "-x86_64"; partial = ["arch-assumed"]; }
    else { key = machine.os + "-" + machine.arch; partial = []; }
    var stop = function (blocker, detail) { step.blocker = blocker; step.detail = detail; step.partial = partial; return step; };
    var run = function (wheel, detail) { step.wheel = wheel; step.detail = detail || {}; step.partial = partial; return step; };
    var platforms = release.platforms;
    if (!Object.prototype.hasOwnProperty.call(platforms, key)) {
      partial = [];
      return stop(key === os.mac + "-x86_64" ? "intel-mac" : "no-wheel", { where: labels[key] || key });
    }
    if (!machine.python) partial.push("python-unknown");
    else if (release.pythons.indexOf(machine.python) < 0) { partial = []; return stop("python-range", { have: machine.python, range: release.pythons }); }
    var floor = platforms[key];
    if (floor && (machine.os === os.lin || machine.os === os.mac)) {
      if (!machine.osVersion) partial.push("os-version-unknown");
      else if (!env().atLeast(machine.osVersion, floor)) {
        partial = [];
        return stop(machine.os === os.lin ? "glibc-floor" : "macos-floor", { floor: floor, have: machine.osVersion });
      }
    }
    if (machine.os === os.mac) {
      var gpu = key === os.mac + "-arm64" || machine.amdGpu;
      if (gpu && release.mpsFrom === null) { partial.push("mps-unknown"); return run(fam.appleGpu); }
      var onMps = gpu && Boolean(machine.osVersion) && env().atLeast(machine.osVersion, release.mpsFrom);
      return run(onMps ? fam.appleGpu : fam.cpuOnly);
    }
    if (machine.accelerator === fam.cudaFamily) {
      if (key === os.lin + "-aarch64") partial.push("cuda-aarch64");
      if (key === os.win + "-x86_64") partial.push("cuda-windows");
      if (release.cudaPartial) partial.push("cuda-builds");
      if (machine.gpuUnknown || !machine.capabilities.length) partial.push("gpu-unknown");
      var running = release.cudaBuilds.filter(function (build) {
        return machine.capabilities.every(function (capability) { return Object.prototype.hasOwnProperty.call(build.runs, capability); });
      });
      if (!running.length) {
        return stop("gpu-code", { capability: oldest(machine.capabilities), wheels: release.cudaBuilds.map(function (b) { return b.variant; }) });
      }
      var verdicts = running.map(function (build) { return [build].concat(driverVerdict(machine.driver, build.cudaVersion, machine.os, tables)); });
      var usable = verdicts.filter(function (entry) { return entry[1] !== "no"; });
      if (!usable.length) {
        var lowest = verdicts.slice().sort(function (a, b) { return compareKeys(releaseKey(a[2]), releaseKey(b[2])); })[0];
        return stop("driver-floor", { driver: machine.driver, needs: lowest[2], wheel: lowest[0].variant });
      }
      var best = usable.slice().sort(function (a, b) {
        return (RANK[b[1]] - RANK[a[1]]) || compareKeys(releaseKey(b[0].cudaVersion), releaseKey(a[0].cudaVersion));
      })[0];
      if (best[1] === "unknown") partial.push("driver-unknown");
      return run(best[0].variant, { driver: best[1], needs: best[2], code: best[0].runs[oldest(machine.capabilities)] || "" });
    }
    if (machine.accelerator === fam.rocmFamily || machine.accelerator === fam.intelGpu) {
      var family = machine.accelerator;
      var offered = family === fam.rocmFamily ? release.rocmWheels : release.xpuWheels;
      if (key !== os.lin + "-x86_64" && !(family === fam.intelGpu && key === os.win + "-x86_64")) {
        return stop("no-" + family, { known: true, where: labels[key] });
      }
      if (offered === null) return stop("no-" + family, { known: false });
      if (!offered || (Array.isArray(offered) && !offered.length)) return stop("no-" + family, { known: true });
      return run(family === fam.rocmFamily ? offered[offered.length - 1] : fam.intelGpu);
    }
    return run(fam.cpuOnly);
  }

  function walk(machine, tables) {
    var blocked = [];
    for (var i = tables.releases.length - 1; i >= 0; i--) {
      var step = evaluate(tables.releases[i], machine, tables);
      if (step.wheel) return { newest: step, blocked: blocked.reverse() };
      blocked.push(step);
    }
    return { newest: null, blocked: blocked.reverse() };
  }

  function releaseOf(version, tables) {
    return tables.releases.filter(function (release) { return release.version === version; })[0];
  }

  function installCommand(step, machine, tables) {
    var release = releaseOf(step.release, tables);
    if (machine.os === tables.os.mac) return "pip install " + release.packages;
    return "pip install " + release.packages + " --index-url " + tables.index + "/" + step.wheel;
  }

  function regular(pythons) {
    return pythons.filter(function (p) { return !/t$/.test(p); });
  }

  function driverNeeded(release, machine, tables) {
    var needs = [];
    release.cudaBuilds.forEach(function (build) {
      var all = machine.capabilities.every(function (capability) { return Object.prototype.hasOwnProperty.call(build.runs, capability); });
      if (!all) return;
      var verdict = driverVerdict("0", build.cudaVersion, machine.os, tables);
      if (verdict[0] === "no" && verdict[1]) needs.push(verdict[1]);
    });
    needs.sort(function (a, b) { return compareKeys(releaseKey(a), releaseKey(b)); });
    return needs[0] || "";
  }

  /* planner.py `plan` and `Plan.as_json`: the answer, and the steps its sentences name. */
  function planFor(machine, tables) {
    var found = walk(machine, tables);
    var newest = found.newest;
    var unlocks = [];
    var kinds = [["newer-driver", "driver", { driver: "" }], ["python-range", "python", { python: "" }],
      [machine.os === tables.os.mac ? "macos-floor" : "glibc-floor", "osVersion", { osVersion: "" }]];
    kinds.forEach(function (entry) {
      if (!machine[entry[1]]) return;
      var better = walk(copy(machine, entry[2]), tables).newest;
      if (!better || (newest && compareKeys(releaseKey(better.patch), releaseKey(newest.patch)) <= 0)) return;
      var release = releaseOf(better.release, tables);
      var value;
      if (entry[0] === "newer-driver") value = driverNeeded(release, machine, tables);
      else if (entry[0] === "python-range") value = release.pythons[0] + "–" + regular(release.pythons).slice(-1)[0];
      else {
        var key = machine.arch ? machine.os + "-" + machine.arch : machine.os === tables.os.mac ? tables.os.mac + "-arm64" : machine.os + "-x86_64";
        value = release.platforms[key];
      }
      if (value) unlocks.push({ kind: entry[0], value: value, release: better.patch });
    });
    return {
      newest: newest ? newest.patch : null,
      wheel: newest ? newest.wheel : null,
      partial: newest ? newest.partial : [],
      command: newest ? installCommand(newest, machine, tables) : "",
      blocked: found.blocked.map(function (step) { return { release: step.release, blocker: step.blocker, partial: step.partial }; }),
      unlocks: unlocks,
      steps: { newest: newest, blocked: found.blocked }
    };
  }

  /* render/doctor.py `reason`. */
  function reason(step) {
    var d = step.detail;
    switch (step.blocker) {
      case "no-wheel": return "PyPI has no " + d.where + " wheel of it";
      case "intel-mac": return "it has no wheel for an Intel Mac (macOS x86_64)";
      case "python-range":
        var pythons = regular(d.range);
        return "it has no wheel for Python " + d.have + " (only " + pythons[0] + " to " + pythons[pythons.length - 1] + ")";
      case "glibc-floor": return "its Linux wheels need glibc " + d.floor + " or newer (this machine has " + d.have + ")";
      case "macos-floor": return "its macOS wheels need macOS " + d.floor + " or newer (this Mac has " + d.have + ")";
      case "gpu-code":
        var known = step.partial.indexOf("cuda-builds") >= 0;
        return "no " + (known ? "CUDA wheel the data knows" : "CUDA wheel") + " (" + d.wheels.join(", ") + ") has code for sm_" +
          d.capability.replace(".", "") + (known ? " (the data knows only some of its CUDA builds)" : "");
      case "no-rocm":
      case "no-xpu":
        var label = step.blocker === "no-rocm" ? "ROCm" : "XPU";
        if (!d.known) return "the data does not know its " + label + " wheels";
        return "it has no " + label + " wheel" + (d.where ? " for " + d.where : "");
      case "driver-floor": return "the NVIDIA driver " + d.driver + " is older than " + d.needs + ", the oldest its " + d.wheel + " wheel runs on";
    }
    return step.blocker;
  }

  /* render/doctor.py `head`. */
  function planHead(plan, tables) {
    var step = plan.steps.newest;
    if (!step) return "No PyTorch release this site covers runs this machine.";
    var text = "The newest PyTorch that runs this machine: " + step.patch + " (wheel " + step.wheel + ").";
    if (step.detail.driver === "compat") {
      text += " Its NVIDIA driver is older than the one NVIDIA pairs with this CUDA build; the wheel runs on it" +
        " under NVIDIA's minor-version compatibility (from " + step.detail.needs + "), with its limits.";
    }
    if (step.partial.length) {
      text += " Known only in part: " + step.partial.map(function (key) { return tables.partial[key]; }).join("; ") + ".";
    }
    return text;
  }

  /* render/doctor.py `sentences`: options.to (a guide's B), options.torch and options.build (the
     torch the paste runs). Returns [{kind, text}]: head, command, already, target, blocked, unlock, note; a
     target sentence also names, as `release`, the newest release that runs ("" when it is not that). */
  function planSentences(plan, machine, tables, options) {
    options = options || {};
    var out = [{ kind: "head", text: planHead(plan, tables) }];
    if (plan.command) out.push({ kind: "command", text: plan.command });
    var to = options.to || "";
    var already = Boolean(options.torch && to && compareKeys(releaseKey(options.torch), releaseKey(to)) >= 0);
    if (already) {
      var kind = options.build === "nightly" ? " (a nightly build)" : options.build === "source" ? " (built from source)" : "";
      out.push({ kind: "already", text: "You already run PyTorch " + options.torch + kind + ": at or past " + to + "." });
    }
    var newest = plan.steps.newest;
    if (to && newest && compareKeys(releaseKey(to), releaseKey(newest.release)) > 0) {
      var stop = plan.steps.blocked.filter(function (step) { return step.release === to; })[0];
      if (stop) {
        out.push({ kind: "target", release: newest.release, text: to + " does not run this machine: " + reason(stop) +
          ". The newest release that does is " + newest.release + "." });
      }
    } else if (to && !already && (!newest || to !== newest.release)) {
      /* B older than the newest that runs, or nothing runs: B is answered on its own (render/doctor.py `_target`). */
      var target = releaseOf(to, tables);
      if (target) {
        var own = evaluate(target, machine, tables);
        if (!own.wheel) {
          out.push({ kind: "target", release: newest ? newest.release : "", text: to + " does not run this machine: " + reason(own) + "." });
        } else {
          var runs = to + " runs this machine too: " + own.patch + " (wheel " + own.wheel + ").";
          if (own.partial.length) {
            runs += " Known only in part: " + own.partial.map(function (key) { return tables.partial[key]; }).join("; ") + ".";
          }
          out.push({ kind: "target", release: "", text: runs });
        }
      }
    }
    var groups = [];
    plan.steps.blocked.forEach(function (step) {
      var text = reason(step);
      var last = groups[groups.length - 1];
      if (last && last.text === text) last.last = step.release;
      else groups.push({ first: step.release, last: step.release, text: text });
    });
    groups.forEach(function (group) {
      var span = group.first === group.last ? group.first : group.first + " to " + group.last;
      out.push({ kind: "blocked", text: "Not " + span + ": " + group.text + "." });
    });
    plan.unlocks.forEach(function (unlock) {
      var what = { "newer-driver": "An NVIDIA driver " + unlock.value + " or newer", "python-range": "Python " + unlock.value,
        "macos-floor": "macOS " + unlock.value + " or newer", "glibc-floor": "glibc " + unlock.value + " or newer" }[unlock.kind];
      out.push({ kind: "unlock", text: what + " would run " + unlock.release + "." });
    });
    if (newest && newest.wheel === tables.families.cpuOnly && machine.os === tables.os.mac && machine.arch !== "x86_64" && machine.osVersion) {
      out.push({ kind: "note", text: "MPS needs macOS " + releaseOf(newest.release, tables).mpsFrom + " or newer in " + newest.release + ": on this Mac it runs on the CPU." });
    }
    if (newest && newest.wheel === tables.families.cpuOnly && machine.os === tables.os.mac && machine.arch === "x86_64") {
      out.push({ kind: "note", text: "On an Intel Mac with an AMD GPU this wheel also runs MPS, from macOS " + releaseOf(newest.release, tables).mpsFrom + "." });
    }
    if (machine.accelerator === tables.families.cudaFamily && !machine.capabilities.length) {
      out.push({ kind: "note", text: "The GPU was not read or is not in the site's list: its compute capability is not checked." });
    }
    if (machine.accelerator === tables.families.rocmFamily) {
      out.push({ kind: "note", text: "The AMD GPU's architecture (its gfx target) is not checked: the data does not list the GPUs" +
        " each ROCm wheel has code for." });
    }
    if (machine.gpuUnread && machine.accelerator !== tables.families.cudaFamily) {
      out.push({ kind: "note", text: "No \u201cGPU models and configuration:\u201d line was read (the paste may end before it):" +
        " a GPU there is not checked." });
    }
    return out;
  }

  var api = { machineOf: machineOf, planFor: planFor, planSentences: planSentences, planReason: reason,
    planStep: function (version, machine, tables) {
      var release = releaseOf(version, tables);
      return release ? evaluate(release, machine, tables) : null;
    },
    useEnv: function (parser) { Env = parser; } };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.AtlasPlanner = api;
})(this);
