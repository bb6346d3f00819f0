//! @file First include of every acc header (the last is detail/header_close.hpp): counts how deeply
//! acc headers nest, so that header_close.hpp knows the outermost one.
// Header-only use (no ACC_SEPARATE_RUNTIME) defines the runtime inline, and that must come after
// every acc header in the translation unit is complete: the runtime's definitions include acc
// headers that an outer header may be part-way through (acc/section.hpp includes acc/array.hpp
// before its own declarations, which the runtime's tile code uses). The outermost acc header has
// finished them all when it closes. A depth count in macros: standard C++, where __INCLUDE_LEVEL__
// is not. Runs once per header: ACC_DETAIL_NO_HEADER_DEPTH (config.hpp), which the compiler reads
// as this file's guard, is defined only when no runtime is inline, so that it is not read again.
#ifndef ACC_DETAIL_NO_HEADER_DEPTH
#include <acc/detail/config.hpp>

// Tested again here: on the first reading the guard above was tested before config.hpp defined it.
#if ACC_DETAIL_ANY_RUNTIME_INLINE
#  if !defined(ACC_DETAIL_HEADER_DEPTH_1)
#    define ACC_DETAIL_HEADER_DEPTH_1
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_2)
#    define ACC_DETAIL_HEADER_DEPTH_2
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_3)
#    define ACC_DETAIL_HEADER_DEPTH_3
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_4)
#    define ACC_DETAIL_HEADER_DEPTH_4
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_5)
#    define ACC_DETAIL_HEADER_DEPTH_5
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_6)
#    define ACC_DETAIL_HEADER_DEPTH_6
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_7)
#    define ACC_DETAIL_HEADER_DEPTH_7
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_8)
#    define ACC_DETAIL_HEADER_DEPTH_8
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_9)
#    define ACC_DETAIL_HEADER_DEPTH_9
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_10)
#    define ACC_DETAIL_HEADER_DEPTH_10
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_11)
#    define ACC_DETAIL_HEADER_DEPTH_11
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_12)
#    define ACC_DETAIL_HEADER_DEPTH_12
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_13)
#    define ACC_DETAIL_HEADER_DEPTH_13
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_14)
#    define ACC_DETAIL_HEADER_DEPTH_14
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_15)
#    define ACC_DETAIL_HEADER_DEPTH_15
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_16)
#    define ACC_DETAIL_HEADER_DEPTH_16
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_17)
#    define ACC_DETAIL_HEADER_DEPTH_17
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_18)
#    define ACC_DETAIL_HEADER_DEPTH_18
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_19)
#    define ACC_DETAIL_HEADER_DEPTH_19
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_20)
#    define ACC_DETAIL_HEADER_DEPTH_20
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_21)
#    define ACC_DETAIL_HEADER_DEPTH_21
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_22)
#    define ACC_DETAIL_HEADER_DEPTH_22
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_23)
#    define ACC_DETAIL_HEADER_DEPTH_23
#  elif !defined(ACC_DETAIL_HEADER_DEPTH_24)
#    define ACC_DETAIL_HEADER_DEPTH_24
#  else
#    error "acc: headers nested deeper than detail/header_open.hpp counts"
#  endif
#endif
#endif  // ACC_DETAIL_NO_HEADER_DEPTH
