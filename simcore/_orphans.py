"""A pool worker dies with its parent: a watcher thread, started as early as the worker imports simcore.

No numpy here: a worker still importing (seconds on a loaded machine) already watches.
"""
import os
import signal
import threading
import time

_watched_parent = None


def _watch_parent(parent, quiet_ctrl_c=True):
    """In a pool worker: exit as soon as the parent process ``parent`` is gone (killed with -9, say); ignore Ctrl-C.

    loky keeps idle workers alive for minutes and lets busy ones finish their
    queued chunks; a daemon thread polling ``getppid`` ends them within a second.
    """
    global _watched_parent
    if quiet_ctrl_c and parent is not None and _watched_parent == parent:
        _ignore_ctrl_c()                 # watched since the import: a pool task quiets Ctrl-C too
    if parent is None or _watched_parent == parent or os.getpid() == parent or os.getppid() != parent:
        return
    _watched_parent = parent
    if quiet_ctrl_c:
        _ignore_ctrl_c()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="boardlab-parent-watch", daemon=True).start()


def _ignore_ctrl_c():
    """Ctrl-C reaches the whole process group: the parent stops the pool, a worker says nothing."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:          # not the main thread
        pass


def quiet_worker_spawns():
    """Start every loky worker with Ctrl-C blocked, so that one still importing (numpy, joblib: seconds
    on a loaded machine, before :func:`_watch_parent` can quiet it) prints no ``KeyboardInterrupt``
    traceback when Ctrl-C reaches the process group; the parent alone stops the pool.

    A blocked signal stays blocked across ``fork`` and ``exec`` (POSIX), and loky spawns its workers
    from whichever thread resizes the pool, so the mask is set in that thread around the spawn only
    (a Ctrl-C meanwhile waits a moment and reaches the parent as usual). Workers still end with
    SIGTERM, with their parent (:func:`_watch_parent`) and with SIGKILL. Idempotent; a joblib
    without loky's ``fork_exec`` is left alone.
    """
    try:
        from joblib.externals.loky.backend import fork_exec as fe
    except ImportError:
        return
    spawn = getattr(fe, "fork_exec", None)
    if spawn is None or getattr(spawn, "_boardlab_quiet", False):
        return

    def quiet_fork_exec(*args, **kwargs):
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return spawn(*args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

    quiet_fork_exec._boardlab_quiet = True
    fe.fork_exec = quiet_fork_exec
