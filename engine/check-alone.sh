#!/usr/bin/env bash
# docexec on its own: installs the engine's wheel (engine/, no torch, none of this site's packages)
# into a fresh virtual environment, runs the engine's tests there, and builds a small plain-Python
# MkDocs site whose snippets live in examples/: a failing snippet fails the strict build naming its
# page and line and shows its error on the page otherwise, a figure is served beside the page, a
# snippet declared for CUDA is skipped on a CPU, and once the failure is fixed a second build runs
# nothing again.
#
#   engine/check-alone.sh [WORK_FOLDER]     (default: a temporary folder, removed at the end)
#
# The engine's tests take about a minute on 2 cores; `make engine-alone` runs this, CI's engine job too.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
python=${PYTHON:-python3}
export NO_MKDOCS_2_WARNING=1 DOCEXEC_DEVICE=cpu

step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

step "the engine's wheel, with its test extra, into a fresh virtual environment"
"$python" -m venv "$work/venv"
bin="$work/venv/bin"
"$bin/pip" install --quiet --disable-pip-version-check "$repo/engine[test]"
# Neither torch nor a package of this site may come along: the engine must run without them.
"$bin/python" - <<'EOF' || fail "the engine's install brought what it must run without"
import importlib.util, sys
import docexec
present = [name for name in ("torch", "torchguide", "studysite") if importlib.util.find_spec(name)]
print("docexec from", docexec.__file__)
sys.exit(f"installed with the engine: {present}" if present else 0)
EOF

step "the engine's tests, without torch (tests of torch or of this site skip, naming why)"
# From the repository, against the installed wheel, without the site's options: they load the
# engine's pytest plugin for this site's own snippets, whose configuration preloads torch.
(cd "$repo" && "$bin/python" -m pytest -p no:cacheprovider \
  -o addopts="" -q -rs -n 2 --dist loadscope tests/docexec)

step "a plain-Python site whose snippets live in examples/"
site="$work/site"
rm -rf "$site"
mkdir -p "$site/docs" "$site/examples/guide"
cat >"$site/pyproject.toml" <<'EOF'
[tool.docexec]
snippets = "examples"
timeout = 20
EOF
cat >"$site/mkdocs.yml" <<'EOF'
site_name: A plain-Python guide
plugins: [docexec]
markdown_extensions: [admonition, attr_list, pymdownx.superfences]
EOF
cat >"$site/docs/index.md" <<'EOF'
# A plain-Python guide

%run examples/guide/sums_a_range.py

%run examples/guide/divides_by_zero.py

%run examples/guide/draws_a_line.py

%run examples/guide/needs_a_gpu.py
EOF
cat >"$site/examples/guide/sums_a_range.py" <<'EOF'
total = sum(range(10))
assert total == 45
print("sum of 0..9:", total)
EOF
printf 'print("before the error")\nprint(1 / 0)\n' >"$site/examples/guide/divides_by_zero.py"
cat >"$site/examples/guide/draws_a_line.py" <<'EOF'
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(3, 2))
ax.plot([0, 1, 2], [0, 1, 4])
ax.set_title("Squares")
print("drawn")
EOF
printf '# docexec: cuda\nprint("only on a GPU")\n' >"$site/examples/guide/needs_a_gpu.py"
cd "$site"

step "the strict build runs every snippet and fails, naming the failing one's page and line"
if "$bin/mkdocs" build --strict >"$work/strict.log" 2>&1; then
  cat "$work/strict.log"; fail "the strict build passed with a failing snippet"
fi
grep -F "docexec: 3 executed, 0 cached, 1 skipped (CUDA), 1 failed" "$work/strict.log" \
  || { cat "$work/strict.log"; fail "not every snippet ran"; }
grep -F "docs/index.md:5" "$work/strict.log" | grep -F "examples/guide/divides_by_zero.py:2" \
  | grep -F ZeroDivisionError || { cat "$work/strict.log"; fail "no page line and snippet line for the error"; }

step "the build shows each output, the error, the figure and the skipped CUDA snippet"
"$bin/mkdocs" build >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "the build failed"; }
# The passing results come from the cache; a failure is never cached, so it runs again.
grep -F "docexec: 1 executed, 2 cached, 1 skipped (CUDA), 1 failed" "$work/build.log" \
  || { cat "$work/build.log"; fail "the passing snippets were not taken from the cache"; }
page="$site/site/index.html"
for text in "sum of 0..9: 45" "before the error" "ZeroDivisionError" "drawn" "docexec-needs-gpu"; do
  grep -qF "$text" "$page" || fail "the page lacks: $text"
done
figure=$(grep -oE 'src="[^"]*assets/figures/[^"]+"' "$page" | head -1 | sed 's/^src="//; s/"$//')
[ -n "$figure" ] || fail "the page shows no figure"
[ -s "$site/site/$figure" ] || fail "the figure $figure is not served"

step "fixed, the snippet alone runs again; a second build takes every result from the cache"
printf 'print("before the error")\nprint(1 / 1)\n' >"$site/examples/guide/divides_by_zero.py"
"$bin/mkdocs" build --strict >"$work/fixed.log" 2>&1 || { cat "$work/fixed.log"; fail "the fixed build failed"; }
grep -F "docexec: 1 executed, 2 cached, 1 skipped (CUDA)" "$work/fixed.log" || fail "the fix ran more than itself"
"$bin/mkdocs" build --strict >"$work/again.log" 2>&1 || { cat "$work/again.log"; fail "the rebuild failed"; }
grep -F "docexec: 0 executed, 3 cached, 1 skipped (CUDA)" "$work/again.log" \
  || { cat "$work/again.log"; fail "the rebuild ran snippets again"; }

echo
echo "docexec alone: installed without torch, its tests passed, the examples/ site built"
