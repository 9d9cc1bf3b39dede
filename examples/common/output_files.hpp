// Small helpers the benchmarks and examples share: output files, numbers, shell quoting,
// options.
#pragma once

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace addbo_examples {

// An output file, or std::runtime_error naming it.
inline std::ofstream open_output(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  return out;
}

// A number with `digits` significant digits; "NaN" for anything not finite.
inline std::string format_number(double value, int digits) {
  if (!std::isfinite(value)) return "NaN";
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

// `text` quoted for the shell (single quotes; an inner quote becomes '\'').
inline std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The non-empty parts of a comma-separated command-line value.
inline std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// The integer `value` of command-line `flag`, or std::invalid_argument naming the flag.
inline int integer_at_least(const std::string& flag, const std::string& value, int minimum) {
  std::size_t used = 0;
  int parsed = 0;
  try {
    parsed = std::stoi(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || parsed < minimum) {
    throw std::invalid_argument(flag + " needs an integer of at least " + std::to_string(minimum) +
                                " (got '" + value + "')");
  }
  return parsed;
}

// Checks that the `count` >= 1 seeds first, ..., first + count - 1 (the --first-seed and --seeds
// options) are all ints, or std::invalid_argument naming --first-seed.
inline void check_seed_range(int first, int count) {
  if (first > std::numeric_limits<int>::max() - (count - 1)) {
    throw std::invalid_argument("--first-seed: the last seed would pass " +
                                std::to_string(std::numeric_limits<int>::max()));
  }
}

// The number `value` of command-line `flag`, finite and > 0, or std::invalid_argument naming
// the flag.
inline double positive_number(const std::string& flag, const std::string& value) {
  std::size_t used = 0;
  double parsed = 0.0;
  try {
    parsed = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || !std::isfinite(parsed) || !(parsed > 0.0)) {
    throw std::invalid_argument(flag + " needs finite numbers > 0 (got '" + value + "')");
  }
  return parsed;
}

// Reads argv as options: a flag in `switches` takes no value and goes to on_switch(flag); any
// other flag takes the next argument as its value and goes to on_value(flag, value), which
// throws std::invalid_argument for a flag it does not know. A flag without its value throws,
// naming it.
template <typename OnSwitch, typename OnValue>
void read_options(int argc, char** argv, const std::vector<std::string>& switches,
                  OnSwitch on_switch, OnValue on_value) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    bool is_switch = false;
    for (const std::string& name : switches) is_switch = is_switch || name == flag;
    if (is_switch) {
      on_switch(flag);
    } else if (i + 1 < argc) {
      on_value(flag, std::string(argv[++i]));
    } else {
      throw std::invalid_argument(flag + ": unknown option or missing value");
    }
  }
}

}  // namespace addbo_examples
