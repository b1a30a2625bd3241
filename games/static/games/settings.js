// The settings page: offer the device's own time zone, one tap to use it.
(function () {
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var field = document.getElementById("field-timezone");
  var hint = document.getElementById("browser-zone");
  if (!zone || !field || !hint || field.value === zone) return;
  var button = hint.querySelector("[data-zone]");
  button.textContent = zone;
  button.addEventListener("click", function () { field.value = zone; });
  hint.hidden = false;
})();
