// expect: acc::parallel_loop: the body must be copyable
// only: serial
#include <acc/parallel.hpp>

#include <memory>

// A move-only capture: the body cannot be copied to the gangs. Host compiler only: an init-capture
// needs a plain lambda, which nvcc reports first as not being an ACC_LAMBDA (loop_plain_lambda).
struct move_only {
  move_only() = default;
  move_only(move_only&&) = default;
  move_only(const move_only&) = delete;
  ACC_ROUTINE int value() const { return 1; }
};

void f(int* y) {
  acc::parallel_loop(16, [m = move_only{}, y](int i) { y[i] = m.value(); });
}
