// The computer analysis of a finished game on its page: the button that
// asks for it, its progress, then the evaluation graph, each side's
// inaccuracies, mistakes and blunders with the better moves, and the
// annotated record. The server runs the engine and judges the moves.

import { api, currentUser } from "./api.js";
import { h, replace, toast } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const MARK_NAMES = { "?!": "Inaccuracy", "?": "Mistake", "??": "Blunder" };

/**
 * @param {string} tag
 * @param {Record<string, any>} attrs
 */
function s(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * White's expected score at each position, drawn left to right: the top is
 * a White win, the bottom a Black win. A click shows that position.
 * @param {any[]} moves the analysed positions
 * @param {(ply: number) => void} onPly
 */
function graph(moves, onPly) {
  const width = 320;
  const height = 100;
  const x = (/** @type {number} */ ply) => moves.length > 1 ? (ply * width) / (moves.length - 1) : 0;
  const y = (/** @type {number | null} */ p) => (1 - (p ?? 0.5)) * height;
  const points = moves.map((m) => `${x(m.ply).toFixed(1)},${y(m.white_expected).toFixed(1)}`);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "eval-graph", id: "eval-graph", role: "img",
    "aria-label": "Evaluation graph: White's winning chances move by move" });
  svg.append(s("rect", { x: 0, y: 0, width, height, class: "black-side" }));
  svg.append(s("polygon", { points: `0,${height} ${points.join(" ")} ${width},${height}`, class: "white-side" }));
  svg.append(s("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "middle" }));
  for (const m of moves.filter((m) => m.mark)) {
    const dot = s("circle", { cx: x(m.ply), cy: y(m.white_expected), r: 4, class: `mark mark-${m.mark === "??" ? "blunder" : m.mark === "?" ? "mistake" : "inaccuracy"}` });
    const title = s("title", {});
    title.textContent = `${MARK_NAMES[/** @type {"?!"} */ (m.mark)]}: ${m.played}`;
    dot.append(title);
    svg.append(dot);
  }
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((event.clientX - box.left) / box.width) * (moves.length - 1));
    onPly(Math.max(0, Math.min(moves.length - 1, ply)));
  });
  return svg;
}

/**
 * The analysis panel of game `id`.
 * @param {string} id
 * @param {(ply: number) => void} onPly shows the position after `ply` moves
 */
export function reviewPanel(id, onPly) {
  const body = h("div", { id: "review" });
  const el = h("section", { "aria-labelledby": "review-title", hidden: true },
    h("h2", { id: "review-title" }, "Computer analysis"), body);
  /** @type {any} */
  let timer = null;
  let last = "";
  /** The analysed positions, once done. @type {any[]} */
  let analysed = [];
  let shownPly = 0;
  const here = h("p", { id: "review-here", "aria-live": "polite" });

  /**
   * Says what the engine thought of the position after `ply` moves.
   * @param {number} ply
   */
  function at(ply) {
    shownPly = ply;
    const position = analysed[ply];
    if (!position) {
      here.textContent = "";
      return;
    }
    const after = ply === 0 ? "At the start" : `After ${Math.ceil(ply / 2)}${ply % 2 ? "." : "…"} ${position.played}${position.mark || ""}`;
    here.textContent = position.best
      ? `${after}: ${position.eval}; the engine's move is ${position.best} (${position.line.join(" ")}).`
      : `${after}: ${position.eval}.`;
  }

  async function request() {
    try {
      await api(`/api/games/${id}/analysis`, {});
      refresh(true);
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  }

  /** @param {any} view */
  function draw(view) {
    const me = currentUser();
    if (view.status === "none") {
      replace(body, me && !me.guest
        ? h("button", { type: "button", id: "request-review", class: "secondary", onclick: request }, "Request computer analysis")
        : h("p", { class: "muted" }, "No computer analysis yet: a signed-in player can ask for one."));
      return;
    }
    if (view.status === "queued" || view.status === "running") {
      const done = Math.round((100 * view.done_positions) / Math.max(1, view.positions));
      const bar = h("div", {});
      replace(body,
        h("p", { id: "review-progress" }, view.status === "queued" ? "Waiting for the engine…" : `Analysing: ${view.done_positions} of ${view.positions} positions.`),
        h("div", { class: "progress", role: "progressbar", "aria-label": "Analysis progress", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": done }, bar));
      // Set through the style object: the site's CSP allows no style attributes.
      bar.style.width = `${done}%`;
      return;
    }
    if (view.status === "failed") {
      replace(body, h("p", { class: "error" }, "The analysis could not be made."));
      return;
    }
    analysed = view.moves;
    at(shownPly);
    const marked = view.moves.filter((/** @type {any} */ m) => m.mark);
    const count = (/** @type {string} */ side, /** @type {string} */ mark) => view.marks[side][mark];
    replace(body,
      graph(view.moves, onPly),
      here,
      h("table", { id: "review-summary" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "Inaccuracies"), h("th", {}, "Mistakes"), h("th", {}, "Blunders"))),
        h("tbody", {}, ["white", "black"].map((side) => h("tr", {},
          h("th", {}, side === "white" ? "White" : "Black"),
          h("td", {}, count(side, "?!")), h("td", {}, count(side, "?")), h("td", {}, count(side, "??")))))),
      marked.length
        ? h("ol", { class: "plain", id: "review-marks" }, marked.map((/** @type {any} */ m) => {
          const before = view.moves[m.ply - 1];
          return h("li", {}, h("button", { type: "button", class: "link", onclick: () => onPly(m.ply) },
            `${Math.ceil(m.ply / 2)}${m.ply % 2 ? "." : "…"} ${m.played}${m.mark}`),
          ` ${MARK_NAMES[/** @type {"?!"} */ (m.mark)]}: ${before.best} was best (${before.eval}).`);
        }))
        : h("p", { class: "muted" }, "No inaccuracies, mistakes or blunders."),
      h("p", {}, h("a", { href: `/api/games/${id}/analysis/record`, download: `game-${id}-analysed.txt`, id: "review-record" }, "Download the annotated record")));
  }

  /**
   * Reads the analysis again (polling while it runs).
   * @param {boolean} [finished] whether the game is over (only then is there one)
   */
  async function refresh(finished = true) {
    el.hidden = !finished;
    if (!finished) return;
    clearTimeout(timer);
    try {
      const view = await api(`/api/games/${id}/analysis`);
      const key = `${view.status}:${view.done_positions}`;
      if (key !== last) {
        last = key;
        draw(view);
      }
      if (view.status === "queued" || view.status === "running") timer = setTimeout(() => refresh(true), 1500);
    } catch (error) {
      replace(body, h("p", { class: "error" }, /** @type {Error} */ (error).message));
    }
  }

  return { el, refresh, at, close: () => clearTimeout(timer) };
}
