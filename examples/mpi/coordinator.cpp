#include "coordinator.hpp"

#include <mpi.h>

#include <addbo/addbo.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "checkpoint.hpp"
#include "objective.hpp"
#include "protocol.hpp"

namespace mpi_evaluation {

namespace {

using Clock = std::chrono::steady_clock;
using Point = std::vector<double>;

struct InFlight {
  std::int64_t id;
  Point x;
};

// A worker rank as rank 0 sees it: the points sent and not yet answered (a worker evaluates
// them in the order sent), and when it was last heard from.
struct Worker {
  int rank = 0;
  std::deque<InFlight> points;
  Clock::time_point last_heard;
  bool lost = false;
};

std::string configuration(int seed) {
  nlohmann::json variables = nlohmann::json::array();
  for (int d = 0; d < kDimension; ++d) {
    variables.push_back({{"name", "x" + std::to_string(d + 1)}, {"lower", 0.0}, {"upper", 1.0}});
  }
  return nlohmann::json{{"variables", variables}, {"goal", "maximize"}, {"seed", seed}}.dump();
}

// The observations ({x, y}) and pending points of a saved state.
struct SavedRun {
  nlohmann::json observations = nlohmann::json::array();
  std::vector<Point> pending;
};

SavedRun saved_run(const std::string& state) {
  const nlohmann::json document = nlohmann::json::parse(state);
  SavedRun run;
  run.observations = document.at("observations");
  for (const auto& x : document.at("pending")) run.pending.push_back(x.get<Point>());
  return run;
}

class Coordinator {
 public:
  Coordinator(const Options& options, int world_size) : options_(options) {
    for (int rank = 1; rank < world_size; ++rank) workers_.push_back({rank, {}, Clock::now()});
  }

  int run();

 private:
  std::size_t in_flight() const {
    std::size_t total = 0;
    for (const Worker& worker : workers_) total += worker.points.size();
    return total;
  }
  void fill(std::size_t target);
  void receive_result(const MPI_Status& probed);
  void give_up_silent_workers();
  void stop_workers();
  void checkpoint() { write_checkpoint(options_.checkpoint, optimizer_->save()); }

  const Options& options_;
  std::vector<Worker> workers_;
  std::unique_ptr<addbo::Optimizer> optimizer_;
  std::deque<Point> resend_;                // the checkpoint's pending points, sent first
  std::map<std::int64_t, Point> given_up_;  // points of lost workers, cancelled
  std::int64_t next_id_ = 0;
  int told_ = 0, failed_ = 0, lost_points_ = 0, late_values_ = 0;
};

// Sends points to the workers that have room, asking addbo for new ones once the checkpoint's
// pending points are out, while fewer than `target` values are told or in flight.
void Coordinator::fill(std::size_t target) {
  for (Worker& worker : workers_) {
    while (!worker.lost && worker.points.size() < static_cast<std::size_t>(options_.per_worker) &&
           optimizer_->count() + in_flight() < target) {
      Point x;
      if (!resend_.empty()) {
        x = resend_.front();  // still pending in the optimizer: its value will match it
        resend_.pop_front();
      } else {
        x = optimizer_->ask();
      }
      std::vector<double> message{static_cast<double>(next_id_)};
      message.insert(message.end(), x.begin(), x.end());
      MPI_Send(message.data(), static_cast<int>(message.size()), MPI_DOUBLE, worker.rank, kWork,
               MPI_COMM_WORLD);
      if (worker.points.empty()) worker.last_heard = Clock::now();  // its clock starts now
      worker.points.push_back({next_id_++, std::move(x)});
    }
  }
}

void Coordinator::receive_result(const MPI_Status& probed) {
  double result[3];
  MPI_Recv(result, 3, MPI_DOUBLE, probed.MPI_SOURCE, kResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  const auto id = static_cast<std::int64_t>(result[0]);
  const bool value = static_cast<int>(result[1]) == kValue;
  Worker& worker = workers_[static_cast<std::size_t>(probed.MPI_SOURCE - 1)];
  worker.last_heard = Clock::now();
  const auto sent = std::find_if(worker.points.begin(), worker.points.end(),
                                 [id](const InFlight& point) { return point.id == id; });
  if (sent == worker.points.end()) {
    // A worker given up for silence was only slow: its point was cancelled, but its outcome is
    // real, so it is told (as a new observation or failure) rather than thrown away.
    const auto given_up = given_up_.find(id);
    worker.lost = false;
    if (given_up == given_up_.end()) return;
    if (value) {
      optimizer_->tell(given_up->second, result[2]);
      ++late_values_;
    } else {
      optimizer_->tell_failure(given_up->second);
      ++failed_;
    }
    given_up_.erase(given_up);
    checkpoint();
    return;
  }
  if (value) {
    optimizer_->tell(sent->x, result[2]);
    ++told_;
    if (optimizer_->count() % 10 == 0) {
      std::printf("told %3zu  y %9.5f  best %9.5f  (worker %d)\n", optimizer_->count(), result[2],
                  optimizer_->best().y, worker.rank);
      std::fflush(stdout);
    }
  } else {
    // Told as a failure, not cancelled: the optimizer then never asks this grid cell again and
    // learns to avoid the region where evaluations fail (cancel would forget the point).
    optimizer_->tell_failure(sent->x);
    ++failed_;
  }
  worker.points.erase(sent);
  checkpoint();
}

// A worker that holds points and has not been heard from for options_.timeout seconds is
// taken for dead (a crashed node, a killed job): its points are cancelled, so that the run goes
// on without them, and it gets no more work.
void Coordinator::give_up_silent_workers() {
  const auto now = Clock::now();
  for (Worker& worker : workers_) {
    if (worker.lost || worker.points.empty() ||
        std::chrono::duration<double>(now - worker.last_heard).count() < options_.timeout) {
      continue;
    }
    worker.lost = true;
    std::printf("worker %d silent for %.1f s: given up, %zu point(s) cancelled\n", worker.rank,
                options_.timeout, worker.points.size());
    std::fflush(stdout);
    for (InFlight& point : worker.points) {
      optimizer_->cancel(point.x);
      given_up_.emplace(point.id, std::move(point.x));
      ++lost_points_;
    }
    worker.points.clear();
    checkpoint();
  }
}

// Every worker ends, also one given up for silence: alive, it reads the message when it wakes
// (one stuck for good would keep MPI_Finalize, and so the job, waiting: the checkpoint holds
// every value by then).
void Coordinator::stop_workers() {
  for (const Worker& worker : workers_) {
    MPI_Send(nullptr, 0, MPI_DOUBLE, worker.rank, kStop, MPI_COMM_WORLD);
  }
}

int Coordinator::run() {
  SavedRun resumed;
  if (options_.resume) {
    const std::string state = read_checkpoint(options_.checkpoint);
    optimizer_ = std::make_unique<addbo::Optimizer>(addbo::Optimizer::load(state));
    resumed = saved_run(state);
    resend_.assign(resumed.pending.begin(), resumed.pending.end());
    std::printf("resumed from %s: %zu values told, %zu points pending, sent again first\n",
                options_.checkpoint.c_str(), optimizer_->count(), resend_.size());
  } else {
    optimizer_ = std::make_unique<addbo::Optimizer>(configuration(options_.seed));
  }
  const std::size_t target = static_cast<std::size_t>(options_.evaluations);
  std::printf("%zu workers, %d point(s) each: %zu in flight; %zu values to tell\n", workers_.size(),
              options_.per_worker, workers_.size() * static_cast<std::size_t>(options_.per_worker),
              target);
  checkpoint();
  while (optimizer_->count() < target) {
    fill(target);
    if (in_flight() == 0) {
      std::fprintf(stderr, "mpi_evaluation: every worker is lost; the checkpoint %s resumes\n",
                   options_.checkpoint.c_str());
      return 1;
    }
    int arrived = 0;
    MPI_Status probed;
    MPI_Iprobe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &arrived, &probed);
    if (arrived) {
      receive_result(probed);
      continue;
    }
    give_up_silent_workers();
    // Nothing to do until a value arrives: poll gently, the workers may share our cores.
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  stop_workers();

  std::vector<std::string> lost;
  for (const Worker& worker : workers_) {
    if (worker.lost) lost.push_back(std::to_string(worker.rank));
  }
  std::string lost_ranks;
  for (const std::string& rank : lost) lost_ranks += (lost_ranks.empty() ? "" : ", ") + rank;
  std::printf(
      "told %zu values in all, %d in this run (and %d late values of workers given up); "
      "%d failed evaluations told, %d points of lost workers cancelled; workers "
      "lost: %s; %zu pending\n",
      optimizer_->count(), told_, late_values_, failed_, lost_points_,
      lost.empty() ? "none" : lost_ranks.c_str(), optimizer_->pending());
  const addbo::Observation best = optimizer_->best();
  std::printf("best y %.5f at x = [", best.y);
  for (std::size_t d = 0; d < best.x.size(); ++d) std::printf("%s%.4f", d ? ", " : "", best.x[d]);
  std::printf("]; checkpoint %s\n", options_.checkpoint.c_str());

  if (options_.resume) {
    // The restart lost no told value: the checkpoint's observations open the final state,
    // the same points and the same values, bit for bit.
    const nlohmann::json now = saved_run(optimizer_->save()).observations;
    const std::size_t kept = resumed.observations.size();
    if (now.size() < kept ||
        !std::equal(resumed.observations.begin(), resumed.observations.end(), now.begin())) {
      std::fprintf(stderr, "mpi_evaluation: the checkpoint's observations are not all kept\n");
      return 1;
    }
    std::printf("kept every value the checkpoint held: %zu of %zu\n", kept, kept);
  }
  return 0;
}

}  // namespace

int run_coordinator(const Options& options, int world_size) {
  try {
    Coordinator coordinator(options, world_size);
    return coordinator.run();
  } catch (const addbo::Error& error) {
    std::fprintf(stderr, "mpi_evaluation: %s: %s\n", error.status_name(), error.what());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mpi_evaluation: %s\n", error.what());
  }
  return 1;
}

}  // namespace mpi_evaluation
