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
