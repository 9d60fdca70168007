/*
 * Lookups from text through the C ABI, one thread: scripts/bench/lookups.sh compiles it
 * against libgamedb.so.
 *
 *   lookups TABLE [POSITIONS [ROUNDS]]
 *
 * Draws POSITIONS (default 100000) random indices of the table, writes each position as text
 * with gamedb_position_at and keeps those the table answers (indices that hold no position
 * are drawn again), then times ROUNDS (default 10) passes of gamedb_value over the texts:
 * each call parses the text, checks the position and reads its entry. Prints the lookups per
 * second (wall clock and CPU time) and a checksum of the values, so no call is left out.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gamedb.h"

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* xorshift64*: the same draws on every machine. */
static uint64_t next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: lookups TABLE [POSITIONS [ROUNDS]]\n");
        return 2;
    }
    long n = argc > 2 ? atol(argv[2]) : 100000;
    long rounds = argc > 3 ? atol(argv[3]) : 10;
    gamedb_table *t = gamedb_open(argv[1], GAMEDB_OPEN_NO_VERIFY);
    if (!t) {
        fprintf(stderr, "lookups: %s\n", gamedb_last_error());
        return 2;
    }
    int64_t size = gamedb_positions(t);
    char **texts = malloc((size_t)n * sizeof *texts);
    uint64_t seed = 88172645463325252ULL;
    long kept = 0, tries = 0;
    while (kept < n && tries < 1000 * n + 1000) {
        tries++;
        uint64_t i = next(&seed) % (uint64_t)size;
        char buf[256];
        int64_t len = gamedb_position_at(t, i, buf, sizeof buf);
        if (len < 0 || (size_t)len >= sizeof buf || gamedb_value(t, buf) < 0)
            continue;
        texts[kept++] = strdup(buf);
    }
    if (kept < n) {
        fprintf(stderr, "lookups: only %ld positions in %ld draws\n", kept, tries);
        return 1;
    }
    int64_t sum = 0;
    double wall = seconds(CLOCK_MONOTONIC), cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (long r = 0; r < rounds; r++) {
        for (long k = 0; k < n; k++) {
            int64_t v = gamedb_value(t, texts[k]);
            if (v < 0) {
                fprintf(stderr, "lookups: %s: %s\n", texts[k], gamedb_last_error());
                return 1;
            }
            sum += v;
        }
    }
    wall = seconds(CLOCK_MONOTONIC) - wall;
    cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    double total = (double)n * (double)rounds;
    printf("   C gamedb_value: %.0f lookups in %.3f s wall, %.3f s CPU: %.0f lookups/s "
           "(%.0f per CPU second); e.g. '%s'; checksum %lld\n",
           total, wall, cpu, total / wall, total / cpu, texts[0], (long long)sum);
    for (long k = 0; k < n; k++)
        free(texts[k]);
    free(texts);
    gamedb_close(t);
    return 0;
}
