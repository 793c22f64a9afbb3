// Register the service worker (scope: the whole site). Optional: the app works without it.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(script.dataset.sw, { scope: "/" }).catch(function () {});
  });
})();
