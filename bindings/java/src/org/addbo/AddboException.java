package org.addbo;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failed addbo call. {@link #getMessage()} is the library's message in the binding's terms: it
 * names the method and the offending argument or JSON pointer (for example
 * {@code "new Optimizer: /kernel/lengthscales: expected an array of 6 numbers"}), and
 * {@link #status()} says which kind of failure it was.
 *
 * <p>A bad argument (status {@link Status#INVALID_ARGUMENT}: a point of the wrong length, a value
 * that is NaN or infinite, a point outside the domain, a point that is not pending) is thrown as
 * an {@link IllegalArgumentException} instead, whose {@link Throwable#getCause() cause} is the
 * {@code AddboException} with that status.
 */
public class AddboException extends RuntimeException {
  /** The version of the serialized form. */
  private static final long serialVersionUID = 1L;

  /** The failure statuses of the C API ({@code ADDBO_ERR_*} in {@code addbo.h}). */
  public enum Status {
    /** {@code ADDBO_ERR_INVALID_ARGUMENT}: an argument is invalid (thrown as IllegalArgumentException). */
    INVALID_ARGUMENT(1),
    /** {@code ADDBO_ERR_CONFIG}: the configuration is not valid JSON or a field is invalid. */
    CONFIG(2),
    /** {@code ADDBO_ERR_STATE}: the call is not possible in this state, or a saved state is invalid. */
    STATE(3),
    /** {@code ADDBO_ERR_NUMERICAL}: the model could not be computed. */
    NUMERICAL(4),
    /** {@code ADDBO_ERR_OUT_OF_MEMORY}: the library ran out of memory. */
    OUT_OF_MEMORY(5),
    /** {@code ADDBO_ERR_INTERNAL}: a bug in addbo. */
    INTERNAL(6),
    /** {@code ADDBO_ERR_INTERRUPTED}: the call's learning was stopped by interrupt(); nothing changed. */
    INTERRUPTED(7);

    private final int code;

    Status(int code) {
      this.code = code;
    }

    /**
     * The numeric value of the status in the C API.
     *
     * @return the {@code ADDBO_ERR_*} value of {@code addbo.h}
     */
    public int code() {
      return code;
    }

    /**
     * The name of the status in the C API.
     *
     * @return {@code "ADDBO_ERR_"} followed by this constant's name, e.g. {@code "ADDBO_ERR_CONFIG"}
     */
    public String cName() {
      return "ADDBO_ERR_" + name();
    }

    /**
     * The status of a numeric value of the C API.
     *
     * @param code an {@code ADDBO_ERR_*} value of {@code addbo.h}
     * @return its status; {@link #INTERNAL} for a value this version does not know
     */
    public static Status fromCode(int code) {
      for (Status status : values()) {
        if (status.code == code) {
          return status;
        }
      }
      return INTERNAL;
    }
  }

  /** The numeric status, as the C API gave it. */
  private final int code;
  /** The status name, as the C API gave it. */
  private final String statusName;
  /** The status of {@link #code}. */
  private final Status status;

  /**
   * Creates an exception for a failed call.
   *
   * @param code the numeric status (the ADDBO_ERR_* value of addbo.h)
   * @param statusName its name, e.g. "ADDBO_ERR_INVALID_ARGUMENT"
   * @param message the message
   */
  public AddboException(int code, String statusName, String message) {
    super(message);
    this.code = code;
    this.statusName = statusName;
    this.status = Status.fromCode(code);
  }

  /**
   * Creates an exception for a failed call.
   *
   * @param status the status
   * @param message the message
   */
  public AddboException(Status status, String message) {
    this(status.code(), status.cName(), message);
  }

  /**
   * Called by the native code, which passes the strings as UTF-8 bytes: the exception to throw,
   * an IllegalArgumentException (caused by the AddboException) for a bad argument.
   */
  static RuntimeException fromNative(int code, byte[] statusName, byte[] message) {
    final AddboException error = new AddboException(code,
        new String(statusName, StandardCharsets.UTF_8),
        javaMessage(new String(message, StandardCharsets.UTF_8)));
    if (error.status == Status.INVALID_ARGUMENT) {
      return new IllegalArgumentException(error.getMessage(), error);
    }
    return error;
  }

  private static final Pattern C_FUNCTION = Pattern.compile("^addbo_([a-z_]+): ");
  private static final Pattern C_FUNCTION_NAMED = Pattern.compile("\\baddbo_(create|load)\\b");
  private static final Pattern C_DIM = Pattern.compile("\\bdim is (\\d+)");
  private static final Pattern C_ARGUMENT = Pattern.compile("\\b(config|state)_json\\b");
  private static final Pattern C_COUNT = Pattern.compile("^count is (\\d+)");

  /**
   * The C API's message in Java's terms: the C function becomes the Java method
   * ({@code addbo_tell: } becomes {@code Optimizer.tell: }, {@code addbo_create: }
   * {@code new Optimizer: }), also where a message names the function to use instead
   * ({@code use addbo_load} becomes {@code use Optimizer.load}), and the C argument names the
   * Java ones ({@code dim is 2} becomes {@code x has length 2}, {@code count is 2}
   * {@code constraints has length 2}, {@code config_json} {@code config}, {@code state_json}
   * {@code state}).
   */
  static String javaMessage(String message) {
    String text = message;
    final Matcher function = C_FUNCTION.matcher(text);
    if (function.find()) {
      text = javaMember(function.group(1)) + ": "
          + C_COUNT.matcher(text.substring(function.end())).replaceAll("constraints has length $1");
    }
    text = text.replace("(addbo_tell_constrained)", "(tell with the constraints' values)");
    final Matcher named = C_FUNCTION_NAMED.matcher(text);
    final StringBuffer renamed = new StringBuffer();
    while (named.find()) {
      named.appendReplacement(renamed, Matcher.quoteReplacement(javaMember(named.group(1))));
    }
    named.appendTail(renamed);
    text = renamed.toString();
    text = C_DIM.matcher(text).replaceAll("x has length $1");
    text = C_ARGUMENT.matcher(text).replaceAll("$1");
    return text;
  }

  /** The Java member of the C function {@code addbo_<name>}: new Optimizer, Optimizer.tell... */
  private static String javaMember(String name) {
    if (name.equals("create")) {
      return "new Optimizer";
    } else if (name.equals("tell_constrained")) {
      return "Optimizer.tell";  // the overload with the constraints' values
    }
    final StringBuilder camel = new StringBuilder("Optimizer.");
    boolean upper = false;
    for (char c : name.toCharArray()) {
      if (c == '_') {
        upper = true;
      } else {
        camel.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return camel.toString();
  }

  /**
   * The status of the failure.
   *
   * @return the status, e.g. {@link Status#CONFIG}
   */
  public Status status() {
    return status;
  }

  /**
   * The status name, as in the C API.
   *
   * @return the name, e.g. "ADDBO_ERR_CONFIG", "ADDBO_ERR_INVALID_ARGUMENT", "ADDBO_ERR_STATE"
   * @deprecated use {@link #status()}, an enum ({@code status().cName()} is this name)
   */
  @Deprecated
  public String getStatus() {
    return statusName;
  }

  /**
   * The numeric status.
   *
   * @return the ADDBO_ERR_* value of addbo.h ({@code status().code()} for the known values)
   */
  public int getCode() {
    return code;
  }

  @Override
  public String toString() {
    return getClass().getName() + " [" + statusName + "]: " + getMessage();
  }
}
