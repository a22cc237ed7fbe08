#!/bin/sh
# Records the outputs of the CUDA snippets on a CUDA machine that already has torch, with no virtual
# environment to build: the machine's own Python runs the engine from this source tree.
#
#   .github/record-gpu.sh OUT [WHEELS]      (in the project's root; PYTHON=python3 by default)
#
# WHEELS (default .cache/gpu-wheels, made by `make gpu-wheels` on any machine with pip and a
# network) holds the engine's few dependencies that a torch installation lacks; they are installed
# into a folder of their own, so the machine's packages stay as they are. OUT receives
# recordings.tar.gz: the folder recordings/ as the run left it, and record.log, what it printed
# (each failing snippet's output and traceback included). DRY_RUN=1 lists what would run instead.
# Exits with the engine's status: 0 when every CUDA snippet passed and was recorded.
set -u
out=${1:?usage: .github/record-gpu.sh OUT [WHEELS]}
wheels=${2:-.cache/gpu-wheels}
python=${PYTHON:-python3}
test -f pyproject.toml -a -d src/docexec || { echo "run it in the project's root" >&2; exit 2; }
mkdir -p "$out" || exit 2
log="$out/record.log"
target=$(mktemp -d)
trap 'rm -rf "$target"' EXIT
if ls "$wheels"/*.whl >/dev/null 2>&1; then
  "$python" -m pip install --quiet --no-index --no-deps --no-compile --target "$target" "$wheels"/*.whl \
    || { echo "installing $wheels into $target failed" >&2; exit 2; }
fi
# src/ first: the engine and the project's library as this tree has them; the snippets' processes
# inherit the same path (the engine passes PYTHONPATH on).
export PYTHONPATH="$PWD/src:$target${PYTHONPATH:+:$PYTHONPATH}"
# Named, not detected: a CUDA snippet that cannot reach the GPU fails, never skips.
export DOCEXEC_DEVICE=cuda
"$python" -m docexec record ${DRY_RUN:+--dry-run} 2>&1 | tee "$log"
status=$(tail -n 1 "$log" | grep -q ' 0 failed$' && echo 0 || echo 1)
if [ -n "${DRY_RUN:-}" ]; then status=$(grep -q '^FAIL ' "$log" && echo 1 || echo 0); fi
mkdir -p recordings
tar -czf "$out/recordings.tar.gz" recordings -C "$out" record.log || exit 2
echo "wrote $out/recordings.tar.gz ($(tar -tzf "$out/recordings.tar.gz" | grep -c '\.json$') recordings)"
exit "$status"
