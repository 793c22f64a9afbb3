// Small progressive enhancements; every page works without this file.
// Kept out of the templates so a strict Content-Security-Policy can forbid inline scripts.
(function () {
  "use strict";
  // Focus the first invalid field after htmx swaps in a re-rendered form (422).
  document.addEventListener("htmx:afterSwap", function (event) {
    var invalid = event.detail.target.querySelector("[aria-invalid='true']");
    if (invalid) invalid.focus();
  });
})();
