// Correct connections (CC) and correct separations (CS) of the graph an optimizer currently
// holds, against a true graph (the paper's section 5.1), for examples and benchmarks that drive
// the public API. The definition is the tests' (evaluation/graph_metrics.hpp): a target including
// this header links addbo_evaluation for that helper, next to the public addbo library.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "evaluation/graph_metrics.hpp"

namespace addbo_examples {

// info_json is the text of addbo_info() / addbo::Optimizer::info(); its "edges" are compared
// with `truth` over the variables 0..dimension-1.
inline addbo::core::GraphAccuracy learned_graph_accuracy(
    const std::string& info_json, int dimension, const std::vector<std::pair<int, int>>& truth) {
  const nlohmann::json info = nlohmann::json::parse(info_json);
  std::vector<addbo::core::Edge> learned;
  for (const nlohmann::json& edge : info.at("edges")) {
    learned.emplace_back(edge.at(0).get<int>(), edge.at(1).get<int>());
  }
  return addbo::core::graph_accuracy(dimension, learned, truth);
}

}  // namespace addbo_examples
