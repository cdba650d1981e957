// The Plunder notepad (docs/serve.md, docs/plunder.md): the record is the page's
// state, in the record format; every change is one undo step (history.js) and is
// analysed by isles.plunder.analyse. Nothing entered is ever lost: fewer players
// hide the answers of the others (more players show them again), a deletion asks
// first and can be undone, and a turn still being entered is a draft, not counted
// and not an error, while the grid keeps the result of the complete turns.
import {
  clearErrors, download, el, fieldError, fill, getJSON, header, jobPanel,
  postJSON, probabilityText, select, showError, uploadButton,
} from "./common.js";
import { History, confirmThen, historyButtons } from "./history.js";

const CATEGORIES = ["island", "marker", "trap"];
const VALUES = [0, 1, 2, 3, 4, 5];
const KEY = "plunder";
const FRESH = { record: { players: 4, observations: [] }, open: null };

function drawable(s) {
  const rec = s && s.record;
  const code = (c) => c && CATEGORIES.every((k) => Number.isInteger(c[k]));
  return Boolean(
    rec &&
      Number.isInteger(rec.players) &&
      Array.isArray(rec.observations) &&
      rec.observations.every((t) => t && Number.isInteger(t.active) && code(t.clue) && t.answers && typeof t.answers === "object") &&
      (rec.me === undefined || (rec.me && Number.isInteger(rec.me.player) && code(rec.me.code))),
  );
}

const store = new History(KEY, FRESH);
if (!drawable(store.state)) store.replace(structuredClone(FRESH)); // a stored game this page cannot draw
const job = jobPanel({ remember: KEY }); // a question a reload interrupts is asked again
const undoButtons = historyButtons(store); // made once: it listens to the store
const setupBox = el("div");
const turnsBox = el("div");
const resultBox = el("div", { id: "result" });
const adviceBox = el("div", { id: "advice" });
let lastAnalysis = null; // {analysis, sent}: the result of the complete turns last analysed
let lastSent = null; // the JSON of the request it answers

function state() {
  return store.state;
}

/** One change: ``fn`` edits a copy of the state; the copy becomes one undo step. */
function edit(labelText, fn) {
  const s = state();
  fn(s);
  store.change(labelText, s);
}

function label(rec, category, value) {
  const names = rec.names;
  return names && names[category] ? String(names[category][value]) : String(value);
}

function playerLabel(rec, player) {
  return rec.me && rec.me.player === player ? `P${player} (me)` : `P${player}`;
}

function mine(rec) {
  return rec.me && rec.me.player < rec.players ? rec.me : null;
}

/** My truthful answer to a clue: yes when one card of my code is shown (docs/plunder.md). */
function myAnswer(me, clue) {
  return CATEGORIES.some((c) => me.code[c] === clue[c]);
}

/** Why a turn is not counted yet (a draft), or null when it is complete. */
function draftReason(rec, turn) {
  const n = rec.players;
  if (turn.active >= n) return `P${turn.active} is not in a ${n}-player game: pick the active player`;
  const index = rec.observations.indexOf(turn);
  const before = index > 0 ? rec.observations[index - 1] : null;
  if (before && CATEGORIES.filter((c) => turn.clue[c] !== before.clue[c]).length > 1) {
    // A turn turns up one card at most (docs/plunder.md): the library's dig advice
    // refuses such a clue, so the notepad does not count it either.
    return `more than one card changed since Turn ${index}'s clue (a turn turns up one card at most): correct the clue`;
  }
  const me = mine(rec);
  const missing = [];
  for (let p = 0; p < n; p++) {
    if (p === turn.active || (me && me.player === p)) continue;
    if (turn.answers[String(p)] === undefined) missing.push(`P${p}`);
  }
  if (missing.length === 0) return null;
  return `waiting for ${missing.join(", ")}'s answer${missing.length > 1 ? "s" : ""}`;
}

/**
 * The record the library reads: the complete turns only, answers of players in the
 * game only, my answers from my code. ``sent[k]`` is the turn of observation k.
 */
function view(s) {
  const rec = s.record;
  const n = rec.players;
  const me = mine(rec);
  const out = { ...rec, players: n, observations: [] };
  delete out.me;
  if (me) out.me = { player: me.player, code: { ...me.code } };
  const sent = [];
  const drafts = [];
  rec.observations.forEach((turn, index) => {
    const reason = draftReason(rec, turn);
    if (reason) {
      drafts.push({ index, reason });
      return;
    }
    const answers = {};
    for (let p = 0; p < n; p++) {
      if (p === turn.active) continue;
      answers[String(p)] = me && me.player === p ? myAnswer(me, turn.clue) : turn.answers[String(p)];
    }
    out.observations.push({ active: turn.active, clue: { ...turn.clue }, answers });
    sent.push(index);
  });
  return { record: out, sent, drafts };
}

/**
 * The first turn not counted yet with a counted turn after it, or null. Dig advice
 * plays the game on from the turns in order, one card turned up a turn: it waits
 * for such a turn, while the grid and the flip and guess advice count the others.
 */
function digGap(sent, drafts) {
  const last = sent.length ? sent[sent.length - 1] : -1;
  const gap = drafts.find((d) => d.index < last);
  return gap === undefined ? null : gap.index;
}

/** A policy of the games played on, in words: "threshold:0.5" -> "the others dig once a code is 50% likely". */
function policyWords(name) {
  const [key, argument] = String(name).split(":");
  if (key === "threshold") {
    const p = argument === undefined ? 0.5 : Number(argument);
    return `the others dig once a code is ${Math.round(p * 100)}% likely`;
  }
  if (key === "search") return "every seat plans by search";
  return `the others play the ${key} policy${argument === undefined ? "" : ` (${argument})`}`;
}

/** The dig advice's refusal in the page's words: "Turn N", no Python values. */
function digWords(error, sent) {
  const field = String(error.field || "");
  const turn = field.match(/^record\.observations\[(\d+)\]/);
  if (turn && error.expected) {
    const k = Number(turn[1]);
    return `Turn ${(sent[k] === undefined ? k : sent[k]) + 1}: expected ${error.expected}`;
  }
  return pageWords(error, sent).message;
}

/** The library's wording of a field, in the page's words: turn 3, my code, players. */
function pageWords(error, sent) {
  const turnOf = (k) => (sent[k] === undefined ? k : sent[k]);
  const field = error.field ? String(error.field).replace(/observations\[(\d+)\]/, (_, k) => `observations[${turnOf(Number(k))}]`) : error.field;
  let message = String(error.message || "");
  message = message
    .replace(/^record\.observations\[(\d+)\]\.?/, (_, k) => `Turn ${turnOf(Number(k)) + 1} `)
    .replace(/^record\.me\.code\.?/, "My code ")
    .replace(/^record\.me\.player/, "I am")
    .replace(/^record\.me/, "I am")
    .replace(/^record\.players/, "Players")
    .replace(/^record\.names\.?/, "Card names ")
    .replace(/^record:/, "The record:")
    .replace(/ +:/, ":");
  return { ...error, field, message };
}

// Entering the game -----------------------------------------------------------------

function chips(rec, category, current, onpick, testid, disabled = false) {
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
          disabled,
          "aria-pressed": current === value ? "true" : "false",
          dataset: { value: String(value) },
          onclick: () => onpick(value),
        },
        label(rec, category, value),
      ),
    ),
  );
}

function hiddenCount(rec) {
  let count = 0;
  for (const turn of rec.observations) for (const key of Object.keys(turn.answers)) if (Number(key) >= rec.players) count++;
  return count;
}

function renderSetup() {
  const rec = state().record;
  const players = select(
    [2, 3, 4, 5, 6].map((n) => [n, `${n} players`]),
    rec.players,
    (value) => edit(`${value} players`, (s) => { s.record.players = Number(value); }),
    { id: "players" },
  );
  const meOptions = [["", "not known"], ...Array.from({ length: rec.players }, (_, p) => [p, `P${p}`])];
  if (rec.me && rec.me.player >= rec.players) meOptions.push([rec.me.player, `P${rec.me.player} (not in this game)`]);
  const me = select(
    meOptions,
    rec.me ? rec.me.player : "",
    (value) =>
      edit(value === "" ? "I am not known" : `I am P${value}`, (s) => {
        // My code is kept while I am "not known" (s.kept), and comes back with me.
        if (value === "") {
          if (s.record.me) s.kept = { ...s.record.me.code };
          delete s.record.me;
        } else {
          const code = s.record.me ? s.record.me.code : s.kept || { island: 0, marker: 0, trap: 0 };
          s.record.me = { player: Number(value), code: { ...code } };
        }
      }),
    { id: "me" },
  );
  const code = rec.me
    ? el(
        "div",
        { id: "my-code" },
        el("div", { class: "muted" }, "My code (my own answers are filled in from it):"),
        ...CATEGORIES.map((category) =>
          chips(rec, category, rec.me.code[category], (value) =>
            edit(`my ${category}: ${label(rec, category, value)}`, (s) => { s.record.me.code[category] = value; }), `me-${category}`),
        ),
      )
    : null;
  const hidden = hiddenCount(rec);
  fill(
    setupBox,
    el("div", { class: "row" }, undoButtons),
    el("div", { class: "row" }, el("label", { for: "players" }, "Players"), players, el("label", { for: "me" }, "I am"), me),
    hidden
      ? el("p", { class: "muted", id: "hidden-answers" }, `${hidden} answer${hidden > 1 ? "s" : ""} of players past P${rec.players - 1} kept, hidden: more players shows them again.`)
      : null,
    fieldError("record.players"),
    code,
    fieldError("record.me"),
  );
}

function answerButton(rec, turn, index, player) {
  const me = mine(rec);
  if (me && me.player === player) {
    const said = myAnswer(me, turn.clue);
    return el(
      "button",
      {
        type: "button",
        class: `chip mine ${said ? "yes" : "no"}`,
        disabled: true,
        dataset: { turn: String(index), player: String(player), mine: "1" },
        title: "my answer, from my code",
      },
      `${playerLabel(rec, player)}: ${said ? "yes" : "no"}`,
    );
  }
  const given = turn.answers[String(player)];
  const text = given === true ? "yes" : given === false ? "no" : "?";
  const next = given === undefined ? true : given === true ? false : undefined;
  return el(
    "button",
    {
      type: "button",
      class: `chip ${given === true ? "yes" : given === false ? "no" : ""}`,
      dataset: { turn: String(index), player: String(player) },
      title: "tap: yes, no, not yet",
      onclick: () =>
        edit(`turn ${index + 1}: P${player} ${next === undefined ? "not yet" : next ? "yes" : "no"}`, (s) => {
          const answers = s.record.observations[index].answers;
          if (next === undefined) delete answers[String(player)];
          else answers[String(player)] = next;
        }),
    },
    `${playerLabel(rec, player)}: ${text}`,
  );
}

/** Whose turn it is now: the player after the last turn's active player. */
function nextActive(rec) {
  const last = rec.observations[rec.observations.length - 1];
  return last ? (last.active + 1) % rec.players : 0;
}

function whoseTurn(rec) {
  const p = nextActive(rec);
  const me = mine(rec);
  if (me && me.player === p) return `It is my turn (P${p}).`;
  if (!me) return `It is P${p}'s turn.`;
  const wait = (me.player - p + rec.players) % rec.players;
  return `It is P${p}'s turn; mine (P${me.player}) comes after ${wait} more turn${wait === 1 ? "" : "s"}.`;
}

function renderTurns() {
  const s = state();
  const rec = s.record;
  const last = rec.observations.length - 1;
  const open = s.open === undefined || s.open === null || s.open > last ? last : s.open;
  const turns = rec.observations.map((turn, index) => {
    const others = Array.from({ length: rec.players }, (_, p) => p).filter((p) => p !== turn.active);
    const actives = Array.from({ length: rec.players }, (_, p) => [p, playerLabel(rec, p)]);
    if (turn.active >= rec.players) actives.push([turn.active, `P${turn.active} (not in this game)`]);
    const reason = draftReason(rec, turn);
    return el(
      "div",
      { class: `turn${reason ? " draft" : ""}`, dataset: { turn: String(index) } },
      el(
        "div",
        { class: "row" },
        el("h3", {}, `Turn ${index + 1}`),
        el("label", {}, "active"),
        select(
          actives,
          turn.active,
          (value) => edit(`turn ${index + 1}: P${value} active`, (t) => { t.record.observations[index].active = Number(value); }),
          { class: "active", "aria-label": `turn ${index + 1} active player` },
        ),
        el(
          "button",
          {
            type: "button",
            class: "delete-turn",
            onclick: () =>
              confirmThen(`Delete turn ${index + 1}? (Undo brings it back.)`, () =>
                edit(`delete turn ${index + 1}`, (t) => {
                  t.record.observations.splice(index, 1);
                  t.open = null;
                })),
          },
          "Delete turn",
        ),
      ),
      ...(open === index
        ? [
            el("div", { class: "muted" }, "Clue on the table (tap a card to flip it):"),
            ...CATEGORIES.map((category) =>
              chips(rec, category, turn.clue[category], (value) =>
                edit(`turn ${index + 1}: ${category} ${label(rec, category, value)}`, (t) => {
                  t.record.observations[index].clue[category] = value;
                }), `clue-${index}-${category}`),
            ),
          ]
        : [
            el(
              "div",
              { class: "row" },
              el("span", { class: "clue" }, "clue: ", CATEGORIES.map((c) => label(rec, c, turn.clue[c])).join(" · ")),
              el("button", { type: "button", class: "edit", onclick: () => store.replace({ ...state(), open: index }) }, "Edit clue"), // a view, not a change: no undo step
            ),
          ]),
      el("div", { class: "row answers" }, el("label", {}, "answers"), ...others.map((p) => answerButton(rec, turn, index, p))),
      reason ? el("p", { class: "draft-note muted" }, `Incomplete: ${reason} (not counted yet).`) : null,
      fieldError(`record.observations[${index}]`),
    );
  });
  const add = el(
    "button",
    {
      type: "button",
      class: "primary",
      id: "add-turn",
      onclick: () =>
        edit(`add turn ${rec.observations.length + 1}`, (t) => {
          const r = t.record;
          const prev = r.observations[r.observations.length - 1];
          r.observations.push({ active: nextActive(r), clue: prev ? { ...prev.clue } : { island: 0, marker: 0, trap: 0 }, answers: {} });
          t.open = null; // the new turn is the one being entered
        }),
    },
    `Add turn (P${nextActive(rec)} active)`,
  );
  fill(
    turnsBox,
    ...turns,
    fieldError("record.observations"),
    el("p", { id: "whose-turn", class: "status" }, whoseTurn(rec)),
    el("div", { class: "row" }, add),
  );
}

// The answer ------------------------------------------------------------------------

function countedNote(sent, drafts) {
  if (drafts.length === 0) return null;
  const list = drafts.map((d) => `turn ${d.index + 1}`).join(", ");
  return el(
    "p",
    { class: "muted", id: "counted" },
    `Counted: ${sent.length} turn${sent.length === 1 ? "" : "s"}; ${list} incomplete, not counted yet.`,
  );
}

function renderResult() {
  const s = state();
  const rec = s.record;
  const { sent, drafts } = view(s);
  if (!lastAnalysis) {
    fill(resultBox, el("p", { class: "muted" }, rec.observations.length ? "Complete a turn to start." : "Add a turn to start."), countedNote(sent, drafts));
    return;
  }
  const { analysis } = lastAnalysis;
  const turnOf = (k) => lastAnalysis.sent[k];
  if (analysis.status === "inconsistent") {
    const items = analysis.conflict.map((a) => {
      const index = turnOf(a.observation);
      const turn = rec.observations[index];
      const me = mine(rec);
      const said = turn ? (me && me.player === a.player ? myAnswer(me, turn.clue) : turn.answers[String(a.player)]) : undefined;
      const button = turnsBox.querySelector(`button[data-turn="${index}"][data-player="${a.player}"]`);
      if (button) button.classList.add("conflict");
      return el("li", {}, `Turn ${index + 1}: ${playerLabel(rec, a.player)} said ${said ? "yes" : "no"}`);
    });
    fill(
      resultBox,
      el("p", { class: "status bad", id: "status" }, "Inconsistent: these answers cannot all be true"),
      el("ul", { class: "plain", id: "conflict" }, ...items),
      el("p", { class: "muted" }, "Tap one of the marked answers to correct it."),
      countedNote(sent, drafts),
    );
    return;
  }
  const forced = new Set(analysis.forced.map((f) => `${f.player}.${f.category}.${f.value}`));
  const rows = [];
  // One block per category, its cards by the record's names, a row per player.
  CATEGORIES.forEach((category) => {
    rows.push(el("tr", {}, el("th", {}, category), ...VALUES.map((v) => el("th", { class: "card" }, label(rec, category, v)))));
    for (const player of analysis.players) {
      const cells = player[category].map((entry) => {
        const isForced = forced.has(`${player.player}.${category}.${entry.value}`);
        return el(
          "td",
          {
            class: `p${isForced ? " forced" : ""}`,
            title: `${playerLabel(rec, player.player)} ${category} ${label(rec, category, entry.value)}`,
            style: { background: `rgba(11, 107, 203, ${(0.55 * entry.p).toFixed(3)})` },
            dataset: { player: String(player.player), category, value: String(entry.value), exact: entry.p_exact },
          },
          probabilityText(entry.p, entry.p_exact),
        );
      });
      rows.push(el("tr", {}, el("th", {}, playerLabel(rec, player.player)), ...cells));
    }
  });
  const forcedItems = analysis.forced.map((f) =>
    el(
      "li",
      {},
      `${playerLabel(rec, f.player)} holds ${f.category} ${label(rec, f.category, f.value)}; proof (${f.proof_kind}): `,
      f.proof.map((a) => `turn ${turnOf(a.observation) + 1} ${playerLabel(rec, a.player)}`).join(", ") || "the cards in my hand",
    ),
  );
  fill(
    resultBox,
    el("p", { class: "status good", id: "status" }, `${analysis.status}: `, el("span", { id: "deals" }, String(analysis.deals)), " deals remain"),
    countedNote(sent, drafts),
    el("div", { class: "scroll" }, el("table", { id: "grid" }, ...rows)),
    el("h2", {}, "Forced values"),
    forcedItems.length ? el("ul", { class: "plain", id: "forced" }, ...forcedItems) : el("p", { class: "muted" }, "none yet"),
  );
}

/** Indices of the best entries: every one tied with the first (exact text when known). */
function tiedBest(items, exact, value) {
  if (items.length === 0) return new Set();
  const first = items[0];
  const tied = (item) =>
    exact(item) && exact(first) ? exact(item) === exact(first) : Math.abs(value(item) - value(first)) <= 1e-12 * Math.max(1, Math.abs(value(first)));
  return new Set(items.map((item, k) => (tied(item) ? k : -1)).filter((k) => k >= 0));
}

function renderAdvice(advice) {
  if (!advice) {
    fill(adviceBox, el("p", { class: "muted" }, "Advice: tap “Advice: flip and dig” (it is for the record as it is then)."));
    return;
  }
  const rec = state().record;
  const me = mine(rec);
  const flip = advice.flip;
  let flipPart;
  if (flip) {
    const best = tiedBest(flip.options, () => null, (o) => o.expected_bits);
    const forMe = me && me.player === flip.active;
    flipPart = el(
      "div",
      {},
      el("h2", { id: "flip-title" }, forMe ? `Flip advice for my next turn (P${flip.active})` : `Flip advice for ${playerLabel(rec, flip.active)}'s turn`),
      el("p", { class: "muted" }, `With the clue ${CATEGORIES.map((c) => label(rec, c, flip.clue[c])).join(" · ")} on the table.`),
      el("div", { class: "scroll" }, el(
        "table",
        { id: "flip" },
        el("tr", {}, el("th", {}, "flip"), el("th", {}, "expected information (bits)")),
        ...flip.options.map((option, k) =>
          el("tr", { class: best.has(k) ? "best" : "" }, el("td", {}, option.deck || "no flip"), el("td", {}, option.expected_bits.toFixed(3))),
        ),
      )),
    );
  } else {
    flipPart = el("p", { class: "muted" }, "No flip advice: no clue on the table yet.");
  }
  const bestGuess = tiedBest(advice.guesses, (g) => g.expected_points_exact, (g) => g.expected_points);
  const guesses = el(
    "table",
    { id: "guesses" },
    el("tr", {}, el("th", {}, "dig on"), el("th", {}, "code"), el("th", {}, "probability"), el("th", {}, "expected points")),
    ...advice.guesses.map((g, k) =>
      el(
        "tr",
        { class: bestGuess.has(k) ? "best" : "" },
        el("td", {}, playerLabel(rec, g.target)),
        el("td", {}, CATEGORIES.map((c) => label(rec, c, g.code[c])).join(" · ")),
        el("td", {}, probabilityText(g.p, g.p_exact)),
        el("td", {}, probabilityText(g.expected_points, g.expected_points_exact)),
      ),
    ),
  );
  // Dig now or wait (isles.plunder.dig_advice): expected points with 95% intervals.
  let dig;
  if (advice.dig) {
    dig = el(
      "div",
      {},
      el("h2", {}, `Dig now or wait (${advice.dig.samples} simulated games, ${policyWords(advice.dig.policy)})`),
      advice.dig.stopped_at_time_limit
        ? el("p", { class: "muted", id: "dig-stopped" }, `Dig advice stopped at its time limit after ${advice.dig.samples} of ${advice.dig.samples_asked} games: the intervals are wider.`)
        : null,
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
              el("td", {}, playerLabel(rec, t.target)),
              el("td", {}, CATEGORIES.map((c) => label(rec, c, t.code[c])).join(" · ")),
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
    );
  } else if (advice.dig_gap !== undefined && advice.dig_gap !== null) {
    dig = el("p", { class: "muted", id: "dig-error" }, `Dig advice waits for Turn ${advice.dig_gap + 1} to be complete: it follows the turns in order.`);
  } else if (advice.dig_error) {
    dig = el("p", { class: "field-error", id: "dig-error" }, `Dig advice: ${digWords(advice.dig_error, lastAnalysis ? lastAnalysis.sent : [])}`);
  } else {
    dig = el("p", { class: "muted" }, "Dig advice needs my code (set who I am and my code).");
  }
  fill(adviceBox, flipPart, el("h2", {}, "Guess (crew card) advice"), el("div", { class: "scroll" }, guesses), dig);
}

let timer = null;

function analyseSoon() {
  clearTimeout(timer);
  timer = setTimeout(() => analyse(false), 250);
}

// (A refused record file stays said until the next file: showError's keep, which
// an analysis that ends meanwhile leaves.)

// How the games played on of "dig now or wait" are played: "" leaves it to the dig
// advice's default (the others dig once a code is 50% likely: fast); "search" plays
// every seat by the search policy (slow: as many games as the advice's 15 s allow).
const DIG_POLICIES = [
  ["", "Dig: others at 50% (fast)"],
  ["search", "Dig: by search (slow)"],
];
let digPolicy = "";
const digChoice = select(DIG_POLICIES, digPolicy, (value) => { digPolicy = value; }, { id: "dig-policy", "aria-label": "how the dig advice's games are played" });

/** The notepad's request: with the advice, the dig advice's policy if one is chosen. */
function notepadRequest(record, advise) {
  return advise && digPolicy ? { record, advise, dig_policy: digPolicy } : { record, advise };
}

/** Analyse the record (``advise``: with the advice); ``again``: asked again after a reload. */
async function analyse(advise, { again = false } = {}) {
  clearTimeout(timer); // an analysis due for an earlier change would cancel this one
  const { record, sent, drafts } = view(state());
  const gap = digGap(sent, drafts);
  const request = notepadRequest(record, advise);
  const text = JSON.stringify(request);
  if (!advise && text === lastSent && lastAnalysis) {
    clearErrors();
    renderResult(); // the complete turns are those already analysed: the grid stays
    return;
  }
  if (record.observations.length === 0 && !advise) {
    clearErrors();
    lastAnalysis = null;
    lastSent = null;
    renderResult();
    renderAdvice(null);
    return;
  }
  try {
    const analysis = await job.run("plunder", request, { again });
    clearErrors();
    lastAnalysis = { analysis, sent };
    lastSent = JSON.stringify({ record, advise: false });
    renderResult();
    renderAdvice(advise ? (gap === null ? analysis.advice : { ...analysis.advice, dig: undefined, dig_error: undefined, dig_gap: gap }) : null);
  } catch (error) {
    if (error.cancelled) return; // the grid stays; the job panel says "cancelled"
    clearErrors();
    // An error replaces the result beside it: a stale grid never stands next to it.
    lastAnalysis = null;
    lastSent = null;
    renderAdvice(null);
    if (error.field === null || error.field === undefined) {
      // No field to correct (a time limit, a lost server): said as what it is.
      fill(resultBox, el("p", { class: "status bad", id: "status" }, `No answer: ${error.message}`));
      return;
    }
    fill(resultBox, el("p", { class: "status bad", id: "status" }, "The record needs a correction (see the marked field)."));
    showError(pageWords(error, sent));
  }
}

function render() {
  renderSetup();
  renderTurns();
  renderResult();
}

store.onchange = (_, how) => {
  render();
  if (how !== "replace") renderAdvice(null);
  analyseSoon();
};

const shareBox = el("div", { class: "row", id: "share-box", hidden: true });

function share() {
  const link = store.toLink();
  const input = el("input", { type: "text", readonly: true, value: link, id: "share-link", "aria-label": "link to this game" });
  fill(shareBox, input, el("span", { class: "muted" }, "This link carries the whole game: open it on another phone."));
  shareBox.hidden = false;
  input.select();
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).catch(() => {});
}

const tools = el(
  "div",
  { class: "row" },
  el("button", { type: "button", class: "primary", id: "advise", onclick: () => analyse(true) }, "Advice: flip and dig"),
  digChoice,
  el("button", { type: "button", onclick: () => download("plunder-record.json", view(state()).record) }, "Download record"),
  uploadButton("Load record", "record", async (value) => {
    clearErrors();
    try {
      const checked = await postJSON("/api/plunder/record", { record: value });
      edit("load a record", (s) => {
        s.record = checked;
        s.open = null;
      });
    } catch (error) {
      // The file's own turns, not the ones on the page: said beside "Load record".
      showError({ field: "record", message: `The file: ${pageWords(error, []).message}` }, document, { keep: true });
    }
  }),
  el(
    "button",
    {
      type: "button",
      id: "example",
      onclick: async () => {
        const example = await getJSON("/api/examples/plunder");
        edit("the example game", (s) => {
          s.record = example;
          s.open = null;
        });
      },
    },
    "Example",
  ),
  el("button", { type: "button", id: "share", onclick: share }, "Share link"),
  el(
    "button",
    {
      type: "button",
      id: "new-game",
      onclick: () =>
        confirmThen("Start a new game? (Undo brings this one back.)", () =>
          edit("new game", (s) => {
            // A new game keeps the table: the players, the card names, who I am and my code.
            const { players, names, me } = s.record;
            s.record = { players, observations: [], ...(names ? { names } : {}), ...(me ? { me } : {}) };
            s.open = null;
          }), "New game"),
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
      el("div", {}, el("section", { class: "card" }, el("h2", {}, "Game"), setupBox, tools, shareBox, fieldError("record"), fieldError("")),
        el("section", { class: "card" }, el("h2", {}, "Turns"), turnsBox)),
      el("div", {}, el("section", { class: "card" }, el("h2", {}, "Who holds what"), job, resultBox), el("section", { class: "card" }, adviceBox)),
    ),
  ),
);

// A shared link opens its game: one undo step, so the game it replaced comes back.
const linked = History.fromLink(window.location.hash, KEY);
if (linked !== null) {
  window.history.replaceState(null, "", window.location.pathname);
  if (drawable(linked)) store.change("open a shared link", linked);
}
store.onLink((shared) => { if (drawable(shared)) store.change("open a shared link", shared); });
try {
  render();
} catch {
  store.replace(structuredClone(FRESH)); // a stored game this page cannot draw: start afresh
  render();
}
renderAdvice(null);
// Reloaded while the advice was being answered: asked again, if the record is still
// the one asked about (an analysis alone is asked again after any reload anyway).
const asking = job.pending();
if (linked === null && asking && asking.kind === "plunder" && asking.body && asking.body.advise === true) {
  digPolicy = DIG_POLICIES.some(([value]) => value === asking.body.dig_policy) ? asking.body.dig_policy : "";
  digChoice.value = digPolicy;
}
if (linked === null && asking && asking.kind === "plunder" && asking.body && asking.body.advise === true && JSON.stringify(asking.body) === JSON.stringify(notepadRequest(view(state()).record, true))) analyse(true, { again: true });
else {
  job.forget();
  analyseSoon();
}
