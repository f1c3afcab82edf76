"""analysis/robustness.py and reports/robustness.py: a finding across conditions (issue 33, item 4)."""
import numpy as np

from analysis.robustness import robustness_table, sentences


def _two_seat(rng, n, p0, base=None, keep=0.0):
    """(n, 2) win shares with seat 0 winning with probability p0; ``keep``: share of games copied from ``base``."""
    w0 = (rng.random(n) < p0).astype(float)
    if base is not None:
        same = rng.random(n) < keep
        w0 = np.where(same, base[:, 0], w0)
    return np.stack([w0, 1 - w0], axis=1)


def test_status_and_sentences():
    rng = np.random.default_rng(1)
    n = 20_000
    base = _two_seat(rng, n, 0.56)
    conds = {"balanced": base, "same": base.copy(), "other bot": _two_seat(rng, n, 0.55),
             "flipped rule": _two_seat(rng, n, 0.44), "fair rule": _two_seat(rng, n, 0.5)}
    t = robustness_table("balanced", conds, {"other bot": "bot", "flipped rule": "rule"})
    st = {(r["condition"], r["seat"]): r for r in t.iter_rows(named=True)}
    assert st[("same", 0)]["status"] == "holds" and st[("same", 0)]["same_games"]
    assert st[("same", 0)]["change_pp"] == 0
    assert st[("other bot", 0)]["status"] == "holds" and not st[("other bot", 0)]["same_games"]
    assert st[("flipped rule", 0)]["status"] == "flips" and st[("flipped rule", 1)]["status"] == "flips"
    assert abs(st[("flipped rule", 0)]["change_pp"] - (-12)) < 2.5
    assert st[("fair rule", 0)]["status"] == "unclear"
    said = sentences(t)
    assert said[0].startswith("Seat 0 is favoured (+6")
    assert "holds across other bot;" in said[0]
    assert "no game changed under same" in said[0]
    assert "flips under flipped rule by -1" in said[0]
    assert "not told from fair under fair rule" in said[0]


def test_paired_change_interval_covers():
    """The paired change's interval (Bonferroni level over the conditions) covers the planted change."""
    rng = np.random.default_rng(2)
    reps, n, cover = 300, 2000, 0
    for _ in range(reps):
        base = _two_seat(rng, n, 0.55)
        cond = _two_seat(rng, n, 0.50, base=base, keep=0.6)   # same games 60 % of the time: correlated
        # the truth: 0.6 * 0.55 + 0.4 * 0.50 - 0.55 = -0.02
        t = robustness_table("b", {"b": base, "c": cond})
        r = t.filter((t["condition"] == "c") & (t["seat"] == 0)).row(0, named=True)
        cover += r["change_lo_pp"] <= -2.0 <= r["change_hi_pp"]
    assert cover >= 0.93 * reps, cover


def test_robustness_run_on_the_engine():
    from reports.robustness import conditions, run

    conds = conditions("hellas", 2, bots=["random"])
    labels = [c["label"] for c in conds]
    assert labels[0] == "balanced" and "random" in labels
    assert any(lab.startswith("H-D4 start_player=random") for lab in labels)
    table, said, conds = run("hellas", 2, games=600, seed=3, bots=["random"], workers=1)
    assert table.height == 2 * len(conds)
    assert len(said) == 2
    # the start player drawn at random makes the seats symmetric: its advantage interval holds 0
    r = table.filter((table["condition"].str.starts_with("H-D4")) & (table["seat"] == 0)).row(0, named=True)
    assert r["lo_pp"] <= 0 <= r["hi_pp"]
