// Club night: a player's phone (/) and the director's page (/director). The state comes
// from /api/state, asked again at once whenever it changes (a long poll: ?v=version).
"use strict";
const q = new URLSearchParams(location.search);
if (q.get("k")) localStorage.setItem("clubKey", q.get("k"));
const KEY = q.get("k") || localStorage.getItem("clubKey") || "";
const DIRECTOR = location.pathname === "/director" ? q.get("d") || "" : "";
let me = localStorage.getItem("clubMe") || "";
let state = null;
let winner = null; // the first tap: who won, before the loser's score

const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "on") e.addEventListener("click", v); else if (v != null) e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}
function say(text) { $("error").hidden = !text; $("error").textContent = text || ""; }

async function post(path, body) {
  const headers = {"Content-Type": "application/json", "X-Crib-Key": KEY};
  if (DIRECTOR) headers["X-Club-Director"] = DIRECTOR;
  const r = await fetch(path, {method: "POST", headers, body: JSON.stringify(body)});
  const out = await r.json().catch(() => ({ok: false, error: "no answer"}));
  say(out.ok ? "" : out.error);
  if (out.ok) { winner = null; await load(); }
  return out;
}

async function load(wait) {
  const v = wait && state ? "&v=" + state.version : "";
  const r = await fetch("/api/state?k=" + encodeURIComponent(KEY) + v, {cache: "no-store"});
  if (!r.ok) { say(await r.text()); return false; }
  state = await r.json();
  render();
  return true;
}

async function follow() {  // the state, again each time it changes
  for (;;) {
    try { if (!(await load(true))) await new Promise((ok) => setTimeout(ok, 3000)); }
    catch (e) { await new Promise((ok) => setTimeout(ok, 2000)); }
  }
}

function seatOf(round, name) {
  for (const t of round.tables) if (t.players.includes(name)) return t;
  return null;
}

function renderMe() {
  const box = $("me");
  box.hidden = !!DIRECTOR;
  box.replaceChildren();
  if (DIRECTOR) return;
  if (!state.players.includes(me)) {
    box.append(el("h2", {}, "Who are you?"),
      el("div", {class: "grid"}, ...state.players.map((p) =>
        el("button", {class: "big", on: () => { me = p; localStorage.setItem("clubMe", p); render(); }}, p))));
    return;
  }
  const round = state.rounds[state.rounds.length - 1];
  box.append(el("div", {class: "row"}, el("b", {id: "who"}, me),
    el("button", {on: () => { me = ""; localStorage.removeItem("clubMe"); render(); }}, "not me")));
  const t = seatOf(round, me);
  if (!t) { box.append(el("p", {class: "card big", id: "seat"}, `Round ${round.round}: you have the bye (a win)`)); return; }
  const opp = t.players[0] === me ? t.players[1] : t.players[0];
  const card = el("div", {class: "card", id: "seat"},
    el("p", {class: "big"}, `Round ${round.round}, table ${t.table}: you v ${opp}`));
  box.append(card);
  const r = t.result;
  if (!r) {
    if (!winner) {
      card.append(el("p", {}, "Who won?"), el("div", {class: "grid"},
        ...[me, opp].map((p) => el("button", {class: "big", "data-winner": p, on: () => { winner = p; render(); }}, p === me ? "I won" : `${p} won`))));
    } else {
      const loser = winner === me ? opp : me;
      const input = el("input", {id: "score", type: "number", min: 0, max: 120, inputmode: "numeric", placeholder: "0-120"});
      card.append(el("p", {}, `${winner} won. ${loser === me ? "Your" : loser + "'s"} score?`),
        el("div", {class: "row"}, input,
          el("button", {class: "primary", id: "send", on: () => post("/api/result", {round: round.round, table: t.table, winner, loser_score: Number(input.value), player: me})}, "Send"),
          el("button", {on: () => { winner = null; render(); }}, "Back")));
    }
  } else if (r.status === "proposed" && r.entered_by !== me) {
    card.append(el("p", {}, `${r.entered_by} says: ${r.text}`), el("div", {class: "row"},
      el("button", {class: "primary", id: "confirm", on: () => post("/api/confirm", {round: round.round, table: t.table, player: me, agree: true})}, "Confirm"),
      el("button", {class: "warn", id: "dispute", on: () => post("/api/confirm", {round: round.round, table: t.table, player: me, agree: false})}, "Dispute")));
  } else {
    card.append(el("p", {class: "status-" + r.status, id: "result"}, r.status === "proposed" ? `${r.text}: waiting for ${opp} to confirm` : r.text));
  }
  const hand = el("select", {id: "hand"}, el("option", {value: ""}, "special hand…"), ...[24, 28, 29].map((n) => el("option", {value: n}, n)));
  box.append(el("div", {class: "row"}, hand, el("button", {on: () => hand.value && post("/api/hand", {round: round.round, player: me, points: Number(hand.value)})}, "Report hand")));
}

function renderDirector() {
  const box = $("director");
  box.hidden = !DIRECTOR;
  box.replaceChildren();
  if (!DIRECTOR) return;
  const more = state.paired < state.games;
  box.append(el("div", {class: "row"},
    el("button", {class: "primary", id: "next", disabled: more && !state.waiting.length ? null : "",
      on: () => post("/api/next", {})}, more ? `Pair round ${state.paired + 1}` : "All rounds paired"),
    el("span", {}, state.waiting.length ? `waiting for table ${state.waiting.join(", ")}` : "")));
  const round = state.rounds[state.rounds.length - 1];
  const tsel = el("select", {id: "fix-table"}, ...round.tables.map((t) => el("option", {value: t.table}, `table ${t.table}: ${t.players.join(" v ")}`)));
  const wsel = el("select", {id: "fix-winner"}, ...state.players.map((p) => el("option", {value: p}, p)));
  const score = el("input", {id: "fix-score", type: "number", min: 0, max: 120, placeholder: "loser's score"});
  const note = el("input", {id: "fix-note", placeholder: "why"});
  box.append(el("h2", {}, `Correct a result of round ${round.round}`),
    el("div", {class: "row"}, tsel, wsel, score, note,
      el("button", {class: "warn", id: "fix", on: () => post("/api/correct", {round: round.round, table: Number(tsel.value), winner: wsel.value, loser_score: Number(score.value), note: note.value})}, "Correct")));
}

function renderStandings() {
  const rows = state.standings.map((r) => el("tr", {class: r.player === me && !DIRECTOR ? "mine" : null},
    el("td", {}, r.rank + "."), el("td", {}, r.player), el("td", {}, r.points), el("td", {}, r.wins),
    el("td", {}, (r.spread > 0 ? "+" : "") + r.spread), el("td", {}, r.skunks)));
  $("standings").replaceChildren(el("tr", {}, ...["", "player", "pts", "won", "spread", "skunks"].map((h) => el("th", {}, h))), ...rows);
}

function renderRounds() {
  const box = $("rounds");
  box.replaceChildren();
  for (const round of state.rounds.slice().reverse()) {
    const rows = round.tables.map((t) => el("tr", {}, el("td", {}, t.table), el("td", {}, t.players.join(" v ")),
      el("td", {class: t.result ? "status-" + t.result.status : ""}, t.result ? t.result.text + (t.result.source === "director" ? " · corrected" : "") : "playing")));
    if (round.bye) rows.push(el("tr", {}, el("td", {}, "bye"), el("td", {}, round.bye), el("td", {}, "a win")));
    box.append(el("h2", {}, `Round ${round.round}`), el("table", {class: "tables"}, ...rows));
  }
}

function renderMoney() {
  const m = state.money;
  const parts = [];
  if (!state.history.length) { $("money").replaceChildren(); return; }  // nothing to pay yet
  if (m.prizes.some((p) => p.cents)) parts.push("Prizes: " + m.prizes.map((p) => `${p.place}. ${p.player} ${p.amount}`).join(", "));
  if (m.skunk_pot.length) parts.push("Skunk pot: " + m.skunk_pot.map((s) => `${s.player} ${s.amount}`).join(", "));
  if (m.hands.length) parts.push("Special hands: " + m.hands.map((h) => `${h.player}'s ${h.points} ${h.amount}`).join(", "));
  $("money").replaceChildren(...parts.map((t) => el("p", {}, t)));
}

function render() {
  if (!state) return;
  $("title").textContent = state.night;
  $("sub").textContent = `season ${state.season} · round ${state.paired} of ${state.games}`;
  renderMe(); renderDirector(); renderStandings(); renderRounds(); renderMoney();
  const k = "?k=" + encodeURIComponent(KEY);
  $("links").replaceChildren(el("a", {href: "/night.csv" + k}, "night as CSV"), " · ",
    el("a", {href: "/scorecards.pdf" + k}, "scorecards (PDF)"));
}

follow();
