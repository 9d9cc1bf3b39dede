// Fuzz target: the saved-state text given to addbo_load.
//
// Contract checked: addbo_load returns a known status (never ADDBO_ERR_INTERNAL), with a message
// on failure and *out set to NULL. On success the optimizer's state saves, that text loads and
// saves back to the same bytes (the input itself need not be canonical), info succeeds, and the
// next ask and tell of an optimizer restored from the saved text equal the original's (status,
// point and saved bytes after each call).
//
// Work bound: an ask on a loaded state runs only when the state is small (few variables,
// observations and pending points, a small learning budget and tables): the documented limits
// allow states whose first ask takes minutes, which would only time the fuzzer out.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_support.hpp"

namespace {

// Whether the next ask on this saved state is cheap enough for a fuzz run (well under a second).
bool small_state(const std::string& state) {
  const nlohmann::json document = nlohmann::json::parse(state, nullptr, false);
  if (!document.is_object()) return false;
  try {
    const nlohmann::json& config = document.at("config");
    const nlohmann::json& variables = config.at("variables");
    if (variables.size() > 8) return false;
    if (document.at("observations").size() + document.at("pending").size() > 64) return false;
    if (config.at("structure").at("gibbs_evaluations").get<double>() > 500) return false;
    const double threads = config.at("limits").at("threads").get<double>();
    if (threads > 4) return false;
    double cells = 1.0;
    for (const nlohmann::json& variable : variables) {
      double size = 32;
      if (variable.contains("grid")) size = variable.at("grid").get<double>();
      if (variable.contains("choices")) size = static_cast<double>(variable.at("choices").size());
      if (variable.value("type", "") == "integer" &&
          variable.value("scale", "linear") == "linear") {
        size = variable.at("upper").get<double>() - variable.at("lower").get<double>() + 1;
      }
      cells *= size;
    }
    cells = std::min(cells, config.at("limits").at("max_table_cells").get<double>());
    return cells <= 1 << 20;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace addbo_fuzz;
  const std::string text(reinterpret_cast<const char*>(data), size);
  int sentinel = 0;
  addbo_optimizer* loaded = reinterpret_cast<addbo_optimizer*>(&sentinel);
  const int status = check_status(addbo_load(&loaded, text.c_str()), "addbo_load");
  if (status != ADDBO_OK) {
    check(loaded == nullptr, "a failed addbo_load did not set *out to NULL");
    check(status == ADDBO_ERR_STATE || status == ADDBO_ERR_OUT_OF_MEMORY,
          std::string("addbo_load failed with ") + addbo_status_name(status));
    return 0;
  }
  check(loaded != nullptr, "addbo_load returned ADDBO_OK and no handle");
  Handle opt(loaded);
  first_steps(opt, small_state(save(opt.get(), "after addbo_load")) ? 8 : 0);
  return 0;
}
