// expect: acc::parallel_reduce: the initial value \(the last argument\) does not convert to the type the body returns
#include <acc/parallel.hpp>

struct pair_t { double lo, hi; };
struct span_t {
  ACC_ROUTINE pair_t operator()(pair_t a, pair_t b) const { return {a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? b.hi : a.hi}; }
};

pair_t f(const double* x, int n) {
  return acc::parallel_reduce(n, span_t{}, ACC_LAMBDA(int i) { return pair_t{x[i], x[i]}; }, "first");
}
