// The game page: one websocket per seat this browser holds a token for; the map, the decision panel, the
// event log and the final screen are all driven by the server's per-seat messages (view + legal decisions).
// Decisions the map does not know how to show are listed as buttons from the protocol's decision families.
//
// What is a ruleset's own (its header, what its view draws, its unit card, its words) comes from its module,
// web/rulesets/<game>.js, whose default export may give any of these (all optional; see docs/server.md):
//   keys                             the keys line of the side panel
//   units(state, seat)               the units the page may select or point at: {id, cell, side, short, ...}
//   setMap(map), drawStatic(hexmap)  once the public map has come: what is drawn once
//   draw(hexmap, view, ctx)          on every update: the view (units and the rest)
//   fit(hexmap, view, seat)          the first framing of the map
//   overviewPaint(map)               colours for the minimap and the lobby's picture
//   header(view, ctx)                the header's items (date or turn, phase, score)
//   panelTop(update, ctx)            what goes above the decisions (military points, a force to place)
//   card(unit, view, ctx)            a unit's description {title, rows}; cellInfo(cell, view, ctx) an area's
//   hover(cell, view, map, ctx)      the words shown while the pointer rests on a cell
//   unitOrders(unit, ctx)            more for the selected unit's box (moves left, known odds)
//   cellClass(f, cell, ctx), cellBadge(f, cell, ctx)   how a highlighted location looks ("hl-other" by default)
//   familyName(f)                    a family of decisions in words (its kind's words by default)
//   listed(f)                        a family varying over units listed in the panel (not only per unit)
//   line(unit), readyLabel(unit)     a unit in a stack's list, and on its button among the units with orders
//   optionText(f, value, legal, text), armableName(f, ctx), armableTitle(f)  words for buttons
//   offer(update)                    units to mark while a reaction is offered (their orders become buttons)
//   autoSelect, moveFirst            a unit "blinks" (stays selected while it may move); a click on a legal
//                                    location moves there even where own units stand
//   keyKinds: {key: kind}            a key that makes the decision of that kind (h: hold fire)
//   animate(hexmap, event)           marks on the map for a fresh event (a shot's line, a flash)
//   click(cell, ctx)                 a click on the map, taken first: true when the module has acted on it
//                                    (ctx.decide(decision) sends a decision, ctx.select(uid) selects a unit,
//                                    ctx.redraw() draws again, ctx.events: the seat's events)
//   sideName(seat), finalTitle(result), finalRows(result), chart(view, seats, events)
//   inspect: {path: [kinds], sight, units}  questions the rules answer (Ruleset.inspect): the path of a move of
//                                    those kinds under the pointer, a unit's line of sight on request (l, or
//                                    the module's sightKey), the
//                                    unit data once (ctx().units: {columns, rows, types, note})
//   own(f)                           a family the module's own panel shows (kept out of the generic lists)

import { api, el, gameEntry, human, inviteLink, matchOf, rememberGame, rememberMatch, rulesetModule } from "./api.js";
import { HexMap, svg } from "./hexmap.js";

const CELL_FIELDS = new Set(["to", "cell", "at"]);
const UNIT_FIELDS = new Set(["target", "cargo", "unit"]);

const params = new URLSearchParams(location.hash.slice(1));
const gameId = params.get("game");
const $ = (id) => document.getElementById(id);

const page = {
  conns: new Map(), // seat -> {ws, update, events, summary}
  active: null, // the seat shown
  map: null,
  mapKey: "",
  rs: {}, // the ruleset's module
  seats: [],
  selected: null,
  armed: null, // key of an armed family (placement by type)
  pending: false,
  shownEvents: 0,
  finalShown: false,
  painted: {}, // the last highlights drawn, which a previewed path or line of sight is added to
  preview: null, // {tag, unit, path, sight}: answers to our questions about the position shown
};
window.grognard = page; // for the browser tests and the curious

function toast(text, kind = "error") {
  const node = el("div", { class: `toast ${kind}`, role: "alert" }, text);
  $("toasts").append(node);
  setTimeout(() => node.remove(), 5000);
}

// --- connections ------------------------------------------------------------------------------------------
function connect(seat, token) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
  const conn = page.conns.get(seat) || { seat, token, update: null, events: [], retry: 500 };
  conn.ws = ws;
  page.conns.set(seat, conn);
  ws.addEventListener("open", () => {
    conn.retry = 500;
    ws.send(JSON.stringify({ type: "hello", token }));
    // a click made while reconnecting, or one the old socket took with it unanswered, goes now: the server
    // takes it if the position is still the one it was made on, else says it was not taken (a stale tag)
    if (conn.outbox) ws.send(JSON.stringify(conn.outbox));
  });
  ws.addEventListener("message", (e) => onMessage(conn, JSON.parse(e.data)));
  ws.addEventListener("close", () => {
    if (conn.gone) return;
    setStatus("reconnecting…");
    setTimeout(() => connect(seat, token), conn.retry);
    conn.retry = Math.min(conn.retry * 2, 8000);
  });
}

function onMessage(conn, msg) {
  if (msg.type === "welcome") {
    conn.summary = msg;
    conn.seat = msg.seat;
    page.seats = Object.keys(msg.seats);
    setStatus("connected");
    ensureMap(msg.game, msg.scenario, conn.token);
    $("title").textContent = msg.scenario_name;
    $("title").title = `${msg.game_name}: ${msg.scenario_name}`;
    document.title = `${msg.scenario_name} · grognard`;
  } else if (msg.type === "done") {
    conn.outbox = null;
  } else if (msg.type === "update") {
    if (msg.tag !== conn.update?.tag) conn.outbox = null; // answered: the position moved on
    conn.events = conn.events.slice(0, msg.events_from).concat(msg.events);
    if (msg.view.turn.phase !== conn.phase) [conn.phase, conn.phaseSince] = [msg.view.turn.phase, performance.now()];
    for (const f of msg.legal?.choices || []) if (f.count !== undefined) f.values = []; // asked for when shown (wanted)
    for (const k of msg.kept || []) msg.view.state[k] = conn.update.view.state[k]; // unchanged since the last update
    conn.update = msg;
    page.pending = false;
    chooseActive();
    render();
  } else if (msg.type === "values") {
    gotValues(conn, msg);
  } else if (msg.type === "inspected") {
    answered(conn, msg.answer);
  } else if (msg.type === "error" && (msg.ref === "inspect" || msg.ref === "values")) {
    // a question the position no longer fits (it changed meanwhile): nothing to show
  } else if (msg.type === "error") {
    page.pending = false;
    if (conn.outbox) toast("your last order was not taken: the position changed while the page was reconnecting");
    conn.outbox = null;
    toast(msg.message);
    if (!conn.update) setStatus(msg.message);
  } else if (msg.type === "deleted") {
    conn.gone = true;
    toast("this game was deleted", "info");
  }
}

function setStatus(text) {
  $("conn").textContent = text;
  $("conn").hidden = text === "connected"; // only trouble is worth the room
}

// The seat shown is the one asked to decide (the one whose turn it is, when another here may react too);
// with one seat, always that one.
function chooseActive() {
  const deciding = [...page.conns.values()].filter((c) => c.update?.legal);
  if (!deciding.some((c) => c.seat === page.active)) {
    const next = deciding.find((c) => c.update.view.turn.seat === c.seat) || deciding[0];
    if (next) show(next.seat);
  }
  if (!page.active) page.active = [...page.conns.keys()][0];
}

function show(seat) {
  if (seat === page.active) return;
  page.active = seat;
  page.selected = null;
  page.armed = null;
}

function current() {
  return page.conns.get(page.active);
}

async function ensureMap(game, scenario, token) {
  const key = `${game}/${scenario}`;
  if (page.mapKey === key) return;
  page.mapKey = key;
  const [data, rs] = await Promise.all([api(`/api/games/${encodeURIComponent(gameId)}/map`, { token }), rulesetModule(game)]);
  page.rs = rs;
  document.body.classList.add(`ruleset-${game}`); // for a ruleset's own style
  rs.setMap?.(data);
  $("keys").textContent = rs.keys || $("keys").textContent;
  page.map = new HexMap($("map"), data, { onCell: clickCell, onHover: hoverCell, labels: !rs.drawStatic });
  rs.drawStatic?.(page.map);
  const frame = () => {
    const view = current()?.update?.view;
    if (rs.fit && view) rs.fit(page.map, view, page.active);
    else page.map.fit();
  };
  frame();
  page.framed = Boolean(current()?.update);
  const minimap = () => page.map.attachMinimap($("minimap"), Math.min(170, Math.round($("map").clientWidth * 0.18)), rs.overviewPaint?.(data));
  minimap();
  window.addEventListener("resize", () => {
    frame();
    minimap();
  });
  page.reframe = frame;
  render();
}

// A message waits in the connection's outbox until the server answers it ("done", an error, or a new
// position); if the socket is down it goes as soon as the socket is back (connect), so no click is lost.
function send(conn, message) {
  page.pending = true;
  conn.outbox = message;
  if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(message));
  else toast("reconnecting: your order will be sent as soon as the connection is back", "info");
  $("panel").classList.add("busy");
}

// A phase can end by itself (its last unit has its order) and the next one come up under a "Done" or an "e"
// meant for the old one: the tag is fresh by then, so the server cannot tell. An end-of-phase decision is
// therefore taken only once its phase has been on the screen for a moment a person needs to see it.
const SEEN_MS = 700;
page.settled = () => performance.now() - (current()?.phaseSince ?? 0) >= SEEN_MS; // for the browser tests

function decide(decision) {
  const conn = current();
  if (!conn?.update?.legal || page.pending) return;
  if (/^(done|end)/.test(decision.kind) && !page.settled()) {
    toast(`the phase has changed: ${conn.update.legal.prompt || conn.update.view.turn.phase}; look again`, "info");
    return;
  }
  // a unit that moved stays selected while it may go on (the blinking unit of La Grande Armée)
  page.kept = page.rs.autoSelect && decision.unit === page.selected ? page.selected : null;
  send(conn, { type: "decide", tag: conn.update.tag, decision });
  page.selected = null;
}

function undo() {
  const conn = current();
  if (!conn?.update?.undo || page.pending) return;
  send(conn, { type: "undo", tag: conn.update.tag });
}

// The seat's reaction settings (view.reactions: its own, no one else's): ask me, take the best shot when its
// chance is at least N%, never ask this phase. A setting is a decision of the seat's, sent at any moment; a
// reaction with one legal answer is never asked (the server answers it, docs/server.md).
const SETTING_WORDS = { ask: "ask me", best: "take the best shot at", never: "never ask this phase" };

function setReaction(name, mode, percent) {
  const conn = current();
  if (!conn?.update || page.pending) return;
  send(conn, { type: "decide", tag: conn.update.tag, decision: { kind: "reaction_setting", reaction: name, mode, percent } });
}

function reactionSettings(update) {
  const kinds = update.view.reactions;
  if (!kinds?.length || update.view.over) return null;
  const box = el("details", { class: "reactions", ontoggle: (e) => { page.reactionsOpen = e.target.open; } }, el("summary", {}, "Reactions: when to ask me"));
  if (page.reactionsOpen) box.open = true;
  for (const r of kinds) {
    const modes = Object.keys(SETTING_WORDS).filter((m) => r.best || m !== "best");
    const mode = el("select", { "data-reaction": r.name, title: r.label }, ...modes.map((m) => el("option", { value: m, selected: m === r.mode ? "" : null }, SETTING_WORDS[m])));
    const percent = el("input", { type: "number", min: "0", max: "100", step: "5", value: String(r.percent), "data-percent": r.name, hidden: r.mode === "best" ? null : "" });
    const apply = () => setReaction(r.name, mode.value, Math.max(0, Math.min(100, parseInt(percent.value, 10) || 0)));
    mode.onchange = () => { percent.hidden = mode.value !== "best"; apply(); };
    percent.onchange = apply;
    box.append(el("div", { class: "reaction", "data-reaction": r.name }, el("div", { class: "hint" }, cap(r.label)), mode, " ", percent, r.best ? " %" : ""));
  }
  return box;
}

function goOn() {
  const conn = current();
  if (!conn?.update?.hold || page.pending) return;
  send(conn, { type: "go_on" });
}

function make(family, value) {
  const d = { kind: family.kind, ...family.fixed };
  if (family.field) d[family.field] = family.labels ? page.map.layout.label(value) : value;
  return d;
}

// Locations a family lists by their labels ("x,y": decisions that write squares as a manual does) are read as
// the cells they name, and written back as labels in the decision (make)
function readLabels(legal) {
  if (!legal || legal.labelsRead || !page.map) return;
  legal.labelsRead = true;
  for (const f of legal.choices || []) {
    if (!CELL_FIELDS.has(f.field) || !f.values?.length) continue;
    const cells = f.values.map((v) => (typeof v === "string" ? page.map.layout.cell(v) : null));
    if (cells.every((c) => c !== null)) [f.values, f.labels] = [cells, true];
  }
}

// --- the legal decisions, sorted by how the page shows them ------------------------------------------------
function families() {
  readLabels(current()?.update?.legal);
  const all = current()?.update?.legal?.choices?.filter((f) => f.field === null || (f.count ?? (f.values ? f.values.length : f.size))) || [];
  return page.rs.own ? all.filter((f) => !page.rs.own(f)) : all;
}

// A family over locations with many values (a unit's destinations, a type's placement cells) comes as its count
// (docs/server.md, "A decision's way"); its values are asked for when the page shows them (the unit selected,
// the family armed, a reaction offered) and fill the family in place when they come, for that position only.
function wanted(offer) {
  return families().filter((f) => f.count !== undefined && !f.asked && (offer || keyOf(f) === page.armed || (page.selected && f.fixed.unit === page.selected)));
}

function askValues(offer) {
  const conn = current();
  const want = wanted(offer);
  if (!want.length || conn?.ws?.readyState !== WebSocket.OPEN) return;
  for (const f of want) f.asked = true;
  conn.ws.send(JSON.stringify({ type: "values", ref: "values", tag: conn.update.tag, families: want.map((f) => ({ kind: f.kind, fixed: f.fixed })) }));
}

function gotValues(conn, msg) {
  if (msg.tag !== conn.update?.tag) return; // an answer about a position gone by
  const byKey = new Map(conn.update.legal.choices.map((f) => [keyOf(f), f]));
  for (const got of msg.families) Object.assign(byKey.get(keyOf(got)) || {}, { values: got.values, texts: got.texts });
  if (conn !== current()) return;
  const armed = families().find((f) => keyOf(f) === page.armed);
  if (armed && msg.families.some((g) => keyOf(g) === page.armed)) page.map?.reveal(armed.values[0]);
  renderPanel();
}

// A family too large to list (a plotted path) is composed on the map: its hint names the cells it may use; the
// server checks the whole and names the rule a refused one breaks.
const composed = (f) => f.values === null;

const keyOf = (f) => JSON.stringify([f.kind, f.fixed]);

function unitsOf(view) {
  const list = page.rs.units ? page.rs.units(view?.state || {}, page.active) : view?.state?.units || [];
  return new Map(list.map((u) => [u.id, u]));
}

function onMapUnit(uid) {
  const u = unitsOf(current()?.update?.view).get(uid);
  return u && u.cell >= 0 ? u : null;
}

// a location family for a unit on the map is shown when that unit is selected; one without (placement by
// type, a unit still to be built) is armed from the panel; one whose values name no cells (units, in a field
// that names a place elsewhere: a leader transferred "to" a unit) is a list of buttons
function armable(f) {
  if (composed(f) || !CELL_FIELDS.has(f.field)) return false;
  const names = f.values.length && typeof f.values[0] !== "number"; // (a counted family's values come later)
  return !names && !("unit" in f.fixed && onMapUnit(f.fixed.unit));
}

function unitActions(uid) {
  const cells = [];
  const targets = [];
  const buttons = [];
  const paths = [];
  for (const f of families()) {
    if (composed(f)) {
      if (f.fixed.unit === uid) paths.push(f);
    } else if (f.fixed.unit === uid && CELL_FIELDS.has(f.field) && !armable(f)) cells.push(f);
    else if (f.fixed.unit === uid && UNIT_FIELDS.has(f.field)) targets.push(f);
    else if (f.field === "unit" && f.values.includes(uid) && !("target" in f.fixed)) buttons.push(f);
  }
  return { cells, targets, buttons, paths };
}

function chanceOf(legal, firer, target) {
  const c = legal?.info?.chances;
  if (!c) return null;
  if (c[firer] && typeof c[firer] === "object") return c[firer][target] ?? null;
  if (typeof c[firer] === "number" && legal.info.mover === target) return c[firer];
  return null;
}

function ctx() {
  const update = current()?.update;
  const redraw = () => { drawView(); renderPanel(); };
  return { seat: page.active, seats: page.seats, update, legal: update?.legal, map: page.map?.map, selected: page.selected, whose, units: page.unitData, events: current()?.events || [], decide, redraw, select };
}

// --- clicks ------------------------------------------------------------------------------------------------
function clickCell(cell) {
  const conn = current();
  const update = conn?.update;
  if (!update || page.rs.click?.(cell, ctx())) return;
  const units = [...unitsOf(update.view).values()].filter((u) => u.cell === cell && !u.carried_by);
  const armed = families().find((f) => keyOf(f) === page.armed);
  if (armed && !composed(armed) && armed.values.includes(cell)) return decide(make(armed, cell));
  if (page.path && page.selected) {
    page.path.push(cell);
    return renderPanel();
  }
  if (page.selected) {
    const acts = unitActions(page.selected);
    const target = units.find((u) => acts.targets.some((f) => f.values.includes(u.id)));
    if (target) {
      const options = acts.targets.filter((f) => f.values.includes(target.id));
      return options.length === 1 ? decide(make(options[0], target.id)) : chooser(options.map((f) => [f, target.id]));
    }
    const here = acts.cells.filter((f) => f.values.includes(cell));
    if (here.length === 1 && (page.rs.moveFirst || !units.some((u) => u.side === page.active))) return decide(make(here[0], cell));
    if (here.length > 1) return chooser(here.map((f) => [f, cell]));
    if (here.length === 1) return chooser([[here[0], cell]], units);
  }
  const mine = units.filter((u) => u.side === page.active);
  if (mine.length) {
    const i = mine.findIndex((u) => u.id === page.selected);
    select(mine[(i + 1) % mine.length].id);
    return;
  }
  page.selected = units[0]?.id || null;
  page.armed = armed ? page.armed : null;
  renderPanel();
  showInfo(cell);
}

function chooser(options, units = []) {
  const box = $("chooser");
  box.replaceChildren(
    el("div", { class: "chooser-title" }, "Which order?"),
    ...options.map(([f, v]) =>
      el("button", { onclick: () => { box.hidden = true; decide(make(f, v)); } }, describeOption(f, v)),
    ),
    ...units.filter((u) => u.side === page.active).map((u) =>
      el("button", { onclick: () => { box.hidden = true; select(u.id); } }, `select the ${u.name} at ${u.at}`),
    ),
    el("button", { class: "secondary", onclick: () => { box.hidden = true; } }, "Cancel"),
  );
  box.hidden = false;
}

function describeOption(f, v) {
  const i = f.values.indexOf(v);
  let text;
  if (f.texts && i >= 0) text = f.texts[i];
  else {
    const layout = page.map?.layout;
    const where = CELL_FIELDS.has(f.field) && layout ? layout.label(v) : v;
    text = `${familyName(f)} ${where ?? ""}`.trim();
  }
  return page.rs.optionText ? page.rs.optionText(f, v, current()?.update?.legal || {}, text) : text;
}

const familyName = (f) => (page.rs.familyName ? page.rs.familyName(f) : human(f.kind));
const cellClass = (f, cell, c) => (page.rs.cellClass ? page.rs.cellClass(f, cell, c) : "hl-other");

function select(uid) {
  page.selected = uid;
  page.armed = null;
  page.path = null;
  const u = unitsOf(current()?.update?.view).get(uid);
  drawView(); // a ruleset may show the selected unit on top of its stack
  renderPanel();
  if (u) showInfo(u.cell);
}

function hoverCell(cell) {
  if (cell === null) return;
  const map = page.map?.map;
  const view = current()?.update?.view;
  if (!map || !view) return;
  const parts = page.rs.hover ? page.rs.hover(cell, view, map, ctx()) : [human(map.terrain[cell])];
  $("hover").textContent = [page.map.layout.label(cell), ...parts].filter(Boolean).join(" · ");
  previewPath(cell);
}

// --- questions that decide nothing: a move's path under the pointer, a unit's line of sight -----------------
function ask(query) {
  const conn = current();
  if (conn?.ws?.readyState === WebSocket.OPEN && conn.update) conn.ws.send(JSON.stringify({ type: "inspect", ref: "inspect", query }));
}

function previewed() {
  const p = page.preview;
  return p && p.tag === current()?.update?.tag && p.unit === page.selected ? p : null;
}

function previewPath(cell) {
  const kinds = page.rs.inspect?.path;
  if (!kinds || !page.selected || page.pending) return;
  const moving = unitActions(page.selected).cells.some((f) => kinds.includes(f.kind) && f.values.includes(cell));
  const p = previewed();
  if (!moving) {
    if (p?.path) paint({ ...page.painted }, { ...p, path: null, cell: null });
    return;
  }
  if (p?.cell === cell) return;
  page.preview = { ...(p || {}), tag: current().update.tag, unit: page.selected, cell, path: null };
  ask({ kind: "path", unit: page.selected, cell });
}

function toggleSight() {
  if (!page.rs.inspect?.sight || !page.selected || !onMapUnit(page.selected)) return;
  const p = previewed();
  if (p?.sight) return paint({ ...page.painted }, { ...p, sight: null });
  page.preview = { ...(p || {}), tag: current()?.update?.tag, unit: page.selected, sight: [] };
  ask({ kind: "sight", unit: page.selected });
}

function answered(conn, answer) {
  if (answer.kind === "units") { // the unit data, asked once (Ruleset.inspect): the unit card and the table show it
    page.unitData = answer;
    return renderPanel();
  }
  const p = previewed();
  if (conn !== current() || !p || answer.unit !== p.unit) return;
  if (answer.kind === "path" && answer.cell === p.cell) paint(page.painted, { ...p, path: answer.path });
  if (answer.kind === "sight" && p.sight) paint(page.painted, { ...p, sight: answer.cells });
}

// Draw the highlights, with the path and the line of sight asked about the selected unit in this position.
function paint(highlights, preview = previewed()) {
  page.painted = highlights;
  page.preview = preview;
  const p = previewed();
  page.map?.highlight({ ...highlights, path: p?.path || [], sight: p?.sight || [] });
}

// The units at a cell: each described in full; in a big stack the selected one (or the top one) in full and
// the others one line each, to pick from.
function showInfo(cell) {
  page.infoCell = cell;
  const view = current()?.update?.view;
  const box = $("info");
  box.replaceChildren();
  if (!view || cell === null || cell === undefined) return;
  const units = [...unitsOf(view).values()].filter((u) => u.cell === cell);
  const full = units.length > 2 ? [units.find((u) => u.id === page.selected) || units[0]] : units;
  for (const u of full) {
    const card = page.rs.card ? page.rs.card(u, view, ctx()) : { title: [`${u.name || u.id} `, el("small", {}, u.id)], rows: [["Side", u.side], ["Location", u.at]] };
    box.append(
      el("div", { class: `unit-card${u.id === page.selected ? " selected" : ""}`, "data-unit": u.id }, el("h3", {}, ...card.title),
        el("dl", {}, card.rows.filter(Boolean).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]))),
    );
  }
  const others = units.filter((u) => !full.includes(u));
  if (others.length) {
    box.append(el("div", { class: "stack-list" }, el("h4", {}, `With it here (${others.length})`),
      ...others.map((u) => el("button", { "data-unit": u.id, onclick: () => (u.side === page.active ? select(u.id) : null) }, page.rs.line ? page.rs.line(u) : `${u.short ?? u.id} ${u.name}`))));
  }
  if (page.rs.cellInfo) box.append(...page.rs.cellInfo(cell, view, ctx()));
}

// --- drawing -----------------------------------------------------------------------------------------------
// the seats that must decide now: one, or several giving their orders at the same time
const deciding = (view) => view.turn.deciding || (view.turn.seat ? [view.turn.seat] : []);
const sideName = (seat) => (page.rs.sideName ? page.rs.sideName(seat) : seat);

function whose(view) {
  const all = deciding(view);
  const mine = all.includes(page.active) && !view.over;
  const others = all.filter((s) => s !== page.active);
  const away = others.filter((s) => !page.conns.has(s)).map(sideName).join(" and ");
  const here = others.filter((s) => page.conns.has(s)).map(sideName).join(" and ");
  let text = "";
  if (view.over || !all.length) text = "";
  else if (page.replay) text = `the ${all.map(sideName).join(" and ")} player's decision`; // a replay waits for no one
  else if (mine) text = others.length ? `your orders (${others.map(sideName).join(" and ")} at the same time)` : "your decision";
  else if (away) text = `waiting for ${away}`;
  else text = `the ${here} player's decision, at this screen`;
  return el("span", { id: "whose", class: mine ? "yours" : "" }, text);
}

function render() {
  const conn = current();
  const update = conn?.update;
  if (!update || !page.map) return; // the map and the ruleset's module first (ensureMap renders when they come)
  const view = update.view;
  const head = page.rs.header
    ? page.rs.header(view, ctx())
    : [el("span", { id: "phase", class: "pill" }, view.over ? "game over" : view.turn.phase), whose(view)];
  $("status").replaceChildren(...head.filter(Boolean));
  $("seat").textContent = page.conns.size > 1 ? `seats here: ${[...page.conns.keys()].join(" & ")} (showing ${page.active})` : `you: ${page.active}`;
  if (!page.framed) {
    page.framed = true;
    page.reframe?.();
  }
  keepSelection(update);
  if (page.rs.inspect?.units && !page.unitData && conn.ws?.readyState === WebSocket.OPEN) {
    page.unitData = { asked: true };
    ask({ kind: "units" });
  }
  if (page.infoCell !== undefined) showInfo(page.infoCell);
  drawView();
  renderPanel();
  renderLog(conn);
  $("panel").classList.toggle("busy", page.pending);
  $("resign").hidden = view.over || !!page.replay;
  if (view.over && !page.finalShown && !page.replay) showFinal(view, conn.events);
}

function drawView() {
  const view = current()?.update?.view;
  if (!view || !page.map) return;
  if (page.rs.draw) page.rs.draw(page.map, view, ctx());
  else {
    page.map.clear();
    page.map.drawUnits(view.state.units || [], page.seats);
  }
}

// The unit that just moved stays selected while it may go on; else the next unit with orders "blinks".
function keepSelection(update) {
  if (!page.rs.autoSelect || !update.legal || update.view.turn.seat !== page.active) return;
  const ready = readyUnits(update);
  const kept = page.kept;
  page.kept = null;
  if (page.selected && ready.includes(page.selected)) return;
  const next = kept && ready.includes(kept) ? kept : ready[0];
  if (!next) return;
  page.selected = next;
  const u = unitsOf(update.view).get(next);
  if (u && page.map) {
    page.map.reveal(u.cell);
    showInfo(u.cell);
  }
}

// the seat's units on the map with a location or target to choose, in the order the rules list them
function readyUnits(update) {
  const units = unitsOf(update.view);
  const ids = families().filter((f) => "unit" in f.fixed && !armable(f)).map((f) => f.fixed.unit);
  return [...new Set(ids)].filter((id) => units.get(id)?.side === page.active);
}

function renderPanel() {
  if (page.replay) return renderReplay();
  const conn = current();
  const update = conn?.update;
  if (!update) return;
  const legal = update.legal;
  if (legal) askValues(page.rs.offer?.(update));
  const panel = $("decide");
  const asked = `${legal?.prompt}|${update.hold}`;
  if (panel.dataset.asked !== asked) panel.scrollTop = 0; // a new question starts at the top
  panel.dataset.asked = asked;
  panel.replaceChildren();
  const highlights = { cells: new Map(), targets: new Map(), selected: page.selected };
  const units = unitsOf(update.view);
  const c = ctx();
  if (update.undo) {
    panel.append(el("button", { class: "undo", title: "u", onclick: undo }, "Undo my last order", el("kbd", {}, "u")));
  }
  const settings = reactionSettings(update);
  if (!legal) {
    const who = deciding(update.view).filter((s) => s !== page.active).map(sideName).join(" and ");
    panel.append(el("p", { class: "muted" }, update.view.over ? "The game is over." : `Waiting for ${who}…`));
    if (page.rs.panelTop) panel.append(...page.rs.panelTop(update, c));
    if (settings) panel.append(settings);
    paint(highlights);
    return;
  }
  panel.append(el("p", { class: "prompt" }, legal.prompt || "Your decision"));
  if (update.hold) {
    const who = page.rs.sideName ? page.rs.sideName(update.view.turn.seat) : update.view.turn.seat;
    panel.append(el("button", { class: "go-on", "data-kind": "go_on", title: "g", onclick: goOn }, `Let the ${who} player go on`, el("kbd", {}, "g")));
  }
  // two seats at one screen: another that may decide now (a reaction during the other's turn) is a click away
  for (const other of [...page.conns.values()].filter((o) => o.seat !== page.active && o.update?.legal)) {
    const name = page.rs.sideName ? page.rs.sideName(other.seat) : other.seat;
    panel.append(el("button", { class: "switch", "data-seat": other.seat, onclick: () => { show(other.seat); render(); } }, `The ${name} player may decide too: show that seat`));
  }
  if (legal.suggested) {
    panel.append(el("button", { class: "suggested", title: "Enter", onclick: () => decide(legal.suggested), onmouseenter: () => showUnits(legal.suggested) }, `Suggested: ${legal.suggested_text || legal.suggested.kind}`, el("kbd", {}, "⏎")));
  }
  if (page.rs.panelTop) panel.append(...page.rs.panelTop(update, c));
  if (legal.info?.mover) highlights.targets.set(legal.info.mover, "");
  const offer = page.rs.offer?.(update);
  for (const uid of offer || []) highlights.targets.set(uid, "");
  // the selected unit's orders
  if (page.selected && units.get(page.selected)?.side === page.active) {
    const u = units.get(page.selected);
    const acts = unitActions(page.selected);
    const box = el("div", { class: "unit-orders" }, el("h3", {}, u.title ?? `${u.name} at ${u.at}`));
    for (const f of acts.cells) {
      for (const cell of f.values) {
        if (highlights.cells.has(cell)) continue;
        highlights.cells.set(cell, cellClass(f, cell, c));
        const badge = page.rs.cellBadge?.(f, cell, c);
        if (badge) (highlights.badges ||= new Map()).set(cell, badge);
      }
      box.append(el("div", { class: "hint" }, `${familyName(f)}: ${f.values.length} location${f.values.length > 1 ? "s" : ""} highlighted`));
    }
    for (const f of acts.targets) {
      for (const t of f.values) {
        const ch = chanceOf(legal, page.selected, t);
        highlights.targets.set(t, ch === null ? "" : `${ch}%`);
      }
      box.append(el("div", { class: "hint" }, `${human(f.kind)}: click a highlighted unit`));
    }
    for (const f of acts.paths) {
      const path = page.path || [];
      for (const cell of f.hint || []) if (!highlights.cells.has(cell)) highlights.cells.set(cell, "hl-other");
      for (const cell of path) highlights.cells.set(cell, "hl-path");
      const where = (cell) => page.map?.layout?.label(cell) ?? cell;
      box.append(
        el("div", { class: "hint compose", "data-kind": f.kind }, page.path ? `${familyName(f)}: ${path.length ? path.map(where).join(" → ") : "click the hexes in order"}` : `${familyName(f)}: compose it on the map`),
        page.path
          ? el("span", {},
              el("button", { class: "send", "data-kind": f.kind, disabled: path.length ? null : "", onclick: () => { const v = page.path; page.path = null; decide(make(f, v)); } }, `Give the order (${path.length})`),
              el("button", { class: "secondary", onclick: () => { page.path = null; renderPanel(); } }, "Clear"))
          : el("button", { class: "compose", "data-kind": f.kind, onclick: () => { page.path = []; renderPanel(); } }, `${cap(familyName(f))}…`),
      );
    }
    if (page.rs.unitOrders) box.append(...page.rs.unitOrders(u, c));
    for (const f of acts.buttons) box.append(el("button", { "data-kind": f.kind, onclick: () => decide(make(f, page.selected)) }, describeOption(f, page.selected)));
    if (acts.cells.length + acts.targets.length + acts.buttons.length + acts.paths.length === 0) box.append(el("div", { class: "hint" }, "no orders for this unit now"));
    panel.append(box);
  }
  // the units that have orders now, to pick from the panel as well as the map
  const ready = readyUnits(update);
  if (ready.length && !offer) {
    panel.append(el("div", { class: "ready" }, el("h3", {}, "Units with orders"),
      ...ready.map((id) => {
        const u = units.get(id);
        const label = page.rs.readyLabel ? page.rs.readyLabel(u) : `${u.code ?? u.short ?? id} ${u.at}`;
        return el("button", { class: id === page.selected ? "armed" : "", "data-unit": id, title: u.at, onclick: () => { select(id); page.map?.reveal(u.cell); } }, label);
      })));
  }
  // everything else, from the protocol's families
  const rest = el("div", { class: "families" });
  const arms = families().filter(armable);
  if (arms.length && !arms.some((f) => keyOf(f) === page.armed) && !page.selected) {
    page.armed = keyOf(arms[0]);
    if (arms[0].values.length) page.map?.reveal(arms[0].values[0]);
    else askValues(); // revealed when they come (gotValues)
  }
  if (arms.length) {
    rest.append(el("h3", { title: page.rs.armableTitle?.(arms[0]) || "" }, "Choose, then click the map"));
    for (const f of arms) {
      const name = page.rs.armableName ? page.rs.armableName(f, c) : f.fixed.type ? `${human(f.kind)} ${human(f.fixed.type)}` : human(f.kind);
      const on = keyOf(f) === page.armed;
      rest.append(el("button", { class: on ? "armed" : "", "aria-pressed": on ? "true" : "false", "data-kind": f.kind, "data-unit": f.fixed.unit, onclick: () => { page.armed = keyOf(f); page.selected = null; if (f.values.length) page.map?.reveal(f.values[0]); renderPanel(); } }, name));
      if (on) for (const cell of f.values) highlights.cells.set(cell, cellClass(f, cell, c));
    }
  }
  for (const f of families()) {
    if (arms.includes(f) || composed(f)) continue;
    if ("unit" in f.fixed && (CELL_FIELDS.has(f.field) || UNIT_FIELDS.has(f.field)) && !offer) continue; // on the map
    if (f.field === "unit" && !("target" in f.fixed) && !page.rs.listed?.(f) && !offer) continue; // per unit
    if (f.field === null) {
      rest.append(el("button", { class: "end", "data-kind": f.kind, onclick: () => decide(make(f, null)) }, f.texts?.[0] ? cap(f.texts[0]) : cap(human(f.kind))));
      continue;
    }
    const group = el("div", { class: "family", "data-kind": f.kind }, el("h4", {}, f.label || cap(human(f.kind))));
    f.values.slice(0, 60).forEach((v) => {
      let text = describeOption(f, v);
      // a family over firers at one target (passing fire), or over the targets of one unit (return fire)
      const ch = f.field === "unit" && "target" in f.fixed ? chanceOf(legal, v, f.fixed.target) : "unit" in f.fixed ? chanceOf(legal, f.fixed.unit, v) : null;
      if (ch !== null) text += ` (${ch}%)`;
      group.append(el("button", { "data-value": JSON.stringify(v), onclick: () => decide(make(f, v)), onmouseenter: () => showUnits(make(f, v)) }, text));
      if (f.field === "target") highlights.targets.set(v, ch === null ? "" : `${ch}%`);
    });
    if (f.values.length > 60) group.append(el("div", { class: "hint" }, `and ${f.values.length - 60} more`));
    rest.append(group);
  }
  panel.append(rest);
  if (settings) panel.append(settings);
  paint(highlights);
}

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

// Hovering an order that names units (a shot: its firer and target) shows them on the map: a line, a flash.
function showUnits(decision) {
  const units = unitsOf(current()?.update?.view);
  const cells = [decision.unit, decision.target, decision.cargo].map((id) => units.get(id)?.cell).filter((c) => c !== undefined && c >= 0);
  if (!page.map || !cells.length) return;
  if (cells.length > 1) page.map.line(cells[0], cells[1], "shot-line aim");
  page.map.flash(cells);
}

function renderLog(conn) {
  const log = $("log");
  if (log.dataset.seat !== conn.seat || page.shownEvents > conn.events.length) {
    log.replaceChildren();
    log.dataset.seat = conn.seat;
    page.shownEvents = 0;
  }
  const fresh = conn.events.slice(page.shownEvents);
  for (const e of fresh) {
    if (!e.text) continue;
    const cell = e.cell ?? e.to ?? e.at;
    const look = typeof cell === "number" ? () => { page.map?.reveal(cell); page.map?.flash([cell]); } : undefined;
    log.append(el("li", { class: `ev ev-${e.kind}${look ? " at" : ""}`, onclick: look, title: look ? "show on the map" : undefined }, e.text));
  }
  if (page.map && page.shownEvents > 0) animate(fresh);
  page.shownEvents = conn.events.length;
  if (fresh.length) log.scrollTop = log.scrollHeight; // follow the newest entry
}

function animate(events) {
  if (page.rs.animate) for (const e of events.slice(-12)) page.rs.animate(page.map, e);
}

function showFinal(view, events) {
  page.finalShown = true;
  const res = view.result || {};
  const box = $("final");
  const data = page.rs.chart?.(view, page.seats, events || []);
  let chart = null;
  if (data) {
    chart = svg("svg", { viewBox: "0 0 300 120", class: "chart" });
    const zero = data.fromZero !== false; // a score from nothing starts at 0; victory points at their first count
    const n = Math.max(1, ...data.series.map((s) => s.points.length - (zero ? 0 : 1)));
    const max = Math.max(1, ...data.series.flatMap((s) => s.points));
    const min = zero ? 0 : Math.min(...data.series.flatMap((s) => s.points)) - 1;
    for (const s of data.series) {
      const pts = (zero ? [[0, 0]] : []).concat(s.points.map((v, t) => [zero ? t + 1 : t, v]));
      svg("polyline", { points: pts.map(([t, v]) => `${10 + (t * 280) / n},${110 - ((v - min) * 100) / Math.max(1, max - min)}`).join(" "), class: `line side-${s.side}` }, chart);
    }
  }
  const title = page.rs.finalTitle ? page.rs.finalTitle(res) : res.winner ? `The ${res.winner} wins` : "A draw";
  const scored = Object.keys(res.scores || {}).length; // a resignation ends a game with levels and no score
  const rows = page.rs.finalRows ? page.rs.finalRows(res)
    : scored ? Object.entries(res.scores).map(([s, v]) => `${s}: ${v} VP, ${res.levels?.[s] || ""}`)
    : Object.entries(res.levels || {}).filter(([, lv]) => lv).map(([s, lv]) => `${s}: ${lv}`);
  box.replaceChildren(
    el("div", { class: "final-card" },
      el("h2", {}, title),
      el("p", {}, res.summary || ""),
      el("ul", {}, rows.map((r) => el("li", {}, r))),
      chart ? el("div", {}, el("h3", {}, data.title), chart, el("div", { class: "chart-key" }, data.series.map((s) => el("span", { class: `key side-${s.side}` }, page.rs.sideName ? page.rs.sideName(s.side) : s.side)))) : null,
      matchPart(res),
      el("div", { class: "row" },
        el("button", { onclick: () => { box.hidden = true; } }, "Look at the map"),
        el("a", { class: "button", href: "/" }, "Back to the lobby")),
    ),
  );
  box.hidden = false;
}

// The match game (Ruleset.match_option, PG p.3), as the lobby set it up: after the first game, the second with
// sides swapped; after the second, each player's victory points from both games added up.
function matchPart(res) {
  const match = matchOf(gameId);
  if (!match || !res.scores) return null;
  if (match.half === 2) {
    // player 1 played match.player1 in the first game and the other side (player1Second) in this one
    const one = match.firstScores[match.player1] + res.scores[match.player1Second];
    const two = match.firstScores[match.player1Second] + res.scores[match.player1];
    const verdict = one === two ? "the match is drawn" : `player ${one > two ? 1 : 2} wins the match`;
    return el("p", { class: "match-result" }, `Match: player 1 ${one}, player 2 ${two}: ${verdict}`);
  }
  const box = el("div", { class: "match-next" });
  const start = async () => {
    try {
      const res2 = await api("/api/games", { method: "POST", body: match.next });
      const mine = res2.tokens;
      const invites = res2.invites || {};
      const entry = gameEntry(gameId);
      rememberGame(res2.id, mine, invites, (entry?.title || "").replace("game 1 of 2", "game 2 of 2"), res2.creator);
      const other = Object.keys(res.scores).find((s) => s !== match.player1);
      rememberMatch(res2.id, { half: 2, player1: match.player1, player1Second: other, firstScores: res.scores });
      const href = `/game.html?match=2#game=${encodeURIComponent(res2.id)}`;
      if (!Object.keys(invites).length) return location.assign(href);
      box.replaceChildren(...Object.entries(invites).map(([seat, tok]) => el("p", {}, `${human(seat)}: `, el("input", { class: "invite", readonly: true, value: inviteLink(res2.id, tok) }))),
        Object.keys(mine).length ? el("a", { class: "button primary", href }, "Go to the second game") : null);
    } catch (err) {
      box.append(el("p", { class: "error" }, err.message));
    }
  };
  box.append(el("p", {}, `The first game of the match: player 1 played the ${match.player1}.`), el("button", { class: "primary", "data-kind": "match_next", onclick: start }, "Play the second game, sides swapped"));
  return box;
}

// --- keys --------------------------------------------------------------------------------------------------
document.addEventListener("keydown", (e) => {
  if (e.target.closest?.("input, select, textarea")) return;
  const pans = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
  if (page.map && !e.target.closest?.(".hexmap")) {
    // the map's keys work wherever the focus is (the map handles them itself when it has it)
    if (pans[e.key]) {
      page.map.pan(...pans[e.key]);
      e.preventDefault();
      return;
    }
    if (e.key === "+" || e.key === "=") return page.map.zoom(1 / 1.2);
    if (e.key === "-") return page.map.zoom(1.2);
    if (e.key === "0") return page.map.fit();
  }
  const legal = current()?.update?.legal;
  if (e.key === "Enter" && legal?.suggested) decide(legal.suggested);
  else if (e.key === "Escape") {
    page.selected = null;
    $("chooser").hidden = true;
    drawView();
    renderPanel();
  } else if (e.key === "e") {
    const f = families().find((x) => x.field === null && /^(done|end)/.test(x.kind));
    if (f) decide(make(f, null));
  } else if (page.rs.keyKinds?.[e.key] && families().some((x) => x.kind === page.rs.keyKinds[e.key])) {
    decide(make(families().find((x) => x.kind === page.rs.keyKinds[e.key]), null));
  } else if (e.key === "n") {
    nextUnit();
  } else if (e.key === "u") {
    undo();
  } else if (e.key === (page.rs.sightKey || "l")) {
    toggleSight();
  } else if (e.key === "g") {
    goOn();
  } else if (e.key === "Tab" && legal) {
    if (nextUnit()) e.preventDefault();
  }
});

function nextUnit() {
  const update = current()?.update;
  if (!update?.legal) return false;
  const ready = [...new Set(families().map((f) => f.fixed.unit).filter((id) => id && onMapUnit(id)))];
  if (!ready.length) return false;
  const next = ready[(ready.indexOf(page.selected) + 1) % ready.length];
  select(next);
  const u = unitsOf(update.view).get(next);
  if (u) page.map?.reveal(u.cell);
  return true;
}

$("download").addEventListener("click", async () => {
  const conn = current();
  if (!conn) return;
  const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/save`, { headers: { authorization: `Bearer ${conn.token}` } });
  const blob = await res.blob();
  const a = el("a", { href: URL.createObjectURL(blob), download: `grognard-${gameId}.json` });
  a.click();
});
// Either seat may resign at any moment, whoever has the turn: the game ends and the other side wins.
$("resign").addEventListener("click", () => {
  const conn = current();
  if (!conn?.update || conn.update.view.over) return;
  const name = page.rs.sideName ? page.rs.sideName(conn.seat) : conn.seat;
  if (!confirm(`Resign the game as the ${name} player? The game ends and the other side wins.`)) return;
  send(conn, { type: "resign" });
});
$("zoom-in").addEventListener("click", () => page.map?.zoom(1 / 1.25));
$("zoom-out").addEventListener("click", () => page.map?.zoom(1.25));
$("zoom-fit").addEventListener("click", () => page.map?.fit());

// --- the replay of a finished game: every decision in turn, in the full view ---------------------------------
async function startReplay(token) {
  const info = await api(`/api/games/${encodeURIComponent(gameId)}`, { token });
  page.seats = Object.keys(info.seats);
  $("title").textContent = `Replay · ${info.game_name}: ${info.scenario_name}`;
  document.title = `Replay: ${info.scenario_name} · grognard`;
  page.replay = { token, step: 0, ...(await api(`/api/games/${encodeURIComponent(gameId)}/replay`, { token })) };
  page.active = "replay";
  setStatus("replay");
  await ensureMap(info.game, info.scenario, token);
  await showStep(0);
}

async function showStep(n) {
  const r = page.replay;
  const step = Math.max(0, Math.min(r.total, n));
  const update = await api(`/api/games/${encodeURIComponent(gameId)}/replay/${step}`, { token: r.token });
  r.step = step;
  page.conns.set("replay", { seat: "replay", update, events: r.events.slice(0, r.event_marks[step]) });
  render();
}

function renderReplay() {
  const r = page.replay;
  const panel = $("decide");
  const last = r.step > 0 ? r.decisions[r.step - 1] : null;
  const go = (n) => () => showStep(n);
  const slider = el("input", { type: "range", min: 0, max: r.total, value: r.step, class: "replay-slider", "aria-label": "step" });
  slider.addEventListener("change", () => showStep(Number(slider.value)));
  panel.replaceChildren(
    el("p", { class: "prompt" }, `Replay: decision ${r.step} of ${r.total}`),
    el("p", { class: "replay-decision" }, last ? `${last.seat}: ${last.text}` : "the start, before the first decision"),
    el("div", { class: "replay-controls" },
      // words and Latin-1 marks only: the media symbols (U+23EE...) are missing from Debian's Chromium fonts
      el("button", { onclick: go(0), title: "start (Home)", "data-step": "start" }, "« start"),
      el("button", { onclick: go(r.step - 1), title: "previous (p)", "data-step": "prev" }, "‹ back"),
      el("button", { onclick: () => togglePlay(), "data-step": "play" }, r.timer ? "pause" : "play"),
      el("button", { onclick: go(r.step + 1), title: "next (n)", "data-step": "forward" }, "next ›"),
      el("button", { onclick: go(r.total), title: "end (End)", "data-step": "end" }, "end »")),
    slider,
  );
  paint({});
}

function togglePlay() {
  const r = page.replay;
  if (r.timer) {
    clearInterval(r.timer);
    r.timer = null;
  } else {
    r.timer = setInterval(() => (r.step >= r.total ? togglePlay() : showStep(r.step + 1)), 400);
  }
  renderReplay();
}

document.addEventListener("keydown", (e) => {
  if (!page.replay || e.target.closest?.("input, select, textarea")) return;
  const r = page.replay;
  if (e.key === "n" || e.key === ".") showStep(r.step + 1);
  else if (e.key === "p" || e.key === ",") showStep(r.step - 1);
  else if (e.key === "Home") showStep(0);
  else if (e.key === "End") showStep(r.total);
});

// --- start -------------------------------------------------------------------------------------------------
async function start() {
  if (!gameId) {
    setStatus("no game named in the address");
    return;
  }
  const invite = params.get("invite");
  if (invite) {
    // an invitation: the first browser to open it gets the seat and a token of its own; then it is spent
    try {
      const s = await api(`/api/games/${encodeURIComponent(gameId)}/claim`, { method: "POST", body: { invite } });
      rememberGame(gameId, { [s.seat]: s.token });
    } catch (e) {
      setStatus(e.message); // spent: this browser does not get the seat (any seat it plays opens from the lobby)
      return;
    } finally {
      history.replaceState(null, "", `#game=${encodeURIComponent(gameId)}`);
    }
  }
  const token = params.get("token"); // an invitation link of an older grognard: the seat's token itself
  if (token) {
    // an invitation: learn its seat, keep the token in this browser, and take it out of the address bar
    try {
      const s = await api(`/api/games/${encodeURIComponent(gameId)}`, { token });
      rememberGame(gameId, { [s.seat]: token }, {}, `${s.game_name}: ${s.scenario_name}`);
      history.replaceState(null, "", `#game=${encodeURIComponent(gameId)}`);
    } catch (e) {
      setStatus(e.message);
      return;
    }
  }
  const tokens = Object.entries(gameEntry(gameId)?.tokens || {});
  if (!tokens.length) {
    setStatus("this browser holds no seat of this game");
    return;
  }
  if (params.has("replay")) {
    startReplay(tokens[0][1]).catch((e) => setStatus(e.message));
    return;
  }
  for (const [seat, tok] of tokens) connect(seat, tok);
}

start();
