// Uses an installed addbo through the header-only C++ wrapper: one ask and one tell.
#include <addbo/addbo.hpp>
#include <cstdio>
#include <vector>

int main() {
  try {
    addbo::Optimizer optimizer(R"({"dimension": 2, "seed": 1})");
    std::vector<double> x = optimizer.ask();
    optimizer.tell(x, -x[0] * x[0]);
    std::printf("addbo %s: %zu observation, best y %.4f\n", addbo_version(), optimizer.count(),
                optimizer.best().y);
    return optimizer.count() == 1 ? 0 : 1;
  } catch (const addbo::Error& e) {
    std::fprintf(stderr, "%s: %s\n", e.status_name(), e.what());
    return 1;
  }
}
