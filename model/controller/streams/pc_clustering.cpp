// Weighted 1-D k-means on log lifetimes (see pc_clustering.h).
#include "controller/streams/pc_clustering.h"

#include <algorithm>

namespace ssdtlm {

uint32_t nearest_centroid(const std::vector<double>& c, double x) {
  // The first centroid whose upper midpoint is at or above x.
  uint32_t lo = 0, hi = uint32_t(c.size()) - 1;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (x <= (c[mid] + c[mid + 1]) / 2)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

std::vector<double> cluster_lifetimes(std::vector<LifetimePoint> p, uint32_t k) {
  std::vector<double> c;
  if (p.empty() || k == 0) return c;
  std::sort(p.begin(), p.end(), [](const LifetimePoint& a, const LifetimePoint& b) { return a.x < b.x || (a.x == b.x && a.w < b.w); });
  // Merge equal values: a cluster boundary never splits them.
  std::vector<LifetimePoint> v;
  for (const LifetimePoint& q : p) {
    if (!v.empty() && v.back().x == q.x)
      v.back().w += q.w;
    else
      v.push_back(q);
  }
  const size_t n = v.size();
  if (n <= k) {
    for (const LifetimePoint& q : v) c.push_back(q.x);
    return c;
  }
  std::vector<double> W(n + 1, 0), WX(n + 1, 0);  // prefix sums of w and w*x
  for (size_t i = 0; i < n; ++i) {
    W[i + 1] = W[i] + v[i].w;
    WX[i + 1] = WX[i] + v[i].w * v[i].x;
  }
  // Initial clusters: cut at the k - 1 widest gaps between neighbouring values (ties: the lower gap), so
  // clearly separated groups start apart; their weighted means are the first centroids.
  std::vector<size_t> gaps(n - 1);
  for (size_t i = 0; i + 1 < n; ++i) gaps[i] = i;
  std::stable_sort(gaps.begin(), gaps.end(), [&](size_t a, size_t b) { return v[a + 1].x - v[a].x > v[b + 1].x - v[b].x; });
  gaps.resize(k - 1);
  std::sort(gaps.begin(), gaps.end());
  size_t from = 0;
  for (size_t i = 0; i <= gaps.size(); ++i) {
    const size_t to = i < gaps.size() ? gaps[i] + 1 : n;
    c.push_back((WX[to] - WX[from]) / (W[to] - W[from]));
    from = to;
  }
  std::vector<size_t> bound, prev;  // bound[i]: first point of cluster i + 1
  for (int step = 0; step < 64; ++step) {
    bound.clear();
    for (size_t i = 0; i + 1 < c.size(); ++i) {
      const double mid = (c[i] + c[i + 1]) / 2;  // points at the midpoint go to the lower cluster
      bound.push_back(size_t(std::upper_bound(v.begin(), v.end(), mid, [](double m, const LifetimePoint& q) { return m < q.x; }) - v.begin()));
    }
    if (bound == prev) break;
    prev = bound;
    std::vector<double> next;
    from = 0;
    for (size_t i = 0; i <= bound.size(); ++i) {
      const size_t to = i < bound.size() ? bound[i] : n;
      if (to > from) next.push_back((WX[to] - WX[from]) / (W[to] - W[from]));  // an empty run is dropped
      from = std::max(from, to);
    }
    c.swap(next);
  }
  return c;
}

}  // namespace ssdtlm
