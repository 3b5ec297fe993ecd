// The live page: every board from the relay's websocket feed, clocks ticking in between.
"use strict";
const boards = new Map();
const PIECES = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

function fmt(ms) {
  if (ms == null) return "–";
  ms = Math.max(0, ms);
  if (ms < 20000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = s % 60;
  const pad = (x) => String(x).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(ss)}` : `${m}:${pad(ss)}`;
}

function boardSvg(fen, last, flipped) {
  const rows = (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/");
  let out = '<svg class="board" viewBox="0 0 8 8" role="img" aria-label="board">';
  for (let r = 0; r < 8; r++) {
    let f = 0;
    for (const ch of rows[r]) {
      if (/\d/.test(ch)) { for (let k = 0; k < +ch; k++) out += square(r, f++, null, last, flipped); }
      else out += square(r, f++, ch, last, flipped);
    }
  }
  return out + "</svg>";
}

function square(r, f, piece, last, flipped) {
  const name = "abcdefgh"[f] + (8 - r);
  const x = flipped ? 7 - f : f, y = flipped ? 7 - r : r;
  const hi = last && (last[0] === name || last[1] === name);
  const fill = hi ? "var(--hi)" : (r + f) % 2 ? "var(--dark)" : "var(--light)";
  let s = `<rect x="${x}" y="${y}" width="1" height="1" style="fill:${fill}" data-square="${name}"/>`;
  if (piece) s += `<text x="${x + 0.5}" y="${y + 0.82}" font-size="0.85" text-anchor="middle" data-piece="${piece}">${PIECES[piece]}</text>`;
  return s;
}

function chart(used) {
  // Time used per move (s): White's line and Black's line.
  const w = [], b = [];
  (used || []).forEach((u, i) => (i % 2 ? b : w).push(u == null ? 0 : u / 1000));
  const max = Math.max(1, ...w, ...b), n = Math.max(w.length, b.length, 2);
  const line = (v) => v.map((y, i) => `${(i / (n - 1)) * 100},${80 - (y / max) * 76}`).join(" ");
  return `<svg class="chart" viewBox="0 0 100 80" preserveAspectRatio="none" aria-label="time per move">
    <polyline points="${line(w)}" fill="none" stroke="#555" stroke-width="1.2" vector-effect="non-scaling-stroke"/>
    <polyline points="${line(b)}" fill="none" stroke="#111" stroke-dasharray="3 2" stroke-width="1.2" vector-effect="non-scaling-stroke"/>
  </svg>`;
}

function moves(sans) {
  return (sans || []).map((s, i) => (i % 2 ? "" : `<b>${i / 2 + 1}.</b> `) + `<span>${esc(s)}</span>`).join(" ");
}

function render(b) {
  let card = document.getElementById("board-" + b.number);
  if (!card) {
    card = document.createElement("section");
    card.className = "card";
    card.id = "board-" + b.number;
    document.getElementById("boards").append(card);
  }
  b.receivedAt = performance.now();
  boards.set(b.number, b);
  const over = b.result && b.result !== "*";
  const c = Object.assign({}, b.clock || {}, over ? { running: null } : {});
  card.innerHTML = `
    <h2><span>Board ${b.number}</span><span class="result" data-result>${b.result && b.result !== "*" ? esc(b.result + " " + (b.termination || "").replace(/_/g, " ")) : ""}</span></h2>
    <div class="player black ${c.running === "b" ? "running" : ""}"><span>${esc(b.black || "Black")}</span><span class="time" data-clock="black">${fmt(c.black)}</span></div>
    ${boardSvg(b.fen, b.last, b.flipped)}
    <div class="player white ${c.running === "w" ? "running" : ""}"><span>${esc(b.white || "White")}</span><span class="time" data-clock="white">${fmt(c.white)}</span></div>
    <div class="moves" data-moves>${moves(b.san)}</div>
    ${chart(b.used)}
    <div class="command">${b.command ? "arbiter: " + esc(b.command) : ""}</div>
    <div class="problem">${esc(b.problem || (b.status && b.status.startsWith("differs") ? "board differs: " + b.status : ""))}${b.state !== "ACTIVE" ? " (" + esc(String(b.state).toLowerCase()) + ")" : ""}</div>`;
}

// Text from boards and the round (names, problems) goes into the page as text, never markup.
function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function tick() {
  const now = performance.now();
  for (const b of boards.values()) {
    const c = b.clock || {};
    if (!c.running || (b.result && b.result !== "*")) continue;
    const side = c.running === "w" ? "white" : "black";
    const el = document.querySelector(`#board-${b.number} [data-clock=${side}]`);
    if (el) el.textContent = fmt(c[side] - (c.age_ms || 0) - (now - b.receivedAt));
  }
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { document.getElementById("link").textContent = "live"; };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") {
      if (msg.round) {
        roundInfo = msg.round;
        const ev = msg.round.event && msg.round.event !== "?" ? msg.round.event : "Live boards";
        document.getElementById("event").textContent = `${ev} — round ${msg.round.round}`;
      }
      msg.boards.forEach(render);
    } else if (msg.type === "board") render(msg.board);
    else if (msg.type === "round") {
      roundInfo = msg.round;
      document.getElementById("event").textContent = `${msg.round.event} — round ${msg.round.round}`;
    }
    else if (msg.type === "clock" && boards.has(msg.number)) {
      const b = boards.get(msg.number);
      b.clock = msg.clock;
      render(b);
    }
  };
  ws.onclose = () => { document.getElementById("link").textContent = "reconnecting…"; setTimeout(connect, 1000); };
}

// Round and players, set from the page: the relay's token is asked for (POST /api/round).
let roundInfo = {};
const form = document.getElementById("settings");
document.getElementById("settings-open").onclick = () => {
  form.hidden = !form.hidden;
  form.event.value = roundInfo.event && roundInfo.event !== "?" ? roundInfo.event : "";
  form.round.value = roundInfo.round || "1";
  document.getElementById("players").innerHTML = [...boards.values()].map((b) =>
    `<label>Board ${b.number} <input name="w${b.number}" value="${esc(b.white || "")}" placeholder="White">
     <input name="b${b.number}" value="${esc(b.black || "")}" placeholder="Black"></label>`).join("");
};
form.onsubmit = async (e) => {
  e.preventDefault();
  const body = { event: form.event.value || "?", round: form.round.value || "1", boards: {} };
  for (const b of boards.values()) {
    body.boards[b.number] = { white: form["w" + b.number].value, black: form["b" + b.number].value, serial: b.serial };
  }
  const r = await fetch("/api/round", { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Authorization: "Bearer " + form.token.value } });
  document.getElementById("settings-said").textContent = r.ok ? "saved" : "not saved: " + (await r.text());
};

connect();
setInterval(tick, 100);
