package org.addbo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads the native libraries of the binding, once, before the first native call. In this order:
 *
 * <ol>
 *   <li>the file named by the system property {@code org.addbo.library} (the JNI library
 *       {@code libaddbo_java.so}), when it is set: an explicit choice wins;
 *   <li>the copies carried by the jar under {@code native/<os>-<arch>/} (for example
 *       {@code native/linux-x86_64/}), listed in load order in {@code libraries.txt} there: the
 *       core library first, then the JNI library, each extracted into a new temporary directory
 *       (under {@code java.io.tmpdir}) and loaded by its absolute path; the JNI library's
 *       dependency on the core then resolves to the copy already loaded (and its RUNPATH is
 *       {@code $ORIGIN} as well);
 *   <li>{@code System.loadLibrary("addbo_java")}, which searches {@code java.library.path} (an
 *       installed tree has the library in {@code <prefix>/lib/jni}).
 * </ol>
 *
 * When all fail, the {@link UnsatisfiedLinkError} names each attempt and why it failed.
 */
final class NativeLoader {
  /** The system property naming the JNI library file to load instead of the bundled one. */
  static final String LIBRARY_PROPERTY = "org.addbo.library";

  private NativeLoader() {}

  /** Loads the libraries or throws UnsatisfiedLinkError naming what was tried. */
  static void load() {
    final String explicit = System.getProperty(LIBRARY_PROPERTY);
    if (explicit != null && !explicit.isEmpty()) {
      try {
        System.load(explicit);
        return;
      } catch (UnsatisfiedLinkError e) {
        throw failure(List.of("-D" + LIBRARY_PROPERTY + "=" + explicit + ": " + e.getMessage()), e,
            false);
      }
    }
    final List<String> attempts = new ArrayList<>();
    UnsatisfiedLinkError last = null;
    boolean extractionFailed = false;
    final String platform = platform();
    try {
      if (loadBundled(platform)) {
        return;
      }
      attempts.add("the jar: no native/" + platform + "/ libraries in it (built for another platform?)");
    } catch (IOException | UnsatisfiedLinkError | SecurityException e) {
      attempts.add("the jar's native/" + platform + "/ libraries, extracted to "
          + System.getProperty("java.io.tmpdir") + ": " + e);
      extractionFailed = true;
      if (e instanceof UnsatisfiedLinkError) {
        last = (UnsatisfiedLinkError) e;
      }
    }
    try {
      System.loadLibrary("addbo_java");
      return;
    } catch (UnsatisfiedLinkError e) {
      attempts.add("System.loadLibrary(\"addbo_java\"): " + e.getMessage());
      last = e;
    }
    throw failure(attempts, last, extractionFailed);
  }

  /** This JVM's platform as the jar names its directories: os-arch, e.g. "linux-x86_64". */
  static String platform() {
    final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    final String osName;
    if (os.startsWith("linux")) {
      osName = "linux";
    } else if (os.startsWith("mac") || os.startsWith("darwin")) {
      osName = "darwin";
    } else if (os.startsWith("windows")) {
      osName = "windows";
    } else {
      osName = os.replaceAll("[^a-z0-9]", "");
    }
    final String archName;
    if (arch.equals("amd64") || arch.equals("x86_64")) {
      archName = "x86_64";
    } else if (arch.equals("aarch64") || arch.equals("arm64")) {
      archName = "aarch64";
    } else {
      archName = arch.replaceAll("[^a-z0-9_]", "");
    }
    return osName + "-" + archName;
  }

  /**
   * Extracts and loads the jar's libraries for the platform; false when the jar has none for it.
   */
  private static boolean loadBundled(String platform) throws IOException {
    final String directory = "/native/" + platform + "/";
    final List<String> names = new ArrayList<>();
    try (InputStream index = NativeLoader.class.getResourceAsStream(directory + "libraries.txt")) {
      if (index == null) {
        return false;
      }
      for (String line : new String(index.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.trim().isEmpty()) {
          names.add(line.trim());
        }
      }
    }
    final Path target = Files.createTempDirectory("addbo-native-");
    final List<Path> files = new ArrayList<>();
    try {
      for (String name : names) {
        final Path file = target.resolve(name);
        try (InputStream in = NativeLoader.class.getResourceAsStream(directory + name)) {
          if (in == null) {
            throw new IOException("the jar lists " + directory + name + " but does not hold it");
          }
          Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        files.add(file);
      }
      for (Path file : files) {
        System.load(file.toAbsolutePath().toString());
      }
    } finally {
      // On Linux and macOS a loaded library stays mapped once its file is deleted: nothing is
      // left behind, even if the JVM is killed. Windows keeps loaded files locked, so there they
      // go when the JVM exits (files before their directory: deleteOnExit runs in reverse).
      final boolean windows = platform.startsWith("windows");
      if (windows) {
        target.toFile().deleteOnExit();
      }
      for (Path file : files) {
        if (windows) {
          file.toFile().deleteOnExit();
        } else {
          Files.deleteIfExists(file);
        }
      }
      if (!windows) {
        Files.deleteIfExists(target);
      }
    }
    return true;
  }

  /**
   * The error naming every attempt and what to do. {@code extractionFailed}: the jar's copies
   * could not be extracted or loaded, most often because java.io.tmpdir is not writable or is
   * mounted noexec (a common hardening of /tmp, where mapping a library fails), which the
   * message then says, with the property that moves the extraction.
   */
  private static UnsatisfiedLinkError failure(List<String> attempts, Throwable cause,
      boolean extractionFailed) {
    final StringBuilder message = new StringBuilder(
        "org.addbo: cannot load the native library of the addbo binding. Tried:");
    for (String attempt : attempts) {
      message.append("\n  - ").append(attempt);
    }
    if (extractionFailed) {
      message.append("\nIf java.io.tmpdir (").append(System.getProperty("java.io.tmpdir"))
          .append(") is not writable or is mounted noexec, run java with"
              + " -Djava.io.tmpdir=<a writable directory from which programs may run>.");
    }
    message.append("\nUse the addbo.jar built for this platform, or set -D")
        .append(LIBRARY_PROPERTY).append("=/path/to/libaddbo_java.so (installed in <prefix>/lib/jni)"
            + " or -Djava.library.path=<prefix>/lib/jni.");
    final UnsatisfiedLinkError error = new UnsatisfiedLinkError(message.toString());
    if (cause != null) {
      error.initCause(cause);
    }
    return error;
  }
}
