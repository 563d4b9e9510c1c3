// Small DOM helpers shared by the pages.

/**
 * Makes an element: `h("button", {class: "x", onclick: f}, "Text", child)`.
 * Attributes starting with "on" become event listeners; `false`/`null`
 * attributes are left out; children may be strings, nodes or arrays.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "value") {
      /** @type {any} */ (el).value = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {any[]} children
 */
function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/**
 * Replaces the children of `el`.
 * @param {Element} el
 * @param {...any} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * Shows a short message at the foot of the page.
 * @param {string} text
 * @param {"info" | "error"} [kind]
 */
export function toast(text, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = kind;
  el.classList.add("shown");
  clearTimeout(/** @type {any} */ (toast).timer);
  /** @type {any} */ (toast).timer = setTimeout(() => el.classList.remove("shown"), 4000);
}

/**
 * A clock reading: `m:ss`, or `h:mm:ss` past an hour; tenths under ten seconds.
 * @param {number} ms
 */
export function clockText(ms) {
  const total = Math.max(0, ms);
  if (total < 10_000) return (total / 1000).toFixed(1);
  // Correspondence banks: days and hours.
  if (total >= 86_400_000) {
    const hours = Math.floor(total / 3_600_000);
    return `${Math.floor(hours / 24)}d ${hours % 24}h`;
  }
  const s = Math.floor(total / 1000);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = String(s % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * How a time control reads: "unlimited", "3 days per move", "5+3".
 * @param {any} time
 */
export function timeText(time) {
  if (!time || time.kind === "unlimited") return "unlimited";
  if (time.kind === "correspondence") {
    return `${time.days_per_move} day${time.days_per_move === 1 ? "" : "s"} per move`;
  }
  if (time.kind === "bank") {
    return `time bank ${spanText(time.initial_ms)} + ${spanText(time.increment_ms)} a move, at most ${spanText(time.max_ms)}`;
  }
  return `${Math.round(time.initial_ms / 60000)}+${Math.round(time.increment_ms / 1000)}`;
}

/**
 * A length of time in days and hours: "10d", "1d 12h", "36h" reads "1d 12h".
 * @param {number} ms
 */
export function spanText(ms) {
  if (ms < 3_600_000) return `${Math.max(1, Math.round(ms / 60_000))}m`;
  const hours = Math.round(ms / 3_600_000);
  const days = Math.floor(hours / 24);
  if (days === 0) return `${hours}h`;
  return hours % 24 ? `${days}d ${hours % 24}h` : `${days}d`;
}

/**
 * A game's or challenge's variant as the start of its description
 * ("Crossings, "), or nothing for the standard game.
 * @param {{variant?: string, variant_title?: string}} g
 */
export function gameName(g) {
  return g.variant && g.variant !== "epaminondas" ? `${g.variant_title}, ` : "";
}
