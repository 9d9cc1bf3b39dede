// Numerical constants shared by the posterior and structure learning, so that a model is judged
// by the same numerics where it is learned and where it is used.
#pragma once

namespace addbo::core {

constexpr double kLogTwoPi = 1.8378770664093454836;  // log(2 pi)

// The jitter ladder: a kernel matrix that is not numerically positive definite is retried with
// 1e-10, 1e-9, ..., 1e-4 added to its diagonal (on top of the noise), then given up.
constexpr double kFirstJitter = 1e-10;
constexpr double kLastJitter = 1e-4;
inline double next_jitter(double jitter) { return jitter == 0.0 ? kFirstJitter : jitter * 10.0; }
// Past the last rung (the rungs are products and carry rounding, hence the margin).
inline bool past_last_jitter(double jitter) { return jitter > kLastJitter * 1.5; }

}  // namespace addbo::core
