//! @file The data environment: data clauses, acc::data regions, enter/exit data, updates (OpenACC 3.3 §2.6-§2.7, §2.14).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/array.hpp>
#include <acc/clauses.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/error.hpp>
#include <acc/runtime.hpp>
#include <acc/section.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <source_location>
#include <type_traits>

namespace acc {

/// A data clause naming one host range: acc::copy(a), acc::create(p, n), ... (OpenACC 3.3 §2.7).
template <detail::data_kind Kind>
struct data_clause_t {
  detail::host_span span;
  bool zero = false;  // the `zero` modifier: a device copy this clause allocates starts zeroed
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

namespace detail {

template <class X>
struct data_traits {
  static constexpr bool valid = false;
};
template <class T, std::size_t R>
struct data_traits<view<T, R>> {
  static constexpr bool valid = true;
  static host_span span(const view<T, R>& v) noexcept {
    return {v.data(), v.size() * sizeof(T), *v.label() ? v.label() : nullptr, std::is_const_v<T>};
  }
};
template <class T, std::size_t R>
struct data_traits<array<T, R>> {
  static constexpr bool valid = true;
  static host_span span(const array<T, R>& a) noexcept {
    return {a.data(), a.size() * sizeof(T), *a.label() ? a.label() : nullptr, false};
  }
};
template <class T, std::size_t R>
struct data_traits<section_t<T, R, false>> {
  static constexpr bool valid = true;
  static host_span span(const section_t<T, R, false>& s, const call_site& site) { return section_span(s, site); }
};
template <class T, std::size_t R>
struct data_traits<section_t<T, R, true>> {
  static constexpr bool valid = true;
  static host_span span(const section_t<T, R, true>&, const call_site&) {
    static_assert(dependent_false<T>,
                  "acc::section: a section with acc::halo ranges is relative to a tile's iterations, so only "
                  "acc::cache takes it; data clauses and updates take acc::fixed ranges or acc::section(a, lo, len)");
    return {};
  }
};

/// An acc::array, acc::view or acc::section: what clauses, updates and is_present take.
template <class X>
inline constexpr bool is_data_v = data_traits<std::remove_cvref_t<X>>::valid;

/// The host memory x names; `site` is the clause or update, which a section that is not
/// contiguous or leaves its array names in its acc::bad_clause.
template <class X>
host_span span_of(const X& x, const call_site& site) {
  if constexpr (is_section_v<X>) return data_traits<std::remove_cvref_t<X>>::span(x, site);
  else return data_traits<std::remove_cvref_t<X>>::span(x);
}

template <class T>
host_span span_of(T* p, std::size_t count) noexcept {
  return {p, count * sizeof(T), nullptr, std::is_const_v<T>};
}

/// The span of a (pointer, count) clause, or acc::bad_clause at the user's line when the count
/// is negative or the range runs past the end of the address space (its bytes would wrap).
template <class T, class N>
host_span checked_span(T* p, N count, const char* clause, const std::source_location& where) {
  static_assert(std::is_integral_v<N> && !std::is_same_v<N, bool>,
                "acc: a data clause on a pointer takes the element count as an integer: acc::copyin(p, n)");
  if constexpr (std::is_signed_v<N>)
    if (count < 0)
      fail<bad_clause>(call_site{clause, where},
                       "count " + std::to_string(count) + " is negative; the clause covers count elements from p");
  const std::size_t n = static_cast<std::size_t>(count);
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  if (n > SIZE_MAX / sizeof(T) || UINTPTR_MAX - at < n * sizeof(T))
    fail<bad_clause>(call_site{clause, where},
                     "count " + std::to_string(n) + " of " + std::to_string(sizeof(T)) +
                         "-byte elements runs past the end of the address space");
  return span_of(p, n);
}

template <class...>
inline constexpr bool invalid_data_args = false;

template <class C>
struct data_clause_kind {
  static constexpr bool is_data = false;
};
template <data_kind K>
struct data_clause_kind<data_clause_t<K>> {
  static constexpr bool is_data = true;
  static constexpr data_kind kind = K;
};

template <class C, data_kind... K>
constexpr bool is_one_of() {
  if constexpr (data_clause_kind<C>::is_data)
    return ((data_clause_kind<C>::kind == K) || ...);
  else
    return false;
}

/// One clause of a construct, and whether its entry took a reference to give back at exit.
struct data_action {
  data_kind kind{};
  host_span span;
  bool taken = false;
  bool zero = false;
};

/// One variable in several clauses of one region (copyout(a) and copy(a), say): the first
/// clause is the one that allocates, so it also does what the later ones ask of the entry and
/// the exit (copy in if any of them copies in, out if any copies out); the later ones only
/// count references. Compilers merge such clauses the same way (OpenACC V&V copy_copyout).
inline void merge_repeated(data_action* a, std::size_t n) noexcept {
  const auto moves = [](data_kind k) {
    return k == data_kind::copy || k == data_kind::copyin || k == data_kind::copyout || k == data_kind::create;
  };
  const auto in = [](data_kind k) { return k == data_kind::copy || k == data_kind::copyin; };
  const auto out = [](data_kind k) { return k == data_kind::copy || k == data_kind::copyout; };
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (a[j].span.p == a[i].span.p && a[j].span.bytes == a[i].span.bytes && moves(a[i].kind) && moves(a[j].kind)) {
        const bool copy_in = in(a[i].kind) || in(a[j].kind), copy_out = out(a[i].kind) || out(a[j].kind);
        a[i].kind = copy_in ? (copy_out ? data_kind::copy : data_kind::copyin)
                            : (copy_out ? data_kind::copyout : data_kind::create);
      }
}

/// if_, async, device_num and finalize of a data construct, folded.
struct data_spec {
  bool if_ = true;
  int queue = queue_sync;
  bool finalize = false;
  int device_num = -1;  // -1: the current device
};

template <class C>
void fold_data_clause(data_spec& s, data_action*& out, const C& c) {
  if constexpr (data_clause_kind<C>::is_data)
    *out++ = data_action{data_clause_kind<C>::kind, c.span, false, c.zero};
  else if constexpr (std::is_same_v<C, if_t>)
    s.if_ = s.if_ && c.value;
  else if constexpr (std::is_same_v<C, async_t>)
    s.queue = c.queue;
  else if constexpr (std::is_same_v<C, finalize_t>)
    s.finalize = true;
  else if constexpr (std::is_same_v<C, device_num_t>)
    s.device_num = c.value;
}

/// The device a data construct or update acts on: device_num(n) if given (an NVIDIA device
/// that must exist), else the current one. When constructs run on the host every device
/// number names the host device, as compute constructs' device_num does there.
inline int data_device(int device_num, const call_site& site) {
  if (device_num < 0) {
    if (device_num != -1) fail<bad_clause>(site, "device_num(" + std::to_string(device_num) + ") is negative");
    return current_device();
  }
  if (current_target() == target::host) return -1;
  const int count = nvidia_device_count();
  if (device_num >= count)
    fail<bad_clause>(site, "device_num(" + std::to_string(device_num) + ") does not exist; there are " +
                               std::to_string(count) + " NVIDIA devices");
  return device_num;
}

template <class... C>
inline constexpr std::size_t data_clause_count = (std::size_t(0) + ... + std::size_t(data_clause_kind<C>::is_data));

inline void check_data_queue(int q, const call_site& site) {
  if (q < 0 && q != queue_sync && q != queue_noval)
    fail<bad_clause>(site, "async(" + std::to_string(q) + ") is not a queue; use a queue number >= 0 or acc::async_noval");
}

/// Enters a clause list in order (structured or dynamic); if one fails, what the earlier ones
/// took is given back (without copying out) before the error propagates, so nothing leaks.
inline void enter_actions(data_action* a, std::size_t n, int device, ref_counter counter, int queue,
                          const call_site& site) {
  std::size_t i = 0;
  try {
    for (; i < n; ++i) a[i].taken = enter_action(device, a[i].kind, a[i].span, counter, queue, site, a[i].zero);
  } catch (...) {
    while (i-- > 0)
      if (a[i].taken) {
        try {
          exit_action(device, data_kind::delete_, a[i].span, counter, false, queue, site);
        } catch (...) {  // the first error is the one to report
        }
      }
    throw;
  }
}

/// Exits a region's clauses in reverse order. Every clause is exited even when one fails; the
/// first failure is rethrown unless an exception is already propagating.
inline void exit_region(data_action* a, std::size_t n, int device, bool rethrow, const call_site& site) {
  std::exception_ptr first;
  for (std::size_t i = n; i-- > 0;) {
    if (!a[i].taken) continue;
    try {
      exit_action(device, a[i].kind, a[i].span, ref_counter::structured, false, queue_sync, site);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first && rethrow) std::rethrow_exception(first);
}

template <class... C>
constexpr bool check_data_region_args() {
  if constexpr ((is_data_v<C> || ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::data: an array or view was passed without a data clause; write acc::copy(a), "
                  "acc::copyin(a), acc::copyout(a), acc::create(a), acc::present(a) or acc::no_create(a)");
    return false;
  } else if constexpr ((is_one_of<C, data_kind::delete_>() || ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::data: delete_ is an acc::exit_data clause; a data region deletes its data when it ends");
    return false;
  } else if constexpr (!((data_clause_kind<C>::is_data || std::is_same_v<C, if_t> ||
                          std::is_same_v<C, device_num_t>) &&
                         ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::data: every argument must be a data clause (acc::copy, copyin, copyout, create, present, "
                  "no_create, deviceptr), acc::if_ or acc::device_num");
    return false;
  } else {
    return true;
  }
}

template <class... C>
constexpr bool check_enter_data_args() {
  if constexpr ((is_data_v<C> || ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::enter_data: an array or view was passed without a data clause; "
                  "write acc::enter_data(acc::copyin(a)) or acc::enter_data(acc::create(a))");
    return false;
  } else if constexpr (((is_one_of<C, data_kind::copyout, data_kind::delete_>()) || ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::enter_data: copyout and delete_ are acc::exit_data clauses; enter_data takes copyin and create");
    return false;
  } else if constexpr (!((is_one_of<C, data_kind::copyin, data_kind::create>() || std::is_same_v<C, if_t> ||
                          std::is_same_v<C, async_t> || std::is_same_v<C, device_num_t>) &&
                         ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::enter_data: takes acc::copyin, acc::create, acc::async, acc::device_num and acc::if_; copy, "
                  "present, no_create and deviceptr belong in an acc::data region");
    return false;
  } else {
    return true;
  }
}

template <class... C>
constexpr bool check_exit_data_args() {
  if constexpr ((is_data_v<C> || ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::exit_data: an array or view was passed without a data clause; "
                  "write acc::exit_data(acc::copyout(a)) or acc::exit_data(acc::delete_(a))");
    return false;
  } else if constexpr (((is_one_of<C, data_kind::copyin, data_kind::create>()) || ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::exit_data: copyin and create are acc::enter_data clauses; exit_data takes copyout and delete_");
    return false;
  } else if constexpr (!((is_one_of<C, data_kind::copyout, data_kind::delete_>() || std::is_same_v<C, if_t> ||
                          std::is_same_v<C, async_t> || std::is_same_v<C, finalize_t> ||
                          std::is_same_v<C, device_num_t>) &&
                         ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::exit_data: takes acc::copyout, acc::delete_, acc::finalize, acc::async, acc::device_num and "
                  "acc::if_");
    return false;
  } else {
    return true;
  }
}

inline void update(const host_span& s, bool to_device, int queue, const call_site& site) {
  check_data_queue(queue, site);
  update_action(current_device(), s, to_device, queue, site);
}

}  // namespace detail

// Each clause takes an acc::array, acc::view or acc::section, or a pointer and an element count.

/// Copies in at entry and out at exit when not already present (OpenACC 3.3 §2.7.7 `copy`).
/// e.g. acc::data region{acc::copy(a)};
template <class X>
data_clause_t<detail::data_kind::copy> copy(const X& x,
                                            std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::copy: takes an acc::array, acc::view or acc::section; for memory you "
                                      "own write acc::copy(ptr, count)");
  return {detail::span_of(x, {"copy", where})};
}
/// `copy` of `count` elements at `p`. e.g. acc::data region{acc::copy(v.data(), v.size())};
template <class T, class N>
data_clause_t<detail::data_kind::copy> copy(T* p, N count,
                                            std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::copy: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "copy", where)};
}

/// Copies in at entry when not already present; no copy out (OpenACC 3.3 §2.7.8 `copyin`).
/// e.g. acc::enter_data(acc::copyin(a));
template <class X>
data_clause_t<detail::data_kind::copyin> copyin(const X& x,
                                                std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::copyin: takes an acc::array, acc::view or acc::section; for memory you "
                                      "own write acc::copyin(ptr, count)");
  return {detail::span_of(x, {"copyin", where})};
}
/// `copyin` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::copyin> copyin(T* p, N count,
                                                std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::copyin: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "copyin", where)};
}

/// Allocates at entry, copies out when the last reference goes (OpenACC 3.3 §2.7.9 `copyout`).
/// e.g. acc::exit_data(acc::copyout(a));
template <class X>
data_clause_t<detail::data_kind::copyout> copyout(const X& x,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::copyout: takes an acc::array, acc::view or acc::section; for memory "
                                      "you own write acc::copyout(ptr, count)");
  return {detail::span_of(x, {"copyout", where})};
}
/// `copyout` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::copyout> copyout(T* p, N count,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::copyout: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "copyout", where)};
}
/// `copyout(zero: x)`: the device copy starts zeroed. e.g. acc::data region{acc::copyout(b, acc::zero)};
template <class X>
data_clause_t<detail::data_kind::copyout> copyout(const X& x, zero_t,
                                                  std::source_location where = std::source_location::current()) {
  return {copyout(x, where).span, true};
}
/// `copyout(zero: p[0:count])`.
template <class T, class N>
data_clause_t<detail::data_kind::copyout> copyout(T* p, N count, zero_t,
                                                  std::source_location where = std::source_location::current()) {
  return {copyout(p, count, where).span, true};
}

/// Allocates without copying (OpenACC 3.3 §2.7.10 `create`). e.g. acc::data region{acc::create(tmp)};
template <class X>
data_clause_t<detail::data_kind::create> create(const X& x,
                                                std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::create: takes an acc::array, acc::view or acc::section; for memory you "
                                      "own write acc::create(ptr, count)");
  return {detail::span_of(x, {"create", where})};
}
/// `create` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::create> create(T* p, N count,
                                                std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::create: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "create", where)};
}
/// `create(zero: x)`: the device copy starts zeroed. e.g. acc::enter_data(acc::create(tmp, acc::zero));
template <class X>
data_clause_t<detail::data_kind::create> create(const X& x, zero_t,
                                                std::source_location where = std::source_location::current()) {
  return {create(x, where).span, true};
}
/// `create(zero: p[0:count])`.
template <class T, class N>
data_clause_t<detail::data_kind::create> create(T* p, N count, zero_t,
                                                std::source_location where = std::source_location::current()) {
  return {create(p, count, where).span, true};
}

/// Requires the data to be present already, else acc::not_present_error (OpenACC 3.3 §2.7.6).
/// e.g. acc::data region{acc::present(a)};
template <class X>
data_clause_t<detail::data_kind::present> present(const X& x,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::present: takes an acc::array, acc::view or acc::section; for memory "
                                      "you own write acc::present(ptr, count)");
  return {detail::span_of(x, {"present", where})};
}
/// `present` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::present> present(T* p, N count,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::present: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "present", where)};
}

/// Uses the device copy if present, else nothing is allocated and constructs that capture
/// the data copy it for themselves (OpenACC 3.3 §2.7.11 `no_create`).
template <class X>
data_clause_t<detail::data_kind::no_create> no_create(const X& x,
                                                      std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::no_create: takes an acc::array, acc::view or acc::section; for memory "
                                      "you own write acc::no_create(ptr, count)");
  return {detail::span_of(x, {"no_create", where})};
}
/// `no_create` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::no_create> no_create(T* p, N count,
                                                      std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::no_create: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "no_create", where)};
}

/// Declares `count` elements at `p` to be device memory already (cudaMalloc'd, or from
/// acc::deviceptr(x)): views over it are used as they are (OpenACC 3.3 §2.7.4 `deviceptr`).
/// e.g. acc::data region{acc::deviceptr(d, n)}; acc::view<double> v(d, n);
template <class T, class N>
data_clause_t<detail::data_kind::deviceptr> deviceptr(T* p, N count,
                                                      std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::deviceptr: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "deviceptr", where)};
}

/// exit_data: gives back a reference without copying out (OpenACC 3.3 §2.7.12 `delete`).
/// e.g. acc::exit_data(acc::delete_(a));
template <class X>
data_clause_t<detail::data_kind::delete_> delete_(const X& x,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::delete_: takes an acc::array, acc::view or acc::section; for memory "
                                      "you own write acc::delete_(ptr, count)");
  return {detail::span_of(x, {"delete_", where})};
}
/// `delete_` of `count` elements at `p`.
template <class T, class N>
data_clause_t<detail::data_kind::delete_> delete_(T* p, N count,
                                                  std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::delete_: a void pointer has no element size; pass a typed pointer");
  return {detail::checked_span(p, count, "delete_", where)};
}

/// A structured data region (OpenACC 3.3 §2.6.5 `data` construct): its clauses take effect
/// when it is constructed and end, in reverse order, when it is destroyed. Regions nest, and
/// data already present is only counted, never copied again (§2.6.7 reference counts).
/// - Entry failures (present of absent data, out of memory) throw and leave nothing behind.
/// - A copy-out failure at scope exit throws from the destructor unless already unwinding.
/// e.g. { acc::data region{acc::copy(t), acc::create(tmp)}; ...kernels...; } // t copied out here
template <class... Clauses>
class data {
public:
  // An unnamed acc::data{...} ends where it is written, before the code it was meant to cover.
  [[nodiscard("acc::data: an unnamed region ends at once; name it: acc::data region{...};")]]
  explicit data(const Clauses&... clauses, std::source_location where = std::source_location::current())
      : site_{"data", where} {
    if constexpr (detail::check_data_region_args<Clauses...>()) {
      detail::data_spec spec;
      detail::data_action* out = actions_.data();
      (detail::fold_data_clause(spec, out, clauses), ...);
      if (!spec.if_) return;
      detail::merge_repeated(actions_.data(), actions_.size());
      device_ = detail::data_device(spec.device_num, site_);
      detail::enter_actions(actions_.data(), actions_.size(), device_, detail::ref_counter::structured,
                            detail::queue_sync, site_);
      active_ = true;
      uncaught_ = std::uncaught_exceptions();
    }
  }
  data(const data&) = delete;
  data& operator=(const data&) = delete;
  ~data() noexcept(false) {
    if (active_)
      detail::exit_region(actions_.data(), actions_.size(), device_, std::uncaught_exceptions() <= uncaught_, site_);
  }

private:
  std::array<detail::data_action, detail::data_clause_count<Clauses...>> actions_{};
  detail::call_site site_;
  int device_ = -1;
  int uncaught_ = 0;
  bool active_ = false;
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

namespace detail {

/// A namespace-scope variable of a plain type, as ACC_DECLARE makes (acc/declare.hpp): what
/// updates, is_present and deviceptr take besides arrays, views and sections.
template <class X>
inline constexpr bool is_variable_v =
    !is_data_v<X> && !std::is_pointer_v<X> && std::is_trivially_copyable_v<X> &&
    (std::is_arithmetic_v<X> || std::is_enum_v<X> || std::is_array_v<X> || std::is_class_v<X>) &&
    !std::is_same_v<X, async_t> && !std::is_same_v<X, if_t> && !std::is_same_v<X, device_num_t>;

template <class X>
inline constexpr bool is_update_item_v = is_data_v<X> || is_variable_v<std::remove_cvref_t<X>>;

template <class X>
host_span item_span(const X& x, const call_site& site) {
  if constexpr (is_data_v<X>) return span_of(x, site);
  else return {&x, sizeof(X), nullptr, false};
}

/// The first item of an update list and the caller's location: no defaulted
/// std::source_location can follow a pack, but this conversion runs at the caller's line.
/// The item's span is taken later, by update_list, which knows the update's name for errors.
struct update_here {
  const void* item;
  host_span (*span_at)(const void* item, const call_site& site);
  std::source_location where;
  template <class X>
    requires is_update_item_v<X>
  update_here(const X& x, std::source_location w = std::source_location::current()) noexcept
      : item(&x),
        span_at([](const void* i, const call_site& site) { return item_span(*static_cast<const X*>(i), site); }),
        where(w) {}
};

template <class... Args>
inline constexpr bool update_list_ok =
    ((is_update_item_v<Args> || std::is_same_v<Args, async_t> || std::is_same_v<Args, if_t> ||
      std::is_same_v<Args, device_num_t>) &&
     ...);

template <class A>
void fold_update_clause(int& queue, bool& on, int& device_num, const A& a) {
  if constexpr (std::is_same_v<A, async_t>) queue = a.queue;
  else if constexpr (std::is_same_v<A, if_t>) on = on && a.value;
  else if constexpr (std::is_same_v<A, device_num_t>) device_num = a.value;
}

/// update device / self of a list, in order, with the list's async, device_num and if_ clauses.
template <class... Args>
void update_list(const char* name, bool to_device, const update_here& first, const Args&... rest) {
  const call_site site{name, first.where};
  int queue = queue_sync, device_num = -1;
  bool on = true;
  (fold_update_clause(queue, on, device_num, rest), ...);
  check_data_queue(queue, site);
  if (!on) return;
  const int device = data_device(device_num, site);
  update_action(device, first.span_at(first.item, site), to_device, queue, site);
  const auto one = [&](const auto& a) {
    if constexpr (is_update_item_v<decltype(a)>) update_action(device, item_span(a, site), to_device, queue, site);
  };
  (one(rest), ...);
}

/// The device address of present `s` for deviceptr, else acc::not_present_error.
inline void* device_address(const host_span& s, bool empty_is_null, const call_site& site) {
  const int device = current_device();
  if (void* d = present_address(device, s)) return d;
  if (empty_is_null && s.bytes == 0) return nullptr;
  fail_absent(s, device, "enter it with acc::enter_data or an acc::data region before asking for its device address",
              site);
}

}  // namespace detail

/// Copies present host data to its device copy (OpenACC 3.3 §2.14.4 `update device`);
/// acc::not_present_error if it is not present. A section updates only its part; an
/// ACC_DECLARE variable is always present.
/// e.g. acc::update_device(acc::section(a, 0, 100));
template <class X>
void update_device(const X& x, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::update_device: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_device", where};
  detail::update(detail::item_span(x, site), true, detail::queue_sync, site);
}
/// As above, queued on q: returns at once (pageable memory: once the host data may be reused).
/// e.g. acc::update_device(a, acc::async(1)); ... acc::wait(1);
template <class X>
void update_device(const X& x, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::update_device: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_device", where};
  detail::update(detail::item_span(x, site), true, q.queue, site);
}
/// update_device of `count` elements at host address p, which must be present.
/// e.g. acc::enter_data(acc::copyin(v.data(), n)); ...; acc::update_device(v.data(), n);
template <class T>
void update_device(T* p, std::size_t count, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::update_device: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::span_of(p, count), true, detail::queue_sync, {"update_device", where});
}
/// update_device of `count` elements at p, queued on q.
template <class T>
void update_device(T* p, std::size_t count, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::update_device: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::span_of(p, count), true, q.queue, {"update_device", where});
}
/// A list, as OpenACC's `update device(a, b, c) async(q)`: arrays, views, sections
/// (acc::section(p, n) for a pointer range) and ACC_DECLARE variables, updated in order,
/// then optionally acc::async(q), acc::device_num(n) and acc::if_(cond) for the whole list.
/// e.g. acc::update_device(u, v, acc::section(p, n), acc::async(1));
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void update_device(detail::update_here first, const Rest&... rest) {
  static_assert(detail::update_list_ok<Rest...>,
                "acc::update_device: a list takes acc::array, acc::view, acc::section (acc::section(p, n) for a "
                "pointer) and ACC_DECLARE variables, then acc::async(q), acc::device_num(n) or acc::if_(cond)");
  detail::update_list("update_device", true, first, rest...);
}

/// Copies the device copy of present data back to host memory (OpenACC 3.3 §2.14.4
/// `update self`). e.g. acc::update_self(a);
template <class X>
void update_self(const X& x, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::update_self: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_self", where};
  detail::update(detail::item_span(x, site), false, detail::queue_sync, site);
}
/// As above, queued on q; the host data is complete after acc::wait(q).
template <class X>
void update_self(const X& x, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::update_self: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_self", where};
  detail::update(detail::item_span(x, site), false, q.queue, site);
}
/// update_self of `count` elements at host address p, which must be present.
template <class T>
void update_self(T* p, std::size_t count, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::update_self: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::span_of(p, count), false, detail::queue_sync, {"update_self", where});
}
/// update_self of `count` elements at p, queued on q.
template <class T>
void update_self(T* p, std::size_t count, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::update_self: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::span_of(p, count), false, q.queue, {"update_self", where});
}
/// A list, as OpenACC's `update self(a, b) async(q)`; see update_device's list.
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void update_self(detail::update_here first, const Rest&... rest) {
  static_assert(detail::update_list_ok<Rest...>,
                "acc::update_self: a list takes acc::array, acc::view, acc::section (acc::section(p, n) for a "
                "pointer) and ACC_DECLARE variables, then acc::async(q), acc::device_num(n) or acc::if_(cond)");
  detail::update_list("update_self", false, first, rest...);
}

/// OpenACC's older name of update_self (`update host`), kept by the contract.
template <class X>
void update_host(const X& x, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::update_host: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_host", where};
  detail::update(detail::item_span(x, site), false, detail::queue_sync, site);
}
/// update_host queued on q.
template <class X>
void update_host(const X& x, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::update_host: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_host", where};
  detail::update(detail::item_span(x, site), false, q.queue, site);
}

/// Whether all of x is present on the current device (`acc_is_present`, OpenACC 3.3 §3.2.30).
/// On the host device this reports what data clauses entered, as on a GPU; ACC_DECLARE
/// variables are always present.
/// e.g. acc::enter_data(acc::copyin(a)); assert(acc::is_present(a));
template <class X>
bool is_present(const X& x, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::is_present: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::host_span s = detail::item_span(x, {"is_present", where});
  return s.bytes == 0 || detail::present_address(detail::current_device(), s) != nullptr;
}
/// Whether `count` elements at `p` are present.
template <class T, class N>
bool is_present(T* p, N count, std::source_location where = std::source_location::current()) {
  const detail::host_span s = detail::checked_span(p, count, "is_present", where);
  return s.bytes == 0 || detail::present_address(detail::current_device(), s) != nullptr;
}

/// The device address of present data, for CUDA libraries and CUDA-aware MPI: OpenACC's
/// `host_data use_device(x)` (OpenACC 3.3 §2.8) and `acc_deviceptr` (§3.2.28). On the host
/// device, the host address. Data that is not present: acc::not_present_error naming it and
/// the call site (an empty array or view gives nullptr).
/// e.g. { acc::data region{acc::copy(a)}; cublasDscal(h, n, &s, acc::deviceptr(a), 1); }
template <class X>
  requires(!std::is_array_v<X>)
auto deviceptr(const X& x, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::deviceptr: takes an acc::array, acc::view, acc::section, an ACC_DECLARE variable or a pointer");
  if constexpr (detail::is_data_v<X>) {
    using T = std::remove_pointer_t<decltype(x.data())>;
    const detail::call_site site{"deviceptr", where};
    return static_cast<T*>(detail::device_address(detail::span_of(x, site), true, site));
  } else {
    const detail::call_site site{"deviceptr", where};
    return static_cast<X*>(detail::device_address(detail::item_span(x, site), false, site));
  }
}
/// The device address of host address p, inside any present range (an ACC_DECLARE array
/// decays to this form).
template <class T>
T* deviceptr(T* p, std::source_location where = std::source_location::current()) {
  return static_cast<T*>(detail::device_address(detail::host_span{p, 0}, false, {"deviceptr", where}));
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
