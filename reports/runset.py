"""Run data: results folders with a label each, stacked (:class:`RunSet`), and the helpers every
section builder uses to read them (:func:`fit_sample`, :func:`collected`).

In a notebook::

    from reports.runset import RunSet
    rs = RunSet.from_dirs({"3p": "runs/hellas-3p"})
    rs.players.head()
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property

import polars as pl

import simcore
from analysis import load_run
from analysis._common import GAME_KEY

# ---------------------------------------------------------------- run sets

@dataclass
class RunSet:
    """Results folders with a label each, stacked; the label is in column ``group``."""

    runs: dict                 # label -> analysis.Run
    group: str = "run"
    title: str = ""
    fit_games: int = 0         # the regressions' sample (:func:`fit_sample`), games a run; 0: FIT_GAMES

    @classmethod
    def from_dirs(cls, dirs, group="run", title="", allow_partial=False):
        """``{label: folder}`` (or one folder) -> RunSet; ValueError names a bad folder.

        ``allow_partial``: accept interrupted runs (their finished chunks only).
        """
        if isinstance(dirs, (str, os.PathLike)):
            dirs = {os.path.basename(os.path.normpath(os.fspath(dirs))) or "run": dirs}
        from simcore._manifest import read_manifest

        for path in dirs.values():     # a manifest with a bad key is named here, not as a polars error later
            if os.path.isfile(os.path.join(path, "manifest.json")):
                read_manifest(path)
        runs = {label: load_run(path, allow_partial=allow_partial) for label, path in dirs.items()}
        games = {r.manifest.get("game") for r in runs.values()}
        if len(games) > 1:
            raise ValueError(f"a run set holds one game, got {sorted(map(str, games))}")
        return cls(runs=runs, group=group, title=title)

    @property
    def game(self):
        return next(iter(self.runs.values())).manifest.get("game", "?")

    @property
    def labels(self):
        return list(self.runs)

    def scan(self, table):
        """The stacked ``table`` as a LazyFrame over the runs' Parquet parts (nothing read yet).

        The sections build their queries on these, so a query reads only the columns it
        uses and a report's memory follows what its analyses keep, not the game count.
        """
        cache = self.__dict__.setdefault("_scans", {})
        if table not in cache:
            frames = [self._decorate(label, run, getattr(run, table), table) for label, run in self.runs.items()]
            frames = [lf for lf in frames if lf is not None]
            cache[table] = self._keyed(pl.concat(frames, how="diagonal_relaxed")) if frames else pl.LazyFrame()
        return cache[table]

    def batches(self, table, games=None):
        """The stacked ``table`` as LazyFrames of about ``games`` games each, in table order.

        A batch is consecutive Parquet parts of one run (a part holds whole games), with
        the columns :meth:`scan` adds; a section that adds up per-game results batch by
        batch holds one batch's rows at a time, whatever the run's size.
        """
        for (lf,) in self.batches_of([table], games):
            yield lf

    def batches_of(self, tables, games=None):
        """Tuples of batches of several ``tables``, one per table, over the same Parquet parts.

        Every table of a run has one part per finished chunk (``analysis.load_run``), so
        the batches of a tuple hold the same games: e.g. the events and the players of
        them. A run that lacks one of the tables gives no batch.
        """
        games = BATCH_GAMES if games is None else games
        n = self.n_games()
        for label, run in self.runs.items():
            files = [run.files.get(t) or [] for t in tables]
            if not all(files) or len({len(f) for f in files}) > 1:
                continue
            step = max(1, games * len(files[0]) // max(n[label], 1))
            for i in range(0, len(files[0]), step):
                lfs = [self._decorate(label, run, pl.scan_parquet(f[i:i + step]), t) for t, f in zip(tables, files)]
                if all(lf is not None for lf in lfs):
                    yield tuple(self._keyed(lf) for lf in lfs)

    def _decorate(self, label, run, lf, table):
        """``lf`` (rows of run ``label``) with the group column and, per game, ``n_players``."""
        if not lf.collect_schema().names():
            return None
        lf = lf.with_columns(pl.lit(label).alias(self.group))
        if table in ("players", "games", "events"):
            lf = lf.with_columns(pl.lit(int(run.manifest["players"]), dtype=pl.Int64).alias("n_players"))
        return lf

    def _keyed(self, out):
        out = out.with_columns(pl.col(self.group).cast(pl.Enum(list(self.runs))))
        if "game_index" in out.collect_schema().names():
            # runs stacked in label order, each in game order (parts in chunk order, rows
            # game-major): (run number, game_index) ascends through the table
            out = out.with_columns(
                ((pl.col(self.group).to_physical().cast(pl.Int64) * (1 << 40))
                 + pl.col("game_index").cast(pl.Int64)).set_sorted().alias(GAME_KEY))
        return out

    def has(self, table):
        """Whether any run wrote ``table`` (a run with ``--no-events`` has no events)."""
        return bool(self.scan(table).collect_schema().names())

    def columns(self, table):
        return self.scan(table).collect_schema().names()

    def _stack(self, table):
        return self.scan(table).collect() if self.has(table) else pl.DataFrame()

    @cached_property
    def players(self):
        return self._stack("players")

    @cached_property
    def games(self):
        return self._stack("games")

    @cached_property
    def events(self):
        return self._stack("events")

    @cached_property
    def categories(self):
        """The game's scoring categories (its ``SCORE_CATEGORIES``); for a game this
        installation does not know, the players columns between ``strategy`` and ``total``."""
        cols = self.columns("players")
        if self.game in simcore.games:
            return [c for c in simcore.games[self.game].SCORE_CATEGORIES if c in cols]
        if "strategy" in cols and "total" in cols:
            return cols[cols.index("strategy") + 1: cols.index("total")]
        return []

    def n_games(self):
        """Games in each run's tables (of an interrupted run: its finished chunks)."""
        if not hasattr(self, "_n_games"):
            self._n_games = {label: int(run.games.select(pl.len()).collect().item())
                             for label, run in self.runs.items()}
        return self._n_games

    def games_text(self):
        """'20,000 games' or '20,000 games per run (3 runs, 60,000 in all)'."""
        n = self.n_games()
        vals = set(n.values())
        total = sum(n.values())
        if len(n) == 1:
            return f"{total:,} games"
        if len(vals) == 1:
            return f"{next(iter(vals)):,} games per {self.group} ({len(n)} {self.group}s, {total:,} in all)"
        return f"{min(vals):,}–{max(vals):,} games per {self.group} ({total:,} in all)"


#: Row-level regressions (category logit, quarry luck) are fitted on the games
#: with ``game_index`` below this in each run: the first games of a run are a
#: reproducible simple random sample (every game has its own seed), their CIs
#: are those of that sample, and the caption says so. Runs this size or smaller
#: are fitted whole.
FIT_GAMES = 1_000_000

#: Sections that add up per-game results do it over batches of about this many
#: games (``RunSet.batches``), so their memory is that of one batch.
BATCH_GAMES = 500_000


def fit_sample(rs, table="players", limit=None):
    """``(scan, note)``: the table restricted to the regression sample, and a caption note ("" if whole).

    The sample is the first ``limit`` games of each run (default: the run set's ``fit_games``, a study
    part's key, else :data:`FIT_GAMES`)."""
    limit = (getattr(rs, "fit_games", 0) or FIT_GAMES) if limit is None else limit
    lf = rs.scan(table)
    if max(rs.n_games().values()) <= limit:
        return lf, ""
    return (lf.filter(pl.col("game_index") < limit),
            f" Regression fitted on the first {limit:,} games of each run (a reproducible sample; "
            f"CIs are the sample's).")


def collected(frame):
    """An analysis result as a DataFrame (the sections pass LazyFrames, so results come back lazy)."""
    return frame.collect(engine="streaming") if isinstance(frame, pl.LazyFrame) else frame

