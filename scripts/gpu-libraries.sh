#!/bin/bash
# Measures the first call of cuBLAS, cuFFT, thrust and CUB routines under
# CUDA_MODULE_LOADING=LAZY and EAGER (testdata/measure/libraries.cu); run
# on a machine with a GPU and nvcc: bash scripts/gpu-libraries.sh
set -euo pipefail
out="${OUT:-$(mktemp -d)}"
nvcc -O2 -arch=sm_90 -std=c++17 -o "$out/libs" testdata/measure/libraries.cu -lcublas -lcufft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -n 1
echo "routine            first    second     third  (ms, host clock around call + sync)"
for mode in LAZY EAGER LAZY EAGER LAZY EAGER; do
  CUDA_MODULE_LOADING=$mode "$out/libs"
done 2>&1 | tee "$out/libraries.txt"

# The detailed program: setup times, and later cuBLAS routines on a used
# handle (testdata/measure/libraries_detail.cu), the modes interleaved.
nvcc -O2 -arch=sm_90 -o "$out/libs_detail" testdata/measure/libraries_detail.cu -lcublas -lcufft
for mode in LAZY EAGER LAZY EAGER LAZY EAGER; do
  echo "== CUDA_MODULE_LOADING=$mode"
  CUDA_MODULE_LOADING=$mode "$out/libs_detail"
done 2>&1 | tee "$out/libraries_detail.txt"
