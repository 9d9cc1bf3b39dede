// addbo_info's document (docs/c-api.md, "The info document"): the model of record, the counts,
// where the search stands and this handle's last ask and tell, built from the engine's committed
// state.
#pragma once

#include <nlohmann/json.hpp>

#include "optimizer/optimizer_engine.hpp"

namespace addbo::core {

nlohmann::json info_report(const OptimizerEngine& engine);

}  // namespace addbo::core
