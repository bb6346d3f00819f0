// expect: acc::reduction: this operator has no identity\(\); add .T identity\(\) const. to the operator
#include <acc/parallel.hpp>

// Each private copy starts from the operator's identity, which larger_t cannot give.
struct larger_t {
  ACC_ROUTINE int operator()(int a, int b) const { return a > b ? a : b; }
};

void f(const int* x, int n, int& top) {
  acc::parallel_loop(n, acc::reduction(larger_t{}, top), ACC_LAMBDA(int i, int& t) { t = larger_t{}(t, x[i]); });
}
