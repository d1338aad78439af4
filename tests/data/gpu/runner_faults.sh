#!/bin/bash
# On a machine with a GPU: a kernel that faults and one that hangs each cost their own bundle, and the
# bundles after them run (error numbers 4, 0, 7, 0). Skipped (exit 77) where the runner sees no GPU.
runner="$1"
data="$(dirname "$0")"
if ! info=$("$runner" --info 2>&1); then
    echo "skipped: $info"
    exit 77
fi
echo "GPU: $info"
out=$("$runner" "$data/runner-faults.jsonl") || exit 1
echo "$out"
errors=$(echo "$out" | sed -n 's/.*"error_no": \([0-9]*\).*/\1/p' | tr '\n' ' ')
[ "$errors" = "4 0 7 0 " ] || { echo "expected error numbers 4 0 7 0, got $errors"; exit 1; }
echo "faults and hangs cost one bundle each"
