// A practice game's bots are about to move: show their moves by loading the page
// again in a few seconds, unless the player has started something on it (text typed,
// a card ticked, a field in use), which a reload would lose. Without this script the
// page says to reload it.
(function () {
  var note = document.getElementById("bots-playing");
  if (!note) return;
  var seconds = Number(note.dataset.seconds) || 5;
  function busy() {
    var active = document.activeElement;
    if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
    var fields = document.querySelectorAll("textarea, input[type=text], input[type=number]");
    for (var i = 0; i < fields.length; i++) if (fields[i].value !== fields[i].defaultValue) return true;
    var ticks = document.querySelectorAll("input[type=checkbox], input[type=radio]");
    for (var j = 0; j < ticks.length; j++) if (ticks[j].checked !== ticks[j].defaultChecked) return true;
    return document.querySelector("details[open] form") !== null;
  }
  function again() {
    if (document.visibilityState === "visible" && !busy()) window.location.reload();
    else setTimeout(again, seconds * 1000);
  }
  setTimeout(again, seconds * 1000);
})();
