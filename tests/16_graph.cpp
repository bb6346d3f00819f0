// Level 16: acc::graph: constructs recorded once on an async queue and replayed in order.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <vector>

#include "support/buffer.hpp"

using acc_test::buffer;

namespace {
// Step s maps v to v * 3 + s + i: any step missing, repeated or out of order changes the values.
// Unsigned, so that 300 steps wrap as defined rather than overflow.
void record_steps(acc::graph& g, int q, int n, unsigned long long* p, int steps) {
  g.record(acc::async(q), [=] {
    for (int s = 1; s <= steps; ++s) acc::parallel_loop(n, acc::async(q), ACC_LAMBDA(int i) { p[i] = p[i] * 3 + s + i; });
  });
}

unsigned long long expected(unsigned long long v, int i, int steps, int replays) {
  for (int r = 0; r < replays; ++r)
    for (int s = 1; s <= steps; ++s) v = v * 3 + s + i;
  return v;
}
}  // namespace

TEST_CASE("a graph replays its constructs in order, as often as asked", "[16][graph]") {
  const int n = GENERATE(1, 257, 1 << 16);
  const int steps = GENERATE(1, 7, 100);
  const int q = GENERATE(1, acc::async_noval);
  buffer<unsigned long long> v(n, 0);
  for (int i = 0; i < n; ++i) v[i] = i % 5;
  acc::graph g;
  REQUIRE_FALSE(g.recorded());
  record_steps(g, q, n, v.data(), steps);
  REQUIRE(g.recorded());
  REQUIRE(g.queue() == q);
  acc::wait(q);
  for (int i = 0; i < n; ++i) REQUIRE(v[i] == static_cast<unsigned long long>(i % 5));  // recording runs nothing
  const int replays = 3;
  for (int r = 0; r < replays; ++r) g.replay();
  acc::wait(q);
  for (int i = 0; i < n; ++i) REQUIRE(v[i] == expected(i % 5, i, steps, replays));
}

TEST_CASE("a graph over present arrays updates them where they are", "[16][graph]") {
  const int n = GENERATE(3, 1000);
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5 * i, y[i] = 1.0;
  {
    acc::data region{acc::copyin(x.data(), n), acc::copy(y.data(), n)};
    acc::view<double> dx(x.data(), n), dy(y.data(), n);
    acc::graph g;
    g.record(acc::async(2), [=] {
      acc::parallel_loop(n, acc::async(2), acc::default_present, ACC_LAMBDA(int i) { dy[i] = 2 * dy[i] + dx[i]; });
      acc::parallel_loop(n, acc::async(2), acc::default_present, ACC_LAMBDA(int i) { dy[i] -= 1; });
    });
    for (int r = 0; r < 4; ++r) g.replay();
    acc::wait(2);
  }
  for (int i = 0; i < n; ++i) {
    double e = 1.0;
    for (int r = 0; r < 4; ++r) e = 2 * e + 0.5 * i - 1;
    REQUIRE(y[i] == e);
  }
}

TEST_CASE("a graph may be re-recorded and moved", "[16][graph]") {
  const int n = 100;
  buffer<long long> v(n, 0);
  long long* p = v.data();
  acc::graph g;
  g.record(acc::async(3), [=] { acc::parallel_loop(n, acc::async(3), ACC_LAMBDA(int i) { p[i] += 1; }); });
  g.record(acc::async(3), [=] { acc::parallel_loop(n, acc::async(3), ACC_LAMBDA(int i) { p[i] += 10; }); });
  acc::graph h = std::move(g);
  REQUIRE_FALSE(g.recorded());
  h.replay();
  h.replay();
  acc::wait(3);
  for (int i = 0; i < n; ++i) REQUIRE(v[i] == 20);
}

TEST_CASE("a graph records an async queue and replays only once recorded", "[16][graph][errors]") {
  acc::graph g;
  REQUIRE_THROWS_AS(g.replay(), acc::bad_clause);
  REQUIRE_THROWS_AS(g.record(acc::async(acc::async_sync), [] {}), acc::bad_clause);
  REQUIRE_THROWS_WITH(g.record(acc::async(-7), [] {}), Catch::Contains("-7 is not a queue"));
  REQUIRE_FALSE(g.recorded());
}

TEST_CASE("recording on a GPU refuses transfers, other queues and waits", "[16][graph][errors][gpu]") {
  const int n = 1000;
  std::vector<double> x(n, 1.0);
  buffer<double> b(n, 0.0);
  double* p = b.data();
  acc::graph g;
  SECTION("data that is not present") {
    acc::view<double> dx(x.data(), n);
    REQUIRE_THROWS_AS(g.record(acc::async(1), [=] {
      acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int i) { dx[i] += 1; });
    }), acc::error);
  }
  SECTION("a construct on another queue") {
    REQUIRE_THROWS_AS(g.record(acc::async(1), [=] {
      acc::parallel_loop(n, acc::async(2), ACC_LAMBDA(int i) { p[i] += 1; });
    }), acc::bad_clause);
  }
  SECTION("a reduction that returns its value") {
    REQUIRE_THROWS_AS(g.record(acc::async(1), [=] {
      (void)acc::parallel_reduce(n, acc::async(1), acc::plus, ACC_LAMBDA(int i) { return p[i]; });
    }), acc::bad_clause);
  }
  REQUIRE_FALSE(g.recorded());
  // The queue works as before: nothing of the failed recording is left on it.
  acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int i) { p[i] = 2; });
  acc::wait(1);
  for (int i = 0; i < n; ++i) REQUIRE(b[i] == 2.0);
}
