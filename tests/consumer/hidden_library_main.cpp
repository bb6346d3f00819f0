// Uses hidden_library.cpp's library: one present table for the program and the library.
#include <acc/parallel.hpp>

#include <cstdio>

void library_enter(acc::array<double> a);
double library_sum_present(acc::array<double> a);

int main() {
  const int n = 257;
  acc::array<double> mine("mine", n), theirs("theirs", n);
  for (int i = 0; i < n; ++i) mine[i] = theirs[i] = 0.5 * i;
  acc::enter_data(acc::copyin(mine));
  library_enter(theirs);
  const double expected = 0.5 * n * (n - 1) / 2;
  double sum = -1;
  try {
    sum = library_sum_present(mine);  // not present in a separate table: acc::not_present_error
  } catch (const acc::error& e) {
    std::printf("hidden library: %s\n", e.what());
  }
  const bool ok = sum == expected && acc::is_present(theirs);
  acc::exit_data(acc::delete_(mine), acc::delete_(theirs));
  std::printf("hidden library: sum %g (expected %g), the library's array present here: %d\n", sum, expected,
              int(ok));
  return ok ? 0 : 1;
}
