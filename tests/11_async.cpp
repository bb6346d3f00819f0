// Level 11: async queues: order within a queue, wait, async_test, wait_async.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <vector>

#include "support/arrays.hpp"

namespace {

// Each step reads the previous one's result: any reordering changes the values.
void twenty_steps(acc::array<long long> v, int n, int q) {
  for (int step = 1; step <= 20; ++step)
    acc::parallel_loop(n, acc::async(q), ACC_LAMBDA(int i) { v[i] = v[i] * 3 + step + i; });
}

}  // namespace

TEST_CASE("work on one queue runs in order and wait(q) completes it", "[11][async]") {
  const int n = GENERATE(1, 1000, 1 << 18);
  const int q = GENERATE(0, 3, acc::async_noval);
  acc::array<long long> v(n);
  SECTION("in a data region") {
    acc::data region{acc::copy(v)};
    twenty_steps(v, n, q);
    acc::wait(q);
    REQUIRE(acc::async_test(q));
  }
  SECTION("in a data region on the same queue (OpenACC 3.2's async on data)") {
    {
      acc::data region{acc::copy(v), acc::async(q)};
      twenty_steps(v, n, q);
    }  // copy-out and free queued on q
    acc::wait(q);
    REQUIRE_FALSE(acc::is_present(v));
  }
  SECTION("copied in and out by each construct, on the same queue") {
    twenty_steps(v, n, q);
    acc::wait(q);
    REQUIRE(acc::async_test(q));
  }
  for (int i = 0; i < n; ++i) {
    long long e = 0;
    for (int step = 1; step <= 20; ++step) e = e * 3 + step + i;
    REQUIRE(v[i] == e);
  }
}

namespace {

void produce(acc::array<long long> a, int n, int round) {
  acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int i) {
    long long s = 0;  // enough work that an unordered reader would see stale values
    for (int k = 0; k < 200; ++k) s += (i + k) % 7;
    a[i] = s + round;
  });
}

void consume(acc::array<long long> a, acc::array<long long> b, int n) {
  acc::parallel_loop(n, acc::async(2), ACC_LAMBDA(int i) { b[i] = a[i] * 2; });
}

}  // namespace

TEST_CASE("wait_async orders two queues without blocking the host", "[11][async]") {
  const int n = 1 << 16;
  acc::array<long long> a(n), b(n);
  {
    // a lives on the device only; the region outlives every queued construct.
    acc::data region{acc::create(a), acc::copyout(b)};
    for (int round = 0; round < 5; ++round) {
      produce(a, n, round);
      acc::wait_async(1, 2);
      consume(a, b, n);
    }
    acc::wait(2);
    acc::wait_all();
  }
  for (int i = 0; i < n; ++i) {
    long long s = 0;
    for (int k = 0; k < 200; ++k) s += (i + k) % 7;
    REQUIRE(b[i] == 2 * (s + 4));
  }
}

namespace {

void store_on_queue(acc::view<int> v, int at, int value, int q) {
  acc::parallel_loop(1, acc::async(q), ACC_LAMBDA(int) { v[at] = value; });
}

}  // namespace

TEST_CASE("waiting on several queues and on queues never used", "[11][async]") {
  // Three queues write parts of one host vector: mapped once by the region, since per-construct
  // copies on concurrent queues would each copy the whole vector back.
  std::vector<int> v(3, 0);
  const acc::view<int> pv(v.data(), v.size());
  {
    acc::data region{acc::copy(pv)};
    store_on_queue(pv, 0, 4, 4);
    store_on_queue(pv, 1, 5, 5);
    store_on_queue(pv, 2, 6, 6);
    acc::wait(4, 5, 6);
    acc::update_self(pv);
    REQUIRE(v == std::vector<int>{4, 5, 6});
    acc::wait(77);  // never used: nothing to wait for
    REQUIRE(acc::async_test(78));
    store_on_queue(pv, 0, 9, acc::async_sync);  // synchronous
    acc::update_self(pv);
    REQUIRE(v[0] == 9);
  }
  REQUIRE(v == std::vector<int>{9, 5, 6});
}

TEST_CASE("invalid queue numbers throw bad_clause", "[11][async][errors]") {
  REQUIRE_THROWS_AS(acc::wait(-9), acc::bad_clause);
  REQUIRE_THROWS_WITH(acc::async_test(-3), Catch::Contains("acc::async_test at 11_async.cpp:"));
  REQUIRE_THROWS_AS(acc::wait_async(1, -4), acc::bad_clause);
  acc::array<int> a(8);
  REQUIRE_THROWS_WITH(acc::data(acc::copy(a), acc::async(-9)),
                      Catch::Contains("acc::data at 11_async.cpp:") && Catch::Contains("async(-9) is not a queue"));
  REQUIRE_FALSE(acc::is_present(a));
}
