"""Figure workers: figures rendered in other processes while this one computes the next sections, and
:func:`save`, which writes one figure's PNG and SVG."""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time

import matplotlib
from matplotlib.figure import Figure

#: the report's progress lines come at most this often
PROGRESS_SECONDS = 1.0

#: the PNGs' resolution
PNG_DPI = 110


def save(fig: Figure, stem: str, svg: bool = True) -> tuple[str, str | None]:
    """Write ``stem.png`` (110 dpi) and ``stem.svg``; return both paths (``None`` for no SVG).

    The layout is done once: the layout engine runs at the PNG's dpi, the
    tight box is measured, then the layout is frozen and both files are
    printed inside that box (``savefig(bbox_inches="tight")`` per file would
    lay out and draw the figure twice for each). The SVG carries no date and
    its element ids are salted with the file name, so the same figure gives
    the same bytes on every run.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    png = f"{stem}.png"
    canvas = FigureCanvasAgg(fig)
    fig.set_dpi(PNG_DPI)
    renderer = canvas.get_renderer()
    if fig.get_layout_engine() is not None:
        fig.get_layout_engine().execute(fig)
    box = fig.get_tightbbox(renderer).padded(matplotlib.rcParams["savefig.pad_inches"])
    fig.set_layout_engine("none")
    fig.savefig(png, dpi=PNG_DPI, bbox_inches=box, pil_kwargs={"compress_level": 1})   # 8% larger, 1.5x faster
    if not svg:
        return png, None
    with matplotlib.rc_context({"svg.hashsalt": os.path.basename(stem)}):
        fig.savefig(f"{stem}.svg", bbox_inches=box, metadata={"Date": None})
    return png, f"{stem}.svg"


class BackgroundFigures:
    """Renders figures in worker processes while this process computes the next sections.

    A report's figures need nothing but themselves to be rendered. At
    creation, one worker per other core is forked (``boardlab report`` makes
    it before the analysis starts any thread); each section's figures are pickled to them as the
    section is built (:meth:`add`; a few milliseconds a figure), and the
    workers render them into a scratch folder while this process goes on, so
    the rendering overlaps the analysis instead of following it. :meth:`finish`
    renders here what the workers have not taken yet, waits for them, and
    renders again here whatever a worker failed on (or a figure that cannot be
    pickled). :meth:`move` puts a figure's files where :func:`write_report`
    wants them. Without ``fork`` (or with one core) everything is rendered in
    :meth:`finish`.
    """

    def __init__(self, workers=None, log=None):
        import multiprocessing as mp

        # log: a line of progress (sections built, figures drawn) at most every PROGRESS_SECONDS
        self.log, self.t0 = log, time.perf_counter()
        self.last, self.n_sections = self.t0, 0

        if workers is None:
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        self.fork = workers >= 2 and "fork" in mp.get_all_start_methods()
        self.dir = tempfile.mkdtemp(prefix="boardlab-figures-")
        self.stems = {}          # id(Fig) -> scratch stem
        self.figures = {}        # scratch stem -> matplotlib Figure
        self.local = []          # stems rendered here (no worker, or the figure does not pickle)
        self.sent = []           # stems handed to the workers
        self.procs = []
        if self.fork:
            import matplotlib.backends.backend_agg  # noqa: F401   imported once here, not in every worker
            import matplotlib.backends.backend_svg  # noqa: F401

            ctx = mp.get_context("fork")
            self.jobs, self.done = ctx.Queue(), ctx.SimpleQueue()
            # a worker is born with the parent's signals blocked until it set its own handlers: a SIGTERM
            # in between (the parent ending at once) would run the CLI's handler there, a traceback
            stop = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
            old = signal.pthread_sigmask(signal.SIG_BLOCK, stop)
            try:
                for _ in range(workers - 1):
                    proc = ctx.Process(target=_render_jobs, args=(self.jobs, self.done), daemon=True)
                    proc.start()
                    self.procs.append(proc)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

        self._current, self._stop = "the first sections", None
        if log is not None:          # after the fork above: a thread never forks
            import threading

            self._stop = threading.Event()
            threading.Thread(target=self._heartbeat, daemon=True).start()

    def _heartbeat(self):
        """A line when a section takes longer than the progress interval (the analysis holds no lock)."""
        while not self._stop.wait(0.25):
            if time.perf_counter() - self.last >= PROGRESS_SECONDS:
                self._progress(f"report: still working ({self._current})", force=True)

    def add(self, sections):
        """Queue the figures of ``sections`` for the workers."""
        self.add_figures([f for sec in sections for f in sec.figures])
        self.n_sections += len(sections)
        if sections:
            self._current = f"last built: \"{sections[-1].title}\""
            self._progress(f"report: {sections[-1].title} ({self.n_sections} sections built, "
                           f"{len(self.stems)} figures queued)")

    def _progress(self, line, force=False):
        now = time.perf_counter()
        if self.log is not None and (force or now - self.last >= PROGRESS_SECONDS):
            self.last = now
            self.log(f"{line}, {now - self.t0:.0f} s")

    def add_figures(self, figs):
        """Queue ``figs`` (:class:`Fig`; those queued before are skipped) for the workers."""
        import pickle

        for f in figs:
            if id(f) in self.stems:
                continue
            stem = self.stems[id(f)] = os.path.join(self.dir, f"fig{len(self.stems)}")
            self.figures[stem] = f.figure
            blob = None
            if self.procs:
                try:
                    blob = pickle.dumps(f.figure, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:        # a plug-in's figure with a lambda in it: rendered here
                    blob = None
            if blob is None:
                self.local.append(stem)
            else:
                self.jobs.put((stem, blob))
                self.sent.append(stem)

    def finish(self):
        """Render here what no worker has taken, then what is local; wait; render what a worker failed on."""
        import queue

        mine, ok = set(), set()
        total = len(self.figures)
        self._progress(f"report: {self.n_sections} sections built; drawing the figures", force=True)

        def drawn():
            self._current = f"{len(mine | ok)} of {total} figures drawn"
            self._progress(f"report: {len(mine | ok)} of {total} figures drawn "
                           f"({100 * len(mine | ok) // max(total, 1)} %)")
        if self.procs:
            while True:              # the workers and this process share what is left, oldest first
                try:
                    stem, _ = self.jobs.get(timeout=0.05)
                except queue.Empty:
                    break
                save(self.figures[stem], stem)
                mine.add(stem)
                ok |= self._rendered()
                drawn()
        for stem in self.local:
            save(self.figures[stem], stem)
            mine.add(stem)
            drawn()
        if self.procs:
            for _ in self.procs:
                self.jobs.put(None)
            while self.procs:        # read the reports while waiting: a worker never blocks on a full pipe
                ok |= self._rendered()
                drawn()
                for proc in self.procs:
                    proc.join(timeout=0.02)
                self.procs = [proc for proc in self.procs if proc.exitcode is None]
            ok |= self._rendered()
            self.jobs.close()
        for stem in self.sent:       # a worker failed or died on it
            if stem not in ok and stem not in mine:
                save(self.figures[stem], stem)
        self.local, self.sent = [], []

    def _rendered(self):
        """The stems the workers have reported rendered since the last call."""
        ok = set()
        while not self.done.empty():
            stem, worked = self.done.get()
            if worked:
                ok.add(stem)
        return ok

    def move(self, fig, stem):
        """Move ``fig``'s rendered PNG and SVG to ``stem``.png / .svg."""
        src = self.stems[id(fig)]
        for ext in (".png", ".svg"):
            shutil.move(src + ext, stem + ext)

    def close(self):
        if self._stop is not None:
            self._stop.set()
        if self.procs:               # finish() was not reached (an error in a section): stop the workers
            for proc in self.procs:
                proc.terminate()
            self.jobs.cancel_join_thread()    # what is still unsent is dropped, not waited for at exit
            self.procs = []
        shutil.rmtree(self.dir, ignore_errors=True)


def _render_jobs(jobs, done):
    """A figure worker: render each ``(stem, pickled figure)`` of ``jobs`` until ``None``; report each to ``done``."""
    import pickle

    from simcore._run_pools import _watch_parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's: it stops the workers (close)
    for name in ("SIGTERM", "SIGHUP"):                 # the CLI's handlers would print a traceback here
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())  # blocked by the parent until now (Renderer)
    _watch_parent(os.getppid())                       # the parent killed with -9: end within a second
    while (job := jobs.get()) is not None:
        stem, blob = job
        try:
            save(pickle.loads(blob), stem)
            done.put((stem, True))
        except Exception:
            done.put((stem, False))
