// The map as SVG: the scenario's public map drawn once, then the seat's view (units, ghosts, mines, barrages,
// plots, changed terrain) and the highlights of legal decisions drawn over it on every update.
// Pan and zoom with the mouse (drag, wheel), touch (drag, pinch) and keys (arrows, + and -).

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
};
const SIDE_COLOURS = ["#a8432c", "#2f5d8a", "#5b6b2f", "#6b4f8a"];

export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

// Cell geometry from the grid description of the public map.
export class Layout {
  constructor(grid) {
    this.grid = grid;
    this.hex = grid.kind === "hex";
    this.flat = this.hex && String(grid.layout || "odd-q").endsWith("q");
    this.odd = String(grid.layout || "odd-q").startsWith("odd");
  }
  center(cell) {
    const { columns } = this.grid;
    const col = cell % columns;
    const row = Math.floor(cell / columns);
    if (!this.hex) return [col * 2 * S + S, row * 2 * S + S];
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
  label(cell) {
    const { columns, first } = this.grid;
    return `${(cell % columns) + first[0]},${Math.floor(cell / columns) + first[1]}`;
  }
}

// A small picture of a scenario's map (the lobby's overview).
export function overview(map, width = 240) {
  const layout = new Layout(map.grid);
  const [w, h] = layout.size();
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, width, height: Math.round((width * h) / w), class: "overview" });
  map.terrain.forEach((t, cell) => {
    svg("polygon", { points: layout.corners(cell, 1.02), fill: TERRAIN_COLOURS[t] || "#ccc" }, root);
  });
  for (const [a, b] of (map.edges || {}).road || []) {
    const [x1, y1] = layout.center(a);
    const [x2, y2] = layout.center(b);
    svg("line", { x1, y1, x2, y2, stroke: "#6b4a2b", "stroke-width": 4 }, root);
  }
  for (const place of map.places || []) {
    const [x, y] = layout.center(place.cells[0]);
    svg("text", { x, y: y - 12, class: "town-name", style: "font-size: 30px; stroke-width: 6px" }, root).textContent = place.name;
  }
  return root;
}

export class HexMap {
  constructor(container, map, { onCell = () => {}, onHover = () => {} } = {}) {
    this.map = map;
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
    for (const place of map.places || []) {
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
    }
  }

  edgeLine(a, b, cls, layer) {
    const [x1, y1] = this.layout.center(a);
    const [x2, y2] = this.layout.center(b);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const dx = (y2 - y1) / 2 / R3;
    const dy = -(x2 - x1) / 2 / R3;
    svg("line", { x1: mx - dx, y1: my - dy, x2: mx + dx, y2: my + dy, class: cls }, layer);
  }

  showRegions(cellsBySide) {
    const layer = this.layers.regions;
    layer.replaceChildren();
    cellsBySide.forEach(([cells, colour]) => {
      for (const cell of cells) svg("polygon", { points: this.layout.corners(cell, 0.98), class: "region", fill: colour }, layer);
    });
  }

  // The view: changed terrain, mines, barrages, own plots, ghosts and units.
  render(view, sides) {
    const { layout } = this;
    const dyn = this.layers.dynamic;
    const units = this.layers.units;
    dyn.replaceChildren();
    units.replaceChildren();
    for (const { cell, terrain } of view.terrain || []) {
      svg("polygon", { points: layout.corners(cell), fill: TERRAIN_COLOURS[terrain] || "#ccc" }, dyn);
      this.decorate(cell, terrain, dyn);
    }
    for (const cell of view.cut_roads || []) {
      const [x, y] = layout.center(cell);
      svg("path", { d: `M${x - 6},${y - 6} l12,12 M${x + 6},${y - 6} l-12,12`, class: "cut" }, dyn);
    }
    for (const b of view.barrages || []) svg("polygon", { points: layout.corners(b.cell, 0.9), class: b.strike ? "barrage strike" : "barrage" }, dyn);
    for (const m of view.mines || []) {
      const [x, y] = layout.center(m.cell);
      svg("path", { d: `M${x},${y - 8} L${x + 3},${y - 2} L${x + 9},${y} L${x + 3},${y + 2} L${x},${y + 8} L${x - 3},${y + 2} L${x - 9},${y} L${x - 3},${y - 2}Z`, class: "mine" }, dyn);
    }
    for (const p of view.plots || []) {
      const [x, y] = layout.center(p.cell);
      const g = svg("g", { class: "plot" }, dyn);
      svg("circle", { cx: x, cy: y, r: 11 }, g);
      svg("path", { d: `M${x - 15},${y} h30 M${x},${y - 15} v30` }, g);
    }
    for (const gh of view.ghosts || []) {
      const [x, y] = layout.center(gh.cell);
      const g = svg("g", { class: "ghost", "data-ghost": gh.id }, units);
      svg("rect", { x: x - 12, y: y - 12, width: 24, height: 24, rx: 3 }, g);
      svg("text", { x, y: y + 4 }, g).textContent = "?";
      svg("title", {}, g).textContent = `last seen on turn ${gh.turn}: ${gh.type.replaceAll("_", " ")}`;
    }
    const byCell = new Map();
    for (const u of view.units || []) {
      if (u.carried_by) continue;
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
    svg("text", { x: x + 13, y: y + 19.5, class: "code" }, g).textContent = u.code;
    const frac = u.max_hp ? u.hp / u.max_hp : 1;
    svg("rect", { x: x + 2, y: y + 22, width: 22 * frac, height: 2.5, class: frac < 0.5 ? "hp low" : "hp" }, g);
    if (u.fired) svg("circle", { cx: x + 24, cy: y + 2, r: 3.2, class: "mark-fired" }, g);
    if (u.moved) svg("circle", { cx: x + 2, cy: y + 2, r: 3.2, class: "mark-moved" }, g);
    if (u.has_cargo) svg("rect", { x: x + 20, y: y + 20, width: 5, height: 5, class: "mark-cargo" }, g);
    svg("title", {}, g).textContent = `${u.name} (${u.side}) at ${u.at}: ${u.hp}/${u.max_hp}${u.fired ? ", fired" : ""}${u.moved ? ", moved" : ""}`;
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
  highlight({ cells = new Map(), targets = new Map(), selected = null, path = [] } = {}) {
    const marks = this.layers.marks;
    const top = this.layers.top;
    marks.replaceChildren();
    top.replaceChildren();
    for (const [cell, cls] of cells) svg("polygon", { points: this.layout.corners(cell, 0.92), class: `hl ${cls}`, "data-cell": cell }, marks);
    if (path.length > 1) {
      svg("polyline", { points: path.map((c) => this.layout.center(c).join(",")).join(" "), class: "path" }, top);
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
  attachMinimap(container, width = 170) {
    const mini = overview(this.map, width);
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
    this.root.setAttribute("viewBox", `${b.x.toFixed(1)} ${b.y.toFixed(1)} ${b.w.toFixed(1)} ${b.h.toFixed(1)}`);
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
