// expect: acc::parallel_loop: the body must be copyable
#include <acc/parallel.hpp>

#include <memory>

// A move-only capture: the body cannot be copied to the gangs.
struct move_only {
  move_only() = default;
  move_only(move_only&&) = default;
  move_only(const move_only&) = delete;
  ACC_ROUTINE int value() const { return 1; }
};

void f(int* y) {
  acc::parallel_loop(16, [m = move_only{}, y](int i) { y[i] = m.value(); });
}
