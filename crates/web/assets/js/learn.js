// The Learn page: the rules for a newcomer, each part with a small board to
// try moves on, and the lessons that judge the visitor's moves. The server
// sends the positions, their legal moves and every move's verdict; the page
// holds no rules.

import { api } from "./api.js";
import { Board } from "./board.js";
import { h, replace, toast } from "./dom.js";

/**
 * What a board's status line says of a position view.
 * @param {any} state
 */
function statusOf(state) {
  if (state.outcome) return `${state.outcome.text}.`;
  const side = state.turn === "white" ? "White" : "Black";
  return `${side} to move. On the goal rows: White ${state.goal.white}, Black ${state.goal.black}.`;
}

/**
 * A board that starts at `state` and plays whatever the visitor picks, for
 * both sides, with a button back to the start.
 * @param {any} start the position view to start from
 */
function tryBoard(start) {
  /** @type {string[]} */
  let moves = [];
  const status = h("p", { class: "muted", role: "status" });
  const board = new Board({
    onMove: async (text) => {
      try {
        const line = await api("/api/analysis", { start: start.position, symmetry: start.symmetry, variant: start.variant, moves: [...moves, text] });
        moves.push(text);
        show(line.state);
      } catch (error) {
        toast(/** @type {Error} */ (error).message, "error");
        show(null);
      }
    },
  });
  /** @param {any} state */
  function show(state) {
    const shown = state || start;
    board.set(shown, { interactive: !shown.outcome });
    status.textContent = statusOf(shown) + (moves.length ? ` Played: ${moves.join(" ")}.` : "");
  }
  const reset = h("button", { type: "button", class: "secondary", onclick: () => { moves = []; show(null); } }, "Start again");
  show(null);
  return h("div", { class: "example" }, board.el, status, reset);
}

/**
 * One part of the guide.
 * @param {any} section
 */
function sectionView(section) {
  const example = section.example;
  return h("section", { id: section.id, class: "panel guide", "aria-labelledby": `${section.id}-title` },
    h("h2", { id: `${section.id}-title` }, section.title),
    section.paragraphs.map((/** @type {string} */ p) => h("p", {}, p)),
    example ? h("figure", {},
      tryBoard(example.state),
      h("figcaption", {}, h("p", {}, example.caption),
        example.forbidden
          ? h("p", { class: "forbidden" }, h("code", {}, example.forbidden.move), " is not legal here: ", example.forbidden.why, ".")
          : null)) : null);
}

/**
 * The lessons, one at a time: a wrong move is explained and the board set
 * back; a right one is praised and opens the next lesson.
 * @param {any[]} lessons
 */
function lessonsView(lessons) {
  let index = 0;
  const title = h("h3", { id: "lesson-title" });
  const task = h("p", { id: "lesson-task" });
  const verdict = h("p", { id: "lesson-verdict", role: "status", "aria-live": "polite" });
  const progress = h("p", { class: "muted", id: "lesson-progress" });
  const next = h("button", { type: "button", id: "lesson-next", hidden: true, onclick: () => { index += 1; show(); } }, "Next lesson");
  const board = new Board({
    onMove: async (text) => {
      const lesson = lessons[index];
      const judged = lesson.verdicts.find((/** @type {any} */ v) => v.move === text);
      if (!judged) return show();
      verdict.textContent = judged.says;
      verdict.className = judged.correct ? "right" : "error";
      if (!judged.correct) {
        board.set(lesson.state, { interactive: true });
        return;
      }
      try {
        const line = await api("/api/analysis", { start: lesson.state.position, symmetry: lesson.state.symmetry, moves: [text] });
        board.set(line.state);
      } catch (error) {
        toast(/** @type {Error} */ (error).message, "error");
      }
      const last = index + 1 >= lessons.length;
      next.hidden = last;
      if (last) verdict.append(" ", h("span", { id: "lessons-done" }, "That was the last lesson: "), h("a", { href: "/" }, "now play a game"), ".");
    },
  });
  function show() {
    const lesson = lessons[index];
    title.textContent = lesson.title;
    task.textContent = lesson.task;
    verdict.textContent = "";
    verdict.className = "";
    progress.textContent = `Lesson ${index + 1} of ${lessons.length}. You play ${lesson.state.turn === "white" ? "White" : "Black"}.`;
    next.hidden = true;
    board.set(lesson.state, { interactive: true });
  }
  show();
  return h("section", { id: "lessons", class: "panel", "aria-labelledby": "lessons-title" },
    h("h2", { id: "lessons-title" }, "Lessons"),
    h("div", { class: "lesson" }, h("div", {}, board.el), h("div", {}, title, progress, task, verdict, next)));
}

/** @param {HTMLElement} main */
export function learnPage(main) {
  replace(main, h("h1", {}, "Learn to play"), h("p", { class: "muted" }, "Loading the rules..."));
  api("/api/learn").then((learn) => {
    const contents = h("nav", { class: "panel", "aria-label": "Contents" },
      h("ol", {}, learn.sections.map((/** @type {any} */ s) => h("li", {}, h("a", { href: `#${s.id}` }, s.title))),
        h("li", {}, h("a", { href: "#lessons" }, "Lessons: try it yourself"))));
    replace(main, h("h1", {}, "Learn to play"),
      h("p", {}, "Epaminondas is Robert Abbott's game of phalanxes (1975). The rules fit on a page; here they are, each part with a board to try moves on, then five short lessons."),
      contents,
      learn.sections.map(sectionView),
      lessonsView(learn.lessons));
    // A link such as /learn#crossing scrolls to its part once it is drawn.
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }).catch((error) => {
    replace(main, h("h1", {}, "Learn to play"), h("p", { class: "error" }, /** @type {Error} */ (error).message));
  });
}
