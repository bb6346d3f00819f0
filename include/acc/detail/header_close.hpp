//! @file Last include of every acc header (the first is detail/header_open.hpp): where the outermost
//! acc header closes, a header-only build defines the runtime.
// Runs once per header, as header_open.hpp does.
#ifndef ACC_DETAIL_NO_HEADER_DEPTH
#if ACC_DETAIL_ANY_RUNTIME_INLINE
#  if defined(ACC_DETAIL_HEADER_DEPTH_24)
#    undef ACC_DETAIL_HEADER_DEPTH_24
#  elif defined(ACC_DETAIL_HEADER_DEPTH_23)
#    undef ACC_DETAIL_HEADER_DEPTH_23
#  elif defined(ACC_DETAIL_HEADER_DEPTH_22)
#    undef ACC_DETAIL_HEADER_DEPTH_22
#  elif defined(ACC_DETAIL_HEADER_DEPTH_21)
#    undef ACC_DETAIL_HEADER_DEPTH_21
#  elif defined(ACC_DETAIL_HEADER_DEPTH_20)
#    undef ACC_DETAIL_HEADER_DEPTH_20
#  elif defined(ACC_DETAIL_HEADER_DEPTH_19)
#    undef ACC_DETAIL_HEADER_DEPTH_19
#  elif defined(ACC_DETAIL_HEADER_DEPTH_18)
#    undef ACC_DETAIL_HEADER_DEPTH_18
#  elif defined(ACC_DETAIL_HEADER_DEPTH_17)
#    undef ACC_DETAIL_HEADER_DEPTH_17
#  elif defined(ACC_DETAIL_HEADER_DEPTH_16)
#    undef ACC_DETAIL_HEADER_DEPTH_16
#  elif defined(ACC_DETAIL_HEADER_DEPTH_15)
#    undef ACC_DETAIL_HEADER_DEPTH_15
#  elif defined(ACC_DETAIL_HEADER_DEPTH_14)
#    undef ACC_DETAIL_HEADER_DEPTH_14
#  elif defined(ACC_DETAIL_HEADER_DEPTH_13)
#    undef ACC_DETAIL_HEADER_DEPTH_13
#  elif defined(ACC_DETAIL_HEADER_DEPTH_12)
#    undef ACC_DETAIL_HEADER_DEPTH_12
#  elif defined(ACC_DETAIL_HEADER_DEPTH_11)
#    undef ACC_DETAIL_HEADER_DEPTH_11
#  elif defined(ACC_DETAIL_HEADER_DEPTH_10)
#    undef ACC_DETAIL_HEADER_DEPTH_10
#  elif defined(ACC_DETAIL_HEADER_DEPTH_9)
#    undef ACC_DETAIL_HEADER_DEPTH_9
#  elif defined(ACC_DETAIL_HEADER_DEPTH_8)
#    undef ACC_DETAIL_HEADER_DEPTH_8
#  elif defined(ACC_DETAIL_HEADER_DEPTH_7)
#    undef ACC_DETAIL_HEADER_DEPTH_7
#  elif defined(ACC_DETAIL_HEADER_DEPTH_6)
#    undef ACC_DETAIL_HEADER_DEPTH_6
#  elif defined(ACC_DETAIL_HEADER_DEPTH_5)
#    undef ACC_DETAIL_HEADER_DEPTH_5
#  elif defined(ACC_DETAIL_HEADER_DEPTH_4)
#    undef ACC_DETAIL_HEADER_DEPTH_4
#  elif defined(ACC_DETAIL_HEADER_DEPTH_3)
#    undef ACC_DETAIL_HEADER_DEPTH_3
#  elif defined(ACC_DETAIL_HEADER_DEPTH_2)
#    undef ACC_DETAIL_HEADER_DEPTH_2
#  else
// The outermost: every acc header included so far is complete. Depth 1 stays counted meanwhile,
// so that the headers the runtime includes do not close as outermost in turn.
#    if ACC_DETAIL_CUDA_RUNTIME_INLINE && defined(ACC_DETAIL_CUDA)
#      include <acc/backend/cuda/runtime-inl.hpp>
#      include <acc/backend/cuda/launch-inl.hpp>
#    endif
#    if ACC_DETAIL_RUNTIME_INLINE
#      include <acc/detail/runtime-inl.hpp>
#    endif
#    undef ACC_DETAIL_HEADER_DEPTH_1
#  endif
#endif
#endif  // ACC_DETAIL_NO_HEADER_DEPTH
