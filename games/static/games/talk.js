// The table talk's unread messages: once the panel has been on screen for a
// moment, with the page in front, tell the server they were read. A page opened
// by a mail scanner, never shown, marks nothing; without this script the panel's
// "Mark as read" button does the same. Watched again whenever the page brings in
// new messages by itself (live.js, "live:updated").
(function () {
  var observer = null;
  var timer = null;

  function watch() {
    if (observer) observer.disconnect();
    clearTimeout(timer);
    var panel = document.getElementById("talk");
    if (!panel || !panel.dataset.unread || !("IntersectionObserver" in window)) return;
    var form = panel.querySelector("form.talk-read");
    if (!form) return;
    function send() {
      var data = new FormData(form);
      data.append("quiet", "1");
      fetch(form.action, { method: "POST", body: data, credentials: "same-origin" }).then(
        function (answer) { if (answer.ok) form.hidden = true; },
        function () {}
      );
    }
    observer = new IntersectionObserver(function (entries) {
      var seen = entries.some(function (e) { return e.isIntersecting; });
      clearTimeout(timer);
      if (seen && document.visibilityState === "visible") {
        timer = setTimeout(function () { observer.disconnect(); send(); }, 1500);
      }
    }, { threshold: 0.2 });
    observer.observe(panel);
  }

  watch();
  document.addEventListener("live:updated", watch);
})();
