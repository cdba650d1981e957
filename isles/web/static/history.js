// isles serve: undo and redo of a page's whole state, kept in this browser and
// shareable as a link (docs/serve.md, "Undo, reload and sharing").
//
// API (every page codes against exactly this):
//
//   import { History, confirmThen, historyButtons } from "./history.js";
//
//   const h = new History(key, initial);
//       The state last saved under ``key`` in localStorage (``isles.<key>``, the
//       same place as common.js load/save), else ``initial``. With its undo and
//       redo steps, so a reload keeps them too.
//   h.state              the current state: a fresh copy of a plain JSON value each
//                        time it is read (change the copy, then h.change(...)).
//   h.change(label, s)   make ``s`` the state: one undo step named ``label``
//                        ("delete turn 3"); clears the redo steps; saves. Returns
//                        false (and does nothing) when ``s`` equals the state.
//   h.replace(s)         make ``s`` the state without an undo step (a result or
//                        a form's draft that is not the player's change); saves.
//   h.undo(), h.redo()   step back / forward; true when there was a step.
//   h.canUndo, h.canRedo booleans.
//   h.undoLabel, h.redoLabel   the step's label, or null.
//   h.onchange = fn      called as fn(state, how) after change/replace/undo/redo,
//                        how one of "change", "replace", "undo", "redo".
//   h.subscribe(fn)      one more such listener (historyButtons uses it).
//   h.toLink()           this page's URL with the whole state in its fragment
//                        ("#<key>=<base64url of the JSON>"): share it by message or
//                        QR code; nothing goes through a server.
//   History.fromLink(hash, key?)   the state a link carries (``location.hash``),
//                        or null when the fragment is no such link (or, with
//                        ``key``, a link of another page). The page then takes
//                        it with h.change("open a shared link", state), so
//                        opening a link can itself be undone.
//   History.DEPTH        undo steps kept (200); the oldest go first.
//
//   confirmThen(message, fn, confirmLabel = "Delete")
//       Ask in the page (a <dialog>, not window.confirm) and call fn() only on
//       yes. Returns a Promise of the answer. Buttons: .confirm-yes, .confirm-no.
//   historyButtons(h)   an element (made once per history: the same one on every
//                        call, so a page may call it on each render) with Undo and Redo buttons (#undo, #redo,
//                        titled with the step's label), kept up to date; Ctrl-Z
//                        and Ctrl-Shift-Z / Ctrl-Y outside text fields; and, when
//                        the server shares games (``isles serve --share`` or
//                        ``--host``), the table's buttons (tableButtons).
//   tableButtons(h)     "Share with the table" (#share-table): the state goes to
//                        a room of the server with a short code (#table-code);
//                        the other phones open the page with ``?room=CODE`` (or
//                        type the code, #join-code and #join-table) and follow
//                        it: each polls the room every second and takes a newer
//                        state (newest wins) as one undo step of its own
//                        ("from the table"), and each change of theirs goes to
//                        the room. "Leave the table" (#leave-table) stops.

const DEPTH = 200;

function storageGet(name) {
  try {
    return window.localStorage.getItem(name);
  } catch {
    return null;
  }
}

function storageSet(name, text) {
  try {
    window.localStorage.setItem(name, text);
    return true;
  } catch {
    return false; // private browsing or a full store: the page works, it only forgets
  }
}

function parseOr(text, fallback) {
  if (text === null || text === undefined) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(code) {
  const padded = code.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((code.length + 3) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

export class History {
  static DEPTH = DEPTH;

  constructor(key, initial) {
    this.key = String(key);
    this.onchange = null;
    this._listeners = [];
    const initialText = JSON.stringify(initial === undefined ? null : initial);
    const saved = storageGet(`isles.${this.key}`);
    this._text = saved !== null && parseOr(saved, undefined) !== undefined ? saved : initialText;
    const steps = parseOr(storageGet(`isles.${this.key}.history`), null);
    const valid = (list) =>
      Array.isArray(list) && list.every((s) => s && typeof s.label === "string" && typeof s.text === "string");
    // Steps saved with another state (an older page, another tab) are dropped, never applied.
    if (steps && steps.now === this._text && valid(steps.undo) && valid(steps.redo)) {
      this._undo = steps.undo.slice(-DEPTH);
      this._redo = steps.redo.slice(-DEPTH);
    } else {
      this._undo = [];
      this._redo = [];
    }
    // Another tab on the same page saved a newer state: this tab takes it (and its
    // steps), so that neither tab overwrites the other's turns with an older state.
    window.addEventListener("storage", (event) => {
      if (event.key !== `isles.${this.key}` && event.key !== `isles.${this.key}.history`) return;
      const text = storageGet(`isles.${this.key}`);
      if (text === null || parseOr(text, undefined) === undefined) return;
      const theirs = parseOr(storageGet(`isles.${this.key}.history`), null);
      const same = text === this._text;
      if (theirs && theirs.now === text && valid(theirs.undo) && valid(theirs.redo)) {
        this._undo = theirs.undo.slice(-DEPTH);
        this._redo = theirs.redo.slice(-DEPTH);
      }
      if (same) return;
      this._text = text;
      this._notify("replace");
    });
  }

  /**
   * ``fn(state)`` for a share link opened in this tab while the page is open
   * (a pasted link changes only the hash: no reload). The hash is then cleared.
   */
  onLink(fn) {
    window.addEventListener("hashchange", () => {
      const shared = History.fromLink(window.location.hash, this.key);
      if (shared === null) return;
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
      fn(shared);
    });
  }

  get state() {
    return JSON.parse(this._text);
  }

  get canUndo() {
    return this._undo.length > 0;
  }

  get canRedo() {
    return this._redo.length > 0;
  }

  get undoLabel() {
    return this.canUndo ? this._undo[this._undo.length - 1].label : null;
  }

  get redoLabel() {
    return this.canRedo ? this._redo[this._redo.length - 1].label : null;
  }

  change(label, state) {
    const text = JSON.stringify(state);
    if (text === this._text) return false;
    this._undo.push({ label: String(label), text: this._text });
    if (this._undo.length > DEPTH) this._undo.splice(0, this._undo.length - DEPTH);
    this._redo = [];
    this._text = text;
    this._done("change");
    return true;
  }

  replace(state) {
    const text = JSON.stringify(state);
    if (text === this._text) return;
    this._text = text;
    // The undo steps stay: each is a whole state, so undo still returns to it.
    this._done("replace");
  }

  undo() {
    const step = this._undo.pop();
    if (!step) return false;
    this._redo.push({ label: step.label, text: this._text });
    this._text = step.text;
    this._done("undo");
    return true;
  }

  redo() {
    const step = this._redo.pop();
    if (!step) return false;
    this._undo.push({ label: step.label, text: this._text });
    this._text = step.text;
    this._done("redo");
    return true;
  }

  subscribe(fn) {
    this._listeners.push(fn);
  }

  toLink() {
    const base = `${window.location.origin}${window.location.pathname}${window.location.search}`;
    return `${base}#${encodeURIComponent(this.key)}=${toBase64Url(this._text)}`;
  }

  static fromLink(hash, key = null) {
    const text = String(hash || "").replace(/^#/, "");
    const at = text.indexOf("=");
    if (at <= 0) return null;
    let name;
    try {
      name = decodeURIComponent(text.slice(0, at));
    } catch {
      return null;
    }
    if (key !== null && name !== String(key)) return null;
    try {
      return JSON.parse(fromBase64Url(text.slice(at + 1)));
    } catch {
      return null;
    }
  }

  _save() {
    if (!storageSet(`isles.${this.key}`, this._text)) return;
    const steps = JSON.stringify({ now: this._text, undo: this._undo, redo: this._redo });
    if (!storageSet(`isles.${this.key}.history`, steps)) {
      // The steps do not fit: keep the state, drop the oldest half of the steps.
      this._undo.splice(0, Math.ceil(this._undo.length / 2));
      storageSet(`isles.${this.key}.history`, JSON.stringify({ now: this._text, undo: this._undo, redo: [] }));
    }
  }

  _done(how) {
    this._save();
    this._notify(how);
  }

  _notify(how) {
    const state = this.state;
    if (typeof this.onchange === "function") this.onchange(state, how);
    for (const fn of this._listeners) fn(state, how);
  }
}

/** Ask in the page before ``fn`` deletes something; resolves with the answer. */
export function confirmThen(message, fn, confirmLabel = "Delete") {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "confirm";
    dialog.setAttribute("role", "alertdialog");
    const text = document.createElement("p");
    text.textContent = String(message);
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "confirm-yes primary";
    yes.textContent = confirmLabel;
    const no = document.createElement("button");
    no.type = "button";
    no.className = "confirm-no";
    no.textContent = "Keep";
    const row = document.createElement("div");
    row.className = "row";
    row.append(no, yes);
    dialog.append(text, row);
    let answered = false;
    const finish = (answer) => {
      if (answered) return;
      answered = true;
      dialog.close();
      dialog.remove();
      resolve(answer);
      if (answer) fn();
    };
    yes.addEventListener("click", () => finish(true));
    no.addEventListener("click", () => finish(false));
    dialog.addEventListener("cancel", () => finish(false)); // Escape
    document.body.append(dialog);
    if (typeof dialog.showModal === "function") {
      dialog.showModal();
      no.focus();
    } else {
      finish(window.confirm(String(message)));
    }
  });
}

// The table: one room per page's store, followed by polling ---------------------

const POLL_MS = 1000;
let sharing = null; // the server's answer: does it share games? (GET /api/health)

function serverShares() {
  if (sharing === null) {
    sharing = fetch("/api/health", { headers: { accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : { share: false }))
      .then((health) => Boolean(health.share))
      .catch(() => false);
  }
  return sharing;
}

async function roomRequest(method, url, body) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw Object.assign(new Error("the server does not answer"), { status: 0 });
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // said below by the status
  }
  if (!response.ok) {
    const message = data && data.error ? data.error.message : `the server answered ${response.status}`;
    throw Object.assign(new Error(message), { status: response.status });
  }
  return data;
}

/** The room ``h`` follows (one per store, whatever redraws its buttons). */
class Table {
  constructor(h) {
    this.h = h;
    this.code = null;
    this.version = 0;
    this.sent = null; // the state text the room holds, as far as this page knows
    this.note = "";
    this.views = new Set();
    this.timer = null;
    this.pushing = null;
    this.applying = false;
    h.subscribe(() => {
      if (this.code && !this.applying) this.push();
    });
    const asked = new URLSearchParams(window.location.search).get("room");
    this.shares = false; // known once GET /api/health answers
    if (asked) serverShares().then((on) => (on ? this.join(asked) : this.say(`Table ${asked} cannot be joined: this server does not share games (it was started without isles serve --share).`)));
  }

  say(note) {
    this.note = note;
    for (const view of [...this.views]) {
      view.redraw();
      // a page that redraws its controls makes new buttons: the old ones are let go
      if (!view.isConnected && this.views.size > 8) this.views.delete(view);
    }
  }

  link() {
    return `${window.location.origin}${window.location.pathname}?room=${this.code}`;
  }

  async share() {
    try {
      const room = await roomRequest("POST", "/api/rooms", { page: this.h.key, state: this.h.state });
      this.follow(room.room, room.version, this.h._text);
      this.say("");
    } catch (error) {
      this.say(`Not shared: ${error.message}`);
    }
  }

  async join(code) {
    const wanted = String(code || "").trim().toUpperCase();
    if (!/^[A-Z0-9]{4,12}$/.test(wanted)) {
      this.say(`Table code: “${code}” is not a code (letters and digits, e.g. K7Q2MD)`);
      return;
    }
    try {
      const room = await roomRequest("GET", `/api/rooms/${wanted}`);
      if (room.page !== this.h.key) {
        this.say(`Table ${wanted} is a game of the /${room.page} page: open ${window.location.origin}/${room.page}?room=${wanted}`);
        return;
      }
      this.code = wanted; // set first: taking the state is no change to send back
      this.take(room, `join the table ${wanted}`);
      this.follow(wanted, room.version, JSON.stringify(room.state));
      this.say("");
    } catch (error) {
      this.say(`Not joined: ${error.message}`);
    }
  }

  take(room, label) {
    if (room.state === undefined || JSON.stringify(room.state) === this.h._text) return;
    this.applying = true;
    try {
      this.h.change(label, room.state);
    } finally {
      this.applying = false;
    }
  }

  follow(code, version, text) {
    this.code = code;
    this.version = version;
    this.sent = text;
    const url = new URL(window.location.href);
    url.searchParams.set("room", code);
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  leave() {
    clearTimeout(this.timer);
    this.code = null;
    this.sent = null;
    const url = new URL(window.location.href);
    url.searchParams.delete("room");
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
    this.say("Left the table: this page keeps the game, the others go on without it.");
  }

  async poll() {
    const code = this.code;
    if (!code) return;
    try {
      if (!this.pushing) {
        const room = await roomRequest("GET", `/api/rooms/${code}?since=${this.version}`);
        // A change of this page waiting to be sent is newer: it wins, the room's waits.
        if (this.code === code && !this.pushing && room.version > this.version) {
          this.version = room.version;
          this.sent = JSON.stringify(room.state);
          this.take(room, "from the table");
        }
      }
      if (this.note.startsWith("The table does not answer")) this.say("");
    } catch (error) {
      if (error.status === 404) {
        this.leave();
        this.say(`The table ${code} is gone (the server was restarted or made newer tables): share the game again.`);
        return;
      }
      this.say(`The table does not answer (${error.message}); asking again.`);
    }
    if (this.code === code) this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  async push() {
    if (this.pushing) {
      this.again = true;
      return;
    }
    const code = this.code;
    const text = this.h._text;
    if (text === this.sent) return;
    this.pushing = roomRequest("PUT", `/api/rooms/${code}`, { state: JSON.parse(text) });
    try {
      const room = await this.pushing;
      if (this.code === code) {
        this.version = room.version;
        this.sent = text;
      }
    } catch (error) {
      this.say(`Not sent to the table: ${error.message}`);
    } finally {
      this.pushing = null;
    }
    if (this.again) {
      this.again = false;
      this.push();
    }
  }
}

/** The table's buttons for ``h``: empty unless the server shares games. */
export function tableButtons(h) {
  if (!h._table) h._table = new Table(h);
  const table = h._table;
  const box = document.createElement("span");
  box.className = "table-share";
  box.hidden = true;
  const make = (tag, props, text) => {
    const node = document.createElement(tag);
    Object.assign(node, props);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  box.redraw = () => {
    box.replaceChildren();
    box.hidden = !table.shares && !table.note; // a room link on a server that does not share: said
    if (!table.shares) {
      // no buttons: only what the table has to say
    } else if (table.code) {
      const link = make("input", { type: "text", readOnly: true, value: table.link(), id: "table-link", className: "link" });
      link.setAttribute("aria-label", "address of this table");
      const said = make("span", {}, "At the table ");
      said.append(make("strong", { id: "table-code" }, table.code), "; the other phones type the code in Join, or open:");
      box.append(
        said,
        link,
        make("button", { type: "button", id: "leave-table", onclick: () => table.leave() }, "Leave the table"),
        make("span", { className: "muted table-warning" }, " Anyone on this network with the code can see and change this game."),
      );
    } else {
      const code = make("input", { type: "text", id: "join-code", placeholder: "code", size: 7, autocomplete: "off" });
      code.setAttribute("aria-label", "a table's code");
      box.append(
        make("button", { type: "button", id: "share-table", onclick: () => table.share() }, "Share with the table"),
        code,
        make("button", { type: "button", id: "join-table", onclick: () => table.join(code.value) }, "Join"),
      );
    }
    if (table.note) box.append(make("span", { id: "table-status", className: "muted", role: "status" }, ` ${table.note}`));
  };
  table.views.add(box);
  box.redraw();
  serverShares().then((on) => {
    table.shares = on;
    box.redraw();
  });
  return box;
}

const madeButtons = new WeakMap(); // History -> its buttons, made once

/** Undo and Redo buttons for ``h`` (and their keys), labelled with the step. Made once
 * per history: a page that renders again gets the same element back (a new one on each
 * render added a key listener each time, and one Ctrl-Z undid as many steps). */
export function historyButtons(h) {
  const made = madeButtons.get(h);
  if (made) return made;
  const undo = document.createElement("button");
  undo.type = "button";
  undo.id = "undo";
  const redo = document.createElement("button");
  redo.type = "button";
  redo.id = "redo";
  const update = () => {
    undo.disabled = !h.canUndo;
    redo.disabled = !h.canRedo;
    undo.textContent = "↶ Undo";
    redo.textContent = "Redo ↷";
    undo.title = h.canUndo ? `Undo: ${h.undoLabel}` : "Nothing to undo";
    redo.title = h.canRedo ? `Redo: ${h.redoLabel}` : "Nothing to redo";
    undo.setAttribute("aria-label", undo.title);
    redo.setAttribute("aria-label", redo.title);
  };
  undo.addEventListener("click", () => h.undo());
  redo.addEventListener("click", () => h.redo());
  h.subscribe(update);
  update();
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
    if (typing || !(event.ctrlKey || event.metaKey)) return;
    const key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) {
      if (h.undo()) event.preventDefault();
    } else if ((key === "z" && event.shiftKey) || key === "y") {
      if (h.redo()) event.preventDefault();
    }
  });
  const box = document.createElement("span");
  box.className = "history";
  box.append(undo, redo, tableButtons(h));
  madeButtons.set(h, box);
  return box;
}
