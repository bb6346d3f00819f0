//! @file The data environment: data clauses, acc::data regions, enter/exit data (OpenACC 3.3 §2.6-§2.7,
//! §2.14.6-§2.14.7), and with acc/update.hpp the updates of present data.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/data_actions.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/update.hpp>

#include <array>
#include <cstddef>
#include <source_location>
#include <type_traits>

namespace acc {

/// A data clause naming one host range: acc::copy(a), acc::create(p, n), ... (OpenACC 3.3 §2.7).
/// A clause alone is only a value: `acc::delete_(a);` as a statement would do nothing.
template <detail::data_kind Kind>
struct [[nodiscard("a data clause does nothing alone: pass it to acc::enter_data, acc::exit_data, acc::data or "
                   "a construct")]] data_clause_t {
  detail::host_span span;
  bool zero = false;  // the `zero` modifier: a device copy this clause allocates starts zeroed
  std::source_location where;  // a construct whose first clause this is reports from here
};

/// OpenACC 3.3's `zero` modifier of create and copyout (§2.7.9, §2.7.10): device memory the
/// clause allocates is zero-filled instead of left undefined; data already present is not
/// touched. On the host device the data is its own device copy (shared memory, §2.6.3: no
/// data action happens), so nothing is zeroed there.
/// e.g. acc::data region{acc::copyout(b, acc::zero)};
struct zero_t {};
inline constexpr zero_t zero{};

/// exit_data gives back every dynamic reference, not one (OpenACC 3.3 §2.14.7 `finalize`).
struct finalize_t {};
/// e.g. acc::exit_data(acc::delete_(a), acc::finalize);
inline constexpr finalize_t finalize{};

// Each clause takes an acc::array, acc::view or acc::section, or a pointer and an element count.

/// Copies in at entry and out at exit when not already present (OpenACC 3.3 §2.7.7 `copy`).
/// e.g. acc::data region{acc::copy(a)};
template <class X>
data_clause_t<detail::data_kind::copy> copy(const X& x,
                                            std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::copy: takes an acc::array, acc::view or acc::section; for memory you "
                                      "own write acc::copy(ptr, count)");
  static_assert(!detail::read_only_data_v<X>, "acc::copy: the elements are const, so they cannot be copied back to "
                                              "the host; write acc::copyin");
  return {detail::span_of(x, {"copy", where}), false, where};
}
/// `copy` of `count` elements at `p`. e.g. acc::data region{acc::copy(v.data(), v.size())};
template <class T, class N>
data_clause_t<detail::data_kind::copy> copy(T* p, N count,
                                            std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::copy: a void pointer has no element size; pass a typed pointer");
  static_assert(!std::is_const_v<T>, "acc::copy: the elements are const, so they cannot be copied back to the "
                                     "host; write acc::copyin");
  return {detail::checked_span(p, count, "copy", where), false, where};
}

/// Copies in at entry when not already present; no copy out (OpenACC 3.3 §2.7.8 `copyin`).
/// e.g. acc::enter_data(acc::copyin(a));
template <class X>
data_clause_t<detail::data_kind::copyin> copyin(const X& x,
                                                std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::copyin: takes an acc::array, acc::view or acc::section; for memory you "
                                      "own write acc::copyin(ptr, count)");
  return {detail::span_of(x, {"copyin", where}), false, where};
}
/// `copyin` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::copyin> copyin(T* p, N count,
                                                std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::copyin: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "copyin", where), false, where};
}

/// Allocates at entry, copies out when the last reference goes (OpenACC 3.3 §2.7.9 `copyout`).
/// e.g. acc::exit_data(acc::copyout(a));
template <class X>
data_clause_t<detail::data_kind::copyout> copyout(const X& x,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::copyout: takes an acc::array, acc::view or acc::section; for memory "
                                      "you own write acc::copyout(ptr, count)");
  static_assert(!detail::read_only_data_v<X>, "acc::copyout: the elements are const, so nothing may be copied into "
                                              "them; write acc::delete_ to end the data's lifetime");
  return {detail::span_of(x, {"copyout", where}), false, where};
}
/// `copyout` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::copyout> copyout(T* p, N count,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::copyout: a void pointer has no element size; pass a typed pointer");
  static_assert(!std::is_const_v<T>, "acc::copyout: the elements are const, so nothing may be copied into them; "
                                     "write acc::delete_ to end the data's lifetime");
  return {detail::checked_span(p, count, "copyout", where), false, where};
}
/// `copyout(zero: x)`: the device copy starts zeroed. e.g. acc::data region{acc::copyout(b, acc::zero)};
template <class X>
data_clause_t<detail::data_kind::copyout> copyout(const X& x, zero_t,
                                                  std::source_location where = std::source_location::current()) {
  return {copyout(x, where).span, true, where};
}
/// `copyout(zero: p[0:count])`.
template <class T, class N>
data_clause_t<detail::data_kind::copyout> copyout(T* p, N count, zero_t,
                                                  std::source_location where = std::source_location::current()) {
  return {copyout(p, count, where).span, true, where};
}

/// Allocates without copying (OpenACC 3.3 §2.7.10 `create`). e.g. acc::data region{acc::create(tmp)};
template <class X>
data_clause_t<detail::data_kind::create> create(const X& x,
                                                std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::create: takes an acc::array, acc::view or acc::section; for memory you "
                                      "own write acc::create(ptr, count)");
  return {detail::span_of(x, {"create", where}), false, where};
}
/// `create` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::create> create(T* p, N count,
                                                std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::create: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "create", where), false, where};
}
/// `create(zero: x)`: the device copy starts zeroed. e.g. acc::enter_data(acc::create(tmp, acc::zero));
template <class X>
data_clause_t<detail::data_kind::create> create(const X& x, zero_t,
                                                std::source_location where = std::source_location::current()) {
  return {create(x, where).span, true, where};
}
/// `create(zero: p[0:count])`.
template <class T, class N>
data_clause_t<detail::data_kind::create> create(T* p, N count, zero_t,
                                                std::source_location where = std::source_location::current()) {
  return {create(p, count, where).span, true, where};
}

/// Requires the data to be present already, else acc::not_present_error (OpenACC 3.3 §2.7.6).
/// e.g. acc::data region{acc::present(a)};
template <class X>
data_clause_t<detail::data_kind::present> present(const X& x,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::present: takes an acc::array, acc::view or acc::section; for memory "
                                      "you own write acc::present(ptr, count)");
  return {detail::span_of(x, {"present", where}), false, where};
}
/// `present` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::present> present(T* p, N count,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::present: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "present", where), false, where};
}

/// Uses the device copy if present, else nothing is allocated and constructs that capture
/// the data copy it for themselves (OpenACC 3.3 §2.7.11 `no_create`).
template <class X>
data_clause_t<detail::data_kind::no_create> no_create(const X& x,
                                                      std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::no_create: takes an acc::array, acc::view or acc::section; for memory "
                                      "you own write acc::no_create(ptr, count)");
  return {detail::span_of(x, {"no_create", where}), false, where};
}
/// `no_create` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::no_create> no_create(T* p, N count,
                                                      std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::no_create: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "no_create", where), false, where};
}

/// Declares `count` elements at `p` to be device memory already (cudaMalloc'd, or from
/// acc::deviceptr(x)): views over it are used as they are (OpenACC 3.3 §2.7.4 `deviceptr`).
/// e.g. acc::data region{acc::deviceptr(d, n)}; acc::view<double> v(d, n);
template <class T, class N>
data_clause_t<detail::data_kind::deviceptr> deviceptr(T* p, N count,
                                                      std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::deviceptr: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "deviceptr", where), false, where};
}

/// exit_data: gives back a reference without copying out (OpenACC 3.3 §2.7.12 `delete`).
/// e.g. acc::exit_data(acc::delete_(a));
template <class X>
data_clause_t<detail::data_kind::delete_> delete_(const X& x,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::delete_: takes an acc::array, acc::view or acc::section; for memory "
                                      "you own write acc::delete_(ptr, count)");
  return {detail::span_of(x, {"delete_", where}), false, where};
}
/// `delete_` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::delete_> delete_(T* p, N count,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::delete_: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "delete_", where), false, where};
}

/// A structured data region (OpenACC 3.3 §2.6.5 `data` construct): its clauses take effect
/// when it is constructed and end, in reverse order, when it is destroyed. Regions nest, and
/// data already present is only counted, never copied again (§2.6.7 reference counts).
/// - Entry failures (present of absent data, out of memory) throw and leave nothing behind.
/// - A copy-out failure at scope exit throws from the destructor unless already unwinding.
/// - With acc::async(q) (OpenACC 3.2 and later) the copies in and out and the frees are queued
///   on q, in order with the constructs the region runs there; the host does not wait for them
///   (acc::wait(q) does). Pageable host memory is complete when a copy-out returns, as for
///   acc::exit_data(acc::copyout(a), acc::async(q)).
/// e.g. { acc::data region{acc::copy(t), acc::create(tmp)}; ...kernels...; } // t copied out here
template <class... Clauses>
class data {
public:
  // An unnamed acc::data{...} ends where it is written, before the code it was meant to cover.
  [[nodiscard("acc::data: an unnamed region ends at once; name it: acc::data region{...};")]]
  explicit data(const Clauses&... clauses, std::source_location where = std::source_location::current()) {
    if constexpr (detail::check_data_region_args<Clauses...>()) region_.enter({"data", where}, clauses...);
  }
  data(const data&) = delete;
  data& operator=(const data&) = delete;

private:
  detail::structured_region<detail::data_clause_count<Clauses...>> region_;
};

template <class... Clauses>
data(Clauses...) -> data<Clauses...>;

/// Unstructured entry (OpenACC 3.3 §2.14.6 `enter data`): copyin / create with a dynamic
/// reference, kept until the matching acc::exit_data. Optional acc::async(q), acc::if_.
/// e.g. acc::enter_data(acc::copyin(a), acc::create(b));
/// (a class only so that the call site can follow the clause pack; call it as a function)
template <class... Clauses>
struct enter_data {
  explicit enter_data(const Clauses&... clauses, std::source_location where = std::source_location::current()) {
    if constexpr (detail::check_enter_data_args<Clauses...>()) {
      const detail::call_site site{"enter_data", where};
      std::array<detail::data_action, detail::data_clause_count<Clauses...>> actions{};
      detail::data_spec spec;
      detail::data_action* out = actions.data();
      (detail::fold_data_clause(spec, out, clauses), ...);
      detail::check_data_queue(spec.queue, site);
      if (!spec.if_) return;
      detail::enter_actions(actions.data(), actions.size(), detail::data_device(spec.device_num, site),
                            detail::ref_counter::dynamic, spec.queue, site);
    }
  }
};

template <class... Clauses>
enter_data(Clauses...) -> enter_data<Clauses...>;

/// Unstructured exit (OpenACC 3.3 §2.14.7 `exit data`): copyout / delete_ give back one dynamic
/// reference (all of them with acc::finalize); data is copied out and freed when no reference
/// is left. Data that is not present is no action (§2.7.1); a range overlapping present data
/// without lying inside it is acc::not_present_error. Optional acc::async(q), acc::if_.
/// - A section inside a larger present range gives back a reference of that range (the counts
///   are the range's, OpenACC 3.3 §2.6.7): when it is the last, the whole device copy is freed,
///   and copyout copies out only the section.
/// e.g. acc::exit_data(acc::copyout(a), acc::delete_(b));
template <class... Clauses>
struct exit_data {
  explicit exit_data(const Clauses&... clauses, std::source_location where = std::source_location::current()) {
    if constexpr (detail::check_exit_data_args<Clauses...>()) {
      const detail::call_site site{"exit_data", where};
      std::array<detail::data_action, detail::data_clause_count<Clauses...>> actions{};
      detail::data_spec spec;
      detail::data_action* out = actions.data();
      (detail::fold_data_clause(spec, out, clauses), ...);
      detail::check_data_queue(spec.queue, site);
      if (!spec.if_) return;
      const int device = detail::data_device(spec.device_num, site);
      for (auto& a : actions)
        detail::exit_action(device, a.kind, a.span, detail::ref_counter::dynamic, spec.finalize, spec.queue, site);
    }
  }
};

template <class... Clauses>
exit_data(Clauses...) -> exit_data<Clauses...>;

}  // namespace acc

#include <acc/detail/header_close.hpp>
