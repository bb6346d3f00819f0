// Mistakes a kernel cannot throw for: the GPU prints a report and traps, which the construct
// turns into acc::device_error. A trap loses the CUDA context, so each runs in a process of
// its own (on the host the same mistakes throw acc::bad_clause, tested in 08 and 12).
//   traps shared   g.shared beyond what acc::shared_bytes gave
//   traps shared_extent  g.shared<T>(n0, n1) whose extents multiply past any memory
//   traps cache    acc::cache views beyond acc::cache_bytes in tile-level code
//   traps collapse a gang loop over acc::collapse of a signed loop from below 0 and an unsigned count
//   traps per_iteration  a per_iteration indexed p(i) in a 2D tile
//   traps cache_in_tile_for  acc::cache called inside acc::tile_for
//   traps tile_for_in_tile_for  acc::tile_for called inside acc::tile_for
// Each prints "caught: ..." when acc::device_error came back, "no GPU" without a GPU.
#include <acc/parallel.hpp>

#include <cstdio>
#include <cstring>
#include <exception>

namespace {
void shared_beyond(acc::array<int> out) {
  acc::parallel(acc::num_gangs(2), acc::shared_bytes(96), ACC_LAMBDA(const acc::gang_t& g) {
    const auto a = g.shared<char>(1);
    a[0] = 1;
    g.shared<double>(12)[0] = 2;  // 16 after alignment + 96 > 96
    acc::single(g, acc::per_gang, [&] { out[0] = a[0]; });
  });
}

void shared_extent(acc::array<int> out, long long n) {
  acc::parallel(acc::num_gangs(2), acc::shared_bytes(64), ACC_LAMBDA(const acc::gang_t& g) {
    const auto a = g.shared<char>(n, n);  // n * n wraps to 0 in 64 bits
    acc::single(g, acc::per_gang, [&] { out[0] = a(1, 1); });
  });
}

void cache_beyond(acc::array<float, 2> a, acc::array<double, 2> b) {
  // 16x16 floats (1024 bytes) fit; 16x16 doubles (2048 more) do not.
  acc::tile_loop(acc::collapse(16, 16), acc::tile_size(16, 16), acc::cache_bytes(1024 + 1000),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const auto [x, y] = acc::cache(t, acc::section(a, acc::fixed(0, 16), acc::fixed(0, 16)),
                                                  acc::section(b, acc::fixed(0, 16), acc::fixed(0, 16)));
                   acc::tile_for(t, [&](int i, int j) { a(i, j) = float(x(i, j) + y(i, j)); });
                 });
}
void collapse_below_zero(acc::array<long long> out, std::size_t n) {
  acc::parallel(acc::num_gangs(2), ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang_vector, acc::collapse(acc::range(-2, 2), n),
              [&](std::size_t i, std::size_t j) { out[0] += static_cast<long long>(i + j); });
  });
}
void per_iteration_one_index(acc::array<int, 2> out) {
  acc::tile_loop(acc::collapse(8, 8), acc::tile_size(4, 4), ACC_LAMBDA(const acc::tile_t<2>& t) {
    acc::per_iteration<int> p(t);
    acc::tile_for(t, [&](int i, int) { p(i) += 1; });
    acc::tile_for(t, [&](int i, int j) { out(i, j) = p(i, j); });
  });
}
void cache_in_tile_for(acc::array<int> a, acc::array<int> out) {
  acc::tile_loop(32, acc::tile_size(8), acc::cache_bytes(4096), ACC_LAMBDA(const acc::tile_t<1>& t) {
    acc::tile_for(t, [&](int i) {
      const auto c = acc::cache(t, a, acc::halo(0, 0));
      out[i] = c(i);
    });
  });
}
void tile_for_in_tile_for(acc::array<int> out) {
  acc::tile_loop(32, acc::tile_size(8), ACC_LAMBDA(const acc::tile_t<1>& t) {
    acc::tile_for(t, [&](int i) { acc::tile_for(t, [&](int k) { out[k] = i; }); });
  });
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  if (acc::get_device_type() != acc::device_type::nvidia) {
    std::printf("no GPU: the device report is not exercised\n");
    return 0;
  }
  try {
    if (std::strcmp(argv[1], "shared") == 0) {
      acc::array<int> out("out", 1);
      shared_beyond(out);
    } else if (std::strcmp(argv[1], "shared_extent") == 0) {
      acc::array<int> out("out", 1);
      shared_extent(out, 1LL << 32);
    } else if (std::strcmp(argv[1], "cache") == 0) {
      acc::array<float, 2> a("a", 16, 16);
      acc::array<double, 2> b("b", 16, 16);
      cache_beyond(a, b);
    } else if (std::strcmp(argv[1], "collapse") == 0) {
      acc::array<long long> out("out", 1);
      collapse_below_zero(out, 3);
    } else if (std::strcmp(argv[1], "per_iteration") == 0) {
      acc::array<int, 2> out("out", 8, 8);
      per_iteration_one_index(out);
    } else if (std::strcmp(argv[1], "tile_for_in_tile_for") == 0) {
      acc::array<int> out("out", 32);
      tile_for_in_tile_for(out);
    } else if (std::strcmp(argv[1], "cache_in_tile_for") == 0) {
      acc::array<int> a("a", 32), out("out", 32);
      cache_in_tile_for(a, out);
    } else {
      return 2;
    }
  } catch (const acc::device_error& e) {
    std::printf("caught: %s\n", e.what());
    return 0;
  } catch (const std::exception& e) {
    std::printf("wrong exception: %s\n", e.what());
    return 1;
  }
  std::printf("no error for %s\n", argv[1]);
  return 1;
}
