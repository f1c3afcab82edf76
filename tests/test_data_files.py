"""A data file edited in place (same path) is read again by the next configuration of every
game — the config caches and the engines' compiled tables are keyed by each file's stamp."""
import json

import numpy as np

from simcore import hellas
from simcore._data import data_stamp
from simcore.hellas import config as H


def test_hellas_quarry_file_edited_in_place(tmp_path):
    tiles = json.loads((H.DATA_DIR / "quarry_tiles.json").read_text())
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(tiles))
    a = hellas.make_config(3, quarry_yields=str(path))
    seeds = np.arange(30, dtype=np.uint64)
    before = hellas.play_batch(3, seeds, config=a, events=False)
    for t in tiles["tiles"]:
        t["marble"] = 5
    path.write_text(json.dumps(tiles, indent=1))
    b = hellas.make_config(3, quarry_yields=str(path))
    assert b is not a and b != a and set(b.tiles.yields.values()) == {5}
    after = hellas.play_batch(3, seeds, config=b, events=False)
    assert not np.array_equal(before["players"]["total"], after["players"]["total"])
    # unchanged files: the same cached configuration
    assert hellas.make_config(3, quarry_yields=str(path)) is b


def test_data_stamp_covers_the_package_files_and_the_users(tmp_path):
    mine = tmp_path / "mine.json"
    mine.write_text("{}")
    stamp = data_stamp(H.DATA_DIR, [str(mine), "default", "pegasus"])
    names = [s[0] for s in stamp]
    assert str(mine) in names and any(n.endswith("actions.json") for n in names)
    assert len(names) == len(list(H.DATA_DIR.glob("*.json"))) + 1
    mine.write_text("{ }")
    assert dict((s[0], s[1:]) for s in data_stamp(H.DATA_DIR, [str(mine)]))[str(mine)][1] == 3
