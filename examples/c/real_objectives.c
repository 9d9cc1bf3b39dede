/* A simulation that crashes on part of the box and whose result must respect a limit
 * (docs/real-objectives.md): minimise a beam's mass subject to its stress staying at most 12,
 * telling the evaluations that diverge as failures. Prints the best feasible design. */
#include <stdio.h>

#include <addbo/addbo.h>

/* The "simulation": mass and stress of a design, or 0 when it diverges (a thin, narrow beam
 * buckles and the solver never converges). */
static int simulate(const double* x, double* mass, double* stress) {
  const double section = x[0] * x[1];
  if (section < 15.0) return 0;
  *mass = section + 0.5 * x[2] * x[3];
  *stress = 1000.0 / (section + 0.2 * x[2] * x[3] + 1.0);
  return 1;
}

int main(void) {
  const char* config =
      "{\"variables\": ["
      "  {\"name\": \"thickness\", \"lower\": 1, \"upper\": 10},"
      "  {\"name\": \"width\", \"lower\": 1, \"upper\": 10},"
      "  {\"name\": \"rib_height\", \"lower\": 0, \"upper\": 5},"
      "  {\"name\": \"ribs\", \"lower\": 0, \"upper\": 5}],"
      " \"goal\": \"minimize\", \"seed\": 3,"
      " \"constraints\": [{\"name\": \"stress\", \"upper\": 12}]}";
  addbo_optimizer* opt = NULL;
  double x[4], mass = 0.0, stress = 0.0, best;
  size_t failures = 0;
  int i, status = addbo_create(&opt, config);
  for (i = 0; i < 60 && status == ADDBO_OK; ++i) {
    status = addbo_ask(opt, x, 4);
    if (status != ADDBO_OK) break;
    if (simulate(x, &mass, &stress)) {
      status = addbo_tell_constrained(opt, x, 4, mass, &stress, 1);
    } else {
      status = addbo_tell_failure(opt, x, 4); /* diverged: no value */
    }
  }
  if (status == ADDBO_OK) status = addbo_failure_count(opt, &failures);
  if (status == ADDBO_OK) status = addbo_best(opt, x, 4, &best);
  if (status != ADDBO_OK) {
    fprintf(stderr, "%s: %s\n", addbo_status_name(status), addbo_last_error());
    addbo_destroy(opt);
    return 1;
  }
  simulate(x, &mass, &stress);
  printf("best feasible mass %.3f (stress %.2f <= 12) after 60 evaluations, %zu of them failed\n",
         best, stress, failures);
  addbo_destroy(opt);
  return stress <= 12.0 ? 0 : 1;
}
