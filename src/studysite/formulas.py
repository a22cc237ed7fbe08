"""Formulas rendered when the site is built, by the site's own KaTeX run in node.

pymdownx.arithmatex leaves each formula as TeX for a script to render; rendered in the browser,
a page with one formula downloaded KaTeX's 270 KB of JavaScript. KaTeX renders the same HTML on a
server (``katex.renderToString``), so the page ships the rendered formula and needs only KaTeX's
stylesheet, which assets/math.js then loads. Without node, formulas stay as TeX and math.js loads
KaTeX to render them in the browser, as before.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

# arithmatex's generic output: \( \) inline in a span, \[ \] on a line of its own in a div.
_FORMULA = re.compile(r'(?s)<(span|div) class="arithmatex">\\([(\[])(.*?)\\[)\]]</\1>')
RENDERED = "arithmatex--rendered"  # math.js and the benchmark tell rendered formulas by it
# Reads [{"tex", "display"}] on stdin, writes the HTML of each; a bad formula fails the build.
_RENDER = """
const katex = require(process.argv[1]);
const formulas = JSON.parse(require("fs").readFileSync(0, "utf8"));
try {
  process.stdout.write(JSON.stringify(formulas.map(f =>
    katex.renderToString(f.tex, {displayMode: f.display, throwOnError: true}))));
} catch (error) {
  process.stderr.write(error.message);
  process.exit(1);
}
"""


class FormulaError(ValueError):
    pass


def render(page_html: str, katex_js: Path, where: str) -> str:
    """The page with each formula rendered; unchanged without formulas or without node."""
    found = list(_FORMULA.finditer(page_html))
    node = shutil.which("node")
    if not found or node is None:
        return page_html
    formulas = [{"tex": html.unescape(match[3]), "display": match[2] == "["} for match in found]
    run = subprocess.run(
        [node, "-e", _RENDER, str(katex_js.resolve())],
        input=json.dumps(formulas),
        capture_output=True,
        text=True,
        timeout=60,
    )
    if run.returncode != 0:
        raise FormulaError(f"{where}: KaTeX could not render a formula: {run.stderr.strip()[-500:]}")
    rendered = iter(json.loads(run.stdout))
    return _FORMULA.sub(
        lambda m: f'<{m[1]} class="arithmatex {RENDERED}">{next(rendered)}</{m[1]}>', page_html
    )
