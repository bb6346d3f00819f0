// Rodinia 3.1 backprop with acc: one training step of a three-layer perceptron (n inputs, 16
// hidden units, 1 output; Rodinia's bpnn_train_kernel): forward through both layers, output and
// hidden errors, and both weight adjustments with momentum. Two variants of the big layer's
// forward pass (the only part Rodinia's CUDA version does in shared memory):
//   parallel_loop  as an OpenACC user writes Rodinia's OpenMP loop: a gang per hidden unit, a
//                  vector reduction over the inputs;
//   team_memory    Rodinia's CUDA layout: a gang per block of 16 inputs multiplies its 16 x 16
//                  weights into team memory and reduces them there to 16 partial sums; a second
//                  construct adds the blocks' partial sums.
// Everything else (the small layer, the errors, the adjustments) is one construct per loop nest,
// the same in both. Checked against a sequential host reference in double.
//
//   backprop [inputs = 65536]   (Rodinia's run script: 65536)
#include "../common/rodinia.hpp"

#include <acc/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

constexpr int n_hidden = 16;  // Rodinia: "16, 1 can not be changed"
constexpr int n_out = 1;
// Rodinia's backprop.h: #define ETA 0.3, #define MOMENTUM 0.3; the target is 0.1 (bpnn_randomize_row).
constexpr float eta = 0.3f, momentum = 0.3f, target = 0.1f;
constexpr int block = 16;  // inputs per gang in the team-memory variant (Rodinia's BLOCK_SIZE)

ACC_ROUTINE inline float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

// The network, Rodinia's layout: unit 0 of each layer is the bias (always 1), weights w(k, j)
// join unit k below to unit j above. The *_new arrays receive the adjusted weights, so that every
// timed run starts from the same network.
struct net {
  int n_in;
  acc::array<float> input, hidden, output, delta_h, delta_o;
  acc::array<float, 2> w_ih, oldw_ih, w_ho, oldw_ho, w_ih_new, oldw_ih_new, w_ho_new, oldw_ho_new, partial;

  explicit net(int n)
      : n_in(n), input("input", n + 1), hidden("hidden", n_hidden + 1), output("output", n_out + 1),
        delta_h("delta_h", n_hidden + 1), delta_o("delta_o", n_out + 1), w_ih("w_ih", n + 1, n_hidden + 1),
        oldw_ih("oldw_ih", n + 1, n_hidden + 1), w_ho("w_ho", n_hidden + 1, n_out + 1),
        oldw_ho("oldw_ho", n_hidden + 1, n_out + 1), w_ih_new("w_ih_new", n + 1, n_hidden + 1),
        oldw_ih_new("oldw_ih_new", n + 1, n_hidden + 1), w_ho_new("w_ho_new", n_hidden + 1, n_out + 1),
        oldw_ho_new("oldw_ho_new", n_hidden + 1, n_out + 1),
        partial("partial", (n + block - 1) / block, n_hidden) {}
};

// Rodinia draws every weight and input uniformly from [0, 1], which with 65536 inputs saturates
// every hidden unit (sum ~ 16000, squash = 1), so that the hidden errors and the big layer's
// adjustment are exactly zero and would verify nothing. Here the input weights are scaled by
// 1/sqrt(n) and centred, keeping the hidden sums near 1, and the previous changes (momentum)
// are small and non-zero, as after earlier steps.
void make_input(net& m) {
  rodinia::random r(7);  // Rodinia's facetrain.c seeds with 7
  const float scale = 1.0f / std::sqrt(float(m.n_in + 1));
  m.input[0] = 1.0f;
  for (int k = 1; k <= m.n_in; ++k) m.input[k] = float(r.uniform());
  for (int k = 0; k <= m.n_in; ++k)
    for (int j = 0; j <= n_hidden; ++j) {
      m.w_ih(k, j) = float(r.uniform(-1, 1)) * scale;
      m.oldw_ih(k, j) = float(r.uniform(-1e-3, 1e-3));
    }
  for (int k = 0; k <= n_hidden; ++k)
    for (int j = 0; j <= n_out; ++j) {
      m.w_ho(k, j) = float(r.uniform(-1, 1));
      m.oldw_ho(k, j) = float(r.uniform(-1e-3, 1e-3));
    }
}

struct result {
  std::vector<double> hidden, w_ih, oldw_ih, w_ho, oldw_ho;
  double output;
};

// The sequential reference, in double: Rodinia's bpnn_train_kernel with the adjusted weights
// written beside the old ones.
result reference(const net& m) {
  const int n = m.n_in, H = n_hidden + 1, O = n_out + 1;
  result r;
  r.hidden.assign(H, 1.0);
  for (int j = 1; j < H; ++j) {
    double s = 0;
    for (int k = 0; k <= n; ++k) s += double(m.w_ih(k, j)) * m.input[k];
    r.hidden[j] = 1.0 / (1.0 + std::exp(-s));
  }
  std::vector<double> out(O, 1.0), d_o(O, 0.0), d_h(H, 0.0);
  for (int j = 1; j < O; ++j) {
    double s = 0;
    for (int k = 0; k < H; ++k) s += double(m.w_ho(k, j)) * r.hidden[k];
    out[j] = 1.0 / (1.0 + std::exp(-s));
    d_o[j] = out[j] * (1 - out[j]) * (target - out[j]);
  }
  r.output = out[1];
  for (int j = 1; j < H; ++j) {
    double s = 0;
    for (int k = 1; k < O; ++k) s += d_o[k] * m.w_ho(j, k);
    d_h[j] = r.hidden[j] * (1 - r.hidden[j]) * s;
  }
  r.w_ho.assign(H * O, 0.0);
  r.oldw_ho.assign(H * O, 0.0);
  for (int k = 0; k < H; ++k)
    for (int j = 0; j < O; ++j) {
      const double dw = j == 0 ? 0.0 : eta * d_o[j] * r.hidden[k] + momentum * m.oldw_ho(k, j);
      r.w_ho[k * O + j] = j == 0 ? m.w_ho(k, j) : m.w_ho(k, j) + dw;
      r.oldw_ho[k * O + j] = j == 0 ? m.oldw_ho(k, j) : dw;
    }
  r.w_ih.assign(std::size_t(n + 1) * H, 0.0);
  r.oldw_ih.assign(std::size_t(n + 1) * H, 0.0);
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j < H; ++j) {
      const double dw = j == 0 ? 0.0 : eta * d_h[j] * m.input[k] + momentum * m.oldw_ih(k, j);
      r.w_ih[std::size_t(k) * H + j] = j == 0 ? m.w_ih(k, j) : m.w_ih(k, j) + dw;
      r.oldw_ih[std::size_t(k) * H + j] = j == 0 ? m.oldw_ih(k, j) : dw;
    }
  return r;
}

// Forward through the big layer, Rodinia's OpenMP loop. OpenACC:
//   #pragma acc parallel loop gang present(...)
//   for (j = 1; j <= 16; j++) { sum = 0;
//     #pragma acc loop vector reduction(+:sum)
//     for (k = 0; k <= n; k++) sum += w[k][j] * in[k];
//     hidden[j] = squash(sum); }
void forward_parallel_loop(net& m) {
  const int n = m.n_in;
  acc::view<const float, 2> w = m.w_ih;
  acc::view<const float> in = m.input;
  acc::view<float> hidden = m.hidden;
  acc::parallel(acc::num_gangs(n_hidden), acc::vector_length(256), acc::default_present,
                ACC_LAMBDA(const acc::gang_t& g) {
                  acc::loop(g, acc::gang, int(n_hidden), [&](int jj) {
                    const int j = jj + 1;
                    const float s =
                        acc::loop_reduce(g, acc::vector, n + 1, acc::plus, [&](int k) { return w(k, j) * in[k]; });
                    acc::single(g, acc::per_gang, [&] { hidden[j] = squash(s); });
                  });
                });
}

// Forward through the big layer, Rodinia's CUDA layout (bpnn_layerforward_CUDA): a gang per block
// of 16 inputs stages the products w(k, j) in(k) of its 16 x 16 weights in team memory and halves
// them 8, 4, 2, 1 rows at a time into one row of 16 partial sums; then a gang per hidden unit
// adds the bias and the blocks' partial sums (Rodinia does this on the host).
void forward_team_memory(net& m) {
  const int n = m.n_in, blocks = (n + block - 1) / block;
  acc::view<const float, 2> w = m.w_ih;
  acc::view<const float> in = m.input;
  acc::view<float, 2> partial = m.partial;
  acc::view<float> hidden = m.hidden;
  acc::parallel(acc::num_gangs(std::min(blocks, 65535)), acc::vector_length(block * n_hidden),
                acc::shared_bytes(block * n_hidden * sizeof(float)), acc::default_present,
                ACC_LAMBDA(const acc::gang_t& g) {
                  const auto s = g.shared<float>(block * n_hidden);
                  acc::loop(g, acc::gang, blocks, [&](int b) {
                    acc::loop(g, acc::vector, block * n_hidden, [&](int t) {
                      const int k = 1 + b * block + t / n_hidden, j = 1 + t % n_hidden;
                      s[t] = k <= n ? w(k, j) * in[k] : 0.0f;
                    });
                    for (int half = block / 2; half >= 1; half /= 2)
                      acc::loop(g, acc::vector, half * n_hidden, [&](int t) { s[t] += s[t + half * n_hidden]; });
                    acc::loop(g, acc::vector, int(n_hidden), [&](int j) { partial(b, j) = s[j]; });
                  });
                });
  acc::parallel(acc::num_gangs(n_hidden), acc::vector_length(256), acc::default_present,
                ACC_LAMBDA(const acc::gang_t& g) {
                  acc::loop(g, acc::gang, int(n_hidden), [&](int j) {
                    const float s =
                        acc::loop_reduce(g, acc::vector, blocks, acc::plus, [&](int b) { return partial(b, j); });
                    acc::single(g, acc::per_gang, [&] { hidden[j + 1] = squash(w(0, j + 1) + s); });
                  });
                });
}

// The rest of the step, the same for both variants: the 17 x 1 layer and the errors are a few
// dozen operations (Rodinia runs them on the host), here one single-iteration construct so the
// data stays on the device; then the two adjustments (bpnn_adjust_weights), each a collapsed loop.
void backward(net& m) {
  const int n = m.n_in;
  acc::view<float> hidden = m.hidden, output = m.output, delta_h = m.delta_h, delta_o = m.delta_o;
  acc::view<const float> in = m.input;
  acc::view<const float, 2> w_ih = m.w_ih, oldw_ih = m.oldw_ih, w_ho = m.w_ho, oldw_ho = m.oldw_ho;
  acc::view<float, 2> w_ih_new = m.w_ih_new, oldw_ih_new = m.oldw_ih_new, w_ho_new = m.w_ho_new,
                      oldw_ho_new = m.oldw_ho_new;
  acc::parallel_loop(1, acc::default_present, ACC_LAMBDA(int) {
    hidden[0] = 1.0f;
    output[0] = 1.0f;
    for (int j = 1; j <= n_out; ++j) {
      float s = 0.0f;
      for (int k = 0; k <= n_hidden; ++k) s += w_ho(k, j) * hidden[k];
      const float o = squash(s);
      output[j] = o;
      delta_o[j] = o * (1.0f - o) * (target - o);
    }
    for (int j = 1; j <= n_hidden; ++j) {
      float s = 0.0f;
      for (int k = 1; k <= n_out; ++k) s += delta_o[k] * w_ho(j, k);
      delta_h[j] = hidden[j] * (1.0f - hidden[j]) * s;
    }
  });
  acc::parallel_loop(acc::collapse(n_hidden + 1, n_out + 1), acc::default_present, ACC_LAMBDA(int k, int j) {
    const float dw = j == 0 ? 0.0f : eta * delta_o[j] * hidden[k] + momentum * oldw_ho(k, j);
    w_ho_new(k, j) = w_ho(k, j) + dw;
    oldw_ho_new(k, j) = j == 0 ? oldw_ho(k, j) : dw;
  });
  acc::parallel_loop(acc::collapse(n + 1, n_hidden + 1), acc::default_present, ACC_LAMBDA(int k, int j) {
    const float dw = j == 0 ? 0.0f : eta * delta_h[j] * in[k] + momentum * oldw_ih(k, j);
    w_ih_new(k, j) = w_ih(k, j) + dw;
    oldw_ih_new(k, j) = j == 0 ? oldw_ih(k, j) : dw;
  });
}

template <class Array>
double max_diff(const Array& a, const std::vector<double>& ref) {
  double d = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) d = std::max(d, std::fabs(double(a.data()[k]) - ref[k]));
  return std::isnan(d) ? INFINITY : d;
}

}  // namespace

int main(int argc, char** argv) try {
  const int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  if (n < 1) {
    std::fprintf(stderr, "usage: backprop [input units >= 1]\n");
    return 2;
  }
  std::printf("backprop: %d input units, %d hidden, %d output, one training step\n", n, n_hidden, n_out);
  net m(n);
  make_input(m);
  const result ref = reference(m);
  // Float sums of n + 1 products of size ~1/sqrt(n) against a double reference; the rest of
  // the step is a few float operations per element.
  const double tolerance = 1e-4;
  bool ok = true;

  acc::data region{acc::copyin(m.input),    acc::copyin(m.w_ih),     acc::copyin(m.oldw_ih),
                   acc::copyin(m.w_ho),     acc::copyin(m.oldw_ho),  acc::create(m.hidden),
                   acc::create(m.output),   acc::create(m.delta_h),  acc::create(m.delta_o),
                   acc::create(m.partial),  acc::create(m.w_ih_new), acc::create(m.oldw_ih_new),
                   acc::create(m.w_ho_new), acc::create(m.oldw_ho_new)};
  struct variant {
    const char* name;
    void (*forward)(net&);
  };
  for (const variant v : {variant{"parallel_loop", forward_parallel_loop}, variant{"team_memory", forward_team_memory}}) {
    const double s = rodinia::median_seconds([&] {
      v.forward(m);
      backward(m);
    });
    rodinia::report(v.name, s);
    for (const auto* a : {&m.hidden, &m.output}) acc::update_self(*a);
    for (const auto* a : {&m.w_ih_new, &m.oldw_ih_new, &m.w_ho_new, &m.oldw_ho_new}) acc::update_self(*a);
    const double d = std::max({max_diff(m.hidden, ref.hidden), std::fabs(double(m.output[1]) - ref.output),
                               max_diff(m.w_ih_new, ref.w_ih), max_diff(m.oldw_ih_new, ref.oldw_ih),
                               max_diff(m.w_ho_new, ref.w_ho), max_diff(m.oldw_ho_new, ref.oldw_ho)});
    std::printf("    %s: output %.6f (reference %.6f), max |acc - reference| = %.3g\n", v.name, m.output[1],
                ref.output, d);
    ok &= d <= tolerance;
  }
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "backprop: %s\n", e.what());
  return 1;
}
