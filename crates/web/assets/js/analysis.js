// The analysis board: load a position or a record, step through it, play
// moves, set up any position in the editor, and ask the engine (which runs
// on the server) for its evaluation and best line.

import { api, readLines, siteOptions } from "./api.js";
import { Board } from "./board.js";
import { h, replace, toast } from "./dom.js";

/** @param {HTMLElement} main */
export function analysisPage(main) {
  const saved = sessionStorage.getItem("analysis");
  sessionStorage.removeItem("analysis");
  /** The line: where it starts and its moves; `ply` moves of it are shown. */
  const offered = siteOptions();
  let line = { start: /** @type {string | undefined} */ (undefined), variant: "epaminondas", board: offered.default_board, symmetry: "mirror", moves: /** @type {string[]} */ ([]) };
  /** @type {{game: number, ply: number} | null} a game whose conditional moves are planned here */
  let plan = null;
  if (saved) {
    try {
      const handed = JSON.parse(saved);
      plan = handed.conditional || null;
      delete handed.conditional;
      line = { ...line, ...handed };
    } catch { /* a damaged hand-over: start afresh */ }
  }
  let ply = line.moves.length;
  /** @type {any} */
  let state = null;
  let editing = false;
  /** @type {{files: number, ranks: number, rows: string[], turn: string}} */
  let draft = { files: 8, ranks: 8, rows: [], turn: "white" };
  /** @type {AbortController | null} */
  let thinking = null;

  const board = new Board({
    onMove: (text) => play(text),
    onIllegal: (why) => toast(`Not a legal move: ${why}`, "error"),
    onSquare: (name) => editSquare(name),
  });
  const status = h("p", { class: "status", "aria-live": "polite" });
  const moveList = h("div", { class: "moves", role: "list", "aria-label": "Moves" });
  const positionText = h("input", { id: "position-text", readonly: true, "aria-label": "Position text", class: "wide" });

  // Loading.
  const loadText = h("textarea", { id: "load-text", "aria-label": "Position text or game record" });
  const sizeSelect = h("select", { id: "new-board", "aria-label": "Board size" }, offered.boards.map((s) => h("option", { value: s }, s)));
  const variantSelect = h("select", { id: "new-variant", "aria-label": "Game" },
    offered.variants.map((v) => h("option", { value: v.name }, v.title)));
  const chosenVariant = () => offered.variants.find((v) => v.name === /** @type {HTMLSelectElement} */ (variantSelect).value) || offered.variants[0];
  variantSelect.addEventListener("change", () => {
    /** @type {HTMLSelectElement} */ (sizeSelect).value = chosenVariant().default_board;
  });
  const loader = h("section", { class: "panel", "aria-labelledby": "load-title" },
    h("h2", { id: "load-title" }, "Load"),
    h("div", { class: "row" }, variantSelect, sizeSelect,
      h("button", { type: "button", class: "secondary", id: "new-start", onclick: () => {
        const variant = chosenVariant();
        load({ variant: variant.name, board: /** @type {HTMLSelectElement} */ (sizeSelect).value, symmetry: variant.default_symmetry, moves: [] });
      } }, "Starting position")),
    h("label", { for: "load-text" }, "Position text or game record"),
    loadText,
    h("div", { class: "row" },
      h("button", { type: "button", id: "load-position", onclick: () => {
        load({ start: /** @type {HTMLTextAreaElement} */ (loadText).value.trim(), variant: line.variant, symmetry: line.symmetry, moves: [] });
      } }, "Load position"),
      h("button", { type: "button", id: "load-record", onclick: loadRecord }, "Load record")));

  // The engine.
  const thinkTime = h("select", { id: "think-time", "aria-label": "Thinking time" },
    [1, 3, 5, 10].filter((s) => s * 1000 <= offered.analysis_max_ms).map((s) => h("option", { value: s * 1000, selected: s === 3 }, `${s} s`)));
  const bar = h("div", {});
  const progress = h("div", { class: "progress", role: "progressbar", "aria-label": "Engine progress", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": 0 }, bar);
  const engineOut = h("div", { id: "engine-output", "aria-live": "polite" });
  const thinkButton = h("button", { type: "button", id: "ask-engine", onclick: askEngine }, "Ask the engine");
  const engine = h("section", { class: "panel", "aria-labelledby": "engine-title" },
    h("h2", { id: "engine-title" }, "Engine"),
    h("div", { class: "row" }, thinkButton, thinkTime), progress, engineOut);

  // The editor.
  const editorTools = h("div", { class: "editor-tools", hidden: true });
  const editButton = h("button", { type: "button", class: "secondary", id: "edit", onclick: () => startEditing() }, "Edit position");

  replace(main,
    h("h1", {}, "Analysis board"),
    h("div", { class: "play" },
      h("div", {}, board.el, editorTools),
      h("aside", {},
        h("section", { class: "panel", "aria-label": "Line" }, status,
          h("div", { class: "row" },
            h("button", { type: "button", class: "secondary", "aria-label": "First position", onclick: () => go(0) }, "«"),
            h("button", { type: "button", class: "secondary", "aria-label": "Previous move", onclick: () => go(ply - 1) }, "‹"),
            h("button", { type: "button", class: "secondary", "aria-label": "Next move", onclick: () => go(ply + 1) }, "›"),
            h("button", { type: "button", class: "secondary", "aria-label": "Last position", onclick: () => go(line.moves.length) }, "»"),
            h("button", { type: "button", class: "secondary", onclick: () => board.setFlipped(!board.flipped) }, "Flip board"),
            editButton),
          moveList, positionText),
        plan ? conditionalPanel(plan) : null, engine, loader)));

  /**
   * The player's conditional moves in the game being planned: each line
   * starts with the opponent's move; the moves played here beyond the
   * game's position are added as a line.
   * @param {{game: number, ply: number}} planned
   */
  function conditionalPanel(planned) {
    const path = `/api/games/${planned.game}/conditional`;
    const list = h("ol", { id: "conditional-lines" });
    /** @type {string[]} */
    let lines = [];
    async function save(/** @type {string[]} */ next) {
      try {
        lines = (await api(path, { lines: next }, "PUT")).lines;
        drawLines();
        return true;
      } catch (error) {
        toast(`Conditional moves refused: ${/** @type {Error} */ (error).message}`, "error");
        return false;
      }
    }
    function drawLines() {
      replace(list, lines.length === 0
        ? h("li", { class: "muted" }, "None yet.")
        : lines.map((text, i) => h("li", {}, h("code", {}, text), " ",
          h("button", { type: "button", class: "secondary", onclick: () => save(lines.filter((_, j) => j !== i)) }, "Remove"))));
    }
    api(path).then((view) => {
      lines = view.lines;
      drawLines();
    }, (error) => toast(error.message, "error"));
    const add = h("button", { type: "button", id: "add-conditional", onclick: async () => {
      const moves = line.moves.slice(planned.ply, ply);
      if (moves.length < 2) {
        toast("Play your opponent's move and your reply on the board first", "error");
        return;
      }
      if (await save([...lines, moves.join(" ")])) toast("Conditional moves saved");
    } }, "Add the moves played here");
    return h("section", { class: "panel", "aria-labelledby": "conditional-title", id: "conditional" },
      h("h2", { id: "conditional-title" }, `Conditional moves, game ${planned.game}`),
      h("p", { class: "muted" }, "Play your opponent's possible move and your reply (and more pairs) from the game's position, then add them. Your reply is played the moment their move matches; the lines stay private until then."),
      list, add, " ", h("a", { href: `/game/${planned.game}` }, "Back to the game"));
  }

  /**
   * Asks the server for the position after `moves` of the line.
   * @param {any} next
   * @param {number} [at]
   */
  async function load(next, at) {
    const shown = at === undefined ? next.moves.length : at;
    try {
      const view = await api("/api/analysis", { ...next, moves: next.moves.slice(0, shown) });
      // From here on the line starts from the position text the server gave.
      line = { start: view.start, variant: view.variant, board: view.state.board, symmetry: view.symmetry, moves: next.moves };
      ply = shown;
      state = view.state;
      stopEngine();
      draw();
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  }

  async function loadRecord() {
    try {
      const view = await api("/api/analysis/record", { record: /** @type {HTMLTextAreaElement} */ (loadText).value });
      load({ start: view.start, variant: view.variant, symmetry: view.symmetry, moves: view.moves });
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  }

  /** @param {number} target */
  function go(target) {
    if (editing) return;
    load(line, Math.max(0, Math.min(line.moves.length, target)));
  }

  /** @param {string} text */
  function play(text) {
    load({ ...line, moves: [...line.moves.slice(0, ply), text] });
  }

  function draw() {
    if (!state) return;
    board.set(state, { interactive: !editing && !state.outcome });
    /** @type {HTMLInputElement} */ (positionText).value = state.position;
    status.textContent = state.outcome
      ? state.outcome.text
      : `${state.variant !== "epaminondas" ? `${state.variant_title} · ` : ""}${state.turn === "white" ? "White" : "Black"} to ${state.stones_to_place > 0 ? "place a stone" : "move"} · crossed: White ${state.goal.white}, Black ${state.goal.black}`;
    const cells = [];
    for (let i = 0; i < line.moves.length; i += 2) {
      cells.push(h("span", { class: "num" }, `${i / 2 + 1}.`));
      for (const p of [i, i + 1]) {
        cells.push(p < line.moves.length
          ? h("button", { type: "button", role: "listitem", class: p + 1 === ply ? "current" : "", onclick: () => go(p + 1) }, line.moves[p])
          : h("span", {}));
      }
    }
    replace(moveList, cells);
  }

  function stopEngine() {
    thinking?.abort();
    thinking = null;
    /** @type {HTMLButtonElement} */ (thinkButton).disabled = false;
  }

  async function askEngine() {
    if (!state || state.outcome) {
      toast("The game is over in this position", "error");
      return;
    }
    stopEngine();
    const controller = new AbortController();
    thinking = controller;
    const movetime = Number(/** @type {HTMLSelectElement} */ (thinkTime).value);
    /** @type {HTMLButtonElement} */ (thinkButton).disabled = true;
    replace(engineOut, h("p", { class: "muted" }, "Thinking…"));
    const started = Date.now();
    const timer = setInterval(() => {
      const done = Math.min(100, ((Date.now() - started) * 100) / movetime);
      bar.style.width = `${done}%`;
      progress.setAttribute("aria-valuenow", String(Math.round(done)));
    }, 100);
    try {
      const response = await fetch("/api/analysis/engine", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ line: { ...line, moves: line.moves.slice(0, ply) }, movetime_ms: movetime }),
        signal: controller.signal,
      });
      if (!response.ok) throw new Error((await response.json()).error);
      await readLines(response, (info) => {
        if (info.error) throw new Error(info.error);
        const words = scoreWords(info.score);
        replace(engineOut,
          h("p", { id: "engine-score" }, h("strong", {}, words), ` · depth ${info.depth} · ${info.nodes.toLocaleString()} nodes`),
          h("p", {}, "Best line: ", h("span", { id: "engine-pv" }, info.pv.join(" ") || "none")),
          info.done && info.best
            ? h("button", { type: "button", class: "secondary", onclick: () => play(info.best) }, `Play ${info.best}`)
            : null);
      });
    } catch (error) {
      if (/** @type {Error} */ (error).name !== "AbortError") toast(/** @type {Error} */ (error).message, "error");
    } finally {
      clearInterval(timer);
      bar.style.width = "100%";
      progress.setAttribute("aria-valuenow", "100");
      if (thinking === controller) stopEngine();
    }
  }

  /** @param {string} score "cp N", "win N" or "loss N", for the side to move */
  function scoreWords(score) {
    const [kind, n] = score.split(" ");
    const side = state.turn === "white" ? "White" : "Black";
    if (kind === "win") return `${side} wins in ${n} plies`;
    if (kind === "loss") return `${side} loses in ${n} plies`;
    const value = Number(n) / 100;
    const white = state.turn === "white" ? value : -value;
    return `${white >= 0 ? "+" : ""}${white.toFixed(2)} (for White)`;
  }

  // ---- the editor ----

  function startEditing() {
    if (!state) return;
    editing = true;
    stopEngine();
    draft = { files: state.files, ranks: state.ranks, rows: [...state.rows], turn: state.turn };
    drawEditor();
  }

  function drawEditor() {
    const number = (/** @type {string} */ id, /** @type {string} */ label, /** @type {number} */ value) =>
      h("label", {}, label, h("input", { type: "number", id, min: 4, max: 26, value, class: "short-number" }));
    replace(editorTools,
      h("fieldset", {}, h("legend", {}, "Click a square to put"),
        ["white", "black", ...(line.variant === "stumbling-blocks" ? ["stone"] : []), "empty"].map((tool, i) => h("label", { class: "inline-choice" },
          h("input", { type: "radio", name: "tool", value: tool, checked: i === 0 }), ` ${tool}`))),
      number("edit-files", "Files", draft.files),
      number("edit-ranks", "Ranks", draft.ranks),
      h("button", { type: "button", class: "secondary", onclick: resize }, "Resize (clears)"),
      h("label", {}, "To move", h("select", { id: "edit-turn", onchange: (/** @type {Event} */ e) => (draft.turn = /** @type {HTMLSelectElement} */ (e.target).value) },
        ["white", "black"].map((t) => h("option", { value: t, selected: t === draft.turn }, t)))),
      h("button", { type: "button", class: "secondary", onclick: () => { draft.rows = draft.rows.map((r) => ".".repeat(r.length)); drawDraft(); } }, "Clear"),
      h("button", { type: "button", id: "edit-done", onclick: finishEditing }, "Done"),
      h("button", { type: "button", class: "secondary", onclick: () => { editing = false; editorTools.hidden = true; board.setEditing(false); draw(); } }, "Cancel"));
    editorTools.hidden = false;
    board.setEditing(true);
    drawDraft();
  }

  function drawDraft() {
    board.set({ files: draft.files, ranks: draft.ranks, rows: draft.rows, legal: [], last: null });
    status.textContent = "Editing: click squares, then Done.";
  }

  function resize() {
    const files = Number(/** @type {HTMLInputElement} */ (document.getElementById("edit-files")).value);
    const ranks = Number(/** @type {HTMLInputElement} */ (document.getElementById("edit-ranks")).value);
    if (!(files >= 4 && files <= 26 && ranks >= 4 && ranks <= 26)) {
      toast("Boards are 4 to 26 squares each way", "error");
      return;
    }
    draft = { ...draft, files, ranks, rows: Array.from({ length: ranks }, () => ".".repeat(files)) };
    drawDraft();
  }

  /** @param {string} name */
  function editSquare(name) {
    const tool = /** @type {HTMLInputElement | null} */ (editorTools.querySelector("input[name=tool]:checked"));
    const mark = { white: "w", black: "b", stone: "s", empty: "." }[tool ? tool.value : "white"] || ".";
    const file = name.charCodeAt(0) - 97;
    const row = draft.ranks - Number(name.slice(1));
    const current = draft.rows[row];
    // Clicking a square that already holds the chosen piece empties it.
    const next = current[file] === mark ? "." : mark;
    draft.rows[row] = current.slice(0, file) + next + current.slice(file + 1);
    drawDraft();
  }

  async function finishEditing() {
    try {
      const view = await api("/api/analysis", { rows: draft.rows, turn: draft.turn, variant: line.variant, symmetry: line.symmetry, moves: [] });
      editing = false;
      editorTools.hidden = true;
      board.setEditing(false);
      load({ start: view.start, variant: view.variant, symmetry: view.symmetry, moves: [] });
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  }

  /** @param {KeyboardEvent} event */
  const onKey = (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (editing || target.closest("input, textarea, select, svg")) return;
    if (event.key === "ArrowLeft") go(ply - 1);
    else if (event.key === "ArrowRight") go(ply + 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(line.moves.length);
    else return;
    event.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  load(line, ply);
  return () => {
    stopEngine();
    document.removeEventListener("keydown", onKey);
  };
}
