// Level 1: the OpenACC runtime API (device type and number), on every backend.
#include <acc/parallel.hpp>
#include <acc/detail/nvtx.hpp>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "support/buffer.hpp"

TEST_CASE("the host is always one device", "[01][runtime]") {
  REQUIRE(acc::get_num_devices(acc::device_type::host) == 1);
  REQUIRE(acc::get_device_num(acc::device_type::host) == 0);
}

TEST_CASE("the device type is nvidia exactly when a GPU build finds a GPU", "[01][runtime]") {
  const int gpus = acc::get_num_devices(acc::device_type::nvidia);
  REQUIRE(gpus >= 0);
#if !defined(__CUDACC__)
  REQUIRE(gpus == 0);  // a g++ build has no CUDA backend linked in
#endif
  REQUIRE(acc::get_num_devices(acc::device_type::gpu) == gpus);
  const auto t = acc::get_device_type();
  REQUIRE((t == acc::device_type::host || t == acc::device_type::nvidia));
  if (gpus == 0) REQUIRE(t == acc::device_type::host);
}

TEST_CASE("set_device_type switches where constructs run, per thread", "[01][runtime]") {
  const auto before = acc::get_device_type();
  acc_test::buffer<int> where(1, -1);
  int* w = where.data();

  acc::set_device_type(acc::device_type::host);
  REQUIRE(acc::get_device_type() == acc::device_type::host);
  acc::parallel_loop(1, ACC_LAMBDA(int) { w[0] = acc_test::on_device(); });
  REQUIRE(where[0] == 0);

  if (acc::get_num_devices(acc::device_type::nvidia) > 0) {
    acc::set_device_type(acc::device_type::nvidia);
    REQUIRE(acc::get_device_type() == acc::device_type::nvidia);
    acc::parallel_loop(1, ACC_LAMBDA(int) { w[0] = acc_test::on_device(); });
    REQUIRE(where[0] == 1);
  } else {
    REQUIRE_THROWS_AS(acc::set_device_type(acc::device_type::nvidia), acc::error);
    REQUIRE_THROWS_WITH(acc::set_device_type(acc::device_type::nvidia), Catch::Contains("no NVIDIA GPU"));
  }
  acc::set_device_type(before);
  REQUIRE(acc::get_device_type() == before);
}

TEST_CASE("set_device_num accepts existing devices and rejects others", "[01][runtime]") {
  const int gpus = acc::get_num_devices(acc::device_type::nvidia);
  REQUIRE_THROWS_AS(acc::set_device_num(gpus, acc::device_type::nvidia), acc::bad_clause);
  REQUIRE_THROWS_WITH(acc::set_device_num(gpus + 3, acc::device_type::nvidia),
                      Catch::Contains("device " + std::to_string(gpus + 3) + " does not exist"));
  REQUIRE_THROWS_AS(acc::set_device_num(1, acc::device_type::host), acc::bad_clause);
  acc::set_device_num(0, acc::device_type::host);
  if (gpus > 0) {
    acc::set_device_num(gpus - 1, acc::device_type::nvidia);
    REQUIRE(acc::get_device_num(acc::device_type::nvidia) == gpus - 1);
    acc::set_device_num(-1, acc::device_type::nvidia);  // back to the default
  }
  REQUIRE(acc::get_device_num(acc::device_type::nvidia) == 0);
  REQUIRE_THROWS_AS(acc::get_num_devices(acc::device_type::none), acc::bad_clause);
}

TEST_CASE("a transfer's NVTX name is built only while a tool records ranges", "[01][runtime]") {
  int built = 0;
  {
    const acc::detail::nvtx_text_range range([&] {
      ++built;
      return std::string("update_device 'x' 8 bytes");
    });
  }
  // NVTX hands ranges to a tool only through NVTX_INJECTION64_PATH; without it nothing records.
  if (!std::getenv("NVTX_INJECTION64_PATH")) REQUIRE_FALSE(acc::detail::nvtx_recording());
  REQUIRE(built == (acc::detail::nvtx_recording() ? 1 : 0));
}
