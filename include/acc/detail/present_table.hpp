//! @file The present table: which host ranges are on which device, with OpenACC's reference counts.
//! Declarations only: the table lives in detail/runtime-inl.hpp, compiled once.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace acc::detail {

/// A host byte range named by a clause, an update or a capture, and what messages call it.
struct host_span {
  const void* p = nullptr;
  std::size_t bytes = 0;
  const char* label = nullptr;
  bool read_only = false;

  std::uintptr_t begin() const noexcept { return reinterpret_cast<std::uintptr_t>(p); }
  std::uintptr_t end() const noexcept { return begin() + bytes; }
};

/// What a data clause does on entry and exit (OpenACC 3.3 §2.7.4-§2.7.12).
enum class data_kind : unsigned char { copy, copyin, copyout, create, present, no_create, deviceptr, delete_ };
enum class ref_counter : unsigned char { structured, dynamic };

/// "'temperature'" or "8000 bytes at 0x7f..": how errors name data.
ACC_DETAIL_RUNTIME_FN std::string describe(const host_span& s);

/// The NVTX name of a transfer: "copyin 'temperature' 8388608 bytes", so profiles show which
/// array moved.
ACC_DETAIL_RUNTIME_FN std::string transfer_name(const char* action, const host_span& s);

/// "the host device" or "device 1".
ACC_DETAIL_RUNTIME_FN std::string describe_device(int device);

/// not_present_error: `s` is not present on `device`; `hint` says how to fix it.
[[noreturn]] ACC_DETAIL_RUNTIME_FN void fail_absent(const host_span& s, int device, const char* hint,
                                                    const call_site& site);

/// The entry part of a data clause. Returns the serial of the present entry it took a reference
/// of, which the matching exit_action must give back, or 0 when it took none (no_create of
/// absent data, zero bytes). Data that is only partly present is an error (OpenACC 3.3 §2.7.2),
/// reported rather than silently given a second copy. `zero`: a device copy this allocates is
/// zero-filled (the `zero` modifier of create / copyout).
ACC_DETAIL_RUNTIME_FN std::uint64_t enter_action(int device, data_kind kind, const host_span& s, ref_counter counter,
                                                 int queue, const call_site& site, bool zero = false);

/// The exit part: gives back one reference (all dynamic ones with finalize); when none is left,
/// copies out (copy, copyout) and frees. Data that is not present is no action, and data
/// present only through regions (dynamic count 0) is left alone (OpenACC 3.3 §2.7.1, §2.14.7).
/// `serial`, where not 0, is what the matching enter_action returned: a data region whose array
/// was freed inside it, and other data entered at its address since, gives nothing back.
ACC_DETAIL_RUNTIME_FN void exit_action(int device, data_kind kind, const host_span& s, ref_counter counter,
                                       bool finalize, int queue, const call_site& site, std::uint64_t serial = 0);

/// update_device / update_self of a present range (OpenACC 3.3 §2.14.4); with `if_present`, a
/// range that is not present at all is left alone (one only partly present is still an error).
ACC_DETAIL_RUNTIME_FN void update_action(int device, const host_span& s, bool to_device, int queue,
                                         const call_site& site, bool if_present = false);

/// A host run over data that a GPU holds (acc::adaptive's host runs; a construct or scan compiled
/// without nvcc while a GPU is current): take() brings a present range's GPU copy to the host,
/// after the run's queue has drained, and finish() copies back those the run may write, so that
/// the run sees and leaves the data where the rest of the program expects it.
class host_coherence {
public:
  host_coherence(int device, int queue, const call_site& site) noexcept
      : device_(device), queue_(queue), site_(site) {}
  /// false, moving nothing, when `s` is not wholly present on the GPU. `fetch` false: the run
  /// overwrites all of `s` without reading it, so only its copy back is needed.
  ACC_DETAIL_RUNTIME_FN bool take(const host_span& s, bool fetch = true);
  ACC_DETAIL_RUNTIME_FN void finish();

private:
  std::vector<host_span> written_;
  int device_, queue_;
  bool waited_ = false;
  const call_site& site_;
};

/// update_peer: copies the device copy of `s` on `from` to its device copy on `to`; both must
/// hold all of `s`. Nothing moves when both are the same memory (the host device).
ACC_DETAIL_RUNTIME_FN void peer_action(int from, int to, const host_span& s, int queue, const call_site& site);

/// The device address of s on `device`, or nullptr when s is not (wholly) present.
ACC_DETAIL_RUNTIME_FN void* present_address(int device, const host_span& s) noexcept;

/// The host address whose device copy on `device` holds `device_address`, or nullptr when no
/// present range does (acc::hostptr).
ACC_DETAIL_RUNTIME_FN void* host_address(int device, const void* device_address);

/// On the host device, where a range mapped by acc::map_data is its own device copy: the address
/// in that range that stands for `bytes` at `device_address` when they lie in the program's
/// device memory of the mapping, else `device_address` itself. The runtime routines (memcpy_*,
/// hostptr) go through it so that they see what constructs wrote while the mapping lasts.
ACC_DETAIL_RUNTIME_FN void* host_side_of_mapped(const void* device_address, std::size_t bytes) noexcept;

/// acc::map_data: enters `s` with `device_address` (the program's) as its device copy; fails if
/// any of `s` is present. On the host device the contents of `device_address` are copied into
/// `s`, the range's only copy there.
ACC_DETAIL_RUNTIME_FN void map_action(int device, const host_span& s, void* device_address, const call_site& site);

/// acc::unmap_data: removes the mapping that begins at `host`; on the host device copies the
/// range back into the program's device memory first.
ACC_DETAIL_RUNTIME_FN void unmap_action(int device, const void* host, const call_site& site);

/// acc::free: an acc::bad_clause when any of the `bytes` at `device_address` is still the device
/// copy of a range mapped by acc::map_data on `device`, whose unmap (or a construct) would use
/// it freed.
ACC_DETAIL_RUNTIME_FN void check_unmapped(int device, const void* device_address, std::size_t bytes,
                                          const call_site& site);

/// Records an ACC_DECLARE variable (`symbol`: a __device__ variable, `p` its host shadow); from
/// then on it is present on every device. Called from static initialisers: never throws.
ACC_DETAIL_RUNTIME_FN bool declare_global(const void* p, std::size_t bytes, const char* label, bool symbol) noexcept;
/// Drops every entry that overlaps host memory about to be freed (an acc::array's last owner),
/// so that a later allocation at the same address is not mistaken for present data.
ACC_DETAIL_RUNTIME_FN void forget_host_range(const void* p, std::size_t bytes) noexcept;

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
