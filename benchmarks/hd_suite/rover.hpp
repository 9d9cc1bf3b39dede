// A rover's trajectory through a field of obstacles, in 60 variables: the kind of planning
// problem issue 26 measured (Wang et al. 2018 introduced one, and TuRBO's and SCBO's papers use
// it). This one is addbo's own: its obstacle field, its curve and its costs are defined here.
//
// The 60 variables in [0, 1] are 30 control points (x[2k], x[2k + 1]) of a uniform cubic
// B-spline whose end points are repeated three times, so the curve starts at the first and ends
// at the last. Its reward, to maximise, is
//   5 - 20 * (length of the curve inside obstacles) - 10 * (|c(0) - s|_1 + |c(1) - g|_1),
// with s = (0.05, 0.05), g = (0.95, 0.95) and 150 square obstacles of side 0.05 whose centres a
// fixed stream draws in the unit square away from s and g. A curve from s to g that touches no
// obstacle earns 5, the maximum; exact_optima_test.cpp builds one.
//
// Why it belongs in the suite: a curve segment depends on 4 consecutive control points, so the
// reward is a sum over overlapping groups of 8 variables along a chain (G-Add's setting), but
// the groups are not given, the cost grows in steps as pieces of the curve enter obstacles,
// and most of the box's curves cross many obstacles: a function far from the GP samples and
// closed forms beside it.
#pragma once

#include <vector>

namespace hd_suite {

struct RoverObstacle {
  double x_low, y_low, x_high, y_high;
};

struct RoverField {
  double start_x = 0.05, start_y = 0.05, goal_x = 0.95, goal_y = 0.95;
  std::vector<RoverObstacle> obstacles;
};

constexpr int kRoverControlPoints = 30;
constexpr double kRoverMaximum = 5.0;

// The fixed field: 150 squares of side 0.05, centres uniform in [0, 1]^2 but none within 0.1 of
// s or g in both coordinates, so that both ends are free.
const RoverField& rover_field();

// The reward of control points x (60 values in [0, 1]) in `field`; std::invalid_argument for
// another number of values.
double rover_reward(const RoverField& field, const std::vector<double>& x);

// Whether (x, y) lies inside an obstacle of `field` grown by `margin` on every side.
bool rover_blocked(const RoverField& field, double x, double y, double margin);

}  // namespace hd_suite
