//! @file The scanned type of a scan body(i, T& partial, bool final), shared by acc::parallel_scan
//! (scan.hpp) and acc::loop_scan (gang.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <type_traits>

namespace acc::detail {

/// What a body whose partial is not a reference, body(i, long partial, bool final), scans: its
/// updates would be lost with the copy, so the scans reject it by this type.
struct partial_by_value {};

template <class F> struct partial_param { using type = void; };
template <class C, class R, class I, class T, class B>
struct partial_param<R (C::*)(I, T&, B) const> { using type = T; };
template <class C, class R, class I, class T, class B>
struct partial_param<R (C::*)(I, T&, B)> { using type = T; };
template <class C, class R, class I, class T, class B>
struct partial_param<R (C::*)(I, T&, B) const noexcept> { using type = T; };
template <class C, class R, class I, class T, class B>
struct partial_param<R (C::*)(I, T&, B) noexcept> { using type = T; };
template <class C, class R, class I, class T, class B>
struct partial_param<R (C::*)(I, T, B) const> { using type = partial_by_value; };
template <class C, class R, class I, class T, class B>
struct partial_param<R (C::*)(I, T, B)> { using type = partial_by_value; };
template <class C, class R, class I, class T, class B>
struct partial_param<R (C::*)(I, T, B) const noexcept> { using type = partial_by_value; };
template <class C, class R, class I, class T, class B>
struct partial_param<R (C::*)(I, T, B) noexcept> { using type = partial_by_value; };

/// T of a body(i, T& partial, bool final) that is not generic (nvcc's extended lambdas
/// included: their wrapper's call operator keeps the signature); void when it cannot be told.
template <class Body, class = void>
struct body_partial { using type = void; };
template <class Body>
struct body_partial<Body, std::void_t<decltype(&Body::operator())>> {
  using type = typename partial_param<decltype(&Body::operator())>::type;
};

/// The scanned type: the explicit template argument, else the body's partial parameter's.
template <class Explicit, class Body>
using scan_value_t = std::conditional_t<std::is_void_v<Explicit>, typename body_partial<Body>::type, Explicit>;

/// Whether the body's signature shows its partial taken by value.
template <class Body>
inline constexpr bool partial_by_value_v = std::is_same_v<typename body_partial<Body>::type, partial_by_value>;

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
