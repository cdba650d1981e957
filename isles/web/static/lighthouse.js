// The lighthouse advisor (docs/serve.md, docs/lighthouse.md): the kit, the position
// and the roll are tapped in; isles.lighthouse.best_move ranks every decision, and
// "Play this move" plays it on the position (isles.lighthouse.play_turn), so a whole
// game can be followed. Every change is one undo step (history.js).
import {
  clearErrors, download, el, fieldError, fill, header, jobPanel, postJSON,
  probabilityText, select, showError, uploadButton,
} from "./common.js";
import { History, confirmThen, historyButtons } from "./history.js";

const KEY = "lighthouse";
const COLOURS = { red: "#c62828", blue: "#1565c0", green: "#2e7d32", orange: "#ef6c00", purple: "#6a1b9a" };
const WRAP = { overflowWrap: "anywhere", minWidth: "0" }; // a long colour name wraps, never overflows
const job = jobPanel({ remember: KEY }); // a question a reload interrupts is asked again
const kitBox = el("div");
const positionBox = el("div");
const rollBox = el("div");
const resultBox = el("div", { id: "result" });
const playedBox = el("div", { id: "played", "aria-live": "polite" });

// A fresh page asks for the kit a request that chooses none gets (isles.lighthouse.DEFAULT_KIT:
// the real game for 2 players, 8 islands).
const FRESH = {
  mode: "players",
  players: 2,
  islands: 8,
  sea_cards: 8,
  kit: null,
  position: null,
  roll: [null, null],
  advice: null, // the advice of this position and roll (an answer, kept for a reload)
  played: null, // what the last "Play this move" did, in words
};
const history = new History(KEY, FRESH);
let state = history.state;
let kit = null; // the kit the server read (Kit.to_dict())
let kitAsked = null; // the request that kit answers
let kitLoading = Promise.resolve(); // the kit being read: its answer redraws the page
history.onchange = (next, how) => {
  state = next;
  if (JSON.stringify(kitRequest()) !== kitAsked) kitLoading = loadKit();
  else {
    render();
    if (how !== "replace") checkPosition();
  }
};

/** One undo step: ``edit`` changes a copy of the state; the old advice goes. */
function commit(label, edit) {
  const next = history.state;
  edit(next);
  next.advice = null;
  next.played = null;
  history.change(label, next);
}

function quietly(edit) {
  const next = history.state;
  edit(next);
  history.replace(next);
}

function kitRequest() {
  if (state.mode === "kit") return { kit: state.kit };
  if (state.mode === "players") return { players: state.players, sea_cards: state.sea_cards };
  return { islands: state.islands, sea_cards: state.sea_cards };
}

function colour(name) {
  return COLOURS[name] || "#607d8b";
}

function swatch(name) {
  return el("span", { style: WRAP }, el("span", { class: "swatch", style: { background: colour(name) } }), name);
}

async function loadKit() {
  clearErrors();
  let refused = null;
  try {
    kit = await postJSON("/api/lighthouse/kit", kitRequest());
  } catch (error) {
    kit = null;
    refused = error;
  }
  kitAsked = JSON.stringify(kitRequest());
  if (!kit) {
    // Nothing entered is dropped for a kit the server refused: the error says why.
    render();
    showError(refused, kitBox);
    return;
  }
  const islands = kit.islands.length;
  const position = state.position;
  const fits = position && Array.isArray(position.discs) && position.discs.every(Array.isArray);
  const next = history.state;
  if (!fits || position.discs.length !== islands || !(position.boat <= kit.sea_cards)) {
    next.position = { discs: Array.from({ length: islands }, () => []), boat: 0, maurice: 0 };
    next.advice = null;
  }
  if (!Array.isArray(next.roll) || next.roll.length !== 2) next.roll = [null, null];
  if (!next.roll.every((face, d) => face === null || kit.dice[d].includes(face))) next.roll = [null, null];
  history.replace(next);
  render();
  checkPosition();
}

/** A value of the library's message in words: ["red","blue"] -> "red, blue", null -> "not set". */
function valueWords(text) {
  const t = String(text).trim();
  try {
    const value = JSON.parse(t); // the web's messages spell the value given as JSON
    if (value === null) return "not set";
    if (Array.isArray(value)) return value.map((v) => (v === null ? "not set" : String(v))).join(", ") || "none";
    if (typeof value !== "object") return String(value);
  } catch {
    // a list the library wrote in its "expected" text: ['red', 'blue']
  }
  const list = t.match(/^\[(.*)\]$/);
  if (list) return list[1].split(",").map((v) => v.trim().replace(/^'(.*)'$/, "$1")).filter((v) => v).join(", ") || "none";
  return t.replace(/^'(.*)'$/, "$1");
}

/** The library's refusal of a position, in the page's words (islands as the page numbers them). */
function positionWords(error) {
  const message = String(error.message || "");
  const m = message.match(/^([\w.[\]]+): (.*) is invalid; expected (.*)$/);
  if (!m) return error;
  const [, field, value, expected] = m;
  const disc = field.match(/^position\.discs\[(\d+)\](?:\[(\d+)\])?$/);
  const oneOf = expected.match(/^one of (\[.*\])$/);
  const wanted = oneOf ? valueWords(oneOf[1]).replace(/, ([^,]*)$/, " or $1") : expected;
  let words = null;
  if (disc && disc[2] === undefined) {
    const colours = valueWords(value);
    const count = colours.split(", ").length;
    if (expected === "alternating colours") words = `Island ${disc[1]}: ${count} discs (${colours}) do not alternate colours: a disc never goes on one of its own colour.`;
    else words = `Island ${disc[1]}: ${count} discs (${colours}); expected ${expected}.`;
  } else if (disc) {
    words = `Island ${disc[1]}, disc ${Number(disc[2]) + 1}: ${valueWords(value)} is not a colour of this island; expected ${wanted}.`;
  } else if (field === "position.boat") {
    words = value === "null" ? "The boat: tap the sea card the boat is on." : `The boat: ${valueWords(value)}; expected ${wanted}.`;
  } else if (field === "position.maurice") {
    words = `Maurice: ${valueWords(value)}; expected ${wanted}.`;
  } else {
    words = `${field}: ${valueWords(value)} is not valid; expected ${wanted}.`;
  }
  return { ...error, message: words };
}

/** Check the position with the library as it is entered: an error shows under its island. */
async function checkPosition() {
  if (!kit || !state.position) return;
  const asked = JSON.stringify(state.position);
  try {
    await postJSON("/api/lighthouse/position", { ...kitRequest(), position: state.position });
    if (JSON.stringify(state.position) === asked) clearErrors(positionBox); // no stale error
  } catch (error) {
    if (JSON.stringify(state.position) !== asked || error.cancelled) return;
    clearErrors(positionBox); // the new error only, never next to an old one
    showError(positionWords(error), positionBox);
  }
}

function kitChange(label, edit) {
  commit(label, edit); // onchange reloads the kit
}

function renderKit() {
  const mode = select(
    [["players", "by players"], ["islands", "by islands"], ["kit", "a kit file"]],
    state.mode,
    (value) => kitChange(`kit ${value === "kit" ? "from a file" : `by ${value}`}`, (s) => { s.mode = value; }),
    { id: "mode", "aria-label": "kit" },
  );
  const parts = [el("label", { for: "mode" }, "Kit"), mode];
  if (state.mode === "players") {
    parts.push(
      select([2, 3, 4].map((n) => [n, `${n} players`]), state.players, (value) => kitChange(`${value} players`, (s) => { s.players = Number(value); }), { id: "players" }),
    );
  } else if (state.mode === "islands") {
    parts.push(
      select([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, `${n} islands`]), state.islands, (value) => kitChange(`${value} islands`, (s) => { s.islands = Number(value); }), { id: "islands" }),
    );
  }
  if (state.mode !== "kit") {
    parts.push(
      select(Array.from({ length: 12 }, (_, k) => [k + 1, `${k + 1} sea cards`]), state.sea_cards, (value) => kitChange(`${value} sea cards`, (s) => { s.sea_cards = Number(value); }), { id: "sea-cards" }),
    );
  }
  parts.push(uploadButton("Load kit file", "kit", (value) => kitChange("load a kit file", (s) => { s.mode = "kit"; s.kit = value; })));
  if (kit) parts.push(el("button", { type: "button", onclick: () => download("kit.json", kit) }, "Download kit"));
  fill(
    kitBox,
    el("div", { class: "row" }, historyButtons(history), el("button", { type: "button", id: "share", onclick: share }, "Share link")),
    el("div", { class: "row", id: "share-box" }),
    el("div", { class: "row" }, ...parts),
    fieldError("players"),
    fieldError("islands"),
    fieldError("sea_cards"),
    fieldError("kit"),
    kit
      ? el(
          "p",
          { class: "muted", id: "kit-note" },
          `${kit.islands.length} islands, ${kit.sea_cards} sea cards. Advice is exact. The first advice for a kit solves its whole game once (the bar shows how far); every later roll is answered from it at once.`,
        )
      : null,
  );
}

function share() {
  const link = history.toLink();
  const input = el("input", { type: "text", readonly: true, value: link, id: "share-link", "aria-label": "link to this game", class: "link", style: { maxWidth: "100%" } });
  fill(document.getElementById("share-box"), input, el("span", { class: "muted" }, "copied: open it on another phone"));
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
}

function renderPosition() {
  if (!kit) {
    fill(positionBox);
    return;
  }
  const position = state.position;
  const lighthouses = kit.islands.map((island, k) => {
    const discs = position.discs[k];
    return el(
      "div",
      { class: "lighthouse", dataset: { island: String(k) }, style: WRAP },
      el("div", {}, k === 0 ? `Island ${k} (Maurice's)` : `Island ${k}`),
      el("div", { class: "legend" }, swatch(island[0]), swatch(island[1])),
      el(
        "div",
        { class: "stack" },
        ...discs.map((disc) => el("div", { class: "disc", style: { background: colour(disc), ...WRAP } }, disc)),
      ),
      el(
        "div",
        { class: "row" },
        ...island.map((name) =>
          el(
            "button",
            {
              type: "button",
              class: "chip",
              style: WRAP,
              // A disc never goes on one of its own colour (the colours alternate):
              // refused at the tap, not after it.
              disabled: discs.length >= 4 || discs[discs.length - 1] === name,
              title: discs[discs.length - 1] === name ? `the colours alternate: no ${name} disc on a ${name} one` : null,
              dataset: { add: name },
              "aria-label": `add a ${name} disc to island ${k}`,
              onclick: () => commit(`${name} disc on island ${k}`, (s) => { s.position.discs[k].push(name); }),
            },
            `+ ${name}`,
          ),
        ),
        el("button", { type: "button", class: "chip", disabled: discs.length === 0, dataset: { remove: String(k) }, "aria-label": `remove the top disc of island ${k}`, onclick: () => commit(`take the top disc off island ${k}`, (s) => { s.position.discs[k].pop(); }) }, "−"),
      ),
      fieldError(`position.discs[${k}]`),
    );
  });
  const boat = Array.from({ length: kit.sea_cards + 1 }, (_, k) =>
    el("button", { type: "button", class: "chip", "aria-pressed": position.boat === k ? "true" : "false", dataset: { boat: String(k) }, onclick: () => commit(k === 0 ? "boat on the shore" : `boat on sea card ${k}`, (s) => { s.position.boat = k; }) }, k === 0 ? "shore" : String(k)),
  );
  const maurice = kit.islands.map((_, k) =>
    el("button", { type: "button", class: "chip", "aria-pressed": position.maurice === k ? "true" : "false", dataset: { maurice: String(k) }, onclick: () => commit(`Maurice past his island by ${k}`, (s) => { s.position.maurice = k; }) }, String(k)),
  );
  fill(
    positionBox,
    el("div", { class: "lighthouses" }, ...lighthouses),
    fieldError("position.discs"),
    el("div", { class: "row" }, el("label", {}, "Boat on sea card"), ...boat),
    fieldError("position.boat"),
    el("div", { class: "row" }, el("label", {}, "Maurice past his island by"), ...maurice),
    fieldError("position.maurice"),
    fieldError("position"),
    el(
      "div",
      { class: "row" },
      el("button", { type: "button", onclick: () => download("position.json", state.position) }, "Download position"),
      el("button", { type: "button", id: "new-game", onclick: () => confirmThen("Start a new game? The discs, the boat and Maurice go back to the start (Undo brings them back).", () => commit("a new game", (s) => { s.position = { discs: kit.islands.map(() => []), boat: 0, maurice: 0 }; s.roll = [null, null]; }), "New game") }, "New game"),
      uploadButton("Load position", "position", async (value) => {
        clearErrors();
        try {
          const position = await postJSON("/api/lighthouse/position", { ...kitRequest(), position: value });
          commit("load a position", (s) => { s.position = position; });
        } catch (error) {
          showError(positionWords(error), positionBox);
        }
      }),
    ),
  );
}

function renderRoll() {
  if (!kit) {
    fill(rollBox);
    return;
  }
  const dice = kit.dice.map((faces, d) =>
    el(
      "div",
      { class: "row", dataset: { die: String(d) } },
      el("label", {}, `Die ${d + 1}`),
      ...faces.map((face) =>
        el("button", { type: "button", class: "chip", style: WRAP, "aria-pressed": state.roll[d] === face ? "true" : "false", dataset: { face }, onclick: () => commit(`die ${d + 1}: ${face}`, (s) => { s.roll[d] = face; }) }, face),
      ),
    ),
  );
  fill(
    rollBox,
    playedBox,
    ...dice,
    fieldError("roll"),
    el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "advise", onclick: () => advise() }, "Best move")),
  );
  fill(playedBox, state.played ? el("p", { class: "status" }, state.played) : null);
}

function decisionText(decision) {
  const parts = decision.placements.map(([name, island]) => (island === null || island === undefined ? `${name} back to the supply` : `${name} on island ${island}`));
  if (decision.bonus) parts.push(`bonus ${decision.bonus[0]} on island ${decision.bonus[1]}`);
  return parts.length ? parts.join(", then ") : "nothing to lay";
}

function renderLost(advice) {
  // The roll lands the boat on Maurice's island past the last sea card before any disc is
  // laid: the game is over whatever is played (advice.outcome "lost"), so no decision is listed.
  fill(
    resultBox,
    el("p", { class: "status bad", id: "status" }, `${advice.status}: `, el("span", { id: "best" }, "the game is lost")),
    el(
      "p",
      { id: "lost" },
      "This roll loses the game whatever you play: the boat leaves the last sea card for Maurice's island before any disc is laid (win probability ",
      el("strong", { id: "win" }, "0"),
      `; the position before the roll: ${probabilityText(advice.position_win_probability, advice.position_win_probability_exact)}).`,
    ),
  );
}

function sameValue(a, b) {
  if (a.win_probability_exact && b.win_probability_exact) return a.win_probability_exact === b.win_probability_exact;
  return a.win_probability === b.win_probability;
}

function renderAdvice() {
  const advice = state.advice;
  if (!advice) {
    fill(resultBox);
    return;
  }
  if (advice.outcome === "lost") {
    renderLost(advice);
    return;
  }
  const top = advice.alternatives[0];
  const rows = advice.alternatives.map((alt) =>
    el(
      "tr",
      { class: top && sameValue(alt, top) ? "best" : "" }, // every decision tied with the best is marked
      el("td", { style: WRAP }, decisionText(alt)),
      el("td", { class: "p" }, probabilityText(alt.win_probability, alt.win_probability_exact)),
      el("td", {}, el("button", { type: "button", class: "play", onclick: () => play(alt) }, "Play")),
    ),
  );
  fill(
    resultBox,
    el("p", { class: "status good", id: "status" }, `${advice.status}: `, el("span", { id: "best" }, decisionText(advice.best))),
    el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "play", onclick: () => play(advice.best) }, "Play this move")),
    el(
      "p",
      {},
      "Win probability after the best move: ",
      el("strong", { id: "win" }, probabilityText(advice.win_probability, advice.win_probability_exact)),
      ` (the position before the roll: ${probabilityText(advice.position_win_probability, advice.position_win_probability_exact)}; error at most ${advice.error_bound === null ? 0 : advice.error_bound.toExponential(1)})`,
    ),
    el("div", { class: "scroll" }, el("table", { id: "alternatives" }, el("tr", {}, el("th", {}, "decision"), el("th", {}, "win probability"), el("th", {}, "")), ...rows)),
  );
}

/** Play ``decision`` on the position with the library's own turn; the dice are cleared. */
async function play(decision) {
  clearErrors();
  const body = { ...kitRequest(), position: state.position, roll: state.roll, decision: { placements: decision.placements, bonus: decision.bonus } };
  try {
    const after = await postJSON("/api/lighthouse/play", body);
    const words = decisionText(decision);
    const outcome = after.outcome === "won" ? " Every lighthouse is finished: the game is won!" : after.outcome === "lost" ? " The boat reached Maurice's island: the game is lost." : " Roll again.";
    commit(`play ${words}`, (s) => {
      s.position = after.position;
      s.roll = [null, null];
    });
    quietly((s) => { s.played = `Played: ${words}.${outcome}`; });
  } catch (error) {
    showError(error);
  }
}

/** The request of "Best move" for the position and roll shown. */
function adviceRequest() {
  return { ...kitRequest(), position: state.position, roll: state.roll };
}

/** Ask for the best move; ``again``: the question a reload interrupted, asked again by itself. */
async function advise({ again = false } = {}) {
  await kitLoading; // else the kit's redraw, landing after, wipes what is said here
  clearErrors();
  const unset = state.roll.findIndex((face) => face === null);
  if (unset >= 0) {
    showError({ field: "roll", message: `roll: tap the face each die shows (die ${unset + 1} is not set yet)` }, rollBox);
    return;
  }
  const asked = JSON.stringify([state.position, state.roll, kitRequest()]);
  try {
    const advice = await job.run("lighthouse", adviceRequest(), { again });
    if (JSON.stringify([state.position, state.roll, kitRequest()]) === asked) quietly((s) => { s.advice = advice; s.played = null; });
  } catch (error) {
    if (!error.cancelled) showError(String(error.field || "").startsWith("position") ? positionWords(error) : error);
  }
}

function render() {
  renderKit();
  renderPosition();
  renderRoll();
  renderAdvice();
}

document.body.prepend(
  header("/lighthouse"),
  el(
    "main",
    {},
    el("h1", {}, "Lighthouse advisor"),
    el("section", { class: "card" }, el("h2", {}, "Kit"), kitBox),
    el(
      "div",
      { class: "columns" },
      el("section", { class: "card" }, el("h2", {}, "Position"), positionBox),
      el("section", { class: "card" }, el("h2", {}, "Roll"), rollBox, job, resultBox, fieldError("")),
    ),
  ),
);
history.onLink((link) => history.change("open a shared link", { ...FRESH, ...link }));
const shared = History.fromLink(window.location.hash, KEY);
if (shared) {
  history.change("open a shared link", { ...FRESH, ...shared });
  window.history.replaceState(null, "", window.location.pathname);
  job.forget(); // another position: the question before is not asked again
} else {
  kitLoading = loadKit();
  // Reloaded while "Best move" was being answered: asked again, if the position and
  // roll are still the ones asked about (else the question is no longer pending).
  const asking = job.pending();
  if (asking && asking.kind === "lighthouse" && !state.advice && JSON.stringify(asking.body) === JSON.stringify(adviceRequest())) advise({ again: true });
  else job.forget();
}
