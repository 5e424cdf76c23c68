// The browser's side of the server API, and the games this browser holds seat tokens for.

const KEY = "grognard.games";

export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function saveGames(list) {
  localStorage.setItem(KEY, JSON.stringify(list));
}

// Remember a game: the tokens of the seats played here, the invitations to hand to others (never their
// tokens: the invited browser claims its own), and the creator's secret, which deletes the game.
export function rememberGame(id, tokens, invites = {}, title = "", creator = null) {
  const list = myGames();
  let entry = list.find((g) => g.id === id);
  if (!entry) {
    entry = { id, tokens: {}, invites: {}, title, created: Date.now() };
    list.push(entry);
  }
  Object.assign(entry.tokens, tokens);
  Object.assign(entry.invites, invites);
  if (title) entry.title = title;
  if (creator) entry.creator = creator;
  saveGames(list);
  return entry;
}

export function forgetGame(id) {
  saveGames(myGames().filter((g) => g.id !== id));
}

export function gameEntry(id) {
  return myGames().find((g) => g.id === id) || null;
}

// The match game (Ruleset.match_option; The Perfect General p.3): a game that is one half of a match keeps
// what the second half needs (how to create it, player 1's side, the first half's scores).
const MATCHES = "grognard.matches";

export function matchOf(id) {
  try {
    return JSON.parse(localStorage.getItem(MATCHES) || "{}")[id] || null;
  } catch {
    return null;
  }
}

export function rememberMatch(id, match) {
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(MATCHES) || "{}");
  } catch {}
  all[id] = match;
  localStorage.setItem(MATCHES, JSON.stringify(all));
}

export async function api(path, { method = "GET", token = null, body = undefined } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

// after "#": browsers do not send it, so the invitation stays out of every server log
export function inviteLink(id, invite) {
  return `${location.origin}/game.html#game=${encodeURIComponent(id)}&invite=${encodeURIComponent(invite)}`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const human = (s) => String(s ?? "").replaceAll("_", " ");

// A ruleset's own panels for the game page and the lobby (web/rulesets/<game>.js), or none.
const modules = new Map();
export function rulesetModule(game) {
  if (!modules.has(game)) {
    const url = `./rulesets/${encodeURIComponent(game)}.js`;
    modules.set(game, import(url).then((m) => m.default || {}, () => ({})));
  }
  return modules.get(game);
}
