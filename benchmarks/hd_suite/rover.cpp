#include "rover.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "seeded_random.hpp"

namespace hd_suite {

namespace {

constexpr int kObstacles = 150;
constexpr double kObstacleSide = 0.05;
constexpr double kCollisionCost = 20.0, kMissCost = 10.0;
// Samples of each of the curve's 31 segments: about 1,000 along the curve, so that an obstacle's
// side (0.05) holds several of them at the curve's typical speed.
constexpr int kSamplesPerSegment = 32;

RoverField make_field() {
  RoverField field;
  // One fixed field for every seed ("rover" in ASCII, D): runs differ only in their own draws.
  paper_synthetic::SeededRandom random(paper_synthetic::derive_seed({0x726f766572, 60}));
  while (static_cast<int>(field.obstacles.size()) < kObstacles) {
    const double cx = random.uniform(), cy = random.uniform();
    const auto near = [&](double px, double py) {
      return std::fabs(cx - px) < 0.1 && std::fabs(cy - py) < 0.1;
    };
    if (near(field.start_x, field.start_y) || near(field.goal_x, field.goal_y)) continue;
    const double half = 0.5 * kObstacleSide;
    field.obstacles.push_back({cx - half, cy - half, cx + half, cy + half});
  }
  return field;
}

// The uniform cubic B-spline's blending of four control values at t in [0, 1].
double blend(const std::array<double, 4>& p, double t) {
  const double u = 1.0 - t;
  return (u * u * u * p[0] + (3.0 * t * t * t - 6.0 * t * t + 4.0) * p[1] +
          (-3.0 * t * t * t + 3.0 * t * t + 3.0 * t + 1.0) * p[2] + t * t * t * p[3]) /
         6.0;
}

}  // namespace

const RoverField& rover_field() {
  static const RoverField field = make_field();
  return field;
}

bool rover_blocked(const RoverField& field, double x, double y, double margin) {
  for (const RoverObstacle& o : field.obstacles) {
    if (x > o.x_low - margin && x < o.x_high + margin && y > o.y_low - margin &&
        y < o.y_high + margin) {
      return true;
    }
  }
  return false;
}

double rover_reward(const RoverField& field, const std::vector<double>& x) {
  if (x.size() != 2 * kRoverControlPoints) {
    throw std::invalid_argument("rover_reward: needs " + std::to_string(2 * kRoverControlPoints) +
                                " values, got " + std::to_string(x.size()));
  }
  // The control sequence with each end point three times: the curve's ends are the end points.
  constexpr int kPadded = kRoverControlPoints + 4;
  std::array<double, kPadded> px{}, py{};
  for (int k = 0; k < kPadded; ++k) {
    const int point = k < 2 ? 0 : (k >= kRoverControlPoints + 2 ? kRoverControlPoints - 1 : k - 2);
    px[k] = x[2 * point];
    py[k] = x[2 * point + 1];
  }
  double inside = 0.0;
  double last_x = px[0], last_y = py[0];
  for (int segment = 0; segment + 3 < kPadded; ++segment) {
    const std::array<double, 4> sx{px[segment], px[segment + 1], px[segment + 2], px[segment + 3]};
    const std::array<double, 4> sy{py[segment], py[segment + 1], py[segment + 2], py[segment + 3]};
    for (int s = 1; s <= kSamplesPerSegment; ++s) {
      const double t = static_cast<double>(s) / kSamplesPerSegment;
      const double cx = blend(sx, t), cy = blend(sy, t);
      // A piece of the curve counts as inside when its midpoint is.
      if (rover_blocked(field, 0.5 * (cx + last_x), 0.5 * (cy + last_y), 0.0)) {
        inside += std::hypot(cx - last_x, cy - last_y);
      }
      last_x = cx;
      last_y = cy;
    }
  }
  const double miss = std::fabs(px[0] - field.start_x) + std::fabs(py[0] - field.start_y) +
                      std::fabs(px[kPadded - 1] - field.goal_x) +
                      std::fabs(py[kPadded - 1] - field.goal_y);
  return kRoverMaximum - kCollisionCost * inside - kMissCost * miss;
}

}  // namespace hd_suite
