//! @file Compiler and backend detection; the one place acc looks at compiler macros.
#pragma once

// ACC_DETAIL_CUDA: this translation unit is compiled by nvcc, so the CUDA backend exists here.
// ACC_DETAIL_DEVICE_PASS: nvcc's device-side pass, where host-only code must not appear.
#if defined(__CUDACC__)
#  define ACC_DETAIL_CUDA 1
#  define ACC_DETAIL_HD __host__ __device__
// ACC_DECLARE's variables: __device__ variables, whose host shadow host code uses, which nvcc
// warns about (20091: read, 20092: written in a host function); from the first declaration on,
// those two warnings are off in that translation unit.
#  define ACC_DETAIL_DECLARED_WARNINGS_OFF _Pragma("nv_diag_suppress 20091") _Pragma("nv_diag_suppress 20092")
#  define ACC_DETAIL_DECLARED_SPACE __device__
#  define ACC_DETAIL_DECLARED_VAR ACC_DETAIL_DECLARED_WARNINGS_OFF ACC_DETAIL_DECLARED_SPACE
#  define ACC_DETAIL_DECLARED_SYMBOL true
// The operator objects (acc::plus, acc::min_loc, ...), which bodies call, e.g.
// w = acc::min_loc(w, acc::loc(x[i], i)): nvcc lets device code call a member of a
// namespace-scope object only if it is a __device__ variable, which without -rdc must have
// internal linkage. Host code reads a constexpr one as any constant; [[maybe_unused]] keeps
// nvcc from warning (177) in a translation unit that uses none.
#  define ACC_DETAIL_OPERATOR_OBJECT [[maybe_unused]] static __device__ constexpr
#  if defined(__CUDA_ARCH__)
#    define ACC_DETAIL_DEVICE_PASS 1
#  endif
// Without --expt-relaxed-constexpr nvcc only warns (20013) at a body's call of a constexpr host
// function (std::max, std::min, ...) and drops the call from the kernel; without
// --Werror cross-execution-space-call, the same for any host function (20011). A kernel that
// then writes nothing is a wrong result on a GPU only, so acc asks for the flag and makes 20011 an
// error in every unit that includes it, as the acc::acc CMake target does.
#  if !defined(__CUDACC_RELAXED_CONSTEXPR__)
#    error "acc under nvcc needs --expt-relaxed-constexpr (and --extended-lambda): without it a body's calls of constexpr functions such as std::max are dropped from the kernel (the acc::acc CMake target sets both)"
#  endif
#  pragma nv_diag_error 20011
#else
#  define ACC_DETAIL_HD
#  define ACC_DETAIL_DECLARED_WARNINGS_OFF
#  define ACC_DETAIL_DECLARED_SPACE
#  define ACC_DETAIL_DECLARED_VAR
#  define ACC_DETAIL_DECLARED_SYMBOL false
#  define ACC_DETAIL_OPERATOR_OBJECT inline constexpr
#endif

// ACC_DETAIL_SHARED_GLOBALS: 1 where a construct can use a global that another translation unit
// defines: everywhere but in nvcc units without relocatable device code (-rdc=true), whose
// kernels cannot reach another unit's __device__ variables.
#if defined(__CUDACC__) && !defined(__CUDACC_RDC__)
#  define ACC_DETAIL_SHARED_GLOBALS 0
#else
#  define ACC_DETAIL_SHARED_GLOBALS 1
#endif

#if defined(_OPENMP)
#  define ACC_DETAIL_OPENMP 1
// Serial and OpenMP builds of the host backend differ; distinct inline namespaces keep a program
// that mixes the two kinds of translation unit free of one-definition clashes.
#  define ACC_DETAIL_HOST_ABI openmp
#else
#  define ACC_DETAIL_HOST_ABI serial
#endif

// The runtime (present table, queues, device selection, NVTX names: detail/runtime-inl.hpp) is
// either compiled once into the acc_runtime library, which the CMake targets acc::acc and
// acc::headers link and announce with ACC_SEPARATE_RUNTIME, or, for a program that only adds
// include/ to its include path, defined inline in every translation unit (slower builds).
// ACC_DETAIL_RUNTIME_FN marks the functions that are defined in one of the two ways.
#if defined(ACC_DETAIL_BUILDING_RUNTIME)
#  define ACC_DETAIL_RUNTIME_INLINE 0
#  define ACC_DETAIL_RUNTIME_FN
#elif defined(ACC_SEPARATE_RUNTIME)
#  define ACC_DETAIL_RUNTIME_INLINE 0
#  define ACC_DETAIL_RUNTIME_FN
#else
#  define ACC_DETAIL_RUNTIME_INLINE 1
#  define ACC_DETAIL_RUNTIME_FN inline
#endif

// The CUDA side of the runtime (streams, device memory, staged transfers, graphs:
// backend/cuda/runtime-inl.hpp) is in acc_runtime only when that library was built with the
// CUDA toolkit's headers, which its CMake target announces with ACC_RUNTIME_CUDA; otherwise
// every translation unit that nvcc compiles defines it inline. ACC_DETAIL_CUDA_RUNTIME_FN marks
// its functions.
#if defined(ACC_DETAIL_BUILDING_RUNTIME) || (defined(ACC_SEPARATE_RUNTIME) && defined(ACC_RUNTIME_CUDA))
#  define ACC_DETAIL_CUDA_RUNTIME_INLINE 0
#  define ACC_DETAIL_CUDA_RUNTIME_FN
#else
#  define ACC_DETAIL_CUDA_RUNTIME_INLINE 1
#  define ACC_DETAIL_CUDA_RUNTIME_FN inline
#endif

// Whether the runtime is inline in this translation unit (header-only use), and so is defined
// where the outermost acc header closes (detail/header_open.hpp). When it is not,
// ACC_DETAIL_NO_HEADER_DEPTH lets the compiler skip header_open.hpp and header_close.hpp, which
// it reads as guarded by that macro.
#if ACC_DETAIL_RUNTIME_INLINE || (ACC_DETAIL_CUDA_RUNTIME_INLINE && defined(ACC_DETAIL_CUDA))
#  define ACC_DETAIL_ANY_RUNTIME_INLINE 1
#else
#  define ACC_DETAIL_ANY_RUNTIME_INLINE 0
#  define ACC_DETAIL_NO_HEADER_DEPTH
#endif

// Helpers that every construct's instantiation calls (launch planning, error paths): kept out
// of line so that a translation unit compiles them once, not once per construct.
#if defined(__GNUC__) || defined(__clang__)
#  define ACC_DETAIL_NOINLINE __attribute__((noinline))
#  define ACC_DETAIL_COLD __attribute__((cold, noinline))
#else
#  define ACC_DETAIL_NOINLINE
#  define ACC_DETAIL_COLD
#endif

// The functions holding the runtime's program-wide state (the present table, queues, a thread's
// default queue): one copy in the process even where acc is compiled inline into a shared library
// built with -fvisibility=hidden, which would otherwise keep a runtime of its own.
#if defined(__GNUC__) || defined(__clang__)
#  define ACC_DETAIL_PROGRAM_WIDE __attribute__((visibility("default")))
#else
#  define ACC_DETAIL_PROGRAM_WIDE
#endif

// The same for the CUDA runtime's helpers. With relocatable device code (nvcc -rdc=true)
// cudafe++ writes their earlier declarations out as `inline`, and g++ warns (-Wattributes) at a
// noinline definition that follows an inline declaration: header-only rdc units go without.
#if defined(__CUDACC_RDC__) && ACC_DETAIL_CUDA_RUNTIME_INLINE
#  define ACC_DETAIL_CUDA_RUNTIME_NOINLINE
#  define ACC_DETAIL_CUDA_RUNTIME_COLD
#else
#  define ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_NOINLINE
#  define ACC_DETAIL_CUDA_RUNTIME_COLD ACC_DETAIL_COLD
#endif

// The copies and destruction of acc::array / acc::view on the host: nvcc's wrapper of an
// extended lambda copies every capture several times where the lambda is written, and each
// copy, inlined, is stores, the capture hook and the reference count that the host compiler
// optimises again at every ACC_LAMBDA (bench/results/compile.txt). Out of line they are one
// call each, compiled once per type. Device code keeps them inline: there a copy is stores.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(ACC_DETAIL_DEVICE_PASS)
#  define ACC_DETAIL_HOST_NOINLINE __attribute__((noinline))
#else
#  define ACC_DETAIL_HOST_NOINLINE
#endif

// What acc needs of the language, said before a page of errors would: C++20, a standard library
// with std::source_location (every construct names its caller's line), and exceptions (acc::error).
// nvcc's device pass compiles no exception handling and is not asked.
#include <version>
#if __cplusplus < 202002L
#  error "acc needs C++20: compile with -std=c++20 (CMake: the acc::acc target sets it)"
#elif !defined(__cpp_lib_source_location)
#  error "acc needs std::source_location, which this compiler and standard library lack (g++ 11 or later; clang 15 or later)"
#endif
#if !defined(__cpp_exceptions) && !defined(ACC_DETAIL_DEVICE_PASS)
#  error "acc reports errors by throwing acc::error: compile with exceptions on (no -fno-exceptions)"
#endif

/// By-value lambda introducer usable on the host and the device:
/// `acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] += a * x[i]; });`
#if defined(ACC_DETAIL_CUDA)
#  define ACC_LAMBDA [=] __host__ __device__
/// As ACC_LAMBDA, and also captures `*this` by value (for member functions).
#  define ACC_CLASS_LAMBDA [=, *this] __host__ __device__
/// Marks a user function callable from compute regions (OpenACC 3.3 §2.15.1 `routine`).
#  define ACC_ROUTINE __host__ __device__
#else
#  define ACC_LAMBDA [=]
#  define ACC_CLASS_LAMBDA [=, *this]
#  define ACC_ROUTINE
#endif

namespace acc::detail {

/// ACC_DETAIL_DEVICE_PASS as a constant, for the public templates that differ in nvcc's device
/// pass (acc::on_device, parallel_loop's entry): they test it with `if constexpr` or `?:`, so
/// the public headers hold no compiler macro (the header test checks it).
#if defined(ACC_DETAIL_DEVICE_PASS)
inline constexpr bool device_pass = true;
#else
inline constexpr bool device_pass = false;
#endif

/// The alignment team memory (g.shared, tile clauses, acc::scratch, per_iteration) guarantees:
/// a GPU's dynamic shared memory and the host's buffers start on 16 bytes and clauses are laid
/// out in multiples of it, so element types aligned to more are rejected where they are named.
inline constexpr unsigned team_alignment = 16;

}  // namespace acc::detail
