// C# example: maximise a 6-variable function that is additive over the pairs (x0, x1),
// (x2, x3), (x4, x5) with the ask/tell loop of Addbo.Optimizer, and print the best point.
//
// Build and run (from the build directory, after cmake --build; Mono finds Addbo.dll and
// libaddbo_csharp.so beside the program):
//   mono bindings/csharp/bin/OptimizeAdditive.exe
// ctest runs it as bindings_csharp_example.
using System;
using Addbo;

static class OptimizeAdditive {
  // The black box: its maximum, 0, is at (0.3, 0.7, 0.55, 0.2, 0.8, 0.45).
  static double BlackBox(double[] x) {
    double[] center = { 0.3, 0.7, 0.55, 0.2, 0.8, 0.45 };
    double sum = 0.0;
    for (int k = 0; k < 6; k += 2) {
      double a = x[k] - center[k];
      double b = x[k + 1] - center[k + 1];
      sum -= a * a + b * b - a * b;  // the pair (x[k], x[k+1]) interacts
    }
    return sum;
  }

  static int Main() {
    // Six continuous variables on [0, 1]; the dependency graph (which variables interact) and
    // the kernel lengthscales are given.
    const string config = "{\"dimension\": 6," +
        " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [2, 3], [4, 5]]}," +
        " \"kernel\": {\"lengthscales\": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}, \"seed\": 1}";
    Console.WriteLine("addbo " + Optimizer.Version());
    try {
      using (var optimizer = new Optimizer(config)) {
        for (int evaluation = 1; evaluation <= 60; evaluation++) {
          double[] x = optimizer.Ask();
          double y = BlackBox(x);  // the expensive evaluation, done by the host
          optimizer.Tell(x, y);
          if (evaluation % 10 == 0) {
            Console.WriteLine("evaluation {0,2}  y {1,9:F5}  best {2,9:F5}", evaluation, y, optimizer.Best().Y);
          }
        }
        Observation best = optimizer.Best();
        Console.WriteLine("best y {0:F5} at x = [{1}]", best.Y,
                          string.Join(", ", Array.ConvertAll(best.X, v => v.ToString("F4"))));
      }
    } catch (AddboException e) {
      Console.Error.WriteLine(e.Status + ": " + e.Message);
      return 1;
    }
    return 0;
  }
}
