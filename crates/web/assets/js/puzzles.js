// The puzzle trainer: the visitor plays the winning side's moves, the site
// answers with the defence, and a wrong move ends the attempt with the
// solution shown. The server holds the solutions and judges every move; a
// signed-in player's first attempt at a puzzle changes their puzzle rating.

import { api, currentUser } from "./api.js";
import { Board } from "./board.js";
import { h, replace, toast } from "./dom.js";
import { navigate } from "./app.js";

/**
 * `/puzzles` (a next puzzle), `/puzzle/daily` or `/puzzle/{id}`.
 * @param {HTMLElement} main
 * @param {string[]} params the puzzle's id, if the address names one
 */
export function puzzlesPage(main, [wanted]) {
  /** @type {any} */
  let puzzle = null;
  /** @type {string[]} */
  let moves = [];
  let over = false;
  const title = h("h1", {}, "Puzzles");
  const task = h("p", { id: "puzzle-task" });
  const verdict = h("p", { id: "puzzle-verdict", role: "status", "aria-live": "polite" });
  const info = h("p", { class: "muted", id: "puzzle-info" });
  const boardChoice = h("select", { id: "puzzle-board", "aria-label": "Board size" },
    h("option", { value: "14x12" }, "14x12"), h("option", { value: "8x8" }, "8x8"));
  const next = h("button", { type: "button", id: "puzzle-next", onclick: () => {
    if (location.pathname !== "/puzzles") navigate("/puzzles");
    else load();
  } }, "Next puzzle");
  const rating = h("p", { id: "puzzle-rating" });
  const history = h("ol", { class: "plain", id: "puzzle-history" });
  const board = new Board({
    onMove: (text) => play(text),
    onIllegal: (why) => toast(`Not a legal move: ${why}`, "error"),
  });

  /** @param {any} view */
  function start(view) {
    puzzle = view;
    moves = [];
    over = false;
    const side = view.winner === "white" ? "White" : "Black";
    board.flipped = view.winner === "black";
    board.set(view.state, { interactive: true });
    title.textContent = `Puzzle ${view.id}`;
    task.textContent = view.moves_to_find === 1
      ? `${side} to play and win: find the one move that wins.`
      : `${side} to play and win in ${view.moves_to_find} moves: only one first move wins.`;
    verdict.textContent = "";
    verdict.className = "";
    info.textContent = `Rated ${view.rating} · ${view.state.board} · solved ${view.solved} of ${view.attempts} rated attempts.`;
  }

  async function load() {
    try {
      const path = wanted === "daily" ? "/api/puzzles/daily"
        : wanted ? `/api/puzzles/${encodeURIComponent(wanted)}`
          : `/api/puzzles/next?board=${/** @type {HTMLSelectElement} */ (boardChoice).value}`;
      start(await api(path));
    } catch (error) {
      verdict.textContent = /** @type {Error} */ (error).message;
      verdict.className = "error";
    }
  }

  /** @param {string} text */
  async function play(text) {
    if (!puzzle || over) return;
    try {
      const answer = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, { moves: [...moves, text] });
      moves.push(text);
      if (answer.reply) moves.push(answer.reply);
      if (answer.result === "reply") {
        verdict.textContent = `Right. The defence: ${answer.reply}. Go on.`;
        verdict.className = "right";
        board.set(answer.state, { interactive: true });
        return;
      }
      over = true;
      board.set(answer.state, { interactive: false });
      const change = answer.rating ? ` Your puzzle rating: ${answer.rating.before} → ${answer.rating.after}.` : "";
      if (answer.result === "solved") {
        verdict.textContent = `Solved!${change}`;
        verdict.className = "right";
      } else {
        verdict.textContent = `Not ${text}: that does not win. The solution: ${answer.solution.join(" ")}.${change}`;
        verdict.className = "error";
      }
      showRecord();
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
      board.set(board.state, { interactive: true });
    }
  }

  async function showRecord() {
    const me = currentUser();
    if (!me) {
      rating.textContent = "Sign in to get a puzzle rating and a history.";
      return;
    }
    try {
      const record = await api("/api/account/puzzles");
      rating.textContent = `Your puzzle rating: ${record.rating} (±${record.deviation}), ${record.solved} solved of ${record.attempts}.`;
      replace(history, record.history.slice(0, 10).map((/** @type {any} */ a) => h("li", {},
        h("a", { href: `/puzzle/${a.puzzle}` }, a.puzzle), " ",
        h("span", { class: a.solved ? "badge" : "badge warn" }, a.solved ? "solved" : "failed"), " ",
        `${a.rating_before} → ${a.rating_after}`)));
    } catch (error) {
      rating.textContent = /** @type {Error} */ (error).message;
    }
  }

  replace(main, title,
    h("div", { class: "play" },
      h("div", {}, board.el),
      h("aside", { class: "panel", "aria-label": "Puzzle" }, task, verdict, info,
        h("div", { class: "row" }, next, wanted ? null : boardChoice),
        h("h2", {}, "Your puzzles"), rating, history)));
  boardChoice.addEventListener("change", () => load());
  load();
  showRecord();
}

/**
 * The daily puzzle's card for the lobby: a small board and a link.
 * @returns {HTMLElement}
 */
export function dailyPuzzleCard() {
  const board = new Board({});
  const caption = h("p", { class: "muted" }, "Loading…");
  const card = h("section", { class: "panel", "aria-labelledby": "daily-title", id: "daily-puzzle" },
    h("h2", { id: "daily-title" }, "Puzzle of the day"),
    h("a", { href: "/puzzle/daily", class: "daily-board", "aria-label": "Solve the puzzle of the day" }, board.el),
    caption,
    h("p", {}, h("a", { href: "/puzzle/daily" }, "Solve it"), " · ", h("a", { href: "/puzzles" }, "More puzzles")));
  api("/api/puzzles/daily").then((view) => {
    board.flipped = view.winner === "black";
    board.set(view.state, { interactive: false });
    caption.textContent = `${view.winner === "white" ? "White" : "Black"} to play and win · rated ${view.rating}`;
  }).catch((error) => {
    caption.textContent = /** @type {Error} */ (error).message;
  });
  return card;
}
