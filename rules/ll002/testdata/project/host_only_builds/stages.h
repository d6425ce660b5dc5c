#pragma once
void gpu_reconstruct(float *q, int n);
void cpu_reconstruct(float *q, int n);
void smooth(float *q, int n);
void sweep(float *q, int n);
