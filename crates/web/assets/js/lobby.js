// The lobby: play the computer at once, challenge a player or post an open
// seek, answer challenges, and see your running games.

import { dailyPuzzleCard } from "./puzzles.js";
import { api, ensureUser, currentUser, siteOptions, socket, watchUser, waitingGames } from "./api.js";
import { h, replace, toast, timeText, spanText, gameName } from "./dom.js";
import { navigate } from "./app.js";

/**
 * @param {string} name
 * @param {string[]} options
 * @param {string} value
 */
function select(name, options, value) {
  return h("select", { name, id: name }, options.map((o) => h("option", { value: o, selected: o === value }, o)));
}

/**
 * The variant chooser of a form: a select of the game's family with a line
 * saying what the chosen one changes; choosing one sets the form's board
 * to that variant's own (Crossings: 8x8).
 * @param {import("./api.js").SiteOptions} offered
 * @param {string} prefix the form's prefix for element ids
 */
function variantChooser(offered, prefix) {
  const choice = h("select", { name: "variant", id: `${prefix}-variant` },
    offered.variants.map((v) => h("option", { value: v.name }, v.title)));
  // The standard game needs no explanation here; a variant says what it changes.
  const summary = h("p", { class: "muted", id: `${prefix}-variant-summary`, hidden: true });
  choice.addEventListener("change", () => {
    const chosen = offered.variants.find((v) => v.name === /** @type {HTMLSelectElement} */ (choice).value);
    if (!chosen) return;
    summary.textContent = chosen.summary;
    summary.hidden = chosen.name === "epaminondas";
    const board = /** @type {HTMLSelectElement | null} */ (choice.closest("form")?.querySelector("select[name=board]"));
    if (board) board.value = chosen.default_board;
  });
  return [h("label", {}, "Game", choice), summary];
}

/** @param {HTMLElement} main */
export function lobbyPage(main) {
  const offered = siteOptions();
  const levels = [];
  for (let level = offered.levels.min; level <= offered.levels.max; level++) levels.push(String(level));
  const computer = h("form", { class: "panel", "aria-labelledby": "computer-title" },
    h("h2", { id: "computer-title" }, "Play the computer"),
    h("label", {}, `Level (${offered.levels.min} easiest, ${offered.levels.max} strongest)`,
      select("level", levels, "3")),
    variantChooser(offered, "computer"),
    h("label", {}, "Board (files x ranks)", select("board", offered.boards, offered.default_board)),
    h("label", {}, "Your colour", select("color", offered.colors, "white")),
    h("button", { type: "submit", id: "play-computer" }, "Play"),
  );
  computer.addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(computer);
    try {
      await ensureUser();
      const made = await api("/api/challenges", {
        level: Number(form.get("level")),
        variant: form.get("variant"),
        board: form.get("board"),
        color: form.get("color"),
      });
      navigate(`/game/${made.game.id}`);
    } catch (error) {
      toast(`Could not start the game: ${/** @type {Error} */ (error).message}`, "error");
    }
  });

  const challengeForm = h("form", { class: "panel", "aria-labelledby": "challenge-title" },
    h("h2", { id: "challenge-title" }, "Challenge a player"),
    h("label", {}, "Opponent (leave empty for an open seek anyone can accept)",
      h("input", { name: "opponent", id: "opponent", autocomplete: "off" })),
    variantChooser(offered, "challenge"),
    h("label", {}, "Board", select("board", offered.boards, offered.default_board)),
    h("label", {}, "Your colour", select("color", offered.colors, "random")),
    h("label", {}, "Time",
      select("time", ["3 days per move", "1 day per move", "7 days per move", "time bank 10d+36h max 10d", "time bank 3d+1d max 5d", "live 5+3", "live 15+10", "unlimited"], "3 days per move")),
    h("label", {}, h("input", { type: "checkbox", name: "rated", id: "rated" }), " Rated"),
    h("p", { class: "error", role: "alert", id: "challenge-error" }),
    h("button", { type: "submit", id: "send-challenge" }, "Send challenge"),
  );
  const challengeError = /** @type {HTMLElement} */ (challengeForm.querySelector("#challenge-error"));
  challengeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    challengeError.replaceChildren();
    const form = new FormData(challengeForm);
    const opponent = String(form.get("opponent") || "").trim();
    // A challenge speaks for a player: a signed-out visitor is asked to
    // sign in (or up) instead of being made a guest behind their back.
    if (!currentUser()) {
      challengeError.append("Sign in or sign up to challenge a player; nothing was sent. ",
        h("a", { href: "/signin" }, "Sign in"), " or ", h("a", { href: "/signup" }, "sign up"), ".");
      return;
    }
    try {
      const made = await api("/api/challenges", {
        opponent: opponent || undefined,
        variant: form.get("variant"),
        board: form.get("board"),
        color: form.get("color"),
        rated: form.get("rated") === "on",
        time: timeControl(String(form.get("time"))),
      });
      toast(opponent ? `Challenge sent to ${opponent}` : "Open seek posted");
      /** @type {HTMLInputElement} */ (challengeForm.querySelector("#opponent")).value = "";
      if (made.challenge) lists.refresh();
    } catch (error) {
      toast(`Could not send the challenge: ${/** @type {Error} */ (error).message}`, "error");
    }
  });

  const lists = lobbyLists();
  replace(main,
    h("h1", {}, "Epaminondas"),
    h("p", { class: "muted" },
      "Move phalanxes of pieces, capture smaller enemy phalanxes, and get more pieces onto your opponent's home rank than they have on yours. ",
      h("a", { href: "/learn", id: "lobby-learn" }, "New here? Learn the rules"), " · ",
      h("a", { href: "/analysis" }, "Analysis board")),
    h("div", { class: "grid" }, computer, challengeForm, lists.el, dailyPuzzleCard()),
  );
  return lists.close;
}

/**
 * The time control a choice names.
 * @param {string} choice
 */
export function timeControl(choice) {
  if (choice === "unlimited") return { kind: "unlimited" };
  const bank = /^time bank (\d+)d\+(\d+)([dh]) max (\d+)d$/.exec(choice);
  if (bank) {
    const unit = bank[3] === "d" ? 86_400_000 : 3_600_000;
    return { kind: "bank", initial_ms: Number(bank[1]) * 86_400_000, increment_ms: Number(bank[2]) * unit, max_ms: Number(bank[4]) * 86_400_000 };
  }
  const live = /^live (\d+)\+(\d+)$/.exec(choice);
  if (live) return { kind: "live", initial_ms: Number(live[1]) * 60000, increment_ms: Number(live[2]) * 1000 };
  return { kind: "correspondence", days_per_move: Number(choice.split(" ")[0]) };
}

/** Challenges and running games, kept current by the player's event stream. */
function lobbyLists() {
  const challenges = h("ul", { class: "plain", id: "challenges" });
  const games = h("ul", { class: "plain", id: "my-games" });
  const yourMove = h("ul", { class: "plain", id: "your-move" });
  const next = h("button", { type: "button", id: "next-game", hidden: true }, "Next game");
  const el = h("section", { class: "panel", "aria-labelledby": "yours-title" },
    h("h2", { id: "yours-title" }, "Challenges and games"),
    h("div", { class: "row" }, h("h3", {}, "Your move"), next), yourMove,
    h("h3", {}, "Challenges"), challenges,
    h("h3", {}, "Your games"), games);
  /** @type {{close: () => void} | null} */
  let stream = null;

  async function refresh() {
    const me = currentUser();
    if (!me) {
      replace(challenges, h("li", { class: "muted" }, "Sign in or play the computer to see challenges."));
      replace(games, h("li", { class: "muted" }, "No games yet."));
      drawWaiting([]);
      return;
    }
    try {
      const [open, mine, waiting] = await Promise.all([
        api("/api/challenges"),
        api(`/api/users/${encodeURIComponent(me.name)}/games`),
        waitingGames(),
      ]);
      drawWaiting(waiting);
      drawChallenges(me, open.challenges);
      drawGames(me, mine.games.filter((/** @type {any} */ g) => g.status === "active"));
    } catch (error) {
      replace(challenges, h("li", { class: "error" }, /** @type {Error} */ (error).message));
    }
  }

  /**
   * The games waiting for the player's move, the least time left first.
   * @param {any[]} list
   */
  function drawWaiting(list) {
    next.hidden = list.length === 0;
    next.onclick = () => list.length && navigate(`/game/${list[0].id}`);
    if (list.length === 0) {
      replace(yourMove, h("li", { class: "muted" }, "No game is waiting for your move."));
      return;
    }
    replace(yourMove, list.map((g) => h("li", { class: "your-turn", "data-game": g.id },
      h("a", { href: `/game/${g.id}` }, `Game ${g.id} against ${g.opponent}`),
      h("span", { class: "muted" }, `${gameName(g)}${g.board}, ${timeText(g.time)}`),
      g.left_ms === null
        ? h("span", { class: "badge turn" }, "no time limit")
        : h("span", { class: "badge turn" }, g.on_vacation ? "on vacation" : `${spanText(g.left_ms)} left`))));
  }

  /**
   * @param {any} me
   * @param {any[]} list
   */
  function drawChallenges(me, list) {
    if (list.length === 0) {
      replace(challenges, h("li", { class: "muted" }, "No open challenges."));
      return;
    }
    replace(challenges, list.map((c) => {
      const mine = c.challenger === me.name;
      const what = `${gameName(c)}${c.board}, ${timeText(c.time)}, ${c.rated ? "rated" : "unrated"}, challenger plays ${c.color}`;
      const answer = (/** @type {string} */ action) => async () => {
        try {
          const done = await api(`/api/challenges/${c.id}/${action}`, {});
          if (action === "accept" && done.game) navigate(`/game/${done.game.id}`);
          else refresh();
        } catch (error) {
          toast(/** @type {Error} */ (error).message, "error");
        }
      };
      return h("li", { "data-challenge": c.id },
        h("span", {}, mine
          ? `You challenged ${c.opponent || "anyone (open seek)"}: ${what}`
          : `${c.challenger} challenges ${c.opponent ? "you" : "anyone"}: ${what}`),
        mine
          ? h("button", { type: "button", class: "secondary", onclick: answer("cancel") }, "Cancel")
          : [h("button", { type: "button", class: "accept", onclick: answer("accept") }, "Accept"),
             c.opponent ? h("button", { type: "button", class: "secondary", onclick: answer("decline") }, "Decline") : null]);
    }));
  }

  /**
   * @param {any} me
   * @param {any[]} list
   */
  function drawGames(me, list) {
    if (list.length === 0) {
      replace(games, h("li", { class: "muted" }, "No games in progress."));
      return;
    }
    replace(games, list.map((g) => {
      const color = g.white.name === me.name ? "white" : "black";
      const opponent = color === "white" ? g.black.name : g.white.name;
      const yourTurn = g.turn === color;
      const correspondence = g.time && g.time.kind === "correspondence";
      return h("li", { class: yourTurn ? "your-turn" : "" },
        h("a", { href: `/game/${g.id}` }, `Game ${g.id} against ${opponent}`),
        h("span", { class: "muted" }, `${gameName(g)}${g.board}, ${timeText(g.time)}`),
        yourTurn
          ? h("span", { class: "badge turn" }, correspondence ? "Your turn (correspondence)" : "Your turn")
          : h("span", { class: "badge" }, "Their turn"));
    }));
  }

  const unwatch = watchUser((me) => {
    stream?.close();
    stream = null;
    refresh();
    if (me) {
      stream = socket("/api/stream", (event) => {
        if (event.type === "gameStart" && event.game) {
          const id = event.game.id || event.game;
          toast(`Game ${id} has started`);
          navigate(`/game/${id}`);
          return;
        }
        if (event.type !== "hello") refresh();
      });
    }
  });
  return {
    el,
    refresh,
    close() {
      unwatch();
      stream?.close();
    },
  };
}
