// The board, drawn as SVG. It knows no rules: it is given the pieces (and
// the neutral stones of Stumbling Blocks) and the legal moves, each with
// the squares it touches, by the server, and reports the move the player
// chose by its text.
//
// Picking a move: a piece, then the square its group's head reaches; for
// an Abanondas sidestep, the square the picked piece steps onto; for a
// Stumbling Blocks placement, just the empty square.

import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * @typedef {{text: string, kind?: string, from: string[], to: string, lands?: string[],
 *   captured: string[]}} MoveView
 * @typedef {{files: number, ranks: number, rows: string[], turn?: string,
 *   legal?: MoveView[], last?: MoveView | null}} BoardState
 */

/**
 * @param {string} tag
 * @param {Record<string, any>} attrs
 * @returns {SVGElement}
 */
function s(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The name of the square on `file` and `rank` (both from 0): `a1`. */
export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

/**
 * Whether two board states show the same position with the same legal moves.
 * @param {BoardState} a
 * @param {BoardState} b
 */
function samePosition(a, b) {
  const moves = (/** @type {BoardState} */ s) => (s.legal || []).map((m) => m.text).join(" ");
  return a.files === b.files && a.ranks === b.ranks && a.turn === b.turn &&
    a.rows.join("/") === b.rows.join("/") && moves(a) === moves(b);
}

export class Board {
  /**
   * @param {{onMove?: (text: string) => void | Promise<void>, onIllegal?: (why: string) => void,
   *   onSquare?: (name: string) => void}} options `onSquare` gets every square clicked
   *   while the board is in editing mode (see `setEditing`)
   */
  constructor(options = {}) {
    this.onMove = options.onMove || (() => {});
    this.onSquare = options.onSquare || (() => {});
    this.editing = false;
    this.onIllegal = options.onIllegal || (() => {});
    /** @type {BoardState} */
    this.state = { files: 8, ranks: 8, rows: [] };
    this.flipped = false;
    this.interactive = false;
    /** @type {string | null} */
    this.selected = null;
    this.focus = { col: 0, row: 0 };
    this.svg = /** @type {SVGSVGElement} */ (s("svg", { class: "board", role: "grid" }));
    this.picker = h("div", { class: "picker", hidden: true });
    /** @type {{col: number, row: number} | null} the loupe's centre, when open */
    this.loupeAt = null;
    this.loupe = h("div", { class: "loupe", hidden: true, role: "dialog", "aria-label": "Magnified squares" });
    this.el = h("div", { class: "board-wrap" }, this.svg, this.picker, this.loupe);
    this.drag = null;
    this.suppressClick = false;
    this.picker.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.cancel();
    });
    this.svg.addEventListener("click", (e) => this.onClick(e));
    this.svg.addEventListener("focusin", (e) => {
      const cell = /** @type {Element} */ (e.target).closest("[data-square]");
      if (cell) this.focusOn(/** @type {string} */ (cell.getAttribute("data-square")));
    });
    this.svg.addEventListener("keydown", (e) => this.onKey(e));
    this.svg.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    window.addEventListener("pointermove", (e) => this.onPointerMove(e));
    window.addEventListener("pointerup", (e) => this.onPointerUp(e));
  }

  /**
   * Shows a position. `interactive` lets the player pick among `legal`.
   * @param {BoardState} state
   * @param {{interactive?: boolean}} [options]
   */
  set(state, options = {}) {
    const interactive = !!options.interactive && (state.legal || []).length > 0;
    // The same position again (a chat message, a spectator, the stream's
    // first message after the page's own request): what the player has
    // selected, the move picker and the loupe stay open.
    const same = !!this.state && interactive === this.interactive && samePosition(this.state, state);
    this.state = state;
    this.interactive = interactive;
    if (!same) {
      this.selected = null;
      this.closePicker();
      this.closeLoupe();
    }
    this.render();
    if (same && this.loupeAt) this.renderLoupe();
  }

  /**
   * In editing mode every square clicked goes to `onSquare` instead of
   * making a move.
   * @param {boolean} editing
   */
  setEditing(editing) {
    this.editing = editing;
    this.selected = null;
    this.render();
  }

  /** @param {boolean} flipped whether Black's side is at the bottom */
  setFlipped(flipped) {
    this.flipped = flipped;
    this.render();
  }

  /** What stands on `name` as the position text writes it ("w", "b", "s" or "."). */
  contentAt(name) {
    const file = name.charCodeAt(0) - 97;
    const rank = Number(name.slice(1)) - 1;
    const row = this.state.rows[this.state.ranks - 1 - rank] || "";
    return row[file] || ".";
  }

  /** The piece on `name`: "w", "b" or "" (a neutral stone is no piece). */
  pieceAt(name) {
    const c = this.contentAt(name);
    return c === "w" || c === "b" ? c : "";
  }

  /** Whether a neutral stone (Stumbling Blocks) stands on `name`. */
  stoneAt(name) {
    return this.contentAt(name) === "s";
  }

  /** The legal placements of stones (Stumbling Blocks' first plies). */
  placements() {
    return (this.state.legal || []).filter((m) => m.kind === "placement");
  }

  /** Display column and row (from the top left) to square name. */
  nameAt(col, row) {
    const { files, ranks } = this.state;
    return this.flipped ? squareName(files - 1 - col, row) : squareName(col, ranks - 1 - row);
  }

  /** The legal moves whose group includes `name`. */
  movesOf(name) {
    return (this.state.legal || []).filter((m) => m.from.includes(name));
  }

  /**
   * The squares a click may finish a move on: square -> moves. With a
   * piece selected, where its moves go (a phalanx move's head square, or
   * the square a sidestep puts the selected piece on); with none, the
   * squares a stone may be placed on.
   */
  targets() {
    /** @type {Map<string, MoveView[]>} */
    const map = new Map();
    const add = (/** @type {string} */ square, /** @type {MoveView} */ m) => {
      const list = map.get(square) || [];
      list.push(m);
      map.set(square, list);
    };
    if (!this.selected) {
      for (const m of this.placements()) add(m.to, m);
      return map;
    }
    for (const m of this.movesOf(this.selected)) {
      if (m.kind === "sidestep" && m.lands) add(m.lands[m.from.indexOf(this.selected)], m);
      else add(m.to, m);
    }
    return map;
  }

  render() {
    const { files, ranks } = this.state;
    const margin = 0.55;
    const svg = this.svg;
    // Redrawing replaces the squares: keep the keyboard focus on the board.
    const hadFocus = svg.contains(document.activeElement);
    svg.replaceChildren();
    svg.setAttribute("viewBox", `${-margin} 0 ${files + margin} ${ranks + margin}`);
    svg.setAttribute("aria-label", `Board, ${files} files by ${ranks} ranks` +
      (this.state.turn ? `, ${this.state.turn} to move` : ""));
    const targets = this.targets();
    const last = this.state.last;
    const lastFrom = new Set(last ? [...last.from, ...(last.lands || [])] : []);
    const lastCaptured = new Set(last ? last.captured : []);
    const selectedGroupSquares = new Set();
    for (let row = 0; row < ranks; row++) {
      const rowEl = s("g", { role: "row" });
      for (let col = 0; col < files; col++) {
        const name = this.nameAt(col, row);
        const piece = this.pieceAt(name);
        const rank = Number(name.slice(1)) - 1;
        const dark = (name.charCodeAt(0) - 97 + rank) % 2 === 0;
        const isTarget = targets.has(name);
        const captures = isTarget && targets.get(name).some((m) => m.captured.length > 0);
        const focused = this.focus.col === col && this.focus.row === row;
        const cell = s("g", {
          role: "gridcell",
          "data-square": name,
          tabindex: focused ? 0 : -1,
          "aria-label": this.label(name, piece, isTarget, captures, last),
          class: "sq",
        });
        const goal = rank === 0 || rank === ranks - 1;
        cell.append(s("rect", {
          x: col, y: row, width: 1, height: 1,
          class: `cell ${dark ? "dark" : "light"}${goal ? " goal" : ""}`,
        }));
        if (last && (lastFrom.has(name) || last.to === name)) {
          cell.append(s("rect", { x: col + 0.04, y: row + 0.04, width: 0.92, height: 0.92, class: "last" }));
        }
        if (this.selected === name) {
          cell.append(s("rect", { x: col + 0.04, y: row + 0.04, width: 0.92, height: 0.92, class: "selected" }));
        }
        if (piece) cell.append(...pieceShape(piece, col + 0.5, row + 0.5, selectedGroupSquares.has(name)));
        if (this.stoneAt(name)) {
          cell.append(s("rect", { x: col + 0.18, y: row + 0.18, width: 0.64, height: 0.64, rx: 0.08, class: "stone" }));
        }
        if (lastCaptured.has(name) && !piece) {
          cell.append(s("path", {
            d: `M${col + 0.3} ${row + 0.3}L${col + 0.7} ${row + 0.7}M${col + 0.7} ${row + 0.3}L${col + 0.3} ${row + 0.7}`,
            class: "captured-mark",
          }));
        }
        if (isTarget) {
          cell.append(captures
            ? s("circle", { cx: col + 0.5, cy: row + 0.5, r: 0.44, class: "target capture" })
            : s("circle", { cx: col + 0.5, cy: row + 0.5, r: 0.14, class: "target" }));
        }
        rowEl.append(cell);
      }
      svg.append(rowEl);
    }
    // Coordinates: files along the foot, ranks down the left side.
    for (let col = 0; col < files; col++) {
      const t = s("text", { x: col + 0.5, y: ranks + 0.4, class: "coord", "aria-hidden": "true" });
      t.textContent = this.nameAt(col, 0).charAt(0);
      svg.append(t);
    }
    for (let row = 0; row < ranks; row++) {
      const t = s("text", { x: -margin / 2, y: row + 0.62, class: "coord", "aria-hidden": "true" });
      t.textContent = this.nameAt(0, row).slice(1);
      svg.append(t);
    }
    svg.classList.toggle("interactive", this.interactive || this.editing);
    if (hadFocus) /** @type {any} */ (svg.querySelector('[tabindex="0"]'))?.focus();
  }

  /**
   * A square's label for screen readers: "e5, white piece, can move here".
   * @param {string} name
   * @param {string} piece
   * @param {boolean} isTarget
   * @param {boolean} captures
   * @param {MoveView | null | undefined} last
   */
  label(name, piece, isTarget, captures, last) {
    const what = piece === "w" ? "white piece" : piece === "b" ? "black piece" : this.stoneAt(name) ? "neutral stone" : "empty";
    const parts = [name, what];
    if (this.selected === name) parts.push("selected");
    if (isTarget) parts.push(captures ? "capture here" : this.selected ? "can move here" : "can place a stone here");
    if (last && last.to === name) parts.push("last move");
    if (last && last.captured.includes(name)) parts.push("captured last move");
    return parts.join(", ");
  }

  /** @param {MouseEvent} event */
  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const cell = /** @type {Element} */ (event.target).closest("[data-square]");
    if (!cell) return;
    const name = /** @type {string} */ (cell.getAttribute("data-square"));
    // Squares too small for a finger: the tap opens a magnified view of
    // the squares around it, where the move is picked.
    if (this.interactive && !this.editing && this.squaresTooSmall()) {
      this.openLoupe(name);
      return;
    }
    this.activate(name);
  }

  /**
   * Whether the board is used by touch and its squares are smaller than a
   * fingertip (the usual 44 px touch target, with a little slack).
   */
  squaresTooSmall() {
    const coarse = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
    if (!coarse) return false;
    const width = this.svg.getBoundingClientRect().width;
    const margin = 0.55;
    return width / (this.state.files + margin) < 40;
  }

  /**
   * Opens the loupe on the squares around `name` (five by five, kept
   * within the board).
   * @param {string} name
   */
  openLoupe(name) {
    const { files, ranks } = this.state;
    const file = name.charCodeAt(0) - 97;
    const rank = Number(name.slice(1)) - 1;
    const col = this.flipped ? files - 1 - file : file;
    const row = this.flipped ? rank : ranks - 1 - rank;
    this.loupeAt = { col, row };
    this.renderLoupe();
  }

  closeLoupe() {
    this.loupeAt = null;
    this.loupe.hidden = true;
    this.loupe.replaceChildren();
  }

  /** Draws the loupe's squares as large buttons that act as the board's. */
  renderLoupe() {
    if (!this.loupeAt || !this.interactive) {
      this.closeLoupe();
      return;
    }
    const { files, ranks } = this.state;
    const span = 5;
    const clamp = (/** @type {number} */ v, /** @type {number} */ n) => Math.max(0, Math.min(Math.max(0, n - span), v - 2));
    const left = clamp(this.loupeAt.col, files);
    const top = clamp(this.loupeAt.row, ranks);
    const targets = this.targets();
    const cells = [];
    for (let row = top; row < Math.min(ranks, top + span); row++) {
      for (let col = left; col < Math.min(files, left + span); col++) {
        const name = this.nameAt(col, row);
        const piece = this.pieceAt(name);
        const rank = Number(name.slice(1)) - 1;
        const dark = (name.charCodeAt(0) - 97 + rank) % 2 === 0;
        const isTarget = targets.has(name);
        const captures = isTarget && targets.get(name).some((m) => m.captured.length > 0);
        const classes = ["lsq", dark ? "dark" : "light"];
        if (this.stoneAt(name)) classes.push("stone");
        if (this.selected === name) classes.push("selected");
        if (isTarget) classes.push(captures ? "capture" : "target");
        cells.push(h("button", {
          type: "button",
          class: classes.join(" "),
          "data-square": name,
          "aria-label": this.label(name, piece, isTarget, captures, this.state.last),
          onclick: () => {
            this.activate(name);
            if (this.loupeAt) this.renderLoupe();
          },
        }, h("span", { class: `lpiece ${piece}` }), h("span", { class: "lname" }, name)));
      }
    }
    const grid = h("div", { class: "loupe-grid" }, cells);
    // (Through the CSSOM: the site's CSP allows no inline style attributes.)
    grid.style.gridTemplateColumns = `repeat(${Math.min(span, files)}, 48px)`;
    this.loupe.replaceChildren(
      grid,
      h("button", { type: "button", class: "secondary", onclick: () => this.closeLoupe() }, "Close"),
    );
    this.loupe.hidden = false;
  }

  /**
   * The player clicked (or pressed Enter on) a square.
   * @param {string} name
   */
  activate(name) {
    this.focusOn(name);
    if (this.editing) {
      this.onSquare(name);
      return;
    }
    if (!this.interactive) return;
    this.closePicker();
    const targets = this.targets();
    if (targets.has(name)) {
      this.choose(/** @type {MoveView[]} */ (targets.get(name)));
      return;
    }
    if (this.selected === name) {
      this.selected = null;
    } else if (this.movesOf(name).length > 0) {
      this.selected = name;
    } else if (this.selected) {
      this.selected = null;
      this.onIllegal(`${name} is not a square the selected piece can reach`);
    } else if (this.pieceAt(name)) {
      this.onIllegal(`the piece on ${name} has no move`);
    }
    this.render();
  }

  /**
   * Plays the one move, or lets the player pick among several groups.
   * @param {MoveView[]} moves
   */
  choose(moves) {
    if (moves.length === 1) {
      this.play(moves[0].text);
      return;
    }
    this.picker.replaceChildren(
      h("p", {}, "Which group moves?"),
      ...moves.map((m) =>
        h("button", {
          type: "button",
          "data-move": m.text,
          onclick: () => this.play(m.text),
        }, `${m.text} (${m.from.length} piece${m.from.length > 1 ? "s" : ""}` +
          (m.kind === "sidestep" ? ", sidestep" : "") +
          (m.captured.length ? `, takes ${m.captured.length}` : "") + ")"),
      ),
      h("button", { type: "button", class: "secondary", onclick: () => this.cancel() }, "Cancel"),
    );
    this.picker.hidden = false;
    /** @type {HTMLElement | null} */ (this.picker.querySelector("button"))?.focus();
  }

  /** Drops the selection and the picker: nothing is played. */
  cancel() {
    this.selected = null;
    this.closePicker();
    this.render();
  }

  closePicker() {
    this.picker.hidden = true;
    this.picker.replaceChildren();
  }

  /** @param {string} text */
  play(text) {
    this.closeLoupe();
    this.closePicker();
    this.selected = null;
    this.interactive = false;
    this.render();
    this.onMove(text);
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    const { files, ranks } = this.state;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = /** @type {Record<string, number[]>} */ (moves)[event.key];
    if (step) {
      event.preventDefault();
      event.stopPropagation();
      this.focus = {
        col: Math.min(files - 1, Math.max(0, this.focus.col + step[0])),
        row: Math.min(ranks - 1, Math.max(0, this.focus.row + step[1])),
      };
      this.render();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(this.nameAt(this.focus.col, this.focus.row));
    } else if (event.key === "Escape") {
      this.cancel();
    }
  }

  /** Makes `name` the square that holds the keyboard focus (the roving tab stop). */
  focusOn(name) {
    const { files, ranks } = this.state;
    for (let row = 0; row < ranks; row++) {
      for (let col = 0; col < files; col++) {
        if (this.nameAt(col, row) === name) this.focus = { col, row };
      }
    }
  }

  /** @param {PointerEvent} event */
  onPointerDown(event) {
    if (!this.interactive || this.editing || event.button !== 0) return;
    const cell = /** @type {Element} */ (event.target).closest("[data-square]");
    if (!cell) return;
    const name = /** @type {string} */ (cell.getAttribute("data-square"));
    if (this.movesOf(name).length === 0) return;
    this.drag = { name, x: event.clientX, y: event.clientY, moved: false, ghost: null };
  }

  /** @param {PointerEvent} event */
  onPointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      this.selected = drag.name;
      this.render();
      drag.ghost = h("div", { class: `ghost ${this.pieceAt(drag.name)}` });
      document.body.append(drag.ghost);
    }
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
  }

  /** @param {PointerEvent} event */
  onPointerUp(event) {
    const drag = this.drag;
    this.drag = null;
    if (!drag || !drag.moved) return;
    drag.ghost?.remove();
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const cell = under && under.closest("[data-square]");
    const name = cell && cell.getAttribute("data-square");
    if (name && name !== drag.name) this.activate(name);
  }
}

/**
 * A piece: White a light disc with a ring, Black a dark disc with a light
 * diamond, so the sides differ in shape as well as colour.
 * @param {string} piece
 * @param {number} cx
 * @param {number} cy
 * @param {boolean} _highlight
 */
function pieceShape(piece, cx, cy, _highlight) {
  if (piece === "w") {
    return [
      s("circle", { cx, cy, r: 0.38, class: "piece white" }),
      s("circle", { cx, cy, r: 0.2, class: "piece-mark white" }),
    ];
  }
  const d = 0.16;
  return [
    s("circle", { cx, cy, r: 0.38, class: "piece black" }),
    s("path", { d: `M${cx} ${cy - d}L${cx + d} ${cy}L${cx} ${cy + d}L${cx - d} ${cy}Z`, class: "piece-mark black" }),
  ];
}
