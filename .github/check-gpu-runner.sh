#!/bin/sh
# What a workflow can check of the GPU runner's set-up (SECURITY.md, "Setting up the GPU runner"):
# no variable that looks like a secret in the job's environment, no stored credentials in the
# runner's home, and a checkout that kept no token. Fails the job, naming what it found.
set -eu
found=0
for name in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | grep -Ei 'token|secret|key|password|passwd|credential' || true); do
  echo "::error::the job's environment holds $name: the GPU runner must have no secrets"
  found=1
done
for file in "$HOME/.ssh" "$HOME/.aws" "$HOME/.docker/config.json" "$HOME/.netrc" "$HOME/.git-credentials" "$HOME/.config/gh"; do
  if [ -e "$file" ]; then
    echo "::error::$file exists: no credentials on the GPU runner"
    found=1
  fi
done
if git config --get-regexp '^http\..*extraheader' >/dev/null 2>&1; then
  echo "::error::the checkout kept credentials (persist-credentials must be false)"
  found=1
fi
exit "$found"
