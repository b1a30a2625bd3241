// The new-game form: the pace in words follows the settings as they change (the
// server words it, in the page's language), and the join link copies with a tap.
(function () {
  var form = document.getElementById("new-game");
  var line = document.querySelector("#pace-now strong");
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
