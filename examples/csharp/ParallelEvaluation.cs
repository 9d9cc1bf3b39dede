// C# example of parallel evaluation with ask/tell: keeps K evaluations in flight as Tasks, tells
// each value as soon as its evaluation finishes (Task.WhenAny: in whatever order they finish) and
// asks for the next point at once, so no evaluation waits for the slowest of a batch.
//
// The main thread makes every optimizer call; the tasks only evaluate. (The binding's methods
// are synchronized, so tasks could call Ask and Tell themselves: see docs/bindings.md.)
//
// Build and run (from the build directory, after cmake --build; Mono finds Addbo.dll and
// libaddbo_csharp.so beside the program):
//   mono bindings/csharp/bin/ParallelEvaluation.exe
// ctest runs it as bindings_csharp_parallel_example.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Addbo;

static class ParallelEvaluation {
  const int InFlight = 4;
  const int Evaluations = 60;

  // A finished evaluation: the point and its value.
  sealed class Evaluated {
    public double[] X;
    public double Y;
  }

  // The black box: additive over the pairs (x0, x1), (x2, x3), (x4, x5), maximum 0 at
  // (0.3, 0.7, 0.55, 0.2, 0.8, 0.45). Evaluation `index` takes 2-20 ms, varying with the index,
  // so that evaluations finish in another order than they started, as real ones do.
  static double BlackBox(double[] x, int index) {
    Thread.Sleep(2 + (index * 7) % 19);
    double[] center = { 0.3, 0.7, 0.55, 0.2, 0.8, 0.45 };
    double sum = 0.0;
    for (int k = 0; k < 6; k += 2) {
      double a = x[k] - center[k];
      double b = x[k + 1] - center[k + 1];
      sum -= a * a + b * b - a * b;  // the pair (x[k], x[k+1]) interacts
    }
    return sum;
  }

  static Task<Evaluated> Start(double[] x, int index) {
    return Task.Run(() => new Evaluated { X = x, Y = BlackBox(x, index) });
  }

  static int Main() {
    const string config = "{\"dimension\": 6, \"seed\": 1," +
        " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [2, 3], [4, 5]]}," +
        " \"kernel\": {\"lengthscales\": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}}";
    Console.WriteLine("addbo {0}: {1} evaluations, {2} in flight", Optimizer.Version(), Evaluations,
                      InFlight);
    try {
      using (var optimizer = new Optimizer(config)) {
        var running = new List<Task<Evaluated>>();
        int asked = 0, mostPending = 0;
        for (; asked < InFlight && asked < Evaluations; asked++) {
          running.Add(Start(optimizer.Ask(), asked));
          mostPending = Math.Max(mostPending, optimizer.PendingCount);
        }
        for (int told = 1; told <= Evaluations; told++) {
          Task<Evaluated> first = Task.WhenAny(running).Result;  // the first to finish
          running.Remove(first);
          Evaluated done = first.Result;  // an evaluation's exception surfaces here
          optimizer.Tell(done.X, done.Y);
          if (asked < Evaluations) {
            running.Add(Start(optimizer.Ask(), asked++));
            mostPending = Math.Max(mostPending, optimizer.PendingCount);
          }
          if (told % 10 == 0) {
            Console.WriteLine("told {0,2}  y {1,9:F5}  best {2,9:F5}", told, done.Y, optimizer.Best().Y);
          }
        }
        Observation best = optimizer.Best();
        Console.WriteLine("best y {0:F5} at x = [{1}]", best.Y,
                          string.Join(", ", Array.ConvertAll(best.X, v => v.ToString("F4"))));
        Console.WriteLine("at most {0} points were pending at once", mostPending);
        // Every asked point was told, and no more than InFlight were ever out.
        if (optimizer.Count != Evaluations || optimizer.PendingCount != 0 || mostPending > InFlight) {
          Console.Error.WriteLine("unexpected counts");
          return 1;
        }
      }
    } catch (AddboException e) {
      Console.Error.WriteLine(e.Status + ": " + e.Message);
      return 1;
    } catch (AggregateException e) {
      Console.Error.WriteLine("an evaluation failed: " + e.InnerException);
      return 1;
    }
    return 0;
  }
}
