// One variable of the search space as the configuration describes it: its type, scale, bounds
// and grid. Defined here, below the configuration, so that the numerical modules (gp, learn) can
// name variable types without compiling the configuration and its JSON library.
#pragma once

#include <string>
#include <vector>

namespace addbo::core {

enum class VariableType { continuous, integer, categorical };
// How a continuous or integer variable is encoded for the grid and the kernel: linearly, or by
// its logarithm (docs/configuration.md, "Log-scale variables"; lower > 0).
enum class Scale { linear, log };

// Grid points of a continuous variable when the configuration gives none.
constexpr int kDefaultGrid = 32;

struct VariableSpec {
  std::string name;
  VariableType type = VariableType::continuous;
  Scale scale = Scale::linear;  // continuous and integer; categorical: always linear
  double lower = 0.0;  // continuous and integer (integer bounds are whole numbers; log: > 0)
  double upper = 1.0;
  // continuous: grid points; integer: upper-lower+1, or on a log scale the configured number of
  // geometric points before rounding (Space holds the distinct integers); categorical: choices.
  int grid = kDefaultGrid;
  std::vector<std::string> choices;  // categorical only

  bool operator==(const VariableSpec& o) const {
    return name == o.name && type == o.type && scale == o.scale && lower == o.lower &&
           upper == o.upper && grid == o.grid && choices == o.choices;
  }
};

}  // namespace addbo::core
