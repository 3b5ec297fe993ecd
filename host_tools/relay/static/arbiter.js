// The arbiter's page: every board with what the arbiter does to it (the clock, corrections,
// penalties, claims with the written move, results, a new game, which board plays which
// pairing), each command confirmed by the board's own answer; and the boards' alerts as they
// come, urgent ones highlighted and sounded until seen. Everything needs the relay's token:
// it is kept for this tab only (sessionStorage) and sent with every request.
"use strict";
const boards = new Map(); // number -> the relay's board (views.py board_json)
const alerts = new Map(); // id -> alert (relay/alerts.py)
let token = sessionStorage.getItem("token") || "";
let roundInfo = {};
let audio = null;

// ----- the relay's API

async function api(path, body) {
  const r = await fetch(path, { method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
    body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = null; }
  return { status: r.status, data, text };
}

// A value in a board command: one word, as the protocol encodes it (docs/protocol.md).
function word(text) { return encodeURIComponent(text); }

function said(number, ok, text) {
  const out = document.querySelector(`#board-${number} [data-part=said]`);
  out.textContent = text;
  out.className = "said " + (ok ? "ok" : "err");
}

// A command line as the arbiter reads it: its values decoded (the board gets them encoded).
function readable(line) {
  return line.split(" ").map((w) => { try { return decodeURIComponent(w); } catch (e) { return w; } }).join(" ");
}

async function command(number, line) {
  const r = await api(`/api/boards/${number}/command`, { command: line });
  if (r.data && r.data.answer) said(number, r.data.ok, `${readable(line)} → ${r.data.said}`);
  else said(number, false, `${readable(line)} → ${r.data ? r.data.error : r.text}`);
}

// What changes a game for good is asked again first: the arbiter's click can slip.
function confirmed(number, what) {
  return window.confirm(`Board ${number}: ${what}?`);
}

async function claim(number, side, move) {
  const r = await api(`/api/boards/${number}/claim`, { side, move: move || null });
  if (r.data && r.data.claim) said(number, r.data.ok, `${r.data.claim.note} → ${r.data.said || r.data.error}`);
  else said(number, false, `claim → ${r.data ? r.data.error : r.text}`);
}

// ----- what the arbiter types, as commands

// A time as typed: h:mm:ss, m:ss or s (so 1:30 is a minute and a half, 1:30:00 an hour and
// a half; the field says which it read as the arbiter types).
function toMs(text) {
  const t = text.trim();
  if (!/^\d+(:[0-5]?\d){0,2}$/.test(t)) return null;
  return t.split(":").map(Number).reduce((acc, p) => acc * 60 + p, 0) * 1000;
}

function meaning(ms) {
  const s = ms / 1000, h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : "", sec || !(h || m) ? `${sec} s` : ""].filter(Boolean).join(" ");
}

function setLine(f) {
  const what = f.what.value, side = f.side.value, v = f.value.value;
  if (what === "time") { const ms = toMs(v); return ms == null ? null : `set time ${side} ${ms}`; }
  const n = Number(v);
  if (!Number.isInteger(n) || n < (what === "period" ? 1 : 0)) return null;
  return `set ${what} ${side} ${what === "period" ? n - 1 : n}`; // periods are counted from 1 here, 0 on the board
}

// A time control as FIDE writes it (90+30: minutes + seconds a move; 40/90+30:30+30), read
// by the relay (host_tools/fidetime.py, the same reader as play --tc) into the board's
// control; the reading is shown as it is typed, and only a control that reads is sent.
const controls = new Map(); // typed -> {control, words} or {error}

async function readControl(text) {
  if (!controls.has(text)) {
    const r = await api("/api/timecontrol?text=" + encodeURIComponent(text));
    controls.set(text, r.status === 200 ? r.data : { error: r.text });
  }
  return controls.get(text);
}

function newLine(f, control) {
  let line = "new";
  if (control) line += " tc=" + word(control);
  if (f.white.value.trim()) line += " white=" + word(f.white.value.trim());
  if (f.black.value.trim()) line += " black=" + word(f.black.value.trim());
  return line;
}

// ----- a board's desk

const SIDES = `<option value="w">White</option><option value="b">Black</option>`;

function makeDesk(n) {
  const el = document.createElement("section");
  el.className = "card desk";
  el.id = "board-" + n;
  el.setAttribute("aria-label", "Board " + n);
  el.innerHTML = `
    <h2>Board ${n} <span data-part="players"></span></h2>
    <p class="deskline"><span data-part="state"></span> <span data-part="clock"></span></p>
    <p class="deskline" data-part="status"></p>
    <div class="controls">
      <button type="button" data-cmd="start">Start</button>
      <button type="button" data-cmd="pause">Pause</button>
      <button type="button" data-cmd="resume">Resume</button>
    </div>
    <form data-form="set" class="controls"><label>Set <select name="what"><option value="time">time</option><option value="moves">moves made</option><option value="period">period</option></select></label>
      <select name="side" aria-label="side">${SIDES}</select>
      <input name="value" size="8" placeholder="h:mm:ss" aria-label="value" aria-describedby="means-${n}" required>
      <output id="means-${n}" data-part="means"></output> <button>Set</button></form>
    <form data-form="penalty" class="controls"><label>Penalty <select name="why"><option value="illegal">illegal move (7.5.5)</option><option value="claim">incorrect claim (9.5.3)</option></select></label>
      <label>by <select name="side">${SIDES}</select></label> <button>Give</button></form>
    <form data-form="claim" class="controls"><label>Draw claim by <select name="side">${SIDES}</select></label>
      <label>written move <input name="move" size="6" placeholder="Nf3"></label> <button>Check</button></form>
    <form data-form="quickplay" class="controls"><label>Quickplay finish (III.4) for <select name="side">${SIDES}</select></label> <button>Grant</button></form>
    <form data-form="result" class="controls"><label>Result <select name="result"><option value="1-0">1-0</option><option value="0-1">0-1</option><option value="1/2-1/2">½-½</option></select></label> <button>Set result</button></form>
    <form data-form="add" class="controls"><label>Add <input name="minutes" size="4" placeholder="m:ss" aria-describedby="adds-${n}" required> to <select name="side">${SIDES}</select></label>
      <output id="adds-${n}" data-part="adds"></output> <button>Add time</button></form>
    <form data-form="forfeit" class="controls"><label>Forfeit by <select name="side">${SIDES}<option value="both">both (double forfeit)</option></select></label>
      <label>reason <input name="reason" size="18" placeholder="late arrival (6.7.1)"></label> <button>Declare forfeit</button></form>
    <form data-form="new" class="controls"><label>New game <input name="tc" size="14" placeholder="90+30" aria-describedby="reads-${n}"></label>
      <output id="reads-${n}" data-part="reads"></output>
      <input name="white" size="10" placeholder="White" aria-label="White"> <input name="black" size="10" placeholder="Black" aria-label="Black"> <button>Start new game</button></form>
    <form data-form="message" class="controls"><label>Message on the faces <input name="text" size="8" maxlength="8" placeholder="TIME UP"></label> <button>Show</button></form>
    <form data-form="pair" class="controls"><label>This board plays pairing <select name="pairing"></select></label> <button>Assign</button></form>
    <p class="said" data-part="said" role="status"></p>
    <div class="pairview" data-part="pairview"><table class="diagram" data-part="diagram" aria-label="the position on board ${n}"></table>
      <p class="scoresheet" data-part="scoresheet"></p></div>`;
  el.querySelectorAll("[data-cmd]").forEach((b) => {
    b.onclick = () => (b.dataset.cmd !== "pause" || confirmed(n, "pause the clock")) && command(n, b.dataset.cmd);
  });
  const setForm = el.querySelector("[data-form=set]");
  const newForm = el.querySelector("[data-form=new]");
  newForm.tc.oninput = async () => {
    const typed = newForm.tc.value.trim();
    if (!typed) { part(n, "reads").textContent = ""; return; }
    const r = await readControl(typed);
    if (newForm.tc.value.trim() === typed) part(n, "reads").textContent = r.error ? r.error : `= ${r.words} (${r.control})`;
  };
  const addForm = el.querySelector("[data-form=add]");
  addForm.oninput = () => {
    const v = addForm.minutes.value.trim(), ms = toMs(v.includes(":") ? v : v + ":00");
    part(n, "adds").textContent = !v ? "" : ms == null ? "m:ss" : "= +" + meaning(ms);
  };
  setForm.oninput = () => {
    const v = setForm.value.value.trim(), ms = toMs(v);
    part(n, "means").textContent = !v ? "" : setForm.what.value !== "time" ? "" : ms == null ? "h:mm:ss" : "= " + meaning(ms);
  };
  const forms = {
    set: (f) => { const line = setLine(f); if (line) command(n, line); else said(n, false, "a time as h:mm:ss or m:ss, a count as a whole number"); },
    penalty: (f) => confirmed(n, `give ${f.side.value === "w" ? "White" : "Black"} the penalty for ${f.why.options[f.why.selectedIndex].text}`)
      && command(n, `penalty ${f.why.value} ${f.side.value}`),
    claim: (f) => claim(n, f.side.value, f.move.value.trim()),
    quickplay: (f) => command(n, `quickplay ${f.side.value}`),
    result: (f) => confirmed(n, `end the game ${f.result.options[f.result.selectedIndex].text}`) && command(n, `result ${f.result.value}`),
    new: async (f) => {
      const typed = f.tc.value.trim(), r = typed ? await readControl(typed) : null;
      if (r && r.error) { said(n, false, "time control: " + r.error); return; }
      if (confirmed(n, "end this game and start a new one" + (r ? ` with ${r.words} (${r.control})` : ""))) command(n, newLine(f, r && r.control));
    },
    add: (f) => { const v = f.minutes.value.trim(), ms = toMs(v.includes(":") ? v : v + ":00"); if (!ms) { said(n, false, "the time to add as m:ss or minutes:seconds"); return; }
      command(n, `add ${f.side.value} ${ms}`); },
    forfeit: (f) => confirmed(n, f.side.value === "both" ? "declare a double forfeit (0-0)" : `declare ${f.side.value === "w" ? "White" : "Black"}'s game lost by forfeit`)
      && command(n, `forfeit ${f.side.value}` + (f.reason.value.trim() ? " " + word(f.reason.value.trim()) : "")),
    pair: (f) => assign(n, +f.pairing.value),
    message: (f) => command(n, f.text.value.trim() ? "message " + word(f.text.value.trim()) : "message"),
  };
  el.querySelectorAll("[data-form]").forEach((f) => {
    f.onsubmit = (e) => { e.preventDefault(); forms[f.dataset.form](f); };
  });
  document.getElementById("desk").appendChild(el);
  placePair(n);
  return el;
}

// ----- appendix D: a blind player's board (n + PAIRED) beside the sighted player's (n), each
// with its position - the squares where the two differ marked - and its recorded game (D.2.9)

const PAIRED = 1000;
const GLYPHS = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

function partnerOf(n) { return n > PAIRED ? n - PAIRED : boards.has(n + PAIRED) || document.getElementById("board-" + (n + PAIRED)) ? n + PAIRED : null; }

function placePair(n) {
  const main = n > PAIRED ? n - PAIRED : n;
  const a = document.getElementById("board-" + main), b = document.getElementById("board-" + (main + PAIRED));
  if (!a || !b) return;
  let pair = a.parentElement.classList.contains("pair") ? a.parentElement : null;
  if (!pair) {
    pair = document.createElement("div");
    pair.className = "pair";
    pair.setAttribute("aria-label", `Board ${main}: the sighted player's board and the blind player's`);
    a.replaceWith(pair);
    pair.appendChild(a);
  }
  pair.appendChild(b);
  [main, main + PAIRED].forEach((k) => { if (boards.has(k)) renderPair(boards.get(k)); });
}

function squares(fen) {
  const out = [];
  for (const row of (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/")) {
    for (const c of row) { if (/[1-8]/.test(c)) for (let i = 0; i < +c; i++) out.push(""); else out.push(c); }
  }
  return out;  // a8 first, as the FEN has it
}

// Every board's position and moves, live (the arbiter's feed is never delayed); for a pair,
// the squares where the two boards differ are outlined.
function renderPair(b) {
  const other = partnerOf(b.number);
  const view = part(b.number, "pairview");
  if (!view) return;
  const mine = squares(b.fen), theirs = other == null ? mine : squares((boards.get(other) || {}).fen || b.fen);
  let html = "";
  for (let r = 0; r < 8; r++) {
    html += "<tr>";
    for (let f = 0; f < 8; f++) {
      const i = r * 8 + f, name = "abcdefgh"[f] + (8 - r);
      const cls = ((r + f) % 2 ? "dark" : "light") + (mine[i] !== theirs[i] ? " differs" : "");
      html += `<td class="${cls}" title="${name}">${GLYPHS[mine[i]] || ""}</td>`;
    }
    html += "</tr>";
  }
  part(b.number, "diagram").innerHTML = html;
  const san = b.san || [], start = (b.start || "w 1").split(" "), blackFirst = start[1] === "b";
  const first = +start[5] || 1;
  const words = san.map((m, i) => { const k = i + (blackFirst ? 1 : 0), num = first + Math.floor(k / 2);
    return (k % 2 === 0 ? `${num}. ` : i === 0 ? `${num}... ` : "") + m; });
  part(b.number, "scoresheet").textContent = (other == null ? "" : b.number > PAIRED ? "The blind player's board: " : "The sighted player's board: ")
    + (words.join(" ") || "no move yet");
}

function part(n, name) { return document.querySelector(`#board-${n} [data-part=${name}]`); }

function render(b) {
  if (b.state === "WAITING") return;  // a pairing whose board is not there: nothing to do to it yet
  boards.set(b.number, b);
  const el = document.getElementById("board-" + b.number) || makeDesk(b.number);
  part(b.number, "players").textContent = `${b.white || "?"} – ${b.black || "?"} · ${b.serial}${b.game ? " · game " + b.game : ""}`;
  renderClock(b);
  const trouble = [b.problem, b.status && b.status !== "sync" ? "board " + b.status : null].filter(Boolean).join(" · ");
  part(b.number, "status").textContent = trouble;
  el.classList.toggle("trouble", !!trouble || b.state !== "ACTIVE");
  pairings();
  const other = partnerOf(b.number);
  renderPair(b);
  if (other != null) { placePair(b.number); if (boards.has(other)) renderPair(boards.get(other)); }
}

// The state word, true at every moment: from the board's line, its result and its latest clock line.
function stateWord(b) {
  const c = b.clock || {};
  if (b.state !== "ACTIVE") return "line gone";
  if (b.result && b.result !== "*") return b.result;
  if (c.state === "running") return "running";
  if (c.state === "paused") return "paused";
  return b.san && b.san.length ? "stopped" : "not started";
}

function renderClock(b) {
  part(b.number, "state").textContent = stateWord(b);
  let c = b.clock;
  if (!c) return;
  if (stateWord(b) === "not started") {
    // No move and no running clock: the control's time if known, never 0.0 - which reads
    // as two fallen flags (as the spectators' page shows an idle board).
    const ms = startMs(b.tc) || null;
    c = { white: ms, black: ms, state: "stopped" };
  }
  const run = c.state === "running" ? c.running : null;
  part(b.number, "clock").textContent = `White ${fmt(c.white)}${run === "w" ? " ◀" : ""} · Black ${fmt(c.black)}${run === "b" ? " ◀" : ""}`;
}

// ----- pairings: which board (serial) plays which pairing of the round

function pairings() {
  const entries = Object.entries(roundInfo.boards || {});
  for (const b of boards.values()) {
    const sel = document.querySelector(`#board-${b.number} [data-form=pair] select`);
    const want = entries.map(([k, v]) => `${k}|${v.white || "?"}|${v.black || "?"}|${v.serial || ""}`).join(",");
    if (sel.dataset.built === want) continue;
    sel.dataset.built = want;
    sel.innerHTML = entries.map(([k, v]) =>
      `<option value="${k}"${+k === b.number ? " selected" : ""}>${k}: ${esc(v.white || "?")} – ${esc(v.black || "?")}</option>`).join("");
  }
}

async function assign(n, pairing) {
  const b = boards.get(n);
  const r = await api("/api/round/assign", { serial: b.serial, board: pairing });
  said(n, r.status === 200, r.status === 200 ? `${b.serial} now plays pairing ${pairing}` : r.text);
}

// ----- alerts

// Alerts are grouped per board. What needs the arbiter (an illegal press, a flag, a board
// that differs, a claim) is an alert: highlighted, sounded and listed until marked seen.
// What is only for the record (a piece put back, 4.3) is a note, kept folded under the
// board's alerts with its count.
function group(board) {
  let g = document.getElementById("alerts-board-" + board);
  if (g) return g;
  g = document.createElement("li");
  g.className = "alert-group";
  g.id = "alerts-board-" + board;
  g.dataset.board = board;
  g.innerHTML = `<h3>Board ${board} <button type="button" data-all-seen hidden>All seen</button></h3>
    <ol class="group-alerts" reversed></ol>
    <details hidden><summary>Notes (<span data-part="notes-count">0</span>)</summary><ol class="group-notes" reversed></ol></details>`;
  g.querySelector("[data-all-seen]").onclick = () => {
    for (const x of alerts.values()) if (x.board === board && x.urgent && !x.seen) api(`/api/alerts/${x.id}/seen`, {});
  };
  const list = document.getElementById("alerts");
  const after = [...list.children].find((c) => +c.dataset.board > board);
  list.insertBefore(g, after || null);
  return g;
}

function renderAlert(a) {
  alerts.set(a.id, a);
  const g = group(a.board);
  let li = document.getElementById("alert-" + a.id);
  const fresh = !li;
  if (!li) {
    li = document.createElement("li");
    li.id = "alert-" + a.id;
    g.querySelector(a.urgent ? ".group-alerts" : ".group-notes").prepend(li);
  }
  const at = new Date(a.at * 1000).toLocaleTimeString();
  const where = a.move ? (a.move === "before the first move" ? ", before the first move" : `, after ${a.move}`) : "";
  li.className = "alert-item" + (a.urgent ? (a.seen ? " seen" : " urgent") : " note");
  li.innerHTML = `<time>${esc(at)}</time> <strong>Board ${a.board}</strong>${esc(where)}: ${esc(a.text)}${a.count > 1 ? ` <span class="count">×${a.count}</span>` : ""}
    ${a.urgent && !a.seen ? `<button type="button" data-seen="${a.id}">Seen</button>` : ""}`;
  const button = li.querySelector("[data-seen]");
  if (button) button.onclick = () => api(`/api/alerts/${a.id}/seen`, {});
  const mine = [...alerts.values()].filter((x) => x.board === a.board);
  const open = mine.filter((x) => x.urgent && !x.seen).length;
  g.querySelector("[data-all-seen]").hidden = open < 2;
  const notes = mine.filter((x) => !x.urgent).length;
  g.querySelector("details").hidden = !notes;
  g.querySelector("[data-part=notes-count]").textContent = notes;
  const desk = document.getElementById("board-" + a.board);
  if (desk) desk.classList.toggle("alerted", open > 0);
  unseen();
  return fresh || (!a.seen && a.count > 1);
}

function unseen() {
  const n = [...alerts.values()].filter((a) => a.urgent && !a.seen).length;
  const badge = document.getElementById("unseen");
  badge.hidden = !n;
  badge.textContent = n + " not seen";
  document.title = (n ? `(${n}) ` : "") + "Arbiter";
}

function sound() {
  if (!document.getElementById("sound").checked || !audio) return;
  const o = audio.createOscillator(), g = audio.createGain();
  o.frequency.value = 880;
  g.gain.setValueAtTime(0.2, audio.currentTime);
  g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
  o.connect(g).connect(audio.destination);
  o.start();
  o.stop(audio.currentTime + 0.4);
}

function newAlert(a) {
  if (renderAlert(a) && a.urgent && !a.seen) {
    sound();
    document.getElementById("announce").textContent = `Board ${a.board}: ${a.text}`;
  }
}

// ----- the feed

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => ws.send(JSON.stringify({ token }));
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "arbiter") {
      if (!msg.ok) { signOut("that is not the relay's token"); ws.onclose = null; ws.close(); return; }
      document.getElementById("link").textContent = "signed in · live";
      msg.alerts.forEach(renderAlert);
    } else if (msg.type === "state") {
      stateCame();
      loadRound();
      msg.boards.forEach(render);
    } else if (msg.type === "board") {
      const b = withEarlier(boards.get(msg.board.number), msg.board);
      if (b) render(b); else askState(ws);
    }
    else if (msg.type === "round") loadRound();
    else if (msg.type === "removed") {
      boards.delete(msg.number);
      const desk = document.getElementById("board-" + msg.number);
      if (desk) desk.remove();
      const g = document.getElementById("alerts-board-" + msg.number);  // a stale group goes with its board
      if (g) g.remove();
      for (const [id, a] of alerts) if (a.board === msg.number) alerts.delete(id);
      unseen();
    }
    else if (msg.type === "clock" && boards.has(msg.number)) { boards.get(msg.number).clock = msg.clock; renderClock(boards.get(msg.number)); }
    else if (msg.type === "alert") newAlert(msg.alert);
    else if (msg.type === "alerts") {  // boards renumbered: their alerts went with them, every group anew
      alerts.clear();
      document.getElementById("alerts").innerHTML = "";
      document.querySelectorAll(".desk.alerted").forEach((d) => d.classList.remove("alerted"));
      msg.alerts.forEach(renderAlert);
      unseen();
    }
  };
  ws.onclose = () => { document.getElementById("link").textContent = "reconnecting…"; setTimeout(connect, 1000); };
}

// The pairings themselves (with serials) come from the round, which only the token reads.
async function loadRound() {
  const r = await api("/api/round");
  if (r.status === 200) { roundInfo = r.data; pairings(); roundForm(); }
}

// ----- the round and its players, edited here (POST /api/round): every pairing of the
// round, and every board connected that the round has no pairing for. What the round file
// said beyond the names (titles, ratings, federations, FIDE IDs, serials, the lichess
// round) is kept as it was.

const roundPanel = document.getElementById("round-panel");
const roundFormEl = document.getElementById("round-form");

function roundForm() {
  if (roundFormEl.dataset.edited) return;  // not under the arbiter's typing: his edit stands until saved
  const r = roundInfo, rows = Object.assign({}, r.boards || {});
  for (const b of boards.values()) if (!rows[b.number]) rows[b.number] = { white: b.white || "", black: b.black || "", serial: b.serial };
  roundFormEl.event.value = r.event && r.event !== "?" ? r.event : "";
  roundFormEl.round.value = r.round || "1";
  document.querySelector("#pairings tbody").innerHTML = Object.keys(rows).sort((a, b) => a - b)
    .map((n) => pairingRow(n, rows[n])).join("");
}

function pairingRow(n, v) {
  return `<tr data-board="${esc(n)}"><th scope="row"><input name="n" size="3" value="${esc(n)}" aria-label="board number"></th>
    <td><input name="white" value="${esc(v.white || "")}" aria-label="board ${esc(n)} White"></td>
    <td><input name="black" value="${esc(v.black || "")}" aria-label="board ${esc(n)} Black"></td>
    <td><input name="serial" size="14" value="${esc(v.serial || "")}" aria-label="board ${esc(n)} serial" placeholder="any board"></td></tr>`;
}

roundFormEl.oninput = () => { roundFormEl.dataset.edited = "yes"; };
document.getElementById("add-pairing").onclick = () => {
  roundFormEl.dataset.edited = "yes";
  const rows = [...document.querySelectorAll("#pairings tbody tr")];
  const next = Math.max(0, ...rows.map((tr) => +tr.querySelector("[name=n]").value || 0)) + 1;
  document.querySelector("#pairings tbody").insertAdjacentHTML("beforeend", pairingRow(String(next), {}));
};

roundFormEl.onsubmit = async (e) => {
  e.preventDefault();
  const body = Object.assign({}, roundInfo, { event: roundFormEl.event.value || "?", round: roundFormEl.round.value || "1", boards: {} });
  for (const tr of document.querySelectorAll("#pairings tbody tr")) {
    const n = tr.querySelector("[name=n]").value.trim(), was = (roundInfo.boards || {})[tr.dataset.board] || {};
    const entry = Object.assign({}, was);
    for (const k of ["white", "black", "serial"]) {
      const v = tr.querySelector(`[name=${k}]`).value.trim();
      if (v) entry[k] = v; else delete entry[k];
    }
    if (n) body.boards[n] = entry;
  }
  const r = await api("/api/round", body);
  document.getElementById("round-said").textContent = r.status === 200 ? "saved" : "not saved: " + r.text;
  if (r.status === 200) { delete roundFormEl.dataset.edited; loadRound(); }
};

function signOut(why) {
  sessionStorage.removeItem("token");
  document.getElementById("login").hidden = false;
  document.getElementById("login-said").textContent = why;
  document.getElementById("link").textContent = "not signed in";
}

function signIn() {
  document.getElementById("login").hidden = true;
  document.getElementById("alerts-panel").hidden = false;
  roundPanel.hidden = false;
  document.getElementById("desk").hidden = false;
  connect();
}

document.getElementById("login").onsubmit = (e) => {
  e.preventDefault();
  token = e.target.token.value;
  sessionStorage.setItem("token", token);
  try { audio = new AudioContext(); } catch (err) { audio = null; } // made on a click: browsers allow it then
  signIn();
};
if (token) signIn();
