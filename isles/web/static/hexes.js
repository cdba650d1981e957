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

/**
 * Draw a board: ``board`` in the board format, ``options``: ``onhex(hex)``,
 * ``classes(hex)`` (extra classes of a hex), ``roads`` (edges), ``route`` (hexes).
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
  for (const entry of hexes) {
    const c = centre(entry.hex);
    const extra = options.classes ? options.classes(entry.hex) : "";
    const group = svg("g", { "data-hex": `${entry.hex[0]},${entry.hex[1]}` });
    const polygon = svg("polygon", {
      points: corners(c).map((p) => p.join(",")).join(" "),
      fill: TERRAIN_COLOURS[entry.terrain] || "#bbb",
      class: extra,
    });
    polygon.append(svg("title", {}, `${entry.hex[0]},${entry.hex[1]} ${entry.terrain}${entry.number ? " " + entry.number : ""}`));
    if (options.onhex) polygon.addEventListener("click", () => options.onhex(entry.hex));
    group.append(polygon);
    if (entry.number !== null && entry.number !== undefined) {
      group.append(svg("circle", { cx: c[0], cy: c[1], r: 10, class: "token" }));
      group.append(
        svg("text", { x: c[0], y: c[1] + 0.5, fill: entry.number === 6 || entry.number === 8 ? "#b3261e" : "#222" }, entry.number),
      );
    }
    root.append(group);
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
  return root;
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
