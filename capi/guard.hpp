// Wraps the body of every fallible C entry point: no exception crosses extern "C", and each one
// becomes an ADDBO_ERR_* status plus a thread-local message.
#pragma once

#include <exception>
#include <new>

#include "addbo/addbo.h"
#include "last_error.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace addbo::capi {

// The core's error types, which this boundary turns into statuses.
using core::Error;
using core::Status;

// The core's Status mirrors the C status values one to one; keep them pinned together.
static_assert(static_cast<int>(Status::ok) == ADDBO_OK);
static_assert(static_cast<int>(Status::invalid_argument) == ADDBO_ERR_INVALID_ARGUMENT);
static_assert(static_cast<int>(Status::config) == ADDBO_ERR_CONFIG);
static_assert(static_cast<int>(Status::state) == ADDBO_ERR_STATE);
static_assert(static_cast<int>(Status::numerical) == ADDBO_ERR_NUMERICAL);
static_assert(static_cast<int>(Status::out_of_memory) == ADDBO_ERR_OUT_OF_MEMORY);
static_assert(static_cast<int>(Status::internal) == ADDBO_ERR_INTERNAL);
static_assert(static_cast<int>(Status::interrupted) == ADDBO_ERR_INTERRUPTED);

// An Error thrown with Status::ok (or a value outside the enum) is a bug, not a success.
inline int status_code(Status status) noexcept {
  const int code = static_cast<int>(status);
  return code > ADDBO_OK && code <= ADDBO_ERR_INTERRUPTED ? code : ADDBO_ERR_INTERNAL;
}

inline int fail(const char* function, int status, const char* detail) noexcept {
  set_last_error(function, detail);
  return status;
}

// Runs body(); returns ADDBO_OK, or the status of what it threw with the message set to
// "<function>: <what>". ConfigError is an Error with Status::config, so its message (which
// starts with the JSON pointer) lands here too. The last-error message is left alone on
// success, as addbo.h documents.
template <typename Body>
int guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return ADDBO_OK;
  } catch (const Error& e) {
    return fail(function, status_code(e.status()), e.what());
  } catch (const std::bad_alloc&) {
    return fail(function, ADDBO_ERR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    // The JSON library's own tags ("[json.exception.type_error.302] ") never reach the user.
    return fail(function, ADDBO_ERR_INTERNAL, core::skip_json_tag(e.what()));
  } catch (...) {
    return fail(function, ADDBO_ERR_INTERNAL, "unknown exception");
  }
}

}  // namespace addbo::capi
