// A game: the board, the players and their clocks, the moves (which can be
// stepped through), and the actions of the game. Players and spectators see
// every change live through the game's WebSocket.

import { api, currentUser, siteOptions, socket, waitingGames } from "./api.js";
import { Board } from "./board.js";
import { h, replace, toast, clockText } from "./dom.js";
import { navigate } from "./app.js";
import { chatPanel, spectatorChatPanel } from "./mail.js";
import { reviewPanel } from "./review.js";

const REASONS = {
  crossing: "by crossing",
  no_moves: "as the opponent has no legal move",
  resignation: "by resignation",
  time: "on time",
};

/**
 * @param {HTMLElement} main
 * @param {string[]} params
 */
export function gamePage(main, [id]) {
  /** @type {any} */
  let game = null;
  /** @type {number | null} the ply shown when stepping back; null = the live position */
  let viewing = null;
  let received = Date.now();
  let flipped = null;
  let sending = false;

  const board = new Board({
    onMove: (text) => send(text),
    onIllegal: (why) => toast(`Not a legal move: ${why}`, "error"),
  });
  const topPlayer = h("div", { class: "player" });
  const bottomPlayer = h("div", { class: "player" });
  const banner = h("div", { class: "banner", role: "status", hidden: true });
  const status = h("p", { class: "status", "aria-live": "polite" });
  const moveList = h("div", { class: "moves", role: "list", "aria-label": "Moves" });
  const actions = h("div", { class: "row" });
  const typed = h("input", { name: "move", id: "typed-move", autocomplete: "off", placeholder: "e.g. a2-a3", "aria-label": "Move in notation" });
  const typeForm = h("form", { class: "row", id: "type-move" }, typed, h("button", { type: "submit" }, "Play"));
  typeForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = /** @type {HTMLInputElement} */ (typed).value.trim();
    if (text) send(text);
  });
  const steps = h("div", { class: "row" },
    h("button", { type: "button", class: "secondary", "aria-label": "First position", onclick: () => step("first") }, "«"),
    h("button", { type: "button", class: "secondary", "aria-label": "Previous move", onclick: () => step("back") }, "‹"),
    h("button", { type: "button", class: "secondary", "aria-label": "Next move", onclick: () => step("forward") }, "›"),
    h("button", { type: "button", class: "secondary", "aria-label": "Current position", onclick: () => step("last") }, "»"),
    h("button", { type: "button", class: "secondary", id: "flip", onclick: () => { flipped = !board.flipped; board.setFlipped(flipped); drawPlayers(); } }, "Flip board"),
  );
  const title = h("h1", {}, `Game ${id}`);
  const aside = h("aside", { class: "panel", "aria-label": "Game" }, banner, status, steps, moveList, typeForm, actions,
    h("p", {}, h("a", { href: `/api/games/${id}/record`, download: `game-${id}.txt` }, "Download the record"),
      " · ", h("a", { href: "/analysis", onclick: (/** @type {Event} */ e) => { e.preventDefault(); openAnalysis(); } }, "Analyse"),
      " · ", h("a", { href: "/learn", id: "game-rules" }, "Rules")));
  replace(main, title,
    h("div", { class: "play" },
      h("div", {}, topPlayer, board.el, bottomPlayer),
      aside));
  /** The computer analysis, shown once the game is over. */
  const review = reviewPanel(id, (ply) => show(ply));
  aside.append(review.el);
  /** The players' chat, added once the page knows the visitor plays here. */
  let chat = null;
  /** The spectators' chat, on every game between people. */
  let spectators = null;

  /** The side the signed-in player plays here, if any. */
  function myColor() {
    const me = currentUser();
    if (!me || !game) return null;
    if (game.white.id === me.id) return "white";
    if (game.black.id === me.id) return "black";
    return null;
  }

  /** @param {any} next */
  function update(next) {
    game = next;
    drawTitle();
    received = Date.now();
    if (flipped === null) {
      flipped = myColor() === "black";
      board.flipped = flipped;
    }
    if (viewing !== null && viewing >= game.moves.length) viewing = null;
    draw();
    // A chat message comes as a change of the game: the chat is read again.
    const me = currentUser();
    const people = !game.white.engine_level && !game.black.engine_level;
    if (!chat && people && myColor() && me && !me.guest) {
      chat = chatPanel(id);
      aside.append(chat.el);
    }
    if (chat) chat.refresh();
    review.refresh(game.status === "finished");
    if (!spectators && people) {
      spectators = spectatorChatPanel(id);
      aside.append(spectators.el);
    }
    if (spectators) spectators.refresh();
    // The title's count of games waiting for the player's move.
    if (myColor()) waitingGames();
  }

  /** The title names the variant, with what it changes, when it is not the standard game. */
  function drawTitle() {
    if (!game.variant || game.variant === "epaminondas") return;
    const variant = (siteOptions().variants || []).find((v) => v.name === game.variant);
    replace(title, `Game ${id} · `, h("span", { id: "game-variant" }, game.variant_title));
    const note = main.querySelector("#variant-note") || h("p", { class: "muted", id: "variant-note" });
    note.textContent = variant ? variant.summary : "";
    title.after(note);
  }

  function draw() {
    if (!game) return;
    review.at(viewing === null ? game.moves.length : viewing);
    const mine = myColor();
    const live = viewing === null;
    if (live) {
      board.set(game, { interactive: game.status === "active" && mine === game.turn && !sending });
    }
    drawPlayers();
    drawMoves();
    drawActions(mine);
    if (game.status === "finished") {
      banner.hidden = false;
      banner.textContent = resultText(game);
      // The rule behind the result, for whoever has not met it yet.
      const part = game.reason === "crossing" || game.reason === "no_moves" ? "#crossing" : "";
      banner.append(" ", h("a", { href: `/learn${part}`, id: "banner-rules" }, part ? "How does that win?" : "The rules"));
      status.textContent = "";
    } else {
      banner.hidden = true;
      const toMove = game[game.turn];
      // Stumbling Blocks opens with the stones' placements.
      const placing = game.stones_to_place > 0;
      status.textContent = mine === game.turn
        ? (placing ? "Your turn: place a neutral stone on a marked square." : "Your move.")
        : `${toMove.name} (${game.turn}) to ${placing ? "place a stone" : "move"}.`;
      if (game.deadline_at && (game.time.kind === "correspondence" || game.time.kind === "bank")) {
        status.textContent += ` Move due by ${new Date(game.deadline_at).toLocaleString()}.`;
      }
    }
    /** @type {HTMLInputElement} */ (typed).disabled = !(live && game.status === "active" && mine === game.turn);
  }

  function drawPlayers() {
    if (!game) return;
    const bottom = board.flipped ? "black" : "white";
    const top = bottom === "white" ? "black" : "white";
    drawPlayer(topPlayer, top);
    drawPlayer(bottomPlayer, bottom);
  }

  /**
   * @param {HTMLElement} el
   * @param {string} color
   */
  function drawPlayer(el, color) {
    const seat = game[color];
    const name = seat.engine_level
      ? h("span", { class: "name" }, seat.name)
      : h("a", { class: "name", href: `/profile/${encodeURIComponent(seat.name)}` }, seat.name);
    const toMove = game.status === "active" && game.turn === color;
    el.className = `player ${color}${toMove ? " to-move" : ""}`;
    el.setAttribute("aria-label", `${color}: ${seat.name}`);
    const running = toMove && game.clock_running;
    const clock = game.clocks
      ? h("span", { class: `clock${running ? " running" : ""}`, "data-clock": color }, clockText(clockMs(color)))
      : null;
    const away = (game.vacations || []).find((/** @type {any} */ v) => v.color === color);
    const vacation = away
      ? h("span", { class: "badge", "data-vacation": color }, away.now
        ? `on ${away.automatic ? "automatic " : ""}vacation until ${new Date(away.ends_at).toLocaleString()}`
        : `vacation from ${new Date(away.starts_at).toLocaleDateString()}`)
      : null;
    replace(el,
      h("span", {}, color === "white" ? "○ White " : "● Black ", name),
      h("span", { class: "muted", "data-crossed": color }, `crossed: ${game.goal[color]}`),
      game.draw_offer === color ? h("span", { class: "badge" }, "offers a draw") : null,
      game.takeback_offer === color ? h("span", { class: "badge" }, "asks for a takeback") : null,
      vacation,
      clock);
  }

  /** @param {string} color */
  function clockMs(color) {
    const base = game.clocks[`${color}_ms`];
    const running = game.status === "active" && game.turn === color && game.clock_running;
    return running ? base - (Date.now() - received) : base;
  }

  const ticker = setInterval(() => {
    if (!game || !game.clocks || game.status !== "active") return;
    for (const el of main.querySelectorAll("[data-clock]")) {
      const color = /** @type {string} */ (el.getAttribute("data-clock"));
      el.textContent = clockText(clockMs(color));
    }
  }, 200);

  function drawMoves() {
    const current = viewing === null ? game.moves.length : viewing;
    const cells = [];
    for (let i = 0; i < game.moves.length; i += 2) {
      cells.push(h("span", { class: "num" }, `${i / 2 + 1}.`));
      for (const ply of [i, i + 1]) {
        if (ply >= game.moves.length) {
          cells.push(h("span", {}));
          continue;
        }
        cells.push(h("button", {
          type: "button",
          role: "listitem",
          class: ply + 1 === current ? "current" : "",
          "aria-current": ply + 1 === current ? "true" : false,
          onclick: () => show(ply + 1),
        }, game.moves[ply]));
      }
    }
    replace(moveList, cells);
    moveList.querySelector(".current")?.scrollIntoView({ block: "nearest" });
  }

  /** @param {string | null} mine */
  function drawActions(mine) {
    const buttons = [];
    if (mine && game.status === "active") {
      const theirs = mine === "white" ? "black" : "white";
      buttons.push(h("button", { type: "button", class: "danger", id: "resign", onclick: () => {
        if (confirm("Resign this game?")) act("resign");
      } }, "Resign"));
      if (game.draw_offer === theirs) {
        buttons.push(h("button", { type: "button", id: "draw-accept", onclick: () => act("draw/accept") }, "Accept draw"));
        buttons.push(h("button", { type: "button", class: "secondary", id: "draw-decline", onclick: () => act("draw/decline") }, "Decline draw"));
      } else if (game.draw_offer !== mine) {
        buttons.push(h("button", { type: "button", class: "secondary", id: "draw-offer", onclick: () => act("draw/offer") }, "Offer draw"));
      }
      if (game.takeback_offer === theirs) {
        buttons.push(h("button", { type: "button", id: "takeback-accept", onclick: () => act("takeback/accept") }, "Allow takeback"));
        buttons.push(h("button", { type: "button", class: "secondary", id: "takeback-decline", onclick: () => act("takeback/decline") }, "Refuse takeback"));
      } else if (game.takeback_offer !== mine && game.moves.length > 0) {
        buttons.push(h("button", { type: "button", class: "secondary", id: "takeback-offer", onclick: () => act("takeback/offer") }, "Ask to take back"));
      }
    }
    if (mine && game.status === "finished") {
      buttons.push(h("button", { type: "button", id: "rematch", onclick: rematch }, "Rematch"));
    }
    if (mine && (game.status === "finished" || game.turn !== mine)) {
      buttons.push(h("button", { type: "button", class: "secondary", id: "next-game", onclick: nextGame }, "Next game"));
    }
    replace(actions, buttons);
    drawConditional(mine);
  }

  /** Goes to the game waiting longest for the player's move (least time left). */
  async function nextGame() {
    const waiting = (await waitingGames()).filter((g) => String(g.id) !== String(id));
    if (waiting.length) navigate(`/game/${waiting[0].id}`);
    else toast("No other game is waiting for your move");
  }

  /** The player's conditional moves, in correspondence games while the opponent is to move. */
  const conditional = h("section", { id: "conditional", "aria-labelledby": "conditional-title", hidden: true });
  aside.append(conditional);
  let conditionalAt = -1;
  /** @param {string | null} mine */
  async function drawConditional(mine) {
    const correspondence = game.time && (game.time.kind === "correspondence" || game.time.kind === "bank");
    const people = !game.white.engine_level && !game.black.engine_level;
    const open = mine && correspondence && people && game.status === "active" && game.turn !== mine;
    conditional.hidden = !open;
    if (!open || conditionalAt === game.ply) return;
    conditionalAt = game.ply;
    try {
      const view = await api(`/api/games/${id}/conditional`);
      replace(conditional,
        h("h2", { id: "conditional-title" }, "Conditional moves"),
        view.lines.length === 0
          ? h("p", { class: "muted" }, "None: leave replies to your opponent's possible moves on the analysis board.")
          : h("ol", { id: "conditional-list" }, view.lines.map((/** @type {string} */ l) => h("li", {}, h("code", {}, l)))),
        h("div", { class: "row" },
          h("button", { type: "button", class: "secondary", id: "plan-conditional", onclick: () => {
            sessionStorage.setItem("analysis", JSON.stringify({ variant: game.variant, board: game.board, symmetry: game.symmetry, moves: game.moves, conditional: { game: game.id, ply: game.ply } }));
            navigate("/analysis");
          } }, "Plan on the analysis board"),
          view.lines.length ? h("button", { type: "button", class: "secondary", id: "clear-conditional", onclick: async () => {
            try {
              await api(`/api/games/${id}/conditional`, undefined, "DELETE");
              conditionalAt = -1;
              drawConditional(myColor());
            } catch (error) {
              toast(/** @type {Error} */ (error).message, "error");
            }
          } }, "Clear") : null));
    } catch (error) {
      conditionalAt = -1;
      replace(conditional, h("p", { class: "error" }, /** @type {Error} */ (error).message));
    }
  }

  /** @param {string} path */
  async function act(path) {
    try {
      update(await api(`/api/games/${id}/${path}`, {}));
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  }

  /** @param {string} text */
  async function send(text) {
    if (!game) return;
    sending = true;
    try {
      const next = await api(`/api/games/${id}/moves`, { move: text, ply: game.ply });
      /** @type {HTMLInputElement} */ (typed).value = "";
      sending = false;
      // The answer has no legal moves; the stream's message brings them, and
      // may have come first (with this move or a later one).
      if (next.ply > game.ply) update({ ...next, legal: [] });
      else draw();
    } catch (error) {
      sending = false;
      toast(`Move refused: ${/** @type {Error} */ (error).message}`, "error");
      draw();
    }
  }

  async function rematch() {
    const mine = myColor();
    const other = mine === "white" ? "black" : "white";
    const opponent = game[other];
    try {
      const made = await api("/api/challenges", opponent.engine_level
        ? { level: opponent.engine_level, variant: game.variant, board: game.board, symmetry: game.symmetry, color: other }
        : { opponent: opponent.name, variant: game.variant, board: game.board, symmetry: game.symmetry, color: other, rated: game.rated, time: game.time });
      if (made.game) navigate(`/game/${made.game.id}`);
      else toast(`Rematch offered to ${opponent.name}`);
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  }

  /** @param {"first" | "back" | "forward" | "last"} where */
  function step(where) {
    if (!game) return;
    const n = game.moves.length;
    const current = viewing === null ? n : viewing;
    const target = { first: 0, back: current - 1, forward: current + 1, last: n }[where];
    show(Math.max(0, Math.min(n, target)));
  }

  /**
   * Shows the position after `ply` moves (the server replays them).
   * @param {number} ply
   */
  async function show(ply) {
    if (ply >= game.moves.length) {
      viewing = null;
      draw();
      return;
    }
    viewing = ply;
    drawMoves();
    try {
      const line = await api("/api/analysis", { variant: game.variant, board: game.board, symmetry: game.symmetry, moves: game.moves.slice(0, ply) });
      if (viewing === ply) board.set(line.state, { interactive: false });
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
    draw();
  }

  function openAnalysis() {
    const moves = viewing === null ? game.moves : game.moves.slice(0, viewing);
    sessionStorage.setItem("analysis", JSON.stringify({ variant: game.variant, board: game.board, symmetry: game.symmetry, moves }));
    navigate("/analysis");
  }

  /** @param {KeyboardEvent} event */
  const onKey = (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.closest("input, textarea, select, svg")) return;
    const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
    const where = /** @type {any} */ (keys)[event.key];
    if (where) {
      event.preventDefault();
      step(where);
    }
  };
  document.addEventListener("keydown", onKey);

  api(`/api/games/${id}`).then((/** @type {any} */ first) => {
    if (first.tournament) {
      const t = first.tournament;
      title.after(h("p", { id: "game-tournament" },
        h("a", { href: `/tournament/${t.id}` }, t.name), `, round ${t.round}`));
    }
    update(first);
  }).catch((error) => {
    replace(main, h("h1", {}, `Game ${id}`), h("p", { class: "error" }, error.message), h("a", { href: "/" }, "Back to the lobby"));
  });
  const stream = socket(`/api/games/${id}/stream`, (message) => {
    if (message.game) update(message.game);
  });
  return () => {
    stream.close();
    review.close();
    clearInterval(ticker);
    document.removeEventListener("keydown", onKey);
  };
}

/**
 * How the game ended: "White (alice) wins by crossing".
 * @param {any} game
 */
function resultText(game) {
  if (!game.winner) {
    if (game.reason === "agreement") return "Drawn by agreement";
    if (game.reason === "repetition") return "Drawn by the third repetition of a position";
    return "The game is over";
  }
  const reason = /** @type {Record<string, string>} */ (REASONS)[game.reason] || "";
  const winner = game.winner === "white" ? "White" : "Black";
  return `${winner} (${game[game.winner].name}) wins ${reason}`.trim();
}
