namespace Addbo {

/// <summary>What the model predicts at a point, as returned by <see cref="Optimizer.Predict"/>
/// and <see cref="Optimizer.PredictedBest"/>: the posterior mean and standard deviation of the
/// objective, in the units of y as told (the standard deviation without the observation
/// noise).</summary>
public sealed class Prediction {
  private readonly double[] x;

  /// <summary>A prediction: a copy of the point, the mean and the standard deviation.</summary>
  /// <param name="x">the point, in the user's units</param>
  /// <param name="mean">the posterior mean of the objective there</param>
  /// <param name="stddev">the posterior standard deviation of the objective there</param>
  /// <exception cref="System.ArgumentNullException"><paramref name="x"/> is null</exception>
  public Prediction(double[] x, double mean, double stddev) {
    if (x == null) {
      throw new System.ArgumentNullException("x");
    }
    this.x = (double[])x.Clone();
    Mean = mean;
    StdDev = stddev;
  }

  /// <summary>The point (a copy).</summary>
  public double[] X {
    get { return (double[])x.Clone(); }
  }

  /// <summary>The posterior mean of the objective at the point.</summary>
  public double Mean { get; }

  /// <summary>The posterior standard deviation of the objective at the point.</summary>
  public double StdDev { get; }

  /// <summary>The point, the mean and the standard deviation.</summary>
  /// <returns>the text</returns>
  public override string ToString() {
    return "Prediction(X=[" + string.Join(", ", x) + "], Mean=" + Mean + ", StdDev=" + StdDev + ")";
  }
}

}
