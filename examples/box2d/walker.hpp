// A four-legged walker in Box2D 2.4 whose gait has 16 parameters: the simulation that
// examples/box2d/main.cpp tunes with addbo. One evaluation builds its own b2World, so that
// several evaluations may run at once on different threads.
//
// The walker is a box-shaped torso with a front and a back leg, each a thigh and a shin joined
// to the torso at the hip and to each other at the knee by motorised revolute joints. Every
// joint follows a sine, target(t) = offset + amplitude * sin(2 pi frequency t + phase), through
// a proportional controller (motor speed = gain * (target - angle)). The objective is how far
// the torso travels forward in the simulated time; a walker that flips over (torso turned past
// 90 degrees) stops there and loses kFlipPenalty metres.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace box2d_walker {

// The 16 parameters in the order of a point: their names (also the addbo variable names), lower
// and upper bounds. Angles in radians, lengths in metres, frequency in hertz.
struct ParameterRange {
  const char* name;
  double lower, upper;
};
constexpr std::size_t kParameterCount = 16;
const std::array<ParameterRange, kParameterCount>& parameter_ranges();

constexpr double kFlipPenalty = 2.0;  // metres lost by a walker that flips over

// Where the walker's parts are at one moment, for drawing: the torso's four corners and each
// leg's hip, knee and foot.
struct Pose {
  double time = 0.0;
  std::array<std::array<double, 2>, 4> torso{};
  std::array<std::array<std::array<double, 2>, 3>, 2> legs{};  // [front, back][hip, knee, foot]
};

struct Walk {
  double distance = 0.0;  // forward travel of the torso in metres, less kFlipPenalty if flipped
  bool flipped = false;
  std::vector<Pose> poses;  // every `pose_every` steps when asked for, else empty
};

// Simulates the walker with parameters `x` (kParameterCount values within parameter_ranges())
// for `seconds` at 60 steps per second; records a pose every `pose_every` steps (0: none).
// Deterministic: the same x gives the same walk. Throws std::invalid_argument for a point of
// another length.
Walk simulate(const std::vector<double>& x, double seconds, int pose_every = 0);

}  // namespace box2d_walker
