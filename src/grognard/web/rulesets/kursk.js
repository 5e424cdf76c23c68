// Objective Kursk's own panels for the generic game page (game.js): the 31 x 32 hex map of the southern pincer
// (rivers and streams on the hexsides, roads, the railway, towns with their victory points, woods, gullies,
// the Soviet minefields not yet destroyed, the three defence belts); combat groups as the manual's symbols
// (§4.1, §4.5: an oval mechanized, an X infantry) with their ID, two to a hex (§9.3); the depot (§5); a group's
// panel (its units and weapon counts, mode, supply, morale, disruption, §4.1-4.2); its plot composed on the map
// segment by segment in the manual's digit string (§6.4-6.7); airstrikes set on the map (§7.1); the execution
// phase replayed segment by segment with each combat's numbers (§9, from the seat's events); the final score
// and level (§11). The page never learns more than the seat's message holds: an enemy group is a bare symbol
// where the view shows one, and plots are the seat's own.

import { el, human } from "../api.js";
import { svg } from "../hexmap.js";

const TERRAIN = { clear: "#d6d9a6", town: "#c4b59d", woods: "#86a86a", gully: "#c2b98a" };
const DIRS = ["stay", "N", "NE", "SE", "S", "SW", "NW"]; // §6.4: 0 stay, 1 N ... 6 NW
const SIDES = { german: "German", soviet: "Soviet" };
const GROUP_KINDS = new Set(["divide", "transfer", "renumber", "mode", "road", "plot"]);
const CSS = `
.ruleset-kursk .k-rail { stroke: #222; stroke-width: 2.2; stroke-dasharray: 1 5; stroke-linecap: square; }
.ruleset-kursk .k-rail-bed { stroke: #222; stroke-width: 1; }
.ruleset-kursk .road { stroke: #8a5a2b; stroke-width: 3; }
.ruleset-kursk .river-edge { stroke: #2f6fb0; stroke-width: 4.5; }
.ruleset-kursk .k-stream { stroke: #4f8cc6; stroke-width: 2.2; stroke-linecap: round; }
.ruleset-kursk .k-gully { fill: none; stroke: #7a6a3a; stroke-width: 1.2; }
.ruleset-kursk .k-belt { stroke-width: 2.4; stroke-dasharray: 5 3; fill: none; }
.ruleset-kursk .k-belt-1 { stroke: #b3261e; } .ruleset-kursk .k-belt-2 { stroke: #d9731a; } .ruleset-kursk .k-belt-3 { stroke: #c9a21a; }
.ruleset-kursk .k-mine { fill: #f4e04d; stroke: #3a3a3a; stroke-width: 0.8; }
.ruleset-kursk .k-mine-text { font: 700 7px system-ui; fill: #3a3a3a; text-anchor: middle; pointer-events: none; }
.ruleset-kursk .k-town-vp { font: 700 11px system-ui; }
.ruleset-kursk .k-town-minor { font: 500 8px system-ui; display: none; }
.ruleset-kursk .near .k-town-minor { display: inline; }
.ruleset-kursk .k-held { stroke: #222; stroke-width: 0.8; }
.ruleset-kursk .k-entry { font: 700 9px system-ui; fill: #fff; text-anchor: middle; pointer-events: none; }
.ruleset-kursk .k-entry-bg { fill: #444; }
.ruleset-kursk .k-counter rect.k-bg { stroke: #111; stroke-width: 0.8; filter: drop-shadow(0.8px 1.2px 0.6px #0007); }
.ruleset-kursk .k-counter.side-german rect.k-bg { fill: #5f6b74; }
.ruleset-kursk .k-counter.side-soviet rect.k-bg { fill: #a3372a; }
.ruleset-kursk .k-counter .k-sym { fill: none; stroke: #fff; stroke-width: 1.1; }
.ruleset-kursk .k-counter text { font: 700 7.5px system-ui; fill: #fff; text-anchor: middle; pointer-events: none; }
.ruleset-kursk .k-counter.enemy rect.k-bg { stroke-dasharray: 2 1.5; }
.ruleset-kursk .k-counter.selected rect.k-bg { stroke: #ffe14d; stroke-width: 2.5; }
.ruleset-kursk .k-counter.plotted text.k-id { fill: #ffe14d; }
.ruleset-kursk .k-depot rect { fill: #f2efe2; stroke: #222; stroke-width: 1; }
.ruleset-kursk .k-depot text { font: 700 8px system-ui; fill: #222; text-anchor: middle; pointer-events: none; }
.ruleset-kursk .k-plot { fill: none; stroke: #0b5fd6; stroke-width: 2.6; stroke-linecap: round; stroke-linejoin: round; marker-end: url(#k-arrow); pointer-events: none; }
.ruleset-kursk .k-plot.composing { stroke: #e08a00; stroke-width: 3.2; }
.ruleset-kursk .k-plot.fire { stroke: #c21f1f; stroke-dasharray: 4 3; }
.ruleset-kursk .k-plot.recon { stroke: #1f8a37; stroke-dasharray: 2 3; }
.ruleset-kursk .k-reach { fill: #4b7bd433; stroke: #2f5fb8; stroke-width: 1.2; }
.ruleset-kursk .k-target { fill: #e0472b40; stroke: #b22a12; stroke-width: 2; }
.ruleset-kursk .k-report rect { fill: #fffbe0; stroke: #7a6a00; stroke-width: 0.8; }
.ruleset-kursk .k-report text { font: 600 6.5px system-ui; fill: #333; text-anchor: middle; pointer-events: none; }
.ruleset-kursk .k-replay { fill: #ffe14d55; stroke: #c98f00; stroke-width: 2; pointer-events: none; }
.ruleset-kursk .k-replay.combat { fill: #ff3b1f44; stroke: #b01d1d; }
.ruleset-kursk .k-replay-text { font: 700 7px system-ui; fill: #111; text-anchor: middle; paint-order: stroke; stroke: #fff; stroke-width: 2px; pointer-events: none; }
.k-group table { border-collapse: collapse; font-size: 0.8rem; width: 100%; }
.k-group td { padding: 1px 4px; border-bottom: 1px solid #0001; vertical-align: top; }
.k-group .k-stats { display: grid; grid-template-columns: repeat(3, auto); gap: 0 0.8rem; font-size: 0.85rem; margin: 0.2rem 0; }
.k-groups { display: flex; flex-wrap: wrap; gap: 3px; max-height: 9rem; overflow: auto; }
.k-groups button { font-size: 0.75rem; padding: 1px 5px; }
.k-groups button.done { opacity: 0.55; }
.k-compose { border: 1px solid #e08a0088; border-radius: 4px; padding: 0.3rem; margin: 0.3rem 0; }
.k-compose .k-digits { font: 700 1.05rem ui-monospace, monospace; letter-spacing: 0.12em; }
.k-compose input { width: 6em; font-family: ui-monospace, monospace; }
.k-air input { width: 4em; }
.k-exec li { font-size: 0.8rem; }
.k-exec .k-nums { color: #8a1c1c; }
`;

let MAP = null; // the public map
let LAYOUT = null; // its geometry (the HexMap's)
const ui = { group: null, plot: null, strike: null, replay: null, info: null }; // what this page is composing

// --- geometry: the manual's directions between adjacent hexes (1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW) ------------
function direction(a, b) {
  if (!LAYOUT.neighbors(a).includes(b)) return 0;
  const [x1, y1] = LAYOUT.center(a);
  const [x2, y2] = LAYOUT.center(b);
  const dx = Math.round(x2 - x1);
  if (dx === 0) return y2 < y1 ? 1 : 4;
  if (dx > 0) return y2 < y1 ? 2 : 3;
  return y2 < y1 ? 6 : 5;
}

function stepTo(cell, d) {
  return d ? (LAYOUT.neighbors(cell).find((n) => direction(cell, n) === d) ?? -1) : cell;
}

// the hexes a plot passes through, from the group's hex (a 0 stays: the hex is repeated)
function route(cell, dirs) {
  const out = [cell];
  for (const d of dirs) out.push(stepTo(out[out.length - 1], d));
  return out.filter((c) => c >= 0);
}

// §6.4-6.7: a plot's text from its parts, and its parts from its text (the digit string the server keeps)
const plotText = (p) => (p.kind === "bombard" ? "B" : p.kind === "recon" ? "R" : "") + p.dirs.join("") + (p.attack ? "S" : "");
function readPlot(text) {
  const head = text[0].toUpperCase();
  if (head === "B" || head === "R") return { kind: head === "B" ? "bombard" : "recon", dirs: [...text.slice(1)].map(Number) };
  const body = text.toUpperCase().split("S");
  return { kind: "move", dirs: [...body[0]].map(Number), attack: body.length > 1 };
}

// --- what the view holds -------------------------------------------------------------------------------
const onMap = (g) => g.cell >= 0;
const groupsOf = (st) => (st.groups || []).filter(onMap);
const mineCells = (st) => {
  const cleared = new Set(st.cleared_minefields || []);
  return (MAP.features?.minefield || []).filter((c) => !cleared.has(c));
};
const weaponText = (w) => Object.entries(w).map(([k, n]) => `${k} ${n}`).join(" · ");
const familiesOf = (legal, gid) => (legal?.choices || []).filter((f) => f.fixed?.group === gid);
const plotOf = (st, gid) => (st.plots || []).find((p) => p.id === gid)?.plot;
const label = (cell) => LAYOUT.label(cell);

function placeName(cell) {
  const p = (MAP.places || []).find((x) => x.cells.includes(cell));
  return p ? `${p.name}${p.value ? ` (${p.value} VP)` : ""}` : "";
}

function beltOf(cell) {
  for (const n of [1, 2, 3]) if ((MAP.regions?.[`belt_${n}`] || []).includes(cell)) return n;
  return 0;
}

// --- the execution phase, segment by segment (§9.0), from the seat's events ------------------------------------
// The last execution: the events after the second side committed its plots, up to the next turn. Step 0 is
// airstrikes, bombardment and recon (§9.1-9.2); then each segment's German and Soviet halves (§9.3-9.8).
function lastExecution(events) {
  let end = events.length;
  let start = -1;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].kind === "segment" && events[i].segment === 1 && events[i].side === "german") {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  let first = start;
  while (first > 0 && !["committed", "plot"].includes(events[first - 1].kind)) first--;
  for (let i = start; i < events.length; i++) if (events[i].kind === "turn" || events[i].kind === "game_over") { end = i; break; }
  const steps = [{ title: "airstrikes, bombardment and recon (§9.1-9.2)", events: [] }];
  for (const e of events.slice(first, end)) {
    if (e.kind === "segment") steps.push({ title: `segment ${e.segment}: ${SIDES[e.side]} movement and assaults`, events: [] });
    else if (e.text && e.kind !== "roll") steps[steps.length - 1].events.push(e); // the dice are in the log
  }
  return steps;
}

function losses(e) {
  const parts = Object.entries(e.losses || {}).flatMap(([tag, lost]) => {
    const l = Object.entries(lost).filter(([, n]) => n);
    return l.length ? [`${tag.replace("CG", "group ")} lost ${l.map(([w, n]) => `${n} ${w}`).join(", ")}`] : [];
  });
  return parts.join("; ");
}

// the map cell an event happened at, and whether it was a fight
function eventCell(e) {
  const cell = e.cell ?? e.to ?? e.target;
  return typeof cell === "number" ? { cell, combat: ["assault", "bombardment", "airstrike", "minefield", "opportunity_fire", "destroyed"].includes(e.kind) } : null;
}

function replayPanel(c) {
  const steps = lastExecution(c.events);
  if (!steps) return null;
  const n = ui.replay === null ? null : Math.min(ui.replay, steps.length - 1);
  const go = (i) => () => { ui.replay = i; c.redraw(); };
  const box = el("details", { class: "k-exec", open: n !== null || null, ontoggle: (e) => { const open = e.target.open; if (open !== (ui.replay !== null)) { ui.replay = open ? 0 : null; c.redraw(); } } },
    el("summary", {}, "Last execution phase, segment by segment (§9)"));
  if (n === null) return box;
  const s = steps[n];
  box.append(
    el("div", { class: "row" },
      el("button", { "data-step": "prev", disabled: n === 0 || null, onclick: go(n - 1) }, "‹ back"),
      el("strong", { class: "k-step", "data-segment": n }, ` ${s.title} `),
      el("button", { "data-step": "next", disabled: n === steps.length - 1 || null, onclick: go(n + 1) }, "next ›")),
    el("ol", {}, s.events.length ? s.events.map((e) => {
      const nums = losses(e);
      return el("li", { class: `ev-${e.kind}` }, e.text, nums ? el("span", { class: "k-nums" }, ` (${nums})`) : null);
    }) : [el("li", { class: "muted" }, "nothing this seat saw")]),
  );
  return box;
}

// --- drawing -------------------------------------------------------------------------------------------
function counter(layer, g, x, y, opts) {
  const node = svg("g", { class: `k-counter side-${g.side}${opts.enemy ? " enemy" : ""}${opts.selected ? " selected" : ""}${opts.plotted ? " plotted" : ""}`, "data-group": opts.enemy ? null : g.id, "data-cell": g.cell }, layer);
  svg("rect", { x: x - 10, y: y - 10, width: 20, height: 20, rx: 2, class: "k-bg", "data-cell": g.cell }, node);
  // §4.1, §4.5: the symbol box, an oval for a mechanized group, an X for infantry
  svg("rect", { x: x - 7, y: y - 8, width: 14, height: 8, class: "k-sym" }, node);
  if (g.symbol === "oval") svg("ellipse", { cx: x, cy: y - 4, rx: 5, ry: 2.4, class: "k-sym" }, node);
  else svg("path", { d: `M${x - 7},${y - 8} L${x + 7},${y} M${x + 7},${y - 8} L${x - 7},${y}`, class: "k-sym" }, node);
  svg("text", { x, y: y + 8, class: "k-id" }, node).textContent = opts.enemy ? "?" : String(g.id);
  svg("title", {}, node).textContent = opts.enemy
    ? `an enemy ${g.symbol === "oval" ? "mechanized" : "infantry"} group (${label(g.cell)})`
    : `${g.label}: ${g.mode}, supply ${g.supply}, morale ${g.morale}, disruption ${g.disruption}`;
}

function drawPlot(layer, from, p, cls) {
  if (p.kind === "move") {
    const cells = route(from, p.dirs);
    if (cells.length < 2 || cells.every((c) => c === from)) {
      const [x, y] = LAYOUT.center(from);
      svg("circle", { cx: x, cy: y, r: 16, class: `k-plot ${cls}` }, layer);
      return;
    }
    svg("polyline", { points: cells.map((c) => LAYOUT.center(c).join(",")).join(" "), class: `k-plot ${cls}`, "data-plot": plotText(p) }, layer);
  } else {
    const to = route(from, p.dirs).pop();
    const [x1, y1] = LAYOUT.center(from);
    const [x2, y2] = LAYOUT.center(to);
    svg("line", { x1, y1, x2, y2, class: `k-plot ${cls} ${p.kind === "bombard" ? "fire" : "recon"}` }, layer);
  }
}

function injectStyle() {
  if (document.getElementById("kursk-style")) return;
  document.head.append(el("style", { id: "kursk-style" }, CSS));
}

export default {
  keys: "Keys: click one of your groups (again: the other in its hex), then its orders in the panel · plot: click the hexes of its path segment by segment (its own hex: stay) · e end phase · u undo · Esc deselect · arrows pan · + − zoom",

  setMap(map) {
    MAP = map;
    injectStyle();
  },

  own: (f) => GROUP_KINDS.has(f.kind) || f.kind === "airstrike",

  sideName: (s) => SIDES[s] || human(s),

  overviewPaint: () => (cell, t) => TERRAIN[t] || null,

  // --- the map, drawn once ----------------------------------------------------------------------------
  drawStatic(hexmap) {
    const { layout, map, layers } = hexmap;
    LAYOUT = layout;
    const defs = svg("defs", {}, hexmap.root);
    const marker = svg("marker", { id: "k-arrow", viewBox: "0 0 10 10", refX: "7", refY: "5", markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#0b5fd6" }, marker);
    map.terrain.forEach((t, cell) => {
      hexmap.fill(cell, TERRAIN[t] || "#ccc");
      const [x, y] = layout.center(cell);
      if (t === "woods") hexmap.decorate(cell, "forest", layers.relief);
      if (t === "gully") svg("path", { d: `M${x - 9},${y - 2} q3,5 6,0 q3,-5 6,0 q3,5 6,0 M${x - 6},${y + 5} q3,4 6,0 q3,-4 6,0`, class: "k-gully" }, layers.relief);
    });
    // streams (rivers in rain, §10.2) on the hexsides; the generic map drew the rivers and roads
    for (const [a, b] of map.edges?.stream || []) hexmap.edgeLine(a, b, "k-stream", layers.roads);
    for (const [a, b] of map.edges?.railway || []) {
      const [x1, y1] = layout.center(a);
      const [x2, y2] = layout.center(b);
      svg("line", { x1, y1, x2, y2, class: "k-rail-bed" }, layers.roads);
      svg("line", { x1, y1, x2, y2, class: "k-rail" }, layers.roads);
    }
    // the Soviet defence belts: their outer hexsides
    for (const n of [1, 2, 3]) {
      const cells = new Set(map.regions?.[`belt_${n}`] || []);
      for (const c of cells) for (const m of layout.neighbors(c)) if (!cells.has(m)) hexmap.edgeLine(c, m, `k-belt k-belt-${n}`, layers.regions);
    }
    // towns: the VP towns by name and value (§11.1), the others small
    for (const p of map.places || []) {
      const [x, y] = layout.center(p.cells[0]);
      const t = svg("text", { x, y: y - 12, class: `town-name ${p.value ? "k-town-vp" : "k-town-minor"}` }, layers.places);
      t.textContent = p.value ? `${p.name} ${p.value / 1000}k` : p.name;
    }
    // the reinforcement entries A-E (§13) and the depot entry roads (§5.3)
    for (const [name, cells] of Object.entries(map.regions || {})) {
      const letter = name.startsWith("entry_") ? name.slice(6) : null;
      if (!letter) continue;
      for (const c of cells) {
        const [x, y] = layout.center(c);
        svg("circle", { cx: x + 11, cy: y + 9, r: 5, class: "k-entry-bg" }, layers.places);
        svg("text", { x: x + 11, y: y + 12, class: "k-entry" }, layers.places).textContent = letter;
      }
    }
  },

  header(view, { whose }) {
    const st = view.state;
    const held = { german: 0, soviet: 0 };
    for (const side of Object.values(st.control || {})) held[side] += 1;
    return [
      el("span", { id: "turn", class: "pill" }, `${st.date}${st.night ? " (night)" : ""}, turn ${st.turn} of ${st.last_turn}`),
      el("span", { id: "phase", class: "pill" }, view.over ? "game over" : String(st.phase).replace(/^\S+ (AM|PM): /, "")),
      whose(view),
      el("span", { id: "weather", class: "muted" }, `weather: ${st.weather} · level ${st.level}`),
      el("span", { id: "towns", class: "muted" }, `VP towns held: German ${held.german}, Soviet ${held.soviet}`),
    ];
  },

  draw(hexmap, view, c) {
    const st = view.state;
    hexmap.clear();
    const dyn = hexmap.layers.dynamic;
    const units = hexmap.layers.units;
    for (const cell of mineCells(st)) {
      const [x, y] = LAYOUT.center(cell);
      svg("circle", { cx: x - 10, cy: y - 9, r: 4.2, class: "k-mine" }, dyn);
      svg("text", { x: x - 10, y: y - 6.6, class: "k-mine-text" }, dyn).textContent = "M";
    }
    for (const [town, side] of Object.entries(st.control || {})) {
      const p = (MAP.places || []).find((x) => x.name === town);
      if (!p) continue;
      const [x, y] = LAYOUT.center(p.cells[0]);
      svg("rect", { x: x + 6, y: y - 15, width: 6, height: 4, class: "k-held", fill: side === "german" ? "#5f6b74" : "#a3372a" }, dyn);
    }
    for (const r of st.reports || []) {
      const [x, y] = LAYOUT.center(r.cell);
      const g = svg("g", { class: "k-report" }, dyn);
      svg("rect", { x: x - 16, y: y + 9, width: 32, height: 9, rx: 1.5 }, g);
      svg("text", { x, y: y + 16 }, g).textContent = `A${r.afv} G${r.artillery} I${r.infantry}`;
    }
    for (const s of st.strikes || []) {
      const [x, y] = LAYOUT.center(s.target);
      svg("polygon", { points: LAYOUT.corners(s.target, 0.8), class: "k-target" }, dyn);
      svg("text", { x, y: y + 3, class: "k-replay-text" }, dyn).textContent = `✈${s.bombers}/${s.escorts}`;
    }
    // the groups: own with their ID, enemies as bare symbols; two to a hex at most (§9.3)
    const stacks = new Map();
    for (const g of groupsOf(st)) (stacks.get(g.cell) || stacks.set(g.cell, []).get(g.cell)).push({ g, enemy: false });
    for (const e of st.enemies || []) (stacks.get(e.cell) || stacks.set(e.cell, []).get(e.cell)).push({ g: e, enemy: true });
    for (const [cell, stack] of stacks) {
      const [x, y] = LAYOUT.center(cell);
      stack.sort((a, b) => (a.g.id === ui.group) - (b.g.id === ui.group));
      stack.forEach(({ g, enemy }, i) => counter(units, g, x - 2 + i * 4, y - i * 4 + 2, { enemy, selected: !enemy && g.id === ui.group, plotted: !enemy && plotOf(st, g.id) !== undefined }));
    }
    if (st.depot) {
      const [x, y] = LAYOUT.center(st.depot.cell);
      const g = svg("g", { class: "k-depot", "data-depot": st.depot.cell }, units);
      svg("rect", { x: x + 3, y: y + 2, width: 15, height: 11, rx: 1.5 }, g);
      svg("text", { x: x + 10.5, y: y + 10.5 }, g).textContent = `D${st.depot.level}`;
      svg("title", {}, g).textContent = `the ${SIDES[st.depot.side]} depot, ${st.depot.level} supply levels (§5.1)`;
    }
    // the seat's own plots (the view holds no other), and the one being composed
    const byId = new Map(groupsOf(st).map((g) => [g.id, g]));
    for (const p of st.plots || []) if (byId.has(p.id)) drawPlot(dyn, byId.get(p.id).cell, readPlot(p.plot), "given");
    const sel = byId.get(ui.group);
    if (sel && ui.plot) drawPlot(units, sel.cell, ui.plot, "composing"); // over the counters: a "0" rings its group
    // where the selected group's orders may go
    const marks = [];
    if (sel && ui.plot) {
      const end = ui.plot.kind === "move" ? route(sel.cell, ui.plot.dirs).pop() : sel.cell;
      const reach = ui.plot.kind === "bombard" ? withinTwo(sel.cell) : LAYOUT.neighbors(end);
      marks.push(...reach, end);
    } else if (sel) {
      for (const f of familiesOf(c.legal, sel.id)) if (f.kind === "road") marks.push(...f.values);
    }
    for (const cell of new Set(marks)) svg("polygon", { points: LAYOUT.corners(cell, 0.9), class: "k-reach", "data-cell": cell, "data-reach": cell }, dyn);
    if (ui.strike?.target !== undefined && ui.strike?.target !== null) svg("polygon", { points: LAYOUT.corners(ui.strike.target, 0.9), class: "k-target", "data-cell": ui.strike.target }, dyn);
    // a step of the execution's replay: where it happened, with the combat's numbers (over the counters, in the
    // layer this module redraws: the page's highlights empty the top one)
    const steps = ui.replay === null ? null : lastExecution(c.events);
    if (steps) {
      const s = steps[Math.min(ui.replay, steps.length - 1)];
      for (const e of s.events) {
        const at = eventCell(e);
        if (!at) continue;
        svg("polygon", { points: LAYOUT.corners(at.cell, 0.95), class: `k-replay${at.combat ? " combat" : ""}`, "data-replay": at.cell }, units);
        if (e.kind === "assault") {
          const [x, y] = LAYOUT.center(at.cell);
          svg("text", { x, y: y - 12, class: "k-replay-text" }, units).textContent = `+${e.defender} / +${e.attacker}`;
        }
      }
    }
  },

  hover(cell, view) {
    const st = view.state;
    const here = groupsOf(st).filter((g) => g.cell === cell).map((g) => `${g.label} (${g.mode})`);
    const enemy = (st.enemies || []).filter((e) => e.cell === cell).map((e) => `enemy ${e.symbol === "oval" ? "mechanized" : "infantry"}`);
    const belt = beltOf(cell);
    return [
      human(MAP.terrain[cell]),
      placeName(cell),
      mineCells(st).includes(cell) ? "minefield" : "",
      belt ? `defence belt ${belt}` : "",
      ...here,
      ...enemy,
    ];
  },

  // --- clicks on the map --------------------------------------------------------------------------------
  click(cell, c) {
    const st = c.update.view.state;
    const mine = groupsOf(st).filter((g) => g.cell === cell);
    const sel = groupsOf(st).find((g) => g.id === ui.group);
    if (ui.strike) {
      ui.strike.target = cell;
      c.redraw();
      return true;
    }
    if (sel && ui.plot && composeAt(sel, cell, c)) return true;
    if (sel && !ui.plot) {
      const road = familiesOf(c.legal, sel.id).find((f) => f.kind === "road" && f.values.includes(cell));
      if (road) {
        c.decide({ kind: "road", group: sel.id, to: cell });
        return true;
      }
    }
    const depot = st.depot;
    const move = (c.legal?.choices || []).find((f) => f.kind === "depot");
    if (depot && move && !mine.length) {
      const d = direction(depot.cell, cell);
      if (d && move.values.includes(d)) {
        c.decide({ kind: "depot", direction: d });
        return true;
      }
    }
    if (mine.length) {
      const i = mine.findIndex((g) => g.id === ui.group);
      selectGroup(mine[(i + 1) % mine.length].id);
    } else {
      ui.info = cell;
    }
    c.redraw();
    return true;
  },

  // --- the panel ----------------------------------------------------------------------------------------
  panelTop(update, c) {
    const st = update.view.state;
    const out = [];
    const replay = replayPanel(c);
    if (replay) out.push(replay);
    const own = groupsOf(st);
    if (ui.group !== null && !own.some((g) => g.id === ui.group)) selectGroup(null);
    const legal = update.legal;
    if (legal) {
      const air = (legal.choices || []).find((f) => f.kind === "airstrike");
      if (air) out.push(airPanel(legal, c));
      else ui.strike = null;
      const ready = own.filter((g) => familiesOf(legal, g.id).length);
      if (ready.length) {
        out.push(el("div", {}, el("h3", {}, `Groups with orders (${ready.length})`),
          el("div", { class: "k-groups" }, ready.map((g) => el("button", {
            class: `${g.id === ui.group ? "armed" : ""}${plotOf(st, g.id) !== undefined ? " done" : ""}`, "data-group": g.id, title: `${g.label} at ${label(g.cell)}`,
            onclick: () => { selectGroup(g.id); c.redraw(); },
          }, String(g.id))))));
      }
    }
    const sel = own.find((g) => g.id === ui.group);
    if (sel) out.push(groupPanel(sel, st, legal, c));
    else if (ui.info !== null && ui.info !== undefined) out.push(el("p", { class: "muted k-info" }, [label(ui.info), human(MAP.terrain[ui.info]), placeName(ui.info)].filter(Boolean).join(" · ")));
    return out;
  },

  // the execution's events flash where they happened as they arrive
  animate(hexmap, e) {
    const at = eventCell(e);
    if (at) hexmap.flash([at.cell], at.combat ? "flash-red" : "flash");
  },

  finalTitle: (res) => (res.levels ? `${res.levels.german}` : "The game is over"),
  finalRows(res) {
    const vp = res.scores || {};
    return [`Soviet ${vp.soviet} VPs`, `German ${vp.german} VPs`, `difference ${vp.soviet - vp.german} (§11.2: Soviet minus German)`];
  },
};

function selectGroup(gid) {
  ui.group = gid;
  ui.plot = null;
}

function withinTwo(cell) {
  const out = new Set();
  for (const n of LAYOUT.neighbors(cell)) {
    out.add(n);
    for (const m of LAYOUT.neighbors(n)) if (m !== cell) out.add(m);
  }
  return [...out];
}

// A click while a plot is composed: a move's next segment (the path's end: stay, 0), the hex a bombardment
// falls on (1 or 2 hexes away, §6.6) or the one recon searches (§6.7). False: not a hex the plot can use.
function composeAt(g, cell, c) {
  const p = ui.plot;
  if (p.kind === "move") {
    if (p.dirs.length >= 4 || p.attack) return false;
    const end = route(g.cell, p.dirs).pop();
    const d = cell === end ? 0 : direction(end, cell);
    if (cell !== end && !d) return false;
    p.dirs.push(d);
  } else if (p.kind === "recon") {
    const d = direction(g.cell, cell);
    if (!d) return false;
    p.dirs = [d];
  } else {
    const d = direction(g.cell, cell);
    if (d) p.dirs = [d];
    else {
      const via = LAYOUT.neighbors(g.cell).find((n) => direction(n, cell));
      if (via === undefined || cell === g.cell) return false;
      p.dirs = [direction(g.cell, via), direction(via, cell)];
    }
  }
  c.redraw();
  return true;
}

function groupPanel(g, st, legal, c) {
  const fams = familiesOf(legal, g.id);
  const given = plotOf(st, g.id);
  const box = el("div", { class: "k-group unit-orders", "data-group": g.id },
    el("h3", {}, `${g.label} `, el("small", {}, `${g.symbol === "oval" ? "mechanized" : "infantry"}, at ${label(g.cell)}`)),
    el("div", { class: "k-stats" },
      el("span", {}, `mode ${g.mode}`), el("span", {}, `supply ${g.supply}`), el("span", {}, g.supplied ? "supplied this turn" : ""),
      el("span", {}, `morale ${g.morale}`), el("span", {}, `disruption ${g.disruption}`), el("span", {}, given ? `plot ${given}` : "")),
    el("table", { class: "k-units" }, el("tbody", {}, g.units.map((u, i) => el("tr", {}, el("td", {}, String(i)), el("td", {}, u.name), el("td", {}, weaponText(u.weapons)))))),
  );
  for (const f of fams) {
    if (f.kind === "plot") box.append(plotPanel(g, f, c));
    else if (f.kind === "mode") {
      box.append(el("div", { class: "family", "data-kind": "mode" }, el("span", {}, "Mode (§6.2): "),
        f.values.map((m) => el("button", { "data-kind": "mode", "data-value": m, class: m === g.mode ? "armed" : "", onclick: () => c.decide({ kind: "mode", group: g.id, mode: m }) }, m))));
    } else if (f.kind === "road") {
      box.append(el("div", { class: "hint", "data-kind": "road" }, `Road movement (§6.3): click one of the ${f.values.length} highlighted hexes`));
    } else {
      // divide, transfer, renumber (§4.3-4.7): one of the listed values
      const texts = f.texts || f.values.map((v) => `${f.kind} ${Array.isArray(v) ? v.join("/") : v}`);
      const pick = el("select", { "data-kind": f.kind }, f.values.map((v, i) => el("option", { value: String(i) }, texts[i])));
      box.append(el("div", { class: "family", "data-kind": f.kind }, el("span", {}, `${human(f.kind)}: `), pick,
        el("button", { "data-kind": f.kind, onclick: () => c.decide({ kind: f.kind, group: g.id, [f.field]: f.values[Number(pick.value)] }) }, "Go")));
    }
  }
  if (!fams.length) box.append(el("div", { class: "hint" }, given ? `plotted: ${given}` : "no orders for this group now"));
  return box;
}

// §6.4-6.7 composed on the map: the kind, then hexes; the digits as the manual writes them, which may also be
// typed; the server checks the whole and names the rule a refused plot breaks.
function plotPanel(g, f, c) {
  const kinds = g.may_plot.filter((k) => k !== "bombard" || g.units.some((u) => Object.keys(u.weapons).some((w) => w.endsWith("FH"))));
  const p = ui.plot;
  const box = el("div", { class: "k-compose", "data-kind": "plot" }, el("div", {}, "Plot (§6.4-6.7): ",
    kinds.map((k) => el("button", { class: `compose${p?.kind === k ? " armed" : ""}`, "data-plot-kind": k, onclick: () => { ui.plot = { kind: k, dirs: [], attack: false }; c.redraw(); } }, { move: "Move", bombard: "Bombard", recon: "Recon" }[k]))));
  if (!p) return box;
  const text = plotText(p);
  const hint = p.kind === "move"
    ? `click the hexes of its path, one a segment (its end again: stay); up to 4 segments, ${g.move} hex${g.move === 1 ? "" : "es"} of movement`
    : p.kind === "bombard" ? "click the hex to bombard, 1 or 2 hexes away" : "click the hex next to it to search";
  const typed = el("input", { class: "k-typed", value: text, "aria-label": "plot digits", placeholder: "0321" });
  box.append(
    el("div", { class: "hint" }, hint),
    el("div", {}, el("span", { class: "k-digits", "data-digits": text }, text || "—"), " ",
      p.kind === "move" ? p.dirs.map((d) => DIRS[d]).join(", ") : p.dirs.length ? `to the ${p.dirs.map((d) => DIRS[d]).join("-")}` : ""),
    el("div", {},
      p.kind === "move" ? el("button", { "data-seg": "stay", disabled: p.dirs.length >= 4 || p.attack || null, onclick: () => { p.dirs.push(0); c.redraw(); } }, "stay (0)") : null,
      p.kind === "move" ? el("button", { "data-seg": "attack", disabled: !p.dirs.length || p.attack || p.dirs[p.dirs.length - 1] === 0 || p.dirs.length >= 4 || null, title: "§6.5: the last move attacks without entering", onclick: () => { p.attack = true; c.redraw(); } }, "attack only (S)") : null,
      el("button", { "data-seg": "back", disabled: !p.dirs.length || null, onclick: () => { if (p.attack) p.attack = false; else p.dirs.pop(); c.redraw(); } }, "back"),
      el("button", { class: "secondary", onclick: () => { ui.plot = null; c.redraw(); } }, "cancel")),
    el("div", {}, typed,
      el("button", { class: "send", "data-kind": "plot", onclick: () => { const v = typed.value.trim(); if (v) { ui.plot = null; c.decide({ kind: "plot", group: g.id, plot: v }); } } }, "Give the plot")),
  );
  return box;
}

// §7.1: bombers and escorts (points of 4 aircraft) against a hex clicked on the map
function airPanel(legal, c) {
  const info = legal.info || {};
  const s = ui.strike;
  const box = el("div", { class: "k-air family", "data-kind": "airstrike" }, el("h4", {}, `Air missions (§7.1): ${info.fighters} fighters, ${info.bombers} bombers, ${info.strikes_left} strike(s) left`));
  if (!s) {
    box.append(el("button", { class: "compose", "data-kind": "airstrike", onclick: () => { ui.strike = { target: null, bombers: Math.min(info.bombers, 10), escorts: Math.min(info.fighters, 5) }; selectGroup(null); c.redraw(); } }, "Plan an airstrike…"));
    return box;
  }
  const bombers = el("input", { type: "number", min: "1", max: String(info.bombers), value: String(s.bombers), "data-field": "bombers", onchange: (e) => { s.bombers = Number(e.target.value); } });
  const escorts = el("input", { type: "number", min: "0", max: String(info.fighters), value: String(s.escorts), "data-field": "escorts", onchange: (e) => { s.escorts = Number(e.target.value); } });
  box.append(
    el("div", { class: "hint" }, s.target === null ? "click the target hex on the map" : `target ${label(s.target)}`),
    el("div", {}, "bombers ", bombers, " escorts ", escorts),
    el("button", { class: "send", "data-kind": "airstrike", disabled: s.target === null || null, onclick: () => { const d = { kind: "airstrike", strike: [s.target, Number(bombers.value), Number(escorts.value)] }; ui.strike = null; c.decide(d); } }, "Plan the strike"),
    el("button", { class: "secondary", onclick: () => { ui.strike = null; c.redraw(); } }, "cancel"),
  );
  return box;
}
