//! @file Implicit data of compute constructs: the arrays a body captured, mapped for one launch.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace acc::detail {

/// One acc::array / acc::view copied while a construct copied its body.
struct captured {
  void* image;                                         // that copy, to be given its device address
  void (*set_device)(void* image, void* device) noexcept;
  host_span span;
};

struct array_owner;   // detail/array_owner.hpp
struct capture_list;  // detail/runtime-inl.hpp: the captures of one scope
struct implicit_blocks;  // detail/runtime-inl.hpp: the device copies of one construct
struct present_entry;    // detail/runtime-inl.hpp: one range of the present table
struct held_list;        // detail/capture-inl.hpp: held references past the inline ones

/// A structured reference that a running construct holds on a present range: the entry's key
/// (its first host byte) and the entry, to give it back by.
struct held_reference {
  std::uintptr_t key;
  present_entry* entry;
};

/// Active while a construct copies its body: the copy constructors of array and view report
/// here (style.md §4), which costs nothing per element and nothing outside constructs.
struct capture_scope {
  // The first captures in place (a construct's launch then allocates nothing for them; NPB's
  // loop nests capture up to about twenty arrays), the rest in a list made on demand.
  static constexpr int inline_count = 32;
  captured first[inline_count];
  int count = 0;
  capture_list* more = nullptr;
  capture_scope* outer;
  array_owner* freed = nullptr;  // arrays whose last handle went while the scope was open: freed at its end
  bool open = true;
  bool lost = false;  // a capture past the inline ones found no memory: the construct reports it

  ACC_DETAIL_RUNTIME_FN capture_scope() noexcept;
  ACC_DETAIL_RUNTIME_FN ~capture_scope();
  capture_scope(const capture_scope&) = delete;
  capture_scope& operator=(const capture_scope&) = delete;

  ACC_DETAIL_RUNTIME_FN void close() noexcept;
};

/// Records an array or view copied inside the thread's open capture scope, if any. Never
/// throws, so that array and view copies cannot (capture_scope::lost says what was not kept).
ACC_DETAIL_RUNTIME_FN void record_capture(const captured& c) noexcept;

/// The implicit data of one construct on `device` (OpenACC 3.3 §2.6.2): a captured array that
/// is present uses its present copy, and the construct holds a structured reference on it until
/// finish() or destruction, so that another host thread's exit_data cannot free it under the
/// running construct (§2.6.7). One that is not present is copied in (copy; copyin when its
/// elements are const) for this construct only and copied out when finish() is called. With
/// default_present an absent array is an error instead. On the host (-1) only the presence
/// check and the references.
class implicit_data {
public:
  ACC_DETAIL_RUNTIME_FN implicit_data(capture_scope& scope, const void* body, std::size_t body_size, int device,
                                      const launch_spec& spec, bool transfer, const call_site& site);
  implicit_data(const implicit_data&) = delete;
  implicit_data& operator=(const implicit_data&) = delete;

  /// An exception between mapping and finish() (a failed launch): free without copying out.
  ACC_DETAIL_RUNTIME_FN ~implicit_data();

  /// After the launch: copies written data out and frees, in order on the construct's queue,
  /// so an async construct's host data is complete once its queue is waited for.
  ACC_DETAIL_RUNTIME_FN void finish();

private:
  ACC_DETAIL_RUNTIME_FN void release() noexcept;
  /// Under the table's lock: takes a structured reference on `e`, kept to be given back.
  ACC_DETAIL_RUNTIME_FN void hold(std::uintptr_t key, present_entry& e);
  /// Gives back the references hold() took; drops an entry left with none (another thread's
  /// exit_data ended its dynamic ones meanwhile), freeing it in order on the construct's queue.
  ACC_DETAIL_RUNTIME_FN void give_back() noexcept;

  // The first references in place: a construct's launch allocates nothing for them.
  held_reference held_[capture_scope::inline_count];
  int held_count_ = 0;
  held_list* more_held_ = nullptr;
  implicit_blocks* blocks_ = nullptr;
  int device_;
  int queue_;
  call_site site_;
};

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
