// Mail on the site: the settings panel that chooses what is mailed (and
// confirms or changes the address), the page that asks for a password-reset
// link, the chat between a game's two players (which the server also mails
// to the opponent, when they chose so), and the spectators' chat.

import { api, currentUser } from "./api.js";
import { h, replace, toast } from "./dom.js";

/** @param {HTMLElement} main */
export function forgotPage(main) {
  const answer = h("p", { id: "reset-answer", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "panel", id: "forgot" },
    h("label", {}, "Your name or e-mail address",
      h("input", { name: "who", id: "forgot-who", autocomplete: "username", required: true, maxlength: 254 })),
    error,
    h("button", { type: "submit" }, "Mail me a link"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const who = String(new FormData(/** @type {HTMLFormElement} */ (form)).get("who") || "").trim();
    try {
      await api("/api/account/reset", { who });
      answer.textContent = "If an account with a confirmed address matches, a link to choose a new password is on its way. It works for an hour.";
      /** @type {HTMLFormElement} */ (form).reset();
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  replace(main,
    h("h1", {}, "Forgotten password"),
    h("p", {}, "The link goes to the account's confirmed e-mail address only."),
    form, answer,
    h("p", {}, h("a", { href: "/signin" }, "Back to sign in")));
}

/**
 * The settings panel for mail: the address and whether it is confirmed, a
 * form to change it (or mail the confirmation again), how mail comes (each
 * as it happens, a daily digest, or none) and which kinds.
 */
export function mailPanel() {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const el = h("section", { class: "panel", "aria-labelledby": "mail-title", id: "mail-settings" },
    h("h2", { id: "mail-title" }, "E-mail"), body);

  async function refresh() {
    try {
      draw(await api("/api/account/mail"));
    } catch (error) {
      replace(body, h("p", { class: "error" }, /** @type {Error} */ (error).message));
    }
  }

  /** @param {any} mail */
  function draw(mail) {
    const status = mail.verified
      ? h("span", { class: "badge", id: "mail-verified" }, "confirmed")
      : h("span", { class: "badge warn", id: "mail-unverified" }, "not confirmed: open the link mailed to it");
    const choices = h("form", { id: "mail-choices" },
      h("fieldset", {},
        h("legend", {}, "How mail comes"),
        [["each", "Each as it happens"], ["digest", "One digest a day"], ["off", "None"]].map(([value, label]) =>
          h("label", {}, h("input", { type: "radio", name: "mode", value, checked: mail.mode === value }), ` ${label}`))),
      h("fieldset", {},
        h("legend", {}, "What is mailed"),
        mail.kinds.map((/** @type {any} */ k) =>
          h("label", {}, h("input", { type: "checkbox", name: "kind", value: k.kind, checked: k.on }), ` ${k.meaning}`))),
      h("button", { type: "submit" }, "Save"));
    choices.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = new FormData(/** @type {HTMLFormElement} */ (choices));
      try {
        draw(await api("/api/account/mail", {
          mode: String(data.get("mode") || "each"),
          kinds: data.getAll("kind").map(String),
        }));
        toast("Mail choices saved");
      } catch (error) {
        toast(/** @type {Error} */ (error).message, "error");
      }
    });
    const addressError = h("p", { class: "error", role: "alert" });
    const address = h("form", { id: "mail-address" },
      h("label", {}, "Address", h("input", { type: "email", name: "email", id: "mail-email", value: mail.email, autocomplete: "email", required: true })),
      h("label", {}, "Password, to confirm", h("input", { type: "password", name: "password", id: "mail-password", autocomplete: "current-password", required: true })),
      addressError,
      h("button", { type: "submit", class: "secondary" }, mail.verified ? "Change the address" : "Mail the confirmation again"));
    address.addEventListener("submit", async (event) => {
      event.preventDefault();
      addressError.textContent = "";
      const data = new FormData(/** @type {HTMLFormElement} */ (address));
      try {
        const done = await api("/api/account/email", { email: String(data.get("email")), password: String(data.get("password")) });
        toast(done.verification_mailed
          ? "A confirmation link was mailed; the address changes when it is opened"
          : "This server sends no mail");
        /** @type {HTMLInputElement} */ (address.querySelector("[name=password]")).value = "";
      } catch (error) {
        addressError.textContent = /** @type {Error} */ (error).message;
      }
    });
    replace(body,
      mail.sending ? null : h("p", { class: "muted" }, "This server sends no mail at present; your choices are kept for when it does."),
      h("p", {}, mail.email, " ", status),
      mail.failure ? h("p", { class: "error", id: "mail-failure" }, `The last mail to this address failed: ${mail.failure}`) : null,
      mail.address ? h("p", { class: "muted" }, "Commands by mail go to ", h("code", {}, mail.address), "; send it ", h("code", {}, "help"), ".") : null,
      choices, address);
  }

  return { el, refresh };
}

/**
 * Asks why, then reports chat message `m` to the site's operator.
 * @param {any} m
 */
async function report(m) {
  const reason = prompt("Why report this message? (optional)", "");
  if (reason === null) return;
  try {
    await api(`/api/chat/${m.id}/report`, { reason });
    toast("Reported: the site's operator will read it");
  } catch (error) {
    toast(/** @type {Error} */ (error).message, "error");
  }
}

/**
 * Fills a chat's list with its messages, each but one's own with a report
 * button for a signed-in reader.
 * @param {HTMLElement} list
 * @param {any[]} messages
 * @param {string} empty what to say when there are none
 */
function showMessages(list, messages, empty) {
  const me = currentUser();
  replace(list, messages.length === 0
    ? h("li", { class: "muted" }, empty)
    : messages.map((/** @type {any} */ m) => h("li", {},
      h("strong", {}, m.author), " ", m.body, " ",
      h("time", { class: "muted", datetime: new Date(m.at).toISOString() }, new Date(m.at).toLocaleString()),
      me && m.author !== me.name
        ? h("button", { type: "button", class: "link report", "aria-label": `Report the message by ${m.author}`, onclick: () => report(m) }, "Report")
        : null)));
}

/**
 * Sends the text of a chat form's input to `url`, then empties the input
 * and calls `done`.
 * @param {HTMLElement} form
 * @param {HTMLElement} input
 * @param {string} url
 * @param {() => void} done
 */
function sendOnSubmit(form, input, url, done) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = /** @type {HTMLInputElement} */ (input).value.trim();
    if (!text) return;
    try {
      await api(url, { body: text });
      /** @type {HTMLInputElement} */ (input).value = "";
      done();
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  });
}

/**
 * The chat between a game's players, shown to them only.
 * @param {string} id the game
 */
export function chatPanel(id) {
  const list = h("ol", { class: "plain chat", id: "chat", "aria-live": "polite" });
  const input = h("input", { name: "body", id: "chat-input", maxlength: 500, autocomplete: "off", "aria-label": "Message to your opponent", placeholder: "Message to your opponent" });
  const form = h("form", { class: "row", id: "chat-form" }, input, h("button", { type: "submit", class: "secondary" }, "Send"));
  sendOnSubmit(form, input, `/api/games/${id}/chat`, () => refresh());
  let last = "";
  let muted = false;
  const mute = h("button", { type: "button", class: "secondary", id: "chat-mute", onclick: async () => {
    try {
      await api(`/api/games/${id}/chat/mute`, { muted: !muted });
      last = "";
      refresh();
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  } }, "Mute opponent");
  async function refresh() {
    try {
      const view = await api(`/api/games/${id}/chat`);
      const messages = view.messages;
      const key = `${view.muted}:${messages.map((/** @type {any} */ m) => m.id).join(",")}`;
      if (key === last) return;
      last = key;
      muted = view.muted;
      mute.textContent = muted ? "Unmute opponent" : "Mute opponent";
      showMessages(list, messages, muted ? "Your opponent is muted." : "No messages.");
    } catch (error) {
      replace(list, h("li", { class: "error" }, /** @type {Error} */ (error).message));
    }
  }
  const el = h("section", { "aria-labelledby": "chat-title" }, h("h2", { id: "chat-title" }, "Chat"), list, form, mute);
  return { el, refresh };
}

/**
 * The spectators' chat of a game: closed until a player opens it, hidden
 * from the players while their game runs, written in by signed-in watchers.
 * @param {string} id the game
 */
export function spectatorChatPanel(id) {
  const list = h("ol", { class: "plain chat", id: "spectator-chat", "aria-live": "polite" });
  const note = h("p", { class: "muted", id: "spectator-note" });
  const input = h("input", { name: "body", id: "spectator-input", maxlength: 500, autocomplete: "off", "aria-label": "Message to the other spectators", placeholder: "Message to the other spectators" });
  const form = h("form", { class: "row", id: "spectator-form", hidden: true }, input, h("button", { type: "submit", class: "secondary" }, "Send"));
  sendOnSubmit(form, input, `/api/games/${id}/chat/spectators`, () => refresh());
  let open = false;
  const toggle = h("button", { type: "button", class: "secondary", id: "spectator-toggle", hidden: true, onclick: async () => {
    try {
      await api(`/api/games/${id}/chat/spectators/open`, { open: !open });
      refresh();
    } catch (error) {
      toast(/** @type {Error} */ (error).message, "error");
    }
  } }, "");
  let last = "";
  async function refresh() {
    try {
      const view = await api(`/api/games/${id}/chat/spectators`);
      const key = JSON.stringify([view.open, view.hidden, view.may_switch, view.may_post, view.messages.map((/** @type {any} */ m) => m.id)]);
      if (key === last) return;
      last = key;
      open = view.open;
      toggle.hidden = !view.may_switch;
      toggle.textContent = open ? "Close the spectators' chat" : "Open the spectators' chat";
      form.hidden = !view.may_post;
      list.hidden = !open || view.hidden;
      note.textContent = !open
        ? "The spectators' chat is closed: only the players can open it."
        : view.hidden
          ? "Open: the spectators' messages are hidden from you until the game ends."
          : !view.may_post && !currentUser() ? "Sign in to write here." : "";
      showMessages(list, view.messages, "No messages yet.");
    } catch (error) {
      note.textContent = /** @type {Error} */ (error).message;
    }
  }
  const el = h("section", { "aria-labelledby": "spectator-chat-title" },
    h("h2", { id: "spectator-chat-title" }, "Spectators"), note, list, form, toggle);
  return { el, refresh };
}
