// La Grande Armée's own panels for the generic game page (game.js), drawn as the original's screen was
// (manual §2.1-2.14, Exhibit 1): the strategic map of Europe with its seas, prohibited areas, countries,
// rivers, cities and black arrows, every area tinted by who controls it; the counters in each power's colours
// (§3.1) with the number of units stacked under the top one (§3.5); the date, player turn, phase, victory
// points and military points; the text window's unit description (§3.4, §5.61). Everything comes from the
// scenario's public map (its ``legend``) and the seat's view: an enemy stack shows only its top unit, and its
// size only when no cavalry screens it.

import { el, human } from "../api.js";
import { star, svg } from "../hexmap.js";

const C = 18; // a counter's side, in map units (a hex is about 35 wide)

let LEGEND = {}; // the scenario's legend (its public map's): colours, names; set when the map arrives
let MAP = null; // the public map
let TYPE_NAME = {}; // unit types' names and letters (§3.3), from the legend
let TYPE_LETTER = {};
const look = (power) => LEGEND.powers?.[power] || { background: ["#888"], foreground: "#111", border: "#111", name: power, adjective: power };
const sideName = (side) => LEGEND.sides?.[side]?.name || human(side);
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

// §3.5: field units by arrival (the last on top), then garrisons, then HQs
function stackOrder(units) {
  const rank = (u) => (u.type === "hq" ? 2 : u.garrison ? 1 : 0);
  return [...units].sort((a, b) => rank(a) - rank(b) || b.stack - a.stack || (a.id < b.id ? -1 : 1));
}

function onMap(st) {
  return (st.units || []).filter((u) => u.cell >= 0);
}

export default {
  keys: "Keys: click one of your units (or Tab, n: the next one), then an area next to it: green to move, red to attack · e end the phase · g let the enemy go on · u undo · Esc deselect · arrows pan · + − zoom",
  autoSelect: true, // §5.61: one unit blinks; after its move the same unit goes on, or the next one blinks
  moveFirst: true, // §4.5: a click on an adjacent area moves the blinking unit there, even onto a friendly stack

  // the units the page can select or point at: the seat's own on the map and the top of each enemy stack
  units(st) {
    const named = (u) => ({ ...u, name: `${look(u.power).adjective} ${TYPE_NAME[u.type]}`, short: u.id, at: MAP ? placeAt(MAP, u.cell) : u.at });
    const own = onMap(st).map((u) => ({ ...named(u), title: `${u.id} at ${MAP ? placeAt(MAP, u.cell) : u.at}` }));
    const enemy = (st.enemy || []).map((s) => ({ ...named({ ...s.top, cell: s.cell, at: s.at }), side: s.side, enemy: true, count: s.count }));
    return [...own, ...enemy];
  },

  overviewPaint(map) {
    const prohibited = new Set(map.legend?.prohibited || []);
    return (cell) => (prohibited.has(cell) ? "#57544d" : null);
  },

  fit(hexmap, view, seat) {
    const mine = onMap(view.state).filter((u) => u.side === seat);
    const cols = mine.map((u) => hexmap.layout.center(u.cell)[0]);
    hexmap.fitHeight(cols.length ? (Math.min(...cols) + Math.max(...cols)) / 2 : null); // the whole front
  },

  // --- the map, drawn once -------------------------------------------------------------------------------
  drawStatic(hexmap) {
    const { layout, map } = hexmap;
    const legend = LEGEND;
    hexmap.root.classList.add("lga");
    const prohibited = new Set(legend.prohibited || []);
    const country = new Map();
    for (const [name, cells] of Object.entries(map.regions || {})) {
      if (legend.countries?.[name]) for (const c of cells) country.set(c, name);
    }
    const seaNames = legend.seas || {};
    const isSea = (c) => map.terrain[c] in seaNames;
    const isLand = (c) => !isSea(c) && !prohibited.has(c) && map.terrain[c] !== "prohibited";
    // prohibited areas (§2.2, §2.4): dark, whatever lies under them
    for (const c of prohibited) svg("polygon", { points: layout.corners(c, 1.01), class: "lga-prohibited" }, hexmap.layers.regions);
    // coasts and country borders on the hexsides
    const borders = svg("g", { class: "lga-borders" }, hexmap.layers.roads);
    for (let c = 0; c < map.terrain.length; c++) {
      for (const n of layout.neighbors(c)) {
        if (n < c) continue;
        if (isLand(c) && isLand(n) && country.get(c) !== country.get(n)) hexmap.edgeLine(c, n, "lga-border", borders);
        else if ((isLand(c) && isSea(n)) || (isSea(c) && isLand(n))) hexmap.edgeLine(c, n, "lga-coast", borders);
      }
    }
    // rivers on the hexsides (§2.3; every edge feature of this map is a river)
    for (const name of legend.rivers || []) {
      for (const [a, b] of map.edges?.[name] || []) {
        const line = hexmap.edgeLine(a, b, "river-edge lga-river", hexmap.layers.roads);
        svg("title", {}, line).textContent = `the ${cap(name)}`;
      }
    }
    // the countries' names (§2.2, §7.0 abbreviations), faint, where their areas gather
    const labels = svg("g", { class: "lga-countries" }, hexmap.layers.relief);
    const places = new Set((map.places || []).flatMap((p) => p.cells));
    for (const [name, info] of Object.entries(legend.countries || {})) {
      const cells = (map.regions?.[name] || []).filter((c) => isLand(c));
      const spot = centralCell(layout, cells, (c) => !places.has(c));
      if (spot === null) continue;
      const [x, y] = layout.center(spot);
      const big = cells.length > 12;
      const t = svg("text", { x, y: y + 3, class: `lga-country${big ? " big" : ""}` }, labels);
      t.textContent = info.short;
    }
    // the seas' names (§2.3)
    for (const [terrain, name] of Object.entries(seaNames)) {
      const cells = map.terrain.map((t, c) => (t === terrain ? c : -1)).filter((c) => c >= 0);
      const spot = centralCell(layout, cells, () => true);
      if (spot === null) continue;
      const [x, y] = layout.center(spot);
      svg("text", { x, y: y + 3, class: "lga-sea" }, hexmap.layers.relief).textContent = name;
    }
    // the black arrows (§2.3): each points the way around Portugal to the other
    for (const a of legend.arrows || []) {
      const [x1, y1] = layout.center(a.cell);
      const [x2, y2] = layout.center(a.towards);
      const d = Math.hypot(x2 - x1, y2 - y1) || 1;
      const [ux, uy] = [(x2 - x1) / d, (y2 - y1) / d];
      const g = svg("g", { class: "lga-arrow" }, hexmap.layers.places);
      const [sx, sy, ex, ey] = [x1 - ux * 9, y1 - uy * 9, x1 + ux * 9, y1 + uy * 9];
      svg("line", { x1: sx, y1: sy, x2: ex - ux * 4, y2: ey - uy * 4 }, g);
      svg("path", { d: `M${ex},${ey} L${ex - ux * 6 - uy * 4},${ey - uy * 6 + ux * 4} L${ex - ux * 6 + uy * 4},${ey - uy * 6 - ux * 4}Z` }, g);
      svg("text", { x: x1 + 3, y: y1 + (uy > 0 ? -10 : 14) }, g).textContent = a.label;
      svg("title", {}, g).textContent = `${a.label}: a British unit at sea here may sail to the other arrow as if the two were adjacent (§2.3)`;
    }
    // cities (§2.3): capitals a red star, major cities a red circle, minor cities a black one; ports an anchor
    const cityLayer = hexmap.layers.places;
    for (const p of map.places || []) {
      const cell = p.cells[0];
      const [x, y] = layout.center(cell);
      const g = svg("g", { class: `lga-city ${p.kind}${prohibited.has(cell) ? " off" : ""}`, "data-place": p.name }, cityLayer);
      // the city's sign and name at the top of its area, the counters below them
      if (p.kind === "capital") svg("path", { d: star(x, y - 15, 4.2, 1.7), class: "lga-capital" }, g);
      else svg("circle", { cx: x, cy: y - 15, r: p.kind === "major" ? 2.8 : 2.1, class: p.kind === "major" ? "lga-major" : "lga-minor" }, g);
      if (p.port) svg("path", { d: anchor(x + 7.5, y - 14.5), class: "lga-port" }, g);
      const label = svg("text", { x, y: y - 7.2, class: `lga-name ${p.kind}` }, g);
      label.textContent = p.kind === "minor" ? p.name : p.short || p.name;
      if (p.value) svg("tspan", { class: "lga-vp", dx: 1, dy: -2.5 }, label).textContent = String(p.value);
      svg("title", {}, g).textContent = placeWords(p, legend);
    }
  },

  // --- the view, drawn on every update ----------------------------------------------------------------------
  draw(hexmap, view, { seat, selected }) {
    const st = view.state;
    this.lastState = st;
    const legend = LEGEND;
    const prohibited = new Set(legend.prohibited || []);
    (st.control || []).forEach((side, cell) => {
      if (side && !prohibited.has(cell)) hexmap.fill(cell, legend.sides?.[side]?.tint || "#ddd");
    });
    hexmap.clear();
    const layer = hexmap.layers.units;
    const enemyCells = new Set((st.enemy || []).map((s) => s.cell));
    for (const g of st.last_seen || []) {
      if (enemyCells.has(g.cell)) continue;
      const [x, y] = hexmap.layout.center(g.cell);
      const node = svg("g", { class: "ghost lga-ghost", "data-ghost": g.id }, layer);
      svg("rect", { x: x - C / 2, y: y - C / 2 + 3, width: C, height: C, rx: 1.5, stroke: look(g.power).border }, node);
      svg("text", { x, y: y + 6 }, node).textContent = "?";
      svg("title", {}, node).textContent = `${look(g.power).adjective} ${TYPE_NAME[g.type] || g.type} last seen here in ${cap(g.when)}`;
    }
    const byCell = new Map();
    for (const u of onMap(st)) {
      if (!byCell.has(u.cell)) byCell.set(u.cell, []);
      byCell.get(u.cell).push(u);
    }
    const moving = st.phase === "movement_combat" && st.player === seat;
    for (const [cell, units] of byCell) {
      const stack = stackOrder(units);
      const face = stack.find((u) => u.id === selected) || stack[0];
      counter(hexmap, face, cell, { count: stack.length, own: true, spent: moving && face.side === seat && face.moves <= 0, supplied: face.supplied });
    }
    for (const s of st.enemy || []) {
      counter(hexmap, { ...s.top, side: s.side }, s.cell, { count: s.count, own: false });
    }
  },

  // Exhibit 1: the date and the player turn; the phase (§5.1); both sides' victory points and levels (§5.2)
  header(view, { whose }) {
    const st = view.state;
    const vp = Object.entries(st.victory || {}).map(([side, v]) => {
      const levels = (st.thresholds?.[side] || []).map((need, i) => `${["SD", "TD", "TV", "SV", "AV"][i]} ${need}`).join(" · ");
      return el("span", { class: `score side-${side}`, title: `${sideName(side)}: ${v.vp} victory points, ${LEGEND.levels?.[v.level] || v.level}; levels (§5.2): ${levels}` }, `${sideName(side)} ${v.vp} ${v.level}`);
    });
    const phase = LEGEND.phases?.[st.phase] || human(st.phase);
    const turn = view.over ? "" : ` · ${sideName(st.player)} player turn`;
    return [
      el("span", { id: "date", class: "pill", title: `the date (§2.6) and the player turn (§2.7); the scenario ends after ${cap(st.end)}` }, `${cap(st.season)} ${st.year}${turn}`),
      el("span", { id: "phase", class: "pill", title: phase }, phase.replace(/^Phase [IVX]+: /, "")),
      el("span", { id: "score", title: "victory points and level of victory (§5.2)" }, vp),
      whose(view), // whose decision it is, as on every game's page
    ];
  },

  readyLabel: (u) => u.id,

  line(u) {
    const own = u.morale !== undefined && u.type !== "hq";
    return `${u.id} ${TYPE_NAME[u.type]}${own ? ` M${u.morale} F${u.fatigue}` : ""}${u.garrison ? " garrison" : ""}`;
  },

  // §2.14: each power's military points, by its flag; §5.2: the levels of victory, the seat's highlighted
  panelTop(update, { seat }) {
    const st = update.view.state;
    const legend = LEGEND;
    const powers = Object.entries(st.powers || {}).sort(([, a], [, b]) => (a === seat ? 0 : 1) - (b === seat ? 0 : 1));
    const mp = el("div", { class: "lga-mp", title: "military points (§2.14), spent to build and rally (§5.5)" },
      el("span", { class: "muted" }, "MP"),
      ...powers.map(([p, side]) => el("span", { class: `lga-power${side === seat ? " mine" : ""}`, "data-power": p },
        flag(legend.powers?.[p]), `${legend.powers?.[p]?.name || p} ${st.mp?.[p] ?? 0}`)));
    const out = [mp];
    const mine = st.victory?.[seat];
    const moving = update.legal && st.phase === "movement_combat";
    if (mine && !moving) {
      const names = ["SD", "TD", "TV", "SV", "AV"];
      out.push(el("div", { class: "lga-levels", title: "levels of victory (§5.2); below SD is an Absolute Defeat" },
        ...names.map((n, i) => el("span", { class: n === mine.level ? "on" : "" }, `${n} ${st.thresholds[seat][i]}`)),
        mine.level === "AD" ? el("span", { class: "on" }, "AD") : null));
    }
    return out;
  },

  // the families listed in the panel although they vary over units
  listed: (f) => f.kind === "rally" || f.kind === "set_top",

  // the unit's area with a rally or a change of the top unit; a rally's cost (§5.5)
  optionText(f, v, legal, text) {
    const listed = f.kind === "rally" || f.kind === "set_top";
    const u = listed && MAP ? (this.lastState?.units || []).find((x) => x.id === v) : null;
    const where = u && u.cell >= 0 ? ` at ${placeAt(MAP, u.cell)}` : "";
    const cost = f.kind === "rally" ? legal.info?.rally_cost?.[v] : undefined;
    const morale = cost === undefined || !u ? "" : `: M${u.morale} → M${u.morale + 1}`;
    return `${text}${where}${morale}${cost === undefined ? "" : ` (${cost} MP)`}`;
  },

  armableName: (f) => f.label || human(f.kind),
  armableTitle: (f) => (f.kind === "build" ? "Build: choose a unit, then the capital to build it in" : null),

  cellClass(f, cell, { update }) {
    if (f.kind === "build") return "hl-place";
    if (f.kind === "withdraw") return "hl-other";
    if (f.kind === "move" && (update.view.state.enemy || []).some((s) => s.cell === cell)) return "hl-attack";
    return "hl-move";
  },

  // a flash on the area attacked, and where a move ends
  animate(map, e) {
    if (e.kind === "combat" && e.cell !== undefined) map.flash([e.cell], "flash");
    if (e.kind === "move" && e.to !== undefined) map.flash([e.to]);
  },

  // the odds badge on an attack's target: the die's modifier against a fresh defender at full morale
  cellBadge(f, cell, { update }) {
    const a = update.legal?.info?.attacks?.[f.fixed.unit]?.[cell];
    return a ? `${a.fresh >= 0 ? "+" : ""}${a.fresh}` : null;
  },

  // the selected unit's box: moves left, and what its player knows of each attack it may make (§5.64)
  unitOrders(u, { update, map }) {
    const info = update.legal?.info || {};
    const out = [];
    if (info.moves?.[u.id] !== undefined) out.push(el("div", { class: "hint lga-moves" }, `${info.moves[u.id]} of ${u.max_moves} moves left`));
    if (info.arrive_in_6?.[u.id] !== undefined) out.push(el("div", { class: "hint" }, `if it reinforces, it arrives on ${info.arrive_in_6[u.id]} in 6 (§5.67)`));
    for (const [cell, a] of Object.entries(info.attacks?.[u.id] || {})) {
      const where = placeAt(map, Number(cell));
      const mods = a.mods.map(([n, v]) => `${n} ${signed(v)}`).join(", ");
      const odds = a.results.map((r, i) => el("span", { class: `res res-${r[0]}` }, `${i + 1}: ${r}`));
      const unknown = a.unknown.map((w) => w.replace("defender's ", "its "));
      out.push(el("div", { class: "lga-attack", "data-cell": cell },
        el("div", {}, el("strong", {}, `Attack ${look(a.defender.power).adjective} ${TYPE_NAME[a.defender.type]}${a.defender.garrison ? " (garrison)" : ""} at ${where}`)),
        el("div", { class: "hint" }, `you know ${signed(a.known)}: ${mods}; unknown: ${unknown.join(", ")}`),
        el("div", { class: "lga-odds", title: "the Combat Results Table (§5.64) for each face of the die, against a fresh defender at full morale" },
          el("span", { class: "hint" }, `fresh ${TYPE_NAME[a.defender.type].toLowerCase()}: die ${signed(a.fresh)}`), odds)));
    }
    return out;
  },

  // the text window's description of a unit (§3.4, §5.61) in the manual's terms
  card(u, view, { map }) {
    const legend = LEGEND;
    const p = legend.powers?.[u.power];
    if (u.enemy) {
      return {
        title: [`${p?.adjective || u.power} ${TYPE_NAME[u.type]} `, el("small", {}, u.id)],
        rows: [
          ["Area", placeAt(map, u.cell)],
          ["Stack", u.count === null ? "screened by cavalry: the number of units is hidden (§3.5)" : `${u.count} unit${u.count > 1 ? "s" : ""}`],
          u.garrison ? ["Garrison", "yes"] : null,
        ],
      };
    }
    const st = view.state;
    const moving = st.phase === "movement_combat" && st.player === u.side;
    const hq = u.type === "hq";
    return {
      title: hq ? [`${u.id}, ${p?.adjective || ""} HQ `, el("small", {}, `+${u.bonus}`)] : [`${p?.adjective || u.power} ${TYPE_NAME[u.type]} `, el("small", {}, u.id)],
      rows: [
        ["Area", placeAt(map, u.cell)],
        hq ? ["Combat", `+${u.bonus} to attacks from, and defence of, its area (§3.3)`] : ["Morale", u.morale === 0 ? `M0 of ${u.max_morale}: demoralised (DEM), cannot attack until rallied` : `M${u.morale} of ${u.max_morale}`],
        hq ? null : ["Fatigue", `F${u.fatigue}`],
        ["Moves", moving ? `${u.moves} of ${u.max_moves} left` : `${u.max_moves} a season`],
        ["Supply", u.supplied ? "in supply" : "out of supply: cannot move or attack; destroyed at the end of the turn if still cut off"],
        u.garrison ? ["Garrison", "garrisons the city"] : null,
        hq ? null : ["Rally", u.rallied ? "rallied this season" : "may be rallied"],
        ["Defensive move", u.reacted ? "used this season" : "not used this season"],
      ],
    };
  },

  // what a click on an area says of it (the original's SCROLL mode, §2.9), and of the enemy seen there
  cellInfo(cell, view, { map, seat }) {
    const st = view.state;
    const out = [el("p", { class: "lga-area" }, areaWords(cell, st, map, seat))];
    const enemy = (st.enemy || []).find((s) => s.cell === cell);
    if (enemy) {
      const p = look(enemy.top.power);
      out.push(el("p", {}, `${p.adjective} ${TYPE_NAME[enemy.top.type]} ${enemy.top.id} on top${enemy.top.garrison ? " (a garrison)" : ""}; ` +
        (enemy.count === null ? "a cavalry screen hides how many are stacked (§3.5)" : `${enemy.count} unit${enemy.count > 1 ? "s" : ""} stacked`)));
    }
    for (const g of (st.last_seen || []).filter((x) => x.cell === cell)) {
      out.push(el("p", { class: "muted" }, `${look(g.power).adjective} ${TYPE_NAME[g.type]} ${g.id} last seen here in ${cap(g.when)}.`));
    }
    return out;
  },

  hover(cell, view, map, { seat }) {
    const here = this.units(view.state).filter((u) => u.cell === cell);
    const words = areaWords(cell, view.state, map, seat).split(" · ").slice(1);
    return [...words, here.length ? `${here.length > 1 ? `${here.length} units: ` : ""}${here.map((u) => u.id).join(", ")}` : ""];
  },

  finalTitle(res) {
    return res.winner ? `The ${sideName(res.winner)} player wins` : "A draw";
  },

  finalRows(res) {
    const names = LEGEND.levels || {};
    return Object.entries(res.levels || {}).filter(([s]) => s !== "neutral")
      .map(([s, lv]) => `${sideName(s)}: ${names[lv] || lv}` + (s in (res.scores || {}) ? ` (${lv}), ${res.scores[s]} VP` : ""));
  },

  // the victory points at each count (§5.2, every player turn), from the log's counts
  chart(view, seats, events) {
    const counts = events.filter((e) => e.kind === "victory_points" && e.vp);
    if (!counts.length) return null;
    const sides = Object.keys(counts[0].vp);
    return { title: "Victory points at each count (§5.2)", fromZero: false, series: sides.map((s) => ({ side: s, points: counts.map((e) => e.vp[s]) })) };
  },

  sideName,

  setMap(map) {
    LEGEND = map.legend || {};
    MAP = map;
    const types = Object.entries(LEGEND.types || {});
    TYPE_NAME = Object.fromEntries(types.map(([t, v]) => [t, v.name]));
    TYPE_LETTER = Object.fromEntries(types.map(([t, v]) => [t, v.code]));
  },
};

// --- drawing helpers ------------------------------------------------------------------------------------------
function counter(hexmap, u, cell, { count, own, spent = false, supplied = true }) {
  const [cx, cy] = hexmap.layout.center(cell);
  const p = look(u.power);
  const x = cx - C / 2;
  const y = cy - C / 2 + 3; // below the area's city and its name
  const dem = own && u.type !== "hq" && u.morale === 0;
  const classes = ["counter", "lga-counter", `side-${u.side}`, `power-${u.power}`, spent && "spent", dem && "dem", u.garrison && "garrison", !own && "enemy"];
  const g = svg("g", { class: classes.filter(Boolean).join(" "), "data-unit": u.id, "data-cell": cell, "data-count": count ?? "" }, hexmap.layers.units);
  if (count > 1) {
    for (const k of count > 2 ? [2, 1] : [1]) svg("rect", { x: x + k * 1.4, y: y + k * 1.4, width: C, height: C, rx: 1.2, fill: p.background[p.background.length - 1], stroke: p.border, "stroke-width": 0.6, class: "lga-under" }, g);
  }
  const bands = p.background;
  svg("rect", { x, y, width: C, height: C, rx: 1.2, fill: bands[0], stroke: p.border, class: "counter-bg" }, g);
  bands.slice(1).forEach((colour, i) => svg("rect", { x: x + ((i + 1) * C) / bands.length, y: y + 0.5, width: C / bands.length - (i === bands.length - 2 ? 0.5 : 0), height: C - 1, fill: colour }, g));
  glyph(u.type, cx, y + (own && u.type !== "hq" ? 6.2 : 7.5), p.foreground, g);
  svg("text", { x: x + 1.2, y: y + 4.2, class: "lga-letter", fill: p.foreground }, g).textContent = u.type === "hq" ? "" : TYPE_LETTER[u.type];
  if (u.type === "hq") {
    svg("text", { x: cx, y: y + C - 1.6, class: "lga-leader" }, g).textContent = u.id;
    if (u.bonus !== undefined) svg("text", { x: x + C - 1, y: y + 4.2, class: "lga-bonus", fill: p.foreground }, g).textContent = `+${u.bonus}`;
  } else if (own) {
    // §3.4: the text window shows morale as M# and fatigue as F#
    svg("rect", { x: x + 0.6, y: y + C - 5, width: C - 1.2, height: 4.4, class: "lga-strip" }, g);
    svg("text", { x: cx, y: y + C - 1.5, class: `lga-mf${dem ? " dem" : ""}` }, g).textContent = dem ? "DEM" : `M${u.morale} F${u.fatigue}`;
  }
  if (u.garrison) svg("path", { d: crenel(x, y + C + 0.4, C), class: "lga-garrison" }, g);
  if (own && !supplied) {
    svg("circle", { cx: x + C, cy: y, r: 2.6, class: "lga-unsupplied" }, g);
    svg("text", { x: x + C, y: y + 1.5, class: "lga-unsupplied-mark" }, g).textContent = "!";
  }
  if (count > 1) {
    svg("rect", { x: x + C - 3.2, y: y + C - 3.2, width: 6.4, height: 5.6, rx: 1, class: "lga-count" }, g);
    svg("text", { x: x + C, y: y + C + 1.2, class: "lga-count-text" }, g).textContent = String(count);
  }
  const words = [`${p.adjective} ${TYPE_NAME[u.type]} ${u.id}`];
  if (own && u.type !== "hq") words.push(dem ? "demoralised (M0)" : `morale ${u.morale}, fatigue ${u.fatigue}`);
  if (u.garrison) words.push("garrison");
  if (own && !supplied) words.push("out of supply");
  if (count > 1) words.push(`${count} units in the stack`);
  if (!own && count === null) words.push("a cavalry screen hides the stack");
  svg("title", {}, g).textContent = words.join("; ");
}

// The manual's pictures (§3.3): a soldier, a cannon, a cavalryman, a flag; in a box about 12 units wide.
function glyph(type, x, y, colour, g) {
  const attrs = { stroke: colour, fill: "none", "stroke-width": 1.1, "stroke-linecap": "round", "stroke-linejoin": "round", class: "lga-glyph" };
  if (type === "infantry" || type === "militia") {
    const s = type === "militia" ? 0.85 : 1;
    const gg = svg("g", { ...attrs, transform: `translate(${x},${y}) scale(${s})` }, g);
    svg("circle", { cx: 0, cy: -2.6, r: 1.3, fill: colour }, gg);
    if (type === "infantry") svg("rect", { x: -1.2, y: -5.4, width: 2.4, height: 1.8, fill: colour, "stroke-width": 0.4 }, gg);
    svg("path", { d: "M0,-1.2 V2.2 M0,2.2 L-1.8,5.6 M0,2.2 L1.8,5.6 M-2,0.2 L2,-0.6" }, gg);
    if (type === "infantry") svg("path", { d: "M1.6,1.2 L3.4,-5.6" }, gg);
    else svg("path", { d: "M2.2,2.5 L2.2,-4.8 M1.2,-4.8 h2 M1.4,-4.8 v-0.9 M3,-4.8 v-0.9" }, gg); // a pitchfork
  } else if (type === "guard") {
    const gg = svg("g", { ...attrs, transform: `translate(${x},${y})` }, g);
    svg("path", { d: "M-1,1.6 L5,-2.4", "stroke-width": 2.2 }, gg);
    svg("circle", { cx: -1, cy: 2.6, r: 2.4 }, gg);
    svg("path", { d: "M-1,2.6 L-5.6,4.8" }, gg);
  } else if (type === "cavalry") {
    const gg = svg("g", { ...attrs, transform: `translate(${x},${y})` }, g);
    svg("path", { d: "M-4.2,1.4 Q0,-0.4 3.4,1 L5.2,-1.6 L6.2,-0.6 M-3.6,1.6 L-4.4,5 M-2,2 L-1.8,5 M1.8,2 L1.4,5 M3,1.6 L3.6,5 M-4.2,1.4 L-5.6,3.4" }, gg);
    svg("path", { d: "M0,0.2 V-3.4 M0,-3 L3.2,-6.4" }, gg);
    svg("circle", { cx: 0, cy: -4.6, r: 1.1, fill: colour }, gg);
  } else if (type === "hq") {
    const gg = svg("g", { ...attrs, transform: `translate(${x},${y})` }, g);
    svg("path", { d: "M-3.6,4 V-5" }, gg);
    svg("path", { d: "M-3.6,-5 H3.6 V-0.6 H-3.6 Z", fill: colour }, gg);
  }
}

const signed = (n) => `${n >= 0 ? "+" : "−"}${Math.abs(n)}`;

function flag(p) {
  const bands = p?.background || ["#888"];
  return el("span", { class: "lga-flag", style: `background: linear-gradient(90deg, ${bands.map((c, i) => `${c} ${(i * 100) / bands.length}% ${((i + 1) * 100) / bands.length}%`).join(", ")}); border-color: ${p?.border || "#111"}` });
}

function anchor(x, y) {
  return `M${x},${y - 2.6} v5.4 M${x - 1.6},${y - 1.2} h3.2 M${x - 2.6},${y + 1.2} q2.6,2.8 5.2,0 M${x},${y - 3.6} m-0.9,0 a0.9,0.9 0 1,0 1.8,0 a0.9,0.9 0 1,0 -1.8,0`;
}

function crenel(x, y, w) {
  const n = 4;
  const step = w / (2 * n - 1);
  let d = `M${x},${y + 2.6} V${y}`;
  for (let i = 0; i < 2 * n - 1; i++) d += ` h${step} ${i % 2 ? "v-1.4" : "v1.4"}`;
  return `${d} V${y + 2.6} Z`;
}

// the cell nearest the middle of ``cells`` (in map units) among those ``ok`` accepts
function centralCell(layout, cells, ok) {
  if (!cells.length) return null;
  const pts = cells.map((c) => layout.center(c));
  const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
  const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  let best = null;
  let dist = Infinity;
  cells.forEach((c, i) => {
    if (!ok(c)) return;
    const d = Math.hypot(pts[i][0] - mx, pts[i][1] - my);
    if (d < dist) [best, dist] = [c, d];
  });
  return best;
}

function placeOf(map, cell) {
  return (map.places || []).find((p) => p.cells.includes(cell)) || null;
}

function placeAt(map, cell) {
  const p = placeOf(map, cell);
  return p ? `${p.name} (${areaLabel(map, cell)})` : areaLabel(map, cell);
}

// the area's name as the map numbers it (column,row)
function areaLabel(map, cell) {
  const { columns, first } = map.grid;
  return `${(cell % columns) + first[0]},${Math.floor(cell / columns) + first[1]}`;
}

function placeWords(p, legend) {
  const country = legend.countries?.[p.country]?.name || human(p.country);
  const kind = p.kind === "capital" ? `capital of ${country}` : p.kind === "major" ? `major city (${country})` : `minor city (${country})`;
  const vp = p.kind === "capital" ? "4 VP to its own side, 1 to an enemy holding it" : p.kind === "major" ? "2 VP to its own side, 1 to an enemy holding it" : "no VP";
  return `${p.name}: ${kind}, ${vp}${p.port ? "; a port" : ""}`;
}

function areaWords(cell, st, map, seat) {
  const legend = LEGEND;
  const label = areaLabel(map, cell);
  const terrain = map.terrain[cell];
  if (legend.seas?.[terrain]) return `${label}: ${legend.seas[terrain]}`;
  if ((legend.prohibited || []).includes(cell) || terrain === "prohibited") return `${label}: prohibited area`;
  const p = placeOf(map, cell);
  const country = Object.entries(map.regions || {}).find(([name, cells]) => legend.countries?.[name] && cells.includes(cell));
  const parts = [label];
  if (p) parts.push(placeWords(p, legend));
  if (terrain !== "clear") parts.push(human(terrain));
  if ((map.regions?.hinterland || []).includes(cell)) parts.push("the Russian Hinterland");
  if (country && !p) parts.push(legend.countries[country[0]].name);
  const side = st.control?.[cell];
  if (side) parts.push(`${sideName(side)} control`);
  if (st.supplied_areas && side === seat) parts.push(st.supplied_areas.includes(cell) ? "in supply" : "out of supply");
  return parts.join(" · ");
}
