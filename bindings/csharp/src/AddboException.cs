namespace Addbo {

/// <summary>
/// A failed addbo call. <see cref="System.Exception.Message"/> is the library's message, which
/// names the function and the offending argument or JSON pointer (for example
/// "addbo_tell: dim is 2 but the optimizer has 6 variables"), and <see cref="Status"/> the
/// status name such as "ADDBO_ERR_INVALID_ARGUMENT".
/// </summary>
public class AddboException : System.Exception {
  /// <param name="code">the numeric status (ADDBO_ERR_* value of addbo.h)</param>
  /// <param name="status">its name, e.g. "ADDBO_ERR_CONFIG"</param>
  /// <param name="message">the library's message</param>
  public AddboException(int code, string status, string message) : base(message) {
    Code = code;
    Status = status;
  }

  /// <summary>The status name: "ADDBO_ERR_CONFIG", "ADDBO_ERR_INVALID_ARGUMENT", ...</summary>
  public string Status { get; }

  /// <summary>The numeric status: the ADDBO_ERR_* value of addbo.h.</summary>
  public int Code { get; }

  /// <summary>The type, status and message (and the stack trace, if thrown).</summary>
  public override string ToString() {
    return GetType().FullName + " [" + Status + "]: " + Message +
        (StackTrace == null ? "" : System.Environment.NewLine + StackTrace);
  }
}

}
