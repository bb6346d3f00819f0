// Rodinia 3.1 bfs (breadth-first search: every node's level from node 0) with acc, as Rodinia's
// OpenMP and CUDA versions: per level, one construct expands the frontier (mask) into the
// unvisited neighbours, a second makes those the next frontier and reports whether there is one
// (OpenACC: `reduction(||:stop)`), until none is left. Verified exactly against a CPU
// queue-based search.
//
//   bfs [nodes = 1000000]
//
// Rodinia reads graph1MW_6.txt, made by its graphgen (1M nodes, each given 2-4 edges to random
// nodes, stored in both directions: about 6 per node). Here the graph is generated the same way.
#include <acc/parallel.hpp>

#include "../common/rodinia.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <queue>
#include <vector>

int main(int argc, char** argv) try {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  if (n < 1) {
    std::fprintf(stderr, "usage: bfs [nodes >= 1]\n");
    return 2;
  }
  // graphgen: 2 to 4 edges per node to uniformly random nodes (loops and repeats allowed),
  // each stored in both directions; then adjacency lists in node order (Rodinia's format:
  // per node the first edge and the count).
  std::vector<std::vector<int>> adjacency(n);
  rodinia::random rng(1);
  for (int u = 0; u < n; ++u) {
    const int k = 2 + int(rng.below(3));
    for (int e = 0; e < k; ++e) {
      const int v = int(rng.below(n));
      adjacency[u].push_back(v);
      adjacency[v].push_back(u);
    }
  }
  acc::array<int> starting("starting", n), degree("degree", n);
  long m = 0;
  for (int u = 0; u < n; ++u) m += long(adjacency[u].size());
  acc::array<int> edges("edges", m);
  m = 0;
  for (int u = 0; u < n; ++u) {
    starting[u] = int(m);
    degree[u] = int(adjacency[u].size());
    for (int v : adjacency[u]) edges[m++] = v;
  }
  std::printf("bfs: %d nodes, %ld edges, from node 0 on %s\n", n, m,
              acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");

  // The CPU reference: a queue.
  std::vector<int> ref(n, -1);
  {
    std::queue<int> q;
    ref[0] = 0;
    q.push(0);
    while (!q.empty()) {
      const int u = q.front();
      q.pop();
      for (int v : adjacency[u])
        if (ref[v] < 0) {
          ref[v] = ref[u] + 1;
          q.push(v);
        }
    }
  }
  adjacency = {};

  acc::array<char> mask("mask", n), updating("updating", n), visited("visited", n);
  acc::array<int> cost("cost", n);
  acc::data region{acc::copyin(starting), acc::copyin(degree), acc::copyin(edges), acc::create(mask),
                   acc::create(updating), acc::create(visited), acc::create(cost)};
  int levels = 0;
  auto reset = [&] {
    for (int u = 0; u < n; ++u) {
      mask[u] = visited[u] = u == 0;
      updating[u] = 0;
      cost[u] = u == 0 ? 0 : -1;
    }
    acc::update_device(mask);
    acc::update_device(updating);
    acc::update_device(visited);
    acc::update_device(cost);
  };
  auto search = [&] {
    acc::view<const int> first = starting, count = degree, to = edges;
    acc::view<char> frontier = mask, next = updating, seen = visited;
    acc::view<int> level = cost;
    bool more = true;
    levels = 0;
    while (more) {
      // #pragma acc parallel loop present(...): every frontier node labels its unvisited
      // neighbours (several may write one neighbour, all the same level).
      acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int u) {
        if (!frontier[u]) return;
        frontier[u] = 0;
        for (int e = first[u]; e < first[u] + count[u]; ++e) {
          const int v = to[e];
          if (!seen[v]) {
            level[v] = level[u] + 1;
            next[v] = 1;
          }
        }
      });
      // #pragma acc parallel loop reduction(||:more)
      more = acc::parallel_reduce(n, acc::logical_or, ACC_LAMBDA(int u) {
        if (!next[u]) return false;
        frontier[u] = seen[u] = 1;
        next[u] = 0;
        return true;
      });
      ++levels;
    }
  };
  rodinia::report("levels", rodinia::median_seconds(reset, search));
  acc::update_self(cost);
  long bad = 0, reached = 0;
  for (int u = 0; u < n; ++u) {
    bad += cost[u] != ref[u];
    reached += ref[u] >= 0;
  }
  std::printf("  %ld nodes reached in %d levels; %ld costs differ from the CPU's\n", reached, levels - 1, bad);
  return rodinia::verdict(bad == 0);
} catch (const std::exception& e) {
  std::fprintf(stderr, "bfs: %s\n", e.what());
  return 1;
}
