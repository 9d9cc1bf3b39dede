// The one SWIG interface of addbo: Java, C# and Lua bindings over the header-only C++ wrapper
// include/addbo/addbo.hpp (and through it the C API; the bindings use nothing else).
//
// What every language gets from here:
//  - class Optimizer: the constructor and methods of optimizer_methods.swg, each declared there
//    once with its documentation (a constructor from a JSON configuration, ask, tell, cancel,
//    best, count, pending, dimension, info, save, learn, predict, predict_json, predicted_best,
//    a static load that restores a saved state, and version);
//  - points as the language's own arrays (Java double[], C# double[], Lua tables);
//  - every addbo::Error turned into the language's error, with the library's message and the
//    status name (ADDBO_ERR_CONFIG, ...);
//  - close/dispose that frees the native handle at once, is harmless twice, and after which
//    every method raises an error instead of touching freed memory; objects that are never
//    closed are freed by the garbage collector.
// The per-language parts (typemaps, exception plumbing, the macros that give each method of
// optimizer_methods.swg its idiomatic name and doc comment) are in java/addbo_java.swg,
// csharp/addbo_csharp.swg and lua/addbo_lua.swg (with lua/addbo_api.lua).
%module addbo

%{
#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "addbo/addbo.hpp"
%}

%include <std_string.i>

// Not wrapped: the error class (each language has its own exception type, built from the
// status and message of addbo::Error); the result structs (each language returns its own value
// types); move/copy machinery; and load(), which returns a move-only Optimizer by value and is
// replaced below by a factory returning a new object.
%ignore addbo::Error;
%ignore addbo::Observation;
%ignore addbo::Prediction;
%ignore addbo::Optimizer::Optimizer(const Optimizer&);
%ignore addbo::Optimizer::Optimizer(Optimizer&&);
%ignore addbo::Optimizer::operator=;
%ignore addbo::Optimizer::load;
%ignore addbo::Optimizer::closed;

#if defined(SWIGJAVA)
%include "java/addbo_java.swg"
#elif defined(SWIGCSHARP)
%include "csharp/addbo_csharp.swg"
#elif defined(SWIGLUA)
%include "lua/addbo_lua.swg"
#else
#error "addbo.i: bindings exist for Java, C# and Lua only"
#endif
%include "optimizer_methods.swg"

// After the per-language part, so that its features (names, modifiers) apply to these too.
%newobject addbo::Optimizer::load_state;
%extend addbo::Optimizer {
  // The documentation of both is in optimizer_methods.swg.
  static addbo::Optimizer* load_state(const std::string& state_json) {
    return new addbo::Optimizer(addbo::Optimizer::load(state_json));
  }
  static const char* version() { return addbo_version(); }
}

%include "addbo/addbo.hpp"
