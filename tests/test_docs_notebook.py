"""docs/notebook.ipynb runs from top to bottom, and docs/notebook.md is its rendering.

The notebook is executed in a fresh kernel (nbclient) whose working folder is a temporary one, with
this checkout first on PYTHONPATH. Its text outputs are rendered to Markdown and compared with the
committed docs/notebook.md; the figures go to docs/notebook_files/. After changing the notebook or
what it prints, regenerate both with ``python tests/test_docs_notebook.py``.
"""
import base64
import os
import sys
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "notebook.ipynb"
RENDERED = ROOT / "docs" / "notebook.md"
FILES = "notebook_files"


def execute(timeout=600):
    """The notebook, executed in a temporary folder; returns the executed notebook."""
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = str(ROOT) + (os.pathsep + env_path if env_path else "")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            NotebookClient(nb, timeout=timeout, kernel_name="python3",
                           resources={"metadata": {"path": tmp}}).execute()
    finally:
        if env_path:
            os.environ["PYTHONPATH"] = env_path
        else:
            os.environ.pop("PYTHONPATH", None)
    return nb


def render(nb):
    """(markdown text, {file name: PNG bytes}): code cells as python blocks, their outputs as text blocks."""
    out, images = [], {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            out.append(cell.source.strip())
            continue
        out.append("```python\n" + cell.source.strip() + "\n```")
        for o in cell.get("outputs", []):
            if o.output_type == "stream" and o.name == "stdout":
                out.append("```text\n" + o.text.rstrip() + "\n```")
            elif o.output_type in ("execute_result", "display_data"):
                data = o.get("data", {})
                if "image/png" in data:
                    name = f"cell{i:02d}.png"
                    images[name] = base64.b64decode(data["image/png"])
                    out.append(f"![figure of the cell above]({FILES}/{name})")
                elif "text/plain" in data:
                    out.append("```text\n" + data["text/plain"].rstrip() + "\n```")
            elif o.output_type == "error":
                raise AssertionError(f"cell {i} failed: {o.ename}: {o.evalue}")
    head = ("<!-- Rendered from docs/notebook.ipynb by `python tests/test_docs_notebook.py`; "
            "tests/test_docs_notebook.py checks it. -->")
    return head + "\n\n" + "\n\n".join(out) + "\n", images


def write():
    text, images = render(execute())
    RENDERED.write_text(text, encoding="utf-8")
    folder = RENDERED.parent / FILES
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    for name, png in images.items():
        (folder / name).write_bytes(png)
    print(f"wrote {RENDERED} and {len(images)} figure(s) in {folder}")


def test_notebook_runs_and_its_rendering_is_committed():
    text, images = render(execute())
    committed = RENDERED.read_text(encoding="utf-8")
    assert text == committed, ("docs/notebook.md differs from the notebook's outputs: regenerate it with "
                               "`python tests/test_docs_notebook.py` and review the diff")
    for name in images:     # the figures' pixels may vary with the fonts; that they exist is checked
        assert (RENDERED.parent / FILES / name).is_file(), name
    assert "win_share" in text and "elo" in text and "compensation" in text


if __name__ == "__main__":
    sys.exit(write())
