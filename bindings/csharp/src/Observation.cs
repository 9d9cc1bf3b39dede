namespace Addbo {

/// <summary>A told point and its value, as returned by <see cref="Optimizer.Best"/>.</summary>
public sealed class Observation {
  private readonly double[] x;

  /// <summary>An observation: a copy of the point and its value.</summary>
  /// <param name="x">the point, in the user's units (integers as whole numbers, categorical
  /// variables as the index of the choice)</param>
  /// <param name="y">the value told for it</param>
  /// <exception cref="System.ArgumentNullException"><paramref name="x"/> is null</exception>
  public Observation(double[] x, double y) {
    if (x == null) {
      throw new System.ArgumentNullException("x");
    }
    this.x = (double[])x.Clone();
    Y = y;
  }

  /// <summary>The point (a copy).</summary>
  public double[] X {
    get { return (double[])x.Clone(); }
  }

  /// <summary>The value told for the point.</summary>
  public double Y { get; }

  /// <summary>The point and its value.</summary>
  /// <returns>the text</returns>
  public override string ToString() {
    return "Observation(X=[" + string.Join(", ", x) + "], Y=" + Y + ")";
  }
}

}
