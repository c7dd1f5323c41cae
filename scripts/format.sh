#!/bin/sh
# Formats the C and C++ sources git tracks with clang-format, in LLVM's
# style (.clang-format at the top of the tree).
#
#   scripts/format.sh            format in place
#   scripts/format.sh --check    list the files that are not formatted; exit 1 if any
#   scripts/format.sh FILE...    only these files
#
# Not formatted: test inputs (*/Inputs/*, test/Source, the fuzz corpora) and
# the examples, whose line and column numbers tests, diagnostics and the
# bundled traces refer to.
set -e
cd "$(git rev-parse --show-toplevel)"
format=$(command -v clang-format-14 || command -v clang-format)
check=
if [ "$1" = "--check" ]; then check=1; shift; fi
if [ $# -gt 0 ]; then
  # Only C and C++ sources: clang-format would rewrite a Markdown file as
  # if it were C++.
  files=$(printf '%s\n' "$@" | grep -E '\.(c|cpp|h)$' || true)
else
  files=$(git ls-files '*.c' '*.cpp' '*.h' |
          grep -v -E '(^|/)Inputs/|^examples/|^test/Source/|^test/Fuzz/corpus/')
fi
status=0
for f in $files; do
  if [ -n "$check" ]; then
    if ! "$format" "$f" | cmp -s - "$f"; then echo "$f"; status=1; fi
  else
    "$format" -i "$f"
  fi
done
exit $status
