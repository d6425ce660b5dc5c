// The stopwatch of the samples this project grew from, in a header: the
// start is a global; each helper has a Windows variant.
#pragma once
#include <sys/time.h>

#ifdef WIN32
#include <windows.h>
double PCFreq = 0.0;
__int64 timerStart = 0;
#else
struct timeval timerStart;
#endif

void StartTimer() {
#ifdef WIN32
  LARGE_INTEGER li;
  QueryPerformanceFrequency(&li);
  PCFreq = (double)li.QuadPart / 1000.0;
  QueryPerformanceCounter(&li);
  timerStart = li.QuadPart;
#else
  gettimeofday(&timerStart, NULL);
#endif
}

// Time elapsed since StartTimer, in ms.
double GetTimer() {
#ifdef WIN32
  LARGE_INTEGER li;
  QueryPerformanceCounter(&li);
  return (double)(li.QuadPart - timerStart) / PCFreq;
#else
  struct timeval timerStop, timerElapsed;
  gettimeofday(&timerStop, NULL);
  timersub(&timerStop, &timerStart, &timerElapsed);
  return timerElapsed.tv_sec * 1000.0 + timerElapsed.tv_usec / 1000.0;
#endif
}

