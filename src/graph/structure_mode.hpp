// How the dependency graph is obtained (structure.mode, docs/configuration.md): learned edge by
// edge, learned as disjoint groups, fixed as configured, or drawn as a random forest at each ask.
// Defined with the graph so that learning and the optimizer can branch on it without the
// configuration.
#pragma once

namespace addbo::core {

enum class StructureMode { learn, disjoint, fixed, random_tree };

}  // namespace addbo::core
