package org.addbo;

import java.util.Arrays;

/**
 * What the model predicts at a point, as returned by {@link Optimizer#predict(double[])} and
 * {@link Optimizer#predictedBest()}: the posterior mean and standard deviation of the objective,
 * in the units of y as told (the standard deviation without the observation noise).
 */
public final class Prediction {
  private final double[] x;
  private final double mean;
  private final double stddev;

  /**
   * Creates a prediction.
   *
   * @param x the point, in the user's units
   * @param mean the posterior mean of the objective there
   * @param stddev the posterior standard deviation of the objective there
   */
  public Prediction(double[] x, double mean, double stddev) {
    this.x = x.clone();
    this.mean = mean;
    this.stddev = stddev;
  }

  /**
   * The point.
   *
   * @return a copy of the point
   */
  public double[] x() {
    return x.clone();
  }

  /**
   * The posterior mean of the objective at the point.
   *
   * @return the mean, in the units of y
   */
  public double mean() {
    return mean;
  }

  /**
   * The posterior standard deviation of the objective at the point.
   *
   * @return the standard deviation, in the units of y
   */
  public double stddev() {
    return stddev;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Prediction)) {
      return false;
    }
    Prediction that = (Prediction) other;
    return Double.compare(mean, that.mean) == 0 && Double.compare(stddev, that.stddev) == 0
        && Arrays.equals(x, that.x);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(x) + Double.hashCode(mean)) + Double.hashCode(stddev);
  }

  @Override
  public String toString() {
    return "Prediction(x=" + Arrays.toString(x) + ", mean=" + mean + ", stddev=" + stddev + ")";
  }
}
