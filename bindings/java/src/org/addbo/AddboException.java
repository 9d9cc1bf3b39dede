package org.addbo;

import java.nio.charset.StandardCharsets;

/**
 * A failed addbo call. {@link #getMessage()} is the library's message, which names the function
 * and the offending argument or JSON pointer (for example
 * {@code "addbo_create: /kernel/lengthscales: expected an array of 6 numbers"}), and
 * {@link #getStatus()} the status name such as {@code "ADDBO_ERR_CONFIG"}.
 */
public class AddboException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String status;

  /**
   * @param code the numeric status (ADDBO_ERR_* value of addbo.h)
   * @param status its name, e.g. "ADDBO_ERR_INVALID_ARGUMENT"
   * @param message the library's message
   */
  public AddboException(int code, String status, String message) {
    super(message);
    this.code = code;
    this.status = status;
  }

  /** Called by the native code, which passes the strings as UTF-8 bytes. */
  static AddboException fromNative(int code, byte[] status, byte[] message) {
    return new AddboException(code, new String(status, StandardCharsets.UTF_8),
        new String(message, StandardCharsets.UTF_8));
  }

  /** The status name, e.g. "ADDBO_ERR_CONFIG", "ADDBO_ERR_INVALID_ARGUMENT", "ADDBO_ERR_STATE". */
  public String getStatus() {
    return status;
  }

  /** The numeric status: the ADDBO_ERR_* value of addbo.h. */
  public int getCode() {
    return code;
  }

  @Override
  public String toString() {
    return getClass().getName() + " [" + status + "]: " + getMessage();
  }
}
