#pragma once
void gpu_clamp_below(float *data, float floor_value, int n);
void gpu_rescale(float *data, float factor, int n);
void gpu_fill(float *data, float value, int n);
