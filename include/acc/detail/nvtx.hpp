//! @file NVTX ranges named by the user's call site, so Nsight shows `saxpy.cpp:42 parallel_loop`.
//! The NVTX calls themselves are in detail/runtime-inl.hpp (compiled once); without NVTX
//! (ACC_NO_NVTX, or no nvtx3 headers where the runtime was compiled) they do nothing.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/error.hpp>

#include <string>

namespace acc::detail {
// In header-only use, translation units with and without the NVTX headers (g++ TUs may lack
// the CUDA include path) define these differently; distinct inline namespaces keep them
// distinct entities.
#if ACC_DETAIL_RUNTIME_INLINE && (defined(ACC_NO_NVTX) || !__has_include(<nvtx3/nvToolsExt.h>))
#  define ACC_DETAIL_NVTX_ABI nvtx_off
#else
#  define ACC_DETAIL_NVTX_ABI nvtx_on
#endif
inline namespace ACC_DETAIL_NVTX_ABI {

/// A registered NVTX string (nvtxStringHandle_t), or nullptr without NVTX.
using nvtx_name = void*;

/// A construct's registered name, "file.cpp:42 parallel_loop": one static of the construct's
/// instantiation, which is unique to its lambda and so to its call site.
struct nvtx_site {
  nvtx_name name = nullptr;
  int registered = 0;  // call_once_at's flag
};

/// Pushes the range of `s`, registering its name on first use.
ACC_DETAIL_RUNTIME_FN void nvtx_push_site(nvtx_site& s, const call_site& site) noexcept;
ACC_DETAIL_RUNTIME_FN void nvtx_push(nvtx_name name) noexcept;
ACC_DETAIL_RUNTIME_FN void nvtx_push_text(const char* text) noexcept;
ACC_DETAIL_RUNTIME_FN void nvtx_pop() noexcept;

/// Whether a tool records NVTX ranges. NVTX hands ranges to the library that
/// NVTX_INJECTION64_PATH names (Nsight Systems and Nsight Compute set it) and drops them
/// otherwise, so without one a range named at run time need not build its text.
ACC_DETAIL_RUNTIME_FN bool nvtx_recording() noexcept;

/// Pushes the construct's range for its lifetime, when it has a site (`s`). Costs an indirect
/// call when no profiler is attached. The dispatch (run_construct, compiled once) holds it
/// around a construct's run rather than each construct where it is written: an object with
/// a destructor there is an exception clean-up that the host compiler builds at every call.
class nvtx_range {
public:
  nvtx_range(nvtx_site* s, const call_site& site) noexcept : s_(s) {
    if (s_) nvtx_push_site(*s_, site);
  }
  ~nvtx_range() {
    if (s_) nvtx_pop();
  }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;

private:
  nvtx_site* s_;
};

/// A range named at run time, for data transfers ("copyin 'temperature' 8388608 bytes"):
/// costlier than a registered name, which is why compute constructs do not use it. `text()`
/// returns the name; it is called only while a tool records ranges, since building the string
/// costs a small transfer a measurable part of its time.
class nvtx_text_range {
public:
  template <class Text>
  explicit nvtx_text_range(const Text& text) noexcept : pushed_(nvtx_recording()) {
    if (!pushed_) return;
    try {
      nvtx_push_text(text().c_str());
    } catch (...) {  // no name (out of memory): the range is pushed unnamed
      nvtx_push_text("");
    }
  }
  ~nvtx_text_range() {
    if (pushed_) nvtx_pop();
  }
  nvtx_text_range(const nvtx_text_range&) = delete;
  nvtx_text_range& operator=(const nvtx_text_range&) = delete;

private:
  bool pushed_;
};

}  // namespace ACC_DETAIL_NVTX_ABI
}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
