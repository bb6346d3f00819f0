// expect: acc::parallel: the body must take each reduction variable by reference \(T&\), in clause order
#include <acc/parallel.hpp>

void f(int& count) {
  acc::parallel(acc::num_gangs(4), acc::reduction(acc::plus, count), ACC_LAMBDA(const acc::gang_t& g, int c) {
    acc::single(g, acc::per_gang, [&] { c += 1; });
  });
}
