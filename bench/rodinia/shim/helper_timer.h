/* The stopwatch of the CUDA samples' helper_timer.h as Rodinia's cfd uses it (create, start,
 * stop, average in milliseconds). */
#pragma once
#include <chrono>

struct StopWatchInterface {
  std::chrono::steady_clock::time_point start;
  double total_ms = 0;
  int runs = 0;
};
inline void sdkCreateTimer(StopWatchInterface** t) { *t = new StopWatchInterface; }
inline void sdkStartTimer(StopWatchInterface** t) { (*t)->start = std::chrono::steady_clock::now(); }
inline void sdkStopTimer(StopWatchInterface** t) {
  (*t)->total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - (*t)->start).count();
  ++(*t)->runs;
}
inline float sdkGetAverageTimerValue(StopWatchInterface** t) { return float((*t)->runs ? (*t)->total_ms / (*t)->runs : 0); }
inline void sdkDeleteTimer(StopWatchInterface** t) { delete *t; }
