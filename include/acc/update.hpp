//! @file Updates of present data and its device address: acc::update_device, update_self (update_host),
//! is_present, deviceptr (OpenACC 3.3 §2.14.4, §2.8, §3.2.28, §3.2.30).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/data_actions.hpp>
#include <acc/detail/present_table.hpp>

#include <concepts>
#include <cstddef>
#include <source_location>
#include <type_traits>

namespace acc {

/// An update's list items that are not present are left alone rather than an error (OpenACC
/// 3.3 §2.14.4 `if_present`); acc::deviceptr(x, acc::if_present) gives x's host address when x
/// is not present (§2.8 `host_data use_device(x) if_present`).
/// e.g. acc::update_self(halo, acc::if_present);
struct if_present_t {};
inline constexpr if_present_t if_present{};

namespace detail {

/// A namespace-scope variable of a plain type, as ACC_DECLARE makes (acc/declare.hpp): what
/// updates, is_present and deviceptr take besides arrays, views and sections. acc's own clause
/// and tag objects (acc::finalize, acc::num_gangs(4), acc::copyin(b), ...) are not variables, so
/// passing one to an update is a compile-time error rather than a "not present" one at run time.
template <class X>
inline constexpr bool is_variable_v =
    !is_data_v<X> && !std::is_pointer_v<X> && std::is_trivially_copyable_v<X> &&
    (std::is_arithmetic_v<X> || std::is_enum_v<X> || std::is_array_v<X> || std::is_class_v<X>) &&
    !std::is_empty_v<X> && !is_clause_v<X> && !data_clause_kind<X>::is_data && !std::is_same_v<X, async_t> &&
    !std::is_same_v<X, if_t> && !std::is_same_v<X, device_num_t>;

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
/// ToHost: the list of an update_self / update_host, which writes its items' host memory.
template <bool ToHost>
struct update_here {
  const void* item;
  host_span (*span_at)(const void* item, const call_site& site);
  std::source_location where;
  template <class X>
    requires is_update_item_v<X>
  update_here(const X& x, std::source_location w = std::source_location::current()) noexcept
      : item(&x),
        span_at([](const void* i, const call_site& site) { return item_span(*static_cast<const X*>(i), site); }),
        where(w) {
    static_assert(!ToHost || !read_only_data_v<X>, "acc::update_self / update_host: the elements are const, so "
                                                   "nothing may be copied into them");
  }
};

template <class... Args>
inline constexpr bool update_list_ok =
    ((is_update_item_v<Args> || std::is_same_v<Args, async_t> || std::is_same_v<Args, if_t> ||
      std::is_same_v<Args, device_num_t> || std::is_same_v<Args, if_present_t>) &&
     ...);

/// Whether a list item (as a forwarding reference's type) is a number or struct passed as a
/// temporary: it cannot be the ACC_DECLARE variable it would have to be (update_device(a, n)
/// meant as (pointer, count) is the usual case).
template <class... Rest>
inline constexpr bool update_list_has_temporary_v =
    ((is_variable_v<std::remove_cvref_t<Rest>> && !std::is_lvalue_reference_v<Rest>) || ...);

template <class A>
void fold_update_clause(int& queue, bool& on, int& device_num, bool& present_only, const A& a) {
  if constexpr (std::is_same_v<A, async_t>) queue = a.queue;
  else if constexpr (std::is_same_v<A, if_t>) on = on && a.value;
  else if constexpr (std::is_same_v<A, device_num_t>) device_num = a.value;
  else if constexpr (std::is_same_v<A, if_present_t>) present_only = true;
}

/// update device / self of a list, in order, with the list's async, device_num, if_ and
/// if_present clauses.
template <bool ToHost, class... Args>
void update_list(const char* name, const update_here<ToHost>& first, const Args&... rest) {
  constexpr bool to_device = !ToHost;
  const call_site site{name, first.where};
  int queue = queue_sync, device_num = -1;
  bool on = true, present_only = false;
  (fold_update_clause(queue, on, device_num, present_only, rest), ...);
  check_data_queue(queue, site);
  if (!on) return;
  const int device = data_device(device_num, site);
  update_action(device, first.span_at(first.item, site), to_device, queue, site, present_only);
  const auto one = [&](const auto& a) {
    if constexpr (is_update_item_v<decltype(a)>)
      update_action(device, item_span(a, site), to_device, queue, site, present_only);
  };
  (one(rest), ...);
}

/// The device address of present `s` for deviceptr, else acc::not_present_error (or, with
/// `host_if_absent`, the host address).
inline void* device_address(const host_span& s, bool empty_is_null, const call_site& site, bool host_if_absent = false) {
  const int device = current_device();
  if (void* d = present_address(device, s)) return d;
  if (empty_is_null && s.bytes == 0) return nullptr;
  if (host_if_absent) return const_cast<void*>(s.p);
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
template <class T, std::integral N>
void update_device(T* p, N count, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::update_device: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::checked_span(p, count, "update_device", where), true, detail::queue_sync, {"update_device", where});
}
/// update_device of `count` elements at p, queued on q.
template <class T, std::integral N>
void update_device(T* p, N count, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_void_v<T>, "acc::update_device: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::checked_span(p, count, "update_device", where), true, q.queue, {"update_device", where});
}
/// A list, as OpenACC's `update device(a, b, c) async(q)`: arrays, views, sections
/// (acc::section(p, n) for a pointer range) and ACC_DECLARE variables, updated in order,
/// then optionally acc::async(q), acc::device_num(n) and acc::if_(cond) for the whole list.
/// e.g. acc::update_device(u, v, acc::section(p, n), acc::async(1));
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void update_device(detail::update_here<false> first, Rest&&... rest) {
  static_assert(!detail::update_list_has_temporary_v<Rest...>,
                "acc::update_device: a number in a list must be an ACC_DECLARE variable, not a temporary; for count "
                "elements at a pointer write acc::update_device(p, count) or acc::section(p, count)");
  static_assert(detail::update_list_ok<std::remove_cvref_t<Rest>...>,
                "acc::update_device: a list takes acc::array, acc::view, acc::section (acc::section(p, n) for a "
                "pointer) and ACC_DECLARE variables, then acc::async(q), acc::device_num(n), acc::if_(cond) or acc::if_present");
  detail::update_list("update_device", first, rest...);
}

/// Copies the device copy of present data back to host memory (OpenACC 3.3 §2.14.4
/// `update self`). e.g. acc::update_self(a);
template <class X>
void update_self(const X& x, std::source_location where = std::source_location::current()) {
  static_assert(!detail::read_only_data_v<X>, "acc::update_self: the elements are const, so nothing may be copied "
                                              "into them");
  static_assert(detail::is_update_item_v<X>,
                "acc::update_self: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_self", where};
  detail::update(detail::item_span(x, site), false, detail::queue_sync, site);
}
/// As above, queued on q; the host data is complete after acc::wait(q).
template <class X>
void update_self(const X& x, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(!detail::read_only_data_v<X>, "acc::update_self: the elements are const, so nothing may be copied "
                                              "into them");
  static_assert(detail::is_update_item_v<X>,
                "acc::update_self: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_self", where};
  detail::update(detail::item_span(x, site), false, q.queue, site);
}
/// update_self of `count` elements at host address p, which must be present.
template <class T, std::integral N>
void update_self(T* p, N count, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_const_v<T>, "acc::update_self: the elements are const, so nothing may be copied into them");
  static_assert(!std::is_void_v<T>, "acc::update_self: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::checked_span(p, count, "update_self", where), false, detail::queue_sync, {"update_self", where});
}
/// update_self of `count` elements at p, queued on q.
template <class T, std::integral N>
void update_self(T* p, N count, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_const_v<T>, "acc::update_self: the elements are const, so nothing may be copied into them");
  static_assert(!std::is_void_v<T>, "acc::update_self: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::checked_span(p, count, "update_self", where), false, q.queue, {"update_self", where});
}
/// A list, as OpenACC's `update self(a, b) async(q)`; see update_device's list.
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void update_self(detail::update_here<true> first, Rest&&... rest) {
  static_assert(!(detail::read_only_data_v<Rest> || ...),
                "acc::update_self: the elements of a list item are const, so nothing may be copied into them");
  static_assert(!detail::update_list_has_temporary_v<Rest...>,
                "acc::update_self: a number in a list must be an ACC_DECLARE variable, not a temporary; for count "
                "elements at a pointer write acc::update_self(p, count) or acc::section(p, count)");
  static_assert(detail::update_list_ok<std::remove_cvref_t<Rest>...>,
                "acc::update_self: a list takes acc::array, acc::view, acc::section (acc::section(p, n) for a "
                "pointer) and ACC_DECLARE variables, then acc::async(q), acc::device_num(n), acc::if_(cond) or acc::if_present");
  detail::update_list("update_self", first, rest...);
}

/// OpenACC's older name of update_self (`update host`), kept by the contract.
template <class X>
void update_host(const X& x, std::source_location where = std::source_location::current()) {
  static_assert(!detail::read_only_data_v<X>, "acc::update_host: the elements are const, so nothing may be copied "
                                              "into them");
  static_assert(detail::is_update_item_v<X>,
                "acc::update_host: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_host", where};
  detail::update(detail::item_span(x, site), false, detail::queue_sync, site);
}
/// update_host queued on q.
template <class X>
void update_host(const X& x, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(!detail::read_only_data_v<X>, "acc::update_host: the elements are const, so nothing may be copied "
                                              "into them");
  static_assert(detail::is_update_item_v<X>,
                "acc::update_host: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::call_site site{"update_host", where};
  detail::update(detail::item_span(x, site), false, q.queue, site);
}
/// update_host of `count` elements at p.
template <class T, std::integral N>
void update_host(T* p, N count, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_const_v<T>, "acc::update_host: the elements are const, so nothing may be copied into them");
  static_assert(!std::is_void_v<T>, "acc::update_host: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::checked_span(p, count, "update_host", where), false, detail::queue_sync, {"update_host", where});
}
/// update_host of `count` elements at p, queued on q.
template <class T, std::integral N>
void update_host(T* p, N count, async_t q, std::source_location where = std::source_location::current()) {
  static_assert(!std::is_const_v<T>, "acc::update_host: the elements are const, so nothing may be copied into them");
  static_assert(!std::is_void_v<T>, "acc::update_host: a void pointer has no element size; pass a typed pointer");
  detail::update(detail::checked_span(p, count, "update_host", where), false, q.queue, {"update_host", where});
}
/// update_host of a list; see update_device's list.
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void update_host(detail::update_here<true> first, Rest&&... rest) {
  static_assert(!(detail::read_only_data_v<Rest> || ...),
                "acc::update_host: the elements of a list item are const, so nothing may be copied into them");
  static_assert(!detail::update_list_has_temporary_v<Rest...>,
                "acc::update_host: a number in a list must be an ACC_DECLARE variable, not a temporary; for count "
                "elements at a pointer write acc::update_host(p, count) or acc::section(p, count)");
  static_assert(detail::update_list_ok<std::remove_cvref_t<Rest>...>,
                "acc::update_host: a list takes acc::array, acc::view, acc::section (acc::section(p, n) for a "
                "pointer) and ACC_DECLARE variables, then acc::async(q), acc::device_num(n), acc::if_(cond) or acc::if_present");
  detail::update_list("update_host", first, rest...);
}

/// Whether all of x is present on the current device (`acc_is_present`, OpenACC 3.3 §3.2.30).
/// On the host device this reports what data clauses entered, as on a GPU; ACC_DECLARE
/// variables are always present; an empty array, view or section is (all of nothing is).
/// e.g. acc::enter_data(acc::copyin(a)); assert(acc::is_present(a));
template <class X>
bool is_present(const X& x, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::is_present: takes an acc::array, acc::view or acc::section, an ACC_DECLARE variable, or "
                "(ptr, count)");
  const detail::host_span s = detail::item_span(x, {"is_present", where});
  return s.bytes == 0 || detail::present_address(detail::current_device(), s) != nullptr;
}
/// Whether `count` elements at `p` are present; for a count of 0, whether p lies in present
/// data, as §3.2.30 has acc_is_present(p, 0) (a program's test of an address alone).
template <class T, class N>
bool is_present(T* p, N count, std::source_location where = std::source_location::current()) {
  const detail::host_span s = detail::checked_span(p, count, "is_present", where);
  return detail::present_address(detail::current_device(), s) != nullptr;
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
/// As above, but x's host address where x is not present (OpenACC's `host_data use_device(x)
/// if_present`): for code that runs with or without a data region around it.
/// e.g. cublasDscal(h, n, &s, acc::deviceptr(a, acc::if_present), 1);
template <class X>
  requires(!std::is_array_v<X>)
auto deviceptr(const X& x, if_present_t, std::source_location where = std::source_location::current()) {
  static_assert(detail::is_data_v<X>, "acc::deviceptr(x, acc::if_present): takes an acc::array, acc::view or acc::section");
  using T = std::remove_pointer_t<decltype(x.data())>;
  const detail::call_site site{"deviceptr", where};
  return static_cast<T*>(detail::device_address(detail::span_of(x, site), true, site, true));
}
/// The device address of host address p, inside any present range (an ACC_DECLARE array
/// decays to this form).
template <class T>
T* deviceptr(T* p, std::source_location where = std::source_location::current()) {
  return static_cast<T*>(detail::device_address(detail::host_span{p, 0}, false, {"deviceptr", where}));
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
