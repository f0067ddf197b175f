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
      window.location.href = from + "-to-" + to + ".html";
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

  /* A "copy link" control on every item heading: copies the item's full permanent URL. */
  function setupCopyLinks(root) {
    var links = root.querySelectorAll(".md-content h3[id] > a.headerlink, .md-content h4[id] > a.headerlink");
    Array.prototype.forEach.call(links, function (anchor) {
      var heading = anchor.parentNode;
      if (heading.querySelector(".atlas-copy")) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "atlas-copy";
      button.textContent = "Copy link";
      // The accessible name starts with the visible text (WCAG 2.5.3), then says which item.
      button.setAttribute("aria-label", "Copy link to " + heading.id);
      button.addEventListener("click", function () {
        // The permanent URL: no query string (a search leaves ?h=... behind) and no old fragment.
        var url = window.location.href.split(/[?#]/)[0] + "#" + heading.id;
        var done = function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = "Copy link"; }, 1500);
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(url).then(done, function () { window.prompt("Copy this link:", url); });
        } else {
          window.prompt("Copy this link:", url);
        }
      });
      heading.appendChild(button);
    });
  }

  /* A copy button beside each install command of a release page's install table. */
  function setupInstallCopy(root) {
    var commands = root.querySelectorAll(".atlas-install td code");
    Array.prototype.forEach.call(commands, function (code) {
      if (code.parentNode.querySelector(".atlas-copy")) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "atlas-copy";
      button.textContent = "Copy";
      button.setAttribute("aria-label", "Copy: " + code.textContent);
      button.addEventListener("click", function () {
        var text = code.textContent;
        var done = function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = "Copy"; }, 1500);
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(done, function () { window.prompt("Copy this command:", text); });
        } else {
          window.prompt("Copy this command:", text);
        }
      });
      code.parentNode.appendChild(button);
    });
  }

  function setup() {
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
