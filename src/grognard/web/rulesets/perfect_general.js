// The Perfect General's own panels for the generic game page (game.js): the header (turn, weather, scores),
// what its view draws besides units (changed terrain, cut roads, barrages, mines, artillery plots, where enemy
// units were last seen), the set-up regions, the unit card, the force still to place, the score chart.

import { el, human } from "../api.js";
import { svg, TERRAIN_COLOURS } from "../hexmap.js";

const SETUP_COLOURS = ["#a8432c", "#2f5d8a"];
const CELL_CLASS = { move: "hl-move", assault: "hl-attack", unload: "hl-move", plot: "hl-plot", place: "hl-place" };

let tableOpen = false;

// One type's row of the unit data, by column name; the ranges as "IN 5 · EN 5 · ...".
function typeData(units, type) {
  const i = units?.types?.indexOf(type) ?? -1;
  if (i < 0 || !units.rows) return null;
  const row = units.rows[i];
  const at = (name) => row[units.columns.indexOf(name)];
  const ranges = units.columns.slice(units.range_from).map((c, j) => `${c} ${row[units.range_from + j]}`).join(" · ");
  return { move: at("move"), defence: at("defence"), damage: at("damage"), cost: at("cost"), indirect: at("indirect range"), ranges };
}

export default {
  keys: "Keys: click a unit, then a highlighted location (its path shows under the pointer) or target · l the selected unit's line of sight · Tab next unit · Enter suggested · e end phase · n next unit · h hold fire · u undo · Esc deselect · arrows pan · + − zoom",

  inspect: { path: ["move"], sight: true, units: true }, // the rules answer all three (rulesets/perfect_general/inspect.py)

  units: (st) => st.units || [],

  header(view, { whose }) {
    const st = view.state;
    const turn = view.turn;
    return [
      el("span", { id: "turn", class: "pill" }, `Turn ${st.turn}${st.turns ? ` / ${st.turns}` : ""}`),
      el("span", { id: "phase", class: "pill" }, view.over ? "game over" : turn.phase.replace(/^turn \d+: /, "")),
      whose(view),
      st.weather ? el("span", { id: "weather", class: "muted" }, `weather: ${st.weather.join(", ")}`) : null,
      el("span", { id: "score" }, Object.entries(st.sides || {}).map(([s, v]) => el("span", { class: `score side-${s}` }, `${s} ${v.score}`))),
    ];
  },

  draw(map, view, { seats }) {
    const st = view.state;
    const { layout } = map;
    const setup = st.phase === "purchase" || st.phase === "placement";
    const regions = map.map.regions || {};
    map.showRegions(setup ? seats.map((s, i) => [regions[`${s}_setup`] || [], SETUP_COLOURS[i]]) : []);
    map.clear();
    const dyn = map.layers.dynamic;
    for (const { cell, terrain } of st.terrain || []) {
      svg("polygon", { points: layout.corners(cell), fill: TERRAIN_COLOURS[terrain] || "#ccc" }, dyn);
      map.decorate(cell, terrain, dyn);
    }
    for (const cell of st.cut_roads || []) {
      const [x, y] = layout.center(cell);
      svg("path", { d: `M${x - 6},${y - 6} l12,12 M${x + 6},${y - 6} l-12,12`, class: "cut" }, dyn);
    }
    for (const b of st.barrages || []) svg("polygon", { points: layout.corners(b.cell, 0.9), class: b.strike ? "barrage strike" : "barrage" }, dyn);
    for (const m of st.mines || []) {
      const [x, y] = layout.center(m.cell);
      svg("path", { d: `M${x},${y - 8} L${x + 3},${y - 2} L${x + 9},${y} L${x + 3},${y + 2} L${x},${y + 8} L${x - 3},${y + 2} L${x - 9},${y} L${x - 3},${y - 2}Z`, class: "mine" }, dyn);
    }
    for (const p of st.plots || []) {
      const [x, y] = layout.center(p.cell);
      const g = svg("g", { class: "plot" }, dyn);
      svg("circle", { cx: x, cy: y, r: 11 }, g);
      svg("path", { d: `M${x - 15},${y} h30 M${x},${y - 15} v30` }, g);
    }
    for (const gh of st.ghosts || []) {
      const [x, y] = layout.center(gh.cell);
      const g = svg("g", { class: "ghost", "data-ghost": gh.id }, map.layers.units);
      svg("rect", { x: x - 12, y: y - 12, width: 24, height: 24, rx: 3 }, g);
      svg("text", { x, y: y + 4 }, g).textContent = "?";
      svg("title", {}, g).textContent = `last seen on turn ${gh.turn}: ${human(gh.type)}`;
    }
    map.drawUnits(st.units || [], seats);
  },

  // the unit card of the side panel: its state, then its type's data (the manual's Appendix B)
  card(u, view, { units }) {
    const byId = new Map((view.state.units || []).map((x) => [x.id, x]));
    const named = (id) => (byId.get(id) ? `the ${byId.get(id).name}` : "a unit");
    const status = [u.fired && "fired", u.moved && "moved", u.spotted && "spotted", u.pinned && "pinned", u.plotted && "plotted", u.carried_by && `carried by ${named(u.carried_by)}`, u.cargo && `carrying ${named(u.cargo)}`];
    const data = typeData(units, u.type);
    return {
      title: [`${u.name} `, el("small", {}, `${u.side}, at ${u.at}`)],
      rows: [
        ["Side", u.side],
        ["Location", u.at],
        ["Strength", `${u.hp} / ${u.max_hp}`],
        u.mp !== undefined ? ["Movement left", (u.mp / 2).toString()] : null,
        ["Status", status.filter(Boolean).join(", ") || "ready"],
        ...(data ? [["Movement", data.move], ["Defence", data.defence], ["Damage a hit", data.damage], ["Cost", `${data.cost} point${data.cost === 1 ? "" : "s"}`], data.indirect ? ["Indirect range", data.indirect] : null, ["Range by target", data.ranges]] : []),
      ],
    };
  },

  // the unit data as a table (the manual's Appendix B, lost from the surviving text: the numbers of data/)
  unitTable(units) {
    if (!units?.rows) return null;
    // open or closed as the player left it: the panel is drawn again at every update
    return el("details", { class: "unit-data", open: tableOpen || null, ontoggle: (e) => { tableOpen = e.target.open; } }, el("summary", {}, units.title || "Unit data"),
      el("table", {}, el("thead", {}, el("tr", {}, units.columns.map((c) => el("th", {}, c)))),
        el("tbody", {}, units.rows.map((r) => el("tr", {}, r.map((v) => el("td", {}, String(v))))))),
      el("p", { class: "muted" }, units.note || ""));
  },

  cellInfo(cell, view) {
    const ghost = (view.state.ghosts || []).find((g) => g.cell === cell);
    return ghost ? [el("p", { class: "muted" }, `An enemy ${human(ghost.type)} was last seen here on turn ${ghost.turn}.`)] : [];
  },

  hover(cell, view, map) {
    const st = view.state;
    const changed = (st.terrain || []).find((t) => t.cell === cell);
    const place = (map.places || []).find((p) => p.cells.includes(cell));
    const here = (st.units || []).filter((u) => u.cell === cell && !u.carried_by).map((u) => `${u.name} (${u.side})`);
    return [
      human(changed ? changed.terrain : map.terrain[cell]),
      map.elevation?.[cell] ? `elevation ${map.elevation[cell]}` : "",
      place ? `${place.name}${place.value ? ` (${place.value} VP)` : ""}` : "",
      here.join(", "),
    ];
  },

  // before the decisions: the force still to place
  panelTop(update, { seat, units }) {
    const pool = update.view.state.sides?.[seat]?.pool || [];
    const table = this.unitTable(units);
    if (!pool.length) return table ? [table] : [];
    const counts = new Map();
    for (const t of pool) counts.set(t, (counts.get(t) || 0) + 1);
    return [el("p", { class: "force" }, "Your force: ", [...counts].map(([t, n]) => `${n}× ${human(t)}`).join(", ")), table].filter(Boolean);
  },

  // an offer of return or passing fire: the firer and its target are marked, the orders listed as buttons
  offer(update) {
    const offer = update.view.state.offer;
    return offer ? [offer.target, offer.shooter].filter(Boolean) : null;
  },

  // the families listed in the panel even though they vary over units (the rest are a selected unit's buttons)
  listed: (f) => f.kind === "pick_up" || f.kind === "build_bridge",

  armableName(f, { update, seat }) {
    const pool = update.view.state.sides?.[seat]?.pool || [];
    return f.fixed.type ? `${human(f.kind)} ${human(f.fixed.type)}${pool.length ? ` ×${pool.filter((t) => t === f.fixed.type).length}` : ""}` : human(f.kind);
  },

  // how a highlighted location looks, by the order it is for
  cellClass: (f) => CELL_CLASS[f.kind] || "hl-other",

  // an artillery plot may be a barrage (p.30)
  familyName: (f) => `${human(f.kind)}${f.fixed.barrage ? " (barrage)" : ""}`,

  // n: next unit to fire (p.28), h: hold fire
  keyKinds: { n: "next_unit", h: "hold_fire" },

  // a shot's line from the firer and a flash on its target, a red flash where a unit is destroyed, a move's end
  animate(map, e) {
    if (e.kind === "shot" && e.from_cell !== undefined) map.line(e.from_cell, e.cell);
    if (e.kind === "shot" && e.cell !== undefined) map.flash([e.cell], "flash");
    if (e.kind === "destroyed" && e.cell !== undefined) map.flash([e.cell], "flash-red");
    if (e.kind === "move" && e.to !== undefined) map.flash([e.to]);
  },

  // the odds before deciding (issue 15 item 3): a close assault's chance to win on its target's location
  cellBadge(f, cell, { update }) {
    const odds = f.kind === "assault" ? update.legal?.info?.assault?.[f.fixed.unit]?.[cell] : undefined;
    return odds === undefined ? null : `${odds}%`;
  },

  // and where the selected artillery's shot may land (p.30: drift, and the splash next to the strike)
  unitOrders(u, { update }) {
    const plot = update.legal?.info?.plots?.[u.id];
    if (!plot) return [];
    const lands = plot.drift ? `${plot.on_target}% to land where aimed, else up to ${plot.drift} hex${plot.drift > 1 ? "es" : ""} off` : "lands where aimed";
    return [el("div", { class: "hint plot-odds" }, `${lands}; ${plot.splash}% to hit each unit next to the strike`)];
  },

  // the score per turn, from the view's history
  chart(view, seats) {
    const hist = view.state.history || [];
    if (!hist.length) return null;
    return { title: "Score per turn", series: seats.map((s, i) => ({ side: s, points: hist.map((h) => h[i]) })) };
  },
};
