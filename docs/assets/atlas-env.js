/* PyTorch Release Atlas: the environment doctor's reading of `python -m torch.utils.collect_env`.
 *
 * Pure functions, no DOM and no network: the upgrade guides load this file before atlas.js, and
 * `node --test tests/js/` runs it on a corpus of real outputs. Facts (which compute capability a
 * GPU model has, which driver a CUDA build needs) are never written here: the callers pass the
 * object the build writes into each page (<script type="application/json" id="atlas-facts">,
 * made by macros/query/env_facts.py from data/gpus.yaml and data/drivers.yaml).
 *
 *   parseCollectEnv(text, facts) -> {torch, torchFull, build, variant, os, osName, arch, wsl, python,
 *                             gpus: [names], gpuText, driver, cudaAvailable, read: [...], missing: [...]}
 *   gpuModel(name, facts)  -> {name, capability, family, arm} or null
 *   oldestGpu(names, facts) -> {capability, family, model, name, unknown: [names], mixed: bool}
 *   driverFor(driver, cuda, os, facts) -> {verdict: "yes"|"compat"|"no"|"unknown", needs, floor}
 */
(function (root) {
  "use strict";

  /* Every label collect_env has printed for the fields read here, torch's own and vLLM's copy
     (`Key   : value`), lower-cased. */
  var LABELS = {
    "pytorch version": "torch",
    "cuda used to build pytorch": "cudaBuild",
    "rocm used to build pytorch": "rocmBuild",
    "os": "os",
    "python version": "python",
    "python platform": "platform",
    "is cuda available": "cudaAvailable",
    "gpu models and configuration": "gpus",
    "nvidia driver version": "driver",
    "is xpu available": "xpuAvailable",
    "xpu used to build pytorch": "xpuBuild",
    "is debug build": "debug",
    "cuda runtime version": "cudaRuntime",
    "cudnn version": "cudnn",
    "hip runtime version": "hip",
    "miopen runtime version": "miopen",
    "gcc version": "gcc",
    "clang version": "clang",
    "cmake version": "cmake",
    "libc version": "libc",
    "cuda_module_loading set to": "moduleLoading",
    "is xnnpack available": "xnnpack"
  };
  var NOT_COLLECTED = /^(could not collect|n\/a|none|no cuda|unknown|)$/i;

  /* One line of a paste, without what e-mail quoting and chat indentation put in front. */
  function unquote(line) {
    return line.replace(/^[\s>]*>\s?/, "").replace(/^\s+/, "");
  }

  /* Lines keyed by the field they start; a label whose value went to the next line (e-mail
     wrapping, vLLM's GPU list) takes that line when it is not a label itself. */
  function fieldsOf(text) {
    var lines = String(text || "")
      .replace(/\r\n?/g, "\n")
      // A prompt or a progress line run into the first label: "...information...   PyTorch version: 2.7"
      .replace(/([^\n])[ \t]+(PyTorch version\s*:)/g, "$1\n$2")
      .split("\n")
      .map(unquote);
    var fields = {};
    var order = [];
    lines.forEach(function (line, index) {
      var match = line.match(/^([A-Za-z][A-Za-z0-9_ ./-]{0,40}?)\s*:(?:\s+|$)(.*)$/);
      if (!match) return;
      var name = LABELS[match[1].replace(/\s+/g, " ").toLowerCase()];
      if (!name || fields[name]) return;
      fields[name] = { value: match[2].trim(), line: index };
      order.push(name);
    });
    Object.keys(fields).forEach(function (name) {
      var field = fields[name];
      var next = lines[field.line + 1];
      if (!field.value && name !== "gpus" && next !== undefined && !isLabel(next)) field.value = next.trim();
    });
    return { fields: fields, lines: lines };
  }

  function isLabel(line) {
    var match = line.match(/^([A-Za-z][A-Za-z0-9_ ./-]{0,40}?)\s*:/);
    return Boolean(match && LABELS[match[1].replace(/\s+/g, " ").toLowerCase()]);
  }

  function collected(field) {
    return Boolean(field && !NOT_COLLECTED.test(field.value.trim()));
  }

  /* "2.6.0.dev20241112+cpu", "2.5.0a0+git1234", "2.7.0+rocm6.3", "2.13.0+xpu", "2.2.2". */
  function readTorch(value) {
    var match = value.match(/^v?(\d+)\.(\d+)(?:\.(\d+))?([A-Za-z0-9.]*)(?:\+(\S+))?/);
    if (!match) return null;
    var pre = match[4] || "";
    var local = match[5] || "";
    var build = /dev\d/.test(pre) ? "nightly" : /git|^[0-9a-f]{7,}$|\.nv\d/.test(local) || /a0$/.test(pre) ? "source" : "release";
    return { minor: match[1] + "." + match[2], full: match[0], local: local, build: build };
  }

  function variantFrom(torch, fields, os, names) {
    var local = torch ? torch.local : "";
    // PyTorch's local version labels: +cu128, +cpu, +xpu, +rocm6.3 (the wheel names the site uses).
    if (/^cu\d{3}$/.test(local) || local === names.cpu || local === names.xpu) return local;
    var tagged = local.match(new RegExp("^" + names.rocm + "(\\d+\\.\\d+)"));
    if (tagged) return names.rocm + tagged[1];
    var cuda = fields.cudaBuild && fields.cudaBuild.value.match(/^(\d+)\.(\d+)/);
    if (cuda) return "cu" + cuda[1] + cuda[2];
    var rocm = fields.rocmBuild && fields.rocmBuild.value.match(/^(\d+)\.(\d+)/);
    if (rocm) return names.rocm + rocm[1] + "." + rocm[2];
    if (fields.xpuBuild && collected(fields.xpuBuild) && /true/i.test((fields.xpuAvailable || {}).value || "")) return names.xpu;
    if (!torch) return "";
    // macOS wheels: Apple silicon ones carry MPS; Intel Macs run MPS only with an AMD GPU.
    if (os.os === names.macos) return os.arch === "x86_64" ? names.cpu : names.mps;
    // A torch that names no CUDA, ROCm or XPU build and says so ("None") is a CPU build.
    if (fields.cudaBuild && /^none$/i.test(fields.cudaBuild.value)) return names.cpu;
    return "";
  }

  function readOs(fields, names) {
    var value = fields.os ? fields.os.value : "";
    var platform = fields.platform ? fields.platform.value : "";
    var arch = (value.match(/\((x86_64|aarch64|arm64|ppc64le|s390x|AMD64)\)/i) || platform.match(/(x86_64|aarch64|arm64|AMD64)/i) || [])[1] || "";
    arch = arch.toLowerCase() === "amd64" ? "x86_64" : arch.toLowerCase();
    var os = "";
    if (collected(fields.os)) {
      if (/windows/i.test(value)) os = names.windows;
      else if (/mac ?os|os ?x|darwin/i.test(value)) os = names.macos;
      else if (/linux|ubuntu|debian|centos|fedora|red hat|rhel|rocky|alma|suse|arch|gentoo|oracle|amazon|mint|\((x86_64|aarch64|ppc64le|s390x)\)/i.test(value)) os = names.linux;
    }
    if (!os && /^Windows-/i.test(platform)) os = names.windows;
    if (!os && /^macOS-/i.test(platform)) os = names.macos;
    if (!os && /^Linux-/i.test(platform)) os = names.linux;
    if (/windows/i.test(value) && !arch) arch = /64-bit|64 bit/i.test(value + platform) ? "x86_64" : "";
    return { os: os, name: collected(fields.os) ? value : "", arch: arch, wsl: /microsoft-standard-WSL|WSL2/i.test(platform) };
  }

  function readPython(fields) {
    var match = fields.python && fields.python.value.match(/^(\d+)\.(\d+)/);
    if (!match) return "";
    return match[1] + "." + match[2] + (/free-?threading/i.test(fields.python.value) ? "t" : "");
  }

  /* "GPU 0: NVIDIA H100 NVL" lines under the label (or on its line); MIG lines are not GPUs. */
  function readGpus(parsed) {
    var field = parsed.fields.gpus;
    if (!field) return null;
    var names = [];
    var own = field.value.match(/^GPU \d+:\s*(.+)$/);
    if (own) names.push(own[1].trim());
    for (var i = field.line + 1; i < parsed.lines.length; i++) {
      var line = parsed.lines[i];
      var gpu = line.match(/^GPU \d+:\s*(.+)$/);
      if (gpu) { names.push(gpu[1].trim()); continue; }
      if (/^MIG\b/.test(line) || (!line && names.length === 0 && !field.value)) continue;
      break;
    }
    if (!names.length && collected(field)) names.push(field.value.trim());
    return { names: names, text: field.value };
  }

  /* The values the reading is made of (OS, wheel families), from the vocabulary the build writes
     into the page (#atlas-facts): the parser only knows how collect_env spells them. */
  function namesOf(facts) {
    var os = facts.os, variants = facts.variants;
    return { linux: os.lin, windows: os.win, macos: os.mac, cpu: variants.cpuOnly, xpu: variants.intelGpu,
      mps: variants.appleGpu, rocm: variants.rocmFamily };
  }

  function parseCollectEnv(text, facts) {
    var names = namesOf(facts);
    var parsed = fieldsOf(text);
    var fields = parsed.fields;
    var result = { torch: "", torchFull: "", build: "", variant: "", os: "", osName: "", arch: "", wsl: false,
      python: "", gpus: [], gpuText: "", driver: "", cudaAvailable: null, macos: "", glibc: "", hip: false,
      read: [], missing: [] };
    var read = function (field, label) { result.read.push({ field: field, label: label }); };
    var miss = function (field, why) { result.missing.push({ field: field, why: why }); };

    var torch = fields.torch && collected(fields.torch) ? readTorch(fields.torch.value) : null;
    if (torch) {
      result.torch = torch.minor;
      result.torchFull = torch.full;
      result.build = torch.build;
      read("torch", "PyTorch " + torch.full + (torch.build === "nightly" ? " (nightly)" : torch.build === "source" ? " (built from source)" : ""));
    } else {
      miss("torch", fields.torch ? "PyTorch version: " + (fields.torch.value || "empty") + " (collect_env could not import torch)" : "no “PyTorch version:” line");
    }

    var os = readOs(fields, names);
    result.os = os.os;
    result.osName = os.name;
    result.arch = os.arch;
    result.wsl = os.wsl;
    if (os.os) read("os", (os.name || os.os) + (os.wsl ? " (WSL)" : ""));
    else miss("os", fields.os ? "OS: " + fields.os.value : "no “OS:” line");

    result.variant = variantFrom(torch, fields, os, names);
    if (result.variant) read("variant", "wheel " + result.variant);
    else if (torch) miss("variant", "the wheel (CUDA, ROCm, CPU) is not named");

    result.python = readPython(fields);
    if (result.python) read("python", "Python " + result.python);
    else miss("python", fields.python ? "Python version: " + fields.python.value : "no “Python version:” line");

    if (fields.cudaAvailable) result.cudaAvailable = /^true|^yes/i.test(fields.cudaAvailable.value);
    var gpus = readGpus(parsed);
    if (gpus) {
      result.gpus = gpus.names;
      result.gpuText = gpus.text;
      if (gpus.names.length) read("gpus", gpus.names.length > 1 ? gpus.names.length + " GPUs: " + gpus.names.join(", ") : "GPU " + gpus.names[0]);
      else if (/no cuda/i.test(gpus.text)) read("gpus", "no CUDA GPU");
      else miss("gpus", "GPU models: " + (gpus.text || "empty"));
    } else {
      miss("gpus", "no “GPU models and configuration:” line");
    }

    if (fields.driver && collected(fields.driver) && /^\d+\.\d+/.test(fields.driver.value)) {
      result.driver = fields.driver.value.match(/^\d+(\.\d+)+/)[0];
      read("driver", "NVIDIA driver " + result.driver);
    } else if (fields.driver && /no cuda/i.test(fields.driver.value)) {
      read("driver", "no NVIDIA driver");
    } else {
      miss("driver", fields.driver ? "Nvidia driver version: " + fields.driver.value : "no “Nvidia driver version:” line");
    }
    if (result.os === names.macos) result.macos = (result.osName.match(/mac ?os x?\s*(\d+(?:\.\d+)*)/i) || [])[1] || "";
    result.glibc = ((fields.libc && fields.libc.value.match(/glibc[- ]?(\d+\.\d+)/i)) || [])[1] || "";
    result.hip = collected(fields.hip) || collected(fields.miopen);
    return result;
  }

  /* --- facts the build wrote: GPU models and driver floors ----------------------------------- */

  /* Words of a GPU name that say nothing about its model: the brand and the form factor. */
  function tokens(name) {
    return String(name).toLowerCase()
      .replace(/\(tm\)|\(r\)/g, " ")
      .replace(/\b(nvidia|geforce|tesla|gpu|generation|graphics)\b/g, " ")
      .split(/[^a-z0-9]+/).filter(Boolean);
  }

  function contains(haystack, needle) {
    for (var start = 0; start + needle.length <= haystack.length; start++) {
      var all = true;
      for (var i = 0; i < needle.length; i++) if (haystack[start + i] !== needle[i]) { all = false; break; }
      if (all) return true;
    }
    return false;
  }

  /* The facts carry models as [name, capability, Arm-only, aliases] (query/env_facts.py). */
  function modelsOf(facts) {
    if (!facts || !facts.gpus) return [];
    if (!facts._models) {
      facts._models = facts.gpus.map(function (row) {
        return { name: row[0], capability: row[1], arm: Boolean(row[2]), aliases: row[3] || [],
          family: (facts.families || {})[row[1]] || "" };
      });
    }
    return facts._models;
  }

  /* The model whose name (or alias) is the longest run of words inside the printed name:
     "Quadro RTX 5000" is Turing, "NVIDIA RTX 5000 Ada Generation" is Ada. */
  function gpuModel(name, facts) {
    var printed = tokens(name);
    var best = null, bestLength = 0;
    modelsOf(facts).forEach(function (model) {
      [model.name].concat(model.aliases || []).forEach(function (label) {
        var words = tokens(label);
        if (words.length > bestLength && contains(printed, words)) { best = model; bestLength = words.length; }
      });
    });
    return best;
  }

  function capabilityKey(capability) {
    var parts = capability.split(".");
    return Number(parts[0]) * 100 + Number(parts[1]);
  }

  /* Several GPUs: the oldest compute capability decides, since it is the one a wheel fails. */
  function oldestGpu(names, facts) {
    var found = [], unknown = [];
    names.forEach(function (name) {
      var model = gpuModel(name, facts);
      if (model) found.push({ name: name, model: model }); else unknown.push(name);
    });
    if (!found.length) return { capability: "", unknown: unknown, mixed: false };
    found.sort(function (a, b) { return capabilityKey(a.model.capability) - capabilityKey(b.model.capability); });
    var capabilities = {};
    found.forEach(function (entry) { capabilities[entry.model.capability] = true; });
    return { capability: found[0].model.capability, family: found[0].model.family, model: found[0].model.name,
      arm: found[0].model.arm, name: found[0].name, unknown: unknown, mixed: Object.keys(capabilities).length > 1 };
  }

  function versionKey(version) {
    return String(version).split(".").map(Number);
  }

  function atLeast(version, floor) {
    var a = versionKey(version), b = versionKey(floor);
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      var d = (a[i] || 0) - (b[i] || 0);
      if (d) return d > 0;
    }
    return true;
  }

  /* Does this driver run a CUDA X.Y build? "yes" at or above the driver NVIDIA pairs with the
     toolkit; "compat" at or above the major version's minor-version-compatibility floor (runs,
     with NVIDIA's limits); "no" below; "unknown" when the data has no floor for it. */
  function driverFor(driver, cuda, os, facts) {
    var builds = (facts && facts.drivers) || {};
    var entry = builds[cuda];
    if (!driver || !entry) return { verdict: "unknown" };
    // NVIDIA's tables have a column per system (facts.driverSystems); any other reads the first.
    var systems = facts.driverSystems || [];
    var system = systems.indexOf(os) >= 0 ? os : systems[0];
    var needs = entry[system];
    var floor = ((facts.driverFloors || {})[cuda.split(".")[0]] || {})[system];
    if (needs && atLeast(driver, needs)) return { verdict: "yes", needs: needs, floor: floor };
    if (floor && atLeast(driver, floor)) return { verdict: "compat", needs: needs, floor: floor };
    if (!needs && !floor) return { verdict: "unknown" };
    return { verdict: "no", needs: needs, floor: floor };
  }

  /* --- the plan: the newest release that runs the machine ------------------------------------
     The lookups of macros/query/planner.py (`evaluate`, `plan`) on the tables the build writes
     (assets/atlas-plan.js, `plan_tables`): the rules, GPU code included, were applied there; here
     they are only read. render/doctor.py writes the same sentences; a test compares both. */

  var AMD = /AMD|Radeon|Instinct|gfx\d/i;

  /* What the plan needs of a reading (collect_env.py `machine_of`). */
  function machineOf(found, facts, tables) {
    var fam = tables.families, os = tables.os;
    var nvidia = found.gpus.filter(function (name) { return !AMD.test(name); });
    var amd = found.gpus.filter(function (name) { return AMD.test(name); });
    var models = nvidia.map(function (name) { return gpuModel(name, facts); });
    var seen = {};
    models.forEach(function (model) { if (model) seen[model.capability] = true; });
    var capabilities = Object.keys(seen).sort(function (a, b) { return capabilityKey(a) - capabilityKey(b); });
    var unknown = models.some(function (model) { return !model; });
    var variant = found.variant;
    var accelerator = "";
    if (found.os === os.mac) accelerator = "";
    else if (variant.indexOf(fam.rocmFamily) === 0 || amd.length || (found.hip && !nvidia.length)) accelerator = fam.rocmFamily;
    else if (variant === fam.intelGpu) accelerator = fam.intelGpu;
    else if (capabilities.length || (nvidia.length && found.driver) || (/^cu\d/.test(variant) && found.driver)) accelerator = fam.cudaFamily;
    else if (found.os) accelerator = fam.cpuOnly;
    return { os: found.os, arch: found.arch, python: found.python, accelerator: accelerator, capabilities: capabilities,
      gpuUnknown: unknown || (accelerator === fam.cudaFamily && !capabilities.length), driver: found.driver,
      osVersion: found.os === os.mac ? found.macos : found.os === os.lin ? found.glibc : "",
      amdGpu: amd.length > 0 && found.os === os.mac };
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
    if (needs && atLeast(driver, needs)) return ["yes", needs];
    if (floor && atLeast(driver, floor)) return ["compat", floor];
    return ["no", floor || needs];
  }

  var RANK = { yes: 3, compat: 2, unknown: 1 };

  function oldest(capabilities) {
    return capabilities.length ? capabilities.slice().sort(function (a, b) { return capabilityKey(a) - capabilityKey(b); })[0] : "";
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
      else if (!atLeast(machine.osVersion, floor)) {
        partial = [];
        return stop(machine.os === os.lin ? "glibc-floor" : "macos-floor", { floor: floor, have: machine.osVersion });
      }
    }
    if (machine.os === os.mac) {
      var gpu = key === os.mac + "-arm64" || machine.amdGpu;
      if (gpu && release.mpsFrom === null) { partial.push("mps-unknown"); return run(fam.appleGpu); }
      var onMps = gpu && Boolean(machine.osVersion) && atLeast(machine.osVersion, release.mpsFrom);
      return run(onMps ? fam.appleGpu : fam.cpuOnly);
    }
    if (machine.accelerator === fam.cudaFamily) {
      if (key === os.lin + "-aarch64") { partial.push("cuda-aarch64"); return run(fam.cpuOnly); }
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
        return (RANK[b[1]] - RANK[a[1]]) || (Number(!b[0].experimental) - Number(!a[0].experimental)) ||
          compareKeys(releaseKey(b[0].cudaVersion), releaseKey(a[0].cudaVersion));
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
     torch the paste runs). Returns [{kind, text}]: head, command, already, target, blocked, unlock, note. */
  function planSentences(plan, machine, tables, options) {
    options = options || {};
    var out = [{ kind: "head", text: planHead(plan, tables) }];
    if (plan.command) out.push({ kind: "command", text: plan.command });
    var to = options.to || "";
    if (options.torch && to && compareKeys(releaseKey(options.torch), releaseKey(to)) >= 0) {
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
    return out;
  }

  var api = { parseCollectEnv: parseCollectEnv, gpuModel: gpuModel, oldestGpu: oldestGpu, driverFor: driverFor,
    atLeast: atLeast, machineOf: machineOf, planFor: planFor, planSentences: planSentences, planReason: reason,
    planStep: function (version, machine, tables) {
      var release = releaseOf(version, tables);
      return release ? evaluate(release, machine, tables) : null;
    } };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.AtlasEnv = api;
})(this);
