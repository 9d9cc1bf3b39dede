// Tests of the C# binding, one case per ctest test: mono AddboTests.exe <case>.
// Exit status 0 when every check of the case passed.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using Addbo;

static class AddboTests {
  // A 6-variable function, additive over the pairs (0,1), (2,3), (4,5): each pair contributes
  // -(a^2 + b^2 - a b) with a, b the distances to Center, a positive definite quadratic form.
  // Its maximum is 0 at Center; on the optimizer's 32-point grid the best reachable value is
  // -0.00035.
  static readonly double[] Center = { 0.3, 0.7, 0.55, 0.2, 0.8, 0.45 };

  static double Objective(double[] x) {
    double sum = 0.0;
    for (int k = 0; k < 3; k++) {
      double a = x[2 * k] - Center[2 * k];
      double b = x[2 * k + 1] - Center[2 * k + 1];
      sum -= a * a + b * b - a * b;
    }
    return sum;
  }

  static string Config(int seed, string extra = "") {
    return "{\"dimension\": 6, \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [2, 3], [4, 5]]}," +
        " \"kernel\": {\"lengthscales\": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}, \"seed\": " + seed + extra + "}";
  }

  static int failures = 0;
  static int checks = 0;
  static readonly object checkLock = new object();

  static void Check(bool ok, string what) {
    lock (checkLock) {
      checks++;
      if (!ok) {
        failures++;
        Console.Error.WriteLine("CHECK failed: " + what);
      }
    }
  }

  // The call must throw AddboException with this status and a message containing every fragment
  // and naming no C function.
  static void ExpectError(Action call, Status status, params string[] fragments) {
    try {
      call();
      Check(false, "expected AddboException " + status + " " + string.Join(" ", fragments));
    } catch (AddboException e) {
      bool ok = e.Status == status && fragments.All(f => e.Message.Contains(f)) &&
          !e.Message.Contains("addbo_");
      Check(ok, "expected " + status + " " + string.Join(" ", fragments) + ", got " + e);
    }
  }

  // A bad argument: ArgumentException (exactly) naming the argument, with a message containing
  // every fragment and an AddboException of status InvalidArgument as its inner exception.
  static void ExpectBadArgument(Action call, string argument, params string[] fragments) {
    try {
      call();
      Check(false, "expected ArgumentException " + argument + " " + string.Join(" ", fragments));
    } catch (Exception e) {
      var inner = e.InnerException as AddboException;
      bool ok = e.GetType() == typeof(ArgumentException) &&
          ((ArgumentException)e).ParamName == argument &&
          fragments.All(f => e.Message.Contains(f)) && !e.Message.Contains("addbo_") &&
          inner != null && inner.Status == Status.InvalidArgument && inner.Code == 1 &&
          inner.StatusName == "ADDBO_ERR_INVALID_ARGUMENT";
      Check(ok, "expected ArgumentException " + argument + " " + string.Join(" ", fragments) +
            ", got " + e);
    }
  }

  static void ExpectThrows<T>(Action call, string what) where T : Exception {
    try {
      call();
      Check(false, what + ": expected " + typeof(T).Name);
    } catch (Exception e) {
      Check(e is T, what + ": expected " + typeof(T).Name + ", got " + e);
    }
  }

  static Observation Optimize(Optimizer opt, int steps) {
    for (int i = 0; i < steps; i++) {
      double[] x = opt.Ask();
      opt.Tell(x, Objective(x));
    }
    return opt.Best();
  }

  static bool Same(Observation a, Observation b) {
    return a.Y.Equals(b.Y) && a.X.SequenceEqual(b.X);
  }

  static void CaseOptimize() {
    using (var opt = new Optimizer(Config(1))) {
      Check(opt.Dimension == 6, "Dimension");
      Observation best = Optimize(opt, 100);
      Console.WriteLine("best after 100 evaluations: " + best);
      // Tolerance: within 0.02 of the maximum (0; grid maximum -0.00035). The function spans
      // about 1.5 over the cube; random search with the same 100 evaluations reaches -0.02 in
      // about 0.3% of runs (median best -0.10), while addbo with this seed gets about -0.003.
      Check(best.Y >= -0.02, "best value " + best.Y + " >= -0.02");
      Check(best.X.Length == 6, "best point has 6 coordinates");
      Check(Objective(best.X) == best.Y, "best value is the one told for the best point");
      Check(opt.Count == 100 && opt.PendingCount == 0, "counts");
      string info = opt.Info();
      Check(info.Contains("\"edges\":[[0,1],[2,3],[4,5]]"), "Info names the graph: " + info);
      Check(System.Text.RegularExpressions.Regex.IsMatch(Optimizer.Version(), @"^\d+\.\d+\.\d+$"),
            "Version " + Optimizer.Version());
    }
  }

  static void CaseErrors() {
    ExpectError(() => new Optimizer("{\"dimension\": 6,"), Status.Config, "new Optimizer",
                "malformed JSON");
    ExpectError(() => new Optimizer("{\"dimension\": 6, \"kernel\": {\"lengthscales\": [0.2]}}"),
                Status.Config, "/kernel/lengthscales");
    ExpectError(() => new Optimizer("{\"dimension\": 6, \"bogus\": 1}"), Status.Config,
                "/bogus", "unknown key");
    ExpectError(() => Optimizer.Load("{\"format\": 1"), Status.State, "Optimizer.Load");
    // A message naming the function to call instead names the C# one (issue 27, item 5.8).
    ExpectError(() => Optimizer.Load("{\"dimension\": 6}"), Status.State, "Optimizer.Load: ",
                "use new Optimizer to make an optimizer from a configuration");
    using (var source = new Optimizer(Config(2))) {
      string state = source.Save();
      ExpectError(() => new Optimizer(state), Status.Config, "new Optimizer: ",
                  "use Optimizer.Load to restore an optimizer from it");
    }
    ExpectThrows<ArgumentNullException>(() => new Optimizer(null), "null configuration");
    using (var opt = new Optimizer(Config(2))) {
      double[] inside = { 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 };
      ExpectError(() => opt.Best(), Status.State, "Optimizer.Best", "no observation");
      ExpectBadArgument(() => opt.Tell(new double[] { 0.5, 0.5 }, 1.0), "x",
                        "Optimizer.Tell: x.Length is 2", "6 variables");
      ExpectBadArgument(() => opt.Tell(new double[7], 1.0), "x", "x.Length is 7");
      ExpectBadArgument(() => opt.Tell(inside, double.NaN), "y", "Optimizer.Tell", "y is NaN");
      ExpectBadArgument(() => opt.Tell(inside, double.PositiveInfinity), "y", "y is +Inf");
      ExpectBadArgument(() => opt.Tell(new double[] { 0.5, 0.5, 0.5, 1.5, 0.5, 0.5 }, 1.0), "x",
                        "Optimizer.Tell", "x[3]", "outside");
      ExpectBadArgument(() => opt.Cancel(inside), "x", "Optimizer.Cancel", "not a pending point");
      ExpectThrows<ArgumentNullException>(() => opt.Tell(null, 1.0), "null point");
      Check(opt.Count == 0 && opt.PendingCount == 0, "failed calls change nothing");
      opt.Tell(inside, 1.0);
      Check(opt.Count == 1, "the optimizer still works after failures");
    }
  }

  static void CaseSaveLoad() {
    using (var original = new Optimizer(Config(3))) {
      Optimize(original, 15);
      double[] pending = original.Ask();  // saved as pending
      string state = original.Save();
      using (var restored = Optimizer.Load(state)) {
        Check(restored.Save() == state, "Save(Load(s)) == s");
        Check(restored.Count == 15 && restored.PendingCount == 1, "restored counts");
        Check(Same(restored.Best(), original.Best()), "same best");
        double[] next = original.Ask();
        double[] restoredNext = restored.Ask();
        Check(next.SequenceEqual(restoredNext),
              "same next ask: " + string.Join(",", next) + " vs " + string.Join(",", restoredNext));
        original.Tell(pending, Objective(pending));
        restored.Tell(pending, Objective(pending));
        Check(original.Ask().SequenceEqual(restored.Ask()), "same ask after a tell");
      }
    }
  }

  static void CaseClose() {
    var opt = new Optimizer(Config(4));
    double[] x = opt.Ask();
    opt.Tell(x, Objective(x));
    Check(!opt.IsDisposed, "open");
    opt.Dispose();
    opt.Dispose();  // harmless
    Check(opt.IsDisposed, "disposed");
    Check(opt.ToString().Contains("disposed"), "ToString of a disposed optimizer");
    var calls = new List<Action> {
      () => opt.Ask(), () => opt.Tell(x, 1.0), () => opt.Cancel(x), () => opt.Best(),
      () => Use(opt.Count), () => Use(opt.PendingCount), () => Use(opt.Dimension), () => opt.Info(),
      () => opt.Save() };
    foreach (Action call in calls) {
      ExpectThrows<ObjectDisposedException>(call, "call after Dispose()");
    }
    Optimizer scoped;
    using (var inner = new Optimizer(Config(5))) {
      scoped = inner;
      Check(inner.Dimension == 6, "open inside using");
    }
    ExpectThrows<ObjectDisposedException>(() => scoped.Ask(), "disposed by using");
  }

  static void Use(int value) {
  }

  static long ResidentBytes() {
    foreach (string line in File.ReadAllLines("/proc/self/status")) {
      if (line.StartsWith("VmRSS:")) {
        return long.Parse(new string(line.Where(char.IsDigit).ToArray())) * 1024;
      }
    }
    throw new InvalidOperationException("no VmRSS in /proc/self/status");
  }

  static void Collect() {
    GC.Collect();
    GC.WaitForPendingFinalizers();
    GC.Collect();
  }

  // Makes and drops one optimizer with one ask and one tell; never inlined, so that no local
  // keeps it alive in the loop.
  [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
  static void Churn(string config) {
    var opt = new Optimizer(config);
    double[] x = opt.Ask();
    opt.Tell(x, Objective(x));
  }

  // 10,000 optimizers, each with one ask and one tell, dropped without Dispose(); a collection
  // (with the finalizers run) every 500. Each optimizer holds about 10 KB of native memory, so
  // a leak would add about 80 MB between optimizers 2,000 and 10,000; the bound allows 16 MB
  // for the runtime's own growth.
  static void CaseGcMemory() {
    const int total = 10000;
    const long boundBytes = 16L << 20;
    string config = Config(6, ", \"initial_points\": 1");
    long rssAt2000 = 0;
    var watch = System.Diagnostics.Stopwatch.StartNew();
    for (int i = 1; i <= total; i++) {
      Churn(config);
      if (i % 500 == 0) {
        Collect();
      }
      if (i == 2000) {
        rssAt2000 = ResidentBytes();
      }
    }
    Collect();
    long rssAtEnd = ResidentBytes();
    long growth = rssAtEnd - rssAt2000;
    Console.WriteLine("VmRSS at 2,000: {0:F1} MB, at 10,000: {1:F1} MB, growth {2:F1} MB (bound {3} MB), {4:F1} s",
                      rssAt2000 / 1048576.0, rssAtEnd / 1048576.0, growth / 1048576.0,
                      boundBytes >> 20, watch.Elapsed.TotalSeconds);
    Check(growth < boundBytes, "resident memory growth " + growth + " < " + boundBytes);
  }

  static void RunThreads(int count, Action<int> body) {
    Exception failure = null;
    var threads = new List<Thread>();
    for (int t = 0; t < count; t++) {
      int index = t;
      threads.Add(new Thread(() => {
        try {
          body(index);
        } catch (Exception e) {
          Interlocked.CompareExchange(ref failure, e, null);
        }
      }));
    }
    threads.ForEach(thread => thread.Start());
    threads.ForEach(thread => thread.Join());
    Check(failure == null, "no thread failed: " + failure);
  }

  // 8 threads, each with its own optimizer (seed = thread index): every thread must find
  // exactly what a sequential run with the same seed finds. Then 8 threads share one optimizer
  // (its methods are synchronized), and one optimizer is disposed while threads use it.
  static void CaseThreads() {
    const int threads = 8;
    const int steps = 40;
    var expected = new Observation[threads];
    for (int t = 0; t < threads; t++) {
      using (var opt = new Optimizer(Config(100 + t))) {
        expected[t] = Optimize(opt, steps);
      }
    }
    var found = new Observation[threads];
    RunThreads(threads, t => {
      using (var opt = new Optimizer(Config(100 + t))) {
        found[t] = Optimize(opt, steps);
      }
    });
    for (int t = 0; t < threads; t++) {
      Check(found[t] != null && Same(expected[t], found[t]), "thread " + t + ": " + found[t] + " == " + expected[t]);
    }

    using (var shared = new Optimizer(Config(7))) {
      RunThreads(threads, t => Optimize(shared, 10));
      Check(shared.Count == threads * 10 && shared.PendingCount == 0,
            "shared optimizer counts " + shared.Count + " " + shared.PendingCount);
    }

    var disposing = new Optimizer(Config(8));
    int refused = 0;
    RunThreads(threads, t => {
      for (int i = 0; i < 200; i++) {
        if (t == 0 && i == 20) {
          disposing.Dispose();
        }
        try {
          double[] x = disposing.Ask();
          disposing.Tell(x, Objective(x));
        } catch (ObjectDisposedException) {
          Interlocked.Increment(ref refused);
        }
      }
    });
    Check(disposing.IsDisposed && refused > 0, "calls after a concurrent Dispose() are refused");
  }

  // Info()'s learned_at_observations: the observation count at the last learning (0: none).
  static int LearnedAt(Optimizer opt) {
    var m = System.Text.RegularExpressions.Regex.Match(opt.Info(), "\"learned_at_observations\":(\\d+)");
    Check(m.Success, "Info has learned_at_observations");
    return m.Success ? int.Parse(m.Groups[1].Value) : -1;
  }

  // A learning configuration (graph, lengthscales, noise) whose asks never learn.
  static string ManualConfig(int dimension, int seed, int gibbsEvaluations) {
    return "{\"dimension\": " + dimension + ", \"seed\": " + seed + ", \"initial_points\": 4," +
        " \"structure\": {\"relearn\": \"manual\", \"relearn_every\": 2," +
        " \"gibbs_evaluations\": " + gibbsEvaluations + "}," +
        " \"kernel\": {\"noise_variance\": \"learn\"}}";
  }

  // Learn(): manual mode end to end, nothing to learn, after Dispose(); then a Learn() on one
  // thread while this one asks, tells, learns and disposes. No timing is assumed: the checks
  // hold whichever call gets the handle first.
  static void CaseLearn() {
    using (var fixedGraph = new Optimizer(Config(1))) {
      Optimize(fixedGraph, 12);
      Check(!fixedGraph.Learn(), "a fixed graph with given lengthscales and noise learns nothing");
    }
    using (var opt = new Optimizer(ManualConfig(6, 2, 100))) {
      Check(!opt.Learn(), "nothing to learn without observations");
      for (int i = 0; i < 10; i++) {
        double[] x = opt.Ask();
        opt.Tell(x, Objective(x));
        Check(LearnedAt(opt) == 0, "asks never learn in manual mode");
      }
      Check(opt.Learn(), "Learn() commits a round");
      Check(LearnedAt(opt) == 10, "learned at 10 observations, not " + LearnedAt(opt));
      Check(opt.Save().Contains("\"relearn\":\"manual\""), "relearn echoed in the saved state");
    }
    var disposed = new Optimizer(ManualConfig(6, 2, 100));
    disposed.Dispose();
    ExpectThrows<ObjectDisposedException>(() => disposed.Learn(), "Learn() after Dispose()");

    // Enough data that a round takes a while.
    var busy = new Optimizer(ManualConfig(12, 3, 1500));
    var random = new Random(5);
    Func<double[], double> f = x => -Math.Abs(x[0] - x[1]) - x[2] * x[3];
    for (int i = 0; i < 250; i++) {
      double[] x = new double[12];
      for (int d = 0; d < 12; d++) {
        x[d] = random.NextDouble();
      }
      busy.Tell(x, f(x));
    }
    int learned = -1;  // 1 committed, 0 not, 2 refused
    var learning = new ManualResetEventSlim(false);
    var learner = new Thread(() => {
      learning.Set();
      try {
        Volatile.Write(ref learned, busy.Learn() ? 1 : 0);
      } catch (AddboException e) {
        Check(e.Status == Status.State, "the learning thread: " + e);
        Volatile.Write(ref learned, 2);
      }
    });
    learner.Start();
    learning.Wait();  // most likely, but not surely, the learner takes the handle first
    bool refused = false;
    while (learner.IsAlive && !refused) {
      try {
        Check(busy.Learn(), "a round that ran was committed");
        break;  // this thread got the handle first: the other one is refused
      } catch (AddboException e) {
        refused = e.Status == Status.State &&
            e.Message.Contains("a learning is already running on this handle");
        Check(refused, "a concurrent Learn() is refused: " + e);
      }
    }
    for (int i = 0; i < 3; i++) {  // asks and tells go on meanwhile
      double[] x = busy.Ask();
      busy.Tell(x, f(x));
    }
    learner.Join();
    int outcome = Volatile.Read(ref learned);
    Console.WriteLine("learn: this thread refused " + refused + ", the learning thread " +
                      new[] { "did not commit", "committed", "was refused" }[Math.Max(outcome, 0)]);
    // A round that ran was committed (manual mode: nothing else learns meanwhile).
    Check(outcome == 1 || (!refused && outcome == 2),
          "the learning thread: " + outcome + ", this thread refused: " + refused);
    Check(LearnedAt(busy) >= 250, "learned on all the told observations");

    // Dispose() while a Learn() may be running waits for it; the Learn() either ran to its end
    // or found the optimizer disposed.
    var thrown = new Exception[1];
    var closing = LearnInBackground(busy, thrown);
    busy.Dispose();
    Check(busy.IsDisposed, "disposed");
    closing.Join();
    Exception failure = thrown[0];
    Check(failure == null || failure is ObjectDisposedException || IsInterrupted(failure),
          "Learn() during Dispose(): " + failure);

    // Interrupt(): a round of ten million evaluations (minutes) on another thread, interrupted
    // until it returns; the state is as before. Then Dispose() stops such a round itself.
    var slow = new Optimizer("{\"dimension\": 6, \"seed\": 3, \"initial_points\": 6,"
        + " \"structure\": {\"relearn\": \"manual\", \"gibbs_evaluations\": 10000000}}");
    for (int i = 0; i < 6; i++) {
      double[] x = slow.Ask();
      slow.Tell(x, -Math.Abs(x[0] - x[1]) - x[2] * x[3]);
    }
    string before = slow.Save();
    slow.Interrupt();  // no call in progress: stops nothing later
    thrown[0] = null;
    var stopped = LearnInBackground(slow, thrown);
    while (!stopped.Join(1)) slow.Interrupt();
    failure = thrown[0];
    Check(IsInterrupted(failure), "Learn() interrupted: " + failure);
    Check(slow.Save() == before, "an interrupted learning changes nothing");
    thrown[0] = null;
    var background = LearnInBackground(slow, thrown);
    slow.Dispose();  // returns at once: the round in progress, if it started, is interrupted
    background.Join();
    failure = thrown[0];
    Check(failure is ObjectDisposedException || IsInterrupted(failure), "Learn() during Dispose(): " + failure);
    ExpectThrows<ObjectDisposedException>(() => slow.Interrupt(), "Interrupt() after Dispose()");
  }

  // Starts opt.Learn() on a thread, which keeps what it throws in outcome[0]; returns once the
  // thread runs.
  static Thread LearnInBackground(Optimizer opt, Exception[] outcome) {
    var started = new ManualResetEventSlim(false);
    var thread = new Thread(() => {
      started.Set();
      try {
        opt.Learn();
      } catch (Exception e) {
        outcome[0] = e;
      }
    });
    thread.Start();
    started.Wait();
    return thread;
  }

  static bool IsInterrupted(Exception e) {
    var addbo = e as AddboException;
    return addbo != null && addbo.Status == Status.Interrupted && addbo.Message.Contains("interrupted by");
  }

  // The call must throw ArgumentException (not a subclass) whose message contains every fragment.
  static void ExpectArgumentError(Action call, params string[] fragments) {
    try {
      call();
      Check(false, "expected ArgumentException " + string.Join(" ", fragments));
    } catch (Exception e) {
      bool ok = e.GetType() == typeof(ArgumentException) && fragments.All(f => e.Message.Contains(f));
      Check(ok, "expected ArgumentException " + string.Join(" ", fragments) + ", got " + e);
    }
  }

  // A JSON text with a NUL character is refused (issue 15, item 13: the C API reads up to the
  // first NUL, so the rest was silently ignored and "{...}\0garbage" was accepted).
  static void CaseNulStrings() {
    string text = Config(10);
    ExpectArgumentError(() => new Optimizer(text + "\0garbage"), "config_json", "NUL",
                        "index " + text.Length);
    ExpectArgumentError(() => new Optimizer("\0"), "config_json", "index 0");
    ExpectArgumentError(() => new Optimizer(
        "{\"variables\": [{\"name\": \"a\0b\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1}]}"),
        "config_json", "NUL");
    using (var opt = new Optimizer(text)) {
      Optimize(opt, 3);
      string state = opt.Save();
      ExpectArgumentError(() => Optimizer.Load(state + "\0"), "state_json", "index " + state.Length);
      ExpectArgumentError(() => Optimizer.Load(state.Substring(0, 10) + "\0" + state.Substring(10)),
                          "state_json", "index 10");
      using (var restored = Optimizer.Load(state)) {
        Check(restored.Save() == state, "a state without NUL still loads");
      }
    }
  }

  // Predict(), PredictJson() and PredictedBest(): errors, values, and no change to the state.
  static void CasePredict() {
    using (var opt = new Optimizer(Config(4))) {
      double[] centre = (double[])Center.Clone();
      ExpectError(() => opt.Predict(centre), Status.State, "Optimizer.Predict:", "no observation");
      ExpectError(() => opt.PredictedBest(), Status.State, "Optimizer.PredictedBest", "no observation");
      Optimize(opt, 30);
      ExpectBadArgument(() => opt.Predict(new double[2]), "x", "Optimizer.Predict", "x.Length is 2");
      ExpectBadArgument(() => opt.Predict(new double[] { double.NaN, 0.5, 0.5, 0.5, 0.5, 0.5 }),
                        "x", "Optimizer.Predict", "x[0]");
      ExpectThrows<ArgumentNullException>(() => opt.Predict(null), "null point");
      string before = opt.Save();
      Prediction p = opt.Predict(centre);
      Console.WriteLine("prediction at the centre: " + p);
      Check(p.X.SequenceEqual(centre), "the point is echoed");
      Check(!double.IsNaN(p.Mean) && !double.IsInfinity(p.Mean) && p.StdDev >= 0.0, "finite prediction " + p);
      Observation best = opt.Best();
      Prediction atBest = opt.Predict(best.X);
      Check(Math.Abs(atBest.Mean - best.Y) < 1e-3, "interpolates the told value: " + atBest);
      Prediction model = opt.PredictedBest();
      Check(model.X.Length == 6, "predicted best has 6 coordinates");
      Prediction again = opt.Predict(model.X);
      Check(model.Mean == again.Mean && model.StdDev == again.StdDev, "PredictedBest as Predict: " + model);
      Check(model.Mean >= atBest.Mean, "predicted best mean " + model.Mean + " >= " + atBest.Mean);
      string json = opt.PredictJson(centre);
      Check(json.Contains("\"cliques\"") && json.Contains("\"stddev\""), "PredictJson: " + json);
      Check(opt.Save() == before, "predictions change nothing");
    }
  }


  // The assembly's identity, the class's shape, the exception type and the old members kept.
  // Tell with constraints, TellFailure and FailureCount: errors in C# terms, the counts, and the
  // best feasible observation.
  static void CaseOutcomes() {
    string config = "{\"dimension\": 2, \"seed\": 2, \"constraints\": " +
        "[{\"name\": \"load\", \"upper\": 1.0}]}";
    using (var opt = new Optimizer(config)) {
      for (int i = 0; i < 20; i++) {
        double[] x = opt.Ask();
        if (x[0] > 0.8) {
          opt.TellFailure(x);
        } else {
          opt.Tell(x, x[0] + x[1], new double[] { x[0] + 2 * x[1] });
        }
      }
      Check(opt.FailureCount + opt.Count == 20, "failures " + opt.FailureCount + " + count");
      Observation best = opt.Best();
      Check(best.X[0] + 2 * best.X[1] <= 1.0, "the best is feasible: " + best);
      double[] inside = { 0.5, 0.5 };
      string before = opt.Save();
      ExpectBadArgument(() => opt.Tell(inside, 1.0), null, "Optimizer.Tell: ",
                        "Tell with the constraints' values");
      ExpectBadArgument(() => opt.Tell(inside, 1.0, new double[] { 1.0, 2.0 }), "constraints",
                        "Optimizer.Tell: ", "constraints.Length is 2", "1 constraints");
      ExpectBadArgument(() => opt.Tell(inside, 1.0, new double[] { double.NaN }), "constraints",
                        "Optimizer.Tell: ", "constraint 'load'");
      ExpectBadArgument(() => opt.TellFailure(new double[] { 0.5, 1.5 }), "x",
                        "Optimizer.TellFailure: ", "x[1]");
      ExpectThrows<ArgumentNullException>(() => opt.Tell(inside, 1.0, null), "null values");
      Check(opt.Save() == before, "failed calls change nothing");
    }
  }

  static void CaseApi() {
    var assembly = typeof(Optimizer).Assembly;
    string version = Optimizer.Version();
    Check(assembly.GetName().Version.ToString() == version + ".0",
          "AssemblyVersion " + assembly.GetName().Version + " is the library's " + version);
    var informational = (System.Reflection.AssemblyInformationalVersionAttribute)Attribute.GetCustomAttribute(
        assembly, typeof(System.Reflection.AssemblyInformationalVersionAttribute));
    Check(informational != null && informational.InformationalVersion == version,
          "AssemblyInformationalVersion " + (informational == null ? "missing" : informational.InformationalVersion));
    Check(typeof(Optimizer).IsSealed, "Optimizer is sealed");
    Check(typeof(Optimizer).GetProperty("Count") != null && typeof(Optimizer).GetProperty("PendingCount") != null &&
          typeof(Optimizer).GetProperty("Dimension") != null, "Count, PendingCount and Dimension are properties");

    // Status: the C API's numbers (addbo.h).
    Check((int)Status.Ok == 0 && (int)Status.InvalidArgument == 1 && (int)Status.Config == 2 &&
          (int)Status.State == 3 && (int)Status.Numerical == 4 && (int)Status.OutOfMemory == 5 &&
          (int)Status.Internal == 6 && (int)Status.Interrupted == 7, "Status values are the ADDBO_ERR_* numbers");

    // The standard constructors, and serialization keeping the status.
    Check(new AddboException().Status == Status.Internal, "AddboException()");
    Check(new AddboException("m").Message == "m", "AddboException(message)");
    var cause = new InvalidOperationException("cause");
    Check(new AddboException("m", cause).InnerException == cause, "AddboException(message, inner)");
    var withStatus = new AddboException(Status.Config, "bad", cause);
    Check(withStatus.Status == Status.Config && withStatus.Code == 2 &&
          withStatus.StatusName == "ADDBO_ERR_CONFIG" && withStatus.InnerException == cause,
          "AddboException(status, message, inner)");
    Check(typeof(AddboException).IsSerializable, "AddboException is [Serializable]");
    try {
      new Optimizer("{\"dimension\": 0}").Dispose();
      Check(false, "dimension 0 refused");
    } catch (AddboException e) {
      var formatter = new System.Runtime.Serialization.Formatters.Binary.BinaryFormatter();
      using (var stream = new MemoryStream()) {
        formatter.Serialize(stream, e);
        stream.Position = 0;
        var copy = (AddboException)formatter.Deserialize(stream);
        Check(copy.Status == e.Status && copy.Message == e.Message && copy.Status == Status.Config,
              "serialized and back: " + copy);
      }
    }

    using (var opt = new Optimizer(Config(11))) {
      Check(opt.Dimension == 6 && opt.Count == 0 && opt.PendingCount == 0, "properties");
      double[] x = opt.Ask();
#pragma warning disable 618  // the obsolete method is what this checks
      Check(opt.Pending() == 1 && opt.PendingCount == 1, "Pending() forwards to PendingCount");
#pragma warning restore 618
      opt.Tell(x, Objective(x));
      Check(opt.Count == 1 && opt.PendingCount == 0, "counts after a tell");
      Check(opt.ToString() == "Optimizer(dimension=6, count=1, pending=0)", "ToString: " + opt);
    }
  }

  static int Main(string[] args) {
    string name = args.Length > 0 ? args[0] : "";
    switch (name) {
      case "optimize": CaseOptimize(); break;
      case "errors": CaseErrors(); break;
      case "save_load": CaseSaveLoad(); break;
      case "close": CaseClose(); break;
      case "gc_memory": CaseGcMemory(); break;
      case "threads": CaseThreads(); break;
      case "learn": CaseLearn(); break;
      case "nul_strings": CaseNulStrings(); break;
      case "predict": CasePredict(); break;
      case "api": CaseApi(); break;
      case "outcomes": CaseOutcomes(); break;
      default:
        Console.Error.WriteLine("usage: AddboTests.exe optimize|errors|save_load|close|gc_memory|threads|learn|predict|nul_strings|api");
        return 2;
    }
    Console.WriteLine(name + ": " + checks + " checks, " + failures + " failed");
    return failures == 0 && checks > 0 ? 0 : 1;
  }
}
