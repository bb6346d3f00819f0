// expect: acc::atomic_add: T must be a 4- or 8-byte integer or floating-point type
#include <acc/parallel.hpp>

void f(short* p) { acc::atomic_add(p, short(1)); }
