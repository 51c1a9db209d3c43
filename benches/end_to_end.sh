#!/usr/bin/env bash
# The end-to-end figures README and docs/performance.md quote, in one command (`just scale`):
# builds the `dist` binary (what releases ship) and the generator, writes each input once
# under DIR (default $TMPDIR/fleetplan-scale), and times `plan -o json` on each RUNS times
# (default 5) with /usr/bin/time, printing the median wall and CPU seconds, the median peak
# memory and the plan's size and md5, then the parse-and-write floor (benches/floor.rs) of each.
#
# Inputs (all 10k Placements, JSON, `genfleet --replica-workloads 0`):
#   default       100k clusters, the default mix          heavy        100k clusters, --mix heavy
#   default-pol   default + 10k bound Policies             heavy-pol    heavy + 10k bound Policies
#   default-10k   10k clusters, default mix                heavy-10k    10k clusters, --mix heavy
#   heavy-load    heavy's fleet without Placements (loading alone)
#   kubefleet     10k MemberClusters x 10k ClusterResourcePlacements of every placement type
#                 (`--clusters-as kubefleet`, issue 30's 2 s target), planned at --now 2026-01-02
# INPUTS (default: all of them, in this order) names the ones to write and time:
# `INPUTS=kubefleet just scale`.
set -euo pipefail

dir=${1:-${TMPDIR:-/tmp}/fleetplan-scale}
runs=${RUNS:-5}
inputs=${INPUTS:-default default-pol default-10k heavy heavy-pol heavy-10k heavy-load kubefleet}
wanted() { [[ " $inputs " == *" $1 "* ]]; }
cargo build --quiet --locked --profile dist --bin fleetplan --example genfleet --example floor
bin=target/dist/fleetplan
genfleet=target/dist/examples/genfleet
floor=target/dist/examples/floor

generate() { # NAME ARGS...
    local name=$1
    shift
    wanted "$name" || return 0
    [ -d "$dir/$name" ] || "$genfleet" --placements 10000 --replica-workloads 0 --format json \
        --out "$dir/$name" "$@"
}
generate default --clusters 100000
generate default-pol --clusters 100000 --policies 10000
generate default-10k --clusters 10000
generate heavy --clusters 100000 --mix heavy
generate heavy-pol --clusters 100000 --mix heavy --policies 10000
generate heavy-10k --clusters 10000 --mix heavy
generate kubefleet --clusters 10000 --clusters-as kubefleet
if wanted heavy-load && [ ! -d "$dir/heavy-load" ]; then
    mkdir -p "$dir/heavy-load"
    cp "$dir/heavy/fleet.json" "$dir/heavy-load/"
    echo '{"apiVersion": "v1", "kind": "List", "items": []}' > "$dir/heavy-load/workloads.json"
fi

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# Runs COMMAND... $runs times; prints median wall s, CPU s (user + system), peak MiB.
timed() {
    local times
    times=$(mktemp)
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$times" -a -f '%e %U %S %M' "$@" > /dev/null
    done
    printf '%8s s %8s s %8s MiB' \
        "$(awk '{print $1}' "$times" | median)" \
        "$(awk '{print $2 + $3}' "$times" | median)" \
        "$(awk '{printf "%.0f\n", $4 / 1024}' "$times" | median)"
    rm -f "$times"
}

printf '%-12s %10s %10s %12s %12s  %s\n' input wall cpu peak 'plan bytes' md5
for input in $inputs; do
    plan="$dir/$input.plan.json"
    # The KubeFleet mix's heartbeats are judged at its own time (benches/kubefleet_generator.rs).
    now=2026-06-01T00:00:00Z
    [ "$input" != kubefleet ] || now=2026-01-02T00:00:00Z
    "$bin" plan -f "$dir/$input" -o json --now "$now" > "$plan"
    printf '%-12s %s %12s  %s\n' "$input" \
        "$(timed "$bin" plan -f "$dir/$input" -o json --now "$now")" \
        "$(wc -c < "$plan")" "$(md5sum < "$plan" | cut -d' ' -f1)"
done
for input in default heavy; do
    wanted "$input" || continue
    printf '%-12s %s  (floor: validate the inputs, write the plan'"'"'s bytes)\n' "$input" \
        "$(timed "$floor" --bytes-of "$dir/$input.plan.json" "$dir/$input")"
done
