#!/usr/bin/env bash
# Builds llama.cpp's llama-bench from the source node-llama-cpp bundles (llama/gitRelease.bundle),
# offline, into a cache outside the repository. The benches use it as their anchor when present
# (test/bench/llamaBench.ts) and say "not built" otherwise. Takes ~10 minutes on 2 cores, so it runs
# under `nice -n 10` to leave the machine usable. Usage: test/bench/buildLlamaBench.sh [--jobs N]
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
bundle="$repo/node_modules/node-llama-cpp/llama/gitRelease.bundle"
cache="${HEARTH_BENCH_CACHE:-$HOME/.cache/hearth-bench}"
src="$cache/llama.cpp"
jobs=2
if [[ "${1:-}" == "--jobs" ]]; then jobs="$2"; fi
[[ -f "$bundle" ]] || { echo "no llama.cpp bundle at $bundle: install node-llama-cpp first" >&2; exit 1; }
mkdir -p "$cache"
if [[ ! -f "$src/CMakeLists.txt" ]]; then
  rm -rf "$cache/bundle.git" "$src"
  git init -q --bare "$cache/bundle.git"
  git -C "$cache/bundle.git" fetch -q "$bundle" 'HEAD:refs/heads/main'
  mkdir -p "$src"
  git -C "$cache/bundle.git" archive main | tar -x -C "$src"
fi
# CPU only, native ISA, no server/tests/examples: llama-bench is the only target needed.
nice -n 10 cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON \
  -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF -DBUILD_SHARED_LIBS=OFF >/dev/null
nice -n 10 cmake --build "$src/build" --target llama-bench -j "$jobs"
echo "built: $src/build/bin/llama-bench"
