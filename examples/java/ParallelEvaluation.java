// Java example of parallel evaluation with ask/tell: keeps K evaluations in flight on an
// ExecutorService, tells each value as soon as its evaluation finishes (in whatever order they
// finish) and asks for the next point at once, so no thread waits for the slowest of a batch.
//
// The main thread makes every optimizer call; the pool's threads only evaluate. (The binding's
// methods are synchronized, so the workers could call ask and tell themselves: see
// docs/bindings.md.)
//
// Build and run (from the build directory, after cmake --build):
//   java -cp bindings/java/addbo.jar:examples/java/classes ParallelEvaluation
//   (addbo.jar loads the native libraries it carries: no -Djava.library.path needed)
// ctest runs it as bindings_java_parallel_example.
import java.util.Arrays;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.addbo.AddboException;
import org.addbo.Observation;
import org.addbo.Optimizer;

public final class ParallelEvaluation {
  static final int IN_FLIGHT = 4;
  static final int EVALUATIONS = 60;

  // A finished evaluation: the point and its value.
  static final class Evaluated {
    final double[] x;
    final double y;

    Evaluated(double[] x, double y) {
      this.x = x;
      this.y = y;
    }
  }

  // The black box: additive over the pairs (x0, x1), (x2, x3), (x4, x5), maximum 0 at
  // (0.3, 0.7, 0.55, 0.2, 0.8, 0.45). Evaluation `index` takes 2-20 ms, varying with the index,
  // so that evaluations finish in another order than they started, as real ones do.
  static double blackBox(double[] x, int index) throws InterruptedException {
    Thread.sleep(2 + (index * 7) % 19);
    double[] center = {0.3, 0.7, 0.55, 0.2, 0.8, 0.45};
    double sum = 0.0;
    for (int k = 0; k < 6; k += 2) {
      double a = x[k] - center[k];
      double b = x[k + 1] - center[k + 1];
      sum -= a * a + b * b - a * b;  // the pair (x[k], x[k+1]) interacts
    }
    return sum;
  }

  public static void main(String[] args) throws InterruptedException {
    String config = "{\"dimension\": 6, \"seed\": 1,"
        + " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [2, 3], [4, 5]]},"
        + " \"kernel\": {\"lengthscales\": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}}";
    System.out.printf("addbo %s: %d evaluations, %d in flight%n", Optimizer.version(), EVALUATIONS,
        IN_FLIGHT);
    ExecutorService pool = Executors.newFixedThreadPool(IN_FLIGHT);
    // Hands back the evaluations in the order they finish.
    CompletionService<Evaluated> finished = new ExecutorCompletionService<>(pool);
    try (Optimizer optimizer = new Optimizer(config)) {
      int asked = 0;
      long mostPending = 0;
      for (; asked < IN_FLIGHT && asked < EVALUATIONS; asked++) {
        submit(finished, optimizer.ask(), asked);
        mostPending = Math.max(mostPending, optimizer.pending());
      }
      for (int told = 1; told <= EVALUATIONS; told++) {
        Evaluated done = finished.take().get();
        optimizer.tell(done.x, done.y);
        if (asked < EVALUATIONS) {
          submit(finished, optimizer.ask(), asked++);
          mostPending = Math.max(mostPending, optimizer.pending());
        }
        if (told % 10 == 0) {
          System.out.printf("told %2d  y % .5f  best % .5f%n", told, done.y, optimizer.best().y());
        }
      }
      Observation best = optimizer.best();
      System.out.printf("best y %.5f at x = %s%n", best.y(), Arrays.toString(best.x()));
      System.out.printf("at most %d points were pending at once%n", mostPending);
      // Every asked point was told, and no more than IN_FLIGHT were ever out.
      if (optimizer.count() != EVALUATIONS || optimizer.pending() != 0 || mostPending > IN_FLIGHT) {
        System.err.println("unexpected counts");
        System.exit(1);
      }
    } catch (AddboException e) {
      System.err.println(e.status() + ": " + e.getMessage());
      System.exit(1);
    } catch (ExecutionException e) {
      System.err.println("an evaluation failed: " + e.getCause());
      System.exit(1);
    } finally {
      pool.shutdownNow();
    }
  }

  static void submit(CompletionService<Evaluated> finished, double[] x, int index) {
    finished.submit(() -> new Evaluated(x, blackBox(x, index)));
  }
}
