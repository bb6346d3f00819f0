//! @file The checks every construct makes of its body: a lambda nvcc can launch, and index parameters that hold every index.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail {

// ---- the body's parameter types --------------------------------------------------------------

/// The parameter types of a callable with one non-template call operator (a lambda with typed
/// parameters, a functor); `known` is false for generic lambdas and overloaded functors, whose
/// parameter types the call itself picks (they always receive the extent's own index type).
template <class M> struct call_signature { static constexpr bool known = false; };
template <class R, class C, class... A>
struct call_signature<R (C::*)(A...) const> { static constexpr bool known = true; using params = std::tuple<A...>; };
template <class R, class C, class... A>
struct call_signature<R (C::*)(A...)> { static constexpr bool known = true; using params = std::tuple<A...>; };
template <class R, class C, class... A>
struct call_signature<R (C::*)(A...) const noexcept> { static constexpr bool known = true; using params = std::tuple<A...>; };
template <class R, class C, class... A>
struct call_signature<R (C::*)(A...) noexcept> { static constexpr bool known = true; using params = std::tuple<A...>; };

template <class F, class = void>
struct body_signature { static constexpr bool known = false; };
template <class F>
struct body_signature<F, std::void_t<decltype(&F::operator())>> : call_signature<decltype(&F::operator())> {};

// ---- reduction parameters --------------------------------------------------------------------

/// Whether body(leading..., reductions...) can be called, where `Leading` is a tuple of what
/// comes first (the indices of parallel_loop, the gang of parallel) and each reduction is passed
/// as `T&` (ByReference) or as a `T` prvalue.
template <class Body, class Leading, class Reds, bool ByReference> struct invocable_with_reductions;
template <class Body, class... L, class... R, bool ByReference>
struct invocable_with_reductions<Body, std::tuple<L...>, std::tuple<R...>, ByReference>
    : std::is_invocable<const Body&, L...,
                        std::conditional_t<ByReference, typename R::value_type&, typename R::value_type>...> {};

/// Whether a generic body (auto parameters) also takes its reductions as prvalues: then at least
/// one reduction parameter is a copy or a const reference (auto s, const auto& s; or auto&&,
/// which cannot be told apart from them), and would reduce nothing. A body with a known
/// signature is checked by its parameter types instead (check_body_*).
template <class Body, class Leading, class Reds>
constexpr bool reductions_by_value() {
  if constexpr (std::tuple_size_v<Reds> == 0 || body_signature<Body>::known) return false;
  else return invocable_with_reductions<Body, Leading, Reds, false>::value;
}

// ---- index parameters ------------------------------------------------------------------------

template <class E> struct is_range_extent : std::false_type {};
template <class I> struct is_range_extent<range_t<I>> : std::true_type {};

/// Whether a parameter of type P holds every index a loop over Extent produces. Counts and
/// collapse extents produce [0, max of I); a range of signed I any value of I, negatives too.
/// So int over long would wrap, unsigned over range(-5, 5) too; long over int, std::size_t
/// over an int count, and double over int are exact. A class parameter (a user's index type)
/// decides its own conversion.
template <class P, class Extent>
constexpr bool index_param_fits() {
  using I = typename extent_traits<Extent>::index_type;
  using L = std::numeric_limits<I>;
  if constexpr (!std::is_arithmetic_v<P>) {
    return true;
  } else if constexpr (std::is_same_v<P, bool>) {
    return false;
  } else if constexpr (std::is_floating_point_v<P>) {
    return std::numeric_limits<P>::digits >= L::digits;
  } else {
    // Both maxima are positive; a minimum only matters for a range of a signed type.
    using U = unsigned long long;
    return U(std::numeric_limits<P>::max()) >= U(L::max()) &&
           (!is_range_extent<Extent>::value || !std::is_signed_v<I> ||
            (std::is_signed_v<P> && static_cast<long long>(std::numeric_limits<P>::min()) <= static_cast<long long>(L::min())));
  }
}

template <class Params, std::size_t K, bool InRange = (K < std::tuple_size_v<Params>)>
struct param_at {
  using type = void;
};
template <class Params, std::size_t K>
struct param_at<Params, K, true> {
  using type = std::remove_cvref_t<std::tuple_element_t<K, Params>>;
};

/// The first of the first Rank parameter types in Params that cannot hold the extent's indices
/// (Rank when all can): a function of the parameter types alone, so that bodies of the same
/// signature share its instantiation.
template <class Extent, class Params, class Dims>
struct first_narrow_param;
template <class Extent, class Params, std::size_t... D>
struct first_narrow_param<Extent, Params, std::index_sequence<D...>> {
  static constexpr std::size_t value = [] {
    constexpr bool fits[] = {index_param_fits<typename param_at<Params, D>::type, Extent>()..., false};
    std::size_t d = 0;
    while (fits[d]) ++d;
    return d;
  }();
};

/// The first of the body's Rank index parameters that cannot hold the extent's indices
/// (`void` when all can, or when the body's parameters are generic or not indices).
template <class Body, class Extent>
struct narrow_index_param {
  using type = void;
};
template <class Body, class Extent>
  requires(body_signature<Body>::known && !std::is_void_v<Extent>)
struct narrow_index_param<Body, Extent> {
  using Params = typename body_signature<Body>::params;
  static constexpr std::size_t rank = extent_traits<Extent>::rank;
  static constexpr std::size_t first = first_narrow_param<Extent, Params, std::make_index_sequence<rank>>::value;
  using type = typename std::conditional_t<first == rank, std::type_identity<void>, param_at<Params, first>>::type;
};

// ---- reduction parameters --------------------------------------------------------------------

/// How many parameters come before a body's reduction variables: the indices of the extent,
/// or the gang for acc::parallel (Extent void).
template <class Extent>
constexpr std::size_t lead_param_count() {
  if constexpr (std::is_void_v<Extent>) return 1;
  else return extent_traits<Extent>::rank;
}

/// Whether a loop body can also be called with its indices alone (never a region's body: the
/// gang is a type body_checks does not see).
template <class Body, class Extent>
constexpr bool takes_indices_alone() {
  if constexpr (std::is_void_v<Extent>) return false;
  else return invocable_with_rank_v<Body, typename extent_traits<Extent>::index_type, extent_traits<Extent>::rank>;
}

/// Whether every parameter after the lead ones is a non-const lvalue reference. Those are the
/// reduction variables (a construct with reduction clauses calls body(lead..., T&...)), and a
/// copy or a const T& would compile and reduce nothing. True for generic bodies, whose
/// parameter types the call picks, and for bodies that also take the lead parameters alone
/// (no reduction clauses: extra parameters have default arguments).
template <class Body, class Extent>
constexpr bool reductions_by_reference() {
  constexpr std::size_t lead = lead_param_count<Extent>();
  if constexpr (!body_signature<Body>::known) {
    return true;
  } else {
    using Params = typename body_signature<Body>::params;
    constexpr std::size_t count = std::tuple_size_v<Params>;
    if constexpr (count <= lead) {
      return true;
    } else if constexpr (takes_indices_alone<Body, Extent>()) {
      return true;
    } else {
      return []<std::size_t... K>(std::index_sequence<K...>) {
        return ((std::is_lvalue_reference_v<std::tuple_element_t<lead + K, Params>> &&
                 !std::is_const_v<std::remove_reference_t<std::tuple_element_t<lead + K, Params>>>) &&
                ...);
      }(std::make_index_sequence<count - lead>{});
    }
  }
}

// ---- lambdas a kernel can take ---------------------------------------------------------------

#if defined(ACC_DETAIL_CUDA)
/// Whether T is a lambda's closure type, read from the type's name as the compiler spells it
/// ("lambda [](int)->void" in nvcc's front end, "main()::<lambda(int)>" in g++): no trait tells
/// a lambda from a functor, and nvcc only lets extended lambdas (ACC_LAMBDA) into kernels. Only
/// T's own name counts, not its template arguments: a class template over a lambda type (a
/// functor wrapping an ACC_LAMBDA) is a class.
template <class T>
constexpr bool closure_type_named() {
  const char* s = __PRETTY_FUNCTION__;
  // T's name follows "T = " (g++) or "T=" (nvcc's front end).
  while (*s && !(s[0] == 'T' && (s[1] == '=' || (s[1] == ' ' && s[2] == '=')))) ++s;
  constexpr char word[] = "lambda";
  const auto lambda_at = [&](const char* p) {
    std::size_t k = 0;
    while (k < 6 && p[k] == word[k]) ++k;
    return k == 6 && (p[6] == ' ' || p[6] == '(');
  };
  // Template argument lists open around s, and which of them are g++'s "<lambda(...)>", a
  // closure's own name rather than a list (bit k of `own`: the list opened k + 1 levels down).
  int depth = 0;
  unsigned long long own = 0, level = 0;
  for (; *s; ++s) {
    if (s[0] == '-' && s[1] == '>') {
      ++s;  // "->void": a return type, not a closing bracket
    } else if (*s == '<') {
      // g++'s closure name "::<lambda(": not nvcc's "shifted<lambda [](int)->void>", a list.
      const bool closure = s[-1] == ':' && lambda_at(s + 1) && s[7] == '(';
      own = (own << 1) | (closure ? 1 : 0);
      ++level;
      if (!closure) ++depth;
    } else if (*s == '>' && level > 0) {
      if (!(own & 1)) --depth;
      own >>= 1;
      --level;
    } else if (depth == 0 && lambda_at(s)) {
      return true;
    }
  }
  return false;
}

/// A `[=] __device__` lambda: the host cannot call it, and acc runs every body on the host too.
template <class Body>
inline constexpr bool is_device_only_lambda_v = __nv_is_extended_device_lambda_closure_type(Body);

/// A body nvcc can instantiate a kernel with: an ACC_LAMBDA (an extended lambda) or a class.
template <class Body>
constexpr bool kernel_body() {
  if constexpr (__nv_is_extended_host_device_lambda_closure_type(Body) || __nv_is_extended_device_lambda_closure_type(Body))
    return true;
  else
    return !closure_type_named<Body>();
}
template <class Body>
inline constexpr bool kernel_body_v = kernel_body<Body>();
#else
template <class Body>
inline constexpr bool is_device_only_lambda_v = false;
template <class Body>
inline constexpr bool kernel_body_v = true;
#endif

/// Whether a construct can copy its body, as every construct does (to its gangs, to the
/// device). nvcc's device pass copies no body, and asking there has it define every closure's
/// copy constructor for the device (3.7 M instructions of cicc a construct, bench/compile), so
/// only the host pass asks: a body that cannot be copied compiles in the device pass and the
/// host pass reports it.
template <class Body>
#if defined(ACC_DETAIL_DEVICE_PASS)
inline constexpr bool body_copyable_v = true;
#else
inline constexpr bool body_copyable_v = std::is_copy_constructible_v<Body>;
#endif

// ---- the checks, one function per construct ---------------------------------------------------

// static_assert messages are literals, so a message that names the two types needs one
// static_assert per pair of standard types. They are written once, here, and reached only from
// a check that failed: each construct's own message says what is wrong and the pair's message
// below names the types. Expanded in each construct's check instead, the pairs would be most of
// the text that every translation unit parses (bench/results/compile.txt).
#define ACC_DETAIL_NARROW(P, I)                                                                       \
  static_assert(!(std::is_same_v<Param, P> && std::is_same_v<Index, I>),                              \
                "acc: the body takes its index as " #P " but the extent's index type is " #I            \
                "; a narrower index would wrap: take " #I);
#define ACC_DETAIL_NARROW_FROM(P)                                                                     \
  ACC_DETAIL_NARROW(P, char) ACC_DETAIL_NARROW(P, signed char) ACC_DETAIL_NARROW(P, unsigned char)   \
  ACC_DETAIL_NARROW(P, short) ACC_DETAIL_NARROW(P, unsigned short) ACC_DETAIL_NARROW(P, int)         \
  ACC_DETAIL_NARROW(P, unsigned int) ACC_DETAIL_NARROW(P, long) ACC_DETAIL_NARROW(P, unsigned long)  \
  ACC_DETAIL_NARROW(P, long long) ACC_DETAIL_NARROW(P, unsigned long long)

/// Names the body's index type and the extent's in a static_assert (for the standard
/// arithmetic types; any other pair is described by the construct's own message alone).
template <class Param, class Index>
constexpr bool name_narrow_index() {
  ACC_DETAIL_NARROW_FROM(bool) ACC_DETAIL_NARROW_FROM(char) ACC_DETAIL_NARROW_FROM(signed char)
  ACC_DETAIL_NARROW_FROM(unsigned char) ACC_DETAIL_NARROW_FROM(short) ACC_DETAIL_NARROW_FROM(unsigned short)
  ACC_DETAIL_NARROW_FROM(int) ACC_DETAIL_NARROW_FROM(unsigned int) ACC_DETAIL_NARROW_FROM(long)
  ACC_DETAIL_NARROW_FROM(unsigned long) ACC_DETAIL_NARROW_FROM(long long) ACC_DETAIL_NARROW_FROM(unsigned long long)
  ACC_DETAIL_NARROW_FROM(float) ACC_DETAIL_NARROW_FROM(double)
  return false;
}

#undef ACC_DETAIL_NARROW_FROM
#undef ACC_DETAIL_NARROW

/// Whether Body's call operator is not const: a mutable lambda (nvcc's wrapper of a mutable
/// ACC_LAMBDA too). Constructs call their body through a const reference, from every thread, so
/// a mutable body fails their arity checks; those checks read this, on their failure path only,
/// to name the mistake. A generic lambda (a template call operator) reads false.
template <class F> inline constexpr bool nonconst_call_operator_v = false;
template <class C, class R, class... A> inline constexpr bool nonconst_call_operator_v<R (C::*)(A...)> = true;
template <class C, class R, class... A> inline constexpr bool nonconst_call_operator_v<R (C::*)(A...) noexcept> = true;
template <class Body>
constexpr bool mutable_body() {
  if constexpr (requires { &Body::operator(); }) return nonconst_call_operator_v<decltype(&Body::operator())>;
  else return false;
}
#define ACC_DETAIL_MUTABLE_BODY(CONSTRUCT)                                                                  \
  "acc::" CONSTRUCT ": the body is a mutable lambda (or a functor whose operator() is not const); acc "   \
  "calls it through a const reference (on a GPU every thread shares the construct's copy), so its "        \
  "captures are read-only (firstprivate): drop mutable and change a local copy (auto v = captured;)"

/// check_body_<construct><Body, Extent, Kernel>(): true, or false after a static_assert saying
/// what is wrong with the body. Kernel: the body becomes a kernel (a construct's body, not
/// acc::loop's inside one). Extent void: the body takes no indices (acc::parallel).
/// REDUCTIONS: the construct takes reduction clauses, whose variables follow the lead parameters.
#define ACC_DETAIL_BODY_CHECK(CONSTRUCT, REDUCTIONS)                                                        \
  template <class Body, class Extent, bool Kernel = true>                                                  \
  constexpr bool check_body_##CONSTRUCT() {                                                               \
    if constexpr (Kernel && !kernel_body_v<Body>) {                                                        \
      static_assert(dependent_false<Body>,                                                                 \
                    "acc::" #CONSTRUCT ": the body is a plain lambda, which nvcc cannot make a kernel of; "       \
                    "write it with ACC_LAMBDA(...) { ... } (ACC_CLASS_LAMBDA in member functions), capturing "   \
                    "by value, and capture acc::array or acc::view rather than containers by reference; an "     \
                    "ACC_LAMBDA written outside a function (at namespace scope) is a plain lambda to nvcc: "     \
                    "write it in the function that runs the construct");                                         \
      return false;                                                                                        \
    } else if constexpr (!std::is_void_v<Extent> &&                                                          \
                         !std::is_void_v<typename narrow_index_param<Body, Extent>::type>) {               \
      static_assert(dependent_false<Body>,                                                                 \
                    "acc::" #CONSTRUCT ": the body's index parameter cannot hold every index of the extent's "   \
                    "index type, so an index would wrap; take the extent's index type");                   \
      return name_narrow_index<typename narrow_index_param<Body, Extent>::type,                            \
                               typename extent_traits<Extent>::index_type>();                              \
    } else if constexpr (REDUCTIONS && !reductions_by_reference<Body, Extent>()) {                          \
      static_assert(dependent_false<Body>,                                                                 \
                    "acc::" #CONSTRUCT ": the body must take each reduction variable by reference (T&), in "      \
                    "clause order; a copy or a const T& compiles and reduces nothing");                          \
      return false;                                                                                        \
    } else {                                                                                               \
      return true;                                                                                         \
    }                                                                                                      \
  }

ACC_DETAIL_BODY_CHECK(parallel_loop, true)
ACC_DETAIL_BODY_CHECK(parallel_reduce, false)
ACC_DETAIL_BODY_CHECK(parallel_scan, false)
ACC_DETAIL_BODY_CHECK(parallel, true)
ACC_DETAIL_BODY_CHECK(serial, false)
ACC_DETAIL_BODY_CHECK(tile_loop, false)
ACC_DETAIL_BODY_CHECK(loop, false)
ACC_DETAIL_BODY_CHECK(loop_reduce, false)
ACC_DETAIL_BODY_CHECK(loop_scan, false)

#undef ACC_DETAIL_BODY_CHECK

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
