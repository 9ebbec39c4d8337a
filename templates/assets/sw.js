// plein's service worker: the code. The site's sw.js sets `self.plein` (what this site keeps:
// its version, scope, shell, pages and texts) and then loads this file.
//
// - The shell (the theme's assets, the app's icons and the offline page) is kept under the
//   site's version, a hash of what it holds: a new build makes a new worker, which takes the
//   old shell away when it takes over.
// - Pages come from the network first, and each page that arrives is kept with the time it
//   arrived. Without a connection a kept page is shown with a note that says how old it is; a
//   page that is not kept shows the offline page. A page the server says is gone (404, 410) is
//   forgotten.
// - The home page, the newest reports and the upcoming events are kept from the first visit.
// - Only what the server sent is kept: a members-only page is kept sealed, as it was sent; what
//   the browser opens of it, a passphrase or a key never reaches this worker.
(function () {
  "use strict";
  var site = self.plein;
  var prefix = "plein:" + site.scope + ":";
  var SHELL = prefix + "shell:" + site.version;
  var PAGES = prefix + "pages";
  var SAVED = "X-Plein-Saved";
  // The most pages kept; the oldest kept go first.
  var LIMIT = 250;
  var shell = {};
  site.shell.forEach(function (path) { shell[path] = true; });

  function inScope(url) {
    if (url.origin !== self.location.origin || url.pathname.indexOf(site.scope) !== 0) return false;
    return !site.skip.some(function (path) { return url.pathname.indexOf(path) === 0; });
  }

  // A page as it is kept: the same response, with the time it arrived.
  function keep(cache, request, response) {
    var headers = new Headers(response.headers);
    headers.set(SAVED, new Date().toISOString());
    return response.blob().then(function (body) {
      return cache.put(request, new Response(body, { status: response.status, statusText: response.statusText, headers: headers }));
    });
  }

  function trim(cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.slice(0, Math.max(0, keys.length - LIMIT)).map(function (key) { return cache.delete(key); }));
    });
  }

  // Fetches a page past the browser's HTTP cache (a kept page is only ever as new as this).
  function fresh(url) {
    return fetch(new Request(url, { cache: "no-cache", credentials: "same-origin", redirect: "follow" }));
  }

  function keepable(response) {
    return response.ok && response.type === "basic" && !response.redirected
      && !/no-store/i.test(response.headers.get("Cache-Control") || "");
  }

  self.addEventListener("install", function (event) {
    event.waitUntil(caches.open(SHELL).then(function (cache) {
      return cache.addAll(site.shell.map(function (path) { return new Request(path, { cache: "no-cache" }); }));
    }).then(function () {
      // The pages kept from the first visit; one that cannot be fetched now is left out.
      return caches.open(PAGES).then(function (cache) {
        return Promise.all(site.pages.map(function (path) {
          return fresh(path).then(function (response) {
            return keepable(response) ? keep(cache, new Request(path), response) : null;
          }).catch(function () { return null; });
        })).then(function () { return trim(cache); });
      });
    }).then(function () { return self.skipWaiting(); }));
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf(prefix + "shell:") === 0 && key !== SHELL;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); }));
  });

  // How long ago a copy was kept, in the site's language.
  function age(iso) {
    var seconds = Math.round((Date.parse(iso) - Date.now()) / 1000);
    if (isNaN(seconds)) return "";
    var format = self.Intl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(site.lang, { numeric: "auto" }) : null;
    var units = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
    for (var i = 0; i < units.length; i++) {
      var count = Math.round(seconds / units[i][1]);
      if (Math.abs(seconds) >= units[i][1] || i === units.length - 1) {
        return format ? format.format(count, units[i][0]) : new Date(iso).toLocaleString(site.lang);
      }
    }
    return "";
  }

  function escapeHTML(text) {
    return text.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }

  // A kept page with a note at the top of its main content that says how old it is.
  function withAge(response) {
    var saved = response.headers.get(SAVED);
    if (!saved || (response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) return response;
    return response.text().then(function (html) {
      var note = '<p class="offline-copy" role="status"><time datetime="' + escapeHTML(saved) + '" title="'
        + escapeHTML(new Date(saved).toLocaleString(site.lang)) + '">'
        + escapeHTML(site.text.saved.split("{age}").join(age(saved))) + "</time></p>";
      var main = /<main\b[^>]*>/i.exec(html) || /<body\b[^>]*>/i.exec(html);
      if (main) html = html.slice(0, main.index + main[0].length) + "\n" + note + html.slice(main.index + main[0].length);
      var headers = new Headers(response.headers);
      headers.delete("Content-Length");
      return new Response(html, { status: response.status, statusText: response.statusText, headers: headers });
    });
  }

  function page(event) {
    var request = event.request;
    var url = request.url.split("#")[0];
    return fresh(url).then(function (response) {
      // A page moved: the browser follows the move itself.
      if (response.redirected) return Response.redirect(response.url, 302);
      if (keepable(response)) {
        var copy = response.clone();
        event.waitUntil(caches.open(PAGES).then(function (cache) {
          return keep(cache, new Request(url), copy).then(function () { return trim(cache); });
        }));
      } else if (response.status === 404 || response.status === 410) {
        event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.delete(url); }));
      }
      return response;
    }, function () {
      return caches.open(PAGES).then(function (cache) { return cache.match(url); }).then(function (kept) {
        if (kept) return withAge(kept);
        return caches.open(SHELL).then(function (cache) { return cache.match(site.offline); }).then(function (offline) {
          return offline || Response.error();
        });
      });
    });
  }

  // The shell's files are named by their content: kept, they never change.
  function fromShell(request) {
    return caches.open(SHELL).then(function (cache) { return cache.match(request); }).then(function (kept) {
      return kept || fetch(request);
    });
  }

  // Anything else of the site (photos, maps, feeds): from the network, kept for when there is
  // none.
  function other(event) {
    var request = event.request;
    return fetch(request).then(function (response) {
      if (keepable(response)) {
        var copy = response.clone();
        event.waitUntil(caches.open(PAGES).then(function (cache) {
          return keep(cache, request, copy).then(function () { return trim(cache); });
        }));
      }
      return response;
    }, function () {
      return caches.open(PAGES).then(function (cache) { return cache.match(request); }).then(function (kept) {
        if (kept) return kept;
        // A photo not kept: an empty picture rather than a broken one (its text stays in alt).
        if (request.destination === "image") {
          return new Response('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>', { headers: { "Content-Type": "image/svg+xml" } });
        }
        return Response.error();
      });
    });
  }

  self.addEventListener("fetch", function (event) {
    var request = event.request;
    if (request.method !== "GET" || request.headers.has("Range")) return;
    var url = new URL(request.url);
    if (!inScope(url)) return;
    if (shell[url.pathname] && url.pathname !== site.offline) {
      event.respondWith(fromShell(request));
    } else if (request.mode === "navigate") {
      event.respondWith(page(event));
    } else if (request.destination !== "video" && request.destination !== "audio") {
      event.respondWith(other(event));
    }
  });
})();
