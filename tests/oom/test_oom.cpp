// Allocation-failure injection over the C API (README.md here): for each call of a few
// representative runs, the call is repeated on a copy of the optimizer with its k-th allocation
// failing, for k = 1, 2, ... until the call makes no more allocations than k - 1. After every
// such call:
//  - the status is ADDBO_OK or ADDBO_ERR_OUT_OF_MEMORY (or the status the call has without a
//    failure), with a message, and the process is alive (no std::terminate, no abort);
//  - after ADDBO_ERR_OUT_OF_MEMORY: its outputs are untouched (fuzz_support.hpp's perform), the
//    saved state is byte-identical to the one before the call, and the next ask equals the next
//    ask of an optimizer restored from that state (then both save the same bytes);
//  - after ADDBO_OK (a failure the call recovered from): the outputs, the saved state and the
//    next ask are those of the call made without any failure.
// addbo_create and addbo_load are checked the same way (on failure *out is NULL).
//
// Usage: addbo_oom_tests [--quick] [--persistent] [--stride-above N]. Calls of more than N
// allocations (default 4000) are checked at every k up to N, then at N more values of k spread
// evenly over the rest, always including the last; --persistent fails every allocation from the
// k-th on; --quick checks one run only.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "failing_allocator.hpp"
#include "fuzz_support.hpp"
#include "handle.hpp"

namespace {

using namespace addbo_fuzz;
using addbo_oom::Failure;

std::size_t stride_above = 4000;
std::size_t injected_calls = 0;  // calls made with a failing allocation, over the whole test

// Makes perform's C call with the failing allocator armed around it alone.
struct Armed {
  std::size_t k;
  Failure failure;
  template <class Body>
  int operator()(Body&& body) const {
    addbo_oom::arm(k, failure);
    const int status = body();
    addbo_oom::disarm();
    return status;
  }
};

// A copy of the optimizer behind `handle`, derived state (posterior tables, the last ask's
// record) included: the call under test sees exactly what the original would.
Handle copy_of(const Handle& handle) {
  return Handle(new addbo_optimizer(addbo::core::Optimizer(handle.get()->core)));
}

Call ask_call(std::size_t dim) {
  Call call;
  call.kind = Call::ask;
  call.dim = dim;
  return call;
}

// The next ask of `handle` and the state it leaves.
struct Continuation {
  Outcome ask;
  std::string state;
};

Continuation continue_with_ask(Handle& handle, std::size_t dim) {
  Continuation next;
  next.ask = perform(handle.get(), ask_call(dim));
  next.state = save(handle.get(), "after the next ask");
  return next;
}

bool same_continuation(const Continuation& a, const Continuation& b) {
  return same_outcome(a.ask, b.ask) && a.state == b.state;
}

// Where two texts first differ, with some context: saved states are long.
std::string difference(const std::string& expected, const std::string& got) {
  std::size_t at = 0;
  while (at < expected.size() && at < got.size() && expected[at] == got[at]) ++at;
  const std::size_t from = at > 80 ? at - 80 : 0;
  return "\n  expected ..." + expected.substr(from, 200) + "\n  got      ..." +
         got.substr(from, 200);
}

// What one call did under the failures: how often it failed, and where it recovered.
struct Tally {
  std::size_t checked = 0, failed = 0;
  std::vector<std::size_t> recovered;  // the k at which it returned ADDBO_OK all the same

  void count(std::size_t k, bool out_of_memory) {
    ++checked;
    ++injected_calls;
    if (out_of_memory) {
      ++failed;
    } else {
      recovered.push_back(k);
    }
  }
  void print(const std::string& label, std::size_t total) const {
    std::string ks;
    for (std::size_t i = 0; i < recovered.size() && i < 8; ++i)
      ks += " " + std::to_string(recovered[i]);
    if (recovered.size() > 8) ks += " ...";
    std::fprintf(stderr, "%-58s %6zu allocations, %5zu checked, %5zu out of memory%s%s\n",
                 label.c_str(), total, checked, failed, recovered.empty() ? "" : ", recovered at",
                 ks.c_str());
  }
};

// Which k to try for a call of `total` allocations.
std::vector<std::size_t> schedule(std::size_t total) {
  std::vector<std::size_t> ks;
  const std::size_t every = std::min(total, stride_above);
  for (std::size_t k = 1; k <= every; ++k) ks.push_back(k);
  if (total > every) {
    const std::size_t rest = total - every;
    const std::size_t step = (rest + stride_above - 1) / stride_above;
    for (std::size_t k = every + step; k < total; k += step) ks.push_back(k);
    ks.push_back(total);
  }
  return ks;
}

// The call on `handle` (which it then leaves as the call without failures leaves it), after
// the same call on copies of it with each scheduled allocation failing.
Outcome check_call(Handle& handle, const Call& call, Failure failure, const std::string& where) {
  const std::size_t dim = dimension_of(handle.get());
  const std::string before = save(handle.get(), "before the call");
  // Twice, so that one-time allocations of the process (the C library's time zone, the
  // thread-local message) are not counted as the call's.
  Handle reference_copy;
  std::size_t total = 0;
  for (int pass = 0; pass < 2; ++pass) {
    reference_copy = copy_of(handle);
    perform(reference_copy.get(), call, Armed{static_cast<std::size_t>(-1), failure});
    total = addbo_oom::allocations();
  }
  reference_copy = copy_of(handle);
  const Outcome expected = perform(reference_copy.get(), call);
  const std::string after = save(reference_copy.get(), "after the call");
  const Continuation next_after = continue_with_ask(reference_copy, dim);
  Handle restored_before = restore(before, "before the call");
  const Continuation next_before = continue_with_ask(restored_before, dim);

  const std::string label = where + ": " + call.text();
  Tally tally;
  for (std::size_t k : schedule(total)) {
    Handle copy = copy_of(handle);
    const Outcome outcome = perform(copy.get(), call, Armed{k, failure});
    const bool injected = addbo_oom::disarm();
    const std::string at = label + " with allocation " + std::to_string(k) + " of " +
                           std::to_string(total) + " failing";
    if (!injected) {  // the call needed fewer allocations this time: it must have succeeded
      check(same_outcome(outcome, expected), at + ": the call differs without a failure");
      break;
    }
    const bool out_of_memory = outcome.status == ADDBO_ERR_OUT_OF_MEMORY;
    tally.count(k, out_of_memory);
    // After a failure: the state before the call, and the next ask of a handle restored from
    // it. After a recovery: the outputs, the state and the next ask of the call without one.
    if (!out_of_memory && !same_outcome(outcome, expected)) {
      fail(at + " returned " + outcome_text(outcome) + ", without a failure " +
           outcome_text(expected));
    }
    const std::string what =
        at + (out_of_memory ? " returned ADDBO_ERR_OUT_OF_MEMORY" : " recovered");
    const std::string& state_wanted = out_of_memory ? before : after;
    const Continuation& next_wanted = out_of_memory ? next_before : next_after;
    const std::string state = save(copy.get(), "after an injected failure");
    if (state != state_wanted) {
      fail(what + " and saved a state that differs from " +
           (out_of_memory ? "the one before the call" : "the call's without a failure") +
           difference(state_wanted, state));
    }
    const Continuation next = continue_with_ask(copy, dim);
    if (!same_continuation(next, next_wanted)) {
      fail(what + "; the next ask " + outcome_text(next.ask) + " differs from " +
           outcome_text(next_wanted.ask) + " (" +
           (out_of_memory ? "the optimizer restored from the saved state" : "without a failure") +
           ")" + difference(next_wanted.state, next.state));
    }
  }
  tally.print(label, total);
  const Outcome outcome = perform(handle.get(), call);
  check(same_outcome(outcome, expected), label + ": the call differs on the original");
  check(save(handle.get(), "after the call") == after, label + ": the original saves differently");
  return outcome;
}

// addbo_create (config) or addbo_load (state) with each allocation failing in turn.
void check_construction(const std::string& text, bool load, Failure failure,
                        const std::string& where) {
  const auto construct = [&](Handle& out) {
    return check_status(
        load ? addbo_load(out.out(), text.c_str()) : addbo_create(out.out(), text.c_str()),
        load ? "addbo_load" : "addbo_create");
  };
  Handle expected;
  addbo_oom::arm(static_cast<std::size_t>(-1));
  check(construct(expected) == ADDBO_OK, where + ": the text is refused");
  addbo_oom::disarm();
  const std::size_t total = addbo_oom::allocations();
  const std::string saved = save(expected.get(), "after construction");
  const std::size_t dim = dimension_of(expected.get());
  const Continuation next = continue_with_ask(expected, dim);
  const std::string label = where + (load ? ": addbo_load" : ": addbo_create");
  Tally tally;
  for (std::size_t k : schedule(total)) {
    Handle made;
    addbo_oom::arm(k, failure);
    const int status = construct(made);
    const bool injected = addbo_oom::disarm();
    const std::string at = label + " with allocation " + std::to_string(k) + " failing";
    if (!injected) break;  // fewer one-time allocations than the reference made
    tally.count(k, status == ADDBO_ERR_OUT_OF_MEMORY);
    if (status == ADDBO_ERR_OUT_OF_MEMORY) {
      check(!made, at + " failed and set *out");
      continue;
    }
    check(status == ADDBO_OK, at + " returned " + addbo_status_name(status));
    check(save(made.get(), "after a recovered construction") == saved,
          at + " recovered with a different state");
    check(same_continuation(continue_with_ask(made, dim), next),
          at + " recovered with a different next ask");
  }
  tally.print(label, total);
}

// A configuration whose run check_run makes.
struct Run {
  const char* name;
  std::string config;
  bool calls_learn;  // addbo_learn too
  // limits.max_pending is 3: a fourth parallel ask fails with ADDBO_ERR_STATE (checked too)
  bool pending_limit = false;
};

double objective(const std::vector<double>& x) {
  double value = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    value += std::sin(3.0 * x[i] + double(i)) * (1.0 + double(i % 3));
  return value;
}

// A run of every kind of call on one configuration, each checked by check_call. Returns how
// many of its model-based asks maximised over a random tree (learn mode's hedge).
std::size_t check_run(const Run& run, Failure failure) {
  check_construction(run.config, false, failure, run.name);
  Handle opt;
  check(check_status(addbo_create(opt.out(), run.config.c_str()), "addbo_create") == ADDBO_OK,
        std::string(run.name) + ": the configuration is refused");
  const std::size_t dim = dimension_of(opt.get());
  std::size_t hedged = 0;
  const auto ask = [&](const char* what) {
    const Outcome asked =
        check_call(opt, ask_call(dim), failure, std::string(run.name) + ", " + what);
    check(asked.status == ADDBO_OK, std::string(run.name) + ": an ask failed");
    Call info;
    info.kind = Call::info;
    if (perform(opt.get(), info).text.find("\"graph\":\"random tree\"") != std::string::npos)
      ++hedged;
    return asked.x;
  };
  const auto tell = [&](const std::vector<double>& x, const char* what) {
    Call call;
    call.kind = Call::tell;
    call.dim = dim;
    call.x = x;
    call.y = objective(x);
    check(check_call(opt, call, failure, std::string(run.name) + ", " + what).status == ADDBO_OK,
          std::string(run.name) + ": a tell failed");
  };
  const auto read = [&](Call::Kind kind, const std::vector<double>& x) {
    Call call;
    call.kind = kind;
    call.dim = dim;
    call.x = x;
    check_call(opt, call, failure, run.name);
  };

  // The initial design, asked in parallel, then told.
  std::vector<std::vector<double>> design;
  for (int i = 0; i < 3; ++i) design.push_back(ask("initial design"));
  for (const std::vector<double>& x : design) tell(x, "initial design");
  read(Call::predict, design[0]);
  // Model-based asks (the first one learns in learn modes), one told at once, two in parallel,
  // one cancelled.
  for (int round = 0; round < 3; ++round) tell(ask("model-based"), "serial");
  const std::vector<double> first = ask("parallel");
  const std::vector<double> second = ask("parallel");
  if (run.pending_limit) {
    const std::vector<double> third = ask("parallel");
    check(check_call(opt, ask_call(dim), failure, std::string(run.name) + ", at max_pending")
                  .status == ADDBO_ERR_STATE,
          std::string(run.name) + ": an ask past limits.max_pending did not fail");
    tell(third, "parallel");
  }

  tell(second, "parallel");
  Call cancel;
  cancel.kind = Call::cancel;
  cancel.dim = dim;
  cancel.x = first;
  check_call(opt, cancel, failure, run.name);
  tell(ask("after a cancel"), "serial");
  if (run.calls_learn) {
    Call learn;
    learn.kind = Call::learn;
    check_call(opt, learn, failure, run.name);
  }
  tell(ask("after learning"), "serial");
  // Every read.
  read(Call::info, {});
  read(Call::save_state, {});
  read(Call::predict, design[1]);
  read(Call::predict_json, design[2]);
  read(Call::predicted_best, {});
  read(Call::best, {});
  read(Call::count, {});
  // A point left pending, then the state loaded under failures.
  ask("pending");
  check_construction(save(opt.get(), "before load"), true, failure, run.name);
  return hedged;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  Failure failure = Failure::once;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--persistent") == 0) {
      failure = Failure::from_then;
    } else if (std::strcmp(argv[i], "--stride-above") == 0 && i + 1 < argc) {
      stride_above = std::strtoul(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: addbo_oom_tests [--quick] [--persistent] [--stride-above N]\n");
      return 2;
    }
  }
  // Mixed variables, small grids and budgets: quick calls whose every path is taken.
  const std::string variables =
      R"("variables": [{"name": "a", "lower": 0, "upper": 1, "grid": 8},
                       {"name": "b", "lower": -1, "upper": 2, "grid": 6},
                       {"name": "n", "type": "integer", "lower": 1, "upper": 4},
                       {"name": "c", "type": "categorical", "choices": ["x", "y", "z"]}],
         "initial_points": 3, "seed": 7, "limits": {"threads": 1})";
  const std::vector<Run> runs = {
      // learn mode with the hedge: a learning ask and asks over a random tree.
      {"learn", "{" + variables + R"(, "structure": {"gibbs_evaluations": 12, "relearn_every": 3,
          "max_learning_points": 6, "random_tree_share": 0.5}, "kernel": {"noise_variance": "learn"}})",
       true},
      // a given graph with given lengthscales (no learning), minimising.
      {"fixed", "{" + variables + R"(, "goal": "minimize", "structure": {"mode": "fixed",
          "edges": [[0, 1], [2, 3]]}, "kernel": {"lengthscales": [0.3, 0.4, 0.5, 0.5]}})",
       false},
      {"disjoint", "{" + variables + R"(, "structure": {"mode": "disjoint", "gibbs_evaluations": 8,
          "relearn_every": 2}})",
       true},
      {"random-tree", "{" + variables + R"(, "structure": {"mode": "random-tree", "tree_edges": 2,
          "gibbs_evaluations": 8, "relearn_every": 2}})",
       false},
      // learning on a model of at most 5 observations (rebuilt from 4 chosen ones when full)
      // and at most 3 pending points.
      {"limits",
       "{" + variables.substr(0, variables.rfind("\"limits\"")) +
           R"("limits": {"threads": 1, "max_model_observations": 5, "max_pending": 3},
          "structure": {"gibbs_evaluations": 8, "relearn_every": 2, "random_tree_share": 0}})",
       true, true},
  };
  std::size_t hedged = 0;
  for (const Run& run : runs) {
    hedged += check_run(run, failure);
    if (quick) break;
  }
  check(hedged > 0, "no ask of the learn run maximised over a random tree");
  std::fprintf(stderr, "addbo_oom_tests: %zu calls with a failing allocation, all as documented\n",
               injected_calls);
  return 0;
}
