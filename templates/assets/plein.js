// plein: small enhancements. Every page works without this script; each feature below only
// starts when the elements it needs are on the page, and one failing feature never stops the others.
(function () {
  "use strict";

  var lang = document.documentElement.lang || "en";

  function each(selector, fn, root) {
    Array.prototype.forEach.call((root || document).querySelectorAll(selector), fn);
  }
  function feature(fn) {
    try { fn(); } catch (e) { if (window.console) console.error(e); }
  }
  // Fills "{name}" placeholders in a text that a template put in a data attribute.
  function fill(template, values) {
    Object.keys(values || {}).forEach(function (k) { template = template.split("{" + k + "}").join(values[k]); });
    return template;
  }

  // On a phone the navigation scrolls sideways: bring the current section into view.
  feature(function () {
    var nav = document.querySelector(".site-nav");
    var current = nav && nav.querySelector("a[aria-current]");
    if (!current || nav.scrollWidth <= nav.clientWidth) return;
    var n = nav.getBoundingClientRect(), c = current.getBoundingClientRect();
    if (c.left < n.left || c.right > n.right) nav.scrollLeft += c.left - n.left - (n.width - c.width) / 2;
  });

  // Relative times ("3 uur geleden") for recent <time data-relative> elements; the full date
  // stays in the title.
  feature(function () {
    if (!window.Intl || !Intl.RelativeTimeFormat) return;
    var rtf = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
    var now = Date.now();
    each("time[data-relative]", function (el) {
      var then = Date.parse(el.getAttribute("datetime"));
      if (isNaN(then)) return;
      var seconds = Math.round((then - now) / 1000);
      var abs = Math.abs(seconds);
      if (abs > 7 * 86400) return;
      var text;
      if (abs < 60) text = rtf.format(seconds, "second");
      else if (abs < 3600) text = rtf.format(Math.round(seconds / 60), "minute");
      else if (abs < 86400) text = rtf.format(Math.round(seconds / 3600), "hour");
      else text = rtf.format(Math.round(seconds / 86400), "day");
      el.title = el.textContent;
      el.textContent = text;
    });
  });

  // Name filters: <input data-filter="#list"> hides items whose data-name does not match.
  feature(function () {
    var normalize = function (s) {
      return (s.normalize ? s.normalize("NFD") : s).replace(/[\u0300-\u036f]/g, "").toLowerCase();
    };
    each("input[data-filter]", function (input) {
      var list = document.querySelector(input.getAttribute("data-filter"));
      if (!list) return;
      var box = input.closest(".filter");
      if (box) box.hidden = false;
      input.addEventListener("input", function () {
        var q = normalize(input.value.trim());
        each("[data-name]", function (item) {
          item.hidden = q !== "" && normalize(item.getAttribute("data-name")).indexOf(q) === -1;
        }, list);
        // A group of names (a place on /now/) goes when none of its names is left.
        Array.prototype.forEach.call(list.children, function (child) {
          if (child.hasAttribute("data-name") || !child.querySelector("[data-name]")) return;
          child.hidden = !child.querySelector("[data-name]:not([hidden])");
        });
      });
    });
  });

  // Category filter on area pages. A status line says how many reports are shown: with the
  // template's own words when it gives them (data-text-shown="{n} of {total} reports"),
  // otherwise, for screen readers only, the chosen button's label.
  feature(function () {
    each(".category-filter", function (filter) {
      var target = document.querySelector(filter.getAttribute("data-filter-target"));
      if (!target) return;
      var buttons = filter.querySelectorAll("button[data-category]");
      if (!buttons.length) return;
      var words = filter.getAttribute("data-text-shown");
      var status = document.createElement("p");
      status.className = words ? "filter-status" : "filter-status visually-hidden";
      status.setAttribute("role", "status");
      filter.appendChild(status);
      filter.hidden = false;
      var cards = target.querySelectorAll("[data-category]");
      Array.prototype.forEach.call(buttons, function (button) {
        button.addEventListener("click", function () {
          var category = button.getAttribute("data-category");
          var shown = 0;
          Array.prototype.forEach.call(buttons, function (b) { b.setAttribute("aria-pressed", String(b === button)); });
          Array.prototype.forEach.call(cards, function (card) {
            card.hidden = category !== "" && card.getAttribute("data-category") !== category;
            if (!card.hidden) shown++;
          });
          status.textContent = words
            ? fill(words, { n: shown, total: cards.length })
            : button.textContent.replace(/\s+/g, " ").trim() + (category === "" ? " (" + shown + ")" : "");
        });
      });
    });
  });

  // Wide tables scroll sideways in their own box instead of squeezing their words. The box is
  // a named group (not a landmark: the section round it is one already), and focusable only
  // while it can actually scroll, so keyboards can reach it.
  feature(function () {
    var boxes = [];
    each("table.data", function (table) {
      if (table.parentNode.classList.contains("table-scroll")) { boxes.push(table.parentNode); return; }
      var box = document.createElement("div");
      box.className = "table-scroll";
      box.setAttribute("role", "group");
      var caption = table.querySelector("caption");
      if (caption && caption.textContent.trim()) box.setAttribute("aria-label", caption.textContent.trim());
      table.parentNode.insertBefore(box, table);
      box.appendChild(table);
      boxes.push(box);
    });
    if (!boxes.length) return;
    var update = function () {
      boxes.forEach(function (box) {
        if (box.scrollWidth > box.clientWidth + 1) box.setAttribute("tabindex", "0");
        else if (box.getAttribute("role") === "group") box.removeAttribute("tabindex");
      });
    };
    update();
    var timer;
    window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(update, 150); });
  });

  // Interactive maps: where Leaflet is loaded, a tile map of the same GeoJSON replaces the SVG
  // drawing once its first tile has arrived. Offline, the drawing simply stays.
  feature(function () {
    if (!window.L || !window.fetch) return;
    each("figure.map[data-geojson]", function (figure) {
      var frame = figure.querySelector(".map-frame");
      var tileURL = figure.getAttribute("data-tiles");
      if (!frame || !tileURL) return;
      var holder = document.createElement("div");
      holder.className = "map-live";
      frame.appendChild(holder);
      var map = L.map(holder, { scrollWheelZoom: false });
      var tiles = L.tileLayer(tileURL, {
        attribution: figure.getAttribute("data-attribution") || "",
        maxZoom: 19
      });
      tiles.once("tileload", function () {
        figure.classList.add("map-is-live");
        var drawing = frame.querySelector(".map-svg");
        if (drawing) drawing.setAttribute("aria-hidden", "true");
        map.invalidateSize();
      });
      tiles.addTo(map);
      fetch(figure.getAttribute("data-geojson")).then(function (r) { return r.json(); }).then(function (data) {
        var layer = L.geoJSON(data, {
          pointToLayer: function (feature, latlng) {
            var color = feature.properties["marker-color"] || "#1d4ed8";
            return L.circleMarker(latlng, { radius: 8, color: "#fff", weight: 2, fillColor: color, fillOpacity: 1 });
          },
          // Leaflet styles point markers with this too: each keeps its category's colour.
          style: function (feature) {
            var p = feature.properties || {};
            if (feature.geometry && feature.geometry.type === "Point") {
              return { color: "#fff", weight: 2, fillColor: p["marker-color"] || "#1d4ed8", fillOpacity: 1 };
            }
            return { color: p.stroke || "#1d4ed8", weight: p["stroke-width"] || 2, fillColor: p.fill || "#1d4ed8", fillOpacity: p["fill-opacity"] || 0.1 };
          },
          onEachFeature: function (feature, layer) {
            var p = feature.properties || {}, box = document.createElement("div");
            if (!p.title) return;
            var link = document.createElement(p.url ? "a" : "strong");
            if (p.url) link.href = p.url;
            link.textContent = p.title;
            box.appendChild(link);
            if (p.description) {
              var text = document.createElement("p");
              text.textContent = p.description;
              box.appendChild(text);
            }
            layer.bindPopup(box);
          }
        }).addTo(map);
        var bounds = layer.getBounds();
        if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
        else map.setView([52.37, 4.9], 12);
      }).catch(function () {
        figure.classList.remove("map-is-live");
        holder.remove();
      });
    });
  });

  // "Find divers near…": search divers/index.json by great-circle distance; the form's state
  // lives in the URL (?near=Zandvoort&within=25) so a search can be shared.
  feature(function () {
    var form = document.querySelector("form.diver-search[data-divers]");
    if (!form || !window.fetch || !window.URLSearchParams || !form.elements.near || !form.elements.within) return;
    var results = document.getElementById("diver-results");
    var section = results && results.closest(".diver-results");
    var title = section && section.querySelector(".results-summary");
    if (!results || !section || !title) return;
    var number = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
    var text = function (key, values) { return fill(form.getAttribute("data-text-" + key) || "", values); };
    var data = null;
    var load = function () {
      if (!data) {
        data = fetch(form.getAttribute("data-divers")).then(function (r) {
          if (!r.ok) throw new Error(r.status);
          return r.json();
        });
        data.catch(function () { data = null; });
      }
      return data;
    };

    function distance(a, b) {
      var rad = Math.PI / 180, r = 6371.0088;
      var dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
      if (dLon > Math.PI) dLon -= 2 * Math.PI; else if (dLon < -Math.PI) dLon += 2 * Math.PI;
      var h = Math.sin(dLat / 2) * Math.sin(dLat / 2) +
        Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) * Math.sin(dLon / 2);
      return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
    }

    function locate(index, near) {
      var lower = near.trim().toLowerCase();
      var place = (index.places || []).filter(function (p) { return p.name.toLowerCase() === lower; })[0];
      if (place) return { lat: place.lat, lon: place.lon, name: place.name };
      var parts = near.split(",").map(function (s) { return parseFloat(s); });
      if (parts.length === 2 && !isNaN(parts[0]) && !isNaN(parts[1]) && Math.abs(parts[0]) <= 90 && Math.abs(parts[1]) <= 180) {
        return { lat: parts[0], lon: parts[1], name: near.trim() };
      }
      return null;
    }

    function tile(diver, km) {
      var li = document.createElement("li"), a = document.createElement("a");
      li.className = "member-tile";
      li.setAttribute("data-km", km.toFixed(3));
      a.href = diver.url;
      if (diver.avatar) {
        var img = document.createElement("img");
        img.className = "avatar avatar-large"; img.src = diver.avatar; img.alt = ""; img.width = 64; img.height = 64;
        a.appendChild(img);
      }
      var name = document.createElement("span");
      name.className = "member-name"; name.textContent = diver.name;
      a.appendChild(name);
      li.appendChild(a);
      [[diver.certification, "member-meta diver-tag"],
       [diver.dives != null ? diver.dives + " " + text("dives") : null, "member-meta"],
       [text("km", { km: number.format(km) }), "member-meta diver-distance"]].forEach(function (pair) {
        if (!pair[0]) return;
        var span = document.createElement("span");
        span.className = pair[1]; span.textContent = pair[0];
        li.appendChild(span);
      });
      return li;
    }

    function search(near, within, origin) {
      load().then(function (index) {
        var point = origin || locate(index, near);
        section.hidden = false;
        results.textContent = "";
        if (!point) { title.textContent = text("unknown", { place: near }); return; }
        var km = Math.min(100, Math.max(5, within || 25));
        var found = (index.divers || []).map(function (d) { return { diver: d, km: distance(point, d) }; })
          .filter(function (r) { return r.km <= km; })
          .sort(function (a, b) { return a.km - b.km || a.diver.name.localeCompare(b.diver.name); });
        title.textContent = found.length
          ? text("results", { n: found.length, km: km, place: point.name })
          : text("none", { km: km, place: point.name });
        found.forEach(function (r) { results.appendChild(tile(r.diver, r.km)); });
      }).catch(function () {
        // The list of divers by place below the form still shows everyone.
        section.hidden = true;
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var params = new URLSearchParams({ near: form.elements.near.value, within: form.elements.within.value });
      if (window.history && history.replaceState) history.replaceState(null, "", "?" + params.toString());
      search(form.elements.near.value, parseFloat(form.elements.within.value));
    });

    var locateButton = form.querySelector("[data-locate]");
    if (locateButton && navigator.geolocation) {
      locateButton.hidden = false;
      locateButton.addEventListener("click", function () {
        navigator.geolocation.getCurrentPosition(function (position) {
          var here = { lat: position.coords.latitude, lon: position.coords.longitude, name: text("mine") };
          form.elements.near.value = here.lat.toFixed(4) + "," + here.lon.toFixed(4);
          search(form.elements.near.value, parseFloat(form.elements.within.value), here);
        });
      });
    }

    var params = new URLSearchParams(location.search);
    var near = params.get("near"), within = parseFloat(params.get("within"));
    if (near) form.elements.near.value = near;
    if (!isNaN(within)) form.elements.within.value = within;
    if (near) search(near, within);
  });

  // "Open now" depends on the reader's clock, so it is worked out here, in the site's time zone,
  // from the opening hours the page carries.
  feature(function () {
    if (!window.Intl || !Intl.DateTimeFormat) return;
    each(".open-now[data-hours]", function (el) {
      var hours, zone = el.getAttribute("data-timezone") || undefined;
      try { hours = JSON.parse(el.getAttribute("data-hours")); } catch (e) { return; }
      var parts;
      try {
        parts = new Intl.DateTimeFormat("en-GB", { timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
          .formatToParts(new Date());
      } catch (e) { return; }
      var get = function (type) { return (parts.filter(function (p) { return p.type === type; })[0] || {}).value; };
      var day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(get("weekday"));
      var now = parseInt(get("hour"), 10) * 60 + parseInt(get("minute"), 10);
      if (day < 0 || isNaN(now) || !hours) return;
      var pad = function (n) { return (n < 10 ? "0" : "") + n; };
      var clock = function (m) { m = m % 1440; return pad(Math.floor(m / 60)) + ":" + pad(m % 60); };
      // Open today, or still open from yesterday past midnight?
      var ranges = (hours[day] || []).map(function (r) { return [r[0], r[1]]; })
        .concat((hours[(day + 6) % 7] || []).filter(function (r) { return r[1] > 1440; }).map(function (r) { return [r[0] - 1440, r[1] - 1440]; }));
      var open = ranges.filter(function (r) { return r[0] <= now && now < r[1]; })[0];
      var weekday = new Intl.DateTimeFormat(lang, { weekday: "long", timeZone: "UTC" });
      var text;
      if (open) {
        text = fill(el.getAttribute("data-open") || "", { time: clock(open[1]) });
        el.classList.add("is-open");
      } else {
        text = el.getAttribute("data-closed") || "";
        for (var i = 0; i < 8; i++) {
          var d = (day + i) % 7;
          var next = (hours[d] || []).filter(function (r) { return i > 0 || r[0] > now; })[0];
          if (next) {
            var monday = new Date(Date.UTC(2024, 0, 1 + d, 12));
            text = fill(el.getAttribute("data-opens") || text, { day: weekday.format(monday), time: clock(next[0]) });
            break;
          }
        }
      }
      if (!text) return;
      el.textContent = text;
      el.hidden = false;
    });
  });
  // The service worker that keeps pages readable offline (sw.js, at the site's root): the page's
  // manifest link names it, except in `plein serve`.
  feature(function () {
    var link = document.querySelector("link[rel=manifest][data-worker]");
    if (!link || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(link.getAttribute("data-worker"), { scope: link.getAttribute("data-scope") || "/" })
      .catch(function (e) { if (window.console) console.warn(e); });
  });
})();
