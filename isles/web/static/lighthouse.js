// The lighthouse advisor (docs/serve.md, docs/lighthouse.md): the kit, the position
// and the roll are tapped in; isles.lighthouse.best_move ranks every decision.
import {
  clearErrors, download, el, fieldError, fill, header, jobPanel, load, postJSON,
  probabilityText, save, select, showError, uploadButton,
} from "./common.js";

const KEY = "lighthouse";
const COLOURS = { red: "#c62828", blue: "#1565c0", green: "#2e7d32", orange: "#ef6c00", purple: "#6a1b9a" };
const job = jobPanel();
const kitBox = el("div");
const positionBox = el("div");
const rollBox = el("div");
const resultBox = el("div", { id: "result" });

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
};
let state = load(KEY, null) || structuredClone(FRESH);
let kit = null; // the kit the server read (Kit.to_dict())

function kitRequest() {
  if (state.mode === "kit") return { kit: state.kit };
  if (state.mode === "players") return { players: state.players, sea_cards: state.sea_cards };
  return { islands: state.islands, sea_cards: state.sea_cards };
}

function colour(name) {
  return COLOURS[name] || "#607d8b";
}

function swatch(name) {
  return el("span", {}, el("span", { class: "swatch", style: { background: colour(name) } }), name);
}

function changed() {
  save(KEY, state);
  render();
}

async function loadKit() {
  clearErrors();
  try {
    kit = await postJSON("/api/lighthouse/kit", kitRequest());
  } catch (error) {
    kit = null;
    if (state.mode === "kit") {
      // A kit the server refuses (a stored one of an older version): back to players.
      state.mode = "players";
      render();
    }
    showError(error);
  }
  const islands = kit ? kit.islands.length : 0;
  const position = state.position;
  const fits = position && Array.isArray(position.discs) && position.discs.every(Array.isArray);
  if (!fits || position.discs.length !== islands || !(position.boat <= (kit ? kit.sea_cards : 0))) {
    state.position = { discs: Array.from({ length: islands }, () => []), boat: 0, maurice: 0 };
  }
  if (!Array.isArray(state.roll) || state.roll.length !== 2) state.roll = [null, null];
  if (kit && !state.roll.every((face, d) => face === null || kit.dice[d].includes(face))) state.roll = [null, null];
  changed();
}

function renderKit() {
  const mode = select(
    [["players", "by players"], ["islands", "by islands"], ["kit", "a kit file"]],
    state.mode,
    (value) => {
      state.mode = value;
      loadKit();
    },
    { id: "mode", "aria-label": "kit" },
  );
  const parts = [el("label", { for: "mode" }, "Kit"), mode];
  if (state.mode === "players") {
    parts.push(
      select([2, 3, 4].map((n) => [n, `${n} players`]), state.players, (value) => {
        state.players = Number(value);
        loadKit();
      }, { id: "players" }),
    );
  } else if (state.mode === "islands") {
    parts.push(
      select([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, `${n} islands`]), state.islands, (value) => {
        state.islands = Number(value);
        loadKit();
      }, { id: "islands" }),
    );
  }
  if (state.mode !== "kit") {
    parts.push(
      select(Array.from({ length: 12 }, (_, k) => [k + 1, `${k + 1} sea cards`]), state.sea_cards, (value) => {
        state.sea_cards = Number(value);
        loadKit();
      }, { id: "sea-cards" }),
    );
  }
  parts.push(
    uploadButton("Load kit file", "kit", (value) => {
      state.mode = "kit";
      state.kit = value;
      loadKit();
    }),
  );
  if (kit) parts.push(el("button", { type: "button", onclick: () => download("kit.json", kit) }, "Download kit"));
  fill(
    kitBox,
    el("div", { class: "row" }, ...parts),
    fieldError("players"),
    fieldError("islands"),
    fieldError("sea_cards"),
    fieldError("kit"),
    kit
      ? el(
          "p",
          { class: "muted" },
          `${kit.islands.length} islands, ${kit.sea_cards} sea cards. Advice is exact: the first for a kit solves its whole table once (the real game's 8 islands: about 10 s on a fresh machine) and keeps it; later ones are instant.`,
        )
      : null,
  );
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
      { class: "lighthouse", dataset: { island: String(k) } },
      el("div", {}, k === 0 ? `Island ${k} (Maurice's)` : `Island ${k}`),
      el("div", { class: "legend" }, swatch(island[0]), swatch(island[1])),
      el(
        "div",
        { class: "stack" },
        ...discs.map((disc) => el("div", { class: "disc", style: { background: colour(disc) } }, disc)),
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
              disabled: discs.length >= 4,
              dataset: { add: name },
              "aria-label": `add a ${name} disc to island ${k}`,
              onclick: () => {
                discs.push(name);
                changed();
              },
            },
            `+ ${name}`,
          ),
        ),
        el("button", { type: "button", class: "chip", disabled: discs.length === 0, "aria-label": `remove the top disc of island ${k}`, onclick: () => { discs.pop(); changed(); } }, "−"),
      ),
    );
  });
  const boat = Array.from({ length: kit.sea_cards + 1 }, (_, k) =>
    el("button", { type: "button", class: "chip", "aria-pressed": position.boat === k ? "true" : "false", dataset: { boat: String(k) }, onclick: () => { position.boat = k; changed(); } }, k === 0 ? "shore" : String(k)),
  );
  const maurice = kit.islands.map((_, k) =>
    el("button", { type: "button", class: "chip", "aria-pressed": position.maurice === k ? "true" : "false", dataset: { maurice: String(k) }, onclick: () => { position.maurice = k; changed(); } }, String(k)),
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
      uploadButton("Load position", "position", async (value) => {
        clearErrors();
        try {
          state.position = await postJSON("/api/lighthouse/position", { ...kitRequest(), position: value });
          changed();
        } catch (error) {
          showError(error);
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
        el("button", { type: "button", class: "chip", "aria-pressed": state.roll[d] === face ? "true" : "false", dataset: { face }, onclick: () => { state.roll[d] = face; changed(); } }, face),
      ),
    ),
  );
  fill(
    rollBox,
    ...dice,
    fieldError("roll"),
    el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "advise", onclick: advise }, "Best move")),
  );
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

function renderAdvice(advice) {
  if (advice.outcome === "lost") {
    renderLost(advice);
    return;
  }
  const rows = advice.alternatives.map((alt, k) =>
    el(
      "tr",
      { class: k === 0 ? "best" : "" },
      el("td", {}, decisionText(alt)),
      el("td", { class: "p" }, probabilityText(alt.win_probability, alt.win_probability_exact)),
    ),
  );
  fill(
    resultBox,
    el("p", { class: "status good", id: "status" }, `${advice.status}: `, el("span", { id: "best" }, decisionText(advice.best))),
    el(
      "p",
      {},
      "Win probability after the best move: ",
      el("strong", { id: "win" }, probabilityText(advice.win_probability, advice.win_probability_exact)),
      ` (the position before the roll: ${probabilityText(advice.position_win_probability, advice.position_win_probability_exact)}; error at most ${advice.error_bound === null ? 0 : advice.error_bound.toExponential(1)})`,
    ),
    el("div", { class: "scroll" }, el("table", { id: "alternatives" }, el("tr", {}, el("th", {}, "decision"), el("th", {}, "win probability")), ...rows)),
  );
}

async function advise() {
  clearErrors();
  fill(resultBox);
  try {
    const body = { ...kitRequest(), position: state.position, roll: state.roll.map((f) => f ?? "") };
    renderAdvice(await job.run("lighthouse", body));
  } catch (error) {
    if (!error.cancelled) showError(error);
  }
}

function render() {
  renderKit();
  renderPosition();
  renderRoll();
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
loadKit();
