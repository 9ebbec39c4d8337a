// plein's service worker for /: what it keeps, then its code (the theme's sw.js).
self.plein = {
  "version": "HASH",
  "scope": "/",
  "lang": "en",
  "shell": [
    "/assets/style.HASH.css",
    "/assets/plein.HASH.js",
    "/assets/icon.HASH.svg",
    "/assets/app-icon-180.HASH.png",
    "/assets/app-icon-192.HASH.png",
    "/assets/app-icon-512.HASH.png",
    "/assets/app-icon-maskable-512.HASH.png",
    "/offline/"
  ],
  "offline": "/offline/",
  "pages": [
    "/",
    "/reports/1094/2026-10-05-rommelmarkt/",
    "/reports/1094/2026-10-04-buurtfeest/",
    "/reports/1094/2026-10-02-fiets-gestolen/",
    "/groups/duikclub/events/nachtduik/"
  ],
  "skip": [
    "/admin/",
    "/pagefind/",
    "/sw.js"
  ],
  "text": {
    "saved": "You are offline: this copy was saved {age}."
  }
};
importScripts("/assets/sw.HASH.js");
