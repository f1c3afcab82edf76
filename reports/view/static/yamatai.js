// Yamataï: the board of board.json (hex, odd-r offset), islands, boats of each colour, buildings.
"use strict";
(function () {
  const SEATS = ["#2f6fd6", "#f08a24", "#8a4fc8", "#8c8c8c"];           // blue, orange, violet, grey pieces
  const BOAT = ["#5fae3c", "#8b5a2b", "#2b2b2b", "#c0392b", "#e5b800"];  // bamboo, wood, stone, clay, gold
  const BOAT_NAMES = ["bamboo", "wood", "stone", "clay", "gold"];
  const W = 40, R = W / Math.sqrt(3);
  const esc = (s) => window.boardlabEsc(s);
  const two = (k) => (k < 10 ? "0" : "") + k;

  const hex = (x, y, r) => window.boardlabHex(x, y, r);     // viewer.js: a pointy-top hexagon's points

  function draw(board, pos, o) {
    const xy = (c) => [c[1] * W + W, c[2] * W + W];
    const all = board.islands.concat(board.sea).map(xy);
    const w = Math.max(...all.map((p) => p[0])) + W, h = Math.max(...all.map((p) => p[1])) + W;
    let s = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + w.toFixed(0) + " " + h.toFixed(0) +
      '"><rect width="' + w + '" height="' + h + '" fill="#eef4f8"/>';
    let top = "";
    board.sea.forEach((c) => {
      const [id, , , entry, edge] = c, [x, y] = xy(c), t = "s" + id;
      const cls = o.hl === t ? " hl" : o.targets.has(t) ? " cand" : "";
      s += '<polygon data-t="' + t + '" class="' + cls + '" points="' + hex(x, y, R - 0.6) + '" fill="' + (edge ? "#8fc1e3" : "#a9d2ee") +
        '" stroke="' + (cls ? "" : "#7fb0d3") + '"><title>s' + two(id) + (entry ? " entry " + entry : "") + "</title></polygon>";
      const b = pos.sea[id];
      if (b >= 0) top += '<ellipse cx="' + x + '" cy="' + y + '" rx="10" ry="6" fill="' + BOAT[b] + '" stroke="#fff" stroke-width="1.2"/>';
      if (entry) top += '<text x="' + (x - R * 0.9) + '" y="' + (y + 4) + '" font-size="11" font-weight="700" fill="#1b4f72">' + entry + "</text>";
      top += '<text x="' + x + '" y="' + (y + R * 0.75) + '" font-size="6.5" text-anchor="middle" fill="#46708f">s' + two(id) + "</text>";
    });
    board.islands.forEach((c) => {
      const [id, , , cluster] = c, [x, y] = xy(c), t = "i" + id;
      const [token, bld, owner, sacred, mountain] = pos.islands[id];
      const cls = o.hl === t ? " hl" : o.targets.has(t) ? " cand" : "";
      s += '<polygon data-t="' + t + '" class="' + cls + '" points="' + hex(x, y, R - 0.6) + '" fill="' + (mountain ? "#a7b37a" : "#c9d9a0") +
        '" stroke="' + (cls ? "" : "#7c8b55") + '"><title>I' + two(id) + " (cluster " + cluster + ")</title></polygon>";
      if (mountain) top += '<path d="M' + (x - 13) + "," + (y - 4) + " l5,-8 l5,8 z" + '" fill="#6d6a5e"/>';
      if (sacred) top += '<path d="M' + (x + 4) + "," + (y - 12) + " h12 M" + (x + 6) + "," + (y - 9) + " h8 M" + (x + 7) + "," + (y - 12) + " v9 M" + (x + 13) + "," + (y - 12) + ' v9" stroke="#b01e1e" stroke-width="1.8"><title>sacred site</title></path>';
      if (bld === 1) {
        top += '<path d="M' + (x - 9) + "," + (y + 7) + " v-8 l9,-7 l9,7 v8 z" + '" fill="' + SEATS[owner] + '" stroke="#222"><title>building of seat ' + owner + "</title></path>";
      } else if (bld === 2 || bld === 3) {
        top += '<rect x="' + (x - 11) + '" y="' + (y - 8) + '" width="22" height="16" rx="2" fill="' + (bld === 2 ? "#c0392b" : "#f3f0e6") +
          '" stroke="#222"/><text x="' + x + '" y="' + (y + 4) + '" font-size="8" font-weight="700" text-anchor="middle" fill="' + (bld === 2 ? "#fff" : "#222") + '">' +
          (bld === 2 ? "torii" : "palace") + "</text>";
      } else if (token >= 0) {
        top += '<circle cx="' + x + '" cy="' + (y + 1) + '" r="7" fill="#fff" stroke="#555"><title>culture token: ' + esc(board.tokens[token] || token) +
          '</title></circle><text x="' + x + '" y="' + (y + 4) + '" font-size="7.5" text-anchor="middle" fill="#333">' + esc((board.tokens[token] || "?").slice(0, 2)) + "</text>";
      }
      top += '<text x="' + x + '" y="' + (y + R * 0.78) + '" font-size="6.5" text-anchor="middle" fill="#4b5a2a">I' + two(id) + "</text>";
    });
    return s + top + "</svg>";
  }

  function boats(v) {
    return v.map((n, k) => n ? n + " " + BOAT_NAMES[k] : "").filter(Boolean).join(", ") || "none";
  }

  function panel(board, pos, p) {
    const tok = pos.tokens[p].map((n, k) => n ? n + " " + (board.tokens[k] || k) : "").filter(Boolean).join(", ");
    return "coins " + pos.coins[p] + " · PP tokens " + pos.pp[p] + " · pieces left " + pos.pieces[p] +
      " · port: " + boats(pos.port[p]) + " · tokens: " + (tok || "none") +
      " · built: " + (pos.built[p].map((b) => esc(board.tiles[b] || b)).join(" ") || "none") +
      (pos.reserved[p].length ? " · reserved: " + pos.reserved[p].map((b) => esc(board.tiles[b] || b)).join(" ") : "") +
      " · specialists: " + (pos.specs[p].map((k) => esc(board.specialists[k] || k)).join(", ") || "none") +
      (pos.set_aside[p] ? " · set aside " + pos.set_aside[p] : "");
  }

  function info(board, pos) {
    return "Round " + (pos.round + 1) + " · stage " + esc(pos.stage) + " · fleets face up " + pos.track.join(", ") +
      ' · <span class="hidden-mark">' + pos.hidden_fleets + " fleets face down</span>" +
      " · building row " + pos.row.map((b) => esc(board.tiles[b] || b)).join(" ") + ' · <span class="hidden-mark">' + pos.deck +
      " building tiles in the deck</span> · specialists on offer " + (pos.slots.map((k, i) => k < 0 ? "" : esc(board.specialists[k] || k) + " (" + pos.slot_coins[i] + " coins)").filter(Boolean).join(", ") || "none") +
      ' · <span class="hidden-mark">' + pos.spec_deck + " specialists face down</span> · boat supply " + boats(pos.supply.boats) +
      ", sacred sites " + pos.supply.sacred + ' · <span class="hidden-mark" title="hidden from the other players">boats in the hand of the seat to play: ' + boats(pos.hand) + "</span>" +
      (pos.triggers && pos.triggers.length ? " · end triggered by " + esc(pos.triggers.join(", ")) : "") + " · board layout assumed";
  }

  window.BOARDLAB_GAMES = window.BOARDLAB_GAMES || {};
  window.BOARDLAB_GAMES.yamatai = {draw, panel, info, colour: (p) => SEATS[p % 4]};
})();
