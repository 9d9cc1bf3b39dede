package org.addbo;

import java.util.Arrays;

/** A told point and its value, as returned by {@link Optimizer#best()}. */
public final class Observation {
  private final double[] x;
  private final double y;

  /**
   * Creates an observation.
   *
   * @param x the point, in the user's units (integers as whole numbers, categorical variables as
   *     the index of the choice)
   * @param y the value told for it
   */
  public Observation(double[] x, double y) {
    this.x = x.clone();
    this.y = y;
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
   * The value told for the point.
   *
   * @return the value
   */
  public double y() {
    return y;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Observation)) {
      return false;
    }
    Observation that = (Observation) other;
    return Double.compare(y, that.y) == 0 && Arrays.equals(x, that.x);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(x) + Double.hashCode(y);
  }

  @Override
  public String toString() {
    return "Observation(x=" + Arrays.toString(x) + ", y=" + y + ")";
  }
}
