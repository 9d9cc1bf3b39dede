// Java example: maximise a 6-variable function that is additive over the pairs (x0, x1),
// (x2, x3), (x4, x5) with the ask/tell loop of org.addbo.Optimizer, and print the best point.
//
// Build and run (from the build directory, after cmake --build):
//   java -cp bindings/java/addbo.jar:examples/java/classes OptimizeAdditive
//   (addbo.jar loads the native libraries it carries: no -Djava.library.path needed)
// ctest runs it as bindings_java_example.
import java.util.Arrays;
import org.addbo.AddboException;
import org.addbo.Observation;
import org.addbo.Optimizer;

public final class OptimizeAdditive {
  // The black box: its maximum, 0, is at (0.3, 0.7, 0.55, 0.2, 0.8, 0.45).
  static double blackBox(double[] x) {
    double[] center = {0.3, 0.7, 0.55, 0.2, 0.8, 0.45};
    double sum = 0.0;
    for (int k = 0; k < 6; k += 2) {
      double a = x[k] - center[k];
      double b = x[k + 1] - center[k + 1];
      sum -= a * a + b * b - a * b;  // the pair (x[k], x[k+1]) interacts
    }
    return sum;
  }

  public static void main(String[] args) {
    // Six continuous variables on [0, 1]; the dependency graph (which variables interact) and
    // the kernel lengthscales are given.
    String config = "{\"dimension\": 6,"
        + " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [2, 3], [4, 5]]},"
        + " \"kernel\": {\"lengthscales\": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}, \"seed\": 1}";
    System.out.println("addbo " + Optimizer.version());
    try (Optimizer optimizer = new Optimizer(config)) {
      for (int evaluation = 1; evaluation <= 60; evaluation++) {
        double[] x = optimizer.ask();
        double y = blackBox(x);  // the expensive evaluation, done by the host
        optimizer.tell(x, y);
        if (evaluation % 10 == 0) {
          System.out.printf("evaluation %2d  y % .5f  best % .5f%n", evaluation, y, optimizer.best().y());
        }
      }
      Observation best = optimizer.best();
      System.out.printf("best y %.5f at x = %s%n", best.y(), Arrays.toString(best.x()));
    } catch (AddboException e) {
      System.err.println(e.status() + ": " + e.getMessage());
      System.exit(1);
    }
  }
}
