#!/usr/bin/env bash
# Builds llama.cpp's own tools from the source node-llama-cpp bundles (llama/gitRelease.bundle),
# offline, into a cache outside the repository:
#   llama-bench          the decode/prefill anchor of the benchmarks (test/bench/llamaBench.ts)
#   llama-batched-bench  the concurrency anchor
#   llama-server         a real OpenAI-compatible server for the openai adapter's tests
# A no-op for targets already built. ~12 minutes on 2 idle cores the first time, so it runs under
# `nice -n 10`. Usage: test/support/buildLlamaTools.sh [--jobs N] [--backend cuda|vulkan] [target ...]
# --backend builds for that GPU backend into build-<backend>/ (test/bench/gpu.sh): CUDA needs the CUDA
# toolkit (nvcc), Vulkan its headers and glslc (Debian: libvulkan-dev glslc).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
bundle="$repo/node_modules/node-llama-cpp/llama/gitRelease.bundle"
cache="${HEARTH_BENCH_CACHE:-$HOME/.cache/hearth-bench}"
src="$cache/llama.cpp"
jobs=2
backend=""
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --backend) backend="$2"; shift 2 ;;
    *) echo "unknown option $1; usage: buildLlamaTools.sh [--jobs N] [--backend cuda|vulkan] [target ...]" >&2; exit 2 ;;
  esac
done
build="$src/build"
gpu_flags=()
case "$backend" in
  "") ;;
  cuda) build="$src/build-cuda"; gpu_flags=(-DGGML_CUDA=ON) ;;
  vulkan) build="$src/build-vulkan"; gpu_flags=(-DGGML_VULKAN=ON) ;;
  *) echo "unknown backend $backend: cuda or vulkan" >&2; exit 2 ;;
esac
# ggml's AMX matrix multiply, which -march=native compiles in on a CPU with AMX, crashed every prompt
# batch of llama-bench on a Sapphire Rapids host (SIGSEGV in ggml_backend_amx_mul_mat; decode alone
# ran). node-llama-cpp's prebuilt runs there, and the anchors must measure what it runs: no AMX.
cpu_flags=()
if [[ "$(uname -m)" == x86_64 ]]; then
  no_amx="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
  cpu_flags=(-DCMAKE_C_FLAGS="$no_amx" -DCMAKE_CXX_FLAGS="$no_amx")
fi
# A build made with other flags (an older version of this script) is made again.
stamp="$build/hearth-build-flags"
flags="${cpu_flags[*]} ${gpu_flags[*]}"
if [[ -d "$build" && "$(cat "$stamp" 2>/dev/null)" != "$flags" ]]; then
  echo "rebuilding $build: it was built with other flags" >&2
  rm -rf "$build"
fi
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(llama-bench llama-batched-bench llama-server)
missing=()
for t in "${targets[@]}"; do [[ -x "$build/bin/$t" ]] || missing+=("$t"); done
[[ ${#missing[@]} -gt 0 ]] || exit 0
[[ -f "$bundle" ]] || { echo "no llama.cpp bundle at $bundle: install node-llama-cpp first" >&2; exit 1; }
mkdir -p "$cache"
if [[ ! -f "$src/CMakeLists.txt" ]]; then
  rm -rf "$cache/bundle.git" "$src"
  git init -q --bare "$cache/bundle.git"
  git -C "$cache/bundle.git" fetch -q "$bundle" 'HEAD:refs/heads/main'
  mkdir -p "$src"
  git -C "$cache/bundle.git" archive main | tar -x -C "$src"
fi
# CPU only, native ISA, no curl (nothing downloads), no tests.
nice -n 10 cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON "${cpu_flags[@]}" "${gpu_flags[@]}" \
  -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_EXAMPLES=ON -DBUILD_SHARED_LIBS=OFF >/dev/null
nice -n 10 cmake --build "$build" --target "${missing[@]}" -j "$jobs"
echo "$flags" > "$stamp"
for t in "${missing[@]}"; do echo "built: $build/bin/$t"; done
