// plein: opens the pages of a members-only group in the browser (docs/encryption.md is the
// format). The passphrase gives the group key (PBKDF2-HMAC-SHA256); each page and photo has a
// key of its own, derived from it (HKDF-SHA256), and is sealed with AES-256-GCM. Everything is
// done by the browser's Web Crypto; nothing here is cryptography of its own.
//
// The group key is a non-extractable CryptoKey. It is kept in memory while the member moves
// between the group's pages, and in IndexedDB only when they ask this device to remember it;
// "Lock and forget" removes it. The passphrase and the key's bytes are never stored.
(function () {
  "use strict";

  var MAGIC = new TextEncoder().encode("plnseal1");
  var ID_LENGTH = 32;
  var DATABASE = "plein-sealed";
  var STORE = "keys";
  // Shared with the copy of this script that the next page of the group loads into this window.
  var state = window.pleinSealed || (window.pleinSealed = { keys: {} });

  function bytes(base64) {
    var text = atob(base64.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/"));
    var out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }

  function join(parts) {
    var length = parts.reduce(function (n, p) { return n + p.length; }, 0);
    var out = new Uint8Array(length), at = 0;
    parts.forEach(function (p) { out.set(p, at); at += p.length; });
    return out;
  }

  // The group key: PBKDF2-HMAC-SHA256 of the passphrase, 32 bytes, as an HKDF key that cannot
  // be exported. (Web Crypto cannot derive an HKDF key from PBKDF2 directly: its bits pass
  // through here once and are dropped.)
  function groupKey(passphrase, salt, iterations) {
    var subtle = crypto.subtle;
    return subtle.importKey("raw", new TextEncoder().encode(passphrase), "PBKDF2", false, ["deriveBits"])
      .then(function (base) {
        return subtle.deriveBits({ name: "PBKDF2", salt: salt, iterations: iterations, hash: "SHA-256" }, base, 256);
      })
      .then(function (bits) { return subtle.importKey("raw", bits, "HKDF", false, ["deriveKey"]); });
  }

  // The plaintext of a sealed output published at `path`: "plnseal1", the output's id (32
  // bytes), then AES-256-GCM's ciphertext and tag under HKDF(group key, salt: id, info: path).
  function open(key, envelope, path) {
    if (envelope.length < MAGIC.length + ID_LENGTH + 16) return Promise.reject(new Error("not sealed"));
    for (var i = 0; i < MAGIC.length; i++) if (envelope[i] !== MAGIC[i]) return Promise.reject(new Error("not sealed"));
    var id = envelope.slice(MAGIC.length, MAGIC.length + ID_LENGTH);
    var info = join([new TextEncoder().encode("plein sealed output v1"), new Uint8Array([0]), new TextEncoder().encode(path)]);
    return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: id, info: info }, key, { name: "AES-GCM", length: 256 }, false, ["decrypt"])
      .then(function (outputKey) {
        return crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12), additionalData: MAGIC, tagLength: 128 }, outputKey,
          envelope.slice(MAGIC.length + ID_LENGTH));
      })
      .then(function (plain) { return new Uint8Array(plain); });
  }

  function database() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function keyStore(mode, action) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(STORE, mode);
        var request = action(transaction.objectStore(STORE));
        transaction.oncomplete = function () { db.close(); resolve(request.result); };
        transaction.onerror = transaction.onabort = function () { db.close(); reject(transaction.error); };
      });
    });
  }

  // Keys are kept by the group's salt, which is the site's and the group's own.
  function remembered(name) {
    return keyStore("readonly", function (store) { return store.get(name); }).catch(function () { return undefined; });
  }
  function remember(name, key) {
    return keyStore("readwrite", function (store) { return store.put(key, name); });
  }
  function forget(name) {
    delete state.keys[name];
    return keyStore("readwrite", function (store) { return store.delete(name); }).catch(function () {});
  }

  // The site path of a sealed file from its URL (its key is bound to that path).
  function pathOf(url, root) {
    var pathname = decodeURIComponent(new URL(url, location.href).pathname);
    return pathname.indexOf(root) === 0 ? pathname.slice(root.length) : pathname.replace(/^\//, "");
  }

  // The path a page's envelope must be bound to: the page's own, from its URL. A page served at
  // another address than its own is refused, as a moved photo is.
  function pagePath(url, root) {
    var path = pathOf(url, root);
    return path === "" || path.slice(-1) === "/" ? path + "index.html" : path;
  }

  // The address of a page plein sealed, as a path from the site's root, or null: a members-only
  // group's own page (`groups/<g>/index.html`) and its other pages (`groups/<g>/sealed/<32 hex>/`),
  // and a thread's page (`messages/<32 hex>/`). Nothing else is ever opened: not an address with an
  // encoded slash, backslash or dot (a host may decode it and serve another file, such as a report's
  // attachment holding a page a member forged with the group's key), nor one with dot segments.
  function sealedAddress(url, root) {
    var parsed = new URL(url, location.href);
    if (parsed.origin !== location.origin || /%2f|%5c|%2e|\\/i.test(parsed.pathname)) return null;
    var path = pagePath(parsed.href, root);
    // (Group ids and tokens hold no dot or slash: the patterns leave no room for dot segments.)
    return /^groups\/[a-z0-9]+(-[a-z0-9]+)*\/(sealed\/[0-9a-f]{32}\/)?index\.html$/.test(path) || /^messages\/[0-9a-f]{32}\/index\.html$/.test(path)
      ? path : null;
  }

  function isSealed(url) { return /\/sealed\/[0-9a-f]+\.bin$/.test(new URL(url, location.href).pathname); }

  // The sealed photos and videos of a page, which the browser must not load as they are: their
  // URLs move to data attributes, opened once the page is shown. Of a `srcset`, the smallest
  // candidate at least twice as wide as the image is shown is kept.
  function holdMedia(doc) {
    Array.prototype.forEach.call(doc.querySelectorAll("picture source[srcset]"), function (source) {
      if (source.getAttribute("srcset").split(",").some(function (c) { return isSealed(c.trim().split(/\s+/)[0]); })) source.remove();
    });
    Array.prototype.forEach.call(doc.querySelectorAll("img[srcset]"), function (img) {
      var candidates = img.getAttribute("srcset").split(",").map(function (c) {
        var parts = c.trim().split(/\s+/);
        return { url: parts[0], width: parseInt(parts[1], 10) || 0 };
      }).sort(function (a, b) { return a.width - b.width; });
      var want = 2 * (parseInt(img.getAttribute("width"), 10) || 400);
      var chosen = candidates.filter(function (c) { return c.width >= want; })[0] || candidates[candidates.length - 1];
      if (chosen && isSealed(chosen.url)) {
        img.removeAttribute("srcset");
        img.removeAttribute("sizes");
        img.setAttribute("src", chosen.url);
      }
    });
    [["src", "[src]"], ["poster", "video[poster]"], ["href", "a[href]"]].forEach(function (pair) {
      Array.prototype.forEach.call(doc.querySelectorAll(pair[1]), function (element) {
        var url = element.getAttribute(pair[0]);
        if (!isSealed(url)) return;
        element.setAttribute("data-sealed-" + pair[0], url);
        element.removeAttribute(pair[0]);
      });
    });
  }

  function openMedia(key, root) {
    var blobs = {};
    function blob(url, type) {
      if (!blobs[url]) {
        blobs[url] = fetch(url).then(function (response) {
          if (!response.ok) throw new Error(url + ": " + response.status);
          return response.arrayBuffer();
        }).then(function (buffer) { return open(key, new Uint8Array(buffer), pathOf(url, root)); })
          .then(function (plain) { return URL.createObjectURL(new Blob([plain], type ? { type: type } : {})); });
      }
      return blobs[url];
    }
    var work = [];
    ["src", "poster"].forEach(function (attribute) {
      Array.prototype.forEach.call(document.querySelectorAll("[data-sealed-" + attribute + "]"), function (element) {
        var type = element.tagName === "SOURCE" ? element.getAttribute("type") : null;
        work.push(blob(element.getAttribute("data-sealed-" + attribute), type).then(function (url) {
          element.setAttribute(attribute, url);
          var video = element.tagName === "SOURCE" ? element.parentElement : null;
          if (video && video.load) video.load();
        }));
      });
    });
    // A link to a sealed file (the full-size photo) opens it when followed.
    Array.prototype.forEach.call(document.querySelectorAll("a[data-sealed-href]"), function (link) {
      link.setAttribute("href", "#");
      link.addEventListener("click", function (event) {
        event.preventDefault();
        blob(link.getAttribute("data-sealed-href"), null).then(function (url) { location.href = url; });
      });
    });
    return Promise.all(work);
  }

  // The locked page's form and sealed page, from this document or a fetched one.
  function lockedParts(doc) {
    var form = doc.querySelector(".sealed-form");
    var envelope = doc.getElementById("sealed-envelope");
    return form && envelope ? { form: form, envelope: bytes(envelope.textContent) } : null;
  }

  // Shows the opened page in place of the locked one: its scripts run as on any page, and the
  // group's other pages open in the same way while the key is in memory.
  function show(plain, key, settings, url, push) {
    var doc = new DOMParser().parseFromString(new TextDecoder().decode(plain), "text/html");
    holdMedia(doc);
    // A group's page offers to lock it again; a thread's key is its link, kept by nobody.
    var main = doc.getElementById("main");
    if (main && !settings.byLink) {
      var bar = doc.createElement("p");
      bar.className = "sealed-bar notice";
      bar.textContent = settings.unlocked + " ";
      var lock = doc.createElement("button");
      lock.type = "button";
      lock.className = "sealed-forget";
      lock.textContent = settings.forget;
      bar.appendChild(lock);
      main.insertBefore(bar, main.firstChild);
    }
    if (push) history.pushState({ sealed: true }, "", url);
    var html = "<!DOCTYPE html>\n" + doc.documentElement.outerHTML;
    document.open();
    document.write(html);
    document.close();
    var forgetButton = document.querySelector(".sealed-forget");
    if (forgetButton) forgetButton.addEventListener("click", function () {
      forget(settings.name).then(function () { location.reload(); });
    });
    follow(key, settings);
    // A photo or video that cannot be opened leaves the page open, and says so in it.
    openMedia(key, settings.root).catch(function () {
      var notice = document.createElement("p");
      notice.className = "notice";
      notice.setAttribute("role", "alert");
      notice.textContent = settings.failed;
      var main = document.getElementById("main");
      if (main) main.insertBefore(notice, main.firstChild);
    });
  }

  // Links to the group's other pages: fetched, opened with the key in memory, shown in place.
  function follow(key, settings) {
    var shown = location.pathname;
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[href]");
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || link.target) return;
      var url = new URL(link.getAttribute("href"), location.href);
      if (url.origin !== location.origin) return;
      if (url.pathname === location.pathname) {
        // A place in the page (the skip link, a message): scrolled to, so that the address keeps
        // what it holds (a thread's key) and no page is opened again.
        var target = url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)));
        if (target) {
          event.preventDefault();
          target.scrollIntoView();
          if (target.focus) target.focus({ preventScroll: true });
        }
        return;
      }
      // Only the group's own sealed pages open in place; any other address is left to the browser.
      if (!url.pathname.startsWith(settings.groupRoot) || !sealedAddress(url.href, settings.root)) return;
      event.preventDefault();
      visit(url.href, key, settings, true).catch(function () { location.href = url.href; });
    });
    window.onpopstate = function () {
      if (location.pathname === shown) return;
      visit(location.href, key, settings, false).catch(function () { location.reload(); });
    };
  }

  function visit(url, key, settings, push) {
    var address = sealedAddress(url, settings.root);
    if (!address) return Promise.reject(new Error("not a sealed page's address"));
    return fetch(url, { redirect: "error" }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      // A page, as plein publishes it: never a file of another type read as one.
      if (!/^text\/html\s*(;|$)/i.test(response.headers.get("Content-Type") || "")) throw new Error("not a page");
      return response.text();
    }).then(function (text) {
      var parts = lockedParts(new DOMParser().parseFromString(text, "text/html"));
      if (!parts || parts.form.dataset.path !== address) throw new Error("not this address's sealed page");
      return open(key, parts.envelope, parts.form.dataset.path).then(function (plain) {
        settings.path = parts.form.dataset.path;
        show(plain, key, settings, url, push);
      });
    });
  }

  function start() {
    var parts = lockedParts(document);
    if (!parts) return;
    var form = parts.form;
    var data = form.dataset;
    // The group's folder (`groups/<g>/`): its pages are opened in place.
    var groupRoot = data.root + data.path.split("/").slice(0, 2).join("/") + "/";
    var settings = {
      name: data.salt || "", root: data.root, path: data.path, groupRoot: groupRoot, unlocked: data.unlocked, forget: data.forget,
      failed: data.failed, byLink: !!data.link,
    };
    var status = form.querySelector(".sealed-status");
    // The form is never sent anywhere: what is typed in it stays in this page.
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    function refuse(message) {
      status.textContent = message;
      Array.prototype.forEach.call(form.elements, function (element) { element.disabled = true; });
    }
    if (!window.crypto || !crypto.subtle || (!settings.byLink && !window.indexedDB)) return refuse(data.unsupported);
    if (data.path !== pagePath(location.href, data.root) || sealedAddress(location.href, data.root) !== data.path) return refuse(data.failed);
    function failed() { status.textContent = data.failed; }
    function tryKey(key) {
      return open(key, parts.envelope, data.path).then(function (plain) {
        state.keys[settings.name] = key;
        show(plain, key, settings, location.href, false);
      });
    }
    // A thread: its key is the link's part after "#" (base64url, 32 bytes), which no server sees.
    if (settings.byLink) {
      var fragment = location.hash.slice(1);
      if (!/^[A-Za-z0-9_-]{43}$/.test(fragment)) {
        status.textContent = data.wrong;
        return;
      }
      crypto.subtle.importKey("raw", bytes(fragment), "HKDF", false, ["deriveKey"])
        .then(tryKey)
        .catch(function () { status.textContent = data.wrong; });
      return;
    }
    var known = state.keys[settings.name];
    (known ? Promise.resolve(known) : remembered(settings.name)).then(function (key) {
      // A key that no longer opens the page (the passphrase changed) is forgotten.
      if (key) return tryKey(key).catch(function () { return forget(settings.name); });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      status.textContent = data.opening;
      // As the build does: the passphrase's UTF-8 bytes in Unicode NFC, spaces around it dropped.
      var passphrase = form.elements.passphrase.value.normalize("NFC").trim();
      groupKey(passphrase, bytes(data.salt), parseInt(data.iterations, 10)).then(function (key) {
        return open(key, parts.envelope, data.path).then(function () {
          // A key that cannot be kept (private browsing) still opens the page.
          return form.elements.remember.checked ? remember(settings.name, key).catch(function () {}) : undefined;
        }, function () {
          status.textContent = data.wrong;
          form.elements.passphrase.select();
          throw null;
        }).then(function () { return tryKey(key); });
      }).catch(function (error) { if (error) failed(); });
    });
  }

  start();
})();
