// A small finite-field library: the tests beside src/ include this header
// and call what src/ defines.
#pragma once
void field_add(unsigned *x, const unsigned *y, int n);
void field_square(unsigned *x, int n);
