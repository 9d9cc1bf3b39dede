// Tests of the Java binding, one case per ctest test: java AddboTest <case>.
// Exit status 0 when every check of the case passed.
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.addbo.AddboException;
import org.addbo.AddboException.Status;
import org.addbo.Observation;
import org.addbo.Optimizer;
import org.addbo.Prediction;

public final class AddboTest {
  // A 6-variable function, additive over the pairs (0,1), (2,3), (4,5): each pair contributes
  // -(a^2 + b^2 - a b) with a, b the distances to CENTER, a positive definite quadratic form.
  // Its maximum is 0 at CENTER; on the optimizer's 32-point grid the best reachable value is
  // -0.00035.
  static final double[] CENTER = {0.3, 0.7, 0.55, 0.2, 0.8, 0.45};

  static double objective(double[] x) {
    double sum = 0.0;
    for (int k = 0; k < 3; k++) {
      double a = x[2 * k] - CENTER[2 * k];
      double b = x[2 * k + 1] - CENTER[2 * k + 1];
      sum -= a * a + b * b - a * b;
    }
    return sum;
  }

  static String config(int seed) {
    return config(seed, "");
  }

  static String config(int seed, String extra) {
    return "{\"dimension\": 6, \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [2, 3], [4, 5]]},"
        + " \"kernel\": {\"lengthscales\": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}, \"seed\": " + seed + extra + "}";
  }

  static int failures = 0;
  static int checks = 0;

  static synchronized void check(boolean ok, String what) {
    checks++;
    if (!ok) {
      failures++;
      System.err.println("CHECK failed: " + what);
    }
  }

  interface Call {
    void run();
  }

  // The call must throw AddboException with this status and a message containing every fragment,
  // in Java's terms (no C function name). getStatus(), deprecated, still gives the C name.
  @SuppressWarnings("deprecation")
  static void expectError(Call call, Status status, String... fragments) {
    try {
      call.run();
      check(false, "expected AddboException " + status + " " + Arrays.toString(fragments));
    } catch (AddboException e) {
      boolean ok = e.status() == status && e.getStatus().equals(status.cName())
          && e.getCode() == status.code() && !e.getMessage().contains("addbo_");
      for (String fragment : fragments) {
        ok = ok && e.getMessage().contains(fragment);
      }
      check(ok, "expected " + status + " " + Arrays.toString(fragments) + ", got " + e);
    }
  }

  // The call must throw IllegalArgumentException caused by an AddboException with status
  // INVALID_ARGUMENT and the same message, containing every fragment, in Java's terms.
  static void expectBadArgument(Call call, String... fragments) {
    try {
      call.run();
      check(false, "expected IllegalArgumentException " + Arrays.toString(fragments));
    } catch (IllegalArgumentException e) {
      boolean ok = e.getCause() instanceof AddboException
          && ((AddboException) e.getCause()).status() == Status.INVALID_ARGUMENT
          && e.getMessage().equals(e.getCause().getMessage()) && !e.getMessage().contains("addbo_");
      for (String fragment : fragments) {
        ok = ok && e.getMessage().contains(fragment);
      }
      check(ok, "expected IllegalArgumentException " + Arrays.toString(fragments) + ", got " + e
          + " caused by " + e.getCause());
    } catch (RuntimeException e) {
      check(false, "expected IllegalArgumentException " + Arrays.toString(fragments) + ", got " + e);
    }
  }

  static <T extends Throwable> void expectThrows(Class<T> type, Call call, String what) {
    try {
      call.run();
      check(false, what + ": expected " + type.getSimpleName());
    } catch (Throwable e) {
      check(type.isInstance(e), what + ": expected " + type.getSimpleName() + ", got " + e);
    }
  }

  // Runs `steps` ask/tell rounds and returns the best observation.
  static Observation optimize(Optimizer opt, int steps) {
    for (int i = 0; i < steps; i++) {
      double[] x = opt.ask();
      opt.tell(x, objective(x));
    }
    return opt.best();
  }

  static void caseOptimize() {
    try (Optimizer opt = new Optimizer(config(1))) {
      check(opt.dimension() == 6, "dimension");
      Observation best = optimize(opt, 100);
      System.out.println("best after 100 evaluations: " + best);
      // Tolerance: within 0.02 of the maximum (0; grid maximum -0.00035). The function spans
      // about 1.5 over the cube; random search with the same 100 evaluations reaches -0.02 in
      // about 0.3% of runs (median best -0.10), while addbo with this seed gets about -0.003.
      check(best.y() >= -0.02, "best value " + best.y() + " >= -0.02");
      check(best.x().length == 6, "best point has 6 coordinates");
      check(objective(best.x()) == best.y(), "best value is the one told for the best point");
      check(opt.count() == 100 && opt.pending() == 0, "counts");
      String info = opt.info();
      check(info.contains("\"edges\":[[0,1],[2,3],[4,5]]"), "info names the graph: " + info);
      check(Optimizer.version().matches("\\d+\\.\\d+\\.\\d+"), "version " + Optimizer.version());
    }
  }

  static void caseErrors() {
    expectError(() -> new Optimizer("{\"dimension\": 6,"), Status.CONFIG, "new Optimizer: ",
        "malformed JSON");
    expectError(() -> new Optimizer("{\"dimension\": 6, \"kernel\": {\"lengthscales\": [0.2]}}"),
        Status.CONFIG, "/kernel/lengthscales");
    expectError(() -> new Optimizer("{\"dimension\": 6, \"bogus\": 1}"), Status.CONFIG,
        "/bogus", "unknown key");
    expectError(() -> Optimizer.load("{\"format\": 1"), Status.STATE, "Optimizer.load: ",
        "saved state /: malformed JSON");
    // A message naming the function to call instead names the Java one (issue 27, item 5.8).
    expectError(() -> Optimizer.load("{\"dimension\": 6}"), Status.STATE, "Optimizer.load: ",
        "use new Optimizer to make an optimizer from a configuration");
    try (Optimizer source = new Optimizer(config(2))) {
      final String state = source.save();
      expectError(() -> new Optimizer(state), Status.CONFIG, "new Optimizer: ",
          "use Optimizer.load to restore an optimizer from it");
    }
    expectThrows(NullPointerException.class, () -> new Optimizer(null), "null configuration");
    try (Optimizer opt = new Optimizer(config(2))) {
      final double[] inside = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
      expectError(opt::best, Status.STATE, "Optimizer.best: ", "no observation");
      expectError(opt::predictedBest, Status.STATE, "Optimizer.predictedBest: ");
      expectBadArgument(() -> opt.tell(new double[] {0.5, 0.5}, 1.0), "Optimizer.tell: ",
          "x has length 2", "6 variables");
      expectBadArgument(() -> opt.tell(new double[7], 1.0), "x has length 7");
      expectBadArgument(() -> opt.predictJson(new double[3]), "Optimizer.predictJson: ",
          "x has length 3");
      expectBadArgument(() -> opt.tell(inside, Double.NaN), "Optimizer.tell: ", "y is NaN");
      expectBadArgument(() -> opt.tell(inside, Double.POSITIVE_INFINITY), "y is +Inf");
      expectBadArgument(() -> opt.tell(new double[] {0.5, 0.5, 0.5, 1.5, 0.5, 0.5}, 1.0),
          "Optimizer.tell: ", "x[3]", "outside");
      expectBadArgument(() -> opt.cancel(inside), "Optimizer.cancel: ", "not a pending point");
      expectThrows(NullPointerException.class, () -> opt.tell(null, 1.0), "null point");
      check(opt.count() == 0 && opt.pending() == 0, "failed calls change nothing");
      opt.tell(inside, 1.0);
      check(opt.count() == 1, "the optimizer still works after failures");
    }
  }

  static void caseSaveLoad() {
    try (Optimizer original = new Optimizer(config(3))) {
      optimize(original, 15);
      double[] pending = original.ask();  // saved as pending
      String state = original.save();
      try (Optimizer restored = Optimizer.load(state)) {
        check(restored.save().equals(state), "save(load(s)) == s");
        check(restored.count() == 15 && restored.pending() == 1, "restored counts");
        check(restored.best().equals(original.best()), "same best");
        double[] next = original.ask();
        double[] restoredNext = restored.ask();
        check(Arrays.equals(next, restoredNext),
            "same next ask: " + Arrays.toString(next) + " vs " + Arrays.toString(restoredNext));
        original.tell(pending, objective(pending));
        restored.tell(pending, objective(pending));
        check(Arrays.equals(original.ask(), restored.ask()), "same ask after a tell");
      }
    }
  }

  static void caseClose() {
    Optimizer opt = new Optimizer(config(4));
    double[] x = opt.ask();
    opt.tell(x, objective(x));
    check(!opt.isClosed(), "open");
    opt.close();
    opt.close();  // harmless
    check(opt.isClosed(), "closed");
    check(opt.toString().contains("closed"), "toString of a closed optimizer");
    List<Call> calls = Arrays.asList(opt::ask, () -> opt.tell(x, 1.0), () -> opt.cancel(x),
        opt::best, opt::count, opt::pending, opt::dimension, opt::info, opt::save);
    for (Call call : calls) {
      expectThrows(IllegalStateException.class, call, "call after close()");
    }
    Optimizer scoped;
    try (Optimizer inner = new Optimizer(config(5))) {
      scoped = inner;
      check(inner.dimension() == 6, "open inside try-with-resources");
    }
    expectThrows(IllegalStateException.class, scoped::ask, "closed by try-with-resources");
  }

  static long residentBytes() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (java.io.IOException e) {
      throw new RuntimeException(e);
    }
    throw new IllegalStateException("no VmRSS in /proc/self/status");
  }

  // 10,000 optimizers, each with one ask and one tell, dropped without close(); a collection
  // every 500. Each optimizer holds about 10 KB of native memory, so a leak would add about
  // 80 MB between optimizers 2,000 and 10,000; the bound allows 16 MB for the JVM's own growth
  // (JIT code, metaspace). The heap is fixed and pre-touched (-Xms64m -Xmx64m
  // -XX:+AlwaysPreTouch on the command line), so it does not count as growth.
  static void caseGcMemory() {
    final int total = 10000;
    final long boundBytes = 16L << 20;
    String config = config(6, ", \"initial_points\": 1");
    long rssAt2000 = 0;
    long start = System.nanoTime();
    for (int i = 1; i <= total; i++) {
      Optimizer opt = new Optimizer(config);
      double[] x = opt.ask();
      opt.tell(x, objective(x));
      if (i % 500 == 0) {
        System.gc();
      }
      if (i == 2000) {
        sleepForCleaner();
        rssAt2000 = residentBytes();
      }
    }
    sleepForCleaner();
    long rssAtEnd = residentBytes();
    long growth = rssAtEnd - rssAt2000;
    System.out.printf("VmRSS at 2,000: %.1f MB, at 10,000: %.1f MB, growth %.1f MB (bound %d MB),"
        + " %.1f s%n", rssAt2000 / 1048576.0, rssAtEnd / 1048576.0, growth / 1048576.0,
        boundBytes >> 20, (System.nanoTime() - start) / 1e9);
    check(growth < boundBytes, "resident memory growth " + growth + " < " + boundBytes);
  }

  // The Cleaner frees the native objects on its own thread once the GC has found them.
  static void sleepForCleaner() {
    System.gc();
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void runThreads(int count, java.util.function.IntConsumer body) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int t = 0; t < count; t++) {
      final int index = t;
      Thread thread = new Thread(() -> body.accept(index));
      thread.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    check(failure.get() == null, "no thread failed: " + failure.get());
  }

  // 8 threads, each with its own optimizer (seed = thread index): every thread must find
  // exactly what a sequential run with the same seed finds. Then 8 threads share one optimizer
  // (its methods are synchronized), and one optimizer is closed while threads use it.
  static void caseThreads() throws InterruptedException {
    final int threads = 8;
    final int steps = 40;
    final Observation[] expected = new Observation[threads];
    for (int t = 0; t < threads; t++) {
      try (Optimizer opt = new Optimizer(config(100 + t))) {
        expected[t] = optimize(opt, steps);
      }
    }
    final Observation[] found = new Observation[threads];
    runThreads(threads, t -> {
      try (Optimizer opt = new Optimizer(config(100 + t))) {
        found[t] = optimize(opt, steps);
      }
    });
    for (int t = 0; t < threads; t++) {
      check(expected[t].equals(found[t]), "thread " + t + ": " + found[t] + " == " + expected[t]);
    }

    try (Optimizer shared = new Optimizer(config(7))) {
      runThreads(threads, t -> optimize(shared, 10));
      check(shared.count() == threads * 10 && shared.pending() == 0,
          "shared optimizer counts " + shared.count() + " " + shared.pending());
    }

    final Optimizer closing = new Optimizer(config(8));
    final AtomicInteger refused = new AtomicInteger();
    runThreads(threads, t -> {
      for (int i = 0; i < 200; i++) {
        if (t == 0 && i == 20) {
          closing.close();
        }
        try {
          double[] x = closing.ask();
          closing.tell(x, objective(x));
        } catch (IllegalStateException e) {
          refused.incrementAndGet();
        }
      }
    });
    check(closing.isClosed() && refused.get() > 0, "calls after a concurrent close are refused");
  }

  // info()'s learned_at_observations: the observation count at the last learning (0: none).
  static int learnedAt(Optimizer opt) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"learned_at_observations\":(\\d+)").matcher(opt.info());
    check(m.find(), "info has learned_at_observations");
    return Integer.parseInt(m.group(1));
  }

  // A learning configuration (graph, lengthscales, noise) whose asks never learn.
  static String manualConfig(int dimension, int seed, int gibbsEvaluations) {
    return "{\"dimension\": " + dimension + ", \"seed\": " + seed + ", \"initial_points\": 4,"
        + " \"structure\": {\"relearn\": \"manual\", \"relearn_every\": 2,"
        + " \"gibbs_evaluations\": " + gibbsEvaluations + "},"
        + " \"kernel\": {\"noise_variance\": \"learn\"}}";
  }

  // learn(): manual mode end to end, nothing to learn, after close(); then a learn() on one
  // thread while others ask, tell, learn and close. No timing is assumed: the checks hold
  // whichever call gets the handle first.
  static void caseLearn() throws InterruptedException {
    try (Optimizer fixed = new Optimizer(config(1))) {
      optimize(fixed, 12);
      check(!fixed.learn(), "a fixed graph with given lengthscales and noise learns nothing");
    }
    try (Optimizer opt = new Optimizer(manualConfig(6, 2, 100))) {
      check(!opt.learn(), "nothing to learn without observations");
      for (int i = 0; i < 10; i++) {
        double[] x = opt.ask();
        opt.tell(x, objective(x));
        check(learnedAt(opt) == 0, "asks never learn in manual mode");
      }
      check(opt.learn(), "learn() commits a round");
      check(learnedAt(opt) == 10, "learned at 10 observations, not " + learnedAt(opt));
      check(opt.save().contains("\"relearn\":\"manual\""), "relearn echoed in the saved state");
    }
    Optimizer closed = new Optimizer(manualConfig(6, 2, 100));
    closed.close();
    expectThrows(IllegalStateException.class, closed::learn, "learn() after close()");

    // Enough data that a round takes a while.
    final Optimizer busy = new Optimizer(manualConfig(12, 3, 1500));
    java.util.Random random = new java.util.Random(5);
    for (int i = 0; i < 250; i++) {
      double[] x = new double[12];
      for (int d = 0; d < 12; d++) {
        x[d] = random.nextDouble();
      }
      busy.tell(x, -Math.abs(x[0] - x[1]) - x[2] * x[3]);
    }
    final AtomicInteger learned = new AtomicInteger(-1);  // 1 committed, 0 not, 2 refused
    final java.util.concurrent.CountDownLatch learning = new java.util.concurrent.CountDownLatch(1);
    Thread learner = new Thread(() -> {
      learning.countDown();
      try {
        learned.set(busy.learn() ? 1 : 0);
      } catch (AddboException e) {
        check(e.status() == Status.STATE, "the learning thread: " + e);
        learned.set(2);
      }
    });
    learner.start();
    learning.await();  // most likely, but not surely, the learner takes the handle first
    boolean refused = false;
    while (learner.isAlive() && !refused) {
      try {
        check(busy.learn(), "a round that ran was committed");
        break;  // this thread got the handle first: the other one is refused
      } catch (AddboException e) {
        refused = e.status() == Status.STATE
            && e.getMessage().contains("a learning is already running on this handle");
        check(refused, "a concurrent learn() is refused: " + e);
      }
    }
    for (int i = 0; i < 3; i++) {  // asks and tells go on meanwhile
      double[] x = busy.ask();
      busy.tell(x, -Math.abs(x[0] - x[1]) - x[2] * x[3]);
    }
    learner.join();
    System.out.println("learn: this thread refused " + refused + ", the learning thread "
        + new String[] {"did not commit", "committed", "was refused"}[learned.get()]);
    // A round that ran was committed (manual mode: nothing else learns meanwhile).
    check(learned.get() == 1 || (!refused && learned.get() == 2),
        "the learning thread: " + learned.get() + ", this thread refused: " + refused);
    check(learnedAt(busy) >= 250, "learned on all the told observations");

    // close() while a learn() may be running waits for it; the learn() either ran to its end or
    // found the optimizer closed.
    final AtomicReference<Throwable> outcome = new AtomicReference<>();
    Thread closing = learnInBackground(busy, outcome);
    busy.close();
    check(busy.isClosed(), "closed");
    closing.join();
    check(outcome.get() == null || outcome.get() instanceof IllegalStateException
            || isInterrupted(outcome.get()),
        "learn() during close(): " + outcome.get());

    // interrupt(): a round of ten million evaluations (minutes) on another thread, interrupted
    // until it returns; the state is as before. Then close() stops such a round itself.
    Optimizer slow = new Optimizer("{\"dimension\": 6, \"seed\": 3, \"initial_points\": 6,"
        + " \"structure\": {\"relearn\": \"manual\", \"gibbs_evaluations\": 10000000}}");
    for (int i = 0; i < 6; i++) {
      double[] x = slow.ask();
      slow.tell(x, -Math.abs(x[0] - x[1]) - x[2] * x[3]);
    }
    String before = slow.save();
    slow.interrupt();  // no call in progress: stops nothing later
    outcome.set(null);
    Thread stopped = learnInBackground(slow, outcome);
    while (stopped.isAlive()) {
      slow.interrupt();
      stopped.join(1);
    }
    check(isInterrupted(outcome.get()), "learn() interrupted: " + outcome.get());
    check(slow.save().equals(before), "an interrupted learning changes nothing");
    outcome.set(null);
    Thread background = learnInBackground(slow, outcome);
    slow.close();  // returns at once: the round in progress, if it started, is interrupted
    background.join();
    check(outcome.get() instanceof IllegalStateException || isInterrupted(outcome.get()),
        "learn() during close(): " + outcome.get());
    expectThrows(IllegalStateException.class, slow::interrupt, "interrupt() after close()");
  }

  // Starts opt.learn() on a thread, which keeps what it throws in outcome; returns once the
  // thread runs.
  static Thread learnInBackground(Optimizer opt, AtomicReference<Throwable> outcome)
      throws InterruptedException {
    final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
    Thread thread = new Thread(() -> {
      started.countDown();
      try {
        opt.learn();
      } catch (Throwable e) {
        outcome.set(e);
      }
    });
    thread.start();
    started.await();
    return thread;
  }

  static boolean isInterrupted(Throwable e) {
    return e instanceof AddboException && ((AddboException) e).status() == Status.INTERRUPTED
        && e.getMessage().contains("interrupted by");
  }

  // The call must throw IllegalArgumentException whose message contains every fragment.
  static void expectArgumentError(Call call, String... fragments) {
    try {
      call.run();
      check(false, "expected IllegalArgumentException " + Arrays.toString(fragments));
    } catch (IllegalArgumentException e) {
      boolean ok = true;
      for (String fragment : fragments) {
        ok = ok && e.getMessage().contains(fragment);
      }
      check(ok, "expected IllegalArgumentException " + Arrays.toString(fragments) + ", got " + e);
    } catch (RuntimeException e) {
      check(false, "expected IllegalArgumentException " + Arrays.toString(fragments) + ", got " + e);
    }
  }

  // The Java surface: the Status enum mirrors addbo.h's values, parameters have Java names (the
  // jar is compiled with -parameters), messages are in Java's terms.
  static void caseJavaApi() throws Exception {
    final Status[] statuses = Status.values();
    final String[] names = {"ADDBO_ERR_INVALID_ARGUMENT", "ADDBO_ERR_CONFIG", "ADDBO_ERR_STATE",
        "ADDBO_ERR_NUMERICAL", "ADDBO_ERR_OUT_OF_MEMORY", "ADDBO_ERR_INTERNAL",
        "ADDBO_ERR_INTERRUPTED"};
    check(statuses.length == names.length, "seven statuses");
    for (int i = 0; i < statuses.length; i++) {
      check(statuses[i].code() == i + 1 && statuses[i].cName().equals(names[i])
          && Status.fromCode(i + 1) == statuses[i], "status " + statuses[i]);
    }
    check(Status.fromCode(99) == Status.INTERNAL, "an unknown code is INTERNAL");
    check(Optimizer.class.getConstructor(String.class).getParameters()[0].getName().equals("config"),
        "the constructor's parameter is config");
    check(Optimizer.class.getMethod("load", String.class).getParameters()[0].getName().equals("state"),
        "load's parameter is state");
    check(Optimizer.class.getMethod("tell", double[].class, double.class).getParameters()[1]
        .getName().equals("y"), "tell's second parameter is y");
    final AddboException made = new AddboException(Status.CONFIG, "a message");
    check(made.status() == Status.CONFIG && made.getCode() == 2, "constructed from a Status");
    final Optimizer closed = new Optimizer(config(11));
    closed.close();
    expectThrows(IllegalStateException.class, () -> closed.tell(new double[6], 0.0), "tell after close");
    expectThrows(IllegalStateException.class, closed::learn, "learn after close");
  }

  // A JSON text with a NUL character is refused (issue 15, item 13: the C API reads up to the
  // first NUL, so the rest was silently ignored and "{...}\0garbage" was accepted).
  static void caseNulStrings() {
    String text = config(10);
    expectArgumentError(() -> new Optimizer(text + "\0garbage"), "config", "NUL",
        "index " + text.length());
    expectArgumentError(() -> new Optimizer("\0"), "config", "index 0");
    expectArgumentError(() -> new Optimizer(
        "{\"variables\": [{\"name\": \"a\0b\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1}]}"),
        "config", "NUL");
    try (Optimizer opt = new Optimizer(text)) {
      optimize(opt, 3);
      String state = opt.save();
      expectArgumentError(() -> Optimizer.load(state + "\0"), "state", "index " + state.length());
      expectArgumentError(() -> Optimizer.load(state.substring(0, 10) + "\0" + state.substring(10)),
          "state", "index 10");
      try (Optimizer restored = Optimizer.load(state)) {
        check(restored.save().equals(state), "a state without NUL still loads");
      }
    }
  }

  // predict(), predictJson() and predictedBest(): errors, values, and no change to the state.
  static void casePredict() {
    try (Optimizer opt = new Optimizer(config(4))) {
      final double[] centre = CENTER.clone();
      expectError(() -> opt.predict(centre), Status.STATE, "Optimizer.predict: ", "no observation");
      expectError(opt::predictedBest, Status.STATE, "Optimizer.predictedBest: ", "no observation");
      optimize(opt, 30);
      expectBadArgument(() -> opt.predict(new double[2]), "Optimizer.predict: ", "x has length 2");
      expectBadArgument(() -> opt.predict(new double[] {Double.NaN, 0.5, 0.5, 0.5, 0.5, 0.5}),
          "Optimizer.predict: ", "x[0]");
      expectThrows(NullPointerException.class, () -> opt.predict(null), "null point");
      String before = opt.save();
      Prediction p = opt.predict(centre);
      System.out.println("prediction at the centre: " + p);
      check(Arrays.equals(p.x(), centre), "the point is echoed");
      check(Double.isFinite(p.mean()) && p.stddev() >= 0.0, "finite prediction " + p);
      Observation best = opt.best();
      Prediction atBest = opt.predict(best.x());
      check(Math.abs(atBest.mean() - best.y()) < 1e-3, "interpolates the told value: " + atBest);
      Prediction model = opt.predictedBest();
      check(model.x().length == 6, "predicted best has 6 coordinates");
      check(model.equals(opt.predict(model.x())), "predictedBest as predict: " + model);
      check(model.mean() >= atBest.mean(), "predicted best mean " + model.mean() + " >= "
          + atBest.mean());
      String json = opt.predictJson(centre);
      check(json.contains("\"cliques\"") && json.contains("\"stddev\""), "predictJson: " + json);
      check(opt.save().equals(before), "predictions change nothing");
    }
  }

  // tell with constraints, tellFailure and failures(): errors in Java's terms, the counts, and
  // the best feasible observation.
  static void caseOutcomes() {
    String config = "{\"dimension\": 2, \"seed\": 2, \"constraints\": "
        + "[{\"name\": \"load\", \"upper\": 1.0}]}";
    try (Optimizer opt = new Optimizer(config)) {
      for (int i = 0; i < 20; i++) {
        double[] x = opt.ask();
        if (x[0] > 0.8) {
          opt.tellFailure(x);
        } else {
          opt.tell(x, x[0] + x[1], new double[] {x[0] + 2 * x[1]});
        }
      }
      check(opt.failures() + opt.count() == 20, "failures " + opt.failures() + " + count");
      Observation best = opt.best();
      check(best.x()[0] + 2 * best.x()[1] <= 1.0, "the best is feasible: " + best);
      final double[] inside = {0.5, 0.5};
      String before = opt.save();
      expectBadArgument(() -> opt.tell(inside, 1.0), "Optimizer.tell: ",
          "tell with the constraints' values");
      expectBadArgument(() -> opt.tell(inside, 1.0, new double[] {1.0, 2.0}),
          "Optimizer.tell: ", "constraints has length 2", "1 constraints");
      expectBadArgument(() -> opt.tell(inside, 1.0, new double[] {Double.NaN}),
          "Optimizer.tell: ", "constraint 'load'");
      expectBadArgument(() -> opt.tellFailure(new double[] {0.5, 1.5}), "Optimizer.tellFailure: ",
          "x[1]");
      expectThrows(NullPointerException.class, () -> opt.tell(inside, 1.0, null), "null values");
      check(opt.save().equals(before), "failed calls change nothing");
    }
  }

  public static void main(String[] args) throws Exception {
    String name = args.length > 0 ? args[0] : "";
    switch (name) {
      case "optimize": caseOptimize(); break;
      case "errors": caseErrors(); break;
      case "save_load": caseSaveLoad(); break;
      case "close": caseClose(); break;
      case "gc_memory": caseGcMemory(); break;
      case "threads": caseThreads(); break;
      case "learn": caseLearn(); break;
      case "nul_strings": caseNulStrings(); break;
      case "java_api": caseJavaApi(); break;
      case "predict": casePredict(); break;
      case "outcomes": caseOutcomes(); break;
      default:
        System.err.println("usage: AddboTest optimize|errors|save_load|close|gc_memory|threads|learn|predict");
        System.exit(2);
    }
    System.out.println(name + ": " + checks + " checks, " + failures + " failed");
    System.exit(failures == 0 && checks > 0 ? 0 : 1);
  }
}
