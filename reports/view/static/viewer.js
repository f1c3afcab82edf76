// boardlab game viewer: steps through the frames of one game (reports/view/record.py) and, in
// play mode (reports/play/server.py), lets a person choose the actions of the human seats.
// The game's drawing lives in window.BOARDLAB_GAMES[game] (reports/view/static/<game>.js).
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("game-data").textContent);
  const G = window.BOARDLAB_GAMES[D.game];
  const PLAY = D.mode === "play";
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  window.boardlabEsc = esc;
  // the SVG points of a pointy-top hexagon of radius r centred on (x, y): the games' boards use it
  window.boardlabHex = function (x, y, r) {
    const p = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.PI / 180 * (60 * k - 30);
      p.push((x + r * Math.cos(a)).toFixed(1) + "," + (y + r * Math.sin(a)).toFixed(1));
    }
    return p.join(" ");
  };
  let at = PLAY ? D.frames.length - 1 : 0;
  const hash = /^#(\d+|end)$/.exec(window.location.hash || "");
  if (hash) at = hash[1] === "end" ? D.frames.length - 1 : Math.min(D.frames.length - 1, +hash[1]);
  let follow = true;          // play: show the newest frame as it comes
  let busy = false;           // play: a request is on its way

  function seatName(p) {
    const n = D.seats[p];
    return "player " + (p + 1) + " (seat " + p + (n ? ", " + n : "") + ")";      // as the reports count them
  }

  function swatch(p) {
    return '<span class="sw" style="background:' + G.colour(p) + '"></span>';
  }

  function humanTurn(f) {
    return PLAY && f.legal && f.seat >= 0 && D.human && D.human[f.seat] && at === D.frames.length - 1 && !D.over &&
      (D.pass_to === null || D.pass_to === undefined) && f.seat === D.perspective;
  }

  function viewRows(f) {
    // the legal actions in the order the agent ranks them (its view), the chosen one marked
    const n = f.legal.length, v = f.view;
    const rows = [];
    for (let k = 0; k < n; k++) {
      let key = 0, cell = "", width = 0, neg = false;
      if (v && v.kind === "h") {
        key = v.v[k];
        cell = (key === null || Number.isNaN(key)) ? "" : Number(key).toFixed(2);
      } else if (v && v.kind === "m") {
        key = v.n[k] + (v.w[k] === null ? 0 : v.w[k] * 1e-6);
        cell = (100 * v.n[k]).toFixed(1) + "%" + (v.w[k] === null ? "" : " · " + v.w[k].toFixed(2));
      }
      rows.push({k, key, cell});
    }
    if (v && v.kind === "h") {
      const vals = rows.map((r) => r.key).filter((x) => x !== null && !Number.isNaN(x));
      const lo = Math.min(0, ...vals), hi = Math.max(0, ...vals), span = (hi - lo) || 1;
      rows.forEach((r) => { r.width = 80 * Math.abs(r.key) / span; r.neg = r.key < 0; });
    } else if (v && v.kind === "m") {
      rows.forEach((r) => { r.width = 80 * v.n[r.k]; });
    }
    if (v) rows.sort((a, b) => (b.key - a.key) || (a.k - b.k));
    return rows;
  }

  function renderDecision(f) {
    const box = $("decision");
    if (!f.legal) {
      const tot = f.score[f.score.length - 1];
      const best = Math.max(...tot);
      const win = tot.map((t, p) => t === best ? p : -1).filter((p) => p >= 0);
      box.innerHTML = '<h3 class="final" id="final-line">Game over: ' + win.map((p) => esc(seatName(p))).join(", ") +
        (win.length > 1 ? " tie" : " wins") + " with " + best + "</h3>" +
        '<div class="note">final scores: ' + tot.map((t, p) => esc(seatName(p)) + " " + t).join(", ") + "</div>";
      return;
    }
    const human = humanTurn(f);
    let head = "<h3>" + swatch(f.seat) + esc(seatName(f.seat)) + (human ? " — your move: pick an action or click the board" :
      (f.chosen === undefined ? " is thinking…" : " chose: <span id='chosen-text'>" + esc(f.legal[f.chosen]) + "</span>")) + "</h3>";
    const v = f.view;
    let what = v ? (v.kind === "h" ? "the heuristic's score of each option (higher is preferred)"
      : "the search's visit share · mean win share of each option") : (human ? "" : "no agent view (random or human seat)");
    let off = "";
    if (v && v.kind === "h" && f.chosen !== undefined) {
      const best = Math.max(...v.v.filter((x) => x !== null && !Number.isNaN(x)));
      if (v.v[f.chosen] < best - 1e-9) off = " The seat did not take its best-scored option here (its noise, a random tie-break, or a step its decision loop takes apart from this score).";
    }
    let html = head + '<div class="note">' + f.legal.length + " legal actions" + (what ? "; " + what : "") + "." + off + "</div>";
    html += '<div id="legal"><table>';
    for (const r of (human ? f.legal.map((_, k) => ({k, cell: "", width: 0})) : viewRows(f))) {
      const cls = (r.k === f.chosen ? "chosen" : "") + (human ? " pick" : "");
      html += '<tr class="' + cls + '" data-k="' + r.k + '"><td class="l">' + esc(f.legal[r.k]) + "</td><td>" + r.cell +
        '</td><td class="l"><span class="bar' + (r.neg ? " neg" : "") + '" style="width:' + (r.width || 0).toFixed(1) + 'px"></span></td></tr>';
    }
    html += "</table></div>";
    box.innerHTML = html;
    if (human) {
      for (const tr of box.querySelectorAll("tr.pick")) tr.addEventListener("click", () => act(+tr.dataset.k));
    }
    const ch = box.querySelector("tr.chosen"), list = $("legal");
    if (ch && list) list.scrollTop = Math.max(0, ch.offsetTop - list.clientHeight / 2);
  }

  function renderPlayers(f) {
    const cats = D.categories;
    let html = '<table id="players"><tr><th class="l">seat</th>' + cats.map((c) => "<th>" + esc(c) + "</th>").join("") + "</tr>";
    for (let p = 0; p < D.players; p++) {
      const cls = f.seat === p ? "tomove" : "";
      html += '<tr class="' + cls + '"><td class="l">' + swatch(p) + esc(seatName(p)) + "</td>" +
        cats.map((c, k) => "<td" + (k === cats.length - 1 ? ' class="final"' : "") + ' data-seat="' + p + '" data-cat="' + esc(c) + '">' +
          f.score[k][p] + "</td>").join("") + "</tr>" +
        '<tr class="' + cls + '"><td class="res" colspan="' + (cats.length + 1) + '">' + G.panel(D.board, f.pos, p, D) + "</td></tr>";
    }
    $("playersbox").innerHTML = html + "</table>" + '<div class="note">' + G.info(D.board, f.pos, D) + "</div>";
  }

  function renderPass() {
    // hot seat: while the screen goes to another person, nobody's secrets are on the page (the server sent none)
    const box = $("passbox");
    if (!box) return false;
    const p = D.pass_to;
    const passing = PLAY && p !== null && p !== undefined && !D.over;
    box.hidden = !passing;
    $("main").hidden = passing;
    if (passing) {
      for (const id of ["board", "playersbox", "decision", "log"]) $(id).innerHTML = "";   // nothing of the last player's view stays
      $("pass-text").textContent = "Pass the screen to " + seatName(p) + ".";
      $("pass-ready").textContent = "I am player " + (p + 1) + ": show my game";
      $("pass-ready").dataset.seat = String(p);
    }
    return passing;
  }

  function render() {
    if (renderPass()) return;
    const f = D.frames[at];
    const targets = new Set();
    const human = humanTurn(f);
    if (human && f.targets) f.targets.forEach((t) => t && targets.add(t));
    const hl = (!human && f.legal && f.chosen !== undefined && f.targets) ? f.targets[f.chosen] : null;
    $("board").innerHTML = G.draw(D.board, f.pos, {players: D.players, hl, targets, frame: f});
    if (human) {
      for (const el of $("board").querySelectorAll("[data-t]")) {
        if (targets.has(el.dataset.t)) {
          el.classList.add("tg");
          el.addEventListener("click", () => boardClick(el.dataset.t));
        }
      }
    }
    renderPlayers(f);
    renderDecision(f);
    const last = D.frames.length - 1;
    const decided = D.frames[last].legal ? last + 1 : last;        // play: the newest frame waits for its decision
    $("stepinfo").textContent = (f.legal ? "decision " + (at + 1) : "end") + " / " + decided;
    $("slider").max = String(last);
    $("slider").value = String(at);
    const log = (at > 0 ? (D.frames[at - 1].log || []) : (D.setup || []));
    $("log").textContent = log.length ? log.join("\n") : "";
    $("logtitle").textContent = at > 0 ? "what the last decision caused" : "set-up";
  }

  function go(k) {
    at = Math.max(0, Math.min(D.frames.length - 1, k));
    follow = at === D.frames.length - 1;
    render();
  }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(at - 1));
  $("next").addEventListener("click", () => go(at + 1));
  $("last").addEventListener("click", () => go(D.frames.length - 1));
  $("slider").addEventListener("input", (e) => go(+e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { go(at + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(at - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(D.frames.length - 1); e.preventDefault(); }
  });

  // ------------------------------------------------------------------ play mode
  function status(text, err) {
    const s = $("status");
    if (!s) return;
    s.textContent = text;
    s.className = err ? "err" : "";
  }

  function boardClick(t) {
    const f = D.frames[at];
    const ks = [];
    f.targets.forEach((x, k) => { if (x === t) ks.push(k); });
    if (ks.length === 1) { act(ks[0]); return; }
    // several actions on that spot: keep only them in the list
    for (const tr of document.querySelectorAll("#legal tr")) {
      tr.style.display = ks.includes(+tr.dataset.k) ? "" : "none";
    }
    status(ks.length + " actions there: pick one from the list");
  }

  async function call(path, body) {
    const opt = body === undefined ? {method: "GET"} : {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json"}};
    opt.headers = Object.assign(opt.headers || {}, {"X-Boardlab-Token": D.token});
    const r = await fetch(path, opt);
    const data = await r.json().catch(() => ({error: "the server sent no JSON (status " + r.status + ")"}));
    if (!r.ok) throw new Error(data.error || ("status " + r.status));
    return data;
  }

  let lastReply = "", timer = null;
  // the perspective the frames were sent for (the server sends all again when it changes)
  const held = () => encodeURIComponent(D.perspective === null || D.perspective === undefined ? "none" : String(D.perspective));

  function schedule(ms) {
    // one poll pending at a time
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => { timer = null; poll(); }, ms);
  }

  function merge(data) {
    // frames from data.start on replace ours (the newest may have changed: a bot chose)
    const reply = JSON.stringify(data);
    if (reply === lastReply && data.start === D.frames.length - 1) return;   // nothing new: keep the page as it is
    lastReply = reply;
    const newEyes = data.perspective !== D.perspective;
    D.frames.length = data.start;
    for (const f of data.frames) D.frames.push(f);
    if (data.setup) D.setup = data.setup;
    D.over = data.over;
    D.thinking = data.thinking;
    D.perspective = data.perspective;
    D.pass_to = data.pass_to;
    if (follow || newEyes) at = D.frames.length - 1;
    render();
    if (data.error) status(data.error, true);
    else if (data.over) status("game over — results folder " + data.folder);
    else if (data.thinking) status(seatName(data.thinking_seat) + " is thinking…");
    else if (humanTurn(D.frames[D.frames.length - 1])) status(seatName(D.perspective) + ", your move");
    else status("waiting…");
  }

  async function poll() {
    if (busy) return;
    busy = true;
    try {
      const from = Math.max(0, D.frames.length - 1);
      merge(await call("api/state?from=" + from + "&held=" + held()));
    } catch (e) {
      status("lost the server: " + e.message + " (is `boardlab play` still running?)", true);
    } finally {
      busy = false;
    }
    // quickly while bots are to move; slowly (only to notice a stopped server) while a person is
    const waiting = (humanTurn(D.frames[D.frames.length - 1]) && !D.thinking) || (D.pass_to !== null && D.pass_to !== undefined);
    if (!D.over) schedule(waiting ? 1500 : 200);
  }

  let acting = false;          // play: a move was clicked and is not answered yet
  async function act(k) {
    const frame = at, f = D.frames[frame];
    if (acting || !humanTurn(f)) return;
    acting = true;
    status("sending…");
    // a poll on its way: send the move once it is back, rather than drop the click
    while (busy) await new Promise((r) => setTimeout(r, 50));
    busy = true;
    try {
      merge(await call("api/act", {frame: frame, index: k, action_text: f.legal[k]}));
    } catch (e) {
      status("refused: " + e.message, true);
    } finally {
      busy = false;
      acting = false;
    }
    schedule(200);
  }

  if (PLAY) {
    $("save").addEventListener("click", async () => {
      try { const r = await call("api/save", {}); status("saved to " + r.file); }
      catch (e) { status("save failed: " + e.message, true); }
    });
    $("pass-ready").addEventListener("click", async function take() {
      // a poll on its way: take the screen once it is back, rather than drop the click
      if (busy) { setTimeout(take, 50); return; }
      busy = true;
      try { merge(await call("api/screen", {seat: +$("pass-ready").dataset.seat})); }
      catch (e) { status("refused: " + e.message, true); }
      finally { busy = false; }
      schedule(200);
    });
    window.addEventListener("beforeunload", () => {
      try { navigator.sendBeacon("api/closed?token=" + encodeURIComponent(D.token)); } catch (e) { /* best effort */ }
    });
    schedule(300);
  }
  render();
  document.body.dataset.drawMs = String(Math.round(performance.now()));   // since the navigation began
  document.body.dataset.ready = "1";
})();
