#!/bin/sh
# Publishes the built site's notebooks where its "Open in Colab" links point (docexec/render/publication.py):
# a tag notebooks-<commit> on a commit of its own, the checked-out commit's tree with every notebook
# of the built site added under notebooks/, at its path in the site. Its parent is the checked-out
# commit, so the tag also keeps that commit, which the notebooks install the project from.
#
#   .github/publish-notebooks.sh NOTEBOOKS REMOTE     (in a checkout of the commit the site was built from)
#
# NOTEBOOKS: the built site, or any folder holding its notebooks at their paths in the site.
# REMOTE: where to push the tag (a URL or a path). A tag that is already there is never replaced:
# links already published keep opening what they opened (a second run of a build says so, exits 0).
set -eu
notebooks=${1:?usage: .github/publish-notebooks.sh NOTEBOOKS REMOTE}
remote=${2:?usage: .github/publish-notebooks.sh NOTEBOOKS REMOTE}
commit=$(git rev-parse --verify 'HEAD^{commit}')
tag="notebooks-$commit"
if git ls-remote --exit-code --tags "$remote" "refs/tags/$tag" >/dev/null; then
  echo "$tag is published already; left as it is"
  exit 0
fi
count=$(cd "$notebooks" && find . -name '*.ipynb' -type f | wc -l)
if [ "$count" -eq 0 ]; then
  echo "no notebook under $notebooks" >&2
  exit 1
fi
if [ -n "$(git ls-tree HEAD notebooks)" ]; then
  echo "the project has a notebooks/ of its own; the published notebooks need another folder" >&2
  exit 1
fi
# The tagged commit is made beside the checkout, which stays as it is: a staging folder holds the
# notebooks, an index of its own starts from the commit's tree.
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
index="$staging/index"
mkdir "$staging/notebooks"
# Every notebook at its path in the site; nothing else (the pages are on GitHub Pages).
(cd "$notebooks" && find . -name '*.ipynb' -type f -print0 | tar --null --files-from=- -cf -) \
  | (cd "$staging/notebooks" && tar -xf -)
GIT_INDEX_FILE=$index git read-tree "$commit"
GIT_INDEX_FILE=$index git --work-tree="$staging" add --force notebooks
tree=$(GIT_INDEX_FILE=$index git write-tree)
tagged=$(git -c user.name="github-actions[bot]" \
  -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
  commit-tree "$tree" -p "$commit" -m "The notebooks of the site built from $commit")
git push --quiet "$remote" "$tagged:refs/tags/$tag"
echo "pushed $tag: $count notebooks under notebooks/"
