// The rally as it is played (docs/rally.md, docs/serve.md): what the rally page shows of
// isles.rally.plan_income (one car, cards from income) and isles.rally.race_cars (who
// arrives first). Only drawing here: the answers are the library's to_dict(), unchanged.
import { el, svg } from "./common.js";
import { hexLabel, hexName } from "./hexes.js";

export const RESOURCES = ["lumber", "wool", "grain", "brick", "ore"];
/** The player's rolls, in the order the page offers them (7 last: it brings no cards). */
export const ROLLS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 7];
export const TRADES = [
  ["none", "no trades"],
  ["bank", "the bank 4:1"],
  ["harbours", "the bank and harbours"],
];

/** The players who have buildings on a board (the cars' possible owners), sorted. */
export function owners(board) {
  const names = new Set(((board && board.buildings) || []).map((b) => b.player));
  return [...names].sort();
}

/** "2 settlements, 1 city" of a player's buildings on the board. */
export function buildingsText(board, player) {
  const mine = ((board && board.buildings) || []).filter((b) => b.player === player);
  const count = (kind) => mine.filter((b) => b.kind === kind).length;
  const parts = [];
  if (count("settlement")) parts.push(`${count("settlement")} settlement${count("settlement") > 1 ? "s" : ""}`);
  if (count("city")) parts.push(`${count("city")} cit${count("city") > 1 ? "ies" : "y"}`);
  return parts.length ? parts.join(", ") : "no buildings";
}

export function cardsText(cards) {
  const parts = Object.entries(cards || {}).filter(([, n]) => n).map(([name, n]) => `${n} ${name}`);
  return parts.length ? parts.join(", ") : "no cards";
}

function turns(x) {
  return x === null || x === undefined ? "–" : Number(x).toFixed(2);
}

function percent(p) {
  return p === null || p === undefined ? "–" : `${(100 * p).toFixed(1)}%`; // null: absent, not 0
}

function statusLine(status, id = "status") {
  const good = status === "optimal" || status === "exact";
  const words = {
    optimal: "optimal: the whole policy space solved",
    exact: "exact: each car's chance from the cars' joint chain (the policies as solved)",
    feasible: "feasible: the best policy of a restricted space (see below), not called optimal",
    estimate: "estimate (Monte Carlo, 95% intervals)",
    unreachable: "unreachable: this income never reaches a goal",
    timed_out: "timed out: the games played by the time limit",
  };
  return el("p", { class: `status ${good ? "good" : status === "feasible" || status === "estimate" ? "" : "bad"}`, id, dataset: { status } }, words[status] || status);
}

/** The whole policy space's certificate: the error bound of the expected turns, the card caps. */
function boundLine(answer) {
  const caps = Object.entries(answer.card_cap || {}).map(([k, v]) => `${k} ${v}`).join(", ") || "none";
  const bound = answer.error_bound === null
    ? "no error bound certified"
    : `at most ${answer.error_bound.toExponential(1)} turns more than shown`;
  // cap_lost (docs/json.md): whether the certified policy loses a card to the card caps
  const table = answer.cap_lost === false && answer.error_bound !== null
    ? ` The certified policy never loses a card to the caps: at the table the fewest expected turns are at most ${turns(answer.expected_turns + answer.error_bound)}.`
    : answer.cap_lost === true
      ? " The certified policy loses cards to the caps: these turns are of the capped game only."
      : "";
  return el("p", { class: "muted", id: "bound" },
    `The fewest expected turns are ${bound} (${answer.states} states; cards held at most: ${caps}).${table}`);
}

function restrictionList(restrictions, id = "restrictions") {
  if (!restrictions || !restrictions.length) return el("p", { class: "muted", id }, "No restriction of the policy space.");
  return el(
    "details",
    { id },
    el("summary", {}, `restricted by: ${restrictions.map((r) => r.name.replace(/_/g, " ")).join(", ")}`),
    el("ul", { class: "plain" }, ...restrictions.map((r) => el("li", { dataset: { restriction: r.name } }, r.text))),
  );
}

/**
 * P(arrived within t) as a small step chart and its table: ``series`` is a list of
 * ``{name, within: [{turns, probability}], colour}``.
 */
export function arrivalChart(series) {
  const horizon = Math.max(1, ...series.map((s) => s.within.length));
  const [w, h, left, bottom] = [320, 140, 30, 18];
  const x = (t) => left + ((w - left - 6) * t) / horizon;
  const y = (p) => h - bottom - (h - bottom - 6) * p;
  const root = svg("svg", { class: "chart", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": "P(arrived within t) by turn t" });
  Object.assign(root.style, { width: "100%", maxWidth: "28rem", height: "auto", display: "block" }); // CSSOM: allowed by the CSP
  const label = { "font-size": 10, fill: "#5b6776", "dominant-baseline": "middle" };
  for (const p of [0, 0.5, 1]) {
    root.append(svg("line", { x1: left, x2: w - 6, y1: y(p), y2: y(p), stroke: "#cfd6de", "stroke-width": 1 }));
    root.append(svg("text", { ...label, x: left - 3, y: y(p), "text-anchor": "end" }, p === 0.5 ? ".5" : String(p)));
  }
  for (const t of [1, Math.ceil(horizon / 2), horizon]) {
    root.append(svg("text", { ...label, x: x(t - 0.5), y: h - 6, "text-anchor": "middle" }, String(t)));
  }
  for (const s of series) {
    let points = `${x(0)},${y(0)}`;
    for (const { turns: t, probability: p } of s.within) {
      if (p !== null && p !== undefined) points += ` ${x(t - 1)},${y(p)} ${x(t)},${y(p)}`; // null: no games, no line
    }
    root.append(svg("polyline", { points, class: "arrival", fill: "none", "stroke-width": 2, stroke: s.colour || "#0b6bcb" }, svg("title", {}, s.name)));
  }
  return root;
}

function withinTable(within, id = "within") {
  const rows = within.filter(({ turns: t }) => t <= 10 || t % 5 === 0);
  return el(
    "div",
    { class: "scroll" },
    el(
      "table",
      { id },
      el("tr", {}, el("th", {}, "within t turns"), ...rows.map(({ turns: t }) => el("th", {}, String(t)))),
      el("tr", {}, el("th", {}, "P(arrived)"), ...rows.map(({ probability: p }) => el("td", { class: "p" }, percent(p)))),
    ),
  );
}

function pathText(board, path) {
  return path.map((h) => hexName(board, h)).join(" → ");
}

/** The advice of turn 1 for the roll just made, for the cards entered (``first_turn``). */
export function adviceBlock(board, answer, roll) {
  if (roll === null || roll === undefined) {
    return el("p", { class: "muted", id: "advice" }, "Tap the roll you just made for this turn's advice.");
  }
  const advice = (answer.first_turn || []).find((a) => a.roll === roll);
  if (!advice) return el("p", { class: "muted", id: "advice" }, `No advice for a roll of ${roll}.`);
  const trades = advice.trades.length
    ? advice.trades.map((t) => `give ${t.cards} ${t.give} for 1 ${t.take}`).join("; ")
    : "no trade";
  const move = advice.move ? `move to ${hexLabel(board, advice.move)}` : "wait: the car stays";
  return el(
    "div",
    { id: "advice", class: "turn" },
    el("h3", {}, `This turn, after a roll of ${roll}`),
    el("p", {}, `cards held: ${cardsText(advice.cards)}`),
    el("ul", { class: "plain" },
      el("li", { id: "advice-trades" }, `trade: ${trades}`),
      el("li", { id: "advice-reserve" }, `fuel reserve after the turn: ${cardsText(advice.reserve)}`),
      el("li", { id: "advice-move" }, el("strong", {}, move))),
    el("p", { class: "muted" }, `then ${turns(advice.expected_turns)} expected turns from here (this one included)`),
  );
}

/** What the drive's answer says: expected turns, status, P(arrived within t), route, advice. */
export function incomeBlock(board, answer, roll) {
  const parts = [statusLine(answer.status)];
  if (answer.expected_turns === null) {
    parts.push(el("p", { id: "expected" }, "The goals cannot be reached with this player's income."));
    return parts;
  }
  parts.push(
    el("p", { id: "expected" }, el("strong", {}, `${turns(answer.expected_turns)} expected turns`),
      ` to a goal (fewest under the best policy; ${answer.players} players, trade ${answer.trade}, 7-card rule ${answer.discard})`),
  );
  if (answer.method === "full") parts.push(boundLine(answer));
  parts.push(
    restrictionList(answer.restrictions),
    adviceBlock(board, answer, roll),
    el("p", { id: "heading" }, `heading for: ${pathText(board, answer.route)}`),
  );
  const cheap = answer.cheapest_cards_route;
  if (cheap) {
    parts.push(el("p", { class: "muted", id: "cheapest" },
      `the cheapest route in cards (${cheap.total_cards} cards, ${pathText(board, cheap.path)}) takes ${turns(cheap.expected_turns)} expected turns when the car commits to it`));
  }
  parts.push(
    el("h3", {}, "P(arrived within t turns)"),
    arrivalChart([{ name: answer.player, within: answer.within }]),
    withinTable(answer.within),
  );
  return parts;
}

const CAR_COLOURS = ["#c62828", "#1565c0", "#2e7d32", "#6a1b9a"];

/** What the race's answer says: each car's chance of arriving first, with its interval. */
export function raceBlock(board, answer) {
  const exact = answer.method === "exact";
  const header = el("tr", {}, el("th", {}, "seat"), el("th", {}, "car"), el("th", {}, "P(first)"),
    el("th", {}, exact ? "error" : "95% interval"), el("th", {}, "E[turns] alone"));
  const rows = answer.cars.map((car, i) => {
    const [lo, hi] = car.interval || [null, null]; // null: no game played before the time limit
    return el(
      "tr",
      { dataset: { car: String(i) } },
      el("td", {}, String(i + 1)),
      el("td", {}, `${car.player} from ${hexLabel(board, car.start)}`),
      el("td", { class: "p first" }, percent(car.first)),
      el("td", { class: "p" }, exact ? `± ${Number(answer.error).toExponential(0)}` : car.interval ? `${percent(lo)} .. ${percent(hi)}` : "–"),
      el("td", { class: "p" }, turns(car.expected_turns_alone)),
    );
  });
  const how = exact
    ? `the cars' joint chain (${answer.joint_states.toLocaleString("en")} states), ${answer.turns} rounds at most`
    : `${answer.games} games (seed ${answer.seed}), ${answer.turns} rounds at most`;
  return [
    statusLine(answer.status),
    el("p", { class: "muted", id: "race-how" }, how, `; ties: ${answer.tie_rule}`),
    el("div", { class: "scroll" }, el("table", { id: "race" }, header, ...rows)),
    answer.status === "timed_out" && !answer.games ? el("p", { class: "muted", id: "race-none" }, "no game finished before the time limit: no chance to show") : null,
    answer.no_winner ? el("p", { class: "muted" }, `no car arrived within ${answer.turns} rounds: ${answer.no_winner} games`) : null,
    exact && answer.no_winner_chance > answer.error ? el("p", { class: "muted" }, `no car arrives within ${answer.turns} rounds: ${percent(answer.no_winner_chance)}`) : null,
    restrictionList(answer.restrictions),
    el("h3", {}, "P(arrived within t rounds), each car in the race"),
    arrivalChart(answer.cars.map((car, i) => ({ name: car.player, within: car.within.slice(0, 40), colour: CAR_COLOURS[i] }))),
    el("div", { class: "legend" }, ...answer.cars.map((car, i) =>
      el("span", {}, el("span", { class: "swatch", style: { background: CAR_COLOURS[i] } }), car.player))),
  ];
}
