{% autoescape off %}// The service worker (games/web/app_shell.py serves it at /sw.js, so that its scope
// is the whole site). It does three things, and keeps nothing personal:
//
// - the shell (styles, script, icons, manifest, the offline page) lives in one cache,
//   named after a digest of it all, and is answered from there;
// - a page the network cannot bring is answered with the offline page. Pages are
//   never stored: a seat's page (/play/...) carries its link's secret and what only
//   that seat may see, and My games, the API and every other page are someone's too.
//   Only the shell's own addresses, fetched without cookies, enter Cache Storage;
// - a push shows a notification, every time (iOS revokes a subscription whose pushes
//   show none), and tapping it opens its page on this site.
"use strict";

var APP = {{ config }};

var ORIGIN = self.location.origin;
var SHELL = APP.shell.map(function (path) { return new URL(path, ORIGIN).href; });
var GENERIC_TAG = "sheriff";

self.addEventListener("install", function (event) {
  // Past the HTTP cache (a static file keeps its name from one release to the next)
  // and without cookies: the offline page is then nobody's.
  var requests = SHELL.map(function (url) {
    return new Request(url, { cache: "reload", credentials: "omit" });
  });
  event.waitUntil(
    caches.open(APP.cache).then(function (cache) { return cache.addAll(requests); }).then(function () {
      // Nothing a page holds depends on the worker's version: the new one may take over at once.
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  var preload = self.registration.navigationPreload;
  event.waitUntil(
    Promise.all([
      caches.keys().then(function (names) {
        return Promise.all(names.filter(function (name) { return name !== APP.cache; }).map(
          function (name) { return caches.delete(name); }
        ));
      }),
      // A page's request starts while the worker wakes up, instead of after.
      preload ? preload.enable() : null,
    ]).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== ORIGIN) return;
  if (request.mode === "navigate") {
    event.respondWith(fromNetwork(event).catch(offlinePage));
  } else if (SHELL.indexOf(request.url) !== -1) {
    event.respondWith(
      caches.match(request, { cacheName: APP.cache, ignoreVary: true }).then(function (kept) {
        return kept || fetch(request);
      })
    );
  }
  // Anything else goes to the network as if there were no worker, and is not kept.
});

function fromNetwork(event) {
  return Promise.resolve(event.preloadResponse).then(function (preloaded) {
    return preloaded || fetch(event.request);
  });
}

function offlinePage() {
  // The page varies by language; the one kept is in the language the browser asked for.
  return caches.match(APP.offline, { cacheName: APP.cache, ignoreVary: true }).then(
    function (page) { return page || Response.error(); }
  );
}

self.addEventListener("push", function (event) {
  var message = pushed(event.data);
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      renotify: true,
      icon: APP.icon,
      badge: APP.badge,
      lang: message.lang,
      data: { url: message.url },
    })
  );
});

// The payload is JSON, {"title", "body", "url", "tag", "lang"}; without one, or with
// one that cannot be read, the notification still shows, in general words.
function pushed(data) {
  var message = null;
  try {
    message = data ? data.json() : null;
  } catch (error) {
    message = null;
  }
  if (!message || typeof message !== "object" || !text(message.title)) {
    message = { title: APP.generic.title, body: APP.generic.body, lang: APP.generic.lang };
  }
  return {
    title: message.title,
    body: text(message.body) || "",
    tag: text(message.tag) || GENERIC_TAG,
    lang: text(message.lang) || APP.generic.lang,
    url: ownUrl(message.url),
  };
}

function text(value) {
  return typeof value === "string" && value ? value : null;
}

// Only this site's addresses are opened: anything else opens My games.
function ownUrl(url) {
  var mine = new URL(APP.myGames, ORIGIN).href;
  if (!text(url)) return mine;
  try {
    var parsed = new URL(url, ORIGIN);
    return parsed.origin === ORIGIN ? parsed.href : mine;
  } catch (error) {
    return mine;
  }
}

function withoutHash(url) {
  return url.split("#")[0];
}

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = ownUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (withoutHash(windows[i].url) === withoutHash(url) && "focus" in windows[i]) {
          return windows[i].focus();
        }
      }
      return self.clients.openWindow(url);
    })
  );
});

// The browser renewed or dropped this device's subscription (its push service moved it,
// or it expired): subscribe again with the old one's options and tell the site, which
// moves the person's device to the new endpoint (games/web/push_settings.py, renew). A
// worker reads no cookie, so no CSRF token: the old subscription's own secret proves
// the move, which only this browser and the site know. Without an old subscription
// there is nothing to prove it with; the pages' script (games/static/games/push.js)
// tells the site when the app next opens.
self.addEventListener("pushsubscriptionchange", function (event) {
  var old = event.oldSubscription;
  var secret = old && old.getKey ? old.getKey("auth") : null;
  if (!old || !secret) return;
  var fresh = event.newSubscription
    ? Promise.resolve(event.newSubscription)
    : self.registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: old.options.applicationServerKey,
      });
  event.waitUntil(
    fresh.then(function (subscription) {
      return fetch("/push/renew/", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "omit",
        body: JSON.stringify({
          subscription: subscription.toJSON(),
          old_endpoint: old.endpoint,
          old_auth: base64url(secret),
        }),
      });
    }).catch(function () {})
  );
});

function base64url(buffer) {
  var bytes = new Uint8Array(buffer);
  var text = "";
  for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
{% endautoescape %}
