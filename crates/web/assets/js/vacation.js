// The settings panel for correspondence play: the yearly vacation
// allowance and the vacations taken (ended or cancelled here), a form to
// take one, whether a day is taken automatically when time runs out, and
// the most correspondence games the player runs at once.

import { api } from "./api.js";
import { h, replace, toast } from "./dom.js";

/** The panel, filled from `GET /api/account/vacation`. */
export function vacationPanel() {
  const body = h("div", {});
  const el = h("section", { class: "panel", "aria-labelledby": "vacation-title", id: "vacation" },
    h("h2", { id: "vacation-title" }, "Correspondence and vacation"),
    h("p", { class: "muted" }, "On vacation your correspondence clocks stop in every game, and your opponents see it."),
    body);

  /** @param {any} info */
  function draw(info) {
    const days = h("input", { type: "number", name: "days", id: "vacation-days", min: 1, max: Math.max(1, info.left_days), value: Math.min(7, Math.max(1, info.left_days)), required: true });
    const from = h("input", { type: "date", name: "from", id: "vacation-from", "aria-label": "From (empty: now)" });
    const take = h("form", { class: "row", id: "take-vacation" },
      h("label", {}, "Days ", days), h("label", {}, "from ", from),
      h("button", { type: "submit" }, "Take a vacation"));
    take.addEventListener("submit", async (event) => {
      event.preventDefault();
      const start = /** @type {HTMLInputElement} */ (from).value;
      try {
        await api("/api/account/vacation", {
          days: Number(/** @type {HTMLInputElement} */ (days).value),
          starts_at: start ? Date.parse(`${start}T00:00:00Z`) : undefined,
        });
        toast("Vacation taken");
        refresh();
      } catch (error) {
        toast(/** @type {Error} */ (error).message, "error");
      }
    });
    const auto = h("input", { type: "checkbox", id: "auto-vacation", checked: info.auto_vacation });
    const cap = h("input", { type: "number", id: "max-correspondence", min: 0, max: 1000, value: info.max_correspondence });
    const options = h("form", { id: "correspondence-options" },
      h("label", {}, auto, " When my time runs out, use a vacation day rather than lose the game"),
      h("label", {}, "Most correspondence games at once (0: no limit) ", cap),
      h("button", { type: "submit", class: "secondary" }, "Save"));
    options.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        draw(await api("/api/account/correspondence", {
          auto_vacation: /** @type {HTMLInputElement} */ (auto).checked,
          max_correspondence: Number(/** @type {HTMLInputElement} */ (cap).value),
        }));
        toast("Saved");
      } catch (error) {
        toast(/** @type {Error} */ (error).message, "error");
      }
    });
    const now = Date.now();
    replace(body,
      h("p", { id: "vacation-left" }, `${info.left_days} of ${info.allowance_days} vacation days left this year.`),
      info.vacations.length === 0 ? null : h("ul", { class: "plain", id: "vacation-list" }, info.vacations.map((/** @type {any} */ v) =>
        h("li", {},
          `${new Date(v.starts_at).toLocaleString()} to ${new Date(v.ends_at).toLocaleString()}${v.automatic ? " (automatic)" : ""} `,
          h("button", { type: "button", class: "secondary", onclick: async () => {
            try {
              draw(await api(`/api/account/vacation/${v.id}`, undefined, "DELETE"));
            } catch (error) {
              toast(/** @type {Error} */ (error).message, "error");
            }
          } }, v.starts_at > now ? "Cancel" : "End now")))),
      take, options);
  }

  async function refresh() {
    try {
      draw(await api("/api/account/vacation"));
    } catch (error) {
      replace(body, h("p", { class: "error" }, /** @type {Error} */ (error).message));
    }
  }
  refresh();
  return { el, refresh };
}
