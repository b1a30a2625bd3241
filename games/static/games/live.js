// An open page keeps itself current (games/web/live.py). Every few seconds it asks
// whether the page's fingerprint changed: unchanged, the site answers 304 from one
// read. Changed, the page is read again as a reload would read it, and what changed
// is put in place — except what the player is in the middle of: a form with something
// ticked, chosen or typed, a field in use, a fold they opened, the result of their
// own move. That stays as it is, and where the game has moved past a kept form the
// form says so in words. A polite live region tells a screen reader what happened,
// once, without moving focus. Without this script the page is the same; a reload
// shows the news.
(function () {
  var anchor = document.getElementById("live");
  var main = document.querySelector("main");
  if (!anchor || !main || !window.fetch || !window.DOMParser) return;
  var url = anchor.getAttribute("data-url");
  var tag = anchor.getAttribute("data-tag");
  var page = anchor.getAttribute("data-page"); // the page's own GET address
  var every = (Number(anchor.getAttribute("data-every")) || 5) * 1000;
  var staleWords = anchor.getAttribute("data-stale");
  var news = document.getElementById("live-news");
  var wait = every;
  var timer = null;
  var asking = false;
  var SLOWEST = 60000;

  // --- what the player is in the middle of ------------------------------------------

  function isField(el) {
    return el && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
  }

  function changed(field) {
    var type = (field.getAttribute("type") || "").toLowerCase();
    if (type === "hidden" || type === "submit" || type === "button") return false;
    if (type === "checkbox" || type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      for (var i = 0; i < field.options.length; i++) {
        if (field.options[i].selected !== field.options[i].defaultSelected) return true;
      }
      return false;
    }
    return field.value !== field.defaultValue;
  }

  // A fold's state as the page served it: one the player opened or closed is theirs.
  function remember(root) {
    var folds = root.querySelectorAll ? root.querySelectorAll("details") : [];
    if (root.tagName === "DETAILS") root.setAttribute("data-live-open", root.open ? "1" : "0");
    for (var i = 0; i < folds.length; i++) {
      folds[i].setAttribute("data-live-open", folds[i].open ? "1" : "0");
    }
  }

  function toggled(fold) {
    return fold.getAttribute("data-live-open") !== (fold.open ? "1" : "0");
  }

  function held(el) {
    // The result of the player's own move, and what is being read out.
    if (el.id === "messages" || el.id === "live-news") return true;
    var active = document.activeElement;
    if (isField(active) && el.contains(active)) return true;
    if (isField(el) && changed(el)) return true;
    var fields = el.querySelectorAll("input, textarea, select");
    for (var i = 0; i < fields.length; i++) if (changed(fields[i])) return true;
    if (el.tagName === "DETAILS" && toggled(el)) return true;
    var folds = el.querySelectorAll("details");
    for (var j = 0; j < folds.length; j++) if (toggled(folds[j])) return true;
    return false;
  }

  // Kept whole (not merged into): a form, a field, a fold, the move's result.
  function whole(el) {
    if (el.id === "messages" || el.id === "live-news") return true;
    return /^(FORM|INPUT|TEXTAREA|SELECT|DETAILS)$/.test(el.tagName);
  }

  // --- matching the old page's elements with the new one's ----------------------------

  function kids(el) {
    var found = [];
    for (var c = el.firstElementChild; c; c = c.nextElementSibling) found.push(c);
    return found;
  }

  function shape(el) {
    return [el.tagName, el.getAttribute("name") || "", el.getAttribute("action") || ""].join("|");
  }

  // Each child's key: its id, else its shape and its place among siblings of that shape.
  function keys(children) {
    var seen = {};
    return children.map(function (el) {
      if (el.id) return "#" + el.id;
      var s = shape(el);
      seen[s] = (seen[s] || 0) + 1;
      return s + "|" + seen[s];
    });
  }

  // A move form's identity: its move and the phase it was shown for (the hidden
  // fields, less the token and the one-time key every page draws anew). A form
  // with no phase (the talk's, the settings') never goes stale.
  function identity(form) {
    var parts = [form.getAttribute("action") || ""];
    var hidden = form.querySelectorAll("input[type=hidden]");
    for (var i = 0; i < hidden.length; i++) {
      var name = hidden[i].getAttribute("name");
      if (name !== "csrfmiddlewaretoken" && name !== "key") {
        parts.push(name + "=" + hidden[i].getAttribute("value"));
      }
    }
    return parts.sort().join("&");
  }

  function markStale(el, fresh) {
    var forms = el.tagName === "FORM" ? [el] : Array.prototype.slice.call(el.querySelectorAll("form"));
    var current = {};
    var freshForms = fresh.querySelectorAll("form");
    for (var i = 0; i < freshForms.length; i++) current[identity(freshForms[i])] = true;
    var told = [];
    forms.forEach(function (form) {
      var note = form.querySelector(":scope > .live-stale");
      var phased = form.querySelector("input[type=hidden][name=version]");
      var stale = phased && method(form) === "post" && !current[identity(form)];
      if (stale && !note) {
        note = document.createElement("p");
        note.className = "msg msg-error live-stale";
        note.textContent = staleWords;
        form.insertBefore(note, form.firstChild);
        told.push(staleWords);
      } else if (!stale && note) {
        note.parentNode.removeChild(note);
      }
    });
    return told;
  }

  function method(form) {
    return (form.getAttribute("method") || "get").toLowerCase();
  }

  // Put ``fresh``'s children into ``old``, keeping what the player holds.
  function merge(old, fresh, doc, told) {
    var olds = kids(old);
    var oldKeys = keys(olds);
    var byKey = {};
    olds.forEach(function (el, i) { byKey[oldKeys[i]] = el; });
    var fresher = kids(fresh);
    var newKeys = keys(fresher);
    var kept = [];
    var cursor = null;
    fresher.forEach(function (el, i) {
      var match = byKey[newKeys[i]];
      var node;
      if (match && held(match)) {
        if (whole(match)) told.push.apply(told, markStale(match, doc));
        else {
          copyAttributes(match, el);
          merge(match, el, doc, told);
        }
        node = match;
        if (replaces(match, el)) {
          // The player's form stays, said stale; the current one comes after it,
          // and the old one gives up its id (and the place it held) to it.
          match.removeAttribute("id");
          node = document.importNode(el, true);
          remember(node);
          place(old, node, match);
        }
      } else if (match && match.outerHTML === el.outerHTML) {
        node = match;
      } else {
        node = document.importNode(el, true);
        remember(node);
        place(old, node, cursor);
      }
      kept.push(node);
      cursor = node;
    });
    olds.forEach(function (el) {
      if (kept.indexOf(el) >= 0) return;
      if (held(el)) told.push.apply(told, markStale(el, doc)); // its section is gone: kept, said stale
      else old.removeChild(el);
    });
  }

  // A new phase's form in the place of a kept one.
  function replaces(kept, fresh) {
    return kept.tagName === "FORM" && fresh.tagName === "FORM" && identity(kept) !== identity(fresh);
  }

  function place(parent, node, after) {
    var next = after ? after.nextSibling : parent.firstChild;
    parent.insertBefore(node, next);
  }

  function copyAttributes(target, source) {
    for (var i = 0; i < source.attributes.length; i++) {
      var a = source.attributes[i];
      if (target.getAttribute(a.name) !== a.value) target.setAttribute(a.name, a.value);
    }
  }

  // --- what a screen reader hears -----------------------------------------------------

  function said(root) {
    var found = {};
    var marked = root.querySelectorAll("[data-live-say]");
    for (var i = 0; i < marked.length; i++) found[marked[i].textContent.trim()] = true;
    return found;
  }

  function announce(lines) {
    if (!news || !lines.length) return;
    var text = lines.slice(0, 4).join(" ");
    news.textContent = "";
    // Emptied, then filled a moment later: read once, even when the words repeat.
    setTimeout(function () { news.textContent = text; }, 100);
  }

  // --- the loop -------------------------------------------------------------------------

  function refresh(newTag) {
    return fetch(page, { credentials: "same-origin" })
      .then(function (answer) {
        if (answer.redirected) { window.location.assign(page); return; } // signed out: sign in
        if (!answer.ok) throw new Error("page " + answer.status);
        return answer.text().then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var freshMain = doc.querySelector("main");
          if (!freshMain) return;
          var before = said(main);
          var told = [];
          merge(main, freshMain, doc, told);
          var heard = [];
          var marked = main.querySelectorAll("[data-live-say]");
          for (var i = 0; i < marked.length; i++) {
            var text = marked[i].textContent.trim();
            if (text && !before[text]) heard.push(text);
          }
          if (doc.title) document.title = doc.title;
          announce(heard.concat(told));
          tag = newTag;
          document.dispatchEvent(new CustomEvent("live:updated"));
        });
      });
  }

  function poll() {
    timer = null;
    if (document.visibilityState === "hidden" || asking) return;
    asking = true;
    fetch(url, {
      headers: { "If-None-Match": '"' + tag + '"' },
      cache: "no-store",
      credentials: "same-origin"
    })
      .then(function (answer) {
        if (answer.status === 304) return null;
        if (answer.status === 410) { window.location.assign(page); return null; } // says why
        if (!answer.ok) throw new Error("poll " + answer.status);
        return answer.text().then(function (fresh) { return refresh(fresh.trim()); });
      })
      .then(
        function () { wait = every; asking = false; later(wait); },
        function () { wait = Math.min(wait * 2, SLOWEST); asking = false; later(wait); }
      );
  }

  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  // A page in the background asks nothing; brought back, it asks at once.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") later(0);
  });
  remember(main);
  later(every);
})();
