// Boards as SVG (docs/boards.md: axial [q, r], pointy-top, row r = -2 at the top).
import { el, svg } from "./common.js";

const SIZE = 30;
const ROOT3 = Math.sqrt(3);

export const TERRAIN_COLOURS = {
  forest: "#2e7d32",
  pasture: "#8bc34a",
  fields: "#f9a825",
  hills: "#c0612b",
  mountains: "#78909c",
  desert: "#d7c49e",
  sea: "#4f9fd8",
  gold: "#d4af37",
};

export function centre([q, r]) {
  return [SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r];
}

function corners([x, y]) {
  const points = [];
  for (let k = 0; k < 6; k += 1) {
    const angle = (Math.PI / 180) * (60 * k - 30);
    points.push([x + SIZE * Math.cos(angle), y + SIZE * Math.sin(angle)]);
  }
  return points;
}

/** The side two adjacent hexes share, as the two end points. */
export function sideOf([a, b]) {
  const [x1, y1] = centre(a);
  const [x2, y2] = centre(b);
  const length = Math.hypot(x2 - x1, y2 - y1);
  const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
  const [px, py] = [-(y2 - y1) / length, (x2 - x1) / length];
  const half = SIZE / 2;
  return [mx + px * half, my + py * half, mx - px * half, my - py * half];
}

export function sameHex(a, b) {
  return Boolean(a && b) && a[0] === b[0] && a[1] === b[1];
}

export function adjacent(a, b) {
  const dq = b[0] - a[0];
  const dr = b[1] - a[1];
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr)) === 1;
}

/** The board's entry at ``hex`` (``{hex, terrain, number}``), or null. */
export function entryAt(board, hex) {
  if (!board || !hex) return null;
  if (!board._index) {
    // A lookup kept beside the board, not in it (never saved nor sent).
    Object.defineProperty(board, "_index", { value: new Map((board.hexes || []).map((e) => [`${e.hex[0]},${e.hex[1]}`, e])), enumerable: false });
  }
  return board._index.get(`${hex[0]},${hex[1]}`) || null;
}

/** A hex as players see it: its terrain and number ("fields 5", "sea"). */
export function hexName(board, hex) {
  const entry = entryAt(board, hex);
  if (!entry) return "off the board";
  return entry.number === null || entry.number === undefined ? entry.terrain : `${entry.terrain} ${entry.number}`;
}

/** A hex's name with its axial position as a detail: "fields 5 (0,-2)". */
export function hexLabel(board, hex) {
  return `${hexName(board, hex)} (${hex[0]},${hex[1]})`;
}

/** The same, as an element whose position is set apart (class "at"). */
export function hexTag(board, hex) {
  return el("span", { class: "hex-name", dataset: { hex: `${hex[0]},${hex[1]}` } }, hexName(board, hex), " ", el("span", { class: "at muted" }, `(${hex[0]},${hex[1]})`));
}

// How a marked hex is outlined, drawn above every hex (a neighbour never hides it).
const MARKS = {
  start: { stroke: "#ffd400", strokeWidth: "4" },
  goal: { stroke: "#ff3d7f", strokeWidth: "4" },
  "default-goal": { stroke: "#ff3d7f", strokeWidth: "3.5", strokeDasharray: "6 3" },
  picked: { stroke: "#111", strokeWidth: "4" },
  placed: { stroke: "#ff3d7f", strokeWidth: "4" },
  end: { stroke: "#111", strokeWidth: "3", strokeDasharray: "2 3" },
};

function markOf(points, classes, hex) {
  const node = svg("polygon", { points: points.map((p) => p.join(",")).join(" "), class: `mark ${classes}`, fill: "none", "data-mark": `${hex[0]},${hex[1]}` });
  const look = MARKS[classes.split(" ")[0]] || MARKS.picked;
  Object.assign(node.style, look, { pointerEvents: "none", fill: "none" }); // CSSOM: allowed by the CSP
  return node;
}

/**
 * Draw a board: ``board`` in the board format, ``options``: ``onhex(hex)``,
 * ``classes(hex)`` (extra classes of a hex: start, goal, default-goal, picked,
 * placed), ``roads`` (edges), ``route`` (hexes). The layers, bottom to top: the
 * hexes, harbours and roads, the route, the outlines of marked hexes, the number
 * tokens (so the route line never hides a number).
 */
export function boardSvg(board, options = {}) {
  const hexes = board.hexes || [];
  const root = svg("svg", { class: "board", role: "img", "aria-label": "board" });
  if (hexes.length === 0) {
    root.setAttribute("viewBox", "-60 -40 120 80");
    root.append(svg("text", { x: 0, y: 0 }, "an empty table"));
    return root;
  }
  const xs = [];
  const ys = [];
  for (const entry of hexes) {
    const [x, y] = centre(entry.hex);
    xs.push(x);
    ys.push(y);
  }
  const pad = SIZE + 4;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  root.setAttribute("viewBox", `${minX} ${minY} ${Math.max(...xs) + pad - minX} ${Math.max(...ys) + pad - minY}`);
  const marks = svg("g", { class: "marks" });
  const tokens = svg("g", { class: "tokens" });
  for (const entry of hexes) {
    const c = centre(entry.hex);
    const extra = options.classes ? options.classes(entry.hex) : "";
    const group = svg("g", { "data-hex": `${entry.hex[0]},${entry.hex[1]}` });
    const polygon = svg("polygon", {
      points: corners(c).map((p) => p.join(",")).join(" "),
      fill: TERRAIN_COLOURS[entry.terrain] || "#bbb",
      class: extra,
    });
    polygon.append(svg("title", {}, `${hexName(board, entry.hex)} (${entry.hex[0]},${entry.hex[1]})`));
    if (options.onhex) polygon.addEventListener("click", () => options.onhex(entry.hex));
    group.append(polygon);
    root.append(group);
    if (extra) marks.append(markOf(corners(c), extra, entry.hex));
    if (entry.number !== null && entry.number !== undefined) {
      tokens.append(svg("circle", { cx: c[0], cy: c[1], r: 10, class: "token" }));
      tokens.append(
        svg("text", { x: c[0], y: c[1] + 0.5, fill: entry.number === 6 || entry.number === 8 ? "#b3261e" : "#222" }, entry.number),
      );
    }
  }
  for (const harbour of board.harbours || []) {
    const [x1, y1, x2, y2] = sideOf(harbour.edge);
    root.append(svg("line", { x1, y1, x2, y2, class: "harbour" }, svg("title", {}, `harbour ${harbour.kind}`)));
    const [cx, cy] = [(x1 + x2) / 2, (y1 + y2) / 2];
    root.append(svg("text", { x: cx, y: cy - 8, fill: "#fff" }, harbour.kind === "generic" ? "3:1" : harbour.kind));
  }
  for (const road of options.roads || []) {
    const [x1, y1, x2, y2] = sideOf(road);
    root.append(svg("line", { x1, y1, x2, y2, class: "road" }));
  }
  if (options.route && options.route.length > 1) {
    const points = options.route.map((h) => centre(h).join(",")).join(" ");
    root.append(svg("polyline", { points, class: "route" }));
  }
  root.append(marks, tokens);
  return root;
}

/** What the outlines of ``kinds`` (keys of the marks: start, goal, ...) mean, as a legend. */
export function marksLegend(kinds) {
  return el(
    "div",
    { class: "legend marks-legend" },
    ...Object.entries(kinds).map(([kind, words]) => {
      const box = el("span", { class: "swatch" });
      const look = MARKS[kind] || MARKS.picked;
      Object.assign(box.style, { border: `2px ${look.strokeDasharray ? "dashed" : "solid"} ${look.stroke}`, background: "transparent" });
      return el("span", {}, box, words);
    }),
  );
}

/** The terrains' colours, named. */
export function legend() {
  return el(
    "div",
    { class: "legend" },
    ...Object.entries(TERRAIN_COLOURS).map(([name, colour]) =>
      el("span", {}, el("span", { class: "swatch", style: { background: colour } }), name),
    ),
  );
}
