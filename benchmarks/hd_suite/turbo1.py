"""TuRBO-1 (Eriksson, Pearce, Gardner, Turner and Poloczek, "Scalable Global Optimization via
Local Bayesian Optimization", NeurIPS 2019) in plain torch, for hd_suite's `turbo1` peer.

A port of the authors' turbo/turbo_1.py, turbo/gp.py and turbo/utils.py (github
uber-research/TuRBO, which pins gpytorch 0.3.6), written anew without gpytorch, with batch size
1 and an ask/tell interface. Minimises a function on the unit cube [0, 1]^D:

    optimizer = Turbo1(dim=20, seed=1)
    for _ in range(budget):
        x = optimizer.ask()          # a point of [0, 1]^D (numpy array)
        optimizer.tell(f(x))         # the value at the point just asked

What the original does, and this does too (benchmarks/hd_suite/README.md lists the differences):
- a design of n_init = 2 D points (a Latin hypercube with the points jittered in their cells)
  starts every restart; the GP is fitted on every point of the current restart (not only those
  in the trust region), inputs in [0, 1]^D, values standardised by their median and standard
  deviation;
- the GP: constant mean, outputscale x Matern-5/2 with one lengthscale per variable, Gaussian
  noise; hyperparameters within lengthscale [0.005, 2], outputscale [0.05, 20], noise
  [5e-4, 0.2] (gpytorch's Interval: bound + (width) sigmoid(raw)), started from lengthscale 0.5,
  outputscale 1, noise 0.005, mean 0 on every fit, and fitted by 50 steps of Adam (learning rate
  0.1) on the negative marginal log likelihood divided by the number of points;
- the trust region is centred on the best point of the restart, its side in variable i is
  L w_i with w = lengthscales / mean(lengthscales) divided by its geometric mean (so that
  prod w_i = 1), clipped to [0, 1];
- min(100 D, 5000) candidates copy the centre and replace each coordinate, with probability
  min(20 / D, 1), by that of a scrambled Sobol point of the box (a candidate with no replaced
  coordinate gets one at random); the next point is the candidate where one joint sample of the
  GP posterior (observation noise included) is lowest (Thompson sampling). As gpytorch 0.3.6
  with the original's max_cholesky_size 2000 does, the sample uses the Cholesky factor of the
  candidates' covariance up to 2000 candidates and a Lanczos root of rank at most 100 above;
- L starts at 0.8; after 3 successes in a row it doubles (at most 1.6), after
  ceil(max(4, D)) failures in a row it halves; a success is a value below the restart's best by
  more than 1e-3 |best|; once L < 0.5^7 the run restarts: new design, new trust region, the
  restart's points are forgotten by the model (the run's history keeps them).
"""

import ctypes
import glob
import math
import os
import sys


def _prefer_openblas():
    """Debian's python3-torch and python3-numpy call the system's BLAS and LAPACK (libblas.so.3,
    liblapack.so.3), which may be the reference implementation, 10 times slower than OpenBLAS on
    the GP's Cholesky factors. Where Debian's libopenblas0-serial is installed, its libraries
    are loaded before numpy and torch, which then use them (the dynamic loader reuses a loaded
    library of the same name), without changing the system's choice for other programs.
    TURBO1_BLAS=system keeps the system's. Returns the directory used, or None."""
    if os.environ.get("TURBO1_BLAS") == "system" or "numpy" in sys.modules or "torch" in sys.modules:
        return None
    for directory in sorted(glob.glob("/usr/lib/*/openblas-serial")):
        try:
            for name in ("libblas.so.3", "liblapack.so.3"):
                ctypes.CDLL(os.path.join(directory, name), mode=ctypes.RTLD_GLOBAL)
            return directory
        except OSError:
            continue
    return None


BLAS_DIRECTORY = _prefer_openblas()

import numpy as np  # noqa: E402 (after the BLAS is chosen)
import torch  # noqa: E402
from torch.quasirandom import SobolEngine  # noqa: E402

# The authors' settings (turbo_1.py, gp.py; batch size 1).
LENGTH_INIT = 0.8
LENGTH_MIN = 0.5**7
LENGTH_MAX = 1.6
SUCCESS_TOLERANCE = 3
SUCCESS_RELATIVE_MARGIN = 1e-3
TRAINING_STEPS = 50
LEARNING_RATE = 0.1
LENGTHSCALE_BOUNDS = (0.005, 2.0)
OUTPUTSCALE_BOUNDS = (0.05, 20.0)
NOISE_BOUNDS = (5e-4, 0.2)
INITIAL_LENGTHSCALE = 0.5
INITIAL_OUTPUTSCALE = 1.0
INITIAL_NOISE = 0.005
# gpytorch 0.3.6: Cholesky up to max_cholesky_size (the original passes 2000), Lanczos beyond,
# with at most max_root_decomposition_size (100) iterations and a relative jitter of 1e-6 on the
# tridiagonal matrix.
MAX_CHOLESKY_SIZE = 2000
LANCZOS_MAX_RANK = 100
LANCZOS_TOLERANCE = 1e-6
TRIDIAGONAL_JITTER = 1e-6

DTYPE = torch.float64


def candidate_count(dim):
    """min(100 D, 5000), the original's n_cand."""
    return min(100 * dim, 5000)


def failure_tolerance(dim, batch_size=1):
    """ceil(max(4 / batch, D / batch)), the original's failtol."""
    return int(math.ceil(max(4.0 / batch_size, float(dim) / batch_size)))


def perturbation_probability(dim):
    """min(20 / D, 1): each candidate coordinate leaves the centre with this probability."""
    return min(20.0 / dim, 1.0)


class TrustRegion:
    """The side length L and the success/failure counters of the original's _adjust_length."""

    def __init__(self, dim, batch_size=1):
        self.failure_tolerance = failure_tolerance(dim, batch_size)
        self.success_tolerance = SUCCESS_TOLERANCE
        self.reset()

    def reset(self):
        self.length = LENGTH_INIT
        self.successes = 0
        self.failures = 0

    @staticmethod
    def is_success(value, best):
        """A value improves on the restart's best value `best` by more than 1e-3 |best|."""
        return value < best - SUCCESS_RELATIVE_MARGIN * math.fabs(best)

    def update(self, value, best):
        """Counts `value` (the new evaluation) against `best` (the restart's best before it) and
        doubles or halves L as the original does. Returns whether it was a success."""
        success = self.is_success(value, best)
        if success:
            self.successes += 1
            self.failures = 0
        else:
            self.successes = 0
            self.failures += 1
        if self.successes == self.success_tolerance:
            self.length = min(2.0 * self.length, LENGTH_MAX)
            self.successes = 0
        elif self.failures == self.failure_tolerance:
            self.length /= 2.0
            self.failures = 0
        return success

    @property
    def exhausted(self):
        """L below L_min: the run restarts."""
        return self.length < LENGTH_MIN


def trust_region_bounds(center, lengthscales, length):
    """The box x_center +- w L / 2 clipped to [0, 1], with w = lengthscales / mean(lengthscales)
    divided by its geometric mean."""
    weights = np.asarray(lengthscales, dtype=float).ravel()
    weights = weights / weights.mean()
    weights = weights / np.prod(np.power(weights, 1.0 / len(weights)))
    lower = np.clip(center - weights * length / 2.0, 0.0, 1.0)
    upper = np.clip(center + weights * length / 2.0, 0.0, 1.0)
    return lower, upper


def latin_hypercube(count, dim, rng):
    """`count` points of [0, 1]^dim, one in each of the `count` slices of every variable, at the
    slice's centre moved by up to half a slice (the original's latin_hypercube)."""
    centres = (1.0 + 2.0 * np.arange(count)) / (2.0 * count)
    points = np.empty((count, dim))
    for i in range(dim):
        points[:, i] = centres[rng.permutation(count)]
    points += rng.uniform(-1.0, 1.0, (count, dim)) / (2.0 * count)
    return points


def create_candidates(center, lower, upper, count, rng):
    """The centre, with each coordinate replaced, with probability min(20 / D, 1), by that of a
    scrambled Sobol point of [lower, upper]; every candidate has at least one replaced. Returns
    the candidates and the mask of replaced coordinates."""
    dim = len(center)
    sobol = SobolEngine(dim, scramble=True, seed=int(rng.randint(int(1e6))))
    perturbed = sobol.draw(count).to(dtype=DTYPE).numpy()
    perturbed = lower + (upper - lower) * perturbed
    mask = rng.rand(count, dim) <= perturbation_probability(dim)
    empty = np.where(~mask.any(axis=1))[0]
    # The original draws this coordinate from randint(0, D - 1), which never picks the last
    # variable; every variable is allowed here (it matters only with probability below e^-20).
    mask[empty, rng.randint(0, dim, size=len(empty))] = True
    candidates = np.tile(center, (count, 1))
    candidates[mask] = perturbed[mask]
    return candidates, mask


def _interval(raw, bounds):
    lower, upper = bounds
    return lower + (upper - lower) * torch.sigmoid(raw)


def _inverse_interval(value, bounds):
    lower, upper = bounds
    p = (value - lower) / (upper - lower)
    return math.log(p / (1.0 - p))


def safe_cholesky(matrix):
    """Cholesky factor; on failure with jitter 1e-8, 1e-7, 1e-6 on the diagonal (gpytorch's
    psd_safe_cholesky in double precision)."""
    factor, info = torch.linalg.cholesky_ex(matrix)
    if int(info) == 0:
        return factor
    eye = torch.eye(matrix.shape[0], dtype=matrix.dtype)
    for jitter in (1e-8, 1e-7, 1e-6):
        factor, info = torch.linalg.cholesky_ex(matrix + jitter * eye)
        if int(info) == 0:
            return factor
    raise RuntimeError("the covariance matrix is not positive definite, even with jitter 1e-6")


def matern52(x1, x2, lengthscales, outputscale, same=False):
    """outputscale (1 + sqrt5 r + 5/3 r^2) exp(-sqrt5 r), r the distance of x1 / lengthscales to
    x2 / lengthscales (rows against rows); `same`: x1 is x2, whose diagonal is r = 0 exactly."""
    a = x1 / lengthscales
    b = x2 / lengthscales
    squared = (a * a).sum(1, keepdim=True) + (b * b).sum(1) - 2.0 * a @ b.T
    if same:
        squared = squared * (1.0 - torch.eye(squared.shape[0], dtype=squared.dtype))
    distance = squared.clamp_min(1e-30).sqrt()
    root5 = math.sqrt(5.0)
    return outputscale * (1.0 + root5 * distance + 5.0 / 3.0 * distance**2) * torch.exp(
        -root5 * distance
    )


class GaussianProcess:
    """The original's GP (gp.py): constant mean, Matern-5/2 ARD kernel times an outputscale,
    Gaussian noise, fitted by Adam on the exact marginal likelihood."""

    def __init__(self, x, y, training_steps=TRAINING_STEPS):
        """x: n x D inputs in [0, 1]^D, y: n standardised values (torch, float64)."""
        self.x, self.y = x, y
        dim = x.shape[1]
        self.raw_lengthscales = torch.nn.Parameter(
            torch.full((dim,), _inverse_interval(INITIAL_LENGTHSCALE, LENGTHSCALE_BOUNDS), dtype=DTYPE)
        )
        self.raw_outputscale = torch.nn.Parameter(
            torch.tensor(_inverse_interval(INITIAL_OUTPUTSCALE, OUTPUTSCALE_BOUNDS), dtype=DTYPE)
        )
        self.raw_noise = torch.nn.Parameter(
            torch.tensor(_inverse_interval(INITIAL_NOISE, NOISE_BOUNDS), dtype=DTYPE)
        )
        self.mean = torch.nn.Parameter(torch.zeros((), dtype=DTYPE))
        parameters = [self.raw_lengthscales, self.raw_outputscale, self.raw_noise, self.mean]
        optimizer = torch.optim.Adam(parameters, lr=LEARNING_RATE)
        for _ in range(training_steps):
            optimizer.zero_grad()
            loss = self.negative_log_likelihood() / len(y)  # gpytorch's ExactMarginalLogLikelihood
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            self.lengthscales = _interval(self.raw_lengthscales, LENGTHSCALE_BOUNDS).detach()
            self.outputscale = _interval(self.raw_outputscale, OUTPUTSCALE_BOUNDS).detach()
            self.noise = _interval(self.raw_noise, NOISE_BOUNDS).detach()
            self.constant = self.mean.detach().clone()
            covariance = matern52(x, x, self.lengthscales, self.outputscale, same=True)
            self.factor = safe_cholesky(covariance + self.noise * torch.eye(len(y), dtype=DTYPE))
            # L^-1 (y - m): the posterior mean at X is m + V^T white with V = L^-1 K(x, X).
            self.white = torch.linalg.solve_triangular(
                self.factor, (y - self.constant).unsqueeze(1), upper=False
            ).squeeze(1)

    def negative_log_likelihood(self):
        lengthscales = _interval(self.raw_lengthscales, LENGTHSCALE_BOUNDS)
        outputscale = _interval(self.raw_outputscale, OUTPUTSCALE_BOUNDS)
        noise = _interval(self.raw_noise, NOISE_BOUNDS)
        n = len(self.y)
        covariance = matern52(self.x, self.x, lengthscales, outputscale, same=True)
        factor = safe_cholesky(covariance + noise * torch.eye(n, dtype=DTYPE))
        residual = (self.y - self.mean).unsqueeze(1)
        white = torch.linalg.solve_triangular(factor, residual, upper=False)
        return (
            0.5 * (white * white).sum()
            + torch.log(torch.diagonal(factor)).sum()
            + 0.5 * n * math.log(2.0 * math.pi)
        )

    def posterior(self, candidates):
        """The posterior mean at the candidates and the product V = L^-1 K(x, candidates)."""
        cross = matern52(self.x, candidates, self.lengthscales, self.outputscale)
        v = torch.linalg.solve_triangular(self.factor, cross, upper=False)
        return self.constant + v.T @ self.white, v

    def predictive_covariance(self, candidates, v):
        """K(X, X) - V^T V + noise I: the covariance of noisy observations at the candidates."""
        covariance = matern52(candidates, candidates, self.lengthscales, self.outputscale, same=True)
        covariance -= v.T @ v
        covariance += self.noise * torch.eye(len(candidates), dtype=DTYPE)
        return covariance

    def sample(self, candidates, generator, sampling="auto"):
        """One joint sample of noisy observations at the candidates (gp.likelihood(gp(X)).sample()
        in the original): `sampling` "auto" factors the covariance by Cholesky up to
        MAX_CHOLESKY_SIZE candidates and by Lanczos (rank <= 100) above, as gpytorch 0.3.6 does;
        "cholesky" always factors exactly."""
        with torch.no_grad():
            mean, v = self.posterior(candidates)
            count = len(candidates)
            if sampling == "cholesky" or count <= MAX_CHOLESKY_SIZE:
                root = safe_cholesky(self.predictive_covariance(candidates, v))
            else:
                kernel = matern52(
                    candidates, candidates, self.lengthscales, self.outputscale, same=True
                )

                def multiply(u):
                    return kernel @ u - v.T @ (v @ u) + self.noise * u

                root = lanczos_root(multiply, count, LANCZOS_MAX_RANK, generator)
            z = torch.randn(root.shape[1], generator=generator, dtype=DTYPE)
            return mean + root @ z


def lanczos_root(multiply, size, max_rank, generator):
    """R with R R^T close to the symmetric positive semi-definite matrix A behind `multiply`:
    Lanczos from a random start with full reorthogonalisation, at most `max_rank` steps,
    stopped when the next residual is below 1e-6; T + 1e-6 min(diag T) I = S diag(lambda) S^T,
    R = Q S diag(sqrt(max(lambda, 0))) (gpytorch 0.3.6's RootDecomposition)."""
    rank = min(max_rank, size)
    basis = torch.zeros(rank, size, dtype=DTYPE)
    start = torch.randn(size, generator=generator, dtype=DTYPE)
    basis[0] = start / start.norm()
    alphas, betas = [], []
    for j in range(rank):
        r = multiply(basis[j])
        alpha = torch.dot(basis[j], r)
        alphas.append(alpha)
        if j + 1 == rank:
            break
        r = r - alpha * basis[j]
        if j > 0:
            r = r - betas[-1] * basis[j - 1]
        for _ in range(2):  # full reorthogonalisation, twice
            r = r - basis[: j + 1].T @ (basis[: j + 1] @ r)
        beta = r.norm()
        if beta < LANCZOS_TOLERANCE:
            break
        betas.append(beta)
        basis[j + 1] = r / beta
    steps = len(alphas)
    tridiagonal = torch.diag(torch.stack(alphas))
    if steps > 1:
        off = torch.stack(betas[: steps - 1])
        tridiagonal += torch.diag(off, 1) + torch.diag(off, -1)
    tridiagonal += TRIDIAGONAL_JITTER * torch.diagonal(tridiagonal).min() * torch.eye(steps, dtype=DTYPE)
    eigenvalues, eigenvectors = torch.linalg.eigh(tridiagonal)
    return (basis[:steps].T @ eigenvectors) * eigenvalues.clamp_min(0.0).sqrt()


class Turbo1:
    """TuRBO-1 with batch size 1, minimising on [0, 1]^dim by ask() and tell(value)."""

    def __init__(self, dim, seed=0, n_init=None, training_steps=TRAINING_STEPS, sampling="auto"):
        if dim < 1:
            raise ValueError("dim must be at least 1")
        if sampling not in ("auto", "cholesky"):
            raise ValueError("sampling must be 'auto' or 'cholesky'")
        self.dim = dim
        self.n_init = 2 * dim if n_init is None else n_init
        if self.n_init < 1:
            raise ValueError("n_init must be at least 1")
        self.training_steps = training_steps
        self.sampling = sampling
        self.candidates = candidate_count(dim)
        self.rng = np.random.RandomState(seed % 2**32)
        self.generator = torch.Generator().manual_seed(seed)
        self.region = TrustRegion(dim)
        self.restarts = 0  # restarts begun (the first design is restart 0)
        self.history_x, self.history_f = [], []  # every evaluation of the run
        self.last_gp = None
        self.last_bounds = None
        self._asked = None
        self._asked_from_design = False
        self._start_restart()

    def _start_restart(self):
        self.region.reset()
        self.local_x, self.local_f = [], []  # this restart's evaluations: the model's data
        self.design = list(latin_hypercube(self.n_init, self.dim, self.rng))

    def ask(self):
        """The next point of [0, 1]^dim; tell() its value before asking again."""
        if self._asked is not None:
            raise RuntimeError("ask() twice without tell(): TuRBO-1 runs one point at a time")
        if not self.design and self.region.exhausted:
            self.restarts += 1
            self._start_restart()
        if self.design:
            self._asked, self._asked_from_design = self.design.pop(0), True
        else:
            self._asked, self._asked_from_design = self._thompson_step(), False
        return self._asked.copy()

    def tell(self, value):
        """The value at the point of the last ask()."""
        if self._asked is None:
            raise RuntimeError("tell() without ask()")
        value = float(value)
        if not math.isfinite(value):
            raise ValueError("TuRBO-1 needs finite values")
        if not self._asked_from_design:
            self.region.update(value, min(self.local_f))
        self.local_x.append(self._asked)
        self.local_f.append(value)
        self.history_x.append(self._asked)
        self.history_f.append(value)
        self._asked = None

    def _thompson_step(self):
        x = np.array(self.local_x)
        f = np.array(self.local_f)
        median, spread = np.median(f), f.std()
        spread = 1.0 if spread < 1e-6 else spread
        y = (f - median) / spread
        gp = GaussianProcess(
            torch.tensor(x, dtype=DTYPE), torch.tensor(y, dtype=DTYPE), self.training_steps
        )
        center = x[y.argmin()]
        lower, upper = trust_region_bounds(center, gp.lengthscales.numpy(), self.region.length)
        candidates, _ = create_candidates(center, lower, upper, self.candidates, self.rng)
        sample = gp.sample(torch.tensor(candidates, dtype=DTYPE), self.generator, self.sampling)
        self.last_gp, self.last_bounds = gp, (lower, upper)
        return candidates[int(torch.argmin(sample))]
