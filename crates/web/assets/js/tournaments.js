// Tournaments and leagues: the list with forms to make one, a tournament's
// page (standings with tie-breaks, the crosstable, the rounds' pairings,
// joining, withdrawing, the records), and a league's page. The server does
// the pairing and the scoring; these pages only draw what it sends.

import { api, currentUser, siteOptions } from "./api.js";
import { h, replace, toast, timeText } from "./dom.js";
import { navigate } from "./app.js";
import { timeControl } from "./lobby.js";

const TIMES = ["3 days per move", "1 day per move", "7 days per move", "time bank 10d+36h max 10d",
  "time bank 3d+1d max 5d", "live 5+3", "live 15+10"];

/**
 * @param {string} name
 * @param {string[]} options
 * @param {string} value
 * @param {string} [id]
 */
function select(name, options, value, id) {
  return h("select", { name, id: id || name }, options.map((o) => h("option", { value: o, selected: o === value }, o)));
}

/** @param {any} format */
function formatText(format) {
  if (format.kind === "swiss") return `Swiss, ${format.rounds} rounds`;
  return format.cycles === 2 ? "double round robin" : "round robin";
}

/** @param {any} t */
function statusText(t) {
  switch (t.status) {
    case "signup": return t.starts_at ? `sign-up, starts ${new Date(t.starts_at).toLocaleString()}` : "sign-up";
    case "running": return t.all_at_once ? "running, every game at once" : `round ${t.round} of ${t.rounds}`;
    case "finished": return "finished";
    default: return "called off";
  }
}

/** @param {number} points */
function pointsText(points) {
  return Number.isInteger(points) ? String(points) : String(points).replace(".5", "½").replace(/^0½$/, "½");
}

/** @param {any[]} list */
function tournamentTable(list) {
  if (list.length === 0) return h("p", { class: "muted" }, "None yet.");
  return h("table", {},
    h("thead", {}, h("tr", {}, h("th", {}, "Tournament"), h("th", {}, "Format"), h("th", {}, "Games"), h("th", {}, "Players"), h("th", {}, "Status"))),
    h("tbody", {}, list.map((t) => h("tr", {},
      h("td", {}, h("a", { href: `/tournament/${t.id}` }, t.name)),
      h("td", {}, formatText(t.format)),
      h("td", {}, `${t.board}, ${timeText(t.time)}${t.rated ? ", rated" : ""}`),
      h("td", {}, t.max_players ? `${t.players} / ${t.max_players}` : String(t.players)),
      h("td", {}, statusText(t))))));
}

/** The form that makes a tournament. */
function tournamentForm() {
  const offered = siteOptions();
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "panel", id: "new-tournament", "aria-labelledby": "new-tournament-title" },
    h("h2", { id: "new-tournament-title" }, "Make a tournament"),
    h("label", {}, "Name", h("input", { name: "name", id: "tournament-name", required: true, minlength: 3, maxlength: 60 })),
    h("label", {}, "Format", select("format", ["Swiss", "Round robin", "Double round robin"], "Swiss", "tournament-format")),
    h("label", {}, "Rounds (Swiss)", h("input", { name: "rounds", type: "number", min: 1, max: 15, value: "5" })),
    h("label", {}, "Board", select("board", offered.boards, offered.default_board, "tournament-board")),
    h("label", {}, "Time", select("time", TIMES, TIMES[0], "tournament-time")),
    h("label", {}, "Players (it starts when this many have joined; empty: the organizer starts it)",
      h("input", { name: "max_players", id: "tournament-max", type: "number", min: 2, max: 128 })),
    h("label", {}, "Or a start time", h("input", { name: "starts_at", type: "datetime-local" })),
    h("label", {}, h("input", { type: "checkbox", name: "rated" }), " Rated"),
    error,
    h("button", { type: "submit", id: "create-tournament" }, "Make it"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.replaceChildren();
    if (!currentUser() || currentUser().guest) {
      error.append("Sign in with an account to organize a tournament. ", h("a", { href: "/signin" }, "Sign in"));
      return;
    }
    const data = new FormData(form);
    const kind = String(data.get("format"));
    const format = kind === "Swiss" ? { kind: "swiss", rounds: Number(data.get("rounds")) }
      : { kind: "round-robin", cycles: kind.startsWith("Double") ? 2 : 1 };
    const start = String(data.get("starts_at") || "");
    try {
      const made = await api("/api/tournaments", {
        name: String(data.get("name")).trim(),
        format,
        board: data.get("board"),
        time: timeControl(String(data.get("time"))),
        rated: data.get("rated") === "on",
        max_players: data.get("max_players") ? Number(data.get("max_players")) : undefined,
        starts_at: start ? new Date(start).getTime() : undefined,
      });
      navigate(`/tournament/${made.id}`);
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  return form;
}

/** The form that makes a league. */
function leagueForm() {
  const offered = siteOptions();
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "panel", id: "new-league", "aria-labelledby": "new-league-title" },
    h("h2", { id: "new-league-title" }, "Make a league"),
    h("p", { class: "muted" }, "Seasons of round-robin divisions of about ten players; after each season the best go up a division and the worst go down."),
    h("label", {}, "Name", h("input", { name: "name", required: true, minlength: 3, maxlength: 60 })),
    h("label", {}, "Players per division", h("input", { name: "group_size", type: "number", min: 4, max: 20, value: "10" })),
    h("label", {}, "Going up and down each season", h("input", { name: "movers", type: "number", min: 0, max: 6, value: "2" })),
    h("label", {}, "Board", select("board", offered.boards, offered.default_board, "league-board")),
    h("label", {}, "Time", select("time", TIMES.filter((t) => !t.startsWith("live")), TIMES[0], "league-time")),
    error,
    h("button", { type: "submit" }, "Make it"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.replaceChildren();
    if (!currentUser() || currentUser().guest) {
      error.append("Sign in with an account to organize a league. ", h("a", { href: "/signin" }, "Sign in"));
      return;
    }
    const data = new FormData(form);
    try {
      const made = await api("/api/leagues", {
        name: String(data.get("name")).trim(),
        group_size: Number(data.get("group_size")),
        movers: Number(data.get("movers")),
        board: data.get("board"),
        time: timeControl(String(data.get("time"))),
      });
      navigate(`/league/${made.id}`);
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  return form;
}

/** @param {HTMLElement} main */
export function tournamentsPage(main) {
  const lists = h("section", { class: "panel", "aria-labelledby": "tournaments-title" },
    h("h2", { id: "tournaments-title" }, "Tournaments"), h("p", { class: "muted" }, "Loading…"));
  const leagues = h("section", { class: "panel", "aria-labelledby": "leagues-title" },
    h("h2", { id: "leagues-title" }, "Leagues"));
  replace(main, h("h1", {}, "Tournaments"),
    h("div", { class: "columns" }, h("div", {}, lists, leagues), h("div", {}, tournamentForm(), leagueForm())));
  api("/api/tournaments").then((body) => {
    const open = body.tournaments.filter((/** @type {any} */ t) => t.status === "signup" || t.status === "running");
    const ended = body.tournaments.filter((/** @type {any} */ t) => t.status === "finished" || t.status === "canceled");
    replace(lists, h("h2", { id: "tournaments-title" }, "Tournaments"),
      h("h3", {}, "Taking sign-ups and running"), tournamentTable(open),
      h("h3", {}, "Ended"), tournamentTable(ended));
  }).catch((e) => lists.append(h("p", { class: "error" }, e.message)));
  api("/api/leagues").then((body) => {
    leagues.append(body.leagues.length === 0 ? h("p", { class: "muted" }, "None yet.")
      : h("ul", { class: "plain" }, body.leagues.map((/** @type {any} */ l) => h("li", {},
        h("a", { href: `/league/${l.id}` }, l.name), ` · ${l.board}, ${timeText(l.time)}, season ${l.season}`))));
  }).catch((e) => leagues.append(h("p", { class: "error" }, e.message)));
}

/**
 * The standings with tie-breaks and, for a round robin, the crosstable
 * (each row's results against each rank), for a Swiss one column a round.
 * @param {any} t
 */
function standingsTable(t) {
  if (t.standings.length === 0) return h("p", { class: "muted" }, "Nobody has joined yet.");
  const swiss = t.format.kind === "swiss";
  const ranks = t.standings.map((/** @type {any} */ s) => s.rank);
  const rounds = [];
  for (let r = 1; r <= t.rounds; r++) rounds.push(r);
  const ties = swiss ? [["Buchholz", "buchholz"], ["S-B", "sonneborn_berger"]] : [["S-B", "sonneborn_berger"], ["Buchholz", "buchholz"]];
  const head = h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"),
    swiss ? rounds.map((r) => h("th", { scope: "col" }, `R${r}`)) : ranks.map((/** @type {number} */ r) => h("th", { scope: "col", class: "cross" }, String(r))),
    h("th", { scope: "col" }, "Points"), ties.map(([label]) => h("th", { scope: "col" }, label)));
  /** @param {any} r */
  const mark = (r) => {
    const text = r.score === "*" ? "…" : r.score;
    return r.game ? h("a", { href: `/game/${r.game}` }, text) : text;
  };
  const rows = t.standings.map((/** @type {any} */ s) => {
    let cells;
    if (swiss) {
      cells = rounds.map((round) => {
        const r = s.results.find((/** @type {any} */ x) => x.round === round);
        if (!r) return h("td", {});
        if (r.score === "bye") return h("td", {}, "bye");
        return h("td", {}, `${r.opponent_rank}${r.color === "white" ? "w" : "b"} `, mark(r));
      });
    } else {
      cells = ranks.map((/** @type {number} */ rank) => {
        if (rank === s.rank) return h("td", { class: "cross self" }, "×");
        const games = s.results.filter((/** @type {any} */ x) => x.opponent_rank === rank);
        return h("td", { class: "cross" }, games.map((/** @type {any} */ r, /** @type {number} */ i) => [i > 0 ? " " : "", mark(r)]));
      });
    }
    return h("tr", { class: s.withdrawn ? "muted" : "" },
      h("td", {}, s.rank),
      h("th", { scope: "row" }, h("a", { href: `/profile/${encodeURIComponent(s.name)}` }, s.name), s.withdrawn ? " (withdrew)" : ""),
      cells,
      h("td", {}, pointsText(s.points)),
      ties.map(([, key]) => h("td", {}, pointsText(s[key]))));
  });
  return h("div", { class: "scroll" }, h("table", { id: "crosstable" }, h("thead", {}, head), h("tbody", {}, rows)));
}

/** @param {any} t */
function roundsList(t) {
  const byRound = new Map();
  for (const p of t.pairings) {
    if (!byRound.has(p.round)) byRound.set(p.round, []);
    byRound.get(p.round).push(p);
  }
  return [...byRound.entries()].map(([round, list]) => h("section", { class: "round" },
    h("h3", {}, `Round ${round}`),
    h("ul", { class: "plain" }, list.map((/** @type {any} */ p) => h("li", {},
      p.black === null ? `${p.white}: bye`
        : [`${p.white} – ${p.black}: `,
          p.game ? h("a", { href: `/game/${p.game}` }, p.result ? p.result.replace("1/2-1/2", "½-½") : "playing") : (p.result || "to come")])))));
}

/**
 * @param {HTMLElement} main
 * @param {string[]} params
 */
export function tournamentPage(main, [id]) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  replace(main, h("h1", { id: "tournament-title" }, `Tournament ${id}`), body);

  /** @param {string} action */
  async function act(action) {
    try {
      draw(await api(`/api/tournaments/${id}/${action}`, {}));
      toast(action === "join" ? "You are in" : action === "withdraw" ? "You are out" : "Started");
    } catch (e) {
      toast(/** @type {Error} */ (e).message, "error");
    }
  }

  /** @param {any} t */
  function draw(t) {
    const title = main.querySelector("#tournament-title");
    if (title) title.textContent = t.name;
    const me = currentUser();
    const mine = me && t.standings.find((/** @type {any} */ s) => s.name === me.name && !s.withdrawn);
    const buttons = h("div", { class: "row" });
    if (t.status === "signup" && !t.league) {
      if (mine) buttons.append(h("button", { type: "button", id: "withdraw", class: "secondary", onclick: () => act("withdraw") }, "Leave"));
      else if (me) buttons.append(h("button", { type: "button", id: "join", onclick: () => act("join") }, "Join"));
      else buttons.append(h("a", { href: "/signin" }, "Sign in to join"));
      if (me && me.name === t.organizer && t.players >= 2) {
        buttons.append(h("button", { type: "button", id: "start", onclick: () => act("start") }, "Start now"));
      }
    } else if (t.status === "running" && mine) {
      buttons.append(h("button", {
        type: "button", id: "withdraw", class: "secondary",
        onclick: () => { if (confirm("Withdraw? Your running games in this tournament are resigned and the rest lost by forfeit.")) act("withdraw"); },
      }, "Withdraw"));
    }
    const league = t.league
      ? h("p", {}, h("a", { href: `/league/${t.league.id}` }, "The league"), `: season ${t.league.season}, division ${t.league.division}`)
      : null;
    replace(body,
      h("p", { id: "tournament-info" }, `${formatText(t.format)} · ${t.board} · ${timeText(t.time)}${t.rated ? " · rated" : ""} · organized by ${t.organizer} · `,
        h("strong", { id: "tournament-status" }, statusText(t))),
      league, buttons,
      h("section", { class: "panel", "aria-labelledby": "standings-title" },
        h("h2", { id: "standings-title" }, t.status === "signup" ? `Players (${t.players})` : "Standings"),
        standingsTable(t),
        t.status === "signup" ? null : h("p", { class: "muted" },
          "Win 1, draw ½, bye or forfeit win 1. Ties: ", t.format.kind === "swiss" ? "Buchholz, then Sonneborn-Berger" : "Sonneborn-Berger, then Buchholz",
          " (games played over the board), then wins.")),
      t.pairings.length ? h("section", { class: "panel", "aria-labelledby": "rounds-title" },
        h("h2", { id: "rounds-title" }, "Rounds"), roundsList(t),
        h("p", {}, h("a", { href: `/api/tournaments/${t.id}/records`, download: `tournament-${t.id}.pgn`, id: "download-records" }, "Download every game (PGN)"))) : null);
  }

  const load = () => api(`/api/tournaments/${id}`).then(draw).catch((e) => replace(body, h("p", { class: "error" }, e.message), h("a", { href: "/tournaments" }, "All tournaments")));
  load();
  // Results come in as games end: a quiet refresh while the page is open.
  const timer = setInterval(() => { if (!document.hidden) load(); }, 20000);
  return () => clearInterval(timer);
}

/**
 * @param {HTMLElement} main
 * @param {string[]} params
 */
export function leaguePage(main, [id]) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  replace(main, h("h1", { id: "league-title" }, `League ${id}`), body);

  /** @param {string} action */
  async function act(action) {
    try {
      draw(await api(`/api/leagues/${id}/${action}`, {}));
    } catch (e) {
      toast(/** @type {Error} */ (e).message, "error");
    }
  }

  /** @param {any} l */
  function draw(l) {
    const title = main.querySelector("#league-title");
    if (title) title.textContent = l.name;
    const me = currentUser();
    const members = l.members.filter((/** @type {any} */ m) => m.left_at === null);
    const member = me && members.some((/** @type {any} */ m) => m.name === me.name);
    const buttons = h("div", { class: "row" });
    if (member) buttons.append(h("button", { type: "button", class: "secondary", onclick: () => act("leave") }, "Leave after this season"));
    else if (me) buttons.append(h("button", { type: "button", id: "join-league", onclick: () => act("join") }, "Join (from the next season)"));
    if (me && me.name === l.organizer && l.season === 0 && members.length >= 2) {
      buttons.append(h("button", { type: "button", onclick: () => act("start") }, "Start the first season"));
    }
    const seasons = new Map();
    for (const d of l.divisions) {
      const season = d.league.season;
      if (!seasons.has(season)) seasons.set(season, []);
      seasons.get(season).push(d);
    }
    replace(body,
      h("p", {}, `Divisions of about ${l.group_size} players, ${l.cycles === 2 ? "double " : ""}round robin; ${l.movers} up and ${l.movers} down after each season · ${l.board} · ${timeText(l.time)}${l.rated ? " · rated" : ""} · organized by ${l.organizer} · season ${l.season}`),
      buttons,
      h("section", { class: "panel" }, h("h2", {}, `Members (${members.length})`),
        h("p", {}, members.map((/** @type {any} */ m) => m.name).join(", ") || "Nobody yet.")),
      [...seasons.entries()].map(([season, list]) => h("section", { class: "panel" },
        h("h2", {}, `Season ${season}`), tournamentTable(list))));
  }

  api(`/api/leagues/${id}`).then(draw).catch((e) => replace(body, h("p", { class: "error" }, e.message)));
}
