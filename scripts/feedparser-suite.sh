#!/usr/bin/env bash
# Python feedparser's own test documents as a feed corpus, for `npm run bench -- feedparser-suite`:
# downloads the source distribution of the feedparser version scripts/feedparser.sh pins (its
# tests ship in it) from PyPI, converts each document's `Expect:` assertions on fields feedmill
# has with bench/feedparser-suite/convert.py, and prints the corpus directory. Everything of
# feedparser's stays under .cache: its files are not ours to commit.
#
#   bash scripts/feedparser-suite.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=$(bash scripts/feedparser.sh)
version=$("$python" -m pip show feedparser | sed -n 's/^Version: //p')
dir=.cache/feedparser-suite/$version
if [[ ! -d $dir/tests ]]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "feedparser-suite: downloading feedparser $version's source distribution from PyPI" >&2
  "$python" -m pip download --quiet --no-deps --no-binary :all: "feedparser==$version" -d "$dir" >&2
  tar -xzf "$dir/feedparser-$version.tar.gz" -C "$dir" --strip-components=1 "feedparser-$version/tests"
fi
rm -rf "$dir/corpus"
"$python" bench/feedparser-suite/convert.py "$dir/tests" "$dir/corpus/feeds"
echo "$PWD/$dir/corpus"
