"""reports.api: the Python calls give the CLI's results, as polars (or pandas) frames and figures."""
import os
import subprocess
import sys

import pandas as pd
import polars as pl
import pytest
from matplotlib.figure import Figure

from reports import api


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return api.simulate("hellas", players=3, games=300, seed=1, strategy="balanced",
                        out=tmp_path_factory.mktemp("api") / "r", workers=1)


def test_simulate_returns_the_runs_seat_table_with_intervals(run):
    seats = run.seats()
    assert isinstance(seats, pl.DataFrame)
    assert seats["seat"].to_list() == [0, 1, 2] and seats["n"].to_list() == [300] * 3
    assert abs(seats["win_share"].sum() - 1.0) < 1e-9          # a k-way tie counts 1/k: shares add to 1
    assert (seats["win_lo"] <= seats["win_share"]).all() and (seats["win_share"] <= seats["win_hi"]).all()
    # the same numbers as the players table says
    p = run.players()
    assert p.height == 900
    direct = p.group_by("seat").agg(pl.col("win_share").cast(pl.Float64).mean()).sort("seat")["win_share"]
    assert seats["win_share"].to_list() == pytest.approx(direct.to_list())
    assert run.strategies() == {"r": ["balanced"] * 3}
    assert "balanced" in repr(run) and "300 games" in repr(run)


def test_pandas_on_request_and_a_figure(run):
    df = run.seats(pandas=True)
    assert isinstance(df, pd.DataFrame) and list(df["seat"]) == [0, 1, 2]
    assert isinstance(run.players(pandas=True), pd.DataFrame)
    fig = run.figure()
    assert isinstance(fig, Figure)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels[0].startswith("P1") and "starts" in labels[0]


def test_the_same_seed_gives_the_same_games(run, tmp_path):
    again = api.simulate("hellas", players=3, games=300, seed=1, strategy="balanced", out=tmp_path / "again",
                         workers=2)
    assert again.players().drop("run").equals(run.players().drop("run"))


def test_load_finds_runs_below_a_folder_and_refuses_mixed_games(run, tmp_path):
    assert api.load(run.folder).seats()["win_share"].to_list() == run.seats()["win_share"].to_list()
    api.simulate("yamatai", players=3, games=40, seed=1, out=tmp_path / "runs" / "y", workers=1)
    api.simulate("hellas", players=2, games=40, seed=1, out=tmp_path / "runs" / "h", workers=1)
    with pytest.raises(ValueError, match="several games"):
        api.load(tmp_path)
    with pytest.raises(ValueError, match="no results folder"):
        api.load(tmp_path / "runs" / "y" / "players")
    both = api.load(tmp_path / "runs" / "h")
    assert both.labels == ["h"]


def test_compare_rates_a_strategy_above_random(tmp_path):
    c = api.compare("hellas", 2, ["balanced", "random"], games=40, out=tmp_path / "c", workers=1)
    r = c.ratings()
    assert r["strategy"].to_list()[0] == "balanced" and r["elo"][0] > r["elo"][1]
    assert isinstance(c.win_shares(pandas=True), pd.DataFrame)
    assert isinstance(c.figure(), Figure)
    assert api.load(tmp_path / "c").__class__ is api.Comparison


def test_balance_returns_the_verified_compensation():
    b = api.balance("hellas", 2, budget=3000, verify=600, seed=1, workers=1)
    seats = b.seats()
    assert seats["compensation"].to_list() == b.compensation
    assert seats["games"].to_list() == [600, 600]
    assert "largest seat gap" in b.summary()
    assert b.candidates().height >= 1 and len(b.figures()) == 2


def test_study_parts_as_frames(tmp_path):
    toml = tmp_path / "s.toml"
    toml.write_text('[study]\ntitle = "t"\ngame = "hellas"\nseed = 3\ngames = 120\n\n'
                    '[[balance]]\nname = "seats"\ntitle = "Seats"\nplayers = [2, 3]\nstrategy = "balanced"\n')
    st = api.study(toml, out=tmp_path / "out", report=False, workers=1)
    seats = st.seats()
    assert seats["part"].unique().to_list() == ["seats"]
    assert sorted(seats["run"].unique().to_list()) == ["2 players", "3 players"]
    assert seats.height == 5 and st.report_path is None


def test_bad_input_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="unknown game"):
        api.simulate("chess", players=2, games=10)
    with pytest.raises(ValueError, match="not both"):
        api.simulate("hellas", players=2, games=10, strategy="balanced", seats=["random", "random"])
    with pytest.raises(ValueError, match="no such folder"):
        api.load(tmp_path / "nothing")


def test_an_install_outside_a_checkout_names_the_commit_it_was_built_from(tmp_path):
    # pip install . copies simcore out of the git tree: the commit comes from _build_info.py
    import shutil

    import simcore
    src = os.path.dirname(simcore.__file__)
    shutil.copytree(src, tmp_path / "simcore", ignore=shutil.ignore_patterns("__pycache__", "_build_info.py"))
    (tmp_path / "simcore" / "_build_info.py").write_text("COMMIT = 'abc123'\nDIRTY = False\n")
    code = "from simcore._run_folder import _git_commit; print(_git_commit())"
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert r.stdout.strip() == "('abc123', False)", r.stderr
