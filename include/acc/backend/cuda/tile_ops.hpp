//! @file CUDA backend of the operations inside a tile (cached views, tile_for, tile_barrier,
//! per_iteration, acc::cache): each thread of the gang is one iteration of the tile, cached
//! ranges live in shared memory, and acc::cache loads cooperatively. detail/tile_ops.hpp picks
//! these in nvcc's device pass (backend/host/tile_ops.hpp, the same members, elsewhere).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/detail/tile_box.hpp>
#include <acc/detail/tile_range.hpp>
#include <acc/detail/tile_sections.hpp>
#include <acc/detail/tile_state.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>

namespace acc::detail::cuda {

struct tile_ops {
  /// This thread's position in the tile: dimension Rank-1 is threadIdx.x; the step to its next
  /// position in a loop over a box is the gang's extent.
  template <std::size_t Rank>
  __device__ static int thread_pos(std::size_t d) {
    const std::size_t axis = Rank - 1 - d;
    return static_cast<int>(axis == 0 ? threadIdx.x : axis == 1 ? threadIdx.y : threadIdx.z);
  }
  template <std::size_t Rank>
  __device__ static int thread_step(std::size_t d) {
    const std::size_t axis = Rank - 1 - d;
    return static_cast<int>(axis == 0 ? blockDim.x : axis == 1 ? blockDim.y : blockDim.z);
  }

  __device__ static void sync() { __syncthreads(); }

  /// Element (i...) of a cached view with storage p (element `origin`), strides in elements.
  /// Shared memory: offsets fit in 32 bits, and unsigned arithmetic wraps to the right value.
  /// The last dimension's stride is 1. With int indices (when an access is valid, the origins
  /// fit an int too) its term is added in signed arithmetic to a row offset that excludes
  /// nothing variable: v(i, k0 + k) for an unrolled k is then one address plus immediate
  /// offsets, and four of them one 16-byte load when the compiler can prove the alignment, as
  /// for a hand-written `float as[16][16]`. p by reference: a view kept in local memory
  /// (bounds-checking builds) is then read after the offset is computed, not before.
  template <class T, std::size_t Rank, class... I>
  __device__ static T& element(T* const& p, const std::int64_t* origin, const std::int64_t* stride, I... i) {
    if constexpr (((sizeof(I) < sizeof(int) || (sizeof(I) == sizeof(int) && std::is_signed_v<I>)) && ...)) {
      const int ii[] = {static_cast<int>(i)...};
      unsigned rows = 0;
      for (std::size_t d = 0; d + 1 < Rank; ++d)
        rows += (static_cast<unsigned>(ii[d]) - static_cast<unsigned>(origin[d])) * static_cast<unsigned>(stride[d]);
      const int row = static_cast<int>(rows) - static_cast<int>(origin[Rank - 1]);
      return p[row + ii[Rank - 1]];
    } else {
      const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
      unsigned off = 0;
      for (std::size_t d = 0; d < Rank; ++d)
        off += (static_cast<unsigned>(idx[d]) - static_cast<unsigned>(origin[d])) * static_cast<unsigned>(stride[d]);
      return p[static_cast<int>(off)];
    }
  }

#if defined(ACC_BOUNDS_CHECK)
  __device__ static void cache_index_error(const char* label, std::size_t dim, long long index, long long lo,
                                           long long hi) {
    printf("acc: index %lld of dimension %llu of %s%s%s is outside its cached range [%lld, %lld)\n", index,
           (unsigned long long)dim, label && label[0] ? "'" : "a cached array", label && label[0] ? label : "",
           label && label[0] ? "'" : "", lo, hi);
    __trap();
  }
#endif

  /// Takes `need` bytes of acc::cache's area after `used` of `total`, even when they do not
  /// fit: acc::cache then loads nothing, and check_cache_room reports it at the next tile_for,
  /// tile_barrier or the end of the tile, so that the check costs no branch per call. The
  /// launch checked that the area fits the device: a 32-bit bound.
  __device__ static bool take_room(std::size_t& used, std::size_t need, std::size_t total) {
    const std::size_t end = used + need;
    used = end;
    return end <= 0xffffffffu && static_cast<unsigned>(end) <= static_cast<unsigned>(total);
  }

  /// At the tile_for, tile_barrier or tile end that follows acc::cache calls whose views did
  /// not fit the area (they loaded nothing): the report and a trap.
  template <std::size_t R, class I>
  __device__ static void check_cache_room(const tile_t<R, I>& t) {
    if (tile_access::overflowed(t)) {
      printf("acc::cache: the views made since the last tile_for take %llu bytes (each rounded up to 16), more than "
             "the %llu that acc::cache_bytes gave the tile_loop\n",
             (unsigned long long)tile_access::cache_used(t), (unsigned long long)tile_access::cache_bytes(t));
      __trap();
    }
  }

  [[noreturn]] __device__ static void cache_bad_range(long long a, long long b) {
    printf("acc::cache: a range is negative (halo before/after or fixed count: %lld, %lld)\n", a, b);
    __trap();
    __builtin_unreachable();
  }

  __device__ static void cache_in_tile_for() {
    printf("acc::cache: called inside acc::tile_for; acc::cache is tile-level code that every thread of the gang "
           "runs: call it before the tile_for and read its view inside\n");
    __trap();
  }

  /// tile_for or tile_barrier (`what`) inside a tile_for's function, where only the iterations
  /// inside the extent run it: their barrier would wait for threads that never reach it.
  __device__ static void tile_level_in_tile_for(const char* what) {
    printf("%s: called inside acc::tile_for; it is tile-level code that every thread of the gang runs: call it after "
           "the tile_for returns\n",
           what);
    __trap();
  }

  /// An acc::cache view that does not fit the area is reported later, by check_cache_room.
  static constexpr bool overflow_at_call = false;

  /// f(i[, j[, k]]) for this thread's iteration of the tile, if it is inside the extent. No barrier.
  template <std::size_t R, class I, class F>
  __device__ static void for_tile_iterations(const tile_t<R, I>& t, const F& f) {
    bool inside = true;
    for (std::size_t d = 0; d < R; ++d) inside = inside && thread_pos<R>(d) < t.count(d);
    if (inside) {
      if constexpr (R == 1) f(index_at(t.origin(0), thread_pos<R>(0)));
      else if constexpr (R == 2) f(index_at(t.origin(0), thread_pos<R>(0)), index_at(t.origin(1), thread_pos<R>(1)));
      else
        f(index_at(t.origin(0), thread_pos<R>(0)), index_at(t.origin(1), thread_pos<R>(1)),
          index_at(t.origin(2), thread_pos<R>(2)));
    }
  }

  /// per_iteration's storage: the value itself, as each thread runs one iteration.
  template <std::size_t R, class I, class T>
  __device__ static void iteration_storage(const tile_t<R, I>&, const T&, per_iteration_array<T>&) {}
  template <class T>
  __device__ static void release_iteration_storage(per_iteration_array<T>&) {}
  /// per_iteration arrays held in team memory: none, the values are registers.
  template <std::size_t R, class I>
  __device__ static std::size_t iteration_slots(const tile_t<R, I>&) {
    return 0;
  }
  template <class T, class... I>
  __device__ static T& iteration_value(T& value, const per_iteration_array<T>&, I...) {
    return value;
  }
  /// per_iteration indexed with `given` indices in a tile of rank `rank`: each thread would
  /// still get its own value, but the host gets them wrong, so the GPU refuses them too.
  __device__ static void iteration_rank_error(std::size_t given, int rank) {
    printf("acc::per_iteration: %llu %s in a tile of rank %d; give one index per dimension of the tile\n",
           (unsigned long long)given, given == 1 ? "index" : "indices", rank);
    __trap();
  }

  /// acc::cache(t, a, ranges...): the view of a's range in the tile's area, loaded. A box of
  /// the gang's shape (acc::cache of a tile-sized block, the usual case) is loaded as
  /// hand-written kernels do: the thread at position p of the gang loads element origin + p if
  /// it lies in the array, a predicated load and store with no loop (gang_shaped,
  /// thread_element). Other boxes take the general loop; a box of lower rank than the tile
  /// (tile_dim names the tile dimension each halo range follows) is spread over all the gang's
  /// threads. Nothing is loaded without room.
  template <class T, std::size_t Ra, std::size_t R, class I, class A>
  __device__ static cached_view<T, Ra> cache_one(const tile_t<R, I>& t, const A& a, const dim_range* range,
                                                 const int* tile_dim) {
    const cache_piece<Ra> piece = place_in_cache<tile_ops, Ra>(t, a, range, tile_dim);
    using U = std::remove_cv_t<T>;
    // No barrier before: the area is reused only after a tile_for, whose barrier ended the reads
    // of the earlier views. None after: the next tile_for or tile_barrier waits for the loads
    // (and reports a view that did not fit). The area is 16-byte aligned, as the views' pieces.
    U* storage = cache_storage<U>(t, piece.at);
    load_piece<Ra>(t, a, storage, piece);
    tile_access::set_load_pending(t);
    return view_on<T, Ra>(storage, piece.box, nullptr);
  }

  /// acc::cache(t, acc::section(a, ...), ...): the sections' views, as N single calls; when
  /// every section has the gang's shape (and every piece fits), each thread loads all its
  /// elements before it stores any (load_gang_shaped). Sections of lower rank than the tile
  /// follow its trailing dimensions.
  template <std::size_t R, class I, class... S, std::size_t... K>
  __device__ static auto cache_sections(const tile_t<R, I>& t, std::index_sequence<K...>, const S&... s) {
    using views = cached_views_t<typename section_view<S>::type...>;
    if constexpr (((section_rank<S>::value == R) && ...)) {
      // In order (a braced list), as N single calls: the same pieces, the same overflow report.
      const cache_piece<R> piece[] = {place_in_cache<tile_ops, R>(t, s.source, s.range, nullptr)...};
      int gang[R];
      for (std::size_t d = 0; d < R; ++d) gang[d] = t.size(d);
      const bool shaped = (gang_shaped<R>(s.source, piece[K].box, gang) & ...);
      const bool room = (piece[K].room & ...);
      if (shaped & room) {
        load_gang_shaped<R, 0>(t, piece, s...);
      } else {
        (cache_load<R>(s.source, cache_storage<std::remove_cv_t<typename section_view<S>::element_type>>(t, piece[K].at),
                       piece[K].box, gang, piece[K].room),
         ...);
      }
      tile_access::set_load_pending(t);
      return views{pack_views(view_on<typename section_view<S>::element_type, R>(
          cache_storage<std::remove_cv_t<typename section_view<S>::element_type>>(t, piece[K].at), piece[K].box,
          nullptr)...)};
    } else {
      view_pack<cache_piece<section_rank<S>::value>...> piece{};
      // In order (a comma fold), as N single calls.
      ((pack_get<K>(piece) = place_in_cache<tile_ops, section_rank<S>::value>(
            t, s.source, s.range, trailing_dims<R, section_rank<S>::value>().d)),
       ...);
      (load_piece<section_rank<S>::value>(
           t, s.source, cache_storage<std::remove_cv_t<typename section_view<S>::element_type>>(t, pack_get<K>(piece).at),
           pack_get<K>(piece)),
       ...);
      tile_access::set_load_pending(t);
      return views{pack_views(view_on<typename section_view<S>::element_type, section_rank<S>::value>(
          cache_storage<std::remove_cv_t<typename section_view<S>::element_type>>(t, pack_get<K>(piece).at),
          pack_get<K>(piece).box, nullptr)...)};
    }
  }

private:
  /// The storage of a view at byte `at` of the tile's acc::cache area (16-byte aligned, as the
  /// area and the pieces). An offset, not a pointer with a null case: the pointer must be
  /// visibly derived from shared memory, or the compiler emits generic loads.
  template <class U, std::size_t R, class I>
  __device__ static U* cache_storage(const tile_t<R, I>& t, std::size_t at) {
    return static_cast<U*>(__builtin_assume_aligned(tile_access::cache_area(t) + at, 16));
  }

  /// Whether acc::cache's box b of array a takes the one-element-per-thread load: it has the
  /// gang's shape, the array's extents are below 2^31 and the origin fits an int (then
  /// unsigned origin + p, wrapped, is below an extent exactly when the global index is inside it).
  template <std::size_t R, class A>
  __device__ static bool gang_shaped(const A& a, const cache_box<R>& b, const int* gang) {
    // Not short-circuit: cheap tests the compiler can hoist out of a loop around acc::cache.
    bool shaped = true;
    for (std::size_t d = 0; d < R; ++d)
      shaped = shaped & (b.ext[d] == gang[d]) & ((a.extent(d) >> 31) == 0) & (b.origin[d] == static_cast<int>(b.origin[d]));
    return shaped;
  }

  /// This thread's element of a gang_shaped box: its global indices g, its offset in storage
  /// `off`, and whether it lies in the array (32-bit arithmetic).
  template <std::size_t R, class A>
  __device__ static bool thread_element(const A& a, const cache_box<R>& b, unsigned* g, int& off) {
    bool mine = true;
    off = 0;
    for (std::size_t d = 0; d < R; ++d) {
      const int p = thread_pos<R>(d);
      g[d] = static_cast<unsigned>(b.origin[d]) + static_cast<unsigned>(p);
      mine = mine && g[d] < static_cast<unsigned>(a.extent(d));
      off = off * static_cast<int>(b.ext[d]) + p;
    }
    return mine;
  }

  /// One acc::cache piece's load: of the tile's rank, as cache_load; of lower rank, its
  /// elements spread over every thread of the gang, in row-major order.
  template <std::size_t Ra, std::size_t R, class I, class A, class U>
  __device__ static void load_piece(const tile_t<R, I>& t, const A& a, U* storage, const cache_piece<Ra>& piece) {
    if constexpr (Ra == R) {
      int gang[R];
      for (std::size_t d = 0; d < R; ++d) gang[d] = t.size(d);
      cache_load<R>(a, storage, piece.box, gang, piece.room);
    } else if (piece.room) {
      const unsigned tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
      load_box_spread<Ra>(a, storage, piece.box, tid, blockDim.x * blockDim.y * blockDim.z);
    }
  }

  /// One view's load: one element per thread for a gang_shaped box, else the general loop;
  /// nothing without room.
  template <std::size_t R, class A, class U>
  __device__ static void cache_load(const A& a, U* storage, const cache_box<R>& b, const int* gang, bool room) {
    if (room && gang_shaped<R>(a, b, gang)) {
      unsigned g[R];
      int off = 0;
      if (thread_element<R>(a, b, g, off)) storage[off] = element_at(a, g, std::make_index_sequence<R>{});
    } else if (room) {
      load_box<R, tile_ops>(a, storage, b);
    }
  }

  /// The list form's load when every section has the gang's shape: each thread loads its
  /// element of every section into a register (a predicated load per section, no branch
  /// between them), then stores them all, so that the loads' latencies overlap, as a
  /// hand-written kernel's `if (..) as[ty][tx] = a[..]; if (..) bs[ty][tx] = b[..];` does.
  /// Recursive: section K's load, the rest's loads and stores, section K's store.
  template <std::size_t R, std::size_t K, class I, class S, class... Rest>
  __device__ static void load_gang_shaped(const tile_t<R, I>& t, const cache_piece<R>* piece, const S& s,
                                          const Rest&... rest) {
    using U = std::remove_cv_t<typename section_view<S>::element_type>;
    // Holds the element without asking U for a default constructor.
    union slot {
      char none;
      U value;
    } v{0};
    unsigned g[R];
    int off = 0;
    const bool mine = thread_element<R>(s.source, piece[K].box, g, off);
    if (mine) v.value = element_at(s.source, g, std::make_index_sequence<R>{});
    if constexpr (sizeof...(Rest) > 0) load_gang_shaped<R, K + 1>(t, piece, rest...);
    if (mine) cache_storage<U>(t, piece[K].at)[off] = v.value;
  }
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
