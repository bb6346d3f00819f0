//! @file NVTX ranges named by the user's call site, so Nsight shows `saxpy.cpp:42 parallel_loop`.
#pragma once

#include <acc/error.hpp>

#include <string>

#if __has_include(<nvtx3/nvToolsExt.h>) && !defined(ACC_NO_NVTX)
#  include <nvtx3/nvToolsExt.h>

namespace acc::detail {
// Translation units with and without the NVTX header (g++ TUs may lack the CUDA include path)
// get different definitions here; the inline namespaces keep them distinct entities.
inline namespace nvtx_enabled {

inline nvtxDomainHandle_t nvtx_domain() {
  static const nvtxDomainHandle_t domain = nvtxDomainCreateA("acc");
  return domain;
}

using nvtx_name = nvtxStringHandle_t;

/// Registers "file.cpp:42 parallel_loop" once; callers keep the handle in a static of the
/// construct's instantiation, which is unique to its lambda and so to its call site.
inline nvtx_name make_nvtx_name(const call_site& site) {
  std::string file = site.where.file_name();
  if (auto slash = file.find_last_of("/\\"); slash != std::string::npos) file.erase(0, slash + 1);
  const std::string text = file + ":" + std::to_string(site.where.line()) + " " + site.construct;
  return nvtxDomainRegisterStringA(nvtx_domain(), text.c_str());
}

/// Pushes the construct's range for its lifetime. Costs an indirect call when no profiler
/// is attached.
class nvtx_range {
public:
  explicit nvtx_range(nvtx_name name) noexcept {
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = name;
    nvtxDomainRangePushEx(nvtx_domain(), &a);
  }
  ~nvtx_range() { nvtxDomainRangePop(nvtx_domain()); }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
};

/// A range named at run time, for data transfers ("copyin 'temperature' 8388608 bytes"):
/// costlier than a registered name, which is why compute constructs do not use it.
class nvtx_text_range {
public:
  explicit nvtx_text_range(const std::string& text) noexcept {
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = text.c_str();
    nvtxDomainRangePushEx(nvtx_domain(), &a);
  }
  ~nvtx_text_range() { nvtxDomainRangePop(nvtx_domain()); }
  nvtx_text_range(const nvtx_text_range&) = delete;
  nvtx_text_range& operator=(const nvtx_text_range&) = delete;
};

}  // namespace nvtx_enabled
}  // namespace acc::detail

#else

namespace acc::detail {
inline namespace nvtx_disabled {
using nvtx_name = int;
inline nvtx_name make_nvtx_name(const call_site&) { return 0; }
struct nvtx_range {
  explicit nvtx_range(nvtx_name) noexcept {}
};
struct nvtx_text_range {
  explicit nvtx_text_range(const std::string&) noexcept {}
};
}  // namespace nvtx_disabled
}  // namespace acc::detail

#endif
