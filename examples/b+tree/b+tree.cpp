// Rodinia 3.1 b+tree with acc: batched searches in a B+ tree of order 508 stored as arrays of
// nodes (Rodinia's knodes), `k` queries (find one key's record) and `j` queries (find a key
// range's first record and length). Two variants:
//   parallel_loop  as an OpenACC user writes Rodinia's OpenMP kernels (kernel_cpu.c,
//                  kernel_cpu_2.c): a parallel loop over the queries, each walking down the tree
//                  and scanning each node's keys sequentially;
//   gang_vector    Rodinia's CUDA layout (kernel_gpu_cuda.cu): a gang per query, a vector lane
//                  per key slot of the node; the lane whose slot brackets the key writes the next
//                  node to team memory, read by all after the loop's barrier.
// Rodinia reads mil.txt (1M keys) and command.txt; here the tree is bulk-loaded from 1M sorted
// keys with gaps (so that about a third of the k queries miss) and the queries are drawn at random.
// Checked exactly against binary searches of the sorted keys on the host.
//
//   b+tree [keys = 1000000] [k queries = 10000] [j queries = 6000] [j range = 3000]
#include "../common/rodinia.hpp"

#include <acc/parallel.hpp>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

constexpr int order = 508;           // Rodinia's DEFAULT_ORDER: a node has order + 1 key slots
constexpr int fill = order * 3 / 4;  // keys per leaf and children per inner node when bulk-loaded

// The tree, Rodinia's layout: node n has keys(n, 0..order) and indices(n, 0..order). Inner
// node: child c covers keys from keys(n, c) on (keys(n, 0) = INT_MIN), indices(n, c) its node;
// leaf: keys(n, t) its keys, indices(n, t) their records. Unused slots hold INT_MAX, which no
// bracket keys(t) <= key < keys(t + 1) and no equality test matches.
struct tree {
  int nodes = 0, height = 0;  // height: inner levels above the leaves
  std::vector<int> keys, indices;
};

tree build(const std::vector<int>& sorted) {
  const int n = int(sorted.size());
  std::vector<std::vector<int>> level_keys, level_indices;  // per level, node-major
  std::vector<int> first;                                   // min key per node of the level below
  // Leaves.
  std::vector<int> k, idx;
  for (int start = 0; start < n; start += fill) {
    const int m = std::min(fill, n - start);
    first.push_back(sorted[start]);
    for (int t = 0; t <= order; ++t) {
      k.push_back(t < m ? sorted[start + t] : INT_MAX);
      idx.push_back(t < m ? start + t : 0);
    }
  }
  level_keys.push_back(k);
  level_indices.push_back(idx);
  // Inner levels until one node; children numbered within the level below for now.
  while (first.size() > 1) {
    std::vector<int> up, kk, ii;
    for (std::size_t start = 0; start < first.size(); start += fill) {
      const int m = int(std::min<std::size_t>(fill, first.size() - start));
      up.push_back(first[start]);
      for (int t = 0; t <= order; ++t) {
        kk.push_back(t == 0 ? INT_MIN : t < m ? first[start + t] : INT_MAX);
        ii.push_back(t < m ? int(start) + t : 0);
      }
    }
    level_keys.push_back(kk);
    level_indices.push_back(ii);
    first = up;
  }
  // Root first: node numbers level by level from the top; inner indices become node numbers.
  tree tr;
  tr.height = int(level_keys.size()) - 1;
  std::vector<int> base(level_keys.size());
  for (int l = tr.height; l >= 0; --l) {
    base[l] = tr.nodes;
    tr.nodes += int(level_keys[l].size() / (order + 1));
  }
  for (int l = tr.height; l >= 0; --l) {
    tr.keys.insert(tr.keys.end(), level_keys[l].begin(), level_keys[l].end());
    for (std::size_t s = 0; s < level_indices[l].size(); ++s)
      tr.indices.push_back(l > 0 ? base[l - 1] + level_indices[l][s] : level_indices[l][s]);
  }
  return tr;
}

struct queries {
  std::vector<int> k, start, end;
};

// The expected answers: k -> the record's value or -1; j -> first record and length, each 0
// unless the bound is a key (Rodinia's findRangeK leaves them as initialised otherwise).
void reference(const std::vector<int>& sorted, const queries& q, std::vector<int>& ans, std::vector<int>& recstart,
               std::vector<int>& reclength) {
  auto find = [&](int key) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), key);
    return it != sorted.end() && *it == key ? int(it - sorted.begin()) : -1;
  };
  for (int key : q.k) {
    const int i = find(key);
    ans.push_back(i >= 0 ? sorted[i] : -1);
  }
  for (std::size_t b = 0; b < q.start.size(); ++b) {
    const int s = find(q.start[b]), e = find(q.end[b]);
    const int rs = s >= 0 ? s : 0;
    recstart.push_back(rs);
    reclength.push_back(e >= 0 ? e - rs + 1 : 0);
  }
}

struct device_tree {
  acc::view<const int, 2> keys, indices;
  acc::view<const int> records;
  int height, nodes;
};

// Rodinia's kernel_cpu / kernel_cpu_2 as parallel loops. OpenACC:
//   #pragma acc parallel loop present(knodes, records, keys, ans)
//   for (bid = 0; bid < count; bid++) { for (i = 0; i < maxheight; i++) for (thid ...) ...; }
void search_parallel_loop(const device_tree& t, acc::view<const int> k, acc::view<int> ans,
                          acc::view<const int> start, acc::view<const int> end, acc::view<int> recstart,
                          acc::view<int> reclength) {
  const auto keys = t.keys, indices = t.indices;
  const auto records = t.records;
  const int height = t.height, nodes = t.nodes;
  acc::parallel_loop(int(k.size()), acc::default_present, ACC_LAMBDA(int b) {
    int node = 0;
    for (int level = 0; level < height; ++level) {
      int next = node;
      for (int s = 0; s < order; ++s)
        if (keys(node, s) <= k[b] && keys(node, s + 1) > k[b] && indices(node, s) < nodes) next = indices(node, s);
      node = next;
    }
    int a = -1;
    for (int s = 0; s < order; ++s)
      if (keys(node, s) == k[b]) a = records[indices(node, s)];
    ans[b] = a;
  });
  acc::parallel_loop(int(start.size()), acc::default_present, ACC_LAMBDA(int b) {
    int first = 0, last = 0;
    for (int level = 0; level < height; ++level) {
      int nf = first, nl = last;
      for (int s = 0; s < order; ++s) {
        if (keys(first, s) <= start[b] && keys(first, s + 1) > start[b] && indices(first, s) < nodes)
          nf = indices(first, s);
        if (keys(last, s) <= end[b] && keys(last, s + 1) > end[b] && indices(last, s) < nodes) nl = indices(last, s);
      }
      first = nf;
      last = nl;
    }
    int rs = 0, rl = 0;
    for (int s = 0; s < order; ++s)
      if (keys(first, s) == start[b]) rs = indices(first, s);
    for (int s = 0; s < order; ++s)
      if (keys(last, s) == end[b]) rl = indices(last, s) - rs + 1;
    recstart[b] = rs;
    reclength[b] = rl;
  });
}

// Rodinia's CUDA kernels as gang/vector loops: a gang per query, a lane per key slot.
void search_gang_vector(const device_tree& t, acc::view<const int> k, acc::view<int> ans, acc::view<const int> start,
                        acc::view<const int> end, acc::view<int> recstart, acc::view<int> reclength) {
  const auto keys = t.keys, indices = t.indices;
  const auto records = t.records;
  const int height = t.height, nodes = t.nodes, nk = int(k.size()), nj = int(start.size());
  if (nk > 0)
    acc::parallel(acc::num_gangs(std::min(nk, 65535)), acc::vector_length(order), acc::shared_bytes(2 * sizeof(int)),
                  acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
                    const auto at = g.shared<int>(2);  // at[0]: the node; at[1]: the answer
                    acc::loop(g, acc::gang, nk, [&](int b) {
                      const int key = k[b];
                      acc::single(g, acc::per_gang, [&] {
                        at[0] = 0;
                        at[1] = -1;
                      });
                      for (int level = 0; level < height; ++level) {
                        const int node = at[0];
                        acc::barrier(g);  // every lane has read the node before one overwrites it
                        acc::loop(g, acc::vector, int(order), [&](int s) {
                          if (keys(node, s) <= key && keys(node, s + 1) > key && indices(node, s) < nodes)
                            at[0] = indices(node, s);
                        });
                      }
                      const int leaf = at[0];
                      acc::loop(g, acc::vector, int(order), [&](int s) {
                        if (keys(leaf, s) == key) at[1] = records[indices(leaf, s)];
                      });
                      acc::single(g, acc::per_gang, [&] { ans[b] = at[1]; });
                    });
                  });
  if (nj > 0)
    acc::parallel(acc::num_gangs(std::min(nj, 65535)), acc::vector_length(order), acc::shared_bytes(4 * sizeof(int)),
                  acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
                    const auto at = g.shared<int>(4);  // first node, last node, recstart, reclength
                    acc::loop(g, acc::gang, nj, [&](int b) {
                      const int lo = start[b], hi = end[b];
                      acc::single(g, acc::per_gang, [&] { at[0] = at[1] = at[2] = at[3] = 0; });
                      for (int level = 0; level < height; ++level) {
                        const int first = at[0], last = at[1];
                        acc::barrier(g);
                        acc::loop(g, acc::vector, int(order), [&](int s) {
                          if (keys(first, s) <= lo && keys(first, s + 1) > lo && indices(first, s) < nodes)
                            at[0] = indices(first, s);
                          if (keys(last, s) <= hi && keys(last, s + 1) > hi && indices(last, s) < nodes)
                            at[1] = indices(last, s);
                        });
                      }
                      const int first = at[0], last = at[1];
                      acc::loop(g, acc::vector, int(order), [&](int s) {
                        if (keys(first, s) == lo) at[2] = indices(first, s);
                      });
                      const int rs = at[2];
                      acc::loop(g, acc::vector, int(order), [&](int s) {
                        if (keys(last, s) == hi) at[3] = indices(last, s) - rs + 1;
                      });
                      acc::single(g, acc::per_gang, [&] {
                        recstart[b] = at[2];
                        reclength[b] = at[3];
                      });
                    });
                  });
}

}  // namespace

int main(int argc, char** argv) try {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const int nk = argc > 2 ? std::atoi(argv[2]) : 10000;
  const int nj = argc > 3 ? std::atoi(argv[3]) : 6000;
  const int range = argc > 4 ? std::atoi(argv[4]) : 3000;
  if (n < 1 || n > 500000000 || nk < 0 || nj < 0 || range < 0) {
    std::fprintf(stderr, "usage: b+tree [keys >= 1] [k queries >= 0] [j queries >= 0] [j range >= 0]\n");
    return 2;
  }
  std::printf("b+tree: %d keys, order %d, %d k queries, %d j queries of range %d\n", n, order, nk, nj, range);
  rodinia::random r(1000000);
  std::vector<int> sorted(n);
  for (int i = 0, key = 0; i < n; ++i) sorted[i] = key += 1 + int(r.below(2));  // steps of 1 or 2
  const tree tr = build(sorted);
  const int max_key = sorted.back();
  queries q;
  for (int i = 0; i < nk; ++i) q.k.push_back(int(r.below(max_key + 2)));
  for (int i = 0; i < nj; ++i) {
    const int s = int(r.below(max_key + 1));
    q.start.push_back(s);
    q.end.push_back(s + range);
  }
  std::vector<int> ref_ans, ref_start, ref_length;
  reference(sorted, q, ref_ans, ref_start, ref_length);
  std::printf("    tree: %d nodes, %d inner levels\n", tr.nodes, tr.height);

  acc::array<int, 2> keys("knode_keys", tr.nodes, order + 1), indices("knode_indices", tr.nodes, order + 1);
  acc::array<int> records("records", n), k("k_keys", std::max(nk, 1)), ans("ans", std::max(nk, 1));
  acc::array<int> start("start", std::max(nj, 1)), end("end", std::max(nj, 1));
  acc::array<int> recstart("recstart", std::max(nj, 1)), reclength("reclength", std::max(nj, 1));
  std::copy(tr.keys.begin(), tr.keys.end(), keys.begin());
  std::copy(tr.indices.begin(), tr.indices.end(), indices.begin());
  std::copy(sorted.begin(), sorted.end(), records.begin());  // a record's value is its key, as Rodinia's
  std::copy(q.k.begin(), q.k.end(), k.begin());
  std::copy(q.start.begin(), q.start.end(), start.begin());
  std::copy(q.end.begin(), q.end.end(), end.begin());

  acc::data region{acc::copyin(keys),  acc::copyin(indices), acc::copyin(records),  acc::copyin(k),
                   acc::copyin(start), acc::copyin(end),     acc::create(ans),      acc::create(recstart),
                   acc::create(reclength)};
  const device_tree t{keys, indices, records, tr.height, tr.nodes};
  const acc::view<const int> kv(k.data(), nk), sv(start.data(), nj), ev(end.data(), nj);
  const acc::view<int> av(ans.data(), nk), rsv(recstart.data(), nj), rlv(reclength.data(), nj);
  struct variant {
    const char* name;
    void (*run)(const device_tree&, acc::view<const int>, acc::view<int>, acc::view<const int>,
                acc::view<const int>, acc::view<int>, acc::view<int>);
  };
  bool ok = true;
  for (const variant v : {variant{"parallel_loop", search_parallel_loop}, variant{"gang_vector", search_gang_vector}}) {
    const double s = rodinia::median_seconds([&] { v.run(t, kv, av, sv, ev, rsv, rlv); });
    rodinia::report(v.name, s);
    acc::update_self(ans);
    acc::update_self(recstart);
    acc::update_self(reclength);
    long wrong = 0, found = 0;
    for (int i = 0; i < nk; ++i) wrong += ans[i] != ref_ans[i], found += ref_ans[i] >= 0;
    for (int i = 0; i < nj; ++i) wrong += recstart[i] != ref_start[i] || reclength[i] != ref_length[i];
    std::printf("    %s: %ld of %d k queries found, %ld answers differ from the reference\n", v.name, found, nk, wrong);
    ok &= wrong == 0;
    std::fill(ans.begin(), ans.end(), -7);
    std::fill(recstart.begin(), recstart.end(), -7);
    std::fill(reclength.begin(), reclength.end(), -7);
    acc::update_device(ans);
    acc::update_device(recstart);
    acc::update_device(reclength);
  }
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "b+tree: %s\n", e.what());
  return 1;
}
