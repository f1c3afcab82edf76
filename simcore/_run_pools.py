"""Worker pools of the runner: the worker count, the joblib/dask pool, workers that die with their parent.

Part of the runner (``simcore.run``).
"""
import os
import socket

import numpy as np

from simcore._orphans import _watch_parent  # noqa: F401   (the pools' workers call it)


def _resolve_workers(workers):
    if workers is None or workers == -1:
        try:
            return len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            return os.cpu_count() or 1
    if not isinstance(workers, (int, np.integer)) or workers <= 0:
        raise ValueError(f"workers must be a positive integer, not {workers}")
    return int(workers)


def _check_dask(scheduler, timeout=5.0):
    """ValueError, naming the fix, when dask is not installed or the scheduler's TCP address does not answer."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise ValueError("the dask backend needs dask[distributed]: pip install 'boardlab[cluster]'") from None
    if not scheduler or not (scheduler.startswith("tcp://") or "://" not in scheduler):
        return                        # a LocalCluster, or a transport this check does not speak
    host, _, port = scheduler.split("://", 1)[-1].rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot reach the dask scheduler {scheduler} ({exc}); "
                         f"check the address (tcp://HOST:PORT)") from None


class _Pool:
    """A joblib Parallel for the chosen backend; dask gets a Client (a LocalCluster without a scheduler address)."""

    def __init__(self, backend, workers, scheduler):
        self.backend, self.workers, self.scheduler = backend, workers, scheduler
        self.client = self.cluster = None

    def __enter__(self):
        import joblib

        from simcore._orphans import quiet_worker_spawns
        quiet_worker_spawns()            # a worker still starting says nothing of a Ctrl-C

        if self.backend == "dask":
            try:
                from dask.distributed import Client, LocalCluster
            except ImportError:
                raise ValueError("the dask backend needs dask[distributed]: pip install 'boardlab[cluster]'") from None
            if self.scheduler:
                try:
                    self.client = Client(self.scheduler, timeout="10s")
                except OSError as exc:
                    raise ValueError(f"cannot reach the dask scheduler {self.scheduler} ({exc}); "
                                     f"check the address (tcp://HOST:PORT)") from None
            else:
                self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                            processes=True, host="127.0.0.1", dashboard_address=None)
                self.client = Client(self.cluster)
            self._cfg = joblib.parallel_config(backend="dask")
            self._cfg.__enter__()
            self.parallel = joblib.Parallel(n_jobs=-1, return_as="generator_unordered")
        else:
            n = self.workers
            self.parallel = joblib.Parallel(n_jobs=n, backend=self.backend if n > 1 else "sequential",
                                            return_as="generator_unordered", pre_dispatch="2*n_jobs")
        return self.parallel

    def __exit__(self, *exc):
        if self.backend == "dask":
            self._cfg.__exit__(*exc)
            if self.client is not None:
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        return False
