// expect: acc::atomic_ref: a memory order is std::memory_order_relaxed, _acquire, _release, _acq_rel or _seq_cst
#include <acc/parallel.hpp>

// A memory order is std::memory_order's, not a number.
int f(int& x) {
  return acc::atomic_ref<int>(x).load(2);
}
