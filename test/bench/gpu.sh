#!/usr/bin/env bash
# GPU benchmark (issue 30, item 4): on a machine with a GPU, node-llama-cpp's prebuilt CUDA and Vulkan
# binaries (what Hearth loads) against llama.cpp's own llama-bench built for the same backend from the
# source node-llama-cpp bundles, and Hearth's kernel on the backend it picks. No GPU is needed for
# `npm test`; this is not part of `npm run bench` (it has nothing to measure on a CPU-only machine).
# usage: test/bench/gpu.sh [cuda|vulkan|cpu ...]   (default: cuda where nvidia-smi answers, vulkan where
# vulkaninfo does). `cpu` runs the same comparison on the CPU build, a check of the script itself.
# Writes test/bench/results/gpu.json; docs/models.md says how to read it.
set -euo pipefail
cd "$(dirname "$0")/../.."
backends=("$@")
if [[ ${#backends[@]} -eq 0 ]]; then
  command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && backends+=(cuda)
  command -v vulkaninfo >/dev/null && vulkaninfo --summary >/dev/null 2>&1 && backends+=(vulkan)
fi
if [[ ${#backends[@]} -eq 0 ]]; then
  echo "gpu.sh: no GPU found (neither nvidia-smi nor vulkaninfo answers); name a backend to try anyway: gpu.sh cuda|vulkan|cpu" >&2
  exit 2
fi
for b in "${backends[@]}"; do
  if [[ "$b" == cpu ]]; then bash test/support/buildLlamaTools.sh llama-bench
  else bash test/support/buildLlamaTools.sh --backend "$b" llama-bench || echo "gpu.sh: llama-bench for $b did not build; its rows show the anchor missing" >&2
  fi
done
[[ -f dist/sidecar.mjs ]] || npm run build
UV_THREADPOOL_SIZE=1 node --import tsx test/bench/gpu/gpuBench.ts "${backends[@]}"
