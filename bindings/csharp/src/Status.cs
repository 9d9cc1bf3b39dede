namespace Addbo {

/// <summary>
/// The status of a failed call: the ADDBO_ERR_* values of the C API (addbo.h), with the same
/// numbers. <see cref="AddboException.Status"/> holds it; a bad argument
/// (<see cref="InvalidArgument"/>) is thrown as <see cref="System.ArgumentException"/> with the
/// <see cref="AddboException"/> as its inner exception.
/// </summary>
public enum Status {
  /// <summary>Success (ADDBO_OK); never the status of an exception thrown by addbo.</summary>
  Ok = 0,
  /// <summary>A bad argument (ADDBO_ERR_INVALID_ARGUMENT): a point of the wrong length, a NaN
  /// value, a point outside the domain, a point that is not pending.</summary>
  InvalidArgument = 1,
  /// <summary>A configuration that is not valid JSON or has an invalid field
  /// (ADDBO_ERR_CONFIG); the message names the field by its JSON pointer.</summary>
  Config = 2,
  /// <summary>A call not possible in the optimizer's state (ADDBO_ERR_STATE): the best point
  /// before the first tell, a saved state that cannot be loaded, a second concurrent
  /// learning.</summary>
  State = 3,
  /// <summary>The model could not be fitted (ADDBO_ERR_NUMERICAL).</summary>
  Numerical = 4,
  /// <summary>The native library ran out of memory (ADDBO_ERR_OUT_OF_MEMORY).</summary>
  OutOfMemory = 5,
  /// <summary>A bug in addbo (ADDBO_ERR_INTERNAL); also the status of an exception built
  /// without one.</summary>
  Internal = 6,
  /// <summary>The call's learning was stopped by <c>Interrupt()</c> (ADDBO_ERR_INTERRUPTED);
  /// nothing changed.</summary>
  Interrupted = 7
}

}
