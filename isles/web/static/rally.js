// The rally planner (docs/serve.md, docs/rally.md): a board, taps for the start,
// the goals and the roads, the cards in hand; isles.rally.plan_route draws the route.
// As it is played: isles.rally.plan_income (cards from income, this turn's advice) and
// isles.rally.race_cars (who arrives first). Every choice is one undo step
// (history.js); an answer found is kept with them.
import {
  clearErrors, download, el, fieldError, fill, getJSON, header, jobPanel, load, numberInput,
  numbersReady, postJSON, save, select, showError, uploadButton,
} from "./common.js";
import { History, confirmThen, historyButtons } from "./history.js";
import { adjacent, boardSvg, hexLabel, hexName, legend, marksLegend, sameHex } from "./hexes.js";
import { ROLLS, TRADES, buildingsText, incomeBlock, owners, raceBlock } from "./rally-play.js";

const KEY = "rally";
const RESOURCES = ["lumber", "wool", "grain", "brick", "ore"];
const MODES = [
  ["route", "a route for the cards in hand"],
  ["income", "as it is played: cards from income"],
  ["race", "a race of 2 to 4 cars"],
];
const NO_CARDS = { lumber: 0, wool: 0, grain: 0, brick: 0, ore: 0 };
const OBJECTIVES = [
  ["cards", "fewest cards"],
  ["turns", "fewest turns"],
  ["expected_turns", "fewest expected turns"],
];
const job = jobPanel({ remember: KEY }); // a question a reload interrupts is asked again
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
  mode: "route",
  player: null, // the car's owner (as it is played)
  // The table: null is the library's default (GET /api/rally/defaults), left out of requests.
  players: null,
  trade: null,
  discard: null,
  within: null,
  hand: { ...NO_CARDS },
  reserve: { ...NO_CARDS },
  roll: null, // the roll just made: which advice of the answer is shown (no new solve)
  cars: [], // the race: [{player, start, goals}] in seat order
  income: null, // the drive's answer (IncomePlan)
  race: null, // the race's answer (RaceResult)
};
const history = new History(KEY, FRESH);
let state = history.state;
// What a tap does, and the first hex of a road: the page's mode, not the plan (no undo step).
const ui = { tap: "start", picked: null, car: 0, ...load(`${KEY}.ui`, {}) };
ui.picked = null;
// The declarations' defaults of the questions as it is played (Drive, Race).
let table = { income: {}, race: {} };
/** A field of the table: the player's choice, else the declaration's default. */
function shown(name) {
  return state[name] ?? table[state.mode === "race" ? "race" : "income"][name];
}

/** The table's fields the player set (the others are the library's defaults). */
function tableBody(names) {
  const body = {};
  for (const name of names) if (state[name] !== null && state[name] !== undefined) body[name] = state[name];
  return body;
}
// The default goals of the start (POST /api/rally/goals), by start.
let defaults = { start: null, goals: null, why: null };

// The job under way: its request as sent, and how the request reads now.
let running = null;

history.onchange = (next, how) => {
  state = next;
  if (running && JSON.stringify(running.body()) !== running.asked) {
    running = null;
    job.cancel(); // the inputs changed: the old answer is not wanted, its slot is freed
  }
  render();
  // Back (or forward) to a state with no board: one from before the page's first board
  // came (a step taken while it was coming). It is laid, as on a fresh page; a step to a
  // state with its board drops that board if it is still coming.
  if (state.board) dropRelaid();
  else if (how === "undo" || how === "redo") loadBoard(state.source === "upload" ? "beginner" : state.source, { relay: true });
};

/** The board an undo or redo to a state with no board asked for, while it comes:
 * ``{asked, laid}`` (``laid``: a board isles lays, a job). */
let relaid = null;

function dropRelaid() {
  if (relaid === null || relaid.asked !== boardsAsked) return;
  const { laid } = relaid;
  relaid = null;
  boardsAsked += 1; // its answer is dropped when it comes
  boardBox.removeAttribute("aria-busy");
  if (laid) job.cancel(); // its job is not wanted either
}

/** Run a job whose answer is for ``body()`` as it reads now: a change cancels it. */
async function runFor(kind, body, again = false) {
  const mine = { asked: JSON.stringify(body()), body };
  running = mine;
  try {
    return await job.run(kind, body(), { again });
  } finally {
    if (running === mine) running = null;
  }
}

/** One undo step: ``edit`` changes a copy of the state; a changed plan forgets its route. */
function commit(label, edit) {
  const next = history.state;
  edit(next);
  next.route = null;
  next.unbounded = null;
  next.income = null;
  next.race = null;
  history.change(label, next);
}

/** One undo step that keeps the answer (the roll just made picks one of its advices). */
function step(label, edit) {
  const next = history.state;
  edit(next);
  history.change(label, next);
}

/** The car the taps go to: the race's current car, else the one car of the plan. */
function tapped(s = state) {
  if (s.mode !== "race") return s;
  return s.cars[Math.min(ui.car, s.cars.length - 1)] || null;
}

function currentStart() {
  const car = tapped();
  return car ? car.start : null;
}

function currentGoals() {
  const car = tapped();
  return car ? car.goals : [];
}

/** Two cars of the board's first owners, for a race begun on this board. */
function freshCars(board) {
  return owners(board).slice(0, 2).map((player) => ({ player, start: null, goals: [] }));
}

function setUi(change) {
  Object.assign(ui, change);
  save(`${KEY}.ui`, { tap: ui.tap, car: ui.car });
  render();
}

/** The layout question of a board isles lays (``source`` a game), as it reads now. */
function layoutBody(source) {
  return { game: source, seed: state.seed };
}

/** Boards asked for so far: only the latest one asked is laid (a slower earlier one is dropped). */
let boardsAsked = 0;

/** A new board; ``again``: the layout a reload interrupted, asked again by itself. */
async function loadBoard(source, { again = false, relay = false } = {}) {
  if (source !== "beginner" && !numbersReady()) return; // a seed typed wrong: said, not sent
  clearErrors();
  const asked = ++boardsAsked;
  relaid = relay ? { asked, laid: source !== "beginner" && source !== "towns" } : null;
  boardBox.setAttribute("aria-busy", "true"); // the old board takes no taps: the new one would drop them
  try {
    let board;
    if (source === "beginner") board = await getJSON("/api/examples/beginner");
    else if (source === "towns") board = await getJSON("/api/examples/beginner-towns");
    else board = (await job.run("layout", layoutBody(source), { again })).board;
    if (asked !== boardsAsked) return; // the player chose another board meanwhile: that one stands
    const change = (s) => {
      Object.assign(s, { source, board, start: null, goals: [], roads: [], player: owners(board)[0] || null, cars: freshCars(board) });
    };
    if (state.board) commit(`new board (${source})`, change);
    else {
      const next = history.state;
      change(next);
      history.replace(next); // the first board of a fresh page is no step of the player's
    }
  } catch (error) {
    if (!error.cancelled && asked === boardsAsked) showError(error);
  } finally {
    if (asked === boardsAsked) boardBox.removeAttribute("aria-busy");
  }
}

async function uploadBoard(value) {
  clearErrors();
  const asked = ++boardsAsked; // a board still coming is dropped: the file stands
  try {
    const board = await postJSON("/api/board", { board: value });
    if (asked !== boardsAsked) return;
    commit("load a board file", (s) => Object.assign(s, { source: "upload", board, start: null, goals: [], roads: [], player: owners(board)[0] || null, cars: freshCars(board) }));
  } catch (error) {
    if (asked === boardsAsked) showError(error);
  } finally {
    if (asked === boardsAsked) boardBox.removeAttribute("aria-busy");
  }
}

function tapHex(hex) {
  const name = hexLabel(state.board, hex);
  const car = tapped();
  const whose = state.mode === "race" && car ? ` (${car.player}'s car)` : "";
  if (state.mode === "race" && ui.tap === "road") ui.tap = "start"; // no road taps in a race
  if (ui.tap !== "road" && !car) return; // a race with no car: add one first
  if (ui.tap === "start") {
    commit(`start at ${name}${whose}`, (s) => {
      tapped(s).start = hex;
    });
  } else if (ui.tap === "goal") {
    const k = car.goals.findIndex((g) => sameHex(g, hex));
    commit(k >= 0 ? `remove the goal ${name}${whose}` : `goal ${name}${whose}`, (s) => {
      const goals = tapped(s).goals;
      if (k >= 0) goals.splice(k, 1);
      else goals.push(hex);
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
  const start = currentStart();
  if (!state.board || !start || currentGoals().length) return;
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
  if (currentGoals().length) return currentGoals();
  if (state.mode === "route" && state.route && state.route.goals) return state.route.goals;
  if (state.mode === "income" && state.income && state.income.goals) return state.income.goals;
  return defaults.goals && sameHex(defaults.start, currentStart()) ? defaults.goals : [];
}

function renderGoalsNote() {
  const board = state.board;
  const start = currentStart();
  let text;
  if (state.mode === "race" && !tapped()) text = "Add a car: each car is a player with buildings on the board.";
  else if (!start) text = "Tap the car's start hex: a sea hex on the board's edge next to land.";
  else if (currentGoals().length) text = `goals you tapped: ${currentGoals().map((g) => hexLabel(board, g)).join(", ")}`;
  else if (shownGoals().length) text = `goals: the default for this start (dashed outline): ${shownGoals().map((g) => hexLabel(board, g)).join(", ")}`;
  else if (defaults.why && sameHex(defaults.start, start)) text = `This start has no default goals: tap the goals. (${defaults.why})`;
  else text = "goals: the default for this start…";
  fill(goalsNote, text);
}

function renderControls() {
  const source = select(
    [["beginner", "beginner board"], ["towns", "beginner board, 2 towns each (red, blue)"], ["base", "a base-game board (laid by isles)"], ["extension", "a 5-6 player board (laid by isles)"], ["upload", "an uploaded board file"]],
    state.source,
    (value) => (value === "upload" ? null : loadBoard(value)),
    { id: "source", "aria-label": "board", style: { maxWidth: "100%" } },
  );
  const seed = numberInput({ field: "seed", label: "Seed", value: state.seed, id: "seed", "aria-label": "seed", onchange: (n) => { const next = history.state; next.seed = n; history.change(`seed ${n}`, next); } }); // an undo step
  // A race's cars drive on the board file's roads only: no road taps (they belong to one player).
  const kinds = [["start", "Tap: start"], ["goal", "Tap: goals"], ["road", "Tap: roads (two hexes)"]];
  const taps = kinds.filter(([tap]) => state.mode !== "race" || tap !== "road").map(([tap, text]) =>
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
    el("div", { class: "row" }, el("label", { for: "mode" }, "Question"), select(MODES, state.mode, (value) => commit(`ask: ${MODES.find(([m]) => m === value)[1]}`, (s) => { s.mode = value; if (value === "race" && !s.cars.length) s.cars = freshCars(s.board); }), { id: "mode" })),
    state.mode === "race" ? carRows() : null,
    el("div", { class: "row muted", id: "taps" },
      `start: ${currentStart() ? hexLabel(board, currentStart()) : "not set"}${state.mode === "race" ? "" : ` · roads: ${state.roads.length}`}`,
      ui.picked ? ` · road from ${hexLabel(board, ui.picked)}: tap a hex next to it` : ""),
    goalsNote,
    fieldError("start"),
    fieldError("goals"),
    fieldError("roads"),
    ...(state.mode === "route" ? [
      el("div", { class: "row" }, el("label", { for: "objective" }, "Route for"), select(OBJECTIVES, state.objective, (value) => commit(`route for ${value.replace("_", " ")}`, (s) => { s.objective = value; }), { id: "objective" })),
      fieldError("objective"),
      el("div", { class: "row" }, el("label", {}, el("input", { type: "checkbox", id: "use-budget", checked: state.useBudget, onchange: (e) => { const on = e.target.checked; commit(on ? "only the cards in hand" : "any cards", (s) => { s.useBudget = on; }); } }), " only the cards in hand:")),
      el("div", { class: "row" }, ...budget),
      fieldError("budget"),
    ] : tableControls()),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "plan", onclick: () => plan() }, { route: "Plan route", income: "Plan the drive", race: "Race" }[state.mode]),
      el("button", { type: "button", id: "clear", onclick: () => confirmThen("Clear the start, the goals and the roads? (Undo brings them back.)", () => commit("clear the taps", (s) => { s.start = null; s.goals = []; s.roads = []; }), "Clear") }, "Clear taps")),
  );
  renderGoalsNote();
}

/** The table the car is driven at, and (one car) its owner, cards and the roll just made. */
function tableControls() {
  const board = state.board;
  const names = owners(board);
  // The range is the declaration's (Drive, Race): the server checks it in the library's words.
  const number = (id, value, label, set) =>
    numberInput({ field: id, label, value, id, "aria-label": label, onchange: (n) => commit(`${label} ${n}`, (s) => set(s, n)) });
  const parts = [
    el("div", { class: "row" },
      el("label", { for: "players" }, "players at the table"), number("players", shown("players"), "players", (s, n) => { s.players = n; }),
      el("label", { for: "trade" }, "trades"), select(TRADES, shown("trade"), (value) => commit(`trades: ${value}`, (s) => { s.trade = value; }), { id: "trade" }),
      el("label", {}, el("input", { type: "checkbox", id: "discard", checked: shown("discard") === "on", onchange: (e) => { const on = e.target.checked ? "on" : "off"; commit(`7-card rule ${on}`, (s) => { s.discard = on; }); } }), " the 7-card rule")),
    fieldError("players"),
    fieldError("trade"),
    fieldError("discard"),
  ];
  if (state.mode === "race") return [...parts, fieldError("cars")];
  const owner = names.length
    ? select(names.map((n) => [n, `${n} (${buildingsText(board, n)})`]), state.player, (value) => commit(`drive ${value}'s car`, (s) => { s.player = value; }), { id: "player" })
    : el("span", { class: "field-error", id: "player" }, "This board has no buildings: choose the board with settlements, or load a board file with buildings.");
  const cards = (what, label) =>
    el("div", { class: "row", id: what },
      el("span", { class: "muted" }, label),
      ...RESOURCES.map((name) => {
        const n = state[what][name];
        return el("span", { class: "cards" },
          el("button", { type: "button", class: "chip", dataset: { [what]: name }, "aria-label": `one more ${name} ${label}`, onclick: () => commit(`${n + 1} ${name} ${label}`, (s) => { s[what][name] = n + 1; }) }, `${name} ${n}`),
          el("button", { type: "button", class: "chip", disabled: n === 0, dataset: { less: `${what}.${name}` }, "aria-label": `one ${name} less ${label}`, onclick: () => commit(`${n - 1} ${name} ${label}`, (s) => { s[what][name] = n - 1; }) }, "−"));
      }));
  const rolls = ROLLS.map((n) => el("button", { type: "button", class: "chip", "aria-pressed": state.roll === n ? "true" : "false", dataset: { roll: String(n) },
    onclick: () => step(state.roll === n ? `no roll` : `rolled ${n}`, (s) => { s.roll = s.roll === n ? null : n; }) }, String(n)));
  return [
    el("div", { class: "row" }, el("label", { for: "player" }, "the car's owner"), owner,
      el("label", { for: "within" }, "chances within"), number("within", shown("within"), "within", (s, n) => { s.within = n; }), el("span", { class: "muted" }, "turns")),
    fieldError("player"),
    fieldError("within"),
    ...parts,
    cards("hand", "in hand"),
    fieldError("hand"),
    cards("reserve", "in the reserve"),
    fieldError("reserve"),
    el("div", { class: "row", id: "rolls" }, el("span", { class: "muted" }, "the roll just made:"), ...rolls),
  ];
}

/** The race's cars: owner, start, goals; taps go to the car chosen here. */
function carRows() {
  const board = state.board;
  const names = owners(board);
  const rows = state.cars.map((car, i) =>
    el("div", { class: "row car", dataset: { car: String(i) } },
      el("button", { type: "button", class: "chip", "aria-pressed": i === Math.min(ui.car, state.cars.length - 1) ? "true" : "false", onclick: () => setUi({ car: i }) }, `car ${i + 1}`),
      // One car per player: an owner who already drives another car swaps with this one.
      select(names.map((n) => [n, n]), car.player, (value) => {
        const j = state.cars.findIndex((c, k) => k !== i && c.player === value);
        commit(j >= 0 ? `car ${i + 1}: ${value}, car ${j + 1}: ${car.player}` : `car ${i + 1}: ${value}`, (s) => {
          if (j >= 0) s.cars[j].player = s.cars[i].player;
          s.cars[i].player = value;
        });
      }, { "aria-label": `car ${i + 1}'s owner` }),
      el("span", { class: "muted" }, `from ${car.start ? hexLabel(board, car.start) : "(tap its start)"}${car.goals.length ? ` to ${car.goals.map((g) => hexLabel(board, g)).join(", ")}` : ""}`),
      el("button", { type: "button", onclick: () => confirmThen(`Remove car ${i + 1}? (Undo brings it back.)`, () => commit(`remove car ${i + 1}`, (s) => { s.cars.splice(i, 1); }), "Remove") }, "Remove")));
  const free = names.filter((n) => !state.cars.some((c) => c.player === n));
  return [
    ...rows,
    el("div", { class: "row" },
      el("button", { type: "button", id: "add-car", disabled: state.cars.length >= 4 || !free.length, onclick: () => { commit(`add ${free[0]}'s car`, (s) => { s.cars.push({ player: free[0], start: null, goals: [] }); }); setUi({ car: state.cars.length - 1 }); } }, "Add a car"),
      names.length ? null : el("span", { class: "field-error" }, "This board has no buildings: choose the board with settlements, or load a board file with buildings.")),
  ];
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
  const own = currentGoals().length > 0;
  let route = state.route && state.route.path ? state.route.path : null;
  if (state.mode === "income") route = state.income ? state.income.route : null;
  if (state.mode === "race") {
    const seat = state.race ? state.race.cars[Math.min(ui.car, state.race.cars.length - 1)] : null;
    route = seat ? seat.route : null;
  }
  const end = state.mode === "route" && state.route && state.route.status === "unaffordable" ? state.route.end : null;
  const starts = state.mode === "race" ? state.cars.map((c) => c.start).filter(Boolean) : [];
  const classes = (hex) => {
    if (sameHex(hex, currentStart())) return "start";
    if (goals.some((g) => sameHex(g, hex))) return own ? "goal" : "default-goal";
    if (starts.some((h) => sameHex(h, hex))) return "picked";
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
  if (state.mode === "income") {
    fill(resultBox, ...(state.income ? incomeBlock(state.board, state.income, state.roll) : []));
    return;
  }
  if (state.mode === "race") {
    fill(resultBox, ...(state.race ? raceBlock(state.board, state.race) : []));
    return;
  }
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

/** The request of the drive (Drive): the keys of its declaration (Drive), nothing restated. */
function incomeBody() {
  const body = { board: withRoads(state.board), player: state.player, start: state.start, ...tableBody(["players", "trade", "discard", "within"]) };
  if (state.goals.length) body.goals = state.goals;
  for (const what of ["hand", "reserve"]) if (Object.values(state[what]).some((n) => n > 0)) body[what] = state[what];
  return body;
}

/** The request of the race (Race): the cars in seat order. */
function raceBody() {
  const cars = state.cars.map((c) => (c.goals.length ? { player: c.player, start: c.start, goals: c.goals } : { player: c.player, start: c.start }));
  return { board: state.board, cars, ...tableBody(["players", "trade", "discard"]) };
}

/** The board with the roads tapped on it as the player's own (the board file's roads kept). */
function withRoads(board) {
  if (!state.roads.length || !state.player) return board;
  return { ...board, roads: [...(board.roads || []), ...state.roads.map((edge) => ({ edge, player: state.player }))] };
}

async function planTable(again = false) {
  const income = state.mode === "income";
  if (income && !state.player) {
    showError({ field: "player", message: "player: this board has no buildings; choose the board with settlements or load a board file with buildings" });
    return;
  }
  if (income && !state.start) {
    showError({ field: "start", message: "start: tap the car's hex first (Tap: start, then a sea hex at the board's edge)" });
    return;
  }
  if (!income) {
    const wrong = raceCheck();
    if (wrong) {
      showError({ field: "cars", message: wrong });
      return;
    }
  }
  if (income && !state.goals.length && defaults.why && sameHex(defaults.start, state.start)) {
    showError({ field: "goals", message: "goals: tap the goals (Tap: goals): this start has no default goals" });
    return;
  }
  const bodyNow = income ? incomeBody : raceBody;
  const asked = JSON.stringify(bodyNow());
  try {
    const answer = await runFor(income ? "income" : "race", bodyNow, again);
    if (JSON.stringify(bodyNow()) !== asked) return; // changed meanwhile
    const next = history.state;
    next[income ? "income" : "race"] = answer;
    history.replace(next); // an answer, not a change of the player's: undo skips it
  } catch (error) {
    if (!error.cancelled) showError(income ? error : carWords(error));
  }
}

/** What keeps the race from being asked, in the page's words (null: nothing). */
function raceCheck() {
  const cars = state.cars;
  if (cars.length < 2) return `a race needs 2 to 4 cars: add a car (${cars.length} now)`;
  for (const [i, car] of cars.entries()) {
    if (!car.start) return `car ${i + 1} (${car.player}): tap the car's start hex first (choose “car ${i + 1}”, Tap: start, then a hex)`;
    const j = cars.findIndex((c) => c.player === car.player);
    if (j < i) return `car ${i + 1}: ${car.player} already drives car ${j + 1}; one car per player: choose another owner`;
  }
  return null;
}

/** A race's error about ``cars[i]...`` said as "car i+1" (the page's numbering). */
function carWords(error) {
  const found = /^cars\[(\d+)\]\.?(.*)$/.exec(error && error.field ? String(error.field) : "");
  if (!found) return error;
  const car = `car ${Number(found[1]) + 1}`;
  const message = String(error.message).replace(/^cars\[\d+\]\.?/, found[2] ? `${car} ` : car);
  return { ...error, message: message.replace(/one car per player \(car (\d+) is (\w+)'s\)/, "one car per player: $2 already drives car $1") };
}

/** Plan (the mode's question); ``again``: the question a reload interrupted, asked again. */
async function plan({ again = false } = {}) {
  if (!numbersReady()) return; // a number of cards typed wrong: said, never sent as 0
  clearErrors();
  if (!state.board) return;
  if (state.mode !== "route") {
    await planTable(again);
    return;
  }
  if (!state.start) {
    showError({ field: "start", message: "start: tap the car's hex first (Tap: start, then a sea hex at the board's edge)" });
    return;
  }
  const asked = JSON.stringify(planBody(true));
  try {
    const route = await runFor("route", () => planBody(true), again);
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
// Reloaded while a plan or a new board was being answered: asked again, if the mode
// and what it reads (for a new board: its game and the seed) are still the ones asked about.
const asking = shared || !state.board ? null : job.pending();
const askedNow = {
  route: () => [planBody(true), planBody(false)],
  income: () => [incomeBody()],
  race: () => [raceBody()],
};
// (Only a board isles lays is a job here: its body names the game, as loadBoard sent it.)
if (asking && asking.kind === "layout" && JSON.stringify(layoutBody(asking.body.game)) === JSON.stringify(asking.body)) loadBoard(asking.body.game, { again: true });
else if (asking && asking.kind === state.mode && askedNow[state.mode] && askedNow[state.mode]().some((body) => JSON.stringify(body) === JSON.stringify(asking.body))) plan({ again: true });
else job.forget();
getJSON("/api/rally/defaults").then((answer) => {
  table = answer;
  render();
}).catch(() => {}); // the fields then show empty: the library's defaults still apply
