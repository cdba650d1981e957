// Board set-up (docs/serve.md, docs/layout.md): lay a base, extension or ships board
// by the rules chosen (isles.layout.solve_layout); during a ships set-up, tap the
// tiles already down and ask where the next two tiles go (isles.layout.next_move).
// Every change is one undo step (history.js); an answer is kept with the state.
import {
  clearErrors, download, el, fieldError, fill, getJSON, header, jobPanel, numberInput, numbersReady,
  select, showError,
} from "./common.js";
import { History, confirmThen, historyButtons } from "./history.js";
import { boardSvg, hexLabel, legend, sameHex } from "./hexes.js";

const KEY = "setup";
const TERRAINS = ["sea", "forest", "pasture", "fields", "hills", "mountains", "desert"];
const TOKENS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];
const RADII = [1, 2, 3, 4, 5];
const job = jobPanel({ remember: KEY }); // a question a reload interrupts is asked again
const controls = el("div");
const boardBox = el("div", { id: "board" });
const resultBox = el("div", { id: "result" });
const tapNote = el("p", { class: "muted", id: "tap-note", "aria-live": "polite" });
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
const history = new History(KEY, FRESH);
let state = history.state;
history.onchange = (next) => {
  state = next;
  if (catalogue) render();
};

/** One undo step: ``edit`` changes a copy of the state (answers of the old one are dropped). */
function commit(label, edit, keep = false) {
  const next = history.state;
  edit(next);
  if (!keep) {
    next.result = null;
    next.next = null;
  }
  history.change(label, next);
}

/** A change that is no step of the player's (an answer, the tile picked). */
function quietly(edit) {
  const next = history.state;
  edit(next);
  history.replace(next);
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

function tileName(tile) {
  return tile.number === null || tile.number === undefined ? tile.terrain : `${tile.terrain} ${tile.number}`;
}

/** What the defaults ask of a ships radius, from the library (``radii`` of the rules' catalogue). */
function radiusFacts(radius) {
  return (catalogue.radii || []).find((r) => r.radius === radius) || null;
}

/** Why a ships radius cannot be laid with the defaults, or null. */
function radiusTrouble(radius) {
  const facts = radiusFacts(radius);
  if (!facts || facts.land <= facts.land_tiles) return null;
  const fits = (catalogue.radii || []).filter((r) => r.radius > 0 && r.land <= r.land_tiles).map((r) => r.radius);
  return `Radius ${radius} cannot be laid with the defaults: they ask for ${facts.land} land hexes (a third of its ${facts.positions} hexes), and the box holds ${facts.land_tiles} land tiles (the desert included).${fits.length ? ` Radius ${Math.max(...fits)} or less fits.` : ""}`;
}

/** A name of a conflict (a rule, a requirement, "fixed Q,R") in players' words. */
function conflictWords(name) {
  if (name.startsWith("fixed ")) {
    const at = name.slice("fixed ".length);
    const entry = state.down.find((e) => `${e.hex[0]},${e.hex[1]}` === at);
    return entry ? `the ${tileName(entry)} already down at ${at}` : `the tile already down at ${at}`;
  }
  const kind = name.split("(")[0];
  if (catalogue.titles && catalogue.titles[kind]) return `the rule “${catalogue.titles[kind]}” (${name})`;
  if (catalogue.requirements && catalogue.requirements[name]) return `${catalogue.requirements[name]} (${name})`;
  return name;
}

function conflictBlock(conflict, id, lead) {
  return el(
    "div",
    { id },
    el("p", {}, lead),
    el("ul", { class: "plain" }, ...conflict.map((name) => el("li", { dataset: { conflict: name } }, conflictWords(name)))),
  );
}

/** Lay the board; ``again``: the question a reload interrupted, asked again by itself. */
async function lay({ again = false } = {}) {
  if (!numbersReady()) return; // a seed typed wrong is said, never sent as another
  clearErrors();
  const asked = JSON.stringify(body());
  try {
    const result = await job.run("layout", body(), { again });
    if (JSON.stringify(body()) === asked) quietly((s) => { s.result = result; s.next = null; });
  } catch (error) {
    if (!error.cancelled) showError(error);
  }
}

/** The request of "Where do they go?" for the board shown. */
function nextRequest() {
  return { radius: state.radius, rules: state.rules, fixed: fixedBoard(), holding: state.holding };
}

/** Where the tiles held go; ``again``: the question a reload interrupted, asked again. */
async function nextMove({ again = false } = {}) {
  clearErrors();
  const request = nextRequest();
  const asked = JSON.stringify(request);
  try {
    const next = await job.run("next-move", request, { again });
    const now = JSON.stringify(nextRequest());
    if (now === asked) quietly((s) => { s.next = next; });
  } catch (error) {
    if (!error.cancelled) showError(error);
  }
}

function tapHex(hex) {
  if (state.game !== "ships") {
    fill(tapNote, "Tiles are put down one by one only in the ships set-up (choose “ships scenario”); the base and 5-6 player islands are laid whole.");
    return;
  }
  const k = state.down.findIndex((entry) => sameHex(entry.hex, hex));
  const tile = { hex, terrain: state.tile.terrain, number: state.tile.number };
  const at = `${hex[0]},${hex[1]}`;
  const laid = Boolean(state.result && state.result.board);
  let label;
  if (k >= 0 && state.down[k].terrain === tile.terrain && state.down[k].number === tile.number) label = `take back the ${tileName(tile)} at ${at}`;
  else if (k >= 0) label = `${tileName(tile)} instead of ${tileName(state.down[k])} at ${at}`;
  else label = `${tileName(tile)} down at ${at}`;
  commit(label, (s) => {
    if (label.startsWith("take back")) s.down.splice(k, 1);
    else if (k >= 0) s.down[k] = tile;
    else s.down.push(tile);
  });
  // The laid board is set aside for the table being entered: say so (undo brings it back).
  fill(tapNote, laid ? `The laid board is set aside: the board shows the tiles on the table (${state.down.length} down). Undo brings the laid board back.` : `${label[0].toUpperCase()}${label.slice(1)}.`);
}

function renderControls() {
  const game = select(
    [["ships", "ships scenario (mosaic)"], ["base", "base game island"], ["extension", "5-6 player island"]],
    state.game,
    (value) => commit(`game: ${value}`, (s) => { s.game = value; s.rules = defaults(value); }),
    { id: "game", "aria-label": "game" },
  );
  const inRadius = (e, radius) => Math.max(Math.abs(e.hex[0]), Math.abs(e.hex[1]), Math.abs(e.hex[0] + e.hex[1])) <= radius;
  const radius = state.game === "ships"
    ? select(RADII.map((k) => [k, radiusTrouble(k) ? `radius ${k} (too large for the defaults)` : `radius ${k}`]), state.radius, (value) => {
      const r = Number(value);
      commit(`radius ${r}`, (s) => { s.radius = r; s.down = s.down.filter((e) => inRadius(e, r)); });
    }, { id: "radius" })
    : null;
  const seed = numberInput({ field: "seed", label: "Seed", value: state.seed, id: "seed", "aria-label": "seed", size: 10, onchange: (n) => commit(`seed ${n}`, (s) => { s.seed = n; }) });
  const titles = catalogue.titles || {};
  const rules = catalogue.rules.map((rule) =>
    el("label", { class: "rule", style: { display: "block", margin: "0.2rem 0" } },
      el("input", { type: "checkbox", dataset: { rule }, checked: state.rules[rule], onchange: (e) => { const on = e.target.checked; commit(`${on ? "on" : "off"}: ${titles[rule] || rule}`, (s) => { s.rules[rule] = on; }); } }),
      ` ${titles[rule] || rule} `, el("span", { class: "muted" }, `(${rule})`)),
  );
  const trouble = state.game === "ships" ? radiusTrouble(state.radius) : null;
  const parts = [
    el("div", { class: "row" }, historyButtons(history)),
    el("div", { class: "row" }, el("label", { for: "game" }, "Game"), game, radius, el("label", { for: "seed" }, "seed"), seed),
    trouble ? el("p", { class: "status bad", id: "radius-note" }, trouble) : null,
    fieldError("game"),
    fieldError("radius"),
    fieldError("seed"),
    el("div", { class: "rules" }, ...rules),
    fieldError("rules"),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "lay", onclick: () => lay() }, state.down.length ? "Complete the board" : "Lay the board"),
      state.result && state.result.board ? el("button", { type: "button", onclick: () => download("board.json", state.result.board) }, "Download board") : null),
  ];
  if (state.game === "ships") {
    parts.push(
      el("h2", {}, "During set-up"),
      el("p", { class: "muted" }, "Tap the board to put down the tile chosen here (tap again to take it back); then ask where the two tiles in hand go."),
      el("div", { class: "row" },
        el("label", {}, "tile"),
        select(TERRAINS.map((t) => [t, t]), state.tile.terrain, (value) => quietly((s) => { s.tile.terrain = value; s.tile.number = value === "sea" || value === "desert" ? null : s.tile.number || 6; }), { id: "tile-terrain" }),
        select([["", "no number"], ...TOKENS.map((n) => [n, String(n)])], state.tile.number ?? "", (value) => quietly((s) => { s.tile.number = value === "" ? null : Number(value); }), { id: "tile-number" }),
        el("button", { type: "button", id: "clear-table", disabled: state.down.length === 0, onclick: () => confirmThen(`Take all ${state.down.length} tiles off the table? (Undo puts them back.)`, () => commit(`clear the table (${state.down.length} tiles)`, (s) => { s.down = []; }), "Clear the table") }, "Clear the table")),
      fieldError("fixed"),
      el("div", { class: "row" },
        el("label", {}, "in hand"),
        ...[0, 1].map((k) => select(TERRAINS.map((t) => [t, t]), state.holding[k], (value) => commit(`in hand: ${value}`, (s) => { s.holding[k] = value; s.next = null; }, true), { id: `holding-${k}` })),
        el("button", { type: "button", class: "primary", id: "next", onclick: () => nextMove() }, "Where do they go?")),
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
    const placed = new Map((state.next && state.next.placements ? state.next.placements : []).map((p) => [p.hex.join(","), { ...p, number: null }]));
    board = {
      hexes: hexagon(state.radius).map((hex) => down.get(hex.join(",")) || placed.get(hex.join(",")) || { hex, terrain: "empty", number: null }),
    };
  } else {
    fill(boardBox, el("p", { class: "muted" }, "Lay the board to see it."), tapNote);
    return;
  }
  const classes = (hex) => (marks.some((m) => sameHex(m, hex)) ? "placed" : "");
  fill(boardBox, boardSvg(board, { onhex: tapHex, classes }), tapNote);
}

function renderResult() {
  const parts = [];
  const result = state.result;
  if (result) {
    const good = result.status === "optimal" || result.status === "feasible";
    if (result.conflict) {
      parts.push(el("p", { class: "status bad", id: "outcome" }, "No board exists: ", el("span", { id: "status" }, result.status)));
      parts.push(conflictBlock(result.conflict, "conflict", "These cannot all hold together:"));
    } else parts.push(el("p", { class: `status ${good ? "good" : "bad"}`, id: "outcome" }, good ? "Board laid: " : "No board: ", el("span", { id: "status" }, result.status)));
    if (result.colourfulness !== null && result.colourfulness !== undefined) parts.push(el("p", {}, `colourfulness ${result.colourfulness} (bound ${result.colourfulness_bound})`));
    if (result.pip_spread !== null && result.pip_spread !== undefined) parts.push(el("p", {}, `pip spread ${result.pip_spread} (bound ${result.pip_spread_bound})`));
    if (result.resource_pips) {
      parts.push(el("p", { class: "muted" }, "pips: ", Object.entries(result.resource_pips).map(([k, v]) => `${k} ${v}`).join(", ")));
    }
  }
  const next = state.next;
  if (next) {
    const good = next.status === "optimal" || next.status === "feasible";
    if (good && next.placements) {
      parts.push(el("p", { class: "status good", id: "next-status" }, `the next two tiles: ${next.status}`));
      parts.push(el("p", { id: "placements" }, next.placements.map((p) => `${p.terrain} at ${p.hex.join(",")}`).join(", then ")));
      if (next.best_after !== null && next.best_after !== undefined) {
        parts.push(el("p", { class: "muted" }, `colourfulness still reachable ${next.best_after}` + (next.best_overall !== null && next.best_overall !== undefined ? ` (the best board from here: ${next.best_overall})` : "")));
      }
    } else if (next.conflict) {
      parts.push(el("p", { class: "status bad", id: "next-status" }, `No place for ${state.holding.join(" and ")}: ${next.status}`));
      parts.push(conflictBlock(next.conflict, "next-conflict", "The table already breaks these together:"));
    } else {
      const why = next.status === "timed_out" ? "the search reached its time limit" : "no legal board completes this table";
      parts.push(el("p", { class: "status bad", id: "next-status" }, `No place for ${state.holding.join(" and ")}: ${why}.`));
    }
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
  const shared = History.fromLink(window.location.hash, KEY);
  if (shared) {
    history.change("open a shared link", { ...FRESH, ...shared });
    window.history.replaceState(null, "", window.location.pathname);
  }
  if (!state.rules) quietly((s) => { s.rules = defaults(s.game); });
  try {
    render();
  } catch {
    // a stored set-up this page cannot draw: start afresh
    history.replace({ ...structuredClone(FRESH), rules: defaults(FRESH.game) });
  }
  // Reloaded while a question was being answered: asked again, if the board is still
  // the one asked about (else the question is no longer pending).
  const asking = shared ? null : job.pending();
  const same = (request) => asking && JSON.stringify(asking.body) === JSON.stringify(request);
  if (asking && asking.kind === "layout" && same(body())) lay({ again: true });
  else if (asking && asking.kind === "next-move" && same(nextRequest())) nextMove({ again: true });
  else job.forget();
});
