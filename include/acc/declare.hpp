//! @file ACC_DECLARE, ACC_DECLARE_ARRAY: global variables with a device copy for the whole
//! program (OpenACC 3.3 §2.13 `declare create`).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/data.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/present_table.hpp>

#include <source_location>

/// `ACC_DECLARE(double, tolerance);` at namespace scope: a variable `tolerance` of that type
/// that host code and compute constructs both use by name, present on every device for the
/// whole program. Host code and constructs that run on a GPU see two copies, as OpenACC's
/// `declare create` has: acc::update_device(tolerance) copies the host value to the device,
/// acc::update_self(tolerance) back. Where constructs run on the host (g++ builds, nvcc builds
/// without a GPU, ACC_DEVICE_TYPE=host) there is one copy and updates do nothing.
/// - Define it in one source file (as any global variable's definition); other files declare
///   it with ACC_DECLARE_EXTERN (below). Under nvcc it is a __device__ variable: kernels of
///   other .cu files see it only with relocatable device code.
/// - Zero-initialised on the host and on the device; no initialiser.
/// - Under nvcc, the warnings about a __device__ variable used in host code (20091, 20092) are
///   turned off from the declaration to the end of the file.
/// e.g. ACC_DECLARE(double, scale);
///      scale = 2; acc::update_device(scale);
///      acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] = scale * x[i]; });
#define ACC_DECLARE(type, name) ACC_DETAIL_DECLARE(type, name, )

/// `ACC_DECLARE_ARRAY(float, table, 256);`: as ACC_DECLARE, an array indexed `table[i]` on the
/// host and in compute constructs; acc::update_device(table) copies all of it,
/// acc::update_device(&table[lo], len) a part.
#define ACC_DECLARE_ARRAY(type, name, count) ACC_DETAIL_DECLARE(type, name, [count])

/// `ACC_DECLARE_EXTERN(double, scale);` (in a header): the declaration of a global that one
/// source file defines with ACC_DECLARE(double, scale), for the other files to use by name in
/// host code and compute constructs (OpenACC `declare create` of an `extern` variable).
/// `ACC_DECLARE_ARRAY_EXTERN(float, table, 256)` declares an ACC_DECLARE_ARRAY.
/// - Under nvcc a kernel reaches another .cu file's __device__ variable only through
///   relocatable device code: compile the .cu files with -rdc=true (CMake: the target property
///   CUDA_SEPARABLE_COMPILATION ON). Without it, an nvcc unit that sees this declaration stops
///   with a static_assert that says so.
#define ACC_DECLARE_EXTERN(type, name) ACC_DETAIL_DECLARE_EXTERN(type, name, )
#define ACC_DECLARE_ARRAY_EXTERN(type, name, count) ACC_DETAIL_DECLARE_EXTERN(type, name, [count])

#define ACC_DETAIL_DECLARE_EXTERN(type, name, dims)                                                  \
  static_assert(ACC_DETAIL_SHARED_GLOBALS,                                                            \
                "ACC_DECLARE_EXTERN: the global " #name " is shared between source files, and under "  \
                "nvcc that needs relocatable device code: compile with -rdc=true (CMake: "              \
                "CUDA_SEPARABLE_COMPILATION ON)");                                                   \
  /* the pragmas before `extern`: cudafe++ 13.0 crashes on them after it */                     \
  ACC_DETAIL_DECLARED_WARNINGS_OFF extern ACC_DETAIL_DECLARED_SPACE type name dims

// The static_assert: a declare inside a function would make a local variable that constructs
// capture by value and that the present table keeps after its frame is gone. A source_location
// made at namespace scope names no function.
#define ACC_DETAIL_DECLARE(type, name, dims)                                                         \
  static_assert(::std::source_location::current().function_name()[0] == '\0',                     \
                "ACC_DECLARE: the global " #name " is declared inside a function; ACC_DECLARE and "   \
                "ACC_DECLARE_ARRAY declare globals: write them at namespace scope");                 \
  ACC_DETAIL_DECLARED_VAR type name dims;                                                            \
  [[maybe_unused]] static const bool acc_detail_declared_##name =                                    \
      ::acc::detail::declare_global(&name, sizeof(name), #name, ACC_DETAIL_DECLARED_SYMBOL)

#include <acc/detail/header_close.hpp>
