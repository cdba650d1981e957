// The rally planner (docs/serve.md, docs/rally.md): a board, taps for the start,
// the goals and the roads, the cards in hand; isles.rally.plan_route draws the route.
import {
  clearErrors, download, el, fieldError, fill, getJSON, header, jobPanel, load, postJSON,
  probabilityText, save, select, showError, uploadButton,
} from "./common.js";
import { adjacent, boardSvg, legend, sameHex } from "./hexes.js";

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
  tap: "start",
  picked: null,
  route: null,
};
let state = load(KEY, null) || structuredClone(FRESH);

function changed() {
  save(KEY, state);
  render();
}

function forgetRoute() {
  state.route = null;
}

async function loadBoard(source) {
  clearErrors();
  state.source = source;
  try {
    if (source === "beginner") state.board = await getJSON("/api/examples/beginner");
    else state.board = (await job.run("layout", { game: source, seed: state.seed })).board;
    state.start = null;
    state.goals = [];
    state.roads = [];
    forgetRoute();
  } catch (error) {
    if (!error.cancelled) showError(error);
  }
  changed();
}

async function uploadBoard(value) {
  clearErrors();
  try {
    state.board = await postJSON("/api/board", { board: value });
    state.source = "upload";
    state.start = null;
    state.goals = [];
    state.roads = [];
    forgetRoute();
    changed();
  } catch (error) {
    showError(error);
  }
}

function tapHex(hex) {
  forgetRoute();
  if (state.tap === "start") state.start = hex;
  else if (state.tap === "goal") {
    const k = state.goals.findIndex((g) => sameHex(g, hex));
    if (k >= 0) state.goals.splice(k, 1);
    else state.goals.push(hex);
  } else if (state.picked && adjacent(state.picked, hex)) {
    const k = state.roads.findIndex(([a, b]) => (sameHex(a, state.picked) && sameHex(b, hex)) || (sameHex(b, state.picked) && sameHex(a, hex)));
    if (k >= 0) state.roads.splice(k, 1);
    else state.roads.push([state.picked, hex]);
    state.picked = null;
  } else state.picked = hex;
  changed();
}

function renderControls() {
  const source = select(
    [["beginner", "beginner board"], ["base", "a base-game board (laid by isles)"], ["extension", "a 5-6 player board (laid by isles)"], ["upload", "an uploaded board file"]],
    state.source,
    (value) => (value === "upload" ? null : loadBoard(value)),
    { id: "source", "aria-label": "board" },
  );
  const seed = el("input", { type: "number", id: "seed", min: "0", value: String(state.seed), "aria-label": "seed", onchange: (e) => { state.seed = Math.max(0, Number(e.target.value) || 0); save(KEY, state); } });
  const taps = [["start", "Tap: start"], ["goal", "Tap: goals"], ["road", "Tap: roads (two hexes)"]].map(([tap, text]) =>
    el("button", { type: "button", class: "chip", "aria-pressed": state.tap === tap ? "true" : "false", dataset: { tap }, onclick: () => { state.tap = tap; state.picked = null; changed(); } }, text),
  );
  const budget = RESOURCES.map((name) =>
    el(
      "label",
      {},
      `${name} `,
      el("input", { type: "number", min: "0", value: String(state.budget[name]), dataset: { resource: name }, disabled: !state.useBudget, onchange: (e) => { state.budget[name] = Math.max(0, Math.floor(Number(e.target.value) || 0)); forgetRoute(); changed(); } }),
    ),
  );
  fill(
    controls,
    el("div", { class: "row" }, el("label", { for: "source" }, "Board"), source, el("label", { for: "seed" }, "seed"), seed,
      el("button", { type: "button", onclick: () => loadBoard(state.source === "upload" ? "beginner" : state.source) }, "New board"),
      uploadButton("Load board file", "board", uploadBoard),
      state.board ? el("button", { type: "button", onclick: () => download("board.json", state.board) }, "Download board") : null),
    fieldError("board"),
    fieldError("request"),
    el("div", { class: "row" }, ...taps),
    el("div", { class: "row muted" }, `start ${state.start ? state.start.join(",") : "not set"} · goals ${state.goals.length ? state.goals.map((g) => g.join(",")).join(" ") : "the default (opposite the start)"} · roads ${state.roads.length}`),
    fieldError("start"),
    fieldError("goals"),
    fieldError("roads"),
    el("div", { class: "row" }, el("label", { for: "objective" }, "Route for"), select(OBJECTIVES, state.objective, (value) => { state.objective = value; forgetRoute(); changed(); }, { id: "objective" })),
    fieldError("objective"),
    el("div", { class: "row" }, el("label", {}, el("input", { type: "checkbox", id: "use-budget", checked: state.useBudget, onchange: (e) => { state.useBudget = e.target.checked; forgetRoute(); changed(); } }), " only the cards in hand:")),
    el("div", { class: "row" }, ...budget),
    fieldError("budget"),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "plan", onclick: plan }, "Plan route"),
      el("button", { type: "button", onclick: () => { state.start = null; state.goals = []; state.roads = []; forgetRoute(); changed(); } }, "Clear taps")),
  );
}

function renderBoard() {
  if (!state.board) {
    fill(boardBox, el("p", { class: "muted" }, "loading the board…"));
    return;
  }
  const classes = (hex) => {
    if (sameHex(hex, state.start)) return "start";
    if (state.goals.some((g) => sameHex(g, hex))) return "goal";
    if (sameHex(hex, state.picked)) return "picked";
    return "";
  };
  const route = state.route && state.route.path ? state.route.path : null;
  fill(boardBox, boardSvg(state.board, { onhex: tapHex, classes, roads: state.roads, route }));
}

function renderRoute() {
  const route = state.route;
  if (!route) {
    fill(resultBox);
    return;
  }
  const good = route.status === "optimal";
  const cards = Object.entries(route.cards || {}).map(([name, n]) => `${n} ${name}`).join(", ");
  fill(
    resultBox,
    el("p", { class: `status ${good ? "good" : "bad"}`, id: "status" }, route.status),
    route.total_cards === null
      ? el("p", {}, route.status === "unaffordable" ? "No route can be paid with these cards." : "No route reaches a goal.")
      : el(
          "p",
          { id: "cost" },
          `${route.total_cards} cards (${cards}), ${route.turns} turns, expected ${probabilityText(route.expected_turns, route.expected_turns_exact)} turns; ends at ${route.end.join(",")}`,
        ),
    route.path ? el("p", { class: "muted", id: "path" }, "path: ", route.path.map((h) => h.join(",")).join(" → ")) : null,
  );
}

async function plan() {
  clearErrors();
  if (!state.board) return;
  // Only what the player chose: no goals means the default goals, no budget none.
  const body = { board: state.board, start: state.start, roads: state.roads, objective: state.objective };
  if (state.goals.length) body.goals = state.goals;
  if (state.useBudget) body.budget = state.budget;
  try {
    state.route = await job.run("route", body);
  } catch (error) {
    state.route = null;
    if (!error.cancelled) showError(error);
  }
  save(KEY, state);
  renderBoard();
  renderRoute();
}

function render() {
  renderControls();
  renderBoard();
  renderRoute();
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
      el("section", { class: "card" }, boardBox, legend(), job, resultBox, fieldError("")),
      el("section", { class: "card" }, controls),
    ),
  ),
);
try {
  render();
} catch {
  state = structuredClone(FRESH); // a stored plan this page cannot draw: start afresh
  render();
}
if (!state.board) loadBoard("beginner");
