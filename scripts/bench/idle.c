/*
 * The same work after the thread sat idle: what a server pays on a virtual machine for waiting on
 * its database (docs/design.md, "CPU per call"), shown without Node, sockets or a
 * database. Each run sleeps (0, 50, 200, 1000, 3000, 8000 µs), then reads KB kilobytes of memory
 * a cache line at a time, and counts the thread's CPU time of that read alone.
 *
 *   cc -O2 -o /tmp/idle scripts/bench/idle.c && /tmp/idle 256 400      (KB, runs per wait)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static volatile uint64_t sink;

int main(int argc, char **argv) {
  size_t bytes = (size_t)(argc > 1 ? atoi(argv[1]) : 256) * 1024;
  int runs = argc > 2 ? atoi(argv[2]) : 400;
  unsigned char *mem = malloc(bytes);
  if (!mem || bytes == 0 || runs <= 0) return 2;
  for (size_t i = 0; i < bytes; i++) mem[i] = (unsigned char)i;
  const long waits[] = {0, 50, 200, 1000, 3000, 8000};
  for (int w = 0; w < 6; w++) {
    double least = 1e18, sum = 0;
    for (int k = 0; k < runs; k++) {
      if (waits[w]) {
        struct timespec ts = {0, waits[w] * 1000L};
        nanosleep(&ts, 0);
      }
      double t0 = cpu_us();
      uint64_t acc = 0;
      for (size_t i = 0; i < bytes; i += 64) acc = acc * 31 + mem[(i * 7919) % bytes];
      sink = acc;
      double t = cpu_us() - t0;
      sum += t;
      if (t < least) least = t;
    }
    printf("idle %5ld us before: the work %.1f us of CPU on average, %.1f the least (%d runs)\n", waits[w], sum / runs,
           least, runs);
  }
  return 0;
}
