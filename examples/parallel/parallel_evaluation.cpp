// Parallel evaluation with ask/tell in C++: keeps k evaluations in flight (std::async), tells each
// value as soon as its evaluation finishes and asks for the next point at once, so no worker waits
// for the slowest evaluation of a batch.
//
//   example_parallel_evaluation [in_flight=4] [evaluations=60]
//
// One thread, this one, calls ask and tell; the evaluations only compute. The handle would also
// accept calls from the workers themselves (addbo serialises the calls on one handle: see the
// threading rules in docs/c-api.md; examples/c/parallel_evaluation.c does it that way), but a
// single caller keeps the bookkeeping in one place. ctest runs it as example_parallel_evaluation.
#include <addbo/addbo.hpp>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

// The black box: additive over the pairs (x0, x1), (x2, x3), (x4, x5); its maximum, 0, is at
// (0.3, 0.7, 0.55, 0.2, 0.8, 0.45). Evaluation `index` takes 2-20 ms, varying with the index, so
// that evaluations finish in another order than they started, as real ones do.
double black_box(const std::vector<double>& x, int index) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2 + (index * 7) % 19));
  const double center[6] = {0.3, 0.7, 0.55, 0.2, 0.8, 0.45};
  double sum = 0.0;
  for (int k = 0; k < 6; k += 2) {
    const double a = x[k] - center[k], b = x[k + 1] - center[k + 1];
    sum -= a * a + b * b - a * b;  // the pair (x[k], x[k+1]) interacts
  }
  return sum;
}

struct Finished {
  int index;
  std::vector<double> x;
  double y;
};

// Evaluations push their result here; the asking thread pops them in the order they finish.
class FinishedQueue {
 public:
  void push(Finished finished) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(finished));
    }
    ready_.notify_one();
  }
  Finished pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return !queue_.empty(); });
    Finished finished = std::move(queue_.front());
    queue_.pop_front();
    return finished;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Finished> queue_;
};

}  // namespace

int main(int argc, char** argv) {
  const int in_flight = argc > 1 ? std::atoi(argv[1]) : 4;
  const int evaluations = argc > 2 ? std::atoi(argv[2]) : 60;
  if (in_flight < 1 || evaluations < 1) {
    std::fprintf(stderr,
                 "usage: example_parallel_evaluation [in_flight >= 1] [evaluations >= 1]\n");
    return 2;
  }
  const std::string config = R"({"dimension": 6, "seed": 1,
    "structure": {"mode": "fixed", "edges": [[0, 1], [2, 3], [4, 5]]},
    "kernel": {"lengthscales": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}})";

  try {
    addbo::Optimizer optimizer(config);
    FinishedQueue finished;
    // Every evaluation's future, kept until the end: a std::async future blocks in its
    // destructor, and the results arrive through `finished` anyway.
    std::vector<std::future<void>> running;
    int asked = 0;
    std::size_t most_pending = 0;
    auto start_next = [&]() {
      const int index = asked++;
      std::vector<double> x = optimizer.ask();  // pending until told
      most_pending = std::max(most_pending, optimizer.pending());
      running.push_back(std::async(std::launch::async, [&finished, index, x = std::move(x)]() {
        finished.push({index, x, black_box(x, index)});
      }));
    };

    std::printf("addbo %s: %d evaluations, %d in flight\n", addbo_version(), evaluations,
                in_flight);
    for (int i = 0; i < in_flight && asked < evaluations; ++i) start_next();
    for (int told = 1; told <= evaluations; ++told) {
      const Finished done = finished.pop();
      optimizer.tell(done.x, done.y);
      if (asked < evaluations) start_next();
      if (told % 10 == 0) {
        std::printf("told %2d (evaluation %2d finished)  y % .5f  best % .5f\n", told,
                    done.index + 1, done.y, optimizer.best().y);
      }
    }

    const addbo::Observation best = optimizer.best();
    std::printf("best y %.5f at x = [", best.y);
    for (std::size_t d = 0; d < best.x.size(); ++d) std::printf("%s%.4f", d ? ", " : "", best.x[d]);
    std::printf("]\nat most %zu points were pending at once\n", most_pending);
    // Every asked point was told: nothing is left pending, and no more than k were ever out.
    if (optimizer.count() != static_cast<std::size_t>(evaluations) || optimizer.pending() != 0 ||
        most_pending > static_cast<std::size_t>(in_flight)) {
      std::fprintf(stderr, "unexpected counts: %zu told, %zu pending, %zu at most\n",
                   optimizer.count(), optimizer.pending(), most_pending);
      return 1;
    }
  } catch (const addbo::Error& error) {
    std::fprintf(stderr, "%s: %s\n", error.status_name(), error.what());
    return 1;
  }
  return 0;
}
