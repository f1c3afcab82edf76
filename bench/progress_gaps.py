"""Run a command and time the silences between its output lines (stdout and stderr together).

    PYTHONPATH=. python bench/progress_gaps.py [--top 5] [--over 2] [--log FILE] -- CMD ARGS...

Every line the command prints (a carriage return ends a line too) is stamped with the
seconds since the start; at the end the longest gaps without any output are listed with
the line printed before and the line that ended them, and the command's wall time. The
target of issue 35: no wait over 2 s without progress. ``--log`` keeps every stamped line.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def stamped(cmd, env=None):
    """``(lines, wall, returncode)``: ``lines`` are ``(seconds, text)`` in the order printed."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, bufsize=0)
    lines, buf = [], b""
    while True:
        chunk = proc.stdout.read1(65536) if hasattr(proc.stdout, "read1") else proc.stdout.read(1)
        now = time.perf_counter() - t0
        if not chunk:
            break
        buf += chunk
        while True:
            cut = [i for i in (buf.find(b"\n"), buf.find(b"\r")) if i >= 0]
            if not cut:
                break
            i = min(cut)
            text = buf[:i].decode("utf-8", "replace")
            buf = buf[i + 1:]
            if text.strip():
                lines.append((now, text))
    if buf.strip():
        lines.append((time.perf_counter() - t0, buf.decode("utf-8", "replace")))
    rc = proc.wait()
    return lines, time.perf_counter() - t0, rc


def gaps(lines, wall):
    """``[(seconds, before, after)]``: each silence, the start and the end included."""
    out, prev_t, prev = [], 0.0, "(start)"
    for t, text in lines:
        out.append((t - prev_t, prev, text))
        prev_t, prev = t, text
    out.append((wall - prev_t, prev, "(exit)"))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=5, help="gaps to list (default 5)")
    ap.add_argument("--over", type=float, default=2.0, help="count the gaps over this many seconds")
    ap.add_argument("--log", default=None, help="write every stamped line to this file")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd:
        ap.error("give the command after --")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    lines, wall, rc = stamped(cmd, env)
    if a.log:
        with open(a.log, "w", encoding="utf-8") as fh:
            for t, text in lines:
                fh.write(f"{t:8.2f}  {text}\n")
    g = gaps(lines, wall)
    over = [x for x in g if x[0] > a.over]
    print(f"{' '.join(cmd)}: exit {rc}, {wall:.1f} s wall, {len(lines)} lines, "
          f"{len(over)} gaps over {a.over:g} s")
    for sec, before, after in sorted(g, key=lambda x: -x[0])[:a.top]:
        print(f"  {sec:6.1f} s  after: {before[:90]}")
        print(f"           until: {after[:90]}")
    return 0 if rc == 0 else rc


if __name__ == "__main__":
    sys.exit(main())
