#!/usr/bin/python3
"""Checks turbo1.py against the documented behaviour of the authors' TuRBO-1 (turbo_1.py):
the trust region's rules on scripted sequences, the restart's fresh design, the box from given
lengthscales, the candidates' perturbation probability, the GP's kernel and posterior against
textbook formulas, and progress on a 10-variable quadratic. Run by ctest (hd_suite_turbo1);
exits 77 (skipped) where python3-torch is missing."""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import turbo1
except ImportError as error:
    print("skipped: /usr/bin/python3 cannot import torch and numpy (install python3-torch): %s" % error)
    sys.exit(77)

import numpy as np  # noqa: E402 (after turbo1, which picks the BLAS)
import torch  # noqa: E402

torch.set_num_threads(1)


class Settings(unittest.TestCase):
    def test_tolerances_and_sizes(self):
        # failtol = ceil(max(4 / batch, D / batch)); n_cand = min(100 D, 5000).
        self.assertEqual(turbo1.failure_tolerance(1), 4)
        self.assertEqual(turbo1.failure_tolerance(2), 4)
        self.assertEqual(turbo1.failure_tolerance(10), 10)
        self.assertEqual(turbo1.failure_tolerance(60), 60)
        self.assertEqual(turbo1.failure_tolerance(30, batch_size=4), 8)
        self.assertEqual(turbo1.candidate_count(10), 1000)
        self.assertEqual(turbo1.candidate_count(50), 5000)
        self.assertEqual(turbo1.candidate_count(60), 5000)
        self.assertEqual(turbo1.perturbation_probability(10), 1.0)
        self.assertEqual(turbo1.perturbation_probability(40), 0.5)
        self.assertEqual(turbo1.perturbation_probability(100), 0.2)
        self.assertEqual(turbo1.Turbo1(7).n_init, 14)  # 2 D, as the authors' examples
        self.assertEqual(turbo1.LENGTH_MIN, 1.0 / 128)

    def test_success_needs_more_than_a_thousandth(self):
        is_success = turbo1.TrustRegion.is_success
        self.assertTrue(is_success(99.85, 100.0))  # 100 - 1e-3 * 100 = 99.9
        self.assertFalse(is_success(99.95, 100.0))
        self.assertTrue(is_success(-50.06, -50.0))  # -50 - 1e-3 * 50 = -50.05
        self.assertFalse(is_success(-50.04, -50.0))
        self.assertTrue(is_success(-1e-300, 0.0))
        self.assertFalse(is_success(0.0, 0.0))


class TrustRegionRules(unittest.TestCase):
    def test_scripted_sequence(self):
        # D = 2: failtol 4. S: a success, F: a failure; then L, successes, failures after it.
        script = [
            ("S", 0.8, 1, 0), ("S", 0.8, 2, 0), ("S", 1.6, 0, 0),  # 3 successes: L doubles
            ("S", 1.6, 1, 0), ("S", 1.6, 2, 0), ("S", 1.6, 0, 0),  # capped at L_max = 1.6
            ("F", 1.6, 0, 1), ("F", 1.6, 0, 2), ("F", 1.6, 0, 3),
            ("S", 1.6, 1, 0),  # a success resets the failures
            ("F", 1.6, 0, 1), ("F", 1.6, 0, 2), ("F", 1.6, 0, 3), ("F", 0.8, 0, 0),  # halves
            ("S", 0.8, 1, 0), ("S", 0.8, 2, 0), ("F", 0.8, 0, 1),  # a failure resets successes
            ("S", 0.8, 1, 0), ("S", 0.8, 2, 0), ("S", 1.6, 0, 0),
        ]
        region = turbo1.TrustRegion(dim=2)
        self.assertEqual(region.length, 0.8)
        best = 10.0
        for step, (event, length, successes, failures) in enumerate(script):
            value = best - 1.0 if event == "S" else best
            self.assertEqual(region.update(value, best), event == "S")
            if event == "S":
                best = value
            self.assertEqual(
                (region.length, region.successes, region.failures),
                (length, successes, failures),
                "after step %d (%s)" % (step, event),
            )
        # Halving down to 1.6 / 2^8 = 0.00625 < L_min = 1 / 128 takes 8 x 4 failures.
        for k in range(1, 9):
            self.assertFalse(region.exhausted)
            for _ in range(4):
                region.update(best, best)
            self.assertEqual(region.length, 1.6 / 2**k)
        self.assertTrue(region.exhausted)
        region.reset()
        self.assertEqual((region.length, region.successes, region.failures), (0.8, 0, 0))

    def assert_latin_hypercube(self, points):
        count = len(points)
        for column in np.asarray(points).T:
            self.assertEqual(sorted(np.floor(column * count).astype(int)), list(range(count)))

    def test_optimizer_restarts_with_a_fresh_design(self):
        # D = 2, a design of 4 points, then values that never improve: L halves after every 4
        # failures, and after 7 halvings (0.8 / 128 < 1 / 128) the next ask begins a new design.
        optimizer = turbo1.Turbo1(dim=2, seed=5, n_init=4)
        design = [optimizer.ask() for _ in range(1)]
        optimizer.tell(5.0)
        for value in (6.0, 7.0, 8.0):
            design.append(optimizer.ask())
            optimizer.tell(value)
        self.assert_latin_hypercube(design)
        self.assertEqual(optimizer.region.length, 0.8)
        for evaluation in range(5, 33):
            x = optimizer.ask()
            lower, upper = optimizer.last_bounds
            self.assertTrue(np.all(x >= lower) and np.all(x <= upper))
            optimizer.tell(10.0)
            failures = evaluation - 4
            self.assertEqual(optimizer.region.length, 0.8 / 2 ** (failures // 4))
            self.assertEqual(optimizer.region.failures, failures % 4)
        self.assertTrue(optimizer.region.exhausted)
        self.assertEqual(optimizer.restarts, 0)
        self.assertEqual(len(optimizer.local_f), 32)

        fresh = optimizer.ask()
        self.assertEqual(optimizer.restarts, 1)
        self.assertEqual(optimizer.region.length, 0.8)
        self.assertEqual(optimizer.local_f, [])  # the model forgets the old restart's points
        self.assertEqual(len(optimizer.history_f), 32)  # the run's history keeps them
        # The new restart's own best counts: worse than the run's best 5, it still succeeds.
        fresh_design = [fresh]
        optimizer.tell(20.0)
        for value in (21.0, 22.0, 23.0):
            fresh_design.append(optimizer.ask())
            optimizer.tell(value)
        self.assert_latin_hypercube(fresh_design)
        for value in (19.0, 18.0, 17.0):
            optimizer.ask()
            optimizer.tell(value)
        self.assertEqual(optimizer.region.length, 1.6)
        self.assertEqual(len(optimizer.history_f), 39)


class Candidates(unittest.TestCase):
    def test_box_from_lengthscales(self):
        # w = ls / mean(ls), then divided by its geometric mean: ls (0.5, 1, 2) have geometric
        # mean 1, so w = ls; the box is centre +- w L / 2 clipped to [0, 1].
        lower, upper = turbo1.trust_region_bounds(
            np.array([0.5, 0.1, 0.95]), np.array([0.5, 1.0, 2.0]), 0.8
        )
        np.testing.assert_allclose(lower, [0.3, 0.0, 0.15], atol=1e-15)
        np.testing.assert_allclose(upper, [0.7, 0.5, 1.0], atol=1e-15)
        # ls (1, 4): ls / mean = (0.4, 1.6), geometric mean 0.8, w = (0.5, 2); L = 0.4.
        lower, upper = turbo1.trust_region_bounds(np.array([0.5, 0.5]), np.array([1.0, 4.0]), 0.4)
        np.testing.assert_allclose(lower, [0.4, 0.1], atol=1e-15)
        np.testing.assert_allclose(upper, [0.6, 0.9], atol=1e-15)

    def check_candidates(self, dim, probability, tolerance):
        rng = np.random.RandomState(3)
        center = rng.uniform(0.3, 0.7, dim)
        lower, upper = center - 0.2, center + 0.1
        count = turbo1.candidate_count(dim)
        candidates, mask = turbo1.create_candidates(center, lower, upper, count, rng)
        self.assertEqual(candidates.shape, (count, dim))
        moved = candidates != center  # Sobol coordinates are never exactly the centre's
        np.testing.assert_array_equal(moved, mask)
        self.assertTrue(np.all(mask.sum(axis=1) >= 1))
        self.assertTrue(np.all(candidates >= lower) and np.all(candidates <= upper))
        self.assertLess(abs(mask.mean() - probability), tolerance)

    def test_perturbation_probability(self):
        # min(20 / D, 1); tolerances of about 5 binomial standard deviations.
        self.check_candidates(10, 1.0, 1e-12)
        self.check_candidates(40, 0.5, 0.006)
        self.check_candidates(100, 0.2, 0.003)

    def test_candidate_without_perturbation_gets_one(self):
        saved = turbo1.perturbation_probability
        turbo1.perturbation_probability = lambda dim: 0.0
        try:
            rng = np.random.RandomState(1)
            center = np.full(5, 0.5)
            _, mask = turbo1.create_candidates(center, center - 0.1, center + 0.1, 500, rng)
        finally:
            turbo1.perturbation_probability = saved
        np.testing.assert_array_equal(mask.sum(axis=1), np.ones(500))
        self.assertTrue(np.all(mask.sum(axis=0) > 50))  # every variable, the last one too


class GaussianProcessChecks(unittest.TestCase):
    def test_matern52_by_hand(self):
        x1 = torch.tensor([[0.1, 0.2]], dtype=torch.float64)
        x2 = torch.tensor([[0.4, 0.6]], dtype=torch.float64)
        value = turbo1.matern52(x1, x2, torch.tensor([0.5, 2.0], dtype=torch.float64), 1.5)
        r = math.sqrt((0.3 / 0.5) ** 2 + (0.4 / 2.0) ** 2)
        expected = 1.5 * (1 + math.sqrt(5) * r + 5 * r * r / 3) * math.exp(-math.sqrt(5) * r)
        self.assertAlmostEqual(float(value), expected, places=14)

    def test_fit_within_bounds_and_posterior_as_textbook(self):
        rng = np.random.RandomState(0)
        x = rng.rand(30, 3)
        y = np.sin(6 * x[:, 0]) + x[:, 1] ** 2
        y = (y - np.median(y)) / y.std()
        gp = turbo1.GaussianProcess(torch.tensor(x), torch.tensor(y))
        ls, s, noise = gp.lengthscales.numpy(), float(gp.outputscale), float(gp.noise)
        self.assertTrue(np.all(ls >= 0.005) and np.all(ls <= 2.0))
        self.assertTrue(0.05 <= s <= 20.0 and 5e-4 <= noise <= 0.2)
        # The posterior of noisy observations at new points, by numpy's dense solve.
        new = rng.rand(40, 3)

        def kernel(a, b):
            r = np.sqrt((((a[:, None, :] - b[None, :, :]) / ls) ** 2).sum(-1))
            return s * (1 + math.sqrt(5) * r + 5 * r**2 / 3) * np.exp(-math.sqrt(5) * r)

        k = kernel(x, x) + noise * np.eye(30)
        cross = kernel(x, new)
        m = float(gp.constant)
        mean = m + cross.T @ np.linalg.solve(k, y - m)
        covariance = kernel(new, new) - cross.T @ np.linalg.solve(k, cross) + noise * np.eye(40)
        got_mean, v = gp.posterior(torch.tensor(new))
        np.testing.assert_allclose(got_mean.numpy(), mean, atol=1e-9)
        got = gp.predictive_covariance(torch.tensor(new), v).numpy()
        np.testing.assert_allclose(got, covariance, atol=1e-9)
        # A Lanczos root of full rank reproduces the covariance.
        root = turbo1.lanczos_root(
            lambda u: torch.tensor(covariance) @ u, 40, 100, torch.Generator().manual_seed(1)
        )
        np.testing.assert_allclose((root @ root.T).numpy(), covariance, atol=1e-8)
        # Above 2000 candidates the sample takes the Lanczos path (rank at most 100).
        many = torch.tensor(rng.rand(2500, 3))
        sample = gp.sample(many, torch.Generator().manual_seed(2))
        self.assertEqual(tuple(sample.shape), (2500,))
        self.assertTrue(bool(torch.isfinite(sample).all()))


class Progress(unittest.TestCase):
    def test_quadratic_10d(self):
        # sum (x_i - c_i)^2 on [0, 1]^10; 200 random points reach about 0.2.
        center = np.linspace(0.2, 0.7, 10)
        optimizer = turbo1.Turbo1(10, seed=3)
        best = math.inf
        for _ in range(200):
            x = optimizer.ask()
            value = float(((x - center) ** 2).sum())
            optimizer.tell(value)
            best = min(best, value)
        random_best = ((np.random.RandomState(3).rand(200, 10) - center) ** 2).sum(1).min()
        self.assertLess(best, 0.01)
        self.assertLess(best, 0.05 * random_best)


if __name__ == "__main__":
    unittest.main()
