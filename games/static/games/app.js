// The site as an installable app: registers the service worker (/sw.js), which keeps
// the shell for when the network is gone and shows the notifications pushed to this
// device. After the page has loaded, so that filling the worker's cache does not slow
// the page down. Without service workers the site works the same, as plain pages.
(function () {
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    // A browser that refuses (a private window, a policy) leaves the page as it is.
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  });
})();
