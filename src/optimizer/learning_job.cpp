#include "optimizer/learning_job.hpp"

#include <chrono>

#include "graph/graph.hpp"

namespace addbo::core {

void run_learning(LearningJob& job) {
  const auto start = std::chrono::steady_clock::now();
  job.output = learn_model(job.input);
  job.constraint_outputs.clear();
  const LearningOutput* previous = &job.output;
  for (LearningInput& constraint : job.constraint_inputs) {
    if (job.constraints_follow_graph) constraint.start.edges = job.output.best.edges;
    constraint.random = previous->random;
    job.constraint_outputs.push_back(learn_model(constraint));
    previous = &job.constraint_outputs.back();
  }
  if (job.failure_input) {
    job.input.interrupt.throw_if_requested();
    const std::vector<Edge>& edges =
        job.constraints_follow_graph ? job.output.best.edges : job.input.start.edges;
    job.failure_input->cliques =
        maximal_cliques(Graph(static_cast<int>(job.input.types.size()), edges));
    job.failure_output = learn_failure_model(*job.failure_input);
  }
  job.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  job.done = true;
}

}  // namespace addbo::core
