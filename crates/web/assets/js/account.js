// Accounts: sign up, sign in, the account's settings (password, sessions,
// API tokens, deletion), a player's profile (rating, its history as a
// chart, games and export) and the rating list.

import { api, currentUser, deleteAccount, signIn, signOutEverywhere, signUp, siteOptions } from "./api.js";
import { gameName, h, replace, timeText, toast } from "./dom.js";
import { navigate } from "./app.js";
import { mailPanel } from "./mail.js";
import { vacationPanel } from "./vacation.js";

/**
 * A form with labelled fields, a submit button and a place for its error.
 * @param {string} id
 * @param {[string, string, string, string][]} fields name, label, type, autocomplete
 * @param {string} submit
 * @param {(values: Record<string, string>) => Promise<void>} onSubmit
 */
function accountForm(id, fields, submit, onSubmit) {
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "panel", id },
    fields.map(([name, label, type, autocomplete]) =>
      h("label", {}, label, h("input", { name, id: `${id}-${name}`, type, autocomplete, required: true }))),
    error,
    h("button", { type: "submit" }, submit));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const values = Object.fromEntries([...new FormData(/** @type {HTMLFormElement} */ (form))].map(([k, v]) => [k, String(v)]));
    try {
      await onSubmit(values);
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  return form;
}

/** @param {HTMLElement} main */
export function signUpPage(main) {
  const me = currentUser();
  replace(main,
    h("h1", {}, "Sign up"),
    me && me.guest
      ? h("p", {}, `You are playing as ${me.name}; your games stay yours when you sign up.`)
      : null,
    accountForm("signup", [
      ["name", "Name (2 to 20 letters, digits, _ or -)", "text", "username"],
      ["password", "Password (8 characters or more)", "password", "new-password"],
      ["email", "E-mail", "email", "email"],
    ], "Sign up", async ({ name, password, email }) => {
      await signUp(name, password, email);
      navigate("/");
    }),
    h("p", {}, "Have an account? ", h("a", { href: "/signin" }, "Sign in")));
}

/** @param {HTMLElement} main */
export function signInPage(main) {
  replace(main,
    h("h1", {}, "Sign in"),
    accountForm("signin", [
      ["name", "Name", "text", "username"],
      ["password", "Password", "password", "current-password"],
    ], "Sign in", async ({ name, password }) => {
      await signIn(name, password);
      navigate("/");
    }),
    h("p", {}, h("a", { href: "/forgot", id: "forgot-link" }, "Forgot your password?")),
    h("p", {}, "New here? ", h("a", { href: "/signup" }, "Sign up")));
}

/**
 * The account's settings: change the password, what is mailed and to which
 * address, sign out everywhere, API tokens for programs, and deleting the
 * account. The server asks for a
 * session signed in with a password for each of them.
 * @param {HTMLElement} main
 */
export function settingsPage(main) {
  const me = currentUser();
  if (!me || me.guest) {
    replace(main, h("h1", {}, "Settings"),
      h("p", {}, me
        ? "Guest accounts have no settings. Sign up to keep your games and choose a password: "
        : "Sign in to change your password, manage API tokens or delete your account: ",
      h("a", { href: me ? "/signup" : "/signin" }, me ? "Sign up" : "Sign in"), "."));
    return;
  }
  const passwordForm = accountForm("password", [
    ["current", "Current password", "password", "current-password"],
    ["new", "New password (8 characters or more)", "password", "new-password"],
  ], "Change password", async ({ current, new: next }) => {
    const done = await api("/api/account/password", { current, new: next });
    /** @type {HTMLFormElement} */ (passwordForm).reset();
    const others = done.other_sessions_ended;
    toast(`Password changed; ${others} other session${others === 1 ? "" : "s"} signed out`);
  });
  const deleteForm = accountForm("delete", [
    ["password", "Password, to confirm", "password", "current-password"],
    ["understood", "I understand that this cannot be undone", "checkbox", "off"],
  ], "Delete my account", async ({ password }) => {
    const placeholder = await deleteAccount(password);
    toast(`Account deleted; its games are kept under the name ${placeholder}`);
    navigate("/");
  });
  const tokens = tokenPanel();
  const mail = mailPanel();
  const vacation = vacationPanel();
  replace(main,
    h("h1", {}, "Settings"),
    h("div", { class: "grid" },
      h("section", { class: "panel", "aria-labelledby": "password-title" },
        h("h2", { id: "password-title" }, "Password"),
        h("p", { class: "muted" }, "Changing it signs out every other session and browser."),
        passwordForm),
      mail.el,
      vacation.el,
      h("section", { class: "panel", "aria-labelledby": "sessions-title" },
        h("h2", { id: "sessions-title" }, "Sessions"),
        h("p", { class: "muted" }, "Signed in on a computer you no longer use? End every session, this one included."),
        h("button", {
          type: "button", id: "signout-all",
          onclick: async () => {
            try {
              const ended = await signOutEverywhere();
              toast(`Signed out everywhere (${ended} session${ended === 1 ? "" : "s"})`);
              navigate("/");
            } catch (error) {
              toast(/** @type {Error} */ (error).message, "error");
            }
          },
        }, "Sign out everywhere")),
      tokens.el,
      h("section", { class: "panel", "aria-labelledby": "delete-title" },
        h("h2", { id: "delete-title" }, "Delete the account"),
        h("p", { class: "muted" }, "Your games stay in the records of your opponents, under a placeholder name; your name, e-mail, password, sessions and tokens are removed."),
        deleteForm)));
  tokens.refresh();
  mail.refresh();
}

/** The account's API tokens: the list with a revoke button each, and a form for a new one. */
function tokenPanel() {
  const list = h("ul", { class: "plain", id: "tokens" });
  const shown = h("p", { id: "new-token", role: "status" });
  const scopeBoxes = h("fieldset", { class: "row" }, h("legend", {}, "Scopes"));
  const form = h("form", { id: "token-form" },
    h("label", {}, "Label", h("input", { name: "label", id: "token-label", maxlength: 100, autocomplete: "off" })),
    scopeBoxes,
    // Enabled once the scopes the account may give are known (see refresh).
    h("button", { type: "submit", disabled: true }, "Create token"));

  async function refresh() {
    try {
      const [me, mine] = await Promise.all([api("/api/me"), api("/api/tokens")]);
      const scopes = me.bot ? ["read", "bot"] : ["read", "play"];
      replace(scopeBoxes, h("legend", {}, "Scopes"), scopes.map((scope) =>
        h("label", {}, h("input", { type: "checkbox", name: "scope", value: scope, checked: scope === "read" }), ` ${scope}`)));
      /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]")).disabled = false;
      replace(list, mine.tokens.length === 0
        ? h("li", { class: "muted" }, "No tokens.")
        : mine.tokens.map((/** @type {any} */ t) => h("li", { "data-token": t.id },
          h("span", {}, `${t.label || "(no label)"}: ${t.scopes.join(", ")}`),
          h("button", {
            type: "button", class: "secondary",
            onclick: async () => {
              try {
                await api(`/api/tokens/${t.id}`, undefined, "DELETE");
                refresh();
              } catch (error) {
                toast(/** @type {Error} */ (error).message, "error");
              }
            },
          }, "Revoke"))));
    } catch (error) {
      replace(list, h("li", { class: "error" }, /** @type {Error} */ (error).message));
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(/** @type {HTMLFormElement} */ (form));
    try {
      const made = await api("/api/tokens", {
        label: String(data.get("label") || ""),
        scopes: data.getAll("scope").map(String),
      });
      replace(shown, "Your new token (shown only this once): ", h("code", {}, made.token));
      /** @type {HTMLFormElement} */ (form).reset();
      refresh();
    } catch (error) {
      replace(shown, h("span", { class: "error" }, /** @type {Error} */ (error).message));
    }
  });

  const el = h("section", { class: "panel", "aria-labelledby": "tokens-title" },
    h("h2", { id: "tokens-title" }, "API tokens"),
    h("p", { class: "muted" }, "For programs and bots (sent as ", h("code", {}, "Authorization: Bearer TOKEN"), "): read is your own data and streams, play is challenges and moves as you, bot is the bot API."),
    list, form, shown);
  return { el, refresh };
}

/**
 * @param {HTMLElement} main
 * @param {string[]} params
 */
export function profilePage(main, [name]) {
  replace(main, h("h1", {}, name), h("p", { class: "muted" }, "Loading…"));
  Promise.all([
    api(`/api/users/${encodeURIComponent(name)}`),
    api(`/api/users/${encodeURIComponent(name)}/games`),
  ]).then(([user, list]) => {
    replace(main,
      h("h1", {}, user.name, user.bot ? " (bot)" : ""),
      h("div", { class: "grid" },
        h("section", { class: "panel", "aria-labelledby": "rating-title" },
          h("h2", { id: "rating-title" }, "Rating"),
          h("p", { id: "rating" }, `${user.rating} ± ${Math.round(user.deviation * 2)}`,
            h("span", { class: "muted" }, ` after ${user.rated_games} rated game${user.rated_games === 1 ? "" : "s"}`)),
          ratingChart(user.rating_history.filter((/** @type {any} */ p) => !p.variant || p.variant === "epaminondas")),
          variantRatings(user),
          h("p", {}, h("a", { href: `/api/users/${encodeURIComponent(user.name)}/export`, download: `${user.name}-games.txt` }, "Export all games (record text)"))),
        h("section", { class: "panel", "aria-labelledby": "games-title" },
          h("h2", { id: "games-title" }, "Games"),
          gameTable(user.name, list.games))));
  }).catch((error) => replace(main, h("h1", {}, name), h("p", { class: "error" }, error.message)));
}

/**
 * The player's ratings in the variants (each is rated on its own), for
 * those they have played rated games of.
 * @param {any} user
 */
function variantRatings(user) {
  const others = (user.ratings || []).filter((/** @type {any} */ r) => r.variant !== "epaminondas");
  if (others.length === 0) return null;
  return [
    h("h3", {}, "Variants"),
    h("table", { id: "variant-ratings" },
      h("tbody", {}, others.map((/** @type {any} */ r) => h("tr", { "data-variant": r.variant },
        h("td", {}, h("a", { href: `/players?variant=${r.variant}` }, r.title)),
        h("td", {}, `${r.rating} ± ${Math.round(r.deviation * 2)}`),
        h("td", { class: "muted" }, `${r.rated_games} rated game${r.rated_games === 1 ? "" : "s"}`))))),
  ];
}

/**
 * The rating after each rated game, as a line chart.
 * @param {{rating: number, at: number, game: number}[]} history
 */
function ratingChart(history) {
  if (history.length < 2) {
    return h("p", { class: "muted" }, history.length ? "One rated game so far." : "No rated games yet.");
  }
  const width = 400, height = 160, pad = 32;
  const ratings = history.map((p) => p.rating);
  const low = Math.min(...ratings) - 20, high = Math.max(...ratings) + 20;
  const x = (/** @type {number} */ i) => pad + (i * (width - pad - 8)) / (history.length - 1);
  const y = (/** @type {number} */ r) => 8 + ((high - r) * (height - 24)) / (high - low);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Rating history: from ${ratings[0]} to ${ratings[ratings.length - 1]} over ${history.length} games`);
  const line = document.createElementNS(svg.namespaceURI, "polyline");
  line.setAttribute("points", history.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "));
  svg.append(line);
  for (const value of [Math.round(high - 20), Math.round(low + 20)]) {
    const t = document.createElementNS(svg.namespaceURI, "text");
    t.setAttribute("x", "2");
    t.setAttribute("y", String(y(value) + 4));
    t.textContent = String(value);
    svg.append(t);
  }
  return svg;
}

/**
 * @param {string} name
 * @param {any[]} games
 */
function gameTable(name, games) {
  if (games.length === 0) return h("p", { class: "muted" }, "No games yet.");
  return h("table", {},
    h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Opponent"), h("th", {}, "Board"), h("th", {}, "Result"))),
    h("tbody", {}, games.map((g) => {
      const color = g.white.name === name ? "white" : "black";
      const opponent = g[color === "white" ? "black" : "white"].name;
      const result = g.status === "active" ? "in progress"
        : !g.winner ? "draw" : g.winner === color ? `won (${g.reason})` : `lost (${g.reason})`;
      return h("tr", {},
        h("td", {}, h("a", { href: `/game/${g.id}` }, `#${g.id}`)),
        h("td", {}, opponent),
        h("td", {}, `${gameName(g)}${g.board}, ${timeText(g.time)}${g.rated ? ", rated" : ""}`),
        h("td", {}, result));
    })));
}

/** @param {HTMLElement} main */
export function playersPage(main) {
  // Each variant has its own rating list: ?variant=NAME picks one.
  const offered = siteOptions().variants;
  const asked = new URLSearchParams(location.search).get("variant");
  const variant = offered.find((v) => v.name === asked) || offered[0];
  const tabs = h("nav", { class: "row", "aria-label": "Rating lists", id: "rating-lists" },
    offered.map((v) => h("a", {
      href: v.name === "epaminondas" ? "/players" : `/players?variant=${v.name}`,
      "aria-current": v.name === variant.name ? "page" : false,
      "data-variant": v.name,
    }, v.title)));
  replace(main, h("h1", {}, variant.name === "epaminondas" ? "Players" : `Players: ${variant.title}`), tabs);
  api(`/api/leaderboard?variant=${encodeURIComponent(variant.name)}`).then((board) => {
    main.append(board.players.length === 0
      ? h("p", { class: "muted" }, `Nobody has played a rated game of ${variant.title} yet.`)
      : h("table", { class: "panel" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Rated games"))),
        h("tbody", {}, board.players.map((/** @type {any} */ p) => h("tr", {},
          h("td", {}, p.rank),
          h("td", {}, h("a", { href: `/profile/${encodeURIComponent(p.name)}` }, p.name)),
          h("td", {}, `${p.rating} ± ${Math.round(p.deviation * 2)}`),
          h("td", {}, p.rated_games))))));
  }).catch((error) => main.append(h("p", { class: "error" }, error.message)));
}
