// The live page: every board from the relay's websocket feed (/ws), clocks ticking between
// its messages. /board/<n> shows one board large. Any earlier position is drawn here from
// the game's start and its moves; the engine's evaluation (when the relay runs one) is for
// spectators only.
"use strict";
const boards = new Map(); // number -> the relay's board (views.py board_json)
const views = new Map(); // number -> what this spectator looks at: {ply: null (live) or n, flip}
const single = +((location.pathname.match(/^\/board\/(\d+)$/) || [])[1] || 0) || null;
const PIECES = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
const FILES = "abcdefgh";
const prefs = {
  engine: localStorage.getItem("engine") !== "off",
  contrast: localStorage.getItem("contrast") === "high",
};
let greeted = false; // the first state is shown, not announced

// ----- positions: a FEN's board as 64 squares (a1 = 0, h8 = 63), moves applied to it

function squaresOf(fen) {
  const sq = new Array(64).fill("");
  const rows = (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/");
  rows.forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += +ch;
      else sq[(7 - i) * 8 + f++] = ch;
    }
  });
  return sq;
}

function applyUci(sq, uci) {
  const f = FILES.indexOf(uci[0]), r = +uci[1] - 1, tf = FILES.indexOf(uci[2]), tr = +uci[3] - 1;
  const from = r * 8 + f, to = tr * 8 + tf, p = sq[from];
  if (!p) return;
  const white = p === p.toUpperCase();
  const own = (x) => x && (x === x.toUpperCase()) === white;
  if (p.toLowerCase() === "k" && ((own(sq[to]) && sq[to].toLowerCase() === "r") || Math.abs(tf - f) === 2)) {
    // Castling: the king onto his own rook (Chess960's notation) or two files across.
    const rookFrom = own(sq[to]) ? to : r * 8 + (tf > f ? 7 : 0);
    const kingside = rookFrom % 8 > f, rook = sq[rookFrom];
    sq[from] = ""; sq[rookFrom] = "";
    sq[r * 8 + (kingside ? 6 : 2)] = p; sq[r * 8 + (kingside ? 5 : 3)] = rook;
    return;
  }
  if (p.toLowerCase() === "p" && f !== tf && !sq[to]) sq[r * 8 + tf] = ""; // en passant
  sq[from] = "";
  sq[to] = uci.length > 4 ? (white ? uci[4].toUpperCase() : uci[4].toLowerCase()) : p;
}

function whiteStarts(b) { return (b.start || "").split(" ")[1] !== "b"; }

// What the spectator sees of board b: the squares, the move that led there, the king in check.
function shown(b) {
  const v = view(b.number), n = (b.san || []).length;
  if (v.ply == null || v.ply >= n) {
    return { sq: squaresOf(b.fen), ply: n, last: b.last, check: b.check, live: true };
  }
  const sq = squaresOf(b.start);
  for (let i = 0; i < v.ply; i++) applyUci(sq, b.uci[i]);
  const u = v.ply ? b.uci[v.ply - 1] : null;
  let check = null;
  if (v.ply && /[+#]$/.test(b.san[v.ply - 1])) {
    const whiteToMove = whiteStarts(b) === (v.ply % 2 === 0);
    const k = sq.indexOf(whiteToMove ? "K" : "k");
    if (k >= 0) check = FILES[k % 8] + (Math.floor(k / 8) + 1);
  }
  return { sq, ply: v.ply, last: u ? [u.slice(0, 2), u.slice(2, 4)] : null, check, live: false };
}

function view(n) {
  if (!views.has(n)) views.set(n, { ply: null, flip: false });
  return views.get(n);
}

// ----- drawing

// The board: its squares and coordinates (made again only when it is flipped), the
// highlights as classes on the squares, and the pieces as a layer of their own.
function squaresSvg(flipped) {
  let out = "";
  for (let i = 0; i < 64; i++) {
    const f = i % 8, r = Math.floor(i / 8), name = FILES[f] + (r + 1);
    const x = flipped ? 7 - f : f, y = flipped ? r : 7 - r;
    const dark = (f + r) % 2 === 0;
    out += `<rect x="${x}" y="${y}" width="1" height="1" class="${dark ? "dark" : "light"}" data-square="${name}"/>`;
    if (y === 7) out += `<text class="coord ${dark ? "on-dark" : "on-light"}" x="${x + 0.96}" y="${y + 0.95}" text-anchor="end">${FILES[f]}</text>`;
    if (x === 0) out += `<text class="coord ${dark ? "on-dark" : "on-light"}" x="0.05" y="${y + 0.25}">${r + 1}</text>`;
  }
  return out;
}

function piecesSvg(sq, flipped) {
  let out = "";
  sq.forEach((p, i) => {
    if (!p) return;
    const f = i % 8, r = Math.floor(i / 8);
    const x = flipped ? 7 - f : f, y = flipped ? r : 7 - r;
    out += `<text x="${x + 0.5}" y="${y + 0.82}" font-size="0.85" text-anchor="middle" class="piece" data-piece="${p}" data-on="${FILES[f]}${r + 1}">${PIECES[p]}</text>`;
  });
  return out;
}

function drawBoard(svg, s, flipped, label) {
  if (svg._flipped !== flipped) {
    svg.querySelector(".squares").innerHTML = squaresSvg(flipped);
    svg._flipped = flipped;
    svg._rects = [...svg.querySelectorAll("rect")];
    svg.querySelector(".pieces")._html = null;
  }
  svg._rects.forEach((rect, i) => {
    const name = FILES[i % 8] + (Math.floor(i / 8) + 1);
    let cls = (i % 8 + Math.floor(i / 8)) % 2 === 0 ? "dark" : "light";
    if (s.last && (s.last[0] === name || s.last[1] === name)) cls += " last";
    if (s.check === name) cls += " check";
    if (rect.getAttribute("class") !== cls) rect.setAttribute("class", cls);
  });
  setHTML(svg.querySelector(".pieces"), piecesSvg(s.sq, flipped));
  if (svg.getAttribute("aria-label") !== label) svg.setAttribute("aria-label", label);
}

// The position in words, for a screen reader: "White: king g1, rook f1, ... Black: ...".
function describe(sq) {
  const side = (white) => {
    const list = [];
    for (const t of "kqrbnp") {
      sq.forEach((p, i) => {
        if (p && p.toLowerCase() === t && (p === p.toUpperCase()) === white) list.push(`${NAMES[t]} ${FILES[i % 8]}${Math.floor(i / 8) + 1}`);
      });
    }
    return list.join(", ") || "nothing";
  };
  return `White: ${side(true)}. Black: ${side(false)}.`;
}

function moveLabel(b, i) {
  // "12." for White's move i (0-based), "12..." for Black's.
  const startMove = +((b.start || "").split(" ")[5] || 1), wf = whiteStarts(b);
  const k = i + (wf ? 0 : 1);
  return `${startMove + Math.floor(k / 2)}${k % 2 ? "..." : "."}`;
}

function moveHtml(b, i) {
  const whiteMove = (i % 2 === 0) === whiteStarts(b);
  return (whiteMove || i === 0 ? `<span class="num">${moveLabel(b, i)}</span> ` : "") +
    `<button type="button" class="move" data-ply="${i + 1}">${esc(b.san[i])}</button> `;
}

// The move list: new moves appended (a take-back or a new game draws it again), the move
// on the board marked.
function drawMoves(el, b, ply) {
  const sans = b.san || [], had = el._sans || [];
  const key = b.game + " " + b.start;
  if (el._key !== key || had.length > sans.length || had.some((x, i) => x !== sans[i])) {
    el.innerHTML = sans.map((_, i) => moveHtml(b, i)).join("");
  } else if (sans.length > had.length) {
    let add = "";
    for (let i = had.length; i < sans.length; i++) add += moveHtml(b, i);
    el.insertAdjacentHTML("beforeend", add);
  }
  el._key = key;
  el._sans = sans.slice();
  const old = el.querySelector(".current");
  const cur = ply ? el.querySelector(`[data-ply="${ply}"]`) : null;
  if (old !== cur) {
    if (old) { old.classList.remove("current"); old.removeAttribute("aria-current"); }
    if (cur) { cur.classList.add("current"); cur.setAttribute("aria-current", "step"); }
  }
}

function playerHtml(b, color, clock) {
  const p = (b.players || {})[color] || {};
  const name = b[color] || (color === "white" ? "White" : "Black");
  return `<div class="player ${color}${playerClasses(color, clock)}">
    <span class="who">${p.title ? `<abbr class="title">${esc(p.title)}</abbr> ` : ""}<span class="name">${esc(name)}</span>${p.rating ? ` <span class="rating">${esc(p.rating)}</span>` : ""}${p.fed ? ` ${fedHtml(p.fed)}` : ""}</span>
    <span class="flag" title="flag fallen">${flagText(color, clock)}</span><span class="time" data-clock="${color}" aria-label="${color}'s clock">${fmt(clock[color])}</span></div>`;
}

function playerClasses(color, clock) {
  const i = color === "white" ? 0 : 1, flags = clock.flags || [0, 0];
  const running = clock.state === "running" && clock.running === color[0];
  return (running ? " running" : "") + (flags[i] ? " flagged" : "");
}

function flagText(color, clock) {
  const i = color === "white" ? 0 : 1, flags = clock.flags || [0, 0];
  if (!flags[i]) return "";
  return "⚑ flag" + (flags[1 - i] ? (flags[i] === 1 ? " first" : " second") : "");
}

// Each player's clock after each of his moves, against the move number: every change of
// time (increments, a new period, a penalty) shows as it was.
function chart(b) {
  const clk = b.clk || [];
  if (!clk.some((x) => x != null)) return "";
  const wf = whiteStarts(b), startMove = +((b.start || "").split(" ")[5] || 1);
  const pts = { w: [], b: [] };
  clk.forEach((ms, i) => {
    if (ms == null) return;
    const k = i + (wf ? 0 : 1);
    pts[k % 2 ? "b" : "w"].push([startMove + Math.floor(k / 2) + (k % 2 ? 0.5 : 0), Math.max(0, ms) / 60000]);
  });
  const all = pts.w.concat(pts.b);
  const x0 = startMove, x1 = Math.max(x0 + 1, ...all.map((p) => p[0]));
  const ymax = Math.max(1, ...all.map((p) => p[1]));
  const W = 300, H = 136, L = 34, R = 6, T = 14, B = 22;
  const X = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R), Y = (y) => T + (1 - y / ymax) * (H - T - B);
  const line = (ps) => ps.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(" ");
  const dots = (ps, side) => ps.map(([x, y]) => `<circle class="dot-${side}" cx="${X(x).toFixed(1)}" cy="${Y(y).toFixed(1)}" r="2"/>`).join("");
  const step = niceStep(ymax);
  let grid = "";
  for (let y = 0; y <= ymax + 1e-9; y += step) {
    grid += `<line class="grid" x1="${L}" x2="${W - R}" y1="${Y(y)}" y2="${Y(y)}"/><text class="tick" x="${L - 3}" y="${Y(y) + 3}" text-anchor="end">${+y.toFixed(2)}</text>`;
  }
  const xs = [...new Set([x0, Math.round((x0 + x1) / 2), Math.floor(x1)])];
  for (const x of xs) grid += `<text class="tick" x="${X(x)}" y="${H - B + 12}" text-anchor="middle">${x}</text>`;
  const names = [esc(b.white || "White"), esc(b.black || "Black")];
  return `<figure class="chart-box"><svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Clock after each move, in minutes">
    ${grid}
    <line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>
    <text class="unit" x="2" y="${T - 4}">min</text>
    <text class="unit" x="${W - R}" y="${H - 1}" text-anchor="end">move</text>
    <polyline class="line-white" data-side="white" points="${line(pts.w)}"/>
    <polyline class="line-black" data-side="black" points="${line(pts.b)}"/>${all.length <= 60 ? dots(pts.w, "white") + dots(pts.b, "black") : ""}
  </svg><figcaption class="legend"><span class="key-white">${names[0]}</span> <span class="key-black">${names[1]}</span> — clock after each move (minutes)</figcaption></figure>`;
}

function niceStep(max) {
  for (const s of [0.5, 1, 2, 5, 10, 15, 30, 60]) if (max / s <= 5) return s;
  return 120;
}

// The evaluation bar's white share: 50% level, towards 100% as White's advantage grows.
function whiteShare(a) {
  if (a.mate != null) return a.mate > 0 ? 100 : 0;
  return 50 + 50 * (2 / (1 + Math.exp(-0.004 * a.cp)) - 1);
}

function evalText(a) {
  if (a.mate != null) return `#${a.mate}`;
  return (a.cp > 0 ? "+" : "") + (a.cp / 100).toFixed(1);
}

function pvText(a) {
  const parts = a.fen.split(" ");
  let n = +parts[5] || 1, white = parts[1] === "w";
  return a.pv.map((s, i) => {
    const t = (white ? `${n}. ` : i === 0 ? `${n}... ` : "") + s;
    if (!white) n++;
    white = !white;
    return esc(t);
  }).join(" ");
}

function analysisHtml(b, s) {
  const a = b.analysis;
  if (!prefs.engine || !s.live) return { bar: "", line: "" };
  // A new position before its evaluation: the bar keeps its place, empty (the board must
  // not move sideways at every move).
  if (!a || a.fen !== b.fen) return { bar: '<div class="evalbar pending" aria-hidden="true"></div>', line: "" };
  const share = whiteShare(a).toFixed(1);
  return {
    bar: `<div class="evalbar" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${share}" aria-label="evaluation ${evalText(a)}" data-eval="${evalText(a)}"><div class="white-share" style="height:${share}%"></div><span>${evalText(a)}</span></div>`,
    line: `<p class="pv"><b>${evalText(a)}</b> ${a.depth ? `<small>depth ${a.depth}</small> ` : ""}${pvText(a)}</p>`,
  };
}

// The board's earlier games of the round, each with its PGN.
function earlierGames(b) {
  const older = (b.games || []).filter((g) => g !== b.game);
  if (!older.length) return "";
  return " earlier: " + older.map((g) => `<a href="/boards/${b.number}/games/${g}.pgn" download="board-${b.number}-game-${g}.pgn" data-game="${g}">game ${g}</a>`).join(" ");
}

function badges(b, clock) {
  const out = [];
  const over = b.result && b.result !== "*";
  if (over) out.push(`<span class="badge result" data-result>${esc(b.result)} ${esc((b.termination || "").replace(/_/g, " "))}</span>`);
  else if (clock.state === "paused") out.push('<span class="badge paused" data-paused>paused</span>');
  else if (clock.state === "not started" && b.state !== "WAITING") out.push('<span class="badge idle" data-idle>not started</span>');
  const flags = clock.flags || [0, 0];
  if (!over && (flags[0] || flags[1])) out.push(`<span class="badge flag" data-flag>⚑ ${flags[0] === 1 || (flags[0] && !flags[1]) ? "White" : "Black"}'s flag fell${flags[0] && flags[1] ? " first" : ""}</span>`);
  // What is wrong with a board is the arbiter's (his page); spectators learn only that a
  // game in progress is not coming through (a finished game's unplugged board is no news).
  if (b.state === "WAITING") out.push('<span class="badge waiting" data-waiting>board not connected yet</span>');
  else if (!over && b.state !== "ACTIVE") out.push('<span class="badge offline" data-offline>board offline: moves may come late</span>');
  return out.join(" ");
}

function render(b) {
  if (single && b.number !== single) return;
  let card = document.getElementById("board-" + b.number);
  if (!card) card = makeCard(b.number);
  const hidden = !passes(b);
  if (card.hidden !== hidden) card.hidden = hidden;
  const before = boards.get(b.number);
  b.receivedAt = performance.now();
  if (!b.clock) b.clock = {};
  boards.set(b.number, b);
  if (!before) { layout(); jumpList(); }
  if (before && b.result !== before.result) resultCame();
  announce(before, b);
  const v = view(b.number);
  const c = clockShown(b);
  const s = shown(b);
  const flipped = !!b.flipped !== v.flip;
  const n = (b.san || []).length;
  const label = `Board ${b.number}, ${s.ply ? "after " + moveLabel(b, s.ply - 1) + " " + b.san[s.ply - 1] : "the start"}${s.live ? "" : " (earlier position)"}. ${describe(s.sq)}`;
  const an = analysisHtml(b, s);
  const part = (name) => card.querySelector(`[data-part=${name}]`);
  card.classList.toggle("history", !s.live);
  setHTML(part("badges"), badges(b, c));
  setHTML(part("games"), earlierGames(b));
  setHTML(part("top"), playerHtml(b, flipped ? "white" : "black", c));
  setHTML(part("bottom"), playerHtml(b, flipped ? "black" : "white", c));
  setHTML(part("evalbar"), an.bar);
  drawBoard(card.querySelector("svg.board"), s, flipped, label);
  card.dataset.moves = n;  // the moves this card has shown (bench/page_scale.py reads it)
  // In the compact grid the moves, the line and the chart are not shown: not made either
  // (a hall's page would draw a chart and a move list two hundred times a move).
  if (document.body.classList.contains("compact")) return;
  setHTML(part("where"), s.live ? "live" : `move ${s.ply} of ${n} — <b>End</b> for live`);
  const mv = part("moves");
  drawMoves(mv, b, s.live ? null : s.ply);
  setHTML(part("pv"), an.line);
  setHTML(part("chart"), chart(b));
  if (s.live) scrollToEnd(b.number);
  else { const cur = mv.querySelector(".current"); if (cur) cur.scrollIntoView({ block: "nearest" }); }
}

// A live move list shows its newest move: scrolled once a frame, on the cards in sight only
// (reading a list's height makes the browser lay the page out; a hall of boards would do it
// a hundred times a second).
const inSight = new Set(), toScroll = new Set();
const sight = new IntersectionObserver((entries) => {
  for (const e of entries) {
    const n = +e.target.id.slice(6);
    if (e.isIntersecting) { inSight.add(n); scrollToEnd(n); } else inSight.delete(n);
  }
});
let scrollDue = false;

function scrollToEnd(n) {
  toScroll.add(n);
  if (scrollDue) return;
  scrollDue = true;
  requestAnimationFrame(() => {
    scrollDue = false;
    for (const k of toScroll) {
      const v = views.get(k);
      if (!inSight.has(k) || (v && v.ply != null)) continue;
      const el = document.querySelector(`#board-${k} [data-moves]`);
      if (el) el.scrollTop = 1e9;
    }
    toScroll.clear();
  });
}

// A board's card, made once: its parts are drawn again only where they change.
function makeCard(number) {
  const card = document.createElement("section");
  card.className = "card";
  card.id = "board-" + number;
  card.tabIndex = 0;
  card.setAttribute("aria-labelledby", `title-${number}`);
  card.innerHTML = `
    <h2 id="title-${number}"><a href="/board/${number}" class="open">Board ${number}</a>
      <span class="badges" data-part="badges"></span>
      <span class="tools"><button type="button" data-flip aria-label="flip board ${number}" title="flip (f)">⇅</button>
      <a href="/boards/${number}.pgn" download="board-${number}.pgn" class="pgn">PGN</a><span data-part="games"></span></span></h2>
    <div class="body">
      <div class="side">
        <div data-part="top"></div>
        <div class="boardrow"><div data-part="evalbar" class="evalslot"></div><svg class="board" viewBox="0 0 8 8" role="img"><g class="squares"></g><g class="pieces"></g></svg></div>
        <div data-part="bottom"></div>
      </div>
      <div class="info">
        <div class="nav" role="group" aria-label="moves of board ${number}">
          <button type="button" data-go="start" aria-label="start">«</button><button type="button" data-go="back" aria-label="back">‹</button><button type="button" data-go="forward" aria-label="forward">›</button><button type="button" data-go="live" aria-label="live position">»</button>
          <span class="where" data-where data-part="where"></span>
        </div>
        <div class="moves" data-moves data-part="moves" aria-label="moves"></div>
        <div data-part="pv"></div>
        <div data-part="chart"></div>
      </div>
    </div>`;
  const main = document.getElementById("boards");
  const after = [...main.children].find((c) => +c.id.slice(6) > number);
  main.insertBefore(card, after || null);
  sight.observe(card);
  return card;
}

function setHTML(el, html) {
  if (el && el._html !== html) { el.innerHTML = html; el._html = html; }
}

// The clock as the page shows it: stopped once the game has its result.
// The clocks as the page shows them: live, the board's; at an earlier position, each
// player's time after his last move up to there (the start's for one who had not moved:
// the control's first period), standing still.
function clockShown(b) {
  const over = b.result && b.result !== "*";
  const v = views.get(b.number), n = (b.san || []).length;
  if (v && v.ply != null && v.ply < n) {
    const t = { white: startMs(b.tc), black: startMs(b.tc) };
    const whiteFirst = whiteStarts(b);
    for (let i = 0; i < v.ply; i++) {
      const ms = (b.clk || [])[i];
      if (ms != null) t[(i % 2 === 0) === whiteFirst ? "white" : "black"] = ms;
    }
    return Object.assign({}, b.clock, t, { running: null, state: "stopped", flags: [0, 0] });
  }
  if (!over && !n && b.state !== "WAITING" && (!b.clock || !b.clock.state || b.clock.state === "stopped")) {
    // An idle board (no move, no running clock): not started, its control's time if known
    // (never 0.0 - which reads as two fallen flags).
    const ms = startMs(b.tc) || null;
    return Object.assign({}, b.clock, { white: ms, black: ms, running: null, state: "not started", flags: [0, 0] });
  }
  if (b.clock && b.clock.age_ms == null && b.clock.state === "stopped") {
    // The board never said its clock (a game played without one): no time to show, not 0.0.
    return Object.assign({}, b.clock, { white: null, black: null, running: null });
  }
  return Object.assign({}, b.clock, over ? { running: null, state: "stopped" } : {});
}

// A clock line: only the clocks and the badges change.
function renderClock(b) {
  const card = document.getElementById("board-" + b.number);
  if (!card) return;
  const c = clockShown(b);
  for (const color of ["white", "black"]) {
    const el = card.querySelector(`.player.${color}`);
    if (!el) continue;
    const cls = `player ${color}${playerClasses(color, c)}`;
    if (el.className !== cls) el.className = cls;
    setText(el.querySelector(".flag"), flagText(color, c));
    setText(el.querySelector(".time"), fmt(c[color]));
  }
  setHTML(card.querySelector("[data-part=badges]"), badges(b, c));
}

// Text changed only where it changes: a hall of boards redraws nothing that stayed the same.
function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

// ----- what a screen reader hears: each new move and each result, once

function announce(before, b) {
  if (!greeted || !before) return;
  const sans = b.san || [], old = (before.san || []).length;
  const said = [];
  const who = b.white && b.black ? ` (${b.white} – ${b.black})` : "";
  if (sans.length > old && before.game === b.game) {
    for (let i = old; i < sans.length; i++) said.push(`${moveLabel(b, i)} ${sans[i]}`);
  }
  if (b.result && b.result !== "*" && b.result !== before.result) said.push(`result ${b.result}, ${(b.termination || "").replace(/_/g, " ")}`);
  if (said.length) {
    const p = document.createElement("p");
    p.textContent = `Board ${b.number}${who}: ${said.join(", ")}`;
    const box = document.getElementById("announce");
    box.append(p);
    while (box.childElementCount > 20) box.firstElementChild.remove();
  }
}

// Text from boards and the round (names, problems) goes into the page as text, never markup.

// ----- moving through a game

function go(number, where) {
  const b = boards.get(number);
  if (!b) return;
  const v = view(number), n = (b.san || []).length;
  const at = v.ply == null ? n : v.ply;
  if (where === "start") v.ply = 0;
  else if (where === "back") v.ply = Math.max(0, at - 1);
  else if (where === "forward") v.ply = at + 1 >= n ? null : at + 1;
  else if (where === "live") v.ply = null;
  else if (typeof where === "number") v.ply = where >= n ? null : where;
  else if (where === "flip") v.flip = !v.flip;
  render(b);
}

function cardOf(el) {
  const card = el && el.closest && el.closest(".card");
  return card ? +card.id.slice(6) : single;
}

document.addEventListener("click", (e) => {
  const t = e.target.closest("button");
  if (!t) return;
  const n = cardOf(t);
  if (n == null) return;
  if (t.dataset.ply) go(n, +t.dataset.ply);
  else if (t.dataset.go) go(n, t.dataset.go);
  else if (t.hasAttribute("data-flip")) go(n, "flip");
});

document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
  const n = cardOf(e.target);
  if (n == null) return;
  const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "live", f: "flip" };
  const where = keys[e.key];
  if (!where) return;
  e.preventDefault();
  const focusCard = e.target.classList && e.target.classList.contains("card");
  go(n, where);
  if (focusCard || !document.activeElement || document.activeElement === document.body) {
    const card = document.getElementById("board-" + n);
    if (card) card.focus();
  }
});

// ----- the page's switches

function applyPrefs() {
  document.documentElement.classList.toggle("contrast", prefs.contrast);
  document.getElementById("engine-toggle").checked = prefs.engine;
  document.getElementById("contrast-toggle").checked = prefs.contrast;
}

document.getElementById("engine-toggle").onchange = (e) => {
  prefs.engine = e.target.checked;
  localStorage.setItem("engine", prefs.engine ? "on" : "off");
  boards.forEach(render);
};
document.getElementById("contrast-toggle").onchange = (e) => {
  prefs.contrast = e.target.checked;
  localStorage.setItem("contrast", prefs.contrast ? "high" : "normal");
  applyPrefs();
};

function showRound(r) {
  const ev = r.event && r.event !== "?" ? r.event : "Live boards";
  const text = `${ev} — round ${r.round}`;
  document.getElementById("event").textContent = single ? `Board ${single} · ${text}` : text;
  document.title = single ? `Board ${single} · ${ev}` : ev;
}

// ----- the feed

function tick() {
  const now = performance.now();
  for (const b of boards.values()) {
    const c = b.clock || {};
    if (!c.running || c.state !== "running" || (b.result && b.result !== "*")) continue;
    const v = views.get(b.number);
    if (v && v.ply != null && v.ply < (b.san || []).length) continue;  // an earlier position: its clocks stand
    const side = c.running === "w" ? "white" : "black";
    setText(document.querySelector(`#board-${b.number} [data-clock=${side}]`),
      fmt(c[side] - (c.age_ms || 0) - (now - b.receivedAt)));
  }
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { lostAt = null; document.getElementById("link").textContent = delayS ? `delayed ${delayS} s` : "live"; };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") {
      // What this spectator sees, said: the broadcast's delay, and whether the relay runs
      // an evaluation at all (off with a delay: it would tell the moves early).
      delayS = msg.delay_s || 0;
      document.getElementById("link").textContent = delayS ? `delayed ${delayS} s` : "live";
      document.getElementById("link").title = delayS ? `the moves, clocks and results are shown ${delayS} s after they happen (fair play)` : "";
      evaluationOff = msg.evaluation === false;
      showEvaluation();
      if (msg.round) showRound(msg.round);
      stateCame();
      msg.boards.forEach(render);
      greeted = true;
    } else if (msg.type === "board") {
      if (single && msg.board.number !== single) return;
      const b = withEarlier(boards.get(msg.board.number), msg.board);
      if (b) render(b); else askState(ws);
    }
    else if (msg.type === "round") showRound(msg.round);
    else if (msg.type === "removed") { // the arbiter gave the board another number
      boards.delete(msg.number);
      views.delete(msg.number);
      const card = document.getElementById("board-" + msg.number);
      if (card) card.remove();
      layout();
    }
    else if (msg.type === "clock" && boards.has(msg.number)) {
      const b = boards.get(msg.number);
      b.clock = msg.clock;
      b.receivedAt = performance.now();
      renderClock(b);
    } else if (msg.type === "analysis" && boards.has(msg.number)) {
      const b = boards.get(msg.number);
      b.analysis = msg.analysis;
      if (prefs.engine) render(b);
    }
  };
  ws.onclose = () => {
    // The relay gone (its round over, a restart): the games stay as it last sent them, and
    // the page says since when, rather than "reconnecting" for ever.
    if (lostAt === null) lostAt = Date.now();
    const long = Date.now() - lostAt > 10000;
    document.getElementById("link").textContent = long
      ? `the relay has not answered since ${new Date(lostAt).toLocaleTimeString()}: the games are as it last sent them`
      : "reconnecting…";
    setTimeout(connect, long ? 5000 : 1000);
  };
}
let lostAt = null;
let delayS = 0, evaluationOff = false;

function showEvaluation() {
  const box = document.getElementById("engine-toggle");
  box.disabled = evaluationOff;
  box.checked = prefs.engine && !evaluationOff;
  box.parentElement.title = evaluationOff ? "the relay runs no evaluation for this broadcast" : "";
  box.parentElement.lastChild.textContent = evaluationOff ? " Evaluation (off)" : " Evaluation";
}

// ----- a hall of boards: the compact grid (more than LARGE boards: a dozen on a laptop's
// screen, names, titles, ratings, federations, both clocks and the result; the moves, the
// chart and the navigation are on each board's own page), and what a spectator narrows it to.
const LARGE = 4;
const filters = { liveOnly: false, from: 1, to: Infinity };

function layout() {
  const was = document.body.classList.contains("compact");
  document.body.classList.toggle("compact", !single && boards.size > LARGE);
  if (was && !document.body.classList.contains("compact")) setTimeout(() => boards.forEach(render));  // the cards' moves and charts, now shown
}

function passes(b) {
  if (filters.liveOnly && ((b.result && b.result !== "*") || b.state === "WAITING")) return false;
  return b.number >= filters.from && b.number <= filters.to;
}

function applyFilters() {
  for (const b of boards.values()) {
    const card = document.getElementById("board-" + b.number);
    if (card) card.hidden = !passes(b);
  }
}

function jumpList() {
  const sel = document.getElementById("jump");
  const want = [...boards.keys()].sort((a, b) => a - b).join(",");
  if (sel.dataset.built === want) return;
  sel.dataset.built = want;
  sel.innerHTML = '<option value="">board…</option>' + want.split(",").filter(Boolean)
    .map((n) => `<option value="${n}">${n}</option>`).join("");
}

document.getElementById("live-only").onchange = (e) => { filters.liveOnly = e.target.checked; applyFilters(); };
document.getElementById("range").oninput = (e) => {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(e.target.value);
  filters.from = m ? +m[1] : 1;
  filters.to = m ? (m[2] ? +m[2] : +m[1]) : Infinity;
  document.getElementById("range-said").textContent = m ? `boards ${filters.from} to ${filters.to}` : "all boards";
  applyFilters();
};
document.getElementById("jump").onchange = (e) => {
  const card = document.getElementById("board-" + e.target.value);
  if (card) { card.hidden = false; card.scrollIntoView({ block: "start" }); card.focus(); }
};

// ----- the event: its earlier rounds (their pairings and results, a choice away) and the
// standings (the earlier rounds and this one's finished games; kept up to date while open)

let earlierRounds = [];
let currentRound = null;

function whoHtml(name, p) {
  p = p || {};
  return `${p.title ? `<abbr class="title">${esc(p.title)}</abbr> ` : ""}<span class="name">${esc(name)}</span>` +
    `${p.rating ? ` <span class="rating">${esc(p.rating)}</span>` : ""}${p.fed ? ` ${fedHtml(p.fed)}` : ""}`;
}

async function loadRounds() {
  const r = await fetch("/api/rounds");
  if (!r.ok) return;
  const data = await r.json();
  earlierRounds = data.earlier;
  currentRound = data.current;
  const sel = document.getElementById("round-select");
  sel.innerHTML = earlierRounds.map((x) => `<option value="${esc(x.round)}">${esc(x.round)}</option>`).join("") +
    `<option value="" selected>${esc(currentRound)} (live)</option>`;
  document.getElementById("rounds").hidden = !earlierRounds.length;
}

function showEarlierRound(name) {
  const round = earlierRounds.find((x) => x.round === name);
  const view = document.getElementById("round-view");
  view.hidden = !round;
  document.getElementById("boards").hidden = !!round;
  document.getElementById("hall").hidden = !!round;
  if (!round) return;
  document.getElementById("round-view-title").textContent = `Round ${name}`;
  const pgn = document.getElementById("round-view-pgn");
  pgn.href = `/rounds/${encodeURIComponent(name)}.pgn`;
  pgn.download = `round-${name}.pgn`;
  view.querySelector("tbody").innerHTML = round.games.map((g) => `<tr><td>${g.board == null ? "" : esc(g.board)}</td>
    <td>${whoHtml(g.white, g.players.white)}</td><td class="result">${esc(g.result === "1/2-1/2" ? "½-½" : g.result)}</td>
    <td>${whoHtml(g.black, g.players.black)}</td></tr>`).join("");
}

document.getElementById("round-select").onchange = (e) => showEarlierRound(e.target.value);

let standingsDue = false;

async function loadStandings() {
  standingsDue = false;
  const r = await fetch("/api/standings");
  if (!r.ok) return;
  const data = await r.json();
  const rows = data.standings, half = (x) => (Math.floor(x) || (x % 1 ? "" : "0")) + (x % 1 ? "½" : "");
  document.getElementById("standings-said").textContent = rows.length
    ? `After ${data.rounds.length > 1 ? "rounds " + data.rounds.join(", ") : "round " + data.rounds[0]} (this round's finished games included).`
    : "No game of the event has a result yet.";
  document.querySelector("#standings tbody").innerHTML = rows.map((p) => `<tr><td>${p.rank}</td><td>${whoHtml(p.name, p)}</td>
    <td class="points">${half(p.points)}</td><td>${p.games}</td><td>${half(p.buchholz_cut1)}</td><td>${half(p.buchholz)}</td></tr>`).join("");
}

// A result on some board while the standings are open: read again, at most once a second.
function resultCame() {
  if (document.getElementById("standings").hidden || standingsDue) return;
  standingsDue = true;
  setTimeout(loadStandings, 1000);
}

document.getElementById("standings-open").onclick = (e) => {
  const box = document.getElementById("standings");
  box.hidden = !box.hidden;
  e.target.setAttribute("aria-expanded", String(!box.hidden));
  if (!box.hidden) loadStandings();
};

if (single) {
  document.body.classList.add("single");
  document.getElementById("standings-open").hidden = true;
  document.getElementById("hall").hidden = true;
  document.getElementById("all-boards").hidden = false;
  document.getElementById("help").innerHTML = "<kbd>←</kbd> <kbd>→</kbd> step through the moves, <kbd>Home</kbd> the start, <kbd>End</kbd> the live position, <kbd>f</kbd> flips the board.";
}
applyPrefs();
if (!single) loadRounds();
connect();
setInterval(tick, 100);
