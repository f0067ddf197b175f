/* PyTorch Release Atlas: the environment doctor's reading of `python -m torch.utils.collect_env`.
 *
 * Pure functions, no DOM and no network: the upgrade guides load this file before atlas.js, and
 * `node --test tests/js/` runs it on a corpus of real outputs. Facts (which compute capability a
 * GPU model has, which driver a CUDA build needs) are never written here: the callers pass the
 * object the build writes into each page (<script type="application/json" id="atlas-facts">,
 * made by macros/query/env_facts.py from data/gpus.yaml and data/drivers.yaml).
 *
 *   parseCollectEnv(text, facts) -> {torch, torchFull, build, variant, os, osName, arch, wsl, python,
 *                             gpus: [names], gpuText, gpuLine, driver, cudaAvailable, read: [...], missing: [...]}
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

  /* The longest paste read, in characters: collect_env prints a few KB (tens with a long list of
     libraries); past this only the start is read, and the reading says so. */
  var MAX_PASTE = 200000;
  /* A label is at most 41 characters; its colon may follow after padding ("Key   : value"), never
     as far as LABEL_REACH characters into the line. */
  var LABEL = /^([A-Za-z][A-Za-z0-9_ ./-]{0,40}?)\s*:/;
  var LABEL_REACH = 200;
  var RUN_IN = /PyTorch version[ \t]*:/g;

  /* A prompt or a progress line run into the first label ("...information...   PyTorch version:
     2.7") starts a line of its own. Linear: each match looks back over the blanks before it only. */
  function splitRunIn(text) {
    var out = "", from = 0, match;
    RUN_IN.lastIndex = 0;
    while ((match = RUN_IN.exec(text))) {
      var start = match.index;
      while (start > from && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
      if (start < match.index && start > 0 && text[start - 1] !== "\n") {
        out += text.slice(from, start) + "\n";
        from = match.index;
      }
    }
    return out + text.slice(from);
  }

  /* The label a line starts with, and the value after its colon; null when the line is no field.
     Every regular expression here runs in time linear in the line (no nested or adjacent
     unbounded quantifiers that can split the same blanks two ways). */
  function labelled(line) {
    var match = LABEL.exec(line.slice(0, LABEL_REACH));
    if (!match) return null;
    var rest = line.slice(match[0].length);
    if (rest && !/^\s/.test(rest)) return null;
    var name = LABELS[match[1].replace(/\s+/g, " ").toLowerCase()];
    return name ? { name: name, value: rest.trim() } : null;
  }

  /* The first MAX_PASTE characters, without the line cut in two (when there is a line break). */
  function capped(text) {
    if (text.length <= MAX_PASTE) return text;
    var head = text.slice(0, MAX_PASTE);
    var end = head.lastIndexOf("\n");
    return end > 0 ? head.slice(0, end) : head;
  }

  /* Lines keyed by the field they start; a label whose value went to the next line (e-mail
     wrapping, vLLM's GPU list) takes that line when it is not a label itself. */
  function fieldsOf(text) {
    var lines = splitRunIn(capped(String(text || "")).replace(/\r\n?|[\u2028\u2029]/g, "\n"))
      .split("\n")
      .map(unquote);
    var fields = {};
    lines.forEach(function (line, index) {
      var found = labelled(line);
      if (!found || fields[found.name]) return;
      fields[found.name] = { value: found.value, line: index };
    });
    Object.keys(fields).forEach(function (name) {
      var field = fields[name];
      var next = lines[field.line + 1];
      if (!field.value && name !== "gpus" && next !== undefined && !isLabel(next)) field.value = next.trim();
    });
    return { fields: fields, lines: lines };
  }

  function isLabel(line) {
    var match = LABEL.exec(line.slice(0, LABEL_REACH));
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
    /* `(10.0.26100 64 位)` in another language: Python's own line says `(AMD64)` too. */
    var python = fields.python ? fields.python.value : "";
    if (/windows/i.test(value) && !arch) arch = /64-bit|64 bit|\(AMD64\)/i.test(value + platform + python) ? "x86_64" : "";
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

  /* "2 × NVIDIA A100, NVIDIA T4": each name once, in the order printed, with how often it was. */
  function countedNames(names) {
    var counts = {}, order = [];
    names.forEach(function (name) {
      if (!Object.prototype.hasOwnProperty.call(counts, name)) { counts[name] = 0; order.push(name); }
      counts[name]++;
    });
    return order.map(function (name) { return (counts[name] > 1 ? counts[name] + " × " : "") + name; }).join(", ");
  }

  function parseCollectEnv(text, facts) {
    var names = namesOf(facts);
    var parsed = fieldsOf(text);
    var fields = parsed.fields;
    var result = { torch: "", torchFull: "", build: "", variant: "", os: "", osName: "", arch: "", wsl: false,
      python: "", gpus: [], gpuText: "", gpuLine: false, driver: "", cudaAvailable: null, macos: "", glibc: "", hip: false,
      read: [], missing: [] };
    var read = function (field, label) { result.read.push({ field: field, label: label }); };
    var miss = function (field, why) { result.missing.push({ field: field, why: why }); };
    var size = String(text || "").length;
    if (size > MAX_PASTE) {
      miss("paste", "The paste is " + size.toLocaleString("en") + " characters: only its first " +
        MAX_PASTE.toLocaleString("en") + " were read (collect_env prints a few thousand)");
    }

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
    // A source build carries no wheel: it names the toolkit it was built with (a ROCm source build is not the rocm7.2 wheel).
    if (result.variant) read("variant", torch && torch.build === "source" ? "built from source, with " + result.variant : "wheel " + result.variant);
    else if (torch) miss("variant", "the wheel (CUDA, ROCm, CPU) is not named");

    result.python = readPython(fields);
    if (result.python) read("python", "Python " + result.python);
    else miss("python", fields.python ? "Python version: " + fields.python.value : "no “Python version:” line");

    if (fields.cudaAvailable) result.cudaAvailable = /^true|^yes/i.test(fields.cudaAvailable.value);
    var gpus = readGpus(parsed);
    result.gpuLine = Boolean(gpus);
    if (gpus) {
      result.gpus = gpus.names;
      result.gpuText = gpus.text;
      if (gpus.names.length) read("gpus", gpus.names.length > 1 ? gpus.names.length + " GPUs: " + countedNames(gpus.names) : "GPU " + gpus.names[0]);
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
    if (result.os === names.macos) result.macos = (result.osName.match(/mac ?os ?x?\s*(\d+(?:\.\d+)*)/i) || [])[1] || "";
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
        var aliases = row[3] || [];
        return { name: row[0], capability: row[1], arm: Boolean(row[2]), aliases: aliases,
          family: (facts.families || {})[row[1]] || "", words: [row[0]].concat(aliases).map(tokens) };
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
      model.words.forEach(function (words) {
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
    var found = [], unknown = [], seen = {};
    names.forEach(function (name) {
      // A machine with many GPUs prints the same few names again and again: each is read once.
      if (Object.prototype.hasOwnProperty.call(seen, name)) return;
      var model = seen[name] = gpuModel(name, facts);
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

  var api = { parseCollectEnv: parseCollectEnv, gpuModel: gpuModel, oldestGpu: oldestGpu, driverFor: driverFor,
    atLeast: atLeast, capabilityKey: capabilityKey };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.AtlasEnv = api;
})(this);
