// End-to-end tests of the web site in real Chromium (headless), driven by
// playwright-core. Usage: node run.mjs http://127.0.0.1:PORT
//
// The server must be running at that address with an empty database. The
// test players decide their moves by asking the server (the game's legal
// moves, or the engine through the analysis API) and make them by clicking
// the board, as a person would. Screenshots of the main pages go to
// $SCREENSHOTS (default ./screenshots). E2E_ONLY=TEXT runs only the tests
// whose names contain TEXT.

import { chromium } from "playwright-core";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import assert from "node:assert/strict";

const base = process.argv[2] || "http://127.0.0.1:8080";
const shots = process.env.SCREENSHOTS || "screenshots";
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});

/** A fresh browser profile (its own cookies) with a page open at `path`. */
async function visitor(path = "/", options = {}) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => {
    console.error(`page error: ${error.message}`);
    failures.push(`page error: ${error.message}`);
  });
  // The site must work under its own Content-Security-Policy: a blocked
  // script, style or connection is a failure.
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) {
      console.error(`blocked by the CSP: ${message.text()}`);
      failures.push(`blocked by the CSP: ${message.text()}`);
    }
  });
  await page.goto(path);
  return { context, page };
}

/** @type {string[]} */
const failures = [];

// The relay's Maildir, where the mail the server sends arrives (empty: the
// server was started without mail, and the mail test is skipped).
const maildir = process.env.MAILDIR || "";

/** The messages in the Maildir, oldest first, as text. */
function mails() {
  const dir = join(maildir, "new");
  let files = [];
  try {
    files = readdirSync(dir).map((f) => join(dir, f));
  } catch {
    return [];
  }
  files.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  return files.map((f) => readFileSync(f, "latin1"));
}

/** A message's text with quoted-printable soft breaks and escapes undone. */
function unquoted(raw) {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

/** Waits for a mail to `to` with a link under `path`, and returns the newest such link. */
async function mailedLink(to, path) {
  const deadline = Date.now() + 20_000;
  const pattern = new RegExp(`https?://[^\\s"<>]+${path}[0-9a-zA-Z]+`);
  for (;;) {
    const found = mails()
      .filter((raw) => new RegExp(`^To: .*${to}`, "mi").test(raw))
      .map((raw) => pattern.exec(unquoted(raw)))
      .filter(Boolean);
    if (found.length) return found[found.length - 1][0];
    assert.ok(Date.now() < deadline, `no mail to ${to} with a ${path} link`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

/** The game's id from the page's address. */
const gameId = (page) => Number(new URL(page.url()).pathname.split("/").pop());

/** The game as the server has it (with legal moves), read with the page's cookies. */
async function gameState(page, id) {
  const response = await page.request.get(`/api/games/${id}`);
  assert.ok(response.ok(), `GET game ${id}: ${response.status()}`);
  return response.json();
}

/** The engine's best move at the end of the game so far (a quick search). */
async function engineMove(page, game) {
  const response = await page.request.post("/api/analysis/engine", {
    data: { line: { board: game.board, symmetry: game.symmetry, moves: game.moves }, movetime_ms: 150 },
  });
  assert.ok(response.ok(), `engine: ${response.status()}`);
  const lines = (await response.text()).trim().split("\n").map((l) => JSON.parse(l));
  return lines[lines.length - 1].best;
}

/** Plays `move` (a legal-move entry) by clicking: a piece of the group, then the destination. */
async function clickMove(page, move) {
  await page.click(`svg.board [data-square="${move.from[0]}"]`);
  await page.click(`svg.board [data-square="${move.to}"]`);
  const picker = page.locator(`.picker button[data-move="${move.text}"]`);
  if (await picker.count()) await picker.click();
}

/**
 * Plays the move `text` on the board inside `scope` by clicking: the piece
 * on `from`, then `to`, then the move in the picker if several land there.
 */
async function clickIn(page, scope, from, to, text) {
  await page.click(`${scope} svg.board [data-square="${from}"]`);
  await page.click(`${scope} svg.board [data-square="${to}"]`);
  const picker = page.locator(`${scope} .picker button[data-move="${text}"]`);
  if (await picker.count()) await picker.click();
}

/** Waits until the page shows `n` moves in its move list. */
async function waitForMoves(page, n) {
  await page.waitForFunction((count) => document.querySelectorAll(".moves button").length >= count, n);
}

/** The pieces as the board shows them, read from the squares' labels. */
async function boardLabels(page) {
  return page.$$eval("svg.board [data-square]", (cells) => cells.map((c) => c.getAttribute("aria-label")).join("|"));
}

/**
 * Two players who sign up in browser contexts of their own, named
 * `first` and `second` with a number after; they end on the lobby.
 */
async function twoPlayers(first, second) {
  const players = [await visitor("/signup"), await visitor("/signup")];
  const suffix = Date.now() % 100000;
  const names = [`${first}${suffix}`, `${second}${suffix}`];
  for (const [i, who] of players.entries()) {
    await who.page.fill("#signup-name", names[i]);
    await who.page.fill("#signup-password", "correct horse battery");
    await who.page.fill("#signup-email", `${names[i]}@example.com`);
    await who.page.click("#signup button[type=submit]");
    await who.page.waitForURL(`${base}/`);
    await who.page.locator("#account", { hasText: names[i] }).waitFor();
  }
  return [players[0], players[1], names];
}

/** Only the tests whose names contain $E2E_ONLY run, when it is set (for working on one). */
const only = process.env.E2E_ONLY || "";

async function test(name, body) {
  if (!name.includes(only)) return;
  const started = Date.now();
  try {
    await body();
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    console.log(`FAIL ${name}: ${error.stack || error}`);
    failures.push(name);
  }
}

await test("a visitor plays a whole game against the computer (level 1, 8x8) by clicking", async () => {
  const { context, page } = await visitor("/");
  await page.screenshot({ path: join(shots, "lobby.png"), fullPage: true });
  await page.selectOption("#computer-title ~ label select[name=level]", "1").catch(() => page.selectOption("select[name=level]", "1"));
  await page.locator("form[aria-labelledby=computer-title] select[name=board]").selectOption("8x8");
  await page.locator("form[aria-labelledby=computer-title] select[name=color]").selectOption("white");
  await page.click("#play-computer");
  await page.waitForURL(/\/game\/\d+$/);
  const id = gameId(page);
  await page.waitForSelector("svg.board [data-square]");
  for (let ply = 0; ply < 200; ply++) {
    // Wait for our turn (or the end).
    await page.waitForFunction(() =>
      !document.querySelector(".banner")?.hasAttribute("hidden") || document.querySelector(".status")?.textContent?.startsWith("Your move"));
    const game = await gameState(page, id);
    if (game.status === "finished") break;
    const best = await engineMove(page, game);
    const move = game.legal.find((m) => m.text === best) || game.legal[0];
    await clickMove(page, move);
    await waitForMoves(page, game.moves.length + 1);
    if (ply === 3) await page.screenshot({ path: join(shots, "game.png"), fullPage: true });
  }
  const banner = page.locator(".banner");
  await banner.waitFor({ state: "visible" });
  const text = await banner.textContent();
  assert.match(text, /wins/, `the end is announced: ${text}`);
  const final = await gameState(page, id);
  assert.equal(final.status, "finished");
  console.log(`     game ${id}: ${text} after ${final.moves.length} plies`);
  await context.close();
});

await test("an illegal click sequence changes nothing", async () => {
  const { context, page } = await visitor("/");
  await page.locator("form[aria-labelledby=computer-title] select[name=board]").selectOption("8x8");
  await page.locator("form[aria-labelledby=computer-title] select[name=color]").selectOption("white");
  await page.click("#play-computer");
  await page.waitForURL(/\/game\/\d+$/);
  await page.waitForFunction(() => document.querySelector(".status")?.textContent?.startsWith("Your move"));
  const id = gameId(page);
  const before = await boardLabels(page);
  // An empty square, an enemy piece, then a piece of ours and a square it cannot reach.
  await page.click('svg.board [data-square="d4"]');
  await page.click('svg.board [data-square="d8"]');
  assert.equal(await page.locator("svg.board .selected").count(), 0, "nothing is selected");
  await page.click('svg.board [data-square="b2"]');
  assert.ok(await page.locator("svg.board .target").count() > 0, "b2 can move");
  await page.click('svg.board [data-square="h5"]');
  assert.equal(await page.locator("svg.board .target").count(), 0, "the selection is dropped");
  // A destination shared by two groups asks which one; cancelling plays nothing.
  await page.click('svg.board [data-square="c2"]');
  await page.click('svg.board [data-square="c3"]');
  assert.equal(await page.locator(".picker button[data-move]").count(), 2, "c2-c3 or c1,c2-c3");
  await page.click(".picker button.secondary");
  await page.waitForTimeout(300);
  assert.equal(await boardLabels(page), before, "the board is unchanged");
  const game = await gameState(page, id);
  assert.equal(game.moves.length, 0, "the server has no move");
  // A move typed in notation that is not legal is refused too.
  await page.fill("#typed-move", "a1-a5");
  await page.click("#type-move button");
  await page.locator("#toast.shown", { hasText: /refused/i }).waitFor();
  assert.equal((await gameState(page, id)).moves.length, 0);
  // Keyboard only: focus a square, walk to b2 with the arrows, pick it and a target.
  await page.focus('svg.board [data-square="a1"]');
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  assert.match(await page.locator('svg.board [data-square="b2"]').getAttribute("aria-label"), /selected/);
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  // b3 is reached by b2 alone and by b1,b2: the picker takes the keyboard focus.
  await page.locator(".picker button[data-move]").first().waitFor();
  await page.keyboard.press("Enter");
  await waitForMoves(page, 1);
  assert.equal((await gameState(page, id)).moves[0], "b2-b3");
  await context.close();
});

await test("two players sign up, one challenges the other, they play to a crossing win, a spectator sees each move", async () => {
  const [alice, bob, names] = await twoPlayers("alice", "bob");
  // Alice challenges Bob to an 8x8 game as White.
  const form = alice.page.locator("form[aria-labelledby=challenge-title]");
  await form.locator("#opponent").fill(names[1]);
  await form.locator("select[name=board]").selectOption("8x8");
  await form.locator("select[name=color]").selectOption("white");
  await form.locator("select[name=time]").selectOption("unlimited");
  await form.locator("button[type=submit]").click();
  // Bob sees it arrive live and accepts; both are taken to the game.
  await bob.page.locator("#challenges button.accept").click();
  await bob.page.waitForURL(/\/game\/\d+$/);
  await alice.page.waitForURL(/\/game\/\d+$/);
  const id = gameId(bob.page);
  assert.equal(gameId(alice.page), id);
  const watcher = await visitor(`/game/${id}`);
  await watcher.page.waitForSelector("svg.board [data-square]");
  assert.equal(await watcher.page.locator("#resign").count(), 0, "a spectator has no game buttons");
  // The players chat; the other sees it live, the spectator sees no chat.
  await alice.page.fill("#chat-input", "Good luck, have fun");
  await alice.page.click("#chat-form button[type=submit]");
  await bob.page.locator("#chat li", { hasText: "Good luck, have fun" }).waitFor();
  assert.equal(await watcher.page.locator("#chat").count(), 0, "the chat is the players' only");
  // The spectators' chat: closed until a player opens it; then a signed-in
  // watcher writes there and the anonymous one reads it, while the players
  // see none of it until their game is over.
  await watcher.page.locator("#spectator-note", { hasText: "closed" }).waitFor();
  await alice.page.click("#spectator-toggle");
  await watcher.page.locator("#spectator-note", { hasText: "Sign in to write" }).waitFor();
  const [carol, dan] = await twoPlayers("carol", "dan");
  await dan.context.close();
  await carol.page.goto(`/game/${id}`);
  await carol.page.fill("#spectator-input", "Bold opening!");
  await carol.page.click("#spectator-form button[type=submit]");
  await watcher.page.locator("#spectator-chat li", { hasText: "Bold opening!" }).waitFor();
  await bob.page.locator("#spectator-note", { hasText: "hidden from you" }).waitFor();
  assert.equal(await bob.page.locator("#spectator-chat li", { hasText: "Bold" }).count(), 0, "hidden from the players");
  assert.equal(await bob.page.locator("#spectator-form:visible").count(), 0, "players do not write there");
  // Alice plays the engine's moves, Bob random quiet ones, until the game ends.
  for (let ply = 0; ply < 300; ply++) {
    const game = await gameState(alice.page, id);
    if (game.status === "finished") break;
    const mover = game.turn === "white" ? alice : bob;
    await mover.page.waitForFunction(() => document.querySelector(".status")?.textContent?.startsWith("Your move"));
    let move;
    if (game.turn === "white") {
      const best = await engineMove(alice.page, game);
      move = game.legal.find((m) => m.text === best);
    } else {
      const quiet = game.legal.filter((m) => m.captured.length === 0);
      const pool = quiet.length ? quiet : game.legal;
      move = pool[Math.floor(random() * pool.length)];
    }
    await clickMove(mover.page, move);
    const n = game.moves.length + 1;
    await waitForMoves(watcher.page, n);
    const seen = await watcher.page.locator(".moves button").nth(n - 1).textContent();
    assert.equal(seen, move.text, `the spectator sees move ${n}`);
    if (n === 6) await watcher.page.screenshot({ path: join(shots, "spectator.png"), fullPage: true });
  }
  const final = await gameState(alice.page, id);
  assert.equal(final.status, "finished");
  assert.equal(final.reason, "crossing", `the game ends by crossing, not ${final.reason}`);
  for (const who of [alice, bob, watcher]) {
    await who.page.locator(".banner", { hasText: "by crossing" }).waitFor();
  }
  assert.equal(await watcher.page.locator("#banner-rules").getAttribute("href"), "/learn#crossing", "the result links to its rule");
  // Alice asks for the computer analysis; the spectator sees it arrive too.
  await alice.page.click("#request-review");
  await alice.page.locator("#eval-graph").waitFor({ timeout: 30_000 });
  await watcher.page.locator("#eval-graph").waitFor({ timeout: 10_000 });
  assert.equal(await watcher.page.locator("#review-summary tbody tr").count(), 2);
  assert.equal(await watcher.page.locator("#review-record").getAttribute("href"), `/api/games/${id}/analysis/record`);
  // A click at the graph's left edge shows the start of the game.
  const chart = await watcher.page.locator("#eval-graph").boundingBox();
  await watcher.page.mouse.click(chart.x + 1, chart.y + chart.height / 2);
  await watcher.page.waitForFunction(() => !document.querySelector(".moves button.current"));
  await watcher.page.locator("#review-here", { hasText: /^At the start: .*the engine's move is / }).waitFor();
  await alice.page.screenshot({ path: join(shots, "game-analysis.png"), fullPage: true });
  console.log(`     game ${id}: ${await watcher.page.locator(".banner").textContent()} after ${final.moves.length} plies`);
  await bob.page.locator("#spectator-chat li", { hasText: "Bold opening!" }).waitFor();
  await carol.context.close();
  // Step back through the moves with the keyboard.
  await watcher.page.locator("h1").click();
  await watcher.page.keyboard.press("Home");
  await watcher.page.waitForFunction(() => !document.querySelector(".moves button.current"));
  await watcher.page.keyboard.press("ArrowRight");
  await watcher.page.waitForFunction(() => document.querySelector(".moves button.current")?.textContent !== undefined);
  await alice.page.screenshot({ path: join(shots, "game-over.png"), fullPage: true });
  // The profile shows the game and the export.
  await alice.page.goto(`/profile/${names[0]}`);
  await alice.page.locator("table a", { hasText: `#${id}` }).waitFor();
  await alice.page.screenshot({ path: join(shots, "profile.png"), fullPage: true });
  for (const who of [alice, bob, watcher]) await who.context.close();
});

await test("the analysis board: load, step, the engine's line, the editor", async () => {
  const { context, page } = await visitor("/analysis");
  await page.waitForSelector("svg.board [data-square]");
  await page.locator("#new-board").selectOption("8x8");
  await page.click("#new-start");
  await page.waitForFunction(() => document.querySelectorAll("svg.board [data-square]").length === 64);
  await page.click('svg.board [data-square="c2"]');
  await page.click('svg.board [data-square="c3"]');
  await page.click('.picker button[data-move="c2-c3"]');
  await waitForMoves(page, 1);
  await page.selectOption("#think-time", "1000");
  await page.click("#ask-engine");
  await page.locator("#engine-score").waitFor();
  await page.waitForFunction(() => !document.querySelector("#ask-engine").disabled, null, { timeout: 15_000 });
  assert.ok((await page.locator("#engine-pv").textContent()).length > 0, "a best line");
  await page.screenshot({ path: join(shots, "analysis.png"), fullPage: true });
  // Dragging works too: f7 onto f6, where the picker names the groups.
  const from = await page.locator('svg.board [data-square="f7"]').boundingBox();
  const to = await page.locator('svg.board [data-square="f6"]').boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.click('.picker button[data-move="f7-f6"]');
  await waitForMoves(page, 2);
  // The editor: a 6x5 board with two pieces, Black to move.
  await page.click("#edit");
  await page.fill("#edit-files", "6");
  await page.fill("#edit-ranks", "5");
  await page.click("text=Resize (clears)");
  await page.click('svg.board [data-square="a1"]');
  await page.check("input[name=tool][value=black]");
  await page.click('svg.board [data-square="f5"]');
  await page.selectOption("#edit-turn", "black");
  await page.click("#edit-done");
  await page.waitForFunction(() => document.querySelector("#position-text")?.value === "5b/6/6/6/w5 b");
  // A search that ends early (a forced win found at once) fills the bar.
  await page.fill("#load-text", "bb4/4w1/6/6/6/w5 w");
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelectorAll("svg.board [data-square]").length === 36);
  await page.selectOption("#think-time", "10000");
  const asked = Date.now();
  await page.click("#ask-engine");
  await page.waitForFunction(() => !document.querySelector("#ask-engine").disabled, null, { timeout: 15_000 });
  assert.ok(Date.now() - asked < 8000, "the proof ended the search early");
  assert.match(await page.locator("#engine-score").textContent(), /White wins/);
  await page.waitForFunction(() => {
    const bar = document.querySelector(".progress > div");
    const box = document.querySelector(".progress");
    return bar && box && Math.abs(bar.getBoundingClientRect().width - box.getBoundingClientRect().width) < 1;
  }, null, { timeout: 2000 });
  assert.equal(await page.locator(".progress").getAttribute("aria-valuenow"), "100");
  await context.close();
});

await test("a signed-out visitor's challenge is not sent, and the forms offer the server's board sizes", async () => {
  const { context, page } = await visitor("/");
  const offered = await (await page.request.get("/api/options")).json();
  for (const form of ["computer-title", "challenge-title"]) {
    // The page fills the lists from /api/options after it loads.
    const options = `form[aria-labelledby=${form}] select[name=board] option`;
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length > 0, options, { timeout: 5000 });
    const sizes = await page.locator(options).allTextContents();
    assert.deepEqual(sizes, offered.boards, `the ${form} form lists the server's sizes`);
  }
  const form = page.locator("form[aria-labelledby=challenge-title]");
  await form.locator("#opponent").fill("somebody");
  await form.locator("#send-challenge").click();
  await form.locator("#challenge-error", { hasText: "Sign in or sign up" }).waitFor();
  await page.waitForTimeout(300);
  assert.equal((await page.request.get("/api/me")).status(), 401, "the visitor was not made a guest");
  assert.equal(await page.locator("#account a[href='/signin']").count(), 1, "the header still offers sign-in");
  await context.close();
});

await test("account settings: a token made and revoked, the password changed, signed out everywhere, the account deleted", async () => {
  const name = `carol${Date.now() % 100000}`;
  const { context, page } = await visitor("/signup");
  await page.fill("#signup-name", name);
  await page.fill("#signup-password", "first password");
  await page.fill("#signup-email", `${name}@example.com`);
  await page.click("#signup button[type=submit]");
  await page.locator("#account", { hasText: name }).waitFor();
  // A second browser signed in as the same player, to be signed out from the first.
  const other = await visitor("/signin");
  await other.page.fill("#signin-name", name);
  await other.page.fill("#signin-password", "first password");
  await other.page.click("#signin button[type=submit]");
  await other.page.locator("#account", { hasText: name }).waitFor();

  await page.click("#settings-link");
  await page.waitForURL(`${base}/settings`);
  // A read token: shown once, listed, then revoked.
  await page.fill("#token-label", "my script");
  // The scopes come from the server: the form is sent once they are there.
  await page.locator("#token-form input[name=scope][value=read]").waitFor();
  await page.click("#token-form button[type=submit]");
  const secret = await page.locator("#new-token code").textContent();
  assert.ok(secret && secret.length >= 20, `a token is shown: ${secret}`);
  await page.locator("#tokens li[data-token]", { hasText: "my script: read" }).waitFor();
  const withToken = await page.request.get("/api/me", { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(withToken.status(), 200, "the token works");
  await page.click("#tokens li[data-token] button");
  await page.locator("#tokens li", { hasText: "No tokens." }).waitFor();
  const revoked = await page.request.get("/api/me", { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(revoked.status(), 401, "the revoked token no longer works");
  // A wrong current password is refused with a reason; the right one changes it.
  await page.fill("#password-current", "not my password");
  await page.fill("#password-new", "second password");
  await page.click("#password button[type=submit]");
  await page.locator("#password .error", { hasText: /password/i }).waitFor();
  await page.fill("#password-current", "first password");
  await page.fill("#password-new", "second password");
  await page.click("#password button[type=submit]");
  await page.locator("#toast.shown", { hasText: "Password changed; 1 other session signed out" }).waitFor();
  assert.equal((await other.page.request.get("/api/me")).status(), 401, "the other browser was signed out");
  assert.equal((await page.request.get("/api/me")).status(), 200, "this browser stays signed in");
  // Sign out everywhere, then back in with the new password.
  await page.click("#signout-all");
  await page.waitForURL(`${base}/`);
  assert.equal((await page.request.get("/api/me")).status(), 401, "signed out here too");
  await page.goto("/signin");
  await page.fill("#signin-name", name);
  await page.fill("#signin-password", "second password");
  await page.click("#signin button[type=submit]");
  await page.locator("#account", { hasText: name }).waitFor();
  // Delete the account: the password and the check box are both needed.
  await page.goto("/settings");
  await page.fill("#delete-password", "second password");
  await page.check("#delete-understood");
  await page.click("#delete button[type=submit]");
  await page.locator("#toast.shown", { hasText: "Account deleted" }).waitFor();
  await page.waitForURL(`${base}/`);
  const signIn = await page.request.post("/api/signin", { data: { name, password: "second password" } });
  assert.equal(signIn.status(), 401, "the deleted account cannot sign in");
  for (const who of [{ context }, other]) await who.context.close();
});

await test("mail: the address confirmed by its mailed link, mail choices saved, a forgotten password reset by a mailed link", async () => {
  if (!maildir) {
    console.log("     skipped: the server was started without mail (no MAILDIR)");
    return;
  }
  const { context, page } = await visitor("/signup");
  const name = `mia${Date.now() % 100000}`;
  const email = `${name}@example.org`;
  await page.fill("#signup-name", name);
  await page.fill("#signup-password", "correct horse battery");
  await page.fill("#signup-email", email);
  await page.click("#signup button[type=submit]");
  await page.locator("#account", { hasText: name }).waitFor();
  await page.click("#settings-link");
  await page.locator("#mail-unverified").waitFor();
  // The mailed link opens a page with one button; pressing it confirms.
  await page.goto(await mailedLink(email, "/mail/verify/"));
  await page.click("button[type=submit]");
  await page.locator("#confirmed", { hasText: email }).waitFor();
  await page.goto("/settings");
  await page.locator("#mail-verified").waitFor();
  await page.check("#mail-choices input[value=digest]");
  await page.uncheck("#mail-choices input[value=chat]");
  await page.click("#mail-choices button[type=submit]");
  await page.locator("#toast", { hasText: "Mail choices saved" }).waitFor();
  await page.reload();
  await page.locator("#mail-verified").waitFor();
  assert.ok(await page.isChecked("#mail-choices input[value=digest]"), "the digest is kept");
  assert.ok(!(await page.isChecked("#mail-choices input[value=chat]")), "chat mail stays off");
  assert.ok(await page.isChecked("#mail-choices input[value=turn]"), "the other kinds stay on");
  await page.screenshot({ path: join(shots, "settings-mail.png"), fullPage: true });
  // Signed out, the password is forgotten: a link is mailed, it sets a new one.
  await page.locator("#account button", { hasText: "Sign out" }).click();
  await page.goto("/signin");
  await page.click("#forgot-link");
  await page.waitForURL(`${base}/forgot`);
  await page.fill("#forgot-who", name);
  await page.click("#forgot button[type=submit]");
  await page.locator("#reset-answer", { hasText: "on its way" }).waitFor();
  await page.goto(await mailedLink(email, "/mail/reset/"));
  await page.fill("input[name=password]", "a brand new password");
  await page.click("button[type=submit]");
  await page.locator("#changed").waitFor();
  await page.goto("/signin");
  await page.fill("#signin-name", name);
  await page.fill("#signin-password", "a brand new password");
  await page.click("#signin button[type=submit]");
  await page.locator("#account", { hasText: name }).waitFor();
  await context.close();
});

await test("correspondence: a time bank, a conditional move planned on the analysis board and played at once, a vacation, the chat muted, the games waiting", async () => {
  const [alice, bob, names] = await twoPlayers("carla", "dave");
  const form = alice.page.locator("form[aria-labelledby=challenge-title]");
  await form.locator("#opponent").fill(names[1]);
  await form.locator("select[name=board]").selectOption("8x8");
  await form.locator("select[name=color]").selectOption("white");
  await form.locator("select[name=time]").selectOption("time bank 10d+36h max 10d");
  await form.locator("button[type=submit]").click();
  await bob.page.locator("#challenges button.accept").click();
  await bob.page.waitForURL(/\/game\/\d+$/);
  await alice.page.waitForURL(/\/game\/\d+$/);
  const id = gameId(alice.page);
  // The bank shows as days and hours, and Alice's move waits on her lobby.
  await alice.page.locator('[data-clock="white"]', { hasText: /^(10d 0h|9d 23h)$/ }).waitFor();
  await alice.page.goto("/");
  await alice.page.locator(`#your-move [data-game="${id}"]`, { hasText: "left" }).waitFor();
  await alice.page.waitForFunction(() => document.title.startsWith("(1)"));
  await alice.page.click("#next-game");
  await alice.page.waitForURL(`${base}/game/${id}`);
  // Alice moves, then plans a reply to Bob's likely answer on the analysis board.
  let game = await gameState(alice.page, id);
  await clickMove(alice.page, game.legal.find((m) => m.text === "a2-a3"));
  await waitForMoves(alice.page, 1);
  await alice.page.click("#plan-conditional");
  await alice.page.waitForURL(`${base}/analysis`);
  await alice.page.locator("#conditional-title", { hasText: `game ${id}` }).waitFor();
  game = await gameState(alice.page, id);
  const theirs = game.legal.find((m) => m.captured.length === 0);
  await clickMove(alice.page, theirs);
  await waitForMoves(alice.page, 2);
  await alice.page.click('svg.board [data-square="b2"]');
  await alice.page.click('svg.board [data-square="b3"]');
  const pick = alice.page.locator('.picker button[data-move="b2-b3"]');
  if (await pick.count()) await pick.click();
  await waitForMoves(alice.page, 3);
  await alice.page.click("#add-conditional");
  await alice.page.locator("#conditional-lines li", { hasText: `${theirs.text} b2-b3` }).waitFor();
  await alice.page.screenshot({ path: join(shots, "conditional.png"), fullPage: true });
  await alice.page.click(`a[href="/game/${id}"]`);
  await alice.page.locator("#conditional-list li", { hasText: `${theirs.text} b2-b3` }).waitFor();
  // Bob plays the foreseen move: Alice's reply is on the board at once.
  await bob.page.waitForFunction(() => document.querySelector(".status")?.textContent?.startsWith("Your move"));
  await clickMove(bob.page, (await gameState(bob.page, id)).legal.find((m) => m.text === theirs.text));
  await waitForMoves(bob.page, 3);
  assert.equal(await bob.page.locator(".moves button").nth(2).textContent(), "b2-b3");
  // Bob takes a vacation; Alice sees it on the game.
  await bob.page.goto("/settings");
  await bob.page.fill("#vacation-days", "3");
  await bob.page.click("#take-vacation button[type=submit]");
  await bob.page.locator("#vacation-list li").waitFor();
  assert.match(await bob.page.locator("#vacation-left").textContent(), /^27 of 30/);
  await bob.page.screenshot({ path: join(shots, "vacation.png"), fullPage: true });
  await alice.page.reload();
  await alice.page.locator('[data-vacation="black"]', { hasText: "on vacation until" }).waitFor();
  // Bob writes; Alice mutes him.
  await bob.page.goto(`/game/${id}`);
  await bob.page.fill("#chat-input", "see you after my holiday");
  await bob.page.click("#chat-form button[type=submit]");
  await alice.page.locator("#chat li", { hasText: "see you after my holiday" }).waitFor();
  await alice.page.click("#chat-mute");
  await alice.page.locator("#chat li", { hasText: "muted" }).waitFor();
  assert.equal(await alice.page.locator("#chat li", { hasText: "holiday" }).count(), 0);
  for (const who of [alice, bob]) await who.context.close();
});

await test("a tournament: made in the form, joined, started when full, a game linked both ways, a resignation in the standings and crosstable", async () => {
  const [alice, bob, names] = await twoPlayers("erin", "fred");
  await alice.page.click('nav a[href="/tournaments"]');
  await alice.page.waitForURL(`${base}/tournaments`);
  const form = alice.page.locator("#new-tournament");
  await form.locator("#tournament-name").fill(`Cup ${names[0]}`);
  await form.locator("#tournament-format").selectOption("Round robin");
  await form.locator("#tournament-board").selectOption("8x8");
  await form.locator("#tournament-time").selectOption("1 day per move");
  await form.locator("#tournament-max").fill("2");
  await form.locator("#create-tournament").click();
  await alice.page.waitForURL(/\/tournament\/\d+$/);
  const path = new URL(alice.page.url()).pathname;
  await alice.page.locator("#tournament-title", { hasText: `Cup ${names[0]}` }).waitFor();
  await alice.page.click("#join");
  await alice.page.locator("#standings-title", { hasText: "Players (1)" }).waitFor();
  // Bob finds it in the list and joins: two of two, so it starts.
  await bob.page.goto("/tournaments");
  await bob.page.click(`a[href="${path}"]`);
  await bob.page.click("#join");
  await bob.page.locator("#tournament-status", { hasText: "running, every game at once" }).waitFor();
  assert.equal(await bob.page.locator("#crosstable tbody tr").count(), 2);
  await bob.page.screenshot({ path: join(shots, "tournament.png"), fullPage: true });
  // The game is linked from the crosstable, and links back.
  await bob.page.locator("#crosstable tbody a[href^='/game/']").first().click();
  await bob.page.waitForURL(/\/game\/\d+$/);
  await bob.page.locator("#game-tournament a", { hasText: `Cup ${names[0]}` }).waitFor();
  bob.page.once("dialog", (dialog) => dialog.accept());
  await bob.page.click("#resign");
  await bob.page.locator(".banner", { hasText: /resignation/ }).waitFor();
  await bob.page.click("#game-tournament a");
  await bob.page.waitForURL(`${base}${path}`);
  await bob.page.locator("#tournament-status", { hasText: "finished" }).waitFor();
  const first = bob.page.locator("#crosstable tbody tr").first();
  assert.match(await first.textContent(), new RegExp(`^1${names[0]}`));
  assert.equal(await first.locator("td.cross a").textContent(), "1");
  assert.equal(await bob.page.locator("#crosstable tbody tr").nth(1).locator("td.cross a").textContent(), "0");
  assert.equal(await bob.page.locator("#download-records").getAttribute("href"), `/api/tournaments/${path.split("/")[2]}/records`);
  for (const who of [alice, bob]) await who.context.close();
});

await test("learning: the rules from the lobby, an example board tried, the symmetry rule's forbidden move, the lessons with a wrong move and the right ones", async () => {
  const { context, page } = await visitor("/");
  await page.click("#lobby-learn");
  await page.waitForURL(`${base}/learn`);
  await page.locator("#symmetry .forbidden", { hasText: "c5-c6" }).waitFor();
  assert.match(await page.locator("#symmetry .forbidden").textContent(), /symmetr/);
  assert.equal(await page.locator("section.guide").count(), 8);
  // The phalanx example: the column goes up a square, then back to the start.
  await clickIn(page, "#phalanx", "c1", "c4", "c1,c3-c4");
  await page.locator("#phalanx [role=status]", { hasText: "Black to move" }).waitFor();
  assert.match(await page.locator("#phalanx [role=status]").textContent(), /Played: c1,c3-c4/);
  assert.match(await page.locator('#phalanx [data-square="c4"]').getAttribute("aria-label"), /^c4, white piece, last move/, "the board shows the move");
  // A link to a part of the page only scrolls: the example keeps its move.
  await page.click('nav[aria-label=Contents] a[href="#symmetry"]');
  await page.waitForFunction(() => location.hash === "#symmetry");
  assert.equal(await page.locator("#phalanx [role=status]", { hasText: "Played: c1,c3-c4" }).count(), 1);
  await page.screenshot({ path: join(shots, "learn.png"), fullPage: true });
  // The variants' parts play their own rules: an Abanondas sidestep.
  await clickIn(page, "#abanondas", "b2", "b3", "a2,b2-b3");
  await page.locator("#abanondas [role=status]", { hasText: "Played: a2,b2-b3" }).waitFor();
  // Lesson 1: a part of the column is not what it asks; the whole column is.
  await clickIn(page, "#lessons", "c3", "c4", "c3-c4");
  await page.locator("#lesson-verdict.error", { hasText: "Not c3-c4" }).waitFor();
  const lessons = [
    ["c1", "c6", "c1,c3-c6", "Three pieces, three squares"],
    ["a3", "e3", "a3,c3-e3", "Three beat two"],
    ["a1", "a3", "a1,a2-a3", "Two beat one"],
    ["a3", "c1", "a3,b2-c1", "The intruder is gone"],
    ["e5", "e6", "e5-e6", "Black has no answer"],
  ];
  for (const [i, [from, to, text, praise]] of lessons.entries()) {
    await page.locator("#lesson-progress", { hasText: `Lesson ${i + 1} of 5` }).waitFor();
    await clickIn(page, "#lessons", from, to, text);
    await page.locator("#lesson-verdict.right", { hasText: praise }).waitFor();
    if (i < lessons.length - 1) await page.click("#lesson-next");
  }
  await page.locator("#lessons-done").waitFor();
  assert.equal(await page.locator("#toast[data-kind=error]").count(), 0, "no error was shown");
  await context.close();
});

/** The shipped puzzles' solutions, read from the collection file. */
const solutions = new Map(readFileSync(new URL("../../learn/puzzles.txt", import.meta.url), "utf8")
  .split("\n").filter((line) => line && !line.startsWith("#"))
  .map((line) => line.split("\t")).map((f) => [f[0], { position: f[1], symmetry: f[2], solution: f[4].split(" ") }]));

/** The legal-move entry `text` after `moves` in puzzle `id`, from the server. */
async function puzzleMove(page, id, moves, text) {
  const { position, symmetry } = solutions.get(id);
  const response = await page.request.post("/api/analysis", { data: { start: position, symmetry, moves } });
  const line = await response.json();
  return line.state.legal.find((m) => m.text === text);
}

await test("puzzles: the lobby's puzzle of the day, one puzzle solved and one failed, the rating and history", async () => {
  const [player, other] = await twoPlayers("pia", "pim");
  await other.context.close();
  const page = player.page;
  await page.locator("#daily-puzzle svg.board [data-square]").first().waitFor();
  await page.click('nav a[href="/puzzles"]');
  await page.waitForURL(`${base}/puzzles`);
  await page.waitForFunction(() => document.querySelector("h1")?.textContent?.startsWith("Puzzle s"));
  await page.selectOption("#puzzle-board", "8x8");
  await page.waitForFunction(() => document.querySelector("h1")?.textContent?.startsWith("Puzzle 8x8-"));
  // Solve it with the solution's moves, the site answering each.
  const id = (await page.locator("h1").textContent()).replace("Puzzle ", "");
  const { solution } = solutions.get(id);
  for (let i = 0; i < solution.length; i += 2) {
    const move = await puzzleMove(page, id, solution.slice(0, i), solution[i]);
    await page.click(`svg.board [data-square="${move.from[0]}"]`);
    await page.click(`svg.board [data-square="${move.to}"]`);
    const picker = page.locator(`.picker button[data-move="${move.text}"]`);
    if (await picker.count()) await picker.click();
    if (i + 2 < solution.length) await page.locator("#puzzle-verdict", { hasText: `Right. The defence: ${solution[i + 1]}` }).waitFor();
  }
  await page.locator("#puzzle-verdict", { hasText: "Solved! Your puzzle rating: 1500 →" }).waitFor();
  await page.locator("#puzzle-history li", { hasText: id }).waitFor();
  // The next one, failed: any other first move is wrong.
  await page.click("#puzzle-next");
  await page.waitForFunction((old) => document.querySelector("h1")?.textContent?.startsWith("Puzzle 8x8-") && document.querySelector("h1")?.textContent !== old, `Puzzle ${id}`);
  const second = (await page.locator("h1").textContent()).replace("Puzzle ", "");
  const state = await (await page.request.get(`/api/puzzles/${second}`)).json();
  const wrong = state.state.legal.find((m) => m.text !== solutions.get(second).solution[0]);
  await page.click(`svg.board [data-square="${wrong.from[0]}"]`);
  await page.click(`svg.board [data-square="${wrong.to}"]`);
  const picker = page.locator(`.picker button[data-move="${wrong.text}"]`);
  if (await picker.count()) await picker.click();
  await page.locator("#puzzle-verdict.error", { hasText: `The solution: ${solutions.get(second).solution.join(" ")}` }).waitFor();
  await page.locator("#puzzle-rating", { hasText: "1 solved of 2" }).waitFor();
  await page.screenshot({ path: join(shots, "puzzles.png"), fullPage: true });
  await player.context.close();
});

await test("the variants: Stumbling Blocks against the computer from its stones on, an Abanondas sidestep, a rating list per variant", async () => {
  const { context, page } = await visitor("/");
  const computer = page.locator("form[aria-labelledby=computer-title]");
  // Choosing a variant shows what it changes and its own board.
  await computer.locator("select[name=variant]").selectOption("crossings");
  assert.equal(await computer.locator("select[name=board]").inputValue(), "8x8", "Crossings is played on 8x8");
  assert.match(await page.locator("#computer-variant-summary").textContent(), /frozen/);
  await computer.locator("select[name=variant]").selectOption("stumbling-blocks");
  await computer.locator("select[name=board]").selectOption("8x8");
  await computer.locator("select[name=level]").selectOption("1");
  await computer.locator("select[name=color]").selectOption("white");
  await page.click("#play-computer");
  await page.waitForURL(/\/game\/\d+$/);
  const id = gameId(page);
  await page.locator("#game-variant", { hasText: "Stumbling Blocks" }).waitFor();
  await page.locator(".status", { hasText: "place a neutral stone" }).waitFor();
  // The first stone: a click on a marked square, with nothing selected.
  let game = await gameState(page, id);
  assert.ok(game.legal.every((m) => m.kind === "placement"), "only placements at first");
  await page.click(`svg.board [data-square="${game.legal[0].to}"]`);
  await waitForMoves(page, 1);
  // The computer places the second; the third is ours; then the computer (Black) moves first.
  await page.locator(".status", { hasText: "place a neutral stone" }).waitFor();
  game = await gameState(page, id);
  assert.equal(game.stones_to_place, 1);
  await page.click(`svg.board [data-square="${game.legal[game.legal.length - 1].to}"]`);
  await waitForMoves(page, 4);
  await page.locator(".status", { hasText: "Your move" }).waitFor();
  const stones = (await boardLabels(page)).split("|").filter((label) => label.includes("neutral stone"));
  assert.equal(stones.length, 3, `three stones on the board: ${stones}`);
  game = await gameState(page, id);
  assert.ok(!game.moves[3].startsWith("@"), `Black moved first: ${game.moves}`);
  await clickMove(page, game.legal.find((m) => m.kind === "move"));
  await waitForMoves(page, 5);
  await page.screenshot({ path: join(shots, "stumbling-blocks.png"), fullPage: true });
  // Stepping back shows the position of the variant, stones and all.
  await page.click('button[aria-label="First position"]');
  await page.waitForFunction(() => !document.querySelector('svg.board [aria-label*="neutral stone"]'));
  await page.click('button[aria-label="Current position"]');
  await page.waitForFunction(() => document.querySelectorAll('svg.board [aria-label*="neutral stone"]').length === 3);

  // Abanondas on the analysis board: the pair a2,b2 steps north, picked
  // by clicking b2, then b3 (where b2 goes), then the run in the picker.
  await page.goto("/analysis");
  await page.waitForSelector("svg.board [data-square]");
  await page.locator("#new-variant").selectOption("abanondas");
  await page.locator("#new-board").selectOption("8x8");
  await page.click("#new-start");
  await page.locator(".status", { hasText: "Abanondas" }).waitFor();
  const line = await (await page.request.post("/api/analysis", { data: { variant: "abanondas", board: "8x8", moves: [] } })).json();
  const pair = line.state.legal.find((m) => m.kind === "sidestep" && m.from.length === 2 &&
    m.from.includes("a2") && m.from.includes("b2") && m.lands.includes("b3") && m.lands.includes("a3"));
  assert.ok(pair, "the pair's sidestep is legal");
  await clickIn(page, "", "b2", "b3", pair.text);
  await waitForMoves(page, 1);
  const labels = await boardLabels(page);
  for (const square of ["a3", "b3"]) assert.ok(labels.includes(`${square}, white piece`), `${square} is white now`);
  for (const square of ["a2", "b2"]) assert.ok(labels.includes(`${square}, empty`), `${square} is empty now`);

  // Each variant has its own rating list.
  await page.goto("/players?variant=crossings");
  await page.locator("h1", { hasText: "Players: Crossings" }).waitFor();
  await page.locator("text=Nobody has played a rated game of Crossings yet.").waitFor();
  await page.click('#rating-lists a[data-variant="epaminondas"]');
  await page.locator("h1", { hasText: /^Players$/ }).waitFor();
  await context.close();
});

await test("the site works at a phone-sized viewport", async () => {
  const { context, page } = await visitor("/", { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.locator("form[aria-labelledby=computer-title] select[name=board]").selectOption("10x8");
  await page.locator("form[aria-labelledby=computer-title] select[name=color]").selectOption("white");
  await page.tap("#play-computer");
  await page.waitForURL(/\/game\/\d+$/);
  await page.waitForFunction(() => document.querySelector(".status")?.textContent?.startsWith("Your move"));
  const box = await page.locator("svg.board").boundingBox();
  assert.ok(box.width <= 390 && box.x >= 0, `the board fits the screen: ${JSON.stringify(box)}`);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= 390, `no sideways scrolling (${scrollWidth}px)`);
  // The squares are smaller than a fingertip: a tap opens the loupe, whose
  // squares are 48 px, and the move is picked there.
  await page.tap('svg.board [data-square="c2"]');
  const square = await page.locator('.loupe [data-square="c2"]').boundingBox();
  assert.ok(square.width >= 44 && square.height >= 44, `loupe squares fit a finger: ${JSON.stringify(square)}`);
  const loupe = await page.locator(".loupe").boundingBox();
  assert.ok(loupe.x >= 0 && loupe.x + loupe.width <= 390, `the loupe fits the screen: ${JSON.stringify(loupe)}`);
  await page.tap('.loupe [data-square="c2"]');
  await page.tap('.loupe [data-square="c3"]');
  await page.tap('.picker button[data-move="c2-c3"]');
  await waitForMoves(page, 1);
  assert.ok(await page.locator(".loupe").isHidden(), "the loupe closes after the move");
  await page.screenshot({ path: join(shots, "phone.png"), fullPage: true });
  // The Learn page and the puzzles fit the phone too.
  for (const [path, ready] of [["/learn", "#lessons svg.board"], ["/puzzles", "#puzzle-task:not(:empty)"]]) {
    await page.goto(path);
    await page.locator(ready).waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `${path}: no sideways scrolling (${wide}px)`);
  }
  await context.close();
});

await browser.close();
if (failures.length) {
  console.log(`${failures.length} failed: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("all browser tests passed");
