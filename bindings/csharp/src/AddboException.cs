namespace Addbo {

/// <summary>
/// A failed addbo call. <see cref="System.Exception.Message"/> is the library's message in the
/// binding's terms: it names the method and the offending argument or JSON pointer (for
/// example "Optimizer.Tell: x.Length is 2 but the optimizer has 6 variables"), and
/// <see cref="Status"/> says what kind of failure it is. Bad arguments are thrown as
/// <see cref="System.ArgumentException"/>, with an AddboException of status
/// <see cref="Addbo.Status.InvalidArgument"/> as the inner exception.
/// </summary>
[System.Serializable]
public class AddboException : System.Exception {
  private const string StatusKey = "Addbo.Status";

  /// <summary>An exception with status <see cref="Addbo.Status.Internal"/> and a default
  /// message.</summary>
  public AddboException() : this(Status.Internal, "addbo: the call failed") {
  }

  /// <summary>An exception with status <see cref="Addbo.Status.Internal"/>.</summary>
  /// <param name="message">the message</param>
  public AddboException(string message) : this(Status.Internal, message) {
  }

  /// <summary>An exception with status <see cref="Addbo.Status.Internal"/> caused by
  /// another.</summary>
  /// <param name="message">the message</param>
  /// <param name="innerException">the exception that caused this one</param>
  public AddboException(string message, System.Exception innerException)
      : this(Status.Internal, message, innerException) {
  }

  /// <summary>An exception with the given status.</summary>
  /// <param name="status">what kind of failure</param>
  /// <param name="message">the message</param>
  public AddboException(Status status, string message) : base(message) {
    Status = status;
  }

  /// <summary>An exception with the given status caused by another.</summary>
  /// <param name="status">what kind of failure</param>
  /// <param name="message">the message</param>
  /// <param name="innerException">the exception that caused this one</param>
  public AddboException(Status status, string message, System.Exception innerException)
      : base(message, innerException) {
    Status = status;
  }

  /// <summary>Deserializes an exception.</summary>
  /// <param name="info">the serialized object data</param>
  /// <param name="context">the source of the serialized data</param>
  protected AddboException(System.Runtime.Serialization.SerializationInfo info,
                           System.Runtime.Serialization.StreamingContext context)
      : base(info, context) {
    Status = (Status)info.GetInt32(StatusKey);
  }

  /// <summary>What kind of failure: <see cref="Addbo.Status.Config"/>,
  /// <see cref="Addbo.Status.State"/>, ...</summary>
  public Status Status { get; }

  /// <summary>The numeric status: the ADDBO_ERR_* value of addbo.h.</summary>
  public int Code {
    get { return (int)Status; }
  }

  /// <summary>The C API's name of the status: "ADDBO_ERR_CONFIG",
  /// "ADDBO_ERR_INVALID_ARGUMENT", ...</summary>
  public string StatusName {
    get {
      switch (Status) {
        case Status.Ok: return "ADDBO_OK";
        case Status.InvalidArgument: return "ADDBO_ERR_INVALID_ARGUMENT";
        case Status.Config: return "ADDBO_ERR_CONFIG";
        case Status.State: return "ADDBO_ERR_STATE";
        case Status.Numerical: return "ADDBO_ERR_NUMERICAL";
        case Status.OutOfMemory: return "ADDBO_ERR_OUT_OF_MEMORY";
        case Status.Internal: return "ADDBO_ERR_INTERNAL";
        case Status.Interrupted: return "ADDBO_ERR_INTERRUPTED";
        default: return "ADDBO_ERR_" + (int)Status;
      }
    }
  }

  /// <summary>Serializes the exception with its status.</summary>
  /// <param name="info">receives the object data</param>
  /// <param name="context">the destination of the serialized data</param>
  /// <exception cref="System.ArgumentNullException"><paramref name="info"/> is null</exception>
  public override void GetObjectData(System.Runtime.Serialization.SerializationInfo info,
                                     System.Runtime.Serialization.StreamingContext context) {
    if (info == null) {
      throw new System.ArgumentNullException("info");
    }
    base.GetObjectData(info, context);
    info.AddValue(StatusKey, (int)Status);
  }

  /// <summary>The type, status and message (and the stack trace, if thrown).</summary>
  /// <returns>the text</returns>
  public override string ToString() {
    return GetType().FullName + " [" + Status + "]: " + Message +
        (StackTrace == null ? "" : System.Environment.NewLine + StackTrace);
  }
}

}
