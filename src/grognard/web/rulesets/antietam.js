// Battle of Antietam's own panels for the generic game page (game.js): the 42 x 36 square battlefield drawn as
// the manual's map card shows it (§IA1.3, Figure 1.4: contour lines for the four levels, the creek with its
// bridges and fords, the Potomac, roads, woods, cornfields, the town, the victory squares), NORTH UP: the map's
// row 0 is its south edge and x grows westward (docs/rules/antietam.md), so the page draws it mirrored both
// ways (the public map's grid says so: flip_columns, flip_rows). Units as the manual's symbols (Figure 1.5,
// turned to their facing) or icons (§IA2.1 #9); the seat's own fire and melee plots as arrows; the unit
// display of §B3.2 / §IA7.2 (both pages); the combat steps with each roll and table row (from the events);
// the activation prompt (§IA3.1); the time limit per operation phase (§IA2.1 #6) as a clock; the end screen
// (§IA10). Everything drawn comes from the public map and the seat's view: an enemy unit not sighted is not
// in the view, so it is not here to draw.

import { el, human } from "../api.js";
import { star, svg } from "../hexmap.js";

const S = 20; // half a square, in map units (hexmap.js)
const DIRS = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]]; // the engine's directions 1-8
const LEVEL_FILL = { 1: "#b4cb8c", 2: "#c8d39a", 3: "#dad7a4", 4: "#e6cf98" }; // lowest (the creek) to highest
const SIDE = {
  union: { fill: "#2d5fa8", stroke: "#0f2748", text: "#ffffff" }, // "Union symbols are blue" (§IA1.5)
  confederate: { fill: "#f4f2ec", stroke: "#3b3b3b", text: "#1d1d1d" }, // "Confederate symbols are white"
};
const TYPE_SHORT = { infantry: "INF", cavalry: "CAV", artillery: "ART" };

let MAP = null;
let LEGEND = {};
let LAST = null; // the last ctx the page gave us (keys and the clock act on it)
let MELEE = false; // M: the next fire plot is a melee too (§IA7.13)
let ADVANCE = true; // A: a melee plot plots the advance too (§IA7.13: toggled back with A)
let HIDE_UNITS = false; // T: the units off the map, to see the terrain
let FACING = false; // D: the next digit is a facing
let DIVISION = false; // I: the division of the selected unit shown
const EVENTS = new Map(); // seat -> {update, list}: the seat's event log, as game.js keeps it
const CLOCK = { tag: "", deadline: 0 }; // the operation phase's time limit (§IA2.1 #6), as the server keeps it
const FRESH = { at: -1, since: 0 }; // the combat phase last shown, and when (its steps appear one by one)

const label = (cell) => `${cell % MAP.grid.columns},${Math.floor(cell / MAP.grid.columns)}`;
const cellOf = (text) => {
  const m = /^(\d+),(\d+)$/.exec(String(text));
  return m ? Number(m[2]) * MAP.grid.columns + Number(m[1]) : null;
};
const sideName = (s) => LEGEND.sides?.[s] || human(s);
const family = (legal, kind) => legal?.choices?.find((f) => f.kind === kind) || null;
const yn = (b) => (b ? "Y" : "N");
const geo = (d) => {
  // a direction number (§IA7.9) as a compass point of the real battlefield (x grows westward, y northward)
  const [dx, dy] = DIRS[d - 1];
  return `${dy > 0 ? "N" : dy < 0 ? "S" : ""}${dx > 0 ? "W" : dx < 0 ? "E" : ""}`;
};
// the screen's way of a direction: the layout mirrors the grid
const screenDir = (layout, d) => {
  const [dx, dy] = DIRS[d - 1];
  return [layout.flipCols ? -dx : dx, layout.flipRows ? -dy : dy];
};

function onMap(st) {
  return (st.units || []).filter((u) => u.cell >= 0);
}

function leaderWords(u) {
  return u.leaders?.length ? u.leaders.join(", ") : "";
}

// --- the battlefield, drawn once ------------------------------------------------------------------------------
function drawStatic(hexmap) {
  const { layout, map } = hexmap;
  hexmap.root.classList.add("atm");
  for (const node of hexmap.layers.relief.querySelectorAll(".elev")) node.remove(); // our own tints and contours
  const elev = map.elevation || [];
  const cols = map.grid.columns;
  // the ground by its level, then woods, cornfields, town and the Potomac over it
  map.terrain.forEach((t, cell) => {
    const colour = t === "river" ? "#5d8fc4" : t === "woods" ? "#5e8c48" : t === "cornfield" ? "#e2c35e" : t === "town" ? "#cdbda6" : LEVEL_FILL[elev[cell]] || "#d0d0a0";
    hexmap.fill(cell, colour);
  });
  const relief = hexmap.layers.relief;
  map.terrain.forEach((t, cell) => {
    const [x, y] = layout.center(cell);
    if (t === "woods") {
      for (const [dx, dy] of [[-9, -8], [4, -10], [-2, 1], [10, -1], [-11, 8], [3, 10], [12, 11]]) svg("circle", { cx: x + dx, cy: y + dy, r: 5.2, class: "atm-tree" }, relief);
    } else if (t === "cornfield") {
      for (const dy of [-12, -6, 0, 6, 12]) svg("line", { x1: x - 16, y1: y + dy, x2: x + 16, y2: y + dy, class: "atm-corn" }, relief); // "orange lines"
    } else if (t === "town") {
      // "four white boxes with white crossroads"
      svg("path", { d: `M${x - S},${y} H${x + S} M${x},${y - S} V${y + S}`, class: "atm-town-street" }, relief);
      for (const [dx, dy] of [[-13, -13], [4, -13], [-13, 4], [4, 4]]) svg("rect", { x: x + dx, y: y + dy, width: 9, height: 9, class: "atm-house" }, relief);
    }
  });
  // contour lines where the level changes (§IA1.3 "four elevations are represented by contour lines"; Figure 1.4
  // "Ridge = an orange line"), on the sides between squares of different levels
  const contours = svg("g", { class: "atm-contours" }, relief);
  for (let cell = 0; cell < elev.length; cell++) {
    const col = cell % cols;
    for (const n of [cell + 1, cell + cols]) {
      if (n >= elev.length || (n === cell + 1 && col === cols - 1) || elev[n] === elev[cell]) continue;
      const [x1, y1] = layout.center(cell);
      const [x2, y2] = layout.center(n);
      const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
      const [hx, hy] = [(y2 - y1) / 2, (x2 - x1) / 2];
      svg("line", { x1: mx - hx, y1: my - hy, x2: mx + hx, y2: my + hy, class: Math.abs(elev[n] - elev[cell]) > 1 ? "atm-contour steep" : "atm-contour" }, contours);
    }
  }
  // roads ("white line") and the Sunken Road
  const roads = hexmap.layers.roads;
  for (const cls of ["atm-road-edge", "atm-road"]) {
    for (const [a, b] of map.edges?.road || []) {
      const [x1, y1] = layout.center(a);
      const [x2, y2] = layout.center(b);
      svg("line", { x1, y1, x2, y2, class: cls }, roads);
    }
  }
  const line = (cells) => cells.map((c) => layout.center(c).join(",")).join(" ");
  if (LEGEND.sunken_road?.length) {
    svg("polyline", { points: line(LEGEND.sunken_road), class: "atm-sunken" }, roads);
    const [x, y] = layout.center(LEGEND.sunken_road[Math.floor(LEGEND.sunken_road.length / 2)]);
    svg("text", { x, y: y - S * 0.6, class: "atm-place road" }, hexmap.layers.places).textContent = "Sunken Road";
  }
  // Antietam Creek ("Stream = blue line"), from the north edge to the Potomac
  if (LEGEND.creek?.length) svg("polyline", { points: line(LEGEND.creek), class: "atm-creek" }, roads);
  // the bridges ("white I-beam shape") along their road, the historical fords ("white dashed line") across
  const places = hexmap.layers.places;
  map.terrain.forEach((t, cell) => {
    if (t === "bridge") bridge(hexmap, cell, places);
    if (t === "ford") ford(hexmap, cell, places, "atm-ford");
  });
  // the places' names: farms, woods, fields, the town, bridges and fords
  for (const p of map.places || []) {
    if (p.kind === "victory") continue;
    const pts = p.cells.map((c) => layout.center(c));
    const x = pts.reduce((s, q) => s + q[0], 0) / pts.length;
    const y = Math.min(...pts.map((q) => q[1])) - (p.cells.length > 1 ? S + 3 : S * 0.55);
    const t = svg("text", { x, y, class: `atm-place ${p.kind}` }, places);
    t.textContent = p.name;
  }
  const river = map.terrain.map((t, c) => (t === "river" ? layout.center(c) : null)).filter(Boolean);
  if (river.length) {
    const [x, y] = [river.reduce((a, q) => a + q[0], 0) / river.length, river.reduce((a, q) => a + q[1], 0) / river.length];
    svg("text", { x, y, class: "atm-river", transform: `rotate(-90 ${x} ${y})` }, places).textContent = "Potomac River";
  }
  // the victory squares with their points (§IA10.1); the holder is drawn with the view
  for (const v of LEGEND.victory || []) {
    const [x, y] = layout.center(v.cell);
    const g = svg("g", { class: "atm-vp", "data-vp": label(v.cell) }, places);
    svg("rect", { x: x - S + 1.5, y: y - S + 1.5, width: 2 * S - 3, height: 2 * S - 3, rx: 3, class: "atm-vp-frame" }, g);
    svg("text", { x, y: y + S + 9, class: "atm-vp-points" }, g).textContent = `${v.points}`;
    svg("text", { x, y: y + S + 18, class: "atm-place victory" }, g).textContent = v.name;
    svg("title", {}, g).textContent = `${v.name} (${label(v.cell)}): ${v.points} points to the Union in possession, ${v.in_zoc} if in the Confederate ZOC (§IA10.1)`;
  }
  // the square numbers along the edges, as the manual writes squares (x,y), and the north arrow
  const [w, h] = layout.size();
  const edge = svg("g", { class: "atm-edge" }, places);
  for (let x = 0; x < cols; x += 5) {
    const [cx] = layout.center(x);
    svg("text", { x: cx, y: -5, class: "atm-tick" }, edge).textContent = `x ${x}`;
  }
  for (let y = 0; y < map.grid.rows; y += 5) {
    const [, cy] = layout.center(y * cols);
    svg("text", { x: w + 3, y: cy + 3, class: "atm-tick start" }, edge).textContent = `y ${y}`;
  }
  const north = svg("g", { class: "atm-north", transform: `translate(${w - 34},${h - 60})` }, places);
  svg("circle", { cx: 0, cy: 0, r: 17 }, north);
  svg("path", { d: "M0,-14 L6,6 L0,2 L-6,6 Z" }, north);
  svg("text", { x: 0, y: -20 }, north).textContent = "N";
  svg("title", {}, north).textContent = "North is up: the map's row 0 is its south edge, x grows westward (docs/rules/antietam.md)";
  svg("text", { x: w - 34, y: h - 22, class: "atm-scale" }, places).textContent = "a square: 200 yd";
}

function roadWay(hexmap, cell) {
  const ends = (hexmap.map.edges?.road || []).filter(([a, b]) => a === cell || b === cell).map(([a, b]) => (a === cell ? b : a));
  if (ends.length >= 2) return [ends[0], ends[1]];
  const i = (LEGEND.creek || []).indexOf(cell);
  const across = LEGEND.creek?.[i + 1] ?? LEGEND.creek?.[i - 1];
  return across === undefined ? null : [across, null];
}

function bridge(hexmap, cell, layer) {
  const [x, y] = hexmap.layout.center(cell);
  const way = roadWay(hexmap, cell);
  let angle = 0;
  if (way && way[1] !== null) {
    const [x1, y1] = hexmap.layout.center(way[0]);
    const [x2, y2] = hexmap.layout.center(way[1]);
    angle = (Math.atan2(y2 - y1, x2 - x1) * 180) / Math.PI;
  }
  const g = svg("g", { class: "atm-bridge", transform: `translate(${x},${y}) rotate(${angle.toFixed(1)})` }, layer);
  svg("path", { d: `M${-S},-5 H${S} M${-S},5 H${S} M${-S},-9 V-1 M${S},-9 V-1 M${-S},1 V9 M${S},1 V9`, class: "atm-bridge-line" }, g);
}

function ford(hexmap, cell, layer, cls) {
  const [x, y] = hexmap.layout.center(cell);
  const i = (LEGEND.creek || []).indexOf(cell);
  const [a, b] = [LEGEND.creek?.[i - 1] ?? cell, LEGEND.creek?.[i + 1] ?? cell];
  const [x1, y1] = hexmap.layout.center(a);
  const [x2, y2] = hexmap.layout.center(b);
  const angle = (Math.atan2(y2 - y1, x2 - x1) * 180) / Math.PI + 90; // across the stream
  const g = svg("g", { class: cls, transform: `translate(${x},${y}) rotate(${angle.toFixed(1)})`, "data-ford": label(cell) }, layer);
  svg("line", { x1: -S + 2, y1: 0, x2: S - 2, y2: 0 }, g);
  return g;
}

// --- units: the manual's symbols (Figure 1.5) or icons ------------------------------------------------------
function shape(u, x, y, k, { symbols, layout, g }) {
  const look = SIDE[u.side] || SIDE.union;
  const paint = { fill: look.fill, stroke: look.stroke, "stroke-width": 1.2 };
  if (!symbols) {
    // icons ("figure profiles"): a counter with the soldier, horseman or gun
    const cx = x - 11 + k * 5;
    const cy = y - 11 - k * 5;
    svg("rect", { x: cx, y: cy, width: 22, height: 22, rx: 3, ...paint, class: "counter-bg" }, g);
    icon(u.type, cx + 11, cy + 11, look.text, g);
    return;
  }
  const d = u.facing || (u.side === "union" ? 3 : 7);
  const [sx, sy] = screenDir(layout, d);
  const angle = (Math.atan2(sy, sx) * 180) / Math.PI + 90; // local "up" (-y) is the facing
  const t = svg("g", { transform: `translate(${x},${y}) rotate(${angle.toFixed(1)})` }, g);
  svg("rect", { x: -15, y: -15, width: 30, height: 30, rx: 4, class: "counter-bg atm-hit" }, t);
  const back = k * 9; // a second unit of the square stands behind the first
  if (u.routed) {
    for (const dx of [-10, -2, 6]) svg("rect", { x: dx, y: back - 3, width: 6, height: 6, ...paint }, t); // "three solid boxes"
  } else if (u.type === "artillery" && u.mode === "limbered") {
    svg("rect", { x: -6, y: -6, width: 12, height: 12, fill: "none", stroke: look.stroke, "stroke-width": 2.2 }, t); // "hollow square with circle"
    svg("circle", { cx: 0, cy: 0, r: 2.6, ...paint }, t);
  } else if (u.type === "artillery") {
    // "six circles": flanking the infantry of the square, or alone in two rows of three
    const alone = k === 0;
    const pts = alone ? [[-8, -4], [0, -4], [8, -4], [-8, 4], [0, 4], [8, 4]] : [[-16, -3], [-16, 3], [-16, 9], [16, -3], [16, 3], [16, 9]];
    for (const [cx, cy] of pts) svg("circle", { cx, cy, r: 2.9, ...paint }, t);
  } else if (u.mode === "column" || u.mode === "mounted") {
    for (const dy of [-9, 1]) svg("rect", { x: -4.5, y: dy + back / 2, width: 9, height: 8, ...paint }, t); // "two solid boxes"
  } else {
    svg("rect", { x: -12, y: back - 3.5, width: 24, height: 7, ...paint }, t); // "solid rectangle"
    if (u.type === "cavalry") svg("line", { x1: -12, y1: back + 3.5, x2: 12, y2: back - 3.5, stroke: look.stroke, "stroke-width": 1.2 }, t);
  }
  if (k === 0 && u.facing) svg("path", { d: "M-4,-12 L0,-17 L4,-12", fill: "none", stroke: look.stroke, "stroke-width": 1.6 }, t); // the front
}

// icons: a soldier, a horseman, a gun, in the side's text colour
function icon(type, x, y, colour, g) {
  const a = { stroke: colour, fill: "none", "stroke-width": 1.5, "stroke-linecap": "round", "stroke-linejoin": "round" };
  const gg = svg("g", { ...a, transform: `translate(${x},${y})` }, g);
  if (type === "infantry") {
    svg("circle", { cx: 0, cy: -5.5, r: 2, fill: colour }, gg);
    svg("path", { d: "M0,-3.5 V3 M0,3 L-3,8 M0,3 L3,8 M-3.5,-1 L3.5,-1.8 M3,1 L5,-8.5" }, gg);
  } else if (type === "cavalry") {
    svg("path", { d: "M-7,2 Q0,-0.5 5,1.5 L7.5,-2 L8.5,-0.5 M-6,2.5 L-7,8 M-3,3 L-3,8 M3,3 L2.5,8 M5,2 L5.5,8 M-7,2 L-8.5,5" }, gg);
    svg("path", { d: "M0,1 V-4.5 M0,-4 L4,-8.5" }, gg);
    svg("circle", { cx: 0, cy: -6.5, r: 1.6, fill: colour }, gg);
  } else {
    svg("path", { d: "M-8,0 L6,-5", "stroke-width": 3 }, gg);
    svg("circle", { cx: -2, cy: 3, r: 4 }, gg);
    svg("path", { d: "M-2,3 L-8.5,6.5" }, gg);
  }
}

function drawUnits(hexmap, st, { seat, selected }) {
  const layer = hexmap.layers.units;
  const symbols = st.options?.display === "symbols";
  const byCell = new Map();
  for (const u of onMap(st)) {
    if (!byCell.has(u.cell)) byCell.set(u.cell, []);
    byCell.get(u.cell).push(u);
  }
  for (const [cell, units] of byCell) {
    const [x, y] = hexmap.layout.center(cell);
    const order = [...units].sort((a, b) => (a.type === "artillery") - (b.type === "artillery") || (a.id === selected ? -1 : b.id === selected ? 1 : 0));
    order.forEach((u, k) => {
      const own = u.side === seat;
      const classes = ["counter", "atm-unit", `side-${u.side}`, u.routed && "routed", u.disrupted && "disrupted", own && u.op === 0 && "spent", st.accessed === u.id && "accessed"];
      const g = svg("g", { class: classes.filter(Boolean).join(" "), "data-unit": u.id, "data-cell": cell }, layer);
      shape(u, x, y, u.type === "artillery" && symbols ? order.length - 1 : k, { symbols, layout: hexmap.layout, g });
      // marks: routed R, disrupted D, a leader's star, the unit picked up
      const mx = x + 12 + (symbols ? 0 : k * 5);
      const my = y - 14 - (symbols ? k * 9 : k * 5);
      if (u.routed) badge(g, mx, my, "R", "atm-mark-routed");
      if (u.disrupted) badge(g, mx, my + (u.routed ? 9 : 0), "D", "atm-mark-disrupted");
      if (u.leaders?.length) svg("path", { d: star(x - 13, y - 13 - k * 5, 4.5, 1.9), class: "atm-leader" }, g);
      const words = [`${sideName(u.side)} ${u.name}${own ? `, ${u.division ? `${u.division}'s division` : `${u.corps}'s artillery`}` : ""} at ${u.square}`];
      if (own) words.push(`${u.men ?? u.guns} ${u.guns !== undefined ? "guns" : "men"}, OP ${u.op}`);
      if (u.mode) words.push(u.mode);
      if (u.facing) words.push(`facing ${u.facing} (${geo(u.facing)})`);
      if (u.routed) words.push("routed");
      if (u.disrupted) words.push("disrupted");
      if (u.leaders?.length) words.push(`with ${leaderWords(u)}`);
      svg("title", {}, g).textContent = words.join("; ");
    });
  }
}

function badge(g, x, y, text, cls) {
  svg("circle", { cx: x, cy: y, r: 4.6, class: cls }, g);
  svg("text", { x, y: y + 2.6, class: "atm-mark-text" }, g).textContent = text;
}

// an arrow from one square to another (fire: dark; melee: red and heavy)
function arrow(hexmap, from, to, cls, layer, data = {}) {
  const [x1, y1] = hexmap.layout.center(from);
  const [x2, y2] = hexmap.layout.center(to);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const [ex, ey] = [x2 - ux * 10, y2 - uy * 10];
  const g = svg("g", { class: `atm-arrow ${cls}`, ...data }, layer);
  svg("line", { x1: x1 + ux * 8, y1: y1 + uy * 8, x2: ex - ux * 6, y2: ey - uy * 6 }, g);
  svg("path", { d: `M${ex},${ey} L${ex - ux * 9 - uy * 5},${ey - uy * 9 + ux * 5} L${ex - ux * 9 + uy * 5},${ey - uy * 9 - ux * 5}Z` }, g);
  return g;
}

// --- the unit display (§B3.2, §IA7.2) -------------------------------------------------------------------------
function display(u, st) {
  const head = `${u.side === "union" ? "UNION" : "CONFED"} ${u.name.toUpperCase().replace("-", " - ")} ${TYPE_SHORT[u.type]} ${u.guns ?? u.men} ${u.guns !== undefined ? "GUNS" : "MEN"}`;
  const where = `${(u.terrain || "").toUpperCase()}(${u.level ?? "?"})   X,Y:${u.square}`;
  const fire = u.fire ? u.fire : "NONE";
  if (st.options?.game === "basic") {
    return [[head, `${u.weapon}   EFF:${u.eff} FT:${u.fatigue} MORALE:${u.morale}`, `OP:${u.op}   MELEE:${yn(u.melee)}  FIRE:${fire}`, where].join("\n")];
  }
  const act = u.side === "union" ? ` ACT:${yn(u.active)}` : "";
  const page1 = [head, `DS:${yn(u.disrupted)} AMMO:${yn(u.ammo)} MEL:${yn(u.melee)} MRL:${u.morale} FIRE:${fire}`, `${(u.mode || "").toUpperCase()}  OP:${u.op} DIR:${u.facing} ADV:${yn(u.advance)}${act}`, where];
  const cc = u.command === undefined ? "" : ` CC.${u.command ? "IN" : "OUT"}`;
  const page2 = [head, `FORT:${u.fort ?? 0} ${(u.mode || "").toUpperCase()}${cc}`, `${u.weapon} EFF:${u.eff} FT:${u.fatigue}`, where];
  return [page1.join("\n"), page2.join("\n")];
}

function card(u, view, { seat }) {
  const st = view.state;
  const kind = human(u.type);
  if (u.side !== seat && u.men === undefined && u.guns === undefined) {
    // a sighted enemy: what the map shows of it, not its state (view.py)
    return {
      title: [`${sideName(u.side)} ${u.name} `, el("small", {}, kind)],
      rows: [["Square", u.square], u.mode ? ["Mode", u.mode] : null, u.facing ? ["Facing", `${u.facing} (${geo(u.facing)})`] : null, ["Status", u.routed ? "routed" : "in good order, as far as you can see"]],
    };
  }
  const pages = display(u, st);
  const rows = [
    ["Formation", u.division ? `${u.division}'s division, ${u.corps}'s corps` : `${u.corps}'s artillery`],
    [u.guns !== undefined ? "Guns" : "Men", String(u.guns ?? u.men)],
    ["Weapon", u.weapon],
    ["Effectiveness", String(u.eff)],
    ["Fatigue", String(u.fatigue)],
    ["Morale", String(u.morale)],
    ["Ammunition", u.ammo ? "yes" : "out (resupply at the start of the turn and mid-turn, §IA8.9)"],
    u.mode ? ["Mode", u.mode] : null,
    ["Operation points", String(u.op)],
    u.facing ? ["Facing", `${u.facing} (${geo(u.facing)})`] : null,
    ["Fire plot", u.fire ? `${u.fire}${u.melee ? ", melee" : ""}${u.advance ? ", advance" : ""}` : "none: fires at the nearest enemy in range"],
    u.command !== undefined ? ["Command control", u.command ? "in command (CC.IN)" : "out of command (CC.OUT): 5 OP (§IA4)"] : null,
    u.active !== undefined && u.side === "union" ? ["Activated", u.active ? "yes" : "no: may not move (§IA3.3)"] : null,
    u.held ? ["Held", u.held] : null,
    u.fort ? ["Fortification", String(u.fort)] : null,
    u.leaders?.length ? ["Leaders", leaderWords(u)] : null,
    ["Status", [u.routed && "routed", u.disrupted && "disrupted", u.moved && "moved", st.accessed === u.id && "picked up"].filter(Boolean).join(", ") || "normal"],
    ["Square", `${u.square}, ${u.terrain} (level ${u.level})`],
  ];
  return { title: [`${sideName(u.side)} ${u.name} `, el("small", {}, kind)], rows, pages };
}

// --- the combat steps, from the events ---------------------------------------------------------------------------
function eventsOf(update, seat) {
  let rec = EVENTS.get(seat);
  if (!rec) EVENTS.set(seat, (rec = { update: null, list: [] }));
  if (rec.update !== update) {
    rec.list = rec.list.slice(0, update.events_from).concat(update.events || []);
    rec.update = update;
  }
  return rec.list;
}

function distance(a, b) {
  const [ax, ay] = a.split(",").map(Number);
  const [bx, by] = b.split(",").map(Number);
  return Math.max(Math.abs(ax - bx), Math.abs(ay - by));
}

function stepLine(e, units) {
  if (e.kind === "fire") {
    const u = units.get(e.unit);
    const per = u?.guns !== undefined ? "gun" : "100 men";
    const mods = (e.modifiers || []).map(([n, p]) => `${n} ${p}%`).join(", ");
    return [`${u?.name || e.unit} (${e.at}) fires into ${e.target}: ${e.casualties} casualties`, `Weapon/range table: ${u?.weapon || "?"} at range ${distance(e.at, e.target)}: ${e.base} per ${per} × ${e.strength}; ${mods || "no modifier"}`];
  }
  if (e.kind === "roll") return [e.percent !== undefined ? `d100 ${e.value} against ${e.percent}%: ${e.success ? "yes" : "no"}` : `d${e.sides} ${e.value}`, e.why];
  return [e.text, ""];
}

// the last two combat phases (the seat's and the enemy's), each step as it resolved, the newest open
function combatBox(update, { seat }) {
  const list = eventsOf(update, seat);
  const starts = list.map((e, i) => (e.kind === "combat" ? i : -1)).filter((i) => i >= 0).slice(-2);
  if (!starts.length) return null;
  const newest = starts[starts.length - 1];
  if (FRESH.at !== newest) [FRESH.at, FRESH.since] = [newest, performance.now()];
  const units = new Map((update.view.state.units || []).map((u) => [u.id, u]));
  return starts.map((start) => {
    const endAt = list.findIndex((e, i) => i > start && ["operations", "turn", "combat"].includes(e.kind));
    const steps = list.slice(start + 1, endAt < 0 ? undefined : endAt).filter((e) => e.kind !== "plot");
    const fresh = start === newest && performance.now() - FRESH.since < 8000; // shown one by one the first time
    const box = el("details", { class: "atm-combat", open: start === newest ? "" : null, "data-combat": start }, el("summary", {}, `${list[start].text}: ${steps.length} steps (§IA8.1)`));
    const ol = el("ol", {});
    steps.slice(-120).forEach((e, k) => {
      const [main, sub] = stepLine(e, units);
      ol.append(el("li", { class: `atm-step ev-${e.kind}${fresh ? " appear" : ""}`, style: fresh ? `animation-delay: ${Math.min(k, 40) * 0.12}s` : null }, main, sub ? el("div", { class: "hint" }, sub) : null));
    });
    box.append(ol);
    return box;
  });
}

// --- the time limit per operation phase (§IA2.1 #6) -----------------------------------------------------------
function clockState(update) {
  // the server keeps the time (its message's time_left, seconds); the page counts down from when it came
  const left = update?.time_left;
  if (left === undefined || update.view.over) return null;
  if (CLOCK.tag !== update.tag) Object.assign(CLOCK, { tag: update.tag, deadline: Date.now() + left * 1000 });
  return { left: Math.max(0, CLOCK.deadline - Date.now()), minutes: update.view.state.options?.time_limit || 0 };
}

function clockText(c) {
  const s = Math.ceil(c.left / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  const c = LAST && clockState(LAST.update);
  const node = document.getElementById("atm-clock");
  if (!c || !node) return;
  // when the time is up the server ends the operation phase, as C would end it (docs/rules/antietam.md)
  node.textContent = `time left ${clockText(c)}`;
  node.classList.toggle("low", c.left < 30000);
}

// --- keys of the manual's menus (§B3.1, §B3.3, §IA7.1, §IA7.3) --------------------------------------------------
function onKey(e) {
  if (!LAST || e.target.closest?.("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const { legal, update } = LAST;
  const st = update.view.state;
  const k = e.key.toLowerCase();
  const accessed = st.accessed;
  if ((k === "y" || k === "n") && family(legal, "activate")) {
    // §IA3.1 activate or bypass the division offered: a YES/NO question (§IA1.2 "just press the desired key")
    const f = family(legal, k === "y" ? "activate" : "bypass");
    if (f?.values?.length) LAST.decide({ kind: f.kind, division: f.values[0] });
    return;
  }
  if (/^[1-8]$/.test(k) && legal) {
    const d = Number(k);
    if (FACING) {
      FACING = false;
      const f = family(legal, "face");
      if (f?.values?.includes(d)) LAST.decide({ kind: "face", unit: f.fixed.unit, facing: d });
      return;
    }
    // 1-8 move the unit picked up one square in that direction (the compass of the unit display)
    const move = family(legal, "move");
    const u = onMap(st).find((x) => x.id === accessed);
    if (!move || !u) return;
    const [dx, dy] = DIRS[d - 1];
    const to = cellOf(u.square);
    const target = to === null ? null : to + dy * MAP.grid.columns + dx;
    if (target !== null && move.values.includes(target)) LAST.decide({ kind: "move", ...move.fixed, to: label(target) });
    return;
  }
  const byUnit = { s: "mode", x: "force_march", b: "fortify", z: "abort" };
  if (byUnit[k] && accessed) {
    const f = family(legal, byUnit[k]);
    if (f?.values?.includes(accessed)) LAST.decide({ kind: byUnit[k], unit: accessed });
    return;
  }
  if (k === "d" && family(legal, "face")) FACING = true;
  else if (k === "i") DIVISION = !DIVISION;
  else if (k === "m") MELEE = !MELEE;
  else if (k === "a") ADVANCE = !ADVANCE;
  else if (k === "t") {
    HIDE_UNITS = !HIDE_UNITS;
    document.querySelector(".hexmap .layer-units")?.setAttribute("visibility", HIDE_UNITS ? "hidden" : "visible");
  } else return;
  if (LAST.rerender) LAST.rerender();
}

// the plot order for a unit at a square, with the melee toggle (§IA7.13: a melee plots the advance too)
function plotOrder(uid, square, st, adjacent) {
  if (!MELEE || !adjacent) return `${uid}@${square}`;
  return `${uid}@${square}${st.options?.game === "basic" || ADVANCE ? "!" : "!."}`;
}

function isAdjacent(a, b) {
  return distance(a, b) === 1;
}

// --- the module ----------------------------------------------------------------------------------------------
export default {
  keys: "Keys (the manual's): click one of your units to pick it up (SPACE; again: the next in the square, U), then a green square to move (or 1-8, the compass of the unit display), a red square to plot fire (F) · M melee on/off, A advance · S mode · D then 1-8 facing · X force march · B fortify · N next unit · Z abort (the unit back as picked up) · Q put down · C end the operation phase · V what the unit sees · I the division · T hide units · u undo · arrows pan · + − zoom",
  autoSelect: true, // the unit picked up stays selected (§B3.3)
  inspect: { sight: true }, // V: the squares the selected unit sees (the rules answer, view.inspect)
  sightKey: "v",

  keyKinds: { n: "next", q: "put_down", c: "end_phase" },

  clock: CLOCK, // the time limit's clock, counting down to the server's deadline

  units: (st) => onMap(st).map((u) => ({ ...u, at: u.square, short: u.name, title: `${u.name} at ${u.square}` })),

  setMap(map) {
    MAP = map;
    LEGEND = map.legend || {};
    if (!document.getElementById("atm-style")) {
      document.head.append(el("style", { id: "atm-style" }, STYLE));
      document.addEventListener("keydown", onKey);
      setInterval(tick, 1000);
    }
  },

  drawStatic,

  overviewPaint(map) {
    const elev = map.elevation || [];
    return (cell, t) => (t === "river" || t === "stream" || t === "ford" || t === "bridge" ? "#4f86c6" : t === "woods" ? "#5e8c48" : t === "town" ? "#9c8f7e" : t === "cornfield" ? "#e2c35e" : LEVEL_FILL[elev[cell]]);
  },

  fit(hexmap) {
    hexmap.fit();
  },

  draw(hexmap, view, c) {
    const st = view.state;
    LAST = { ...c, rerender: LAST?.rerender };
    hexmap.clear();
    const dyn = hexmap.layers.dynamic;
    // the random fords of this game (§IA1.3), dashed like the historical ones
    for (const f of st.fords || []) ford(hexmap, cellOf(f), dyn, "atm-ford random");
    // the victory squares' holders (§IA10.1)
    for (const v of st.victory_squares || []) {
      const cell = cellOf(v.square);
      const [x, y] = hexmap.layout.center(cell);
      const g = svg("g", { class: `atm-holder side-${v.holder}`, "data-vp": v.square, "data-holder": v.holder }, dyn);
      svg("circle", { cx: x + S - 6, cy: y + S - 6, r: 5.5, fill: SIDE[v.holder]?.fill || "#999", stroke: SIDE[v.holder]?.stroke || "#333" }, g);
      svg("title", {}, g).textContent = `${v.square}: ${v.points} points, held by the ${sideName(v.holder)}`;
    }
    // the division of the unit picked up (I, §IA7.3) and the squares it may fire into (F)
    const plot = family(c.legal, "plot");
    const targets = c.selected ? plot?.hint?.[c.selected] || [] : [];
    for (const t of targets) {
      const cell = cellOf(t);
      svg("polygon", { points: hexmap.layout.corners(cell, 0.92), class: "hl hl-attack atm-target", "data-cell": cell, "data-target": t }, dyn);
    }
    const mine = c.selected && onMap(st).find((u) => u.id === c.selected && u.side === c.seat);
    // §IA3.1 the division offered: "inverse all squares that contain units of that division"; I (§IA7.3): "All
    // units that belong to the same division as the accessed unit will be inversed"
    const offered = st.phase === "activation" && c.legal ? st.activation?.offer?.[0] : null;
    const division = offered || (DIVISION && mine?.division);
    if (division) {
      for (const u of onMap(st).filter((x) => x.side === c.seat && x.division === division)) {
        svg("polygon", { points: hexmap.layout.corners(u.cell, 0.96), class: "atm-division", "data-division": u.id }, dyn);
      }
    }
    if (!HIDE_UNITS) drawUnits(hexmap, st, c);
    // the seat's own fire and melee plots (§IA7.13) as arrows; the enemy's are not in the view
    for (const u of onMap(st)) {
      if (u.side !== c.seat || !u.fire) continue;
      const to = cellOf(u.fire);
      if (to !== null) arrow(hexmap, u.cell, to, u.melee ? "melee" : "fire", hexmap.layers.units, { "data-plot": u.id, "data-to": u.fire });
    }
  },

  // the header: the hour (§IA1.3), the phase (§IA2.3), whose decision, the score (§IA10), the clock (§IA2.1 #6)
  header(view, c) {
    const st = view.state;
    LAST = { ...c, update: c.update, rerender: LAST?.rerender };
    const clock = clockState(c.update);
    return [
      el("span", { id: "turn", class: "pill", title: `turn ${st.turn} of ${st.last_turn}: each an hour, 06:00 to 17:00 (§IA1.3)` }, `${st.time} · turn ${st.turn}/${st.last_turn}`),
      el("span", { id: "phase", class: "pill" }, view.over ? "the battle is over" : LEGEND.phases?.[st.phase] || human(st.phase)),
      c.whose(view),
      el("span", { id: "score", title: "victory points (§IA10.1): the enemy's losses, and the Union's for the victory squares" },
        el("span", { class: "score side-union" }, `Union ${st.score.union}`), " · ", el("span", { class: "score side-confederate" }, `Confederate ${st.score.confederate}`)),
      clock ? el("span", { id: "atm-clock", class: `pill atm-clock${clock.left < 30000 ? " low" : ""}`, title: `the time limit of the operation phase: ${clock.minutes} minutes (§IA2.1 #6), kept by the server` }, `time left ${clockText(clock)}`) : null,
    ];
  },

  panelTop(update, c) {
    const st = update.view.state;
    LAST = { ...c, update, rerender: () => c.select(c.selected) };
    const out = [];
    // §IA3.1 the activation prompt: the division offered, the activations left, the divisions active
    if (st.phase === "activation" && st.activation?.offer?.length && c.legal) {
      out.push(el("div", { class: "atm-activation" },
        el("strong", {}, `McClellan asks: activate ${st.activation.offer[0]}'s division? (Y / N)`),
        el("div", { class: "hint" }, `${st.activation.limit} activation${st.activation.limit === 1 ? "" : "s"} left this turn (§IA3.2); active: ${st.activation.active.join(", ") || "none yet"}; still to be offered: ${st.activation.offer.slice(1).join(", ") || "none"}`)));
    } else if (st.activation?.active?.length && c.seat === "union" && st.options?.game !== "basic") {
      out.push(el("div", { class: "hint atm-active" }, `Active divisions (§IA3): ${st.activation.active.join(", ")}`));
    }
    // F: the fire plot of the selected unit, with the melee toggle
    const plot = family(c.legal, "plot");
    const sel = c.selected && onMap(st).find((u) => u.id === c.selected && u.side === c.seat);
    if (plot && sel) {
      const targets = plot.hint?.[sel.id] || [];
      const box = el("div", { class: "atm-plot" });
      if (targets.length) {
        box.append(el("div", {}, `Fire (F): click a red square: ${targets.join(" ")}`),
          el("label", {}, el("input", { type: "checkbox", checked: MELEE ? "" : null, "data-atm": "melee", onchange: (e) => { MELEE = e.target.checked; } }), " melee the square too, if next to it (M)"));
        if (st.options?.game !== "basic") box.append(el("label", {}, el("input", { type: "checkbox", checked: ADVANCE ? "" : null, onchange: (e) => { ADVANCE = e.target.checked; } }), " and advance (A)"));
      } else if (sel.fire) box.append(el("div", { class: "hint" }, `plotted: fire into ${sel.fire}${sel.melee ? ", melee" : ""}`));
      else box.append(el("div", { class: "hint" }, "no enemy square in range and sight to plot fire into"));
      if (sel.fire || sel.melee) box.append(el("button", { "data-atm": "no-plot", onclick: () => c.decide({ kind: "plot", orders: [`${sel.id}@-`] }) }, "No plot (E)"));
      out.push(box);
    }
    if (c.legal && family(c.legal, "access")?.hint?.length && !st.accessed) {
      out.push(el("div", { class: "hint" }, `${family(c.legal, "access").hint.length} units may still act: click one to pick it up, or N for the next`));
    }
    out.push(...(combatBox(update, c) || []));
    return out;
  },

  // the unit display's two pages, as the screen printed them
  cellInfo(cell, view, c) {
    const here = onMap(view.state).filter((u) => u.cell === cell && u.side === c.seat);
    const out = here.flatMap((u) => display(u, view.state).map((text, i) => el("pre", { class: "atm-display", "data-unit": u.id, title: `the unit display, page ${i + 1} (§${view.state.options?.game === "basic" ? "B3.2" : "IA7.2"})` }, text)));
    const map = c.map;
    const place = (map?.places || []).find((p) => p.cells.includes(cell));
    out.push(el("p", { class: "muted" }, `${label(cell)}: ${human(map.terrain[cell])}, level ${map.elevation[cell]}${place ? `; ${place.name}` : ""}`));
    return out;
  },

  card,

  hover(cell, view, map) {
    const st = view.state;
    const place = (map.places || []).filter((p) => p.cells.includes(cell)).map((p) => (p.kind === "victory" ? `${p.name} (${p.value} points)` : p.name));
    const random = (st.fords || []).includes(label(cell));
    const here = onMap(st).filter((u) => u.cell === cell).map((u) => `${u.name} (${sideName(u.side)}${u.routed ? ", routed" : ""})`);
    return [random ? "ford (this game's)" : human(map.terrain[cell]), `level ${map.elevation[cell]}`, (map.features?.road || []).includes(cell) ? "road" : "", ...place, here.join(", ")];
  },

  // a click on the map: a red square plots fire there (F, T); a square of ours picks up its next ready unit
  // (SPACE, then U for the next in the square); anything else is the page's (a move, a selection)
  click(cell, c) {
    const st = c.update.view.state;
    if (!c.legal) return false;
    const plot = family(c.legal, "plot");
    const sel = c.selected && onMap(st).find((u) => u.id === c.selected);
    const square = label(cell);
    if (sel && plot?.hint?.[sel.id]?.includes(square)) {
      c.decide({ kind: "plot", orders: [plotOrder(sel.id, square, st, isAdjacent(sel.square, square))] });
      return true;
    }
    const move = family(c.legal, "move");
    if (move && move.fixed.unit === c.selected && move.values.includes(cell)) return false;
    const access = family(c.legal, "access");
    const ready = onMap(st).filter((u) => u.cell === cell && u.side === c.seat && access?.hint?.includes(u.id));
    if (!ready.length) return false;
    const next = ready[(ready.findIndex((u) => u.id === st.accessed) + 1) % ready.length];
    if (next.id === st.accessed) return false;
    c.decide({ kind: "access", unit: next.id });
    return true;
  },

  readyLabel: (u) => `${u.name} ${u.square}`,
  line: (u) => `${u.name} (${u.square})${u.routed ? " routed" : ""}`,

  optionText(f, v, legal, text) {
    if (f.kind === "face") return `face ${v} (${geo(v)})`;
    if (f.kind === "activate") return `Activate ${v}'s division`;
    if (f.kind === "bypass") return `Bypass ${v}'s division`;
    const keyed = { mode: "change mode (S)", force_march: "force march (X)", fortify: "fortify (B)" };
    if (keyed[f.kind]) return keyed[f.kind];
    return text;
  },

  cellClass: (f) => (f.kind === "move" ? "hl-move" : "hl-other"),
  familyName: (f) => ({ move: "move", face: "face (D)", mode: "change mode (S)", force_march: "force march (X)", fortify: "fortify (B)" })[f.kind] || human(f.kind),

  // a shot's arrow and a flash on its square; a melee's flash; where a unit advances
  animate(hexmap, e) {
    if (!MAP) return;
    if (e.kind === "fire" && e.at && e.target) {
      const node = arrow(hexmap, cellOf(e.at), cellOf(e.target), "shot", hexmap.layers.top);
      setTimeout(() => node.remove(), 1500);
    }
    if ((e.kind === "fired_on" || e.kind === "melee") && e.target) hexmap.flash([cellOf(e.target)], e.kind === "melee" ? "flash-red" : "flash");
    if (e.kind === "advance" && e.to) hexmap.flash([cellOf(e.to)]);
  },

  sideName,

  finalTitle(res) {
    return res.levels?.union || (res.winner ? `The ${sideName(res.winner)} wins` : "A draw");
  },

  // §IA10: the score, the level and both sides' losses (the full view once the battle is over)
  finalRows(res) {
    const st = LAST?.update?.view?.state || {};
    const rows = [`Score ${res.scores.union - res.scores.confederate}: Union ${res.scores.union} points, Confederate ${res.scores.confederate} (§IA10.2)`, `Level of victory: ${res.levels?.union}`];
    const l = st.losses;
    if (l) {
      rows.push(`Union losses: ${l.union[0]} infantry, ${l.union[1]} cavalry, ${l.union[2]} guns`);
      rows.push(`Confederate losses: ${l.confederate[0]} infantry, ${l.confederate[1]} cavalry, ${l.confederate[2]} guns`);
    }
    return rows;
  },
};

const STYLE = `
.atm .hex { stroke: #0000000f; stroke-width: 0.5; }
.atm-tree { fill: #3f6f31; stroke: #2a4d20; stroke-width: 0.6; opacity: 0.9; }
.atm-corn { stroke: #c9782a; stroke-width: 1.6; }
.atm-town-street { stroke: #fbf7ee; stroke-width: 3; }
.atm-house { fill: #fbf7ee; stroke: #6e5f4d; stroke-width: 0.8; }
.atm-contour { stroke: #c0622a; stroke-width: 1.8; stroke-linecap: round; opacity: 0.85; }
.atm-contour.steep { stroke-width: 3.2; }
.atm-road-edge { stroke: #6b4d31; stroke-width: 6.5; stroke-linecap: round; }
.atm-road { stroke: #fbf4dd; stroke-width: 3.8; stroke-linecap: round; }
.atm-sunken { fill: none; stroke: #5a3b22; stroke-width: 2.2; stroke-dasharray: 5 3; }
.atm-creek { fill: none; stroke: #2e6db4; stroke-width: 7; stroke-linecap: round; stroke-linejoin: round; }
.atm-bridge-line { fill: none; stroke: #ffffff; stroke-width: 2.6; }
.atm-bridge path { filter: drop-shadow(0 0 1px #000a); }
.atm-ford line, .atm-ford.random line { stroke: #ffffff; stroke-width: 3; stroke-dasharray: 4 3; }
.atm-ford.random line { stroke: #fff6b0; }
.atm-place { font: italic 600 10px Georgia, serif; text-anchor: middle; fill: #2b2118; paint-order: stroke; stroke: #f8f3e4; stroke-width: 2.4px; pointer-events: none; }
.atm-place.town { font: 700 12px Georgia, serif; letter-spacing: 1px; }
.atm-place.woods, .atm-place.cornfield { font-size: 10px; }
.atm-river { font: italic 700 11px Georgia, serif; text-anchor: middle; fill: #e8f1fb; letter-spacing: 1px; pointer-events: none; }
.atm-place.victory { font: 600 8px system-ui, sans-serif; fill: #6b4a00; }
.atm-vp-frame { fill: none; stroke: #b8860b; stroke-width: 2.4; stroke-dasharray: 6 3; }
.atm-vp-points { font: 800 9px system-ui, sans-serif; text-anchor: middle; fill: #6b4a00; paint-order: stroke; stroke: #fff8e0; stroke-width: 2.4px; pointer-events: none; }
.atm-tick { font: 600 9px system-ui, sans-serif; text-anchor: middle; fill: #5a5040; }
.atm-tick.start { text-anchor: start; }
.atm-north circle { fill: #fbf7eecc; stroke: #3b3226; stroke-width: 1; }
.atm-north path { fill: #3b3226; }
.atm-north text, .atm-scale { font: 700 10px system-ui, sans-serif; text-anchor: middle; fill: #3b3226; }
.atm .atm-unit .counter-bg { stroke: none; filter: none; }
.atm .atm-unit .atm-hit { fill: transparent; }
.atm .counter.selected .counter-bg, .atm .counter.accessed .counter-bg { stroke: #ffd21f; stroke-width: 2.6; }
.atm .counter.selected .atm-hit, .atm .counter.accessed .atm-hit { fill: #ffd21f33; }
.atm .counter.target .counter-bg { stroke: #ff3b1f; stroke-width: 2.4; }
.atm-unit.spent { opacity: 0.7; }
.atm-mark-routed { fill: #c0261b; stroke: #fff; stroke-width: 0.8; }
.atm-mark-disrupted { fill: #e0a21b; stroke: #fff; stroke-width: 0.8; }
.atm-mark-text { font: 800 6.5px system-ui, sans-serif; text-anchor: middle; fill: #fff; pointer-events: none; }
.atm-leader { fill: #ffd21f; stroke: #5a4300; stroke-width: 0.7; }
.atm-arrow line { stroke: #1d1d1d; stroke-width: 2.4; }
.atm-arrow path { fill: #1d1d1d; }
.atm-arrow.melee line { stroke: #c0261b; stroke-width: 3.4; }
.atm-arrow.melee path { fill: #c0261b; }
.atm-arrow.shot line { stroke: #ff3b1f; stroke-dasharray: 5 3; }
.atm-arrow.shot path { fill: #ff3b1f; }
.atm-arrow { pointer-events: none; }
.atm-target { pointer-events: all; }
.atm-division { fill: #fff6b055; stroke: #1d1d1d; stroke-width: 2; stroke-dasharray: 3 2; pointer-events: none; }
.atm-clock.low { background: #c0261b; color: #fff; }
pre.atm-display { font: 12px/1.35 ui-monospace, monospace; background: #10240f; color: #9df59a; padding: 6px 8px; border-radius: 4px; margin: 6px 0; white-space: pre; overflow-x: auto; }
.atm-combat ol { padding-left: 1.4em; margin: 4px 0; max-height: 260px; overflow-y: auto; }
.atm-step { margin: 2px 0; }
.atm-step.appear { opacity: 0; animation: atm-appear 0.3s forwards; }
@keyframes atm-appear { to { opacity: 1; } }
.atm-activation { border: 1px solid #2d5fa8; border-radius: 4px; padding: 6px; margin: 6px 0; }
.atm-plot { margin: 6px 0; }
`;
