//! @file What the data constructs and updates share: the host range a clause or update names, the
//! clause list folded into actions, entering and exiting them in order, and the argument checks.
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

// acc/data.hpp defines these; the checks and folds below only name them.
template <detail::data_kind Kind>
struct data_clause_t;
struct finalize_t;

namespace detail {

template <class X>
struct data_traits {
  static constexpr bool valid = false;
  static constexpr bool read_only = false;
};
template <class T, std::size_t R>
struct data_traits<view<T, R>> {
  static constexpr bool valid = true;
  static constexpr bool read_only = std::is_const_v<T>;
  static host_span span(const view<T, R>& v) noexcept {
    return {v.data(), v.size() * sizeof(T), *v.label() ? v.label() : nullptr, read_only};
  }
};
template <class T, std::size_t R>
struct data_traits<array<T, R>> {
  static constexpr bool valid = true;
  static constexpr bool read_only = false;
  static host_span span(const array<T, R>& a) noexcept {
    return {a.data(), a.size() * sizeof(T), *a.label() ? a.label() : nullptr, false};
  }
};
template <class T, std::size_t R>
struct data_traits<section_t<T, R, false>> {
  static constexpr bool valid = true;
  static constexpr bool read_only = std::is_const_v<T>;
  static host_span span(const section_t<T, R, false>& s, const call_site& site) { return section_span(s, site); }
};
template <class T, std::size_t R>
struct data_traits<section_t<T, R, true>> {
  static constexpr bool valid = true;
  static constexpr bool read_only = std::is_const_v<T>;
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

/// Data whose elements are const (a view or section of const T): nothing may be copied into
/// its host memory (copy, copyout, update_self).
template <class X>
inline constexpr bool read_only_data_v = data_traits<std::remove_cvref_t<X>>::read_only;

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
  std::uint64_t taken = 0;  // the serial of the entry whose reference it holds (enter_action), or 0
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
    *out++ = data_action{data_clause_kind<C>::kind, c.span, 0, c.zero};
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
          exit_action(device, data_kind::delete_, a[i].span, counter, false, queue, site, a[i].taken);
        } catch (...) {  // the first error is the one to report
        }
      }
    throw;
  }
}

/// Exits a region's clauses in reverse order. Every clause is exited even when one fails; the
/// first failure is rethrown unless an exception is already propagating.
inline void exit_region(data_action* a, std::size_t n, int device, int queue, bool rethrow, const call_site& site) {
  std::exception_ptr first;
  for (std::size_t i = n; i-- > 0;) {
    if (!a[i].taken) continue;
    try {
      exit_action(device, a[i].kind, a[i].span, ref_counter::structured, false, queue, site, a[i].taken);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first && rethrow) std::rethrow_exception(first);
}

/// A structured data region's entry and exit (OpenACC 3.3 §2.6.5), shared by acc::data and the
/// data clauses of compute constructs: enter() folds the clauses (if_, async and device_num set
/// the region's; other arguments fold to nothing) and enters them; the destructor exits them in
/// reverse order, throwing the first exit failure unless the region is ending by an exception.
/// With if_(false) nothing is entered and nothing exits.
template <std::size_t N>
class structured_region {
public:
  structured_region() = default;
  structured_region(const structured_region&) = delete;
  structured_region& operator=(const structured_region&) = delete;

  template <class... Args>
  void enter(const call_site& site, const Args&... args) {
    data_spec spec;
    data_action* out = actions_.data();
    (fold_data_clause(spec, out, args), ...);
    if (!spec.if_) return;
    merge_repeated(actions_.data(), N);
    check_data_queue(spec.queue, site);
    device_ = data_device(spec.device_num, site);
    queue_ = spec.queue;
    enter_actions(actions_.data(), N, device_, ref_counter::structured, queue_, site);
    site_ = site;
    uncaught_ = std::uncaught_exceptions();
    active_ = true;
  }

  ~structured_region() noexcept(false) {
    if (active_) exit_region(actions_.data(), N, device_, queue_, std::uncaught_exceptions() <= uncaught_, site_);
  }

private:
  std::array<data_action, N> actions_{};
  call_site site_{};
  int device_ = -1;
  int queue_ = queue_sync;
  int uncaught_ = 0;
  bool active_ = false;
};

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
                          std::is_same_v<C, device_num_t> || std::is_same_v<C, async_t>) &&
                         ...)) {
    static_assert(invalid_data_args<C...>,
                  "acc::data: every argument must be a data clause (acc::copy, copyin, copyout, create, present, "
                  "no_create, deviceptr), acc::async, acc::if_ or acc::device_num");
    return false;
  } else {
    return true;
  }
}

template <class... C>
constexpr bool check_enter_data_args() {
  if constexpr (data_clause_count<C...> == 0) {
    // OpenACC 3.3 §2.14.6-7: at least one data clause. Also where `acc::enter_data(c);` with a named
    // clause c was read as the declaration of a variable c (acc::enter_data is a class template).
    static_assert(invalid_data_args<C...>,
                  "acc::enter_data: takes at least one data clause (copyin or create); with a clause held in a variable c, "
                  "acc::enter_data(c); declares a variable named c: write acc::enter_data{c}");
    return false;
  } else if constexpr ((is_data_v<C> || ...)) {
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
  if constexpr (data_clause_count<C...> == 0) {
    // OpenACC 3.3 §2.14.6-7: at least one data clause. Also where `acc::exit_data(c);` with a named
    // clause c was read as the declaration of a variable c (acc::exit_data is a class template).
    static_assert(invalid_data_args<C...>,
                  "acc::exit_data: takes at least one data clause (copyout or delete_); with a clause held in a variable c, "
                  "acc::exit_data(c); declares a variable named c: write acc::exit_data{c}");
    return false;
  } else if constexpr ((is_data_v<C> || ...)) {
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

}  // namespace acc

#include <acc/detail/header_close.hpp>
