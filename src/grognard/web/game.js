// The game page: one websocket per seat this browser holds a token for; the map, the decision panel, the
// event log and the final screen are all driven by the server's per-seat messages (view + legal decisions).
// Decisions the map does not know how to show are listed as buttons from the protocol's decision families.

import { api, el, gameEntry, human, rememberGame } from "./api.js";
import { HexMap, svg } from "./hexmap.js";

const CELL_FIELDS = new Set(["to", "cell"]);
const UNIT_FIELDS = new Set(["target", "cargo", "unit"]);
const CELL_CLASS = { move: "hl-move", assault: "hl-attack", unload: "hl-move", plot: "hl-plot", place: "hl-place" };

const params = new URLSearchParams(location.hash.slice(1));
const gameId = params.get("game");
const $ = (id) => document.getElementById(id);

const page = {
  conns: new Map(), // seat -> {ws, update, events, summary}
  active: null, // the seat shown
  map: null,
  mapKey: "",
  seats: [],
  selected: null,
  armed: null, // key of an armed family (placement by type)
  pending: false,
  shownEvents: 0,
  finalShown: false,
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
  (page.messages ||= []).push(msg);
  if (msg.type === "welcome") {
    conn.summary = msg;
    conn.seat = msg.seat;
    page.seats = Object.keys(msg.seats);
    setStatus("connected");
    ensureMap(msg.game, msg.scenario);
    $("title").textContent = `${msg.game_name}: ${msg.scenario_name}`;
    document.title = `${msg.scenario_name} · grognard`;
  } else if (msg.type === "update") {
    conn.events = conn.events.slice(0, msg.events_from).concat(msg.events);
    conn.update = msg;
    page.pending = false;
    chooseActive();
    render();
    forced(conn);
  } else if (msg.type === "error") {
    page.pending = false;
    toast(msg.message);
    if (!conn.update) setStatus(msg.message);
  } else if (msg.type === "deleted") {
    conn.gone = true;
    toast("this game was deleted", "info");
  }
}

// A decision with no alternative (hold fire when nothing of ours can fire) is made at once, but only when no
// one elsewhere plays: a remote opponent would learn from our quick answer that we had nothing to fire with.
function forced(conn) {
  const legal = conn.update?.legal;
  const seats = conn.summary?.seats || {};
  if (!legal || conn.seat !== page.active || Object.values(seats).some((s) => s.kind === "remote")) return;
  const open = legal.choices.filter((f) => f.field === null || f.values.length);
  if (open.length === 1 && open[0].field === null && open[0].kind === "hold_fire") {
    page.autoHeld = (page.autoHeld || 0) + 1;
    decide(make(open[0], null));
  }
}

function setStatus(text) {
  $("conn").textContent = text;
  $("conn").hidden = text === "connected"; // only trouble is worth the room
}

// The seat shown is the one asked to decide; with one seat, always that one.
function chooseActive() {
  const deciding = [...page.conns.values()].find((c) => c.update?.legal);
  if (deciding && deciding.seat !== page.active) {
    page.active = deciding.seat;
    page.selected = null;
    page.armed = null;
  }
  if (!page.active) page.active = [...page.conns.keys()][0];
}

function current() {
  return page.conns.get(page.active);
}

async function ensureMap(game, scenario) {
  const key = `${game}/${scenario}`;
  if (page.mapKey === key) return;
  page.mapKey = key;
  const data = await api(`/api/maps/${encodeURIComponent(game)}/${encodeURIComponent(scenario)}`);
  page.map = new HexMap($("map"), data, { onCell: clickCell, onHover: hoverCell });
  page.map.fit();
  const minimap = () => page.map.attachMinimap($("minimap"), Math.min(170, Math.round($("map").clientWidth * 0.18)));
  minimap();
  window.addEventListener("resize", () => {
    page.map.fit();
    minimap();
  });
  render();
}

function decide(decision) {
  const conn = current();
  if (!conn?.update?.legal || page.pending) return;
  page.pending = true;
  conn.ws.send(JSON.stringify({ type: "decide", tag: conn.update.tag, decision }));
  page.selected = null;
  $("panel").classList.add("busy");
}

function undo() {
  const conn = current();
  if (!conn?.update?.undo || page.pending) return;
  page.pending = true;
  conn.ws.send(JSON.stringify({ type: "undo", tag: conn.update.tag }));
  $("panel").classList.add("busy");
}

function make(family, value) {
  const d = { kind: family.kind, ...family.fixed };
  if (family.field) d[family.field] = value;
  return d;
}

// --- the legal decisions, sorted by how the page shows them ------------------------------------------------
function families() {
  return current()?.update?.legal?.choices?.filter((f) => f.field === null || f.values.length) || [];
}

const keyOf = (f) => JSON.stringify([f.kind, f.fixed]);

function unitActions(uid) {
  const cells = [];
  const targets = [];
  const buttons = [];
  for (const f of families()) {
    if (f.fixed.unit === uid && CELL_FIELDS.has(f.field)) cells.push(f);
    else if (f.fixed.unit === uid && UNIT_FIELDS.has(f.field)) targets.push(f);
    else if (f.field === "unit" && f.values.includes(uid) && !("target" in f.fixed)) buttons.push(f);
  }
  return { cells, targets, buttons };
}

function unitsOf(view) {
  return new Map((view?.units || []).map((u) => [u.id, u]));
}

function chanceOf(legal, firer, target) {
  const c = legal?.info?.chances;
  if (!c) return null;
  if (c[firer] && typeof c[firer] === "object") return c[firer][target] ?? null;
  if (typeof c[firer] === "number" && legal.info.mover === target) return c[firer];
  return null;
}

// --- clicks ------------------------------------------------------------------------------------------------
function clickCell(cell) {
  const conn = current();
  const update = conn?.update;
  if (!update) return;
  const units = [...unitsOf(update.view.state).values()].filter((u) => u.cell === cell && !u.carried_by);
  const armed = families().find((f) => keyOf(f) === page.armed);
  if (armed && armed.values.includes(cell)) return decide(make(armed, cell));
  if (page.selected) {
    const acts = unitActions(page.selected);
    const target = units.find((u) => acts.targets.some((f) => f.values.includes(u.id)));
    if (target) {
      const options = acts.targets.filter((f) => f.values.includes(target.id));
      return options.length === 1 ? decide(make(options[0], target.id)) : chooser(options.map((f) => [f, target.id]));
    }
    const here = acts.cells.filter((f) => f.values.includes(cell));
    if (here.length === 1 && !units.some((u) => u.side === page.active)) return decide(make(here[0], cell));
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
      el("button", { onclick: () => { box.hidden = true; select(u.id); } }, `select ${u.name} (${u.id})`),
    ),
    el("button", { class: "secondary", onclick: () => { box.hidden = true; } }, "Cancel"),
  );
  box.hidden = false;
}

function describeOption(f, v) {
  const i = f.values.indexOf(v);
  if (f.texts && i >= 0) return f.texts[i];
  const layout = page.map?.layout;
  const where = CELL_FIELDS.has(f.field) && layout ? layout.label(v) : v;
  return `${human(f.kind)} ${where ?? ""}${f.fixed.barrage ? " (barrage)" : ""}`.trim();
}

function select(uid) {
  page.selected = uid;
  page.armed = null;
  const u = unitsOf(current()?.update?.view.state).get(uid);
  renderPanel();
  if (u) showInfo(u.cell);
}

function hoverCell(cell) {
  if (cell === null) return;
  const map = page.map?.map;
  if (!map) return;
  const state = current()?.update?.view.state;
  const changed = (state?.terrain || []).find((t) => t.cell === cell);
  const terrain = changed ? changed.terrain : map.terrain[cell];
  const place = (map.places || []).find((p) => p.cells.includes(cell));
  const here = (state?.units || []).filter((u) => u.cell === cell && !u.carried_by).map((u) => `${u.name} (${u.side})`);
  $("hover").textContent = [
    page.map.layout.label(cell),
    human(terrain),
    map.elevation?.[cell] ? `elevation ${map.elevation[cell]}` : "",
    place ? `${place.name}${place.value ? ` (${place.value} VP)` : ""}` : "",
    here.join(", "),
  ].filter(Boolean).join(" · ");
}

function showInfo(cell) {
  const state = current()?.update?.view.state;
  const box = $("info");
  box.replaceChildren();
  const units = (state?.units || []).filter((u) => u.cell === cell);
  for (const u of units) {
    const rows = [
      ["Side", u.side],
      ["Location", u.at],
      ["Strength", `${u.hp} / ${u.max_hp}`],
      u.mp !== undefined ? ["Movement left", (u.mp / 2).toString()] : null,
      ["Status", [u.fired && "fired", u.moved && "moved", u.spotted && "spotted", u.pinned && "pinned", u.plotted && "plotted", u.carried_by && `carried by ${u.carried_by}`, u.cargo && `carrying ${u.cargo}`].filter(Boolean).join(", ") || "ready"],
    ].filter(Boolean);
    box.append(
      el("div", { class: "unit-card" }, el("h3", {}, `${u.name} `, el("small", {}, u.id)),
        el("dl", {}, rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]))),
    );
  }
  const ghost = (state?.ghosts || []).find((g) => g.cell === cell);
  if (ghost) box.append(el("p", { class: "muted" }, `An enemy ${human(ghost.type)} was last seen here on turn ${ghost.turn}.`));
}

// --- drawing -----------------------------------------------------------------------------------------------
function render() {
  const conn = current();
  const update = conn?.update;
  if (!update) return;
  const view = update.view;
  const st = view.state;
  const turn = view.turn;
  $("turn").textContent = `Turn ${st.turn ?? "?"}${st.turns ? ` / ${st.turns}` : ""}`;
  $("phase").textContent = view.over ? "game over" : turn.phase.replace(/^turn \d+: /, "");
  $("whose").textContent = view.over ? "" : turn.seat === page.active ? "your decision" : `waiting for ${turn.seat}`;
  $("whose").className = turn.seat === page.active && !view.over ? "yours" : "";
  $("weather").textContent = st.weather ? `weather: ${st.weather.join(", ")}` : "";
  $("seat").textContent = page.conns.size > 1 ? `seats here: ${[...page.conns.keys()].join(" & ")} (showing ${page.active})` : `you: ${page.active}`;
  $("score").replaceChildren(
    ...Object.entries(st.sides || {}).map(([s, v]) => el("span", { class: `score side-${s}` }, `${s} ${v.score}`)),
  );
  if (page.map) {
    const setup = st.phase === "purchase" || st.phase === "placement";
    const regions = page.map.map.regions || {};
    page.map.showRegions(setup ? page.seats.map((s, i) => [regions[`${s}_setup`] || [], i === 0 ? "#a8432c" : "#2f5d8a"]) : []);
    page.map.render(st, page.seats);
  }
  renderPanel();
  renderLog(conn);
  $("panel").classList.toggle("busy", page.pending);
  if (view.over && !page.finalShown && !page.replay) showFinal(view);
}

function renderPanel() {
  if (page.replay) return renderReplay();
  const conn = current();
  const update = conn?.update;
  if (!update) return;
  const legal = update.legal;
  const panel = $("decide");
  panel.replaceChildren();
  const highlights = { cells: new Map(), targets: new Map(), selected: page.selected };
  const units = unitsOf(update.view.state);
  if (update.undo) {
    panel.append(el("button", { class: "undo", title: "u", onclick: undo }, "Undo my last order", el("kbd", {}, "u")));
  }
  if (!legal) {
    panel.append(el("p", { class: "muted" }, update.view.over ? "The game is over." : `Waiting for ${update.view.turn.seat}…`));
    page.map?.highlight(highlights);
    return;
  }
  panel.append(el("p", { class: "prompt" }, legal.prompt || "Your decision"));
  if (legal.suggested) {
    panel.append(el("button", { class: "suggested", title: "Enter", onclick: () => decide(legal.suggested) }, `Suggested: ${legal.suggested_text || legal.suggested.kind}`, el("kbd", {}, "⏎")));
  }
  const pool = update.view.state.sides?.[page.active]?.pool || [];
  if (pool.length) {
    const counts = new Map();
    for (const t of pool) counts.set(t, (counts.get(t) || 0) + 1);
    panel.append(el("p", { class: "force" }, "Your force: ", [...counts].map(([t, n]) => `${n}× ${human(t)}`).join(", ")));
  }
  if (legal.info?.mover) highlights.targets.set(legal.info.mover, "");
  const offer = update.view.state.offer;
  if (offer) {
    highlights.targets.set(offer.target, "");
    if (offer.shooter) highlights.targets.set(offer.shooter, "");
  }
  // the selected unit's orders
  if (page.selected && units.get(page.selected)?.side === page.active) {
    const u = units.get(page.selected);
    const acts = unitActions(page.selected);
    const box = el("div", { class: "unit-orders" }, el("h3", {}, `${u.name} at ${u.at}`));
    for (const f of acts.cells) {
      for (const c of f.values) if (!highlights.cells.has(c)) highlights.cells.set(c, CELL_CLASS[f.kind] || "hl-other");
      box.append(el("div", { class: "hint" }, `${human(f.kind)}${f.fixed.barrage ? " (barrage)" : ""}: ${f.values.length} locations highlighted`));
    }
    for (const f of acts.targets) {
      for (const t of f.values) {
        const ch = chanceOf(legal, page.selected, t);
        highlights.targets.set(t, ch === null ? "" : `${ch}%`);
      }
      box.append(el("div", { class: "hint" }, `${human(f.kind)}: click a highlighted unit`));
    }
    for (const f of acts.buttons) box.append(el("button", { onclick: () => decide(make(f, page.selected)) }, describeOption(f, page.selected)));
    if (acts.cells.length + acts.targets.length + acts.buttons.length === 0) box.append(el("div", { class: "hint" }, "no orders for this unit now"));
    panel.append(box);
  }
  // the units that have orders now, to pick from the panel as well as the map
  const ready = [...new Set(families().filter((f) => "unit" in f.fixed).map((f) => f.fixed.unit))].filter((id) => units.get(id)?.side === page.active);
  if (ready.length && !offer) {
    panel.append(el("div", { class: "ready" }, el("h3", {}, "Units with orders"),
      ...ready.map((id) => {
        const u = units.get(id);
        return el("button", { class: id === page.selected ? "armed" : "", "data-unit": id, onclick: () => { select(id); page.map?.reveal(u.cell); } }, `${u.code} ${u.at}`);
      })));
  }
  // everything else, from the protocol's families
  const rest = el("div", { class: "families" });
  const armable = families().filter((f) => CELL_FIELDS.has(f.field) && !("unit" in f.fixed));
  if (armable.length && !armable.some((f) => keyOf(f) === page.armed) && !page.selected) page.armed = keyOf(armable[0]);
  if (armable.length) {
    const pool = update.view.state.sides?.[page.active]?.pool || [];
    rest.append(el("h3", {}, "Choose, then click the map"));
    for (const f of armable) {
      const name = f.fixed.type ? `${human(f.kind)} ${human(f.fixed.type)}${pool.length ? ` ×${pool.filter((t) => t === f.fixed.type).length}` : ""}` : human(f.kind);
      const on = keyOf(f) === page.armed;
      rest.append(el("button", { class: on ? "armed" : "", "aria-pressed": on ? "true" : "false", onclick: () => { page.armed = keyOf(f); page.selected = null; renderPanel(); } }, name));
      if (on) for (const c of f.values) highlights.cells.set(c, CELL_CLASS[f.kind] || "hl-other");
    }
  }
  for (const f of families()) {
    if (armable.includes(f)) continue;
    if ("unit" in f.fixed && (CELL_FIELDS.has(f.field) || UNIT_FIELDS.has(f.field)) && !offer) continue; // on the map
    if (f.field === "unit" && !("target" in f.fixed) && f.kind !== "pick_up" && f.kind !== "build_bridge" && !offer) continue; // per unit
    if (f.field === null) {
      rest.append(el("button", { class: "end", "data-kind": f.kind, onclick: () => decide(make(f, null)) }, f.texts?.[0] ? cap(f.texts[0]) : cap(human(f.kind))));
      continue;
    }
    const group = el("div", { class: "family", "data-kind": f.kind }, el("h4", {}, f.label || cap(human(f.kind))));
    f.values.slice(0, 60).forEach((v) => {
      let text = describeOption(f, v);
      const ch = f.kind === "passing_fire" ? chanceOf(legal, v, f.fixed.target) : "unit" in f.fixed ? chanceOf(legal, f.fixed.unit, v) : null;
      if (ch !== null) text += ` (${ch}%)`;
      group.append(el("button", { "data-value": JSON.stringify(v), onclick: () => decide(make(f, v)) }, text));
      if (f.kind === "return_fire") highlights.targets.set(v, ch === null ? "" : `${ch}%`);
    });
    if (f.values.length > 60) group.append(el("div", { class: "hint" }, `and ${f.values.length - 60} more`));
    rest.append(group);
  }
  panel.append(rest);
  page.map?.highlight(highlights);
}

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

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
    const cell = e.cell ?? e.to;
    const look = typeof cell === "number" ? () => { page.map?.reveal(cell); page.map?.flash([cell]); } : undefined;
    log.append(el("li", { class: `ev ev-${e.kind}${look ? " at" : ""}`, onclick: look, title: look ? "show on the map" : undefined }, e.text));
  }
  if (page.map && page.shownEvents > 0) animate(fresh);
  page.shownEvents = conn.events.length;
  log.scrollTop = log.scrollHeight;
}

function animate(events) {
  for (const e of events.slice(-12)) {
    if (e.kind === "shot" && e.from_cell !== undefined) page.map.line(e.from_cell, e.cell);
    if (e.kind === "shot" || e.kind === "destroyed") page.map.flash([e.cell], e.kind === "destroyed" ? "flash-red" : "flash");
    if (e.kind === "move" && e.to !== undefined) page.map.flash([e.to]);
  }
}

function showFinal(view) {
  page.finalShown = true;
  const res = view.result || {};
  const hist = view.state.history || [];
  const box = $("final");
  const chart = svg("svg", { viewBox: "0 0 300 120", class: "chart" });
  const max = Math.max(1, ...hist.flat());
  page.seats.forEach((s, i) => {
    const pts = [[0, 0], ...hist.map((h, t) => [t + 1, h[i]])];
    svg("polyline", { points: pts.map(([t, v]) => `${10 + (t * 280) / Math.max(1, hist.length)},${110 - (v * 100) / max}`).join(" "), class: `line side-${s}` }, chart);
  });
  box.replaceChildren(
    el("div", { class: "final-card" },
      el("h2", {}, res.winner ? `The ${res.winner} wins` : "A draw"),
      el("p", {}, res.summary || ""),
      el("ul", {}, Object.entries(res.scores || {}).map(([s, v]) => el("li", {}, `${s}: ${v} VP, ${res.levels?.[s] || ""}`))),
      hist.length ? el("div", {}, el("h3", {}, "Score per turn"), chart) : null,
      el("div", { class: "row" },
        el("button", { onclick: () => { box.hidden = true; } }, "Look at the map"),
        el("a", { class: "button", href: "/" }, "Back to the lobby")),
    ),
  );
  box.hidden = false;
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
    renderPanel();
  } else if (e.key === "e") {
    const f = families().find((x) => x.field === null && /^(done|end)/.test(x.kind));
    if (f) decide(make(f, null));
  } else if (e.key === "n") {
    const f = families().find((x) => x.kind === "next_unit");
    if (f) decide(make(f, null));
  } else if (e.key === "u") {
    undo();
  } else if (e.key === "h") {
    const f = families().find((x) => x.kind === "hold_fire");
    if (f) decide(make(f, null));
  } else if (e.key === "Tab" && legal) {
    const ready = [...new Set(families().map((f) => f.fixed.unit).filter(Boolean))];
    if (ready.length) {
      e.preventDefault();
      const next = ready[(ready.indexOf(page.selected) + 1) % ready.length];
      select(next);
      const u = unitsOf(current().update.view.state).get(next);
      if (u) page.map?.reveal(u.cell);
    }
  }
});

$("download").addEventListener("click", async () => {
  const conn = current();
  if (!conn) return;
  const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/save`, { headers: { authorization: `Bearer ${conn.token}` } });
  const blob = await res.blob();
  const a = el("a", { href: URL.createObjectURL(blob), download: `grognard-${gameId}.json` });
  a.click();
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
  await ensureMap(info.game, info.scenario);
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
      el("button", { onclick: go(0), title: "start (Home)" }, "⏮"),
      el("button", { onclick: go(r.step - 1), title: "previous (←, p)", "data-step": "prev" }, "◀"),
      el("button", { onclick: () => togglePlay(), "data-step": "play" }, r.timer ? "pause" : "play"),
      el("button", { onclick: go(r.step + 1), title: "next (→, n)", "data-step": "next" }, "▶"),
      el("button", { onclick: go(r.total), title: "end (End)", "data-step": "end" }, "⏭")),
    slider,
  );
  page.map?.highlight({});
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
  const token = params.get("token");
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
