package example;

import org.addbo.Observation;
import org.addbo.Optimizer;

/** Maximises -(x0 - 0.3)^2 - (x1 - 0.6)^2 for 20 rounds with addbo taken from Maven. */
public final class Consumer {
  private Consumer() {}

  /**
   * Runs the loop and prints the best observation.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    try (Optimizer opt = new Optimizer("{\"dimension\": 2, \"seed\": 7}")) {
      for (int i = 0; i < 20; i++) {
        double[] x = opt.ask();
        opt.tell(x, -(x[0] - 0.3) * (x[0] - 0.3) - (x[1] - 0.6) * (x[1] - 0.6));
      }
      Observation best = opt.best();
      System.out.println("addbo " + Optimizer.version() + " from Maven: best " + best);
    }
  }
}
