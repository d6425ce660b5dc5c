#pragma once
void attention_forward(float *x);
