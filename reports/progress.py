"""A line of progress whenever a person would otherwise wait (issue 35: no wait over 2 s without one).

:func:`heartbeat` wraps a ``log`` callable for the length of a ``with`` block: the lines the block
writes pass through; when ``every`` seconds go by without one, a line saying what is running and
for how long is written. On a terminal (``inline``) the beats of one silence rewrite a single line
in place instead of filling the screen with one line a second; a log file still gets each beat.
``bench/progress_gaps.py`` measures the silences of a command.
"""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

#: seconds without a line after which the heartbeat writes one (with its 0.25 s tick: at most ~1.3 s)
EVERY = 1.0


@contextmanager
def heartbeat(log, what, every=EVERY, inline=False):
    """``with heartbeat(log, lambda: "searching") as say:``: ``say(line)`` logs ``line``; a silence of
    ``every`` seconds logs ``"<what()> (<s> s)"``. ``log=None``: nothing is written. ``inline``: ``log``
    writes to stderr; when that is a terminal, the beats go to it as one line rewritten in place
    (carriage return, erase to the end), ended before the next logged line and at the block's end."""
    if log is None:
        yield lambda line: None
        return
    tty = sys.stderr if inline and sys.stderr.isatty() else None
    t0 = time.perf_counter()
    last = [t0]
    open_line = [False]             # a beat is on the terminal's current line
    lock = threading.Lock()
    stop = threading.Event()

    def close_line():
        if open_line[0]:
            tty.write("\n")
            tty.flush()
            open_line[0] = False

    def say(line):
        with lock:
            last[0] = time.perf_counter()
            close_line()
            log(line)

    def beat():
        while not stop.wait(0.25):
            with lock:
                now = time.perf_counter()
                if now - last[0] >= every and not stop.is_set():
                    last[0] = now
                    text = f"{what()} ({now - t0:.0f} s)"
                    if tty is None:
                        log(text)
                    else:
                        tty.write(f"\r\x1b[K{text}")
                        tty.flush()
                        open_line[0] = True

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield say
    finally:
        stop.set()
        thread.join()
        if tty is not None:
            close_line()


@contextmanager
def progress_lines(log, prefix, every=EVERY):
    """A ``simulate(progress=...)`` callable that writes ``"<prefix>: <line>"``, with a heartbeat
    ``"<prefix>: <the last count> (<s> s)"`` while a chunk plays (a search chunk may take many seconds)."""
    done = ["starting"]
    with heartbeat(log, lambda: f"{prefix}: {done[0]}", every) as say:

        def progress(line):
            done[0] = line.split(",")[0]
            say(f"{prefix}: {line}")
        yield progress
