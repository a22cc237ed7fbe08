"""An IPython extension that the site's notebooks load: a cell that needs a CUDA GPU runs where
torch sees one, and elsewhere prints one line saying why and leaves its code unrun.

    %load_ext docexec.notebook

    %%needs_cuda
    x = torch.ones(2, device="cuda")

Jupyter's "Run all" (JupyterLab's, Colab's, nbclient's) stops at the first cell that raises, so a
snippet declared ``cuda`` cannot simply fail on a CPU: the rest of the page would never run. A cell
magic is given the cell's code and decides whether to run it. Where it runs, the cell is as it
would be without the mark: an error in it fails the cell, and "Run all" stops there.

Nothing here is imported until a notebook loads it; torch is imported by the first marked cell.
"""

from __future__ import annotations

import ast
import linecache

MAGIC = "needs_cuda"
SKIPPED = "Skipped: this cell needs a CUDA GPU, and torch sees none here (torch.cuda.is_available() is False)"


def cuda_available() -> bool:
    """What the cell's own ``torch.cuda`` would say; no torch at all is no GPU either."""
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def needs_cuda(line: str, cell: str) -> object:
    """The ``%%needs_cuda`` cell magic (see the module's docstring). Where it runs the cell, the
    cell behaves as if unmarked: its names are the notebook's, its last expression is shown, and
    an error is the cell's error, shown once (IPython hides this function's frame)."""
    __tracebackhide__ = True  # noqa: F841  read by IPython's traceback
    from IPython import get_ipython

    if not cuda_available():
        print(SKIPPED + ".")
        return None
    shell = get_ipython()
    tree = shell.transform_ast(shell.compile.ast_parse(shell.transform_cell(cell)))
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    filename = f"<cell marked %%{MAGIC}>"
    linecache.cache[filename] = (len(cell), None, cell.splitlines(keepends=True), filename)  # for tracebacks
    exec(shell.compile(ast.Module(tree.body, type_ignores=[]), filename, "exec"), shell.user_ns)
    if last is None:
        return None
    return eval(shell.compile(ast.Expression(last.value), filename, "eval"), shell.user_ns)


def load_ipython_extension(ipython) -> None:  # type: ignore[no-untyped-def]
    ipython.register_magic_function(needs_cuda, magic_kind="cell", magic_name=MAGIC)


__all__ = ["MAGIC", "SKIPPED", "cuda_available", "load_ipython_extension", "needs_cuda"]
