// isles serve: the home page, a link to each game (docs/serve.md).
import { el, header } from "./common.js";

const pages = [
  ["/plunder", "Plunder notepad", "Note each turn's clue and answers; see who holds what, exactly."],
  ["/lighthouse", "Lighthouse advisor", "Tap the lighthouses, the boat, Maurice and the roll: the best move and its odds."],
  ["/rally", "Rally planner", "Tap the start, the goal, your roads and your cards: the cheapest route on the board."],
  ["/setup", "Board set-up", "Lay a base, extension or ships board by the rules you choose."],
];

document.body.prepend(
  header("/"),
  el(
    "main",
    {},
    el("h1", {}, "isles at the table"),
    ...pages.map(([href, title, text]) =>
      el("section", { class: "card" }, el("h2", {}, el("a", { href }, title)), el("p", { class: "muted" }, text)),
    ),
    el(
      "p",
      { class: "muted" },
      "Everything you enter stays in this browser and can be undone; nothing leaves this computer. " +
        "“Share link” carries a whole game to another browser in the link itself.",
    ),
  ),
);
