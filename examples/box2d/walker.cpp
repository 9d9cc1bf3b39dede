#include "walker.hpp"

#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace box2d_walker {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr float kStep = 1.0f / 60.0f;
constexpr float kTorsoHalfLength = 0.8f, kTorsoHalfHeight = 0.15f;
constexpr float kLegHalfWidth = 0.06f;
constexpr float kHipOffset = 0.65f;  // hips at +-kHipOffset along the torso
constexpr float kMaxMotorTorque = 60.0f;
constexpr float kMaxMotorSpeed = 12.0f;

// One leg's parameters: for the hip and the knee, (amplitude, offset, phase).
struct JointWave {
  double amplitude, offset, phase;
};

}  // namespace

const std::array<ParameterRange, kParameterCount>& parameter_ranges() {
  static const std::array<ParameterRange, kParameterCount> ranges = {{
      {"frequency", 0.5, 2.5},
      {"gain", 2.0, 20.0},
      {"thigh_length", 0.3, 0.7},
      {"shin_length", 0.3, 0.7},
      {"front_hip_amplitude", 0.0, 0.9},
      {"front_hip_offset", -0.6, 0.6},
      {"front_hip_phase", 0.0, 2.0 * kPi},
      {"front_knee_amplitude", 0.0, 0.9},
      {"front_knee_offset", -0.9, 0.3},
      {"front_knee_phase", 0.0, 2.0 * kPi},
      {"back_hip_amplitude", 0.0, 0.9},
      {"back_hip_offset", -0.6, 0.6},
      {"back_hip_phase", 0.0, 2.0 * kPi},
      {"back_knee_amplitude", 0.0, 0.9},
      {"back_knee_offset", -0.9, 0.3},
      {"back_knee_phase", 0.0, 2.0 * kPi},
  }};
  return ranges;
}

namespace {

b2Body* make_box(b2World& world, b2Vec2 centre, float half_width, float half_height,
                 float friction) {
  b2BodyDef body;
  body.type = b2_dynamicBody;
  body.position = centre;
  b2Body* made = world.CreateBody(&body);
  b2PolygonShape shape;
  shape.SetAsBox(half_width, half_height);
  b2FixtureDef fixture;
  fixture.shape = &shape;
  fixture.density = 1.0f;
  fixture.friction = friction;
  fixture.filter.groupIndex = -1;  // the walker's parts never collide with each other
  made->CreateFixture(&fixture);
  return made;
}

b2RevoluteJoint* make_joint(b2World& world, b2Body* a, b2Body* b, b2Vec2 anchor, float lower,
                            float upper) {
  b2RevoluteJointDef joint;
  joint.Initialize(a, b, anchor);
  joint.enableMotor = true;
  joint.maxMotorTorque = kMaxMotorTorque;
  joint.enableLimit = true;
  joint.lowerAngle = lower;
  joint.upperAngle = upper;
  return static_cast<b2RevoluteJoint*>(world.CreateJoint(&joint));
}

struct Leg {
  b2Body* thigh;
  b2Body* shin;
  b2RevoluteJoint* hip;
  b2RevoluteJoint* knee;
  JointWave hip_wave, knee_wave;
};

std::array<double, 2> point_of(const b2Body* body, b2Vec2 local) {
  const b2Vec2 world = body->GetWorldPoint(local);
  return {static_cast<double>(world.x), static_cast<double>(world.y)};
}

}  // namespace

Walk simulate(const std::vector<double>& x, double seconds, int pose_every) {
  if (x.size() != kParameterCount) {
    throw std::invalid_argument("simulate: the walker has " + std::to_string(kParameterCount) +
                                " parameters, got " + std::to_string(x.size()));
  }
  const double frequency = x[0], gain = x[1];
  const float thigh = static_cast<float>(x[2]), shin = static_cast<float>(x[3]);

  b2World world(b2Vec2(0.0f, -10.0f));
  b2BodyDef ground_body;
  b2Body* ground = world.CreateBody(&ground_body);
  b2EdgeShape floor;
  floor.SetTwoSided(b2Vec2(-100.0f, 0.0f), b2Vec2(400.0f, 0.0f));
  b2FixtureDef floor_fixture;
  floor_fixture.shape = &floor;
  floor_fixture.friction = 0.9f;
  ground->CreateFixture(&floor_fixture);

  const float hip_height = thigh + shin + 0.05f;
  b2Body* torso =
      make_box(world, b2Vec2(0.0f, hip_height), kTorsoHalfLength, kTorsoHalfHeight, 0.6f);
  std::array<Leg, 2> legs{};
  for (std::size_t side = 0; side < 2; ++side) {
    const float hip_x = side == 0 ? kHipOffset : -kHipOffset;
    Leg& leg = legs[side];
    leg.thigh =
        make_box(world, b2Vec2(hip_x, hip_height - thigh / 2), kLegHalfWidth, thigh / 2, 0.6f);
    leg.shin = make_box(world, b2Vec2(hip_x, hip_height - thigh - shin / 2), kLegHalfWidth,
                        shin / 2, 1.2f);
    leg.hip = make_joint(world, torso, leg.thigh, b2Vec2(hip_x, hip_height), -1.2f, 1.2f);
    leg.knee =
        make_joint(world, leg.thigh, leg.shin, b2Vec2(hip_x, hip_height - thigh), -1.6f, 0.4f);
    const std::size_t first = 4 + 6 * side;
    leg.hip_wave = {x[first], x[first + 1], x[first + 2]};
    leg.knee_wave = {x[first + 3], x[first + 4], x[first + 5]};
  }

  Walk walk;
  const double start = torso->GetPosition().x;
  const int steps = static_cast<int>(std::lround(seconds / kStep));
  double end_time = 0.0;
  auto record_pose = [&](double time) {
    Pose pose;
    pose.time = time;
    const float hx = kTorsoHalfLength, hy = kTorsoHalfHeight;
    const b2Vec2 corners[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
    for (int c = 0; c < 4; ++c) pose.torso[c] = point_of(torso, corners[c]);
    for (std::size_t side = 0; side < 2; ++side) {
      pose.legs[side][0] = point_of(legs[side].thigh, b2Vec2(0.0f, thigh / 2));
      pose.legs[side][1] = point_of(legs[side].shin, b2Vec2(0.0f, shin / 2));
      pose.legs[side][2] = point_of(legs[side].shin, b2Vec2(0.0f, -shin / 2));
    }
    walk.poses.push_back(pose);
  };
  for (int step = 0; step < steps; ++step) {
    const double time = step * static_cast<double>(kStep);
    if (pose_every > 0 && step % pose_every == 0) record_pose(time);
    auto drive = [&](b2RevoluteJoint* joint, const JointWave& wave) {
      const double target =
          wave.offset + wave.amplitude * std::sin(2.0 * kPi * frequency * time + wave.phase);
      const double speed = gain * (target - joint->GetJointAngle());
      joint->SetMotorSpeed(
          static_cast<float>(std::clamp<double>(speed, -kMaxMotorSpeed, kMaxMotorSpeed)));
    };
    for (const Leg& leg : legs) {
      drive(leg.hip, leg.hip_wave);
      drive(leg.knee, leg.knee_wave);
    }
    world.Step(kStep, 8, 3);
    end_time = time + kStep;
    if (std::cos(torso->GetAngle()) < 0.0f) {  // turned past 90 degrees: on its back or nose
      walk.flipped = true;
      break;
    }
  }
  if (pose_every > 0) record_pose(end_time);
  walk.distance = torso->GetPosition().x - start - (walk.flipped ? kFlipPenalty : 0.0);
  return walk;
}

}  // namespace box2d_walker
