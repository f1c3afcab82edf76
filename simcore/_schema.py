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
import json
import math
import numbers


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


def validate(doc, schema, path, kind):
    """``doc`` if it fits ``schema``; else ``ValueError`` "KIND file PATH: field F ...; allowed ..."."""
    def fail(field, problem):
        raise ValueError(f"{kind} file {path}: " + (f"field {field} {problem}" if field else f"the document {problem}"))
    schema.check(doc, "", fail)
    return doc
