// plein's service worker: the code. The site's sw.js sets `self.plein` (what this site keeps:
// its version, scope, shell, pages and texts) and then loads this file.
//
// - The shell (the theme's assets, the app's icons and the offline page) is kept under the
//   site's version, a hash of what it holds: a new build with another shell makes a worker that
//   takes the old shell away when it takes over (its files stay among the other files kept, for
//   the kept pages that name them).
// - Pages come from the network first, and each page that arrives is kept with the time it
//   arrived. Without a connection a kept page is shown with a note that says how old it is; a
//   page that is not kept shows the offline page. A page the server says is gone (404, 410) is
//   forgotten.
// - The home page, the newest reports and the upcoming events are kept from the first visit,
//   and stay kept however many pages are visited after them. Other files (photos, maps) are kept
//   apart, so that they never push pages out.
// - Only what the server sent is kept: a members-only page is kept sealed, as it was sent; what
//   the browser opens of it, a passphrase or a key never reaches this worker.
(function () {
  "use strict";
  var site = self.plein;
  var prefix = "plein:" + site.scope + ":";
  var SHELL = prefix + "shell:" + site.version;
  var PAGES = prefix + "pages";
  var MEDIA = prefix + "media";
  var SAVED = "X-Plein-Saved";
  // The most pages, and the most other files (photos, maps, an older shell's files), kept: the
  // oldest kept go first, but never the pages kept from the first visit.
  var LIMIT = 250;
  var shell = {}, pinned = {};
  site.shell.forEach(function (path) { shell[path] = true; });
  site.pages.forEach(function (path) { pinned[new URL(path, self.location.origin).href] = true; });

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
      var loose = keys.filter(function (key) { return !pinned[key.url]; });
      return Promise.all(loose.slice(0, Math.max(0, loose.length - LIMIT)).map(function (key) { return cache.delete(key); }));
    });
  }

  // Fetches a page past the browser's HTTP cache (a kept page is only ever as new as this). A
  // page that moved comes back as the move (an opaque redirect), which the browser follows
  // itself, to another site too.
  function fresh(url) {
    return fetch(new Request(url, { cache: "no-cache", credentials: "same-origin", redirect: "manual" }));
  }

  function keepable(response) {
    return response.ok && response.type === "basic" && !response.redirected
      && !/no-store/i.test(response.headers.get("Cache-Control") || "");
  }

  // Each of `paths` that `cache` lacks, fetched with `get` and kept with `put`; one that cannot
  // be fetched now is left out, unless `all` (the shell: a worker without it is no worker).
  function fill(cache, paths, get, put, all) {
    return Promise.all(paths.map(function (path) {
      return cache.match(path).then(function (kept) {
        if (kept) return null;
        return get(path).then(function (response) {
          if (keepable(response)) return put(path, response);
          if (all) throw new Error(path + ": " + response.status);
          return null;
        }, function (error) { if (all) throw error; return null; });
      });
    }));
  }

  self.addEventListener("install", function (event) {
    event.waitUntil(caches.open(SHELL).then(function (cache) {
      return fill(cache, site.shell, function (path) { return fetch(new Request(path, { cache: "no-cache" })); },
        function (path, response) { return cache.put(path, response); }, true);
    }).then(function () {
      // The pages kept from the first visit (a page kept already is brought up to date when it
      // is visited).
      return caches.open(PAGES).then(function (cache) {
        return fill(cache, site.pages, fresh, function (path, response) { return keep(cache, new Request(path), response); }, false)
          .then(function () { return trim(cache); });
      });
    }).then(function () { return self.skipWaiting(); }));
  });

  // An older shell's files go to the other files kept, for the pages kept that name them; then
  // the older shell goes.
  self.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf(prefix + "shell:") === 0 && key !== SHELL;
      }).map(function (key) {
        return Promise.all([caches.open(key), caches.open(MEDIA)]).then(function (both) {
          return both[0].keys().then(function (requests) {
            return Promise.all(requests.filter(function (request) {
              return new URL(request.url).pathname !== site.offline;
            }).map(function (request) {
              return both[0].match(request).then(function (response) { return both[1].put(request, response); });
            }));
          }).then(function () { return trim(both[1]); });
        }).then(function () { return caches.delete(key); });
      }));
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
      return caches.open(PAGES).then(function (cache) {
        return cache.match(url).then(function (kept) { return kept || cache.match(url, { ignoreSearch: true }); });
      }).then(function (kept) {
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

  // Anything else of the site (photos, maps, feeds, an older theme's files): from the network,
  // kept for when there is none.
  function other(event) {
    var request = event.request;
    return fetch(request).then(function (response) {
      if (keepable(response)) {
        var copy = response.clone();
        event.waitUntil(caches.open(MEDIA).then(function (cache) {
          return keep(cache, request, copy).then(function () { return trim(cache); });
        }));
      }
      return response;
    }, function () {
      return caches.match(request).then(function (kept) {
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
