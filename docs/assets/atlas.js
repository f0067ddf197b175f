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
  var SETUP_FIELDS = ["variant", "os", "python", "gpu"];
  var GPU_MODELS = [
    [/\b(GB|B)(100|200|300)\b/, "10.0"], [/\bH(100|200|20)\b|GH200/, "9.0"], [/RTX 50\d0|Blackwell/, "12.0"],
    [/\bL4\b|\bL40|RTX 40\d0|\bAda\b/, "8.9"], [/\bA100\b|\bA30\b|\bA800\b/, "8.0"],
    [/\bA10\b|\bA40\b|\bA2\b|RTX 30\d0|RTX A\d000/, "8.6"], [/\bT4\b|RTX 20\d0|Quadro RTX|TITAN RTX/, "7.5"],
    [/\bV100\b|TITAN V/, "7.0"], [/\bP100\b/, "6.0"], [/\bP40\b|\bP4\b|GTX 10\d0|TITAN Xp/, "6.1"], [/\bM40\b|\bM60\b|GTX 9\d0/, "5.2"]
  ];

  function normalizeGpu(text) {
    var match = String(text || "").trim().match(/^(?:sm_?)?(\d{1,2})\.?(\d)$/i);
    return match ? match[1] + "." + match[2] : "";
  }

  function variantMatches(values, mine) {
    return values.some(function (value) {
      if (value === mine) return true;
      if (value === "cuda") return /^cu\d{3}$/.test(mine);
      if (value === "rocm") return mine.indexOf("rocm") === 0;
      return false;
    });
  }

  function appliesTo(row, setup) {
    return [["variants", setup.variant], ["os", setup.os], ["python", setup.python], ["gpu", setup.gpu]].every(function (check) {
      var raw = row.getAttribute("data-" + check[0]);
      if (!raw || !check[1]) return true;
      var values = raw.split(" ");
      return check[0] === "variants" ? variantMatches(values, check[1]) : values.indexOf(check[1]) >= 0;
    });
  }

  function parseCollectEnv(text) {
    var found = {};
    var torch = text.match(/PyTorch version:\s*(\d+\.\d+)(?:\.\d+)?(?:\+([A-Za-z0-9.]+))?/);
    if (torch) {
      found.torch = torch[1];
      if (torch[2]) found.variant = torch[2].replace(/^rocm(\d+\.\d+).*$/, "rocm$1");
    }
    if (!found.variant) {
      var cuda = text.match(/CUDA used to build PyTorch:\s*(\d+)\.(\d)/);
      var rocm = text.match(/ROCM used to build PyTorch:\s*(\d+\.\d+)/);
      if (cuda) found.variant = "cu" + cuda[1] + cuda[2];
      else if (rocm) found.variant = "rocm" + rocm[1];
    }
    var python = text.match(/Python version:\s*(\d+)\.(\d+)[^\n]*/);
    if (python) found.python = python[1] + "." + python[2] + (/free-threading|\bt\b/i.test(python[0]) ? "t" : "");
    var os = text.match(/^OS:\s*(.*)$/m);
    if (os) found.os = /windows/i.test(os[1]) ? "windows" : /mac ?os|darwin/i.test(os[1]) ? "macos" : "linux";
    if (found.os === "macos" && !found.variant) found.variant = "mps";
    var gpus = text.match(/GPU models and configuration:([^\n]*(?:\n(?:GPU \d+:)[^\n]*)*)/);
    if (gpus) {
      GPU_MODELS.some(function (entry) {
        if (entry[0].test(gpus[1])) { found.gpu = entry[1]; return true; }
        return false;
      });
    }
    return found;
  }

  /* With a setup chosen, each table of changes lists first the rows written for that setup
     (their applies_to names it), then by how hard they hit: data-impact is the effect's rank in
     the data's vocabulary. Without a setup, the page's own order comes back. */
  function orderByImpact(root, rows, setup) {
    var chosen = SETUP_FIELDS.some(function (name) { return setup[name]; });
    var named = function (row) {
      return SETUP_FIELDS.some(function (name) {
        var attribute = name === "variant" ? "data-variants" : "data-" + name;
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
    } else if (/^cu\d+$/.test(setup.variant)) {
      answer.textContent = (unsure ? "The data knows no " + setup.variant + " wheel of " + to : to + " has no " + setup.variant + " wheel") +
        "; for your GPU (" + gpu + ") " +
        (running.length ? "these do: " + running.join(", ") + "." : none);
    } else {
      answer.textContent = running.length
        ? "Your GPU (" + gpu + ") runs on these " + to + " CUDA wheels: " + running.join(", ") + "."
        : unsure ? "For your GPU (" + gpu + "), " + none : "No CUDA wheel of " + to + " runs your GPU (" + gpu + ").";
    }
  }

  /* Section 8 keeps only the command for the chosen wheel (macOS: the PyPI wheel, which has MPS),
     and says when the target has no wheel for the chosen variant or Python. */
  function chooseInstall(root, setup) {
    var box = root.querySelector(".md-content .atlas-install[data-pythons]");
    var answer = root.querySelector(".atlas-install-answer");
    if (!box || !answer) return;
    var to = root.querySelector("form#your-setup").dataset.to;
    var want = setup.variant === "mps" || (!setup.variant && setup.os === "macos") ? "pypi" : setup.variant;
    var rows = Array.prototype.slice.call(box.querySelectorAll("tr[data-variant]"));
    var match = rows.filter(function (row) { return row.dataset.variant === want; });
    rows.forEach(function (row) { row.hidden = match.length > 0 && match.indexOf(row) < 0; });
    var notes = [];
    var caveat = root.querySelector(".atlas-gpu-caveat");
    if (want && !match.length && want !== "source") {
      notes.push(caveat && /^cu\d+$/.test(want)
        ? "The data knows no " + want + " wheel of " + to + ": every command is shown. " + caveat.textContent.trim()
        : to + " has no " + want + " wheel: every command is shown.");
    }
    if (setup.python && box.dataset.pythons.split(" ").indexOf(setup.python) < 0) {
      notes.push(to + " has no wheels for Python " + setup.python + " (it has " + box.dataset.pythons.split(" ").join(", ") + ").");
    }
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
    if (kept.length !== 1 && setup.gpu) {
      // No single wheel kept for the chosen variant: the first wheel the GPU table says runs the GPU.
      var running = Array.prototype.map.call(
        root.querySelectorAll('.atlas-gpus tr[data-gpu="' + setup.gpu + '"] td[data-runs="yes"]'),
        function (cell) { return cell.dataset.variant; });
      kept = rows.filter(function (row) { return running.indexOf(row.dataset.variant) >= 0; }).slice(0, 1);
    }
    install.textContent = "";
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
    var read = function () {
      try { return JSON.parse(window.localStorage.getItem(key) || "[]"); } catch (error) { return []; }
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

  /* Sets a form's setup controls from parsed collect_env output; returns what could not be set
     (a value the form does not offer), for the reader to see. */
  function fillSetup(form, found) {
    var skipped = [];
    SETUP_FIELDS.forEach(function (name) {
      if (!found[name]) return;
      var field = form.elements[name];
      if (hasOption(field, found[name])) field.value = found[name];
      else skipped.push(name + " " + found[name]);
    });
    return skipped;
  }

  /* The guide index: the setup entered once travels with the chosen guide, and with every link to
     a guide on the page, as the guides' query parameters. */
  function setupIndexSetup(root) {
    var picker = root.querySelector("form#upgrade-picker");
    var fields = picker && picker.querySelector("#your-setup");
    if (!fields || fields.dataset.ready) return;
    fields.dataset.ready = "1";
    var query = function () {
      var params = new URLSearchParams();
      SETUP_FIELDS.forEach(function (name) {
        var value = picker.elements[name].value.trim();
        if (value) params.set(name, value);
      });
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
    picker.querySelector("[data-action=read-env]").addEventListener("click", function () {
      var found = parseCollectEnv(picker.elements.collect_env.value);
      fillSetup(picker, found);
      if (found.torch && hasOption(picker.elements.from, found.torch)) picker.elements.from.value = found.torch;
      update();
    });
    update();
  }

  function setupPersonalGuide(root) {
    var form = root.querySelector("form#your-setup");
    if (!form) return;
    var rows = Array.prototype.slice.call(root.querySelectorAll(".md-content table.atlas-guide tbody tr"));
    var status = form.querySelector(".atlas-setup-status");

    function current() {
      var setup = {};
      SETUP_FIELDS.forEach(function (name) {
        var value = form.elements[name].value.trim();
        setup[name] = name === "gpu" ? normalizeGpu(value) : value;
      });
      return setup;
    }

    function apply(message) {
      var setup = current();
      var folded = 0;
      rows.forEach(function (row) {
        var mine = appliesTo(row, setup);
        row.hidden = !mine;
        row.classList.toggle("atlas-not-yours", !mine);
        if (!mine) folded += 1;
      });
      orderByImpact(root, rows, setup);
      answerGpu(root, setup);
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
      var query = params.toString();
      history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
      var chosen = SETUP_FIELDS.filter(function (name) { return setup[name]; });
      status.textContent = (message ? message + " " : "") + (chosen.length
        ? folded + " of " + rows.length + " entries are not for your setup and are folded away."
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
    form.addEventListener("change", function (event) { if (event.target.name !== "collect_env") apply(); });
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    form.querySelector("[data-action=read-env]").addEventListener("click", function () {
      var found = parseCollectEnv(form.elements.collect_env.value);
      var notes = fillSetup(form, found).map(function (what) { return what + " is not among this guide's choices"; });
      var message = notes.length ? notes.join("; ") + "." : "";
      var versions = form.dataset.versions.split(" ");
      if (found.torch && found.torch !== form.dataset.from) {
        var to = form.dataset.to;
        var later = versions.indexOf(found.torch) >= 0 && versions.indexOf(found.torch) < versions.indexOf(to);
        apply(message);
        status.append(" You run PyTorch " + found.torch + ", but this guide starts at " + form.dataset.from + (later ? "; open " : "."));
        if (later) {
          var link = document.createElement("a");
          link.href = found.torch + "-to-" + to + ".html" + window.location.search;
          link.textContent = "the " + found.torch + " → " + to + " guide";
          status.append(link, ".");
        }
        return;
      }
      apply(message);
    });
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

  function setup() {
    setupPalette(document);
    setupPersonalGuide(document);
    setupTicks(document);
    setupIndexSetup(document);
    setupUpgradePicker(document);
    setupCopyLinks(document);
    setupInstallCopy(document);
    Array.prototype.forEach.call(document.querySelectorAll(".atlas-table"), setupTable);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
