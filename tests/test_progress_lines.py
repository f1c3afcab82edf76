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


def test_a_heartbeat_fills_every_silence_and_stops_with_its_block():
    import time

    from reports.progress import heartbeat

    lines = []
    with heartbeat(lines.append, lambda: "searching", every=0.2) as say:
        say("first")
        time.sleep(0.9)
        say("last")
    n = len(lines)
    time.sleep(0.5)
    assert len(lines) == n                       # nothing after the block
    assert lines[0] == "first" and lines[-1] == "last"
    beats = lines[1:-1]
    assert 2 <= len(beats) <= 6 and all(b.startswith("searching (") and b.endswith(" s)") for b in beats)


def test_on_a_terminal_the_beats_of_a_silence_rewrite_one_line(monkeypatch):
    import io
    import sys
    import time

    from reports.progress import heartbeat

    class Tty(io.StringIO):
        def isatty(self):
            return True

    def until(cond):                                 # waits on the beats, not on a timing guess
        end = time.monotonic() + 60
        while not cond() and time.monotonic() < end:
            time.sleep(0.02)
        assert cond()

    beat = "\r\x1b[K"
    err, lines = Tty(), []
    monkeypatch.setattr(sys, "stderr", err)
    with heartbeat(lines.append, lambda: "searching", every=0.2, inline=True) as say:
        say("first")
        until(lambda: err.getvalue().count(beat) >= 2)
        say("second")
        n = err.getvalue().count(beat)
        until(lambda: err.getvalue().count(beat) > n)
    assert lines == ["first", "second"]              # the log gets the real lines only
    parts = err.getvalue().split("\n")
    assert len(parts) == 3 and parts[-1] == ""       # one rewritten line per silence, each ended
    for part, least in zip(parts, (2, 1)):
        beats = part.split(beat)[1:]
        assert part.startswith(beat) and len(beats) >= least
        assert all(b.startswith("searching (") and b.endswith(" s)") for b in beats)
    plain = Tty()
    plain.isatty = lambda: False
    monkeypatch.setattr(sys, "stderr", plain)
    lines = []
    with heartbeat(lines.append, lambda: "searching", every=0.2, inline=True):
        until(lambda: len(lines) >= 2)
    assert all(x.startswith("searching (") for x in lines) and plain.getvalue() == ""  # each beat logged


def test_the_progress_gaps_script_finds_the_longest_silence():
    import sys

    sys.path.insert(0, "bench")
    from progress_gaps import gaps, stamped

    lines, wall, rc = stamped([sys.executable, "-c", "import time; print('a', flush=True); time.sleep(0.6); "
                                                     "print('b', flush=True)"])
    assert rc == 0 and [t for _, t in lines] == ["a", "b"]
    longest = max(gaps(lines, wall))
    assert longest[1:] == ("a", "b") and 0.5 <= longest[0] < 3


def test_progress_lines_prefix_each_count_and_beat_with_the_last_one():
    import time

    from reports.progress import progress_lines

    lines = []
    with progress_lines(lines.append, "  skill: mcts", every=0.2) as progress:
        progress("26 of 200 games (13 %), 1.0 s, about 7 s left")
        time.sleep(0.5)
    assert lines[0] == "  skill: mcts: 26 of 200 games (13 %), 1.0 s, about 7 s left"
    assert len(lines) >= 2 and lines[1].startswith("  skill: mcts: 26 of 200 games (13 %) (")
