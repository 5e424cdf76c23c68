// The map as SVG: the scenario's public map drawn once, then the seat's view and the highlights of legal
// decisions drawn over it on every update. A ruleset's module (web/rulesets/<game>.js) draws what is its own
// (La Grande Armée's control and stacks, The Perfect General's mines and barrages); what is here is generic:
// terrain, roads and rivers, places, counters, highlights, pan and zoom with the mouse (drag, wheel), touch
// (drag, pinch) and keys (arrows, + and -).

const NS = "http://www.w3.org/2000/svg";
const S = 20; // hex radius in map units
const R3 = Math.sqrt(3);

export const TERRAIN_COLOURS = {
  clear: "#cfd9a3",
  field: "#e3d58a",
  hill: "#b9a36f",
  ridge: "#a78f5c",
  forest: "#5f8a4a",
  forest_rubble: "#7d7a55",
  town: "#b8aea0",
  town_rubble: "#8e857a",
  fortification: "#8c8c8c",
  rough: "#a9a27f",
  desert: "#e8d9a8",
  destroyed_road: "#a38f74",
  cratered: "#8f7d60",
  beach: "#efe2b0",
  sea: "#4f7fb0",
  lake: "#5b8cbc",
  coast: "#7aa6cf",
  river: "#5f95c9",
  bridge: "#5f95c9",
  blown_bridge: "#5f95c9",
  escarpment: "#8c7650",
  depression: "#b3b98a",
  mountain: "#b9a77f",
  marsh: "#a9bb93",
  atlantic: "#5d88b6",
  north_sea: "#668fbb",
  baltic: "#6c95c0",
  mediterranean: "#5f8dbd",
  prohibited: "#57544d",
};
const SIDE_COLOURS = ["#a8432c", "#2f5d8a", "#5b6b2f", "#6b4f8a"];

export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

// A five-pointed star's path around x,y (a capital, a leader).
export function star(x, y, r, inner) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? inner : r;
    pts.push(`${(x + rr * Math.cos(a)).toFixed(2)},${(y + rr * Math.sin(a)).toFixed(2)}`);
  }
  return `M${pts.join(" L")}Z`;
}

// Cell geometry from the grid description of the public map.
export class Layout {
  constructor(grid) {
    this.grid = grid;
    this.hex = grid.kind === "hex";
    this.flat = this.hex && String(grid.layout || "odd-q").endsWith("q");
    this.odd = String(grid.layout || "odd-q").startsWith("odd");
    // a square map may be drawn mirrored (Antietam's row 0 is its south edge and x grows westward: both flipped,
    // north is up); cells, neighbours and labels stay the map's own
    this.flipCols = !this.hex && Boolean(grid.flip_columns);
    this.flipRows = !this.hex && Boolean(grid.flip_rows);
  }
  center(cell) {
    const { columns, rows } = this.grid;
    let col = cell % columns;
    let row = Math.floor(cell / columns);
    if (!this.hex) {
      if (this.flipCols) col = columns - 1 - col;
      if (this.flipRows) row = rows - 1 - row;
      return [col * 2 * S + S, row * 2 * S + S];
    }
    if (this.flat) {
      const shift = (col & 1) === (this.odd ? 1 : 0) ? 0.5 : 0;
      return [1.5 * S * col + S, R3 * S * (row + shift) + (R3 * S) / 2];
    }
    const shift = (row & 1) === (this.odd ? 1 : 0) ? 0.5 : 0;
    return [R3 * S * (col + shift) + (R3 * S) / 2, 1.5 * S * row + S];
  }
  corners(cell, scale = 1) {
    const [x, y] = this.center(cell);
    if (!this.hex) {
      const h = S * scale;
      return `${x - h},${y - h} ${x + h},${y - h} ${x + h},${y + h} ${x - h},${y + h}`;
    }
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * (60 * i + (this.flat ? 0 : 30));
      pts.push(`${(x + S * scale * Math.cos(a)).toFixed(2)},${(y + S * scale * Math.sin(a)).toFixed(2)}`);
    }
    return pts.join(" ");
  }
  size() {
    const { columns, rows } = this.grid;
    if (!this.hex) return [columns * 2 * S, rows * 2 * S];
    if (this.flat) return [1.5 * S * columns + S / 2, R3 * S * (rows + 0.5)];
    return [R3 * S * (columns + 0.5), 1.5 * S * rows + S / 2];
  }
  // The cells that share a side with ``cell`` (the same offset rules as center()).
  neighbors(cell) {
    const { columns, rows } = this.grid;
    const col = cell % columns;
    const row = Math.floor(cell / columns);
    let steps;
    if (!this.hex) steps = [[-1, 0], [1, 0], [0, -1], [0, 1], [-1, -1], [1, -1], [-1, 1], [1, 1]];
    else if (this.flat) {
      const shifted = (col & 1) === (this.odd ? 1 : 0);
      steps = shifted ? [[0, -1], [0, 1], [-1, 0], [1, 0], [-1, 1], [1, 1]] : [[0, -1], [0, 1], [-1, -1], [1, -1], [-1, 0], [1, 0]];
    } else {
      const shifted = (row & 1) === (this.odd ? 1 : 0);
      steps = shifted ? [[-1, 0], [1, 0], [0, -1], [1, -1], [0, 1], [1, 1]] : [[-1, 0], [1, 0], [-1, -1], [0, -1], [-1, 1], [0, 1]];
    }
    return steps
      .map(([dc, dr]) => [col + dc, row + dr])
      .filter(([c, r]) => c >= 0 && c < columns && r >= 0 && r < rows)
      .map(([c, r]) => r * columns + c);
  }
  label(cell) {
    const { columns, first } = this.grid;
    return `${(cell % columns) + first[0]},${Math.floor(cell / columns) + first[1]}`;
  }
  // The cell a label names ("column,row", as label() writes it), or null.
  cell(label) {
    const m = /^(\d+),(\d+)$/.exec(String(label));
    if (!m) return null;
    const { columns, rows, first } = this.grid;
    const [col, row] = [Number(m[1]) - first[0], Number(m[2]) - first[1]];
    return col >= 0 && col < columns && row >= 0 && row < rows ? row * columns + col : null;
  }
}

// A small picture of a scenario's map (the lobby's overview).
// ``paint(cell, terrain)`` may give a cell another colour (a ruleset's module: control, prohibited areas).
export function overview(map, width = 240, paint = null) {
  const layout = new Layout(map.grid);
  const [w, h] = layout.size();
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, width, height: Math.round((width * h) / w), class: "overview" });
  map.terrain.forEach((t, cell) => {
    svg("polygon", { points: layout.corners(cell, 1.02), fill: paint?.(cell, t) || TERRAIN_COLOURS[t] || "#ccc" }, root);
  });
  for (const [a, b] of (map.edges || {}).road || []) {
    const [x1, y1] = layout.center(a);
    const [x2, y2] = layout.center(b);
    svg("line", { x1, y1, x2, y2, stroke: "#6b4a2b", "stroke-width": 4 }, root);
  }
  // on a crowded map only the most valuable places are named (the lobby's picture is small)
  const places = map.places || [];
  const top = Math.max(0, ...places.map((p) => p.value || 0));
  for (const place of places) {
    if (places.length > 15 && (place.value || 0) < top) continue;
    const [x, y] = layout.center(place.cells[0]);
    svg("text", { x, y: y - 12, class: "town-name", style: "font-size: 30px; stroke-width: 6px" }, root).textContent = place.name;
  }
  return root;
}

export class HexMap {
  constructor(container, map, { onCell = () => {}, onHover = () => {}, labels = true } = {}) {
    this.map = map;
    this.labels = labels;
    this.layout = new Layout(map.grid);
    this.onCell = onCell;
    this.onHover = onHover;
    const [w, h] = this.layout.size();
    this.full = { x: -S, y: -S, w: w + 2 * S, h: h + 2 * S };
    this.box = { ...this.full };
    this.root = svg("svg", { class: "hexmap", tabindex: "0", role: "img", "aria-label": map.name || "map" });
    container.replaceChildren(this.root);
    this.layers = {};
    for (const name of ["terrain", "relief", "roads", "regions", "places", "dynamic", "marks", "units", "top"]) {
      this.layers[name] = svg("g", { class: `layer-${name}` }, this.root);
    }
    this.drawStatic();
    this.applyBox();
    this.bindInput();
  }

  drawStatic() {
    const { layout, map } = this;
    const terrainLayer = this.layers.terrain;
    this.cellNodes = map.terrain.map((t, cell) =>
      svg("polygon", { points: layout.corners(cell), fill: TERRAIN_COLOURS[t] || "#ccc", class: `hex t-${t}`, "data-cell": cell }, terrainLayer),
    );
    map.terrain.forEach((t, cell) => this.decorate(cell, t, this.layers.relief));
    const elev = map.elevation || [];
    elev.forEach((e, cell) => {
      if (e > 0) svg("polygon", { points: layout.corners(cell, 0.97), class: "elev", "fill-opacity": Math.min(0.12 * e, 0.5) }, this.layers.relief);
    });
    // contour lines where the elevation changes
    for (const [kind, width, cls] of [["road", 5, "road"], ["track", 3, "track"]]) {
      for (const [a, b] of (map.edges || {})[kind] || []) {
        const [x1, y1] = layout.center(a);
        const [x2, y2] = layout.center(b);
        svg("line", { x1, y1, x2, y2, class: cls, "stroke-width": width }, this.layers.roads);
      }
    }
    for (const [a, b] of (map.edges || {}).river || []) this.edgeLine(a, b, "river-edge", this.layers.roads);
    for (const place of this.labels ? map.places || [] : []) {
      for (const cell of place.cells) svg("polygon", { points: layout.corners(cell, 0.9), class: "town-outline" }, this.layers.places);
      const xs = place.cells.map((c) => layout.center(c));
      const x = xs.reduce((s, p) => s + p[0], 0) / xs.length;
      const y = Math.min(...xs.map((p) => p[1])) - S * 0.95;
      const label = svg("text", { x, y, class: "town-name" }, this.layers.places);
      label.textContent = place.value ? `${place.name} (${place.value})` : place.name;
    }
  }

  decorate(cell, terrain, layer) {
    const [x, y] = this.layout.center(cell);
    if (terrain === "forest" || terrain === "forest_rubble") {
      for (const [dx, dy] of [[-6, -4], [5, -6], [0, 5], [-8, 6], [8, 4]]) svg("circle", { cx: x + dx, cy: y + dy, r: 4.2, class: "tree" }, layer);
    } else if (terrain === "town" || terrain === "town_rubble") {
      for (const [dx, dy] of [[-7, -5], [2, -7], [-3, 3], [6, 2]]) svg("rect", { x: x + dx, y: y + dy, width: 6, height: 5, class: "house" }, layer);
    } else if (terrain === "bridge") {
      svg("rect", { x: x - S * 0.9, y: y - 4, width: S * 1.8, height: 8, class: "bridge" }, layer);
    } else if (terrain === "hill" || terrain === "ridge") {
      svg("path", { d: `M${x - 9},${y + 5} L${x},${y - 6} L${x + 9},${y + 5}`, class: "hill-mark" }, layer);
    } else if (terrain === "rough") {
      svg("path", { d: `M${x - 8},${y + 3} l4,-5 l4,5 l4,-5 l4,5`, class: "hill-mark" }, layer);
    } else if (terrain === "field") {
      for (const dy of [-6, 0, 6]) svg("line", { x1: x - 8, y1: y + dy, x2: x + 8, y2: y + dy, class: "furrow" }, layer);
    } else if (terrain === "mountain") {
      svg("path", { d: `M${x - 13},${y + 7} l6,-9 l4,5 l5,-9 l7,13 M${x + 1},${y - 5} l-2,4 M${x - 7},${y - 2} l-1,3`, class: "mountain-mark" }, layer);
    } else if (terrain === "marsh") {
      for (const [dx, dy] of [[-8, -5], [4, -7], [-2, 4], [9, 3]]) {
        svg("path", { d: `M${x + dx - 4},${y + dy} h8 M${x + dx},${y + dy} v-4 M${x + dx - 2.5},${y + dy} l-1.5,-3 M${x + dx + 2.5},${y + dy} l1.5,-3`, class: "marsh-mark" }, layer);
      }
    }
  }

  // Recolour a cell (a ruleset's module tints land by who controls it).
  fill(cell, colour) {
    this.cellNodes[cell]?.setAttribute("fill", colour);
  }

  edgeLine(a, b, cls, layer) {
    const [x1, y1] = this.layout.center(a);
    const [x2, y2] = this.layout.center(b);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const dx = (y2 - y1) / 2 / R3;
    const dy = -(x2 - x1) / 2 / R3;
    return svg("line", { x1: mx - dx, y1: my - dy, x2: mx + dx, y2: my + dy, class: cls }, layer);
  }

  showRegions(cellsBySide) {
    const layer = this.layers.regions;
    layer.replaceChildren();
    cellsBySide.forEach(([cells, colour]) => {
      for (const cell of cells) svg("polygon", { points: this.layout.corners(cell, 0.98), class: "region", fill: colour }, layer);
    });
  }

  // Empty the layers an update redraws.
  clear() {
    this.layers.dynamic.replaceChildren();
    this.layers.units.replaceChildren();
  }

  // The view's units as counters, stacked with a small offset (a ruleset's module may draw its own instead).
  drawUnits(units, sides) {
    const byCell = new Map();
    for (const u of units) {
      if (u.carried_by || !(u.cell >= 0)) continue;
      if (!byCell.has(u.cell)) byCell.set(u.cell, []);
      byCell.get(u.cell).push(u);
    }
    for (const [cell, stack] of byCell) {
      stack.forEach((u, i) => this.counter(u, cell, i, sides));
    }
  }

  counter(u, cell, i, sides) {
    const [cx, cy] = this.layout.center(cell);
    const x = cx - 13 + i * 3;
    const y = cy - 13 - i * 3;
    const colour = SIDE_COLOURS[Math.max(0, sides.indexOf(u.side))];
    const g = svg("g", { class: `counter side-${u.side}${u.fired ? " fired" : ""}${u.moved ? " moved" : ""}`, "data-unit": u.id, "data-cell": cell }, this.layers.units);
    svg("rect", { x, y, width: 26, height: 26, rx: 3, fill: colour, class: "counter-bg" }, g);
    this.symbol(u, x + 13, y + 8, g);
    svg("text", { x: x + 13, y: y + 19.5, class: "code" }, g).textContent = u.code ?? u.short ?? "";
    if (u.max_hp) {
      const frac = u.hp / u.max_hp;
      svg("rect", { x: x + 2, y: y + 22, width: 22 * frac, height: 2.5, class: frac < 0.5 ? "hp low" : "hp" }, g);
    }
    if (u.fired) svg("circle", { cx: x + 24, cy: y + 2, r: 3.2, class: "mark-fired" }, g);
    if (u.moved) svg("circle", { cx: x + 2, cy: y + 2, r: 3.2, class: "mark-moved" }, g);
    if (u.has_cargo) svg("rect", { x: x + 20, y: y + 20, width: 5, height: 5, class: "mark-cargo" }, g);
    svg("title", {}, g).textContent = `${u.name} (${u.side}) at ${u.at}${u.max_hp ? `: ${u.hp}/${u.max_hp}` : ""}${u.fired ? ", fired" : ""}${u.moved ? ", moved" : ""}`;
  }

  symbol(u, x, y, g) {
    const t = u.type;
    svg("rect", { x: x - 7, y: y - 4, width: 14, height: 8, class: "nato" }, g);
    if (/infantry|bazooka|engineer/.test(t)) {
      svg("path", { d: `M${x - 7},${y - 4} L${x + 7},${y + 4} M${x + 7},${y - 4} L${x - 7},${y + 4}`, class: "nato-line" }, g);
      if (t === "engineer") svg("path", { d: `M${x - 4},${y + 2} v-3 h8 v3`, class: "nato-line" }, g);
    } else if (/tank|armored/.test(t)) {
      svg("ellipse", { cx: x, cy: y, rx: 5, ry: 2.4, class: "nato-line" }, g);
    } else if (/artillery/.test(t)) {
      svg("circle", { cx: x, cy: y, r: 1.8, class: "nato-dot" }, g);
    }
  }

  // Highlights: {cell: class} for cells, {unit: text} for target odds, the selected unit.
  // ``badges`` ({cell: text}) label highlighted cells (a ruleset's odds).
  // ``sight`` (cells) shades what a unit sees, under the other highlights; ``path`` is a move's route.
  highlight({ cells = new Map(), targets = new Map(), selected = null, path = [], badges = new Map(), sight = [] } = {}) {
    const marks = this.layers.marks;
    const top = this.layers.top;
    marks.replaceChildren();
    top.replaceChildren();
    for (const cell of sight) svg("polygon", { points: this.layout.corners(cell, 1), class: "sight", "data-sight": cell }, marks);
    for (const [cell, cls] of cells) svg("polygon", { points: this.layout.corners(cell, 0.92), class: `hl ${cls}`, "data-cell": cell }, marks);
    for (const [cell, text] of badges) {
      const [x, y] = this.layout.center(cell);
      const g = svg("g", { class: "odds-cell", "data-cell": cell }, top);
      svg("rect", { x: x - 7, y: y - 13, width: 14, height: 8, rx: 1.5 }, g);
      svg("text", { x, y: y - 7 }, g).textContent = text;
    }
    if (path.length > 1) {
      svg("polyline", { points: path.map((c) => this.layout.center(c).join(",")).join(" "), class: "path", "data-path": path.join(" ") }, top);
    }
    for (const node of this.layers.units.querySelectorAll(".counter.selected, .counter.target")) node.classList.remove("selected", "target");
    if (selected) this.layers.units.querySelector(`[data-unit="${CSS.escape(selected)}"]`)?.classList.add("selected");
    for (const [uid, text] of targets) {
      const node = this.layers.units.querySelector(`[data-unit="${CSS.escape(uid)}"]`);
      if (!node) continue;
      node.classList.add("target");
      const [x, y] = this.layout.center(Number(node.dataset.cell));
      if (text) {
        const g = svg("g", { class: "odds" }, top);
        svg("rect", { x: x - 14, y: y + 11, width: 28, height: 11, rx: 2 }, g);
        svg("text", { x, y: y + 19.5 }, g).textContent = text;
      }
    }
  }

  flash(cells, cls = "flash") {
    for (const cell of cells) {
      const node = svg("polygon", { points: this.layout.corners(cell, 0.95), class: cls }, this.layers.top);
      setTimeout(() => node.remove(), 1200);
    }
  }

  line(a, b, cls = "shot-line") {
    const [x1, y1] = this.layout.center(a);
    const [x2, y2] = this.layout.center(b);
    const node = svg("line", { x1, y1, x2, y2, class: cls }, this.layers.top);
    setTimeout(() => node.remove(), 1200);
  }

  // Bring a cell into sight if it is outside the visible part of the map.
  reveal(cell) {
    if (cell === undefined) return; // values still to come from the server (game.js, wanted)
    const [x, y] = this.layout.center(cell);
    const b = this.box;
    if (x < b.x + S || x > b.x + b.w - S || y < b.y + S || y > b.y + b.h - S) this.centerOn(cell);
  }

  centerOn(cell) {
    const [x, y] = this.layout.center(cell);
    this.box.x = x - this.box.w / 2;
    this.box.y = y - this.box.h / 2;
    this.applyBox();
  }

  // A small picture of the whole map with the visible part framed; a click there looks at that place.
  attachMinimap(container, width = 170, paint = null) {
    const mini = overview(this.map, width, paint);
    this.miniFrame = svg("rect", { class: "mini-frame" }, mini);
    mini.addEventListener("click", (e) => {
      const rect = mini.getBoundingClientRect();
      const [w, h] = this.layout.size();
      this.box.x = ((e.clientX - rect.left) / rect.width) * w - this.box.w / 2;
      this.box.y = ((e.clientY - rect.top) / rect.height) * h - this.box.h / 2;
      this.applyBox();
    });
    container.replaceChildren(mini);
    this.applyBox();
  }

  // --- pan and zoom --------------------------------------------------------------------------------------
  applyBox() {
    const b = this.box;
    const f = this.full; // the middle of the view stays over the map; a side the view holds whole is centred
    b.x = b.w >= f.w ? f.x - (b.w - f.w) / 2 : Math.min(Math.max(b.x, f.x - b.w / 2), f.x + f.w - b.w / 2);
    b.y = b.h >= f.h ? f.y - (b.h - f.h) / 2 : Math.min(Math.max(b.y, f.y - b.h / 2), f.y + f.h - b.h / 2);
    this.root.setAttribute("viewBox", `${b.x.toFixed(1)} ${b.y.toFixed(1)} ${b.w.toFixed(1)} ${b.h.toFixed(1)}`);
    // close enough to read small print: the page shows what is drawn only then (minor towns' names)
    const width = this.root.getBoundingClientRect().width;
    this.root.classList.toggle("near", width > 0 && width / b.w > 2.4);
    if (this.miniFrame) for (const [k, v] of Object.entries({ x: b.x, y: b.y, width: b.w, height: b.h })) this.miniFrame.setAttribute(k, v.toFixed(1));
  }

  zoom(factor, px = 0.5, py = 0.5) {
    const b = this.box;
    const w = Math.min(Math.max(b.w * factor, this.full.w / 8), this.full.w * 1.5);
    const h = (w * b.h) / b.w;
    b.x += (b.w - w) * px;
    b.y += (b.h - h) * py;
    b.w = w;
    b.h = h;
    this.applyBox();
  }

  pan(dx, dy) {
    this.box.x += dx * this.box.w;
    this.box.y += dy * this.box.h;
    this.applyBox();
  }

  fit() {
    const rect = this.root.getBoundingClientRect();
    const ratio = rect.width && rect.height ? rect.height / rect.width : this.full.h / this.full.w;
    const f = this.full;
    if (f.h / f.w > ratio) this.box = { x: f.x - (f.h / ratio - f.w) / 2, y: f.y, w: f.h / ratio, h: f.h };
    else this.box = { x: f.x, y: f.y - (f.w * ratio - f.h) / 2, w: f.w, h: f.w * ratio };
    this.applyBox();
  }

  // Frame the whole height of the map at the window's shape, centred on ``cx`` (a wide map of few rows, as
  // the originals showed them: La Grande Armée's screen held ten rows and twelve columns, §2.2).
  fitHeight(cx = null) {
    const rect = this.root.getBoundingClientRect();
    const ratio = rect.width && rect.height ? rect.height / rect.width : this.full.h / this.full.w;
    const f = this.full;
    const w = Math.min(f.h / ratio, f.w);
    const h = w * ratio;
    if (cx === null) cx = f.x + f.w / 2;
    this.box = { x: Math.max(f.x, Math.min(cx - w / 2, f.x + f.w - w)), y: f.y - (h - f.h) / 2, w, h };
    this.applyBox();
  }

  cellAt(evt) {
    const target = evt.target.closest?.("[data-cell]");
    return target ? Number(target.dataset.cell) : null;
  }

  bindInput() {
    const root = this.root;
    const pointers = new Map();
    let dragged = 0;
    let pinch = null;
    root.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      dragged = 0;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
      }
    });
    root.addEventListener("pointermove", (e) => {
      const prev = pointers.get(e.pointerId);
      if (!prev) {
        const cell = this.cellAt(e);
        if (cell !== this.hovered) {
          this.hovered = cell;
          this.onHover(cell);
        }
        return;
      }
      const rect = root.getBoundingClientRect();
      if (pointers.size === 2 && pinch) {
        pointers.set(e.pointerId, [e.clientX, e.clientY]);
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (d > 0) this.zoom(pinch / d);
        pinch = d;
        dragged += 10;
        return;
      }
      const dx = e.clientX - prev[0];
      const dy = e.clientY - prev[1];
      dragged += Math.abs(dx) + Math.abs(dy);
      if (dragged > 4) {
        if (!root.hasPointerCapture(e.pointerId)) root.setPointerCapture(e.pointerId);
        this.pan(-dx / rect.width, -dy / rect.height);
      }
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
    });
    const up = (e) => {
      const was = pointers.has(e.pointerId);
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (was && dragged <= 4 && e.type === "pointerup") {
        const cell = this.cellAt(e);
        if (cell !== null) this.onCell(cell, e);
      }
    };
    root.addEventListener("pointerup", up);
    root.addEventListener("pointercancel", up);
    root.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const rect = root.getBoundingClientRect();
        this.zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, (e.clientX - rect.left) / rect.width, (e.clientY - rect.top) / rect.height);
      },
      { passive: false },
    );
    root.addEventListener("keydown", (e) => {
      const keys = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
      if (keys[e.key]) {
        this.pan(...keys[e.key]);
        e.preventDefault();
      } else if (e.key === "+" || e.key === "=") this.zoom(1 / 1.2);
      else if (e.key === "-") this.zoom(1.2);
      else if (e.key === "0") this.fit();
    });
  }
}
