"""Progress lines agree with themselves: the percentage is the count's, the time left shrinks."""
from simcore import run as simrun


def test_line_percentages_are_the_counts_own():
    lines = []
    p = simrun._LineProgress(200, 0, write=lines.append, every=0.0, prefix="")
    for k in (26, 74, 50, 50):
        p.update(k)
    # 26 of 200 is 13 %, not the 10 % step it passed; the last chunk prints nothing (the caller says done)
    assert lines[0].startswith("26 of 200 games (13 %), ")
    assert lines[1].startswith("100 of 200 games (50 %), ")
    assert lines[2].startswith("150 of 200 games (75 %), ")
    assert len(lines) == 3 and all("left" in line for line in lines)


def test_a_stderr_that_is_no_terminal_gets_a_line_per_tenth(capsys):
    import sys
    p = simrun._LineProgress(200, 0, sys.stderr)
    p.update(26)
    p.update(4)
    p.update(170)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("simulate: 26 of 200 games (13 %), ")
    assert err[-1].startswith("simulate: 200 of 200 games (100 %), ") and "left" not in err[-1]
    assert len(err) == 2


def test_simulate_reports_progress_to_a_callable(tmp_path, monkeypatch):
    lines = []
    monkeypatch.setattr(simrun._LineProgress, "__init__", _every_update(simrun._LineProgress.__init__))
    simrun.simulate("hellas", players=2, games=400, seed=1, out=str(tmp_path / "r"), workers=1,
                    chunk_size=100, events=False, progress=lines.append)
    assert [line.split(",")[0] for line in lines] == ["100 of 400 games (25 %)", "200 of 400 games (50 %)",
                                                       "300 of 400 games (75 %)"]


def _every_update(init):
    def patched(self, *a, **kw):
        init(self, *a, **kw)
        if self.every is not None:
            self.every = 0.0
    return patched
