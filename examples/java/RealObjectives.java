// A simulation that crashes on part of the box and whose result must respect a limit
// (docs/real-objectives.md): minimise a beam's mass subject to its stress staying at most 12,
// telling the evaluations that diverge as failures.
import org.addbo.Observation;
import org.addbo.Optimizer;

public final class RealObjectives {
  // The "simulation": {mass, stress}, or null when it diverges (a thin, narrow beam buckles).
  static double[] simulate(double[] x) {
    double section = x[0] * x[1];
    if (section < 15.0) {
      return null;
    }
    return new double[] {section + 0.5 * x[2] * x[3], 1000.0 / (section + 0.2 * x[2] * x[3] + 1.0)};
  }

  public static void main(String[] args) {
    String config = "{\"variables\": ["
        + "{\"name\": \"thickness\", \"lower\": 1, \"upper\": 10},"
        + "{\"name\": \"width\", \"lower\": 1, \"upper\": 10},"
        + "{\"name\": \"rib_height\", \"lower\": 0, \"upper\": 5},"
        + "{\"name\": \"ribs\", \"lower\": 0, \"upper\": 5}],"
        + "\"goal\": \"minimize\", \"seed\": 3,"
        + "\"constraints\": [{\"name\": \"stress\", \"upper\": 12}]}";
    try (Optimizer optimizer = new Optimizer(config)) {
      for (int i = 0; i < 60; i++) {
        double[] x = optimizer.ask();
        double[] outcome = simulate(x);
        if (outcome != null) {
          optimizer.tell(x, outcome[0], new double[] {outcome[1]});
        } else {
          optimizer.tellFailure(x);  // diverged: no value
        }
      }
      Observation best = optimizer.best();  // the best feasible design
      double stress = simulate(best.x())[1];
      System.out.printf("best feasible mass %.3f (stress %.2f <= 12), %d of 60 evaluations failed%n",
          best.y(), stress, optimizer.failures());
      if (stress > 12.0) {
        System.exit(1);
      }
    }
  }
}
