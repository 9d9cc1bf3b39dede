// The dense Cholesky of the learning likelihood: against Eigen's LLT on random SPD matrices of
// many sizes (around every block boundary), on both kernel paths, bit-identical for any thread
// count, and failing cleanly on matrices that are not positive definite.
#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "linalg/dense_cholesky.hpp"

using namespace addbo::core;
using cholesky_detail::Path;

TEST_SUITE_BEGIN("linalg");

namespace {

// A random SPD matrix B B^T / n + shift I (condition number roughly (4 + shift) / shift).
Eigen::MatrixXd random_spd(int n, double shift, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd b(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) b(i, j) = normal(rng);
  Eigen::MatrixXd a = b * b.transpose() / static_cast<double>(n);
  a.diagonal().array() += shift;
  return a;
}

// A GP-kernel-like SPD matrix (squared-exponential Gram matrix plus noise), as learning sees.
Eigen::MatrixXd kernel_spd(int n, double noise, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Eigen::MatrixXd points(n, 3);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) points(i, d) = unit(rng);
  Eigen::MatrixXd a(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a(i, j) = std::exp(-(points.row(i) - points.row(j)).squaredNorm() / 0.1);
  a.diagonal().array() += noise;
  return a;
}

std::vector<Path> paths() {
  std::vector<Path> result{Path::eigen, Path::portable};
  if (cholesky_detail::avx2_available()) result.push_back(Path::avx2);
  return result;
}

const char* name(Path path) {
  return path == Path::avx2 ? "avx2" : path == Path::portable ? "portable" : "eigen";
}

// Factorises a copy of `a` with the given path and threads; checks it succeeded, that the
// strictly upper triangle is untouched, and returns the lower triangle.
Eigen::MatrixXd factor(const Eigen::MatrixXd& a, Path path, int threads) {
  Eigen::MatrixXd work = a;
  // Poison the upper triangle: the factorisation must neither read nor write it.
  for (Eigen::Index j = 1; j < work.cols(); ++j)
    for (Eigen::Index i = 0; i < j; ++i) work(i, j) = std::numeric_limits<double>::quiet_NaN();
  REQUIRE(cholesky_detail::factorize(work, threads, path));
  bool upper_untouched = true;
  for (Eigen::Index j = 1; j < work.cols(); ++j)
    for (Eigen::Index i = 0; i < j; ++i)
      upper_untouched = upper_untouched && std::isnan(work(i, j));
  REQUIRE(upper_untouched);
  return work.triangularView<Eigen::Lower>();
}

// ||L - L_eigen||_max / ||L_eigen||_max: a backward-stable Cholesky's forward error grows like
// cond(A) * n * eps, so the bound used is 1e-15 * n * cond (at most 1e-12 per unit of
// condition number for the sizes here).
void check_against_eigen(const Eigen::MatrixXd& a, double condition, Path path, int threads) {
  const Eigen::MatrixXd ours = factor(a, path, threads);
  const Eigen::MatrixXd expected = Eigen::LLT<Eigen::MatrixXd>(a).matrixL();
  const double error = (ours - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
  const double bound = 1e-15 * static_cast<double>(a.rows() + 10) * condition;
  INFO("n = " << a.rows() << ", path " << name(path) << ", threads " << threads);
  CHECK(error <= bound);
  // Residual of the factorisation itself.
  const double residual =
      (ours * ours.transpose() - a).cwiseAbs().maxCoeff() / a.cwiseAbs().maxCoeff();
  CHECK(residual <= 1e-14 * static_cast<double>(a.rows() + 10));
}

bool bit_identical(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
  return x.rows() == y.rows() && x.cols() == y.cols() &&
         std::memcmp(x.data(), y.data(), sizeof(double) * static_cast<std::size_t>(x.size())) == 0;
}

}  // namespace

TEST_CASE("dense Cholesky matches Eigen's LLT for sizes 1..300 and block boundaries") {
  std::vector<int> sizes;
  for (int n = 1; n <= 40; ++n) sizes.push_back(n);
  for (int n = 41; n <= 300; n += 7) sizes.push_back(n);
  for (int boundary : {48, 96, 128, 144, 256, 384}) {
    for (int delta = -2; delta <= 2; ++delta) sizes.push_back(boundary + delta);
  }
  for (Path path : paths()) {
    for (int n : sizes) {
      const double shift = 0.5;
      check_against_eigen(random_spd(n, shift, 100 + n), (4.0 + shift) / shift, path, 1);
    }
  }
}

TEST_CASE(
    "dense Cholesky matches Eigen's LLT at n = 700 on kernel-like matrices, both paths, 1 and 2 "
    "threads") {
  // Noise 1e-3: condition number up to ~1e5 (bounded by the largest eigenvalue, at most n).
  const Eigen::MatrixXd a = kernel_spd(700, 1e-3, 7);
  const double condition = 700.0 / 1e-3;
  for (Path path : paths()) {
    for (int threads : {1, 2}) check_against_eigen(a, condition, path, threads);
  }
}

TEST_CASE("dense Cholesky is bit-identical for 1, 2 and 3 threads" *
          doctest::test_suite("threads")) {
  for (Path path : paths()) {
    for (int n : {129, 300, 517, 700}) {
      const Eigen::MatrixXd a = random_spd(n, 0.1, 900 + n);
      const Eigen::MatrixXd one = factor(a, path, 1);
      INFO("n = " << n << ", path " << name(path));
      CHECK(bit_identical(one, factor(a, path, 2)));
      CHECK(bit_identical(one, factor(a, path, 3)));
    }
  }
}

TEST_CASE("dense Cholesky works on a block of a larger matrix (outer stride)") {
  const Eigen::MatrixXd a = random_spd(200, 0.5, 31);
  Eigen::MatrixXd big = Eigen::MatrixXd::Constant(230, 210, 7.0);
  big.block(20, 5, 200, 200) = a;
  for (Path path : paths()) {
    Eigen::MatrixXd work = big;
    REQUIRE(cholesky_detail::factorize(work.block(20, 5, 200, 200), 2, path));
    const Eigen::MatrixXd expected = Eigen::LLT<Eigen::MatrixXd>(a).matrixL();
    const Eigen::MatrixXd ours = work.block(20, 5, 200, 200).triangularView<Eigen::Lower>();
    CHECK((ours - expected).cwiseAbs().maxCoeff() <= 1e-12);
    // Nothing outside the block changed.
    Eigen::MatrixXd outside = work;
    outside.block(20, 5, 200, 200).setConstant(7.0);
    CHECK((outside.array() == 7.0).all());
  }
  // The default entry point agrees with the default path.
  Eigen::MatrixXd work = a;
  REQUIRE(cholesky_lower_in_place(work, 1));
  CHECK(bit_identical(Eigen::MatrixXd(work.triangularView<Eigen::Lower>()),
                      factor(a, cholesky_detail::default_path(), 1)));
}

TEST_CASE("dense Cholesky rejects matrices that are not positive definite") {
  for (Path path : paths()) {
    for (int n : {1, 5, 17, 130, 300}) {
      INFO("n = " << n << ", path " << name(path));
      // A negative eigenvalue: shift the spectrum below zero.
      Eigen::MatrixXd negative = random_spd(n, 0.0, 50 + n);
      negative.diagonal().array() -= 5.0;
      CHECK_FALSE(cholesky_detail::factorize(negative, 2, path));
      // Positive definite except for one late direction (the last pivot fails).
      Eigen::MatrixXd late = random_spd(n, 0.5, 60 + n);
      late(n - 1, n - 1) = -1.0;
      CHECK_FALSE(cholesky_detail::factorize(late, 1, path));
      // The zero matrix.
      Eigen::MatrixXd zero = Eigen::MatrixXd::Zero(n, n);
      CHECK_FALSE(cholesky_detail::factorize(zero, 2, path));
      // A NaN in the lower triangle (last row, first column: reaches only the last pivot).
      Eigen::MatrixXd nan = random_spd(n, 0.5, 70 + n);
      nan(n - 1, 0) = std::numeric_limits<double>::quiet_NaN();
      CHECK_FALSE(cholesky_detail::factorize(nan, 1, path));
      // An infinite diagonal entry.
      Eigen::MatrixXd inf = random_spd(n, 0.5, 80 + n);
      inf(n / 2, n / 2) = std::numeric_limits<double>::infinity();
      CHECK_FALSE(cholesky_detail::factorize(inf, 2, path));
    }
  }
  Eigen::MatrixXd empty(0, 0);
  CHECK(cholesky_lower_in_place(empty, 2));
}

TEST_SUITE_END();
