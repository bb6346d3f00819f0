// NPB BT's grid, fields and block tridiagonal line solves (x_solve, y_solve, z_solve on the GPU),
// shared by examples/npb_bt and bench_tuned (which times a sweep's parallel_loop against fixed
// launch shapes). Written for acc from the NPB 3.4 specification of BT (NAS technical reports
// RNR-94-007 and NAS-95-020); the constants are NPB 3.4's (set_constants()). examples/npb_bt/bt.cpp
// describes the layout.
#pragma once

#include <acc/parallel.hpp>

#include <cmath>

// The 5x5 block routines are forced inline into the host's loops: g++ keeps them out of line,
// and the blocks then go through memory. nvcc's device pass keeps its own choice.
#if defined(__CUDA_ARCH__) || !defined(__GNUC__)
#  define BT_INLINE inline
#else
#  define BT_INLINE inline __attribute__((always_inline))
#endif

namespace npb::bt {

// --- The scheme's constants (NPB's set_constants) ------------------------------------------------
// Directions d = 0, 1, 2 are xi (index i), eta (j), zeta (k). In direction d the normal momentum
// is component d + 1 of u; the NPB names per direction are tx*, ty*, tz*, dx*, dy*, dz*, xxcon*,
// yycon*, zzcon*.
struct coefficients {
  double ce[5][13];  // exact solution: per component, a quartic in each coordinate (NPB's ce, transposed)
  double dt;
  double c1, c2, c3c4, c1345, con43, dssp;
  double dn[3];       // grid spacing 1 / (n - 1)
  double t1[3];       // 1 / h^2       (tx1)
  double t2[3];       // 1 / (2 h)     (tx2)
  double dd[3][5];    // second-order dissipation per component (dx1..dx5)
  double dt1[3][5];   // dd * t1       (dx1tx1..dx5tx1)
  double con[3][5];   // viscous terms (xxcon1..xxcon5)
};

inline coefficients make_coefficients(const int n[3], double dt) {
  coefficients c{};
  constexpr double ce[5][13] = {
      {2.0, 0.0, 0.0, 4.0, 5.0, 3.0, 0.5, 0.02, 0.01, 0.03, 0.5, 0.4, 0.3},
      {1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.01, 0.03, 0.02, 0.4, 0.3, 0.5},
      {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.04, 0.03, 0.05, 0.3, 0.5, 0.4},
      {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.03, 0.05, 0.04, 0.2, 0.1, 0.3},
      {5.0, 4.0, 3.0, 2.0, 0.1, 0.4, 0.3, 0.05, 0.04, 0.03, 0.1, 0.3, 0.2},
  };
  for (int m = 0; m < 5; ++m)
    for (int e = 0; e < 13; ++e) c.ce[m][e] = ce[m][e];
  c.dt = dt;
  const double c1 = 1.4, c2 = 0.4, c3 = 0.1, c4 = 1.0, c5 = 1.4;
  const double c1c5 = c1 * c5, c3c4 = c3 * c4, conz1 = 1.0 - c1c5, con16 = 1.0 / 6.0;
  c.c1 = c1;
  c.c2 = c2;
  c.c3c4 = c3c4;
  c.c1345 = c1c5 * c3c4;
  c.con43 = 4.0 / 3.0;
  const double dissipation[3] = {0.75, 0.75, 1.0};  // NPB's dx*, dy*, dz* (equal within a direction)
  c.dssp = 0.25 * std::fmax(dissipation[0], std::fmax(dissipation[1], dissipation[2]));
  for (int d = 0; d < 3; ++d) {
    const double h = 1.0 / double(n[d] - 1);
    c.dn[d] = h;
    c.t1[d] = 1.0 / (h * h);
    c.t2[d] = 1.0 / (2.0 * h);
    const double t3 = 1.0 / h;
    for (int m = 0; m < 5; ++m) {
      c.dd[d][m] = dissipation[d];
      c.dt1[d][m] = dissipation[d] * c.t1[d];
    }
    const double c3c4t3 = c3c4 * t3;
    c.con[d][0] = c3c4t3 * c.con43 * t3;
    c.con[d][1] = c3c4t3 * t3;
    c.con[d][2] = c3c4t3 * conz1 * t3;
    c.con[d][3] = c3c4t3 * con16 * t3;
    c.con[d][4] = c3c4t3 * c1c5 * t3;
  }
  return c;
}
/// Component m of the exact solution at (xi, eta, zeta) in the unit cube.
ACC_ROUTINE double exact_solution(const coefficients& c, int m, double xi, double eta, double zeta) {
  const double* e = c.ce[m];
  return e[0] + xi * (e[1] + xi * (e[4] + xi * (e[7] + xi * e[10]))) +
         eta * (e[2] + eta * (e[5] + eta * (e[8] + eta * e[11]))) +
         zeta * (e[3] + zeta * (e[6] + zeta * (e[9] + zeta * e[12])));
}

// --- The grid and its fields --------------------------------------------------------------------
/// Point-wise quantities compute_rhs derives from u (NPB's rho_i, us, vs, ws, square, qs);
/// velocity in direction d is field 1 + d.
enum aux_field { rho_inv = 0, square = 4, qs = 5, aux_fields = 6 };

struct grid {
  int n[3];     // points in xi, eta, zeta
  long points;  // n[0] * n[1] * n[2]
  ACC_ROUTINE long at(int k, int j, int i) const { return (long(k) * n[1] + j) * n[0] + i; }
  ACC_ROUTINE long stride(int d) const { return d == 0 ? 1 : d == 1 ? long(n[0]) : long(n[0]) * n[1]; }
};

/// The arrays as compute constructs see them; component m of a field at point p is [m * points + p].
struct fields {
  grid g;
  acc::view<double> u, rhs, forcing, aux;
  acc::view<double> lhs_c;  // the line solves' eliminated upper blocks C'

  ACC_ROUTINE double& U(int m, long p) const { return u[m * g.points + p]; }
  ACC_ROUTINE double& R(int m, long p) const { return rhs[m * g.points + p]; }
  ACC_ROUTINE double& F(int m, long p) const { return forcing[m * g.points + p]; }
  ACC_ROUTINE double& A(int f, long p) const { return aux[f * g.points + p]; }
};

/// The aux fields at point p from u (the first step of NPB's compute_rhs).
ACC_ROUTINE inline void derive_aux(const fields& f, long p) {
  const double u1 = f.U(1, p), u2 = f.U(2, p), u3 = f.U(3, p);
  const double r = 1.0 / f.U(0, p);
  const double sq = 0.5 * (u1 * u1 + u2 * u2 + u3 * u3) * r;
  f.A(rho_inv, p) = r;
  f.A(1, p) = u1 * r;
  f.A(2, p) = u2 * r;
  f.A(3, p) = u3 * r;
  f.A(square, p) = sq;
  f.A(qs, p) = sq * r;
}

// --- Initial field and forcing (NPB's initialize and exact_rhs) ---------------------------------
/// u at one point: the exact solution on the boundary (the k faces win over the j faces over the
/// i faces, as NPB writes them in that order), elsewhere the transfinite interpolation of the six
/// faces' exact values.
ACC_ROUTINE void initial_value(const coefficients& c, const grid& g, int k, int j, int i, double out[5]) {
  const double xi = double(i) * c.dn[0], eta = double(j) * c.dn[1], zeta = double(k) * c.dn[2];
  const bool kface = k == 0 || k == g.n[2] - 1, jface = j == 0 || j == g.n[1] - 1, iface = i == 0 || i == g.n[0] - 1;
  for (int m = 0; m < 5; ++m) {
    if (kface) {
      out[m] = exact_solution(c, m, xi, eta, k == 0 ? 0.0 : 1.0);
    } else if (jface) {
      out[m] = exact_solution(c, m, xi, j == 0 ? 0.0 : 1.0, zeta);
    } else if (iface) {
      out[m] = exact_solution(c, m, i == 0 ? 0.0 : 1.0, eta, zeta);
    } else {
      const double pxi = xi * exact_solution(c, m, 1.0, eta, zeta) + (1.0 - xi) * exact_solution(c, m, 0.0, eta, zeta);
      const double peta = eta * exact_solution(c, m, xi, 1.0, zeta) + (1.0 - eta) * exact_solution(c, m, xi, 0.0, zeta);
      const double pzeta =
          zeta * exact_solution(c, m, xi, eta, 1.0) + (1.0 - zeta) * exact_solution(c, m, xi, eta, 0.0);
      out[m] = pxi + peta + pzeta - pxi * peta - pxi * pzeta - peta * pzeta + pxi * peta * pzeta;
    }
  }
}

inline void initialize(const fields& f, const coefficients& c) {
  const grid g = f.g;
  acc::parallel_loop(acc::collapse(g.n[2], g.n[1], g.n[0]), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    double v[5];
    initial_value(c, g, k, j, i, v);
    const long p = g.at(k, j, i);
    for (int m = 0; m < 5; ++m) f.U(m, p) = v[m];
  });
}
// --- 5x5 block operations (NPB's binvcrhs, binvrhs, matmul_sub, matvec_sub); blocks are [row][col]
/// Gauss-Jordan elimination without pivoting: c = a^-1 c and r = a^-1 r; a is destroyed.
ACC_ROUTINE BT_INLINE void binvcrhs(double a[5][5], double c[5][5], double r[5]) {
  for (int p = 0; p < 5; ++p) {
    const double pivot = 1.0 / a[p][p];
    for (int n = p + 1; n < 5; ++n) a[p][n] = a[p][n] * pivot;
    for (int n = 0; n < 5; ++n) c[p][n] = c[p][n] * pivot;
    r[p] = r[p] * pivot;
    for (int q = 0; q < 5; ++q) {
      if (q == p) continue;
      const double coeff = a[q][p];
      for (int n = p + 1; n < 5; ++n) a[q][n] = a[q][n] - coeff * a[p][n];
      for (int n = 0; n < 5; ++n) c[q][n] = c[q][n] - coeff * c[p][n];
      r[q] = r[q] - coeff * r[p];
    }
  }
}

/// r = a^-1 r; a is destroyed.
ACC_ROUTINE BT_INLINE void binvrhs(double a[5][5], double r[5]) {
  for (int p = 0; p < 5; ++p) {
    const double pivot = 1.0 / a[p][p];
    for (int n = p + 1; n < 5; ++n) a[p][n] = a[p][n] * pivot;
    r[p] = r[p] * pivot;
    for (int q = 0; q < 5; ++q) {
      if (q == p) continue;
      const double coeff = a[q][p];
      for (int n = p + 1; n < 5; ++n) a[q][n] = a[q][n] - coeff * a[p][n];
      r[q] = r[q] - coeff * r[p];
    }
  }
}

/// c = c - a b.
ACC_ROUTINE BT_INLINE void matmul_sub(const double a[5][5], const double b[5][5], double c[5][5]) {
  for (int m = 0; m < 5; ++m)
    for (int n = 0; n < 5; ++n) {
      double s = c[m][n];
      for (int l = 0; l < 5; ++l) s = s - a[m][l] * b[l][n];
      c[m][n] = s;
    }
}

/// w = w - a v.
ACC_ROUTINE BT_INLINE void matvec_sub(const double a[5][5], const double v[5], double w[5]) {
  for (int m = 0; m < 5; ++m) {
    double s = w[m];
    for (int n = 0; n < 5; ++n) s = s - a[m][n] * v[n];
    w[m] = s;
  }
}

// --- The implicit part: block tridiagonal solves along lines (NPB's x_solve, y_solve, z_solve) -----
/// Flux Jacobian fj and viscous Jacobian nj of direction d at point p.
ACC_ROUTINE BT_INLINE void jacobians(const fields& f, const coefficients& c, int d, long p, double fj[5][5], double nj[5][5]) {
  const double u[5] = {f.U(0, p), f.U(1, p), f.U(2, p), f.U(3, p), f.U(4, p)};
  const double tmp1 = f.A(rho_inv, p), tmp2 = tmp1 * tmp1, tmp3 = tmp1 * tmp2;
  const double q = f.A(qs, p), sq = f.A(square, p), c1 = c.c1, c2 = c.c2, c3c4 = c.c3c4, c1345 = c.c1345;
  const int cn = d + 1;
  const double un = u[cn];
  for (int m = 0; m < 5; ++m)
    for (int n = 0; n < 5; ++n) fj[m][n] = nj[m][n] = 0.0;

  fj[0][cn] = 1.0;
  for (int m = 1; m <= 3; ++m) {
    if (m == cn) {
      fj[m][0] = -(un * un * tmp2) + c2 * q;
      for (int t = 1; t <= 3; ++t) fj[m][t] = t == cn ? (2.0 - c2) * un * tmp1 : -c2 * u[t] * tmp1;
      fj[m][4] = c2;
    } else {
      fj[m][0] = -(u[m] * un) * tmp2;
      fj[m][cn] = u[m] * tmp1;
      fj[m][m] = un * tmp1;
    }
  }
  fj[4][0] = (c2 * 2.0 * sq - c1 * u[4]) * un * tmp2;
  for (int t = 1; t <= 3; ++t)
    fj[4][t] = t == cn ? c1 * u[4] * tmp1 - c2 * (un * un * tmp2 + q) : -c2 * (u[t] * un) * tmp2;
  fj[4][4] = c1 * un * tmp1;

  double kv[4];  // viscous coefficient per momentum component: 4/3 for the normal one
  for (int m = 1; m <= 3; ++m) {
    kv[m] = m == cn ? c.con43 * c3c4 : c3c4;
    nj[m][0] = -kv[m] * tmp2 * u[m];
    nj[m][m] = kv[m] * tmp1;
  }
  nj[4][0] = -(kv[1] - c1345) * tmp3 * (u[1] * u[1]) - (kv[2] - c1345) * tmp3 * (u[2] * u[2]) -
             (kv[3] - c1345) * tmp3 * (u[3] * u[3]) - c1345 * tmp2 * u[4];
  for (int m = 1; m <= 3; ++m) nj[4][m] = (kv[m] - c1345) * tmp2 * u[m];
  nj[4][4] = c1345 * tmp1;
}

/// A line's coupling block to a neighbour from the neighbour's Jacobians: a (the one before,
/// sign -1) or cc (the one after, sign +1).
ACC_ROUTINE BT_INLINE void off_block(const coefficients& c, int d, double sign, const double fj[5][5],
                                     const double nj[5][5], double out[5][5]) {
  const double t1 = c.dt * c.t1[d], t2 = sign * c.dt * c.t2[d];
  const double* dd = c.dd[d];
  for (int m = 0; m < 5; ++m)
    for (int n = 0; n < 5; ++n) {
      out[m][n] = t2 * fj[m][n] - t1 * nj[m][n];
      if (m == n) out[m][n] = out[m][n] - t1 * dd[m];
    }
}

/// A line's diagonal block b from its point's viscous Jacobian.
ACC_ROUTINE BT_INLINE void diagonal_block(const coefficients& c, int d, const double nj[5][5], double b[5][5]) {
  const double t1 = c.dt * c.t1[d];
  const double* dd = c.dd[d];
  for (int m = 0; m < 5; ++m)
    for (int n = 0; n < 5; ++n) b[m][n] = m == n ? 1.0 + t1 * 2.0 * nj[m][n] + t1 * 2.0 * dd[m] : t1 * 2.0 * nj[m][n];
}

/// The blocks of the line's row at point p: a (coupling to p - s), b (diagonal), cc (to p + s),
/// each from its point's Jacobians, computed here one after the other.
ACC_ROUTINE BT_INLINE void lhs_blocks(const fields& f, const coefficients& c, int d, long p, long s, double a[5][5],
                                      double b[5][5], double cc[5][5]) {
  double fj[5][5], nj[5][5];
  jacobians(f, c, d, p - s, fj, nj);
  off_block(c, d, -1.0, fj, nj, a);
  jacobians(f, c, d, p, fj, nj);
  diagonal_block(c, d, nj, b);
  jacobians(f, c, d, p + s, fj, nj);
  off_block(c, d, 1.0, fj, nj, cc);
}

/// Solves the block tridiagonal system of one grid line along direction d in place in rhs: p0 is
/// the line's first (boundary) point; cprime(pos, e) is where element e of the eliminated upper
/// block C' at position pos is kept until back substitution. NPB's system also has identity rows
/// with zero right-hand side at the two boundary points; they leave the interior unchanged, so
/// the sweep covers the interior points only.
template <class CPrime>
ACC_ROUTINE BT_INLINE void solve_line(const fields& f, const coefficients& c, int d, long p0, const CPrime& cprime) {
  const long s = f.g.stride(d);
  const int n = f.g.n[d];
  // Forward elimination: row pos becomes r' = (b - a c'_{pos-1})^-1 (r - a r'_{pos-1}) and
  // c'_pos = (b - a c'_{pos-1})^-1 c; the boundary row before the first has c' = 0 and r' = 0.
  double cprev[5][5] = {}, rprev[5] = {};
#if !defined(__CUDA_ARCH__)
  double fj[3][5][5], nj[3][5][5];  // the Jacobians of three consecutive positions, by position % 3
#endif
  for (int pos = 1; pos <= n - 2; ++pos) {
    const long p = p0 + pos * s;
    double a[5][5], b[5][5], cc[5][5], r[5];
#if defined(__CUDA_ARCH__)
    lhs_blocks(f, c, d, p, s, a, b, cc);
#else
    // On the host the Jacobians of positions pos - 1 and pos are the previous row's, kept in
    // slots (pos - 1) % 3 and pos % 3: one Jacobian per point instead of three, as NPB's
    // fjac/njac arrays. A GPU thread keeps them in no registers to spare, so it recomputes.
    if (pos == 1)
      for (int q = 0; q <= 1; ++q) jacobians(f, c, d, p0 + q * s, fj[q], nj[q]);
    jacobians(f, c, d, p + s, fj[(pos + 1) % 3], nj[(pos + 1) % 3]);
    off_block(c, d, -1.0, fj[(pos - 1) % 3], nj[(pos - 1) % 3], a);
    diagonal_block(c, d, nj[pos % 3], b);
    off_block(c, d, 1.0, fj[(pos + 1) % 3], nj[(pos + 1) % 3], cc);
#endif
    for (int m = 0; m < 5; ++m) r[m] = f.R(m, p);
    matvec_sub(a, rprev, r);
    matmul_sub(a, cprev, b);
    if (pos < n - 2) {
      binvcrhs(b, cc, r);
      for (int m = 0; m < 5; ++m)
        for (int l = 0; l < 5; ++l) {
          cprime(pos, m * 5 + l) = cc[m][l];
          cprev[m][l] = cc[m][l];
        }
    } else {
      binvrhs(b, r);
    }
    for (int m = 0; m < 5; ++m) {
      f.R(m, p) = r[m];
      rprev[m] = r[m];
    }
  }
  // Back substitution: x_pos = r'_pos - c'_pos x_{pos+1}.
  for (int pos = n - 3; pos >= 1; --pos) {
    const long p = p0 + pos * s;
    for (int m = 0; m < 5; ++m) {
      double v = f.R(m, p);
      for (int l = 0; l < 5; ++l) v = v - cprime(pos, m * 5 + l) * rprev[l];
      f.R(m, p) = v;
    }
    for (int m = 0; m < 5; ++m) rprev[m] = f.R(m, p);
  }
}

/// The GPU's solve along direction d: one line per thread, parallel over the two other
/// dimensions (outer, inner), C' in lhs_c at [position][element][line] so that the threads of
/// neighbouring lines touch consecutive addresses.
/// `clauses`: launch clauses (bench_tuned's shapes); the example gives none.
template <int d, class... Clauses>
void solve_lines(const fields& f, const coefficients& c, Clauses... clauses) {
  const grid g = f.g;
  const int outer = d == 2 ? g.n[1] - 2 : g.n[2] - 2, inner = d == 0 ? g.n[1] - 2 : g.n[0] - 2;
  const long lines = long(outer) * inner;
  acc::parallel_loop(acc::collapse(outer, inner), acc::default_present, clauses..., ACC_LAMBDA(int o, int i) {
    const long p0 = d == 0 ? g.at(o + 1, i + 1, 0) : d == 1 ? g.at(o + 1, 0, i + 1) : g.at(0, o + 1, i + 1);
    const long line = long(o) * inner + i;
    solve_line(f, c, d, p0, [&](int pos, int e) -> double& { return f.lhs_c[(long(pos) * 25 + e) * lines + line]; });
  });
}

}  // namespace npb::bt
