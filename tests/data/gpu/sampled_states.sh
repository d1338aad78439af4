#!/bin/bash
# On a machine with a GPU: sampled states of the GPU search (a shared-tiled matmul, and a dense layer
# whose reduction is spread over a warp with shuffles) run and give the right result (error 0: the runner
# checks sampled outputs against the host's reference evaluator). Skipped (exit 77) where the runner sees
# no GPU.
cli="$1" runner="$2" bundles="$3"
if ! info=$("$runner" --info 2>&1); then
    echo "skipped: $info"
    exit 77
fi
echo "GPU: $info"
rm -f "$bundles"
"$cli" sketches --op matmul --shape 512,512,512 --target cuda --samples 20 --emit-bundle "$bundles" | grep bundles
"$cli" sketches --op dense --shape 1,4096,256 --target cuda --samples 10 --emit-bundle "$bundles" | grep bundles
"$runner" "$bundles" > "$bundles.results" || exit 1
total=$(grep -c . "$bundles.results")
right=$(grep -c '"error_no": 0,' "$bundles.results")
echo "$right of $total sampled states ran and were right"
grep -v '"error_no": 0,' "$bundles.results" | cut -c1-400 | head -5
[ "$total" -gt 0 ] && [ "$right" = "$total" ]
