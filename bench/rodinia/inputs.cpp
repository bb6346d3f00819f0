// Writes the input files of Rodinia 3.1's CUDA programs in their formats, holding the same data
// that acc's ports in examples/ generate in memory (the same generators, seeds and sizes), so that
// bench/rodinia.sh runs both on one problem: the iteration counts of kmeans and bfs depend on
// the data, not only on its size. Each generator below restates its port's; keep them in step.
//
//   inputs hotspot    ROWS COLS TEMP POWER              (examples/hotspot/hotspot.hpp)
//   inputs hotspot3D  ROWS LAYERS POWER TEMP            (examples/hotspot3D)
//   inputs bfs        NODES GRAPH                       (examples/bfs)
//   inputs kmeans     POINTS FEATURES CLUSTERS FILE     (examples/kmeans; Rodinia's -b format)
//   inputs nn         RECORDS DIR                       (examples/nn; writes DIR/filelist)
//   inputs cfd        ELEMENTS FILE                     (examples/cfd)
//   inputs b+tree     KEYS K_QUERIES J_QUERIES RANGE KEYFILE COMMANDFILE   (examples/b+tree)
//   inputs myocyte    DIR                               (examples/myocyte/data.hpp; writes
//                                                        DIR/y.txt and DIR/params.txt)
#include "../../examples/common/rodinia.hpp"
#include "../../examples/myocyte/data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

FILE* open_out(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  return f;
}

// examples/hotspot/hotspot.hpp make_input; Rodinia's readinput: one value a line, row-major.
void hotspot(int rows, int cols, const char* temp_path, const char* power_path) {
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  auto uniform = [&x] {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  };
  FILE* t = open_out(temp_path);
  FILE* p = open_out(power_path);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const float temp = float(320.0 + 20.0 * uniform());
      const bool unit = (i / 37 + j / 53) % 3 == 0;
      const float power = float((unit ? 4e-3 : 2e-4) * uniform());
      std::fprintf(t, "%.9g\n", temp);
      std::fprintf(p, "%.9g\n", power);
    }
  std::fclose(t);
  std::fclose(p);
}

// examples/hotspot3D; Rodinia's 3D.cu reads rows, then columns, then layers innermost.
void hotspot3D(int rows, int layers, const char* power_path, const char* temp_path) {
  const int nx = rows, ny = rows, nz = layers;
  std::vector<float> temp(std::size_t(nx) * ny * nz), power(temp.size());
  rodinia::random rng(11);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const std::size_t c = (std::size_t(z) * ny + y) * nx + x;
        temp[c] = float(320 + 20 * rng.uniform());
        const bool unit = (y / 37 + x / 53 + z) % 3 == 0;
        power[c] = float((unit ? 4e-3 : 2e-4) * rng.uniform());
      }
  FILE* t = open_out(temp_path);
  FILE* p = open_out(power_path);
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x)
      for (int z = 0; z < nz; ++z) {
        const std::size_t c = (std::size_t(z) * ny + y) * nx + x;
        std::fprintf(t, "%.9g\n", temp[c]);
        std::fprintf(p, "%.9g\n", power[c]);
      }
  std::fclose(t);
  std::fclose(p);
}

// examples/bfs (Rodinia's graphgen law); the format of Rodinia's graph*.txt: node count, per node
// "first-edge count", the source, the edge count, per edge "node weight".
void bfs(int n, const char* path) {
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
  FILE* f = open_out(path);
  std::fprintf(f, "%d\n", n);
  long m = 0;
  for (int u = 0; u < n; ++u) {
    std::fprintf(f, "%ld %zu\n", m, adjacency[u].size());
    m += long(adjacency[u].size());
  }
  std::fprintf(f, "\n0\n\n%ld\n", m);
  for (int u = 0; u < n; ++u)
    for (int v : adjacency[u]) std::fprintf(f, "%d 1\n", v);
  std::fclose(f);
}

// examples/kmeans make_points; Rodinia's binary format (-b): npoints, nfeatures, then the floats.
void kmeans(int n, int nf, int nc, const char* path) {
  std::vector<float> f(std::size_t(n) * nf);
  rodinia::random r(494020);
  std::vector<double> centre(std::size_t(nc) * nf);
  for (auto& x : centre) x = r.uniform(0.15, 0.85);
  for (int i = 0; i < n; ++i) {
    const std::size_t c = r.below(nc);
    for (int j = 0; j < nf; ++j) {
      const double x = centre[c * nf + j] + 0.1 * (r.uniform() + r.uniform() - 1.0);
      f[std::size_t(i) * nf + j] = float(std::clamp(std::floor(x * 256.0), 0.0, 255.0) / 256.0);
    }
  }
  FILE* out = open_out(path);
  std::fwrite(&n, sizeof n, 1, out);
  std::fwrite(&nf, sizeof nf, 1, out);
  std::fwrite(f.data(), sizeof(float), f.size(), out);
  std::fclose(out);
}

// examples/nn; records in the layout of Rodinia's hurricane_gen.c (its nn_cuda.cu reads the
// latitude at column 28 and the longitude at 33), split over four files as its filelist_4.
void nn(int n, const std::string& dir) {
  rodinia::random rng(4);
  FILE* list = open_out(dir + "/filelist");
  const int files = 4;
  for (int k = 0, i = 0; k < files; ++k) {
    const std::string name = dir + "/cane4_" + std::to_string(k) + ".db";
    std::fprintf(list, "%s\n", name.c_str());
    FILE* f = open_out(name);
    for (const int end = int(long(n) * (k + 1) / files); i < end; ++i) {
      const int lat = 70 + int(rng.below(630)), lng = int(rng.below(3580));  // tenths of a degree
      std::fprintf(f, "%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n", 1950 + i % 60, 1 + i % 12, 1 + i % 28,
                   i % 24, 1 + i % 99, "NAME", lat / 10.0, lng / 10.0, 50 + i % 100, 900 + i % 100);
    }
    std::fclose(f);
  }
  std::fclose(list);
}

// examples/cfd make_mesh; Rodinia's fvcorr.domn format: the element count, then per element its
// area and per face the neighbour (1-based; 0 the wall, -1 the far field) and the face normal,
// which Rodinia negates as it reads (so the negation is written here).
void cfd(int nel, const char* path) {
  constexpr int ndim = 3, nnb = 4, wall = -1, far = -2;
  std::vector<float> areas(nel), normals(std::size_t(ndim) * nnb * nel, 0.0f);
  std::vector<int> nb(std::size_t(nnb) * nel);
  const int width = std::min(nel, 512), rows = (nel + width - 1) / width;
  rodinia::random r(193474);
  std::vector<int> id(nel);
  std::iota(id.begin(), id.end(), 0);
  for (int k = nel - 1; k > 0; --k) std::swap(id[k], id[r.below(k + 1)]);
  auto cell = [&](int row, int col) { return row * width + col; };
  for (int row = 0; row < rows; ++row)
    for (int col = 0; col < width && cell(row, col) < nel; ++col) {
      const int i = id[cell(row, col)];
      areas[i] = float(r.uniform(0.9, 1.1));
      const bool plate_rows = row >= rows / 4 && row < 3 * rows / 4;
      const int dr[nnb] = {0, 0, 1, -1}, dc[nnb] = {1, -1, 0, 0};
      for (int j = 0; j < nnb; ++j) {
        const int rr = row + dr[j], cc = col + dc[j];
        int e = far;
        if (rr >= 0 && rr < rows && cc >= 0 && cc < width && cell(rr, cc) < nel) e = id[cell(rr, cc)];
        if (plate_rows && ((col == width / 2 - 1 && j == 0) || (col == width / 2 && j == 1))) e = wall;
        nb[std::size_t(j) * nel + i] = e;
        normals[(std::size_t(0) * nnb + j) * nel + i] = -0.5f * float(dc[j]);
        normals[(std::size_t(1) * nnb + j) * nel + i] = -0.5f * float(dr[j]);
      }
    }
  FILE* f = open_out(path);
  std::fprintf(f, "%d\n", nel);
  for (int i = 0; i < nel; ++i) {
    std::fprintf(f, "%.9g", areas[i]);
    for (int j = 0; j < nnb; ++j) {
      const int e = nb[std::size_t(j) * nel + i];
      std::fprintf(f, " %d", e >= 0 ? e + 1 : e == wall ? 0 : -1);
      for (int d = 0; d < ndim; ++d) std::fprintf(f, " %.9g", -normals[(std::size_t(d) * nnb + j) * nel + i]);
    }
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

// examples/b+tree: its sorted keys (Rodinia's mil.txt format: the count, then a key a line) and
// Rodinia's command file for the same numbers of k and j queries (Rodinia draws the queries
// itself, uniformly over the keys as the port does).
void btree(int n, int nk, int nj, int range, const char* key_path, const char* command_path) {
  rodinia::random r(1000000);
  FILE* f = open_out(key_path);
  std::fprintf(f, "%d\n", n);
  for (int i = 0, key = 0; i < n; ++i) std::fprintf(f, "%d\n", key += 1 + int(r.below(2)));
  std::fclose(f);
  FILE* c = open_out(command_path);
  std::fprintf(c, "j %d %d\nk %d\n", nj, range, nk);
  std::fclose(c);
}

// Rodinia's own data files for myocyte, which its repository lacks; the port holds their values.
// One value a line, as Rodinia reads them (fscanf "%f").
void myocyte_data(const std::string& dir) {
  FILE* y = open_out(dir + "/y.txt");
  for (double v : myocyte::initial_state) std::fprintf(y, "%.8e\n", v);
  std::fclose(y);
  FILE* p = open_out(dir + "/params.txt");
  for (double v : myocyte::initial_parameters) std::fprintf(p, "%.8e\n", v);
  std::fclose(p);
}

int arg(char** argv, int i) { return std::atoi(argv[i]); }

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "hotspot" && argc == 6) hotspot(arg(argv, 2), arg(argv, 3), argv[4], argv[5]);
  else if (what == "hotspot3D" && argc == 6) hotspot3D(arg(argv, 2), arg(argv, 3), argv[4], argv[5]);
  else if (what == "bfs" && argc == 4) bfs(arg(argv, 2), argv[3]);
  else if (what == "kmeans" && argc == 6) kmeans(arg(argv, 2), arg(argv, 3), arg(argv, 4), argv[5]);
  else if (what == "nn" && argc == 4) nn(arg(argv, 2), argv[3]);
  else if (what == "cfd" && argc == 4) cfd(arg(argv, 2), argv[3]);
  else if (what == "b+tree" && argc == 8) btree(arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5), argv[6], argv[7]);
  else if (what == "myocyte" && argc == 3) myocyte_data(argv[2]);
  else {
    std::fprintf(stderr, "usage: see the comment at the top of bench/rodinia/inputs.cpp\n");
    return 2;
  }
  return 0;
}
