// The server's JSON API, as the pages use it. Every rule of the game is
// the server's: the page sends what the player chose and draws the answer.

/** @typedef {{id: number, name: string, guest: boolean, csrf: string}} Me */

/** @type {Me | null} */
let me = null;
/** @type {Set<(me: Me | null) => void>} */
const watchers = new Set();

/** An error the server answered, with its reason. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Calls the API: GET without a body, else POST (or `method`) with JSON.
 * @param {string} path
 * @param {any} [body]
 * @param {string} [method]
 * @returns {Promise<any>}
 */
export async function api(path, body, method) {
  /** @type {Record<string, string>} */
  const headers = {};
  const verb = method || (body === undefined ? "GET" : "POST");
  if (verb !== "GET") {
    headers["content-type"] = "application/json";
    if (me) headers["x-csrf-token"] = me.csrf;
  }
  const response = await fetch(path, {
    method: verb,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await response.text();
  /** @type {any} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || response.statusText);
  }
  return data;
}

/**
 * What the server offers, for the forms: board sizes, symmetry options,
 * the variants, engine levels, colours and limits (`GET /api/options`).
 * @typedef {{name: string, title: string, summary: string, default_board: string,
 *   default_symmetry: string}} VariantOption
 * @typedef {{boards: string[], default_board: string, symmetry: string[], variants: VariantOption[],
 *   levels: {min: number, max: number}, colors: string[],
 *   correspondence_days: {min: number, max: number}, analysis_max_ms: number}} SiteOptions
 */

/** @type {SiteOptions | null} */
let options = null;

/** Reads what the server offers; the pages' forms are drawn from it. */
export async function loadOptions() {
  options = await api("/api/options");
  return options;
}

/**
 * What the server offers (loaded before the first page is drawn).
 * @returns {SiteOptions}
 */
export function siteOptions() {
  if (!options) throw new Error("the site's options are not loaded yet");
  return options;
}

/** The signed-in player, or null. */
export function currentUser() {
  return me;
}

/**
 * Calls `watcher` now and whenever the signed-in player changes.
 * @param {(me: Me | null) => void} watcher
 */
export function watchUser(watcher) {
  watchers.add(watcher);
  watcher(me);
  return () => watchers.delete(watcher);
}

/** @param {Me | null} next */
function setUser(next) {
  me = next;
  for (const watcher of watchers) watcher(me);
}

/** Asks the server who is signed in (by the session cookie). */
export async function loadUser() {
  try {
    setUser(await api("/api/me"));
  } catch {
    setUser(null);
  }
  return me;
}

/**
 * The signed-in player; a visitor gets a guest account first, so that
 * they can play at once.
 */
export async function ensureUser() {
  if (me) return me;
  const guest = await api("/api/guest", {});
  setUser({ ...guest, guest: true });
  return /** @type {Me} */ (me);
}

/**
 * @param {string} name
 * @param {string} password
 * @param {string} email
 */
export async function signUp(name, password, email) {
  const user = await api("/api/signup", { name, password, email });
  setUser({ ...user, guest: false });
  return me;
}

/**
 * @param {string} name
 * @param {string} password
 */
export async function signIn(name, password) {
  const user = await api("/api/signin", { name, password });
  setUser({ ...user, guest: false });
  return me;
}

export async function signOut() {
  await api("/api/signout", {});
  setUser(null);
}

/** Ends every session of the account, this one included; returns how many. */
export async function signOutEverywhere() {
  const done = await api("/api/signout/all", {});
  setUser(null);
  return /** @type {number} */ (done.sessions);
}

/**
 * Deletes the account (its games stay, under a placeholder name, which is
 * returned) and signs out.
 * @param {string} password
 */
export async function deleteAccount(password) {
  const done = await api("/api/account/delete", { password });
  setUser(null);
  return /** @type {string} */ (done.games_kept_as);
}

/**
 * Opens a WebSocket on `path`, calling `onMessage` with each JSON message and
 * reconnecting (after a pause) when the connection drops, until closed.
 * @param {string} path
 * @param {(message: any) => void} onMessage
 * @returns {{close: () => void}}
 */
export function socket(path, onMessage) {
  let closed = false;
  /** @type {WebSocket | null} */
  let ws = null;
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${scheme}//${location.host}${path}`);
    ws.onopen = () => (delay = 500);
    ws.onmessage = (event) => {
      try {
        onMessage(JSON.parse(event.data));
      } catch (error) {
        console.error(error);
      }
    };
    ws.onclose = () => {
      if (closed) return;
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  open();
  return {
    close() {
      closed = true;
      ws?.close();
    },
  };
}

/**
 * Reads an NDJSON response line by line.
 * @param {Response} response
 * @param {(message: any) => void} onMessage
 */
export async function readLines(response, onMessage) {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) onMessage(JSON.parse(line));
    }
  }
}

/**
 * The signed-in player's games waiting for their move, the least time left
 * first (`GET /api/account/waiting`); the page title shows how many.
 * @returns {Promise<any[]>}
 */
export async function waitingGames() {
  if (!me) {
    document.title = "Epaminondas";
    return [];
  }
  try {
    const { games } = await api("/api/account/waiting");
    document.title = games.length ? `(${games.length}) Epaminondas` : "Epaminondas";
    return games;
  } catch {
    return [];
  }
}
