// An acc::array with static storage (a global, a function's static) lives past main; its
// destructor still takes its range out of the present table at exit. The test passes when the
// program checks its values and exits cleanly (no crash at exit), on every backend.
#include <acc/parallel.hpp>

#include <cstdio>

extern acc::array<double> global_field;
acc::array<int>& function_static();

int main() {
  auto field = global_field;
  const int n = static_cast<int>(field.size());
  {
    acc::data region{acc::copy(field)};
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { field[i] = 0.5 * i; });
  }
  acc::array<int>& counts = function_static();
  const int m = static_cast<int>(counts.size());
  acc::enter_data(acc::create(counts));  // left present: the exit frees it
  acc::parallel_loop(m, acc::default_present, ACC_LAMBDA(int i) { counts[i] = i * i; });
  acc::update_self(counts);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += field[i] != 0.5 * i;
  for (int i = 0; i < m; ++i) wrong += counts[i] != i * i;
  if (wrong) std::printf("statics: %d wrong values\n", wrong);
  return wrong ? 1 : 0;
}
