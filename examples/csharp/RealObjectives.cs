// A simulation that crashes on part of the box and whose result must respect a limit
// (docs/real-objectives.md): minimise a beam's mass subject to its stress staying at most 12,
// telling the evaluations that diverge as failures.
using System;
using Addbo;

static class RealObjectives {
  // The "simulation": {mass, stress}, or null when it diverges (a thin, narrow beam buckles).
  static double[] Simulate(double[] x) {
    double section = x[0] * x[1];
    if (section < 15.0) return null;
    return new double[] { section + 0.5 * x[2] * x[3], 1000.0 / (section + 0.2 * x[2] * x[3] + 1.0) };
  }

  static int Main() {
    string config = "{\"variables\": ["
        + "{\"name\": \"thickness\", \"lower\": 1, \"upper\": 10},"
        + "{\"name\": \"width\", \"lower\": 1, \"upper\": 10},"
        + "{\"name\": \"rib_height\", \"lower\": 0, \"upper\": 5},"
        + "{\"name\": \"ribs\", \"lower\": 0, \"upper\": 5}],"
        + "\"goal\": \"minimize\", \"seed\": 3,"
        + "\"constraints\": [{\"name\": \"stress\", \"upper\": 12}]}";
    using (var optimizer = new Optimizer(config)) {
      for (int i = 0; i < 60; i++) {
        double[] x = optimizer.Ask();
        double[] outcome = Simulate(x);
        if (outcome != null) {
          optimizer.Tell(x, outcome[0], new double[] { outcome[1] });
        } else {
          optimizer.TellFailure(x);  // diverged: no value
        }
      }
      Observation best = optimizer.Best();  // the best feasible design
      double stress = Simulate(best.X)[1];
      Console.WriteLine("best feasible mass {0:F3} (stress {1:F2} <= 12), {2} of 60 evaluations failed",
                        best.Y, stress, optimizer.FailureCount);
      return stress <= 12.0 ? 0 : 1;
    }
  }
}
