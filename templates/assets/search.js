// The search page: Pagefind's indexes (one per area, one for the rest of the community, each in parts) merged
// in the browser, results with kind, title, excerpt and date, filters as buttons. Text from the
// index is only ever set as text; the excerpt's <mark> elements are rebuilt, nothing else.
const form = document.querySelector("form.search-form");
if (form) {
  const indexes = JSON.parse(form.dataset.indexes || "[]");
  const t = JSON.parse(form.dataset.labels || "{}");
  const input = form.querySelector("input[name=q]");
  const status = document.querySelector(".search-status");
  const list = document.querySelector(".search-results");
  const controls = document.querySelector(".search-controls");
  const fallback = document.querySelector(".search-fallback");
  const filterNames = ["kind", "area", "category", "group"];
  const chosen = {};
  let newest = false;
  let shown = 20;
  let loading = null;
  let latest = 0;

  const say = (text, values) => (text || "").replace(/\{(\w+)\}/g, (_, key) => values[key] ?? "");

  function load() {
    loading ??= (async () => {
      // A site with nothing to find yet has no index: every query finds nothing.
      if (!indexes.length) {
        window.pleinSearchReady = true;
        return null;
      }
      const pagefind = await import(indexes[0] + "pagefind.js");
      // Result addresses are stored whole (with the site's base path): Pagefind adds nothing.
      await pagefind.options({ excerptLength: 24, baseUrl: "/" });
      await Promise.all(indexes.slice(1).map((index) => pagefind.mergeIndex(index, { baseUrl: "/" })));
      await pagefind.init();
      // Loads the filters: only then does a search count its results per filter value.
      await pagefind.filters();
      window.pleinSearchReady = true;
      return pagefind;
    })();
    return loading;
  }

  // The index holds no e-mail addresses, so a query does not look for one either (its name part
  // alone would find the person it belongs to).
  // Pagefind also takes a word of the index that starts a query's word as a match ("water" for
  // "waterproof"). A word of a letter or two is no match for a longer one: "m" of "30 m" for
  // "Marlinair", "de" for "dexter". A result counts when a word it matched (or a part of one:
  // "de" of "lucas-de-graaf") shares the start of a query's word, three letters or the whole
  // word, and has four letters or the whole query word (stems still match: "dives", "diving").
  const parts = (word) => word.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const common = (a, b) => { let n = 0; while (n < a.length && n < b.length && a[n] === b[n]) n++; return n; };
  const matched = (data, terms) => {
    const words = data.content.split(/\s+/);
    return data.locations.some((i) => parts(words[i] || "").some((part) => terms.some((term) =>
      common(term, part) >= Math.min(term.length, 3) && part.length >= Math.min(term.length, 4))));
  };

  const withoutAddresses = (query) => query.split(/\s+/).filter((word) => !/[^@\s]@[^@\s]*\./.test(word)).join(" ");

  // Pagefind's excerpt: text with <mark> around the words found. Parsed in an inert document and
  // rebuilt from its text, so that nothing but text and <mark> can come out of it.
  function excerpt(html) {
    const p = document.createElement("p");
    p.className = "search-excerpt";
    const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html").body;
    for (const node of parsed.childNodes) {
      if (node.nodeName === "MARK") {
        const mark = document.createElement("mark");
        mark.textContent = node.textContent;
        p.append(mark);
      } else {
        p.append(node.textContent);
      }
    }
    return p;
  }

  function item(data) {
    const li = document.createElement("li");
    li.className = "search-result";
    const kind = document.createElement("p");
    kind.className = "search-kind";
    kind.textContent = data.meta.kind || "";
    const heading = document.createElement("h2");
    const link = document.createElement("a");
    link.href = data.url;
    link.textContent = data.meta.title || data.url;
    heading.append(link);
    li.append(kind, heading, excerpt(data.excerpt || ""));
    if (data.meta.date) {
      const date = document.createElement("p");
      date.className = "search-date";
      const time = document.createElement("time");
      time.dateTime = data.meta.datetime || "";
      time.textContent = data.meta.date;
      date.append(time);
      li.append(date);
    }
    return li;
  }

  function button(label, pressed, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.setAttribute("aria-pressed", pressed ? "true" : "false");
    b.addEventListener("click", onClick);
    return b;
  }

  function drawControls(filters) {
    controls.replaceChildren();
    for (const name of filterNames) {
      const values = Object.entries(filters[name] || {}).filter(([, count]) => count > 0);
      if (values.length < 2 && !chosen[name]) continue;
      const group = document.createElement("div");
      group.className = "search-filter";
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", t[name] || name);
      const label = document.createElement("span");
      label.className = "search-filter-label";
      label.textContent = t[name] || name;
      group.append(label, button(t.all, !chosen[name], () => { delete chosen[name]; run(); }));
      values.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      for (const [value, count] of values.slice(0, 12)) {
        group.append(button(`${value} (${count})`, chosen[name] === value, () => { chosen[name] = value; run(); }));
      }
      controls.append(group);
    }
    const order = document.createElement("div");
    order.className = "search-filter";
    order.setAttribute("role", "group");
    order.setAttribute("aria-label", t.sort);
    const label = document.createElement("span");
    label.className = "search-filter-label";
    label.textContent = t.sort;
    order.append(label, button(t.relevance, !newest, () => { newest = false; run(); }),
      button(t.newest, newest, () => { newest = true; run(); }));
    controls.append(order);
    controls.hidden = false;
  }

  async function run(more = false) {
    const query = input.value.trim();
    const url = new URL(location.href);
    if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
    history.replaceState(null, "", url);
    const ticket = ++latest;
    if (!more) shown = 20;
    if (!query) {
      list.replaceChildren();
      controls.hidden = true;
      status.textContent = "";
      return;
    }
    const terms = withoutAddresses(query);
    if (!terms) {
      list.replaceChildren();
      controls.hidden = true;
      status.textContent = say(t.none, { q: query });
      return;
    }
    status.textContent = t.searching;
    let search;
    try {
      const pagefind = await load();
      if (!pagefind) {
        list.replaceChildren();
        status.textContent = say(t.none, { q: query });
        return;
      }
      const filters = {};
      for (const name of filterNames) if (chosen[name]) filters[name] = chosen[name];
      search = await pagefind.search(terms, { filters, sort: newest ? { date: "desc" } : undefined });
    } catch (error) {
      if (ticket === latest) status.textContent = t.failed;
      console.error(error);
      return;
    }
    if (ticket !== latest) return;
    const loaded = await Promise.all(search.results.slice(0, shown).map((r) => r.data()));
    if (ticket !== latest) return;
    const words = terms.split(/\s+/).flatMap(parts);
    const data = words.length ? loaded.filter((d) => matched(d, words)) : loaded;
    list.replaceChildren(...data.map(item));
    // Pagefind ranks real matches first: when none of the first results is one, none is.
    const count = data.length === 0 ? 0 : search.results.length <= shown ? data.length : search.results.length;
    status.textContent = count === 0 ? say(t.none, { q: query }) : say(count === 1 ? t.one : t.other, { n: count.toLocaleString(document.documentElement.lang), q: query });
    drawControls(search.totalFilters || search.filters || {});
    if (count > shown) {
      const li = document.createElement("li");
      li.className = "search-more";
      li.append(button(t.more, false, () => { shown += 20; run(true); }));
      list.append(li);
    }
  }

  fallback.hidden = true;
  form.hidden = false;
  form.addEventListener("submit", (event) => { event.preventDefault(); run(); });
  let timer = 0;
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(run, 60); });
  const query = new URL(location.href).searchParams.get("q");
  if (query) input.value = query;
  input.focus();
  // Pagefind and the indexes load while the reader types.
  load().catch(() => {});
  if (query) run();
}
