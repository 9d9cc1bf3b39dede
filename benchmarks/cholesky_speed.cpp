// Dense Cholesky speed: milliseconds per in-place factorisation of a random SPD n x n matrix,
// Eigen's LLT against addbo's cholesky_lower_in_place (the learning likelihood's kernel) on
// the path this machine uses, with 1 and 2 threads, plus the blocked driver with portable
// (baseline SSE2) kernels on 1 and 2 threads.
//
//   cholesky_speed [--sizes 250,500,1000,2000] [--repeats 5] [--csv cholesky_speed.csv]
//
// Each figure is the best of `repeats` timed runs (the machine may be shared), each on a fresh
// copy of the same matrix.
#include <Eigen/Cholesky>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "linalg/dense_cholesky.hpp"

namespace {

std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) sizes.push_back(std::stoi(part));
  return sizes;
}

// A kernel-like SPD matrix: a squared-exponential Gram matrix of random points plus noise.
Eigen::MatrixXd random_spd(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Eigen::MatrixXd points(n, 3);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) points(i, d) = unit(rng);
  Eigen::MatrixXd matrix(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      matrix(i, j) = std::exp(-(points.row(i) - points.row(j)).squaredNorm() / 0.08);
  matrix.diagonal().array() += 1e-2;
  return matrix;
}

double best_ms(const Eigen::MatrixXd& source, int repeats,
               const std::function<bool(Eigen::MatrixXd&)>& factorise) {
  double best = 1e300;
  Eigen::MatrixXd work;
  for (int r = 0; r < repeats; ++r) {
    work = source;
    const auto start = std::chrono::steady_clock::now();
    const bool ok = factorise(work);
    const auto stop = std::chrono::steady_clock::now();
    if (!ok) throw std::runtime_error("factorisation failed");
    best = std::min(best, std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  using addbo::core::cholesky_detail::Path;
  std::vector<int> sizes{250, 500, 1000, 2000};
  int repeats = 5;
  std::string csv_path = "cholesky_speed.csv";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf(
          "usage: cholesky_speed [--sizes 250,500,1000,2000] [--repeats 5]\n"
          "                      [--csv cholesky_speed.csv]\n"
          "Milliseconds per dense Cholesky: Eigen's LLT against addbo's kernels, 1 and 2 "
          "threads.\n");
      return 0;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "missing value after %s\n", arg.c_str());
      return 2;
    }
    if (arg == "--sizes")
      sizes = parse_sizes(argv[++i]);
    else if (arg == "--repeats")
      repeats = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--csv")
      csv_path = argv[++i];
    else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  const Path path = addbo::core::cholesky_detail::default_path();
  const char* path_name = path == Path::avx2       ? "avx2"
                          : path == Path::portable ? "portable"
                                                   : "eigen";
  std::printf("ms per factorisation (best of %d); addbo path on this machine: %s\n", repeats,
              path_name);
  std::printf("%6s %10s %10s %10s %12s %12s\n", "n", "eigen_llt", "addbo_1t", "addbo_2t",
              "portable_1t", "portable_2t");
  std::ofstream csv;
  if (!csv_path.empty()) {
    csv.open(csv_path);
    csv << "n,eigen_llt_ms,addbo_1thread_ms,addbo_2threads_ms,portable_1thread_ms,"
           "portable_2threads_ms,path\n";
  }
  for (int n : sizes) {
    const Eigen::MatrixXd source = random_spd(n, 1234 + static_cast<std::uint64_t>(n));
    const double eigen = best_ms(source, repeats, [](Eigen::MatrixXd& m) {
      Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(m);
      return llt.info() == Eigen::Success;
    });
    const double one = best_ms(source, repeats, [&](Eigen::MatrixXd& m) {
      return addbo::core::cholesky_detail::factorize(m, 1, path);
    });
    const double two = best_ms(source, repeats, [&](Eigen::MatrixXd& m) {
      return addbo::core::cholesky_detail::factorize(m, 2, path);
    });
    const double portable_one = best_ms(source, repeats, [](Eigen::MatrixXd& m) {
      return addbo::core::cholesky_detail::factorize(m, 1, Path::portable);
    });
    const double portable_two = best_ms(source, repeats, [](Eigen::MatrixXd& m) {
      return addbo::core::cholesky_detail::factorize(m, 2, Path::portable);
    });
    std::printf("%6d %10.2f %10.2f %10.2f %12.2f %12.2f\n", n, eigen, one, two, portable_one,
                portable_two);
    std::fflush(stdout);
    if (csv.is_open())
      csv << n << ',' << eigen << ',' << one << ',' << two << ',' << portable_one << ','
          << portable_two << ',' << path_name << '\n';
  }
  return 0;
}
