// What the spectators' page (app.js) and the arbiter's page (arbiter.js) both need.
"use strict";

// A clock's time as a DGT 3000 shows it: h:mm:ss, m:ss, and tenths under 20 seconds.
function fmt(ms) {
  if (ms == null) return "–";
  ms = Math.max(0, ms);
  if (ms < 20000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = s % 60;
  const pad = (x) => String(x).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(ss)}` : `${m}:${pad(ss)}`;
}

// A control's starting time in ms (its first period: "40/5400+30:1800+30" -> 5400 s).
function startMs(tc) {
  const m = /^(?:\d+\/)?\*?(\d+)/.exec(tc || "");
  return m ? +m[1] * 1000 : 0;
}

// Text for HTML: a name or an alert can never become markup.
function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// A board's message from the relay carries its plies only from `from` on (what changed;
// publish.py): the whole board made from the one this page has, or null when the page
// lacks the plies before (it asks for the whole state: askState).
function withEarlier(old, b) {
  if (!b.from) return b;
  if (!old || old.game !== b.game || !old.uci || old.uci.length < b.from) return null;
  const whole = Object.assign({}, b, {
    uci: old.uci.slice(0, b.from).concat(b.uci),
    san: old.san.slice(0, b.from).concat(b.san),
    clk: old.clk.slice(0, b.from).concat(b.clk),
  });
  delete whole.from;
  return whole;
}

// The whole state, asked once until it comes (stateCame).
let stateAsked = false;
function askState(ws) {
  if (stateAsked || ws.readyState !== WebSocket.OPEN) return;
  stateAsked = true;
  ws.send(JSON.stringify({ state: true }));
}
function stateCame() { stateAsked = false; }
