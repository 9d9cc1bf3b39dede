// Run by ctest as a single source file with only addbo.jar on the class path, no
// java.library.path and no LD_LIBRARY_PATH: the jar must load the native libraries it carries.
//   java -cp addbo.jar BundledNatives.java loaded   the libraries come from the jar's copies
//   java -cp addbo.jar BundledNatives.java missing  with no copy for this platform (the test sets
//                                                   os.arch), the error names every attempt
//   java -Dorg.addbo.library=<file> -cp addbo.jar BundledNatives.java property
//                                                   the named file is loaded, not the jar's copy
//   java -Djava.io.tmpdir=<no such directory> -cp addbo.jar BundledNatives.java tmpdir
//                                                   the copies cannot be extracted: the error
//                                                   says to set java.io.tmpdir
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import org.addbo.Optimizer;

public final class BundledNatives {
  static int failures = 0;

  static void check(boolean ok, String what) {
    if (!ok) {
      failures++;
      System.err.println("CHECK failed: " + what);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("loaded")) {
      loaded();
    } else if (args.length == 1 && args[0].equals("missing")) {
      missing();
    } else if (args.length == 1 && args[0].equals("property")) {
      property();
    } else if (args.length == 1 && args[0].equals("tmpdir")) {
      tmpdir();
    } else {
      throw new IllegalArgumentException("usage: BundledNatives loaded|missing|property|tmpdir");
    }
    System.out.println(failures == 0 ? "all checks passed" : failures + " check(s) failed");
    System.exit(failures == 0 ? 0 : 1);
  }

  static void loaded() throws Exception {
    for (String path : mappedLibraries()) {
      check(path.contains("/addbo-native-"), "mapped from the jar's extracted copy: " + path);
    }
  }

  static void property() throws Exception {
    String library = System.getProperty("org.addbo.library");
    List<String> mapped = mappedLibraries();
    check(mapped.contains(library), "the library named by org.addbo.library is mapped: " + library);
    for (String path : mapped) {
      check(!path.contains("/addbo-native-"), "nothing extracted from the jar: " + path);
    }
  }

  // Uses the binding, then returns the paths the process mapped libaddbo* from.
  static List<String> mappedLibraries() throws Exception {
    try (Optimizer opt = new Optimizer("{\"dimension\": 2, \"seed\": 1}")) {
      for (int i = 0; i < 5; i++) {
        double[] x = opt.ask();
        opt.tell(x, -(x[0] - 0.5) * (x[0] - 0.5) - x[1]);
      }
      check(opt.count() == 5, "five observations told");
      check(Optimizer.version().matches("\\d+\\.\\d+\\.\\d+"), "version " + Optimizer.version());
    }
    // Where the process mapped the libraries from: for the jar's copies, a temporary directory
    // addbo-native-* (its files deleted once loaded, so "(deleted)" follows the path).
    List<String> mapped = Files.readAllLines(Paths.get("/proc/self/maps")).stream()
        .filter(line -> line.contains("libaddbo"))
        .map(line -> line.substring(line.indexOf('/')))
        .distinct()
        .collect(Collectors.toList());
    System.out.println("mapped: " + mapped);
    check(mapped.stream().anyMatch(path -> path.contains("/libaddbo_java.so")), "JNI library mapped");
    check(mapped.stream().anyMatch(path -> path.contains("/libaddbo.so")), "core library mapped");
    return mapped;
  }

  // Where java.io.tmpdir cannot take the copies (here: it does not exist; a noexec mount fails
  // the same attempt when loading), the error names the property that moves them.
  static void tmpdir() {
    try {
      Optimizer.version();
      check(false, "expected UnsatisfiedLinkError with java.io.tmpdir unusable");
    } catch (UnsatisfiedLinkError e) {
      String message = e.getMessage();
      System.out.println(message);
      check(message.contains("extracted to " + System.getProperty("java.io.tmpdir")),
          "names the extraction attempt and its directory");
      check(message.contains("noexec") && message.contains("-Djava.io.tmpdir=<"),
          "suggests -Djava.io.tmpdir for a noexec or read-only temporary directory");
    }
  }

  static void missing() {
    try {
      Optimizer.version();
      check(false, "expected UnsatisfiedLinkError without libraries for this platform");
    } catch (UnsatisfiedLinkError e) {
      String message = e.getMessage();
      System.out.println(message);
      check(message.contains("native/" + System.getProperty("os.name").toLowerCase() + "-"),
          "names the platform directory searched in the jar");
      check(message.contains("java.library.path"), "names java.library.path");
      check(message.contains("org.addbo.library"), "names the org.addbo.library property");
      check(message.contains("lib/jni"), "names the installed directory lib/jni");
    }
  }
}
