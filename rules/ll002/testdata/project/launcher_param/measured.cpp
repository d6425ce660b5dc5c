// The suite's timer, in its own file.
#include <chrono>
#include "launch_util.hpp"

static std::chrono::steady_clock::time_point g_t0, g_t1;

void Measured::startTimer() { g_t0 = std::chrono::steady_clock::now(); }
void Measured::stopTimer() { g_t1 = std::chrono::steady_clock::now(); }
