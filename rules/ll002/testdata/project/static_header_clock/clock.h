// A mini-app's clock: a static inline helper in a header, a copy of its
// own in every file that includes it.
#pragma once
#include <chrono>

using TimePoint = std::chrono::high_resolution_clock::time_point;

[[nodiscard]] static inline TimePoint now() { return std::chrono::high_resolution_clock::now(); }
