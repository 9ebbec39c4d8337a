// plein: small enhancements. Every page works without this script.
(function () {
  "use strict";

  var lang = document.documentElement.lang || "en";

  // Relative times ("3 uur geleden") for recent <time data-relative> elements; the full date
  // stays in the title.
  var rtf = window.Intl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(lang, { numeric: "auto" }) : null;
  if (rtf) {
    var now = Date.now();
    document.querySelectorAll("time[data-relative]").forEach(function (el) {
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
  }

  // Name filters: <input data-filter="#list"> hides items whose data-name does not match.
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var list = document.querySelector(input.getAttribute("data-filter"));
    if (!list) return;
    input.closest(".filter").hidden = false;
    var normalize = function (s) {
      return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
    };
    input.addEventListener("input", function () {
      var q = normalize(input.value.trim());
      list.querySelectorAll("[data-name]").forEach(function (item) {
        item.hidden = q !== "" && normalize(item.getAttribute("data-name")).indexOf(q) === -1;
      });
    });
  });

  // Category filter on area pages.
  document.querySelectorAll(".category-filter").forEach(function (filter) {
    var target = document.querySelector(filter.getAttribute("data-filter-target"));
    if (!target) return;
    filter.hidden = false;
    var buttons = filter.querySelectorAll("button[data-category]");
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        var category = button.getAttribute("data-category");
        buttons.forEach(function (b) { b.setAttribute("aria-pressed", String(b === button)); });
        target.querySelectorAll("[data-category]").forEach(function (card) {
          card.hidden = category !== "" && card.getAttribute("data-category") !== category;
        });
      });
    });
  });
})();

// Interactive maps: where Leaflet is loaded, a tile map of the same GeoJSON replaces the SVG
// drawing once its first tile has arrived. Offline, the drawing simply stays.
(function () {
  "use strict";
  if (!window.L || !window.fetch) return;
  document.querySelectorAll("figure.map[data-geojson]").forEach(function (figure) {
    var frame = figure.querySelector(".map-frame");
    if (!frame) return;
    var holder = document.createElement("div");
    holder.className = "map-live";
    frame.appendChild(holder);
    var map = L.map(holder, { scrollWheelZoom: false });
    var tiles = L.tileLayer(figure.getAttribute("data-tiles"), {
      attribution: figure.getAttribute("data-attribution"),
      maxZoom: 19
    });
    tiles.once("tileload", function () { figure.classList.add("map-is-live"); map.invalidateSize(); });
    tiles.addTo(map);
    fetch(figure.getAttribute("data-geojson")).then(function (r) { return r.json(); }).then(function (data) {
      var layer = L.geoJSON(data, {
        pointToLayer: function (feature, latlng) {
          var color = feature.properties["marker-color"] || "#1d4ed8";
          return L.circleMarker(latlng, { radius: 8, color: "#fff", weight: 2, fillColor: color, fillOpacity: 1 });
        },
        style: function (feature) {
          var p = feature.properties;
          return { color: p.stroke || "#1d4ed8", weight: p["stroke-width"] || 2, fillColor: p.fill || "#1d4ed8", fillOpacity: p["fill-opacity"] || 0.1 };
        },
        onEachFeature: function (feature, layer) {
          var p = feature.properties, box = document.createElement("div"), link = document.createElement("a");
          link.href = p.url;
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
    }).catch(function () { holder.remove(); });
  });
})();

// "Find divers near…": search divers/index.json by great-circle distance; the form's state
// lives in the URL (?near=Zandvoort&within=25) so a search can be shared.
(function () {
  "use strict";
  var form = document.querySelector("form.diver-search[data-divers]");
  if (!form || !window.fetch || !window.URLSearchParams) return;
  var results = document.getElementById("diver-results");
  var section = results && results.closest(".diver-results");
  var title = section && section.querySelector(".results-summary");
  var lang = document.documentElement.lang || "en";
  var number = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  var text = function (key, values) {
    var s = form.getAttribute("data-text-" + key) || "";
    Object.keys(values || {}).forEach(function (k) { s = s.split("{" + k + "}").join(values[k]); });
    return s;
  };
  var data = fetch(form.getAttribute("data-divers")).then(function (r) { return r.json(); });

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
    var place = index.places.filter(function (p) { return p.name.toLowerCase() === lower; })[0];
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
    data.then(function (index) {
      var point = origin || locate(index, near);
      section.hidden = false;
      results.textContent = "";
      if (!point) { title.textContent = text("unknown", { place: near }); return; }
      var km = Math.min(100, Math.max(5, within || 25));
      var found = index.divers.map(function (d) { return { diver: d, km: distance(point, d) }; })
        .filter(function (r) { return r.km <= km; })
        .sort(function (a, b) { return a.km - b.km || a.diver.name.localeCompare(b.diver.name); });
      title.textContent = found.length
        ? text("results", { n: found.length, km: km, place: point.name })
        : text("none", { km: km, place: point.name });
      found.forEach(function (r) { results.appendChild(tile(r.diver, r.km)); });
    });
  }

  function fromURL() {
    var params = new URLSearchParams(location.search);
    var near = params.get("near"), within = parseFloat(params.get("within"));
    if (near) form.near.value = near;
    if (!isNaN(within)) form.within.value = within;
    if (near) search(near, within);
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var params = new URLSearchParams({ near: form.near.value, within: form.within.value });
    history.replaceState(null, "", "?" + params.toString());
    search(form.near.value, parseFloat(form.within.value));
  });

  var locateButton = form.querySelector("[data-locate]");
  if (locateButton && navigator.geolocation) {
    locateButton.hidden = false;
    locateButton.addEventListener("click", function () {
      navigator.geolocation.getCurrentPosition(function (position) {
        var here = { lat: position.coords.latitude, lon: position.coords.longitude, name: text("mine") };
        form.near.value = here.lat.toFixed(4) + "," + here.lon.toFixed(4);
        search(form.near.value, parseFloat(form.within.value), here);
      });
    });
  }
  fromURL();
})();

// "Open now" depends on the reader's clock, so it is worked out here, in the site's time zone,
// from the opening hours the page carries.
(function () {
  "use strict";
  var lang = document.documentElement.lang || "en";
  document.querySelectorAll(".open-now[data-hours]").forEach(function (el) {
    var hours, zone = el.getAttribute("data-timezone");
    try { hours = JSON.parse(el.getAttribute("data-hours")); } catch (e) { return; }
    var parts;
    try {
      parts = new Intl.DateTimeFormat("en-GB", { timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
        .formatToParts(new Date());
    } catch (e) { return; }
    var get = function (type) { return (parts.filter(function (p) { return p.type === type; })[0] || {}).value; };
    var day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(get("weekday"));
    var now = parseInt(get("hour"), 10) * 60 + parseInt(get("minute"), 10);
    if (day < 0 || isNaN(now)) return;
    var clock = function (m) { m = m % 1440; return String(Math.floor(m / 60)).padStart(2, "0") + ":" + String(m % 60).padStart(2, "0"); };
    var fill = function (template, values) {
      Object.keys(values).forEach(function (k) { template = template.split("{" + k + "}").join(values[k]); });
      return template;
    };
    // Open today, or still open from yesterday past midnight?
    var ranges = (hours[day] || []).map(function (r) { return [r[0], r[1]]; })
      .concat((hours[(day + 6) % 7] || []).filter(function (r) { return r[1] > 1440; }).map(function (r) { return [r[0] - 1440, r[1] - 1440]; }));
    var open = ranges.filter(function (r) { return r[0] <= now && now < r[1]; })[0];
    var weekday = new Intl.DateTimeFormat(lang, { weekday: "long" });
    var text;
    if (open) {
      text = fill(el.getAttribute("data-open"), { time: clock(open[1]) });
      el.classList.add("is-open");
    } else {
      text = el.getAttribute("data-closed");
      for (var i = 0; i < 8; i++) {
        var d = (day + i) % 7;
        var next = (hours[d] || []).filter(function (r) { return i > 0 || r[0] > now; })[0];
        if (next) {
          var monday = new Date(Date.UTC(2024, 0, 1 + d));
          text = fill(el.getAttribute("data-opens"), { day: weekday.format(monday), time: clock(next[0]) });
          break;
        }
      }
    }
    el.textContent = text;
    el.hidden = false;
  });
})();
