#pragma once
void run_attention_hdim128(float *x);
