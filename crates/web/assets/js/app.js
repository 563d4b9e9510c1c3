// The site's entry point: draws the page the address names, keeps the
// header's account links current, and follows links without reloading.

import { loadUser, loadOptions, watchUser, signOut } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { lobbyPage } from "./lobby.js";
import { gamePage } from "./game.js";
import { signInPage, signUpPage, profilePage, playersPage, settingsPage } from "./account.js";
import { analysisPage } from "./analysis.js";
import { forgotPage } from "./mail.js";
import { tournamentsPage, tournamentPage, leaguePage } from "./tournaments.js";
import { learnPage } from "./learn.js";
import { puzzlesPage } from "./puzzles.js";

/** @typedef {(main: HTMLElement, params: string[]) => (void | (() => void))} Page */

/** @type {[RegExp, Page][]} */
const routes = [
  [/^\/$/, lobbyPage],
  [/^\/game\/(\d+)$/, gamePage],
  [/^\/analysis$/, analysisPage],
  [/^\/signin$/, signInPage],
  [/^\/signup$/, signUpPage],
  [/^\/forgot$/, forgotPage],
  [/^\/players$/, playersPage],
  [/^\/profile\/([^/]+)$/, profilePage],
  [/^\/settings$/, settingsPage],
  [/^\/tournaments$/, tournamentsPage],
  [/^\/tournament\/(\d+)$/, tournamentPage],
  [/^\/league\/(\d+)$/, leaguePage],
  [/^\/learn$/, learnPage],
  [/^\/puzzles$/, puzzlesPage],
  [/^\/puzzle\/([A-Za-z0-9-]+)$/, puzzlesPage],
];

/** @type {(() => void) | void} */
let cleanup;
/** The path (and query) of the page drawn, so that a jump within it draws nothing. */
let drawn = "";

/** Draws the page for the current address. */
function route() {
  drawn = location.pathname + location.search;
  if (typeof cleanup === "function") cleanup();
  cleanup = undefined;
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  replace(main);
  const path = location.pathname;
  for (const [pattern, page] of routes) {
    const match = pattern.exec(path);
    if (match) {
      cleanup = page(main, match.slice(1).map(decodeURIComponent));
      return;
    }
  }
  replace(main, h("h1", {}, "Page not found"), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
}

/**
 * Goes to `path` within the site.
 * @param {string} path
 */
export function navigate(path) {
  if (path === location.pathname + location.search) return;
  history.pushState(null, "", path);
  route();
  document.getElementById("main")?.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

document.addEventListener("click", (event) => {
  const link = /** @type {Element} */ (event.target).closest("a");
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const href = link.getAttribute("href");
  if (!href || !href.startsWith("/") || href.startsWith("/api/") || link.hasAttribute("download") || link.target) return;
  event.preventDefault();
  navigate(href);
});
window.addEventListener("popstate", () => {
  // A link to a part of the page (#crossing) only scrolls.
  if (location.pathname + location.search !== drawn) route();
});

watchUser((me) => {
  const account = /** @type {HTMLElement} */ (document.getElementById("account"));
  if (!me) {
    replace(account, h("a", { href: "/signin" }, "Sign in"), h("a", { href: "/signup" }, "Sign up"));
  } else if (me.guest) {
    replace(account, h("span", {}, `Playing as ${me.name}`), h("a", { href: "/signup" }, "Sign up"));
  } else {
    replace(account,
      h("a", { href: `/profile/${encodeURIComponent(me.name)}` }, me.name),
      h("a", { href: "/settings", id: "settings-link" }, "Settings"),
      h("button", {
        type: "button",
        onclick: async () => {
          await signOut();
          toast("Signed out");
          navigate("/");
        },
      }, "Sign out"));
  }
});

// The forms are drawn from what the server offers, so both are read first.
Promise.all([loadUser(), loadOptions()]).then(route, (error) => {
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  replace(main, h("h1", {}, "The server did not answer"),
    h("p", { class: "error" }, `${/** @type {Error} */ (error).message}. Reload the page to try again.`));
});
