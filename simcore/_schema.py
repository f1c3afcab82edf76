"""Declared schemas of the component data files, checked before any game (plain checks, no library).

A schema is a tree of the small classes below; :func:`validate` walks a JSON
document along it and raises one ``ValueError`` naming the file, the field
(``tiles[3].pp``) and what is allowed (``0..50``), with the reason of a range
(the engine's integer width, the rules' limit). Keys a schema does not name
are allowed (the files carry notes, sources and statuses); every key it names
is required unless declared optional.

Examples
--------
>>> validate({"pp": 10**6}, Obj(pp=Int(0, 50, "points are counted in 16 bits")), "b.json", "buildings")
Traceback (most recent call last):
...
ValueError: buildings file b.json: field pp is 1000000; allowed 0..50 (points are counted in 16 bits)
"""
import functools
import json
import math
import numbers
import os


class Int:
    """A whole number in ``lo..hi`` (a JSON integer; 3.0 is accepted as 3)."""

    def __init__(self, lo, hi, why=""):
        self.lo, self.hi, self.why = lo, hi, why

    def check(self, v, path, fail):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or (isinstance(v, float) and not v.is_integer()):
            fail(path, f"is {_show(v)}; it must be a whole number {self.lo}..{self.hi}")
        if not self.lo <= v <= self.hi:
            fail(path, f"is {_show(v)}; allowed {self.lo}..{self.hi}" + (f" ({self.why})" if self.why else ""))


class Num:
    """A finite number in ``lo..hi``."""

    def __init__(self, lo, hi, why=""):
        self.lo, self.hi, self.why = lo, hi, why

    def check(self, v, path, fail):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            fail(path, f"is {_show(v)}; it must be a number {self.lo}..{self.hi}")
        if not self.lo <= v <= self.hi:
            fail(path, f"is {_show(v)}; allowed {self.lo}..{self.hi}" + (f" ({self.why})" if self.why else ""))


class Str:
    """A string; with ``choices``, one of them."""

    def __init__(self, *choices):
        self.choices = choices

    def check(self, v, path, fail):
        if not isinstance(v, str):
            fail(path, f"is {_show(v)}; it must be a string" + (f" ({'/'.join(self.choices)})" if self.choices else ""))
        if self.choices and v not in self.choices:
            fail(path, f"is {_show(v)}; allowed: {', '.join(self.choices)}")


class Bool:
    def check(self, v, path, fail):
        if not isinstance(v, bool):
            fail(path, f"is {_show(v)}; it must be true or false")


class Nullable:
    """``None`` or what ``spec`` allows."""

    def __init__(self, spec):
        self.spec = spec

    def check(self, v, path, fail):
        if v is not None:
            self.spec.check(v, path, fail)


class Arr:
    """A list of ``lo..hi`` items, each as ``item`` says."""

    def __init__(self, item, lo=0, hi=None, why=""):
        self.item, self.lo, self.hi, self.why = item, lo, hi, why

    def check(self, v, path, fail):
        if not isinstance(v, list):
            fail(path, f"is {_show(v)}; it must be a list")
        if len(v) < self.lo or (self.hi is not None and len(v) > self.hi):
            span = f"{self.lo}..{self.hi}" if self.hi is not None else f"at least {self.lo}"
            fail(path, f"has {len(v)} items; allowed {span}" + (f" ({self.why})" if self.why else ""))
        for i, x in enumerate(v):
            self.item.check(x, f"{path}[{i}]", fail)


class Obj:
    """An object with the named fields (``_optional``: fields that may be missing)."""

    def __init__(self, _optional=(), **fields):
        self.fields, self.optional = fields, set(_optional)

    def check(self, v, path, fail):
        if not isinstance(v, dict):
            fail(path, f"is {_show(v)}; it must be an object" + (
                f" with {', '.join(self.fields)}" if self.fields else ""))
        for key, spec in self.fields.items():
            where = f"{path}.{key}" if path else key
            if key not in v:
                if key in self.optional:
                    continue
                fail(where, "is missing")
            spec.check(v[key], where, fail)


class Map:
    """An object of any keys (``keys``: the allowed ones), each value as ``value`` says."""

    def __init__(self, value, keys=None):
        self.value, self.keys = value, keys

    def check(self, v, path, fail):
        if not isinstance(v, dict):
            fail(path, f"is {_show(v)}; it must be an object")
        for key, x in v.items():
            where = f"{path}.{key}" if path else str(key)
            if self.keys is not None and key not in self.keys:
                fail(where, f"is not a known key (allowed: {', '.join(map(str, self.keys))})")
            self.value.check(x, where, fail)


class Any:
    def check(self, v, path, fail):
        pass


def _show(v):
    text = json.dumps(v) if not isinstance(v, float) or math.isfinite(v) else str(v)
    return text if len(text) <= 40 else text[:37] + "..."


def validate(doc, schema, path, kind, like=None):
    """``doc`` if it fits ``schema``; else ``ValueError`` "KIND file PATH: field F ...; allowed ...".

    ``like``: the package's own file of this kind. Every field of ``doc`` that
    the package file also has must then be of the same kind (see
    :func:`_like`): a field the schema does not name (the engine does not read
    it, or only a report or the viewer does) still cannot hold NaN, a string
    for a number or a count beyond 16 bits unseen.
    """
    def fail(field, problem):
        raise ValueError(f"{kind} file {path}: " + (f"field {field} {problem}" if field else f"the document {problem}"))
    schema.check(doc, "", fail)
    if like is not None and os.path.abspath(os.fspath(path)) != os.path.abspath(os.fspath(like)):
        _like(doc, [_package(os.fspath(like))], "", fail)
    return doc


_NOTES = ("status", "sources", "source", "note", "notes", "text", "description", "name", "title")
WIDTH = 32767        # every count, id and value of the three games fits a signed 16-bit field


@functools.lru_cache(maxsize=32)
def _package(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _kind(v):
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, numbers.Real):
        return "a number"
    return {str: "a string", list: "a list", dict: "an object"}.get(type(v), "null")


def _like(v, pkgs, path, fail, keyed=True):
    """``v`` against the package's values ``pkgs`` at the same place (every item of a list is one place):
    the same kind; numbers finite, whole where the package's all are, within 16 bits; a list the package
    keys by name (not a list item) not empty where the package's is not."""
    by_kind = {}
    for p in pkgs:
        by_kind.setdefault(_kind(p), []).append(p)
    if not by_kind or "null" in by_kind and v is None:
        return
    by_kind.pop("null", None)
    if not by_kind:
        return
    same = by_kind.get(_kind(v))
    if same is None:
        fail(path, f"is {_show(v)}; it must be {' or '.join(by_kind)}, as in the package's file")
    if isinstance(v, dict):
        for key, x in v.items():
            if key in _NOTES or str(key).endswith("_note"):
                continue
            _like(x, [p[key] for p in same if key in p], f"{path}.{key}" if path else str(key), fail)
    elif isinstance(v, list):
        if keyed and not v and all(same):
            fail(path, f"is empty; the package's file lists {len(same[0])} items here")
        items = [x for p in same for x in p]
        for i, x in enumerate(v):
            _like(x, items, f"{path}[{i}]", fail, keyed=False)
    elif isinstance(v, numbers.Real) and not isinstance(v, bool):
        if not math.isfinite(v):
            fail(path, f"is {_show(v)}; it must be a finite number")
        if all(float(p).is_integer() for p in same) and not float(v).is_integer():
            fail(path, f"is {_show(v)}; it must be a whole number, as in the package's file")
        if abs(v) > WIDTH:
            fail(path, f"is {_show(v)}; allowed -{WIDTH}..{WIDTH} (the engines hold numbers in 16 bits)")
