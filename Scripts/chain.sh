#!/usr/bin/env bash
# Writes a chain machine of N states to standard output: s0 --next--> s1 --next--> ... s(N-1),
# the last state ignoring `next`. For measuring `stateloop paths` on long paths (Docs/Testing.md,
# P15): bash Scripts/chain.sh 4000 > /tmp/Chain.machine.yml
#   /usr/bin/time -v stateloop paths /tmp/Chain.machine.yml > /dev/null
set -euo pipefail
n=${1:?usage: chain.sh STATES}
echo "machine: Chain"
echo "events: {next: {}}"
echo "initial: s0"
echo "states:"
for ((i = 0; i < n - 1; i++)); do echo "  s$i: {on: {next: s$((i + 1))}}"; done
echo "  s$((n - 1)): {ignore: [next]}"
