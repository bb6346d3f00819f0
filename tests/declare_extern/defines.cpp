// Defines the shared globals and checks, through uses.cpp's construct, that a kernel of another
// file reads the device copies acc::update_device wrote.
#include "declared.hpp"

#include <cstdio>

ACC_DECLARE(double, shared_scale);
ACC_DECLARE_ARRAY(int, shared_table, 16);

int main() {
  shared_scale = 2.5;
  for (int k = 0; k < 16; ++k) shared_table[k] = 3 * k - 7;
  acc::update_device(shared_scale);
  acc::update_device(shared_table);
  const int n = 1009;  // a prime: the last block is partial
  acc::array<double> x("x", n), y("y", n);
  for (int i = 0; i < n; ++i) x[i] = 0.25 * i - 11;
  scale_on_device(x, y);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != 2.5 * (0.25 * i - 11) + (3 * (i % 16) - 7);
  if (wrong) std::printf("declare_extern: %d wrong values\n", wrong);
  return wrong ? 1 : 0;
}
