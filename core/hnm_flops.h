/* hnm_flops.h -- the compute kernel of hnm's host-speed benchmark.
 *
 * apps/hostspeed (run by hnm-calibrate machine under the user's mpirun, on
 * the machine being calibrated) times it to give the platform's hosts a
 * speed. Eight independent chains of x = x * a + b: 16 floating-point
 * operations per iteration, with enough independent work to keep a core's
 * floating-point units busy rather than waiting on one chain's latency, and
 * no memory traffic, so that the value is the core's and not the memory's.
 * The flop count is nominal: what matters is the ratio between two machines
 * timed with the same kernel (SMPI scales measured seconds by
 * smpi/host-speed / host speed, README "Defaults").
 */
#ifndef HNM_FLOPS_H
#define HNM_FLOPS_H

/* Floating-point operations of one iteration of hnm_flops_kernel(). */
#define HNM_FLOPS_PER_ITERATION 16.0

/* Run ITERATIONS iterations; the result only keeps the compiler from
 * removing the work (stays finite: a < 1 and b small). */
static inline double hnm_flops_kernel(long iterations)
{
  double x0 = 1, x1 = 2, x2 = 3, x3 = 4, x4 = 5, x5 = 6, x6 = 7, x7 = 8;
  const double a = 0.9999999, b = 1e-7;
  for (long i = 0; i < iterations; i++) {
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
    x4 = x4 * a + b;
    x5 = x5 * a + b;
    x6 = x6 * a + b;
    x7 = x7 * a + b;
  }
  return x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

#endif /* HNM_FLOPS_H */
