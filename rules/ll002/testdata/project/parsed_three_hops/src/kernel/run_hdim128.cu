// One instantiation of the launch template, in its own file.
#include "run.h"
#include "launch.cuh"

void run_attention_hdim128(float *x) { launch_attention<128>(x); }
