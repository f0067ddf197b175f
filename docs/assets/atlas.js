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

  function setup() {
    setupUpgradePicker(document);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
