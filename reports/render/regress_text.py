"""``boardlab regress`` results as text and Markdown (``reports.regress`` computes them)."""
import math


def _fmt(x, kind):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.4f}" if kind == "share" else f"{x:.3f}"


def _p(p):
    return "<1e-4" if p < 1e-4 else f"{p:.4f}"


def _table_rows(res):
    rows = []
    for r in res.rows:
        k = r["kind"]
        ci = f"[{_fmt(r['diff_lo'], k)}, {_fmt(r['diff_hi'], k)}]"
        verdict = "CHANGED" if r["significant"] else "ok"
        if r.get("underpowered") and not r["significant"]:  # "ok" may only mean "too few games to tell"
            verdict += " (low power)"
        rows.append([r["statistic"], r["item"], _fmt(r["baseline"], k), _fmt(r["now"], k),
                     _fmt(r["diff"], k), ci, r["test"], _p(r["p_holm"]),
                     _fmt(r.get("mde", float("nan")), k), verdict])
    return rows


HEADER = ["statistic", "item", "baseline", "now", "difference", "CI", "test", "p (Holm)", "MDE", "verdict"]


def _header_lines(res):
    s = res.study
    strat = ",".join(s.strategies)
    variant = " ".join(f"{k}={v}" for k, v in s.variant.items()) or "default rules"
    base = res.baseline
    return [f"study    {s.game}, {s.players} players, {strat}, {variant}, seed {s.seed}, {s.games:,} games",
            f"baseline recorded {base.get('recorded', {}).get('at', '?')} at commit "
            f"{str(base.get('recorded', {}).get('git_commit') or '?')[:10]}; "
            f"digest {base['digest']['value'][:16]}",
            f"now      digest {res.outcome.digest[:16]}, rerun in {res.outcome.wall_seconds:.1f} s"]


def format_text(res):
    """The check as a plain-text table."""
    lines = _header_lines(res)
    if res.rows:
        head = list(HEADER)
        head[5] = f"{1 - res.alpha:.0%} CI"
        table = [head] + _table_rows(res)
        widths = [max(len(str(r[i])) for r in table) for i in range(len(head))]
        lines.append("")
        for j, r in enumerate(table):
            lines.append("  ".join(str(c).ljust(w) if i < 2 or i == len(head) - 1 else str(c).rjust(w)
                                   for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        lines.append("")
        lines.append("difference = now - baseline; CI unadjusted; p Holm-adjusted over all statistics; "
                     "MDE = smallest change detected with 80% power")
    lines += [f"note: {n}" for n in res.notes]
    lines.append(res.verdict)
    return "\n".join(lines)


def format_markdown(res):
    """The check as Markdown (a CI step summary or a PR comment)."""
    icon = "✅" if res.exit_code == 0 else "❌"
    lines = [f"### {icon} boardlab regress: {res.verdict}", ""]
    lines += [f"- {ln}" for ln in _header_lines(res)]
    lines += [f"- note: {n}" for n in res.notes]
    if res.rows:
        head = list(HEADER)
        head[5] = f"{1 - res.alpha:.0%} CI"
        lines += ["", "| " + " | ".join(head) + " |",
                  "|" + "|".join("---" if i < 2 else "---:" for i in range(len(head) - 1)) + "|---|"]
        for r in _table_rows(res):
            if r[-1].startswith("CHANGED"):
                r[-1] = f"**{r[-1]}**"
            lines.append("| " + " | ".join(r) + " |")
        lines += ["", "_difference = now − baseline; CI unadjusted; p Holm-adjusted over all statistics; "
                      "MDE = smallest change detected with 80 % power._"]
    return "\n".join(lines) + "\n"


def format_record(s, doc, path):
    """The lines ``boardlab regress --record`` prints: study ``s`` (a ``reports.regress.Study``), the recorded
    document ``doc`` and where it went."""
    lines = [f"recorded {path}: {s.game}, {s.players} players, {','.join(s.strategies)}, "
             f"{' '.join(f'{k}={v}' for k, v in s.variant.items()) or 'default rules'}, seed {s.seed}, "
             f"{s.games:,} games in {doc['recorded']['wall_seconds']} s",
             f"digest {doc['digest']['value']}"]
    for r in doc["statistics"]:
        if r["statistic"] in ("win_share", "score.total") or not r["statistic"].startswith("score."):
            lines.append(f"  {r['statistic']:<24}{r['item']:<8}{r['estimate']:>10.4f}")
    return "\n".join(lines)
