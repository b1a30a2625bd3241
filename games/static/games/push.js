// Web Push on this device (games/web/push_settings.py). On every page: once each time
// the app opens, when notifications are allowed and the browser holds a subscription,
// tell the site (POST /push/renew/), so that it keeps sending to this device, follows
// the browser to a new endpoint, and has the device subscribe again once the site's
// keys have changed. On the settings page: its "Notifications on this device" section.
//
// The device keeps one thing in localStorage, "sheriff.push": its own subscription's
// endpoint and secret as the site last heard them (and the site's public key), which
// prove a move to a new endpoint. Nothing of any game, and no seat's link.
(function () {
  "use strict";
  var KEPT = "sheriff.push";
  var RENEWED = "sheriff.push.renewed"; // sessionStorage: this opening of the app
  var RENEW_URL = "/push/renew/";
  var supported =
    "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function b64url(buffer) {
    if (!buffer) return "";
    var bytes = new Uint8Array(buffer), text = "";
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromB64url(text) {
    var padded = text.replace(/-/g, "+").replace(/_/g, "/");
    padded += "===".slice((padded.length + 3) % 4);
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function read(store, key) {
    try {
      return JSON.parse(store.getItem(key) || "null");
    } catch (error) {
      return null;
    }
  }

  function write(store, key, value) {
    try {
      if (value === null) store.removeItem(key);
      else store.setItem(key, JSON.stringify(value));
    } catch (error) {
      // Storage refused (a private window): the next opening renews again.
    }
  }

  function keep(subscription, key) {
    var json = subscription.toJSON();
    write(localStorage, KEPT, { endpoint: json.endpoint, auth: json.keys.auth, key: key || "" });
  }

  function post(url, body, token) {
    var headers = { "Content-Type": "application/json" };
    if (token) headers["X-CSRFToken"] = token;
    return fetch(url, {
      method: "POST",
      headers: headers,
      body: JSON.stringify(body),
      credentials: "same-origin",
    }).then(function (response) {
      return response.json().then(
        function (answer) { answer.status = response.status; return answer; },
        function () { return { ok: false, status: response.status }; }
      );
    });
  }

  function subscribeWith(registration, key) {
    return registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: fromB64url(key),
    });
  }

  function keyOf(subscription) {
    return b64url(subscription.options && subscription.options.applicationServerKey);
  }

  // The subscription the site knows as ``old`` (endpoint and secret), now ``current``.
  function renew(current, old) {
    var body = { subscription: current.toJSON() };
    if (old && old.endpoint && old.endpoint !== current.endpoint) {
      body.old_endpoint = old.endpoint;
      body.old_auth = old.auth;
    }
    return post(RENEW_URL, body).then(function (answer) {
      if (answer.status === 404 && body.old_endpoint) return renew(current, null);
      return answer;
    });
  }

  function renewOnOpening(registration) {
    return registration.pushManager.getSubscription().then(function (current) {
      var kept = read(localStorage, KEPT);
      if (!current && kept && kept.key) {
        // The browser dropped it without a word: subscribe again with the same key.
        return subscribeWith(registration, kept.key).then(function (fresh) {
          return renewAndKeep(registration, fresh, kept);
        });
      }
      if (!current) return null;
      return renewAndKeep(registration, current, kept);
    });
  }

  function renewAndKeep(registration, current, kept) {
    return renew(current, kept).then(function (answer) {
      if (!answer.ok) {
        if (answer.status === 404) write(localStorage, KEPT, null); // the site dropped it
        return answer;
      }
      write(sessionStorage, RENEWED, true);
      if (answer.key && answer.key !== keyOf(current)) {
        // The site's keys changed: a subscription made with the old one is refused by
        // the push service. A new one, which the site learns from the old one's secret.
        var old = { endpoint: current.endpoint, auth: current.toJSON().keys.auth };
        return current.unsubscribe().then(function () {
          return subscribeWith(registration, answer.key);
        }).then(function (fresh) {
          return renew(fresh, old).then(function (again) {
            if (again.ok) keep(fresh, answer.key);
            return again;
          });
        });
      }
      keep(current, answer.key);
      return answer;
    });
  }

  function registration() {
    return navigator.serviceWorker.getRegistration("/").then(function (found) {
      return found || navigator.serviceWorker.register("/sw.js", { scope: "/" });
    }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  // --- every page ------------------------------------------------------------------
  if (supported && Notification.permission === "granted" && !read(sessionStorage, RENEWED)) {
    navigator.serviceWorker.getRegistration("/").then(function (found) {
      return found ? renewOnOpening(found) : null;
    }).catch(function () {});
  }

  // --- the settings page's section -------------------------------------------------
  var section = document.getElementById("push");
  if (!section || !section.dataset.key) return;
  var form = section.querySelector("form.push-form");
  var status = section.querySelector("#push-status");
  var buttons = {
    on: section.querySelector("[data-push=on]"),
    save: section.querySelector("[data-push=save]"),
    off: section.querySelector("[data-push=off]"),
  };
  var devices = JSON.parse(section.dataset.devices || "{}");
  var token = form.querySelector("input[name=csrfmiddlewaretoken]").value;

  function show(state) {
    section.querySelectorAll("[data-push-shown]").forEach(function (element) {
      element.hidden = element.dataset.pushShown !== state;
    });
  }

  function say(text, failed) {
    status.textContent = text || "";
    status.className = "push-status msg " + (failed ? "msg-error" : "msg-success");
  }

  function kinds() {
    return Array.prototype.map.call(form.querySelectorAll("input[name=kind]:checked"), function (box) {
      return box.value;
    });
  }

  function setKinds(chosen) {
    form.querySelectorAll("input[name=kind]").forEach(function (box) {
      box.checked = chosen.indexOf(box.value) !== -1;
    });
  }

  function turnedOn(on) {
    buttons.on.hidden = on;
    buttons.save.hidden = !on;
    buttons.off.hidden = !on;
  }

  function digest(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (hash) {
      return Array.prototype.map.call(new Uint8Array(hash), function (byte) {
        return ("0" + byte.toString(16)).slice(-2);
      }).join("");
    });
  }

  function current() {
    return registration().then(function (found) { return found.pushManager.getSubscription(); });
  }

  function failed(answer) {
    say((answer && answer.error) || section.dataset.saidFailed, true);
  }

  if (!supported) {
    show("unsupported");
    return;
  }
  if (Notification.permission === "denied") {
    show("denied");
    return;
  }
  show("ready");
  turnedOn(false);
  current().then(function (subscription) {
    if (!subscription || !window.crypto || !crypto.subtle) return;
    return digest(subscription.endpoint).then(function (hash) {
      if (!devices[hash]) return;
      setKinds(devices[hash]);
      turnedOn(true);
      say(section.dataset.saidOn);
    });
  }).catch(function () {});

  buttons.on.addEventListener("click", function () {
    var chosen = kinds();
    // Asked at once, within the tap: Safari asks only from a person's gesture.
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        show(permission === "denied" ? "denied" : "ready");
        return null;
      }
      return registration().then(function (found) {
        return found.pushManager.getSubscription().then(function (old) {
          // One made with keys the site no longer has cannot be reused: a new one.
          if (!old || keyOf(old) === section.dataset.key) return subscribeWith(found, section.dataset.key);
          return old.unsubscribe().then(function () {
            return subscribeWith(found, section.dataset.key);
          });
        });
      }).then(function (subscription) {
        return post(section.dataset.subscribe, { subscription: subscription.toJSON(), kinds: chosen }, token)
          .then(function (answer) {
            if (!answer.ok) return failed(answer);
            keep(subscription, section.dataset.key);
            write(sessionStorage, RENEWED, true);
            turnedOn(true);
            say(answer.message);
          });
      });
    }).catch(function () { failed(null); });
  });

  buttons.save.addEventListener("click", function () {
    current().then(function (subscription) {
      if (!subscription) return turnedOn(false);
      return post(section.dataset.choose, { endpoint: subscription.endpoint, kinds: kinds() }, token)
        .then(function (answer) { return answer.ok ? say(answer.message) : failed(answer); });
    }).catch(function () { failed(null); });
  });

  buttons.off.addEventListener("click", function () {
    current().then(function (subscription) {
      if (!subscription) {
        turnedOn(false);
        return say(section.dataset.saidOff);
      }
      return post(section.dataset.unsubscribe, { endpoint: subscription.endpoint }, token)
        .then(function (answer) {
          if (!answer.ok) return failed(answer);
          write(localStorage, KEPT, null);
          return subscription.unsubscribe().then(function () {
            turnedOn(false);
            say(answer.message);
          });
        });
    }).catch(function () { failed(null); });
  });
})();
