#include "evaluation/graph_metrics.hpp"

namespace addbo::core {

GraphAccuracy graph_accuracy(int dimension, const std::vector<Edge>& learned,
                             const std::vector<Edge>& truth) {
  const Graph learned_graph(dimension, learned), true_graph(dimension, truth);
  long both_edges = 0, true_edges = 0, both_non_edges = 0, true_non_edges = 0;
  for (int a = 0; a < dimension; ++a) {
    for (int b = a + 1; b < dimension; ++b) {
      const bool in_truth = true_graph.has_edge(a, b), in_learned = learned_graph.has_edge(a, b);
      if (in_truth) {
        ++true_edges;
        both_edges += in_learned;
      } else {
        ++true_non_edges;
        both_non_edges += !in_learned;
      }
    }
  }
  GraphAccuracy accuracy;
  if (true_edges > 0) accuracy.correct_connections = double(both_edges) / double(true_edges);
  if (true_non_edges > 0) {
    accuracy.correct_separations = double(both_non_edges) / double(true_non_edges);
  }
  return accuracy;
}

}  // namespace addbo::core
