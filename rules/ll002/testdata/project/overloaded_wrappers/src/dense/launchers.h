// Launchers per precision, and inline overloads choosing among them: a
// method calls the overload, which calls the launcher of another file.
#pragma once
void launchF_row_max(int rows, float *out, const float *m);
void launchD_row_max(int rows, double *out, const double *m);
void launchF_scale(int n, float *m, float a);
void launchD_scale(int n, double *m, double a);

inline void row_max(int rows, float *out, const float *m) { launchF_row_max(rows, out, m); }
inline void row_max(int rows, double *out, const double *m) { launchD_row_max(rows, out, m); }
inline void scale(int n, float *m, float a) { launchF_scale(n, m, a); }
inline void scale(int n, double *m, double a) { launchD_scale(n, m, a); }
