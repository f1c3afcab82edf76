"""The import depth of reports/ (issue 31), counted as ``tests/test_layering.py`` counts it: every import,
those by name (``import_module``, ``__import__``) too, a module's import of its own package left out only
when that package's ``__init__`` only hands names on.

    python bench/import_depth.py          # the longest chain, then every module's height (longest chain from it)
    python bench/import_depth.py 4        # also every maximal chain longer than 4 modules
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import test_layering as T  # noqa: E402


def main(longer_than=None):
    mods, graph = T._graph()
    faces = T._faces(mods)
    members = {m for m in graph if m.startswith("reports.")}
    short = lambda m: m.removeprefix("reports.")         # noqa: E731

    def links(v):
        return sorted(w for w in graph[v] & members if not (w in faces and v.startswith(w + ".")))

    heights = {}

    def height(v, seen=frozenset()):
        if v not in heights:
            heights[v] = 1 + max((height(w, seen | {v}) for w in links(v) if w not in seen), default=0)
        return heights[v]

    chain = T._depth(graph, members, faces)
    print(f"longest chain: {len(chain)} modules: {' -> '.join(map(short, chain))} "
          f"(at most {T.MAX_REPORTS_DEPTH})")
    for m in sorted(members, key=lambda m: (-height(m), m)):
        print(f"{height(m)}  {short(m)}" + (f"  -> {', '.join(short(w) for w in links(m))}" if links(m) else ""))
    if longer_than is None:
        return
    out = set()

    def walk(path):
        nxt = [w for w in links(path[-1]) if w not in path]
        for w in nxt:
            walk(path + [w])
        if not nxt and len(path) > longer_than:
            out.add(tuple(path))
    for m in sorted(members):
        walk([m])
    print(f"\n{len(out)} chains longer than {longer_than}:")
    for c in sorted(out, key=lambda c: (-len(c), c)):
        print(len(c), " -> ".join(map(short, c)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None)
