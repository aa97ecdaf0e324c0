// The phone companion's page: draws the state the server pushes (server-sent events) and
// posts answers back. No game logic here: the server's question says what is legal.
"use strict";
(function () {
  // The key comes in the joining address (?k=): kept in this origin's own storage (scoped
  // by scheme, host AND port, unlike a cookie: another companion on this host keeps its
  // own), then out of the address bar (and of bookmarks, screenshots and the history).
  // Every request carries it in a header (the event stream, which cannot, in its query).
  const KEY_ITEM = "crib.key";
  const given = new URLSearchParams(location.search).get("k");
  let key = given;
  try {
    if (given) localStorage.setItem(KEY_ITEM, given); else key = localStorage.getItem(KEY_ITEM);
  } catch (e) { /* storage refused (private mode): the key lives as long as the page */ }
  if (given !== null) history.replaceState(null, "", location.pathname);
  const KEYED = { "X-Crib-Key": key || "" };
  const RANKS = "A23456789TJQK", SUITS = "CDHS", SYM = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const CARD_KINDS = ["cut", "dealt", "discard", "starter", "show", "crib"];
  const ASKED = / \([^()]*\/[^()]*\)$/; // a prompt's "(Y/n)", "(y/flush/n)": the buttons say it
  const $ = (id) => document.getElementById(id);
  let state = null, qid = null, busy = false, picked = [], rankOpen = null, totals = false;
  let seenSeq = 0, boardKey = null, panelKey = null;
  // A tap this soon after the question changed was meant for the screen before: ignored.
  const SETTLE_MS = 400, RETRY_MS = 2000;
  let settleTimer = null, pending = null, retryTimer = null;
  const PICKED_KEY = "crib.picked"; // cards picked but not sent yet, kept across a reload
  let SEAT_KEY = null, seat = null; // a seat per session (its name comes with /join.json)

  const rankText = (r) => (r === "T" ? "10" : r);
  // A card by name ("5H"), or by its rank alone ("5", "T") when its suit is not known.
  const cardText = (c) => rankText(c[0]) + (c[1] ? SYM[c[1]] : "");
  const isRed = (c) => c[1] === "D" || c[1] === "H";
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "onclick") e.onclick = attrs[k];
      else if (attrs[k] !== false && attrs[k] != null) e.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    }
    if (text != null) e.textContent = text;
    return e;
  }
  const button = (text, onclick, attrs) => el("button", Object.assign({ type: "button", onclick }, attrs || {}), text);
  function cardSpan(c) { return el("span", { class: isRed(c) ? "red" : "" }, cardText(c)); }

  // -- talking to the server ------------------------------------------------------------
  // status 0: the request never got an answer (offline, or the game's server is not
  // running: crib serve, or the board itself; the page is the same on both, so it names
  // neither).
  async function post(path, body) {
    let res;
    try {
      res = await fetch(path, { method: "POST", headers: Object.assign({ "Content-Type": "application/json" }, KEYED),
        body: JSON.stringify(body) });
    } catch (e) { return { status: 0, data: { error: "not sent" } }; }
    let data = {};
    try { data = await res.json(); } catch (e) { data = { error: "the game's server did not answer (" + res.status + ")" }; }
    return { status: res.status, data };
  }
  // Every answer names a joined seat. Before the players are named there are no seats to
  // choose: the page answers the setup as the shared screen (not kept as its seat).
  let setupSeat = null;
  async function seatFields() {
    if (!seat && !setupSeat && names().length === 0) {
      const r = await post("/api/join", { seat: "table" });
      if (r.data.ok) setupSeat = { seat: r.data.seat, token: r.data.token };
    }
    const s = seat || (names().length === 0 ? setupSeat : null);
    return s ? { seat: s.seat, token: s.token } : { seat: null, token: null };
  }
  // Every post goes through here: never left busy; one that got no answer is kept and sent
  // again (every RETRY_MS, and at once when the phone is back online) until one arrives.
  async function act(path, body) {
    if (busy) return;
    busy = true; setError(""); document.body.classList.add("busy");
    let r;
    try { r = await post(path, body); } finally { busy = false; document.body.classList.remove("busy"); }
    if (r.status === 0) { pending = { path, body }; setNet(); scheduleRetry(); return; }
    pending = null; setNet();
    if (r.status === 403 && seat && path !== "/api/join") { forgetSeat(); } // moved, or another game
    if (!r.data.ok) { setError(r.data.error); refresh(); } else { picked = []; rankOpen = null; savePicked(); }
  }
  function scheduleRetry() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(retry, RETRY_MS);
  }
  function retry() {
    if (!pending || busy) return;
    if (!state || !state.question || pending.body.question !== qid) { overtaken(pending); pending = null; setNet(); return; }
    const p = pending; pending = null;
    act(p.path, p.body);
  }
  // A kept answer whose question was answered meanwhile is not sent: said, never dropped
  // silently (who answered: the state's `answered`, else the last event's player).
  function overtaken(p) {
    if (p.path !== "/api/answer") { setError("The game moved on meanwhile; your tap was not sent."); return; }
    const log = (state && state.log) || [], a = state && state.answered;
    let who = a ? a.by : "";
    for (let i = log.length - 1; !who && i >= 0; i--) who = log[i].who || "";
    setError((who || "Someone") + " answered for you meanwhile; your " + p.body.answer + " was not sent.");
  }
  async function send(answer) {
    if (busy || !state || !state.question) return;
    const q = qid, fields = await seatFields();
    return act("/api/answer", Object.assign({ question: q, answer: String(answer), for: $("for").checked }, fields));
  }
  async function undo() {
    if (busy || !state || !state.question) return;
    const q = qid, fields = await seatFields();
    return act("/api/undo", Object.assign({ question: q }, fields));
  }
  async function redo() {
    if (busy || !state || !state.question) return;
    const q = qid, fields = await seatFields();
    return act("/api/redo", Object.assign({ question: q }, fields));
  }
  function setError(text) { $("error").textContent = text || ""; }
  // The connection and the board, said at the top of every screen (never cleared by a tap).
  let lost = false, gone = false;
  function setNet() {
    let text = "";
    if (gone) text = "This address is no longer the game's: open the game's joining address again, as printed or shown now (or scan its code).";
    else if (!navigator.onLine || (lost && pending)) text = "Offline" + (pending ? ": your answer is sent when the connection is back" : ": waiting for the connection");
    else if (lost) text = "The game's server is not answering: retrying\u2026";
    else if (pending) text = "Not sent yet: retrying\u2026";
    $("net").textContent = text;
    document.body.classList.toggle("offline", !!text);
  }
  async function refresh() {
    try {
      const res = await fetch("/state", { headers: KEYED, cache: "no-store" });
      if (res.ok) show(await res.json());
    } catch (e) { lost = true; setNet(); }
  }
  let source = null;
  function connect() {
    if (source) source.close();
    // its seat named (with the seat's token): the board caps streams per seat, so one
    // phone's many streams never push out another player's
    const mine = seat ? "&s=" + encodeURIComponent(seat.seat) + "&t=" + encodeURIComponent(seat.token) : "";
    source = new EventSource("/events?k=" + encodeURIComponent(key || "") + mine);
    source.onopen = () => { lost = false; setNet(); retry(); };
    source.onmessage = (m) => { if (lost) { lost = false; setNet(); } took(JSON.parse(m.data)); retry(); };
    source.onerror = async () => { // the browser retries by itself; say why it waits
      lost = true; setNet();
      try {
        const res = await fetch("/state", { headers: KEYED, cache: "no-store" });
        if (res.status === 403) { source.close(); gone = true; setNet(); return; }
      } catch (e) { /* not answering yet */ }
      setTimeout(() => { if (lost && !gone) connect(); }, RETRY_MS); // the server restarted, say
    };
  }
  window.addEventListener("online", () => { setNet(); refresh(); retry(); if (!source || source.readyState === EventSource.CLOSED) connect(); });
  window.addEventListener("offline", setNet);
  function savePicked() {
    try { sessionStorage.setItem(PICKED_KEY, JSON.stringify({ q: qid, picked })); } catch (e) { /* private mode: not kept */ }
  }
  function loadPicked(id) {
    try {
      const kept = JSON.parse(sessionStorage.getItem(PICKED_KEY) || "null");
      return kept && kept.q === id && Array.isArray(kept.picked) ? kept.picked : [];
    } catch (e) { return []; }
  }
  function settle() { // the new question's buttons wait SETTLE_MS before they take a tap
    document.body.classList.add("settling");
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => document.body.classList.remove("settling"), SETTLE_MS);
  }

  // -- seats ----------------------------------------------------------------------------
  function names() { return (state && state.view && state.view.names) || []; }
  function forgetSeat() { seat = null; if (SEAT_KEY) localStorage.removeItem(SEAT_KEY); drawSeats(); }
  // A seat held by another phone is offered as taken: joining it takes it on purpose (the
  // other phone is told its seat moved), after a second tap.
  let taken = [], takenAsked = false;
  async function askTaken() {
    try {
      const res = await fetch("/join.json", { headers: KEYED, cache: "no-store" });
      if (res.ok) { taken = (await res.json()).taken || []; drawSeats(); }
    } catch (e) { /* not answering: the seats stay as drawn */ }
  }
  async function join(which, take) {
    const r = await post("/api/join", take ? { seat: which, take: true } : { seat: which });
    if (r.status === 409 && !take && typeof which === "number") {
      if (window.confirm("Take " + names()[which] + "'s seat from the other phone?")) return join(which, true);
      takenAsked = false; drawSeats(); return;
    }
    if (!r.data.ok) { setError(r.data.error); return; }
    seat = { seat: r.data.seat, token: r.data.token, name: r.data.name, names: names() };
    if (SEAT_KEY) localStorage.setItem(SEAT_KEY, JSON.stringify(seat));
    $("seats").hidden = true; draw();
    connect(); // the stream again, naming the seat now held
  }
  function drawSeats() {
    const ns = names();
    if (seat && JSON.stringify(seat.names) !== JSON.stringify(ns)) seat = null; // another game
    const want = !seat && ns.length > 0;
    $("seats").hidden = !want;
    if (!want) { takenAsked = false; return; }
    if (!takenAsked) { takenAsked = true; askTaken(); }
    const list = $("seat-list"); list.textContent = "";
    ns.forEach((n, i) => list.append(button(taken.includes(i) ? n + " (taken)" : n, () => join(i), { "data-seat": i })));
    list.append(button("Shared screen (answers for everyone)", () => join("table"), { "data-seat": "table" }));
  }

  // -- drawing --------------------------------------------------------------------------
  // A stream sends the whole state first, then what changed since the version before
  // (cribcore.table.patch: "base" the version it applies to, "set" the fields changed,
  // "drop" the log's oldest events to drop, "log" the new ones); one that does not apply
  // to the state shown (a version missed) and is not older: the whole state is fetched.
  function took(s) {
    if (s.base === undefined) return show(s);
    if (state && s.run === state.run && s.version <= state.version) return; // an older state
    if (!state || s.run !== state.run || s.base !== state.version) { refresh(); return; }
    const full = Object.assign({}, state, s.set, { version: s.version });
    full.log = state.log.slice(s.drop).concat(s.log);
    show(full);
  }
  function show(s) {
    if (state && s.run === state.run && s.version <= state.version) return; // an older state
    const first = !state;
    const fresh = !state || !s.question || !state.question || s.question.id !== (state.question || {}).id;
    state = s;
    if (fresh) {
      if (!first) settle();
      picked = loadPicked(s.question ? s.question.id : null); rankOpen = null; setError("");
      totals = !!(s.question && s.question.legal && s.question.legal.prefer === "total");
    }
    qid = s.question ? s.question.id : null;
    drawSeats();
    draw();
    drawBoard();
    const news = s.log.filter((e) => e.seq > seenSeq);
    if (seenSeq && $("speak").checked) news.filter((e) => e.kind === "show").forEach(speakShow);
    if (s.log.length) seenSeq = s.log[s.log.length - 1].seq;
  }
  // The board drawn from the layout and the pegs both servers send (CribBoard, below),
  // again only when they changed or the view was enlarged or put back.
  function drawBoard() {
    const v = state.view, pegs = v && v.pegs, big = document.body.classList.contains("board-big");
    const tall = big && window.matchMedia("(orientation: portrait)").matches;
    const q = state.question, sides = v && v.sides ? v.sides.length : 0, players = v && v.names ? v.names.length : 0;
    const asked = q && q.asks != null && (q.kind === "play" || q.kind === "show" || q.kind === "crib") && sides ? (sides === players ? q.asks : q.asks % sides) : -1;
    const marks = { target: (v && v.target) || state.holes, turn: v && v.over ? -1 : asked };
    const drawn = state.lanes && state.holes && pegs && pegs.length ? JSON.stringify([state.lanes, state.holes, pegs, tall, marks]) : null;
    if (drawn === boardKey) return;
    boardKey = drawn;
    $("board").textContent = "";
    if (drawn) $("board").append(window.CribBoard.svg(state.holes, state.lanes, pegs, tall, marks));
  }
  function draw() {
    const q = state.question, v = state.view;
    document.body.dataset.kind = q ? q.kind : "over";
    drawScores(v, q);
    $("prompt").textContent = q ? q.prompt.replace(ASKED, "?") : "The session is over";
    $("prompt").dataset.id = qid || "";
    const ns = names();
    const asked = q && q.asks != null ? ns[q.asks] : null;
    const mine = !asked || !seat || seat.seat === "table" || seat.seat === q.asks;
    $("turn").textContent = asked ? (seat && seat.seat === q.asks ? asked + ", your turn" : asked + "'s turn") : "";
    $("behalf").hidden = mine;
    if (mine) $("for").checked = false;
    $("forname").textContent = asked || "";
    $("undo").disabled = !q || !q.undo;
    const u = state.undone;
    $("undone").hidden = !u;
    $("undone-text").textContent = u ? u.text : "";
    $("redo").hidden = !(u && u.redo);
    const a = state.answered; // who answered for whom: every screen says it
    $("answered").hidden = !a;
    $("answered").textContent = a ? a.text : "";
    drawResult(v && v.result);
    drawClub(state.club);
    $("board-off").textContent = v && v.offline ? "Board offline: the scores are kept here" : "";
    drawChosen();
    // The answer's buttons are built again only when what they show changed: a new version
    // with the same question (the board's picture, news from the board) must not replace the
    // button under a finger (a tap between its press and its release was lost) nor clear a
    // number being typed.
    const can = mine || $("for").checked;
    const shown = q && q.kind === "confirm" && state.log.length ? state.log[state.log.length - 1].seq : 0;
    const key = JSON.stringify([q, can, can ? null : names(), picked, rankOpen, totals, shown, v && v.over]);
    if (key !== panelKey) { panelKey = key; drawPanel(q, can); }
    drawHand(v);
    drawLog(state.log, q && q.kind === "confirm");
  }
  // Game over: the winner, the score and any skunk lead the screen; "Another game?" after.
  function drawResult(r) {
    const box = $("result"); box.textContent = ""; box.hidden = !r;
    if (!r) return;
    box.append(el("h2", {}, r.winner + (r.winner.includes(" & ") ? " win" : " wins")));
    box.append(el("p", { class: "final" }, r.scores.map((s) => s[0] + " " + s[1]).join(" \u2013 ")));
    if (r.skunk) box.append(el("p", { class: "skunk" }, r.skunk.charAt(0).toUpperCase() + r.skunk.slice(1) + "!"));
  }
  // A board with Wi-Fi reporting to a club night (boardweb.clubreport): where, what waits
  // and why, and the reports the club refused, with its sentence.
  function drawClub(c) {
    const box = $("club"); box.textContent = "";
    box.hidden = !c || !(c.address || c.waiting.length || c.refused.length);
    if (box.hidden) return;
    box.append(el("p", {}, c.address ? "Club night at " + c.address + ": each game reported when it ends" : "No club night set"));
    c.waiting.forEach((w) => box.append(el("p", { class: "waiting" }, "Sending " + w + (c.trying ? " (" + c.trying + ")" : ""))));
    c.refused.forEach((r) => box.append(el("p", { class: "refused" }, "The club refused " + r[0] + ": " + r[1] + ". The director enters it.")));
  }
  function drawScores(v, q) {
    const box = $("scores"); box.textContent = "";
    if (!v || v.game == null) return;
    const sides = v.sides, players = v.names.length;
    const sideOf = (p) => (sides.length === players ? p : p % sides.length);
    const lanes = state.lanes || [];
    sides.forEach((name, s) => {
      const row = el("div", { class: "side" + (q && q.asks != null && sideOf(q.asks) === s ? " asked" : ""), "data-side": s });
      const n = el("span", { class: "name" }, name);
      if (lanes[s]) { // the lane's colour, and its name for whoever cannot tell the colours
        row.style.setProperty("--c", lanes[s].colour);
        row.classList.add("lane");
        n.append(el("span", { class: "lane-name" }, lanes[s].name));
      }
      if (sideOf(v.dealer) === s) n.append(el("span", { class: "crib" }, "crib"));
      const sc = el("span", { class: "score" }, String(v.scores[s]));
      sc.append(el("small", {}, " /" + v.target));
      const bar = el("div", { class: "bar" }); const fill = el("i");
      fill.style.width = Math.min(100, (100 * v.scores[s]) / v.target) + "%";
      bar.append(fill); row.append(n, sc, bar); box.append(row);
    });
  }
  function drawHand(v) {
    const box = $("hand"); box.textContent = "";
    if (!v || !v.hand) return;
    const h = v.hand;
    if (h.starter) { box.append("Starter "); box.append(el("span", { class: "cards" }, "")); box.lastChild.append(cardSpan(h.starter)); }
    if (h.phase === "play" && h.pile.length) {
      box.append("  Count " + h.count + ": ");
      const c = el("span", { class: "cards" });
      h.pile.forEach((x) => { c.append(cardSpan(x), " "); });
      box.append(c);
    }
  }
  function drawChosen() {
    const box = $("chosen"); box.textContent = "";
    picked.forEach((c) => box.append(el("span", { class: "chip" + (isRed(c) ? " red" : ""), "data-card": c }, cardText(c))));
  }
  function drawPanel(q, canAnswer) {
    const p = $("panel"); p.textContent = "";
    if (!q) { if (state.view && state.view.over) p.append(el("p", {}, "Game over.")); return; }
    const L = q.legal || {};
    const add = (...xs) => p.append(...xs);
    if (!canAnswer) { add(el("p", { class: "small" }, "Waiting for " + names()[q.asks] + ".")); return; }
    if (q.kind === "play") return drawPlay(q, L, add);
    if (CARD_KINDS.includes(q.kind)) return drawCards(q, L, add);
    if (q.kind === "play_points" || q.kind === "count") return drawNumbers(q, L, add);
    if (q.kind === "confirm") { // a show to peg: the count itself, above yes and no
      const last = state.log[state.log.length - 1];
      if (last && last.kind === "show") add(showTable(el("div", { class: "ev show inline" }), last));
    }
    if (L.choices) return drawChoices(q, L, add);
    drawText(q, add);
  }
  function grid(cls) { return el("div", { class: "grid " + cls }); }
  function drawChoices(q, L, add) {
    const g = grid("choices");
    const yesNo = L.choices.length === 2 && L.choices[0] === "y";
    const labels = L.labels || {};
    L.choices.forEach((c) => {
      const label = labels[c] || (yesNo ? (c === "y" ? "Yes" : "No") : String(c));
      const isDefault = yesNo ? (c === "y") === L.default : String(q.default) === String(c);
      g.append(button(label, () => send(c), { class: isDefault ? "primary" : "", "data-choice": c }));
    });
    if (L.none) g.append(button("Nobody", () => send(""), { "data-choice": "" }));
    add(g);
    if (L.min != null) drawText(q, add, "number");
  }
  function drawText(q, add, type) {
    const hint = q.hint || (type === "number" ? "another number" : "");
    const input = el("input", { type: type || "text", id: "text", placeholder: hint, autocomplete: "off" });
    const row = el("div", { class: "row" });
    row.append(input, button("OK", () => send(input.value), { class: "primary", "data-choice": "ok" }));
    input.onkeydown = (e) => { if (e.key === "Enter") send(input.value); };
    add(row);
  }
  function drawNumbers(q, L, add) {
    const values = L.totals || Array.from({ length: 24 }, (_, i) => i);
    const g = grid("nums");
    values.forEach((n) => g.append(button(String(n), () => send(n), { "data-value": n })));
    add(g);
    if (!L.totals) drawText(q, add, "number");
  }
  function drawPlay(q, L, add) {
    if (q.default) add(button("Lay " + q.default, () => send(""), { class: "big primary", "data-choice": "default" }));
    const g = grid("ranks");
    for (const r of RANKS) {
      const t = rankText(r);
      g.append(button(t, () => send(t), { "data-rank": r, disabled: !(L.ranks || []).includes(t) }));
    }
    add(g);
    const row = el("div", { class: "row" });
    row.append(button("Go", () => send("go"), { class: "big", "data-choice": "go", disabled: !L.go }),
      button("Type points", () => send("points"), { "data-choice": "points" }));
    add(row);
  }
  function drawCards(q, L, add) {
    const need = L.count || 1;
    const legal = new Set(L.cards || []);
    picked.forEach((c) => legal.delete(c));
    // The ranks a show must have (the cards laid in the play, suits not known).
    let ranksLeft = L.ranks ? L.ranks.slice() : null;
    if (ranksLeft) picked.forEach((c) => { const i = ranksLeft.indexOf(rankText(c[0])); if (i >= 0) ranksLeft.splice(i, 1); });
    if (q.default) add(button("Take " + q.default, () => send(""), { class: "big primary", "data-choice": "default" }));
    if (L.skip) add(button("Skip", () => send(""), { class: "big", "data-choice": "skip" }));
    if (L.totals) {
      const row = el("div", { class: "row" });
      row.append(button("Cards", () => { totals = false; draw(); }, { class: totals ? "" : "on", "data-choice": "cards" }),
        button("Total", () => { totals = true; draw(); }, { class: totals ? "on" : "", "data-choice": "total" }));
      add(row);
      if (totals) return drawNumbers(q, L, add);
    }
    if (L.prefer === "ranks") return drawRanks(L, need, add);
    if (q.kind === "discard") { // the dealt cards themselves
      const g = grid("choices");
      (L.cards || []).forEach((c) => g.append(button(cardText(c), () => pick(c, need), { "data-card": c, class: picked.includes(c) ? "on" : "" })));
      return add(g);
    }
    const g = grid("ranks");
    for (const r of RANKS) {
      const ok = [...legal].some((c) => c[0] === r) && (!ranksLeft || ranksLeft.includes(rankText(r)));
      g.append(button(rankText(r), () => openRank(r, legal, need), { "data-rank": r, disabled: !ok, class: rankOpen === r ? "on" : "" }));
    }
    add(g);
    if (rankOpen) {
      const s = grid("suits");
      for (const x of SUITS) {
        const c = rankOpen + x;
        s.append(button(SYM[x], () => pick(c, need), { "data-suit": x, class: isRed(c) ? "red" : "", disabled: !legal.has(c), "aria-label": cardText(c) }));
      }
      add(s);
    }
    if (picked.length) add(button("Clear " + picked.length, () => { picked = []; rankOpen = null; savePicked(); draw(); }, { "data-choice": "clear" }));
  }
  // The show by ranks: a rank a tap, each offered while this hand can still hold one more.
  function drawRanks(L, need, add) {
    const room = L.room || {};
    const g = grid("ranks");
    for (const r of RANKS) {
      const have = picked.filter((c) => c === r).length;
      g.append(button(rankText(r), () => pick(r, need, true), { "data-rank": r, disabled: have >= (room[rankText(r)] || 0) }));
    }
    add(g);
    if (picked.length) add(button("Clear " + picked.length, () => { picked = []; savePicked(); draw(); }, { "data-choice": "clear" }));
  }
  function openRank(r, legal, need) {
    const suits = [...legal].filter((c) => c[0] === r);
    if (suits.length === 1) return pick(suits[0], need); // one suit left: no need to ask
    rankOpen = r; draw();
  }
  function pick(c, need, again) { // again: the same rank may be picked more than once
    const i = picked.indexOf(c);
    if (i >= 0 && !again) picked.splice(i, 1); else picked.push(c);
    rankOpen = null;
    savePicked();
    if (picked.length === need) return send(picked.join(" "));
    draw();
  }
  // confirming: the show being confirmed is shown above its buttons, not again here.
  function drawLog(log, confirming) {
    const box = $("log"); box.textContent = "";
    const items = log.slice(-30).reverse();
    const inline = confirming && log.length && log[log.length - 1].kind === "show" ? log[log.length - 1] : null;
    for (const e of items) {
      if (e === inline) continue;
      if (e.kind === "board" || e.kind === "over" || e.kind === "line" && !e.text.trim()) continue;
      const d = el("div", { class: "ev " + e.kind, "data-seq": e.seq });
      if (e.kind === "show") {
        showTable(d, e);
      } else {
        if (e.points) d.append(el("span", { class: "pts" }, "+" + e.points));
        d.append((e.who ? e.who + ": " : "") + e.text);
      }
      box.append(d);
    }
  }
  // A show itemised: fifteens with their cards, pairs, runs, flush, nobs; a running total.
  function showTable(d, e) {
    const data = e.data;
    if (window.speechSynthesis) d.append(button("Read", () => speakShow(e), { class: "say-btn", "aria-label": "read the count aloud" }));
    d.append(el("b", {}, (e.who ? e.who + "'s " : "") + (data.crib ? "crib " : "hand ")));
    data.cards.forEach((c) => d.append(cardSpan(c), " "));
    if (data.starter) { d.append(" starter "); d.append(cardSpan(data.starter)); }
    const t = el("table");
    let run = 0;
    data.items.forEach((it) => {
      run += it.points;
      const tr = el("tr");
      const cards = el("td"); it.cards.forEach((c) => cards.append(cardSpan(c), " "));
      tr.append(el("td", {}, it.kind), cards, el("td", { class: "add" }, "+" + it.points), el("td", { class: "run" }, String(run)));
      t.append(tr);
    });
    const tr = el("tr", { class: "total" }); tr.append(el("td", {}, "total"), el("td"), el("td"), el("td", { class: "run" }, String(data.total)));
    t.append(tr); d.append(t);
    return d;
  }
  function speakShow(e) {
    if (!window.speechSynthesis) return;
    const d = e.data;
    const words = d.items.map((it) => it.kind + " for " + it.points);
    const text = (d.crib ? "crib: " : "hand: ") + (words.length ? words.join(", ") + ". " : "nineteen. ") + "Total " + d.total;
    speechSynthesis.speak(new SpeechSynthesisUtterance(text));
  }

  // -- the screen stays awake while the page is shown (where the browser allows) ----------
  let lock = null;
  async function keepAwake() {
    try { if (navigator.wakeLock && !lock) { lock = await navigator.wakeLock.request("screen"); lock.onrelease = () => { lock = null; }; } } catch (e) { lock = null; }
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      keepAwake(); refresh(); // woke up: catch up now, and listen again
      if (!source || source.readyState === EventSource.CLOSED) connect();
    }
  });
  document.addEventListener("click", keepAwake, { once: true });
  window.addEventListener("DOMContentLoaded", () => {
    $("undo").onclick = undo;
    $("redo").onclick = redo;
    // A tap on a button within SETTLE_MS of a new question never reaches it (capture).
    document.addEventListener("click", (e) => {
      if (document.body.classList.contains("settling") && e.target.closest && e.target.closest("#ask button, #bar button")) {
        e.stopPropagation(); e.preventDefault();
      }
    }, true);
    setNet();
    $("for").onchange = () => draw();
    $("board").onclick = () => { if ($("board").firstChild) { document.body.classList.toggle("board-big"); drawBoard(); } };
    $("seat-change").onclick = forgetSeat;
    $("speak").checked = localStorage.getItem("crib.speak") === "1";
    $("speak").onchange = () => localStorage.setItem("crib.speak", $("speak").checked ? "1" : "0");
    start();
  });
  // The joining address, its code and the session's name: fetched with the key (the page
  // itself is the same for everyone), then the state is listened to.
  async function start() {
    try {
      const res = await fetch("/join.json", { headers: KEYED, cache: "no-store" });
      if (res.status === 403) { gone = true; setNet(); return; }
      if (res.ok) {
        const j = await res.json();
        SEAT_KEY = "crib.seat." + j.session;
        seat = JSON.parse(localStorage.getItem(SEAT_KEY) || "null");
        $("join-url").textContent = j.url;
        const qr = await fetch("/qr.svg", { headers: KEYED, cache: "no-store" });
        if (qr.ok) $("qr").innerHTML = await qr.text();
        network();
      }
    } catch (e) { setTimeout(start, RETRY_MS); } // not answering yet: the stream says so
    if (!source) connect();
  }
  // The board's Wi-Fi (the board's own server only: crib serve has no /api/network): the
  // network it is on, said in the menu; its home network set or forgotten by the table's
  // screen (the server refuses any other seat), the password never shown back.
  async function network() {
    let n;
    try {
      const res = await fetch("/api/network", { headers: KEYED, cache: "no-store" });
      if (!res.ok) return;
      n = await res.json();
    } catch (e) { return; }
    $("wifi").hidden = false;
    $("network").textContent = n.line + (n.home ? ". Home network: " + n.home + " (password set)" : "");
    const table = (seat && seat.seat === "table") || (!seat && names().length === 0);
    $("home-form").hidden = !n.form || !table;
    $("home-only").hidden = !n.form || table;
    if (n.home && !$("home-ssid").value) $("home-ssid").value = n.home;
  }
  async function setHome(body) {
    const s = seat && seat.seat === "table" ? seat : (await seatFields());
    const r = await post("/api/home", Object.assign({ seat: s.seat, token: s.token }, body));
    $("home-said").textContent = r.data.ok ? "Saved. " + r.data.say : (r.data.error || "not saved");
    if (r.data.ok) $("home-password").value = "";
    network();
  }
  document.addEventListener("DOMContentLoaded", () => {
    $("wifi").ontoggle = () => { if ($("wifi").open) network(); };
    $("home-form").onsubmit = (e) => { e.preventDefault(); setHome({ ssid: $("home-ssid").value, password: $("home-password").value }); };
    $("home-forget").onclick = () => setHome({ forget: true });
  });
})();

// The board at phone size, drawn here from what both servers send (the board makes no
// picture on its chip): the layout (its holes, each lane's name and colour: state.holes,
// state.lanes) and the pegs (state.view.pegs, [back, front] per lane in play). Each lane's
// holes run in rows of 30 (six groups of five) like lines of text, the start hole before
// the first row and the game hole after the last; the pegs' holes lit in the lane's
// colour, the front peg a filled disc ringed in white, the back peg an open ring (as
// crib.picture.phone draws it). `tall`: the enlarged view on an upright phone, the same
// picture with its rows turned into columns (the lanes left to right in the order the
// small one has them top to bottom), each lane's name over its column. The marks are the
// board's own: every 5th hole, the skunk lines and the game hole faint, and the marks of
// the lane asked to play or count pulsing in its colour.
(function () {
  "use strict";
  const ROW = 30, GROUP = 5, GROUP_GAP = 0.6, ROW_PITCH = 1.1, LANE_GAP = 0.9, HOLE_R = 0.36;
  const PEG_R = 0.46, BAR_W = 0.35, X0 = 3.1, END_GAP = 1.6, MARGIN = 0.7, NAME_H = 1.6;
  const FACE = "#261e18", DARK = "#0c0a09", RIM = "#54463a", NS = "http://www.w3.org/2000/svg";
  const colX = (col) => X0 + col + Math.floor(col / GROUP) * GROUP_GAP;
  function place(holes, lane, hole) { // the centre [x, y] of a lane's hole, rows across
    const rows = Math.ceil((holes - 1) / ROW);
    const top = MARGIN + 0.5 + lane * ((rows - 1) * ROW_PITCH + 1 + LANE_GAP);
    if (hole <= 0) return [X0 - END_GAP, top];
    if (hole >= holes) return [colX(ROW - 1) + END_GAP, top + (rows - 1) * ROW_PITCH];
    return [colX((hole - 1) % ROW), top + Math.floor((hole - 1) / ROW) * ROW_PITCH];
  }
  function node(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, typeof attrs[k] === "number" && !k.startsWith("data-") ? attrs[k].toFixed(2) : attrs[k]);
    parent.append(e);
    return e;
  }
  // The marks the board lights faintly (every 5th hole, the skunk lines, the game hole),
  // no brighter than a peg's hole so that the pegs stand out.
  const MARK = "#5a4634", SKUNK = "#4b2a66", GAME = "#686868";
  function markOf(hole, target) {
    if (hole === target) return GAME;
    if (hole === target - 30 || (target >= 121 && hole === target - 60)) return SKUNK;
    return hole > 0 && hole < target && hole % 5 === 0 ? MARK : null;
  }
  // marks: {target, turn} (turn: the lane asked to play or count, its marks pulse; -1 none)
  function svg(holes, lanes, pegs, tall, marks) {
    marks = marks || { target: holes, turn: -1 };
    const n = Math.max(1, Math.min(lanes.length, pegs.length));
    const w = colX(ROW - 1) + END_GAP + MARGIN, h = place(holes, n - 1, holes)[1] + 0.5 + MARGIN;
    const shift = tall ? NAME_H : 0; // room for the names over the columns
    const at = (x, y) => (tall ? [y, x + shift] : [x, y]);
    const s = document.createElementNS(NS, "svg");
    s.setAttribute("viewBox", "0 0 " + (tall ? [h, w + shift] : [w, h]).map((v) => v.toFixed(2)).join(" "));
    s.setAttribute("class", "phone-board" + (tall ? " tall" : ""));
    node("rect", { class: "face", x: 0, y: 0, width: tall ? h : w, height: tall ? w + shift : h, rx: 0.6, fill: FACE }, s);
    for (let lane = 0; lane < n; lane++) {
      const colour = lanes[lane].colour, top = place(holes, lane, 1)[1], bottom = place(holes, lane, holes)[1];
      const [x, y] = at(MARGIN - 0.3, top - 0.45), len = bottom - top + 0.9;
      const bar = node("rect", { class: "lane", "data-lane": lane, x, y, width: tall ? len : BAR_W, height: tall ? BAR_W : len, rx: 0.15, fill: colour }, s);
      node("title", {}, bar).textContent = lanes[lane].name;
      if (tall) {
        const t = node("text", { class: "lane-label", "data-lane": lane, x: (top + bottom) / 2, y: NAME_H - 0.45, fill: colour, "font-size": 1.0, "font-weight": 700, "text-anchor": "middle" }, s);
        t.textContent = lanes[lane].name;
      }
    }
    const lit = pegs.map((p) => p.filter((x) => x > 0));
    for (let lane = 0; lane < n; lane++) {
      for (let hole = 0; hole <= holes; hole++) {
        const [x, y] = at(...place(holes, lane, hole));
        const on = lit[lane].includes(hole), mark = markOf(hole, marks.target);
        const c = node("circle", { class: "hole" + (mark && !on ? " mark" + (lane === marks.turn && mark === MARK ? " turn" : "") : ""), "data-lane": lane, "data-hole": hole, cx: x, cy: y, r: HOLE_R, fill: on ? lanes[lane].colour : mark || DARK, stroke: RIM, "stroke-width": 0.08 }, s);
        if (lane === marks.turn) c.style.setProperty("--c", lanes[lane].colour);
      }
    }
    for (let lane = 0; lane < n; lane++) {
      const [back, front] = pegs[lane], colour = lanes[lane].colour;
      if (back !== front) {
        const [x, y] = at(...place(holes, lane, back));
        node("circle", { class: "peg back", "data-lane": lane, "data-hole": back, cx: x, cy: y, r: PEG_R - 0.06, fill: "none", stroke: colour, "stroke-width": 0.16 }, s);
      }
      const [x, y] = at(...place(holes, lane, front));
      node("circle", { class: "peg front", "data-lane": lane, "data-hole": front, cx: x, cy: y, r: PEG_R, fill: colour, stroke: "#ffffff", "stroke-width": 0.12 }, s);
    }
    return s;
  }
  window.CribBoard = { svg };
})();
