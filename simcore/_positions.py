"""A position given to ``State.from_dict`` is checked like a data file: what the engine keeps must be what was given.

Every engine's ``from_dict`` builds the position field by field into its C
state; :func:`checked` wraps that build. A field of the wrong kind that the
build does not catch (Python's ``TypeError``, ``OverflowError`` of a value
beyond the field's integer width, ``IndexError``/``KeyError`` of a missing
entry) becomes one ``ValueError`` naming the position's game and the
problem. Then the built position is read back (``to_dict``): every number the
caller gave must come back of the same kind and not wrapped — a 2.5 truncated
to 2, ``true`` taken for 1 or 300 wrapped to 44 in 8 bits is refused, naming
the field (``seats[0].drachmas``). (A position may move on to its next
decision as it loads, so other changes are allowed.) Keys the caller left
out are the engine's to fill (its documented defaults).
"""
import numbers

_SKIP = {"config", "seed", "format", "game"}


def checked(build, d, config, game):
    """``build(d, config)``, its errors as one ``ValueError``, its result compared with ``d``."""
    prefix = f"bad {game} position: "
    if not isinstance(d, dict):
        raise ValueError(prefix + f"expected a dict (a position of to_dict), not {type(d).__name__}")
    try:
        st = build(d, config)
    except ValueError:
        raise
    except KeyError as exc:
        raise ValueError(prefix + f"missing key {exc}") from None
    except (TypeError, OverflowError, IndexError, AttributeError) as exc:
        raise ValueError(prefix + f"a field of the wrong kind or out of range ({' '.join(str(exc).split())})") \
            from None
    problem = _differs(d, st.to_dict(), "")
    if problem:
        raise ValueError(prefix + problem)
    return st


def _kind(v):
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, numbers.Integral):
        return "a whole number"
    if isinstance(v, numbers.Real):
        return "a number"
    return type(v).__name__


def _show(v):
    text = repr(v)
    return text if len(text) <= 30 else text[:27] + "..."


def _differs(given, back, path):
    """The first place where ``back`` (the engine's reading) differs from ``given``, as a phrase, or None."""
    if isinstance(given, dict) and isinstance(back, dict):
        for k, v in given.items():
            if k in _SKIP or k not in back:
                continue
            p = f"{path}.{k}" if path else str(k)
            problem = _differs(v, back[k], p)
            if problem:
                return problem
        return None
    if isinstance(given, (list, tuple)) and isinstance(back, (list, tuple)):
        if len(given) != len(back):
            return None                      # a list the engine reads in another form (a count, a set)
        for i, (a, b) in enumerate(zip(given, back)):
            problem = _differs(a, b, f"{path}[{i}]")
            if problem:
                return problem
        return None
    scalar = (bool, numbers.Real)
    if isinstance(back, scalar) and isinstance(given, scalar):
        if isinstance(back, bool) != isinstance(given, bool) or (
                isinstance(back, numbers.Integral) and not isinstance(given, numbers.Integral)):
            return f"field {path} is {_show(given)}; it must be {_kind(back)}"
        # the position may move on to its next decision (a field may change), but a change by a multiple
        # of 256 is a value wrapped in the field's 8, 16 or 32 bits
        if isinstance(back, numbers.Integral) and given != back and (given - back) % 256 == 0:
            return f"field {path} is {_show(given)}, beyond what the engine holds there (read back as {_show(back)})"
    return None
