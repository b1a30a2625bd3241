// The new-game form: the pace in words follows the settings as they change (the
// server words it, in the page's language), and the join link copies with a tap.
(function () {
  var form = document.getElementById("new-game");
  var line = document.querySelector("#pace-now strong");
  // The organizer's own zone, for their seat (the deadlines' zone may be another).
  var mine = document.getElementById("field-my-timezone");
  var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (mine && zone && !mine.value) mine.value = zone;
  if (form && line) {
    var timer = null;
    var ask = function () {
      var query = new URLSearchParams(new FormData(form));
      query.delete("csrfmiddlewaretoken");
      fetch(form.dataset.paceUrl + "?" + query.toString(), {credentials: "same-origin"})
        .then(function (answer) { return answer.ok ? answer.text() : ""; })
        .then(function (text) { if (text) line.textContent = text; })
        .catch(function () {});
    };
    var later = function () { clearTimeout(timer); timer = setTimeout(ask, 250); };
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    later();
    // A page restored from the back/forward cache keeps the fields it had: say them.
    window.addEventListener("pageshow", function (event) { if (event.persisted) later(); });
  }
  var copy = document.getElementById("copy-join-url");
  var field = document.getElementById("join-url");
  if (copy && field && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      navigator.clipboard.writeText(field.value).then(function () {
        copy.textContent = copy.dataset.done;
      });
    });
  }
})();
