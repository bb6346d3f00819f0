// Rodinia 3.1 nn (k nearest hurricane records to a position) with acc. Rodinia computes every
// record's distance on the device and picks the k nearest on the host; variant "distances"
// does the same (timed: the distance construct), variant "select" also picks them on the
// device, with k min_loc reductions. Both are checked against a CPU run, indices exactly.
//
//   nn [records = 42764] [k = 10] [lat = 30] [lng = 90]
//
// Rodinia reads hurricane records (year, ..., latitude, longitude, ...) from files written by
// its hurricane_gen.c: latitude 7-70, longitude 0-358, both printed with one decimal. Here the
// records are generated with the same ranges and resolution, 42764 of them (the size of the
// four cane4_*.db files of Rodinia's filelist_4 run).
#include <acc/parallel.hpp>

#include "../common/rodinia.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <vector>

namespace {

// Positions are held in tenths of a degree, the records' resolution: every difference and
// square below is then an integer under 2^24, exact in float on every device (fused or not),
// so the GPU's distances equal the CPU's bit for bit and so do the neighbours they select.
struct lat_lng {
  float lat, lng;
};

ACC_ROUTINE inline float distance(lat_lng a, float lat, float lng) {
  return 0.1f * std::sqrt((lat - a.lat) * (lat - a.lat) + (lng - a.lng) * (lng - a.lng));
}

// Rodinia's findLowest: the k smallest distances, ties to the earlier record.
std::vector<int> lowest(const std::vector<float>& d, int k) {
  std::vector<int> idx(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) idx[i] = int(i);
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                    [&](int a, int b) { return d[a] < d[b] || (d[a] == d[b] && a < b); });
  idx.resize(k);
  return idx;
}

}  // namespace

int main(int argc, char** argv) try {
  const int n = argc > 1 ? std::atoi(argv[1]) : 42764;
  int k = argc > 2 ? std::atoi(argv[2]) : 10;
  const float lat = float(std::lround((argc > 3 ? std::atof(argv[3]) : 30.0) * 10));
  const float lng = float(std::lround((argc > 4 ? std::atof(argv[4]) : 90.0) * 10));
  if (n < 1 || k < 1) {
    std::fprintf(stderr, "usage: nn [records >= 1] [k >= 1] [lat] [lng]\n");
    return 2;
  }
  k = std::min(k, n);  // as Rodinia: no more neighbours than records
  std::printf("nn: %d records, k = %d, position (%.1f, %.1f), on %s\n", n, k, lat / 10, lng / 10,
              acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");

  acc::array<lat_lng> locations("locations", n);
  acc::array<float> distances("distances", n), scratch("scratch", n);
  rodinia::random rng(4);
  for (int i = 0; i < n; ++i) locations[i] = {float(70 + rng.below(630)), float(rng.below(3580))};

  // The CPU reference.
  std::vector<float> ref(n);
  for (int i = 0; i < n; ++i) ref[i] = distance(locations[i], lat, lng);
  const std::vector<int> nearest = lowest(ref, k);
  bool ok = true;

  acc::data region{acc::copyin(locations), acc::create(distances), acc::create(scratch)};

  // #pragma acc parallel loop present(locations, distances)
  auto euclid = [&] {
    acc::view<const lat_lng> loc = locations;
    acc::view<float> d = distances;
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { d[i] = distance(loc[i], lat, lng); });
  };
  rodinia::report("distances", rodinia::median_seconds([] {}, euclid));
  acc::update_self(distances);
  {
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += distances[i] != ref[i];
    const std::vector<int> got = lowest(std::vector<float>(distances.begin(), distances.end()), k);
    if (bad || got != nearest) {
      std::printf("nn: distances: %d distances differ from the CPU's, neighbours %s\n", bad,
                  got == nearest ? "agree" : "differ");
      ok = false;
    }
  }

  // k rounds of min_loc over a scratch copy, each taking the found record out (+inf).
  std::vector<int> selected(k);
  auto select = [&] {
    euclid();
    acc::view<const float> d = distances;
    acc::view<float> s = scratch;
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { s[i] = d[i]; });
    for (int r = 0; r < k; ++r) {
      const auto m = acc::parallel_reduce(n, acc::min_loc, ACC_LAMBDA(int i) { return acc::loc(s[i], i); });
      selected[r] = m.index;
      const int found = m.index;
      acc::parallel_loop(1, acc::default_present, ACC_LAMBDA(int) { s[found] = std::numeric_limits<float>::infinity(); });
    }
  };
  rodinia::report("select", rodinia::median_seconds([] {}, select));
  if (selected != nearest) {
    std::printf("nn: select: the device's neighbours differ from the CPU's\n");
    ok = false;
  }
  for (int r = 0; r < std::min(k, 5); ++r)
    std::printf("  record %d --> distance %.4f\n", nearest[r], ref[nearest[r]]);
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "nn: %s\n", e.what());
  return 1;
}
