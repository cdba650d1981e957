// Board set-up (docs/serve.md, docs/layout.md): lay a base, extension or ships board
// by the rules chosen (isles.layout.solve_layout); during a ships set-up, tap the
// tiles already down and ask where the next two tiles go (isles.layout.next_move).
import {
  clearErrors, download, el, fieldError, fill, getJSON, header, jobPanel, load, save,
  select, showError,
} from "./common.js";
import { boardSvg, legend, sameHex } from "./hexes.js";

const KEY = "setup";
const TERRAINS = ["sea", "forest", "pasture", "fields", "hills", "mountains", "desert"];
const TOKENS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];
const job = jobPanel();
const controls = el("div");
const boardBox = el("div", { id: "board" });
const resultBox = el("div", { id: "result" });
let catalogue = null; // GET /api/layout/rules

const FRESH = {
  game: "ships",
  radius: 3,
  seed: 0,
  rules: null,
  result: null,
  down: [], // tiles already on the table: board-format hex entries
  tile: { terrain: "sea", number: null },
  holding: ["sea", "forest"],
  next: null,
};
let state = load(KEY, null) || structuredClone(FRESH);

function changed() {
  save(KEY, state);
  render();
}

function defaults(game) {
  const on = new Set(catalogue.defaults[game]);
  return Object.fromEntries(catalogue.rules.map((rule) => [rule, on.has(rule)]));
}

function hexagon(radius) {
  const hexes = [];
  for (let r = -radius; r <= radius; r += 1) {
    for (let q = -radius; q <= radius; q += 1) if (Math.abs(q + r) <= radius) hexes.push([q, r]);
  }
  return hexes;
}

function fixedBoard() {
  return state.down.length ? { hexes: state.down } : null;
}

function body() {
  const request = { game: state.game, rules: state.rules, seed: state.seed };
  if (state.game === "ships") {
    request.radius = state.radius;
    request.fixed = fixedBoard();
  }
  return request;
}

async function lay() {
  clearErrors();
  state.next = null;
  try {
    state.result = await job.run("layout", body());
  } catch (error) {
    state.result = null;
    if (!error.cancelled) showError(error);
  }
  changed();
}

async function nextMove() {
  clearErrors();
  try {
    state.next = await job.run("next-move", { radius: state.radius, rules: state.rules, fixed: fixedBoard(), holding: state.holding });
  } catch (error) {
    state.next = null;
    if (!error.cancelled) showError(error);
  }
  changed();
}

function tapHex(hex) {
  if (state.game !== "ships") return;
  const k = state.down.findIndex((entry) => sameHex(entry.hex, hex));
  const tile = { hex, terrain: state.tile.terrain, number: state.tile.number };
  if (k >= 0 && state.down[k].terrain === tile.terrain && state.down[k].number === tile.number) state.down.splice(k, 1);
  else if (k >= 0) state.down[k] = tile;
  else state.down.push(tile);
  state.next = null;
  changed();
}

function renderControls() {
  const game = select(
    [["ships", "ships scenario (mosaic)"], ["base", "base game island"], ["extension", "5-6 player island"]],
    state.game,
    (value) => {
      state.game = value;
      state.rules = defaults(value);
      state.result = null;
      state.next = null;
      changed();
    },
    { id: "game", "aria-label": "game" },
  );
  const radius = state.game === "ships"
    ? select(Array.from({ length: 5 }, (_, k) => [k + 1, `radius ${k + 1}`]), state.radius, (value) => { state.radius = Number(value); state.down = state.down.filter((e) => Math.max(Math.abs(e.hex[0]), Math.abs(e.hex[1]), Math.abs(e.hex[0] + e.hex[1])) <= state.radius); state.result = null; changed(); }, { id: "radius" })
    : null;
  const seed = el("input", { type: "number", id: "seed", min: "0", value: String(state.seed), "aria-label": "seed", onchange: (e) => { state.seed = Math.max(0, Math.floor(Number(e.target.value) || 0)); save(KEY, state); } });
  const rules = catalogue.rules.map((rule) =>
    el("label", {}, el("input", { type: "checkbox", dataset: { rule }, checked: state.rules[rule], onchange: (e) => { state.rules[rule] = e.target.checked; save(KEY, state); } }), ` ${rule}`),
  );
  const parts = [
    el("div", { class: "row" }, el("label", { for: "game" }, "Game"), game, radius, el("label", { for: "seed" }, "seed"), seed),
    fieldError("game"),
    fieldError("radius"),
    fieldError("seed"),
    el("div", { class: "row" }, ...rules),
    fieldError("rules"),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "lay", onclick: lay }, state.down.length ? "Complete the board" : "Lay the board"),
      state.result ? el("button", { type: "button", onclick: () => download("board.json", state.result.board) }, "Download board") : null),
  ];
  if (state.game === "ships") {
    parts.push(
      el("h2", {}, "During set-up"),
      el("p", { class: "muted" }, "Tap the board to put down the tile chosen here (tap again to take it back); then ask where the two tiles in hand go."),
      el("div", { class: "row" },
        el("label", {}, "tile"),
        select(TERRAINS.map((t) => [t, t]), state.tile.terrain, (value) => { state.tile.terrain = value; state.tile.number = value === "sea" || value === "desert" ? null : state.tile.number || 6; changed(); }, { id: "tile-terrain" }),
        select([["", "no number"], ...TOKENS.map((n) => [n, String(n)])], state.tile.number ?? "", (value) => { state.tile.number = value === "" ? null : Number(value); changed(); }, { id: "tile-number" }),
        el("button", { type: "button", onclick: () => { state.down = []; state.next = null; changed(); } }, "Clear the table")),
      fieldError("fixed"),
      el("div", { class: "row" },
        el("label", {}, "in hand"),
        ...[0, 1].map((k) => select(TERRAINS.map((t) => [t, t]), state.holding[k], (value) => { state.holding[k] = value; state.next = null; changed(); }, { id: `holding-${k}` })),
        el("button", { type: "button", class: "primary", id: "next", onclick: nextMove }, "Where do they go?")),
      fieldError("holding"),
    );
  }
  fill(controls, ...parts, fieldError("request"));
}

function renderBoard() {
  let board;
  let marks = [];
  if (state.next && state.next.placements) marks = state.next.placements.map((p) => p.hex);
  if (state.result && state.result.board && !state.next) board = state.result.board;
  else if (state.game === "ships") {
    const down = new Map(state.down.map((e) => [e.hex.join(","), e]));
    const placed = new Map((state.next && state.next.placements ? state.next.placements : []).map((p) => [p.hex.join(","), p]));
    board = {
      hexes: hexagon(state.radius).map((hex) => down.get(hex.join(",")) || placed.get(hex.join(",")) || { hex, terrain: "empty", number: null }),
    };
  } else {
    fill(boardBox, el("p", { class: "muted" }, "Lay the board to see it."));
    return;
  }
  const classes = (hex) => (marks.some((m) => sameHex(m, hex)) ? "goal" : "");
  fill(boardBox, boardSvg(board, { onhex: tapHex, classes }));
}

function renderResult() {
  const parts = [];
  const result = state.result;
  if (result) {
    const good = result.status === "optimal" || result.status === "feasible";
    parts.push(el("p", { class: `status ${good ? "good" : "bad"}`, id: "status" }, result.status));
    if (result.colourfulness !== null) parts.push(el("p", {}, `colourfulness ${result.colourfulness} (bound ${result.colourfulness_bound})`));
    if (result.pip_spread !== null) parts.push(el("p", {}, `pip spread ${result.pip_spread} (bound ${result.pip_spread_bound})`));
    if (result.resource_pips) {
      parts.push(el("p", { class: "muted" }, "pips: ", Object.entries(result.resource_pips).map(([k, v]) => `${k} ${v}`).join(", ")));
    }
    if (result.conflict) parts.push(el("p", { class: "status bad", id: "conflict" }, "These rules cannot hold together: ", result.conflict.join(", ")));
  }
  const next = state.next;
  if (next) {
    parts.push(el("p", { class: "status good", id: "next-status" }, `next two tiles: ${next.status}`));
    if (next.placements) parts.push(el("p", { id: "placements" }, next.placements.map((p) => `${p.terrain} at ${p.hex.join(",")}`).join(", then ")));
    if (next.best_after !== undefined) parts.push(el("p", { class: "muted" }, `colourfulness still reachable ${next.best_after} (best without this move ${next.best_overall})`));
  }
  fill(resultBox, ...parts);
}

function render() {
  renderControls();
  renderBoard();
  renderResult();
}

document.body.prepend(
  header("/setup"),
  el(
    "main",
    {},
    el("h1", {}, "Board set-up"),
    el(
      "div",
      { class: "columns" },
      el("section", { class: "card" }, boardBox, legend(), job, resultBox, fieldError("")),
      el("section", { class: "card" }, controls),
    ),
  ),
);
getJSON("/api/layout/rules").then((value) => {
  catalogue = value;
  if (!state.rules) state.rules = defaults(state.game);
  try {
    render();
  } catch {
    state = structuredClone(FRESH); // a stored set-up this page cannot draw: start afresh
    state.rules = defaults(state.game);
    render();
  }
});
