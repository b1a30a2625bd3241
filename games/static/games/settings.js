// A time-zone field (the settings page, a new game, an invitation): offer the
// device's own zone, one tap to use it; a field marked data-auto takes it at once
// while it still holds the server's guess.
(function () {
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var field = document.getElementById("field-timezone") || document.querySelector("input[list=zones]");
  var hint = document.getElementById("browser-zone");
  if (!zone || !field || !hint || field.value === zone) return;
  if (field.hasAttribute("data-auto") && field.value === "UTC") {
    field.value = zone;
    field.dispatchEvent(new Event("change", {bubbles: true}));  // the form's listeners hear it
    return;
  }
  var button = hint.querySelector("[data-zone]");
  button.textContent = zone;
  button.addEventListener("click", function () {
    field.value = zone;
    field.dispatchEvent(new Event("change", {bubbles: true}));
  });
  hint.hidden = false;
})();
