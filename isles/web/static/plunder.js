// The Plunder notepad (docs/serve.md, docs/plunder.md): the record is the page's
// state, in the record format; every change is analysed by isles.plunder.analyse.
import {
  clearErrors, download, el, fieldError, fill, getJSON, header, jobPanel, load,
  postJSON, probabilityText, save, select, showError, uploadButton,
} from "./common.js";

const CATEGORIES = ["island", "marker", "trap"];
const VALUES = [0, 1, 2, 3, 4, 5];
const KEY = "plunder";

const FRESH = { record: { players: 4, observations: [] }, open: null };
let state = load(KEY, null) || structuredClone(FRESH);
const job = jobPanel();
const setupBox = el("div");
const turnsBox = el("div");
const resultBox = el("div", { id: "result" });
const adviceBox = el("div", { id: "advice" });
let lastAnalysis = null;

function record() {
  return state.record;
}

function label(category, value) {
  const names = record().names;
  return names && names[category] ? String(names[category][value]) : String(value);
}

function playerLabel(player) {
  const me = record().me;
  return me && me.player === player ? `P${player} (me)` : `P${player}`;
}

function changed() {
  save(KEY, state);
  render();
  analyseSoon();
}

// Entering the game -----------------------------------------------------------------

function chips(category, current, onpick, testid) {
  return el(
    "div",
    { class: "row", dataset: { category, testid } },
    el("label", {}, category),
    ...VALUES.map((value) =>
      el(
        "button",
        {
          type: "button",
          class: "chip",
          "aria-pressed": current === value ? "true" : "false",
          dataset: { value: String(value) },
          onclick: () => onpick(value),
        },
        label(category, value),
      ),
    ),
  );
}

function renderSetup() {
  const rec = record();
  const players = select(
    [2, 3, 4, 5, 6].map((n) => [n, `${n} players`]),
    rec.players,
    (value) => {
      rec.players = Number(value);
      if (rec.me && rec.me.player >= rec.players) delete rec.me;
      for (const turn of rec.observations) {
        if (turn.active >= rec.players) turn.active = 0;
        for (const key of Object.keys(turn.answers)) if (Number(key) >= rec.players || Number(key) === turn.active) delete turn.answers[key];
      }
      changed();
    },
    { id: "players" },
  );
  const meOptions = [["", "not known"], ...Array.from({ length: rec.players }, (_, p) => [p, `P${p}`])];
  const me = select(
    meOptions,
    rec.me ? rec.me.player : "",
    (value) => {
      if (value === "") delete rec.me;
      else rec.me = { player: Number(value), code: rec.me ? rec.me.code : { island: 0, marker: 0, trap: 0 } };
      changed();
    },
    { id: "me" },
  );
  const code = rec.me
    ? el(
        "div",
        { id: "my-code" },
        ...CATEGORIES.map((category) =>
          chips(category, rec.me.code[category], (value) => {
            rec.me.code[category] = value;
            changed();
          }, `me-${category}`),
        ),
      )
    : null;
  fill(
    setupBox,
    el("div", { class: "row" }, el("label", { for: "players" }, "Players"), players, el("label", { for: "me" }, "I am"), me),
    fieldError("record.players"),
    code,
    fieldError("record.me"),
  );
}

function answerButton(turn, index, player) {
  const given = turn.answers[String(player)];
  const text = given === true ? "yes" : given === false ? "no" : "?";
  return el(
    "button",
    {
      type: "button",
      class: `chip ${given === true ? "yes" : given === false ? "no" : ""}`,
      dataset: { turn: String(index), player: String(player) },
      title: "tap: yes, no, not yet",
      onclick: () => {
        if (given === undefined) turn.answers[String(player)] = true;
        else if (given === true) turn.answers[String(player)] = false;
        else delete turn.answers[String(player)];
        changed();
      },
    },
    `${playerLabel(player)}: ${text}`,
  );
}

function renderTurns() {
  const rec = record();
  const last = rec.observations.length - 1;
  const open = state.open === undefined || state.open === null || state.open > last ? last : state.open;
  const turns = rec.observations.map((turn, index) => {
    const others = Array.from({ length: rec.players }, (_, p) => p).filter((p) => p !== turn.active);
    return el(
      "div",
      { class: "turn", dataset: { turn: String(index) } },
      el(
        "div",
        { class: "row" },
        el("h3", {}, `Turn ${index + 1}`),
        el("label", {}, "active"),
        select(
          Array.from({ length: rec.players }, (_, p) => [p, playerLabel(p)]),
          turn.active,
          (value) => {
            turn.active = Number(value);
            delete turn.answers[value];
            changed();
          },
          { class: "active", "aria-label": `turn ${index + 1} active player` },
        ),
        el("button", { type: "button", onclick: () => { rec.observations.splice(index, 1); state.open = null; changed(); } }, "Delete turn"),
      ),
      ...(open === index
        ? [
            el("div", { class: "muted" }, "Clue on the table (tap a card to flip it):"),
            ...CATEGORIES.map((category) =>
              chips(category, turn.clue[category], (value) => {
                turn.clue[category] = value;
                changed();
              }, `clue-${index}-${category}`),
            ),
          ]
        : [
            el(
              "div",
              { class: "row" },
              el("span", { class: "clue" }, "clue: ", CATEGORIES.map((c) => label(c, turn.clue[c])).join(" · ")),
              el("button", { type: "button", class: "edit", onclick: () => { state.open = index; changed(); } }, "Edit clue"),
            ),
          ]),
      el("div", { class: "row answers" }, el("label", {}, "answers"), ...others.map((p) => answerButton(turn, index, p))),
      fieldError(`record.observations[${index}]`),
    );
  });
  const add = el(
    "button",
    {
      type: "button",
      class: "primary",
      id: "add-turn",
      onclick: () => {
        const last = rec.observations[rec.observations.length - 1];
        rec.observations.push({
          active: last ? (last.active + 1) % rec.players : 0,
          clue: last ? { ...last.clue } : { island: 0, marker: 0, trap: 0 },
          answers: {},
        });
        state.open = null; // the new turn is the one being entered
        changed();
      },
    },
    "Add turn",
  );
  fill(turnsBox, ...turns, fieldError("record.observations"), el("div", { class: "row" }, add));
}

// The answer ------------------------------------------------------------------------

function renderResult(analysis) {
  lastAnalysis = analysis;
  if (!analysis) {
    fill(resultBox, el("p", { class: "muted" }, "Add a turn to start."));
    return;
  }
  if (analysis.status === "inconsistent") {
    const items = analysis.conflict.map((a) => {
      const turn = record().observations[a.observation];
      const said = turn ? turn.answers[String(a.player)] : undefined;
      const button = turnsBox.querySelector(`button[data-turn="${a.observation}"][data-player="${a.player}"]`);
      if (button) button.classList.add("conflict");
      return el("li", {}, `Turn ${a.observation + 1}: ${playerLabel(a.player)} said ${said ? "yes" : "no"}`);
    });
    fill(
      resultBox,
      el("p", { class: "status bad", id: "status" }, "Inconsistent: these answers cannot all be true"),
      el("ul", { class: "plain", id: "conflict" }, ...items),
      el("p", { class: "muted" }, "Tap one of the marked answers to correct it."),
    );
    return;
  }
  const forced = new Set(analysis.forced.map((f) => `${f.player}.${f.category}.${f.value}`));
  const head = el("tr", {}, el("th", {}, "player"), el("th", {}, "card"), ...VALUES.map((v) => el("th", {}, String(v))));
  const rows = [];
  for (const player of analysis.players) {
    CATEGORIES.forEach((category, k) => {
      const cells = player[category].map((entry) => {
        const isForced = forced.has(`${player.player}.${category}.${entry.value}`);
        return el(
          "td",
          {
            class: `p${isForced ? " forced" : ""}`,
            title: label(category, entry.value),
            style: { background: `rgba(11, 107, 203, ${(0.55 * entry.p).toFixed(3)})` },
            dataset: { player: String(player.player), category, value: String(entry.value), exact: entry.p_exact },
          },
          probabilityText(entry.p, entry.p_exact),
        );
      });
      rows.push(el("tr", {}, k === 0 ? el("th", { rowspan: "3" }, playerLabel(player.player)) : null, el("th", {}, category), ...cells));
    });
  }
  const forcedItems = analysis.forced.map((f) =>
    el(
      "li",
      {},
      `${playerLabel(f.player)} holds ${f.category} ${label(f.category, f.value)}; proof (${f.proof_kind}): `,
      f.proof.map((a) => `turn ${a.observation + 1} ${playerLabel(a.player)}`).join(", ") || "the cards in my hand",
    ),
  );
  fill(
    resultBox,
    el("p", { class: "status good", id: "status" }, `${analysis.status}: `, el("span", { id: "deals" }, String(analysis.deals)), " deals remain"),
    el("div", { class: "scroll" }, el("table", { id: "grid" }, head, ...rows)),
    el("h2", {}, "Forced values"),
    forcedItems.length ? el("ul", { class: "plain", id: "forced" }, ...forcedItems) : el("p", { class: "muted" }, "none yet"),
  );
}

function renderAdvice(advice) {
  if (!advice) {
    fill(adviceBox);
    return;
  }
  const flip = advice.flip;
  const flipPart = flip
    ? el(
        "div",
        {},
        el("h2", {}, `Flip advice for ${playerLabel(flip.active)}`),
        el(
          "table",
          { id: "flip" },
          el("tr", {}, el("th", {}, "flip"), el("th", {}, "expected information (bits)")),
          ...flip.options.map((option, k) =>
            el("tr", { class: k === 0 ? "best" : "" }, el("td", {}, option.deck || "no flip"), el("td", {}, option.expected_bits.toFixed(3))),
          ),
        ),
      )
    : el("p", { class: "muted" }, "No flip advice: no clue on the table yet.");
  const guesses = el(
    "table",
    { id: "guesses" },
    el("tr", {}, el("th", {}, "dig on"), el("th", {}, "code"), el("th", {}, "probability"), el("th", {}, "expected points")),
    ...advice.guesses.map((g, k) =>
      el(
        "tr",
        { class: k === 0 ? "best" : "" },
        el("td", {}, playerLabel(g.target)),
        el("td", {}, CATEGORIES.map((c) => label(c, g.code[c])).join(" · ")),
        el("td", {}, probabilityText(g.p, g.p_exact)),
        el("td", {}, probabilityText(g.expected_points, g.expected_points_exact)),
      ),
    ),
  );
  // Dig now or wait (isles.plunder.dig_advice): expected points with 95% intervals.
  const dig = advice.dig
    ? el(
        "div",
        {},
        el("h2", {}, `Dig now or wait (${advice.dig.samples} simulated games, others ${advice.dig.policy})`),
        el(
          "div",
          { class: "scroll" },
          el(
            "table",
            { id: "dig" },
            el(
              "tr",
              {},
              el("th", {}, "dig on"),
              el("th", {}, "code"),
              ...advice.dig.targets[0].options.map((o) => el("th", {}, o.wait === 0 ? "now" : `wait ${o.wait}`)),
            ),
            ...advice.dig.targets.map((t) =>
              el(
                "tr",
                {},
                el("td", {}, playerLabel(t.target)),
                el("td", {}, CATEGORIES.map((c) => label(c, t.code[c])).join(" · ")),
                ...t.options.map((o) =>
                  el(
                    "td",
                    { class: o.wait === t.best_wait ? "best" : "" },
                    `${o.expected_points.toFixed(2)} [${o.ci95[0].toFixed(2)}, ${o.ci95[1].toFixed(2)}]`,
                  ),
                ),
              ),
            ),
          ),
        ),
      )
    : el("p", { class: "muted" }, "Dig advice needs my code (set who I am and my code).");
  fill(adviceBox, flipPart, el("h2", {}, "Guess (crew card) advice"), el("div", { class: "scroll" }, guesses), dig);
}

let timer = null;

function analyseSoon() {
  clearTimeout(timer);
  timer = setTimeout(() => analyse(false), 250);
}

async function analyse(advise) {
  clearErrors();
  if (record().observations.length === 0 && !advise) {
    renderResult(null);
    renderAdvice(null);
    return;
  }
  try {
    const analysis = await job.run("plunder", { record: record(), advise });
    renderResult(analysis);
    renderAdvice(advise ? analysis.advice : null);
  } catch (error) {
    if (error.cancelled) return;
    fill(resultBox, el("p", { class: "status bad", id: "status" }, "The record needs a correction (see the marked field)."));
    showError(error);
  }
}

function render() {
  renderSetup();
  renderTurns();
  if (lastAnalysis) renderResult(lastAnalysis);
}

const tools = el(
  "div",
  { class: "row" },
  el("button", { type: "button", class: "primary", id: "advise", onclick: () => analyse(true) }, "Advice: flip and dig"),
  el("button", { type: "button", onclick: () => download("plunder-record.json", record()) }, "Download record"),
  uploadButton("Load record", "record", async (value) => {
    clearErrors();
    try {
      state.record = await postJSON("/api/plunder/record", { record: value });
      state.open = null;
      changed();
    } catch (error) {
      showError(error);
    }
  }),
  el(
    "button",
    {
      type: "button",
      id: "example",
      onclick: async () => {
        state.record = await getJSON("/api/examples/plunder");
        state.open = null;
        changed();
      },
    },
    "Example",
  ),
  el(
    "button",
    {
      type: "button",
      id: "new-game",
      onclick: () => {
        if (window.confirm("Start a new game? The turns entered are forgotten.")) {
          state.record = { players: record().players, observations: [] };
          changed();
        }
      },
    },
    "New game",
  ),
);

document.body.prepend(
  header("/plunder"),
  el(
    "main",
    {},
    el("h1", {}, "Plunder notepad"),
    el(
      "div",
      { class: "columns" },
      el("div", {}, el("section", { class: "card" }, el("h2", {}, "Game"), setupBox, tools, fieldError("record"), fieldError("")),
        el("section", { class: "card" }, el("h2", {}, "Turns"), turnsBox)),
      el("div", {}, el("section", { class: "card" }, el("h2", {}, "Who holds what"), job, resultBox), el("section", { class: "card" }, adviceBox)),
    ),
  ),
);
try {
  render();
} catch {
  state = structuredClone(FRESH); // a stored game this page cannot draw: start afresh
  render();
}
analyseSoon();
