//! @file acc::array (owning) and acc::view (over user memory): what compute constructs capture.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/array_ops.hpp>
#include <acc/detail/array_owner.hpp>
#include <acc/detail/capture.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/error.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <source_location>
#include <string>
#include <string_view>
#include <type_traits>

#if defined(ACC_BOUNDS_CHECK) && defined(ACC_DETAIL_CUDA)
#  include <cstdio>
#endif

namespace acc {

template <class T, std::size_t Rank = 1>
class view;
template <class T, std::size_t Rank = 1>
class array;

namespace detail {

template <class... I>
inline constexpr bool all_integral_v = ((std::is_integral_v<I> && !std::is_same_v<I, bool>) && ...);

/// Element types whose const views return values rather than references (the CUDA backend
/// then reads them through the read-only data cache).
template <class T>
inline constexpr bool read_only_load_v =
    std::is_const_v<T> && std::is_arithmetic_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool> &&
    !std::is_same_v<std::remove_cv_t<T>, long double> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);

/// The element count of extents ext[0..rank), or acc::bad_clause at the user's line when an
/// extent is negative (it would wrap to a huge size_t) or the bytes overflow std::size_t.
template <class... N>
std::size_t checked_extents(std::size_t* ext, std::size_t elem, const char* what, std::string_view label,
                            const std::source_location& where, N... extents) {
  const auto named = [&] { return label.empty() ? std::string("the ") + what : "'" + std::string(label) + "'"; };
  std::size_t d = 0;
  const auto one = [&](auto e) {
    if constexpr (std::is_signed_v<decltype(e)>)
      if (e < 0)
        fail<bad_clause>(call_site{what, where},
                         "extent " + std::to_string(e) + " of dimension " + std::to_string(d) + " of " + named() +
                             " is negative; extents count elements, from 0");
    ext[d++] = static_cast<std::size_t>(e);
  };
  (one(extents), ...);
  std::size_t n = 1;
  for (d = 0; d < sizeof...(N); ++d) {
    if (ext[d] != 0 && n > SIZE_MAX / elem / ext[d]) {
      std::string dims;
      for (std::size_t k = 0; k < sizeof...(N); ++k) dims += (k ? " x " : "") + std::to_string(ext[k]);
      fail<bad_clause>(call_site{what, where},
                       "the extents " + dims + " of " + named() + " make more than SIZE_MAX bytes of " +
                           std::to_string(elem) + "-byte elements");
    }
    n *= ext[d];
  }
  return n;
}

struct checked_extents_t {};

/// Extents a view or array constructor accepts: one integer per dimension.
template <std::size_t Rank, class... N>
inline constexpr bool extent_args_v = sizeof...(N) == Rank && all_integral_v<N...>;

/// Arguments an acc::array constructor takes: extents, a label and extents, or another array.
template <class Array, std::size_t Rank, class... A>
inline constexpr bool array_args_v = [] {
  if constexpr (sizeof...(A) == 1 && (std::is_base_of_v<Array, std::remove_cvref_t<A>> && ...)) {
    return true;
  } else if constexpr (extent_args_v<Rank, std::remove_cvref_t<A>...>) {
    return true;
  } else if constexpr (sizeof...(A) == Rank + 1) {
    return []<class L, class... N>(std::type_identity<L>, std::type_identity<N>...) {
      return std::is_convertible_v<L, std::string_view> && all_integral_v<std::remove_cvref_t<N>...>;
    }(std::type_identity<A>{}...);
  } else {
    return false;
  }
}();

}  // namespace detail

/// A rank-1 to rank-3 row-major view of memory the caller owns; copying it is cheap, and it
/// is what compute constructs capture (OpenACC 3.3 §2.6.2: captured arrays get implicit data).
/// - Inside a construct running on a GPU, v(i, j) reads the device copy; on the host, the
///   host memory; `acc::view<const T>` is read-only and uses read-only loads on the GPU.
/// - The label, if given, names the view in errors; it must outlive the view (a literal).
/// e.g. acc::view<double, 2> m(p, ni, nj); acc::parallel_loop(acc::collapse(ni, nj), ACC_LAMBDA(int i, int j) { m(i, j) = 0; });
template <class T, std::size_t Rank>
class view {
  static_assert(Rank >= 1 && Rank <= 3, "acc::view: the rank must be 1, 2 or 3; write acc::view<T, 2> for a matrix");
  static_assert(std::is_trivially_copyable_v<T>,
                "acc::view: the element type must be trivially copyable, as it is copied to the device "
                "byte by byte; use plain structs of numbers");

public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  /// Elements of const arithmetic views are returned by value (read-only loads on the GPU).
  using reference = std::conditional_t<detail::read_only_load_v<T>, value_type, T&>;
  using size_type = std::size_t;

  static constexpr std::size_t rank() noexcept { return Rank; }

  view() = default;

  /// A view of `extents...` elements at `p` (host memory; in device code, global device memory,
  /// never team memory or a local array: GPU code assumes a view's elements are global, which
  /// keeps them in registers beside team memory; g.shared<T>(n0, n1) gives a cached_view),
  /// row-major: view(p, n), view(p, ni, nj), view(p, ni, nj, nk). A negative extent, or one
  /// whose bytes overflow std::size_t, throws acc::bad_clause naming this line.
  template <class N0>
    requires(detail::extent_args_v<Rank, N0>)
  ACC_DETAIL_HD view(T* p, N0 n0, std::source_location where = std::source_location::current())
      : view(detail::checked_extents_t{}, nullptr, p, where, n0) {}
  template <class N0, class N1>
    requires(detail::extent_args_v<Rank, N0, N1>)
  ACC_DETAIL_HD view(T* p, N0 n0, N1 n1, std::source_location where = std::source_location::current())
      : view(detail::checked_extents_t{}, nullptr, p, where, n0, n1) {}
  template <class N0, class N1, class N2>
    requires(detail::extent_args_v<Rank, N0, N1, N2>)
  ACC_DETAIL_HD view(T* p, N0 n0, N1 n1, N2 n2, std::source_location where = std::source_location::current())
      : view(detail::checked_extents_t{}, nullptr, p, where, n0, n1, n2) {}

  /// As above, named `label` in errors (a string that outlives the view, e.g. a literal).
  template <class N0>
    requires(detail::extent_args_v<Rank, N0>)
  ACC_DETAIL_HD view(const char* label, T* p, N0 n0, std::source_location where = std::source_location::current())
      : view(detail::checked_extents_t{}, label, p, where, n0) {}
  template <class N0, class N1>
    requires(detail::extent_args_v<Rank, N0, N1>)
  ACC_DETAIL_HD view(const char* label, T* p, N0 n0, N1 n1,
                     std::source_location where = std::source_location::current())
      : view(detail::checked_extents_t{}, label, p, where, n0, n1) {}
  template <class N0, class N1, class N2>
    requires(detail::extent_args_v<Rank, N0, N1, N2>)
  ACC_DETAIL_HD view(const char* label, T* p, N0 n0, N1 n1, N2 n2,
                     std::source_location where = std::source_location::current())
      : view(detail::checked_extents_t{}, label, p, where, n0, n1, n2) {}

  // Any other argument list: say what a view takes.
  template <class... N>
    requires(!detail::extent_args_v<Rank, N...>)
  ACC_DETAIL_HD view(T*, N...) {
    static_assert(detail::extent_args_v<Rank, N...>,
                  "acc::view: give one integer extent per dimension after the pointer, e.g. "
                  "acc::view<double, 2> m(p, ni, nj)");
  }
  template <class... N>
    requires(!detail::extent_args_v<Rank, N...>)
  ACC_DETAIL_HD view(const char*, T*, N...) {
    static_assert(detail::extent_args_v<Rank, N...>,
                  "acc::view: give one integer extent per dimension after the pointer, e.g. "
                  "acc::view<double, 2> m(\"m\", p, ni, nj)");
  }

  /// The capture hook (style.md §4): inside a compute construct's copy of its body, tells the
  /// construct which data it uses. Elsewhere, and on the device, a plain copy. noexcept:
  /// nvcc's wrapper of an extended lambda copies the captures several times where the lambda
  /// is written, and copies that cannot throw need no clean-up code there.
  ACC_DETAIL_HOST_NOINLINE ACC_DETAIL_HD view(const view& o) noexcept : host_(o.host_), dev_(o.dev_), label_(o.label_) {
    for (std::size_t d = 0; d < Rank; ++d) ext_[d] = o.ext_[d];
#if defined(ACC_BOUNDS_CHECK)
    copy_label(o.device_label_);
#endif
    if constexpr (detail::array_ops::is_host) record_capture();
  }

  /// A read-only view of the same elements.
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  ACC_DETAIL_HOST_NOINLINE ACC_DETAIL_HD view(const view<U, Rank>& o) noexcept
      : host_(o.host_), dev_(o.dev_), label_(o.label_) {
    for (std::size_t d = 0; d < Rank; ++d) ext_[d] = o.ext_[d];
#if defined(ACC_BOUNDS_CHECK)
    copy_label(o.device_label_);
#endif
    if constexpr (detail::array_ops::is_host) record_capture();
  }

  view& operator=(const view&) = default;
  ~view() = default;

  /// Element (i[, j[, k]]), row-major; the device copy inside a GPU construct, else host memory.
  template <class... I>
  ACC_DETAIL_HD reference operator()(I... i) const {
    static_assert(sizeof...(I) == Rank, "acc::view: index with one integer per dimension: v(i) for rank 1, "
                                        "v(i, j) for rank 2, v(i, j, k) for rank 3");
    static_assert(detail::all_integral_v<I...>, "acc::view: indices must be integers");
    return load(offset(i...));
  }

  /// Element i of a rank-1 view.
  template <class I>
    requires(Rank == 1)
  ACC_DETAIL_HD reference operator[](I i) const {
    static_assert(detail::all_integral_v<I>, "acc::view: indices must be integers");
    return load(offset(i));
  }
  // v[i][j] on rank 2: a deduced return type makes the message come before the error on [j].
  template <class I>
    requires(Rank != 1)
  ACC_DETAIL_HD auto operator[](I) const {
    static_assert(Rank == 1, "acc::view: v[i] is for rank 1; write v(i, j) for rank 2");
    return 0;
  }

  ACC_DETAIL_HD std::size_t size() const noexcept {
    std::size_t n = 1;
    for (std::size_t d = 0; d < Rank; ++d) n *= ext_[d];
    return n;
  }
  ACC_DETAIL_HD bool empty() const noexcept { return size() == 0; }
  ACC_DETAIL_HD std::size_t extent(std::size_t d) const noexcept { return d < Rank ? ext_[d] : 1; }
  /// The host memory (also inside kernels: device addresses come from acc::deviceptr).
  ACC_DETAIL_HD T* data() const noexcept { return host_; }
  /// Host iteration, e.g. std::fill(v.begin(), v.end(), 0.0).
  T* begin() const noexcept { return host_; }
  T* end() const noexcept { return host_ + size(); }
  const char* label() const noexcept { return label_ ? label_ : ""; }

private:
  template <class, std::size_t>
  friend class view;
  template <class, std::size_t>
  friend class array;

  // Every public constructor ends here; extents are checked where exceptions exist (the host).
  template <class... N>
  ACC_DETAIL_HD view(detail::checked_extents_t, const char* label, T* p, const std::source_location& where,
                     N... extents)
      : host_(p), dev_(p), label_(label) {
    if constexpr (detail::array_ops::is_host) {
      detail::checked_extents(ext_, sizeof(T), "view", label ? std::string_view(label) : std::string_view(), where,
                              extents...);
    } else {
      std::size_t d = 0;
      ((ext_[d++] = static_cast<std::size_t>(extents)), ...);
    }
#if defined(ACC_BOUNDS_CHECK)
    if constexpr (detail::array_ops::is_host) keep_label();
#endif
  }

  detail::host_span span() const noexcept { return {host_, size() * sizeof(T), label_, std::is_const_v<T>}; }

  static void set_device(void* image, void* device) noexcept {
    static_cast<view*>(image)->dev_ = static_cast<T*>(device);
  }

  template <class... I>
  ACC_DETAIL_HD std::size_t offset(I... i) const {
    const std::size_t idx[] = {static_cast<std::size_t>(i)...};
#if defined(ACC_BOUNDS_CHECK)
    // A negative index wraps to a huge size_t, so one comparison per dimension catches both ends.
    for (std::size_t d = 0; d < Rank; ++d)
      if (idx[d] >= ext_[d])
        detail::array_ops::index_error(label_, device_label_, d, static_cast<long long>(idx[d]), ext_[d]);
#endif
    std::size_t k = idx[0];
    for (std::size_t d = 1; d < Rank; ++d) k = k * ext_[d] + idx[d];
    return k;
  }

  ACC_DETAIL_HD reference load(std::size_t k) const { return detail::array_ops::load<reference>(host_, dev_, k); }

  // The capture hook's work: inside a compute construct's copy of its body, record this copy.
  // Out of line: nvcc's wrapper of an extended lambda copies its captures several times where
  // the lambda is written, and each copy then costs the user's build one call, not this body.
  ACC_DETAIL_NOINLINE void record_capture() noexcept {
    if (detail::this_thread().capture) detail::record_capture({this, &set_device, span()});
  }

  T* host_ = nullptr;
  // Set in a construct's copy of the body when it runs on a GPU. Starts as the given pointer,
  // so a view made inside a kernel (over device memory) indexes that memory.
  T* dev_ = nullptr;
  std::size_t ext_[Rank] = {};
  const char* label_ = nullptr;
#if defined(ACC_BOUNDS_CHECK)
  // Kernels cannot read the host string label_ points to, so bounds-checking builds carry
  // the start of the label in the view itself, for the device's report.
  char device_label_[24] = {};
  void keep_label() noexcept {
    std::size_t k = 0;
    for (; label_ && label_[k] && k + 1 < sizeof(device_label_); ++k) device_label_[k] = label_[k];
    device_label_[k] = '\0';
  }
  ACC_DETAIL_HD void copy_label(const char (&from)[24]) noexcept {
    for (std::size_t k = 0; k < sizeof(device_label_); ++k) device_label_[k] = from[k];
  }
#endif
};

/// A rank-1 to rank-3 row-major array with host storage and a device copy made on demand
/// (OpenACC 3.3 §2.6: data clauses, implicit data). Copies are handles to the same elements,
/// cheap enough to capture; the last one frees them. Elements start value-initialised.
/// e.g. acc::array<double> t("temperature", n); acc::parallel_loop(n, ACC_LAMBDA(int i) { t(i) = 1; });
template <class T, std::size_t Rank>
class array {
  static_assert(!std::is_const_v<T>,
                "acc::array: the element type must not be const, as the array owns and fills its elements; "
                "capture an acc::view<const T> of it for read-only use");
  static_assert(std::is_trivially_copyable_v<T>,
                "acc::array: the element type must be trivially copyable, as it is copied to the device "
                "byte by byte; use plain structs of numbers");

public:
  using element_type = T;
  using value_type = T;
  using reference = T&;
  using size_type = std::size_t;

  static constexpr std::size_t rank() noexcept { return Rank; }

  array() = default;

  /// An array of `extents...` value-initialised elements: array(n), array(ni, nj),
  /// array(ni, nj, nk). A negative extent, or one whose bytes overflow std::size_t, throws
  /// acc::bad_clause naming this line.
  template <class N0>
    requires(detail::extent_args_v<Rank, N0>)
  explicit array(N0 n0, std::source_location where = std::source_location::current()) {
    init({}, where, n0);
  }
  template <class N0, class N1>
    requires(detail::extent_args_v<Rank, N0, N1>)
  explicit array(N0 n0, N1 n1, std::source_location where = std::source_location::current()) {
    init({}, where, n0, n1);
  }
  template <class N0, class N1, class N2>
    requires(detail::extent_args_v<Rank, N0, N1, N2>)
  explicit array(N0 n0, N1 n1, N2 n2, std::source_location where = std::source_location::current()) {
    init({}, where, n0, n1, n2);
  }

  /// As above, named `label` in errors and in Nsight (acc::array<double> t("temperature", n)).
  template <class N0>
    requires(detail::extent_args_v<Rank, N0>)
  array(std::string_view label, N0 n0, std::source_location where = std::source_location::current()) {
    init(label, where, n0);
  }
  template <class N0, class N1>
    requires(detail::extent_args_v<Rank, N0, N1>)
  array(std::string_view label, N0 n0, N1 n1, std::source_location where = std::source_location::current()) {
    init(label, where, n0, n1);
  }
  template <class N0, class N1, class N2>
    requires(detail::extent_args_v<Rank, N0, N1, N2>)
  array(std::string_view label, N0 n0, N1 n1, N2 n2,
        std::source_location where = std::source_location::current()) {
    init(label, where, n0, n1, n2);
  }

  // Any other argument list (not a copy): say what an array takes.
  template <class... A>
    requires(sizeof...(A) > 0 && !detail::array_args_v<array, Rank, A...>)
  array(A&&...) {
    static_assert(detail::array_args_v<array, Rank, A...>,
                  "acc::array: give one integer extent per dimension, e.g. acc::array<double, 2> m(ni, nj)");
  }

  /// Another handle to the same elements (the capture hook runs in the view member's copy). In a
  /// construct's copy of its body the handle borrows, counting nothing (detail::copy_array_owner).
  ACC_DETAIL_HOST_NOINLINE ACC_DETAIL_HD array(const array& o) noexcept : v_(o.v_), owner_(o.owner_) {
    if constexpr (detail::array_ops::is_host) owner_ = detail::copy_array_owner(o.owner_);
  }
  ACC_DETAIL_HOST_NOINLINE ACC_DETAIL_HD array(array&& o) noexcept : v_(o.v_), owner_(o.owner_) {
    if constexpr (detail::array_ops::is_host) {
      o.owner_ = nullptr;
      o.v_ = view<T, Rank>();
    }
  }
  array& operator=(array o) noexcept {
    std::swap(v_, o.v_);
    std::swap(owner_, o.owner_);
    return *this;
  }
  ACC_DETAIL_HOST_NOINLINE ACC_DETAIL_HD ~array() {
    if constexpr (detail::array_ops::is_host) detail::release_array_owner(owner_);
  }

  friend void swap(array& a, array& b) noexcept {
    std::swap(a.v_, b.v_);
    std::swap(a.owner_, b.owner_);
  }

  template <class... I>
  ACC_DETAIL_HD T& operator()(I... i) const {
    static_assert(sizeof...(I) == Rank, "acc::array: index with one integer per dimension: a(i) for rank 1, "
                                        "a(i, j) for rank 2, a(i, j, k) for rank 3");
    return v_(i...);
  }
  template <class I>
    requires(Rank == 1)
  ACC_DETAIL_HD T& operator[](I i) const {
    return v_[i];
  }
  // a[i][j] on rank 2: a deduced return type makes the message come before the error on [j].
  template <class I>
    requires(Rank != 1)
  ACC_DETAIL_HD auto operator[](I) const {
    static_assert(Rank == 1, "acc::array: a[i] is for rank 1; write a(i, j) for rank 2");
    return 0;
  }

  ACC_DETAIL_HD std::size_t size() const noexcept { return v_.size(); }
  ACC_DETAIL_HD bool empty() const noexcept { return v_.empty(); }
  ACC_DETAIL_HD std::size_t extent(std::size_t d) const noexcept { return v_.extent(d); }
  /// The host storage.
  ACC_DETAIL_HD T* data() const noexcept { return v_.data(); }
  T* begin() const noexcept { return v_.begin(); }
  T* end() const noexcept { return v_.end(); }
  const char* label() const noexcept { return v_.label(); }

  /// A view of the same elements (which does not keep them alive).
  ACC_DETAIL_HD operator view<T, Rank>() const noexcept { return v_; }
  ACC_DETAIL_HD operator view<const T, Rank>() const noexcept { return v_; }

private:
  template <class... N>
  void init(std::string_view label, const std::source_location& where, N... extents) {
    const std::size_t n = detail::checked_extents(v_.ext_, sizeof(T), "array", label, where, extents...);
    owner_ = detail::make_array_owner(n * sizeof(T), label);
    T* p = static_cast<T*>(owner_->storage);
    for (std::size_t k = 0; k < n; ++k) ::new (static_cast<void*>(p + k)) T();  // value-initialised
    v_.host_ = p;
    v_.label_ = owner_->label.empty() ? nullptr : owner_->label.c_str();
#if defined(ACC_BOUNDS_CHECK)
    v_.keep_label();
#endif
  }

  view<T, Rank> v_;
  detail::array_owner* owner_ = nullptr;
};

}  // namespace acc

#include <acc/detail/header_close.hpp>
