// Level 11: async queues: order within a queue, wait, async_test, wait_async.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include "support/buffer.hpp"

using acc_test::buffer;

TEST_CASE("work on one queue runs in order and wait(q) completes it", "[11][async]") {
  const int n = GENERATE(1, 1000, 1 << 18);
  const int q = GENERATE(0, 3, acc::async_noval);
  buffer<long long> v(n, 0);
  long long* p = v.data();
  // Each step reads the previous one's result: any reordering changes the values.
  for (int step = 1; step <= 20; ++step)
    acc::parallel_loop(n, acc::async(q), ACC_LAMBDA(int i) { p[i] = p[i] * 3 + step + i; });
  acc::wait(q);
  REQUIRE(acc::async_test(q));
  for (int i = 0; i < n; ++i) {
    long long e = 0;
    for (int step = 1; step <= 20; ++step) e = e * 3 + step + i;
    REQUIRE(v[i] == e);
  }
}

TEST_CASE("wait_async orders two queues without blocking the host", "[11][async]") {
  const int n = 1 << 16;
  buffer<long long> a(n, 0), b(n, 0);
  long long *pa = a.data(), *pb = b.data();
  for (int round = 0; round < 5; ++round) {
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int i) {
      long long s = 0;  // enough work that an unordered reader would see stale values
      for (int k = 0; k < 200; ++k) s += (i + k) % 7;
      pa[i] = s + round;
    });
    acc::wait_async(1, 2);
    acc::parallel_loop(n, acc::async(2), ACC_LAMBDA(int i) { pb[i] = pa[i] * 2; });
  }
  acc::wait(2);
  acc::wait_all();
  for (int i = 0; i < n; ++i) {
    long long s = 0;
    for (int k = 0; k < 200; ++k) s += (i + k) % 7;
    REQUIRE(b[i] == 2 * (s + 4));
  }
}

TEST_CASE("waiting on several queues and on queues never used", "[11][async]") {
  buffer<int> v(3, 0);
  int* p = v.data();
  acc::parallel_loop(1, acc::async(4), ACC_LAMBDA(int) { p[0] = 4; });
  acc::parallel_loop(1, acc::async(5), ACC_LAMBDA(int) { p[1] = 5; });
  acc::parallel_loop(1, acc::async(6), ACC_LAMBDA(int) { p[2] = 6; });
  acc::wait(4, 5, 6);
  REQUIRE(v.to_vector() == std::vector<int>{4, 5, 6});
  acc::wait(77);  // never used: nothing to wait for
  REQUIRE(acc::async_test(78));
  acc::parallel_loop(1, acc::async(acc::async_sync), ACC_LAMBDA(int) { p[0] = 9; });  // synchronous
  REQUIRE(v[0] == 9);
}

TEST_CASE("invalid queue numbers throw bad_clause", "[11][async][errors]") {
  REQUIRE_THROWS_AS(acc::wait(-9), acc::bad_clause);
  REQUIRE_THROWS_WITH(acc::async_test(-3), Catch::Contains("acc::async_test at 11_async.cpp:"));
  REQUIRE_THROWS_AS(acc::wait_async(1, -4), acc::bad_clause);
}
