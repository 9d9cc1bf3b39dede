// A benchmark's configuration patch, for experiments with settings beyond its methods: a JSON
// merge patch (RFC 7386) in an environment variable (hd_suite's HD_SUITE_CONFIG_PATCH,
// constrained_suite's CONSTRAINED_SUITE_CONFIG_PATCH), applied to every addbo configuration the
// benchmark makes. Read once when the benchmark starts, so that a malformed patch is one error
// before any run rather than the same error in every run.
#pragma once

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace addbo_examples {

// The patch in environment variable `variable`: an empty object (which patches nothing) when it
// is unset or empty. Throws std::invalid_argument naming the variable when it holds anything but
// a JSON object (a patch that is not an object would replace the whole configuration).
inline nlohmann::json config_patch_from_environment(const char* variable) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return nlohmann::json::object();
  nlohmann::json patch = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!patch.is_object()) {
    throw std::invalid_argument(std::string(variable) + " is not a JSON object: " + text);
  }
  return patch;
}

}  // namespace addbo_examples
