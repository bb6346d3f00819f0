// expect: acc::array: the element type must be trivially copyable
#include <acc/parallel.hpp>

#include <string>

// Elements are copied to the device byte by byte: std::string cannot be.
void f() {
  acc::array<std::string> a(3);
}
