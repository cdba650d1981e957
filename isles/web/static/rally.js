// The rally planner (docs/serve.md, docs/rally.md): a board, taps for the start,
// the goals and the roads, the cards in hand; isles.rally.plan_route draws the route.
// Every choice is one undo step (history.js); a route found is kept with them.
import {
  clearErrors, download, el, fieldError, fill, getJSON, header, jobPanel, load, numberInput,
  numbersReady, postJSON, save, select, showError, uploadButton,
} from "./common.js";
import { History, confirmThen, historyButtons } from "./history.js";
import { adjacent, boardSvg, hexLabel, hexName, legend, marksLegend, sameHex } from "./hexes.js";

const KEY = "rally";
const RESOURCES = ["lumber", "wool", "grain", "brick", "ore"];
const OBJECTIVES = [
  ["cards", "fewest cards"],
  ["turns", "fewest turns"],
  ["expected_turns", "fewest expected turns"],
];
const job = jobPanel();
const controls = el("div");
const boardBox = el("div", { id: "board" });
const resultBox = el("div", { id: "result" });
const goalsNote = el("div", { class: "row muted", id: "goals-note" });

const FRESH = {
  source: "beginner",
  seed: 0,
  board: null,
  start: null,
  goals: [],
  roads: [],
  objective: "cards",
  useBudget: false,
  budget: { lumber: 0, wool: 0, grain: 0, brick: 0, ore: 0 },
  route: null,
  unbounded: null, // with an unaffordable route: the same route with no limit on cards
};
const history = new History(KEY, FRESH);
let state = history.state;
// What a tap does, and the first hex of a road: the page's mode, not the plan (no undo step).
const ui = { tap: "start", picked: null, ...load(`${KEY}.ui`, {}) };
ui.picked = null;
// The default goals of the start (POST /api/rally/goals), by start.
let defaults = { start: null, goals: null, why: null };

history.onchange = (next) => {
  state = next;
  render();
};

/** One undo step: ``edit`` changes a copy of the state; a changed plan forgets its route. */
function commit(label, edit) {
  const next = history.state;
  edit(next);
  next.route = null;
  next.unbounded = null;
  history.change(label, next);
}

function setUi(change) {
  Object.assign(ui, change);
  save(`${KEY}.ui`, { tap: ui.tap });
  render();
}

async function loadBoard(source) {
  if (source !== "beginner" && !numbersReady()) return; // a seed typed wrong: said, not sent
  clearErrors();
  try {
    const board = source === "beginner"
      ? await getJSON("/api/examples/beginner")
      : (await job.run("layout", { game: source, seed: state.seed })).board;
    const change = (s) => {
      Object.assign(s, { source, board, start: null, goals: [], roads: [] });
    };
    if (state.board) commit(`new board (${source})`, change);
    else {
      const next = history.state;
      change(next);
      history.replace(next); // the first board of a fresh page is no step of the player's
    }
  } catch (error) {
    if (!error.cancelled) showError(error);
  }
}

async function uploadBoard(value) {
  clearErrors();
  try {
    const board = await postJSON("/api/board", { board: value });
    commit("load a board file", (s) => Object.assign(s, { source: "upload", board, start: null, goals: [], roads: [] }));
  } catch (error) {
    showError(error);
  }
}

function tapHex(hex) {
  const name = hexLabel(state.board, hex);
  if (ui.tap === "start") {
    commit(`start at ${name}`, (s) => {
      s.start = hex;
    });
  } else if (ui.tap === "goal") {
    const k = state.goals.findIndex((g) => sameHex(g, hex));
    commit(k >= 0 ? `remove the goal ${name}` : `goal ${name}`, (s) => {
      if (k >= 0) s.goals.splice(k, 1);
      else s.goals.push(hex);
    });
  } else if (ui.picked && adjacent(ui.picked, hex)) {
    const first = ui.picked;
    const k = state.roads.findIndex(([a, b]) => (sameHex(a, first) && sameHex(b, hex)) || (sameHex(b, first) && sameHex(a, hex)));
    ui.picked = null;
    const between = `${hexLabel(state.board, first)} and ${name}`;
    commit(k >= 0 ? `remove the road between ${between}` : `road between ${between}`, (s) => {
      if (k >= 0) s.roads.splice(k, 1);
      else s.roads.push([first, hex]);
    });
  } else setUi({ picked: sameHex(ui.picked, hex) ? null : hex });
}

/** Ask the library for the default goals of the start (marked on the board at once). */
async function fetchDefaults() {
  const start = state.start;
  if (!state.board || !start || state.goals.length) return;
  const boardText = JSON.stringify(state.board.hexes);
  if (defaults.start && sameHex(defaults.start, start) && defaults.board === boardText) return;
  defaults = { start, board: boardText, goals: null, why: null };
  try {
    const answer = await postJSON("/api/rally/goals", { board: state.board, start });
    if (sameHex(defaults.start, start)) defaults.goals = answer.goals;
  } catch (error) {
    if (sameHex(defaults.start, start)) defaults.why = error.message;
  }
  renderBoard();
  renderGoalsNote();
}

function shownGoals() {
  if (state.goals.length) return state.goals;
  if (state.route && state.route.goals) return state.route.goals;
  return defaults.goals && sameHex(defaults.start, state.start) ? defaults.goals : [];
}

function renderGoalsNote() {
  const board = state.board;
  let text;
  if (!state.start) text = "Tap the car's start hex: a sea hex on the board's edge next to land.";
  else if (state.goals.length) text = `goals you tapped: ${state.goals.map((g) => hexLabel(board, g)).join(", ")}`;
  else if (shownGoals().length) text = `goals: the default for this start (dashed outline): ${shownGoals().map((g) => hexLabel(board, g)).join(", ")}`;
  else if (defaults.why && sameHex(defaults.start, state.start)) text = `This start has no default goals: tap the goals. (${defaults.why})`;
  else text = "goals: the default for this start…";
  fill(goalsNote, text);
}

function renderControls() {
  const source = select(
    [["beginner", "beginner board"], ["base", "a base-game board (laid by isles)"], ["extension", "a 5-6 player board (laid by isles)"], ["upload", "an uploaded board file"]],
    state.source,
    (value) => (value === "upload" ? null : loadBoard(value)),
    { id: "source", "aria-label": "board" },
  );
  const seed = numberInput({ field: "seed", label: "Seed", value: state.seed, id: "seed", "aria-label": "seed", onchange: (n) => { const next = history.state; next.seed = n; history.change(`seed ${n}`, next); } }); // an undo step
  const taps = [["start", "Tap: start"], ["goal", "Tap: goals"], ["road", "Tap: roads (two hexes)"]].map(([tap, text]) =>
    el("button", { type: "button", class: "chip", "aria-pressed": ui.tap === tap ? "true" : "false", dataset: { tap }, onclick: () => setUi({ tap, picked: null }) }, text),
  );
  const budget = RESOURCES.map((name) =>
    el(
      "label",
      {},
      `${name} `,
      numberInput({ field: `budget.${name}`, label: `${name} in hand`, value: state.budget[name], dataset: { resource: name }, disabled: !state.useBudget, onchange: (n) => commit(`${n} ${name} in hand`, (s) => { s.budget[name] = n; }) }),
    ),
  );
  const board = state.board;
  fill(
    controls,
    el("div", { class: "row" }, historyButtons(history),
      el("button", { type: "button", id: "share", onclick: share }, "Share link")),
    el("div", { class: "row", id: "share-box" }),
    el("div", { class: "row" }, el("label", { for: "source" }, "Board"), source, el("label", { for: "seed" }, "seed"), seed,
      el("button", { type: "button", onclick: () => loadBoard(state.source === "upload" ? "beginner" : state.source) }, "New board"),
      uploadButton("Load board file", "board", uploadBoard),
      board ? el("button", { type: "button", onclick: () => download("board.json", board) }, "Download board") : null),
    fieldError("board"),
    fieldError("seed"),
    fieldError("request"),
    el("div", { class: "row" }, ...taps),
    el("div", { class: "row muted", id: "taps" },
      `start: ${state.start ? hexLabel(board, state.start) : "not set"} · roads: ${state.roads.length}`,
      ui.picked ? ` · road from ${hexLabel(board, ui.picked)}: tap a hex next to it` : ""),
    goalsNote,
    fieldError("start"),
    fieldError("goals"),
    fieldError("roads"),
    el("div", { class: "row" }, el("label", { for: "objective" }, "Route for"), select(OBJECTIVES, state.objective, (value) => commit(`route for ${value.replace("_", " ")}`, (s) => { s.objective = value; }), { id: "objective" })),
    fieldError("objective"),
    el("div", { class: "row" }, el("label", {}, el("input", { type: "checkbox", id: "use-budget", checked: state.useBudget, onchange: (e) => { const on = e.target.checked; commit(on ? "only the cards in hand" : "any cards", (s) => { s.useBudget = on; }); } }), " only the cards in hand:")),
    el("div", { class: "row" }, ...budget),
    fieldError("budget"),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "plan", onclick: plan }, "Plan route"),
      el("button", { type: "button", id: "clear", onclick: () => confirmThen("Clear the start, the goals and the roads? (Undo brings them back.)", () => commit("clear the taps", (s) => { s.start = null; s.goals = []; s.roads = []; }), "Clear") }, "Clear taps")),
  );
  renderGoalsNote();
}

function share() {
  const link = history.toLink();
  const box = document.getElementById("share-box");
  const input = el("input", { type: "text", readonly: true, value: link, id: "share-link", "aria-label": "link to this plan", class: "link" });
  fill(box, input, el("span", { class: "muted" }, "copied: open it on another phone"));
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
}

function renderBoard() {
  const board = state.board;
  if (!board) {
    fill(boardBox, el("p", { class: "muted" }, "loading the board…"));
    return;
  }
  const goals = shownGoals();
  const tapped = state.goals.length > 0;
  const route = state.route && state.route.path ? state.route.path : null;
  const end = state.route && state.route.status === "unaffordable" ? state.route.end : null;
  const classes = (hex) => {
    if (sameHex(hex, state.start)) return "start";
    if (goals.some((g) => sameHex(g, hex))) return tapped ? "goal" : "default-goal";
    if (sameHex(hex, ui.picked)) return "picked";
    if (end && sameHex(hex, end)) return "end";
    return "";
  };
  fill(boardBox, boardSvg(board, { onhex: tapHex, classes, roads: state.roads, route }));
}

function turnsText(x) {
  return x === null || x === undefined ? "–" : Number(x).toFixed(2);
}

function cardsText(cards) {
  const parts = Object.entries(cards || {}).filter(([, n]) => n).map(([name, n]) => `${n} ${name}`);
  return parts.length ? parts.join(", ") : "no cards";
}

function pathBlock(board, path) {
  return el(
    "details",
    { id: "path" },
    el("summary", {}, "the way: ", path.map((h) => hexName(board, h)).join(" → ")),
    el("p", { class: "muted" }, path.map((h) => `${h[0]},${h[1]}`).join(" → ")),
  );
}

/** What an unaffordable answer says: no price that reads like the answer (docs/rally.md). */
function renderUnaffordable(route) {
  const board = state.board;
  const parts = [
    el("p", { class: "status bad", id: "status" }, "No affordable route"),
    el(
      "p",
      { id: "unaffordable" },
      `No route to a goal can be paid with ${cardsText(route.budget)}. Closest affordable hex to a goal: ${hexLabel(board, route.end)}, ${route.distance_to_goal} ${route.distance_to_goal === 1 ? "hex" : "hexes"} from one`,
      sameHex(route.end, route.start) ? " (the cards pay for no step: the car stays at its start)." : " (outlined dotted on the board).",
    ),
  ];
  const full = state.unbounded;
  if (full && full.total_cards !== null && full.cards) {
    const missing = Object.entries(full.cards)
      .map(([name, n]) => [name, n - ((route.budget || {})[name] || 0)])
      .filter(([, short]) => short > 0)
      .map(([name, short]) => `${short} ${name}`);
    parts.push(
      el(
        "p",
        { id: "missing" },
        `With no limit on cards the route costs ${cardsText(full.cards)}: `,
        el("strong", {}, missing.length ? `missing ${missing.join(", ")}` : "these cards are enough only in another order"),
        ".",
      ),
    );
  }
  if (route.path && route.path.length > 1) {
    parts.push(
      el("p", { class: "muted", id: "partial" }, `The way these cards pay, start to ${hexName(board, route.end)}: ${route.total_cards} cards (${cardsText(route.cards)}), not a route to a goal.`),
      pathBlock(board, route.path),
    );
  }
  fill(resultBox, ...parts);
}

function renderRoute() {
  const route = state.route;
  if (!route) {
    fill(resultBox);
    return;
  }
  if (route.status === "unaffordable") {
    renderUnaffordable(route);
    return;
  }
  const board = state.board;
  if (route.total_cards === null || !route.path) {
    const why = route.status === "timed_out" ? "The search reached its time limit before an answer." : "No route reaches a goal (sea or the board's edge in the way).";
    fill(resultBox, el("p", { class: "status bad", id: "status" }, route.status), el("p", {}, why));
    return;
  }
  fill(
    resultBox,
    el("p", { class: `status ${route.status === "optimal" ? "good" : "bad"}`, id: "status" }, route.status),
    el(
      "p",
      { id: "cost" },
      `${route.total_cards} cards (${cardsText(route.cards)}), ${route.turns} turns, expected ${turnsText(route.expected_turns)} turns; ends at ${hexLabel(board, route.end)}`,
    ),
    pathBlock(board, route.path),
  );
}

function planBody(withBudget) {
  const body = { board: state.board, start: state.start, roads: state.roads, objective: state.objective };
  if (state.goals.length) body.goals = state.goals;
  if (withBudget && state.useBudget) body.budget = state.budget;
  return body;
}

async function plan() {
  if (!numbersReady()) return; // a number of cards typed wrong: said, never sent as 0
  clearErrors();
  if (!state.board) return;
  if (!state.start) {
    showError({ field: "start", message: "start: tap the car's hex first (Tap: start, then a sea hex at the board's edge)" });
    return;
  }
  const asked = JSON.stringify(planBody(true));
  try {
    const route = await job.run("route", planBody(true));
    let unbounded = null;
    if (route.status === "unaffordable") unbounded = await job.run("route", planBody(false));
    if (JSON.stringify(planBody(true)) !== asked) return; // the plan changed meanwhile
    const next = history.state;
    next.route = route;
    next.unbounded = unbounded;
    history.replace(next); // an answer, not a change of the player's: undo skips it
  } catch (error) {
    if (!error.cancelled) showError(error);
  }
}

function render() {
  renderControls();
  renderBoard();
  renderRoute();
  fetchDefaults();
}

document.body.prepend(
  header("/rally"),
  el(
    "main",
    {},
    el("h1", {}, "Rally planner"),
    el(
      "div",
      { class: "columns" },
      el("section", { class: "card" }, boardBox, legend(),
        marksLegend({ start: "start", goal: "goals tapped", "default-goal": "default goals", end: "as far as the cards pay" }),
        job, resultBox, fieldError("")),
      el("section", { class: "card" }, controls),
    ),
  ),
);
history.onLink((link) => history.change("open a shared link", { ...FRESH, ...link }));
const shared = History.fromLink(window.location.hash, KEY);
if (shared) {
  history.change("open a shared link", { ...FRESH, ...shared });
  window.history.replaceState(null, "", window.location.pathname);
}
try {
  render();
} catch {
  history.replace(structuredClone(FRESH)); // a stored plan this page cannot draw: start afresh
}
if (!state.board) loadBoard("beginner");
