#!/bin/bash
# tune --gpu-exchange: the session writes a batch of bundles, "the GPU machine" (the runner, here) measures
# it, the results file is moved in whole, and the session goes on and stores them as its records (on a
# machine without a GPU: failed, error 4; with one: measured).
cli="$1" runner="$2" dir="$3"
rm -rf "$dir" && mkdir -p "$dir/exchange" || exit 1
"$cli" tune --op matmul --shape 128,128,128 --target 'cuda -arch=sm_80' --trials 8 --measures-per-round 8 \
    --gpu-exchange "$dir/exchange" --workspace "$dir/ws.tunescope" > "$dir/tune.log" 2>&1 &
pid=$!
batch=
for _ in $(seq 1 600); do
    batch=$(ls "$dir"/exchange/batch-*.jsonl 2>/dev/null | grep -v '\.results\.jsonl$' | head -1)
    [ -n "$batch" ] && break
    sleep 0.2
done
if [ -z "$batch" ]; then
    kill "$pid"
    cat "$dir/tune.log"
    echo "no batch was written in 120 s"
    exit 1
fi
echo "batch: $(basename "$batch"), $(grep -c . "$batch") bundles"
sleep 1 # the session says, within half a second, that the batch waits for its results
"$runner" "$batch" > "$dir/results.part" || exit 1
mv "$dir/results.part" "${batch%.jsonl}.results.jsonl"
wait "$pid" || { cat "$dir/tune.log"; exit 1; }
cat "$dir/tune.log"
"$cli" stats --workspace "$dir/ws.tunescope"
# The session's records go out as a TVM log: the task, an operator TuneScope keyed by its DAG's hash, as
# TVM keys a DAG-defined task (the hash first).
"$cli" export --out "$dir/exported.json" --workspace "$dir/ws.tunescope" || exit 1
head -c 40 "$dir/exported.json"; echo
