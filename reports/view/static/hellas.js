// Hellas: the hex board of the board file (axial q, r), its fields, quarries, worker, pieces and temples.
"use strict";
(function () {
  const COLOURS = ["#d0342c", "#2f6fd6", "#2e9b48", "#e0b000"];
  const R = 22, SQ3 = Math.sqrt(3);
  const esc = (s) => window.boardlabEsc(s);
  const centre = (q, r) => [R * SQ3 * (q + r / 2), R * 1.5 * r];

  const hex = (x, y, r) => window.boardlabHex(x, y, r);     // viewer.js: a pointy-top hexagon's points

  function house(x, y, c) {
    return '<path d="M' + (x - 7) + "," + (y + 6) + " v-7 l7,-6 l7,6 v7 z" + '" fill="' + c + '" stroke="#222" stroke-width="1"/>';
  }
  function agora(x, y, c) {
    return '<rect x="' + (x - 8) + '" y="' + (y - 5) + '" width="16" height="10" fill="' + c + '" stroke="#222"/>' +
      '<line x1="' + (x - 8) + '" y1="' + y + '" x2="' + (x + 8) + '" y2="' + y + '" stroke="#222" stroke-width="0.8"/>' +
      '<text x="' + x + '" y="' + (y + 4) + '" font-size="8" text-anchor="middle" fill="#fff">A</text>';
  }
  function palace(x, y, c) {
    return '<path d="M' + (x - 10) + "," + (y + 8) + " v-10 l4,-4 l6,4 l6,-4 l4,4 v10 z" + '" fill="' + c + '" stroke="#222" stroke-width="1.2"/>' +
      '<text x="' + x + '" y="' + (y + 6) + '" font-size="9" font-weight="700" text-anchor="middle" fill="#fff">P</text>';
  }
  function monument(x, y) {
    return '<path d="M' + (x - 5) + "," + (y + 10) + " l2,-17 l3,-3 l3,3 l2,17 z" + '" fill="#6b5a45" stroke="#222"/>';
  }

  function draw(board, pos, o) {
    const pts = board.fields.map((f) => centre(f[1], f[2]));
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const x0 = Math.min(...xs) - R * 1.6, y0 = Math.min(...ys) - R * 1.6;
    const w = Math.max(...xs) - x0 + R * 1.6, h = Math.max(...ys) - y0 + R * 1.6;
    let s = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + [x0, y0, w, h].map((v) => v.toFixed(0)).join(" ") +
      '"><rect x="' + x0 + '" y="' + y0 + '" width="' + w + '" height="' + h + '" fill="#9fcbe6"/>';
    const quarry = {}, temple = {}, piece = {};
    pos.quarries.forEach((q) => { quarry[q[0]] = q; });
    pos.temples.forEach((t) => { temple[t[0]] = t[1]; });
    pos.pieces.forEach((p) => { piece[p[0]] = p; });
    let top = "";
    board.fields.forEach((f, k) => {
      const [id, , , kind, coast, size] = f, [x, y] = pts[k];
      const fill = kind === "q" ? "#b8b1a3" : kind === "t" ? "#f7f5ef" : (coast ? "#efdca9" : "#d9c487");
      const cls = o.hl === "f" + id ? " hl" : o.targets.has("f" + id) ? " cand" : "";
      s += '<polygon data-t="f' + id + '" class="fld' + cls + '" points="' + hex(x, y, R - 0.8) + '" fill="' + fill +
        '" stroke="' + (cls ? "" : "#8a7a55") + '" stroke-width="1"><title>field ' + id + (kind === "b" ? (coast ? " (coast)" : " (inland)") : kind === "q" ? " quarry field" : " temple, size " + size) + "</title></polygon>";
      if (kind === "t") {
        const cols = temple[id] || 0;
        // the temple: its size as slots, the columns built filled
        for (let c = 0; c < size; c++) {
          const a = 2 * Math.PI * c / size - Math.PI / 2;
          top += '<circle cx="' + (x + 11 * Math.cos(a)).toFixed(1) + '" cy="' + (y + 11 * Math.sin(a)).toFixed(1) + '" r="3.2" fill="' +
            (c < cols ? "#fff" : "none") + '" stroke="#555" stroke-width="' + (c < cols ? 1.4 : 0.7) + '"/>';
        }
        top += '<text x="' + x + '" y="' + (y + 4) + '" font-size="10" font-weight="700" text-anchor="middle" fill="#333">' + cols + "/" + size + "</text>";
      } else if (kind === "q") {
        const q = quarry[id];
        if (q) {
          const act = q[1] === "a";
          top += '<rect x="' + (x - 10) + '" y="' + (y - 9) + '" width="20" height="18" rx="3" fill="' + (act ? "#fffbe8" : "#77716a") +
            '" stroke="#333"/><text x="' + x + '" y="' + (y + 4) + '" font-size="11" font-weight="700" text-anchor="middle" fill="' +
            (act ? "#222" : "#ddd") + '">' + q[2] + "</text>";
          if (!act) top += '<line x1="' + (x - 10) + '" y1="' + (y + 9) + '" x2="' + (x + 10) + '" y2="' + (y - 9) + '" stroke="#ddd"/>';
        }
        if (pos.worker === id) {
          top += '<circle cx="' + x + '" cy="' + (y - 5) + '" r="4" fill="#222"/><path d="M' + (x - 6) + "," + (y + 9) + " q6,-14 12,0 z" + '" fill="#222"/>';
        }
      } else if (piece[id]) {
        const [, owner, k2] = piece[id];
        const c = owner >= 0 ? COLOURS[owner] : "#6b5a45";
        top += k2 === "h" ? house(x, y, c) : k2 === "a" ? agora(x, y, c) : k2 === "p" ? palace(x, y, c) : monument(x, y);
      }
    });
    s += top;
    // field numbers, small, for reading the action texts
    board.fields.forEach((f, k) => {
      const [x, y] = pts[k];
      s += '<text x="' + (x - R * 0.55).toFixed(1) + '" y="' + (y - R * 0.45).toFixed(1) + '" font-size="7" fill="#6d6040">' + f[0] + "</text>";
    });
    return s + "</svg>";
  }

  function panel(board, pos, p) {
    const n = {h: 0, a: 0, p: 0};
    pos.pieces.forEach((x) => { if (x[1] === p && n[x[2]] !== undefined) n[x[2]]++; });
    return "marble " + pos.marble[p] + " · rings " + pos.rings[p] + " · cubes " + pos.cubes[p] +
      " · houses " + n.h + " · agoras " + n.a + " · palaces " + n.p + (pos.income[p] ? " · income " + pos.income[p] : "");
  }

  function info(board, pos) {
    return (pos.phase === "over" ? "Game over after 3 rounds" : "Round " + (pos.round + 1) + " of 3 · phase " + esc(pos.phase)) + ' · <span class="hidden-mark">' + pos.stack +
      " quarry tiles face down</span>" + (pos.set_aside.length ? " · set aside " + pos.set_aside.join(", ") : "") +
      (pos.tile !== null && pos.tile !== undefined ? " · revealed tile " + pos.tile : "") +
      " · supply: columns " + pos.supply.columns + ", rings " + pos.supply.rings + ", monuments " + pos.supply.monuments +
      " · action spaces taken: " + (pos.used.length ? pos.used.map((k) => k + " " + esc(board.spaces[k] || "")).join(", ") : "none") +
      " · board " + esc(board.name) + " (assumed layout)";
  }

  window.BOARDLAB_GAMES = window.BOARDLAB_GAMES || {};
  window.BOARDLAB_GAMES.hellas = {draw, panel, info, colour: (p) => COLOURS[p % 4]};
})();
