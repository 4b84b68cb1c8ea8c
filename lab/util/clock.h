/*
 * clock.h - the one monotonic clock of the lab and its drivers (timeouts,
 * time caps, CPU baselines): seconds on CLOCK_MONOTONIC.
 */
#ifndef LAB_UTIL_CLOCK_H
#define LAB_UTIL_CLOCK_H

double lab_clock_now(void);

#endif
