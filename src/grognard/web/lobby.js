// The lobby: choose a game, a scenario, rule options and who sits in each seat; list this browser's games.

import { api, el, forgetGame, gameEntry, human, inviteLink, myGames, rememberGame, rememberMatch, rulesetModule } from "./api.js";
import { overview } from "./hexmap.js";

const $ = (id) => document.getElementById(id);
let catalog = [];
const maps = new Map();

function toast(text, kind = "error") {
  const node = el("div", { class: `toast ${kind}`, role: "alert" }, text);
  $("toasts").append(node);
  setTimeout(() => node.remove(), 5000);
}

const game = () => catalog.find((g) => g.id === $("game").value);

// every computer player the server offers for this game (player_kinds), at each of its levels
function seatChoices(g) {
  const out = [["human", "A person at this browser"]];
  for (const p of g.players) {
    const levels = g.player_levels?.[p]?.length ? g.player_levels[p] : [null];
    for (const lv of levels) out.push([`computer:${p}${lv ? `:${lv}` : ""}`, `The computer: ${p}${lv ? `, ${lv}` : ""}`]);
  }
  out.push(["remote", "A person elsewhere (invitation link)"]);
  return out;
}

// the computer a seat gets unless changed: the general at its normal level where there is one, else the
// strongest generic player
function defaultComputer(g) {
  const values = seatChoices(g).map(([v]) => v);
  return ["computer:general:normal", "computer:general", "computer:greedy", "computer:random"].find((v) => values.includes(v)) || values[0];
}

function renderGame() {
  const g = game();
  const box = $("scenarios");
  box.replaceChildren();
  g.scenarios.forEach((s, i) => {
    const mapBox = el("div", { class: "overview-box" });
    const card = el("label", { class: "scenario" },
      el("input", { type: "radio", name: "scenario", value: s.id, checked: i === 0 }),
      mapBox,
      el("div", {}, el("strong", {}, s.name), s.turns ? el("span", { class: "muted" }, ` · ${s.turns} turns`) : null,
        el("p", {}, s.summary || ""),
        s.description ? el("details", {}, el("summary", {}, "Briefing"), ...s.description.split("\n\n").map((p) => el("p", {}, p))) : null),
    );
    box.append(card);
    const key = `${g.id}/${s.id}`;
    Promise.all([maps.get(key) || api(`/api/maps/${encodeURIComponent(g.id)}/${encodeURIComponent(s.id)}`), rulesetModule(g.id)]).then(([m, rs]) => {
      maps.set(key, Promise.resolve(m));
      if (m.grid) mapBox.append(overview(m, 220, rs.overviewPaint?.(m)));
    });
  });
  const seats = $("seats");
  seats.replaceChildren(el("legend", {}, "Who sits where"));
  g.seats.forEach((seat, i) => {
    const select = el("select", { name: `seat-${seat}`, "data-seat": seat, onchange: hotseat },
      seatChoices(g).map(([v, label]) => el("option", { value: v, selected: (i === 0 ? v === "human" : v === defaultComputer(g)) || undefined }, label)));
    seats.append(el("label", {}, el("span", { class: "seat-name" }, human(seat)), select));
  });
  const opts = $("options");
  opts.replaceChildren(el("legend", {}, "Rule options"));
  for (const o of g.options) {
    let input;
    if (o.choices) input = el("select", { name: o.name }, o.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === o.default || undefined }, human(c))));
    else if (typeof o.default === "boolean") input = el("input", { type: "checkbox", name: o.name, checked: o.default });
    else input = el("input", { type: "number", name: o.name, value: o.default, min: o.minimum, max: o.maximum });
    opts.append(el("label", { title: o.help || "" }, el("span", {}, o.label), input));
  }
  if (g.match_option) {
    // the match game: the scenario twice, player 1 (the side the match option names) on each side in turn
    opts.append(el("label", { title: "the scenario twice, sides swapped, each player's victory points added up" },
      el("span", {}, "Match game: play it twice, sides swapped (p.3)"), el("input", { type: "checkbox", id: "match" })));
  }
  hotseat();
}

function seatsChosen() {
  const out = {};
  for (const s of document.querySelectorAll("#seats select")) {
    const [kind, ...rest] = s.value.split(":");
    out[s.dataset.seat] = kind === "computer" ? { kind, player: rest.join(":") } : { kind };
  }
  return out;
}

// Two people at one screen: the manual's rule for it (Full View in The Perfect General) is imposed.
function hotseat() {
  const g = game();
  const here = Object.values(seatsChosen()).filter((s) => s.kind === "human").length;
  const forced = here > 1 ? g.hotseat_options || {} : {};
  for (const o of g.options) {
    const input = document.querySelector(`#options [name="${o.name}"]`);
    if (o.name in forced) {
      input.value = JSON.stringify(forced[o.name]);
      input.disabled = true;
    } else input.disabled = false;
  }
  const note = $("hotseat-note");
  note.hidden = !Object.keys(forced).length;
  note.textContent = `Two people at one screen: the manual requires ${Object.entries(forced).map(([k, v]) => `${k} = ${v}`).join(", ")}.`;
}

function optionsChosen() {
  const out = {};
  for (const o of game().options) {
    const input = document.querySelector(`#options [name="${o.name}"]`);
    if (o.choices) out[o.name] = JSON.parse(input.value);
    else if (typeof o.default === "boolean") out[o.name] = input.checked;
    else out[o.name] = Number(input.value);
  }
  return out;
}

$("new-game").addEventListener("submit", async (e) => {
  e.preventDefault();
  const g = game();
  const scenario = document.querySelector('input[name="scenario"]:checked')?.value;
  const seats = seatsChosen();
  $("start").disabled = true;
  try {
    // a game with a person elsewhere gets a secret seed from the server (docs/server.md): none is sent for it
    const remote = Object.values(seats).some((s) => s.kind === "remote");
    const seed = remote || $("seed").value === "" ? undefined : Number($("seed").value);
    const res = await api("/api/games", { method: "POST", body: { game: g.id, scenario, options: optionsChosen(), seats, seed } });
    const mine = res.tokens;
    const invites = res.invites;
    const sc = g.scenarios.find((s) => s.id === scenario);
    rememberGame(res.id, mine, invites, `${g.name}: ${sc?.name || scenario}${$("match")?.checked ? " (match, game 1 of 2)" : ""}`, res.creator);
    if ($("match")?.checked) {
      const options = optionsChosen();
      // the second game: the other seat for each player, player 1 on the other side, the next seed (as simulate --match)
      const swapped = Object.fromEntries(g.seats.map((s, i) => [s, seats[g.seats[1 - i]]]));
      const other = g.seats.find((s) => s !== options[g.match_option]);
      rememberMatch(res.id, { half: 1, player1: options[g.match_option], next: { game: g.id, scenario, options: { ...options, [g.match_option]: other }, seats: swapped, seed: seed === undefined ? undefined : seed + 1 } });
    }
    if (!Object.keys(invites).length) {
      location.href = `/game.html#game=${encodeURIComponent(res.id)}`;
      return;
    }
    const box = $("created");
    box.replaceChildren(
      el("h3", {}, "Game created: send each invitation link to its player (it opens the seat once)"),
      ...Object.entries(invites).map(([seat, tok]) =>
        el("p", {}, el("strong", {}, `${human(seat)}: `), el("input", { class: "invite", readonly: true, value: inviteLink(res.id, tok), "data-seat": seat, onclick: (ev) => ev.target.select() }))),
      Object.keys(mine).length ? el("a", { class: "button primary", href: `/game.html#game=${encodeURIComponent(res.id)}` }, "Go to the game") : null,
    );
    box.hidden = false;
    listGames();
  } catch (err) {
    toast(err.message);
  } finally {
    $("start").disabled = false;
  }
});

let upload = null; // the parsed save file
let uploadText = null; // its text, sent as it is: JavaScript numbers would round its 64-bit integers

$("save-file").addEventListener("change", async () => {
  upload = null;
  const file = $("save-file").files[0];
  if (!file) return;
  try {
    uploadText = await file.text();
    upload = JSON.parse(uploadText);
  } catch {
    toast("that file is not JSON: not a grognard save");
    return;
  }
  const g = catalog.find((x) => x.id === upload.game);
  if (!g) return toast(`this server does not know the game ${upload.game}`);
  const record = upload.format === "grognard-seat-record";
  $("upload-who").hidden = record; // a seat's record goes on in its own game, at its own seat
  $("upload-note").hidden = !record;
  $("upload-note").textContent = record ? `The ${human(upload.seat)} seat's record of a game in play: Open goes on with that game, in the browser that plays the seat.` : "";
  $("upload-seat").replaceChildren(...g.seats.map((s) => el("option", { value: s }, human(s))));
  const computers = seatChoices(g).filter(([v]) => v.startsWith("computer:"));
  $("upload-others").replaceChildren(
    ...computers.map(([v, label]) => el("option", { value: v, selected: v === defaultComputer(g) || undefined }, label.replace("The computer", "the computer"))),
    el("option", { value: "human" }, "people at this browser too"),
  );
});

$("upload").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!upload) return toast("choose a save file first");
  const g = catalog.find((x) => x.id === upload.game);
  if (upload.format === "grognard-seat-record") return reopen(upload);
  const mine = $("upload-seat").value;
  const [kind, ...rest] = $("upload-others").value.split(":");
  const seats = Object.fromEntries(g.seats.map((s) => [s, s === mine ? { kind: "human" } : kind === "computer" ? { kind, player: rest.join(":") } : { kind }]));
  try {
    const res = await api("/api/games/upload", { method: "POST", body: { save: uploadText, seats } });
    const sc = g.scenarios.find((s) => s.id === upload.scenario?.id);
    rememberGame(res.id, res.tokens, {}, `${g.name}: ${sc?.name || upload.scenario?.id || "saved game"}`, res.creator);
    location.href = `/game.html#game=${encodeURIComponent(res.id)}`;
  } catch (err) {
    toast(err.message);
  }
});

// A seat's record names its game and seat but holds no token (a file travels further than this browser's
// storage): the server opens the game again for the token this browser holds for that seat, or says why not.
async function reopen(record) {
  const token = gameEntry(String(record.game_id))?.tokens?.[record.seat];
  try {
    const res = await api("/api/games/upload", { method: "POST", token, body: { save: uploadText, seats: {} } });
    location.href = `/game.html#game=${encodeURIComponent(res.id)}`;
  } catch (err) {
    toast(err.message);
  }
}

// how this browser names a seat: its own, the host's, an invitation (claimed or not), a computer
function seatWords(g, seat, v) {
  if (g.tokens[seat]) return "you (here)";
  if (v.kind === "computer") return `the computer (${v.player})`;
  if (v.kind === "remote") return g.invites?.[seat] ? (v.claimed ? "invited: claimed" : "invited: not claimed yet") : "the other player";
  return "the host"; // a seat played at the creator's browser
}

// whose turn: a seat played at this browser is never "waited for"
function statusOf(g, s) {
  if (s.error) return s.error;
  if (s.over) return s.result?.summary || "over";
  const due = s.turn?.deciding || (s.turn?.seat ? [s.turn.seat] : []);
  const here = due.filter((seat) => g.tokens[seat]);
  if (here.length) return Object.keys(g.tokens).length > 1 ? `your turn (${here.map(human).join(" and ")})` : "your turn";
  return due.length ? `waiting for ${due.map(human).join(" and ")}` : "";
}

async function listGames() {
  const body = $("my-games").querySelector("tbody");
  const games = myGames().sort((a, b) => b.created - a.created);
  $("no-games").hidden = games.length > 0;
  const rows = await Promise.all(games.map(async (g) => {
    const token = Object.values(g.tokens)[0] || g.creator;
    try {
      return [g, await api(`/api/games/${encodeURIComponent(g.id)}`, { token })];
    } catch (err) {
      return [g, { error: err.message }];
    }
  }));
  body.replaceChildren(...rows.map(([g, s]) => {
    const play = Object.keys(g.tokens).length > 0;
    const status = statusOf(g, s);
    const yours = status.startsWith("your turn");
    const open = Object.entries(g.invites || {}).filter(([seat]) => s.seats?.[seat] && !s.seats[seat].claimed);
    // the creator deletes the game for everyone; a browser of an older game's host seat may too (the server
    // decides); anyone else only forgets it here
    const creator = g.creator || Object.keys(g.tokens).some((seat) => s.seats?.[seat]?.kind === "human");
    const remove = creator && !s.error;
    return el("tr", { "data-game": g.id },
      el("td", {}, g.title || s.game_name || g.id),
      el("td", { class: "seats" }, s.seats ? Object.entries(s.seats).map(([seat, v]) => `${human(seat)}: ${seatWords(g, seat, v)}`).join(", ") : ""),
      el("td", {}, s.turn?.phase || ""),
      el("td", { class: yours ? "yours" : "" }, status),
      el("td", { class: "actions" },
        play && !s.error ? el("a", { class: "button", href: `/game.html#game=${encodeURIComponent(g.id)}` }, s.over ? "Final position" : "Continue") : null,
        play && s.over ? el("a", { class: "button", href: `/game.html#game=${encodeURIComponent(g.id)}&replay=1` }, "Replay") : null,
        open.length && !s.over ? el("button", { class: "secondary", onclick: () => navigator.clipboard?.writeText(open.map(([, code]) => inviteLink(g.id, code)).join("\n")) }, "Copy invitation") : null,
        el("button", { class: remove ? "danger" : "secondary", onclick: async () => {
          if (remove && !confirm("Delete this game for every player?")) return;
          try {
            if (remove) await api(`/api/games/${encodeURIComponent(g.id)}`, { method: "DELETE", token: g.creator || Object.values(g.tokens)[0] });
          } catch (err) {
            toast(err.message);
            return;
          }
          forgetGame(g.id);
          listGames();
        } }, remove ? "Delete" : "Forget")),
    );
  }));
}

async function start() {
  catalog = await api("/api/catalog");
  $("game").replaceChildren(...catalog.map((g) => el("option", { value: g.id }, g.name)));
  $("game").addEventListener("change", renderGame);
  renderGame();
  listGames();
}

start().catch((e) => toast(e.message));
